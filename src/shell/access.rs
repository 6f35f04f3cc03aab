//! Which files a shell command reads and writes.
//!
//! A `path` guard asks of a shell call the question it asks of a read or
//! write tool: which files does this touch, and how? [`touches`] answers it
//! for an [`Analysis`], from one table ([`ROWS`]) that says, for common
//! programs, which operands and option values are files read, written, or
//! both, and which are not files at all (a grep pattern, a tar `--exclude`).
//! Redirections count too (`<` reads, `>` writes, `<>` both).
//!
//! The rules err towards matching:
//!
//! * a program not in the table reads every operand that looks like a path;
//! * a glob operand (`.env*`, `.en?`, `{a,b}`) stands for every name it could
//!   expand to ([`could_name`]), with the shell's rule that a wildcard does
//!   not match a leading dot;
//! * after `cd DIR` a relative path is counted both from `DIR` and from
//!   where the line started (a `cd` in a subshell ends with it);
//! * an interpreter's script is read, and every quoted string in code given
//!   on its command line that looks like a path is read and written.
//!
//! Symbolic links are not resolved here: the guard resolves each path on
//! the machine where the call runs (see `eval`), so a link to `.env` is `.env`.

use super::normalize::{Analysis, SimpleCommand};
pub use super::pattern::MAX_GLOB_BYTES;
use super::pattern::glob_matches;
use super::{programs, runners};
use runtime::Place;

pub mod runtime;

/// How a command touches a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Access {
    Read,
    Write,
    /// Read and written (`sed -i`, `<>`, the source of `mv`).
    Both,
}

impl Access {
    pub fn reads(self) -> bool {
        matches!(self, Access::Read | Access::Both)
    }

    pub fn writes(self) -> bool {
        matches!(self, Access::Write | Access::Both)
    }
}

/// What an operand or option value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Read,
    Write,
    Both,
    /// Not a file: a pattern, a script, a mode, a URL, a count.
    Not,
}

impl Role {
    fn access(self) -> Option<Access> {
        match self {
            Role::Read => Some(Access::Read),
            Role::Write => Some(Access::Write),
            Role::Both => Some(Access::Both),
            Role::Not => None,
        }
    }
}

/// How a glob operand expands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Expansion {
    /// Wildcards match a leading dot (find, Gemini's globs); the shell's do not.
    pub dot: bool,
    /// Letters match either case (Gemini's globs).
    pub nocase: bool,
}

/// One file (or, for a glob, every file it could name) a call touches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Touch {
    pub path: String,
    pub access: Access,
    /// `Some` when `path` is a glob, expanded this way.
    pub glob: Option<Expansion>,
    /// What the glob names on disk where the call runs decides, not every
    /// name it could take: the files below a directory a program reads
    /// recursively (`grep -r x src/` is `src/**`, dotfiles included). A
    /// file the line itself would put there first has to be read or moved
    /// from somewhere, which is a touch of its own.
    pub on_disk: bool,
    /// With `on_disk`: names the program leaves out (`--exclude .env`),
    /// as globs matched against each file's name.
    pub except: Vec<String>,
    /// A write that changes every file below `path` when it names a
    /// directory: deleting or moving it, changing its mode or owner,
    /// copying into it. A guard on any file below is touched, so `rm -rf
    /// ..`, `mv . ../old` and `chmod -R 000 .` reach `.hookc/policy.json`.
    /// Every write is taken so unless it is known to touch the path
    /// alone (a redirection, `touch`, `mkdir`): a directory is only
    /// opened for writing by a program that means to change what is in it.
    pub tree: bool,
    /// `Some(word)` when the file is named by a word whose value is known
    /// only when the line runs (`$f`, `$(ls)`, a name `xargs` reads): it
    /// may be any file, so a path guard refuses it ([`runtime`]).
    pub runtime: Option<String>,
    /// `Some` when `path` starts with the word of a place the guard finds
    /// out where it runs (`$PWD/x`), which the evaluator puts in its stead.
    pub place: Option<runtime::Place>,
    /// With `on_disk`: the names reach the program through `xargs`, which
    /// splits them, so a name with a blank, a quote or a backslash may be
    /// any file (see `SimpleCommand::found_split`).
    pub split: bool,
    /// `Some` when a program hookc does not know may touch the file by
    /// running its arguments: that program, and the reading of them that
    /// names the file (see `shell::unknown::touches`).
    pub presumed: Option<Box<(String, String)>>,
}

impl Touch {
    fn new(path: &str, access: Access) -> Touch {
        let glob = is_glob(path).then_some(Expansion::default());
        Touch {
            path: path.to_owned(),
            access,
            glob,
            on_disk: false,
            except: Vec::new(),
            tree: access.writes(),
            runtime: None,
            place: None,
            split: false,
            presumed: None,
        }
    }

    /// The one file `path` names as it is written (no glob, nothing below
    /// it): a file tool's path, a file git names.
    pub fn file(path: &str, access: Access) -> Touch {
        Touch {
            glob: None,
            tree: false,
            ..Touch::new(path, access)
        }
    }

    /// A write of `path` itself, not of what a directory there holds.
    fn leaf(path: &str, access: Access) -> Touch {
        Touch {
            tree: false,
            ..Touch::new(path, access)
        }
    }

    /// Every file below the directory `path` (if it is one), read, but
    /// those named by `except`.
    fn below(path: &str, except: &[String]) -> Touch {
        let dir = path.trim_end_matches('/');
        Touch {
            path: match dir {
                "" if path.starts_with('/') => "/**".to_owned(),
                "" | "." => "**".to_owned(),
                dir => format!("{dir}/**"),
            },
            access: Access::Read,
            glob: Some(Expansion {
                dot: true,
                nocase: false,
            }),
            on_disk: true,
            except: except.to_vec(),
            tree: false,
            runtime: None,
            place: None,
            split: false,
            presumed: None,
        }
    }
}

/// The names a recursive reader leaves out: `--exclude P`, `--exclude=P`
/// (grep, tar, rsync), `--exclude-dir` (grep), `-x P` (zip).
fn exclusions(cmd: &SimpleCommand) -> Vec<String> {
    let mut out = Vec::new();
    let mut args = cmd.args.iter();
    while let Some(a) = args.next() {
        if let Some(v) = a
            .strip_prefix("--exclude=")
            .or_else(|| a.strip_prefix("--exclude-dir="))
        {
            out.push(v.to_owned());
        } else if matches!(a.as_str(), "--exclude" | "--exclude-dir")
            || (a == "-x" && cmd.program == "zip")
        {
            out.extend(args.next().cloned());
        }
    }
    out
}

/// Whether `cmd` reads the directories among its operands recursively, and
/// what it reads when it names none (the working directory). Searchers that
/// skip hidden files by default (`rg`, `ag`) count only when told not to:
/// a secret file is hidden (`.env`).
fn recursion(cmd: &SimpleCommand) -> Option<bool> {
    let flag = |short: char, long: &[&str]| {
        cmd.args.iter().take_while(|a| *a != "--").any(|a| {
            long.contains(&a.as_str())
                || (a.starts_with('-') && !a.starts_with("--") && a[1..].contains(short))
        })
    };
    match cmd.program.as_str() {
        // `-d recurse` (`--directories=recurse`) is `-r`.
        // `rgrep` is `grep -r`.
        "rgrep" => Some(true),
        "grep" | "egrep" | "fgrep" | "zgrep" | "ugrep" | "pcregrep" => {
            (flag('r', &["--recursive"])
                || flag('R', &["--dereference-recursive"])
                || cmd.args.iter().any(|a| a == "--directories=recurse")
                || cmd
                    .args
                    .windows(2)
                    .any(|w| matches!(w[0].as_str(), "-d" | "--directories") && w[1] == "recurse")
                || cmd.args.iter().any(|a| a == "-drecurse"))
            .then_some(true)
        }
        // rg searches hidden files with `-uu` (two `-u`s, in one word or
        // two); ag with one.
        "rg" | "ag" => {
            let us: usize = cmd
                .args
                .iter()
                .take_while(|a| *a != "--")
                .filter(|a| a.starts_with('-') && !a.starts_with("--"))
                .map(|a| a.matches('u').count())
                .sum::<usize>()
                + cmd.args.iter().filter(|a| *a == "--unrestricted").count();
            let needed = if cmd.program == "ag" { 1 } else { 2 };
            (flag('.', &["--hidden"]) || us >= needed).then_some(true)
        }
        // Two directories compared without `-r` are compared file by file
        // (hidden ones too) at their top level: counted as read through.
        "diff" | "colordiff" | "gdiff" | "sdiff" => Some(false),
        // Archivers that take in a whole directory named to them.
        "jar" | "gpgtar" | "ptar" => Some(false),
        p if COMPRESSORS.contains(&p) || LZ4.contains(&p) => {
            flag('r', &["--recursive"]).then_some(false)
        }
        "ack" => Some(true),
        "cp" => (flag('r', &["--recursive", "--archive"]) || flag('R', &[]) || flag('a', &[]))
            .then_some(false),
        "rsync" => (flag('r', &["--recursive", "--archive"]) || flag('a', &[])).then_some(false),
        "scp" => flag('r', &[]).then_some(false),
        "zip" => flag('r', &["--recurse-paths"]).then_some(false),
        // Creating, appending or updating an archive reads directories
        // recursively; listing or extracting one reads the archive only.
        "tar" | "gtar" | "bsdtar" => {
            let first = cmd.args.first().filter(|a| !a.starts_with('-'));
            let creates = first.is_some_and(|a| a.contains(['c', 'r', 'u']))
                || flag('c', &["--create", "--append", "--update"])
                || flag('r', &[])
                || flag('u', &[]);
            (creates && !cmd.args.iter().any(|a| a == "--no-recursion")).then_some(false)
        }
        _ => None,
    }
}

/// Compressors, and the names they are installed under too (`zstdmt`,
/// `pzstd`): each takes `-c` to write to standard output, and `-r` to go
/// through directories.
const COMPRESSORS: &[&str] = &[
    "gzip",
    "gunzip",
    "pigz",
    "unpigz",
    "bzip2",
    "bunzip2",
    "pbzip2",
    "lbzip2",
    "xz",
    "unxz",
    "pixz",
    "lzma",
    "unlzma",
    "zstd",
    "unzstd",
    "zstdmt",
    "pzstd",
    "lzip",
    "plzip",
    "compress",
    "uncompress",
    "brotli",
];

/// lz4 under each of its names.
const LZ4: &[&str] = &["lz4", "lz4c", "unlz4"];

/// What a program's operands (its words that are not options) are.
#[derive(Clone, Copy)]
pub enum Operands {
    /// Every operand has this role.
    All(Role),
    /// The first operand is not a file (a pattern, a script, a mode), unless
    /// one of these options gave it; the rest have the role.
    AfterFirst(Role, &'static [&'static str]),
    /// Sources have the role, the last operand is written, unless `-t DIR`
    /// (`--target-directory`) named the destination.
    Copies(Role),
    /// Operands that look like paths are read (a program not in the table).
    PathLike,
    /// Parsed by a function of its own.
    Custom(fn(&SimpleCommand, &mut Vec<Touch>)),
}

/// One row of the table: programs that treat their words alike.
pub struct Row {
    pub programs: &'static [&'static str],
    pub operands: Operands,
    /// Options that take a value (`-f FILE`, `--file=FILE`), and the value's
    /// role. An option is listed only where every program of the row takes
    /// a value after it (or has no such option and stops): one that a
    /// program of the row takes as a flag would hide the file after it
    /// (`cat -n .env`). Unlisted, the next word is an operand, which errs
    /// towards a file.
    pub values: &'static [(&'static str, Role)],
    /// Flags that give every file operand another role (`sed -i`: both).
    /// A short one ends its cluster (`-i.bak`: the rest is a suffix).
    pub modes: &'static [(&'static str, Role)],
}

const fn row(programs: &'static [&'static str], operands: Operands) -> Row {
    Row {
        programs,
        operands,
        values: &[],
        modes: &[],
    }
}

use Operands::{AfterFirst, All, Copies, Custom};
use Role::{Both, Not, Read, Write};

/// Values of search tools' options that are names or patterns, not files.
const SEARCH_VALUES: &[(&str, Role)] = &[
    ("-e", Not),
    ("--regexp", Not),
    ("-f", Read),
    ("--file", Read),
    ("--exclude", Not),
    ("--include", Not),
    ("--exclude-dir", Not),
    ("--include-dir", Not),
    ("--exclude-from", Read),
    ("--ignore-file", Read),
    ("-g", Not),
    ("--glob", Not),
    ("--iglob", Not),
    // Not `-t` (ag's `--all-text`), `-T` (grep's `--initial-tab`), `-C`
    // and `--context` (ack's, ag's and ugrep's take their count attached
    // or not at all), `--color` (grep's value is optional, ag's a flag),
    // `-D` (ag's `--debug`), `-M` (pcregrep's multiline), `-j` (ugrep's
    // smart case): there the next word is a pattern or a file.
    ("--type", Not),
    ("--type-not", Not),
    ("-m", Not),
    ("--max-count", Not),
    ("-A", Not),
    ("-B", Not),
    ("-d", Not),
    ("--replace", Not),
    ("--threads", Not),
    ("--max-depth", Not),
    ("--label", Not),
];

const COPY_VALUES: &[(&str, Role)] = &[
    // The destination directory: see [`copies`].
    ("-t", Not),
    ("--target-directory", Not),
    ("-S", Not),
    ("--suffix", Not),
    ("-m", Not),
    ("--mode", Not),
    ("-o", Not),
    ("--owner", Not),
    ("-g", Not),
    ("--group", Not),
    // Not `--reflink` or `--backup`: their value can only be attached
    // (`--backup=numbered`), so the next word is a file.
    ("--sparse", Not),
];

const SYNC_VALUES: &[(&str, Role)] = &[
    ("--exclude", Not),
    ("--include", Not),
    ("--filter", Not),
    ("-f", Not),
    ("--exclude-from", Read),
    ("--include-from", Read),
    ("--files-from", Read),
    ("--password-file", Read),
    ("-e", Not),
    ("--rsh", Not),
    ("-i", Read),
    ("-F", Read),
    // Not `-P`, `-o`, `-l`, `-c` or `-S`: scp's values, rsync's flags
    // (`rsync -P .env host:` copies `.env`). scp's `-T` is a flag and
    // rsync's `--temp-dir`: the next word is read, or written.
    ("-J", Not),
    ("--chmod", Not),
    ("--port", Not),
    ("--log-file", Write),
    ("--backup-dir", Write),
    ("-T", Both),
    ("--temp-dir", Write),
    // rsync's batch files and the folder it keeps partial files in.
    ("--write-batch", Write),
    ("--only-write-batch", Write),
    ("--read-batch", Read),
    ("--partial-dir", Both),
    ("--compare-dest", Read),
    ("--copy-dest", Read),
    ("--link-dest", Both),
];

