//! Apply a [`Plan`]: every file is written whole or not at all.
//!
//! Each file goes to a temporary file in its own directory, is flushed to
//! disk, gets its mode, and is renamed over the target: a reader (or a build
//! that dies half-way) sees the old file or the new one, never a mix.

use std::io::Write;
use std::path::Path;

use crate::emit::MANIFEST;
use crate::plan::{Action, Change, Plan};

/// Apply every change; the manifest goes last, so a build that fails half-way
/// leaves the previous manifest, and the next build still knows what hookc owns.
pub fn apply(plan: &Plan) -> std::io::Result<()> {
    apply_with(plan, &mut |_| Ok(()))
}

/// [`apply`], calling `before_rename` just before each file takes its new
/// contents; tests use it to fail a build at every point in turn.
fn apply_with(
    plan: &Plan,
    before_rename: &mut dyn FnMut(&Path) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let (manifest, files): (Vec<&Change>, Vec<&Change>) =
        plan.changes.iter().partition(|c| c.path == MANIFEST);
    for change in files.into_iter().chain(manifest) {
        let target = &change.target;
        if change.backup && change.action != Action::Unchanged {
            backup(target)?;
        }
        match (change.action, &change.new) {
            (Action::Unchanged, _) => {}
            (Action::Create | Action::Update, Some(text)) => {
                write_atomic_with(target, text.as_bytes(), change.executable, before_rename)
                    .map_err(|e| {
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
    write_atomic_with(target, bytes, executable, &mut |_| Ok(()))
}

fn write_atomic_with(
    target: &Path,
    bytes: &[u8],
    executable: bool,
    before_rename: &mut dyn FnMut(&Path) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = target.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut temp = tempfile::Builder::new()
        .prefix(".hookc-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    set_mode(temp.path(), target, executable)?;
    // On error the temporary file is removed when `temp` drops.
    before_rename(target)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Change;

    fn change(root: &Path, path: &str, old: Option<&str>, new: &str) -> Change {
        Change {
            path: path.to_owned(),
            target: root.join(path),
            action: if old.is_some() {
                Action::Update
            } else {
                Action::Create
            },
            old: old.map(str::to_owned),
            new: Some(new.to_owned()),
            executable: false,
            backup: false,
            conflict: false,
            foreign: false,
        }
    }

    /// A build that fails before any one of its renames leaves every file
    /// either as it was or as the build meant it, and no temporary file.
    #[test]
    fn an_interrupted_build_leaves_old_or_new_files_never_partial_ones() {
        let files = [
            (
                ".claude/settings.json",
                Some("{\"model\": \"opus\"}\n"),
                "{\"hooks\": {}}\n",
            ),
            (".hookc/claude/pre-tool.sh", None, "#!/bin/sh\nexit 2\n"),
            (
                ".hookc/policy.json",
                Some("{\"format\": 1}\n"),
                "{\"format\": 1, \"guards\": []}\n",
            ),
            (".hookc/manifest.json", Some("{}\n"), "{\"files\": []}\n"),
        ];
        for fail_at in 0..files.len() {
            let dir = tempfile::tempdir().unwrap();
            let root = dir.path();
            for (path, old, _) in &files {
                if let Some(old) = old {
                    std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
                    std::fs::write(root.join(path), old).unwrap();
                }
            }
            let plan = Plan {
                root: root.to_owned(),
                changes: files
                    .iter()
                    .map(|(p, old, new)| change(root, p, *old, new))
                    .collect(),
            };
            let mut writes = 0;
            let result = apply_with(&plan, &mut |_| {
                writes += 1;
                if writes > fail_at {
                    Err(std::io::Error::other("disk full"))
                } else {
                    Ok(())
                }
            });
            assert!(result.is_err(), "the injected failure surfaces");
            for (path, old, new) in &files {
                let now = std::fs::read_to_string(root.join(path)).ok();
                assert!(
                    now.as_deref() == *old || now.as_deref() == Some(*new),
                    "{path} is partial after failing at write {fail_at}: {now:?}"
                );
            }
            // The manifest is written last: it is new only if everything else is.
            let manifest = std::fs::read_to_string(root.join(".hookc/manifest.json")).unwrap();
            assert_eq!(
                manifest, "{}\n",
                "failed at {fail_at}, yet the manifest was replaced"
            );
            let leftovers: Vec<_> = walk(root)
                .into_iter()
                .filter(|p| p.ends_with(".tmp"))
                .collect();
            assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
        }
    }

    fn walk(dir: &Path) -> Vec<String> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                out.extend(walk(&path));
            } else {
                out.push(path.display().to_string());
            }
        }
        out
    }

    #[test]
    fn rewriting_a_file_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("settings.json");
        std::fs::write(&file, "{}").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_atomic(&file, b"{\"a\": 1}", false).unwrap();
        assert_eq!(
            std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
            0o600
        );
        write_atomic(&file, b"{}", true).unwrap();
        assert_eq!(
            std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
            0o711
        );
    }
}
