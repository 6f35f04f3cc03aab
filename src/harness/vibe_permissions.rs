//! Mistral Vibe's own rules for its shell tool, as far as hookc's hook can
//! see them, held against a call hookc is about to run under its run-time
//! judge.
//!
//! Vibe 3.0.2 runs the `pre_tool` hooks first and then judges the call as
//! the hooks left it: its permission resolver reads the shell line with
//! tree-sitter and matches each simple command against the `bash` tool's
//! `denylist` (a prefix: `git push` refuses `git push --force`) and
//! `denylist_standalone` (a program run with no arguments), which refuse
//! outright; anything else it cannot approve by its `allowlist` or the
//! tool's `permission = "always"` it asks the user about. Inside
//! `hookc exec … -- bash -c 'LINE'` it sees none of LINE's commands. So:
//!
//! * hookc hands Vibe the changed line behind an assignment
//!   (`HOOKC_SUPERVISED=vibe '…/hookc' exec …`). To Vibe an assignment in
//!   front means the line may run something else than it reads, so it
//!   asks about that exact line whatever its `allowlist` or `permission`
//!   say, and a grant the user gives covers that line only. The user is
//!   asked wherever Vibe asks at all. With `--auto-approve` nothing is
//!   asked and Vibe applies no deny list either, to the original line as
//!   to the changed one.
//! * The refusals it would lose, hookc keeps: where a `denylist` or
//!   `denylist_standalone` entry may match a command of the original line
//!   (its words are among the line's words), hookc refuses the call
//!   itself, with `--auto-approve` too (hookc cannot tell for sure that it
//!   is on: an organisation's `enable_auto_approve = false` turns it off).
//!
//! Where the entries come from: Vibe's defaults, `$VIBE_HOME/config.toml`
//! (`~/.vibe`), each `.vibe/config.toml` from the session's folder up, the
//! organisation's config Vibe caches in `managed_config_cache.json`, and
//! the agent profiles in `$VIBE_HOME/agents` and `.vibe/agents`, all of
//! them at once (more entries can only refuse more). What hookc cannot read
//! makes it refuse: a file it cannot parse, `VIBE_TOOLS…` or
//! `VIBE_AGENT_PATHS…` in the environment, `agent_paths` in a config, or a
//! session under `vibe run-server`, which takes the user's config from its
//! client.

use std::path::{Path, PathBuf};

/// What Vibe refuses by default on a POSIX system (`bash.py`).
const DENYLIST: &[&str] = &[
    "gdb", "pdb", "passwd", "nano", "vim", "vi", "emacs", "bash -i", "sh -i", "zsh -i", "fish -i",
    "dash -i", "screen", "tmux",
];
const STANDALONE: &[&str] = &[
    "python", "python3", "ipython", "bash", "sh", "nohup", "vi", "vim", "emacs", "nano", "su",
];

/// The assignment in front of the changed line (see the module's text).
pub(super) const MARK: &str = "HOOKC_SUPERVISED=vibe";

/// One entry of a deny list, and where it is.
#[derive(Debug)]
struct Entry {
    pattern: String,
    from: String,
}

/// What hookc can see of Vibe's refusals for its shell tool.
#[derive(Debug, Default)]
pub(super) struct Rules {
    /// `denylist` entries: a command starting with these words.
    denied: Vec<Entry>,
    /// `denylist_standalone` entries: a program run alone.
    standalone: Vec<Entry>,
    /// Why hookc cannot tell, when something.
    unknown: Option<String>,
}

impl Rules {
    /// The rules for a session in `cwd`, with Vibe's folder `vibe_home`.
    pub(super) fn visible(cwd: Option<&Path>, vibe_home: Option<&Path>) -> Rules {
        let mut rules = Rules::defaults();
        let mut configs: Vec<PathBuf> = Vec::new();
        let mut agent_dirs: Vec<PathBuf> = Vec::new();
        if let Some(home) = vibe_home {
            configs.push(home.join("config.toml"));
            agent_dirs.push(home.join("agents"));
            rules.read_managed(&home.join("managed_config_cache.json"));
        }
        for dir in cwd.into_iter().flat_map(Path::ancestors) {
            configs.push(dir.join(".vibe/config.toml"));
            agent_dirs.push(dir.join(".vibe/agents"));
        }
        for file in configs {
            rules.read_file(&file);
        }
        for dir in agent_dirs {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.filter_map(Result::ok) {
                let path = entry.path();
                if path.extension().is_some_and(|x| x == "toml") {
                    rules.read_file(&path);
                }
            }
        }
        for (name, _) in std::env::vars_os() {
            let name = name.to_string_lossy().to_ascii_uppercase();
            if name.starts_with("VIBE_TOOLS") || name.starts_with("VIBE_AGENT_PATHS") {
                rules.unknown = Some(format!(
                    "{name} is set, which may change Vibe's rules for its shell tool in a way hookc does not read"
                ));
            }
        }
        if under_run_server() {
            rules.unknown = Some(
                "this session runs under Vibe's `run-server`, which takes its config from its client, where hookc cannot read it"
                    .to_owned(),
            );
        }
        rules
    }

