//! Qoder CLI: hooks merged into `.qoder/settings.json`.
//!
//! Protocol facts this file relies on (read from the bundle of
//! `@qoder-ai/qodercli` 1.1.52, a fork of Gemini CLI with Claude Code's
//! hooks, whose own hook runner was driven with real hooks; no turn could
//! run: Qoder needs a login. The book's page lists them in full):
//! - Qoder reads the `hooks` of `~/.qoder/settings.json`, and
//!   `.qoder/settings.json` and `.qoder/settings.local.json` of the folder
//!   it starts in (no walk up), and runs them all. A file with a trailing
//!   comma is skipped whole, and one invalid field in a hook (a `timeout`
//!   that is a string) drops the file's whole list for that event.
//! - Commands run with the `bash -c` found on `PATH`, in the session's
//!   folder, with `QODER_PROJECT_DIR` set to it.
//! - Exit 2 refuses, the model reads stderr; a JSON deny refuses, and any
//!   deny wins over other hooks. Exit 1, other statuses, a timeout and a
//!   hook that cannot start let the call through. **Plain text on stdout
//!   with exit 0 approves the call**, so hookc's allow is silence.
//!   `timeout` is seconds.
//! - Matchers are unanchored JavaScript regexes over the tool's name
//!   (`Bash` also matches `BashInput`); tools are Claude Code's, with the
//!   shell's folder in `Bash`'s `dir_path`, and keystrokes typed into a
//!   running shell in `BashInput`.

use std::path::Path;

use serde_json::{Value, json};

use super::common::{self};
use super::payload::{self, ToolCall};
use super::{Answer, Harness, HookCommand, MachineCheck, Profile, split_mcp, string_at, windows};
use crate::emit::EmitCx;
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, ToolKind};
use crate::profile::{
    Dialect, FileFormat, Flavour, HookFile, JsonSpec, LateHook, Matching, McpNames, OnHookError,
    PlainStdout, Unit,
};

pub struct Qoder;

/// Hook entries hookc owns are recognised by this path in their command.
const MARKER: &str = "/.hookc/qoder/";
const SETTINGS: &str = ".qoder/settings.json";
const LOCAL: &str = ".qoder/settings.local.json";

