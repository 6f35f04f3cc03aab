//! `hookc build` and `hookc check`: merging into users' files, idempotence,
//! retraction, dry runs.

use crate::support::Project;

const USER_SETTINGS: &str = r#"{
  "permissions": {
    "allow": ["Bash(npm test)"],
    "deny":  ["Read(./secrets/**)"]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Write",
        "hooks": [ { "type": "command", "command": "./scripts/format.sh" } ]
      }
    ],
    "Notification": [
      { "hooks": [ { "type": "command", "command": "notify-send done" } ] }
    ]
  },
  "model":   "opus"
}
"#;

fn policy(guards: &str) -> String {
    format!("targets \"claude\"\n{guards}")
}

const FORCE_PUSH: &str = r#"
guard "no-force-push" {
    command "git" "push" { flag "-f" "--force"; }
    deny "Push without --force, or open a pull request."
}
"#;

const HARD_RESET: &str = r#"
guard "no-hard-reset" {
    command "git" "reset" { flag "--hard"; }
    deny "Use git stash instead of a hard reset."
}
"#;

#[test]
fn a_fresh_build_creates_settings_shims_policy_and_manifest() {
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    let run = p.build();
    for file in [
        ".claude/settings.json",
        ".hookc/claude/pre-tool.sh",
        ".hookc/policy.json",
        ".hookc/manifest.json",
    ] {
        assert!(p.exists(file), "{file} missing; stdout:\n{}", run.stdout);
        assert!(
            run.stdout.contains(&format!("create    {file}")),
            "{}",
            run.stdout
        );
    }
    let settings: serde_json::Value =
        serde_json::from_str(&p.read(".claude/settings.json")).unwrap();
    let group = &settings["hooks"]["PreToolUse"][0];
    // Self-protection adds the tools that write; `exec`, `edit`, … are
    // Devin CLI's (it runs these hooks too).
    assert_eq!(
        group["matcher"],
        "^(?:Bash|Edit|MultiEdit|NotebookEdit|PowerShell|Write|edit|exec|notebook_edit|write)$"
    );
    assert_eq!(group["hooks"][0]["type"], "command");
    // The command reads the shim into Claude's `sh` (see `source_shim`).
    let command = group["hooks"][0]["command"].as_str().unwrap();
    assert!(
        command.starts_with(
            "hookc_shim=\"${CLAUDE_PROJECT_DIR:-$DEVIN_PROJECT_DIR}\"/.hookc/claude/pre-tool.sh; "
        ) && command.ends_with("; . \"$hookc_shim\""),
        "{command}"
    );
    assert_eq!(group["hooks"][0]["timeout"], 10);
    assert!(
        run.stdout.contains("Claude Code: 1 guard active"),
        "{}",
        run.stdout
    );
}

