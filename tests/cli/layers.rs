//! The layout of `src/` is the pipeline: each top-level module uses only the
//! modules below it, and the files of one folder module do not use each
//! other in a circle. Read from the source text (every `crate::…` path
//! outside test code), so an import that runs back up fails here with the
//! files that make it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The top-level modules of `src/`, lowest first. A module may use only
/// modules of lower layers. A new module gets a place here.
const LAYERS: &[&[&str]] = &[
    &[
        "registry",
        "source",
        "exit",
        "disk",
        "paths",
        "presets",
        "supervise",
        "managed",
    ],
    &["diag", "version", "shell", "ast", "merge"],
    &["ir", "syntax", "git_writes"],
    &["profile"],
    &["eval", "lint_rules"],
    &["audit"],
    &["policy_json", "pin"],
    &["builds"],
    &["emit"],
    &["manifest", "harness"],
    &["lint", "protect", "extends"],
    &["resolve", "plan", "init", "cli"],
    &["compile", "write", "discover", "import"],
    &["runtime", "book"],
    &["commands"],
];

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The file's text without its test code: a `#[cfg(test)] mod …` block
/// and everything after it (test modules close the files here).
fn non_test(text: &str) -> &str {
    let mut at = 0;
    while let Some(i) = text[at..].find("#[cfg(test)]") {
        let after = text[at + i + "#[cfg(test)]".len()..].trim_start();
        if after.starts_with("mod ") && !after.split('\n').next().unwrap().ends_with(';') {
            return &text[..at + i];
        }
        at += i + 1;
    }
    text
}

/// Files only compiled for tests (`#[cfg(test)] mod corpus;`).
fn test_only_files(src: &Path, files: &[PathBuf]) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    for f in files {
        let text = std::fs::read_to_string(f).unwrap();
        let dir = if f.file_name().unwrap() == "mod.rs" || f.parent().unwrap() == src {
            f.parent().unwrap().to_path_buf()
        } else {
            f.with_extension("")
        };
        let mut rest = text.as_str();
        while let Some(i) = rest.find("#[cfg(test)]") {
            rest = &rest[i + "#[cfg(test)]".len()..];
            let line = rest.trim_start().split('\n').next().unwrap();
            if let Some(name) = line
                .trim_start_matches("pub ")
                .strip_prefix("mod ")
                .and_then(|l| l.strip_suffix(';'))
            {
                out.insert(dir.join(format!("{name}.rs")));
            }
        }
    }
    out
}

/// The names a path starting at `at` (just after `crate::` or `super::`)
/// reaches first: `emit` in `emit::EmitCx`, `a` and `b` in `{a, b::c}`.
fn first_names(at: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    if let Some(group) = at.strip_prefix('{') {
        let mut depth = 0;
        let mut names = Vec::new();
        let mut start = true;
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => break,
                '}' => depth -= 1,
                ',' if depth == 0 => start = true,
                c if start && !c.is_whitespace() => {
                    names.push(ident(&group[i..]));
                    start = false;
                }
                _ => {}
            }
        }
        names
    } else {
        vec![ident(at)]
    }
}

/// `(from, to) → files` over one level of modules.
type Edges = BTreeMap<(String, String), BTreeSet<String>>;

