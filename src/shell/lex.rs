//! # The shell lexer
//!
//! Guards must not be beaten by spelling: `git push --force`,
//! `"git" pu''sh --fo\rce` and `git push $'\x2d\x2dforce'` all run the same
//! program with the same arguments. This lexer
//! turns one command line into the argument vectors the shell would pass to
//! programs, so that guards compare *arguments*, not raw text. It is a small,
//! hand-written, allocation-light scanner (no regexes) that never panics, and
//! it is honest about what it does not understand: anything it cannot model
//! is reported as [`Opaque`] with a short reason, and the words it *could*
//! read are still returned.
//!
//! ## What it understands (POSIX `sh`, plus the bash spellings agents use)
//!
//! * **Words** are separated by blanks (space, tab). Quote removal is done:
//!   * `'…'` keeps everything literally (no escapes at all);
//!   * `"…"` keeps everything literally except `\"` `\\` `\$` `` \` `` (the
//!     backslash is dropped) and backslash-newline (both dropped); any other
//!     backslash stays, as in the shell (`"\a"` is `\a`);
//!   * `\x` outside quotes is a literal `x`; backslash-newline is a line
//!     continuation and disappears;
//!   * `$'…'` (ANSI-C quoting) is decoded (`\n`, `\t`, `\x41`, `\101`,
//!     `\u263a`, …), because `$'\x2d\x2dforce'` is `--force`;
//!   * `$"…"` is treated like `"…"`.
//! * **Control operators** `;` `&&` `||` `|` `|&` `&` and newlines end a simple
//!   command. The kind of separator is not kept: a guard cares whether a
//!   command may run, not when.
//! * **Comments**: an unquoted `#` at the start of a word ends the line.
//! * **Redirections** `>` `>>` `>|` `&>` `&>>` `<>` and `N>` `N>>` record their
//!   target as a *write* ([`LexedCommand::writes`]); `>&word` writes to `word`
//!   unless it is a file descriptor (`2>&1`, `>&-`). Input redirections `<`,
//!   `N<`, `<>` and `<&word` (not a descriptor) record their target as a
//!   *read* ([`LexedCommand::reads`]; `<>` is both); a here-string `<<<`
//!   feeds a word, not a file.
//! * **Subshells** `( … )` at the start of a command (also after `if`, `!`,
//!   `while`, …) are entered: their commands are returned like any other.
//!   (`{ …; }` groups and `if`/`while` keywords are plain words here; the
//!   normaliser skips them.)
//! * **Function definitions** `f() …` and `function f …`: the definition
//!   runs nothing; the body that follows is read as commands that may run
//!   (calling `f` runs them).
//! * **`case … esac`**: the subject and the patterns are words (their
//!   substitutions run and are read); every clause's commands may run.
//! * **Arrays** `a=(x y)`: the elements are words; a `[k]=v` element is
//!   opaque unless `k` is digits (subscripts are arithmetic). `${a[1]}`,
//!   `${a[@]}` with such a subscript are plain parameter expansions.
//! * **Here-documents** with an unquoted delimiter are expanded as in double
//!   quotes: their `$(…)` commands are read like any others.
//!
//! ## What it reports as opaque (and still reads around)
//!
//! * command substitution `$(…)` and `` `…` ``: reported, *and* the inner text
//!   is lexed too (its commands are returned), since they run. One idiom is
//!   understood exactly instead: `"$(cat <<'EOF' … EOF)"` inside double
//!   quotes (how agents pass multi-line commit messages) is replaced by the
//!   here-document's text, which a quoted delimiter keeps from expansion;
//! * parameter expansion `${…}` that evaluates code (a subscript other than
//!   digits, `@`, `*`; substrings; prompt expansion), arithmetic `$((…))`
//!   and `$[…]` with names, and `((…))`;
//! * process substitution `<(…)` `>(…)` (inner commands are lexed too);
//! * brace expansion `{a,b}` / `{1..3}` in an unquoted word (`rm -r{f,}` would
//!   otherwise hide a flag);
//! * `(` after other words, a `)` without a matching `(`, `;;` outside a
//!   case statement, a case statement without `esac`;
//! * unbalanced quotes or backticks: lexing stops there, commands read so far
//!   are kept;
//! * nesting deeper than [`MAX_DEPTH`];
//! * ANSI-C escapes that produce a NUL or a non-ASCII *byte* (`$'\xff'`).
//!
//! A plain `$NAME`, `$1`, `$@` … is *not* opaque by itself: it is kept
//! literally in the word text (so `rm -rf $HOME` has the argument `$HOME`) and
//! flagged in [`Word::has_param`]; the normaliser decides (a variable in
//! command position is opaque). Globs (`*`, `?`, `[…]`) and `~` are kept
//! literally: they are expanded at run time by the shell, which we cannot
//! know.
//!
//! ## Not modelled (known limits)
//!
//! * Values of variables: `rm -rf $DIR` has the argument `$DIR` as written,
//!   so a rule on arguments cannot see what it holds (the pattern matcher
//!   special-cases `$HOME`).
//! * Pathname expansion: `cat .en?` has the argument `.en?`, not `.env`.
//! * Aliases (off in non-interactive shells unless `shopt -s
//!   expand_aliases`), `IFS`, `set -o` options and `extglob` patterns.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

/// How deep command lines may nest (`bash -c "sudo sh -c '…'"`, `$( $( … ) )`,
/// chains of wrappers like `sudo env nice …`) before we give up and report
/// the rest as opaque. Real commands nest two or three levels; the cap exists
/// so that hostile input cannot exhaust the stack or time.
pub const MAX_DEPTH: usize = 16;

/// The longest command line read, in bytes. Longer lines are opaque as a
/// whole, unread. A megabyte holds the long here-documents agents write
/// files with (a few hundred kilobytes) with room to spare, and every step
/// of the analysis is linear in the line, so reading one stays quick.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The most words a line is read for (those of its substitutions, of the
/// `bash -c` scripts it runs and of the files it sources included). Each
/// word costs memory several times over on its way to a decision, so this
/// keeps a line of `true; true; …` or `cat | cat | …` under a fixed
/// ceiling; the words after it are not read, and the line is opaque. Real
/// commands have hundreds of words at most (a here-document's body is no
/// words).
pub const MAX_WORDS: usize = 50_000;

/// Why a line is opaque past [`MAX_WORDS`].
pub(crate) fn too_many_words() -> String {
    format!(
        "over {MAX_WORDS} words, more than hookc checks in time (split the work into shorter \
         commands)"
    )
}

/// At most this many distinct opaque reasons are kept. A hostile line with
/// thousands of distinct reasons would otherwise make de-duplication
/// quadratic, and a model does not need more than a handful of them.
pub(crate) const MAX_OPAQUE: usize = 16;

/// Add a reason unless it is already there or the list is full.
pub(crate) fn push_reason(list: &mut Vec<Opaque>, reason: String) {
    if list.len() < MAX_OPAQUE && !list.iter().any(|o| o.reason == reason) {
        list.push(Opaque { reason });
    }
}

/// Something the analyser could not fully understand.
///
/// `reason` is a short English phrase meant to be shown to the model (for
/// example "command substitution $(...)"), so it can rewrite its command in a
/// plainer form.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Opaque {
    /// Short human-readable explanation.
    pub reason: String,
}

/// One shell word after quote removal.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Word {
    /// The word as the program would receive it, except that expansions the
    /// lexer cannot perform (`$VAR`, `$(…)`, `~`, globs) are kept as written.
    pub text: String,
    /// True when any part of the word was quoted or escaped. A quoted word is
    /// never a keyword (`'if'` is a command name) nor an assignment.
    pub quoted: bool,
    /// Number of bytes at the start of `text` that were written plainly (no
    /// quotes, escapes or expansions). `X=1` is an assignment only when the
    /// `=` lies in this prefix (`'X'=1` is a command name).
    pub plain_prefix: usize,
    /// True when the word contains a `$NAME`, `$1`, `$@`… expansion that was
    /// kept literally (its value is unknown).
    pub has_param: bool,
    /// True when the word contains a construct reported as opaque
    /// (`$(…)`, `${…}`, backticks…); `text` then holds its raw source.
    pub opaque: bool,
    /// True when an unquoted `*`, `?` or `[…]` makes the word a pattern the
    /// shell replaces by the names of matching files, when there are any
    /// (`--forc?` is `--force` once a file of that name exists).
    pub glob: bool,
    /// The values a `for NAME in …` loop of literal words gives the word,
    /// when the word is that loop's `$NAME` alone, inside its body (see
    /// [`values`]): the command runs once with each.
    pub values: Option<Vec<LoopValue>>,
    /// True when the shell may make the word several words, or none: an
    /// expansion outside double quotes (split at blanks), `"$@"` or
    /// `"${a[@]}"`, brace expansion. A quoted `"$x"` is one word, whatever
    /// `x` holds.
    pub splits: bool,
}

/// One value a `for` loop gives its variable: a literal word, or a glob
/// (`for f in src/*.rs`), each of whose matches is a value in turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopValue {
    pub text: String,
    pub glob: bool,
}

/// The words and write-redirections of one simple command, as written
/// (before wrappers such as `sudo` are unwrapped).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LexedCommand {
    /// Words in order, including leading `VAR=value` assignments.
    pub words: Vec<Word>,
    /// Targets of redirections that write (`>`, `>>`, `&>`, `2>`, …).
    pub writes: Vec<Word>,
    /// Targets of redirections that read (`<`, `N<`, `<>`, `<&file`).
    pub reads: Vec<Word>,
    /// What the command reads on standard input.
    pub stdin: Stdin,
}

/// A command's standard input, as far as the line shows it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Stdin {
    /// Not redirected: whatever the line itself was given.
    #[default]
    Inherited,
    /// Text known exactly: a here-document with a quoted delimiter (or
    /// nothing to expand), a literal here-string, or the output of a literal
    /// `echo`/`printf` piped in.
    Text(String),
    /// What a `find` of literal words prints, piped in: its words after
    /// `find` (the normaliser works out which files, `find::lists_files`).
    Find(Vec<String>),
    /// Anything else: a file, a pipe from another program, an expanded
    /// here-document.
    Unknown,
    /// The here-document numbered so in this lexer, whose body is read after
    /// the line ends (never left in a [`Lexed`]).
    Heredoc(usize),
}

/// The words after `find` of a `find` command of literal words.
fn find_words(cmd: &LexedCommand) -> Option<Vec<String>> {
    let literal = |w: &Word| !w.has_param && !w.opaque;
    let (program, args) = cmd.words.split_first()?;
    (program.text == "find" && cmd.words.iter().all(literal))
        .then(|| args.iter().map(|w| w.text.clone()).collect())
}

