//! Gemini CLI's own policy rules for its shell tool, as far as a hook can
//! see them, held against a call hookc is about to run under its run-time
//! judge.
//!
//! Gemini CLI 0.61.0 runs the `BeforeTool` hook first, rebuilds the call
//! from the `tool_input` the hook hands back, and only then checks it
//! against its policy engine (`_processToolCall`). The engine looks inside
//! a line only where it starts with a shell (`bash -c '…'`), so a rule
//! narrowed to some commands (`commandPrefix = "git push"`, a
//! `commandRegex`, an `argsPattern`) does not match `hookc exec … -- bash -c
//! 'git push'`. A rule for the whole shell tool matches both lines alike.
//! Before rewriting a call hookc holds it against the user's narrowed rules
//! itself, and picks the answer that keeps what they say:
//!
//! * a narrowed deny rule that may match, or a safety checker on the shell
//!   tool: no rewrite (the call is refused);
//! * a narrowed `ask_user` rule that may match, a source hookc cannot
//!   read, or a session whose command line hookc cannot find: `ask`;
//! * a session without `--yolo`, or in a folder hookc does not know Gemini
//!   trusts (where Gemini leaves YOLO mode): `ask`, since Gemini's own
//!   checks outside YOLO mode (a dangerous command, git in a folder it does
//!   not trust, a folder outside the workspace) read the command, and
//!   cannot read it inside hookc's;
//! * otherwise (a YOLO session in a trusted folder) no decision: Gemini
//!   allows the call, as it would have allowed the original.
//!
//! A session run with `-p` and no terminal cannot ask anyone, so there
//! `ask` is a refusal that says why.
//!
//! The rules come from the settings files (system defaults, system, user,
//! workspace: `tools.exclude`, `policyPaths`, `adminPolicyPaths`), the
//! policy folders (system, user, workspace, each extension's) and the
//! `gemini` process that runs the hook (`--policy`, `--admin-policy`),
//! found among the hook's ancestors in `/proc`.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// What the visible rules say of a call.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Keep {
    /// A rule may refuse the command: this one.
    Refuse(String),
    /// Ask the user: why.
    Ask(String),
    /// Gemini CLI's own flow decides, as it would have for the original.
    Normal,
}

/// The narrowed shell rules of every source hookc can see, and what it
/// knows of the session.
#[derive(Debug, Default)]
pub(super) struct Rules {
    /// Narrowed deny rules: how each is shown, and its command prefixes
    /// (none: it may match any command, as a regex may).
    deny: Vec<(String, Vec<String>)>,
    /// Narrowed `ask_user` rules, alike.
    ask: Vec<(String, Vec<String>)>,
    /// What hookc could not read or find, when something.
    unknown: Option<String>,
    /// The session runs with `--yolo` (or `--approval-mode yolo`).
    yolo: bool,
    /// The session runs a single prompt (`-p`) with no way to ask.
    headless: bool,
}

/// The shell tool's names in rules (`SHELL_TOOL_NAMES`).
const SHELL_TOOLS: [&str; 2] = ["run_shell_command", "ShellTool"];

