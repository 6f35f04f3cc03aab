//! Programs that take commands in a language of their own, from their
//! arguments or standard input, where some commands start other programs
//! or read and write any file: vi's ex commands (`vim -c '!rm -rf .'`,
//! `:w other`), `ed`'s `!` and `w FILE`, Emacs Lisp, sqlite's dot-commands
//! (`.shell`, `.system`, `.output |cmd`) and the SQL functions of its shell
//! (`readfile`, `writefile`, `edit`), sftp's batch commands (`!cmd`,
//! `get`).
//!
//! hookc does not model these languages. It knows the few commands that
//! only move about, edit the file named on the command line, print or quit
//! (`+42`, `-c 'set ff=unix' -c wq`, `.tables`, `select …`); anything else
//! given to one of these programs, or commands it reads from an input the
//! line feeds it, makes the line opaque, so the guards that refuse what
//! they cannot read refuse it. The access table (`access.rs`) still
//! records the files named as operands.

use std::path::Path;

use super::lex::{Stdin, Word};

/// What `program`, reading `args` with standard input `stdin`, is given to
/// run that hookc cannot read, as the reason a line is opaque; `None` for a
/// program that is not one of these, or is given only commands known here.
///
/// With `home` (the user's home folder, known where a call is judged, not
/// where a build runs its examples), a startup file the program reads
/// there first (`~/.vimrc`, `~/.sqliterc`) counts as commands it runs: an
/// earlier call may have written one.
pub fn unreadable(
    program: &str,
    args: &[Word],
    stdin: &Stdin,
    home: Option<&Path>,
) -> Option<String> {
    let reason = match program {
        p if VIS.contains(&p) => vi(p, args, stdin).or_else(|| vi_startup(p, args, home?)),
        "ed" | "red" => ed(stdin),
        "emacs" => emacs(args),
        "sqlite3" | "duckdb" => {
            sqlite(program, args, stdin).or_else(|| sqlite_startup(program, args, home?))
        }
        "sftp" => sftp(args, stdin),
        _ => None,
    }?;
    Some(format!("{program} {reason}"))
}

/// The first of `files` (relative to `home`) that is there.
fn startup_file(home: &Path, files: &[&str]) -> Option<String> {
    files
        .iter()
        .find(|f| std::fs::symlink_metadata(home.join(f)).is_ok())
        .map(|f| format!("~/{f}"))
}

/// vi reads a startup file (and plugins) unless told not to (`-u NONE`,
/// `--clean`); `VIMINIT` and `EXINIT` are read by the environment check of
/// the normaliser like any variable that changes what runs.
fn vi_startup(program: &str, args: &[Word], home: &Path) -> Option<String> {
    let skipped = args
        .windows(2)
        .any(|w| w[0].text == "-u" && matches!(w[1].text.as_str(), "NONE" | "NORC" | "DEFAULTS"))
        || args.iter().any(|w| w.text == "--clean");
    if skipped {
        return None;
    }
    let files: &[&str] = if program == "nvim" {
        &[
            ".config/nvim/init.vim",
            ".config/nvim/init.lua",
            ".config/nvim/plugin",
            ".local/share/nvim/site",
        ]
    } else {
        &[".vimrc", ".vim/vimrc", ".exrc", ".vim/plugin", ".vim/pack"]
    };
    startup_file(home, files).map(|f| {
        format!("reading its startup file {f}, which hookc does not read (add `-u NONE` to run it without)")
    })
}

/// sqlite3 reads `~/.sqliterc`, DuckDB `~/.duckdbrc`, before anything
/// else, unless `-init FILE` names another.
fn sqlite_startup(program: &str, args: &[Word], home: &Path) -> Option<String> {
    if args.iter().any(|w| w.text == "-init" || w.text == "--init") {
        return None;
    }
    let file = if program == "duckdb" {
        ".duckdbrc"
    } else {
        ".sqliterc"
    };
    startup_file(home, &[file]).map(|f| {
        format!("reading its startup file {f}, which hookc does not read (add `-init /dev/null` to run it without)")
    })
}

