//! Apply a [`Plan`]: every file is written whole or not at all.
//!
//! Each file goes to a temporary file in its own directory, is flushed to
//! disk, gets its mode, and is renamed over the target: a reader (or a build
//! that dies half-way) sees the old file or the new one, never a mix.

use std::io::Write;
use std::path::Path;

use crate::plan::{Action, Plan};

pub fn apply(plan: &Plan) -> std::io::Result<()> {
    for change in &plan.changes {
        let target = &change.target;
        if change.backup && change.action != Action::Unchanged {
            backup(target)?;
        }
        match (change.action, &change.new) {
            (Action::Unchanged, _) => {}
            (Action::Create | Action::Update, Some(text)) => {
                write_atomic(target, text.as_bytes(), change.executable).map_err(|e| {
                    std::io::Error::new(e.kind(), format!("{}: {e}", target.display()))
                })?;
            }
            (Action::Delete, _) | (_, None) => match std::fs::remove_file(target) {
                Ok(()) => remove_empty_parents(&plan.root, target),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => {
                    return Err(std::io::Error::new(
                        e.kind(),
                        format!("{}: {e}", target.display()),
                    ));
                }
            },
        }
    }
    Ok(())
}

/// Before hookc first changes a user-level file, keep the original next to
/// it as `<name>.hookc-backup` (once: later builds keep the first backup).
fn backup(target: &Path) -> std::io::Result<()> {
    let Some(name) = target.file_name() else {
        return Ok(());
    };
    let copy = target.with_file_name(format!("{}.hookc-backup", name.to_string_lossy()));
    if target.exists() && !copy.exists() {
        let bytes = std::fs::read(target)?;
        write_atomic(&copy, &bytes, false)?;
    }
    Ok(())
}

pub fn write_atomic(target: &Path, bytes: &[u8], executable: bool) -> std::io::Result<()> {
    let dir = target.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut temp = tempfile::Builder::new()
        .prefix(".hookc-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    set_mode(temp.path(), target, executable)?;
    temp.persist(target).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(unix)]
fn set_mode(temp: &Path, target: &Path, executable: bool) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    // Keep the mode of a file the user already has; new files get the usual modes.
    let mode = match std::fs::metadata(target) {
        Ok(meta) if !executable => meta.permissions().mode() & 0o7777,
        Ok(meta) => meta.permissions().mode() & 0o7777 | 0o111,
        Err(_) if executable => 0o755,
        Err(_) => 0o644,
    };
    std::fs::set_permissions(temp, std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn set_mode(_: &Path, _: &Path, _: bool) -> std::io::Result<()> {
    Ok(())
}

/// Remove directories hookc emptied, up to (not including) the project root.
fn remove_empty_parents(root: &Path, file: &Path) {
    let mut dir = file.parent();
    while let Some(d) = dir {
        if d == root || !d.starts_with(root) || std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
}
