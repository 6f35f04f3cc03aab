//! Normalisation: from lexed words to the commands that actually run.
//!
//! The lexer gives us argument vectors as written; a guard needs the program
//! that *runs*. People (and models) put wrappers in front of commands —
//! `sudo`, `env X=1`, `nice -n 5`, `timeout 60`, `bash -c '…'` — and guards
//! that look only at the first word are beaten by them. This module peels
//! wrappers off (recursively, with a depth cap), drops leading `VAR=value`
//! assignments and shell keywords, reduces the program to its basename
//! (`/usr/bin/git` → `git`) and, for `git`, removes global options so that
//! the subcommand comes first (`git -C repo push` → `git push`).
//!
//! It does not rewrite arguments otherwise: flag spellings (`-rf` vs
//! `-r -f`) are the pattern matcher's job, so the analysis stays a faithful
//! picture of the command.
//!
//! Wrappers are *replaced* by what they run: `sudo git push` yields one
//! command, `git push`. A wrapper with nothing to run (`sudo -l`, `env`,
//! `command -v git`) is returned as itself.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::Repository;
use super::consoles;
use super::inert;
use super::lex::{self, MAX_DEPTH, Stdin, Word};
use super::package_json::{self, Folder, Found};
use super::programs::{self, How};
use super::runners::{self, Place, Runs};
use super::ssh_config;

pub use super::lex::Opaque;

/// Result of understanding one command line.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Analysis {
    /// Every simple command that may run, wrappers unwrapped, in source
    /// order (commands inside `$(…)` come before the command using them).
    pub commands: Vec<SimpleCommand>,
    /// What could not be understood. Commands that *were* understood are
    /// still listed in `commands`, so a guard can deny on them even when the
    /// line also contains something opaque.
    pub opaque: Vec<Opaque>,
    /// Programs of the line that decide inside themselves what they do,
    /// from what the line does not say (git's `help.autocorrect`, which
    /// runs a mistyped command's correction): the program and why. They are
    /// opaque too; the run-time judge, which sees only program starts,
    /// refuses them where a guard names the program, since no later start
    /// shows what they run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub within: Vec<(String, String)>,
    /// Where the line is read where it runs: each program's name and the
    /// file it names (`./tidy` in the line's folder; `None`: a bare name,
    /// found on `PATH`). A program file that is a guarded program under
    /// another name is that program (see `eval::unknown`).
    #[serde(skip)]
    pub program_files: Vec<(String, Option<PathBuf>)>,
    /// While a command is read: what it reads on standard input (a
    /// program that takes its code from there is read with it).
    #[serde(skip)]
    stdin: Stdin,
    /// Files the line sources (`source FILE`, `. FILE`) that were read
    /// where the line runs, or found missing: as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sourced: Vec<String>,
    /// Some commands of the line may run more than once (a loop, a
    /// function's body), so a `cd ..` among them may climb any number of
    /// levels (see `access::touches`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub repeats: bool,
    /// The line names its places only by the words that say them (set by
    /// `shell::analyze_in`; see `places::places_hold`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub places_hold: bool,
    /// The line names `CDPATH`, which may send a `cd` of a relative name
    /// anywhere.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cdpath: bool,
    /// Every folder a command of the line may run in, the one it starts in
    /// first, where each is known (`cd docs`, `env -C /srv/app`); `None`
    /// when a `cd` goes where hookc cannot follow (`cd "$D"`, `pushd`), or
    /// the line was read without a place. git reads the settings of the
    /// repository where it runs (see `git::GitConfig::apply`).
    #[serde(skip)]
    pub folders_run_in: Option<Vec<PathBuf>>,
    /// While the line is read: the directory it runs in, where a sourced
    /// file is read from; `None` when unknown (an analysis without a place,
    /// or after `cd`).
    #[serde(skip)]
    dir: Option<PathBuf>,
    /// Set by a `source` whose file cannot be read: the reason the commands
    /// after it are opaque.
    #[serde(skip)]
    redefined: Option<String>,
    /// While the line is read: program names are found in either case
    /// (`RM` runs `rm` where the file system folds case).
    #[serde(skip)]
    folds_case: bool,
    /// While the line is read: the words lexed so far, of every script
    /// in it, against [`lex::MAX_WORDS`].
    #[serde(skip)]
    words: usize,
    /// While the line is read: the redirection targets copied onto the
    /// commands they surround, against [`MAX_ATTACHED`].
    #[serde(skip)]
    attached: usize,
    /// While the line is read: it is one simple command, so what that
    /// command configures for later ones (`git config alias.…`) has no
    /// later command in the line to change.
    #[serde(skip)]
    lone: bool,
    /// While the line is read: it began with a known directory, so one
    /// unknown now was lost to a `cd` (a `package.json` script is then
    /// refused, not guessed).
    #[serde(skip)]
    placed: bool,
    /// While the line is read: every folder it may be in, where that is
    /// known (see `followed_cd`), for the `package.json` scripts it runs.
    #[serde(skip)]
    folders: Option<Vec<Folder>>,
    /// While the line is read: it names the places the guard finds only by
    /// the words that say them (`places::places_hold`), so a `cd
    /// "$PWD/x"` can be followed.
    #[serde(skip)]
    places_known: bool,
    /// While the line is read: the `package.json` scripts being read, each
    /// by its file and name.
    #[serde(skip)]
    scripts: Vec<(PathBuf, String)>,
    /// While the line is read where the call is judged: the repository
    /// there, which can say what `git ls-files` prints.
    #[serde(skip)]
    repository: Asked,
    /// While the line is read: ssh's settings files have been read.
    #[serde(skip)]
    ssh_settings_read: bool,
    /// Set by `git::GitConfig::apply`: why a git that a program hookc does
    /// not know may run (`foo git st`, see `unknown`) cannot be judged with
    /// the settings where the line starts, when it cannot.
    #[serde(skip)]
    pub presumed_git: Option<String>,
    /// While the line is read: the commands being read run as another
    /// user ([`programs::changes_user`]).
    #[serde(skip)]
    other_user: bool,
}

/// The [`Repository`] an analysis may ask, if any. Not part of what the
/// analysis says: two analyses are equal whatever they could ask.
#[derive(Clone, Copy, Default)]
struct Asked(Option<&'static dyn Repository>);

impl PartialEq for Asked {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Asked {}

impl std::fmt::Debug for Asked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Asked(repository)"
        } else {
            "Asked(nothing)"
        })
    }
}

impl Analysis {
    /// True when part of the line could not be understood.
    pub fn is_opaque(&self) -> bool {
        !self.opaque.is_empty()
    }

    /// Whether a command of the line may run in another folder than the
    /// one it starts in: it holds a `cd` to a folder not, by its name, the
    /// start.
    pub fn moves(&self) -> bool {
        let cds = self
            .commands
            .iter()
            .any(|c| matches!(c.program.as_str(), "cd" | "pushd" | "popd"));
        cds && match self.folders_run_in.as_deref() {
            Some([start, rest @ ..]) => rest.iter().any(|f| f != start),
            _ => true,
        }
    }
}

/// One simple command after unwrapping wrappers.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SimpleCommand {
    /// Basename of the program (`/usr/bin/git` → `git`, `git.exe` → `git`).
    /// Empty for a line
    /// that only redirects (`> file`), so that its write is still visible.
    pub program: String,
    /// Arguments after quote removal. For `git`, global options before the
    /// subcommand (`-C dir`, `-c k=v`, `--no-pager`, …) are removed.
    pub args: Vec<String>,
    /// Files written: targets of `>`, `>>`, `&>`, `N>` … redirections
    /// (including those around an enclosing `bash -c`), the file arguments of
    /// `tee`, and `of=` of `dd`.
    pub redirects: Vec<String>,
    /// Files read by redirection: targets of `<`, `N<`, `<>`, `<&file`
    /// (including those around an enclosing `bash -c` or loop).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<String>,
    /// For a command `find … -exec` runs: globs of the files `find` hands
    /// it as `{}` (see [`super::find`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub found: Vec<String>,
    /// With `found`: `find` lists only regular files on disk
    /// (`find::lists_files`), so the files there where the call runs are
    /// the ones it hands on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub found_on_disk: bool,
    /// With `found`: the names reach the command through `xargs`, which
    /// splits them at blanks and takes quotes and backslashes in them as
    /// its own (a file `a .env` is two names, the second `.env`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub found_split: bool,
    /// Indices into `args` of words whose value is known only when the line
    /// runs (`$VAR`, `"$(…)"`, `{a,b}`). They matter only to a guard whose
    /// pattern they could complete (see `CommandPattern::could_match`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unknown: Vec<usize>,
    /// Indices into `args` of words the shell keeps one word whatever they
    /// hold (`"$TMPFILE"`): an unknown one among them is one option or one
    /// operand, never several (see `CommandPattern::could_match`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub single: Vec<usize>,
    /// Indices into `args` of unquoted patterns (`--forc?`, `*.rs`): each
    /// may become the name of any file it matches, an option included.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub globs: Vec<usize>,
    /// For `git`: its global options point it at another repository or
    /// work tree (`-C DIR`, `--git-dir`, `--work-tree`), so the one where
    /// the line runs does not say what it changes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub repo_elsewhere: bool,
    /// With `repo_elsewhere`: the folder git's `-C` options name, counted
    /// from where it starts, when hookc can read it (`None` for
    /// `--git-dir`, or a value known only when the line runs).
    #[serde(skip)]
    pub repo_folder: Option<String>,
    /// The command is one that settings read where the call is judged
    /// say to run when a program connects (ssh's `ProxyCommand`), not one
    /// the line names.
    #[serde(skip)]
    pub from_settings: bool,
    /// The command runs as another user (`sudo`, `su`, `doas`), with that
    /// user's home and so that user's git and ssh settings.
    #[serde(skip)]
    pub other_user: bool,
}

/// Understand a command line: which programs run, with which arguments.
/// Never panics.
pub fn analyze(command_line: &str) -> Analysis {
    analyze_in(command_line, None, false, None)
}

/// [`analyze`], for a line run in the directory `dir`: a file it sources is
/// read from there, as the shell will.
pub fn analyze_in(
    command_line: &str,
    dir: Option<&Path>,
    folds_case: bool,
    repository: Option<&'static dyn Repository>,
) -> Analysis {
    let mut out = Analysis {
        dir: dir.map(Path::to_path_buf),
        placed: dir.is_some(),
        folders: dir.map(|d| vec![Folder::new(d)]),
        places_known: super::places::places_hold(command_line),
        folds_case,
        repository: Asked(repository.filter(|_| dir.is_some())),
        ..Analysis::default()
    };
    script(&mut out, command_line, 0, &[]);
    if widens_globs(command_line) && out.commands.iter().any(|c| !c.globs.is_empty()) {
        push_opaque(
            &mut out,
            "a glob after a shell option that widens what globs match (dotglob, nocaseglob, GLOBIGNORE): name the files",
        );
    }
    out.repository = Asked(None);
    out.ssh_settings_read = false;
    out.dir = None;
    out.redefined = None;
    out.folds_case = false;
    out.words = 0;
    out.attached = 0;
    out.lone = false;
    out.placed = false;
    out.places_known = false;
    out.folders_run_in = out
        .folders
        .take()
        .map(|folders| folders.into_iter().map(|f| f.path).collect());
    out
}

/// Whether the line may set a shell option that makes a glob match more
/// than hookc reads it to: dotfiles (bash's `dotglob`, or `GLOBIGNORE`,
/// which turns it on; zsh's `globdots`), another case (`nocaseglob`, zsh's
/// `no_case_glob`, `unsetopt caseglob`) or patterns of their own
/// (`extglob`, zsh's `extendedglob` and `kshglob`). Read from the text,
/// however it is spelt: zsh ignores case and underscores in option names.
fn widens_globs(line: &str) -> bool {
    let text = line.to_ascii_lowercase().replace('_', "");
    [
        "dotglob",
        "globdots",
        "caseglob",
        "globignore",
        "extglob",
        "extendedglob",
        "kshglob",
        "globasciiranges",
    ]
    .iter()
    .any(|option| text.contains(option))
}

/// A word shortened for display in an opaque reason: reasons are read by
/// the model and must stay short whatever the input.
pub(crate) fn short(word: &str) -> Cow<'_, str> {
    const MAX: usize = 40;
    match word.char_indices().nth(MAX) {
        Some((cut, _)) => Cow::Owned(format!("{}…", &word[..cut])),
        None => Cow::Borrowed(word),
    }
}

fn push_opaque(out: &mut Analysis, reason: impl Into<String>) {
    lex::push_reason(&mut out.opaque, reason.into());
}

/// Lex and normalise a script (the whole line, a `bash -c` string, an
/// `eval` string). `outer` are write targets of redirections around the
/// script, which apply to every command in it.
fn script(out: &mut Analysis, src: &str, depth: usize, outer: &[String]) {
    if depth > MAX_DEPTH {
        push_opaque(out, "commands nested too deeply");
        return;
    }
    let budget = lex::MAX_WORDS.saturating_sub(out.words);
    let mut lexed = lex::lex_within(src, depth, budget);
    if depth == 0
        && !lexed.listings.is_empty()
        && let Some(given) = listings(out, &lexed.listings)
    {
        lexed = lex::lex_listed(src, budget, &given);
    }
    out.words += lexed.words;
    out.repeats |= lexed.repeats;
    out.cdpath |= src.contains("CDPATH");
    if depth == 0 {
        out.lone = lexed.commands.len() == 1;
    }
    for o in lexed.opaque {
        push_opaque(out, o.reason);
    }
    // An alias may give the commands that follow it in the line other
    // meanings (so may a sourced file hookc cannot read: see `sourced`).
    let redefines = |c: &lex::LexedCommand| {
        c.words
            .iter()
            .find(|w| !is_assignment(w))
            .is_some_and(|w| !w.quoted && w.text == "alias")
    };
    let last = lexed.commands.len().saturating_sub(1);
    if let Some(c) = lexed.commands[..last].iter().find(|c| redefines(c)) {
        let words: Vec<String> = c
            .words
            .iter()
            .skip_while(|w| is_assignment(w))
            .map(|w| w.text.clone())
            .collect();
        push_opaque(
            out,
            format!(
                "commands after `{}`, which may redefine them",
                short(&words.join(" "))
            ),
        );
    }
    for (k, cmd) in lexed.commands.into_iter().enumerate() {
        let mut redirects = if attach(out, outer.len()) {
            outer.to_vec()
        } else {
            Vec::new()
        };
        redirects.extend(cmd.writes.into_iter().map(|w| w.text));
        let before = out.commands.len();
        out.stdin = cmd.stdin;
        words(out, &cmd.words, redirects, depth);
        out.stdin = Stdin::Inherited;
        if let Some(reason) = out.redefined.take()
            && k < last
        {
            push_opaque(out, reason);
        }
        if !cmd.reads.is_empty() {
            let reads: Vec<String> = cmd.reads.into_iter().map(|w| w.text).collect();
            // What the command (or the commands of its script, or of a loop
            // ending in `done < FILE`) read from standard input.
            if out.commands.len() == before {
                out.commands.push(SimpleCommand::default());
            }
            if attach(out, reads.len() * (out.commands.len() - before - 1)) {
                for c in &mut out.commands[before..] {
                    c.reads.extend(reads.iter().cloned());
                }
            }
        }
    }
}

/// What each `$(git ls-files …)` of the line prints where the call is
/// judged, as the words the shell makes of it (`lex::values`); `None`
/// when the line is read without a place, or git cannot say for one.
fn listings(out: &Analysis, wanted: &[Vec<String>]) -> Option<lex::Listings> {
    let (dir, repository) = (out.dir.as_deref()?, out.repository.0?);
    wanted
        .iter()
        .map(|args| {
            let names = lex::shell_fields(&repository.ls_files(dir, args)?)?;
            Some((args.clone(), names))
        })
        .collect()
}

/// The most copies of redirection targets put on the commands they
/// surround (`bash -c '…' > log` writes `log` from each command of the
/// script; `while …; done < f` reads `f` in each command of the loop). A
/// line of many redirections around a script of many commands would
/// otherwise cost their product.
const MAX_ATTACHED: usize = lex::MAX_WORDS;

/// Count `copies` more redirection targets put on surrounding commands:
/// false, and the line opaque, past [`MAX_ATTACHED`] (they are then left
/// off).
fn attach(out: &mut Analysis, copies: usize) -> bool {
    out.attached = out.attached.saturating_add(copies);
    if out.attached > MAX_ATTACHED {
        push_opaque(
            out,
            format!(
                "redirections around more commands than hookc checks in time (over \
                 {MAX_ATTACHED} in all; put the redirection on each command, or write fewer)"
            ),
        );
        return false;
    }
    true
}

/// `NAME=value`, `NAME+=value` or `NAME[subscript]=value` written plainly.
fn is_assignment(w: &Word) -> bool {
    assignment(w).is_some()
}

/// The name, subscript and value of an assignment word.
fn assignment(w: &Word) -> Option<(&str, Option<&str>, &str)> {
    let text = w.text.as_str();
    let end = text.find(['=', '['])?;
    // The name and what ends it must be written plainly: `'X'=1` is a
    // command name.
    if end == 0 || end >= w.plain_prefix {
        return None;
    }
    let name = text[..end].strip_suffix('+').unwrap_or(&text[..end]);
    let mut chars = name.chars();
    let named = matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !named {
        return None;
    }
    if text.as_bytes()[end] == b'[' {
        // `a[i]=v`: the subscript may hold quotes and expansions of its own.
        let close = text[end..].find("]=").or_else(|| text[end..].find("]+="))? + end;
        let eq = text[close..].find('=')? + close;
        return Some((name, Some(&text[end + 1..close]), &text[eq + 1..]));
    }
    Some((name, None, &text[end + 1..]))
}

