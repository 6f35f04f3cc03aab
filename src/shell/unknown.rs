//! Programs hookc does not know: presumed to run what their arguments spell.
//!
//! hookc reads a command line through its tables of what programs do with
//! their words ([`programs::WRAPPERS`], the interpreters, the readers of
//! the normaliser, the access table, the data builtins below). A program in
//! none of them may be a wrapper nobody listed (`arch`, `xcrun`, `npm
//! exec`, `tmux new-session`, a script the project ships), so a command
//! guard does not take it for a leaf: it is presumed to run
//!
//! - any run of its arguments that starts at a word naming a program (the
//!   guard's own, or one that runs others, such as `sudo` or `sh`), read as
//!   a command: `foo -q git push --force` may run `git push --force`;
//! - any argument that holds more than one word, read as a shell line
//!   (`tmux new-session -d 'rm -rf /'`), and the value of a `--name=VALUE`
//!   argument likewise.
//!
//! Each reading is analysed like a line of its own, and a program it runs
//! that hookc does not know is presumed the same way, a few levels deep.
//! The tables are thus an optimisation for precision: removing a wrapper
//! from them turns its commands into presumed ones, which the same guards
//! still refuse. Words a known program takes as data stay data (`echo`,
//! `printf`, `git commit -m`, `grep`), and so does standard input.
//!
//! This module only reads; the evaluator decides (`src/eval/unknown.rs`).

use std::borrow::Cow;

use super::lex::MAX_DEPTH;
use super::normalize::{self, Analysis, SimpleCommand};
use super::{access, inert, programs, runners};

/// Builtins and programs outside the other tables whose arguments are
/// data: they never run a command named in them.
const DATA: &[&str] = &[
    ":", "typeset", "readonly", "shopt", "ulimit", "getopts", "unalias", "dirs", "disown", "fg",
    "bg", "times", "logout", "caller",
];

/// Whether one of hookc's tables says what `program` does with its words.
pub fn known(program: &str) -> bool {
    programs::wrapper(program).is_some()
        || programs::interpreter(program).is_some()
        || programs::AWKS.contains(&program)
        || normalize::reads_words(program)
        || access::row_of(program).is_some()
        || inert::Language::of(program).is_some()
        || DATA.contains(&program)
        || programs::other_name(program).is_some()
        || runners::is_runner(program)
}

/// Whether a program reads a command or code out of its words in a way
/// of its own (`sudo -e`, `env -S`, `sh -c`, `python -c`, `git -c`): a
/// run of an unknown program's arguments starting at one is read. The
/// wrappers of the table need no run of their own: what they run starts a
/// run further on, and a string they run is read as a line.
///
/// So does a program that runs what the place it runs in says: a package
/// manager's scripts (`npm run t`), and what ssh's settings run when it
/// connects (`ProxyCommand`).
fn runs_others(program: &str) -> bool {
    programs::interpreter(program).is_some()
        || programs::AWKS.contains(&program)
        || normalize::reads_words(program)
        || runners::is_runner(program)
        || matches!(program, "ssh" | "scp" | "sftp" | "rsync")
}

/// One way an unknown program may run its arguments: the program, the
/// words or string read, and what that reading runs.
#[derive(Debug, Clone)]
pub struct Reading {
    /// The program hookc does not know.
    pub program: String,
    /// The arguments read as a command line, as a shell word list.
    pub spelled: String,
    /// What that line runs, as the normaliser reads it.
    pub commands: Vec<SimpleCommand>,
    /// What hookc cannot read in a run of the program's own arguments
    /// (`foo python3 -c CODE`), or in a string argument that runs a
    /// guarded program or one that reads commands; empty for any other
    /// string, which is as often prose as a script.
    pub opaque: Vec<String>,
}

/// What unknown programs in an analysis are presumed to run.
#[derive(Debug, Clone, Default)]
pub struct Presumed {
    pub readings: Vec<Reading>,
    /// Set when the line holds more readings than hookc reads in time:
    /// the first program whose arguments were left unread.
    pub unread: Option<String>,
}

/// The most readings made of one line (each is a line analysed again).
pub const MAX_READINGS: usize = 64;

/// The readings of the unknown programs of `analysis`. `named` says
/// whether a program name is one a guard names: only runs starting at such
/// a name, or at a program that runs others, are read.
pub fn presume(analysis: &Analysis, named: &dyn Fn(&str) -> bool) -> Presumed {
    presume_with(analysis, named, None)
}

