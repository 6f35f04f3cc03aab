//! `hookc test`: examples and failure paths through the generated hooks.

use std::process::Command;

use crate::support::{HOOKC, Project, run};

#[test]
fn the_bundled_policy_passes_for_every_harness_and_failures_are_refusals() {
    let p = Project::bundled();
    let home = tempfile::tempdir().unwrap();
    let r = run(
        Command::new(HOOKC)
            .args(["test", "--format", "json"])
            .current_dir(p.dir.path())
            .env("HOME", home.path()),
        None,
    );
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["failed"], 0);
    let rows = v["rows"].as_array().unwrap();
    for h in [
        "claude",
        "codex",
        "copilot",
        "cursor",
        "gemini",
        "antigravity",
        "kimi",
        "opencode",
    ] {
        let cnr: Vec<_> = rows
            .iter()
            .filter(|r| r["harness"] == h && r["could_not_run"] == true)
            .collect();
        assert_eq!(cnr.len(), 5, "{h}");
        let (timeout, refusals): (Vec<&serde_json::Value>, Vec<&serde_json::Value>) = cnr
            .iter()
            .copied()
            .partition(|r| r["case"].as_str().unwrap().starts_with("harness timeout"));
        assert_eq!(refusals.len(), 4, "{h}");
        assert!(
            refusals.iter().all(|r| r["got"] == "blocks"),
            "{h}: {cnr:?}"
        );
        // A timeout is the harness's call; the row says which way it goes.
        let t = timeout[0]["case"].as_str().unwrap();
        assert!(
            (timeout[0]["got"] == "proceeds") == t.contains("fails open"),
            "{h}: {t}"
        );
        assert!(
            rows.iter().any(|r| r["harness"] == h
                && r["guard"] == "no-force-push"
                && r["got"] == "blocks"),
            "{h}"
        );
    }
    // Nothing was written to the project or the user's home.
    assert!(!p.exists(".hookc"));
    assert_eq!(std::fs::read_dir(home.path()).unwrap().count(), 0);
    // The text report ends with a summary line.
    let text = p.hookc(&["test"]);
    assert_eq!(text.status, 0);
    assert!(
        text.stdout.contains("over 9 harnesses") && text.stdout.contains(" 0 failed"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("could not run"), "{}", text.stdout);
}

#[test]
fn a_broken_shim_fails_with_a_clear_row() {
    let p = Project::bundled();
    p.build();
    let shim = p.path(".hookc/claude/pre-tool.sh");
    let text = std::fs::read_to_string(&shim).unwrap();
    std::fs::write(
        &shim,
        text.replacen("#!/bin/sh\n", "#!/bin/sh\nexit 1\n", 1),
    )
    .unwrap();
    let r = p.hookc(&["test", "--project", "."]);
    assert_eq!(r.status, 1, "{}{}", r.stdout, r.stderr);
    let fail = r
        .stdout
        .lines()
        .find(|l| l.starts_with("FAIL claude") && l.contains("git push --force"))
        .unwrap_or_else(|| panic!("{}", r.stdout));
    assert!(
        fail.contains("expected blocks") && fail.contains("got proceeds"),
        "{fail}"
    );
    assert!(r.stdout.contains("non-blocking error"), "{}", r.stdout);
    // Other harnesses still pass.
    assert!(!r.stdout.lines().any(|l| l.starts_with("FAIL codex")));
}

#[test]
fn only_the_policys_targets_are_tested() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"targets "claude" "kimi"
guard "g" {
    command "rm"
    deny "Do not remove files; move them to trash/ instead."
    example "rm x" expect="deny"
}
"#,
    );
    let ok = p.hookc(&["test"]);
    assert_eq!(ok.status, 0, "{}{}", ok.stdout, ok.stderr);
    assert!(ok.stdout.contains("2 harnesses"), "{}", ok.stdout);
}

/// A project whose one guard runs `scripts/check.sh`, with the given body.
fn external(body: &str) -> Project {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"targets "claude" "kimi"
timeout 2
guard "external-check" {
    tool "shell"
    run "scripts/check.sh"
    deny "The project's check refused this call; do what it says."
}
"#,
    );
    p.write("scripts/check.sh", &format!("#!/bin/sh\n{body}\n"));
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        p.path("scripts/check.sh"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    p.build();
    p
}

fn guard(p: &Project, harness: &str, stdin: &str) -> crate::support::Run {
    let mut c = Command::new(HOOKC);
    c.args(["guard", "--harness", harness, "--event", "pre-tool"])
        .current_dir(p.dir.path())
        .env_remove("HOOKC_DEBUG");
    run(&mut c, Some(stdin.as_bytes()))
}

