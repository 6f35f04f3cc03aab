//! Antigravity (`agy`): `.agents/hooks.json` and `hookc guard --harness
//! antigravity`. There is no local oracle for agy: the payloads follow
//! `shared/harnesses/antigravity.md` (agy 1.1.x–1.2.x), and the hook command
//! is run with `sh -c` in the workspace, which is what the notes assume.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::support::{HOOKC, Project, Run, run};

fn policy(guards: &str) -> String {
    format!("targets \"antigravity\"\ntimeout 12\n{guards}")
}

const FORCE_PUSH: &str = r#"
guard "no-force-push" {
    command "git" "push" { flag "-f" "--force"; }
    deny "Push without --force, or open a pull request."
}
"#;

fn built() -> Project {
    let p = Project::bundled();
    p.build();
    p
}

/// A PreToolUse payload in the camelCase shape of the notes (§5).
fn pre_tool(name: &str, args: Value) -> String {
    json!({
        "conversationId": "c-1",
        "workspacePaths": ["/ws"],
        "transcriptPath": "/home/u/.gemini/antigravity/t.jsonl",
        "artifactDirectoryPath": "/home/u/.gemini/antigravity/brain/c-1",
        "modelName": "gemini-3-pro",
        "stepIdx": 7,
        "toolCall": { "name": name, "args": args },
    })
    .to_string()
}

fn guard(p: &Project, event: &str, stdin: &str) -> Run {
    run(
        Command::new(HOOKC)
            .args([
                "guard",
                "--harness",
                "antigravity",
                "--event",
                event,
                "--policy",
            ])
            .arg(p.path(".hookc/policy.json"))
            .env_remove("HOOKC_PROJECT_DIR")
            .env_remove("HOOKC_DEBUG"),
        Some(stdin.as_bytes()),
    )
}

fn hooks(p: &Project) -> Value {
    serde_json::from_str(&p.read(".agents/hooks.json")).unwrap()
}

/// The one JSON object on stdout (panics on anything else).
fn decision(run: &Run) -> Value {
    assert_eq!(run.status, 0, "agy answers are exit 0: {}", run.stderr);
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("stdout is not one JSON object ({e}): {:?}", run.stdout))
}

/// Run the PreToolUse command with `sh -c` from `dir`.
fn fire(p: &Project, dir: &Path, bin: Option<&Path>, path: &str, stdin: &str) -> Run {
    let command = hooks(p)["hookc"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PWD", dir)
        .env("PATH", path)
        .env_remove("HOOKC_PROJECT_DIR")
        .env_remove("HOOKC_DEBUG");
    match bin {
        Some(bin) => cmd.env("HOOKC_BIN", bin),
        // No build recorded a hookc for the hooks: they look on PATH.
        None => cmd
            .env_remove("HOOKC_BIN")
            .env("XDG_STATE_HOME", crate::support::NO_PIN),
    };
    run(&mut cmd, Some(stdin.as_bytes()))
}

const BARE_PATH: &str = "/usr/bin:/bin";

/// Every key hookc may write into `.agents/hooks.json` (anything else can
/// make agy drop the whole file).
fn assert_documented_keys(value: &Value, depth: usize) {
    let allowed: &[&str] = match depth {
        0 => &["hookc"],
        1 => &["PreToolUse", "Stop"],
        _ => &["matcher", "hooks", "type", "command", "timeout"],
    };
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                assert!(allowed.contains(&key.as_str()), "undocumented key {key}");
                assert_documented_keys(inner, depth + 1);
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|v| assert_documented_keys(v, depth.max(2))),
        _ => {}
    }
}

#[test]
fn the_hooks_file_is_one_group_of_documented_keys_with_whole_seconds() {
    let p = built();
    let value = hooks(&p);
    assert_documented_keys(&value, 0);
    let group = &value["hookc"]["PreToolUse"][0];
    assert_eq!(
        group["matcher"],
        "^(?:edit_file|multi_replace_file_content|replace_file_content|run_command|view_file|write_to_file)$"
    );
    let handler = &group["hooks"][0];
    assert_eq!(handler["type"], "command");
    assert_eq!(handler["timeout"], 10);
    assert!(handler["timeout"].is_u64());
    assert!(
        handler["command"]
            .as_str()
            .unwrap()
            .contains("/.hookc/antigravity/pre-tool.sh")
    );
    // `hooks()` parsed it with serde_json, which is strict JSON as agy's parser is.
}

