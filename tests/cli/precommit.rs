//! `hookc check` as a pre-commit gate: the retracted state, the pre-commit
//! framework's hook manifest, and `hookc install-pre-commit`.

use std::process::Command;

use crate::support::{Project, path_with_hookc, repo, run};

const GUARD: &str = "targets \"claude\"\nguard \"no-force-push\" {\n    command \"git\" \"push\" { flag \"-f\" \"--force\"; }\n    deny \"Open a pull request.\"\n}\n";

#[test]
fn check_is_clean_after_build_and_reports_a_pending_retraction() {
    let p = Project::new();
    p.write("policy.kdl", GUARD);
    p.build();
    let clean = p.hookc(&["check"]);
    assert_eq!(clean.status, 0, "{}{}", clean.stdout, clean.stderr);
    // Every guard removed: the shim and settings entry are still on disk.
    p.write("policy.kdl", "targets \"claude\"\n");
    let check = p.hookc(&["check"]);
    assert_eq!(check.status, 1, "{}{}", check.stdout, check.stderr);
    assert!(check.stderr.contains("hookc::drift"), "{}", check.stderr);
    assert!(check.stdout.contains("pre-tool.sh"), "{}", check.stdout);
    assert!(
        p.exists(".hookc/claude/pre-tool.sh"),
        "check deleted nothing"
    );
    p.build();
    assert_eq!(p.hookc(&["check"]).status, 0);
}

#[test]
fn check_without_a_policy_cannot_run() {
    let p = Project::new();
    assert_eq!(p.hookc(&["check"]).status, 2);
}

#[test]
fn the_pre_commit_manifest_declares_check_lint_and_build() {
    let text = std::fs::read_to_string(repo().join(".pre-commit-hooks.yaml")).unwrap();
    let hooks = ["- id: hookc-check", "- id: hookc-lint", "- id: hookc-build"];
    for id in hooks {
        assert!(text.contains(id), "{id}");
    }
    // Every hook follows the framework's conventions for a whole-project tool.
    for line in [
        "pass_filenames: false",
        "minimum_pre_commit_version: \"3.2.0\"",
        "stages: [pre-commit, pre-merge-commit, pre-push, manual]",
        "language: rust",
    ] {
        assert_eq!(text.matches(line).count(), hooks.len(), "{line}");
    }
}

fn git_repo() -> Project {
    let p = Project::new();
    let out = run(
        Command::new("git")
            .args(["init", "-q"])
            .current_dir(p.dir.path()),
        None,
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    p
}

fn run_hook(p: &Project) -> crate::support::Run {
    run(
        Command::new(p.path(".git/hooks/pre-commit"))
            .env("PATH", path_with_hookc())
            .current_dir(p.dir.path()),
        None,
    )
}

#[test]
fn install_pre_commit_writes_an_executable_hook_that_runs_check() {
    let p = git_repo();
    p.write("policy.kdl", GUARD);
    p.build();
    let out = p.hookc(&["install-pre-commit"]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(p.read(".git/hooks/pre-commit").contains("exec hookc check"));
    assert_eq!(run_hook(&p).status, 0);
    p.write("policy.kdl", "targets \"claude\"\n");
    assert_eq!(run_hook(&p).status, 1, "drift stops the commit");
    // Installing again changes nothing.
    let before = p.read(".git/hooks/pre-commit");
    assert_eq!(p.hookc(&["install-pre-commit"]).status, 0);
    assert_eq!(p.read(".git/hooks/pre-commit"), before);
}

#[test]
fn install_pre_commit_chains_an_existing_hook_instead_of_clobbering_it() {
    let p = git_repo();
    p.write("policy.kdl", GUARD);
    p.build();
    let mine = "#!/bin/sh\necho mine ran > mine.txt\nexit 0\n";
    p.write(".git/hooks/pre-commit", mine);
    crate::support::make_executable(&p.path(".git/hooks/pre-commit"));
    assert_eq!(p.hookc(&["install-pre-commit"]).status, 0);
    assert_eq!(p.read(".git/hooks/pre-commit.before-hookc"), mine);
    let hook = run_hook(&p);
    assert_eq!(hook.status, 0, "{}{}", hook.stdout, hook.stderr);
    assert!(p.exists("mine.txt"), "the old hook still runs");
    // The old hook's failure still stops the commit.
    p.write(".git/hooks/pre-commit.before-hookc", "#!/bin/sh\nexit 3\n");
    assert_eq!(run_hook(&p).status, 3);
}

#[test]
fn install_pre_commit_outside_a_repository_is_exit_2() {
    let p = Project::new();
    assert_eq!(p.hookc(&["install-pre-commit"]).status, 2);
}
