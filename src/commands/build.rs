//! `hookc build` and `hookc check`: one pipeline, two endings.

use super::Ui;
use crate::cli::BuildArgs;
use crate::diag::{Code, Diagnostic, Diagnostics, Severity};
use crate::exit::ExitStatus;
use crate::harness;
use crate::plan::{self, Action, Change, Plan};
use crate::{compile, write};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Write,
    Check,
}

pub fn build(args: &BuildArgs, mode: Mode, ui: &Ui) -> ExitStatus {
    let mut diags = Diagnostics::default();
    let Some((file, policy)) = compile::load(&args.policy, &mut diags) else {
        let could_not_read = diags.iter().any(|d| d.code == Code::Io);
        ui.report(diags);
        return if could_not_read {
            ExitStatus::Error
        } else {
            ExitStatus::Failure
        };
    };
    let artifacts = compile::emit(&file, &policy, &mut diags);
    let options = plan::Options {
        user: args.user,
        homes: plan::Homes::from_env(),
    };
    let plan = Plan::new(&args.out, &file.name, &artifacts, &options, &mut diags);
    let unmergeable = diags.has_errors();
    ui.report(diags);
    if unmergeable {
        return ExitStatus::Error;
    }

    let conflicts: Vec<Diagnostic> = plan.conflicts().map(|c| conflict(c, args.force)).collect();
    let blocked = !conflicts.is_empty() && !args.force;
    ui.report(
        conflicts
            .into_iter()
            .fold(Diagnostics::default(), |mut all, d| {
                all.push(d);
                all
            }),
    );
    if mode == Mode::Check {
        return check(&plan, ui);
    }
    if blocked && !args.dry_run {
        return ExitStatus::Failure;
    }
    if args.dry_run {
        ui.say("hookc build --dry-run: nothing written; a build would:");
        for change in &plan.changes {
            ui.say(&format!("  {:<9} {}", verb(change.action), change.path));
        }
        return ExitStatus::Success;
    }
    let Some(_lock) = lock(&args.out) else {
        return ExitStatus::Error;
    };
    if let Err(e) = write::apply(&plan) {
        eprintln!("error: hookc::io: could not write {e}");
        return ExitStatus::Error;
    }
    for change in plan
        .changes
        .iter()
        .filter(|c| c.action != Action::Unchanged)
    {
        ui.say(&format!("  {:<9} {}", verb(change.action), change.path));
    }
    let changed = plan
        .changes
        .iter()
        .filter(|c| c.action != Action::Unchanged)
        .count();
    ui.say(&format!(
        "hookc: {} compiled for {} ({} file{} changed, {} up to date)",
        file.name,
        policy
            .targets
            .iter()
            .map(|t| t.word())
            .collect::<Vec<_>>()
            .join(", "),
        changed,
        if changed == 1 { "" } else { "s" },
        plan.changes.len() - changed,
    ));
    for id in &policy.targets {
        let Some(h) = harness::get(*id) else { continue };
        let profile = h.profile();
        let count = policy
            .guards
            .iter()
            .filter(|g| profile.event_name(g.event).is_some())
            .count();
        ui.say(&format!(
            "{}: {} guard{} active",
            profile.name,
            count,
            if count == 1 { "" } else { "s" }
        ));
        for todo in profile.todo {
            ui.say(&format!("  to do: {todo}"));
        }
    }
    ExitStatus::Success
}

fn check(plan: &Plan, ui: &Ui) -> ExitStatus {
    if plan.is_clean() {
        ui.say("hookc check: everything is up to date");
        return ExitStatus::Success;
    }
    let mut out = String::new();
    let mut stale = 0;
    for change in plan
        .changes
        .iter()
        .filter(|c| c.action != Action::Unchanged)
    {
        stale += 1;
        let old = change.old.as_deref().unwrap_or("");
        let new = change.new.as_deref().unwrap_or("");
        if old == new {
            out.push_str(&format!("{}: not executable\n", change.path));
            continue;
        }
        let diff = similar::TextDiff::from_lines(old, new);
        out.push_str(
            &diff
                .unified_diff()
                .context_radius(3)
                .header(&format!("a/{}", change.path), &format!("b/{}", change.path))
                .to_string(),
        );
    }
    print!("{out}");
    eprintln!(
        "error: hookc::drift: {stale} file{} out of date; run `hookc build` and commit the result",
        if stale == 1 { " is" } else { "s are" }
    );
    let _ = ui;
    ExitStatus::Failure
}

/// A hand edit of hookc's part of a file, as a diagnostic.
fn conflict(change: &Change, force: bool) -> Diagnostic {
    let d = Diagnostic::new(
        Code::Conflict,
        format!(
            "{}: hookc's part of this file was edited by hand since the last build",
            change.path
        ),
    );
    if force {
        d.severity(Severity::Warning)
            .help("--force: the hand edit is overwritten")
    } else {
        d.help("move the change into the policy and build again, or build with --force to overwrite it; `hookc check` shows the difference")
    }
}

/// Held while a build writes; removes the lock file when dropped.
struct BuildLock {
    path: std::path::PathBuf,
    _file: std::fs::File,
}

impl Drop for BuildLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Serialise builds of one project: the second one fails at once with a
/// clear message instead of interleaving its writes with the first.
fn lock(root: &std::path::Path) -> Option<BuildLock> {
    let path = root.join(crate::emit::HOOKC_DIR).join("build.lock");
    let opened = std::fs::create_dir_all(path.parent().unwrap_or(root)).and_then(|()| {
        std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
    });
    let file = match opened {
        Ok(file) => file,
        Err(e) => {
            eprintln!(
                "error: hookc::io: cannot create the build lock {}: {e}",
                path.display()
            );
            return None;
        }
    };
    match file.try_lock() {
        Ok(()) => Some(BuildLock { path, _file: file }),
        Err(std::fs::TryLockError::WouldBlock) => {
            eprintln!(
                "error: another `hookc build` is writing this project ({} is locked); wait for it and build again",
                path.display()
            );
            None
        }
        Err(std::fs::TryLockError::Error(e)) => {
            eprintln!("error: hookc::io: cannot lock {}: {e}", path.display());
            None
        }
    }
}

fn verb(action: Action) -> &'static str {
    match action {
        Action::Create => "create",
        Action::Update => "update",
        Action::Unchanged => "unchanged",
        Action::Delete => "retract",
    }
}
