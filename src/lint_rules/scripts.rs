//! Checks on hook commands and the local guard scripts they run.

use std::path::Path;

use super::{FileReport, diag};
use crate::diag::{Code, Severity};
use crate::profile::{HookDir, HookVars, OnHookError, PlainStdout, Profile};
use crate::source::{SourceFile, Span};

/// The language a guard script is written in, which decides the checks
/// that make sense in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Shell,
    Python,
    JavaScript,
}

/// The commands that run a script file given as their next argument, and
/// the language they run. Longer forms come first (`uv run python` before
/// `uv run`).
const RUNNERS: &[(&[&str], Lang)] = &[
    (&["bash"], Lang::Shell),
    (&["sh"], Lang::Shell),
    (&["zsh"], Lang::Shell),
    (&["dash"], Lang::Shell),
    (&["ksh"], Lang::Shell),
    (&["uv", "run", "python3"], Lang::Python),
    (&["uv", "run", "python"], Lang::Python),
    (&["uv", "run"], Lang::Python),
    (&["poetry", "run", "python3"], Lang::Python),
    (&["poetry", "run", "python"], Lang::Python),
    (&["python3"], Lang::Python),
    (&["python"], Lang::Python),
    (&["npx", "tsx"], Lang::JavaScript),
    (&["npx", "ts-node"], Lang::JavaScript),
    (&["pnpm", "dlx", "tsx"], Lang::JavaScript),
    (&["bunx", "tsx"], Lang::JavaScript),
    (&["bun", "run"], Lang::JavaScript),
    (&["bun"], Lang::JavaScript),
    (&["deno", "run"], Lang::JavaScript),
    (&["tsx"], Lang::JavaScript),
    (&["ts-node"], Lang::JavaScript),
    (&["node"], Lang::JavaScript),
];

/// The flags after which a runner of `lang` takes code or a module, not a
/// script file (`bash -c '…'`, `python3 -m pkg`, `node -e '…'`).
fn inline_flags(lang: Lang) -> &'static [&'static str] {
    match lang {
        Lang::Shell => &["-c"],
        Lang::Python => &["-c", "-m"],
        Lang::JavaScript => &["-e", "-p", "--eval", "--print"],
    }
}

/// The language of a file by its extension.
fn lang_of_name(rel: &str) -> Option<Lang> {
    let ext = rel.rsplit_once('.').map(|(_, e)| e)?;
    match ext {
        "sh" | "bash" | "zsh" => Some(Lang::Shell),
        "py" => Some(Lang::Python),
        "js" | "mjs" | "cjs" | "ts" | "mts" | "cts" => Some(Lang::JavaScript),
        _ => None,
    }
}

/// The language of a script run directly, by its `#!` line (shell without one).
fn lang_of_body(body: &str) -> Lang {
    let first = body.lines().next().unwrap_or("");
    if !first.starts_with("#!") {
        return Lang::Shell;
    }
    if first.contains("python") || first.contains("uv run") {
        Lang::Python
    } else if ["node", "bun", "deno", "tsx", "ts-node"]
        .iter()
        .any(|w| has_word(first, w))
    {
        Lang::JavaScript
    } else {
        Lang::Shell
    }
}

/// The local script a hook command runs.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Script {
    /// Its path in the project.
    rel: String,
    /// The runner that is handed the file (`bash`, `uv run`), if not run
    /// directly (then it needs its execute bit).
    runner: Option<String>,
    /// Its language, where the runner or its name says.
    lang: Option<Lang>,
    /// The path as the command writes it, when it is relative to the
    /// hook's working directory (`hooks/x.sh`, not `"$VAR"/hooks/x.sh`).
    relative: Option<String>,
}

/// `$(git rev-parse --show-toplevel)`, the repository's top, written in a
/// command as a path's start: read as a project variable.
const TOPLEVEL: &[&str] = &[
    "\"$(git rev-parse --show-toplevel)\"",
    "$(git rev-parse --show-toplevel)",
    "`git rev-parse --show-toplevel`",
];

/// The script a command runs, if it is a local file: the command itself
/// (`./x.sh`, `$CLAUDE_PROJECT_DIR/x.sh`,
/// `"$(git rev-parse --show-toplevel)"/x.sh`) or the file it hands a
/// [`RUNNERS`] (`bash x.sh`, `python3 x.py`, `npx tsx x.ts`), after a
/// `cd … &&` and variable assignments.
fn local_script(cmd: &str) -> Option<Script> {
    let mut cmd = cmd.to_owned();
    for top in TOPLEVEL {
        cmd = cmd.replace(top, "$TOPLEVEL");
    }
    let mut rest = cmd.trim();
    // `cd "$CLAUDE_PROJECT_DIR" && bash x.sh`: the command after the `cd`.
    while rest.starts_with("cd ") {
        rest = rest.split_once("&&")?.1.trim();
    }
    let words: Vec<&str> = rest
        .split_whitespace()
        .skip_while(|w| is_assignment(w) || *w == "exec" || *w == "env")
        .collect();
    let first = *words.first()?;
    let Some((runner, lang)) = RUNNERS
        .iter()
        .find(|(r, _)| words.len() > r.len() && words[..r.len()] == r[..])
    else {
        return local_path(first).map(|rel| Script {
            lang: lang_of_name(&rel),
            relative: is_relative(first).then(|| rel.clone()),
            rel,
            runner: None,
        });
    };
    for w in &words[runner.len()..] {
        if inline_flags(*lang).contains(w) {
            return None;
        }
        if w.starts_with('-') {
            continue;
        }
        let rel = local_path(w).or_else(|| {
            let bare = w.trim_matches(['"', '\'']);
            (!bare.contains(['$', '/']) && lang_of_name(bare).is_some()).then(|| bare.to_owned())
        })?;
        return Some(Script {
            lang: lang_of_name(&rel).or(Some(*lang)),
            relative: is_relative(w).then(|| rel.clone()),
            rel,
            runner: Some(runner.join(" ")),
        });
    }
    None
}

