//! GitHub Copilot CLI: hookc's own file `.github/hooks/hookc.json`.
//!
//! Protocol facts this file relies on (`shared/harnesses/copilot.md` and runs
//! of the pinned `@github/copilot` 1.0.102 against the oracle's model):
//! - Repository hooks come from every `.github/hooks/*.json` in the directory
//!   Copilot starts in (not the git root), after folder trust. hookc owns one
//!   file there and leaves the others alone.
//! - Native (camelCase) events get a camelCase payload without an event name:
//!   `{"sessionId", "timestamp", "cwd", "toolName", "toolArgs"}`. `toolArgs`
//!   was an object in every run; older documentation shows a JSON string, so
//!   both are read.
//! - stderr never reaches the model. A `preToolUse` denial is the JSON
//!   `permissionDecision`/`permissionDecisionReason` on stdout; hookc also
//!   exits 2, which Copilot (1.0.70 and later) treats as a denial into which
//!   the stdout JSON is merged. Any other non-zero exit of a `preToolUse`
//!   hook is a denial too ("hook errored"); a timeout is not (it lets the
//!   call through).
//! - `allow` approves the call without asking, and overrides the user's
//!   `--deny-tool` rules too (a `touch` ran under `--deny-tool
//!   'shell(touch)'`), so hookc never sends it; `ask` asks (and is refused
//!   when nobody can answer, as in `copilot -p`).
//! - `modifiedArgs` on stdout, with exit 0, replaces the call's arguments,
//!   and Copilot's own rules (`--deny-tool`, `--allow-tool`) then judge the
//!   changed call, not the model's: with `--deny-tool 'shell(touch)'`, a
//!   `touch` changed into `mkdir` ran, and `shell(mkdir)` refused it. With
//!   `permissionDecision: "allow"` beside it the changed call skipped the
//!   deny rule too, so a `rewrite` is answered without a decision. Its
//!   `additionalContext` reaches the model, after the tool's output. A
//!   line hookc hands to its run-time judge is changed the same way, where
//!   the user's rules allow (see `copilot_permissions.rs`).
//! - Copilot also runs the repo's `.claude/settings.json` hooks, with a
//!   Claude-shaped payload (`hook_event_name`, `tool_name: "Bash"`, an ISO
//!   `timestamp`, no `transcript_path`), and reads this file's flat JSON
//!   answers from them too. [`Copilot::recognizes`] tells those calls apart.

use std::path::Path;

use super::MachineCheck;

#[path = "copilot_permissions.rs"]
mod permissions;

use serde_json::{Value, json};

use super::payload::{ToolCall, text_of, without_text};
use super::{HookCommand, common, configured, windows};

use super::{Answer, Harness, Profile, anchored_alternation, json_type, patch_files, string_at};
use crate::diag::Code;
use crate::emit::{EmitCx, json_text};
use crate::eval::{Call, CallTool, Shell, Verdict};
use crate::ir::{Decision, Event, ExampleCall, Guard, HarnessId, Policy, Tool, ToolKind};
use crate::lint_rules::json::{Cx as LintCx, Quirks};
use crate::lint_rules::{FileReport, diag};
use crate::profile::{
    Dialect, FileFormat, Flavour, HookFile, JsonSpec, LateHook, Matching, McpNames, OnHookError,
    PlainStdout, Unit,
};
use crate::source::Span;

pub struct Copilot;

const HOOKS: &str = ".github/hooks/hookc.json";

/// Copilot CLI's policy folder: read before every other source, whatever
/// the folder's trust and `disableAllHooks` say, and only from files that
/// are root's and writable by root alone.
const MANAGED: crate::managed::Layer = crate::managed::Layer {
    file: crate::managed::Paths {
        linux: "/etc/github-copilot/policy.d/50-hookc.json",
        macos: "/etc/github-copilot/policy.d/50-hookc.json",
        windows: crate::managed::OnWindows::At(
            r"C:\ProgramData\GitHub\Copilot\policy.d\50-hookc.json",
        ),
    },
    what: "a file of Copilot CLI's policy folder",
    // Copilot CLI 1.0.102 skips a policy document with any key but its
    // hooks; the switch is one of its managed settings.
    only_managed: Some(crate::managed::Switch {
        key: "allowManagedHooksOnly",
        elsewhere: Some(MANAGED_SETTINGS),
    }),
    not_enforced: None,
};

/// Copilot CLI's managed settings, one file (`allowManagedHooksOnly`).
const MANAGED_SETTINGS: crate::managed::Paths = crate::managed::Paths {
    linux: "/etc/github-copilot/managed-settings.json",
    macos: "/etc/github-copilot/managed-settings.json",
    windows: crate::managed::OnWindows::At(r"C:\Program Files\GitHubCopilot\managed-settings.json"),
};

/// What a refusal for an unreadable shim tells the model to do.
const PROJECT_FIX: &str = "Run hookc build in the project.";
const MANAGED_FIX: &str = "Tell the user: the managed hookc install on this machine is incomplete (hookc doctor --managed).";

