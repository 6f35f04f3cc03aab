//! OpenHands: `.openhands/hooks.json`, the hook command run the way the
//! OpenHands CLI runs it (`/bin/sh -c` in its work folder, with
//! `OPENHANDS_PROJECT_DIR` set), its answer read the way OpenHands reads it
//! (`Harness::outcome`), and what a project file hides.

use std::path::Path;
use std::process::Command;

use hookc::ir::HarnessId;
use serde_json::{Value, json};

use crate::support::{BARE_PATH, Project, Run, json_file, path_with_hookc, pre_tool_outcome, run};

const POLICY: &str = r#"targets "openhands"
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
    example tool="read" path=".env" expect="deny"
    example tool="edit" path="README.md" expect="allow"
}
"#;

fn built() -> Project {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.build();
    p
}

/// A PreToolUse payload as the OpenHands 1.16 CLI sends it.
fn pre_tool(root: &Path, tool: &str, input: Value) -> String {
    json!({
        "event_type": "PreToolUse",
        "tool_name": tool,
        "tool_input": input,
        "tool_response": null,
        "message": null,
        "session_id": "7c63f2d8",
        "working_dir": root,
        "metadata": {},
    })
    .to_string()
}

/// hookc's PreToolUse command, run as OpenHands runs it.
fn hook(p: &Project, path: &str, stdin: &str) -> Run {
    let hooks = json_file(p, ".openhands/hooks.json");
    let command = hooks["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    let root = p.dir.path();
    run(
        Command::new("/bin/sh")
            .arg("-c")
            .arg(command)
            .current_dir(root)
            .env_clear()
            .env("PATH", path)
            .env("HOME", root)
            .env("OPENHANDS_PROJECT_DIR", root),
        Some(stdin.as_bytes()),
    )
}

fn outcome(r: &Run) -> hookc::harness::Outcome {
    pre_tool_outcome(HarnessId::OpenHands, r)
}

#[test]
fn the_file_holds_only_events_openhands_knows_and_a_whole_number_timeout() {
    let p = built();
    let hooks = json_file(&p, ".openhands/hooks.json");
    // Another event, or a timeout that is not a whole number, stops the CLI.
    let events: Vec<&String> = hooks["hooks"].as_object().unwrap().keys().collect();
    assert_eq!(events, ["PreToolUse"]);
    let group = &hooks["hooks"]["PreToolUse"][0];
    assert_eq!(group["hooks"][0]["timeout"], json!(7));
    let matcher = group["matcher"].as_str().unwrap();
    let re = regex::Regex::new(matcher).unwrap();
    for tool in ["terminal", "file_editor"] {
        assert!(re.is_match(tool), "{matcher}");
    }
}

#[test]
fn the_hook_refuses_with_exit_2_and_the_file_editor_is_read_by_its_command() {
    let p = built();
    let root = p.dir.path();
    let terminal = |command: &str| {
        pre_tool(
            root,
            "terminal",
            json!({"command": command, "is_input": false, "timeout": null, "reset": false, "kind": "TerminalAction"}),
        )
    };
    let push = hook(&p, &path_with_hookc(), &terminal("git push -f"));
    assert_eq!(
        (push.status, push.stdout.as_str()),
        (2, ""),
        "{}",
        push.stderr
    );
    let o = outcome(&push);
    assert!(!o.proceeds);
    assert!(o.model_reads.unwrap().starts_with("Action rejected: "));

    let editor = |command: &str, file: &str| {
        let r = hook(
            &p,
            &path_with_hookc(),
            &pre_tool(
                root,
                "file_editor",
                json!({"command": command, "path": root.join(file), "kind": "FileEditorAction"}),
            ),
        );
        outcome(&r).proceeds
    };
    assert!(!editor("view", ".env"));
    assert!(!editor("str_replace", ".env"));
    assert!(editor("view", "README.md"));

    let fine = hook(&p, &path_with_hookc(), &terminal("git push"));
    assert_eq!(
        (fine.status, fine.stdout.as_str()),
        (0, ""),
        "{}",
        fine.stderr
    );

    let lost = hook(&p, BARE_PATH, &terminal("ls"));
    assert_eq!(lost.status, 2);
    assert!(
        outcome(&lost)
            .model_reads
            .unwrap()
            .contains("hookc could not check this call")
    );
}

#[test]
fn doctor_says_the_project_file_hides_the_users() {
    let p = built();
    let doctor = |home: &Path| {
        let r = run(
            Command::new(env!("CARGO_BIN_EXE_hookc"))
                .arg("doctor")
                .current_dir(p.dir.path())
                .env("HOME", home),
            None,
        );
        format!("{}{}", r.stdout, r.stderr)
    };
    let home = p.path("home");
    std::fs::create_dir_all(home.join(".openhands")).unwrap();
    assert!(!doctor(&home).contains("is not read in this project"));
    std::fs::write(home.join(".openhands/hooks.json"), "{\"hooks\": {}}").unwrap();
    let out = doctor(&home);
    assert!(
        out.contains(".openhands/hooks.json is not read in this project"),
        "{out}"
    );
}
