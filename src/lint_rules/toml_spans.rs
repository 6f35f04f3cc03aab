//! Span-keeping TOML reading for `hookc lint` (a harness's `config.toml`).

use toml_edit::Document;

use super::{FileReport, diag};
use crate::diag::Code;
use crate::source::{SourceFile, Span};

/// A `toml_edit` byte range as a span (empty at the start when it has none).
pub fn to_span(r: Option<std::ops::Range<usize>>) -> Span {
    r.map_or(Span::new(0, 0), |r| Span::new(r.start, r.end - r.start))
}

/// The document in `file`, or a `lint-syntax` finding saying why `who`
/// cannot read it.
pub fn parse<'a>(
    file: &'a SourceFile,
    who: &str,
    report: &mut FileReport,
) -> Option<Document<&'a str>> {
    match Document::parse(&*file.text) {
        Ok(d) => Some(d),
        Err(e) => {
            report.diags.push(diag(
                Code::LintSyntax,
                file,
                to_span(e.span()),
                format!("{who} cannot parse this file: {}", e.message()),
                "here",
            ));
            None
        }
    }
}
