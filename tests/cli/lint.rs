//! `hookc lint`: every rule has a failing and a passing fixture per harness
//! (tests/fixtures/lint/<harness>/<code>[-variant]-{bad,good}/), the oracle's
//! planted mistakes are all found, and the machine formats hold their shape.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{HOOKC, Project, repo, run};

fn fixtures() -> PathBuf {
    repo().join("tests/fixtures")
}

fn lint_json(dir: &Path) -> (i32, serde_json::Value) {
    let out = run(
        Command::new(HOOKC)
            .args(["lint", "--format", "json"])
            .arg(dir)
            .current_dir(dir),
        None,
    );
    let value = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", out.stdout, out.stderr));
    (out.status, value)
}

fn codes(report: &serde_json::Value) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            d["code"]
                .as_str()
                .unwrap()
                .trim_start_matches("hookc::")
                .to_owned()
        })
        .collect()
}

#[test]
fn every_rule_fixture_fails_when_bad_and_passes_when_good() {
    let mut checked = 0;
    let root = fixtures().join("lint");
    let mut harnesses: Vec<_> = std::fs::read_dir(&root).unwrap().flatten().collect();
    harnesses.sort_by_key(|e| e.path());
    for harness in harnesses {
        let mut cases: Vec<_> = std::fs::read_dir(harness.path())
            .unwrap()
            .flatten()
            .collect();
        cases.sort_by_key(|e| e.path());
        for case in cases {
            let name = case.file_name().to_string_lossy().to_string();
            let (stem, bad) = match name.strip_suffix("-bad") {
                Some(s) => (s.to_owned(), true),
                None => (
                    name.strip_suffix("-good")
                        .expect("-bad or -good")
                        .to_owned(),
                    false,
                ),
            };
            let (status, report) = lint_json(&case.path());
            assert!(
                !report["files"].as_array().unwrap().is_empty(),
                "{}: no harness file found",
                case.path().display()
            );
            let found = codes(&report);
            let hit = found.iter().any(|c| stem.starts_with(c.as_str()));
            if bad {
                assert!(
                    hit,
                    "{}: expected {stem}, got {found:?}",
                    case.path().display()
                );
                let severity_error = report["diagnostics"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|d| d["severity"] == "error");
                assert_eq!(
                    status,
                    i32::from(severity_error),
                    "{}",
                    case.path().display()
                );
            } else {
                assert!(
                    !hit,
                    "{}: unexpected {stem} in {found:?}",
                    case.path().display()
                );
                assert_eq!(status, 0, "{}: {report:#}", case.path().display());
            }
            checked += 1;
        }
    }
    assert!(checked >= 60, "only {checked} fixtures");
}

#[test]
fn every_planted_mistake_in_the_oracle_bad_examples_is_reported() {
    let (status, report) = lint_json(&fixtures().join("oracle-examples/bad"));
    assert_eq!(status, 1);
    let diags = report["diagnostics"].as_array().unwrap();
    let has = |file: &str, code: &str, line: u64| {
        diags.iter().any(|d| {
            d["file"].as_str().unwrap().ends_with(file)
                && d["code"] == format!("hookc::{code}")
                && d["severity"] == "error"
                && d["labels"][0]["line"] == line
        })
    };
    let planted = [
        (".claude/settings.json", "lint-unknown-event", 3),
        (".claude/settings.json", "lint-wrong-type", 7),
        (".codex/hooks.json", "lint-unknown-event", 3),
        (".codex/config.toml", "lint-unknown-key", 1),
        (".cursor/hooks.json", "lint-missing-field", 1),
        (".gemini/settings.json", "lint-unknown-event", 3),
        (".gemini/settings.json", "lint-wrong-type", 7),
        (".github/hooks/policy.json", "lint-wrong-type", 4),
        (".kimi-code/config.toml", "lint-unknown-key", 5),
        (".opencode/plugin/policy.js", "lint-unknown-hook", 2),
    ];
    for (file, code, line) in planted {
        assert!(
            has(file, code, line),
            "{file} {code} line {line} not reported:\n{report:#}"
        );
    }
    // Every harness file of the tree has at least one error.
    for file in report["files"].as_array().unwrap() {
        let file = file.as_str().unwrap();
        assert!(
            diags
                .iter()
                .any(|d| d["file"] == file && d["severity"] == "error"),
            "{file} has no error"
        );
    }
    assert_eq!(report["files"].as_array().unwrap().len(), 8);
}

#[test]
fn the_oracle_good_examples_have_no_error() {
    let (status, report) = lint_json(&fixtures().join("oracle-examples/good"));
    assert_eq!(status, 0, "{report:#}");
    assert_eq!(report["files"].as_array().unwrap().len(), 7);
    assert!(
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["severity"] == "warning"),
        "{report:#}"
    );
}

#[test]
fn human_output_points_at_line_and_column() {
    let dir = fixtures().join("oracle-examples/bad");
    let out = run(
        Command::new(HOOKC)
            .args(["lint", "--color", "never", ".claude/settings.json"])
            .current_dir(&dir),
        None,
    );
    assert_eq!(out.status, 1);
    assert!(
        out.stderr.contains("hookc::lint-unknown-event"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains(".claude/settings.json:3:5"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("write `PreToolUse`"), "{}", out.stderr);
}

#[test]
fn claudes_event_name_in_gemini_gets_geminis_name() {
    let dir = fixtures().join("oracle-examples/bad");
    let out = run(
        Command::new(HOOKC)
            .args(["lint", "--color", "never", ".gemini/settings.json"])
            .current_dir(&dir),
        None,
    );
    assert!(
        out.stderr.contains("Gemini CLI calls it `BeforeTool`"),
        "{}",
        out.stderr
    );
}

#[test]
fn no_paths_lints_the_current_repo_and_missing_paths_are_exit_2() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        r#"{ "hooks": { "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "echo no >&2; exit 2" } ] } ] } }"#,
    );
    let out = p.hookc(&["lint"]);
    assert_eq!(out.status, 0, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains("1 file(s) linted, no findings"),
        "{}",
        out.stdout
    );
    assert_eq!(p.hookc(&["lint", "nope.json"]).status, 2);
    assert_eq!(p.hookc(&["lint", "policy-missing/"]).status, 2);
}

#[test]
fn user_flag_reads_kimi_code_home() {
    let p = Project::new();
    p.write(
        "home/kimi/config.toml",
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"exit 2\"\nenabled = true\n",
    );
    let out = run(
        Command::new(HOOKC)
            .args(["lint", "--user", "--format", "json"])
            .env("HOME", p.path("home"))
            .env("KIMI_CODE_HOME", p.path("home/kimi"))
            .current_dir(p.dir.path()),
        None,
    );
    assert_eq!(out.status, 1, "{}", out.stdout);
    assert!(out.stdout.contains("lint-unknown-key"), "{}", out.stdout);
}

