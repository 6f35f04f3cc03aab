//! `hookc doctor`: what a teammate runs after cloning. Each check says what
//! it found and, when something is wrong, the one command that fixes it.
//!
//! It reads and runs nothing it does not have to: the policy (compiled, not
//! written), the generated files (planned as `hookc check` does), the hookc
//! the hooks will run (the one `hookc build` recorded, see `crate::pin`,
//! checked against that record and asked for its version) and the
//! user-level settings that can switch a harness's hooks off.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::Ui;
use crate::cli::{DoctorArgs, Format};
use crate::diag::Diagnostics;
use crate::exit::ExitStatus;
use crate::harness::MachineCheck;
use crate::ir::{HarnessId, Policy};
use crate::pin;
use crate::plan::{self, Plan};
use crate::version::{Requirement, Version};

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Status {
    Ok,
    Note,
    Fail,
}

impl Status {
    fn word(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Note => "note",
            Status::Fail => "fail",
        }
    }
}

struct Check {
    status: Status,
    what: String,
    fix: Option<String>,
}

fn ok(what: impl Into<String>) -> Check {
    Check {
        status: Status::Ok,
        what: what.into(),
        fix: None,
    }
}

fn note(what: impl Into<String>, fix: impl Into<String>) -> Check {
    Check {
        status: Status::Note,
        what: what.into(),
        fix: Some(fix.into()),
    }
}

fn fail(what: impl Into<String>, fix: impl Into<String>) -> Check {
    Check {
        status: Status::Fail,
        what: what.into(),
        fix: Some(fix.into()),
    }
}

pub fn doctor(args: &DoctorArgs, ui: &Ui) -> ExitStatus {
    if args.managed {
        let host = crate::managed::Os::host();
        let checks = match (args.os.or(host), &args.root) {
            (Some(os), Some(root)) => managed::checks(root, os),
            (Some(os), None) if Some(os) == host => {
                managed::checks(Path::new(os.system_root()), os)
            }
            (Some(os), None) => vec![fail(
                format!("a managed tree for {} is not this system's", os.name()),
                "name the folder it is laid out in with `--root DIR`",
            )],
            (None, _) => vec![fail(
                format!("hookc has no managed paths for {}", std::env::consts::OS),
                "run `hookc doctor --managed` on Linux, macOS or Windows",
            )],
        };
        return report(args, ui, &checks, "the managed hooks will run here");
    }
    let mut diags = Diagnostics::default();
    let (policy, out) =
        match super::locate(args.project.policy.as_deref(), args.project.out.as_deref()) {
            Ok(found) => found,
            Err(d) => {
                ui.report({
                    let mut all = Diagnostics::default();
                    all.push(d);
                    all
                });
                return ExitStatus::Error;
            }
        };
    let project = Project {
        policy: &policy,
        out: &out,
    };
    let mut checks = policy_checks(&project, &mut diags);
    checks.push(run_time_layer());
    report(args, ui, &checks, "the hooks will run here")
}

/// Print the checks (or one JSON document); failure when any failed.
fn report(args: &DoctorArgs, ui: &Ui, checks: &[Check], all_well: &str) -> ExitStatus {
    let failed = checks.iter().any(|c| c.status == Status::Fail);
    let status = if failed {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    };
    if args.format == Format::Json {
        let doc = json!({
            "schema_version": 1,
            "command": "doctor",
            "exit_status": status.code(),
            "checks": checks.iter().map(|c| json!({
                "status": c.status.word(),
                "what": c.what,
                "fix": c.fix,
            })).collect::<Vec<Value>>(),
        });
        println!("{doc}");
        return status;
    }
    for c in checks {
        let paint = match c.status {
            Status::Ok => super::Paint::Good,
            Status::Note => super::Paint::Note,
            Status::Fail => super::Paint::Bad,
        };
        let word = ui.paint(&format!("{:<5}", c.status.word()), paint);
        ui.say(&format!("{word} {}", c.what));
        if let Some(fix) = &c.fix {
            ui.say(&format!("      fix: {fix}"));
        }
    }
    ui.say(&if failed {
        "hookc doctor: something above stops the hooks from working here".to_owned()
    } else {
        format!("hookc doctor: {all_well}")
    });
    status
}

