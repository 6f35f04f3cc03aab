//! `hookc explain`.

use crate::support::Project;

#[test]
fn explains_a_code_with_or_without_prefix() {
    let p = Project::new();
    for name in ["unknown-tool", "hookc::unknown-tool"] {
        let run = p.hookc(&["explain", name]);
        assert_eq!(run.status, 0);
        assert!(
            run.stdout
                .starts_with("hookc::unknown-tool: a tool name hookc does not know")
        );
        assert!(run.stdout.contains("case-sensitive"), "{}", run.stdout);
    }
}

#[test]
fn lists_every_code_and_suggests_on_typos() {
    let p = Project::new();
    let list = p.hookc(&["explain"]);
    assert!(list.stdout.contains("hookc::invalid-regex"));
    let run = p.hookc(&["explain", "unknown-tol"]);
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("did you mean `unknown-tool`?"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_list_of_codes_is_two_aligned_columns() {
    let p = Project::new();
    let list = p.hookc(&["explain"]);
    assert_eq!(list.status, 0);
    let lines: Vec<&str> = list.stdout.lines().collect();
    assert!(lines.len() > 30, "{}", list.stdout);
    // Every summary starts in the same column, two spaces after the longest code.
    let longest = lines
        .iter()
        .map(|l| l.split_whitespace().next().unwrap().len())
        .max()
        .unwrap();
    for line in &lines {
        let code = line.split_whitespace().next().unwrap();
        assert!(code.starts_with("hookc::"), "{line}");
        let (left, summary) = line.split_at(longest + 2);
        assert_eq!(left.trim_end(), code, "{line}");
        assert!(
            summary.starts_with(|c: char| !c.is_whitespace()),
            "summary not aligned: {line:?}"
        );
    }
    assert!(
        lines
            .iter()
            .any(|l| l.split_whitespace().next().unwrap().len() > 26),
        "no code long enough to have broken the old layout"
    );
}
