//! OpenCode's own permission rules for its `bash` tool, as far as the
//! plugin's `hookc guard` can see them, held against a call hookc is about
//! to run under its run-time judge.
//!
//! OpenCode 1.18.33 runs `tool.execute.before` first and then the tool with
//! the arguments the plugin changed; the `bash` tool asks for its
//! permissions inside, from the command it is given: each simple command's
//! text is matched against `permission.bash` patterns (`"git push *":
//! "deny"`), and the arguments of `cd`, `rm`, `cp`, `mv`, `mkdir`, `touch`,
//! `chmod`, `chown` and `cat` that lie outside the project make it ask for
//! `external_directory`. Inside `hookc exec … -- bash -c 'LINE'` it sees
//! neither. A plugin cannot ask the user, so before handing a call over
//! hookc refuses it where OpenCode might have refused or asked:
//!
//! * a `bash` pattern other than `*`, with `deny` or `ask`, that may match
//!   the line (its literal parts occur in it), in any config hookc can see
//!   or in any agent's `permission`;
//! * an agent file (`agent/*.md`) that names `bash`, whose rules hookc does
//!   not read;
//! * a word that may name a place outside the project (`/…` other than
//!   `/dev/null`, `~…`, `$HOME…`, `..`);
//! * a config hookc cannot read.
//!
//! Everything else (no rules, rules for the whole tool, allow rules) judges
//! the changed command as it would the original. Configs a plugin cannot
//! see are not held: a remote organisation config (`.well-known/opencode`).

use std::path::{Path, PathBuf};

use serde_json::Value;

/// Where a host (OpenCode, or its fork Kilo Code CLI) keeps its configs.
#[derive(Debug)]
pub(crate) struct Configs {
    /// The host's name in messages.
    pub name: &'static str,
    /// The folder under the user's config home, and the managed folder.
    pub global: &'static str,
    pub managed: &'static str,
    /// Config file names in each config folder.
    pub files: &'static [&'static str],
    /// Project folders that hold configs too (`.opencode`).
    pub dirs: &'static [&'static str],
    /// The prefix of its variables (`OPENCODE_`: `OPENCODE_CONFIG`,
    /// `…_CONFIG_DIR`, `…_CONFIG_CONTENT`, `…_PERMISSION`).
    pub env: &'static str,
    /// Variables that, set, bring in rules from places hookc does not read.
    pub unread: &'static [&'static str],
}

pub(crate) const OPENCODE: Configs = Configs {
    name: "OpenCode",
    global: "opencode",
    managed: "/etc/opencode",
    files: &["config.json", "opencode.json", "opencode.jsonc"],
    dirs: &[".opencode"],
    env: "OPENCODE_",
    unread: &[],
};

/// Kilo Code CLI 7.7.9: its own names first, OpenCode's files too, and
/// no `.opencode` folder.
pub(crate) const KILO: Configs = Configs {
    name: "Kilo Code CLI",
    global: "kilo",
    managed: "/etc/kilo",
    files: &[
        "config.json",
        "kilo.json",
        "kilo.jsonc",
        "opencode.json",
        "opencode.jsonc",
    ],
    dirs: &[".kilo", ".kilocode"],
    env: "KILO_",
    // Kilo then also reads Claude Code's settings.
    unread: &["KILO_EXPERIMENTAL_CLAUDE_MIGRATION"],
};

/// What hookc can see of a host's rules: a reason to refuse, if any.
#[derive(Debug, Default)]
pub(super) struct Rules {
    /// The host's name.
    host: &'static str,
    /// Narrowed `bash` patterns that deny or ask: each with where it is.
    narrowed: Vec<(String, String)>,
    /// Why hookc cannot tell, when something.
    unknown: Option<String>,
}

