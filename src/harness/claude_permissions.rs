//! Claude Code's own permission rules for its shell tool, as far as a hook
//! can see them, held against a call hookc is about to run under its
//! run-time judge.
//!
//! Claude Code matches its rules against the input a hook hands back
//! (`updatedInput`), not the one the model sent, and never looks inside
//! `sh -c '…'` (Claude Code 2.1.332's code and runs, 2026-12-05): a rule
//! `Bash(git push:*)` does not match `hookc exec … -- bash -c 'git push'`.
//! So before rewriting a call hookc holds it against the user's rules
//! itself, and picks the answer that keeps what they say:
//!
//! * a deny rule that may match: no rewrite (the call is refused);
//! * an ask rule that may match, a rule source hookc cannot read, or a
//!   session whose command line hookc cannot find: `ask` (the user sees
//!   the prompt, with the command that will run);
//! * `bypassPermissions`, or an allow rule for every shell command: `allow`
//!   (the prompt was never to be shown);
//! * otherwise no decision: Claude Code's own flow decides, as it would
//!   have for the original command.
//!
//! The rules come from the settings files (managed, user, project, local)
//! and from the `claude` process that runs the hook (`--allowedTools`,
//! `--disallowedTools`, `--settings`), found among the hook's ancestors in
//! `/proc`. Rules a hook cannot see at all (server-managed settings from
//! the Claude console) are not held; the book says so.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// What the visible rules say of a call.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Keep {
    /// A deny rule may match: this one.
    Refuse(String),
    /// Ask the user: why.
    Ask(String),
    /// The user's rules let every shell command run without a prompt.
    Allow,
    /// Claude Code's own flow decides.
    Normal,
}

/// The shell-tool rules of every source hookc can see.
#[derive(Debug, Default)]
pub(super) struct Rules {
    deny: Vec<String>,
    ask: Vec<String>,
    allow: Vec<String>,
    /// What hookc could not read or find, when something.
    unknown: Option<String>,
}

impl Rules {
    /// The rules of the settings files for `project` and `home`, and of
    /// the `claude` command line among this process's ancestors.
    pub(super) fn visible(project: Option<&Path>, home: Option<&Path>) -> Rules {
        let mut rules = Rules::default();
        let mut files: Vec<PathBuf> = vec![PathBuf::from("/etc/claude-code/managed-settings.json")];
        if let Ok(dir) = std::fs::read_dir("/etc/claude-code/managed-settings.d") {
            let mut dropins: Vec<PathBuf> = dir
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect();
            dropins.sort();
            files.extend(dropins);
        }
        let config = std::env::var_os("CLAUDE_CONFIG_DIR")
            .map(PathBuf::from)
            .or_else(|| home.map(|h| h.join(".claude")));
        files.extend(config.map(|c| c.join("settings.json")));
        if let Some(project) = project {
            files.push(project.join(".claude/settings.json"));
            files.push(project.join(".claude/settings.local.json"));
        }
        match claude_command_line() {
            Some(argv) => {
                let flags = Flags::of(&argv);
                rules.allow.extend(flags.allow);
                rules.deny.extend(flags.deny);
                for settings in flags.settings {
                    if settings.trim_start().starts_with('{') {
                        rules.read_json(&settings, "the --settings of Claude Code's command line");
                    } else {
                        files.push(PathBuf::from(settings));
                    }
                }
            }
            None => {
                rules.unknown = Some(
                    "hookc could not find the Claude Code process that runs this hook, whose command line may hold permission rules".to_owned(),
                );
            }
        }
        for file in files {
            match crate::disk::read_text(&file) {
                Ok(Some(text)) => rules.read_json(&text, &file.display().to_string()),
                Ok(None) => {}
                Err(e) => {
                    rules.unknown = Some(format!("hookc could not read {} ({e})", file.display()))
                }
            }
        }
        rules
    }

    /// The `permissions` of one settings document.
    fn read_json(&mut self, text: &str, from: &str) {
        let Ok(value) = serde_json::from_str::<Value>(text) else {
            self.unknown = Some(format!("{from} is not JSON hookc can read"));
            return;
        };
        let list = |name: &str| -> Vec<String> {
            value
                .pointer(&format!("/permissions/{name}"))
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        };
        self.deny.extend(list("deny"));
        self.ask.extend(list("ask"));
        self.allow.extend(list("allow"));
    }

    /// What the rules say of `line`, in a session in `mode` (the payload's
    /// `permission_mode`).
    pub(super) fn keep(&self, line: &str, mode: Option<&str>) -> Keep {
        if let Some(rule) = self.deny.iter().find(|r| may_match(r, line)) {
            return Keep::Refuse(rule.clone());
        }
        if let Some(rule) = self.ask.iter().find(|r| may_match(r, line)) {
            return Keep::Ask(format!(
                "your Claude Code permission rule `{rule}` asks about this command"
            ));
        }
        if let Some(why) = &self.unknown {
            return Keep::Ask(why.clone());
        }
        let every = self
            .allow
            .iter()
            .any(|r| matches!(shell_rule(r), Some(None)));
        if mode == Some("bypassPermissions") || every {
            return Keep::Allow;
        }
        Keep::Normal
    }
}

/// A rule about the shell tool: `Some(None)` for every call (`Bash`,
/// `Bash(*)`), `Some(Some(pattern))` for `Bash(pattern)`, `None` for
/// another tool's.
fn shell_rule(rule: &str) -> Option<Option<&str>> {
    let rule = rule.trim();
    if rule == "Bash" {
        return Some(None);
    }
    let pattern = rule.strip_prefix("Bash(")?.strip_suffix(')')?.trim();
    if pattern.is_empty() || pattern == "*" || pattern == ":*" {
        return Some(None);
    }
    Some(Some(pattern))
}

