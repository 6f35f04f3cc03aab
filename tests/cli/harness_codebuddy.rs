//! CodeBuddy Code: `.codebuddy/settings.json`, the hook command run the way
//! CodeBuddy runs it (the user's `$SHELL -c` in its folder, with
//! `CODEBUDDY_PROJECT_DIR` set), under every shell here, its answer read the
//! way CodeBuddy reads it (`Harness::outcome`), and `hookc doctor` on hooks
//! that could outvote hookc's.

use std::path::Path;
use std::process::Command;

use hookc::ir::HarnessId;
use serde_json::{Value, json};

use crate::support::{
    BARE_PATH, Project, Run, json_file, path_with_hookc, pre_tool_outcome, run, user_shells,
};

const POLICY: &str = r#"targets "codebuddy"
timeout 7
guard "no-force-push" {
    command "git" "push" { flag "-f" "--force"; }
    deny "Push without --force, or open a pull request."
    example "git push --force" expect="deny"
    example "git push" expect="allow"
}
guard "no-env" {
    tool "read" "edit"
    path ".env"
    deny "Do not touch .env; ask the user to."
    example tool="edit" path=".env" expect="deny"
    example tool="edit" path="README.md" expect="allow"
}
"#;

fn built() -> Project {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.build();
    p
}

/// A PreToolUse payload with the keys CodeBuddy Code 2.117.0 sends.
fn pre_tool(cwd: &Path, tool: &str, input: Value) -> String {
    json!({
        "session_id": "5d1c",
        "transcript_path": "/home/u/.codebuddy/projects/p/5d1c.jsonl",
        "cwd": cwd,
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": input,
        "call_id": "call_7f3a",
        "tool_use_id": "call_7f3a",
        "agent_type": "cli",
        "permission_mode": "bypassPermissions",
        "client": "CLI",
        "version": "2.117.0",
    })
    .to_string()
}

/// The PreToolUse command of `.codebuddy/settings.json`, run as CodeBuddy
/// runs it with `shell` as the user's shell.
fn hook(p: &Project, shell: &str, path: &str, stdin: &str) -> Run {
    run(&mut hook_command(p, shell, path), Some(stdin.as_bytes()))
}

fn hook_command(p: &Project, shell: &str, path: &str) -> Command {
    let settings = json_file(p, ".codebuddy/settings.json");
    let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    let root = p.dir.path();
    let mut hook = Command::new(shell);
    hook.arg("-c")
        .arg(command)
        .current_dir(root)
        .env_clear()
        .env("PATH", path)
        .env("HOME", root)
        .env("SHELL", shell)
        .env("CODEBUDDY_PROJECT_DIR", root)
        .env("CLAUDE_PROJECT_DIR", root);
    hook
}

fn outcome(r: &Run) -> hookc::harness::Outcome {
    pre_tool_outcome(HarnessId::CodeBuddy, r)
}

#[test]
fn the_settings_hold_anchored_hooks_with_a_timeout_in_seconds() {
    let p = built();
    let settings = json_file(&p, ".codebuddy/settings.json");
    let group = &settings["hooks"]["PreToolUse"][0];
    assert_eq!(
        group["matcher"],
        "^(?:Bash|Edit|Glob|Grep|MultiEdit|NotebookEdit|PowerShell|Read|Write)$"
    );
    let handler = &group["hooks"][0];
    assert_eq!(handler["type"], "command");
    assert_eq!(handler["timeout"], 7, "CodeBuddy's timeout is seconds");
    let command = handler["command"].as_str().unwrap();
    assert!(command.starts_with("/bin/sh -c '"), "{command}");
}

#[test]
fn under_every_shell_the_hook_refuses_in_both_channels_and_lets_the_rest_through() {
    let p = built();
    let root = p.dir.path();
    let shells = user_shells();
    assert!(shells.len() >= 2, "{shells:?}");
    for shell in shells {
        let push = hook(
            &p,
            shell,
            &path_with_hookc(),
            &pre_tool(root, "Bash", json!({"command": "git push -f"})),
        );
        assert_eq!(push.status, 2, "{shell}: {}", push.stderr);
        let json: Value = serde_json::from_str(push.stdout.trim()).unwrap();
        assert_eq!(json["hookSpecificOutput"]["permissionDecision"], "deny");
        let o = outcome(&push);
        assert!(!o.proceeds);
        assert!(o.model_reads.unwrap().contains("Push without --force"));

        let env = hook(
            &p,
            shell,
            &path_with_hookc(),
            &pre_tool(root, "Read", json!({"file_path": ".env"})),
        );
        let o = outcome(&env);
        assert!(!o.proceeds, "{shell}: {}", env.stderr);
        assert!(o.model_reads.unwrap().contains("Do not touch .env"));

        let fine = hook(
            &p,
            shell,
            &path_with_hookc(),
            &pre_tool(root, "Bash", json!({"command": "git push"})),
        );
        assert_eq!(
            (fine.status, fine.stdout.as_str()),
            (0, ""),
            "{shell}: {}",
            fine.stderr
        );
        assert!(outcome(&fine).proceeds);

        // Without hookc: refused in both channels, so that another hook's
        // JSON cannot let it through on the exit status alone.
        let lost = hook(
            &p,
            shell,
            BARE_PATH,
            &pre_tool(root, "Bash", json!({"command": "ls"})),
        );
        assert_eq!(lost.status, 2, "{shell}");
        let o = outcome(&lost);
        assert!(!o.proceeds, "{shell}");
        assert!(
            o.model_reads
                .unwrap()
                .contains("hookc could not check this call")
        );
    }
}

