//! Closed world for path guards: a file hookc cannot name may be the
//! guard's.
//!
//! A command guard refuses a line it cannot read ("opaque"). A path guard
//! does the same, in two cases, unless it says `opaque "allow"`:
//!
//! * a file the line touches is named by a word whose value is known only
//!   when it runs (`cat $f`, `sed -i … $(ls *.kdl)`, `echo .env | xargs
//!   cat`), with an access the guard asks for: the reason names the word
//!   and says to name the file literally;
//! * part of the shell line cannot be read at all (a variable as the
//!   program, `eval "$x"`): what it touches is unknown.
//!
//! Both are judged only when no file the call names literally is the
//! guard's: then the guard's own decision and reason apply.

use super::{ConditionTrace, Facts, Seen, THROUGH_PROCESS, asks_for, opaque_instruction};
use crate::ir::{Decision, Guard};
use crate::shell::access::{Access, CLIMBED, THROUGH_MADE, runtime::FROM_INPUT};
use crate::shell::normalize::short;
use crate::shell::unknown::{GIT_IN_A_READING, UNREAD, UNREADABLE};

/// The reason the guard refuses a call none of whose named files is its
/// own, or `None` when nothing the call touches may be.
pub(super) fn unnamed(guard: &Guard, facts: &Facts) -> Option<String> {
    if guard.opaque == Decision::Allow {
        return None;
    }
    if let Some(seen) = runtime_touch(guard, facts) {
        return Some(instruction(seen));
    }
    let analysis = facts.analysis()?;
    (!analysis.opaque.is_empty()).then(|| opaque_instruction(analysis, None))
}

/// The first file of the call named at run time, with an access the guard
/// asks for.
fn runtime_touch<'f>(guard: &Guard, facts: &'f Facts) -> Option<&'f Seen> {
    facts
        .touched()
        .iter()
        .find(|seen| seen.runtime.is_some() && asks_for(guard, seen))
}

/// How the word is shown to the model.
fn shown(word: &str) -> String {
    if let Some((path, made)) = through_made(word) {
        format!(
            "`{}`, through `{}`, which the line makes first and which may be a symbolic link",
            short(path),
            short(made)
        )
    } else if word == FROM_INPUT {
        "a name it reads from standard input (`xargs`, `parallel`)".to_owned()
    } else if let Some(reason) = word.strip_prefix(UNREADABLE) {
        format!("a part hookc cannot read ({reason}")
    } else if word == CLIMBED || word == UNREAD || word == GIT_IN_A_READING {
        word.trim_matches(['(', ')']).to_owned()
    } else {
        format!("`{}`", short(word))
    }
}

fn verb(access: Access) -> &'static str {
    match access {
        Access::Read => "reads",
        Access::Write => "writes",
        Access::Both => "reads or writes",
    }
}

/// The path and the name it goes through, of a write through a name the
/// line made.
fn through_made(word: &str) -> Option<(&str, &str)> {
    word.strip_prefix(THROUGH_MADE)?.split_once('\0')
}