/// The table. Programs not listed read their path-like operands.
pub const ROWS: &[Row] = &[
    Row {
        // Nearly every short option here is a flag of one of these programs
        // (`cat -n`, `wc -l`, `sort -b`, `diff -w`) and takes a value in
        // another (`head -n 5`, `tac -s SEP`): a word after an option is
        // read as a file, which a count or a separator never names. Only
        // the output file is known for all of them.
        // `--files0-from FILE` (wc, sort, du) reads names from the file, and
        // diff's `--from-file`/`--to-file` compare it.
        values: &[
            ("-o", Write),
            ("--output", Write),
            ("--files0-from", Read),
            ("--from-file", Read),
            ("--to-file", Read),
            // cloc's reports.
            ("--report-file", Write),
            ("--out", Write),
        ],
        ..row(
            &[
                "cat",
                "tac",
                "nl",
                "head",
                "tail",
                "less",
                "more",
                "most",
                "bat",
                "batcat",
                "wc",
                "cut",
                "paste",
                "join",
                "comm",
                "diff",
                "diff3",
                "sdiff",
                "cmp",
                "colordiff",
                "md5sum",
                "sha1sum",
                "sha224sum",
                "sha256sum",
                "sha384sum",
                "sha512sum",
                "b2sum",
                "cksum",
                "sum",
                "shasum",
                "base64",
                "base32",
                "basenc",
                "iconv",
                "column",
                "fold",
                "fmt",
                "rev",
                "expand",
                "unexpand",
                "sort",
                "shuf",
                "file",
                "pr",
                "look",
                "view",
                "vimdiff",
                "zcat",
                "gzcat",
                "bzcat",
                "xzcat",
                "zstdcat",
                "zless",
                "zmore",
                "pdftotext",
                "source",
                ".",
                "lp",
                "lpr",
                "mail",
                "code",
                "cloc",
                "tokei",
            ],
            All(Read),
        )
    },
    row(
        &[
            "vi", "vim", "nvim", "nano", "emacs", "ed", "red", "ex", "pico", "micro", "joe",
            "sudoedit", "gvim", "rvim", "rview", "evim", "vimx",
        ],
        All(Both),
    ),
    Row {
        values: &[
            ("-s", Not),
            ("--size", Not),
            ("-r", Read),
            ("--reference", Read),
            ("-d", Not),
            ("--date", Not),
            ("-t", Not),
            ("-n", Not),
            ("--iterations", Not),
            ("-m", Not),
            ("--mode", Not),
            ("--context", Not),
        ],
        ..row(
            &["shred", "truncate", "touch", "mkdir", "mkfifo", "mknod"],
            All(Write),
        )
    },
    // No option of these takes a value: `rm -r .hookc` removes `.hookc`
    // (read with `touch`'s values, `-r` took it for a reference file).
    row(
        &["rm", "rmdir", "unlink", "srm", "trash", "trash-put", "gio"],
        All(Write),
    ),
    Row {
        values: &[("--reference", Not)],
        ..row(
            &["chmod", "chown", "chgrp", "chattr", "setfacl"],
            AfterFirst(Write, &["--reference"]),
        )
    },
    // tee's files and dd's `of=` are writes the normaliser records (with
    // the redirections): here they would be counted twice.
    row(&["tee"], All(Not)),
    // Each dumper's own options that take a value: one program's flag is
    // another's option with a value (`od -s` and `xxd -e` take none, and
    // the file after them is read).
    Row {
        values: &[
            ("-c", Not),
            ("-cols", Not),
            ("-g", Not),
            ("-groupsize", Not),
            ("-l", Not),
            ("-len", Not),
            ("-o", Not),
            ("-s", Not),
            ("-seek", Not),
            ("-n", Not),
            ("-name", Not),
        ],
        // `xxd IN OUT` (and `xxd -r IN OUT`, which patches OUT) writes its
        // second operand.
        ..row(&["xxd"], Copies(Read))
    },
    Row {
        values: &[
            ("-A", Not),
            ("--address-radix", Not),
            ("-j", Not),
            ("--skip-bytes", Not),
            ("-N", Not),
            ("--read-bytes", Not),
            ("-t", Not),
            ("--format", Not),
            ("-S", Not),
            ("--strings", Not),
        ],
        ..row(&["od"], All(Read))
    },
    Row {
        values: &[
            ("-e", Not),
            ("--format", Not),
            ("-f", Read),
            ("--format-file", Read),
            ("-n", Not),
            ("--length", Not),
            ("-s", Not),
            ("--skip", Not),
        ],
        ..row(&["hexdump", "hd"], All(Read))
    },
    Row {
        values: &[
            ("-n", Not),
            ("--bytes", Not),
            ("-t", Not),
            ("--radix", Not),
            ("-e", Not),
            ("--encoding", Not),
            ("-s", Not),
            ("--output-separator", Not),
            ("-T", Not),
            ("--target", Not),
        ],
        ..row(&["strings"], All(Read))
    },
    Row {
        values: COPY_VALUES,
        ..row(&["cp", "install", "ln", "link"], Copies(Read))
    },
    // `uniq [INPUT [OUTPUT]]`: the second operand is written.
    Row {
        values: &[
            ("-f", Not),
            ("--skip-fields", Not),
            ("-s", Not),
            ("--skip-chars", Not),
            ("-w", Not),
            ("--check-chars", Not),
        ],
        ..row(&["uniq"], Copies(Read))
    },
    // `date -f FILE` reads a date from each line (and prints the bad ones).
    Row {
        values: &[
            ("-f", Read),
            ("--file", Read),
            ("-d", Not),
            ("--date", Not),
            ("-r", Not),
            ("--reference", Not),
        ],
        ..row(&["date"], All(Not))
    },
    // `mktemp [-p DIR] [TEMPLATE]` makes a file or folder of that name.
    Row {
        values: &[("-p", Write), ("--tmpdir", Write), ("--suffix", Not)],
        ..row(&["mktemp"], All(Write))
    },
    // `cpio -p DIR` writes into its operand; its `-m` and `-o` are flags.
    row(&["cpio"], All(Both)),
    Row {
        values: COPY_VALUES,
        ..row(&["mv"], Copies(Both))
    },
    Row {
        values: SYNC_VALUES,
        ..row(&["rsync", "scp", "sftp", "rclone"], Copies(Read))
    },
    Row {
        values: SEARCH_VALUES,
        ..row(
            &[
                "grep", "egrep", "fgrep", "zgrep", "rgrep", "rg", "ag", "ack", "ugrep", "pcregrep",
                "git-grep",
            ],
            AfterFirst(Read, &["-e", "--regexp", "-f", "--file"]),
        )
    },
    Row {
        values: &[
            ("-f", Read),
            ("--from-file", Read),
            ("--arg", Not),
            ("--argjson", Not),
            ("--rawfile", Not),
            ("--slurpfile", Not),
            ("--indent", Not),
        ],
        // yq's and jaq's `-i` (`--in-place`) rewrite their files.
        modes: &[("-i", Both), ("--in-place", Both)],
        // `--rawfile NAME FILE` and `--slurpfile NAME FILE` take two words:
        // the name is taken as the value, and then the first operand is
        // counted as a file, not as the filter (which is read too).
        ..row(
            &["jq", "yq", "gojq", "jaq"],
            AfterFirst(Read, &["-f", "--from-file", "--rawfile", "--slurpfile"]),
        )
    },
    Row {
        values: &[
            ("-f", Read),
            ("--file", Read),
            ("-v", Not),
            ("--assign", Not),
            ("-F", Not),
            ("--field-separator", Not),
            ("-e", Not),
            ("--source", Not),
            // gawk's `-i FILE` and `-E FILE` load a program file.
            ("-i", Read),
            ("--include", Read),
            ("-E", Read),
            ("--exec", Read),
        ],
        ..row(
            &["awk", "gawk", "mawk", "nawk"],
            AfterFirst(Read, &["-f", "--file", "-e", "--source", "-E", "--exec"]),
        )
    },
    Row {
        values: &[
            ("-e", Not),
            ("--expression", Not),
            ("-f", Read),
            ("--file", Read),
            ("-l", Not),
            ("--line-length", Not),
        ],
        modes: &[("-i", Both), ("--in-place", Both)],
        ..row(
            &["sed", "gsed"],
            AfterFirst(Read, &["-e", "--expression", "-f", "--file"]),
        )
    },
    row(
        &[
            "ls", "ll", "dir", "stat", "test", "[", "[[", "echo", "printf", "true", "false", "cd",
            "pushd", "popd", "basename", "dirname", "realpath", "readlink", "which", "type",
            "whereis", "command", "df", "exa", "eza", "pwd", "sleep", "kill", "export", "unset",
            "declare", "local", "read", "exit", "return", "set", "shift", "wait", "hash", "alias",
            "umask", "id", "whoami", "uname", "seq", "yes", "tr", "expr", "let", "jobs", "env",
            "printenv", "help", "ps", "pgrep", "pkill", "lsof",
        ],
        All(Not),
    ),
    // `du` reads the names in `--files0-from FILE`, not what its folders
    // hold.
    Row {
        values: &[("--files0-from", Read)],
        ..row(&["du"], All(Not))
    },
    // Programs that read a file and may write it: a database, a key file,
    // the shell's history file (`history -w FILE`), an output file given
    // as a single-dash long option (`openssl … -out FILE`).
    row(
        &["openssl", "sqlite3", "duckdb", "history", "ssh-keygen"],
        All(Both),
    ),
    // gpg writes next to its files (`--enarmor F` makes `F.asc`) and keeps
    // its keys in `--homedir DIR`.
    Row {
        values: &[("--homedir", Both), ("-o", Write), ("--output", Write)],
        ..row(&["gpg", "gpg2"], All(Both))
    },
    // `tree --fromfile F` lists the names F holds; `-o F` writes the
    // listing. `hostname -F F` sets the name F holds.
    Row {
        values: &[
            ("-o", Write),
            ("-L", Not),
            ("-P", Not),
            ("-I", Not),
            ("--charset", Not),
            ("--filelimit", Not),
            ("--timefmt", Not),
            ("-H", Not),
        ],
        modes: &[("--fromfile", Read)],
        ..row(&["tree"], All(Not))
    },
    Row {
        values: &[("-F", Read), ("--file", Read)],
        ..row(&["hostname"], All(Not))
    },
    // Manual pages: `man -l FILE` and `man ./page.1` read a file, and a
    // page's name is no file of the project.
    row(&["man", "info"], All(Read)),
    // Compressors replace each file with its compressed form (and with
    // `-r`, every file below a folder); with `-c`, `-t` or `-l` they only
    // read it.
    Row {
        modes: &[
            ("-c", Read),
            ("--stdout", Read),
            ("--to-stdout", Read),
            ("-t", Read),
            ("--test", Read),
            ("-l", Read),
            ("--list", Read),
        ],
        ..row(COMPRESSORS, All(Both))
    },
    // lz4's `-l` is a format, not a listing.
    row(LZ4, All(Both)),
    // Mounting over a folder hides what it holds.
    row(&["mount", "umount"], Custom(mount)),
    // Archivers of whole directories (read through, see `recursion`),
    // which also extract; `hardlink` makes every alike file below a
    // directory one file (a write to one is a write to all).
    row(&["jar", "gpgtar", "ptar", "hardlink"], All(Both)),
    row(&["split", "csplit"], Custom(split)),
    row(&["patch"], Custom(patch)),
    row(&["tar", "gtar", "bsdtar"], Custom(tar)),
    row(&["zip"], Custom(zip)),
    row(&["unzip"], Custom(unzip)),
    row(&["dd"], Custom(dd)),
    row(&["curl"], Custom(curl)),
    row(&["wget"], Custom(wget)),
    row(&["find", "gfind", "fd", "fdfind"], Custom(find)),
    row(&["git"], Custom(git)),
    row(
        &["npm", "npx", "pnpm", "pnpx", "yarn", "bun", "bunx"],
        Custom(package_manager),
    ),
];

/// The row of a program, if it has one.
pub fn row_of(program: &str) -> Option<&'static Row> {
    ROWS.iter().find(|r| r.programs.contains(&program))
}

/// The longest path a `cd` in the line may go to, resolved lexically from
/// where the line starts. Every relative path after it is counted from
/// there too (a copy as long as the directory each), so a line of
/// `cd a/b/c/…` and many operands would otherwise cost their product.
/// Real directories are far shorter; a line that goes further is opaque
/// ([`too_far`]).
pub const MAX_DIR_BYTES: usize = 1024;

/// A change a git command makes to the work tree whose files only the
/// repository can name: `git switch main` rewrites every file that differs
/// between `HEAD` and `main`. The evaluator asks git which (the module
/// `git_writes`, above this one).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum GitWrite {
    /// The files that differ between two revs' trees.
    Between(String, String),
    /// The tracked files changed in the work tree since `HEAD` (what a
    /// stash sets aside, `checkout -f` and `reset --hard` throw away).
    Modified,
    /// What applying a stash changes (its own changes and untracked files).
    Stash(String),
    /// What merging a rev brings: the files it changed since the merge base.
    Merged(String),
    /// Going on with, or out of, an operation in progress (`git rebase
    /// --abort`, `git cherry-pick --continue`): any file while one is,
    /// nothing when none is (git stops).
    Resume,
    /// `git bisect start [BAD [GOOD…]]`: with a bad and a good commit, the
    /// one halfway, which git checks out (`rev-list --bisect`); nothing
    /// when the bad one is the only one left, or fewer are given. A bisect
    /// under way goes back to where it started first.
    Bisect {
        revs: Vec<String>,
        first_parent: bool,
        /// Paths after `--`: only commits that change them count.
        paths: Vec<String>,
        /// Not `--no-checkout`.
        checkout: bool,
    },
    /// Any file: the versions are not known before the command runs
    /// (`git pull` fetches first, `git am` reads patches).
    Unknown,
}

/// The [`GitWrite`]s of `cmd` when it runs git.
pub fn git_writes(cmd: &SimpleCommand) -> Vec<GitWrite> {
    match cmd.args.split_first() {
        Some((sub, rest)) if cmd.program == "git" => git_write(sub, rest),
        _ => Vec::new(),
    }
}

/// The options of `sub` that take a separate value, so that the value is
/// not taken for a rev.
fn git_values(sub: &str) -> &'static [&'static str] {
    match sub {
        "checkout" => &["-b", "-B", "--orphan", "--conflict"],
        "switch" => &[
            "-c",
            "-C",
            "--create",
            "--force-create",
            "--orphan",
            "--conflict",
        ],
        "merge" => &[
            "-m",
            "--message",
            "-s",
            "--strategy",
            "-X",
            "--strategy-option",
            "-F",
            "--file",
            "--into-name",
            "--cleanup",
        ],
        "rebase" => &[
            "--onto",
            "-s",
            "--strategy",
            "-X",
            "--strategy-option",
            "-x",
            "--exec",
            "-C",
            "--whitespace",
        ],
        "cherry-pick" | "revert" => &["-m", "--mainline", "-X", "--strategy-option", "--strategy"],
        "stash" => &["-m", "--message", "--pathspec-from-file"],
        "bisect" => &["--term-old", "--term-new", "--term-good", "--term-bad"],
        _ => &[],
    }
}