/// Whether a word of a command is a path relative to the hook's working
/// directory (no variable in front).
fn is_relative(word: &str) -> bool {
    !word.trim_matches(['"', '\'']).starts_with('$')
}

/// Variables that name no project folder: a path behind one is not a project file.
const NOT_PROJECT_VARS: &[&str] = &["HOME", "USERPROFILE", "TMPDIR", "XDG_"];

/// The project file a word of a command names, if it names one
/// (`./x.sh`, `"$CURSOR_PROJECT_DIR"/hooks/x.py`).
fn local_path(word: &str) -> Option<String> {
    let first = word.trim_matches('"').trim_matches('\'');
    let rest = if let Some(r) = first.strip_prefix('$') {
        let r = r.trim_start_matches('{');
        if NOT_PROJECT_VARS.iter().any(|v| r.starts_with(v)) {
            return None;
        }
        let cut = r.find('/')?;
        r[cut + 1..].to_owned()
    } else {
        first.to_owned()
    };
    (rest.contains('/') && !rest.starts_with('/') && !rest.contains('$')).then_some(rest)
}

fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '3'))
        .any(|w| w == word)
}

const EXIT_1: &str = "`exit 1` is a hook error, not a refusal: the call goes ahead (exit 2 blocks)";
const PY_EXIT_1: &str =
    "`sys.exit(1)` is a hook error, not a refusal: the call goes ahead (`sys.exit(2)` blocks)";
const JS_EXIT_1: &str = "`process.exit(1)` is a hook error, not a refusal: the call goes ahead (`process.exit(2)` blocks)";
const PY_UNCAUGHT: &str = "an uncaught exception (input that does not parse, a missing key) exits 1, which lets the call through: catch it and `sys.exit(2)`";
const JS_UNCAUGHT: &str = "an uncaught exception (input that does not parse, a missing key) exits 1, which lets the call through: catch it and `process.exit(2)`";

/// The findings that say the guard exits 1 where it means to refuse, or
/// may: their severity depends on what the harness does on exit 1.
const EXITS_1: &[&str] = &[EXIT_1, PY_EXIT_1, JS_EXIT_1, PY_UNCAUGHT, JS_UNCAUGHT];

/// How bad a fail-open finding is on a harness that does `on_error` when
/// a hook fails: `exit 1` lets the call through in Claude Code, Codex,
/// Gemini CLI and Kimi Code (an error: the guard protects nothing), fails
/// open in Cursor unless `failClosed` is set (a warning, the `failClosed`
/// rule has the rest), and refuses in Copilot CLI and Antigravity (no
/// finding). The other patterns stay warnings.
fn fail_open_severity(finding: &str, on_error: OnHookError) -> Option<Severity> {
    if !EXITS_1.contains(&finding) {
        return Some(Severity::Warning);
    }
    match on_error {
        OnHookError::Refuses => None,
        OnHookError::ProceedsUnlessFailClosed => Some(Severity::Warning),
        OnHookError::Proceeds => Some(Severity::Error),
    }
}

/// Fail-open patterns in a script of `lang`.
fn fail_open_in(text: &str, lang: Lang) -> Vec<&'static str> {
    match lang {
        Lang::Shell => fail_open_findings(text),
        Lang::Python => {
            let code = code_lines(text, "#");
            let mut out = Vec::new();
            if exit_1(&code, &["sys.exit", "exit", "os._exit", "quit"]) {
                out.push(PY_EXIT_1);
            }
            if refusal_in(text) && parses_input(&code) && !code.contains("try:") {
                out.push(PY_UNCAUGHT);
            }
            out
        }
        Lang::JavaScript => {
            let code = code_lines(text, "//");
            let mut out = Vec::new();
            if exit_1(&code, &["process.exit", "Deno.exit"]) {
                out.push(JS_EXIT_1);
            }
            if refusal_in(text) && parses_input(&code) && !has_word(&code, "try") {
                out.push(JS_UNCAUGHT);
            }
            out
        }
    }
}

