//! Cursor: hooks merged into `.cursor/hooks.json`.
//!
//! Protocol facts this file relies on (`shared/harnesses/cursor.md`, and the
//! hooks runtime inside the pinned `@cursor/sdk` 1.0.32, which the oracle
//! drives):
//! - The file is flat: `{"version": 1, "hooks": {event: [handler]}}`, events
//!   in lowerCamelCase, `matcher`, `timeout` (seconds), `failClosed` and
//!   `loop_limit` on each handler. An unknown event name, a missing
//!   `version` or a bad field makes Cursor reject the whole project file.
//! - Project hooks run with the project root as working directory (a
//!   relative command is resolved there) through `$SHELL -lc`.
//! - With `failClosed: true` a crash, a non-zero exit, a timeout, empty or
//!   invalid output refuses the call; without it they let it through.
//!   Exit 2 refuses with stdout (or else stderr) as the message.
//! - Every answer is one JSON object on stdout. On the permission events
//!   (`preToolUse`, `beforeShellExecution`, `beforeMCPExecution`) the runtime
//!   acts on `deny` everywhere and on `ask` only for shell commands; answers
//!   of several hooks merge with deny > ask > allow.
//! - A shell command fires `preToolUse` (tool `Shell`) and then
//!   `beforeShellExecution`; an MCP call fires `preToolUse` (tool
//!   `MCP:<tool>`, no server) and then `beforeMCPExecution` (with the server).
//!   hookc checks each call once: shell commands on `beforeShellExecution`
//!   (where `ask` works), MCP calls on `beforeMCPExecution` (which names the
//!   server), every other tool on `preToolUse`.
//! - Cursor also runs the repo's `.claude/settings.json` hooks, with Cursor's
//!   payloads (they carry `cursor_version`): [`Cursor::recognizes`].

use std::path::Path;

use super::MachineCheck;

use indexmap::IndexMap;
use serde_json::{Value, json};

use super::HookCommand;
use super::payload::{ToolCall, text_of, without_text};

use super::{
    Answer, Harness, OptionKind, OptionSpec, Profile, anchored_alternation, json_type, string_at,
    windows,
};
use crate::diag::{Code, Diagnostic};
use crate::emit::EmitCx;
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, Guard, HarnessId, Policy, Tool, ToolKind};
use crate::lint_rules::json::{Cx as LintCx, Quirks};
use crate::lint_rules::json_spans::{get, span};
use crate::lint_rules::{Edit, FileReport, diag, scripts};
use crate::profile::{
    Dialect, FileFormat, Flavour, HookFile, JsonSpec, LateHook, MatcherSubject, Matching, McpNames,
    OnHookError, PlainStdout, Unit,
};
use crate::source::Span;
use jsonc_parser::ast;

pub struct Cursor;

/// Hook entries hookc owns are recognised by this path in their command.
const MARKER: &str = ".hookc/cursor/";
const HOOKS: &str = ".cursor/hooks.json";

/// Cursor's enterprise hooks, which run beside every other source's and
/// win when answers conflict; the administrator's whole file.
const MANAGED: crate::managed::Layer = crate::managed::Layer {
    file: crate::managed::Paths {
        linux: "/etc/cursor/hooks.json",
        macos: "/Library/Application Support/Cursor/hooks.json",
        // Run through `cmd.exe`, reportedly; see `emit_managed`.
        windows: crate::managed::OnWindows::At(r"C:\ProgramData\Cursor\hooks.json"),
    },
    what: "Cursor's enterprise hooks",
    only_managed: None,
    not_enforced: None,
};

