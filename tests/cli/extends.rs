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

/// `hookc ARGS` in the project fails (exit 1), and its diagnostics say `says`.
fn refused(p: &Project, args: &[&str], says: &str) -> Run {
    let r = hookc(p, args);
    assert_eq!(r.status, 1, "{args:?}: {}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    r
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
    // The agent can neither edit the extended file nor pin what it wrote.
    for (line, by) in [
        (
            "sed -i s/deny/allow/ org/policy.kdl",
            "hookc-self-protection",
        ),
        ("rm policy.lock", "hookc-self-protection"),
        ("hookc update", "hookc-self-protection-commands"),
    ] {
        let why = hookc(&p, &["why", line]);
        assert!(
            why.stdout.contains(&format!("Verdict: deny (by {by})")),
            "{line}: {}",
            why.stdout
        );
    }
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
    refused(&p, &["build"], "hookc::extends-unpinned");
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
    refused(&p, &["check"], "hookc::extends-digest");

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
            "extends \"http://example.com/org.kdl\" digest=\"sha256:{}\"\n{OWN}",
            "0".repeat(64)
        ),
    );
    let r = hookc(&p, &["build"]);
    assert!(r.stderr.contains("only over HTTPS"), "{}", r.stderr);
}

/// `hookc check --org`: five repositories on the organisation's policy,
/// one of them stale and one loosening it; one more by git URL.
#[test]
fn the_fleet_check_reports_each_repository_and_fails_on_any_that_is_not_current() {
    let fleet = Project::new();
    fleet.write("org/policy.kdl", ORG);
    let pin = hookc::extends::digest(ORG.as_bytes());
    let on_org = format!("extends \"../org/policy.kdl\" digest=\"{pin}\"\n{OWN}");
    for name in ["api", "web", "docs", "infra", "tools"] {
        fleet.write(&format!("{name}/policy.kdl"), &on_org);
    }
    for name in ["api", "web", "docs", "tools"] {
        ok(&hookc(
            &fleet,
            &[
                "build",
                "--policy",
                &format!("{name}/policy.kdl"),
                "--out",
                name,
            ],
        ));
    }
    // Stale: a generated file edited by hand after the build.
    let settings = fleet.read("docs/.claude/settings.json");
    fleet.write(
        "docs/.claude/settings.json",
        &settings.replace("pre-tool.sh", "pre-tool.sh.off"),
    );
    // Loosening: a shorter timeout than the organisation's.
    fleet.write("infra/policy.kdl", &format!("{on_org}timeout 3\n"));
    // One more, cloned from a git URL: current.
    let up = tempfile::tempdir().unwrap();
    std::fs::write(up.path().join("org.kdl"), ORG).unwrap();
    std::fs::write(
        up.path().join("policy.kdl"),
        format!("extends \"org.kdl\" digest=\"{pin}\"\n{OWN}"),
    )
    .unwrap();
    let built = run(
        Command::new(HOOKC)
            .args(["build", "-q"])
            .current_dir(up.path())
            .env("XDG_STATE_HOME", fleet.path("state")),
        None,
    );
    ok(&built);
    git(up.path(), &["init", "-q"]);
    git(up.path(), &["add", "-A"]);
    git(up.path(), &["commit", "-qm", "hooks"]);
    // A repository whose policy.kdl is a link out of it, to a file of the
    // machine that runs the check: not read.
    fleet.write("secret.kdl", "top secret line\n");
    std::fs::create_dir_all(fleet.path("linked")).unwrap();
    std::os::unix::fs::symlink(fleet.path("secret.kdl"), fleet.path("linked/policy.kdl")).unwrap();
    fleet.write(
        "repos.txt",
        &format!(
            "# The fleet.\napi\nweb   # the web team\ndocs\ninfra\ntools\ngit+file://{}\nmissing\nlinked\n",
            up.path().display()
        ),
    );
    let r = hookc(&fleet, &["check", "--org", "repos.txt", "--format", "json"]);
    assert_eq!(r.status, 1, "{}{}", r.stdout, r.stderr);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let state = |i: usize| doc["repositories"][i]["state"].as_str().unwrap().to_owned();
    let states: Vec<String> = (0..8).map(state).collect();
    assert_eq!(
        states,
        [
            "current",
            "current",
            "stale",
            "loosens",
            "current",
            "current",
            "unreadable",
            "unreadable"
        ],
        "{}",
        r.stdout
    );
    assert_eq!(doc["repositories"][0]["extends"][0]["digest"], pin.as_str());
    assert_eq!(
        doc["repositories"][2]["details"][0],
        ".claude/settings.json"
    );
    assert!(
        doc["repositories"][3]["details"][0]
            .as_str()
            .unwrap()
            .contains("`timeout 3` is shorter"),
        "{}",
        r.stdout
    );
    // The human report: a line a repository, what is wrong under it.
    let r = hookc(&fleet, &["check", "--org", "repos.txt"]);
    assert_eq!(r.status, 1);
    let line = |name: &str| {
        r.stdout
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name}: {}", r.stdout))
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_owned()
    };
    assert_eq!(line("docs"), "stale");
    assert_eq!(line("infra"), "loosens");
    assert_eq!(line("api"), "current");
    assert!(
        r.stdout.contains("8 repositories, 4 not current"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("top secret"), "{}", r.stdout);
    // Nothing was written to any of them.
    assert!(!fleet.exists("infra/.claude"));
    // All current: exit 0.
    fleet.write("repos.txt", "api\nweb\n");
    ok(&hookc(&fleet, &["check", "--org", "repos.txt"]));
}

