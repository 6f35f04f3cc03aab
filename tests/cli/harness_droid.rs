//! Factory Droid: `.factory/settings.json`, the hook command run the way
//! Droid runs it (`sh -c` in its working directory with `FACTORY_PROJECT_DIR`
//! set), its answer read the way Droid reads it (`Harness::outcome`), and
//! `hookc doctor` on a `hooks.json` whose lists replace hookc's.

use std::path::Path;
use std::process::Command;

use hookc::ir::HarnessId;
use serde_json::{Value, json};

use crate::support::{BARE_PATH, Project, Run, json_file, path_with_hookc, pre_tool_outcome, run};

const POLICY: &str = r#"targets "droid"
timeout 7
guard "no-force-push" {
    command "git" "push" { flag "-f" "--force"; }
    deny "Push without --force, or open a pull request."
    example "git push --force" expect="deny"
    example "git push" expect="allow"
}
guard "no-env" {
    tool "edit"
    path ".env"
    deny "Do not change .env; ask the user to."
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

/// A PreToolUse payload with the keys Droid 0.225.2's code sends.
fn pre_tool(cwd: &Path, tool: &str, input: Value) -> String {
    json!({
        "session_id": "5d1c",
        "transcript_path": "/home/u/.factory/projects/p/5d1c.jsonl",
        "cwd": cwd,
        "permission_mode": "auto-low",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": input,
    })
    .to_string()
}

/// The PreToolUse command of `.factory/settings.json`, run as Droid runs it.
fn hook(p: &Project, path: &str, stdin: &str) -> Run {
    let settings = json_file(p, ".factory/settings.json");
    let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    let root = p.dir.path();
    run(
        Command::new("/bin/sh")
            .arg("-c")
            .arg(command)
            .current_dir(root)
            .env_clear()
            .env("PATH", path)
            .env("HOME", root)
            .env("FACTORY_PROJECT_DIR", root)
            .env("DROID_PROJECT_DIR", root)
            .env("CLAUDE_PROJECT_DIR", root),
        Some(stdin.as_bytes()),
    )
}

fn outcome(r: &Run) -> hookc::harness::Outcome {
    pre_tool_outcome(HarnessId::Droid, r)
}

#[test]
fn the_settings_hold_the_hooks_key_droid_validates() {
    let p = built();
    let settings = json_file(&p, ".factory/settings.json");
    let group = &settings["hooks"]["PreToolUse"][0];
    // `Create`: self-protection guards the tools that write.
    assert_eq!(group["matcher"], "^(?:ApplyPatch|Create|Edit|Execute)$");
    let handler = &group["hooks"][0];
    assert_eq!(handler["type"], "command");
    assert_eq!(handler["timeout"], 7, "Droid's timeout is seconds");
    assert!(!p.exists(".factory/hooks.json"));
}

#[test]
fn the_hook_refuses_with_exit_2_and_lets_the_rest_through() {
    let p = built();
    let root = p.dir.path();
    let push = hook(
        &p,
        &path_with_hookc(),
        &pre_tool(
            root,
            "Execute",
            json!({"command": "git push -f", "riskLevel": "high"}),
        ),
    );
    assert_eq!(
        (push.status, push.stdout.as_str()),
        (2, ""),
        "{}",
        push.stderr
    );
    let o = outcome(&push);
    assert!(!o.proceeds);
    assert!(o.model_reads.unwrap().contains("Push without --force"));

    let patch = "*** Begin Patch\n*** Update File: .env\n@@\n-A=1\n+A=2\n*** End Patch\n";
    let r = hook(
        &p,
        &path_with_hookc(),
        &pre_tool(root, "ApplyPatch", json!({"input": patch})),
    );
    let o = outcome(&r);
    assert!(!o.proceeds, "{}", r.stderr);
    assert!(o.model_reads.unwrap().contains("Do not change .env"));

    let fine = hook(
        &p,
        &path_with_hookc(),
        &pre_tool(root, "Execute", json!({"command": "git push"})),
    );
    assert_eq!(
        (fine.status, fine.stdout.as_str()),
        (0, ""),
        "{}",
        fine.stderr
    );
    assert!(outcome(&fine).proceeds);

    let lost = hook(
        &p,
        BARE_PATH,
        &pre_tool(root, "Execute", json!({"command": "ls"})),
    );
    let o = outcome(&lost);
    assert!(!o.proceeds);
    assert!(
        o.model_reads
            .unwrap()
            .contains("hookc could not check this call")
    );
}

/// A `.factory/hooks.json` that lists `PreToolUse` replaces hookc's list:
/// `hookc doctor` fails and says where to move the entries.
#[test]
fn doctor_fails_a_hooks_json_that_replaces_hookcs_lists() {
    let p = built();
    let ok = p.hookc(&["doctor"]);
    assert!(!ok.stdout.contains(".factory/hooks.json"), "{}", ok.stdout);
    p.write(
        ".factory/hooks.json",
        r#"{"PreToolUse": [{"matcher": "Execute", "hooks": [{"type": "command", "command": "true"}]}], "Notification": []}"#,
    );
    let r = p.hookc(&["doctor"]);
    assert_ne!(r.status, 0, "{}{}", r.stdout, r.stderr);
    let out = format!("{}{}", r.stdout, r.stderr);
    assert!(
        out.contains(".factory/hooks.json lists `PreToolUse`"),
        "{out}"
    );
    assert!(!out.contains("lists `Notification`"), "{out}");
}
