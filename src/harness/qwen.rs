//! Qwen Code: hooks merged into `.qwen/settings.json`.
//!
//! Protocol facts this file relies on (read from the shipped code of
//! `@qwen-code/qwen-code` 0.24.4 and 0.15.10, and checked against a scripted
//! model by the conformance suite; the book's page lists them in full):
//! - Claude-style events and output: `PreToolUse`, `permissionDecision`,
//!   top-level `decision`. Exit 2 with text on stderr refuses, and the model
//!   reads that text; exit 2 with an empty stderr, any other status with
//!   plain text, a timeout, a crash or a missing shell let the call through.
//!   On exit 2 a stderr that is a JSON object is read as the answer, so a
//!   refusal's text never starts with `{`.
//! - Commands run with `bash -c` in the session's directory, with
//!   `QWEN_PROJECT_DIR` set to it. 0.15 pastes a quoted directory over
//!   `$CLAUDE_PROJECT_DIR` and `$GEMINI_PROJECT_DIR` in the command text, but
//!   not over `$QWEN_PROJECT_DIR`, so hookc uses that one.
//! - `timeout` is milliseconds on 0.15; on 0.24 a value under 1000 is
//!   seconds and one of 1000 or more milliseconds. hookc writes
//!   milliseconds (at least 1000), which mean the same on both.
//! - Matchers: 0.15 tests a JavaScript regex unanchored against the tool
//!   name (`*` is a broken regex there and matches nothing); 0.24 first
//!   compares plain names and aliases (`Bash`), then does the same. hookc
//!   writes an anchored alternation of the runtime names
//!   (`^(?:run_shell_command)$`), which means the same on both.
//! - MCP tools are `mcp__<server>__<tool>`, with every character outside
//!   `[A-Za-z0-9_.-]` made `_`; names over 63 characters are shortened.
//! - On loading, Qwen adds `"$version"` to a settings file that lacks it;
//!   hookc's merge keeps keys it does not own, so that is no drift.

use std::path::Path;

use indexmap::IndexMap;
use serde_json::{Value, json};

use super::common::{self, Route};
use super::payload::{self, ToolCall};
use super::{
    Answer, Harness, HookCommand, MachineCheck, Profile, anchored_alternation, glob_to_regex,
    grouped_hook_command, string_at, windows,
};
use crate::emit::EmitCx;
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, Tool, ToolKind};
use crate::profile::{
    Dialect, FileFormat, Flavour, HookFile, JsonSpec, LateHook, Matching, McpNames, OnHookError,
    PlainStdout, Unit,
};

pub struct Qwen;

/// Hook entries hookc owns are recognised by this path in their command.
const MARKER: &str = "/.hookc/qwen/";
const SETTINGS: &str = ".qwen/settings.json";

/// The system settings file, which Qwen Code reads above the user's and the
/// project's (`getSystemSettingsPath` in 0.24.4's bundle): hookc's entries
/// are merged into the administrator's file.
const MANAGED: crate::managed::Layer = crate::managed::Layer {
    file: crate::managed::Paths {
        linux: "/etc/qwen-code/settings.json",
        macos: "/Library/Application Support/QwenCode/settings.json",
        windows: crate::managed::OnWindows::At(r"C:\ProgramData\qwen-code\settings.json"),
    },
    what: "Qwen Code's system settings",
    only_managed: None,
    // 0.24.4 and 0.15.10 run the system file's hooks (0.24.4 in every
    // folder, trusted or not), and the system file's `disableAllHooks:
    // false` wins over a user's or a project's; but 0.24's `--bare` and
    // safe mode run no hooks at all, and a `.qwen/.env` can ask for safe
    // mode (the conformance suite saw it; the system file's
    // `advanced.excludedEnvVars` closes only a plain `.env`).
    not_enforced: Some(
        "a project or user can still switch the hooks off: QWEN_CODE_SAFE_MODE in the project's .qwen/.env, `--bare` or `--safe-mode`; Qwen Code has no setting that keeps the administrator's hooks on",
    ),
};