/// [`presume`], with each reading read by `read`: where the call is
/// judged, as a line of the call's own (`foo npm run t` runs what the
/// script `t` of the `package.json` there says, `foo git st` what the
/// alias `st` says, `foo ssh host` what ssh's settings run on
/// connecting; see `Call::read_reading`).
pub fn presume_with(
    analysis: &Analysis,
    named: &dyn Fn(&str) -> bool,
    read: Reader<'_>,
) -> Presumed {
    let mut out = Presumed::default();
    for cmd in &analysis.commands {
        presume_command(cmd, named, read, false, 0, &mut out);
    }
    out
}

/// How a reading, a line of its own, is read: by default as a line read
/// nowhere ([`super::analyze`]).
pub type Reader<'r> = Option<&'r dyn Fn(&str) -> Analysis>;

/// The text a reading of an unknown program's arguments in `line` is read
/// as where the call is judged: itself where the line does not move; after
/// a `cd` to any of the folders the line may be in where hookc knows them
/// (`cd docs && frob npm run t` may run the script of either), so that
/// each is read there; otherwise in a folder hookc does not know.
pub fn placed<'r>(line: &Analysis, reading: &'r str) -> Cow<'r, str> {
    if !line.moves() {
        return Cow::Borrowed(reading);
    }
    let folders: Option<Vec<&str>> = line
        .folders_run_in
        .as_ref()
        .and_then(|f| f.iter().map(|p| p.to_str()).collect());
    match folders {
        Some(folders) => {
            let arms: String = folders
                .iter()
                .enumerate()
                .map(|(k, f)| format!("{k}) cd -- '{}' ;;\n", f.replace('\'', "'\\''")))
                .collect();
            Cow::Owned(format!("case \"$RANDOM\" in\n{arms}esac\n{reading}"))
        }
        None => Cow::Owned(super::keys::in_unknown_folder(reading)),
    }
}

/// A reading within a reading that may have left the folder it started in
/// (`frob sh -c 'cd ../x && bar git st'`) is read in a folder hookc does
/// not know: [`placed`] places only what the call's own line runs.
fn elsewhere(moved: bool, line: &str) -> Cow<'_, str> {
    if moved {
        Cow::Owned(super::keys::in_unknown_folder(line))
    } else {
        Cow::Borrowed(line)
    }
}

/// A reading read by `read`, or nowhere.
fn read_line(read: Reader<'_>, line: &str) -> Analysis {
    match read {
        Some(read) => read(line),
        None => super::analyze(line),
    }
}

fn presume_command(
    cmd: &SimpleCommand,
    named: &dyn Fn(&str) -> bool,
    read: Reader<'_>,
    moved: bool,
    depth: usize,
    out: &mut Presumed,
) {
    if cmd.program.is_empty() || known(&cmd.program) || out.unread.is_some() {
        return;
    }
    if depth > MAX_DEPTH.min(4) {
        out.unread = Some(cmd.program.clone());
        return;
    }
    for (line, run) in lines(cmd, named) {
        // The same words reached another way (`foo bash -c 'bar …'` reads
        // `bar …` as a run of bash's and as a string) are read once, but
        // for a reading that may run elsewhere than the first.
        if !moved && out.readings.iter().any(|r| r.spelled == line) {
            continue;
        }
        if out.readings.len() >= MAX_READINGS {
            out.unread = Some(cmd.program.clone());
            return;
        }
        // Read as a line of its own, checks of the whole line included (a
        // program it writes and runs: `ln -s /bin/rm ./del && ./del`).
        let analysis = read_line(read, &elsewhere(moved, &line));
        let moves = moved || analysis.moves();
        let counts_opaque = (run && depth == 0)
            || spells_a_command(&line, &analysis, named)
            || super::written::runs_what_it_writes(&analysis);
        let at = out.readings.len();
        out.readings.push(Reading {
            program: cmd.program.clone(),
            spelled: line,
            commands: analysis.commands,
            opaque: if counts_opaque {
                analysis.opaque.into_iter().map(|o| o.reason).collect()
            } else {
                Vec::new()
            },
        });
        let inner: Vec<SimpleCommand> = out.readings[at].commands.clone();
        for c in &inner {
            presume_command(c, named, read, moves, depth + 1, out);
        }
    }
}