    fn defaults() -> Rules {
        let entries = |list: &[&str]| {
            list.iter()
                .map(|p| Entry {
                    pattern: (*p).to_owned(),
                    from: "Vibe's defaults".to_owned(),
                })
                .collect()
        };
        Rules {
            denied: entries(DENYLIST),
            standalone: entries(STANDALONE),
            unknown: None,
        }
    }

    fn read_file(&mut self, file: &Path) {
        match crate::disk::read_text(file) {
            Ok(Some(text)) => self.read_config(&text, &file.display().to_string()),
            Ok(None) => {}
            Err(e) => {
                self.unknown = Some(format!("hookc could not read {} ({e})", file.display()));
            }
        }
    }

    /// The organisation's config, as Vibe last fetched it: a JSON object
    /// of entries whose `payload` is TOML.
    fn read_managed(&mut self, file: &Path) {
        let from = file.display().to_string();
        let text = match crate::disk::read_text(file) {
            Ok(Some(text)) => text,
            Ok(None) => return,
            Err(e) => {
                self.unknown = Some(format!("hookc could not read {from} ({e})"));
                return;
            }
        };
        let Ok(serde_json::Value::Object(entries)) = serde_json::from_str(&text) else {
            self.unknown = Some(format!("{from} is not JSON hookc can read"));
            return;
        };
        for entry in entries.values() {
            match entry.get("payload") {
                Some(serde_json::Value::String(toml)) => {
                    self.read_config(toml, &format!("your organisation's config ({from})"));
                }
                None | Some(serde_json::Value::Null) => {}
                Some(_) => self.unknown = Some(format!("{from} holds an entry hookc cannot read")),
            }
        }
    }

    /// The shell tools' deny lists of one config document (a config file,
    /// or an agent profile, whose keys override the config's).
    fn read_config(&mut self, text: &str, from: &str) {
        let Ok(doc) = text.parse::<toml_edit::DocumentMut>() else {
            self.unknown = Some(format!("{from} is not TOML hookc can read"));
            return;
        };
        if doc.contains_key("agent_paths") {
            self.unknown = Some(format!(
                "{from} names more folders of agent profiles (`agent_paths`), which hookc does not read"
            ));
        }
        let Some(tools) = doc.get("tools").and_then(toml_edit::Item::as_table_like) else {
            return;
        };
        // The shells Vibe's shell tools stand for; on Linux it is `bash`.
        for shell in ["bash", "git_bash", "powershell"] {
            let Some(tool) = tools.get(shell).and_then(toml_edit::Item::as_table_like) else {
                continue;
            };
            for (key, list) in [
                ("denylist", &mut self.denied),
                ("denylist_standalone", &mut self.standalone),
            ] {
                let Some(item) = tool.get(key) else {
                    continue;
                };
                let Some(array) = item.as_array() else {
                    self.unknown = Some(format!("`tools.{shell}.{key}` in {from} is not a list"));
                    continue;
                };
                for value in array {
                    match value.as_str() {
                        Some(pattern) => list.push(Entry {
                            pattern: pattern.to_owned(),
                            from: format!("`tools.{shell}.{key}` in {from}"),
                        }),
                        None => {
                            self.unknown = Some(format!(
                                "`tools.{shell}.{key}` in {from} holds a non-string"
                            ));
                        }
                    }
                }
            }
        }
    }

