//! Antigravity CLI (`agy`): a hook group merged into `.agents/hooks.json`.
//!
//! There is no local oracle for Antigravity: this file follows
//! `shared/harnesses/antigravity.md` (agy 1.1.x–1.2.x, docs and third-party
//! observations) and says where it had to choose. Facts it relies on:
//! - The file maps group names to `{ "enabled"?, "<Event>": [...] }`; hookc
//!   writes one group, `hookc`. `PreToolUse` takes `{matcher, hooks}` groups,
//!   `Stop` a flat list of handlers.
//! - The parser is strict Go `encoding/json`, and one bad value drops the
//!   whole file, every user group with it. hookc writes only the documented
//!   keys (`matcher`, `hooks`, `type`, `command`, `timeout`), `timeout` as
//!   whole seconds.
//! - The payload is camelCase and has no event name and no `cwd`:
//!   `{workspacePaths, toolCall: {name, args}, ...}`. The shell tool is
//!   `run_command` with `args.CommandLine`; argument keys are PascalCase.
//! - The answer is exactly one JSON object on stdout. `deny` blocks, `ask`
//!   prompts unless the user granted the call before, `force_ask` always
//!   prompts, `allow` approves. Exit statuses have no documented meaning, so
//!   hookc always exits 0. With nothing on stdout the call takes agy's normal
//!   approval path (observed on 1.2.3), which is what hookc answers when no
//!   guard matched.
//! - The working directory and shell of workspace hooks are not documented:
//!   the command finds the project from its working directory and refuses
//!   when it cannot.

use std::path::Path;

use super::MachineCheck;

use indexmap::IndexMap;
use serde_json::{Value, json};

use super::payload::{ToolCall, without_text};
use super::{HookCommand, configured, windows};

use super::common::{self, Route};
use super::{Answer, Harness, Profile, anchored_alternation, string_at};
use crate::diag::Code;
use crate::emit::{Artifact, Content, EmitCx, Scope};
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, Tool, ToolKind};
use crate::lint_rules::json::{Cx as LintCx, Quirks, events};
use crate::lint_rules::json_spans::{span, type_name};
use crate::lint_rules::{FileReport, diag};
use crate::profile::{
    Dialect, FileFormat, Flavour, HookFile, JsonSpec, LateHook, Matching, OnHookError, PlainStdout,
    StrictKeys, Unit, no_mcp_names,
};
use jsonc_parser::ast;

pub struct Antigravity;

/// Hook entries hookc owns are recognised by this path in their command.
const MARKER: &str = "/.hookc/antigravity/";
const HOOKS: &str = ".agents/hooks.json";
/// The hook group hookc's entries live in.
const GROUP: &str = "hookc";

