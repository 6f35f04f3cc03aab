//! Crush: hookc's flat entry in the project's `crush.json`, the hook command
//! run the way Crush starts it (its interpreter execs the `/bin/sh` the
//! command names, in the session's working directory, which may be below
//! the project's root), and its answer read the way Crush reads it
//! (`Harness::outcome`). None of this has met a real Crush (see its page).

use std::path::Path;
use std::process::Command;

use hookc::ir::HarnessId;
use serde_json::{Value, json};

use crate::support::{BARE_PATH, Project, Run, json_file, path_with_hookc, pre_tool_outcome, run};

const POLICY: &str = r#"targets "crush"
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
guard "no-secrets" {
    tool "read"
    path "secrets/**"
    deny "Do not read secrets/; ask the user for what you need."
    example tool="read" path="secrets/key" expect="deny"
    example tool="read" path="key" expect="allow"
}
"#;

fn built() -> Project {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.build();
    p
}

/// A PreToolUse payload as Crush's source builds it.
fn pre_tool(cwd: &Path, tool: &str, input: Value) -> String {
    json!({
        "event": "PreToolUse",
        "session_id": "3f1c",
        "cwd": cwd,
        "tool_name": tool,
        "tool_input": input,
    })
    .to_string()
}

/// hookc's PreToolUse command, run in `cwd` as Crush runs it: the words
/// of the command, `/bin/sh -c SCRIPT`, started as a program.
fn hook(p: &Project, cwd: &Path, path: &str, stdin: &str) -> Run {
    let config = json_file(p, "crush.json");
    let command = config["hooks"]["PreToolUse"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    let script = command
        .strip_prefix("/bin/sh -c '")
        .and_then(|s| s.strip_suffix('\''))
        .unwrap_or_else(|| panic!("not a /bin/sh -c '…' command: {command}"))
        .replace("'\\''", "'");
    run(
        Command::new("/bin/sh")
            .arg("-c")
            .arg(script)
            .current_dir(cwd)
            .env_clear()
            .env("PATH", path)
            .env("HOME", p.dir.path())
            .env("CRUSH_PROJECT_DIR", cwd)
            .env("CRUSH_CWD", cwd),
        Some(stdin.as_bytes()),
    )
}

fn outcome(r: &Run) -> hookc::harness::Outcome {
    pre_tool_outcome(HarnessId::Crush, r)
}

#[test]
fn the_entry_is_flat_and_merges_into_the_project_s_crush_json() {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    let mine = r#"{
  "providers": { "local": { "type": "openai-compat", "base_url": "http://127.0.0.1:8080/v1" } },
  "hooks": { "PreToolUse": [ { "name": "mine", "matcher": "^bash$", "command": "./check.sh" } ] }
}
"#;
    p.write("crush.json", mine);
    p.build();
    let config = json_file(&p, "crush.json");
    assert_eq!(config["providers"]["local"]["type"], "openai-compat");
    let entries = config["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(entries.len(), 2, "{config:#}");
    assert_eq!(entries[0]["name"], "mine");
    let hookc = &entries[1];
    // No `type` and no nested `hooks` list: Crush wants `command` at the top
    // of each entry, and refuses to start without it.
    let keys: Vec<&String> = hookc.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["name", "command", "timeout", "matcher"], "{hookc}");
    assert_eq!(hookc["timeout"], json!(7));
    assert!(
        hookc["command"]
            .as_str()
            .unwrap()
            .starts_with("/bin/sh -c '"),
        "{hookc}"
    );
    // Anchored: Go's unanchored match would let `bash` fire for
    // `mcp_x_bash`. The sub-agents are in it: hookc refuses them.
    let re = regex::Regex::new(hookc["matcher"].as_str().unwrap()).unwrap();
    for tool in ["bash", "view", "edit", "agent", "agentic_fetch"] {
        assert!(re.is_match(tool), "{tool}: {hookc}");
    }
    assert!(!re.is_match("mcp_x_bash"));

    // Taken out of `targets`, hookc's entry goes and the user's stays.
    p.write(
        "policy.kdl",
        &POLICY.replace("targets \"crush\"", "targets \"claude\""),
    );
    p.build();
    let config = json_file(&p, "crush.json");
    assert_eq!(config["hooks"]["PreToolUse"].as_array().unwrap().len(), 1);
    assert_eq!(config["hooks"]["PreToolUse"][0]["name"], "mine");
}

#[test]
fn the_hook_refuses_with_exit_2_from_any_folder_of_the_project() {
    let p = built();
    let root = p.dir.path().to_owned();
    std::fs::create_dir_all(root.join("src/deep")).unwrap();
    for cwd in [root.clone(), root.join("src/deep")] {
        let bash = |command: &str| pre_tool(&cwd, "bash", json!({"command": command}));
        let push = hook(&p, &cwd, &path_with_hookc(), &bash("git push --force"));
        assert_eq!(push.status, 2, "{}: {}", cwd.display(), push.stderr);
        let o = outcome(&push);
        assert!(!o.proceeds);
        assert!(
            o.model_reads
                .unwrap()
                .starts_with("Tool call blocked by hook. Reason: Push without --force"),
            "{}",
            push.stderr
        );
        let ls = hook(&p, &cwd, &path_with_hookc(), &bash("ls"));
        assert_eq!(
            (ls.status, ls.stderr.as_str()),
            (0, ""),
            "{}",
            cwd.display()
        );
        // A path is the project's, whatever the working directory.
        let env = hook(
            &p,
            &cwd,
            &path_with_hookc(),
            &pre_tool(&cwd, "view", json!({"file_path": root.join(".env")})),
        );
        assert_eq!(env.status, 2, "{}", env.stderr);
    }

    // Relative paths are the working directory's, as Crush resolves them;
    // a search reads what its filter names.
    let deep = root.join("src/deep");
    for (tool, input) in [
        ("view", json!({"file_path": "../../.env"})),
        (
            "grep",
            json!({"pattern": "TOKEN", "path": "../..", "include": ".env"}),
        ),
        ("glob", json!({"pattern": "**/.env", "path": root})),
    ] {
        let r = hook(
            &p,
            &deep,
            &path_with_hookc(),
            &pre_tool(&deep, tool, input.clone()),
        );
        assert_eq!(r.status, 2, "{tool} {input}: {}", r.stderr);
    }
    // In `secrets/`, `key` is `secrets/key`, not the root's `key`.
    std::fs::create_dir_all(root.join("secrets")).unwrap();
    let secrets = root.join("secrets");
    let key = hook(
        &p,
        &secrets,
        &path_with_hookc(),
        &pre_tool(&secrets, "view", json!({"file_path": "key"})),
    );
    assert_eq!(key.status, 2, "{}", key.stderr);
    let readme = hook(
        &p,
        &deep,
        &path_with_hookc(),
        &pre_tool(&deep, "view", json!({"file_path": "../../README.md"})),
    );
    assert_eq!(readme.status, 0, "{}", readme.stderr);

    // A sub-agent's reads run without hooks: with a read guard, hookc
    // refuses the sub-agent and says what to do instead.
    let agent = hook(
        &p,
        &root,
        &path_with_hookc(),
        &pre_tool(&root, "agent", json!({"prompt": "summarise .env"})),
    );
    assert_eq!(agent.status, 2, "{}", agent.stderr);
    assert!(
        agent
            .stderr
            .contains("Do the work with your own tools instead of a sub-agent"),
        "{}",
        agent.stderr
    );
}

#[test]
fn without_hookc_or_outside_a_project_the_hook_refuses() {
    let p = built();
    let root = p.dir.path();
    let ls = pre_tool(root, "bash", json!({"command": "ls"}));
    let r = hook(&p, root, BARE_PATH, &ls);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr.starts_with("hookc could not check this call"),
        "{}",
        r.stderr
    );
    // The hook is in crush.json, so a session with no `.hookc` around it
    // has lost its guard: refused, not let through.
    let elsewhere = tempfile::tempdir().unwrap();
    let r = hook(&p, elsewhere.path(), &path_with_hookc(), &ls);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr.contains("no hookc project (.hookc)"),
        "{}",
        r.stderr
    );
}