/// What the model reads when a run-time word names the file.
fn instruction(seen: &Seen) -> String {
    let word = seen.runtime.as_deref().unwrap_or_default();
    if let Some((program, reading)) = seen.presumed.as_deref() {
        let (there, fix) = if let Some(reason) = word.strip_prefix(UNREADABLE) {
            (
                format!("a part of which hookc cannot read ({reason}"),
                "written plainly (literal program names and arguments)",
            )
        } else if word == GIT_IN_A_READING {
            (
                "a git command that changes files only the repository can name when it runs"
                    .to_owned(),
                "so that hookc can ask the repository which files it changes",
            )
        } else if word.starts_with('(') {
            (
                format!("and there the file is named by {}", shown(word)),
                "and name the file literally",
            )
        } else {
            (
                format!(
                    "and there the file is named by {}, whose value is known only when the line \
                     runs",
                    shown(word)
                ),
                "and name the file literally",
            )
        };
        return format!(
            "hookc could not check which file this shell command {}: `{}`, a program hookc does \
             not know, may run its argument `{}` as a command, {there}. Run that command \
             directly, without `{}`, {fix}, and the guard will check it.",
            verb(seen.access),
            short(program),
            short(reading),
            short(program)
        );
    }
    if let Some((path, made)) = through_made(word) {
        return format!(
            "hookc could not check which file this shell command {} at `{}`: the path goes \
             through `{}`, which a command before it in the line makes, and which may be a \
             symbolic link to any folder (a copy or move keeps links, an archive or git checks \
             them out). Run the command that makes `{}` in a call of its own first; then the \
             guard sees where it leads.",
            verb(seen.access),
            short(path),
            short(made),
            short(made)
        );
    }
    if seen.because == Some(THROUGH_PROCESS) {
        return format!(
            "hookc could not check which file this shell command {} because {} {THROUGH_PROCESS}. \
             Name the file by the path the link leads to, without the link, and run it again.",
            verb(seen.access),
            shown(word)
        );
    }
    format!(
        "hookc could not check which file this shell command {} because it names it with {}, \
         whose value is known only when the line runs. Name the file literally (a plain path, \
         or a variable assigned a plain value at the start of the line, such as \
         `f=notes.txt; cat \"$f\"`) and run it again; if the name can only be found at run \
         time, look it up in one command and use it in the next.",
        verb(seen.access),
        shown(word)
    )
}

/// What `hookc why` says of a path guard that refuses for a file named at
/// run time or an opaque line, when no named file is its own.
pub(super) fn trace(guard: &Guard, facts: &Facts) -> Option<ConditionTrace> {
    if let Some(seen) = runtime_touch(guard, facts) {
        return Some(ConditionTrace {
            kind: "run-time value",
            holds: guard.opaque != Decision::Allow,
            detail: format!(
                "{} names a file the command {}, known only when the line runs; the guard's \
                 `opaque` is `{}` (name the file literally to pass)",
                shown(seen.runtime.as_deref().unwrap_or_default()),
                verb(seen.access),
                guard.opaque
            ),
        });
    }
    let analysis = facts.analysis()?;
    (!analysis.opaque.is_empty()).then(|| ConditionTrace {
        kind: "opaque",
        holds: guard.opaque != Decision::Allow,
        detail: format!(
            "the line is not fully readable, so the files it touches are not known, and the \
             guard's `opaque` is `{}`",
            guard.opaque
        ),
    })
}

#[cfg(test)]
mod tests {
    use crate::eval::{Call, Evaluator};
    use crate::ir::{Decision, Policy};

    /// A policy of one path guard, with `opaque` set to `opaque` when given.
    fn policy(access: &str, opaque: Option<&str>) -> Policy {
        let opaque = opaque.map_or(String::new(), |o| format!("opaque \"{o}\"\n"));
        let text = format!(
            "self-protection \"off\"\nguard \"env\" {{\n    path \".env*\" \"!.env.example\" \
             access=\"{access}\"\n    {opaque}    deny \"Do not touch .env files.\"\n}}\n"
        );
        let file = crate::source::SourceFile::new("policy.kdl", text);
        let mut diags = crate::diag::Diagnostics::default();
        let policy = crate::compile::compile_source(&file, &mut diags);
        assert!(!diags.has_errors(), "{diags:?}");
        policy.unwrap()
    }

    fn shell(command: &str) -> Call {
        Call::shell_example(command)
    }

    /// The decision and the reason the model reads, `None` when the call
    /// goes on.
    fn decide(policy: &Policy, line: &str) -> Option<(Decision, String)> {
        Evaluator::new(policy)
            .evaluate(&shell(line))
            .map(|v| (v.decision, v.reason()))
    }

