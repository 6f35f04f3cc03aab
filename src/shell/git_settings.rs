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
    // The program git starts for the other end of a push or a fetch
    // (through a shell, for a remote on this machine).
    ("remote.*.receivepack", Kind::Command),
    ("remote.*.uploadpack", Kind::Command),
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
    // Not `init.templateDir`: the hooks a new repository starts with.
    ("init.defaultbranch", Kind::Harmless),
    ("init.defaultobjectformat", Kind::Harmless),
    ("init.defaultrefformat", Kind::Harmless),
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
    if let Some(url) = ext_url(key, Some(value)) {
        return ext_command(url).unwrap_or_default();
    }
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
/// credential helper, `core.sshCommand`, `core.askpass`, the program for
/// the other end, a remote's `ext::` URL.
pub fn connecting(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    matches!(key.as_str(), "core.sshcommand" | "core.askpass")
        || [
            "credential.helper",
            "credential.*.helper",
            "remote.*.receivepack",
            "remote.*.uploadpack",
            "remote.*.url",
            "remote.*.pushurl",
        ]
        .iter()
        .any(|p| key_matches(p, &key))
        || key.starts_with("url.ext::")
}

/// The URL of git's `ext::` transport that a setting gives, which names a
/// program git starts to talk to the remote: a remote's URL, or the
/// subsection of `url.<ext::…>.insteadOf`, which rewrites other URLs to it.
fn ext_url<'a>(key: &'a str, value: Option<&'a str>) -> Option<&'a str> {
    let lower = key.to_ascii_lowercase();
    let ext = |text: &str| {
        text.get(..5)
            .is_some_and(|p| p.eq_ignore_ascii_case("ext::"))
    };
    if ["remote.*.url", "remote.*.pushurl"]
        .iter()
        .any(|p| key_matches(p, &lower))
    {
        return value.filter(|v| ext(v));
    }
    let (url, name) = key.get(4..)?.rsplit_once('.')?;
    (lower.starts_with("url.")
        && ext(url)
        && ["insteadof", "pushinsteadof"].contains(&name.to_ascii_lowercase().as_str()))
    .then_some(url)
}

/// The shell line for the program an `ext::` URL starts (git runs it
/// without a shell): words split at spaces, `% ` a space within a word,
/// `%%` a percent sign, `%s` and `%S` the service (`git-upload-pack`,
/// `upload-pack`), `%G…` and `%V…` words git keeps for itself.
pub fn ext_command(url: &str) -> Option<String> {
    let spec = url
        .get(5..)
        .filter(|_| url[..5].eq_ignore_ascii_case("ext::"))?;
    let mut words = vec![String::new()];
    let mut own = false;
    let mut chars = spec.chars();
    while let Some(c) = chars.next() {
        let word = words.last_mut()?;
        match c {
            ' ' => {
                words.push(String::new());
                own = false;
            }
            '%' => match chars.next() {
                Some('G' | 'V') => own = true,
                Some('s') if !own => word.push_str("git-upload-pack"),
                Some('S') if !own => word.push_str("upload-pack"),
                Some(c) if !own => word.push(c),
                _ => {}
            },
            c if !own => word.push(c),
            _ => {}
        }
    }
    let words: Vec<String> = words
        .iter()
        .filter(|w| !w.is_empty())
        .map(|w| super::sh_word(w))
        .collect();
    Some(words.join(" "))
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
    if ext_url(&key, value).is_some() {
        return Kind::Command;
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

    /// A remote's `ext::` URL, or one `url.*.insteadOf` rewrites to, names
    /// a program git starts; so do a remote's `receivepack` and
    /// `uploadpack`.
    #[test]
    fn settings_that_name_the_program_for_the_other_end_are_commands() {
        assert_eq!(
            ext_command("ext::sh -c git% push% -f%% %G/repo %s").as_deref(),
            Some("'sh' '-c' 'git push -f%' 'git-upload-pack'")
        );
        assert_eq!(ext_command("https://example.com/x.git"), None);
        assert_eq!(
            kind("remote.origin.url", Some("ext::sh -c x")),
            Kind::Command
        );
        assert_eq!(kind("remote.origin.pushurl", Some("EXT::x")), Kind::Command);
        assert_eq!(kind("remote.origin.url", Some("../x.git")), Kind::Opaque);
        assert_eq!(
            kind("url.ext::sh -c x.insteadOf", Some("../x")),
            Kind::Command
        );
        assert_eq!(kind("url.https://a/.insteadOf", Some("../x")), Kind::Opaque);
        assert_eq!(kind("remote.origin.receivepack", Some("x")), Kind::Command);
        assert_eq!(kind("remote.origin.uploadpack", Some("x")), Kind::Command);
        assert_eq!(
            command_line("url.ext::git push -F.insteadOf", "../x"),
            "'git' 'push' '-F'"
        );
        assert!(connecting("remote.origin.url") && connecting("url.ext::x.insteadof"));
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