/// What one git command (`sub` and the words after it) writes that the
/// repository must name; see [`GitWrite`].
fn git_write(sub: &str, rest: &[String]) -> Vec<GitWrite> {
    use GitWrite::{Between, Merged, Modified, Resume, Stash, Unknown};
    let values = git_values(sub);
    let mut operands: Vec<&str> = Vec::new();
    let mut options: Vec<(&str, Option<&str>)> = Vec::new();
    let mut paths = false;
    let mut i = 0;
    while i < rest.len() {
        let a = rest[i].as_str();
        if a == "--" {
            // `git checkout main --` still switches: only paths after it
            // make the command one about those files.
            paths = i + 1 < rest.len();
            break;
        }
        if a.starts_with('-') && a != "-" {
            let name = a.split('=').next().unwrap_or(a);
            if values.contains(&name) && !a.contains('=') {
                options.push((name, rest.get(i + 1).map(String::as_str)));
                i += 2;
                continue;
            }
            options.push((name, a.split_once('=').map(|(_, v)| v)));
        } else {
            operands.push(a);
        }
        i += 1;
    }
    let has = |names: &[&str]| options.iter().any(|(o, _)| names.contains(o));
    let value = |names: &[&str]| {
        options
            .iter()
            .find(|(o, _)| names.contains(o))
            .and_then(|(_, v)| *v)
    };
    // `-` is the branch before: `@{-1}`.
    let rev = |r: &str| {
        if r == "-" {
            "@{-1}".to_owned()
        } else {
            r.to_owned()
        }
    };
    let head = || "HEAD".to_owned();
    let forced = |w: &mut Vec<GitWrite>, names: &[&str]| {
        if has(names) {
            w.push(Modified);
        }
    };
    // Pathspec magic (`:/`, `:(top)`, `:!x`) names files the line does not
    // spell, from the top of the work tree: any of its files.
    if matches!(sub, "checkout" | "restore" | "clean" | "rm" | "stash")
        && rest.iter().any(|a| a.starts_with(':'))
    {
        return vec![GitWrite::Unknown];
    }
    let mut w = Vec::new();
    match sub {
        // With `--`, the paths after it are the files (see `git`).
        "checkout" if !paths => {
            if has(&["--pathspec-from-file"]) {
                return vec![Unknown];
            }
            // After `-b NAME` (the option's value) an operand is the start
            // point; without, the branch or commit to switch to. With more
            // operands (paths without `--`) every file that differs counts.
            if let Some(target) = operands.first() {
                w.push(Between(head(), rev(target)));
            }
            forced(&mut w, &["-f", "--force"]);
        }
        "switch" => {
            if has(&["--orphan"]) {
                return vec![Unknown];
            }
            if let Some(target) = operands.first() {
                w.push(Between(head(), rev(target)));
            }
            forced(&mut w, &["-f", "--force", "--discard-changes"]);
        }
        "stash" => match operands.first().copied() {
            None | Some("push" | "save") => {
                if has(&["-u", "--include-untracked", "-a", "--all"]) {
                    return vec![Unknown];
                }
                w.push(Modified);
            }
            Some("pop" | "apply") => {
                let which = match operands.get(1) {
                    Some(n) if n.chars().all(|c| c.is_ascii_digit()) => format!("stash@{{{n}}}"),
                    Some(s) => (*s).to_owned(),
                    None => "stash@{0}".to_owned(),
                };
                w.push(Stash(which));
            }
            Some("branch") => w.push(Unknown),
            Some(_) => {}
        },
        "reset" if !paths && has(&["--hard", "--merge", "--keep"]) => {
            let target = operands.first().map_or_else(head, |r| rev(r));
            w.push(Between(head(), target));
            w.push(Modified);
        }
        "merge" => {
            if has(&["--abort"]) {
                // Back to `HEAD`: the merge's changes are thrown away.
                w.push(Modified);
            } else if !has(&["--continue", "--quit"]) {
                if operands.is_empty() {
                    w.push(Merged("@{u}".to_owned()));
                }
                w.extend(operands.iter().map(|o| Merged(rev(o))));
            }
        }
        "rebase" => {
            if has(&["--continue", "--skip", "--abort", "--quit", "--edit-todo"]) {
                return vec![Resume];
            }
            if has(&["--root"]) || operands.len() > 1 {
                return vec![Unknown];
            }
            let target = value(&["--onto"])
                .or(operands.first().copied())
                .unwrap_or("@{u}");
            w.push(Between(head(), rev(target)));
            w.push(Merged(rev(target)));
        }
        "cherry-pick" | "revert" => {
            if has(&["--continue", "--skip", "--abort", "--quit"]) {
                return vec![Resume];
            }
            if has(&["-m", "--mainline"]) || operands.is_empty() {
                return vec![Unknown];
            }
            for o in &operands {
                if o.contains("..") || o.contains('^') || o.starts_with('-') {
                    return vec![Unknown];
                }
                w.push(Between(format!("{o}^"), (*o).to_owned()));
            }
        }
        "bisect" if operands.first() == Some(&"start") => {
            let after = rest
                .iter()
                .position(|a| a == "--")
                .map_or(rest.len(), |k| k + 1);
            w.push(GitWrite::Bisect {
                revs: operands[1..].iter().map(|r| (*r).to_owned()).collect(),
                first_parent: has(&["--first-parent"]),
                paths: rest[after..].to_vec(),
                checkout: !has(&["--no-checkout"]),
            });
        }
        "pull" | "am" | "bisect" | "filter-branch" | "filter-repo" => {
            let reads_only = match sub {
                "am" => has(&["--show-current-patch"]),
                "bisect" => matches!(
                    operands.first().copied(),
                    Some("log" | "visualize" | "view" | "terms") | None
                ),
                _ => false,
            };
            let resumes = match sub {
                "am" => has(&["--continue", "--skip", "--abort", "--quit"]),
                "bisect" => operands.first() == Some(&"reset"),
                _ => false,
            };
            if resumes {
                w.push(Resume);
            } else if !reads_only {
                w.push(Unknown);
            }
        }
        "apply" => {
            let reports =
                has(&["--check", "--stat", "--numstat", "--summary"]) && !has(&["--apply"]);
            let index_only = has(&["--cached"]) && !has(&["--index"]);
            if !reports && !index_only {
                w.push(Unknown);
            }
        }
        "read-tree" if has(&["-u"]) => w.push(Unknown),
        "checkout-index" | "sparse-checkout" if operands.first() != Some(&"list") => {
            w.push(Unknown)
        }
        _ => {}
    }
    w
}

/// Every file the commands of `analysis` touch, in order, unnormalised
/// (relative paths are relative to where the line starts). A relative path
/// is also counted from each directory a `cd` earlier in the line may have
/// gone to ([`Cwd`]); from one hookc cannot name, it is named at run time.
pub fn touches(analysis: &Analysis) -> Vec<Touch> {
    touches_with(analysis, &|_, _, _| {})
}

/// [`touches`], with `more` changing what a command touches (its own
/// touches are those of `out` from the index it is given) before they are
/// counted from where it runs (see `shell::unknown::touches`: what a
/// program hookc does not know may run).
pub fn touches_with(
    analysis: &Analysis,
    more: &dyn Fn(&SimpleCommand, usize, &mut Vec<Touch>),
) -> Vec<Touch> {
    let mut out = Vec::new();
    let mut cwd = Cwd::new(analysis);
    // Nothing ran before but the `git rev-parse --show-toplevel` of a
    // substitution: the top of the work tree is still what the guard finds.
    let mut only_top_before = true;
    // Some command so far may have written a file (git may have checked
    // one out).
    let mut wrote = false;
    // What the line's commands so far wrote that may be a symbolic link.
    let mut made: Vec<String> = Vec::new();
    for cmd in &analysis.commands {
        let knows = |place: Place, cwd: &Cwd| {
            analysis.places_hold
                && !analysis.repeats
                && match place {
                    Place::Start => cwd.dirs.is_empty() && cwd.unknown.is_none(),
                    Place::Top => only_top_before,
                }
        };
        let from = out.len();
        command(cmd, &mut out);
        more(cmd, from, &mut out);
        for t in &mut out[from..] {
            through_process(t);
        }
        if cmd.found_on_disk && wrote {
            // A file the line made before find lists it: each name it
            // could take counts.
            for t in &mut out[from..] {
                t.on_disk &= t.access.writes();
            }
        }
        wrote |= cmd.program == "git"
            || out[from..]
                .iter()
                .any(|t| t.access.writes() || t.runtime.is_some());
        for t in &mut out[from..] {
            if t.runtime.is_some()
                && let Some((place, ..)) = runtime::place(&t.path)
                && knows(place, &cwd)
            {
                t.runtime = None;
                t.place = Some(place);
            }
        }
        let mut moved = Vec::new();
        for t in out[from..].iter().filter(|t| is_relative(&t.path)) {
            for dir in &cwd.dirs {
                moved.push(Touch {
                    path: format!("{dir}/{}", t.path),
                    place: runtime::place(dir)
                        .map(|(p, ..)| p)
                        .filter(|_| t.runtime.is_none()),
                    ..t.clone()
                });
            }
            if let Some(word) = &cwd.unknown {
                moved.push(Touch {
                    path: format!("{word}/{}", t.path),
                    runtime: Some(word.clone()),
                    ..t.clone()
                });
            }
        }
        out.extend(moved);
        for t in out[from..].iter_mut().filter(|t| t.runtime.is_none()) {
            if t.access.writes()
                && let Some(link) = through_made(&t.path, &made)
            {
                t.runtime = Some(format!("{THROUGH_MADE}{}\0{link}", t.path));
            }
        }
        if !git_writes(cmd).is_empty() {
            // The files git checks out, which may be links, only the
            // repository names.
            made.push(".".to_owned());
        }
        if may_make_links(cmd) {
            made.extend(
                out[from..]
                    .iter()
                    .filter(|t| t.access.writes() && !cmd.redirects.contains(&t.path))
                    .map(|t| t.path.clone()),
            );
            if row_of(&cmd.program).is_none() {
                // A program hookc does not know may make any name it is
                // given (`dpkg-deb -x a.deb me`), path-like or not.
                made.extend(
                    cmd.args
                        .iter()
                        .filter(|a| !a.starts_with('-') && !a.is_empty())
                        .cloned(),
                );
            }
        }
        let known = runtime::place(
            cmd.args
                .iter()
                .find(|a| !is_cd_option(a))
                .map_or("", String::as_str),
        )
        .is_some_and(|(p, ..)| knows(p, &cwd));
        cwd.after(cmd, known);
        only_top_before &= cmd.program == "git" && cmd.args == ["rev-parse", "--show-toplevel"];
    }
    reopened(analysis, &mut out);
    out
}

/// Whether a command may leave a symbolic link where it writes: one that
/// makes links, copies or moves them as they are (`cp -P /usr/bin/X11 me`
/// makes `me` a link to `.`), unpacks them from an archive or from git's
/// objects, or a program hookc does not know. A redirection or `mkdir`
/// makes a plain file or folder.
fn may_make_links(cmd: &SimpleCommand) -> bool {
    const MAKERS: &[&str] = &[
        "ln",
        "link",
        "cp",
        "mv",
        "rsync",
        "scp",
        "tar",
        "gtar",
        "bsdtar",
        "ptar",
        "unzip",
        "7z",
        "7za",
        "7zr",
        "cpio",
        "pax",
        "jar",
        "gpgtar",
        "git",
        "patch",
        "busybox",
        "toybox",
        "unsquashfs",
        "bsdcpio",
        "hardlink",
    ];
    let program = cmd.program.as_str();
    MAKERS.contains(&program) || (!program.is_empty() && row_of(program).is_none())
}

/// Whether `path` goes through one of `made` to a name below it: the
/// kernel follows a link there, to whatever it leads to (the line wrote
/// it, so the guard cannot look). `.` (or a glob) made is every folder of
/// the path.
fn through_made<'m>(path: &str, made: &'m [String]) -> Option<&'m str> {
    if made.is_empty() {
        return None;
    }
    // `l/` and `l/.` are what `l` leads to.
    let into = path.ends_with('/') || path.ends_with("/.");
    let path = spelled_plainly(path);
    let path = path.as_str();
    let through = |m: &str| {
        let m = spelled_plainly(m);
        let m = m.strip_suffix("/**").unwrap_or(&m);
        if m == "." || m == "**" {
            return is_relative(path) && path.contains('/');
        }
        if is_glob(m) {
            // Each folder on the way.
            return path
                .match_indices('/')
                .any(|(i, _)| glob_matches(m, &path[..i]));
        }
        let below = |rest: &str| rest.starts_with('/') || (into && rest.is_empty());
        // A relative name made is also each absolute spelling of it
        // (`/work/p/src/me/x` for `src/me`).
        path.strip_prefix(m).is_some_and(below)
            || (is_relative(m)
                && path
                    .match_indices(&format!("/{m}"))
                    .any(|(i, f)| below(&path[i + f.len()..])))
    };
    made.iter().map(String::as_str).find(|m| through(m))
}

/// A path as the guard compares made names: `$PWD/` and `./` dropped,
/// `//`, `.` and `..` taken lexically (`src/../src/me` is `src/me`; a `..`
/// that climbs past the start stays).
fn spelled_plainly(path: &str) -> String {
    let mut rest = path;
    loop {
        let before = rest;
        for prefix in ["$PWD/", "${PWD}/", "./"] {
            rest = rest.strip_prefix(prefix).unwrap_or(rest);
        }
        if rest == before {
            break;
        }
    }
    let absolute = rest.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in rest.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            ".." if absolute => {}
            p => parts.push(p),
        }
    }
    let joined = parts.join("/");
    match (absolute, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_owned(),
        (false, false) => joined,
    }
}

/// The start of the run-time word of a path written through a name the
/// line made ([`through_made`]): the path follows, then `\0` and the name.
pub const THROUGH_MADE: &str = "(through a name the line made: ";

/// Where a path that goes through the kernel's links to a process's own
/// places leads, spelled as the guard reads paths: `/proc/self/cwd/x` is
/// `x` (the command's own directory, which its `cd`s then move),
/// `/proc/self/root/x` is `/x`, and `/dev/./stdin`, `/dev/../dev/fd/3` and
/// `/proc/thread-self/fd/3` are the descriptors `/proc/self/fd/0` and
/// `/proc/self/fd/3`, which [`reopened`] follows. Each `..` is taken where
/// the kernel takes it: after a link, from what the link leads to
/// (`/proc/self/cwd/..` is `..`). Another process's directory, root or
/// descriptor (`/proc/1/cwd`) is known only when the line runs: that
/// process may have moved by then.
fn through_process(t: &mut Touch) {
    if !t.path.starts_with('/') || t.runtime.is_some() {
        return;
    }
    match kernel_path(&t.path) {
        KernelPath::Plain => {}
        KernelPath::Leads(path) => t.path = path,
        KernelPath::Elsewhere => t.runtime = Some(t.path.clone()),
    }
}

#[derive(Debug, PartialEq)]
enum KernelPath {
    /// No link of the kernel's on the way: the path stays as written.
    Plain,
    Leads(String),
    /// Through another process's place.
    Elsewhere,
}

fn kernel_path(path: &str) -> KernelPath {
    // A word that is a glob may be each name it matches.
    let may_be = |word: &str, names: &[&str]| {
        if is_glob(word) {
            names.iter().any(|n| glob_matches(word, n))
        } else {
            names.contains(&word)
        }
    };
    let process = |pid: &str| {
        may_be(pid, &["self", "thread-self", "1"]) || pid.bytes().all(|b| b.is_ascii_digit())
    };
    // The components so far, from `/` (or from the command's directory
    // once `cwd` is passed), and whether a link of the kernel's was taken.
    let mut at: Vec<&str> = Vec::new();
    let mut relative = false;
    let mut linked = false;
    let mut parts = path.split('/');
    while let Some(part) = parts.next() {
        match part {
            "" | "." => continue,
            // Only the kernel's own folders are taken lexically: a `..`
            // after any other name may follow a link, so it stays for the
            // guard's walk on disk (`/tmp/l/../../proc/self/cwd` is not
            // `/proc/self/cwd` when `l` leads two folders deeper).
            ".." if !relative && matches!(at.as_slice(), ["dev"] | ["proc", ..]) => {
                at.pop();
                continue;
            }
            ".." if at.is_empty() && !relative => continue,
            ".." => {
                at.push("..");
                continue;
            }
            _ => at.push(part),
        }
        if relative {
            continue;
        }
        match at.as_slice() {
            ["dev", "fd"] => at = vec!["proc", "self", "fd"],
            ["dev", "stdin"] => at = vec!["proc", "self", "fd", "0"],
            ["dev", "stdout"] => at = vec!["proc", "self", "fd", "1"],
            ["dev", "stderr"] => at = vec!["proc", "self", "fd", "2"],
            ["dev", name]
                if is_glob(name) && may_be(name, &["fd", "stdin", "stdout", "stderr"]) =>
            {
                return KernelPath::Elsewhere;
            }
            ["proc", "thread-self"] => at = vec!["proc", "self", "task", "self"],
            _ => {}
        }
        let (pid, place) = match at.as_slice() {
            ["proc", pid, place] | ["proc", pid, "task", _, place] => (*pid, *place),
            ["proc", pid, "fd", fd] | ["proc", pid, "task", _, "fd", fd] => (*pid, *fd),
            _ => continue,
        };
        if !process(pid) || !may_be(place, &["cwd", "root", "fd"]) && at[at.len() - 2] != "fd" {
            continue;
        }
        if pid != "self" || is_glob(place) {
            return KernelPath::Elsewhere;
        }
        linked = true;
        match place {
            "cwd" => {
                at.clear();
                relative = true;
            }
            "root" => at.clear(),
            "fd" => {}
            _ => {
                // A descriptor: what follows it is below what it opens,
                // which `reopened` joins on.
                let mut out = format!("/{}", at.join("/"));
                for p in parts.filter(|p| !p.is_empty()) {
                    out.push('/');
                    out.push_str(p);
                }
                return if descriptor(path) == descriptor(&out) {
                    KernelPath::Plain
                } else {
                    KernelPath::Leads(out)
                };
            }
        }
    }
    if !linked {
        return KernelPath::Plain;
    }
    let spelled = at.join("/");
    KernelPath::Leads(match (relative, spelled.is_empty()) {
        (true, true) => ".".to_owned(),
        (true, false) => spelled,
        (false, _) => format!("/{spelled}"),
    })
}