#[test]
fn fix_corrects_event_case_and_cursor_fail_closed_byte_for_byte() {
    let p = Project::new();
    let claude = "{\n  \"hooks\": {\n    \"pretooluse\": [ { \"matcher\": \"Bash\", \"hooks\": [ { \"type\": \"command\", \"command\": \"exit 2\" } ] } ]\n  },\n  \"model\": \"opus\"\n}\n";
    let cursor = "{\n  // mine\n  \"version\": 1,\n  \"hooks\": {\n    \"beforeShellExecution\": [ { \"command\": \"exit 2\", \"timeout\": 30 } ],\n    \"preToolUse\": [ { \"command\": \"exit 2\", \"failClosed\": false } ]\n  }\n}\n";
    let kimi = "# keep\n[[hooks]]\nevent = \"pretooluse\"  # trailing\ncommand = \"exit 2\"\n";
    p.write(".claude/settings.json", claude)
        .write(".cursor/hooks.json", cursor)
        .write(".kimi-code/config.toml", kimi);
    let out = p.hookc(&["lint", "--fix", "--format", "json"]);
    assert_eq!(out.status, 0, "{}{}", out.stdout, out.stderr);
    assert_eq!(
        p.read(".claude/settings.json"),
        claude.replace("\"pretooluse\"", "\"PreToolUse\"")
    );
    // An explicit `"failClosed": false` is the author's choice: kept.
    assert_eq!(
        p.read(".cursor/hooks.json"),
        cursor.replace(
            "\"timeout\": 30 }",
            "\"timeout\": 30, \"failClosed\": true }"
        )
    );
    assert_eq!(
        p.read(".kimi-code/config.toml"),
        kimi.replace("\"pretooluse\"", "\"PreToolUse\"")
    );
    // A second run has nothing left to fix.
    let again = p.hookc(&["lint", "--format", "json"]);
    assert!(
        !again.stdout.contains("lint-unknown-event"),
        "{}",
        again.stdout
    );
    assert_eq!(
        again.stdout.matches("lint-cursor-fail-closed").count(),
        1,
        "only the explicit `false` is left: {}",
        again.stdout
    );
}

/// The SARIF 2.1.0 schema's required properties, checked structurally.
#[test]
fn sarif_output_has_the_shape_sarif_2_1_0_requires() {
    let dir = fixtures().join("oracle-examples/bad");
    let out = run(
        Command::new(HOOKC)
            .args(["lint", "--format", "sarif", "."])
            .current_dir(&dir),
        None,
    );
    assert_eq!(out.status, 1);
    let sarif: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    // sarifLog: required version ("2.1.0") and runs.
    assert_eq!(sarif["version"], "2.1.0");
    let runs = sarif["runs"].as_array().expect("runs is an array");
    assert_eq!(runs.len(), 1);
    // run: required tool; tool: required driver; toolComponent: required name.
    let driver = &runs[0]["tool"]["driver"];
    assert!(driver["name"].is_string());
    let rules = driver["rules"].as_array().unwrap();
    for rule in rules {
        // reportingDescriptor: required id; message strings need text.
        assert!(rule["id"].is_string());
        assert!(rule["shortDescription"]["text"].is_string());
    }
    let results = runs[0]["results"].as_array().unwrap();
    assert!(results.len() >= 10);
    for r in results {
        // result: required message (with text or id).
        assert!(r["message"]["text"].is_string(), "{r}");
        assert!(["none", "note", "warning", "error"].contains(&r["level"].as_str().unwrap()));
        let id = r["ruleId"].as_str().unwrap();
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], id);
        for loc in r["locations"].as_array().unwrap() {
            let phys = &loc["physicalLocation"];
            assert!(phys["artifactLocation"]["uri"].is_string());
            let region = &phys["region"];
            // region: startLine/startColumn are integers >= 1.
            for k in ["startLine", "startColumn", "endLine", "endColumn"] {
                assert!(region[k].as_u64().unwrap() >= 1, "{k} in {region}");
            }
            assert!(
                !phys["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap()
                    .starts_with('/')
            );
        }
    }
    // Only properties the schema defines at the top level.
    for key in sarif.as_object().unwrap().keys() {
        assert!(
            [
                "$schema",
                "version",
                "runs",
                "inlineExternalProperties",
                "properties"
            ]
            .contains(&key.as_str())
        );
    }
}

#[test]
fn human_output_for_the_oracle_bad_examples_is_pinned() {
    let dir = fixtures().join("oracle-examples/bad");
    let out = run(
        Command::new(HOOKC)
            .args(["lint", "--color", "never", "."])
            .env("COLUMNS", "80")
            .current_dir(&dir),
        None,
    );
    assert_eq!(out.status, 1);
    crate::support::golden(&fixtures().join("lint-oracle-bad.stderr"), &out.stderr);
}

