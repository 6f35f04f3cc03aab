//! Cline (the VS Code extension and the `cline` CLI): executable hook files
//! named after the hook, in `.clinerules/hooks/`.
//!
//! From Cline's source (cline/cline at 21cb8d2; nothing here has run in
//! Cline; `book/src/harnesses/cline.md` lists the sources):
//! - A hook is an executable file named after it (`PreToolUse`,
//!   `UserPromptSubmit`, …) in `.clinerules/hooks/` of a workspace, or in
//!   the global `~/Documents/Cline/Hooks/`. The VS Code extension runs the
//!   file without an extension only if it has the exec bit (on Windows only
//!   `<Hook>.ps1`), through a shell; the CLI also reads `.cline/hooks/` and
//!   `~/.cline/hooks/`, takes `PreToolUse.sh`, `.py`, `.ps1`, … as well,
//!   and starts a file by its `#!` line. Both read the file hookc writes:
//!   the hook file *is* the shim, with no config file around it.
//! - Every hook of a tool call runs for every tool (there are no matchers).
//!   Stdin is JSON: `hookName`, `taskId`, `workspaceRoots`, … and, for
//!   `PreToolUse`, `preToolUse: {toolName, parameters}`, where `parameters`
//!   maps each input key to a string (other values as JSON text); the CLI
//!   adds `tool_call: {id, name, input}` with the input as the model gave it.
//! - Stdout is one JSON object: `{"cancel": true, "errorMessage": …}` stops
//!   the call, and the whole task with it (the reason is the task's error,
//!   for the user); `contextModification` without `cancel` is added to the
//!   conversation for the model. Anything else (no JSON, JSON of the wrong
//!   shape, a failing status without JSON, a timeout: 30 s in VS Code,
//!   120 s in the CLI, a file that cannot start) lets the call go ahead.
//!   There is no ask and no rewrite both products apply.
//! - Tools have the Cline SDK's names (`run_commands`, `read_files`,
//!   `editor`, `apply_patch`, …); older extensions used `execute_command`,
//!   `read_file`, `write_to_file`, `replace_in_file`. MCP tools are
//!   `<server>__<tool>` (names with other characters, or longer than 64,
//!   are hashed).

use std::path::Path;

use serde_json::{Map, Value, json};

use super::payload::{ToolCall, text_of};
use super::{
    Answer, Harness, HookCommand, MachineCheck, Profile, common, patch_files, string_at, windows,
};
use crate::emit::{EmitCx, sh_word};
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, Tool, ToolKind};
use crate::profile::{LateHook, OnHookError};

pub struct Cline;

/// The project folder both Cline products read hook files from.
const HOOKS_DIR: &str = ".clinerules/hooks";
/// `policy.json`, from a hook file in [`HOOKS_DIR`].
const POLICY_FROM_HOOK: &str = "../../.hookc/policy.json";

/// The shim's refusal. Cline stops a call only on a JSON answer with
/// `cancel: true` (the exit status does not matter then); every failure
/// ends here. The JSON is fixed text (no shell value is put into it), and
/// the details go to stderr, which Cline shows beside the hook.
const REFUSE: &str = "# Cline stops a call only when the hook prints JSON with `cancel: true`; a
# failing status, no answer or a timeout let the call through, so every
# failure ends here. That also stops the task: the reason is shown to the
# user. Cline's hooks cannot ask, so `on-error \"ask\"` refuses too.
refuse() {
  printf '%s\\n' \"hookc could not check this call, so it was refused: $1. Fix: $2. Tell the user about this; do not try to get around the guard.\" >&2
  printf '%s\\n' '{\"cancel\":true,\"errorMessage\":\"hookc could not check this call, so Cline stopped it. The hook output says why and how to fix it; fix that, then resume the task.\"}'
  exit 0
}
";

