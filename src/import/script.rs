//! What a hand-written hook command does, where that is simple enough to
//! say in a policy: refuse every call (a reason on stderr and exit 2, or a
//! refusal as JSON on stdout), refuse when the command line holds a text
//! (`jq -r .tool_input.command | grep -q 'TEXT' && { echo R >&2; exit 2; }`),
//! or nothing at all. Anything else is [`Action::Opaque`]: the importer
//! hands it to a `run` guard.

use regex::Regex;
use serde_json::Value;

/// The decision a hook takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Refusal {
    Deny,
    Ask,
}

/// A regular expression over the shell command line.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pattern {
    pub regex: String,
    /// The text a matching command holds, when the pattern is a fixed text
    /// (for the guard's example).
    pub fixed: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// The hook lets every call go on (`exit 0`, `true`, nothing).
    Nothing,
    /// The hook refuses every call it runs for.
    Always { refusal: Refusal, reason: String },
    /// The hook refuses a shell call whose command line matches.
    When {
        pattern: Pattern,
        refusal: Refusal,
        reason: String,
    },
    /// Anything else.
    Opaque,
}

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("a fixed pattern")
}

/// A quoted or bare shell word at the start of `s`: its value and the rest.
/// Only quoting without expansions is read (`'…'`, `"…"` without `$`, `` ` ``
/// or `\`, a bare word of safe characters).
fn word(s: &str) -> Option<(String, &str)> {
    let s = s.trim_start();
    if let Some(rest) = s.strip_prefix('\'') {
        let end = rest.find('\'')?;
        return Some((rest[..end].to_owned(), &rest[end + 1..]));
    }
    if let Some(rest) = s.strip_prefix('"') {
        let end = rest.find('"')?;
        let inner = &rest[..end];
        if inner.contains(['$', '`', '\\']) {
            return None;
        }
        return Some((inner.to_owned(), &rest[end + 1..]));
    }
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || "-_./:,+=@%".contains(c)))
        .unwrap_or(s.len());
    (end > 0).then(|| (s[..end].to_owned(), &s[end..]))
}

/// The words of `echo WORD…` or `printf '%s\n' WORD` at the start of `s`,
/// joined by spaces, and the rest.
fn printed(s: &str) -> Option<(String, &str)> {
    let s = s.trim_start();
    let (mut rest, printf) = if let Some(r) = s.strip_prefix("echo ") {
        (r, false)
    } else if let Some(r) = s.strip_prefix("printf ") {
        (r, true)
    } else {
        return None;
    };
    if printf {
        let (format, r) = word(rest)?;
        if format != "%s\\n" && format != "%s" {
            return None;
        }
        rest = r;
    }
    let mut words = Vec::new();
    loop {
        let t = rest.trim_start();
        if t.is_empty() || t.starts_with([';', '&', '|', '>', '1', '}', '\n']) {
            break;
        }
        let (w, r) = word(t)?;
        words.push(w);
        rest = r;
    }
    (!words.is_empty()).then(|| (words.join(" "), rest))
}

/// `ACTION` forms that refuse every call: a reason on stderr then `exit 2`,
/// or a refusal as JSON on stdout (then `exit 0`, `exit 2` or the end).
fn refusal(s: &str) -> Option<(Refusal, String)> {
    let s = s.trim();
    let s = s
        .strip_prefix('{')
        .and_then(|s| s.trim_end().strip_suffix('}'))
        .map_or(s, str::trim);
    let s = s.trim_end().trim_end_matches(';').trim_end();
    let (text, rest) = printed(s).or_else(|| {
        let r = s.strip_prefix(">&2")?;
        printed(r)
    })?;
    let to_stderr = s.starts_with(">&2") || re(r"^\s*1?>&2").is_match(rest);
    let rest = re(r"^\s*1?>&2").replace(rest, "").into_owned();
    let status = re(r"^\s*(?:;|&&)?\s*exit\s+([0-9]+)\s*;?\s*$");
    let code = match status.captures(&rest) {
        Some(c) => c[1].parse::<i32>().ok()?,
        None if rest.trim().trim_end_matches(';').is_empty() => 0,
        None => return None,
    };
    if to_stderr {
        return (code == 2).then_some((Refusal::Deny, text));
    }
    if code != 0 && code != 2 {
        return None;
    }
    let json: Value = serde_json::from_str(&text).ok()?;
    json_refusal(&json)
}

