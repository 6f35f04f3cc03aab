//! Merging hookc's entries into harness configuration files that people also edit by hand.
//!
//! hookc owns a few entries in files like `.claude/settings.json` or Kimi's `config.toml`,
//! and nothing else in them. Both mergers here therefore work on the *text*: they parse the
//! file only to learn where things are, then splice hookc's entries in or out and leave every
//! other byte (comments, key order, spacing, CRLF, a BOM, a missing final newline) exactly as
//! it was. Insertion and removal are written as inverses of each other, so that
//!
//! * merging twice is merging once, and merging an up-to-date file returns it byte for byte;
//! * removing hookc's entries (an empty `desired`) restores the file as it was before hookc
//!   added them. What the file alone cannot tell (whether an empty `"hooks": {}` or `[ ]` was
//!   the user's, and what was inside it; whether hookc created the file) comes from a
//!   [`Shape`] record that the plan keeps in the manifest.
//!
//! Inserted lines use the file's own line break (that of its first line: CRLF stays CRLF)
//! and its indentation unit.
//!
//! A file that does not parse is never touched: the merge fails with a [`MergeError`] that
//! says where the file is broken.

pub mod json;
pub mod toml;

/// A failure to merge: the existing file could not be parsed or has the wrong shape at the container.
///
/// The file is left untouched whenever this is returned.
#[derive(Debug, Clone, PartialEq)]
pub struct MergeError {
    /// What is wrong, including the line and column (1-based) of `offset`.
    pub message: String,
    /// Byte offset in the existing text where it failed (a BOM counts as its three bytes).
    pub offset: usize,
    /// What the user can do about it.
    pub help: String,
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MergeError {}

/// What a merge produced.
#[derive(Debug, Clone, PartialEq)]
pub enum Merged {
    /// The new contents of the file (identical to the input when nothing had to change).
    Text(String),
    /// nothing left but what hookc had created: the caller may delete the file
    Empty,
}

/// What hookc added to a merged file besides its entries: the file itself, objects and arrays
/// that were not there, and what was inside the user's empty ones before hookc filled them.
///
/// A file alone cannot say whether `"hooks": {}` or `"PreToolUse": []` is the user's or was
/// left by hookc, nor whether `[ ]` held a space; so the plan keeps this record in
/// `.hookc/manifest.json`, passes it to each merge and stores what the merge returns.
/// Retraction then takes away exactly what hookc added, and the file is back to its original
/// bytes. Without a record (a manifest from an older hookc) the mergers fall back to removing
/// whatever holds nothing but hookc's entries.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shape {
    /// hookc created the file, so it may delete it when nothing else is left.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub file: bool,
    /// Members hookc created, as JSON pointers (`/hooks/PreToolUse`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub created: Vec<String>,
    /// The user's empty objects and arrays that hookc put entries in, with the whitespace
    /// that was between their brackets.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub emptied: std::collections::BTreeMap<String, String>,
    /// The file held no document (only comments or whitespace) when hookc wrote its own
    /// after that text: the text, given back when hookc's document holds nothing else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
}

/// The JSON pointer (RFC 6901) of a member path: `""` for the root.
pub(crate) fn pointer<S: AsRef<str>>(path: &[S]) -> String {
    path.iter()
        .map(|s| format!("/{}", s.as_ref().replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// The UTF-8 byte order mark. Harness files written by some Windows editors start with it;
/// the parsers below do not want it, so it is split off first and put back on output.
pub(crate) const BOM: &str = "\u{feff}";

/// Splits a leading BOM off `text`: returns the BOM (or `""`) and the rest.
pub(crate) fn split_bom(text: &str) -> (&'static str, &str) {
    match text.strip_prefix(BOM) {
        Some(rest) => (BOM, rest),
        None => ("", text),
    }
}

/// The newline a file uses, judged by its first line break (LF when it has none), so that
/// inserted lines match the lines around them.
pub(crate) fn newline_of(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

pub(crate) use crate::source::line_col;

/// Builds a [`MergeError`] at `offset` of `text`, naming the line and column in the message.
pub(crate) fn error_at(
    text: &str,
    offset: usize,
    what: impl std::fmt::Display,
    help: impl Into<String>,
) -> MergeError {
    let (line, column) = line_col(text, offset);
    MergeError {
        message: format!("{what} (line {line}, column {column})"),
        offset,
        help: help.into(),
    }
}

/// One text edit: replace `start..end` of the original with `text` (an insertion when the
/// range is empty, a deletion when `text` is empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edit {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

impl Edit {
    pub fn delete(start: usize, end: usize) -> Self {
        Edit {
            start,
            end,
            text: String::new(),
        }
    }

    pub fn insert(at: usize, text: impl Into<String>) -> Self {
        Edit {
            start: at,
            end: at,
            text: text.into(),
        }
    }
}

/// Applies `edits` to `text`. Edits are ordered by start, keeping the given order among
/// edits that start at the same place (so a comma inserted before an element stays before
/// it). Overlapping deletions are merged: deleting a member and, separately, something
/// inside it deletes the member once.
pub(crate) fn apply_edits(text: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|e| e.start); // stable
    let mut out =
        String::with_capacity(text.len() + edits.iter().map(|e| e.text.len()).sum::<usize>());
    let mut cursor = 0;
    for edit in edits {
        if edit.start >= cursor {
            out.push_str(&text[cursor..edit.start]);
            out.push_str(&edit.text);
            cursor = edit.end;
        } else {
            // Starts inside an earlier deletion (only deletions overlap): only what reaches
            // beyond it still applies.
            debug_assert!(edit.text.is_empty(), "an insertion inside a deletion");
            cursor = cursor.max(edit.end);
        }
    }
    out.push_str(&text[cursor..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_lines_and_chars() {
        let text = "\u{feff}ab\r\ncé\nx";
        assert_eq!(line_col(text, 3), (1, 1));
        assert_eq!(line_col(text, 5), (1, 3));
        assert_eq!(line_col(text, 7), (2, 1));
        assert_eq!(line_col(text, 10), (2, 3));
        assert_eq!(line_col(text, 11), (3, 1));
    }

    #[test]
    fn edits_apply_in_order_and_merge_overlaps() {
        let text = "0123456789";
        let edits = vec![
            Edit::insert(2, "a"),
            Edit::delete(4, 8),
            Edit::delete(5, 6),
            Edit::insert(2, "b"),
        ];
        assert_eq!(apply_edits(text, edits), "01ab2389");
    }

    #[test]
    fn pointers_escape_slash_and_tilde() {
        assert_eq!(pointer::<&str>(&[]), "");
        assert_eq!(pointer(&["hooks", "a/b~c"]), "/hooks/a~1b~0c");
    }

    #[test]
    fn newline_kind() {
        assert_eq!(newline_of("a\r\nb\n"), "\r\n");
        assert_eq!(newline_of("a\nb\r\n"), "\n");
        assert_eq!(newline_of("ab"), "\n");
    }
}