/// hookc's hooks, by Cursor's event name; `shim` writes the shim of an
/// event that has any and returns the command that runs it.
fn hook_entries(
    policy: &Policy,
    cx: &mut EmitCx,
    shim: &mut dyn FnMut(&mut EmitCx, Event, &str) -> String,
) -> IndexMap<String, Vec<Value>> {
    let loop_limit = loop_limit(policy, cx);
    let mut entries: IndexMap<String, Vec<Value>> = IndexMap::new();
    for &(event, native) in PROFILE.events {
        let guards: Vec<&Guard> = policy.guards.iter().filter(|g| g.event == event).collect();
        if guards.is_empty() {
            continue;
        }
        for guard in &guards {
            warn_degraded(guard, cx);
        }
        // Cursor's event and matcher for each hook of this event.
        let mut hooks: Vec<(String, Option<String>)> = Vec::new();
        if event == Event::PreTool {
            let routes = routes(&guards, cx);
            if routes.shell {
                hooks.push((SHELL_EVENT.to_owned(), None));
            }
            if routes.mcp {
                hooks.push((MCP_EVENT.to_owned(), None));
            }
            if routes.any_other {
                // Every tool but the two checked on their own events
                // (Cursor's matchers are JavaScript regexes).
                hooks.push((TOOL_EVENT.to_owned(), Some("^(?!Shell$|MCP:)".to_owned())));
            } else if !routes.others.is_empty() {
                hooks.push((
                    TOOL_EVENT.to_owned(),
                    Some(anchored_alternation(routes.others)),
                ));
            }
        } else if event == Event::PostTool {
            let mut names = Vec::new();
            let mut any_tool = false;
            for guard in &guards {
                any_tool |= guard.tools.is_empty();
                for tool in &guard.tools {
                    names.extend(post_tool_names(tool));
                }
            }
            if any_tool || !names.is_empty() {
                hooks.push((
                    native.to_owned(),
                    (!any_tool).then(|| anchored_alternation(names)),
                ));
            }
        } else {
            hooks.push((native.to_owned(), None));
        }
        if hooks.is_empty() {
            continue;
        }
        let command = shim(cx, event, native);
        for (name, matcher) in hooks {
            let mut h = serde_json::Map::new();
            h.insert("command".into(), json!(command));
            if let Some(m) = matcher {
                h.insert("matcher".into(), json!(m));
            }
            h.insert("timeout".into(), json!(policy.timeout));
            h.insert("failClosed".into(), json!(true));
            if matches!(event, Event::Stop | Event::SubagentStop) {
                h.insert("loop_limit".into(), json!(loop_limit));
            }
            entries.insert(name, vec![Value::Object(h)]);
        }
    }
    entries
}
const SHELL_EVENT: &str = "beforeShellExecution";
const MCP_EVENT: &str = "beforeMCPExecution";
const TOOL_EVENT: &str = "preToolUse";
/// Cursor's default `loop_limit`, written out so the file says what happens.
const DEFAULT_LOOP_LIMIT: u64 = 5;