/// The lines of `text` that are not comments starting with `comment`.
fn code_lines(text: &str, comment: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with(comment))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether the code calls one of `calls` with 1: `sys.exit(1)`.
fn exit_1(code: &str, calls: &[&str]) -> bool {
    let squashed: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    calls.iter().any(|call| {
        squashed
            .match_indices(&format!("{call}(1)"))
            .any(|(at, _)| {
                // `exit(1)` on its own, not the end of `sys.exit(1)` or `my_exit(1)`.
                !squashed[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_')
                    || call.contains('.')
            })
    })
}

/// Whether the code parses its input as JSON (`json.load(sys.stdin)`,
/// `JSON.parse(raw)`), which throws on input it does not expect.
fn parses_input(code: &str) -> bool {
    ["json.load(", "json.loads(", "JSON.parse("]
        .iter()
        .any(|p| code.contains(p))
}

/// Fail-open patterns in shell text (an inline command or a script body).
/// `exit 1` as a command (after `;`, `&&`, `then`, `{` …), however spaced.
static EXIT_1_COMMAND: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"(?:^|[;&|{(]|\bthen|\bdo|\belse)\s*exit\s+1\s*(?:$|[;&|)}#])")
        .expect("a fixed pattern")
});

fn fail_open_findings(text: &str) -> Vec<&'static str> {
    let mut out = Vec::new();
    if text
        .lines()
        .any(|l| !l.trim_start().starts_with('#') && swallows_a_decision(l))
    {
        out.push("`|| true`/`|| echo` swallows the guard's exit status, so a failing guard allows");
    }
    if text.lines().any(|l| {
        let l = l.trim();
        !l.starts_with('#') && EXIT_1_COMMAND.is_match(l)
    }) {
        out.push(EXIT_1);
    }
    if text.lines().any(|l| {
        let l = l.trim();
        l == "set -e" || l.starts_with("set -e ") || l.starts_with("set -eu")
    }) {
        out.push("under `set -e` a failing command exits 1, which lets the call through; trap errors and exit 2");
    }
    for tool in ["jq", "python3"] {
        if has_word(text, tool)
            && !text.contains(&format!("command -v {tool}"))
            && !text.contains(&format!("which {tool}"))
        {
            out.push(if tool == "jq" {
                "`jq` is used without checking it exists: a missing jq exits 127 and the call goes ahead"
            } else {
                "`python3` is used without checking it exists: a missing python3 exits 127 and the call goes ahead"
            });
        }
    }
    out
}

/// Commands whose exit status decides nothing in a guard: reading its input
/// (`payload=$(cat || true)`) and housekeeping (a log, a folder). Swallowing
/// their status with `|| true` is a harmless idiom.
const STATUS_DECIDES_NOTHING: &[&str] = &[
    "cat", "read", "mkdir", "touch", "rm", "echo", "printf", "tee", "logger",
];

/// Shell words that come before the command they run.
const PREFIX_WORDS: &[&str] = &[
    "if", "then", "elif", "else", "do", "while", "until", "!", "time",
];

/// Whether a line of shell swallows, with `|| true` (`|| :`, `|| echo …`),
/// the exit status of a command that decides: anything but a command of
/// [`STATUS_DECIDES_NOTHING`] in the pipeline before it. An `|| echo` that
/// prints a refusal fails closed instead.
fn swallows_a_decision(line: &str) -> bool {
    line.match_indices("||").any(|(at, _)| {
        let after = line[at + 2..].trim_start();
        let swallow = ["true", ":", "echo"].iter().any(|w| {
            after.strip_prefix(w).is_some_and(|r| {
                r.is_empty() || r.starts_with([' ', '\t', ';', ')', '`', '}', '&', '|'])
            })
        });
        if !swallow || refusal_in(after) {
            return false;
        }
        let before = &line[..at];
        // Inside a `$( … )` that `echo` or `printf` prints, the status
        // becomes text, not the hook's (`echo "on $(git branch || echo
        // none)"`); in `verdict=$(guard || true)` the guard's is lost.
        if let Some(open) = before.rfind("$(")
            && before[open..].matches(')').count() == 0
        {
            let outer = &before[..open];
            let start = outer.rfind([';', '&', '|', '{', '(']).map_or(0, |p| p + 1);
            let first = outer[start..].split_whitespace().next();
            if matches!(first, Some("echo" | "printf")) {
                return false;
            }
        }
        let start = before.rfind([';', '&', '(', '`', '{']).map_or(0, |p| p + 1);
        before[start..].split('|').any(|command| {
            let mut words = command
                .split_whitespace()
                .map(|w| w.trim_matches(|c| c == ')' || c == '"' || c == '\''))
                .skip_while(|w| PREFIX_WORDS.contains(w) || is_assignment(w));
            words
                .next()
                .is_some_and(|w| !w.is_empty() && !STATUS_DECIDES_NOTHING.contains(&w))
        })
    })
}

