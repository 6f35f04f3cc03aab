//! Codex CLI: `.codex/hooks.json`, and the hooks run the way Codex runs them:
//! the command string through a shell, in the session's working directory
//! (often below the project root), with no project-directory variable.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::{
    BARE_PATH, Project, Run, bundled_for, debug_log, fake_hookc, json_file, path_with_hookc, sh_c,
};

const HOOKS: &str = ".codex/hooks.json";

/// A Codex PreToolUse payload, in the shape codex 0.171.0 sent the oracle's hook.
fn payload(cwd: &Path, tool: &str, input: Value) -> String {
    json!({
        "session_id": "01a22993-35f9-7bd3-b24f-a9fef0d22ea5",
        "turn_id": "01a22993-3679-77c1-9234-622c516eae13",
        "transcript_path": "/home/u/.codex/sessions/rollout.jsonl",
        "cwd": cwd,
        "hook_event_name": "PreToolUse",
        "model": "gpt-5",
        "permission_mode": "default",
        "tool_name": tool,
        "tool_input": input,
        "tool_use_id": "call_48ce74c4"
    })
    .to_string()
}

fn bash(cwd: &Path, command: &str) -> String {
    payload(cwd, "Bash", json!({ "command": command }))
}

fn patch(cwd: &Path, body: &str) -> String {
    payload(
        cwd,
        "apply_patch",
        json!({ "command": format!("*** Begin Patch\n{body}*** End Patch\n") }),
    )
}

