//! `hookc import`: a policy.kdl from the hand-written hooks of a repository.

use std::path::{Path, PathBuf};

use crate::cli::ImportArgs;
use crate::exit::ExitStatus;
use crate::import::Imported;

use super::Ui;

pub fn import(args: &ImportArgs, ui: &Ui) -> ExitStatus {
    let root = Path::new(".");
    let imported = match crate::import::import(root, &args.paths) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitStatus::Error;
        }
    };
    if imported.files.is_empty() {
        if imported.skipped.is_empty() {
            eprintln!(
                "error: found no hand-written hooks to import (looked for {})",
                crate::lint::project_globs().join(", ")
            );
        } else {
            eprintln!("error: found hook files, but no hook in them that hookc can import:");
        }
        for note in &imported.skipped {
            eprintln!("  {note}");
        }
        return ExitStatus::Error;
    }
    let to_stdout = args.output.as_deref() == Some(Path::new("-"));
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| PathBuf::from(crate::discover::POLICY));
    // Refuse before writing anything.
    let clashes = if args.force {
        Vec::new()
    } else {
        clashes(
            &imported,
            (!to_stdout).then_some(output.as_path()),
            &scripts_base(root, args.output.as_deref()),
        )
    };
    if !clashes.is_empty() {
        eprintln!(
            "error: {} already exist{}; hookc import does not overwrite files",
            clashes.join(", "),
            if clashes.len() == 1 { "s" } else { "" }
        );
        eprintln!(
            "  help: write the policy elsewhere with `--output FILE` (`--output -` prints it), or pass --force to overwrite"
        );
        return ExitStatus::Error;
    }
    let policy_to = (!to_stdout).then_some((output.as_path(), args.output.is_some()));
    if to_stdout && !imported.scripts.is_empty() {
        eprintln!(
            "note: the policy's `run` guards need {} wrapper script(s), which go next to the policy: write it with `--output FILE` to get them",
            imported.scripts.len()
        );
    }
    let writes = match writes(root, &imported, policy_to) {
        Ok(writes) => writes,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitStatus::Error;
        }
    };
    for (real, text, executable, shown) in writes {
        if let Err(e) = crate::write::write_atomic(&real, text.as_bytes(), executable) {
            eprintln!("error: cannot write {shown}: {e}");
            return ExitStatus::Error;
        }
        ui.say(&format!("wrote     {shown}"));
    }
    if to_stdout {
        print!("{}", imported.policy);
    }
    ui.say(&format!(
        "{} guard(s) from {} file(s); {} thing(s) not carried over{}",
        imported.guards,
        imported.files.len(),
        imported.skipped.len(),
        if imported.skipped.is_empty() {
            ""
        } else {
            " (see the comments in the policy)"
        }
    ));
    for note in &imported.skipped {
        ui.say(&format!("  not carried over: {note}"));
    }
    ui.say("next: read the policy, run `hookc build`, then remove the hand-written hooks");
    ExitStatus::Success
}

/// The files import would overwrite: the policy at `output` (`None`: it
/// goes to stdout) and wrappers that differ from the ones it writes.
fn clashes(imported: &Imported, output: Option<&Path>, base: &Path) -> Vec<String> {
    let mut clashes = Vec::new();
    if let Some(output) = output
        && std::fs::symlink_metadata(output).is_ok()
    {
        clashes.push(output.display().to_string());
    }
    if output.is_none() {
        return clashes;
    }
    for (path, text) in &imported.scripts {
        let path = base.join(path);
        let same = std::fs::read_to_string(&path).is_ok_and(|t| t == *text);
        if !same && std::fs::symlink_metadata(&path).is_ok() {
            clashes.push(path.display().to_string());
        }
    }
    clashes
}

/// Where the wrappers go: next to the policy, whose `run` guards name them
/// from its folder; the project itself when the policy goes there.
fn scripts_base(root: &Path, output: Option<&Path>) -> PathBuf {
    match output.and_then(Path::parent) {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_owned(),
        _ => root.to_owned(),
    }
}

/// What to write: (where, text, executable, path to show). The wrappers and
/// the default policy stay inside the project, whatever symlinks the
/// repository holds; a policy path given with `--output` (`policy_to`'s
/// flag) is taken as given.
fn writes<'i>(
    root: &Path,
    imported: &'i Imported,
    policy_to: Option<(&Path, bool)>,
) -> Result<Vec<(PathBuf, &'i str, bool, String)>, String> {
    let mut writes: Vec<(PathBuf, &str, bool, String)> = Vec::new();
    // Printed to stdout, the policy has no folder for its wrappers.
    let Some((output, given)) = policy_to else {
        return Ok(writes);
    };
    let base = scripts_base(root, given.then_some(output));
    for (path, text) in &imported.scripts {
        let shown = if base == root {
            path.to_owned()
        } else {
            base.join(path)
        };
        let real = crate::disk::confine(&base, &path.to_string_lossy())
            .map_err(|e| format!("cannot write {}: {e}", shown.display()))?;
        writes.push((real, text, true, shown.display().to_string()));
    }
    {
        let real = if given {
            Ok(output.to_owned())
        } else {
            crate::disk::confine(root, crate::discover::POLICY)
        };
        let real = real.map_err(|e| format!("cannot write {}: {e}", output.display()))?;
        writes.push((real, &imported.policy, false, output.display().to_string()));
    }
    Ok(writes)
}