/// `NAME=value`, a variable assignment before (or instead of) a command.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Protocol slips in shell text: reason-less denies, `updatedInput` without
/// allow, and, in a `script` for a harness that reads a hook's whole stdout
/// as its JSON reply (`stdout_is_reply`), plain text there.
fn protocol_findings(
    text: &str,
    stdout_is_reply: bool,
    script: bool,
    lang: Lang,
) -> Vec<(Code, &'static str)> {
    let mut out = Vec::new();
    let squashed: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '\\')
        .collect();
    let json_deny = squashed.contains("\"permissionDecision\":\"deny\"")
        || squashed.contains("\"permission\":\"deny\"");
    if json_deny
        && !squashed.contains("permissionDecisionReason")
        && !squashed.contains("user_message")
        && !squashed.contains("agent_message")
    {
        out.push((Code::LintReasonlessDeny, "this deny gives no reason"));
    }
    // `>&2` in POSIX sh, `[Console]::Error.Write…` in PowerShell (a Windows command).
    let (stderr, exit_2) = match lang {
        Lang::Shell => (
            text.contains(">&2") || text.contains("[Console]::Error.Write"),
            text.contains("exit 2"),
        ),
        Lang::Python => (text.contains("stderr"), exit_2_call(text)),
        Lang::JavaScript => (
            text.contains("stderr") || text.contains("console.error"),
            exit_2_call(text),
        ),
    };
    if !json_deny && exit_2 && !stderr {
        out.push((
            Code::LintReasonlessDeny,
            match lang {
                Lang::Shell => "`exit 2` with nothing on stderr refuses without a reason",
                _ => "the script exits 2 with nothing on stderr: it refuses without a reason",
            },
        ));
    }
    if squashed.contains("updatedInput") && !squashed.contains("\"permissionDecision\":\"allow\"") {
        out.push((
            Code::LintUpdatedInput,
            "`updatedInput` is applied only with `\"permissionDecision\": \"allow\"`",
        ));
    }
    if script && stdout_is_reply && lang == Lang::Shell {
        let noisy = text.lines().any(|l| {
            let l = l.trim();
            (l.starts_with("echo ") || l.starts_with("printf "))
                && !l.contains(">&2")
                && !l.contains('{')
                && !l.contains(">")
        });
        if noisy {
            out.push((
                Code::LintStdoutNoise,
                "the script echoes plain text to stdout, which the harness parses as its JSON reply",
            ));
        }
    }
    out
}

/// Whether script text calls an exit function with 2 (`sys.exit(2)`,
/// `process.exit(2)`).
fn exit_2_call(text: &str) -> bool {
    let squashed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    squashed.contains("exit(2)")
}

/// Whether shell or script text refuses a call somewhere: it exits 2
/// (`exit 2`, `sys.exit(2)`, `process.exit(2)`), or prints a refusing
/// decision (`"permission": "deny"` or `"ask"`, `"decision": "block"`,
/// `"continue": false`), escaped or not.
fn refusal_in(text: &str) -> bool {
    static REFUSAL: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"(?x)
            \b(?i:exit)\s*\(?\s*2\b
            | ["']?\b(?:permission|permissionDecision|decision)["']?\s*:\s*["'](?:deny|ask|block)["']
            | ["']?\bcontinue["']?\s*:\s*false\b
            "#,
        )
        .expect("a valid regex")
    });
    REFUSAL.is_match(&text.replace('\\', ""))
}

/// Whether a hook command looks like it refuses: hookc's own launcher, or
/// a command that, itself or in a project file it runs (resolved against
/// `root`), exits 2 or prints a refusing decision. A hook that does
/// neither observes (logs, notifies, adds context).
pub fn looks_like_refusal(cmd: &str, root: &Path) -> bool {
    is_hookc_launcher(cmd)
        || refusal_in(cmd)
        || cmd.split_whitespace().filter_map(local_path).any(|rel| {
            matches!(crate::disk::read_text(&root.join(rel)), Ok(Some(body)) if refusal_in(&body))
        })
}

/// Whether a hook guards: it, or the script it runs (followed through an
/// interpreter), refuses in a way some harness reads as a refusal (exit 2,
/// a refusing decision, or `exit 1`, which Copilot CLI refuses on). A hook
/// that does none of these observes: a formatter, a notifier, a logger,
/// whose failing lets nothing through that it would have stopped.
fn guards(cmd: &str, root: &Path) -> bool {
    let text = command_and_script(cmd, root);
    is_hookc_launcher(cmd)
        || refusal_in(&text)
        || text.lines().any(|l| EXIT_1_COMMAND.is_match(l.trim()))
}

/// The text of a hook command and of the local script it runs (resolved
/// against `root`), if it runs one, to look for what the hook reads.
pub fn command_and_script(cmd: &str, root: &Path) -> String {
    let body = local_script(cmd)
        .and_then(|s| crate::disk::read_text(&root.join(s.rel)).ok().flatten())
        .unwrap_or_default();
    format!("{cmd}\n{body}")
}

/// Whether a hook command is the launcher `hookc build` writes (it reads
/// the guard's shim from `.hookc/`).
pub fn is_hookc_launcher(cmd: &str) -> bool {
    (cmd.contains("hookc_shim=") && cmd.contains(".hookc/"))
        // The Windows form (`src/harness/windows.rs`).
        || (cmd.contains("guard --harness") && cmd.contains("'hookc guard answered '"))
}