static PROFILE: Profile = Profile {
    id: HarnessId::Cursor,
    name: "Cursor",
    // Pre-tool guards also go to beforeShellExecution and beforeMCPExecution
    // (see `emit`); this is the event of every other tool.
    events: &[
        (Event::PreTool, TOOL_EVENT),
        (Event::PostTool, "postToolUse"),
        (Event::Prompt, "beforeSubmitPrompt"),
        (Event::Stop, "stop"),
        (Event::SubagentStop, "subagentStop"),
        (Event::SessionStart, "sessionStart"),
    ],
    // `Write` writes whole files, new or not, so it is also an edit; the
    // runtime's own Claude import maps `WebFetch` to `WebFetch`, the agent
    // runtime names its fetch tool `Fetch`.
    tools: &[
        (ToolKind::Shell, &["Shell"]),
        (ToolKind::Read, &["Read"]),
        (ToolKind::Write, &["Write"]),
        (ToolKind::Edit, &["Write", "Delete", "StrReplace", "Edit"]),
        (ToolKind::WebFetch, &["Fetch", "WebFetch"]),
    ],
    // A stop "block" is a follow-up message: Cursor starts another turn.
    can_block: &[
        Event::PreTool,
        Event::Prompt,
        Event::Stop,
        Event::SubagentStop,
    ],
    // For shell commands only: see `warn_degraded`.
    honours_ask: &[Event::PreTool],
    can_rewrite: false,
    options: &[OptionSpec {
        name: "loop-limit",
        kind: OptionKind::Count,
        safeguard: false,
        doc: "how many follow-up turns a stop or subagent-stop guard may start in one conversation (Cursor's `loop_limit`, 1 or more; default 5)",
    }],
    todo: &[
        "install hookc on every machine that runs Cursor in this repo (or set HOOKC_BIN)",
        "Cursor runs project hooks only in a trusted workspace",
    ],
    more_events: &[
        "postToolUseFailure",
        "subagentStart",
        "beforeShellExecution",
        "afterShellExecution",
        "beforeMCPExecution",
        "afterMCPExecution",
        "beforeReadFile",
        "afterFileEdit",
        "preCompact",
        "afterAgentResponse",
        "afterAgentThought",
        "sessionEnd",
        "beforeTabFileRead",
        "afterTabFileEdit",
        "workspaceOpen",
    ],
    files: &[HookFile {
        dir: ".cursor",
        names: &["hooks.json"],
        format: FileFormat::HooksJson,
        in_project: true,
    }],
    json: Some(JsonSpec {
        // The oracle's Cursor loader takes comments but refuses a trailing comma or a
        // byte order mark (`JSON.parse` after stripping comments).
        dialect: Dialect {
            comments: true,
            trailing_commas: false,
            bom: false,
        },
        strict_root: None,
        version: Some(true),
        groups: false,
        flat_ok: true,
        require_type: false,
        types: &["command", "prompt"],
        command_keys: &["command"],
        timeout_keys: &["timeout"],
        unit: Unit::Seconds,
        matching: Matching::Unanchored,
        star_is_all: false,
        matcher_aliases: &[],
        tools_closed: false,
        matcher_subject,
        events_any_case: false,
        strict_keys: None,
        stdout_is_reply: true,
        plain_stdout: |event| match event {
            // shared/harnesses/cursor.md §4: non-JSON stdout on a
            // permission event is blocked (observed), and other events
            // parse stdout as JSON too.
            "preToolUse" | "beforeShellExecution" | "beforeMCPExecution" => PlainStdout::Refuses,
            _ => PlainStdout::Invalid,
        },
    }),
    flavour: Some(Flavour::EcmaScript),
    mcp_names: |event| {
        matches!(event, "preToolUse" | "postToolUse").then_some(McpNames::CursorTool)
    },
    refusal: Some(include_str!("../../templates/cursor/refuse.sh.hbs")),
    on_hook_error: OnHookError::ProceedsUnlessFailClosed,
    own_timeout: None,
    late_hook: LateHook::Refuses,
    hints: &[".cursor/", ".cursorrules"],
    protected: &[".cursor/hooks.json", "~/.cursor/hooks.json", "/etc/cursor"],
    protected_examples: &[".cursor/hooks.json"],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[HarnessId::Claude],
    guests: &[],
    hook_dir: crate::profile::HookDir::ProjectRoot,
    hook_vars: Some(crate::profile::HookVars {
        set: &["CURSOR_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
        complete: true,
    }),
};

impl Harness for Cursor {
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
        // hookc's entries always carry `failClosed: true`.
        if o.timed_out || o.exit.is_none() {
            return Outcome::blocks(
                None,
                "a timeout or crash blocks because hookc sets failClosed (without it Cursor fails open)",
            );
        }
        match o.exit {
            Some(2) => Outcome::blocks(text(&o.stderr), "exit 2 blocks, like permission deny"),
            Some(0) => {
                let Some(j) = json_object(&o.stdout) else {
                    return if event == Event::PreTool {
                        Outcome::blocks(None, "exit 0 with empty or non-JSON stdout on a permission event is blocked for safety")
                    } else {
                        Outcome::proceeds("exit 0 without JSON outside permission events: nothing to apply")
                    };
                };
                let model = str_at(&j, "/agent_message").or_else(|| str_at(&j, "/agentMessage"));
                let user = str_at(&j, "/user_message").or_else(|| str_at(&j, "/userMessage"));
                match str_at(&j, "/permission").as_deref() {
                    Some("deny") => Outcome::blocks(model, "exit 0 with JSON permission deny").user(user),
                    Some("ask") => Outcome::asks(user, "exit 0 with JSON permission ask"),
                    Some(_) => Outcome::proceeds("exit 0 with JSON permission allow").model(model).user(user),
                    None if event == Event::PreTool => Outcome::blocks(None, "a JSON object without `permission` on a permission event is blocked for safety"),
                    // beforeSubmitPrompt: `continue: false` drops the prompt.
                    None if j.get("continue") == Some(&Value::Bool(false)) => Outcome::blocks(
                        None,
                        "exit 0 with JSON continue false: the prompt is not sent",
                    )
                    .user(user),
                    None => match str_at(&j, "/followup_message") {
                        Some(f) => Outcome::blocks(Some(f), "exit 0 with a followup_message: the agent goes on"),
                        None => Outcome::proceeds("exit 0 with JSON and no refusal").model(str_at(&j, "/additional_context")),
                    },
                }
            }
            _ => Outcome::blocks(None, "any other exit blocks because hookc sets failClosed (without it Cursor fails open)")
                .user(text(&o.stderr)),
        }
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let root_s = root.to_string_lossy();
        let mut v = json!({
            "conversation_id": "c1",
            "generation_id": "g1",
            "model": "default",
            "session_id": "c1",
            "cursor_version": "1.0.0",
            "workspace_roots": [root_s],
            "user_email": null,
            "transcript_path": null,
            "hook_event_name": PROFILE.event_name(event)?,
        });
        let o = v.as_object_mut()?;
        match event {
            Event::PreTool | Event::PostTool => {
                let t = ToolCall::of(&PROFILE, call, root)?;
                if event == Event::PreTool && t.kind == ToolKind::Shell {
                    // Shell commands come to beforeShellExecution, in its own shape.
                    o.insert("hook_event_name".into(), json!("beforeShellExecution"));
                    o.insert("command".into(), json!(t.command));
                    o.insert("cwd".into(), json!(""));
                    o.insert("sandbox".into(), json!(false));
                } else {
                    o.insert("tool_name".into(), json!(t.native));
                    o.insert("tool_input".into(), t.input("file_path"));
                }
            }
            Event::Prompt => {
                o.insert("prompt".into(), json!(text_of(event, call)?));
                o.insert("attachments".into(), json!([]));
            }
            // stop carries a status and a loop count, not the agent's text.
            Event::Stop | Event::SubagentStop => {
                without_text(event, call)?;
                o.insert("status".into(), json!("completed"));
                o.insert("loop_count".into(), json!(0));
            }
            Event::SessionStart => {
                text_of(event, call)?;
            }
        }
        Some(v)
    }

    fn hook_command(&self, root: &Path, event: Event, payload: &Value) -> Option<HookCommand> {
        // One hookc event can come from several Cursor hooks: the payload
        // says which; a payload that does not say goes to any of them.
        let mut natives: Vec<&str> = payload
            .get("hook_event_name")
            .and_then(Value::as_str)
            .into_iter()
            .collect();
        natives.extend(PROFILE.event_name(event));
        if event == Event::PreTool {
            natives.push("beforeShellExecution");
        }
        let text = std::fs::read_to_string(root.join(HOOKS)).ok()?;
        let hooks: Value = serde_json::from_str(&text).ok()?;
        let command = natives.iter().find_map(|native| {
            hooks
                .pointer(&format!("/hooks/{native}"))?
                .as_array()?
                .iter()
                .find_map(|h| {
                    h.get("command")?
                        .as_str()
                        .filter(|c| c.contains(".hookc/cursor/"))
                        .map(str::to_owned)
                })
        })?;
        Some(HookCommand {
            command,
            shell: "/bin/sh",
            env: vec![("CURSOR_VERSION", "1.0.0".to_owned())],
        })
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        let entries = hook_entries(policy, cx, &mut |cx, event, native| {
            cx.shim(policy, &PROFILE, event, native, "deny");
            format!(".hookc/cursor/{}.sh", event.word())
        });
        cx.hook_entries(
            HOOKS,
            entries,
            vec![("version".to_owned(), json!(1))],
            MARKER,
        );
    }

    fn managed_layer(&self) -> Option<crate::managed::Layer> {
        Some(MANAGED)
    }

    fn emit_managed(&self, policy: &Policy, cx: &mut EmitCx, install: &crate::managed::Install) {
        let entries = hook_entries(policy, cx, &mut |cx, event, native| {
            if install.os == crate::managed::Os::Windows {
                // Cursor reportedly runs the command with cmd.exe there, as
                // Codex does. Should it be Windows PowerShell instead, the
                // trailing `|| exit 2` does not parse, the hook fails and
                // `failClosed` refuses every call: too much, never too little.
                return windows::through_cmd(&windows::managed_powershell(
                    cx,
                    PROFILE.id,
                    event,
                    windows::EXIT_2_WITH_REASON,
                    install,
                ));
            }
            crate::emit::sh_word(&cx.managed_shim(
                policy,
                &PROFILE,
                (event, native),
                "deny",
                install,
            ))
        });
        cx.whole(
            install.tree_file(MANAGED.file),
            crate::emit::json_text(&json!({ "version": 1, "hooks": entries })),
            false,
        );
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Unguarded {
            what: "Cursor has no Windows command field and reportedly runs hooks in cmd.exe, which cannot run hookc's POSIX command; `failClosed` then refuses every call",
            fix: "run Cursor on Windows in WSL, or leave `cursor` out of `targets` for a team on Windows",
        }
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        if !payload.is_object() {
            return Err("the payload is not a JSON object".to_owned());
        }
        let native = payload.get("hook_event_name").and_then(Value::as_str);
        let mut call = Call {
            event: Some(event),
            cwd: payload
                .get("cwd")
                .and_then(Value::as_str)
                .filter(|c| !c.is_empty())
                .map(str::to_owned),
            home: std::env::var("HOME").ok(),
            ..Call::default()
        };
        match event {
            Event::PreTool | Event::PostTool => {
                let shell_event = native == Some(SHELL_EVENT)
                    || (native.is_none() && payload.get("command").is_some_and(Value::is_string));
                if shell_event {
                    call.command = Some(string_at(payload, "/command")?.to_owned());
                    call.tool = Some(CallTool {
                        kind: Some(ToolKind::Shell),
                        native: "Shell".to_owned(),
                        ..CallTool::default()
                    });
                } else if native == Some(MCP_EVENT) {
                    let tool = string_at(payload, "/tool_name")?;
                    let server = string_at(payload, "/mcp_server_name")?;
                    call.text = Some(match payload.get("tool_input") {
                        Some(Value::String(s)) => s.clone(),
                        Some(other) => other.to_string(),
                        None => String::new(),
                    });
                    call.tool = Some(CallTool {
                        mcp: Some((server.to_owned(), tool.to_owned())),
                        native: format!("MCP:{tool}"),
                        ..CallTool::default()
                    });
                } else {
                    decode_tool(payload, &mut call)?;
                }
            }
            Event::Prompt => call.text = Some(string_at(payload, "/prompt")?.to_owned()),
            // Cursor's stop payloads carry a status, not the agent's text.
            Event::Stop | Event::SubagentStop | Event::SessionStart => {}
        }
        Ok(call)
    }

    fn answer(&self, event: Event, verdict: Option<&Verdict>) -> Answer {
        answer(event, None, verdict)
    }

    /// Three of Cursor's events are about one tool each.
    fn event_named(&self, native: &str) -> Option<(Event, Option<ToolKind>)> {
        match native {
            "beforeShellExecution" => Some((Event::PreTool, Some(ToolKind::Shell))),
            "beforeReadFile" => Some((Event::PreTool, Some(ToolKind::Read))),
            "afterFileEdit" => Some((Event::PostTool, Some(ToolKind::Edit))),
            _ => PROFILE.event_called(native).map(|e| (e, None)),
        }
    }

    /// Cursor asks only before shell commands (see [`answer`]).
    fn asks(&self, event: Event, call: &ExampleCall) -> bool {
        PROFILE.honours_ask.contains(&event) && call.command.is_some()
    }

    fn answer_call(&self, event: Event, payload: &Value, verdict: Option<&Verdict>) -> Answer {
        let native = payload.get("hook_event_name").and_then(Value::as_str);
        answer(event, native, verdict)
    }

    /// Cursor puts `cursor_version` into every payload, also for the Claude
    /// hooks it runs; no other harness does. Failing that, Cursor's own event
    /// names with its `conversation_id` are just as distinctive.
    fn recognizes(&self, payload: &Value) -> bool {
        let Some(o) = payload.as_object() else {
            return false;
        };
        o.get("cursor_version").is_some_and(Value::is_string)
            || (o.contains_key("conversation_id")
                && o.get("hook_event_name")
                    .and_then(Value::as_str)
                    .is_some_and(|e| PROFILE.accepts_event(e)))
    }
}