/// One hook's fields in a hooks file.
type Handler = serde_json::Map<String, Value>;

/// hookc's hooks, by Copilot CLI's event name, with the warnings of what it
/// cannot do; `finish` writes the shim of an event and adds its commands to
/// the handler (which has its `type` and `matcher`; `timeoutSec` follows).
fn hook_entries(
    policy: &Policy,
    cx: &mut EmitCx,
    finish: &mut dyn FnMut(&mut EmitCx, Event, &str, &mut Handler),
) -> serde_json::Map<String, Value> {
    let mut hooks = serde_json::Map::new();
    let missing = |guard: &Guard, tools: &[String], none: bool, cx: &mut EmitCx| {
        cx.unsupported(
            guard,
            HarnessId::Copilot,
            format!("Copilot CLI has no tool for {}", common::quoted_list(tools)),
            if none {
                "the guard will not run there".to_owned()
            } else {
                "calls of those tools are not checked there".to_owned()
            },
        );
    };
    for &(event, native) in PROFILE.events {
        for guard in policy.guards.iter().filter(|g| g.event == event) {
            warn_degraded(guard, cx);
        }
        let Some(common::Route { names, any_tool }) =
            common::route_warning(policy, event, &PROFILE, cx, &matcher_names, &missing)
        else {
            continue;
        };
        let mut handler = Handler::new();
        handler.insert("type".into(), json!("command"));
        if event.has_tools() && !any_tool {
            handler.insert("matcher".into(), json!(anchored_alternation(names)));
        }
        finish(cx, event, native, &mut handler);
        handler.insert("timeoutSec".into(), json!(policy.timeout));
        hooks.insert(native.to_owned(), json!([handler]));
    }
    hooks
}

static PROFILE: Profile = Profile {
    id: HarnessId::Copilot,
    name: "GitHub Copilot CLI",
    events: &[
        (Event::PreTool, "preToolUse"),
        (Event::PostTool, "postToolUse"),
        (Event::Prompt, "userPromptSubmitted"),
        (Event::Stop, "agentStop"),
        (Event::SubagentStop, "subagentStop"),
        (Event::SessionStart, "sessionStart"),
    ],
    // `write_bash` types into a shell the agent started earlier, so it is a
    // shell command too. On Windows the shell tools are `powershell` and
    // `write_powershell`, whose lines hookc cannot read (see `eval::Shell`). `str_replace_editor` also views and creates; its
    // `command` decides (see `decode_call`).
    tools: &[
        (
            ToolKind::Shell,
            &["bash", "write_bash", "powershell", "write_powershell"],
        ),
        (ToolKind::Read, &["view"]),
        (ToolKind::Write, &["create"]),
        (
            ToolKind::Edit,
            &["edit", "str_replace_editor", "apply_patch"],
        ),
        (ToolKind::WebFetch, &["web_fetch"]),
    ],
    can_block: &[Event::PreTool, Event::Stop, Event::SubagentStop],
    honours_ask: &[Event::PreTool],
    can_rewrite: true,
    options: &[],
    todo: &[
        "install hookc on every machine that runs Copilot CLI in this repo (or set HOOKC_BIN)",
        "start Copilot CLI in the project root and trust the folder: Copilot reads .github/hooks/ only from the directory it starts in",
    ],
    more_events: &[
        "PreToolUse",
        "permissionRequest",
        "PermissionRequest",
        "PostToolUse",
        "postToolUseFailure",
        "PostToolUseFailure",
        "Stop",
        "SubagentStop",
        "subagentStart",
        "UserPromptSubmit",
        "userPromptTransformed",
        "SessionStart",
        "sessionEnd",
        "SessionEnd",
        "errorOccurred",
        "ErrorOccurred",
        "preCompact",
        "PreCompact",
        "notification",
        "preMcpToolCall",
    ],
    files: &[HookFile {
        dir: ".github/hooks",
        names: &["*.json"],
        format: FileFormat::HooksJson,
        in_project: true,
    }],
    json: Some(JsonSpec {
        // serde_json: the oracle's Copilot CLI 1.0.102 run loads no hook from a file with a
        // comment, a trailing comma or a byte order mark ("Invalid JSON").
        dialect: Dialect::STRICT,
        strict_root: None,
        version: Some(false),
        groups: true,
        flat_ok: true,
        require_type: false,
        types: &["command", "http", "prompt"],
        command_keys: &["bash", "powershell", "command", "exec"],
        timeout_keys: &["timeoutSec", "timeout"],
        unit: Unit::Seconds,
        matching: Matching::Anchored,
        star_is_all: false,
        matcher_aliases: &[],
        tools_closed: false,
        matcher_subject: crate::profile::tool_name_matchers,
        events_any_case: false,
        strict_keys: None,
        stdout_is_reply: true,
        plain_stdout: |_| PlainStdout::Unknown,
    }),
    flavour: Some(Flavour::EcmaScriptOrRust),
    mcp_names: |event| {
        Some(if event.starts_with(|c: char| c.is_ascii_uppercase()) {
            McpNames::DoubleUnderscore
        } else {
            McpNames::ServerDashTool
        })
    },
    refusal: Some(include_str!("../../templates/copilot/refuse.sh.hbs")),
    on_hook_error: OnHookError::Refuses,
    own_timeout: None,
    late_hook: LateHook::Proceeds,
    hints: &[".github/hooks/", ".github/copilot-instructions.md"],
    // The repository's settings files hold hooks of their own and
    // `disableAllHooks`, which switches hookc's off (a `-p` run with it in
    // `.github/copilot/settings.json` ran a denied command).
    protected: &[
        ".github/hooks",
        ".github/copilot/settings.json",
        ".github/copilot/settings.local.json",
        "~/.copilot/hooks",
        "~/.copilot/settings.json",
        "~/.copilot/config.json",
        "$COPILOT_HOME/hooks",
        "$COPILOT_HOME/settings.json",
        "$COPILOT_HOME/config.json",
    ],
    protected_examples: &[".github/hooks/hookc.json", ".github/copilot/settings.json"],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[HarnessId::Claude],
    guests: &[],
    hook_dir: crate::profile::HookDir::ProjectRoot,
    hook_vars: Some(crate::profile::HookVars {
        set: &[],
        complete: true,
    }),
};