#[path = "doctor_managed.rs"]
mod managed;

/// Whether the run-time judge (`hookc exec`) can supervise here: found out
/// by supervising `true`. Without it the static guard still answers every
/// call, so its absence is a note, not a failure.
fn run_time_layer() -> Check {
    match crate::runtime::supervised::available() {
        Ok(()) => {
            let names: Vec<&str> = crate::harness::all()
                .iter()
                .filter(|h| h.supervises())
                .map(|h| h.profile().name)
                .collect();
            ok(format!(
                "the run-time judge works here: `hookc exec` can supervise a call (ptrace and seccomp's user notification are allowed), so {} run a line hookc cannot read under it instead of refusing it",
                names.join(", ")
            ))
        }
        Err(why) => note(
            format!(
                "the run-time judge is not available here ({why}); only the static guard protects calls, and it refuses a line it cannot read"
            ),
            "nothing to do for the hooks; to use `hookc exec`, run on Linux 5.14 or later where ptrace and seccomp filters with a listener are allowed",
        ),
    }
}

/// This hookc, and the one the generated hooks will run.
fn installed(policy: &Policy, requirement: Option<&Requirement>, root: &Path) -> Vec<Check> {
    let install = policy.install_command().into_owned();
    let this = Version::current();
    let mut checks = Vec::new();
    match requirement {
        Some(req) if !req.matches(this) => checks.push(fail(
            format!("the policy needs hookc {req}; this is hookc {this}"),
            install.clone(),
        )),
        _ => checks.push(ok(format!("this is hookc {this}"))),
    }
    let rebuild = "run `hookc build` in the project, with the hookc the hooks should run";
    let bin = match hooks_hookc(root) {
        Answering::Nothing => {
            checks.push(fail(
                "the hooks will find no hookc (no `hookc build` here recorded one, and there is none in HOOKC_BIN, on PATH, in node_modules/@hookc/cli-<platform>/bin, node_modules/.bin or .venv/bin)",
                install.clone(),
            ));
            return checks;
        }
        Answering::Unreadable(file, why) => {
            checks.push(fail(
                format!("the hooks refuse every call: the record of which hookc they run ({}) cannot be read ({why})", file.display()),
                rebuild,
            ));
            return checks;
        }
        Answering::Bin(bin) => {
            if let pin::Found::Pin(p) = pin::read() {
                checks.push(note(
                    format!("HOOKC_BIN is set here: hooks started with it run {}, not {}, the hookc `hookc build` recorded", bin.display(), p.bin.display()),
                    "unset HOOKC_BIN for the hooks to run the recorded hookc",
                ));
            }
            bin
        }
        Answering::Pinned(p) => match pinned(&p) {
            Ok(more) => {
                checks.extend(more);
                p.bin
            }
            Err(check) => {
                checks.push(check);
                return checks;
            }
        },
        Answering::Found(bin) => {
            checks.push(note(
                format!("no `hookc build` on this machine recorded a hookc, so the hooks run the first they find ({}), which another program put first on PATH or in the project would replace", bin.display()),
                "run `hookc build` here once: the hooks then run the hookc it recorded",
            ));
            bin
        }
    };
    let version = std::process::Command::new(&bin)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| {
            let text = String::from_utf8_lossy(&o.stdout).into_owned();
            text.split_whitespace().nth(1).and_then(Version::parse)
        });
    let shown = bin.display();
    checks.push(match version {
        None => fail(
            format!("the hooks will run {shown}, which does not answer as hookc does"),
            format!("point HOOKC_BIN or PATH at hookc ({install}), then {rebuild}"),
        ),
        Some(v) if requirement.is_some_and(|r| !r.matches(v)) => fail(
            format!(
                "the hooks will run {shown}, hookc {v}, outside the policy's {}",
                requirement.map(ToString::to_string).unwrap_or_default()
            ),
            format!("{install}, then {rebuild}"),
        ),
        Some(v) if crate::version::older_line(v, &this.line()) => fail(
            format!("the hooks will run {shown}, hookc {v}, older than this hookc {this} that builds them"),
            format!("{install}, then {rebuild}"),
        ),
        Some(v) => ok(format!("the hooks will run {shown} (hookc {v})")),
    });
    checks
}

