//! Whether a harness will load a JSON file at all, for `hookc build`: a
//! file its harness rejects (comments or trailing commas where it reads
//! strict JSON) takes every hook in it down, hookc's included, so the build
//! must not merge into it and report the guards active.

use crate::ir::HarnessId;
use crate::lint::json_spans::{MERGE, dialect_of, parse, readable};
use crate::source::Span;

/// Where and why the harness of the JSON file at `path` rejects `text`,
/// when the merge would read it ([`MERGE`]: comments, trailing commas, a
/// byte order mark); `None`
/// when the harness reads it, or when no reader does (then the merge
/// reports it), or when the path is no harness file.
pub fn rejected(path: &str, text: &str) -> Option<(HarnessId, Span, String)> {
    let kind = crate::lint::classify(std::path::Path::new(path))?;
    if kind.format != crate::profile::FileFormat::HooksJson {
        return None;
    }
    let id = kind.harness;
    let dialect = dialect_of(id);
    match parse(&readable(text, dialect), dialect) {
        Err((span, why)) if parse(&readable(text, MERGE), MERGE).is_ok() => Some((id, span, why)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_rejected_where_the_harness_reads_strict_json() {
        let text = "{\n  // mine\n  \"model\": \"x\"\n}\n";
        let (id, span, _) = rejected(".claude/settings.json", text).unwrap();
        assert_eq!(id, HarnessId::Claude);
        assert_eq!(&text[span.start..span.start + 2], "//");
        assert!(rejected(".gemini/settings.json", text).is_none());
        assert!(rejected(".claude/settings.json", "{\"model\": \"x\"}").is_none());
        assert!(rejected(".gemini/settings.json", "{\"model\": \"x\",}").is_some());
        // Not JSON for anyone: the merge says so itself.
        assert!(rejected(".claude/settings.json", "{model: x}").is_none());
    }

    /// What `hookc build` does with `text` at `path`: refuse it (the
    /// harness would not read it, or the merge cannot edit it) or merge.
    fn build_refuses(path: &str, id: HarnessId, text: &str) -> bool {
        let container: &[&str] = if id == HarnessId::Antigravity {
            &["hookc"]
        } else {
            &["hooks"]
        };
        let mut desired = indexmap::IndexMap::new();
        desired.insert(
            "Stop".to_string(),
            vec![serde_json::json!({"command": "/.hookc/run"})],
        );
        let owned = |v: &serde_json::Value| v.to_string().contains("/.hookc/");
        rejected(path, text).is_some()
            || crate::merge::json::merge_entries(Some(text), container, &desired, &[], &owned)
                .is_err()
    }

    /// What `hookc lint` says of `text` at `path`: its codes.
    fn lint_codes(path: &str, id: HarnessId, text: &str) -> Vec<crate::diag::Code> {
        let file = crate::source::SourceFile::new(path, text);
        let report = crate::lint::lint_text(
            crate::lint::Kind::json(id),
            &file,
            std::path::Path::new("/nonexistent"),
        );
        report.diags.iter().map(|d| d.code).collect()
    }

    /// For every harness with a JSON hooks file, lint and the build read
    /// the same files: lint says the harness cannot parse a file exactly
    /// when the build refuses to merge into it, and a key repeated on
    /// hookc's own path is refused by both.
    #[test]
    fn lint_and_merge_accept_and_refuse_the_same_files() {
        use crate::diag::Code;
        let inputs = [
            "{}",
            "",
            " \n",
            "// c\n",
            "{/* c */}",
            "{\"a\": 1} // c",
            "{\"a\": [1,],}",
            "{\"a\": 1,}",
            "\u{feff}{}",
            "\u{feff}",
            "{\"a\": 1}\n\u{feff}",
            "{\"a\": 1, \"a\": 2}",
            "{a: 1}",
            "{'a': 1}",
            "{\"a\": 0x1}",
            "{\"a\": 1 \"b\": 2}",
            "{\"a\": .5}",
            "{\"a\": \"\\x41\"}",
            "{\"a\": 1} {",
            "{",
            "{\"a\": \"x\ty\"}",
            "{\"a\\u0001\": \"\\u0001\"}",
            "{\"a\u{1}\": 1}",
        ];
        let mut checked = 0;
        for h in crate::harness::all() {
            let Some(file) = h.profile().files.iter().find(|f| {
                f.format == crate::profile::FileFormat::HooksJson && !f.dir.contains('*')
            }) else {
                continue;
            };
            let name = file.names[0].replace('*', "x");
            let path = match file.dir {
                "" => name,
                dir => format!("{dir}/{name}"),
            };
            for text in inputs {
                let lint = lint_codes(&path, h.id(), text).contains(&Code::LintSyntax);
                let build = build_refuses(&path, h.id(), text);
                assert_eq!(
                    lint, build,
                    "{path} {text:?}: lint refuses {lint}, build {build}"
                );
                checked += 1;
            }
            let twice = "{\"hooks\": {}, \"hooks\": {}}";
            if h.id() != HarnessId::Antigravity {
                assert!(lint_codes(&path, h.id(), twice).contains(&Code::LintDuplicateKey));
                assert!(build_refuses(&path, h.id(), twice), "{path}");
            }
        }
        assert!(checked >= 8 * inputs.len(), "{checked}");
        // What the harnesses did in the oracle's runs.
        let bom = "\u{feff}{}";
        assert!(!build_refuses(
            ".claude/settings.json",
            HarnessId::Claude,
            bom
        ));
        assert!(build_refuses(".codex/hooks.json", HarnessId::Codex, bom));
        assert!(build_refuses(
            ".github/hooks/x.json",
            HarnessId::Copilot,
            "{/* c */}"
        ));
        assert!(!build_refuses(
            ".cursor/hooks.json",
            HarnessId::Cursor,
            "{/* c */}"
        ));
        assert!(build_refuses(
            ".cursor/hooks.json",
            HarnessId::Cursor,
            "{\"a\": 1,}"
        ));
    }
}
