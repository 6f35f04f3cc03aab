//! Span-keeping JSON reading ([`lint_rules::json_spans`](crate::lint_rules::json_spans)),
//! with the dialect each registered harness reads its hooks file in.

pub use crate::lint_rules::json_spans::*;

/// The JSON a harness reads its hook file as (its profile's
/// [`JsonSpec::dialect`](crate::profile::JsonSpec)): Claude Code
/// (`JSON.parse` after skipping a byte order mark), Codex and Copilot CLI
/// (serde) and Antigravity (Go) are strict; Gemini CLI and Cursor strip
/// comments, then `JSON.parse`. Strict for a harness without a JSON hooks
/// file.
pub fn dialect_of(id: crate::ir::HarnessId) -> Dialect {
    crate::harness::get(id)
        .and_then(|h| h.profile().json.as_ref())
        .map_or(Dialect::STRICT, |j| j.dialect)
}