/// The vi family: ex commands in `-c`, `+`, `--cmd` and, in ex mode
/// (`ex`, `vim -e`, `-es`), from standard input; in normal mode standard
/// input is typed keys, which may be `:` commands too.
pub const VIS: &[&str] = &[
    "vi", "vim", "nvim", "view", "vimdiff", "ex", "gvim", "rvim", "rview", "evim", "vimx",
];

fn vi(program: &str, args: &[Word], stdin: &Stdin) -> Option<String> {
    let mut ex_mode = program == "ex";
    let mut text_from_stdin = false;
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        let t = w.text.as_str();
        let value = |i: usize| args.get(i).map(|w| w.text.as_str());
        if t == "--" {
            text_from_stdin |= args[i..].iter().any(|w| w.text == "-");
            break;
        }
        if t == "-" {
            text_from_stdin = true;
            continue;
        }
        if let Some(cmd) = t.strip_prefix('+') {
            if !w.has_param && !w.opaque && ex_command_is_known(cmd) {
                continue;
            }
            return Some(format!("running the ex command `{}`", short(cmd)));
        }
        if !t.starts_with('-') {
            continue;
        }
        match t {
            "-c" | "--cmd" => {
                let Some(cmd) = args.get(i) else {
                    continue;
                };
                i += 1;
                if cmd.has_param || cmd.opaque || !ex_command_is_known(&cmd.text) {
                    return Some(format!("running the ex command `{}`", short(&cmd.text)));
                }
            }
            "-u" | "-U" => {
                i += 1;
                if !matches!(value(i - 1), Some("NONE" | "NORC" | "DEFAULTS")) {
                    return Some("reading a startup file given on the command line".to_owned());
                }
            }
            "-S" => return Some("sourcing a script of ex commands".to_owned()),
            // `-s` names a file of typed keys, but in ex mode it is silence.
            "-s" if !ex_mode => return Some("typing the keys of a file (`-s`)".to_owned()),
            "-l" if program == "nvim" => return Some("running a Lua script (`-l`)".to_owned()),
            "-e" | "-E" | "-es" | "-Es" => ex_mode = true,
            // Files it writes of its own: typed keys, its history, timings.
            "-w" | "-W" | "-i" | "--startuptime" => {
                i += 1;
                if !(t == "-i" && value(i - 1) == Some("NONE")) {
                    return Some(format!("writing a file of its own (`{t}`)"));
                }
            }
            "-T" | "--servername" | "--listen" | "-t" | "-q" | "-r" => i += 1,
            _ if t.starts_with("--remote") => {
                return Some("sending commands to another running editor".to_owned());
            }
            _ => {}
        }
    }
    match stdin {
        Stdin::Inherited => None,
        Stdin::Text(text) if ex_mode => text
            .lines()
            .find(|line| !ex_command_is_known(line))
            .map(|line| format!("running the ex command `{}`", short(line))),
        _ if text_from_stdin && !ex_mode => None,
        _ if ex_mode => Some("reading ex commands from standard input".to_owned()),
        _ => Some("reading typed keys, which may be `:` commands, from standard input".to_owned()),
    }
}

