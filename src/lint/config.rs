//! Rule levels and ignores for `hookc lint`.
//!
//! Levels come from the policy's `lint { … }` block:
//!
//! ```kdl
//! lint {
//!     allow "lint-matcher-unanchored"   // no finding
//!     warn "lint-fail-open"             // a warning
//!     deny "lint-cross-loading"         // an error: lint exits 1
//! }
//! ```
//!
//! A finding is ignored at one place by a comment on the line (or the run
//! of comment lines) right above the line it points at, in the formats that
//! have comments: `// hookc-lint: ignore lint-timeout` (JSON with comments,
//! JavaScript), `# hookc-lint: ignore lint-timeout` (TOML).

use std::collections::BTreeMap;
use std::path::Path;

use crate::ast::LintLevelDecl;
use crate::diag::{Code, Diagnostic, Diagnostics, Severity, did_you_mean};
use crate::source::{SourceFile, Span};

/// What a rule is set to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Allow,
    Warn,
    Deny,
}

/// The level of each rule the policy names; the others keep their own.
#[derive(Debug, Default, Clone)]
pub struct Levels {
    levels: BTreeMap<Code, Level>,
}

/// The marker of an ignore comment.
pub const IGNORE: &str = "hookc-lint: ignore";

/// Every code `hookc lint` can report.
pub fn lint_codes() -> Vec<&'static str> {
    Code::ALL
        .iter()
        .map(|c| c.name())
        .filter(|n| n.starts_with("lint-"))
        .collect()
}

/// The lint code `word` names (`lint-timeout` or `hookc::lint-timeout`).
fn lint_code(word: &str) -> Option<Code> {
    let name = word.strip_prefix("hookc::").unwrap_or(word);
    Code::ALL
        .iter()
        .copied()
        .find(|c| c.name() == name && name.starts_with("lint-"))
}

fn unknown(file: &SourceFile, span: Span, word: &str, severity: Severity) -> Diagnostic {
    Diagnostic::new(
        Code::UnknownLintRule,
        format!("`{word}` is not a rule of hookc lint"),
    )
    .in_file(file)
    .label(span, "no such lint rule")
    .help(unknown_help(word.strip_prefix("hookc::").unwrap_or(word)))
    .severity(severity)
}

fn unknown_help(name: &str) -> String {
    let codes = lint_codes();
    if let Some(best) = did_you_mean(name, codes.iter().copied()) {
        return format!("did you mean `{best}`?");
    }
    if name.parse::<Code>().is_ok() {
        return format!(
            "`{name}` is a diagnostic of the policy itself, which no setting silences; lint rules start with `lint-` (the book's diagnostics chapter lists them)"
        );
    }
    "lint rules start with `lint-`: `hookc explain lint-timeout` explains one, the book's diagnostics chapter lists them all".to_owned()
}

/// The levels a policy's `lint` block sets; each code that is no lint rule
/// is an error.
pub fn resolve(file: &SourceFile, decls: &[LintLevelDecl], diags: &mut Diagnostics) -> Levels {
    let mut levels = Levels::default();
    for decl in decls {
        let level = match decl.level.value.as_str() {
            "allow" => Level::Allow,
            "warn" => Level::Warn,
            _ => Level::Deny,
        };
        for word in &decl.codes {
            match lint_code(&word.value) {
                Some(code) => {
                    levels.levels.insert(code, level);
                }
                None => diags.push(unknown(file, word.span, &word.value, Severity::Error)),
            }
        }
    }
    levels
}

/// The levels of the policy at `path`. A policy that cannot be read or
/// parsed sets no level: that is said as a warning (`hookc check` tells
/// what is wrong with it); a code that is no lint rule is an error.
pub fn from_policy(path: &Path, diags: &mut Diagnostics) -> Levels {
    let text = match crate::disk::read_text(path) {
        Ok(Some(text)) => text,
        Ok(None) => return Levels::default(),
        Err(e) => {
            diags.push(
                Diagnostic::new(
                    Code::Io,
                    format!(
                        "cannot read {} for its lint levels: {e}; every rule keeps its own level",
                        path.display()
                    ),
                )
                .severity(Severity::Warning),
            );
            return Levels::default();
        }
    };
    let file = SourceFile::new(path.display().to_string(), text);
    let mut policy_diags = Diagnostics::default();
    let Some(ast) = crate::syntax::read_policy(&file, &mut policy_diags) else {
        diags.push(
            Diagnostic::new(
                Code::KdlSyntax,
                format!(
                    "{} does not parse, so its `lint` levels are not applied",
                    file.name
                ),
            )
            .help("run `hookc check` to see what is wrong with the policy")
            .severity(Severity::Warning),
        );
        return Levels::default();
    };
    // Only the `lint` block's codes concern lint; `hookc check` reports
    // the rest of the policy.
    resolve(&file, &ast.lint, diags)
}

impl Levels {
    pub fn is_empty(&self) -> bool {
        self.levels.is_empty()
    }

    /// The findings as the levels set them: `allow` drops, `warn` and `deny`
    /// set the severity.
    pub fn apply(&self, diags: Diagnostics) -> Diagnostics {
        let mut out = Diagnostics::default();
        for d in diags.into_sorted() {
            match self.levels.get(&d.code) {
                Some(Level::Allow) => {}
                Some(Level::Warn) => out.push(d.severity(Severity::Warning)),
                Some(Level::Deny) => out.push(d.severity(Severity::Error)),
                None => out.push(d),
            }
        }
        out
    }
}

