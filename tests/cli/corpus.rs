//! Nothing lost in users' files: a corpus of realistic existing harness
//! configs (`tests/fixtures/corpus/<harness>/`) that hookc merges into.
//!
//! Each file is put where its harness reads it, then the bundled policy is
//! built into it, and the test checks what a user would:
//!
//! * every byte outside hookc's entries is unchanged: hookc's entries are
//!   found by parsing the result and cut out, and what is left must hold the
//!   original as a subsequence, with nothing added but whitespace and commas;
//! * the result is valid for the harness (strict JSON, JSONC or TOML), keeps
//!   the file's BOM and line endings, and holds exactly the entries a fresh
//!   build writes (`out/`);
//! * a second build is a byte-for-byte no-op and says so;
//! * a policy with no guards, and one without this harness among its
//!   targets, both give back the original bytes.
//!
//! The fixtures are committed byte for byte (`.gitattributes` marks them
//! `-text`): CRLF and BOM are what they test.

use std::path::{Path, PathBuf};
use std::process::Command;

use jsonc_parser::ast;
use jsonc_parser::common::Ranged;
use serde_json::Value;

use crate::support::{HOOKC, Project, Run, repo, run};

const BOM: &str = "\u{feff}";

#[derive(Clone, Copy, PartialEq)]
enum Syntax {
    /// What the harness's parser reads: JSON without comments or trailing commas.
    StrictJson,
    /// JSON with comments but no trailing commas (Gemini CLI strips comments
    /// before `JSON.parse`; Qwen Code, Factory Droid and Auggie take them too).
    JsonWithComments,
    Toml,
}

/// A harness whose file hookc merges into.
struct Merged {
    dir: &'static str,
    target: &'static str,
    /// Where the harness reads the file: relative to the project, or to
    /// `KIMI_CODE_HOME` for a user-level file.
    path: &'static str,
    user: bool,
    syntax: Syntax,
    /// The object holding hookc's event arrays (JSON).
    container: &'static str,
    /// Members hookc adds at the top level when absent.
    ensure: &'static [&'static str],
    /// What every one of hookc's entries contains.
    marker: &'static str,
    /// The golden file holding what a fresh build writes.
    golden: &'static str,
}

