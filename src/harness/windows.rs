//! Windows: which shell each harness runs its hooks in there, and the hook
//! commands hookc writes for it.
//!
//! On macOS and Linux every harness runs a hook command with a POSIX shell.
//! On Windows they differ (`shared/harnesses/*.md`): Claude Code uses Git
//! Bash, or PowerShell when Git Bash is missing; Codex CLI runs `cmd.exe /C`
//! and reads a separate `commandWindows`; Copilot CLI reads a separate
//! `powershell` command; Gemini CLI runs PowerShell, Kimi Code `cmd.exe`,
//! Cursor reportedly `cmd.exe`, and none of those three has a field for a
//! Windows command. A POSIX command that PowerShell or `cmd.exe` cannot run
//! fails, and most harnesses let a call through when its hook fails.
//!
//! So a harness with a Windows field gets a PowerShell command there
//! (`templates/windows/guard.ps1.hbs`), fail-closed like the POSIX shim.
//! Where a harness has one command string and refuses on exit status 2,
//! the string starts with a refusal that PowerShell and `cmd.exe` read and
//! sh steps over ([`refusing_outside_posix`]): every call is refused there
//! rather than let through. Each harness says, through [`OnWindows`], what
//! happens on Windows, and a policy that declares `platforms … "windows"`
//! gets a warning for each target that cannot be guarded there. None of
//! this has run on Windows: this machine has neither Windows nor
//! PowerShell. What is checked here is the text (a golden file per
//! harness), that each harness's real loader accepts the extra field, that
//! the text survives `cmd.exe`'s quoting rules, that PowerShell's grammar
//! reads the scripts, and that Wine's `cmd.exe` refuses on the one line.

use serde::Serialize;

use crate::emit::render_file;
use crate::ir::{Event, HarnessId};

