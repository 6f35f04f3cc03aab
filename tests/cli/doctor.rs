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

/// `hookc doctor` in the project, with its own home and state directory
/// (where `built` records the hookc that built it).
fn doctor(p: &Project, path: &str, env: &[(&str, &str)]) -> (Run, serde_json::Value) {
    let home = p.path("home");
    let mut cmd = Command::new(HOOKC);
    cmd.args(["doctor", "--format", "json"])
        .current_dir(p.dir.path())
        .env("PATH", path)
        .env("HOME", &home)
        .env("XDG_STATE_HOME", p.path("state"))
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
    built_with(POLICY)
}

/// A project with `policy`, built for the user with its own home and
/// state directory.
fn built_with(policy: &str) -> Project {
    let p = Project::new();
    p.write("policy.kdl", policy);
    std::fs::create_dir_all(p.path("home")).unwrap();
    let r = run(
        Command::new(HOOKC)
            .args(["build", "--user"])
            .current_dir(p.dir.path())
            .env("HOME", p.path("home"))
            .env("XDG_STATE_HOME", p.path("state"))
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
    // No hookc where the hooks look for one (on a machine where no build
    // recorded one).
    let p = built();
    std::fs::remove_dir_all(p.path("state")).unwrap();
    let (r, doc) = doctor(&p, BARE_PATH, &[]);
    assert_eq!(r.status, 1);
    let f = failures(&doc).join("\n");
    assert!(
        f.contains("will find no hookc") && f.contains("cargo install --locked --path"),
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

    // Copilot CLI's, in the repository's settings, which an agent could
    // write were they not protected.
    let p = built_with(&POLICY.replace("targets \"claude\" \"kimi\"", "targets \"copilot\""));
    let (_, doc) = doctor(&p, &path_with_hookc(), &[]);
    assert!(
        !failures(&doc).join("\n").contains("disableAllHooks"),
        "{doc}"
    );
    p.write(
        ".github/copilot/settings.json",
        "// the project's\n{\"disableAllHooks\": true}\n",
    );
    let (_, doc) = doctor(&p, &path_with_hookc(), &[]);
    assert!(
        failures(&doc)
            .join("\n")
            .contains(".github/copilot/settings.json turns every hook off (disableAllHooks)"),
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
        f.contains("needs hookc ^0.9.0") && f.contains("cargo install --locked --path"),
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

/// Every check's text, one a line.
fn said(doc: &serde_json::Value) -> String {
    doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{} {}",
                c["status"].as_str().unwrap(),
                c["what"].as_str().unwrap()
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Issue 36: doctor names the hookc the hooks run (the copy `hookc build`
/// recorded, not whatever is on PATH), and fails when that copy is gone
/// or is no longer what the build recorded.
#[test]
fn doctor_names_the_hookc_that_answers_and_fails_when_it_changed() {
    let p = built();
    let pin = std::fs::read_to_string(p.path("state/hookc/pin")).unwrap();
    let copy = std::path::PathBuf::from(pin.lines().next().unwrap());
    assert!(copy.starts_with(p.path("state/hookc/bin")), "{pin}");
    // Not the hookc on PATH: the recorded copy, even with none on PATH.
    let (r, doc) = doctor(&p, BARE_PATH, &[]);
    assert_eq!(failures(&doc), Vec::<String>::new());
    assert_eq!(r.status, 0);
    let text = said(&doc);
    let source = std::fs::canonicalize(HOOKC).unwrap();
    assert!(
        text.contains(&format!(
            "ok the hooks will run {} (hookc {})",
            copy.display(),
            env!("CARGO_PKG_VERSION")
        )) && text.contains(&format!(
            "the copy of {} that `hookc build` made",
            source.display()
        )),
        "{text}"
    );
    // HOOKC_BIN wins over the record, and doctor says so.
    let (_, doc) = doctor(&p, BARE_PATH, &[("HOOKC_BIN", HOOKC)]);
    assert!(
        said(&doc).contains("HOOKC_BIN is set here")
            && said(&doc).contains(&format!("the hooks will run {HOOKC}")),
        "{doc}"
    );

    // Written over: the same path, another program.
    std::fs::write(&copy, "#!/bin/sh\necho 'hookc 0.1.0'\n").unwrap();
    let (r, doc) = doctor(&p, &path_with_hookc(), &[]);
    assert_eq!(r.status, 1);
    let f = failures(&doc).join("\n");
    assert!(
        f.contains("has changed since `hookc build` recorded it")
            && f.contains("run `hookc build`"),
        "{f}"
    );

    // Gone: the hooks refuse (they never fall back to PATH), and doctor says why.
    std::fs::remove_file(&copy).unwrap();
    let (r, doc) = doctor(&p, &path_with_hookc(), &[]);
    assert_eq!(r.status, 1);
    let f = failures(&doc).join("\n");
    assert!(
        f.contains("is gone or not executable") && f.contains("run `hookc build`"),
        "{f}"
    );

    // A build puts it back.
    let r = run(
        Command::new(HOOKC)
            .arg("build")
            .current_dir(p.dir.path())
            .env("HOME", p.path("home"))
            .env("XDG_STATE_HOME", p.path("state"))
            .env_remove("KIMI_CODE_HOME"),
        None,
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
    let (r, doc) = doctor(&p, BARE_PATH, &[]);
    assert_eq!(failures(&doc), Vec::<String>::new());
    assert_eq!(r.status, 0);
}

/// Where no build recorded a hookc, doctor says the hooks take the first on
/// PATH, and how to record one.
#[test]
fn without_a_recorded_hookc_doctor_says_the_hooks_take_the_first_on_path() {
    let p = built();
    std::fs::remove_dir_all(p.path("state")).unwrap();
    let (r, doc) = doctor(&p, &path_with_hookc(), &[]);
    assert_eq!(r.status, 0, "{doc}");
    let notes: Vec<&serde_json::Value> = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == "note")
        .collect();
    assert!(
        notes.iter().any(|c| {
            c["what"]
                .as_str()
                .unwrap()
                .contains("no `hookc build` on this machine recorded a hookc")
                && c["fix"]
                    .as_str()
                    .unwrap()
                    .contains("run `hookc build` here once")
        }),
        "{doc}"
    );
}

/// A teammate who installed with `npm i -D hookc` and has no hookc on PATH:
/// doctor finds the program of this machine's platform package, the one the
/// hooks run (not the launcher in `node_modules/.bin`, which starts Node).
#[test]
fn doctor_finds_the_npm_platform_package_the_hooks_run() {
    let platform = match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", "x86_64") => "linux-x64",
        ("linux", "aarch64") => "linux-arm64",
        _ => return,
    };
    let p = built();
    std::fs::remove_dir_all(p.path("state")).unwrap();
    let bin = format!("node_modules/@hookc/cli-{platform}/bin/hookc");
    std::fs::create_dir_all(p.path(&bin).parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(HOOKC, p.path(&bin)).unwrap();
    let (r, doc) = doctor(&p, BARE_PATH, &[]);
    assert_eq!(failures(&doc), Vec::<String>::new());
    assert_eq!(r.status, 0);
    assert!(
        said(&doc).contains(&format!("they find (./{bin})")),
        "{}",
        said(&doc)
    );
}

/// With an audit log, doctor checks hookc's state folder as the hooks use
/// it: one replaced by a link to a folder the agent could write is a
/// failure that says how to fix it.
#[test]
fn doctor_fails_when_the_state_folder_is_a_link() {
    let p = built_with(&format!("audit-log #true\n{POLICY}"));
    let (r, doc) = doctor(&p, &path_with_hookc(), &[]);
    assert!(
        !failures(&doc).iter().any(|f| f.contains("state folder")),
        "{:?}",
        failures(&doc)
    );
    assert_eq!(r.status, 0, "{:?}", failures(&doc));
    // hookc's state folder swapped for a link to one in the project.
    std::fs::rename(p.path("state/hookc"), p.path("elsewhere")).unwrap();
    std::os::unix::fs::symlink(p.path("elsewhere"), p.path("state/hookc")).unwrap();
    let (r, doc) = doctor(&p, &path_with_hookc(), &[]);
    let f = failures(&doc).join("\n");
    assert!(f.contains("state folder cannot be used"), "{f}");
    assert_eq!(r.status, 1);
}

/// Doctor says whether the hooks answer with the build recorded here: a
/// record of another build (an older `.hookc/` brought back) fails.
#[test]
fn doctor_fails_when_the_compiled_policy_is_not_the_recorded_build() {
    let p = built();
    let (r, doc) = doctor(&p, &path_with_hookc(), &[]);
    assert_eq!(r.status, 0, "{:?}", failures(&doc));
    let record = crate::support::build_record(&p.path("state/hookc"));
    let text = std::fs::read_to_string(&record).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    value["build"] = serde_json::json!("0000000000000000");
    std::fs::write(&record, value.to_string()).unwrap();
    let (r, doc) = doctor(&p, &path_with_hookc(), &[]);
    let f = failures(&doc).join("\n");
    assert!(
        f.contains("is not the build `hookc build` last wrote on this machine"),
        "{f}"
    );
    assert_eq!(r.status, 1);
}
