//! Devin CLI: hookc's hooks merged into `.devin/config.json`, the hook
//! command run the way Devin documents it (`sh -c`, with `DEVIN_PROJECT_DIR`
//! naming the project, from a working directory that need not be the
//! root), payloads with the fields captured from Devin CLI 3000.6.14 (no
//! `cwd`), and the answer read the way Devin's documentation says it reads
//! it (`Harness::outcome`). None of this has met a real Devin (see its page).

use std::path::Path;
use std::process::Command;

use hookc::ir::HarnessId;
use serde_json::{Value, json};

use crate::support::{BARE_PATH, Project, Run, json_file, path_with_hookc, pre_tool_outcome, run};

const POLICY: &str = r#"targets "devin"
timeout 7
guard "no-force-push" {
    command "git" "push" { flag "-f" "--force"; }
    deny "Push without --force, or open a pull request."
    example "git push --force" expect="deny"
    example "git push" expect="allow"
}
guard "no-env" {
    tool "read" "edit" "write"
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

/// A PreToolUse payload with the fields captured from Devin CLI 3000.6.14.
fn pre_tool(tool: &str, input: Value) -> String {
    json!({
        "session_id": "bramble-scorpion",
        "prompt_id": "7b0f4c1e-2d7a-4c55-9a51-3f1f0e6c2b10",
        "hook_event_name": "PreToolUse",
        "tool_use_id": "chatcmpl-tool-9f2e",
        "tool_name": tool,
        "tool_input": input,
    })
    .to_string()
}

/// hookc's PreToolUse command from `.devin/config.json`, run with `sh -c` in
/// `cwd`, with `DEVIN_PROJECT_DIR` set to `project` when given.
fn hook(p: &Project, cwd: &Path, project: Option<&Path>, path: &str, stdin: &str) -> Run {
    let config = json_file(p, ".devin/config.json");
    let command = config["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(command)
        .current_dir(cwd)
        .env_clear()
        .env("PATH", path)
        .env("HOME", p.dir.path());
    if let Some(project) = project {
        cmd.env("DEVIN_PROJECT_DIR", project)
            .env("CLAUDE_PROJECT_DIR", project);
    }
    run(&mut cmd, Some(stdin.as_bytes()))
}

fn outcome(r: &Run) -> hookc::harness::Outcome {
    pre_tool_outcome(HarnessId::Devin, r)
}

#[test]
fn the_hooks_merge_into_the_project_s_config_json_with_an_anchored_matcher() {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    let mine = r#"{
  // The team's permissions stay as they are.
  "permissions": { "allow": ["Read(**)", "Exec(git)"] },
  "hooks": { "PreToolUse": [ { "matcher": "exec", "hooks": [ { "type": "command", "command": "./check.sh" } ] } ] }
}
"#;
    p.write(".devin/config.json", mine);
    p.build();
    let text = p.read(".devin/config.json");
    assert!(
        text.contains("// The team's permissions stay as they are."),
        "{text}"
    );
    let config: Value = jsonc_value(&text);
    assert_eq!(config["permissions"]["allow"][1], "Exec(git)");
    let groups = config["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(groups.len(), 2, "{config:#}");
    assert_eq!(groups[0]["hooks"][0]["command"], "./check.sh");
    let hookc = &groups[1];
    assert_eq!(hookc["hooks"][0]["type"], "command");
    assert_eq!(hookc["hooks"][0]["timeout"], json!(7));
    // Devin's matchers are unanchored regexes: `write` alone would also
    // fire for `todo_write`, `exec` for any name holding it.
    let matcher = hookc["matcher"].as_str().unwrap();
    let re = regex::Regex::new(matcher).unwrap();
    for tool in ["exec", "read", "edit", "write", "grep", "glob"] {
        assert!(re.is_match(tool), "{tool}: {matcher}");
    }
    for tool in ["todo_write", "Bash", "exec_more"] {
        assert!(!re.is_match(tool), "{tool}: {matcher}");
    }

    // Taken out of `targets`, hookc's group goes and the user's stays.
    p.write(
        "policy.kdl",
        &POLICY.replace("targets \"devin\"", "targets \"claude\""),
    );
    p.build();
    let config = jsonc_value(&p.read(".devin/config.json"));
    assert_eq!(config["hooks"]["PreToolUse"].as_array().unwrap().len(), 1);
    assert_eq!(config["permissions"]["allow"][0], "Read(**)");
}

/// `text` (JSON with comments) as a value.
fn jsonc_value(text: &str) -> Value {
    let stripped: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    serde_json::from_str(&stripped).unwrap()
}

#[test]
fn the_hook_refuses_with_exit_2_from_any_folder_of_the_project() {
    let p = built();
    let root = p.dir.path().to_owned();
    std::fs::create_dir_all(root.join("src/deep")).unwrap();
    for cwd in [root.clone(), root.join("src/deep")] {
        let push = hook(
            &p,
            &cwd,
            Some(&root),
            &path_with_hookc(),
            &pre_tool(
                "exec",
                json!({"command": "git push --force", "shell_id": "main"}),
            ),
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

        let ls = hook(
            &p,
            &cwd,
            Some(&root),
            &path_with_hookc(),
            &pre_tool("exec", json!({"command": "ls", "shell_id": "main"})),
        );
        assert_eq!(
            (ls.status, ls.stdout.as_str(), ls.stderr.as_str()),
            (0, "", "")
        );
        assert!(outcome(&ls).proceeds);
    }
    // The file tools name their file in `file_path`, relative to the project.
    for (tool, input) in [
        ("read", json!({"file_path": ".env"})),
        (
            "write",
            json!({"file_path": root.join(".env"), "content": "A=1"}),
        ),
        (
            "edit",
            json!({"file_path": ".env", "old_string": "A=1", "new_string": "A=2"}),
        ),
    ] {
        let r = hook(
            &p,
            &root,
            Some(&root),
            &path_with_hookc(),
            &pre_tool(tool, input),
        );
        assert_eq!(r.status, 2, "{tool}: {}", r.stderr);
        assert!(r.stderr.contains("Do not touch .env"), "{}", r.stderr);
    }
    let readme = hook(
        &p,
        &root,
        Some(&root),
        &path_with_hookc(),
        &pre_tool(
            "edit",
            json!({"file_path": "README.md", "old_string": "a", "new_string": "b"}),
        ),
    );
    assert_eq!(readme.status, 0, "{}", readme.stderr);
    // A file tool whose input hookc cannot read is refused, not let through.
    let odd = hook(
        &p,
        &root,
        Some(&root),
        &path_with_hookc(),
        &pre_tool("write", json!({"path": ".env", "content": "A=1"})),
    );
    assert_eq!(odd.status, 2, "{}", odd.stderr);
}

#[test]
fn without_hookc_or_without_the_project_variable_the_hook_refuses() {
    let p = built();
    let root = p.dir.path();
    let ls = pre_tool("exec", json!({"command": "ls", "shell_id": "main"}));
    let r = hook(&p, root, Some(root), BARE_PATH, &ls);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr.starts_with("hookc could not check this call"),
        "{}",
        r.stderr
    );
    // Without DEVIN_PROJECT_DIR the shim's path is `/.hookc/…`: refused
    // with exit 2 (a plain failure would let the call through in Devin).
    let r = hook(&p, root, None, &path_with_hookc(), &ls);
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("could not read"), "{}", r.stderr);
}