#[test]
fn an_external_program_allows_with_0_and_sees_the_neutral_call() {
    let p = external("cat > input.json; exit 0");
    let r = guard(&p, "claude", &crate::support::claude_bash("make migrate"));
    assert_eq!((r.status, r.stdout.as_str()), (0, ""), "{}", r.stderr);
    let input: serde_json::Value = serde_json::from_str(&p.read("input.json")).unwrap();
    assert_eq!(input["harness"], "claude");
    assert_eq!(input["event"], "pre-tool");
    assert_eq!(input["tool"], "shell");
    assert_eq!(input["command"], "make migrate");
    assert!(input["paths"].is_array());
    assert_eq!(input["raw"]["tool_name"], "Bash");
}

#[test]
fn hookc_test_runs_the_programs_of_run_guards_in_its_copy() {
    let p = external("echo 'Not now.' >&2; exit 2");
    let policy = p.read("policy.kdl").replace(
        "    deny \"The",
        "    example \"ls\" expect=\"deny\"\n    deny \"The",
    );
    p.write("policy.kdl", &policy);
    let r = p.hookc(&["test"]);
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .lines()
            .any(|l| l.starts_with("ok   kimi") && l.contains("model reads: Not now.")),
        "{}",
        r.stdout
    );
}

#[test]
fn an_external_program_denies_with_2_and_its_stderr_is_the_reason() {
    let p = external("echo 'Run the migration linter first.' >&2; exit 2");
    let r = guard(&p, "claude", &crate::support::claude_bash("make migrate"));
    assert_eq!(r.status, 2, "{}", r.stderr);
    assert!(
        r.stdout.contains("Run the migration linter first."),
        "{}",
        r.stdout
    );
}

#[test]
fn an_external_program_that_crashes_hangs_or_is_missing_is_a_refusal() {
    for (name, body) in [
        ("crash", "echo boom >&2; exit 3"),
        ("hang", "exec sleep 30"),
        ("missing", "MISSING"),
    ] {
        let p = external(body);
        if name == "missing" {
            std::fs::remove_file(p.path("scripts/check.sh")).unwrap();
        }
        let r = guard(&p, "claude", &crate::support::claude_bash("ls"));
        assert_eq!(r.status, 1, "{name}: {}", r.stderr);
        assert!(
            r.stderr.contains("scripts/check.sh"),
            "{name}: {}",
            r.stderr
        );
        // Through the generated shim, the harness sees a refusal.
        let shim = run(
            Command::new("/bin/sh")
                .arg(p.path(".hookc/kimi/pre-tool.sh"))
                .current_dir(p.dir.path())
                .env("HOOKC_BIN", HOOKC),
            Some(
                serde_json::json!({"hook_event_name": "PreToolUse", "cwd": p.path("."), "tool_name": "Bash", "tool_input": {"command": "ls"}})
                    .to_string()
                    .as_bytes(),
            ),
        );
        assert_eq!(shim.status, 2, "{name}: {}", shim.stderr);
        assert!(
            shim.stderr.contains("could not check"),
            "{name}: {}",
            shim.stderr
        );
    }
}

#[test]
fn fixture_payloads_in_tests_hooks_and_on_the_command_line_are_run_too() {
    let p = Project::bundled();
    let force = serde_json::json!({
        "harness": "claude",
        "event": "pre-tool",
        "payload": serde_json::from_str::<serde_json::Value>(&crate::support::claude_bash("git push --force")).unwrap(),
        "expect": "deny"
    });
    p.write("tests/hooks/force-push.json", &force.to_string());
    let kimi_ls = serde_json::json!({
        "harness": "kimi",
        "payload": {"hook_event_name": "PreToolUse", "cwd": "/repo", "tool_name": "Bash", "tool_input": {"command": "ls"}},
        "expect": "allow"
    });
    p.write("tests/hooks/kimi-ls.json", &kimi_ls.to_string());
    let ok = p.hookc(&["test"]);
    assert_eq!(ok.status, 0, "{}{}", ok.stdout, ok.stderr);
    assert!(
        ok.stdout
            .lines()
            .any(|l| l.starts_with("ok   claude") && l.contains("force-push.json")),
        "{}",
        ok.stdout
    );
    assert!(ok.stdout.contains("kimi-ls.json"), "{}", ok.stdout);
    // A fixture whose expectation is wrong fails with its own row.
    let mut wrong = force.clone();
    wrong["expect"] = "allow".into();
    p.write("wrong.json", &wrong.to_string());
    let bad = p.hookc(&["test", "wrong.json"]);
    assert_eq!(bad.status, 1, "{}{}", bad.stdout, bad.stderr);
    let row = bad
        .stdout
        .lines()
        .find(|l| l.contains("wrong.json"))
        .unwrap();
    assert!(
        row.starts_with("FAIL claude") && row.contains("got blocks"),
        "{row}"
    );
    // An unreadable fixture is a usage error.
    p.write("broken.json", "{");
    assert_eq!(p.hookc(&["test", "broken.json"]).status, 2);
}