/// The comment text of a whole-line comment, in a format that has them.
fn comment(line: &str, toml: bool) -> Option<&str> {
    let t = line.trim_start();
    if toml {
        t.strip_prefix('#')
    } else {
        t.strip_prefix("//").or_else(|| {
            t.strip_prefix("/*")
                .map(|c| c.trim_end().trim_end_matches("*/"))
        })
    }
}

/// Drop the findings an ignore comment above their line names; an ignore
/// comment that names no lint rule is a warning. `toml` says which comment
/// sign the file uses.
pub fn apply_ignores(file: &SourceFile, toml: bool, diags: Diagnostics) -> Diagnostics {
    let lines: Vec<&str> = file.text.split('\n').collect();
    // For each line, the codes the comments right above it ignore.
    let mut ignored: BTreeMap<usize, Vec<Code>> = BTreeMap::new();
    let mut out = Diagnostics::default();
    let mut pending: Vec<Code> = Vec::new();
    let mut offset = 0;
    for (i, line) in lines.iter().enumerate() {
        match comment(line, toml) {
            Some(text) => {
                if let Some(at) = text.find(IGNORE) {
                    let rest = &text[at + IGNORE.len()..];
                    let rest_start = offset + (line.len() - text.len()) + at + IGNORE.len();
                    let mut pos = 0;
                    for word in rest.split(|c: char| c.is_whitespace() || c == ',') {
                        let start = pos;
                        pos += word.len() + 1;
                        if word.is_empty() {
                            continue;
                        }
                        match lint_code(word) {
                            Some(code) => pending.push(code),
                            None => out.push(unknown(
                                file,
                                Span::new(rest_start + start, word.len()),
                                word,
                                Severity::Warning,
                            )),
                        }
                    }
                }
            }
            None => {
                if !pending.is_empty() {
                    ignored.insert(i + 1, std::mem::take(&mut pending));
                }
            }
        }
        offset += line.len() + 1;
    }
    for d in diags.into_sorted() {
        let line = d
            .labels
            .first()
            .zip(d.file.as_ref())
            .map(|(l, f)| f.line_col(l.span.start).0);
        let skip = line
            .and_then(|l| ignored.get(&l))
            .is_some_and(|codes| codes.contains(&d.code));
        if !skip {
            out.push(d);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(file: &SourceFile, at: &str, code: Code) -> Diagnostic {
        let start = file.text.find(at).unwrap();
        Diagnostic::new(code, "x")
            .in_file(file)
            .label(Span::new(start, at.len()), "here")
    }

    #[test]
    fn an_ignore_comment_drops_only_the_named_finding_on_the_next_line() {
        let file = SourceFile::new(
            "c.toml",
            "[[hooks]]\n# hookc-lint: ignore lint-timeout, lint-nope\ntimeout = 6000\nx = 1\n",
        );
        let mut diags = Diagnostics::default();
        diags.push(finding(&file, "timeout = 6000", Code::LintTimeout));
        diags.push(finding(&file, "timeout = 6000", Code::LintFailOpen));
        diags.push(finding(&file, "x = 1", Code::LintTimeout));
        let left: Vec<(Code, usize)> = apply_ignores(&file, true, diags)
            .into_sorted()
            .into_iter()
            .map(|d| (d.code, file.line_col(d.labels[0].span.start).0))
            .collect();
        assert_eq!(
            left,
            vec![
                (Code::UnknownLintRule, 2),
                (Code::LintFailOpen, 3),
                (Code::LintTimeout, 4)
            ]
        );
    }

    #[test]
    fn levels_allow_warn_and_deny() {
        let file = SourceFile::new(
            "policy.kdl",
            "lint {\n    allow \"lint-timeout\"\n    deny \"hookc::lint-cross-loading\"\n    warn \"lint-matcher-case\" \"lint-nope\"\n}\n",
        );
        let mut diags = Diagnostics::default();
        let ast = crate::syntax::read_policy(&file, &mut diags).unwrap();
        let levels = resolve(&file, &ast.lint, &mut diags);
        let unknown: Vec<String> = diags
            .into_sorted()
            .iter()
            .map(|d| d.message.clone())
            .collect();
        assert_eq!(unknown, vec!["`lint-nope` is not a rule of hookc lint"]);
        let mut found = Diagnostics::default();
        found.push(Diagnostic::new(Code::LintTimeout, "t"));
        found.push(Diagnostic::new(Code::LintCrossLoading, "c"));
        found.push(Diagnostic::new(Code::LintMatcherCase, "m"));
        found.push(Diagnostic::new(Code::LintFailOpen, "f"));
        let out: Vec<(Code, Severity)> = levels
            .apply(found)
            .into_sorted()
            .into_iter()
            .map(|d| (d.code, d.severity))
            .collect();
        assert!(out.contains(&(Code::LintCrossLoading, Severity::Error)));
        assert!(out.contains(&(Code::LintMatcherCase, Severity::Warning)));
        assert!(out.contains(&(Code::LintFailOpen, Severity::Warning)));
        assert_eq!(out.len(), 3);
    }
}
