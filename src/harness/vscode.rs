//! VS Code agent hooks (GitHub Copilot's agent in VS Code, the "Local"
//! harness): the hook files VS Code reads in `.github/hooks/`.
//!
//! From VS Code's documentation and its source (nothing here has run in VS
//! Code; `book/src/harnesses/vscode.md` lists the sources):
//! - The Local agent reads every `*.json` in `.github/hooks/` (and, with
//!   `chat.useClaudeHooks` on, which is off by default and cannot be a
//!   workspace default, `.claude/settings*.json` and
//!   `~/.claude/settings.json`). A file
//!   with a numeric `version` is read as Copilot CLI's format: its
//!   lowerCamelCase events become VS Code's PascalCase ones, `bash` becomes
//!   the Linux and macOS command (run with `bash -c`), `powershell` the
//!   Windows one (run with `powershell.exe -Command`). Without `version` the
//!   file is VS Code's own: `{"hooks": {"PreToolUse": [{"type": "command",
//!   "command", "windows", "cwd", "env", "timeout"}]}}` (`timeoutSec` is
//!   read as `timeout`; default 30 s). An entry without `type: "command"` is
//!   dropped. **Matchers are ignored**: every hook of an event runs for every
//!   tool. The command runs in the workspace root (`cwd`'s default), with
//!   the default shell (`/bin/sh`, `cmd.exe`) unless it came from `bash` or
//!   `powershell`.
//! - So the same `.github/hooks/hookc.json` serves Copilot CLI and VS Code.
//!   When the policy targets both, Copilot's file is the one file, and VS
//!   Code's calls reach `hookc guard --harness copilot`, which tells them
//!   apart by their shape ([`VsCode::recognizes`]) and answers in VS Code's
//!   protocol (the profile's `hooks_from`). Alone, `vscode` writes that
//!   file itself, in the same Copilot CLI format (without matchers, which
//!   VS Code ignores anyway). Never two hookc files there: VS Code (and
//!   Copilot CLI) would run both.
//! - Payload: `timestamp` (ISO string), `cwd`, `sessionId`, `hookEventName`
//!   (camelCase), `transcript_path`, then `tool_name`, `tool_input` (camelCase
//!   keys: `filePath`), `tool_use_id`; `prompt` on `UserPromptSubmit`.
//! - Exit 0: stdout is parsed as JSON. A `PreToolUse` decision is
//!   `hookSpecificOutput.permissionDecision` (`allow`, `deny`, `ask`, with
//!   `hookEventName` beside it; a flat `permissionDecision` is ignored).
//!   Exit 2 is a blocking error, shown with stderr. Any other status, a
//!   timeout (SIGTERM, then SIGKILL) or a command that cannot start is a
//!   warning, and the call goes ahead (some versions stopped instead).

use std::path::Path;

use indexmap::IndexMap;
use serde_json::{Value, json};

use super::payload::{ToolCall, text_of};
use super::{
    Answer, Harness, HookCommand, MachineCheck, Profile, common, configured, patch_files,
    string_at, windows,
};
use crate::emit::{EmitCx, json_text};
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, Tool, ToolKind};
use crate::profile::{LateHook, OnHookError};

pub struct VsCode;

const HOOKS: &str = ".github/hooks/hookc.json";

/// The refusal of a hook whose shim cannot be read: exit 2 blocks in VS
/// Code (stdout is not read then); the JSON is for Copilot CLI, which reads
/// the same folder and shows the model only stdout.
const UNREADABLE: &str = "echo '{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"hookc could not read its guard script in .hookc/vscode/, so the call was refused. Run hookc build in the project.\"}'; echo \"hookc could not read $hookc_shim, so the call was refused. Run hookc build in the project.\" >&2";

