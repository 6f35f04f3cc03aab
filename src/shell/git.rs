//! git deciding for itself: the configuration that will apply when a git
//! command runs can turn `git pf` into `git push --force` (an alias), `git
//! psuh` into `git push` (`help.autocorrect`), and a plain `git push` into a
//! forced one (`remote.<name>.mirror`, a `+` refspec in `remote.<name>.push`).
//!
//! `hookc guard` reads that configuration where the call will run (the
//! system's, the user's, the repository's, and what they include) and
//! rewrites the analysed git commands to what git will really run. Building
//! and examples never read it, so a build does not depend on the machine.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::normalize::{Analysis, SimpleCommand};

/// What git's configuration changes about the commands it runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GitConfig {
    /// `alias.NAME` → its value, names lower-cased as git compares them.
    aliases: BTreeMap<String, String>,
    /// `help.autocorrect` runs a mistyped command's correction.
    autocorrect: bool,
    /// Some remote pushes by force without a flag (`mirror`, `+refspec`).
    forced_push: bool,
    /// A file that could not be read in full: what git does is unknown.
    unreadable: Option<String>,
}

/// How deep includes and aliases of aliases are followed.
const MAX_DEPTH: usize = 8;

impl GitConfig {
    /// The configuration a git command started in `cwd` reads.
    pub fn load(cwd: Option<&Path>, home: Option<&Path>) -> GitConfig {
        let mut config = GitConfig::default();
        let env = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let mut files: Vec<PathBuf> = Vec::new();
        if std::env::var_os("GIT_CONFIG_NOSYSTEM").is_none() {
            files.push(env("GIT_CONFIG_SYSTEM").unwrap_or_else(|| PathBuf::from("/etc/gitconfig")));
        }
        match env("GIT_CONFIG_GLOBAL") {
            Some(global) => files.push(global),
            None => {
                let xdg = env("XDG_CONFIG_HOME").or_else(|| home.map(|h| h.join(".config")));
                files.extend(xdg.map(|x| x.join("git/config")));
                files.extend(home.map(|h| h.join(".gitconfig")));
            }
        }
        files.extend(cwd.and_then(|d| repository_config(d, home)));
        for file in files {
            config.read(&file, home, 0);
        }
        config
    }

    fn read(&mut self, file: &Path, home: Option<&Path>, depth: usize) {
        if depth > MAX_DEPTH {
            self.unreadable = Some(format!("includes nested too deeply at {}", file.display()));
            return;
        }
        let text = match crate::disk::read_text(file) {
            Ok(Some(text)) => text,
            Ok(None) => return,
            Err(e) => {
                self.unreadable = Some(format!("{}: {e}", file.display()));
                return;
            }
        };
        for (section, key, value) in entries(&text) {
            match (section.as_str(), key.as_str()) {
                ("alias", name) => {
                    self.aliases.insert(name.to_owned(), value);
                }
                ("help", "autocorrect") => {
                    self.autocorrect = !matches!(
                        value.to_ascii_lowercase().as_str(),
                        "0" | "false" | "never" | "show" | "no" | "off"
                    );
                }
                ("remote", "mirror") => {
                    self.forced_push |= matches!(
                        value.to_ascii_lowercase().as_str(),
                        "true" | "yes" | "on" | "1" | ""
                    );
                }
                ("remote", "push") => self.forced_push |= value.starts_with('+'),
                ("include" | "includeif", "path") => {
                    let path = match value.strip_prefix("~/") {
                        Some(rest) => home.map(|h| h.join(rest)),
                        None => Some(file.parent().unwrap_or(Path::new("/")).join(&value)),
                    };
                    if let Some(path) = path {
                        self.read(&path, home, depth + 1);
                    }
                }
                _ => {}
            }
        }
    }

