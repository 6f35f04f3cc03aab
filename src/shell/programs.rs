//! Programs that run other programs or code, and how: the one table the
//! normaliser consults to see through them.
//!
//! A guard that looks only at the first word of a command is beaten by any
//! program that runs another: `flock .lock rm -rf build` runs `rm`. Three
//! kinds exist, and each row below says which one a program is:
//!
//! - it runs its remaining operands as a command ([`How::Argv`]: `nice`,
//!   `flock FILE`, `chroot DIR`), after its own options and a fixed number of
//!   operands of its own;
//! - it joins them into a string that a shell runs ([`How::Joined`]: `ssh
//!   HOST …` on the remote side, `sg GROUP …`), or takes such a string as an
//!   option value ([`Wrapper::script_opts`]: `flock -c`, `script -c`);
//! - it runs code of another language ([`INTERPRETERS`]: `python -c`,
//!   `perl -e`, `node -e`, `awk` with `system`), which hookc cannot read, so
//!   the line is opaque.
//!
//! Options that take a value must be listed, so that the value is not taken
//! for the command; an unknown option is assumed to take none, which errs
//! towards finding a command.

/// How a wrapper runs what follows its options and operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    /// As an argument vector: `nice -n 5 git push` runs `git push`.
    Argv,
    /// Joined with spaces into a shell script: `ssh host git push -f`.
    Joined,
}

#[derive(Debug)]
pub struct Wrapper {
    pub name: &'static str,
    /// Short options that take a value (`-n 5` or `-n5`).
    pub short_val: &'static str,
    /// Long options that take a separate value (`--user root`).
    pub long_val: &'static [&'static str],
    /// Operands of the wrapper's own before the command: `timeout`'s
    /// duration, `chroot`'s root, `ssh`'s host, `flock`'s lock file.
    pub operands: usize,
    /// Options whose value is a shell script, wherever they appear.
    pub script_opts: &'static [&'static str],
    pub how: How,
}

const fn argv(
    name: &'static str,
    short_val: &'static str,
    long_val: &'static [&'static str],
    operands: usize,
) -> Wrapper {
    Wrapper {
        name,
        short_val,
        long_val,
        operands,
        script_opts: &[],
        how: How::Argv,
    }
}

/// Every wrapper hookc looks through, by program name. `sudo`, `env`,
/// `command`, `xargs`, `watch`, the shells, `su`, `find` and `git` need more
/// than a row and live in the normaliser.
pub const WRAPPERS: &[Wrapper] = &[
    argv("doas", "uC", &[], 0),
    argv("builtin", "", &[], 0),
    argv("nohup", "", &[], 0),
    argv("chronic", "", &[], 0),
    argv("busybox", "", &[], 0),
    argv("toybox", "", &[], 0),
    argv("exec", "a", &[], 0),
    argv("nice", "n", &["adjustment"], 0),
    argv("time", "fo", &["format", "output"], 0),
    argv("timeout", "sk", &["signal", "kill-after"], 1),
    argv("stdbuf", "ioe", &["input", "output", "error"], 0),
    argv(
        "ionice",
        "cnpPu",
        &["class", "classdata", "pid", "pgid", "uid"],
        0,
    ),
    Wrapper {
        script_opts: &["-c", "--command"],
        ..argv(
            "flock",
            "wEc",
            &["timeout", "wait", "conflict-exit-code", "command"],
            1,
        )
    },
    argv("chroot", "", &["userspec", "groups"], 1),
    // Programs that switch user (`changes_user`): gosu and su-exec in
    // containers, daemontools', runit's and s6's in service trees.
    argv("gosu", "", &[], 1),
    argv("su-exec", "", &[], 1),
    argv("setuidgid", "", &[], 1),
    argv("envuidgid", "", &[], 1),
    argv("s6-setuidgid", "", &[], 1),
    argv("chpst", "uUbe/nlLmdopfcrt", &[], 0),
    argv(
        "setpriv",
        "",
        &[
            "reuid",
            "regid",
            "ruid",
            "euid",
            "rgid",
            "egid",
            "groups",
            "inh-caps",
            "ambient-caps",
            "bounding-set",
            "securebits",
            "pdeathsig",
            "selinux-label",
            "apparmor-profile",
            "landlock-access",
            "landlock-rule",
            "seccomp-filter",
        ],
        0,
    ),
    argv(
        "unshare",
        "RwSGl",
        &[
            "root",
            "wd",
            "setuid",
            "setgid",
            "propagation",
            "map-user",
            "map-group",
            "load-interp",
        ],
        0,
    ),
    argv("setsid", "", &[], 0),
    // `-r`, `-w`, `--root` and `--wd` take a folder only attached
    // (`-w/srv`, `--wd=/srv`): alone, the target's.
    argv("nsenter", "tSGZ", &["target", "setuid", "setgid", "env"], 0),
    argv("taskset", "", &["cpu-list"], 1),
    argv(
        "chrt",
        "T",
        &["sched-runtime", "sched-period", "sched-deadline"],
        1,
    ),
    argv("prlimit", "p", &["pid"], 0),
    argv("cgexec", "g", &[], 0),
    argv("firejail", "", &[], 0),
    argv(
        "strace",
        "oepsuEaIOSXPbA",
        &["output", "expr", "attach", "user", "env"],
        0,
    ),
    argv("ltrace", "oepsuEaIlnSXAbDFLw", &["output", "library"], 0),
    argv("valgrind", "", &[], 0),
    argv(
        "systemd-run",
        "upEMHG",
        &[
            "unit",
            "property",
            "description",
            "slice",
            "setenv",
            "uid",
            "gid",
            "working-directory",
            "machine",
            "host",
            "nice",
            "service-type",
            "on-active",
            "on-boot",
            "on-startup",
            "on-unit-active",
            "on-unit-inactive",
            "on-calendar",
            "timer-property",
            "path-property",
            "socket-property",
        ],
        0,
    ),
    argv("systemd-inhibit", "", &["what", "who", "why", "mode"], 0),
    argv(
        "numactl",
        "NmCipPw",
        &[
            "cpunodebind",
            "membind",
            "physcpubind",
            "interleave",
            "preferred",
        ],
        0,
    ),
    argv("torsocks", "uapP", &["user", "pass", "address", "port"], 0),
    argv("proxychains", "f", &[], 0),
    argv("proxychains4", "f", &[], 0),
    argv("faketime", "f", &[], 1),
    argv("fakeroot", "lsi", &["lib", "faked"], 0),
    argv("unbuffer", "", &[], 0),
    argv("rlwrap", "abCDefFHlOpPqsSt", &[], 0),
    argv("dbus-run-session", "", &["config-file", "dbus-daemon"], 0),
    argv(
        "xvfb-run",
        "nsfepw",
        &[
            "server-num",
            "server-args",
            "auth-file",
            "error-file",
            "xauth-protocol",
            "wait",
        ],
        0,
    ),
    argv("catchsegv", "", &[], 0),
    argv("caffeinate", "wt", &[], 0),
    argv("tsp", "LDWNE", &[], 0),
    argv("nq", "", &[], 0),
    Wrapper {
        script_opts: &["-s"],
        ..argv("entr", "", &[], 0)
    },
    argv("pkexec", "", &["user"], 0),
    argv("runas", "", &[], 0),
    argv("winpty", "", &[], 0),
    argv("sem", "jP", &["jobs", "id"], 0),
    // zsh's precommand modifiers, and `repeat N`.
    argv("noglob", "", &[], 0),
    argv("nocorrect", "", &[], 0),
    argv("repeat", "", &[], 1),
    Wrapper {
        script_opts: &["-c"],
        ..argv("emulate", "", &[], 1)
    },
    Wrapper {
        script_opts: &["-c", "--command"],
        ..argv(
            "script",
            "cEIOBTtm",
            &[
                "command",
                "echo",
                "log-in",
                "log-out",
                "log-io",
                "log-timing",
                "logging-format",
            ],
            0,
        )
    },
    Wrapper {
        script_opts: &["-c"],
        how: How::Joined,
        ..argv("sg", "", &[], 1)
    },
    Wrapper {
        how: How::Joined,
        ..argv("ssh", "BbcDEeFIiJLlmOopQRSWw", &[], 1)
    },
];

