//! `hookc import`: hand-written hooks become a policy whose build gives the
//! same calls the same verdicts, and nothing is overwritten unasked.

use std::path::Path;

use hookc::harness::{self, Observation};
use hookc::ir::{Event, ExampleCall, HarnessId, Tool, ToolKind};
use regex::Regex;
use serde_json::Value;

use crate::support::{Project, copy_tree, json_file, path_with_hookc, sh_c};

/// The hand-written hooks that `shared/oracle/examples/good` holds (each
/// accepted by its harness's own loader), copied here so the test does not
/// depend on a folder outside the repository.
const ORACLE_GOOD: &str = "tests/fixtures/oracle-good";

/// The hand-written hooks of `harness` for a pre-tool call of `tool` (a
/// native name, `None` for Cursor's shell event): (command) of each hook the
/// harness would run, by its own matcher rules.
fn hand_written(root: &Path, harness: HarnessId, tool: &str, shell: bool) -> Vec<String> {
    let read = |rel: &str| std::fs::read_to_string(root.join(rel)).ok();
    let full = |m: &str, t: &str| Regex::new(&format!("^(?:{m})$")).unwrap().is_match(t);
    let mut out = Vec::new();
    let mut grouped = |text: Option<String>, event: &str, search: bool| {
        let Some(text) = text else { return };
        let v: Value = serde_json::from_str(&text).unwrap();
        for entry in v["hooks"][event].as_array().into_iter().flatten() {
            let m = entry["matcher"].as_str().unwrap_or("");
            let hit = m.is_empty()
                || if search {
                    Regex::new(m).unwrap().is_match(tool)
                } else {
                    full(m, tool)
                };
            if hit {
                for h in entry["hooks"].as_array().into_iter().flatten() {
                    out.push(h["command"].as_str().unwrap().to_owned());
                }
            }
        }
    };
    match harness {
        HarnessId::Claude => grouped(read(".claude/settings.json"), "PreToolUse", false),
        HarnessId::Codex => grouped(read(".codex/hooks.json"), "PreToolUse", false),
        HarnessId::Gemini => grouped(read(".gemini/settings.json"), "BeforeTool", true),
        HarnessId::Cursor => {
            let v: Value = serde_json::from_str(&read(".cursor/hooks.json").unwrap()).unwrap();
            let event = if shell {
                "beforeShellExecution"
            } else {
                "preToolUse"
            };
            for h in v["hooks"][event].as_array().into_iter().flatten() {
                out.push(h["command"].as_str().unwrap().to_owned());
            }
        }
        HarnessId::Copilot => {
            let v: Value =
                serde_json::from_str(&read(".github/hooks/policy.json").unwrap()).unwrap();
            for h in v["hooks"]["preToolUse"].as_array().into_iter().flatten() {
                let m = h["matcher"].as_str().unwrap_or("");
                if m.is_empty() || full(m, tool) {
                    out.push(h["bash"].as_str().unwrap().to_owned());
                }
            }
        }
        HarnessId::Kimi => {
            let doc: toml_edit::DocumentMut =
                read(".kimi-code/config.toml").unwrap().parse().unwrap();
            for t in doc["hooks"].as_array_of_tables().unwrap() {
                let m = t.get("matcher").and_then(|m| m.as_str()).unwrap_or("");
                if t["event"].as_str() == Some("PreToolUse")
                    && (m.is_empty() || Regex::new(m).unwrap().is_match(tool))
                {
                    out.push(t["command"].as_str().unwrap().to_owned());
                }
            }
        }
        _ => {}
    }
    out
}

/// (proceeds, what the model reads) when `commands` run in turn on `payload`
/// (the first refusal wins), as `harness` reads their output.
fn verdict(
    h: &dyn harness::Harness,
    root: &Path,
    commands: &[String],
    env: &[(&str, String)],
    payload: &Value,
) -> (bool, String) {
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    for command in commands {
        let r = sh_c(
            command,
            root,
            &path_with_hookc(),
            &env,
            &payload.to_string(),
        );
        let o = h.outcome(
            Event::PreTool,
            &Observation {
                exit: Some(r.status),
                stdout: r.stdout,
                stderr: r.stderr,
                timed_out: false,
            },
        );
        if !o.proceeds {
            return (false, o.model_reads.unwrap_or_default());
        }
    }
    (true, String::new())
}