/// The refusal a hook's JSON answer says, in any harness's words.
pub fn json_refusal(json: &Value) -> Option<(Refusal, String)> {
    let s = |p: &str| json.pointer(p).and_then(Value::as_str);
    let decision = s("/permission")
        .or_else(|| s("/permissionDecision"))
        .or_else(|| s("/hookSpecificOutput/permissionDecision"))
        .or_else(|| s("/decision"))?;
    let refusal = match decision {
        "deny" | "block" => Refusal::Deny,
        "ask" => Refusal::Ask,
        _ => return None,
    };
    let reason = s("/agent_message")
        .or_else(|| s("/user_message"))
        .or_else(|| s("/permissionDecisionReason"))
        .or_else(|| s("/hookSpecificOutput/permissionDecisionReason"))
        .or_else(|| s("/reason"))
        .unwrap_or("")
        .to_owned();
    Some((refusal, reason))
}

/// `jq -r .tool_input.command | grep -q[EFiw] 'TEXT'` (or `.command`):
/// the pattern, and what follows.
fn grep_of_command(s: &str) -> Option<(Pattern, &str)> {
    let head = re(
        r#"^\s*jq\s+-r\s+['"]?\.(?:tool_input\.command|command|toolArgs\.command)['"]?\s*\|\s*grep\s+"#,
    );
    let m = head.find(s)?;
    let mut rest = &s[m.end()..];
    let (mut extended, mut fixed, mut quiet, mut icase, mut whole) =
        (false, false, false, false, false);
    loop {
        let t = rest.trim_start();
        if t.starts_with("--") && t[2..].starts_with(char::is_whitespace) {
            rest = &t[2..];
            break;
        }
        let Some(flags) = t.strip_prefix('-') else {
            break;
        };
        let end = flags.find(char::is_whitespace)?;
        for c in flags[..end].chars() {
            match c {
                'E' => extended = true,
                'F' => fixed = true,
                'q' => quiet = true,
                'i' => icase = true,
                'w' => whole = true,
                _ => return None,
            }
        }
        rest = &flags[end..];
    }
    if !quiet {
        return None;
    }
    let (text, rest) = word(rest)?;
    if text.is_empty() {
        return None;
    }
    let specials = if extended {
        "\\.[]*^$+?(){}|"
    } else {
        "\\.[]*^$"
    };
    let (mut regex, literal) = if fixed || !text.contains(|c: char| specials.contains(c)) {
        (regex::escape(&text), Some(text.clone()))
    } else if extended {
        Regex::new(&text).ok()?;
        (text.clone(), None)
    } else {
        return None;
    };
    if whole {
        regex = format!(r"\b(?:{regex})\b");
    }
    if icase {
        regex = format!("(?i){regex}");
    }
    Some((
        Pattern {
            regex,
            fixed: literal,
        },
        rest,
    ))
}

