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

/// Run git in the project, isolated from the user's and the system's git
/// configuration, with hookc on PATH (for the hooks git runs).
fn git(p: &Project, args: &[&str]) -> crate::support::Run {
    let out = run(
        Command::new("git")
            .args(args)
            .current_dir(p.dir.path())
            .env("PATH", path_with_hookc())
            .env("HOME", p.dir.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .env_remove("HOOKC_POLICY"),
        None,
    );
    if args[0] != "commit" {
        assert_eq!(out.status, 0, "git {args:?}: {}", out.stderr);
    }
    out
}

/// What `git status` shows, and the staged and unstaged differences.
fn git_state(p: &Project) -> (String, String, String) {
    (
        git(p, &["status", "--porcelain"]).stdout,
        git(p, &["diff", "--cached"]).stdout,
        git(p, &["diff"]).stdout,
    )
}

const SECOND: &str = "guard \"no-hard-reset\" {\n    command \"git\" \"reset\" { flag \"--hard\"; }\n    deny \"Use git stash.\"\n}\n";

/// The hook checks what the commit will hold: a staged policy without its
/// regenerated files is refused, both staged pass, and whatever is in the
/// working tree but not staged does not matter. The working tree and the
/// index are left as they were.
#[test]
fn the_pre_commit_hook_checks_the_staged_content() {
    let p = git_repo();
    p.write("policy.kdl", GUARD);
    p.build();
    assert_eq!(p.hookc(&["install-pre-commit"]).status, 0);
    git(&p, &["add", "-A"]);
    let first = git(&p, &["commit", "-q", "-m", "policy"]);
    assert_eq!(first.status, 0, "{}{}", first.stdout, first.stderr);

    // The policy changes and is rebuilt, but only policy.kdl is staged.
    p.write("policy.kdl", &format!("{GUARD}{SECOND}"));
    p.build();
    git(&p, &["add", "policy.kdl"]);
    let before = git_state(&p);
    let refused = git(&p, &["commit", "-q", "-m", "policy only"]);
    assert_ne!(refused.status, 0, "{}{}", refused.stdout, refused.stderr);
    assert!(refused.stderr.contains("hookc build"), "{}", refused.stderr);
    assert_eq!(
        git_state(&p),
        before,
        "the hook changed the index or working tree"
    );
    assert!(p.read(".hookc/policy.json").contains("no-hard-reset"));

    // Both staged: the commit goes through.
    git(&p, &["add", "-A"]);
    let both = git(&p, &["commit", "-q", "-m", "policy and hooks"]);
    assert_eq!(both.status, 0, "{}{}", both.stdout, both.stderr);

    // An unstaged edit of the policy, and deleted generated files in the
    // working tree, do not stop a commit of something else.
    p.write("policy.kdl", GUARD);
    std::fs::remove_dir_all(p.path(".hookc")).unwrap();
    p.write("README.md", "hello\n");
    git(&p, &["add", "README.md"]);
    let before = git_state(&p);
    let other = git(&p, &["commit", "-q", "-m", "readme"]);
    assert_eq!(other.status, 0, "{}{}", other.stdout, other.stderr);
    assert!(!p.exists(".hookc"), "the hook wrote into the working tree");
    assert_eq!(git_state(&p).2, before.2);

    // And a stale tree staged with `git commit -a` (a temporary index) is refused.
    let all = git(&p, &["commit", "-q", "-a", "-m", "all"]);
    assert_ne!(all.status, 0, "{}{}", all.stdout, all.stderr);
}

/// A hook an earlier hookc wrote (which checked the working tree) is
/// brought up to date by installing again, its chained hook kept.
#[test]
fn install_pre_commit_updates_an_old_hookc_hook() {
    let p = git_repo();
    let old = "#!/bin/sh\n# hookc: check generated hooks are up to date\n# The hook that was here before hookc, kept and run first:\n\"$(dirname \"$0\")/pre-commit.before-hookc\" \"$@\" || exit $?\ncommand -v hookc >/dev/null 2>&1 || { echo 'pre-commit: hookc not found on PATH' >&2; exit 1; }\nexec hookc check\n";
    p.write(".git/hooks/pre-commit", old);
    let out = p.hookc(&["install-pre-commit"]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(out.stdout.contains("updated"), "{}", out.stdout);
    let new = p.read(".git/hooks/pre-commit");
    assert!(new.contains("checkout-index"), "{new}");
    assert!(
        new.contains("/pre-commit.before-hookc\" \"$@\" || exit $?"),
        "{new}"
    );
    assert!(
        p.hookc(&["install-pre-commit"])
            .stdout
            .contains("up to date")
    );
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
    assert!(p.read(".git/hooks/pre-commit").contains("hookc check"));
    git(&p, &["add", "-A"]);
    assert_eq!(run_hook(&p).status, 0);
    p.write("policy.kdl", "targets \"claude\"\n");
    git(&p, &["add", "policy.kdl"]);
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
    git(&p, &["add", "policy.kdl", ".claude", ".hookc"]);
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

/// Before git 2.37, `checkout-index` has no `--ignore-skip-worktree-bits`:
/// the hook still exports the index and checks it.
#[test]
fn the_pre_commit_hook_works_with_a_git_older_than_2_37() {
    let p = git_repo();
    p.write("policy.kdl", GUARD);
    p.build();
    assert_eq!(p.hookc(&["install-pre-commit"]).status, 0);
    git(&p, &["add", "-A"]);
    let old = p.path("old-git");
    p.write(
        "old-git/git",
        "#!/bin/sh\nfor a in \"$@\"; do [ \"$a\" = --ignore-skip-worktree-bits ] && { echo 'error: unknown option' >&2; exit 129; }; done\nexec /usr/bin/git \"$@\"\n",
    );
    crate::support::make_executable(&old.join("git"));
    let hook = |p: &Project| {
        run(
            Command::new(p.path(".git/hooks/pre-commit"))
                .env("PATH", format!("{}:{}", old.display(), path_with_hookc()))
                .current_dir(p.dir.path()),
            None,
        )
    };
    let ok = hook(&p);
    assert_eq!(ok.status, 0, "{}{}", ok.stdout, ok.stderr);
    p.write("policy.kdl", "targets \"claude\"\n");
    git(&p, &["add", "policy.kdl"]);
    assert_eq!(hook(&p).status, 1, "drift still stops the commit");
}

/// From a subfolder, and in a linked worktree (whose `.git` is a file), the
/// hook goes where git runs hooks.
#[test]
fn install_pre_commit_works_from_a_subfolder_and_in_a_worktree() {
    let p = git_repo();
    p.write("policy.kdl", GUARD);
    p.build();
    std::fs::create_dir_all(p.path("src")).unwrap();
    let sub = run(
        Command::new(crate::support::HOOKC)
            .arg("install-pre-commit")
            .current_dir(p.path("src")),
        None,
    );
    assert_eq!(sub.status, 0, "{}", sub.stderr);
    assert!(p.read(".git/hooks/pre-commit").contains("checkout-index"));
    assert!(!p.exists("src/.git"));
    // A linked worktree shares the repository's hooks folder.
    git(&p, &["add", "-A"]);
    let c = git(&p, &["commit", "-q", "-m", "one"]);
    assert_eq!(c.status, 0, "{}", c.stderr);
    std::fs::remove_file(p.path(".git/hooks/pre-commit")).unwrap();
    let wt = p.path("wt");
    git(&p, &["worktree", "add", "-q", wt.to_str().unwrap()]);
    assert!(wt.join(".git").is_file());
    let out = run(
        Command::new(crate::support::HOOKC)
            .arg("install-pre-commit")
            .current_dir(&wt),
        None,
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(p.read(".git/hooks/pre-commit").contains("checkout-index"));
}

/// The CI and pre-commit recipes get hookc without compiling it: the wheel
/// (pinned to this crate's version, so a release bump updates them) or a
/// release binary checked against the release's checksums, with the Rust
/// build left as the fallback.
#[test]
fn the_ci_and_pre_commit_recipes_install_hookc_without_a_rust_toolchain() {
    let cargo = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    let version = cargo
        .lines()
        .find_map(|l| l.strip_prefix("version = \""))
        .and_then(|l| l.strip_suffix('"'))
        .unwrap();
    let book =
        |page: &str| std::fs::read_to_string(repo().join("book/src/recipes").join(page)).unwrap();
    let ci = book("ci.md");
    let yaml_steps: Vec<&str> = ci
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("- run:"))
        .collect();
    assert!(
        yaml_steps.contains(&format!("- run: pipx run hookc=={version} check").as_str()),
        "the GitHub Actions job runs the wheel: {yaml_steps:?}"
    );
    assert!(
        !yaml_steps.iter().any(|s| s.contains("cargo install")),
        "no job step compiles hookc: {yaml_steps:?}"
    );
    let archive = format!("hookc-x86_64-unknown-linux-musl-v{version}.tar.gz");
    assert!(ci.contains(&archive), "the release binary: {archive}");
    assert!(ci.contains("sha256sum --check --ignore-missing SHA256SUMS"));
    assert!(ci.contains("cargo install --locked"), "the fallback stays");
    let release = std::fs::read_to_string(repo().join(".github/workflows/release.yml")).unwrap();
    assert!(
        release.contains("name=hookc-${{ matrix.target }}-v${{ needs.version.outputs.version }}")
            && release.contains("x86_64-unknown-linux-musl")
            && release.contains("sha256sum hookc-* >SHA256SUMS"),
        "the release publishes the archive and checksums the recipe downloads"
    );
    let pre_commit = book("pre-commit.md");
    assert!(pre_commit.contains("language: python"));
    assert!(pre_commit.contains(&format!("additional_dependencies: [\"hookc=={version}\"]")));
}

/// husky 9's generated hook, as `husky` writes it into `.husky/_/`: it runs
/// the team's `.husky/pre-commit` with `sh -e`.
const HUSKY_GENERATED: &str =
    "#!/usr/bin/env sh\nexec sh -e \"$(dirname \"$0\")/../pre-commit\" \"$@\"\n";

/// With husky, the check goes at the end of the committed `.husky/pre-commit`
/// (what was there stays and runs), never into husky's generated `.husky/_/`;
/// a commit through git then runs it, and drift stops the commit.
#[test]
fn install_pre_commit_appends_to_huskys_script_and_leaves_its_generated_folder_alone() {
    let p = git_repo();
    p.write("policy.kdl", GUARD);
    p.build();
    p.write(".husky/_/pre-commit", HUSKY_GENERATED);
    crate::support::make_executable(&p.path(".husky/_/pre-commit"));
    git(&p, &["config", "core.hooksPath", ".husky/_"]);
    let mine = "echo lint-staged ran >> ran.txt\n";
    p.write(".husky/pre-commit", mine);
    let out = p.hookc(&["install-pre-commit"]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(out.stdout.contains(".husky/pre-commit"), "{}", out.stdout);
    assert_eq!(
        p.read(".husky/_/pre-commit"),
        HUSKY_GENERATED,
        "husky's file untouched"
    );
    assert!(!p.exists(".husky/_/pre-commit.before-hookc"));
    let script = p.read(".husky/pre-commit");
    assert!(script.starts_with(mine), "{script}");
    // A line the team adds after hookc's block still runs.
    p.write(
        ".husky/pre-commit",
        &format!("{script}echo after >> ran.txt\n"),
    );
    let script = p.read(".husky/pre-commit");
    assert_eq!(p.hookc(&["install-pre-commit"]).status, 0);
    assert_eq!(
        p.read(".husky/pre-commit"),
        script,
        "installing again changes nothing"
    );
    git(
        &p,
        &[
            "add",
            "policy.kdl",
            ".claude",
            ".hookc",
            ".husky/pre-commit",
        ],
    );
    let ok = git(&p, &["commit", "-q", "-m", "one"]);
    assert_eq!(ok.status, 0, "{}{}", ok.stdout, ok.stderr);
    assert_eq!(p.read("ran.txt"), "lint-staged ran\nafter\n");
    // A staged policy without its regenerated files: the commit is refused.
    p.write("policy.kdl", "targets \"claude\"\n");
    git(&p, &["add", "policy.kdl"]);
    let refused = git(&p, &["commit", "-q", "-m", "two"]);
    assert_eq!(refused.status, 1, "{}{}", refused.stdout, refused.stderr);
    assert!(
        refused.stderr.contains("run `hookc build`"),
        "{}",
        refused.stderr
    );
}

/// A `.husky` folder with no `pre-commit` yet (husky before 9 points git at
/// `.husky` itself): hookc writes the script, loading husky's `_/husky.sh`
/// as those versions want.
#[test]
fn install_pre_commit_starts_huskys_script_when_there_is_none() {
    let p = git_repo();
    p.write(".husky/_/husky.sh", "");
    git(&p, &["config", "core.hooksPath", ".husky"]);
    assert_eq!(p.hookc(&["install-pre-commit"]).status, 0);
    let script = p.read(".husky/pre-commit");
    assert!(
        script.starts_with("#!/usr/bin/env sh\n. \"$(dirname -- \"$0\")/_/husky.sh\"\n"),
        "{script}"
    );
    assert!(
        script.contains("hookc check --policy policy.kdl"),
        "{script}"
    );
    assert!(!p.exists(".husky/pre-commit.before-hookc"));
}

/// The command hookc put in a lefthook config: the `run:` block scalar
/// under `hookc-check:`, dedented.
fn lefthook_run(config: &str) -> String {
    let mut lines = config
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("hookc-check:"));
    let key = lines.next().expect("a hookc-check command");
    let pad = key.len() - key.trim_start().len() + 4;
    assert_eq!(lines.next().map(str::trim), Some("run: |"));
    lines
        .take_while(|l| l.is_empty() || l.len() - l.trim_start().len() >= pad)
        .map(|l| format!("{}\n", l.get(pad..).unwrap_or("")))
        .collect()
}

/// With lefthook, a `hookc-check` command goes under `pre-commit:
/// commands:` by adding lines only: every line of the user's config stays,
/// in order, and installing again changes nothing. The command, run as
/// lefthook runs it (`sh -c` at the top of the work tree), stops drift.
#[test]
fn install_pre_commit_adds_a_command_to_lefthooks_config() {
    let p = git_repo();
    p.write("policy.kdl", GUARD);
    p.build();
    let mine = "# the team's hooks\npre-push:\n  commands:\n    test:\n      run: npm test\n\npre-commit:\n  parallel: true\n  commands:\n    lint:\n      glob: \"*.ts\"\n      run: npx eslint {staged_files}\nskip_output:\n  - meta\n";
    p.write("lefthook.yml", mine);
    let out = p.hookc(&["install-pre-commit"]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(
        !p.exists(".git/hooks/pre-commit"),
        "git's hooks are lefthook's"
    );
    let config = p.read("lefthook.yml");
    // The user's lines, in order, with hookc's inserted between them.
    let mut theirs = mine.lines();
    let mut want = theirs.next();
    for line in config.lines() {
        if Some(line) == want {
            want = theirs.next();
        }
    }
    assert_eq!(
        want, None,
        "a line of the user's is gone or moved:\n{config}"
    );
    let inserted = config.lines().count() - mine.lines().count();
    let at = config
        .find("    hookc-check:")
        .expect("under pre-commit's commands");
    assert!(
        at > config
            .find("pre-commit:\n  parallel: true\n  commands:\n")
            .unwrap()
    );
    assert!(at < config.find("    lint:").unwrap());
    assert_eq!(p.hookc(&["install-pre-commit"]).status, 0);
    assert_eq!(
        p.read("lefthook.yml"),
        config,
        "installing again changes nothing"
    );
    let check = |p: &Project| {
        run(
            Command::new("sh")
                .args(["-c", &lefthook_run(&config)])
                .env("PATH", path_with_hookc())
                .current_dir(p.dir.path()),
            None,
        )
    };
    git(&p, &["add", "-A"]);
    let ok = check(&p);
    assert_eq!(ok.status, 0, "{}{}", ok.stdout, ok.stderr);
    p.write("policy.kdl", "targets \"claude\"\n");
    git(&p, &["add", "policy.kdl"]);
    assert_eq!(
        check(&p).status,
        1,
        "drift stops the commit ({inserted} lines added)"
    );
    // A file without a pre-commit section gets one at its end.
    let q = git_repo();
    q.write(
        ".lefthook.yml",
        "pre-push:\n  commands:\n    test:\n      run: npm test\n",
    );
    assert_eq!(q.hookc(&["install-pre-commit"]).status, 0);
    let config = q.read(".lefthook.yml");
    assert!(config.starts_with("pre-push:\n  commands:\n    test:\n      run: npm test\n\npre-commit:\n  commands:\n    hookc-check:"), "{config}");
}

/// A lefthook config hookc cannot add to without rewriting it (a flow
/// mapping): nothing is written, and the error gives the lines to add.
#[test]
fn install_pre_commit_leaves_a_lefthook_config_it_cannot_edit_as_it_is() {
    let p = git_repo();
    let mine = "pre-commit: {commands: {lint: {run: eslint}}}\n";
    p.write("lefthook.yml", mine);
    let out = p.hookc(&["install-pre-commit"]);
    assert_eq!(out.status, 2, "{}", out.stderr);
    assert_eq!(p.read("lefthook.yml"), mine);
    assert!(out.stderr.contains("hookc-check:"), "{}", out.stderr);
    assert!(out.stderr.contains("run: |"), "{}", out.stderr);
}
