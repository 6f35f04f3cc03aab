//! `hookc lint`: check hook configs people wrote by hand, for every harness.
//!
//! Files are read with span-keeping parsers (`jsonc_parser`'s AST, `toml_edit`'s
//! document), so every finding points at a line and column. The facts come from
//! each harness's [`Profile`](crate::harness::Profile) plus [`spec`].

mod antigravity;
mod claude;
mod codex;
pub mod config;
mod copilot;
mod cursor;
pub mod dialect;
mod ecmascript;
mod gemini;
mod json_rules;
pub mod json_spans;
mod kimi;
mod matchers;
mod opencode;
mod other;
pub mod sarif;
mod scripts;
pub mod spec;

use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::HarnessId;
use crate::source::{SourceFile, Span};

/// One byte-preserving edit `--fix` can apply.
#[derive(Debug, Clone)]
pub struct Edit {
    pub span: Span,
    pub text: String,
}

/// What linting one file found.
#[derive(Debug, Default)]
pub struct FileReport {
    pub diags: Diagnostics,
    pub edits: Vec<Edit>,
}

/// The kind of harness file, from its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Json(HarnessId),
    CodexConfig,
    Kimi,
    Opencode,
}

/// Which harness file a path is, by the harness's conventions.
pub fn classify(path: &Path) -> Option<Kind> {
    let s = path.to_string_lossy().replace('\\', "/");
    let name = path.file_name()?.to_string_lossy().to_string();
    let parent = path
        .parent()
        .and_then(|p| p.file_name())
        .map(|p| p.to_string_lossy().to_string())
        .unwrap_or_default();
    let grand = path
        .parent()
        .and_then(Path::parent)
        .and_then(|p| p.file_name())
        .map(|p| p.to_string_lossy().to_string())
        .unwrap_or_default();
    Some(match (parent.as_str(), name.as_str()) {
        (".claude", n) if n.starts_with("settings") && n.ends_with(".json") => {
            Kind::Json(HarnessId::Claude)
        }
        (".codex", "hooks.json") => Kind::Json(HarnessId::Codex),
        (".codex", "config.toml") => Kind::CodexConfig,
        (".cursor", "hooks.json") => Kind::Json(HarnessId::Cursor),
        (".gemini", "settings.json") => Kind::Json(HarnessId::Gemini),
        (".agents", "hooks.json") => Kind::Json(HarnessId::Antigravity),
        ("hooks", n) if grand == ".github" && n.ends_with(".json") => {
            Kind::Json(HarnessId::Copilot)
        }
        (p, n) if p.starts_with(".kimi") && n.ends_with(".toml") => Kind::Kimi,
        (p, n)
            if p.starts_with("plugin")
                && grand == ".opencode"
                && [".js", ".mjs", ".ts"].iter().any(|e| n.ends_with(e)) =>
        {
            Kind::Opencode
        }
        _ if s.ends_with("kimi-code/config.toml") => Kind::Kimi,
        _ => return None,
    })
}

/// A file given by path that [`classify`] does not know by its name: a TOML
/// file with Kimi Code's `[[hooks]]` tables is a Kimi config, wherever it
/// is (`$KIMI_CODE_HOME` can be any folder).
pub fn classify_content(path: &Path, text: &str) -> Option<Kind> {
    let toml = path.extension().is_some_and(|e| e == "toml");
    (toml && text.lines().any(|l| l.trim() == "[[hooks]]")).then_some(Kind::Kimi)
}

/// The harness files under a project root.
pub fn discover(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut push_dir = |dir: &str, pred: &dyn Fn(&str) -> bool| {
        if let Ok(entries) = std::fs::read_dir(root.join(dir)) {
            let mut names: Vec<PathBuf> = entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| !p.is_dir())
                .filter(|p| pred(&p.file_name().unwrap_or_default().to_string_lossy()))
                .collect();
            names.sort();
            found.extend(names);
        }
    };
    push_dir(".claude", &|n| {
        n.starts_with("settings") && n.ends_with(".json")
    });
    push_dir(".codex", &|n| n == "hooks.json" || n == "config.toml");
    push_dir(".cursor", &|n| n == "hooks.json");
    push_dir(".gemini", &|n| n == "settings.json");
    push_dir(".github/hooks", &|n| n.ends_with(".json"));
    push_dir(".agents", &|n| n == "hooks.json");
    if let Ok(entries) = std::fs::read_dir(root) {
        let mut kimi: Vec<_> = entries
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(".kimi"))
            .map(|e| e.file_name().to_string_lossy().to_string())
            .collect();
        kimi.sort();
        for dir in kimi {
            push_dir(&dir, &|n| n == "config.toml");
        }
    }
    for dir in [".opencode/plugin", ".opencode/plugins"] {
        push_dir(dir, &|n| {
            [".js", ".mjs", ".ts"].iter().any(|e| n.ends_with(e))
        });
    }
    found
}

