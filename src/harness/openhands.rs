//! OpenHands (its CLI): hooks merged into `.openhands/hooks.json`.
//!
//! Protocol facts this file relies on (read from PyPI's `openhands` 1.16.0
//! and the `openhands-sdk` 1.21.0 it pins, checked against SDK 1.58.2, and
//! run in real `openhands --headless` turns; the book's page lists them):
//! - The CLI reads `.openhands/hooks.json` of its work folder, **or else**
//!   `~/.openhands/hooks.json`: the first that exists, never both. Claude
//!   Code's shape, with six events; an unknown event, a timeout that is not
//!   a whole number or broken JSON stops the CLI before the agent runs.
//!   Unknown keys in an entry are ignored.
//! - A matcher is `*` (every tool), a name compared exactly, or a regex
//!   (any regex character makes one) that must match the whole name.
//! - The command runs with `/bin/sh -c` in the work folder, with
//!   `OPENHANDS_PROJECT_DIR` set to it; the call comes on stdin with
//!   OpenHands' own keys (`event_type`, `working_dir`, `tool_input`).
//! - **Exit 2 refuses**, and the model reads `Action rejected: ` and
//!   stderr. A JSON object on stdout with `decision: deny` refuses at any
//!   status. Every other status, a crash, a timeout (60 s unless `timeout`
//!   says) and other output let the call through.

use std::path::Path;

use serde_json::{Value, json};

use super::common;
use super::payload::ToolCall;
use super::{Answer, Harness, HookCommand, MachineCheck, Profile, windows};
use crate::emit::EmitCx;
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, ToolKind};
use crate::profile::{
    Dialect, FileFormat, Flavour, HookFile, JsonSpec, LateHook, Matching, OnHookError, PlainStdout,
    Unit,
};

pub struct OpenHands;

/// Hook entries hookc owns are recognised by this path in their command.
const MARKER: &str = "/.hookc/openhands/";
const HOOKS: &str = ".openhands/hooks.json";

/// What the user should do on Windows, where these hooks cannot check a call.
const WINDOWS_FIX: &str = "run OpenHands on Windows in WSL or its Docker runtime";

static PROFILE: Profile = Profile {
    id: HarnessId::OpenHands,
    name: "OpenHands",
    events: &[(Event::PreTool, "PreToolUse")],
    tools: &[
        (ToolKind::Shell, &["terminal"]),
        // `file_editor` reads (`view`), writes (`create`) and edits; which,
        // is read from the call.
        (
            ToolKind::Read,
            &["file_editor", "read_file", "grep", "glob", "list_directory"],
        ),
        (ToolKind::Write, &["file_editor", "write_file"]),
        (
            ToolKind::Edit,
            &["file_editor", "planning_file_editor", "edit", "apply_patch"],
        ),
    ],
    can_block: &[Event::PreTool],
    honours_ask: &[],
    can_rewrite: false,
    options: &[],
    todo: &[
        "install hookc on every machine that runs OpenHands in this repo (or set HOOKC_BIN)",
        "start openhands in the project's root folder (or set OPENHANDS_WORK_DIR to it): it reads .openhands/hooks.json there only",
    ],
    more_events: &[
        "PostToolUse",
        "UserPromptSubmit",
        "SessionStart",
        "SessionEnd",
        "Stop",
    ],
    files: &[HookFile {
        dir: ".openhands",
        names: &["hooks.json"],
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
        require_type: false,
        types: &["command", "prompt", "agent"],
        command_keys: &["command"],
        timeout_keys: &["timeout"],
        unit: Unit::Seconds,
        matching: Matching::Anchored,
        star_is_all: true,
        matcher_aliases: &[],
        tools_closed: true,
        matcher_subject: crate::profile::claude_shaped_matchers,
        events_any_case: false,
        strict_keys: None,
        stdout_is_reply: false,
        plain_stdout: |_| PlainStdout::Ignored,
    }),
    flavour: Some(Flavour::Rust),
    mcp_names: |_| None,
    refusal: Some(include_str!("../../templates/openhands/refuse.sh.hbs")),
    on_hook_error: OnHookError::Proceeds,
    own_timeout: None,
    late_hook: LateHook::Proceeds,
    hints: &[".openhands/"],
    protected: &[HOOKS, "~/.openhands/hooks.json"],
    protected_examples: &[HOOKS],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::ProjectRoot,
    hook_vars: Some(crate::profile::HookVars {
        set: &["OPENHANDS_PROJECT_DIR"],
        complete: true,
    }),
};

