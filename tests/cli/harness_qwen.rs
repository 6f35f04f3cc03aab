//! Qwen Code: `.qwen/settings.json`, the hook command run the way Qwen runs
//! it (`bash -c` in the session's directory with `QWEN_PROJECT_DIR` set),
//! its answer read the way Qwen reads it (`Harness::outcome`), and the
//! `"$version"` key Qwen adds to the file when it loads it.

use std::path::Path;
use std::process::Command;

use hookc::ir::HarnessId;
use serde_json::{Value, json};

use crate::support::{Project, Run, json_file, path_with_hookc, pre_tool_outcome, run};

const POLICY: &str = r#"targets "qwen"
timeout 7
guard "no-force-push" {
    command "git" "push" { flag "-f" "--force"; }
    deny "Push without --force, or open a pull request."
    example "git push --force" expect="deny"
    example "git push" expect="allow"
}
guard "no-env" {
    tool "read"
    path ".env"
    deny "Do not read .env; ask the user for the value you need."
    example tool="read" path=".env" expect="deny"
    example tool="read" path="README.md" expect="allow"
}
"#;

/// A PreToolUse payload shaped like the one Qwen Code 0.24.4 sent in the
/// conformance run.
fn pre_tool(cwd: &Path, tool: &str, input: Value) -> String {
    json!({
        "session_id": "0d423d58-8e37-491a-b6ee-e3c769520af4",
        "transcript_path": "/home/u/.qwen/projects/p/chats/s.jsonl",
        "cwd": cwd,
        "hook_event_name": "PreToolUse",
        "timestamp": "2026-12-01T02:42:51.689Z",
        "permission_mode": "yolo",
        "tool_name": tool,
        "tool_input": input,
        "tool_use_id": "toolu_1764556971689_x1",
        "tool_call_id": "call_1",
        "prompt_id": "p1",
    })
    .to_string()
}

/// The PreToolUse command from `.qwen/settings.json` under `root`, run as
/// Qwen runs it: `bash -c` in `root`, with `QWEN_PROJECT_DIR` (and the two
/// names Qwen sets beside it) and the given PATH.
fn hook(root: &Path, path: &str, stdin: &str) -> Run {
    let text = std::fs::read_to_string(root.join(".qwen/settings.json")).unwrap();
    let settings: Value = serde_json::from_str(&text).unwrap();
    let handler = &settings["hooks"]["PreToolUse"][0]["hooks"][0];
    assert_eq!(handler["shell"], "bash", "{handler:#}");
    let dir = root.to_str().unwrap();
    run(
        Command::new("bash")
            .arg("-c")
            .arg(handler["command"].as_str().unwrap())
            .current_dir(root)
            .env_clear()
            .env("PATH", path)
            .env("HOME", root)
            .env("QWEN_PROJECT_DIR", dir)
            .env("CLAUDE_PROJECT_DIR", dir)
            .env("GEMINI_PROJECT_DIR", dir),
        Some(stdin.as_bytes()),
    )
}

fn outcome(r: &Run) -> hookc::harness::Outcome {
    pre_tool_outcome(HarnessId::Qwen, r)
}

#[test]
fn the_settings_hold_one_bash_handler_with_a_timeout_in_milliseconds() {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.build();
    let settings = json_file(&p, ".qwen/settings.json");
    let group = &settings["hooks"]["PreToolUse"][0];
    assert_eq!(
        // The tools that write: self-protection guards them.
        group["matcher"],
        "^(?:edit|read_file|replace|run_shell_command|write_file)$",
        "{group:#}"
    );
    let handler = &group["hooks"][0];
    assert_eq!(handler["type"], "command");
    assert_eq!(handler["name"], "hookc-pre-tool");
    // 7 s on Qwen 0.15 (milliseconds) and on 0.24 (1000 or more: milliseconds).
    assert_eq!(handler["timeout"], 7000);
    let command = handler["command"].as_str().unwrap();
    assert!(
        command.contains("\"$QWEN_PROJECT_DIR\"/.hookc/qwen/pre-tool.sh"),
        "{command}"
    );
    // Qwen 0.15 pastes a quoted directory over these two in the command text.
    assert!(!command.contains("CLAUDE_PROJECT_DIR") && !command.contains("GEMINI_PROJECT_DIR"));
}