const MERGED: &[Merged] = &[
    Merged {
        dir: "claude",
        target: "claude",
        path: ".claude/settings.json",
        user: false,
        syntax: Syntax::StrictJson,
        container: "hooks",
        ensure: &[],
        marker: "/.hookc/claude/",
        golden: "out/.claude/settings.json",
    },
    Merged {
        dir: "codex",
        target: "codex",
        path: ".codex/hooks.json",
        user: false,
        syntax: Syntax::StrictJson,
        container: "hooks",
        ensure: &[],
        marker: "/.hookc/codex/",
        golden: "out/.codex/hooks.json",
    },
    Merged {
        dir: "cursor",
        target: "cursor",
        path: ".cursor/hooks.json",
        user: false,
        syntax: Syntax::StrictJson,
        container: "hooks",
        ensure: &["version"],
        marker: ".hookc/cursor/",
        golden: "out/.cursor/hooks.json",
    },
    Merged {
        dir: "gemini",
        target: "gemini",
        path: ".gemini/settings.json",
        user: false,
        syntax: Syntax::JsonWithComments,
        container: "hooks",
        ensure: &[],
        marker: "/.hookc/gemini/",
        golden: "out/.gemini/settings.json",
    },
    Merged {
        dir: "antigravity",
        target: "antigravity",
        path: ".agents/hooks.json",
        user: false,
        syntax: Syntax::StrictJson,
        container: "hookc",
        ensure: &[],
        marker: "/.hookc/antigravity/",
        golden: "out/.agents/hooks.json",
    },
    Merged {
        dir: "qwen",
        target: "qwen",
        path: ".qwen/settings.json",
        user: false,
        syntax: Syntax::JsonWithComments,
        container: "hooks",
        ensure: &[],
        marker: "/.hookc/qwen/",
        golden: "out/.qwen/settings.json",
    },
    Merged {
        dir: "droid",
        target: "droid",
        path: ".factory/settings.json",
        user: false,
        syntax: Syntax::JsonWithComments,
        container: "hooks",
        ensure: &[],
        marker: "/.hookc/droid/",
        golden: "out/.factory/settings.json",
    },
    Merged {
        dir: "auggie",
        target: "auggie",
        path: ".augment/settings.json",
        user: false,
        syntax: Syntax::JsonWithComments,
        container: "hooks",
        ensure: &[],
        marker: "/.hookc/auggie/",
        golden: "out/.augment/settings.json",
    },
    Merged {
        dir: "windsurf",
        target: "windsurf",
        path: ".windsurf/hooks.json",
        user: false,
        syntax: Syntax::StrictJson,
        container: "hooks",
        ensure: &[],
        // The command is `sh .hookc/windsurf/<event>.sh`: no leading slash.
        marker: ".hookc/windsurf/",
        golden: "out/.windsurf/hooks.json",
    },
    Merged {
        dir: "devin",
        target: "devin",
        path: ".devin/config.json",
        user: false,
        syntax: Syntax::JsonWithComments,
        container: "hooks",
        ensure: &[],
        marker: "/.hookc/devin/",
        golden: "out/.devin/config.json",
    },
    Merged {
        dir: "codebuddy",
        target: "codebuddy",
        path: ".codebuddy/settings.json",
        user: false,
        syntax: Syntax::JsonWithComments,
        container: "hooks",
        ensure: &[],
        marker: "/.hookc/codebuddy/",
        golden: "out/.codebuddy/settings.json",
    },
    Merged {
        dir: "qoder",
        target: "qoder",
        path: ".qoder/settings.json",
        user: false,
        syntax: Syntax::JsonWithComments,
        container: "hooks",
        ensure: &[],
        marker: "/.hookc/qoder/",
        golden: "out/.qoder/settings.json",
    },
    Merged {
        dir: "letta",
        target: "letta",
        path: ".letta/settings.json",
        user: false,
        syntax: Syntax::StrictJson,
        container: "hooks",
        ensure: &[],
        marker: "/.hookc/letta/",
        golden: "out/.letta/settings.json",
    },
    Merged {
        dir: "openhands",
        target: "openhands",
        path: ".openhands/hooks.json",
        user: false,
        syntax: Syntax::StrictJson,
        container: "hooks",
        ensure: &[],
        marker: "/.hookc/openhands/",
        golden: "out/.openhands/hooks.json",
    },
    Merged {
        dir: "crush",
        target: "crush",
        path: "crush.json",
        user: false,
        syntax: Syntax::StrictJson,
        container: "hooks",
        ensure: &[],
        marker: "/.hookc/crush/",
        golden: "out/crush.json",
    },
    Merged {
        dir: "vibe",
        target: "vibe",
        path: ".vibe/hooks.toml",
        user: false,
        syntax: Syntax::Toml,
        container: "hooks",
        ensure: &[],
        marker: "/.hookc/vibe/",
        golden: "out/.vibe/hooks.toml",
    },
    Merged {
        dir: "kimi",
        target: "kimi",
        path: "config.toml",
        user: true,
        syntax: Syntax::Toml,
        container: "hooks",
        ensure: &[],
        marker: "/.hookc/kimi/",
        golden: "out/.hookc/kimi/config.toml",
    },
];

fn corpus_dir(harness: &str) -> PathBuf {
    repo().join("tests/fixtures/corpus").join(harness)
}

/// The corpus files of a harness, sorted; at least three, so that a
/// misplaced directory cannot pass by holding nothing.
fn corpus(harness: &str) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(corpus_dir(harness))
        .unwrap_or_else(|e| panic!("{harness}: {e}"))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (name, text)
        })
        .collect();
    files.sort();
    assert!(
        files.len() >= 3,
        "{harness}: only {} corpus files",
        files.len()
    );
    files
}

/// A project holding the bundled policy for one harness, with a private
/// `HOME` and `KIMI_CODE_HOME`.
struct Setup {
    project: Project,
    home: tempfile::TempDir,
}

impl Setup {
    fn new(target: &str) -> Self {
        let setup = Setup {
            project: crate::support::bundled_for(&format!("\"{target}\"")),
            home: tempfile::tempdir().unwrap(),
        };
        assert!(
            setup.project.read("policy.kdl").contains("guard "),
            "the bundled policy has guards"
        );
        setup
    }

    fn file(&self, h: &Merged) -> PathBuf {
        if h.user {
            self.home.path().join("kimi-home").join(h.path)
        } else {
            self.project.path(h.path)
        }
    }