static PROFILE: Profile = Profile {
    id: HarnessId::Cline,
    name: "Cline",
    events: &[
        (Event::PreTool, "PreToolUse"),
        (Event::Prompt, "UserPromptSubmit"),
    ],
    more_events: &[
        "PostToolUse",
        "TaskStart",
        "TaskResume",
        "TaskCancel",
        "TaskComplete",
        "TaskError",
        "PreCompact",
        "SessionShutdown",
        "Notification",
    ],
    // The SDK's names first (both products today), then the older
    // extension's.
    tools: &[
        (ToolKind::Shell, &["run_commands", "execute_command"]),
        (ToolKind::Read, &["read_files", "read_file"]),
        (ToolKind::Write, &["editor", "apply_patch", "write_to_file"]),
        (
            ToolKind::Edit,
            &["editor", "apply_patch", "replace_in_file"],
        ),
        (ToolKind::WebFetch, &["fetch_web_content", "web_fetch"]),
    ],
    can_block: &[Event::PreTool, Event::Prompt],
    honours_ask: &[],
    can_rewrite: false,
    options: &[],
    todo: &[
        "install hookc on every machine that runs Cline in this repo (or set HOOKC_BIN)",
        "Cline's hooks are from its source only: ask Cline to run a command the policy denies, and check that the task stops",
    ],
    // Cline's hooks are programs, not a config file lint can read.
    files: &[],
    json: None,
    flavour: None,
    mcp_names: crate::profile::no_mcp_names,
    refusal: Some(REFUSE),
    on_hook_error: OnHookError::Proceeds,
    // hookc cannot set one: 30 s in VS Code, 120 s in the CLI.
    own_timeout: Some(30),
    late_hook: LateHook::Proceeds,
    hints: &[".clinerules/", ".cline/", ".clineignore"],
    protected: &[
        ".clinerules/hooks",
        ".cline/hooks",
        "~/Documents/Cline/Hooks",
        "~/.cline/hooks",
    ],
    protected_examples: &[".clinerules/hooks/PreToolUse", ".cline/hooks/PreToolUse.sh"],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::Unknown,
    hook_vars: None,
};