impl Harness for OpenHands {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn machine_checks(&self, _root: &Path, home: Option<&Path>) -> Vec<MachineCheck> {
        // The project's file hides the user's: hooks there stop running here.
        match common::under_home(home, ".openhands/hooks.json") {
            Some(user) if user.is_file() => vec![MachineCheck::note(
                format!(
                    "{}: {} is not read in this project: OpenHands reads the project's .openhands/hooks.json instead, never both",
                    PROFILE.name,
                    user.display()
                ),
                "copy the user's hooks you want here into the project's .openhands/hooks.json",
            )],
            _ => Vec::new(),
        }
    }

    fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        common::warn_unsupported_events(policy, &PROFILE, cx);
        common::warn_decisions(
            policy,
            &PROFILE,
            cx,
            &|event, decision| match (event, decision) {
                (Event::PreTool, Decision::Ask) => Some(
                    "OpenHands hooks cannot ask the user; hookc refuses the call and tells the model to ask the user instead",
                ),
                (Event::PreTool, Decision::Context) => Some(
                    "OpenHands reads no added context from a PreToolUse hook; the call goes ahead without it",
                ),
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
                    "command": common::refusing_on_windows(
                        event,
                        common::source_shim(&format!(
                            "\"$OPENHANDS_PROJECT_DIR\"/.hookc/openhands/{}.sh",
                            event.word()
                        )),
                        &PROFILE,
                        WINDOWS_FIX,
                    ),
                    "timeout": policy.timeout,
                })
            },
        );
        cx.hook_entries(HOOKS, entries, Vec::new(), MARKER);
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Unguarded {
            what: "OpenHands runs hook commands with the system shell, which on Windows is cmd.exe; hookc's command refuses every call there (its first part is a refusal in cmd.exe and PowerShell), so nothing is checked and nothing runs",
            fix: WINDOWS_FIX,
        }
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        let working = payload
            .get("working_dir")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let mut call = common::new_call(event, payload, "OPENHANDS_PROJECT_DIR", working)?;
        let (name, input) = common::tool_and_input(payload)?;
        let kind = match name {
            "file_editor" | "planning_file_editor" => Some(editor_kind(input)),
            _ => PROFILE.tool_kind(name),
        };
        match (name, kind) {
            ("file_editor" | "planning_file_editor", _) => {
                call.paths
                    .push(super::string_at(input, "/path")?.to_owned());
                call.text = Some(input.to_string());
            }
            ("grep", _) => {
                crate::eval::search_call(&mut call, input, "/path", "/include", false);
                call.text = Some(input.to_string());
            }
            ("glob", _) => {
                crate::eval::search_call(&mut call, input, "/path", "/pattern", true);
                call.text = Some(input.to_string());
            }
            ("list_directory", _) => {
                call.paths
                    .push(super::string_at(input, "/dir_path")?.to_owned());
                call.text = Some(input.to_string());
            }
            (_, kind) => common::claude_shaped_input(&mut call, name, kind, input)?,
        }
        call.tool = Some(CallTool {
            kind,
            mcp: None,
            native: name.to_owned(),
            ..CallTool::default()
        });
        Ok(call)
    }

    fn answer(&self, _event: Event, verdict: Option<&Verdict>) -> Answer {
        match common::refusal_reason(verdict, "an OpenHands") {
            // Nothing on stdout: the CLI's SDK crashes (and lets the call
            // run) on a JSON `decision` that is not a string.
            Some(reason) => Answer::exit_2(reason),
            None => Answer::default(),
        }
    }

    fn outcome(&self, _event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{json_object, str_at, text};
        if o.timed_out {
            return Outcome::proceeds("a timeout lets the call through (fail-open)");
        }
        let reply = text(&o.stdout).and_then(|out| json_object(&out));
        let reason = || {
            reply
                .as_ref()
                .and_then(|j| str_at(j, "/reason"))
                .or_else(|| text(&o.stderr))
                .or_else(|| Some("Blocked by hook".to_owned()))
                .map(|r| format!("Action rejected: {r}"))
        };
        if o.exit == Some(2) {
            return Outcome::blocks(reason(), "exit 2 refuses; the model reads stderr");
        }
        let denies = reply.as_ref().is_some_and(|j| {
            str_at(j, "/decision").is_some_and(|d| d.eq_ignore_ascii_case("deny"))
                || j.get("continue") == Some(&json!(false))
        });
        if denies {
            Outcome::blocks(reason(), "a JSON `decision: deny` refuses, at any status")
        } else {
            Outcome::proceeds(
                "any other status, a crash and other output let the call through (fail-open)",
            )
        }
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let t = ToolCall::of(&PROFILE, call, root)?;
        let (name, input) = match t.kind {
            ToolKind::Shell => (
                "terminal",
                json!({"command": t.command, "is_input": false, "timeout": null, "reset": false, "kind": "TerminalAction"}),
            ),
            kind => {
                let command = match kind {
                    ToolKind::Read => "view",
                    ToolKind::Write => "create",
                    _ => "str_replace",
                };
                (
                    "file_editor",
                    json!({"command": command, "path": t.path, "file_text": null, "old_str": null, "new_str": null, "insert_line": null, "view_range": null, "kind": "FileEditorAction"}),
                )
            }
        };
        Some(json!({
            "event_type": PROFILE.event_name(event)?,
            "tool_name": name,
            "tool_input": input,
            "tool_response": null,
            "message": null,
            "session_id": "7c63f2d8",
            "working_dir": root.to_string_lossy(),
            "metadata": {},
        }))
    }

    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        let dir = root.to_string_lossy().into_owned();
        let env = vec![("OPENHANDS_PROJECT_DIR", dir)];
        super::grouped_hook_command(root, HOOKS, PROFILE.event_name(event)?, "/bin/sh", env)
    }
}