/// What a harness does with hookc's hooks on Windows.
pub enum OnWindows {
    /// The hooks run there; how, in a sentence for the book and `--help`.
    Guarded(&'static str),
    /// The hooks guard there only on some machines (Claude Code with Git
    /// Bash): what happens on the others, and what to do.
    Partly {
        what: &'static str,
        fix: &'static str,
    },
    /// The hooks cannot guard there: what happens, and what to do instead.
    Unguarded {
        what: &'static str,
        fix: &'static str,
    },
}

impl OnWindows {
    /// What happens where the hooks do not guard, and the fix.
    pub fn gap(&self) -> Option<(&'static str, &'static str)> {
        match *self {
            OnWindows::Guarded(_) => None,
            OnWindows::Partly { what, fix } | OnWindows::Unguarded { what, fix } => {
                Some((what, fix))
            }
        }
    }
}

/// Where the Windows command finds the project.
pub enum Project {
    /// In an environment variable the harness sets, else the working directory.
    Variable(&'static str),
    /// Up from the working directory to the first folder with
    /// `.hookc\policy.json`, never past a folder with `.git` (Codex starts
    /// hooks in the session's directory, which may be below the root).
    Walk,
}

/// The refusal of a harness that blocks on exit status 2 and gives the
/// model stderr (Claude Code, Codex, Cursor), for the guard's `refuse` (the
/// reason is in `$r`).
pub const EXIT_2_WITH_REASON: &str = "[Console]::Error.WriteLine($r + ' Tell the user about this; do not try to get around the guard.'); exit 2";

#[derive(Serialize)]
struct Script<'a> {
    harness: &'a str,
    event: &'a str,
    project: String,
    fix: String,
    refuse: &'a str,
    managed: Option<Managed>,
}

/// What a managed install's command names by absolute path (each quoted
/// for a PowerShell single-quoted string).
#[derive(Serialize)]
struct Managed {
    hookc: String,
    policy: String,
    build: String,
}

/// The PowerShell guard for `harness` on `event`, as one line. `refuse` are
/// the statements that refuse the call in the harness's channel with the
/// reason in `$r` (they must end the script); `install` is the command that
/// installs the hookc the policy needs.
pub fn powershell(
    harness: HarnessId,
    event: Event,
    project: Project,
    refuse: &str,
    install: &str,
) -> String {
    let project = match project {
        Project::Variable(name) => format!(
            "$p = if ($env:{name}) {{ $env:{name} }} else {{ (Get-Location).Path }}"
        ),
        Project::Walk => "$p = (Get-Location).Path; \
             while ($p -and -not (Test-Path -LiteralPath (Join-Path $p '.hookc\\policy.json'))) \
             { if (Test-Path -LiteralPath (Join-Path $p '.git')) { $p = '' } else { $p = Split-Path -Parent $p } }; \
             if (-not $p) { throw 'no .hookc\\policy.json in the working folder or above it: run hookc build in the project' }"
            .to_owned(),
    };
    one_line(&render_file(
        "windows/guard.ps1",
        &Script {
            harness: harness.word(),
            event: event.word(),
            project,
            fix: quoted_text(&format!(
                "install hookc ({install}), or set HOOKC_BIN to its path; then run hookc doctor in the project"
            )),
            refuse,
            managed: None,
        },
    ))
}

/// The PowerShell guard of a managed install for Windows (see
/// [`crate::managed`]): it runs `install.hookc` with the managed policy,
/// which must be the build `cx` made, and refuses with `refuse` (as for
/// [`powershell`]) when that hookc is gone or does not answer.
pub fn managed_powershell(
    cx: &crate::emit::EmitCx,
    harness: HarnessId,
    event: Event,
    refuse: &str,
    install: &crate::managed::Install,
) -> String {
    one_line(&render_file(
        "windows/guard.ps1",
        &Script {
            harness: harness.word(),
            event: event.word(),
            project: String::new(),
            fix: quoted_text(
                "do not look for another hookc; tell the user that the administrator's hookc install is broken (hookc doctor --managed on that machine says how)",
            ),
            refuse,
            managed: Some(Managed {
                hookc: quoted_text(&install.hookc),
                policy: quoted_text(&install.policy()),
                build: cx.managed_build().to_owned(),
            }),
        },
    ))
}

/// The template's lines as one: statements joined with `; `.
fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// `command`, a POSIX hook command, behind a prefix that PowerShell and
/// `cmd.exe` read as a refusal with `message` on stderr and exit status 2.
/// For a harness with one command string, which it runs with sh on Linux
/// and macOS but in PowerShell or `cmd.exe` on Windows, and which refuses a
/// call on exit status 2: there the POSIX command alone fails to start, and
/// the call goes ahead.
///
/// The three shells split the same text differently:
/// - sh: `set` and one double-quoted word (inside it `\"` is a quote), which
///   only sets `$1` (the shim sets its own arguments), then `; command`.
/// - PowerShell: `set "\"` (a variable named `\`: a backslash escapes
///   nothing there), a string cast to `[void]`, the message on stderr and
///   `exit 2`; then `#` makes the rest of the line a comment (with what
///   Gemini CLI appends to a hook's line).
/// - `cmd.exe`, which knows no `'` quotes: `set` with its complaint sent to
///   `nul`, then after each `&` outside double quotes, the message on
///   stderr and `exit 2`. The rest of the line never runs, but is parsed:
///   `command` must keep its double quotes paired.
///
/// `message` holds only letters, digits, spaces and `.,:-`, which each shell
/// reads as plain text where it stands.
pub fn refusing_outside_posix(command: &str, message: &str) -> String {
    assert!(
        message
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || " .,:-".contains(c)),
        "{message}"
    );
    assert!(
        !command.contains(['\n', '\r']) && command.matches('"').count().is_multiple_of(2),
        "{command}"
    );
    format!(
        "set \"\\\" ; [void]' 2>nul & echo {message} 1>&2 & exit 2 & ' ; \
         [Console]::Error.WriteLine('{message}') ; exit 2 ; #\\\"\" ; {command}"
    )
}

