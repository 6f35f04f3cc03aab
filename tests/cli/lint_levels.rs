//! `hookc lint`'s rule levels (the policy's `lint { … }` block) and ignore
//! comments (`hookc-lint: ignore CODE` on the line above a finding).

use crate::support::Project;

const KIMI: &str = "[[hooks]]\nevent = \"Stop\"\nmatcher = \"Bash\"\ncommand = \"exit 0\"\n";
const GEMINI: &str = r#"{
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "run_shell_command",
        "hooks": [
          { "type": "command", "command": "echo no >&2; exit 2", "timeout": 30 }
        ]
      }
    ]
  }
}
"#;
const GUARD: &str = "guard \"g\" {\n    command \"git\" \"push\"\n    deny \"Push to a branch instead.\"\n    example \"git push\" expect=\"deny\"\n}\n";

/// (code, severity, line) of each finding, and the exit status.
fn findings(p: &Project) -> (i32, Vec<(String, String, u64)>) {
    let out = p.hookc(&["lint", "--format", "json", "."]);
    let report: serde_json::Value = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", out.stdout, out.stderr));
    let found = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"]
                    .as_str()
                    .unwrap()
                    .trim_start_matches("hookc::")
                    .to_owned(),
                d["severity"].as_str().unwrap().to_owned(),
                d["labels"][0]["line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    (out.status, found)
}

fn has(found: &[(String, String, u64)], code: &str, severity: &str) -> bool {
    found.iter().any(|(c, s, _)| c == code && s == severity)
}

#[test]
fn the_policys_lint_block_sets_rule_levels() {
    let p = Project::new();
    p.write(".kimi-code/config.toml", KIMI);
    p.write(".gemini/settings.json", GEMINI);
    p.write("policy.kdl", GUARD);
    let (status, found) = findings(&p);
    assert_eq!(status, 1, "{found:?}");
    assert!(
        has(&found, "lint-matcher-never-fires", "error"),
        "{found:?}"
    );
    assert!(
        has(&found, "lint-matcher-unanchored", "warning"),
        "{found:?}"
    );
    assert!(has(&found, "lint-timeout", "warning"), "{found:?}");

    p.write(
        "policy.kdl",
        &format!(
            "lint {{\n    allow \"lint-matcher-unanchored\"\n    warn \"hookc::lint-matcher-never-fires\"\n    deny \"lint-timeout\"\n}}\n{GUARD}"
        ),
    );
    let (status, found) = findings(&p);
    assert_eq!(status, 1, "{found:?}");
    assert!(
        !found.iter().any(|(c, _, _)| c == "lint-matcher-unanchored"),
        "{found:?}"
    );
    assert!(
        has(&found, "lint-matcher-never-fires", "warning"),
        "{found:?}"
    );
    assert!(has(&found, "lint-timeout", "error"), "{found:?}");

    p.write(
        "policy.kdl",
        &format!("lint {{\n    allow \"lint-timeout\" \"lint-matcher-unanchored\"\n    warn \"lint-matcher-never-fires\"\n}}\n{GUARD}"),
    );
    let (status, found) = findings(&p);
    assert_eq!(status, 0, "{found:?}");
    assert_eq!(found.len(), 1, "{found:?}");
}

#[test]
fn a_lint_level_for_a_code_that_is_no_lint_rule_is_an_error_with_the_closest_rule() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        &format!("lint {{\n    allow \"lint-matcher-unanchord\" \"invalid-regex\"\n}}\n{GUARD}"),
    );
    let check = p.hookc(&["check"]);
    assert_eq!(check.status, 1, "{}", check.stderr);
    assert!(
        check.stderr.contains("hookc::unknown-lint-rule"),
        "{}",
        check.stderr
    );
    assert!(
        check
            .stderr
            .contains("did you mean `lint-matcher-unanchored`?"),
        "{}",
        check.stderr
    );
    assert!(
        check.stderr.contains("`invalid-regex` is not a rule"),
        "{}",
        check.stderr
    );
    let (status, found) = findings(&p);
    assert_eq!(status, 1, "{found:?}");
    assert!(has(&found, "unknown-lint-rule", "error"), "{found:?}");

    p.write(
        "policy.kdl",
        &format!("lint {{\n    allw \"lint-timeout\"\n}}\n{GUARD}"),
    );
    let check = p.hookc(&["check"]);
    assert_eq!(check.status, 1, "{}", check.stderr);
    assert!(
        check.stderr.contains("did you mean `allow`?"),
        "{}",
        check.stderr
    );
}

#[test]
fn an_ignore_comment_above_a_line_silences_the_codes_it_names_there() {
    let p = Project::new();
    p.write(
        ".kimi-code/config.toml",
        "[[hooks]]\nevent = \"Stop\"\n# hookc-lint: ignore lint-matcher-never-fires, lint-bogus\nmatcher = \"Bash\"\ncommand = \"exit 0\"\n",
    );
    p.write(
        ".gemini/settings.json",
        &GEMINI.replace(
            "          { \"type\"",
            "          // hookc-lint: ignore lint-timeout\n          { \"type\"",
        ),
    );
    let (status, found) = findings(&p);
    assert_eq!(status, 0, "{found:?}");
    let codes: Vec<&str> = found.iter().map(|(c, _, _)| c.as_str()).collect();
    // The misspelt code is a warning at the comment; the unanchored
    // matcher, which no comment names, is still found.
    assert_eq!(
        codes,
        ["lint-matcher-unanchored", "unknown-lint-rule"],
        "{found:?}"
    );
    assert!(found.contains(&("unknown-lint-rule".into(), "warning".into(), 3)));
}

#[test]
fn policy_names_the_policy_whose_levels_apply() {
    let p = Project::new();
    p.write(".kimi-code/config.toml", KIMI);
    p.write(
        "conf/lint.kdl",
        &format!("lint {{\n    warn \"lint-matcher-never-fires\"\n}}\n{GUARD}"),
    );
    let out = p.hookc(&["lint", "--policy", "conf/lint.kdl", "."]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    // A file with the block alone is enough.
    p.write(
        "lint.kdl",
        "lint {\n    allow \"lint-matcher-never-fires\"\n}\n",
    );
    let out = p.hookc(&["lint", "--policy", "lint.kdl", "."]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(
        out.stderr.is_empty() && out.stdout.contains("no findings"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    let out = p.hookc(&["lint", "."]);
    assert_eq!(out.status, 1, "{}", out.stderr);
    let out = p.hookc(&["lint", "--policy", "conf/nope.kdl", "."]);
    assert_eq!(out.status, 2, "{}", out.stderr);
    assert!(out.stderr.contains("conf/nope.kdl"), "{}", out.stderr);
}