/// One JSON object on stdout and exit 0, whatever the decision: Cursor reads
/// exit 2 as a refusal too, but would show its stdout, the raw JSON, as the
/// message.
fn answer(event: Event, native: Option<&str>, verdict: Option<&Verdict>) -> Answer {
    if let Some(v) = verdict
        && v.decision == Decision::Rewrite
    {
        // Cursor cannot change a call: refuse and name the command to run.
        return answer(event, native, Some(&super::rewrite_as_refusal(v)));
    }
    let reason = verdict.map(Verdict::reason).unwrap_or_default();
    let reason = if reason.trim().is_empty() {
        "The project's hookc policy refused this call.".to_owned()
    } else {
        reason
    };
    let deny =
        |text: &str| json!({ "permission": "deny", "user_message": text, "agent_message": text });
    let decision = verdict.map(|v| v.decision);
    let out = match (event, decision) {
        (Event::PreTool, None | Some(Decision::Allow)) => json!({ "permission": "allow" }),
        (Event::PreTool, Some(Decision::Deny | Decision::Block)) => deny(&reason),
        (Event::PreTool, Some(Decision::Ask)) if native == Some(SHELL_EVENT) => {
            json!({ "permission": "ask", "user_message": reason, "agent_message": reason })
        }
        (Event::PreTool, Some(Decision::Ask)) => deny(&format!(
            "This call needs the user's confirmation, and Cursor can ask only before shell commands, so it was refused. Ask the user; if they agree, they can do it themselves. The rule: {reason}"
        )),
        (Event::PreTool, Some(Decision::Context)) if native == Some(TOOL_EVENT) => {
            json!({ "permission": "allow", "additional_context": reason })
        }
        (Event::PreTool, Some(Decision::Context)) => json!({ "permission": "allow" }),
        (Event::Prompt, None | Some(Decision::Allow)) => json!({ "continue": true }),
        (Event::Prompt, Some(Decision::Context)) => {
            json!({ "continue": true, "additional_context": reason })
        }
        (Event::Prompt, Some(_)) => json!({ "continue": false, "user_message": reason }),
        (Event::Stop | Event::SubagentStop, Some(Decision::Block | Decision::Deny)) => {
            json!({ "followup_message": reason })
        }
        (Event::PostTool | Event::SessionStart, Some(Decision::Context | Decision::Block)) => {
            json!({ "additional_context": reason })
        }
        _ => json!({}),
    };
    let mut stdout = out.to_string();
    stdout.push('\n');
    Answer {
        stdout,
        stderr: String::new(),
        exit: 0,
    }
}