/// The message of [`refusing_outside_posix`] for a harness, with what to do
/// instead (its [`OnWindows`] fix, which must be plain words).
pub fn posix_only_message(harness: &str, fix: &str) -> String {
    format!(
        "hookc refused this call: the guard hooks of this project need a POSIX shell, and {harness} ran them in PowerShell or cmd.exe. Tell the user to {fix}. Do not try to get around the guard."
    )
}

/// Windows PowerShell by its absolute path, on a Windows installed on `C:`.
pub const WINDOWS_POWERSHELL: &str = r"C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe";

/// `script` as `cmd.exe` runs it (Codex's `commandWindows`): Windows
/// PowerShell, which every Windows has, without profiles or a prompt, and
/// exit 2 whenever PowerShell itself fails, since Codex lets a call through
/// on any other failing status.
///
/// The script travels base64-encoded (`-EncodedCommand`, UTF-16LE), not as
/// `-Command "…"`: Codex starts `cmd.exe /C <command>` through Rust's
/// `Command`, which quotes the whole line and escapes each inner double quote
/// as `\"`. cmd.exe keeps the backslashes, PowerShell then reads `\"…\"` as
/// a string literal to print, and the "guard" would exit 0 (allow) without
/// running. The encoded form has no quote to mangle; Codex's own tests start
/// PowerShell hooks this way.
///
/// PowerShell goes by its absolute path: `cmd.exe` looks for a bare name in
/// the current folder before `PATH`, and the hook runs in the project, where
/// the agent can put a `powershell.exe` of its own (a copy of `cmd.exe`
/// would read the payload as commands and exit 0). On a Windows that is not
/// on `C:`, the program is not found and `|| exit 2` refuses.
pub fn through_cmd(script: &str) -> String {
    format!(
        "{WINDOWS_POWERSHELL} -NoLogo -NoProfile -NonInteractive -ExecutionPolicy Bypass -EncodedCommand {} || exit 2",
        encoded(script)
    )
}

/// The arguments that make [`WINDOWS_POWERSHELL`] run `script`, for a
/// harness that starts a hook's program directly with a list of arguments
/// (Auggie's `args`), so that no shell reads them. `-Command` joins every
/// argument after it into the line it runs: the script (with no `$`, see
/// [`without_dollars`]), then `marker` as a comment, which marks the entry
/// as hookc's. A line, unlike a script file, is not held to the machine's
/// execution policy.
pub fn command_args(script: &str, marker: &str) -> Vec<String> {
    let mut args: Vec<String> = [
        "-NoLogo",
        "-NoProfile",
        "-NonInteractive",
        "-ExecutionPolicy",
        "Bypass",
        "-Command",
    ]
    .map(str::to_owned)
    .to_vec();
    args.extend([without_dollars(script), "#".to_owned(), marker.to_owned()]);
    args
}

/// `script` as PowerShell's `-EncodedCommand` takes it: UTF-16LE in base64.
fn encoded(script: &str) -> String {
    let utf16: Vec<u8> = script.encode_utf16().flat_map(u16::to_le_bytes).collect();
    base64(&utf16)
}