/// What an assignment makes the shell run besides storing a value: an array
/// subscript is evaluated arithmetically (and `$(…)` inside it runs), a
/// command variable is a script of its own, and some variables change which
/// code runs at all.
fn assignment_effects(out: &mut Analysis, w: &Word, depth: usize) {
    let Some((name, subscript, value)) = assignment(w) else {
        return;
    };
    if let Some(sub) = subscript {
        evaluated_text(out, sub, depth);
    }
    if !w.opaque {
        // A literal `$(…)` stored in a variable runs wherever bash evaluates
        // the variable as arithmetic (`x='a[$(…)]'; kill "$x"`).
        evaluated_text(out, value, depth);
    }
    if programs::COMMAND_VARIABLES.contains(&name) {
        script(out, value, depth + 1, &[]);
    } else if name == "TAR_OPTIONS" {
        // Options tar reads before its own, split as the shell splits
        // words (`exec=git\ push`): the commands they name.
        let lexed = super::lex::lex(&format!(": {value}"));
        match &lexed.commands[..] {
            [one] if lexed.opaque.is_empty() && !w.opaque && !w.has_param => {
                let words: Vec<&str> = one.words[1..].iter().map(|w| w.text.as_str()).collect();
                tar_commands(out, &words, depth + 1);
            }
            _ => push_opaque(
                out,
                "TAR_OPTIONS that hookc cannot split into tar's options",
            ),
        }
    } else if name == "NODE_OPTIONS" && !programs::harmless_node_options(value) {
        push_opaque(
            out,
            "NODE_OPTIONS that may load code into every node process (name the module's file in a command of its own)",
        );
    } else if programs::changes_what_runs(name) {
        push_opaque(
            out,
            format!("{name} set on the command line (it changes which code runs)"),
        );
    }
}

/// Text the shell will evaluate again later (an arithmetic subscript, a
/// prompt, the value of `BASH_ENV`): any substitution in it runs then, so it
/// is analysed as if written in the line.
fn evaluated_text(out: &mut Analysis, text: &str, depth: usize) {
    if ["$(", "$[", "`", "<(", ">("]
        .iter()
        .any(|s| text.contains(s))
    {
        script(out, &format!(": {text}"), depth + 1, &[]);
        push_opaque(
            out,
            format!("text the shell evaluates again ({})", short(text)),
        );
    }
}

/// Basename of a program path; `git/` or `/` keep their text. A `.exe`
/// suffix is dropped too: in Git Bash on Windows `git.exe push -f` is
/// `git push -f`.
fn basename(path: &str) -> &str {
    let base = match path.rsplit('/').next() {
        Some(b) if !b.is_empty() => b,
        _ => path,
    };
    match base.len().checked_sub(4) {
        Some(cut)
            if cut > 0
                && base
                    .get(cut..)
                    .is_some_and(|e| e.eq_ignore_ascii_case(".exe")) =>
        {
            &base[..cut]
        }
        _ => base,
    }
}

fn texts(ws: &[Word]) -> Vec<String> {
    ws.iter().map(|w| w.text.clone()).collect()
}

fn emit(out: &mut Analysis, program: &str, args: &[Word], redirects: Vec<String>) {
    out.commands.push(SimpleCommand {
        program: program.to_owned(),
        args: texts(args),
        redirects,
        unknown: args
            .iter()
            .enumerate()
            .filter(|(_, w)| w.opaque || (w.has_param && !home_relative(&w.text)))
            .map(|(k, _)| k)
            .collect(),
        globs: args
            .iter()
            .enumerate()
            .filter(|(_, w)| w.glob)
            .map(|(k, _)| k)
            .collect(),
        single: args
            .iter()
            .enumerate()
            .filter(|(_, w)| w.quoted && !w.splits && !w.glob)
            .map(|(k, _)| k)
            .collect(),
        other_user: out.other_user,
        ..SimpleCommand::default()
    });
}

/// `$HOME` or `${HOME}` followed by literal text: known where the guard
/// runs (patterns read it as `~`).
fn home_relative(text: &str) -> bool {
    let rest = text
        .strip_prefix("$HOME")
        .or_else(|| text.strip_prefix("${HOME}"));
    rest.is_some_and(|r| (r.is_empty() || r.starts_with('/')) && !r.contains(['$', '`']))
}

/// Normalise the words of one simple command: past the assignments and
/// keywords in front, to the program that runs, read as [`read_program`]
/// says.
fn words(out: &mut Analysis, ws: &[Word], redirects: Vec<String>, depth: usize) {
    if depth > MAX_DEPTH {
        push_opaque(out, "commands nested too deeply");
        return;
    }
    if let Some(k) = ws.iter().position(|w| w.values.is_some()) {
        return each_value(out, ws, k, redirects, depth);
    }
    let Some(i) = command_start(out, ws, &redirects, depth) else {
        return;
    };
    let Some(program) = program_name(out, &ws[i]) else {
        return;
    };
    read_program(out, &program, &ws[i + 1..], redirects, depth + 1);
}

/// The most commands one command of a `for` loop's body is read as, one
/// for each value of its loop variables taken together; past it (or past
/// the line's [`lex::MAX_WORDS`], which their words count against) the
/// words stay known only when the line runs.
const MAX_LOOP_COMMANDS: usize = lex::MAX_LISTED;

/// A command in the body of `for NAME in WORD…` whose word `k` is `$NAME`
/// (see `lex::values`): read once with each value in its place.
fn each_value(out: &mut Analysis, ws: &[Word], k: usize, redirects: Vec<String>, depth: usize) {
    let combinations = ws
        .iter()
        .filter_map(|w| w.values.as_ref())
        .try_fold(1usize, |n, v| n.checked_mul(v.len()))
        .unwrap_or(usize::MAX);
    let values = ws[k].values.clone().unwrap_or_default();
    let mut ws = ws.to_vec();
    let cost = combinations.saturating_mul(ws.len());
    // A glob's match is one word only in `"$f"`: unquoted, the shell
    // splits it and expands it again.
    let respread = !ws[k].quoted && values.iter().any(|v| v.glob);
    if respread
        || combinations > MAX_LOOP_COMMANDS
        || out.words.saturating_add(cost) > lex::MAX_WORDS
    {
        for w in &mut ws {
            w.values = None;
        }
        return words(out, &ws, redirects, depth);
    }
    out.words += cost;
    for value in values {
        // A glob stands for each name it matches, as the word of a
        // pattern does (read where the call runs).
        ws[k] = Word {
            plain_prefix: 0,
            quoted: !value.glob,
            glob: value.glob,
            ..Word {
                text: value.text,
                ..Word::default()
            }
        };
        words(out, &ws, redirects.clone(), depth);
    }
}

/// Where the command's program word is: after its assignments (whose
/// effects are read) and the keywords in front (`if`, `!`, `time -p`, …).
/// `None` when nothing runs a program: a line that only redirects (its
/// write is still recorded), `for x in …`, or what is opaque as a whole.
fn command_start(
    out: &mut Analysis,
    ws: &[Word],
    redirects: &[String],
    depth: usize,
) -> Option<usize> {
    let mut i = 0;
    loop {
        let program = ws[i..].iter().find(|w| !is_assignment(w));
        let reads = program
            .is_some_and(|w| !w.quoted && w.plain_prefix == w.text.len() && w.text == "read");
        while i < ws.len() && is_assignment(&ws[i]) {
            match assignment(&ws[i]) {
                // `IFS= read -r line`: IFS for `read` alone, which splits
                // its input by it into values known only when the line runs.
                Some(("IFS", None, value)) if reads => {
                    if !ws[i].opaque {
                        evaluated_text(out, value, depth);
                    }
                }
                _ => assignment_effects(out, &ws[i], depth),
            }
            i += 1;
        }
        let Some(w) = ws.get(i) else {
            if !redirects.is_empty() {
                out.commands.push(SimpleCommand {
                    program: String::new(),
                    redirects: redirects.to_vec(),
                    ..SimpleCommand::default()
                });
            }
            return None;
        };
        // Keywords only count when written plainly.
        if w.quoted || w.plain_prefix != w.text.len() {
            return Some(i);
        }
        match w.text.as_str() {
            "!" | "{" | "}" | "if" | "then" | "else" | "elif" | "fi" | "do" | "done" | "esac" => {
                i += 1;
            }
            "while" | "until" => {
                out.repeats = true;
                i += 1;
            }
            "time" => {
                i += 1;
                while ws.get(i).is_some_and(|w| w.text == "-p" || w.text == "--") {
                    i += 1;
                }
            }
            // `for x in a b` runs nothing by itself; its body follows `do`.
            "for" | "select" => {
                out.repeats = true;
                return None;
            }
            "case" => {
                push_opaque(out, "case statement");
                return None;
            }
            // `function f { …; }`: the body that follows is read as
            // commands that may run; the definition runs nothing.
            "function" if ws.get(i + 1).is_some_and(|n| !n.has_param && !n.opaque) => {
                out.repeats = true;
                i += 2;
            }
            "function" => {
                push_opaque(out, "function definition");
                return None;
            }
            "coproc" => {
                push_opaque(out, "coprocess");
                return None;
            }
            _ => return Some(i),
        }
    }
}

/// The name of the program a command word runs: its basename (`/usr/bin/git`
/// is `git`, zsh's `=rm` is `rm`), in either case where the file system
/// folds it. `None`, and opaque, when the word is known only when the line
/// runs or is a pattern.
fn program_name(out: &mut Analysis, w: &Word) -> Option<String> {
    if w.opaque || w.has_param {
        push_opaque(
            out,
            format!(
                "a variable or substitution as the command name ({})",
                short(&w.text)
            ),
        );
        return None;
    }
    // zsh runs `=rm` as the path of `rm`.
    let name = w
        .text
        .strip_prefix('=')
        .filter(|_| !w.quoted)
        .unwrap_or(&w.text);
    // A glob: `*`, `?`, or a bracket expression (a lone `[` is the test
    // command).
    let bracket = name
        .find('[')
        .is_some_and(|at| name[at + 1..].contains(']'));
    if name.contains(['*', '?']) || bracket {
        push_opaque(
            out,
            format!("a pattern as the command name ({})", short(&w.text)),
        );
        return None;
    }
    if through_a_descriptor(name) {
        push_opaque(
            out,
            format!(
                "a program run through a file descriptor or /proc ({}), which may be any program file",
                short(&w.text)
            ),
        );
        return None;
    }
    let program = if out.folds_case {
        basename(name).to_lowercase()
    } else {
        basename(name).to_owned()
    };
    if out.placed && out.program_files.len() < MAX_PROGRAM_FILES {
        let file = if !name.contains('/') {
            Some(None)
        } else if name.starts_with('/') {
            Some(Some(PathBuf::from(name)))
        } else {
            out.dir.as_ref().map(|d| Some(d.join(name)))
        };
        if let Some(file) = file
            && !out.program_files.contains(&(program.clone(), file.clone()))
        {
            out.program_files.push((program.clone(), file));
        }
    }
    Some(program)
}

/// The most program files a line's analysis records (see
/// [`Analysis::program_files`]).
const MAX_PROGRAM_FILES: usize = 32;

