//! Hostile input: policy text that tries to break out of the files hookc
//! generates, and hook payloads that try to crash or slip past `hookc guard`.

use std::path::Path;

use proptest::prelude::*;

use crate::support::{Project, claude_bash, run};

/// Text that breaks shell, JSON, TOML, JS, handlebars and terminals when pasted unescaped.
const NASTY: &str = "Don't \"push\" $(touch PWNED) `touch PWNED2` ${HOME} \\n \\\" */ {{x}} {{{y}}} </script> \u{202e}evil\u{202c} ' ; exit 0 # \u{0007} and\nsecond line. Use a branch instead.";

fn nasty_policy() -> String {
    let quoted = kdl_quote(NASTY);
    format!(
        r##"
guard "nasty-reason" {{
    command "git" "push" {{ flag "--force"; }}
    deny {quoted}
    message {quoted}
}}
guard "nasty-path" {{
    tool "read"
    path "we'ird/$(touch PWNED3)/*.env" "{{a,b}}/`x`"
    deny "Ask the user for the file instead."
}}
guard "nasty-regex" {{
    tool "shell"
    regex #"['\"$`\\]{{2}}\s*(?:x|y)"#
    context {quoted}
}}
guard "nasty-mcp" {{
    mcp "srv\"'$(x)" "tool*`y`"
    ask "Confirm with the user first."
}}
"##
    )
}

/// A KDL 2.0 quoted string.
fn kdl_quote(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            // KDL forbids control and direction-changing characters as literals.
            c if c.is_control()
                || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}') =>
            {
                out.push_str(&format!("\\u{{{:x}}}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn files(root: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Every generated file parses in its own format, for every harness hookc emits.
#[test]
fn policy_text_never_breaks_the_generated_files() {
    let p = Project::new();
    p.write("policy.kdl", &nasty_policy());
    p.build();
    let mut checked = 0;
    for file in files(p.dir.path()) {
        let name = file.display().to_string();
        let text = std::fs::read_to_string(&file).unwrap();
        match file.extension().and_then(|e| e.to_str()) {
            Some("json") => {
                serde_json::from_str::<serde_json::Value>(&text)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
            }
            Some("toml") => {
                text.parse::<toml_edit::DocumentMut>()
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
            }
            Some("sh") => {
                let check = run(std::process::Command::new("sh").arg("-n").arg(&file), None);
                assert_eq!(check.status, 0, "{name}: {}", check.stderr);
                assert!(!text.contains("PWNED"), "{name} contains policy text");
            }
            Some("js" | "mjs") => {
                // `node --check FILE.js` does not parse it as a module (Node 20
                // lets module syntax errors pass); feed the text as one.
                let check = run(
                    std::process::Command::new("node").args(["--input-type=module", "--check"]),
                    Some(text.as_bytes()),
                );
                assert_eq!(check.status, 0, "{name}: {}", check.stderr);
                assert!(
                    !text.contains("PWNED"),
                    "{name} contains policy text as code"
                );
            }
            _ => continue,
        }
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} files checked");
}

/// Running the generated hook with a call the nasty guard denies executes
/// nothing from the policy, and the model gets the reason byte for byte.
#[test]
fn policy_text_is_data_when_the_hook_runs() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        &format!("targets \"claude\"\n{}", nasty_policy()),
    );
    p.build();
    let settings: serde_json::Value =
        serde_json::from_str(&p.read(".claude/settings.json")).unwrap();
    let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    let out = run(
        std::process::Command::new("sh")
            .arg("-c")
            .arg(&command)
            .current_dir(p.dir.path())
            .env("CLAUDE_PROJECT_DIR", p.dir.path())
            .env("HOOKC_BIN", crate::support::HOOKC),
        Some(claude_bash("git push --force").as_bytes()),
    );
    assert_eq!(out.status, 2, "{}", out.stderr);
    let answer: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecisionReason"],
        NASTY
    );
    for marker in ["PWNED", "PWNED2", "PWNED3"] {
        assert!(
            !p.exists(marker),
            "{marker} was created: policy text ran as code"
        );
    }
}

fn guard_with(p: &Project, stdin: &[u8]) -> crate::support::Run {
    run(
        std::process::Command::new(crate::support::HOOKC)
            .args([
                "guard",
                "--harness",
                "claude",
                "--event",
                "pre-tool",
                "--policy",
            ])
            .arg(p.path(".hookc/policy.json")),
        Some(stdin),
    )
}

/// What `hookc guard` may do with any input: answer (0) with no objection or
/// a decision of the policy, refuse (2), or fail (1) with a reason and no
/// stdout, which the shim turns into a refusal. Never crash, never hang.
fn assert_contract(run: &crate::support::Run, input: &str) {
    match run.status {
        0 => assert!(
            run.stdout.is_empty() || serde_json::from_str::<serde_json::Value>(&run.stdout).is_ok(),
            "{input}: {}",
            run.stdout
        ),
        2 => assert!(
            run.stdout.contains("\"deny\"") && !run.stderr.is_empty(),
            "{input}: {}",
            run.stdout
        ),
        1 => {
            assert!(
                run.stdout.is_empty(),
                "{input}: stdout on failure: {}",
                run.stdout
            );
            assert!(
                run.stderr.starts_with("hookc guard: "),
                "{input}: {}",
                run.stderr
            );
        }
        other => panic!("{input}: exit {other}: {}", run.stderr),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_bytes_on_stdin_keep_the_contract(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        static P: std::sync::LazyLock<Project> = std::sync::LazyLock::new(|| {
            let p = Project::bundled();
            p.build();
            p
        });
        let out = guard_with(&P, &bytes);
        assert_contract(&out, &String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn mangled_payloads_keep_the_contract(
        cut in 0usize..200,
        command in ".{0,80}",
        field in prop::sample::select(vec!["tool_name", "tool_input", "command"]),
        value in prop::sample::select(vec!["null", "42", "[]", "{}", "\"\"", "true", "[[[[[[1]]]]]]"]),
    ) {
        static P: std::sync::LazyLock<Project> = std::sync::LazyLock::new(|| {
            let p = Project::bundled();
            p.build();
            p
        });
        let payload = claude_bash(&command);
        let truncated = &payload.as_bytes()[..cut.min(payload.len())];
        assert_contract(&guard_with(&P, truncated), "truncated");
        let mut value_json: serde_json::Value = serde_json::from_str(&payload).unwrap();
        let replacement: serde_json::Value = serde_json::from_str(value).unwrap();
        if field == "command" {
            value_json["tool_input"]["command"] = replacement;
        } else {
            value_json[field] = replacement;
        }
        let text = value_json.to_string();
        assert_contract(&guard_with(&P, text.as_bytes()), &text);
    }
}

#[test]
fn deeply_nested_and_huge_payloads_are_refused_quickly() {
    let p = Project::bundled();
    p.build();
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let huge = claude_bash(&"x".repeat(10 << 20));
    for (name, input) in [("deep", deep.as_bytes()), ("huge", huge.as_bytes())] {
        let started = std::time::Instant::now();
        let out = guard_with(&p, input);
        assert_eq!(out.status, 1, "{name}: {}", out.stderr);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "{name} took {:?}",
            started.elapsed()
        );
    }
    let out = guard_with(&p, huge.as_bytes());
    assert!(out.stderr.contains("too large to check"), "{}", out.stderr);
}
