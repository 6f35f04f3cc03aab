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
