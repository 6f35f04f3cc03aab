//! The build summary says, per harness, what will really run: guards that
//! cannot run there are not counted, hooks in a user-level file are not
//! active until `--user` wrote it, and the to-do list comes once.

use std::process::Command;

use crate::support::{HOOKC, Project, run};

fn build(p: &Project, args: &[&str], home: &std::path::Path) -> crate::support::Run {
    let out = run(
        Command::new(HOOKC)
            .arg("build")
            .args(args)
            .current_dir(p.dir.path())
            .env("HOME", home)
            .env_remove("KIMI_CODE_HOME")
            .env_remove("HOOKC_POLICY"),
        None,
    );
    assert_eq!(out.status, 0, "{}{}", out.stdout, out.stderr);
    out
}

/// The line of the summary about `harness`.
fn line<'a>(out: &'a str, harness: &str) -> &'a str {
    out.lines()
        .find(|l| l.starts_with(&format!("{harness}:")))
        .unwrap_or_else(|| panic!("no line for {harness} in:\n{out}"))
}

#[test]
fn a_guard_that_cannot_run_on_a_harness_is_not_counted_as_active() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"targets "codex"
guard "no-force-push" {
    command "git" "push" { flag "--force"; }
    deny "Push a new branch instead."
    example "git push --force" expect="deny"
}
guard "no-env-reads" {
    tool "read"
    path ".env*"
    deny "Use .env.example for the variable names."
    example tool="read" path=".env" expect="deny"
}
"#,
    );
    let home = p.path("home");
    let out = build(&p, &[], &home);
    assert!(
        out.stderr.contains("no-env-reads"),
        "the warning: {}",
        out.stderr
    );
    let codex = line(&out.stdout, "Codex CLI");
    assert!(codex.starts_with("Codex CLI: 1 guard active in"), "{codex}");
    assert!(codex.contains("cannot run there: no-env-reads"), "{codex}");
}

#[test]
fn user_level_hooks_are_not_active_before_build_user_wrote_them() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"targets "kimi"
guard "no-force-push" {
    command "git" "push" { flag "--force"; }
    deny "Push a new branch instead."
    example "git push --force" expect="deny"
}
"#,
    );
    let home = p.path("home");
    std::fs::create_dir_all(&home).unwrap();
    let out = build(&p, &[], &home);
    let kimi = line(&out.stdout, "Kimi Code CLI");
    assert!(!kimi.contains("active in"), "{kimi}");
    assert!(kimi.contains("not active yet"), "{kimi}");
    assert!(kimi.contains("hookc build --user"), "{kimi}");
    assert!(!home.join(".kimi-code/config.toml").exists());
    let out = build(&p, &["--user"], &home);
    let kimi = line(&out.stdout, "Kimi Code CLI");
    assert!(kimi.contains("1 guard active in"), "{kimi}");
    assert!(kimi.contains("~/.kimi-code/config.toml"), "{kimi}");
    assert!(home.join(".kimi-code/config.toml").exists());
}

#[test]
fn the_to_do_list_comes_with_the_first_build_and_with_verbose() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"targets "claude"
guard "no-force-push" {
    command "git" "push" { flag "--force"; }
    deny "Push a new branch instead."
    example "git push --force" expect="deny"
}
"#,
    );
    let home = p.path("home");
    let first = build(&p, &[], &home);
    assert!(
        first.stdout.contains("  to do: install hookc"),
        "{}",
        first.stdout
    );
    let again = build(&p, &[], &home);
    assert!(!again.stdout.contains("to do:"), "{}", again.stdout);
    assert!(line(&again.stdout, "Claude Code").contains("1 guard active in"));
    let verbose = build(&p, &["-v"], &home);
    assert!(
        verbose.stdout.contains("  to do: install hookc"),
        "{}",
        verbose.stdout
    );
}
