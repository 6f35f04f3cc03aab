//! The record of the last build, kept outside the project, that makes a
//! compiled policy from an older build worthless.
//!
//! Every file hookc writes into a project is a genuine build, and so is
//! every older version of it: `git checkout HEAD~1 -- .hookc`, a `git
//! stash` of an uncommitted rebuild, a copy from another worktree or an
//! `rsync` from a backup each bring back a `.hookc/policy.json` whose
//! digests are all in order, with the weaker guards of the day it was
//! built. The digests say *who* wrote the file, not *when*.
//!
//! So `hookc build` records, in the user's state directory (next to the
//! audit log, where the project's files are not, and which self-protection
//! refuses to the agent), which build it last wrote for each compiled
//! policy: the digest of the file's first line, which covers every line.
//! `hookc guard` answers only with that build. Any other (older, or one a
//! pull brought from a teammate) refuses every call until the user runs
//! `hookc build`, which records it.
//!
//! A compiled policy with no record yet (the first call after a clone on
//! a machine where `hookc build` never ran) is taken as it is and recorded
//! then: the agent's first call is the first thing that can change it.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// What is recorded of one compiled policy.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
struct Record {
    /// The compiled policy, as an absolute path without links.
    policy: String,
    /// Its build: the digest of its first line (see [`crate::policy_json`]).
    build: String,
    /// When it was recorded (seconds since 1970).
    recorded: u64,
    /// Who recorded it: `build`, or `guard` for a first call.
    by: String,
}

/// The records' directory, `None` without a state directory.
fn dir() -> Option<PathBuf> {
    crate::audit::state_dir().map(|d| d.join("builds"))
}

/// The record of the compiled policy at `policy` (absolute, without
/// links), named after its project (`.hookc/policy.json`'s folder's).
fn record_path(policy: &Path) -> Option<PathBuf> {
    let project = policy.parent()?.parent()?;
    Some(dir()?.join(format!(
        "{}.json",
        crate::audit::project_key(&project.to_string_lossy())
    )))
}

/// Records that `hookc build` wrote the compiled policy at `policy`.
pub fn record_build(policy: &Path) -> std::io::Result<()> {
    let text = std::fs::read(policy)?;
    let Some(build) = crate::policy_json::build_of(&text) else {
        return Err(std::io::Error::other(format!(
            "{} is not a compiled policy hookc wrote",
            policy.display()
        )));
    };
    let policy = std::fs::canonicalize(policy)?;
    write(&policy, build, "build")
}

/// Whether `hookc guard` may answer with the compiled policy at `policy`,
/// whose build is `build`: the one last recorded for it, or the first one
/// seen there. `Err` says why not, for the model to pass on.
pub fn check(policy: &Path, build: &str) -> Result<(), String> {
    let Ok(real) = std::fs::canonicalize(policy) else {
        // Read a moment ago; gone now. The next call says so.
        return Ok(());
    };
    if administered(&real) {
        return Ok(());
    }
    let Some(path) = record_path(&real) else {
        return Ok(());
    };
    match read(&path) {
        Read::Missing => {
            // The record is a lock, not the gate: where the state directory
            // cannot be written, the digests still hold.
            let _ = write(&real, build, "guard");
            Ok(())
        }
        Read::Found(r) if r.build == build && r.policy == real.to_string_lossy() => Ok(()),
        Read::Found(_) => Err(format!(
            "the compiled policy {} is not the build `hookc build` last wrote on this machine \
             (a checkout, stash, copy or pull brought back another one, which may be older and \
             weaker); do not try to restore it yourself: ask the user to run `hookc build` in \
             the project, which builds from policy.kdl and records the build",
            policy.display()
        )),
        Read::Unusable(why) => Err(format!(
            "hookc's record of the last build of {} cannot be read ({why}); ask the user to \
             remove it and run `hookc build` in the project",
            policy.display()
        )),
    }
}

/// Whether the compiled policy at `real` (absolute, without links) is a
/// managed install's (see [`crate::managed`]): outside any project's
/// `.hookc/`, and only root can change it. The record is not kept for
/// such a policy: nobody but root can bring an older build back, and a
/// record in each user's state directory would refuse every call after
/// the administrator's next build. Only root can change it when the file and
/// every folder above it belong to root and no group or other user may
/// write them.
pub fn administered(real: &Path) -> bool {
    if real.ends_with(crate::policy_json::PATH) {
        return false;
    }
    root_only(real)
}

