//! The places a line names by a word whose value the guard finds out
//! where it runs: `"$PWD/.env"` is the `.env` where the line starts, and
//! `cd "$(git rev-parse --show-toplevel)" && cat .env` reads the one at
//! the top of the work tree. The shell layer marks such a file
//! ([`Touch::place`]) only where the word still holds what the guard finds
//! (see `shell::access::touches`); here the word gives way to the
//! directory. Where that directory cannot be found (an example's call, a
//! folder that is not on this machine, git that does not answer in time),
//! the file stays named at run time, and a path guard refuses it.

use std::cell::OnceCell;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::{Call, EXAMPLE_ROOT};
use crate::shell::access::Touch;
use crate::shell::access::runtime::{self, Place};

pub(super) struct Places<'c> {
    call: &'c Call,
    deadline: Instant,
    top: OnceCell<Option<String>>,
}

impl<'c> Places<'c> {
    pub(super) fn new(call: &'c Call, deadline: Instant) -> Self {
        Places {
            call,
            deadline,
            top: OnceCell::new(),
        }
    }

    /// `t` with the directory its place word names put in the word's
    /// stead, or named at run time when that is not known here.
    pub(super) fn resolve(&self, mut t: Touch) -> Touch {
        let Some(place) = t.place.take() else {
            return t;
        };
        let Some((_, word, rest)) = runtime::place(&t.path) else {
            t.runtime = Some(t.path.clone());
            return t;
        };
        let dir = match place {
            Place::Start => self
                .start()
                .and_then(|d| d.to_str().map(|d| d.trim_end_matches('/').to_owned()))
                .map(|d| if d.is_empty() { "/".to_owned() } else { d }),
            Place::Top => self.top.get_or_init(|| self.find_top()).clone(),
        };
        match dir {
            Some(dir) => t.path = format!("{dir}{rest}"),
            None => t.runtime = Some(word.to_owned()),
        }
        t
    }

    /// Where the call runs: its folder, or the project root.
    fn start(&self) -> Option<PathBuf> {
        let root = Path::new(self.call.root.as_deref()?);
        // Not `join("")`, which would end the path in `/`: `$PWD.bak` is a
        // name next to the folder, not in it.
        let dir = match self.call.cwd.as_deref().filter(|c| !c.is_empty()) {
            Some(cwd) => root.join(cwd),
            None => root.to_path_buf(),
        };
        dir.is_absolute().then_some(dir)
    }

    /// The top of the work tree where the call runs, as git answers there.
    fn find_top(&self) -> Option<String> {
        if self.call.root.as_deref() == Some(EXAMPLE_ROOT) {
            return None;
        }
        let start = self.start().filter(|d| d.is_dir())?;
        let top = crate::git_writes::top(&start, self.deadline)?;
        top.to_str().map(str::to_owned)
    }
}

#[cfg(test)]
mod tests {
    use crate::eval::{Call, EXAMPLE_ROOT, Evaluator};
    use crate::ir::Policy;

    /// A policy of one guard on `config/secret.json`, read or written.
    fn policy() -> Policy {
        let text = "self-protection \"off\"\nguard \"secret\" {\n    path \"config/secret.json\" \
                    access=\"any\"\n    deny \"Leave the secret alone.\"\n}\n";
        let file = crate::source::SourceFile::new("policy.kdl", text.to_owned());
        let mut diags = crate::diag::Diagnostics::default();
        let policy = crate::compile::compile_source(&file, &mut diags);
        assert!(!diags.has_errors(), "{diags:?}");
        policy.unwrap()
    }

    /// The reason the model reads for `line` run in `cwd` below `root`,
    /// `None` when it goes on.
    fn decide(root: &str, cwd: Option<&str>, line: &str) -> Option<String> {
        let call = Call {
            root: Some(root.to_owned()),
            cwd: cwd.map(str::to_owned),
            ..Call::shell_example(line)
        };
        let verdict = Evaluator::new(&policy()).evaluate(&call)?;
        assert!(verdict.decision.refuses());
        Some(verdict.reason())
    }

    const OWN: &str = "Leave the secret alone.";

    #[test]
    fn the_top_of_the_work_tree_is_asked_of_git() {
        let repo = tempfile::tempdir().unwrap();
        let root = repo.path().to_str().unwrap();
        let init = std::process::Command::new("git")
            .args(["init", "-q"])
            .current_dir(root)
            .status()
            .unwrap();
        assert!(init.success());
        std::fs::create_dir_all(repo.path().join("sub/deeper")).unwrap();
        let sub = repo.path().join("sub/deeper");
        let sub = Some(sub.to_str().unwrap());
        let top = "cd \"$(git rev-parse --show-toplevel)\" && ";
        // From a folder below the top, the top's file is the guard's.
        assert_eq!(
            decide(root, sub, &format!("{top}cat config/secret.json")).as_deref(),
            Some(OWN)
        );
        assert_eq!(decide(root, sub, &format!("{top}cat README.md")), None);
        assert_eq!(
            decide(
                root,
                sub,
                "cat \"$(git rev-parse --show-toplevel)/config/secret.json\""
            )
            .as_deref(),
            Some(OWN)
        );
        // `$PWD` is where the call runs.
        assert_eq!(
            decide(root, None, "cat \"$PWD/config/secret.json\"").as_deref(),
            Some(OWN)
        );
        assert_eq!(decide(root, sub, "cat \"$PWD/config/secret.json\""), None);
        assert_eq!(decide(root, None, "cp notes.txt \"$PWD.bak\""), None);
        assert_eq!(
            decide(root, None, "docker run -v \"$PWD:/src\" node npm test"),
            None
        );
    }

    /// A listing that starts through a link lists the target's files under
    /// other names: it cannot say, so every name counts.
    #[test]
    fn a_listing_through_a_link_counts_every_name() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_str().unwrap();
        std::fs::create_dir_all(dir.path().join("config")).unwrap();
        std::fs::write(dir.path().join("config/secret.json"), "{}").unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/a.json"), "{}").unwrap();
        std::os::unix::fs::symlink("config", dir.path().join("cfg")).unwrap();
        assert_eq!(decide(root, None, "find src/ -type f | xargs cat"), None);
        assert!(decide(root, None, "find cfg/ -type f | xargs cat").is_some());
        assert!(decide(root, None, "find cfg/ -type f -exec sed -i s/a/b/ {} +").is_some());
    }

    #[test]
    fn a_place_not_found_here_is_named_at_run_time() {
        // An example's call has no repository to ask.
        let reason = decide(
            EXAMPLE_ROOT,
            None,
            "cd \"$(git rev-parse --show-toplevel)\" && cat notes.txt",
        )
        .unwrap();
        assert!(reason.contains("known only when the line runs"), "{reason}");
        assert!(reason.contains("git rev-parse"), "{reason}");
        // Nor a folder that is no work tree.
        let plain = tempfile::tempdir().unwrap();
        let root = plain.path().to_str().unwrap();
        let reason = decide(
            root,
            None,
            "cat \"$(git rev-parse --show-toplevel)/notes.txt\"",
        );
        assert!(reason.is_some_and(|r| r.contains("known only when the line runs")));
    }
}
