//! What `hookc lint` knows about Antigravity CLI beyond its [`Profile`](crate::harness::Profile).

use jsonc_parser::ast::{Object, ObjectProp, Value};

use super::json_spans::{as_str, get, key, key_span, span};
use super::{FileReport, diag};
use crate::diag::{Code, Diagnostic, Severity, suggest};
use crate::source::SourceFile;

/// Keys Antigravity reads on a handler (`shared/harnesses/antigravity.md`,
/// "Parsing strictness"); `matcher` is read on tool events and ignored on
/// the flat ones.
const HANDLER_KEYS: &[&str] = &["type", "command", "prompt", "model", "timeout", "matcher"];
/// Keys of a `{matcher, hooks}` group.
const GROUP_KEYS: &[&str] = &["matcher", "hooks"];

/// `lint-unknown-key` on a handler: a key that contradicts its `type` drops
/// the whole file; any other key Antigravity does not know is discarded.
pub fn handler_keys(file: &SourceFile, h: &Object, report: &mut FileReport) {
    let kind = get(h, "type")
        .and_then(|t| as_str(&t.value))
        .unwrap_or("command");
    for p in &h.properties {
        let name = key(p);
        let fatal = match (kind, name) {
            ("command", "prompt" | "model") => Some("a `command` hook"),
            ("prompt", "command") => Some("a `prompt` hook"),
            _ => None,
        };
        if let Some(what) = fatal {
            report.diags.push(
                diag(
                    Code::LintUnknownKey,
                    file,
                    key_span(p),
                    format!(
                        "Antigravity drops the whole hooks file for `{name}` on {what}, so none of its hooks run"
                    ),
                    "not allowed on this type",
                )
                .help(format!("remove `{name}`, or make this a separate hook of the right `type`")),
            );
        } else if !HANDLER_KEYS.contains(&name) {
            report
                .diags
                .push(discarded(file, p, "hook handler", HANDLER_KEYS));
        }
    }
    if let Some(t) = get(h, "timeout")
        && let Value::NumberLit(n) = &t.value
        && n.value.parse::<i32>().is_err()
    {
        report.diags.push(
            diag(
                Code::LintWrongType,
                file,
                span(&t.value),
                format!(
                    "Antigravity drops the whole hooks file for a `timeout` of {}: it must be a whole number of seconds",
                    n.value
                ),
                "not a whole number",
            )
            .help("write a whole number without a decimal point, such as 30"),
        );
    }
}

/// `lint-unknown-key` (warning) on a `{matcher, hooks}` group.
pub fn group_keys(file: &SourceFile, group: &Object, report: &mut FileReport) {
    for p in &group.properties {
        if !GROUP_KEYS.contains(&key(p)) {
            report
                .diags
                .push(discarded(file, p, "matcher group", GROUP_KEYS));
        }
    }
}

fn discarded(file: &SourceFile, p: &ObjectProp, what: &str, known: &[&str]) -> Diagnostic {
    diag(
        Code::LintUnknownKey,
        file,
        key_span(p),
        format!(
            "Antigravity quietly discards `{}` on a {what}: the hook runs without it",
            key(p)
        ),
        "ignored",
    )
    .severity(Severity::Warning)
    .help(suggest(key(p), known))
}
