//! GitHub Copilot CLI: `.github/hooks/hookc.json`, and the hooks run the way
//! Copilot runs them: the `bash` string through a shell in the project root,
//! with `COPILOT_PROJECT_DIR` and `COPILOT_CLI` set, a camelCase payload.

use serde_json::{Value, json};

use crate::support::{
    BARE_PATH, Project, Run, bundled_for, fake_hookc, json_file, path_with_hookc, sh_c,
};

const HOOKS: &str = ".github/hooks/hookc.json";

/// A native preToolUse payload, as Copilot CLI 1.0.102 sent it to the oracle's
/// hook. `cwd` is where Copilot started, which is the project root (it reads
/// `.github/hooks` only from there); the tests' projects live in /tmp/….
fn payload(p: &Project, tool: &str, args: Value) -> String {
    json!({
        "sessionId": "c6e974af-d262-4cdb-87c7-86eccdecebc6",
        "timestamp": 1_795_993_739_553_u64,
        "cwd": p.path("."),
        "toolName": tool,
        "toolArgs": args
    })
    .to_string()
}

fn bash(p: &Project, command: &str) -> String {
    payload(
        p,
        "bash",
        json!({ "command": command, "description": "run it" }),
    )
}

/// The command string Copilot runs for `event`.
fn command(p: &Project, event: &str) -> String {
    json_file(p, HOOKS)["hooks"][event][0]["bash"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn fire_event(p: &Project, event: &str, path: &str, extra: &[(&str, &str)], stdin: &str) -> Run {
    let root = p.path(".");
    let mut env = vec![
        ("COPILOT_CLI", "1"),
        ("COPILOT_PROJECT_DIR", root.to_str().unwrap()),
    ];
    env.extend_from_slice(extra);
    sh_c(&command(p, event), &root, path, &env, stdin)
}

fn fire(p: &Project, stdin: &str) -> Run {
    fire_event(p, "preToolUse", &path_with_hookc(), &[], stdin)
}

fn output(run: &Run) -> Value {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {:?} {}", run.stdout, run.stderr))
}

fn built() -> Project {
    let p = bundled_for("\"copilot\"");
    p.build();
    p
}

#[test]
fn the_hooks_file_is_copilots_native_format() {
    let p = built();
    let hooks = json_file(&p, HOOKS);
    assert_eq!(hooks["version"], 1);
    let mut entry = hooks["hooks"]["preToolUse"][0].clone();
    // The Windows command (tests/cli/windows.rs).
    let powershell = entry.as_object_mut().unwrap().remove("powershell");
    assert!(powershell.is_some_and(|p| p.is_string()));
    assert_eq!(
        &entry,
        &json!({
            "type": "command",
            "matcher": "^(?:apply_patch|bash|create|edit|powershell|str_replace_editor|view|write_bash|write_powershell)$",
            "bash": concat!(
                "hookc_shim=\"${COPILOT_PROJECT_DIR:-.}\"/.hookc/copilot/pre-tool.sh; ",
                "[ -r \"$hookc_shim\" ] || { echo '{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":",
                "\"hookc could not read .hookc/copilot/pre-tool.sh, so the call was refused. ",
                "Run hookc build in the project.\"}'; exit 2; }; . \"$hookc_shim\"",
            ),
            "timeoutSec": 10
        })
    );
    assert_eq!(hooks["hooks"].as_object().unwrap().len(), 1);
}

#[test]
fn hookc_owns_only_its_own_file_in_github_hooks() {
    let p = built();
    let theirs =
        "{ \"version\": 1, \"hooks\": { \"sessionStart\": [ { \"bash\": \"echo hi\" } ] } }\n";
    p.write(".github/hooks/team.json", theirs);
    let first = p.read(HOOKS);
    let again = p.build();
    assert_eq!(p.read(HOOKS), first);
    assert!(
        again.stdout.contains("(0 files changed"),
        "{}",
        again.stdout
    );
    p.write("policy.kdl", "targets \"copilot\"\n");
    p.build();
    assert!(!p.exists(HOOKS));
    assert!(!p.exists(".hookc/copilot/pre-tool.sh"));
    assert_eq!(p.read(".github/hooks/team.json"), theirs);
}

#[test]
fn an_unrelated_command_gets_no_objection() {
    let p = built();
    let run = fire(&p, &bash(&p, "cargo test"));
    assert_eq!(
        (run.status, run.stdout.as_str(), run.stderr.as_str()),
        (0, "", "")
    );
}

#[test]
fn a_denial_is_json_on_stdout_and_exit_2() {
    let p = built();
    let run = fire(&p, &bash(&p, "git push --force origin main"));
    assert_eq!(run.status, 2);
    let out = output(&run);
    assert_eq!(out["permissionDecision"], "deny");
    assert!(
        out["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .starts_with("Do not force-push")
    );
    assert_eq!(out.as_object().unwrap().len(), 2);
}

#[test]
fn tool_args_as_a_json_string_are_read_too() {
    let p = built();
    let stdin = payload(&p, "bash", json!("{\"command\":\"git push -f\"}"));
    let run = fire(&p, &stdin);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert_eq!(output(&run)["permissionDecision"], "deny");
}

#[test]
fn file_tools_are_checked_by_path_and_ask_is_asked() {
    let p = built();
    let view = fire(&p, &payload(&p, "view", json!({"path": "/repo/.env"})));
    assert_eq!(view.status, 2);
    let example = fire(&p, &payload(&p, "view", json!({"path": ".env.example"})));
    assert_eq!((example.status, example.stdout.as_str()), (0, ""));
    let edit = fire(
        &p,
        &payload(
            &p,
            "edit",
            json!({"path": "migrations/0001_init.sql", "old_str": "a", "new_str": "b"}),
        ),
    );
    assert_eq!(edit.status, 0, "{}", edit.stderr);
    let out = output(&edit);
    assert_eq!(out["permissionDecision"], "ask");
    assert!(
        out["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .contains("add a new migration")
    );
    let viewer = fire(
        &p,
        &payload(
            &p,
            "str_replace_editor",
            json!({"command": "view", "path": "config/.env.prod"}),
        ),
    );
    assert_eq!(viewer.status, 2, "a view through the editor is a read");
}

#[test]
fn typing_into_a_running_shell_is_a_shell_command() {
    let p = built();
    let run = fire(
        &p,
        &payload(
            &p,
            "write_bash",
            json!({"shellId": "0", "input": "git push --force\n"}),
        ),
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
}

#[test]
fn several_guards_give_every_reason() {
    let p = built();
    let run = fire(&p, &bash(&p, "git reset --hard && git push -f"));
    assert_eq!(run.status, 2);
    let reason = output(&run)["permissionDecisionReason"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(reason.starts_with("2 policy rules apply"), "{reason}");
}

#[test]
fn allow_context_and_stop_answers() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"
targets "copilot"
guard "tests-are-fine" {
    command "cargo" "test"
    allow
}
guard "remind" {
    command "cargo" "publish"
    context "Bump the version first."
}
guard "no-early-stop" {
    event "stop"
    block "Run the tests before you stop."
}
"#,
    );
    let built = p.build();
    assert!(
        built
            .stderr
            .contains("cannot approve a call without overriding"),
        "{}",
        built.stderr
    );
    // An `allow` would override the user's `--deny-tool` rules too: the
    // hook says nothing, and Copilot's own rules decide.
    let allow = fire(&p, &bash(&p, "cargo test"));
    assert_eq!((allow.status, allow.stdout.as_str()), (0, ""), "{allow:?}");
    let context = fire(&p, &bash(&p, "cargo publish"));
    assert_eq!(
        output(&context),
        json!({"additionalContext": "Bump the version first."})
    );
    let stop = json!({"sessionId": "s", "timestamp": 1, "cwd": "/repo",
        "transcriptPath": "/t", "stopReason": "end_turn", "stop_hook_active": false})
    .to_string();
    let run = fire_event(&p, "agentStop", &path_with_hookc(), &[], &stop);
    assert_eq!(run.status, 0);
    assert_eq!(
        output(&run),
        json!({"decision": "block", "reason": "Run the tests before you stop."})
    );
}

#[test]
fn garbage_stdin_is_refused_with_fixed_json_the_model_can_read() {
    let p = built();
    let run = fire(&p, "this is not a payload");
    assert_eq!(run.status, 2);
    let out = output(&run);
    assert_eq!(out["permissionDecision"], "deny");
    assert!(
        out["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .contains("hookc could not check this call")
    );
    assert!(run.stderr.contains("not JSON"), "{}", run.stderr);
}

#[test]
fn a_missing_or_crashing_hookc_is_refused_the_same_way() {
    let p = built();
    let missing = fire_event(&p, "preToolUse", BARE_PATH, &[], &bash(&p, "ls"));
    assert_eq!(missing.status, 2);
    assert_eq!(output(&missing)["permissionDecision"], "deny");
    assert!(
        missing.stderr.contains("the hookc program was not found"),
        "{}",
        missing.stderr
    );
    let fake = fake_hookc(&p, "crash", "kill -9 $$");
    let killed = fire_event(
        &p,
        "preToolUse",
        BARE_PATH,
        &[("HOOKC_BIN", fake.to_str().unwrap())],
        &bash(&p, "ls"),
    );
    assert_eq!(killed.status, 2);
    assert_eq!(output(&killed)["permissionDecision"], "deny");
}

#[test]
fn the_command_works_without_copilot_project_dir() {
    let p = built();
    let root = p.path(".");
    let run = sh_c(
        &command(&p, "preToolUse"),
        &root,
        &path_with_hookc(),
        &[],
        &bash(&p, "git push -f"),
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
}

#[test]
fn what_copilot_cannot_do_is_a_warning_on_the_guard() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"
targets "copilot"
guard "no-secrets-in-prompts" {
    event "prompt"
    regex "BEGIN PRIVATE KEY"
    deny "Do not paste private keys; reference the key file instead."
}
guard "check-output" {
    event "post-tool"
    tool "shell"
    regex "FAILED"
    block "A command failed; fix it before going on."
}
"#,
    );
    let run = p.build();
    for text in [
        "copilot: Copilot's userPromptSubmitted hooks cannot refuse a prompt",
        "copilot: Copilot's postToolUse hooks cannot block",
    ] {
        assert!(run.stderr.contains(text), "{text}\n{}", run.stderr);
    }
}

/// A `rewrite` guard hands Copilot `modifiedArgs`: the shell call's own
/// arguments with the policy's command (every other key kept), and the note
/// as `additionalContext`, with no `permissionDecision`: Copilot then judges
/// the changed call by its own rules, which an `allow` would skip (see
/// src/harness/copilot.rs). A call of another tool is not changed: it is
/// refused with the command to run.
#[test]
fn a_rewrite_hands_copilot_the_changed_arguments_without_a_decision() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r##"targets "copilot"
guard "pnpm" {
    command "npm" "install"
    rewrite "hookc ran pnpm, which this project uses, instead of npm." {
        replace #"^npm "# "pnpm "
    }
    example "npm install" expect="rewrite"
}
guard "ripgrep" {
    command "grep"
    rewrite "hookc ran rg, which this project uses, instead of grep." {
        replace #"^grep "# "rg "
    }
    example "grep -n TODO notes.txt" expect="rewrite"
}
"##,
    );
    p.build();
    let run = fire(&p, &bash(&p, "npm install"));
    assert_eq!(run.status, 0, "{run:?}");
    let answer = output(&run);
    assert_eq!(
        answer,
        json!({
            "modifiedArgs": { "command": "pnpm install", "description": "run it" },
            "additionalContext": "hookc ran pnpm, which this project uses, instead of npm."
        }),
        "{answer}"
    );
    // Typed into a shell that may stand in any folder, where `npm install`
    // would run scripts of a package.json hookc cannot find: `grep` instead.
    let run = fire(
        &p,
        &payload(
            &p,
            "write_bash",
            json!({ "shellId": "1", "input": "grep -n TODO notes.txt\n" }),
        ),
    );
    let answer = output(&run);
    assert_eq!(answer["permissionDecision"], "deny", "{answer}");
    assert!(answer.get("modifiedArgs").is_none(), "{answer}");
    assert!(
        answer["permissionDecisionReason"]
            .as_str()
            .is_some_and(|r| r.contains("rg -n TODO notes.txt")),
        "{answer}"
    );
}

/// `hookc guard` run by a stand-in `copilot` with `flags` on its command
/// line, which hookc reads as Copilot CLI's, and `HOME` inside the project.
fn guard_under_copilot(p: &Project, flags: &[&str], stdin: &str) -> Run {
    crate::support::guard_under(
        p,
        "copilot",
        ("copilot", ".hookc/policy.json"),
        flags,
        &[],
        stdin,
    )
}

/// On Linux a line hookc cannot read runs under `hookc exec`: Copilot CLI
/// takes `modifiedArgs` without a decision and judges the changed command
/// by its own rules, so hookc hands the line over only where those rules
/// would have judged it alike (see src/harness/copilot_permissions.rs).
#[test]
fn a_line_hookc_cannot_read_is_handed_over_where_copilots_rules_allow() {
    if hookc::runtime::supervised::available().is_err() {
        return;
    }
    let p = built();
    std::fs::create_dir_all(p.path("home")).unwrap();
    let call = bash(&p, "c=$(printf 'gi%s' t); $c push --force origin main");

    let run = guard_under_copilot(&p, &["-p", "go", "--yolo"], &call);
    assert_eq!(run.status, 0, "{run:?}");
    let answer = output(&run);
    assert!(answer.get("permissionDecision").is_none(), "{answer}");
    let args = &answer["modifiedArgs"];
    assert_eq!(args["description"], "run it", "{answer}");
    let command = args["command"].as_str().unwrap();
    assert!(
        command.contains("' exec --harness copilot --policy '"),
        "{command}"
    );
    crate::support::assert_supervised_push_is_stopped(command, p.dir.path());

    for (flags, why) in [
        (
            &["--yolo", "--deny-tool", "shell(git push)"][..],
            "`--deny-tool shell(git push)` may refuse it",
        ),
        (
            &["--allow-all", "--deny-url=evil.example"],
            "`--deny-url evil.example`",
        ),
        (
            &["--allow-tool", "shell(bash)"],
            "would approve it without asking",
        ),
        (&["-p", "go", "--allow-all-tools"], "--allow-all-paths"),
        (&["--allow-all-tools"], "--allow-all-paths"),
        (&["-p", "go", "--allow-all-paths"], "--allow-all-tools"),
    ] {
        let run = guard_under_copilot(&p, flags, &call);
        let answer = output(&run);
        assert_eq!(
            (run.status, &answer["permissionDecision"]),
            (2, &json!("deny")),
            "{flags:?}: {answer}"
        );
        assert!(answer.get("modifiedArgs").is_none(), "{flags:?}: {answer}");
        let reason = answer["permissionDecisionReason"].as_str().unwrap();
        assert!(reason.contains(why), "{flags:?}: {reason}");
    }

    // What the user's settings deny, too.
    p.write(
        "home/.copilot/config.json",
        "// Copilot CLI's own\n{\"deniedUrls\": [\"evil.example\"]}\n",
    );
    let run = guard_under_copilot(&p, &["--yolo"], &call);
    let reason = output(&run)["permissionDecisionReason"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(reason.contains("`deniedUrls` in"), "{reason}");
}