/// Hooks of the local settings file run after hookc's, and the last JSON
/// answer wins: one that says `allow` lets a refused call through.
#[test]
fn doctor_fails_local_pre_tool_hooks_that_could_outvote_hookcs() {
    let p = built();
    let clean = p.hookc(&["doctor"]);
    assert!(
        !clean
            .stdout
            .contains("settings.local.json has PreToolUse hooks"),
        "{}",
        clean.stdout
    );
    p.write(
        ".codebuddy/settings.local.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}}"#,
    );
    let r = p.hookc(&["doctor"]);
    let out = format!("{}{}", r.stdout, r.stderr);
    assert_ne!(r.status, 0, "{out}");
    assert!(
        out.contains(".codebuddy/settings.local.json has PreToolUse hooks of its own"),
        "{out}"
    );
}

/// CodeBuddy takes a hook's answer when it sees the process end, and then
/// throws away whatever it has not read from the hook's pipes (Node's
/// `exit`, not `close`). So the hook does not end before its answer has
/// been read: a harness that reads late still gets the reason, not a bare
/// "Blocked by PreToolUse hook".
#[cfg(target_os = "linux")]
#[test]
fn the_hook_ends_only_once_codebuddy_has_read_its_answer() {
    use std::io::Read;
    use std::os::unix::net::UnixStream;
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let p = built();
    let root = p.dir.path();
    for shell in user_shells() {
        // Node hands a child socket pairs for its pipes.
        let (mut out, child_out) = UnixStream::pair().unwrap();
        let (mut err, child_err) = UnixStream::pair().unwrap();
        let mut child = hook_command(&p, shell, &path_with_hookc())
            .stdin(Stdio::piped())
            .stdout(std::os::fd::OwnedFd::from(child_out))
            .stderr(std::os::fd::OwnedFd::from(child_err))
            .spawn()
            .unwrap();
        let payload = pre_tool(root, "Bash", json!({"command": "git push -f"}));
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), payload.as_bytes()).unwrap();
        // The answer is written long before this; the reader has not read it.
        let unread_until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < unread_until {
            assert!(
                child.try_wait().unwrap().is_none(),
                "{shell}: the hook ended before its answer was read"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        let mut answer = String::new();
        out.read_to_string(&mut answer).unwrap();
        let mut message = String::new();
        err.read_to_string(&mut message).unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(2), "{shell}: {message}");
        assert!(answer.contains("Push without --force"), "{shell}: {answer}");
    }
}

/// On Linux a line hookc cannot read runs under `hookc exec`: the hook
/// hands CodeBuddy the changed input with no decision, so that CodeBuddy
/// still judges the call as the model wrote it by the user's own rules.
/// Where CodeBuddy's shell is not a POSIX one (fish), it is refused.
#[test]
fn a_line_hookc_cannot_read_runs_supervised_with_the_users_rules_judging_it_as_written() {
    if hookc::runtime::supervised::available().is_err() {
        return;
    }
    let p = built();
    let root = p.dir.path();
    let line = "c=$(printf 'gi%s' t); $c push --force origin main";
    let call = pre_tool(
        root,
        "Bash",
        json!({"command": line, "description": "push"}),
    );
    let r = hook(&p, "/bin/bash", &path_with_hookc(), &call);
    assert_eq!(r.status, 0, "{r:?}");
    let o = outcome(&r);
    assert!(o.supervised(), "{o:?}");
    let answer: Value = serde_json::from_str(r.stdout.trim()).unwrap();
    let specific = &answer["hookSpecificOutput"];
    assert_eq!(specific["updatedInput"]["description"], "push", "{answer}");
    assert!(
        specific.get("permissionDecision").is_none(),
        "a decision would skip the user's rules: {answer}"
    );
    let command = specific["updatedInput"]["command"].as_str().unwrap();
    crate::support::assert_supervised_push_is_stopped(command, root);

    // CodeBuddy's own shell setting comes first.
    let r = run(
        hook_command(&p, "/bin/bash", &path_with_hookc()).env("CODEBUDDY_CODE_SHELL", "fish"),
        Some(call.as_bytes()),
    );
    assert_eq!(outcome(&r).word(), "blocks", "{r:?}");
    if Path::new("/usr/bin/fish").is_file() {
        let fish = hook(&p, "/usr/bin/fish", &path_with_hookc(), &call);
        let o = outcome(&fish);
        assert_eq!(o.word(), "blocks", "{fish:?}");
        assert!(
            o.model_reads
                .unwrap_or_default()
                .contains("not a POSIX shell"),
            "{fish:?}"
        );
    }
}
