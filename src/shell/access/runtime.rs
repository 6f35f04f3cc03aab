//! Files named by words whose value is known only when the line runs.
//!
//! `cat $f`, `cp x "$(ls | head -1)"`, `echo .env | xargs cat`: the file is
//! whatever the variable, the substitution or standard input holds then,
//! which hookc cannot see. Such a touch is marked with the word
//! ([`Touch::runtime`]); a path guard that asks for its access refuses it,
//! as a command guard refuses an opaque command (see `eval`). What the
//! line itself makes known (a literal assignment earlier in the line, a
//! `$(echo …)` of literal words) has been put in place by the lexer before
//! this, so only what is really unknown is left.

use super::Touch;
use crate::shell::lex::runtime_tilde;
use crate::shell::normalize::SimpleCommand;

/// The word `xargs` and `parallel` add for the names they read from
/// standard input (see `normalize::from_input`).
pub const FROM_INPUT: &str = "(standard input)";

pub use crate::shell::places::{Place, place, places_hold};

/// Whether a word, as the analysis keeps it, holds an expansion the shell
/// performs only when the line runs: a parameter, a command or process
/// substitution, or the names a program reads from standard input. `$HOME`
/// followed by literal text is known where the guard runs (paths read it
/// as `~`). So is a tilde-prefix other than `~` (`~+`, `~-`, `~2`,
/// `~root`): a folder only the running shell knows.
pub fn is_runtime_word(text: &str) -> bool {
    if text == FROM_INPUT || runtime_tilde(text) {
        return true;
    }
    let expands = text.contains(['$', '`']) || text.contains("<(") || text.contains(">(");
    expands && !home_relative(text)
}

fn home_relative(text: &str) -> bool {
    let rest = text
        .strip_prefix("$HOME")
        .or_else(|| text.strip_prefix("${HOME}"));
    rest.is_some_and(|r| (r.is_empty() || r.starts_with('/')) && !r.contains(['$', '`', '(']))
}

/// Mark the touches of `cmd` named by a run-time word: the word itself
/// when the path holds one of the command's unknown words, else the path.
pub fn mark(cmd: &SimpleCommand, touches: &mut [Touch]) {
    let words: Vec<&str> = cmd
        .unknown
        .iter()
        .filter_map(|&k| cmd.args.get(k))
        .map(String::as_str)
        .filter(|w| is_runtime_word(w))
        .collect();
    for t in touches.iter_mut().filter(|t| t.runtime.is_none()) {
        if let Some(w) = words.iter().find(|w| t.path.contains(**w)) {
            t.runtime = Some((*w).to_owned());
        } else if is_runtime_word(&t.path) {
            t.runtime = Some(t.path.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::access::touches;
    use crate::shell::analyze;

    /// The run-time words among the files a line touches.
    fn runtime(line: &str) -> Vec<String> {
        touches(&analyze(line))
            .into_iter()
            .filter_map(|t| t.runtime)
            .collect()
    }

    #[test]
    fn words_known_only_when_the_line_runs() {
        assert!(is_runtime_word("$f"));
        assert!(is_runtime_word("${f}.txt"));
        assert!(is_runtime_word("$(ls)"));
        assert!(is_runtime_word("`ls`"));
        assert!(is_runtime_word("<(cat x)"));
        assert!(is_runtime_word(FROM_INPUT));
        assert!(is_runtime_word("$HOME$X"));
        assert!(!is_runtime_word("$HOME/.env"));
        assert!(!is_runtime_word("${HOME}"));
        assert!(!is_runtime_word("notes.txt"));
        assert!(!is_runtime_word("*.pyc"));
        // Tilde-prefixes: the current, the previous and a `pushd` folder,
        // a user's home; `~` alone is the caller's home.
        for word in ["~+", "~+/.env", "~-/x", "~2", "~root/.ssh"] {
            assert!(is_runtime_word(word), "{word}");
        }
        assert!(!is_runtime_word("~"));
        assert!(!is_runtime_word("~/notes.txt"));
    }

    #[test]
    fn operands_redirections_and_fed_names_are_marked() {
        assert_eq!(runtime("cat $f"), ["$f"]);
        assert_eq!(
            runtime("cat \"$(ls -a | grep env)\""),
            ["$(ls -a | grep env)"]
        );
        assert_eq!(runtime("echo x > \"$out\""), ["$out"]);
        assert_eq!(
            runtime("echo x > ~+/.codex/hooks.json"),
            ["~+/.codex/hooks.json"]
        );
        assert_eq!(runtime("sort < $in"), ["$in"]);
        assert_eq!(runtime("echo .env | xargs cat"), [FROM_INPUT]);
        // The destination, and the name it would be in it as a folder.
        let cp = runtime("cp /dev/null $(echo $d)/policy.json");
        assert!(
            !cp.is_empty() && cp.iter().all(|w| w == "$(echo $d)/policy.json"),
            "{cp:?}"
        );
        // A program hookc does not know: its run-time operand is a file.
        assert_eq!(runtime("frobnicate --in $f"), ["$f"]);
    }

    #[test]
    fn literal_names_are_not_marked() {
        assert!(runtime("cat notes.txt").is_empty());
        assert!(runtime("rm -f *.pyc").is_empty());
        assert!(runtime("cp config.yml{,.bak}").is_empty());
        assert!(runtime("cat $HOME/.bashrc").is_empty());
        // Not a file: grep's pattern, echo's words.
        assert!(runtime("grep \"$pat\" notes.txt").is_empty());
        assert!(runtime("echo \"$x\"").is_empty());
    }
}