/// Whether an ex command line only moves about, edits the file the command
/// line names, sets a plain option, prints or quits. Commands are split at
/// `|` (a `|` inside a pattern splits it too, and the part is then not
/// known: opaque, never allowed).
fn ex_command_is_known(line: &str) -> bool {
    line.split('|').all(|piece| {
        let Some(rest) = after_range(piece.trim_start_matches([' ', '\t', ':'])) else {
            // An unterminated search as the whole command: it moves only.
            return true;
        };
        if rest.is_empty() {
            return true;
        }
        let name_len = rest
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        let (name, after) = rest.split_at(name_len);
        let after = after.strip_prefix('!').unwrap_or(after);
        let argument = after.trim();
        let plain = |extra: &str| {
            argument
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || extra.contains(c))
        };
        match name {
            // Writing or quitting, with no file named: the edited file.
            "q" | "qu" | "qui" | "quit" | "qa" | "qal" | "qall" | "quita" | "quitall" | "w"
            | "wr" | "wri" | "writ" | "write" | "wq" | "wqa" | "wqall" | "x" | "xi" | "xit"
            | "exi" | "exit" | "xa" | "xall" | "up" | "upd" | "update" | "wa" | "wall" => {
                argument.is_empty()
            }
            "set" | "se" | "setl" | "setlocal" | "setg" | "setglobal" => {
                argument.split_whitespace().all(plain_option)
            }
            // A substitution whose replacement is not an expression (`\=`).
            "s" | "su" | "substitute" => !after.contains("\\="),
            "d" | "de" | "del" | "delete" | "j" | "join" | "m" | "mo" | "move" | "t" | "co"
            | "copy" | "le" | "left" | "ri" | "right" | "ce" | "center" | "u" | "un" | "undo"
            | "red" | "redo" | "noh" | "nohlsearch" | "retab" | "ret" | "sor" | "sort" => {
                plain(" \t.$,+-^_")
            }
            "" => rest.starts_with(['>', '<', '&', '~']) && !rest.contains("\\="),
            _ => false,
        }
    })
}

/// Options that only change how the named file is edited or written
/// (its line ends, encoding, indentation), never which file vi writes or
/// reads (`viminfofile`, `backupdir`, `undodir` name files it writes on
/// its own) nor what it runs.
const PLAIN_OPTIONS: &[&str] = &[
    "ff",
    "fileformat",
    "fenc",
    "fileencoding",
    "bomb",
    "eol",
    "endofline",
    "fixeol",
    "fixendofline",
    "et",
    "expandtab",
    "ts",
    "tabstop",
    "sw",
    "shiftwidth",
    "sts",
    "softtabstop",
    "tw",
    "textwidth",
    "ai",
    "autoindent",
    "nu",
    "number",
    "rnu",
    "relativenumber",
    "list",
    "wrap",
    "ic",
    "ignorecase",
    "scs",
    "smartcase",
    "hls",
    "hlsearch",
    "paste",
    "ft",
    "filetype",
    "syntax",
    "syn",
    "spell",
    "bin",
    "binary",
    "ro",
    "readonly",
    "ma",
    "modifiable",
    "cp",
    "compatible",
    "nocp",
    "more",
    "swf",
    "swapfile",
];

/// One word of `:set`: a plain option on, off (`no…`, `inv…`, `…!`) or set
/// to a plain value (`ff=unix`, `ts=4`).
fn plain_option(word: &str) -> bool {
    let (name, value) = match word.find(['=', ':', '+', '-', '^']) {
        Some(at) => (
            &word[..at],
            word[at..].trim_start_matches(['+', '-', '^', '=', ':']),
        ),
        None => (word.trim_end_matches(['!', '&', '?']), ""),
    };
    let name = ["no", "inv"]
        .iter()
        .find_map(|p| name.strip_prefix(p).filter(|n| PLAIN_OPTIONS.contains(n)))
        .unwrap_or(name);
    PLAIN_OPTIONS.contains(&name)
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-,".contains(c))
}

/// What follows an ex command's range (line numbers, marks, `%`, `$`, `.`,
/// offsets and `/pattern/` or `?pattern?` searches); `None` when a search
/// is not closed, so the rest of the line is its pattern.
fn after_range(mut rest: &str) -> Option<&str> {
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_ascii_digit() || " \t%$.,;+-".contains(c));
        if let Some(after) = rest.strip_prefix('\'') {
            // A mark is one character, of any width.
            rest = after.chars().next().map_or("", |c| &after[c.len_utf8()..]);
            continue;
        }
        let Some(delimiter) = rest.chars().next().filter(|c| matches!(c, '/' | '?')) else {
            return Some(rest);
        };
        let mut escaped = false;
        let close = rest[1..].char_indices().find(|&(_, c)| {
            let found = c == delimiter && !escaped;
            escaped = c == '\\' && !escaped;
            found
        })?;
        rest = &rest[1 + close.0 + 1..];
    }
}

