//! `hookc lint`: check hand-written hook configs of every harness.

use std::path::{Path, PathBuf};

use crate::cli::{LintArgs, LintFormat};
use crate::diag::render;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::exit::ExitStatus;
use crate::lint::{self, Kind};
use crate::source::SourceFile;

use super::Ui;

/// A file to lint: its path, what kind of config it is, and the project
/// root its paths are relative to.
type Target = (PathBuf, Kind, PathBuf);

pub fn lint(args: &LintArgs, ui: &Ui) -> ExitStatus {
    let mut cannot = false;
    let mut targets = targets(&args.paths, &mut cannot);
    if args.user
        && let Some(home) = std::env::var_os("HOME").map(PathBuf::from)
    {
        targets.extend(user_targets(&home));
    }
    let mut all = Diagnostics::default();
    let policy = args
        .policy
        .clone()
        .or_else(|| crate::discover::find_from_here().ok().map(|f| f.policy));
    if let Some(path) = &args.policy
        && std::fs::symlink_metadata(path).is_err()
    {
        eprintln!(
            "error: {}: no such file (--policy names the policy whose `lint` block sets rule levels)",
            path.display()
        );
        return ExitStatus::Error;
    }
    let levels = match &policy {
        Some(path) => lint::config::from_policy(path, &mut all),
        None => lint::config::Levels::default(),
    };
    for target in &targets {
        if !lint_file(target, args.fix, args.format, ui, &mut all) {
            cannot = true;
        }
    }
    let all = levels.apply(all);
    let errors = all.has_errors();
    let diags: Vec<Diagnostic> = all
        .into_sorted()
        .into_iter()
        .filter(|d| !ui.quiet || d.is_error())
        .collect();
    report(args.format, ui, &targets, &diags);
    if cannot {
        ExitStatus::Error
    } else if errors {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    }
}

/// The hook configs under each folder of `paths` and each file named (the
/// project of the nearest policy without any). A path that is none is said
/// on stderr and sets `cannot`.
fn targets(paths: &[PathBuf], cannot: &mut bool) -> Vec<Target> {
    let mut targets: Vec<Target> = Vec::new();
    let mut paths = paths.to_vec();
    if paths.is_empty() {
        // The project of the nearest policy, as build finds it; without one,
        // the current folder.
        paths.push(
            crate::discover::find_from_here().map_or_else(|_| PathBuf::from("."), |f| f.root),
        );
    }
    for p in &paths {
        if p.is_dir() {
            for f in lint::discover(p) {
                if let Some(k) = lint::classify(&f) {
                    targets.push((f, k, p.clone()));
                }
            }
        } else if std::fs::symlink_metadata(p).is_ok() {
            // Not a directory: a file, or something that only pretends to be
            // one (a FIFO), which reading reports.
            let by_content = || match crate::disk::read_text(p) {
                Ok(Some(text)) => lint::classify_content(p, &text),
                _ => None,
            };
            match lint::classify(p).or_else(by_content) {
                Some(k) => targets.push((p.clone(), k, lint::root_of(p))),
                None => {
                    eprintln!(
                        "error: {} is not a hook config hookc knows (.claude/settings.json, .cursor/hooks.json, a Kimi Code TOML file with [[hooks]], …)",
                        p.display()
                    );
                    *cannot = true;
                }
            }
        } else {
            eprintln!("error: {}: no such file or folder", p.display());
            *cannot = true;
        }
    }
    targets
}

/// The user-level hook configs under `home` (`--user`), each registered
/// harness's where they exist (Claude Code's settings, Kimi Code's config).
fn user_targets(home: &Path) -> Vec<Target> {
    lint::user_files(home)
        .into_iter()
        .map(|(path, kind)| (path, kind, home.to_owned()))
        .collect()
}

/// Lint one file into `all`, fixing it first with `fix` (and saying what
/// changed: on stdout for a person, on stderr beside a machine `format`).
/// `false` when it cannot be read or written (reported).
fn lint_file(
    (path, kind, root): &Target,
    fix: bool,
    format: LintFormat,
    ui: &Ui,
    all: &mut Diagnostics,
) -> bool {
    let text = match crate::disk::read_text(path) {
        Ok(Some(t)) => t,
        Ok(None) => {
            all.push(Diagnostic::new(
                Code::Io,
                format!("cannot read {}: no such file", path.display()),
            ));
            return false;
        }
        Err(e) => {
            all.push(
                Diagnostic::new(Code::Io, format!("cannot read {}: {e}", path.display()))
                    .help(e.help()),
            );
            return false;
        }
    };
    let shown = path.display().to_string();
    let shown = shown.strip_prefix("./").unwrap_or(&shown).to_owned();
    let file = SourceFile::new(shown.clone(), text.clone());
    let mut report = lint::lint_text(*kind, &file, root);
    if fix && !report.edits.is_empty() {
        let fixed = fixed_text(*kind, &shown, &text, &report.edits, root);
        if let Err(e) = write_fixed(path, &fixed) {
            all.push(Diagnostic::new(
                Code::Io,
                format!("cannot write {}: {e}", path.display()),
            ));
            return false;
        }
        let changes = fix_report(&shown, &text, &fixed);
        match format {
            LintFormat::Human => ui.say(changes.trim_end()),
            _ if !ui.quiet => eprint!("{changes}"),
            _ => {}
        }
        let file = SourceFile::new(shown, fixed);
        report = lint::lint_text(*kind, &file, root);
    }
    let toml = lint::is_toml(*kind);
    all.extend(lint::config::apply_ignores(&file, toml, report.diags));
    true
}

