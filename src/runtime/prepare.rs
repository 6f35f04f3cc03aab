//! One preparation and one decision of a call, shared by `hookc guard`
//! and `hookc why`.
//!
//! A harness decoder turns a payload into a [`Call`]. Before any guard
//! sees it, [`prepare`] says where it runs (the harness, the project root,
//! whether names fold case there, git's configuration) and refuses what
//! cannot be checked at all; then [`decide`] gives the verdict: the
//! policy's guards, a rewrite the harness cannot make turned into a
//! refusal, hookc's own guards (over the hookc that answers and the hook
//! settings the environment moved), the built-in guard and the approvals.
//!
//! `hookc guard` (`runtime`) and `hookc why` (`commands/why`) both call
//! these two functions, so `why` explains the decision `guard` makes. What
//! `why` leaves out are effects, chosen by its caller: it does not run a
//! guard's `run` program (the `run` callback) and neither takes an approval
//! nor writes the audit log ([`Approvals::Show`]).

use std::path::Path;

use serde_json::Value;

use crate::eval::{Call, Evaluator, Hit, RunResult, Verdict};
use crate::harness::{self, Harness};
use crate::ir::{Decision, Event, Guard, HarnessId};

/// What a policy says besides its guards that the decision reads.
pub struct Rules<'a> {
    pub targets: &'a [HarnessId],
    pub audit: bool,
    pub allow_once: bool,
    pub never_override: &'a [String],
}

/// Make a decoded call ready to decide: the harness it came from (`None`
/// for a call from no harness), the project root when the harness did not
/// name one, whether names fold case where it runs, and git's
/// configuration for a line that may run git. `Err`: hookc's refusal of a
/// call it cannot check at all.
pub fn prepare(
    call: &mut Call,
    harness: Option<HarnessId>,
    project: Option<&str>,
) -> Result<(), Verdict> {
    call.harness = harness;
    if call.root.is_none() {
        call.root = project.map(str::to_owned);
    }
    if let Some(what) = nul_in(call) {
        return Err(refusal(
            "hookc-input",
            format!(
                "The call's {what} holds a NUL byte. A shell drops it or cuts the text there, so \
                 what would run is not what hookc can read: send the call again without it."
            ),
        ));
    }
    call.detect_case_folding();
    // What git will run depends on its configuration where the call runs.
    if call.command.as_deref().is_some_and(|c| c.contains("git")) {
        let cwd = call.cwd.clone().or_else(|| call.root.clone());
        call.git = Some(crate::shell::git::GitConfig::load(
            cwd.as_deref().map(Path::new),
            call.home.as_deref().map(Path::new),
        ));
    }
    Ok(())
}

/// How [`decide`] treats the user's approvals (`allow-once`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Approvals {
    /// `hookc guard`: an approval the user gave for this call lets it
    /// through, a refusal offers a code (recorded for `hookc allow-once`),
    /// and the decision goes to the audit log when the policy keeps one.
    Take,
    /// `hookc why`: the code `hookc guard` would offer; nothing is taken
    /// or written.
    Show,
}

/// A prepared call and where it is answered.
pub struct Asked<'a> {
    pub event: Event,
    /// The harness whose protocol answers (for a harness running another's
    /// hooks, the one that called). `None`: a call from no harness, whose
    /// verdict has no rewrite turned into a refusal and no approval code.
    pub harness: Option<&'a dyn Harness>,
    pub call: &'a Call,
    /// What the harness sent (`Null` when there is none).
    pub payload: &'a Value,
    /// The project the compiled policy belongs to: whose approvals, whose log.
    pub project: Option<String>,
    /// What a supervised call runs (`None`: no call is supervised).
    pub exec: Option<super::supervised::Exec>,
}

/// The verdict on a prepared call: the policy's guards (`run` asked for
/// each matching guard with a program, see
/// [`Evaluator::evaluate_with`]), a rewrite the harness cannot make
/// turned into a refusal that names the command, a call to supervise kept
/// or refused (`supervised::resolve`), hookc's own guards over
/// the hookc that answers and the hook settings this machine's environment
/// moved, then the built-in guard and the approvals. An `Err` is an
/// operational failure: the call cannot be decided.
pub fn decide(
    asked: &Asked,
    evaluator: &Evaluator,
    rules: &Rules,
    run: &mut dyn FnMut(&Guard) -> Result<Option<RunResult>, String>,
    approvals: Approvals,
) -> Result<Option<Verdict>, String> {
    let (event, call) = (asked.event, asked.call);
    let verdict = evaluator.evaluate_with(call, run)?;
    // A harness that cannot change a call (met in `hookc guard` only when
    // it runs another harness's hooks) refuses and names the command to
    // run instead.
    let verdict = match asked.harness {
        Some(h) if !h.profile().can_rewrite => verdict.map(|v| {
            if v.decision == Decision::Rewrite {
                harness::rewrite_as_refusal(&v)
            } else {
                v
            }
        }),
        _ => verdict,
    };
    // A call to run under the run-time judge: kept where the harness and
    // the machine can, refused elsewhere.
    let verdict =
        verdict.map(|v| super::supervised::resolve(asked.harness, call, asked.exec.as_ref(), v));
    let verdict = crate::pin::refusal(event, call)
        .or_else(|| crate::protect::moved_refusal(event, call, rules.targets))
        .or(verdict);
    let Some(h) = asked.harness else {
        return Ok(crate::audit::builtin(event, call).or(verdict));
    };
    let cx = crate::audit::Context {
        harness: h.id(),
        event,
        call,
        payload: asked.payload,
        audit: rules.audit,
        allow_once: rules.allow_once,
        never: rules.never_override,
        root: asked.project.clone(),
    };
    Ok(match approvals {
        Approvals::Take => crate::audit::decide(&cx, verdict),
        Approvals::Show => crate::audit::shown(&cx, verdict),
    })
}

/// Which part of a call carries a NUL byte, if one does. bash drops NULs
/// from a script it reads and a program's arguments end at one, so the text
/// hookc would read is not the text that runs (`r\0m -rf /` runs `rm`).
fn nul_in(call: &Call) -> Option<&'static str> {
    let has = |text: &str| text.contains('\0');
    if call.command.as_deref().is_some_and(has) {
        Some("command")
    } else if call.paths.iter().any(|p| has(p)) || call.globs.iter().any(|(g, _)| has(g)) {
        Some("path")
    } else if [&call.cwd, &call.root, &call.home]
        .into_iter()
        .any(|d| d.as_deref().is_some_and(has))
    {
        Some("folder")
    } else if call.tool.as_ref().is_some_and(|t| has(&t.native)) {
        Some("tool name")
    } else {
        None
    }
}

/// A refusal by hookc itself (not by one of the policy's guards).
pub(super) fn refusal(guard: &str, reason: String) -> Verdict {
    Verdict {
        decision: Decision::Deny,
        hits: vec![Hit {
            guard: guard.to_owned(),
            from: None,
            decision: Decision::Deny,
            message: Some(reason.clone()),
            reason,
        }],
        rewritten: None,
    }
}
