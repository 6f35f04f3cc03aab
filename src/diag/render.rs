//! Turning diagnostics into text for people and JSON for machines.

use std::fmt;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource};

use super::{Diagnostic, Severity};

/// How diagnostics are drawn on a terminal.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    pub color: bool,
    pub unicode: bool,
    pub width: usize,
}

impl Style {
    /// The fixed style of golden files: no colour, unicode, 80 columns.
    pub const PLAIN: Style = Style {
        color: false,
        unicode: true,
        width: 80,
    };
}

/// Render one diagnostic the way `hookc` prints it.
pub fn human(diagnostic: &Diagnostic, style: Style) -> String {
    let theme = match (style.color, style.unicode) {
        (true, true) => GraphicalTheme::unicode(),
        (true, false) => GraphicalTheme::ascii(),
        (false, true) => GraphicalTheme::unicode_nocolor(),
        (false, false) => GraphicalTheme::none(),
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_links(false);
    let mut out = String::new();
    // Rendering into a String cannot fail for reasons other than a bug in miette.
    let _ = handler.render_report(&mut out, &AsMiette::new(diagnostic));
    out
}

/// All diagnostics, then a one-line count.
pub fn human_all(diagnostics: &[Diagnostic], style: Style) -> String {
    let mut out = String::new();
    for d in diagnostics {
        out.push_str(&human(d, style));
    }
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = diagnostics.len() - errors;
    if !diagnostics.is_empty() {
        out.push_str(&format!(
            "{} error{}, {} warning{}\n",
            errors,
            if errors == 1 { "" } else { "s" },
            warnings,
            if warnings == 1 { "" } else { "s" },
        ));
    }
    out
}

/// The JSON shape of a diagnostic in `--format json` output (part of schema version 1).
pub fn json(diagnostic: &Diagnostic) -> serde_json::Value {
    let labels: Vec<_> = diagnostic
        .labels
        .iter()
        .map(|l| {
            let (line, column) = diagnostic
                .file
                .as_ref()
                .map_or((0, 0), |f| f.line_col(l.span.start));
            serde_json::json!({
                "offset": l.span.start,
                "length": l.span.len,
                "line": line,
                "column": column,
                "text": l.text,
            })
        })
        .collect();
    serde_json::json!({
        "code": diagnostic.code.to_string(),
        "severity": diagnostic.severity,
        "message": diagnostic.message,
        "file": diagnostic.file.as_ref().map(|f| f.name.to_string()),
        "labels": labels,
        "help": diagnostic.help,
    })
}

/// Adapter so miette's renderer can draw our data; the named source makes
/// miette print `file:line:col` above the snippet.
struct AsMiette<'a>(&'a Diagnostic, Option<NamedSource<String>>);

impl<'a> AsMiette<'a> {
    fn new(d: &'a Diagnostic) -> Self {
        let source = d
            .file
            .as_ref()
            .map(|f| NamedSource::new(&f.name, f.text.to_string()));
        Self(d, source)
    }
}

impl fmt::Debug for AsMiette<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

impl fmt::Display for AsMiette<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for AsMiette<'_> {}

impl miette::Diagnostic for AsMiette<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.0.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.0.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.0
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.1.as_ref().map(|s| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.0.file.is_none() || self.0.labels.is_empty() {
            return None;
        }
        Some(Box::new(self.0.labels.iter().enumerate().map(|(i, l)| {
            let text = (!l.text.is_empty()).then(|| l.text.clone());
            if i == 0 {
                LabeledSpan::new_primary_with_span(text, l.span)
            } else {
                LabeledSpan::new_with_span(text, l.span)
            }
        })))
    }
}
