//! Understanding shell command lines well enough to guard them.
//!
//! A guard that matches raw command text is beaten by spelling
//! (`git push -f`, `sudo git push --force`, `bash -c "git push --force"`).
//! This module turns a command line into the simple commands that would
//! run ([`analyze`]) and matches them against [`CommandPattern`]s that
//! describe commands by meaning. Three layers, each documented in its file:
//!
//! * [`lex`](mod@lex): POSIX quoting and operators → argument vectors;
//! * [`normalize`]: wrappers (`sudo`, `env`, `bash -c`, …), basenames, git
//!   global options → the commands that actually run, with [`programs`]
//!   the table of programs that run other programs or code;
//! * [`pattern`]: flag spellings, subcommands and argument globs;
//! * [`unknown`]: what a program in none of the tables is presumed to run
//!   (a run of its arguments, a string argument read as a line), for the
//!   evaluator to hold against command guards;
//! * [`git`]: git's own settings, read where each git of the line works
//!   (aliases, remotes that force, the commands settings hold), with
//!   [`places`] the folders a line names by `$PWD` or the top of the work
//!   tree.
//!
//! Whatever cannot be understood is reported as [`Opaque`] rather than
//! guessed at, so a policy can decide what to do with it.
//!
//! This module reads a line; it never decides. Its [`Analysis`] says what
//! would run, which files each command touches ([`access`]), and what is
//! opaque or presumed; [`pattern`] answers whether one command fits one
//! pattern when asked. The decision is `eval`'s: the evaluator
//! (`eval/evaluator.rs`, with `eval/opacity.rs` and `eval/unknown.rs`)
//! holds a policy's guards against the reading, and
//! `runtime::prepare` readies each call for it, the same way for
//! `hookc guard` and `hookc why`.

pub mod access;
mod consoles;
pub mod find;
pub mod git;
pub mod git_settings;
pub mod inert;
pub mod keys;
pub mod lex;
pub mod normalize;
mod package_json;
pub mod pattern;
pub mod places;
pub mod programs;
pub mod runners;
pub mod ssh_config;
pub mod unknown;
pub mod written;

#[cfg(test)]
mod corpus;

pub use lex::{Lexed, LexedCommand, MAX_DEPTH, Word, lex};
pub use normalize::{Analysis, Opaque, SimpleCommand};
pub use pattern::{CommandPattern, FlagGroup, PatternError};

/// Understand a command line: which programs run, with which arguments,
/// and what cannot be known. Never panics.
pub fn analyze(command_line: &str) -> Analysis {
    analyze_in(command_line, None, false)
}

/// [`analyze`] for a line run in `dir`, where the files it sources are
/// read; with `folds_case`, on a file system where `RM` runs `rm`.
pub fn analyze_in(command_line: &str, dir: Option<&std::path::Path>, folds_case: bool) -> Analysis {
    analyze_judged(command_line, dir, folds_case, None)
}

/// What the repository a call runs in can say about it, asked while the
/// call is judged (see `lex::values` for what it is asked and why).
/// Implemented by `Git` in `git_writes` (a layer above), which runs git's plumbing
/// within a bound of time.
pub trait Repository: Sync {
    /// What `git ls-files ARGS` prints in `dir` (ARGS: options that only
    /// choose names, then pathspecs); `None` when git cannot say in time.
    fn ls_files(&self, dir: &std::path::Path, args: &[String]) -> Option<String>;
}

/// [`analyze_in`] for a call being judged in `dir`, where `repository`
/// can say what the line's `$(git ls-files …)` print.
pub fn analyze_judged(
    command_line: &str,
    dir: Option<&std::path::Path>,
    folds_case: bool,
    repository: Option<&'static dyn Repository>,
) -> Analysis {
    let mut analysis = normalize::analyze_in(command_line, dir, folds_case, repository);
    written::check(&mut analysis);
    analysis.places_hold = places::places_hold(command_line);
    if let Some(reason) = access::too_far(&analysis) {
        lex::push_reason(&mut analysis.opaque, reason);
    }
    analysis
}

/// Text as one POSIX shell word: single-quoted, a `'` inside written `'\''`.
/// The one way generated shell code carries a string.
pub fn sh_word(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}
