//! Runs the ```console examples of a Markdown page, in order, in a fresh
//! temporary project, and compares what they print.
//!
//! Conventions a page follows:
//! - A ```kdl block whose first line is `// NAME.kdl` is that file of the
//!   project: it is written before the examples after it run.
//! - In a ```console block, `$ COMMAND` is run with `sh` (stderr merged into
//!   stdout, `hookc` on PATH, `NO_COLOR` set); the lines up to the next `$ `
//!   are its expected output. A line `...` stands for any number of lines.
//! - Every command must exit 0: show a failure as `$ hookc check || echo "exit status $?"`.
//! - A console block none of whose commands mentions `hookc` is left alone.

use std::path::Path;
use std::process::Command;

use crate::support::{HOOKC, Project, run};

pub struct Block {
    pub info: String,
    /// 1-based line of the opening fence.
    pub line: usize,
    pub lines: Vec<String>,
}

/// The fenced code blocks of a Markdown text.
pub fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut current: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        match current.as_mut() {
            None => {
                if let Some(info) = line.strip_prefix("```") {
                    current = Some(Block {
                        info: info.trim().to_owned(),
                        line: i + 1,
                        lines: Vec::new(),
                    });
                }
            }
            Some(block) => {
                if line.trim_end() == "```" {
                    out.extend(current.take());
                } else {
                    block.lines.push(line.to_owned());
                }
            }
        }
    }
    out
}

/// The file a ```kdl block stands for, if it names one on its first line.
pub fn file_name(block: &Block) -> Option<&str> {
    if !block.info.starts_with("kdl") {
        return None;
    }
    let name = block.lines.first()?.strip_prefix("// ")?.trim();
    (name.ends_with(".kdl") && !name.contains(' ')).then_some(name)
}

/// Run every console example of `page`; returns one message per failure.
pub fn check_page(page: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(page).unwrap();
    let blocks = blocks(&text);
    if !blocks.iter().any(|b| b.info == "console") {
        return Vec::new();
    }
    let project = Project::new();
    let home = tempfile::tempdir().unwrap();
    let bin = Path::new(HOOKC).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Vec::new();
    for block in &blocks {
        if let Some(name) = file_name(block) {
            project.write(name, &(block.lines.join("\n") + "\n"));
            continue;
        }
        if block.info != "console" {
            continue;
        }
        let commands = commands(&block.lines);
        // Blocks about other tools (`$ claude --version`) are not ours to run.
        if !commands.iter().any(|(_, c, _)| c.contains("hookc")) {
            continue;
        }
        for (offset, command, expected) in commands {
            let out = run(
                Command::new("sh")
                    .arg("-c")
                    .arg(format!("exec 2>&1\n{command}"))
                    .current_dir(project.dir.path())
                    .env("PATH", &path)
                    .env("HOME", home.path())
                    // The machine's git settings (a credential helper) would
                    // show among what a git command runs.
                    .env("GIT_CONFIG_NOSYSTEM", "1")
                    .env("NO_COLOR", "1")
                    .env_remove("CLICOLOR_FORCE")
                    .env_remove("HOOKC_POLICY")
                    .env_remove("HOOKC_DEBUG")
                    .env_remove("HOOKC_BIN")
                    .env_remove("CLAUDE_PROJECT_DIR"),
                None,
            );
            let actual: Vec<String> = out
                .stdout
                .lines()
                .map(|l| l.trim_end().to_owned())
                .collect();
            if out.status != 0 || !matches(&expected, &actual) {
                failures.push(format!(
                    "{}:{}: `$ {command}` (exit status {})\n--- expected\n{}\n--- actual\n{}",
                    page.display(),
                    block.line + 1 + offset,
                    out.status,
                    expected.join("\n"),
                    actual.join("\n")
                ));
            }
        }
    }
    failures
}

/// `(line offset in the block, command, expected output lines)`.
fn commands(lines: &[String]) -> Vec<(usize, String, Vec<String>)> {
    let mut out: Vec<(usize, String, Vec<String>)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(command) = line.strip_prefix("$ ") {
            out.push((i, command.to_owned(), Vec::new()));
        } else if let Some(last) = out.last_mut() {
            last.2.push(line.trim_end().to_owned());
        }
    }
    out
}

/// Line-by-line equality, where an expected `...` matches any run of lines.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual.first() == Some(first) && matches(rest, &actual[1..]),
    }
}

#[test]
fn the_wildcard_line_matches_any_run_of_lines() {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert!(matches(&s(&["a", "...", "d"]), &s(&["a", "b", "c", "d"])));
    assert!(matches(&s(&["a", "...", "d"]), &s(&["a", "d"])));
    assert!(!matches(&s(&["a", "...", "d"]), &s(&["a", "b"])));
    assert!(!matches(&s(&["a"]), &s(&["a", "b"])));
}