/// The row for `program`, if it is a wrapper.
pub fn wrapper(program: &str) -> Option<&'static Wrapper> {
    #[cfg(test)]
    if removed::is(program) {
        return None;
    }
    WRAPPERS.iter().find(|w| w.name == program)
}

/// Tests only: rows taken out of the table on this thread, to show that a
/// wrapper missing from it opens no hole (its commands are then presumed,
/// as those of any program hookc does not know).
#[cfg(test)]
pub mod removed {
    use std::cell::RefCell;

    thread_local! {
        static REMOVED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    }

    /// Run `f` with the wrapper `name` out of the table.
    pub fn without<T>(name: &str, f: impl FnOnce() -> T) -> T {
        REMOVED.with(|r| r.borrow_mut().push(name.to_owned()));
        let out = f();
        REMOVED.with(|r| r.borrow_mut().retain(|n| n != name));
        out
    }

    pub(super) fn is(name: &str) -> bool {
        REMOVED.with(|r| r.borrow().iter().any(|n| n == name))
    }
}

/// GNU tools as Homebrew installs them beside the system's own, with a `g`
/// in front (`grm`, `gtimeout`, `gxargs`): coreutils, findutils, grep,
/// sed, tar, time and which. Only names made this way are listed, so `git`,
/// `gcc` or `gzip` are never read as `it`, `cc` or `zip`.
const GNU: &[&str] = &[
    "[",
    "b2sum",
    "base32",
    "base64",
    "basename",
    "basenc",
    "cat",
    "chcon",
    "chgrp",
    "chmod",
    "chown",
    "chroot",
    "cksum",
    "comm",
    "cp",
    "csplit",
    "cut",
    "date",
    "dd",
    "df",
    "dir",
    "dircolors",
    "dirname",
    "du",
    "echo",
    "egrep",
    "env",
    "expand",
    "expr",
    "factor",
    "false",
    "fgrep",
    "find",
    "fmt",
    "fold",
    "grep",
    "groups",
    "head",
    "hostid",
    "id",
    "install",
    "join",
    "kill",
    "link",
    "ln",
    "locate",
    "logname",
    "ls",
    "md5sum",
    "mkdir",
    "mkfifo",
    "mknod",
    "mktemp",
    "mv",
    "nice",
    "nl",
    "nohup",
    "nproc",
    "numfmt",
    "od",
    "paste",
    "pathchk",
    "pinky",
    "pr",
    "printenv",
    "printf",
    "ptx",
    "pwd",
    "readlink",
    "realpath",
    "rm",
    "rmdir",
    "runcon",
    "sed",
    "seq",
    "sha1sum",
    "sha224sum",
    "sha256sum",
    "sha384sum",
    "sha512sum",
    "shred",
    "shuf",
    "sleep",
    "sort",
    "split",
    "stat",
    "stdbuf",
    "stty",
    "sum",
    "sync",
    "tac",
    "tail",
    "tar",
    "tee",
    "test",
    "time",
    "timeout",
    "touch",
    "tr",
    "true",
    "truncate",
    "tsort",
    "tty",
    "uname",
    "unexpand",
    "uniq",
    "unlink",
    "updatedb",
    "uptime",
    "users",
    "vdir",
    "wc",
    "which",
    "who",
    "whoami",
    "xargs",
    "yes",
];

