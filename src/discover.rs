//! Finding `policy.kdl` from wherever the user stands, as cargo, just and
//! ruff find their files: in the current folder, then in each folder above it.
//!
//! A folder above the project is not the user's to trust: `/tmp/policy.kdl`
//! can be anyone's, and a policy decides which hooks a build writes. So the
//! search goes up only while it stays inside what is plausibly the user's
//! project, and stops (without looking) at the first folder that is
//!
//! - on another file system than the folder below it,
//! - `$HOME`'s parent or any folder above it (`/home`, `/`),
//! - `/`,
//! - writable by every user (`/tmp`, `/var/tmp`, `/dev/shm`),
//!
//! and it stops (after looking) at a repository root, a folder holding
//! `.git`. The current folder itself is always looked in, as before.

use std::path::{Path, PathBuf};

/// The policy's file name.
pub const POLICY: &str = "policy.kdl";

/// A policy the search found: its path and the folder it is in, both as
/// the user would type them from the current folder (`policy.kdl` and `.`,
/// or `../../policy.kdl` and `../..`), so diagnostics and generated files
/// spell them the way they did before the search existed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub policy: PathBuf,
    pub root: PathBuf,
}

/// No policy: the folder the search started in, the last folder it looked
/// in, and why it went no further.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotFound {
    pub start: PathBuf,
    pub last: PathBuf,
    pub stop: Stop,
}

/// Why the search did not go further up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The last folder holds `.git`: the repository's root.
    RepositoryRoot,
    /// The folder above is on another file system.
    FileSystem,
    /// The folder above is `$HOME`'s parent or above it.
    Home,
    /// The folder above is `/`.
    Root,
    /// The folder above is writable by every user.
    WorldWritable,
}

impl Stop {
    fn words(self) -> &'static str {
        match self {
            Stop::RepositoryRoot => "it is the repository root (it holds .git)",
            Stop::FileSystem => "the folder above it is on another file system",
            Stop::Home => "the folder above it is above $HOME",
            Stop::Root => "the folder above it is /",
            Stop::WorldWritable => "the folder above it is writable by every user",
        }
    }
}

impl NotFound {
    /// The diagnostic's message.
    pub fn message(&self) -> String {
        if self.start == self.last {
            format!(
                "no {POLICY} in {} (the search stopped there: {})",
                self.start.display(),
                self.stop.words()
            )
        } else {
            format!(
                "no {POLICY} in {} or any folder above it up to {} (the search stopped there: {})",
                self.start.display(),
                self.last.display(),
                self.stop.words()
            )
        }
    }

    /// What to do about it.
    pub fn help(&self) -> &'static str {
        "create one in the project root with `hookc init`, run hookc from inside the project, or pass the policy with `--policy FILE`"
    }
}

/// Search upward from `start` (absolute), with the user's `home` (absolute,
/// if known). See the module documentation for the rule.
pub fn find(start: &Path, home: Option<&Path>) -> Result<Found, NotFound> {
    let home = home.filter(|h| h.is_absolute());
    let mut dir = start.to_path_buf();
    let mut ups = 0usize;
    loop {
        if std::fs::symlink_metadata(dir.join(POLICY)).is_ok() {
            let root = if ups == 0 {
                PathBuf::from(".")
            } else {
                PathBuf::from(vec![".."; ups].join("/"))
            };
            let policy = if ups == 0 {
                PathBuf::from(POLICY)
            } else {
                root.join(POLICY)
            };
            return Ok(Found { policy, root });
        }
        let not_found = |stop| NotFound {
            start: start.to_path_buf(),
            last: dir.clone(),
            stop,
        };
        if dir.join(".git").exists() {
            return Err(not_found(Stop::RepositoryRoot));
        }
        let Some(parent) = dir.parent() else {
            return Err(not_found(Stop::Root));
        };
        if let Some(stop) = refuse(&dir, parent, home) {
            return Err(not_found(stop));
        }
        dir = parent.to_path_buf();
        ups += 1;
    }
}

/// Why the search must not step from `dir` up into `parent`, if it must not.
#[cfg_attr(not(unix), allow(unused_variables))]
fn refuse(dir: &Path, parent: &Path, home: Option<&Path>) -> Option<Stop> {
    if parent.parent().is_none() {
        return Some(Stop::Root);
    }
    if home.is_some_and(|h| h != parent && h.starts_with(parent)) {
        return Some(Stop::Home);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let (Ok(below), Ok(above)) = (std::fs::metadata(dir), std::fs::metadata(parent)) else {
            return Some(Stop::FileSystem);
        };
        if below.dev() != above.dev() {
            return Some(Stop::FileSystem);
        }
        if above.mode() & 0o002 != 0 {
            return Some(Stop::WorldWritable);
        }
    }
    None
}

/// [`find`] from the current folder, with `$HOME`.
pub fn find_from_here() -> Result<Found, NotFound> {
    let start = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let home = home.map(|h| h.canonicalize().unwrap_or(h));
    find(&start, home.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> (tempfile::TempDir, PathBuf) {
        let t = tempfile::tempdir().unwrap();
        let base = t.path().canonicalize().unwrap();
        (t, base)
    }

    #[test]
    fn finds_the_policy_in_a_folder_above() {
        let (_t, base) = tree();
        let sub = base.join("proj/a/b");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(base.join("proj/policy.kdl"), "").unwrap();
        let found = find(&sub, None).unwrap();
        assert_eq!(found.policy, PathBuf::from("../../policy.kdl"));
        assert_eq!(found.root, PathBuf::from("../.."));
        std::fs::write(sub.join("policy.kdl"), "").unwrap();
        assert_eq!(
            find(&sub, None).unwrap(),
            Found {
                policy: "policy.kdl".into(),
                root: ".".into()
            }
        );
    }

    #[test]
    fn stops_at_the_repository_root() {
        let (_t, base) = tree();
        let sub = base.join("proj/src");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::create_dir_all(base.join("proj/.git")).unwrap();
        std::fs::write(base.join("policy.kdl"), "").unwrap();
        let e = find(&sub, None).unwrap_err();
        assert_eq!(e.stop, Stop::RepositoryRoot);
        assert_eq!(e.last, base.join("proj"));
    }

    #[test]
    fn never_reads_a_policy_from_a_folder_every_user_can_write() {
        use std::os::unix::fs::PermissionsExt;
        let (_t, base) = tree();
        let shared = base.join("shared");
        let sub = shared.join("proj");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(shared.join("policy.kdl"), "").unwrap();
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
        let e = find(&sub, None).unwrap_err();
        assert_eq!(e.stop, Stop::WorldWritable);
        assert_eq!(e.last, sub);
    }

    #[test]
    fn never_goes_above_home() {
        let (_t, base) = tree();
        let home = base.join("home/me");
        let sub = home.join("proj");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(base.join("home/policy.kdl"), "").unwrap();
        let e = find(&sub, Some(&home)).unwrap_err();
        assert_eq!(e.stop, Stop::Home);
        assert_eq!(e.last, home);
        // $HOME itself is searched.
        std::fs::write(home.join("policy.kdl"), "").unwrap();
        assert_eq!(find(&sub, Some(&home)).unwrap().root, PathBuf::from(".."));
    }

    #[test]
    fn never_looks_in_the_root() {
        let e = find(Path::new("/proc"), None).unwrap_err();
        assert!(
            matches!(e.stop, Stop::Root | Stop::FileSystem),
            "{:?}",
            e.stop
        );
        assert_eq!(e.last, PathBuf::from("/proc"));
    }
}
