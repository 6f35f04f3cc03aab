//! Windsurf (from its documentation): `.windsurf/hooks.json`, the command
//! run in the workspace root, and exit 2 with stderr as the one refusal.

use std::process::Command;

use serde_json::{Value, json};

use crate::support::{BARE_PATH, Project, Run, json_file, path_with_hookc, run};

const POLICY: &str = r#"targets "windsurf"
guard "no-force-push" {
    command "git" "push" { flag "-f" "--force"; }
    deny "Push without --force, or open a pull request."
    example "git push --force" expect="deny"
    example "git push" expect="allow"
}
guard "no-env" {
    tool "edit"
    path ".env"
    deny "Do not change .env; ask the user to."
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

/// The command of `event` in `.windsurf/hooks.json`, run with `sh -c` in the
/// workspace root on a payload shaped as Windsurf's documentation shows.
fn hook(p: &Project, event: &str, info: Value, path: &str) -> Run {
    let hooks = json_file(p, ".windsurf/hooks.json");
    let command = hooks["hooks"][event][0]["command"]
        .as_str()
        .unwrap_or_else(|| panic!("no {event} hook: {hooks:#}"))
        .to_owned();
    let payload = json!({
        "agent_action_name": event,
        "trajectory_id": "t1",
        "execution_id": "e1",
        "timestamp": "2026-12-01T10:00:00Z",
        "tool_info": info,
    });
    run(
        Command::new("/bin/sh")
            .arg("-c")
            .arg(command)
            .current_dir(p.dir.path())
            .env_clear()
            .env("PATH", path)
            .env("HOME", p.dir.path()),
        Some(payload.to_string().as_bytes()),
    )
}

#[test]
fn each_kind_of_action_the_guards_name_gets_its_pre_hook() {
    let p = built();
    let hooks = json_file(&p, ".windsurf/hooks.json");
    let events: Vec<&String> = hooks["hooks"].as_object().unwrap().keys().collect();
    assert_eq!(events, ["pre_run_command", "pre_write_code"]);
    let entry = &hooks["hooks"]["pre_run_command"][0];
    assert_eq!(
        entry,
        &json!({"command": "sh .hookc/windsurf/pre-tool.sh", "show_output": true})
    );
}

#[test]
fn refusals_are_exit_2_with_the_reason_on_stderr() {
    let p = built();
    let root = p.dir.path().to_str().unwrap().to_owned();
    let push = hook(
        &p,
        "pre_run_command",
        json!({"command_line": "git push -f", "cwd": root}),
        &path_with_hookc(),
    );
    assert_eq!(push.status, 2, "{}", push.stderr);
    assert!(
        push.stderr.contains("Push without --force"),
        "{}",
        push.stderr
    );

    let env = hook(
        &p,
        "pre_write_code",
        json!({"file_path": format!("{root}/.env"), "edits": [{"old_string": "A=1", "new_string": "A=2"}]}),
        &path_with_hookc(),
    );
    assert_eq!(env.status, 2, "{}", env.stderr);
    assert!(env.stderr.contains("Do not change .env"), "{}", env.stderr);

    let fine = hook(
        &p,
        "pre_run_command",
        json!({"command_line": "git push", "cwd": root}),
        &path_with_hookc(),
    );
    assert_eq!((fine.status, fine.stderr.as_str()), (0, ""));

    let lost = hook(
        &p,
        "pre_run_command",
        json!({"command_line": "ls", "cwd": root}),
        BARE_PATH,
    );
    assert_eq!(lost.status, 2);
    assert!(
        lost.stderr.contains("hookc could not check this call"),
        "{}",
        lost.stderr
    );
}