    fn hookc(&self, args: &[&str]) -> Run {
        let mut cmd = Command::new(HOOKC);
        cmd.args(args)
            .arg("--user")
            .current_dir(self.project.dir.path())
            .env("HOME", self.home.path())
            .env("KIMI_CODE_HOME", self.home.path().join("kimi-home"));
        run(&mut cmd, None)
    }

    fn build(&self, what: &str) -> Run {
        let run = self.hookc(&["build"]);
        assert_eq!(
            run.status, 0,
            "{what}: build failed\n{}{}",
            run.stdout, run.stderr
        );
        run
    }
}

/// The build refuses `original` with a reason and leaves it as it was.
fn check_refused(h: &Merged, what: &str, original: &str) {
    let setup = Setup::new(h.target);
    let file = setup.file(h);
    write(&file, original);
    let run = setup.hookc(&["build"]);
    assert_eq!(run.status, 2, "{what}: {}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("hookc::merge-failed") && run.stderr.contains("byte order mark"),
        "{what}: {}",
        run.stderr
    );
    assert!(
        !run.stdout.contains("guards active"),
        "{what}: {}",
        run.stdout
    );
    assert_eq!(read(&file), original, "{what}: the refused file changed");
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn merging_into_claude_settings_loses_nothing() {
    check_harness("claude");
}

#[test]
fn merging_into_codex_hooks_loses_nothing() {
    check_harness("codex");
}

#[test]
fn merging_into_cursor_hooks_loses_nothing() {
    check_harness("cursor");
}

#[test]
fn merging_into_gemini_settings_loses_nothing() {
    check_harness("gemini");
}

#[test]
fn merging_into_antigravity_hooks_loses_nothing() {
    check_harness("antigravity");
}

#[test]
fn merging_into_qwen_settings_loses_nothing() {
    check_harness("qwen");
}

#[test]
fn merging_into_droid_settings_loses_nothing() {
    check_harness("droid");
}

#[test]
fn merging_into_auggie_settings_loses_nothing() {
    check_harness("auggie");
}

#[test]
fn merging_into_devin_config_loses_nothing() {
    check_harness("devin");
}

#[test]
fn merging_into_windsurf_hooks_loses_nothing() {
    check_harness("windsurf");
}

#[test]
fn merging_into_kimi_config_loses_nothing() {
    check_harness("kimi");
}

#[test]
fn merging_into_codebuddy_settings_loses_nothing() {
    check_harness("codebuddy");
}

#[test]
fn merging_into_qoder_settings_loses_nothing() {
    check_harness("qoder");
}

#[test]
fn merging_into_letta_settings_loses_nothing() {
    check_harness("letta");
}

#[test]
fn merging_into_openhands_hooks_loses_nothing() {
    check_harness("openhands");
}

#[test]
fn merging_into_crush_config_loses_nothing() {
    check_harness("crush");
}

#[test]
fn merging_into_vibe_hooks_loses_nothing() {
    check_harness("vibe");
}

/// Every file a build merges into has a corpus above: the harnesses' files
/// in the bundled policy's build (`out/`, which `out_dir` keeps fresh) whose
/// manifest kind is not a whole file of hookc's own.
#[test]
fn every_file_hookc_merges_into_has_a_corpus() {
    let manifest: Value =
        serde_json::from_str(&read(&repo().join("out/.hookc/manifest.json"))).unwrap();
    let merged: Vec<&str> = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] != "whole")
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert!(merged.len() > 10, "{merged:?}");
    let missing: Vec<&&str> = merged
        .iter()
        // Goose reads hookc's own plugin folder, which no user file shares.
        .filter(|path| !path.starts_with(".agents/plugins/hookc/"))
        .filter(|path| !MERGED.iter().any(|h| h.golden == format!("out/{path}")))
        .collect();
    assert!(missing.is_empty(), "no merge corpus for {missing:?}");
}

fn check_harness(dir: &str) {
    let h = MERGED.iter().find(|h| h.dir == dir).unwrap();
    let golden = read(&repo().join(h.golden));
    // Every file is checked, and every failure reported, before failing.
    let failures: Vec<String> = corpus(h.dir)
        .into_iter()
        .filter_map(|(name, original)| {
            let what = format!("{}/{name}", h.dir);
            std::panic::catch_unwind(|| check_file(h, &what, &original, &golden))
                .err()
                .map(|_| what)
        })
        .collect();
    assert!(failures.is_empty(), "failed: {failures:?} (messages above)");
}