/// What a `file_editor` call does: `view` reads, `create` writes, the rest
/// (and a command hookc does not know) edit.
fn editor_kind(input: &Value) -> ToolKind {
    match input.get("command").and_then(Value::as_str) {
        Some("view") => ToolKind::Read,
        Some("create") => ToolKind::Write,
        _ => ToolKind::Edit,
    }
}

/// Why a guard on MCP tools does not run here, and what to do.
const MCP_WHY: &str = "OpenHands names an MCP tool by its own name alone, or `<server>_<tool>` when several servers are connected, so a hook cannot tell which server a call is for";
const MCP_FIX: &str = "the guard does not run there; guard the MCP server in its own configuration";

/// The matcher alternatives for one guard tool; MCP tools have none (see
/// [`MCP_WHY`]).
fn matcher_names(tool: &crate::ir::Tool) -> Vec<String> {
    common::tool_names(&PROFILE, tool, &|_, _| None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::Observation;

    fn verdict(decision: Decision) -> Verdict {
        super::super::test_verdict(decision, "Do not force-push.")
    }

    fn observed(exit: Option<i32>, stdout: &str) -> super::super::Outcome {
        OpenHands.outcome(
            Event::PreTool,
            &Observation {
                exit,
                stdout: stdout.into(),
                stderr: "boom".into(),
                ..Observation::default()
            },
        )
    }

    #[test]
    fn a_refusal_is_exit_2_with_the_reason_on_stderr_and_nothing_on_stdout() {
        for decision in [Decision::Deny, Decision::Block, Decision::Ask] {
            let a = OpenHands.answer(Event::PreTool, Some(&verdict(decision)));
            assert_eq!((a.exit, a.stdout.as_str()), (2, ""), "{decision:?}");
            let o = observed(Some(a.exit), &a.stdout);
            assert!(!o.proceeds);
            assert_eq!(
                o.model_reads.as_deref(),
                Some("Action rejected: boom"),
                "{o:?}"
            );
        }
        assert_eq!(
            OpenHands.answer(Event::PreTool, Some(&verdict(Decision::Allow))),
            Answer::default()
        );
    }

    #[test]
    fn what_openhands_lets_through() {
        assert!(observed(Some(1), "").proceeds);
        assert!(observed(None, "").proceeds);
        assert!(
            observed(
                Some(0),
                r#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#
            )
            .proceeds
        );
        assert!(!observed(Some(1), r#"{"decision":"DENY"}"#).proceeds);
        assert!(!observed(Some(0), r#"{"continue":false}"#).proceeds);
    }

    #[test]
    fn the_file_editor_reads_writes_or_edits_by_its_command() {
        let decode = |input: Value| {
            OpenHands
                .decode_call(
                    Event::PreTool,
                    &json!({"event_type": "PreToolUse", "working_dir": "/p", "tool_name": "file_editor", "tool_input": input}),
                )
                .unwrap()
        };
        let view = decode(json!({"command": "view", "path": "/p/.env"}));
        assert_eq!(view.paths, ["/p/.env"]);
        assert_eq!(view.tool.unwrap().kind, Some(ToolKind::Read));
        let create = decode(json!({"command": "create", "path": "/p/a", "file_text": "x"}));
        assert_eq!(create.tool.unwrap().kind, Some(ToolKind::Write));
        let other = decode(json!({"command": "something_new", "path": "/p/a"}));
        assert_eq!(other.tool.unwrap().kind, Some(ToolKind::Edit));
        // A patch names no file hookc can read: not waved through.
        assert!(
            OpenHands
                .decode_call(
                    Event::PreTool,
                    &json!({"event_type": "PreToolUse", "working_dir": "/p", "tool_name": "apply_patch", "tool_input": {"patch": "*** Begin Patch"}}),
                )
                .is_err()
        );
    }
}
