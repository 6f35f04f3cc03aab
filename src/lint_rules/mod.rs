//! The checks `hookc lint` runs on one hook file, and the report they fill.
//!
//! This sits below the harnesses, so that each `harness/<name>.rs` can check
//! its own file formats with them (Kimi Code's `[[hooks]]` tables, Codex's
//! `config.toml`, OpenCode's plugin) and add its quirks to the shared rules
//! for JSON hooks files ([`json`]). Every fact comes from the harness's
//! [`Profile`](crate::profile::Profile), handed in by the caller; nothing
//! here looks a harness up. `lint` above finds the files, picks the harness
//! and applies levels and fixes.

mod ecmascript;
pub mod json;
pub mod json_spans;
pub mod matchers;
pub mod scripts;
mod strict_keys;
pub mod toml_spans;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::source::{SourceFile, Span};

/// One byte-preserving edit `--fix` can apply.
#[derive(Debug, Clone)]
pub struct Edit {
    pub span: Span,
    pub text: String,
}

/// What linting one file found.
#[derive(Debug, Default)]
pub struct FileReport {
    pub diags: Diagnostics,
    pub edits: Vec<Edit>,
}

/// A finding of `code` in `file`, its label on `span`.
pub fn diag(
    code: Code,
    file: &SourceFile,
    span: Span,
    message: impl Into<String>,
    label: impl Into<String>,
) -> Diagnostic {
    Diagnostic::new(code, message)
        .in_file(file)
        .label(span, label)
}
