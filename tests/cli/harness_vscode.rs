//! VS Code agent hooks (from its documentation and source): one
//! `.github/hooks/hookc.json` in Copilot CLI's format, run by VS Code with
//! `bash -c` in the workspace root for every tool (matchers ignored), on
//! VS Code's payload, answered in VS Code's shape; shared with Copilot CLI
//! when both are targets.

use std::process::Command;

use hookc::harness::{self, Observation, Outcome};
use hookc::ir::{Event, HarnessId};
use serde_json::{Value, json};

use crate::support::{Project, golden, json_file, path_with_hookc, repo, run};

const GUARDS: &str = r#"
guard "no-force-push" {
    command "git" "push" { flag "-f" "--force"; }
    deny "Push without --force, or open a pull request."
    example "git push --force" expect="deny"
    example "git push" expect="allow"
}
guard "no-env" {
    tool "write" "edit"
    path ".env"
    deny "Do not change .env; ask the user to."
    example tool="edit" path=".env" expect="deny"
}
"#;

fn built(head: &str) -> Project {
    let p = Project::new();
    p.write("policy.kdl", &format!("{head}\n{GUARDS}"));
    p.build();
    p
}

/// VS Code's `PreToolUse` payload for `tool` with `input`.
fn payload(p: &Project, tool: &str, input: Value) -> Value {
    json!({
        "timestamp": "2026-12-01T10:00:00.000Z",
        "cwd": p.dir.path().to_string_lossy(),
        "sessionId": "vscode-chat-session://local/s1",
        "hookEventName": "PreToolUse",
        "transcript_path": "/tmp/transcript.json",
        "tool_name": tool,
        "tool_input": input,
        "tool_use_id": "tool-1",
    })
}

/// The `preToolUse` entry's `bash` command, run as VS Code runs it (`bash
/// -c`, in the workspace root, without Copilot CLI's variables), and what
/// VS Code makes of the result.
fn vscode_runs(p: &Project, payload: &Value, env: &[(&str, &str)]) -> (Observation, Outcome) {
    let hooks = json_file(p, ".github/hooks/hookc.json");
    let command = hooks["hooks"]["preToolUse"][0]["bash"]
        .as_str()
        .unwrap_or_else(|| panic!("no preToolUse hook: {hooks:#}"))
        .to_owned();
    let mut c = Command::new("bash");
    c.arg("-c")
        .arg(command)
        .current_dir(p.dir.path())
        .env_clear()
        .env("PATH", path_with_hookc())
        .env("HOME", p.dir.path());
    for (k, v) in env {
        c.env(k, v);
    }
    let r = run(&mut c, Some(payload.to_string().as_bytes()));
    let obs = Observation {
        exit: Some(r.status),
        stdout: r.stdout,
        stderr: r.stderr,
        timed_out: false,
    };
    let outcome = harness::get(HarnessId::VsCode)
        .unwrap()
        .outcome(Event::PreTool, &obs);
    (obs, outcome)
}