/// The descriptor a path opens again, and what follows it: `/dev/stdin`
/// (0), `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N` (or
/// any process's, `thread-self`'s), `/dev/fd/3/x` (below a folder opened
/// as 3).
fn descriptor(path: &str) -> Option<(u32, &str)> {
    let numbered = |rest: &str| -> Option<(u32, usize)> {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let fd = rest[..digits].parse().ok()?;
        (rest[digits..].is_empty() || rest[digits..].starts_with('/')).then_some((fd, digits))
    };
    for (name, fd) in [("/dev/stdin", 0), ("/dev/stdout", 1), ("/dev/stderr", 2)] {
        if let Some(rest) = path.strip_prefix(name)
            && (rest.is_empty() || rest.starts_with('/'))
        {
            return Some((fd, rest));
        }
    }
    let after_fd = if let Some(rest) = path.strip_prefix("/dev/fd/") {
        rest
    } else {
        let rest = path.strip_prefix("/proc/")?;
        let (_, rest) = rest.split_once("/fd/")?;
        rest
    };
    let (fd, digits) = numbered(after_fd)?;
    Some((fd, &after_fd[digits..]))
}

/// A file named through a descriptor (`cat /dev/fd/3 3>>.env`, `cp x
/// /dev/stdin < policy.kdl`) is opened again, with any access: it is each
/// file the line redirects, read and written (the line's own redirections
/// are the only files it can have put there). A descriptor above 2 the
/// line opens on nothing is one hookc cannot see: known only when it runs.
fn reopened(analysis: &Analysis, out: &mut Vec<Touch>) {
    let redirected: Vec<&String> = analysis
        .commands
        .iter()
        .flat_map(|c| c.redirects.iter().chain(&c.reads))
        .filter(|f| match kernel_path(f) {
            KernelPath::Plain => descriptor(f).is_none(),
            KernelPath::Leads(p) => descriptor(&p).is_none(),
            KernelPath::Elsewhere => false,
        })
        .collect();
    let mut more = Vec::new();
    for t in out.iter_mut() {
        let Some((fd, rest)) = descriptor(&t.path) else {
            continue;
        };
        let rest = rest.to_owned();
        if redirected.is_empty() {
            if fd > 2 {
                t.runtime = Some(t.path.clone());
            }
            continue;
        }
        for f in &redirected {
            more.push(Touch {
                tree: true,
                ..Touch::new(&format!("{}{rest}", f.trim_end_matches('/')), Access::Both)
            });
        }
    }
    out.extend(more);
}

/// Why the line is opaque for its `cd`s: one goes to a path longer than
/// [`MAX_DIR_BYTES`], whose files are not followed.
pub fn too_far(analysis: &Analysis) -> Option<String> {
    let mut cwd = Cwd::new(analysis);
    for cmd in &analysis.commands {
        cwd.after(cmd, false);
    }
    cwd.lost.then(|| {
        format!(
            "a `cd` to a path over {MAX_DIR_BYTES} bytes long (spell it shorter: absolute, \
             without `./` or `..`)"
        )
    })
}

/// The most directories other than the start a line's `cd`s are followed
/// to; past it, where the line is counts as unknown.
const MAX_DIRS: usize = 8;

/// The description of a directory a `cd` of a loop or function may reach
/// by climbing, shown as the run-time word that names it.
pub const CLIMBED: &str = "(the directory a `cd ..` run more than once goes to)";

/// Where the line may be, as far as its `cd`s show. A `cd` can fail (a
/// missing directory, and `;` goes on), so each one adds the directories it
/// goes to and keeps those it left: `cd nowhere; cd .hookc; rm policy.json`
/// removes `.hookc/policy.json`.
struct Cwd {
    /// Directories other than the start, resolved lexically (so `cd
    /// ./././a` is `a`), relative to the start or absolute.
    dirs: Vec<String>,
    /// A `cd` went somewhere hookc cannot name (`cd "$d"`, `cd -`,
    /// `popd`, more than [`MAX_DIRS`] places): the word that says where.
    unknown: Option<String>,
    /// A `cd` went further than [`MAX_DIR_BYTES`]: the line is opaque.
    lost: bool,
    /// The line may run its commands more than once (`Analysis::repeats`).
    repeats: bool,
    /// `CDPATH` is set, or the line names it: a relative `cd` that does not
    /// start with `.` may go below any directory it lists.
    cdpath: bool,
}

impl Cwd {
    fn new(analysis: &Analysis) -> Cwd {
        Cwd {
            dirs: Vec::new(),
            unknown: None,
            lost: false,
            repeats: analysis.repeats,
            cdpath: analysis.cdpath || std::env::var_os("CDPATH").is_some_and(|v| !v.is_empty()),
        }
    }

    fn lose(&mut self, word: &str) {
        self.unknown.get_or_insert_with(|| word.to_owned());
    }

    /// Follow `cmd` when it changes directory; `place_known` when its
    /// target is a [`Place`] the guard finds out.
    fn after(&mut self, cmd: &SimpleCommand, place_known: bool) {
        let program = cmd.program.as_str();
        if !matches!(program, "cd" | "pushd" | "popd") {
            return;
        }
        // zsh's `cd OLD NEW` replaces OLD in the directory's name.
        let mut operands = cmd.args.iter().skip_while(|a| is_cd_option(a));
        let target = match (operands.next(), operands.next()) {
            (_, Some(_)) => return self.lose(&format!("{program} {}", cmd.args.join(" "))),
            (None, None) if program != "pushd" && program != "popd" => "~".to_owned(),
            (Some(dir), None) if program != "popd" && !dir.starts_with(['-', '+']) => match dir
                .strip_prefix("$HOME")
                .or_else(|| dir.strip_prefix("${HOME}"))
            {
                Some(rest) if rest.is_empty() || rest.starts_with('/') => format!("~{rest}"),
                _ => dir.clone(),
            },
            // `popd`, `pushd` alone, `cd -`, `pushd +1`, zsh's `cd -2`: a
            // directory of the stack, or `$OLDPWD`.
            _ => return self.lose(&format!("{program} {}", cmd.args.join(" "))),
        };
        if place_known && runtime::place(&target).is_some() {
            if !self.dirs.contains(&target) {
                self.dirs.push(target);
            }
            return;
        }
        if runtime::is_runtime_word(&target) || target.contains(['$', '`']) {
            return self.lose(&target);
        }
        let relative = is_relative(&target);
        if relative && self.cdpath && !target.starts_with('.') {
            return self.lose("$CDPATH");
        }
        let climbs = relative && crate::paths::normalize(&target, None, None).starts_with("..");
        if climbs && self.repeats {
            return self.lose(CLIMBED);
        }
        // Above a place the guard finds out (`cd "$PWD"; cd ..`): resolved
        // lexically, `..` would take the place's word away with it.
        if climbs && self.dirs.iter().any(|d| runtime::place(d).is_some()) {
            return self.lose(&format!("{program} {target}"));
        }
        let mut next: Vec<String> = Vec::new();
        let from: Vec<&str> = if relative {
            std::iter::once(".")
                .chain(self.dirs.iter().map(String::as_str))
                .collect()
        } else {
            vec!["."]
        };
        for base in from {
            // At most the bound and the word: linear in the line.
            let joined = if relative && base != "." {
                format!("{base}/{target}")
            } else {
                target.clone()
            };
            let dir = crate::paths::normalize(&joined, None, None);
            if dir.len() > MAX_DIR_BYTES {
                self.lost = true;
                continue;
            }
            if dir != "." && !self.dirs.contains(&dir) && !next.contains(&dir) {
                next.push(dir);
            }
        }
        self.dirs.extend(next);
        if self.dirs.len() > MAX_DIRS {
            self.dirs.clear();
            self.lose(&format!("{program} {target}"));
        }
    }
}

/// An option of `cd`, `pushd` or `popd` rather than the directory.
fn is_cd_option(arg: &str) -> bool {
    matches!(
        arg,
        "-L" | "-P" | "-e" | "-@" | "-LP" | "-PL" | "-n" | "-q" | "-s" | "--"
    )
}

fn is_relative(path: &str) -> bool {
    !path.starts_with('/') && !path.starts_with('~') && !path.starts_with('$')
}

/// The files one command touches.
pub fn command(cmd: &SimpleCommand, out: &mut Vec<Touch>) {
    let first = out.len();
    files_of(cmd, out);
    runtime::mark(cmd, &mut out[first..]);
}

fn files_of(cmd: &SimpleCommand, out: &mut Vec<Touch>) {
    // A redirection cannot open a directory for writing.
    for w in &cmd.redirects {
        out.push(Touch::leaf(w, Access::Write));
    }
    for r in &cmd.reads {
        out.push(Touch::new(r, Access::Read));
    }
    let start = out.len();
    if cmd.program.is_empty() {
        return;
    }
    let program = cmd.program.as_str();
    match row_of(program) {
        Some(row) => table_row(row, cmd, out),
        None if programs::interpreter(program).is_some() => interpreter(cmd, out),
        None => table_row(&row(&[], Operands::PathLike), cmd, out),
    }
    listed_elsewhere(cmd, out);
    // Programs that make or change the named file itself, never what a
    // directory of that name holds (`rmdir` removes only an empty one).
    if matches!(
        program,
        "touch" | "mkdir" | "mkfifo" | "mknod" | "truncate" | "shred" | "rmdir"
    ) {
        for t in &mut out[start..] {
            t.tree = false;
        }
    }
    if let Some(default_here) = recursion(cmd) {
        let except = exclusions(cmd);
        // Programs whose every operand is read and written (a compressor
        // replaces each file) read through each folder too; a copy's or
        // an archive's own are the link's source or the archive.
        let both_read_through = COMPRESSORS.contains(&program)
            || LZ4.contains(&program)
            || matches!(program, "jar" | "gpgtar" | "ptar");
        let dirs: Vec<Touch> = out[start..]
            .iter()
            .filter(|t| {
                (t.access == Access::Read || (t.access == Access::Both && both_read_through))
                    && t.glob.is_none()
                    && !t.path.contains("{}")
            })
            .map(|t| Touch::below(&t.path, &except))
            .collect();
        if dirs.is_empty() && default_here {
            out.push(Touch::below(".", &except));
        }
        out.extend(dirs);
    }
    // `find … -exec CMD {} ;`: `{}` is each file find found.
    if !cmd.found.is_empty() {
        // Each way `{}` is touched, once: every found glob is touched so,
        // however many times `{}` is written.
        let mut placeholders: Vec<Access> = out[start..]
            .iter()
            .filter(|t| t.path.contains("{}"))
            .map(|t| t.access)
            .collect();
        placeholders.sort_unstable();
        placeholders.dedup();
        out.retain(|t| !t.path.contains("{}"));
        if program == "rmdir" {
            // What find hands `rmdir` is a directory on disk, removed only
            // when empty: no file a guard names is in it.
            placeholders.clear();
        }
        for access in placeholders {
            for found in &cmd.found {
                // A file find hands a command that writes exists when it
                // runs: the files on disk its tests name decide, as for
                // `-delete` (one the line puts there first is a write of
                // its own). A read counts every name find could find: the
                // line may make the file first (an example's project has
                // none).
                out.push(Touch {
                    path: found.clone(),
                    access,
                    glob: Some(Expansion {
                        dot: true,
                        nocase: false,
                    }),
                    on_disk: access.writes() || cmd.found_on_disk,
                    except: Vec::new(),
                    tree: access.writes(),
                    runtime: None,
                    place: None,
                    split: cmd.found_split,
                    presumed: None,
                });
            }
        }
    }
}

/// Words of a command sorted by the row's options.
#[derive(Default)]
struct Parsed<'a> {
    operands: Vec<&'a str>,
    /// Option values, with their role and the option's name.
    values: Vec<(&'a str, Role, &'static str)>,
    mode: Option<Role>,
    /// Values of long options the row does not list (`--magic-file=F`).
    unlisted: Vec<&'a str>,
}

fn lookup(table: &'static [(&'static str, Role)], name: &str) -> Option<(&'static str, Role)> {
    table.iter().find(|(n, _)| *n == name).copied()
}

/// getopt-style parsing (options anywhere, `--` ends them) with the row's
/// options that take values.
fn parse<'a>(args: &'a [String], row: &Row) -> Parsed<'a> {
    let mut p = Parsed::default();
    let mut i = 0;
    let mut options = true;
    while let Some(t) = args.get(i) {
        let t = t.as_str();
        i += 1;
        if !options || t == "-" || !t.starts_with('-') {
            p.operands.push(t);
            continue;
        }
        if t == "--" {
            options = false;
            continue;
        }
        if let Some(long) = t.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let name = format!("--{name}");
            if let Some((n, role)) = lookup(row.values, &name) {
                match value {
                    Some(v) => p.values.push((v, role, n)),
                    None => {
                        if let Some(v) = args.get(i) {
                            p.values.push((v, role, n));
                        }
                        i += 1;
                    }
                }
            } else if let Some((_, role)) = lookup(row.modes, &name) {
                p.mode = Some(role);
            } else if let Some(v) = value {
                p.unlisted.push(v);
            }
            continue;
        }
        let cluster = &t[1..];
        for (pos, c) in cluster.char_indices() {
            let name = format!("-{c}");
            if let Some((n, role)) = lookup(row.values, &name) {
                let attached = &cluster[pos + c.len_utf8()..];
                if attached.is_empty() {
                    if let Some(v) = args.get(i) {
                        p.values.push((v, role, n));
                    }
                    i += 1;
                } else {
                    p.values.push((attached, role, n));
                }
                break;
            }
            if let Some((_, role)) = lookup(row.modes, &name) {
                p.mode = Some(role);
                break;
            }
        }
    }
    p
}

fn push(out: &mut Vec<Touch>, path: &str, role: Role) {
    if let Some(access) = role.access()
        && !path.is_empty()
        && path != "-"
    {
        out.push(Touch::new(path, access));
    }
}

fn table_row(row: &Row, cmd: &SimpleCommand, out: &mut Vec<Touch>) {
    if let Custom(f) = row.operands {
        return f(cmd, out);
    }
    let from = out.len();
    files_of_row(row, cmd, out);
    // A word `@FILE` is a response file to many programs (gcc, ld,
    // binutils, java, javac): they read FILE for more arguments, which
    // name files of their own.
    let responses: Vec<Touch> = out[from..]
        .iter()
        .filter_map(|t| {
            let file = t.path.strip_prefix('@').filter(|f| !f.is_empty())?;
            Some(Touch {
                tree: false,
                ..Touch::new(
                    file,
                    match t.access {
                        Access::Read => Access::Read,
                        _ => Access::Both,
                    },
                )
            })
        })
        .collect();
    out.extend(responses);
}

