//! Kiro CLI: hookc's agent `.kiro/agents/hookc.json` (Kiro CLI 2) and hook
//! file `.kiro/hooks/hookc.json` (Kiro CLI 3), their command run the way
//! Kiro runs it (`bash -c`, 3: `sh -c`, in the folder Kiro started in), on
//! payloads shaped as Kiro sends them (its old tool names and its new
//! ones), and the answer read as Kiro reads it (`Harness::outcome`: only
//! exit 2 refuses). None of this has met a real Kiro CLI (see its page).

use std::path::Path;
use std::process::Command;

use hookc::ir::HarnessId;
use serde_json::{Value, json};

use crate::support::{BARE_PATH, Project, Run, json_file, path_with_hookc, pre_tool_outcome, run};

const AGENT: &str = ".kiro/agents/hookc.json";
const HOOKS: &str = ".kiro/hooks/hookc.json";

const POLICY: &str = r#"targets "kiro"
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

/// A preToolUse payload as Kiro CLI 2 sends it (no session id).
fn pre_tool(root: &Path, tool: &str, input: Value) -> String {
    json!({
        "hook_event_name": "preToolUse",
        "cwd": root,
        "tool_name": tool,
        "tool_input": input,
    })
    .to_string()
}

/// The command at `pointer` of `file`, run by `shell -c` in `cwd` with only
/// `PATH` and `HOME` set: Kiro gives hooks its own environment and names no
/// project.
fn hook_in(
    p: &Project,
    file: &str,
    pointer: &str,
    shell: &str,
    cwd: &Path,
    path: &str,
    stdin: &str,
) -> Run {
    let command = json_file(p, file)
        .pointer(pointer)
        .and_then(Value::as_str)
        .unwrap()
        .to_owned();
    run(
        Command::new(shell)
            .arg("-c")
            .arg(command)
            .current_dir(cwd)
            .env_clear()
            .env("PATH", path)
            .env("HOME", p.dir.path()),
        Some(stdin.as_bytes()),
    )
}

/// The agent's hook, as Kiro CLI 2 runs it, in the project's root.
fn hook(p: &Project, stdin: &str) -> Run {
    let root = p.dir.path().to_owned();
    hook_in(
        p,
        AGENT,
        "/hooks/preToolUse/0/command",
        "bash",
        &root,
        &path_with_hookc(),
        stdin,
    )
}

fn outcome(r: &Run) -> hookc::harness::Outcome {
    pre_tool_outcome(HarnessId::Kiro, r)
}

#[test]
fn the_agent_holds_only_keys_kiro_knows_and_runs_the_hook_on_every_tool() {
    let p = built();
    let agent = json_file(&p, AGENT);
    // Kiro CLI 2.10's list: any other top-level key drops the whole agent.
    let known = [
        "$schema",
        "name",
        "description",
        "prompt",
        "mcpServers",
        "tools",
        "toolAliases",
        "allowedTools",
        "resources",
        "hooks",
        "toolsSettings",
        "includeMcpJson",
        "useLegacyMcpJson",
        "model",
        "keyboardShortcut",
        "welcomeMessage",
    ];
    for key in agent.as_object().unwrap().keys() {
        assert!(
            known.contains(&key.as_str()),
            "Kiro drops an agent with `{key}`"
        );
    }
    assert_eq!(agent["name"], "hookc");
    assert_eq!(agent["tools"], json!(["*"]));
    let hooks = agent["hooks"].as_object().unwrap();
    assert_eq!(hooks.keys().collect::<Vec<_>>(), ["preToolUse"]);
    let entry = &agent["hooks"]["preToolUse"][0];
    // No matcher: Kiro's take no alternation, and every tool must be seen.
    assert!(entry.get("matcher").is_none(), "{entry}");
    assert_eq!(entry["timeout_ms"], json!(7000));
    // An allow remembered would let later calls through unseen.
    assert_eq!(entry["cache_ttl_seconds"], json!(0));

    let file = json_file(&p, HOOKS);
    assert_eq!(file["version"], "v1");
    let hook = &file["hooks"][0];
    assert_eq!(hook["trigger"], "PreToolUse");
    assert_eq!(hook["action"]["type"], "command");
    assert_eq!(hook["timeout"], json!(7));
    assert_eq!(hook["enabled"], true);
    assert!(hook.get("matcher").is_none(), "{hook}");
    assert_eq!(hook["action"]["command"], entry["command"]);
}

