//! Which files a git command writes in the work tree, asked of git.
//!
//! `git switch main`, `git stash`, `git merge topic` or `git cherry-pick
//! abc` name no file, yet each rewrites every file that differs between
//! two versions: an older `.hookc/`, a `.claude/settings.json` without
//! hooks. The line cannot say which files those are; the repository can.
//! [`crate::shell::access::git_writes`] says which versions a command
//! moves between ([`GitWrite`]), and [`files`] asks git which files differ
//! between them, so a path guard sees them as written and every other
//! branch switch goes ahead.
//!
//! Only git's plumbing is run, on commits and on the index's recorded
//! state: `diff-tree` and `ls-tree` compare trees in the object store and
//! `diff-index` compares the index's file stamps, so no filter, text
//! conversion, external diff or file-system monitor the repository
//! configures runs, and no transport (a partial clone's missing objects are
//! not fetched). A rev that could be read as an option is not passed.
//! What cannot be answered in time, or at all, is `None`: the caller takes
//! the command to write any file.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::shell::access::GitWrite;

/// At most this much of git's answer is read; a longer list (a switch
/// between unrelated histories) counts as writing any file.
const MAX_OUTPUT: usize = 4 << 20;

/// The files `write` changes in the repository that holds `dir`, as
/// absolute paths; `None` when git cannot say by `deadline`.
pub fn files(write: &GitWrite, dir: &Path, deadline: Instant) -> Option<Vec<PathBuf>> {
    let top = top(dir, deadline)?;
    let names = match write {
        GitWrite::Between(from, to) => {
            match (commit(&top, from, deadline)?, commit(&top, to, deadline)?) {
                // No commit by that name: `git checkout NAME` takes it for
                // a file (restored from the index); anything else stops.
                (_, false) => return Some(vec![dir.join(to)]),
                // No commit yet (a new repository): every file of the other.
                (false, true) => tree_files(&top, to, deadline)?,
                (true, true) => between(&top, from, to, deadline)?,
            }
        }
        GitWrite::Modified => git(&top, &["diff-index", "--name-only", "-z", "HEAD"], deadline)?,
        GitWrite::Stash(rev) | GitWrite::Merged(rev) if !commit(&top, rev, deadline)? => {
            // Nothing to apply or merge: git stops.
            return Some(Vec::new());
        }
        GitWrite::Resume => {
            return in_progress(&top, deadline).and_then(|busy| (!busy).then(Vec::new));
        }
        GitWrite::Stash(stash) => {
            let mut names = between(&top, &format!("{stash}^1"), stash, deadline)?;
            // The untracked files a stash saved (`-u`) are its third parent.
            let untracked = format!("{stash}^3");
            if git(&top, &["rev-parse", "--verify", "-q", &untracked], deadline).is_some() {
                names.push_str(&tree_files(&top, &untracked, deadline)?);
            }
            names
        }
        GitWrite::Merged(other) => {
            let rev = plain_rev(other)?;
            let base = git(
                &top,
                &["merge-base", "HEAD", "--end-of-options", rev],
                deadline,
            )?;
            between(&top, base.trim(), rev, deadline)?
        }
        GitWrite::Bisect {
            checkout: false, ..
        } => return Some(Vec::new()),
        GitWrite::Bisect { .. } if there(&top, "BISECT_START", deadline)? => return None,
        GitWrite::Bisect {
            revs,
            first_parent,
            paths,
            ..
        } => {
            let Some((bad, good)) = revs.split_first().filter(|(_, good)| !good.is_empty()) else {
                // Without a bad and a good commit git waits for them.
                return Some(Vec::new());
            };
            return match halfway(&top, bad, good, *first_parent, paths, deadline)? {
                Some(half) => files(&GitWrite::Between("HEAD".to_owned(), half), dir, deadline),
                None => Some(Vec::new()),
            };
        }
        GitWrite::Unknown => return None,
    };
    Some(
        names
            .split('\0')
            .filter(|n| !n.is_empty())
            .map(|n| top.join(n))
            .collect(),
    )
}

/// How long git may take to list the index for a `$(git ls-files …)`.
const LISTING_TIME: Duration = Duration::from_secs(2);

/// The repository a call runs in, asked through git's plumbing: what a
/// `$(git ls-files …)` of the line prints (see `shell::lex::values`).
/// `ls-files` reads the index and, for `--others` or `--modified`, the
/// work tree; with the monitor off it starts no other program.
pub struct Git;

impl crate::shell::Repository for Git {
    fn ls_files(&self, dir: &Path, args: &[String]) -> Option<String> {
        let mut argv = vec!["ls-files"];
        argv.extend(args.iter().map(String::as_str));
        git(dir, &argv, Instant::now() + LISTING_TIME)
    }
}

/// The top folder of the work tree that holds `dir`.
pub fn top(dir: &Path, deadline: Instant) -> Option<PathBuf> {
    let top = git(dir, &["rev-parse", "--show-toplevel"], deadline)?;
    let top = PathBuf::from(top.trim_end_matches(['\n', '\0']));
    top.is_absolute().then_some(top)
}

/// Whether `dir` is in no work tree at all, as git answers there: then a
/// git command that changes one fails and writes nothing. `false` too when
/// git does not answer in time or cannot be run.
pub fn outside_any(dir: &Path, deadline: Instant) -> bool {
    matches!(
        run(dir, &["rev-parse", "--is-inside-work-tree"], deadline),
        Ran::Failed
    )
}