static PROFILE: Profile = Profile {
    id: HarnessId::Antigravity,
    name: "Antigravity",
    events: &[(Event::PreTool, "PreToolUse"), (Event::Stop, "Stop")],
    tools: &[
        (ToolKind::Shell, &["run_command"]),
        (ToolKind::Read, &["view_file"]),
        (ToolKind::Write, &["write_to_file"]),
        (
            ToolKind::Edit,
            &[
                "replace_file_content",
                "multi_replace_file_content",
                "edit_file",
            ],
        ),
        (ToolKind::WebFetch, &["read_url_content"]),
    ],
    can_block: &[Event::PreTool, Event::Stop],
    honours_ask: &[Event::PreTool],
    can_rewrite: false,
    options: &[],
    todo: &[
        "install hookc on every machine that runs Antigravity in this repo (or set HOOKC_BIN)",
        "Antigravity loads .agents/hooks.json only in a trusted workspace; check with /hooks that the `hookc` group is listed",
    ],
    more_events: &["PostToolUse", "PreInvocation", "PostInvocation"],
    files: &[HookFile {
        dir: ".agents",
        names: &["hooks.json"],
        format: FileFormat::HooksJson,
        in_project: true,
    }],
    json: Some(JsonSpec {
        dialect: Dialect::STRICT,
        strict_root: None,
        version: None,
        groups: true,
        flat_ok: true,
        require_type: true,
        types: &["command", "prompt"],
        command_keys: &["command"],
        timeout_keys: &["timeout"],
        unit: Unit::Seconds,
        matching: Matching::Unanchored,
        star_is_all: false,
        matcher_aliases: &[],
        tools_closed: false,
        matcher_subject: crate::profile::tool_name_matchers,
        events_any_case: true,
        // `shared/harnesses/antigravity.md`, "Parsing strictness": `matcher`
        // is read on tool events and ignored on the flat ones.
        strict_keys: Some(StrictKeys {
            handler: &["type", "command", "prompt", "model", "timeout", "matcher"],
            group: &["matcher", "hooks"],
            fatal: &[
                ("command", "prompt", "a `command` hook"),
                ("command", "model", "a `command` hook"),
                ("prompt", "command", "a `prompt` hook"),
            ],
            whole_timeout: true,
            grouped_events: &["PreToolUse", "PostToolUse"],
        }),
        stdout_is_reply: false,
        plain_stdout: |_| PlainStdout::Unknown,
    }),
    flavour: Some(Flavour::Re2),
    mcp_names: no_mcp_names,
    refusal: Some(include_str!("../../templates/antigravity/refuse.sh.hbs")),
    on_hook_error: OnHookError::Refuses,
    own_timeout: None,
    late_hook: LateHook::Proceeds,
    hints: &[".agents/"],
    protected: &[
        ".agents/hooks.json",
        "~/.gemini/antigravity-cli/settings.json",
        "~/.gemini/antigravity-cli/hooks.json",
        "~/.gemini/config/hooks.json",
    ],
    protected_examples: &[".agents/hooks.json"],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::Unknown,
    hook_vars: None,
};

/// Keys of a file tool's arguments that name the file, in the order hookc tries them.
const PATH_KEYS: &[&str] = &["TargetFile", "AbsolutePath", "FilePath", "Path"];

impl Harness for Antigravity {
    /// Antigravity's file holds named groups at the top (each with an
    /// `enabled` switch), and in each, Claude-shaped event lists.
    fn hooks_in(
        &self,
        format: FileFormat,
        rel: &str,
        text: &str,
        _notes: &mut Vec<String>,
    ) -> Result<Vec<crate::profile::WrittenHook>, String> {
        let mut out = Vec::new();
        if format != FileFormat::HooksJson {
            return Ok(out);
        }
        let v = common::parse_hooks_json(&PROFILE, text)?;
        for (group, events) in v.as_object().into_iter().flatten() {
            if events.get("enabled") == Some(&Value::Bool(false)) {
                continue;
            }
            for (event, list) in events.as_object().into_iter().flatten() {
                if event != "enabled" {
                    common::written_hooks(
                        &PROFILE,
                        &format!("{rel} {group}"),
                        event,
                        list,
                        &mut out,
                    );
                }
            }
        }
        Ok(out)
    }

    fn lint_quirks(&self) -> &dyn Quirks {
        self
    }

    fn machine_checks(&self, _root: &Path, _home: Option<&Path>) -> Vec<MachineCheck> {
        let name = PROFILE.name;
        let mut checks = Vec::new();
        checks.push(MachineCheck::note(
            format!("{name} runs project hooks only in a trusted folder"),
            format!("trust the folder when {name} asks"),
        ));
        checks
    }

