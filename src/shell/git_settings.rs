//! One table for the settings a git command is given on its command line
//! (`git -c KEY=VALUE …`, `git config KEY VALUE`): what each can change
//! about what git runs.
//!
//! * **harmless**: it cannot make git run a program or push otherwise
//!   (`push.default`, `user.*`, `color.*`);
//! * **command**: its value is a command git runs (`core.sshCommand`,
//!   `core.pager`): the value is read as a shell line of its own;
//! * **force**: it makes a push forced or mirrored (`remote.*.mirror`, a
//!   `+` refspec in `remote.*.push`): the push is read as `push --force`;
//! * anything else is **opaque**: hookc cannot say what it does.

/// What one setting does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Harmless,
    Command,
    Force,
    Opaque,
}

/// Settings by key, lower-cased as git compares them. A key ending in `.`
/// is a prefix (`user.` is every `user.*`); `*` in a key stands for one
/// subsection (`remote.*.mirror`).
const TABLE: &[(&str, Kind)] = &[
    // Commands git runs.
    ("core.pager", Kind::Command),
    ("core.editor", Kind::Command),
    ("core.sshcommand", Kind::Command),
    ("core.askpass", Kind::Command),
    ("core.fsmonitor", Kind::Command),
    ("sequence.editor", Kind::Command),
    ("diff.external", Kind::Command),
    ("gpg.program", Kind::Command),
    ("gpg.ssh.program", Kind::Command),
    ("gpg.x509.program", Kind::Command),
    ("credential.helper", Kind::Command),
    ("credential.*.helper", Kind::Command),
    ("core.alternaterefscommand", Kind::Command),
    ("interactive.difffilter", Kind::Command),
    ("filter.*.clean", Kind::Command),
    ("filter.*.smudge", Kind::Command),
    ("filter.*.process", Kind::Command),
    ("diff.*.textconv", Kind::Command),
    ("diff.*.command", Kind::Command),
    ("merge.*.driver", Kind::Command),
    ("difftool.*.cmd", Kind::Command),
    ("mergetool.*.cmd", Kind::Command),
    ("uploadpack.packobjectshook", Kind::Command),
    // A subcommand's pager (`pager.log = less -S`), or a boolean.
    ("pager.", Kind::Command),
    // Pushes forced without a flag (value-dependent: see `kind`).
    ("remote.*.mirror", Kind::Force),
    ("remote.*.push", Kind::Force),
    // What git prints, whom it records, how it reads files.
    ("user.", Kind::Harmless),
    ("author.", Kind::Harmless),
    ("committer.", Kind::Harmless),
    ("color.", Kind::Harmless),
    ("advice.", Kind::Harmless),
    ("init.", Kind::Harmless),
    ("i18n.", Kind::Harmless),
    ("column.", Kind::Harmless),
    ("log.", Kind::Harmless),
    ("format.", Kind::Harmless),
    ("status.", Kind::Harmless),
    ("blame.", Kind::Harmless),
    ("grep.", Kind::Harmless),
    ("safe.directory", Kind::Harmless),
    ("core.quotepath", Kind::Harmless),
    ("core.autocrlf", Kind::Harmless),
    ("core.safecrlf", Kind::Harmless),
    ("core.eol", Kind::Harmless),
    ("core.filemode", Kind::Harmless),
    ("core.ignorecase", Kind::Harmless),
    ("core.precomposeunicode", Kind::Harmless),
    ("core.longpaths", Kind::Harmless),
    // How git checks the work tree against its index: threads, caches and
    // which file times it trusts (`core.fsmonitor`, which names a program,
    // is a command above).
    ("core.preloadindex", Kind::Harmless),
    ("core.untrackedcache", Kind::Harmless),
    ("core.trustctime", Kind::Harmless),
    ("core.checkstat", Kind::Harmless),
    ("index.threads", Kind::Harmless),
    ("commit.gpgsign", Kind::Harmless),
    ("tag.gpgsign", Kind::Harmless),
    ("pull.rebase", Kind::Harmless),
    ("pull.ff", Kind::Harmless),
    ("merge.conflictstyle", Kind::Harmless),
    ("diff.noprefix", Kind::Harmless),
    ("diff.renames", Kind::Harmless),
    ("diff.algorithm", Kind::Harmless),
    ("gc.auto", Kind::Harmless),
    ("protocol.version", Kind::Harmless),
    ("maintenance.auto", Kind::Harmless),
    ("fetch.prune", Kind::Harmless),
    // Whether git may ask for credentials in the terminal (Copilot CLI's
    // shell sets `never`); which helper answers is `credential.helper`.
    ("credential.interactive", Kind::Harmless),
    // Which branch a plain push updates, and what it takes along: never a
    // force (a non-fast-forward is still refused by the remote).
    ("push.default", Kind::Harmless),
    ("push.followtags", Kind::Harmless),
    ("push.autosetupremote", Kind::Harmless),
    ("push.gpgsign", Kind::Harmless),
    ("push.negotiate", Kind::Harmless),
    ("push.usebitmaps", Kind::Harmless),
];