/// Files a command takes from somewhere the line does not show, each known
/// only when it runs: the names a list file holds (`--files0-from=F`,
/// `--files-from`, `--filelist`, `tar -T F`, git's `--stdin-paths`), more
/// arguments in a response file (`gcc @F`, `strip @F`), the file name a
/// compressed file keeps inside (`gunzip -N`), and what makefile code given
/// on the command line includes (`make --eval='include F'`).
fn listed_elsewhere(cmd: &SimpleCommand, out: &mut Vec<Touch>) {
    const LISTS: &[&str] = &[
        "--files0-from",
        "--files-from",
        "--filelist",
        "--file-list",
        "--stdin-paths",
    ];
    let mut words = Vec::new();
    let args: Vec<&str> = cmd
        .args
        .iter()
        .map(String::as_str)
        .take_while(|a| *a != "--")
        .collect();
    for (i, a) in args.iter().enumerate() {
        let (name, value) = a.split_once('=').unwrap_or((a, ""));
        // Or an abbreviation long enough to be one of them (`--files0`),
        // not another option (`--file`, `--stdin`).
        let abbreviates = |l: &&str| *l == name || (name.len() >= 8 && l.starts_with(name));
        if LISTS.iter().any(abbreviates) {
            let list = if value.is_empty() && name != "--stdin-paths" {
                args.get(i + 1).copied().unwrap_or("-")
            } else if value.is_empty() {
                "-"
            } else {
                value
            };
            words.push(format!("the files `{list}` lists"));
        }
    }
    let program = cmd.program.as_str();
    if matches!(program, "tar" | "gtar" | "bsdtar") {
        let line = TarLine::read(&cmd.args);
        words.extend(line.lists.iter().map(|l| format!("the files `{l}` lists")));
    }
    let custom = row_of(program).is_some_and(|r| matches!(r.operands, Custom(_)));
    if !custom && programs::interpreter(program).is_none() {
        words.extend(
            args.iter()
                .filter(|a| a.len() > 1 && a.starts_with('@'))
                .map(|a| format!("the arguments response file `{}` holds", &a[1..])),
        );
    }
    let names_inside =
        cmd.args.iter().take_while(|a| *a != "--").any(|a| {
            a == "--name" || (a.starts_with('-') && !a.starts_with("--") && a.contains('N'))
        });
    if (COMPRESSORS.contains(&program) || LZ4.contains(&program)) && names_inside {
        words.push("the file name a compressed file keeps inside (`-N`)".to_owned());
    }
    if matches!(program, "make" | "gmake")
        && args.iter().any(|a| a.starts_with("--eval") || *a == "-E")
    {
        words.push("what `make --eval` code includes".to_owned());
    }
    for word in words {
        out.push(Touch {
            runtime: Some(word.clone()),
            ..Touch::new(&word, Access::Both)
        });
    }
}

/// The values an option word of a program hookc does not know may hold:
/// of a long one what follows `=`; of a short one what follows its first
/// letter (`-oFILE`), what follows each `=`, `,`, `:` or `@` in it
/// (`-XX:Flags=F`, `-Wl,@F`), or, where it has none, each of its endings
/// that looks like a path (`-include.env`). Any of them may be a file.
fn attached_values(word: &str) -> Vec<&str> {
    let Some(rest) = word.strip_prefix('-') else {
        return Vec::new();
    };
    if let Some(long) = rest.strip_prefix('-') {
        return long.split_once('=').map(|(_, v)| v).into_iter().collect();
    }
    let mut out = Vec::new();
    if let Some(c) = rest.chars().next() {
        out.push(&rest[c.len_utf8()..]);
    }
    // A value with spaces in it is text, or a command `unknown` reads.
    if rest.contains(char::is_whitespace) {
        return out;
    }
    let separated = rest
        .char_indices()
        .filter(|(_, c)| matches!(c, '=' | ',' | ':' | '@'))
        .map(|(i, c)| &rest[i + c.len_utf8()..])
        .filter(|v| !v.is_empty());
    let before = out.len();
    out.extend(separated);
    if out.len() == before && rest.len() <= MAX_JOINED {
        // `-include.env`, `-MFpolicy.kdl`: the name may start anywhere
        // after the letter (where the option's name ends is the
        // program's to say).
        out.extend(
            rest.char_indices()
                .skip(2)
                .map(|(i, _)| &rest[i..])
                .filter(|v| looks_like_path(v)),
        );
    }
    out
}

/// The longest option word whose every ending is taken for a file it may
/// name (`-MFpolicy.kdl`); a longer one counts only what follows its first
/// letter.
const MAX_JOINED: usize = 128;

fn files_of_row(row: &Row, cmd: &SimpleCommand, out: &mut Vec<Touch>) {
    let p = parse(&cmd.args, row);
    for &(v, role, _) in &p.values {
        push(out, v, role);
    }
    // A program that reads or writes files may take one through an option
    // the row does not list (`file --magic-file=.env`): a value that looks
    // like a path is one, read or written.
    let handles_files = match row.operands {
        All(role) | AfterFirst(role, _) | Copies(role) => role.access().is_some(),
        _ => false,
    };
    if handles_files {
        for v in p.unlisted.iter().filter(|v| looks_like_path(v)) {
            push(out, v, Both);
        }
    }
    let files = |role: Role| p.mode.unwrap_or(role);
    match row.operands {
        All(role) => {
            for o in &p.operands {
                push(out, o, files(role));
            }
        }
        AfterFirst(role, given) => {
            let skip = usize::from(!p.values.iter().any(|(_, _, n)| given.contains(n)));
            for o in p.operands.iter().skip(skip) {
                push(out, o, files(role));
            }
        }
        Copies(role) => copies(cmd, &p, role, out),
        Operands::PathLike => {
            // What a program hookc does not know does with a file it is
            // given is unknown too: it may read it and write it.
            // (The file itself: a directory given to it is not taken to be
            // emptied or moved, which would refuse every `tool .`.)
            let from = out.len();
            for o in &p.operands {
                if looks_like_path(o) || runtime::is_runtime_word(o) {
                    push(out, o, Both);
                }
            }
            // `--config=FILE`, `-oFILE` and the like of a program hookc
            // does not know.
            for v in cmd.args.iter().flat_map(|a| attached_values(a)) {
                if looks_like_path(v) || runtime::is_runtime_word(v) {
                    push(out, v, Both);
                }
            }
            for t in &mut out[from..] {
                t.tree = false;
            }
        }
        Custom(_) => {}
    }
}

/// The files a copy, move or link touches: its sources with `role` (and
/// as written when the command makes a hard link: the new name is another
/// door to the same file), and what it writes at the destination. Into a
/// directory that is each source's name there, and everything below it
/// when the copy is recursive; a source that stands for its contents
/// (`old/.`, rsync's `old/`) may write any name below the destination, and
/// so may `-T` (the destination is the copy). A destination that may be a
/// directory or a file is both.
fn copies(cmd: &SimpleCommand, p: &Parsed, role: Role, out: &mut Vec<Touch>) {
    let program = cmd.program.as_str();
    let options = || cmd.args.iter().take_while(|a| *a != "--");
    let short = |c: char| {
        options().any(|a| a.starts_with('-') && !a.starts_with("--") && a[1..].contains(c))
    };
    let long = |name: &str| options().any(|a| a == name);
    let symbolic = (program == "ln" && (short('s') || long("--symbolic")))
        || (program == "cp" && (short('s') || long("--symbolic-link")));
    let hard_link = (program == "ln" && !symbolic)
        || program == "link"
        || (program == "cp" && (short('l') || long("--link")));
    let recursive = program == "mv" || recursion(cmd).is_some();
    let whole = matches!(program, "cp" | "mv" | "ln" | "install")
        && (short('T') || long("--no-target-directory"));
    let target = p
        .values
        .iter()
        .find(|(_, _, n)| matches!(*n, "-t" | "--target-directory"))
        .map(|(v, _, _)| *v);
    let (sources, dest) = match (target, p.operands.split_last()) {
        (Some(t), _) => (&p.operands[..], Some(t)),
        (None, Some((last, rest))) if !rest.is_empty() => (rest, Some(*last)),
        _ => (&p.operands[..], None),
    };
    // A link, hard or symbolic, is a second name for its source, through
    // which the line (or a later call) may write it and what it holds.
    let source_role = if hard_link || symbolic { Both } else { role };
    for o in sources {
        push(out, o, source_role);
    }
    let Some(dest) = dest.filter(|d| !d.is_empty() && *d != "-") else {
        return;
    };
    // A symbolic link's relative target is counted from the folder the
    // link is made in: the destination's, or the destination itself when
    // it is a folder (`ln -s ../.hookc docs/h` points at `.hookc`).
    if symbolic {
        let parent = match dest.trim_end_matches('/').rsplit_once('/') {
            Some(("", _)) => "/".to_owned(),
            Some((dir, _)) => dir.to_owned(),
            None => ".".to_owned(),
        };
        for o in sources.iter().filter(|o| is_relative(o)) {
            for dir in [parent.as_str(), dest.trim_end_matches('/')] {
                if !matches!(dir, "" | ".") {
                    push(out, &format!("{}/{o}", dir.trim_end_matches('/')), Both);
                }
            }
        }
    }
    if whole {
        out.push(Touch {
            tree: recursive,
            ..Touch::new(dest, Access::Write)
        });
        return;
    }
    let trimmed = dest.trim_end_matches('/');
    let a_directory = target.is_some()
        || sources.len() > 1
        || dest.ends_with('/')
        || matches!(trimmed.rsplit('/').next(), Some("." | "..") | None)
        || trimmed.is_empty();
    if !a_directory {
        out.push(Touch {
            tree: recursive,
            ..Touch::new(dest, Access::Write)
        });
    }
    for source in sources {
        let name = source
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or("");
        let contents = matches!(name, "" | "." | "..")
            || (source.ends_with('/') && matches!(program, "rsync" | "rclone"));
        let into = match trimmed {
            "" if dest.starts_with('/') => "/".to_owned(),
            "" => ".".to_owned(),
            d => d.to_owned(),
        };
        if contents {
            out.push(Touch::new(dest, Access::Write));
        } else {
            out.push(Touch {
                tree: recursive,
                ..Touch::new(
                    &format!("{}/{name}", into.trim_end_matches('/')),
                    Access::Write,
                )
            });
        }
    }
}

/// A word that may name a file: it has a `/`, a `.` or a wildcard in it,
/// or starts with `~`, and is not a URL or an option.
pub fn looks_like_path(t: &str) -> bool {
    !t.is_empty()
        && !t.starts_with('-')
        && !t.contains("://")
        && (t.contains(['/', '.', '~']) || is_glob(t))
}

/// `tar`: in create mode (`c`, `r`, `u`, `A`) the operands are read and the
/// archive written; in extract mode (`x`) the archive is read and the
/// members named (or, with none, every file below the directory) written;
/// `--exclude` is a pattern; `-T` lists files to read; `-C` moves.
fn tar(cmd: &SimpleCommand, out: &mut Vec<Touch>) {
    let line = TarLine::read(&cmd.args);
    for w in &line.written {
        push(out, w, Write);
    }
    for l in &line.lists {
        push(out, l, Read);
    }
    let under = |p: &str| match line.dir {
        Some(d) if is_relative(p) => format!("{d}/{p}"),
        _ => p.to_owned(),
    };
    // `--remove-files` (or an abbreviation of it) deletes each member once
    // it is in the archive.
    let removes = cmd
        .args
        .iter()
        .any(|a| a.len() >= "--rem".len() && "--remove-files".starts_with(a.as_str()));
    if removes && !line.lists.is_empty() {
        named_when_run("(the files the list names, which tar removes)", out);
    }
    let (archive, members) = match line.mode {
        'c' | 'r' | 'u' | 'A' if removes => (Write, Some(Both)),
        'c' | 'r' | 'u' | 'A' => (Write, Some(Read)),
        'x' => (Read, Some(Write)),
        _ => (Read, None),
    };
    for a in &line.archive {
        push(out, a, archive);
    }
    let Some(members) = members else {
        return;
    };
    if line.mode == 'x' && line.operands.is_empty() {
        // Every member, wherever the archive puts it.
        push(out, &under("**"), Write);
    }
    for o in &line.operands {
        push(out, &under(o), members);
    }
}

/// What a `tar` command line names: its mode (`c`, `x`, `t`, …), the
/// archives, the folder it works in (`-C`), the members, the files that
/// list names (`-T`, `-X`) and the files it writes besides the archive.
#[derive(Default)]
struct TarLine<'a> {
    mode: char,
    archive: Vec<&'a str>,
    dir: Option<&'a str>,
    operands: Vec<&'a str>,
    lists: Vec<&'a str>,
    written: Vec<&'a str>,
}

impl<'a> TarLine<'a> {
    /// Letters whose value follows (in the same word or the next).
    const WITH_VALUE: &'static str = "fCTXbKNVgHLs";
    /// Letters that set the mode.
    const MODES: &'static str = "crutxAd";

    fn read(args: &'a [String]) -> TarLine<'a> {
        let mut line = TarLine {
            mode: ' ',
            ..TarLine::default()
        };
        let mut i = 0;
        // Old-style first word: `tar czf x.tgz .env` bundles letters, whose
        // values follow in order.
        let mut pending: Vec<char> = Vec::new();
        if let Some(first) = args.first().filter(|a| !a.starts_with('-')) {
            for c in first.chars() {
                line.letter(c);
                if Self::WITH_VALUE.contains(c) {
                    pending.push(c);
                }
            }
            i = 1;
        }
        let mut options = true;
        while let Some(t) = args.get(i).map(String::as_str) {
            i += 1;
            if !pending.is_empty() {
                line.value(pending.remove(0), t);
            } else if !options || !t.starts_with('-') || t == "-" {
                line.operands.push(t);
            } else if t == "--" {
                options = false;
            } else if let Some(long) = t.strip_prefix("--") {
                i += line.long(long, args.get(i).map(String::as_str));
            } else {
                i += line.cluster(&t[1..], args.get(i).map(String::as_str));
            }
        }
        line
    }

    fn letter(&mut self, c: char) {
        if Self::MODES.contains(c) {
            self.mode = c;
        }
    }

    fn value(&mut self, letter: char, v: &'a str) {
        match letter {
            'f' => self.archive.push(v),
            'C' => self.dir = Some(v),
            'T' | 'X' => self.lists.push(v),
            _ => {}
        }
    }

    /// A short cluster (`-czf`, `-fx.tgz`); returns how many of the words
    /// after it it took (`next`: the word that follows).
    fn cluster(&mut self, cluster: &'a str, next: Option<&'a str>) -> usize {
        for (pos, c) in cluster.char_indices() {
            self.letter(c);
            if Self::WITH_VALUE.contains(c) {
                let attached = &cluster[pos + 1..];
                let (v, took) = if attached.is_empty() {
                    (next, 1)
                } else {
                    (Some(attached), 0)
                };
                if let Some(v) = v {
                    self.value(c, v);
                }
                return took;
            }
        }
        0
    }

    /// A long option (`--file=x.tgz`, `--directory dir`); returns how many
    /// of the words after it it took.
    fn long(&mut self, long: &'a str, next: Option<&'a str>) -> usize {
        let (name, value) = match long.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (long, None),
        };
        match name {
            "create" | "append" | "update" | "concatenate" => self.mode = 'c',
            "extract" | "get" => self.mode = 'x',
            "list" | "diff" | "compare" => self.mode = 't',
            _ => {}
        }
        let takes = matches!(
            name,
            "file"
                | "directory"
                | "files-from"
                | "exclude-from"
                | "exclude"
                | "transform"
                | "xform"
                | "owner"
                | "group"
                | "mode"
                | "mtime"
                | "newer"
                | "after-date"
                | "label"
                | "format"
                | "blocking-factor"
                | "tape-length"
                | "strip-components"
                | "use-compress-program"
                | "to-command"
                | "index-file"
                | "listed-incremental"
        );
        let (value, took) = match value {
            Some(v) => (Some(v), 0),
            None if takes => (next, 1),
            None => (None, 0),
        };
        if let Some(v) = value {
            match name {
                "file" => self.archive.push(v),
                "directory" => self.dir = Some(v),
                "files-from" | "exclude-from" => self.lists.push(v),
                "index-file" | "listed-incremental" => self.written.push(v),
                _ => {}
            }
        }
        took
    }
}

/// `zip [OPTIONS] ARCHIVE FILE…`: the archive is read and written, the files
/// read; `-x`/`-i` are followed by patterns.
/// A package manager or runner (see `runners`): the folder given to `-C`,
/// `--prefix`, `--cwd`, `-w` or `--filter` is where it runs, not a file it
/// changes; `bun` running a file is an interpreter; any other operand that
/// looks like a path is taken as a program hookc does not know takes it
/// (`npm install ./pkg` may read and write it).
fn package_manager(cmd: &SimpleCommand, out: &mut Vec<Touch>) {
    let words: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
    if runners::read(&cmd.program, &words).is_some_and(|r| r.runs == runners::Runs::Code) {
        return interpreter(cmd, out);
    }
    if runners::writes_the_manifest(&cmd.program, &words) {
        push(out, "**/package.json", Write);
    }
    let mut k = 0;
    while let Some(&t) = words.get(k) {
        k += 1;
        if runners::chooses_the_package(&cmd.program, t) {
            k += usize::from(!t.contains('='));
            continue;
        }
        let value = t
            .strip_prefix("--")
            .and_then(|l| l.split_once('='))
            .map_or(t, |(_, v)| v);
        if looks_like_path(value) || runtime::is_runtime_word(value) {
            push(out, value, Both);
        }
    }
}