/// Whether the shell rule `rule` may match `line` as Claude Code matches
/// it: each literal part of its pattern (between `*`s, a trailing `:*`
/// taken off) occurs in the line, as written or with quotes and
/// backslashes taken out. It may say yes where Claude Code says no, never
/// the other way.
fn may_match(rule: &str, line: &str) -> bool {
    let Some(pattern) = shell_rule(rule) else {
        return false;
    };
    let Some(pattern) = pattern else {
        return true;
    };
    let pattern = pattern.strip_suffix(":*").unwrap_or(pattern);
    pattern
        .split('*')
        .all(|part| super::common::may_occur(part, line))
}

/// The rule flags of a `claude` command line.
#[derive(Default)]
struct Flags {
    allow: Vec<String>,
    deny: Vec<String>,
    settings: Vec<String>,
}

impl Flags {
    fn of(argv: &[String]) -> Flags {
        let mut flags = Flags::default();
        let mut at = 1;
        while at < argv.len() {
            let word = argv[at].as_str();
            at += 1;
            let (name, inline) = match word.split_once('=') {
                Some((n, v)) if n.starts_with("--") => (n, Some(v.to_owned())),
                _ => (word, None),
            };
            let list = match name {
                "--allowedTools" | "--allowed-tools" => &mut flags.allow,
                "--disallowedTools" | "--disallowed-tools" => &mut flags.deny,
                "--settings" => {
                    if let Some(v) = inline.or_else(|| argv.get(at).cloned()) {
                        flags.settings.push(v);
                    }
                    continue;
                }
                _ => continue,
            };
            // One value with `=`, else every word up to the next option.
            let mut values = Vec::new();
            match inline {
                Some(v) => values.push(v),
                None => {
                    while at < argv.len() && !argv[at].starts_with('-') {
                        values.push(argv[at].clone());
                        at += 1;
                    }
                }
            }
            for value in values {
                list.extend(split_rules(&value));
            }
        }
        flags
    }
}

/// Rules in one value, split at commas and spaces outside parentheses.
fn split_rules(value: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    for c in value.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' | ' ' if depth == 0 => {
                if !current.trim().is_empty() {
                    out.push(current.trim().to_owned());
                }
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_owned());
    }
    out
}

/// The command line of the Claude Code process among this process's
/// ancestors (the hook runs as its child, through a shell or two).
fn claude_command_line() -> Option<Vec<String>> {
    super::common::ancestor_command_line(&|w| {
        Path::new(w).file_name().is_some_and(|n| n == "claude")
            || w.ends_with("claude-code/cli.js")
            || w.ends_with("claude-code/cli.mjs")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_may_match_wherever_its_words_are_in_the_line() {
        assert!(may_match(
            "Bash(git push:*)",
            "g=git; $g push; git push --force"
        ));
        assert!(may_match("Bash(git push:*)", "eval \"git  push\""));
        assert!(may_match("Bash(git push:*)", "'git' 'push' -f"));
        assert!(!may_match("Bash(git push:*)", "g=git; $g push"));
        assert!(may_match("Bash", "anything"));
        assert!(may_match("Bash(*)", "anything"));
        assert!(may_match(
            "Bash(npm run * --force)",
            "x=1; npm run build --force"
        ));
        assert!(!may_match("Read(./.env)", "cat .env"));
    }

    #[test]
    fn the_rules_decide_what_a_rewrite_keeps() {
        let rules = Rules {
            deny: vec!["Bash(git push:*)".into()],
            ask: vec!["Bash(rm:*)".into()],
            allow: vec!["Bash(npm test:*)".into()],
            unknown: None,
        };
        assert_eq!(
            rules.keep("$(echo git) push; git push", None),
            Keep::Refuse("Bash(git push:*)".into())
        );
        assert!(matches!(
            rules.keep("x=$(ls); rm -f \"$x\"", None),
            Keep::Ask(_)
        ));
        assert_eq!(
            rules.keep("x=$(ls); echo $x", Some("default")),
            Keep::Normal
        );
        assert_eq!(
            rules.keep("x=$(ls); echo $x", Some("bypassPermissions")),
            Keep::Allow
        );
        let everything = Rules {
            allow: vec!["Bash".into()],
            ..Rules::default()
        };
        assert_eq!(everything.keep("x=$(ls)", Some("default")), Keep::Allow);
        let blind = Rules {
            unknown: Some("x".into()),
            ..Rules::default()
        };
        assert_eq!(
            blind.keep("x=$(ls)", Some("bypassPermissions")),
            Keep::Ask("x".into())
        );
    }

    #[test]
    fn the_command_line_gives_rules_in_every_spelling() {
        let argv: Vec<String> = [
            "claude",
            "-p",
            "--allowedTools",
            "Bash(git log:*) Read",
            "Edit",
            "--disallowed-tools=Bash(git push:*),WebFetch",
            "--settings",
            "/x/s.json",
            "--model",
            "m",
        ]
        .map(String::from)
        .to_vec();
        let f = Flags::of(&argv);
        assert_eq!(f.allow, ["Bash(git log:*)", "Read", "Edit"]);
        assert_eq!(f.deny, ["Bash(git push:*)", "WebFetch"]);
        assert_eq!(f.settings, ["/x/s.json"]);
    }
}