#[test]
fn alone_it_writes_copilots_format_without_matchers_and_its_own_shim() {
    let p = built(r#"targets "vscode""#);
    let golden_dir = repo().join("tests/fixtures/vscode");
    for file in [".github/hooks/hookc.json", ".hookc/vscode/pre-tool.sh"] {
        let text = std::fs::read_to_string(p.path(file)).unwrap();
        golden(&golden_dir.join(file.trim_start_matches('.')), &text);
    }
    let hooks = json_file(&p, ".github/hooks/hookc.json");
    assert_eq!(hooks["version"], 1, "{hooks:#}");
    let entry = &hooks["hooks"]["preToolUse"][0];
    assert!(entry.get("matcher").is_none(), "{entry:#}");
    assert_eq!(entry["type"], "command");
    assert!(!p.path(".hookc/copilot").exists());
    // Lint reads the file as Copilot CLI's (the format VS Code reads there)
    // and finds nothing to say.
    let lint = p.hookc(&["lint"]);
    assert_eq!(lint.status, 0, "{}{}", lint.stdout, lint.stderr);
    assert!(
        format!("{}{}", lint.stdout, lint.stderr).contains("no findings"),
        "{}{}",
        lint.stdout,
        lint.stderr
    );
}

#[test]
fn refusals_and_allows_reach_vs_code_in_its_shape() {
    for head in [
        r#"targets "vscode""#,
        r#"targets "vscode" "copilot" "claude""#,
    ] {
        let p = built(head);
        let (obs, o) = vscode_runs(
            &p,
            &payload(
                &p,
                "run_in_terminal",
                json!({"command": "git push --force", "explanation": "x", "isBackground": false}),
            ),
            &[],
        );
        assert!(!o.proceeds && !o.asks, "{head}: {o:?} from {obs:?}");
        assert_eq!(
            o.model_reads.as_deref(),
            Some("Push without --force, or open a pull request."),
            "{head}: {obs:?}"
        );
        // VS Code reads only `hookSpecificOutput`, with the event's name.
        let v: Value = serde_json::from_str(&obs.stdout).unwrap();
        assert_eq!(
            v["hookSpecificOutput"]["hookEventName"], "PreToolUse",
            "{head}"
        );
        let (_, o) = vscode_runs(
            &p,
            &payload(
                &p,
                "create_file",
                json!({"filePath": p.path(".env").to_string_lossy(), "content": "A=1"}),
            ),
            &[],
        );
        assert!(!o.proceeds, "{head}: {o:?}");
        let (obs, o) = vscode_runs(
            &p,
            &payload(
                &p,
                "run_in_terminal",
                json!({"command": "git push", "explanation": "x", "isBackground": false}),
            ),
            &[],
        );
        assert!(o.proceeds, "{head}: {o:?} from {obs:?}");
    }
}

#[test]
fn with_copilot_one_file_serves_both_and_each_is_answered_in_its_own_protocol() {
    let p = built(r#"targets "copilot" "vscode""#);
    let hooks: Vec<_> = std::fs::read_dir(p.path(".github/hooks"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(hooks, vec!["hookc.json"]);
    assert!(!p.path(".hookc/vscode").exists());
    // Copilot CLI's own call through the same command still gets Copilot's
    // flat answer.
    let copilot = json!({
        "sessionId": "s1",
        "timestamp": 1_795_993_739_553_u64,
        "cwd": p.dir.path().to_string_lossy(),
        "toolName": "bash",
        "toolArgs": {"command": "git push --force"},
    });
    let (obs, _) = vscode_runs(&p, &copilot, &[("COPILOT_CLI", "1")]);
    let v: Value = serde_json::from_str(obs.stdout.trim()).unwrap();
    assert_eq!(v["permissionDecision"], "deny", "{obs:?}");
    assert!(v.get("hookSpecificOutput").is_none(), "{obs:?}");
    let o = harness::get(HarnessId::Copilot)
        .unwrap()
        .outcome(Event::PreTool, &obs);
    assert!(!o.proceeds, "{o:?}");
}

#[test]
fn when_hookc_cannot_answer_vs_code_refuses_even_with_on_error_ask() {
    for head in [
        "targets \"vscode\"\non-error \"ask\"",
        "targets \"vscode\" \"copilot\"\non-error \"ask\"",
        r#"targets "vscode" "copilot""#,
    ] {
        let p = built(head);
        let (obs, o) = vscode_runs(
            &p,
            &payload(&p, "run_in_terminal", json!({"command": "ls"})),
            &[("HOOKC_BIN", "/bin/false")],
        );
        // Exit 2 blocks; an ask must be in `hookSpecificOutput`, never a
        // flat answer VS Code would ignore.
        assert!(!o.proceeds, "{head}: {o:?} from {obs:?}");
    }
}
