//! Regex checking: compile as `hookc guard` will, and when that fails, parse
//! with `regex-syntax` to point at the error inside the string.
//!
//! Guards run regexes with Rust's linear-time engine inside `hookc guard`, never
//! in a harness's own (backtracking) engine, so the accepted subset is simply
//! what `regex` supports. Look-around and back-references are rejected by the
//! parser itself, with a message saying so. A pattern can also parse and still
//! not compile, when it grows past the engine's size limit (`(?:\w{500}){8}`).

use regex_syntax::ast::parse::Parser;

use crate::source::Span;

/// A regex error with the span of the offending part, relative to the pattern.
#[derive(Debug, PartialEq)]
pub struct RegexError {
    pub message: String,
    pub offset: usize,
    pub len: usize,
    /// How to fix it, where the caller's usual advice does not apply.
    pub help: Option<&'static str>,
}

/// The pattern compiled, as `hookc guard` compiles it.
///
/// `regex` parses with `regex-syntax` and the same settings, but its errors
/// carry no span. So the pattern is compiled first, and parsed again only to
/// point at what is wrong. Parsing it first as well cost a sixth of the time
/// of checking a regex that compiles.
pub fn check(pattern: &str) -> Result<regex::Regex, RegexError> {
    crate::eval::compile_regex(pattern).map_err(|error| {
        locate(pattern).err().unwrap_or_else(|| match error {
            regex::Error::CompiledTooBig(limit) => RegexError {
                message: format!(
                    "the regex compiles to more than the {} MiB hookc allows",
                    limit >> 20
                ),
                offset: 0,
                len: pattern.len().max(1),
                help: Some(
                    "make it smaller: fewer or shorter counted repetitions (`{500}`), and ASCII classes such as `[A-Za-z0-9_]` instead of Unicode `\\w`",
                ),
            },
            other => RegexError {
                message: other.to_string(),
                offset: 0,
                len: pattern.len().max(1),
                help: None,
            },
        })
    })
}

/// Parse and translate the pattern, for the span of a syntax error.
fn locate(pattern: &str) -> Result<(), RegexError> {
    let ast = Parser::new().parse(pattern).map_err(|e| RegexError {
        message: e.kind().to_string(),
        offset: e.span().start.offset,
        len: (e.span().end.offset - e.span().start.offset).max(1),
        help: None,
    })?;
    regex_syntax::hir::translate::Translator::new()
        .translate(pattern, &ast)
        .map_err(|e| RegexError {
            message: e.kind().to_string(),
            offset: e.span().start.offset,
            len: (e.span().end.offset - e.span().start.offset).max(1),
            help: None,
        })?;
    Ok(())
}

/// Literals of which at least one starts every match of `pattern` (so occurs
/// in any text it matches), or `None` when no such finite set is known.
pub fn required_literals(pattern: &str) -> Option<Vec<String>> {
    use regex_syntax::hir::literal::{ExtractKind, Extractor};
    let hir = regex_syntax::Parser::new().parse(pattern).ok()?;
    let mut extractor = Extractor::new();
    extractor.kind(ExtractKind::Prefix);
    let mut seq = extractor.extract(&hir);
    // Keep the set small: `secret-[0-9]` needs only `secret-`, not ten literals.
    // Shortening a required prefix keeps it required.
    seq.optimize_for_prefix_by_preference();
    let literals = seq.literals()?;
    let out: Option<Vec<String>> = literals
        .iter()
        .map(|l| {
            String::from_utf8(l.as_bytes().to_vec())
                .ok()
                .filter(|s| !s.is_empty())
        })
        .collect();
    out.filter(|v| !v.is_empty())
}

/// Map an error inside the pattern to a span in the file: exactly when the
/// pattern's first character position is known (raw strings), else the whole value.
pub fn error_span(error: &RegexError, value: Span, inner: Option<usize>) -> Span {
    match inner {
        Some(start) => Span::new(start + error.offset, error.len),
        None => value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_ordinary_patterns() {
        assert!(check(r"git\s+push\s+(-f|--force)\b").is_ok());
    }

    #[test]
    fn a_pattern_too_big_to_compile_is_an_error() {
        // It parses: only compiling it shows the problem.
        let error = check(r"^(?:\w{500}){8}$").unwrap_err();
        assert!(error.message.contains("MiB hookc allows"), "{error:?}");
        // Within the engine's own default, not within hookc's: every call
        // would pay for it.
        assert!(regex::Regex::new(r"\w{200}").is_ok());
        assert!(check(r"\w{200}").is_err());
        assert!(check(r"[A-Za-z0-9_]{200}").is_ok());
    }

    #[test]
    fn points_at_the_unclosed_group() {
        let error = check(r"ab(cd").unwrap_err();
        assert_eq!(error.offset, 2);
        assert!(
            error.message.contains("unclosed group"),
            "{}",
            error.message
        );
    }

    #[test]
    fn rejects_look_around_with_a_reason() {
        let error = check(r"foo(?=bar)").unwrap_err();
        assert_eq!(error.offset, 3);
        assert!(error.message.contains("look-around"), "{}", error.message);
    }

    #[test]
    fn finds_the_literals_every_match_starts_with() {
        assert_eq!(
            required_literals(r"secret-\d+"),
            Some(vec!["secret-".to_owned()])
        );
        let git = required_literals(r"git\s+(push|pull)").unwrap();
        assert!(git.iter().all(|l| l.starts_with("git")), "{git:?}");
        assert_eq!(required_literals(r".*foo"), None);
        assert_eq!(required_literals(r"a?"), None);
    }

    #[test]
    fn rejects_back_references() {
        let error = check(r"(a)\1").unwrap_err();
        assert!(
            error.message.contains("backreferences"),
            "{}",
            error.message
        );
    }
}