/// What stands for the files of the strings left unread when an unknown
/// program is handed more of them than hookc reads in time: a name known
/// only when the line runs, which every path guard refuses.
pub const UNREAD: &str =
    "(the arguments of a program hookc does not know, more than it reads in time)";

/// Every file the commands of `analysis` touch ([`access::touches`]), and
/// what a program hookc does not know may touch by running its arguments:
/// the files of each reading of them, as a line of its own, from where the
/// program runs (`tmux new-session -d 'cat .env'` reads `.env`). A literal
/// argument of its own already counts as a file it reads and writes.
///
/// In a reading, what the known programs touch counts, and so do the
/// redirections, the strings of every program, and the runs of an unknown
/// program's arguments that start at a known program; the operands of a
/// program hookc does not know there do not: such a string is as often
/// text as a command (`psql -c 'SELECT * FROM users'`, `--title 'Fix .env
/// loading'`), and its first word names no program hookc could check.
///
/// Each reading is read by `read`, as in [`presume_with`] (`frob git st`
/// where the alias `st` is `!cat .env`).
pub fn touches(analysis: &Analysis, read: Reader<'_>) -> Vec<access::Touch> {
    let budget = std::cell::Cell::new(MAX_READINGS);
    touches_within(analysis, read, false, 0, &budget)
}

fn touches_within(
    analysis: &Analysis,
    reader: Reader<'_>,
    moved: bool,
    depth: usize,
    budget: &std::cell::Cell<usize>,
) -> Vec<access::Touch> {
    access::touches_with(analysis, &|cmd, from, out| {
        if cmd.program.is_empty() || known(&cmd.program) {
            return;
        }
        if depth > 0 {
            let shell_opens =
                |t: &access::Touch| cmd.redirects.contains(&t.path) || cmd.reads.contains(&t.path);
            let opened: Vec<access::Touch> = out.drain(from..).filter(shell_opens).collect();
            out.extend(opened);
        }
        // There, a run of its arguments from a program hookc knows is read
        // as that program's command (`frob 'wrap less .env'`), since its
        // operands no longer count as files of their own.
        let from_known = |word: &str| depth > 0 && known(word);
        let mut read: Vec<String> = Vec::new();
        for (line, _) in lines(cmd, &from_known) {
            if read.contains(&line) {
                continue;
            }
            if depth >= MAX_DEPTH.min(4) || budget.get() == 0 {
                out.push(access::Touch {
                    runtime: Some(UNREAD.to_owned()),
                    ..access::Touch::file(UNREAD, access::Access::Both)
                });
                return;
            }
            budget.set(budget.get() - 1);
            let by = Box::new((cmd.program.clone(), line.clone()));
            let reading = read_line(reader, &elsewhere(moved, &line));
            let moves = moved || reading.moves();
            let mut found = touches_within(&reading, reader, moves, depth + 1, budget);
            found.extend(unnamed(&line, &reading));
            out.extend(found.into_iter().map(|t| access::Touch {
                presumed: Some(by.clone()),
                ..t
            }));
            read.push(line);
        }
    })
}

/// The start of what stands for the files of a reading that is a command
/// hookc cannot read (see [`unnamed`]); the reason follows, and `)`.
pub const UNREADABLE: &str = "(a part hookc cannot read: ";

/// What stands for the files a git command in a reading writes, which only
/// the repository can name, and only when the program runs it.
pub const GIT_IN_A_READING: &str =
    "(a git command, which changes files only the repository can name when it runs)";

/// What a reading touches that no word of it names, as files known only
/// when the line runs, which every path guard with that access refuses:
///
/// - every file, when the reading is a command line (it runs a program
///   hookc knows, or a pattern stands where a program goes) with a part
///   hookc cannot read: `frob -c '/usr/bin/ca[t] .env'`, `frob -c 'alias
///   r=less ⏎ r .env'`. A string of prose with such a part (`--title
///   "don't break"`) runs no program hookc knows, and stays text;
/// - the files a git command writes (`frob 'git rebase -x CMD HEAD~1'`,
///   `frob 'git checkout main'`): the repository names them only when the
///   program runs the command, after whatever else it did first.
fn unnamed(line: &str, reading: &Analysis) -> Vec<access::Touch> {
    let mut out = Vec::new();
    let a_command = || {
        reading
            .commands
            .iter()
            .any(|c| !c.program.is_empty() && known(&c.program))
            || pattern_names_one(line, &|_| true)
    };
    if let Some(part) = reading.opaque.first()
        && a_command()
    {
        out.push(access::Touch {
            runtime: Some(format!("{UNREADABLE}{})", part.reason)),
            ..access::Touch::file(UNREADABLE, access::Access::Both)
        });
    }
    if reading
        .commands
        .iter()
        .any(|c| !access::git_writes(c).is_empty())
    {
        out.push(access::Touch {
            runtime: Some(GIT_IN_A_READING.to_owned()),
            ..access::Touch::file(GIT_IN_A_READING, access::Access::Write)
        });
    }
    out
}