/// The shim's refusal: exit 2 is the one status every VS Code version reads
/// as blocking, whatever stdout holds.
const REFUSE: &str = "# VS Code reads exit status 2 as a blocking error and shows stderr; any other
# failing status is only a warning that lets the call through, so every
# failure ends here (stdout is not read then: the JSON is for Copilot CLI,
# which reads the same hooks file and shows the model only stdout).
# `on-error \"ask\"` refuses too.
refuse() {
  printf '%s\\n' '{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"hookc could not check this call, so it was refused. The hook output says why and how to fix it. Tell the user about this; do not try to get around the guard.\"}'
  printf '%s\\n' \"hookc could not check this call, so it was refused: $1. Fix: $2. Tell the user about this; do not try to get around the guard.\" >&2
  exit 2
}
";

static PROFILE: Profile = Profile {
    id: HarnessId::VsCode,
    name: "VS Code agent hooks",
    events: &[
        (Event::PreTool, "PreToolUse"),
        (Event::PostTool, "PostToolUse"),
        (Event::Prompt, "UserPromptSubmit"),
        (Event::Stop, "Stop"),
        (Event::SubagentStop, "SubagentStop"),
        (Event::SessionStart, "SessionStart"),
    ],
    more_events: &["PreCompact", "SubagentStart"],
    tools: &[
        (ToolKind::Shell, &["run_in_terminal"]),
        (ToolKind::Read, &["read_file"]),
        (ToolKind::Write, &["create_file"]),
        (
            ToolKind::Edit,
            &[
                "replace_string_in_file",
                "multi_replace_string_in_file",
                "insert_edit_into_file",
                "apply_patch",
                "edit_notebook_file",
            ],
        ),
        (ToolKind::WebFetch, &["fetch_webpage"]),
    ],
    can_block: &[
        Event::PreTool,
        Event::PostTool,
        Event::Prompt,
        Event::Stop,
        Event::SubagentStop,
    ],
    honours_ask: &[Event::PreTool],
    can_rewrite: false,
    options: &[],
    todo: &[
        "install hookc on every machine that runs VS Code's agent in this repo (or set HOOKC_BIN)",
        "VS Code's hooks are from its documentation and source only: ask the agent to run a command the policy denies, and check that it is refused",
    ],
    // VS Code's hooks are read from Copilot CLI's folder; lint checks them
    // as Copilot's (VS Code reads both formats there).
    files: &[],
    json: None,
    flavour: None,
    mcp_names: crate::profile::no_mcp_names,
    refusal: Some(REFUSE),
    on_hook_error: OnHookError::Proceeds,
    own_timeout: None,
    late_hook: LateHook::Proceeds,
    // Where VS Code keeps the agent's settings; a lone launch.json or
    // extensions.json is an editor's, not a sign of its agent.
    hints: &[".vscode/settings.json"],
    protected: &[
        ".github/hooks",
        ".claude/settings.json",
        ".claude/settings.local.json",
        "~/.copilot/hooks",
        "~/.claude/settings.json",
        ".vscode/settings.json",
        "~/.config/Code/User/settings.json",
        "$XDG_CONFIG_HOME/Code/User/settings.json",
        "$COPILOT_HOME/hooks",
        "$CLAUDE_CONFIG_DIR/settings.json",
        "~/Library/Application Support/Code/User/settings.json",
    ],
    protected_examples: &[".github/hooks/hookc.json", ".vscode/settings.json"],
    settings_commands: &[],
    hooks_from: &[HarnessId::Copilot],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::Unknown,
    hook_vars: None,
};

impl Harness for VsCode {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn machine_checks(&self, _root: &Path, _home: Option<&Path>) -> Vec<MachineCheck> {
        vec![
            MachineCheck::note(
                format!(
                    "{}: built from VS Code's documentation and source; no run has checked them",
                    PROFILE.name
                ),
                "ask the agent to run a command the policy denies, and check that it is refused",
            ),
            MachineCheck::note(
                "VS Code runs workspace hooks only while hooks are enabled (a preview; an organization can turn them off) and `.github/hooks` is in `chat.hookFilesLocations`",
                "check the \"GitHub Copilot Chat Hooks\" output channel for hookc's hook after the first call",
            ),
        ]
    }

    fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        common::warn_unsupported_events(policy, &PROFILE, cx);
        common::warn_decisions(
            policy,
            &PROFILE,
            cx,
            &|event, decision| match (event, decision) {
                (
                    Event::Prompt | Event::Stop | Event::SubagentStop | Event::PostTool,
                    Decision::Context,
                ) => Some(
                    "VS Code takes added context only before a tool and at session start; the call goes ahead without it",
                ),
                _ => None,
            },
        );
        // With Copilot CLI targeted, its `.github/hooks/hookc.json` is the
        // file VS Code runs: a second one would run every hook twice. The
        // guards VS Code cannot see are warned about all the same: VS Code
        // decodes the calls itself, whichever file runs the hook.
        let beside_copilot = policy.targets.contains(&HarnessId::Copilot);
        // Alone, `vscode` writes the file in Copilot CLI's format too, which
        // VS Code documents reading (event names mapped one to one), so that
        // Copilot CLI, which reads the same folder, never meets a format it
        // does not know.
        let copilot = super::get(HarnessId::Copilot).map(|h| h.profile());
        let mut hooks: IndexMap<String, Value> = IndexMap::new();
        for &(event, native) in PROFILE.events {
            let Some(file_event) = copilot.and_then(|p| p.event_name(event)) else {
                continue;
            };
            if common::route(policy, event, &PROFILE, cx, &matcher_names).is_none()
                || beside_copilot
            {
                continue;
            }
            let script = format!(".hookc/vscode/{}.sh", event.word());
            let on_error = policy.on_error_for(event);
            hooks.insert(
                file_event.to_owned(),
                json!([{
                    "type": "command",
                    "bash": common::source_shim_refusing(&format!("\"$PWD\"/{script}"), UNREADABLE),
                    "powershell": windows::powershell(
                        HarnessId::VsCode,
                        event,
                        windows::Project::Walk,
                        "[Console]::Error.WriteLine($r); exit 2",
                        &policy.install_command(),
                    ),
                    "timeoutSec": policy.timeout,
                }]),
            );
            cx.shim(policy, &PROFILE, event, native, on_error);
        }
        if !hooks.is_empty() {
            cx.whole(
                HOOKS,
                json_text(&json!({ "version": 1, "hooks": hooks })),
                false,
            );
        }
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Guarded(
            "the `powershell` command runs hookc (VS Code starts it with `powershell.exe -Command`)",
        )
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        if !payload.is_object() {
            return Err("the payload is not a JSON object".to_owned());
        }
        let mut call = Call {
            event: Some(event),
            root: common::payload_cwd(payload).filter(|d| !d.is_empty()),
            home: std::env::var("HOME").ok(),
            ..Call::default()
        };
        match event {
            Event::PreTool | Event::PostTool => {
                let (name, input) = common::tool_and_input(payload)?;
                let kind = PROFILE.tool_kind(name);
                match (kind, name) {
                    (Some(ToolKind::Shell), _) => {
                        call.command = Some(string_at(input, "/command")?.to_owned());
                    }
                    (_, "multi_replace_string_in_file") => {
                        let files = input
                            .get("replacements")
                            .and_then(Value::as_array)
                            .ok_or("the tool input has no `replacements` list")?;
                        for f in files {
                            call.paths.push(string_at(f, "/filePath")?.to_owned());
                        }
                        if call.paths.is_empty() {
                            return Err("the tool input names no file".to_owned());
                        }
                    }
                    (_, "apply_patch") => {
                        let files = patch_files(string_at(input, "/input")?);
                        call.paths
                            .extend(files.added.into_iter().chain(files.changed));
                        if call.paths.is_empty() {
                            return Err("the patch names no file".to_owned());
                        }
                    }
                    (Some(ToolKind::Read | ToolKind::Write | ToolKind::Edit), _) => {
                        call.paths.push(string_at(input, "/filePath")?.to_owned());
                    }
                    _ => {}
                }
                if call.command.is_none() {
                    call.text = Some(input.to_string());
                }
                call.tool = Some(CallTool {
                    kind,
                    native: name.to_owned(),
                    ..CallTool::default()
                });
            }
            Event::Prompt => call.text = Some(string_at(payload, "/prompt")?.to_owned()),
            Event::Stop | Event::SubagentStop => {}
            Event::SessionStart => {
                call.text = payload
                    .get("source")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
            }
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
        let native = PROFILE.event_name(event).unwrap_or("PreToolUse");
        let reason = verdict.reason();
        let mut out = serde_json::Map::new();
        match (event, verdict.decision) {
            (Event::Prompt, d) if d.refuses() => {
                // The prompt hook has only the common output; exit 2 blocks it.
                return Answer::exit_2(reason);
            }
            (Event::PreTool, Decision::Context) | (Event::SessionStart, Decision::Context) => {
                out.insert(
                    "hookSpecificOutput".into(),
                    json!({ "hookEventName": native, "additionalContext": reason }),
                );
            }
            (Event::PreTool, decision) => {
                out.insert(
                    "hookSpecificOutput".into(),
                    json!({
                        "hookEventName": native,
                        "permissionDecision": decision.word(),
                        "permissionDecisionReason": reason,
                    }),
                );
            }
            (_, d) if d.refuses() => {
                // `Stop` documents its decision inside `hookSpecificOutput`,
                // `SubagentStop` and `PostToolUse` at the top: both are written.
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), json!(reason));
                out.insert(
                    "hookSpecificOutput".into(),
                    json!({ "hookEventName": native, "decision": "block", "reason": reason }),
                );
            }
            _ => {}
        }
        if let Some(message) = verdict.message() {
            out.insert("systemMessage".into(), json!(message));
        }
        if out.is_empty() {
            return Answer::default();
        }
        Answer::print(Value::Object(out))
    }

    fn recognizes(&self, payload: &Value) -> bool {
        shaped(payload)
    }

    fn outcome(&self, _event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{json_object, str_at, text};
        if o.timed_out || o.exit.is_none() {
            return Outcome::proceeds(
                "a timeout or a killed hook is a warning: the call goes ahead (documented for other exit codes)",
            );
        }
        if o.exit == Some(2) {
            return Outcome::blocks(
                text(&o.stderr),
                "exit 2 is a blocking error: processing stops and stderr is shown (documented)",
            );
        }
        if o.exit != Some(0) {
            return Outcome::proceeds(
                "any status but 0 and 2 is a non-blocking warning: the call goes ahead (documented)",
            )
            .user(text(&o.stderr));
        }
        let Some(j) = json_object(&o.stdout) else {
            return Outcome::proceeds("exit 0 without JSON: no decision");
        };
        let user = str_at(&j, "/systemMessage");
        let specific = j.get("hookSpecificOutput");
        let reason = str_at(&j, "/hookSpecificOutput/permissionDecisionReason")
            .or_else(|| str_at(&j, "/reason"))
            .or_else(|| str_at(&j, "/hookSpecificOutput/reason"));
        if j.get("continue") == Some(&json!(false)) {
            return Outcome::blocks(
                str_at(&j, "/stopReason"),
                "`continue: false` stops the session (documented)",
            )
            .user(user);
        }
        match specific
            .and_then(|s| s.get("permissionDecision"))
            .and_then(Value::as_str)
        {
            Some("deny") => {
                return Outcome::blocks(
                    reason,
                    "hookSpecificOutput.permissionDecision deny (documented)",
                )
                .user(user);
            }
            Some("ask") => {
                return Outcome::asks(
                    reason,
                    "hookSpecificOutput.permissionDecision ask (documented)",
                );
            }
            _ => {}
        }
        let block = str_at(&j, "/decision").as_deref() == Some("block")
            || str_at(&j, "/hookSpecificOutput/decision").as_deref() == Some("block");
        if block {
            return Outcome::blocks(reason, "decision block (documented)").user(user);
        }
        Outcome::proceeds("exit 0 with no refusal in the JSON")
            .model(str_at(&j, "/hookSpecificOutput/additionalContext"))
            .user(user)
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let root_s = root.to_string_lossy();
        let mut v = json!({
            "timestamp": "2026-12-01T10:00:00.000Z",
            "cwd": root_s,
            "sessionId": "vscode-chat-session://local/s1",
            "hookEventName": PROFILE.event_name(event)?,
            "transcript_path": "/tmp/transcript.json",
        });
        let o = v.as_object_mut()?;
        if event.has_tools() {
            let t = ToolCall::of(&PROFILE, call, root)?;
            let input = match t.kind {
                ToolKind::Shell => json!({
                    "command": t.command,
                    "explanation": "run the command",
                    "isBackground": false,
                }),
                ToolKind::WebFetch => return None,
                _ => t.file_input("filePath"),
            };
            o.insert("tool_name".into(), json!(t.native));
            o.insert("tool_input".into(), input);
            o.insert("tool_use_id".into(), json!("tool-1"));
            if event == Event::PostTool {
                o.insert("tool_response".into(), json!(""));
            }
            return Some(v);
        }
        let text = text_of(event, call)?;
        match event {
            Event::Prompt => {
                o.insert("prompt".into(), json!(text));
            }
            Event::Stop | Event::SubagentStop => {
                o.insert("stop_hook_active".into(), json!(false));
            }
            Event::SessionStart => {
                o.insert("source".into(), json!("new"));
            }
            _ => return None,
        }
        Some(v)
    }

    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        // Copilot CLI's format (hookc's file, whichever target wrote it):
        // VS Code runs its `bash` command with bash, in the workspace root.
        let native = super::get(HarnessId::Copilot)?
            .profile()
            .event_name(event)?;
        Some(HookCommand {
            command: configured(root, HOOKS, &format!("/hooks/{native}/0/bash"))?,
            shell: "bash",
            env: Vec::new(),
        })
    }
}