/// What a hook command of harness `profile` says: fail-open patterns and
/// protocol slips in the command itself and, when it runs a local script
/// (resolved against `root`), that script's existence, mode and body.
/// `blocking`: the command's event can refuse, so failing open matters.
#[allow(clippy::too_many_arguments)]
pub fn check_command(
    file: &SourceFile,
    span: Span,
    cmd: &str,
    root: &Path,
    profile: &Profile,
    event: &str,
    blocking: bool,
    also_run_by: &[&'static Profile],
    report: &mut FileReport,
) {
    let cx = Cx {
        exit_1_proceeds_in: also_run_by
            .iter()
            .find(|p| p.on_hook_error == OnHookError::Proceeds)
            .map(|p| p.name),
        file,
        span,
        on_error: profile.on_hook_error,
        stdout_is_reply: profile.json.as_ref().is_some_and(|j| j.stdout_is_reply),
        name: profile.name,
        event,
        plain: profile
            .json
            .as_ref()
            .map_or(PlainStdout::Unknown, |j| (j.plain_stdout)(event)),
    };
    // Failing open is a guard's trap. A hook before a tool runs is taken for
    // one (a wrapper that swallows its check's status is a guard that never
    // refuses); on other events only a hook that shows a refusal is, since
    // an observer that fails (a formatter, a notifier) stops nothing.
    let before_a_tool = profile.event_called(event) == Some(crate::ir::Event::PreTool)
        || (event.starts_with("before") && event != "beforeSubmitPrompt");
    let guards = blocking && (before_a_tool || guards(cmd, root));
    if guards {
        for finding in fail_open_findings(cmd) {
            if let Some((severity, message)) = fail_open_finding(&cx, finding) {
                report.diags.push(
                    diag(Code::LintFailOpen, file, span, message, "fails open").severity(severity),
                );
            }
        }
    }
    if blocking {
        for (code, finding) in protocol_findings(cmd, cx.stdout_is_reply, false, Lang::Shell) {
            report.diags.push(diag(code, file, span, finding, "here"));
        }
        if let Some((message, help)) = plain_answer(&cx, cmd) {
            report
                .diags
                .push(diag(Code::LintStdoutNoise, file, span, message, "plain text").help(help));
        }
    }
    let script = local_script(cmd);
    hook_paths(&cx, cmd, script.as_ref(), profile, report);
    let Some(script) = script else {
        return;
    };
    let path = root.join(&script.rel);
    if script_runs(&cx, &script, &path, report) && blocking {
        script_body(&cx, &script, &path, guards, report);
    }
}

/// `lint-hook-path`: paths in a hook command that hold only on the author's
/// machine or in one folder: a script path relative to a working directory
/// that moves ([`HookDir::Session`]), a path into one developer's home, a
/// harness's project variable this harness does not set for its hooks.
fn hook_paths(
    cx: &Cx,
    cmd: &str,
    script: Option<&Script>,
    profile: &Profile,
    report: &mut FileReport,
) {
    let name = profile.name;
    if is_hookc_launcher(cmd) {
        return;
    }
    if let (Some(rel), HookDir::Session { root, sure: true }) =
        (script.and_then(|s| s.relative.as_deref()), profile.hook_dir)
    {
        let bare = rel.trim_start_matches("./");
        report.diags.push(
            diag(
                Code::LintHookPath,
                cx.file,
                cx.span,
                format!(
                    "{name} runs hooks in the session's current directory, so `{rel}` is not found once the session is in a subfolder: the hook fails and the call goes ahead"
                ),
                "relative path",
            )
            .help(format!("write `{root}/{bare}`")),
        );
    }
    if let Some(home) = home_path(cmd)
        && !cx.file.name.replace('\\', "/").starts_with(&home)
    {
        report.diags.push(
            diag(
                Code::LintHookPath,
                cx.file,
                cx.span,
                format!(
                    "the hook runs a file under `{home}`, one developer's home: on every other machine it is missing, the hook fails and the call goes ahead"
                ),
                "a home folder",
            )
            .help(match profile.hook_dir {
                HookDir::Session { root, sure: true } => format!(
                    "keep the script in the project and write `{root}/…`, or `$HOME/…` for a tool each developer installs"
                ),
                _ => "keep the script in the project (a path from its root), or write `$HOME/…` for a tool each developer installs".to_owned(),
            }),
        );
    }
    let Some(HookVars {
        set,
        complete: true,
    }) = profile.hook_vars
    else {
        return;
    };
    for var in harness_vars(cmd) {
        if set.contains(&var) {
            continue;
        }
        report.diags.push(
            diag(
                Code::LintHookPath,
                cx.file,
                cx.span,
                format!(
                    "{name} does not set `{var}` for this hook: the path behind it starts at `/`, the hook fails and the call goes ahead"
                ),
                "unset variable",
            )
            .help(match (set.first(), profile.hook_dir) {
                (Some(own), _) => format!("write `\"${own}\"` instead"),
                (None, HookDir::ProjectRoot) => format!(
                    "{name} runs these hooks at the project root: write the path from there, without the variable"
                ),
                (None, _) => "write the path another way: `\"$(git rev-parse --show-toplevel)\"/…`".to_owned(),
            }),
        );
    }
}

#[cfg(test)]
#[test]
fn harness_variables_with_a_default_are_not_counted() {
    assert_eq!(
        harness_vars("\"${COPILOT_PROJECT_DIR:-.}\"/x.sh"),
        Vec::<&str>::new()
    );
    assert_eq!(
        harness_vars("\"$CLAUDE_PROJECT_DIR\"/x ${CURSOR_PROJECT_DIR}/y $HOME/z"),
        vec!["CLAUDE_PROJECT_DIR", "CURSOR_PROJECT_DIR"]
    );
    assert_eq!(
        home_path("bash /home/alice/g.sh").as_deref(),
        Some("/home/alice/")
    );
    assert_eq!(
        home_path("\"/Users/bob/x\""),
        Some("/Users/bob/".to_owned())
    );
    assert_eq!(home_path("./home/x/y"), None);
}

/// `/home/<user>/`, `/Users/<user>/` (or `C:\Users\<user>\`) in a command.
fn home_path(cmd: &str) -> Option<String> {
    static HOME: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"(?:^|[\s"'=:])((?:/home|/Users|[A-Za-z]:[\\/]Users)[\\/][A-Za-z0-9._-]+[\\/])"#,
        )
        .expect("a valid regex")
    });
    let home = HOME.captures(cmd)?.get(1)?.as_str();
    let user = home
        .trim_end_matches(['/', '\\'])
        .rsplit(['/', '\\'])
        .next()?;
    (!matches!(user, "Shared" | "Public" | "runner")).then(|| home.to_owned())
}