/// Copilot's own names for the Claude tool names of a Claude-shaped payload.
const CLAUDE_NAMES: &[(&str, ToolKind)] = &[
    ("Bash", ToolKind::Shell),
    ("Read", ToolKind::Read),
    ("Write", ToolKind::Write),
    ("Edit", ToolKind::Edit),
    ("MultiEdit", ToolKind::Edit),
    ("WebFetch", ToolKind::WebFetch),
];

impl Harness for Copilot {
    fn lint_quirks(&self) -> &dyn Quirks {
        self
    }

    fn machine_checks(&self, root: &Path, home: Option<&Path>) -> Vec<MachineCheck> {
        let name = PROFILE.name;
        let user = std::env::var_os("COPILOT_HOME")
            .filter(|v| !v.is_empty())
            .map(std::path::PathBuf::from)
            .or_else(|| home.map(|h| h.join(".copilot")));
        let mut checks = common::disable_all_hooks_checks(
            name,
            [
                Some(root.join(".github/copilot/settings.json")),
                Some(root.join(".github/copilot/settings.local.json")),
                user.as_ref().map(|u| u.join("settings.json")),
                user.as_ref().map(|u| u.join("config.json")),
            ]
            .into_iter()
            .flatten(),
        );
        checks.push(MachineCheck::note(
            format!("{name} runs project hooks only in a trusted folder"),
            format!("trust the folder when {name} asks"),
        ));
        checks
    }

