//! `hookc build` and `hookc check`: one pipeline, two endings.

use std::path::Path;

use serde_json::{Value, json};

use super::Ui;
use crate::cli::{BuildArgs, Format};
use crate::diag::{Code, Diagnostic, Diagnostics, Severity, render};
use crate::emit::{EmitCx, Scope};
use crate::exit::ExitStatus;
use crate::harness;
use crate::ir::{Event, Policy, Tool};
use crate::plan::{self, Action, Change, Plan};
use crate::source::SourceFile;
use crate::{compile, write};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Write,
    Check,
}

impl Mode {
    fn word(self) -> &'static str {
        match self {
            Mode::Write => "build",
            Mode::Check => "check",
        }
    }
}

/// Records the build outside the project, so that the hooks refuse any
/// other (see [`crate::builds`]). A build that cannot be recorded still
/// stands; the warning says what the hooks will do.
fn record_build(out_dir: &Path, diags: &mut Diagnostics) {
    let policy = out_dir.join(crate::emit::POLICY_JSON);
    if let Err(e) = crate::builds::record_build(&policy) {
        diags.push(
            Diagnostic::new(Code::Io, format!("could not record this build ({e})"))
                .severity(Severity::Warning)
                .help("the hooks take the next compiled policy they see as the build; make the state directory ($XDG_STATE_HOME/hookc or ~/.local/state/hookc) writable and run `hookc build` again"),
        );
    }
}

pub fn build(args: &BuildArgs, mode: Mode, ui: &Ui) -> ExitStatus {
    let mut diags = Diagnostics::default();
    let (policy_path, out_dir) =
        match super::locate(args.project.policy.as_deref(), args.project.out.as_deref()) {
            Ok(found) => found,
            Err(d) => {
                diags.push(d);
                let out = Output::new(args, Path::new(crate::discover::POLICY), mode, ui);
                return out.finish(diags, ExitStatus::Error);
            }
        };
    let (policy_path, out_dir) = (policy_path.as_path(), out_dir.as_path());
    let mut out = Output::new(args, policy_path, mode, ui);
    let managed = match args.managed.then(|| install(args)).transpose() {
        Ok(managed) => managed,
        Err(d) => {
            diags.push(d);
            return out.finish(diags, ExitStatus::Error);
        }
    };
    // A managed tree is written under --root; its manifest and lock are in
    // hookc's folder there.
    let root = match &managed {
        Some(install) => args
            .root
            .clone()
            .unwrap_or_else(|| install.os.system_root().into()),
        None => out_dir.to_owned(),
    };
    let options = plan::Options {
        user: args.user,
        homes: plan::Homes::from_env(),
        hookc_dir: managed.as_ref().map(crate::managed::Install::hookc_dir),
        managed_files: managed
            .as_ref()
            .map(|install| harness::managed_files(install.os))
            .unwrap_or_default(),
    };
    // One lock for the whole build, before anything is read: a second build
    // must not plan against files the first is about to change.
    let printing = args.print.is_some();
    let _lock = if mode == Mode::Write && !args.dry_run && !printing {
        match lock(&root) {
            Some(lock) => Some(lock),
            None => return ExitStatus::Error,
        }
    } else {
        None
    };
    let (file, policy) = match load(policy_path, out_dir, &mut diags) {
        Ok(loaded) => loaded,
        Err(status) => return out.finish(diags, status),
    };
    if managed.is_none() {
        missing_programs(&file, &policy, out_dir, &mut diags);
    }
    let artifacts = match &managed {
        Some(install) => compile::emit_managed(&file, &policy, install, &mut diags),
        None => compile::emit(&file, &policy, &mut diags),
    };
    if let (Some(id), Some(install)) = (args.print, &managed) {
        return print_managed(id, install, &policy, &artifacts, out, diags);
    }
    let plan = Plan::new(&root, &policy.source, &artifacts, &options, &mut diags);
    if diags.has_errors() {
        return out.finish(diags, ExitStatus::Error);
    }
    out.files(&plan);

    let blocked = report_conflicts(&plan, args.force, ui);
    if mode == Mode::Check {
        let status = check(&plan, &mut out);
        return out.finish(diags, status);
    }
    if blocked && !args.dry_run {
        return ExitStatus::Failure;
    }
    if args.dry_run {
        if plan.is_clean() {
            out.say("hookc build --dry-run: everything is up to date with the policy; a build would change nothing");
            out.change_lines(&plan, false);
            return out.finish(diags, ExitStatus::Success);
        }
        out.say("hookc build --dry-run: nothing written; a build would:");
        out.change_lines(&plan, false);
        return out.finish(diags, ExitStatus::Success);
    }
    if let Err(e) = write::apply(&plan) {
        diags.push(
            Diagnostic::new(Code::Io, format!("could not write {e}"))
                .help(if managed.is_some() {
                    "a managed install writes where only root may: run `sudo hookc build --managed`, or lay the tree out with `--root DIR`"
                } else {
                    "check that the project directory (`--out`) is writable, then run `hookc build` again"
                }),
        );
        return out.finish(diags, ExitStatus::Error);
    }
    out.written = true;
    out.change_lines(&plan, false);
    out.say(&summary(&file, &policy, &plan));
    if let Some(install) = &managed {
        out.say(&format!(
            "  to do: install hookc at {} (owned by root, writable by root only) on every managed machine",
            install.hookc
        ));
        return out.finish(diags, ExitStatus::Success);
    }
    record_build(out_dir, &mut diags);
    crate::pin::record(&mut diags);
    out.harnesses(&file, &policy, &plan, args.user);
    out.finish(diags, ExitStatus::Success)
}