/// The variables in a command that harnesses set for hooks to find the
/// project or a plugin by (`$CLAUDE_PROJECT_DIR`, `${CURSOR_PROJECT_DIR}`,
/// `$CLAUDE_PLUGIN_ROOT`).
fn harness_vars(cmd: &str) -> Vec<&str> {
    static VAR: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\$(\{)?([A-Z][A-Z0-9_]*)(:?[-=])?").expect("a valid regex")
    });
    let mut out: Vec<&str> = Vec::new();
    for c in VAR.captures_iter(cmd) {
        // `${VAR:-.}`: a default where the variable is unset.
        if c.get(1).is_some() && c.get(3).is_some() {
            continue;
        }
        let var = c.get(2).map_or("", |m| m.as_str());
        let harnessy = ["_PROJECT_DIR", "_PLUGIN_ROOT", "_PLUGIN_DATA"]
            .iter()
            .any(|end| var.ends_with(end))
            || var == "PLUGIN_ROOT";
        if harnessy && !out.contains(&var) {
            out.push(var);
        }
    }
    out
}

/// Where a command's findings go, and the harness facts they depend on.
struct Cx<'a> {
    file: &'a SourceFile,
    span: Span,
    on_error: OnHookError,
    stdout_is_reply: bool,
    /// The harness's name, the hook's event, and what the harness does
    /// with plain text on stdout there.
    name: &'static str,
    event: &'a str,
    plain: PlainStdout,
    /// Another harness that runs this file too and lets the call through
    /// on `exit 1` (VS Code, for Copilot CLI's `.github/hooks`).
    exit_1_proceeds_in: Option<&'static str>,
}

/// The fail-open finding for `finding` on this hook, with its severity:
/// as [`fail_open_severity`] says, or, where the harness refuses on exit 1
/// but another that runs the file does not, a warning saying so.
fn fail_open_finding(cx: &Cx, finding: &'static str) -> Option<(Severity, String)> {
    if let Some(severity) = fail_open_severity(finding, cx.on_error) {
        return Some((severity, finding.to_owned()));
    }
    let other = cx.exit_1_proceeds_in?;
    Some((
        Severity::Warning,
        format!(
            "this hook refuses by exiting 1: {} reads that as a refusal, but {other} also runs this file and lets the call through on it; exit 2 (or a JSON deny) refuses in both",
            cx.name
        ),
    ))
}

/// The plain text shell `text` prints to stdout with `echo`/`printf`
/// (not JSON, not redirected), one per command that prints.
fn plain_prints(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
        for part in line.split([';', '&', '|']) {
            let part = part.trim_start().trim_start_matches(['{', '(']);
            let mut words = part
                .split_whitespace()
                .skip_while(|w| PREFIX_WORDS.contains(w));
            let Some(first) = words.next() else { continue };
            if first != "echo" && first != "printf" {
                continue;
            }
            let rest: Vec<&str> = words.skip_while(|w| w.starts_with('-')).collect();
            let printed = rest.join(" ");
            // Redirected, JSON, or text made by a substitution this reading
            // cannot follow (`echo "$(date) done" >> log`): not judged.
            if printed.contains(['>', '{', '}', '`']) || printed.contains("$(") {
                continue;
            }
            let printed = printed
                .trim_matches(|c| c == '"' || c == '\'')
                .trim()
                .to_owned();
            if !printed.is_empty() {
                out.push(printed);
            }
        }
    }
    out
}

/// A word printed where a decision is meant (`echo deny`).
fn decision_word(printed: &str) -> bool {
    matches!(
        printed.to_ascii_lowercase().as_str(),
        "deny" | "denied" | "block" | "blocked" | "ask" | "no" | "reject" | "refuse"
    )
}

/// An answer of shell `text` that the harness does not read as the hook
/// meant on its event (what it does with plain stdout,
/// [`PlainStdout`]): the finding and its help. A hook that also exits 2
/// or prints a JSON refusal is judged by that.
fn plain_answer(cx: &Cx, text: &str) -> Option<(String, String)> {
    if refusal_in(text) {
        return None;
    }
    let prints = plain_prints(text);
    let (name, event) = (cx.name, cx.event);
    match cx.plain {
        PlainStdout::Invalid => prints.first().map(|p| {
            (
                format!("{name} wants JSON on stdout from a `{event}` hook: the plain text `{p}` makes the hook fail"),
                "print the JSON answer (`{\"decision\": \"block\", \"reason\": \"…\"}` to go on), or send the text to stderr (`>&2`)".to_owned(),
            )
        }),
        PlainStdout::Refuses => prints.first().map(|p| {
            (
                format!("{name} refuses the call when a `{event}` hook's stdout is not JSON: printing `{p}` blocks every call it answers"),
                "print JSON: `{\"permission\": \"allow\"}`".to_owned(),
            )
        }),
        PlainStdout::Ignored | PlainStdout::Allows => {
            let p = prints.iter().find(|p| decision_word(p))?;
            let does = if cx.plain == PlainStdout::Ignored {
                "ignores plain text"
            } else {
                "reads plain text as an allow"
            };
            Some((
                format!("`{p}` on stdout is a word, not a decision: {name} {does} on `{event}`, so nothing is refused"),
                "refuse with the reason on stderr and `exit 2`, or print the harness's JSON decision".to_owned(),
            ))
        }
        PlainStdout::Context | PlainStdout::Unknown => None,
    }
}