/// What a command prints when the line shows it exactly: `echo` or
/// `printf` of literal words (no option but `echo -n`), or `cat` passing on
/// known text.
fn printed(cmd: &LexedCommand) -> Option<String> {
    let literal = |w: &Word| !w.has_param && !w.opaque;
    if !cmd.writes.is_empty() || !cmd.words.iter().all(literal) {
        return None;
    }
    let (program, args) = cmd.words.split_first()?;
    if program.quoted {
        return None;
    }
    let args: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
    // dash's and zsh's `echo` turn backslash escapes into other characters.
    if program.text == "echo" && args.iter().any(|a| a.contains('\\')) {
        return None;
    }
    match (program.text.as_str(), args.as_slice()) {
        ("echo", ["-n", rest @ ..]) => Some(rest.join(" ")),
        ("echo", rest) if rest.first().is_none_or(|a| !a.starts_with('-')) => {
            Some(format!("{}\n", rest.join(" ")))
        }
        // A format without conversions or escapes prints itself.
        ("printf", [format]) if !format.contains(['%', '\\']) => Some((*format).to_owned()),
        ("printf", ["%s", rest @ ..]) => Some(rest.concat()),
        ("printf", ["%s\\n", rest @ ..]) => Some(rest.iter().map(|a| format!("{a}\n")).collect()),
        ("cat", []) => match &cmd.stdin {
            Stdin::Text(text) => Some(text.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// Result of lexing a command line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Lexed {
    /// Simple commands in source order. Commands found inside `$(…)`,
    /// backticks and process substitutions are included (they run too), in
    /// the order their closing delimiter was reached.
    pub commands: Vec<LexedCommand>,
    /// Everything that could not be modelled.
    pub opaque: Vec<Opaque>,
    /// How many words were read, those of substitutions included.
    pub words: usize,
    /// Some `$NAME` was replaced by the value the line gave it (see
    /// [`values`]): the words are no longer as written.
    pub worked_out: bool,
    /// The line defines a function (`f() …`), whose body may run any number
    /// of times: a `cd ..` in it may climb further than once.
    pub repeats: bool,
    /// The arguments of each `$(git ls-files …)` a loop at the line's start
    /// may iterate over (see [`values`]), whose output the lexer was not
    /// given: where the call is judged, git can say what it prints
    /// ([`lex_listed`]).
    pub listings: Vec<Vec<String>>,
}

/// Whether `text` starts with a tilde-prefix other than `~` alone, which
/// names a folder known only when the line runs: `~+` the current one, `~-`
/// the previous one, `~2` one of `pushd`'s, `~root` a user's home. (The
/// caller knows whether the tilde was unquoted.)
pub fn runtime_tilde(text: &str) -> bool {
    text.starts_with('~') && text.split('/').next() != Some("~")
}

/// Lex a command line. Never panics; see the module documentation for the
/// exact rules.
pub fn lex(input: &str) -> Lexed {
    lex_depth(input, 0)
}

/// Lex at a given nesting depth (used when re-lexing `bash -c` scripts and
/// command substitutions, so the depth budget is shared).
pub(crate) fn lex_depth(input: &str, depth: usize) -> Lexed {
    lex_within(input, depth, MAX_WORDS)
}

/// [`lex_depth`], reading at most `words` words (the rest of a line's
/// [`MAX_WORDS`]); past them lexing stops and the line is opaque.
pub(crate) fn lex_within(input: &str, depth: usize, words: usize) -> Lexed {
    lex_given(input, depth, words, None)
}

/// [`lex_within`] for a whole line (depth 0), given what each
/// `$(git ls-files …)` of its [`Lexed::listings`] prints, split as the
/// shell splits it: a `for` loop at the line's start over them takes
/// those names as its values.
pub(crate) fn lex_listed(input: &str, words: usize, listings: &Listings) -> Lexed {
    lex_given(input, 0, words, Some(listings))
}

fn lex_given(input: &str, depth: usize, words: usize, listings: Option<&Listings>) -> Lexed {
    let mut lx = Lexer::new(input, depth);
    lx.budget = words;
    lx.given = listings;
    if input.len() > MAX_LINE_BYTES {
        lx.opaque(format!(
            "a command line over {} KiB, longer than hookc reads (split it into shorter \
             commands, or write long text to a file with the file tool)",
            MAX_LINE_BYTES >> 10
        ));
        return lx.out;
    }
    if depth > MAX_DEPTH {
        lx.opaque(format!(
            "commands nested too deeply (over {MAX_DEPTH} levels; run them one after another)"
        ));
        return lx.out;
    }
    lx.run();
    lx.resolve_heredocs();
    lx.out
}

struct Lexer<'a> {
    src: &'a str,
    /// Byte offset; always on a char boundary because we only ever advance
    /// by `char::len_utf8` or to positions returned by `find` on ASCII bytes.
    pos: usize,
    depth: usize,
    out: Lexed,
    cur: LexedCommand,
    /// Open `(` subshells at command level.
    subshells: usize,
    /// Here-document delimiters waiting for the next newline:
    /// (delimiter, strip leading tabs).
    /// Pending here-documents: delimiter, `<<-`, and whether the delimiter
    /// was quoted (then the body is data; else the shell expands it).
    heredocs: Vec<(String, bool, bool, usize)>,
    /// Bodies of the here-documents read so far, by number: the text when it
    /// is data, `None` when the shell expands something in it.
    bodies: Vec<Option<String>>,
    /// What the command after a `|` reads: the known output of the command
    /// before it.
    piped: Option<Stdin>,
    /// Names that hold a number for sure: set by the assignments the
    /// script starts with (`x=1; y=$((x + 1));`), which always run, and
    /// mentioned nowhere since but where they are read. Arithmetic reads
    /// them without the risk of a name whose value is code (`a[$(…)]`).
    numbers: HashSet<String>,
    /// Names that hold a literal value for sure, by the same rule as
    /// `numbers` (see [`values`]): `$f` is the value.
    literals: HashMap<String, String>,
    /// The variables of `for` loops of literal words being read, with
    /// their values (see [`values`]).
    loops: HashMap<String, Vec<LoopValue>>,
    /// The line mentions `IFS`: an unquoted value may split otherwise.
    ifs: bool,
    /// True while every command so far was such an assignment, run in
    /// sequence (not in a pipe, a subshell or the background).
    prefix: bool,
    /// Set after an unrecoverable error (unbalanced quote): the rest of the
    /// input is not looked at.
    stopped: bool,
    /// Open `case … esac` statements, innermost last: true while the next
    /// thing is a clause's patterns, false inside its commands.
    cases: Vec<bool>,
    /// How many words this lexer may read, nested ones included (counted
    /// in `out.words`).
    budget: usize,
    /// What the `$(git ls-files …)` of the line print, by their arguments
    /// (see [`values`]).
    given: Option<&'a Listings>,
    /// The words of this line that are such a substitution and nothing
    /// else, as written, with the names they expand to.
    listed: HashMap<String, Vec<String>>,
    /// A command has been read: a loop now is not the line's first.
    began: bool,
}

/// Characters that end an unquoted word.
fn is_word_end(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\n' | ';' | '&' | '|' | '<' | '>' | '(' | ')'
    )
}

/// The value of `$(cat <<'EOF' … EOF)` when that is all the substitution
/// does, as in `git commit -m "$(cat <<'EOF' … EOF)"`, the way coding agents
/// pass multi-line messages. With a quoted delimiter the body is not expanded,
/// and `cat` prints it unchanged, so the value is known exactly: the body
/// without its trailing newlines (command substitution strips them). Only
/// used inside double quotes, where no word splitting follows. Anything else
/// (unquoted delimiter, other commands, text after the delimiter) is None
/// and stays opaque.
/// Whether text the shell expands holds something that runs a command
/// (`$(…)`, backticks, process substitution) or an array subscript, which
/// bash evaluates as arithmetic (and so runs a `$(…)` in a variable's value).
fn evaluates_code(text: &str) -> bool {
    text.contains("$(")
        || text.contains('`')
        || text.contains("<(")
        || text.contains(">(")
        || text.contains('[')
}

/// The names an arithmetic expression reads (numbers such as `0x1f` or
/// `2#101` are no names).
fn names_in(body: &str) -> impl Iterator<Item = &str> {
    let mut rest = body;
    std::iter::from_fn(move || {
        loop {
            let at = rest.find(|c: char| c.is_ascii_alphanumeric() || c == '_')?;
            let tail = &rest[at..];
            let end = tail
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '#'))
                .unwrap_or(tail.len());
            rest = &tail[end..];
            if !tail.starts_with(|c: char| c.is_ascii_digit()) {
                return Some(tail[..end].split('#').next().unwrap_or(""));
            }
        }
    })
}

/// `NAME=DIGITS` or `NAME=$((…))`, written plainly: the name then holds a
/// number.
fn numeric_assignment(w: &Word) -> Option<&str> {
    let (name, value) = w.text.split_once('=')?;
    let named = name.len() < w.plain_prefix
        && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let number = (!value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()))
        || (value.starts_with("$((")
            && value.ends_with("))")
            && arithmetic_spans(value) == [(0, value.len())]);
    (named && number).then_some(name)
}

/// Byte ranges of the `$((…))` expansions in a word's text.
fn arithmetic_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find("$((").map(|i| i + from) {
        let mut depth = 0usize;
        let mut end = None;
        for (i, c) in text[at + 1..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(at + 1 + i + 1);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else { break };
        spans.push((at, end));
        from = end;
    }
    spans
}

/// The names a word mentions other than by reading them (`$x`, `${x}`,
/// and inside `$((…))`): any other mention (`read x`, `declare -n r=x`,
/// `${x:=…}`, `for x in`) may change the value.
fn mentions(text: &str) -> Vec<String> {
    let mut plain = String::with_capacity(text.len());
    let mut last = 0;
    for (a, b) in arithmetic_spans(text) {
        plain.push_str(&text[last..a]);
        plain.push(' ');
        last = b;
    }
    plain.push_str(&text[last..]);
    let mut out = Vec::new();
    let bytes = plain.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if !(c.is_ascii_alphanumeric() || c == b'_') {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        let name = &plain[start..i];
        let read = plain[..start].ends_with('$')
            || (plain[..start].ends_with("${") && plain[i..].starts_with('}'));
        if !read && !name.starts_with(|c: char| c.is_ascii_digit()) {
            out.push(name.to_owned());
        }
    }
    out
}

/// A line that ends in an unescaped backslash, without it: the shell
/// joins the next line to it.
fn continued(line: &str) -> Option<&str> {
    let backslashes = line.len() - line.trim_end_matches('\\').len();
    (backslashes % 2 == 1).then(|| &line[..line.len() - 1])
}

/// `${a[1]}`, `${a[@]}`, `${#a[*]}`, `${!a[@]}`: an array element or all
/// of them, by a subscript that is no arithmetic (digits, `@` or `*`).
fn literal_subscript(body: &str) -> bool {
    let body = body.strip_prefix(['#', '!']).unwrap_or(body);
    let Some((name, rest)) = body.split_once('[') else {
        return false;
    };
    let Some(index) = rest.strip_suffix(']') else {
        return false;
    };
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && (matches!(index, "@" | "*")
            || (!index.is_empty() && index.bytes().all(|b| b.is_ascii_digit())))
}