impl Rules {
    /// The rules for a session in `cwd` (or `root`, the project), with
    /// `home` as the user's home folder.
    pub(super) fn visible(
        host: &Configs,
        root: Option<&Path>,
        cwd: Option<&Path>,
        home: Option<&Path>,
    ) -> Rules {
        let mut rules = Rules {
            host: host.name,
            ..Rules::default()
        };
        let env = |name: &str| {
            let name = format!("{}{name}", host.env);
            std::env::var_os(&name)
                .filter(|v| !v.is_empty())
                .map(|v| (name, v))
        };
        let global = std::env::var_os("XDG_CONFIG_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| home.map(|h| h.join(".config")))
            .map(|c| c.join(host.global));
        let mut folders: Vec<PathBuf> = vec![PathBuf::from(host.managed)];
        folders.extend(global);
        folders.extend(env("CONFIG_DIR").map(|(_, v)| PathBuf::from(v)));
        // The project's configs, from the working folder up to the root.
        if let Some(start) = cwd.or(root) {
            for dir in start.ancestors() {
                folders.push(dir.to_path_buf());
                folders.extend(host.dirs.iter().map(|d| dir.join(d)));
                if Some(dir) == root {
                    break;
                }
            }
        }
        let mut files: Vec<PathBuf> = Vec::new();
        for folder in &folders {
            files.extend(host.files.iter().map(|name| folder.join(name)));
            for agents in ["agent", "agents"] {
                rules.read_agents(&folder.join(agents));
            }
        }
        files.extend(env("CONFIG").map(|(_, v)| PathBuf::from(v)));
        for file in files {
            match crate::disk::read_text(&file) {
                Ok(Some(text)) => rules.read_config(host, &text, &file.display().to_string()),
                Ok(None) => {}
                Err(e) => {
                    rules.unknown = Some(format!("hookc could not read {} ({e})", file.display()))
                }
            }
        }
        if let Some((name, text)) = env("CONFIG_CONTENT") {
            rules.read_config(host, &text.to_string_lossy(), &name);
        }
        for name in host.unread {
            if std::env::var_os(name).is_some_and(|v| !v.is_empty()) {
                rules.unknown = Some(format!(
                    "{name} is set, which brings in rules from files hookc does not read"
                ));
            }
        }
        if let Some((name, text)) = env("PERMISSION") {
            let text = format!("{{\"permission\": {}}}", text.to_string_lossy());
            rules.read_config(host, &text, &name);
        }
        rules
    }

    /// The narrowed `bash` rules of one config document: its `permission`,
    /// and each of its agents'.
    fn read_config(&mut self, host: &Configs, text: &str, from: &str) {
        let Ok(value) = jsonc_parser::parse_to_serde_value::<Value>(text, &Default::default())
        else {
            self.unknown = Some(format!("{from} is not JSON hookc can read"));
            return;
        };
        self.read_permission(host, value.get("permission"), from);
        if let Some(agents) = value.get("agent").and_then(Value::as_object) {
            for (name, agent) in agents {
                self.read_permission(
                    host,
                    agent.get("permission"),
                    &format!("agent {name} in {from}"),
                );
            }
        }
    }

    /// The narrowed patterns of `bash`, and of `*` (every permission).
    fn read_permission(&mut self, host: &Configs, permission: Option<&Value>, from: &str) {
        for key in ["bash", "*"] {
            let Some(Value::Object(patterns)) = permission.and_then(|p| p.get(key)) else {
                continue;
            };
            for (pattern, action) in patterns {
                if pattern.trim() != "*" && matches!(action.as_str(), Some("deny" | "ask")) {
                    self.narrowed.push((
                        pattern.clone(),
                        format!(
                            "your {} permission rule `\"{pattern}\": {action}` in {from}",
                            host.name
                        ),
                    ));
                }
            }
        }
    }

    /// Agent files, whose front matter may hold rules hookc does not read:
    /// one that names `bash` makes hookc unsure.
    fn read_agents(&mut self, folder: &Path) {
        let Ok(dir) = std::fs::read_dir(folder) else {
            return;
        };
        for entry in dir.filter_map(Result::ok) {
            let path = entry.path();
            if path.extension().is_some_and(|x| x == "md")
                && std::fs::read_to_string(&path).is_ok_and(|t| t.contains("bash"))
            {
                self.unknown = Some(format!(
                    "the agent file {} may hold rules for bash, which hookc does not read",
                    path.display()
                ));
            }
        }
    }

    /// Why OpenCode might refuse or ask about `line` where it could not
    /// about the changed command, if it might; `root` is the project.
    pub(super) fn refusal(&self, line: &str, root: Option<&Path>) -> Option<String> {
        for (pattern, shown) in &self.narrowed {
            // OpenCode's wildcards: `*` any run of characters, `?` one.
            if pattern
                .split(['*', '?'])
                .all(|part| super::common::may_occur(part, line))
            {
                return Some(format!("{shown} may refuse or ask about this command"));
            }
        }
        if let Some(why) = &self.unknown {
            return Some(why.clone());
        }
        outside(line, root).map(|word| {
            format!(
                "`{word}` may name a place outside the project, which {} asks about (external_directory) and cannot see in a changed command",
                self.host
            )
        })
    }
}

/// A word of `line` that may name a place outside `root`: an absolute path
/// not under it (but `/dev/null`), one from the home folder (`~`, `$HOME`),
/// or one going up.
fn outside(line: &str, root: Option<&Path>) -> Option<String> {
    line.split(|c: char| c.is_whitespace() || ";&|()<>=`".contains(c))
        .map(|w| w.trim_matches(|c| c == '\'' || c == '"'))
        .find(|w| {
            let absolute = w.starts_with('/')
                && *w != "/dev/null"
                && !root.is_some_and(|r| Path::new(w).starts_with(r));
            // OpenCode expands `$HOME` (and `$PWD`) itself before it looks.
            let home = w.starts_with("$HOME") || w.starts_with("${HOME}");
            absolute || home || w.starts_with('~') || w.contains("..")
        })
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrowed_rules_that_may_match_and_places_outside_refuse() {
        let mut rules = Rules::default();
        rules.read_config(
            &OPENCODE,
            r#"{ // comments are allowed
  "permission": { "bash": { "*": "ask", "git push *": "deny", "ls *": "allow", "git reset -?": "deny" } },
  "agent": { "build": { "permission": { "bash": { "rm *": "ask" } } } }
}"#,
            "opencode.jsonc",
        );
        let root = Path::new("/repo");
        assert!(
            rules
                .refusal("m=$(date); git push origin $m", Some(root))
                .is_some_and(|r| r.contains("git push *"))
        );
        assert!(
            rules
                .refusal("f=$(ls); rm -f \"$f\"", Some(root))
                .is_some_and(|r| r.contains("agent build"))
        );
        assert!(
            rules
                .refusal("x=$(date); git reset -f $x", Some(root))
                .is_some_and(|r| r.contains("git reset -?"))
        );
        assert_eq!(
            rules.refusal("c=$(echo ls); $c 2>/dev/null", Some(root)),
            None
        );
        assert_eq!(rules.refusal("f=$(ls); cat /repo/src/$f", Some(root)), None);
        for line in [
            "f=$(ls); cat /etc/$f",
            "cd ~/x && $c",
            "c=$(echo ls); $c ../up",
            "c=cat; $c $HOME/.ssh/config",
        ] {
            assert!(rules.refusal(line, Some(root)).is_some(), "{line}");
        }
        // A whole-tool rule judges the changed command alike.
        let mut whole = Rules::default();
        whole.read_config(&OPENCODE, r#"{"permission": {"bash": "ask"}}"#, "x");
        assert_eq!(whole.refusal("c=$(echo ls); $c", Some(root)), None);
        let mut broken = Rules::default();
        broken.read_config(&KILO, "{", "bad.json");
        assert!(
            broken
                .refusal("x", Some(root))
                .is_some_and(|r| r.contains("bad.json"))
        );
    }
}
