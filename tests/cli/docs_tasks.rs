//! The task-oriented documentation: the README names every command, and the
//! book has a cookbook with a whole policy for each kind of guard people ask
//! about, a page for `run`, for migrating hand-written hooks (`hookc
//! import`) and for troubleshooting. (tests/cli/lint_all.rs builds and lints
//! every whole policy of the book, the cookbook's included.)

use clap::CommandFactory;

use crate::console;
use crate::support::repo;

#[test]
fn the_readme_lists_every_command() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let table: Vec<&str> = readme
        .lines()
        .skip_while(|l| *l != "## Commands")
        .take_while(|l| !l.starts_with("## The book"))
        .filter(|l| l.starts_with("| `hookc "))
        .collect();
    for command in hookc::cli::Cli::command().get_subcommands() {
        let name = command.get_name();
        assert!(
            table
                .iter()
                .any(|row| row.contains(&format!("`hookc {name}"))),
            "the README's command table has no row for `hookc {name}`"
        );
    }
}

fn page(rel: &str) -> String {
    std::fs::read_to_string(repo().join("book/src").join(rel))
        .unwrap_or_else(|e| panic!("book/src/{rel}: {e}"))
}

#[test]
fn the_cookbook_has_a_whole_policy_for_each_kind_of_guard() {
    let text = page("recipes/cookbook.md");
    let policies: Vec<String> = console::blocks(&text)
        .into_iter()
        .filter(|b| b.info == "kdl" && b.lines.iter().any(|l| l.starts_with("guard ")))
        .map(|b| b.lines.join("\n"))
        .collect();
    for (what, needle) in [
        ("MCP", "    mcp \""),
        ("prompt", "event \"prompt\""),
        ("path", "    path \""),
        ("session-start", "event \"session-start\""),
        ("stop", "event \"stop\""),
        ("run", "    run \""),
    ] {
        assert!(
            policies.iter().any(|p| p.contains(needle)),
            "the cookbook has no {what} guard"
        );
    }
    let summary = page("SUMMARY.md");
    for rel in [
        "recipes/cookbook.md",
        "troubleshooting.md",
        "migrating.md",
        "policy/run.md",
        "policy/lint.md",
    ] {
        assert!(
            summary.contains(&format!("]({rel})")),
            "SUMMARY.md lacks {rel}"
        );
    }
    assert!(page("migrating.md").contains("hookc import"));
    assert!(page("policy/run.md").contains("exits 2"));
}
