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

use super::git_settings as settings;
use super::normalize::{Analysis, SimpleCommand};

/// What git's configuration changes about the commands it runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GitConfig {
    /// `alias.NAME` → its value, names lower-cased as git compares them;
    /// `None` when an `includeIf` hookc does not evaluate may give it
    /// another value (git would run one of them, hookc cannot say which).
    aliases: BTreeMap<String, Option<String>>,
    /// `help.autocorrect` runs a mistyped command's correction.
    autocorrect: bool,
    /// Some remote pushes by force without a flag (`mirror`, `+refspec`).
    forced_push: bool,
    /// A file that could not be read in full: what git does is unknown.
    unreadable: Option<String>,
    /// Settings that hold a command git runs (`core.pager`,
    /// `filter.lfs.clean`, a credential helper): full name and value. A file
    /// an earlier call wrote may hold any of them.
    commands: Vec<(String, String)>,
    /// The system's and the user's files, each read or looked for.
    base: Vec<PathBuf>,
    /// The user's home, where `~/` in an include points.
    home: Option<PathBuf>,
    /// The settings files of the repository read, when there is one: the
    /// one its work trees share, and this work tree's own
    /// (`config.worktree`), which git reads where the shared one sets
    /// `extensions.worktreeConfig`.
    repository: Option<(PathBuf, PathBuf)>,
    /// The repository's settings turn on `extensions.worktreeConfig`.
    worktree_config: bool,
    /// Every file read or looked for, includes too: what a line must not
    /// write before a git reads it.
    files: Vec<PathBuf>,
    /// `GIT_DIR` names the repository, wherever git runs: a relative one
    /// names another after a `cd`.
    git_dir: bool,
}

/// How many settings that run commands are read. Real configurations have
/// a few (a pager, an editor, the filters of git-lfs); each is read as a
/// shell line for every git command.
const MAX_COMMANDS: usize = 64;

/// How deep aliases of aliases are followed.
const MAX_ALIAS_DEPTH: usize = 8;

/// How deep includes are followed. git itself gives up past 10 ("exceeded
/// maximum include depth"), so a deeper chain is a configuration git
/// refuses too.
const MAX_INCLUDE_DEPTH: usize = 10;

/// How many configuration files one call reads, each include counted every
/// time it is met. Real configurations have a handful; without this bound a
/// file including another twice, which includes another twice, and so on
/// ten deep (no cycle, so git reads it too) makes every call read 2^10 files.
const MAX_FILES: usize = 100;

/// How many bytes of configuration one call reads, all files together. Real
/// configurations are a few kilobytes; a 100 MB include would make every
/// later call slow, and a guard that can be made slow can be switched off
/// (harnesses run the call when a hook times out).
const MAX_BYTES: u64 = 4 << 20;

/// The UTF-8 byte order mark, which git skips at the start of a file.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// What reading the configuration has spent so far, and the files being
/// read (each one's device and inode), to see an include that includes
/// itself again.
#[derive(Default)]
struct Reading {
    files: usize,
    bytes: u64,
    open: Vec<(u64, u64)>,
}

impl GitConfig {
    /// Every settings file read or looked for, includes too.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// The configuration a git command started in `cwd` reads, with this
    /// process's environment.
    pub fn load(cwd: Option<&Path>, home: Option<&Path>) -> GitConfig {
        Self::load_with(cwd, home, &|name| std::env::var_os(name))
    }