/// Whether a program path reaches its file through a process's entry in
/// /proc (`/proc/self/fd/3`, `/proc/1/exe`, `/proc/self/root/…`) or a file
/// descriptor (`/dev/fd/3`, `/dev/stdin`): `exec 3</usr/bin/git;
/// /proc/self/fd/3 push --force` runs git under the name `3`. Read as the
/// kernel reads it: `.` and `..` taken away, `//` as `/`.
pub fn through_a_descriptor(path: &str) -> bool {
    if !path.starts_with('/') {
        return false;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    matches!(
        parts.as_slice(),
        ["proc", ..] | ["dev", "fd" | "stdin" | "stdout" | "stderr", ..]
    )
}

/// A program's arguments: looked through when it runs another program or
/// code ([`programs::WRAPPERS`], the interpreters, and [`reader`]'s table),
/// checked for what the shell evaluates again, then recorded.
fn read_program(
    out: &mut Analysis,
    program: &str,
    rest: &[Word],
    redirects: Vec<String>,
    d: usize,
) {
    // `grm` is GNU `rm` as Homebrew installs it; `hub` is git.
    let program = programs::other_name(program).unwrap_or(program);
    if programs::changes_user(program) && !out.other_user {
        out.other_user = true;
        read_program_as(out, program, rest, redirects, d);
        out.other_user = false;
    } else {
        read_program_as(out, program, rest, redirects, d);
    }
}

/// [`read_program`], as the user the line runs as so far.
fn read_program_as(
    out: &mut Analysis,
    program: &str,
    rest: &[Word],
    redirects: Vec<String>,
    d: usize,
) {
    let texts = texts(rest);
    let args: Vec<&str> = texts.iter().map(String::as_str).collect();
    // ssh's settings files, unless `-F` names others (read below).
    let settings_named =
        || matches!(program, "ssh" | "scp" | "sftp") && args.iter().any(|a| a.starts_with("-F"));
    // Another user's settings are read only where the call is judged, as
    // the caller's are (git's, with git's own: see `git::GitConfig::apply`).
    if ssh_config::connects(program, &args)
        && out.other_user
        && program != "git"
        && !settings_named()
        && judged_home(out).is_some()
    {
        push_opaque(
            out,
            format!(
                "`{program}` as another user, with that user's ssh settings, which hookc does not read"
            ),
        );
    } else if ssh_config::connects(program, &args)
        && !settings_named()
        && !out.ssh_settings_read
        && let Some(home) = judged_home(out)
    {
        // Once a line: the commands they hold are the same for every
        // connection (and a `ProxyCommand` of `ssh` would read them again).
        out.ssh_settings_read = true;
        // Read as the line's own files: a line that writes them first
        // changes what this reading saw (`written`).
        out.sourced.push(ssh_config::USER_SETTINGS.to_owned());
        let before = out.commands.len();
        for setting in ssh_config::settings(&home) {
            match setting {
                ssh_config::Setting::Line(line) => script(out, &line, d, &redirects),
                ssh_config::Setting::Unreadable(reason) => push_opaque(out, reason),
            }
        }
        for c in &mut out.commands[before..] {
            c.from_settings = true;
        }
    }
    for run in programs::local_runs(program, &args) {
        match run {
            programs::LocalRun::Line(line) => script(out, line, d, &redirects),
            programs::LocalRun::Shell(line) => {
                script(out, &format!("{line} HOST true"), d, &redirects);
            }
            programs::LocalRun::Unreadable(reason) => push_opaque(out, reason),
        }
    }
    if let Some(wrapper) = programs::wrapper(program) {
        return table_wrapper(out, wrapper, rest, redirects, d);
    }
    if runners::is_runner(program) {
        return read_runner(out, program, rest, redirects, d);
    }
    if let Some(interpreter) = programs::interpreter(program) {
        return interpreted(out, program, interpreter, rest, redirects);
    }
    if let Some(reason) = renames_programs(program, rest) {
        push_opaque(out, reason);
        return emit(out, program, rest, redirects);
    }
    // A word whose `$(…)` runs now was analysed by the lexer; a literal one
    // (`'a[$(…)]'`) runs when the builtin evaluates it.
    if evaluates_arguments(program) {
        for word in rest.iter().filter(|w| !w.opaque) {
            evaluated_text(out, &word.text, d);
        }
    } else if declares(program) {
        // `export BASH_ENV=…`: assignments like any other. The builtin
        // reads each word itself, quoted or not, so the subscript of
        // `declare 'a[$(…)]=1'` is arithmetic too.
        for word in rest {
            assignment_effects(out, word, d);
            if assignment(word).is_none()
                && !word.opaque
                && let Some(subscript) = declared_subscript(&word.text)
            {
                evaluated_text(out, subscript, d);
            }
        }
    } else if program == "alias" {
        // What an alias stands for runs wherever its name is typed, as a
        // function's body does, with the words typed after the name behind
        // it: read as commands that may run with any words after them
        // (`alias ls='git push'`, then `ls --force`).
        for value in rest
            .iter()
            .filter_map(|w| w.text.split_once('=').map(|(_, v)| v))
        {
            script(
                out,
                &format!("{value} \"${{words_after_the_alias[@]}}\""),
                d,
                &redirects,
            );
        }
    }
    if let Some(reason) = sets_what_runs(program, rest) {
        push_opaque(out, reason);
    }
    match reader(program) {
        Some(read) => read(out, program, rest, redirects, d),
        None => emit(out, program, rest, redirects),
    }
}

/// Whether [`reader`] reads `program`'s words in a way of its own.
pub(crate) fn reads_words(program: &str) -> bool {
    reader(program).is_some()
}

/// How one program's arguments are read: the program's name, its words,
/// the files it writes by redirection, and the depth.
type Reader = fn(&mut Analysis, &str, &[Word], Vec<String>, usize);

/// The programs whose arguments hold another command, code, or files in
/// a way of their own. One line each; a program not here is recorded as it
/// is written.
fn reader(program: &str) -> Option<Reader> {
    Some(match program {
        p if programs::AWKS.contains(&p) => read_awk,
        "sed" | "gsed" => read_sed,
        "trap" => read_trap,
        "sudo" => read_sudo,
        "env" => |out, _, rest, redirects, d| env(out, rest, redirects, d),
        "command" => read_command,
        "xargs" => read_xargs,
        "parallel" => |out, _, rest, redirects, d| parallel(out, rest, redirects, d),
        "tar" | "gtar" | "bsdtar" => read_tar,
        "watch" => read_watch,
        "bash" | "sh" | "zsh" | "dash" | "ksh" | "mksh" | "rbash" | "ash" | "yash" | "posh" => {
            shell
        }
        "su" | "runuser" => read_su,
        "eval" => read_eval,
        "source" | "." => sourced,
        "cd" | "pushd" | "popd" => read_cd,
        "find" => read_find,
        "git" => |out, _, rest, redirects, d| git(out, rest, redirects, d),
        p if p.starts_with("git-") && p.len() > 4 => read_dashed_git,
        "tee" => read_tee,
        "dd" => read_dd,
        "coreutils" => read_coreutils,
        p if consoles::VIS.contains(&p) => read_console,
        "ed" | "red" | "emacs" | "sqlite3" | "duckdb" | "sftp" => read_console,
        _ => return None,
    })
}

/// A program with a command language of its own ([`consoles`]): opaque
/// when given commands hookc cannot read.
/// The user's home folder, only where a call is judged (a build's examples
/// do not depend on the machine), wherever a `cd` has taken the line.
fn judged_home(out: &Analysis) -> Option<PathBuf> {
    out.placed
        .then(|| std::env::var_os("HOME"))
        .flatten()
        .map(PathBuf::from)
        .filter(|h| h.is_absolute())
}

fn read_console(
    out: &mut Analysis,
    program: &str,
    rest: &[Word],
    redirects: Vec<String>,
    _: usize,
) {
    let home = judged_home(out);
    if let Some(reason) = consoles::unreadable(program, rest, &out.stdin, home.as_deref()) {
        push_opaque(out, reason);
    }
    emit(out, program, rest, redirects);
}

/// awk: code that can run commands is opaque, and so is code that opens a
/// file whose name it works out; a file it names literally is read or
/// written as a redirection's is.
fn read_awk(
    out: &mut Analysis,
    program: &str,
    rest: &[Word],
    mut redirects: Vec<String>,
    _: usize,
) {
    let code = awk_program(rest);
    let mut reads = Vec::new();
    if code.is_none_or(programs::awk_runs_commands) {
        push_opaque(
            out,
            format!("{program} code that can run commands (system or a pipe)"),
        );
    } else if let Some(files) = code.and_then(programs::awk_files) {
        for (name, write) in files {
            if write {
                redirects.push(name);
            } else {
                reads.push(name);
            }
        }
    } else {
        push_opaque(
            out,
            format!(
                "{program} code that opens a file whose name it works out (`getline < f`, `print > $2`): name the file as a literal string, an operand or a redirection"
            ),
        );
    }
    let before = out.commands.len();
    emit(out, program, rest, redirects);
    reads_of_commands_since(out, before, &reads);
}

/// sed: a script that can run commands is opaque; the files its `r`, `R`,
/// `w` and `W` commands name are read and written as a redirection's are.
fn read_sed(
    out: &mut Analysis,
    program: &str,
    rest: &[Word],
    mut redirects: Vec<String>,
    _: usize,
) {
    let files = sed_scripts(rest).and_then(|scripts| {
        scripts
            .iter()
            .map(|s| programs::sed_files(s))
            .collect::<Option<Vec<_>>>()
    });
    let Some(files) = files else {
        push_opaque(
            out,
            format!("{program} script that can run commands (the e command or flag)"),
        );
        return emit(out, program, rest, redirects);
    };
    let (writes, reads): (Vec<_>, Vec<_>) = files.into_iter().flatten().partition(|f| f.1);
    redirects.extend(writes.into_iter().map(|(name, _)| name));
    emit(out, program, rest, redirects);
    if let Some(sed) = out.commands.last_mut() {
        sed.reads.extend(reads.into_iter().map(|(name, _)| name));
    }
}

/// `trap 'STRING' SIGNAL…`: the shell runs STRING later, as a script.
fn read_trap(out: &mut Analysis, program: &str, rest: &[Word], redirects: Vec<String>, d: usize) {
    match rest.first() {
        Some(w) if w.opaque || w.has_param => {
            push_opaque(out, "trap of a string known only when it runs")
        }
        Some(w) if !w.text.starts_with('-') && rest.len() > 1 => script(out, &w.text, d, &[]),
        _ => {}
    }
    emit(out, program, rest, redirects);
}

fn read_sudo(out: &mut Analysis, program: &str, rest: &[Word], redirects: Vec<String>, d: usize) {
    let mut edit = false;
    let n = parse_opts(
        rest,
        "ugpCDrtTUR",
        &[
            "user",
            "group",
            "prompt",
            "close-from",
            "chdir",
            "role",
            "type",
            "command-timeout",
            "other-user",
            "host",
            "chroot",
        ],
        |o| edit |= matches!(o, Opt::Short('e') | Opt::Long("edit")),
    );
    moved_by_options(out, "sudo", &rest[..n]);
    if edit {
        emit(out, "sudoedit", &rest[n..], redirects);
    } else {
        wrapped(out, program, rest, n, redirects, d);
    }
}

/// `command -v git` only looks git up; `command git …` runs it.
fn read_command(
    out: &mut Analysis,
    program: &str,
    rest: &[Word],
    redirects: Vec<String>,
    d: usize,
) {
    let mut lookup = false;
    let n = parse_opts(rest, "", &[], |o| {
        lookup |= matches!(o, Opt::Short('v' | 'V'));
    });
    if lookup {
        emit(out, program, rest, redirects);
    } else {
        wrapped(out, program, rest, n, redirects, d);
    }
}

fn read_xargs(out: &mut Analysis, program: &str, rest: &[Word], redirects: Vec<String>, d: usize) {
    let before = out.commands.len();
    let own = read_xargs_runs(out, rest, redirects, d);
    let (reads, _) = wrapper_files(program, rest, own);
    reads_of_commands_since(out, before, &reads);
}

/// What xargs runs; the number of its own option words.
fn read_xargs_runs(out: &mut Analysis, rest: &[Word], redirects: Vec<String>, d: usize) -> usize {
    // Names that reach the command as they were found: not read from a
    // file (`-a`), not put in place of a string (`-I`), not cut at an
    // end-of-file string (`-E`).
    let mut as_found = true;
    let mut null = false;
    let n = parse_opts(
        rest,
        "adEILnPs",
        &[
            "arg-file",
            "delimiter",
            "max-args",
            "max-procs",
            "max-chars",
            "process-slot-var",
        ],
        |o| match o {
            Opt::Short('a' | 'E' | 'I' | 'i' | 'e') => as_found = false,
            Opt::Long(l)
                if ["arg-file", "replace", "eof"]
                    .iter()
                    .any(|x| l.starts_with(x)) =>
            {
                as_found = false;
            }
            Opt::Short('0') | Opt::Long("null") => null = true,
            _ => {}
        },
    );
    let found = match &out.stdin {
        Stdin::Find(args) if as_found && n < rest.len() && super::find::lists_files(args) => {
            Some(super::find::found_globs(args))
        }
        _ => None,
    };
    if let Some(found) = found {
        // The files find lists, handed on as `{}` is by `-exec`.
        let mut ws = rest[n..].to_vec();
        ws.push(Word {
            text: "{}".to_owned(),
            quoted: true,
            ..Word::default()
        });
        let before = out.commands.len();
        words(out, &ws, redirects, d);
        for c in &mut out.commands[before..] {
            c.found.clone_from(&found);
            c.found_on_disk = true;
            c.found_split = !null;
        }
        return n;
    }
    if n >= rest.len() {
        // xargs runs `echo` by default.
        out.commands.push(SimpleCommand {
            program: "echo".to_owned(),
            redirects,
            ..SimpleCommand::default()
        });
    } else {
        // The command gets more arguments from standard input.
        let mut ws = rest[n..].to_vec();
        ws.push(from_input());
        words(out, &ws, redirects, d);
    }
    n
}

/// Options whose value tar runs as a command.
fn read_tar(out: &mut Analysis, program: &str, rest: &[Word], redirects: Vec<String>, d: usize) {
    let words = texts(rest);
    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
    tar_commands(out, &refs, d);
    emit(out, program, rest, redirects);
}

/// Read the commands tar's options `words` name (on its command line, or in
/// `TAR_OPTIONS`): `--checkpoint-action=exec=CMD`, `--to-command`,
/// `--use-compress-program` (`-I`), `--info-script` (`-F`),
/// `--new-volume-script` and `--rsh-command`, abbreviated as tar takes them
/// (`--checkpoint-act`), their value attached or the next word. An
/// old-style first word (`tar cIf CMD x.tar`) takes its values in order:
/// one with `I` or `F` is opaque.
fn tar_commands(out: &mut Analysis, words: &[&str], d: usize) {
    const LONG: &[&str] = &[
        "checkpoint-action",
        "to-command",
        "use-compress-program",
        "info-script",
        "new-volume-script",
        "rsh-command",
    ];
    if let Some(first) = words.first()
        && !first.starts_with('-')
        && first.contains(['I', 'F'])
    {
        push_opaque(
            out,
            "tar's old-style options naming a program (write them as `-I CMD`)",
        );
    }
    let mut k = 0;
    while let Some(&t) = words.get(k) {
        k += 1;
        if t == "--" {
            break;
        }
        let value = if let Some(long) = t.strip_prefix("--") {
            let (name, glued) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let Some(full) = LONG.iter().find(|l| name.len() >= 4 && l.starts_with(name)) else {
                continue;
            };
            let value = glued.or_else(|| {
                k += 1;
                words.get(k - 1).copied()
            });
            if *full == "checkpoint-action" {
                value.and_then(|v| v.strip_prefix("exec="))
            } else {
                value
            }
        } else if let Some(flags) = t.strip_prefix('-').filter(|f| !f.is_empty()) {
            match flags.find(['I', 'F']) {
                Some(at) if at + 1 < flags.len() => Some(&flags[at + 1..]),
                Some(_) => {
                    k += 1;
                    words.get(k - 1).copied()
                }
                None => None,
            }
        } else {
            None
        };
        if let Some(code) = value {
            script(out, code, d, &[]);
        }
    }
}

fn read_watch(out: &mut Analysis, program: &str, rest: &[Word], redirects: Vec<String>, d: usize) {
    let mut exec = false;
    let n = parse_opts(rest, "nq", &["interval", "equexit"], |o| {
        exec |= matches!(o, Opt::Short('x') | Opt::Long("exec"));
    });
    if n >= rest.len() {
        emit(out, program, rest, redirects);
    } else if exec {
        words(out, &rest[n..], redirects, d);
    } else {
        // Without -x, watch joins its arguments and runs `sh -c`.
        let joined = texts(&rest[n..]).join(" ");
        script(out, &joined, d, &redirects);
    }
}

fn read_su(out: &mut Analysis, program: &str, rest: &[Word], redirects: Vec<String>, d: usize) {
    match su_command(rest) {
        Some(cmd) => script(out, cmd, d, &redirects),
        None if program == "runuser" => read_runuser(out, program, rest, redirects, d),
        None => emit(out, program, rest, redirects),
    }
}

/// `runuser -u USER [--] COMMAND ARGS…` runs COMMAND as an argument vector
/// (without `-u`, runuser is su, whose operands go to the user's shell).
fn read_runuser(
    out: &mut Analysis,
    program: &str,
    rest: &[Word],
    redirects: Vec<String>,
    d: usize,
) {
    let mut user = false;
    let n = parse_opts(
        rest,
        "ugGsw",
        &[
            "user",
            "group",
            "supp-group",
            "shell",
            "whitelist-environment",
        ],
        |o| {
            user |= matches!(o, Opt::Short('u') | Opt::Long("user"));
        },
    );
    if user {
        wrapped(out, program, rest, n, redirects, d);
    } else {
        emit(out, program, rest, redirects);
    }
}

/// eval joins its arguments and runs them as a script: with literal
/// arguments that script is known exactly and read like the line; with an
/// unknown value in them it is opaque (and what can be read is still looked
/// at).
fn read_eval(out: &mut Analysis, _: &str, rest: &[Word], redirects: Vec<String>, d: usize) {
    if rest.iter().any(|w| w.has_param || w.opaque) {
        push_opaque(out, "eval of a value known only when it runs");
    }
    let joined = texts(rest).join(" ");
    script(out, &joined, d, &redirects);
}

/// A wrapper's command runs in `dir`, as after `cd DIR`.
fn moved_to(out: &mut Analysis, dir: Word) {
    out.dir = None;
    followed_cd(out, "cd", std::slice::from_ref(&dir));
    emit(out, "cd", &[dir], Vec::new());
}

/// After `cd`, relative paths name other files.
fn read_cd(out: &mut Analysis, program: &str, rest: &[Word], redirects: Vec<String>, _: usize) {
    out.dir = None;
    followed_cd(out, program, rest);
    emit(out, program, rest, redirects);
}

fn read_find(out: &mut Analysis, program: &str, rest: &[Word], redirects: Vec<String>, d: usize) {
    emit(out, program, rest, redirects);
    find_exec(out, rest, d);
}

/// `git-push` (in `git --exec-path`) is `git push`.
fn read_dashed_git(
    out: &mut Analysis,
    program: &str,
    rest: &[Word],
    redirects: Vec<String>,
    d: usize,
) {
    let mut args = vec![Word {
        text: program[4..].to_owned(),
        plain_prefix: program.len() - 4,
        ..Word::default()
    }];
    args.extend(rest.iter().cloned());
    git(out, &args, redirects, d);
}

/// The multicall coreutils: `coreutils --coreutils-prog=rm ARGS` and
/// `coreutils rm ARGS` run `rm ARGS`.
fn read_coreutils(
    out: &mut Analysis,
    program: &str,
    rest: &[Word],
    redirects: Vec<String>,
    d: usize,
) {
    let Some(first) = rest.first() else {
        return emit(out, program, rest, redirects);
    };
    if let Some(name) = first
        .text
        .strip_prefix("--coreutils-prog=")
        .filter(|n| !n.is_empty())
    {
        let mut ws = vec![Word {
            text: name.to_owned(),
            plain_prefix: if first.plain_prefix == first.text.len() {
                name.len()
            } else {
                0
            },
            quoted: first.quoted,
            has_param: first.has_param,
            opaque: first.opaque,
            glob: first.glob,
            values: None,
            splits: first.splits,
        }];
        ws.extend(rest[1..].iter().cloned());
        return words(out, &ws, redirects, d);
    }
    if first.text.starts_with('-') {
        // `--help`, `--version`: coreutils itself.
        return emit(out, program, rest, redirects);
    }
    words(out, rest, redirects, d)
}

/// tee writes the files it names.
fn read_tee(
    out: &mut Analysis,
    program: &str,
    rest: &[Word],
    mut redirects: Vec<String>,
    _: usize,
) {
    redirects.extend(positionals(rest).map(str::to_owned));
    emit(out, program, rest, redirects);
}

/// dd writes its `of=`.
fn read_dd(out: &mut Analysis, program: &str, rest: &[Word], mut redirects: Vec<String>, _: usize) {
    redirects.extend(
        rest.iter()
            .filter_map(|w| w.text.strip_prefix("of="))
            .map(str::to_owned),
    );
    emit(out, program, rest, redirects);
}

/// The options of a wrapper that run its command elsewhere: in another
/// folder (short, long), or under another root folder (short, long).
fn moving_options(
    program: &str,
) -> (
    &'static [&'static str],
    &'static [&'static str],
    &'static [&'static str],
    &'static [&'static str],
) {
    match program {
        "env" => (&["C"], &["chdir"], &[], &[]),
        "sudo" => (&["D"], &["chdir"], &["R"], &["chroot"]),
        "unshare" => (&["w"], &["wd"], &["R"], &["root"]),
        "nsenter" => (&["w"], &["wd"], &["r"], &["root"]),
        _ => (&[], &[], &[], &[]),
    }
}

/// A wrapper whose options (`opts`, before its command) run the command in
/// another folder (`env -C DIR`, `sudo -D DIR`, `unshare --wd DIR`) goes
/// there first, as a `cd` would: the command's relative paths are counted
/// from it (see `access::touches`). One that runs it under another root
/// (`chroot`, `sudo -R`, `unshare --root`), where every absolute path names
/// another file, is opaque.
fn moved_by_options(out: &mut Analysis, program: &str, opts: &[Word]) {
    let (dir_short, dir_long, root_short, root_long) = moving_options(program);
    let mut root = program == "chroot";
    let mut k = 0;
    while let Some(w) = opts.get(k) {
        k += 1;
        let t = w.text.as_str();
        if let Some(long) = t.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            root |= root_long.contains(&name);
            if dir_long.contains(&name) {
                let dir = match attached {
                    Some(v) => Word {
                        text: v.to_owned(),
                        ..w.clone()
                    },
                    // nsenter's `--wd` alone: the target's folder.
                    None if program == "nsenter" => unknown_folder(program),
                    None => opts
                        .get(k)
                        .cloned()
                        .unwrap_or_else(|| unknown_folder(program)),
                };
                moved_to(out, dir);
            }
            continue;
        }
        let Some(cluster) = t.strip_prefix('-').filter(|c| !c.is_empty()) else {
            continue;
        };
        let first = &cluster[..cluster.chars().next().map_or(0, char::len_utf8)];
        root |= root_short.iter().any(|r| cluster.contains(r));
        if dir_short.iter().any(|d| cluster.contains(d)) {
            // `-C DIR` or `-CDIR`; the letter inside a cluster (`-iC`) is
            // not followed: a folder hookc does not know.
            let dir = if !dir_short.contains(&first) {
                unknown_folder(program)
            } else if cluster.len() > first.len() {
                Word {
                    text: cluster[first.len()..].to_owned(),
                    ..w.clone()
                }
            } else if program == "nsenter" {
                unknown_folder(program)
            } else {
                opts.get(k)
                    .cloned()
                    .unwrap_or_else(|| unknown_folder(program))
            };
            moved_to(out, dir);
        }
    }
    if root {
        push_opaque(
            out,
            format!(
                "a command `{program}` runs under another root folder, where its paths name other files"
            ),
        );
    }
}

/// A folder a wrapper runs its command in that the line does not name.
fn unknown_folder(program: &str) -> Word {
    Word {
        text: format!("$(the folder {program} goes to)"),
        opaque: true,
        ..Word::default()
    }
}

/// A wrapper from [`programs::WRAPPERS`]: a script given with one of its
/// script options, else what follows its options and own operands, as an
/// argument vector or joined into a script.
fn table_wrapper(
    out: &mut Analysis,
    wrapper: &programs::Wrapper,
    rest: &[Word],
    mut redirects: Vec<String>,
    depth: usize,
) {
    let own = parse_opts(rest, wrapper.short_val, wrapper.long_val, |_| {});
    // The wrapper's own files: what it writes is written around the
    // command it runs, as a redirection is; what it reads, the command's
    // reads.
    let (reads, writes) = wrapper_files(wrapper.name, rest, own);
    redirects.extend(writes);
    let before = out.commands.len();
    table_wrapper_runs(out, wrapper, rest, own, redirects, depth);
    reads_of_commands_since(out, before, &reads);
}

/// Files read for the commands emitted since `before` (a wrapper's own),
/// as a redirection's are.
fn reads_of_commands_since(out: &mut Analysis, before: usize, reads: &[String]) {
    if reads.is_empty() {
        return;
    }
    if out.commands.len() == before {
        out.commands.push(SimpleCommand::default());
    }
    for c in &mut out.commands[before..] {
        c.reads.extend(reads.iter().cloned());
    }
}