/// The composite action's script runs the check the action says, with the
/// hookc on PATH, and refuses to run without one.
#[test]
fn the_ci_action_runs_the_fleet_check() {
    let script = crate::support::repo().join(".github/hookc-check.sh");
    let action = std::fs::read_to_string(crate::support::repo().join("action.yml")).unwrap();
    assert!(
        action.contains("$GITHUB_ACTION_PATH/.github/hookc-check.sh"),
        "{action}"
    );
    let fleet = extending(OWN);
    ok(&hookc(&fleet, &["build"]));
    fleet.write("repos.txt", ".\n");
    let action = |path: &str, org: &str| {
        run(
            Command::new("bash")
                .arg(&script)
                .current_dir(fleet.dir.path())
                .env("PATH", path)
                .env("HOOKC_ORG", org)
                .env("HOOKC_VERSION", "")
                .env("XDG_STATE_HOME", fleet.path("state")),
            None,
        )
    };
    let with_hookc = crate::support::path_with_hookc();
    let r = action(&with_hookc, "repos.txt");
    ok(&r);
    assert!(
        r.stdout.contains("1 repository, 0 not current"),
        "{}",
        r.stdout
    );
    fleet.write(
        "policy.kdl",
        &format!("{}timeout 1\n", fleet.read("policy.kdl")),
    );
    assert_eq!(action(&with_hookc, "repos.txt").status, 1);
    assert_eq!(
        action(&with_hookc, "").status,
        1,
        "plain `hookc check` in the repository"
    );
    let r = action("/usr/bin:/bin", "repos.txt");
    assert_eq!(r.status, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("::error::no hookc on PATH"),
        "{}",
        r.stderr
    );
}