/// `hookc lint --format sarif` validates against both published JSON Schemas
/// of SARIF 2.1.0 (vendored: tests/fixtures/sarif/SOURCE.md), and the check
/// itself can fail.
#[test]
fn sarif_output_validates_against_the_sarif_2_1_0_schema() {
    let schema = |file: &str| -> serde_json::Value {
        let text = std::fs::read_to_string(fixtures().join("sarif").join(file)).unwrap();
        serde_json::from_str(&text).unwrap()
    };
    // rtm.5 (SchemaStore's `sarif-2.1.0.json`, the `$schema` hookc writes):
    // its two `language` patterns (of `run` and `toolComponent`) have a stray
    // `]` that only JavaScript's legacy regex mode reads as a literal, so the
    // validator refuses to compile it. hookc writes no `language`; the
    // intended pattern stands in for them, and nothing else is touched.
    let rtm5 = {
        let text =
            std::fs::read_to_string(fixtures().join("sarif/sarif-2.1.0-rtm.5.json")).unwrap();
        let stray = r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#;
        assert_eq!(text.matches(stray).count(), 2);
        let text = text.replace(stray, r#""^[a-zA-Z]{2}(-[a-zA-Z]{2})?$""#);
        serde_json::from_str(&text).unwrap()
    };
    let validators = [
        jsonschema::draft4::new(&rtm5).expect("the rtm.5 schema compiles"),
        // The SARIF SDK's own copy (JSON Schema 2020-12), unchanged.
        jsonschema::draft202012::new(&schema("sarif-2.1.0-sarif-sdk.json"))
            .expect("the SARIF SDK's schema compiles"),
    ];
    for validator in &validators {
        check_sarif_against(validator);
    }
}

fn check_sarif_against(validator: &jsonschema::Validator) {
    for dir in ["oracle-examples/bad", "oracle-examples/good"] {
        let out = run(
            Command::new(HOOKC)
                .args(["lint", "--format", "sarif", "."])
                .current_dir(fixtures().join(dir)),
            None,
        );
        let sarif: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&sarif)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{dir}: {errors:#?}");
        if dir.ends_with("bad") {
            assert!(sarif["runs"][0]["results"].as_array().unwrap().len() >= 10);
            // A log that breaks the schema is caught: a tool without a name,
            // a result without a message, a level SARIF does not have.
            let mut broken = sarif.clone();
            broken["runs"][0]["tool"]["driver"]
                .as_object_mut()
                .unwrap()
                .remove("name");
            assert!(!validator.is_valid(&broken));
            let mut broken = sarif.clone();
            broken["runs"][0]["results"][0]
                .as_object_mut()
                .unwrap()
                .remove("message");
            assert!(!validator.is_valid(&broken));
            let mut broken = sarif.clone();
            broken["runs"][0]["results"][0]["level"] = "fatal".into();
            assert!(!validator.is_valid(&broken));
        }
    }
}

/// `preToolUse` next to `PreToolUse`: renaming would repeat the key and the
/// JSON reader would keep one list; `--fix` merges the lists instead, and a
/// second run has nothing to say.
#[test]
fn fix_merges_a_misspelt_event_into_the_right_one_and_loses_no_hook() {
    let p = Project::new();
    for (a, b) in [("preToolUse", "PreToolUse"), ("PreToolUse", "preToolUse")] {
        let claude = format!(
            "{{\n  \"hooks\": {{\n    \"{a}\": [ {{ \"matcher\": \"Bash\", \"hooks\": [ {{ \"type\": \"command\", \"command\": \"./first.sh\" }} ] }} ],\n    \"{b}\": [ {{ \"matcher\": \"Read\", \"hooks\": [ {{ \"type\": \"command\", \"command\": \"./second.sh\" }} ] }} ]\n  }}\n}}\n"
        );
        p.write(".claude/settings.json", &claude);
        let out = p.hookc(&["lint", "--fix", "--format", "json"]);
        let text = p.read(".claude/settings.json");
        assert_eq!(text.matches("\"PreToolUse\":").count(), 1, "{text}");
        assert!(!text.contains("\"preToolUse\":"), "{text}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let entries = v["hooks"]["PreToolUse"].as_array().unwrap();
        let commands: Vec<&str> = entries
            .iter()
            .map(|e| e["hooks"][0]["command"].as_str().unwrap())
            .collect();
        assert_eq!(commands.len(), 2, "{text}");
        assert!(commands.contains(&"./first.sh") && commands.contains(&"./second.sh"));
        assert!(!out.stdout.contains("lint-unknown-event"), "{}", out.stdout);
        let again = p.hookc(&["lint", "--format", "json"]);
        assert!(
            !again.stdout.contains("lint-unknown-event"),
            "{}",
            again.stdout
        );
        assert!(
            !again.stdout.contains("lint-duplicate-key"),
            "{}",
            again.stdout
        );
    }
}

/// Where merging is not safe, `--fix` leaves the file alone and says why.
#[test]
fn fix_refuses_to_merge_what_is_not_a_list() {
    let p = Project::new();
    let claude =
        "{ \"hooks\": { \"preToolUse\": { \"matcher\": \"Bash\" }, \"PreToolUse\": [] } }\n";
    p.write(".claude/settings.json", claude);
    let out = p.hookc(&["lint", "--fix"]);
    assert_eq!(out.status, 1);
    assert_eq!(p.read(".claude/settings.json"), claude);
    assert!(out.stderr.contains("by hand"), "{}", out.stderr);
}

/// Two misspellings and no right spelling: one is renamed, the other merged.
#[test]
fn fix_merges_two_misspellings_into_one_key() {
    let p = Project::new();
    let claude = "{ \"hooks\": { \"pretooluse\": [ { \"hooks\": [ { \"type\": \"command\", \"command\": \"./a.sh\" } ] } ], \"preToolUse\": [ { \"hooks\": [ { \"type\": \"command\", \"command\": \"./b.sh\" } ] } ] } }\n";
    p.write(".claude/settings.json", claude);
    p.hookc(&["lint", "--fix"]);
    let v: serde_json::Value = serde_json::from_str(&p.read(".claude/settings.json")).unwrap();
    let hooks = v["hooks"].as_object().unwrap();
    assert_eq!(hooks.len(), 1, "{v}");
    assert_eq!(hooks["PreToolUse"].as_array().unwrap().len(), 2, "{v}");
}

/// Claude Code, Codex and Antigravity read their hook files as strict JSON,
/// Gemini CLI as JSON with comments: what they reject is a syntax error
/// here, and JSON5 is rejected everywhere.
#[test]
fn lint_parses_each_json_file_as_strictly_as_its_harness() {
    let p = Project::new();
    let hooks = r#""hooks": { "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "./guard.sh" } ] } ] }"#;
    p.write(
        ".claude/settings.json",
        &format!("{{\n  // mine\n  {hooks}\n}}\n"),
    );
    p.write(".codex/hooks.json", &format!("{{ {hooks}, }}\n"));
    let gemini = r#"{ // mine
  "hooks": { "BeforeTool": [ { "matcher": "run_shell_command", "hooks": [ { "type": "command", "command": "./guard.sh", "timeout": 30000 } ] } ] }
}
"#;
    p.write(".gemini/settings.json", gemini);
    p.write(".cursor/hooks.json", "{ version: 1, 'hooks': {} }\n");
    let out = p.hookc(&["lint", "--format", "json"]);
    assert_eq!(out.status, 1, "{}{}", out.stdout, out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let syntax: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "hookc::lint-syntax")
        .map(|d| d["file"].as_str().unwrap())
        .collect();
    let has = |f: &str| syntax.iter().any(|s| s.ends_with(f));
    assert!(has(".claude/settings.json"), "{syntax:?}");
    assert!(has(".codex/hooks.json"), "{syntax:?}");
    assert!(has(".cursor/hooks.json"), "{syntax:?}");
    assert!(!has(".gemini/settings.json"), "{syntax:?}");
}

/// `$KIMI_CODE_HOME` can be any folder: a TOML file with Kimi's `[[hooks]]`
/// tables is linted as a Kimi config wherever it is, when given by path.
#[test]
fn a_kimi_config_at_any_path_is_linted_when_named() {
    let p = Project::new();
    p.write(
        "conf/kimi.toml",
        "[[hooks]]\nevent = \"pretooluse\"\nmatcher = \"^Bash$\"\ncommand = \"exit 2\"\n",
    );
    p.write("conf/other.toml", "[package]\nname = \"x\"\n");
    let out = p.hookc(&["lint", "--format", "json", "conf/kimi.toml"]);
    assert_eq!(out.status, 1, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("lint-unknown-event"), "{}", out.stdout);
    let other = p.hookc(&["lint", "conf/other.toml"]);
    assert_eq!(other.status, 2, "{}", other.stderr);
}

/// `exit 1` on a refusal path lets the call through in Claude Code (an
/// error: the guard protects nothing); in Copilot CLI it refuses, but VS
/// Code, which runs the same `.github/hooks` file, lets the call through
/// (a warning that says so).
#[test]
fn exit_1_on_a_deny_path_is_an_error_where_it_lets_the_call_through() {
    let (status, report) = lint_json(&fixtures().join("lint/claude/lint-fail-open-exit1-bad"));
    assert_eq!(status, 1, "{report:#}");
    assert!(
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "hookc::lint-fail-open" && d["severity"] == "error"),
        "{report:#}"
    );
    let (status, report) =
        lint_json(&fixtures().join("lint/copilot/lint-fail-open-exit1-vscode-bad"));
    assert_eq!(status, 0, "{report:#}");
    let fail_open: Vec<_> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "hookc::lint-fail-open")
        .collect();
    assert!(
        fail_open.len() == 1
            && fail_open[0]["severity"] == "warning"
            && fail_open[0]["message"]
                .as_str()
                .unwrap()
                .contains("VS Code"),
        "{report:#}"
    );
}

