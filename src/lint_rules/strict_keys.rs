//! `hookc lint` on the keys of JSON hook entries, for a harness whose
//! profile lists the keys it reads ([`StrictKeys`]: Antigravity).

use jsonc_parser::ast::{Object, ObjectProp, Value};

use super::json_spans::{as_str, get, key, key_span, span};
use super::{FileReport, diag};
use crate::diag::{Code, Diagnostic, Severity, suggest};
use crate::profile::StrictKeys;
use crate::source::SourceFile;

/// `lint-unknown-key` on a handler: a key that contradicts its `type` drops
/// the whole file; any other key Antigravity does not know is discarded.
pub fn handler_keys(
    file: &SourceFile,
    who: &str,
    keys: &StrictKeys,
    h: &Object,
    report: &mut FileReport,
) {
    let kind = get(h, "type")
        .and_then(|t| as_str(&t.value))
        .unwrap_or("command");
    for p in &h.properties {
        let name = key(p);
        let fatal = keys
            .fatal
            .iter()
            .find(|(t, k, _)| *t == kind && *k == name)
            .map(|(_, _, what)| *what);
        if let Some(what) = fatal {
            report.diags.push(
                diag(
                    Code::LintUnknownKey,
                    file,
                    key_span(p),
                    format!(
                        "{who} drops the whole hooks file for `{name}` on {what}, so none of its hooks run"
                    ),
                    "not allowed on this type",
                )
                .help(format!("remove `{name}`, or make this a separate hook of the right `type`")),
            );
        } else if !keys.handler.contains(&name) {
            report
                .diags
                .push(discarded(file, who, p, "hook handler", keys.handler));
        }
    }
    if keys.whole_timeout
        && let Some(t) = get(h, "timeout")
        && let Value::NumberLit(n) = &t.value
        && n.value.parse::<i32>().is_err()
    {
        report.diags.push(
            diag(
                Code::LintWrongType,
                file,
                span(&t.value),
                format!(
                    "{who} drops the whole hooks file for a `timeout` of {}: it must be a whole number of seconds",
                    n.value
                ),
                "not a whole number",
            )
            .help("write a whole number without a decimal point, such as 30"),
        );
    }
}

/// `lint-unknown-key` (warning) on a `{matcher, hooks}` group.
pub fn group_keys(
    file: &SourceFile,
    who: &str,
    keys: &StrictKeys,
    group: &Object,
    report: &mut FileReport,
) {
    for p in &group.properties {
        if !keys.group.contains(&key(p)) {
            report
                .diags
                .push(discarded(file, who, p, "matcher group", keys.group));
        }
    }
}

fn discarded(
    file: &SourceFile,
    who: &str,
    p: &ObjectProp,
    what: &str,
    known: &[&str],
) -> Diagnostic {
    diag(
        Code::LintUnknownKey,
        file,
        key_span(p),
        format!(
            "{who} quietly discards `{}` on a {what}: the hook runs without it",
            key(p)
        ),
        "ignored",
    )
    .severity(Severity::Warning)
    .help(suggest(key(p), known))
}
