//! Cursor: `.cursor/hooks.json`, and the hooks run the way Cursor's hooks
//! runtime runs them: the command through a shell in the project root, with
//! the payload on stdin (as a here-document) and `CURSOR_*` variables set.

use serde_json::{Value, json};

use crate::support::{BARE_PATH, Project, Run, bundled_for, json_file, path_with_hookc, sh_c};

const HOOKS: &str = ".cursor/hooks.json";

/// Fields Cursor's runtime adds to every payload (`@cursor/sdk` 1.0.32).
fn base(p: &Project, event: &str) -> serde_json::Map<String, Value> {
    let root = p.path(".");
    json!({
        "conversation_id": "conv-1",
        "generation_id": "gen-1",
        "model": "default",
        "session_id": "conv-1",
        "hook_event_name": event,
        "cursor_version": "1.0.0",
        "workspace_roots": [root],
        "user_email": null,
        "transcript_path": null
    })
    .as_object()
    .unwrap()
    .clone()
}

fn shell(p: &Project, command: &str) -> String {
    let mut m = base(p, "beforeShellExecution");
    m.insert("command".into(), json!(command));
    m.insert("cwd".into(), json!(""));
    m.insert("sandbox".into(), json!(false));
    Value::Object(m).to_string()
}

fn tool(p: &Project, name: &str, input: Value) -> String {
    let mut m = base(p, "preToolUse");
    m.insert("tool_name".into(), json!(name));
    m.insert("tool_input".into(), input);
    m.insert("tool_use_id".into(), json!("tool-1"));
    m.insert("cwd".into(), json!(p.path(".")));
    Value::Object(m).to_string()
}

fn mcp(p: &Project, server: &str, name: &str, input: &str) -> String {
    let mut m = base(p, "beforeMCPExecution");
    m.insert("tool_name".into(), json!(name));
    m.insert("tool_input".into(), json!(input));
    m.insert("mcp_server_name".into(), json!(server));
    m.insert("command".into(), json!("npx some-server"));
    Value::Object(m).to_string()
}

/// The handler hookc wrote for `event`.
fn handler(p: &Project, event: &str) -> Value {
    json_file(p, HOOKS)["hooks"][event]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["command"].as_str().unwrap().contains(".hookc/cursor/"))
        .cloned()
        .unwrap_or_else(|| panic!("no hookc handler for {event}"))
}

/// Run the hook for `event` as Cursor does: `sh -c "<command> <<'EOF'…"` in
/// the project root.
fn fire_with(p: &Project, event: &str, path: &str, stdin: &str) -> Run {
    let command = handler(p, event)["command"].as_str().unwrap().to_owned();
    let heredoc = format!("{command} <<'CURSOR_HOOK_EOF'\n{stdin}\nCURSOR_HOOK_EOF");
    let root = p.path(".");
    sh_c(
        &heredoc,
        &root,
        path,
        &[
            ("CURSOR_PROJECT_DIR", root.to_str().unwrap()),
            ("CLAUDE_PROJECT_DIR", root.to_str().unwrap()),
            ("CURSOR_VERSION", "1.0.0"),
        ],
        "",
    )
}

fn fire(p: &Project, event: &str, stdin: &str) -> Value {
    let run = fire_with(p, event, &path_with_hookc(), stdin);
    assert_eq!(run.status, 0, "{}", run.stderr);
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {:?}", run.stdout))
}

fn built() -> Project {
    let p = bundled_for("\"cursor\"");
    p.build();
    p
}

#[test]
fn hooks_json_is_flat_versioned_and_fails_closed() {
    let p = built();
    let hooks = json_file(&p, HOOKS);
    assert_eq!(hooks["version"], 1);
    assert_eq!(
        hooks["hooks"],
        json!({
            "beforeShellExecution": [
                {"command": ".hookc/cursor/pre-tool.sh", "timeout": 10, "failClosed": true}
            ],
            "preToolUse": [
                {"command": ".hookc/cursor/pre-tool.sh",
                 "matcher": "^(?:Delete|Edit|Read|StrReplace|Write)$",
                 "timeout": 10, "failClosed": true}
            ]
        })
    );
}

#[test]
fn stop_hooks_get_the_loop_limit_from_the_policy() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"
targets "cursor"
harness "cursor" {
    loop-limit 3
}
guard "keep-going" {
    event "stop"
    block "Run the tests before you stop."
}
"#,
    );
    p.build();
    assert_eq!(
        handler(&p, "stop"),
        json!({"command": ".hookc/cursor/stop.sh", "timeout": 10, "failClosed": true, "loop_limit": 3})
    );
    let mut stop = base(&p, "stop");
    stop.insert("status".into(), json!("completed"));
    stop.insert("loop_count".into(), json!(0));
    let out = fire(&p, "stop", &Value::Object(stop).to_string());
    assert_eq!(
        out,
        json!({"followup_message": "Run the tests before you stop."})
    );

    p.write(
        "policy.kdl",
        &p.read("policy.kdl").replace("loop-limit 3", "loop-limit 0"),
    );
    let run = p.hookc(&["build"]);
    assert_ne!(run.status, 0);
    assert!(
        run.stderr.contains("hookc::invalid-setting") && run.stderr.contains("loop-limit 1"),
        "{}",
        run.stderr
    );
}