    /// [`load`](Self::load) for a git command whose environment is `var`
    /// (another process's: the run-time judge's program start). Its
    /// `GIT_DIR` names the repository whose configuration is read.
    pub fn load_with(
        cwd: Option<&Path>,
        home: Option<&Path>,
        var: &dyn Fn(&str) -> Option<std::ffi::OsString>,
    ) -> GitConfig {
        let mut config = GitConfig::default();
        let env = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let mut files: Vec<PathBuf> = Vec::new();
        if var("GIT_CONFIG_NOSYSTEM").is_none() {
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
        config.base.clone_from(&files);
        config.home = home.map(Path::to_path_buf);
        config.git_dir = var("GIT_DIR").is_some();
        config.repository = match env("GIT_DIR") {
            Some(dir) => {
                let dir = cwd.map_or(dir.clone(), |c| c.join(&dir));
                Some((dir.join("config"), dir.join("config.worktree")))
            }
            None => cwd.and_then(|d| repository_config(d, home)),
        };
        config.read_all(files, &mut Reading::default());
        // A replaced commit or a graft makes git take a push that rewrites
        // the remote's branch for a fast forward, and send it unforced.
        if let Some((shared, _)) = &config.repository
            && let Some(git_dir) = shared.parent()
        {
            config.forced_push |= replaces_commits(git_dir);
        }
        config
    }

    /// Read the system's and the user's `files`, then the repository's.
    fn read_all(&mut self, files: Vec<PathBuf>, reading: &mut Reading) {
        let home = self.home.clone();
        let home = home.as_deref();
        for file in files {
            self.read(&file, home, 0, false, reading);
        }
        if let Some((shared, own)) = self.repository.clone() {
            self.read(&shared, home, 0, false, reading);
            if self.worktree_config {
                self.read(&own, home, 0, false, reading);
            }
        }
    }

    /// Read `file` (included `depth` deep; `conditional` below an
    /// `includeIf`) and what it includes, within the bounds above. Past a
    /// bound, or on a file that cannot be read, the configuration is
    /// unreadable and nothing more is read: every git command is then
    /// opaque, which refuses it.
    fn read(
        &mut self,
        file: &Path,
        home: Option<&Path>,
        depth: usize,
        conditional: bool,
        reading: &mut Reading,
    ) {
        if self.unreadable.is_some() {
            return;
        }
        if self.files.len() < MAX_FILES && !self.files.iter().any(|f| f == file) {
            self.files.push(file.to_path_buf());
        }
        if depth > MAX_INCLUDE_DEPTH {
            self.unreadable = Some(format!(
                "includes nested more than {MAX_INCLUDE_DEPTH} deep at {}",
                file.display()
            ));
            return;
        }
        // `GIT_CONFIG_GLOBAL=/dev/null`, the usual way to run git without
        // the user's settings (CI does), names no settings at all.
        if file == Path::new("/dev/null") {
            return;
        }
        reading.files += 1;
        if reading.files > MAX_FILES {
            self.unreadable = Some(format!(
                "more than {MAX_FILES} files included, at {}",
                file.display()
            ));
            return;
        }
        let left = MAX_BYTES - reading.bytes;
        let (bytes, meta) = match crate::disk::read_bytes(file, left) {
            Ok(Some(read)) => read,
            Ok(None) => return,
            Err(crate::disk::ReadError::TooLarge(_)) => {
                self.unreadable = Some(format!(
                    "more than {MAX_BYTES} bytes of configuration, at {}",
                    file.display()
                ));
                return;
            }
            Err(e) => {
                self.unreadable = Some(format!("{}: {e}", file.display()));
                return;
            }
        };
        reading.bytes += bytes.len() as u64;
        let id = file_id(&meta);
        if reading.open.contains(&id) {
            self.unreadable = Some(format!("{} includes itself", file.display()));
            return;
        }
        // git reads values as bytes: a Latin-1 name or an odd byte in a
        // value is no error to it, so none to hookc (the odd byte is read
        // as U+FFFD, which no pattern names).
        let bytes = bytes.strip_prefix(BOM).unwrap_or(&bytes);
        let text = String::from_utf8_lossy(bytes);
        reading.open.push(id);
        for (section, key, value, full) in entries(&text) {
            match (section.as_str(), key.as_str()) {
                ("alias", name) => match self.aliases.get_mut(name) {
                    // git may or may not read this file: the alias is either
                    // value, unless both are the same.
                    Some(old) if conditional => {
                        if old.as_deref() != Some(value.as_str()) {
                            *old = None;
                        }
                    }
                    _ => {
                        self.aliases.insert(name.to_owned(), Some(value));
                    }
                },
                ("help", "autocorrect") => {
                    let on = !matches!(
                        value.to_ascii_lowercase().as_str(),
                        "0" | "false" | "never" | "show" | "no" | "off"
                    );
                    // A setting that may not apply turns it on, never off.
                    self.autocorrect = on || (conditional && self.autocorrect);
                }
                ("remote", "mirror") => {
                    self.forced_push |= matches!(
                        value.to_ascii_lowercase().as_str(),
                        "true" | "yes" | "on" | "1" | ""
                    );
                }
                // `+src:dst` forces; `:dst` deletes the remote branch
                // (`:` alone pushes the matching branches).
                ("remote", "push") => {
                    self.forced_push |=
                        value.starts_with('+') || value.len() > 1 && value.starts_with(':')
                }
                // Honoured in the repository's own settings only, which are
                // read last.
                ("extensions", "worktreeconfig") => {
                    self.worktree_config = matches!(
                        value.to_ascii_lowercase().as_str(),
                        "true" | "yes" | "on" | "1" | ""
                    );
                }
                // Every `includeIf` is followed, as if its condition held;
                // what it sets may not apply.
                (kind @ ("include" | "includeif"), "path") => {
                    let path = match value.strip_prefix("~/") {
                        Some(rest) => home.map(|h| h.join(rest)),
                        None => Some(file.parent().unwrap_or(Path::new("/")).join(&value)),
                    };
                    if let Some(path) = path {
                        let conditional = conditional || kind == "includeif";
                        self.read(&path, home, depth + 1, conditional, reading);
                    }
                }
                // A command git runs, whichever file says it (a later one
                // may replace it, or not apply: each counts).
                _ if settings::kind(&full, Some(&value)) == settings::Kind::Command => {
                    if self.commands.len() >= MAX_COMMANDS {
                        self.unreadable = Some(format!(
                            "more than {MAX_COMMANDS} settings that run commands"
                        ));
                        return;
                    }
                    self.commands.push((full, value));
                }
                _ => {}
            }
        }
        reading.open.pop();
    }

    /// Rewrite the git commands of `analysis` to what git will run, and add
    /// the commands its settings run (a pager, a filter, a credential
    /// helper: a file an earlier call wrote may hold any of them).
    ///
    /// These settings are the ones where the line starts. A git that works
    /// elsewhere (`git -C ../other`, `find -execdir`, a submodule, after a
    /// `cd` anywhere in the line: a loop or a function may run it first)
    /// reads the settings of the repository there. hookc reads them too
    /// where it can name the folder and the line cannot have written them
    /// first (see [`Line::keeps_settings`]); otherwise that git is opaque.
    /// So is every git of a line that writes git's settings files before a
    /// git reads them (`>> ~/.gitconfig`, a `.git` folder copied in).
    pub fn apply(&self, analysis: &mut Analysis) {
        let line = Line::of(analysis, self);
        let presumed = Presumed::of(analysis);
        analysis.presumed_git = self.presumed_verdict(analysis, &presumed);
        let commands = std::mem::take(&mut analysis.commands);
        let replaces = commands.iter().any(replaces_in_line);
        // Whose settings the line's gits read: these, and other
        // repositories'.
        let mut here = false;
        let mut there: Vec<GitConfig> = Vec::new();
        for cmd in commands {
            if cmd.program != "git" {
                analysis.commands.push(cmd);
                continue;
            }
            // Settings hookc did not read, whatever the repository.
            let git = super::normalize::short(cmd.args.first().map_or("", String::as_str));
            let unread = if let Some(file) = &line.writes_settings {
                Some(format!(
                    "`git {git}` after the line writes {file}, git's settings, which hookc read as they were before"
                ))
            } else if cmd.other_user {
                Some(format!(
                    "`git {git}` as another user (`sudo`, `su`, `doas`), with that user's git settings, which hookc does not read (run git as yourself)"
                ))
            } else {
                presumed.changer().map(|(program, sub)| format!(
                    "`git {git}` after `{program}`, a program hookc does not know, which may change git's settings first (it may run `git {sub}`: run that git directly, in a call of its own)"
                ))
            };
            if let Some(reason) = unread {
                super::lex::push_reason(&mut analysis.opaque, reason);
                analysis.commands.push(cmd);
                continue;
            }
            match self.settings_for(&cmd, &line) {
                Some(None) => {
                    self.resolve(analysis, cmd, 0);
                    here = true;
                }
                Some(Some(other)) => {
                    other.resolve(analysis, cmd, 0);
                    if !there.contains(&other) {
                        there.push(other);
                    }
                }
                None => Self::elsewhere(analysis, cmd),
            }
        }
        if replaces {
            // The line makes git read commits as others first: its pushes
            // may rewrite a remote's branch unforced.
            for cmd in &mut analysis.commands {
                if cmd.program == "git"
                    && cmd.args.first().is_some_and(|s| s == "push")
                    && !cmd.args.iter().any(|a| a == "--force")
                {
                    cmd.args.push("--force".to_owned());
                }
            }
        }
        // A credential helper and an ssh command run only for a git that
        // connects (`push`, `fetch`, an alias of one).
        let connects = analysis.commands.iter().any(|c| {
            c.program == "git" && {
                let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
                super::ssh_config::connects("git", &args)
            }
        });
        for config in std::iter::once(self).filter(|_| here).chain(&there) {
            config.run_commands(analysis, connects);
        }
    }

    /// What these settings make of the gits that a program hookc does not
    /// know may run in `line` (a reading of its arguments, see `unknown`),
    /// each reading a line of its own: they are judged as
    /// [`apply`](Self::apply) judges a line, unless `line` says why not (its
    /// [`Analysis::presumed_git`]); then each is opaque for that reason.
    pub fn for_readings<'a>(&'a self, line: &'a Analysis) -> impl Fn(&mut Analysis) + 'a {
        move |reading: &mut Analysis| {
            if !reading.commands.iter().any(|c| c.program == "git") {
                return;
            }
            match &line.presumed_git {
                Some(reason) => super::lex::push_reason(&mut reading.opaque, reason.clone()),
                None => self.apply(reading),
            }
        }
    }

    /// Why the gits that the line's unknown programs may run cannot be
    /// judged with the settings where they run: the program may run them
    /// after the line wrote git's settings, or after another
    /// git of the line changed them (a git the program may run counts:
    /// `foo git config alias.pf 'push --force' -- git pf`).
    fn presumed_verdict(&self, analysis: &Analysis, presumed: &Presumed) -> Option<String> {
        if presumed.gits.is_empty() && presumed.unread.is_none() {
            return None;
        }
        // After a `cd`, a reading is read in every folder the line may be
        // in (`unknown::placed`), where its own gits find their settings.
        if let Some(file) = writes_settings(analysis, self) {
            return Some(format!(
                "a git whose settings the line writes first ({file}), which hookc read as they were before"
            ));
        }
        let own: Vec<&SimpleCommand> = analysis
            .commands
            .iter()
            .filter(|c| c.program == "git")
            .collect();
        let changer = presumed
            .gits
            .iter()
            .map(|(_, c)| c)
            .chain(own.iter().copied())
            .find(|c| !keeps(c));
        match changer {
            _ if presumed.unread.is_some() => Some(
                "a git beside a command hookc cannot read, or more commands than it reads in time, which may change git's settings first"
                    .to_owned(),
            ),
            Some(c) if own.len() + presumed.gits.len() > 1 => Some(format!(
                "a git whose settings another git of the line may change first (`git {}`)",
                super::normalize::short(c.args.first().map_or("", String::as_str))
            )),
            _ => None,
        }
    }

    /// The settings a git of the line reads: `Some(None)` these,
    /// `Some(Some(..))` another repository's, read now, `None` settings
    /// hookc cannot read.
    fn settings_for(&self, cmd: &SimpleCommand, line: &Line) -> Option<Option<GitConfig>> {
        if !cmd.repo_elsewhere && !line.moves {
            return Some(None);
        }
        if self.git_dir || !line.keeps_settings {
            return None;
        }
        let start = line.start.as_deref()?;
        let bases: Vec<PathBuf> = if line.moves {
            line.folders.clone()?
        } else {
            vec![start.to_path_buf()]
        };
        let dirs: Vec<PathBuf> = match (&cmd.repo_folder, cmd.repo_elsewhere) {
            (_, false) => bases,
            (Some(folder), true) => bases.iter().map(|b| b.join(folder)).collect(),
            (None, true) => return None,
        };
        let file = |a: &Path, b: &Path| {
            a == b
                || a.canonicalize()
                    .ok()
                    .is_some_and(|a| b.canonicalize().ok() == Some(a))
        };
        let same = |a: &Option<(PathBuf, PathBuf)>, b: &Option<(PathBuf, PathBuf)>| match (a, b) {
            (Some((a, a_own)), Some((b, b_own))) => file(a, b) && file(a_own, b_own),
            _ => a == b,
        };
        let mut found: Option<GitConfig> = None;
        for dir in &dirs {
            // The folder as the file system resolves it: `-C link/..` is
            // where the link points, and a folder not there yet may be
            // anything.
            let dir = dir.canonicalize().ok()?;
            let there = if same(
                &repository_config(&dir, self.home.as_deref()),
                &self.repository,
            ) {
                self.clone()
            } else {
                self.at(&dir)
            };
            match &found {
                Some(f) if *f != there => return None,
                _ => found = Some(there),
            }
        }
        let found = found?;
        Some((found != *self).then_some(found))
    }

    /// These settings with the repository around `dir` instead of this
    /// one's.
    fn at(&self, dir: &Path) -> GitConfig {
        let mut config = GitConfig {
            base: self.base.clone(),
            home: self.home.clone(),
            repository: repository_config(dir, self.home.as_deref()),
            ..GitConfig::default()
        };
        config.read_all(self.base.clone(), &mut Reading::default());
        config
    }

    /// Add what the command settings run, each read as the shell line git
    /// runs it as; those of connections only when a git of the line
    /// `connects`.
    fn run_commands(&self, analysis: &mut Analysis, connects: bool) {
        for (key, value) in &self.commands {
            if connects || !settings::connecting(key) {
                self.run_line(analysis, &settings::command_line(key, value), 1);
            }
        }
    }

    /// Read `line`, which git runs (a `!` alias, a setting's command), and
    /// add what it runs.
    fn run_line(&self, analysis: &mut Analysis, line: &str, depth: usize) {
        let inner = super::analyze(line);
        let moves = inner
            .commands
            .iter()
            .any(|c| matches!(c.program.as_str(), "cd" | "pushd" | "popd"));
        for o in inner.opaque {
            super::lex::push_reason(&mut analysis.opaque, o.reason);
        }
        for c in inner.commands {
            if c.program == "git" && (c.repo_elsewhere || moves) {
                Self::elsewhere(analysis, c);
            } else {
                self.resolve_any(analysis, c, depth);
            }
        }
    }

    /// A git in another repository whose settings hookc cannot read (see
    /// [`apply`](Self::apply)). When git's own options sent it there
    /// (`-C`), it decides from settings no program start shows, so the
    /// run-time judge refuses it too; after a `cd`, the judge sees it start
    /// in that folder and reads them.
    fn elsewhere(analysis: &mut Analysis, cmd: SimpleCommand) {
        let sub = cmd.args.first().map_or("", String::as_str);
        let how = if cmd.repo_elsewhere {
            "works in another repository (-C, --git-dir, -execdir, a submodule)"
        } else {
            "runs after a cd, in a repository"
        };
        let reason = format!(
            "`git {}` {how} whose settings hookc could not read: there an alias may be another command, a push may mirror, and a pager or filter may run anything. Name the folder literally with `git -C FOLDER` in a line that writes no files, or run it in a call of its own that starts there",
            super::normalize::short(sub)
        );
        if cmd.repo_elsewhere {
            analysis.within.push(("git".to_owned(), reason.clone()));
        }
        super::lex::push_reason(&mut analysis.opaque, reason);
        analysis.commands.push(cmd);
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
            Some(None) if !builtin => {
                super::lex::push_reason(
                    &mut analysis.opaque,
                    format!(
                        "`git {sub}`, an alias git's configuration sets to different commands depending on an includeIf condition"
                    ),
                );
                analysis.commands.push(cmd);
                return;
            }
            // git ignores an alias that would hide one of its commands.
            Some(Some(value)) if !builtin => {
                if depth >= MAX_ALIAS_DEPTH {
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
                    self.run_line(analysis, &line, depth + 1);
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
                    single: shifted(&cmd.single),
                    ..cmd
                };
                self.resolve(analysis, expanded, depth + 1);
                return;
            }
            _ => {}
        }
        if !builtin && self.autocorrect {
            let reason =
                format!("`git {sub}`, which git's help.autocorrect may run as another command");
            analysis.within.push(("git".to_owned(), reason.clone()));
            super::lex::push_reason(&mut analysis.opaque, reason);
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

/// What decides which settings the gits of a line read.
struct Line {
    /// The folder the line starts in, when known.
    start: Option<PathBuf>,
    /// A command may run in another folder (a `cd` to one not, by its
    /// name, the start).
    moves: bool,
    /// Every folder a command may run in, the start first, when known.
    folders: Option<Vec<PathBuf>>,
    /// Nothing in the line can write git's settings before a git reads
    /// them: it is only `cd`s, filters that write no file (`head`, `grep`,
    /// `wc`), and gits of commands that write no settings and leave the
    /// work tree alone (`status`, `log`, `push`), but for one (an alias,
    /// `config`, `checkout`) that no later one follows;
    /// with one git, what ssh's settings run when it connects.
    keeps_settings: bool,
    /// A settings file git reads, or a `.git` folder, that the line writes.
    writes_settings: Option<String>,
}

/// The gits that programs hookc does not know may run in a line (`foo git
/// config alias.pf …`), each with the program, as [`super::unknown`] reads
/// their arguments.
struct Presumed {
    gits: Vec<(String, SimpleCommand)>,
    /// The first program whose arguments were left unread (more readings
    /// than hookc makes in time) or hold a command hookc cannot read.
    unread: Option<String>,
}

impl Presumed {
    fn of(analysis: &Analysis) -> Presumed {
        let unknown =
            |c: &SimpleCommand| !c.program.is_empty() && !super::unknown::known(&c.program);
        if !analysis.commands.iter().any(unknown) {
            return Presumed {
                gits: Vec::new(),
                unread: None,
            };
        }
        // From a word that is git, or a pattern the shell may expand to
        // git's path (`/usr/bin/gi[t]`).
        let named = |p: &str| {
            let name = p.rsplit('/').next().unwrap_or(p);
            p == "git" || super::access::is_glob(name) && super::pattern::glob_matches(name, "git")
        };
        let presumed = super::unknown::presume(analysis, &named);
        // A reading hookc cannot read may change git's settings as well as
        // one more reading than it reads in time.
        let unread = presumed.unread.clone().or_else(|| {
            presumed
                .readings
                .iter()
                .find(|r| !r.opaque.is_empty())
                .map(|r| r.program.clone())
        });
        Presumed {
            gits: presumed
                .readings
                .into_iter()
                .flat_map(|r| {
                    let program = r.program;
                    r.commands
                        .into_iter()
                        .filter(|c| c.program == "git")
                        .map(move |c| (program.clone(), c))
                })
                .collect(),
            unread,
        }
    }

    /// A git an unknown program may run that may change git's settings
    /// for the line's other gits: the program and the git's subcommand.
    fn changer(&self) -> Option<(&str, &str)> {
        if let Some(program) = &self.unread {
            return Some((program, "config"));
        }
        self.gits
            .iter()
            .find(|(_, c)| !keeps(c))
            .map(|(p, c)| (p.as_str(), c.args.first().map_or("", String::as_str)))
    }
}

/// A git of a command that writes no settings and leaves the work tree
/// alone ([`KEEPS`]).
fn keeps(c: &SimpleCommand) -> bool {
    c.args.first().is_some_and(|s| KEEPS.contains(&s.as_str()))
}

/// Programs that only print what they read: they write no file but through
/// a redirection.
const FILTERS: &[&str] = &[
    "head", "tail", "grep", "egrep", "fgrep", "wc", "cut", "tr", "cat", "echo", "printf", "true",
    "false", "test", "[", "nl", "less", "more",
];

/// git's commands that never write its settings, nor change the work tree
/// (where a checkout may put a link to another repository in place of a
/// folder a later `cd` enters).
const KEEPS: &[&str] = &[
    "add",
    "annotate",
    "blame",
    "branch",
    "cat-file",
    "cherry",
    "commit",
    "describe",
    "diff",
    "diff-files",
    "diff-index",
    "diff-tree",
    "fetch",
    "for-each-ref",
    "format-patch",
    "grep",
    "log",
    "ls-files",
    "ls-remote",
    "ls-tree",
    "merge-base",
    "push",
    "range-diff",
    "reflog",
    "rev-list",
    "rev-parse",
    "shortlog",
    "show",
    "show-branch",
    "show-ref",
    "status",
    "tag",
    "version",
    "whatchanged",
];

impl Line {
    fn of(analysis: &Analysis, config: &GitConfig) -> Line {
        let folders = analysis.folders_run_in.clone();
        let moves = analysis.moves();
        let gits: Vec<&SimpleCommand> = analysis
            .commands
            .iter()
            .filter(|c| c.program == "git")
            .collect();
        // What ssh's settings run when the one git connects runs after git
        // has read its own.
        let others_keep = analysis.commands.iter().all(|c| match c.program.as_str() {
            "cd" | "pushd" | "popd" | "git" => true,
            _ if c.from_settings && gits.len() == 1 => true,
            p => FILTERS.contains(&p) && c.redirects.is_empty(),
        });
        let writers = gits.iter().filter(|c| !keeps(c)).count();
        let last_writes = gits.last().is_some_and(|c| !keeps(c));
        let keeps_settings =
            others_keep && (writers == 0 || (writers == 1 && last_writes && !analysis.repeats));
        Line {
            start: folders.as_ref().and_then(|f| f.first().cloned()),
            moves,
            folders,
            keeps_settings,
            writes_settings: (!gits.is_empty() && analysis.commands.len() > 1)
                .then(|| writes_settings(analysis, config))
                .flatten(),
        }
    }
}

/// A file of git's settings, or a `.git` folder, that the line writes:
/// the first, as the line names it.
fn writes_settings(analysis: &Analysis, config: &GitConfig) -> Option<String> {
    let start = analysis.folders_run_in.as_ref().and_then(|f| f.first());
    super::access::touches(analysis)
        .into_iter()
        .filter(|t| t.access.writes())
        .map(|t| t.path)
        .find(|path| {
            // In any case: where the file system folds case (macOS,
            // Windows), `~/.GITCONFIG` is `~/.gitconfig`.
            let plain = super::pattern::normalize_arg(path).to_lowercase();
            let named = Path::new(&plain);
            if named.components().any(|c| c.as_os_str() == ".git")
                || named.file_name().is_some_and(|n| n == ".gitconfig")
                || plain.ends_with("git/config")
            {
                return true;
            }
            let full = match (plain.strip_prefix("~/"), &config.home, start) {
                (Some(rest), Some(home), _) => home.join(rest),
                (None, _, _) if named.is_absolute() => named.to_path_buf(),
                (None, _, Some(start)) => start.join(named),
                _ => return false,
            };
            let full = full.to_string_lossy().to_lowercase();
            config
                .files
                .iter()
                .any(|f| f.to_string_lossy().to_lowercase() == full)
        })
}

/// What tells one file from another, whatever path led to it.
#[cfg(unix)]
fn file_id(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

/// Without inodes, a cycle ends at [`MAX_INCLUDE_DEPTH`].
#[cfg(not(unix))]
fn file_id(_: &std::fs::Metadata) -> (u64, u64) {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    (
        u64::MAX,
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
    )
}

/// Whether a command of a line may make git read some commits as others:
/// `git replace`, or a command that names a replacement ref or the grafts
/// file.
fn replaces_in_line(cmd: &SimpleCommand) -> bool {
    (cmd.program == "git" && cmd.args.first().is_some_and(|s| s == "replace"))
        || cmd
            .args
            .iter()
            .chain(&cmd.redirects)
            .any(|a| a.contains("refs/replace") || a.contains("info/grafts"))
}

/// Whether the repository at `git_dir` (its common folder) reads some
/// commits as others (`git replace`, `refs/replace/`, `info/grafts`): then
/// a push it finds to be a fast forward may rewrite the remote's branch.
/// A folder or file that cannot be read may hold them.
fn replaces_commits(git_dir: &Path) -> bool {
    let replace = git_dir.join("refs/replace");
    let listed = match std::fs::read_dir(&replace) {
        Ok(mut entries) => entries.next().is_some(),
        Err(e) => e.kind() != std::io::ErrorKind::NotFound,
    };
    let packed = match crate::disk::read_text(&git_dir.join("packed-refs")) {
        Ok(Some(text)) => text.contains(" refs/replace/"),
        Ok(None) => false,
        Err(_) => true,
    };
    listed || packed || std::fs::symlink_metadata(git_dir.join("info/grafts")).is_ok()
}

/// The settings files of the repository around `dir`, looking no further
/// up than `home`: its `.git/config` (for a work tree of another, the one
/// they share) and this work tree's `config.worktree`.
fn repository_config(dir: &Path, home: Option<&Path>) -> Option<(PathBuf, PathBuf)> {
    let mut at = Some(dir);
    while let Some(d) = at {
        let git = d.join(".git");
        if git.is_dir() {
            return Some((git.join("config"), git.join("config.worktree")));
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
                .unwrap_or_else(|| target.clone());
            return Some((common.join("config"), target.join("config.worktree")));
        }
        if home.is_some_and(|h| d == h) {
            return None;
        }
        at = d.parent();
    }
    None
}

/// `(section, key, value, full name)` of a git config file: sections and
/// keys lower-cased, values unquoted, and the full name with the subsection
/// (`filter.lfs.clean`), which says what a setting runs. A key without `=`
/// is `true`, as in git.
fn entries(text: &str) -> Vec<(String, String, String, String)> {
    let mut out = Vec::new();
    let mut section = String::new();
    // The section with its subsection, as a setting's full name begins
    // (`filter.lfs`).
    let mut prefix = String::new();
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
            let whole = header[..end].trim();
            let name = whole.split([' ', '\t', '"']).next().unwrap_or(whole);
            // `[remote.origin]` is the old spelling of `[remote "origin"]`.
            section = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
            let sub = match whole[name.len()..].trim() {
                "" => name.split_once('.').map(|(_, s)| s),
                quoted => Some(quoted.trim_matches('"')),
            };
            prefix = match sub {
                Some(sub) => format!("{section}.{sub}"),
                None => section.clone(),
            };
            rest = header[end + 1..].trim();
            if rest.is_empty() {
                continue;
            }
        }
        let (key, value) = match rest.split_once('=') {
            Some((k, v)) => (k.trim(), unquote(v.trim())),
            None => (rest.trim(), String::new()),
        };
        let key = key.to_ascii_lowercase();
        let full = format!("{prefix}.{key}");
        out.push((section.clone(), key, value, full));
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
        read(&dir.path().join("c"))
    }

    fn read(file: &Path) -> GitConfig {
        let mut c = GitConfig::default();
        c.read(file, None, 0, false, &mut Reading::default());
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
    fn dev_null_is_no_settings_and_another_device_is_unreadable() {
        let var = |global: &'static str| {
            move |name: &str| match name {
                "GIT_CONFIG_GLOBAL" => Some(global.into()),
                "GIT_CONFIG_NOSYSTEM" => Some("1".into()),
                _ => None,
            }
        };
        let c = GitConfig::load_with(None, None, &var("/dev/null"));
        assert_eq!(c.unreadable, None);
        let c = GitConfig::load_with(None, None, &var("/dev/zero"));
        assert!(c.unreadable.is_some());
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
        let c = config("[remote \"origin\"]\n\tpush = :refs/heads/main\n");
        assert!(has(&seen(&c, "git push"), "git", &["--force"]));
        let c = config("[remote \"origin\"]\n\tpush = :\n");
        assert!(!has(&seen(&c, "git push"), "git", &["--force"]));
    }

    /// A replaced commit or a graft makes git send a push that rewrites
    /// the remote's branch unforced, as a fast forward (found by review of
    /// 9683d96: `git replace --graft HEAD origin/main && git push`).
    #[test]
    fn a_repository_that_replaces_commits_forces_its_pushes() {
        let var = |name: &str| (name == "GIT_CONFIG_NOSYSTEM").then(|| "1".into());
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        std::fs::create_dir_all(repo.join(".git/refs/heads")).unwrap();
        let pushes = |line: &str| {
            let c = GitConfig::load_with(Some(&repo), Some(dir.path()), &var);
            has(&seen(&c, line), "git", &["push", "--force"])
        };
        assert!(!pushes("git push origin main"));
        std::fs::create_dir_all(repo.join(".git/refs/replace")).unwrap();
        assert!(!pushes("git push origin main"));
        std::fs::write(repo.join(".git/refs/replace/abc"), "def\n").unwrap();
        assert!(pushes("git push origin main"));
        std::fs::remove_file(repo.join(".git/refs/replace/abc")).unwrap();
        std::fs::write(repo.join(".git/packed-refs"), "abc refs/replace/abc\n").unwrap();
        assert!(pushes("git push origin main"));
        std::fs::write(repo.join(".git/packed-refs"), "abc refs/heads/main\n").unwrap();
        std::fs::create_dir_all(repo.join(".git/info")).unwrap();
        std::fs::write(repo.join(".git/info/grafts"), "abc\n").unwrap();
        assert!(pushes("git push origin main"));
        std::fs::remove_file(repo.join(".git/info/grafts")).unwrap();
        assert!(!pushes("git push origin main"));
        // Made in the line itself, before the push.
        assert!(pushes(
            "git replace --graft HEAD origin/main && git push origin main"
        ));
        assert!(pushes("git update-ref refs/replace/abc def; git push"));
        assert!(!pushes("git log && git push origin main"));
    }

    #[test]
    fn includes_are_followed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("more"), "[alias]\n pf = push -f\n").unwrap();
        std::fs::write(dir.path().join("main"), "[include]\n path = more\n").unwrap();
        let c = read(&dir.path().join("main"));
        assert!(has(&seen(&c, "git pf"), "git", &["push", "-f"]));
        assert!(c.unreadable.is_none());
        // A loop of includes ends.
        std::fs::write(dir.path().join("more"), "[include]\n path = main\n").unwrap();
        let c = read(&dir.path().join("main"));
        assert!(c.unreadable.as_deref().unwrap().contains("includes itself"));
        assert!(seen(&c, "git status").is_opaque());
    }