/// The command Codex runs for `event`.
fn command(p: &Project, event: &str) -> String {
    json_file(p, HOOKS)["hooks"][event][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Run the PreToolUse hook from `dir` (relative to the project) as Codex would.
fn fire_in(p: &Project, dir: &str, path: &str, stdin: &str) -> Run {
    let cwd = p.path(dir);
    std::fs::create_dir_all(&cwd).unwrap();
    // HOME is where the hook's walk up from the working directory ends.
    let home = p.dir.path().display().to_string();
    sh_c(
        &command(p, "PreToolUse"),
        &cwd,
        path,
        &[("HOME", &home)],
        stdin,
    )
}

fn built() -> Project {
    let p = bundled_for("\"codex\"");
    p.build();
    p
}

#[test]
fn hooks_json_has_only_the_root_keys_codex_accepts() {
    let p = built();
    let hooks = json_file(&p, HOOKS);
    let root: Vec<&String> = hooks.as_object().unwrap().keys().collect();
    assert_eq!(root, ["hooks"]);
    let group = &hooks["hooks"]["PreToolUse"][0];
    assert_eq!(group["matcher"], "^(?:Bash|apply_patch)$");
    let handler = &group["hooks"][0];
    assert_eq!(handler["type"], "command");
    assert_eq!(handler["timeout"], 10);
    let command = handler["command"].as_str().unwrap();
    assert!(command.starts_with("sh -c '"), "{command}");
    assert!(command.contains("/.hookc/codex/pre-tool.sh"), "{command}");
    assert!(p.exists(".hookc/codex/pre-tool.sh"));
}

#[test]
fn the_summary_says_codex_needs_trust_and_review() {
    let p = bundled_for("\"codex\"");
    let run = p.build();
    assert!(
        run.stdout.contains("only in a trusted project")
            && run.stdout.contains("review them in /hooks"),
        "{}",
        run.stdout
    );
}

const USER_HOOKS: &str = r#"{
  "description": "team hooks",
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "./scripts/audit.sh",  "timeout": 5 } ] }
    ],
    "Stop": [
      { "hooks": [ { "type": "command", "command": "notify-send done" } ] }
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
        merged.contains(r#"{ "matcher": "Bash", "hooks": [ { "type": "command", "command": "./scripts/audit.sh",  "timeout": 5 } ] }"#),
        "{merged}"
    );
    assert!(merged.contains(r#""description": "team hooks""#));
    let value: Value = serde_json::from_str(&merged).unwrap();
    let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["description", "hooks"]);
    let pre = value["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(pre.len(), 2);
    assert_eq!(pre[0]["hooks"][0]["command"], "./scripts/audit.sh");

    let again = p.build();
    assert_eq!(p.read(HOOKS), merged, "a second build changes nothing");
    assert!(
        again.stdout.contains("(0 files changed"),
        "{}",
        again.stdout
    );

    p.write("policy.kdl", "targets \"codex\"\n");
    p.build();
    assert_eq!(p.read(HOOKS), USER_HOOKS);
    assert!(!p.exists(".hookc/codex/pre-tool.sh"));
}

#[test]
fn a_hooks_json_hookc_created_is_removed_with_its_last_guard() {
    let p = built();
    p.write("policy.kdl", "targets \"codex\"\n");
    p.build();
    assert!(!p.exists(HOOKS));
}

#[test]
fn allowed_calls_get_silence_and_refusals_exit_2_with_the_reason_on_stderr() {
    let p = built();
    let allowed = fire_in(
        &p,
        ".",
        &path_with_hookc(),
        &bash(&p.path("."), "cargo test"),
    );
    assert_eq!(
        (
            allowed.status,
            allowed.stdout.as_str(),
            allowed.stderr.as_str()
        ),
        (0, "", "")
    );
    let denied = fire_in(
        &p,
        ".",
        &path_with_hookc(),
        &bash(&p.path("."), "git push --force origin main"),
    );
    assert_eq!(denied.status, 2);
    assert_eq!(denied.stdout, "", "Codex does not read stdout on exit 2");
    assert!(
        denied.stderr.starts_with("Do not force-push"),
        "{}",
        denied.stderr
    );
}

#[test]
fn the_hook_finds_its_script_from_a_subdirectory_with_and_without_git() {
    let p = built();
    let deep = "src/deep/er";
    let run = fire_in(
        &p,
        deep,
        &path_with_hookc(),
        &bash(&p.path(deep), "git push -f"),
    );
    assert_eq!(run.status, 2, "no git: {}", run.stderr);
    assert!(
        run.stderr.starts_with("Do not force-push"),
        "{}",
        run.stderr
    );

    let git = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(p.dir.path())
        .status();
    if git.is_ok_and(|s| s.success()) {
        let run = fire_in(
            &p,
            deep,
            &path_with_hookc(),
            &bash(&p.path(deep), "git push -f"),
        );
        assert_eq!(run.status, 2, "git: {}", run.stderr);
        assert!(
            run.stderr.starts_with("Do not force-push"),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn without_the_script_the_hook_refuses_instead_of_exiting_127() {
    let p = built();
    std::fs::remove_dir_all(p.path(".hookc")).unwrap();
    let run = fire_in(&p, "sub", &path_with_hookc(), &bash(&p.path("sub"), "ls"));
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("no /.hookc/codex/pre-tool.sh in")
            && run.stderr.contains("run hookc build"),
        "{}",
        run.stderr
    );
}

#[test]
fn patches_are_checked_by_the_files_they_name_relative_to_the_sessions_directory() {
    let p = built();
    let root = p.path(".");
    let add_env = fire_in(
        &p,
        ".",
        &path_with_hookc(),
        &patch(&root, "*** Update File: .env\n@@\n-a\n+b\n"),
    );
    assert_eq!(add_env.status, 2, "{}", add_env.stderr);
    assert!(add_env.stderr.contains(".env files"), "{}", add_env.stderr);
    let add_hook = fire_in(
        &p,
        ".",
        &path_with_hookc(),
        &patch(&root, "*** Add File: .codex/hooks.json\n+{}\n"),
    );
    assert_eq!(add_hook.status, 2, "{}", add_hook.stderr);
    assert!(
        add_hook.stderr.contains("hookc's own guards"),
        "{}",
        add_hook.stderr
    );

    // `config/.env.local`, named from inside `config/`.
    let config = p.path("config");
    let nested = fire_in(
        &p,
        "config",
        &path_with_hookc(),
        &patch(&config, "*** Update File: .env.local\n@@\n-a\n+b\n"),
    );
    assert_eq!(nested.status, 2, "{}", nested.stderr);

    let fine = fire_in(
        &p,
        ".",
        &path_with_hookc(),
        &patch(&root, "*** Update File: src/main.rs\n@@\n-a\n+b\n"),
    );
    assert_eq!((fine.status, fine.stderr.as_str()), (0, ""));
}

#[test]
fn ask_becomes_a_refusal_that_tells_the_model_to_ask() {
    let p = built();
    let root = p.path(".");
    // A patch that adds one migration and edits another: a write and an edit.
    let run = fire_in(
        &p,
        ".",
        &path_with_hookc(),
        &patch(
            &root,
            "*** Add File: docs/x.md\n+x\n*** Update File: migrations/0001_init.sql\n@@\n-a\n+b\n",
        ),
    );
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("Codex hooks cannot ask") && run.stderr.contains("add a new migration"),
        "{}",
        run.stderr
    );
}

#[test]
fn several_guards_give_every_reason_in_one_refusal() {
    let p = built();
    let run = fire_in(
        &p,
        ".",
        &path_with_hookc(),
        &bash(&p.path("."), "git reset --hard && git push -f"),
    );
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.starts_with("2 policy rules apply")
            && run.stderr.contains("\n1. Do not force-push")
            && run.stderr.contains("\n2. Do not run `git reset --hard`"),
        "{}",
        run.stderr
    );
}

#[test]
fn context_is_hook_specific_output_and_allow_is_silence() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"
targets "codex"
guard "remind" {
    command "cargo" "publish"
    context "Bump the version in Cargo.toml first."
}
guard "tests-are-fine" {
    command "cargo" "test"
    allow
    allow-degraded "codex"
}
"#,
    );
    let build = p.build();
    assert!(!build.stderr.contains("unsupported"), "{}", build.stderr);
    let root = p.path(".");
    let context = fire_in(&p, ".", &path_with_hookc(), &bash(&root, "cargo publish"));
    assert_eq!(context.status, 0);
    let out: Value = serde_json::from_str(&context.stdout).unwrap();
    assert_eq!(
        out,
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "additionalContext": "Bump the version in Cargo.toml first."}})
    );
    let allow = fire_in(&p, ".", &path_with_hookc(), &bash(&root, "cargo test"));
    assert_eq!((allow.status, allow.stdout.as_str()), (0, ""));
}

