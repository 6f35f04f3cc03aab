//! Copilot CLI's own permission rules, as far as a hook can see them, held
//! against a call hookc is about to run under its run-time judge.
//!
//! Copilot CLI 1.0.102 runs the `preToolUse` hooks first and then judges
//! the call as the hook left it: with `modifiedArgs` and no decision, its
//! `--deny-tool` and `--allow-tool` rules see the changed command (see
//! `copilot.rs`). A rule narrowed to some commands (`shell(git push)`,
//! `shell(rm)`) reads the first words of each command of the line, so it
//! does not match `'…/hookc' exec … -- bash -c 'git push'`, and a URL rule
//! (`--deny-url`, `deniedUrls`, `url(…)`) may not find a URL inside the
//! quoted line either. hookc cannot know what such a rule would have said
//! of the model's line, so it keeps them all by refusing:
//!
//! * a `--deny-tool` rule for the shell or for URLs, a `--deny-url`, a
//!   `deniedUrls` setting, or a denial saved for a folder: no rewrite;
//! * an `--allow-tool` rule that would approve the changed command itself
//!   (`shell(hookc)`, or a shell such as `shell(bash)`), where the model's
//!   line might have been asked about: no rewrite;
//! * a session that may not reach every path (`--allow-all-paths`;
//!   `--allow-all` and `--yolo` are that and more): Copilot checks the
//!   paths a shell command names against the folders it may reach, and
//!   would check the changed command's (`/bin/bash`, hookc's program:
//!   without the flag even the harmless changed line was refused in `-p`)
//!   in place of the model's, which it may not find inside the quoted
//!   line: no rewrite, with that reason;
//! * a session run with `-p` that may not run every tool
//!   (`--allow-all-tools` or `COPILOT_ALLOW_ALL`) would have to ask about
//!   the changed command, and cannot: no rewrite, with that reason;
//! * a session whose command line hookc cannot find, or a settings file it
//!   cannot read: no rewrite.
//!
//! Otherwise Copilot CLI decides about the changed command with its own
//! flow, asking the user where it would ask (the prompt shows the whole
//! changed line, the model's inside it).
//!
//! Where the rules come from: the `copilot` process that runs the hook,
//! found among the hook's ancestors in `/proc`; `COPILOT_ALLOW_ALL` in the
//! hook's environment, which is Copilot's; the user's settings
//! (`$COPILOT_HOME`, else `~/.copilot`: `settings.json`, `config.json`,
//! and the folder approvals of `permissions-config.json`) and the
//! repository's (`.github/copilot/settings.json`, `settings.local.json`).

use std::path::{Path, PathBuf};

use serde_json::Value;

/// What hookc can see of Copilot CLI's rules for its shell tool.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Rules {
    /// The first rule hookc cannot keep once the call is changed, as the
    /// user wrote it and where.
    refusing: Option<String>,
    /// The session runs one prompt (`-p`).
    headless: bool,
    /// The session may run every tool without asking.
    allow_all: bool,
    /// The session may reach any path without asking.
    all_paths: bool,
}

