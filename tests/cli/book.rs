//! The book stays true: generated pages are fresh, every link in the
//! summary leads somewhere, the examples run, and the KDL parses.

use std::path::{Path, PathBuf};

use hookc::harness;
use hookc::ir::HarnessId;

use crate::console;
use crate::support::{golden, overwrite, repo};

fn src() -> PathBuf {
    repo().join("book/src")
}

fn pages() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![src()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn rel(path: &Path) -> String {
    path.strip_prefix(src())
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

#[test]
fn generated_pages_match_the_program() {
    let generated = hookc::book::generate();
    for (path, text) in &generated {
        golden(&src().join(path), text);
    }
    // A page whose code or subcommand is gone must go too.
    for dir in ["diagnostics/", "cli/"] {
        for page in pages() {
            let rel = rel(&page);
            if rel.starts_with(dir) && !generated.iter().any(|(p, _)| *p == rel) {
                if overwrite() {
                    std::fs::remove_file(&page).unwrap();
                } else {
                    panic!("book/src/{rel} is not generated any more; delete it");
                }
            }
        }
    }
}

#[test]
fn the_summary_lists_every_generated_page() {
    let path = src().join("SUMMARY.md");
    let existing = std::fs::read_to_string(&path).unwrap();
    golden(&path, &hookc::book::summary(&existing));
    let existing = std::fs::read_to_string(&path).unwrap();
    for (page, _) in hookc::book::generate() {
        assert!(
            existing.contains(&format!("]({page})")),
            "SUMMARY.md does not link {page}"
        );
    }
}

/// Pages of harnesses this hookc cannot emit for yet are written with them.
fn page_may_be_missing(link: &str) -> bool {
    HarnessId::ALL
        .iter()
        .any(|id| harness::get(*id).is_none() && link == format!("harnesses/{}.md", id.word()))
}

#[test]
fn every_summary_link_leads_to_a_page() {
    let summary = std::fs::read_to_string(src().join("SUMMARY.md")).unwrap();
    for link in summary
        .split("](")
        .skip(1)
        .filter_map(|s| s.split(')').next())
    {
        assert!(
            src().join(link).is_file() || page_may_be_missing(link),
            "SUMMARY.md links {link}, which does not exist"
        );
    }
    for h in harness::all() {
        let page = format!("harnesses/{}.md", h.id().word());
        assert!(
            src().join(&page).is_file(),
            "{} has no page",
            h.profile().name
        );
        assert!(
            summary.contains(&format!("]({page})")),
            "{page} not in SUMMARY.md"
        );
    }
}

/// Nothing of hookc has run on Windows, and each harness page says so in
/// the same words, in its list of what is not verified or known gaps,
/// until it has.
#[test]
fn every_harness_page_says_windows_has_not_run() {
    for h in harness::all() {
        let page = format!("harnesses/{}.md", h.id().word());
        let text = std::fs::read_to_string(src().join(&page)).unwrap();
        assert!(
            text.contains("\n- Windows: from documentation, not run."),
            "{page} has no item \"- Windows: from documentation, not run.\""
        );
    }
}

#[test]
fn every_page_is_in_the_summary() {
    let summary = std::fs::read_to_string(src().join("SUMMARY.md")).unwrap();
    for page in pages() {
        let rel = rel(&page);
        if rel == "SUMMARY.md" {
            continue;
        }
        assert!(
            summary.contains(&format!("]({rel})")),
            "book/src/{rel} is not in SUMMARY.md, so mdBook would not show it"
        );
    }
}

#[test]
fn console_examples_in_the_book_print_what_they_show() {
    let failures: Vec<String> = pages()
        .iter()
        .flat_map(|page| console::check_page(page))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn kdl_in_the_book_is_kdl_2() {
    let generated: Vec<String> = hookc::book::generate()
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    for page in pages() {
        let rel = rel(&page);
        // Diagnostics pages show mistakes on purpose.
        if rel.starts_with("diagnostics/") {
            continue;
        }
        let text = std::fs::read_to_string(&page).unwrap();
        for block in console::blocks(&text) {
            if block.info != "kdl" && !block.info.starts_with("kdl ") {
                continue;
            }
            let kdl = block.lines.join("\n");
            // Blocks that show a mistake say so.
            if kdl.contains("// wrong") {
                continue;
            }
            if let Err(e) = kdl.parse::<kdl::KdlDocument>() {
                panic!(
                    "book/src/{rel}:{}: not KDL 2.0 ({e}){}",
                    block.line,
                    if generated.contains(&rel) {
                        " (generated)"
                    } else {
                        ""
                    }
                );
            }
        }
    }
}

#[test]
fn the_grammar_lives_in_the_book() {
    let pointer = std::fs::read_to_string(repo().join("GRAMMAR.md")).unwrap();
    assert!(pointer.contains("book/src/policy/grammar.md"), "{pointer}");
    assert!(src().join("policy/grammar.md").is_file());
}

/// The pre-commit hooks run on the folders of every harness: their `files`
/// patterns, and the book's copy of one, are made from the profiles.
#[test]
fn pre_commit_patterns_match_the_profiles() {
    for path in [".pre-commit-hooks.yaml", "book/src/recipes/pre-commit.md"] {
        let path = repo().join(path);
        let text = std::fs::read_to_string(&path).unwrap();
        golden(&path, &hookc::book::pre_commit_files(&text));
    }
}