    /// What `git config --file` lists for `alias`, to hold the reading
    /// against git's own.
    fn git_aliases(file: &Path) -> Option<String> {
        let out = std::process::Command::new("git")
            .args(["config", "--file"])
            .arg(file)
            .args(["--get-regexp", "^alias\\."])
            .output()
            .ok()?;
        Some(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    #[test]
    fn a_file_that_includes_itself_is_read_once() {
        // Four includes of itself, each including itself four times…: read
        // as a tree, 4^10 files. git gives up too ("exceeded maximum include
        // depth"), so git commands are refused.
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        std::fs::write(
            home.join(".gitconfig"),
            "[include]\n path = ~/.gitconfig\n path = ~/.gitconfig\n path = ~/.gitconfig\n path = ~/.gitconfig\n[alias]\n pf = push --force\n",
        )
        .unwrap();
        let mut c = GitConfig::default();
        let mut reading = Reading::default();
        c.read(&home.join(".gitconfig"), Some(home), 0, false, &mut reading);
        assert!(c.unreadable.as_deref().unwrap().contains("includes itself"));
        assert_eq!(reading.files, 2);
        assert!(seen(&c, "git status").is_opaque());
    }

    #[test]
    fn a_cycle_through_include_if_ends() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("main"),
            "[includeIf \"gitdir:/\"]\n path = other\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("other"),
            "[includeIf \"onbranch:main\"]\n path = ./main\n",
        )
        .unwrap();
        let c = read(&dir.path().join("main"));
        assert!(c.unreadable.as_deref().unwrap().contains("includes itself"));
        assert!(seen(&c, "git log").is_opaque());
    }