    /// Rewrite the git commands of `analysis` to what git will run.
    pub fn apply(&self, analysis: &mut Analysis) {
        let commands = std::mem::take(&mut analysis.commands);
        for cmd in commands {
            if cmd.program == "git" {
                self.resolve(analysis, cmd, 0);
            } else {
                analysis.commands.push(cmd);
            }
        }
    }

    fn resolve(&self, analysis: &mut Analysis, mut cmd: SimpleCommand, depth: usize) {
        let Some(sub) = cmd.args.first().cloned() else {
            analysis.commands.push(cmd);
            return;
        };
        let builtin = BUILTIN.contains(&sub.as_str());
        if let Some(why) = &self.unreadable {
            super::lex::push_reason(
                &mut analysis.opaque,
                format!("git's configuration could not be read ({why})"),
            );
        }
        match self.aliases.get(&sub.to_ascii_lowercase()) {
            // git ignores an alias that would hide one of its commands.
            Some(value) if !builtin => {
                if depth >= MAX_DEPTH {
                    super::lex::push_reason(
                        &mut analysis.opaque,
                        "git aliases nested too deeply".to_owned(),
                    );
                    analysis.commands.push(cmd);
                    return;
                }
                if let Some(shell) = value.strip_prefix('!') {
                    // git runs `sh -c 'VALUE "$@"' ARGS…`.
                    let mut line = shell.to_owned();
                    for arg in &cmd.args[1..] {
                        line.push(' ');
                        line.push_str(&super::sh_word(arg));
                    }
                    let inner = super::analyze(&line);
                    for o in inner.opaque {
                        super::lex::push_reason(&mut analysis.opaque, o.reason);
                    }
                    for c in inner.commands {
                        self.resolve_any(analysis, c, depth + 1);
                    }
                    analysis.commands.push(cmd);
                    return;
                }
                let words: Vec<String> = super::lex(value)
                    .commands
                    .into_iter()
                    .flat_map(|c| c.words)
                    .map(|w| w.text)
                    .collect();
                let shift = words.len();
                let rest = cmd.args.split_off(1);
                // Word indices after the alias: its words replace the first.
                let shifted = |ks: &[usize]| -> Vec<usize> {
                    ks.iter()
                        .filter(|&&k| k > 0)
                        .map(|&k| k - 1 + shift)
                        .collect()
                };
                let expanded = SimpleCommand {
                    args: words.into_iter().chain(rest).collect(),
                    unknown: shifted(&cmd.unknown),
                    globs: shifted(&cmd.globs),
                    ..cmd
                };
                self.resolve(analysis, expanded, depth + 1);
                return;
            }
            _ => {}
        }
        if !builtin && self.autocorrect {
            super::lex::push_reason(
                &mut analysis.opaque,
                format!("`git {sub}`, which git's help.autocorrect may run as another command"),
            );
        }
        if sub == "push" && self.forced_push && !cmd.args.iter().any(|a| a == "--force") {
            // The configuration forces the push: say so where patterns look.
            cmd.args.push("--force".to_owned());
        }
        analysis.commands.push(cmd);
    }

    fn resolve_any(&self, analysis: &mut Analysis, cmd: SimpleCommand, depth: usize) {
        if cmd.program == "git" {
            self.resolve(analysis, cmd, depth);
        } else {
            analysis.commands.push(cmd);
        }
    }
}

/// The `.git/config` of the repository around `dir` (and what a `.git` file
/// points to), looking no further up than `home`.
fn repository_config(dir: &Path, home: Option<&Path>) -> Option<PathBuf> {
    let mut at = Some(dir);
    while let Some(d) = at {
        let git = d.join(".git");
        if git.is_dir() {
            return Some(git.join("config"));
        }
        if git.is_file() {
            let text = crate::disk::read_text(&git).ok()??;
            let target = text.trim().strip_prefix("gitdir:")?.trim().to_owned();
            let target = d.join(target);
            // A worktree's gitdir holds `commondir`, where the shared config is.
            let common = crate::disk::read_text(&target.join("commondir"))
                .ok()
                .flatten()
                .map(|c| target.join(c.trim()))
                .unwrap_or(target);
            return Some(common.join("config"));
        }
        if home.is_some_and(|h| d == h) {
            return None;
        }
        at = d.parent();
    }
    None
}