static PROFILE: Profile = Profile {
    id: HarnessId::Qoder,
    name: "Qoder CLI",
    events: &[
        (Event::PreTool, "PreToolUse"),
        (Event::PostTool, "PostToolUse"),
        (Event::Prompt, "UserPromptSubmit"),
        (Event::Stop, "Stop"),
        (Event::SubagentStop, "SubagentStop"),
        (Event::SessionStart, "SessionStart"),
    ],
    tools: &[
        (
            ToolKind::Shell,
            &["Bash", "BashInput", "Monitor", "PowerShell"],
        ),
        (ToolKind::Read, &["Read", "Grep", "Glob"]),
        (ToolKind::Write, &["Write"]),
        (ToolKind::Edit, &["Edit", "NotebookEdit"]),
        (ToolKind::WebFetch, &["WebFetch"]),
    ],
    can_block: &[
        Event::PreTool,
        Event::Prompt,
        Event::Stop,
        Event::SubagentStop,
    ],
    honours_ask: &[],
    can_rewrite: false,
    options: &[],
    todo: &[
        "install hookc on every machine that runs Qoder CLI in this repo (or set HOOKC_BIN)",
        "start qodercli in the project's root folder, and trust the folder: it reads .qoder/settings.json from the folder it starts in only",
    ],
    more_events: &[
        "PostToolUseFailure",
        "SubagentStart",
        "Notification",
        "Setup",
        "SessionEnd",
        "PreCompact",
        "PostCompact",
        "ConfigChange",
        "StopFailure",
        "TeammateIdle",
        "InstructionsLoaded",
        "CwdChanged",
        "FileChanged",
        "WorktreeCreate",
        "WorktreeRemove",
        "Elicitation",
        "ElicitationResult",
        "TaskCreated",
        "TaskCompleted",
        "PermissionRequest",
        "PermissionDenied",
    ],
    files: &[HookFile {
        dir: ".qoder",
        names: &["settings.json"],
        format: FileFormat::HooksJson,
        in_project: true,
    }],
    json: Some(JsonSpec {
        dialect: Dialect {
            comments: true,
            trailing_commas: false,
            bom: false,
        },
        strict_root: None,
        version: None,
        groups: true,
        flat_ok: false,
        require_type: true,
        types: &["command", "http", "prompt", "agent"],
        command_keys: &["command"],
        timeout_keys: &["timeout"],
        unit: Unit::Seconds,
        matching: Matching::Unanchored,
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
    mcp_names: |_| Some(McpNames::DoubleUnderscore),
    refusal: Some(include_str!("../../templates/qoder/refuse.sh.hbs")),
    on_hook_error: OnHookError::Proceeds,
    own_timeout: None,
    late_hook: LateHook::Proceeds,
    hints: &[".qoder/", "AGENTS.md"],
    protected: &[SETTINGS, LOCAL, "~/.qoder/settings.json"],
    protected_examples: &[SETTINGS],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::ProjectRoot,
    hook_vars: Some(crate::profile::HookVars {
        set: &["QODER_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
        complete: false,
    }),
};

impl Harness for Qoder {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn machine_checks(&self, root: &Path, home: Option<&Path>) -> Vec<MachineCheck> {
        let name = PROFILE.name;
        let mut checks = Vec::new();
        for path in [
            Some(root.join(SETTINGS)),
            Some(root.join(LOCAL)),
            common::under_home(home, ".qoder/settings.json"),
        ]
        .into_iter()
        .flatten()
        {
            let Some(settings) = common::read_json(Some(path.clone())) else {
                continue;
            };
            for (off, key) in [
                (
                    settings["disableAllHooks"] == json!(true),
                    "\"disableAllHooks\": true",
                ),
                (
                    settings["hooksConfig"]["enabled"] == json!(false),
                    "\"hooksConfig\": {\"enabled\": false}",
                ),
            ] {
                if off {
                    checks.push(MachineCheck::fail(
                        format!("{name}: {} turns every hook off ({key})", path.display()),
                        format!("remove `{key}` from {}", path.display()),
                    ));
                }
            }
        }
        checks.push(MachineCheck::note(
            format!("{name} runs no hooks at all in an interactive session in a folder it does not trust, and reads the project's hooks only when started in the project's root folder"),
            "start qodercli in the project's root folder, and list it in `permissions.trustDirectories`",
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
                    "what Qoder CLI does with a hook's `ask` where nobody can answer (`qodercli -p`) is not established; hookc refuses the call and tells the model to ask the user instead",
                ),
                (_, Decision::Context) => Some(
                    "how Qoder CLI passes a hook's added context on is not established; the call goes ahead without it",
                ),
                (Event::PostTool, d) if d.refuses() => Some(
                    "Qoder CLI cannot refuse a tool's result, and whether it passes a post-tool hook's reason on is not established",
                ),
                _ => None,
            },
        );
        let entries = common::grouped_entries(
            &PROFILE,
            cx,
            &|cx, event| common::route(policy, event, &PROFILE, cx, &matcher_names),
            &mut |cx, event, native| {
                cx.shim(policy, &PROFILE, event, native, policy.on_error_for(event));
                json!({
                    "type": "command",
                    "command": common::source_shim(&format!(
                        "\"$QODER_PROJECT_DIR\"/.hookc/qoder/{}.sh",
                        event.word()
                    )),
                    "timeout": policy.timeout,
                })
            },
        );
        cx.hook_entries(SETTINGS, entries, Vec::new(), MARKER);
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Guarded(
            "Qoder CLI runs hook commands in Git Bash, which it installs itself where it is missing",
        )
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        let mut call = common::new_call(
            event,
            payload,
            "QODER_PROJECT_DIR",
            common::payload_cwd(payload),
        )?;
        match event {
            Event::PreTool | Event::PostTool => {
                let (name, input) = common::tool_and_input(payload)?;
                let kind = PROFILE.tool_kind(name);
                if name == "BashInput" {
                    call.command = Some(typed(input)?);
                    call.typed = true;
                } else {
                    common::claude_shaped_input(&mut call, name, kind, input)?;
                }
                if name == "Bash" {
                    call.cwd = dir_path(input, call.root.as_deref());
                }
                let mcp = if name == MCP_CALL {
                    // The meta-tool of lazy MCP mode: the tool is in its input.
                    let tool = string_at(input, "/toolName")?;
                    Some(split_mcp(tool).ok_or_else(|| {
                        format!("`mcp_call` names `{tool}`, which is not an MCP tool name hookc can read")
                    })?)
                } else {
                    split_mcp(name)
                };
                call.tool = Some(CallTool {
                    kind,
                    mcp,
                    native: name.to_owned(),
                    ..CallTool::default()
                });
            }
            Event::Prompt | Event::Stop | Event::SubagentStop | Event::SessionStart => {
                call.text = common::event_text(event, payload)?;
            }
        }
        Ok(call)
    }

    fn answer(&self, _event: Event, verdict: Option<&Verdict>) -> Answer {
        match common::refusal_reason(verdict, "a Qoder CLI") {
            Some(reason) => Answer::exit_2(reason),
            // Silence: any text on stdout would approve the call.
            None => Answer::default(),
        }
    }

    fn outcome(&self, _event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{first_line, json_object, str_at, text};
        if o.timed_out {
            return Outcome::proceeds("a timeout lets the call through (fail-open)");
        }
        let stdout = text(&o.stdout);
        // A killed hook counts as exit 0: what it printed still decides.
        let exit = o.exit.unwrap_or(0);
        match exit {
            2 => {
                return Outcome::blocks(
                    text(&o.stderr).or_else(|| Some("Hook blocked with exit code 2".to_owned())),
                    "exit 2 refuses; the model reads stderr",
                );
            }
            0 => {}
            _ => {
                return Outcome::proceeds(
                    "exit 1 (or any code but 0 and 2) is not a decision: the call proceeds, JSON on stdout unread",
                )
                .user(first_line(&o.stderr));
            }
        }
        let Some(out) = stdout else {
            return Outcome::proceeds("exit 0 and nothing on stdout: the call proceeds");
        };
        if !out.starts_with('{') {
            return Outcome::proceeds("plain text on stdout approves the call");
        }
        let Some(j) = json_object(&out) else {
            return Outcome::blocks(
                None,
                "stdout that starts as JSON and does not parse refuses",
            );
        };
        let specific = j.get("hookSpecificOutput");
        if specific.is_some() && str_at(&j, "/hookSpecificOutput/hookEventName").is_none() {
            return Outcome::blocks(None, "hookSpecificOutput without hookEventName refuses");
        }
        let decision = str_at(&j, "/hookSpecificOutput/permissionDecision")
            .or_else(|| str_at(&j, "/decision"));
        match decision.as_deref() {
            Some("deny" | "block") => Outcome::blocks(
                str_at(&j, "/hookSpecificOutput/permissionDecisionReason")
                    .or_else(|| str_at(&j, "/reason")),
                "a JSON deny refuses, whatever the other hooks say",
            ),
            _ => Outcome::proceeds("exit 0 without a JSON deny: the call proceeds"),
        }
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let mut v = json!({
            "session_id": "s1",
            "transcript_path": "/tmp/.qoder/projects/p/s1.jsonl",
            "cwd": root.to_string_lossy(),
            "hook_event_name": PROFILE.event_name(event)?,
            "permission_mode": "default",
        });
        let o = v.as_object_mut()?;
        if event.has_tools() {
            let t = ToolCall::of(&PROFILE, call, root)?;
            o.insert("tool_use_id".into(), json!("call_1"));
            o.insert("tool_name".into(), json!(t.native));
            o.insert("tool_input".into(), t.input("file_path"));
            if event == Event::PostTool {
                o.insert("tool_response".into(), json!({}));
            }
        }
        payload::claude_shaped_fields(o, event, call, "general-purpose")?;
        Some(v)
    }

    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        let dir = root.to_string_lossy().into_owned();
        let env = vec![
            ("QODER_PROJECT_DIR", dir.clone()),
            ("CLAUDE_PROJECT_DIR", dir),
        ];
        super::grouped_hook_command(root, SETTINGS, PROFILE.event_name(event)?, "/bin/bash", env)
    }
}

/// Qoder's meta-tool for MCP tools in its lazy MCP mode; the hook sees
/// this name, and the MCP tool's in `tool_input.toolName`.
const MCP_CALL: &str = "mcp_call";

/// The regex fragments for one guard tool; an MCP tool also through
/// `mcp_call`.
fn matcher_names(tool: &crate::ir::Tool) -> Vec<String> {
    let mut names = super::mcp_underscore_names(&PROFILE, tool);
    if matches!(tool, crate::ir::Tool::Mcp { .. }) && !names.is_empty() {
        names.push(MCP_CALL.to_owned());
    }
    names
}

/// What a `BashInput` call types into a running shell (`chars`, in which
/// Qoder decodes escapes such as `\\r`), read as command lines.
fn typed(input: &Value) -> Result<String, String> {
    common::typed_lines(string_at(input, "/chars")?, true)
}

/// The folder a `Bash` call runs in, when it names one (`dir_path`,
/// relative to the project's root), as an absolute path.
fn dir_path(input: &Value, session: Option<&str>) -> Option<String> {
    let dir = input.get("dir_path").and_then(Value::as_str)?;
    if Path::new(dir).is_absolute() {
        return Some(dir.to_owned());
    }
    Some(Path::new(session?).join(dir).to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::Observation;

    fn verdict(decision: Decision) -> Verdict {
        super::super::test_verdict(decision, "Do not force-push.")
    }

    fn observed(exit: Option<i32>, stdout: &str) -> super::super::Outcome {
        Qoder.outcome(
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
    fn refusals_are_exit_2_with_the_reason_on_stderr_and_allow_is_silence() {
        for decision in [Decision::Deny, Decision::Block, Decision::Ask] {
            let a = Qoder.answer(Event::PreTool, Some(&verdict(decision)));
            assert_eq!((a.exit, a.stdout.as_str()), (2, ""), "{decision:?}");
            let o = observed(Some(a.exit), &a.stdout);
            assert!(!o.proceeds);
        }
        assert_eq!(
            Qoder.answer(Event::PreTool, Some(&verdict(Decision::Allow))),
            Answer::default()
        );
    }

    #[test]
    fn what_qoder_lets_through() {
        assert!(observed(Some(1), r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#).proceeds);
        assert!(observed(Some(0), "looks fine").proceeds);
        assert!(!observed(Some(0), "{not json").proceeds);
        assert!(
            !observed(
                Some(0),
                r#"{"hookSpecificOutput":{"permissionDecision":"allow"}}"#
            )
            .proceeds
        );
        assert!(!observed(None, r#"{"decision":"block","reason":"x"}"#).proceeds);
        assert!(observed(None, "").proceeds);
    }

    #[test]
    fn an_mcp_call_through_the_meta_tool_is_that_mcp_tool() {
        let decode = |input: Value| {
            Qoder.decode_call(
                Event::PreTool,
                &json!({"hook_event_name": "PreToolUse", "cwd": "/p", "tool_name": "mcp_call", "tool_input": input}),
            )
        };
        let call = decode(json!({"toolName": "mcp__pay__refund", "arguments": {}})).unwrap();
        assert_eq!(
            call.tool.unwrap().mcp,
            Some(("pay".into(), "refund".into()))
        );
        assert!(decode(json!({"toolName": "refund"})).is_err());
        let tool = crate::ir::Tool::Mcp {
            server: "pay".into(),
            tool: "refund".into(),
        };
        let re =
            regex::Regex::new(&super::super::anchored_alternation(matcher_names(&tool))).unwrap();
        assert!(re.is_match("mcp_call") && re.is_match("mcp__pay__refund"));
    }

    #[test]
    fn a_bash_call_runs_in_its_dir_path_and_typed_text_is_a_command_line() {
        let call = Qoder
            .decode_call(
                Event::PreTool,
                &json!({
                    "hook_event_name": "PreToolUse",
                    "cwd": "/p",
                    "tool_name": "Bash",
                    "tool_input": {"command": "cat .env", "dir_path": "sub"},
                }),
            )
            .unwrap();
        assert_eq!(call.cwd.as_deref(), Some("/p/sub"));
        assert_eq!(
            typed(&json!({"pid": 7, "chars": "git push -f\\r"})).unwrap(),
            "git push -f\n"
        );
        assert!(typed(&json!({"pid": 7})).is_err());
        // Ctrl-C, then a line hookc would not have read as one command.
        assert!(typed(&json!({"pid": 7, "chars": "echo \\u0003git push -f\\r"})).is_err());
        assert!(typed(&json!({"pid": 7, "chars": "\u{1b}[A\r"})).is_err());
    }
}
