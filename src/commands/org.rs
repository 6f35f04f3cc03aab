//! `hookc check --org FILE`: the fleet drift check. For each repository
//! the file lists, the policies its `policy.kdl` extends and their pins,
//! whether its generated files are what the policy compiles to, and where
//! it would loosen what it extends.
//!
//! A repository is a folder (from the list's folder) or a git URL, which
//! is cloned, shallow, into a temporary folder with the same transports
//! `extends` allows. Each is judged as `hookc check` judges it in its own
//! checkout; nothing is written to any of them.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::Ui;
use crate::cli::{BuildArgs, Format};
use crate::diag::{Code, Diagnostics};
use crate::exit::ExitStatus;
use crate::plan::{self, Action, Plan};

/// What the check found in one repository.
#[derive(Debug, PartialEq)]
enum Finding {
    /// Its generated files are what its policy compiles to.
    Current,
    /// These files differ from what the policy compiles to.
    Stale(Vec<String>),
    /// The policy would loosen what it extends (the messages).
    Loosens(Vec<String>),
    /// The policy does not compile, for another reason (code: message).
    Broken(Vec<String>),
    /// The repository could not be read or cloned, or has no policy.kdl.
    Unreadable(String),
}

impl Finding {
    fn word(&self) -> &'static str {
        match self {
            Finding::Current => "current",
            Finding::Stale(_) => "stale",
            Finding::Loosens(_) => "loosens",
            Finding::Broken(_) => "broken",
            Finding::Unreadable(_) => "unreadable",
        }
    }

    fn details(&self) -> Vec<String> {
        match self {
            Finding::Current => Vec::new(),
            Finding::Stale(v) | Finding::Loosens(v) | Finding::Broken(v) => v.clone(),
            Finding::Unreadable(why) => vec![why.clone()],
        }
    }
}

struct Report {
    /// The repository as the list names it.
    name: String,
    /// Each policy extended: its source and pinned digest.
    extends: Vec<(String, String)>,
    finding: Finding,
}

pub fn check(args: &BuildArgs, list: &Path, ui: &Ui) -> ExitStatus {
    let text = match crate::disk::read_text(list) {
        Ok(Some(text)) => text,
        Ok(None) => {
            return fail(
                args,
                format!("cannot read {}: no such file", list.display()),
            );
        }
        Err(e) => return fail(args, format!("cannot read {}: {e}", list.display())),
    };
    let base = list.parent().unwrap_or(Path::new(""));
    let reports: Vec<Report> = entries(&text)
        .map(|(name, rev)| judge(base, name, rev))
        .collect();
    if reports.is_empty() {
        return fail(
            args,
            format!(
                "{} lists no repository: write one path or git URL a line (`#` starts a comment)",
                list.display()
            ),
        );
    }
    let clean = reports.iter().all(|r| r.finding == Finding::Current);
    let status = if clean {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    };
    match args.format {
        Format::Json => {
            let repos: Vec<Value> = reports
                .iter()
                .map(|r| {
                    json!({
                        "repository": r.name,
                        "extends": r.extends.iter().map(|(s, d)| json!({"source": s, "digest": d})).collect::<Vec<_>>(),
                        "state": r.finding.word(),
                        "details": r.finding.details(),
                    })
                })
                .collect();
            println!(
                "{}",
                json!({"schema_version": 1, "command": "check", "org": list.to_string_lossy(), "exit_status": status.code(), "repositories": repos})
            );
        }
        Format::Human => {
            let width = reports.iter().map(|r| r.name.len()).max().unwrap_or(0);
            let mut out = String::new();
            for r in &reports {
                let extends = if matches!(r.finding, Finding::Unreadable(_)) {
                    String::new()
                } else if r.extends.is_empty() {
                    "extends no policy".to_owned()
                } else {
                    let pins: Vec<String> = r
                        .extends
                        .iter()
                        .map(|(s, d)| format!("{s} ({})", short_pin(d)))
                        .collect();
                    format!("extends {}", pins.join(", "))
                };
                let line = format!("{:<width$}  {:<10}  {extends}", r.name, r.finding.word());
                let _ = writeln!(out, "{}", line.trim_end());
                for detail in r.finding.details() {
                    let _ = writeln!(out, "{:<width$}    {detail}", "");
                }
            }
            let bad = reports
                .iter()
                .filter(|r| r.finding != Finding::Current)
                .count();
            let _ = write!(
                out,
                "hookc check --org: {} repositor{}, {bad} not current",
                reports.len(),
                if reports.len() == 1 { "y" } else { "ies" }
            );
            ui.say(&out);
        }
    }
    status
}

fn fail(args: &BuildArgs, message: String) -> ExitStatus {
    eprintln!("error: {message}");
    if args.format == Format::Json {
        println!(
            "{}",
            json!({"schema_version": 1, "command": "check", "exit_status": 2, "error": message})
        );
    }
    ExitStatus::Error
}