/// The files a wrapper reads and writes itself: `strace -o FILE`, `time -o
/// FILE`, `script`'s typescript and logs, `flock`'s lock file (created
/// when missing), `xargs -a FILE` (read for the command's arguments).
fn wrapper_files(program: &str, rest: &[Word], own: usize) -> (Vec<String>, Vec<String>) {
    let value = |names: &[&str]| -> Vec<String> {
        let mut found = Vec::new();
        let mut k = 0;
        while k < own {
            let t = rest[k].text.as_str();
            k += 1;
            for name in names {
                let glued = match name.strip_prefix("--") {
                    Some(_) => t.strip_prefix(name).and_then(|v| v.strip_prefix('=')),
                    // `-o FILE`, `-oFILE`, or last in a cluster (`-qT FILE`):
                    // the letters after it are its value.
                    None => t
                        .strip_prefix('-')
                        .filter(|f| !f.starts_with('-'))
                        .and_then(|f| f.split_once(&name[1..]))
                        .map(|(_, v)| v),
                };
                match glued {
                    Some("") => found.extend(rest.get(k).map(|v| v.text.clone())),
                    Some(v) => found.push(v.to_owned()),
                    None if t == *name => found.extend(rest.get(k).map(|v| v.text.clone())),
                    None => {}
                }
            }
        }
        found
    };
    let mut reads = Vec::new();
    let mut writes = match program {
        "strace" | "ltrace" | "time" => value(&["-o", "--output"]),
        "script" => value(&[
            "-T",
            "--log-timing",
            "-I",
            "--log-in",
            "-O",
            "--log-out",
            "-B",
            "--log-io",
        ]),
        "xargs" => {
            reads = value(&["-a", "--arg-file"]);
            Vec::new()
        }
        // ssh's log (`-E FILE`) and identity; rlwrap's and xvfb-run's logs.
        "ssh" => {
            reads = value(&["-i"]);
            value(&["-E"])
        }
        "rlwrap" => value(&["-l", "--logfile"]),
        "xvfb-run" => value(&["-e", "--error-file", "-f", "--auth-file"]),
        _ => Vec::new(),
    };
    // Any other `--opt=VALUE` of the wrapper's own whose value looks like a
    // path (`valgrind --log-file=F`, `unshare --mount=F`): read and written.
    for w in &rest[..own.min(rest.len())] {
        if let Some((_, v)) = w.text.strip_prefix("--").and_then(|l| l.split_once('='))
            && v.contains(['/', '.'])
            && !v.contains("://")
        {
            reads.push(v.to_owned());
            writes.push(v.to_owned());
        }
    }
    // strace's `|CMD` is a command (`programs::local_runs`), not a file.
    writes.retain(|f| !f.starts_with(['|', '!']));
    match program {
        // `script [FILE]`: the typescript, after the options.
        "script" => writes.extend(rest.get(own).map(|w| w.text.clone())),
        "flock" => writes.extend(rest.get(own).map(|w| w.text.clone())),
        _ => {}
    }
    (reads, writes)
}

/// What a table wrapper runs (see [`table_wrapper`]).
fn table_wrapper_runs(
    out: &mut Analysis,
    wrapper: &programs::Wrapper,
    rest: &[Word],
    own: usize,
    redirects: Vec<String>,
    depth: usize,
) {
    let start = own + wrapper.operands;
    moved_by_options(out, wrapper.name, &rest[..own]);
    // A script option among the wrapper's own options, or right after its
    // operands (`flock FILE -c CMD`); never one of the command's own
    // (`flock .lock git -c k=v push`).
    let after_operands = rest
        .get(start)
        .filter(|w| wrapper.script_opts.contains(&w.text.as_str()))
        .and_then(|_| rest.get(start + 1))
        .map(|w| w.text.as_str());
    if let Some(code) = option_value_before(rest, wrapper.script_opts, own).or(after_operands) {
        return script(out, code, depth, &redirects);
    }
    match wrapper.how {
        How::Argv => wrapped(out, wrapper.name, rest, start, redirects, depth),
        How::Joined if start < rest.len() => {
            script(out, &texts(&rest[start..]).join(" "), depth, &redirects);
        }
        How::Joined if wrapper.name == "ssh" && ssh_runs_nothing(&rest[..own]) => {
            emit(out, wrapper.name, rest, redirects);
        }
        How::Joined => {
            // `ssh host` alone: the remote shell reads its commands from
            // standard input, which may be literal text.
            match std::mem::take(&mut out.stdin) {
                Stdin::Text(text) => script(out, &text, depth, &redirects),
                _ => push_opaque(
                    out,
                    format!("{} reading commands from standard input", wrapper.name),
                ),
            }
            emit(out, wrapper.name, rest, redirects);
        }
    }
}

/// ssh's own options ask for no remote command at all: `-N` (forward
/// ports only) or `-W HOST:PORT` (standard input goes to that port, as a
/// `ProxyCommand` uses it), in any cluster before an option's value.
fn ssh_runs_nothing(own: &[Word]) -> bool {
    const VALUED: &str = "BbcDEeFIiJLlmOopQRSWw";
    own.iter().any(|w| {
        let Some(flags) = w.text.strip_prefix('-').filter(|f| !f.starts_with('-')) else {
            return false;
        };
        for letter in flags.chars() {
            if matches!(letter, 'N' | 'W') {
                return true;
            }
            if VALUED.contains(letter) {
                return false;
            }
        }
        false
    })
}

/// The value of the first of `names` among `ws` (`-c VALUE`, `-cVALUE`,
/// `--command=VALUE`, `--command VALUE`), before any `--`.
fn option_value<'w>(ws: &'w [Word], names: &[&str]) -> Option<&'w str> {
    option_value_before(ws, names, ws.len())
}

/// [`option_value`] for an option word among the first `limit` words.
fn option_value_before<'w>(ws: &'w [Word], names: &[&str], limit: usize) -> Option<&'w str> {
    let mut i = 0;
    while let Some(w) = ws.get(i).filter(|_| i < limit) {
        let t = w.text.as_str();
        i += 1;
        if t == "--" {
            break;
        }
        for name in names {
            // `-c VALUE`, or a cluster of flags ending in it (`-qc VALUE`).
            let cluster_end = name.len() == 2
                && !name.starts_with("--")
                && t.len() > 2
                && t.starts_with('-')
                && !t.starts_with("--")
                && t.ends_with(&name[1..])
                && t[1..].chars().all(|c| c.is_ascii_alphabetic());
            if t == *name || cluster_end {
                return ws.get(i).map(|v| v.text.as_str());
            }
            let glued = if name.starts_with("--") {
                t.strip_prefix(name).and_then(|v| v.strip_prefix('='))
            } else {
                t.strip_prefix(name)
                    .filter(|v| !v.is_empty() && name.len() == 2)
            };
            if let Some(v) = glued {
                return Some(v);
            }
        }
    }
    None
}

/// A language runtime: code on its command line, or a program read from
/// standard input, is opaque (hookc reads shell, not Python).
fn interpreted(
    out: &mut Analysis,
    program: &str,
    interpreter: &programs::Interpreter,
    rest: &[Word],
    redirects: Vec<String>,
) {
    let code = rest.iter().any(|w| {
        let t = w.text.as_str();
        interpreter
            .code_opts
            .iter()
            .any(|o| match o.strip_prefix("--") {
                Some(_) => t == *o || t.starts_with(&format!("{o}=")),
                // `-c`, `-cCODE`, or a cluster holding the letter (`perl -ne`).
                None if o.len() == 2 && o.starts_with('-') => {
                    t.starts_with(o)
                        || (t.starts_with('-')
                            && !t.starts_with("--")
                            && t[1..].chars().all(|c| c.is_ascii_alphabetic())
                            && t[1..].contains(&o[1..]))
                }
                None => t == *o,
            })
    });
    let no_script = reads_stdin(rest);
    if code && !inert_code(program, interpreter, rest) {
        push_opaque(out, format!("{program} code on the command line"));
    } else if interpreter.reads_stdin && no_script && !inert_stdin(out, program, rest) {
        push_opaque(
            out,
            format!("{program} reading its program from standard input"),
        );
    }
    emit(out, program, rest, redirects);
}

/// `source FILE` runs FILE in this shell: its commands, and the functions,
/// aliases and variables it defines for the commands after it. A file the
/// guard can read where the line runs is read like the line (a
/// virtualenv's `bin/activate`); a missing one defines nothing; any other
/// makes the commands after it opaque.
/// Files sourced (or `package.json` files read) per line: a file that
/// sources itself twice would otherwise be read an exponential number of
/// times.
const MAX_SOURCED: usize = 32;

fn sourced(out: &mut Analysis, program: &str, rest: &[Word], redirects: Vec<String>, depth: usize) {
    emit(out, program, rest, redirects.clone());
    let file = rest.iter().find(|w| w.text != "--");
    // Code that comes from the line itself (`source <(…)`, `. /dev/stdin
    // <<< …`, `source "$F"`) runs here unseen, whatever follows.
    let inline = file.is_none_or(|w| {
        w.has_param || w.opaque || w.text.starts_with("/dev/") || w.text.starts_with("/proc/")
    }) || out.stdin != Stdin::Inherited;
    if out.sourced.len() >= MAX_SOURCED {
        push_opaque(
            out,
            format!(
                "`{program}` of code hookc cannot read ({})",
                short(&texts(rest).join(" "))
            ),
        );
        return;
    }
    match file.and_then(|w| source_text(out.dir.as_deref(), w).map(|t| (w, t))) {
        Some((w, text)) => {
            out.sourced.push(w.text.clone());
            if let Some(text) = text {
                script(out, &text, depth, &redirects);
                // Its functions' bodies were read as commands that run; an
                // alias it defines is seen only where it is used.
                if lex::lex(&text).commands.iter().any(|c| {
                    c.words
                        .iter()
                        .any(|w| w.text == "alias" || w.text.starts_with("BASH_ALIASES"))
                }) {
                    out.redefined = Some(format!(
                        "commands after `{program} {}`, whose aliases may redefine them",
                        short(&w.text)
                    ));
                }
            }
        }
        None if inline => push_opaque(
            out,
            format!(
                "`{program}` of code hookc cannot read ({})",
                short(&texts(rest).join(" "))
            ),
        ),
        None => {
            let words = texts(rest).join(" ");
            out.redefined = Some(format!(
                "commands after `{program} {}`, which may redefine them",
                short(&words)
            ));
        }
    }
}

/// A package manager or runner ([`runners`]): recorded as written, and
/// read for the package program, shell line or `package.json` scripts it
/// runs.
fn read_runner(out: &mut Analysis, program: &str, rest: &[Word], redirects: Vec<String>, d: usize) {
    let words = texts(rest);
    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
    let Some(reading) = runners::read(program, &refs) else {
        return emit(out, program, rest, redirects);
    };
    if reading.runs == Runs::Code
        && let Some(interpreter) = programs::interpreter(program)
    {
        return interpreted(out, program, interpreter, rest, redirects);
    }
    emit(out, program, rest, redirects.clone());
    // npm, pnpm and yarn take their options anywhere before a `--`: one
    // naming the program that runs the scripts, or settings files that may
    // name it, leaves them unread.
    let options = rest.iter().take_while(|w| w.text != "--");
    if matches!(
        reading.runs,
        Runs::Script(_) | Runs::Named(..) | Runs::Own(_)
    ) && let Some(w) = options
        .into_iter()
        .find(|w| runners::names_script_shell(&w.text))
    {
        return push_opaque(
            out,
            format!(
                "`{program} {}`, which runs its scripts with another program (run the script's command directly)",
                short(&w.text)
            ),
        );
    }
    let script_of = |out: &mut Analysis, name: &str, word: Option<&Word>, args: &[Word]| {
        let ask = Script {
            runner: program,
            place: &reading.place,
            name,
            word,
            args,
        };
        package_script(out, &ask, &redirects, d);
    };
    match reading.runs {
        Runs::Package(at) if at < rest.len() => {
            let mut ws = rest[at..].to_vec();
            if !ws[0].opaque && !ws[0].has_param {
                ws[0].text = runners::program_of(&ws[0].text).to_owned();
            }
            self::words(out, &ws, redirects.clone(), d);
        }
        Runs::Line(at) if at < rest.len() => script(out, &words[at..].join(" "), d, &redirects),
        Runs::Call(at) => {
            if let Some((_, code)) = words.get(at).and_then(|w| w.split_once('=')) {
                script(out, code, d, &redirects);
            }
        }
        Runs::Script(at) if at < rest.len() => {
            script_of(out, &rest[at].text, Some(&rest[at]), &rest[at + 1..]);
        }
        Runs::Named(name, at) => script_of(out, name, None, &rest[at.min(rest.len())..]),
        Runs::Own(lifecycle) => {
            for name in lifecycle {
                script_of(out, name, None, &[]);
            }
        }
        _ => {}
    }
}

/// One script a package manager is asked to run.
struct Script<'a> {
    runner: &'a str,
    place: &'a Place,
    /// The script's name (`test` for `npm t`).
    name: &'a str,
    /// The word that names it, when the line does (`npm run NAME`): without
    /// a script of that name, the manager runs a program of that name.
    word: Option<&'a Word>,
    /// Words appended to the script.
    args: &'a [Word],
}

/// Read the `package.json` script `ask` names, with its `pre` and `post`
/// scripts, where the manager finds it: the nearest `package.json` at or
/// above each folder the line may run in (or the one an option names), or
/// every package of the workspace for `pnpm -r`, `--filter`, `npm -w`. A
/// script of a place hookc cannot know (a folder named at run time, or
/// after a `cd` it cannot follow) or a name known only at run time is
/// opaque; with no `package.json`, or no such script, the named word is
/// read as a program, as the managers then run it.
fn package_script(out: &mut Analysis, ask: &Script, redirects: &[String], d: usize) {
    let runner = ask.runner;
    if ask.word.is_some_and(|w| w.opaque || w.has_param) {
        return push_opaque(
            out,
            format!("`{runner}` running a script whose name is known only when the line runs"),
        );
    }
    let bases = match (&out.dir, &out.folders) {
        (Some(dir), _) => Some(vec![Folder::new(dir)]),
        (None, Some(folders)) => Some(folders.clone()),
        (None, None) => None,
    };
    let bases = match ask.place {
        Place::Folder(f) if plain_folder(f) => {
            bases.map(|bs| bs.iter().map(|b| b.join(f)).collect::<Vec<_>>())
        }
        Place::Folder(_) => None,
        Place::Here | Place::Others(_) => bases,
    };
    let Some(bases) = bases else {
        if out.placed || matches!(ask.place, Place::Folder(_)) {
            push_opaque(
                out,
                format!(
                    "`{runner}` running the script `{}` of a package.json hookc cannot find where the line runs (after `cd`, name the folder with {} instead)",
                    short(ask.name),
                    folder_option(runner)
                ),
            );
        } else {
            run_as_program(out, ask, redirects, d);
        }
        return;
    };
    let mut files = Vec::new();
    for base in &bases {
        if let Place::Others(option) = ask.place {
            let Some(found) = package_json::workspace(base) else {
                return push_opaque(
                    out,
                    format!(
                        "`{runner} {option}`, which runs the `{}` scripts of a workspace too large for hookc to look through (run the script in its package's folder, named with {})",
                        short(ask.name),
                        folder_option(runner)
                    ),
                );
            };
            files.extend(found);
        } else {
            files.push(package_json::nearest(base));
        }
    }
    // Without the script somewhere, the manager runs a program of its name
    // (in a workspace, the packages without it are skipped, or run it).
    let mut as_program = matches!(ask.place, Place::Others(_));
    for file in files {
        let (name, path, text) = match file {
            Found::File(name, path, text) => (name, path, text),
            Found::Nothing => {
                as_program = true;
                continue;
            }
            Found::Unreadable(name) => {
                return push_opaque(
                    out,
                    format!(
                        "`{name}`, a package.json hookc cannot read, whose scripts `{runner}` runs"
                    ),
                );
            }
        };
        if out.sourced.len() >= MAX_SOURCED {
            return push_opaque(
                out,
                format!("`{runner}` running scripts that run scripts, too many to read"),
            );
        }
        let Some(scripts) = runners::scripts(&text) else {
            return push_opaque(
                out,
                format!(
                    "`{name}`, a package.json whose scripts hookc cannot read, run by `{runner}`"
                ),
            );
        };
        // The package's own settings, which a line that writes them before
        // the script runs changes (`written`).
        let folder = name.strip_suffix("package.json").unwrap_or_default();
        for settings in [".npmrc", ".yarnrc"] {
            out.sourced.push(format!("{folder}{settings}"));
        }
        out.sourced.push(name);
        let body = |name: &str| scripts.iter().find(|(n, _)| n == name).map(|(_, b)| b);
        let Some(main) = body(ask.name) else {
            as_program = true;
            continue;
        };
        // Another user's settings (`sudo npm run reset` reads root's
        // `~/.npmrc`) are not the ones hookc reads.
        if out.other_user && package_json::honours_script_shell(runner) {
            return push_opaque(
                out,
                format!(
                    "`{runner}` as another user (`sudo`, `su`, `doas`), whose settings may name the program that runs its scripts and which hookc does not read (run `{runner}` as yourself)"
                ),
            );
        }
        if let Some(reason) = path
            .parent()
            .and_then(|package| package_json::script_shell(runner, package))
        {
            return push_opaque(out, reason);
        }
        // A script that runs itself again (`"build": "pnpm -r build"` in
        // the workspace's root) is being read already.
        let key = (path, ask.name.to_owned());
        if out.scripts.contains(&key) {
            continue;
        }
        out.scripts.push(key);
        if let Some(pre) = body(&format!("pre{}", ask.name)) {
            script(out, pre, d, redirects);
        }
        // The words after the script's name are appended to it (npm takes
        // a `--` in front away; a guard's flags after one are still flags).
        let mut line = main.clone();
        let args = match ask.args.split_first() {
            Some((dashes, rest)) if dashes.text == "--" && !dashes.quoted => rest,
            _ => ask.args,
        };
        for w in args {
            line.push(' ');
            if w.opaque || w.has_param {
                line.push_str("\"$HOOKC_UNKNOWN\"");
            } else {
                line.push_str(&super::sh_word(&w.text));
            }
        }
        script(out, &line, d, redirects);
        if let Some(post) = body(&format!("post{}", ask.name)) {
            script(out, post, d, redirects);
        }
        out.scripts.pop();
    }
    if as_program {
        run_as_program(out, ask, redirects, d);
    }
}