const USER_HOOKS: &str = r#"{
  "version": 1,
  "hooks": {
    "afterFileEdit": [ { "command": "./hooks/format.sh" } ],
    "beforeShellExecution": [
      { "command": ".cursor/hooks/audit.sh",   "timeout": 5 }
    ]
  }
}
"#;

#[test]
fn merging_keeps_the_users_hooks_byte_for_byte_and_retracts_cleanly() {
    let p = built();
    p.write(HOOKS, USER_HOOKS);
    p.build();
    let merged = p.read(HOOKS);
    assert!(
        merged.contains(r#"{ "command": ".cursor/hooks/audit.sh",   "timeout": 5 }"#),
        "{merged}"
    );
    let value: Value = serde_json::from_str(&merged).unwrap();
    assert_eq!(
        value["hooks"]["beforeShellExecution"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(
        value["hooks"]["afterFileEdit"][0]["command"],
        "./hooks/format.sh"
    );
    let again = p.build();
    assert_eq!(p.read(HOOKS), merged);
    assert!(
        again.stdout.contains("(0 files changed"),
        "{}",
        again.stdout
    );

    p.write("policy.kdl", "targets \"cursor\"\n");
    p.build();
    assert_eq!(p.read(HOOKS), USER_HOOKS);
}

#[test]
fn a_hooks_json_hookc_created_is_removed_with_its_last_guard() {
    let p = built();
    p.write("policy.kdl", "targets \"cursor\"\n");
    let run = p.build();
    assert!(!p.exists(HOOKS), "{}", run.stdout);
}

#[test]
fn a_version_is_added_to_a_file_that_lacks_one() {
    let p = bundled_for("\"cursor\"");
    p.write(HOOKS, "{\n  \"hooks\": {}\n}\n");
    p.build();
    assert_eq!(json_file(&p, HOOKS)["version"], 1);
}

#[test]
fn every_answer_is_json_allow_included() {
    let p = built();
    assert_eq!(
        fire(&p, "beforeShellExecution", &shell(&p, "cargo test")),
        json!({"permission": "allow"})
    );
    assert_eq!(
        fire(
            &p,
            "preToolUse",
            &tool(&p, "Read", json!({"file_path": "README.md"}))
        ),
        json!({"permission": "allow"})
    );
}

#[test]
fn a_denial_sets_both_messages() {
    let p = built();
    let out = fire(
        &p,
        "beforeShellExecution",
        &shell(&p, "git push --force origin main"),
    );
    assert_eq!(out["permission"], "deny");
    let user = out["user_message"].as_str().unwrap();
    assert!(user.starts_with("Do not force-push"), "{user}");
    assert_eq!(out["agent_message"], out["user_message"]);

    let write = fire(
        &p,
        "preToolUse",
        &tool(
            &p,
            "Write",
            json!({"file_path": p.path(".cursor/hooks.json"), "content": "{}"}),
        ),
    );
    assert_eq!(write["permission"], "deny");
    let delete = fire(
        &p,
        "preToolUse",
        &tool(&p, "Delete", json!({"file_path": ".hookc/policy.json"})),
    );
    assert_eq!(delete["permission"], "deny");
}

#[test]
fn ask_is_asked_before_shell_commands_and_refused_elsewhere() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"
targets "cursor"
guard "confirm-deploys" {
    command "make" "deploy"
    ask "Deploys reach production; confirm with the user."
    example "make deploy" expect="ask"
}
guard "confirm-migrations" {
    tool "write" "edit"
    path "migrations/**"
    ask "Confirm with the user before changing a migration."
    example tool="write" path="migrations/1.sql" expect="ask"
}
"#,
    );
    let build = p.build();
    assert!(
        build
            .stderr
            .contains("cursor: Cursor asks the user only before shell commands"),
        "{}",
        build.stderr
    );
    assert!(
        !build.stderr.contains("confirm-deploys`"),
        "a shell ask is honoured: {}",
        build.stderr
    );
    let asked = fire(&p, "beforeShellExecution", &shell(&p, "make deploy"));
    assert_eq!(
        asked,
        json!({"permission": "ask",
            "user_message": "Deploys reach production; confirm with the user.",
            "agent_message": "Deploys reach production; confirm with the user."})
    );
    let refused = fire(
        &p,
        "preToolUse",
        &tool(
            &p,
            "Write",
            json!({"file_path": "migrations/1.sql", "content": ""}),
        ),
    );
    assert_eq!(refused["permission"], "deny");
    assert!(
        refused["agent_message"]
            .as_str()
            .unwrap()
            .contains("Cursor can ask only before shell commands")
    );
}

#[test]
fn mcp_calls_are_checked_with_their_server() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"
targets "cursor"
guard "no-refunds" {
    mcp "payments" "refund_*"
    deny "Refunds need a human; open a ticket instead."
}
"#,
    );
    p.build();
    assert_eq!(handler(&p, "beforeMCPExecution")["failClosed"], true);
    let denied = fire(
        &p,
        "beforeMCPExecution",
        &mcp(&p, "payments", "refund_charge", "{\"id\":\"ch_1\"}"),
    );
    assert_eq!(denied["permission"], "deny");
    let other = fire(
        &p,
        "beforeMCPExecution",
        &mcp(&p, "docs", "refund_charge", "{}"),
    );
    assert_eq!(other, json!({"permission": "allow"}));
}