/// The checks of a pin that the hooks can run: where its copy came from,
/// and whether that has changed since. `Err` when the copy is gone or not
/// what the build recorded.
fn pinned(p: &pin::Pin) -> Result<Vec<Check>, Check> {
    let rebuild = "run `hookc build` in the project, with the hookc the hooks should run";
    let shown = p.bin.display();
    let meta = std::fs::symlink_metadata(&p.bin);
    if !crate::disk::is_executable_file(&p.bin)
        || !meta.as_ref().is_ok_and(std::fs::Metadata::is_file)
    {
        return Err(fail(
            format!(
                "the hooks refuse every call: {shown}, the hookc `hookc build` recorded for them, is gone or not executable"
            ),
            rebuild,
        ));
    }
    let Some(record) = &p.record else {
        return Err(fail(
            format!(
                "the hooks run {shown}, but the record of what it is ({}) cannot be read",
                p.file.display()
            ),
            rebuild,
        ));
    };
    if meta.ok().map(|m| pin::Identity::of(&m)).as_ref() != Some(&record.identity) {
        return Err(fail(
            format!(
                "the hooks run {shown}, which has changed since `hookc build` recorded it (written over or replaced)"
            ),
            rebuild,
        ));
    }
    let mut checks = vec![ok(format!(
        "the hooks run the copy of {} that `hookc build` made on {}, not a hookc on PATH",
        record.source,
        crate::audit::rfc3339(record.pinned)
    ))];
    let source = std::fs::metadata(&record.source).map(|m| pin::Identity::of(&m));
    if source.ok().as_ref() != Some(&record.source_identity) {
        checks.push(note(
            format!("{} has changed since `hookc build` copied it (updated, replaced or removed); the hooks still run the copy, hookc {}", record.source, record.version),
            "run `hookc build` in the project for the hooks to run the hookc installed now",
        ));
    }
    Ok(checks)
}

/// Which hookc a generated hook runs.
enum Answering {
    /// HOOKC_BIN, set in this environment.
    Bin(PathBuf),
    /// The copy `hookc build` recorded.
    Pinned(pin::Pin),
    /// Something at the pin's place that is not a pin: every call is refused.
    Unreadable(PathBuf, String),
    /// No pin: the first hookc on PATH or in the project.
    Found(PathBuf),
    Nothing,
}

/// The hookc a generated hook runs, looked for as the shim looks: HOOKC_BIN,
/// the pin, then PATH and the project's own install.
fn hooks_hookc(root: &Path) -> Answering {
    if let Some(bin) = std::env::var_os("HOOKC_BIN").filter(|b| !b.is_empty()) {
        let bin = PathBuf::from(bin);
        return if crate::disk::is_executable_file(&bin) {
            Answering::Bin(bin)
        } else {
            Answering::Nothing
        };
    }
    match pin::read() {
        pin::Found::Pin(p) => return Answering::Pinned(p),
        pin::Found::Unreadable(file, why) => return Answering::Unreadable(file, why),
        pin::Found::None => {}
    }
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .filter(|d| d.is_absolute())
            .map(|d| d.join("hookc"))
            .find(|p| crate::disk::is_executable_file(p))
    });
    on_path
        .or_else(|| {
            let platform = npm_platform().map(|p| format!("node_modules/@hookc/cli-{p}/bin/hookc"));
            platform
                .iter()
                .map(String::as_str)
                .chain(["node_modules/.bin/hookc", ".venv/bin/hookc"])
                .map(|p| root.join(p))
                .find(|p| crate::disk::is_executable_file(p))
        })
        .map_or(Answering::Nothing, Answering::Found)
}

/// This machine's npm platform package, `@hookc/cli-<os>-<cpu>` as Node
/// names them, whose program the hooks run before the npm launcher (which
/// would pay Node's start-up on every call); the shim names it the same way.
fn npm_platform() -> Option<&'static str> {
    Some(match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", "x86_64") => "linux-x64",
        ("linux", "aarch64") => "linux-arm64",
        ("macos", "x86_64") => "darwin-x64",
        ("macos", "aarch64") => "darwin-arm64",
        _ => return None,
    })
}

