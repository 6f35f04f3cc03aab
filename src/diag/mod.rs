//! Diagnostics as data.
//!
//! Stages push [`Diagnostic`]s into a [`Diagnostics`] sink and carry on, so a
//! user sees every problem of a run at once. Rendering is a separate step
//! ([`render`]), so the same data can become terminal output, JSON or (for
//! lint) SARIF.

mod code;
pub mod render;

pub use code::Code;

use crate::source::{SourceFile, Span};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

/// A labelled span in the diagnostic's file.
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    pub span: Span,
    pub text: String,
}

/// One problem, with where it is and what to do about it.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    /// The file the labels point into; `None` for problems that are not in a file.
    pub file: Option<SourceFile>,
    pub labels: Vec<Label>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Self {
            code,
            severity: code.default_severity(),
            message: message.into(),
            file: None,
            labels: Vec::new(),
            help: None,
        }
    }

    pub fn in_file(mut self, file: &SourceFile) -> Self {
        self.file = Some(file.clone());
        self
    }

    pub fn label(mut self, span: Span, text: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            text: text.into(),
        });
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The collector every stage writes into.
#[derive(Debug, Default)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.items.push(diagnostic);
    }

    pub fn extend(&mut self, other: Diagnostics) {
        self.items.extend(other.items);
    }

    pub fn has_errors(&self) -> bool {
        self.items.iter().any(Diagnostic::is_error)
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter()
    }

    pub fn error_count(&self) -> usize {
        self.items.iter().filter(|d| d.is_error()).count()
    }

    pub fn warning_count(&self) -> usize {
        self.items.len() - self.error_count()
    }

    /// In source order, so output reads top to bottom like the file.
    pub fn into_sorted(mut self) -> Vec<Diagnostic> {
        self.items.sort_by_key(|d| {
            (
                d.file.as_ref().map(|f| f.name.to_string()),
                d.labels.first().map(|l| l.span.start),
            )
        });
        self.items
    }
}

/// The closest name to `wrong` among `candidates`, if any is close enough to be a typo.
pub fn did_you_mean<'a>(
    wrong: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let wrong_lower = wrong.to_ascii_lowercase();
    candidates
        .into_iter()
        .map(|c| {
            (
                strsim::jaro_winkler(&wrong_lower, &c.to_ascii_lowercase()),
                c,
            )
        })
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// "did you mean `x`?" or a list of the valid names.
pub fn suggest(wrong: &str, candidates: &[&str]) -> String {
    match did_you_mean(wrong, candidates.iter().copied()) {
        Some(best) => format!("did you mean `{best}`?"),
        None => format!(
            "expected one of {}",
            candidates
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_and_lists_far_ones() {
        assert_eq!(suggest("shel", &["shell", "read"]), "did you mean `shell`?");
        assert_eq!(
            suggest("PreToolUse", &["pre-tool", "post-tool"]),
            "did you mean `pre-tool`?"
        );
        assert_eq!(
            suggest("zzz", &["shell", "read"]),
            "expected one of `shell`, `read`"
        );
    }
}
