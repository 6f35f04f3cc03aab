//! The guard's own deadline: a refusal in time, whatever the guard is doing.
//!
//! Claude Code, Gemini CLI and Copilot CLI let a call run when its hook does
//! not answer within the hook's timeout. A guard that can be made slow (by a
//! long line, a hostile repository, a payload that never ends, a program a
//! `run` guard starts) would be a guard that can be switched off, so
//! `hookc guard` does not rely on finishing: a watchdog thread, started
//! before anything is read, answers a refusal in the harness's own protocol
//! once [`SHARE`] of the timeout has gone by, and ends the process.
//!
//! The watchdog only sleeps until then, so the work cannot starve it: the
//! kernel wakes it on time and it needs one lock that the work never holds
//! (the main thread takes it once, in [`Deadline::finish`], just before it
//! writes its own answer). Whichever comes first answers; the other never
//! writes a byte. A guard stuck in the kernel (a hung mount) cannot be ended
//! from inside: the shim's outer limit covers that case.

use std::ffi::OsString;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::ir::{Event, HarnessId};

/// The part of the harness's timeout the guard may use. The rest is the
/// margin for the harness starting the hook, the shim, and the answer
/// travelling back: what is left of a 10 s timeout is 3 s.
pub const SHARE: (u32, u32) = (7, 10);

/// The timeout assumed until the compiled policy says (hookc's default).
const UNTIL_THE_POLICY_SAYS: u32 = crate::resolve::DEFAULT_TIMEOUT;

/// The watchdog's stack: it renders one short answer.
const WATCHDOG_STACK: usize = 256 * 1024;

/// The guard that names the deadline in a refusal.
pub const GUARD: &str = "hookc-deadline";

/// The deadline of one `hookc guard` process. Dropping it does not stop the
/// watchdog: only [`finish`](Self::finish) does.
pub struct Deadline {
    shared: Arc<Shared>,
}

struct Shared {
    started: Instant,
    state: Mutex<State>,
    changed: Condvar,
}

struct State {
    /// The harness's timeout, in seconds.
    timeout: u32,
    /// Whose protocol the refusal is written in, and for which event.
    harness: HarnessId,
    event: Event,
    /// The main thread answers: the watchdog must not.
    finished: bool,
    /// The shim's nonce, repeated after the answer (see [`super::prove`]).
    nonce: Option<OsString>,
}

impl Deadline {
    /// Start the watchdog for a call to `harness` on `event`, counting from
    /// `started` (the process's start). When the thread cannot be started,
    /// the call is refused at once: a guard without its deadline is not run.
    pub fn start(started: Instant, harness: HarnessId, event: Event) -> Deadline {
        let shared = Self::kept(started, harness, event).shared;
        let watching = Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name("hookc-deadline".to_owned())
            .stack_size(WATCHDOG_STACK)
            .spawn(move || watch(&watching));
        if spawned.is_err() {
            refuse(
                &lock(&shared),
                "hookc could not start the watchdog that bounds its checking",
            );
        }
        Deadline { shared }
    }

    /// The deadline of a guard whose keeper ([`super::keeper`]) kills it in
    /// time: no watchdog, since the keeper's clock is earlier than the
    /// harness's and cannot be starved by the guard; the shim refuses what
    /// the keeper gives up. The guard's own bounds (a `run` guard's program,
    /// a directory walk) still count from `started`.
    pub fn kept(started: Instant, harness: HarnessId, event: Event) -> Deadline {
        Deadline {
            shared: Arc::new(Shared {
                started,
                state: Mutex::new(State {
                    timeout: UNTIL_THE_POLICY_SAYS,
                    harness,
                    event,
                    finished: false,
                    nonce: std::env::var_os(super::NONCE_VAR),
                }),
                changed: Condvar::new(),
            }),
        }
    }

    /// The harness gives the guard `seconds` (the compiled policy's timeout,
    /// or the harness's own limit where that is shorter).
    pub fn limit(&self, seconds: u32) {
        lock(&self.shared).timeout = seconds;
        self.shared.changed.notify_one();
    }

    /// A refusal goes out in `harness`'s protocol (a harness running another
    /// harness's hooks is answered in its own).
    pub fn answer_as(&self, harness: HarnessId) {
        lock(&self.shared).harness = harness;
    }

    /// The main thread is about to write its answer: from now on the
    /// watchdog stays silent. If it has already begun to answer, this never
    /// returns (the process ends with the watchdog's refusal).
    pub fn finish(&self) {
        lock(&self.shared).finished = true;
        self.shared.changed.notify_one();
    }

    /// When the watchdog answers, measured from the process's start.
    pub fn due(seconds: u32) -> Duration {
        Duration::from_secs(u64::from(seconds)) * SHARE.0 / SHARE.1
    }
}

fn lock(shared: &Shared) -> std::sync::MutexGuard<'_, State> {
    shared.state.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Sleep until the deadline (it may move while the policy is read), then
/// refuse, unless the main thread finished first.
fn watch(shared: &Shared) {
    let mut state = lock(shared);
    loop {
        if state.finished {
            return;
        }
        let due = shared.started + Deadline::due(state.timeout);
        let now = Instant::now();
        if now >= due {
            break;
        }
        state = shared
            .changed
            .wait_timeout(state, due - now)
            .unwrap_or_else(PoisonError::into_inner)
            .0;
    }
    let seconds = Deadline::due(state.timeout).as_secs_f64();
    refuse(
        &state,
        &format!("hookc could not finish checking this call within {seconds:.1} s"),
    );
}

/// Write the refusal (with the proof the shim expects) and end the process,
/// while holding the lock, so the main thread's answer cannot follow it.
fn refuse(state: &State, what: &str) -> ! {
    let reason = format!(
        "{what}, so it refused the call. Split the command into shorter, simpler commands (fewer words, less nesting, \
         no huge brace or glob expansions) and try again; if a short, plain command is refused \
         like this, tell the user (`hookc doctor` checks the machine)."
    );
    super::answer_refusal(
        GUARD,
        state.harness,
        state.event,
        reason,
        state.nonce.as_deref(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_watchdog_answers_well_before_the_harness_gives_up() {
        for seconds in [1, 10, 600] {
            let due = Deadline::due(seconds);
            let timeout = Duration::from_secs(u64::from(seconds));
            assert!(due < timeout && due >= timeout / 2, "{seconds}: {due:?}");
        }
    }
}
