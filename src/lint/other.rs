//! Rules for the TOML files (Codex `config.toml`, Kimi Code `config.toml`) and OpenCode plugins.

use std::path::Path;

use toml_edit::{Document, Item};

use super::spec::{CODEX_CONFIG_KEYS, KIMI_EVENTS, KIMI_KEYS, OPENCODE_HOOKS};
use super::{Edit, FileReport, diag, scripts};
use crate::diag::{Code, suggest};
use crate::ir::HarnessId;
use crate::source::{SourceFile, Span};

fn to_span(r: Option<std::ops::Range<usize>>) -> Span {
    r.map_or(Span::new(0, 0), |r| Span::new(r.start, r.end - r.start))
}

fn parse<'a>(
    file: &'a SourceFile,
    who: &str,
    report: &mut FileReport,
) -> Option<Document<&'a str>> {
    match Document::parse(&*file.text) {
        Ok(d) => Some(d),
        Err(e) => {
            report.diags.push(diag(
                Code::LintSyntax,
                file,
                to_span(e.span()),
                format!("{who} cannot parse this file: {}", e.message()),
                "here",
            ));
            None
        }
    }
}

pub fn codex_config(file: &SourceFile, report: &mut FileReport) {
    let Some(doc) = parse(file, "Codex", report) else {
        return;
    };
    for (k, _) in doc.as_table().iter() {
        if CODEX_CONFIG_KEYS.contains(&k) || k.starts_with("experimental_") {
            continue;
        }
        let (key, _) = doc.as_table().get_key_value(k).expect("just listed");
        report.diags.push(
            diag(
                Code::LintUnknownKey,
                file,
                to_span(key.span()),
                format!("Codex's config has no setting `{k}` (`--strict-config` refuses the file)"),
                "unknown setting",
            )
            .help(
                match crate::diag::did_you_mean(k, CODEX_CONFIG_KEYS.iter().copied()) {
                    Some(best) => format!("did you mean `{best}`?"),
                    None => {
                        "remove it; see Codex's configuration reference for the settings it knows"
                            .into()
                    }
                },
            ),
        );
    }
}

pub fn kimi(file: &SourceFile, root: &Path, report: &mut FileReport) {
    let Some(doc) = parse(file, "Kimi Code", report) else {
        return;
    };
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
            if !KIMI_KEYS.contains(&k) {
                report.diags.push(
                    diag(
                        Code::LintUnknownKey,
                        file,
                        kspan,
                        format!("Kimi Code's `[[hooks]]` has no key `{k}`: one unknown key drops every config hook"),
                        "not allowed",
                    )
                    .help(suggest(k, KIMI_KEYS)),
                );
                continue;
            }
            let vspan = to_span(value.span());
            let v = value.as_value();
            match k {
                "event" => match v.and_then(|v| v.as_str()) {
                    Some(e) if KIMI_EVENTS.contains(&e) => {}
                    Some(e) => {
                        let right = KIMI_EVENTS.iter().find(|x| x.eq_ignore_ascii_case(e));
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
                                None => suggest(e, KIMI_EVENTS),
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
                },
                "timeout" => match v.and_then(|v| v.as_integer()) {
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
                },
                "matcher" => match v.and_then(|v| v.as_str()) {
                    Some(m) if regex::Regex::new(m).is_err() => report.diags.push(diag(
                        Code::LintMatcherRegex,
                        file,
                        vspan,
                        format!(
                            "`{m}` is not a valid regex: Kimi Code silently never fires this hook"
                        ),
                        "invalid regex",
                    )),
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
                    Some(_) => {}
                    None => report.diags.push(diag(
                        Code::LintWrongType,
                        file,
                        vspan,
                        "`matcher` should be a string",
                        "not a string",
                    )),
                },
                "command" => match v.and_then(|v| v.as_str()) {
                    Some("") => report.diags.push(diag(
                        Code::LintMissingField,
                        file,
                        vspan,
                        "`command` is empty",
                        "nothing to run",
                    )),
                    Some(c) => {
                        let ev = table.get("event").and_then(|e| e.as_str()).unwrap_or("");
                        let blocking = matches!(ev, "PreToolUse" | "UserPromptSubmit" | "Stop");
                        scripts::check_command(
                            file,
                            vspan,
                            c,
                            root,
                            HarnessId::Kimi,
                            blocking,
                            report,
                        );
                    }
                    None => report.diags.push(diag(
                        Code::LintWrongType,
                        file,
                        vspan,
                        "`command` should be a string",
                        "not a string",
                    )),
                },
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

/// OpenCode plugins: hook names are the keys of the object the plugin returns.
pub fn opencode(file: &SourceFile, report: &mut FileReport) {
    let text = &*file.text;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let q = bytes[i];
        if q == b'"' || q == b'\'' {
            let start = i;
            let Some(len) = text[i + 1..].find(q as char) else {
                break;
            };
            let end = i + 1 + len;
            let name = &text[i + 1..end];
            let after = text[end + 1..].trim_start();
            let is_key = after.starts_with(':');
            if is_key
                && name.contains('.')
                && !name.contains(' ')
                && !OPENCODE_HOOKS.contains(&name)
            {
                report.diags.push(
                    diag(
                        Code::LintUnknownHook,
                        file,
                        Span::new(start, end + 1 - start),
                        format!("OpenCode has no plugin hook `{name}`; it is never called"),
                        "unknown hook",
                    )
                    .help(suggest(name, OPENCODE_HOOKS)),
                );
            }
            i = end + 1;
        } else {
            i += 1;
        }
    }
}