/// Every hand-written hook example the oracle accepts is imported, built,
/// and the same calls then get the same verdicts from hookc's hooks as from
/// the hand-written ones, with the hand-written reason.
#[test]
fn importing_the_oracle_examples_keeps_every_verdict() {
    let hand = Project::new();
    copy_tree(&crate::support::repo().join(ORACLE_GOOD), hand.dir.path());
    let import = hand.hookc(&["import", "--output", "imported.kdl"]);
    assert_eq!(import.status, 0, "{}{}", import.stdout, import.stderr);
    let policy = hand.read("imported.kdl");
    assert!(!policy.contains("Not carried over"), "{policy}");
    // OpenCode's plugin becomes an ordinary guard too.
    assert!(policy.contains(".opencode/plugin/policy.js"), "{policy}");

    let built = Project::new();
    built.write("policy.kdl", &policy);
    let build = built.hookc(&["build"]);
    assert_eq!(build.status, 0, "{}{}", build.stdout, build.stderr);
    let test = built.hookc(&["test"]);
    assert_eq!(test.status, 0, "{}{}", test.stdout, test.stderr);

    let calls = [
        (ToolKind::Shell, Some("echo oracle-probe"), None),
        (ToolKind::Shell, Some("git status"), None),
        (ToolKind::Read, None, Some("README.md")),
        (ToolKind::Edit, None, Some("src/main.rs")),
        (ToolKind::WebFetch, None, None),
    ];
    let mut compared = 0;
    for id in [
        HarnessId::Claude,
        HarnessId::Codex,
        HarnessId::Cursor,
        HarnessId::Gemini,
        HarnessId::Copilot,
        HarnessId::Kimi,
    ] {
        let h = harness::get(id).unwrap();
        for (kind, command, path) in calls {
            let call = ExampleCall {
                tool: Some(Tool::Known { tool: kind }),
                command: command.map(str::to_owned),
                path: path.map(str::to_owned),
                text: None,
            };
            let Some(payload) = h.payload(Event::PreTool, &call, built.dir.path()) else {
                continue;
            };
            let native = ["tool_name", "toolName"]
                .iter()
                .find_map(|k| payload[k].as_str())
                .unwrap_or("")
                .to_owned();
            let shell = kind == ToolKind::Shell;
            let mine = hand_written(hand.dir.path(), id, &native, shell);
            let hook = h.hook_command(built.dir.path(), Event::PreTool, &payload);
            let env = hook.as_ref().map(|c| c.env.clone()).unwrap_or_default();
            // The harness sets its variables for every hook, with its own root.
            let hand_env: Vec<(&str, String)> = env
                .iter()
                .map(|(k, v)| {
                    let v = v.replace(
                        &*built.dir.path().to_string_lossy(),
                        &hand.dir.path().to_string_lossy(),
                    );
                    (*k, v)
                })
                .collect();
            let expected = verdict(h, hand.dir.path(), &mine, &hand_env, &payload);
            let generated: Vec<String> = hook.map(|c| vec![c.command]).unwrap_or_default();
            let got = verdict(h, built.dir.path(), &generated, &env, &payload);
            assert_eq!(
                expected.0, got.0,
                "{id:?} {kind:?} {command:?}{path:?}: hand-written {expected:?}, hookc {got:?}\n{policy}"
            );
            if !expected.0 {
                assert!(
                    got.1.contains("blocked by example policy"),
                    "{id:?} {kind:?}: the model reads {:?}",
                    got.1
                );
            }
            compared += 1;
        }
    }
    // OpenCode loads plugins: node and hookc test's driver stand in for it,
    // for the hand-written plugin and the generated one alike.
    if let Some(node) = ["/usr/bin/node", "/usr/local/bin/node"]
        .iter()
        .find(|n| Path::new(n).is_file())
    {
        let h = harness::get(HarnessId::Opencode).unwrap();
        let plugin_run = h.plugin().unwrap();
        let driver = built.path("opencode-driver.mjs");
        std::fs::write(&driver, plugin_run.driver).unwrap();
        let mut refused = 0;
        let load = |root: &Path, plugin: &str, payload: &Value| {
            let r = crate::support::run(
                std::process::Command::new(node)
                    .arg(&driver)
                    .arg(root.join(plugin))
                    .current_dir(root)
                    .env("PATH", path_with_hookc()),
                Some(payload.to_string().as_bytes()),
            );
            let o = (plugin_run.outcome)(&r.stdout);
            (o.proceeds, o.model_reads.unwrap_or_default())
        };
        for (kind, command, path) in calls {
            let call = ExampleCall {
                tool: Some(Tool::Known { tool: kind }),
                command: command.map(str::to_owned),
                path: path.map(str::to_owned),
                text: None,
            };
            let Some(payload) = h.payload(Event::PreTool, &call, built.dir.path()) else {
                continue;
            };
            let expected = load(hand.dir.path(), ".opencode/plugin/policy.js", &payload);
            let got = load(built.dir.path(), ".opencode/plugin/hookc.js", &payload);
            assert_eq!(
                expected.0, got.0,
                "OpenCode {kind:?}: hand-written {expected:?}, hookc {got:?}"
            );
            if !expected.0 {
                assert!(got.1.contains("blocked by example policy"), "{got:?}");
                refused += 1;
            }
            compared += 1;
        }
        assert!(
            refused >= 2,
            "the hand-written plugin refused no shell call"
        );
    }
    assert!(compared >= 20, "only {compared} calls compared");
}