/// The files that differ between the trees of two revs, NUL-separated.
fn between(top: &Path, from: &str, to: &str, deadline: Instant) -> Option<String> {
    let (from, to) = (plain_rev(from)?, plain_rev(to)?);
    git(
        top,
        &[
            "diff-tree",
            "-r",
            "--name-only",
            "-z",
            "--no-renames",
            "--end-of-options",
            from,
            to,
        ],
        deadline,
    )
}

/// Every file of a rev's tree, NUL-separated.
fn tree_files(top: &Path, rev: &str, deadline: Instant) -> Option<String> {
    let rev = plain_rev(rev)?;
    git(
        top,
        &[
            "ls-tree",
            "-r",
            "--name-only",
            "-z",
            "--end-of-options",
            rev,
        ],
        deadline,
    )
}

/// The commit `git bisect start BAD GOOD…` checks out: `Some(None)` when
/// `bad` is the only one left (git names it and checks out none); `None`
/// when git cannot say, or finds none between (a good commit that is no
/// ancestor of the bad one, whose merge bases git tests first).
fn halfway(
    top: &Path,
    bad: &str,
    good: &[String],
    first_parent: bool,
    paths: &[String],
    deadline: Instant,
) -> Option<Option<String>> {
    let mut args = vec!["rev-list", "--bisect"];
    if first_parent {
        args.push("--first-parent");
    }
    args.extend(["--end-of-options", plain_rev(bad)?]);
    let not: Vec<String> = good
        .iter()
        .map(|g| plain_rev(g).map(|g| format!("^{g}")))
        .collect::<Option<_>>()?;
    args.extend(not.iter().map(String::as_str));
    if !paths.is_empty() {
        args.push("--");
        args.extend(paths.iter().map(String::as_str));
    }
    let half = git(top, &args, deadline)?;
    let half = half.trim();
    if half.is_empty() {
        return None;
    }
    let spec = format!("{bad}^{{commit}}");
    let bad = git(
        top,
        &["rev-parse", "--verify", "-q", "--end-of-options", &spec],
        deadline,
    )?;
    Some((half != bad.trim()).then(|| half.to_owned()))
}

/// Whether the file git keeps as `name` (`MERGE_HEAD`, `BISECT_START`) is
/// there in the repository at `top`, or cannot be looked at; `None` when
/// git cannot say in time.
fn there(top: &Path, name: &str, deadline: Instant) -> Option<bool> {
    let at = git(top, &["rev-parse", "--git-path", name], deadline)?;
    Some(!matches!(
        std::fs::symlink_metadata(top.join(at.trim_end_matches('\n'))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound
    ))
}

/// Whether the repository at `top` is in the middle of an operation that
/// `--continue` or `--abort` would go on with or undo; `None` when git
/// cannot say in time.
fn in_progress(top: &Path, deadline: Instant) -> Option<bool> {
    for name in [
        "rebase-merge",
        "rebase-apply",
        "MERGE_HEAD",
        "CHERRY_PICK_HEAD",
        "REVERT_HEAD",
        "sequencer",
        "BISECT_LOG",
    ] {
        if there(top, name, deadline)? {
            return Some(true);
        }
    }
    Some(false)
}

/// Whether `rev` names a commit in the repository at `top`; `None` when
/// git cannot say in time.
fn commit(top: &Path, rev: &str, deadline: Instant) -> Option<bool> {
    let Some(rev) = plain_rev(rev) else {
        return Some(false);
    };
    let spec = format!("{rev}^{{commit}}");
    match run(
        top,
        &["rev-parse", "--verify", "-q", "--end-of-options", &spec],
        deadline,
    ) {
        Ran::Printed(_) => Some(true),
        Ran::Failed => Some(false),
        Ran::Unknown => None,
    }
}

/// A rev as the line spelled it, unless git could read it as something
/// else than a rev (an option, an empty word).
fn plain_rev(rev: &str) -> Option<&str> {
    (!rev.is_empty() && !rev.starts_with('-') && !rev.contains('\0')).then_some(rev)
}

/// What `git ARGS` prints in `dir` when it succeeds by `deadline`.
fn git(dir: &Path, args: &[&str], deadline: Instant) -> Option<String> {
    match run(dir, args, deadline) {
        Ran::Printed(out) => Some(out),
        Ran::Failed | Ran::Unknown => None,
    }
}

/// How a git command ended.
enum Ran {
    /// It succeeded, and printed this.
    Printed(String),
    /// It ran and exited with a failure.
    Failed,
    /// It could not be started, or waited for, or did not finish in time,
    /// or printed too much.
    Unknown,
}

fn run(dir: &Path, args: &[&str], deadline: Instant) -> Ran {
    // No monitor, no transport: a partial clone would fetch a missing
    // tree, and a fetch runs the repository's `core.sshCommand`.
    let Ok(mut child) = Command::new("git")
        .args(["-c", "core.fsmonitor=false", "-c", "protocol.allow=never"])
        .arg("--no-pager")
        .arg("--no-optional-locks")
        .args(args)
        .current_dir(dir)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_NO_LAZY_FETCH", "1")
        .env_remove("GIT_EXTERNAL_DIFF")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        return Ran::Unknown;
    };
    let Some(mut stdout) = child.stdout.take() else {
        return Ran::Unknown;
    };
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = (&mut stdout)
            .take(MAX_OUTPUT as u64 + 1)
            .read_to_end(&mut out);
        out
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Ran::Unknown;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(_) => return Ran::Unknown,
        }
    };
    let Ok(out) = reader.join() else {
        return Ran::Unknown;
    };
    if !status.success() {
        return if status.code().is_some() {
            Ran::Failed
        } else {
            Ran::Unknown
        };
    }
    match String::from_utf8(out) {
        Ok(out) if out.len() <= MAX_OUTPUT => Ran::Printed(out),
        _ => Ran::Unknown,
    }
}