/// A `preToolUse` (or `postToolUse`) call: `tool_name` and a `tool_input` object.
fn decode_tool(payload: &Value, call: &mut Call) -> Result<(), String> {
    let name = string_at(payload, "/tool_name")?;
    let input = match payload.get("tool_input") {
        Some(v @ Value::Object(_)) => v.clone(),
        Some(Value::String(s)) => serde_json::from_str::<Value>(s)
            .ok()
            .filter(Value::is_object)
            .ok_or("`tool_input` is a string that does not hold a JSON object")?,
        Some(other) => {
            return Err(format!(
                "`tool_input` should be an object, found {}",
                json_type(other)
            ));
        }
        None => return Err("the payload has no `tool_input`".to_owned()),
    };
    if name.starts_with("MCP:") {
        return Err(format!(
            "Cursor's preToolUse does not say which server `{name}` belongs to; add \"cursor\" to `targets` in policy.kdl so that hookc checks MCP calls on beforeMCPExecution"
        ));
    }
    let mut tool = CallTool {
        kind: PROFILE.tool_kind(name),
        native: name.to_owned(),
        ..CallTool::default()
    };
    match tool.kind {
        Some(ToolKind::Shell) => call.command = Some(string_at(&input, "/command")?.to_owned()),
        Some(ToolKind::Read | ToolKind::Write | ToolKind::Edit) => {
            let path = ["file_path", "path", "target_file"]
                .iter()
                .find_map(|k| input.get(*k).and_then(Value::as_str))
                .ok_or_else(|| format!("the `{name}` input names no file (`file_path`)"))?;
            call.paths.push(path.to_owned());
            call.text = Some(input.to_string());
            if tool.kind == Some(ToolKind::Write) {
                tool.also.push(CallTool {
                    kind: Some(ToolKind::Edit),
                    native: name.to_owned(),
                    ..CallTool::default()
                });
            }
        }
        _ => call.text = Some(input.to_string()),
    }
    if let Some(cwd) = input
        .get("cwd")
        .or_else(|| input.get("working_directory"))
        .and_then(Value::as_str)
        .filter(|c| !c.is_empty())
    {
        call.cwd = Some(cwd.to_owned());
    }
    call.tool = Some(tool);
    Ok(())
}

