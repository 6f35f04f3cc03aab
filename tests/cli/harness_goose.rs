//! Goose: hookc's project plugin `.agents/plugins/hookc/hooks/hooks.json`,
//! its hook command run the way Goose's source runs it (`sh -c` in Goose's
//! working directory, with `PLUGIN_ROOT` set to the plugin's folder), on
//! payloads shaped as Goose's `HookContext`, and the answer read the way
//! Goose's `classify_output` reads it (`Harness::outcome`). None of this has
//! met a real Goose (see its page).

use std::path::Path;
use std::process::Command;

use hookc::ir::HarnessId;
use serde_json::{Value, json};

use crate::support::{BARE_PATH, Project, Run, json_file, path_with_hookc, pre_tool_outcome, run};

const HOOKS: &str = ".agents/plugins/hookc/hooks/hooks.json";

const POLICY: &str = r#"targets "goose"
timeout 7
guard "no-force-push" {
    command "git" "push" { flag "-f" "--force"; }
    deny "Push without --force, or open a pull request."
    example "git push --force" expect="deny"
    example "git push" expect="allow"
}
guard "no-env" {
    tool "edit" "write"
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

/// A PreToolUse payload as Goose's `HookContext` serialises it.
fn pre_tool(root: &Path, tool: &str, input: Value) -> String {
    json!({
        "event": "PreToolUse",
        "session_id": "20261206_1",
        "matcher_context": tool,
        "tool_call_id": "toolu_01",
        "tool_name": tool,
        "tool_input": input,
        "working_dir": root,
    })
    .to_string()
}

/// hookc's PreToolUse command, run as Goose runs it: `sh -c` in its own
/// working directory (`cwd`), with `PLUGIN_ROOT` set.
fn hook(p: &Project, cwd: &Path, path: &str, stdin: &str) -> Run {
    let hooks = json_file(p, HOOKS);
    let command = hooks["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    run(
        Command::new("sh")
            .arg("-c")
            .arg(command)
            .current_dir(cwd)
            .env_clear()
            .env("PATH", path)
            .env("HOME", p.dir.path())
            .env("PLUGIN_ROOT", p.dir.path().join(".agents/plugins/hookc")),
        Some(stdin.as_bytes()),
    )
}

fn outcome(r: &Run) -> hookc::harness::Outcome {
    pre_tool_outcome(HarnessId::Goose, r)
}

#[test]
fn the_plugin_blocks_on_failure_and_matches_goose_s_names_anchored() {
    let p = built();
    let hooks = json_file(&p, HOOKS);
    let group = &hooks["hooks"]["PreToolUse"][0];
    let handler = &group["hooks"][0];
    // Exactly this spelling: another value makes Goose skip the whole file.
    assert_eq!(handler["on_failure"], "block");
    assert_eq!(handler["type"], "command");
    assert_eq!(handler["timeout"], json!(7));
    let matcher = group["matcher"].as_str().unwrap();
    let re = regex::Regex::new(matcher).unwrap();
    for tool in [
        "developer__shell",
        "developer__edit",
        "developer__write",
        "summon__delegate",
        "code_execution__execute_typescript",
    ] {
        assert!(re.is_match(tool), "{tool}: {matcher}");
    }
    // Unanchored in Goose, `developer__shell` would also fire for this.
    assert!(!re.is_match("developer__shell_history"), "{matcher}");
}

#[test]
fn the_hook_refuses_with_exit_2_and_allows_in_silence() {
    let p = built();
    let root = p.dir.path().to_owned();
    let push = hook(
        &p,
        &root,
        &path_with_hookc(),
        &pre_tool(&root, "developer__shell", json!({"command": "git push -f"})),
    );
    assert_eq!(
        (push.status, push.stdout.as_str()),
        (2, ""),
        "{}",
        push.stderr
    );
    let o = outcome(&push);
    assert!(!o.proceeds);
    assert!(o.model_reads.unwrap().contains("Push without --force"));

    // Any text on stdout with exit 0 would be no decision, which
    // `on_failure: block` refuses: an allow is silence.
    let ls = hook(
        &p,
        &root,
        &path_with_hookc(),
        &pre_tool(&root, "developer__shell", json!({"command": "ls"})),
    );
    assert_eq!(
        (ls.status, ls.stdout.as_str(), ls.stderr.as_str()),
        (0, "", "")
    );
    assert!(outcome(&ls).proceeds);

    // `path` is relative to the session's folder.
    let env = hook(
        &p,
        &root,
        &path_with_hookc(),
        &pre_tool(
            &root,
            "developer__edit",
            json!({"path": ".env", "before": "A=1", "after": "A=2"}),
        ),
    );
    assert_eq!(env.status, 2, "{}", env.stderr);
    let readme = hook(
        &p,
        &root,
        &path_with_hookc(),
        &pre_tool(
            &root,
            "developer__write",
            json!({"path": "README.md", "content": "x"}),
        ),
    );
    assert_eq!(readme.status, 0, "{}", readme.stderr);

    // A sub-agent's tools run without hooks: refused, with what to do.
    let agent = hook(
        &p,
        &root,
        &path_with_hookc(),
        &pre_tool(
            &root,
            "summon__delegate",
            json!({"instructions": "push it"}),
        ),
    );
    assert_eq!(agent.status, 2, "{}", agent.stderr);
    assert!(
        agent.stderr.contains("one call at a time"),
        "{}",
        agent.stderr
    );
}

#[test]
fn the_hook_finds_its_shim_from_another_folder_and_refuses_without_hookc() {
    let p = built();
    let root = p.dir.path().to_owned();
    let ls = pre_tool(
        &root,
        "developer__shell",
        json!({"command": "git push --force"}),
    );
    // Goose's own working directory need not be the root: the shim is
    // found through PLUGIN_ROOT.
    let elsewhere = tempfile::tempdir().unwrap();
    let r = hook(&p, elsewhere.path(), &path_with_hookc(), &ls);
    assert_eq!(r.status, 2, "{}", r.stderr);
    assert!(r.stderr.contains("Push without --force"), "{}", r.stderr);

    let r = hook(&p, &root, BARE_PATH, &ls);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr.starts_with("hookc could not check this call"),
        "{}",
        r.stderr
    );
}

#[test]
fn doctor_fails_when_a_settings_file_switches_the_plugin_off() {
    let p = built();
    p.write(
        ".config/goose/settings.json",
        "{\"disabledPlugins\": [\"hookc\"]}\n",
    );
    let r = p.hookc(&["doctor"]);
    assert_ne!(r.status, 0, "{}", r.stdout);
    assert!(
        r.stdout.contains("switches hookc's plugin off"),
        "{}",
        r.stdout
    );
}
