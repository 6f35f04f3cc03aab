//! Issue 36: the agent, making only calls its guards allow, cannot switch
//! them off by changing what they depend on (a model of the protected
//! state, not a list of routes).
//!
//! Each test runs the real generated hook commands of Claude Code and
//! Codex in a built project, as the harness does, with the project as the
//! home directory and `~/.local/state` as the state directory that
//! `hookc build` uses too.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{BARE_PATH, HOOKC, Project, Run, bundled_for, json_file, run, sh_c};

/// The state directory of the project's builds and hooks.
fn state(p: &Project) -> PathBuf {
    p.path(".local/state")
}

/// `hookc ARGS` with the project's state directory.
fn hookc(p: &Project, args: &[&str]) -> Run {
    run(
        Command::new(HOOKC)
            .args(args)
            .current_dir(p.dir.path())
            .env("XDG_STATE_HOME", state(p)),
        None,
    )
}

fn build(p: &Project) {
    let run = hookc(p, &["build"]);
    assert_eq!(run.status, 0, "build failed:\n{}{}", run.stdout, run.stderr);
}

/// The bundled policy built for Claude Code and Codex, with a folder, a
/// file and a git repository to work on.
fn built() -> Project {
    let p = bundled_for("\"claude\" \"codex\"");
    p.write("src/main.rs", "fn main() {}\n");
    p.write("notes.txt", "notes\n");
    build(&p);
    p
}