/// The Renovate preset finds the rev of a git source, in the spelling the
/// book gives, and asks for `hookc update` after bumping it.
#[test]
fn the_renovate_preset_finds_each_git_rev() {
    let preset: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(crate::support::repo().join("renovate/hookc-extends.json"))
            .unwrap(),
    )
    .unwrap();
    let manager = &preset["customManagers"][0];
    let pattern = manager["matchStrings"][0].as_str().unwrap();
    let re = regex::Regex::new(pattern).unwrap();
    let policy = "// org\nextends \"git+https://github.com/acme/agent-policy.git\" rev=\"v3.1.0\" path=\"policy.kdl\" digest=\"sha256:00\"\nextends \"org/local.kdl\" digest=\"sha256:11\"\n";
    let found: Vec<(String, String)> = re
        .captures_iter(policy)
        .map(|c| (c["packageName"].to_owned(), c["currentValue"].to_owned()))
        .collect();
    assert_eq!(
        found,
        [(
            "https://github.com/acme/agent-policy.git".to_owned(),
            "v3.1.0".to_owned()
        )]
    );
    assert_eq!(manager["datasourceTemplate"], "git-tags");
    assert_eq!(preset["postUpgradeTasks"]["commands"][0], "hookc update");
    let files = regex::Regex::new(
        manager["managerFilePatterns"][0]
            .as_str()
            .unwrap()
            .trim_matches('/'),
    )
    .unwrap();
    assert!(files.is_match("policy.kdl") && files.is_match("services/api/policy.kdl"));
    assert!(!files.is_match("policy.kdl.bak"));
}

/// The audit log names where an inherited guard that refused is written.
#[test]
fn the_log_names_an_inherited_guards_origin() {
    let p = extending(&format!("{OWN}audit-log #true\n"));
    ok(&hookc(&p, &["build"]));
    for command in ["git push --force origin main", "cat .env"] {
        let payload = crate::support::claude_bash(command)
            .replace("\"/repo\"", &format!("{:?}", p.dir.path()));
        let refused = run(
            Command::new(HOOKC)
                .args(["guard", "--harness", "claude", "--event", "pre-tool"])
                .args(["--policy", ".hookc/policy.json"])
                .current_dir(p.dir.path())
                .env("XDG_STATE_HOME", p.path("state"))
                .env_remove("HOOKC_DEBUG"),
            Some(payload.as_bytes()),
        );
        assert_eq!(
            refused.status, 2,
            "{command}: {}{}",
            refused.stdout, refused.stderr
        );
    }
    let log = hookc(&p, &["log"]);
    ok(&log);
    assert!(
        log.stdout
            .contains("[org-no-force-push from org/policy.kdl, line 5]"),
        "{}",
        log.stdout
    );
    assert!(log.stdout.contains("[no-env]"), "{}", log.stdout);
}