    fn outcome(&self, event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{json_object, str_at, text};
        if o.timed_out || o.exit.is_none() || !matches!(o.exit, Some(0 | 1)) {
            return Outcome::blocks(
                None,
                "timeouts and exit codes other than 0 and 1 are unobserved; hookc assumes a refusal and never relies on it (its hook command exits 0)",
            );
        }
        if text(&o.stdout).is_none() {
            return if o.exit == Some(0) {
                Outcome::proceeds("exit 0 with empty stdout: the normal flow (observed on 1.2.3)")
            } else {
                Outcome::blocks(None, "exit 1 with empty stdout denies (observed on 1.2.3)")
            };
        }
        let Some(j) = json_object(&o.stdout) else {
            return Outcome::blocks(None, "non-JSON stdout fails to parse and denies");
        };
        let reason = str_at(&j, "/reason");
        match str_at(&j, "/decision").as_deref() {
            Some("allow") => Outcome::proceeds("JSON decision allow"),
            Some("deny") => Outcome::blocks(reason, "JSON decision deny"),
            Some("ask" | "force_ask") => {
                Outcome::asks(reason, "JSON decision force_ask: the user confirms")
            }
            Some("continue") if event == Event::Stop => {
                Outcome::blocks(reason, "JSON decision continue: the agent goes on")
            }
            _ if event == Event::Stop => Outcome::proceeds("an empty decision lets the agent stop"),
            _ => Outcome::blocks(
                None,
                "JSON without a decision ({} or \"\") denies (observed on 1.2.3)",
            ),
        }
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let root_s = root.to_string_lossy();
        let mut v = json!({
            "conversationId": "c-1",
            "workspacePaths": [root_s],
            "transcriptPath": "/tmp/t.jsonl",
            "artifactDirectoryPath": "/tmp/brain",
            "modelName": "gemini-3-pro",
        });
        let o = v.as_object_mut()?;
        match event {
            Event::PreTool => {
                let t = ToolCall::of(&PROFILE, call, root)?;
                let args = match t.kind {
                    ToolKind::Shell => json!({ "CommandLine": t.command, "Cwd": root_s }),
                    ToolKind::Read => t.file_input("AbsolutePath"),
                    _ => t.file_input("TargetFile"),
                };
                o.insert("stepIdx".into(), json!(1));
                o.insert("toolCall".into(), json!({ "name": t.native, "args": args }));
            }
            // Stop says how the run ended, not what the agent said.
            Event::Stop => {
                without_text(event, call)?;
                o.insert("executionNum".into(), json!(1));
                o.insert("terminationReason".into(), json!("completed"));
                o.insert("fullyIdle".into(), json!(true));
            }
            _ => return None,
        }
        Some(v)
    }

    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        // Stop takes a flat list of handlers; tool events take matcher groups.
        let pointer = match event {
            Event::PreTool => "/hookc/PreToolUse/0/hooks/0/command",
            Event::Stop => "/hookc/Stop/0/command",
            _ => return None,
        };
        Some(HookCommand {
            command: configured(root, HOOKS, pointer)?,
            shell: "/bin/sh",
            env: Vec::new(),
        })
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        common::warn_unsupported_events(policy, &PROFILE, cx);
        common::warn_decisions(policy, &PROFILE, cx, &|event, decision| {
            (event == Event::PreTool && decision == Decision::Context).then_some(
                "Antigravity reads no added context before a tool runs; the call goes ahead without it",
            )
        });
        let mut entries: IndexMap<String, Vec<Value>> = IndexMap::new();
        for &(event, native) in PROFILE.events {
            let Some(Route {
                names, any_tool, ..
            }) = common::route(policy, event, &PROFILE, cx, &matcher_names)
            else {
                continue;
            };
            let _script = format!(".hookc/antigravity/{}.sh", event.word());
            let on_error = policy.on_error_for(event);
            let handler = json!({
                "type": "command",
                "command": command(event, on_error),
                "timeout": policy.timeout,
            });
            let entry = if event.has_tools() {
                let matcher = if any_tool {
                    String::new()
                } else {
                    anchored_alternation(names)
                };
                json!({ "matcher": matcher, "hooks": [handler] })
            } else {
                handler
            };
            entries.insert(native.to_owned(), vec![entry]);
            cx.shim(policy, &PROFILE, event, native, on_error);
        }
        cx.add(Artifact {
            scope: Scope::Project,
            path: HOOKS.to_owned(),
            content: Content::JsonEntries {
                container: vec![GROUP.to_owned()],
                entries,
                ensure: Vec::new(),
                marker: MARKER.to_owned(),
            },
        });
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Unguarded {
            what: "Antigravity does not document which shell runs hooks on Windows and has no Windows command field; a hook that fails there lets the call through",
            fix: "run Antigravity on Windows in WSL",
        }
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        if !payload.is_object() {
            return Err("the payload is not a JSON object".to_owned());
        }
        let workspace = payload
            .get("workspacePaths")
            .and_then(Value::as_array)
            .and_then(|paths| paths.first())
            .and_then(Value::as_str)
            .map(str::to_owned);
        let mut call = Call {
            event: Some(event),
            root: common::located_project().or(workspace),
            home: std::env::var("HOME").ok(),
            ..Call::default()
        };
        match event {
            Event::PreTool | Event::PostTool => {
                let tool_call = payload
                    .get("toolCall")
                    .filter(|v| v.is_object())
                    .ok_or("the payload has no `toolCall` object")?;
                let name = string_at(tool_call, "/name")?;
                let args = match tool_call.get("args") {
                    None | Some(Value::Null) => Value::Object(Default::default()),
                    Some(args @ Value::Object(_)) => args.clone(),
                    Some(_) => return Err("`toolCall.args` should be an object".to_owned()),
                };
                let kind = PROFILE.tool_kind(name);
                match kind {
                    Some(ToolKind::Shell) => {
                        call.command = Some(string_at(&args, "/CommandLine")?.to_owned());
                    }
                    Some(ToolKind::Read | ToolKind::Write | ToolKind::Edit) => {
                        // Every path field counts, not just the first.
                        let paths: Vec<&str> = PATH_KEYS
                            .iter()
                            .filter_map(|key| args.get(*key).and_then(Value::as_str))
                            .collect();
                        if paths.is_empty() {
                            return Err(format!(
                                "`toolCall.args` of `{name}` names no file (looked for {})",
                                PATH_KEYS.join(", ")
                            ));
                        }
                        call.paths.extend(paths.iter().map(|p| (*p).to_owned()));
                        call.text = Some(args.to_string());
                    }
                    _ => call.text = Some(args.to_string()),
                }
                call.tool = Some(CallTool {
                    kind,
                    mcp: None,
                    native: name.to_owned(),
                    also: Vec::new(),
                });
            }
            // The stop payload carries no message, only counters.
            Event::Stop | Event::SubagentStop | Event::Prompt | Event::SessionStart => {}
        }
        Ok(call)
    }

    fn answer(&self, event: Event, verdict: Option<&Verdict>) -> Answer {
        if event == Event::Stop {
            return match verdict {
                Some(v) if v.decision.refuses() => {
                    Answer::print(json!({ "decision": "continue", "reason": v.reason() }))
                }
                _ => Answer::print(json!({ "decision": "" })),
            };
        }
        let Some(verdict) = verdict else {
            return Answer::default();
        };
        if verdict.decision == Decision::Rewrite {
            // This harness cannot change a call; `hookc guard` converts
            // rewrites before answering, and so does this.
            return self.answer(event, Some(&super::rewrite_as_refusal(verdict)));
        }
        match verdict.decision {
            // A supervised call is this harness's only where it can run one:
            // `hookc guard` refuses it first (`runtime::prepare`).
            Decision::Deny | Decision::Block | Decision::Rewrite | Decision::Supervise => {
                Answer::print(json!({ "decision": "deny", "reason": verdict.reason() }))
            }
            // A policy `ask` is not to be skipped by an earlier "always allow".
            Decision::Ask => {
                Answer::print(json!({ "decision": "force_ask", "reason": verdict.reason() }))
            }
            Decision::Allow => Answer::print(json!({ "decision": "allow" })),
            Decision::Context => Answer::default(),
        }
    }
}