/// Warn of each `run` program the project lacks: the guard's calls would
/// all be refused as "could not run" (see [`Code::RunMissing`]).
fn missing_programs(file: &SourceFile, policy: &Policy, root: &Path, diags: &mut Diagnostics) {
    for guard in &policy.guards {
        let Some(program) = &guard.run else { continue };
        if crate::disk::is_executable_file(&root.join(program)) {
            continue;
        }
        let mut d = Diagnostic::new(
            Code::RunMissing,
            format!(
                "guard `{}` runs `{program}`, which is not an executable file in this project: every call it matches will be refused",
                guard.name
            ),
        )
        .severity(Severity::Warning)
        .help(match &guard.from {
            Some(from) => format!(
                "the guard comes from {from}: commit its program at {program} and make it executable, or ask that policy's owner to ship it"
            ),
            None => format!("commit the program at {program} and make it executable (`chmod +x`)"),
        });
        if guard.from.is_none() {
            d = d
                .in_file(file)
                .label(guard.origin, format!("in guard `{}`", guard.name));
        }
        diags.push(d);
    }
}

/// The managed install `args` ask for, or why there is none.
fn install(args: &BuildArgs) -> Result<crate::managed::Install, Diagnostic> {
    let os = args.os.or_else(crate::managed::Os::host).ok_or_else(|| {
        Diagnostic::new(
            Code::Io,
            format!(
                "hookc has no managed paths for {} yet",
                std::env::consts::OS
            ),
        )
        .help(
            "build the tree for another system with `--os linux`, `--os macos` or `--os windows` and `--root DIR`",
        )
    })?;
    if args.root.is_none() && Some(os) != crate::managed::Os::host() && args.print.is_none() {
        return Err(Diagnostic::new(
            Code::Io,
            format!(
                "a managed tree for {} is not this system's: it needs `--root DIR` to be laid out in",
                os.name()
            ),
        )
        .help("add `--root DIR` (a staging folder for the package), or run the build on that system"));
    }
    let hookc = args
        .hookc
        .clone()
        .unwrap_or_else(|| os.default_hookc().into());
    let hookc = match hookc.to_str() {
        Some(text) if os.is_plain_absolute(text) => text.to_owned(),
        _ => {
            return Err(Diagnostic::new(
                Code::Io,
                format!(
                    "--hookc {}: not an absolute, plain path on {}",
                    hookc.display(),
                    os.name()
                ),
            )
            .help(format!(
                "name the hookc the managed hooks run by its absolute path, such as {}",
                os.default_hookc()
            )));
        }
    };
    Ok(crate::managed::Install {
        os,
        hookc,
        only_managed: !args.allow_other_hooks,
    })
}

