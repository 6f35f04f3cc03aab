//! KDL 2.0 parsing, with a hint when the text looks like KDL 1.
//!
//! Plain documents take the fast reader; the rest, and every error, the kdl
//! crate (see [`fast`](super::fast)).

use kdl::KdlDocument;

use super::fast;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::source::{SourceFile, Span};

pub fn parse(file: &SourceFile, diagnostics: &mut Diagnostics) -> Option<KdlDocument> {
    if let Some(document) = fast::parse(&file.text) {
        return Some(document);
    }
    match file.text.parse::<KdlDocument>() {
        Ok(document) => Some(document),
        Err(error) => {
            let v1_hint = looks_like_kdl_v1(&file.text);
            for d in error.diagnostics {
                let span = Span::from(d.span);
                let message = d
                    .message
                    .clone()
                    .unwrap_or_else(|| "invalid KDL".to_owned());
                let mut diagnostic = Diagnostic::new(Code::KdlSyntax, message)
                    .in_file(file)
                    .label(span, d.label.clone().unwrap_or_default());
                let help = match (&d.help, &v1_hint) {
                    (_, Some(hint)) => Some(hint.clone()),
                    _ if bad_escape(&file.text, span.start).is_some() => {
                        bad_escape(&file.text, span.start)
                    }
                    (Some(help), None) => Some(help.clone()),
                    (None, None) => None,
                };
                if let Some(help) = help {
                    diagnostic = diagnostic.help(help);
                }
                diagnostics.push(diagnostic);
            }
            None
        }
    }
}

/// The help for a quoted string holding a backslash escape KDL does not
/// have (`"\d+"`, usually a regex): write it raw, with the fix spelt out.
fn bad_escape(text: &str, at: usize) -> Option<String> {
    // The error's span may cover only the start of the string: read the
    // whole string from there, to its closing quote on the same line.
    let rest = text.get(at..)?.strip_prefix('"')?;
    let line = rest.split('\n').next().unwrap_or(rest);
    let mut end = line.len();
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    let inner = &line[..end];
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            continue;
        }
        match chars.next() {
            Some('n' | 'r' | 't' | '\\' | '"' | 'b' | 'f' | 's' | 'u') => {}
            Some(c) if c.is_whitespace() => {}
            Some(c) => {
                return Some(format!(
                    "`\\{c}` is not an escape in a quoted KDL string; for a regex or any text with backslashes, write a raw string, where they stay as written: `{}`",
                    super::raw_string(inner)
                ));
            }
            None => return None,
        }
    }
    None
}

/// KDL 1 tell-tales: bare keywords and `r"…"` raw strings.
fn looks_like_kdl_v1(text: &str) -> Option<String> {
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        for word in code.split(|c: char| c.is_whitespace() || c == '=' || c == ';') {
            match word {
                "true" | "false" | "null" => {
                    return Some(format!(
                        "this looks like KDL 1: policy.kdl is KDL 2.0, where keywords are written `#{word}`"
                    ));
                }
                _ if word.starts_with("r\"") || word.starts_with("r#") => {
                    // `r"…"` is `#"…"#`, `r#"…"#` is `#"…"#`; spelt out when
                    // the word holds the whole string.
                    let whole = word.len() > 2 && word.ends_with('"') || word.ends_with("\"#");
                    let kdl2 = match word.strip_prefix("r\"") {
                        Some(rest) => format!("#\"{rest}#"),
                        None => word[1..].to_owned(),
                    };
                    return Some(if whole {
                        format!(
                            "this looks like KDL 1: raw strings are written `#\"…\"#` in KDL 2.0, so write `{kdl2}` for `{word}`"
                        )
                    } else {
                        "this looks like KDL 1: raw strings are written `#\"…\"#` in KDL 2.0"
                            .to_owned()
                    });
                }
                _ => {}
            }
        }
    }
    None
}