/// The word naming a script, read as the program the manager runs when
/// the package has no script of that name.
fn run_as_program(out: &mut Analysis, ask: &Script, redirects: &[String], d: usize) {
    if let Some(word) = ask.word {
        let mut ws = vec![word.clone()];
        ws.extend_from_slice(ask.args);
        words(out, &ws, redirects.to_vec(), d);
    }
}

/// How a manager is told the folder of the package.
fn folder_option(runner: &str) -> &'static str {
    match runner {
        "pnpm" => "`pnpm -C DIR`",
        "yarn" => "`yarn --cwd DIR`",
        "bun" => "`bun --cwd DIR`",
        _ => "`npm --prefix DIR`",
    }
}

/// A folder named literally (no `~`, no expansion, no pattern).
fn plain_folder(folder: &str) -> bool {
    !folder.is_empty()
        && folder != "-"
        && !folder.starts_with('~')
        && !folder.contains(['$', '`', '*', '?', '[', '\\'])
}

/// The folders the line may be in after `cd`: each it may have been in,
/// with the target added, while the target is a folder named literally
/// that `CDPATH` cannot send elsewhere, or a place the guard finds where
/// the line runs (`cd "$PWD/src"`, `cd "$(git rev-parse --show-toplevel)"`,
/// which hold only while the line does not redefine them: see
/// `places::places_hold`). A `cd` that cannot be followed so
/// (`cd "$D"`, `cd -`, `pushd`) leaves the folder unknown. The folders
/// before are kept, as a `cd` in `( … )` does not outlast it.
fn followed_cd(out: &mut Analysis, program: &str, rest: &[Word]) {
    /// The most folders followed.
    const MAX_FOLDERS: usize = 8;
    let operands: Vec<&Word> = rest
        .iter()
        .filter(|w| !matches!(w.text.as_str(), "-L" | "--"))
        .collect();
    let relative = |t: &str| !t.starts_with('/') && !t.starts_with("./") && !t.starts_with("../");
    let cdpath = out.cdpath || std::env::var_os("CDPATH").is_some_and(|v| !v.is_empty());
    let folders = match (program, operands.as_slice(), out.folders.take()) {
        ("cd", [w], Some(mut folders)) => {
            let t = w.text.as_str();
            let moved: Option<Vec<Folder>> = if !w.opaque && !w.has_param && plain_folder(t) {
                (!(cdpath && relative(t) && t != "." && t != ".."))
                    .then(|| folders.iter().map(|f| f.join(t)).collect())
            } else if out.places_known && out.sourced.is_empty() {
                // A sourced file may have set `PWD`. The top of the work
                // tree is the one on disk while nothing before may have
                // made another (`mkdir sub/.git`).
                let first = out
                    .commands
                    .iter()
                    .all(|c| c.program == "git" && c.args == ["rev-parse", "--show-toplevel"]);
                folders.iter().map(|f| place_folder(f, t, first)).collect()
            } else {
                None
            };
            moved.and_then(|moved| {
                for f in moved {
                    if !folders.contains(&f) {
                        folders.push(f);
                    }
                }
                Some(folders).filter(|f| f.len() <= MAX_FOLDERS)
            })
        }
        _ => None,
    };
    out.folders = folders;
}

/// The folder `cd TEXT` reaches from `from` when TEXT names a place the
/// guard finds (see [`super::places::place`]) followed by literal
/// folders: `$PWD` is `from`, `$(git rev-parse --show-toplevel)` the top
/// of the work tree around it (the nearest folder above that holds a
/// `.git`), when `top_holds`.
fn place_folder(from: &Folder, text: &str, top_holds: bool) -> Option<Folder> {
    use super::places::{Place, place};
    let (place, _, rest) = place(text)?;
    // `$(pwd)src` is another name, not a folder below.
    let rest = match rest {
        "" => "",
        r => r.strip_prefix('/')?,
    };
    if !rest.is_empty() && !plain_folder(rest) {
        return None;
    }
    match place {
        Place::Start => Some(from.join(rest)),
        Place::Top if top_holds => {
            let top = from.path.ancestors().find(|d| d.join(".git").exists())?;
            Some(from.join(&format!("{}/{rest}", top.to_str()?)))
        }
        Place::Top => None,
    }
}

/// The text of the file `w` names, read from `dir` as the shell will find
/// it: `Some(None)` when no file is there. `None` when it cannot be known:
/// a name without `/` (the shell looks it up on `PATH`), a value known only
/// when the line runs, a place unknown, or no regular UTF-8 file of at most
/// 256 KiB (a pipe such as `/dev/stdin` is never opened).
fn source_text(dir: Option<&Path>, w: &Word) -> Option<Option<String>> {
    const MAX: u64 = 256 * 1024;
    let name = w.text.as_str();
    if w.has_param || w.opaque || !name.contains('/') || name.starts_with('~') {
        return None;
    }
    if name.contains(['*', '?', '[']) {
        return None;
    }
    let path = if name.starts_with('/') {
        PathBuf::from(name)
    } else {
        dir?.join(name)
    };
    // `/dev/stdin`, `/proc/self/fd/0` and links to them name the shell's
    // descriptors when the line runs; here they would be the guard's own.
    let real = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
    if [&path, &real]
        .iter()
        .any(|p| p.starts_with("/dev") || p.starts_with("/proc"))
    {
        return None;
    }
    match std::fs::metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(None),
        Ok(m) if m.is_file() && m.len() <= MAX => {
            let mut text = String::new();
            let file = std::fs::File::open(&path).ok()?;
            std::io::Read::read_to_string(&mut std::io::Read::take(file, MAX), &mut text).ok()?;
            Some(Some(text))
        }
        _ => None,
    }
}

/// Whether an interpreter reading its program from standard input is given
/// literal code there (`python3 - <<'EOF'`, `echo 'print(1)' | node`) that
/// [`inert`] proves can only compute and print.
fn inert_stdin(out: &Analysis, program: &str, rest: &[Word]) -> bool {
    let (Stdin::Text(code), Some(language)) = (&out.stdin, inert::Language::of(program)) else {
        return false;
    };
    rest.iter().all(|w| !language.loads_code(&w.text)) && inert::inert(language, code)
}

/// Whether every piece of code on an interpreter's command line is a
/// literal that [`inert`] proves can only compute and print, with no option
/// that loads other code first.
fn inert_code(program: &str, interpreter: &programs::Interpreter, rest: &[Word]) -> bool {
    let Some(language) = inert::Language::of(program) else {
        return false;
    };
    let literal = |w: &Word| !w.has_param && !w.opaque;
    let mut codes = 0;
    let mut i = 0;
    while let Some(w) = rest.get(i) {
        let t = w.text.as_str();
        i += 1;
        if t == "--" || !t.starts_with('-') {
            // The first operand ends the options (a script name, or the
            // files of `perl -pi -e …`).
            if codes > 0 {
                break;
            }
            continue;
        }
        if language.loads_code(t) {
            return false;
        }
        let mut code = None;
        for o in interpreter.code_opts {
            if t == *o {
                code = Some(rest.get(i).filter(|v| literal(v)).map(|v| v.text.as_str()));
                i += 1;
            } else if let Some(v) = t
                .strip_prefix(&format!("{o}="))
                .filter(|_| o.starts_with("--"))
            {
                code = Some(literal(w).then_some(v));
            } else if o.len() == 2 && !t.starts_with("--") && t.len() > 2 && t.contains(&o[1..]) {
                // `-cCODE` glued, or a cluster such as `perl -ne CODE`: hookc
                // does not tell them apart, so it vets neither.
                code = Some(None);
            }
            if code.is_some() {
                break;
            }
        }
        match code {
            Some(Some(text)) if inert::inert(language, text) => codes += 1,
            Some(_) => return false,
            None => {}
        }
    }
    codes > 0
}

/// Whether a shell or interpreter given `rest` reads its program from
/// standard input: no operand (or `-`, or `-s`), and not just asked for its
/// version or help.
fn reads_stdin(rest: &[Word]) -> bool {
    let asks = |w: &Word| matches!(w.text.as_str(), "--version" | "-V" | "--help" | "-h" | "-m");
    if rest.iter().any(asks) {
        return false;
    }
    rest.iter().all(|w| w.text.starts_with('-'))
        || rest.iter().any(|w| w.text == "-" || w.text == "-s")
}

/// sed's scripts: every `-e`/`--expression` value, else the first operand;
/// `None` when one comes from a file (`-f`), which hookc cannot read.
fn sed_scripts(rest: &[Word]) -> Option<Vec<&str>> {
    let mut scripts = Vec::new();
    let mut i = 0;
    let mut first_operand = None;
    while let Some(w) = rest.get(i) {
        let t = w.text.as_str();
        i += 1;
        match t {
            "-e" | "--expression" => scripts.push(rest.get(i).map(|v| v.text.as_str())?),
            "-f" | "--file" => return None,
            "-l" | "--line-length" => i += 1,
            "--" => {
                first_operand = first_operand.or(rest.get(i).map(|v| v.text.as_str()));
                break;
            }
            _ if t.starts_with("--expression=") => scripts.push(&t["--expression=".len()..]),
            _ if t.starts_with("--file=") => return None,
            _ if t.starts_with("-e") && t.len() > 2 => scripts.push(&t[2..]),
            _ if t.starts_with('-')
                && !t.starts_with("--")
                && t.contains('f')
                && !t.starts_with("-i") =>
            {
                return None;
            }
            _ if t.starts_with('-') && t.len() > 1 => {}
            _ => first_operand = first_operand.or(Some(t)),
        }
        if t == "-e" || t == "--expression" {
            i += 1;
        }
    }
    if scripts.is_empty() {
        scripts.extend(first_operand);
    }
    Some(scripts)
}

/// An awk program: the value of `-e`/`--source`, else the first operand;
/// `None` when it comes from a file (`-f`), which hookc cannot read.
fn awk_program(rest: &[Word]) -> Option<&str> {
    if option_value(rest, &["-f", "--file"]).is_some() {
        return None;
    }
    if let Some(code) = option_value(rest, &["-e", "--source"]) {
        return Some(code);
    }
    let n = parse_opts(rest, "vFf", &["assign", "field-separator", "file"], |_| {});
    rest.get(n).map(|w| w.text.as_str())
}

/// Builtins that define names for commands (`hash -p PATH NAME`, `alias`,
/// `enable -f`), run a string later (`trap`, `compgen -C`, `complete -C`,
/// `mapfile -C`, `bind -x`) or change how bash reads the commands after
/// them (`set -k` turns every `NAME=VALUE` argument into the program's
/// environment, `set -H` lets `!!` stand for an earlier command): what runs
/// under the new name, or later, is not what the line says. In a shell that
/// lives on between calls (one the agent types into), "later" is the next
/// call too.
fn renames_programs(program: &str, rest: &[Word]) -> Option<String> {
    // Options are letters, several to a word (`hash -rp`); a word whose
    // value hookc does not know may be any of them.
    let options = || {
        rest.iter()
            .take_while(|w| w.text != "--")
            .filter(|w| w.opaque || w.has_param || (w.text.starts_with('-') && w.text != "-"))
    };
    let any = |letters: &[char]| {
        options().any(|w| w.opaque || w.has_param || w.text[1..].contains(letters))
    };
    let named = |names: &[&str]| rest.iter().any(|w| names.contains(&w.text.as_str()));
    let why = match program {
        "hash" if any(&['p']) => "hash -p, which renames a program",
        // zsh's `hash NAME=PATH` does the same.
        "hash" if rest.iter().any(|w| w.text.contains('=')) => {
            "hash NAME=PATH, which renames a program"
        }
        "enable" => "enable, which loads or switches builtins",
        // zsh: `zmodload zsh/files` brings builtins such as `zf_rm`;
        // `autoload` defines functions from files on `fpath`.
        "zmodload" => "zmodload, which loads builtins",
        "autoload" => "autoload, which defines functions from files hookc does not read",
        "compgen" | "complete" if any(&['C', 'F']) => "a completion command",
        "mapfile" | "readarray" if any(&['C']) => "mapfile -C, which runs a callback",
        "bind" if any(&['x']) => "bind -x, which runs a command",
        "set" if any(&['k', 'H']) || named(&["keyword", "histexpand"]) => {
            "set -k or set -H, which change what the commands after them run"
        }
        "shopt"
            if named(&["keyword", "histexpand"]) || options().any(|w| w.opaque || w.has_param) =>
        {
            "shopt -o keyword or histexpand, which change what the commands after them run"
        }
        _ => return None,
    };
    Some(why.to_owned())
}

/// Builtins that evaluate their arguments again as arithmetic, where an
/// array subscript runs the `$(…)` in it: every numeric argument (`test 1
/// -eq X`, `kill X`, `exit X`, `let`, `(( ))`) and every variable name with
/// a subscript (`test -v`, `printf -v`, `read`, `unset`). Checked with bash
/// 5.2.
fn evaluates_arguments(program: &str) -> bool {
    matches!(
        program,
        "test"
            | "["
            | "[["
            | "let"
            | "(("
            | "printf"
            | "read"
            | "kill"
            | "wait"
            | "shift"
            | "return"
            | "exit"
            | "ulimit"
            | "getopts"
            | "unset"
    )
}

/// Why a builtin that sets variables named by its words may change what
/// runs, as an assignment of the same name would: `read NAME`, `printf -v
/// NAME`, `mapfile NAME` and `getopts OPTIONS NAME` setting a name of
/// [`programs::changes_what_runs`] or a command variable (`printf -v
/// 'BASH_CMDS[ls]' /bin/rm`, then `ls -rf .` runs rm), or a name known only
/// when the line runs; and a nameref (`declare -n r=BASH_CMDS`), through
/// which every later assignment to `r` sets another variable.
fn sets_what_runs(program: &str, rest: &[Word]) -> Option<String> {
    let names = match program {
        "read" => variable_words(rest, "dinNptu", Some('a'), true),
        "printf" => variable_words(rest, "", Some('v'), false),
        "mapfile" | "readarray" => variable_words(rest, "dnOsuCc", None, true),
        "getopts" => rest
            .get(1)
            .map(|w| (w.text.as_str(), w.opaque || w.has_param))
            .into_iter()
            .collect(),
        "declare" | "typeset" | "local"
            if rest
                .iter()
                .take_while(|w| w.text != "--")
                .any(|w| w.text.starts_with('-') && w.text[1..].contains('n')) =>
        {
            return Some(format!("`{program} -n`, a name that sets another variable"));
        }
        _ => return None,
    };
    names.into_iter().find_map(|(name, unknown)| {
        let bare = name.split('[').next().unwrap_or(name);
        if unknown {
            Some(format!(
                "`{program}` setting a variable whose name is known only when the line runs"
            ))
        } else if programs::changes_what_runs(bare) || programs::COMMAND_VARIABLES.contains(&bare) {
            Some(format!(
                "{bare} set by `{program}` (it changes which code runs)"
            ))
        } else {
            None
        }
    })
}

/// The variable names among a builtin's words, with whether each is known
/// only when the line runs: the value of the option letter `names` (`read
/// -a NAME`, `printf -v NAME`), and the operands after the options when
/// `operands` are names. `takes_value` are the other letters with a value.
fn variable_words<'a>(
    rest: &'a [Word],
    takes_value: &str,
    names: Option<char>,
    operands: bool,
) -> Vec<(&'a str, bool)> {
    let unknown = |w: &Word| w.opaque || w.has_param;
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(w) = rest.get(i) {
        i += 1;
        if w.text == "--" {
            break;
        }
        if unknown(w) {
            if operands {
                // An option or a name: any of them.
                found.push((w.text.as_str(), true));
                continue;
            }
            // Perhaps the option of `names`: the word after it may be one.
            found.extend(rest.get(i).map(|v| (v.text.as_str(), unknown(v))));
            break;
        }
        let Some(letters) = w.text.strip_prefix('-').filter(|l| !l.is_empty()) else {
            i -= 1;
            break;
        };
        for (at, c) in letters.char_indices() {
            if Some(c) != names && !takes_value.contains(c) {
                continue;
            }
            let attached = &letters[at + c.len_utf8()..];
            let value = if attached.is_empty() {
                i += 1;
                rest.get(i - 1).map(|v| (v.text.as_str(), unknown(v)))
            } else {
                Some((attached, false))
            };
            if Some(c) == names {
                found.extend(value);
            }
            break;
        }
    }
    if operands {
        found.extend(
            rest[i.min(rest.len())..]
                .iter()
                .map(|w| (w.text.as_str(), unknown(w))),
        );
    }
    found
}

/// The subscript of a name a declaring builtin is given (`a[k]`, `a[k]=v`),
/// however it was quoted.
fn declared_subscript(text: &str) -> Option<&str> {
    let open = text.find('[')?;
    let name = &text[..open];
    let named = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let close = text.find("]=").or_else(|| text.rfind(']'))?;
    (named && close > open).then(|| &text[open + 1..close])
}

/// Builtins that set variables by name, where a name may carry a subscript.
fn declares(program: &str) -> bool {
    matches!(
        program,
        "declare" | "typeset" | "local" | "export" | "readonly"
    )
}

/// A word that stands for what a program reads from standard input (`xargs`,
/// `parallel` without `:::`): any value, so guards treat it as unknown.
fn from_input() -> Word {
    Word {
        text: "(standard input)".to_owned(),
        opaque: true,
        ..Word::default()
    }
}