    /// Why Vibe might refuse `line` where it could not refuse the changed
    /// command, if it might.
    pub(super) fn refusal(&self, line: &str) -> Option<String> {
        let line_words = words(line);
        for entry in &self.denied {
            // An entry's words, read as the line's are.
            let pattern = words(&entry.pattern);
            if !pattern.is_empty() && line_words.windows(pattern.len()).any(|w| w == pattern) {
                return Some(format!(
                    "Vibe refuses a command starting `{}` ({}), and this line may run one",
                    entry.pattern, entry.from
                ));
            }
        }
        for entry in &self.standalone {
            let name = entry.pattern.trim();
            let hit = line_words.iter().any(|w| {
                w == name
                    || Path::new(w)
                        .file_name()
                        .is_some_and(|n| n.to_string_lossy() == name)
            });
            if hit {
                return Some(format!(
                    "Vibe refuses `{name}` run alone ({}), and this line may run it",
                    entry.from
                ));
            }
        }
        self.unknown.clone()
    }
}

/// The words of a shell line, as far as they can be told without running
/// it: split at white space and at what separates commands, quotes and
/// backslashes taken out (Vibe reads `eval "vim x"`'s argument as a line).
fn words(line: &str) -> Vec<String> {
    line.split(|c: char| c.is_whitespace() || ";&|()<>{}`$".contains(c))
        .map(|w| {
            w.chars()
                .filter(|c| !matches!(c, '\'' | '"' | '\\'))
                .collect::<String>()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// Whether this process runs under Vibe's `run-server` (`vibe run-server`,
/// whose `vibe-app-server` runs the hooks), which takes the user's config
/// from its client. The `vibe` command (Vibe 3.0.2: its launcher becomes
/// `…/vibe/_bin/vibe-rs`) and `vibe-acp` read the files hookc reads.
fn under_run_server() -> bool {
    let named = |w: &str| {
        Path::new(w)
            .file_name()
            .is_some_and(|n| n == "vibe" || n == "vibe-rs")
    };
    super::common::ancestor_command_line(&named)
        .is_some_and(|argv| argv.iter().any(|w| w == "run-server"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deny_list_entry_whose_words_may_start_a_command_refuses() {
        let mut rules = Rules::defaults();
        rules.read_config(
            "[tools.bash]\ndenylist = [\"git push\"]\ndenylist_standalone = [\"node\"]\n",
            "config.toml",
        );
        for (line, says) in [
            ("c=$(date); git push origin \"$c\"", "git push"),
            ("x=$(ls); 'git' \"push\" $x", "git push"),
            ("eval \"vim $f\"", "`vim`"),
            ("c=$(which node); /usr/bin/node", "`node` run alone"),
            ("X=1 bash", "`bash` run alone"),
        ] {
            assert!(
                rules.refusal(line).is_some_and(|r| r.contains(says)),
                "{line}: {:?}",
                rules.refusal(line)
            );
        }
        for line in [
            "c=$(printf 'tou%s' ch); $c x",
            "rm -f \"$TMPFILE\"",
            "f=$(ls); git pushx $f",
            "echo environment review",
        ] {
            assert_eq!(rules.refusal(line), None, "{line}");
        }
    }

    #[test]
    fn a_config_hookc_cannot_read_refuses() {
        let mut rules = Rules::defaults();
        rules.read_config("[tools.bash\n", "broken.toml");
        assert!(
            rules
                .refusal("c=$(date); $c")
                .is_some_and(|r| r.contains("broken.toml"))
        );
        let mut rules = Rules::defaults();
        rules.read_config("agent_paths = [\"/x\"]\n", "config.toml");
        assert!(
            rules
                .refusal("c=$(date); $c")
                .is_some_and(|r| r.contains("agent_paths"))
        );
        let mut rules = Rules::defaults();
        rules.read_config("[tools.bash]\ndenylist = \"rm\"\n", "config.toml");
        assert!(
            rules
                .refusal("c=$(date); $c")
                .is_some_and(|r| r.contains("not a list"))
        );
    }

    #[test]
    fn the_organisations_cached_config_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("managed_config_cache.json");
        let entry = serde_json::json!({
            "k": {"stored_at_timestamp": 1, "payload": "[tools.bash]\ndenylist = [\"curl\"]\n"}
        });
        std::fs::write(&cache, entry.to_string()).unwrap();
        let mut rules = Rules::defaults();
        rules.read_managed(&cache);
        assert!(
            rules
                .refusal("u=$(cat f); curl \"$u\"")
                .is_some_and(|r| r.contains("organisation"))
        );
        std::fs::write(&cache, "[").unwrap();
        let mut broken = Rules::defaults();
        broken.read_managed(&cache);
        assert!(broken.refusal("c=$(date); $c").is_some());
    }
}