/// `${x:offset:length}` (arithmetic on names) or `${x@P}` (prompt
/// expansion, which runs substitutions in the value) rather than the plain
/// `${x:-default}` family.
fn substring_or_prompt(body: &str) -> bool {
    if body.contains('@') {
        return true;
    }
    body.find(':')
        .is_some_and(|at| !matches!(body[at + 1..].chars().next(), Some('-' | '=' | '?' | '+')))
}

/// The length of a `{name}` glued to a redirection operator (bash's
/// descriptor variable, `{fd}>/dev/null`), if `rest` starts with one.
fn fd_variable(rest: &str) -> Option<usize> {
    let inner = rest.strip_prefix('{')?.as_bytes();
    // Only the name is looked at, not the rest of the line up to a `}`:
    // a `{` at each word would cost the line's length each.
    let close = inner
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))?;
    let ok = close > 0 && !inner[0].is_ascii_digit() && inner[close] == b'}';
    let after = inner.get(close + 1);
    (ok && matches!(after, Some(b'<' | b'>'))).then_some(close + 2)
}

/// The value of `$(echo WORD…)` when every word is a literal that no
/// `echo` changes (no option, no backslash, no glob): the words joined by
/// spaces. Only used inside double quotes, where no word splitting or
/// globbing follows, so `eval "$(echo echo hi)"` evaluates the known text.
/// Takes the substitution already lexed: lexing it again here would double
/// the work at each level of `"$("$(…)")"`.
fn literal_echo(lexed: &Lexed) -> Option<String> {
    let [command] = lexed.commands.as_slice() else {
        return None;
    };
    let (first, rest) = command.words.split_first()?;
    let plain = |w: &Word| {
        !w.has_param && !w.opaque && !w.text.contains(['\\', '*', '?', '[', ']', '{', '}', '~'])
    };
    (lexed.opaque.is_empty()
        && command.writes.is_empty()
        && first.text == "echo"
        && plain(first)
        && rest.iter().all(|w| plain(w) && !w.text.starts_with('-')))
    .then(|| {
        rest.iter()
            .map(|w| w.text.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    })
}

fn literal_heredoc(inner: &str) -> Option<String> {
    let blanks = [' ', '\t'];
    let s = inner.trim_start_matches([' ', '\t', '\n']);
    let s = s.strip_prefix("cat")?.trim_start_matches(blanks);
    let s = s.strip_prefix("<<")?;
    let (strip_tabs, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let s = s.trim_start_matches(blanks);
    let quote = s.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let s = &s[1..];
    let end = s.find(quote)?;
    let delim = &s[..end];
    if delim.is_empty() || delim.contains(['\\', '$', '`', '\'', '"', '\n']) {
        return None;
    }
    let mut rest = s[end + 1..].trim_start_matches(blanks).strip_prefix('\n')?;
    let mut body = String::new();
    loop {
        let (line, next) = match rest.find('\n') {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None => (rest, None),
        };
        let line = if strip_tabs {
            line.trim_start_matches('\t')
        } else {
            line
        };
        if line == delim {
            if next.is_some_and(|n| !n.trim().is_empty()) {
                return None;
            }
            break;
        }
        body.push_str(line);
        body.push('\n');
        rest = next?;
    }
    while body.ends_with('\n') {
        body.pop();
    }
    Some(body)
}

/// What the unquoted characters of a word, read one by one, say about how
/// the shell expands it: brace expansion (`{a,b}`, `{1..3}`: several words,
/// so `rm -r{f,}` would hide a flag) and globs (`*`, `?`, `[…]`).
#[derive(Default)]
struct Unquoted {
    /// Open `{` not yet closed.
    brace_depth: usize,
    /// A `,` or `..` seen inside the open braces.
    brace_sep: bool,
    /// Braces closed around a separator: the word is several words.
    brace_expansion: bool,
    /// A `[` seen, which a later `]` makes a pattern.
    bracket: bool,
    /// The word is a pattern the shell may replace by file names.
    glob: bool,
}

impl Unquoted {
    /// Take in an unquoted character `c`, followed by `next`.
    fn see(&mut self, c: char, next: Option<char>) {
        match c {
            '{' => self.brace_depth += 1,
            ',' if self.brace_depth > 0 => self.brace_sep = true,
            '.' if self.brace_depth > 0 && next == Some('.') => self.brace_sep = true,
            '}' if self.brace_depth > 0 => {
                self.brace_depth -= 1;
                if self.brace_sep {
                    self.brace_expansion = true;
                }
            }
            '*' | '?' => self.glob = true,
            '[' => self.bracket = true,
            ']' if self.bracket => self.glob = true,
            _ => {}
        }
    }
}

/// Whether `w` is the reserved word `word`, written plainly.
fn is_plain(w: &Word, word: &str) -> bool {
    !w.quoted && w.plain_prefix == w.text.len() && w.text == word
}

/// Whether bash reads `text`, what follows `$((` up to the closing
/// parentheses, as arithmetic: the first `)` outside the parentheses it
/// opens must be the first of the closing `))`. Else bash reads a command
/// substitution of a subshell. Quoting is not modelled, so text with
/// quotes or backslashes counts as not arithmetic (the commands are read).
fn closes_as_arithmetic(text: &str) -> bool {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '\\' | '\'' | '"' | '`' => return false,
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            ')' => return text[i..] == *"))",
            _ => {}
        }
    }
    false
}

/// Reserved words after which a command may start, written plainly.
fn is_keyword(w: &Word) -> bool {
    !w.quoted
        && w.plain_prefix == w.text.len()
        && matches!(
            w.text.as_str(),
            "!" | "{" | "if" | "then" | "else" | "elif" | "do" | "while" | "until" | "time"
        )
}

impl<'a> Lexer<'a> {
    fn new(src: &'a str, depth: usize) -> Self {
        Lexer {
            src,
            pos: 0,
            depth,
            out: Lexed::default(),
            cur: LexedCommand::default(),
            subshells: 0,
            heredocs: Vec::new(),
            bodies: Vec::new(),
            piped: None,
            numbers: HashSet::new(),
            literals: HashMap::new(),
            loops: HashMap::new(),
            ifs: src.contains("IFS"),
            prefix: true,
            stopped: false,
            cases: Vec::new(),
            budget: MAX_WORDS,
            given: None,
            listed: HashMap::new(),
            began: false,
        }
    }

    /// Count `n` more words read; past the budget, stop.
    fn count_words(&mut self, n: usize) {
        self.out.words += n;
        if self.out.words > self.budget && !self.stopped {
            self.stop(&too_many_words());
        }
    }

    fn rest(&self) -> &'a str {
        self.src.get(self.pos..).unwrap_or("")
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.rest().chars().nth(n)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn opaque(&mut self, reason: impl Into<String>) {
        // The same construct repeated (`$(a) $(b)`) says nothing new.
        push_reason(&mut self.out.opaque, reason.into());
    }

    fn finish_command(&mut self) {
        if !self.cur.words.is_empty() || !self.cur.writes.is_empty() || !self.cur.reads.is_empty() {
            let mut cmd = std::mem::take(&mut self.cur);
            self.track_numbers(&cmd);
            // A redirection of its own wins over the pipe.
            if let Some(piped) = self.piped.take()
                && cmd.stdin == Stdin::Inherited
            {
                cmd.stdin = piped;
            }
            self.out.commands.push(cmd);
            self.began = true;
        }
        self.piped = None;
    }

    /// Keep [`Lexer::numbers`] up to date with a command just read.
    fn track_numbers(&mut self, cmd: &LexedCommand) {
        let assigns = self.prefix
            && cmd.writes.is_empty()
            && cmd.reads.is_empty()
            && cmd.words.iter().all(|w| {
                numeric_assignment(w).is_some() || values::literal_assignment(w).is_some()
            });
        if assigns {
            for w in &cmd.words {
                match numeric_assignment(w) {
                    Some(name) => {
                        self.numbers.insert(name.to_owned());
                    }
                    // A name assigned something else is no number.
                    None => {
                        if let Some((name, _)) = w.text.split_once('=') {
                            self.numbers.remove(name);
                        }
                    }
                }
                match values::literal_assignment(w) {
                    Some((name, value)) => {
                        self.literals.insert(name.to_owned(), value.to_owned());
                    }
                    None => {
                        if let Some((name, _)) = w.text.split_once('=') {
                            self.literals.remove(name);
                        }
                    }
                }
            }
        } else {
            self.prefix = false;
            let words = cmd.words.iter().chain(&cmd.writes).chain(&cmd.reads);
            if !self.numbers.is_empty() || !self.literals.is_empty() || !self.loops.is_empty() {
                for name in words.flat_map(|w| mentions(&w.text)) {
                    self.numbers.remove(&name);
                    self.literals.remove(&name);
                    self.loops.remove(&name);
                }
            }
            let program = cmd.words.iter().find(|w| {
                numeric_assignment(w).is_none() && values::literal_assignment(w).is_none()
            });
            if program.is_some_and(|w| ["source", ".", "eval"].iter().any(|p| is_plain(w, p))) {
                // A sourced file or an evaluated string may assign anything
                // (the words of neither are this line's).
                self.literals.clear();
                self.loops.clear();
            }
            if cmd.words.first().is_some_and(|w| is_plain(w, "done")) {
                // The body ends (an inner loop's `done` ends the outer
                // one's knowledge too).
                self.loops.clear();
            }
            // Only the line's first command runs where the call is judged,
            // before anything else could move it or change the index.
            let listed = (!self.began && !self.ifs).then_some(&self.listed);
            if let Some((name, list)) = values::literal_loop(&cmd.words, listed) {
                self.loops.insert(name, list);
            }
        }
    }

    /// The value `$name` expands to, when the line gave it a literal
    /// ([`values`]) and, unquoted, it stays one word as written.
    fn known_value(&self, name: &str, in_dq: bool) -> Option<String> {
        let value = self.literals.get(name)?;
        (in_dq || (!self.ifs && values::stays_one_word(value))).then(|| value.clone())
    }

    /// A word that so far is exactly `$name` or `${name}` of a loop being
    /// read takes the loop's values (a word with more in it loses them
    /// again at its end: see [`Lexer::word`]).
    fn loop_values(&self, w: &mut Word, name: &str) {
        let exact = w.text == format!("${name}") || w.text == format!("${{{name}}}");
        w.values = match self.loops.get(name) {
            Some(list) if exact && w.has_param => Some(list.clone()),
            _ => None,
        };
    }

    /// Whether every name an arithmetic expression reads holds a number.
    fn numbers_only(&self, body: &str) -> bool {
        !evaluates_code(body) && names_in(body).all(|n| self.numbers.contains(n))
    }

    /// At a `|`: end the command, and hand what it prints to the next one.
    fn pipe(&mut self) {
        self.prefix = false;
        let printed = match (&self.cur.stdin, self.cur.words.as_slice()) {
            // `cat <<'EOF' | sh`: the body, once read.
            (Stdin::Heredoc(n), [cat]) if is_plain(cat, "cat") => Stdin::Heredoc(*n),
            _ => printed(&self.cur)
                .map(Stdin::Text)
                .or_else(|| find_words(&self.cur).map(Stdin::Find))
                .unwrap_or(Stdin::Unknown),
        };
        self.finish_command();
        self.piped = Some(printed);
    }