/// An extended policy may extend another in turn: by path from its own
/// folder, or, read from git, a file of the same repository at the same
/// commit. Each guard keeps where it is written; a circle is refused.
#[test]
fn an_extended_policy_may_extend_another() {
    const BASE: &str = "targets \"claude\" \"codex\"\nguard \"base-no-hard-reset\" {\n    tool \"shell\"\n    command \"git\" \"reset\" { flag \"--hard\"; }\n    deny \"Do not reset --hard: stash instead.\"\n    example \"git reset --hard\" expect=\"deny\"\n}\n";
    let pin = hookc::extends::digest(BASE.as_bytes());
    let org = format!("extends \"base.kdl\" digest=\"{pin}\"\n{ORG}");
    let p = Project::new();
    p.write("org/base.kdl", BASE);
    p.write("org/policy.kdl", &org);
    p.write("policy.kdl", &format!("extends \"org/policy.kdl\"\n{OWN}"));
    ok(&hookc(&p, &["update"]));
    ok(&hookc(&p, &["build"]));
    let why = hookc(&p, &["why", "git reset --hard"]);
    assert!(
        why.stdout
            .contains("MATCH  base-no-hard-reset (from org/base.kdl, line 2) -> deny"),
        "{}",
        why.stdout
    );
    let lock = p.read("policy.lock");
    assert!(lock.contains("\"within\": \"org/policy.kdl\""), "{lock}");
    // A change two layers down fails the build: the middle pins it.
    p.write("org/base.kdl", &BASE.replace("stash instead", "stash it"));
    refused(&p, &["build"], "hookc::extends-digest");
    p.write("org/base.kdl", BASE);
    // The middle layer may not loosen the bottom one either.
    p.write("org/policy.kdl", &format!("{org}on-error \"ask\"\n"));
    ok(&hookc(&p, &["update"]));
    let r = refused(&p, &["build"], "hookc::extends-loosens");
    assert!(r.stderr.contains("org/policy.kdl"), "{}", r.stderr);

    // From git: the nested path is the repository's file.
    let up = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(up.path().join("policies")).unwrap();
    std::fs::write(up.path().join("policies/base.kdl"), BASE).unwrap();
    std::fs::write(up.path().join("policies/org.kdl"), &org).unwrap();
    git(up.path(), &["init", "-q"]);
    git(up.path(), &["add", "-A"]);
    git(up.path(), &["commit", "-qm", "policies"]);
    let g = Project::new();
    g.write(
        "policy.kdl",
        &format!(
            "extends \"git+file://{}\" path=\"policies/org.kdl\"\n{OWN}",
            up.path().display()
        ),
    );
    ok(&hookc(&g, &["update"]));
    ok(&hookc(&g, &["build"]));
    let why = hookc(&g, &["why", "git reset --hard"]);
    assert!(
        why.stdout.contains("base-no-hard-reset (from ")
            && why.stdout.contains("policies/base.kdl, line 2) -> deny"),
        "{}",
        why.stdout
    );

    // Two policies built on one base: its guards are taken once. Another
    // file with a guard of the same name is a conflict.
    let m = Project::new();
    m.write("org/base.kdl", BASE);
    let team = |name: &str| {
        format!(
            "extends \"base.kdl\" digest=\"{pin}\"\ntargets \"claude\" \"codex\"\nguard \"{name}\" {{\n    tool \"shell\"\n    command \"{name}\"\n    deny \"no\"\n    example \"{name}\" expect=\"deny\"\n}}\n"
        )
    };
    m.write("org/web.kdl", &team("web-tool"));
    m.write("org/api.kdl", &team("api-tool"));
    m.write(
        "policy.kdl",
        &format!("extends \"org/web.kdl\"\nextends \"org/api.kdl\"\n{OWN}"),
    );
    ok(&hookc(&m, &["update"]));
    ok(&hookc(&m, &["build"]));
    let why = hookc(&m, &["why", "git reset --hard"]);
    assert_eq!(
        why.stdout.matches("MATCH  base-no-hard-reset").count(),
        1,
        "{}",
        why.stdout
    );
    m.write("org/other.kdl", BASE);
    m.write(
        "policy.kdl",
        &format!("extends \"org/web.kdl\"\nextends \"org/other.kdl\"\n{OWN}"),
    );
    ok(&hookc(&m, &["update"]));
    refused(&m, &["build"], "comes from both");

    // Nine layers deep is one too many.
    let d = Project::new();
    let mut below = BASE.to_owned();
    for n in (1..=9).rev() {
        d.write(&format!("org/l{n}.kdl"), &below);
        below = format!(
            "extends \"l{n}.kdl\" digest=\"{}\"\n",
            hookc::extends::digest(below.as_bytes())
        );
    }
    d.write(
        "policy.kdl",
        &format!("{}{OWN}", below.replace("l1.kdl", "org/l1.kdl")),
    );
    refused(&d, &["build"], "deeper than hookc lays policies");
}

