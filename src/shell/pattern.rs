//! Command patterns: what a guard says it wants to catch.
//!
//! A pattern describes a command by *meaning*, not by text: program, leading
//! subcommand words, flags that must be present (in any spelling) and
//! optional argument globs. It is matched against a [`SimpleCommand`] from
//! [`analyze`](super::analyze), which has already removed wrappers, quoting
//! and git's global options.
//!
//! ## Matching rules
//!
//! * **program**: equal to the command's basename, or a glob when it
//!   contains `*`, `?`, `[` or `{` (`{cat,less}` alternation works).
//! * **Words of the command** are classified without knowing the program:
//!   before a `--` word, a word starting with `-` (other than `-` itself) is
//!   an *option*; every other word, and every word after `--`, is
//!   *positional*. Options that take a separate value (`-m msg`) therefore
//!   make their value look positional; the matcher accepts that imprecision
//!   because knowing every program's options is impossible. Mostly it makes
//!   `args` match *more* often (`-m /` offers `/` as an argument), but a
//!   value before the subcommand hides it (`docker --context x run`); that
//!   is why the normaliser removes git's global options.
//! * **subcommand**: the first positional words must equal these, in order.
//! * **flags**: every group must be satisfied (AND); a group is satisfied
//!   when any of its spellings is present (OR). Flags may appear anywhere
//!   among the options, before or after the subcommand. An option word equal
//!   to the spelling always matches; beyond that, a spelling:
//!   * `-x` (one character) is present as the word `-x` or inside a short
//!     cluster: `-rf` contains `r` and `f`. A cluster is any option word with
//!     a single dash that is not a negative number (`-5`, `-1.5`). Clusters
//!     are not cut at options that take values, so `-mfix` "contains" `f`:
//!     again, this errs on the side of matching.
//!   * `--long` is present as `--long`, as `--long=value`, or abbreviated:
//!     getopt_long and git accept any unambiguous prefix, however short
//!     (`--forc`, `--ha` for `--hard`), so a word `--abc` or `--abc=value`
//!     matches when `abc` is a prefix of `long`. We do not check that the
//!     abbreviation is unambiguous for the program (we do not know its
//!     options), so this errs on the side of matching.
//!   * `--long=value` (contains `=`) and single-dash words longer than one
//!     character (`-delete`, `-exec`, find-style) must appear exactly.
//!     To require both `-r` and `-f`, write two groups, not `-rf`.
//! * **args** (globs; optional): at least one positional word after the
//!   subcommand must match at least one glob. Globs use globset syntax
//!   (`*` `?` `[…]` `{a,b}`, `\` escapes) and `*` *does* cross `/`. Both
//!   the glob and the word are normalised first: a `$HOME` or `${HOME}`
//!   prefix becomes `~`, runs of `/` collapse, and a trailing `/` or `/.` is
//!   dropped (`/` stays `/`), so `~/`, `$HOME` and `~` are the same. To match
//!   a literal `*` (as in `rm -rf *`), write `[*]`.
//!
//! Matching a git force push through a `+refspec` is expressed by the user as
//! a second pattern with `args: ["+*"]`; nothing git-specific is hardcoded.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;

use globset::{GlobBuilder, GlobMatcher};
use serde::{Deserialize, Serialize};

use super::normalize::{Analysis, SimpleCommand};

/// A description of commands a guard wants to catch. See the module docs for
/// the matching rules.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandPattern {
    /// Matched against [`SimpleCommand::program`] (exact, or a glob if it
    /// contains `*` `?` `[` `{`).
    pub program: String,
    /// The first positional (non-option) args must equal these, in order,
    /// e.g. `["push"]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subcommand: Vec<String>,
    /// Every group must be satisfied (AND).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<FlagGroup>,
    /// Globs; if non-empty, at least one positional arg (after the
    /// subcommand) must match one of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
}

/// Alternative spellings of one flag, e.g. `["-r", "-R", "--recursive"]`:
/// satisfied when any spelling is present.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FlagGroup {
    /// The spellings; each starts with `-`.
    pub any_of: Vec<String>,
}

/// Why a user-written pattern is invalid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError {
    /// Which field is wrong: `program`, `subcommand`, `flags` or `args`.
    pub field: &'static str,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub help: String,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for PatternError {}

