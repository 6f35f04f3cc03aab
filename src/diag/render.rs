//! Turning diagnostics into text for people and JSON for machines.

use std::fmt;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan};

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
    let source = diagnostic.file.as_ref().map(Snippets::new);
    render(diagnostic, source.as_ref(), style)
}

fn render(diagnostic: &Diagnostic, source: Option<&Snippets>, style: Style) -> String {
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
    let _ = handler.render_report(&mut out, &AsMiette(diagnostic, source));
    out
}

/// All diagnostics, then a one-line count.
pub fn human_all(diagnostics: &[Diagnostic], style: Style) -> String {
    let mut out = String::new();
    // One line table per file, shared by all its diagnostics.
    let mut sources: Vec<Snippets> = Vec::new();
    for d in diagnostics {
        let source = d.file.as_ref().map(|file| {
            match sources
                .iter()
                .position(|s| std::sync::Arc::ptr_eq(&s.text, &file.text))
            {
                Some(at) => at,
                None => {
                    sources.push(Snippets::new(file));
                    sources.len() - 1
                }
            }
        });
        out.push_str(&render(d, source.map(|at| &sources[at]), style));
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
struct AsMiette<'a>(&'a Diagnostic, Option<&'a Snippets>);

/// A source file for miette that finds a snippet in time proportional to the
/// snippet, not to the file: miette's own `read_span` scans from the start of
/// the file for every label, so a file with a thousand diagnostics (`hookc
/// lint` of a large settings.json) took quadratic time.
///
/// It hands miette the file from the line before the snippet's context on,
/// and shifts what miette reports back; miette counts a line break at `\n`,
/// `\r\n` and a lone `\r`, and so does the line table here.
struct Snippets {
    name: String,
    text: std::sync::Arc<str>,
    /// Where each line but the first starts.
    line_starts: Vec<usize>,
}

impl Snippets {
    fn new(file: &crate::source::SourceFile) -> Self {
        let bytes = file.text.as_bytes();
        let line_starts = bytes
            .iter()
            .enumerate()
            .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
            .map(|(i, _)| i + 1)
            .collect();
        Self {
            name: file.name.to_string(),
            text: file.text.clone(),
            line_starts,
        }
    }
}

impl miette::SourceCode for Snippets {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let line = self.line_starts.partition_point(|&s| s <= span.offset());
        // One line more than the context: miette also looks at the line
        // break just before a span (for an empty span at a line start).
        let first = line.saturating_sub(context_lines_before + 1);
        let base = first.checked_sub(1).map_or(0, |i| self.line_starts[i]);
        let window = &self.text.as_bytes()[base..];
        let inner = window.read_span(
            &(span.offset() - base, span.len()).into(),
            context_lines_before,
            context_lines_after,
        )?;
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            (inner.span().offset() + base, inner.span().len()).into(),
            inner.line() + first,
            inner.column(),
            inner.line_count() + first,
        )))
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
        self.1.map(|s| s as &dyn miette::SourceCode)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Code;
    use crate::source::{SourceFile, Span};
    use miette::NamedSource;

    /// The line table gives miette the snippets its own whole-file scan
    /// gives, with every kind of line break, near the start, middle and end.
    #[test]
    fn snippets_read_like_miettes_own_source() {
        let text = "one\ntwo\r\nthree\rfour\n\nsix six\nseven\r\n\reight\nnine";
        let file = SourceFile::new("f.json", text);
        let named = NamedSource::new("f.json", text.to_owned());
        let snippets = Snippets::new(&file);
        for start in 0..=text.len() {
            for len in [0, 1, 3, 9] {
                for (before, after) in [(0, 0), (1, 1), (2, 3)] {
                    let span: miette::SourceSpan = (start, len).into();
                    let theirs = miette::SourceCode::read_span(&named, &span, before, after);
                    let ours = miette::SourceCode::read_span(&snippets, &span, before, after);
                    let view = |c: Result<Box<dyn miette::SpanContents<'_> + '_>, _>| {
                        c.ok().map(|c| {
                            (
                                c.data().to_vec(),
                                *c.span(),
                                c.line(),
                                c.column(),
                                c.line_count(),
                                c.name().map(str::to_owned),
                            )
                        })
                    };
                    assert_eq!(view(ours), view(theirs), "{start} {len} {before} {after}");
                }
            }
        }
        let d = Diagnostic::new(Code::KdlSyntax, "bad")
            .in_file(&file)
            .label(Span::new(22, 3), "here");
        assert!(human(&d, Style::PLAIN).contains("f.json:6:2"));
    }
}
