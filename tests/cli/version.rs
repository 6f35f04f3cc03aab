//! Version pinning (`hookc-version`): a build refuses a hookc outside the
//! requirement, and a hook answered by a hookc the project was not built for
//! refuses the call with the version needed and the command that installs
//! it, never "run hookc build".

use crate::support::{Project, Run, claude_bash, json_file, path_with_hookc, sh_c};

const POLICY: &str = r#"hookc-version "0.1"
targets "claude"

guard "no-force-push" {
    command "git" "push" { flag "--force"; }
    deny "Push to a new branch instead."
}
"#;

/// Claude Code's PreToolUse hook on `command`.
fn claude(p: &Project, command: &str) -> Run {
    let hook =
        json_file(p, ".claude/settings.json")["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .to_owned();
    let dir = p.dir.path().display().to_string();
    sh_c(
        &hook,
        p.dir.path(),
        &path_with_hookc(),
        &[("CLAUDE_PROJECT_DIR", &dir)],
        &claude_bash(command),
    )
}

/// `.hookc/policy.json` as a later hookc would have written its first line.
fn rewrite_head(p: &Project, from: &str, to: &str) {
    let text = p.read(".hookc/policy.json");
    let (head, rest) = text.split_once('\n').unwrap();
    assert!(head.contains(from), "{head}");
    p.write(
        ".hookc/policy.json",
        &format!("{}\n{rest}", head.replace(from, to)),
    );
}

fn assert_needs(run: &Run, needed: &str, install: &str) {
    assert_eq!(run.status, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(needed) && run.stderr.contains(install),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("run `hookc build`"), "{}", run.stderr);
}

#[test]
fn a_policy_records_what_it_needs() {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.build();
    let head = p.read(".hookc/policy.json");
    let head = head.lines().next().unwrap();
    for field in [
        "\"hookc_version\":\"^0.1.0\"",
        "\"built_by\":\"0.1\"",
        // Nothing is published, and the project does not install hookc
        // itself: it is built from its source.
        "\"install\":\"cargo install --locked --path <a checkout of hookc's source>\"",
    ] {
        assert!(head.contains(field), "{field} not in {head}");
    }
    assert_eq!(claude(&p, "git push --force").status, 2);
    assert_eq!(claude(&p, "git push").status, 0);
}

#[test]
fn a_hook_answered_by_an_older_hookc_refuses_with_what_to_install() {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.build();
    // The project was built by a later release line than this hookc's.
    rewrite_head(&p, "\"built_by\":\"0.1\"", "\"built_by\":\"0.9\"");
    let run = claude(&p, "git status");
    assert_needs(
        &run,
        "need hookc 0.9 or later",
        "cargo install --locked --path <a checkout of hookc's source>",
    );

    // The requirement itself excludes this hookc.
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.write(
        "package.json",
        "{\"devDependencies\": {\"hookc\": \"^0.1.0\"}}\n",
    );
    p.build();
    rewrite_head(
        &p,
        "\"hookc_version\":\"^0.1.0\"",
        "\"hookc_version\":\"^0.7.0\"",
    );
    let run = claude(&p, "git status");
    assert_needs(&run, "need hookc ^0.7.0", "`npm install` in the project");
}

#[test]
fn a_build_refuses_a_hookc_outside_the_requirement() {
    let p = Project::new();
    p.write("policy.kdl", &POLICY.replace("\"0.1\"", "\"0.7\""));
    let run = p.hookc(&["build"]);
    assert_ne!(run.status, 0);
    assert!(
        run.stderr.contains("hookc::version-mismatch"),
        "{}",
        run.stderr
    );
    assert!(!p.exists(".claude/settings.json"));
}

/// A hookc the project installs itself (npm, a venv) answers when none is on
/// PATH; it is found from the hook's own place, not through PATH.
#[test]
fn the_hooks_find_a_project_local_hookc() {
    for local in ["node_modules/.bin/hookc", ".venv/bin/hookc"] {
        let p = Project::new();
        p.write("policy.kdl", POLICY);
        p.build();
        std::fs::create_dir_all(p.path(local).parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(crate::support::HOOKC, p.path(local)).unwrap();
        let dir = p.dir.path().display().to_string();
        let hook =
            json_file(&p, ".claude/settings.json")["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
                .as_str()
                .unwrap()
                .to_owned();
        for (command, status) in [("git push --force", 2), ("git push", 0)] {
            let run = sh_c(
                &hook,
                p.dir.path(),
                crate::support::BARE_PATH,
                &[("CLAUDE_PROJECT_DIR", &dir)],
                &claude_bash(command),
            );
            assert_eq!(run.status, status, "{local}: {command}: {}", run.stderr);
        }
    }
}

/// What `hookc build` records in `.hookc/policy.json` as the way to install
/// hookc.
fn recorded_install(p: &Project) -> String {
    let policy = p.read(".hookc/policy.json");
    let (_, rest) = policy
        .split_once("\"install\":\"")
        .unwrap_or_else(|| panic!("no install in {policy}"));
    rest.split('"').next().unwrap().to_owned()
}

#[test]
fn the_install_command_is_the_package_manager_the_project_uses() {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.write(
        "package.json",
        r#"{"packageManager": "bun@1.2.3", "devDependencies": {"hookc": "^0.1.0"}}"#,
    );
    p.write("bun.lock", "{}\n");
    p.write("package-lock.json", "{}\n");
    p.build();
    assert_eq!(recorded_install(&p), "bun install");
    // The shim's refusal when no hookc is found says the same.
    let shim = p.read(".hookc/claude/pre-tool.sh");
    assert!(shim.contains("install hookc (bun install)"), "{shim}");
    assert!(
        !shim.contains("npm install") && !shim.contains("uv sync"),
        "{shim}"
    );

    // Without `packageManager`, the lockfile tells.
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.write(
        "package.json",
        r#"{"devDependencies": {"hookc": "^0.1.0"}}"#,
    );
    p.write("pnpm-lock.yaml", "lockfileVersion: '9.0'\n");
    p.build();
    assert_eq!(recorded_install(&p), "pnpm install");

    // A Python project with poetry's lockfile is told poetry's command.
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.write(
        "pyproject.toml",
        "[tool.poetry.group.dev.dependencies]\nhookc = \"^0.1\"\n",
    );
    p.write("poetry.lock", "");
    p.build();
    assert_eq!(recorded_install(&p), "poetry install");
}

#[test]
fn a_version_mismatch_names_the_projects_own_install() {
    let p = Project::new();
    p.write("policy.kdl", &POLICY.replace("\"0.1\"", "\"0.7\""));
    p.write(
        "package.json",
        r#"{"packageManager": "yarn@4.1.0", "devDependencies": {"hookc": "^0.7.0"}}"#,
    );
    let run = p.hookc(&["build"]);
    assert_ne!(run.status, 0);
    let text = run.stderr.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        text.contains("(`yarn install`, the way this repository installs it)"),
        "{text}"
    );
    assert!(
        !text.contains("uv sync") && !text.contains("npm install"),
        "{text}"
    );
}