    fn outcome(&self, event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{json_object, str_at, text};
        if o.timed_out {
            return Outcome::proceeds(
                "a timeout fails open (since 1.0.67): the normal permission flow",
            );
        }
        let json = json_object(&o.stdout);
        let reason = json
            .as_ref()
            .and_then(|j| str_at(j, "/permissionDecisionReason").or_else(|| str_at(j, "/reason")));
        let user = text(&o.stderr);
        if event != Event::PreTool {
            return match o.exit {
                Some(0)
                    if json
                        .as_ref()
                        .and_then(|j| str_at(j, "/decision"))
                        .as_deref()
                        == Some("block") =>
                {
                    Outcome::blocks(reason, "exit 0 with JSON decision block")
                }
                Some(0) => Outcome::proceeds("exit 0 without a refusal"),
                _ => Outcome::proceeds("outside preToolUse a failed hook is logged and skipped")
                    .user(user),
            };
        }
        match o.exit {
            Some(2) => Outcome::blocks(
                Some(reason.map_or("hook exited with code 2".to_owned(), |r| format!("Denied by preToolUse hook: {r}"))),
                "exit 2 denies, stdout JSON merged in; stderr never reaches the model",
            )
            .user(user),
            Some(0) => match json.as_ref().and_then(|j| str_at(j, "/permissionDecision")).as_deref() {
                Some("deny") => Outcome::blocks(reason.map(|r| format!("Denied by preToolUse hook: {r}")), "exit 0 with JSON permissionDecision deny").user(user),
                Some("ask") => Outcome::asks(reason, "exit 0 with JSON permissionDecision ask"),
                _ => {
                    let json = json.as_ref();
                    let note = json
                        .and_then(|j| str_at(j, "/additionalContext"))
                        .map(|c| format!("Additional context from preToolUse hook:\n{c}"));
                    let changed = json.and_then(|j| j.get("modifiedArgs").or_else(|| j.get("updatedInput")));
                    if changed.is_some() {
                        Outcome::proceeds("exit 0 with `modifiedArgs`: the changed call goes through the normal permission flow")
                            .runs(changed.cloned())
                            .model(note)
                    } else {
                        Outcome::proceeds("exit 0 without a refusal: the normal permission flow").model(note)
                    }
                }
            },
            _ => Outcome::blocks(
                Some("Denied by preToolUse hook (hook errored)".to_owned()),
                "any other exit, crash or signal denies (fail-closed since 1.0.57); stderr never reaches the model",
            )
            .user(user),
        }
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        PROFILE.event_name(event)?;
        let mut v = json!({
            "sessionId": "s1",
            "timestamp": 1_795_993_739_553_u64,
            "cwd": root.to_string_lossy(),
        });
        let o = v.as_object_mut()?;
        match event {
            Event::PreTool | Event::PostTool => {
                let t = ToolCall::of(&PROFILE, call, root)?;
                let args = if t.kind == ToolKind::Shell {
                    json!({ "command": t.command, "description": "run" })
                } else {
                    t.file_input("path")
                };
                o.insert("toolName".into(), json!(t.native));
                // Copilot hands the arguments over as a JSON string.
                o.insert("toolArgs".into(), json!(args.to_string()));
            }
            Event::Prompt => {
                o.insert("prompt".into(), json!(text_of(event, call)?));
            }
            // agentStop tells why the agent stopped, not what it said.
            Event::Stop | Event::SubagentStop => {
                without_text(event, call)?;
                o.insert("stopReason".into(), json!("end_turn"));
                o.insert("stop_hook_active".into(), json!(false));
            }
            Event::SessionStart => {
                text_of(event, call)?;
                o.insert("source".into(), json!("new"));
            }
        }
        Some(v)
    }

    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        let native = PROFILE.event_name(event)?;
        Some(HookCommand {
            command: configured(root, HOOKS, &format!("/hooks/{native}/0/bash"))?,
            shell: "/bin/sh",
            env: vec![("COPILOT_CLI", "1".to_owned())],
        })
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        let hooks = hook_entries(policy, cx, &mut |cx, event, native, handler| {
            let script = format!(".hookc/copilot/{}.sh", event.word());
            // Copilot starts hooks in the project root; the variable makes
            // that independent of its version (1.0.72 briefly used the
            // session's directory).
            let shim = format!("\"${{COPILOT_PROJECT_DIR:-.}}\"/{script}");
            // Copilot never shows the model a preToolUse hook's stderr; on
            // exit 2 it merges a flat `permissionDecision` from stdout into
            // its refusal (harnesses/copilot.md, 8.3 and 8.4).
            let bash = if native == "preToolUse" {
                common::source_shim_refusing(&shim, &unreadable_shim_refusal(&script, PROJECT_FIX))
            } else {
                common::source_shim(&shim)
            };
            handler.insert("bash".into(), json!(bash));
            let on_error = policy.on_error_for(event);
            handler.insert(
                "powershell".into(),
                json!(windows::powershell(
                    HarnessId::Copilot,
                    event,
                    windows::Project::Variable("COPILOT_PROJECT_DIR"),
                    windows_refusal(native, on_error),
                    &policy.install_command(),
                )),
            );
            cx.shim(policy, &PROFILE, event, native, on_error);
        });
        if !hooks.is_empty() {
            cx.whole(
                HOOKS,
                json_text(&json!({ "version": 1, "hooks": hooks })),
                false,
            );
        }
    }

    fn managed_layer(&self) -> Option<crate::managed::Layer> {
        Some(MANAGED)
    }

    fn emit_managed(&self, policy: &Policy, cx: &mut EmitCx, install: &crate::managed::Install) {
        let hooks = hook_entries(policy, cx, &mut |cx, event, native, handler| {
            let on_error = policy.on_error_for(event);
            if install.os == crate::managed::Os::Windows {
                // Copilot CLI runs `powershell` there; the file is for
                // Windows alone, so it has no `bash` command.
                let command = windows::managed_powershell(
                    cx,
                    PROFILE.id,
                    event,
                    windows_refusal(native, on_error),
                    install,
                );
                handler.insert("powershell".into(), json!(command));
                return;
            }
            let shim = cx.managed_shim(policy, &PROFILE, (event, native), on_error, install);
            let bash = if native == "preToolUse" {
                common::source_shim_refusing(
                    &crate::emit::sh_word(&shim),
                    &unreadable_shim_refusal(&shim, MANAGED_FIX),
                )
            } else {
                common::managed_source_shim(&shim)
            };
            handler.insert("bash".into(), json!(bash));
        });
        // A policy document holds hooks only: Copilot CLI skips one with
        // any other key (1.0.102: "Unrecognized key(s) in object").
        cx.whole(
            install.tree_file(MANAGED.file),
            json_text(&json!({ "version": 1, "hooks": hooks })),
            false,
        );
        // The managed settings are one file with whatever else the
        // administrator sets: hookc writes it whole and a build refuses to
        // replace one it did not write (see Codex's requirements).
        if install.only_managed {
            cx.whole(
                install.tree_file(MANAGED_SETTINGS),
                json_text(&json!({ "allowManagedHooksOnly": true })),
                false,
            );
        }
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Guarded("the `powershell` command runs hookc")
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        if !payload.is_object() {
            return Err("the payload is not a JSON object".to_owned());
        }
        let mut call = Call {
            event: Some(event),
            cwd: payload
                .get("cwd")
                .and_then(Value::as_str)
                .map(str::to_owned),
            home: std::env::var("HOME").ok(),
            ..Call::default()
        };
        match event {
            Event::PreTool | Event::PostTool => decode_tool(&mut call, payload)?,
            Event::Prompt => call.text = Some(string_at(payload, "/prompt")?.to_owned()),
            // agentStop carries no text of the agent's (only `stopReason`).
            Event::Stop | Event::SubagentStop => {
                call.text = ["lastAssistantMessage", "last_assistant_message"]
                    .iter()
                    .find_map(|k| payload.get(*k).and_then(Value::as_str))
                    .map(str::to_owned);
            }
            Event::SessionStart => {
                call.text = payload
                    .get("source")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
            }
        }
        Ok(call)
    }

    fn answer_call(&self, event: Event, payload: &Value, verdict: Option<&Verdict>) -> Answer {
        match verdict {
            Some(v) if super::hands_over(event, v) => supervised_answer(payload, v),
            Some(v) if v.decision == Decision::Rewrite && event == Event::PreTool => {
                rewrite_answer(payload, v)
            }
            _ => self.answer(event, verdict),
        }
    }

    fn supervises(&self) -> bool {
        true
    }

    fn answer(&self, event: Event, verdict: Option<&Verdict>) -> Answer {
        let Some(verdict) = verdict else {
            return Answer::default();
        };
        if verdict.decision == Decision::Rewrite {
            // Without the call's arguments there is nothing to change: the
            // answer names the command to run instead.
            return self.answer(event, Some(&super::rewrite_as_refusal(verdict)));
        }
        let reason = verdict.reason();
        let (out, exit) = match (event, verdict.decision) {
            (_, Decision::Context) | (Event::PostTool, _) => {
                (json!({ "additionalContext": reason }), 0)
            }
            (Event::PreTool, d) if d.refuses() => (
                json!({ "permissionDecision": "deny", "permissionDecisionReason": nonempty(&reason) }),
                2,
            ),
            (Event::PreTool, Decision::Ask) => (
                json!({ "permissionDecision": "ask", "permissionDecisionReason": nonempty(&reason) }),
                0,
            ),
            // An `allow` from a hook overrides even Copilot's `--deny-tool`
            // rules (1.0.102), where hookc's `allow` keeps the harness's
            // own rules: nothing is said, and Copilot's rules decide.
            (Event::PreTool, _) => return Answer::default(),
            (Event::Stop | Event::SubagentStop, _) => (
                json!({ "decision": "block", "reason": nonempty(&reason) }),
                0,
            ),
            // A prompt cannot be refused; exit 2 at least shows the user a
            // warning with the reason.
            (Event::Prompt, _) => {
                return Answer {
                    stdout: String::new(),
                    stderr: format!("{}\n", nonempty(&reason)),
                    exit: 2,
                };
            }
            (Event::SessionStart, _) => (json!({ "additionalContext": reason }), 0),
        };
        let mut stdout = out.to_string();
        stdout.push('\n');
        Answer {
            stdout,
            stderr: if exit == 2 {
                format!("{reason}\n")
            } else {
                String::new()
            },
            exit,
        }
    }

    /// Copilot's native payloads are camelCase (`sessionId`, `toolName`),
    /// which no other harness uses. When it runs a Claude hook it sends a
    /// Claude-shaped payload instead; that one differs from Claude Code's own
    /// in having an ISO `timestamp`, and in lacking the `transcript_path`
    /// Claude Code always sends (except on Stop, where Copilot sends one but
    /// also its own `stop_reason`); and Copilot sets `COPILOT_CLI` for its
    /// hooks. All must hold, so a real Claude Code call is never taken for
    /// Copilot's, even when Claude Code runs inside a Copilot session.
    fn recognizes(&self, payload: &Value) -> bool {
        let Some(o) = payload.as_object() else {
            return false;
        };
        let snake = o.contains_key("hook_event_name") || o.contains_key("session_id");
        // VS Code runs this file too, with its own camelCase `hookEventName`.
        let native = !snake
            && !o.contains_key("hookEventName")
            && (o.get("sessionId").is_some_and(Value::is_string)
                || o.get("toolName").is_some_and(Value::is_string));
        let claude_shaped = o.get("hook_event_name").is_some_and(Value::is_string)
            && o.get("timestamp").is_some_and(Value::is_string)
            && (!o.contains_key("transcript_path") || o.contains_key("stop_reason"))
            && !o.contains_key("cursor_version")
            && std::env::var_os("COPILOT_CLI").is_some();
        native || claude_shaped
    }
}