/// The program a `g`-prefixed GNU name runs (`grm` is `rm`, `ggrep` is
/// `grep`), if `program` is one.
pub fn gnu_name(program: &str) -> Option<&'static str> {
    let stem = program.strip_prefix('g')?;
    GNU.iter().copied().find(|&n| n == stem)
}

/// Programs that are another program under a name of their own: `hub`
/// (GitHub's git wrapper, often aliased to `git`) passes every command it
/// does not add to git.
const OTHER_NAMES: &[(&str, &str)] = &[("hub", "git")];

/// Whether `program` runs its command as another user, whose home (and so
/// whose git and ssh settings) may not be the caller's: `sudo` sets `HOME`
/// to the target user's by default, `su -` and `runuser` start that user's
/// session, `gosu` and `su-exec` (in containers) set `HOME` to the user's,
/// `chpst -e` sets variables from files, and `chroot` makes another tree
/// the root, home and settings included.
pub fn changes_user(program: &str) -> bool {
    matches!(
        program,
        "sudo"
            | "doas"
            | "su"
            | "runuser"
            | "pkexec"
            | "gosu"
            | "su-exec"
            | "setpriv"
            | "chpst"
            | "setuidgid"
            | "s6-setuidgid"
            | "envuidgid"
            | "chroot"
    )
}

/// The program `program` is under another name: a `g`-named GNU tool, or
/// one of [`OTHER_NAMES`].
pub fn other_name(program: &str) -> Option<&'static str> {
    gnu_name(program).or_else(|| {
        OTHER_NAMES
            .iter()
            .find(|(name, _)| *name == program)
            .map(|(_, real)| *real)
    })
}

/// What an option gives a program to run on this machine, besides what it
/// runs by design: `ssh -o ProxyCommand=…`, `scp -S PROGRAM`, `rsync -e
/// 'ssh -p 2222'`, `man -P PAGER`.
#[derive(Debug, PartialEq, Eq)]
pub enum LocalRun<'a> {
    /// A command line it runs (through a shell, or split into words).
    Line(&'a str),
    /// A remote shell it runs with a host and the remote command appended
    /// (`rsync -e 'ssh -p 2222'`, `scp -S PROGRAM`).
    Shell(&'a str),
    /// A file of settings or code hookc does not read (`ssh -F FILE`, `-I
    /// LIBRARY`), as the reason the line is opaque.
    Unreadable(String),
}

/// The [`LocalRun`]s among `program`'s arguments.
pub fn local_runs<'a>(program: &str, args: &[&'a str]) -> Vec<LocalRun<'a>> {
    match program {
        "zip" => return zip_runs(args),
        "strace" | "ltrace" => return trace_runs(args),
        "split" => return long_option_runs(args, "--filter"),
        "sort" => return long_option_runs(args, "--compress-program"),
        "sdiff" | "diff3" => return long_option_runs(args, "--diff-program"),
        _ => {}
    }
    // Short options that take a value, and of them the ones that name a
    // program to run, a file of ssh settings and a library to load.
    let (valued, runs, settings, library): (&str, &str, &str, &str) = match program {
        "ssh" => ("BbcDEeFIiJLlmOopQRSWw", "", "F", "I"),
        "scp" => ("cFiJloPSX", "S", "F", ""),
        "rsync" => ("eBfMT", "e", "", ""),
        "man" => ("CLmMpPrRESeHX", "PH", "", ""),
        _ => return Vec::new(),
    };
    let long_runs: &[&str] = match program {
        "rsync" => &["--rsh"],
        "man" => &["--pager", "--html"],
        _ => &[],
    };
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(&w) = args.get(i) {
        i += 1;
        if w == "--" {
            break;
        }
        if let Some(long) = w.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            if long_runs.contains(&&*format!("--{name}")) {
                // `--html` alone opens the default browser.
                let value =
                    value.or_else(|| (name != "html").then(|| args.get(i).copied()).flatten());
                if value.is_some() && long.split_once('=').is_none() {
                    i += 1;
                }
                found.extend(value.map(if program == "man" {
                    LocalRun::Line
                } else {
                    LocalRun::Shell
                }));
            }
            continue;
        }
        let Some(flags) = w.strip_prefix('-').filter(|f| !f.is_empty()) else {
            continue;
        };
        for (at, letter) in flags.char_indices() {
            if !valued.contains(letter) {
                continue;
            }
            let attached = &flags[at + letter.len_utf8()..];
            let value = if attached.is_empty() {
                i += 1;
                args.get(i - 1).copied()
            } else {
                Some(attached)
            };
            let Some(value) = value else { break };
            if runs.contains(letter) && program != "man" {
                found.push(LocalRun::Shell(value));
            } else if runs.contains(letter) {
                found.push(LocalRun::Line(value));
            } else if settings.contains(letter) && !matches!(value, "/dev/null" | "none") {
                found.push(LocalRun::Unreadable(format!(
                    "{program} reading ssh settings from `{value}`, which may name commands to run"
                )));
            } else if library.contains(letter) {
                found.push(LocalRun::Unreadable(format!(
                    "{program} loading the library `{value}`"
                )));
            } else if letter == 'o' && matches!(program, "ssh" | "scp") {
                found.extend(ssh_option(program, value));
            }
            break;
        }
    }
    found
}