fn zip(cmd: &SimpleCommand, out: &mut Vec<Touch>) {
    let mut operands = Vec::new();
    let mut patterns = false;
    let mut i = 0;
    while let Some(t) = cmd.args.get(i) {
        i += 1;
        if t.starts_with('-') && t.len() > 1 {
            patterns = matches!(t.as_str(), "-x" | "-i" | "--exclude" | "--include");
            if matches!(
                t.as_str(),
                "-b" | "-n" | "-P" | "-t" | "-tt" | "-Z" | "-s" | "-O"
            ) {
                i += 1;
            }
            continue;
        }
        if !patterns {
            operands.push(t.as_str());
        }
    }
    // `-m` (`--move`, or in a cluster: `-rm`) deletes each file once it is
    // in the archive.
    let moves = cmd
        .args
        .iter()
        .any(|a| a == "--move" || (a.starts_with('-') && !a.starts_with("--") && a.contains('m')));
    if let Some((archive, files)) = operands.split_first() {
        push(out, archive, Both);
        for f in files {
            push(out, f, if moves { Both } else { Read });
        }
    }
}

/// A write whose file only the running program names: the pieces of a
/// `split` with an odd suffix, the files a patch names.
fn named_when_run(word: &str, out: &mut Vec<Touch>) {
    out.push(Touch {
        runtime: Some(word.to_owned()),
        ..Touch::file(word, Access::Write)
    });
}

/// `split [FILE [PREFIX]]` and `csplit FILE PATTERN…`: the input is read
/// and the pieces written, each named by the prefix (`x`, `xx` by default)
/// and a suffix the program counts up (csplit's `-b` format, split's
/// `--additional-suffix` after it): a glob of those names. A prefix or a
/// suffix that is itself a glob, or an option hookc does not know (an
/// abbreviation), leaves the names to the program.
fn split(cmd: &SimpleCommand, out: &mut Vec<Touch>) {
    let csplit = cmd.program == "csplit";
    // Options that take a value, short and long.
    let valued: &[(&str, &str)] = if csplit {
        &[
            ("-b", "--suffix-format"),
            ("-f", "--prefix"),
            ("-n", "--digits"),
        ]
    } else {
        &[
            ("-a", "--suffix-length"),
            ("-b", "--bytes"),
            ("-C", "--line-bytes"),
            ("-l", "--lines"),
            ("-n", "--number"),
            ("-t", "--separator"),
            ("", "--additional-suffix"),
            ("", "--filter"),
        ]
    };
    let flags: &[&str] = if csplit {
        &[
            "--keep-files",
            "--suppress-matched",
            "--quiet",
            "--silent",
            "--elide-empty-files",
        ]
    } else {
        &[
            "--elide-empty-files",
            "--unbuffered",
            "--verbose",
            "--numeric-suffixes",
            "--hex-suffixes",
        ]
    };
    let mut operands = Vec::new();
    let mut given: Vec<(&str, &str)> = Vec::new();
    let mut known = true;
    let mut i = 0;
    let mut options = true;
    while let Some(t) = cmd.args.get(i) {
        let t = t.as_str();
        i += 1;
        if !options || t == "-" || !t.starts_with('-') {
            operands.push(t);
        } else if t == "--" {
            options = false;
        } else if let Some(long) = t.strip_prefix("--") {
            let (name, value) = long.split_once('=').unwrap_or((long, ""));
            let name = &t[..name.len() + 2];
            if let Some(&(_, full)) = valued.iter().find(|(_, l)| *l == name) {
                let value = if t.contains('=') {
                    Some(value)
                } else {
                    i += 1;
                    cmd.args.get(i - 1).map(String::as_str)
                };
                given.extend(value.map(|v| (full, v)));
            } else if !flags.contains(&name) {
                known = false;
            }
        } else {
            for (at, c) in t[1..].char_indices() {
                let short = &t[at + 1..at + 1 + c.len_utf8()];
                let Some(&(_, full)) = valued
                    .iter()
                    .find(|(s, _)| s.len() == 2 && s[1..] == *short)
                else {
                    continue;
                };
                let rest = &t[at + 1 + c.len_utf8()..];
                let value = if rest.is_empty() {
                    i += 1;
                    cmd.args.get(i - 1).map(String::as_str)
                } else {
                    Some(rest)
                };
                given.extend(value.map(|v| (full, v)));
                break;
            }
        }
    }
    let value = |name: &str| {
        given
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
    };
    if let Some(input) = operands.first() {
        push(out, input, Read);
    }
    if value("--filter").is_some() {
        // The pieces go to the filter's standard input (see `local_runs`).
        return;
    }
    let (prefix, suffix) = if csplit {
        let format = value("--suffix-format").map(|f| {
            let mut glob = String::new();
            let mut rest = f;
            while let Some(at) = rest.find('%') {
                glob.push_str(&rest[..at]);
                let conversion = rest[at + 1..].find(|c: char| c.is_ascii_alphabetic() || c == '%');
                match conversion {
                    Some(end) if rest.as_bytes()[at + 1 + end] == b'%' => glob.push('%'),
                    Some(_) => glob.push('*'),
                    None => {}
                }
                rest = conversion.map_or("", |end| &rest[at + 2 + end..]);
            }
            glob.push_str(rest);
            glob
        });
        (
            value("--prefix").unwrap_or("xx"),
            format.unwrap_or_else(|| "*".to_owned()),
        )
    } else {
        let extra = value("--additional-suffix").unwrap_or_default();
        (operands.get(1).copied().unwrap_or("x"), format!("*{extra}"))
    };
    let pieces = format!("{prefix}{suffix}");
    let plain = |t: &str| !t.contains(['*', '?', '[', ']', '{', '}', '\\']);
    if known
        && plain(prefix)
        && plain(&suffix.replace('*', ""))
        && !runtime::is_runtime_word(&pieces)
    {
        push(out, &pieces, Write);
    } else {
        named_when_run(&pieces, out);
    }
}

/// `patch [ORIGFILE [PATCHFILE]]`: the file named is patched; with none,
/// the patch itself names the files it changes (`+++ b/src/main.rs`),
/// which only the running program reads. So do a folder to work in (`-d`)
/// and a prefix for backups (`-B`, `-Y`).
/// `mount` and `umount`: each operand is read and written (a mount over a
/// folder hides what it holds, and gives what it mounts a second path),
/// and so is each folder the options name (`-o upperdir=.,lowerdir=a:b`
/// of an overlay, `x-path=` of any file system): a value after `=` that
/// looks like a path, split at `:`.
fn mount(cmd: &SimpleCommand, out: &mut Vec<Touch>) {
    let mut args = cmd.args.iter().map(String::as_str);
    let mut options = Vec::new();
    while let Some(a) = args.next() {
        match a {
            "-o" | "--options" => options.extend(args.next()),
            "-t" | "--types" | "-L" | "--label" | "-U" | "--uuid" | "-O" | "--test-opts" => {
                args.next();
            }
            _ if a.starts_with("--options=") => options.push(&a["--options=".len()..]),
            _ if a.starts_with("-o") => options.push(&a[2..]),
            _ if a.starts_with("--") => {
                if let Some((_, v)) = a.split_once('=') {
                    push(out, v, Both);
                }
            }
            _ if a.starts_with('-') => {}
            _ => push(out, a, Both),
        }
    }
    for value in options.iter().flat_map(|o| o.split(',')) {
        let Some((_, v)) = value.split_once('=') else {
            continue;
        };
        for part in v.split(':') {
            push(out, part, Both);
        }
    }
}

fn patch(cmd: &SimpleCommand, out: &mut Vec<Touch>) {
    const PATCH: Row = Row {
        values: &[
            ("-i", Read),
            ("--input", Read),
            ("-o", Write),
            ("--output", Write),
            ("-r", Write),
            ("--reject-file", Write),
            ("-p", Not),
            ("--strip", Not),
            ("-D", Not),
            ("--ifdef", Not),
            ("-F", Not),
            ("--fuzz", Not),
            ("-V", Not),
            ("--version-control", Not),
            ("-z", Not),
            ("--suffix", Not),
            ("-g", Not),
            ("--get", Not),
            ("--quoting-style", Not),
            ("-d", Not),
            ("--directory", Not),
            ("-B", Not),
            ("--prefix", Not),
            ("-Y", Not),
            ("--basename-prefix", Not),
        ],
        ..row(&["patch"], Custom(patch))
    };
    let p = parse(&cmd.args, &PATCH);
    for &(v, role, _) in &p.values {
        push(out, v, role);
    }
    let elsewhere = p.values.iter().any(|(_, _, n)| {
        matches!(
            *n,
            "-d" | "--directory" | "-B" | "--prefix" | "-Y" | "--basename-prefix"
        )
    });
    let output = p
        .values
        .iter()
        .any(|(_, _, n)| matches!(*n, "-o" | "--output"));
    match p.operands.as_slice() {
        [] if output && !elsewhere => {}
        [] => named_when_run("(the files the patch names)", out),
        [file, rest @ ..] => {
            push(out, file, Both);
            for r in rest {
                push(out, r, Read);
            }
            if elsewhere {
                named_when_run("(the files the patch names)", out);
            }
        }
    }
}

/// `unzip [OPTIONS] ARCHIVE [MEMBER…] [-x MEMBER…] [-d DIR]`: the archive is
/// read, the members written (every one, with none named).
fn unzip(cmd: &SimpleCommand, out: &mut Vec<Touch>) {
    let mut operands = Vec::new();
    let mut dir = None;
    let mut excluded = false;
    let mut i = 0;
    let mut listing = false;
    while let Some(t) = cmd.args.get(i) {
        i += 1;
        if t.starts_with('-') && t.len() > 1 {
            excluded = t == "-x";
            listing |= t.starts_with("-l") || t.starts_with("-Z") || t == "-v" || t == "-t";
            if t == "-d" {
                dir = cmd.args.get(i).map(String::as_str);
                i += 1;
            } else if t == "-P" {
                i += 1;
            }
            continue;
        }
        if !excluded {
            operands.push(t.as_str());
        }
    }
    let under = |p: &str| match dir {
        Some(d) if is_relative(p) => format!("{d}/{p}"),
        _ => p.to_owned(),
    };
    if let Some((archive, members)) = operands.split_first() {
        push(out, archive, Read);
        if listing {
            return;
        }
        if members.is_empty() {
            push(out, &under("**"), Write);
        }
        for m in members {
            push(out, &under(m), Write);
        }
    }
}

/// `dd if=IN` (its `of=` the normaliser records as a write).
fn dd(cmd: &SimpleCommand, out: &mut Vec<Touch>) {
    for a in &cmd.args {
        if let Some(v) = a.strip_prefix("if=") {
            push(out, v, Read);
        }
    }
}

/// `curl`: data and forms from `@FILE` (or `<FILE`), uploads (`-T`),
/// configs and certificates are read; `-o`, `-D`, `-c` written; `file://`
/// URLs read.
fn curl(cmd: &SimpleCommand, out: &mut Vec<Touch>) {
    for (kind, value) in CurlValue::read(&cmd.args) {
        match kind {
            CurlValue::File(role) => push(out, &value, role),
            CurlValue::Data => {
                if let Some(file) = data_file(&value) {
                    push(out, file, Read);
                }
            }
            CurlValue::Url => url(&value, out),
            CurlValue::Other => {}
        }
    }
}

/// What curl does with a value on its command line.
#[derive(Clone, Copy)]
enum CurlValue {
    /// A file it reads or writes (`-T FILE`, `-o FILE`).
    File(Role),
    /// Data or a form field, naming a file it reads after `@` or `<`.
    Data,
    /// A URL (an operand, or `--url`'s value).
    Url,
    /// A header, a method, a count, … or data taken literally.
    Other,
}

impl CurlValue {
    /// What the value of `option` is, for an option that takes one.
    fn of(option: &str) -> Option<CurlValue> {
        Some(match option {
            "-d" | "--data" | "--data-binary" | "--data-ascii" | "--json" | "--data-urlencode"
            | "-F" | "--form" => CurlValue::Data,
            "--url" => CurlValue::Url,
            "--form-string" | "--data-raw" => CurlValue::Other,
            "-T" | "--upload-file" | "-K" | "--config" | "--cacert" | "--cert" | "-E" | "--key"
            | "--netrc-file" | "--capath" => CurlValue::File(Read),
            "-o" | "--output" | "-D" | "--dump-header" | "-c" | "--cookie-jar" | "--trace"
            | "--trace-ascii" | "--stderr" | "--etag-save" => CurlValue::File(Write),
            "-b" | "--cookie" | "--etag-compare" => CurlValue::File(Read),
            "-H" | "--header" | "-u" | "--user" | "-X" | "--request" | "-A" | "--user-agent"
            | "-e" | "--referer" | "-x" | "--proxy" | "-m" | "--max-time" | "-w"
            | "--write-out" | "-r" | "--range" | "--connect-timeout" | "--retry" | "-U"
            | "--proxy-user" | "--resolve" | "-Y" | "-y" | "-z" | "-C" | "-P" | "-Q" | "-t" => {
                CurlValue::Other
            }
            _ => return None,
        })
    }

    /// The values on a curl command line, in order, each with what curl
    /// does with it: those of options (`-o FILE`, `--output=FILE`,
    /// `-oFILE`) and the operands, which are URLs. Options without a value
    /// are skipped.
    fn read(args: &[String]) -> Vec<(CurlValue, String)> {
        let mut values = Vec::new();
        let mut i = 0;
        while let Some(t) = args.get(i) {
            i += 1;
            let (name, glued) = if let Some(long) = t.strip_prefix("--") {
                match long.split_once('=') {
                    Some((n, v)) => (format!("--{n}"), Some(v.to_owned())),
                    None => (t.clone(), None),
                }
            } else if let Some(cluster) = t.strip_prefix('-').filter(|c| !c.is_empty()) {
                // Short options may be clustered (`-sLo FILE`): curl reads
                // them one by one, and the first that takes a value takes
                // the rest of the word (`-oFILE`) or, if none is left, the
                // next word.
                let takes = cluster
                    .char_indices()
                    .find(|&(_, c)| CurlValue::of(&format!("-{c}")).is_some());
                match takes {
                    Some((at, c)) => {
                        let rest = &cluster[at + c.len_utf8()..];
                        (format!("-{c}"), (!rest.is_empty()).then(|| rest.to_owned()))
                    }
                    None => (t.clone(), None),
                }
            } else {
                (t.clone(), None)
            };
            match CurlValue::of(&name) {
                Some(kind) => {
                    let value = match glued {
                        Some(v) => v,
                        None => {
                            i += 1;
                            args.get(i - 1).cloned().unwrap_or_default()
                        }
                    };
                    values.push((kind, value));
                }
                None if !t.starts_with('-') => values.push((CurlValue::Url, t.clone())),
                None => {}
            }
        }
        values
    }
}

/// The file a curl data or form value reads: `@FILE`, `name@FILE`
/// (urlencode), `name=@FILE` or `name=<FILE` (forms), without the
/// `;type=…` a form field may add.
fn data_file(v: &str) -> Option<&str> {
    let file = v
        .strip_prefix('@')
        .or_else(|| v.split_once("=@").map(|(_, f)| f))
        .or_else(|| v.split_once("=<").map(|(_, f)| f))
        .or_else(|| {
            v.split_once('@')
                .filter(|(n, _)| !n.contains('='))
                .map(|(_, f)| f)
        })?;
    Some(file.split(';').next().unwrap_or(file))
}

fn url(t: &str, out: &mut Vec<Touch>) {
    if let Some(path) = t.strip_prefix("file://") {
        // `file:///etc/x`, `file://localhost/etc/x`
        let path = path.strip_prefix("localhost").unwrap_or(path);
        push(out, path, Read);
    }
}