fn check_file(h: &Merged, what: &str, original: &str, golden: &str) {
    // Only Claude Code skips a byte order mark; the other JSON harnesses reject the whole
    // file (Codex, Gemini CLI and Cursor in the oracle's runs). The build must leave such a
    // file alone; the rest is checked on the file without the mark.
    let original = match original.strip_prefix('\u{feff}') {
        Some(rest) if h.dir != "claude" && h.syntax != Syntax::Toml => {
            check_refused(h, what, original);
            rest.to_owned()
        }
        _ => original.to_owned(),
    };
    let what = what.to_owned();
    {
        let setup = Setup::new(h.target);
        let file = setup.file(h);
        write(&file, &original);

        // The merge.
        setup.build(&what);
        let merged = read(&file);
        assert_ne!(merged, original, "{what}: hookc added nothing");
        check_valid(h, &what, &original, &merged);
        check_entries(h, &what, &merged, golden);
        check_nothing_else_changed(h, &what, &original, &merged);
        if h.user {
            let backup = file.with_file_name(format!("{}.hookc-backup", h.path));
            assert_eq!(
                read(&backup),
                original,
                "{what}: the backup is not the original"
            );
        }

        // A second build: a no-op.
        let again = setup.build(&what);
        assert_eq!(
            read(&file),
            merged,
            "{what}: the second build changed the file"
        );
        assert!(
            again.stdout.contains("(0 files changed"),
            "{what}: the second build reports changes:\n{}",
            again.stdout
        );
        let check = setup.hookc(&["check"]);
        assert_eq!(check.status, 0, "{what}: {}{}", check.stdout, check.stderr);

        // Retraction: no guards left, then the harness dropped from the targets.
        for (how, policy) in [
            ("no guards", format!("targets \"{}\"\n", h.target)),
            (
                "another target",
                setup
                    .project
                    .read("policy.kdl")
                    .replace(&format!("targets \"{}\"", h.target), "targets \"opencode\""),
            ),
        ] {
            setup.project.write("policy.kdl", &policy);
            setup.build(&what);
            assert!(file.exists(), "{what}: {how}: the user's file was deleted");
            let restored = read(&file);
            assert!(
                restored == original,
                "{what}: {how}: the file is not back to its original bytes\n\
                 --- original\n{original:?}\n--- after retraction\n{restored:?}"
            );
            // Put hookc's entries back for the next way of retracting.
            setup.project.write(
                "policy.kdl",
                &format!(
                    "{}\ntargets \"{}\"\n",
                    std::fs::read_to_string(repo().join("policy.kdl")).unwrap(),
                    h.target
                ),
            );
            setup.build(&what);
            assert_eq!(read(&file), merged, "{what}: {how}: rebuilding differs");
        }
    }
}

/// The result parses the way the harness parses it, and keeps the file's BOM
/// and line endings.
fn check_valid(h: &Merged, what: &str, original: &str, merged: &str) {
    assert_eq!(
        original.starts_with(BOM),
        merged.starts_with(BOM),
        "{what}: the BOM was not kept as it was"
    );
    let body = merged.strip_prefix(BOM).unwrap_or(merged);
    if original.contains("\r\n") {
        let bare = body
            .match_indices('\n')
            .filter(|(i, _)| *i == 0 || body.as_bytes()[i - 1] != b'\r')
            .count();
        assert_eq!(
            bare, 0,
            "{what}: LF lines inserted into a CRLF file:\n{body:?}"
        );
    } else {
        assert!(!body.contains('\r'), "{what}: CR inserted into an LF file");
    }
    match h.syntax {
        Syntax::StrictJson => {
            serde_json::from_str::<Value>(body)
                .unwrap_or_else(|e| panic!("{what}: not strict JSON: {e}\n{merged}"));
        }
        Syntax::JsonWithComments => {
            let options = jsonc_parser::ParseOptions {
                allow_comments: true,
                allow_trailing_commas: false,
                allow_loose_object_property_names: false,
                allow_missing_commas: false,
                allow_single_quoted_strings: false,
                allow_hexadecimal_numbers: false,
                allow_unary_plus_numbers: false,
                allow_bare_decimal_point_numbers: false,
                allow_non_finite_numbers: false,
                allow_extended_string_escapes: false,
            };
            jsonc_parser::parse_to_value(body, &options)
                .unwrap_or_else(|e| panic!("{what}: not JSON with comments: {e}\n{merged}"));
        }
        Syntax::Toml => {
            body.parse::<toml_edit::DocumentMut>()
                .unwrap_or_else(|e| panic!("{what}: not TOML: {e}\n{merged}"));
            python_tomllib_parses(what, body);
        }
    }
}