/// Which Cursor events the pre-tool guards need.
struct Routes {
    shell: bool,
    mcp: bool,
    /// Some guard applies to every tool.
    any_other: bool,
    /// `preToolUse` matcher names of the other tools (regex fragments).
    others: Vec<String>,
}

fn routes(guards: &[&Guard], cx: &mut EmitCx) -> Routes {
    let mut r = Routes {
        shell: false,
        mcp: false,
        any_other: false,
        others: Vec::new(),
    };
    for guard in guards {
        if guard.tools.is_empty() {
            r.shell = true;
            r.mcp = true;
            r.any_other = true;
            continue;
        }
        let mut missing = Vec::new();
        let mut found_any = false;
        for tool in &guard.tools {
            match tool {
                Tool::Known {
                    tool: ToolKind::Shell,
                } => {
                    r.shell = true;
                    found_any = true;
                }
                Tool::Known { tool } => {
                    found_any = true;
                    r.others
                        .extend(PROFILE.tool_names(*tool).iter().map(|n| regex::escape(n)));
                }
                Tool::Mcp { .. } => {
                    r.mcp = true;
                    found_any = true;
                }
                Tool::Native {
                    harness: HarnessId::Cursor,
                    name,
                } => {
                    found_any = true;
                    r.others.push(regex::escape(name));
                }
                Tool::Native { .. } => missing.push(format!("`{tool}`")),
            }
        }
        if !missing.is_empty() {
            cx.unsupported(
                guard,
                HarnessId::Cursor,
                format!("Cursor has no tool {}", missing.join(", ")),
                if found_any {
                    "calls of those tools are not checked there".to_owned()
                } else {
                    "the guard will not run there".to_owned()
                },
            );
        }
    }
    r
}

