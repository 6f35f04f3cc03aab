//! Shared helpers for the TOML files (Codex `config.toml`, Kimi Code `config.toml`).

use toml_edit::Document;

use super::{FileReport, diag};
use crate::diag::Code;
use crate::source::{SourceFile, Span};

pub(super) fn to_span(r: Option<std::ops::Range<usize>>) -> Span {
    r.map_or(Span::new(0, 0), |r| Span::new(r.start, r.end - r.start))
}

pub(super) fn parse<'a>(
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