/// Whether the local script (at `path`) exists; a finding when it does
/// not, or, run directly, is not executable.
fn script_runs(cx: &Cx, script: &Script, path: &Path, report: &mut FileReport) -> bool {
    let rel = &script.rel;
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(_) => {
            // What the runner does with a file that is not there.
            let what = match (&script.runner, script.lang) {
                (None, _) | (Some(_), Some(Lang::Shell)) => {
                    "exit 127, and the call goes ahead".to_owned()
                }
                (Some(r), Some(Lang::Python)) if r.starts_with("python") => {
                    format!("`{r}` exits 2, which refuses every call")
                }
                (Some(r), _) if r == "node" => "`node` exits 1, and the call goes ahead".to_owned(),
                (Some(r), _) => format!("`{r}` fails on every call"),
            };
            report.diags.push(
                diag(
                    Code::LintGuardScript,
                    cx.file,
                    cx.span,
                    format!("the hook runs `{rel}`, which does not exist: {what}"),
                    "missing script",
                )
                .help("create the script or fix the path"),
            );
            return false;
        }
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if script.runner.is_none() && meta.is_file() && meta.permissions().mode() & 0o111 == 0 {
            report.diags.push(
                diag(
                    Code::LintGuardScript,
                    cx.file,
                    cx.span,
                    format!("`{rel}` is not executable: exit 126, and the call goes ahead"),
                    "not executable",
                )
                .help(format!("chmod +x {rel}")),
            );
        }
    }
    #[cfg(not(unix))]
    let _ = meta;
    true
}