/// An ssh `-o` setting (`Key=value` or `Key value`, the key in any case)
/// that runs a command or loads code here.
fn ssh_option<'a>(program: &str, setting: &'a str) -> Option<LocalRun<'a>> {
    let setting = setting.trim_start();
    let split = setting.find(['=', ' ', '\t'])?;
    let (key, value) = setting.split_at(split);
    let value = value[1..].trim_start_matches(['=', ' ', '\t']);
    match key.to_ascii_lowercase().as_str() {
        "proxycommand" | "localcommand" | "knownhostscommand" if value != "none" => {
            Some(LocalRun::Line(value))
        }
        "pkcs11provider" | "securitykeyprovider" | "include" => Some(LocalRun::Unreadable(
            format!("{program} loading `{value}` ({key})"),
        )),
        _ => None,
    }
}

/// A language runtime that runs code given on its command line (or read
/// from standard input when it has no operand): `python -c`, `perl -e`.
#[derive(Debug)]
pub struct Interpreter {
    /// Program names; a trailing `*` matches versioned names (`python3.12`).
    pub names: &'static [&'static str],
    /// Options whose value is code, or words (`eval`) after which it is.
    pub code_opts: &'static [&'static str],
    /// With no script operand it reads its program from standard input.
    pub reads_stdin: bool,
}

pub const INTERPRETERS: &[Interpreter] = &[
    Interpreter {
        names: &["python*", "pypy*"],
        code_opts: &["-c"],
        reads_stdin: true,
    },
    Interpreter {
        names: &["perl*"],
        code_opts: &["-e", "-E"],
        reads_stdin: true,
    },
    Interpreter {
        names: &["node", "nodejs"],
        code_opts: &["-e", "-p", "--eval", "--print"],
        reads_stdin: true,
    },
    Interpreter {
        names: &["ruby*", "irb"],
        code_opts: &["-e"],
        reads_stdin: true,
    },
    Interpreter {
        names: &["php*"],
        code_opts: &["-r", "-B", "-R", "-E"],
        reads_stdin: true,
    },
    Interpreter {
        names: &["lua*", "luajit"],
        code_opts: &["-e"],
        reads_stdin: true,
    },
    Interpreter {
        names: &["Rscript", "R"],
        code_opts: &["-e"],
        reads_stdin: true,
    },
    Interpreter {
        names: &["osascript"],
        code_opts: &["-e"],
        reads_stdin: true,
    },
    Interpreter {
        names: &["deno", "bun"],
        code_opts: &["-e", "--eval", "eval"],
        reads_stdin: false,
    },
    Interpreter {
        names: &["tclsh*", "wish*", "expect"],
        code_opts: &["-c"],
        reads_stdin: true,
    },
    Interpreter {
        names: &["pwsh", "powershell", "powershell.exe"],
        code_opts: &["-c", "-Command", "-command", "-EncodedCommand", "-e", "-ec"],
        reads_stdin: false,
    },
];

/// The row for `program`, if it is a language runtime.
pub fn interpreter(program: &str) -> Option<&'static Interpreter> {
    INTERPRETERS.iter().find(|i| {
        i.names.iter().any(|n| match n.strip_suffix('*') {
            Some(stem) => {
                program.starts_with(stem)
                    && program[stem.len()..]
                        .chars()
                        .all(|c| c.is_ascii_digit() || c == '.')
            }
            None => program == *n,
        })
    })
}

/// awk's dialects: their program (the first operand, or `-e`/`--source`
/// values) runs commands only through `system(…)` and `|` pipes (which
/// include `|&` and `cmd | getline`).
pub const AWKS: &[&str] = &["awk", "gawk", "mawk", "nawk", "busybox-awk"];

/// Whether an awk program can run a command.
pub fn awk_runs_commands(program: &str) -> bool {
    program.contains("system") || program.contains('|')
}

/// The files an awk program opens itself, named by string literals:
/// `getline < "FILE"` reads one, `print > "FILE"` (`>>` too) writes one,
/// with `true` for a write. `None` when a name is not a literal (`getline <
/// f`, `print > $2`): it is known only when the program runs. A `>` inside
/// parentheses compares (`print ($3 > 5)`); outside them, in a statement
/// that prints, it redirects.
pub fn awk_files(program: &str) -> Option<Vec<(String, bool)>> {
    // The literal at the start of `rest` (after blanks), if it is one.
    fn literal(rest: &str) -> Option<String> {
        let body = rest.trim_start().strip_prefix('"')?;
        let end = body.find('"')?;
        let name = &body[..end];
        (!name.contains('\\')).then(|| name.to_owned())
    }
    // The operands themselves, changed by the code (`ARGV[1] = ".e" "nv"`):
    // awk reads whatever they hold when it runs.
    if program.contains("ARGV") || program.contains("ARGC") {
        return None;
    }
    let mut files = Vec::new();
    for (at, _) in program.match_indices("getline") {
        let after = program[at + "getline".len()..].trim_start();
        // `getline VAR < FILE`: past the variable's name.
        let after = after
            .trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
            .trim_start();
        if let Some(rest) = after.strip_prefix('<') {
            files.push((literal(rest)?, false));
        }
    }
    for statement in program.split([';', '{', '}', '\n']) {
        let Some((_, printed)) = statement.split_once("print") else {
            continue;
        };
        let (mut depth, mut quoted) = (0usize, false);
        for (k, c) in printed.char_indices() {
            match c {
                '"' => quoted = !quoted,
                '(' if !quoted => depth += 1,
                ')' if !quoted => depth = depth.saturating_sub(1),
                '>' if !quoted && depth == 0 => {
                    let rest = printed[k + 1..].trim_start_matches('>');
                    files.push((literal(rest)?, true));
                    break;
                }
                _ => {}
            }
        }
    }
    Some(files)
}