/// `wget`: `-O`/`-o`/`-a` written; `-i`, `--post-file`, `--body-file`,
/// `--load-cookies` read; URLs are not files.
fn wget(cmd: &SimpleCommand, out: &mut Vec<Touch>) {
    let row = Row {
        values: &[
            ("-O", Write),
            ("--output-document", Write),
            ("-o", Write),
            ("--output-file", Write),
            ("-a", Write),
            ("--append-output", Write),
            ("-i", Read),
            ("--input-file", Read),
            ("--post-file", Read),
            ("--body-file", Read),
            ("--load-cookies", Read),
            ("--save-cookies", Write),
            ("-P", Not),
            ("--directory-prefix", Not),
            ("-U", Not),
            ("--header", Not),
            ("--post-data", Not),
        ],
        ..row(&[], All(Not))
    };
    let p = parse(&cmd.args, &row);
    for &(v, role, _) in &p.values {
        push(out, v, role);
    }
    for o in p.operands {
        url(o, out);
    }
}

/// `find DIR… EXPR`: the starting points are listed, not read;
/// `-delete` writes what it finds, `-fprint FILE` writes FILE. What `-exec`
/// runs gets the found files as `{}` (see [`super::find::found`]).
fn find(cmd: &SimpleCommand, out: &mut Vec<Touch>) {
    let args = &cmd.args;
    if cmd.program.starts_with("fd") {
        // fd lists. With `-x`/`-X` it hands what it finds to a command,
        // which may read or write any of it (hidden files with `-H`).
        let runs = args.iter().any(|a| {
            matches!(a.as_str(), "-x" | "-X" | "--exec" | "--exec-batch")
                || a.starts_with("--exec=")
                || a.starts_with("--exec-batch=")
        });
        if runs {
            out.push(Touch {
                access: Access::Both,
                ..Touch::below(".", &[])
            });
        }
        return;
    }
    let mut i = 0;
    while let Some(t) = args.get(i) {
        i += 1;
        match t.as_str() {
            "-fprint" | "-fprint0" | "-fls" | "-fprintf" => {
                if let Some(v) = args.get(i) {
                    push(out, v, Write);
                }
            }
            // The starting points, read from a file.
            "-files0-from" => {
                if let Some(v) = args.get(i) {
                    push(out, v, Read);
                }
            }
            "-delete" => {
                // What find deletes exists when it runs: the files on disk
                // that its tests name (`-name '*.orig'` deletes no `.env`).
                for g in super::find::found_globs(args) {
                    out.push(Touch {
                        path: g,
                        access: Access::Write,
                        glob: Some(Expansion {
                            dot: true,
                            nocase: false,
                        }),
                        on_disk: true,
                        except: Vec::new(),
                        tree: true,
                        runtime: None,
                        place: None,
                        split: false,
                        presumed: None,
                    });
                }
            }
            _ => {}
        }
    }
}

/// `git`: `show REV:PATH` and `cat-file -p REV:PATH` read PATH (from the
/// repository, which holds what was committed); `checkout`/`restore`/`rm`/
/// `mv` write the paths they name; `add` reads them; `diff --no-index` and
/// `apply` read files. Other subcommands name revisions, not files.
/// What stands for a file a git command touches in a repository whose
/// folder hookc cannot name (`--git-dir`, `--work-tree`, a `-C` with a
/// value known only when the line runs).
const GIT_ELSEWHERE: &str =
    "(a file of a repository git is sent to by --git-dir, --work-tree or -C)";

/// A git command's files, counted from the folder its `-C` options name
/// (`git -C .hookc rm policy.json` removes `.hookc/policy.json`, and `git
/// -C DIR init` makes `DIR/.git`); where hookc cannot name the folder,
/// each is known only when the line runs.
fn git(cmd: &SimpleCommand, out: &mut Vec<Touch>) {
    let start = out.len();
    git_here(cmd, out);
    if !cmd.repo_elsewhere {
        return;
    }
    match &cmd.repo_folder {
        Some(folder) => {
            let init = cmd.args.first().is_some_and(|s| s == "init");
            if init && out.len() == start {
                push(out, ".git", Write);
            }
            for t in &mut out[start..] {
                if is_relative(&t.path) {
                    t.path = format!("{}/{}", folder.trim_end_matches('/'), t.path);
                }
            }
        }
        None => {
            for t in &mut out[start..] {
                t.runtime = Some(GIT_ELSEWHERE.to_owned());
            }
        }
    }
}

fn git_here(cmd: &SimpleCommand, out: &mut Vec<Touch>) {
    let Some((sub, rest)) = cmd.args.split_first() else {
        return;
    };
    let operands = || {
        let mut after = false;
        rest.iter().filter(move |a| {
            if a.as_str() == "--" {
                after = true;
                return false;
            }
            after || !a.starts_with('-')
        })
    };
    // `--output FILE` (diff, log, show, format-patch, archive…) writes the
    // file, whatever it holds (`git show --output=F HEAD:blob` copies a
    // blob); `-o` is the same for archive and format-patch (a folder).
    let mut args = rest.iter().take_while(|a| *a != "--");
    while let Some(a) = args.next() {
        let short = a == "-o" && matches!(sub.as_str(), "archive" | "format-patch");
        if let Some(file) = a.strip_prefix("--output=") {
            push(out, file, Write);
        } else if (a == "--output" || short)
            && let Some(file) = args.next()
        {
            push(out, file, Write);
        }
    }
    // `--pathspec-from-file=FILE` (add, reset, rm, commit, checkout,
    // restore, stash): the names are read from the file, and a message
    // about each may print them.
    let mut args = rest.iter().take_while(|a| *a != "--");
    while let Some(a) = args.next() {
        if let Some(file) = a.strip_prefix("--pathspec-from-file=") {
            push(out, file, Read);
        } else if a == "--pathspec-from-file"
            && let Some(file) = args.next()
        {
            push(out, file, Read);
        }
    }
    // Options whose value is a file git reads: a message (`commit -F`), a
    // template, the contents to blame, a file to add to an archive, the
    // settings file `config -f` reads and writes.
    let mut args = rest.iter().take_while(|a| *a != "--");
    let (short, long, role): (&str, &[&str], Role) = match sub.as_str() {
        "commit" => ("Ft", &["--file", "--template"], Read),
        "tag" | "merge" | "notes" | "fmt-merge-msg" => ("F", &["--file"], Read),
        "blame" | "annotate" => ("S", &["--contents", "--ignore-revs-file"], Read),
        // Marks files, read and written.
        "fast-export" | "fast-import" => (
            "",
            &[
                "--export-marks",
                "--import-marks",
                "--import-marks-if-exists",
            ],
            Both,
        ),
        "credential-store" => ("", &["--file"], Both),
        "archive" => ("", &["--add-file"], Read),
        "config" => ("f", &["--file"], Both),
        _ => ("", &[], Read),
    };
    while let Some(a) = args.next() {
        let value = if let Some((_, v)) = a.split_once('=').filter(|(n, _)| long.contains(n)) {
            Some(v)
        } else if long.contains(&a.as_str()) {
            args.next().map(String::as_str)
        } else if let Some(flags) = a.strip_prefix('-').filter(|f| !f.starts_with('-')) {
            match flags.find(|c| short.contains(c)) {
                Some(at) if at + 1 < flags.len() => Some(&flags[at + 1..]),
                Some(_) => args.next().map(String::as_str),
                None => None,
            }
        } else {
            None
        };
        if let Some(file) = value.filter(|f| *f != "-") {
            push(out, file, role);
        }
    }
    match sub.as_str() {
        // Each operand a file: trailers read from them, a merge of three
        // (written into the first unless `-p`), patches mailed.
        "interpret-trailers" | "send-email" => {
            let in_place = sub == "interpret-trailers" && rest.iter().any(|a| a == "--in-place");
            for o in operands().filter(|o| looks_like_path(o)) {
                push(out, o, if in_place { Both } else { Read });
            }
        }
        // `git mailinfo MSG PATCH` writes both; `git mailsplit -oDIR`
        // writes into DIR.
        "mailinfo" => {
            for o in operands() {
                push(out, o, Write);
            }
        }
        "mailsplit" => {
            for a in rest {
                if let Some(dir) = a.strip_prefix("-o").filter(|d| !d.is_empty()) {
                    push(out, dir, Write);
                }
            }
        }
        "merge-file" => {
            let printed = rest.iter().any(|a| a == "-p" || a == "--stdout");
            for (k, o) in operands().enumerate() {
                push(out, o, if k == 0 && !printed { Both } else { Read });
            }
        }
        // New repositories and work trees, and a bundle, written whole.
        "init" | "clone" | "bundle" | "worktree" => git_creates(sub, rest, out),
        "show" | "cat-file" => {
            for o in operands() {
                if let Some((_, path)) = o.split_once(':') {
                    push(out, path, Read);
                }
            }
        }
        "checkout" | "restore" | "rm" | "mv" | "clean" | "switch" => {
            for o in operands().filter(|o| looks_like_path(o)) {
                push(out, o, Write);
            }
            // `git clean` without a path cleans the whole work tree (and
            // `-n` only says what it would remove).
            let dry = rest.iter().any(|a| {
                a == "--dry-run" || (a.starts_with('-') && !a.starts_with("--") && a.contains('n'))
            });
            if sub == "clean" && !dry && clean_paths(rest) == 0 {
                push(out, ".", Write);
            }
        }
        // `git add -f DIR` reads ignored files below it too (a `.env` into
        // the index, where `git diff --cached` prints it); `--f`, `--fo`, …
        // abbreviate `--force`.
        "add"
            if rest.iter().take_while(|a| *a != "--").any(|a| {
                (a.len() >= 3 && "--force".starts_with(a.as_str()))
                    || (a.starts_with('-') && !a.starts_with("--") && a.contains('f'))
            }) =>
        {
            // With no path (`git add -A -f`), the whole work tree.
            let mut any = false;
            for o in operands() {
                any = true;
                pathspec_read(o, out);
            }
            if !any {
                out.push(Touch::below(".", &[]));
            }
        }
        // `git update-index --add F` takes F whether git ignores it or not.
        "add" | "apply" | "am" | "hash-object" | "update-index" => {
            for o in operands().filter(|o| looks_like_path(o)) {
                push(out, o, Read);
            }
        }
        // Two folders are compared file by file.
        // (difftool hands both files to the program `-x` names.)
        "diff" | "difftool" if rest.iter().any(|a| a == "--no-index") => {
            for o in operands() {
                push(out, o, Read);
                out.push(Touch::below(o, &[]));
            }
        }
        "grep" => git_grep(rest, out),
        _ => {}
    }
}

/// What `git init [DIR]`, `git clone REPO [DIR]`, `git worktree add DIR`
/// and `git bundle create FILE` write: the folder (or file) they make, with
/// everything in it. A clone without a folder makes one named after the
/// repository.
fn git_creates(sub: &str, rest: &[String], out: &mut Vec<Touch>) {
    // Options that take a value, so that it is not taken for an operand.
    const VALUED: &[&str] = &[
        "-b",
        "--branch",
        "-o",
        "--origin",
        "-c",
        "--config",
        "--depth",
        "-j",
        "--jobs",
        "--reference",
        "--template",
        "--separate-git-dir",
        "-u",
        "--upload-pack",
        "--object-format",
        "--shared",
        "--initial-branch",
        "-B",
        "--reason",
    ];
    let mut operands = Vec::new();
    let mut args = rest.iter();
    let mut options = true;
    while let Some(a) = args.next() {
        if options && a == "--" {
            options = false;
        } else if options && a.starts_with('-') && a.len() > 1 {
            // The repository itself goes to `--separate-git-dir DIR`.
            if let Some(dir) = a.strip_prefix("--separate-git-dir=") {
                push(out, dir, Write);
            } else if VALUED.contains(&a.as_str()) {
                let value = args.next();
                if a == "--separate-git-dir"
                    && let Some(dir) = value
                {
                    push(out, dir, Write);
                }
            }
        } else {
            operands.push(a.as_str());
        }
    }
    let made = match (sub, &operands[..]) {
        // `git init` alone (re)makes the `.git` here, which keeps what it
        // holds.
        ("init", [dir, ..]) => Some((*dir).to_owned()),
        ("clone", [_, dir, ..]) => Some((*dir).to_owned()),
        ("clone", [repo]) => {
            let name = repo
                .trim_end_matches('/')
                .rsplit(['/', ':'])
                .next()
                .unwrap_or(repo);
            Some(name.strip_suffix(".git").unwrap_or(name).to_owned())
        }
        ("worktree", ["add", dir, ..]) => Some((*dir).to_owned()),
        ("bundle", ["create", file, ..]) => Some((*file).to_owned()),
        _ => None,
    };
    if let Some(path) = made.filter(|p| !p.is_empty()) {
        out.push(Touch {
            tree: sub != "bundle",
            ..Touch::new(&path, Access::Write)
        });
    }
}

/// `git grep` outside what git tracks (`--no-index`, `--untracked`): the
/// files below each path given (the work tree without one), like `grep
/// -r`; `-f FILE` reads its patterns from a file. Searching tracked files
/// only reads what the repository holds, which `git show` would print.
fn git_grep(rest: &[String], out: &mut Vec<Touch>) {
    let outside = rest
        .iter()
        .take_while(|a| *a != "--")
        .any(|a| a == "--no-index" || a == "--untracked");
    if !outside {
        return;
    }
    let mut operands = Vec::new();
    let mut pattern_given = false;
    let mut options = true;
    let mut args = rest.iter();
    while let Some(a) = args.next() {
        let a = a.as_str();
        if !options || a == "-" || !a.starts_with('-') {
            operands.push(a);
            continue;
        }
        match a {
            "--" => options = false,
            "-e" | "--and" | "--or" | "--not" => {
                pattern_given |= a == "-e";
                if a == "-e" {
                    args.next();
                }
            }
            "-f" => {
                pattern_given = true;
                if let Some(file) = args.next() {
                    push(out, file, Read);
                }
            }
            "-A" | "-B" | "-C" | "-m" | "--max-depth" | "--threads" | "--max-count"
            | "--context" | "--after-context" | "--before-context" => {
                args.next();
            }
            _ if a.starts_with("-e") && a.len() > 2 => pattern_given = true,
            _ if a.starts_with("-f") && a.len() > 2 => {
                pattern_given = true;
                push(out, &a[2..], Read);
            }
            _ => {}
        }
    }
    let paths = &operands[usize::from(!pattern_given).min(operands.len())..];
    if paths.is_empty() {
        out.push(Touch::below(".", &[]));
    }
    for p in paths {
        pathspec_read(p, out);
    }
}

/// The files a git pathspec reads, with ignored ones (`git add -f`, `git
/// grep --no-index`): a path and everything below it. git's own wildcards
/// match a leading dot too (`*` names `.env`), so a pattern is every file
/// below the working directory; a magic pathspec (`:/`, `:(glob)**`,
/// `:(exclude)x`) may reach the whole work tree, which only the running git
/// names.
fn pathspec_read(p: &str, out: &mut Vec<Touch>) {
    if p.starts_with(':') {
        out.push(Touch {
            runtime: Some(p.to_owned()),
            ..Touch::file(p, Access::Read)
        });
    } else if is_glob(p) || p.contains('\\') {
        out.push(Touch::below(".", &[]));
    } else {
        push(out, p, Read);
        out.push(Touch::below(p, &[]));
    }
}

/// How many paths a `git clean` names (`-e PATTERN` names none).
fn clean_paths(args: &[String]) -> usize {
    let mut n = 0;
    let mut args = args.iter();
    let mut options = true;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--" if options => options = false,
            "-e" | "--exclude" if options => {
                args.next();
            }
            a if options && a.starts_with('-') => {}
            _ => n += 1,
        }
    }
    n
}