/// Protocol slips and fail-open patterns in the body of the script, by
/// its language (from its runner, its name or its `#!` line).
fn script_body(cx: &Cx, script: &Script, path: &Path, guards: bool, report: &mut FileReport) {
    let Ok(Some(body)) = crate::disk::read_text(path) else {
        return;
    };
    let rel = &script.rel;
    let lang = script.lang.unwrap_or_else(|| lang_of_body(&body));
    let protocol = protocol_findings(&body, cx.stdout_is_reply, true, lang);
    let noisy = protocol.iter().any(|(c, _)| *c == Code::LintStdoutNoise);
    for (code, finding) in protocol {
        report.diags.push(diag(
            code,
            cx.file,
            cx.span,
            format!("in `{rel}`: {finding}"),
            "in this script",
        ));
    }
    if !noisy
        && lang == Lang::Shell
        && let Some((message, help)) = plain_answer(cx, &body)
    {
        report.diags.push(
            diag(
                Code::LintStdoutNoise,
                cx.file,
                cx.span,
                format!("in `{rel}`: {message}"),
                "in this script",
            )
            .help(help),
        );
    }
    for finding in fail_open_in(&body, lang).into_iter().filter(|_| guards) {
        let Some((severity, finding)) = fail_open_finding(cx, finding) else {
            continue;
        };
        report.diags.push(
            diag(
                Code::LintFailOpen,
                cx.file,
                cx.span,
                format!("in `{rel}`: {finding}"),
                "this script fails open",
            )
            .severity(severity),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_scripts_are_found_behind_project_variables() {
        let rel = |cmd| local_script(cmd).map(|s| s.rel);
        assert_eq!(rel("./g.sh x").as_deref(), Some("./g.sh"));
        assert_eq!(
            rel("\"$CLAUDE_PROJECT_DIR\"/.hookc/a.sh").as_deref(),
            Some(".hookc/a.sh")
        );
        assert_eq!(rel("echo hi"), None);
        assert_eq!(rel("/usr/bin/true"), None);
    }

    #[test]
    fn scripts_are_followed_through_their_interpreter() {
        let found = |cmd| local_script(cmd).map(|s| (s.rel, s.runner, s.lang));
        let via = |rel: &str, runner: &str, lang| {
            Some((rel.to_owned(), Some(runner.to_owned()), Some(lang)))
        };
        assert_eq!(
            found("bash .claude/hooks/g.sh"),
            via(".claude/hooks/g.sh", "bash", Lang::Shell)
        );
        assert_eq!(found("sh -e g.sh"), via("g.sh", "sh", Lang::Shell));
        assert_eq!(
            found("python3 \"$CLAUDE_PROJECT_DIR\"/h/g.py --strict"),
            via("h/g.py", "python3", Lang::Python)
        );
        assert_eq!(
            found("uv run --script h/g.py"),
            via("h/g.py", "uv run", Lang::Python)
        );
        assert_eq!(
            found("npx tsx h/g.ts"),
            via("h/g.ts", "npx tsx", Lang::JavaScript)
        );
        assert_eq!(
            found("cd \"$CLAUDE_PROJECT_DIR\" && node h/g.mjs"),
            via("h/g.mjs", "node", Lang::JavaScript)
        );
        assert_eq!(
            found("\"$(git rev-parse --show-toplevel)\"/h/g.sh"),
            Some(("h/g.sh".to_owned(), None, Some(Lang::Shell)))
        );
        assert_eq!(found("python3 -c 'print(1)'"), None);
        assert_eq!(found("bash -c 'exit 0'"), None);
        assert_eq!(found("node"), None);
    }

    #[test]
    fn python_and_node_guards_that_exit_1_fail_open() {
        assert_eq!(fail_open_in("sys.exit(1)", Lang::Python), vec![PY_EXIT_1]);
        assert_eq!(fail_open_in("exit(1)", Lang::Python), vec![PY_EXIT_1]);
        assert!(fail_open_in("sys.exit(2)\n# sys.exit(1)", Lang::Python).is_empty());
        assert!(fail_open_in("my_exit(1)", Lang::Python).is_empty());
        assert_eq!(
            fail_open_in("d = json.load(sys.stdin)\nsys.exit(2)", Lang::Python),
            vec![PY_UNCAUGHT]
        );
        assert!(
            fail_open_in(
                "try:\n d = json.load(sys.stdin)\nexcept: sys.exit(2)",
                Lang::Python
            )
            .is_empty()
        );
        assert_eq!(
            fail_open_in("process.exit( 1 )", Lang::JavaScript),
            vec![JS_EXIT_1]
        );
        assert!(fail_open_in("jq . ; exit 1", Lang::JavaScript).is_empty());
    }

    #[test]
    fn refusals_are_recognised_in_shell_python_and_json() {
        for yes in [
            "echo no >&2; exit 2",
            "sys.exit(2)",
            "process.exit( 2 )",
            "os.Exit(2)",
            r#"echo '{"permission":"deny"}'"#,
            r#"echo "{\"permission\": \"ask\"}""#,
            r#"jq -n '{permission: "deny"}'"#,
            r#"print(json.dumps({"decision": "block"}))"#,
            r#"echo '{"continue": false}'"#,
        ] {
            assert!(refusal_in(yes), "{yes}");
        }
        for no in [
            "exit 0",
            "exit 20",
            r#"echo '{"permission":"allow"}'"#,
            r#"echo '{"continue": true}'"#,
            "cat >> log.jsonl",
        ] {
            assert!(!refusal_in(no), "{no}");
        }
    }

    #[test]
    fn plain_prints_are_what_reaches_stdout() {
        assert_eq!(plain_prints("echo done"), vec!["done".to_owned()]);
        assert_eq!(plain_prints("{ echo allow; }"), vec!["allow".to_owned()]);
        assert!(plain_prints("echo \"$(date) stop\" >> .cursor/stop.log").is_empty());
        assert!(plain_prints("echo \"$(date | cut -c1-3)\" >> log").is_empty());
        assert!(plain_prints("echo no >&2").is_empty());
        assert!(plain_prints("echo '{\"permission\": \"allow\"}'").is_empty());
    }

    #[test]
    fn fail_open_patterns() {
        assert_eq!(fail_open_findings("guard || true").len(), 1);
        assert_eq!(fail_open_findings("x=$(./check.sh \"$p\") || :").len(), 1);
        assert_eq!(fail_open_findings("cat | guard || echo ok").len(), 1);
        assert!(fail_open_findings("payload=$(cat || true)").is_empty());
        assert!(fail_open_findings("payload=$(cat) || true").is_empty());
        assert!(fail_open_findings("IFS= read -r l || true").is_empty());
        assert!(fail_open_findings("mkdir -p logs || true; exit 2").is_empty());
        assert!(fail_open_findings("guard || echo '{\"decision\":\"block\"}'").is_empty());
        assert!(fail_open_findings("# guard || true").is_empty());
        // A status inside `$( … )` is a word's text, not the hook's.
        assert!(
            fail_open_findings("echo \"on $(git branch --show-current || echo none)\"").is_empty()
        );
        // `exit 1` however it is spaced, not a word that holds it.
        for refusal in [
            "exit 1",
            "x; exit 1",
            "*.env) echo no >&2; exit 1 ;;",
            "then exit 1; fi",
            "{ echo no; exit 1; }",
        ] {
            assert!(fail_open_findings(refusal).contains(&EXIT_1), "{refusal}");
        }
        for not in ["echo 'exit 1'", "exit 10", "exit 2"] {
            assert!(!fail_open_findings(not).contains(&EXIT_1), "{not}");
        }
        assert_eq!(fail_open_findings("jq .x").len(), 1);
        assert!(fail_open_findings("command -v jq || exit 2; jq .x; exit 2").is_empty());
    }

    #[test]
    fn a_reason_on_stderr_counts_in_sh_and_in_powershell() {
        let reasonless = |text| {
            protocol_findings(text, true, false, Lang::Shell)
                .iter()
                .any(|(code, _)| *code == Code::LintReasonlessDeny)
        };
        assert!(reasonless("guard || exit 2"));
        assert!(!reasonless("echo why >&2; exit 2"));
        assert!(reasonless("if ($bad) { exit 2 }"));
        assert!(!reasonless("[Console]::Error.WriteLine($r); exit 2"));
    }
}