#[test]
fn an_existing_policy_is_kept_unless_forced() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo 'Use the deploy script instead.' >&2; exit 2"}]}]}}"#,
    );
    p.write("policy.kdl", "// mine\n");
    let out = p.hookc(&["import"]);
    assert_eq!(out.status, 2, "{}", out.stderr);
    assert!(out.stderr.contains("--output"), "{}", out.stderr);
    assert_eq!(p.read("policy.kdl"), "// mine\n");
    let out = p.hookc(&["import", "--output", "-"]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("deny \"Use the deploy script instead.\""),
        "{}",
        out.stdout
    );
    assert_eq!(p.read("policy.kdl"), "// mine\n");
    let out = p.hookc(&["import", "--force"]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(p.read("policy.kdl").contains("tool \"shell\""));
}

/// A grep of the command line becomes a `regex` guard; a script hookc cannot
/// read becomes a `run` guard whose wrapper gives the script the harness's
/// own payload; both refuse and allow what the hand-written hooks did.
#[test]
fn a_grep_becomes_a_regex_and_a_script_a_run_guard() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        &serde_json::json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command":
                "jq -r .tool_input.command | grep -qF 'git push --force' && { echo 'Push without --force.' >&2; exit 2; }"}]},
            {"matcher": "Write|Edit", "hooks": [{"type": "command", "command":
                "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/no-lockfiles.sh"}]},
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 0"}]}
        ]}})
        .to_string(),
    );
    p.write(
        ".claude/hooks/no-lockfiles.sh",
        "#!/bin/sh\nif jq -r .tool_input.file_path | grep -q 'Cargo.lock$'; then echo 'Run cargo update instead of editing Cargo.lock.' >&2; exit 2; fi\nexit 0\n",
    );
    crate::support::make_executable(&p.path(".claude/hooks/no-lockfiles.sh"));
    let out = p.hookc(&["import"]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let policy = p.read("policy.kdl");
    assert!(
        policy.contains(r#"regex #"git push \-\-force"#) || policy.contains("regex \"git push"),
        "{policy}"
    );
    assert!(policy.contains("run \"hooks/hookc-import/"), "{policy}");
    assert!(policy.contains("nothing to import"), "{policy}");
    // Build next to the wrapper (the hand-written hooks are removed).
    std::fs::remove_file(p.path(".claude/settings.json")).unwrap();
    let build = p.hookc(&["build"]);
    assert_eq!(build.status, 0, "{}{}", build.stdout, build.stderr);
    let guard = |payload: String| crate::support::guard(&p, "claude", "pre-tool", payload);
    let r = guard(crate::support::claude_bash("git push --force origin main"));
    assert!(
        r.stdout.contains("Push without --force."),
        "{r:?}",
        r = (r.status, &r.stdout, &r.stderr)
    );
    let r = guard(crate::support::claude_bash("git push origin main"));
    assert!(!r.stdout.contains("deny"), "{}", r.stdout);
    let r = guard(crate::support::claude_tool(
        "Edit",
        serde_json::json!({"file_path": "Cargo.lock", "old_string": "a", "new_string": "b"}),
    ));
    assert!(
        r.stdout
            .contains("Run cargo update instead of editing Cargo.lock."),
        "{} {} {}",
        r.status,
        r.stdout,
        r.stderr
    );
    let r = guard(crate::support::claude_tool(
        "Edit",
        serde_json::json!({"file_path": "src/lib.rs", "old_string": "a", "new_string": "b"}),
    ));
    assert!(
        !r.stdout.contains("deny"),
        "{} {} {}",
        r.status,
        r.stdout,
        r.stderr
    );
}

/// Hook files are hostile input: a reason or event name that would end a
/// KDL string or comment stays inside it, and a symlink cannot send the
/// wrappers out of the project.
#[test]
fn hostile_hook_files_cannot_write_policy_or_files_of_their_own() {
    let p = Project::new();
    let reason = "Use the script.\u{2028}guard \"evil\" {\n    allow\n}\u{85}\"\\";
    p.write(
        ".claude/settings.json",
        &serde_json::json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                "command": format!("echo '{reason}' >&2; exit 2")}]},
                {"matcher": "Edit", "hooks": [{"type": "command", "command": "scripts/x.sh\u{2028}guard \"evil2\" {}"}]}],
            "Pre\nguard \"evil3\" {}": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 2"}]}]
        }})
        .to_string(),
    );
    let out = p.hookc(&["import"]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let policy = p.read("policy.kdl");
    let check = p.hookc(&["check"]);
    assert!(
        !check.stderr.contains("kdl-syntax"),
        "{}\n{policy}",
        check.stderr
    );
    let doc: kdl::KdlDocument = policy.parse().unwrap();
    let guards: Vec<String> = doc
        .nodes()
        .iter()
        .filter(|n| n.name().value() == "guard")
        .map(|n| n.entries()[0].value().as_string().unwrap().to_owned())
        .collect();
    assert_eq!(guards.len(), 2, "{guards:?}\n{policy}");
    assert!(!guards.iter().any(|g| g.starts_with("evil")), "{guards:?}");

    // A `hooks` symlink out of the project is refused, and nothing is written.
    let q = Project::new();
    let outside = tempfile::tempdir().unwrap();
    q.write(
        ".claude/settings.json",
        r#"{"hooks":{"PreToolUse":[{"matcher":"Edit","hooks":[{"type":"command","command":"scripts/check.sh"}]}]}}"#,
    );
    std::os::unix::fs::symlink(outside.path(), q.path("hooks")).unwrap();
    let out = q.hookc(&["import"]);
    assert_eq!(out.status, 2, "{}", out.stderr);
    assert!(out.stderr.contains("outside"), "{}", out.stderr);
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
    assert!(!q.exists("policy.kdl"));
}