// Precision (issue 32): findings seen on real public hook configs that were
// wrong. Each test is a minimal fixture of such a config.

/// The findings of `hookc lint` on the project: (code without `hookc::`,
/// severity, message, help).
fn findings(p: &Project) -> Vec<(String, String, String, String)> {
    let out = p.hookc(&["lint", "--format", "json", "."]);
    let report: serde_json::Value = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", out.stdout, out.stderr));
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let s = |k: &str| d[k].as_str().unwrap_or("").to_owned();
            (
                s("code").trim_start_matches("hookc::").to_owned(),
                s("severity"),
                s("message"),
                s("help"),
            )
        })
        .collect()
}

/// A Codex `PreToolUse` guard behind `matcher`.
fn codex_pre_tool(matcher: &str) -> String {
    format!(
        r#"{{ "hooks": {{ "PreToolUse": [ {{ "matcher": "{matcher}", "hooks": [ {{ "type": "command", "command": "echo no >&2; exit 2", "timeout": 30 }} ] }} ] }} }}"#
    )
}

/// Codex matches `Edit` and `Write` against its `apply_patch` tool (they are
/// its matcher aliases), so a guard on them runs; `Read` names no tool Codex
/// hooks see (Bash, apply_patch, MCP), so a guard on it never runs.
#[test]
fn codex_edit_and_write_match_apply_patch_and_read_matches_nothing() {
    let p = Project::new();
    for m in [
        "Edit",
        "Write",
        "Edit|Write",
        "apply_patch|Edit",
        "^(?:Bash|Write)$",
    ] {
        p.write(".codex/hooks.json", &codex_pre_tool(m));
        let found = findings(&p);
        assert!(found.is_empty(), "{m}: {found:#?}");
    }
    p.write(".codex/hooks.json", &codex_pre_tool("Read"));
    let found = findings(&p);
    let read = found
        .iter()
        .find(|(code, ..)| code == "lint-matcher-foreign-tool")
        .unwrap_or_else(|| panic!("{found:#?}"));
    assert_eq!(read.1, "error", "{read:?}");
    assert!(
        read.2.contains("`Read`") && read.2.contains("matches nothing"),
        "{read:?}"
    );
    assert!(
        read.3.contains("apply_patch") && read.3.contains("Bash"),
        "{read:?}"
    );
    // In an alternation only the word that matches nothing is reported.
    p.write(".codex/hooks.json", &codex_pre_tool("Bash|Read"));
    let found = findings(&p);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].2.contains("`Read`"), "{found:#?}");
}

/// Cursor tests a `beforeShellExecution` matcher against the whole command
/// line (shared/harnesses/cursor.md, §2 and §3): it is a prefilter on the
/// command, so `git` must stay unanchored (`^(git)$` would never match
/// `git push`), and its words are not tool names.
#[test]
fn a_cursor_command_line_matcher_gets_no_tool_name_advice() {
    let p = Project::new();
    for m in ["git", "curl|wget|nc ", "Bash", "rm -rf"] {
        p.write(
            ".cursor/hooks.json",
            &format!(
                r#"{{ "version": 1, "hooks": {{ "beforeShellExecution": [ {{ "command": "echo '{{\"permission\":\"deny\",\"user_message\":\"no\",\"agent_message\":\"no\"}}'", "matcher": "{m}", "timeout": 10, "failClosed": true }} ] }} }}"#
            ),
        );
        let found = findings(&p);
        assert!(found.is_empty(), "{m}: {found:#?}");
    }
    // The same word on a tool event is a tool name, searched for anywhere.
    p.write(
        ".cursor/hooks.json",
        r#"{ "version": 1, "hooks": { "preToolUse": [ { "command": "echo '{\"permission\":\"deny\",\"user_message\":\"no\",\"agent_message\":\"no\"}'", "matcher": "Shell", "timeout": 10, "failClosed": true } ] } }"#,
    );
    let found = findings(&p);
    assert!(
        found
            .iter()
            .any(|(code, _, _, help)| code == "lint-matcher-unanchored"
                && help.contains("^(Shell)$")),
        "{found:#?}"
    );
}

/// `.*` matches every tool in every regex harness, and `*` and the empty
/// matcher do where the harness says they mean every tool: none of them
/// needs anchoring (`^(.*)$` matches just the same).
#[test]
fn a_matcher_for_every_tool_gets_no_anchoring_advice() {
    let grouped = |event: &str, m: &str, timeout: u32| {
        format!(
            r#"{{ "hooks": {{ "{event}": [ {{ "matcher": "{m}", "hooks": [ {{ "type": "command", "command": "echo no >&2; exit 2", "timeout": {timeout} }} ] }} ] }} }}"#
        )
    };
    let cases: Vec<(&str, String)> = vec![
        (".claude/settings.json", grouped("PreToolUse", ".*", 30)),
        (".claude/settings.json", grouped("PreToolUse", "*", 30)),
        (".claude/settings.json", grouped("PreToolUse", "", 30)),
        (".gemini/settings.json", grouped("BeforeTool", ".*", 5000)),
        (".gemini/settings.json", grouped("BeforeTool", "*", 5000)),
        (".augment/settings.json", grouped("PreToolUse", ".*", 30)),
        (".codex/hooks.json", grouped("PreToolUse", ".*", 30)),
        (
            ".cursor/hooks.json",
            r#"{ "version": 1, "hooks": { "preToolUse": [ { "command": "echo '{\"permission\":\"deny\",\"user_message\":\"no\",\"agent_message\":\"no\"}'", "matcher": ".*", "timeout": 10, "failClosed": true } ] } }"#.to_owned(),
        ),
    ];
    for (file, text) in cases {
        let p = Project::new();
        let found = findings_with(&p, file, &text);
        assert!(
            !found
                .iter()
                .any(|(code, _, _, help)| code == "lint-matcher-unanchored"
                    || help.contains("^(.*)$")),
            "{file} {text}: {found:#?}"
        );
    }
}