/// `hookc build --managed --print HARNESS`: the administrator file of one
/// harness on standard output, as a new file would hold it.
fn print_managed(
    id: crate::ir::HarnessId,
    install: &crate::managed::Install,
    policy: &Policy,
    artifacts: &[crate::emit::Artifact],
    out: Output,
    mut diags: Diagnostics,
) -> ExitStatus {
    let layer = harness::get(id).and_then(|h| h.managed_layer());
    let file = layer.and_then(|layer| {
        let path = crate::managed::tree_path(layer.on(install.os)?);
        artifacts.iter().find(|a| a.path == path)
    });
    let text = match file.map(crate::emit::Artifact::fresh_text) {
        Some(text) if policy.targets.contains(&id) => text,
        _ => {
            diags.push(
                Diagnostic::new(
                    Code::Io,
                    format!("the managed install writes no administrator file for `{id}`"),
                )
                .help(if layer.is_none() {
                    "`hookc explain no-managed-layer` lists the harnesses with one".to_owned()
                } else {
                    format!("add `{id}` to the policy's `targets`")
                }),
            );
            return out.finish(diags, ExitStatus::Error);
        }
    };
    print!("{text}");
    out.finish(diags, ExitStatus::Success)
}

/// The policy compiled, named by its path from the project and with the
/// command that installs the hookc it needs; the status to end with when it
/// does not compile (reported).
pub(super) fn load(
    policy_path: &Path,
    out_dir: &Path,
    diags: &mut Diagnostics,
) -> Result<(SourceFile, Policy), ExitStatus> {
    let Some((file, mut policy)) = compile::load(policy_path, diags) else {
        let could_not_read = diags.iter().any(|d| d.code == Code::Io);
        return Err(if could_not_read {
            ExitStatus::Error
        } else {
            ExitStatus::Failure
        });
    };
    // Generated files name the policy by its path from the project, whatever
    // spelling found it: the same policy gives the same bytes.
    policy.source = project_name(policy_path, out_dir);
    let requirement = policy
        .hookc_version
        .as_deref()
        .and_then(|r| crate::version::Requirement::parse(r).ok());
    policy.install = crate::version::install_command(out_dir, requirement.as_ref());
    Ok((file, policy))
}

/// Report each change that would undo a hand edit; `true` when they block the
/// build (no `--force`).
fn report_conflicts(plan: &Plan, force: bool, ui: &Ui) -> bool {
    let conflicts: Vec<Diagnostic> = plan.conflicts().map(|c| conflict(c, force)).collect();
    let blocked = !conflicts.is_empty() && !force;
    ui.report(
        conflicts
            .into_iter()
            .fold(Diagnostics::default(), |mut all, d| {
                all.push(d);
                all
            }),
    );
    blocked
}

/// The line that says what a build did: for which harnesses, how many files
/// changed.
fn summary(file: &SourceFile, policy: &Policy, plan: &Plan) -> String {
    let changed = plan
        .changes
        .iter()
        .filter(|c| c.action != Action::Unchanged)
        .count();
    format!(
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
    )
}

fn check(plan: &Plan, out: &mut Output) -> ExitStatus {
    out.change_lines(plan, true);
    if plan.is_clean() {
        out.say("hookc check: everything is up to date with the policy");
        return ExitStatus::Success;
    }
    let mut stale = 0;
    for change in plan
        .changes
        .iter()
        .filter(|c| c.action != Action::Unchanged)
    {
        stale += 1;
        let old = change.old.as_deref().unwrap_or("");
        let new = change.new.as_deref().unwrap_or("");
        out.summaries
            .push(format!("{}: {}", change.path, drift_summary(change)));
        let diff = if old == new {
            format!("{}: not executable\n", change.path)
        } else {
            similar::TextDiff::from_lines(old, new)
                .unified_diff()
                .context_radius(3)
                .header(&format!("a/{}", change.path), &format!("b/{}", change.path))
                .to_string()
        };
        out.diffs.push((change.path.clone(), diff));
    }
    out.stale = Some(stale);
    ExitStatus::Failure
}

/// What is stale in one file, in a few words: the compiled policy's guards
/// by name, other files by how many lines differ.
fn drift_summary(change: &Change) -> String {
    let (old, new) = match (change.old.as_deref(), change.new.as_deref()) {
        (None, _) => return "missing (a build writes it)".to_owned(),
        (_, None) => return "no longer written by the policy (a build retracts it)".to_owned(),
        (Some(old), Some(new)) if old == new => return "not executable".to_owned(),
        (Some(old), Some(new)) => (old, new),
    };
    // A project's `.hookc/policy.json`, or a managed tree's `etc/hookc/policy.json`.
    if change.path.ends_with("hookc/policy.json")
        && let Some(guards) = guard_changes(old, new)
    {
        return guards;
    }
    let diff = similar::TextDiff::from_lines(old, new);
    let (mut added, mut removed) = (0, 0);
    for op in diff.iter_all_changes() {
        match op.tag() {
            similar::ChangeTag::Insert => added += 1,
            similar::ChangeTag::Delete => removed += 1,
            similar::ChangeTag::Equal => {}
        }
    }
    format!(
        "{added} line{} added, {removed} removed",
        if added == 1 { "" } else { "s" }
    )
}