#[test]
fn the_hook_refuses_with_exit_2_under_both_names_of_each_tool() {
    let p = built();
    let root = p.dir.path().to_owned();
    for shell in ["execute_bash", "shell"] {
        let push = hook(
            &p,
            &pre_tool(
                &root,
                shell,
                json!({"command": "git push -f", "summary": "push"}),
            ),
        );
        assert_eq!(
            (push.status, push.stdout.as_str()),
            (2, ""),
            "{shell}: {}",
            push.stderr
        );
        let o = outcome(&push);
        assert!(!o.proceeds);
        assert!(o.model_reads.unwrap().contains("Push without --force"));
    }
    let ls = hook(
        &p,
        &pre_tool(&root, "execute_bash", json!({"command": "ls"})),
    );
    assert_eq!(
        (ls.status, ls.stdout.as_str(), ls.stderr.as_str()),
        (0, "", "")
    );
    assert!(outcome(&ls).proceeds);

    // `fs_read` reads what its operations name, relative to `cwd`.
    let read = hook(
        &p,
        &pre_tool(
            &root,
            "fs_read",
            json!({"operations": [{"mode": "Line", "path": "README.md"}, {"mode": "Line", "path": ".env"}]}),
        ),
    );
    assert_eq!(read.status, 2, "{}", read.stderr);
    assert!(read.stderr.contains("Do not touch .env"), "{}", read.stderr);
    // A search for a pattern reads the file.
    let search = hook(
        &p,
        &pre_tool(
            &root,
            "read",
            json!({"operations": [{"mode": "Search", "path": ".env", "pattern": "KEY"}]}),
        ),
    );
    assert_eq!(search.status, 2, "{}", search.stderr);
    for (tool, command) in [
        ("fs_write", "create"),
        ("write", "str_replace"),
        ("fs_write", "append"),
    ] {
        let r = hook(
            &p,
            &pre_tool(
                &root,
                tool,
                json!({"command": command, "path": ".env", "file_text": "A=1"}),
            ),
        );
        assert_eq!(r.status, 2, "{tool} {command}: {}", r.stderr);
    }
    let readme = hook(
        &p,
        &pre_tool(
            &root,
            "fs_write",
            json!({"command": "str_replace", "path": "README.md", "old_str": "a", "new_str": "b"}),
        ),
    );
    assert_eq!(readme.status, 0, "{}", readme.stderr);

    // The agent may not choose which agent later sessions run (Kiro CLI 2
    // runs hookc's hook only in hookc's); reading the settings is fine.
    let switch = hook(
        &p,
        &pre_tool(
            &root,
            "execute_bash",
            json!({"command": "kiro-cli settings chat.defaultAgent reviewer"}),
        ),
    );
    assert_eq!(switch.status, 2, "{}", switch.stderr);
    assert!(switch.stderr.contains("ask the user"), "{}", switch.stderr);
    let list = hook(
        &p,
        &pre_tool(
            &root,
            "execute_bash",
            json!({"command": "kiro-cli settings list"}),
        ),
    );
    assert_eq!(list.status, 0, "{}", list.stderr);

    // A sub-agent's tools run without hooks: refused, with what to do.
    for (tool, input) in [
        ("use_subagent", json!({"task": "push it"})),
        (
            "delegate",
            json!({"operation": "launch", "agent": "x", "task": "push it"}),
        ),
    ] {
        let r = hook(&p, &pre_tool(&root, tool, input));
        assert_eq!(r.status, 2, "{tool}: {}", r.stderr);
        assert!(r.stderr.contains("instead of a sub-agent"), "{}", r.stderr);
    }
    // Another tool goes through.
    let todo = hook(
        &p,
        &pre_tool(
            &root,
            "todo_list",
            json!({"command": "create", "tasks": ["x"]}),
        ),
    );
    assert_eq!(todo.status, 0, "{}", todo.stderr);
}

