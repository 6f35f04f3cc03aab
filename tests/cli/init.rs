//! `hookc init`: a commented policy for the harnesses a project uses, built
//! from presets that prove themselves with examples. Never overwrites.

use hookc::harness;
use hookc::ir::HarnessId;
use hookc::presets::Level;

use crate::support::Project;

#[test]
fn every_preset_at_every_level_builds_in_an_empty_repository() {
    for preset in hookc::presets::ALL {
        let p = Project::new();
        let init = p.hookc(&["init", "--preset", preset.name]);
        assert_eq!(init.status, 0, "{}: {}", preset.name, init.stderr);
        let policy = p.read("policy.kdl");
        let line = format!("\npreset \"{}\"\n", preset.name);
        assert!(policy.contains(&line), "{policy}");
        for level in Level::ALL {
            p.write(
                "policy.kdl",
                &policy.replace(
                    &line,
                    &format!("\npreset \"{}\" level=\"{}\"\n", preset.name, level.word()),
                ),
            );
            // A build runs every example of the policy; any failing one is an error.
            let build = p.build();
            let want = preset.guards_at(level).len();
            assert!(
                build.stdout.contains(&format!("Claude Code: {want} guard")),
                "{} {}: {}",
                preset.name,
                level.word(),
                build.stdout
            );
            assert_eq!(
                build.stderr,
                "",
                "{} {}: warnings",
                preset.name,
                level.word()
            );
            // Read from the preset's own text, not through the library: a
            // guard is in the compiled policy exactly when its tag is at or
            // below the level.
            let compiled = p.read(".hookc/policy.json");
            let rank = |w: &str| ["basic", "standard", "strict"].iter().position(|x| *x == w);
            let mut tag = "standard";
            for l in preset.text.lines() {
                if let Some(t) = l.strip_prefix("// level: ") {
                    tag = t;
                } else if let Some(rest) = l.strip_prefix("guard \"") {
                    let name = rest.split('"').next().unwrap();
                    assert_eq!(
                        compiled.contains(&format!("{{\"name\":\"{name}\"")),
                        rank(tag) <= rank(level.word()),
                        "{} at {}: guard {name} (level {tag})",
                        preset.name,
                        level.word()
                    );
                    tag = "standard";
                }
            }
            assert_eq!(p.hookc(&["check"]).status, 0);
        }
    }
}

#[test]
fn all_presets_together_at_the_strict_level_build_for_every_harness_without_warnings() {
    let p = Project::new();
    let mut policy = String::new();
    for preset in hookc::presets::ALL {
        policy.push_str(&format!("preset \"{}\" level=\"strict\"\n", preset.name));
    }
    p.write("policy.kdl", &policy);
    let build = p.build();
    assert_eq!(build.stderr, "");
    let total: usize = hookc::presets::ALL.iter().map(|p| p.guards().len()).sum();
    assert!(total >= 40, "{total}");
    assert!(
        build
            .stdout
            .contains(&format!("Claude Code: {total} guards")),
        "{}",
        build.stdout
    );
}