#[test]
fn a_stop_guard_is_a_flat_handler_list() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        &policy(
            r#"
guard "tests-first" {
    event "stop"
    block "Run the tests before you stop."
}
"#,
        ),
    );
    p.build();
    let value = hooks(&p);
    assert_documented_keys(&value, 0);
    let stop = &value["hookc"]["Stop"][0];
    assert_eq!(stop["type"], "command");
    assert_eq!(stop["timeout"], 12);
    assert!(stop.get("matcher").is_none());
    let run = guard(
        &p,
        "stop",
        &json!({"conversationId": "c", "workspacePaths": ["/ws"], "executionNum": 1,
            "terminationReason": "done", "fullyIdle": true})
        .to_string(),
    );
    assert_eq!(
        decision(&run),
        json!({"decision": "continue", "reason": "Run the tests before you stop."})
    );
}

const USER_HOOKS: &str = r#"{
  "format-on-save": {
    "enabled": true,
    "PostToolUse": [ { "matcher": "^write_to_file$", "hooks": [ { "type": "command", "command": "./fmt.sh", "timeout": 5 } ] } ]
  },
  "audit":   { "enabled": false, "PreToolUse": [] }
}
"#;

#[test]
fn merging_keeps_other_groups_byte_for_byte_and_retraction_restores_the_file() {
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    p.write(".agents/hooks.json", USER_HOOKS);
    p.build();
    let merged = p.read(".agents/hooks.json");
    assert!(
        merged.contains(r#""audit":   { "enabled": false, "PreToolUse": [] }"#),
        "{merged}"
    );
    let value: Value = serde_json::from_str(&merged).unwrap();
    assert_eq!(value["format-on-save"]["enabled"], true);
    assert_eq!(
        value["hookc"]["PreToolUse"][0]["matcher"],
        // Self-protection adds the tools that write.
        "^(?:edit_file|multi_replace_file_content|replace_file_content|run_command|write_to_file)$"
    );

    let again = p.build();
    assert_eq!(p.read(".agents/hooks.json"), merged);
    assert!(
        again.stdout.contains("(0 files changed"),
        "{}",
        again.stdout
    );

    p.write("policy.kdl", "targets \"antigravity\"\n");
    p.build();
    assert_eq!(p.read(".agents/hooks.json"), USER_HOOKS);
    assert!(!p.exists(".hookc/antigravity/pre-tool.sh"));
}

#[test]
fn a_force_push_is_denied_with_the_reason() {
    let p = built();
    let run = guard(
        &p,
        "pre-tool",
        &pre_tool(
            "run_command",
            json!({"CommandLine": "git push --force origin main", "Cwd": "/ws", "WaitMsBeforeAsync": 500}),
        ),
    );
    let out = decision(&run);
    assert_eq!(out["decision"], "deny");
    assert!(
        out["reason"]
            .as_str()
            .unwrap()
            .starts_with("Do not force-push"),
        "{out}"
    );
    assert_eq!(
        out.as_object().unwrap().len(),
        2,
        "only decision and reason"
    );
}

#[test]
fn an_unrelated_call_gets_no_output_and_takes_the_normal_approval_path() {
    let p = built();
    let run = guard(
        &p,
        "pre-tool",
        &pre_tool(
            "run_command",
            json!({"CommandLine": "cargo test", "Cwd": "/ws"}),
        ),
    );
    assert_eq!(
        (run.status, run.stdout.as_str(), run.stderr.as_str()),
        (0, "", "")
    );
}

#[test]
fn file_tools_are_checked_by_path_and_migrations_force_a_prompt() {
    let p = built();
    let read = guard(
        &p,
        "pre-tool",
        &pre_tool("view_file", json!({"AbsolutePath": "/ws/.env"})),
    );
    assert_eq!(decision(&read)["decision"], "deny");
    let write = guard(
        &p,
        "pre-tool",
        &pre_tool(
            "write_to_file",
            json!({"TargetFile": "/ws/migrations/0002.sql", "CodeContent": "x"}),
        ),
    );
    let out = decision(&write);
    assert_eq!(out["decision"], "force_ask");
    assert!(
        out["reason"]
            .as_str()
            .unwrap()
            .contains("add a new migration")
    );
    // Several guards: every reason, numbered.
    let both = guard(
        &p,
        "pre-tool",
        &pre_tool(
            "run_command",
            json!({"CommandLine": "git reset --hard; git push -f"}),
        ),
    );
    assert!(
        decision(&both)["reason"]
            .as_str()
            .unwrap()
            .starts_with("2 policy rules apply")
    );
}

#[test]
fn a_file_tool_without_a_path_is_an_operational_failure() {
    let p = built();
    let run = guard(
        &p,
        "pre-tool",
        &pre_tool("view_file", json!({"Something": "/ws/.env"})),
    );
    assert_eq!(run.status, 1);
    assert!(run.stderr.contains("names no file"), "{}", run.stderr);
}

#[test]
fn the_hook_finds_the_project_from_a_subdirectory_and_answers() {
    let p = built();
    let sub = p.path("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    let run = fire(
        &p,
        &sub,
        Some(Path::new(HOOKC)),
        BARE_PATH,
        &pre_tool("run_command", json!({"CommandLine": "git push -f"})),
    );
    assert_eq!(decision(&run)["decision"], "deny", "{}", run.stderr);
    // Relative paths are taken from the project the hook found.
    let read = fire(
        &p,
        &sub,
        Some(Path::new(HOOKC)),
        BARE_PATH,
        &pre_tool("view_file", json!({"AbsolutePath": "config/.env.local"})),
    );
    assert_eq!(decision(&read)["decision"], "deny");
}

fn assert_refused(run: &Run, why: &str) {
    let out = decision(run);
    assert_eq!(out["decision"], "deny", "{why}");
    assert!(
        out["reason"]
            .as_str()
            .unwrap()
            .contains("hookc could not check this call, so it was refused"),
        "{why}: {out}"
    );
    assert!(run.stderr.contains(why), "{why}: {}", run.stderr);
}

#[test]
fn without_hookc_or_outside_the_workspace_the_hook_refuses_in_json() {
    let p = built();
    let payload = pre_tool("run_command", json!({"CommandLine": "ls"}));
    let run = fire(&p, p.dir.path(), None, BARE_PATH, &payload);
    assert_refused(&run, "the hookc program was not found");

    let elsewhere = tempfile::tempdir().unwrap();
    let run = fire(
        &p,
        elsewhere.path(),
        Some(Path::new(HOOKC)),
        BARE_PATH,
        &payload,
    );
    let out = decision(&run);
    assert_eq!(out["decision"], "deny");
    assert!(
        out["reason"]
            .as_str()
            .unwrap()
            .contains("could not find the guards"),
        "{out}"
    );
}

#[test]
fn garbage_stdin_and_a_crashing_hookc_are_refused_in_json() {
    let p = built();
    let run = fire(
        &p,
        p.dir.path(),
        Some(Path::new(HOOKC)),
        BARE_PATH,
        "not a payload",
    );
    assert_refused(&run, "not JSON");
    for (name, body) in [
        ("exit-1", "exit 1"),
        ("killed", "kill -9 $$"),
        ("exit-2", "exit 2"),
    ] {
        let fake = p.path(&format!("fake-{name}"));
        // The exit 2 comes from a hookc that proves itself (see the shim's
        // handshake), so that the hook command, not the shim, refuses it.
        let prove = if name == "exit-2" {
            crate::support::PROVE
        } else {
            ""
        };
        std::fs::write(&fake, format!("#!/bin/sh\n{prove}\n{body}\n")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let run = fire(
            &p,
            p.dir.path(),
            Some(&fake),
            BARE_PATH,
            &pre_tool("run_command", json!({"CommandLine": "ls"})),
        );
        if name == "exit-2" {
            // hookc answers Antigravity with exit 0 only; an exit 2 without
            // an answer (say, an older hookc's usage error) is refused by the
            // hook command itself.
            let out = decision(&run);
            assert_eq!(out["decision"], "deny", "{name}");
            assert!(
                out["reason"]
                    .as_str()
                    .unwrap()
                    .contains("stopped without an answer"),
                "{out}"
            );
            continue;
        }
        // A SIGKILL (137) is what the shim's deadline sends, or the kernel's
        // out-of-memory killer: refused as not answering in time.
        let why = if name == "killed" {
            "hookc did not finish checking this call in time"
        } else {
            "hookc guard stopped with exit status"
        };
        assert_refused(&run, why);
    }
}
