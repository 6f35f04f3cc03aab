//! What `hookc lint` knows about OpenCode beyond its [`Profile`](crate::harness::Profile).

use super::{FileReport, diag};
use crate::diag::{Code, suggest};
use crate::harness;
use crate::ir::HarnessId;
use crate::source::{SourceFile, Span};

/// OpenCode plugins: hook names are the keys of the object the plugin returns.
pub fn lint(file: &SourceFile, report: &mut FileReport) {
    let hooks = harness::get(HarnessId::Opencode)
        .expect("OpenCode is registered")
        .profile()
        .all_events();
    let text = &*file.text;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let q = bytes[i];
        if q == b'"' || q == b'\'' {
            let start = i;
            let Some(len) = text[i + 1..].find(q as char) else {
                break;
            };
            let end = i + 1 + len;
            let name = &text[i + 1..end];
            let after = text[end + 1..].trim_start();
            let is_key = after.starts_with(':');
            if is_key && name.contains('.') && !name.contains(' ') && !hooks.contains(&name) {
                report.diags.push(
                    diag(
                        Code::LintUnknownHook,
                        file,
                        Span::new(start, end + 1 - start),
                        format!("OpenCode has no plugin hook `{name}`; it is never called"),
                        "unknown hook",
                    )
                    .help(suggest(name, &hooks)),
                );
            }
            i = end + 1;
        } else {
            i += 1;
        }
    }
}