fn err(field: &'static str, message: String, help: &str) -> PatternError {
    PatternError {
        field,
        message,
        help: help.to_owned(),
    }
}

impl CommandPattern {
    /// Validate a pattern written by a user; errors say which field is wrong
    /// and how to fix it. Patterns that could never match are errors too,
    /// because a guard that silently never fires is worse than no guard.
    pub fn validate(&self) -> Result<(), PatternError> {
        let program = self.program.trim();
        if program.is_empty() {
            return Err(err(
                "program",
                "program is empty".into(),
                "name the program to match, e.g. `git`, or use `*` for any program",
            ));
        }
        if program.contains('/') {
            return Err(err(
                "program",
                format!("`{}` contains a `/`", self.program),
                "programs are matched by basename (`/usr/bin/git` runs as `git`); write just `git`",
            ));
        }
        if is_glob(program) {
            compile(program).map_err(|e| {
                err(
                    "program",
                    format!("invalid glob `{}`: {e}", self.program),
                    "use `*`, `?`, `[abc]` or `{a,b}`; escape a literal metacharacter with `\\`",
                )
            })?;
        }
        for s in &self.subcommand {
            if s.is_empty() || s.starts_with('-') {
                return Err(err(
                    "subcommand",
                    format!("subcommand word `{s}` is empty or starts with `-`"),
                    "subcommand words are positional words like `push`; put options in `flags`",
                ));
            }
        }
        for group in &self.flags {
            if group.any_of.is_empty() {
                return Err(err(
                    "flags",
                    "a flag group is empty".into(),
                    "list at least one spelling, e.g. [\"-f\", \"--force\"]",
                ));
            }
            for flag in &group.any_of {
                if !flag.starts_with('-') || flag == "-" || flag == "--" {
                    return Err(err(
                        "flags",
                        format!("`{flag}` is not a flag"),
                        "flags start with `-` or `--`, e.g. `-f` or `--force`; to match a word like `+main` use `args`",
                    ));
                }
            }
        }
        for glob in &self.args {
            let glob = glob.strip_prefix('!').unwrap_or(glob);
            compile(&normalize_arg(glob)).map_err(|e| {
                err(
                    "args",
                    format!("invalid glob `{glob}`: {e}"),
                    "use `*`, `?`, `[abc]` or `{a,b}`; write `[*]` for a literal `*`",
                )
            })?;
        }
        Ok(())
    }

    /// Does this pattern describe `cmd`? Never panics; an invalid glob simply
    /// does not match (call [`validate`](Self::validate) first).
    pub fn matches(&self, cmd: &SimpleCommand) -> bool {
        if !program_matches(self.program.trim(), &cmd.program) {
            return false;
        }
        // Where the subcommand may start: the first positional word, or a
        // later one when every word before it may be an option's value
        // (`npm --registry X publish`) or a toolchain (`cargo +nightly
        // publish`). Unsure which, the pattern tries each.
        // An unquoted pattern may become any file name it matches, and an
        // agent can make the file first (`touch ./--force`).
        let patterns: Vec<&str> = cmd
            .globs
            .iter()
            .filter_map(|&k| cmd.args.get(k).map(String::as_str))
            .collect();
        let pattern = |word: &str| patterns.contains(&word);
        let marked = positionals_marked(&cmd.args);
        let starts: Vec<usize> = (0..=marked.len())
            .take_while(|&k| k == 0 || marked[k - 1].1)
            .filter(|&k| {
                self.subcommand.len() <= marked.len() - k
                    && self
                        .subcommand
                        .iter()
                        .zip(&marked[k..])
                        .all(|(want, (word, _))| {
                            want == word || (pattern(word) && may_become(word, want))
                        })
            })
            .collect();
        if starts.is_empty() {
            return false;
        }
        let mut pos = starts
            .iter()
            .flat_map(|&k| marked[k + self.subcommand.len()..].iter().map(|(w, _)| *w));
        let mut options = effective_options(cmd);
        options.extend(patterns.iter().filter(|p| p.starts_with(['*', '?', '['])));
        for group in &self.flags {
            let present = group.any_of.iter().any(|flag| {
                options.iter().any(|word| {
                    flag_matches(flag, word) || (pattern(word) && pattern_may_be_flag(word, flag))
                })
            });
            if !present {
                return false;
            }
        }
        if self.args.is_empty() {
            return true;
        }
        // `arg ".env*" "!.env.example"`: some argument matches an including
        // glob (any argument, when all globs exclude) and no excluding one.
        let (excludes, includes): (Vec<&String>, Vec<&String>) =
            self.args.iter().partition(|g| g.starts_with('!'));
        pos.any(|word| {
            let arg = normalize_arg(word);
            // A pattern the agent typed may name the exact argument the
            // guard lists (`rm -rf .?*` may be `.git`).
            let expands_to =
                |value: &str| pattern(word) && !is_glob(value) && may_become(&arg, value);
            let included = includes.is_empty()
                || includes.iter().any(|glob| {
                    let glob = normalize_arg(glob);
                    glob_matches(&glob, &arg) || expands_to(&glob)
                });
            included
                && !excludes
                    .iter()
                    .any(|glob| glob_matches(&normalize_arg(&glob[1..]), &arg))
        })
    }