/// Each line an unknown program's arguments are read as, and whether it is
/// a run of the words themselves (else a string argument, or the value of
/// a `--name=VALUE` one). Runs start at a word `named` names or at a
/// program that runs others.
fn lines(cmd: &SimpleCommand, named: &dyn Fn(&str) -> bool) -> Vec<(String, bool)> {
    let unknown = |k: usize| cmd.unknown.contains(&k);
    let mut lines: Vec<(String, bool)> = Vec::new();
    for (j, word) in cmd.args.iter().enumerate() {
        if unknown(j) {
            continue;
        }
        // A pattern counts when it may become a name a guard names.
        let name = program_word(word);
        // Only a pattern the shell expands; a quoted `'gi[t]'` is that name.
        let pattern = cmd.globs.contains(&j);
        if (pattern && !names_a_program(&name)) || (!pattern && access::is_glob(&name)) {
            continue;
        }
        if named(&name) || (runs_others(&name) && looks_like_a_name(&name)) {
            lines.push((spell(cmd, j), true));
        }
    }
    for (k, word) in cmd.args.iter().enumerate() {
        if unknown(k) {
            continue;
        }
        if holds_a_line(word) {
            lines.push((word.clone(), false));
        }
        if let Some((_, value)) = word.split_once('=').filter(|(o, _)| o.starts_with('-'))
            && !value.is_empty()
        {
            lines.push((value.to_owned(), false));
        }
        // A console's shell escape (`gdb -ex '!git push -f'`, psql's
        // `\!`, a `|` that pipes to a command): the rest is a line.
        let value = word.split_once('=').map_or(word.as_str(), |(_, v)| v);
        if let Some(line) = shell_escape(value).or_else(|| shell_escape(word)) {
            lines.push((line.to_owned(), false));
        }
    }
    lines
}

/// Whether a reading runs a program a guard names or one that reads
/// commands of its own: then what cannot be read in it counts, even in a
/// string argument (`foo --run 'git -c help.autocorrect=1 psuh -f'`);
/// in prose (`--title "don't break"`) it does not.
fn spells_a_command(line: &str, analysis: &Analysis, named: &dyn Fn(&str) -> bool) -> bool {
    analysis
        .commands
        .iter()
        .any(|c| named(&c.program) || runs_others(&c.program))
        || pattern_names_one(line, named)
}

/// Whether a command of `line` has for its program a pattern that may
/// become a program a guard names (`/usr/bin/r[m] -rf .`), which the
/// normaliser leaves out of what runs, as opaque.
fn pattern_names_one(line: &str, named: &dyn Fn(&str) -> bool) -> bool {
    super::lex(line).commands.iter().any(|c| {
        c.words
            .iter()
            .find(|w| !w.text.contains('=') || w.quoted)
            .is_some_and(|w| {
                let name = program_word(&w.text);
                w.glob && names_a_program(&name) && named(&name)
            })
    })
}

/// Whether a pattern (a word's last part) reads as a program's name made
/// a pattern (`gi[t]`, `r?`, `g*t`), not as files (`*`, `*.ts`, `(*)` in
/// SQL): a letter of the name in it, and no `*` next to a suffix.
fn names_a_program(pattern: &str) -> bool {
    pattern.chars().any(|c| c.is_ascii_alphanumeric())
        && !(pattern.contains('*') && pattern.contains('.'))
}

/// A word as a command name: its basename, without `.exe`, and a `g`-named
/// GNU tool as the tool. zsh expands `=git` to git's path.
fn program_word(word: &str) -> Cow<'_, str> {
    let word = word.strip_prefix('=').unwrap_or(word);
    let base = word
        .rsplit('/')
        .next()
        .filter(|b| !b.is_empty())
        .unwrap_or(word);
    let base = match base.len().checked_sub(4) {
        Some(cut)
            if cut > 0
                && base
                    .get(cut..)
                    .is_some_and(|e| e.eq_ignore_ascii_case(".exe")) =>
        {
            &base[..cut]
        }
        _ => base,
    };
    match programs::other_name(base) {
        Some(real) => Cow::Borrowed(real),
        None => Cow::Borrowed(base),
    }
}

