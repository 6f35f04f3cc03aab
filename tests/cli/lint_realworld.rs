//! `hookc lint` on the real-world corpus (`tests/fixtures/realworld/`):
//! every finding is judged by hand in `lint-expected.txt`, and precision and
//! recall are measured against those verdicts, as the book reports them.

use serde_json::Value;

use crate::support::{realworld, realworld_project, realworld_projects, repo};

/// One judged line of `lint-expected.txt`.
#[derive(Debug)]
struct Verdict {
    project: String,
    code: String,
    file: String,
    text: String,
    verdict: String,
}

fn verdicts() -> Vec<Verdict> {
    let text = std::fs::read_to_string(realworld().join("lint-expected.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.splitn(5, " | ").map(str::trim).collect();
            assert_eq!(f.len(), 5, "a line of lint-expected.txt: {l:?}");
            assert!(
                matches!(f[4], "right" | "wrong" | "missed"),
                "verdict {:?} in {l:?}",
                f[4]
            );
            Verdict {
                project: f[0].into(),
                code: f[1].into(),
                file: f[2].into(),
                text: f[3].into(),
                verdict: f[4].into(),
            }
        })
        .collect()
}

/// What `hookc lint` reports on a copy of the project: (code, file, message).
fn findings(name: &str) -> Vec<(String, String, String)> {
    let p = realworld_project(name);
    let r = p.hookc(&["lint", "--format", "json"]);
    assert!(r.status == 0 || r.status == 1, "{name}: {}", r.stderr);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let s = |k: &str| d[k].as_str().unwrap_or("").to_owned();
            (s("code"), s("file"), s("message"))
        })
        .collect()
}

#[test]
fn lint_is_right_on_the_realworld_corpus() {
    let verdicts = verdicts();
    let projects = realworld_projects();
    let (mut right, mut wrong, mut missed) = (0, 0, 0);
    let mut problems = Vec::new();
    for project in &projects {
        let found = findings(project);
        let judged: Vec<&Verdict> = verdicts.iter().filter(|v| v.project == *project).collect();
        let matches = |v: &Verdict, (code, file, message): &(String, String, String)| {
            (v.code == "?" || v.code == *code) && v.file == *file && message.contains(&v.text)
        };
        for f in &found {
            match judged.iter().find(|v| matches(v, f)) {
                Some(v) if v.verdict == "right" => right += 1,
                Some(v) if v.verdict == "wrong" => wrong += 1,
                Some(_) => problems.push(format!(
                    "{project}: a trap marked `missed` is found now: mark it `right` (with its code): {f:?}"
                )),
                None => problems.push(format!(
                    "{project}: a finding no line of lint-expected.txt judges: {f:?}"
                )),
            }
        }
        for v in &judged {
            let seen = found.iter().any(|f| matches(v, f));
            match v.verdict.as_str() {
                "missed" if !seen => missed += 1,
                "right" if !seen => {
                    problems.push(format!("{project}: lint no longer reports {v:?}"))
                }
                _ => {}
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let percent = |n: usize, d: usize| (100 * n + d / 2) / d.max(1);
    let precision = percent(right, right + wrong);
    let recall = percent(right, right + missed);
    let figures = format!(
        "{} findings on {} projects: {right} right, {wrong} wrong (precision {precision}%); {missed} traps missed (recall {recall}%)",
        right + wrong,
        projects.len()
    );
    eprintln!("lint on the real-world corpus: {figures}");
    let book = std::fs::read_to_string(repo().join("book/src/lint-corpus.md")).unwrap();
    assert!(
        book.contains(&figures),
        "book/src/lint-corpus.md should say: {figures}"
    );
    assert!(precision >= 90, "{figures}");
}