/// `ed` reads its commands from standard input: `!` runs a program and
/// `r`, `w` and `e` read and write any file, so commands the line feeds it
/// are not read here.
fn ed(stdin: &Stdin) -> Option<String> {
    (*stdin != Stdin::Inherited).then(|| {
        "reading commands (which can run programs and write any file) from standard input"
            .to_owned()
    })
}

/// Emacs runs Lisp given on its command line.
fn emacs(args: &[Word]) -> Option<String> {
    args.iter()
        .find(|w| {
            let name = w.text.split_once('=').map_or(w.text.as_str(), |(n, _)| n);
            matches!(
                name,
                "--eval"
                    | "-eval"
                    | "-l"
                    | "--load"
                    | "-load"
                    | "-f"
                    | "--funcall"
                    | "-funcall"
                    | "--script"
                    | "-script"
                    | "-x"
                    | "--execute"
                    | "-batch"
                    | "--batch"
            )
        })
        .map(|w| format!("running Emacs Lisp (`{}`)", w.text))
}

/// sqlite3 (and DuckDB, whose shell shares its dot-commands): the SQL and
/// dot-commands after the database, in `-cmd`, or from standard input.
fn sqlite(program: &str, args: &[Word], stdin: &Stdin) -> Option<String> {
    let mut operands = 0;
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        let t = w.text.as_str();
        let option = t.strip_prefix("--").or_else(|| t.strip_prefix('-'));
        match option {
            Some("cmd" | "c" | "s") => {
                let Some(code) = args.get(i) else {
                    continue;
                };
                i += 1;
                if let Some(reason) = sql_unreadable(program, code) {
                    return Some(reason);
                }
                // DuckDB's `-c` runs its command and exits: standard input
                // is not read.
                if program == "duckdb" && t != "-cmd" {
                    operands += 1;
                }
            }
            Some("init") => {
                if args.get(i).is_none_or(|w| w.text != "/dev/null") {
                    return Some("reading commands from a startup file (`-init`)".to_owned());
                }
                i += 1;
            }
            Some(
                "separator" | "newline" | "nullvalue" | "vfs" | "maxsize" | "mmap" | "heap"
                | "lookaside" | "pagecache" | "escape",
            ) => i += 1,
            // Archive mode extracts and creates files.
            Some(o) if o.starts_with('A') || o == "archive" || o.starts_with("archive=") => {
                return Some("in archive mode, which writes files (`-A`)".to_owned());
            }
            Some(_) if t.len() > 1 => {}
            _ => {
                operands += 1;
                // The first operand is the database; the others are SQL or
                // dot-commands.
                if operands > 1
                    && let Some(reason) = sql_unreadable(program, w)
                {
                    return Some(reason);
                }
            }
        }
    }
    if operands > 1 {
        return None;
    }
    match stdin {
        Stdin::Inherited => None,
        Stdin::Text(text) => text
            .lines()
            .find_map(|line| sql_text_unreadable(program, line).err()),
        _ => Some(
            "reading SQL and dot-commands (which can run programs) from standard input".to_owned(),
        ),
    }
}

fn sql_unreadable(program: &str, code: &Word) -> Option<String> {
    if code.has_param || code.opaque {
        return Some("running SQL or dot-commands known only when the line runs".to_owned());
    }
    code.text
        .lines()
        .find_map(|line| sql_text_unreadable(program, line).err())
}

/// SQL functions of sqlite's shell, and statements, that read, write or
/// run what the access table cannot see.
const SQL_REACHING_OUT: &[&str] = &[
    "readfile",
    "writefile",
    "edit",
    "load_extension",
    "attach",
    "vacuum",
    "fsdir",
    "read_text",
    "read_blob",
    "read_csv",
    "read_csv_auto",
    "read_json",
    "read_json_auto",
    "read_parquet",
    "glob",
    "zipfile",
    "sqlar_compress",
    "sqlar_uncompress",
    "copy",
    "install",
    "load",
    "export",
    "import",
];

