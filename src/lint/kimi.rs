//! `hookc lint` on Kimi Code's `config.toml` `[[hooks]]` tables; the facts
//! come from Kimi Code's profile ([`FileFormat::KimiToml`](crate::profile::FileFormat)).

use std::path::Path;

use toml_edit::{Item, Value};

use super::other::{parse, to_span};
use super::{Edit, FileReport, diag, scripts};
use crate::diag::{Code, suggest};
use crate::harness;
use crate::ir::HarnessId;
use crate::source::{SourceFile, Span};

/// `keys`: the keys Kimi Code's profile lists for a `[[hooks]]` table.
pub fn lint(file: &SourceFile, keys: &[&str], root: &Path, report: &mut FileReport) {
    let Some(doc) = parse(file, "Kimi Code", report) else {
        return;
    };
    let events = harness::get(HarnessId::Kimi)
        .expect("Kimi Code is registered")
        .profile()
        .all_events();
    let events = events.as_slice();
    let Some((hooks_key, item)) = doc.as_table().get_key_value("hooks") else {
        return;
    };
    let Item::ArrayOfTables(array) = item else {
        report.diags.push(
            diag(
                Code::LintWrongType,
                file,
                to_span(hooks_key.span()),
                "Kimi Code expects `[[hooks]]` tables here",
                "wrong shape",
            )
            .help("write one [[hooks]] table per hook"),
        );
        return;
    };
    for table in array.iter() {
        let head = to_span(table.span()).sub(0, 9.min(table.span().map_or(0, |r| r.len())));
        for (k, value) in table.iter() {
            let (key, _) = table.get_key_value(k).expect("just listed");
            let kspan = to_span(key.span());
            if !keys.contains(&k) {
                report.diags.push(
                    diag(
                        Code::LintUnknownKey,
                        file,
                        kspan,
                        format!("Kimi Code's `[[hooks]]` has no key `{k}`: one unknown key drops every config hook"),
                        "not allowed",
                    )
                    .help(suggest(k, keys)),
                );
                continue;
            }
            let vspan = to_span(value.span());
            let v = value.as_value();
            let event = table.get("event").and_then(|e| e.as_str()).unwrap_or("");
            match k {
                "event" => event_value(file, vspan, v, events, report),
                "timeout" => timeout_value(file, vspan, v, report),
                "matcher" => matcher_value(file, vspan, v, event, report),
                "command" => command_value(file, root, vspan, v, event, report),
                _ => {}
            }
        }
        for required in ["event", "command"] {
            if table.get(required).is_none() {
                report.diags.push(diag(
                    Code::LintMissingField,
                    file,
                    head,
                    format!("this `[[hooks]]` entry has no `{required}`"),
                    "incomplete",
                ));
            }
        }
    }
}

/// `event`: one of Kimi Code's events, exact case.
fn event_value(
    file: &SourceFile,
    vspan: Span,
    v: Option<&Value>,
    events: &[&'static str],
    report: &mut FileReport,
) {
    match v.and_then(|v| v.as_str()) {
        Some(e) if events.contains(&e) => {}
        Some(e) => {
            let right = events.iter().find(|x| x.eq_ignore_ascii_case(e));
            report.diags.push(
                diag(
                    Code::LintUnknownEvent,
                    file,
                    vspan,
                    format!("Kimi Code has no event `{e}`; the whole `hooks` section is dropped"),
                    "unknown event",
                )
                .help(match right {
                    Some(r) => format!("write `{r}` (`hookc lint --fix` does)"),
                    None => suggest(e, events),
                }),
            );
            if let Some(r) = right {
                report.edits.push(Edit {
                    span: vspan,
                    text: format!("\"{r}\""),
                });
            }
        }
        None => report.diags.push(diag(
            Code::LintWrongType,
            file,
            vspan,
            "`event` should be a string",
            "not a string",
        )),
    }
}

/// `timeout`: whole seconds from 1 to 600.
fn timeout_value(file: &SourceFile, vspan: Span, v: Option<&Value>, report: &mut FileReport) {
    match v.and_then(|v| v.as_integer()) {
        Some(n) if (1..=600).contains(&n) => {}
        Some(n) => report.diags.push(diag(
            Code::LintTimeout,
            file,
            vspan,
            format!("Kimi Code timeouts are whole seconds from 1 to 600, not {n}"),
            "out of range",
        )),
        None => report.diags.push(diag(
            Code::LintWrongType,
            file,
            vspan,
            "`timeout` should be a whole number of seconds (1..600)",
            "not an integer",
        )),
    }
}

/// `matcher`: a regex Kimi Code can compile, that can fire on `event`,
/// anchored, naming MCP tools the Kimi way.
fn matcher_value(
    file: &SourceFile,
    vspan: Span,
    v: Option<&Value>,
    event: &str,
    report: &mut FileReport,
) {
    match v.and_then(|v| v.as_str()) {
        // These events test the matcher against "".
        Some(m)
            if matches!(event, "Stop" | "Interrupt" | "SessionHeartbeat")
                && regex::Regex::new(m).is_ok_and(|r| !r.is_match("")) =>
        {
            report.diags.push(
                diag(
                    Code::LintMatcherNeverFires,
                    file,
                    vspan,
                    format!(
                        "Kimi Code matches a `{event}` hook's matcher against an empty string: `{m}` never matches, so this hook never runs"
                    ),
                    "never matches",
                )
                .help("remove the matcher"),
            )
        }
        Some(m)
            if let Some(f) =
                super::matchers::regex(HarnessId::Kimi, "Kimi Code", m) =>
        {
            report.diags.push(
                diag(
                    Code::LintMatcherRegex,
                    file,
                    vspan,
                    format!("{}; Kimi Code silently never fires this hook", f.message),
                    "invalid regex",
                )
                .help(f.help),
            )
        }
        Some(m)
            if !m.is_empty()
                && m.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|') =>
        {
            report.diags.push(
                diag(
                    Code::LintMatcherUnanchored,
                    file,
                    vspan,
                    format!("Kimi Code searches for `{m}` anywhere in the tool name, so it also matches longer names"),
                    "unanchored",
                )
                .help(format!("anchor it: '^({m})$'")),
            );
        }
        Some(m) => {
            for w in m
                .split('|')
                .map(|w| w.trim_start_matches('^').trim_end_matches('$'))
            {
                if let Some(f) =
                    super::matchers::mcp(HarnessId::Kimi, "Kimi Code", event, w)
                {
                    report.diags.push(
                        diag(
                            Code::LintMatcherMcp,
                            file,
                            vspan,
                            f.message,
                            "not Kimi Code's MCP name",
                        )
                        .severity(f.severity)
                        .help(f.help),
                    );
                }
            }
        }
        None => report.diags.push(diag(
            Code::LintWrongType,
            file,
            vspan,
            "`matcher` should be a string",
            "not a string",
        )),
    }
}

/// `command`: something to run that does not fail open.
fn command_value(
    file: &SourceFile,
    root: &Path,
    vspan: Span,
    v: Option<&Value>,
    event: &str,
    report: &mut FileReport,
) {
    match v.and_then(|v| v.as_str()) {
        Some("") => report.diags.push(diag(
            Code::LintMissingField,
            file,
            vspan,
            "`command` is empty",
            "nothing to run",
        )),
        Some(c) => {
            let blocking = matches!(event, "PreToolUse" | "UserPromptSubmit" | "Stop");
            scripts::check_command(file, vspan, c, root, HarnessId::Kimi, blocking, report);
        }
        None => report.diags.push(diag(
            Code::LintWrongType,
            file,
            vspan,
            "`command` should be a string",
            "not a string",
        )),
    }
}
