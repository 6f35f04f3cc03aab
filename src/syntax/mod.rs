//! From text to [`ast::Policy`](crate::ast::Policy): KDL parsing, then a
//! hand-written decoder that keeps every span.

mod decode;
pub use decode::relocate;
mod fast;
mod parse;

use crate::ast;
use crate::diag::Diagnostics;
use crate::source::SourceFile;

/// `value` as a KDL raw string, with enough `#` that it cannot end early.
pub fn raw_string(value: &str) -> String {
    let mut hashes = String::from("#");
    while value.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    format!("{hashes}\"{value}\"{hashes}")
}

/// Parse and decode a policy; `None` when the KDL itself does not parse.
pub fn read_policy(file: &SourceFile, diagnostics: &mut Diagnostics) -> Option<ast::Policy> {
    let document = parse::parse(file, diagnostics)?;
    Some(decode::decode(file, &document, diagnostics))
}
