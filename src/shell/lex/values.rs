//! Values the line itself gives its variables: `f=notes.txt; cat "$f"` is
//! `cat notes.txt`.
//!
//! A variable is known when the line starts with assignments of literal
//! values run in sequence (not in a pipe, the background, after `||`, or
//! inside a compound command), no command since mentions its name
//! otherwise than reading it (`read f`, `for f in`, `f=…` again, `unset
//! f`, an `eval` string or a function body naming it), and no `source`,
//! `.` or `eval` ran since (what they run is not this line's words): the
//! rule of the names that hold numbers, and one more. Its value then
//! replaces `$f` or `${f}` inside double quotes, and also unquoted when
//! splitting and globbing cannot change it (no blanks, no pattern
//! characters, and no `IFS` in the line).
//!
//! A `for NAME in WORD…; do …; done` of literal words gives `$NAME`, when it
//! is a whole word of a command in the body, each word in turn: the
//! command is read once per value (`normalize::each_value`).
//! Anything else stays a word known only when the line runs.
//!
//! One more list is worked out where the call is judged: `for f in
//! $(git ls-files '*.rs')` as the line's first command. The names git
//! prints are not the line's, and a tracked `a .env b.rs` splits into
//! `.env`; so the lexer only notes the substitution's arguments
//! ([`ls_files`]), the normaliser asks git in the call's folder what it
//! prints, and the line is read again with that output split as the shell
//! splits it ([`shell_fields`]). A name the shell would expand as a
//! pattern, or more names than [`MAX_LISTED`], leaves the loop unknown.

use std::collections::HashMap;

use super::{Lexed, LoopValue, Word};

/// What each `$(git ls-files ARGS)` of a line prints, split into the words
/// the shell makes of it, by ARGS.
pub type Listings = HashMap<Vec<String>, Vec<String>>;

/// The most `$(git ls-files …)` of one line that are worked out.
pub(super) const MAX_LISTINGS: usize = 4;

/// The most names a worked-out listing may give a loop.
pub(crate) const MAX_LISTED: usize = 4096;

/// The options of `git ls-files` whose output is worked out: they choose
/// which names it prints, and it prints one a line. Others (`-z`, whose
/// NULs the shell drops, `--format`, files of patterns) leave the
/// substitution unknown.
const LS_FILES_OPTIONS: &[&str] = &[
    "-c",
    "--cached",
    "-o",
    "--others",
    "-m",
    "--modified",
    "-d",
    "--deleted",
    "--exclude-standard",
    "--full-name",
    "--deduplicate",
    "--",
];

/// The arguments after `ls-files` when `sub`, the inside of a `$(…)`, is a
/// plain `git ls-files` of literal words: known options, then pathspecs
/// (quoted patterns included: git matches them, not the shell).
pub(super) fn ls_files(sub: &Lexed) -> Option<Vec<String>> {
    let [cmd] = sub.commands.as_slice() else {
        return None;
    };
    let literal = |w: &Word| !w.has_param && !w.opaque && !w.glob && !w.splits;
    let [git, ls, args @ ..] = cmd.words.as_slice() else {
        return None;
    };
    let plain = |w: &Word, t: &str| !w.quoted && w.text == t;
    let known = |w: &Word| {
        if w.text.starts_with('-') {
            LS_FILES_OPTIONS.contains(&w.text.as_str())
        } else {
            !w.text.is_empty()
        }
    };
    (sub.opaque.is_empty()
        && cmd.writes.is_empty()
        && cmd.reads.is_empty()
        && plain(git, "git")
        && plain(ls, "ls-files")
        && args.iter().all(|w| literal(w) && known(w)))
    .then(|| args.iter().map(|w| w.text.clone()).collect())
}

/// The words an unquoted substitution that printed `output` becomes, with
/// the default `IFS`: `None` when one of them is a pattern the shell would
/// replace by file names (bash's `extglob` patterns included), or there
/// are more than [`MAX_LISTED`].
pub(crate) fn shell_fields(output: &str) -> Option<Vec<String>> {
    let mut fields = Vec::new();
    for field in output.split([' ', '\t', '\n']).filter(|f| !f.is_empty()) {
        if field.contains(['*', '?', '[', '(']) || fields.len() == MAX_LISTED {
            return None;
        }
        fields.push(field.to_owned());
    }
    Some(fields)
}

/// Names whose value the shell sets or changes by itself, or whose
/// assignment changes how words are read: never taken as known.
const DYNAMIC: &[&str] = &[
    "IFS",
    "RANDOM",
    "SRANDOM",
    "SECONDS",
    "LINENO",
    "BASHPID",
    "BASH_SUBSHELL",
    "BASH_COMMAND",
    "BASH_ARGV0",
    "EPOCHSECONDS",
    "EPOCHREALTIME",
    "HISTCMD",
    "PPID",
    "UID",
    "EUID",
    "PWD",
    "OLDPWD",
    "SHLVL",
    "REPLY",
    "OPTARG",
    "OPTIND",
    "status",
    "pipestatus",
    "argv",
    "ERRNO",
    "TTYIDLE",
    "_",
];

