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
//! command is read once per value (`normalize::each_value`), up to 16.
//! Anything else stays a word known only when the line runs.

use super::Word;

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
pub(super) fn literal_loop(words: &[Word]) -> Option<(String, Vec<String>)> {
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
    (plain(keyword, "for")
        && plain(inn, "in")
        && named
        && !list.is_empty()
        && list.len() <= MAX_LOOP_VALUES
        && list.iter().all(literal))
    .then(|| {
        (
            name.text.clone(),
            list.iter().map(|w| w.text.clone()).collect(),
        )
    })
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
        body.map(|c| c.words.iter().map(|w| w.values.clone()).collect())
            .unwrap_or_default()
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
        let v = loop_values("for b in *.rs; do cat \"$b\"; done");
        assert_eq!(v.last(), Some(&None));
        // Changed in the body.
        let v = loop_values("for b in a c; do read b; do cat \"$b\"; done");
        assert_eq!(v.last(), Some(&None));
    }

    #[test]
    fn quoted_blanks_stay_one_word() {
        assert_eq!(
            last("f='my notes.txt'; cat \"$f\"")[1],
            known("my notes.txt")
        );
    }
}