/// A Cursor hooks file with one handler `handler` on `event`.
fn cursor_hook(event: &str, handler: &str) -> String {
    format!(r#"{{ "version": 1, "hooks": {{ "{event}": [ {handler} ] }} }}"#)
}

/// The findings of `hookc lint` with `file` holding `text`, which is then
/// removed again, so that one project serves a table of cases.
fn findings_with(p: &Project, file: &str, text: &str) -> Vec<(String, String, String, String)> {
    p.write(file, text);
    let found = findings(p);
    std::fs::remove_file(p.path(file)).unwrap();
    found
}

fn has_code(found: &[(String, String, String, String)], code: &str) -> bool {
    found.iter().any(|(c, ..)| c == code)
}

/// `failClosed` only matters for a hook that refuses on an event that can
/// refuse: a `stop` hook (its follow-up does not veto the stop), an observer
/// that logs and allows, a hook whose script never refuses get no advice;
/// a guard that exits 2 or prints a deny, inline or in its script, does.
#[test]
fn fail_closed_is_advised_only_for_hooks_that_refuse_where_refusing_counts() {
    let p = Project::new();
    p.write(
        ".cursor/hooks/log.sh",
        "#!/bin/sh\ncat >> .cursor/hooks/calls.jsonl\necho '{\"permission\":\"allow\"}'\n",
    );
    p.write(
        ".cursor/hooks/guard.sh",
        "#!/bin/sh\nif grep -q 'git push' ; then\n  echo 'no pushing' >&2\n  exit 2\nfi\necho '{\"permission\":\"allow\"}'\n",
    );
    p.write(
        ".cursor/hooks/deny.py",
        "import json\nprint(json.dumps({\"permission\": \"deny\", \"user_message\": \"no\", \"agent_message\": \"no\"}))\n",
    );
    for script in [".cursor/hooks/log.sh", ".cursor/hooks/guard.sh"] {
        crate::support::make_executable(&p.path(script));
    }
    let quiet = [
        (
            "stop",
            r#"{ "command": "echo '{\"followup_message\":\"run the tests\"}'", "timeout": 10 }"#,
        ),
        (
            "stop",
            r#"{ "command": ".cursor/hooks/guard.sh", "timeout": 10 }"#,
        ),
        (
            "preToolUse",
            r#"{ "command": ".cursor/hooks/log.sh", "timeout": 10 }"#,
        ),
        (
            "beforeShellExecution",
            r#"{ "command": ".cursor/hooks/log.sh", "timeout": 10 }"#,
        ),
        (
            "beforeSubmitPrompt",
            r#"{ "command": "echo '{\"continue\":true}'", "timeout": 10 }"#,
        ),
        (
            "afterFileEdit",
            r#"{ "command": ".cursor/hooks/log.sh", "timeout": 10 }"#,
        ),
    ];
    for (event, handler) in quiet {
        p.write(".cursor/hooks.json", &cursor_hook(event, handler));
        let found = findings(&p);
        assert!(
            !has_code(&found, "lint-cursor-fail-closed"),
            "{event} {handler}: {found:#?}"
        );
    }
    let refusing = [
        (
            "beforeShellExecution",
            r#"{ "command": ".cursor/hooks/guard.sh", "timeout": 10 }"#,
        ),
        (
            "preToolUse",
            r#"{ "command": "python3 .cursor/hooks/deny.py", "timeout": 10 }"#,
        ),
        (
            "beforeSubmitPrompt",
            r#"{ "command": "echo '{\"continue\":false,\"user_message\":\"no\"}'", "timeout": 10 }"#,
        ),
        (
            "beforeMCPExecution",
            r#"{ "command": "echo no >&2; exit 2", "timeout": 10 }"#,
        ),
    ];
    for (event, handler) in refusing {
        p.write(".cursor/hooks.json", &cursor_hook(event, handler));
        let found = findings(&p);
        assert!(
            found
                .iter()
                .any(|(code, _, _, help)| code == "lint-cursor-fail-closed"
                    && help.contains("\"failClosed\": true")),
            "{event} {handler}: {found:#?}"
        );
    }
}

/// A Claude Code `PreToolUse` hook running `command`.
fn claude_pre_tool(command: &str) -> String {
    serde_json::json!({ "hooks": { "PreToolUse": [ { "matcher": "Bash", "hooks": [
        { "type": "command", "command": command, "timeout": 30 } ] } ] } })
    .to_string()
}

/// `|| true` after reading stdin (or after housekeeping such as `mkdir -p`)
/// swallows nothing that decides; after the guard or check itself it makes
/// a failing guard allow.
#[test]
fn only_swallowing_the_deciding_commands_status_fails_open() {
    let p = Project::new();
    p.write(
        ".claude/hooks/guard.sh",
        "#!/bin/sh\npayload=$(cat || true)\nmkdir -p .claude/logs 2>/dev/null || true\nprintf '%s\\n' \"$payload\" >> .claude/logs/calls.jsonl || true\ncase \"$payload\" in *'rm -rf'*) echo 'no rm -rf' >&2; exit 2;; esac\nexit 0\n",
    );
    p.write(
        ".claude/hooks/wrapper.sh",
        "#!/bin/sh\npayload=$(cat)\nprintf '%s' \"$payload\" | ./.claude/hooks/check.sh || true\nexit 0\n",
    );
    for script in [".claude/hooks/guard.sh", ".claude/hooks/wrapper.sh"] {
        crate::support::make_executable(&p.path(script));
    }
    let fails_open = |found: &[(String, String, String, String)]| {
        found
            .iter()
            .any(|(code, _, message, _)| code == "lint-fail-open" && message.contains("|| true"))
    };
    for harmless in [
        ".claude/hooks/guard.sh",
        "payload=$(cat || true); case \"$payload\" in *rm*) echo no >&2; exit 2;; esac",
        "IFS= read -r line || true; case \"$line\" in *rm*) echo no >&2; exit 2;; esac",
        "./.claude/hooks/guard.sh || echo '{\"decision\":\"block\",\"reason\":\"the guard failed\"}'",
    ] {
        p.write(".claude/settings.json", &claude_pre_tool(harmless));
        let found = findings(&p);
        assert!(!fails_open(&found), "{harmless}: {found:#?}");
    }
    for swallowing in [
        "./.claude/hooks/guard.sh || true",
        "payload=$(cat); verdict=$(./.claude/hooks/guard.sh || true)",
        ".claude/hooks/wrapper.sh",
    ] {
        p.write(".claude/settings.json", &claude_pre_tool(swallowing));
        let found = findings(&p);
        assert!(fails_open(&found), "{swallowing}: {found:#?}");
    }
}

/// `--fix` says what it changed, file by file, as the lines before and
/// after; it sets `failClosed` only on a guard that refuses, leaves an
/// observer as it is, and keeps an explicit `"failClosed": false`.
#[test]
fn fix_shows_each_change_and_keeps_observers_and_explicit_choices() {
    let p = Project::new();
    p.write(
        ".cursor/hooks/log.sh",
        "#!/bin/sh\ncat >> .cursor/hooks/calls.jsonl\necho '{\"permission\":\"allow\"}'\n",
    );
    crate::support::make_executable(&p.path(".cursor/hooks/log.sh"));
    let cursor = r#"{
  "version": 1,
  "hooks": {
    "beforeShellExecution": [
      { "command": "echo no >&2; exit 2", "timeout": 10 },
      { "command": "echo no >&2; exit 2", "timeout": 10, "failClosed": false }
    ],
    "preToolUse": [ { "command": ".cursor/hooks/log.sh", "timeout": 10 } ]
  }
}
"#;
    let claude = "{\n  \"hooks\": {\n    \"pretooluse\": [ { \"matcher\": \"Bash\", \"hooks\": [ { \"type\": \"command\", \"command\": \"echo no >&2; exit 2\" } ] } ]\n  }\n}\n";
    p.write(".cursor/hooks.json", cursor)
        .write(".claude/settings.local.json", claude);
    let out = p.hookc(&["lint", "--fix", "--color", "never"]);
    let fixed = cursor.replace(
        "{ \"command\": \"echo no >&2; exit 2\", \"timeout\": 10 },",
        "{ \"command\": \"echo no >&2; exit 2\", \"timeout\": 10, \"failClosed\": true },",
    );
    assert_ne!(fixed, cursor);
    assert_eq!(p.read(".cursor/hooks.json"), fixed, "{}", out.stdout);
    assert_eq!(
        p.read(".claude/settings.local.json"),
        claude.replace("\"pretooluse\"", "\"PreToolUse\"")
    );
    // Each change: the file and line, the line before and after.
    for expected in [
        "fixed     .cursor/hooks.json",
        ".cursor/hooks.json:5",
        "-       { \"command\": \"echo no >&2; exit 2\", \"timeout\": 10 },",
        "+       { \"command\": \"echo no >&2; exit 2\", \"timeout\": 10, \"failClosed\": true },",
        "fixed     .claude/settings.local.json",
        ".claude/settings.local.json:3",
        "-     \"pretooluse\": [",
        "+     \"PreToolUse\": [",
    ] {
        assert!(
            out.stdout.contains(expected),
            "{expected:?} not in:\n{}",
            out.stdout
        );
    }
    assert!(
        !out.stdout.contains("failClosed\": false"),
        "{}",
        out.stdout
    );
    // The explicit `false` is still pointed out, and left to its author.
    let left = findings(&p);
    let explicit = left
        .iter()
        .find(|(code, ..)| code == "lint-cursor-fail-closed")
        .unwrap_or_else(|| panic!("{left:#?}"));
    assert!(explicit.3.contains("leaves"), "{explicit:?}");
    assert_eq!(left.len(), 1, "{left:#?}");
}

