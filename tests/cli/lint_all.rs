//! What `hookc build` writes draws no lint finding: for the bundled policy,
//! every preset and every whole policy the book shows, built for every
//! harness, `hookc lint` on the project (and on the Kimi Code config the
//! build leaves for `--user`) reports nothing.

use std::path::Path;
use std::process::Command;

use crate::console;
use crate::support::{HOOKC, Project, repo, run};

/// Book blocks with guards that are not meant to build, each with why:
/// (page, line of the opening fence).
const NOT_WHOLE_POLICIES: &[(&str, usize, &str)] = &[
    (
        "policy/grammar.md",
        7,
        "every node at once; the page says it does not build",
    ),
    ("policy/example.md", 45, "a failing example, shown failing"),
    (
        "organisation.md",
        21,
        "extends an organisation's repository, unpinned until `hookc update`",
    ),
    (
        "policy/decisions.md",
        46,
        "a rewrite, which five harnesses cannot do",
    ),
];

/// Every policy to build: (where it comes from, its text).
fn policies() -> Vec<(String, usize, String)> {
    let mut out = vec![(
        "policy.kdl".to_owned(),
        0,
        std::fs::read_to_string(repo().join("policy.kdl")).unwrap(),
    )];
    for preset in hookc::presets::ALL {
        out.push((
            format!("presets/{}.kdl", preset.name),
            0,
            preset.text.to_owned(),
        ));
    }
    let src = repo().join("book/src");
    let mut pages = Vec::new();
    collect_pages(&src, &mut pages);
    pages.sort();
    for page in pages {
        let rel = page
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel.starts_with("diagnostics/") {
            continue;
        }
        let text = std::fs::read_to_string(&page).unwrap();
        for block in console::blocks(&text) {
            if block.info != "kdl" && !block.info.starts_with("kdl ") {
                continue;
            }
            let kdl = block.lines.join("\n");
            if kdl.contains("// wrong") || !block.lines.iter().any(|l| l.starts_with("guard ")) {
                continue;
            }
            out.push((rel.clone(), block.line, kdl + "\n"));
        }
    }
    out
}

fn collect_pages(dir: &Path, pages: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_pages(&path, pages);
        } else if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
}

fn lint(p: &Project, args: &[&str]) -> (i32, serde_json::Value) {
    let out = run(
        Command::new(HOOKC)
            .args(["lint", "--format", "json"])
            .args(args)
            .current_dir(p.dir.path())
            .env("HOME", p.path("home")),
        None,
    );
    let value = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", out.stdout, out.stderr));
    (out.status, value)
}

#[test]
fn lint_finds_nothing_in_what_build_writes_for_every_policy_we_ship() {
    let mut failures = Vec::new();
    let mut built = 0;
    let mut skipped = Vec::new();
    for (source, line, text) in policies() {
        let whence = if line == 0 {
            source.clone()
        } else {
            format!("book/src/{source}:{line}")
        };
        // Every harness: the default when `targets` is not given.
        let text: String = text
            .lines()
            .filter(|l| !l.starts_with("targets "))
            .map(|l| format!("{l}\n"))
            .collect();
        let p = Project::new();
        p.write("policy.kdl", &text);
        let build = run(
            Command::new(HOOKC)
                .arg("build")
                .current_dir(p.dir.path())
                .env("HOME", p.path("home")),
            None,
        );
        let listed = NOT_WHOLE_POLICIES
            .iter()
            .any(|(page, l, _)| *page == source && *l == line);
        if listed {
            if build.status == 0 {
                failures.push(format!(
                    "{whence}: listed as not a whole policy, but it builds: take it off the list"
                ));
            }
            skipped.push(whence);
            continue;
        }
        if build.status != 0 {
            failures.push(format!("{whence}: build failed:\n{}", build.stderr));
            continue;
        }
        built += 1;
        let mut reports = vec![lint(&p, &[])];
        let kimi = p.path(".hookc/kimi/config.toml");
        if kimi.is_file() {
            reports.push(lint(&p, &[".hookc/kimi/config.toml"]));
        }
        let mut files = 0;
        for (status, report) in reports {
            files += report["files"].as_array().unwrap().len();
            let found: Vec<String> = report["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| {
                    format!(
                        "{} {}:{} {}",
                        d["code"].as_str().unwrap_or(""),
                        d["file"].as_str().unwrap_or(""),
                        d["labels"][0]["line"],
                        d["message"].as_str().unwrap_or("")
                    )
                })
                .collect();
            if status != 0 || !found.is_empty() {
                failures.push(format!("{whence}: exit {status}: {}", found.join("; ")));
            }
        }
        // Claude, Codex, Copilot, Cursor, Gemini, Antigravity, OpenCode and
        // Kimi for the bundled policy; a harness without an event the
        // policy's guards use gets no file.
        let least = if line == 0 && source == "policy.kdl" {
            8
        } else {
            5
        };
        if files < least {
            failures.push(format!("{whence}: only {files} file(s) linted"));
        }
    }
    assert_eq!(skipped.len(), NOT_WHOLE_POLICIES.len(), "{skipped:?}");
    assert!(built >= 20, "only {built} policies built");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A small policy whose guards take every route a build writes: a guard on
