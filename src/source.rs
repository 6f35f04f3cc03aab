//! Source files and byte spans.
//!
//! Every diagnostic points into a [`SourceFile`] with a byte [`Span`]. Keeping
//! the text behind an `Arc` lets diagnostics outlive the stage that made them
//! without copying the policy around.

use std::ops::Range;
use std::sync::Arc;

/// A file hookc read and may point into: `policy.kdl`, or a harness config.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The name shown to the user (the path as given on the command line).
    pub name: Arc<str>,
    /// The whole text.
    pub text: Arc<str>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            name: Arc::from(name.into()),
            text: Arc::from(text.into()),
        }
    }

    /// 1-based line and column (in characters) of a byte offset (see [`line_col`]).
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        line_col(&self.text, offset)
    }
}

/// 1-based line and column of byte `offset` in `text`, as an editor shows
/// them: the column counts characters, and neither a leading BOM nor a
/// carriage return is counted, as editors do not show them. An offset
/// inside a character rounds down to its start.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(text, offset);
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..]
        .chars()
        .filter(|&c| c != '\u{feff}' && c != '\r')
        .count()
        + 1;
    (line, column)
}

/// A byte range in one source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub len: usize,
}

impl Span {
    pub fn new(start: usize, len: usize) -> Self {
        Self { start, len }
    }

    pub fn range(self) -> Range<usize> {
        self.start..self.start + self.len
    }

    /// A sub-span, `offset` bytes into this one.
    pub fn sub(self, offset: usize, len: usize) -> Self {
        Self::new(self.start + offset, len)
    }
}

impl From<miette::SourceSpan> for Span {
    fn from(span: miette::SourceSpan) -> Self {
        Self::new(span.offset(), span.len())
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(span: Span) -> Self {
        (span.start, span.len).into()
    }
}

/// A value together with where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(value: T, span: Span) -> Self {
        Self { value, span }
    }
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters_not_bytes() {
        let file = SourceFile::new("p.kdl", "a\nét x\n");
        assert_eq!(file.line_col(0), (1, 1));
        assert_eq!(file.line_col(2), (2, 1));
        // "é" is two bytes; "x" is the fourth character of line 2.
        assert_eq!(file.line_col(6), (2, 4));
        // An offset inside a multi-byte character rounds down.
        assert_eq!(file.line_col(3), (2, 1));
    }
}