impl Harness for Cline {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn machine_checks(&self, root: &Path, home: Option<&Path>) -> Vec<MachineCheck> {
        let mut checks = vec![
            MachineCheck::note(
                format!(
                    "{}'s hooks are built from its source; no run has checked them",
                    PROFILE.name
                ),
                "ask Cline to run a command the policy denies, and check that the task stops",
            ),
            MachineCheck::note(
                "Cline runs hooks only while \"Enable Hooks\" is on in its settings (on unless turned off)",
                "check Cline's settings, and that a hook message appears on the first tool call",
            ),
        ];
        for &(_, native) in PROFILE.events {
            let file = root.join(HOOKS_DIR).join(native);
            if file.is_file() && !executable(&file) {
                checks.push(MachineCheck::fail(
                    format!("{HOOKS_DIR}/{native} is not executable, so Cline skips it"),
                    "run `hookc build` again (it writes the file executable), or `chmod +x` it",
                ));
            }
        }
        let mut dirs = vec![root.join(HOOKS_DIR), root.join(".cline/hooks")];
        dirs.extend(common::under_home(home, "Documents/Cline/Hooks"));
        dirs.extend(common::under_home(home, ".cline/hooks"));
        let ours = root.join(HOOKS_DIR).join("PreToolUse");
        for dir in dirs {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let name = entry.file_name().to_string_lossy().to_lowercase();
                let stem = name.split('.').next().unwrap_or_default();
                if stem == "pretooluse" && path != ours {
                    checks.push(MachineCheck::note(
                        format!(
                            "{} is another PreToolUse hook: Cline's CLI lets it replace a call's input after hookc checked it",
                            path.display()
                        ),
                        "remove it, or make sure it never answers `overrideInput`",
                    ));
                }
            }
        }
        checks
    }

    fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        common::warn_unsupported_events(policy, &PROFILE, cx);
        common::warn_decisions(
            policy,
            &PROFILE,
            cx,
            &|event, decision| match (event, decision) {
                (_, Decision::Ask) => Some(
                    "Cline's hooks cannot ask the user; hookc stops the call and the task, and the reason tells the user what to confirm",
                ),
                (Event::Prompt, Decision::Context) => Some(
                    "Cline does not add a prompt hook's context; the prompt goes ahead without it",
                ),
                (Event::Prompt, d) if d.refuses() => Some(
                    "Cline's CLI runs `UserPromptSubmit` in the background and ignores its answer; only the VS Code extension stops the prompt",
                ),
                _ => None,
            },
        );
        warn_hashed_mcp_names(policy, cx);
        for &(event, native) in PROFILE.events {
            if common::route(policy, event, &PROFILE, cx, &matcher_names).is_none() {
                continue;
            }
            cx.shim_at(
                policy,
                &PROFILE,
                (event, native),
                policy.on_error_for(event),
                &format!("{HOOKS_DIR}/{native}"),
                POLICY_FROM_HOOK,
            );
        }
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Unguarded {
            what: "on Windows the VS Code extension runs only `<Hook>.ps1` files and the CLI needs `sh` for hookc's hook files; a hook that cannot start lets the call through",
            fix: "run Cline in WSL, or leave Cline out of `targets` for Windows machines",
        }
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        if !payload.is_object() {
            return Err("the payload is not a JSON object".to_owned());
        }
        let mut call = Call {
            event: Some(event),
            // The project is the one whose hooks folder holds the hook, where
            // `hookc guard` finds the policy (`workspaceRoots` is the
            // extension's global state, which another window can change).
            // The call runs where Cline runs the hook: the workspace root
            // (extension) or the session's folder (CLI).
            root: None,
            cwd: std::env::current_dir()
                .ok()
                .map(|d| d.to_string_lossy().into_owned()),
            home: std::env::var("HOME").ok(),
            ..Call::default()
        };
        match event {
            Event::PreTool => {
                let (name, input) = tool_input(payload)?;
                decode_tool(&mut call, name, &input)?;
            }
            Event::Prompt => {
                call.text = Some(string_at(payload, "/userPromptSubmit/prompt")?.to_owned());
            }
            other => return Err(format!("hookc does not guard `{other}` on Cline")),
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
        let out = match verdict.decision {
            Decision::Deny | Decision::Block => json!({"cancel": true, "errorMessage": reason}),
            Decision::Ask => json!({
                "cancel": true,
                "errorMessage": format!(
                    "{reason}\n(The policy wants the user to confirm this, and Cline cannot ask from a hook, so hookc stopped it. If the user agrees, they can run it themselves.)"
                ),
            }),
            Decision::Context if event == Event::PreTool => {
                json!({"cancel": false, "contextModification": reason})
            }
            _ => return Answer::default(),
        };
        Answer::print(out)
    }

    fn outcome(&self, event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{str_at, text};
        if o.timed_out || o.exit.is_none() {
            return Outcome::proceeds(
                "a hook that times out or is killed is logged, and the call goes ahead",
            );
        }
        let Some(j) = answer_json(&o.stdout) else {
            return Outcome::proceeds("no JSON object on stdout: the call goes ahead")
                .user(text(&o.stderr));
        };
        if !well_formed(&j) {
            return Outcome::proceeds(
                "JSON with `shouldContinue`, or a field of the wrong type, is invalid: the call goes ahead",
            );
        }
        let reason = str_at(&j, "/errorMessage").or_else(|| str_at(&j, "/contextModification"));
        if j.get("cancel") == Some(&Value::Bool(true)) {
            return Outcome::blocks(
                None,
                "`cancel: true` stops the call and the task; the reason is the task's error",
            )
            .user(reason);
        }
        let context = (event == Event::PreTool)
            .then(|| str_at(&j, "/contextModification"))
            .flatten();
        Outcome::proceeds("JSON without `cancel: true`: the call goes ahead").model(context)
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let root_s = root.to_string_lossy();
        // The CLI's shape, which holds the extension's (`preToolUse`) too.
        let mut v = json!({
            "clineVersion": "3.0.65",
            "timestamp": "2026-12-01T10:00:00.000Z",
            "taskId": "t1",
            "sessionContext": {"rootSessionId": "t1"},
            "workspaceRoots": [root_s],
            "userId": "u",
            "agent_id": "a1",
            "parent_agent_id": null,
        });
        let o = v.as_object_mut()?;
        match event {
            Event::PreTool if matches!(call.tool, Some(Tool::Mcp { .. })) => {
                let Some(Tool::Mcp { server, tool }) = &call.tool else {
                    return None;
                };
                let name = format!("{server}__{tool}");
                o.insert("hookName".into(), json!("tool_call"));
                o.insert("iteration".into(), json!(1));
                o.insert(
                    "tool_call".into(),
                    json!({"id": "call-1", "name": name, "input": {}}),
                );
                o.insert(
                    "preToolUse".into(),
                    json!({"toolName": name, "parameters": {}}),
                );
            }
            Event::PreTool => {
                let t = ToolCall::of(&PROFILE, call, root)?;
                let input = match t.kind {
                    ToolKind::Shell => json!({"commands": [t.command]}),
                    ToolKind::Read => json!({"files": [{"path": t.path}]}),
                    ToolKind::Write => json!({"path": t.path, "new_text": "x\n"}),
                    ToolKind::Edit => json!({"path": t.path, "old_text": "a", "new_text": "b"}),
                    ToolKind::WebFetch => return None,
                };
                o.insert("hookName".into(), json!("tool_call"));
                o.insert("iteration".into(), json!(1));
                o.insert(
                    "tool_call".into(),
                    json!({"id": "call-1", "name": t.native, "input": input}),
                );
                o.insert(
                    "preToolUse".into(),
                    json!({"toolName": t.native, "parameters": string_record(&input)}),
                );
            }
            Event::Prompt => {
                o.insert("hookName".into(), json!("prompt_submit"));
                o.insert(
                    "userPromptSubmit".into(),
                    json!({"prompt": text_of(event, call)?, "attachments": []}),
                );
            }
            _ => return None,
        }
        Some(v)
    }

    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        // The extension starts the file through a shell, as a program: it
        // must be executable.
        let file = root.join(HOOKS_DIR).join(PROFILE.event_name(event)?);
        file.is_file().then(|| HookCommand {
            command: common::sh_quote(&file.to_string_lossy()),
            shell: "/bin/sh",
            env: Vec::new(),
        })
    }
}

