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
        text.stdout
            .contains(&format!("over {} harnesses", hookc::harness::all().len()))
            && text.stdout.contains(" 0 failed"),
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

/// A policy with a prompt guard and a stop guard, for every harness.
fn prompt_and_stop() -> Project {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r##"targets "claude" "codex" "copilot" "cursor" "gemini" "antigravity" "kimi" "opencode"
guard "no-keys-in-prompts" {
    event "prompt"
    regex #"sk-[A-Za-z0-9]{8}"#
    deny "Remove the API key from your prompt; refer to it by its variable name instead."
    example text="use key sk-abcdefgh1234" expect="deny"
    example text="use the key in $API_KEY" expect="allow"
    allow-degraded "copilot"
}
guard "tests-before-stopping" {
    event "stop"
    regex #"(?i)\bdone\b"#
    block "Run the test suite and report its result before you finish."
    example text="All done." expect="block"
    example text="12 tests passed." expect="allow"
    allow-degraded "copilot" "cursor" "antigravity" "kimi"
}
"##,
    );
    p
}

fn report_rows(r: &crate::support::Run) -> Vec<serde_json::Value> {
    let v: serde_json::Value =
        serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout));
    v["rows"].as_array().unwrap().clone()
}

fn find<'a>(
    rows: &'a [serde_json::Value],
    harness: &str,
    event: &str,
    case: &str,
) -> &'a serde_json::Value {
    rows.iter()
        .find(|r| r["harness"] == harness && r["event"] == event && r["case"] == case)
        .unwrap_or_else(|| panic!("no {harness} {event} row for {case}: {rows:#?}"))
}

#[test]
fn prompt_and_stop_examples_run_through_each_harnesss_hook() {
    let p = prompt_and_stop();
    // A recorded prompt payload runs through the prompt hook too.
    let recorded = serde_json::json!({
        "harness": "gemini",
        "event": "prompt",
        "payload": {"session_id": "s", "cwd": "/repo", "hook_event_name": "BeforeAgent",
                    "timestamp": "2026-08-21T10:00:00.000Z", "prompt": "deploy with sk-ZZZZZZZZ please"},
        "expect": "deny"
    });
    p.write("tests/hooks/gemini-prompt.json", &recorded.to_string());
    let r = p.hookc(&["test", "--format", "json"]);
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
    let rows = report_rows(&r);
    // Where the harness has the event and its payload carries the text, the
    // generated hook refuses the prompt or keeps the agent working.
    for h in ["claude", "codex", "gemini", "kimi", "cursor"] {
        let row = find(&rows, h, "prompt", "use key sk-abcdefgh1234");
        assert_eq!(row["got"], "blocks", "{h}: {row}");
        let row = find(&rows, h, "prompt", "use the key in $API_KEY");
        assert_eq!(row["got"], "proceeds", "{h}: {row}");
    }
    for h in ["claude", "codex", "gemini"] {
        let row = find(&rows, h, "stop", "All done.");
        assert_eq!(row["got"], "blocks", "{h}: {row}");
        assert!(
            row["model_reads"]
                .as_str()
                .unwrap()
                .contains("Run the test suite"),
            "{h}: {row}"
        );
        assert_eq!(
            find(&rows, h, "stop", "12 tests passed.")["got"],
            "proceeds"
        );
    }
    let row = find(&rows, "gemini", "prompt", "gemini-prompt.json");
    assert_eq!((&row["got"], &row["ok"]), (&"blocks".into(), &true.into()));
    // Elsewhere the row says why it is not run, and it is no pass.
    let na = |h: &str, event: &str, case: &str, why: &str| {
        let row = find(&rows, h, event, case);
        assert_eq!(row["got"], "n/a", "{row}");
        let text = row["not_applicable"].as_str().unwrap();
        assert!(text.contains(why), "{h} {event}: {text}");
    };
    na(
        "antigravity",
        "prompt",
        "use key sk-abcdefgh1234",
        "has no prompt hook",
    );
    na("opencode", "stop", "All done.", "has no stop hook");
    na(
        "copilot",
        "prompt",
        "use key sk-abcdefgh1234",
        "cannot refuse on prompt",
    );
    for h in ["copilot", "cursor", "antigravity", "kimi"] {
        na(h, "stop", "All done.", "carries no text");
    }
    let text = p.hookc(&["test"]);
    assert_eq!(text.status, 0, "{}", text.stdout);
    assert!(
        text.stdout
            .lines()
            .any(|l| l.starts_with("n/a  antigravity")
                && l.contains("not applicable: Antigravity has no prompt hook")),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains(" not applicable\n"), "{}", text.stdout);
}

#[test]
fn a_prompt_hook_that_lets_everything_through_fails_its_row() {
    let p = prompt_and_stop();
    p.build();
    let shim = p.path(".hookc/gemini/prompt.sh");
    let text = std::fs::read_to_string(&shim).unwrap();
    std::fs::write(
        &shim,
        text.replacen("#!/bin/sh\n", "#!/bin/sh\nexit 0\n", 1),
    )
    .unwrap();
    let r = p.hookc(&["test", "--project", ".", "--format", "json"]);
    assert_eq!(r.status, 1, "{}{}", r.stdout, r.stderr);
    let rows = report_rows(&r);
    let row = find(&rows, "gemini", "prompt", "use key sk-abcdefgh1234");
    assert_eq!(
        (row["ok"].as_bool(), &row["got"]),
        (Some(false), &"proceeds".into())
    );
    assert_eq!(
        find(&rows, "claude", "prompt", "use key sk-abcdefgh1234")["ok"],
        true
    );
}

