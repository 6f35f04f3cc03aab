//! Apply a [`Plan`]: every file is written whole or not at all.
//!
//! Each file goes to a temporary file in its own directory, is flushed to
//! disk, gets its mode, and is renamed over the target: a reader (or a build
//! that dies half-way) sees the old file or the new one, never a mix.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::emit::PENDING_NAME;
use crate::plan::{Action, Change, Plan};

/// Apply every change. The new manifest is first put in place as
/// [`crate::emit::PENDING_MANIFEST`], then the files change, then it is renamed over the
/// manifest: a build that dies half-way leaves the previous manifest plus the
/// digests of what it wrote, so the next build neither loses track of a file
/// nor takes hookc's own writes for hand edits. Run with the build lock held.
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
        plan.changes.iter().partition(|c| c.path == plan.manifest);
    remove_stale_temporaries(plan);
    let manifest = manifest
        .into_iter()
        .find(|c| c.action != Action::Unchanged)
        .and_then(|c| Some((&c.target, c.new.as_deref()?)));
    let pending = manifest.map(|(target, _)| target.with_file_name(PENDING_NAME));
    if let (Some((_, text)), Some(pending)) = (manifest, &pending) {
        write_atomic_with(pending, text.as_bytes(), false, &mut |_| Ok(()))
            .map_err(|e| at(pending, e))?;
    }
    for change in files {
        let target = &change.target;
        if change.backup && change.action != Action::Unchanged {
            backup(target).map_err(|e| at(target, e))?;
        }
        match (change.action, &change.new) {
            (Action::Unchanged, _) => {}
            (Action::Create | Action::Update, Some(text)) => {
                let mut as_read = |t: &Path| {
                    before_rename(t)?;
                    still_as_read(change)
                };
                write_atomic_with(target, text.as_bytes(), change.executable, &mut as_read)
                    .map_err(|e| at(target, e))?;
            }
            (Action::Delete, _) | (_, None) => {
                match still_as_read(change).and_then(|()| std::fs::remove_file(target)) {
                    Ok(()) => remove_empty_parents(&plan.owned_dirs, target),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(at(target, e)),
                }
            }
        }
    }
    if let (Some((target, _)), Some(pending)) = (manifest, &pending) {
        before_rename(target)?;
        std::fs::rename(pending, target).map_err(|e| at(target, e))?;
    } else if let Some(hookc_dir) = Path::new(&plan.manifest).parent()
        && let Ok(stale) =
            crate::disk::confine(&plan.root, &hookc_dir.join(PENDING_NAME).to_string_lossy())
    {
        // The manifest stays as it is: what an interrupted build recorded
        // beside it is no longer anybody's.
        let _ = std::fs::remove_file(stale);
    }
    Ok(())
}

/// The file is still what the plan read, just before hookc replaces it: an
/// edit made since (by the user, an editor, another tool) is never lost to
/// a merge that did not see it. The build stops instead, and the next one
/// merges into the edited file.
fn still_as_read(change: &Change) -> std::io::Result<()> {
    let now = match std::fs::read(&change.target) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    if now.as_deref() == change.old.as_deref().map(str::as_bytes) {
        Ok(())
    } else {
        Err(std::io::Error::other(
            "it changed while hookc was building, so hookc left it as it is now; \
             run `hookc build` again to merge into the new contents",
        ))
    }
}