/// The shell text that refuses a call whose shim cannot be read: the reason
/// as Copilot's flat `permissionDecision` JSON on stdout, which reaches the
/// model (stderr would not).
fn unreadable_shim_refusal(script: &str, fix: &str) -> String {
    let answer = json!({
        "permissionDecision": "deny",
        "permissionDecisionReason": format!(
            "hookc could not read {script}, so the call was refused. {fix}"
        ),
    });
    format!("echo '{answer}'")
}

fn nonempty(reason: &str) -> String {
    if reason.trim().is_empty() {
        "The project's hookc policy refused this call.".to_owned()
    } else {
        reason.to_owned()
    }
}

/// The tool call of a `preToolUse` or `postToolUse` payload: which tool,
/// in hookc's words, and what it works on: the command line, the files, or
/// for any other tool its arguments as text (and the MCP server and tool
/// its name may stand for).
fn decode_tool(call: &mut Call, payload: &Value) -> Result<(), String> {
    let (name, args, claude_shaped) = tool_and_args(payload)?;
    let mut tool = CallTool {
        kind: tool_kind(name, &args, claude_shaped),
        native: name.to_owned(),
        ..CallTool::default()
    };
    match tool.kind {
        Some(ToolKind::Shell) => {
            call.typed = name.starts_with("write_");
            call.command = Some(if call.typed {
                crate::shell::keys::typed_line(string_at(&args, "/input")?)?
            } else {
                string_at(&args, "/command")?.to_owned()
            });
            if name.ends_with("powershell") {
                call.shell = Shell::PowerShell;
            }
        }
        Some(ToolKind::Read | ToolKind::Write | ToolKind::Edit) => {
            call.paths = file_paths(&args)?;
            call.text = Some(args.to_string());
        }
        _ => {
            call.text = Some(args.to_string());
            let mut readings = if claude_shaped {
                Vec::new()
            } else {
                mcp_readings(name)
            };
            if !readings.is_empty() {
                tool.mcp = readings.remove(0).mcp;
                tool.also = readings;
            }
        }
    }
    call.tool = Some(tool);
    Ok(())
}