/// Whether a file has an exec bit (always, where there are none).
fn executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        true
    }
}

/// The JSON object Cline takes from a hook's stdout: the whole text, else
/// (the extension) the last `{…}` block after other output.
fn answer_json(stdout: &str) -> Option<Value> {
    let whole = stdout.trim();
    if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(whole) {
        return Some(v);
    }
    let start = whole.rfind("\n{").map_or(0, |i| i + 1);
    serde_json::from_str::<Value>(&whole[start..])
        .ok()
        .filter(Value::is_object)
}

/// The extension's check of an answer: no `shouldContinue`, and `cancel`,
/// `contextModification` and `errorMessage` of their types when present.
fn well_formed(j: &Value) -> bool {
    j.get("shouldContinue").is_none()
        && j.get("cancel").is_none_or(Value::is_boolean)
        && j.get("contextModification").is_none_or(Value::is_string)
        && j.get("errorMessage").is_none_or(Value::is_string)
}

/// `parameters` as the hooks see them: each value a string, others as JSON text.
fn string_record(input: &Value) -> Value {
    let Some(o) = input.as_object() else {
        return json!({});
    };
    Value::Object(
        o.iter()
            .map(|(k, v)| {
                let s = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
                (k.clone(), Value::String(s))
            })
            .collect(),
    )
}

/// The tool's name and its input: the CLI's `tool_call.input` as the model
/// gave it, else the extension's `preToolUse.parameters`, whose values that
/// are JSON text are read back (as Cline's runtime reads JSON-like strings
/// for a tool's schema before the tool runs).
fn tool_input(payload: &Value) -> Result<(&str, Value), String> {
    let name = string_at(payload, "/preToolUse/toolName")
        .or_else(|_| string_at(payload, "/tool_call/name"))?;
    if let Some(tc) = payload.get("tool_call") {
        if string_at(tc, "/name")? != name {
            return Err("`tool_call.name` and `preToolUse.toolName` differ".to_owned());
        }
        let input = tc
            .get("input")
            .ok_or("the payload has no `tool_call.input`")?;
        return Ok((name, input.clone()));
    }
    let params = payload
        .pointer("/preToolUse/parameters")
        .and_then(Value::as_object)
        .ok_or("the payload has no `preToolUse.parameters` object")?;
    let mut input = Map::new();
    for (k, v) in params {
        let read = match v.as_str() {
            Some(s) if s.trim_start().starts_with(['[', '{']) => {
                serde_json::from_str(s).unwrap_or_else(|_| v.clone())
            }
            _ => v.clone(),
        };
        input.insert(k.clone(), read);
    }
    Ok((name, Value::Object(input)))
}