/// GNU parallel: `parallel [OPTIONS] [COMMAND] ::: ARGS…` runs COMMAND (with
/// `{}` replaced, or the argument appended) through a shell for each
/// argument, or each argument as a command when there is none; without
/// `:::` the arguments come from standard input.
fn parallel(out: &mut Analysis, rest: &[Word], redirects: Vec<String>, depth: usize) {
    let n = parse_opts(
        rest,
        "jSXIaEdnNPkl",
        &[
            "jobs",
            "sshlogin",
            "arg-file",
            "delimiter",
            "colsep",
            "results",
        ],
        |_| {},
    );
    let rest = &rest[n.min(rest.len())..];
    let sep = rest
        .iter()
        .position(|w| matches!(w.text.as_str(), ":::" | "::::" | ":::+" | "::::+"));
    let (template, inputs) = match sep {
        Some(at) => (&rest[..at], Some(&rest[at + 1..])),
        None => (rest, None),
    };
    let template = texts(template).join(" ");
    match inputs {
        Some(inputs) if inputs.iter().any(|w| w.opaque || w.has_param) => {
            push_opaque(out, "parallel arguments known only when it runs");
        }
        Some(inputs) => {
            let holes = template.matches("{}").count();
            for input in inputs.iter().filter(|w| !w.text.starts_with(":::")) {
                // Each script is the template with the input in it, once per
                // `{}`: read only while the line's word bound lasts, and
                // never built longer than a line may be.
                let size = template.len() + holes.max(1) * (4 * input.text.len() + 3);
                if out.words >= lex::MAX_WORDS || size > lex::MAX_LINE_BYTES {
                    push_opaque(out, lex::too_many_words());
                    break;
                }
                let line = if template.is_empty() {
                    input.text.clone()
                } else if template.contains("{}") {
                    template.replace("{}", &super::sh_word(&input.text))
                } else {
                    format!("{template} {}", super::sh_word(&input.text))
                };
                script(out, &line, depth, &redirects);
            }
        }
        None if template.is_empty() => {
            push_opaque(out, "parallel running commands read from standard input");
        }
        None => {
            let mut ws = rest.to_vec();
            ws.push(from_input());
            words(out, &ws, redirects, depth);
        }
    }
}

/// Continue with the command a wrapper runs (`rest[start..]`), or keep the
/// wrapper itself when it runs nothing.
fn wrapped(
    out: &mut Analysis,
    program: &str,
    rest: &[Word],
    start: usize,
    redirects: Vec<String>,
    depth: usize,
) {
    if start < rest.len() {
        words(out, &rest[start..], redirects, depth);
    } else {
        emit(out, program, rest, redirects);
    }
}

/// Words not starting with `-`, and all words after `--`.
fn positionals(ws: &[Word]) -> impl Iterator<Item = &str> {
    let mut after_dashdash = false;
    ws.iter().filter_map(move |w| {
        let t = w.text.as_str();
        if after_dashdash {
            Some(t)
        } else if t == "--" {
            after_dashdash = true;
            None
        } else if t.starts_with('-') && t.len() > 1 {
            None
        } else {
            Some(t)
        }
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opt<'a> {
    Short(char),
    Long(&'a str),
}

/// getopt-style option scanning for wrappers, stopping at the first operand
/// (these wrappers, like POSIX utilities, do not permute: everything after
/// the command name belongs to the command). `short_val` lists the short
/// options that take a value (attached `-uroot` or separate `-u root`),
/// `long_val` the long options that take a separate value (`--user root`;
/// `--user=root` always works). Returns the index of the first operand.
fn parse_opts<'w>(
    ws: &'w [Word],
    short_val: &str,
    long_val: &[&str],
    mut seen: impl FnMut(Opt<'w>),
) -> usize {
    let mut i = 0;
    while let Some(w) = ws.get(i) {
        let t = w.text.as_str();
        if t == "--" {
            return i + 1;
        }
        if let Some(long) = t.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, _)) => (n, true),
                None => (long, false),
            };
            seen(Opt::Long(name));
            i += if !value && long_val.contains(&name) {
                2
            } else {
                1
            };
            continue;
        }
        let Some(cluster) = t.strip_prefix('-').filter(|c| !c.is_empty()) else {
            break;
        };
        i += 1;
        for (pos, c) in cluster.char_indices() {
            seen(Opt::Short(c));
            if short_val.contains(c) {
                if pos + c.len_utf8() == cluster.len() {
                    i += 1; // value is the next word
                }
                break;
            }
        }
    }
    i.min(ws.len())
}

/// `env [OPTIONS] [NAME=VALUE]… [COMMAND [ARG]…]`, including `-S STRING`,
/// which splits STRING into words and continues option processing with
/// them (how shebang lines pass several arguments).
fn env(out: &mut Analysis, rest: &[Word], redirects: Vec<String>, depth: usize) {
    if depth > MAX_DEPTH {
        push_opaque(out, "commands nested too deeply");
        return;
    }
    let mut split: Option<String> = None;
    let mut n = 0;
    loop {
        let mut split_here = None;
        let mut k = parse_opts(
            &rest[n..],
            "uCS",
            &["unset", "chdir", "split-string"],
            |o| {
                if matches!(o, Opt::Short('S') | Opt::Long("split-string")) {
                    split_here = Some(());
                }
            },
        );
        if split_here.is_some() {
            // Re-scan to find the -S value and where it ends.
            let (value, end) = split_string_value(&rest[n..]);
            split = value;
            k = end;
            n = (n + k).min(rest.len());
            break;
        }
        n += k;
        if rest.get(n).is_some_and(|w| w.text == "-") {
            n += 1; // `env -` is `env -i`
            continue;
        }
        break;
    }
    if let Some(s) = split {
        let lexed = lex::lex_depth(&env_separators(&s), depth + 1);
        if !lexed.opaque.is_empty() || lexed.commands.len() > 1 {
            push_opaque(out, "env -S string");
            return;
        }
        let mut ws: Vec<Word> = lexed.commands.into_iter().flat_map(|c| c.words).collect();
        ws.extend(rest[n..].iter().cloned());
        env(out, &ws, redirects, depth + 1);
        return;
    }
    moved_by_options(out, "env", &rest[..n]);
    while rest
        .get(n)
        .is_some_and(|w| w.text.contains('=') && !w.text.starts_with('='))
    {
        // `env BASH_ENV=… bash`: the same variables as a prefix assignment.
        assignment_effects(out, &rest[n], depth);
        n += 1;
    }
    if n < rest.len() {
        words(out, &rest[n..], redirects, depth);
    } else {
        emit(out, "env", rest, redirects);
    }
}

/// GNU env's `-S` string with its `\_` escapes as the spaces they stand
/// for (a separator outside quotes, a space inside double quotes), ready
/// for the shell lexer, which reads the rest of env's quoting alike.
fn env_separators(s: &str) -> Cow<'_, str> {
    if !s.contains("\\_") {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut single = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                single = !single;
                out.push(c);
            }
            '\\' if !single => match chars.next() {
                Some('_') => out.push(' '),
                Some(next) => {
                    out.push(c);
                    out.push(next);
                }
                None => out.push(c),
            },
            _ => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Find the value of env's `-S`/`--split-string` and the index after it.
fn split_string_value(ws: &[Word]) -> (Option<String>, usize) {
    let mut i = 0;
    while let Some(w) = ws.get(i) {
        let t = w.text.as_str();
        i += 1;
        if let Some(v) = t.strip_prefix("--split-string=") {
            return (Some(v.to_owned()), i);
        }
        if t == "--split-string" {
            return (ws.get(i).map(|w| w.text.clone()), i + 1);
        }
        if let Some(cluster) = t.strip_prefix('-').filter(|c| !c.starts_with('-')) {
            for (pos, c) in cluster.char_indices() {
                if c == 'S' {
                    let attached = &cluster[pos + 1..];
                    if attached.is_empty() {
                        return (ws.get(i).map(|w| w.text.clone()), i + 1);
                    }
                    return (Some(attached.to_owned()), i);
                }
                if "uC".contains(c) {
                    if pos + 1 == cluster.len() {
                        i += 1;
                    }
                    break;
                }
            }
        }
    }
    (None, i)
}

/// `bash [options] -c SCRIPT [ARG0 [ARG]…]`: options are scanned first; if
/// any short cluster contained `c`, the first operand is the script.
fn shell(out: &mut Analysis, program: &str, rest: &[Word], redirects: Vec<String>, depth: usize) {
    let mut j = 0;
    let mut c_mode = false;
    while let Some(w) = rest.get(j) {
        let t = w.text.as_str();
        if t == "--" || t == "-" {
            j += 1;
            break;
        }
        if let Some(long) = t.strip_prefix("--") {
            // zsh's `--emulate sh` takes a value.
            j += if matches!(long, "rcfile" | "init-file" | "emulate") {
                2
            } else {
                1
            };
            continue;
        }
        let dash = t.starts_with('-');
        if (dash || t.starts_with('+')) && t.len() > 1 {
            for ch in t[1..].chars() {
                if ch == 'c' && dash {
                    c_mode = true;
                }
                if ch == 'o' || ch == 'O' {
                    j += 1; // `-o pipefail`
                }
            }
            j += 1;
            continue;
        }
        break;
    }
    match rest.get(j) {
        Some(s) if c_mode => script(out, &s.text, depth, &redirects),
        _ => {
            if reads_stdin(rest) {
                // A script fed as literal text is read like the line.
                match std::mem::take(&mut out.stdin) {
                    Stdin::Text(text) => script(out, &text, depth, &redirects),
                    _ => push_opaque(
                        out,
                        format!("{program} reading commands from standard input"),
                    ),
                }
            }
            emit(out, program, rest, redirects)
        }
    }
}

/// The `-c COMMAND` of `su`/`runuser`, wherever it appears (they permute
/// arguments: `su - root -c 'cmd'`).
fn su_command(rest: &[Word]) -> Option<&str> {
    let mut i = 0;
    while let Some(w) = rest.get(i) {
        let t = w.text.as_str();
        i += 1;
        if t == "--" {
            break;
        }
        for long in ["--command", "--session-command"] {
            if t == long {
                return rest.get(i).map(|w| w.text.as_str());
            }
            if let Some(v) = t.strip_prefix(long).and_then(|v| v.strip_prefix('=')) {
                return Some(v);
            }
        }
        if t.starts_with("--") {
            continue;
        }
        if let Some(cluster) = t.strip_prefix('-') {
            for (pos, c) in cluster.char_indices() {
                let attached = &cluster[pos + c.len_utf8()..];
                if c == 'c' {
                    return if attached.is_empty() {
                        rest.get(i).map(|w| w.text.as_str())
                    } else {
                        Some(attached)
                    };
                }
                if "gGsw".contains(c) {
                    if attached.is_empty() {
                        i += 1;
                    }
                    break;
                }
            }
        }
    }
    None
}

/// `find … -exec CMD … ;` (also `-execdir`, `-ok`, `-okdir`, and the `{} +`
/// form): each runs CMD, so it is analysed like a command of its own.
fn find_exec(out: &mut Analysis, rest: &[Word], depth: usize) {
    let mut k = 0;
    while k < rest.len() {
        if matches!(
            rest[k].text.as_str(),
            "-exec" | "-execdir" | "-ok" | "-okdir"
        ) {
            let start = k + 1;
            let mut end = start;
            while end < rest.len() {
                let t = rest[end].text.as_str();
                if t == ";" || (t == "+" && end > start && rest[end - 1].text == "{}") {
                    break;
                }
                end += 1;
            }
            if end > start {
                let before = out.commands.len();
                words(out, &rest[start..end], Vec::new(), depth);
                let found = super::find::found(rest);
                let args: Vec<String> = rest.iter().map(|w| w.text.clone()).collect();
                let on_disk = super::find::lists_files_for_exec(&args);
                // `-execdir` runs the command in each found file's folder,
                // which may be another repository.
                let elsewhere = rest[k].text.ends_with("dir");
                for c in &mut out.commands[before..] {
                    c.found.clone_from(&found);
                    c.found_on_disk = on_disk;
                    c.repo_elsewhere |= elsewhere && c.program == "git";
                }
            }
            k = end + 1;
        } else {
            k += 1;
        }
    }
}

/// Number of leading git global options (with their values) in `rest`, so
/// that `git -C repo -c k=v --no-pager push` is seen as `git push`.
///
/// Options that take a separate value are listed explicitly; any other
/// option before the subcommand (`--no-pager`, `-P`, `--bare`,
/// `--git-dir=x`, `--literal-pathspecs`, …) is removed alone. `--` ends
/// the global options.
fn git_globals(rest: &[Word]) -> usize {
    let mut j = 0;
    while let Some(w) = rest.get(j) {
        let t = w.text.as_str();
        if t == "--" {
            return j + 1;
        }
        if !t.starts_with('-') || t == "-" {
            break;
        }
        j += match t {
            "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace" | "--super-prefix"
            | "--config-env" | "--attr-source" | "--list-cmds" => 2,
            _ => 1,
        };
    }
    j.min(rest.len())
}

/// Options of git's subcommands whose value is a command git starts on
/// this machine, through a shell: the program for the other end of a push
/// or fetch (for a remote on this machine), an archive's, difftool's, and
/// the pager `git grep -O` opens files in. By subcommand: short options,
/// long ones (git takes them abbreviated).
const GIT_COMMAND_OPTIONS: &[(&str, &str, &[&str])] = &[
    ("push", "", &["receive-pack", "exec"]),
    ("send-pack", "", &["receive-pack", "exec"]),
    ("fetch", "", &["upload-pack"]),
    ("pull", "", &["upload-pack"]),
    ("ls-remote", "", &["upload-pack", "exec"]),
    ("clone", "u", &["upload-pack"]),
    ("fetch-pack", "", &["upload-pack", "exec"]),
    ("archive", "", &["exec"]),
    ("difftool", "x", &["extcmd"]),
    ("grep", "O", &["open-files-in-pager"]),
];

/// The commands `git SUBCOMMAND args…` starts through its options
/// ([`GIT_COMMAND_OPTIONS`]) and through `ext::` URLs among its words, as
/// shell lines.
fn git_option_commands(args: &[Word]) -> Vec<String> {
    let mut found = Vec::new();
    let sub = args.first().map_or("", |w| w.text.as_str());
    let options = GIT_COMMAND_OPTIONS.iter().find(|(name, _, _)| *name == sub);
    let (valued, _) = programs::value_options("git", &[sub.to_owned()]);
    let mut i = 1;
    let mut options_end = false;
    while let Some(w) = args.get(i) {
        let t = w.text.as_str();
        i += 1;
        if let Some(code) = super::git_settings::ext_command(t) {
            found.push(code);
            continue;
        }
        options_end |= t == "--";
        let Some((_, short, long)) = options.filter(|_| !options_end) else {
            continue;
        };
        // `--receive-pack=CMD`, `--rec CMD`: an abbreviation git accepts.
        if let Some(name) = t.strip_prefix("--").filter(|n| n.len() >= 2) {
            let (name, glued) = match name.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (name, None),
            };
            if long.iter().any(|l| l.starts_with(name)) {
                // `git grep --open-files-in-pager` alone opens the
                // default pager, which is a setting.
                match glued {
                    Some(v) => found.push(v.to_owned()),
                    None if sub != "grep" => {
                        found.extend(args.get(i).map(|v| v.text.clone()));
                        i += 1;
                    }
                    None => {}
                }
            }
        } else if let Some(flags) = t.strip_prefix('-').filter(|f| !f.is_empty()) {
            // `-u CMD`, `-quCMD`, `-x CMD`; `grep -OCMD` only glued. In
            // a cluster, the letters after another option's that takes a
            // value are that value.
            let at = flags
                .find(|c| short.contains(c) || valued.contains(c))
                .filter(|&k| short.contains(&flags[k..k + 1]));
            if let Some(at) = at {
                let value = &flags[at + 1..];
                if !value.is_empty() {
                    found.push(value.to_owned());
                } else if sub != "grep" {
                    found.extend(args.get(i).map(|v| v.text.clone()));
                    i += 1;
                }
            }
        }
    }
    found
}