#[test]
fn several_guards_give_every_reason() {
    let p = built();
    let out = fire(
        &p,
        "beforeShellExecution",
        &shell(&p, "git reset --hard && git push -f"),
    );
    assert!(
        out["agent_message"]
            .as_str()
            .unwrap()
            .starts_with("2 policy rules apply")
    );
}

#[test]
fn prompts_are_refused_with_continue_false() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"
targets "cursor"
guard "no-keys-in-prompts" {
    event "prompt"
    regex "BEGIN PRIVATE KEY"
    deny "Do not paste private keys; point to the key file instead."
}
"#,
    );
    p.build();
    let mut prompt = base(&p, "beforeSubmitPrompt");
    prompt.insert("prompt".into(), json!("here: -----BEGIN PRIVATE KEY-----"));
    prompt.insert("attachments".into(), json!([]));
    let out = fire(
        &p,
        "beforeSubmitPrompt",
        &Value::Object(prompt.clone()).to_string(),
    );
    assert_eq!(out["continue"], false);
    prompt.insert("prompt".into(), json!("hello"));
    let out = fire(&p, "beforeSubmitPrompt", &Value::Object(prompt).to_string());
    assert_eq!(out, json!({"continue": true}));
}

#[test]
fn garbage_stdin_and_a_missing_hookc_exit_2_with_the_reason_on_stderr() {
    let p = built();
    let garbage = fire_with(
        &p,
        "beforeShellExecution",
        &path_with_hookc(),
        "not a payload",
    );
    assert_eq!(garbage.status, 2);
    assert_eq!(garbage.stdout, "");
    assert!(
        garbage.stderr.contains("not JSON") && garbage.stderr.contains("so it was refused"),
        "{}",
        garbage.stderr
    );
    let missing = fire_with(
        &p,
        "preToolUse",
        BARE_PATH,
        &tool(&p, "Read", json!({"file_path": "a"})),
    );
    assert_eq!(missing.status, 2);
    assert_eq!(missing.stdout, "");
    assert!(
        missing.stderr.contains("the hookc program was not found"),
        "{}",
        missing.stderr
    );
}

#[test]
fn what_cursor_cannot_do_is_a_warning_on_the_guard() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"
targets "cursor"
guard "check-output" {
    event "post-tool"
    tool "shell"
    regex "FAILED"
    block "A command failed; fix it before going on."
}
guard "no-todo-left" {
    event "stop"
    regex "TODO"
    block "Finish the TODOs first."
}
guard "claude-only" {
    tool (claude)"NotebookEdit"
    deny "No notebooks."
}
"#,
    );
    let run = p.build();
    for text in [
        "cursor: Cursor's postToolUse hooks cannot block",
        "cursor: Cursor's stop events do not carry the agent's last message",
        "cursor: Cursor has no tool `(claude)NotebookEdit`",
    ] {
        assert!(run.stderr.contains(text), "{text}\n{}", run.stderr);
    }
}

#[test]
fn hookc_is_found_on_cursors_path_when_the_login_shell_resets_it() {
    // Cursor runs `$SHELL -lc COMMAND`; a profile may set a PATH without
    // hookc. The shim then looks on the PATH Cursor itself ran with.
    let p = built();
    let command = handler(&p, "beforeShellExecution")["command"]
        .as_str()
        .unwrap()
        .to_owned();
    let reset = format!("PATH={BARE_PATH}; export PATH\n{command}");
    let run = fire_raw(&p, &reset, &path_with_hookc(), &shell(&p, "git push -f"));
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("\"permission\":\"deny\""),
        "{}",
        run.stdout
    );
    // Without /proc (not Linux) or without hookc there either, it refuses.
    let run = fire_raw(&p, &reset, BARE_PATH, &shell(&p, "git push -f"));
    assert_eq!(run.status, 2);
}

fn fire_raw(p: &Project, command: &str, path: &str, stdin: &str) -> Run {
    let root = p.path(".");
    sh_c(
        &format!("{command} <<'CURSOR_HOOK_EOF'\n{stdin}\nCURSOR_HOOK_EOF"),
        &root,
        path,
        &[("CURSOR_PROJECT_DIR", root.to_str().unwrap())],
        "",
    )
}