/// The guards a compiled policy gains, loses or changes between `old` and
/// `new` (one guard a line, each an object with its `name`), or `None` when
/// either is not read as one.
fn guard_changes(old: &str, new: &str) -> Option<String> {
    fn guards(text: &str) -> Option<Vec<(String, Value)>> {
        let mut guards = Vec::new();
        for line in text.lines().filter(|l| l.starts_with("{\"name\":")) {
            let mut guard: Value = serde_json::from_str(line.trim_end_matches(',')).ok()?;
            let name = guard.get("name")?.as_str()?.to_owned();
            // A guard's digest follows from the build, not from the guard.
            if let Some(fields) = guard.as_object_mut() {
                fields.remove("sum");
            }
            guards.push((name, guard));
        }
        Some(guards)
    }
    let (old, new) = (guards(old)?, guards(new)?);
    let find = |list: &[(String, Value)], name: &str| {
        list.iter().find(|(n, _)| n == name).map(|(_, g)| g.clone())
    };
    let mut said = Vec::new();
    for (name, guard) in &new {
        match find(&old, name) {
            None => said.push(format!("guard {name} added")),
            Some(was) if was != *guard => said.push(format!("guard {name} changed")),
            Some(_) => {}
        }
    }
    for (name, _) in &old {
        if find(&new, name).is_none() {
            said.push(format!("guard {name} removed"));
        }
    }
    if said.is_empty() {
        said.push("settings changed (no guard did)".to_owned());
    }
    Some(said.join(", "))
}