/// `text` with the fixes of `edits` applied. An edit inside a moved or
/// deleted part waits for the next round; a few rounds reach every fix.
fn fixed_text(kind: Kind, shown: &str, text: &str, edits: &[lint::Edit], root: &Path) -> String {
    let mut fixed = lint::apply_edits(text, edits);
    for _ in 0..4 {
        let round = lint::lint_text(
            kind,
            &SourceFile::new(shown.to_owned(), fixed.clone()),
            root,
        );
        if round.edits.is_empty() {
            break;
        }
        let next = lint::apply_edits(&fixed, &round.edits);
        if next == fixed {
            break;
        }
        fixed = next;
    }
    fixed
}

/// What `--fix` changed in the file `shown`, from `old` to `new`: its name,
/// then each changed run of lines with its line number, the lines before
/// (`-`) and after (`+`). A long line is cut to the part around the change.
fn fix_report(shown: &str, old: &str, new: &str) -> String {
    use similar::ChangeTag;
    let mut out = format!("fixed     {shown}\n");
    let diff = similar::TextDiff::from_lines(old, new);
    for group in diff.grouped_ops(0) {
        let Some(first) = group.first() else {
            continue;
        };
        out.push_str(&format!("  {shown}:{}\n", first.old_range().start + 1));
        let mut before = Vec::new();
        let mut after = Vec::new();
        for op in &group {
            for change in diff.iter_changes(op) {
                let line = change.value().trim_end_matches(['\n', '\r']).to_owned();
                match change.tag() {
                    ChangeTag::Delete => before.push(line),
                    ChangeTag::Insert => after.push(line),
                    ChangeTag::Equal => {}
                }
            }
        }
        if before.len() == after.len() {
            for (b, a) in before.iter_mut().zip(after.iter_mut()) {
                (*b, *a) = around_the_change(b, a);
            }
        }
        for b in &before {
            out.push_str(&format!("  - {b}\n"));
        }
        for a in &after {
            out.push_str(&format!("  + {a}\n"));
        }
    }
    out
}

/// Two versions of a line, each cut to the part that differs and some
/// characters either side when the line is long (a one-line JSON file).
fn around_the_change(before: &str, after: &str) -> (String, String) {
    const LONG: usize = 100;
    const CONTEXT: usize = 30;
    let (b, a): (Vec<char>, Vec<char>) = (before.chars().collect(), after.chars().collect());
    if b.len() <= LONG && a.len() <= LONG {
        return (before.to_owned(), after.to_owned());
    }
    let prefix = b.iter().zip(&a).take_while(|(x, y)| x == y).count();
    let max_suffix = b.len().min(a.len()) - prefix;
    let suffix = b
        .iter()
        .rev()
        .zip(a.iter().rev())
        .take(max_suffix)
        .take_while(|(x, y)| x == y)
        .count();
    let cut = |s: &[char]| {
        let start = prefix.saturating_sub(CONTEXT);
        let end = (s.len() - suffix + CONTEXT).min(s.len());
        format!(
            "{}{}{}",
            if start > 0 { "…" } else { "" },
            s[start..end].iter().collect::<String>(),
            if end < s.len() { "…" } else { "" }
        )
    };
    (cut(&b), cut(&a))
}

/// The findings in the format asked for (or, for a person, that there are none).
fn report(format: LintFormat, ui: &Ui, targets: &[Target], diags: &[Diagnostic]) {
    match format {
        LintFormat::Human => {
            if !diags.is_empty() {
                eprint!("{}", render::human_all(diags, ui.style));
            } else {
                ui.say(&format!("{} file(s) linted, no findings", targets.len()));
            }
        }
        LintFormat::Json => {
            let out = serde_json::json!({
                "version": 1,
                "files": targets.iter().map(|(p, _, _)| p.display().to_string()).collect::<Vec<_>>(),
                "diagnostics": diags.iter().map(render::json).collect::<Vec<_>>(),
            });
            println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        }
        LintFormat::Sarif => {
            println!(
                "{}",
                serde_json::to_string_pretty(&lint::sarif::report(diags)).unwrap_or_default()
            );
        }
    }
}

fn write_fixed(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut tmp, text.as_bytes())?;
    if let Ok(meta) = std::fs::metadata(path) {
        let _ = std::fs::set_permissions(tmp.path(), meta.permissions());
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