#[test]
fn merging_keeps_every_byte_of_the_users_settings() {
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    p.write(".claude/settings.json", USER_SETTINGS);
    p.build();
    let merged = p.read(".claude/settings.json");
    // The user's hook is still first, the user's other keys are untouched,
    // odd spacing included.
    assert!(
        merged.contains(r#""deny":  ["Read(./secrets/**)"]"#),
        "{merged}"
    );
    assert!(merged.contains(r#""model":   "opus""#), "{merged}");
    let value: serde_json::Value = serde_json::from_str(&merged).unwrap();
    let pre = value["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(pre.len(), 2);
    assert_eq!(pre[0]["hooks"][0]["command"], "./scripts/format.sh");
    assert!(
        pre[1]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .contains(".hookc/claude/pre-tool.sh")
    );
    assert_eq!(
        value["hooks"]["Notification"][0]["hooks"][0]["command"],
        "notify-send done"
    );
}

#[test]
fn rebuilding_changes_nothing() {
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    p.write(".claude/settings.json", USER_SETTINGS);
    p.build();
    let first = p.read(".claude/settings.json");
    let run = p.build();
    assert_eq!(p.read(".claude/settings.json"), first);
    assert!(run.stdout.contains("(0 files changed"), "{}", run.stdout);
    let check = p.hookc(&["check"]);
    assert_eq!(check.status, 0, "{}{}", check.stdout, check.stderr);
}

#[test]
fn removing_every_guard_retracts_hookcs_entries_and_restores_the_file() {
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    p.write(".claude/settings.json", USER_SETTINGS);
    p.build();
    p.write("policy.kdl", "targets \"claude\"\n");
    let run = p.build();
    assert_eq!(p.read(".claude/settings.json"), USER_SETTINGS);
    assert!(!p.exists(".hookc/claude/pre-tool.sh"), "{}", run.stdout);
    assert!(run.stdout.contains("retract"), "{}", run.stdout);
}

#[test]
fn a_settings_file_hookc_created_is_removed_when_nothing_is_left() {
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    p.build();
    p.write("policy.kdl", "targets \"claude\"\n");
    p.build();
    assert!(!p.exists(".claude/settings.json"));
}

#[test]
fn a_guard_moved_to_another_event_is_retracted_from_the_old_one() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        &policy(
            r#"
guard "remind" {
    event "session-start"
    context "Run the tests before you commit."
}
"#,
        ),
    );
    p.build();
    assert!(p.read(".claude/settings.json").contains("SessionStart"));
    p.write("policy.kdl", &policy(FORCE_PUSH));
    p.build();
    let settings = p.read(".claude/settings.json");
    assert!(!settings.contains("SessionStart"), "{settings}");
    assert!(!p.exists(".hookc/claude/session-start.sh"));
    assert!(p.exists(".hookc/claude/pre-tool.sh"));
}

#[test]
fn check_reports_drift_with_a_summary_a_diff_behind_v_and_exit_1() {
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    p.build();
    p.write("policy.kdl", &policy(&format!("{FORCE_PUSH}{HARD_RESET}")));
    // Without -v: one line per stale file, the guard named, no diff.
    let run = p.hookc(&["check"]);
    assert_eq!(run.status, 1);
    assert!(
        run.stdout
            .lines()
            .any(|l| l == ".hookc/policy.json: guard no-hard-reset added"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("--- a/"), "{}", run.stdout);
    assert!(run.stdout.len() < 1000, "{}", run.stdout);
    assert!(run.stderr.contains("hookc check -v"), "{}", run.stderr);
    // A guard changed, and one removed, are named as such.
    let summary = |text: &str| {
        p.write("policy.kdl", &policy(text));
        let run = p.hookc(&["check"]);
        run.stdout
            .lines()
            .find_map(|l| l.strip_prefix(".hookc/policy.json: "))
            .unwrap_or_else(|| panic!("{}", run.stdout))
            .to_owned()
    };
    assert_eq!(
        summary(&FORCE_PUSH.replace("open a pull", "push a new branch and open a")),
        "guard no-force-push changed"
    );
    assert_eq!(
        summary(HARD_RESET),
        "guard no-hard-reset added, guard no-force-push removed"
    );
    p.write("policy.kdl", &policy(&format!("{FORCE_PUSH}{HARD_RESET}")));
    let run = p.hookc(&["check", "-v"]);
    assert_eq!(run.status, 1);
    assert!(
        run.stdout.contains("--- a/.hookc/policy.json"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("+{\"name\":\"no-hard-reset\""),
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("hookc::drift"), "{}", run.stderr);
    // check wrote nothing.
    assert!(!p.read(".hookc/policy.json").contains("no-hard-reset"));
}

#[test]
fn dry_run_prints_the_plan_and_writes_nothing() {
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    let run = p.hookc(&["build", "--dry-run"]);
    assert_eq!(run.status, 0);
    assert!(
        run.stdout.contains("create    .claude/settings.json"),
        "{}",
        run.stdout
    );
    assert!(!p.exists(".claude/settings.json"));
    assert!(!p.exists(".hookc"));

    // Once built, a dry run says there is nothing to do.
    p.build();
    let run = p.hookc(&["build", "--dry-run"]);
    assert_eq!(run.status, 0);
    assert!(
        run.stdout.contains("everything is up to date") && !run.stdout.contains("a build would:"),
        "{}",
        run.stdout
    );
}

#[test]
fn an_unparseable_settings_file_is_left_untouched_with_a_located_error() {
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    let broken = "{\n  \"model\": \"opus\",\n  \"hooks\": {\n}\n";
    p.write(".claude/settings.json", broken);
    let run = p.hookc(&["build"]);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert_eq!(p.read(".claude/settings.json"), broken);
    assert!(run.stderr.contains("hookc::merge-failed"), "{}", run.stderr);
    assert!(
        run.stderr.contains(".claude/settings.json"),
        "{}",
        run.stderr
    );
    assert!(
        !p.exists(".hookc/policy.json"),
        "nothing is written when a merge fails"
    );
}

#[test]
fn an_invalid_policy_writes_nothing_and_exits_1() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        "guard \"x\" { tool \"shel\"; deny \"Do y instead.\" }\n",
    );
    let run = p.hookc(&["build"]);
    assert_eq!(run.status, 1);
    assert!(run.stderr.contains("hookc::unknown-tool"), "{}", run.stderr);
    assert!(
        run.stderr.contains("did you mean `shell`?"),
        "{}",
        run.stderr
    );
    assert!(!p.exists(".hookc"));
}

#[test]
fn a_missing_policy_is_exit_2_and_names_the_file() {
    let p = Project::new();
    let run = p.hookc(&["build", "--policy", "nope.kdl"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("nope.kdl"), "{}", run.stderr);
}

#[test]
fn output_is_deterministic_and_free_of_machine_paths() {
    let a = Project::bundled();
    let b = Project::bundled();
    a.build();
    b.build();
    for file in [
        ".claude/settings.json",
        ".hookc/claude/pre-tool.sh",
        ".hookc/policy.json",
        ".hookc/manifest.json",
    ] {
        let text = a.read(file);
        assert_eq!(text, b.read(file), "{file}");
        assert!(
            !text.contains(&*a.dir.path().to_string_lossy()),
            "{file} has an absolute path"
        );
        assert!(text.ends_with('\n') && !text.contains('\r'), "{file}");
    }
}

#[test]
fn a_hand_edit_of_hookcs_entry_is_a_conflict_not_overwritten_unless_forced() {
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    p.build();
    let edited = p
        .read(".claude/settings.json")
        .replace("\"timeout\": 10", "\"timeout\": 99");
    p.write(".claude/settings.json", &edited);
    p.write("policy.kdl", &policy(&format!("{FORCE_PUSH}{HARD_RESET}")));

    let run = p.hookc(&["build"]);
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert!(run.stderr.contains("hookc::conflict"), "{}", run.stderr);
    assert!(
        run.stderr.contains(".claude/settings.json"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("--force"), "{}", run.stderr);
    assert_eq!(
        p.read(".claude/settings.json"),
        edited,
        "the hand edit is kept"
    );
    assert!(
        !p.read(".hookc/policy.json").contains("no-hard-reset"),
        "nothing was written"
    );

    let check = p.hookc(&["check", "-v"]);
    assert_eq!(check.status, 1);
    assert!(check.stderr.contains("hookc::conflict"), "{}", check.stderr);
    assert!(
        check.stdout.contains("-            \"timeout\": 99"),
        "{}",
        check.stdout
    );

    let forced = p.hookc(&["build", "--force"]);
    assert_eq!(forced.status, 0, "{}", forced.stderr);
    assert!(forced.stderr.contains("overwritten"), "{}", forced.stderr);
    assert!(p.read(".claude/settings.json").contains("\"timeout\": 10"));
    assert_eq!(
        p.hookc(&["build"]).status,
        0,
        "no conflict after the forced build"
    );
}

#[test]
fn a_hand_edited_shim_is_not_deleted_on_retraction() {
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    p.build();
    p.write(
        ".hookc/claude/pre-tool.sh",
        "#!/bin/sh\n# my own tweak\nexit 2\n",
    );
    p.write("policy.kdl", "targets \"claude\"\n");
    let run = p.hookc(&["build"]);
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert!(p.exists(".hookc/claude/pre-tool.sh"));
}

#[test]
fn a_second_build_while_one_is_writing_fails_clearly() {
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    // A build locks the project directory itself. The lock is held by a
    // process of its own: a descriptor of this test process would be shared,
    // between fork and exec, with the children other tests start, and could
    // outlive the `drop` below.
    let mut held = std::process::Command::new("flock")
        .arg("-o")
        .arg(p.dir.path())
        .args(["-c", "echo locked; exec sleep 60"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(held.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    assert_eq!(line, "locked\n");
    let run = p.hookc(&["build"]);
    assert_eq!(run.status, 2);
    assert!(
        run.stderr
            .contains("another `hookc build` is writing this project"),
        "{}",
        run.stderr
    );
    assert!(!p.exists(".claude/settings.json"));
    held.kill().unwrap();
    held.wait().unwrap();
    p.build();
    assert!(
        !p.exists(".hookc/build.lock"),
        "a build leaves no lock file behind"
    );
}

/// A preset's allow example does not veto a stricter guard of the
/// repository: denying `npm install` in a bun repository builds, with a
/// note naming the guard that decided, while the preset's guard still
/// holds its own examples.
#[test]
fn a_stricter_repository_guard_wins_over_a_presets_allow_example() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        "targets \"claude\"\npreset \"remote-code\"\nguard \"use-bun\" {\n    command \"npm\" \"install\"\n    deny \"This repository uses bun: run bun install.\"\n    example \"npm install lodash\" expect=\"deny\"\n    example \"bun install lodash\" expect=\"pass\"\n}\n",
    );
    let out = p.hookc(&["build"]);
    assert_eq!(out.status, 0, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("hookc::preset-example-overruled"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("npm install lodash"), "{}", out.stderr);
    assert!(out.stderr.contains("use-bun"), "{}", out.stderr);
    assert!(
        !out.stderr.contains("hookc::example-contradicts"),
        "{}",
        out.stderr
    );
    // The hook refuses what the repository's guard denies.
    let why = p.hookc(&["why", "npm install lodash"]);
    assert!(
        why.stdout.contains("Verdict: deny (by use-bun)"),
        "{}",
        why.stdout
    );
}

/// A `run` program the project lacks is said at build time: every call the
/// guard matches would be refused as "could not run".
#[test]
fn a_run_program_the_project_lacks_is_a_warning() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        "targets \"claude\"\nguard \"reviewed\" untested=\"asks git\" {\n    tool \"write\"\n    path \"migrations/**\"\n    run \"scripts/check.sh\"\n    deny \"Ask the user to review the migration first.\"\n}\n",
    );
    let r = p.build();
    assert!(r.stderr.contains("hookc::run-missing"), "{}", r.stderr);
    assert!(r.stderr.contains("scripts/check.sh"), "{}", r.stderr);
    p.write("scripts/check.sh", "#!/bin/sh\nexit 0\n");
    let r = p.build();
    assert!(
        r.stderr.contains("hookc::run-missing"),
        "not executable yet: {}",
        r.stderr
    );
    crate::support::make_executable(&p.path("scripts/check.sh"));
    let r = p.build();
    assert!(!r.stderr.contains("hookc::run-missing"), "{}", r.stderr);
}
