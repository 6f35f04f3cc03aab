//! Letta Code: `.letta/settings.json`, the hook command run the way Letta
//! runs it (the user's `$SHELL -c` in the session's folder, with
//! `LETTA_WORKING_DIR` set), under every shell here, its answer read the way
//! Letta reads it (`Harness::outcome`), and `hookc doctor` on Letta's
//! switch that turns hooks off.

use std::path::Path;
use std::process::Command;

use hookc::ir::HarnessId;
use serde_json::{Value, json};

use crate::support::{
    BARE_PATH, Project, Run, json_file, path_with_hookc, pre_tool_outcome, run, user_shells,
};

const POLICY: &str = r#"targets "letta"
timeout 7
guard "no-force-push" {
    command "git" "push" { flag "-f" "--force"; }
    deny "Push without --force, or open a pull request."
    example "git push --force" expect="deny"
    example "git push" expect="allow"
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

/// A PreToolUse payload with the keys Letta Code 0.32.18 sends.
fn pre_tool(cwd: &Path, tool: &str, input: Value) -> String {
    json!({
        "event_type": "PreToolUse",
        "working_directory": cwd,
        "tool_name": tool,
        "tool_input": input,
        "tool_call_id": "call_7f3a",
        "agent_id": "agent-5d1c",
    })
    .to_string()
}

/// The PreToolUse command of `.letta/settings.json`, run as Letta runs it
/// with `shell` as the user's shell.
fn hook(p: &Project, shell: &str, path: &str, stdin: &str) -> Run {
    let settings = json_file(p, ".letta/settings.json");
    let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    let root = p.dir.path();
    run(
        Command::new(shell)
            .arg("-c")
            .arg(command)
            .current_dir(root)
            .env_clear()
            .env("PATH", path)
            .env("HOME", root)
            .env("SHELL", shell)
            .env("LETTA_HOOK_EVENT", "PreToolUse")
            .env("LETTA_WORKING_DIR", root)
            .env("USER_CWD", root),
        Some(stdin.as_bytes()),
    )
}

fn outcome(r: &Run) -> hookc::harness::Outcome {
    pre_tool_outcome(HarnessId::Letta, r)
}

#[test]
fn the_settings_hold_quiet_anchored_hooks_with_a_timeout_in_milliseconds() {
    let p = built();
    let settings = json_file(&p, ".letta/settings.json");
    let group = &settings["hooks"]["PreToolUse"][0];
    assert_eq!(
        group["matcher"],
        "^(?:ApplyPatch|Bash|Edit|Glob|Grep|GrepFiles|Monitor|MultiEdit|Read|ReadFile|ReadLSP|Shell|ShellCommand|Write|exec_command|grep_files|read_file|shell|shell_command|write_stdin)$"
    );
    let handler = &group["hooks"][0];
    assert_eq!(handler["type"], "command");
    assert_eq!(handler["timeout"], 7000, "Letta's timeout is milliseconds");
    assert_eq!(handler["quiet"], true);
    assert!(
        handler["command"]
            .as_str()
            .unwrap()
            .starts_with("/bin/sh -c '")
    );
}

#[test]
fn under_every_shell_the_hook_refuses_with_exit_2_and_lets_the_rest_through() {
    let p = built();
    let root = p.dir.path();
    let shells = user_shells();
    assert!(shells.len() >= 2, "{shells:?}");
    for shell in shells {
        for (tool, input) in [
            (
                "Bash",
                json!({"command": "git push -f", "description": "push"}),
            ),
            ("exec_command", json!({"cmd": "git push --force"})),
            ("shell", json!({"command": ["bash", "-lc", "git push -f"]})),
            (
                "write_stdin",
                json!({"session_id": 1, "chars": "git push -f\n"}),
            ),
        ] {
            let push = hook(&p, shell, &path_with_hookc(), &pre_tool(root, tool, input));
            assert_eq!(
                (push.status, push.stdout.as_str()),
                (2, ""),
                "{shell} {tool}: {}",
                push.stderr
            );
            let o = outcome(&push);
            assert!(!o.proceeds);
            assert!(o.model_reads.unwrap().contains("Push without --force"));
        }

        let patch = "*** Begin Patch\n*** Update File: .env\n@@\n-A=1\n+A=2\n*** End Patch\n";
        for (tool, input) in [
            ("ApplyPatch", json!({"input": patch})),
            ("Read", json!({"file_path": root.join(".env")})),
            ("Grep", json!({"pattern": "KEY", "path": ".env"})),
            ("grep_files", json!({"pattern": "KEY", "include": ".env*"})),
        ] {
            let r = hook(&p, shell, &path_with_hookc(), &pre_tool(root, tool, input));
            let o = outcome(&r);
            assert!(!o.proceeds, "{shell} {tool}: {}", r.stderr);
            assert!(o.model_reads.unwrap().contains("Do not touch .env"));
        }

        let fine = hook(
            &p,
            shell,
            &path_with_hookc(),
            &pre_tool(root, "Bash", json!({"command": "git push"})),
        );
        assert_eq!(
            (fine.status, fine.stdout.as_str()),
            (0, ""),
            "{shell}: {}",
            fine.stderr
        );
        assert!(outcome(&fine).proceeds);

        let lost = hook(
            &p,
            shell,
            BARE_PATH,
            &pre_tool(root, "Bash", json!({"command": "ls"})),
        );
        let o = outcome(&lost);
        assert!(!o.proceeds, "{shell}");
        assert!(
            o.model_reads
                .unwrap()
                .contains("hookc could not check this call")
        );
    }
}

/// Started outside the project's root, or with the shims gone, the hook
/// finds no script: it refuses, in every shell, rather than exit 127 (which
/// Letta takes as an error and lets through).
#[test]
fn a_missing_shim_is_refused_in_every_shell() {
    let p = built();
    std::fs::remove_dir_all(p.dir.path().join(".hookc/letta")).unwrap();
    for shell in user_shells() {
        let r = hook(
            &p,
            shell,
            &path_with_hookc(),
            &pre_tool(p.dir.path(), "Bash", json!({"command": "ls"})),
        );
        assert_eq!(r.status, 2, "{shell}: {}", r.stderr);
        assert!(
            r.stderr.contains("Run hookc build"),
            "{shell}: {}",
            r.stderr
        );
    }
}

/// `hooks.disabled` turns every hook off, unless the user's own settings
/// say `false`, which wins over the project's.
#[test]
fn doctor_fails_hooks_switched_off() {
    let p = built();
    let clean = p.hookc(&["doctor"]);
    assert!(!clean.stdout.contains("hooks.disabled"), "{}", clean.stdout);
    let mut settings = json_file(&p, ".letta/settings.json");
    settings["hooks"]["disabled"] = json!(true);
    p.write(".letta/settings.local.json", &settings.to_string());
    let r = p.hookc(&["doctor"]);
    let out = format!("{}{}", r.stdout, r.stderr);
    assert_ne!(r.status, 0, "{out}");
    assert!(
        out.contains(".letta/settings.local.json turns every hook off (hooks.disabled)"),
        "{out}"
    );
}
