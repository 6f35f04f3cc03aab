//! Finding policy.kdl from a subdirectory, and where the search must stop.

use std::path::Path;
use std::process::Command;

use crate::support::{HOOKC, Project, run};

const GUARD: &str = "targets \"claude\"\nguard \"no-force-push\" {\n    command \"git\" \"push\" { flag \"-f\" \"--force\"; }\n    deny \"Open a pull request.\"\n    example \"git push -f\" expect=\"deny\"\n}\n";

fn hookc_in(dir: &Path, args: &[&str]) -> crate::support::Run {
    run(
        Command::new(HOOKC)
            .args(args)
            .current_dir(dir)
            .env_remove("HOOKC_POLICY"),
        None,
    )
}

#[test]
fn build_check_and_test_find_the_policy_from_a_subdirectory() {
    let p = Project::new();
    p.write("policy.kdl", GUARD);
    std::fs::create_dir_all(p.path(".git")).unwrap();
    let sub = p.path("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    let build = hookc_in(&sub, &["build"]);
    assert_eq!(build.status, 0, "{}{}", build.stdout, build.stderr);
    // Written next to the policy, not in the subdirectory.
    assert!(p.exists(".claude/settings.json"));
    assert!(p.exists(".hookc/policy.json"));
    assert!(!p.exists("src/deep/.claude") && !p.exists("src/deep/.hookc"));
    // The generated files name the policy as a build from the root does.
    let from_sub = p.read(".hookc/policy.json");
    assert_eq!(p.hookc(&["check"]).status, 0);
    assert_eq!(p.read(".hookc/policy.json"), from_sub);
    let check = hookc_in(&sub, &["check"]);
    assert_eq!(check.status, 0, "{}{}", check.stdout, check.stderr);
    let test = hookc_in(&sub, &["test", "--allow-missing-node"]);
    assert_eq!(test.status, 0, "{}{}", test.stdout, test.stderr);
    // Drift is seen from the subdirectory too.
    p.write("policy.kdl", "targets \"claude\"\n");
    assert_eq!(hookc_in(&sub, &["check"]).status, 1);
}

#[test]
fn an_explicit_policy_wins_over_the_search() {
    let p = Project::new();
    p.write("policy.kdl", "this is not kdl {");
    p.write("sub/mine.kdl", GUARD);
    let sub = p.path("sub");
    let build = hookc_in(&sub, &["build", "--policy", "mine.kdl"]);
    assert_eq!(build.status, 0, "{}{}", build.stdout, build.stderr);
    // --policy alone writes into the current folder, as it always did.
    assert!(p.exists("sub/.claude/settings.json"));
    assert!(!p.exists(".claude"));
    // --out without --policy: the searched policy, the given folder.
    let out = hookc_in(&sub, &["check", "--out", "."]);
    assert_eq!(out.status, 1, "the root policy is found and fails to parse");
    assert!(out.stderr.contains("../policy.kdl"), "{}", out.stderr);
}

#[test]
fn no_policy_names_the_folders_searched_and_suggests_init() {
    let p = Project::new();
    std::fs::create_dir_all(p.path(".git")).unwrap();
    let sub = p.path("a/b");
    std::fs::create_dir_all(&sub).unwrap();
    for cmd in [&["build"][..], &["check"], &["test"]] {
        let out = hookc_in(&sub, cmd);
        assert_eq!(out.status, 2, "{cmd:?}: {}{}", out.stdout, out.stderr);
        let root = p.dir.path().canonicalize().unwrap();
        assert!(
            out.stderr.contains(&format!("up to {}", root.display())),
            "{cmd:?}: {}",
            out.stderr
        );
        assert!(out.stderr.contains("repository root"), "{}", out.stderr);
        assert!(out.stderr.contains("hookc init"), "{}", out.stderr);
    }
    assert!(!p.exists("a/b/.hookc") && !p.exists(".hookc"));
}

/// A policy in a folder every user may write to (like /tmp) is not picked
/// up by a project below it that has no repository root of its own.
#[test]
fn a_policy_in_a_world_writable_folder_above_is_never_used() {
    use std::os::unix::fs::PermissionsExt;
    let p = Project::new();
    let shared = p.path("shared");
    std::fs::create_dir_all(shared.join("proj")).unwrap();
    p.write("shared/policy.kdl", GUARD);
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
    let out = hookc_in(&shared.join("proj"), &["build"]);
    assert_eq!(out.status, 2, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("writable by every user"),
        "{}",
        out.stderr
    );
    assert!(!p.exists("shared/.hookc") && !p.exists("shared/proj/.hookc"));
}

/// Nor is one above $HOME.
#[test]
fn a_policy_above_home_is_never_used() {
    let p = Project::new();
    p.write("policy.kdl", GUARD);
    let home = p.path("me");
    std::fs::create_dir_all(home.join("proj")).unwrap();
    let out = run(
        Command::new(HOOKC)
            .arg("check")
            .current_dir(home.join("proj"))
            .env("HOME", &home)
            .env_remove("HOOKC_POLICY"),
        None,
    );
    assert_eq!(out.status, 2, "{}{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("above $HOME"), "{}", out.stderr);
}

#[test]
fn lint_without_paths_lints_the_policys_project() {
    let p = Project::new();
    p.write("policy.kdl", GUARD);
    std::fs::create_dir_all(p.path(".git")).unwrap();
    p.write(
        ".claude/settings.json",
        r#"{"hooks": {"preToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}}"#,
    );
    std::fs::create_dir_all(p.path("src")).unwrap();
    let out = hookc_in(&p.path("src"), &["lint"]);
    assert!(
        out.stdout.contains("preToolUse") || out.stderr.contains("preToolUse"),
        "{}{}",
        out.stdout,
        out.stderr
    );
}