/// `git [GLOBALS] SUBCOMMAND …`: globals removed; settings given with `-c`
/// that hold commands are analysed, others that may change what git runs
/// are opaque; subcommands that run commands (`rebase -x`, `bisect run`,
/// `submodule foreach`) are looked through; `git config` writing such a
/// setting is opaque for the rest of the line.
fn git(out: &mut Analysis, rest: &[Word], redirects: Vec<String>, depth: usize) {
    let n = git_globals(rest);
    let mut forces = false;
    for (key, value) in git_settings(&rest[..n]) {
        forces |= git_setting(out, &key, value.as_deref(), depth);
    }
    // `--exec-path=DIR` is `GIT_EXEC_PATH`: the programs git starts for
    // its commands and helpers (`git-receive-pack` for a local push) come
    // from that folder.
    if rest[..n].iter().any(|w| w.text.starts_with("--exec-path=")) {
        push_opaque(
            out,
            "git's own programs taken from another folder (--exec-path=…)",
        );
    }
    let args = &rest[n..];
    let sub = args.first().map(|w| w.text.as_str());
    // `--template=DIR` (clone, init; `--templ` abbreviated): the hooks in
    // that folder are copied into the new repository, and a clone runs its
    // `post-checkout` at once.
    if matches!(sub, Some("clone" | "init"))
        && args[1..].iter().take_while(|w| w.text != "--").any(|w| {
            let name = w.text.split('=').next().unwrap_or_default();
            name.len() >= "--te".len() && "--template".starts_with(name)
        })
    {
        push_opaque(
            out,
            "a new repository's hooks taken from a template folder (--template), which git runs",
        );
    }
    // Options whose value is a command git starts here, and URLs of the
    // `ext::` transport, which name one.
    for code in git_option_commands(args) {
        script(out, &code, depth, &[]);
    }
    // `--mirror` forces every branch of the remote.
    forces |= matches!(sub, Some("push" | "send-pack"))
        && args[1..]
            .iter()
            .take_while(|w| w.text != "--")
            .any(|w| w.text.len() >= 4 && "--mirror".starts_with(w.text.as_str()));
    match sub {
        Some("rebase") => {
            if let Some(cmd) = option_value(&args[1..], &["-x", "--exec"]) {
                script(out, cmd, depth, &[]);
            }
        }
        Some("bisect") if args.get(1).is_some_and(|w| w.text == "run") && args.len() > 2 => {
            words(out, &args[2..], Vec::new(), depth);
        }
        Some("submodule") if args.iter().any(|w| w.text == "foreach") => {
            let at = args.iter().position(|w| w.text == "foreach").unwrap_or(0) + 1;
            let body: Vec<&Word> = args[at..]
                .iter()
                .skip_while(|w| w.text.starts_with("--"))
                .collect();
            let joined: Vec<String> = body.iter().map(|w| w.text.clone()).collect();
            let before = out.commands.len();
            script(out, &joined.join(" "), depth, &[]);
            // The body runs in each submodule: repositories of their own.
            for c in &mut out.commands[before..] {
                c.repo_elsewhere |= c.program == "git";
            }
        }
        Some("config") => {
            let positionals: Vec<&str> = args[1..]
                .iter()
                .map(|w| w.text.as_str())
                .filter(|t| !t.starts_with('-'))
                .collect();
            if let [key, _, ..] = positionals[..]
                && key.to_ascii_lowercase().starts_with("alias.")
                && out.lone
                && depth <= 1
            {
                // An alias written for later calls, the line's only
                // command: `hookc guard` reads it from git's configuration
                // when a later call runs it (see `git`).
            } else if let [key, value, ..] = positionals[..]
                && git_setting(out, key, Some(value), depth)
            {
                push_opaque(
                    out,
                    format!("a git setting written that forces later pushes ({key})"),
                );
            }
        }
        _ => {}
    }
    // `git send-pack`, the plumbing under `git push`, is read as the push
    // it is.
    let mut args = args.to_vec();
    if sub == Some("send-pack") {
        args[0].text = "push".to_owned();
        args[0].plain_prefix = "push".len();
    }
    let sub = args.first().map(|w| w.text.as_str());
    if forces && sub == Some("push") {
        // `git -c remote.origin.mirror=true push` is a forced push.
        let mut forced = args.clone();
        forced.push(Word {
            text: "--force".to_owned(),
            plain_prefix: "--force".len(),
            ..Word::default()
        });
        emit(out, "git", &forced, redirects);
    } else {
        emit(out, "git", &args, redirects);
    }
    let (elsewhere, folder) = git_place(&rest[..n]);
    if let Some(last) = out.commands.last_mut() {
        last.repo_elsewhere = elsewhere;
        last.repo_folder = folder;
    }
}

/// Where git's global options send it: whether it works in another
/// repository, and the folder its `-C`s name from where it starts, when
/// each is a literal word (`-C a -C b` is `a/b`; `-C .` and `-C ''` stay).
/// `--git-dir` and `--work-tree` name no folder hookc follows.
fn git_place(globals: &[Word]) -> (bool, Option<String>) {
    let mut folder = Some(std::path::PathBuf::new());
    let mut elsewhere = false;
    for (k, w) in globals.iter().enumerate() {
        let t = w.text.as_str();
        if t.starts_with("--git-dir") || t.starts_with("--work-tree") {
            elsewhere = true;
            folder = None;
        } else if t == "-C" {
            match globals.get(k + 1) {
                Some(d) if !d.opaque && !d.has_param && !d.text.contains(['*', '?', '[']) => {
                    if !matches!(d.text.as_str(), "" | "." | "./") {
                        elsewhere = true;
                        folder = folder.map(|f| f.join(&d.text));
                    }
                }
                _ => {
                    elsewhere = true;
                    folder = None;
                }
            }
        }
    }
    let folder = folder
        .filter(|_| elsewhere)
        .and_then(|f| f.to_str().map(str::to_owned));
    (elsewhere, folder)
}

/// The `KEY[=VALUE]` settings of git's `-c`/`--config-env` globals.
fn git_settings(globals: &[Word]) -> Vec<(String, Option<String>)> {
    let mut settings = Vec::new();
    for (k, w) in globals.iter().enumerate() {
        let t = w.text.as_str();
        let kv = if t == "-c" || t == "--config-env" {
            globals.get(k + 1).map(|v| v.text.as_str())
        } else {
            t.strip_prefix("--config-env=")
                .or_else(|| t.strip_prefix("-c").filter(|v| !v.is_empty()))
        };
        if let Some(kv) = kv {
            let (key, value) = match kv.split_once('=') {
                Some((k, v)) => (k, Some(v.to_owned())),
                None => (kv, None),
            };
            // `--config-env=KEY=VAR` takes the value from a variable.
            let value = if t.starts_with("--config-env") {
                None
            } else {
                value
            };
            settings.push((key.to_owned(), value));
        }
    }
    settings
}