#[test]
fn garbage_stdin_and_a_missing_hookc_are_refusals_codex_honours() {
    let p = built();
    let garbage = fire_in(&p, ".", &path_with_hookc(), "this is not a payload");
    assert_eq!(garbage.status, 2);
    assert!(
        garbage.stderr.contains("not JSON") && garbage.stderr.contains("so it was refused"),
        "{}",
        garbage.stderr
    );
    let missing = fire_in(&p, ".", BARE_PATH, &bash(&p.path("."), "ls"));
    assert_eq!(missing.status, 2);
    assert_eq!(missing.stdout, "");
    assert!(
        missing.stderr.contains("the hookc program was not found"),
        "{}",
        missing.stderr
    );
}

#[test]
fn a_crashing_hookc_is_a_refusal() {
    let p = built();
    let fake = fake_hookc(&p, "crash", "echo boom >&2; exit 101");
    let cwd = p.path(".");
    let run = sh_c(
        &command(&p, "PreToolUse"),
        &cwd,
        BARE_PATH,
        &[("HOOKC_BIN", fake.to_str().unwrap())],
        &bash(&cwd, "ls"),
    );
    assert_eq!(run.status, 2);
    assert!(
        run.stderr
            .contains("hookc guard stopped with exit status 101"),
        "{}",
        run.stderr
    );
}

#[test]
fn stop_guards_refuse_with_a_continuation_prompt_on_stderr() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"
targets "codex"
guard "no-todo-left" {
    event "stop"
    regex "TODO"
    block "Finish the TODOs you left before stopping."
}
"#,
    );
    p.build();
    let cwd = p.path(".");
    let stdin = json!({"session_id": "s", "turn_id": "t", "transcript_path": null, "cwd": cwd,
        "hook_event_name": "Stop", "model": "gpt-5", "permission_mode": "default",
        "stop_hook_active": false, "last_assistant_message": "Done, but TODO: tests"})
    .to_string();
    let log = p.path("debug.jsonl");
    let run = sh_c(
        &command(&p, "Stop"),
        &cwd,
        &path_with_hookc(),
        &[("HOOKC_DEBUG", log.to_str().unwrap())],
        &stdin,
    );
    assert_eq!(run.status, 2);
    assert_eq!(run.stderr, "Finish the TODOs you left before stopping.\n");
    assert_eq!(debug_log(&log)[0]["guards"], json!(["no-todo-left"]));
}

#[test]
fn what_codex_cannot_do_is_a_warning_on_the_guard() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"
targets "codex"
guard "confirm-migrations" {
    tool "edit"
    path "migrations/**"
    ask "Migrations are applied in production; confirm with the user."
}
guard "no-reading-keys" {
    tool "read"
    path "*.pem"
    deny "Do not read private keys."
}
"#,
    );
    let run = p.build();
    assert!(
        run.stderr
            .contains("codex: Codex hooks cannot ask the user"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("codex: Codex has no hookable tool for `read`"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("the guard will not run there"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("in guard `confirm-migrations`"));
    p.write(
        "policy.kdl",
        &p.read("policy.kdl")
            .replace(
                "confirm with the user.\"",
                "confirm with the user.\"\n    allow-degraded \"codex\"",
            )
            .replace("keys.\"", "keys.\"\n    allow-degraded \"codex\""),
    );
    let quiet = p.build();
    assert!(!quiet.stderr.contains("unsupported"), "{}", quiet.stderr);
}
