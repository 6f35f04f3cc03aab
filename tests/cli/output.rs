//! What every command shares: exit statuses, `--format json`, `-q`/`-v`,
//! colour, completions and the man page.

use serde_json::Value;

use crate::support::{HOOKC, Project, run};

const GUARD: &str = r#"targets "claude"
guard "no-force-push" {
    command "git" "push" { flag "-f" "--force"; }
    deny "Push without --force, or open a pull request."
    example "git push -f" expect="deny"
}
"#;

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("not one JSON document ({e}): {stdout}"))
}

#[test]
fn help_documents_the_exit_statuses() {
    let p = Project::new();
    for args in [
        &["--help"][..],
        &["build", "--help"],
        &["check", "--help"],
        &["explain", "--help"],
        &["init", "--help"],
    ] {
        let run = p.hookc(args);
        assert_eq!(run.status, 0);
        assert!(run.stdout.contains("Exit status"), "{args:?}");
        assert!(
            run.stdout.contains("2 the tool could not do its job")
                || run.stdout.contains("2  the tool could not do its job"),
            "{args:?}: {}",
            run.stdout
        );
    }
}

#[test]
fn build_and_check_speak_json_with_a_schema_version() {
    let p = Project::new();
    p.write("policy.kdl", GUARD);
    let build = p.hookc(&["build", "--format", "json"]);
    assert_eq!(build.status, 0, "{}", build.stderr);
    assert_eq!(build.stderr, "");
    let doc = json(&build.stdout);
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["command"], "build");
    assert_eq!(doc["written"], true);
    assert_eq!(doc["harnesses"][0]["harness"], "claude");
    assert_eq!(doc["harnesses"][0]["guards"], 1);
    assert!(
        doc["files"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["path"] == ".claude/settings.json" && f["action"] == "create")
    );

    let check = p.hookc(&["check", "--format", "json"]);
    assert_eq!(check.status, 0);
    let doc = json(&check.stdout);
    assert_eq!(
        (doc["command"].as_str(), doc["clean"].as_bool()),
        (Some("check"), Some(true))
    );

    p.write(
        "policy.kdl",
        &GUARD.replace("Push without", "Never push with --force. Push without"),
    );
    let check = p.hookc(&["check", "--format", "json"]);
    assert_eq!(check.status, 1);
    let doc = json(&check.stdout);
    assert_eq!(doc["clean"], false);
    assert_eq!(doc["exit_status"], 1);
    let stale: Vec<&str> = doc["diffs"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["path"].as_str())
        .collect();
    assert!(stale.contains(&".hookc/policy.json"), "{stale:?}");
}

#[test]
fn diagnostics_go_into_the_json_document() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        "guard \"x\" { tool \"bash\"; deny \"Use git stash instead.\" }\n",
    );
    let run = p.hookc(&["build", "--format", "json"]);
    assert_eq!(run.status, 1);
    assert_eq!(run.stderr, "");
    let doc = json(&run.stdout);
    let unknown = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "hookc::unknown-tool")
        .expect("the unknown tool is reported");
    assert_eq!(unknown["severity"], "error");
    assert_eq!(unknown["file"], "policy.kdl");
    assert_eq!(unknown["labels"][0]["line"], 1);
    assert_eq!(unknown["labels"][0]["column"], 18);
}

#[test]
fn explain_speaks_json_too() {
    let p = Project::new();
    let one = json(&p.hookc(&["explain", "drift", "--format", "json"]).stdout);
    assert_eq!(one["schema_version"], 1);
    assert_eq!(one["codes"][0]["code"], "hookc::drift");
    assert_eq!(one["codes"][0]["severity"], "error");
    let all = json(&p.hookc(&["explain", "--format", "json"]).stdout);
    assert_eq!(
        all["codes"].as_array().unwrap().len(),
        hookc::diag::Code::ALL.len()
    );
}

#[test]
fn quiet_prints_only_errors_and_verbose_every_file() {
    let p = Project::new();
    p.write("policy.kdl", GUARD);
    let quiet = p.hookc(&["build", "-q"]);
    assert_eq!(
        (quiet.status, quiet.stdout.as_str(), quiet.stderr.as_str()),
        (0, "", "")
    );

    let normal = p.hookc(&["build"]);
    assert!(!normal.stdout.contains("unchanged"), "{}", normal.stdout);
    let verbose = p.hookc(&["build", "-v"]);
    assert!(
        verbose.stdout.contains("  unchanged .claude/settings.json"),
        "{}",
        verbose.stdout
    );
    let check = p.hookc(&["check", "--verbose"]);
    assert!(
        check.stdout.contains("  unchanged .hookc/policy.json"),
        "{}",
        check.stdout
    );

    p.write(
        "policy.kdl",
        "guard \"x\" { tool \"bash\"; deny \"Use git stash instead.\" }\n",
    );
    let quiet = p.hookc(&["build", "-q"]);
    assert_eq!(quiet.status, 1);
    assert!(
        quiet.stderr.contains("hookc::unknown-tool"),
        "errors still show"
    );
    assert_eq!(
        p.hookc(&["build", "-q", "-v"]).status,
        2,
        "-q and -v conflict"
    );
}