/// The hook command: find the project's shim and run it. hookc answers
/// Antigravity with exit 0 only, so any other status of the shim (an older
/// hookc that does not know Antigravity exits 2 with a usage message) is
/// refused here, and so is a working directory outside every project.
fn command(event: Event, on_error: &str) -> String {
    let failed = print(&refusal(
        event,
        on_error,
        "hookc could not check this call, so it was refused: its guard stopped without an answer (hookc is missing, too old to know Antigravity, or crashed). Run hookc build in the workspace and check that hookc runs. Tell the user about this; do not try to get around the guard.",
    ));
    let not_found = print(&refusal(
        event,
        on_error,
        "hookc could not check this call, so it was refused: the hook could not find the guards of this workspace (.hookc/antigravity/ in or above its working directory). Run agy inside the workspace and run hookc build there. Tell the user about this; do not try to get around the guard.",
    ));
    common::locate_shim(
        HarnessId::Antigravity,
        event,
        &format!(
            "if ({}); then exit 0; fi; {failed}; exit 0",
            common::source_shim("$f")
        ),
        &format!("{not_found}; exit 0"),
        &format!("{not_found}; exit 0"),
    )
}

/// The fixed answer for a hook that could not get hookc's: deny (or
/// force a prompt with `on-error "ask"`), except on stop, where refusing
/// would keep the agent working with no limit, so it lets it stop.
fn refusal(event: Event, on_error: &str, reason: &str) -> Value {
    match (event, on_error) {
        (Event::Stop, _) => json!({ "decision": "" }),
        (_, "ask") => json!({
            "decision": "force_ask",
            "reason": "hookc could not check this call, so the user has to confirm it.",
        }),
        _ => json!({ "decision": "deny", "reason": reason }),
    }
}