/// Dot-commands that only show or set how results print.
const KNOWN_DOT_COMMANDS: &[&str] = &[
    "tables",
    "table",
    "schema",
    "indexes",
    "indices",
    "headers",
    "header",
    "mode",
    "dump",
    "quit",
    "exit",
    "help",
    "databases",
    "timer",
    "width",
    "nullvalue",
    "print",
    "echo",
    "bail",
    "changes",
    "show",
    "stats",
    "eqp",
    "fullschema",
    "dbinfo",
    "separator",
    "explain",
    "timeout",
    "version",
    "columns",
    "maxrows",
];

fn sql_text_unreadable(program: &str, line: &str) -> Result<(), String> {
    let line = line.trim();
    // DuckDB reads a file named by a string where a table goes
    // (`select * from '.env'`).
    if program == "duckdb" && line.contains(['\'', '"']) {
        return Err("DuckDB SQL with a string, which may name a file it reads".to_owned());
    }
    if let Some(dot) = line.strip_prefix('.') {
        let name = dot.split_whitespace().next().unwrap_or("");
        return if KNOWN_DOT_COMMANDS.contains(&name) && !dot.contains(['|', '>']) {
            Ok(())
        } else {
            Err(format!("running the dot-command `.{}`", short(dot)))
        };
    }
    let lower = line.to_ascii_lowercase();
    let word = lower
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .find(|w| {
            SQL_REACHING_OUT.contains(w) || w.starts_with("read_") || w.starts_with("write_")
        });
    match word {
        Some(w) => Err(format!(
            "SQL that reads, writes or runs outside the database (`{w}`)"
        )),
        None => Ok(()),
    }
}

/// sftp reads its commands from a batch file or standard input: `!` runs a
/// local program, `get` writes local files; `-S` and `-D` name programs to
/// run.
fn sftp(args: &[Word], stdin: &Stdin) -> Option<String> {
    for w in args {
        let t = w.text.as_str();
        if t.starts_with("-b") || t.starts_with("-S") || t.starts_with("-D") {
            return Some(format!("reading commands or a program to run (`{t}`)"));
        }
        if t.starts_with("-o") {
            return Some(format!("with an ssh option that may run a program (`{t}`)"));
        }
    }
    (*stdin != Stdin::Inherited).then(|| {
        "reading commands (which can run programs and write local files) from standard input"
            .to_owned()
    })
}

