//! hookc compiles one `policy.kdl` into fail-closed hooks for AI coding-agent
//! harnesses, and answers those hooks at run time (`hookc guard`).
//!
//! The pipeline, one module per stage:
//!
//! ```text
//! policy.kdl ─ syntax (parse, decode) ─▶ ast ─ resolve ─▶ ir ─ harness::*::emit ─▶ emit::Artifact
//!            ─ plan (against disk and .hookc/manifest.json) ─▶ write | check | --dry-run
//! hook call ─ runtime (hookc guard) ─ harness::decode_call ─▶ eval ─▶ harness::answer
//! ```
//!
//! The library API is not stable; the command line is the interface.

pub mod ast;
pub mod audit;
pub mod book;
pub mod builds;
pub mod cli;
pub mod compile;
pub mod diag;
pub mod discover;
pub mod disk;
pub mod emit;
pub mod eval;
pub mod exit;
pub mod extends;
pub mod git_writes;
pub mod harness;
pub mod import;
pub mod init;
pub mod ir;
pub mod lint;
pub mod lint_rules;
pub mod managed;
pub mod manifest;
pub mod merge;
pub mod paths;
pub mod pin;
pub mod plan;
pub mod policy_json;
pub mod presets;
pub mod profile;
pub mod protect;
pub mod registry;
pub mod resolve;
pub mod runtime;
pub mod shell;
pub mod source;
pub mod supervise;
pub mod syntax;
pub mod version;
pub mod write;

mod commands;

pub use commands::run;
pub use commands::{exec, guard};

/// From now on, a write to stdout or stderr that fails because the reader
/// closed its end (`hookc test | head -1`) ends the process quietly with
/// status 0 instead of a panic's message and status 101: the reader chose
/// to stop reading. Any other panic is reported as before.
pub fn quiet_on_closed_pipe() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if closed_pipe(message) {
            std::process::exit(0);
        }
        report(info);
    }));
}

/// Whether a panic's message is the standard library's on a write to a
/// closed pipe (`failed printing to stdout: Broken pipe (os error 32)`; on
/// Windows, error 232 or 109).
fn closed_pipe(message: &str) -> bool {
    let printing = message.starts_with("failed printing to stdout")
        || message.starts_with("failed printing to stderr");
    printing
        && ["(os error 32)", "(os error 232)", "(os error 109)"]
            .iter()
            .any(|code| message.ends_with(code))
}

/// How many cases a randomised test tries: `default`, or the number in the
/// environment variable `var` for a longer run (see the README's development
/// section).
#[cfg(test)]
fn test_cases<T: std::str::FromStr>(var: &str, default: T) -> T {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
