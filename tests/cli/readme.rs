//! The README's promises: one sentence on what hookc is, the two commands of
//! a fresh machine, and a thirty-second example that prints what it shows.

use crate::console;
use crate::support::{Project, repo};

fn readme() -> String {
    std::fs::read_to_string(repo().join("README.md")).unwrap()
}

#[test]
fn it_opens_with_one_sentence_then_the_two_commands() {
    let text = readme();
    let mut paragraphs = text.split("\n\n");
    assert_eq!(paragraphs.next(), Some("# hookc"));
    let sentence = paragraphs.next().unwrap();
    assert!(sentence.starts_with("hookc "), "{sentence}");
    assert_eq!(sentence.trim_end().matches(". ").count(), 0, "one sentence");
    let commands = &console::blocks(&text)[0];
    assert_eq!(commands.info, "sh");
    assert!(commands.lines[0].starts_with("cargo run --release -- build --out out "));
    assert!(commands.lines[1].starts_with("cargo test "));
}

#[test]
fn the_build_command_builds_the_bundled_policy() {
    let text = readme();
    let line = &console::blocks(&text)[0].lines[0];
    let args: Vec<&str> = line
        .split('#')
        .next()
        .unwrap()
        .strip_prefix("cargo run --release -- ")
        .unwrap()
        .split_whitespace()
        .collect();
    let p = Project::bundled();
    let run = p.hookc(&args);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(p.exists("out/.claude/settings.json"));
    assert!(p.exists("out/.hookc/policy.json"));
    // The example policy shows how a policy should read: no warning (a
    // guard one target cannot enforce, a guard without examples) either.
    let json = p.hookc(&[&args[..], &["--format", "json"]].concat());
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(doc["diagnostics"], serde_json::json!([]), "{}", json.stdout);
}

#[test]
fn the_example_prints_what_it_shows() {
    let failures = console::check_page(&repo().join("README.md"));
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
