//! Cursor and Copilot CLI also run the repo's `.claude/settings.json` hooks
//! (observed with the real tools). In a repo built for Claude Code, Cursor and
//! Copilot, every harness must get exactly one answer in its own protocol per
//! call, and the policy must be evaluated once per call.
//!
//! Each test runs every hook the harness would run for one call, the way it
//! runs them (payload shapes and environment as the oracle recorded them),
//! and reads `HOOKC_DEBUG` to see who evaluated.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::{
    BARE_PATH, Project, Run, bundled_for, debug_log, json_file, path_with_hookc, sh_c,
};

fn built(targets: &str) -> Project {
    let p = bundled_for(targets);
    p.build();
    p
}

fn claude_command(p: &Project) -> String {
    json_file(p, ".claude/settings.json")["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Run `command` with `env` plus the debug log, in the project root.
fn hook(p: &Project, command: &str, path: &str, env: &[(&str, &str)], stdin: &str) -> Run {
    let log = p.path("debug.jsonl");
    let mut env = env.to_vec();
    env.push(("HOOKC_DEBUG", log.to_str().unwrap()));
    sh_c(command, &p.path("."), path, &env, stdin)
}

fn log(p: &Project) -> Vec<Value> {
    debug_log(&p.path("debug.jsonl"))
}

fn evaluations(p: &Project) -> usize {
    log(p).iter().filter(|r| r["evaluated"] == true).count()
}

// ---------------------------------------------------------------- Cursor

fn cursor_env(root: &Path) -> Vec<(&'static str, String)> {
    let root = root.to_str().unwrap().to_owned();
    vec![
        ("CURSOR_PROJECT_DIR", root.clone()),
        ("CLAUDE_PROJECT_DIR", root),
        ("CURSOR_VERSION", "1.0.0".to_owned()),
    ]
}

/// What Cursor sends its preToolUse hooks (and, with the same payload, the
/// Claude PreToolUse hooks it imports) for a write.
fn cursor_write(root: &Path, file: &str) -> String {
    json!({
        "conversation_id": "c", "generation_id": "g", "model": "default", "session_id": "c",
        "hook_event_name": "preToolUse", "cursor_version": "1.0.0",
        "workspace_roots": [root], "user_email": null, "transcript_path": null,
        "tool_name": "Write", "tool_input": {"file_path": file, "content": "X=1"},
        "tool_use_id": "t", "cwd": root
    })
    .to_string()
}

fn with_heredoc(command: &str, stdin: &str) -> String {
    format!("{command} <<'CURSOR_HOOK_EOF'\n{stdin}\nCURSOR_HOOK_EOF")
}

fn run_under_cursor(p: &Project, command: &str, path: &str, stdin: &str) -> Run {
    let env = cursor_env(&p.path("."));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    hook(p, &with_heredoc(command, stdin), path, &env, "")
}

#[test]
fn under_cursor_the_claude_hook_says_no_objection_in_cursors_protocol() {
    let p = built("\"claude\" \"cursor\" \"copilot\"");
    let stdin = cursor_write(&p.path("."), ".claude/settings.local.json");
    let cursor_command = json_file(&p, ".cursor/hooks.json")["hooks"]["preToolUse"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    let own = run_under_cursor(&p, &cursor_command, &path_with_hookc(), &stdin);
    let claude = run_under_cursor(&p, &claude_command(&p), &path_with_hookc(), &stdin);

    assert_eq!(own.status, 0, "{}", own.stderr);
    let own: Value = serde_json::from_str(&own.stdout).unwrap();
    assert_eq!(own["permission"], "deny");
    assert_eq!(claude.status, 0, "{}", claude.stderr);
    let claude: Value = serde_json::from_str(&claude.stdout).unwrap();
    assert_eq!(
        claude,
        json!({"permission": "allow"}),
        "Cursor merges deny over allow"
    );

    let records = log(&p);
    assert_eq!(records.len(), 2);
    assert_eq!(evaluations(&p), 1, "{records:#?}");
    assert!(records.iter().all(|r| r["answered_as"] == "cursor"));
    assert_eq!(records[1]["harness"], "claude");
    assert_eq!(records[1]["evaluated"], false);
}

/// The build says who else runs `.claude/settings.json`: the harnesses
/// the policy does not target, since a targeted one's own hooks decide.
#[test]
fn the_build_names_the_harnesses_that_also_run_claudes_hooks() {
    let claude_line = |targets: &str| {
        let p = bundled_for(targets);
        let out = p.hookc(&["build"]);
        assert_eq!(out.status, 0, "{}", out.stderr);
        let line = out.stdout.lines().find(|l| l.starts_with("Claude Code:"));
        line.unwrap_or_else(|| panic!("{}", out.stdout)).to_owned()
    };
    let alone = claude_line("\"claude\"");
    assert!(
        alone.contains(
            "; GitHub Copilot CLI and Cursor run them too, answered in their own protocol"
        ),
        "{alone}"
    );
    let beside = claude_line("\"claude\" \"cursor\"");
    assert!(
        beside.contains("; GitHub Copilot CLI runs them too, answered in its own protocol"),
        "{beside}"
    );
    assert!(!beside.contains("Cursor run"), "{beside}");
}

#[test]
fn a_claude_only_policy_under_cursor_is_checked_and_answered_for_cursor() {
    let p = built("\"claude\"");
    let run = run_under_cursor(
        &p,
        &claude_command(&p),
        &path_with_hookc(),
        &cursor_write(&p.path("."), ".claude/settings.local.json"),
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let out: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(out["permission"], "deny");
    assert_eq!(out["agent_message"], out["user_message"]);
    assert_eq!(evaluations(&p), 1);
    assert_eq!(log(&p)[0]["answered_as"], "cursor");
}

#[test]
fn the_claude_shims_refusal_under_cursor_is_exit_2_which_cursor_refuses() {
    let p = built("\"claude\"");
    let run = run_under_cursor(
        &p,
        &claude_command(&p),
        BARE_PATH,
        &cursor_write(&p.path("."), "a.txt"),
    );
    assert_eq!(run.status, 2);
    assert_eq!(run.stdout, "", "Cursor would show stdout instead of stderr");
    assert!(
        run.stderr.contains("hookc program was not found"),
        "{}",
        run.stderr
    );
}

#[test]
fn on_error_ask_becomes_a_refusal_under_cursor_which_ignores_claudes_ask() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        "targets \"claude\"\non-error \"ask\"\nguard \"g\" {\n    command \"rm\"\n    deny \"Do not delete files; move them to trash/ instead.\"\n}\n",
    );
    p.build();
    let stdin = cursor_write(&p.path("."), "a.txt");
    let under_cursor = run_under_cursor(&p, &claude_command(&p), BARE_PATH, &stdin);
    assert_eq!(under_cursor.status, 2, "{}", under_cursor.stdout);
    // Claude Code itself still gets its `ask`.
    let root = p.path(".");
    let under_claude = sh_c(
        &claude_command(&p),
        &root,
        BARE_PATH,
        &[("CLAUDE_PROJECT_DIR", root.to_str().unwrap())],
        &crate::support::claude_bash("rm x"),
    );
    assert_eq!(under_claude.status, 0);
    assert!(
        under_claude
            .stdout
            .contains("\"permissionDecision\":\"ask\"")
    );
}

// ---------------------------------------------------------------- Copilot

fn copilot_env(root: &Path) -> Vec<(&'static str, String)> {
    vec![
        ("COPILOT_CLI", "1".to_owned()),
        ("COPILOT_PROJECT_DIR", root.to_str().unwrap().to_owned()),
        ("CLAUDE_PROJECT_DIR", root.to_str().unwrap().to_owned()),
    ]
}

/// Copilot's native payload (for `.github/hooks/*.json`).
fn copilot_native(root: &Path, command: &str) -> String {
    json!({"sessionId": "s1", "timestamp": 1_795_993_739_553_u64, "cwd": root,
        "toolName": "bash", "toolArgs": {"command": command, "description": "d"}})
    .to_string()
}

/// What Copilot sends the Claude hooks it imports: Claude's shape, with an
/// ISO timestamp and no transcript_path (recorded from Copilot CLI 1.0.102).
fn copilot_claude_shaped(root: &Path, command: &str) -> String {
    json!({"hook_event_name": "PreToolUse", "session_id": "s1",
        "timestamp": "2026-11-29T23:08:59.553Z", "cwd": root,
        "tool_name": "Bash", "tool_input": {"command": command, "description": "d"}})
    .to_string()
}

fn run_under_copilot(p: &Project, command: &str, path: &str, stdin: &str) -> Run {
    let env = copilot_env(&p.path("."));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    hook(p, command, path, &env, stdin)
}

#[test]
fn under_copilot_the_claude_hook_stays_silent_and_copilots_own_hook_decides() {
    let p = built("\"claude\" \"cursor\" \"copilot\"");
    let root = p.path(".");
    let copilot_command =
        json_file(&p, ".github/hooks/hookc.json")["hooks"]["preToolUse"][0]["bash"]
            .as_str()
            .unwrap()
            .to_owned();
    let own = run_under_copilot(
        &p,
        &copilot_command,
        &path_with_hookc(),
        &copilot_native(&root, "git push -f"),
    );
    let claude = run_under_copilot(
        &p,
        &claude_command(&p),
        &path_with_hookc(),
        &copilot_claude_shaped(&root, "git push -f"),
    );
    assert_eq!(own.status, 2);
    let own: Value = serde_json::from_str(&own.stdout).unwrap();
    assert_eq!(own["permissionDecision"], "deny");
    assert_eq!(
        (
            claude.status,
            claude.stdout.as_str(),
            claude.stderr.as_str()
        ),
        (0, "", "")
    );
    assert_eq!(evaluations(&p), 1);
    let records = log(&p);
    assert!(
        records.iter().all(|r| r["answered_as"] == "copilot"),
        "{records:#?}"
    );
}

#[test]
fn a_claude_only_policy_under_copilot_answers_with_copilots_json() {
    let p = built("\"claude\"");
    let run = run_under_copilot(
        &p,
        &claude_command(&p),
        &path_with_hookc(),
        &copilot_claude_shaped(&p.path("."), "git push --force"),
    );
    assert_eq!(run.status, 2);
    let out: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(out["permissionDecision"], "deny");
    assert!(out.get("hookSpecificOutput").is_none());
    assert_eq!(log(&p)[0]["answered_as"], "copilot");
}

#[test]
fn the_claude_shims_refusal_under_copilot_also_prints_a_reason_copilot_shows() {
    let p = built("\"claude\"");
    let run = run_under_copilot(
        &p,
        &claude_command(&p),
        BARE_PATH,
        &copilot_claude_shaped(&p.path("."), "ls"),
    );
    assert_eq!(run.status, 2);
    let out: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(out["permissionDecision"], "deny");
    assert!(run.stderr.contains("hookc program was not found"));
}

// ---------------------------------------------------------------- Claude

#[test]
fn claude_code_itself_is_answered_in_its_own_protocol_even_inside_a_copilot_session() {
    let p = built("\"claude\" \"cursor\" \"copilot\"");
    let root = p.path(".");
    // Claude Code started from a Copilot shell inherits COPILOT_CLI; its
    // payload still has Claude's transcript_path.
    for env in [
        vec![("CLAUDE_PROJECT_DIR", root.to_str().unwrap())],
        vec![
            ("CLAUDE_PROJECT_DIR", root.to_str().unwrap()),
            ("COPILOT_CLI", "1"),
        ],
    ] {
        let run = hook(
            &p,
            &claude_command(&p),
            &path_with_hookc(),
            &env,
            &crate::support::claude_bash("git push --force"),
        );
        assert_eq!(run.status, 2);
        assert!(
            run.stdout.contains("\"hookSpecificOutput\""),
            "{}",
            run.stdout
        );
        assert!(
            run.stderr.starts_with("Do not force-push"),
            "{}",
            run.stderr
        );
    }
    let records = log(&p);
    assert_eq!(records.len(), 2);
    assert!(
        records
            .iter()
            .all(|r| r["answered_as"] == "claude" && r["evaluated"] == true)
    );
}

#[test]
fn each_harness_gets_one_answer_in_its_own_protocol_per_call() {
    let p = built("\"claude\" \"cursor\" \"copilot\"");
    let root = p.path(".");
    let command = "git push --force origin main";

    // Claude Code runs one hook: .claude/settings.json.
    let claude = hook(
        &p,
        &claude_command(&p),
        &path_with_hookc(),
        &[("CLAUDE_PROJECT_DIR", root.to_str().unwrap())],
        &crate::support::claude_bash(command),
    );
    assert_eq!(claude.status, 2);

    // Cursor runs its own beforeShellExecution hook; the imported Claude
    // matcher does not reach Cursor's `Shell` tool (see the Cursor page).
    let shell = json!({"conversation_id": "c", "generation_id": "g", "model": "m",
        "hook_event_name": "beforeShellExecution", "cursor_version": "1.0.0",
        "workspace_roots": [root], "command": command, "cwd": "", "sandbox": false})
    .to_string();
    let cursor_command =
        json_file(&p, ".cursor/hooks.json")["hooks"]["beforeShellExecution"][0]["command"]
            .as_str()
            .unwrap()
            .to_owned();
    let cursor = run_under_cursor(&p, &cursor_command, &path_with_hookc(), &shell);
    assert_eq!(cursor.status, 0);
    assert_eq!(
        serde_json::from_str::<Value>(&cursor.stdout).unwrap()["permission"],
        "deny"
    );

    // Copilot runs both files.
    let copilot_command =
        json_file(&p, ".github/hooks/hookc.json")["hooks"]["preToolUse"][0]["bash"]
            .as_str()
            .unwrap()
            .to_owned();
    let own = run_under_copilot(
        &p,
        &copilot_command,
        &path_with_hookc(),
        &copilot_native(&root, command),
    );
    let imported = run_under_copilot(
        &p,
        &claude_command(&p),
        &path_with_hookc(),
        &copilot_claude_shaped(&root, command),
    );
    assert_eq!(own.status, 2);
    assert_eq!(imported.status, 0);

    let records = log(&p);
    let by = |who: &str| -> Vec<&Value> {
        records
            .iter()
            .filter(|r| r["answered_as"] == who && r["evaluated"] == true)
            .collect()
    };
    for who in ["claude", "cursor", "copilot"] {
        let answered = by(who);
        assert_eq!(answered.len(), 1, "{who}: {records:#?}");
        assert_eq!(answered[0]["guards"], json!(["no-force-push"]));
    }
    assert_eq!(records.len(), 4);
}

#[test]
fn copilots_claude_shaped_stop_is_recognised_too() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"
targets "claude" "copilot"
guard "keep-going" {
    event "stop"
    block "Run the tests before you stop."
}
"#,
    );
    p.build();
    let root = p.path(".");
    // Recorded from Copilot CLI 1.0.102 running a .claude/settings.json Stop hook.
    let stdin = json!({"hook_event_name": "Stop", "session_id": "s1",
        "timestamp": "2026-11-29T23:45:42.910Z", "cwd": root,
        "transcript_path": "/home/u/.copilot/session-state/s1/events.jsonl",
        "stop_reason": "end_turn", "stop_hook_active": false})
    .to_string();
    let command = json_file(&p, ".claude/settings.json")["hooks"]["Stop"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    let run = run_under_copilot(&p, &command, &path_with_hookc(), &stdin);
    assert_eq!((run.status, run.stdout.as_str()), (0, ""));
    assert_eq!(log(&p)[0]["answered_as"], "copilot");
    assert_eq!(log(&p)[0]["evaluated"], false);
}

// ---------------------------------------------------------------- Devin CLI

/// What Devin CLI sends a PreToolUse hook for its shell tool, `exec`, as its
/// documentation gives it (not recorded from the tool: it does not run
/// here). It sets `DEVIN_PROJECT_DIR`; whether it also sets
/// `CLAUDE_PROJECT_DIR` is not known, so the test leaves it out.
fn devin_exec(p: &Project, command: &str) -> Run {
    devin_call(p, "exec", json!({"command": command, "shell_id": "sh1"}))
}

/// A Devin CLI PreToolUse payload for `tool` with `input`, with the fields
/// a third party captured from Devin CLI 3000.6.14 (no `cwd`).
fn devin_call(p: &Project, tool: &str, input: Value) -> Run {
    let root = p.path(".");
    let stdin = json!({"hook_event_name": "PreToolUse", "session_id": "bramble-scorpion",
        "prompt_id": "7b0f4c1e-2d7a-4c55-9a51-3f1f0e6c2b10",
        "tool_use_id": "chatcmpl-tool-9f2e", "tool_name": tool, "tool_input": input})
    .to_string();
    hook(
        p,
        &claude_command(p),
        &path_with_hookc(),
        &[("DEVIN_PROJECT_DIR", root.to_str().unwrap())],
        &stdin,
    )
}

#[test]
fn devins_shell_tool_is_matched_by_the_claude_hooks_and_refused_with_exit_2() {
    let p = built("\"claude\"");
    // Devin matches the regex against its own tool name.
    let settings = json_file(&p, ".claude/settings.json");
    let matcher = settings["hooks"]["PreToolUse"][0]["matcher"]
        .as_str()
        .unwrap();
    let matches = regex::Regex::new(matcher).unwrap();
    assert!(
        matches.is_match("exec") && matches.is_match("Bash"),
        "{matcher}"
    );
    assert!(!matches.is_match("execute"), "{matcher}");
    // The build says so, for people and in its JSON.
    let built = p.hookc(&["build", "--format", "json"]);
    let doc: Value = serde_json::from_str(&built.stdout).unwrap();
    assert_eq!(
        doc["harnesses"][0]["also_run_by"],
        json!([{"name": "Devin CLI", "tools": ["exec", "read", "grep", "glob", "notebook_read", "write", "edit", "notebook_edit"]}]),
        "{}",
        built.stdout
    );

    // Exit 2 with the reason on stderr: the refusal Devin documents.
    let pushed = devin_exec(&p, "git push --force origin main");
    assert_eq!(pushed.status, 2, "{}{}", pushed.stdout, pushed.stderr);
    assert!(pushed.stderr.contains("force"), "{}", pushed.stderr);
    assert!(
        !pushed.stderr.contains("could not read"),
        "{}",
        pushed.stderr
    );
    assert_eq!(log(&p)[0]["evaluated"], true);

    let plain = devin_exec(&p, "git status");
    assert_eq!((plain.status, plain.stderr.as_str()), (0, ""));

    // A line hookc cannot read would run under hookc exec in Claude Code;
    // Devin is not known to apply a changed input, so it is refused.
    let opaque = devin_exec(&p, "eval \"$CMD\"");
    assert_eq!(opaque.status, 2, "{}", opaque.stdout);
    assert!(!opaque.stdout.contains("updatedInput"), "{}", opaque.stdout);
    assert!(
        opaque.stderr.contains("Devin CLI cannot hand the call"),
        "{}",
        opaque.stderr
    );
}

#[test]
fn devins_file_tools_are_judged_by_the_claude_hooks_with_devins_input_keys() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"targets "claude"
guard "no-env" {
    path ".env"
    deny "Leave .env alone; ask the user for the value you need."
}
"#,
    );
    p.build();
    let matcher = json_file(&p, ".claude/settings.json")["hooks"]["PreToolUse"][0]["matcher"]
        .as_str()
        .unwrap()
        .to_owned();
    let matches = regex::Regex::new(&matcher).unwrap();
    for tool in ["read", "edit", "write", "grep", "glob", "notebook_edit"] {
        assert!(matches.is_match(tool), "{tool}: {matcher}");
    }
    // Unanchored in Devin, `write` would also fire for `todo_write`.
    assert!(!matches.is_match("todo_write"), "{matcher}");
    for (tool, input) in [
        ("read", json!({"file_path": ".env"})),
        (
            "edit",
            json!({"file_path": ".env", "old_string": "A=1", "new_string": "A=2"}),
        ),
        ("write", json!({"file_path": ".env", "content": "A=2"})),
        (
            "grep",
            json!({"pattern": "TOKEN", "path": ".", "glob_pattern": ".env"}),
        ),
    ] {
        let r = devin_call(&p, tool, input.clone());
        assert_eq!(r.status, 2, "{tool} {input}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stderr.contains("Leave .env alone"),
            "{tool}: {}",
            r.stderr
        );
    }
    let readme = devin_call(&p, "read", json!({"file_path": "README.md"}));
    assert_eq!((readme.status, readme.stderr.as_str()), (0, ""));
}

#[test]
fn devins_switch_for_claudes_hooks_is_protected() {
    let p = built("\"claude\"");
    for file in [".devin/config.json", ".devin/config.local.json"] {
        let run = devin_exec(
            &p,
            &format!("echo '{{\"read_config_from\":{{\"claude\":false}}}}' > {file}"),
        );
        assert_eq!(run.status, 2, "{file}: {}", run.stdout);
    }
}
