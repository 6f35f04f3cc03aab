//! A shell call the policy runs under the run-time judge (`supervise`, what
//! a guard's `opaque` means by default where `hookc exec` holds it to the
//! guard): kept, with the command that runs it under `hookc exec`, for a
//! harness that can change a call into it on a machine where supervision
//! works; a refusal that says why everywhere else. The harness then answers
//! a kept one in its own words (Claude Code: `updatedInput`; Gemini CLI:
//! `tool_input`), each with the decision that keeps the user's own rules.

use std::path::{Path, PathBuf};

use crate::eval::{Call, Verdict};
use crate::harness::Harness;
use crate::ir::{Decision, HarnessId};

/// What a supervised call runs: this hookc, with the compiled policy that
/// decided.
#[derive(Debug, Clone)]
pub struct Exec {
    pub hookc: PathBuf,
    pub policy: PathBuf,
}

impl Exec {
    /// The hookc that answers now, and the policy at `policy`, by its
    /// real path (the hooks name it from their own folder, `../policy.json`).
    pub fn here(policy: &Path) -> Option<Exec> {
        Some(Exec {
            hookc: std::env::current_exe().ok()?,
            policy: std::fs::canonicalize(policy)
                .or_else(|_| std::path::absolute(policy))
                .ok()?,
        })
    }
}

/// The verdict on a call that `verdict` would supervise (see
/// [`Verdict::supervises`]): kept, its decision (`supervise`, or `ask` for
/// a question about the supervised call) with `rewritten` set to the
/// command that runs the call under `hookc exec`; or turned into a
/// refusal. Any other verdict is returned as it is.
pub fn resolve(
    harness: Option<&dyn Harness>,
    call: &Call,
    exec: Option<&Exec>,
    mut verdict: Verdict,
) -> Verdict {
    if !verdict.supervises() {
        return verdict;
    }
    // Why a harness that could run it supervised cannot here (told to the
    // model); `None` where the harness never could (a plain refusal).
    let posix = call.shell == crate::eval::Shell::Posix
        && call
            .tool
            .as_ref()
            .is_some_and(|t| t.kind == Some(crate::ir::ToolKind::Shell));
    let why_not = match (harness, exec, call.command.as_deref()) {
        (Some(h), Some(exec), Some(command)) if h.supervises() && posix => match available() {
            Ok(()) => {
                verdict.rewritten = Some(wrapped(exec, h.id(), command));
                return verdict;
            }
            Err(why) => Some(why),
        },
        _ => None,
    };
    // Refused: every hit that supervises refuses, and the call with it.
    let hits = verdict
        .hits
        .into_iter()
        .map(|mut hit| {
            if hit.decision != Decision::Supervise {
                return hit;
            }
            hit.decision = Decision::Deny;
            if let Some(why) = &why_not {
                hit.reason = format!(
                    "{} (hookc would run it under its run-time judge, which stops what the policy refuses as it happens, but cannot on this machine: {why}.)",
                    hit.reason
                );
            }
            hit
        })
        .collect();
    Verdict {
        decision: Decision::Deny,
        hits,
        rewritten: None,
    }
}

/// Whether this machine lets hookc run a call under its run-time judge:
/// `HOOKC_SUPERVISE=0` in the hook's environment says no (every such call
/// is then refused, as everywhere supervision cannot run), else
/// [`crate::supervise::available`] finds out.
pub fn available() -> Result<(), String> {
    if std::env::var_os("HOOKC_SUPERVISE").is_some_and(|v| v == "0") {
        return Err("HOOKC_SUPERVISE=0 switches it off".to_owned());
    }
    crate::supervise::available()
}

/// `command` run by the user's shell (bash or zsh, as the harness's shell
/// tool runs it; else bash, else sh) under `hookc exec`.
fn wrapped(exec: &Exec, harness: HarnessId, command: &str) -> String {
    let shell = shell();
    format!(
        "{} exec --harness {} --policy {} -- {} -c {}",
        quoted(&exec.hookc.to_string_lossy()),
        harness.word(),
        quoted(&exec.policy.to_string_lossy()),
        quoted(&shell),
        quoted(command)
    )
}

/// The shell that runs the call: `$SHELL` when it is bash or zsh, else
/// bash, else sh, each as an absolute path found on `PATH`.
fn shell() -> String {
    use crate::disk::on_path;
    let own = std::env::var_os("SHELL")
        .map(PathBuf::from)
        .filter(|s| s.is_absolute() && s.is_file())
        .filter(|s| s.file_name().is_some_and(|n| n == "bash" || n == "zsh"));
    own.or_else(|| on_path("bash"))
        .or_else(|| on_path("sh"))
        .map_or_else(
            || "/bin/sh".to_owned(),
            |p| p.to_string_lossy().into_owned(),
        )
}

/// One word for any POSIX shell, bash or zsh: single-quoted, a quote as
/// `'\''`.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wrapped_command_runs_the_line_as_written() {
        let exec = Exec {
            hookc: PathBuf::from("/opt/hook c/hookc"),
            policy: PathBuf::from("/p/.hookc/policy.json"),
        };
        let line = r#"echo "it's" $HOME; printf '%s\n' 'a b'"#;
        let w = wrapped(&exec, HarnessId::Claude, line);
        assert!(
            w.starts_with(
                "'/opt/hook c/hookc' exec --harness claude --policy '/p/.hookc/policy.json' -- '/"
            ),
            "{w}"
        );
        // The shell reads the last word back as the line itself.
        let words = crate::shell::lex(&w).commands.remove(0).words;
        assert_eq!(words.last().unwrap().text, line);
        assert_eq!(words[words.len() - 2].text, "-c");
    }
}