    /// The here-document bodies are known once the whole line is read.
    fn resolve_heredocs(&mut self) {
        for cmd in &mut self.out.commands {
            if let Stdin::Heredoc(n) = cmd.stdin {
                cmd.stdin = match self.bodies.get(n) {
                    Some(Some(body)) => Stdin::Text(body.clone()),
                    _ => Stdin::Unknown,
                };
            }
        }
    }

    /// Skip spaces, tabs and line continuations.
    fn skip_blanks(&mut self) {
        loop {
            match self.peek() {
                Some(' ' | '\t') => {
                    self.bump();
                }
                Some('\\') if self.peek_at(1) == Some('\n') => {
                    self.pos += 2;
                }
                _ => break,
            }
        }
    }

    /// The command level: one step per construct, chosen by the character
    /// that starts it, until the input ends or lexing has to stop.
    fn run(&mut self) {
        while !self.stopped {
            if self.cases.last() == Some(&true) {
                self.case_patterns();
                continue;
            }
            self.skip_blanks();
            let Some(c) = self.peek() else { break };
            match c {
                '\n' => {
                    self.bump();
                    self.finish_command();
                    self.skip_heredoc_bodies();
                }
                ';' => self.semicolon(),
                '&' => self.ampersand(),
                '|' => self.bar(),
                '(' => self.open_paren(),
                ')' => self.close_paren(),
                '<' | '>' => self.redirect(),
                '#' => self.skip_comment(),
                _ => self.word_or_descriptor(c),
            }
        }
        self.finish_command();
        if self.subshells > 0 && !self.stopped {
            self.opaque("an unclosed '('");
        }
        if !self.cases.is_empty() && !self.stopped {
            self.opaque("an unterminated case statement");
        }
    }

    /// At `;`: the command ends. `;;`, `;&` and `;;&` also end a case
    /// clause, so what follows is the next clause's patterns.
    fn semicolon(&mut self) {
        self.bump();
        let mut ends_clause = false;
        if self.peek() == Some(';') {
            self.bump();
            ends_clause = true;
        }
        if self.peek() == Some('&') {
            self.bump();
            ends_clause |= self.src[..self.pos].ends_with(";&");
        }
        self.finish_command();
        if ends_clause {
            match self.cases.last_mut() {
                Some(patterns) => *patterns = true,
                None => self.opaque("case clause ;; outside a case statement"),
            }
        }
    }

    /// At `&`: `&&` ends the command, `&>` and `&>>` redirect both outputs,
    /// and a lone `&` runs the command in the background.
    fn ampersand(&mut self) {
        self.bump();
        match self.peek() {
            Some('&') => {
                self.bump();
                self.finish_command();
            }
            Some('>') => {
                self.bump();
                if self.peek() == Some('>') {
                    self.bump();
                }
                self.redirect_target(Some(true));
            }
            _ => {
                // In a subshell of its own, so its assignments do not last.
                self.prefix = false;
                self.finish_command();
            }
        }
    }

    /// At `|`: `||` ends the command; `|` and `|&` pipe it into the next.
    fn bar(&mut self) {
        self.bump();
        match self.peek() {
            Some('|') => {
                self.bump();
                self.finish_command();
                // What follows `||` may not run.
                self.prefix = false;
            }
            Some('&') => {
                self.bump();
                self.pipe();
            }
            _ => self.pipe(),
        }
    }

    /// At `)`: the end of a subshell we entered, or one we never saw open.
    fn close_paren(&mut self) {
        self.bump();
        if self.subshells > 0 {
            self.subshells -= 1;
        } else {
            self.opaque("an unbalanced ')'");
        }
        self.finish_command();
    }

    /// At `#` where a word would start: a comment, up to (not including)
    /// the newline.
    fn skip_comment(&mut self) {
        let end = self
            .rest()
            .find('\n')
            .map_or(self.src.len(), |i| self.pos + i);
        self.pos = end;
    }

    /// At anything else: a word of the command, unless it is a descriptor
    /// glued to a redirection (`2>file`, `{fd}>file`) or the `esac` that
    /// closes a case statement.
    fn word_or_descriptor(&mut self, c: char) {
        if c.is_ascii_digit() {
            // `2>file`, `2>&1`: an all-digit word glued to a redirection
            // operator is a file descriptor number.
            let digits = self.rest().bytes().take_while(u8::is_ascii_digit).count();
            if matches!(self.rest().as_bytes().get(digits), Some(b'<' | b'>')) {
                self.pos += digits;
                self.redirect();
                return;
            }
        }
        if let Some(len) = fd_variable(self.rest()) {
            // `{fd}>file`: bash opens a new descriptor and puts its number
            // in `fd`; the word is no argument.
            self.pos += len;
            self.redirect();
            return;
        }
        if let Some(w) = self.word() {
            if self.cur.words.is_empty() && !self.cases.is_empty() && is_plain(&w, "esac") {
                self.cases.pop();
                return;
            }
            self.cur.words.push(w);
            self.case_start();
        }
    }

    /// After `case WORD in`: the statement's clauses follow. The subject's
    /// substitutions ran (and were read as commands when it was lexed); the
    /// words themselves run nothing.
    fn case_start(&mut self) {
        if let [case, _, word_in] = self.cur.words.as_slice()
            && self.cur.writes.is_empty()
            && is_plain(case, "case")
            && is_plain(word_in, "in")
        {
            self.cur = LexedCommand::default();
            self.cases.push(true);
        }
    }

    /// At the patterns of a case clause, `(a | b*)` or `a|b)`, or at `esac`.
    /// Patterns are data, but their substitutions run: they are lexed as
    /// words, which reads those.
    fn case_patterns(&mut self) {
        loop {
            self.skip_blanks();
            match self.peek() {
                Some('\n' | ';') => {
                    self.bump();
                    self.skip_heredoc_bodies();
                }
                Some('#') => self.skip_comment(),
                _ => break,
            }
        }
        if self.peek().is_none() {
            self.stop("an unterminated case statement");
            return;
        }
        if self.peek() == Some('(') {
            self.bump();
        }
        let mut first = true;
        loop {
            self.skip_blanks();
            let Some(w) = self.word() else {
                if !self.stopped {
                    self.stop("a case pattern hookc cannot read");
                }
                return;
            };
            if first && is_plain(&w, "esac") {
                self.cases.pop();
                return;
            }
            first = false;
            self.skip_blanks();
            match self.bump() {
                Some('|') => {}
                Some(')') => break,
                _ => {
                    self.stop("a case pattern hookc cannot read");
                    return;
                }
            }
        }
        if let Some(patterns) = self.cases.last_mut() {
            *patterns = false;
        }
    }

    fn open_paren(&mut self) {
        self.bump();
        self.prefix = false;
        if self.peek() == Some('(') {
            self.bump();
            self.opaque("arithmetic command ((...))");
            // bash and zsh read arithmetic up to the matching `))`; dash has
            // no `((` and runs two subshells, as bash also does where the
            // two closing parentheses are apart (`((cmd) )`). Both are
            // read: the line is opaque, and the commands of the subshells
            // are the line's (`sh -c '((exec git push -f))'` pushes). A
            // C-style `for ((…))` is a syntax error in dash.
            let c_style_for = self.cur.words.last().is_some_and(|w| w.text == "for");
            match self.skip_balanced('(', ')', 2, false) {
                None => self.stop("an unterminated (("),
                Some(inner) if !c_style_for => self.nested(&format!("({inner}")),
                Some(_) => {}
            }
            self.finish_command();
        } else if self.cur.writes.is_empty()
            && self.cur.reads.is_empty()
            && self.cur.words.iter().all(is_keyword)
        {
            // A subshell at the start of a command (possibly after `if`, `!`
            // …): its commands run like any others, so we simply enter it.
            self.finish_command();
            self.subshells += 1;
        } else if self.function_name()
            && self.rest().trim_start_matches([' ', '\t']).starts_with(')')
        {
            // `f() { …; }` or `function f() …`: the body that follows is
            // read as commands that may run, which is what calling `f` runs;
            // the definition itself runs nothing.
            self.out.repeats = true;
            self.skip_blanks();
            self.bump();
            self.cur = LexedCommand::default();
        } else if self.array_assignment() {
            self.array_elements();
        } else {
            // `(` anywhere else after a word.
            self.opaque("function definition or array '(...)'");
            self.cur = LexedCommand::default();
            if self.skip_balanced('(', ')', 1, true).is_none() {
                self.stop("an unterminated (");
            }
        }
    }

    /// Whether the last word so far is `NAME=` or `NAME+=`, written plainly:
    /// `(` then opens an array's elements.
    fn array_assignment(&self) -> bool {
        self.cur.words.last().is_some_and(|w| {
            let name = w
                .text
                .strip_suffix("+=")
                .or_else(|| w.text.strip_suffix('='));
            !w.quoted
                && w.plain_prefix == w.text.len()
                && name.is_some_and(|n| {
                    n.chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                        && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                })
        })
    }

    /// The elements of `a=(…)` (opening parenthesis consumed): words, whose
    /// substitutions run and are read like any others. An element with a
    /// subscript (`[k]=v`) is arithmetic unless the subscript is digits.
    fn array_elements(&mut self) {
        loop {
            self.skip_blanks();
            match self.peek() {
                Some(')') => {
                    self.bump();
                    return;
                }
                Some('\n') => {
                    self.bump();
                }
                None => {
                    self.stop("an unterminated (");
                    return;
                }
                Some(c) if is_word_end(c) => {
                    self.stop("an array element hookc cannot read");
                    return;
                }
                Some(_) => {
                    let Some(w) = self.word() else { return };
                    let subscript = w.text.strip_prefix('[').and_then(|t| t.split_once("]="));
                    if subscript.is_some_and(|(k, _)| {
                        k.is_empty() || !k.bytes().all(|b| b.is_ascii_digit())
                    }) {
                        self.opaque("an array subscript, which the shell evaluates as arithmetic");
                    }
                }
            }
        }
    }

    /// Whether the words so far name a function being defined: `f` or
    /// `function f`, plain words, no redirection.
    fn function_name(&self) -> bool {
        let plain = |w: &Word| {
            !w.quoted
                && !w.opaque
                && !w.has_param
                && w.plain_prefix == w.text.len()
                && !w.text.is_empty()
                && !w.text.contains('=')
        };
        self.cur.writes.is_empty()
            && match self.cur.words.as_slice() {
                [name] => plain(name),
                [keyword, name] => keyword.text == "function" && plain(keyword) && plain(name),
                _ => false,
            }
    }

    fn stop(&mut self, reason: &str) {
        self.opaque(reason);
        self.stopped = true;
    }