static PROFILE: Profile = Profile {
    id: HarnessId::Qwen,
    name: "Qwen Code",
    events: &[
        (Event::PreTool, "PreToolUse"),
        (Event::PostTool, "PostToolUse"),
        (Event::Prompt, "UserPromptSubmit"),
        (Event::Stop, "Stop"),
        (Event::SubagentStop, "SubagentStop"),
        (Event::SessionStart, "SessionStart"),
    ],
    tools: &[
        (ToolKind::Shell, &["run_shell_command"]),
        (ToolKind::Read, &["read_file"]),
        (ToolKind::Write, &["write_file"]),
        (ToolKind::Edit, &["edit", "replace"]),
        (ToolKind::WebFetch, &["web_fetch"]),
    ],
    // PostToolUse takes only `continue: false`, which ends the turn: hookc
    // does not write that as a post-tool refusal.
    can_block: &[
        Event::PreTool,
        Event::Prompt,
        Event::Stop,
        Event::SubagentStop,
    ],
    honours_ask: &[Event::PreTool],
    can_rewrite: false,
    options: &[],
    todo: &["install hookc on every machine that runs Qwen Code in this repo (or set HOOKC_BIN)"],
    // 0.24.4's event list; 0.15.10 skips the newer ones with a warning.
    more_events: &[
        "PostToolUseFailure",
        "PostToolBatch",
        "Notification",
        "UserPromptExpansion",
        "MessageDisplay",
        "SubagentStart",
        "PreCompact",
        "PostCompact",
        "SessionEnd",
        "SessionDelete",
        "PermissionRequest",
        "PermissionDenied",
        "StopFailure",
        "TodoCreated",
        "TodoCompleted",
        "InstructionsLoaded",
    ],
    files: &[HookFile {
        dir: ".qwen",
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
        types: &["command", "http", "prompt"],
        command_keys: &["command"],
        timeout_keys: &["timeout"],
        unit: Unit::Millis,
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
    flavour: Some(Flavour::EcmaScript),
    mcp_names: |_| Some(McpNames::DoubleUnderscore),
    refusal: Some(include_str!("../../templates/qwen/refuse.sh.hbs")),
    on_hook_error: OnHookError::Proceeds,
    own_timeout: None,
    late_hook: LateHook::Proceeds,
    hints: &[".qwen/", "QWEN.md"],
    // A `.env` under `.qwen/` can set QWEN_CODE_SAFE_MODE, which turns every
    // hook off (the conformance suite saw it).
    protected: &[
        ".qwen/settings.json",
        ".qwen/.env",
        "~/.qwen/settings.json",
        "~/.qwen/.env",
        "/etc/qwen-code",
        "$QWEN_CODE_SYSTEM_SETTINGS_PATH",
    ],
    protected_examples: &[".qwen/settings.json"],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::Unknown,
    hook_vars: None,
};

/// Qwen shortens MCP tool names longer than this; hookc's matcher cannot
/// predict the shortened name.
const MAX_TOOL_NAME: usize = 63;

/// The variable that starts Qwen Code in safe mode, which runs no hooks.
const SAFE_MODE: &str = "QWEN_CODE_SAFE_MODE";

/// Whether the dotenv file at `path` sets [`SAFE_MODE`] (to anything: which
/// values Qwen Code counts as on is its business).
fn sets_safe_mode(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|text| {
        text.lines().any(|line| {
            let line = line.trim_start();
            let line = line.strip_prefix("export ").unwrap_or(line).trim_start();
            line.strip_prefix(SAFE_MODE)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        })
    })
}

/// hookc's hook groups, by Qwen Code's event name, with the warnings of what
/// Qwen Code cannot do; `handler` writes the shim of an event and returns
/// the command that runs it and the shell it runs in.
fn hook_entries(
    policy: &Policy,
    cx: &mut EmitCx,
    handler: &mut dyn FnMut(&mut EmitCx, Event, &str) -> (String, &'static str),
) -> IndexMap<String, Vec<Value>> {
    common::warn_unsupported_events(policy, &PROFILE, cx);
    common::warn_decisions(
        policy,
        &PROFILE,
        cx,
        &|event, decision| match (event, decision) {
            (Event::PreTool, Decision::Context) => Some(
                "Qwen Code reads no added context before a tool runs; the call goes ahead without it",
            ),
            (Event::PostTool, d) if d.refuses() => {
                Some("Qwen Code cannot refuse a tool's result; hookc tells the user instead")
            }
            _ => None,
        },
    );
    warn_long_mcp_names(policy, cx);
    let mut entries: IndexMap<String, Vec<Value>> = IndexMap::new();
    for &(event, native) in PROFILE.events {
        let Some(Route { names, any_tool }) =
            common::route(policy, event, &PROFILE, cx, &matcher_names)
        else {
            continue;
        };
        let (command, shell) = handler(cx, event, native);
        let handler = json!({
            "type": "command",
            "name": format!("hookc-{}", event.word()),
            "command": command,
            "shell": shell,
            // Milliseconds, at least 1000: the same on 0.15 and 0.24.
            "timeout": u64::from(policy.timeout).max(1) * 1000,
        });
        let matcher = (event.has_tools() && !any_tool).then(|| anchored_alternation(names));
        entries.insert(native.to_owned(), vec![common::group(matcher, handler)]);
    }
    entries
}

impl Harness for Qwen {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn machine_checks(&self, root: &Path, home: Option<&Path>) -> Vec<MachineCheck> {
        let name = PROFILE.name;
        let mut checks = Vec::new();
        for path in [
            Some(root.join(SETTINGS)),
            common::under_home(home, ".qwen/settings.json"),
            Some(Path::new("/etc/qwen-code/settings.json").to_owned()),
        ]
        .into_iter()
        .flatten()
        {
            if common::read_json(Some(path.clone()))
                .is_some_and(|v| v["disableAllHooks"] == json!(true))
            {
                checks.push(MachineCheck::fail(
                    format!(
                        "{name}: {} turns every hook off (disableAllHooks)",
                        path.display()
                    ),
                    format!("remove `\"disableAllHooks\": true` from {}", path.display()),
                ));
            }
        }
        for path in [
            Some(root.join(".qwen/.env")),
            Some(root.join(".env")),
            common::under_home(home, ".qwen/.env"),
        ]
        .into_iter()
        .flatten()
        {
            if sets_safe_mode(&path) {
                checks.push(MachineCheck::fail(
                    format!(
                        "{name}: {} sets {SAFE_MODE}, and safe mode runs no hooks",
                        path.display()
                    ),
                    format!("remove {SAFE_MODE} from {}", path.display()),
                ));
            }
        }
        checks.push(MachineCheck::note(
            format!("{name} skips project hooks in an untrusted folder when folder trust is on, and runs no hooks with --bare"),
            "trust the folder if Qwen Code asks, and do not start it with --bare",
        ));
        checks
    }

    fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        let entries = hook_entries(policy, cx, &mut |cx, event, native| {
            cx.shim(policy, &PROFILE, event, native, policy.on_error_for(event));
            let script = format!(".hookc/qwen/{}.sh", event.word());
            let command = common::source_shim(&format!("\"$QWEN_PROJECT_DIR\"/{script}"));
            (command, "bash")
        });
        cx.hook_entries(SETTINGS, entries, Vec::new(), MARKER);
    }

    fn managed_layer(&self) -> Option<crate::managed::Layer> {
        Some(MANAGED)
    }

    fn managed_checks(&self, root: &Path, os: crate::managed::Os) -> Vec<MachineCheck> {
        let mut checks = Vec::new();
        // Qwen Code reads the system file from this variable when it is set
        // (a project's `.env` cannot set it), wherever it points.
        if let Some(other) = std::env::var_os("QWEN_CODE_SYSTEM_SETTINGS_PATH")
            && MANAGED
                .on(os)
                .is_none_or(|f| Path::new(&other) != Path::new(f))
        {
            checks.push(MachineCheck::Fail(
                format!(
                    "Qwen Code: QWEN_CODE_SYSTEM_SETTINGS_PATH points it at {} instead of the managed file",
                    Path::new(&other).display()
                ),
                "unset QWEN_CODE_SYSTEM_SETTINGS_PATH where Qwen Code runs".to_owned(),
            ));
        }
        if let Some(file) = MANAGED.on(os)
            && let Some(settings) =
                common::read_json(Some(root.join(crate::managed::tree_path(file))))
            && !settings["advanced"]["excludedEnvVars"]
                .as_array()
                .is_some_and(|names| names.contains(&json!(SAFE_MODE)))
        {
            checks.push(MachineCheck::Fail(
                format!("Qwen Code: {file} does not list {SAFE_MODE} in advanced.excludedEnvVars, so a project's .env can turn every hook off"),
                format!("add \"{SAFE_MODE}\" to advanced.excludedEnvVars in {file} (hookc adds it only to a file without an `advanced` section)"),
            ));
        }
        if std::env::var_os(SAFE_MODE).is_some() {
            checks.push(MachineCheck::Fail(
                "Qwen Code: QWEN_CODE_SAFE_MODE is set, and safe mode runs no hooks, the managed ones included".to_owned(),
                "unset QWEN_CODE_SAFE_MODE where Qwen Code runs".to_owned(),
            ));
        }
        checks
    }

    fn emit_managed(&self, policy: &Policy, cx: &mut EmitCx, install: &crate::managed::Install) {
        let windows = install.os == crate::managed::Os::Windows;
        // What marks hookc's entries in the administrator's file: the
        // folder of hookc's own files, as the manifest names it.
        let marker = format!("{}/qwen/", install.hookc_dir());
        let entries = hook_entries(policy, cx, &mut |cx, event, native| {
            if windows {
                // `"shell": "powershell"` runs `powershell -Command` with the
                // line (0.24.4's hook runner), so no Git Bash is needed. The
                // line names no folder of hookc's own, so a comment at its
                // end carries the marker.
                let line = windows::managed_powershell(
                    cx,
                    PROFILE.id,
                    event,
                    windows::EXIT_2_WITH_REASON,
                    install,
                );
                return (format!("{line} # {marker}"), "powershell");
            }
            let shim = cx.managed_shim(
                policy,
                &PROFILE,
                (event, native),
                policy.on_error_for(event),
                install,
            );
            (common::managed_source_shim(&shim), "bash")
        });
        cx.hook_entries(
            &install.tree_file(MANAGED.file),
            entries,
            vec![
                // The system file wins for a setting: no user or project
                // file can turn every hook off while this one says no.
                ("disableAllHooks".to_owned(), json!(false)),
                // A project's plain `.env` may not ask for safe mode. (The
                // list is a union over the files; Qwen's own default is the
                // first two, which a list of ours would otherwise drop.)
                (
                    "advanced".to_owned(),
                    json!({ "excludedEnvVars": ["DEBUG", "DEBUG_MODE", SAFE_MODE] }),
                ),
            ],
            &marker,
        );
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Partly {
            what: "hookc's entries ask for `bash`, so the POSIX command runs where Git Bash is installed; where no `bash` is on the PATH the hook cannot start and Qwen Code lets the call through",
            fix: "install Git for Windows on every Windows machine that runs Qwen Code, or run Qwen Code in WSL",
        }
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        let mut call = common::new_call(
            event,
            payload,
            "QWEN_PROJECT_DIR",
            common::payload_cwd(payload),
        )?;
        match event {
            Event::PreTool | Event::PostTool => {
                let (name, input) = common::tool_and_input(payload)?;
                let kind = PROFILE.tool_kind(name);
                match kind {
                    Some(ToolKind::Shell) => {
                        call.command = Some(string_at(input, "/command")?.to_owned());
                    }
                    Some(ToolKind::Read | ToolKind::Write | ToolKind::Edit) => {
                        call.paths.push(string_at(input, "/file_path")?.to_owned());
                        call.text = Some(input.to_string());
                    }
                    _ => call.text = Some(input.to_string()),
                }
                call.tool = Some(CallTool {
                    kind,
                    mcp: McpNames::DoubleUnderscore.split(name),
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
        let native = PROFILE.event_name(event).unwrap_or("PreToolUse");
        let reason = verdict.reason();
        let mut out = serde_json::Map::new();
        match (event, verdict.decision) {
            (_, Decision::Context) => {
                out.insert(
                    "hookSpecificOutput".into(),
                    json!({ "hookEventName": native, "additionalContext": reason }),
                );
            }
            (Event::PreTool, decision) => {
                // Both forms: with several hooks on one call, Qwen ORs the
                // top-level decisions but lets the last hookSpecificOutput win.
                let top = match decision {
                    Decision::Deny | Decision::Block => "deny",
                    d => d.word(),
                };
                out.insert("decision".into(), json!(top));
                out.insert("reason".into(), json!(reason));
                out.insert(
                    "hookSpecificOutput".into(),
                    json!({
                        "hookEventName": native,
                        "permissionDecision": top,
                        "permissionDecisionReason": reason,
                    }),
                );
            }
            (_, decision) if decision.refuses() => {
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), json!(reason));
            }
            _ => {}
        }
        if let Some(message) = verdict.message() {
            out.insert("systemMessage".into(), json!(message));
        }
        let stdout = if out.is_empty() {
            String::new()
        } else {
            format!("{}\n", Value::Object(out))
        };
        if verdict.decision.refuses() {
            // Exit 2: stdout is ignored, the text on stderr is the reason.
            Answer {
                stdout,
                stderr: format!("{}\n", plain(&reason)),
                exit: 2,
            }
        } else {
            Answer {
                stdout,
                stderr: String::new(),
                exit: 0,
            }
        }
    }

    fn outcome(&self, event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{json_object, text};
        if o.timed_out || o.exit.is_none() {
            return Outcome::proceeds(
                "a timeout or a killed hook gives no output: the call proceeds (fail-open)",
            );
        }
        if o.exit == Some(2) {
            let Some(err) = text(&o.stderr) else {
                return Outcome::proceeds(
                    "exit 2 with nothing on stderr gives no output: the call proceeds (fail-open)",
                );
            };
            if let Some(j) = json_object(&err) {
                return decide(
                    event,
                    &j,
                    "exit 2 with a JSON object on stderr: that JSON decides",
                );
            }
            return Outcome::blocks(
                Some(err),
                "exit 2 with text on stderr denies; the text is the reason",
            );
        }
        if let Some(j) = json_object(&o.stdout) {
            return decide(event, &j, "JSON on stdout decides (on any exit but 2)");
        }
        match (o.exit, text(&o.stdout)) {
            (_, Some(t)) if t.starts_with('{') => Outcome::proceeds(
                "stdout starts with `{` but is not JSON: the hook counts as failed and the call proceeds",
            ),
            (Some(0), t) => {
                Outcome::proceeds("exit 0 without JSON allows; plain text goes to the user").user(t)
            }
            (_, t) => {
                Outcome::proceeds("exit 1 (or any code but 2) without JSON allows with a warning")
                    .user(t.map(|t| format!("Warning: {t}")))
            }
        }
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let mut v = json!({
            "session_id": "s1",
            "transcript_path": "/tmp/t.jsonl",
            "cwd": root.to_string_lossy(),
            "hook_event_name": PROFILE.event_name(event)?,
            "timestamp": "2026-12-01T10:00:00.000Z",
        });
        let o = v.as_object_mut()?;
        if event.has_tools() {
            let t = ToolCall::of(&PROFILE, call, root)?;
            o.insert("permission_mode".into(), json!("default"));
            o.insert("tool_name".into(), json!(t.native));
            o.insert("tool_input".into(), t.input("file_path"));
            o.insert("tool_use_id".into(), json!("toolu_1"));
            o.insert("tool_call_id".into(), json!("call_1"));
            if event == Event::PostTool {
                o.insert(
                    "tool_response".into(),
                    json!({"llmContent": "", "returnDisplay": ""}),
                );
            }
        }
        payload::claude_shaped_fields(o, event, call, "general-purpose")?;
        Some(v)
    }

    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        let dir = root.to_string_lossy().into_owned();
        let env = vec![
            ("QWEN_PROJECT_DIR", dir.clone()),
            ("CLAUDE_PROJECT_DIR", dir.clone()),
            ("GEMINI_PROJECT_DIR", dir),
        ];
        grouped_hook_command(root, SETTINGS, PROFILE.event_name(event)?, "bash", env)
    }
}

/// The outcome of a JSON answer: a deny in either form refuses, `ask` asks,
/// `continue: false` stops; the reason is `permissionDecisionReason`, else
/// `stopReason`, else `reason`.
fn decide(event: Event, j: &Value, rule: &'static str) -> super::Outcome {
    use super::Outcome;
    use super::outcome::str_at;
    let reason = str_at(j, "/hookSpecificOutput/permissionDecisionReason")
        .or_else(|| str_at(j, "/stopReason"))
        .or_else(|| str_at(j, "/reason"));
    let user = str_at(j, "/systemMessage");
    let specific = str_at(j, "/hookSpecificOutput/permissionDecision");
    let top = str_at(j, "/decision");
    let is = |words: &[&str]| {
        [&specific, &top]
            .iter()
            .any(|d| d.as_deref().is_some_and(|d| words.contains(&d)))
    };
    if is(&["deny", "block"]) || j.get("continue") == Some(&json!(false)) {
        Outcome::blocks(reason, rule).user(user)
    } else if is(&["ask"]) {
        Outcome::asks(reason, rule)
    } else {
        // PreToolUse's `additionalContext` only reaches Qwen's debug log
        // (0.24: `firePreToolUseHook`'s caller reads the decision alone).
        Outcome::proceeds(rule)
            .model(
                str_at(j, "/hookSpecificOutput/additionalContext")
                    .filter(|_| event != Event::PreTool),
            )
            .user(user)
    }
}

/// A reason as plain text Qwen cannot take for JSON (it reads a stderr that
/// is a JSON object as the hook's answer).
fn plain(reason: &str) -> String {
    if reason.trim_start().starts_with(['{', '[', '"']) {
        format!("Refused: {reason}")
    } else {
        reason.to_owned()
    }
}

/// The names a matcher needs for one guard tool, as regex fragments.
fn matcher_names(tool: &Tool) -> Vec<String> {
    common::tool_names(&PROFILE, tool, &|server, tool| {
        Some(glob_to_regex(&mcp_name(server, tool)))
    })
}

/// Qwen's name for an MCP tool, with `*` and `?` kept as globs:
/// `mcp__<server>__<tool>`, characters outside `[A-Za-z0-9_.-]` made `_`.
fn mcp_name(server: &str, tool: &str) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "_.-*?".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    format!("mcp__{}__{}", clean(server), clean(tool))
}

fn warn_long_mcp_names(policy: &Policy, cx: &mut EmitCx) {
    for guard in &policy.guards {
        for tool in &guard.tools {
            if let Tool::Mcp { server, tool } = tool
                && mcp_name(server, tool).len() > MAX_TOOL_NAME
            {
                cx.unsupported(
                    guard,
                    HarnessId::Qwen,
                    format!("Qwen Code shortens the MCP tool name `{}`", mcp_name(server, tool)),
                    "names over 63 characters lose their middle part, so hookc's matcher cannot name the tool; use a shorter server or tool glob".to_owned(),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::Observation;

    fn verdict(decision: Decision, reason: &str) -> Verdict {
        Verdict {
            decision,
            hits: vec![crate::eval::Hit {
                guard: "g".into(),
                from: None,
                decision,
                reason: reason.into(),
                message: None,
            }],
            rewritten: None,
        }
    }

    fn observed(answer: &Answer) -> Observation {
        Observation {
            exit: Some(answer.exit),
            stdout: answer.stdout.clone(),
            stderr: answer.stderr.clone(),
            ..Observation::default()
        }
    }

    #[test]
    fn mcp_names_are_sanitised_the_qwen_way() {
        assert_eq!(mcp_name("my server", "do it"), "mcp__my_server__do_it");
        assert_eq!(
            matcher_names(&Tool::Mcp {
                server: "pay-ments".into(),
                tool: "refund_*".into()
            }),
            vec![r"mcp__pay\-ments__refund_.*"]
        );
    }

    /// Every answer, read back through Qwen's own rules, does what the
    /// verdict says, and the model reads the reason.
    #[test]
    fn answers_do_what_the_verdict_says_in_qwens_reading() {
        for reason in ["Do not force-push.", "{\"decision\":\"allow\"}"] {
            for decision in [Decision::Deny, Decision::Block] {
                let a = Qwen.answer(Event::PreTool, Some(&verdict(decision, reason)));
                assert_eq!(a.exit, 2);
                let o = Qwen.outcome(Event::PreTool, &observed(&a));
                assert!(!o.proceeds, "{reason}: {o:?}");
                assert!(o.model_reads.as_deref().unwrap().contains(reason), "{o:?}");
            }
        }
        let ask = Qwen.answer(
            Event::PreTool,
            Some(&verdict(Decision::Ask, "Check first.")),
        );
        assert_eq!(ask.exit, 0);
        let o = Qwen.outcome(Event::PreTool, &observed(&ask));
        assert_eq!(o.word(), "asks", "{o:?}");
        let allow = Qwen.answer(Event::PreTool, Some(&verdict(Decision::Allow, "fine")));
        assert!(Qwen.outcome(Event::PreTool, &observed(&allow)).proceeds);
        assert_eq!(Qwen.answer(Event::PreTool, None), Answer::default());
    }

    /// The fail-open cases of Qwen's reading: exit 2 with an empty stderr,
    /// exit 2 with a JSON stderr that does not deny, plain text on exit 1.
    #[test]
    fn qwen_lets_the_call_through_on_what_it_cannot_read() {
        let o = |exit, stdout: &str, stderr: &str| {
            Qwen.outcome(
                Event::PreTool,
                &Observation {
                    exit: Some(exit),
                    stdout: stdout.into(),
                    stderr: stderr.into(),
                    ..Observation::default()
                },
            )
        };
        assert!(o(2, "", "").proceeds);
        assert!(o(2, "", "{\"decision\":\"allow\"}").proceeds);
        assert!(!o(2, "", "{\"decision\":\"deny\",\"reason\":\"no\"}").proceeds);
        assert!(o(1, "broken", "").proceeds);
        assert!(!o(1, "{\"decision\":\"deny\",\"reason\":\"no\"}", "").proceeds);
        assert!(
            !o(
                0,
                "{\"hookSpecificOutput\":{\"permissionDecision\":\"deny\"}}",
                ""
            )
            .proceeds
        );
        assert!(o(0, "{not json", "").proceeds);
    }
}