/// Whether a payload has VS Code's shape: `hookEventName` and `sessionId` in
/// camelCase beside an ISO `timestamp`, and none of Claude's or Copilot
/// CLI's own keys (`hook_event_name`, `session_id`, `toolName`).
pub fn shaped(payload: &Value) -> bool {
    let Some(o) = payload.as_object() else {
        return false;
    };
    o.get("hookEventName").is_some_and(Value::is_string)
        && o.get("sessionId").is_some_and(Value::is_string)
        && o.get("timestamp").is_some_and(Value::is_string)
        && !["hook_event_name", "session_id", "toolName", "toolArgs"]
            .iter()
            .any(|k| o.contains_key(*k))
}

/// The tool names one guard tool stands for (VS Code ignores matchers, so
/// these only say whether the guard can run there).
fn matcher_names(tool: &Tool) -> Vec<String> {
    match tool {
        Tool::Known { tool } => PROFILE
            .tool_names(*tool)
            .iter()
            .map(|n| (*n).to_owned())
            .collect(),
        Tool::Native { harness, name } if *harness == HarnessId::VsCode => vec![name.clone()],
        Tool::Mcp { .. } | Tool::Native { .. } => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::{Harness, Observation};

    fn verdict(decision: Decision) -> Verdict {
        super::super::test_verdict(decision, "No.")
    }

    fn outcome_of(event: Event, a: Answer) -> crate::harness::Outcome {
        VsCode.outcome(
            event,
            &Observation {
                exit: Some(a.exit),
                stdout: a.stdout,
                stderr: a.stderr,
                ..Observation::default()
            },
        )
    }

    #[test]
    fn refusals_reach_the_model_in_vs_codes_channel() {
        for event in [
            Event::PreTool,
            Event::Prompt,
            Event::Stop,
            Event::SubagentStop,
        ] {
            let o = outcome_of(event, VsCode.answer(event, Some(&verdict(Decision::Deny))));
            assert!(!o.proceeds && !o.asks, "{event}: {o:?}");
            assert_eq!(o.model_reads.as_deref(), Some("No."), "{event}");
        }
        let a = VsCode.answer(Event::PreTool, Some(&verdict(Decision::Deny)));
        // A flat `permissionDecision` would be ignored: the decision must be
        // in `hookSpecificOutput`, beside the event's name.
        let v: Value = serde_json::from_str(&a.stdout).unwrap();
        assert_eq!(v["hookSpecificOutput"]["hookEventName"], "PreToolUse");
        assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
        let o = outcome_of(
            Event::PreTool,
            VsCode.answer(Event::PreTool, Some(&verdict(Decision::Ask))),
        );
        assert!(o.asks, "{o:?}");
        assert!(outcome_of(Event::PreTool, VsCode.answer(Event::PreTool, None)).proceeds);
    }

    #[test]
    fn its_payloads_are_told_apart_from_copilot_and_claude() {
        let root = Path::new("/r");
        let call = ExampleCall {
            tool: None,
            command: Some("git push -f".into()),
            path: None,
            text: None,
        };
        let p = VsCode.payload(Event::PreTool, &call, root).unwrap();
        assert!(shaped(&p), "{p}");
        let c = VsCode.decode_call(Event::PreTool, &p).unwrap();
        assert_eq!(c.command.as_deref(), Some("git push -f"));
        assert_eq!(c.root.as_deref(), Some("/r"));
        for other in [HarnessId::Copilot, HarnessId::Claude] {
            let h = crate::harness::get(other).unwrap();
            let theirs = h.payload(Event::PreTool, &call, root).unwrap();
            assert!(!shaped(&theirs), "{other}: {theirs}");
            assert!(!h.recognizes(&p), "{other} claims VS Code's payload");
        }
    }

    #[test]
    fn file_tools_name_their_files() {
        let call = |name: &str, input: Value| {
            VsCode.decode_call(
                Event::PreTool,
                &json!({"hookEventName": "PreToolUse", "sessionId": "s", "timestamp": "t",
                        "cwd": "/r", "tool_name": name, "tool_input": input}),
            )
        };
        let c = call(
            "create_file",
            json!({"filePath": "/r/.env", "content": "x"}),
        )
        .unwrap();
        assert_eq!(c.paths, vec!["/r/.env"]);
        let c = call(
            "multi_replace_string_in_file",
            json!({"replacements": [{"filePath": "/r/a"}, {"filePath": "/r/b"}]}),
        )
        .unwrap();
        assert_eq!(c.paths, vec!["/r/a", "/r/b"]);
        let c = call(
            "apply_patch",
            json!({"input": "*** Begin Patch\n*** Update File: /r/.env\n@@\n-a\n+b\n*** End Patch\n"}),
        )
        .unwrap();
        assert_eq!(c.paths, vec!["/r/.env"]);
        // A file tool without its file is refused, not let through.
        assert!(call("read_file", json!({})).is_err());
        assert!(call("run_in_terminal", json!({})).is_err());
    }

    #[test]
    fn failures_other_than_exit_2_let_the_call_through() {
        let o = |exit, timed_out| {
            VsCode.outcome(
                Event::PreTool,
                &Observation {
                    exit,
                    timed_out,
                    ..Observation::default()
                },
            )
        };
        assert!(o(Some(1), false).proceeds);
        assert!(o(None, true).proceeds);
        assert!(!o(Some(2), false).proceeds);
    }
}