/// The hook refuses a force push and a read of `.env` with exit 2 and the
/// reason as plain text on stderr, which Qwen hands the model; it lets a
/// plain push through. In a folder whose name needs quoting, too.
#[test]
fn the_hook_refuses_in_qwens_channel_and_allows_the_rest() {
    let p = Project::new();
    let root = p.path("my project");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("policy.kdl"), POLICY).unwrap();
    let build = run(
        Command::new(crate::support::HOOKC)
            .arg("build")
            .current_dir(&root),
        None,
    );
    assert_eq!(build.status, 0, "{}", build.stderr);
    let call =
        |tool: &str, input: Value| hook(&root, &path_with_hookc(), &pre_tool(&root, tool, input));

    let push = call(
        "run_shell_command",
        json!({"command": "git push --force origin main"}),
    );
    assert_eq!(push.status, 2, "{}{}", push.stdout, push.stderr);
    assert!(
        !push.stderr.trim_start().starts_with('{'),
        "{}",
        push.stderr
    );
    let o = outcome(&push);
    assert!(!o.proceeds, "{o:?}");
    assert!(o.model_reads.unwrap().contains("Push without --force"));

    let env = call("read_file", json!({"file_path": root.join(".env")}));
    let o = outcome(&env);
    assert!(!o.proceeds, "{o:?} {}", env.stderr);
    assert!(o.model_reads.unwrap().contains("Do not read .env"));

    let plain = call(
        "run_shell_command",
        json!({"command": "git push origin main"}),
    );
    assert_eq!(
        (plain.status, plain.stdout.as_str()),
        (0, ""),
        "{}",
        plain.stderr
    );
    assert!(outcome(&plain).proceeds);
}

/// Without hookc on PATH the hook still refuses, in Qwen's channel.
#[test]
fn without_hookc_the_hook_refuses_with_a_reason() {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.build();
    let root = p.dir.path();
    let stdin = pre_tool(root, "run_shell_command", json!({"command": "ls"}));
    let r = hook(root, crate::support::BARE_PATH, &stdin);
    let o = outcome(&r);
    assert!(!o.proceeds, "{o:?}");
    assert!(
        o.model_reads
            .unwrap()
            .contains("hookc could not check this call"),
        "{}",
        r.stderr
    );
}

/// Qwen adds `"$version": 4` as the last key of a settings file that lacks
/// one, and writes the file back: that is no drift, and a build keeps it.
#[test]
fn the_version_key_qwen_adds_is_not_drift() {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.build();
    let text = p.read(".qwen/settings.json");
    let end = text.trim_end().strip_suffix('}').unwrap().trim_end();
    let loaded = format!("{end},\n  \"$version\": 4\n}}\n");
    p.write(".qwen/settings.json", &loaded);
    let check = p.hookc(&["check"]);
    assert_eq!(check.status, 0, "{}{}", check.stdout, check.stderr);
    p.build();
    assert_eq!(p.read(".qwen/settings.json"), loaded);
    let lint = p.hookc(&["lint"]);
    assert_eq!(lint.status, 0, "{}{}", lint.stdout, lint.stderr);
}

#[test]
fn doctor_fails_a_dotenv_that_asks_for_safe_mode() {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.build();
    let doctor = || {
        run(
            Command::new(env!("CARGO_BIN_EXE_hookc"))
                .arg("doctor")
                .current_dir(p.dir.path())
                .env("HOME", p.path("home")),
            None,
        )
    };
    let clean = doctor();
    assert!(
        !clean.stdout.contains("QWEN_CODE_SAFE_MODE"),
        "{}",
        clean.stdout
    );
    // Qwen Code loads `.qwen/.env` into its own environment, and safe mode
    // runs no hooks (seen in the conformance suite).
    p.write(
        ".qwen/.env",
        "OPENAI_MODEL=x\n export QWEN_CODE_SAFE_MODE = 1\n",
    );
    let off = doctor();
    assert_ne!(off.status, 0, "{}{}", off.stdout, off.stderr);
    assert!(
        off.stdout
            .contains("/.qwen/.env sets QWEN_CODE_SAFE_MODE, and safe mode runs no hooks"),
        "{}",
        off.stdout
    );
    // The agent cannot write it through a guarded tool either.
    let refused = p.hookc(&[
        "why",
        "--harness",
        "qwen",
        "--tool",
        "write",
        "--path",
        ".qwen/.env",
    ]);
    assert!(
        refused
            .stdout
            .contains("Verdict: deny (by hookc-self-protection)"),
        "{}{}",
        refused.stdout,
        refused.stderr
    );
}