/// Settings that run a program git finds from their value, and that an
/// empty value takes back to git's own default: no credential helper, the
/// repository's own hooks folder. Gemini CLI's shell sets each of them
/// empty (`GIT_CONFIG_KEY_n`) for every command it runs.
const EMPTIED: &[&str] = &["credential.helper", "credential.*.helper", "core.hookspath"];

fn key_matches(pattern: &str, key: &str) -> bool {
    if let Some((head, tail)) = pattern.split_once(".*.") {
        // `remote.*.mirror`: one subsection, which may itself hold dots.
        return key
            .strip_prefix(head)
            .and_then(|k| k.strip_prefix('.'))
            .and_then(|k| k.strip_suffix(tail))
            .and_then(|k| k.strip_suffix('.'))
            .is_some_and(|sub| !sub.is_empty());
    }
    if pattern.ends_with('.') {
        key.starts_with(pattern)
    } else {
        key == pattern
    }
}

/// Whether `value` is one of git's spellings of false.
fn is_false(value: Option<&str>) -> bool {
    value.is_some_and(|v| ["false", "no", "off", "0"].contains(&v.to_ascii_lowercase().as_str()))
}

/// The shell line git runs for a setting of kind [`Kind::Command`]: the
/// value, with what git adds to it. git runs `core.sshCommand` with the host
/// and the command for the remote end after it; a credential helper is a
/// shell line after `!`, a program by its full path, or else a name git
/// runs as `git credential-NAME`, the program `git-credential-NAME`.
pub fn command_line(key: &str, value: &str) -> String {
    let key = key.to_ascii_lowercase();
    if key == "core.sshcommand" {
        return format!("{value} host 'git-receive-pack repository'");
    }
    if key_matches("credential.helper", &key) || key_matches("credential.*.helper", &key) {
        return match value.strip_prefix('!') {
            Some(line) => line.to_owned(),
            None if value.starts_with('/') => format!("{value} get"),
            // git runs it as `git credential-NAME`, which runs the program
            // `git-credential-NAME` (read as that program, not as a git
            // subcommand `help.autocorrect` could change).
            None => format!("git-credential-{value} get"),
        };
    }
    value.to_owned()
}

/// Whether a command setting runs only when git connects to a remote: a
/// credential helper, `core.sshCommand`, `core.askpass`.
pub fn connecting(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    matches!(key.as_str(), "core.sshcommand" | "core.askpass")
        || key_matches("credential.helper", &key)
        || key_matches("credential.*.helper", &key)
}