/// `--output` elsewhere puts the wrappers next to that policy, never into
/// the project; hookc's own generated hooks are not listed as hand-written.
#[test]
fn import_elsewhere_writes_nothing_into_the_project_and_skips_hookcs_own_files() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        "targets \"claude\" \"opencode\"\nguard \"x\" {\n    command \"git\" \"push\"\n    deny \"Open a pull request instead.\"\n}\n",
    );
    p.build();
    // A hand-written hook next to hookc's, in the same settings file.
    let mut settings = json_file(&p, ".claude/settings.json");
    settings["hooks"]["PreToolUse"]
        .as_array_mut()
        .unwrap()
        .push(
            serde_json::json!({"matcher": "Write", "hooks": [{"type": "command",
            "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/check.sh"}]}),
        );
    p.write(".claude/settings.json", &settings.to_string());
    p.write(".claude/hooks/check.sh", "#!/bin/sh\nexit 0\n");
    crate::support::make_executable(&p.path(".claude/hooks/check.sh"));
    std::fs::create_dir(p.path("elsewhere")).unwrap();

    let out = p.hookc(&["import", "--output", "elsewhere/imported.kdl"]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(!p.exists("hooks"), "no wrapper in the project");
    let wrappers: Vec<_> = std::fs::read_dir(p.path("elsewhere/hooks/hookc-import"))
        .unwrap()
        .collect();
    assert_eq!(wrappers.len(), 1, "the wrapper went next to the policy");
    let policy = p.read("elsewhere/imported.kdl");
    assert!(policy.contains("//   .claude/settings.json"), "{policy}");
    // hookc's own plugin is not a hand-written one.
    assert!(!policy.contains(".opencode/plugin/hookc.js"), "{policy}");

    // A project whose only hooks are hookc's has nothing to import.
    let q = Project::new();
    q.write(
        "policy.kdl",
        "targets \"claude\" \"opencode\" \"cursor\" \"vibe\" \"goose\"\nguard \"x\" {\n    command \"git\" \"push\"\n    deny \"Open a pull request instead.\"\n}\n",
    );
    q.build();
    let out = q.hookc(&["import", "--output", "-"]);
    assert_eq!(out.status, 2, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("found no hand-written hooks"),
        "{}",
        out.stderr
    );
    // It says where it looked: every harness's project files.
    for place in [
        ".vibe/hooks.toml",
        ".agents/plugins/*/hooks/hooks.json",
        ".kiro/agents/*.json",
    ] {
        assert!(out.stderr.contains(place), "{place}: {}", out.stderr);
    }
}