/// The generated files, as `hookc check` sees them.
/// The project a doctor run looks at.
/// Whether the policy compiles, and with it whether the hookc it needs is
/// installed, the generated files are up to date and each target harness
/// will run them.
fn policy_checks(project: &Project, diags: &mut Diagnostics) -> Vec<Check> {
    let mut checks = Vec::new();
    match crate::compile::load(project.policy, diags) {
        None => {
            // A policy that needs another hookc is no mistake in the policy.
            let mismatch = diags
                .iter()
                .find(|d| d.code == crate::diag::Code::VersionMismatch);
            checks.push(match mismatch {
                Some(d) => fail(d.message.clone(), d.help.clone().unwrap_or_default()),
                None => fail(
                    format!("{} does not compile", project.policy.display()),
                    "run `hookc check` to see why, and fix the policy",
                ),
            });
        }
        Some((file, mut policy)) => {
            checks.push(ok(format!("{} compiles", file.name)));
            let requirement = policy
                .hookc_version
                .as_deref()
                .and_then(|r| Requirement::parse(r).ok());
            // Named and pinned as `hookc build` names and pins it.
            policy.source = super::build::project_name(project.policy, project.out);
            policy.install = crate::version::install_command(project.out, requirement.as_ref());
            checks.extend(installed(&policy, requirement.as_ref(), project.out));
            checks.push(up_to_date(project, &file, &policy));
            for id in &policy.targets {
                checks.extend(harness(*id, &policy, project.out));
            }
            // Which build the hooks answer with (see `crate::builds`).
            let compiled = project.out.join(crate::emit::POLICY_JSON);
            checks.push(match crate::builds::status(&compiled) {
                Some(Ok(())) => {
                    ok("the hooks answer with the build `hookc build` last recorded here")
                }
                Some(Err(why)) => fail(why, "run `hookc build` in the project"),
                None => note(
                    "no build of this project is recorded on this machine yet",
                    "run `hookc build` (else the hooks' first call records the build it finds)",
                ),
            });
            // The state folder and the audit log, as the hooks find them.
            let root = std::path::absolute(project.out).unwrap_or_else(|_| project.out.to_owned());
            for f in crate::audit::log::findings(
                &root.to_string_lossy(),
                policy.audit,
                policy.allow_once,
            ) {
                checks.push(match (f.problem, f.fix) {
                    (true, fix) => fail(f.what, fix.unwrap_or_default()),
                    (false, _) => ok(f.what),
                });
            }
        }
    }
    checks
}

struct Project<'a> {
    policy: &'a Path,
    out: &'a Path,
}

fn up_to_date(project: &Project, file: &crate::source::SourceFile, policy: &Policy) -> Check {
    let mut diags = Diagnostics::default();
    let artifacts = crate::compile::emit(file, policy, &mut diags);
    let options = plan::Options {
        user: false,
        homes: plan::Homes::from_env(),
        hookc_dir: None,
        managed_files: Vec::new(),
    };
    let name = policy.source.clone();
    let plan = Plan::new(project.out, &name, &artifacts, &options, &mut diags);
    if diags.has_errors() {
        fail(
            "the generated files cannot be checked",
            "run `hookc check` to see why",
        )
    } else if plan.is_clean() {
        ok("the generated files are up to date with the policy")
    } else {
        fail(
            "the generated files are out of date with the policy",
            "run `hookc build` and commit the result",
        )
    }
}

/// What can keep one harness from running the hooks on this machine.
fn harness(id: HarnessId, policy: &Policy, root: &Path) -> Vec<Check> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let name = crate::harness::get(id).map_or(id.word(), |h| h.profile().name);
    let mut checks = Vec::new();
    if let Some(h) = crate::harness::get(id) {
        for check in h.machine_checks(root, home.as_deref()) {
            checks.push(match check {
                MachineCheck::Ok(what) => ok(what),
                MachineCheck::Note(what, fix) => note(what, fix),
                MachineCheck::Fail(what, fix) => fail(what, fix),
            });
        }
    }
    if !policy.guards.is_empty() && checks.iter().all(|c| c.status != Status::Fail) {
        checks.insert(
            0,
            ok(format!("{name}: nothing here switches its hooks off")),
        );
    }
    checks
}