/// Read one tool call into `call`: its kind, command and files.
fn decode_tool(call: &mut Call, name: &str, input: &Value) -> Result<(), String> {
    let mut tool = CallTool {
        kind: PROFILE.tool_kind(name),
        native: name.to_owned(),
        ..CallTool::default()
    };
    call.text = Some(input.to_string());
    match name {
        "run_commands" | "execute_command" => {
            call.command = Some(command_line(input)?);
            call.text = None;
        }
        "read_files" | "read_file" => {
            call.paths = read_paths(input);
            if call.paths.is_empty() {
                return Err(format!("the {name} input names no file"));
            }
        }
        "editor" | "write_to_file" | "replace_in_file" => {
            call.paths.push(string_at(input, "/path")?.to_owned());
            // `editor` creates a missing file and changes an existing one.
            let (first, second) = match name {
                "write_to_file" => (ToolKind::Write, None),
                "replace_in_file" => (ToolKind::Edit, None),
                _ => (ToolKind::Edit, Some(ToolKind::Write)),
            };
            tool.kind = Some(first);
            tool.also = second.into_iter().map(|k| kind_tool(name, k)).collect();
        }
        "apply_patch" => {
            let patch = input
                .as_str()
                .map_or_else(|| string_at(input, "/input"), Ok)?;
            let files = patch_files(patch);
            if files.added.is_empty() && files.changed.is_empty() {
                return Err("the apply_patch input names no file".to_owned());
            }
            let kinds = files.kinds();
            tool.kind = Some(kinds[0]);
            tool.also = kinds[1..].iter().map(|k| kind_tool(name, *k)).collect();
            call.paths = files.added.into_iter().chain(files.changed).collect();
        }
        _ if tool.kind.is_none() => {
            // An MCP tool is `<server>__<tool>`; a server name may hold `__`
            // itself, so each split is one reading of the call.
            let mut splits = mcp_splits(name).into_iter();
            if let Some(first) = splits.next() {
                tool.mcp = Some(first);
                tool.also = splits
                    .map(|s| CallTool {
                        mcp: Some(s),
                        native: name.to_owned(),
                        ..CallTool::default()
                    })
                    .collect();
            }
        }
        _ => {}
    }
    call.tool = Some(tool);
    Ok(())
}

fn kind_tool(native: &str, kind: ToolKind) -> CallTool {
    CallTool {
        kind: Some(kind),
        native: native.to_owned(),
        ..CallTool::default()
    }
}

/// Every `(server, tool)` reading of a `<server>__<tool>` name.
fn mcp_splits(name: &str) -> Vec<(String, String)> {
    name.match_indices("__")
        .map(|(i, _)| (name[..i].to_owned(), name[i + 2..].to_owned()))
        .filter(|(s, t)| !s.is_empty() && !t.is_empty())
        .collect()
}

/// The command line of a shell tool's input, in every shape Cline's
/// `run_commands` takes (`{"commands": [...]}`, one string, `{command,
/// args}` run without a shell, …). Several commands run one after another,
/// each on its own: each becomes `sh -c '<command>'`, so that a quote one
/// leaves open cannot swallow the next.
fn command_line(input: &Value) -> Result<String, String> {
    let entries: Vec<&Value> = match input {
        Value::Object(o) if o.contains_key("commands") => match &o["commands"] {
            Value::Array(list) => list.iter().collect(),
            one => vec![one],
        },
        Value::Object(o) if o.contains_key("args") => vec![input],
        Value::Object(o) => match o.get("command").or_else(|| o.get("cmd")) {
            Some(one) => vec![one],
            None => Vec::new(),
        },
        Value::Array(list) => list.iter().collect(),
        Value::String(_) => vec![input],
        _ => Vec::new(),
    };
    let mut lines = Vec::new();
    for entry in entries {
        lines.push(match entry {
            Value::String(s) => s.clone(),
            Value::Object(o) => {
                let program = o
                    .get("command")
                    .and_then(Value::as_str)
                    .ok_or("a structured command has no `command` string")?;
                let mut words = vec![sh_word(program)];
                for arg in o
                    .get("args")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    words.push(sh_word(
                        arg.as_str().ok_or("a command argument is not a string")?,
                    ));
                }
                words.join(" ")
            }
            _ => return Err("a command is neither a string nor `{command, args}`".to_owned()),
        });
    }
    match lines.len() {
        0 => Err(
            "the run_commands input holds no command; give `{\"commands\": [\"...\"]}`".to_owned(),
        ),
        1 => Ok(lines.remove(0)),
        _ => Ok(lines
            .iter()
            .map(|l| format!("sh -c {}", sh_word(l)))
            .collect::<Vec<_>>()
            .join("\n")),
    }
}