/// One git setting given on the command line or written by `git config`,
/// read as [`super::git_settings`] classifies it: true when it forces
/// pushes.
fn git_setting(out: &mut Analysis, key: &str, value: Option<&str>, depth: usize) -> bool {
    use super::git_settings::{self as settings, Kind};
    let lower = key.to_ascii_lowercase();
    // What git decides inside itself from a setting: opaque, and so for
    // the run-time judge too (see `Analysis::within`).
    let within = |out: &mut Analysis, reason: String| {
        out.within.push(("git".to_owned(), reason.clone()));
        push_opaque(out, reason);
    };
    if lower.starts_with("alias.") {
        // `git -c alias.p='push -f' p`: the subcommand is not what it seems.
        within(
            out,
            "a git alias defined on the command line (alias.*)".to_owned(),
        );
        if let Some(code) = value.and_then(|v| v.strip_prefix('!')) {
            script(out, code, depth + 1, &[]);
        }
        return false;
    }
    match settings::kind(&lower, value) {
        Kind::Harmless => {}
        Kind::Command => match value {
            Some(code) => script(out, &settings::command_line(key, code), depth + 1, &[]),
            None => push_opaque(out, format!("git's {key} from a variable")),
        },
        Kind::Force => return true,
        Kind::Opaque => within(
            out,
            format!("a git setting that can change what git runs or pushes ({key})"),
        ),
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cmds(line: &str) -> Vec<(String, Vec<String>)> {
        analyze(line)
            .commands
            .into_iter()
            .map(|c| (c.program, c.args))
            .collect()
    }

    fn single(line: &str) -> (String, Vec<String>) {
        let a = analyze(line);
        assert!(a.opaque.is_empty(), "{line:?}: {:?}", a.opaque);
        assert_eq!(a.commands.len(), 1, "{line:?}: {:?}", a.commands);
        let c = a.commands.into_iter().next().unwrap_or_default();
        (c.program, c.args)
    }

    fn sc(p: &str, args: &[&str]) -> (String, Vec<String>) {
        (p.to_owned(), args.iter().map(|s| (*s).to_owned()).collect())
    }

    /// The line runs `program` with `arg` among its arguments, and hookc
    /// sees that command.
    fn finds(line: &str, program: &str, arg: &str) {
        let a = analyze(line);
        assert!(
            a.commands
                .iter()
                .any(|c| c.program == program && c.args.iter().any(|x| x == arg)),
            "{line:?}: {program} {arg} not found in {:?}",
            a.commands
        );
    }

    /// What an alias stands for runs where its name is typed, in this line
    /// or, in a shell a harness keeps, a later call.
    #[test]
    fn an_alias_is_read_as_the_commands_it_stands_for() {
        finds("alias gp='git push --force'", "git", "--force");
        finds("alias gs='git status' gp='rm -rf /'", "rm", "-rf");
        assert!(!analyze("alias ll='ls -la'").is_opaque());
        // The words typed after the name follow the value (`ls --force`
        // after `alias ls='git push'` runs `git push --force`): words
        // whose value is known only when they are typed.
        const AFTER: &str = "${words_after_the_alias[@]}";
        assert_eq!(
            cmds("alias ll='ls -la'"),
            [sc("ls", &["-la", AFTER]), sc("alias", &["ll=ls -la"])]
        );
        assert_eq!(
            cmds("alias ls='git push'"),
            [sc("git", &["push", AFTER]), sc("alias", &["ls=git push"])]
        );
    }

    fn opaque(line: &str) {
        assert!(
            analyze(line).is_opaque(),
            "{line:?} should be opaque: {:?}",
            analyze(line)
        );
    }

    /// Arithmetic reads names again as arithmetic (`x='a[$(…)]'` runs
    /// code); a name is safe only when the line's opening assignments gave
    /// it a number and nothing mentioned it since.
    #[test]
    fn arithmetic_reads_names_the_line_made_numbers() {
        for line in [
            "x=1; y=$((x + 1)); echo $y",
            "i=0; j=$((i*2+0x1f)); echo $((i+j)) $[i]",
            "n=3 && echo $((n - 1))",
        ] {
            let a = analyze(line);
            assert!(!a.is_opaque(), "{line:?} should be read: {a:?}");
        }
        for line in [
            "echo $((x))",
            "x=1; read x; echo $((x))",
            "x=1; declare -n r=x; echo $((x))",
            "x=1; : ${x:=a}; echo $((x))",
            "x=1; for x in a; do :; done; echo $((x + 1))",
            "true && x=1; echo $((x))",
            "x=1 | true; echo $((x))",
            "x=1 & echo $((x))",
            "(x=1); echo $((x))",
            "x=1 echo $((x))",
            "x=a; echo $((x))",
            "x=1; echo $(( x + y ))",
            "x=1; echo $((a[$(rm -rf build)]))",
        ] {
            opaque(line);
        }
    }

    /// An interpreter fed literal code on standard input is read like the
    /// same code given with `-c`.
    #[test]
    fn interpreters_reading_literal_code_on_standard_input() {
        for line in [
            "echo 'print(1)' | python3",
            "echo 'console.log(1)' | node",
            "python3 - <<'EOF'\nprint(\"from a heredoc\")\nEOF",
            "python3 <<< 'print(2)'",
            "echo 'print(1)' | python3 -",
        ] {
            let a = analyze(line);
            assert!(!a.is_opaque(), "{line:?} should be read: {a:?}");
        }
        for line in [
            "echo 'import os; os.system(\"rm -rf build\")' | python3",
            "python3 - <<EOF\nprint($X)\nEOF",
            "cat notes.txt | python3",
            "echo 'print(1)' | perl -Mstrict",
        ] {
            opaque(line);
        }
    }

    /// `source FILE` is read from where the line runs, as the shell will.
    #[test]
    fn a_sourced_file_is_read_where_the_line_runs() {
        let dir = std::env::temp_dir().join(format!("hookc-sourced-{}", std::process::id()));
        std::fs::create_dir_all(dir.join(".venv/bin")).unwrap();
        let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
        write(
            ".venv/bin/activate",
            "deactivate () {\n    unset -f deactivate\n    hash -r 2> /dev/null\n}\n\
             VIRTUAL_ENV=/work/.venv\nexport VIRTUAL_ENV\n_OLD_PATH=\"$PATH\"\n\
             PATH=\"$VIRTUAL_ENV/bin:$PATH\"\nexport PATH\nPS1=\"(venv) ${PS1:-}\"\nhash -r\n",
        );
        write("push.sh", "git push --force origin main\n");
        write(
            "aliases.sh",
            "shopt -s expand_aliases\nalias g='git push -f'\n",
        );
        let at = |line: &str| analyze_in(line, Some(&dir), false, None);
        let a = at("source .venv/bin/activate && pip install -r requirements.txt");
        assert!(!a.is_opaque(), "{a:?}");
        assert_eq!(a.sourced, [".venv/bin/activate"]);
        let a = at(". ./push.sh; ls");
        assert!(
            a.commands
                .iter()
                .any(|c| c.program == "git" && c.args.contains(&"--force".to_owned())),
            "{a:?}"
        );
        assert!(!at("source ./missing.sh && ls").is_opaque());
        for line in [
            "source ./aliases.sh; g",
            "source /dev/stdin; ls",
            "cd sub && source ./push.sh; ls",
            "source activate; ls",
            "source \"$F\"; ls",
            "source <(echo 'git push --force')",
            ". /dev/stdin <<< 'git push --force'",
            "echo 'git push --force' | source /dev/stdin",
            "source \"$F\"",
        ] {
            assert!(at(line).is_opaque(), "{line:?} should be opaque");
        }
        // A file that sources itself is read a bounded number of times.
        write("again.sh", ". ./again.sh; . ./again.sh\n");
        assert!(at(". ./again.sh").is_opaque());
        // Without a place (an analysis of text alone) nothing is read.
        assert!(analyze("source ./push.sh; ls").is_opaque());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn sees_what_the_shell_really_runs() {
        // Programs that run other programs.
        for line in [
            "flock .lock rm -rf build",
            "flock -w 5 .lock rm -rf build",
            "flock .lock -c 'rm -rf build'",
            "chroot / rm -rf build",
            "unshare -r rm -rf build",
            "setsid rm -rf build",
            "nsenter -t 1 rm -rf build",
            "taskset 0x1 rm -rf build",
            "strace -o /dev/null rm -rf build",
            "systemd-run --user rm -rf build",
            "faketime '2020-01-01' rm -rf build",
            "script -qc 'rm -rf build' /dev/null",
            "script -q -c 'rm -rf build' /dev/null",
            "sg wheel 'rm -rf build'",
            "ssh host rm -rf build",
            "ssh -p 22 host 'rm -rf build'",
            "noglob rm -rf build",
            "nocorrect rm -rf build",
            "repeat 1 rm -rf build",
            "=rm -rf build",
            "entr -s 'rm -rf build'",
            "flock .lock git -C . -c core.quotepath=off push origin +main && rm -rf build",
            "emulate sh -c 'rm -rf build'",
            "tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec='rm -rf build' x",
            "parallel ::: 'rm -rf build'",
            "parallel rm -rf ::: build",
            "parallel 'rm -rf {}' ::: build",
            "git rebase -x 'rm -rf build' main",
            "git rebase --exec='rm -rf build' main",
            "git bisect run rm -rf build",
            "git submodule foreach 'rm -rf build'",
            "git submodule foreach --recursive rm -rf build",
            "git -c core.pager='rm -rf build' log",
            "GIT_PAGER='rm -rf build' git log",
            "GIT_SSH_COMMAND='rm -rf build' git fetch",
            "env GIT_SSH_COMMAND='rm -rf build' git fetch",
            "{fd}>/dev/null rm -rf build",
            "a[0]=x rm -rf build",
        ] {
            finds(line, "rm", "build");
        }
        finds("/usr/lib/git-core/git-push --force", "git", "--force");
        finds("git {fd}>/dev/null push -f", "git", "-f");
        finds("trap 'cat .env' EXIT", "cat", ".env");
        // A script given to a shell as literal text is read like the line.
        finds("echo 'git push --force' | sh", "git", "--force");
        finds("echo 'git push --force' | bash -s", "git", "--force");
        finds("bash <<< 'rm -rf build'", "rm", "build");
        finds("printf '%s\\n' 'rm -rf build' | sh", "rm", "build");
        finds("sh <<'EOF'\nrm -rf build\nEOF", "rm", "build");
        finds("cat <<'EOF' | sh\nrm -rf build\nEOF", "rm", "build");
        finds("echo 'rm -rf build' | ssh host", "rm", "build");
        // What hookc cannot read is opaque.
        for line in [
            "python3 -c 'import os; os.system(\"rm -rf build\")'",
            "perl -e 'system q(rm -rf build)'",
            "perl -ne 'print' x",
            "node -e 'require(\"child_process\").execSync(\"rm -rf build\")'",
            "ruby -e 'system %q(rm -rf build)'",
            "awk 'BEGIN{system(\"rm -rf build\")}'",
            "awk 'BEGIN{print | \"sh\"}'",
            "sed -n '1e rm -rf build' x",
            "sed 's/.*/rm -rf build/e' x",
            "sed -f script.sed x",
            "base64 -d x | sh",
            "git log | sh",
            "cat x | bash",
            "echo \"$X\" | sh",
            "echo -e 'rm\\x20-rf build' | sh",
            "sh <<EOF\nrm -rf $DIR\nEOF",
            "echo 'import os' | python3",
            "python3 - < script.py",
            "hash -p /bin/rm r; r -rf build",
            "hash -rp /bin/rm r; r -rf build",
            "hash \"$o\" /bin/rm r; r -rf build",
            "alias r=rm; r -rf build",
            // bash's keyword option turns `NAME=VALUE` arguments into the
            // program's environment, here a git alias that runs rm.
            "set -k; git st GIT_CONFIG_PARAMETERS=\"'alias.st=!rm -rf build'\"",
            "set -ek; git st GIT_CONFIG_PARAMETERS=\"'alias.st=!rm -rf build'\"",
            "set -o keyword; git st GIT_CONFIG_PARAMETERS=\"'alias.st=!rm -rf build'\"",
            "shopt -so keyword; git st GIT_CONFIG_PARAMETERS=\"'alias.st=!rm -rf build'\"",
            // History expansion: a later `!!:1*` runs what an earlier line
            // only printed.
            "set -H -o history",
            "set -o histexpand",
            // bash's table of the file each name runs, set by assignment,
            // by builtins that set a variable by name, or through a nameref.
            "BASH_CMDS[ls]=/bin/rm; ls -rf build",
            "BASH_ALIASES[ls]='rm -rf'",
            "printf -v 'BASH_CMDS[ls]' /bin/rm; ls -rf build",
            "printf -v'BASH_CMDS[ls]' /bin/rm; ls -rf build",
            "read 'BASH_CMDS[ls]' <<< /bin/rm; ls -rf build",
            "read -ra BASH_CMDS <<< /bin/rm",
            "mapfile -t BASH_ALIASES < x",
            "getopts ab BASH_ENV",
            "read \"$v\" <<< /bin/rm",
            "declare -n r=BASH_CMDS; r[ls]=/bin/rm; ls -rf build",
            // Where git finds the user's settings (an alias there).
            "HOME=/tmp/x git st",
            "export HOME=/tmp/x; git st",
            "XDG_CONFIG_HOME=/tmp/x git st",
            "local -rn r=x",
            // zsh's tables, its `hash NAME=PATH`, its modules of builtins.
            "functions[ls]='rm -rf build'; ls",
            "commands[ls]=/bin/rm; ls -rf build",
            "hash ls=/bin/rm; ls -rf build",
            "zmodload zsh/files; zf_rm -rf build",
            "fpath=(. $fpath); autoload -U f; f",
            // IFS lasts past `read` when set alone, or before another program.
            "IFS=. ; read x <<< a.b",
            "IFS=. export x",
            "compgen -C 'cat .env' x",
            "mapfile -C 'cat .env' -c 1 a < x",
            "test -v 'a[$(rm -rf build)]'",
            "let 'x=a[$(rm -rf build)]'",
            // Shell options that widen what a glob matches.
            "shopt -s dotglob; cat *env",
            "GLOBIGNORE=x; cat *env",
            "shopt -s nocaseglob; cat .EN[V]",
            "setopt GLOB_DOTS; cat *env",
            "unsetopt caseglob; cat .EN?",
            "declare 'a[$(rm -rf build)]=1'",
            "declare -a 'a[$(rm -rf build)]'",
            "a=(x); unset 'a[$(rm -rf build)]'",
            "BASH_ENV='$(git push --force origin main)' bash -c true",
            "ENV=/tmp/x sh -c true",
            "env BASH_ENV=/tmp/x bash -c true",
            "PS4='$(rm -rf build)' bash -xc true",
            "/usr/bin/gi[t] push --force",
            "x='$(rm -rf build)'; echo ${(e)x}",
            "r=rm; $=r -rf build",
            "ls *(e:'rm -rf build':)",
            "gi? push --force",
            "git -c help.autocorrect=immediate psuh --force origin main",
            "git -c remote.origin.push=refs/heads/main:refs/heads/prod push origin",
            "git -c remote.origin.mirror=maybe push origin",
            "git config alias.pf 'push --force' && git pf",
            "git config remote.origin.mirror true && git push",
            "bash -c \"git config alias.pf 'push -f'; git pf\"",
            "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.pf GIT_CONFIG_VALUE_0='push -f' git pf",
            "LD_PRELOAD=./x.so git status",
            "git --exec-path=./x push ../origin.git main",
        ] {
            opaque(line);
        }
        // Settings that force a push make it `push --force`; harmless ones
        // and commands git runs are read.
        for line in [
            "git -c remote.origin.push=+refs/heads/main:refs/heads/main push origin",
            "git -c remote.origin.mirror=true push origin",
            "git -c remote.origin.mirror push origin",
        ] {
            let a = analyze(line);
            assert!(!a.is_opaque(), "{line:?}: {:?}", a.opaque);
            finds(line, "git", "--force");
        }
        for line in [
            "git -c push.default=current push",
            "git -c push.followTags=true push origin main",
            "git -c core.preloadIndex=false status",
            "git -c core.sshCommand='ssh -i ~/.ssh/deploy_key' push origin main",
            "git config alias.undo 'reset --soft HEAD~1'",
            "git config --global alias.st status",
        ] {
            let a = analyze(line);
            assert!(!a.is_opaque(), "{line:?}: {:?}", a.opaque);
        }
        finds(
            "git -c core.sshCommand='ssh -i k' push origin main",
            "git",
            "receive-pack",
        );
        // Options that do not change what later commands run stay readable,
        // as do variables set by name that change nothing else.
        for line in [
            "while IFS= read -r line; do echo \"$line\"; done < notes.txt",
            "IFS=, read -r a b <<< x,y",
            "read -p 'Continue? ' answer",
            "printf -v out '%s' hi; echo \"$out\"",
            "printf \"$fmt\" a b",
            "mapfile -t lines < notes.txt",
            "set -euo pipefail",
            "set +k",
            "set -- a -k",
            "shopt -s nullglob globstar",
            "hash -r",
            "hash git",
        ] {
            assert!(!analyze(line).is_opaque(), "{line:?}");
        }
        // PATH picks which file a name runs, not the name a guard matches.
        for line in ["PATH=.:$PATH git push", "PS1='(venv) ' ls"] {
            assert!(!analyze(line).is_opaque(), "{line:?}");
        }
        // ... and what it can is not.
        for line in [
            "awk '{print $1}' file",
            "sed -i 's/foo/bar/' src/main.rs",
            "sed -n -e '/^##/p' -e 's/e/E/g' README.md",
            "python3 script.py",
            "python3 -m pytest -q",
            "python3 --version",
            "node build.js",
            "perl script.pl",
            "bash ./run.sh",
            "git -c user.name=x commit -m y",
            "GIT_PAGER=cat git log",
            "source .venv/bin/activate",
            "alias ll='ls -la'",
            "trap 'echo done' EXIT",
            "[ -f .env ] || echo missing",
            "test -f x",
            "let x=1+2",
            "a[0]=x",
        ] {
            let a = analyze(line);
            assert!(!a.is_opaque(), "{line:?}: {:?}", a.opaque);
        }
    }

    #[test]
    fn xargs_adds_an_argument_from_its_input() {
        let a = analyze("xargs -n 1 -I {} git push --force");
        let c = &a.commands[0];
        assert_eq!(
            (c.program.as_str(), &c.args[..2]),
            ("git", &["push".to_owned(), "--force".to_owned()][..])
        );
        assert_eq!(c.unknown, [2], "{c:?}");
    }

    #[test]
    fn unwraps_wrappers() {
        let want = sc("git", &["push", "--force"]);
        for line in [
            "git push --force",
            "/usr/bin/git push --force",
            "/c/Program\\ Files/Git/bin/git.EXE push --force",
            "sudo git push --force",
            "sudo -u bob -E -- git push --force",
            "sudo -uroot -iE git push --force",
            "sudo --user=root --preserve-env=PATH git push --force",
            "doas -u root git push --force",
            "env X=1 git push --force",
            "env -i -u HOME -C /tmp X=1 Y=2 git push --force",
            "env - X=1 git push --force",
            "env -S 'git push' --force",
            "env -S'X=1 git push --force'",
            "env --split-string='git push --force'",
            "X=1 Y=2 git push --force",
            "command git push --force",
            "command -p git push --force",
            "builtin git push --force",
            "exec -a name -c git push --force",
            "nohup git push --force",
            "nice -n 10 git push --force",
            "nice -10 git push --force",
            "time -p git push --force",
            "timeout -s KILL 10s git push --force",
            "timeout --kill-after 5 10 git push --force",
            "stdbuf -o0 -e L git push --force",
            "ionice -c 3 git push --force",
            "chronic git push --force",
            "watch -x git push --force",
            "watch -n 5 git push --force",
            "watch 'git push --force'",
            "bash -c 'git push --force'",
            "sh -c \"git push --force\"",
            "bash -lc 'git push --force'",
            "bash -ec 'git push --force'",
            "bash --login -c 'git push --force'",
            "bash -o pipefail -c 'git push --force'",
            "zsh -c 'git push --force' zsh extra",
            "su -c 'git push --force' bob",
            "su - bob -c 'git push --force'",
            "sudo env nice -n 5 timeout 60 bash -c 'git push --force'",
            "git -C repo push --force",
            "git -c user.name=x -c core.pager=cat push --force",
            "git --git-dir=.git --work-tree=. push --force",
            "git --git-dir .git --work-tree . push --force",
            "git --no-pager -P --bare --literal-pathspecs --no-replace-objects push --force",
            "git --namespace foo --exec-path=/x -p --paginate push --force",
            "! git push --force",
            "{ git push --force; }",
            "if true; then git push --force; fi",
            "while true; do git push --force; done",
        ] {
            let got = cmds(line);
            assert!(got.contains(&want), "{line:?} gave {got:?}");
        }
    }

    #[test]
    fn keeps_plain_commands() {
        assert_eq!(
            single("echo \"git push --force\""),
            sc("echo", &["git push --force"])
        );
        assert_eq!(
            single("grep -- --force file"),
            sc("grep", &["--", "--force", "file"])
        );
        assert_eq!(single("command -v git"), sc("command", &["-v", "git"]));
        assert_eq!(single("sudo -l"), sc("sudo", &["-l"]));
        assert_eq!(single("env"), sc("env", &[]));
        assert_eq!(single("bash script.sh"), sc("bash", &["script.sh"]));
        assert_eq!(single("xargs"), sc("echo", &[]));
        assert_eq!(
            single("sudo -e /etc/hosts"),
            sc("sudoedit", &["/etc/hosts"])
        );
        assert_eq!(single("git --version"), sc("git", &[]));
        assert!(analyze("X=1").commands.is_empty());
    }

    #[test]
    fn sequences_and_find() {
        assert_eq!(
            cmds("cd x && git push --force; echo done"),
            [
                sc("cd", &["x"]),
                sc("git", &["push", "--force"]),
                sc("echo", &["done"])
            ]
        );
        assert_eq!(
            cmds("find . -name '*.o' -exec rm -f {} \\; -execdir git reset --hard {} + -delete"),
            [
                sc(
                    "find",
                    &[
                        ".", "-name", "*.o", "-exec", "rm", "-f", "{}", ";", "-execdir", "git",
                        "reset", "--hard", "{}", "+", "-delete"
                    ]
                ),
                sc("rm", &["-f", "{}"]),
                sc("git", &["reset", "--hard", "{}"]),
            ]
        );
    }

    #[test]
    fn redirects_and_tee() {
        let a = analyze(
            "bash -c 'echo hi > a' >> b; echo x | sudo tee -a /etc/x y; dd if=z of=/dev/sda; > trunc",
        );
        let r: Vec<(String, Vec<String>)> = a
            .commands
            .into_iter()
            .map(|c| (c.program, c.redirects))
            .collect();
        assert_eq!(
            r,
            [
                ("echo".into(), vec!["b".into(), "a".into()]),
                ("echo".into(), vec![]),
                ("tee".into(), vec!["/etc/x".into(), "y".into()]),
                ("dd".into(), vec!["/dev/sda".into()]),
                ("".into(), vec!["trunc".into()]),
            ]
        );
    }

    #[test]
    fn opaque_but_partial() {
        let a = analyze("git push --force; eval \"$x\"");
        assert!(a.is_opaque());
        assert!(
            a.commands
                .iter()
                .any(|c| c.program == "git" && c.args == ["push", "--force"])
        );
        for line in [
            "$GIT push --force",
            "sudo $CMD",
            "eval \"$X\"",
            "source .env && git push",
            ". ./env.sh; ls",
            "case x in a) ls",
            "function $f { ls; }",
            "env -S 'a $(b)'",
            "bash -c 'eval $(id)'",
            "git -c alias.p='push -f' p",
            "git -c Alias.p=x --config-env=alias.q=V p",
            "git --config-env alias.q=V q",
        ] {
            assert!(analyze(line).is_opaque(), "{line:?} should be opaque");
        }
        // What eval, case and functions run is read, not opaque.
        for line in [
            "eval 'git push --force'",
            "case x in a) git push --force;; esac",
            "function f { git push --force; }; f",
            "f() { git push --force; }",
        ] {
            let e = analyze(line);
            assert!(!e.is_opaque(), "{line:?}: {:?}", e.opaque);
            assert!(
                e.commands
                    .iter()
                    .any(|c| c.program == "git" && c.args == ["push", "--force"]),
                "{line:?}"
            );
        }
        let s = analyze("source .env");
        assert_eq!(s.commands[0].program, "source");
    }

    #[test]
    fn depth_cap() {
        // `watch` re-parses its joined arguments as a script, so nesting
        // costs no quoting here.
        let line = "watch ".repeat(40) + "git push --force";
        let a = analyze(&line);
        assert!(
            a.opaque
                .iter()
                .any(|o| o.reason.contains("nested too deeply"))
        );
        let many = "sudo ".repeat(10_000) + "ls";
        let a = analyze(&many);
        assert!(a.is_opaque());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// Wrapper and option vocabulary in random order: every branch of
        /// the normaliser sees truncated and odd argument lists.
        #[test]
        fn never_panics_on_wrapper_soup(
            ws in proptest::collection::vec(
                prop_oneof![
                    4 => proptest::sample::select(VOCAB).prop_map(str::to_owned),
                    1 => "[a-z=\\\\-]{0,3}",
                ],
                0..12,
            )
        ) {
            let line = ws.join(" ");
            let a = analyze(&line);
            prop_assert!(a.opaque.len() <= lex::MAX_OPAQUE);
        }

        #[test]
        fn never_panics_on_anything(s in any::<String>()) {
            let _ = analyze(&s);
        }
    }

    const VOCAB: &[&str] = &[
        "sudo",
        "doas",
        "env",
        "command",
        "builtin",
        "exec",
        "nohup",
        "nice",
        "time",
        "timeout",
        "stdbuf",
        "ionice",
        "chronic",
        "xargs",
        "watch",
        "bash",
        "sh",
        "su",
        "eval",
        "source",
        ".",
        "find",
        "git",
        "tee",
        "dd",
        "busybox",
        "-S",
        "-Sx",
        "--split-string",
        "--split-string=ls",
        "-u",
        "-C",
        "-c",
        "-lc",
        "-o",
        "-x",
        "-v",
        "-n",
        "-p",
        "-e",
        "-a",
        "-exec",
        "-execdir",
        ";",
        "\\;",
        "+",
        "{}",
        "--",
        "-",
        "X=1",
        "of=f",
        "'",
        "\"",
        "$(",
        ")",
        "(",
        "|",
        "&&",
        "{",
        "}",
        "if",
        "then",
        "fi",
        "!",
        "case",
        "for",
        "'a b'",
        "\"git push -f\"",
        "--command",
        "--command=ls",
        "-c'ls'",
        ">",
        "2>&1",
        "<<",
        "\n",
        "$X",
        "${X}",
        "`",
        "alias.x=y",
        "--config-env",
        "--git-dir",
    ];

    #[test]
    fn assignments_and_keywords_need_plain_spelling() {
        assert_eq!(single("'X=1' git"), sc("X=1", &["git"]));
        assert_eq!(single("'if' x"), sc("if", &["x"]));
        assert_eq!(single("A+=1 B_2=x ls"), sc("ls", &[]));
        assert_eq!(single("1X=2 ls"), sc("1X=2", &["ls"]));
    }

    /// The word bound is the line's: the scripts it runs (`bash -c`, `eval`)
    /// and the files it sources draw on the same count.
    #[test]
    fn scripts_in_the_line_share_its_word_bound() {
        use crate::shell::sh_word;
        let half = "true; ".repeat(lex::MAX_WORDS / 2);
        let line = format!(
            "bash -c {} && eval {} && rm -rf /",
            sh_word(&half),
            sh_word(&half)
        );
        let a = analyze(&line);
        assert_eq!(a.opaque[0].reason, lex::too_many_words());
        assert!(a.commands.len() < lex::MAX_WORDS);
        // Under it, what follows is read.
        let quarter = "true; ".repeat(lex::MAX_WORDS / 4);
        finds(
            &format!(
                "bash -c {} && eval {} && rm -rf /",
                sh_word(&quarter),
                sh_word(&quarter)
            ),
            "rm",
            "-rf",
        );
        assert!(!analyze(&format!("bash -c {}", sh_word(&quarter))).is_opaque());
    }

    /// A line too long to read in time is opaque, unread; a long
    /// here-document is not too long.
    #[test]
    fn a_line_over_the_length_bound_is_opaque() {
        opaque(&format!(
            "echo {}; rm -rf /",
            "a".repeat(lex::MAX_LINE_BYTES)
        ));
        let body = "text of a file, $HOME and `ticks` kept\n".repeat(lex::MAX_LINE_BYTES / 2 / 40);
        let line = format!("cat > notes.md <<'EOF'\n{body}EOF");
        let a = analyze(&line);
        assert!(!a.is_opaque(), "{:?}", a.opaque);
        assert_eq!(a.commands[0].redirects, ["notes.md"]);
    }

    /// Redirections around a script apply to each of its commands, up to a
    /// bound on the copies; past it the line is opaque.
    #[test]
    fn redirections_around_many_commands_are_bounded() {
        use crate::shell::sh_word;
        let script = sh_word(&"true; ".repeat(1000));
        let line = format!("bash -c {script} > log 2> err");
        let a = analyze(&line);
        assert!(!a.is_opaque(), "{:?}", a.opaque);
        assert!(a.commands.iter().all(|c| c.redirects == ["log", "err"]));
        let many = format!(
            "bash -c {script} {}",
            "> log ".repeat(MAX_ATTACHED / 1000 + 1)
        );
        let a = analyze(&many);
        assert!(
            a.opaque[0]
                .reason
                .starts_with("redirections around more commands")
        );
        opaque(&format!(
            "bash -c {script} {}",
            "< in ".repeat(MAX_ATTACHED / 1000 + 1)
        ));
    }

    /// `parallel` builds a script per argument: not past the line's bounds.
    #[test]
    fn parallel_scripts_are_bounded() {
        finds("parallel rm -rf {} ::: a b /", "rm", "/");
        let holes = "{} ".repeat(1000);
        let long = "x".repeat(10_000);
        opaque(&format!("parallel echo {holes} ::: {long}"));
        let inputs = "a ".repeat(lex::MAX_WORDS / 2);
        let a = analyze(&format!("parallel echo {holes} ::: {inputs}"));
        assert!(a.opaque.iter().any(|o| o.reason == lex::too_many_words()));
    }

    /// A `for` loop of literal words runs its body once with each.
    #[test]
    fn a_loop_of_literal_words_is_read_once_per_value() {
        let line = "for b in feature-a feature-b; do git push origin \"$b\"; done";
        let a = analyze(line);
        let pushes: Vec<&SimpleCommand> =
            a.commands.iter().filter(|c| c.program == "git").collect();
        assert_eq!(pushes.len(), 2, "{:?}", a.commands);
        assert!(pushes.iter().all(|c| c.unknown.is_empty()), "{pushes:?}");
        finds(line, "git", "feature-b");
        finds(
            "for b in main --force; do git push origin \"$b\"; done",
            "git",
            "--force",
        );
        finds("for p in rm; do $p -rf .; done", "rm", "-rf");
        // Past the bound the word stays unknown.
        let many = (0..17)
            .map(|i| format!("b{i}"))
            .collect::<Vec<_>>()
            .join(" ");
        let a = analyze(&format!("for b in {many}; do git push origin \"$b\"; done"));
        assert!(
            a.commands.iter().any(|c| !c.unknown.is_empty()),
            "{:?}",
            a.commands
        );
    }
}
