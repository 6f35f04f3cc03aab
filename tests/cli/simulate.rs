//! `hookc simulate`: the verdict table.

use crate::support::{HOOKC, Project, run};
use std::process::Command;

fn simulate(args: &[&str]) -> serde_json::Value {
    let r = run(
        Command::new(HOOKC)
            .arg("simulate")
            .args(args)
            .args(["--format", "json"]),
        None,
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
    serde_json::from_str(&r.stdout).unwrap()
}

fn result(harness: &str, exit: &str, stdout: &str, stderr: &str) -> serde_json::Value {
    simulate(&[
        "--harness",
        harness,
        "--exit",
        exit,
        "--stdout",
        stdout,
        "--stderr",
        stderr,
    ])
}

#[test]
fn claude_blocks_only_on_exit_2_and_json_decides_on_other_codes() {
    let r = result("claude", "2", "", "Do not.");
    assert_eq!(r["result"], "blocks");
    assert_eq!(r["model_reads"], "Do not.");
    let r = result("claude", "1", "", "oops");
    assert_eq!(r["result"], "proceeds");
    assert!(r["rule"].as_str().unwrap().contains("non-blocking"));
    let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"No."}}"#;
    let r = result("claude", "0", deny, "");
    assert_eq!(r["result"], "blocks");
    assert_eq!(r["model_reads"], "No.");
}

#[test]
fn each_harness_reads_its_own_rules() {
    // Copilot never forwards stderr to the model.
    let r = result("copilot", "1", "", "secret detail");
    assert_eq!(r["result"], "blocks");
    assert!(!r["model_reads"].as_str().unwrap().contains("secret"));
    // Cursor: non-JSON stdout on exit 0 blocks.
    assert_eq!(result("cursor", "0", "hello", "")["result"], "blocks");
    // Gemini reads stdout only as JSON: plain text on exit 0 allows.
    assert_eq!(result("gemini", "0", "hello", "")["result"], "proceeds");
    assert_eq!(result("gemini", "2", "", "no")["result"], "blocks");
    assert_eq!(result("gemini", "2", "", "")["result"], "proceeds");
    // Kimi blocks only on 2.
    assert_eq!(result("kimi", "1", "", "x")["result"], "proceeds");
    assert_eq!(result("kimi", "2", "", "x")["result"], "blocks");
    // Codex reads stdout only on exit 0, and exit 2 needs stderr.
    assert_eq!(result("codex", "2", "", "")["result"], "proceeds");
    assert_eq!(
        result("codex", "1", r#"{"decision":"block","reason":"r"}"#, "")["result"],
        "proceeds"
    );
    // OpenCode's plugin throws on anything but exit 0.
    assert_eq!(result("opencode", "1", "", "")["result"], "blocks");
    assert_eq!(result("opencode", "0", "", "")["result"], "proceeds");
}

#[test]
fn the_table_covers_every_harness() {
    let rows = simulate(&["--table"]);
    let rows = rows.as_array().unwrap();
    for h in [
        "claude",
        "codex",
        "copilot",
        "cursor",
        "gemini",
        "antigravity",
        "kimi",
        "opencode",
    ] {
        let mine: Vec<_> = rows.iter().filter(|r| r["harness"] == h).collect();
        assert!(mine.len() >= 8, "{h}");
        let deny = mine
            .iter()
            .find(|r| r["case"] == "hookc's deny answer")
            .unwrap();
        assert_eq!(deny["result"], "blocks", "{h}: {deny}");
    }
    let text = run(Command::new(HOOKC).args(["simulate", "--table"]), None);
    assert!(text.stdout.contains("kimi"), "{}", text.stdout);
}

#[test]
fn a_debug_log_line_is_read_back() {
    let p = Project::bundled();
    p.build();
    let log = p.path("log.jsonl");
    let stdin = crate::support::claude_bash("git push --force");
    let mut c = Command::new(HOOKC);
    c.args(["guard", "--harness", "claude", "--event", "pre-tool"])
        .arg("--debug")
        .arg(&log)
        .current_dir(p.dir.path());
    let r = run(&mut c, Some(stdin.as_bytes()));
    assert_eq!(r.status, 2, "{}", r.stderr);
    let out = run(
        Command::new(HOOKC).args(["simulate", "--log"]).arg(&log),
        None,
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(out.stdout.contains("the call blocks"), "{}", out.stdout);
    assert!(out.stdout.contains("force-push"), "{}", out.stdout);
    let line = std::fs::read_to_string(&log).unwrap();
    let json = run(
        Command::new(HOOKC).args(["simulate", "--format", "json", "--log", line.trim()]),
        None,
    );
    assert!(
        json.stdout.contains("\"result\":\"blocks\""),
        "{}",
        json.stdout
    );
}