/// The repositories of the list: a path or URL a line, with an optional
/// branch or tag after it; `#` starts a comment.
fn entries(text: &str) -> impl Iterator<Item = (&str, Option<&str>)> {
    text.lines().filter_map(|line| {
        let line = line.split_once('#').map_or(line, |(l, _)| l).trim();
        let mut words = line.split_whitespace();
        let name = words.next()?;
        Some((name, words.next()))
    })
}

fn short_pin(pin: &str) -> &str {
    pin.get(..19).unwrap_or(pin)
}

/// A URL rather than a folder.
fn is_url(name: &str) -> bool {
    name.contains("://") || name.starts_with("git@") || name.starts_with("git+")
}

fn judge(base: &Path, name: &str, rev: Option<&str>) -> Report {
    let report = |extends, finding| Report {
        name: name.to_owned(),
        extends,
        finding,
    };
    // A clone lives as long as its judgement.
    let mut _clone = None;
    let root: PathBuf = if is_url(name) {
        let dir = match tempfile::tempdir() {
            Ok(dir) => dir,
            Err(e) => {
                return report(
                    Vec::new(),
                    Finding::Unreadable(format!("no temporary folder: {e}")),
                );
            }
        };
        let into = dir.path().join("repo");
        let url = name.strip_prefix("git+").unwrap_or(name);
        if let Err(why) = crate::extends::clone(url, rev, &into) {
            return report(Vec::new(), Finding::Unreadable(why));
        }
        _clone = Some(dir);
        into
    } else {
        base.join(name)
    };
    // One spelling of the folder for the policy and the files it builds.
    let root = match std::fs::canonicalize(&root) {
        Ok(root) if root.is_dir() => root,
        _ => {
            return report(
                Vec::new(),
                Finding::Unreadable(format!("{} is not a folder", root.display())),
            );
        }
    };
    // A clone's policy.kdl may be a link out of it (to a file of the
    // machine that runs the check, whose lines a diagnostic would show).
    let policy = match crate::disk::confine(&root, crate::discover::POLICY) {
        Ok(policy) => policy,
        Err(why) => return report(Vec::new(), Finding::Unreadable(why)),
    };
    let mut diags = Diagnostics::default();
    let text = crate::disk::read_text(&policy).ok().flatten();
    // What the policy says it extends, even when it does not compile.
    let pins = text
        .as_deref()
        .map(|t| declared(&policy, t))
        .unwrap_or_default();
    if text.is_none() {
        return report(
            pins,
            Finding::Unreadable("no policy.kdl at its top".to_owned()),
        );
    }
    let Ok((file, policy_ir)) = super::build::load(&policy, &root, &mut diags) else {
        let sorted = diags.into_sorted();
        let loosens: Vec<String> = sorted
            .iter()
            .filter(|d| d.code == Code::ExtendsLoosens)
            .map(|d| d.message.clone())
            .collect();
        if !loosens.is_empty() {
            return report(pins, Finding::Loosens(loosens));
        }
        let broken = sorted
            .iter()
            .filter(|d| d.is_error())
            .map(|d| format!("{}: {}", d.code, d.message))
            .collect();
        return report(pins, Finding::Broken(broken));
    };
    let artifacts = crate::compile::emit(&file, &policy_ir, &mut diags);
    let options = plan::Options {
        user: false,
        homes: plan::Homes::from_env(),
        hookc_dir: None,
        managed_files: Vec::new(),
    };
    let plan = Plan::new(&root, &policy_ir.source, &artifacts, &options, &mut diags);
    if diags.has_errors() {
        let broken = diags
            .into_sorted()
            .iter()
            .filter(|d| d.is_error())
            .map(|d| format!("{}: {}", d.code, d.message))
            .collect();
        return report(pins, Finding::Broken(broken));
    }
    let stale: Vec<String> = plan
        .changes
        .iter()
        .filter(|c| c.action != Action::Unchanged)
        .map(|c| c.path.clone())
        .collect();
    let pins = policy_ir
        .extends
        .iter()
        .map(|e| (e.source.clone(), e.digest.clone()))
        .collect();
    if policy_ir.extends.is_empty() {
        // Dropping the `extends` line is the loosening that leaves no trace
        // in the policy itself.
        report(
            pins,
            Finding::Loosens(vec![
                "extends no policy: no organisation policy is in force here".to_owned(),
            ]),
        )
    } else if stale.is_empty() {
        report(pins, Finding::Current)
    } else {
        report(pins, Finding::Stale(stale))
    }
}

/// The `extends` of a policy's text, as written: source and digest.
fn declared(path: &Path, text: &str) -> Vec<(String, String)> {
    let file = crate::source::SourceFile::new(path.to_string_lossy(), text);
    let mut ignored = Diagnostics::default();
    crate::syntax::read_policy(&file, &mut ignored)
        .map(|ast| {
            ast.extends
                .into_iter()
                .map(|e| {
                    (
                        e.source.value,
                        e.digest.map_or_else(|| "unpinned".to_owned(), |d| d.value),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}