/// What `key` set to `value` (`None`: no value, or one known only when the
/// line runs) does. `alias.*` is not here: an alias is a subcommand of its
/// own (see `normalize`).
pub fn kind(key: &str, value: Option<&str>) -> Kind {
    let key = key.to_ascii_lowercase();
    if value == Some("") && EMPTIED.iter().any(|p| key_matches(p, &key)) {
        return Kind::Harmless;
    }
    if key == "core.fsmonitor" && is_false(value) {
        // A boolean or the program to run: false runs none.
        return Kind::Harmless;
    }
    if key == "safe.barerepository" {
        // Whether git uses a bare repository it finds without being told
        // (Copilot CLI's shell sets `explicit` for every command it runs):
        // `explicit` only narrows what git does; `all` may undo a user's
        // `explicit` and let git read the settings of a bare repository
        // planted in the project, which may name programs.
        return match value.map(str::to_ascii_lowercase).as_deref() {
            Some("explicit") => Kind::Harmless,
            _ => Kind::Opaque,
        };
    }
    let Some(&(pattern, kind)) = TABLE.iter().find(|(p, _)| key_matches(p, &key)) else {
        return Kind::Opaque;
    };
    if kind != Kind::Force {
        return kind;
    }
    if pattern.ends_with(".mirror") {
        // A boolean: only a false one pushes as usual.
        return match value.map(str::to_ascii_lowercase).as_deref() {
            _ if is_false(value) => Kind::Harmless,
            Some("true" | "yes" | "on" | "1" | "") | None => Kind::Force,
            Some(_) => Kind::Opaque,
        };
    }
    // `remote.*.push`: a refspec; a `+` forces, any other changes where
    // a push goes, which no table here describes.
    match value {
        Some(v) if v.starts_with('+') => Kind::Force,
        _ => Kind::Opaque,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_copilot_clis_shell_sets_are_harmless_with_their_values() {
        assert_eq!(
            kind("safe.bareRepository", Some("explicit")),
            Kind::Harmless
        );
        assert_eq!(kind("safe.barerepository", Some("all")), Kind::Opaque);
        assert_eq!(kind("safe.bareRepository", None), Kind::Opaque);
        assert_eq!(kind("safe.bareRepository", Some("x")), Kind::Opaque);
        // What Copilot CLI's shell sets for every command it runs.
        assert_eq!(
            kind("credential.interactive", Some("never")),
            Kind::Harmless
        );
        assert_eq!(kind("core.fsmonitor", Some("false")), Kind::Harmless);
        assert_eq!(kind("core.fsmonitor", Some("true")), Kind::Command);
        assert_eq!(kind("core.fsmonitor", Some("./hook")), Kind::Command);
    }

    #[test]
    fn a_command_setting_is_read_as_the_line_git_runs() {
        assert_eq!(
            command_line("credential.helper", "!f() { cat; }; f"),
            "f() { cat; }; f"
        );
        assert_eq!(
            command_line("credential.helper", "store --file x"),
            "git-credential-store --file x get"
        );
        assert_eq!(command_line("credential.helper", "/opt/h"), "/opt/h get");
        assert_eq!(
            command_line("core.sshCommand", "ssh -i k"),
            "ssh -i k host 'git-receive-pack repository'"
        );
        assert_eq!(
            command_line("filter.lfs.clean", "git-lfs clean -- %f"),
            "git-lfs clean -- %f"
        );
        assert_eq!(
            kind("filter.lfs.clean", Some("git-lfs clean -- %f")),
            Kind::Command
        );
        assert_eq!(kind("diff.word.textconv", Some("strings")), Kind::Command);
        assert!(connecting("credential.https://x.example.helper"));
        assert!(!connecting("core.pager"));
    }

    #[test]
    fn an_emptied_helper_or_hooks_folder_runs_nothing_new() {
        assert_eq!(kind("credential.helper", Some("")), Kind::Harmless);
        assert_eq!(
            kind("credential.https://x.example.helper", Some("")),
            Kind::Harmless
        );
        assert_eq!(kind("core.hooksPath", Some("")), Kind::Harmless);
        assert_eq!(kind("credential.helper", Some("!sh -c x")), Kind::Command);
        assert_eq!(kind("core.hooksPath", Some("/tmp/h")), Kind::Opaque);
        assert_eq!(kind("core.hooksPath", None), Kind::Opaque);
    }

    #[test]
    fn settings_are_classified_by_what_they_change() {
        assert_eq!(kind("push.default", Some("current")), Kind::Harmless);
        assert_eq!(kind("push.followTags", Some("true")), Kind::Harmless);
        assert_eq!(kind("user.email", Some("a@b")), Kind::Harmless);
        assert_eq!(kind("color.ui", Some("never")), Kind::Harmless);
        assert_eq!(kind("core.preloadIndex", Some("false")), Kind::Harmless);
        assert_eq!(kind("index.threads", Some("1")), Kind::Harmless);
        assert_eq!(kind("core.fsmonitor", Some("./watch")), Kind::Command);
        assert_eq!(kind("core.sshCommand", Some("ssh -i k")), Kind::Command);
        assert_eq!(kind("core.pager", Some("cat")), Kind::Command);
        assert_eq!(kind("remote.origin.mirror", Some("true")), Kind::Force);
        assert_eq!(kind("remote.origin.mirror", None), Kind::Force);
        assert_eq!(kind("remote.a.b.mirror", Some("yes")), Kind::Force);
        assert_eq!(kind("remote.origin.mirror", Some("false")), Kind::Harmless);
        assert_eq!(kind("remote.origin.mirror", Some("maybe")), Kind::Opaque);
        assert_eq!(
            kind("remote.origin.push", Some("+refs/heads/*")),
            Kind::Force
        );
        assert_eq!(
            kind("remote.origin.push", Some("refs/heads/a:b")),
            Kind::Opaque
        );
        assert_eq!(kind("remote..mirror", Some("true")), Kind::Opaque);
        assert_eq!(kind("help.autocorrect", Some("1")), Kind::Opaque);
        assert_eq!(kind("core.hooksPath", Some("/tmp")), Kind::Opaque);
        assert_eq!(kind("include.path", Some("/tmp/x")), Kind::Opaque);
        assert_eq!(kind("push.pushOption", Some("x")), Kind::Opaque);
    }
}
