//! CodeBuddy Code (Tencent): hooks merged into `.codebuddy/settings.json`.
//!
//! Protocol facts this file relies on (read from the headless bundle of
//! `@tencent-ai/codebuddy-code` 2.117.0, as `@tencent-ai/agent-sdk` 0.3.201
//! ships it, and checked against a scripted model by the conformance suite;
//! the book's page lists them in full):
//! - CodeBuddy reads the `hooks` of `~/.codebuddy/settings.json`, then
//!   `.codebuddy/settings.json` and `.codebuddy/settings.local.json` of the
//!   folder it starts in (no walk up), and runs every matching hook at once.
//! - Commands run with the user's `$SHELL -c` (or `$CODEBUDDY_CODE_SHELL`),
//!   in CodeBuddy's folder, with `CODEBUDDY_PROJECT_DIR` set to it. The
//!   shell may be fish, so hookc's command is one word for `/bin/sh -c` in
//!   single quotes, which every shell reads alike.
//! - Claude-shaped answers: exit 2 refuses (the model reads stdout when
//!   there is any, else stderr); a JSON `permissionDecision: "deny"` refuses
//!   on any exit. Among the JSON answers of several hooks the last in order
//!   wins, and an `allow` there overrides both an exit 2 and the user's own
//!   deny rules, so hookc answers a refusal with both and never allows.
//!   `ask` stalls a `-p` run. Exit 1 lets the call through; a timeout, a
//!   crash and a shell that cannot start refuse. `timeout` is seconds.
//! - The hook runner takes a hook's answer on the process's `exit` event
//!   and then destroys its pipes, so output still unread is lost (see
//!   [`Harness::drops_output_at_exit`]).
//! - A hook's `updatedInput` runs in place of the call's input; the user's
//!   permission rules judge the input as the model wrote it (unless a
//!   hook's `allow` skips them): hookc's supervised calls rely on it.
//! - Matchers are unanchored JavaScript regexes over the tool's name; tools
//!   are Claude Code's (`Bash`, `PowerShell`, `Read`, `Write`, `Edit`, …),
//!   and MCP tools `mcp__<server>__<tool>`.

use std::path::Path;

use serde_json::{Value, json};

use super::common::{self};
use super::payload::{self, ToolCall};
use super::{Answer, Harness, HookCommand, MachineCheck, Profile, split_mcp, windows};
use crate::emit::EmitCx;
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, ToolKind};
use crate::profile::{
    Dialect, FileFormat, Flavour, HookFile, JsonSpec, LateHook, Matching, McpNames, OnHookError,
    PlainStdout, Unit,
};

pub struct CodeBuddy;

/// Hook entries hookc owns are recognised by this path in their command.
const MARKER: &str = "/.hookc/codebuddy/";
const SETTINGS: &str = ".codebuddy/settings.json";
const LOCAL: &str = ".codebuddy/settings.local.json";

