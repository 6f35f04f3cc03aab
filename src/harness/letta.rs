//! Letta Code: hooks merged into `.letta/settings.json`.
//!
//! Protocol facts this file relies on (read from the bundle of
//! `@letta-ai/letta-code` 0.32.18, and checked against a scripted model by
//! the conformance suite; the book's page lists them in full):
//! - Letta reads the `hooks` of `~/.letta/settings.json`,
//!   `.letta/settings.json` and `.letta/settings.local.json`, the last two
//!   in the session's working directory only (no walk up to the
//!   repository's root), and runs every matching hook, local first.
//! - Commands run with the user's `$SHELL -c` (`/bin/zsh` first on macOS),
//!   in the working directory, with `LETTA_WORKING_DIR` set to it. The
//!   shell may be fish, so hookc's command is one word for `/bin/sh -c` in
//!   single quotes, which every shell reads alike.
//! - Only exit 2 refuses; the model reads stderr. Any other status, a
//!   timeout, a crash, and every JSON answer on stdout (`decision`,
//!   `permissionDecision`) let the call through. `updatedInput` is merged
//!   into the call, but after Letta's own permission check, so hookc never
//!   rewrites. `timeout` is milliseconds.
//! - The payload is Letta's own: `event_type`, `working_directory`,
//!   `tool_name`, `tool_input`, and no `session_id` or `cwd`.
//! - Matchers are JavaScript regexes Letta anchors itself (`^(?:…)$`),
//!   case-sensitive; `*` or empty matches all.
//! - Tools: `Bash` (`command`), `exec_command` (`cmd`, `workdir`), `shell`
//!   (`command` as an argument list) and more shell tools, `Read`, `Write`,
//!   `Edit`, `MultiEdit` (`file_path`), `ApplyPatch` (the patch in `input`).
//!   MCP tools are called through the shell (`letta mcp call …`).

use std::path::Path;

use serde_json::{Value, json};

use super::common::{self};
use super::payload::ToolCall;
use super::{Answer, Harness, HookCommand, MachineCheck, Profile, string_at, windows};
use crate::emit::EmitCx;
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, Tool, ToolKind};
use crate::profile::{
    Dialect, FileFormat, Flavour, HookFile, JsonSpec, LateHook, Matching, OnHookError, PlainStdout,
    Unit,
};

pub struct Letta;

/// Hook entries hookc owns are recognised by this path in their command.
const MARKER: &str = "/.hookc/letta/";
const SETTINGS: &str = ".letta/settings.json";
const LOCAL: &str = ".letta/settings.local.json";

/// The shell tools whose command line is `command`, a string.
const COMMAND_TOOLS: [&str; 5] = ["Bash", "shell_command", "ShellCommand", "Shell", "Monitor"];

