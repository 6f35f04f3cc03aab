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
pub mod git_writes;
pub mod harness;
pub mod import;
pub mod init;
pub mod ir;
pub mod lint;
pub mod lint_rules;
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

pub use commands::guard;
pub use commands::run;

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