impl Rules {
    /// The rules for a session in `project`, with `home` as the user's
    /// home folder, and from the `gemini` command line among this
    /// process's ancestors.
    pub(super) fn visible(project: Option<&Path>, home: Option<&Path>) -> Rules {
        let mut rules = Rules::default();
        let env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        let system = PathBuf::from(if cfg!(target_os = "macos") {
            "/Library/Application Support/GeminiCli"
        } else if cfg!(windows) {
            r"C:\ProgramData\gemini-cli"
        } else {
            "/etc/gemini-cli"
        });
        let user = env("GEMINI_CLI_HOME")
            .map(PathBuf::from)
            .or_else(|| home.map(Path::to_path_buf))
            .map(|h| h.join(".gemini"));
        let mut settings = vec![
            env("GEMINI_CLI_SYSTEM_DEFAULTS_PATH")
                .map_or_else(|| system.join("system-defaults.json"), PathBuf::from),
            env("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
                .map_or_else(|| system.join("settings.json"), PathBuf::from),
        ];
        let mut policies = vec![system.join("policies")];
        if let Some(user) = &user {
            settings.push(user.join("settings.json"));
            policies.push(user.join("policies"));
            if let Ok(extensions) = std::fs::read_dir(user.join("extensions")) {
                let mut found: Vec<PathBuf> = extensions
                    .filter_map(|e| e.ok().map(|e| e.path().join("policies")))
                    .collect();
                found.sort();
                policies.extend(found);
            }
        }
        if let Some(project) = project {
            settings.push(project.join(".gemini/settings.json"));
            policies.push(project.join(".gemini/policies"));
        }
        for file in settings {
            policies.extend(rules.read_settings(&file));
        }
        match gemini_command_line() {
            Some(argv) => {
                let flags = Flags::of(&argv);
                policies.extend(flags.policies.into_iter().map(PathBuf::from));
                rules.yolo = flags.yolo;
                rules.headless = flags.headless;
            }
            None => {
                rules.unknown = Some(
                    "hookc could not find the Gemini CLI process that runs this hook, whose command line may name policy files".to_owned(),
                );
            }
        }
        for path in policies {
            rules.read_policies(&path);
        }
        rules
    }

    /// The narrowed shell entries of one settings file's `tools.exclude`,
    /// and the policy paths it names.
    fn read_settings(&mut self, file: &Path) -> Vec<PathBuf> {
        let text = match crate::disk::read_text(file) {
            Ok(Some(text)) => text,
            Ok(None) => return Vec::new(),
            Err(e) => {
                self.unknown = Some(format!("hookc could not read {} ({e})", file.display()));
                return Vec::new();
            }
        };
        let Ok(value) = jsonc_parser::parse_to_serde_value::<Value>(&text, &Default::default())
        else {
            self.unknown = Some(format!("{} is not JSON hookc can read", file.display()));
            return Vec::new();
        };
        let strings = |pointer: &str| -> Vec<String> {
            value
                .pointer(pointer)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        };
        for entry in strings("/tools/exclude")
            .into_iter()
            .chain(strings("/excludeTools"))
        {
            // `run_shell_command(git push)`: a deny for commands that start so.
            let narrowed = SHELL_TOOLS.iter().find_map(|tool| {
                entry
                    .trim()
                    .strip_prefix(tool)?
                    .strip_prefix('(')?
                    .strip_suffix(')')
            });
            if let Some(prefix) = narrowed {
                self.deny.push((
                    format!("`{entry}` in the tools.exclude of {}", file.display()),
                    vec![prefix.to_owned()],
                ));
            }
        }
        strings("/policyPaths")
            .into_iter()
            .chain(strings("/adminPolicyPaths"))
            .map(PathBuf::from)
            .collect()
    }

    /// The rules of a policy file, or of every `.toml` file in a folder.
    fn read_policies(&mut self, path: &Path) {
        let files = match std::fs::read_dir(path) {
            Ok(dir) => {
                let mut files: Vec<PathBuf> = dir
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                    .collect();
                files.sort();
                files
            }
            Err(_) if path.is_file() => vec![path.to_path_buf()],
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
            Err(e) => {
                self.unknown = Some(format!("hookc could not read {} ({e})", path.display()));
                return;
            }
        };
        for file in files {
            match crate::disk::read_text(&file) {
                Ok(Some(text)) => self.read_toml(&text, &file.display().to_string()),
                Ok(None) => {}
                Err(e) => {
                    self.unknown = Some(format!("hookc could not read {} ({e})", file.display()))
                }
            }
        }
    }

    /// The narrowed shell rules of one policy file (`[[rule]]`), and its
    /// safety checkers on the shell tool (`[[safety_checker]]`), which may
    /// refuse any command.
    fn read_toml(&mut self, text: &str, from: &str) {
        let Ok(doc) = text.parse::<toml_edit::DocumentMut>() else {
            self.unknown = Some(format!("{from} is not TOML hookc can read"));
            return;
        };
        let tables = |key: &str| -> Vec<toml_edit::Table> {
            match doc.get(key) {
                Some(toml_edit::Item::ArrayOfTables(array)) => array.iter().cloned().collect(),
                Some(toml_edit::Item::Value(toml_edit::Value::Array(array))) => array
                    .iter()
                    .filter_map(|v| v.as_inline_table())
                    .map(|t| t.clone().into_table())
                    .collect(),
                _ => Vec::new(),
            }
        };
        for (index, rule) in tables("rule").iter().enumerate() {
            if !names_shell(rule) {
                continue;
            }
            let decision = rule.get("decision").and_then(|d| d.as_str());
            let prefixes = strings(rule.get("commandPrefix"));
            let narrowed = !prefixes.is_empty()
                || rule.contains_key("commandRegex")
                || rule.contains_key("argsPattern");
            if !narrowed {
                continue;
            }
            // A regex may match any command: no prefixes to look for.
            let prefixes = if rule.contains_key("commandPrefix") {
                prefixes
            } else {
                Vec::new()
            };
            let shown = format!("rule {} of {from}", index + 1);
            match decision {
                Some("deny") => self.deny.push((shown, prefixes)),
                Some("ask_user") => self.ask.push((shown, prefixes)),
                _ => {}
            }
        }
        for (index, checker) in tables("safety_checker").iter().enumerate() {
            if names_shell(checker) {
                self.deny.push((
                    format!("safety checker {} of {from}", index + 1),
                    Vec::new(),
                ));
            }
        }
    }

    /// What the rules say of `line`, in a folder Gemini CLI is known to
    /// trust or not.
    pub(super) fn keep(&self, line: &str, trusted: bool) -> Keep {
        let matching = |rules: &[(String, Vec<String>)]| {
            rules
                .iter()
                .find(|(_, prefixes)| {
                    prefixes.is_empty()
                        || prefixes.iter().any(|p| super::common::may_occur(p, line))
                })
                .map(|(shown, _)| shown.clone())
        };
        if let Some(rule) = matching(&self.deny) {
            return Keep::Refuse(rule);
        }
        if let Some(why) = &self.unknown {
            return Keep::Ask(why.clone());
        }
        if let Some(rule) = matching(&self.ask) {
            return Keep::Ask(format!(
                "your Gemini CLI policy ({rule}) asks about this command"
            ));
        }
        if !self.yolo {
            return Keep::Ask(
                "Gemini CLI asks about shell commands outside YOLO mode, and its own checks cannot see the command inside hookc's".to_owned(),
            );
        }
        if !trusted {
            return Keep::Ask(
                "hookc cannot tell whether Gemini CLI trusts this folder, and where it does not, Gemini CLI leaves YOLO mode and its own checks cannot see the command inside hookc's".to_owned(),
            );
        }
        Keep::Normal
    }

    /// Whether nobody can answer a question in this session.
    pub(super) fn headless(&self) -> bool {
        self.headless
    }
}

/// Whether a rule's `toolName` (a name, a glob, or a list of them) takes
/// in the shell tool.
fn names_shell(rule: &toml_edit::Table) -> bool {
    let names = strings(rule.get("toolName"));
    names.is_empty()
        || names.iter().any(|n| {
            n == "*"
                || SHELL_TOOLS.contains(&n.as_str())
                || (n.contains('*') && !n.starts_with("mcp_"))
        })
}

/// A string, or an array of strings, as a list.
fn strings(item: Option<&toml_edit::Item>) -> Vec<String> {
    match item {
        Some(item) => match item.as_value() {
            Some(toml_edit::Value::String(s)) => vec![s.value().clone()],
            Some(toml_edit::Value::Array(a)) => a
                .iter()
                .filter_map(|v| v.as_str())
                .map(str::to_owned)
                .collect(),
            _ => Vec::new(),
        },
        None => Vec::new(),
    }
}

/// What the `gemini` command line says that matters here.
#[derive(Debug, Default)]
struct Flags {
    /// `--policy` and `--admin-policy` paths (comma-separated or repeated).
    policies: Vec<String>,
    yolo: bool,
    headless: bool,
}

impl Flags {
    fn of(argv: &[String]) -> Flags {
        let mut flags = Flags::default();
        let mut interactive = false;
        let mut at = 1;
        while at < argv.len() {
            let word = argv[at].as_str();
            at += 1;
            let (name, inline) = match word.split_once('=') {
                Some((n, v)) if n.starts_with("--") => (n, Some(v.to_owned())),
                _ => (word, None),
            };
            let value = || inline.clone().or_else(|| argv.get(at).cloned());
            match name {
                "--policy" | "--admin-policy" => {
                    if let Some(v) = value() {
                        flags.policies.extend(
                            v.split(',')
                                .map(str::trim)
                                .filter(|p| !p.is_empty())
                                .map(str::to_owned),
                        );
                    }
                }
                "-y" | "--yolo" => flags.yolo = !matches!(inline.as_deref(), Some("false")),
                "--approval-mode" => flags.yolo = value().as_deref() == Some("yolo"),
                "-p" | "--prompt" => flags.headless = true,
                "-i" | "--prompt-interactive" => interactive = true,
                _ => {}
            }
        }
        flags.headless &= !interactive;
        flags
    }
}

/// The command line of the Gemini CLI process among this process's
/// ancestors: `gemini`, or node running its bundle's `gemini.js`.
fn gemini_command_line() -> Option<Vec<String>> {
    super::common::ancestor_command_line(&|w| {
        Path::new(w)
            .file_name()
            .is_some_and(|n| n == "gemini" || n == "gemini.js")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules_of(toml: &str) -> Rules {
        let mut rules = Rules {
            yolo: true,
            ..Rules::default()
        };
        rules.read_toml(toml, "p.toml");
        rules
    }

    #[test]
    fn a_narrowed_deny_rule_refuses_what_it_may_match() {
        let rules = rules_of(
            r#"
[[rule]]
toolName = "run_shell_command"
commandPrefix = ["git push", "npm publish"]
decision = "deny"
priority = 100

[[rule]]
toolName = "run_shell_command"
decision = "deny"
priority = 10
"#,
        );
        assert_eq!(
            rules.keep("g=$(echo x); git  push origin $g", true),
            Keep::Refuse("rule 1 of p.toml".into())
        );
        assert_eq!(
            rules.keep("x=$(echo npm); 'npm' publish", true),
            Keep::Refuse("rule 1 of p.toml".into())
        );
        // A rule for the whole tool matches the rewritten call as well.
        assert_eq!(rules.keep("c=$(echo ls); $c", true), Keep::Normal);
    }

    #[test]
    fn regexes_checkers_and_globs_may_match_anything() {
        let regex = rules_of(
            "[[rule]]\ntoolName = \"*\"\ncommandRegex = \"rm .*\"\ndecision = \"deny\"\npriority = 1\n",
        );
        assert!(matches!(
            regex.keep("c=$(echo ls); $c", true),
            Keep::Refuse(_)
        ));
        let checker = rules_of(
            "[[safety_checker]]\ntoolName = [\"run_shell_command\"]\npriority = 1\nchecker = { type = \"external\", name = \"x\" }\n",
        );
        assert!(matches!(checker.keep("x", true), Keep::Refuse(_)));
        let mcp = rules_of(
            "[[rule]]\ntoolName = \"mcp_s_*\"\nargsPattern = \"x\"\ndecision = \"deny\"\npriority = 1\n",
        );
        assert_eq!(mcp.keep("x", true), Keep::Normal);
        let ask = rules_of(
            "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"rm\"\ndecision = \"ask_user\"\npriority = 1\n",
        );
        assert!(matches!(
            ask.keep("f=$(ls); rm -f \"$f\"", true),
            Keep::Ask(_)
        ));
        assert_eq!(ask.keep("f=$(ls); cat \"$f\"", true), Keep::Normal);
    }

    #[test]
    fn outside_yolo_or_a_trusted_folder_the_user_is_asked() {
        let mut rules = Rules::default();
        assert!(matches!(rules.keep("c=$(echo ls); $c", true), Keep::Ask(_)));
        rules.yolo = true;
        assert_eq!(rules.keep("c=$(echo ls); $c", true), Keep::Normal);
        assert!(matches!(
            rules.keep("c=$(echo ls); $c", false),
            Keep::Ask(_)
        ));
        rules.unknown = Some("blind".into());
        assert_eq!(rules.keep("x", true), Keep::Ask("blind".into()));
        let mut ruled = Rules::default();
        ruled.read_toml("not toml [", "bad.toml");
        assert!(ruled.unknown.is_some_and(|u| u.contains("bad.toml")));
    }

    #[test]
    fn settings_exclude_narrowed_shell_entries_and_name_policy_paths() {
        let dir = std::env::temp_dir().join(format!("hookc-gemini-rules-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("settings.json");
        std::fs::write(
            &file,
            r#"{ // comments are allowed
  "tools": { "exclude": ["run_shell_command(git push)", "web_fetch"] },
  "policyPaths": ["/p/one.toml"]
}"#,
        )
        .unwrap();
        let mut rules = Rules {
            yolo: true,
            ..Rules::default()
        };
        let paths = rules.read_settings(&file);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(paths, [PathBuf::from("/p/one.toml")]);
        assert!(
            matches!(rules.keep("x=1; git push $x", true), Keep::Refuse(r) if r.contains("run_shell_command(git push)"))
        );
        assert_eq!(rules.keep("x=1; echo $x", true), Keep::Normal);
    }

    #[test]
    fn the_command_line_gives_policies_and_the_mode() {
        let argv: Vec<String> = [
            "node",
            "/x/bundle/gemini.js",
            "-y",
            "--policy",
            "/a.toml,/b",
            "--admin-policy=/c.toml",
            "-p",
            "do it",
        ]
        .map(String::from)
        .to_vec();
        let f = Flags::of(&argv);
        assert_eq!(f.policies, ["/a.toml", "/b", "/c.toml"]);
        assert!(f.yolo && f.headless);
        let f = Flags::of(&["gemini", "--approval-mode", "auto_edit", "-i", "x"].map(String::from));
        assert!(!f.yolo && !f.headless);
    }
}