/// `postToolUse` matcher names for one guard tool (Cursor names MCP tools
/// `MCP:<tool>` there, without the server).
fn post_tool_names(tool: &Tool) -> Vec<String> {
    match tool {
        Tool::Known { tool } => PROFILE
            .tool_names(*tool)
            .iter()
            .map(|n| regex::escape(n))
            .collect(),
        Tool::Mcp { server, tool } => vec![McpNames::CursorTool.matcher(server, tool)],
        Tool::Native {
            harness: HarnessId::Cursor,
            name,
        } => vec![regex::escape(name)],
        Tool::Native { .. } => Vec::new(),
    }
}

/// Warn where Cursor does something other than what a guard decides.
fn warn_degraded(guard: &Guard, cx: &mut EmitCx) {
    let only_shell = !guard.tools.is_empty()
        && guard.tools.iter().all(|t| {
            matches!(
                t,
                Tool::Known {
                    tool: ToolKind::Shell
                }
            )
        });
    match (guard.event, guard.decision) {
        (Event::PreTool, Decision::Ask) if !only_shell => cx.unsupported(
            guard,
            HarnessId::Cursor,
            "Cursor asks the user only before shell commands".to_owned(),
            "other calls this guard matches are refused instead, with a reason that tells the model to ask the user".to_owned(),
        ),
        (Event::PreTool, Decision::Context) if !guard.tools.iter().all(|t| {
            !matches!(t, Tool::Known { tool: ToolKind::Shell } | Tool::Mcp { .. })
        }) || guard.tools.is_empty() => cx.unsupported(
            guard,
            HarnessId::Cursor,
            "Cursor cannot add context before a shell command or an MCP call".to_owned(),
            "those calls go through without the text".to_owned(),
        ),
        (Event::PostTool, Decision::Block) => cx.unsupported(
            guard,
            HarnessId::Cursor,
            "Cursor's postToolUse hooks cannot block".to_owned(),
            "the reason is given to the model as context after the tool ran".to_owned(),
        ),
        _ => {}
    }
    if matches!(guard.event, Event::Stop | Event::SubagentStop) && !guard.regexes.is_empty() {
        cx.unsupported(
            guard,
            HarnessId::Cursor,
            "Cursor's stop events do not carry the agent's last message".to_owned(),
            "a `regex` of a stop guard never matches there, so the guard never blocks".to_owned(),
        );
    }
}

/// The `loop-limit` option, checked: Cursor rejects the whole file for a
/// `loop_limit` below 1.
fn loop_limit(policy: &Policy, cx: &mut EmitCx) -> u64 {
    let value = policy
        .harness_options
        .get(&HarnessId::Cursor)
        .and_then(|o| o.get("loop-limit"))
        .and_then(Value::as_u64);
    match value {
        Some(0) => {
            cx.diags.push(
                Diagnostic::new(
                    Code::InvalidSetting,
                    "cursor: `loop-limit 0` is not a limit Cursor accepts",
                )
                .help("write `loop-limit 1` or more (Cursor rejects the whole hooks file for a `loop_limit` below 1)"),
            );
            DEFAULT_LOOP_LIMIT
        }
        Some(n) => n,
        None => DEFAULT_LOOP_LIMIT,
    }
}

/// The events on which a Cursor hook can refuse (shared/harnesses/cursor.md,
/// §2, "Blocks?": yes), where `failClosed` turns a crash into a refusal.
/// A `stop` or `subagentStop` follow-up starts another turn, it refuses
/// nothing.
const REFUSING_EVENTS: &[&str] = &[
    "preToolUse",
    "subagentStart",
    "beforeShellExecution",
    "beforeMCPExecution",
    "beforeReadFile",
    "beforeSubmitPrompt",
    "beforeTabFileRead",
];

/// What Cursor tests an event's matcher against (shared/harnesses/cursor.md,
/// §2): the tool type on the tool events, the full command string on the
/// shell events, a subagent type or a fixed word on the others.
fn matcher_subject(event: &str) -> MatcherSubject {
    match event {
        "preToolUse" | "postToolUse" | "postToolUseFailure" | "beforeMCPExecution"
        | "afterMCPExecution" | "beforeReadFile" | "afterFileEdit" => MatcherSubject::ToolName,
        "beforeShellExecution" | "afterShellExecution" => MatcherSubject::CommandLine,
        _ => MatcherSubject::Other,
    }
}