// Recall (issue 32): traps on real hook configs that lint missed. Each test
// is a minimal fixture of such a config, and the idiomatic form beside it.

fn has_message(found: &[(String, String, String, String)], code: &str, text: &str) -> bool {
    found
        .iter()
        .any(|(c, _, message, _)| c == code && message.contains(text))
}

/// Hooks mostly run their script through an interpreter (`bash x.sh`,
/// `python3 x.py`, `node x.mjs`, `uv run`, `npx tsx`), or from the top of
/// the repository (`"$(git rev-parse --show-toplevel)"/x.sh`): the script is
/// checked just as when the command is its path.
#[test]
fn a_script_run_through_an_interpreter_is_checked_like_one_run_directly() {
    let p = Project::new();
    p.write(
        ".claude/hooks/block.sh",
        "#!/bin/bash\ncmd=$(jq -r .tool_input.command)\ncase \"$cmd\" in *'rm -rf'*) echo 'no rm -rf' >&2; exit 2;; esac\n",
    );
    p.write(
        ".claude/hooks/guard.py",
        "import json, sys\ntry:\n    data = json.load(sys.stdin)\nexcept Exception:\n    sys.exit(1)\nif 'rm -rf' in data['tool_input']['command']:\n    print('no rm -rf', file=sys.stderr)\n    sys.exit(2)\n",
    );
    p.write(
        ".claude/hooks/bare.py",
        "import json, sys\ndata = json.load(sys.stdin)\nif 'rm -rf' in data['tool_input']['command']:\n    print('no rm -rf', file=sys.stderr)\n    sys.exit(2)\n",
    );
    p.write(
        ".claude/hooks/guard.mjs",
        "let raw = '';\nprocess.stdin.on('data', (c) => (raw += c));\nprocess.stdin.on('end', () => {\n  try {\n    const cmd = JSON.parse(raw).tool_input.command;\n    if (cmd.includes('rm -rf')) { console.error('no rm -rf'); process.exit(2); }\n  } catch (e) {\n    process.exit(1);\n  }\n});\n",
    );
    p.write(".claude/hooks/guard.ts", &p.read(".claude/hooks/guard.mjs"));
    // The same checks as for the script run directly, whatever runs it.
    for command in [
        ".claude/hooks/block.sh",
        "bash .claude/hooks/block.sh",
        "sh ./.claude/hooks/block.sh",
        "bash \"$CLAUDE_PROJECT_DIR/.claude/hooks/block.sh\"",
        "\"$(git rev-parse --show-toplevel)\"/.claude/hooks/block.sh",
        "cd \"$CLAUDE_PROJECT_DIR\" && bash .claude/hooks/block.sh",
    ] {
        p.write(".claude/settings.json", &claude_pre_tool(command));
        let found = findings(&p);
        assert!(
            has_message(&found, "lint-fail-open", "`jq` is used without checking"),
            "{command}: {found:#?}"
        );
    }
    for (command, text) in [
        ("python3 .claude/hooks/guard.py", "`sys.exit(1)`"),
        ("uv run .claude/hooks/guard.py", "`sys.exit(1)`"),
        ("python3 .claude/hooks/bare.py", "uncaught exception"),
        ("node .claude/hooks/guard.mjs", "`process.exit(1)`"),
        ("bun .claude/hooks/guard.ts", "`process.exit(1)`"),
        ("npx tsx .claude/hooks/guard.ts", "`process.exit(1)`"),
    ] {
        p.write(".claude/settings.json", &claude_pre_tool(command));
        let found = findings(&p);
        assert!(
            found
                .iter()
                .any(|(c, severity, message, _)| c == "lint-fail-open"
                    && severity == "error"
                    && message.contains(text)),
            "{command}: {found:#?}"
        );
        // A script handed to its interpreter needs no execute bit.
        assert!(
            !has_code(&found, "lint-guard-script"),
            "{command}: {found:#?}"
        );
    }
    p.write(
        ".claude/settings.json",
        &claude_pre_tool("bash .claude/hooks/gone.sh"),
    );
    let found = findings(&p);
    assert!(
        has_message(&found, "lint-guard-script", "`.claude/hooks/gone.sh`"),
        "{found:#?}"
    );
}

/// The idiomatic forms get no finding: a shell guard that checks for `jq`
/// and exits 2 with a reason, a Python or node guard that refuses with exit
/// 2 and fails closed on an error, inline code (`python3 -c`).
#[test]
fn a_guard_run_through_an_interpreter_that_fails_closed_gets_no_finding() {
    let p = Project::new();
    p.write(
        ".claude/hooks/block.sh",
        "#!/bin/bash\ncommand -v jq >/dev/null || { echo 'jq missing' >&2; exit 2; }\ncmd=$(jq -r .tool_input.command)\ncase \"$cmd\" in *'rm -rf'*) echo 'no rm -rf' >&2; exit 2;; esac\nexit 0\n",
    );
    p.write(
        ".claude/hooks/guard.py",
        "import json, sys\ntry:\n    data = json.load(sys.stdin)\nexcept Exception as e:\n    print(f'guard failed: {e}', file=sys.stderr)\n    sys.exit(2)\nif 'rm -rf' in data['tool_input']['command']:\n    print('no rm -rf', file=sys.stderr)\n    sys.exit(2)\nsys.exit(0)\n",
    );
    p.write(
        ".claude/hooks/guard.mjs",
        "let raw = '';\nprocess.stdin.on('data', (c) => (raw += c));\nprocess.stdin.on('end', () => {\n  try {\n    const cmd = JSON.parse(raw).tool_input.command;\n    if (cmd.includes('rm -rf')) { console.error('no rm -rf'); process.exit(2); }\n  } catch (e) {\n    console.error('guard failed');\n    process.exit(2);\n  }\n});\n",
    );
    for command in [
        "bash \"$CLAUDE_PROJECT_DIR/.claude/hooks/block.sh\"",
        "bash \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/block.sh",
        "python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.py",
        "uv run --script \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.py",
        "node \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.mjs",
        "python3 -c 'import sys; sys.exit(0)'",
    ] {
        p.write(".claude/settings.json", &claude_pre_tool(command));
        let found = findings(&p);
        // A hook command naming `python3` is told to check it exists (an
        // older rule on the command itself); nothing about the script.
        let about_scripts: Vec<_> = found
            .iter()
            .filter(|(_, _, message, _)| !message.starts_with("`python3` is used"))
            .collect();
        assert!(about_scripts.is_empty(), "{command}: {found:#?}");
    }
}

