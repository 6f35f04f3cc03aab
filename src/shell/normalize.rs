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

use serde::{Deserialize, Serialize};

use super::lex::{self, MAX_DEPTH, Word};

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
}

impl Analysis {
    /// True when part of the line could not be understood.
    pub fn is_opaque(&self) -> bool {
        !self.opaque.is_empty()
    }
}

/// One simple command after unwrapping wrappers.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SimpleCommand {
    /// Basename of the program (`/usr/bin/git` → `git`). Empty for a line
    /// that only redirects (`> file`), so that its write is still visible.
    pub program: String,
    /// Arguments after quote removal. For `git`, global options before the
    /// subcommand (`-C dir`, `-c k=v`, `--no-pager`, …) are removed.
    pub args: Vec<String>,
    /// Files written: targets of `>`, `>>`, `&>`, `N>` … redirections
    /// (including those around an enclosing `bash -c`), the file arguments of
    /// `tee`, and `of=` of `dd`.
    pub redirects: Vec<String>,
}

/// Understand a command line: which programs run, with which arguments.
/// Never panics.
pub fn analyze(command_line: &str) -> Analysis {
    let mut out = Analysis::default();
    script(&mut out, command_line, 0, &[]);
    out
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
    let lexed = lex::lex_depth(src, depth);
    for o in lexed.opaque {
        push_opaque(out, o.reason);
    }
    for cmd in lexed.commands {
        let mut redirects = outer.to_vec();
        redirects.extend(cmd.writes.into_iter().map(|w| w.text));
        words(out, &cmd.words, redirects, depth);
    }
}

/// `NAME=value` (or `NAME+=value`) written plainly.
fn is_assignment(w: &Word) -> bool {
    let Some(eq) = w.text.find('=') else {
        return false;
    };
    if eq >= w.plain_prefix || eq == 0 {
        return false;
    }
    let name = w.text[..eq].strip_suffix('+').unwrap_or(&w.text[..eq]);
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Basename of a program path; `git/` or `/` keep their text.
fn basename(path: &str) -> &str {
    match path.rsplit('/').next() {
        Some(b) if !b.is_empty() => b,
        _ => path,
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
    });
}

