//! `hookc doctor --managed`: the managed install on this machine (see
//! [`crate::managed`]), harness by harness.

use std::path::Path;

use super::{Check, fail, note, ok};
use crate::harness::MachineCheck;
use crate::managed::{Os, tree_path};

/// The checks of the managed tree under `root` (`/` on the machine itself).
pub fn checks(root: &Path, os: Os) -> Vec<Check> {
    let hookc_dir = tree_path(os.hookc_dir());
    let manifest = format!("{hookc_dir}/manifest.json");
    let mut checks = Vec::new();
    let policy = root.join(&hookc_dir).join("policy.json");
    if !policy.is_file() {
        checks.push(fail(
            format!("no managed policy at {}", policy.display()),
            "run `hookc build --managed` as root with the organisation's policy",
        ));
        return checks;
    }
    checks.push(root_only(&policy, "the managed policy", os));
    let mut hookc_checked = false;
    for h in crate::harness::all() {
        let Some(layer) = h.managed_layer() else {
            continue;
        };
        let name = h.profile().name;
        let Some(rel) = layer.on(os).map(tree_path) else {
            continue;
        };
        let file = root.join(&rel);
        let text = match crate::disk::read_text(&file) {
            Ok(Some(text)) => text,
            Ok(None) => continue,
            Err(e) => {
                checks.push(fail(
                    format!("{name}: {} cannot be read ({e})", file.display()),
                    "make it a regular file root can read, and run `hookc build --managed` again",
                ));
                continue;
            }
        };
        // On Linux and macOS the file names hookc's shims; on Windows the
        // commands are PowerShell (Codex's encoded), and the record of what
        // the build wrote, below, is the check.
        let shims = format!("{}/{}/", os.hookc_dir(), h.id().word());
        if os != Os::Windows && !text.contains(&shims) {
            checks.push(fail(
                format!("{name}: {} holds no hookc hook", file.display()),
                "run `hookc build --managed` as root (with this harness in `targets`)",
            ));
            continue;
        }
        // A file hookc writes whole must be the one it recorded; one it
        // merges into is the administrator's too, and `check` compares it.
        let whole = !rel.ends_with("settings.json");
        if whole && !crate::plan::recorded_whole(root, &manifest, &rel, &text) {
            checks.push(fail(
                format!(
                    "{name}: {} is not what the last managed build wrote",
                    file.display()
                ),
                "run `hookc check --managed` to see the difference, then `hookc build --managed` as root",
            ));
        } else {
            checks.push(ok(format!(
                "{name}: {} ({}) holds hookc's hooks",
                file.display(),
                layer.what
            )));
        }
        checks.push(root_only(&file, &format!("{name}'s managed file"), os));
        if let Some(switch) = layer.only_managed {
            let holder = match switch.elsewhere {
                Some(paths) => paths
                    .on(os)
                    .and_then(|file| crate::disk::read_text(&root.join(tree_path(file))).ok())
                    .flatten()
                    .unwrap_or_default(),
                None => text.clone(),
            };
            if !holder.contains(&format!("\"{}\": true", switch.key))
                && !holder.contains(&format!("{} = true", switch.key))
            {
                checks.push(note(
                    format!("{name}: `{}` is off, so users' and projects' own hooks run too (one that answers \"allow\" skips {name}'s permission prompt)", switch.key),
                    "build without `--allow-other-hooks` to run the administrator's hooks only",
                ));
            }
        }
        if let Some(how) = layer.not_enforced {
            checks.push(note(
                format!("{name}: {how}"),
                "keep it off managed machines where the guards must hold (`hookc explain managed-not-enforced`)",
            ));
        }
        for check in h.managed_checks(root, os) {
            checks.push(match check {
                MachineCheck::Ok(what) => ok(what),
                MachineCheck::Note(what, fix) => note(what, fix),
                MachineCheck::Fail(what, fix) => fail(what, fix),
            });
        }
        if !hookc_checked && os != Os::Windows {
            hookc_checked = true;
            checks.push(runs(root, &hookc_dir, h.id().word()));
        } else if !hookc_checked {
            hookc_checked = true;
            checks.push(note(
                "the managed hooks run the hookc their commands name (`--hookc` at the build), by absolute path",
                "install hookc there, where only administrators can change it",
            ));
        }
    }
    if !hookc_checked {
        checks.push(fail(
            "no harness's administrator file holds hookc's hooks",
            "run `hookc build --managed` as root",
        ));
    }
    checks
}

/// The hookc the shims run, read from one of them: there, and only root's.
fn runs(root: &Path, hookc_dir: &str, harness: &str) -> Check {
    let dir = root.join(hookc_dir).join(harness);
    let shim = std::fs::read_dir(&dir).ok().and_then(|entries| {
        entries
            .flatten()
            .find(|e| e.file_name().to_string_lossy().ends_with(".sh"))
            .and_then(|e| std::fs::read_to_string(e.path()).ok())
    });
    let hookc = shim.as_deref().and_then(|text| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix("hookc='")?.strip_suffix('\''))
            .map(str::to_owned)
    });
    let Some(hookc) = hookc else {
        return fail(
            format!(
                "the managed hooks' shims in {} cannot be read",
                dir.display()
            ),
            "run `hookc build --managed` as root",
        );
    };
    let at = root.join(tree_path(&hookc));
    if !at.is_file() {
        return fail(
            format!("the managed hooks run {hookc}, which is not installed: every call is refused"),
            format!("install hookc at {hookc}, owned by root"),
        );
    }
    root_only(
        &at,
        &format!("the hookc the managed hooks run ({hookc})"),
        Os::Linux,
    )
}

/// Whether only root can change `path` (the file and every folder above
/// it), on a tree for `os`.
fn root_only(path: &Path, what: &str, os: Os) -> Check {
    if os == Os::Windows {
        return note(
            format!(
                "{what}: hookc cannot read Windows permissions, so {} was not checked",
                path.display()
            ),
            "make sure only administrators can change it and the folders above it (the default under Program Files; under ProgramData any user may add files)",
        );
    }
    if crate::builds::root_only(path) {
        ok(format!("{what}: only root can change it"))
    } else {
        fail(
            format!(
                "{what}: {} can be changed by a user other than root (it, or a folder above it, is not root's, or is writable by its group or others)",
                path.display()
            ),
            "chown root:root and chmod go-w the file and each folder above it; Copilot CLI and Gemini CLI also skip a managed file that is not root's",
        )
    }
}