    /// Consume input until `depth` unmatched `close` characters have been
    /// seen, honouring quotes and backslashes. Returns the consumed inner
    /// text (excluding the final closer), or None at end of input.
    ///
    /// With `heredocs`, here-document bodies inside are skipped, so that a
    /// `$(cat <<'EOF' … EOF)` whose body contains `)` or an apostrophe (a
    /// commit message saying "don't") is still delimited correctly. It is off
    /// for arithmetic, where `<<` is a shift.
    fn skip_balanced(
        &mut self,
        open: char,
        close: char,
        mut depth: usize,
        heredocs: bool,
    ) -> Option<&'a str> {
        let start = self.pos;
        let src = self.src;
        // Bodies are only skipped here: the text is lexed again as a whole,
        // which judges each body.
        let mut pending: Vec<(String, bool, bool, usize)> = Vec::new();
        while let Some(c) = self.bump() {
            match c {
                '\\' => {
                    self.bump();
                }
                '\'' => {
                    let end = self.rest().find('\'')?;
                    self.pos += end + 1;
                }
                '"' => loop {
                    match self.bump()? {
                        '\\' => {
                            self.bump();
                        }
                        '"' => break,
                        _ => {}
                    }
                },
                '`' => loop {
                    match self.bump()? {
                        '\\' => {
                            self.bump();
                        }
                        '`' => break,
                        _ => {}
                    }
                },
                '<' if heredocs && self.peek() == Some('<') => {
                    self.bump();
                    if self.peek() == Some('<') {
                        self.bump(); // here-string
                    } else {
                        let strip = self.peek() == Some('-');
                        if strip {
                            self.bump();
                        }
                        while matches!(self.peek(), Some(' ' | '\t')) {
                            self.bump();
                        }
                        // Numbered past every slot: its body is not kept.
                        pending.push((self.raw_delimiter(), strip, true, usize::MAX));
                    }
                }
                '\n' if !pending.is_empty() => {
                    let bodies = std::mem::take(&mut pending);
                    self.skip_bodies(bodies);
                }
                c if c == open => depth += 1,
                c if c == close => {
                    depth -= 1;
                    if depth == 0 {
                        let end = self.pos - c.len_utf8();
                        return src.get(start..end);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// A here-document delimiter word with quotes removed, read without
    /// reporting anything (used while skipping over nested text).
    fn raw_delimiter(&mut self) -> String {
        let mut d = String::new();
        while let Some(c) = self.peek() {
            if is_word_end(c) {
                break;
            }
            self.bump();
            match c {
                '\'' | '"' => {
                    while let Some(q) = self.bump() {
                        if q == c {
                            break;
                        }
                        d.push(q);
                    }
                }
                '\\' => {
                    if let Some(x) = self.bump() {
                        d.push(x);
                    }
                }
                c => d.push(c),
            }
        }
        d
    }

    /// Lex text that runs as commands of its own (`$(…)`, `` `…` ``, `<(…)`):
    /// its commands are analysed like the line's. What it prints is unknown,
    /// which the word holding it says (`Word::opaque`); only where that word
    /// could change what a guard sees does it matter.
    fn nested(&mut self, inner: &str) {
        let sub = self.lex_nested(inner);
        self.take_nested(sub);
    }

    /// Lex text nested in this, within what is left of the word budget.
    fn lex_nested(&self, inner: &str) -> Lexed {
        let left = self.budget.saturating_sub(self.out.words);
        lex_within(inner, self.depth + 1, left)
    }

    /// The commands and opaque reasons of text [`nested`](Self::nested)
    /// lexed, as this line's.
    fn take_nested(&mut self, sub: Lexed) {
        self.count_words(sub.words);
        self.out.repeats |= sub.repeats;
        self.out.commands.extend(sub.commands);
        for o in sub.opaque {
            push_reason(&mut self.out.opaque, o.reason);
        }
    }

    /// At `<` or `>` (after an optional fd number): one step per operator.
    fn redirect(&mut self) {
        match self.bump() {
            Some('>') => match self.peek() {
                Some('>' | '|') => {
                    self.bump();
                    self.redirect_target(Some(true));
                }
                Some('&') => {
                    self.bump();
                    self.duplicate(true);
                }
                Some('(') => {
                    self.bump();
                    self.process_substitution(">(...)");
                }
                _ => self.redirect_target(Some(true)),
            },
            Some('<') => match self.peek() {
                Some('<') => {
                    self.bump();
                    if self.peek() == Some('<') {
                        self.bump();
                        self.here_string();
                    } else {
                        self.heredoc();
                    }
                }
                Some('&') => {
                    self.bump();
                    self.duplicate(false);
                }
                Some('>') => {
                    self.bump();
                    self.read_write_target();
                }
                Some('(') => {
                    self.bump();
                    self.process_substitution("<(...)");
                }
                _ => self.redirect_target(Some(false)),
            },
            _ => {}
        }
    }

    /// After `>&` (`write`) or `<&`: a copy of a descriptor (`2>&1`, `>&-`),
    /// or else a file written or read. Standard input is unknown after `<&`
    /// either way.
    fn duplicate(&mut self, write: bool) {
        self.skip_blanks();
        let Some(w) = self.word() else {
            if !self.stopped {
                self.opaque("a redirection without a target");
            }
            return;
        };
        let fd = w.text == "-" || w.text.bytes().all(|b| b.is_ascii_digit());
        if write {
            if !fd {
                self.cur.writes.push(w);
            }
        } else {
            if !fd {
                self.cur.reads.push(w);
            }
            self.cur.stdin = Stdin::Unknown;
        }
    }

    /// After `<<<`: a here-string, one word fed to standard input, known
    /// when the word is literal.
    fn here_string(&mut self) {
        self.skip_blanks();
        match self.word() {
            Some(w) => {
                self.cur.stdin = if w.has_param || w.opaque {
                    Stdin::Unknown
                } else {
                    Stdin::Text(format!("{}\n", w.text))
                };
            }
            None if !self.stopped => self.opaque("a redirection without a target"),
            None => {}
        }
    }

    /// After `<<` or `<<-`: a here-document's delimiter. Its body starts on
    /// the next line, so it is only noted here and read after the newline.
    fn heredoc(&mut self) {
        let strip = self.peek() == Some('-');
        if strip {
            self.bump();
        }
        self.skip_blanks();
        match self.word() {
            Some(w) => {
                let n = self.bodies.len();
                self.bodies.push(None);
                self.cur.stdin = Stdin::Heredoc(n);
                self.heredocs.push((w.text, strip, w.quoted, n));
            }
            None if !self.stopped => self.opaque("a heredoc without a delimiter"),
            None => {}
        }
    }

    /// After `<>`: a file opened for reading and writing.
    fn read_write_target(&mut self) {
        self.skip_blanks();
        match self.word() {
            Some(w) => {
                self.cur.reads.push(w.clone());
                self.cur.writes.push(w);
                self.cur.stdin = Stdin::Unknown;
            }
            None if !self.stopped => self.opaque("a redirection without a target"),
            None => {}
        }
    }

    fn process_substitution(&mut self, what: &str) {
        match self.skip_balanced('(', ')', 1, true) {
            Some(inner) => {
                let _ = what;
                self.nested(inner);
            }
            None => self.stop("an unterminated process substitution"),
        }
    }

    /// The target of a redirection: written (`Some(true)`), read
    /// (`Some(false)`), or a word that is not a file (`None`, a here-string).
    fn redirect_target(&mut self, write: Option<bool>) {
        self.skip_blanks();
        match self.word() {
            Some(w) if write == Some(true) => self.cur.writes.push(w),
            Some(w) if write == Some(false) => {
                self.cur.reads.push(w);
                self.cur.stdin = Stdin::Unknown;
            }
            Some(_) => {}
            None if !self.stopped => self.opaque("a redirection without a target"),
            None => {}
        }
    }

    /// After a newline: skip the bodies of pending here-documents.
    fn skip_heredoc_bodies(&mut self) {
        let pending = std::mem::take(&mut self.heredocs);
        self.skip_bodies(pending);
    }

    /// Skip here-document bodies, one per delimiter, in order. Each ends at
    /// a line equal to its delimiter (after leading tabs for `<<-`).
    ///
    /// A body whose delimiter was quoted is data for whoever reads standard
    /// input (the normaliser decides whether that reader runs it). Any other
    /// body is expanded by the shell first: its substitutions run.
    fn skip_bodies(&mut self, pending: Vec<(String, bool, bool, usize)>) {
        for (delim, strip, quoted, n) in pending {
            let mut body = String::new();
            // In an unquoted body a line ending in `\` continues on the
            // next: bash and zsh look for the delimiter in the joined line,
            // dash in each line as written (`EO\` then `F` ends the body
            // for bash only, `a\` then `EOF` for dash only).
            let mut joined: Option<String> = None;
            let mut disagree = false;
            loop {
                let rest = self.rest();
                if rest.is_empty() {
                    break;
                }
                let (line, advance) = match rest.find('\n') {
                    Some(i) => (&rest[..i], i + 1),
                    None => (rest, rest.len()),
                };
                self.pos += advance;
                let line = if strip {
                    line.trim_start_matches('\t')
                } else {
                    line
                };
                if !quoted {
                    let whole = joined.take().map_or_else(|| line.to_owned(), |j| j + line);
                    disagree |= whole != line && (whole == delim || line == delim);
                    if let Some(head) = continued(&whole) {
                        joined = Some(head.to_owned());
                    }
                }
                if line == delim {
                    break;
                }
                body.push_str(line);
                body.push('\n');
            }
            if disagree {
                self.opaque(
                    "a here-document whose end the shells find in different places (a line continued with `\\` before its delimiter)",
                );
            }
            let data = quoted || !body.contains(['$', '`', '\\']);
            if !quoted {
                self.expand_heredoc(&body);
            }
            if data && let Some(slot) = self.bodies.get_mut(n) {
                *slot = Some(body);
            }
        }
    }

    /// The expansions of an unquoted here-document body, which the shell
    /// performs as inside double quotes (except that `"` is a plain
    /// character there): the body is lexed as one double-quoted word, so
    /// its `$(…)` commands are read like any others and only what cannot be
    /// read is opaque.
    fn expand_heredoc(&mut self, body: &str) {
        let mut quoted = String::with_capacity(body.len() + 2);
        quoted.push('"');
        let mut chars = body.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                // `\"` in a body is a backslash and a quote, both kept.
                '\\' if chars.peek() == Some(&'"') => {
                    chars.next();
                    quoted.push_str("\\\\\\\"");
                }
                '"' => quoted.push_str("\\\""),
                c => quoted.push(c),
            }
        }
        quoted.push('"');
        let mut sub = Lexer::new(&quoted, self.depth + 1);
        if sub.depth > MAX_DEPTH {
            self.opaque("commands nested too deeply");
            return;
        }
        let _ = sub.word();
        self.out.commands.extend(sub.out.commands);
        for o in sub.out.opaque {
            push_reason(&mut self.out.opaque, o.reason);
        }
    }

    /// Read one word starting at the current position: one step per quoting
    /// or expansion form, until a character that ends the word. Returns
    /// None when nothing word-like is there or lexing had to stop.
    fn word(&mut self) -> Option<Word> {
        let mut w = Word::default();
        let mut started = false;
        let mut plain = true;
        let mut unquoted = Unquoted::default();
        while let Some(c) = self.peek() {
            if is_word_end(c) {
                break;
            }
            started = true;
            let read = match c {
                '\'' => {
                    self.bump();
                    plain = false;
                    self.single_quoted(&mut w)
                }
                '"' => {
                    self.bump();
                    plain = false;
                    self.double_quoted(&mut w)
                }
                '\\' => {
                    self.bump();
                    if self.escaped(&mut w) {
                        plain = false;
                    }
                    true
                }
                '$' => {
                    plain = false;
                    let ok = self.dollar(&mut w, false);
                    w.splits |= w.has_param || w.opaque;
                    ok
                }
                '`' => {
                    plain = false;
                    let ok = self.backtick(&mut w);
                    w.splits = true;
                    ok
                }
                _ => {
                    self.bump();
                    unquoted.see(c, self.peek());
                    w.text.push(c);
                    true
                }
            };
            if !read {
                return None;
            }
            if plain {
                w.plain_prefix = w.text.len();
            }
        }
        w.glob = unquoted.glob;
        if w.plain_prefix > 0 {
            w.has_param |= runtime_tilde(&w.text);
        }
        if w.values.is_some() && !values::one_expansion(&w.text) {
            w.values = None;
        }
        if unquoted.brace_expansion {
            // Several words, each known only after expansion.
            w.opaque = true;
            w.splits = true;
        }
        if started {
            // The word past the bound is not kept.
            self.count_words(1);
            if self.stopped {
                return None;
            }
        }
        started.then_some(w)
    }

    /// Inside `'…'` (opening quote consumed): everything up to the next
    /// quote, literally. Returns false if lexing stopped.
    fn single_quoted(&mut self, w: &mut Word) -> bool {
        w.quoted = true;
        match self.rest().find('\'') {
            Some(i) => {
                w.text.push_str(&self.rest()[..i]);
                self.pos += i + 1;
                true
            }
            None => {
                self.stop("an unbalanced single quote");
                false
            }
        }
    }

    /// After a backslash outside quotes: the next character, literally,
    /// unless it is a newline (a line continuation, which disappears) or
    /// the input ends (the backslash stays). Returns whether a character
    /// was quoted.
    fn escaped(&mut self, w: &mut Word) -> bool {
        match self.peek() {
            None => {
                w.text.push('\\');
                false
            }
            Some('\n') => {
                self.bump();
                false
            }
            Some(x) => {
                self.bump();
                w.quoted = true;
                w.text.push(x);
                true
            }
        }
    }

    /// Inside `"…"` (opening quote consumed). Returns false if lexing stopped.
    fn double_quoted(&mut self, w: &mut Word) -> bool {
        w.quoted = true;
        loop {
            match self.peek() {
                None => {
                    self.stop("an unbalanced double quote");
                    return false;
                }
                Some('"') => {
                    self.bump();
                    return true;
                }
                Some('\\') => {
                    self.bump();
                    match self.peek() {
                        Some(x @ ('"' | '\\' | '$' | '`')) => {
                            self.bump();
                            w.text.push(x);
                        }
                        Some('\n') => {
                            self.bump();
                        }
                        _ => w.text.push('\\'),
                    }
                }
                Some('$') => {
                    let before = w.text.len();
                    if !self.dollar(w, true) {
                        return false;
                    }
                    // `"$@"`, `"${a[@]}"`, `"${!p@}"`: a word per element.
                    w.splits |= w.text.get(before..).is_some_and(|t| t.contains('@'));
                }
                Some('`') => {
                    if !self.backtick(w) {
                        return false;
                    }
                }
                Some(c) => {
                    self.bump();
                    w.text.push(c);
                }
            }
        }
    }

    /// At `$`: one step per expansion, chosen by the character after the
    /// dollar. Returns false if lexing stopped.
    fn dollar(&mut self, w: &mut Word, in_dq: bool) -> bool {
        let start = self.pos;
        match self.peek_at(1) {
            Some('(') if self.peek_at(2) == Some('(') => self.arithmetic_expansion(w, start),
            Some('(') => self.command_substitution(w, start, in_dq),
            Some('{') => self.braced_parameter(w, start, in_dq),
            Some('[') => self.bracket_arithmetic(w, start),
            Some('\'') if !in_dq => {
                self.pos += 2;
                self.ansi_c(w)
            }
            Some('"') if !in_dq => {
                self.pos += 2;
                self.double_quoted(w)
            }
            // zsh: `$=x` splits the value into words, `$~x` makes it a
            // pattern, `$^x` joins it to what surrounds it. Still a value.
            Some('=' | '~' | '^')
                if self
                    .peek_at(2)
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '{') =>
            {
                self.pos += 2;
                self.dollar_after_zsh_modifier(w, start, in_dq)
            }
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                self.bump();
                let n = self
                    .rest()
                    .bytes()
                    .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                    .count();
                self.pos += n;
                let name = &self.src[start + 1..self.pos];
                if let Some(value) = self.known_value(name, in_dq) {
                    w.text.push_str(&value);
                    self.out.worked_out = true;
                    return true;
                }
                w.has_param = true;
                w.text.push_str(&self.src[start..self.pos]);
                self.loop_values(w, name);
                true
            }
            Some(c)
                if c.is_ascii_digit() || matches!(c, '@' | '*' | '#' | '?' | '$' | '!' | '-') =>
            {
                self.pos += 2;
                w.has_param = true;
                w.text.push_str(&self.src[start..self.pos]);
                true
            }
            _ => {
                self.bump();
                w.text.push('$');
                true
            }
        }
    }