/// The files of a read tool's input, in every shape `read_files` takes.
fn read_paths(input: &Value) -> Vec<String> {
    fn collect(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::String(s) => out.push(s.clone()),
            Value::Array(list) => list.iter().for_each(|x| collect(x, out)),
            Value::Object(o) => {
                for key in [
                    "files",
                    "file_paths",
                    "paths",
                    "path",
                    "file_path",
                    "filePath",
                ] {
                    if let Some(x) = o.get(key) {
                        collect(x, out);
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    collect(input, &mut out);
    out
}

/// Cline names an MCP tool `<server>__<tool>` only when that holds nothing
/// but letters, digits, `_` and `-` and is at most 64 characters long;
/// otherwise the name is shortened and hashed, and hookc cannot read the
/// server and tool back from it.
fn warn_hashed_mcp_names(policy: &Policy, cx: &mut EmitCx) {
    for guard in &policy.guards {
        for tool in &guard.tools {
            let Tool::Mcp { server, tool } = tool else {
                continue;
            };
            let name = format!("{server}__{tool}");
            let literal: String = name.chars().filter(|c| !matches!(c, '*' | '?')).collect();
            let odd = !literal
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            if odd || (literal == name && name.len() > 64) {
                cx.unsupported(
                    guard,
                    HarnessId::Cline,
                    format!("Cline hashes the MCP tool name `{name}`"),
                    "a name with characters other than letters, digits, `_` and `-`, or over 64 characters, loses its server and tool, so the guard does not see the call; rename the server or tool in Cline's MCP settings".to_owned(),
                );
            }
        }
    }
}

/// The tool names one guard tool stands for (Cline has no matchers, so these
/// only say whether the guard can run there); every MCP tool can.
fn matcher_names(tool: &Tool) -> Vec<String> {
    match tool {
        Tool::Known { tool } => PROFILE
            .tool_names(*tool)
            .iter()
            .map(|n| (*n).to_owned())
            .collect(),
        Tool::Mcp { server, tool } => vec![format!("{server}__{tool}")],
        Tool::Native { harness, name } if *harness == HarnessId::Cline => vec![name.clone()],
        Tool::Native { .. } => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::{Observation, Outcome};

    fn verdict(decision: Decision) -> Verdict {
        super::super::test_verdict(decision, "No.")
    }

    fn observe(exit: Option<i32>, stdout: &str) -> Outcome {
        Cline.outcome(
            Event::PreTool,
            &Observation {
                exit,
                stdout: stdout.into(),
                ..Observation::default()
            },
        )
    }

    fn shell(command: &str) -> ExampleCall {
        ExampleCall {
            tool: None,
            command: Some(command.into()),
            path: None,
            text: None,
        }
    }

    /// The extension's payload: `preToolUse` only, every parameter a string.
    fn extension(tool: &str, parameters: Value) -> Value {
        json!({"clineVersion": "4.1.13", "hookName": "PreToolUse", "timestamp": "1",
               "taskId": "t", "workspaceRoots": ["/r"], "userId": "u",
               "preToolUse": {"toolName": tool, "parameters": parameters},
               "model": {"provider": "p", "slug": "s"}})
    }

    #[test]
    fn every_refusal_cancels_with_the_reason() {
        for decision in [
            Decision::Deny,
            Decision::Block,
            Decision::Ask,
            Decision::Rewrite,
        ] {
            let a = Cline.answer(Event::PreTool, Some(&verdict(decision)));
            let o = observe(Some(a.exit), &a.stdout);
            assert!(!o.proceeds, "{decision}: {o:?}");
            let shown = o.user_sees.unwrap();
            assert!(shown.contains("No."), "{decision}: {shown}");
        }
        // Nothing to object: no answer, the call goes ahead.
        let a = Cline.answer(Event::PreTool, None);
        assert!(observe(Some(a.exit), &a.stdout).proceeds);
        // Context reaches the model and the call goes ahead.
        let a = Cline.answer(Event::PreTool, Some(&verdict(Decision::Context)));
        let o = observe(Some(a.exit), &a.stdout);
        assert!(
            o.proceeds && o.model_reads.as_deref() == Some("No."),
            "{o:?}"
        );
    }

    #[test]
    fn the_shims_refusal_is_an_answer_cline_obeys() {
        let json = REFUSE
            .lines()
            .find_map(|l| l.trim().strip_prefix("printf '%s\\n' '"))
            .and_then(|l| l.strip_suffix('\''))
            .unwrap();
        assert!(!observe(Some(0), json).proceeds, "{json}");
    }

    #[test]
    fn failures_and_malformed_answers_let_the_call_through() {
        assert!(observe(Some(1), "").proceeds);
        assert!(observe(Some(0), "not json").proceeds);
        assert!(observe(None, "").proceeds);
        assert!(observe(Some(0), r#"{"cancel": "true"}"#).proceeds);
        assert!(observe(Some(0), r#"{"cancel": true, "shouldContinue": false}"#).proceeds);
        // The exit status does not matter beside a valid answer.
        assert!(!observe(Some(1), r#"{"cancel": true}"#).proceeds);
        // The extension finds the answer after other output.
        assert!(!observe(Some(0), "debug\n{\"cancel\": true}\n").proceeds);
    }

    #[test]
    fn its_own_payloads_decode_to_the_example() {
        let root = Path::new("/r");
        let p = Cline
            .payload(Event::PreTool, &shell("git push -f"), root)
            .unwrap();
        let c = Cline.decode_call(Event::PreTool, &p).unwrap();
        assert_eq!(c.command.as_deref(), Some("git push -f"));
        // The project is where the policy is (`hookc guard` fills it in);
        // the hook's folder is only where the call runs.
        assert_eq!(c.root, None);
        assert!(c.cwd.is_some());
        let read = ExampleCall {
            tool: Some(Tool::Known {
                tool: ToolKind::Read,
            }),
            command: None,
            path: Some(".env".into()),
            text: None,
        };
        let p = Cline.payload(Event::PreTool, &read, root).unwrap();
        // The extension's payload of the same call decodes alike.
        let ext = extension("read_files", p["preToolUse"]["parameters"].clone());
        for p in [p, ext] {
            let c = Cline.decode_call(Event::PreTool, &p).unwrap();
            assert_eq!(c.paths, vec!["/r/.env"], "{p}");
            assert_eq!(c.tool.unwrap().kind, Some(ToolKind::Read));
        }
        let prompt = ExampleCall {
            tool: None,
            command: None,
            path: None,
            text: Some("hi".into()),
        };
        let p = Cline.payload(Event::Prompt, &prompt, root).unwrap();
        let c = Cline.decode_call(Event::Prompt, &p).unwrap();
        assert_eq!(c.text.as_deref(), Some("hi"));
    }

    #[test]
    fn commands_are_read_in_every_shape_and_kept_apart() {
        let line = |input: Value| {
            let p = json!({"preToolUse": {"toolName": "run_commands", "parameters": {}},
                           "tool_call": {"name": "run_commands", "input": input}});
            Cline
                .decode_call(Event::PreTool, &p)
                .map(|c| c.command.unwrap())
        };
        assert_eq!(line(json!({"commands": ["ls"]})).unwrap(), "ls");
        assert_eq!(line(json!("ls")).unwrap(), "ls");
        assert_eq!(line(json!({"command": "ls"})).unwrap(), "ls");
        assert_eq!(
            line(json!({"command": "rm", "args": ["-rf", "a b"]})).unwrap(),
            "'rm' '-rf' 'a b'"
        );
        // A quote left open in one command cannot hide the next.
        let two = line(json!({"commands": ["echo \"", "rm -rf / #\""]})).unwrap();
        assert_eq!(two, "sh -c 'echo \"'\nsh -c 'rm -rf / #\"'");
        let analysis = crate::shell::analyze(&two);
        assert!(
            analysis.commands.iter().any(|c| c.program == "rm"),
            "{analysis:?}"
        );
        // The extension's string parameters are read back.
        let c = Cline
            .decode_call(
                Event::PreTool,
                &extension("run_commands", json!({"commands": "[\"git push -f\"]"})),
            )
            .unwrap();
        assert_eq!(c.command.as_deref(), Some("git push -f"));
        // Nothing to read is refused, not let through.
        assert!(line(json!({})).is_err());
        assert!(line(json!({"commands": []})).is_err());
        assert!(line(json!({"commands": [1]})).is_err());
    }

    #[test]
    fn mcp_examples_are_sent_by_cline_s_names_and_odd_names_are_warned_about() {
        let call = ExampleCall {
            tool: Some(Tool::Mcp {
                server: "payments".into(),
                tool: "refund_all".into(),
            }),
            command: None,
            path: None,
            text: None,
        };
        let p = Cline
            .payload(Event::PreTool, &call, Path::new("/r"))
            .unwrap();
        assert_eq!(p["tool_call"]["name"], "payments__refund_all");
        let t = Cline.decode_call(Event::PreTool, &p).unwrap().tool.unwrap();
        assert_eq!(t.mcp, Some(("payments".into(), "refund_all".into())));

        let build = |server: &str| {
            let text = format!(
                "targets \"cline\"\nguard \"g\" {{\n  mcp \"{server}\" \"refund\"\n  deny \"No.\"\n}}\n"
            );
            let file = crate::source::SourceFile::new("policy.kdl", &text);
            let mut diags = crate::diag::Diagnostics::default();
            let policy = crate::compile::compile_source(&file, &mut diags).unwrap();
            let mut cx = EmitCx::new(&file, &mut diags);
            Cline.emit(&policy, &mut cx);
            drop(cx);
            format!("{diags:?}")
        };
        assert!(build("my.pay").contains("hashes the MCP tool name"));
        assert!(!build("pay*").contains("hashes the MCP tool name"));
    }

    #[test]
    fn file_and_mcp_tools_name_what_they_touch() {
        let decode = |name: &str, input: Value| {
            Cline.decode_call(
                Event::PreTool,
                &json!({"preToolUse": {"toolName": name, "parameters": {}},
                        "tool_call": {"name": name, "input": input}}),
            )
        };
        let c = decode("editor", json!({"path": "/r/.env", "new_text": "x"})).unwrap();
        let t = c.tool.unwrap();
        assert_eq!(c.paths, vec!["/r/.env"]);
        assert_eq!(t.kind, Some(ToolKind::Edit));
        assert_eq!(t.also[0].kind, Some(ToolKind::Write));
        let c = decode(
            "read_files",
            json!({"files": [{"path": "/r/a"}, "/r/b"], "file_paths": ["/r/c"]}),
        )
        .unwrap();
        assert_eq!(c.paths, vec!["/r/a", "/r/b", "/r/c"]);
        let c = decode(
            "apply_patch",
            json!("*** Begin Patch\n*** Add File: /r/n\n+x\n*** End Patch\n"),
        )
        .unwrap();
        assert_eq!(c.paths, vec!["/r/n"]);
        assert_eq!(c.tool.unwrap().kind, Some(ToolKind::Write));
        let c = decode("my__srv__refund", json!({})).unwrap();
        let t = c.tool.unwrap();
        assert_eq!(t.mcp, Some(("my".into(), "srv__refund".into())));
        assert_eq!(t.also[0].mcp, Some(("my__srv".into(), "refund".into())));
        // A file tool without its file is refused, not let through.
        assert!(decode("editor", json!({})).is_err());
        assert!(decode("read_files", json!({})).is_err());
        // So is a payload whose two names disagree.
        assert!(
            Cline
                .decode_call(
                    Event::PreTool,
                    &json!({"preToolUse": {"toolName": "read_files", "parameters": {}},
                            "tool_call": {"name": "run_commands",
                                          "input": {"commands": ["git push -f"], "files": ["/r/a"]}}})
                )
                .is_err()
        );
    }
}