/// A second, independent TOML 1.0 parser, when Python 3.11+ is there.
fn python_tomllib_parses(what: &str, body: &str) {
    let script = "import sys, tomllib; tomllib.loads(sys.stdin.read())";
    let Ok(probe) = Command::new("python3")
        .args(["-c", "import tomllib"])
        .output()
    else {
        return;
    };
    if !probe.status.success() {
        return;
    }
    let run = run(
        Command::new("python3").args(["-c", script]),
        Some(body.as_bytes()),
    );
    assert_eq!(
        run.status, 0,
        "{what}: Python's tomllib rejects it: {}",
        run.stderr
    );
}

/// hookc's entries in the result are exactly those of a fresh build.
fn check_entries(h: &Merged, what: &str, merged: &str, golden: &str) {
    let body = merged.strip_prefix(BOM).unwrap_or(merged);
    if h.syntax == Syntax::Toml {
        let owned = |text: &str| -> Vec<String> {
            let doc: toml_edit::DocumentMut = text.parse().unwrap();
            doc.get("hooks")
                .and_then(|i| i.as_array_of_tables())
                .into_iter()
                .flat_map(|a| a.iter())
                .filter(|t| t.to_string().contains(h.marker))
                .map(|t| {
                    t.iter()
                        .map(|(k, v)| format!("{k}={}", v.as_value().unwrap().to_string().trim()))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect()
        };
        let wanted = owned(golden);
        assert!(!wanted.is_empty());
        assert_eq!(
            owned(body),
            wanted,
            "{what}: hookc's tables differ from a fresh build"
        );
        return;
    }
    let options = jsonc_parser::ParseOptions::default();
    let value = jsonc_parser::parse_to_serde_value::<Value>(body, &options).unwrap();
    let fresh: Value = serde_json::from_str(golden).unwrap();
    let owned = |v: &Value| -> Vec<(String, Vec<Value>)> {
        v[h.container]
            .as_object()
            .into_iter()
            .flatten()
            .filter_map(|(name, entries)| {
                let mine: Vec<Value> = entries
                    .as_array()?
                    .iter()
                    .filter(|e| e.to_string().contains(h.marker))
                    .cloned()
                    .collect();
                (!mine.is_empty()).then(|| (name.clone(), mine))
            })
            .collect()
    };
    let mut got = owned(&value);
    let mut wanted = owned(&fresh);
    got.sort_by(|a, b| a.0.cmp(&b.0));
    wanted.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!wanted.is_empty());
    assert_eq!(
        got, wanted,
        "{what}: hookc's entries differ from a fresh build"
    );
    for key in h.ensure {
        assert_eq!(value[*key], fresh[*key], "{what}: `{key}`");
    }
}

/// Cut hookc's entries out of `merged`; what is left must contain `original`
/// as a subsequence and add nothing but whitespace and commas.
fn check_nothing_else_changed(h: &Merged, what: &str, original: &str, merged: &str) {
    let ranges = match h.syntax {
        Syntax::Toml => owned_toml_ranges(h, merged),
        _ => owned_json_ranges(h, what, original, merged),
    };
    assert!(!ranges.is_empty(), "{what}: found none of hookc's entries");
    let mut rest = String::new();
    let mut from = 0;
    for (start, end) in ranges {
        assert!(start >= from, "{what}: overlapping ranges");
        rest.push_str(&merged[from..start]);
        from = end;
    }
    rest.push_str(&merged[from..]);

    // Every character of the original, in order.
    let mut left = rest.chars().peekable();
    for (i, c) in original.char_indices() {
        loop {
            match left.next() {
                Some(d) if d == c => break,
                Some(_) => {}
                None => panic!(
                    "{what}: byte {i} of the original ({c:?}) is missing or moved; \
                     around it: {:?}",
                    &original[i.saturating_sub(40)..(i + 40).min(original.len())]
                        .chars()
                        .collect::<String>()
                ),
            }
        }
    }
    // And nothing else but whitespace (and, in JSON, commas).
    let extra = |c: char| c.is_whitespace() || (c == ',' && h.syntax != Syntax::Toml);
    let count = |text: &str| {
        let mut counts = std::collections::BTreeMap::new();
        for c in text.chars().filter(|c| !extra(*c)) {
            *counts.entry(c).or_insert(0usize) += 1;
        }
        counts
    };
    assert_eq!(
        count(&rest),
        count(original),
        "{what}: text outside hookc's entries was added:\n{rest}"
    );
}

/// Byte ranges of `merged` that are hookc's: its entries in arrays that were
/// already there, and whole members (event arrays, the container, `ensure`
/// members) that the original did not have.
fn owned_json_ranges(h: &Merged, what: &str, original: &str, merged: &str) -> Vec<(usize, usize)> {
    let bom = if merged.starts_with(BOM) {
        BOM.len()
    } else {
        0
    };
    let old = parse_object(what, original);
    let new = parse_object(what, merged);
    let has = |o: &ast::Object, name: &str| o.properties.iter().any(|p| p.name.as_str() == name);
    let mut ranges = Vec::new();
    for prop in &new.properties {
        let name = prop.name.as_str();
        if has(&old, name) {
            continue;
        }
        assert!(
            name == h.container || h.ensure.contains(&name),
            "{what}: hookc added the top-level member `{name}`"
        );
        ranges.push((prop.range.start, prop.range.end));
    }
    let old_container = old
        .properties
        .iter()
        .find(|p| p.name.as_str() == h.container)
        .and_then(|p| p.value.as_object());
    if let Some(old_container) = old_container {
        let new_container = new
            .properties
            .iter()
            .find(|p| p.name.as_str() == h.container)
            .and_then(|p| p.value.as_object())
            .unwrap_or_else(|| panic!("{what}: `{}` is gone", h.container));
        for prop in &new_container.properties {
            let ast::Value::Array(array) = &prop.value else {
                continue;
            };
            let mine = |e: &ast::Value| merged[bom..][e.start()..e.end()].contains(h.marker);
            if !has(old_container, prop.name.as_str()) {
                assert!(
                    array.elements.iter().all(mine),
                    "{what}: hookc created `{}` with entries not its own",
                    prop.name.as_str()
                );
                ranges.push((prop.range.start, prop.range.end));
                continue;
            }
            for element in array.elements.iter().filter(|e| mine(e)) {
                ranges.push((element.start(), element.end()));
            }
        }
    }
    let mut ranges: Vec<(usize, usize)> = ranges
        .into_iter()
        .map(|(a, b)| (a + bom, b + bom))
        .collect();
    ranges.sort();
    ranges
}

/// The `[[hooks]]` tables of a TOML result that are hookc's (header line
/// through the line of their last value), with the comment lines right above
/// them that a fresh build also writes there.
fn owned_toml_ranges(h: &Merged, merged: &str) -> Vec<(usize, usize)> {
    let golden = read(&repo().join(h.golden));
    // The comment hookc puts above its tables, from the golden copy.
    let header: Vec<&str> = {
        let lines: Vec<&str> = golden.lines().collect();
        let first = lines.iter().position(|l| l.trim() == "[[hooks]]").unwrap();
        lines[..first]
            .iter()
            .rev()
            .take_while(|l| l.starts_with('#'))
            .copied()
            .collect()
    };
    let body_start = if merged.starts_with(BOM) {
        BOM.len()
    } else {
        0
    };
    // Lines with their byte ranges (line break included).
    let mut lines = Vec::new();
    let mut at = body_start;
    for line in merged[body_start..].split_inclusive('\n') {
        lines.push((at, at + line.len(), line.trim_end_matches(['\r', '\n'])));
        at += line.len();
    }
    let mut ranges = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (start, _, text) = lines[i];
        if header.contains(&text) {
            ranges.push((start, lines[i].1));
            i += 1;
            continue;
        }
        if text.trim() == "[[hooks]]" {
            // The table runs to the next header or blank line.
            let mut j = i + 1;
            while j < lines.len() && !lines[j].2.trim().is_empty() && !lines[j].2.starts_with('[') {
                j += 1;
            }
            let table = &merged[start..lines[j - 1].1];
            if table.contains(h.marker) {
                ranges.push((start, lines[j - 1].1));
            }
            i = j;
            continue;
        }
        i += 1;
    }
    ranges
}