fn graph() -> (Edges, Edges) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let test_only = test_only_files(&src, &files);
    let mut top = Edges::new();
    let mut inner = Edges::new();
    for f in files.iter().filter(|f| !test_only.contains(*f)) {
        let rel = f
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let parts: Vec<&str> = rel.trim_end_matches(".rs").split('/').collect();
        let module = parts[0];
        if matches!(module, "lib" | "main") {
            continue;
        }
        // The file as a child of its folder module (`lint/config.rs` → `config`);
        // `mod.rs` is the folder's glue and is left out of that level.
        let child = (parts.len() == 2 && parts[1] != "mod").then(|| parts[1]);
        let text = std::fs::read_to_string(f).unwrap();
        let code = non_test(&text);
        for (prefix, is_super) in [("crate::", false), ("super::", true)] {
            for (i, _) in code.match_indices(prefix) {
                let path = &code[i + prefix.len()..];
                if is_super {
                    let Some(from) = child else { continue };
                    for name in first_names(path) {
                        if name != from && src.join(module).join(format!("{name}.rs")).is_file() {
                            let key = (format!("{module}::{from}"), format!("{module}::{name}"));
                            inner.entry(key).or_default().insert(rel.clone());
                        }
                    }
                    continue;
                }
                for name in first_names(path) {
                    if name == module {
                        // `crate::lint::config` from inside `lint`: the inner level.
                        if let Some(from) = child {
                            let below = &path[name.len()..];
                            if let Some(rest) = below.strip_prefix("::") {
                                for n in first_names(rest) {
                                    if n != from
                                        && src.join(module).join(format!("{n}.rs")).is_file()
                                    {
                                        let key =
                                            (format!("{module}::{from}"), format!("{module}::{n}"));
                                        inner.entry(key).or_default().insert(rel.clone());
                                    }
                                }
                            }
                        }
                        continue;
                    }
                    if src.join(format!("{name}.rs")).is_file() || src.join(&name).is_dir() {
                        top.entry((module.to_owned(), name))
                            .or_default()
                            .insert(rel.clone());
                    }
                }
            }
        }
    }
    (top, inner)
}

/// A circle in `edges`, as the nodes it passes, if there is one.
fn circle(edges: &Edges) -> Option<Vec<String>> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (a, b) in edges.keys() {
        next.entry(a).or_default().push(b);
    }
    fn visit<'a>(
        n: &'a str,
        next: &BTreeMap<&'a str, Vec<&'a str>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| *p == n) {
            let mut c: Vec<String> = path[i..].iter().map(|s| s.to_string()).collect();
            c.push(n.to_owned());
            return Some(c);
        }
        if !done.insert(n) {
            return None;
        }
        path.push(n);
        for m in next.get(n).into_iter().flatten() {
            if let Some(c) = visit(m, next, path, done) {
                return Some(c);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    let nodes: Vec<&str> = next.keys().copied().collect();
    nodes
        .into_iter()
        .find_map(|n| visit(n, &next, &mut Vec::new(), &mut done))
}

fn describe(c: &[String], edges: &Edges) -> String {
    c.windows(2)
        .map(|w| {
            let files = &edges[&(w[0].clone(), w[1].clone())];
            format!(
                "{} → {} ({})",
                w[0],
                w[1],
                files.iter().cloned().collect::<Vec<_>>().join(", ")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn no_module_imports_in_a_circle() {
    let (top, inner) = graph();
    assert!(top.len() > 30, "the scan found too few imports: {top:?}");
    if let Some(c) = circle(&top) {
        panic!(
            "top-level modules import each other in a circle:\n{}",
            describe(&c, &top)
        );
    }
    if let Some(c) = circle(&inner) {
        panic!(
            "files of one module import each other in a circle:\n{}",
            describe(&c, &inner)
        );
    }
}

#[test]
fn every_import_runs_down_the_layers() {
    let (top, _) = graph();
    let layer = |m: &str| LAYERS.iter().position(|l| l.contains(&m));
    let mut wrong = Vec::new();
    for ((from, to), files) in &top {
        let (Some(a), Some(b)) = (layer(from), layer(to)) else {
            wrong.push(format!(
                "`{}` has no place in LAYERS (tests/cli/layers.rs)",
                if layer(from).is_none() { from } else { to }
            ));
            continue;
        };
        if b >= a {
            wrong.push(format!(
                "{from} (layer {a}) uses {to} (layer {b}) in {}",
                files.iter().cloned().collect::<Vec<_>>().join(", ")
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_scan_sees_groups_and_nested_paths() {
    assert_eq!(first_names("emit::EmitCx;"), ["emit"]);
    assert_eq!(
        first_names("{resolve, syntax::{a, b}, c};"),
        ["resolve", "syntax", "c"]
    );
    assert_eq!(
        non_test("a\n#[cfg(test)]\nmod corpus;\nb\n#[cfg(test)]\nmod tests {\nc"),
        "a\n#[cfg(test)]\nmod corpus;\nb\n"
    );
}