static PROFILE: Profile = Profile {
    id: HarnessId::CodeBuddy,
    name: "CodeBuddy Code",
    events: &[
        (Event::PreTool, "PreToolUse"),
        (Event::PostTool, "PostToolUse"),
        (Event::Prompt, "UserPromptSubmit"),
        (Event::Stop, "Stop"),
        (Event::SubagentStop, "SubagentStop"),
        (Event::SessionStart, "SessionStart"),
    ],
    tools: &[
        (ToolKind::Shell, &["Bash", "PowerShell"]),
        (ToolKind::Read, &["Read", "Grep", "Glob"]),
        (ToolKind::Write, &["Write"]),
        (ToolKind::Edit, &["Edit", "MultiEdit", "NotebookEdit"]),
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
        "install hookc on every machine that runs CodeBuddy Code in this repo (or set HOOKC_BIN)",
        "start codebuddy in the project's root folder: it reads .codebuddy/settings.json from the folder it starts in only",
    ],
    more_events: &[
        "Notification",
        "PreCompact",
        "PostCompact",
        "SessionEnd",
        "PostToolUseFailure",
        "SubagentStart",
        "StopFailure",
        "PermissionRequest",
        "PermissionDenied",
        "WorktreeCreate",
        "WorktreeRemove",
        "ConfigChange",
        "InstructionsLoaded",
        "Elicitation",
        "ElicitationResult",
        "TaskCreated",
        "TaskCompleted",
        "TeammateIdle",
        "Setup",
        "FileChanged",
        "CwdChanged",
    ],
    files: &[HookFile {
        dir: ".codebuddy",
        names: &["settings.json"],
        format: FileFormat::HooksJson,
        in_project: true,
    }],
    json: Some(JsonSpec {
        dialect: Dialect {
            comments: true,
            trailing_commas: true,
            bom: false,
        },
        strict_root: None,
        version: None,
        groups: true,
        flat_ok: false,
        require_type: false,
        types: &["command", "prompt", "agent", "http"],
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
    refusal: Some(include_str!("../../templates/codebuddy/refuse.sh.hbs")),
    on_hook_error: OnHookError::Proceeds,
    own_timeout: None,
    late_hook: LateHook::Refuses,
    hints: &[".codebuddy/", "CODEBUDDY.md"],
    protected: &[SETTINGS, LOCAL, "~/.codebuddy/settings.json"],
    protected_examples: &[SETTINGS],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::ProjectRoot,
    hook_vars: Some(crate::profile::HookVars {
        set: &["CODEBUDDY_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
        complete: false,
    }),
};

/// A call run under hookc's run-time judge: exit 0 and
/// `hookSpecificOutput.updatedInput`, the call's input with `command`
/// changed to run it under `hookc exec`, and no `permissionDecision`.
/// CodeBuddy then judges the call with the user's permission rules on the
/// input as the model wrote it, and runs the changed one (2.117.0's
/// `needsApproval`, then `executeToolWithHooks`), so no rule of theirs is
/// lost. Refused where the policy asks (a `-p` run cannot), and where the
/// shell that runs CodeBuddy's commands is not a POSIX one:
/// fish reads backslashes inside single quotes, which would change the line.
fn supervised_answer(payload: &Value, verdict: &Verdict) -> Answer {
    let refuse = |why: &str| {
        CodeBuddy.answer(
            Event::PreTool,
            Some(&super::supervised_refused(verdict, why)),
        )
    };
    if verdict.decision != Decision::Supervise {
        return refuse(
            "(The policy wants the user to confirm it, and CodeBuddy Code cannot ask from a hook. Ask the user in the chat.)",
        );
    }
    // CodeBuddy's shell: `$CODEBUDDY_CODE_SHELL` (a path or a type such as
    // `bash`), else `$SHELL`, else `/bin/sh`; hooks run with its environment.
    let shell = ["CODEBUDDY_CODE_SHELL", "SHELL"]
        .iter()
        .find_map(|var| std::env::var_os(var).filter(|v| !v.is_empty()));
    let posix = shell.is_none_or(|shell| {
        let name = Path::new(&shell).file_name().unwrap_or_default();
        ["bash", "zsh", "sh", "dash", "ksh"]
            .iter()
            .any(|n| name == *n)
    });
    if !posix {
        return refuse(
            "(CodeBuddy Code runs commands with a shell that is not a POSIX shell ($CODEBUDDY_CODE_SHELL, else $SHELL), so hookc cannot hand the call to its run-time judge.)",
        );
    }
    let handover = match super::Handover::of(payload, verdict, Some("CODEBUDDY_PROJECT_DIR")) {
        Ok(handover) => handover,
        Err(refused) => return CodeBuddy.answer(Event::PreTool, Some(&refused)),
    };
    let out = json!({
        "systemMessage": handover.context,
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "updatedInput": handover.input,
        },
    });
    Answer::print(out)
}

/// The hook command for the shim of `event`: `/bin/sh -c` and one
/// single-quoted word (see [`super::letta`]'s), the shim found from
/// `$CODEBUDDY_PROJECT_DIR` by sh itself.
fn command(event: Event) -> String {
    common::sh_c_word(&common::source_shim(&format!(
        "\"$CODEBUDDY_PROJECT_DIR\"/.hookc/codebuddy/{}.sh",
        event.word()
    )))
}

impl Harness for CodeBuddy {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// CodeBuddy's hook runner listens for the process's `exit`, then
    /// destroys its stdout and stderr: output not read by then is lost, and
    /// an exit 2 with no output reaches the model as a bare "Blocked by
    /// PreToolUse hook".
    fn drops_output_at_exit(&self) -> bool {
        true
    }

    fn machine_checks(&self, root: &Path, _home: Option<&Path>) -> Vec<MachineCheck> {
        let name = PROFILE.name;
        let mut checks = Vec::new();
        // Another hook's JSON `allow` later in the order outvotes hookc's
        // refusal: the local file's hooks run after the project's.
        if let Some(local) = common::read_json(Some(root.join(LOCAL)))
            && local["hooks"]["PreToolUse"]
                .as_array()
                .is_some_and(|groups| !groups.is_empty())
        {
            checks.push(MachineCheck::fail(
                format!("{name}: {LOCAL} has PreToolUse hooks of its own; an `allow` one of them answers outvotes hookc's refusal"),
                format!("move those hooks into {SETTINGS}, before hookc's, or make sure they never answer `allow`"),
            ));
        }
        checks.push(MachineCheck::note(
            format!("{name} reads the project's hooks only when started in the project's root folder, and does not honour disableAllHooks"),
            "start codebuddy in the project's root folder",
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
                    "CodeBuddy Code waits forever on a hook's `ask` in a `-p` run; hookc refuses the call and tells the model to ask the user instead",
                ),
                (_, Decision::Context) => Some(
                    "how CodeBuddy Code reads added context from a hook is not established; the call goes ahead without it",
                ),
                (Event::PostTool, d) if d.refuses() => Some(
                    "CodeBuddy Code cannot refuse a tool's result, and whether it passes a post-tool hook's reason on is not established",
                ),
                _ => None,
            },
        );
        let entries = common::grouped_entries(
            &PROFILE,
            cx,
            &|cx, event| {
                common::route(policy, event, &PROFILE, cx, &|tool| {
                    super::mcp_underscore_names(&PROFILE, tool)
                })
            },
            &mut |cx, event, native| {
                cx.shim(policy, &PROFILE, event, native, policy.on_error_for(event));
                json!({"type": "command", "command": command(event), "timeout": policy.timeout})
            },
        );
        cx.hook_entries(SETTINGS, entries, Vec::new(), MARKER);
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Partly {
            what: "CodeBuddy Code runs hook commands in Git Bash on Windows and falls back to PowerShell without it, where hookc's POSIX command fails and the call goes ahead",
            fix: "install Git for Windows on every machine that runs CodeBuddy Code, or run it in WSL",
        }
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        let mut call = common::new_call(
            event,
            payload,
            "CODEBUDDY_PROJECT_DIR",
            common::payload_cwd(payload),
        )?;
        match event {
            Event::PreTool | Event::PostTool => {
                let (name, input) = common::tool_and_input(payload)?;
                let kind = PROFILE.tool_kind(name);
                common::claude_shaped_input(&mut call, name, kind, input)?;
                call.tool = Some(CallTool {
                    kind,
                    mcp: split_mcp(name),
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

    fn answer(&self, event: Event, verdict: Option<&Verdict>) -> Answer {
        let Some(verdict) = verdict else {
            return Answer::default();
        };
        if verdict.decision == Decision::Rewrite {
            return self.answer(event, Some(&super::rewrite_as_refusal(verdict)));
        }
        let reason = verdict.reason();
        // Both channels: exit 2 for CodeBuddy's status check, and the JSON
        // deny for its merge of the hooks' JSON, where the last answer wins.
        let refuse = |text: String| {
            let native = PROFILE.event_name(event).unwrap_or("PreToolUse");
            let json = if event == Event::PreTool {
                json!({"hookSpecificOutput": {
                    "hookEventName": native,
                    "permissionDecision": "deny",
                    "permissionDecisionReason": text,
                }})
            } else {
                json!({"decision": "block", "reason": text})
            };
            Answer {
                stdout: format!("{json}\n"),
                stderr: format!("{text}\n"),
                exit: 2,
            }
        };
        match verdict.decision {
            Decision::Deny | Decision::Block => refuse(reason),
            // A supervised call comes here only where it cannot be handed
            // over (see `answer_call`): it is refused.
            Decision::Supervise => refuse(
                super::supervised_refused(
                    verdict,
                    "(hookc could not hand it to its run-time judge.)",
                )
                .reason(),
            ),
            Decision::Ask => refuse(format!(
                "{reason}\n(The policy wants the user to confirm this call, and CodeBuddy Code cannot ask from a hook, so hookc refused it. Ask the user in the chat; if they agree, they can run it themselves.)"
            )),
            // No explicit allow: it would override the user's own deny rules.
            _ => Answer::default(),
        }
    }

    fn supervises(&self) -> bool {
        true
    }

    fn answer_call(&self, event: Event, payload: &Value, verdict: Option<&Verdict>) -> Answer {
        match verdict {
            Some(v) if super::hands_over(event, v) => supervised_answer(payload, v),
            _ => self.answer(event, verdict),
        }
    }

    fn outcome(&self, _event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{first_line, json_object, str_at, text};
        if o.timed_out || o.exit.is_none() {
            return Outcome::blocks(
                Some("Blocked by PreToolUse hook".to_owned()),
                "a timeout or a killed hook refuses the call",
            );
        }
        let json = text(&o.stdout)
            .filter(|t| t.starts_with('{'))
            .and_then(|t| json_object(&t));
        if let Some(j) = &json {
            match str_at(j, "/hookSpecificOutput/permissionDecision").as_deref() {
                Some("deny") => {
                    return Outcome::blocks(
                        str_at(j, "/hookSpecificOutput/permissionDecisionReason"),
                        "JSON on stdout decides (on any exit): permissionDecision deny",
                    );
                }
                Some("allow") => {
                    return Outcome::proceeds(
                        "JSON permissionDecision allow lets the call through, whatever the exit status",
                    );
                }
                _ => {}
            }
            if j.get("decision").and_then(Value::as_str) == Some("block")
                || j.get("continue") == Some(&json!(false))
            {
                return Outcome::blocks(
                    str_at(j, "/reason").or_else(|| str_at(j, "/stopReason")),
                    "JSON on stdout decides: decision block (or continue false)",
                );
            }
        }
        match o.exit {
            Some(2) => Outcome::blocks(
                text(&o.stdout).or_else(|| text(&o.stderr)),
                "exit 2 blocks; the model reads stdout, or stderr when stdout is empty",
            ),
            Some(0) => match json
                .as_ref()
                .and_then(|j| j.pointer("/hookSpecificOutput/updatedInput"))
            {
                Some(input) if input.is_object() => Outcome::proceeds(
                    "exit 0 with `updatedInput` and no decision: the user's rules judge the call as written, and the changed input runs",
                )
                .runs(Some(input.clone())),
                _ => Outcome::proceeds("exit 0 without a JSON deny: the call proceeds"),
            },
            _ => Outcome::proceeds(
                "exit 1 (or any code but 0 and 2) is a warning for the user: the call proceeds",
            )
            .user(first_line(&o.stderr)),
        }
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let mut v = json!({
            "session_id": "s1",
            "transcript_path": "/tmp/.codebuddy/projects/p/s1.jsonl",
            "cwd": root.to_string_lossy(),
            "hook_event_name": PROFILE.event_name(event)?,
            "agent_type": "cli",
            "permission_mode": "bypassPermissions",
            "client": "CLI",
            "version": "2.117.0",
        });
        let o = v.as_object_mut()?;
        if event.has_tools() {
            let t = ToolCall::of(&PROFILE, call, root)?;
            o.insert("tool_name".into(), json!(t.native));
            o.insert("tool_input".into(), t.input("file_path"));
            o.insert("tool_use_id".into(), json!("call_1"));
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
            ("CODEBUDDY_PROJECT_DIR", dir.clone()),
            ("CLAUDE_PROJECT_DIR", dir),
        ];
        super::grouped_hook_command(root, SETTINGS, PROFILE.event_name(event)?, "/bin/bash", env)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::Observation;

    fn verdict(decision: Decision) -> Verdict {
        super::super::test_verdict(decision, "Do not force-push.")
    }

    fn observed(exit: Option<i32>, stdout: &str) -> super::super::Outcome {
        CodeBuddy.outcome(
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
    fn refusals_are_a_json_deny_and_exit_2_and_nothing_allows() {
        for decision in [Decision::Deny, Decision::Block, Decision::Ask] {
            let a = CodeBuddy.answer(Event::PreTool, Some(&verdict(decision)));
            assert_eq!(a.exit, 2, "{decision:?}");
            let json: Value = serde_json::from_str(a.stdout.trim()).unwrap();
            assert_eq!(json["hookSpecificOutput"]["permissionDecision"], "deny");
            let o = observed(Some(a.exit), &a.stdout);
            assert!(!o.proceeds);
            assert!(o.model_reads.unwrap().contains("Do not force-push."));
        }
        assert_eq!(
            CodeBuddy.answer(Event::PreTool, Some(&verdict(Decision::Allow))),
            Answer::default()
        );
    }

    #[test]
    fn what_codebuddy_lets_through() {
        assert!(observed(Some(1), "").proceeds);
        assert!(observed(Some(127), "").proceeds);
        assert!(observed(Some(0), "not json").proceeds);
        assert!(!observed(None, "").proceeds, "a timeout refuses");
        assert!(
            !observed(
                Some(1),
                r#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#
            )
            .proceeds
        );
        // A JSON allow outvotes the exit status.
        assert!(
            observed(
                Some(2),
                r#"{"hookSpecificOutput":{"permissionDecision":"allow"}}"#
            )
            .proceeds
        );
    }

    #[test]
    fn the_command_finds_the_shim_from_the_project_variable() {
        let c = command(Event::PreTool);
        assert!(c.starts_with("/bin/sh -c '") && c.ends_with('\''), "{c}");
        assert!(
            c.contains("\"$CODEBUDDY_PROJECT_DIR\"/.hookc/codebuddy/pre-tool.sh"),
            "{c}"
        );
    }
}