/// The top-level object of a JSON(C) text after its BOM.
fn parse_object<'a>(what: &str, text: &'a str) -> ast::Object<'a> {
    let text = text.strip_prefix(BOM).unwrap_or(text);
    let options = jsonc_parser::ParseOptions::default();
    let parsed =
        jsonc_parser::parse_to_ast(text, &jsonc_parser::CollectOptions::default(), &options)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
    match parsed.value {
        Some(ast::Value::Object(o)) => o,
        other => panic!("{what}: the top level is {other:?}"),
    }
}

/// Copilot and OpenCode get files of hookc's own; the user's files beside
/// them (other hook files, workflows, the OpenCode config, other plugins)
/// stay byte for byte through a build, a rebuild and a retraction.
#[test]
fn files_beside_copilot_and_opencode_hooks_are_left_alone() {
    for (harness, own) in [
        ("copilot", ".github/hooks/hookc.json"),
        ("opencode", ".opencode/plugin/hookc.js"),
    ] {
        let setup = Setup::new(harness);
        let files = files_under(&corpus_dir(harness));
        assert!(files.len() >= 2, "{harness}: corpus too small");
        for (rel, bytes) in &files {
            let path = setup.project.path(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, bytes).unwrap();
        }
        let unchanged = |when: &str| {
            for (rel, bytes) in &files {
                let now = std::fs::read(setup.project.path(rel))
                    .unwrap_or_else(|e| panic!("{harness}: {when}: {rel}: {e}"));
                assert!(now == *bytes, "{harness}: {when}: {rel} changed");
            }
        };
        setup.build(harness);
        assert!(setup.project.exists(own), "{harness}: {own} not written");
        unchanged("build");
        setup.build(harness);
        unchanged("rebuild");
        setup
            .project
            .write("policy.kdl", &format!("targets \"{harness}\"\n"));
        setup.build(harness);
        assert!(!setup.project.exists(own), "{harness}: {own} not retracted");
        unchanged("retraction");
    }
}