impl Rules {
    /// The rules of the session that runs this hook in `project`, with
    /// `home` as the user's home folder.
    pub(super) fn visible(project: Option<&Path>, home: Option<&Path>) -> Rules {
        let mut rules = match copilot_command_line() {
            Some(argv) => Rules::of_command_line(&argv),
            None => Rules {
                refusing: Some(
                    "hookc could not find the Copilot CLI process that runs this hook, whose command line may hold --deny-tool rules".to_owned(),
                ),
                ..Rules::default()
            },
        };
        rules.allow_all |= std::env::var("COPILOT_ALLOW_ALL").is_ok_and(|v| {
            ["true", "1", "yes", "on", "y"].contains(&v.trim().to_ascii_lowercase().as_str())
        });
        let user = std::env::var_os("COPILOT_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| home.map(|h| h.join(".copilot")));
        let mut files: Vec<PathBuf> = Vec::new();
        if let Some(user) = user {
            for name in ["settings.json", "config.json", "permissions-config.json"] {
                files.push(user.join(name));
            }
        }
        if let Some(project) = project {
            for name in ["settings.json", "settings.local.json"] {
                files.push(project.join(".github/copilot").join(name));
            }
        }
        for file in files {
            if rules.refusing.is_some() {
                break;
            }
            rules.refusing = refusing_in_file(&file);
        }
        rules
    }

    /// The rules a `copilot` command line gives.
    fn of_command_line(argv: &[String]) -> Rules {
        let mut rules = Rules::default();
        let mut option: Option<&str> = None;
        for word in argv.iter().skip(1) {
            let (name, value) = match word.split_once('=') {
                Some((name, value)) if name.starts_with("--") => (Some(name), Some(value)),
                _ if word.starts_with('-') && word.len() > 1 => (Some(word.as_str()), None),
                _ => (None, Some(word.as_str())),
            };
            if let Some(name) = name {
                option = Some(name);
                match name {
                    "-p" | "--prompt" => rules.headless = true,
                    "--allow-all-tools" => rules.allow_all = true,
                    "--allow-all-paths" => rules.all_paths = true,
                    "--allow-all" | "--yolo" => (rules.allow_all, rules.all_paths) = (true, true),
                    _ => {}
                }
            }
            // `--deny-tool` and its kin take any number of values.
            let (Some(option), Some(value)) = (option, value) else {
                continue;
            };
            if rules.refusing.is_none() {
                rules.refusing = refusing_rule(option, value);
            }
        }
        rules
    }

    /// Why hookc may not hand the call over to its run-time judge here, if
    /// it may not.
    pub(super) fn refusal(&self) -> Option<String> {
        if let Some(rule) = &self.refusing {
            return Some(format!(
                "(Copilot CLI would judge the command hookc runs under its run-time judge, not this one, by its own rules, and {rule}, so hookc refuses it instead.)"
            ));
        }
        if !self.all_paths {
            return Some(
                "(hookc would run it under its run-time judge, but Copilot CLI checks the paths a command names, and would check hookc's command in place of this one, so hookc hands lines over only to a session that may reach every path: start Copilot CLI with --allow-all-paths (or --yolo).)".to_owned(),
            );
        }
        (self.headless && !self.allow_all).then(|| {
            "(hookc would run it under its run-time judge, but Copilot CLI would have to ask the user about the changed command, and a session run with -p cannot ask: start it with --allow-all-tools (or --yolo).)".to_owned()
        })
    }
}

/// What one value of a `copilot` permission option says hookc cannot keep.
fn refusing_rule(option: &str, value: &str) -> Option<String> {
    let (kind, argument) = match value.split_once('(') {
        Some((kind, rest)) => (kind.trim(), rest.strip_suffix(')').map(str::trim)),
        None => (value.trim(), None),
    };
    let shown = format!("`{option} {value}`");
    match option {
        "--deny-url" => Some(format!("{shown} may refuse a URL in it")),
        "--deny-tool" if kind == "shell" || kind == "url" => Some(format!("{shown} may refuse it")),
        // A value hookc does not read as one rule may be several.
        "--deny-tool" if value.contains([',', ' ']) => Some(format!("{shown} may refuse it")),
        "--allow-tool" if kind == "shell" => {
            let program = argument?.split([' ', ':']).next().unwrap_or_default();
            let name = Path::new(program).file_name()?.to_str()?;
            ["hookc", "sh", "bash", "zsh", "dash", "env"]
                .contains(&name)
                .then(|| format!("{shown} would approve it without asking"))
        }
        _ => None,
    }
}

/// What a settings file holds that hookc cannot keep: URL denials, a
/// denial saved for a folder, or a file it cannot read.
fn refusing_in_file(file: &Path) -> Option<String> {
    let text = match crate::disk::read_text(file) {
        Ok(Some(text)) => text,
        Ok(None) => return None,
        Err(e) => return Some(format!("hookc could not read {} ({e})", file.display())),
    };
    // Copilot CLI writes `config.json` with a comment at the top.
    let options = crate::merge::json::dialect_options(true, true);
    let Ok(json) = jsonc_parser::parse_to_serde_value::<Option<Value>>(&text, &options) else {
        return Some(format!("hookc could not read {} as JSON", file.display()));
    };
    let json = json.unwrap_or(Value::Null);
    let nonempty = |v: &Value| v.as_array().is_some_and(|a| !a.is_empty());
    if json.get("deniedUrls").is_some_and(nonempty) {
        return Some(format!(
            "`deniedUrls` in {} may refuse a URL in it",
            file.display()
        ));
    }
    has_denials(&json, &nonempty)
        .then(|| format!("a denial saved in {} may refuse it", file.display()))
}

/// Whether `json` holds a non-empty `denied` list anywhere.
fn has_denials(json: &Value, nonempty: &dyn Fn(&Value) -> bool) -> bool {
    match json {
        Value::Object(map) => map
            .iter()
            .any(|(k, v)| (k == "denied" && nonempty(v)) || has_denials(v, nonempty)),
        Value::Array(items) => items.iter().any(|v| has_denials(v, nonempty)),
        _ => false,
    }
}

/// The command line of the `copilot` process that runs this hook: the
/// native program, or Node running its package's loader.
fn copilot_command_line() -> Option<Vec<String>> {
    super::common::ancestor_command_line(&|w| {
        Path::new(w).file_name().is_some_and(|n| n == "copilot")
            || w.ends_with("@github/copilot/npm-loader.js")
            || w.ends_with("@github/copilot/index.js")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(argv: &[&str]) -> Rules {
        Rules::of_command_line(&argv.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>())
    }

    #[test]
    fn shell_and_url_denials_refuse_the_hand_over() {
        for argv in [
            &[
                "copilot",
                "--deny-tool",
                "shell(git push)",
                "-p",
                "x",
                "--allow-all-tools",
            ][..],
            &["copilot", "--deny-tool=shell", "--yolo"],
            &[
                "copilot",
                "--allow-all",
                "--deny-tool",
                "write",
                "url(github.com)",
            ],
            &["copilot", "--deny-url", "https://example.com", "--yolo"],
            &["copilot", "--deny-tool", "shell(rm),write", "--yolo"],
            &["copilot", "--allow-tool", "shell(/opt/hookc exec:*)"],
            &["copilot", "--allow-tool=shell(bash)", "-p", "x"],
        ] {
            let refusal = rules(argv).refusal();
            assert!(refusal.is_some_and(|r| r.contains('`')), "{argv:?}");
        }
    }

    #[test]
    fn other_rules_leave_copilot_to_decide() {
        for argv in [
            &["copilot", "--allow-all", "--deny-tool", "write"][..],
            &["copilot", "-p", "do it", "--yolo"],
            &[
                "copilot",
                "-p",
                "go",
                "--allow-all-tools",
                "--allow-all-paths",
            ],
            &[
                "copilot",
                "--allow-all-paths",
                "--allow-tool",
                "shell(git:*)",
                "gh(x)",
            ],
            &["copilot", "--allow-all-paths"],
        ] {
            assert_eq!(rules(argv).refusal(), None, "{argv:?}");
        }
    }

    #[test]
    fn a_session_that_checks_paths_or_must_ask_in_a_prompt_run_is_refused() {
        let r = rules(&["copilot", "--allow-all-tools"]);
        assert!(r.refusal().is_some_and(|r| r.contains("--allow-all-paths")));
        let r = rules(&["copilot", "--prompt=do it", "--allow-all-tools"]);
        assert!(r.refusal().is_some_and(|r| r.contains("--allow-all-paths")));
        let r = rules(&[
            "copilot",
            "-p",
            "do it",
            "--allow-all-paths",
            "--allow-tool",
            "shell(git:*)",
        ]);
        assert!(r.refusal().is_some_and(|r| r.contains("cannot ask")));
        let r = rules(&["copilot", "--prompt=do it", "--allow-all"]);
        assert_eq!(r.refusal(), None);
    }

    #[test]
    fn url_denials_and_saved_denials_in_settings_refuse() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("settings.json");
        for (text, refuses) in [
            (r#"{"deniedUrls": ["evil.example"]}"#, true),
            (
                r#"{"locations": {"/p": {"denied": [{"kind": "shell"}]}}}"#,
                true,
            ),
            ("{not json", true),
            (
                "// written by Copilot CLI\n{\"deniedUrls\": [\"x.example\"],}",
                true,
            ),
            (
                "// written by Copilot CLI\n{\"trustedFolders\": [\"/p\"]}",
                false,
            ),
            (
                r#"{"deniedUrls": [], "allowedUrls": ["github.com"]}"#,
                false,
            ),
            (
                r#"{"locations": {"/p": {"approved": [{"kind": "shell"}], "denied": []}}}"#,
                false,
            ),
        ] {
            std::fs::write(&file, text).unwrap();
            assert_eq!(refusing_in_file(&file).is_some(), refuses, "{text}");
        }
        assert_eq!(refusing_in_file(&dir.path().join("none.json")), None);
    }
}
