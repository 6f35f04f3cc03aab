//! `extends`: a policy built on an organisation's, pinned by digest,
//! tighten-only; `hookc update` pins; `policy.lock` records.

use std::path::Path;
use std::process::Command;

use crate::support::{Project, Run, run};

const HOOKC: &str = env!("CARGO_BIN_EXE_hookc");

/// The organisation's policy: one command guard, a timeout, a target.
const ORG: &str = "// The organisation's guards.\ntargets \"claude\" \"codex\"\ntimeout 15\n\nguard \"org-no-force-push\" {\n    tool \"shell\"\n    command \"git\" \"push\" { flag \"--force\" \"-f\"; }\n    deny \"Do not force-push: push a new branch and open a pull request.\"\n    example \"git push --force\" expect=\"deny\"\n    example \"git push\" expect=\"allow\"\n}\n";

/// The repository's own guard, added on top.
const OWN: &str = "guard \"no-env\" {\n    tool \"shell\"\n    path \".env\" access=\"read\"\n    deny \"Do not read .env; ask for the value you need.\"\n    example \"cat .env\" expect=\"deny\"\n}\n";

/// `hookc ARGS` in the project, with its own state folder (hookc's cache
/// of fetched policies) and no git settings of the machine's.
fn hookc(p: &Project, args: &[&str]) -> Run {
    run(
        Command::new(HOOKC)
            .args(args)
            .current_dir(p.dir.path())
            .env("XDG_STATE_HOME", p.path("state"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null"),
        None,
    )
}

fn ok(r: &Run) {
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
}

/// A project whose policy extends `org/policy.kdl`, pinned by `hookc update`.
fn extending(own: &str) -> Project {
    let p = Project::new();
    p.write("org/policy.kdl", ORG);
    p.write(
        "policy.kdl",
        &format!("// Ours, on the organisation's.\nextends \"org/policy.kdl\" // pinned\n\n{own}"),
    );
    ok(&hookc(&p, &["update"]));
    p
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "tag.gpgSign=false",
        ])
        .args([
            "-c",
            "commit.gpgSign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_policy_builds_on_a_pinned_file_and_answers_with_its_guards() {
    let p = extending(OWN);
    let policy = p.read("policy.kdl");
    // `hookc update` wrote the digest of the file, and nothing else.
    let pin = hookc::extends::digest(ORG.as_bytes());
    assert_eq!(
        policy,
        format!(
            "// Ours, on the organisation's.\nextends \"org/policy.kdl\" digest=\"{pin}\" // pinned\n\n{OWN}"
        )
    );
    ok(&hookc(&p, &["build"]));
    let lock: serde_json::Value = serde_json::from_str(&p.read("policy.lock")).unwrap();
    assert_eq!(lock["extends"][0]["source"], "org/policy.kdl");
    assert_eq!(lock["extends"][0]["digest"], pin.as_str());
    // The inherited targets hold: Claude Code and Codex, nobody else.
    assert!(p.exists(".claude/settings.json") && p.exists(".codex/hooks.json"));
    assert!(!p.exists(".gemini/settings.json"));
    // The inherited guard refuses, and says where it is written.
    let why = hookc(&p, &["why", "git push --force origin main"]);
    ok(&why);
    assert!(
        why.stdout
            .contains("MATCH  org-no-force-push (from org/policy.kdl, line 5) -> deny"),
        "{}",
        why.stdout
    );
    assert!(why.stdout.contains("Do not force-push"), "{}", why.stdout);
    let own = hookc(&p, &["why", "cat .env"]);
    assert!(
        own.stdout.contains("MATCH  no-env -> deny"),
        "{}",
        own.stdout
    );
    ok(&hookc(&p, &["check"]));
}

#[test]
fn a_changed_upstream_fails_build_and_check_until_it_is_pinned_again() {
    let p = extending(OWN);
    ok(&hookc(&p, &["build"]));
    let settings = p.read(".claude/settings.json");
    p.write("org/policy.kdl", &ORG.replace("timeout 15", "timeout 20"));
    for command in ["check", "build"] {
        let r = hookc(&p, &[command]);
        assert_eq!(r.status, 1, "{command}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains("hookc::extends-digest"), "{}", r.stderr);
        assert!(r.stderr.contains("hookc update"), "{}", r.stderr);
    }
    // The failed build wrote nothing.
    assert_eq!(p.read(".claude/settings.json"), settings);
    ok(&hookc(&p, &["update"]));
    ok(&hookc(&p, &["build"]));
    assert_ne!(
        p.read(".claude/settings.json"),
        settings,
        "the new timeout is in"
    );
    ok(&hookc(&p, &["check"]));
}

#[test]
fn the_lock_is_checked_like_every_generated_file() {
    let p = extending(OWN);
    ok(&hookc(&p, &["build"]));
    let lock = p.read("policy.lock");
    p.write(
        "policy.lock",
        &lock.replace("org/policy.kdl", "elsewhere.kdl"),
    );
    let r = hookc(&p, &["check"]);
    assert_eq!(r.status, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("policy.lock"), "{}", r.stdout);
}

#[test]
fn an_extends_without_a_pin_is_an_error_and_fetches_nothing() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        &format!("extends \"git+file:///nonexistent/org.git\" rev=\"v1\" path=\"org.kdl\"\n{OWN}"),
    );
    let r = hookc(&p, &["build"]);
    assert_eq!(r.status, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("hookc::extends-unpinned"), "{}", r.stderr);
    assert!(!p.exists("state/hookc/extends"), "nothing was fetched");
    p.write(
        "policy.kdl",
        &format!("extends \"org/policy.kdl\" digest=\"sha1:abc\"\n{OWN}"),
    );
    let r = hookc(&p, &["build"]);
    assert!(r.stderr.contains("hookc::extends-unpinned"), "{}", r.stderr);
}

#[test]
fn every_loosening_is_refused_and_names_the_inherited_policy() {
    for (ours, says) in [
        (
            "guard \"org-no-force-push\" {\n    tool \"shell\"\n    command \"git\" \"status\"\n    deny \"x\"\n    example \"git status\" expect=\"deny\"\n}\n",
            "guard `org-no-force-push` is inherited (org/policy.kdl, line 5)",
        ),
        ("targets \"claude\"\n", "`targets` leaves out `codex`"),
        (
            "timeout 5\n",
            "`timeout 5` is shorter than org/policy.kdl's 15",
        ),
        (
            "on-error \"ask\"\n",
            "`on-error \"ask\"` is laxer than org/policy.kdl's `deny`",
        ),
        ("self-protection \"off\"\n", "`self-protection \"off\"`"),
        (
            "harness \"claude\" {\n    on-failure-block #false\n}\n",
            "`on-failure-block #false` turns off a safeguard of harness `claude`",
        ),
    ] {
        let p = extending(&format!("{OWN}{ours}"));
        let r = hookc(&p, &["build"]);
        assert_eq!(r.status, 1, "{ours}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stderr.contains("hookc::extends-loosens"),
            "{ours}: {}",
            r.stderr
        );
        assert!(r.stderr.contains(says), "{ours}: {}", r.stderr);
        assert!(
            !p.exists(".claude/settings.json"),
            "{ours}: nothing written"
        );
    }
    // Tightening builds: more harnesses, a longer timeout, a guard of its own.
    let p = extending(&format!(
        "{OWN}targets \"claude\" \"codex\" \"gemini\"\ntimeout 30\n"
    ));
    ok(&hookc(&p, &["build"]));
    assert!(p.exists(".gemini/settings.json"));
}

#[test]
fn approvals_this_policy_turns_on_do_not_reach_inherited_guards() {
    let p = extending(&format!("{OWN}allow-once #true\n"));
    ok(&hookc(&p, &["build"]));
    let compiled = p.read(".hookc/policy.json");
    // The compiled policy lists the guards no approval lets through.
    let never = compiled
        .lines()
        .find(|l| l.contains("never_override"))
        .unwrap_or_else(|| panic!("{compiled}"));
    assert!(never.contains("org-no-force-push"), "{never}");
    assert!(!never.contains("no-env"), "{never}");
}

#[test]
fn a_git_source_is_fetched_at_its_rev_and_kept_for_builds_offline() {
    let up = tempfile::tempdir().unwrap();
    git(up.path(), &["init", "-q"]);
    std::fs::write(up.path().join("org.kdl"), ORG).unwrap();
    git(up.path(), &["add", "org.kdl"]);
    git(up.path(), &["commit", "-qm", "org policy"]);
    git(up.path(), &["tag", "v1"]);
    let url = format!("git+file://{}", up.path().display());
    let p = Project::new();
    p.write(
        "policy.kdl",
        &format!("extends \"{url}\" rev=\"v1\" path=\"org.kdl\"\n{OWN}"),
    );
    ok(&hookc(&p, &["update"]));
    ok(&hookc(&p, &["build"]));
    let lock = p.read("policy.lock");
    assert!(
        lock.contains("\"rev\": \"v1\"") && lock.contains("\"commit\": \""),
        "{lock}"
    );
    let why = hookc(&p, &["why", "git push -f"]);
    assert!(why.stdout.contains("(from "), "{}", why.stdout);

    // Moved upstream: the tag now names other bytes.
    std::fs::write(
        up.path().join("org.kdl"),
        ORG.replace("timeout 15", "timeout 16"),
    )
    .unwrap();
    git(up.path(), &["commit", "-qam", "longer"]);
    git(up.path(), &["tag", "-f", "v1"]);
    let r = hookc(&p, &["check"]);
    assert_eq!(r.status, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("hookc::extends-digest"), "{}", r.stderr);

    // Gone: the copy the first build kept answers, with a warning, and
    // the lock it writes is the one written when it was fetched.
    drop(up);
    let r = hookc(&p, &["check"]);
    ok(&r);
    assert!(r.stderr.contains("could not fetch"), "{}", r.stderr);
}

#[test]
fn a_source_that_would_run_a_command_is_refused() {
    let p = Project::new();
    let planted = p.path("planted");
    p.write(
        "policy.kdl",
        &format!(
            "extends \"git+ext::sh -c touch\\\\ {}\" path=\"org.kdl\" digest=\"sha256:{}\"\n{OWN}",
            planted.display(),
            "0".repeat(64)
        ),
    );
    for command in [&["build"][..], &["update"]] {
        let r = hookc(&p, command);
        assert_eq!(r.status, 1, "{}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains("hookc::extends-source"), "{}", r.stderr);
    }
    assert!(!planted.exists());
    let p = Project::new();
    p.write(
        "policy.kdl",
        &format!(
            "extends \"https://example.com/org.kdl\" digest=\"sha256:{}\"\n{OWN}",
            "0".repeat(64)
        ),
    );
    let r = hookc(&p, &["build"]);
    assert!(
        r.stderr.contains("does not fetch policies over HTTP"),
        "{}",
        r.stderr
    );
}