/// every tool (Cursor's `^(?!Shell$|MCP:)`, Auggie's `.*`), an MCP tool, the
/// shell, file edits after the fact, prompts, stops and session starts.
const EVERY_ROUTE: &str = r#"timeout 10

guard "no-aws-keys-anywhere" {
    regex "AKIA[0-9A-Z]{16}"
    deny "Do not put AWS access keys in calls. Read the key from the environment instead."
    example "echo AKIAABCDEFGHIJKLMNOP" expect="deny"
    example "echo hello" expect="allow"
}

guard "no-refunds" {
    mcp "payments" "refund_*"
    deny "Do not issue refunds. Ask the user to do it in the dashboard instead."
    example tool="mcp" server="payments" name="refund_order" expect="deny"
}

guard "no-force-push" {
    tool "shell"
    command "git" "push" {
        flag "-f" "--force"
    }
    deny "Do not force-push. Push to a new branch instead."
    example "git push --force" expect="deny"
    example "git push" expect="allow"
}

guard "after-edits" {
    event "post-tool"
    tool "edit" "write"
    context "Run the formatter after editing."
    example tool="edit" path="src/a.rs" expect="context"
}

guard "no-secrets-in-prompts" {
    event "prompt"
    regex "AKIA[0-9A-Z]{16}"
    deny "Remove the AWS key from the prompt, then send it again."
    example text="my key is AKIAABCDEFGHIJKLMNOP" expect="deny"
}

guard "finish-with-tests" {
    event "stop"
    block "Run the tests before you stop."
    regex "^All done"
    example text="All done." expect="block"
}

guard "hello" {
    event "session-start"
    context "This project uses hookc."
    example expect="context"
}
"#;

/// What `hookc build` writes for every harness (no `targets`) draws no
/// finding at warning level or above from `hookc lint`, whichever route a
/// guard takes: hookc's own matchers included.
#[test]
fn lint_is_clean_on_what_build_writes_for_every_route_and_harness() {
    let p = Project::new();
    p.write("policy.kdl", EVERY_ROUTE);
    let build = run(
        Command::new(HOOKC)
            .arg("build")
            .current_dir(p.dir.path())
            .env("HOME", p.path("home")),
        None,
    );
    assert_eq!(build.status, 0, "{}", build.stderr);
    for args in [&[][..], &[".hookc/kimi/config.toml"][..]] {
        let (status, report) = lint(&p, args);
        let files = report["files"].as_array().unwrap().len();
        assert!(files >= if args.is_empty() { 10 } else { 1 }, "{report:#}");
        let loud: Vec<String> = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["severity"] == "warning" || d["severity"] == "error")
            .map(|d| format!("{} {}: {}", d["code"], d["file"], d["message"]))
            .collect();
        assert!(loud.is_empty(), "{}", loud.join("\n"));
        assert_eq!(status, 0, "{report:#}");
    }
}
