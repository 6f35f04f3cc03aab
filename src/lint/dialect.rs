//! Whether a harness will load a JSON file at all, for `hookc build`: a
//! file its harness rejects (comments or trailing commas where it reads
//! strict JSON) takes every hook in it down, hookc's included, so the build
//! must not merge into it and report the guards active.

use crate::ir::HarnessId;
use crate::lint::json_spans::{Dialect, parse};
use crate::source::Span;

/// Where and why the harness of the JSON file at `path` rejects `text`,
/// when a lenient reader (comments, trailing commas) would take it; `None`
/// when the harness reads it, or when no reader does (then the merge
/// reports it), or when the path is no harness file.
pub fn rejected(path: &str, text: &str) -> Option<(HarnessId, Span, String)> {
    let Some(crate::lint::Kind::Json(id)) = crate::lint::classify(std::path::Path::new(path))
    else {
        return None;
    };
    let lenient = Dialect {
        comments: true,
        trailing_commas: true,
    };
    match parse(text, crate::lint::json_spans::dialect_of(id)) {
        Err((span, why)) if parse(text, lenient).is_ok() => Some((id, span, why)),
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
}