    /// Whether `cmd` could be a command this pattern describes once its
    /// unknown words (`SimpleCommand::unknown`: `$VAR`, `"$(…)"`, `{a,b}`)
    /// have their values: the program matches and the words before the first
    /// unknown one do not already rule the subcommand out. An unknown word
    /// may be any option or several words, so it can supply any flag or
    /// argument the pattern needs, unless each is one word (`"$x"`, see
    /// [`too_few`](Self::too_few)); with no unknown word this is
    /// [`matches`](Self::matches).
    pub fn could_match(&self, cmd: &SimpleCommand) -> bool {
        // The value of an option that takes one (`git commit -m "$MSG"`) is
        // no option and no subcommand, whatever it holds.
        let values = option_values(cmd);
        let Some(first) = cmd
            .unknown
            .iter()
            .copied()
            .filter(|k| !values.contains(k))
            .min()
        else {
            return self.matches(cmd);
        };
        if !program_matches(self.program.trim(), &cmd.program) || self.too_few(cmd, &values) {
            return false;
        }
        let known = positionals_marked(&cmd.args[..first.min(cmd.args.len())]);
        // A start for the subcommand whose known words agree with it (the
        // rest of it may lie in the unknown part).
        (0..=known.len())
            .take_while(|&k| k == 0 || known[k - 1].1)
            .any(|k| {
                self.subcommand
                    .iter()
                    .zip(&known[k..])
                    .all(|(want, (word, _))| want == word)
            })
    }

    /// Whether the unknown words of `cmd` (but option `values`), when each
    /// is one word whatever it holds (`SimpleCommand::single`), are fewer
    /// than what the known words lack. One word is one option cluster or one
    /// operand: it supplies the flags or an argument, not both, so `rm -f
    /// "$TMPFILE"` is never `rm -r -f .`. Only for a pattern without a
    /// subcommand, which an unknown word could also shift.
    fn too_few(&self, cmd: &SimpleCommand, values: &[usize]) -> bool {
        let unknown: Vec<usize> = cmd
            .unknown
            .iter()
            .copied()
            .filter(|k| !values.contains(k))
            .collect();
        if !self.subcommand.is_empty() || !unknown.iter().all(|k| cmd.single.contains(k)) {
            return false;
        }
        // The command without its unknown words, indices moved down.
        let kept = |ks: &[usize]| -> Vec<usize> {
            ks.iter()
                .filter(|k| !unknown.contains(k))
                .map(|&k| k - unknown.iter().filter(|&&u| u < k).count())
                .collect()
        };
        let known = SimpleCommand {
            args: (cmd.args.iter().enumerate())
                .filter(|(k, _)| !unknown.contains(k))
                .map(|(_, a)| a.clone())
                .collect(),
            unknown: Vec::new(),
            globs: kept(&cmd.globs),
            single: kept(&cmd.single),
            ..cmd.clone()
        };
        let flags_lack = !CommandPattern {
            args: Vec::new(),
            ..self.clone()
        }
        .matches(&known);
        let args_lack = !CommandPattern {
            flags: Vec::new(),
            ..self.clone()
        }
        .matches(&known);
        usize::from(flags_lack) + usize::from(args_lack) > unknown.len()
    }

    /// Whether the pattern is about `program` (by name or glob).
    pub fn names(&self, program: &str) -> bool {
        program_matches(self.program.trim(), program)
    }