/// Lint one file's text. `root` is the project the file belongs to (guard
/// scripts are resolved against it).
pub fn lint_text(kind: Kind, file: &SourceFile, root: &Path) -> FileReport {
    let mut report = FileReport::default();
    match kind {
        Kind::Json(id) => json_rules::lint(id, file, root, &mut report),
        Kind::CodexConfig => codex::lint_config(file, &mut report),
        Kind::Kimi => kimi::lint(file, root, &mut report),
        Kind::Opencode => opencode::lint(file, &mut report),
    }
    report
}

/// The project root of a harness file: the folder above `.claude/`, `.github/hooks/`, …
pub fn root_of(path: &Path) -> PathBuf {
    let mut p = path.parent().unwrap_or(Path::new("."));
    let levels = if p.ends_with(".github/hooks")
        || p.ends_with(".opencode/plugin")
        || p.ends_with(".opencode/plugins")
    {
        2
    } else {
        1
    };
    for _ in 0..levels {
        p = p.parent().unwrap_or(Path::new("."));
    }
    if p.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        p.to_path_buf()
    }
}

/// Apply edits to a text, last first so earlier offsets stay valid. Of two
/// edits that overlap (one inside a property another deletes or moves) or
/// start at the same byte, only the first (outer) one is applied; the other
/// is found again by linting the result.
pub fn apply_edits(text: &str, edits: &[Edit]) -> String {
    let mut edits = edits.to_vec();
    edits.sort_by_key(|e| (e.span.start, std::cmp::Reverse(e.span.len)));
    let mut kept: Vec<Edit> = Vec::new();
    for e in edits {
        let clear = kept
            .last()
            .is_none_or(|k| e.span.start > k.span.start && e.span.start >= k.span.range().end);
        if clear {
            kept.push(e);
        }
    }
    let mut out = text.to_owned();
    for e in kept.into_iter().rev() {
        out.replace_range(e.span.range(), &e.text);
    }
    out
}

pub(crate) fn diag(
    code: crate::diag::Code,
    file: &SourceFile,
    span: Span,
    message: impl Into<String>,
    label: impl Into<String>,
) -> Diagnostic {
    Diagnostic::new(code, message)
        .in_file(file)
        .label(span, label)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_classified_by_harness_convention() {
        let k = |p: &str| classify(Path::new(p));
        assert_eq!(
            k("a/.claude/settings.local.json"),
            Some(Kind::Json(HarnessId::Claude))
        );
        assert_eq!(
            k(".github/hooks/x.json"),
            Some(Kind::Json(HarnessId::Copilot))
        );
        assert_eq!(k(".codex/config.toml"), Some(Kind::CodexConfig));
        assert_eq!(k(".kimi/config.toml"), Some(Kind::Kimi));
        assert_eq!(k(".opencode/plugins/p.ts"), Some(Kind::Opencode));
        assert_eq!(
            k(".agents/hooks.json"),
            Some(Kind::Json(HarnessId::Antigravity))
        );
        assert_eq!(k("package.json"), None);
        assert_eq!(
            root_of(Path::new("r/.github/hooks/x.json")),
            PathBuf::from("r")
        );
        assert_eq!(
            root_of(Path::new(".claude/settings.json")),
            PathBuf::from(".")
        );
    }

    #[test]
    fn edits_apply_last_first_and_keep_every_other_byte() {
        let text = "{ \"a\": 1, \"b\": 2 }";
        let edits = [
            Edit {
                span: Span::new(2, 3),
                text: "\"A\"".into(),
            },
            Edit {
                span: Span::new(16, 0),
                text: ", \"c\": 3".into(),
            },
        ];
        assert_eq!(
            apply_edits(text, &edits),
            "{ \"A\": 1, \"b\": 2, \"c\": 3 }"
        );
    }
}