/// A shell command printing `value` as one line. The texts are hookc's own
/// and hold no single quote.
fn print(value: &Value) -> String {
    let text = value.to_string();
    assert!(
        !text.contains('\''),
        "hookc's fixed refusal texts hold no quote"
    );
    format!("printf '%s\\n' '{text}'")
}

/// The names a matcher needs for one guard tool. How Antigravity names MCP
/// tools is not known, so MCP guards get no route there.
fn matcher_names(tool: &Tool) -> Vec<String> {
    common::tool_names(&PROFILE, tool, &|_, _| None)
}

/// What `hookc lint` checks in `.agents/hooks.json` beyond its [`JsonSpec`].
impl Quirks for Antigravity {
    /// Each top-level key names a hook group: an object mapping events to
    /// lists, plus `enabled`.
    fn root(&self, cx: &LintCx, root: &ast::Object, report: &mut FileReport) -> bool {
        for group in &root.properties {
            let ast::Value::Object(g) = &group.value else {
                report.diags.push(diag(
                    Code::LintWrongType,
                    cx.file,
                    span(&group.value),
                    "each top-level key of `.agents/hooks.json` names a hook group, an object",
                    type_name(&group.value),
                ));
                continue;
            };
            events(cx, g, &["enabled"], report);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_one_json_object_each() {
        for (event, on_error) in [
            (Event::PreTool, "deny"),
            (Event::PreTool, "ask"),
            (Event::Stop, "deny"),
        ] {
            let command = print(&refusal(event, on_error, "Do X."));
            let out = std::process::Command::new("sh")
                .arg("-c")
                .arg(&command)
                .output()
                .unwrap();
            let text = String::from_utf8(out.stdout).unwrap();
            let value: Value = serde_json::from_str(&text).unwrap();
            assert!(value["decision"].is_string(), "{text}");
        }
    }

    #[test]
    fn answers_use_only_documented_keys() {
        let verdict = |decision| Verdict {
            decision,
            hits: vec![crate::eval::Hit {
                guard: "g".into(),
                from: None,
                decision,
                reason: "Do X instead.".into(),
                message: Some("shown to the user".into()),
            }],
            rewritten: None,
        };
        for decision in Decision::ALL {
            for event in [Event::PreTool, Event::Stop] {
                let answer = Antigravity.answer(event, Some(&verdict(*decision)));
                assert_eq!(answer.exit, 0);
                if answer.stdout.is_empty() {
                    continue;
                }
                let value: Value = serde_json::from_str(&answer.stdout).unwrap();
                for key in value.as_object().unwrap().keys() {
                    assert!(["decision", "reason"].contains(&key.as_str()), "{key}");
                }
            }
        }
    }
}