/// The PreToolUse command `harness` runs, as hookc wrote it.
fn hook_command(p: &Project, harness: &str) -> String {
    let file = match harness {
        "claude" => ".claude/settings.json",
        _ => ".codex/hooks.json",
    };
    json_file(p, file)["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// `harness`'s PreToolUse hook on a shell `command` run in the project.
fn shell(p: &Project, harness: &str, command: &str) -> Run {
    let dir = p.dir.path().display().to_string();
    let state = state(p).display().to_string();
    let payload = serde_json::json!({
        "session_id": "s", "turn_id": "t", "transcript_path": "/tmp/t.jsonl",
        "cwd": p.dir.path(), "hook_event_name": "PreToolUse", "model": "m",
        "permission_mode": "default", "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": "c"
    })
    .to_string();
    sh_c(
        &hook_command(p, harness),
        p.dir.path(),
        BARE_PATH,
        &[
            ("HOOKC_BIN", HOOKC),
            ("CLAUDE_PROJECT_DIR", &dir),
            ("XDG_STATE_HOME", &state),
        ],
        &payload,
    )
}

/// Whether the hook refused the call, in either harness's form.
fn refused(run: &Run) -> bool {
    run.status == 2 || run.stdout.contains("\"deny\"")
}

const HARNESSES: [&str; 2] = ["claude", "codex"];

/// A write that reaches into a directory holding hookc's files reaches
/// them: a delete, a move, a change of mode of the project (or of any
/// folder above `.hookc/`), a copy or sync of another tree into it, git
/// restoring or cleaning the whole work tree, and a hard link that would
/// give a protected file a second, unguarded name.
#[test]
fn a_write_into_a_folder_that_holds_hookcs_files_is_refused() {
    let p = built();
    let name = p
        .dir
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let lines = [
        format!("rm -rf ../{name}"),
        format!("mv ../{name} ../elsewhere"),
        "mv . ../elsewhere".to_owned(),
        "chmod 000 .".to_owned(),
        "chmod -R a-x .hookc/..".to_owned(),
        "cp -r ../old/. .".to_owned(),
        "cp -rT ../old .".to_owned(),
        "rsync -a ../old/ ./".to_owned(),
        "git checkout HEAD~1 -- .".to_owned(),
        "git restore -s HEAD~1 .".to_owned(),
        "git clean -fdx".to_owned(),
        "rm -rf .claude".to_owned(),
        "ln .hookc/claude/pre-tool.sh notes2.txt".to_owned(),
        "cp -l .hookc/policy.json x.json".to_owned(),
        "link .hookc/policy.json x.json".to_owned(),
        "rm -rf ~/.local/state".to_owned(),
    ];
    for harness in HARNESSES {
        for line in &lines {
            let run = shell(&p, harness, line);
            assert!(refused(&run), "{harness}: `{line}` went ahead:\n{run:?}");
            assert!(
                run.stdout.contains("only the user may do")
                    || run.stderr.contains("only the user may do"),
                "{harness}: `{line}` refused for another reason:\n{run:?}"
            );
        }
        // The same commands on what holds no hookc file go ahead.
        for line in [
            "cp notes.txt .",
            "mv notes.txt notes-old.txt",
            "mv src src2",
            "chmod -R 755 src",
            "rm -rf src",
            "git clean -n",
            "cp -r src build",
        ] {
            let run = shell(&p, harness, line);
            assert!(!refused(&run), "{harness}: `{line}` was refused:\n{run:?}");
        }
    }
    // What decides is the folder on disk: one that holds a secret is refused.
    p.write("src/.env", "TOKEN=x\n");
    assert!(refused(&shell(&p, "claude", "mv src src2")));
}

/// Restores the `.hookc/` (and harness files) saved in `backup` over the
/// project's, as `git checkout HEAD~1 -- .` or an `rsync` from a backup
/// would.
fn restore(p: &Project, backup: &Path) {
    let status = std::process::Command::new("cp")
        .arg("-a")
        .arg(format!("{}/.", backup.display()))
        .arg(p.dir.path())
        .status()
        .unwrap();
    assert!(status.success());
}

/// An older build brought back by any route (here a copy, as a checkout,
/// a stash or a sync does it) refuses every call, in every harness, until
/// the user runs `hookc build`: the build is recorded outside the project.
#[test]
fn an_older_build_brought_back_refuses_every_call_until_the_user_builds() {
    let p = built();
    let backup = tempfile::tempdir().unwrap();
    for dir in [".hookc", ".claude", ".codex"] {
        let status = std::process::Command::new("cp")
            .arg("-a")
            .arg(p.path(dir))
            .arg(backup.path())
            .status()
            .unwrap();
        assert!(status.success());
    }
    // The older build lets `cat build.log` through; the new one does not.
    assert!(!refused(&shell(&p, "claude", "cat build.log")));
    let policy = p.read("policy.kdl");
    p.write(
        "policy.kdl",
        &format!(
            "{policy}\nguard \"no-build-log\" {{\n    tool \"shell\"\n    path \"./build.log\"\n    deny \"Do not read the build log; run the build again.\"\n}}\n"
        ),
    );
    build(&p);
    for harness in HARNESSES {
        assert!(refused(&shell(&p, harness, "cat build.log")), "{harness}");
        assert!(!refused(&shell(&p, harness, "ls")), "{harness}");
    }

    restore(&p, backup.path());
    for harness in HARNESSES {
        for line in ["cat build.log", "ls"] {
            let run = shell(&p, harness, line);
            assert!(refused(&run), "{harness}: `{line}` went ahead:\n{run:?}");
            assert!(
                run.stderr
                    .contains("is not the build `hookc build` last wrote on this machine")
                    && run.stderr.contains("ask the user to run `hookc build`"),
                "{harness}: {run:?}"
            );
        }
    }
    // The user rebuilds (from the policy as it is now): it is obeyed again.
    assert_eq!(hookc(&p, &["build", "--force"]).status, 0);
    for harness in HARNESSES {
        assert!(refused(&shell(&p, harness, "cat build.log")), "{harness}");
        assert!(!refused(&shell(&p, harness, "ls")), "{harness}");
    }
}

/// A record of the last build that is a symbolic link (to a record the
/// agent could write) is not taken, nor is it taken as no record.
#[test]
fn a_record_of_the_build_replaced_by_a_link_refuses() {
    let p = built();
    let records = state(&p).join("hookc/builds");
    let record = std::fs::read_dir(&records)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|f| f.extension().is_some_and(|e| e == "json"))
        .expect("the build was recorded");
    let planted = p.path("planted.json");
    std::fs::copy(&record, &planted).unwrap();
    std::fs::remove_file(&record).unwrap();
    std::os::unix::fs::symlink(&planted, &record).unwrap();
    let run = shell(&p, "claude", "ls");
    assert!(refused(&run), "{run:?}");
    assert!(run.stderr.contains("cannot be read"), "{run:?}");
}
