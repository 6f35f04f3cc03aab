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
                    return Some(
                        "this looks like KDL 1: raw strings are written `#\"…\"#` in KDL 2.0"
                            .to_owned(),
                    );
                }
                _ => {}
            }
        }
    }
    None
}