#[test]
fn opencode_rows_load_the_generated_plugin() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"targets "opencode"
guard "g" {
    command "rm"
    deny "Do not remove files; move them to trash/ instead."
    example "rm x" expect="deny"
    example "ls" expect="allow"
}
"#,
    );
    p.build();
    let r = p.hookc(&["test", "--project", ".", "--format", "json"]);
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
    let rows = report_rows(&r);
    let row = find(&rows, "opencode", "pre-tool", "rm x");
    assert_eq!(row["got"], "blocks");
    assert_eq!(
        row["model_reads"],
        "Do not remove files; move them to trash/ instead."
    );
    assert!(row["rule"].as_str().unwrap().contains("threw"), "{row}");

    // A plugin that swallows hookc's refusal lets the call run: the row fails.
    let plugin = p.read(".opencode/plugin/hookc.js");
    let broken = plugin.replace("throw new Error(reason ||", "return void (reason ||");
    assert_ne!(broken, plugin);
    p.write(".opencode/plugin/hookc.js", &broken);
    let r = p.hookc(&["test", "--project", ".", "--format", "json"]);
    assert_eq!(r.status, 1, "{}{}", r.stdout, r.stderr);
    assert_eq!(
        find(&report_rows(&r), "opencode", "pre-tool", "rm x")["got"],
        "proceeds"
    );

    // One OpenCode cannot load is skipped there, and the call runs.
    p.write(
        ".opencode/plugin/hookc.js",
        "export const HookcGuard = async () => ({ oops",
    );
    let r = p.hookc(&["test", "--project", ".", "--format", "json"]);
    assert_eq!(r.status, 1);
    let rows = report_rows(&r);
    let row = find(&rows, "opencode", "pre-tool", "rm x");
    assert_eq!(row["got"], "proceeds");
    assert!(
        row["rule"].as_str().unwrap().contains("did not load"),
        "{row}"
    );
}

#[test]
fn without_node_opencode_rows_fail_unless_allowed() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"targets "claude" "opencode"
guard "g" {
    command "rm"
    deny "Do not remove files; move them to trash/ instead."
    example "rm x" expect="deny"
}
"#,
    );
    // hookc itself is run by its full path; no `node` anywhere on PATH.
    let empty = tempfile::tempdir().unwrap();
    let test = |extra: &[&str]| {
        run(
            Command::new(HOOKC)
                .arg("test")
                .args(extra)
                .current_dir(p.dir.path())
                .env("PATH", empty.path()),
            None,
        )
    };
    let r = test(&[]);
    assert_eq!(r.status, 1, "{}{}", r.stdout, r.stderr);
    let line = r
        .stdout
        .lines()
        .find(|l| l.starts_with("FAIL opencode") && l.contains("rm x"))
        .unwrap_or_else(|| panic!("{}", r.stdout));
    assert!(line.contains("could not run: node not found"), "{line}");
    assert!(r.stdout.contains("--allow-missing-node"), "{}", r.stdout);
    assert!(!r.stdout.contains("FAIL claude"), "{}", r.stdout);

    let r = test(&["--allow-missing-node"]);
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .lines()
            .any(|l| l.starts_with("n/a  opencode") && l.contains("node not found")),
        "{}",
        r.stdout
    );
}

/// A `~/` example reaches the hooks as a path in the home directory (the
/// hook's own HOME), not as a folder named `~` in the project, and the
/// `~/` glob catches it there.
#[test]
fn home_paths_in_examples_reach_the_hooks_as_home_paths() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"targets "claude" "gemini" "cursor"
guard "no-ssh-keys" {
    path "~/.ssh/*"
    deny "Do not read SSH keys; ask the user for what you need from them."
    example tool="read" path="~/.ssh/id_rsa" expect="deny"
    example tool="read" path=".ssh/id_rsa" expect="allow"
}
"#,
    );
    let home = tempfile::tempdir().unwrap();
    let r = run(
        Command::new(HOOKC)
            .args(["test", "--format", "json", "--allow-missing-node"])
            .current_dir(p.dir.path())
            .env("HOME", home.path()),
        None,
    );
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let denied: Vec<_> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["case"].as_str().unwrap().contains("~/.ssh/id_rsa"))
        .collect();
    assert_eq!(denied.len(), 3, "{v:#}");
    assert!(denied.iter().all(|r| r["got"] == "blocks"), "{v:#}");
}

/// `hookc test` shows which harnesses run a line hookc cannot read under
/// the run-time judge and which refuse it: on a machine that can
/// supervise, Claude Code's hook hands the example back to run under
/// `hookc exec`, and Codex's refuses it.
#[test]
fn a_line_hookc_cannot_read_is_supervised_where_the_harness_can_and_refused_elsewhere() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"targets "claude" "gemini" "opencode" "kilo" "vibe" "codebuddy" "codex"
guard "no-force-push" {
    command "git" "push" { flag "--force" "-f"; }
    deny "Push without --force."
    example "git push $(echo --force)" expect="deny"
}
"#,
    );
    p.build();
    let home = tempfile::tempdir().unwrap();
    let r = run(
        Command::new(HOOKC)
            .args(["test", "--format", "json"])
            .current_dir(p.dir.path())
            .env("HOME", home.path())
            .env_remove("HOOKC_SUPERVISE"),
        None,
    );
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
    let rows = report_rows(&r);
    let example = |h: &str| {
        rows.iter()
            .find(|row| row["harness"] == h && row["case"] == "git push $(echo --force)")
            .unwrap_or_else(|| panic!("{h}: {rows:#?}"))
            .clone()
    };
    let supervises = hookc::runtime::supervised::available().is_ok();
    for harness in ["claude", "gemini", "opencode", "kilo", "vibe", "codebuddy"] {
        let row = example(harness);
        assert_eq!(
            row["got"],
            if supervises { "supervises" } else { "blocks" },
            "{row}"
        );
    }
    assert_eq!(example("codex")["got"], "blocks");
}
