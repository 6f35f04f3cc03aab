//! The commands ssh's settings files make it run on this machine.
//!
//! `ssh`, and every program that starts it (`scp`, `sftp`, `rsync`, a
//! `git push` to an ssh remote), reads `~/.ssh/config` and the system's
//! `ssh_config` before it connects. A `ProxyCommand`, `LocalCommand` or
//! `KnownHostsCommand` there is a shell command ssh runs here, and `Match
//! exec "…"` runs one to decide whether a block applies; `PKCS11Provider`
//! and `SecurityKeyProvider` load a library into ssh. An earlier call may
//! have written any of these (`echo 'ProxyCommand rm -rf ~' >>
//! ~/.ssh/config`), so a later `git push` the guard allows would run it.
//! Where a call is judged, the files are read as ssh reads them, with
//! their `Include`s (ssh's own depth limit, and bounds of size and
//! count), and each command is read as a line of the call; what cannot be
//! read makes the call opaque. `-F FILE` replaces these files, and is
//! read by the option table instead (`programs::local_runs`).

use std::path::{Path, PathBuf};

/// The user's settings, as a line names them; with the folders ssh's
/// settings live in ([`SETTINGS_FOLDERS`]), what a line must not write
/// before it connects.
pub const USER_SETTINGS: &str = "~/.ssh/config";

/// Where ssh's settings files and what they include live.
pub const SETTINGS_FOLDERS: &[&str] = &["~/.ssh", "/etc/ssh"];

/// The largest settings file read.
const MAX_BYTES: u64 = 256 * 1024;
/// The most files read, `Include`s and their globs' matches together.
const MAX_FILES: usize = 64;
/// ssh's own limit on nested `Include`s.
const MAX_DEPTH: usize = 16;

/// What ssh's settings make it do here, besides connecting.
#[derive(Debug, PartialEq, Eq)]
pub enum Setting {
    /// A command line ssh runs through the user's shell.
    Line(String),
    /// Why the settings cannot be read (a file that cannot be read, a
    /// library loaded, too many files): the reason the call is opaque.
    Unreadable(String),
}

/// Programs that run ssh with the user's settings on every connection,
/// and for git the subcommands that may connect over ssh.
pub fn connects(program: &str, args: &[&str]) -> bool {
    match program {
        "ssh" | "scp" | "sftp" | "rsync" | "sshfs" | "autossh" | "ssh-copy-id" | "mosh" => true,
        // Any word that may be the subcommand (global options come first).
        "git" => args.iter().any(|sub| {
            matches!(
                *sub,
                "push"
                    | "pull"
                    | "fetch"
                    | "clone"
                    | "ls-remote"
                    | "remote"
                    | "submodule"
                    | "archive"
                    | "request-pull"
                    | "send-pack"
                    | "fetch-pack"
            )
        }),
        _ => false,
    }
}

/// The commands and loaded code of the user's (`home`/.ssh/config) and
/// the system's (`/etc/ssh/ssh_config`) settings.
pub fn settings(home: &Path) -> Vec<Setting> {
    let mut reading = Reading::new(home);
    reading.file(&home.join(".ssh/config"), &home.join(".ssh"), 0);
    reading.file(Path::new("/etc/ssh/ssh_config"), Path::new("/etc/ssh"), 0);
    reading.found
}

struct Reading {
    /// Where `~/` leads in an `Include`.
    home: PathBuf,
    found: Vec<Setting>,
    files: usize,
}

impl Reading {
    fn new(home: &Path) -> Reading {
        Reading {
            home: home.to_path_buf(),
            found: Vec::new(),
            files: 0,
        }
    }

    /// One settings file; `Include` names relative to `base`.
    fn file(&mut self, path: &Path, base: &Path, depth: usize) {
        let shown = path.display().to_string();
        let text = match std::fs::metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
            Ok(m) if m.is_file() && m.len() <= MAX_BYTES && self.files < MAX_FILES => {
                std::fs::read_to_string(path).ok()
            }
            _ => None,
        };
        self.files += 1;
        let Some(text) = text else {
            return self.unreadable(format!(
                "ssh reading its settings from `{shown}`, which hookc cannot read"
            ));
        };
        for line in text.lines() {
            let Some((key, value)) = key_value(line) else {
                continue;
            };
            match key.as_str() {
                "proxycommand" | "localcommand" | "knownhostscommand"
                    if !value.eq_ignore_ascii_case("none") =>
                {
                    self.found.push(Setting::Line(value.to_owned()));
                }
                "match" => {
                    if let Some(command) = match_exec(value) {
                        self.found.push(Setting::Line(command));
                    }
                }
                "pkcs11provider" | "securitykeyprovider"
                    if !value.eq_ignore_ascii_case("none") && value != "internal" =>
                {
                    self.unreadable(format!("ssh loading `{value}` ({key}, set in `{shown}`)"));
                }
                "include" => self.include(value, base, depth),
                _ => {}
            }
        }
    }

    /// `Include` of one or more files or globs, relative to `base`.
    fn include(&mut self, value: &str, base: &Path, depth: usize) {
        if depth + 1 > MAX_DEPTH {
            return self.unreadable("ssh settings that include each other too deeply".to_owned());
        }
        for name in value.split_whitespace() {
            let name = name.trim_matches('"');
            let pattern = if name.starts_with('/') {
                PathBuf::from(name)
            } else if let Some(rest) = name.strip_prefix("~/") {
                self.home.join(rest)
            } else {
                base.join(name)
            };
            let Some(pattern) = pattern.to_str() else {
                return self.unreadable(format!("ssh including `{name}`"));
            };
            let Ok(paths) = glob(pattern) else {
                return self.unreadable(format!("ssh including `{name}`"));
            };
            for path in paths {
                if self.files >= MAX_FILES {
                    return self.unreadable("ssh settings of too many files".to_owned());
                }
                self.file(&path, base, depth + 1);
            }
        }
    }

    fn unreadable(&mut self, reason: String) {
        if !self.found.contains(&Setting::Unreadable(reason.clone())) {
            self.found.push(Setting::Unreadable(reason));
        }
    }
}

