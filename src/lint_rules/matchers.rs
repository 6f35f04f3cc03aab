//! Matcher rules that depend on how each harness reads a matcher: the regex
//! flavour it compiles it with (`lint-matcher-regex`) and the names it gives
//! MCP tools (`lint-matcher-mcp`). Each rule is one function returning its
//! finding, so the JSON and TOML front ends share it.
//!
//! Flavours, from `shared/harnesses/*.md`: Claude Code, Gemini CLI and Kimi
//! Code run `new RegExp(matcher)` (ECMAScript, no flags); Cursor's flavour is
//! undocumented and treated as JavaScript, as third parties do; Codex uses
//! Rust's `regex` crate; Copilot CLI's binary carries Rust `regex`,
//! `fancy-regex` and an ECMAScript engine and which one hooks use is not
//! established; Antigravity is a Go binary, so RE2, for which Rust's `regex`
//! (the same design: no look-around, no backreferences) stands in.

use crate::diag::Severity;
use crate::profile::{Flavour, McpNames};

/// A finding about one matcher or one word of it.
pub struct Finding {
    pub severity: Severity,
    pub message: String,
    pub help: String,
}

/// Whether JavaScript's `RegExp` (no flags) accepts the pattern.
fn ecmascript_ok(m: &str) -> bool {
    // Inline flags (`(?i)`) are Rust and Go syntax; no JavaScript engine
    // the harnesses ship accepts them at the start of a pattern.
    !has_inline_flags(m) && super::ecmascript::accepts(m)
}

/// `(?i)`, `(?s:…)`: inline flags, valid in Rust's regex but a syntax error in JavaScript's.
fn has_inline_flags(m: &str) -> bool {
    m.match_indices("(?").any(|(i, _)| {
        m[i + 2..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_lowercase() || c == '-')
    })
}

fn rust_ok(m: &str) -> bool {
    regex::Regex::new(m).is_ok()
}

/// `lint-matcher-regex`: the matcher does not compile in `flavour`, the
/// regex language of `harness` (its profile's; `None`: it has no matchers).
pub fn regex(flavour: Option<Flavour>, harness: &str, m: &str) -> Option<Finding> {
    let (js, rust) = (ecmascript_ok(m), rust_ok(m));
    let error = |why: &str, help: &str| Finding {
        severity: Severity::Error,
        message: format!("{harness} cannot compile the matcher `{m}` as a {why}"),
        help: help.to_owned(),
    };
    match flavour? {
        Flavour::EcmaScript if !js => Some(error(
            "JavaScript regex",
            "JavaScript regexes take no inline flags such as `(?i)` (write both cases: `[Bb]ash`); a bare `*` is not a regex (write `.*`, or leave the matcher out)",
        )),
        Flavour::Rust if !rust => Some(error(
            "Rust regex",
            "Codex's Rust `regex` has no look-around (`(?!…)`, `(?=…)`) and no backreferences; list the tool names you mean instead: `^(?:Bash|apply_patch)$`",
        )),
        Flavour::Re2 if !rust => Some(error(
            "regex (Go's RE2, by all signs)",
            "RE2 has no look-around and no backreferences; list the tool names you mean instead",
        )),
        Flavour::EcmaScriptOrRust if !js && !rust => Some(error(
            "regex",
            "write a plain alternation of tool names: `^(?:bash|edit)$`",
        )),
        Flavour::EcmaScriptOrRust if js != rust => Some(Finding {
            severity: Severity::Warning,
            message: format!(
                "`{m}` compiles as a {} regex but not as a {} one, and which engine {harness} uses for matchers is not established",
                if js { "JavaScript" } else { "Rust" },
                if js { "Rust" } else { "JavaScript" },
            ),
            help: "an invalid matcher silently disables the entry; stay in what both accept (literals, `|`, classes, `.*`)".to_owned(),
        }),
        _ => None,
    }
}

/// `(server, tool)` of a matcher word written the Claude way, with or
/// without its prefix: `mcp__s__t`, `s__t`.
fn claude_form(word: &str) -> Option<(&str, &str, bool)> {
    let (rest, prefixed) = match word.strip_prefix("mcp__") {
        Some(rest) => (rest, true),
        None => (word, false),
    };
    let (server, tool) = rest.split_once("__")?;
    (!server.is_empty() && !tool.is_empty()).then_some((server, tool, prefixed))
}

