//! `hookc import` on the shapes real repositories hold
//! (`tests/fixtures/realworld/`, see its MANIFEST.md): every policy it
//! writes builds, every hook is carried over or named in a comment, and
//! the hooks it hands to `run` guards answer as they did by hand.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::{Project, guard, realworld_project, realworld_projects};

/// The fixture project `name`, copied into a fresh folder and imported.
fn imported(name: &str) -> Project {
    let p = realworld_project(name);
    let r = p.hookc(&["import"]);
    assert_eq!(
        r.status, 0,
        "{name}: import failed:\n{}{}",
        r.stdout, r.stderr
    );
    p
}

/// The hand-written hooks of the JSON hook files under `root`: where each
/// is, as import names it (`FILE EVENT[i]`, `.hooks[j]` past the first
/// handler of an entry), and its command (a Copilot hook's `bash`).
fn hand_written(root: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for rel in [
        ".claude/settings.json",
        ".codex/hooks.json",
        ".gemini/settings.json",
        ".github/hooks/guard.json",
    ] {
        let Ok(text) = std::fs::read_to_string(root.join(rel)) else {
            continue;
        };
        let v: Value = serde_json::from_str(&text).unwrap();
        for (event, list) in v["hooks"].as_object().into_iter().flatten() {
            for (i, entry) in list.as_array().into_iter().flatten().enumerate() {
                let handlers: Vec<&Value> = match entry["hooks"].as_array() {
                    Some(h) => h.iter().collect(),
                    None => vec![entry],
                };
                for (j, h) in handlers.into_iter().enumerate() {
                    let command = h["command"].as_str().or(h["bash"].as_str()).unwrap();
                    let at = if j > 0 {
                        format!(".hooks[{j}]")
                    } else {
                        String::new()
                    };
                    out.push((format!("{rel} {event}[{i}]{at}"), command.to_owned()));
                }
            }
        }
    }
    out
}

#[test]
fn every_realworld_project_imports_into_a_policy_that_builds() {
    let names = realworld_projects();
    assert!(names.len() >= 7, "{names:?}");
    for name in &names {
        let p = imported(name);
        // Read before the build, which adds hookc's own hooks to the files.
        let hooks = hand_written(p.dir.path());
        let build = p.hookc(&["build"]);
        assert_eq!(
            build.status,
            0,
            "{name}: the imported policy does not build:\n{}{}\n{}",
            build.stdout,
            build.stderr,
            p.read("policy.kdl")
        );
        let policy = p.read("policy.kdl");
        let wrappers: String = std::fs::read_dir(p.path("hooks/hookc-import"))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| std::fs::read_to_string(e.path()).unwrap())
            .collect();
        for (origin, command) in hooks {
            // Each hook is a guard, or a comment says why it is not.
            let guard = policy.contains(&format!("// from {origin}\n"));
            let noted = policy
                .lines()
                .any(|l| l.starts_with("// Not carried over: ") && l.contains(&origin));
            assert!(guard || noted, "{name}: {origin} was lost:\n{policy}");
            // A hook handed to `run` runs exactly as written.
            if policy.contains(&format!("// Its command: {command}\n")) {
                let quoted = format!("sh -c '{}'", command.replace('\'', r"'\''"));
                assert!(
                    wrappers.contains(&quoted),
                    "{name}: {origin}: {quoted} is in no wrapper"
                );
            }
        }
    }
}

#[test]
fn one_file_that_does_not_parse_leaves_the_others_imported() {
    let p = imported("mixed-broken");
    let policy = p.read("policy.kdl");
    assert!(
        policy.contains("// Not carried over: .cursor/hooks.json: not imported: it does not parse as Cursor's hooks file"),
        "{policy}"
    );
    assert!(
        policy.contains("// from .codex/hooks.json PreToolUse[0]"),
        "{policy}"
    );
    assert!(
        policy.contains("// from .claude/settings.json PreToolUse[0]"),
        "{policy}"
    );
    // The grep of the command line became a regex guard, `; exit 0` and all.
    assert!(
        policy.contains(r##"regex #"terraform destroy"#"##),
        "{policy}"
    );
}

#[test]
fn hooks_that_give_context_keep_giving_it_where_their_matcher_says() {
    let p = imported("claude-context");
    let policy = p.read("policy.kdl");
    assert!(!policy.contains("block "), "{policy}");
    p.build();
    let start = |source: &str| {
        let r = guard(
            &p,
            "claude",
            "session-start",
            json!({"hook_event_name": "SessionStart", "session_id": "s", "cwd": p.dir.path(), "source": source}),
        );
        assert_eq!(r.status, 0, "{source}: {}", r.stderr);
        let out: Value = serde_json::from_str(r.stdout.trim()).unwrap_or(Value::Null);
        out["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap_or("")
            .to_owned()
    };
    let bun = "This repository uses bun: run bun install and bun test, never npm.";
    assert_eq!(start("startup"), bun);
    assert_eq!(start("resume"), bun);
    // The `compact` hook answers in JSON: its `additionalContext` is passed on.
    assert_eq!(start("compact"), "Open tasks are in TODO.md.");
    // No hook's matcher names `clear`.
    assert_eq!(start("clear"), "");
    let r = guard(
        &p,
        "claude",
        "prompt",
        json!({"hook_event_name": "UserPromptSubmit", "session_id": "s", "cwd": p.dir.path(), "prompt": "hi"}),
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Current branch: "), "{}", r.stdout);
}

#[test]
fn an_exec_form_hook_gets_its_arguments_as_written() {
    let p = imported("claude-exec-form");
    p.build();
    let r = guard(
        &p,
        "claude",
        "pre-tool",
        json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": p.dir.path(),
                "tool_name": "Bash", "tool_input": {"command": "ls"}}),
    );
    let root = p.dir.path().canonicalize().unwrap();
    let expected = format!(
        "guard.sh was given: [--mode] [strict] [--root={}] [it's $HOME, literally]",
        root.display()
    );
    let root_as_given = format!(
        "guard.sh was given: [--mode] [strict] [--root={}] [it's $HOME, literally]",
        p.dir.path().display()
    );
    assert!(
        r.stdout.contains(&expected) || r.stdout.contains(&root_as_given),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
}

#[test]
fn a_subagent_hook_runs_only_for_the_agent_its_matcher_names() {
    let p = imported("claude-lifecycle");
    p.build();
    let stop = |agent: &str| {
        guard(
            &p,
            "claude",
            "subagent-stop",
            json!({"hook_event_name": "SubagentStop", "session_id": "s", "cwd": p.dir.path(),
                    "agent_id": "a1", "agent_type": agent, "stop_hook_active": false}),
        )
    };
    let r = stop("code-reviewer");
    assert!(
        r.stdout.contains("Write REVIEW.md"),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    let r = stop("test-runner");
    assert!(
        !r.stdout.contains("REVIEW.md"),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
}

#[test]
fn hooks_in_a_wrong_shape_are_named_with_the_shape_expected() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        r#"{"hooks": [{"event": "PreToolUse", "command": "exit 2"}]}"#,
    );
    let r = p.hookc(&["import"]);
    assert_ne!(r.status, 0);
    assert!(
        r.stderr
            .contains("found hook files, but no hook in them that hookc can import")
            && r.stderr.contains(
                "its `hooks` is a list, where Claude Code reads an object of event names"
            ),
        "{}",
        r.stderr
    );
    assert!(!p.exists("policy.kdl"));
}
