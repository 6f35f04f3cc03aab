//! `hookc doctor`: after a clone, each thing that stops the hooks from
//! running here is reported with the command that fixes it.

use std::process::Command;

use crate::support::{BARE_PATH, HOOKC, Project, Run, path_with_hookc, run};

const POLICY: &str = r#"targets "claude" "kimi"

guard "no-force-push" {
    command "git" "push" { flag "--force"; }
    deny "Push to a new branch instead."
}
"#;

fn doctor(p: &Project, path: &str, env: &[(&str, &str)]) -> (Run, serde_json::Value) {
    let home = p.path("home");
    let mut cmd = Command::new(HOOKC);
    cmd.args(["doctor", "--format", "json"])
        .current_dir(p.dir.path())
        .env("PATH", path)
        .env("HOME", &home)
        .env_remove("HOOKC_BIN")
        .env_remove("KIMI_CODE_HOME")
        .env_remove("CODEX_HOME");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let r = run(&mut cmd, None);
    let doc = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout));
    (r, doc)
}

/// The failed checks, as "what (fix)".
fn failures(doc: &serde_json::Value) -> Vec<String> {
    doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == "fail")
        .map(|c| {
            format!(
                "{} ({})",
                c["what"].as_str().unwrap(),
                c["fix"].as_str().unwrap_or("")
            )
        })
        .collect()
}

fn built() -> Project {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    std::fs::create_dir_all(p.path("home")).unwrap();
    let r = run(
        Command::new(HOOKC)
            .args(["build", "--user"])
            .current_dir(p.dir.path())
            .env("HOME", p.path("home"))
            .env_remove("KIMI_CODE_HOME"),
        None,
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
    p
}

#[test]
fn a_project_ready_to_run_passes() {
    let p = built();
    let (r, doc) = doctor(&p, &path_with_hookc(), &[]);
    assert_eq!(failures(&doc), Vec::<String>::new());
    assert_eq!(r.status, 0);
    assert_eq!(doc["command"], "doctor");
    // From a subdirectory, the project is found as `hookc build` finds it.
    let p = Project::new();
    p.write("policy.kdl", &POLICY.replace(" \"kimi\"", ""));
    p.build();
    std::fs::create_dir_all(p.path("src/deep")).unwrap();
    let home = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(HOOKC);
    cmd.args(["doctor", "--format", "json"])
        .current_dir(p.path("src/deep"))
        .env("PATH", path_with_hookc())
        .env("HOME", home.path())
        .env_remove("HOOKC_BIN")
        .env_remove("HOOKC_POLICY")
        .env_remove("KIMI_CODE_HOME");
    let r = run(&mut cmd, None);
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
}

#[test]
fn each_problem_comes_with_its_fix() {
    // No hookc where the hooks look for one.
    let p = built();
    let (r, doc) = doctor(&p, BARE_PATH, &[]);
    assert_eq!(r.status, 1);
    let f = failures(&doc).join("\n");
    assert!(
        f.contains("will find no hookc") && f.contains("cargo install hookc"),
        "{f}"
    );

    // A hookc older than the one that builds the hooks.
    let fake = p.path("old-hookc");
    std::fs::write(&fake, "#!/bin/sh\necho 'hookc 0.0.1'\n").unwrap();
    crate::support::make_executable(&fake);
    let (_, doc) = doctor(
        &p,
        &path_with_hookc(),
        &[("HOOKC_BIN", fake.to_str().unwrap())],
    );
    assert!(
        failures(&doc).join("\n").contains("hookc 0.0.1, older"),
        "{doc}"
    );

    // Generated files out of date.
    p.write(
        "policy.kdl",
        &POLICY.replace("\"--force\"", "\"--force\" \"-f\""),
    );
    let (_, doc) = doctor(&p, &path_with_hookc(), &[]);
    assert!(
        failures(&doc).join("\n").contains("run `hookc build`"),
        "{doc}"
    );

    // Claude Code's hooks switched off in a local settings file.
    let p = built();
    p.write(
        ".claude/settings.local.json",
        "{\"disableAllHooks\": true}\n",
    );
    let (_, doc) = doctor(&p, &path_with_hookc(), &[]);
    assert!(
        failures(&doc).join("\n").contains("disableAllHooks"),
        "{doc}"
    );

    // Kimi Code without the user-level install.
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.build();
    let (r, doc) = doctor(&p, &path_with_hookc(), &[]);
    assert_eq!(r.status, 1);
    assert!(
        failures(&doc).join("\n").contains("hookc build --user"),
        "{doc}"
    );

    // A policy that needs a later hookc.
    let p = Project::new();
    p.write("policy.kdl", &format!("hookc-version \"0.9\"\n{POLICY}"));
    let (r, doc) = doctor(&p, &path_with_hookc(), &[]);
    assert_eq!(r.status, 1);
    let f = failures(&doc).join("\n");
    assert!(
        f.contains("needs hookc ^0.9.0") && f.contains("cargo install hookc --locked --version"),
        "{f}"
    );
}

/// The hooks rely on `onFailure: "block"`: a `claude` older than the first
/// that reads it is reported, a current one is not.
#[test]
fn an_old_claude_code_that_ignores_on_failure_is_reported() {
    let p = built();
    let bin = p.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let claude = bin.join("claude");
    let path = format!("{}:{}", bin.display(), path_with_hookc());
    let failing = |version: &str| {
        std::fs::write(
            &claude,
            format!("#!/bin/sh\necho '{version} (Claude Code)'\n"),
        )
        .unwrap();
        crate::support::make_executable(&claude);
        failures(&doctor(&p, &path, &[]).1)
            .into_iter()
            .filter(|f| f.contains("onFailure"))
            .collect::<Vec<_>>()
    };
    let old = failing("2.1.200");
    assert_eq!(old.len(), 1, "{old:?}");
    assert!(
        old[0].contains("Claude Code 2.1.200, older than 2.1.295")
            && old[0].contains("on-failure-block #false"),
        "{old:?}"
    );
    assert_eq!(failing("2.1.332"), Vec::<String>::new());
}