/// Whether `path` and every folder above it are root's alone to change:
/// what it names once links are followed, and the folders that hold the
/// links on the way (a link in a folder anyone may write can be pointed
/// elsewhere).
#[cfg(unix)]
pub fn root_only(path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let owned = |real: &Path| {
        real.ancestors().all(|p| {
            std::fs::symlink_metadata(p).is_ok_and(|m| m.uid() == 0 && m.mode() & 0o022 == 0)
        })
    };
    let Ok(real) = std::fs::canonicalize(path) else {
        return false;
    };
    let holder = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map(std::fs::canonicalize);
    owned(&real)
        && match holder {
            None => true,
            Some(Ok(dir)) => owned(&dir),
            Some(Err(_)) => false,
        }
}

#[cfg(not(unix))]
pub fn root_only(_path: &Path) -> bool {
    false
}

/// What `hookc doctor` says of the compiled policy at `policy`: `None`
/// when no build is recorded for it yet (the first call records one),
/// else whether the hooks answer with it. Writes nothing.
pub fn status(policy: &Path) -> Option<Result<(), String>> {
    let text = std::fs::read(policy).ok()?;
    let build = crate::policy_json::build_of(&text)?.to_owned();
    let real = std::fs::canonicalize(policy).ok()?;
    match read(&record_path(&real)?) {
        Read::Missing => None,
        _ => Some(check(policy, &build)),
    }
}

enum Read {
    Missing,
    Found(Record),
    Unusable(String),
}

/// Reads a record: a regular file (never through a link), small, as hookc
/// wrote it. Anything else is unusable, not missing: a record replaced by a
/// link or a folder must not count as no record.
fn read(path: &Path) -> Read {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // A folder on the way that is a link is not hookc's.
            return match linked_dir(path) {
                Some(dir) => Read::Unusable(format!("{} is a symbolic link", dir.display())),
                None => Read::Missing,
            };
        }
        Err(e) => return Read::Unusable(e.to_string()),
        Ok(meta) if !meta.file_type().is_file() => {
            return Read::Unusable(format!("{} is not a regular file", path.display()));
        }
        Ok(meta) if meta.len() > 64 * 1024 => {
            return Read::Unusable(format!("{} is too large", path.display()));
        }
        Ok(_) => {}
    }
    match crate::disk::read_text(path) {
        Ok(Some(text)) => match serde_json::from_str(&text) {
            Ok(record) => Read::Found(record),
            Err(e) => Read::Unusable(format!("{}: {e}", path.display())),
        },
        Ok(None) => Read::Missing,
        Err(e) => Read::Unusable(format!("{}: {e}", path.display())),
    }
}

/// The first of the records' folder and the state folder that is a
/// symbolic link.
fn linked_dir(record: &Path) -> Option<&Path> {
    record
        .ancestors()
        .skip(1)
        .take(2)
        .find(|d| std::fs::symlink_metadata(d).is_ok_and(|m| m.file_type().is_symlink()))
}

/// Writes the record of `policy` (absolute, without links): a fresh file
/// renamed into place, in folders that are not links.
fn write(policy: &Path, build: &str, by: &str) -> std::io::Result<()> {
    let path = record_path(policy).ok_or_else(|| {
        std::io::Error::other("no state directory: neither $XDG_STATE_HOME nor $HOME is absolute")
    })?;
    let dir = path.parent().expect("a record is in a folder");
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)?;
    if let Some(linked) = linked_dir(&path) {
        return Err(std::io::Error::other(format!(
            "{} is a symbolic link; hookc keeps its records in a folder of its own",
            linked.display()
        )));
    }
    let record = Record {
        policy: policy.to_string_lossy().into_owned(),
        build: build.to_owned(),
        recorded: crate::audit::now(),
        by: by.to_owned(),
    };
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name().unwrap_or_default().to_string_lossy(),
        std::process::id()
    ));
    let _ = std::fs::remove_file(&tmp);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC);
    }
    let mut file = options.open(&tmp)?;
    file.write_all(serde_json::to_string(&record).expect("JSON").as_bytes())?;
    file.sync_all()?;
    std::fs::rename(&tmp, &path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_replaced_by_a_link_is_not_a_missing_one() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("elsewhere.json");
        std::fs::write(&target, "{}").unwrap();
        let link = dir.path().join("record.json");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(matches!(read(&link), Read::Unusable(_)));
        assert!(matches!(read(&dir.path().join("none.json")), Read::Missing));
        std::fs::write(link.with_extension("x"), "not json").unwrap();
        assert!(matches!(read(&link.with_extension("x")), Read::Unusable(_)));
    }
}
