//! Auggie CLI: `.augment/settings.json`, the hook command run the way Auggie
//! runs a command with `$` in it (`bash -c` in the workspace root with
//! `AUGMENT_PROJECT_DIR` set), its answer read the way Auggie reads it
//! (`Harness::outcome`), and the MCP guards it cannot run.

use std::process::Command;

use hookc::ir::HarnessId;
use serde_json::{Value, json};

use crate::support::{BARE_PATH, Project, Run, json_file, path_with_hookc, pre_tool_outcome, run};

const POLICY: &str = r#"targets "auggie"
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

fn built(policy: &str) -> (Project, Run) {
    let p = Project::new();
    p.write("policy.kdl", policy);
    let r = p.build();
    (p, r)
}

/// A PreToolUse payload with the keys Auggie 0.36.0's code sends.
fn pre_tool(p: &Project, tool: &str, input: Value) -> String {
    json!({
        "hook_event_name": "PreToolUse",
        "conversation_id": "c1",
        "workspace_roots": [p.dir.path()],
        "tool_name": tool,
        "tool_input": input,
        "tool_output": null,
        "tool_error": null,
        "is_mcp_tool": false,
    })
    .to_string()
}

fn hook(p: &Project, path: &str, stdin: &str) -> Run {
    let settings = json_file(p, ".augment/settings.json");
    let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    // Auggie runs a command that holds `$` with bash; without one it would
    // split the words itself and run no shell.
    assert!(command.contains('$'), "{command}");
    let root = p.dir.path();
    run(
        Command::new("bash")
            .arg("-c")
            .arg(command)
            .current_dir(root)
            .env_clear()
            .env("PATH", path)
            .env("HOME", root)
            .env("AUGMENT_PROJECT_DIR", root)
            .env("AUGMENT_HOOK_EVENT", "PreToolUse"),
        Some(stdin.as_bytes()),
    )
}

fn outcome(r: &Run) -> hookc::harness::Outcome {
    pre_tool_outcome(HarnessId::Auggie, r)
}

#[test]
fn the_settings_hold_valid_groups_with_a_timeout_in_milliseconds() {
    let (p, _) = built(POLICY);
    let settings = json_file(&p, ".augment/settings.json");
    let group = &settings["hooks"]["PreToolUse"][0];
    assert_eq!(
        group["matcher"],
        // `save-file`: self-protection guards the tools that write.
        r"^(?:apply_patch|launch\-process|remove\-files|save\-file|shell|str\-replace\-editor)$"
    );
    let handler = &group["hooks"][0];
    assert_eq!(handler["type"], "command");
    assert_eq!(handler["timeout"], 7000, "Auggie's timeout is milliseconds");
    // Only keys Auggie's schema knows (others are dropped with a warning).
    let keys: Vec<&String> = handler.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["type", "command", "timeout"]);
}

#[test]
fn the_hook_refuses_with_exit_2_and_nothing_on_stdout() {
    let (p, _) = built(POLICY);
    let push = hook(
        &p,
        &path_with_hookc(),
        &pre_tool(
            &p,
            "launch-process",
            json!({"command": "git push -f", "wait": true}),
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

    let shell = hook(
        &p,
        &path_with_hookc(),
        &pre_tool(
            &p,
            "shell",
            json!({"command": "git", "args": ["push", "--force"]}),
        ),
    );
    assert!(!outcome(&shell).proceeds, "{}", shell.stderr);

    let remove = hook(
        &p,
        &path_with_hookc(),
        &pre_tool(
            &p,
            "remove-files",
            json!({"file_paths": ["notes.txt", ".env"]}),
        ),
    );
    assert!(!outcome(&remove).proceeds, "{}", remove.stderr);

    let fine = hook(
        &p,
        &path_with_hookc(),
        &pre_tool(&p, "launch-process", json!({"command": "git push"})),
    );
    assert_eq!(
        (fine.status, fine.stdout.as_str()),
        (0, ""),
        "{}",
        fine.stderr
    );

    let lost = hook(&p, BARE_PATH, &pre_tool(&p, "view", json!({"path": "x"})));
    let o = outcome(&lost);
    assert!(!o.proceeds);
    assert!(
        o.model_reads
            .unwrap()
            .contains("hookc could not check this call")
    );
}

/// A guard on an MCP tool cannot run on Auggie, and the build says so.
#[test]
fn an_mcp_guard_is_a_build_warning() {
    let (_, r) = built(
        r#"targets "auggie"
guard "no-refunds" {
    mcp "payments" "refund_*"
    deny "Do not refund from the agent; open a ticket instead."
    example tool="mcp" server="payments" name="refund_all" expect="deny"
    example tool="mcp" server="payments" name="charge" expect="allow"
}
"#,
    );
    assert!(
        r.stderr
            .contains("auggie: none of this guard's tools exists in Auggie CLI"),
        "{}",
        r.stderr
    );
}

/// Auggie runs hooks only where Augment's server turns them on: a fail-open
/// hookc cannot close, said by the build (the first time) and by `doctor`.
#[test]
fn the_server_flag_that_turns_hooks_on_is_said() {
    let (p, r) = built(POLICY);
    assert!(
        r.stdout.contains("to do: ask Augment to turn hooks on")
            && r.stdout.contains("enableHooks"),
        "{}",
        r.stdout
    );
    let doctor = p.hookc(&["doctor"]);
    assert!(
        doctor.stdout.contains("`enableHooks` feature flag") && doctor.stdout.contains("/hooks"),
        "{}",
        doctor.stdout
    );
}
