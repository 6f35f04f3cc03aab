//! `hookc log`: the project's audit log, filtered (see `crate::audit`).

use std::io::Write;

use serde_json::Value;

use super::Ui;
use crate::cli::{Format, LogArgs};
use crate::diag::{Code, Diagnostic, Diagnostics, Severity};
use crate::exit::ExitStatus;

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
    let root_text = root.to_string_lossy().into_owned();
    let path = crate::audit::log_path(&root_text).unwrap_or_default();
    // Tampering first: what the log lost, or what stands in its place.
    let health = match crate::audit::log::check(&root_text) {
        Ok(h) => h,
        Err(crate::audit::store::StateError::NoHome) => {
            fail(
                &mut diags,
                "no state directory: neither $XDG_STATE_HOME nor $HOME is an absolute path"
                    .to_owned(),
                "set HOME",
            );
            ui.report(diags);
            return ExitStatus::Error;
        }
        Err(e) => {
            fail(
                &mut diags,
                format!("hookc does not read its audit log through this: {e}"),
                "the state folder and its audit/ folder must be real folders of yours: remove the link, and the next guard call makes a fresh log",
            );
            ui.report(diags);
            return ExitStatus::Error;
        }
    };
    let mut tampered = false;
    for problem in &health.problems {
        tampered = true;
        diags.push(
            Diagnostic::new(
                Code::LogTampered,
                format!("the audit log {} was tampered with: {problem}", path.display()),
            )
            .severity(Severity::Warning)
            .help("a file of hookc's state folder changed outside hookc; the next guard call starts a fresh log and records what it found there (`hookc log --verdict tampered`)"),
        );
    }
    if health.tampered > 0
        && let Some((at, what)) = &health.last_tamper
    {
        tampered = true;
        diags.push(
            Diagnostic::new(
                Code::LogTampered,
                format!(
                    "hookc has found this project's audit log tampered with {} time{}, last at {}: {what}",
                    health.tampered,
                    if health.tampered == 1 { "" } else { "s" },
                    crate::audit::rfc3339(*at)
                ),
            )
            .severity(Severity::Warning)
            .help("the records from before each tampering may be gone; `hookc log --verdict tampered` lists when"),
        );
    }
    if !health.exists {
        ui.report(diags);
        ui.say(&format!(
            "hookc: no audit log for this project yet ({}); add `audit-log #true` to the policy and run `hookc build`",
            path.display()
        ));
        return ExitStatus::Success;
    }
    let filter = crate::audit::log::Filter {
        wanted: &|r: &crate::audit::log::Head| wanted(args, r),
        since,
        limit: args.limit,
    };
    ui.report(std::mem::take(&mut diags));
    // Records go out as they are read: a log of any size costs a line at a time.
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let json = args.format == Format::Json;
    let quiet = ui.quiet;
    let read = crate::audit::log::read(&root_text, &filter, &mut |record: &[u8]| {
        if json {
            out.write_all(record)?;
            out.write_all(b"\n")
        } else if quiet {
            Ok(())
        } else {
            let r: Value = serde_json::from_slice(record).unwrap_or_default();
            writeln!(out, "{}", line(&r))
        }
    });
    let flushed = out.flush();
    drop(out);
    if let Err(e) = read.and(flushed) {
        // A reader that went away (`hookc log | head`) is not an error.
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return ExitStatus::Success;
        }
        fail(
            &mut diags,
            format!("cannot read {}: {e}", path.display()),
            "check the file's permissions",
        );
        ui.report(diags);
        return ExitStatus::Error;
    }
    if tampered {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    }
}

/// Whether the record passes the filters asked for: harness, verdict and
/// guard (its age is for [`crate::audit::log::read`]).
fn wanted(args: &LogArgs, r: &crate::audit::log::Head) -> bool {
    args.harness
        .is_none_or(|h| r.harness.as_deref() == Some(h.word()))
        && args
            .verdict
            .as_deref()
            .is_none_or(|v| r.verdict.as_deref() == Some(v))
        && args
            .guard
            .as_deref()
            .is_none_or(|g| r.guards.as_ref().is_some_and(|a| a.iter().any(|x| x == g)))
}

/// One record as a line: time, harness, event, verdict, summary, then the
/// guards, the approval code and an `allow-once` approval.
fn line(r: &Value) -> String {
    // What a terminal would not show as it is (an escape sequence planted
    // in a call) is written escaped.
    let s = |k: &str| crate::audit::visible(r[k].as_str().unwrap_or("")).0;
    let guards: Vec<String> = r["guards"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(|g| {
                    // An inherited guard, with where it is written.
                    match r["from"][g].as_str() {
                        Some(from) => format!(
                            "{} from {}",
                            crate::audit::visible(g).0,
                            crate::audit::visible(from).0
                        ),
                        None => crate::audit::visible(g).0,
                    }
                })
                .collect()
        })
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
        line.push_str(&format!("  code {}", crate::audit::visible(code).0));
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