#[test]
fn init_picks_presets_by_what_the_repository_holds() {
    let p = Project::new();
    // Nothing to go by: the presets every project gets, the others offered in comments.
    let run = p.hookc(&["init", "--format", "json"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        doc["presets"],
        serde_json::json!(["git", "filesystem", "secrets", "system", "remote-code"])
    );
    let policy = p.read("policy.kdl");
    assert!(policy.contains("\n// preset \"kubernetes\"\n"), "{policy}");

    let q = Project::new();
    q.write("Dockerfile", "FROM scratch\n");
    q.write("infra/main.tf", "");
    q.write("k8s/deployment.yaml", "");
    q.write("package-lock.json", "{}");
    q.write("db/migrations/0001.sql", "");
    q.write("package.json", "{}");
    let run = q.hookc(&["init", "--format", "json"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    for (preset, hint) in [
        ("containers", "Dockerfile"),
        ("infrastructure", "infra/main.tf"),
        ("kubernetes", "k8s/"),
        ("lockfiles", "package-lock.json"),
        ("databases", "db/migrations/"),
        ("publishing", "package.json"),
    ] {
        assert!(
            doc["preset_hints"][preset]
                .as_array()
                .is_some_and(|a| a.iter().any(|h| h == hint)),
            "{preset}: {}",
            doc["preset_hints"]
        );
    }
    let policy = q.read("policy.kdl");
    assert!(
        policy.contains("// (found Dockerfile)\npreset \"containers\"\n"),
        "{policy}"
    );
    assert!(policy.contains("\n// preset \"cloud\"\n"), "{policy}");
    let build = q.build();
    assert_eq!(build.stderr, "");
}

#[test]
fn with_nothing_to_go_by_the_policy_targets_claude_code() {
    let p = Project::new();
    let run = p.hookc(&["init"]);
    assert!(run.stdout.contains("the default"), "{}", run.stdout);
    assert!(p.read("policy.kdl").contains("\ntargets \"claude\"\n"));
}

#[test]
fn the_policy_targets_the_harnesses_found_in_the_project() {
    let p = Project::new();
    p.write(".claude/settings.json", "{}\n");
    let run = p.hookc(&["init"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.contains("found .claude/"), "{}", run.stdout);
    let policy = p.read("policy.kdl");
    assert!(
        policy.contains("found in this project: .claude/"),
        "{policy}"
    );
    // The user's settings survive the first build.
    p.build();
    assert!(p.read(".claude/settings.json").contains("PreToolUse"));
}

#[test]
fn harnesses_found_but_not_yet_supported_are_named_not_targeted() {
    let Some(unsupported) = HarnessId::ALL
        .iter()
        .find(|id| harness::get(**id).is_none())
    else {
        return; // every harness is supported: nothing to show
    };
    let (_, hints) = hookc::init::HINTS
        .iter()
        .find(|(id, _)| id == unsupported)
        .unwrap();
    let p = Project::new();
    let hint = hints[0];
    match hint.strip_suffix('/') {
        Some(dir) => std::fs::create_dir_all(p.path(dir)).unwrap(),
        None => {
            p.write(hint, "");
        }
    }
    let run = p.hookc(&["init"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(&format!(
            "also found {unsupported}, which this hookc cannot emit for yet"
        )),
        "{}",
        run.stdout
    );
    p.build();
}

#[test]
fn an_existing_policy_is_never_overwritten() {
    let p = Project::new();
    p.write("policy.kdl", "// mine\n");
    let run = p.hookc(&["init"]);
    assert_eq!(run.status, 2);
    assert_eq!(p.read("policy.kdl"), "// mine\n");
    assert!(
        run.stderr.contains("policy.kdl already exists"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("--policy"), "says what to do instead");
}

#[test]
fn another_path_is_a_fresh_start_beside_the_existing_policy() {
    let p = Project::new();
    p.write("policy.kdl", "// mine\n");
    let run = p.hookc(&["init", "--policy", "policy.new.kdl", "--preset", "git"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(p.read("policy.new.kdl").contains("\npreset \"git\"\n"));
    assert_eq!(p.read("policy.kdl"), "// mine\n");
}

#[test]
fn chosen_harnesses_must_be_ones_hookc_can_emit_for() {
    let p = Project::new();
    let run = p.hookc(&["init", "--harness", "claude"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        p.read("policy.kdl")
            .contains("chosen with `hookc init --harness`")
    );
    if let Some(id) = HarnessId::ALL
        .iter()
        .find(|id| harness::get(**id).is_none())
    {
        let q = Project::new();
        let run = q.hookc(&["init", "--harness", id.word()]);
        assert_eq!(run.status, 2);
        assert!(run.stderr.contains("cannot emit for"), "{}", run.stderr);
        assert!(!q.exists("policy.kdl"));
    }
    let run = p.hookc(&["init", "--harness", "claud", "--policy", "x.kdl"]);
    assert_eq!(run.status, 2, "clap rejects unknown names");
}

#[test]
fn json_output_says_what_was_written() {
    let p = Project::new();
    let run = p.hookc(&["init", "--format", "json", "--preset", "secrets"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["written"], true);
    assert_eq!(doc["targets"], serde_json::json!(["claude"]));
    assert_eq!(doc["presets"], serde_json::json!(["secrets"]));
}

#[test]
fn every_supported_harness_gets_a_policy_that_builds() {
    for h in harness::all() {
        let p = Project::new();
        let word = h.id().word();
        let init = p.hookc(&["init", "--harness", word]);
        assert_eq!(init.status, 0, "{word}: {}", init.stderr);
        assert!(
            p.read("policy.kdl")
                .contains(&format!("targets \"{word}\""))
        );
        let build = p.hookc(&["build"]);
        assert_eq!(build.status, 0, "{word}: {}{}", build.stdout, build.stderr);
        assert!(
            build.stdout.contains(&format!("{}: ", h.profile().name)),
            "{word}: {}",
            build.stdout
        );
    }
}

/// What a JavaScript repository with its own hooks shows `hookc init`: the
/// hand-written agent hooks (with `hookc import` and `hookc lint` to take
/// them on), the git hooks, a database server in its compose file; and a
/// lone `.vscode/launch.json` is no sign of VS Code's agent.
#[test]
fn init_names_the_hooks_it_sees_and_the_databases_of_a_compose_file() {
    let p = Project::new();
    p.write(".vscode/launch.json", "{}\n");
    p.write(".husky/pre-commit", "npx lint-staged\n");
    p.write(
        ".cursor/hooks.json",
        r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./hooks/check.sh"}]}}"#,
    );
    p.write(
        "docker-compose.yml",
        "services:\n  db:\n    image: \"postgres:16-alpine\"\n  web:\n    build: .\n",
    );
    let run = p.hookc(&["init"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let said = &run.stdout;
    assert!(
        said.contains("hand-written agent hooks in .cursor/hooks.json")
            && said.contains("`hookc import --output")
            && said.contains("`hookc lint`"),
        "{said}"
    );
    assert!(said.contains("git hooks (.husky/)"), "{said}");
    let policy = p.read("policy.kdl");
    assert!(
        policy.contains("// (found docker-compose.yml (postgres))\npreset \"databases\"\n"),
        "{policy}"
    );
    assert!(!policy.contains("\"vscode\""), "{policy}");

    // Its own hooks are not hand-written: after a build, a fresh init (to
    // another file) names none.
    let p = Project::new();
    p.write("policy.kdl", "targets \"claude\" \"cursor\"\nguard \"x\" {\n    command \"git\" \"push\"\n    deny \"Open a pull request instead.\"\n}\n");
    p.build();
    let run = p.hookc(&["init", "--policy", "policy.new.kdl"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("hand-written"), "{}", run.stdout);
    // A compose file without a database server takes no databases preset.
    let q = Project::new();
    q.write("compose.yaml", "services:\n  web:\n    image: nginx:1\n");
    assert_eq!(q.hookc(&["init"]).status, 0);
    assert!(q.read("policy.kdl").contains("// preset \"databases\""));
}