static PROFILE: Profile = Profile {
    id: HarnessId::Letta,
    name: "Letta Code",
    events: &[
        (Event::PreTool, "PreToolUse"),
        (Event::PostTool, "PostToolUse"),
        (Event::Prompt, "UserPromptSubmit"),
        (Event::Stop, "Stop"),
        (Event::SessionStart, "SessionStart"),
    ],
    tools: &[
        (
            ToolKind::Shell,
            &[
                "Bash",
                "exec_command",
                "shell",
                "shell_command",
                "ShellCommand",
                "Shell",
                "Monitor",
                "write_stdin",
            ],
        ),
        // Searching files reads them: a `read` path guard covers the
        // search tools too.
        (
            ToolKind::Read,
            &[
                "Read",
                "read_file",
                "ReadFile",
                "ReadLSP",
                "Grep",
                "Glob",
                "grep_files",
                "GrepFiles",
            ],
        ),
        (ToolKind::Write, &["Write"]),
        (ToolKind::Edit, &["Edit", "MultiEdit", "ApplyPatch"]),
    ],
    can_block: &[Event::PreTool, Event::Prompt, Event::Stop],
    honours_ask: &[],
    can_rewrite: false,
    options: &[],
    todo: &[
        "install hookc on every machine that runs Letta Code in this repo (or set HOOKC_BIN)",
        "start letta in the project's root folder: Letta reads .letta/settings.json from the folder it starts in only",
    ],
    more_events: &[
        "PostToolUseFailure",
        "PermissionRequest",
        "Notification",
        "SubagentStop",
        "PreCompact",
        "SessionEnd",
    ],
    files: &[HookFile {
        dir: ".letta",
        names: &["settings.json"],
        format: FileFormat::HooksJson,
        in_project: true,
    }],
    json: Some(JsonSpec {
        dialect: Dialect {
            comments: false,
            trailing_commas: false,
            bom: false,
        },
        strict_root: None,
        version: None,
        groups: true,
        flat_ok: false,
        require_type: true,
        types: &["command", "prompt"],
        command_keys: &["command"],
        timeout_keys: &["timeout"],
        unit: Unit::Millis,
        matching: Matching::Anchored,
        star_is_all: true,
        matcher_aliases: &[],
        tools_closed: false,
        matcher_subject: crate::profile::claude_shaped_matchers,
        events_any_case: false,
        strict_keys: None,
        stdout_is_reply: false,
        plain_stdout: |_| PlainStdout::Unknown,
    }),
    flavour: Some(Flavour::EcmaScript),
    mcp_names: crate::profile::no_mcp_names,
    refusal: Some(include_str!("../../templates/letta/refuse.sh.hbs")),
    on_hook_error: OnHookError::Proceeds,
    own_timeout: None,
    late_hook: LateHook::Proceeds,
    hints: &[".letta/"],
    protected: &[SETTINGS, LOCAL, "~/.letta/settings.json"],
    protected_examples: &[SETTINGS],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::ProjectRoot,
    hook_vars: Some(crate::profile::HookVars {
        set: &[
            "LETTA_HOOK_EVENT",
            "LETTA_WORKING_DIR",
            "USER_CWD",
            "LETTA_AGENT_ID",
            "AGENT_ID",
        ],
        complete: true,
    }),
};

/// The hook command for the shim at `script` (relative to the project):
/// `/bin/sh -c` and one word (see [`common::sh_c_word`]). A shim that
/// cannot be read is refused.
fn command(script: &str) -> String {
    common::sh_c_word(&common::source_shim(&format!("./{script}")))
}

impl Harness for Letta {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn machine_checks(&self, root: &Path, home: Option<&Path>) -> Vec<MachineCheck> {
        let name = PROFILE.name;
        let mut checks = Vec::new();
        let user = common::under_home(home, ".letta/settings.json");
        let disabled = |path: &Path| {
            common::read_json(Some(path.to_owned())).map(|v| v["hooks"]["disabled"].clone())
        };
        // The user's `disabled: false` wins over a project's `true`.
        let user_on = user
            .as_deref()
            .and_then(disabled)
            .is_some_and(|d| d == json!(false));
        for path in [Some(root.join(SETTINGS)), Some(root.join(LOCAL)), user]
            .into_iter()
            .flatten()
        {
            if disabled(&path).is_some_and(|d| d == json!(true)) && !user_on {
                checks.push(MachineCheck::fail(
                    format!(
                        "{name}: {} turns every hook off (hooks.disabled)",
                        path.display()
                    ),
                    format!(
                        "remove `\"disabled\": true` from the `hooks` of {}",
                        path.display()
                    ),
                ));
            }
        }
        checks.push(MachineCheck::note(
            format!(
                "{name} reads the project's hooks only when started in the project's root folder"
            ),
            "start letta in the project's root folder",
        ));
        checks
    }

    fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        common::warn_unsupported_events(policy, &PROFILE, cx);
        common::warn_decisions(
            policy,
            &PROFILE,
            cx,
            &|event, decision| match (event, decision) {
                (Event::PreTool, Decision::Ask) => Some(
                    "Letta Code does not read a hook's `ask`; hookc refuses the call and tells the model to ask the user instead",
                ),
                (Event::PreTool | Event::Stop, Decision::Context) => {
                    Some("Letta Code reads no added context here; the call goes ahead without it")
                }
                (Event::PostTool, d) if d.refuses() => Some(
                    "Letta Code cannot refuse a tool's result, and reads nothing a hook says after a tool ran",
                ),
                (Event::PostTool, Decision::Context) => {
                    Some("Letta Code reads nothing a hook says after a tool ran")
                }
                _ => None,
            },
        );
        let entries = common::grouped_entries(
            &PROFILE,
            cx,
            &|cx, event| {
                common::route_warning(
                    policy,
                    event,
                    &PROFILE,
                    cx,
                    &matcher_names,
                    &common::mcp_unguarded(&PROFILE, MCP_WHY, MCP_FIX),
                )
            },
            &mut |cx, event, native| {
                cx.shim(policy, &PROFILE, event, native, policy.on_error_for(event));
                json!({
                    "type": "command",
                    "command": command(&format!(".hookc/letta/{}.sh", event.word())),
                    "timeout": policy.timeout * 1000,
                    // Letta prints each hook's command and output on stdout,
                    // into `--output-format json` too, unless it is quiet.
                    "quiet": true,
                })
            },
        );
        cx.hook_entries(SETTINGS, entries, Vec::new(), MARKER);
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Unguarded {
            what: "Letta Code runs hook commands through PowerShell on Windows, where hookc's POSIX command fails, and a failing hook lets the call through",
            fix: "run Letta Code on Windows in WSL",
        }
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        let dir = payload
            .get("working_directory")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let mut call = common::new_call(event, payload, "LETTA_WORKING_DIR", dir.clone())?;
        match event {
            Event::PreTool | Event::PostTool => {
                let (name, input) = common::tool_and_input(payload)?;
                let kind = PROFILE.tool_kind(name);
                match (kind, name) {
                    (Some(ToolKind::Shell), _) => {
                        call.command = Some(shell_line(name, input)?);
                        call.typed = name == "write_stdin";
                        call.cwd = common::work_dir(input, "workdir", dir.as_deref());
                    }
                    (Some(ToolKind::Edit), "ApplyPatch") => {
                        let files = super::patch_files(string_at(input, "/input")?);
                        call.paths.extend(files.added);
                        call.paths.extend(files.changed);
                        if call.paths.is_empty() {
                            return Err(
                                "the ApplyPatch input names no file hookc can read".to_owned()
                            );
                        }
                        call.text = Some(input.to_string());
                    }
                    (Some(ToolKind::Read), "grep_files" | "GrepFiles") => {
                        crate::eval::search_call(&mut call, input, "/path", "/include", false);
                        call.text = Some(input.to_string());
                    }
                    _ => common::claude_shaped_input(&mut call, name, kind, input)?,
                }
                call.tool = Some(CallTool {
                    kind,
                    native: name.to_owned(),
                    ..CallTool::default()
                });
            }
            Event::Prompt => call.text = Some(string_at(payload, "/prompt")?.to_owned()),
            Event::Stop => {
                call.text = payload
                    .get("assistant_message")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
            }
            Event::SubagentStop | Event::SessionStart => {}
        }
        Ok(call)
    }

    fn answer(&self, event: Event, verdict: Option<&Verdict>) -> Answer {
        let Some(verdict) = verdict else {
            return Answer::default();
        };
        if verdict.decision == Decision::Rewrite {
            return self.answer(event, Some(&super::rewrite_as_refusal(verdict)));
        }
        let reason = verdict.reason();
        let refuse = Answer::exit_2;
        match (event, verdict.decision) {
            (_, Decision::Deny | Decision::Block) => refuse(reason),
            (_, Decision::Ask) => refuse(format!(
                "{reason}\n(The policy wants the user to confirm this call, and Letta Code cannot ask from a hook, so hookc refused it. Ask the user in the chat; if they agree, they can run it themselves.)"
            )),
            // Letta gives the model a prompt hook's stdout as a reminder,
            // and a session-start hook's as context.
            (Event::Prompt | Event::SessionStart, Decision::Context) => Answer::print(reason),
            _ => Answer::default(),
        }
    }

    fn outcome(&self, event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{first_line, text};
        if o.timed_out || o.exit.is_none() {
            return Outcome::proceeds(
                "a timeout or a killed hook is an error: the call proceeds (fail-open)",
            );
        }
        match o.exit {
            Some(2) => Outcome::blocks(
                Some(match text(&o.stderr) {
                    Some(reason) => {
                        format!("Error: Tool execution blocked by hook. [hook]: {reason}")
                    }
                    None => "Error: Tool execution blocked by hook. Blocked by hook".to_owned(),
                }),
                "exit 2 blocks; the model reads stderr",
            ),
            Some(0) => {
                Outcome::proceeds("exit 0: the call proceeds (Letta reads no decision from stdout)")
                    .model(
                        matches!(event, Event::Prompt | Event::SessionStart)
                            .then(|| text(&o.stdout))
                            .flatten(),
                    )
            }
            _ => Outcome::proceeds(
                "any status but 0 and 2 is an error for the user: the call proceeds",
            )
            .user(first_line(&o.stderr)),
        }
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let native = PROFILE.event_name(event)?;
        let mut v = json!({
            "event_type": native,
            "working_directory": root.to_string_lossy(),
        });
        let o = v.as_object_mut()?;
        match event {
            Event::PreTool | Event::PostTool => {
                let t = ToolCall::of(&PROFILE, call, root)?;
                let mut input = t.input("file_path");
                if t.kind == ToolKind::Shell {
                    input["description"] = json!("run it");
                }
                o.insert("tool_name".into(), json!(t.native));
                o.insert("tool_input".into(), input);
                o.insert("tool_call_id".into(), json!("call_1"));
                if event == Event::PostTool {
                    o.insert(
                        "tool_result".into(),
                        json!({"status": "success", "output": ""}),
                    );
                }
            }
            Event::Prompt => {
                o.insert(
                    "prompt".into(),
                    json!(super::payload::text_of(event, call)?),
                );
                o.insert("is_command".into(), json!(false));
            }
            Event::Stop => {
                o.insert("stop_reason".into(), json!("end_turn"));
                o.insert(
                    "assistant_message".into(),
                    json!(super::payload::text_of(event, call)?),
                );
            }
            Event::SessionStart => {
                super::payload::text_of(event, call)?;
                o.insert("is_new_session".into(), json!(true));
            }
            Event::SubagentStop => return None,
        }
        o.insert("agent_id".into(), json!("agent-1"));
        Some(v)
    }

    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        let dir = root.to_string_lossy().into_owned();
        let env = vec![
            ("LETTA_HOOK_EVENT", PROFILE.event_name(event)?.to_owned()),
            ("LETTA_WORKING_DIR", dir.clone()),
            ("USER_CWD", dir),
        ];
        super::grouped_hook_command(root, SETTINGS, PROFILE.event_name(event)?, "/bin/bash", env)
    }
}