/// `(section, key, value)` of a git config file: sections lower-cased (a
/// subsection is dropped: hookc needs only which kind of setting), keys
/// lower-cased, values unquoted. A key without `=` is `true`, as in git.
fn entries(text: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let mut section = String::new();
    let mut pending = String::new();
    for raw in text.lines() {
        // A trailing backslash continues the line.
        if let Some(part) = raw.strip_suffix('\\') {
            pending.push_str(part);
            continue;
        }
        let line = std::mem::take(&mut pending) + raw;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        let mut rest = line;
        if let Some(header) = rest.strip_prefix('[') {
            let Some(end) = header.find(']') else {
                continue;
            };
            let name = header[..end].trim();
            let name = name.split([' ', '\t', '"']).next().unwrap_or(name);
            // `[remote.origin]` is the old spelling of `[remote "origin"]`.
            section = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
            rest = header[end + 1..].trim();
            if rest.is_empty() {
                continue;
            }
        }
        let (key, value) = match rest.split_once('=') {
            Some((k, v)) => (k.trim(), unquote(v.trim())),
            None => (rest.trim(), String::new()),
        };
        out.push((section.clone(), key.to_ascii_lowercase(), value));
    }
    out
}

/// A git config value: quotes removed, escapes resolved, a comment cut off.
fn unquote(value: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => quoted = !quoted,
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('b') => {
                    out.pop();
                }
                Some(other) => out.push(other),
                None => {}
            },
            '#' | ';' if !quoted => break,
            c => out.push(c),
        }
    }
    out.trim_end().to_owned()
}

