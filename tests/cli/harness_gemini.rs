//! Gemini CLI: `.gemini/settings.json`, `hookc guard --harness gemini`, and
//! the shim run the way Gemini runs it (`bash -c` on the command, with a bare
//! `$GEMINI_PROJECT_DIR` replaced by the quoted project directory, in that
//! directory), its output read the way Gemini reads it.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::support::{HOOKC, Project, Run, run};

const FORCE_PUSH: &str = r#"
guard "no-force-push" {
    command "git" "push" { flag "-f" "--force"; }
    deny "Push without --force, or open a pull request."
    message "hookc refused a force push"
}
"#;

fn policy(guards: &str) -> String {
    format!("targets \"gemini\"\ntimeout 7\n{guards}")
}

fn built() -> Project {
    let p = Project::bundled();
    p.build();
    p
}

/// A BeforeTool payload, shaped like the one Gemini CLI 0.61.0 sent in the oracle run.
fn before_tool(tool: &str, input: Value) -> String {
    json!({
        "session_id": "8f066866-7490-412b-afc5-56115d418a6c",
        "transcript_path": "/home/u/.gemini/tmp/proj/chats/session.jsonl",
        "cwd": "/repo",
        "hook_event_name": "BeforeTool",
        "timestamp": "2026-11-29T23:30:37.924Z",
        "tool_name": tool,
        "tool_input": input,
    })
    .to_string()
}

fn guard(p: &Project, event: &str, stdin: &str) -> Run {
    run(
        Command::new(HOOKC)
            .args(["guard", "--harness", "gemini", "--event", event, "--policy"])
            .arg(p.path(".hookc/policy.json"))
            .env_remove("GEMINI_PROJECT_DIR")
            .env_remove("HOOKC_DEBUG"),
        Some(stdin.as_bytes()),
    )
}

/// What Gemini CLI makes of a hook's output (hookRunner at 0.61.0): stdout,
/// else stderr, parsed as JSON whatever the exit status; plain text allows on
/// exit 0 and 1 and denies on anything else; no output allows.
fn outcome(run: &Run) -> (String, String) {
    let text = match run.stdout.trim() {
        "" => run.stderr.trim(),
        out => out,
    };
    if text.is_empty() {
        return ("allow".into(), String::new());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(o)) => (
            o.get("decision")
                .and_then(Value::as_str)
                .unwrap_or("allow")
                .to_owned(),
            o.get("reason")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
        ),
        _ if matches!(run.status, 0 | 1) => ("allow".into(), String::new()),
        _ => ("deny".into(), text.to_owned()),
    }
}

fn settings(p: &Project) -> Value {
    serde_json::from_str(&p.read(".gemini/settings.json")).unwrap()
}

/// Run the BeforeTool hook as Gemini does; `bin` is HOOKC_BIN (None: unset).
fn fire(p: &Project, bin: Option<&Path>, path: &str, stdin: &str) -> Run {
    let command = settings(p)["hooks"]["BeforeTool"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    let dir = p.dir.path().to_str().unwrap();
    let quoted = format!("'{}'", dir.replace('\'', r"'\''"));
    let mut cmd = Command::new("bash");
    cmd.arg("-c")
        .arg(command.replace("$GEMINI_PROJECT_DIR", &quoted))
        .current_dir(p.dir.path())
        .env("GEMINI_PROJECT_DIR", dir)
        .env("PATH", path)
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

#[test]
fn settings_use_gemini_events_command_handlers_and_milliseconds() {
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    let run = p.build();
    let group = &settings(&p)["hooks"]["BeforeTool"][0];
    // Self-protection adds the tools that write.
    assert_eq!(
        group["matcher"],
        "^(?:replace|run_shell_command|write_file)$"
    );
    let handler = &group["hooks"][0];
    assert_eq!(handler["type"], "command");
    assert_eq!(handler["timeout"], 7000);
    // A bare `$GEMINI_PROJECT_DIR`, which Gemini replaces with the quoted
    // directory, after the part that refuses in PowerShell (Windows).
    let command = handler["command"].as_str().unwrap();
    let (windows, posix) = command.split_once(" ; hookc_shim=").unwrap();
    assert!(
        windows.starts_with("set \"\\\" ; ") && !windows.contains('$'),
        "{command}"
    );
    assert!(
        posix.starts_with("$GEMINI_PROJECT_DIR/.hookc/gemini/pre-tool.sh; ")
            && command.ends_with("; . \"$hookc_shim\""),
        "{command}"
    );
    assert!(p.exists(".hookc/gemini/pre-tool.sh"));
    assert!(
        run.stdout
            .contains("project hooks only in a trusted folder"),
        "{}",
        run.stdout
    );
}

#[test]
fn every_event_gets_its_pascal_case_name_and_mcp_tools_their_gemini_name() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        &policy(
            r#"
guard "refunds" {
    mcp "payments" "refund_*"
    deny "Ask the user to issue refunds."
}
guard "after" {
    event "post-tool"
    tool "write"
    context "Run the formatter."
}
guard "prompt" {
    event "prompt"
    regex "password"
    deny "Do not paste passwords."
}
guard "stop" {
    event "stop"
    regex "TODO"
    block "Finish the TODOs."
}
guard "start" {
    event "session-start"
    context "Read CONTRIBUTING.md first."
}
"#,
        ),
    );
    p.build();
    let hooks = &settings(&p)["hooks"];
    let events: Vec<&str> = hooks
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        events,
        [
            "BeforeTool",
            "AfterTool",
            "BeforeAgent",
            "AfterAgent",
            "SessionStart"
        ]
    );
    assert_eq!(
        hooks["BeforeTool"][0]["matcher"],
        // Self-protection adds the tools that write.
        r"^(?:mcp_payments_refund_.*|replace|run_shell_command|write_file)$"
    );
    assert_eq!(hooks["AfterTool"][0]["matcher"], "^(?:write_file)$");
    // Events without tools get no matcher.
    for event in ["BeforeAgent", "AfterAgent", "SessionStart"] {
        assert!(hooks[event][0].get("matcher").is_none(), "{event}");
        assert_eq!(hooks[event][0]["hooks"][0]["type"], "command");
    }
}