/// An HTTPS source is fetched with curl on every build; when it cannot be
/// fetched, the copy an earlier build kept answers if it holds the pin, and
/// nothing answers otherwise.
#[test]
fn an_https_source_falls_back_to_the_kept_copy_only() {
    let pin = hookc::extends::digest(ORG.as_bytes());
    let p = Project::new();
    // Nothing listens there: the fetch fails at once, without a network.
    p.write(
        "policy.kdl",
        &format!("extends \"https://127.0.0.1:9/org/policy.kdl\" digest=\"{pin}\"\n{OWN}"),
    );
    let r = refused(&p, &["build"], "hookc::extends-source");
    assert!(r.stderr.contains("cannot read the policy"), "{}", r.stderr);
    // A kept copy of other bytes under the pin's name is not taken.
    let kept = format!("state/hookc/extends/{}", pin.replace(':', "-"));
    p.write(&kept, &ORG.replace("15", "16"));
    assert_eq!(hookc(&p, &["build"]).status, 1);
    // The pinned bytes are.
    p.write(&kept, ORG);
    let r = hookc(&p, &["build"]);
    ok(&r);
    assert!(r.stderr.contains("could not fetch"), "{}", r.stderr);
    let why = hookc(&p, &["why", "git push -f"]);
    assert!(
        why.stdout
            .contains("(from https://127.0.0.1:9/org/policy.kdl, line 5) -> deny"),
        "{}",
        why.stdout
    );
    // Its own `extends "base.kdl"` is the URL below its folder, taken from
    // the kept copy too.
    const BASE: &str = "targets \"claude\" \"codex\"\nguard \"base-no-hard-reset\" {\n    tool \"shell\"\n    command \"git\" \"reset\" { flag \"--hard\"; }\n    deny \"Stash instead.\"\n    example \"git reset --hard\" expect=\"deny\"\n}\n";
    let base_pin = hookc::extends::digest(BASE.as_bytes());
    let upper = format!("extends \"base.kdl\" digest=\"{base_pin}\"\n{ORG}");
    let upper_pin = hookc::extends::digest(upper.as_bytes());
    p.write(
        &format!("state/hookc/extends/{}", base_pin.replace(':', "-")),
        BASE,
    );
    p.write(
        &format!("state/hookc/extends/{}", upper_pin.replace(':', "-")),
        &upper,
    );
    p.write(
        "policy.kdl",
        &format!("extends \"https://127.0.0.1:9/org/policy.kdl\" digest=\"{upper_pin}\"\n{OWN}"),
    );
    ok(&hookc(&p, &["build"]));
    let why = hookc(&p, &["why", "git reset --hard"]);
    assert!(
        why.stdout
            .contains("(from https://127.0.0.1:9/org/base.kdl, line 2) -> deny"),
        "{}",
        why.stdout
    );
}

/// A file source must be a policy file: a secret of the machine named as
/// one is refused before it is read, and `hookc update` does not pin it.
#[test]
fn only_a_kdl_file_can_be_extended() {
    let p = Project::new();
    p.write(
        "home/.ssh/id_ed25519",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n",
    );
    p.write(
        "policy.kdl",
        &format!("extends \"home/.ssh/id_ed25519\"\n{OWN}"),
    );
    let r = refused(&p, &["update"], "not a policy file");
    assert!(
        !r.stderr.contains("secret") && !r.stdout.contains("sha256:"),
        "{}{}",
        r.stdout,
        r.stderr
    );
    assert!(!p.read("policy.kdl").contains("digest"));
    let r = refused(&p, &["build"], "not a policy file");
    assert!(!r.stderr.contains("secret"), "{}", r.stderr);
    p.write(
        "policy.kdl",
        &format!("extends \"git+file:///x\" path=\"id_ed25519\"\n{OWN}"),
    );
    refused(&p, &["update"], "not a policy file");
}

/// An inherited guard's `run` program is looked for in this repository,
/// where it runs: its absence is said, with where the guard comes from.
#[test]
fn an_inherited_run_program_this_repository_lacks_is_a_warning() {
    let p = Project::new();
    p.write(
        "org/policy.kdl",
        "targets \"claude\"\nguard \"org-reviewed\" untested=\"asks git\" {\n    tool \"write\"\n    path \"migrations/**\"\n    run \"scripts/org-check.sh\"\n    deny \"Ask the user to review the migration first.\"\n}\n",
    );
    p.write("policy.kdl", "extends \"org/policy.kdl\"\n");
    ok(&hookc(&p, &["update"]));
    let r = hookc(&p, &["build"]);
    ok(&r);
    assert!(r.stderr.contains("hookc::run-missing"), "{}", r.stderr);
    assert!(
        r.stderr.contains("the guard comes from org/policy.kdl"),
        "{}",
        r.stderr
    );
}