/// Whether a sed script can run a command: GNU sed's `e` command, or the `e`
/// flag of `s///`, runs the pattern space (or its argument) through a shell.
/// The script is scanned command by command as sed reads it; anything the
/// scan does not follow counts as able to run one.
pub fn sed_runs_commands(script: &str) -> bool {
    sed_files(script).is_none()
}

/// The files a sed script reads (`r FILE`, `R FILE`) and writes (`w FILE`,
/// `W FILE`, the `w FILE` flag of `s///`), with `true` for a write; `None`
/// when it can run a command (see [`sed_runs_commands`]).
pub fn sed_files(script: &str) -> Option<Vec<(String, bool)>> {
    let mut scan = SedScan {
        b: script.as_bytes(),
        i: 0,
        files: Vec::new(),
    };
    scan.runs_none()?;
    Some(scan.files)
}

/// A sed script read from `i` on, one command at a time. Each step returns
/// `None` as soon as a command may run one of its own (an `e`, or anything
/// the scan does not follow), so `?` carries that answer out.
struct SedScan<'a> {
    b: &'a [u8],
    i: usize,
    /// The files named so far, `true` for a write.
    files: Vec<(String, bool)>,
}

impl SedScan<'_> {
    /// `Some` when no command in the script runs a command.
    fn runs_none(&mut self) -> Option<()> {
        while self.i < self.b.len() {
            self.skip_while(|c| matches!(c, b' ' | b'\t' | b'\n' | b';' | b'{' | b'}'));
            self.addresses()?;
            self.skip_while(|c| matches!(c, b' ' | b'!'));
            let Some(&command) = self.b.get(self.i) else {
                break;
            };
            self.i += 1;
            self.command(command)?;
        }
        Some(())
    }

    fn skip_while(&mut self, skip: impl Fn(u8) -> bool) {
        while self.i < self.b.len() && skip(self.b[self.i]) {
            self.i += 1;
        }
    }

    /// Up to two addresses (`3`, `$`, `1~2`, `/re/`, `\cREc`, with the `I`
    /// and `M` flags), separated by a comma.
    fn addresses(&mut self) -> Option<()> {
        for _ in 0..2 {
            match self.b.get(self.i) {
                Some(b'0'..=b'9' | b'$') => {
                    self.skip_while(|c| c.is_ascii_digit() || matches!(c, b'$' | b'~' | b'+'));
                }
                Some(b'/') => self.i = self.regex_end(self.i + 1, b'/')?,
                Some(b'\\') if self.i + 1 < self.b.len() => {
                    self.i = self.regex_end(self.i + 2, self.b[self.i + 1])?;
                }
                _ => {}
            }
            self.skip_while(|c| matches!(c, b'I' | b'M'));
            if self.b.get(self.i) == Some(&b',') {
                self.i += 1;
            } else {
                break;
            }
        }
        Some(())
    }

    /// Just past the `delim` that ends a regex starting at `from`, skipping
    /// escaped characters; `None` when it does not end.
    fn regex_end(&self, from: usize, delim: u8) -> Option<usize> {
        let b = self.b;
        let mut j = from;
        while j < b.len() {
            match b[j] {
                b'\\' => j += 2,
                c if c == delim => return Some(j + 1),
                _ => j += 1,
            }
        }
        None
    }

    /// To the end of the line.
    fn skip_line(&mut self) {
        self.i = self.b[self.i..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(self.b.len(), |p| self.i + p);
    }

    /// The rest of the line, a file name (after blanks), which the command
    /// reads or writes.
    fn file(&mut self, write: bool) {
        let from = self.i;
        self.skip_line();
        let name = String::from_utf8_lossy(&self.b[from..self.i]);
        let name = name.trim_start_matches([' ', '\t']);
        if !name.is_empty() {
            self.files.push((name.to_owned(), write));
        }
    }

    /// The command letter just read, and its arguments.
    fn command(&mut self, command: u8) -> Option<()> {
        match command {
            b'e' => return None,
            b's' | b'y' => self.substitution(command)?,
            // A file name: the rest of the line.
            b'r' | b'R' => self.file(false),
            b'w' | b'W' => self.file(true),
            // Text or a comment: the rest of the line.
            b'a' | b'i' | b'c' | b'#' => self.skip_line(),
            // A label: up to `;` or the line's end.
            b':' | b'b' | b't' | b'T' => self.skip_while(|c| !matches!(c, b';' | b'\n')),
            // `q`/`Q`/`l` may take a number.
            b'}' | b'{' | b'=' | b'd' | b'D' | b'g' | b'G' | b'h' | b'H' | b'l' | b'n' | b'N'
            | b'p' | b'P' | b'q' | b'Q' | b'x' | b'z' | b'F' => {
                self.skip_while(|c| c.is_ascii_digit());
            }
            _ => return None,
        }
        Some(())
    }

    /// `s/re/text/flags` or `y/abc/xyz/` after its letter. Of the flags,
    /// `e` runs the result and `w FILE` takes the rest of the line.
    fn substitution(&mut self, command: u8) -> Option<()> {
        let delim = *self.b.get(self.i)?;
        let mid = self.regex_end(self.i + 1, delim)?;
        self.i = self.regex_end(mid, delim)?;
        if command == b's' {
            while self.i < self.b.len() && !matches!(self.b[self.i], b';' | b'\n' | b'}') {
                match self.b[self.i] {
                    b'e' => return None,
                    b'w' => {
                        self.i += 1;
                        self.file(true);
                    }
                    _ => self.i += 1,
                }
            }
        }
        Some(())
    }
}