const USER_SETTINGS: &str = r#"{
  // Gemini CLI settings: comments are allowed here.
  "general": { "vimMode": true },
  "hooks": {
    /* the user's own formatter */
    "AfterTool": [
      {
        "matcher": "write_file",
        "hooks": [ { "type": "command", "command": "./fmt.sh", "timeout": 5000 } ]
      }
    ]
  },
  "ui":      { "theme": "GitHub" }
}
"#;

#[test]
fn merging_keeps_comments_and_every_other_byte_and_retraction_restores_the_file() {
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    p.write(".gemini/settings.json", USER_SETTINGS);
    p.build();
    let merged = p.read(".gemini/settings.json");
    for kept in [
        "// Gemini CLI settings: comments are allowed here.",
        "/* the user's own formatter */",
        r#""ui":      { "theme": "GitHub" }"#,
        r#""hooks": [ { "type": "command", "command": "./fmt.sh", "timeout": 5000 } ]"#,
    ] {
        assert!(merged.contains(kept), "lost {kept:?}:\n{merged}");
    }
    assert!(merged.contains("\"BeforeTool\""), "{merged}");

    let again = p.build();
    assert_eq!(p.read(".gemini/settings.json"), merged);
    assert!(
        again.stdout.contains("(0 files changed"),
        "{}",
        again.stdout
    );

    p.write("policy.kdl", "targets \"gemini\"\n");
    p.build();
    assert_eq!(p.read(".gemini/settings.json"), USER_SETTINGS);
    assert!(!p.exists(".hookc/gemini/pre-tool.sh"));
}

#[test]
fn a_force_push_is_denied_in_json_on_stdout_and_nothing_else() {
    let p = built();
    let run = guard(
        &p,
        "pre-tool",
        &before_tool(
            "run_shell_command",
            json!({"command": "git push --force origin main", "description": "push"}),
        ),
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let out: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(out["decision"], "deny");
    assert!(
        out["reason"]
            .as_str()
            .unwrap()
            .starts_with("Do not force-push"),
        "{out}"
    );
    assert_eq!(out["systemMessage"], "hookc refused a force push");
    assert_eq!(run.stdout.lines().count(), 1);
    assert_eq!(outcome(&run).0, "deny");
}

#[test]
fn unrelated_calls_get_no_output() {
    let p = built();
    for stdin in [
        before_tool("run_shell_command", json!({"command": "cargo test"})),
        before_tool("read_file", json!({"file_path": "/repo/.env.example"})),
        before_tool(
            "write_file",
            json!({"file_path": "src/lib.rs", "content": "x"}),
        ),
    ] {
        let run = guard(&p, "pre-tool", &stdin);
        assert_eq!(
            (run.status, run.stdout.as_str(), run.stderr.as_str()),
            (0, "", "")
        );
    }
}

#[test]
fn file_tools_are_checked_by_path_and_migrations_ask() {
    let p = built();
    let read = guard(
        &p,
        "pre-tool",
        &before_tool("read_file", json!({"file_path": "/repo/.env"})),
    );
    assert_eq!(outcome(&read).0, "deny");
    let many = guard(
        &p,
        "pre-tool",
        &before_tool(
            "read_many_files",
            json!({"include": ["src/**/*.rs", "config/.env.local"]}),
        ),
    );
    assert_eq!(outcome(&many).0, "deny");
    let edit = guard(
        &p,
        "pre-tool",
        &before_tool(
            "replace",
            json!({"file_path": "/repo/migrations/0001_init.sql", "old_string": "a", "new_string": "b", "instruction": "fix"}),
        ),
    );
    let (decision, reason) = outcome(&edit);
    assert_eq!(decision, "ask");
    assert!(reason.contains("add a new migration"), "{reason}");
}

#[test]
fn several_guards_give_every_reason_in_one_answer() {
    let p = built();
    let run = guard(
        &p,
        "pre-tool",
        &before_tool(
            "run_shell_command",
            json!({"command": "git reset --hard && git push -f"}),
        ),
    );
    let (decision, reason) = outcome(&run);
    assert_eq!(decision, "deny");
    assert!(reason.starts_with("2 policy rules apply"), "{reason}");
}

#[test]
fn an_mcp_call_is_matched_through_its_mcp_context() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        &policy(
            r#"
guard "refunds" {
    mcp "pay_ments" "refund"
    deny "Ask the user to issue refunds."
}
"#,
        ),
    );
    p.build();
    let mut payload: Value =
        serde_json::from_str(&before_tool("mcp_pay_ments_refund", json!({"id": 7}))).unwrap();
    payload["mcp_context"] =
        json!({"server_name": "pay_ments", "tool_name": "refund", "command": "node"});
    let run = guard(&p, "pre-tool", &payload.to_string());
    assert_eq!(
        outcome(&run),
        ("deny".into(), "Ask the user to issue refunds.".into())
    );
}