fn short(text: &str) -> String {
    const MAX: usize = 60;
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use crate::shell::analyze;

    fn opaque(line: &str) -> bool {
        analyze(line).is_opaque()
    }

    #[test]
    fn commands_that_run_programs_or_reach_other_files_are_opaque() {
        for line in [
            "vim -es -c '!rm -rf .' -c q",
            "vim -c 'w .hookc/policy.json' -c q notes.txt",
            "vim +'r .env' +wq notes.txt",
            "vim --cmd 'call system(\"rm -rf .\")' x",
            "vim -c 'silent !git push -f' -c q",
            "vim -c 'set ft=x | !rm -rf .' x",
            "vim -c '%s/a/\\=system(\"id\")/' -c wq x",
            "vim -S evil.vim x",
            "vim -u ./vimrc x",
            "vim -s keys.txt x",
            "vim -c '/foo/!rm -rf .' x",
            "vim -c \"'ë!rm -rf .\" x",
            "vim -c \"'a,'b!sh\" x",
            "nvim -l x.lua",
            "nvim --headless -c \"$CMD\" x",
            "echo ':!rm -rf .' | vim x",
            "vim -es x < cmds.ex",
            "printf '%s\\n' '!git push -f' | ex x",
            "emacs --batch --eval '(shell-command \"rm -rf .\")'",
            "printf '!git push -f\\nq\\n' | ed",
            "ed x < script.ed",
            "sqlite3 x.db '.shell git push -f'",
            "sqlite3 x.db '.system rm -rf .'",
            "sqlite3 x.db '.output |sh'",
            "sqlite3 x.db \"select writefile('.hookc/policy.json', '')\"",
            "sqlite3 x.db \"select readfile('.env')\"",
            "sqlite3 -cmd '.shell id' x.db 'select 1'",
            "sqlite3 -init evil.sql x.db",
            "echo '.shell git push -f' | sqlite3 x.db",
            "sqlite3 x.db < dump.sql",
            "sqlite3 x.db \"$SQL\"",
            "duckdb x.db -c \"copy t to '.hookc/policy.json'\"",
            "sftp -b batch host",
            "vim -c 'set viminfofile=.hookc/policy.json' -c wq notes.txt",
            "vim -c 'set backup backupdir=.hookc' -c wq notes.txt",
            "vim -i .hookc/policy.json -c q notes.txt",
            "vim -W .hookc/policy.json notes.txt",
            "sqlite3 x.db -Ax",
            "sqlite3 -A -x x.db",
            "sqlite3 x.db \"insert into zipfile('.hookc/x.zip') values ('a', 'b')\"",
            "duckdb -c \"select * from '.env'\"",
            "duckdb x.db -c 'select * from read_text(x)'",
            "echo '!rm -rf .' | sftp host",
        ] {
            assert!(opaque(line), "{line:?} should be opaque");
        }
    }

    #[test]
    fn a_startup_file_in_the_home_folder_counts_as_commands_run() {
        let home = tempfile::tempdir().unwrap();
        let words = |line: &str| {
            let lexed = crate::shell::lex(line);
            lexed.commands[0].words[1..].to_vec()
        };
        let judged = |line: &str| {
            let w = words(line);
            let program = line.split_whitespace().next().unwrap();
            super::unreadable(program, &w, &super::Stdin::Inherited, Some(home.path()))
        };
        assert_eq!(judged("vim -c wq notes.txt"), None);
        assert_eq!(judged("sqlite3 app.db 'select 1'"), None);
        std::fs::write(home.path().join(".vimrc"), "autocmd VimEnter * !rm -rf .\n").unwrap();
        std::fs::write(home.path().join(".sqliterc"), ".shell rm -rf .\n").unwrap();
        for line in [
            "vim -c wq notes.txt",
            "ex -s notes.txt",
            "sqlite3 app.db 'select 1'",
        ] {
            let why = judged(line).unwrap_or_default();
            assert!(why.contains("startup file ~/."), "{line:?}: {why:?}");
        }
        for line in [
            "vim -u NONE -c wq notes.txt",
            "vim --clean notes.txt",
            "sqlite3 -init /dev/null app.db 'select 1'",
        ] {
            assert_eq!(judged(line), None, "{line:?}");
        }
        // Without a home folder (a build's examples), nothing is looked up.
        let w = words("vim -c wq notes.txt");
        assert_eq!(
            super::unreadable("vim", &w, &super::Stdin::Inherited, None),
            None
        );
    }

    #[test]
    fn commands_that_only_edit_the_named_file_print_or_quit_are_read() {
        for line in [
            "vim notes.txt",
            "vim +42 notes.txt",
            "vim +/TODO notes.txt",
            "vim -c 'set ff=unix' -c wq notes.txt",
            "vim -c 'set noet ts=4 sw=4' -c 'retab' -c wq notes.txt",
            "vim -i NONE -c 'set nobomb' -c wq notes.txt",
            "vim -es -c '%s/foo/bar/g' -c wq notes.txt",
            "vim -u NONE -c 'set nu' x",
            "echo hello | vim -",
            "ex -s -c '1d|x' notes.txt",
            "printf '%s\\n' '%s/a/b/g' 'wq' | ex -s notes.txt",
            "ed -s notes.txt",
            "emacs notes.txt",
            "sqlite3 x.db 'select * from t'",
            "sqlite3 x.db .tables",
            "sqlite3 -header -separator , x.db '.schema t'",
            "sqlite3 x.db",
            "echo 'select count(*) from t;' | sqlite3 x.db",
            "duckdb x.db -c 'select 42'",
            "sftp host",
        ] {
            let a = analyze(line);
            let reasons: Vec<_> = a.opaque.iter().map(|o| o.reason.clone()).collect();
            let ours = reasons.iter().any(|r| {
                [
                    "vim ", "ex ", "ed ", "emacs ", "sqlite3 ", "duckdb ", "sftp ",
                ]
                .iter()
                .any(|p| r.starts_with(p))
            });
            assert!(!ours, "{line:?} should be read: {reasons:?}");
        }
    }
}