/// A hand edit of hookc's part of a file, as a diagnostic.
fn conflict(change: &Change, force: bool) -> Diagnostic {
    if change.foreign {
        let d = Diagnostic::new(
            Code::Conflict,
            format!(
                "{}: this file is not hookc's, but hookc writes its own file there",
                change.path
            ),
        );
        return if force {
            d.severity(Severity::Warning)
                .help("--force: the file is replaced")
        } else {
            d.help("move or rename the file and build again, or build with --force to replace it; `hookc check` shows the difference")
        };
    }
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

/// `policy` as generated files name it: its path from the project root
/// `root`, with `/` separators, after resolving `.`, `..` and symlinks; a
/// policy outside the project goes by its file name alone (a path up and out
/// would say more about the machine than about the project). The spelling on
/// the command line never reaches a generated file.
pub(super) fn project_name(policy: &Path, root: &Path) -> String {
    let (Ok(policy), Ok(root)) = (policy.canonicalize(), root.canonicalize()) else {
        return policy.to_string_lossy().replace('\\', "/");
    };
    let within = policy
        .strip_prefix(&root)
        .ok()
        .or(policy.file_name().map(Path::new));
    within
        .unwrap_or(&policy)
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Whether `guard` runs at all in the harness of `profile`, its event aside:
/// a guard about tools runs when one of its tools has a name there (an MCP
/// tool is assumed to; the harness warns when it cannot name one).
fn runs_at_all(guard: &crate::ir::Guard, profile: &harness::Profile) -> bool {
    use crate::ir::Tool;
    if guard.tools.is_empty() || !guard.event.has_tools() {
        return true;
    }
    guard.tools.iter().any(|t| match t {
        Tool::Known { tool } => !profile.tool_names(*tool).is_empty(),
        Tool::Native { harness, .. } => *harness == profile.id,
        Tool::Mcp { .. } => true,
    })
}

/// What one harness makes of the policy: the files it is given (in the
/// project and, written only with `--user`, in the user's home) and which
/// of the user's guards run there fully, in part, or not at all.
struct Reach<'p> {
    files: Vec<String>,
    user_files: Vec<String>,
    /// Guards that run there, those in `partly` included.
    active: Vec<&'p str>,
    partly: Vec<&'p str>,
    never: Vec<&'p str>,
    /// Guards on events the harness does not have.
    unreached: usize,
}

impl<'p> Reach<'p> {
    /// Emit for this harness alone: that is how to learn which files are
    /// its own and which guards it cannot fully carry.
    fn of(h: &dyn harness::Harness, file: &SourceFile, policy: &'p Policy) -> Reach<'p> {
        let profile = h.profile();
        let mut scratch = Diagnostics::default();
        let mut cx = EmitCx::new(file, &mut scratch);
        h.emit(policy, &mut cx);
        let degraded = std::mem::take(&mut cx.degraded);
        let artifacts = cx.into_artifacts();
        let (mut files, mut user_files) = (Vec::new(), Vec::new());
        for a in &artifacts {
            match a.scope {
                Scope::Project => files.push(a.path.clone()),
                Scope::User { default, .. } => {
                    user_files.push(format!("~/{default}/{}", a.path));
                }
            }
        }
        let (mut active, mut partly, mut never) = (Vec::new(), Vec::new(), Vec::new());
        for g in &policy.guards {
            // The summary counts the user's guards; self-protection is
            // always there (see `crate::protect`).
            if profile.event_name(g.event).is_none() || crate::protect::is_builtin(&g.name) {
                continue;
            }
            if !runs_at_all(g, profile) {
                never.push(g.name.as_str());
            } else if degraded.contains(&g.name) {
                partly.push(g.name.as_str());
                active.push(g.name.as_str());
            } else {
                active.push(g.name.as_str());
            }
        }
        let unreached = policy
            .guards
            .iter()
            .filter(|g| profile.event_name(g.event).is_none())
            .count();
        Reach {
            files,
            user_files,
            active,
            partly,
            never,
            unreached,
        }
    }

    /// The summary's line for the harness: where its guards are active (or
    /// why not yet), then what runs only in part or not at all.
    fn line(
        &self,
        profile: &harness::Profile,
        policy: &Policy,
        shown: &[String],
        waiting: bool,
    ) -> String {
        let count = |n: usize| format!("{n} guard{}", if n == 1 { "" } else { "s" });
        let mut line = if waiting {
            format!(
                "{}: {} not active yet: they run from {}, which only `hookc build --user` writes",
                profile.name,
                count(self.active.len()),
                self.user_files.join(", ")
            )
        } else if let Some(host) = profile
            .hooks_from
            .iter()
            .filter_map(|id| harness::get(*id))
            .find(|h| shown.is_empty() && policy.targets.contains(&h.id()))
        {
            format!(
                "{}: {} active through {}'s hooks, which it runs as its own",
                profile.name,
                count(self.active.len()),
                host.profile().name
            )
        } else if shown.is_empty() {
            format!("{}: no guard applies, no files", profile.name)
        } else {
            format!(
                "{}: {} active in {}",
                profile.name,
                count(self.active.len()),
                shown.join(", ")
            )
        };
        if !shown.is_empty() {
            for (guest, tools) in guests_reached(profile, policy) {
                line.push_str(&format!(
                    "; {guest} runs them too (its {} calls)",
                    tools.join(", ")
                ));
            }
            let visitors = visitors(profile.id, policy);
            if !visitors.is_empty() {
                line.push_str(&format!(
                    "; {} run{} them too, answered in {} own protocol",
                    visitors.join(" and "),
                    if visitors.len() == 1 { "s" } else { "" },
                    if visitors.len() == 1 { "its" } else { "their" }
                ));
            }
        }
        if !self.partly.is_empty() {
            line.push_str(&format!("; only in part: {}", self.partly.join(", ")));
        }
        if !self.never.is_empty() {
            line.push_str(&format!("; cannot run there: {}", self.never.join(", ")));
        }
        if self.unreached > 0 {
            line.push_str(&format!(
                "; {} on events it does not have",
                count(self.unreached)
            ));
        }
        line
    }
}

/// The harnesses `policy` does not target that run `host`'s hook files
/// beside their own, with `host`'s tool names
/// ([`harness::Profile::also_runs`]).
fn visitors(host: crate::ir::HarnessId, policy: &Policy) -> Vec<&'static str> {
    harness::all()
        .iter()
        .map(|h| h.profile())
        .filter(|p| p.also_runs.contains(&host) && !policy.targets.contains(&p.id))
        .map(|p| p.name)
        .collect()
}

/// The harnesses hookc does not target that run `profile`'s hooks too
/// ([`harness::Profile::guests`]), each with its tools that a pre-tool
/// guard of `policy` reaches.
fn guests_reached(
    profile: &harness::Profile,
    policy: &Policy,
) -> Vec<(&'static str, Vec<&'static str>)> {
    let reached = |kind: crate::ir::ToolKind| {
        policy.guards.iter().any(|g| {
            g.event == Event::PreTool
                && (g.tools.is_empty() || g.tools.contains(&Tool::Known { tool: kind }))
        })
    };
    profile
        .guests
        .iter()
        .map(|guest| {
            let tools: Vec<&'static str> = guest
                .tools
                .iter()
                .filter(|(kind, _)| reached(*kind))
                .flat_map(|(_, names)| names.iter().copied())
                .collect();
            (guest.name, tools)
        })
        .filter(|(_, tools)| !tools.is_empty())
        .collect()
}

/// What the user must still do for a harness: its profile's reminders, and
/// how to guard Windows where hookc's hooks do not.
fn todos(h: &dyn harness::Harness, policy: &Policy) -> Vec<String> {
    let mut todos: Vec<String> = h.profile().todo.iter().map(|t| (*t).to_owned()).collect();
    // Only where no Windows machine is guarded (Claude Code is, with Git
    // Bash); a policy that says `platforms … "windows"` gets a warning
    // instead (hookc::windows-unguarded).
    if let (None, harness::windows::OnWindows::Unguarded { fix, .. }) =
        (policy.windows, h.on_windows(policy))
    {
        todos.push(format!(
            "{fix} (Windows runs these hooks differently: `hookc explain windows-unguarded`)"
        ));
    }
    // Where the harness runs a call whose hook timed out, hookc's own
    // deadline is the only defence: say so, with the time it leaves.
    let profile = h.profile();
    if !profile.refuses_late_hooks(policy) {
        let timeout = profile.hook_timeout(policy.timeout);
        todos.push(format!(
            "know that {} runs a call whose hook times out: hookc refuses by itself {:.1} s into the {timeout} s, so keep the programs of `run` guards well under that",
            profile.name,
            crate::runtime::Deadline::due(timeout).as_secs_f64(),
        ));
    }
    todos
}

/// Held for a whole build: an exclusive lock on the project directory itself
/// (nothing to create, nothing left behind if the build is killed).
struct BuildLock {
    _dir: std::fs::File,
}

/// Serialise builds of one project: the second one fails at once with a
/// clear message instead of planning against files the first is changing.
fn lock(root: &Path) -> Option<BuildLock> {
    let opened = std::fs::create_dir_all(root).and_then(|()| std::fs::File::open(root));
    let dir = match opened {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!(
                "error: hookc::io: cannot open the project directory {} to lock it: {e}",
                root.display()
            );
            return None;
        }
    };
    match dir.try_lock() {
        Ok(()) => Some(BuildLock { _dir: dir }),
        Err(std::fs::TryLockError::WouldBlock) => {
            eprintln!(
                "error: another `hookc build` is writing this project ({} is locked); wait for it and build again",
                root.display()
            );
            None
        }
        Err(std::fs::TryLockError::Error(e)) => {
            eprintln!("error: hookc::io: cannot lock {}: {e}", root.display());
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

/// What a build or check reports, for people or as one JSON document.
struct Output<'a> {
    ui: &'a Ui,
    mode: Mode,
    json: bool,
    /// A managed install's build (`--managed`), not a project's.
    managed: bool,
    policy: String,
    written: bool,
    files: Vec<Value>,
    harnesses: Vec<Value>,
    diffs: Vec<(String, String)>,
    /// One line per stale file, what `check` prints without `-v`.
    summaries: Vec<String>,
    stale: Option<usize>,
}

impl<'a> Output<'a> {
    fn new(args: &BuildArgs, policy: &Path, mode: Mode, ui: &'a Ui) -> Self {
        Self {
            ui,
            mode,
            json: args.format == Format::Json,
            managed: args.managed,
            policy: policy.to_string_lossy().replace('\\', "/"),
            written: false,
            files: Vec::new(),
            harnesses: Vec::new(),
            diffs: Vec::new(),
            summaries: Vec::new(),
            stale: None,
        }
    }

    fn say(&self, text: &str) {
        if !self.json {
            self.ui.say(text);
        }
    }

    fn files(&mut self, plan: &Plan) {
        self.files = plan
            .changes
            .iter()
            .map(|c| json!({"path": c.path, "action": verb(c.action)}))
            .collect();
    }

    /// One line per file: changed files always (what to review and commit),
    /// unchanged ones with `-v`; with `all`, every file only with `-v`.
    fn change_lines(&self, plan: &Plan, all_verbose: bool) {
        if self.json {
            return;
        }
        for change in &plan.changes {
            let paint = match change.action {
                Action::Create => super::Paint::Good,
                Action::Update | Action::Unchanged => super::Paint::Note,
                Action::Delete => super::Paint::Bad,
            };
            let word = format!("{:<9}", verb(change.action));
            let word = if change.action == Action::Unchanged {
                word
            } else {
                self.ui.paint(&word, paint)
            };
            let line = format!("  {word} {}", change.path);
            if change.action == Action::Unchanged || all_verbose {
                self.ui.detail(&line);
            } else {
                self.say(&line);
            }
        }
    }

    /// Per harness: the guards that will run there, the ones that run only
    /// in part or not at all, the files, and what the user must still do
    /// (said when the harness's files were first written, and with `-v`).
    fn harnesses(&mut self, file: &SourceFile, policy: &Policy, plan: &Plan, user: bool) {
        for id in &policy.targets {
            let Some(h) = harness::get(*id) else { continue };
            let profile = h.profile();
            let reach = Reach::of(h, file, policy);
            // Hooks in a user-level file run only once `--user` wrote it.
            let waiting = !user && !reach.user_files.is_empty();
            let mut shown = reach.files.clone();
            if user {
                shown.extend(reach.user_files.iter().cloned());
            }
            self.say(&reach.line(profile, policy, &shown, waiting));
            let first_written = plan
                .changes
                .iter()
                .any(|c| c.action == Action::Create && reach.files.contains(&c.path));
            for todo in todos(h, policy) {
                let text = format!("  to do: {todo}");
                if first_written {
                    self.say(&text);
                } else {
                    self.ui.detail(&text);
                }
            }
            self.harnesses.push(json!({
                "harness": id.word(),
                "name": profile.name,
                "guards": reach.active.len(),
                "active": !waiting && !shown.is_empty(),
                "partly": reach.partly,
                "cannot_run": reach.never,
                "files": shown,
                "user_files": reach.user_files,
                "also_run_by": if shown.is_empty() {
                    Vec::new()
                } else {
                    guests_reached(profile, policy)
                        .into_iter()
                        .map(|(name, tools)| json!({"name": name, "tools": tools}))
                        .collect()
                },
                "todo": profile.todo,
            }));
        }
    }

    fn finish(self, diags: Diagnostics, status: ExitStatus) -> ExitStatus {
        if !self.json {
            self.ui.report(diags);
            if let Some(stale) = self.stale {
                for line in &self.summaries {
                    println!("{line}");
                }
                if self.ui.verbose {
                    for (_, diff) in &self.diffs {
                        print!("{diff}");
                    }
                }
                eprintln!(
                    "error: hookc::drift: {stale} file{} out of date with {}; {}{}",
                    if stale == 1 { " is" } else { "s are" },
                    self.policy,
                    if self.managed {
                        "run `sudo hookc build --managed` with the same options"
                    } else {
                        "run `hookc build` and commit the result"
                    },
                    if self.ui.verbose {
                        ""
                    } else {
                        " (`hookc check -v` shows the full diff)"
                    }
                );
            }
            return status;
        }
        let diagnostics: Vec<Value> = diags.into_sorted().iter().map(render::json).collect();
        let mut doc = json!({
            "schema_version": 1,
            "command": self.mode.word(),
            "policy": self.policy,
            "exit_status": status.code(),
            "diagnostics": diagnostics,
            "files": self.files,
        });
        if self.mode == Mode::Write {
            doc["written"] = json!(self.written);
            doc["harnesses"] = json!(self.harnesses);
        } else {
            doc["clean"] = json!(status == ExitStatus::Success);
            doc["diffs"] = self
                .diffs
                .iter()
                .map(|(path, diff)| json!({"path": path, "diff": diff}))
                .collect();
        }
        println!("{doc}");
        status
    }
}