    #[test]
    fn a_chain_of_includes_ends_at_git_s_depth() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..1000 {
            std::fs::write(
                dir.path().join(format!("c{i}")),
                format!("[include]\n path = c{}\n", i + 1),
            )
            .unwrap();
        }
        let mut c = GitConfig::default();
        let mut reading = Reading::default();
        c.read(&dir.path().join("c0"), None, 0, false, &mut reading);
        assert!(
            c.unreadable
                .as_deref()
                .unwrap()
                .contains("nested more than")
        );
        assert_eq!(reading.files, MAX_INCLUDE_DEPTH + 1);
        assert!(seen(&c, "git status").is_opaque());
    }

    #[test]
    fn includes_that_multiply_stop_at_a_number_of_files() {
        // No cycle: each file includes the next one twice, ten deep.
        let dir = tempfile::tempdir().unwrap();
        for i in 0..10 {
            std::fs::write(
                dir.path().join(format!("c{i}")),
                format!("[include]\n path = c{0}\n path = c{0}\n", i + 1),
            )
            .unwrap();
        }
        std::fs::write(dir.path().join("c10"), "[alias]\n s = status\n").unwrap();
        let mut c = GitConfig::default();
        let mut reading = Reading::default();
        c.read(&dir.path().join("c0"), None, 0, false, &mut reading);
        assert!(c.unreadable.as_deref().unwrap().contains("files included"));
        assert_eq!(reading.files, MAX_FILES + 1);
        assert!(seen(&c, "git s").is_opaque());
    }

    #[test]
    fn a_huge_include_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        // Sparse: 100 MB on paper, nothing on disk.
        let big = std::fs::File::create(dir.path().join("big")).unwrap();
        big.set_len(100 << 20).unwrap();
        std::fs::write(dir.path().join("main"), "[include]\n path = big\n").unwrap();
        let c = read(&dir.path().join("main"));
        assert!(
            c.unreadable
                .as_deref()
                .unwrap()
                .contains("bytes of configuration")
        );
        assert!(seen(&c, "git status").is_opaque());
        // Files within the bound each, over it together.
        let part = "#".repeat((MAX_BYTES / 3) as usize) + "\n";
        for name in ["a", "b", "c", "d"] {
            std::fs::write(dir.path().join(name), &part).unwrap();
        }
        std::fs::write(
            dir.path().join("main"),
            "[include]\n path = a\n path = b\n path = c\n path = d\n",
        )
        .unwrap();
        let c = read(&dir.path().join("main"));
        assert!(
            c.unreadable
                .as_deref()
                .unwrap()
                .contains("bytes of configuration")
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_a_device_as_a_config_does_not_hang() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        for planted in [fifo.as_path(), Path::new("/dev/zero")] {
            let c = read(planted);
            assert!(c.unreadable.is_some(), "{planted:?}");
            std::fs::write(
                dir.path().join("main"),
                format!("[include]\n path = {}\n", planted.display()),
            )
            .unwrap();
            let c = read(&dir.path().join("main"));
            assert!(c.unreadable.is_some(), "{planted:?}");
            assert!(seen(&c, "git status").is_opaque());
        }
    }

    #[test]
    fn a_byte_order_mark_and_odd_bytes_are_read_as_git_reads_them() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("c");
        std::fs::write(
            &file,
            b"\xef\xbb\xbf[alias]\n\tpf = push --force\n\tl = log \xff --oneline\n[user]\n\tname = Jos\xe9\n",
        )
        .unwrap();
        if let Some(listed) = git_aliases(&file) {
            assert!(listed.contains("alias.pf push --force"), "{listed}");
        }
        let c = read(&file);
        assert!(c.unreadable.is_none(), "{:?}", c.unreadable);
        assert!(has(&seen(&c, "git pf"), "git", &["push", "--force"]));
        assert!(has(&seen(&c, "git l"), "git", &["log", "--oneline"]));
        // A mark anywhere else is no mark: git refuses the file.
        std::fs::write(&file, b"[alias]\n\xef\xbb\xbfpf = push --force\n").unwrap();
        if let Some(listed) = git_aliases(&file) {
            assert!(listed.is_empty(), "{listed}");
        }
    }

    #[test]
    fn what_an_include_if_sets_may_not_apply() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("main"),
            "[alias]\n pf = push --force\n same = status\n[help]\n autocorrect = 1\n[includeIf \"gitdir:/elsewhere/\"]\n path = other\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("other"),
            "[alias]\n pf = status\n same = status\n new = push --force\n[help]\n autocorrect = 0\n",
        )
        .unwrap();
        let c = read(&dir.path().join("main"));
        // Either `push --force` or `status`: hookc cannot tell which.
        assert!(seen(&c, "git pf").is_opaque());
        assert!(has(&seen(&c, "git same"), "git", &["status"]));
        assert!(has(&seen(&c, "git new"), "git", &["push", "--force"]));
        assert!(c.autocorrect);
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

    /// A work tree's own settings (`git config --worktree`), which git reads
    /// where the repository turns `extensions.worktreeConfig` on (as
    /// `git sparse-checkout` does), and only there.
    #[test]
    fn a_work_tree_s_own_settings_are_read_where_git_reads_them() {
        let dir = tempfile::tempdir().unwrap();
        let git = dir.path().join("app/.git");
        std::fs::create_dir_all(&git).unwrap();
        std::fs::write(git.join("config.worktree"), "[alias]\n st = push --force\n").unwrap();
        let var = |name: &str| (name == "GIT_CONFIG_NOSYSTEM").then(|| "1".into());
        let load = || GitConfig::load_with(Some(&dir.path().join("app")), Some(dir.path()), &var);
        std::fs::write(git.join("config"), "[core]\n bare = false\n").unwrap();
        assert!(!has(&seen(&load(), "git st"), "git", &["push", "--force"]));
        std::fs::write(git.join("config"), "[extensions]\n worktreeConfig = true\n").unwrap();
        assert!(has(&seen(&load(), "git st"), "git", &["push", "--force"]));
    }

    /// Two repositories side by side, `app` (where lines start) and
    /// `other`, each with settings an earlier call could have written.
    fn two_repositories() -> (tempfile::TempDir, GitConfig) {
        let dir = tempfile::tempdir().unwrap();
        let write = |path: &str, text: &str| {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write(
            "app/.git/config",
            "[alias]\n pf = push --force\n[core]\n pager = less -R\n[credential]\n helper = !rm -rf build\n",
        );
        write(
            "other/.git/config",
            "[alias]\n st = push --force\n[remote \"m\"]\n mirror = true\n[filter \"x\"]\n clean = rm -rf build\n",
        );
        let var = |name: &str| match name {
            "GIT_CONFIG_NOSYSTEM" => Some("1".into()),
            "GIT_CONFIG_GLOBAL" => Some("/dev/null".into()),
            _ => None,
        };
        let c = GitConfig::load_with(Some(&dir.path().join("app")), Some(dir.path()), &var);
        (dir, c)
    }

    /// What the repository where the line starts says holds only for a git
    /// that works there. Elsewhere hookc reads that repository's settings
    /// where it can name the folder and nothing in the line can write them
    /// first; otherwise the git is opaque.
    #[test]
    fn a_git_in_another_repository_reads_that_repository_s_settings() {
        let (dir, c) = two_repositories();
        let app = dir.path().join("app");
        let placed = |line: &str| {
            let mut a = super::super::analyze_in(line, Some(&app), false);
            c.apply(&mut a);
            a
        };
        let opaque = |a: &Analysis| {
            a.opaque.iter().any(|o| {
                o.reason.contains("hookc could not read") || o.reason.contains("git's settings")
            })
        };
        // Read there: `st` is a forced push, a push to `m` mirrors.
        for line in ["git -C ../other st origin main", "git -C ../other push m"] {
            let a = placed(line);
            assert!(!opaque(&a), "{line}: {:?}", a.opaque);
            assert!(has(&a, "git", &["push", "--force"]), "{line}");
        }
        // A link is followed where the file system follows it.
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path().join("other"), app.join("via")).unwrap();
            let a = placed("git -C via st origin main");
            assert!(has(&a, "git", &["push", "--force"]), "{:?}", a.commands);
        }
        // Its filter runs when git adds a file there.
        assert!(has(
            &placed("git -C ../other add ."),
            "rm",
            &["-rf", "build"]
        ));
        assert!(!has(&placed("git add ."), "rm", &["-rf", "build"]));
        // A credential helper runs when git connects.
        assert!(has(&placed("git fetch"), "rm", &["-rf", "build"]));
        assert!(has(&placed("git pf"), "rm", &["-rf", "build"]));
        assert!(!has(&placed("git log"), "rm", &["-rf", "build"]));
        assert!(!opaque(&placed("git -C ../other log --oneline | head -3")));
        // Not readable: a folder known only when the line runs, a git that
        // finds its own folders, a line that may write the settings first,
        // a git that may run in either of two repositories (a `cd` is
        // followed to every folder the line may be in).
        for line in [
            "cd ../other && git st origin main",
            "env -C ../other git st origin main",
            "cd ../other; git push m",
            "git -C \"$D\" status",
            "cd \"$D\" && git status",
            "pushd ../other && git status",
            "find .. -execdir git status \\;",
            "git submodule foreach git status",
            "git --git-dir=../other/.git status",
            "cp -r ../other fresh && cd fresh && git status",
            "cp -r ../other fresh && git -C fresh status",
            "f() { git st; }; cd ../other; f",
            "git -C ../other st && git -C ../other log",
            "git -C ../other checkout x && git -C ../other st",
            "git -c alias.x='!cd ../other && git pf' x",
            "PWD=../other; cd \"$PWD\" && git st",
            "mkdir -p x/.git && cd x && cd \"$(git rev-parse --show-toplevel)\" && git st",
        ] {
            assert!(opaque(&placed(line)), "{line}");
        }
        // Settings the line writes before a git reads them.
        for line in [
            "printf '[alias]\\n pf = push --force\\n' >> ~/.gitconfig; git pf",
            "cp ../other/.git/config .git/config && git st",
            "mkdir -p ~/.config/git && cp x ~/.config/git/config && git st",
            "printf '[alias]\\n pf = push --force\\n' >> ~/.GITCONFIG; git pf",
            "cp ../other/.git/config .GIT/config && git st",
        ] {
            assert!(opaque(&placed(line)), "{line}");
        }
        assert!(!opaque(&placed("echo x > notes.txt && git status")));
        // Where the line stays, the settings read where it starts hold.
        let at = app.display();
        for line in [
            "git pf".to_owned(),
            "git -C . pf".to_owned(),
            format!("cd {at} && git pf"),
            format!("cd {at}/ && git pf"),
            "cd . && echo x > notes.txt && git pf".to_owned(),
            // Places the guard finds where the line runs.
            "cd \"$(git rev-parse --show-toplevel)\" && git pf".to_owned(),
            "cd \"$PWD\" && git pf".to_owned(),
        ] {
            let a = placed(&line);
            assert!(!opaque(&a), "{line}");
            assert!(has(&a, "git", &["push", "--force"]), "{line}");
            assert!(has(&a, "less", &["-R"]), "{line}: the pager runs");
        }
        // `-C` is git's own choice, which no later program start shows: the
        // run-time judge refuses it too. After a `cd`, git starts in that
        // folder, where the judge reads its settings.
        assert!(!placed("git -C \"$D\" st").within.is_empty());
        assert!(placed("cd \"$D\" && git st").within.is_empty());
    }

    /// `sudo` and `su` run git with another user's home, so with settings
    /// hookc did not read: there `git st` may be a forced push.
    #[test]
    fn a_git_run_as_another_user_is_opaque() {
        let (dir, c) = two_repositories();
        let app = dir.path().join("app");
        let opaque = |line: &str| {
            let mut a = super::super::analyze_in(line, Some(&app), false);
            c.apply(&mut a);
            a.opaque.iter().any(|o| o.reason.contains("another user"))
        };
        for line in [
            "sudo git st origin main",
            "sudo -u bob git status",
            "doas git log",
            "su bob -c 'cd /srv && git pull'",
            "runuser -u bob -- git fetch",
            "sudo sh -c 'git status'",
            "sudo ssh host true",
            // Programs that switch user in containers and service trees.
            "gosu postgres git status",
            "su-exec app:app git st origin main",
            "setpriv --reuid 1000 --init-groups git log",
            "chpst -u app git fetch",
            "s6-setuidgid app git status",
            "chroot /srv/jail git status",
        ] {
            assert!(opaque(line), "{line}");
        }
        for line in ["git status", "sudo apt-get install -y jq", "nice git log"] {
            assert!(!opaque(line), "{line}");
        }
    }

    /// A program hookc does not know is presumed to run its arguments
    /// (`foo git pf`): that git is judged with the settings it reads, as a
    /// git the line runs itself would be, and a git it may run that changes
    /// them (`foo git config alias.x …`) makes the line's other gits opaque.
    #[test]
    fn a_git_a_program_hookc_does_not_know_may_run_reads_its_settings() {
        let (dir, c) = two_repositories();
        let app = dir.path().join("app");
        std::fs::create_dir(app.join("src")).unwrap();
        // What the line runs, with what `foo` is presumed to run, as the
        // evaluator sees it.
        let run = |line: &str| {
            let mut a = super::super::analyze_in(line, Some(&app), false);
            c.apply(&mut a);
            // As the evaluator reads them (`Call::read_reading`), from a
            // word that is git, or a pattern that may become it.
            let read = |reading: &str| {
                let text = super::super::unknown::placed(&a, reading);
                let mut r = super::super::analyze_in(&text, Some(&app), false);
                c.for_readings(&a)(&mut r);
                r
            };
            let named = |p: &str| p == "git" || super::super::access::is_glob(p);
            let presumed = super::super::unknown::presume_with(&a, &named, Some(&read));
            let opaque: Vec<String> = a
                .opaque
                .iter()
                .map(|o| o.reason.clone())
                .chain(presumed.readings.iter().flat_map(|r| r.opaque.clone()))
                .collect();
            let gits: Vec<Vec<String>> = a
                .commands
                .iter()
                .chain(presumed.readings.iter().flat_map(|r| &r.commands))
                .filter(|c| c.program == "git")
                .map(|c| c.args.clone())
                .collect();
            (gits, opaque)
        };
        let forced = |gits: &[Vec<String>]| gits.iter().any(|g| g[..2] == ["push", "--force"]);
        for line in [
            "foo git pf origin main",
            "foo -q -- git pf origin main",
            "foo 'git pf origin main'",
            // Read in each folder the line may be in, all in this
            // repository.
            "cd src && foo git pf origin main",
            // Read where `-C` sends it.
            "foo git -C ../other st origin main",
        ] {
            let (gits, opaque) = run(line);
            assert!(forced(&gits), "{line}: {gits:?}");
            assert!(opaque.is_empty(), "{line}: {opaque:?}");
        }
        let (gits, opaque) = run("foo git status");
        assert_eq!(gits, [["status"]]);
        assert!(opaque.is_empty(), "{opaque:?}");
        // Settings hookc cannot tell: another repository's, or ones the
        // line may change before the program runs its git.
        for line in [
            "cd ../other && foo git st origin main",
            "foo sh -c 'cd ../other && bar git st origin main'",
            "foo --run='cd ../other && bar git st origin main'",
            "foo git config alias.st 'push --force'; git st origin main",
            "foo /usr/bin/gi[t] config alias.st 'push --force'; git st origin main",
            "foo hub config alias.st 'push --force'; git st origin main",
            "foo git config alias.st 'push --force' -- git st origin main",
            "git config alias.st 'push --force'; foo git st origin main",
            "printf '[alias] st = push --force' >> .git/config; foo git st origin main",
        ] {
            let (gits, opaque) = run(line);
            assert!(!forced(&gits), "{line}: {gits:?}");
            assert!(!opaque.is_empty(), "{line}: nothing opaque in {gits:?}");
        }
        // The line's own git, after a git that `foo` may run to change the
        // settings, is opaque itself.
        for line in [
            "foo git config alias.st 'push --force'; git st origin main",
            "foo /usr/bin/gi[t] config alias.st 'push --force'; git st origin main",
            "foo hub config alias.st 'push --force'; git st origin main",
        ] {
            let mut a = super::super::analyze_in(line, Some(&app), false);
            c.apply(&mut a);
            assert!(
                a.opaque
                    .iter()
                    .any(|o| o.reason.starts_with("`git st` after `foo`")),
                "{line}: {:?}",
                a.opaque
            );
        }
    }
}