#[test]
fn kiro_3_s_hook_file_refuses_its_payloads_through_sh() {
    let p = built();
    let root = p.dir.path().to_owned();
    let payload = json!({
        "hook_event_name": "PreToolUse",
        "session_id": "s1",
        "cwd": root,
        "tool_name": "shell",
        "tool_input": {"command": "git push --force"},
    })
    .to_string();
    let r = hook_in(
        &p,
        HOOKS,
        "/hooks/0/action/command",
        "sh",
        &root,
        &path_with_hookc(),
        &payload,
    );
    assert_eq!(r.status, 2, "{}", r.stderr);
    assert!(r.stderr.contains("Push without --force"), "{}", r.stderr);
}

#[test]
fn the_hook_refuses_outside_the_project_and_without_hookc() {
    let p = built();
    let root = p.dir.path().to_owned();
    let push = pre_tool(
        &root,
        "execute_bash",
        json!({"command": "git push --force"}),
    );
    // Kiro reads workspace agents only in the folder it starts in; started
    // elsewhere with the agent, the hook finds no shim and refuses.
    let elsewhere = tempfile::tempdir().unwrap();
    let r = hook_in(
        &p,
        AGENT,
        "/hooks/preToolUse/0/command",
        "bash",
        elsewhere.path(),
        &path_with_hookc(),
        &push,
    );
    assert_eq!(r.status, 2, "{}", r.stderr);
    assert!(r.stderr.contains("Run hookc build"), "{}", r.stderr);

    let r = hook_in(
        &p,
        AGENT,
        "/hooks/preToolUse/0/command",
        "bash",
        &root,
        BARE_PATH,
        &push,
    );
    assert_eq!(r.status, 2);
    assert!(
        r.stderr.starts_with("hookc could not check this call"),
        "{}",
        r.stderr
    );
}

#[test]
fn doctor_says_which_agent_kiro_2_runs() {
    let p = built();
    // The user's settings, in a home of the test's own.
    let doctor = || {
        let r = run(
            Command::new(env!("CARGO_BIN_EXE_hookc"))
                .arg("doctor")
                .current_dir(p.dir.path())
                .env("HOME", p.path("home")),
            None,
        );
        (r.status, format!("{}{}", r.stdout, r.stderr))
    };
    let (_, none) = doctor();
    assert!(none.contains("no `chat.defaultAgent`"), "{none}");
    p.write(
        "home/.kiro/settings/cli.json",
        "{\"chat.defaultAgent\": \"reviewer\"}\n",
    );
    // A project agent without hookc's hook runs unguarded when chosen.
    p.write(
        ".kiro/agents/reviewer.json",
        "{\"name\": \"reviewer\", \"tools\": [\"*\"]}\n",
    );
    let (status, other) = doctor();
    assert_ne!(status, 0, "{other}");
    assert!(
        other.contains("`chat.defaultAgent` is `reviewer`"),
        "{other}"
    );
    assert!(other.contains("reviewer.json has no hookc hook"), "{other}");
    p.write(
        "home/.kiro/settings/cli.json",
        "{\"chat.defaultAgent\": \"hookc\"}\n",
    );
    let (_, ours) = doctor();
    assert!(ours.contains("`chat.defaultAgent` is `hookc`"), "{ours}");
    // Another agent that runs hookc's hook is as good.
    let hook = json_file(&p, AGENT)["hooks"].clone();
    p.write(
        ".kiro/agents/reviewer.json",
        &json!({"name": "reviewer", "tools": ["*"], "hooks": hook}).to_string(),
    );
    p.write(
        "home/.kiro/settings/cli.json",
        "{\"chat.defaultAgent\": \"reviewer\"}\n",
    );
    let (status, copied) = doctor();
    assert_eq!(status, 0, "{copied}");
    assert!(
        copied.contains("`chat.defaultAgent` is `reviewer`, which runs hookc's hook"),
        "{copied}"
    );
    assert!(!copied.contains("has no hookc hook"), "{copied}");
}