#[test]
fn colour_only_when_asked_or_on_a_terminal_without_no_color() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        "guard \"x\" { tool \"bash\"; deny \"Use git stash instead.\" }\n",
    );
    let esc = '\u{1b}';
    // The test's pipes are not terminals: `auto` means no colour.
    assert!(!p.hookc(&["build"]).stderr.contains(esc));
    assert!(
        p.hookc(&["build", "--color", "always"])
            .stderr
            .contains(esc)
    );
    let forced = run(
        std::process::Command::new(HOOKC)
            .args(["build"])
            .current_dir(p.dir.path())
            .env("CLICOLOR_FORCE", "1")
            .env("NO_COLOR", "1"),
        None,
    );
    assert!(!forced.stderr.contains(esc), "NO_COLOR wins");
}

/// The results on stdout (a build's changes, doctor's checks) follow the
/// same colour settings as the diagnostics.
#[test]
fn build_and_doctor_results_follow_the_colour_settings() {
    let esc = '\u{1b}';
    let with = |args: &[&str], env: &[(&str, &str)]| {
        let p = Project::new();
        p.write("policy.kdl", GUARD);
        let mut command = std::process::Command::new(HOOKC);
        command
            .args(args)
            .current_dir(p.dir.path())
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("CLICOLOR");
        for (k, v) in env {
            command.env(k, v);
        }
        (run(&mut command, None).stdout, p)
    };
    let (built, _) = with(&["build", "--color", "always"], &[]);
    assert!(
        built.contains(&format!("{esc}[32mcreate")),
        "a created file is green: {built}"
    );
    let (built, _) = with(&["build"], &[]);
    assert!(!built.contains(esc), "stdout is no terminal: {built}");
    let (built, _) = with(&["build"], &[("CLICOLOR_FORCE", "1")]);
    assert!(built.contains(esc), "CLICOLOR_FORCE: {built}");
    let (built, _) = with(&["build"], &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]);
    assert!(!built.contains(esc), "NO_COLOR wins: {built}");

    let (doctor, _) = with(&["doctor", "--color", "always"], &[]);
    assert!(doctor.contains(&format!("{esc}[32mok")), "{doctor}");
    let (doctor, _) = with(&["doctor", "--color", "never"], &[("CLICOLOR_FORCE", "1")]);
    assert!(!doctor.contains(esc) && doctor.contains("ok "), "{doctor}");
}

#[test]
fn completions_are_generated_for_every_shell() {
    let p = Project::new();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let run = p.hookc(&["completions", shell]);
        assert_eq!(run.status, 0, "{shell}: {}", run.stderr);
        for word in ["hookc", "init", "build", "policy", "harness"] {
            assert!(run.stdout.contains(word), "{shell} lacks {word}");
        }
    }
}

#[test]
fn the_man_page_is_generated_from_the_same_definition() {
    let p = Project::new();
    let run = p.hookc(&["man"]);
    assert_eq!(run.status, 0);
    assert!(run.stdout.contains(".TH hookc 1"));
    for word in ["init", "build", "check", "explain", "Exit status"] {
        assert!(run.stdout.contains(word), "man page lacks {word}");
    }
    // It names no page of its own for a command (nothing writes
    // hookc-build(1)): each command is named with where its options are.
    assert!(!run.stdout.contains("(1)"), "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "\\fBhookc allow\\-once\\fR (options: \\fBhookc allow\\-once \\-\\-help\\fR)"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn a_missing_policy_names_the_file_and_the_fix() {
    let p = Project::new();
    let run = p.hookc(&["build"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("policy.kdl"), "{}", run.stderr);
    assert!(run.stderr.contains("hookc init"), "{}", run.stderr);
}

/// Every command whose reader stops reading (`hookc test | head -1`) stops
/// quietly: no panic message, status 0. The pipe's reading end is closed
/// before hookc starts, so its first write already fails.
#[test]
fn a_closed_pipe_ends_a_command_quietly() {
    let p = Project::new();
    p.write("policy.kdl", GUARD);
    p.build();
    for args in [
        &["test"][..],
        &["why", "git push -f"],
        &["explain"],
        &["man"],
        &["completions", "bash"],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = std::process::Command::new(HOOKC)
            .args(args)
            .current_dir(p.dir.path())
            .env("NO_COLOR", "1")
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "hookc {args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "hookc {args:?}: {stderr}");
    }
}