/// `NAME=VALUE` written plainly with a literal, non-empty value that the
/// shell stores as written (no expansion, no pattern, no `~`, no array):
/// the name and the value.
pub(super) fn literal_assignment(w: &Word) -> Option<(&str, &str)> {
    if w.has_param || w.opaque {
        return None;
    }
    let (name, value) = w.text.split_once('=')?;
    let named = name.len() < w.plain_prefix
        && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let literal = !value.is_empty()
        && !value.contains(['*', '?', '[', ']', '~', '(', ')', '{', '}', '\\'])
        && !value.chars().any(char::is_control);
    (named && literal && !DYNAMIC.contains(&name)).then_some((name, value))
}

/// The most values a `for` loop's list is worked out for.
pub(super) const MAX_LOOP_VALUES: usize = 16;

/// `for NAME in WORD…` (the words before `;` or the line's end), every
/// word literal and one word as written: the name and the words.
///
/// With `listed` (the loop is the line's first command), a word that is
/// one of its worked-out `$(git ls-files …)` gives the names git prints.
pub(super) fn literal_loop(
    words: &[Word],
    listed: Option<&HashMap<String, Vec<String>>>,
) -> Option<(String, Vec<LoopValue>)> {
    let [keyword, name, inn, list @ ..] = words else {
        return None;
    };
    let plain = |w: &Word, t: &str| !w.quoted && w.plain_prefix == w.text.len() && w.text == t;
    let named = !name.quoted
        && name
            .text
            .starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name
            .text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !DYNAMIC.contains(&name.text.as_str());
    let literal = |w: &Word| !w.has_param && !w.opaque && !w.glob && stays_one_word(&w.text);
    if !(plain(keyword, "for")
        && plain(inn, "in")
        && named
        && !list.is_empty()
        && list.len() <= MAX_LOOP_VALUES)
    {
        return None;
    }
    // A glob of literal text: each name it matches, as the shell finds
    // them (the normaliser reads the pattern as a word that expands).
    let pattern = |w: &Word| {
        !w.has_param
            && !w.opaque
            && w.glob
            && !w.splits
            && stays_one_word(&w.text.replace(['*', '?', '[', ']'], ""))
    };
    let mut values = Vec::new();
    for w in list {
        let value = |glob| LoopValue {
            text: w.text.clone(),
            glob,
        };
        match listed.and_then(|l| l.get(&w.text)).filter(|_| !w.quoted) {
            Some(names) => values.extend(names.iter().map(|n| LoopValue {
                text: n.clone(),
                glob: false,
            })),
            None if literal(w) => values.push(value(false)),
            None if pattern(w) => values.push(value(true)),
            None => return None,
        }
    }
    (values.len() <= MAX_LISTED).then(|| (name.text.clone(), values))
}