/// git's own commands: an alias with one of these names is ignored, and
/// `help.autocorrect` leaves them alone.
const BUILTIN: &[&str] = &[
    "add",
    "am",
    "annotate",
    "apply",
    "archive",
    "bisect",
    "blame",
    "branch",
    "bugreport",
    "bundle",
    "cat-file",
    "check-attr",
    "check-ignore",
    "check-mailmap",
    "check-ref-format",
    "checkout",
    "checkout-index",
    "cherry",
    "cherry-pick",
    "citool",
    "clean",
    "clone",
    "column",
    "commit",
    "commit-graph",
    "commit-tree",
    "config",
    "count-objects",
    "credential",
    "describe",
    "diagnose",
    "diff",
    "diff-files",
    "diff-index",
    "diff-tree",
    "difftool",
    "fast-export",
    "fast-import",
    "fetch",
    "fetch-pack",
    "filter-branch",
    "fmt-merge-msg",
    "for-each-ref",
    "for-each-repo",
    "format-patch",
    "fsck",
    "gc",
    "get-tar-commit-id",
    "grep",
    "gui",
    "hash-object",
    "help",
    "hook",
    "index-pack",
    "init",
    "instaweb",
    "interpret-trailers",
    "log",
    "ls-files",
    "ls-remote",
    "ls-tree",
    "mailinfo",
    "mailsplit",
    "maintenance",
    "merge",
    "merge-base",
    "merge-file",
    "merge-index",
    "merge-tree",
    "mergetool",
    "mktag",
    "mktree",
    "multi-pack-index",
    "mv",
    "name-rev",
    "notes",
    "pack-objects",
    "pack-refs",
    "patch-id",
    "prune",
    "prune-packed",
    "pull",
    "push",
    "range-diff",
    "read-tree",
    "rebase",
    "reflog",
    "remote",
    "repack",
    "replace",
    "replay",
    "request-pull",
    "rerere",
    "reset",
    "restore",
    "rev-list",
    "rev-parse",
    "revert",
    "rm",
    "send-email",
    "send-pack",
    "shortlog",
    "show",
    "show-branch",
    "show-index",
    "show-ref",
    "sparse-checkout",
    "stage",
    "stash",
    "status",
    "stripspace",
    "submodule",
    "switch",
    "symbolic-ref",
    "tag",
    "unpack-file",
    "unpack-objects",
    "update-index",
    "update-ref",
    "update-server-info",
    "var",
    "verify-commit",
    "verify-pack",
    "verify-tag",
    "version",
    "whatchanged",
    "worktree",
    "write-tree",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> GitConfig {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("c"), text).unwrap();
        let mut c = GitConfig::default();
        c.read(&dir.path().join("c"), None, 0);
        c
    }

    fn seen(c: &GitConfig, line: &str) -> Analysis {
        let mut a = super::super::analyze(line);
        c.apply(&mut a);
        a
    }

    fn has(a: &Analysis, program: &str, args: &[&str]) -> bool {
        a.commands
            .iter()
            .any(|c| c.program == program && args.iter().all(|x| c.args.iter().any(|a| a == x)))
    }

    #[test]
    fn aliases_expand_to_what_git_runs() {
        let c = config(
            "[alias]\n\tpf = push --force\n\tp = pf\n\tnuke = \"!rm -rf build\"\n\tpush = status\n",
        );
        assert!(has(
            &seen(&c, "git pf origin main"),
            "git",
            &["push", "--force", "origin"]
        ));
        assert!(has(&seen(&c, "git p"), "git", &["push", "--force"]));
        assert!(has(&seen(&c, "git nuke"), "rm", &["-rf", "build"]));
        // An alias that would hide a git command is ignored, as git does.
        assert!(has(&seen(&c, "git push -f"), "git", &["push", "-f"]));
        assert!(!has(&seen(&c, "git push"), "git", &["status"]));
    }

    #[test]
    fn autocorrect_and_forced_remotes() {
        let c = config("[help]\n\tautocorrect = immediate\n");
        assert!(seen(&c, "git psuh --force").is_opaque());
        assert!(!seen(&c, "git status").is_opaque());
        let c = config("[help]\n\tautocorrect = 0\n");
        assert!(!seen(&c, "git psuh").is_opaque());
        let c = config("[remote \"origin\"]\n\turl = x\n\tmirror = true\n");
        assert!(has(
            &seen(&c, "git push origin"),
            "git",
            &["push", "--force"]
        ));
        let c = config("[remote \"origin\"]\n\tpush = +refs/heads/main:refs/heads/main\n");
        assert!(has(&seen(&c, "git push"), "git", &["--force"]));
        let c = config("[remote \"origin\"]\n\tpush = refs/heads/main:refs/heads/main\n");
        assert!(!has(&seen(&c, "git push"), "git", &["--force"]));
    }

    #[test]
    fn includes_are_followed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("more"), "[alias]\n pf = push -f\n").unwrap();
        std::fs::write(dir.path().join("main"), "[include]\n path = more\n").unwrap();
        let mut c = GitConfig::default();
        c.read(&dir.path().join("main"), None, 0);
        assert!(has(&seen(&c, "git pf"), "git", &["push", "-f"]));
        // A loop of includes ends.
        std::fs::write(dir.path().join("more"), "[include]\n path = main\n").unwrap();
        let mut c = GitConfig::default();
        c.read(&dir.path().join("main"), None, 0);
        assert!(c.unreadable.is_some());
    }

    #[test]
    fn the_repository_config_is_found_from_a_subdirectory() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("repo/.git")).unwrap();
        std::fs::create_dir_all(dir.path().join("repo/src/deep")).unwrap();
        std::fs::write(
            dir.path().join("repo/.git/config"),
            "[alias]\n pf = push --force\n",
        )
        .unwrap();
        let c = GitConfig::load(Some(&dir.path().join("repo/src/deep")), Some(dir.path()));
        assert!(has(&seen(&c, "git pf"), "git", &["push", "--force"]));
    }
}