#[test]
fn prompt_stop_and_session_events_answer_in_gemini_terms() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        &policy(
            r#"
guard "prompt" {
    event "prompt"
    regex "password"
    deny "Do not paste passwords."
}
guard "stop" {
    event "stop"
    regex "TODO"
    block "Finish the TODOs."
}
guard "start" {
    event "session-start"
    context "Read CONTRIBUTING.md first."
}
"#,
        ),
    );
    p.build();
    let prompt = guard(
        &p,
        "prompt",
        &json!({"hook_event_name": "BeforeAgent", "cwd": "/repo", "prompt": "my password is x"})
            .to_string(),
    );
    assert_eq!(outcome(&prompt).0, "deny");
    let stop = guard(
        &p,
        "stop",
        &json!({"hook_event_name": "AfterAgent", "cwd": "/repo", "prompt": "go",
            "prompt_response": "Done. TODO: tests", "stop_hook_active": false})
        .to_string(),
    );
    assert_eq!(outcome(&stop), ("deny".into(), "Finish the TODOs.".into()));
    let start = guard(
        &p,
        "session-start",
        &json!({"hook_event_name": "SessionStart", "cwd": "/repo", "source": "startup"})
            .to_string(),
    );
    let out: Value = serde_json::from_str(&start.stdout).unwrap();
    assert_eq!(
        out["hookSpecificOutput"]["additionalContext"],
        "Read CONTRIBUTING.md first."
    );
}

#[test]
fn the_hook_passes_hookc_answers_through() {
    let p = built();
    let deny = fire(
        &p,
        Some(Path::new(HOOKC)),
        BARE_PATH,
        &before_tool("run_shell_command", json!({"command": "git push -f"})),
    );
    assert_eq!(outcome(&deny).0, "deny", "{}", deny.stderr);
    let allow = fire(
        &p,
        Some(Path::new(HOOKC)),
        BARE_PATH,
        &before_tool("run_shell_command", json!({"command": "ls"})),
    );
    assert_eq!(
        (allow.status, allow.stdout.as_str()),
        (0, ""),
        "{}",
        allow.stderr
    );
}

/// The could-not-run refusal: one fixed JSON object on stdout, exit 2.
fn assert_refused(run: &Run, why: &str) {
    assert_eq!(run.status, 2, "{why}: {}", run.stderr);
    let out: Value = serde_json::from_str(&run.stdout).unwrap_or_else(|e| {
        panic!(
            "{why}: stdout is not one JSON object ({e}): {:?}",
            run.stdout
        )
    });
    assert_eq!(out["decision"], "deny", "{why}");
    assert!(
        out["reason"]
            .as_str()
            .unwrap()
            .contains("hookc could not check this call, so it was refused"),
        "{why}"
    );
    assert_eq!(outcome(run).0, "deny", "{why}");
    assert!(run.stderr.contains(why), "{why}: {}", run.stderr);
}

#[test]
fn without_hookc_the_hook_refuses_in_json() {
    let p = built();
    let run = fire(
        &p,
        None,
        BARE_PATH,
        &before_tool("run_shell_command", json!({"command": "ls"})),
    );
    assert_refused(&run, "the hookc program was not found");
}

