//! `hookc guard`: hand the process's streams to the runtime, under its deadline.

use crate::cli::GuardArgs;
use crate::runtime::{self, Deadline, GuardRequest};

pub fn guard(args: &GuardArgs) -> i32 {
    // First, while the process has one thread: the keeper forks here, and
    // its clock stands for the watchdog's.
    let started = std::time::Instant::now();
    let deadline = match args.deadline {
        Some(limit) if cfg!(unix) => {
            let keeping = runtime::keeper::Keeping {
                limit,
                refuser: runtime::keeper::Refuser {
                    shim: args.shim.as_deref(),
                    harness: args.harness,
                    event: args.event,
                },
                wait_taken: crate::harness::get(args.harness)
                    .is_some_and(|h| h.drops_output_at_exit()),
            };
            runtime::keeper::keep(&keeping);
            Deadline::kept(started, args.harness, args.event)
        }
        _ => Deadline::start(started, args.harness, args.event),
    };
    let request = GuardRequest {
        harness: args.harness,
        event: args.event,
        policy: &args.policy,
        debug: args.debug.as_deref(),
        build: args.build.as_deref(),
        deadline: Some(&deadline),
    };
    // Not locked for the whole call: the deadline's watchdog (when there
    // is one) may have to answer while the call is being read.
    let mut stdout = std::io::stdout();
    let status = runtime::run(
        &request,
        &mut std::io::stdin().lock(),
        &mut stdout,
        &mut std::io::stderr(),
    );
    if let Some(nonce) = std::env::var_os(runtime::NONCE_VAR) {
        runtime::prove(&nonce, &mut stdout);
    }
    status
}
