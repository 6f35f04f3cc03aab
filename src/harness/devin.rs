//! Devin CLI (and Devin Local, the agent of Devin Desktop, which is the
//! same harness): hooks merged into the `hooks` of `.devin/config.json`.
//!
//! Protocol facts this file relies on (Devin's documentation, and payloads
//! a third party captured from Devin CLI 3000.6.14; Devin installs only
//! from its own site, so nothing here has run it. The book's page lists
//! the sources):
//! - Devin reads Claude Code's hook format from `.devin/hooks.v1.json` (the
//!   bare event map), the `hooks` of `.devin/config.json`,
//!   `.devin/config.local.json` and `~/.config/devin/config.json`, and
//!   Claude Code's own files; it runs them all, the same command twice if
//!   two files name it. hookc merges into `config.json`, which keeps a
//!   user's other settings and comments.
//! - Exit 2 refuses with stderr as the reason; a JSON `decision` of
//!   `block` or `deny` on stdout refuses too (and, at `Stop`, makes the
//!   agent go on). Any other status is logged and lets the call through;
//!   what a timeout does is not documented, so it counts as letting it
//!   through. `timeout` is seconds.
//! - Matchers are unanchored regexes over the tool's name (`write` also
//!   matches `todo_write`). Tools are lower-case: `exec` (the shell, its
//!   line in `command`), `read`, `write`, `edit` (`file_path`), `grep`
//!   (`path`, `glob_pattern`), `glob` (`path`, `pattern`), `notebook_read`,
//!   `notebook_edit` (`notebook_path`), `webfetch`, MCP tools as
//!   `mcp__<server>__<tool>`.
//! - The payload has no `cwd`: hooks run with `DEVIN_PROJECT_DIR` (and
//!   `CLAUDE_PROJECT_DIR`) naming the project.

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

pub struct Devin;

/// Hook entries hookc owns are recognised by this path in their command.
const MARKER: &str = "/.hookc/devin/";
const CONFIG: &str = ".devin/config.json";

/// Devin's tools by hookc's kinds: the profile's, and the ones Claude Code's
/// hooks answer for Devin (it runs `.claude/settings.json` too).
pub(super) const TOOLS: &[(ToolKind, &[&str])] = &[
    (ToolKind::Shell, &["exec"]),
    // Searching files reads them: a `read` path guard covers grep and glob.
    (ToolKind::Read, &["read", "grep", "glob", "notebook_read"]),
    (ToolKind::Write, &["write"]),
    (ToolKind::Edit, &["edit", "notebook_edit"]),
    (ToolKind::WebFetch, &["webfetch"]),
];

/// What the user should do on Windows, where these hooks cannot check a call.
const WINDOWS_FIX: &str = "run Devin CLI in WSL on Windows machines";