/// The files a glob of `Include` names, in order; a name without pattern
/// characters is itself (and may be missing).
fn glob(pattern: &str) -> Result<Vec<PathBuf>, ()> {
    if !pattern.contains(['*', '?', '[']) {
        return Ok(vec![PathBuf::from(pattern)]);
    }
    // Only the last component may be a pattern here (ssh allows any, but
    // settings folders are one level: `config.d/*`).
    let (dir, name) = pattern.rsplit_once('/').ok_or(())?;
    if dir.contains(['*', '?', '[']) {
        return Err(());
    }
    let matcher = globset::Glob::new(name).map_err(|_| ())?.compile_matcher();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(_) => return Err(()),
    };
    let mut paths = Vec::new();
    for entry in entries.take(MAX_FILES + 1) {
        let entry = entry.map_err(|_| ())?;
        if matcher.is_match(entry.file_name()) {
            paths.push(entry.path());
        }
    }
    if paths.len() > MAX_FILES {
        return Err(());
    }
    paths.sort();
    Ok(paths)
}

/// A settings line's key (in lower case, as ssh compares them) and value:
/// `Key value`, `Key=value` or `Key = value`; `None` for a comment or a
/// blank line.
fn key_value(line: &str) -> Option<(String, &str)> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let end = line.find(['=', ' ', '\t']).unwrap_or(line.len());
    let (key, value) = line.split_at(end);
    let value = value.trim_start_matches([' ', '\t']);
    let value = value.strip_prefix('=').unwrap_or(value).trim();
    Some((key.to_ascii_lowercase(), value))
}

/// The command of `exec` in a `Match` line's criteria (`Match host x exec
/// "test -f ~/.vpn"`): quoted, or one word.
fn match_exec(criteria: &str) -> Option<String> {
    let at = criteria
        .split_whitespace()
        .position(|w| w.eq_ignore_ascii_case("exec") || w.eq_ignore_ascii_case("!exec"))?;
    let after: Vec<&str> = criteria.split_whitespace().skip(at + 1).collect();
    let rest = after.join(" ");
    if let Some(quoted) = rest.strip_prefix('"') {
        // An unclosed quote: everything to the end, as a command still.
        Some(quoted.split_once('"').map_or(quoted, |(q, _)| q).to_owned())
    } else {
        after.first().map(|w| (*w).to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn home(config: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".ssh")).unwrap();
        std::fs::write(dir.path().join(".ssh/config"), config).unwrap();
        dir
    }

    /// The user's settings only (the system's are this machine's).
    fn user(config: &str) -> Vec<Setting> {
        let h = home(config);
        let mut reading = Reading::new(h.path());
        reading.file(&h.path().join(".ssh/config"), &h.path().join(".ssh"), 0);
        reading.found
    }

    fn line(text: &str) -> Setting {
        Setting::Line(text.to_owned())
    }

    #[test]
    fn commands_in_the_settings_are_lines_ssh_runs() {
        assert_eq!(
            user("Host *\n  ProxyCommand rm -rf ~\n  LocalCommand=git push -f\n"),
            [line("rm -rf ~"), line("git push -f")]
        );
        assert_eq!(
            user("Host x\n\tKnownHostsCommand = /bin/sh -c 'x %h'\nProxyCommand none\n"),
            [line("/bin/sh -c 'x %h'")]
        );
        assert_eq!(
            user("Match host x exec \"test -f /tmp/x && rm -rf ~\"\n"),
            [line("test -f /tmp/x && rm -rf ~")]
        );
        assert_eq!(user("Match exec true\n"), [line("true")]);
        assert_eq!(user("Host x\n  User git\n  # ProxyCommand rm -rf ~\n"), []);
        assert!(matches!(
            user("PKCS11Provider /tmp/evil.so\n").as_slice(),
            [Setting::Unreadable(_)]
        ));
    }

    #[test]
    fn includes_are_followed_within_bounds() {
        let h = home("Include config.d/*\nInclude ~/.ssh/extra\n");
        std::fs::create_dir_all(h.path().join(".ssh/config.d")).unwrap();
        std::fs::write(h.path().join(".ssh/config.d/a"), "ProxyCommand echo a\n").unwrap();
        std::fs::write(h.path().join(".ssh/extra"), "LocalCommand echo b\n").unwrap();
        let mut reading = Reading::new(h.path());
        reading.file(&h.path().join(".ssh/config"), &h.path().join(".ssh"), 0);
        assert_eq!(reading.found, [line("echo a"), line("echo b")]);
        // A file that includes itself ends at ssh's depth limit, refused.
        std::fs::write(h.path().join(".ssh/config"), "Include config\n").unwrap();
        let mut reading = Reading::new(h.path());
        reading.file(&h.path().join(".ssh/config"), &h.path().join(".ssh"), 0);
        assert!(matches!(reading.found.as_slice(), [Setting::Unreadable(_)]));
    }

    #[test]
    fn programs_that_connect_read_the_settings() {
        assert!(connects("ssh", &["host"]));
        assert!(connects("git", &["push", "origin", "main"]));
        assert!(connects("git", &["--no-pager", "fetch"]));
        assert!(connects("git", &["-C", "repo", "push"]));
        assert!(!connects("git", &["status"]));
        assert!(!connects("cat", &["x"]));
    }
}