    /// The word keeps an expansion it cannot perform as written, from
    /// `start` to here, and says so.
    fn keep_unexpanded(&self, w: &mut Word, start: usize) {
        w.opaque = true;
        w.text.push_str(&self.src[start..self.pos]);
    }

    /// At `$((`: arithmetic, known only when every name in it holds a
    /// number for sure (a name's value is evaluated again, and may be code).
    fn arithmetic_expansion(&mut self, w: &mut Word, start: usize) -> bool {
        self.pos += 3;
        if self.skip_balanced('(', ')', 2, false).is_none() {
            self.stop("an unterminated $((");
            return false;
        }
        let body = &self.src[start + 3..self.pos - 2];
        if !self.numbers_only(body) {
            self.opaque("arithmetic expansion $((...)) with names");
            // Where bash cannot read arithmetic (`$((cmd) )`,
            // `$((a);(b))`), it runs a command substitution of a subshell.
            // Else the command substitutions in it run all the same.
            if !closes_as_arithmetic(&self.src[start + 3..self.pos]) {
                self.nested(&format!("({body}"));
            } else if body.contains("$(") {
                // Read as a quoted word, where only substitutions run; the
                // `:` holding it is left out.
                let mut sub = self.lex_nested(&format!(": \"{body}\""));
                sub.commands.pop();
                self.take_nested(sub);
            }
        }
        self.keep_unexpanded(w, start);
        true
    }

    /// At `$(`: commands that run, read like the line's. Inside double
    /// quotes two idioms print text known exactly (a quoted here-document
    /// passed through `cat`, a literal `echo`), which the word then holds.
    fn command_substitution(&mut self, w: &mut Word, start: usize, in_dq: bool) -> bool {
        self.pos += 2;
        let Some(inner) = self.skip_balanced('(', ')', 1, true) else {
            self.stop("an unterminated command substitution $(");
            return false;
        };
        if in_dq && let Some(body) = literal_heredoc(inner) {
            w.text.push_str(&body);
            return true;
        }
        let sub = self.lex_nested(inner);
        if in_dq && let Some(body) = literal_echo(&sub) {
            self.count_words(sub.words);
            w.text.push_str(&body);
            return true;
        }
        let listing = (!in_dq && self.depth == 0 && w.text.is_empty())
            .then(|| values::ls_files(&sub))
            .flatten();
        self.take_nested(sub);
        self.keep_unexpanded(w, start);
        if let Some(args) = listing {
            self.listing(w, args);
        }
        true
    }

    /// A word that is `$(git ls-files ARGS)` so far: where what it prints
    /// is given, the word as written stands for those names; else its
    /// arguments are one of the line's [`Lexed::listings`].
    fn listing(&mut self, w: &Word, args: Vec<String>) {
        match self.given.and_then(|given| given.get(&args)) {
            Some(names) => {
                self.listed.insert(w.text.clone(), names.clone());
            }
            None if self.out.listings.len() < values::MAX_LISTINGS
                && !self.out.listings.contains(&args) =>
            {
                self.out.listings.push(args);
            }
            None => {}
        }
    }

    /// At `${`: a parameter, opaque when reading it evaluates code (zsh's
    /// flags, an arithmetic subscript, a substring, prompt expansion).
    fn braced_parameter(&mut self, w: &mut Word, start: usize, in_dq: bool) -> bool {
        self.pos += 2;
        if self.skip_balanced('{', '}', 1, false).is_none() {
            self.stop("an unterminated ${");
            return false;
        }
        let body = &self.src[start + 2..self.pos - 1];
        if let Some(value) = self.known_value(body, in_dq) {
            w.text.push_str(&value);
            self.out.worked_out = true;
            return true;
        }
        if !self.literals.is_empty() {
            // `${f:=x}`, zsh's `${f::=x}`: a name it may assign is no
            // longer known.
            for name in mentions(body) {
                self.literals.remove(&name);
            }
        }
        if body.starts_with('(') {
            // zsh's flags: `(e)` runs the value's substitutions, `(P)`
            // names another variable.
            self.opaque("zsh parameter flags ${(...)...}");
        } else if !literal_subscript(body)
            && (evaluates_code(body) || body.contains(['@', ':']) && substring_or_prompt(body))
        {
            self.opaque("parameter expansion ${...} that evaluates code");
        }
        w.has_param = true;
        self.keep_unexpanded(w, start);
        self.loop_values(w, body);
        true
    }

    /// At `$[`: bash's old spelling of `$((…))`.
    fn bracket_arithmetic(&mut self, w: &mut Word, start: usize) -> bool {
        self.pos += 2;
        if self.skip_balanced('[', ']', 1, false).is_none() {
            self.stop("an unterminated $[");
            return false;
        }
        let body = &self.src[start + 2..self.pos - 1];
        if !self.numbers_only(body) {
            self.opaque("arithmetic expansion $[...] with names");
        }
        self.keep_unexpanded(w, start);
        true
    }

    /// After zsh's `$=`, `$~` or `$^`: the name or `{…}` that follows,
    /// read as the parameter it is (the modifier keeps the text).
    fn dollar_after_zsh_modifier(&mut self, w: &mut Word, start: usize, in_dq: bool) -> bool {
        // Read `$NAME` / `${…}` from one byte back: the modifier is skipped
        // by pretending the `$` stands just before the name.
        self.pos -= 1;
        let before = w.text.len();
        let ok = self.dollar(w, in_dq);
        w.text.truncate(before);
        w.text.push_str(&self.src[start..self.pos]);
        w.has_param = true;
        ok
    }