/// `script` as a PowerShell line with no `$` in it: the script travels
/// base64-encoded (UTF-8) and runs in the line's own scope
/// (`Invoke-Expression`), so an `exit` in it ends PowerShell with that
/// status. For a harness that expands `$NAME` in its settings before it runs
/// a hook (Gemini CLI): the script's own variables (`$_` among them, which
/// a shell started from bash sets) would be replaced by the environment's.
pub fn without_dollars(script: &str) -> String {
    format!(
        "Invoke-Expression ([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('{}')))",
        base64(script.as_bytes())
    )
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Text inside a PowerShell single-quoted string: a quote is doubled. Double
/// quotes and percent signs, which `cmd.exe` would act on, become look-alike
/// characters; the text is a message, not a command.
pub fn quoted_text(text: &str) -> String {
    text.replace('\'', "''")
        .replace('"', "`")
        .replace('%', " percent")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script() -> String {
        powershell(
            HarnessId::Codex,
            Event::PreTool,
            Project::Walk,
            "[Console]::Error.WriteLine($r); exit 2",
            "cargo install hookc --locked --version '0.1'",
        )
    }

    /// sh steps over the part that refuses in PowerShell and cmd.exe: it
    /// prints nothing, and the POSIX command runs with its own status.
    #[test]
    fn sh_runs_the_posix_command_after_the_refusal_for_other_shells() {
        let line = refusing_outside_posix(
            "printf '%s' \"ran $#\"; exit 7",
            &posix_only_message("Gemini CLI", "run Gemini CLI on Windows in WSL"),
        );
        for shell in ["/bin/sh", "/bin/bash", "/bin/dash"] {
            if !std::path::Path::new(shell).exists() {
                continue;
            }
            let out = std::process::Command::new(shell)
                .args(["-c", &line])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(7), "{shell}");
            assert_eq!(String::from_utf8_lossy(&out.stdout), "ran 1", "{shell}");
            assert!(out.stderr.is_empty(), "{shell}: {out:?}");
        }
    }

    /// A message or a command that one of the shells would read as more
    /// than text is a bug in hookc, caught when the line is made.
    #[test]
    #[should_panic]
    fn a_message_with_a_quote_is_refused() {
        refusing_outside_posix("true", "do not use 'quotes'");
    }

    /// What cmd.exe sees holds nothing it or Rust's argument quoting would
    /// change: no quote, no `%`, no newline; and the encoded script is the
    /// script (decoded here independently of the encoder).
    #[test]
    fn the_command_survives_cmd_exe_and_decodes_to_the_script() {
        let text = script();
        assert!(!text.contains(['\n', '\r']), "{text}");
        let command = through_cmd(&text);
        for bad in ['"', '%', '\'', '^', '&', '<', '>'] {
            assert!(!command.contains(bad), "{bad:?} in {command}");
        }
        let encoded = command
            .strip_prefix(r"C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe -NoLogo -NoProfile -NonInteractive -ExecutionPolicy Bypass -EncodedCommand ")
            .and_then(|c| c.strip_suffix(" || exit 2"))
            .unwrap();
        assert_eq!(decode_utf16le_base64(encoded), text);
    }

    fn decode_utf16le_base64(text: &str) -> String {
        let value = |c: u8| match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {c}"),
        };
        let mut bytes = Vec::new();
        for quad in text.as_bytes().chunks(4) {
            let digits: Vec<u8> = quad
                .iter()
                .copied()
                .filter(|&c| c != b'=')
                .map(value)
                .collect();
            let n =
                digits.iter().fold(0u32, |n, &d| n << 6 | u32::from(d)) << (6 * (4 - digits.len()));
            bytes.extend(n.to_be_bytes()[1..digits.len()].iter());
        }
        let units: Vec<u16> = bytes
            .chunks(2)
            .map(|p| u16::from_le_bytes([p[0], p[1]]))
            .collect();
        String::from_utf16(&units).unwrap()
    }

    #[test]
    fn base64_matches_the_rfc_4648_examples() {
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
    }

    /// Statements are joined with `; `, which PowerShell rejects between
    /// `}` and `catch`: the template must keep each try/catch on one line.
    #[test]
    fn no_statement_separator_splits_a_try() {
        let text = script();
        assert!(!text.contains("}; catch"), "{text}");
        assert!(text.contains("try {") && text.contains("} catch {"));
    }

    /// The answer is obeyed only with the nonce and exit 0 or 2, and every
    /// other path reaches the refusal, which ends the script.
    #[test]
    fn only_a_hookc_answer_is_obeyed() {
        let text = script();
        assert!(text.contains("$a[-1] -ceq ('hookc guard answered ' + $n)"));
        assert!(text.contains("($s -eq 0 -or $s -eq 2)"));
        assert!(text.ends_with("[Console]::Error.WriteLine($r); exit 2"));
        assert!(text.contains("--harness codex --event pre-tool"));
    }

    #[test]
    fn message_text_cannot_leave_its_quotes() {
        assert_eq!(quoted_text("it's \"50%\""), "it''s `50 percent`");
    }
}