    #[test]
    fn a_file_named_at_run_time_is_refused_by_a_path_guard() {
        let p = policy("read", None);
        for line in [
            "cat $f",
            "cat \"$(ls -a | grep env)\"",
            "cat `ls -a`",
            "echo .env | xargs cat",
            "sort < \"$in\"",
            "f=.env || f=x; cat \"$f\"",
            "frobnicate $f",
        ] {
            let (decision, reason) = decide(&p, line).unwrap_or_else(|| panic!("{line}: allowed"));
            // Refused, or run under the run-time judge where it can be.
            assert_eq!(decision, Decision::Supervise, "{line}");
            assert!(
                reason.contains("known only when the line runs"),
                "{line}: {reason}"
            );
            assert!(
                reason.contains("Name the file literally"),
                "{line}: {reason}"
            );
        }
        let (_, reason) = decide(&p, "cat $f").unwrap();
        assert!(reason.contains("`$f`"), "{reason}");
        let (_, reason) = decide(&p, "echo .env | xargs cat").unwrap();
        assert!(reason.contains("standard input"), "{reason}");
    }

    #[test]
    fn a_named_file_keeps_the_guards_own_reason() {
        let p = policy("read", None);
        let (_, reason) = decide(&p, "cat .env $f").unwrap();
        assert_eq!(reason, "Do not touch .env files.");
        assert_eq!(decide(&p, "cat notes.txt"), None);
        assert_eq!(decide(&p, "cat .env.example"), None);
    }

    #[test]
    fn what_the_line_works_out_is_a_name() {
        let p = policy("read", None);
        assert_eq!(decide(&p, "f=notes.txt; cat \"$f\""), None);
        assert_eq!(decide(&p, "f=notes.txt; cat $f"), None);
        assert_eq!(decide(&p, "cat \"$(echo notes.txt)\""), None);
        assert_eq!(
            decide(&p, "for f in a.txt b.txt; do cat \"$f\"; done"),
            None
        );
        assert_eq!(decide(&p, "cat $HOME/notes.txt"), None);
        assert_eq!(decide(&p, "echo \"$x\" > notes.txt"), None);
        assert!(decide(&p, "f=.env; cat \"$f\"").is_some());
        assert!(decide(&p, "for f in a.txt .env; do cat \"$f\"; done").is_some());
    }

    /// A program hookc does not know may run a string it is handed as a
    /// shell line: the files that line touches are the call's.
    #[test]
    fn what_an_unknown_program_may_run_is_held_against_path_guards() {
        let p = policy("read", None);
        for line in [
            "tmux new-session -d 'cat .env'",
            "frob --run='head -n 1 .env.local'",
            "cd config && frob 'cat .env'",
        ] {
            let (decision, reason) = decide(&p, line).unwrap_or_else(|| panic!("{line}: allowed"));
            assert_eq!(decision, Decision::Deny, "{line}");
            assert!(
                reason.starts_with("Do not touch .env files."),
                "{line}: {reason}"
            );
            assert!(
                reason.contains("does not know what `")
                    && reason.contains("Run such a command directly"),
                "{line}: {reason}"
            );
        }
        let (_, reason) = decide(&p, "frob 'cat $f'").unwrap();
        assert!(reason.contains("known only when the line runs"), "{reason}");
        assert_eq!(decide(&p, "tmux new-session -d 'cat notes.txt'"), None);
        assert_eq!(decide(&p, "echo 'cat .env'"), None);
        let line: String = (0..=crate::shell::unknown::MAX_READINGS)
            .fold("frob".to_owned(), |l, i| l + &format!(" 'cat {i}'"));
        let (_, reason) = decide(&p, &line).unwrap();
        assert!(reason.contains("more than it reads in time"), "{reason}");
    }