/// A Kimi Code `[[hooks]]` table on `event` behind `matcher`.
fn kimi_hook(event: &str, matcher: &str) -> String {
    format!(
        "[[hooks]]\nevent = \"{event}\"\nmatcher = '{matcher}'\ncommand = \"echo no >&2; exit 2\"\ntimeout = 10\n"
    )
}

/// The old Python kimi-cli named its tools `Shell`, `WriteFile`,
/// `StrReplaceFile`, …; Kimi Code's hooks see `Bash`, `Write`, `Edit`
/// (shared/harnesses/kimi.md §4, §10), so a matcher on an old name never
/// fires: an error that gives the new name, not only anchoring advice.
#[test]
fn a_kimi_matcher_on_a_legacy_tool_name_is_an_error_naming_the_new_one() {
    let p = Project::new();
    for (m, new) in [
        ("Shell", "Bash"),
        ("^Shell$", "Bash"),
        ("WriteFile", "Write"),
        ("StrReplaceFile", "Edit"),
        ("ReadFile", "Read"),
        ("SearchWeb", "WebSearch"),
        ("SetTodoList", "TodoList"),
        ("^(WriteFile|Bash)$", "Write"),
    ] {
        p.write(".kimi/config.toml", &kimi_hook("PreToolUse", m));
        let found = findings(&p);
        let legacy = found
            .iter()
            .find(|(code, ..)| code == "lint-matcher-foreign-tool")
            .unwrap_or_else(|| panic!("{m}: {found:#?}"));
        assert_eq!(legacy.1, "error", "{m}: {legacy:?}");
        assert!(legacy.3.contains(&format!("^{new}$")), "{m}: {legacy:?}");
        assert!(
            !has_code(&found, "lint-matcher-unanchored"),
            "{m}: {found:#?}"
        );
    }
    // The names Kimi Code's hooks see (and `ReadMediaFile`, which it kept).
    for m in ["^Bash$", "^(Write|Edit)$", "^ReadMediaFile$", "^Glob$"] {
        p.write(".kimi/config.toml", &kimi_hook("PreToolUse", m));
        let found = findings(&p);
        assert!(found.is_empty(), "{m}: {found:#?}");
    }
}

/// Paths that work on the author's machine and break elsewhere
/// (shared/harnesses/*.md on each hook's working directory and
/// environment): a relative script path where the harness runs hooks in
/// the session's current directory (Claude Code, Codex: a `cd` into a
/// subfolder loses the script), a path into one developer's home, a
/// project variable the harness never sets for the hook (Copilot CLI sets
/// `CLAUDE_PROJECT_DIR` only for plugin hooks).
#[test]
fn hook_paths_that_break_off_the_authors_machine_are_warned_about() {
    let p = Project::new();
    p.write(
        ".claude/hooks/guard.sh",
        "#!/bin/sh\ncase \"$(cat)\" in *'rm -rf'*) echo 'no rm -rf' >&2; exit 2;; esac\nexit 0\n",
    );
    crate::support::make_executable(&p.path(".claude/hooks/guard.sh"));
    let hygiene = |found: &[(String, String, String, String)], text: &str| {
        found.iter().any(|(code, severity, message, help)| {
            code == "lint-hook-path"
                && severity == "warning"
                && format!("{message} {help}").contains(text)
        })
    };
    for (command, text) in [
        (
            ".claude/hooks/guard.sh",
            "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh",
        ),
        (
            "./.claude/hooks/guard.sh",
            "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh",
        ),
        (
            "bash .claude/hooks/guard.sh",
            "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh",
        ),
        ("/home/alice/src/app/.claude/hooks/guard.sh", "/home/alice/"),
        ("bash /Users/bob/app/.claude/hooks/guard.sh", "/Users/bob/"),
    ] {
        p.write(".claude/settings.json", &claude_pre_tool(command));
        let found = findings(&p);
        assert!(hygiene(&found, text), "{command}: {found:#?}");
    }
    // Codex runs hooks in the session's directory too, and sets no project
    // variable: the top of the repository is `git rev-parse`'s.
    p.write(".codex/hooks/guard.sh", &p.read(".claude/hooks/guard.sh"));
    crate::support::make_executable(&p.path(".codex/hooks/guard.sh"));
    p.write(
        ".codex/hooks.json",
        r#"{ "hooks": { "PreToolUse": [ { "matcher": "^Bash$", "hooks": [ { "type": "command", "command": ".codex/hooks/guard.sh", "timeout": 30 } ] } ] } }"#,
    );
    let found = findings(&p);
    assert!(
        hygiene(&found, "git rev-parse --show-toplevel"),
        "{found:#?}"
    );
    std::fs::remove_file(p.path(".codex/hooks.json")).unwrap();
    // Copilot CLI sets no `CLAUDE_PROJECT_DIR` for a repository's hooks.
    p.write(
        ".github/hooks/guard.json",
        r#"{ "version": 1, "hooks": { "preToolUse": [ { "type": "command", "bash": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh", "timeoutSec": 30 } ] } }"#,
    );
    let found = findings(&p);
    assert!(hygiene(&found, "`CLAUDE_PROJECT_DIR`"), "{found:#?}");
}

/// The portable forms get no path finding: the project variable in Claude
/// Code, a relative path where the harness runs hooks at the project root
/// (Cursor, Copilot CLI), `$HOME` for a user's own tools, Cursor's alias
/// `CLAUDE_PROJECT_DIR` (shared/harnesses/cursor.md §4).
#[test]
fn portable_hook_paths_get_no_path_finding() {
    let p = Project::new();
    p.write(
        ".claude/hooks/guard.sh",
        "#!/bin/sh\ncase \"$(cat)\" in *'rm -rf'*) echo 'no rm -rf' >&2; exit 2;; esac\nexit 0\n",
    );
    crate::support::make_executable(&p.path(".claude/hooks/guard.sh"));
    for command in [
        "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh",
        "bash \"${CLAUDE_PROJECT_DIR}/.claude/hooks/guard.sh\"",
        "\"$(git rev-parse --show-toplevel)\"/.claude/hooks/guard.sh",
        "\"$HOME\"/.local/bin/guard || exit 2",
        "echo no >&2; exit 2",
    ] {
        p.write(".claude/settings.json", &claude_pre_tool(command));
        let found = findings(&p);
        assert!(!has_code(&found, "lint-hook-path"), "{command}: {found:#?}");
    }
    std::fs::remove_file(p.path(".claude/settings.json")).unwrap();
    for (file, text) in [
        (
            ".cursor/hooks.json",
            r#"{ "version": 1, "hooks": { "beforeShellExecution": [ { "command": ".claude/hooks/guard.sh", "timeout": 10, "failClosed": true } ] } }"#,
        ),
        (
            ".cursor/hooks.json",
            r#"{ "version": 1, "hooks": { "beforeShellExecution": [ { "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh", "timeout": 10, "failClosed": true } ] } }"#,
        ),
        (
            ".github/hooks/guard.json",
            r#"{ "version": 1, "hooks": { "preToolUse": [ { "type": "command", "bash": ".claude/hooks/guard.sh", "timeoutSec": 30 } ] } }"#,
        ),
    ] {
        let found = findings_with(&p, file, text);
        assert!(
            !has_code(&found, "lint-hook-path"),
            "{file} {text}: {found:#?}"
        );
    }
}