/// An interpreter: its script is read; code on its command line (`-c`,
/// `-e`) names, in its quoted strings, files it may read and write; `-i`
/// (perl, ruby) edits the operands in place.
fn interpreter(cmd: &SimpleCommand, out: &mut Vec<Touch>) {
    let Some(interp) = programs::interpreter(&cmd.program) else {
        return;
    };
    let args = &cmd.args;
    let mut code = false;
    let mut in_place = false;
    let mut operands: Vec<&str> = Vec::new();
    let mut i = 0;
    while let Some(t) = args.get(i) {
        i += 1;
        if !operands.is_empty() || !t.starts_with('-') || t == "-" {
            operands.push(t);
            continue;
        }
        if t == "--" {
            continue;
        }
        // `-c CODE`, `-cCODE`, `-pie CODE`, `--eval=CODE`, `-m module`.
        let mut value: Option<&str> = None;
        for o in interp.code_opts {
            if t == o || t.starts_with(&format!("{o}=")) && o.starts_with("--") {
                value = t
                    .split_once('=')
                    .map(|(_, v)| v)
                    .or_else(|| args.get(i).map(String::as_str));
                if !t.contains('=') {
                    i += 1;
                }
            } else if o.len() == 2
                && !o.starts_with("--")
                && t.len() > 2
                && !t.starts_with("--")
                && let Some(at) = t[1..].find(&o[1..])
            {
                in_place |= t[1..1 + at].contains('i');
                let attached = &t[at + 2..];
                value = if attached.is_empty() {
                    i += 1;
                    args.get(i - 1).map(String::as_str)
                } else {
                    Some(attached)
                };
            }
            if value.is_some() {
                break;
            }
        }
        if let Some(v) = value {
            code = true;
            for s in quoted_strings(v) {
                if looks_like_path(&s) {
                    push(out, &s, Both);
                }
            }
            continue;
        }
        if !t.starts_with("--") && t.contains('i') {
            // `-i`, `-pi`, `-i.bak`: edit the files in place.
            in_place = true;
        }
        // node's options whose value is a file or a folder it reads or
        // writes: the settings it loads, where warnings, reports and
        // profiles go.
        const NODE_FILES: &[&str] = &[
            "--env-file",
            "--env-file-if-exists",
            "--redirect-warnings",
            "--cpu-prof-dir",
            "--heap-prof-dir",
            "--report-directory",
            "--report-dir",
            "--diagnostic-dir",
            "--report-filename",
            "--cpu-prof-name",
            "--heap-prof-name",
            "--experimental-config-file",
        ];
        let (name, glued) = t.split_once('=').unwrap_or((t, ""));
        if interp.names.contains(&"node") && NODE_FILES.contains(&name) {
            let value = if t.contains('=') {
                Some(glued)
            } else {
                i += 1;
                args.get(i - 1).map(String::as_str)
            };
            push(out, value.unwrap_or_default(), Both);
            continue;
        }
        // `python -m MODULE ARGS`: the module is the program, and the
        // rest its words.
        if interp.names.contains(&"python*") && t.starts_with("-m") {
            let module = match &t[2..] {
                "" => args.get(i).map(String::as_str),
                glued => Some(glued),
            };
            let from = if t == "-m" { i + 1 } else { i };
            if let Some(module) = module {
                python_module(module, args.get(from..).unwrap_or_default(), out);
            }
            return;
        }
        if matches!(t.as_str(), "-m" | "-r" | "-I" | "-M" | "-W" | "-X") {
            i += 1;
        }
    }
    for (k, o) in operands.iter().enumerate() {
        if k == 0 && !code {
            push(out, o, Read);
        } else if in_place {
            push(out, o, Both);
        } else if looks_like_path(o) {
            push(out, o, Read);
        }
    }
}

/// The files of `python -m MODULE ARGS`. Tools that only read what they
/// are given (test runners, linters, `pip`) read the operands that look
/// like paths; modules that make or empty a folder (`venv --clear .`
/// deletes what it holds), unpack an archive into one or compile every
/// file below one write everything below their operands; `json.tool IN
/// OUT` and `cProfile -o OUT` write their output; any other module is a
/// program hookc does not know.
fn python_module(module: &str, args: &[String], out: &mut Vec<Touch>) {
    let operands = || {
        args.iter()
            .map(String::as_str)
            .filter(|a| !a.starts_with('-') && looks_like_path(a))
    };
    match module {
        "pytest" | "pip" | "pip3" | "unittest" | "mypy" | "pylint" | "flake8" | "pyflakes"
        | "pycodestyle" | "pydoc" | "doctest" | "timeit" | "pdb" | "site" | "this"
        | "http.server" | "py_compile" | "tokenize" | "ast" | "dis" | "calendar" => {
            for o in operands() {
                push(out, o, Read);
            }
        }
        "venv" | "virtualenv" | "compileall" | "tarfile" | "zipfile" | "gzip" | "ensurepip" => {
            for o in operands() {
                push(out, o, Both);
            }
        }
        "json.tool" => {
            for (k, o) in operands().enumerate() {
                push(out, o, if k == 0 { Read } else { Write });
            }
        }
        "cProfile" | "profile" => {
            let mut words = args.iter().map(String::as_str);
            while let Some(w) = words.next() {
                if w == "-o" || w == "--outfile" {
                    push(out, words.next().unwrap_or_default(), Write);
                } else if let Some(file) = w
                    .strip_prefix("--outfile=")
                    .or_else(|| w.strip_prefix("-o").filter(|f| !f.is_empty()))
                {
                    push(out, file, Write);
                } else if !w.starts_with('-') && looks_like_path(w) {
                    push(out, w, Read);
                }
            }
        }
        _ => {
            let cmd = SimpleCommand {
                args: args.to_vec(),
                ..SimpleCommand::default()
            };
            table_row(&row(&[], Operands::PathLike), &cmd, out);
        }
    }
}

/// The contents of `'…'` and `"…"` strings in code.
fn quoted_strings(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = code.chars();
    while let Some(c) = chars.next() {
        if c == '\'' || c == '"' || c == '`' {
            let mut s = String::new();
            let mut closed = false;
            let mut escaped = false;
            for d in chars.by_ref() {
                if escaped {
                    s.push(d);
                    escaped = false;
                } else if d == '\\' {
                    escaped = true;
                } else if d == c {
                    closed = true;
                    break;
                } else {
                    s.push(d);
                }
            }
            if closed {
                out.push(s);
            }
        }
    }
    out
}

/// Whether a word has a wildcard the shell (or a tool) expands.
pub fn is_glob(t: &str) -> bool {
    t.contains(['*', '?'])
        || t.find('[').is_some_and(|at| t[at + 1..].contains(']'))
        || brace_group(t, 0).is_some()
}

/// At most this many words one brace expansion is taken to stand for
/// (`{a,b}{c,d}` is four). Each group multiplies the count, so twenty
/// groups of two in a hundred bytes stand for a million words: past the
/// cap the operand is taken to name any file ([`could_name`]).
pub const MAX_BRACE_WORDS: usize = 64;

/// Brace expansion (`{a,b}`, nested; `{1..3}` becomes `*`), as the shell
/// does it: `${…}` is a parameter, not braces, and braces around no comma
/// (`{x}`) are literal. `None` when the words would be more than
/// [`MAX_BRACE_WORDS`] or longer than [`MAX_GLOB_BYTES`] together, counted
/// as each group multiplies them, before the words are made.
pub fn expand_braces(t: &str) -> Option<Vec<String>> {
    if t.len() > MAX_GLOB_BYTES {
        return None;
    }
    let mut done = Vec::new();
    // Words still to expand, each with the offset before which it has no
    // braces left to expand. Every word here yields at least one word.
    let mut todo = vec![(t.to_owned(), 0)];
    // The length of the words in `done` and `todo` together.
    let mut bytes = t.len();
    while let Some((word, from)) = todo.pop() {
        let Some((open, close, alternatives)) = brace_group(&word, from) else {
            done.push(word);
            continue;
        };
        let (head, tail) = (&word[..open], &word[close + 1..]);
        let made: usize = alternatives
            .iter()
            .map(|alt| head.len() + alt.len() + tail.len())
            .sum();
        bytes = bytes - word.len() + made;
        if done.len() + todo.len() + alternatives.len() > MAX_BRACE_WORDS || bytes > MAX_GLOB_BYTES
        {
            return None;
        }
        // Pushed last first, so that the words come out in the shell's order.
        for alt in alternatives.iter().rev() {
            todo.push((format!("{head}{alt}{tail}"), open));
        }
    }
    Some(done)
}

/// The first brace group at or after `from` that expands (the leftmost to
/// open, so the outermost): where it opens and closes, and its
/// alternatives (`*` for a sequence `{1..3}`). One pass over the word, with
/// the braces still open on a stack, so nesting costs no rescans.
fn brace_group(word: &str, from: usize) -> Option<(usize, usize, Vec<&str>)> {
    /// A `{` not yet closed.
    struct Open {
        at: usize,
        /// `${`: a parameter, never braces.
        param: bool,
        /// The commas at this brace's own level.
        commas: Vec<usize>,
        /// A `..` at this brace's own level (`{1..3}`).
        dots: bool,
    }
    let bytes = word.as_bytes();
    let mut open: Vec<Open> = Vec::new();
    let mut found: Option<(usize, usize, Vec<usize>)> = None;
    for k in from..bytes.len() {
        match bytes[k] {
            b'{' => open.push(Open {
                at: k,
                param: k > 0 && bytes[k - 1] == b'$',
                commas: Vec::new(),
                dots: false,
            }),
            b',' => {
                if let Some(o) = open.last_mut() {
                    o.commas.push(k);
                }
            }
            b'.' if bytes.get(k + 1) == Some(&b'.') => {
                if let Some(o) = open.last_mut() {
                    o.dots = true;
                }
            }
            b'}' => {
                // A `}` that closes nothing is literal, and so are braces
                // around no comma or sequence (`{x}`).
                let Some(o) = open.pop() else { continue };
                if !o.param
                    && (!o.commas.is_empty() || o.dots)
                    && found.as_ref().is_none_or(|f| o.at < f.0)
                {
                    found = Some((o.at, k, o.commas));
                }
                if open.is_empty() && found.is_some() {
                    break;
                }
            }
            _ => {}
        }
    }
    let (at, close, commas) = found?;
    if commas.is_empty() {
        return Some((at, close, vec!["*"]));
    }
    let mut alternatives = Vec::with_capacity(commas.len() + 1);
    let mut start = at + 1;
    for &c in &commas {
        alternatives.push(&word[start..c]);
        start = c + 1;
    }
    alternatives.push(&word[start..close]);
    Some((at, close, alternatives))
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Lit(char),
    /// `?`
    One,
    /// `*`: any run of characters but `/`.
    Star,
    /// `**/`: nothing, or whole components each ending in `/`.
    Deep,
    /// `**` at the end: any run of characters.
    DeepEnd,
    /// `[…]`, negated or not, as inclusive ranges.
    Class(bool, Vec<(char, char)>),
}

fn tokens(glob: &str) -> Vec<Tok> {
    let chars: Vec<char> = glob.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '*' => {
                let whole = (i == 0 || chars[i - 1] == '/')
                    && chars.get(i + 1) == Some(&'*')
                    && matches!(chars.get(i + 2), None | Some('/'));
                if whole {
                    if chars.get(i + 2) == Some(&'/') {
                        out.push(Tok::Deep);
                        i += 3;
                    } else {
                        out.push(Tok::DeepEnd);
                        i += 2;
                    }
                    continue;
                }
                while chars.get(i + 1) == Some(&'*') {
                    i += 1;
                }
                out.push(Tok::Star);
            }
            '?' => out.push(Tok::One),
            '\\' if i + 1 < chars.len() => {
                i += 1;
                out.push(Tok::Lit(chars[i]));
            }
            '[' => {
                let mut j = i + 1;
                let negated = matches!(chars.get(j), Some('!' | '^'));
                if negated {
                    j += 1;
                }
                let start = j;
                let mut ranges = Vec::new();
                while j < chars.len() && (chars[j] != ']' || j == start) {
                    if chars.get(j + 1) == Some(&'-') && chars.get(j + 2).is_some_and(|&e| e != ']')
                    {
                        ranges.push((chars[j], chars[j + 2]));
                        j += 3;
                    } else {
                        ranges.push((chars[j], chars[j]));
                        j += 1;
                    }
                }
                if j < chars.len() {
                    out.push(Tok::Class(negated, ranges));
                    i = j;
                } else {
                    out.push(Tok::Lit('['));
                }
            }
            c => out.push(Tok::Lit(c)),
        }
        i += 1;
    }
    out
}

fn admits(tok: &Tok, c: char, nocase: bool) -> bool {
    match tok {
        Tok::Lit(x) => *x == c || (nocase && x.eq_ignore_ascii_case(&c)),
        Tok::One | Tok::Star => c != '/',
        Tok::Deep | Tok::DeepEnd => true,
        Tok::Class(negated, ranges) => {
            let inside = ranges.iter().any(|&(lo, hi)| {
                (lo..=hi).contains(&c)
                    || (nocase
                        && ((lo..=hi).contains(&c.to_ascii_lowercase())
                            || (lo..=hi).contains(&c.to_ascii_uppercase())))
            });
            c != '/' && inside != *negated
        }
    }
}

fn wild(tok: &Tok) -> bool {
    !matches!(tok, Tok::Lit(_))
}

fn candidates(tok: &Tok, into: &mut Vec<char>) {
    match tok {
        Tok::Lit(x) => into.extend([*x, x.to_ascii_lowercase(), x.to_ascii_uppercase()]),
        Tok::Class(_, ranges) => {
            for &(lo, hi) in ranges {
                into.extend([lo, hi]);
            }
        }
        _ => {}
    }
}

/// Whether some path is named both by `operand` (a glob an operand or a
/// tool's pattern holds, expanded as `how` says) and by `glob`, in the
/// gitignore-like language of `path` guards (see [`crate::paths`]). Both
/// are normalised already; `!` globs are not passed here.
pub fn could_name(operand: &str, how: Expansion, glob: &str) -> bool {
    let glob = glob.trim();
    let (anchored, g) = match glob.strip_prefix("./") {
        Some(rest) => (true, rest),
        None => (false, glob),
    };
    let g = g.trim_end_matches('/');
    if g.is_empty() {
        return false;
    }
    let targets: Vec<String> = if anchored || g.contains('/') {
        vec![g.to_owned(), format!("{g}/**")]
    } else {
        vec![format!("**/{g}"), format!("**/{g}/**")]
    };
    // Too many words, or too long to match in time: it could be anything.
    let Some(operands) = expand_braces(operand) else {
        return true;
    };
    operands.iter().any(|op| {
        let a = tokens(op);
        targets.iter().any(|t| {
            let Some(globs) = expand_braces(t) else {
                return true;
            };
            globs.iter().any(|t| meet(&a, &tokens(t), how))
        })
    })
}

/// Whether some string is matched by both token lists: a search of the
/// pairs of positions (and whether a component starts there) that both
/// lists can reach on one string. Each pair is visited once, from a list
/// of pairs still to visit rather than by recursion, so a long operand
/// costs time in proportion and no stack.
fn meet(a: &[Tok], b: &[Tok], how: Expansion) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![(0, 0, true)];
    // A star may match nothing; `**/` too, but only where a component
    // starts (what it matched is empty or ends in `/`).
    let skips = |t: Option<&Tok>, start: bool| match t {
        Some(Tok::Star | Tok::DeepEnd) => true,
        Some(Tok::Deep) => start,
        _ => false,
    };
    let repeats = |t: &Tok| matches!(t, Tok::Star | Tok::Deep | Tok::DeepEnd);
    while let Some((i, j, start)) = todo.pop() {
        if i == a.len() && j == b.len() {
            return true;
        }
        if !seen.insert((i, j, start)) {
            continue;
        }
        if skips(a.get(i), start) {
            todo.push((i + 1, j, start));
        }
        if skips(b.get(j), start) {
            todo.push((i, j + 1, start));
        }
        let (Some(ta), Some(tb)) = (a.get(i), b.get(j)) else {
            continue;
        };
        let mut chars = vec!['a', '.', '/', '0', '_', '-', 'Z'];
        candidates(ta, &mut chars);
        candidates(tb, &mut chars);
        chars.sort_unstable();
        chars.dedup();
        for c in chars {
            // The shell's wildcards do not make a name start with a dot.
            if start && c == '.' && wild(ta) && !how.dot {
                continue;
            }
            if admits(ta, c, how.nocase) && admits(tb, c, false) {
                let ni = if repeats(ta) { i } else { i + 1 };
                let nj = if repeats(tb) { j } else { j + 1 };
                todo.push((ni, nj, c == '/'));
            }
        }
    }
    false
}

#[cfg(test)]
mod tests;