/// The command line of a call of the shell tool `name`.
fn shell_line(name: &str, input: &Value) -> Result<String, String> {
    match name {
        "exec_command" => Ok(string_at(input, "/cmd")?.to_owned()),
        // Text typed into a running command (a shell, for all hookc knows).
        "write_stdin" => common::typed_lines(string_at(input, "/chars")?, false),
        "shell" => {
            let words = input
                .get("command")
                .and_then(Value::as_array)
                .filter(|w| !w.is_empty())
                .ok_or("`command` should be a list of words")?;
            let words: Option<Vec<String>> = words
                .iter()
                .map(|w| w.as_str().map(common::sh_quote))
                .collect();
            Ok(words.ok_or("`command` should hold strings only")?.join(" "))
        }
        _ => {
            debug_assert!(COMMAND_TOOLS.contains(&name), "{name}");
            Ok(string_at(input, "/command")?.to_owned())
        }
    }
}

/// The regex fragments for one guard tool; none for an MCP tool, which
/// Letta calls through its shell tool.
fn matcher_names(tool: &Tool) -> Vec<String> {
    common::tool_names(&PROFILE, tool, &|_, _| None)
}

/// A guard on MCP tools does not run in Letta: how to guard them.
const MCP_WHY: &str = "Letta Code calls MCP tools through its shell tool (`letta mcp call mcp__<server>__<tool>`), not as tools of their own";
const MCP_FIX: &str = "add a `command \"letta\" \"mcp\" \"call\"` guard for those calls";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::Observation;

    fn verdict(decision: Decision) -> Verdict {
        super::super::test_verdict(decision, "Do not force-push.")
    }

    #[test]
    fn refusals_are_exit_2_with_the_reason_on_stderr_and_nothing_allows() {
        for decision in [Decision::Deny, Decision::Block, Decision::Ask] {
            let a = Letta.answer(Event::PreTool, Some(&verdict(decision)));
            assert_eq!((a.exit, a.stdout.as_str()), (2, ""), "{decision:?}");
            let o = Letta.outcome(
                Event::PreTool,
                &Observation {
                    exit: Some(a.exit),
                    stdout: a.stdout,
                    stderr: a.stderr,
                    ..Observation::default()
                },
            );
            assert!(!o.proceeds);
            assert!(o.model_reads.unwrap().contains("Do not force-push."));
        }
        assert_eq!(
            Letta.answer(Event::PreTool, Some(&verdict(Decision::Allow))),
            Answer::default()
        );
    }

    #[test]
    fn only_exit_2_refuses() {
        let o = |exit: Option<i32>, stdout: &str| {
            Letta
                .outcome(
                    Event::PreTool,
                    &Observation {
                        exit,
                        stdout: stdout.into(),
                        stderr: "boom".into(),
                        ..Observation::default()
                    },
                )
                .proceeds
        };
        assert!(o(Some(1), ""));
        assert!(o(None, ""));
        assert!(o(
            Some(0),
            r#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#
        ));
        assert!(o(Some(0), r#"{"decision":"block","reason":"x"}"#));
        assert!(!o(Some(2), ""));
    }

    #[test]
    fn every_shell_tool_gives_its_command_line() {
        let line = |name: &str, input: Value| shell_line(name, &input);
        assert_eq!(
            line("Bash", json!({"command": "git push -f"})).unwrap(),
            "git push -f"
        );
        assert_eq!(
            line("exec_command", json!({"cmd": "git push -f"})).unwrap(),
            "git push -f"
        );
        assert_eq!(
            line("shell", json!({"command": ["bash", "-lc", "git push -f"]})).unwrap(),
            "bash -lc 'git push -f'"
        );
        assert_eq!(
            line("write_stdin", json!({"chars": "rm -rf .\r"})).unwrap(),
            "rm -rf .\n"
        );
        // Ctrl-U, or an arrow that recalls an earlier line: not readable.
        assert!(line("write_stdin", json!({"chars": "ls\u{15}git push -f\n"})).is_err());
        assert!(line("write_stdin", json!({"chars": "\u{1b}[A\n"})).is_err());
        assert!(line("shell", json!({"command": "git push"})).is_err());
        assert!(line("exec_command", json!({"command": "git push"})).is_err());
        for name in COMMAND_TOOLS {
            assert_eq!(PROFILE.tool_kind(name), Some(ToolKind::Shell), "{name}");
        }
    }

    #[test]
    fn a_workdir_is_where_the_command_runs() {
        let call = Letta
            .decode_call(
                Event::PreTool,
                &json!({
                    "event_type": "PreToolUse",
                    "working_directory": "/p",
                    "tool_name": "exec_command",
                    "tool_input": {"cmd": "cat .env", "workdir": "sub"},
                }),
            )
            .unwrap();
        assert_eq!(call.cwd.as_deref(), Some("/p/sub"));
        assert_eq!(call.command.as_deref(), Some("cat .env"));
    }

    #[test]
    fn the_command_is_one_quoted_word_for_every_shell() {
        let c = command(".hookc/letta/pre-tool.sh");
        assert!(c.starts_with("/bin/sh -c '") && c.ends_with('\''), "{c}");
        assert_eq!(c.matches('\'').count(), 2, "{c}");
        assert!(c.contains(MARKER), "{c}");
    }
}