/// `lint-matcher-mcp`: one word of a matcher names an MCP tool in a form
/// other than `names`, the one `harness` uses on the matcher's event (its
/// profile's; `None`: not established), so it matches nothing.
pub fn mcp(names: Option<McpNames>, harness: &str, word: &str) -> Option<Finding> {
    let names = names?;
    let (server, tool, prefixed) = claude_form(word)?;
    let (right, form) = match names {
        McpNames::DoubleUnderscore if prefixed => return None,
        McpNames::DoubleUnderscore => (format!("mcp__{server}__{tool}"), "`mcp__<server>__<tool>`"),
        McpNames::SingleUnderscore => (
            format!("mcp_{server}_{tool}"),
            "`mcp_<server>_<tool>` (since 0.34; `<server>__<tool>` was the old form)",
        ),
        McpNames::CursorTool => (format!("MCP:{tool}"), "`MCP:<tool>` on its tool events"),
        McpNames::ServerDashTool => (
            format!("{server}-{tool}"),
            "`<server>-<tool>` on its own (camelCase) events",
        ),
        McpNames::ServerUnderscoreTool => (format!("{server}_{tool}"), "`<server>_<tool>`"),
        McpNames::ServerDoubleUnderscoreTool if !prefixed => return None,
        McpNames::ServerDoubleUnderscoreTool => {
            (format!("{server}__{tool}"), "`<extension>__<tool>`")
        }
        McpNames::AtServerSlashTool if !prefixed => return None,
        McpNames::AtServerSlashTool => (format!("@{server}/{tool}"), "`@<server>/<tool>`"),
    };
    Some(Finding {
        // Copilot's naming in hooks is inferred from its tool lists.
        severity: if names == McpNames::ServerDashTool {
            Severity::Warning
        } else {
            Severity::Error
        },
        message: format!("{harness} names MCP tools {form}: `{word}` matches no tool"),
        help: format!("write `{right}`"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::HarnessId;

    fn profile(id: HarnessId) -> &'static crate::profile::Profile {
        crate::harness::get(id).unwrap().profile()
    }

    #[test]
    fn each_harness_compiles_matchers_in_its_own_flavour() {
        let lookahead = "^(?!Bash$)[A-Za-z]+$";
        assert!(regex(profile(HarnessId::Claude).flavour, "Claude Code", lookahead).is_none());
        assert!(regex(profile(HarnessId::Gemini).flavour, "Gemini CLI", lookahead).is_none());
        assert!(regex(profile(HarnessId::Codex).flavour, "Codex", lookahead).is_some());
        assert!(
            regex(
                profile(HarnessId::Antigravity).flavour,
                "Antigravity",
                lookahead
            )
            .is_some()
        );
        let flags = "^(?i)bash$";
        assert!(regex(profile(HarnessId::Claude).flavour, "Claude Code", flags).is_some());
        assert!(regex(profile(HarnessId::Kimi).flavour, "Kimi Code", flags).is_some());
        assert!(regex(profile(HarnessId::Codex).flavour, "Codex", flags).is_none());
        assert!(
            regex(
                profile(HarnessId::Antigravity).flavour,
                "Antigravity",
                flags
            )
            .is_none()
        );
        let copilot = regex(profile(HarnessId::Copilot).flavour, "Copilot", lookahead).unwrap();
        assert_eq!(copilot.severity, Severity::Warning);
        assert_eq!(
            regex(profile(HarnessId::Copilot).flavour, "Copilot", "bash(")
                .unwrap()
                .severity,
            Severity::Error
        );
        for ok in ["^(?:Bash|Edit)$", "mcp__fs__.*", "Bash"] {
            for id in HarnessId::ALL {
                assert!(
                    regex(profile(*id).flavour, "h", ok).is_none(),
                    "{id:?} {ok}"
                );
            }
        }
    }

    #[test]
    fn mcp_names_are_checked_per_harness() {
        let help = |id, event, word| mcp((profile(id).mcp_names)(event), "h", word).map(|f| f.help);
        assert_eq!(
            help(HarnessId::Kimi, "PreToolUse", "fs__read").as_deref(),
            Some("write `mcp__fs__read`")
        );
        assert_eq!(help(HarnessId::Kimi, "PreToolUse", "mcp__fs__read"), None);
        assert_eq!(
            help(HarnessId::Gemini, "BeforeTool", "mcp__fs__read").as_deref(),
            Some("write `mcp_fs_read`")
        );
        assert_eq!(help(HarnessId::Gemini, "BeforeTool", "mcp_fs_read"), None);
        assert_eq!(
            help(HarnessId::Cursor, "preToolUse", "mcp__fs__read").as_deref(),
            Some("write `MCP:read`")
        );
        assert_eq!(
            help(HarnessId::Cursor, "beforeMCPExecution", "fs__read"),
            None
        );
        assert_eq!(
            help(HarnessId::Copilot, "preToolUse", "mcp__fs__read").as_deref(),
            Some("write `fs-read`")
        );
        assert_eq!(
            help(HarnessId::Copilot, "PreToolUse", "mcp__fs__read"),
            None
        );
        assert_eq!(help(HarnessId::Antigravity, "PreToolUse", "fs__read"), None);
        assert_eq!(help(HarnessId::Claude, "PreToolUse", "Bash"), None);
    }
}