#[test]
fn garbage_stdin_and_a_crashing_hookc_are_refused_in_json() {
    let p = built();
    let run = fire(
        &p,
        Some(Path::new(HOOKC)),
        BARE_PATH,
        "this is not a payload",
    );
    assert_refused(&run, "not JSON");
    for (name, body) in [
        ("exit-1", "echo 'garbage on stdout'; exit 1"),
        ("killed", "kill -9 $$"),
        ("exit-3", "exit 3"),
    ] {
        let fake = p.path(&format!("fake-{name}"));
        std::fs::write(&fake, format!("#!/bin/sh\n{body}\n")).unwrap();
        crate::support::make_executable(&fake);
        let run = fire(
            &p,
            Some(&fake),
            BARE_PATH,
            &before_tool("run_shell_command", json!({"command": "ls"})),
        );
        // hookc's own stdout may precede the refusal; Gemini then reads
        // non-JSON text with exit 2, which still denies.
        assert_eq!(outcome(&run).0, "deny", "{name}: {:?}", run.stdout);
        assert_eq!(run.status, 2, "{name}");
    }
}

#[test]
fn on_error_ask_asks_instead() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        &format!("targets \"gemini\"\non-error \"ask\"\n{FORCE_PUSH}"),
    );
    p.build();
    let run = fire(
        &p,
        None,
        BARE_PATH,
        &before_tool("run_shell_command", json!({"command": "ls"})),
    );
    assert_eq!(run.status, 2);
    assert_eq!(outcome(&run).0, "ask");
}

/// `hookc guard` on `stdin` as a child of a stand-in `gemini` process
/// started with `args` (the hook reads the session's mode and policy files
/// from its command line), with the project's own policy, as the project's
/// hook runs it.
fn guard_under_gemini(p: &Project, args: &str, stdin: &str) -> Run {
    let project = p.path(".");
    let project = project.to_str().unwrap();
    let args: Vec<&str> = args.split_whitespace().collect();
    crate::support::guard_under(
        p,
        "gemini",
        ("gemini", ".hookc/gemini/../policy.json"),
        &args,
        &[("GEMINI_PROJECT_DIR", project)],
        stdin,
    )
}

/// On Linux a line hookc cannot read runs under `hookc exec`: Gemini CLI
/// takes the changed `tool_input`, and hookc picks the decision that keeps
/// the user's own policy, which Gemini matches against the changed command.
#[test]
fn a_line_hookc_cannot_read_is_handed_back_to_run_supervised() {
    if hookc::runtime::supervised::available().is_err() {
        return;
    }
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    p.build();
    std::fs::create_dir_all(p.path("home")).unwrap();
    let line = "c=$(printf 'gi%s' t); $c push --force origin main";
    let call = before_tool(
        "run_shell_command",
        json!({"command": line, "description": "push", "dir_path": "."}),
    );
    let answer = |args: &str| -> Value {
        let run = guard_under_gemini(&p, args, &call);
        assert_eq!(run.status, 0, "{run:?}");
        serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {run:?}"))
    };

    // YOLO, from the project's hook: no decision; Gemini runs the new input,
    // every other key kept, and the run stops the push.
    let yolo = answer("-y -p go");
    assert_eq!(yolo.get("decision"), None, "{yolo}");
    let input = &yolo["hookSpecificOutput"]["tool_input"];
    assert_eq!(input["description"], "push", "{yolo}");
    assert_eq!(input["dir_path"], ".", "{yolo}");
    let command = input["command"].as_str().unwrap();
    assert!(
        command.contains("' exec --harness gemini --policy '"),
        "{command}"
    );
    crate::support::assert_supervised_push_is_stopped(command, p.dir.path());

    // Outside YOLO mode Gemini's own checks would read the command: the
    // user is asked about the changed one, or, with nobody to ask, refused.
    let asked = answer("--approval-mode default -i go");
    assert_eq!(asked["decision"], "ask", "{asked}");
    assert!(asked["hookSpecificOutput"]["tool_input"]["command"].is_string());
    let headless = answer("-p go");
    assert_eq!(headless["decision"], "deny", "{headless}");
    assert!(
        headless["reason"]
            .as_str()
            .unwrap()
            .contains("this session cannot ask"),
        "{headless}"
    );

    // A rule of the user's that may refuse the original keeps it refused.
    p.write(
        ".gemini/policies/mine.toml",
        "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git push\"\ndecision = \"deny\"\npriority = 100\n",
    );
    let line = "m=$(date); git push origin main $m";
    let ruled = guard_under_gemini(
        &p,
        "-y -p go",
        &before_tool("run_shell_command", json!({"command": line})),
    );
    let ruled: Value = serde_json::from_str(&ruled.stdout).unwrap();
    assert_eq!(ruled["decision"], "deny", "{ruled}");
    assert!(
        ruled["reason"]
            .as_str()
            .unwrap()
            .contains("Your Gemini CLI policy (rule 1 of "),
        "{ruled}"
    );
}