    /// Whether a word that is a pattern the shell expands (`gi[t]`,
    /// `/usr/bin/r?`) may become a program the pattern is about: any name
    /// when the pattern's own program is a glob.
    pub fn named_by(&self, pattern: &str) -> bool {
        let program = self.program.trim();
        // `{psql,mysql}`: each name in turn; one that is a pattern itself
        // (`mkfs*`) may meet any.
        let alternatives: Vec<&str> =
            match program.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
                Some(inner) if !inner.contains(['{', '}']) => inner.split(',').collect(),
                _ => vec![program],
            };
        alternatives
            .iter()
            .any(|name| is_glob(name) || glob_matches(pattern, name))
    }

    /// True when any command of the analysis matches.
    pub fn matches_any(&self, analysis: &Analysis) -> bool {
        analysis.commands.iter().any(|c| self.matches(c))
    }
}

fn program_matches(pattern: &str, program: &str) -> bool {
    if is_glob(pattern) {
        glob_matches(pattern, program)
    } else {
        pattern == program
    }
}

/// Option words: before `--`, words starting with `-` other than `-`; a
/// short cluster is cut where an option that takes a value starts (`-ofoo`
/// of `git push` is `-o foo`), and the separate value of such an option is
/// no option word. Options of programs hookc has no table for are taken as
/// they come, which errs towards matching.
fn effective_options(cmd: &SimpleCommand) -> Vec<&str> {
    let (short_val, _) = super::programs::value_options(&cmd.program, &cmd.args);
    let values = option_values(cmd);
    cmd.args
        .iter()
        .enumerate()
        .take_while(|(_, a)| *a != "--")
        .filter(|(k, a)| a.starts_with('-') && a.len() > 1 && !values.contains(k))
        .map(|(_, a)| {
            let a = a.as_str();
            match a.strip_prefix('-').filter(|c| !c.starts_with('-')) {
                Some(cluster) => match cluster.find(|c| short_val.contains(c)) {
                    Some(at) => &a[..at + 2],
                    None => a,
                },
                None => a,
            }
        })
        .collect()
}

/// Indices of words that are the separate value of the option before them
/// (`-m MSG`, `--message MSG`), by the program's table.
fn option_values(cmd: &SimpleCommand) -> Vec<usize> {
    let (short_val, long_val) = super::programs::value_options(&cmd.program, &cmd.args);
    let mut values = Vec::new();
    for (k, a) in cmd.args.iter().enumerate() {
        if a == "--" {
            break;
        }
        if values.contains(&k) {
            continue;
        }
        let takes_next = match a.strip_prefix("--") {
            Some(long) => !long.contains('=') && long_val.contains(&long),
            None => a.strip_prefix('-').is_some_and(|cluster| {
                // The value is the next word when the valued option ends the cluster.
                cluster
                    .char_indices()
                    .find(|(_, c)| short_val.contains(*c))
                    .is_some_and(|(at, c)| at + c.len_utf8() == cluster.len())
            }),
        };
        if takes_next {
            values.push(k + 1);
        }
    }
    values
}

/// Positional words, each marked when a subcommand may come after it: it
/// directly follows an option word without `=` (so it may be that option's
/// value) or is a `+toolchain` word.
fn positionals_marked(args: &[String]) -> Vec<(&str, bool)> {
    let mut out = Vec::new();
    let mut after = false;
    let mut after_option = false;
    for a in args.iter().map(String::as_str) {
        if after {
            out.push((a, false));
        } else if a == "--" {
            after = true;
        } else if a.starts_with('-') && a.len() > 1 {
            after_option = !a.contains('=');
            continue;
        } else {
            out.push((a, after_option || a.starts_with('+')));
        }
        after_option = false;
    }
    out
}

fn is_negative_number(cluster: &str) -> bool {
    !cluster.is_empty()
        && cluster.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && cluster.bytes().any(|b| b.is_ascii_digit())
}