/// zsh's `=NAME`, which it expands to the path of the program NAME.
fn zsh_equals(word: &str) -> bool {
    word.strip_prefix('=').is_some_and(|name| {
        !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._+-".contains(c))
    })
}

/// A word that can name a program (not an option, a number, a path
/// ending in `/` or an assignment): only those start a run read as a
/// command.
fn looks_like_a_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('-')
        && !name.contains('=')
        && !name.chars().all(|c| c.is_ascii_digit() || c == '.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._+-".contains(c))
}

/// An argument a program may hand to a shell: more than one word, or shell
/// syntax in it.
/// The command after a shell escape many programs' command languages
/// share: `!CMD` (gdb, vim, ed, less, ftp), `\!CMD` (psql, mysql), `|CMD`.
fn shell_escape(text: &str) -> Option<&str> {
    let text = text.trim_start();
    let rest = ["\\!", "!", "|"]
        .iter()
        .find_map(|p| text.strip_prefix(p))?;
    (!rest.trim().is_empty()).then_some(rest)
}

fn holds_a_line(word: &str) -> bool {
    word.chars()
        .any(|c| c.is_whitespace() || ";&|`$()<>".contains(c))
}

/// `cmd`'s arguments from `from` on as shell words: literal ones quoted,
/// those known only at run time as a parameter (still unknown when read
/// again), patterns as written when they are plain.
fn spell(cmd: &SimpleCommand, from: usize) -> String {
    let mut line = String::new();
    for (k, word) in cmd.args.iter().enumerate().skip(from) {
        if !line.is_empty() {
            line.push(' ');
        }
        if cmd.unknown.contains(&k) {
            line.push_str("\"$HOOKC_UNKNOWN\"");
        } else if zsh_equals(word) {
            // zsh's `=git` (git's path) stays as written.
            line.push_str(word);
        } else if cmd.globs.contains(&k)
            && word
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._/*?[]-+~".contains(c))
        {
            line.push_str(word);
        } else {
            line.push_str(&super::sh_word(word));
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(line: &str, program: &str) -> Vec<String> {
        let named = |p: &str| p == program;
        presume(&normalize::analyze(line), &named)
            .readings
            .iter()
            .flat_map(|r| r.commands.iter())
            .filter(|c| c.program == program)
            .map(|c| format!("{} {}", c.program, c.args.join(" ")))
            .collect::<std::collections::BTreeSet<String>>()
            .into_iter()
            .collect()
    }

    #[test]
    fn an_unknown_program_runs_its_arguments() {
        assert_eq!(
            runs("foo git push --force origin main", "git"),
            ["git push --force origin main"]
        );
        assert_eq!(runs("arch -arm64 rm -rf /", "rm"), ["rm -rf /"]);
        assert_eq!(runs("tmux new-session -d 'rm -rf /'", "rm"), ["rm -rf /"]);
        assert_eq!(runs("nix-shell --run='rm -rf /'", "rm"), ["rm -rf /"]);
        // Through a known wrapper inside, and an unknown one inside that.
        assert_eq!(runs("foo sudo rm -rf /", "rm"), ["rm -rf /"]);
        assert_eq!(runs("foo bash -c 'bar rm -rf /'", "rm"), ["rm -rf /"]);
        assert_eq!(runs("foo grm -rf /", "rm"), ["rm -rf /"]);
        // A console's shell escape.
        assert_eq!(runs("gdb -batch -ex '!rm -rf /'", "rm"), ["rm -rf /"]);
        assert_eq!(runs("psql -c '\\!rm -rf /'", "rm"), ["rm -rf /"]);
        assert_eq!(runs("foo --out='|rm -rf /'", "rm"), ["rm -rf /"]);
    }

    #[test]
    fn known_programs_keep_their_data() {
        for line in [
            "echo git push --force",
            "printf '%s\\n' 'rm -rf /'",
            "git commit -m 'never git push --force'",
            "grep -rn 'rm -rf' src/",
            "cargo build --release",
            "make test",
            "pytest -k push",
        ] {
            assert!(runs(line, "git").is_empty(), "{line}");
            assert!(runs(line, "rm").is_empty(), "{line}");
        }
    }

    #[test]
    fn gnu_names_are_the_tools_they_install() {
        assert_eq!(programs::other_name("grm"), Some("rm"));
        assert_eq!(programs::other_name("gtimeout"), Some("timeout"));
        assert_eq!(programs::other_name("ggrep"), Some("grep"));
        assert_eq!(programs::other_name("hub"), Some("git"));
        for other in ["git", "gcc", "gzip", "gdb", "gpg", "go", "gh", "gawk"] {
            assert_eq!(programs::other_name(other), None, "{other}");
        }
    }

    /// The files each reading of an unknown program's arguments touches,
    /// with the program that may touch them.
    fn touched(line: &str) -> Vec<(String, access::Access, Option<String>)> {
        touches(&normalize::analyze(line), None)
            .into_iter()
            .map(|t| (t.path, t.access, t.presumed.map(|p| p.0)))
            .collect()
    }

    #[test]
    fn what_an_unknown_program_may_run_touches_files() {
        use access::Access::{Both, Read, Write};
        let by = |p: &str| Some(p.to_owned());
        assert!(touched("tmux new-session -d 'cat .env'").contains(&(
            ".env".to_owned(),
            Read,
            by("tmux")
        )));
        assert!(
            touched("frob --run='echo x > .hookc/policy.json'").contains(&(
                ".hookc/policy.json".to_owned(),
                Write,
                by("frob")
            ))
        );
        // Nested, it is the program of the line that is named.
        assert!(touched("frob 'frob2 \"cat .env\"'").contains(&(
            ".env".to_owned(),
            Read,
            by("frob")
        )));
        // From where the program runs.
        assert!(
            touched("cd sub && frob 'cat ../.env'")
                .iter()
                .any(|(p, a, b)| p == "sub/../.env" && *a == Read && b.is_some())
        );
        // Its own literal arguments are files it may read and write, as
        // before; a known program's strings are data.
        assert_eq!(touched("frob .env"), [(".env".to_owned(), Both, None)]);
        assert!(touched("echo 'cat .env'").is_empty());
        // In a reading, a program hookc does not know touches no operand
        // (the string is as often text), but its redirections count.
        assert!(
            touched("psql -c 'SELECT * FROM users'")
                .iter()
                .all(|(_, _, b)| b.is_none())
        );
        assert!(
            touched("frob --title 'Fix .env loading'")
                .iter()
                .all(|(_, _, b)| b.is_none())
        );
        assert!(touched("frob 'wrap less .env'").contains(&(".env".to_owned(), Read, by("frob"))));
        assert!(touched("frob 'Fix > policy.kdl'").contains(&(
            "policy.kdl".to_owned(),
            Write,
            by("frob")
        )));
        assert!(touched("git commit -m 'cat .env'").is_empty());
    }

    #[test]
    fn what_an_unknown_program_may_touch_is_read_within_a_bound() {
        let line = format!("frob {}", "'cat a' ".repeat(10));
        assert!(touched(&line).iter().all(|(p, ..)| p != UNREAD));
        let line: String =
            (0..=MAX_READINGS).fold("frob".to_owned(), |l, i| l + &format!(" 'cat {i}'"));
        let seen = touches(&normalize::analyze(&line), None);
        assert!(
            seen.iter()
                .any(|t| t.path == UNREAD && t.runtime.as_deref() == Some(UNREAD)),
            "{seen:?}"
        );
        // Strings inside strings, deeper than hookc reads.
        let deep = (0..8).fold("cat .env".to_owned(), |l, _| {
            format!("frob {}", super::super::sh_word(&l))
        });
        assert!(touched(&deep).iter().any(|(p, ..)| p == UNREAD), "{deep}");
        let shallow = (0..3).fold("cat .env".to_owned(), |l, _| {
            format!("frob {}", super::super::sh_word(&l))
        });
        assert!(
            touched(&shallow).iter().any(|(p, ..)| p == ".env"),
            "{shallow}"
        );
    }

    #[test]
    fn readings_are_bounded() {
        let line = format!("foo {}", "sudo ".repeat(200));
        let p = presume(&normalize::analyze(&line), &|_| false);
        assert!(p.readings.len() <= MAX_READINGS);
        assert_eq!(p.unread.as_deref(), Some("foo"));
    }
}
