//! What `hookc lint` knows about OpenCode beyond its [`Profile`](crate::harness::Profile).

use super::{FileReport, diag};
use crate::diag::{Code, suggest};
use crate::source::{SourceFile, Span};

/// Hook names of `@opencode-ai/plugin`'s `Hooks` type (1.18.33).
pub const OPENCODE_HOOKS: &[&str] = &[
    "event",
    "config",
    "tool",
    "auth",
    "chat.message",
    "chat.params",
    "chat.headers",
    "permission.ask",
    "command.execute.before",
    "tool.execute.before",
    "tool.execute.after",
    "shell.env",
    "tool.definition",
    "experimental.chat.messages.transform",
    "experimental.chat.system.transform",
    "experimental.session.compacting",
    "experimental.text.complete",
];

/// OpenCode plugins: hook names are the keys of the object the plugin returns.
pub fn lint(file: &SourceFile, report: &mut FileReport) {
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
            if is_key
                && name.contains('.')
                && !name.contains(' ')
                && !OPENCODE_HOOKS.contains(&name)
            {
                report.diags.push(
                    diag(
                        Code::LintUnknownHook,
                        file,
                        Span::new(start, end + 1 - start),
                        format!("OpenCode has no plugin hook `{name}`; it is never called"),
                        "unknown hook",
                    )
                    .help(suggest(name, OPENCODE_HOOKS)),
                );
            }
            i = end + 1;
        } else {
            i += 1;
        }
    }
}