/// Variables whose value a program runs as a shell command: the value is a
/// script of its own.
pub const COMMAND_VARIABLES: &[&str] = &[
    "PROMPT_COMMAND",
    "GIT_SSH_COMMAND",
    "GIT_PAGER",
    "PAGER",
    "GIT_EDITOR",
    "EDITOR",
    "VISUAL",
    "GIT_SEQUENCE_EDITOR",
    "GIT_EXTERNAL_DIFF",
    "GIT_ASKPASS",
    "GIT_PROXY_COMMAND",
    "SSH_ASKPASS",
    "MANPAGER",
    "LESSOPEN",
    "LESSCLOSE",
];

/// Variables that change which code runs without naming a command: a file
/// the shell sources (`BASH_ENV`, `ENV`), a prompt the shell expands (`PS4`
/// under `set -x`), what is loaded into every process (`LD_PRELOAD`), git's
/// own configuration, the program npm runs its scripts with, bash's tables
/// of the file each name runs and of aliases (`BASH_CMDS[ls]=/bin/rm`, then
/// `ls -rf .` runs rm), zsh's (`functions[ls]='rm -rf .'`, `fpath`), and
/// where the user's settings are found (`HOME`). Setting one makes the
/// line opaque; its value is still read for the substitutions the shell
/// will expand in it.
///
/// `PATH` is not one: it changes which file a name runs, never the name a
/// guard matches (`git` is `git` wherever it is found). A file the line
/// itself puts there under another name is opaque (the `written`
/// module); one put there by an earlier call is a program the
/// agent wrote, which no guard of a single line can see. The interactive
/// prompts (`PS0`–`PS3`) are never shown where a hook's line runs; their
/// substitutions are read like any other.
pub fn changes_what_runs(name: &str) -> bool {
    matches!(
        name,
        "BASH_ENV"
            | "ENV"
            | "PS4"
            | "LD_PRELOAD"
            | "LD_LIBRARY_PATH"
            | "LD_AUDIT"
            | "DYLD_INSERT_LIBRARIES"
            | "GIT_EXEC_PATH"
            | "GIT_SSH"
            | "GIT_DIR"
            | "GIT_COMMON_DIR"
            | "GIT_WORK_TREE"
            // Lets git run the program an `ext::` URL names.
            | "GIT_ALLOW_PROTOCOL"
            | "GIT_TEMPLATE_DIR"
            | "GIT_CONFIG"
            | "GIT_CONFIG_GLOBAL"
            | "GIT_CONFIG_SYSTEM"
            | "GIT_CONFIG_PARAMETERS"
            | "GIT_CONFIG_COUNT"
            // Commits git reads as others: a push that is not a fast
            // forward passes for one.
            | "GIT_REPLACE_REF_BASE"
            | "GIT_GRAFT_FILE"
            | "BASH_FUNC_"
            | "BASH_CMDS"
            | "BASH_ALIASES"
            // zsh's tables (the zsh/parameter module): setting an element
            // defines a function, an alias or the file a name runs.
            | "functions"
            | "commands"
            | "aliases"
            | "galiases"
            | "saliases"
            | "options"
            | "fpath"
            | "FPATH"
            | "SHELLOPTS"
            | "BASHOPTS"
            | "IFS"
            // Where git and ssh find the user's settings, which hookc reads
            // where the call runs (`HOME=/tmp/x git st`: an alias there).
            | "HOME"
            | "XDG_CONFIG_HOME"
    ) || NPM_SETTINGS_VARS
        .iter()
        .any(|v| name.eq_ignore_ascii_case(v))
        || name.starts_with("GIT_CONFIG_KEY_")
        || name.starts_with("GIT_CONFIG_VALUE_")
        || name.starts_with("BASH_FUNC_")
}

/// `zip -TT CMD` and `--unzip-command CMD`: the command zip runs to test
/// the archive it wrote.
fn zip_runs<'a>(args: &[&'a str]) -> Vec<LocalRun<'a>> {
    let mut found = Vec::new();
    for (k, w) in args.iter().enumerate() {
        if *w == "--" {
            break;
        }
        if let Some(value) = w.strip_prefix("--unzip-command=") {
            found.push(LocalRun::Line(value));
        } else if matches!(*w, "-TT" | "--unzip-command") {
            found.extend(args.get(k + 1).map(|v| LocalRun::Line(v)));
        }
    }
    found
}

/// The value of a long option that names a command or a program to run
/// (`split --filter=CMD`, `sort --compress-program=PROG`, `sdiff
/// --diff-program=PROG`), spelled in full or abbreviated as GNU programs
/// accept (`--filt`).
fn long_option_runs<'a>(args: &[&'a str], option: &str) -> Vec<LocalRun<'a>> {
    let mut found = Vec::new();
    let mut k = 0;
    while let Some(&w) = args.get(k) {
        k += 1;
        if w == "--" {
            break;
        }
        let Some(long) = w.strip_prefix("--").filter(|l| !l.is_empty()) else {
            continue;
        };
        let (name, value) = match long.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (long, None),
        };
        if name.is_empty() || !option[2..].starts_with(name) {
            continue;
        }
        let value = value.or_else(|| {
            k += 1;
            args.get(k - 1).copied()
        });
        found.extend(value.map(LocalRun::Line));
    }
    found
}

/// `strace -o '|CMD'` (or `!CMD`, `--output=|CMD`): the output piped to a
/// command, which strace runs through a shell.
fn trace_runs<'a>(args: &[&'a str]) -> Vec<LocalRun<'a>> {
    let mut found = Vec::new();
    let mut k = 0;
    while let Some(&w) = args.get(k) {
        k += 1;
        // The traced command starts at the first operand.
        if w == "--" || !w.starts_with('-') {
            break;
        }
        let value = if let Some(v) = w.strip_prefix("--output=") {
            Some(v)
        } else if w == "--output" || w == "-o" {
            k += 1;
            args.get(k - 1).copied()
        } else {
            w.strip_prefix("-o").filter(|v| !v.is_empty())
        };
        if let Some(line) = value.and_then(|v| v.strip_prefix(['|', '!'])) {
            found.push(LocalRun::Line(line));
        }
    }
    found
}