/// hookc's word for a tool: Claude's names in a Claude-shaped payload (from
/// Claude's settings, which Copilot also loads), Copilot's own otherwise.
/// `str_replace_editor` reads, writes or edits by its `command`.
fn tool_kind(name: &str, args: &Value, claude_shaped: bool) -> Option<ToolKind> {
    if name == "str_replace_editor" {
        return match args.get("command").and_then(Value::as_str) {
            Some("view") => Some(ToolKind::Read),
            Some("create") => Some(ToolKind::Write),
            _ => Some(ToolKind::Edit),
        };
    }
    if claude_shaped {
        CLAUDE_NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, k)| *k)
    } else {
        PROFILE.tool_kind(name)
    }
}

/// A `rewrite` guard's answer: exit 0 and `modifiedArgs`, the call's own
/// arguments with the policy's command, and the note as
/// `additionalContext`. No `permissionDecision`: Copilot's rules then judge
/// the changed call as if the model had written it, where an `allow` would
/// have skipped even its deny rules. Only Copilot's own shell tool, from its
/// own payload, is changed; anything else is refused with the command to
/// run.
fn rewrite_answer(payload: &Value, verdict: &Verdict) -> Answer {
    let args = match tool_and_args(payload) {
        Ok(("bash", Value::Object(args), false)) => args,
        _ => return Copilot.answer(Event::PreTool, Some(&super::rewrite_as_refusal(verdict))),
    };
    let Some(input) = super::rewritten_input(&Value::Object(args), "", verdict) else {
        return Copilot.answer(Event::PreTool, Some(&super::rewrite_as_refusal(verdict)));
    };
    let out = json!({ "modifiedArgs": input, "additionalContext": verdict.reason() });
    Answer::print(out)
}

/// A call run under hookc's run-time judge: `modifiedArgs` with the bash
/// tool's command changed into `hookc exec … -- SHELL -c 'LINE'`
/// (`verdict.rewritten`), and no decision, so that Copilot CLI's own flow
/// judges the changed call; a refusal where one of the user's rules could
/// not judge it as it would have judged the model's (`permissions`), or
/// where the call is not Copilot's own bash tool from its own payload.
fn supervised_answer(payload: &Value, verdict: &Verdict) -> Answer {
    let refuse = |why: &str| {
        Copilot.answer(
            Event::PreTool,
            Some(&super::supervised_refused(verdict, why)),
        )
    };
    let args = match tool_and_args(payload) {
        Ok(("bash", args @ Value::Object(_), false)) => args,
        _ => {
            return refuse(
                "(Only Copilot CLI's own bash tool can be changed to run under hookc's run-time judge.)",
            );
        }
    };
    if verdict.decision == Decision::Ask {
        // Whether Copilot CLI would run the changed call or the model's
        // once the user says yes is not known: hookc does not ask.
        return refuse(
            "(The project's policy also asks about it, and hookc asks Copilot CLI's user only about calls it runs unchanged.)",
        );
    }
    let project = payload.get("cwd").and_then(Value::as_str).map(Path::new);
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    if let Some(why) = permissions::Rules::visible(project, home.as_deref()).refusal() {
        return refuse(&why);
    }
    let handover = match super::Handover::of(&json!({ "tool_input": args }), verdict, None) {
        Ok(handover) => handover,
        Err(refused) => return Copilot.answer(Event::PreTool, Some(&refused)),
    };
    let context = format!(
        "{} A `cd` or variable in it does not carry over to later calls.",
        handover.context
    );
    Answer::print(json!({ "modifiedArgs": handover.input, "additionalContext": context }))
}