    /// In a string an unknown program may run, a command hookc cannot read
    /// may name any file, and a git command may write any file of the work
    /// tree; a string with neither stays text.
    #[test]
    fn what_an_unknown_program_may_run_and_hookc_cannot_name_is_refused() {
        let read = policy("read", None);
        for line in [
            "frob -q -c '/usr/bin/hea[d] -n 1 .env.local'",
            "frob -c '(/usr/bin/c[p] .env leak.txt)'",
            "frob --run='alias r=less\nr .env'",
            "cd docs && frob -c '/bin/le?s .env.local'",
        ] {
            let (_, reason) = decide(&read, line).unwrap_or_else(|| panic!("{line}: allowed"));
            assert!(
                reason.contains("`frob`, a program hookc does not know, may run its argument"),
                "{line}: {reason}"
            );
        }
        let (_, reason) = decide(&read, "frob -c '/usr/bin/ca[t] .env'").unwrap();
        assert!(
            reason.contains("a part of which hookc cannot read (a pattern as the command name")
                && reason.contains("written plainly"),
            "{reason}"
        );
        let write = policy("write", None);
        let (_, reason) = decide(&write, "frob --run 'git rebase -x make HEAD~1'").unwrap();
        assert!(
            reason.contains("a git command that changes files only the repository can name"),
            "{reason}"
        );
        // A read guard is not asked about what git writes; prose, and a
        // reading that hookc reads whole, name what they touch.
        assert_eq!(decide(&read, "frob --run 'git checkout main'"), None);
        for line in [
            "frob --title \"don't break the build\"",
            "frob --title 'Fix: /usr/bin/* no longer listed'",
            "frob -c 'git status'",
            "frob -c 'cat notes.txt'",
        ] {
            assert_eq!(decide(&read, line), None, "{line}");
            assert_eq!(decide(&write, line), None, "{line}");
        }
    }

    #[test]
    fn an_opaque_line_is_refused_by_a_path_guard() {
        let p = policy("read", None);
        let (decision, reason) = decide(&p, "$CMD .env.example").unwrap();
        assert_eq!(decision, Decision::Supervise);
        assert!(reason.contains("could not check"), "{reason}");
    }

    #[test]
    fn the_access_and_opaque_allow_decide() {
        // A read of a file named at run time is no write.
        let w = policy("write", None);
        assert_eq!(decide(&w, "cat $f"), None);
        assert!(decide(&w, "rm -f \"$f\"").is_some());
        assert!(decide(&w, "echo x > \"$out\"").is_some());
        let allow = policy("read", Some("allow"));
        assert_eq!(decide(&allow, "cat $f"), None);
        assert_eq!(decide(&allow, "$CMD .env.example"), None);
        assert!(decide(&allow, "cat .env").is_some());
    }

    /// The regular files `find` lists are the files on disk where the call
    /// runs, whether it hands them on by `-exec` or through `xargs`.
    #[test]
    fn the_files_find_lists_are_those_on_disk() {
        let p = policy("read", None);
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_str().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/main.rs"), "fn main() {}\n").unwrap();
        std::fs::write(dir.path().join(".env"), "TOKEN=x\n").unwrap();
        let decide = |line: &str| {
            let call = Call {
                root: Some(root.to_owned()),
                ..shell(line)
            };
            Evaluator::new(&p).evaluate(&call).map(|v| v.reason())
        };
        let by_xargs = "find src -type f -name '*.rs' | xargs wc -l";
        let by_exec = "find src -type f -name '*.rs' -exec wc -l {} +";
        assert_eq!(decide(by_xargs), None);
        assert_eq!(decide(by_exec), None);
        assert_eq!(decide("find src -type f -print0 | xargs -0 wc -l"), None);
        // Not without `-type f` (a folder or a link may be handed on), nor
        // after the line may have made a file.
        for line in [
            "find src -name '*.rs' | xargs wc -l",
            "touch src/.env.rs; find src -type f | xargs cat",
            "find src -type f | xargs -I{} cat {}",
        ] {
            assert!(decide(line).is_some(), "{line}");
        }
        // A file there the guard names, or a link to one.
        std::os::unix::fs::symlink("../.env", dir.path().join("src/env.rs")).unwrap();
        assert_eq!(
            decide(by_xargs).as_deref(),
            Some("Do not touch .env files.")
        );
        assert_eq!(decide(by_exec).as_deref(), Some("Do not touch .env files."));
        std::fs::remove_file(dir.path().join("src/env.rs")).unwrap();
        // A name xargs splits may be any file: `a .env b.rs` is `.env`.
        std::fs::write(dir.path().join("src/a .env b.rs"), "").unwrap();
        assert!(decide(by_xargs).is_some());
        assert_eq!(decide(by_exec), None);
        assert_eq!(decide("find src -type f -print0 | xargs -0 wc -l"), None);
    }
}
