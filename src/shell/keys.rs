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

/// The command lines `input` runs, joined by newlines; an error (the reason
/// for the refusal) when it cannot be read as whole lines.
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
    Ok(out)
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
