//! `hookc import`: a policy.kdl from the hand-written hooks of a repository.

use std::path::{Path, PathBuf};

use crate::cli::ImportArgs;
use crate::exit::ExitStatus;

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
        eprintln!(
            "error: found no hand-written hooks to import (looked for .claude/settings*.json, .codex/hooks.json, .cursor/hooks.json, .gemini/settings.json, .github/hooks/*.json, .agents/hooks.json, .kimi*/config.toml, .opencode/plugin*/)"
        );
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
    let mut clashes = Vec::new();
    if !to_stdout && !args.force && std::fs::symlink_metadata(&output).is_ok() {
        clashes.push(output.display().to_string());
    }
    for (path, text) in &imported.scripts {
        let same = std::fs::read_to_string(path).is_ok_and(|t| t == *text);
        if !args.force && !same && std::fs::symlink_metadata(path).is_ok() {
            clashes.push(path.display().to_string());
        }
    }
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
    for (path, text) in &imported.scripts {
        if let Err(e) = write_script(path, text) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitStatus::Error;
        }
        ui.say(&format!("wrote     {}", path.display()));
    }
    if to_stdout {
        print!("{}", imported.policy);
    } else {
        if let Err(e) = std::fs::write(&output, &imported.policy) {
            eprintln!("error: cannot write {}: {e}", output.display());
            return ExitStatus::Error;
        }
        ui.say(&format!("wrote     {}", output.display()));
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
    ui.say("next: read the policy, run `hookc build`, then remove the hand-written hooks");
    ExitStatus::Success
}

fn write_script(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, text)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}
