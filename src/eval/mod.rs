//! The reference semantics of a policy: one call in, one verdict out.
//!
//! `hookc guard` runs this on every tool call, examples run through it at
//! build time, and `hookc test` compares the generated hooks against it.
//! One implementation decides everywhere.
//!
//! Matching, per guard: the event must be the guard's; the call's tool must be
//! one of the guard's tools (no tools: any); and every *kind* of condition the
//! guard has must hold: some `command` pattern matches some simple command
//! (or the command is opaque, see below), some `regex` matches, some touched
//! path matches a `path` glob. Several values of one kind are alternatives.
//!
//! When guards disagree the strictest decision wins (deny/block > ask >
//! rewrite > allow > context), and the answer carries the reason of every
//! guard at that level.
//!
//! The modules, by who reads them:
//!
//! * `call`: the call and verdict types every harness decoder builds and
//!   reads;
//! * `index`: the guards by event and literal, stored in policy.json by
//!   the build and read by the evaluator;
//! * `evaluator`: the decision itself, for `hookc guard`, the build's
//!   examples and hookc's own guards;
//! * `trace`: the explanation `hookc why` prints, made with the
//!   evaluator's matching;
//! * `opacity` and `unknown`: the closed-world refusals of path and
//!   command guards, part of the evaluator;
//! * `stops`: the run-time judge's questions (`hookc exec`), a program
//!   start and a file access, with the evaluator's matching.
//!
//! A call from a harness reaches the evaluator through
//! `runtime::prepare`, which readies it and adds hookc's own guards
//! and the approvals, the same way for `hookc guard` and `hookc why`.

mod call;
mod evaluator;
mod index;
mod opacity;
mod places;
mod stops;
mod trace;
mod unknown;

pub use call::{
    Analysed, Call, CallTool, EXAMPLE_HOME, EXAMPLE_ROOT, Hit, RunResult, Shell, TouchedKey,
    Verdict, meets, search_call,
};
pub use evaluator::{
    Check, Compiled, Evaluator, MAX_RESOLVED, REGEX_DFA_SIZE_LIMIT, REGEX_SIZE_LIMIT, Seen,
    compile_regex, glob_word,
};
pub use index::Index;
pub use stops::{Files, Programs, enforced_at_run_time, exec_stop};
pub use trace::{ConditionTrace, GuardTrace, trace};

// For the modules below: `index` and `trace` work with the evaluator's
// facts and matching, `opacity` and `unknown` are part of it.
use evaluator::{
    Facts, THROUGH_PROCESS, asks_for, compile, match_guard, opaque_instruction, path_set,
    regex_subjects, tool_applies, touches_guard,
};
use index::FirstBytes;