/// What each harness does with plain text on a hook's stdout
/// (shared/harnesses/*.md): Codex wants JSON from a `Stop` hook; Claude
/// Code and Codex ignore plain text on `PreToolUse` and Gemini CLI turns it
/// into an allow, so a bare `deny` printed as the decision refuses
/// nothing; Cursor blocks a permission event whose stdout is not JSON, so
/// a bare `allow` refuses every call.
#[test]
fn plain_text_answers_the_harness_rejects_are_reported() {
    let p = Project::new();
    let noise = |found: &[(String, String, String, String)]| {
        found
            .iter()
            .any(|(code, severity, ..)| code == "lint-stdout-noise" && severity == "warning")
    };
    let grouped = |event: &str, command: &str, timeout: u32| {
        serde_json::json!({ "hooks": { event: [ { "matcher": "", "hooks": [
            { "type": "command", "command": command, "timeout": timeout } ] } ] } })
        .to_string()
    };
    let bad = [
        (".codex/hooks.json", grouped("Stop", "echo 'run the tests first'", 30)),
        (".claude/settings.json", grouped("PreToolUse", "grep -q 'rm -rf' && echo deny", 30)),
        (".codex/hooks.json", grouped("PreToolUse", "grep -q 'rm -rf' && echo block", 30)),
        (".gemini/settings.json", grouped("BeforeTool", "grep -q 'rm -rf' && echo 'deny'", 5000)),
        (
            ".cursor/hooks.json",
            r#"{ "version": 1, "hooks": { "beforeShellExecution": [ { "command": "echo allow", "timeout": 10 } ] } }"#.to_owned(),
        ),
    ];
    for (file, text) in bad {
        let found = findings_with(&p, file, &text);
        assert!(noise(&found), "{file} {text}: {found:#?}");
    }
    // The forms each harness reads.
    let good = [
        (
            ".codex/hooks.json",
            grouped("Stop", "echo '{\"decision\":\"block\",\"reason\":\"run the tests first\"}'", 30),
        ),
        (".codex/hooks.json", grouped("SessionStart", "echo 'this repo uses pnpm'", 30)),
        (".claude/settings.json", grouped("UserPromptSubmit", "echo 'this repo uses pnpm'", 30)),
        (
            ".claude/settings.json",
            grouped("PreToolUse", "grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; }; exit 0", 30),
        ),
        (
            ".cursor/hooks.json",
            r#"{ "version": 1, "hooks": { "beforeShellExecution": [ { "command": "echo '{\"permission\":\"allow\"}'", "timeout": 10 } ] } }"#.to_owned(),
        ),
    ];
    for (file, text) in good {
        let found = findings_with(&p, file, &text);
        assert!(
            !has_code(&found, "lint-stdout-noise"),
            "{file} {text}: {found:#?}"
        );
    }
}

/// VS Code runs the hooks in `.github/hooks/*.json` too
/// (shared/harnesses/more-harnesses.md; the vscode profile's `hooks_from`),
/// and there an `exit 1` lets the call through where Copilot CLI refuses
/// it; and on its camelCase events Copilot CLI sends `toolArgs`, not
/// Claude's `tool_input` (shared/harnesses/copilot.md §7), so a guard that
/// reads only `tool_input` never sees the command.
#[test]
fn copilot_hooks_that_fail_open_in_vs_code_or_read_claudes_payload_are_reported() {
    let p = Project::new();
    let hook = |event: &str, command: &str| {
        serde_json::json!({ "version": 1, "hooks": { event: [
            { "type": "command", "bash": command, "timeoutSec": 30 } ] } })
        .to_string()
    };
    p.write(
        ".github/hooks/guard.json",
        &hook("preToolUse", "grep -q 'rm -rf' && exit 1; exit 0"),
    );
    let found = findings(&p);
    assert!(
        found
            .iter()
            .any(|(code, severity, message, _)| code == "lint-fail-open"
                && severity == "warning"
                && message.contains("VS Code")),
        "{found:#?}"
    );
    p.write(
        ".github/hooks/guard.sh",
        "#!/bin/sh\ncmd=$(jq -r '.tool_input.command')\ncase \"$cmd\" in *'rm -rf'*) echo '{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no rm -rf\"}';; esac\n",
    );
    crate::support::make_executable(&p.path(".github/hooks/guard.sh"));
    p.write(
        ".github/hooks/guard.json",
        &hook("preToolUse", ".github/hooks/guard.sh"),
    );
    let found = findings(&p);
    assert!(
        found
            .iter()
            .any(|(code, severity, message, _)| code == "lint-payload-field"
                && severity == "warning"
                && message.contains("toolArgs")),
        "{found:#?}"
    );
}

/// The forms that hold in both: exit 2 (or a JSON deny), and a guard that
/// reads `toolArgs`, or `tool_input` under the PascalCase event that sends it.
#[test]
fn copilot_hooks_that_refuse_in_both_and_read_their_payload_get_no_finding() {
    let p = Project::new();
    let hook = |event: &str, command: &str| {
        serde_json::json!({ "version": 1, "hooks": { event: [
            { "type": "command", "bash": command, "timeoutSec": 30 } ] } })
        .to_string()
    };
    p.write(
        ".github/hooks/native.sh",
        "#!/bin/sh\ncommand -v jq >/dev/null || { echo '{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"jq missing\"}'; exit 0; }\ncmd=$(jq -r '.toolArgs | if type == \"string\" then fromjson else . end | .command')\ncase \"$cmd\" in *'rm -rf'*) echo '{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no rm -rf\"}';; esac\n",
    );
    p.write(
        ".github/hooks/claude.sh",
        "#!/bin/sh\ncommand -v jq >/dev/null || { echo '{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"jq missing\"}'; exit 0; }\ncmd=$(jq -r '.tool_input.command')\ncase \"$cmd\" in *'rm -rf'*) echo '{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no rm -rf\"}';; esac\n",
    );
    for s in [".github/hooks/native.sh", ".github/hooks/claude.sh"] {
        crate::support::make_executable(&p.path(s));
    }
    for (event, command) in [
        ("preToolUse", ".github/hooks/native.sh"),
        ("PreToolUse", ".github/hooks/claude.sh"),
        (
            "preToolUse",
            "echo '{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no\"}'",
        ),
    ] {
        p.write(".github/hooks/guard.json", &hook(event, command));
        let found = findings(&p);
        assert!(
            !has_code(&found, "lint-payload-field") && !has_code(&found, "lint-fail-open"),
            "{event} {command}: {found:#?}"
        );
    }
}