/// Is the flag spelling `flag` present in the option word `word`?
fn flag_matches(flag: &str, word: &str) -> bool {
    if word == flag {
        return true;
    }
    if let Some(name) = flag.strip_prefix("--") {
        let Some(body) = word.strip_prefix("--") else {
            return false;
        };
        if flag.contains('=') {
            return word == flag;
        }
        let given = body.split_once('=').map_or(body, |(n, _)| n);
        given == name || (!given.is_empty() && name.starts_with(given))
    } else if let Some(short) = flag.strip_prefix('-') {
        let mut chars = short.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => match word.strip_prefix('-') {
                Some(cluster) if !cluster.starts_with('-') && !is_negative_number(cluster) => {
                    cluster.contains(c)
                }
                _ => false,
            },
            _ => word == flag,
        }
    } else {
        false
    }
}

/// Whether the shell pattern `word` may become an option word that holds
/// `flag`: `--forc?` or `--fo*` (git takes `--fo` for `--force`), `-?`
/// or `-?v` for `-f`, `*` for anything.
/// Whether a pattern the agent typed may become `text`. One longer than a
/// path can be is not compiled (its regex could outgrow the engine's
/// limit, and a `[…]` that long still matches one character): it may
/// become anything.
fn may_become(pattern: &str, text: &str) -> bool {
    pattern.len() > MAX_GLOB_BYTES || glob_matches(pattern, text)
}

fn pattern_may_be_flag(word: &str, flag: &str) -> bool {
    // A pattern longer than a path can be may be any flag (`may_become`).
    if word.contains('*') || word.len() > MAX_GLOB_BYTES {
        return true;
    }
    if flag.starts_with("--") {
        let shortest = if flag.contains('=') { flag.len() } else { 3 };
        (shortest..=flag.len()).any(|n| flag.is_char_boundary(n) && glob_matches(word, &flag[..n]))
    } else if let Some(c) = flag.strip_prefix('-').filter(|c| c.chars().count() == 1) {
        if word.starts_with("--") {
            return false;
        }
        let filled = word.replace('?', c);
        glob_matches(word, flag)
            || (filled.contains(c) && glob_matches(word, &filled))
            || word.contains('[')
    } else {
        glob_matches(word, flag)
    }
}

/// Normalise a path-like argument (or glob) so spellings of the same place
/// compare equal: `$HOME`/`${HOME}` prefix → `~`, `//` → `/`, trailing `/`
/// and `/.` dropped (but `/` stays `/`).
pub(crate) fn normalize_arg(s: &str) -> Cow<'_, str> {
    let mut s: Cow<'_, str> = Cow::Borrowed(s);
    for prefix in ["$HOME", "${HOME}"] {
        if let Some(rest) = s.strip_prefix(prefix)
            && (rest.is_empty() || rest.starts_with('/'))
        {
            s = Cow::Owned(format!("~{rest}"));
            break;
        }
    }
    if s.contains("//") {
        let mut out = String::with_capacity(s.len());
        let mut prev_slash = false;
        for c in s.chars() {
            if c == '/' && prev_slash {
                continue;
            }
            prev_slash = c == '/';
            out.push(c);
        }
        s = Cow::Owned(out);
    }
    // Where the path ends once trailing `/` and `/.` are gone, found before
    // the text is cut once: cutting at each step would copy `/./././…`
    // as many times as it has steps.
    let mut end = s.len();
    loop {
        let t = &s[..end];
        if t == "/." {
            end = 1;
        } else if end > 1 && t.ends_with('/') {
            end -= 1;
        } else if end > 2 && t.ends_with("/.") {
            end -= 2;
        } else {
            break;
        }
    }
    match s {
        Cow::Borrowed(b) => Cow::Borrowed(&b[..end]),
        Cow::Owned(mut o) => {
            o.truncate(end);
            Cow::Owned(o)
        }
    }
}

/// Operands and globs longer than this (the system's `PATH_MAX`), or whose
/// brace expansion is, are taken to name any file rather than expanded and
/// matched: no file has so long a name, and matching costs time in the
/// product of the two lengths.
pub const MAX_GLOB_BYTES: usize = 4096;

/// The characters that make a program or argument pattern a glob.
pub const GLOB_META: [char; 5] = ['*', '?', '[', '{', '\\'];

/// Whether a pattern is a glob rather than an exact word: the one test, used
/// here to match and by `resolve` to index guards by program name (if the
/// two differed, the index could skip a guard that should run).
pub fn is_glob(s: &str) -> bool {
    s.contains(GLOB_META)
}