/// Whether `NODE_OPTIONS=value` holds only options that change how node
/// runs, never what: a memory limit, warnings, source maps, the TLS and DNS
/// defaults. Any other (`--require`, `--import=data:…`, `--loader`, a
/// quoted word, a value known only when the line runs) may load code into
/// every node process of the line.
pub fn harmless_node_options(value: &str) -> bool {
    const HARMLESS: &[&str] = &[
        "--max-old-space-size",
        "--max-semi-space-size",
        "--max-http-header-size",
        "--stack-trace-limit",
        "--enable-source-maps",
        "--no-warnings",
        "--no-deprecation",
        "--trace-warnings",
        "--trace-deprecation",
        "--trace-uncaught",
        "--unhandled-rejections",
        "--openssl-legacy-provider",
        "--use-openssl-ca",
        "--use-bundled-ca",
        "--dns-result-order",
        "--experimental-vm-modules",
        "--disable-warning",
        "--heapsnapshot-near-heap-limit",
    ];
    value.split_whitespace().all(|option| {
        let name = option.split_once('=').map_or(option, |(n, _)| n);
        HARMLESS.contains(&name) && !option.contains(['$', '`', '"', '\'', '\\'])
    })
}

/// The variables npm, pnpm and yarn read (in any case) for the program
/// that runs their scripts, or for the settings files that name it.
const NPM_SETTINGS_VARS: &[&str] = &[
    "npm_config_script_shell",
    "npm_config_userconfig",
    "npm_config_globalconfig",
    "yarn_script_shell",
];

/// Options that take a value, for commands whose options guards name: the
/// value of `git commit -m` is a message, not an option, and `-ofoo` is
/// `push -o foo`, not `-f`. Per git subcommand: short options, long options.
const GIT_VALUE_OPTIONS: &[(&str, &str, &[&str])] = &[
    (
        "commit",
        "mFCct",
        &[
            "message",
            "file",
            "reuse-message",
            "reedit-message",
            "template",
            "author",
            "date",
            "cleanup",
            "fixup",
            "squash",
            "trailer",
        ],
    ),
    (
        "push",
        "o",
        &["push-option", "repo", "receive-pack", "exec"],
    ),
    ("tag", "mFu", &["message", "file", "local-user", "cleanup"]),
    (
        "merge",
        "mFsX",
        &["message", "file", "strategy", "strategy-option", "cleanup"],
    ),
    (
        "pull",
        "sX",
        &["strategy", "strategy-option", "upload-pack"],
    ),
    (
        "rebase",
        "sXx",
        &["strategy", "strategy-option", "exec", "onto"],
    ),
    (
        "cherry-pick",
        "mX",
        &["mainline", "strategy", "strategy-option"],
    ),
    ("revert", "mX", &["mainline", "strategy", "strategy-option"]),
    ("stash", "m", &["message"]),
    ("checkout", "bB", &[]),
    ("switch", "cC", &["create", "force-create"]),
    (
        "clone",
        "obcuj",
        &[
            "origin",
            "branch",
            "config",
            "upload-pack",
            "jobs",
            "depth",
            "reference",
        ],
    ),
    (
        "log",
        "n",
        &["max-count", "author", "grep", "since", "until"],
    ),
];