/// What `hookc lint` checks in Cursor's `hooks.json` beyond its
/// [`JsonSpec`]: its own handler keys.
impl Quirks for Cursor {
    /// Each of Cursor's `before…` events can refuse (`beforeReadFile`,
    /// `beforeMCPExecution`, …).
    fn can_refuse(&self, event: &str) -> bool {
        event.starts_with("before")
    }

    fn handler(
        &self,
        cx: &LintCx,
        event: &str,
        fails_open: bool,
        h: &ast::Object,
        open: Span,
        report: &mut FileReport,
    ) {
        let refuses = || {
            get(h, "command")
                .and_then(|c| crate::lint_rules::json_spans::as_str(&c.value))
                .is_some_and(|cmd| scripts::looks_like_refusal(cmd, cx.root))
        };
        if fails_open && REFUSING_EVENTS.contains(&event) && refuses() {
            fail_closed(cx, event, h, open, report);
        }
        if let Some(l) = get(h, "loop_limit")
            && matches!(l.value, ast::Value::NullKeyword(_))
        {
            report.diags.push(
                diag(
                    Code::LintStopLoop,
                    cx.file,
                    span(&l.value),
                    "`loop_limit: null` lets this hook restart the agent without end",
                    "no cap",
                )
                .help("remove it (default 5) or set a number"),
            );
        }
    }
}

/// A refusing command hook `h` (its brace at `open`) without
/// `"failClosed": true`, which lets the action through when it crashes or
/// times out; `--fix` sets it, unless the author wrote `"failClosed": false`.
fn fail_closed(cx: &LintCx, event: &str, h: &ast::Object, open: Span, report: &mut FileReport) {
    let found = get(h, "failClosed");
    match found.map(|p| &p.value) {
        Some(ast::Value::BooleanLit(b)) if b.value => return,
        Some(v @ ast::Value::BooleanLit(_)) => {
            report.diags.push(
                diag(
                    Code::LintCursorFailClosed,
                    cx.file,
                    span(v),
                    format!(
                        "this `{event}` hook refuses, and with `\"failClosed\": false` it lets the action through when it crashes or times out"
                    ),
                    "fails open",
                )
                .help("if it guards, set `\"failClosed\": true`; `hookc lint --fix` leaves an explicit choice as it is"),
            );
            return;
        }
        _ => {}
    }
    report.diags.push(
        diag(
            Code::LintCursorFailClosed,
            cx.file,
            found.map_or(open, |p| span(&p.value)),
            format!("this `{event}` hook lets the action through when it crashes or times out"),
            "fails open",
        )
        .help("add `\"failClosed\": true` (`hookc lint --fix` does)"),
    );
    match found {
        Some(p) => report.edits.push(Edit {
            span: span(&p.value),
            text: "true".into(),
        }),
        None => {
            if let Some(last) = h.properties.last() {
                let end = last.range.end;
                report.edits.push(Edit {
                    span: Span::new(end, 0),
                    text: ", \"failClosed\": true".into(),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_payloads_are_recognised() {
        assert!(
            Cursor.recognizes(&json!({"cursor_version": "1.0.0", "hook_event_name": "preToolUse"}))
        );
        assert!(Cursor.recognizes(&json!({"conversation_id": "c", "hook_event_name": "stop"})));
        assert!(!Cursor.recognizes(
            &json!({"session_id": "s", "hook_event_name": "PreToolUse", "transcript_path": "/t"})
        ));
        assert!(!Cursor.recognizes(&json!({"conversation_id": "c", "hook_event_name": "Stop"})));
        assert!(!Cursor.recognizes(&json!([1])));
        // Tab hooks and `workspaceOpen` too: every event `hookc lint` accepts.
        assert!(
            Cursor.recognizes(
                &json!({"conversation_id": "c", "hook_event_name": "beforeTabFileRead"})
            )
        );
        for name in PROFILE.all_events() {
            let payload = json!({"conversation_id": "c", "hook_event_name": name});
            assert!(Cursor.recognizes(&payload), "{name}");
        }
    }

    #[test]
    fn no_objection_is_valid_cursor_json_on_every_event() {
        for event in Event::ALL {
            let answer = answer(*event, None, None);
            assert_eq!(answer.exit, 0);
            let value: Value = serde_json::from_str(&answer.stdout).unwrap();
            assert!(value.is_object());
            if *event == Event::PreTool {
                assert_eq!(value["permission"], "allow");
            }
        }
    }
}