fn at(path: &Path, e: std::io::Error) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// Temporary files of a build that was killed before it could remove them:
/// `.hookc-*.tmp` in the directories this build writes to. Only a build
/// holding the lock calls this, so none of them belongs to a running build.
fn remove_stale_temporaries(plan: &Plan) {
    let mut dirs: Vec<&Path> = plan
        .changes
        .iter()
        .filter_map(|c| c.target.parent())
        .collect();
    dirs.sort();
    dirs.dedup();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let is_file = entry.file_type().is_ok_and(|t| t.is_file());
            if is_file && name.starts_with(".hookc-") && name.ends_with(".tmp") {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// Before hookc first changes a user-level file, keep the original next to
/// it as `<name>.hookc-backup` (once: later builds keep the first backup),
/// with the original's mode and owner: a config that holds API keys is often
/// readable by its owner alone, and so is its copy.
fn backup(target: &Path) -> std::io::Result<()> {
    let Some(name) = target.file_name() else {
        return Ok(());
    };
    let copy = target.with_file_name(format!("{}.hookc-backup", name.to_string_lossy()));
    if target.exists() && std::fs::symlink_metadata(&copy).is_err() {
        let bytes = std::fs::read(target)?;
        write_atomic_like(&copy, &bytes, target)?;
    }
    Ok(())
}

/// Write `bytes` to `target` at once: keep the mode and owner of the file it
/// replaces; a new file gets 0644 (0755 when `executable`) less the umask.
pub fn write_atomic(target: &Path, bytes: &[u8], executable: bool) -> std::io::Result<()> {
    write_atomic_with(target, bytes, executable, &mut |_| Ok(()))
}

fn write_atomic_with(
    target: &Path,
    bytes: &[u8],
    executable: bool,
    before_rename: &mut dyn FnMut(&Path) -> std::io::Result<()>,
) -> std::io::Result<()> {
    write_new(target, bytes, target, executable, before_rename)
}

/// [`write_atomic`] of a new file that takes the mode and owner of `like`.
fn write_atomic_like(target: &Path, bytes: &[u8], like: &Path) -> std::io::Result<()> {
    write_new(target, bytes, like, false, &mut |_| Ok(()))
}

fn write_new(
    target: &Path,
    bytes: &[u8],
    like: &Path,
    executable: bool,
    before_rename: &mut dyn FnMut(&Path) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = target.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(".hookc-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // The kernel takes the umask off, as for any new file.
        builder.permissions(std::fs::Permissions::from_mode(if executable {
            0o755
        } else {
            0o644
        }));
    }
    let mut temp = builder.tempfile_in(dir)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    match std::fs::metadata(like) {
        Ok(meta) => keep_mode_and_owner(temp.path(), &meta, executable)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    // On error the temporary file is removed when `temp` drops.
    before_rename(target)?;
    temp.persist(target).map_err(|e| e.error)?;
    Ok(())
}

/// Give the replacement the mode and owner of the file it replaces (plus the
/// execute bits a hook script needs). A build run by another user (root, say)
/// must not take the file over; if the owner cannot be kept, the file is not
/// replaced.
#[cfg(unix)]
fn keep_mode_and_owner(
    temp: &Path,
    meta: &std::fs::Metadata,
    executable: bool,
) -> std::io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let mut mode = meta.permissions().mode() & 0o7777;
    if executable {
        mode |= 0o111;
    }
    let now = std::fs::metadata(temp)?;
    if (now.uid(), now.gid()) != (meta.uid(), meta.gid()) {
        std::os::unix::fs::chown(temp, Some(meta.uid()), Some(meta.gid())).map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!(
                    "cannot keep its owner (uid {}, gid {}): {e}; run hookc as that user",
                    meta.uid(),
                    meta.gid()
                ),
            )
        })?;
    }
    std::fs::set_permissions(temp, std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn keep_mode_and_owner(_: &Path, _: &std::fs::Metadata, _: bool) -> std::io::Result<()> {
    Ok(())
}

/// Remove the directories hookc made (`owned`) that its last file in them
/// leaves empty; a directory the user made stays.
fn remove_empty_parents(owned: &[PathBuf], file: &Path) {
    let mut dir = file.parent();
    while let Some(d) = dir {
        if !owned.iter().any(|o| d.starts_with(o)) || std::fs::remove_dir(d).is_err() {
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
                manifest: crate::emit::MANIFEST.to_owned(),
                owned_dirs: Vec::new(),
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

    /// An edit made between the build's reading of a file and its rename
    /// of the new one is kept, and the build says so.
    #[test]
    fn an_edit_made_during_the_build_is_never_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let settings = ".claude/settings.json";
        std::fs::create_dir_all(root.join(".claude")).unwrap();
        std::fs::write(root.join(settings), "{}\n").unwrap();
        let plan = Plan {
            root: root.to_owned(),
            manifest: crate::emit::MANIFEST.to_owned(),
            owned_dirs: Vec::new(),
            changes: vec![change(root, settings, Some("{}\n"), "{\"hooks\": {}}\n")],
        };
        let edited = "{\"model\": \"opus\"}\n";
        let error = apply_with(&plan, &mut |target| {
            std::fs::write(target, edited)?;
            Ok(())
        })
        .unwrap_err();
        assert!(
            error
                .to_string()
                .contains("changed while hookc was building"),
            "{error}"
        );
        assert_eq!(
            std::fs::read_to_string(root.join(settings)).unwrap(),
            edited
        );
        // Unedited, the same plan applies.
        std::fs::write(root.join(settings), "{}\n").unwrap();
        apply(&plan).unwrap();
        assert_eq!(
            std::fs::read_to_string(root.join(settings)).unwrap(),
            "{\"hooks\": {}}\n"
        );
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