/// Mistral Vibe's `[[hooks]]` tables and the hooks of a hand-written Goose
/// plugin (any folder under `.agents/plugins/`) are read too, each in its
/// harness's own terms, and the built guards refuse what the hooks refused.
#[test]
fn vibe_tables_and_goose_plugins_are_imported() {
    let p = Project::new();
    p.write(
        ".vibe/hooks.toml",
        r#"[[hooks]]
name = "no-force-push"
type = "pre_tool"
match = "Bash"
strict = true
command = "grep -q 'push --force' && echo '{\"decision\": \"deny\", \"reason\": \"Push without --force.\"}'; exit 0"

[[hooks]]
name = "files"
type = "pre_tool"
match = "re:write_file|edit"
strict = true
command = ".vibe/check-write.sh"

[[hooks]]
type = "pre_tool"
command = "exit 0"
"#,
    );
    p.write(
        ".agents/plugins/safety/hooks/hooks.json",
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "developer__shell", "hooks": [
            {"type": "command", "command":
                "jq -r .tool_input.command | grep -qF 'git reset --hard' && { echo 'Stash your changes instead.' >&2; exit 2; }; exit 0"}
        ]}]}})
        .to_string(),
    );
    let out = p.hookc(&["import"]);
    assert_eq!(out.status, 0, "{}{}", out.stdout, out.stderr);
    let policy = p.read("policy.kdl");
    for origin in [
        "// from .vibe/hooks.toml [[hooks]][0]",
        "// from .vibe/hooks.toml [[hooks]][1]",
        "// from .agents/plugins/safety/hooks/hooks.json PreToolUse[0]",
    ] {
        assert!(policy.contains(origin), "{origin} in {policy}");
    }
    // `match` as Vibe reads it: a glob without regard to case, `re:` a regex.
    assert!(policy.contains("tool \"shell\"\n"), "{policy}");
    assert!(policy.contains("tool \"write\" \"edit\"\n"), "{policy}");
    assert!(
        policy.contains("[[hooks]][2]: Mistral Vibe drops a table without `name`"),
        "{policy}"
    );

    p.build();
    let guard = |harness, payload| crate::support::guard(&p, harness, "pre-tool", payload);
    let vibe = |command: &str| {
        guard(
            "vibe",
            serde_json::json!({"session_id": "s", "cwd": p.dir.path(), "hook_event_name": "pre_tool",
                "tool_name": "bash", "tool_call_id": "c", "tool_input": {"command": command}}),
        )
    };
    let r = vibe("git push --force origin main");
    assert!(
        r.stdout.contains("Push without --force."),
        "{}{}",
        r.stdout,
        r.stderr
    );
    let r = vibe("git push origin main");
    assert_eq!((r.status, r.stdout.as_str()), (0, ""), "{}", r.stderr);
    let goose = |command: &str| {
        guard(
            "goose",
            serde_json::json!({"event": "PreToolUse", "tool_name": "developer__shell",
                "tool_input": {"command": command}, "working_dir": p.dir.path()}),
        )
    };
    let r = goose("git reset --hard");
    assert_eq!(r.status, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("Stash your changes instead."),
        "{}",
        r.stderr
    );
    let r = goose("git status");
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
}
