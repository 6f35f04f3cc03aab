//! Qoder CLI: `.qoder/settings.json`, the hook command run the way Qoder runs
//! it (`bash -c` in its folder, with `QODER_PROJECT_DIR` set), its answer
//! read the way Qoder's own hook runner reads it (`Harness::outcome`), and
//! `hookc doctor` on Qoder's switches that turn hooks off.

use std::path::Path;
use std::process::Command;

use hookc::ir::HarnessId;
use serde_json::{Value, json};

use crate::support::{BARE_PATH, Project, Run, json_file, path_with_hookc, pre_tool_outcome, run};

const POLICY: &str = r#"targets "qoder"
timeout 7
guard "no-force-push" {
    command "git" "push" { flag "-f" "--force"; }
    deny "Push without --force, or open a pull request."
    example "git push --force" expect="deny"
    example "git push" expect="allow"
}
guard "no-secret" {
    path "config/secret.txt"
    deny "Do not read the secret; ask the user to."
    example tool="read" path="config/secret.txt" expect="deny"
    example tool="read" path="secret.txt" expect="allow"
}
guard "no-env" {
    tool "read" "edit"
    path ".env"
    deny "Do not touch .env; ask the user to."
    example tool="edit" path=".env" expect="deny"
    example tool="edit" path="README.md" expect="allow"
}
"#;

fn built() -> Project {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.build();
    p
}

/// A PreToolUse payload with the keys Qoder CLI 1.1.52's code sends.
fn pre_tool(cwd: &Path, tool: &str, input: Value) -> String {
    json!({
        "session_id": "5d1c",
        "transcript_path": "/home/u/.qoder/projects/p/5d1c.jsonl",
        "cwd": cwd,
        "hook_event_name": "PreToolUse",
        "permission_mode": "default",
        "tool_use_id": "call_7f3a",
        "tool_name": tool,
        "tool_input": input,
    })
    .to_string()
}

/// The PreToolUse command of `.qoder/settings.json`, run as Qoder runs it.
fn hook(p: &Project, path: &str, stdin: &str) -> Run {
    let settings = json_file(p, ".qoder/settings.json");
    let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    let root = p.dir.path();
    run(
        Command::new("bash")
            .arg("-c")
            .arg(command)
            .current_dir(root)
            .env_clear()
            .env("PATH", path)
            .env("HOME", root)
            .env("QODER_PROJECT_DIR", root)
            .env("CLAUDE_PROJECT_DIR", root),
        Some(stdin.as_bytes()),
    )
}

fn outcome(r: &Run) -> hookc::harness::Outcome {
    pre_tool_outcome(HarnessId::Qoder, r)
}

#[test]
fn the_settings_hold_anchored_hooks_with_a_numeric_timeout_in_seconds() {
    let p = built();
    let settings = json_file(&p, ".qoder/settings.json");
    let group = &settings["hooks"]["PreToolUse"][0];
    assert_eq!(
        group["matcher"],
        "^(?:Bash|BashInput|Edit|Glob|Grep|Monitor|NotebookEdit|PowerShell|Read|Write)$"
    );
    let handler = &group["hooks"][0];
    assert_eq!(handler["type"], "command");
    // A string would make Qoder drop every PreToolUse hook of the file.
    assert_eq!(handler["timeout"], json!(7));
}

#[test]
fn the_hook_refuses_with_exit_2_and_says_nothing_on_stdout_when_it_allows() {
    let p = built();
    let root = p.dir.path();
    for (tool, input) in [
        ("Bash", json!({"command": "git push -f", "dir_path": "."})),
        (
            "BashInput",
            json!({"pid": 4242, "chars": "git push --force\\r"}),
        ),
    ] {
        let push = hook(&p, &path_with_hookc(), &pre_tool(root, tool, input));
        assert_eq!(
            (push.status, push.stdout.as_str()),
            (2, ""),
            "{tool}: {}",
            push.stderr
        );
        let o = outcome(&push);
        assert!(!o.proceeds);
        assert!(o.model_reads.unwrap().contains("Push without --force"));
    }

    // `dir_path` is where the command runs: `secret.txt` there is
    // `config/secret.txt`.
    let secret = |dir: &str| {
        let r = hook(
            &p,
            &path_with_hookc(),
            &pre_tool(
                root,
                "Bash",
                json!({"command": "cat secret.txt", "dir_path": dir}),
            ),
        );
        outcome(&r).proceeds
    };
    assert!(!secret("config"));
    assert!(!secret(&root.join("config").to_string_lossy()));
    assert!(secret("."));

    // Any text on stdout with exit 0 would approve the call in Qoder.
    let fine = hook(
        &p,
        &path_with_hookc(),
        &pre_tool(root, "Bash", json!({"command": "git push"})),
    );
    assert_eq!(
        (fine.status, fine.stdout.as_str()),
        (0, ""),
        "{}",
        fine.stderr
    );

    let lost = hook(
        &p,
        BARE_PATH,
        &pre_tool(root, "Bash", json!({"command": "ls"})),
    );
    assert_eq!((lost.status, lost.stdout.as_str()), (2, ""));
    assert!(
        outcome(&lost)
            .model_reads
            .unwrap()
            .contains("hookc could not check this call")
    );
}

#[test]
fn doctor_fails_hooks_switched_off() {
    let p = built();
    let clean = p.hookc(&["doctor"]);
    assert!(
        !clean.stdout.contains("turns every hook off"),
        "{}",
        clean.stdout
    );
    p.write(
        ".qoder/settings.local.json",
        r#"{"hooksConfig": {"enabled": false}}"#,
    );
    let r = p.hookc(&["doctor"]);
    let out = format!("{}{}", r.stdout, r.stderr);
    assert_ne!(r.status, 0, "{out}");
    assert!(
        out.contains(".qoder/settings.local.json turns every hook off"),
        "{out}"
    );
}
