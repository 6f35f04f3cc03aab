//! `hookc log`: the project's audit log, filtered (see `crate::audit`).

use serde_json::Value;

use super::Ui;
use crate::cli::{Format, LogArgs};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::exit::ExitStatus;

/// Logs larger than this are read from their last part only.
const MAX_READ: u64 = 64 * 1024 * 1024;

pub fn log(args: &LogArgs, ui: &Ui) -> ExitStatus {
    let mut diags = Diagnostics::default();
    let fail = |diags: &mut Diagnostics, message: String, help: &str| {
        diags.push(Diagnostic::new(Code::Io, message).help(help.to_owned()));
    };
    let root = match super::locate(args.project.policy.as_deref(), args.project.out.as_deref()) {
        Ok((_, root)) => std::path::absolute(&root).unwrap_or(root),
        Err(d) => {
            diags.push(d);
            ui.report(diags);
            return ExitStatus::Error;
        }
    };
    let since = match args.since.as_deref().map(seconds) {
        None => None,
        Some(Some(s)) => Some(crate::audit::now().saturating_sub(s)),
        Some(None) => {
            fail(
                &mut diags,
                format!(
                    "`--since {}` is not a duration",
                    args.since.as_deref().unwrap_or("")
                ),
                "write a number and a unit: `30m`, `2h`, `7d`",
            );
            ui.report(diags);
            return ExitStatus::Error;
        }
    };
    let Some(path) = crate::audit::log_path(&root.to_string_lossy()) else {
        fail(
            &mut diags,
            "no state directory: neither $XDG_STATE_HOME nor $HOME is an absolute path".to_owned(),
            "set HOME",
        );
        ui.report(diags);
        return ExitStatus::Error;
    };
    let text = match read_log(&path) {
        Ok(Some(text)) => text,
        Ok(None) => {
            ui.say(&format!(
                "hookc: no audit log for this project yet ({}); add `audit-log #true` to the policy and run `hookc build`",
                path.display()
            ));
            return ExitStatus::Success;
        }
        Err((message, help)) => {
            fail(&mut diags, message, help);
            ui.report(diags);
            return ExitStatus::Error;
        }
    };
    let mut records: Vec<Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|r| wanted(args, since, r))
        .collect();
    if args.limit > 0 && records.len() > args.limit {
        records.drain(..records.len() - args.limit);
    }
    if args.format == Format::Json {
        for r in &records {
            println!("{r}");
        }
        return ExitStatus::Success;
    }
    for r in &records {
        ui.say(&line(r));
    }
    ExitStatus::Success
}

/// The log's text (its last part when large); `None` when there is no log.
fn read_log(path: &std::path::Path) -> Result<Option<String>, (String, &'static str)> {
    match std::fs::symlink_metadata(path) {
        Err(_) => Ok(None),
        Ok(meta) if !meta.file_type().is_file() => Err((
            format!("{} is not a regular file", path.display()),
            "remove it; hookc writes the log there",
        )),
        Ok(_) => read_tail(path).map(Some).map_err(|e| {
            (
                format!("cannot read {}: {e}", path.display()),
                "check the file's permissions",
            )
        }),
    }
}

/// Whether the record passes the filters asked for: harness, verdict,
/// guard and age.
fn wanted(args: &LogArgs, since: Option<u64>, r: &Value) -> bool {
    args.harness.is_none_or(|h| r["harness"] == h.word())
        && args.verdict.as_deref().is_none_or(|v| r["verdict"] == v)
        && args.guard.as_deref().is_none_or(|g| {
            r["guards"]
                .as_array()
                .is_some_and(|a| a.iter().any(|x| x == g))
        })
        && since.is_none_or(|s| r["unix"].as_u64().is_some_and(|t| t >= s))
}

/// One record as a line: time, harness, event, verdict, summary, then the
/// guards, the approval code and an `allow-once` approval.
fn line(r: &Value) -> String {
    let s = |k: &str| r[k].as_str().unwrap_or("").to_owned();
    let guards: Vec<&str> = r["guards"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut line = format!(
        "{}  {:<8} {:<9} {:<8} {}",
        s("time"),
        s("harness"),
        s("event"),
        s("verdict"),
        s("summary")
    );
    if !guards.is_empty() {
        line.push_str(&format!("  [{}]", guards.join(", ")));
    }
    if let Some(code) = r["code"].as_str() {
        line.push_str(&format!("  code {code}"));
    }
    if let Some(o) = r["override"].as_object() {
        line.push_str(&format!(
            "  (allow-once, {})",
            o.get("scope").and_then(Value::as_str).unwrap_or("")
        ));
    }
    line
}

/// `30m`, `2h`, `7d`, `45s` in seconds.
fn seconds(text: &str) -> Option<u64> {
    let unit = text.chars().last()?;
    let n: u64 = text[..text.len() - unit.len_utf8()].parse().ok()?;
    let mult = match unit {
        's' => 1,
        'm' => 60,
        'h' => 3600,
        'd' => 86_400,
        _ => return None,
    };
    n.checked_mul(mult)
}

/// The file, or its last [`MAX_READ`] bytes from a line start.
fn read_tail(path: &std::path::Path) -> std::io::Result<String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    if len > MAX_READ {
        file.seek(SeekFrom::Start(len - MAX_READ))?;
    }
    let mut bytes = Vec::new();
    file.take(MAX_READ).read_to_end(&mut bytes)?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    Ok(if len > MAX_READ {
        text.split_once('\n')
            .map_or(String::new(), |(_, rest)| rest.to_owned())
    } else {
        text
    })
}