/// What the hook command `cmd` does.
pub fn analyse(cmd: &str) -> Action {
    let t = cmd.trim();
    if t.is_empty() || t == "exit 0" || t == "true" || t == ":" {
        return Action::Nothing;
    }
    if let Some((refusal, reason)) = refusal(t) {
        return Action::Always { refusal, reason };
    }
    // `… | grep -q TEXT && ACTION`, and `…; exit 0` after it, which changes
    // nothing (a command that does not match ends with status 0 either way).
    if let Some((pattern, rest)) = grep_of_command(t)
        && let Some(action) = rest.trim_start().strip_prefix("&&")
        && let Some((refusal, reason)) = self::refusal(action).or_else(|| {
            let action = action.trim_end();
            let action = action
                .strip_suffix("exit 0")?
                .trim_end()
                .strip_suffix(';')?;
            self::refusal(action)
        })
    {
        return Action::When {
            pattern,
            refusal,
            reason,
        };
    }
    // `if … | grep -q TEXT; then ACTION; fi`
    if let Some(inner) = t.strip_prefix("if ")
        && let Some((pattern, rest)) = grep_of_command(inner)
        && let Some(body) = rest.trim_start().strip_prefix(';')
        && let Some(body) = body.trim_start().strip_prefix("then ")
        && let Some(body) = body.trim_end().strip_suffix("fi")
        && let Some((refusal, reason)) = self::refusal(body.trim_end().trim_end_matches(';'))
    {
        return Action::When {
            pattern,
            refusal,
            reason,
        };
    }
    Action::Opaque
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deny(reason: &str) -> Action {
        Action::Always {
            refusal: Refusal::Deny,
            reason: reason.into(),
        }
    }

    #[test]
    fn refusals_of_every_call_are_read() {
        assert_eq!(
            analyse("echo 'blocked by example policy' >&2; exit 2"),
            deny("blocked by example policy")
        );
        assert_eq!(analyse(">&2 echo \"no\"; exit 2"), deny("no"));
        assert_eq!(analyse("printf '%s\\n' 'no' 1>&2; exit 2"), deny("no"));
        assert_eq!(
            analyse(r#"echo '{"permission":"deny","user_message":"blocked by example policy"}'"#),
            deny("blocked by example policy")
        );
        assert_eq!(
            analyse(r#"echo '{"permissionDecision":"deny","permissionDecisionReason":"r"}'"#),
            deny("r")
        );
        assert_eq!(
            analyse(r#"echo '{"permission":"ask","user_message":"sure?"}'; exit 0"#),
            Action::Always {
                refusal: Refusal::Ask,
                reason: "sure?".into()
            }
        );
        assert_eq!(analyse("exit 0"), Action::Nothing);
        // Exit 1 with a reason: not a refusal in most harnesses.
        assert_eq!(analyse("echo no >&2; exit 1"), Action::Opaque);
        assert_eq!(analyse("echo \"$USER\" >&2; exit 2"), Action::Opaque);
        assert_eq!(analyse(r#"echo '{"permission":"allow"}'"#), Action::Opaque);
    }

    #[test]
    fn a_grep_of_the_command_line_becomes_a_regex() {
        let a = analyse(
            "jq -r .tool_input.command | grep -q 'git push --force' && { echo 'Do not force-push.' >&2; exit 2; }",
        );
        assert_eq!(
            a,
            Action::When {
                pattern: Pattern {
                    regex: regex::escape("git push --force"),
                    fixed: Some("git push --force".into())
                },
                refusal: Refusal::Deny,
                reason: "Do not force-push.".into()
            }
        );
        let a = analyse(
            "if jq -r '.tool_input.command' | grep -qiE 'rm +-rf'; then echo no >&2; exit 2; fi",
        );
        assert!(
            matches!(&a, Action::When { pattern, .. } if pattern.regex == "(?i)rm +-rf"),
            "{a:?}"
        );
        // `; exit 0` after it changes nothing.
        assert!(matches!(
            analyse(
                "jq -r .tool_input.command | grep -q 'terraform destroy' && { echo 'no' >&2; exit 2; }; exit 0"
            ),
            Action::When { .. }
        ));
        // A pattern with BRE specials but no -E is left to `run`.
        assert_eq!(
            analyse("jq -r .tool_input.command | grep -q 'a.*b' && { echo x >&2; exit 2; }"),
            Action::Opaque
        );
        // Without -q, grep prints the line on stdout: left to `run`.
        assert_eq!(
            analyse("jq -r .tool_input.command | grep 'x' && { echo x >&2; exit 2; }"),
            Action::Opaque
        );
        assert_eq!(analyse("./scripts/check.sh"), Action::Opaque);
    }
}