/// A file of the user's at the path of a file hookc owns whole is not
/// replaced without `--force`.
#[test]
fn a_users_file_where_hookc_writes_its_own_is_a_conflict() {
    for (harness, own) in [
        ("copilot", ".github/hooks/hookc.json"),
        ("opencode", ".opencode/plugin/hookc.js"),
    ] {
        let setup = Setup::new(harness);
        let mine = "{\"version\": 1, \"hooks\": {}}\n// my own\n";
        setup.project.write(own, mine);
        let run = setup.hookc(&["build"]);
        assert_eq!(run.status, 1, "{harness}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("this file is not hookc's") && run.stderr.contains("--force"),
            "{harness}: {}",
            run.stderr
        );
        assert_eq!(setup.project.read(own), mine, "{harness}: replaced");
        let forced = setup.hookc(&["build", "--force"]);
        assert_eq!(forced.status, 0, "{harness}: {}", forced.stderr);
        assert_ne!(setup.project.read(own), mine);
        // From then on the file is hookc's: rebuilding is quiet.
        let again = setup.hookc(&["build"]);
        assert_eq!(again.status, 0, "{harness}: {}", again.stderr);
    }
}

/// Every file under `dir`, by path relative to it, with its bytes.
fn files_under(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.push((rel, std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// A Gemini settings file holding only comments (no document yet) gets
/// hookc's document after them; a rebuild changes nothing, and retraction
/// gives the comments back byte for byte.
#[test]
fn a_comment_only_settings_file_is_given_back_on_retraction() {
    let h = MERGED.iter().find(|h| h.dir == "gemini").unwrap();
    let what = "gemini comments only";
    let original = "// Project settings for Gemini CLI.\r\n// Nothing here yet: hooks come from hookc.\r\n\r\n";
    let setup = Setup::new(h.target);
    let file = setup.file(h);
    write(&file, original);

    setup.build(what);
    let merged = read(&file);
    assert!(merged.starts_with(original.trim_end()), "{merged:?}");
    let document = parse_object(what, &merged);
    assert!(
        document.get("hooks").is_some() && merged.contains(h.marker),
        "{merged}"
    );
    let again = setup.build(what);
    assert_eq!(
        read(&file),
        merged,
        "{what}: the second build changed the file"
    );
    assert!(
        again.stdout.contains("(0 files changed"),
        "{}",
        again.stdout
    );

    setup
        .project
        .write("policy.kdl", &format!("targets \"{}\"\n", h.target));
    setup.build(what);
    assert_eq!(
        read(&file),
        original,
        "{what}: not back to its original bytes"
    );
}