#[test]
fn lint_reads_agents_and_hook_files_as_kiro_does() {
    let p = built();
    let clean = p.hookc(&["lint"]);
    assert_eq!(clean.status, 0, "{}{}", clean.stdout, clean.stderr);
    p.write(
        ".kiro/agents/dev.json",
        r#"{
  "name": "dev",
  "permissions": {"allow": ["shell"]},
  "hooks": {
    "PreToolUse": [{"command": "./guard.sh"}],
    "preToolUse": [{"command": "./guard.sh", "matcher": "execute_bash|fs_write", "cache_ttl_seconds": 300}]
  }
}
"#,
    );
    p.write(
        ".kiro/hooks/mine.json",
        r#"{"version": "v1", "hooks": [{"name": "x", "trigger": "BeforeTool", "action": {"type": "command", "command": "true"}}]}
"#,
    );
    let r = p.hookc(&["lint"]);
    let out = format!("{}{}", r.stdout, r.stderr);
    assert_ne!(r.status, 0, "{out}");
    for finding in [
        "`permissions` is a Kiro CLI 3 key",
        "no agent hook trigger `PreToolUse`",
        "did you mean `preToolUse`?",
        "not a regex",
        "remembers this hook's allow",
        "no hook trigger `BeforeTool`",
        "dev.json:3",
    ] {
        assert!(out.contains(finding), "{finding}: {out}");
    }
}

#[test]
fn lint_user_reads_the_user_s_agents() {
    let p = built();
    p.write(
        "home/.kiro/agents/mine.json",
        "{\"name\": \"mine\", \"hook\": {}}\n",
    );
    let r = run(
        Command::new(env!("CARGO_BIN_EXE_hookc"))
            .args(["lint", "--user"])
            .current_dir(p.dir.path())
            .env("HOME", p.path("home")),
        None,
    );
    let out = format!("{}{}", r.stdout, r.stderr);
    assert_ne!(r.status, 0, "{out}");
    assert!(out.contains("knows no agent key `hook`"), "{out}");
    assert!(out.contains(".kiro/agents/mine.json"), "{out}");
}

#[test]
fn import_reads_hooks_from_agents_and_hook_files() {
    let p = Project::new();
    p.write(
        ".kiro/agents/dev.json",
        r#"{"name": "dev", "hooks": {"preToolUse": [{"matcher": "execute_bash", "command": "./no-push.sh", "timeout_ms": 5000}]}}"#,
    );
    p.write(
        ".kiro/hooks/mine.json",
        r#"{"version": "v1", "hooks": [
            {"name": "g", "trigger": "PreToolUse", "matcher": "fs_write", "action": {"type": "command", "command": "./check.sh"}},
            {"name": "off", "trigger": "PreToolUse", "enabled": false, "action": {"type": "command", "command": "./off.sh"}}
        ]}"#,
    );
    let r = p.hookc(&["import"]);
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
    let policy = p.read("policy.kdl");
    assert!(policy.contains("targets \"kiro\""), "{policy}");
    // Each hook as the tools its matcher names, by Kiro's names for them.
    assert!(policy.contains("// Its command: ./no-push.sh"), "{policy}");
    assert!(policy.contains("tool \"shell\""), "{policy}");
    assert!(policy.contains("// Its command: ./check.sh"), "{policy}");
    assert!(policy.contains("tool \"write\" \"edit\""), "{policy}");
    // A switched-off hook is not carried over.
    assert!(!policy.contains("off.sh"), "{policy}");
}