    /// At a backtick. Returns false if lexing stopped.
    fn backtick(&mut self, w: &mut Word) -> bool {
        let start = self.pos;
        self.bump();
        let mut inner = String::new();
        loop {
            match self.bump() {
                None => {
                    self.stop("an unbalanced backtick");
                    return false;
                }
                Some('`') => break,
                Some('\\') => match self.peek() {
                    Some(x @ ('`' | '\\' | '$')) => {
                        self.bump();
                        inner.push(x);
                    }
                    _ => inner.push('\\'),
                },
                Some(c) => inner.push(c),
            }
        }
        self.nested(&inner);
        self.keep_unexpanded(w, start);
        true
    }

    /// Inside `$'…'` (opening consumed). Returns false if lexing stopped.
    fn ansi_c(&mut self, w: &mut Word) -> bool {
        w.quoted = true;
        loop {
            let Some(c) = self.bump() else {
                self.stop("an unbalanced $'...' quote");
                return false;
            };
            match c {
                '\'' => return true,
                '\\' => {
                    let Some(e) = self.bump() else {
                        self.stop("an unbalanced $'...' quote");
                        return false;
                    };
                    let decoded: Option<u32> = match e {
                        'a' => Some(7),
                        'b' => Some(8),
                        'e' | 'E' => Some(0x1b),
                        'f' => Some(0x0c),
                        'n' => Some(u32::from('\n')),
                        'r' => Some(u32::from('\r')),
                        't' => Some(u32::from('\t')),
                        'v' => Some(0x0b),
                        '\\' | '\'' | '"' | '?' => Some(u32::from(e)),
                        '0'..='7' => {
                            let mut v = e.to_digit(8).unwrap_or(0);
                            self.read_digits(&mut v, 8, 2);
                            self.byte_escape(w, v)
                        }
                        'x' => self.numeric_escape(w, 16, 2, true),
                        'u' => self.numeric_escape(w, 16, 4, false),
                        'U' => self.numeric_escape(w, 16, 8, false),
                        'c' => match self.bump() {
                            Some(x) if x.is_ascii() => Some(u32::from(x) & 0x1f),
                            _ => {
                                w.opaque = true;
                                None
                            }
                        },
                        other => {
                            w.text.push('\\');
                            Some(u32::from(other))
                        }
                    };
                    if let Some(v) = decoded {
                        if v == 0 {
                            // Bash truncates the word at a NUL.
                            w.opaque = true;
                        } else if let Some(ch) = char::from_u32(v) {
                            w.text.push(ch);
                        } else {
                            w.opaque = true;
                        }
                    }
                }
                c => w.text.push(c),
            }
        }
    }

    fn read_digits(&mut self, v: &mut u32, radix: u32, max: usize) -> usize {
        let mut n = 0;
        while n < max {
            match self.peek().and_then(|c| c.to_digit(radix)) {
                Some(d) => {
                    *v = v.saturating_mul(radix).saturating_add(d);
                    self.bump();
                    n += 1;
                }
                None => break,
            }
        }
        n
    }

    fn numeric_escape(&mut self, w: &mut Word, radix: u32, max: usize, byte: bool) -> Option<u32> {
        let mut v = 0;
        if self.read_digits(&mut v, radix, max) == 0 {
            // `\x` with no digits stays literal in bash.
            w.text.push('\\');
            return None;
        }
        if byte {
            self.byte_escape(w, v)
        } else {
            Some(v)
        }
    }

    /// `\xHH` and octal escapes produce bytes; bytes above 0x7f are not
    /// characters on their own, so we cannot represent the word faithfully.
    fn byte_escape(&mut self, w: &mut Word, v: u32) -> Option<u32> {
        if v > 0x7f {
            w.opaque = true;
            None
        } else {
            Some(v)
        }
    }
}

mod values;