/// The tool name and arguments, from a native or a Claude-shaped payload.
/// Native `toolArgs` may be an object or a JSON string holding one.
fn tool_and_args(payload: &Value) -> Result<(&str, Value, bool), String> {
    if payload.get("toolName").is_some() {
        let name = string_at(payload, "/toolName")?;
        let args = match payload.get("toolArgs") {
            None | Some(Value::Null) => json!({}),
            Some(Value::String(text)) => serde_json::from_str::<Value>(text)
                .ok()
                .filter(Value::is_object)
                .ok_or("`toolArgs` is a string that does not hold a JSON object")?,
            Some(v @ Value::Object(_)) => v.clone(),
            Some(other) => {
                return Err(format!(
                    "`toolArgs` should be an object, found {}",
                    json_type(other)
                ));
            }
        };
        return Ok((name, args, false));
    }
    let name = string_at(payload, "/tool_name")?;
    let args = payload
        .get("tool_input")
        .filter(|v| v.is_object())
        .cloned()
        .ok_or("the payload has neither `toolArgs` nor a `tool_input` object")?;
    Ok((name, args, true))
}

/// The files a read, write or edit touches: `path` (Copilot's tools),
/// `file_path` (Claude's names), or the file lines of a patch.
fn file_paths(args: &Value) -> Result<Vec<String>, String> {
    for key in ["path", "file_path"] {
        if let Some(p) = args.get(key).and_then(Value::as_str) {
            return Ok(vec![p.to_owned()]);
        }
    }
    if let Some(patch) = ["input", "patch", "command"]
        .iter()
        .find_map(|k| args.get(*k).and_then(Value::as_str))
    {
        let files = patch_files(patch);
        let all: Vec<String> = files.added.into_iter().chain(files.changed).collect();
        if !all.is_empty() {
            return Ok(all);
        }
    }
    Err("the tool arguments name no file (`path`)".to_owned())
}

/// Copilot names an MCP tool `<server>-<tool>`. Server and tool names may
/// contain `-` themselves, so every split is a reading; a guard applies when
/// it applies to any of them.
fn mcp_readings(name: &str) -> Vec<CallTool> {
    name.match_indices('-')
        .map(|(i, _)| CallTool {
            mcp: Some((name[..i].to_owned(), name[i + 1..].to_owned())),
            native: name.to_owned(),
            ..CallTool::default()
        })
        .filter(|t| {
            t.mcp
                .as_ref()
                .is_some_and(|(s, t)| !s.is_empty() && !t.is_empty())
        })
        .collect()
}

/// Warn where Copilot does something other than what a guard decides.
/// The refusal of the Windows command, as `refuse.sh.hbs` words it: the
/// model reads only the JSON, stderr (`$r`, the details) goes to the log.
fn windows_refusal(native: &str, on_error: &str) -> &'static str {
    match (native, on_error) {
        ("preToolUse", "ask") => {
            "[Console]::Error.WriteLine($r); [Console]::Out.Write((@{ permissionDecision = 'ask'; permissionDecisionReason = 'hookc could not check this call (the hook error in the Copilot log says why). Confirm it yourself.'; hookSpecificOutput = @{ hookEventName = 'PreToolUse'; permissionDecision = 'ask'; permissionDecisionReason = 'hookc could not check this call (the hook error says why). Confirm it yourself.' } } | ConvertTo-Json -Compress)); exit 0"
        }
        ("preToolUse", _) => {
            "[Console]::Error.WriteLine($r); [Console]::Out.Write((@{ permissionDecision = 'deny'; permissionDecisionReason = 'hookc could not check this call, so it was refused. The hook error in the Copilot log says why and how to fix it. Tell the user about this; do not try to get around the guard.' } | ConvertTo-Json -Compress)); exit 2"
        }
        _ => "[Console]::Error.WriteLine($r); exit 2",
    }
}

fn warn_degraded(guard: &Guard, cx: &mut EmitCx) {
    match (guard.event, guard.decision) {
        (Event::PostTool, Decision::Block) => cx.unsupported(
            guard,
            HarnessId::Copilot,
            "Copilot's postToolUse hooks cannot block".to_owned(),
            "the reason is added to the tool's result as context for the model".to_owned(),
        ),
        (Event::Prompt, Decision::Deny) => cx.unsupported(
            guard,
            HarnessId::Copilot,
            "Copilot's userPromptSubmitted hooks cannot refuse a prompt".to_owned(),
            "the prompt goes through; the user sees the reason as a hook warning".to_owned(),
        ),
        (Event::PreTool, Decision::Allow) => cx.unsupported(
            guard,
            HarnessId::Copilot,
            "Copilot's preToolUse hooks cannot approve a call without overriding the user's own deny rules (`--deny-tool`)".to_owned(),
            "the guard stays silent and Copilot's own rules decide, asking where they would".to_owned(),
        ),
        _ => {}
    }
    if matches!(guard.event, Event::Stop | Event::SubagentStop) && !guard.regexes.is_empty() {
        cx.unsupported(
            guard,
            HarnessId::Copilot,
            "Copilot's stop events do not carry the agent's last message".to_owned(),
            "a `regex` of a stop guard never matches there, so the guard never blocks".to_owned(),
        );
    }
}