/// The short and long options of `program args…` that take a value, as far
/// as hookc knows them (nothing for other programs).
pub fn value_options(program: &str, args: &[String]) -> (&'static str, &'static [&'static str]) {
    if program != "git" {
        return ("", &[]);
    }
    let sub = args.iter().find(|a| !a.starts_with('-'));
    GIT_VALUE_OPTIONS
        .iter()
        .find(|(name, _, _)| sub.is_some_and(|s| s == name))
        .map_or(("", &[]), |(_, short, long)| (*short, *long))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_an_option_runs_here_is_read_as_a_line() {
        let runs = |line: &str, program: &str| {
            crate::shell::analyze(line)
                .commands
                .iter()
                .any(|c| c.program == program)
        };
        for (line, program) in [
            ("ssh -o ProxyCommand='git push -f' host true", "git"),
            ("ssh -oProxyCommand='rm -rf .' host", "rm"),
            ("ssh -o 'proxycommand rm -rf .' host", "rm"),
            (
                "ssh -o LocalCommand='rm -rf .' -o PermitLocalCommand=yes host",
                "rm",
            ),
            ("scp -o ProxyCommand='rm -rf .' x host:y", "rm"),
            ("scp -S ./evil x host:y", "evil"),
            ("rsync -e 'sh -c \"git push -f\"' x host:y", "git"),
            ("rsync --rsh='rm -rf .' x host:y", "rm"),
            ("rsync -avz --rsh 'rm -rf .' x host:y", "rm"),
            ("man -P 'rm -rf .' ls", "rm"),
            ("man --pager='git push -f' ls", "git"),
            ("ssh -o ProxyCommand='ssh -W %h:%p bastion' host", "ssh"),
            ("strace -o '|git push -f #' true", "git"),
            ("strace -f --output='!rm -rf .' true", "rm"),
            ("ltrace -o'|rm -rf .' true", "rm"),
            ("zip -T -TT 'rm -rf . #' x.zip README.md", "rm"),
            ("zip --unzip-command='rm -rf .' x.zip README.md", "rm"),
            ("split --filter='rm -rf .' README.md", "rm"),
            ("split -n1 --filt 'git push -f' README.md", "git"),
            ("sort --compress-program=sh x", "sh"),
            ("sdiff --diff-prog=./evil a b", "evil"),
            ("diff3 --diff-program ./evil a b c", "evil"),
            ("tar --checkpoint-act=exec='rm -rf .' -cf x .", "rm"),
            ("tar --checkpoint-action 'exec=rm -rf .' -cf x .", "rm"),
            ("TAR_OPTIONS='--to-command=rm\\ -rf\\ .' tar xf x.tar", "rm"),
            ("GIT_PROXY_COMMAND='rm -rf .' git fetch git://h/r", "rm"),
        ] {
            assert!(
                runs(line, program),
                "{line:?} runs {program}: {:?}",
                crate::shell::analyze(line).commands
            );
        }
        for line in [
            "ssh -F ./ssh_config host",
            "ssh -I ./evil.so host",
            "ssh -o PKCS11Provider=./evil.so host",
            "scp -F cfg x host:y",
            "ssh -o ProxyCommand=\"$P\" host",
            "ssh -oUser=W host",
            "tar cIf 'rm -rf .' x.tar src",
            "NODE_OPTIONS=\"--import=data:text/javascript,x\" node -e 1",
            "export NODE_OPTIONS='--require ./x.js'; node -e 1",
            "GIT_COMMON_DIR=../other/.git git st",
            "GIT_ALLOW_PROTOCOL=ext git ls-remote origin",
        ] {
            assert!(
                crate::shell::analyze(line).is_opaque(),
                "{line:?} should be opaque"
            );
        }
        for line in [
            "ssh -F /dev/null host true",
            "ssh -o StrictHostKeyChecking=no -p 2222 host true",
            "ssh -o ProxyCommand='ssh -W %h:%p bastion' host true",
            "ssh -fN -L 8080:localhost:80 host",
            "rsync -avz -e 'ssh -p 2222' x host:y",
            "man -k printf",
            "strace -f -o trace.log make",
            "zip -r x.zip src",
            "tar czf src.tgz src",
            "NODE_OPTIONS='--max-old-space-size=4096 --enable-source-maps' npm test",
        ] {
            assert!(!crate::shell::analyze(line).is_opaque(), "{line:?} is read");
        }
    }

    /// git options whose value is a command git starts here (each checked
    /// with git 2.x, forcing a push), and URLs of its `ext::` transport.
    #[test]
    fn a_command_a_git_option_names_is_read_as_a_line() {
        let pushes = |line: &str| {
            crate::shell::analyze(line).commands.iter().any(|c| {
                c.program == "git"
                    && c.args.first().is_some_and(|a| a == "push")
                    && c.args.iter().any(|a| a == "-f" || a == "--force")
            })
        };
        for line in [
            "git push --receive-pack='git push -f; git-receive-pack' origin main",
            "git push --exec='git push -f' origin main",
            "git push --rec 'git push -f' origin main",
            "git send-pack --exec='git push -f' ../x.git main",
            "git ls-remote --upload-pack='git push -f; git-upload-pack' origin",
            "git fetch --upload-pack='git push -f' origin",
            "git pull --upload-p='git push -f' origin main",
            "git clone -u 'git push -f' ../x.git ../c",
            "git clone -quCMD ../x.git ../c; git clone -qu'git push -f' ../x.git ../c",
            "git fetch-pack --exec='git push -f' ../x.git",
            "git archive --remote=origin --exec='git push -f' main",
            "git difftool -y -x 'git push -f #' HEAD~1",
            "git difftool --extcmd='git push -f #' HEAD~1",
            "git grep -O'git push -f #' hi",
            "git ls-remote 'ext::sh -c git% push% -f'",
            "git clone -- 'ext::git push -f %G/repo' ../c",
            // A mirror push, and the plumbing under push, are pushes.
            "git push --mirror origin",
            "git push --mirr origin",
            "git send-pack --force ../x.git main",
        ] {
            assert!(
                pushes(line),
                "{line:?}: {:?}",
                crate::shell::analyze(line).commands
            );
        }
        for line in [
            "git push origin main",
            "git clone -o upstream ../x.git ../c",
            "git grep -O hi",
            "git grep -e -Ox hi",
            "git log -- --exec=x",
            "git push --mirror-x origin",
        ] {
            assert!(!pushes(line), "{line:?}");
        }
    }

    #[test]
    fn every_wrapper_is_listed_once() {
        let mut names: Vec<&str> = WRAPPERS.iter().map(|w| w.name).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len());
    }

    #[test]
    fn interpreters_match_versioned_names_only() {
        assert!(interpreter("python3.12").is_some());
        assert!(interpreter("python").is_some());
        assert!(interpreter("perl5.36").is_some());
        assert!(interpreter("pythonista").is_none());
        assert!(interpreter("perlcritic").is_none());
        assert!(interpreter("nodemon").is_none());
    }

    #[test]
    fn sed_scripts_that_run_commands() {
        for runs in [
            "e",
            "1e rm -rf build",
            "s/x/rm -rf build/e",
            "s|a|b|ge",
            "/foo/e",
            "$!{s/a/b/;e}",
            "s/unterminated",
            "v",
        ] {
            assert!(sed_runs_commands(runs), "{runs:?}");
        }
        for data in [
            "s/foo/bar/",
            "s/hello/there/g",
            "s/e/E/g",
            "/e/d",
            "1,/^end$/p",
            "s/a/b/;s/c/d/w out.txt",
            "y/abc/xyz/",
            "$a\\\nappended e",
            ":top;s/ee/e/;t top",
            "10q",
            "s/\\/e/x/",
        ] {
            assert!(!sed_runs_commands(data), "{data:?}");
        }
    }
}