/// Normalise the words of one simple command.
fn words(out: &mut Analysis, ws: &[Word], redirects: Vec<String>, depth: usize) {
    if depth > MAX_DEPTH {
        push_opaque(out, "commands nested too deeply");
        return;
    }
    let mut i = 0;
    loop {
        while i < ws.len() && is_assignment(&ws[i]) {
            i += 1;
        }
        let Some(w) = ws.get(i) else {
            if !redirects.is_empty() {
                out.commands.push(SimpleCommand {
                    program: String::new(),
                    args: Vec::new(),
                    redirects,
                });
            }
            return;
        };
        // Keywords only count when written plainly.
        if w.quoted || w.plain_prefix != w.text.len() {
            break;
        }
        match w.text.as_str() {
            "!" | "{" | "}" | "if" | "then" | "else" | "elif" | "fi" | "do" | "done" | "while"
            | "until" | "esac" => i += 1,
            "time" => {
                i += 1;
                while ws.get(i).is_some_and(|w| w.text == "-p" || w.text == "--") {
                    i += 1;
                }
            }
            // `for x in a b` runs nothing by itself; its body follows `do`.
            "for" | "select" => return,
            "case" => {
                push_opaque(out, "case statement");
                return;
            }
            "function" => {
                push_opaque(out, "function definition");
                return;
            }
            "coproc" => {
                push_opaque(out, "coprocess");
                return;
            }
            _ => break,
        }
    }
    let w = &ws[i];
    if w.opaque || w.has_param {
        push_opaque(
            out,
            format!("variable or substitution in command position: {}", w.text),
        );
        return;
    }
    let program = basename(&w.text);
    let rest = &ws[i + 1..];
    let d = depth + 1;
    match program {
        "sudo" => {
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
            if edit {
                emit(out, "sudoedit", &rest[n..], redirects);
            } else {
                wrapped(out, program, rest, n, redirects, d);
            }
        }
        "doas" => {
            let n = parse_opts(rest, "uC", &[], |_| {});
            wrapped(out, program, rest, n, redirects, d);
        }
        "env" => env(out, rest, redirects, d),
        "command" => {
            let mut lookup = false;
            let n = parse_opts(rest, "", &[], |o| {
                lookup |= matches!(o, Opt::Short('v' | 'V'));
            });
            if lookup {
                // `command -v git` only looks git up; it does not run it.
                emit(out, program, rest, redirects);
            } else {
                wrapped(out, program, rest, n, redirects, d);
            }
        }
        "builtin" | "nohup" | "chronic" | "busybox" => {
            let n = parse_opts(rest, "", &[], |_| {});
            wrapped(out, program, rest, n, redirects, d);
        }
        "exec" => {
            let n = parse_opts(rest, "a", &[], |_| {});
            wrapped(out, program, rest, n, redirects, d);
        }
        "nice" => {
            let n = parse_opts(rest, "n", &["adjustment"], |_| {});
            wrapped(out, program, rest, n, redirects, d);
        }
        "time" => {
            let n = parse_opts(rest, "fo", &["format", "output"], |_| {});
            wrapped(out, program, rest, n, redirects, d);
        }
        "timeout" => {
            let n = parse_opts(rest, "sk", &["signal", "kill-after"], |_| {});
            // The first operand is the duration.
            wrapped(out, program, rest, n + 1, redirects, d);
        }
        "stdbuf" => {
            let n = parse_opts(rest, "ioe", &["input", "output", "error"], |_| {});
            wrapped(out, program, rest, n, redirects, d);
        }
        "ionice" => {
            let n = parse_opts(
                rest,
                "cnpPu",
                &["class", "classdata", "pid", "pgid", "uid"],
                |_| {},
            );
            wrapped(out, program, rest, n, redirects, d);
        }
        "xargs" => {
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
                |_| {},
            );
            if n >= rest.len() {
                // xargs runs `echo` by default.
                out.commands.push(SimpleCommand {
                    program: "echo".to_owned(),
                    args: Vec::new(),
                    redirects,
                });
            } else {
                words(out, &rest[n..], redirects, d);
            }
        }
        "watch" => {
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
        "bash" | "sh" | "zsh" | "dash" | "ksh" | "mksh" | "rbash" | "ash" | "yash" | "posh" => {
            shell(out, program, rest, redirects, d);
        }
        "su" | "runuser" => match su_command(rest) {
            Some(cmd) => script(out, cmd, d, &redirects),
            None => emit(out, program, rest, redirects),
        },
        "eval" => {
            push_opaque(out, "eval");
            // eval joins its arguments and runs them: look inside anyway.
            let joined = texts(rest).join(" ");
            script(out, &joined, d, &redirects);
        }
        "source" | "." => {
            let file = rest.first().map_or("", |w| w.text.as_str());
            push_opaque(out, format!("source of a script file: {file}"));
            emit(out, program, rest, redirects);
        }
        "find" => {
            emit(out, program, rest, redirects);
            find_exec(out, rest, d);
        }
        "git" => {
            let n = git_globals(rest);
            if defines_git_alias(&rest[..n]) {
                // `git -c alias.p='push -f' p`: the subcommand is not what it
                // seems.
                push_opaque(out, "a git alias defined on the command line (-c alias.*)");
            }
            emit(out, program, &rest[n..], redirects);
        }
        "tee" => {
            let mut redirects = redirects;
            redirects.extend(positionals(rest).map(str::to_owned));
            emit(out, program, rest, redirects);
        }
        "dd" => {
            let mut redirects = redirects;
            redirects.extend(
                rest.iter()
                    .filter_map(|w| w.text.strip_prefix("of="))
                    .map(str::to_owned),
            );
            emit(out, program, rest, redirects);
        }
        _ => emit(out, program, rest, redirects),
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
            n += k;
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
        let lexed = lex::lex_depth(&s, depth + 1);
        if !lexed.opaque.is_empty() || lexed.commands.len() > 1 {
            push_opaque(out, "env -S string");
            return;
        }
        let mut ws: Vec<Word> = lexed.commands.into_iter().flat_map(|c| c.words).collect();
        ws.extend(rest[n..].iter().cloned());
        env(out, &ws, redirects, depth + 1);
        return;
    }
    while rest
        .get(n)
        .is_some_and(|w| w.text.contains('=') && !w.text.starts_with('='))
    {
        n += 1;
    }
    if n < rest.len() {
        words(out, &rest[n..], redirects, depth);
    } else {
        emit(out, "env", rest, redirects);
    }
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
            j += if matches!(long, "rcfile" | "init-file") {
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
        _ => emit(out, program, rest, redirects),
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
                words(out, &rest[start..end], Vec::new(), depth);
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

/// Do these git global options define an alias (`-c alias.x=…`,
/// `--config-env=alias.x=VAR`)?
fn defines_git_alias(globals: &[Word]) -> bool {
    let is_alias = |kv: &str| {
        kv.get(..6)
            .is_some_and(|p| p.eq_ignore_ascii_case("alias."))
    };
    globals.iter().enumerate().any(|(k, w)| {
        let t = w.text.as_str();
        let value = if t == "-c" || t == "--config-env" {
            globals.get(k + 1).map(|v| v.text.as_str())
        } else {
            t.strip_prefix("--config-env=")
                .or_else(|| t.strip_prefix("-c"))
        };
        value.is_some_and(is_alias)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn unwraps_wrappers() {
        let want = sc("git", &["push", "--force"]);
        for line in [
            "git push --force",
            "/usr/bin/git push --force",
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
            "xargs -n 1 -I {} git push --force",
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
        let a = analyze("git push --force; echo $(date)");
        assert!(a.is_opaque());
        assert!(
            a.commands
                .iter()
                .any(|c| c.program == "git" && c.args == ["push", "--force"])
        );
        for line in [
            "$GIT push --force",
            "sudo $CMD",
            "eval 'git push --force'",
            "source .env",
            ". ./env.sh",
            "case x in a) ls;; esac",
            "function f { ls; }",
            "env -S 'a $(b)'",
            "bash -c 'echo $(id)'",
            "git -c alias.p='push -f' p",
            "git -c Alias.p=x --config-env=alias.q=V p",
            "git --config-env alias.q=V q",
        ] {
            assert!(analyze(line).is_opaque(), "{line:?} should be opaque");
        }
        let e = analyze("eval 'git push --force'");
        assert!(e.commands.iter().any(|c| c.program == "git"));
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

    #[test]
    fn assignments_and_keywords_need_plain_spelling() {
        assert_eq!(single("'X=1' git"), sc("X=1", &["git"]));
        assert_eq!(single("'if' x"), sc("if", &["x"]));
        assert_eq!(single("A+=1 B_2=x ls"), sc("ls", &[]));
        assert_eq!(single("1X=2 ls"), sc("1X=2", &["ls"]));
    }
}