/// The names a matcher needs for one guard tool, as regex fragments. Copilot
/// anchors matchers itself (`^(?:…)$`); hookc's anchored alternation means
/// the same inside that.
fn matcher_names(tool: &Tool) -> Vec<String> {
    match tool {
        Tool::Known { tool } => PROFILE
            .tool_names(*tool)
            .iter()
            .map(|n| regex::escape(n))
            .collect(),
        Tool::Mcp { server, tool } => vec![McpNames::ServerDashTool.matcher(server, tool)],
        Tool::Native {
            harness: HarnessId::Copilot,
            name,
        } => vec![regex::escape(name)],
        Tool::Native { .. } => Vec::new(),
    }
}

/// What `hookc lint` checks in Copilot CLI's hooks files beyond their
/// [`JsonSpec`].
impl Quirks for Copilot {
    /// Copilot CLI never shows the model a `preToolUse` (or `permissionRequest`)
    /// hook's stderr: a refusal with its reason there reaches the model as
    /// "hook exited with code 2" (harnesses/copilot.md, 8.4). On other events
    /// exit 2 does not refuse, and stderr goes to the user, as meant.
    ///
    /// On its camelCase `preToolUse` Copilot CLI sends the tool's arguments
    /// as `toolArgs`; `tool_input` is in the payload of the PascalCase
    /// `PreToolUse` key only (harnesses/copilot.md, 7). A guard that reads
    /// only `tool_input` there never sees the command.
    fn command(&self, cx: &LintCx, event: &str, cmd: &str, span: Span, report: &mut FileReport) {
        if event == "preToolUse" && !crate::lint_rules::scripts::is_hookc_launcher(cmd) {
            let text = crate::lint_rules::scripts::command_and_script(cmd, cx.root);
            if text.contains("tool_input") && !text.contains("toolArgs") {
                report.diags.push(
                    diag(
                        Code::LintPayloadField,
                        cx.file,
                        span,
                        "this hook reads `tool_input`, Claude Code's field: on `preToolUse` GitHub Copilot CLI sends the arguments as `toolArgs`, so the guard never sees the command and the call goes ahead",
                        "Claude's field",
                    )
                    .help("read `toolArgs` (a JSON string in some versions: `.toolArgs | if type == \"string\" then fromjson else . end`), or `.toolArgs // .tool_input` for both; `tool_input` comes only under the PascalCase key `PreToolUse`"),
                );
            }
        }
        let refuses = ["preToolUse", "permissionRequest"]
            .iter()
            .any(|e| e.eq_ignore_ascii_case(event));
        if refuses
            && cmd.contains(">&2")
            && cmd.contains("exit 2")
            && !cmd.contains("permissionDecision")
        {
            report.diags.push(
                diag(
                    Code::LintStderrDeny,
                    cx.file,
                    span,
                    "GitHub Copilot CLI does not forward a deny reason written to stderr",
                    "reason lost",
                )
                .help(
                    r#"print {"permissionDecision":"deny","permissionDecisionReason":"…"} on stdout"#,
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Before a tool runs only an `allow` is silent (a hook's own `allow`
    /// would override Copilot's deny rules); every decision that refuses,
    /// a supervised call that reached this answer among them, is a denial.
    #[test]
    fn before_a_tool_only_an_allow_is_silent() {
        let answer =
            |d| Copilot.answer(Event::PreTool, Some(&super::super::test_verdict(d, "No.")));
        assert_eq!(answer(Decision::Allow), Answer::default());
        for d in [Decision::Deny, Decision::Block, Decision::Supervise] {
            let a = answer(d);
            assert_eq!(a.exit, 2, "{d}: {a:?}");
            assert!(
                a.stdout.contains("\"permissionDecision\":\"deny\""),
                "{d}: {a:?}"
            );
        }
    }

    #[test]
    fn mcp_names_split_every_way() {
        let readings: Vec<_> = mcp_readings("brave-search-web_search")
            .into_iter()
            .map(|t| t.mcp.unwrap())
            .collect();
        assert_eq!(
            readings,
            vec![
                ("brave".into(), "search-web_search".into()),
                ("brave-search".into(), "web_search".into()),
            ]
        );
        assert!(mcp_readings("view").is_empty());
    }

    #[test]
    fn tool_args_may_be_a_json_string() {
        let payload = json!({"toolName": "bash", "toolArgs": "{\"command\":\"ls\"}"});
        let (name, args, claude) = tool_and_args(&payload).unwrap();
        assert_eq!((name, claude), ("bash", false));
        assert_eq!(args["command"], "ls");
        let bad = json!({"toolName": "bash", "toolArgs": "not json"});
        assert!(tool_and_args(&bad).is_err());
    }
}