fn compile(glob: &str) -> Result<GlobMatcher, globset::Error> {
    Ok(GlobBuilder::new(glob)
        .literal_separator(false)
        .backslash_escape(true)
        .build()?
        .compile_matcher())
}

thread_local! {
    /// Compiled globs, keyed by source. Compiling a glob builds a regex, which
    /// costs far more than matching; a guard evaluates the same few patterns
    /// against every command of a line, so we compile each once per thread.
    static GLOBS: RefCell<HashMap<String, Option<GlobMatcher>>> = RefCell::new(HashMap::new());
}

pub fn glob_matches(glob: &str, text: &str) -> bool {
    if !is_glob(glob) {
        return glob == text;
    }
    GLOBS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some(m) = cache.get(glob) {
            return m.as_ref().is_some_and(|m| m.is_match(text));
        }
        if cache.len() > 4096 {
            cache.clear(); // bound memory in long-running processes
        }
        // Longer ones never come from a policy (see `may_become`).
        let m = (glob.len() <= MAX_GLOB_BYTES)
            .then(|| compile(glob).ok())
            .flatten();
        let hit = m.as_ref().is_some_and(|m| m.is_match(text));
        cache.insert(glob.to_owned(), m);
        hit
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::analyze;

    fn pat(program: &str, sub: &[&str], flags: &[&[&str]], args: &[&str]) -> CommandPattern {
        CommandPattern {
            program: program.into(),
            subcommand: sub.iter().map(|s| (*s).into()).collect(),
            flags: flags
                .iter()
                .map(|g| FlagGroup {
                    any_of: g.iter().map(|s| (*s).into()).collect(),
                })
                .collect(),
            args: args.iter().map(|s| (*s).into()).collect(),
        }
    }

    fn hit(p: &CommandPattern, line: &str) -> bool {
        p.matches_any(&analyze(line))
    }

    /// A quoted unknown word is one word: one option cluster or one operand,
    /// so it cannot supply both what the flags and the arguments lack.
    #[test]
    fn one_quoted_word_supplies_flags_or_an_argument_not_both() {
        let repo = pat("rm", &[], &[&["-r", "-R"]], &[".", "/", "~"]);
        let could = |line: &str| analyze(line).commands.iter().any(|c| repo.could_match(c));
        for line in ["rm -f \"$TMPFILE\"", "rm \"$x\"", "rm -f -- \"$(mktemp)\""] {
            assert!(!could(line), "{line}");
        }
        for line in [
            // It may be the flag, or the argument the known words lack.
            "rm -f \"$x\" .",
            "rm -rf \"$x\"",
            "rm \"$a\" \"$b\"",
            // Split at blanks, or several words: any number of each.
            "rm -f $TMPFILE",
            "rm -f \"$@\"",
            "rm -f \"${files[@]}\"",
            "rm -f {\"$a\",.}",
            "rm -f `echo x`",
            "rm -f \"$x\"$y",
        ] {
            assert!(could(line), "{line}");
        }
    }

    /// An unquoted pattern becomes the name of a matching file when one
    /// exists, and the agent can create one first: it matches whatever it
    /// may become. A quoted one is the text as written.
    #[test]
    fn an_unquoted_pattern_matches_what_it_may_become() {
        let force = pat("git", &["push"], &[&["--force", "-f"]], &[]);
        for line in [
            "touch ./--force && git push --forc? origin main",
            "git push --fo* origin",
            "git pu?h -f",
            "git push -? origin",
            "git push -?v origin",
            "git push -[f] origin",
            "git push * origin",
        ] {
            assert!(hit(&force, line), "{line}");
        }
        for line in [
            "git push '--forc?' origin",
            "git push origin feature/*",
            "git add *.rs",
            "git push --tags?",
        ] {
            assert!(!hit(&force, line), "{line}");
        }
        let repo = pat("rm", &[], &[&["-r"]], &[".", "..", ".git", "[*]"]);
        assert!(hit(&repo, "rm -rf .?*"));
        assert!(hit(&repo, "rm -r .gi[t]"));
        assert!(hit(&repo, "rm -rf *"));
        assert!(!hit(&repo, "rm -rf build/*"));
        assert!(!hit(&repo, "rm -rf '.?*'"));
    }

    /// A pattern the agent typed longer than a path can be is not
    /// compiled (a regex that large would fail to build): it may become
    /// anything, so it matches what it could; trailing `/.` steps of any
    /// number are dropped at once.
    #[test]
    fn long_patterns_and_paths_are_bounded() {
        let repo = pat("rm", &[], &[&["-r"]], &[".", "..", ".git", "[*]"]);
        let stars = "*".repeat(100_000);
        assert!(hit(&repo, &format!("rm -rf .{stars}")));
        let class = format!("[{}]", "x".repeat(MAX_GLOB_BYTES));
        assert!(hit(&repo, &format!("rm -rf .gi{class}")));
        assert!(hit(&repo, &format!("rm -{class}f .git")));
        let force = pat("git", &["push"], &[&["--force", "-f"]], &[]);
        assert!(hit(&force, &format!("git p{class}sh --force")));
        assert!(!hit(
            &force,
            &format!("git push origin {}", "x".repeat(100_000))
        ));
        assert!(hit(&repo, &format!("rm -rf .{}/", "/.".repeat(100_000))));
        assert_eq!(normalize_arg(&format!("a{}", "/.".repeat(10_000))), "a");
        assert_eq!(normalize_arg("/./././"), "/");
    }

    #[test]
    fn a_subcommand_behind_an_option_value_is_found() {
        let publish = pat("npm", &["publish"], &[], &[]);
        assert!(hit(&publish, "npm --registry https://r.example publish"));
        assert!(hit(&publish, "npm publish"));
        assert!(!hit(&publish, "npm run publish-docs"));
        assert!(hit(
            &pat("cargo", &["publish"], &[], &[]),
            "cargo +nightly publish"
        ));
        assert!(hit(
            &pat("pnpm", &["publish"], &[], &[]),
            "pnpm --filter app publish"
        ));
        assert!(hit(
            &pat("docker", &["push"], &[], &[]),
            "docker --context prod push img"
        ));
        let push = pat("git", &["push"], &[], &[]);
        assert!(!hit(&push, "git commit -m push"));
        assert!(
            !hit(&push, "git log --grep push"),
            "a value after the subcommand is no subcommand"
        );
        let delete = pat("kubectl", &["delete", "namespace"], &[], &["prod"]);
        assert!(hit(&delete, "kubectl -n x delete namespace prod"));
    }

    #[test]
    fn long_options_abbreviate_to_any_prefix() {
        let hard = pat("git", &["reset"], &[&["--hard"]], &[]);
        assert!(hit(&hard, "git reset --ha"));
        assert!(hit(&hard, "git reset --h HEAD~1"));
        let force = pat("rm", &[], &[&["-f", "--force"]], &[]);
        assert!(hit(&force, "rm -r --fo build"));
        assert!(
            !hit(&force, "rm -r -- --f"),
            "after `--` no word is an option"
        );
    }

    #[test]
    fn excluding_arg_globs() {
        let secrets = pat("cat", &[], &[], &[".env*", "!*.example"]);
        assert!(hit(&secrets, "cat .env"));
        assert!(hit(&secrets, "cat README.md .env.local"));
        assert!(!hit(&secrets, "cat .env.example"));
        assert!(!hit(&secrets, "cat README.md"));
        let anything_but_tmp = pat("rm", &[], &[], &["!/tmp/*"]);
        assert!(hit(&anything_but_tmp, "rm notes.txt"));
        assert!(!hit(&anything_but_tmp, "rm /tmp/x"));
        assert!(pat("cat", &[], &[], &["![a-"]).validate().is_err());
    }

    #[test]
    fn flags() {
        let force = pat("git", &["push"], &[&["-f", "--force"]], &[]);
        for yes in [
            "git push -f",
            "git push --force",
            "git push -uf origin",
            "git push origin main --force",
            "git push --forc",
            // Ambiguous for git (`--follow-tags`), which then refuses to run:
            // matching it costs nothing.
            "git push --fo",
            "git push --force=yes",
            "git -C x push -f",
        ] {
            assert!(hit(&force, yes), "{yes}");
        }
        for no in [
            "git push",
            "git push --follow-tags",
            "git push -- -f",
            "git pull -f",
            "git status push -f",
            "git push --no-force",
        ] {
            assert!(!hit(&force, no), "{no}");
        }
        let rm = pat(
            "rm",
            &[],
            &[&["-r", "-R", "--recursive"], &["-f", "--force"]],
            &[],
        );
        for yes in [
            "rm -rf x",
            "rm -fr x",
            "rm -r -f x",
            "rm --recursive --force x",
            "rm -Rf x",
            "rm --rec --for x",
        ] {
            assert!(hit(&rm, yes), "{yes}");
        }
        for no in ["rm -r x", "rm -f x", "rm x -- -rf"] {
            assert!(!hit(&rm, no), "{no}");
        }
        let head = pat("head", &[], &[&["-5"]], &[]);
        assert!(hit(&head, "head -5 x"));
        let five = pat("head", &[], &[&["-1"]], &[]);
        assert!(
            !hit(&five, "head -15 x"),
            "negative numbers are not clusters"
        );
        let find = pat("find", &[], &[&["-delete"]], &[]);
        assert!(hit(&find, "find . -delete"));
        assert!(!hit(&find, "find . -d"));
        let exact = pat("git", &[], &[&["--force-with-lease=main"]], &[]);
        assert!(hit(&exact, "git push --force-with-lease=main"));
        assert!(!hit(&exact, "git push --force-with-lease=dev"));
    }

    #[test]
    fn args_and_normalisation() {
        let p = pat("rm", &[], &[&["-r"]], &["/", "~", ".", "[*]", "/[*]"]);
        for yes in [
            "rm -r /",
            "rm -r //",
            "rm -r /.",
            "rm -r ~",
            "rm -r ~/",
            "rm -r $HOME",
            "rm -r \"$HOME/\"",
            "rm -r .",
            "rm -r ./",
            "rm -r '*'",
            "rm -r /*",
            "rm -r x /",
        ] {
            assert!(hit(&p, yes), "{yes}");
        }
        for no in [
            "rm -r build/",
            "rm -r /tmp/x",
            "rm -r ./x",
            "rm -r ~/x",
            "rm -r *.o",
            "rm -r -- -x",
        ] {
            assert!(!hit(&p, no), "{no}");
        }
        let plus = pat("git", &["push"], &[], &["+*"]);
        assert!(hit(&plus, "git push origin +main"));
        assert!(!hit(&plus, "git push origin main"));
        let glob_prog = pat("{cat,less}", &[], &[], &[".env"]);
        assert!(hit(&glob_prog, "less .env"));
        assert!(!hit(&glob_prog, "more .env"));
    }

    #[test]
    fn subcommands() {
        let p = pat("git", &["stash", "drop"], &[], &[]);
        assert!(hit(&p, "git stash drop"));
        assert!(hit(&p, "git stash -q drop"));
        assert!(!hit(&p, "git stash pop"));
        assert!(!hit(&p, "git stash"));
    }

    #[test]
    fn validation() {
        assert!(
            pat("git", &["push"], &[&["-f"]], &["+*"])
                .validate()
                .is_ok()
        );
        let cases = [
            (pat("", &[], &[], &[]), "program"),
            (pat("/usr/bin/git", &[], &[], &[]), "program"),
            (pat("g[it", &[], &[], &[]), "program"),
            (pat("git", &["-x"], &[], &[]), "subcommand"),
            (pat("git", &[], &[&[]], &[]), "flags"),
            (pat("git", &[], &[&["force"]], &[]), "flags"),
            (pat("git", &[], &[], &["a[b"]), "args"),
        ];
        for (p, field) in cases {
            let e = p.validate().expect_err(field);
            assert_eq!(e.field, field);
            assert!(!e.help.is_empty());
            assert!(!e.to_string().is_empty());
        }
        assert!(!pat("g[it", &[], &[], &[]).matches(&SimpleCommand {
            program: "git".into(),
            ..Default::default()
        }));
    }

    #[test]
    fn serde_shape() {
        let p = pat("git", &["push"], &[&["-f", "--force"]], &[]);
        let json = serde_json::to_string(&p).unwrap_or_default();
        assert_eq!(
            json,
            r#"{"program":"git","subcommand":["push"],"flags":[{"any_of":["-f","--force"]}]}"#
        );
        let back: CommandPattern =
            serde_json::from_str(r#"{"program":"rm"}"#).unwrap_or_else(|_| p.clone());
        assert_eq!(back, pat("rm", &[], &[], &[]));
    }
}