static PROFILE: Profile = Profile {
    id: HarnessId::Devin,
    name: "Devin CLI",
    events: &[
        (Event::PreTool, "PreToolUse"),
        (Event::PostTool, "PostToolUse"),
        (Event::Prompt, "UserPromptSubmit"),
        (Event::Stop, "Stop"),
        (Event::SessionStart, "SessionStart"),
    ],
    tools: TOOLS,
    can_block: &[Event::PreTool, Event::Prompt, Event::Stop],
    honours_ask: &[],
    can_rewrite: false,
    options: &[],
    todo: &[
        "install hookc on every machine that runs Devin CLI or Devin Desktop in this repo (or set HOOKC_BIN)",
        "turn Restricted Mode off for the workspace in Devin Desktop: it runs no hooks there",
        "know that Devin's exec shell keeps its folder, variables and functions from one call to the next, and hookc judges each command line alone (the Devin CLI page of the book)",
    ],
    more_events: &["PermissionRequest", "SessionEnd", "PostCompaction"],
    files: &[HookFile {
        dir: ".devin",
        names: &["config.json", "config.local.json"],
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
        types: &["command", "prompt"],
        command_keys: &["command"],
        timeout_keys: &["timeout"],
        unit: Unit::Seconds,
        matching: Matching::Unanchored,
        star_is_all: false,
        matcher_aliases: &[],
        tools_closed: false,
        matcher_subject: crate::profile::claude_shaped_matchers,
        events_any_case: false,
        strict_keys: None,
        stdout_is_reply: false,
        plain_stdout: |_| PlainStdout::Unknown,
    }),
    // Not established; hookc's matchers are plain names, alike in every
    // regex language.
    flavour: Some(Flavour::EcmaScriptOrRust),
    mcp_names: |_| Some(McpNames::DoubleUnderscore),
    refusal: Some(include_str!("../../templates/devin/refuse.sh.hbs")),
    on_hook_error: OnHookError::Proceeds,
    own_timeout: None,
    late_hook: LateHook::Proceeds,
    hints: &[".devin/"],
    protected: &[
        CONFIG,
        ".devin/config.local.json",
        ".devin/hooks.v1.json",
        "~/.config/devin/config.json",
        // Devin runs Claude Code's hooks too, and reads its switches there.
        ".claude/settings.json",
        ".claude/settings.local.json",
    ],
    protected_examples: &[CONFIG, ".devin/hooks.v1.json"],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::Session {
        root: "\"$DEVIN_PROJECT_DIR\"",
        sure: true,
    },
    hook_vars: Some(crate::profile::HookVars {
        set: &["DEVIN_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
        complete: false,
    }),
};

impl Harness for Devin {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn machine_checks(&self, _root: &Path, _home: Option<&Path>) -> Vec<MachineCheck> {
        vec![MachineCheck::note(
            format!(
                "{} runs no hooks in a Devin Desktop workspace in Restricted Mode, and none in Devin's cloud sessions",
                PROFILE.name
            ),
            "trust the workspace in Devin Desktop; guard cloud sessions another way",
        )]
    }

    fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        common::warn_unsupported_events(policy, &PROFILE, cx);
        common::warn_decisions(
            policy,
            &PROFILE,
            cx,
            &|event, decision| match (event, decision) {
                (Event::PreTool, Decision::Ask) => Some(
                    "what Devin CLI does with a hook's `ask` is not established; hookc refuses the call and tells the model to ask the user instead",
                ),
                (_, Decision::Context) => Some(
                    "how Devin CLI passes a hook's added context on is not established; the call goes ahead without it",
                ),
                (Event::PostTool, d) if d.refuses() => Some(
                    "Devin CLI cannot refuse a tool's result, and whether it passes a post-tool hook's reason on is not established",
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
                json!({
                    "type": "command",
                    "command": common::refusing_on_windows(
                        event,
                        common::source_shim(&format!(
                            "\"$DEVIN_PROJECT_DIR\"/.hookc/devin/{}.sh",
                            event.word()
                        )),
                        &PROFILE,
                        WINDOWS_FIX,
                    ),
                    "timeout": policy.timeout,
                })
            },
        );
        cx.hook_entries(CONFIG, entries, Vec::new(), MARKER);
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Unguarded {
            what: "which shell Devin CLI runs hook commands in on Windows is not documented; in PowerShell or cmd.exe hookc's command refuses every call (its first part is a refusal there), and where no shell can start it a hook that fails lets the call through",
            fix: WINDOWS_FIX,
        }
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        // No `cwd` in Devin's payload: the project is the session's folder.
        let mut call = common::new_call(event, payload, "DEVIN_PROJECT_DIR", None)?;
        match event {
            Event::PreTool | Event::PostTool => {
                let (name, input) = common::tool_and_input(payload)?;
                let kind = PROFILE.tool_kind(name);
                tool_input(&mut call, name, kind, input)?;
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
        match common::refusal_reason(verdict, "a Devin CLI") {
            // At a stop, the JSON block is what makes the agent go on.
            Some(reason) if event == Event::Stop => Answer {
                stdout: json!({"decision": "block", "reason": reason}).to_string(),
                ..Answer::default()
            },
            Some(reason) => Answer::exit_2(reason),
            None => Answer::default(),
        }
    }

    fn outcome(&self, _event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{first_line, json_object, str_at, text};
        if o.timed_out {
            return Outcome::proceeds(
                "what a timeout does is not documented: counted as letting the call through",
            );
        }
        match o.exit {
            Some(2) => {
                return Outcome::blocks(text(&o.stderr), "exit 2 refuses; the model reads stderr");
            }
            Some(0) => {}
            _ => {
                return Outcome::proceeds(
                    "any status but 0 and 2 is logged as an error and lets the call through",
                )
                .user(first_line(&o.stderr));
            }
        }
        let Some(j) = text(&o.stdout).and_then(|out| json_object(&out)) else {
            return Outcome::proceeds("exit 0 without a JSON decision: the call proceeds");
        };
        let decision = str_at(&j, "/decision")
            .or_else(|| str_at(&j, "/hookSpecificOutput/permissionDecision"));
        match decision.as_deref() {
            Some("block" | "deny") => Outcome::blocks(
                str_at(&j, "/reason")
                    .or_else(|| str_at(&j, "/hookSpecificOutput/permissionDecisionReason")),
                "a JSON `block` or `deny` refuses",
            ),
            _ => Outcome::proceeds("exit 0 without a JSON refusal: the call proceeds"),
        }
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let mut v = json!({
            "session_id": "bramble-scorpion",
            "hook_event_name": PROFILE.event_name(event)?,
        });
        let o = v.as_object_mut()?;
        if event != Event::SessionStart {
            o.insert(
                "prompt_id".into(),
                json!("7b0f4c1e-2d7a-4c55-9a51-3f1f0e6c2b10"),
            );
        }
        if event.has_tools() {
            let t = ToolCall::of(&PROFILE, call, root)?;
            o.insert("tool_use_id".into(), json!("functions.exec:1"));
            o.insert("tool_name".into(), json!(t.native));
            let mut input = t.input("file_path");
            if t.native == "exec" {
                input["shell_id"] = json!("main");
            }
            o.insert("tool_input".into(), input);
            if event == Event::PostTool {
                o.insert(
                    "tool_response".into(),
                    json!({"success": true, "output": "", "error": null}),
                );
            }
        }
        payload::claude_shaped_fields(o, event, call, "general")?;
        Some(v)
    }

    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        let dir = root.to_string_lossy().into_owned();
        let env = vec![
            ("DEVIN_PROJECT_DIR", dir.clone()),
            ("CLAUDE_PROJECT_DIR", dir),
        ];
        super::grouped_hook_command(root, CONFIG, PROFILE.event_name(event)?, "/bin/sh", env)
    }
}

/// What a Devin tool call touches, from its `tool_input`, into `call`:
/// the shell's line, the file a file tool names, the folder and filter of
/// a search. Claude Code's decoder uses it for Devin's calls too.
pub(super) fn tool_input(
    call: &mut Call,
    name: &str,
    kind: Option<ToolKind>,
    input: &Value,
) -> Result<(), String> {
    match (kind, name) {
        (Some(ToolKind::Shell), _) => {
            call.command = Some(super::string_at(input, "/command")?.to_owned());
        }
        (Some(ToolKind::Read), "grep" | "glob") => {
            let (filter, glob_tool) = if name == "glob" {
                ("/pattern", true)
            } else {
                ("/glob_pattern", false)
            };
            crate::eval::search_call(call, input, "/path", filter, glob_tool);
            call.text = Some(input.to_string());
        }
        (Some(ToolKind::Read | ToolKind::Write | ToolKind::Edit), _) => {
            let key = if name.starts_with("notebook_") {
                "/notebook_path"
            } else {
                "/file_path"
            };
            call.paths.push(super::string_at(input, key)?.to_owned());
            call.text = Some(input.to_string());
        }
        _ => call.text = Some(input.to_string()),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::Observation;

    fn verdict(decision: Decision) -> Verdict {
        super::super::test_verdict(decision, "Do not force-push.")
    }

    fn observed(exit: Option<i32>, stdout: &str) -> super::super::Outcome {
        Devin.outcome(
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
    fn refusals_are_exit_2_with_the_reason_on_stderr_and_a_stop_is_a_json_block() {
        for decision in [Decision::Deny, Decision::Block, Decision::Ask] {
            let a = Devin.answer(Event::PreTool, Some(&verdict(decision)));
            assert_eq!((a.exit, a.stdout.as_str()), (2, ""), "{decision:?}");
            assert!(a.stderr.contains("Do not force-push."));
            assert!(!observed(Some(a.exit), &a.stdout).proceeds);
        }
        let stop = Devin.answer(Event::Stop, Some(&verdict(Decision::Block)));
        assert_eq!(stop.exit, 0);
        let o = observed(Some(0), &stop.stdout);
        assert!(!o.proceeds);
        assert_eq!(o.model_reads.as_deref(), Some("Do not force-push."));
        assert_eq!(
            Devin.answer(Event::PreTool, Some(&verdict(Decision::Allow))),
            Answer::default()
        );
    }

    #[test]
    fn what_devin_lets_through() {
        // Exit 1 is an error Devin logs, not a refusal.
        assert!(observed(Some(1), r#"{"decision":"block"}"#).proceeds);
        assert!(observed(Some(0), "looks fine").proceeds);
        assert!(!observed(Some(0), r#"{"decision":"deny","reason":"x"}"#).proceeds);
        assert!(
            !observed(
                Some(0),
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#
            )
            .proceeds
        );
        assert!(observed(None, "").proceeds);
    }

    #[test]
    fn file_tools_name_their_file_and_searches_their_folder() {
        let decode = |tool: &str, input: Value| {
            Devin
                .decode_call(
                    Event::PreTool,
                    &json!({"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input}),
                )
                .unwrap()
        };
        assert_eq!(
            decode(
                "edit",
                json!({"file_path": ".env", "old_string": "a", "new_string": "b"})
            )
            .paths,
            [".env"]
        );
        assert_eq!(
            decode("notebook_edit", json!({"notebook_path": "n.ipynb"})).paths,
            ["n.ipynb"]
        );
        let grep = decode(
            "grep",
            json!({"pattern": "key", "path": "config", "glob_pattern": "*.env"}),
        );
        assert_eq!(grep.paths, ["config"]);
        assert_eq!(grep.globs[0].0, "config/**/*.env");
        assert_eq!(
            decode("exec", json!({"command": "ls", "shell_id": "main"}))
                .command
                .as_deref(),
            Some("ls")
        );
        // A file tool without its file is not a call hookc can judge.
        assert!(
            Devin
                .decode_call(
                    Event::PreTool,
                    &json!({"hook_event_name": "PreToolUse", "tool_name": "write", "tool_input": {"path": ".env"}}),
                )
                .is_err()
        );
    }
}