/// Whether a word's text is one parameter and nothing else: `$x`, `${x}`.
pub(super) fn one_expansion(text: &str) -> bool {
    let name = text
        .strip_prefix("${")
        .and_then(|t| t.strip_suffix('}'))
        .or_else(|| text.strip_prefix('$'));
    name.is_some_and(|n| {
        n.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Whether `value`, expanded unquoted, stays one word as written: nothing
/// for field splitting (with the default `IFS`) or pathname expansion.
pub(super) fn stays_one_word(value: &str) -> bool {
    value
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._/:@%+,=-".contains(c))
}

#[cfg(test)]
mod tests {
    use crate::shell::lex;

    /// The words of each command of `line`, as the lexer gives them, and
    /// whether each is still known only at run time.
    fn words(line: &str) -> Vec<Vec<(String, bool)>> {
        lex(line)
            .commands
            .iter()
            .map(|c| {
                c.words
                    .iter()
                    .map(|w| (w.text.clone(), w.has_param || w.opaque))
                    .collect()
            })
            .collect()
    }

    fn last(line: &str) -> Vec<(String, bool)> {
        words(line).pop().unwrap_or_default()
    }

    fn known(text: &str) -> (String, bool) {
        (text.to_owned(), false)
    }

    fn unknown(text: &str) -> (String, bool) {
        (text.to_owned(), true)
    }

    #[test]
    fn a_literal_assigned_first_is_its_value() {
        assert_eq!(
            last("f=notes.txt; cat \"$f\""),
            [known("cat"), known("notes.txt")]
        );
        assert_eq!(
            last("f=notes.txt; cat \"${f}\""),
            [known("cat"), known("notes.txt")]
        );
        assert_eq!(
            last("f=notes.txt; cat $f"),
            [known("cat"), known("notes.txt")]
        );
        assert_eq!(
            last("d=src f=a.rs; cat \"$d/$f\""),
            [known("cat"), known("src/a.rs")]
        );
        assert_eq!(last("f=.env && cat \"$f\""), [known("cat"), known(".env")]);
        assert_eq!(
            last("TMPFILE=build/x.o; rm -f \"$TMPFILE\""),
            [known("rm"), known("-f"), known("build/x.o")]
        );
    }

    #[test]
    fn a_value_the_line_may_not_give_stays_unknown() {
        // Not run, or run elsewhere: after `||`, in a pipe, in the background.
        assert_eq!(last("f=.env || f=notes.txt; cat \"$f\"")[1], unknown("$f"));
        assert_eq!(last("f=notes.txt | true; cat \"$f\"")[1], unknown("$f"));
        assert_eq!(last("f=notes.txt & cat \"$f\"")[1], unknown("$f"));
        assert_eq!(last("true && f=notes.txt; cat \"$f\"")[1], unknown("$f"));
        // Changed since, or maybe changed.
        assert_eq!(last("f=notes.txt; read f; cat \"$f\"")[1], unknown("$f"));
        assert_eq!(
            last("f=notes.txt; cat x; f=.env; cat \"$f\"")[1],
            unknown("$f")
        );
        // Both in sequence at the start: the last one holds.
        assert_eq!(last("f=notes.txt; f=.env; cat \"$f\"")[1], known(".env"));
        assert_eq!(last("f=notes.txt; unset f; cat \"$f\"")[1], unknown("$f"));
        assert_eq!(
            last("f=notes.txt; eval 'f=.env'; cat \"$f\"")[1],
            unknown("$f")
        );
        // What a sourced file or an evaluated string assigns is unseen.
        assert_eq!(
            last("f=notes.txt; . ./env.sh; cat \"$f\"")[1],
            unknown("$f")
        );
        assert_eq!(last("f=notes.txt; source x; cat \"$f\"")[1], unknown("$f"));
        assert_eq!(
            last("f=notes.txt; eval \"$g\"; cat \"$f\"")[1],
            unknown("$f")
        );
        // A prefix assignment is not expanded in its own command.
        assert_eq!(last("f=notes.txt cat \"$f\"")[2], unknown("$f"));
        // Values the shell expands or splits.
        assert_eq!(last("f=*.env; cat $f")[1], unknown("$f"));
        assert_eq!(last("f='a .env'; cat $f")[1], unknown("$f"));
        assert_eq!(last("f=~/.env; cat \"$f\"")[1], unknown("$f"));
        assert_eq!(last("IFS=.; f=a.env; cat $f")[1], unknown("$f"));
        assert_eq!(last("f=$(echo .env); cat \"$f\"")[1], unknown("$f"));
        assert_eq!(last("RANDOM=3; cat \"$RANDOM\"")[1], unknown("$RANDOM"));
    }

    /// The loop values each word of the last command of `line` takes.
    fn loop_values(line: &str) -> Vec<Option<Vec<String>>> {
        let lexed = lex(line);
        let body = lexed
            .commands
            .iter()
            .rev()
            .find(|c| c.words.first().is_some_and(|w| w.text == "do"));
        body.map(|c| c.words.iter().map(|w| texts(w.values.as_deref())).collect())
            .unwrap_or_default()
    }

    /// A loop's values as text, a glob marked with a `glob:` in front.
    fn texts(values: Option<&[super::LoopValue]>) -> Option<Vec<String>> {
        values.map(|v| {
            v.iter()
                .map(|v| {
                    if v.glob {
                        format!("glob:{}", v.text)
                    } else {
                        v.text.clone()
                    }
                })
                .collect()
        })
    }

    #[test]
    fn a_loop_of_literal_words_gives_its_variable_each() {
        let each = Some(vec!["feature-a".to_owned(), "feature-b".to_owned()]);
        let v = loop_values("for b in feature-a feature-b; do git push origin \"$b\"; done");
        assert_eq!(v.last(), Some(&each));
        let v = loop_values("for b in feature-a feature-b\ndo git push origin ${b}\ndone");
        assert_eq!(v.last(), Some(&each));
        // More than the variable in the word, or a list that is not literal.
        let v = loop_values("for b in a c; do git push origin \"x$b\"; done");
        assert_eq!(v.last(), Some(&None));
        let v = loop_values("for b in a $c; do git push origin \"$b\"; done");
        assert_eq!(v.last(), Some(&None));
        // A glob's matches, each in turn.
        let v = loop_values("for b in src/*.rs a; do cat \"$b\"; done");
        assert_eq!(
            v.last(),
            Some(&Some(vec!["glob:src/*.rs".to_owned(), "a".to_owned()]))
        );
        let v = loop_values("for b in $(ls)*.rs; do cat \"$b\"; done");
        assert_eq!(v.last(), Some(&None));
        // Changed in the body.
        let v = loop_values("for b in a c; do read b; do cat \"$b\"; done");
        assert_eq!(v.last(), Some(&None));
    }

    /// The values of the loop in `line` when its `$(git ls-files ARGS)`
    /// print `output`, and the listings the line asks for without it.
    fn listed(line: &str, args: &[&str], output: &str) -> (Option<Vec<String>>, Vec<Vec<String>>) {
        let asked = lex(line).listings;
        let mut given = super::Listings::new();
        if let Some(names) = super::shell_fields(output) {
            given.insert(args.iter().map(|a| (*a).to_owned()).collect(), names);
        }
        let lexed = lex::lex_listed(line, lex::MAX_WORDS, &given);
        let body = lexed
            .commands
            .iter()
            .rev()
            .find(|c| c.words.first().is_some_and(|w| w.text == "do"));
        let values = body.and_then(|c| c.words.iter().find_map(|w| texts(w.values.as_deref())));
        (values, asked)
    }

    #[test]
    fn a_loop_over_git_ls_files_takes_the_names_git_prints() {
        let names = |n: &[&str]| Some(n.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
        let rs = vec!["*.rs".to_owned()];
        let line = "for f in $(git ls-files '*.rs'); do wc -l \"$f\"; done";
        assert_eq!(
            listed(line, &["*.rs"], "src/a.rs\nsrc/b.rs\n"),
            (names(&["src/a.rs", "src/b.rs"]), vec![rs.clone()])
        );
        // Split as the shell splits: a name with a blank is two words.
        assert_eq!(
            listed(line, &["*.rs"], "a .env b.rs\n").0,
            names(&["a", ".env", "b.rs"])
        );
        // Literal words around it, and nothing tracked at all.
        let with = "for f in README.md $(git ls-files '*.rs'); do wc -l \"$f\"; done";
        assert_eq!(
            listed(with, &["*.rs"], "x.rs\n").0,
            names(&["README.md", "x.rs"])
        );
        assert_eq!(listed(line, &["*.rs"], "").0, names(&[]));
        // A name the shell would expand as a pattern, or too many names.
        assert_eq!(listed(line, &["*.rs"], "[.]env.rs\n").0, None);
        assert_eq!(listed(line, &["*.rs"], "+(x).rs\n").0, None);
        let many = "a.rs\n".repeat(super::MAX_LISTED + 1);
        assert_eq!(listed(line, &["*.rs"], &many).0, None);
        assert_eq!(
            listed(line, &["*.rs"], &"a.rs\n".repeat(super::MAX_LISTED))
                .0
                .map(|v| v.len()),
            Some(super::MAX_LISTED)
        );
    }

    #[test]
    fn only_a_plain_ls_files_first_in_the_line_is_worked_out() {
        let asks = |line: &str| !lex(line).listings.is_empty();
        let given = |line: &str| listed(line, &[], "a.rs\n").0;
        assert!(asks("for f in $(git ls-files); do cat \"$f\"; done"));
        for line in [
            // Options that change what is printed, a pattern the shell
            // expands first, a variable, another program, git elsewhere.
            "for f in $(git ls-files -z); do cat \"$f\"; done",
            "for f in $(git ls-files --format=x); do cat \"$f\"; done",
            "for f in $(git ls-files *.rs); do cat \"$f\"; done",
            "for f in $(git ls-files $d); do cat \"$f\"; done",
            "for f in $(git -C .. ls-files); do cat \"$f\"; done",
            "for f in $(git ls-files > x); do cat \"$f\"; done",
            "for f in $(git ls-files | grep rs); do cat \"$f\"; done",
            // Inside another script.
            "bash -c 'for f in $(git ls-files); do cat \"$f\"; done'",
        ] {
            assert!(!asks(line), "{line}");
        }
        // Asked, but not the line's first command, quoted (one word of
        // every name), or more than the substitution in the word.
        for line in [
            "cd src; for f in $(git ls-files); do cat \"$f\"; done",
            "x=1; for f in $(git ls-files); do cat \"$f\"; done",
            "for f in \"$(git ls-files)\"; do cat \"$f\"; done",
            "for f in $(git ls-files)x; do cat \"$f\"; done",
            "IFS=.; for f in $(git ls-files); do cat \"$f\"; done",
        ] {
            assert_eq!(given(line), None, "{line}");
        }
        assert_eq!(
            given("for f in $(git ls-files); do cat \"$f\"; done"),
            Some(vec!["a.rs".to_owned()])
        );
    }

    #[test]
    fn quoted_blanks_stay_one_word() {
        assert_eq!(
            last("f='my notes.txt'; cat \"$f\"")[1],
            known("my notes.txt")
        );
    }
}
