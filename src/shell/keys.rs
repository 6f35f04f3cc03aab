//! Keystrokes typed into a running shell (Copilot's `write_bash`).
//!
//! The input is text with key tokens in braces (`git push --force{enter}`).
//! What runs is what stands on the shell's line when Enter is pressed, and
//! that line may hold what earlier calls typed, or be changed by keys that
//! move, delete or recall history. hookc sees one call at a time, so it
//! accepts only input it can read as whole lines: plain text and `{enter}`
//! (or `{tab}`/`{space}`), ending with Enter, so nothing is left on the line
//! for a later call to complete. Anything else is refused with a reason the
//! model can act on.

/// The command lines `input` runs, joined by newlines (the decoder marks
/// its call as typed, `Call::typed`); an error (the reason for the
/// refusal) when it cannot be read as whole lines or uses the shell's
/// history.
pub fn typed_line(input: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = input;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            rest = "";
            break;
        };
        let token = &after[..close];
        let key = token.to_ascii_lowercase();
        match key.as_str() {
            "enter" | "return" => out.push('\n'),
            "tab" => out.push('\t'),
            "space" => out.push(' '),
            // `{…}` that is no key name is text (`echo {a,b}`, `${x}`).
            _ if !is_key_name(&key) => {
                out.push('{');
                out.push_str(token);
                out.push('}');
            }
            _ => {
                return Err(format!(
                    "the input to the shell holds the key `{{{token}}}`, which edits or recalls what runs, so hookc cannot check it. Send each command as plain text ending in {{enter}}."
                ));
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    let ends_line = out.ends_with('\n') || out.ends_with('\r');
    if !ends_line && !out.is_empty() {
        return Err(
            "the input to the shell does not end with {enter}, so a later call could complete the line, and hookc checks one call at a time. Send each whole command ending in {enter}."
                .to_owned(),
        );
    }
    if recalls_history(&out) {
        return Err(
            "the input to the shell expands or runs its history (`!`, a line starting with `^`, `fc`, `r`, `history`), which brings back words of earlier lines, so hookc cannot check it. Send each command as plain text ending in {enter}, or run it with the bash tool."
                .to_owned(),
        );
    }
    Ok(out)
}

/// Whether typed text uses the history of the interactive shell it may be
/// typed into: `!` (`!!:1*` runs the words an earlier `echo` printed), a
/// line that starts with `^` (`^echo ^` runs the line before without its
/// `echo`), or `fc`, `r` and `history`, which run earlier lines again.
pub fn recalls_history(text: &str) -> bool {
    text.contains('!')
        || text.lines().any(|l| l.trim_start().starts_with('^'))
        || text
            .split(|c: char| c.is_whitespace() || ";&|()`'\"".contains(c))
            .any(|w| matches!(w, "fc" | "r" | "history"))
}

/// Typed lines as hookc reads them: in a folder it does not know. A shell
/// the agent types into stays where earlier input left it (`cd .github`,
/// then `rm -rf hooks`), so a relative path in the lines may name a file
/// anywhere, as after a `cd` to a value known only when it runs. What
/// guards match as text (a `regex`, a `rewrite`) stays the typed lines.
pub fn in_unknown_folder(lines: &str) -> String {
    format!("cd \"$FOLDER_OF_THE_SHELL_TYPED_INTO\"\n{lines}")
}

/// Names of keys a terminal input tool may accept.
fn is_key_name(key: &str) -> bool {
    let modifier = [
        "ctrl+", "control+", "alt+", "meta+", "shift+", "cmd+", "c-", "m-",
    ]
    .iter()
    .any(|m| key.starts_with(m));
    modifier
        || matches!(
            key,
            "up" | "down"
                | "left"
                | "right"
                | "home"
                | "end"
                | "backspace"
                | "bs"
                | "delete"
                | "del"
                | "escape"
                | "esc"
                | "pageup"
                | "pagedown"
                | "insert"
        )
        || (key.starts_with('f') && key[1..].parse::<u8>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enter_ends_a_line() {
        assert_eq!(
            typed_line("git push --force{enter}").unwrap(),
            "git push --force\n"
        );
        assert_eq!(typed_line("a{ENTER}b{enter}").unwrap(), "a\nb\n");
        assert_eq!(
            typed_line("echo {a,b} ${x}{enter}").unwrap(),
            "echo {a,b} ${x}\n"
        );
        assert_eq!(typed_line("").unwrap(), "");
    }

    /// The shell typed into is an interactive one, whose history brings
    /// back words hookc saw as data (`echo git push --force`, then `^echo ^`).
    #[test]
    fn input_that_uses_the_shells_history_is_refused() {
        for input in [
            "^echo ^{enter}",
            "!!:1*{enter}",
            "!-1{enter}",
            "fc -s echo={enter}",
            "r echo={enter}",
        ] {
            let e = typed_line(input).unwrap_err();
            assert!(e.contains("history"), "{input}: {e}");
        }
    }

    #[test]
    fn keys_that_edit_or_recall_are_refused() {
        for input in [
            "{up}{enter}",
            "git push{left}{left} -f{enter}",
            "{ctrl+r}push{enter}",
        ] {
            assert!(typed_line(input).is_err(), "{input}");
        }
    }

    #[test]
    fn a_line_left_open_is_refused() {
        let e = typed_line("git push --for").unwrap_err();
        assert!(e.contains("{enter}"), "{e}");
    }
}