pub(crate) use values::{Listings, MAX_LISTED, shell_fields};

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn argv(line: &str) -> Vec<Vec<String>> {
        lex(line)
            .commands
            .into_iter()
            .map(|c| c.words.into_iter().map(|w| w.text).collect())
            .collect()
    }

    fn one(line: &str) -> Vec<String> {
        let l = lex(line);
        assert!(l.opaque.is_empty(), "{line:?} opaque: {:?}", l.opaque);
        assert_eq!(l.commands.len(), 1, "{line:?}: {:?}", l.commands);
        l.commands[0].words.iter().map(|w| w.text.clone()).collect()
    }

    #[test]
    fn quoting() {
        assert_eq!(one("git push --force"), ["git", "push", "--force"]);
        assert_eq!(one("git  \t push   --force  "), ["git", "push", "--force"]);
        assert_eq!(one("git pu''sh -\\f"), ["git", "push", "-f"]);
        assert_eq!(
            one(r#""git" 'push' "--fo"'rce'"#),
            ["git", "push", "--force"]
        );
        assert_eq!(
            one(r#"echo "a\"b" "c\\d" "\$x" "\`" "\a""#),
            ["echo", "a\"b", "c\\d", "$x", "`", "\\a"]
        );
        assert_eq!(one(r"echo 'a\b' a\ b"), ["echo", "a\\b", "a b"]);
        assert_eq!(one("git push \\\n --force"), ["git", "push", "--force"]);
        assert_eq!(one("git pu\\\nsh"), ["git", "push"]);
        assert_eq!(one("echo \"a\\\nb\""), ["echo", "ab"]);
        assert_eq!(one("echo 'a\nb'"), ["echo", "a\nb"]);
        assert_eq!(one("echo ''"), ["echo", ""]);
        assert_eq!(one("echo a\\"), ["echo", "a\\"]);
        assert_eq!(
            one("echo $'\\x2d\\x2dforce' $'a\\'b' $'\\101\\n'"),
            ["echo", "--force", "a'b", "A\n"]
        );
        assert_eq!(one("echo $\"hi $x\""), ["echo", "hi $x"]);
        assert_eq!(one("echo a#b # comment ; rm -rf /"), ["echo", "a#b"]);
        assert_eq!(one("echo 日本 é"), ["echo", "日本", "é"]);
        assert_eq!(one("echo {} @{u} a{b}"), ["echo", "{}", "@{u}", "a{b}"]);
    }

    #[test]
    fn operators() {
        assert_eq!(
            argv("a 1; b 2 && c || d | e |& f & g\nh"),
            [
                vec!["a", "1"],
                vec!["b", "2"],
                vec!["c"],
                vec!["d"],
                vec!["e"],
                vec!["f"],
                vec!["g"],
                vec!["h"]
            ]
        );
        assert_eq!(
            argv("(cd x && git push -f)"),
            [vec!["cd", "x"], vec!["git", "push", "-f"]]
        );
        assert!(lex("(cd x)").opaque.is_empty());
        let l = lex("if ! (git push -f); then (ls); fi");
        assert!(l.opaque.is_empty(), "{:?}", l.opaque);
        assert!(argv("if ! (git push -f); then (ls); fi").contains(&vec![
            "git".into(),
            "push".into(),
            "-f".into()
        ]));
    }

    #[test]
    fn redirects() {
        let l = lex("cmd >out 2>&1 >>log 2>err <in &>both >|clob 3<>rw <<<here >&file");
        assert!(l.opaque.is_empty(), "{:?}", l.opaque);
        let c = &l.commands[0];
        assert_eq!(c.words.len(), 1);
        let writes: Vec<_> = c.writes.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(writes, ["out", "log", "err", "both", "clob", "rw", "file"]);
        let reads: Vec<_> = c.reads.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(reads, ["in", "rw"]);
        let l = lex("cat 0<a <&b <&0 <&- <<<c");
        let reads: Vec<_> = l.commands[0]
            .reads
            .iter()
            .map(|w| w.text.as_str())
            .collect();
        assert_eq!(reads, ["a", "b"]);
        // A loop's input: the redirection stands after `done`.
        let l = lex("while read -r l; do echo $l; done < .env");
        assert_eq!(l.commands.last().unwrap().reads[0].text, ".env");
        let l = lex("> file");
        assert_eq!(l.commands[0].writes[0].text, "file");
        assert!(lex("cat >").opaque.len() == 1);
    }

    #[test]
    fn opaque_constructs() {
        // Words whose value is known only when the line runs: the word says
        // so, the line is not opaque (the normaliser judges the word).
        for line in [
            "echo $(date)",
            "echo `date`",
            "echo ${HOME}",
            "echo $((1+2))",
            "rm -r{f,} /",
            "echo {1..3}",
            "echo $'\\xff'",
            "echo $'a\\0b'",
        ] {
            let l = lex(line);
            assert!(l.opaque.is_empty(), "{line:?}: {:?}", l.opaque);
            let last = l.commands.last().and_then(|c| c.words.get(1));
            assert!(last.is_some_and(|w| w.opaque), "{line:?}: {:?}", l.commands);
        }
        // Data is no code: a literal here-document, a process substitution
        // (its commands are lexed; its path is not an argument here).
        for line in [
            "cat <<EOF\nhi $USER\nEOF",
            "cat <<'EOF'\n$(id)\nEOF",
            "diff <(ls) >(cat)",
            "cat <<EOF\n$(id) [WIP]\nEOF",
            "f() { x; }",
            "function f { x; }",
            "a=(1 $(id)); echo \"${a[1]}\" ${#a[@]}",
            "case $(id) in (a|b) x;; c) y;& *) z; esac",
        ] {
            assert!(lex(line).opaque.is_empty(), "{line:?}");
        }
        // What those run is read: the body's, the elements', the clauses'.
        let names = |line: &str| -> Vec<String> {
            lex(line)
                .commands
                .iter()
                .map(|c| c.words[0].text.clone())
                .collect()
        };
        assert_eq!(names("cat <<EOF\n$(id)\nEOF"), ["cat", "id"]);
        assert_eq!(names("f() { x; }"), ["{", "}"]);
        assert_eq!(names("a=(1 $(id))"), ["id", "a="]);
        assert_eq!(
            names("case $(id) in (a|b) x;; c) y;& *) z; esac"),
            ["id", "x", "y", "z"]
        );
        for (line, reason) in [
            ("cat <<EOF\n${a[$(id)]}\nEOF", "evaluates code"),
            ("echo ${x:0:n}", "evaluates code"),
            ("echo ${v@P}", "evaluates code"),
            ("echo ${a[$(id)]}", "evaluates code"),
            ("echo $((n+1))", "with names"),
            ("echo 'abc", "unbalanced single quote"),
            ("echo \"abc", "unbalanced double quote"),
            ("echo `abc", "unbalanced backtick"),
            ("f(x) { x; }", "function definition"),
            ("a=([k]=1)", "array subscript"),
            ("case x in a) ls", "unterminated case"),
            ("echo a;; echo b", "outside a case"),
            ("x)", "unbalanced ')'"),
            ("(x", "unclosed"),
            ("((x++))", "arithmetic command"),
        ] {
            let l = lex(line);
            assert!(
                l.opaque.iter().any(|o| o.reason.contains(reason)),
                "{line:?} should be opaque with {reason:?}: {:?}",
                l.opaque
            );
        }
    }

    #[test]
    fn substitutions_are_lexed_too() {
        let l = lex("echo $(git push --force) `rm -rf /`");
        let progs: Vec<_> = l
            .commands
            .iter()
            .map(|c| c.words[0].text.as_str())
            .collect();
        assert_eq!(progs, ["git", "rm", "echo"]);
    }

    #[test]
    fn arithmetic_a_shell_runs_as_commands_is_read_as_commands() {
        let programs = |line: &str| -> Vec<String> {
            lex(line)
                .commands
                .iter()
                .map(|c| c.words[0].text.clone())
                .collect()
        };
        // dash runs `((…))` as two subshells; bash runs a substitution of
        // a subshell where it cannot read arithmetic; and the
        // substitutions inside arithmetic run in every shell.
        for line in [
            "((exec git push -f))",
            "((git push -f) )",
            "echo $((git push -f) )",
            "echo $((a);(git push -f))",
            "echo $((1+$(git push -f)))",
        ] {
            let pushes = lex(line).commands.iter().any(|c| {
                let words: Vec<&str> = c.words.iter().map(|w| w.text.as_str()).collect();
                words.ends_with(&["git", "push", "-f"])
            });
            assert!(pushes, "{line:?}");
            assert!(!lex(line).opaque.is_empty(), "{line:?}");
        }
        // Arithmetic bash reads as such, and a C-style `for` (a syntax
        // error in dash), run nothing.
        for (line, names) in [
            ("echo $((x+1))", &["x+1"][..]),
            ("echo $(( (a)+(b) ))", &["a", "b"]),
            ("for ((i=0; i<3; i++)); do :; done", &["i=0", "i", "i++"]),
        ] {
            let read = programs(line);
            assert!(
                names.iter().all(|n| !read.contains(&n.to_string())),
                "{line:?}: {read:?}"
            );
        }
    }

    #[test]
    fn commit_message_heredoc_idiom() {
        let line = "git commit -m \"$(cat <<'EOF'\nFix: don't (ever) do $x\n\n  body `y`\nEOF\n)\" && git push";
        let l = lex(line);
        assert!(l.opaque.is_empty(), "{:?}", l.opaque);
        assert_eq!(
            argv(line),
            [
                vec![
                    "git",
                    "commit",
                    "-m",
                    "Fix: don't (ever) do $x\n\n  body `y`"
                ],
                vec!["git", "push"]
            ]
        );
        let tabs = "echo \"$(cat <<-\"END\"\n\ta\n\tEND\n)\"";
        assert_eq!(argv(tabs), [vec!["echo", "a"]]);
        // An unquoted delimiter: the message is unknown, and the `id` that
        // the body's expansion runs is read.
        let expanded = lex("git commit -m \"$(cat <<EOF\n$(id)\nEOF\n)\"");
        assert!(expanded.commands.iter().any(|c| c.words[0].text == "id"));
        assert!(expanded.commands.last().unwrap().words[3].opaque);
        // Not the idiom: the message is unknown, but the line is still
        // delimited correctly.
        for line in [
            "git commit -m \"$(cat <<EOF\n$(id)\nEOF\n)\"; git push -f",
            "git commit -m $(cat <<'EOF'\nx\nEOF\n); git push -f",
            "git commit -m \"$(cat <<'EOF'\nx\nEOF\nid)\"; git push -f",
            "git commit -m \"$(cat x <<'EOF'\nx\nEOF\n)\"; git push -f",
            "git commit -m \"$(cat <<'EOF'\ndon't\n)\"; git push -f",
        ] {
            let l = lex(line);
            let cmds = argv(line);
            let pushed = cmds.iter().any(|c| c == &["git", "push", "-f"]);
            assert!(
                pushed || l.opaque.iter().any(|o| o.reason.contains("unterminated")),
                "{line:?}: {cmds:?}"
            );
        }
        let apostrophe = "x=\"$(cat <<EOF\ndon't )\nEOF\n)\"; git push -f";
        assert!(argv(apostrophe).iter().any(|c| c == &["git", "push", "-f"]));
    }

    /// A body line continued with `\` moves where bash and zsh end the
    /// document, but not where dash does (each checked): such a line is
    /// opaque; continued lines away from the delimiter are not.
    #[test]
    fn a_heredoc_whose_end_the_shells_disagree_on_is_opaque() {
        for line in [
            "cat <<EOF\nEO\\\nF\ngit push -f\nEOF",
            "cat <<EOF\na\\\nEOF\ncat <<Y\nEOF\ngit push -f\nY",
            "cat <<-EOF\n\tEO\\\nF\nEOF",
        ] {
            assert!(!lex(line).opaque.is_empty(), "{line:?}");
        }
        for line in [
            "cat <<EOF > x.sh\nfoo \\\n  --bar\nEOF",
            "cat <<'EOF'\nEO\\\nF\nEOF",
            "cat <<EOF\na\\\\\nEOF",
        ] {
            assert!(
                lex(line).opaque.is_empty(),
                "{line:?}: {:?}",
                lex(line).opaque
            );
        }
    }

    #[test]
    fn heredoc_body_skipped() {
        let l = lex("cat <<-'EOF' > out\n\trm -rf /\n\tEOF\ngit status");
        assert_eq!(
            argv("cat <<-'EOF' > out\n\trm -rf /\n\tEOF\ngit status"),
            [vec!["cat"], vec!["git", "status"]]
        );
        assert_eq!(l.commands[0].writes[0].text, "out");
    }

    #[test]
    fn word_flags() {
        let l = lex("X=1 'Y'=2 \"$Z\" if");
        let w = &l.commands[0].words;
        assert_eq!(w[0].plain_prefix, 3);
        assert!(!w[0].quoted);
        assert_eq!(w[1].plain_prefix, 0);
        assert!(w[1].quoted);
        assert!(w[2].has_param);
        assert_eq!(w[2].text, "$Z");
        assert_eq!(w[3].plain_prefix, 2);
        // A tilde-prefix other than `~` is a value the running shell gives.
        let l = lex("ls ~ ~/x ~+ ~-/x ~1 ~root '~+'");
        let params: Vec<bool> = l.commands[0].words.iter().map(|w| w.has_param).collect();
        assert_eq!(params, [false, false, false, true, true, true, true, false]);
    }

    #[test]
    fn deep_nesting_is_capped() {
        let mut s = String::from("x");
        for _ in 0..200 {
            s = format!("$({s})");
        }
        let l = lex(&s);
        assert!(
            l.opaque
                .iter()
                .any(|o| o.reason.contains("nested too deeply"))
        );
    }

    fn reasons(l: &Lexed) -> Vec<&str> {
        l.opaque.iter().map(|o| o.reason.as_str()).collect()
    }

    #[test]
    fn a_line_over_the_length_bound_is_opaque_unread() {
        let long = format!("git push --force; echo {}", "x".repeat(MAX_LINE_BYTES));
        let l = lex(&long);
        assert!(l.commands.is_empty());
        assert!(reasons(&l)[0].starts_with("a command line over 1024 KiB"));
        // A here-document of half a megabyte, as agents write files, is read.
        let body = "let x = 1; // $HOME `ok` \\n\n".repeat(MAX_LINE_BYTES / 2 / 28);
        let l = lex(&format!(
            "cat > out.rs <<'EOF'\n{body}EOF\ngit push --force"
        ));
        assert!(l.opaque.is_empty(), "{:?}", l.opaque);
        assert_eq!(l.commands.len(), 2);
        assert_eq!(l.commands[0].stdin, Stdin::Text(body));
    }

    #[test]
    fn words_past_the_bound_are_not_read() {
        let many = format!("{}git push --force", "true; ".repeat(MAX_WORDS));
        let l = lex(&many);
        assert_eq!(l.commands.len(), MAX_WORDS);
        assert_eq!(reasons(&l), [too_many_words()]);
        assert_eq!(
            lex(&format!("echo {}", "a ".repeat(MAX_WORDS - 1))).opaque,
            []
        );
        assert_eq!(
            reasons(&lex(&format!("echo {}", "a ".repeat(MAX_WORDS)))),
            [too_many_words()]
        );
        // Words in substitutions count against the line's.
        let inside = format!("echo {}", "$(a b) ".repeat(MAX_WORDS / 2));
        assert_eq!(reasons(&lex(&inside)), [too_many_words()]);
    }

    #[test]
    fn nested_substitutions_are_read_once_each() {
        // `"$("$(…)")"`: a literal `echo` inside double quotes is tried on
        // the commands the substitution was read as, not read again.
        let nest = |depth: usize, each: &str, core: &str| {
            (0..depth).fold(core.to_owned(), |s, _| format!("\"$({each}{s})\""))
        };
        let force: Vec<String> = vec!["git".into(), "push".into(), "--force".into()];
        assert!(argv(&nest(MAX_DEPTH, "", "git push --force")).contains(&force));
        let l = lex(&nest(4 * MAX_DEPTH, "", "git push --force"));
        assert!(
            reasons(&l)
                .iter()
                .any(|r| r.starts_with("commands nested too deeply"))
        );
        assert_eq!(
            one(&format!("echo {}", nest(MAX_DEPTH, "echo ", "hi"))),
            ["echo", "hi"]
        );
    }

    #[test]
    fn deep_groups_and_many_numbers_stay_linear() {
        // `{` at each word once looked for a `}` across the rest of the line.
        let groups = MAX_WORDS / 3;
        let line = format!(
            "{}git push --force{}",
            "{ ".repeat(groups),
            "; }".repeat(groups)
        );
        let l = lex(&line);
        assert!(l.opaque.is_empty(), "{:?}", l.opaque);
        let last = &l.commands[0].words;
        assert_eq!(last.len(), groups + 3);
        // Names that hold numbers are a set, not a list searched per name.
        let names: String = (0..10_000).map(|k| format!("a{k}=1; ")).collect();
        assert!(
            lex(&format!("{names}echo $((a1 + a9999))"))
                .opaque
                .is_empty()
        );
    }

    /// Quote a word for the shell with single quotes.
    pub(crate) fn sq(word: &str) -> String {
        format!("'{}'", word.replace('\'', r"'\''"))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn never_panics(s in any::<String>()) {
            let _ = lex(&s);
        }

        #[test]
        fn never_panics_shellish(s in r#"[a-z0-9 \t\n;&|<>(){}$'"`\\#=~*?,.!\-é日]{0,60}"#) {
            let _ = lex(&s);
        }

        #[test]
        fn single_quote_round_trip(words in proptest::collection::vec("[^\u{0}]{0,12}", 1..6)) {
            let line = words.iter().map(|w| sq(w)).collect::<Vec<_>>().join(" ");
            let l = lex(&line);
            prop_assert!(l.opaque.is_empty());
            prop_assert_eq!(l.commands.len(), 1);
            let got: Vec<String> = l.commands[0].words.iter().map(|w| w.text.clone()).collect();
            prop_assert_eq!(got, words);
        }
    }
}
