//! Claude Code: hooks merged into `.claude/settings.json`.
//!
//! Protocol facts this file relies on (see `shared/harnesses/claude-code.md`
//! and the oracle runs):
//! - Only exit status 2 blocks. Exit 1, a missing script (127) or a timeout
//!   let the call through, so the shim turns every failure into exit 2.
//! - On exit 2 the model reads stderr (or the JSON reason when stdout has
//!   one); hookc writes both, with the same text.
//! - Matchers are JavaScript regexes tested unanchored against the tool name
//!   unless they are plain word lists; hookc always writes an anchored
//!   alternation, `^(?:Bash)$`, which means the same on every version.
//! - Tool names are case-sensitive (`Bash`, not `bash`); MCP tools are
//!   `mcp__<server>__<tool>`.

use std::path::Path;

use super::MachineCheck;

#[path = "claude_permissions.rs"]
mod permissions;

use indexmap::IndexMap;
use serde_json::{Value, json};

use super::payload::{self, ToolCall};
use super::{HookCommand, common, grouped_hook_command, windows};

use super::{Answer, Harness, OptionKind, OptionSpec, Profile, anchored_alternation, split_mcp};
use crate::diag::Code;
use crate::emit::EmitCx;
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, Tool, ToolKind};
use crate::lint_rules::json::{Cx as LintCx, Quirks};
use crate::lint_rules::json_spans::{as_str, key, key_span};
use crate::lint_rules::{FileReport, diag};
use crate::profile::{
    Dialect, FileFormat, Flavour, Guest, HookFile, JsonSpec, LateHook, Matching, McpNames,
    OnHookError, PlainStdout, Unit,
};
use jsonc_parser::ast;

pub struct Claude;

/// Hook entries hookc owns are recognised by this path in their command.
const MARKER: &str = "/.hookc/claude/";
const SETTINGS: &str = ".claude/settings.json";

/// Devin CLI runs Claude Code's hooks (while its `read_config_from.claude`
/// is on, the default) with its own tool names and inputs (see
/// [`super::devin`]); a hook refuses by exiting 2, its reason on stderr
/// (Devin's documentation; not run here).
const DEVIN: Guest = Guest {
    name: "Devin CLI",
    tools: super::devin::TOOLS,
    root_var: "DEVIN_PROJECT_DIR",
};

static PROFILE: Profile = Profile {
    id: HarnessId::Claude,
    name: "Claude Code",
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
        // Searching files reads them: a `read` path guard covers Grep and Glob.
        (ToolKind::Read, &["Read", "Grep", "Glob"]),
        (ToolKind::Write, &["Write"]),
        (ToolKind::Edit, &["Edit", "MultiEdit", "NotebookEdit"]),
        (ToolKind::WebFetch, &["WebFetch"]),
    ],
    can_block: &[
        Event::PreTool,
        Event::PostTool,
        Event::Prompt,
        Event::Stop,
        Event::SubagentStop,
    ],
    honours_ask: &[Event::PreTool],
    can_rewrite: true,
    options: &[OptionSpec {
        name: "on-failure-block",
        kind: OptionKind::Bool,
        safeguard: true,
        doc: "write `\"onFailure\": \"block\"` on each hook, so that Claude Code refuses a call whose hook cannot start, crashes or times out (on by default; Claude Code 2.1.295 or newer reads it, and `hookc doctor` checks the installed version; `#false` leaves it out)",
    }],
    todo: &["install hookc on every machine that runs Claude Code in this repo (or set HOOKC_BIN)"],
    // As listed by `claude doctor` 2.1.332 ("Valid events: …").
    more_events: &[
        "PostToolUseFailure",
        "PostToolBatch",
        "Notification",
        "UserPromptExpansion",
        "SessionEnd",
        "StopFailure",
        "SubagentStart",
        "PreCompact",
        "PostCompact",
        "PreModelSwitch",
        "PostModelSwitch",
        "PermissionRequest",
        "PermissionDenied",
        "Setup",
        "TeammateIdle",
        "TaskCreated",
        "TaskCompleted",
        "Elicitation",
        "ElicitationResult",
        "ConfigChange",
        "WorktreeCreate",
        "WorktreeRemove",
        "InstructionsLoaded",
        "CwdChanged",
        "FileChanged",
        "DirectoryAdded",
        "MessageDisplay",
        "PreSkillShellCommand",
    ],
    files: &[HookFile {
        dir: ".claude",
        names: &["settings*.json"],
        format: FileFormat::HooksJson,
        in_project: true,
    }],
    json: Some(JsonSpec {
        // `JSON.parse` after stripping a byte order mark (the oracle's `claude -p` run
        // loads and runs hooks from a settings file that starts with one).
        dialect: Dialect {
            bom: true,
            ..Dialect::STRICT
        },
        strict_root: None,
        version: None,
        groups: true,
        flat_ok: false,
        require_type: true,
        types: &["command", "prompt", "agent", "http", "mcp_tool"],
        command_keys: &["command"],
        timeout_keys: &["timeout"],
        unit: Unit::Seconds,
        matching: Matching::ExactWords("-, "),
        star_is_all: true,
        matcher_aliases: &[],
        tools_closed: false,
        matcher_subject: crate::profile::claude_shaped_matchers,
        events_any_case: false,
        strict_keys: None,
        stdout_is_reply: false,
        plain_stdout: |event| match event {
            // Claude Code reads plain text as context only on these
            // (shared/harnesses/claude-code.md, exit codes).
            "UserPromptSubmit" | "UserPromptExpansion" | "SessionStart" => PlainStdout::Context,
            _ => PlainStdout::Ignored,
        },
    }),
    flavour: Some(Flavour::EcmaScript),
    mcp_names: |_| Some(McpNames::DoubleUnderscore),
    refusal: Some(include_str!("../../templates/claude/refuse.sh.hbs")),
    on_hook_error: OnHookError::Proceeds,
    own_timeout: None,
    late_hook: LateHook::RefusesWith("on-failure-block"),
    hints: &[".claude/", "CLAUDE.md"],
    protected: &[
        ".claude/settings.json",
        ".claude/settings.local.json",
        "~/.claude/settings.json",
        "~/.claude/settings.local.json",
        "~/.config/claude/settings.json",
        "~/.config/claude/settings.local.json",
        "$CLAUDE_CONFIG_DIR/settings.json",
        "$CLAUDE_CONFIG_DIR/settings.local.json",
        "$XDG_CONFIG_HOME/claude/settings.json",
        "$XDG_CONFIG_HOME/claude/settings.local.json",
        // What the Bash tool's shell sources before each command: the
        // snapshot of the user's shell (functions and aliases included) and
        // the variables SessionStart hooks leave in CLAUDE_ENV_FILE. A
        // function written there would turn a later `git status` into
        // anything.
        "~/.claude/shell-snapshots",
        "~/.claude/session-env",
        "$CLAUDE_CONFIG_DIR/shell-snapshots",
        "$CLAUDE_CONFIG_DIR/session-env",
        "/etc/claude-code",
        "/Library/Application Support/ClaudeCode",
        // Devin CLI runs these hooks unless `read_config_from.claude` is
        // off in its settings, and runs its own hooks beside them.
        ".devin/config.json",
        ".devin/config.local.json",
        ".devin/hooks.v1.json",
        "~/.config/devin/config.json",
    ],
    protected_examples: &[
        ".claude/settings.local.json",
        "~/.claude/settings.json",
        "~/.claude/shell-snapshots/snapshot-bash-1.sh",
    ],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[DEVIN],
    hook_dir: crate::profile::HookDir::Session {
        root: "\"$CLAUDE_PROJECT_DIR\"",
        sure: true,
    },
    hook_vars: Some(crate::profile::HookVars {
        set: &["CLAUDE_PROJECT_DIR"],
        complete: true,
    }),
};

/// Whether the hooks carry `"onFailure": "block"`: unless the policy says
/// `harness "claude" { on-failure-block #false; }`. Without it Claude Code
/// lets a call run when its hook times out or cannot start, so a guard that
/// can be made slow could be switched off.
/// hookc's hook groups, by Claude Code's event name; `shim` writes the
/// shim of an event and returns the command that runs it.
fn hook_entries(
    policy: &Policy,
    cx: &mut EmitCx,
    shim: &mut dyn FnMut(&mut EmitCx, Event, &str) -> String,
) -> IndexMap<String, Vec<Value>> {
    let on_failure_block = on_failure_block(policy);
    let mut entries: IndexMap<String, Vec<Value>> = IndexMap::new();
    for &(event, native) in PROFILE.events {
        let Some(common::Route { names, any_tool }) =
            common::route(policy, event, &PROFILE, cx, &matcher_names)
        else {
            continue;
        };
        let mut handler = json!({
            "type": "command",
            "command": shim(cx, event, native),
            "timeout": policy.timeout,
        });
        if on_failure_block {
            handler["onFailure"] = json!("block");
        }
        let matcher = (event.has_tools() && !any_tool).then(|| anchored_alternation(names));
        entries.insert(native.to_owned(), vec![common::group(matcher, handler)]);
    }
    entries
}

/// The drop-in folder Claude Code merges into its managed settings
/// (alphabetically, after `managed-settings.json`): hookc's file there
/// leaves the administrator's own files alone.
const MANAGED: crate::managed::Layer = crate::managed::Layer {
    file: crate::managed::Paths {
        linux: "/etc/claude-code/managed-settings.d/50-hookc.json",
        macos: "/Library/Application Support/ClaudeCode/managed-settings.d/50-hookc.json",
        windows: crate::managed::OnWindows::At(
            r"C:\Program Files\ClaudeCode\managed-settings.d\50-hookc.json",
        ),
    },
    what: "a drop-in of Claude Code's managed settings",
    not_enforced: None,
    only_managed: Some(crate::managed::Switch::here("allowManagedHooksOnly")),
};

/// How the PowerShell command of a managed install for Windows refuses,
/// as `refuse.sh.hbs` does (the reason is in `$r`): exit 2 with the reason
/// on stderr, which the model reads; or, where the policy asks the user
/// when a guard cannot answer, Claude's `ask`.
fn windows_refusal(native: &str, on_error: &str) -> String {
    if on_error == "ask" {
        format!(
            "[Console]::Error.WriteLine($r); [Console]::Out.Write((@{{ hookSpecificOutput = @{{ hookEventName = '{native}'; permissionDecision = 'ask'; permissionDecisionReason = 'hookc could not check this call; see the hook error for the reason' }} }} | ConvertTo-Json -Compress)); exit 0"
        )
    } else {
        windows::EXIT_2_WITH_REASON.to_owned()
    }
}

fn on_failure_block(policy: &Policy) -> bool {
    PROFILE.refuses_late_hooks(policy)
}

/// The first Claude Code that reads `onFailure` (older ones let a failed or
/// timed-out hook's call run, and may not accept the key).
const ON_FAILURE_SINCE: crate::version::Version = crate::version::Version {
    major: 2,
    minor: 1,
    patch: 295,
};

/// What `hookc doctor` says of the Claude Code on `PATH` when the project's
/// hooks rely on `onFailure`: nothing when there is none, or it is new enough.
fn on_failure_check(root: &Path) -> Option<MachineCheck> {
    let settings = common::read_json(Some(root.join(SETTINGS)))?;
    let relies = settings["hooks"]
        .as_object()?
        .values()
        .flat_map(|groups| groups.as_array().into_iter().flatten())
        .flat_map(|group| group["hooks"].as_array().into_iter().flatten())
        .any(|handler| handler["onFailure"] == json!("block"));
    if !relies {
        return None;
    }
    let out = std::process::Command::new("claude")
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let version = text
        .split_whitespace()
        .next()
        .and_then(crate::version::Version::parse)?;
    (version < ON_FAILURE_SINCE).then(|| {
        MachineCheck::fail(
            format!(
                "{}: this machine has Claude Code {version}, older than {ON_FAILURE_SINCE}, the first that reads `onFailure`: a hook that times out or cannot start lets the call run there",
                PROFILE.name
            ),
            "upgrade Claude Code (`claude update`); if it must stay, write `harness \"claude\" { on-failure-block #false; }` and rebuild",
        )
    })
}

impl Harness for Claude {
    fn user_hook_files(&self, home: &Path) -> Vec<(std::path::PathBuf, FileFormat)> {
        vec![(home.join(SETTINGS), FileFormat::HooksJson)]
    }

    fn lint_quirks(&self) -> &dyn Quirks {
        self
    }

    fn machine_checks(&self, root: &Path, home: Option<&Path>) -> Vec<MachineCheck> {
        let name = PROFILE.name;
        let mut checks = common::disable_all_hooks_checks(
            name,
            [
                Some(root.join(".claude/settings.json")),
                Some(root.join(".claude/settings.local.json")),
                common::under_home(home, ".claude/settings.json"),
            ]
            .into_iter()
            .flatten(),
        );
        checks.extend(on_failure_check(root));
        checks.push(MachineCheck::note(
                format!("{name} runs project hooks only once the folder's trust dialog is accepted"),
                "accept it when Claude Code asks; Cursor, Copilot CLI and Devin CLI also run these hooks from .claude/settings.json",
            ));
        checks
    }

    fn outcome(&self, event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{first_line, json_object, str_at, text};
        // hookc's hooks carry `onFailure: "block"` unless the policy opts out
        // (then Claude Code discards the hook and the call proceeds).
        if o.timed_out || o.exit.is_none() {
            return Outcome::blocks(
                None,
                "a timeout or a killed hook blocks because hookc writes `onFailure: \"block\"` (without it Claude Code lets the call run)",
            );
        }
        let json = json_object(&o.stdout);
        let json_reason = json.as_ref().and_then(|j| {
            str_at(j, "/hookSpecificOutput/permissionDecisionReason")
                .or_else(|| str_at(j, "/reason"))
        });
        if o.exit == Some(2) {
            return Outcome::blocks(
                json_reason.or_else(|| text(&o.stderr)),
                "exit 2 blocks; the reason is the JSON's if given, else stderr",
            );
        }
        if let Some(j) = &json {
            let context = str_at(j, "/hookSpecificOutput/additionalContext");
            let user = str_at(j, "/systemMessage");
            return match str_at(j, "/hookSpecificOutput/permissionDecision").as_deref() {
                Some("deny") => Outcome::blocks(
                    json_reason,
                    "JSON on stdout decides (on any exit but 2): permissionDecision deny",
                )
                .user(user),
                // `updatedInput` counts with allow, ask or no decision (the
                // user's own rules and prompt then judge the new input).
                Some("ask") => Outcome::asks(
                    json_reason,
                    "JSON on stdout decides (on any exit but 2): permissionDecision ask (with updatedInput, the user is asked about that input)",
                )
                .runs(j.pointer("/hookSpecificOutput/updatedInput").cloned()),
                _ if str_at(j, "/decision").as_deref() == Some("block") => Outcome::blocks(
                    json_reason,
                    "JSON on stdout decides (on any exit but 2): decision block",
                )
                .user(user),
                Some("allow") => Outcome::proceeds(
                    "JSON on stdout decides (on any exit but 2): permissionDecision allow (with updatedInput, the call runs with that input)",
                )
                .model(context)
                .user(user)
                .runs(j.pointer("/hookSpecificOutput/updatedInput").cloned()),
                _ => Outcome::proceeds(
                    "JSON on stdout decides (on any exit but 2): no refusal in it (with updatedInput and no decision, Claude Code's own permission flow judges that input)",
                )
                .model(context)
                .user(user)
                .runs(j.pointer("/hookSpecificOutput/updatedInput").cloned()),
            };
        }
        if o.exit == Some(0) {
            let context = matches!(event, Event::Prompt | Event::SessionStart)
                .then(|| text(&o.stdout))
                .flatten();
            return Outcome::proceeds("exit 0 without JSON: no decision (plain stdout is context only for prompts and session start)").model(context);
        }
        Outcome::proceeds(
            "exit 1 (or any code but 2) without JSON is a non-blocking error: the call proceeds",
        )
        .user(first_line(&o.stderr).map(|l| format!("Failed with non-blocking status code: {l}")))
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let root_s = root.to_string_lossy();
        let mut v = json!({
            "session_id": "s1",
            "transcript_path": "/tmp/t.jsonl",
            "cwd": root_s,
            "permission_mode": "default",
            "hook_event_name": PROFILE.event_name(event)?,
        });
        let o = v.as_object_mut()?;
        if event.has_tools() {
            let t = ToolCall::of(&PROFILE, call, root)?;
            o.insert("tool_name".into(), json!(t.native));
            o.insert("tool_input".into(), t.input("file_path"));
            o.insert("tool_use_id".into(), json!("toolu_1"));
            if event == Event::PostTool {
                o.insert("tool_response".into(), json!({}));
            }
        }
        payload::claude_shaped_fields(o, event, call, "general-purpose")?;
        Some(v)
    }

    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        let env = vec![("CLAUDE_PROJECT_DIR", root.to_string_lossy().into_owned())];
        grouped_hook_command(root, SETTINGS, PROFILE.event_name(event)?, "/bin/sh", env)
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        let entries = hook_entries(policy, cx, &mut |cx, event, native| {
            cx.shim(policy, &PROFILE, event, native, policy.on_error_for(event));
            // Devin CLI, which runs these hooks too, names the project in a
            // variable of its own.
            common::source_shim(&format!(
                "\"${{CLAUDE_PROJECT_DIR:-$DEVIN_PROJECT_DIR}}\"/.hookc/claude/{}.sh",
                event.word()
            ))
        });
        cx.hook_entries(SETTINGS, entries, Vec::new(), MARKER);
    }

    fn managed_layer(&self) -> Option<crate::managed::Layer> {
        Some(MANAGED)
    }

    fn managed_checks(&self, root: &Path, os: crate::managed::Os) -> Vec<MachineCheck> {
        // Paths on the managed machine, as text: a Windows tree's use `\`,
        // which is no separator where this runs on Linux.
        let on_disk = |f: &str| root.join(crate::managed::tree_path(f));
        let Some(drop_in) = MANAGED.on(os) else {
            return Vec::new();
        };
        let separator = if os == crate::managed::Os::Windows {
            '\\'
        } else {
            '/'
        };
        let Some((dir, _)) = drop_in.rsplit_once(separator) else {
            return Vec::new();
        };
        let Some((parent, _)) = dir.rsplit_once(separator) else {
            return Vec::new();
        };
        // The file tier: managed-settings.json, then the drop-ins
        // (`*.json`, not dotfiles), sorted, merged into one.
        let mut files = vec![format!("{parent}{separator}managed-settings.json")];
        if let Ok(entries) = std::fs::read_dir(on_disk(dir)) {
            let mut names: Vec<String> = entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".json") && !n.starts_with('.'))
                .collect();
            names.sort();
            files.extend(names.iter().map(|n| format!("{dir}{separator}{n}")));
        }
        files.retain(|f| on_disk(f).is_file());
        let mut checks = vec![MachineCheck::Ok(format!(
            "Claude Code: managed settings files here, merged in this order: {}",
            files.join(", ")
        ))];
        // A `disableAllHooks` in any of them turns the managed hooks off too.
        for f in files.iter().filter(|f| f.as_str() != drop_in) {
            if common::read_json(Some(on_disk(f)))
                .is_some_and(|v| v["disableAllHooks"] == json!(true))
            {
                checks.push(MachineCheck::Fail(
                    format!(
                        "Claude Code: {f} sets `disableAllHooks`, which turns the managed hooks off"
                    ),
                    "remove `disableAllHooks` from the managed settings".to_owned(),
                ));
            }
        }
        // Within the managed tier the first source with a policy wins, and
        // the files come after the device's MDM profile and the settings the
        // organisation's console serves: either hides them.
        if os == crate::managed::Os::Macos {
            let profile = Path::new("/Library/Managed Preferences/com.anthropic.claudecode.plist");
            if on_disk(&profile.to_string_lossy()).is_file() {
                checks.push(MachineCheck::Fail(
                    format!("Claude Code: the MDM profile {} comes first among managed sources, so the managed files are not read", profile.display()),
                    "put hookc's settings into the MDM profile (`hookc build --managed --print claude`), or remove the profile".to_owned(),
                ));
            }
        }
        checks.push(MachineCheck::Note(
            "Claude Code: settings served by the organisation's console (server-managed settings) come before these files, and cannot be seen from here".to_owned(),
            "if your organisation serves managed settings, put hookc's hooks there too (`hookc build --managed --print claude`)".to_owned(),
        ));
        checks
    }

    fn emit_managed(&self, policy: &Policy, cx: &mut EmitCx, install: &crate::managed::Install) {
        let windows = install.os == crate::managed::Os::Windows;
        let mut entries = hook_entries(policy, cx, &mut |cx, event, native| {
            if windows {
                return windows::managed_powershell(
                    cx,
                    PROFILE.id,
                    event,
                    &windows_refusal(native, policy.on_error_for(event)),
                    install,
                );
            }
            common::managed_command(cx, policy, &PROFILE, (event, native), install)
        });
        if windows {
            // Run by PowerShell, not Git Bash (which a machine may not
            // have, and which would read the command as POSIX shell).
            for handler in entries
                .values_mut()
                .flatten()
                .filter_map(|group| group["hooks"].as_array_mut())
                .flatten()
            {
                handler["shell"] = json!("powershell");
            }
        }
        let mut settings = json!({ "hooks": entries });
        if install.only_managed {
            settings["allowManagedHooksOnly"] = json!(true);
        }
        cx.whole(
            install.tree_file(MANAGED.file),
            crate::emit::json_text(&settings),
            false,
        );
    }

    fn on_windows(&self, policy: &Policy) -> windows::OnWindows {
        if on_failure_block(policy) {
            windows::OnWindows::Guarded(
                "the command runs in Git Bash; without Git Bash, PowerShell cannot run it and `onFailure: \"block\"` refuses the call",
            )
        } else {
            windows::OnWindows::Partly {
                what: "the POSIX command runs in Git Bash, but without Git Bash Claude Code runs hook commands in PowerShell, which cannot run hookc's POSIX command, and the failed hook lets the call through",
                fix: "remove `on-failure-block #false` from the policy (Claude Code 2.1.295 or newer), so that a hook that cannot run refuses the call, or make sure every Windows machine has Git for Windows",
            }
        }
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        // A guest's payload may have no `cwd` (Devin CLI's has none): its
        // own variable names the project.
        let fallback = common::payload_cwd(payload).or_else(|| {
            PROFILE
                .guests
                .iter()
                .find_map(|g| std::env::var(g.root_var).ok().filter(|d| !d.is_empty()))
        });
        let mut call = common::new_call(event, payload, "CLAUDE_PROJECT_DIR", fallback)?;
        match event {
            Event::PreTool | Event::PostTool => {
                let (name, input) = common::tool_and_input(payload)?;
                let kind = PROFILE
                    .tool_kind(name)
                    .or_else(|| PROFILE.guest_tool(name).map(|(kind, _)| kind));
                let mcp = split_mcp(name);
                // Devin CLI, the one guest, has inputs of its own.
                match PROFILE.guest_tool(name) {
                    Some(_) => super::devin::tool_input(&mut call, name, kind, input)?,
                    None => common::claude_shaped_input(&mut call, name, kind, input)?,
                }
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

    fn answer_call(&self, event: Event, payload: &Value, verdict: Option<&Verdict>) -> Answer {
        let tool = payload.get("tool_name").and_then(Value::as_str);
        if let Some((_, guest)) = tool.and_then(|t| PROFILE.guest_tool(t)) {
            return self.answer(event, super::guest_verdict(guest, verdict).as_ref());
        }
        match verdict {
            Some(v) if v.decision == Decision::Rewrite => {
                super::rewrite_answer(self, payload, v, &rewrite_json)
            }
            Some(v) if super::hands_over(event, v) => supervised_answer(payload, v),
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
            // Only reached without the call's own input (see `answer_call`).
            return self.answer(event, Some(&super::rewrite_as_refusal(verdict)));
        }
        let native = PROFILE.event_name(event).unwrap_or("PreToolUse");
        let reason = verdict.reason();
        let mut out = serde_json::Map::new();
        let refuses = verdict.decision.refuses();
        match (event, verdict.decision) {
            (Event::PreTool, decision) if decision != Decision::Context => {
                out.insert(
                    "hookSpecificOutput".into(),
                    json!({
                        "hookEventName": native,
                        "permissionDecision": decision.word(),
                        "permissionDecisionReason": reason,
                    }),
                );
            }
            (_, Decision::Context) => {
                out.insert(
                    "hookSpecificOutput".into(),
                    json!({ "hookEventName": native, "additionalContext": reason }),
                );
            }
            // Prompt, post-tool and stop refusals use the top-level decision.
            _ => {
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), json!(reason));
            }
        }
        if let Some(message) = verdict.message() {
            out.insert("systemMessage".into(), json!(message));
        }
        let mut stdout = Value::Object(out).to_string();
        stdout.push('\n');
        if refuses {
            Answer {
                stdout,
                stderr: format!("{reason}\n"),
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
}

/// A call run under hookc's run-time judge: the input with its command
/// changed into `hookc exec … -- SHELL -c 'LINE'` (`verdict.rewritten`),
/// with the decision that keeps the user's own permission rules
/// (`permissions`); a refusal where one of them may deny the command, or
/// where the input is not there to change.
fn supervised_answer(payload: &Value, verdict: &Verdict) -> Answer {
    let refuse = |why: String| {
        Claude.answer(
            Event::PreTool,
            Some(&super::supervised_refused(verdict, &why)),
        )
    };
    let handover = match super::Handover::of(payload, verdict, Some("CLAUDE_PROJECT_DIR")) {
        Ok(handover) => handover,
        Err(refused) => return Claude.answer(Event::PreTool, Some(&refused)),
    };
    let (input, line) = (handover.input, handover.line.as_str());
    let rules = permissions::Rules::visible(handover.project.as_deref(), handover.home.as_deref());
    let mode = payload.get("permission_mode").and_then(Value::as_str);
    let context = format!(
        "{} A `cd` in it does not carry over to later calls.",
        handover.context
    );
    let asked = verdict.decision == Decision::Ask;
    let (decision, shown) = match rules.keep(line, mode) {
        // The policy asks about the call: the user is asked about the
        // supervised one (unless a rule of theirs refuses it).
        permissions::Keep::Ask(_) | permissions::Keep::Allow | permissions::Keep::Normal
            if asked =>
        {
            (Some("ask"), verdict.reason())
        }
        permissions::Keep::Refuse(rule) => {
            return refuse(format!(
                "(Your Claude Code permission rule `{rule}` may refuse this command, and a command hookc runs under its run-time judge is not matched against it, so hookc refuses it instead.)"
            ));
        }
        permissions::Keep::Ask(why) => {
            (Some("ask"), format!("{context} hookc asks because {why}."))
        }
        permissions::Keep::Allow => (Some("allow"), context.clone()),
        permissions::Keep::Normal => (None, context.clone()),
    };
    let mut specific = json!({
        "hookEventName": "PreToolUse",
        "updatedInput": input,
        "additionalContext": context,
    });
    if let Some(decision) = decision {
        specific["permissionDecision"] = json!(decision);
        specific["permissionDecisionReason"] = json!(shown);
    }
    // No `systemMessage`: the guards' messages say what they refused, and
    // this call runs.
    let out = json!({ "hookSpecificOutput": specific });
    Answer::print(out)
}

/// A rewrite in Claude's protocol (the Agent SDK's too): `updatedInput` is
/// the complete new input and counts only beside `permissionDecision:
/// "allow"`; `additionalContext` tells the model what changed and why.
pub(super) fn rewrite_json(input: Value, reason: String) -> Value {
    json!({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "permissionDecisionReason": reason,
            "updatedInput": input,
            "additionalContext": reason,
        }
    })
}

/// The names a matcher needs for one guard tool, as regex fragments.
fn matcher_names(tool: &Tool) -> Vec<String> {
    super::mcp_underscore_names(&PROFILE, tool)
}

/// What `hookc lint` checks in Claude Code's settings beyond their
/// [`JsonSpec`].
impl Quirks for Claude {
    /// Cursor and GitHub Copilot CLI also run the hooks of the project's
    /// `.claude/settings.json` (not of `settings.local.json`), each with its
    /// own payloads and replies: hooks written for Claude Code alone
    /// misread them, unless they are hookc's (`hookc guard` answers each
    /// harness in its own protocol).
    fn hooks(&self, cx: &LintCx, hooks: &ast::ObjectProp, report: &mut FileReport) {
        let mut others = Vec::new();
        if cx.root.join(".cursor").is_dir() {
            others.push("Cursor");
        }
        if cx.root.join(".github/hooks").is_dir() {
            others.push("GitHub Copilot CLI");
        }
        if others.is_empty() || cx.file.name.ends_with("settings.local.json") {
            return;
        }
        // hookc's own hooks tell the harnesses apart (`hookc guard` answers
        // each in its own protocol); only other hooks are at risk.
        let mut commands = Vec::new();
        commands_in(&hooks.value, &mut commands);
        if !commands.is_empty() && commands.iter().all(|c| c.contains(MARKER)) {
            return;
        }
        report.diags.push(
            diag(
                Code::LintCrossLoading,
                cx.file,
                key_span(hooks),
                format!(
                    "{} also run{} these Claude hooks, with {} own payloads and replies",
                    others.join(" and "),
                    if others.len() == 1 { "s" } else { "" },
                    if others.len() == 1 { "its" } else { "their" }
                ),
                "loaded by more than Claude Code",
            )
            .help("make the hook scripts check which harness called them, or move Claude-only hooks to .claude/settings.local.json"),
        );
    }
}

/// Every `"command"` string anywhere below `value`.
fn commands_in<'a>(value: &'a ast::Value, out: &mut Vec<&'a str>) {
    match value {
        ast::Value::Object(o) => {
            for p in &o.properties {
                match (key(p), &p.value) {
                    ("command", v) if as_str(v).is_some() => out.extend(as_str(v)),
                    (_, v) => commands_in(v, out),
                }
            }
        }
        ast::Value::Array(a) => a.elements.iter().for_each(|v| commands_in(v, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_mcp_names_at_the_first_double_underscore() {
        assert_eq!(
            split_mcp("mcp__plugin_pay_stripe__process_refund"),
            Some(("plugin_pay_stripe".into(), "process_refund".into()))
        );
        assert_eq!(split_mcp("Bash"), None);
    }

    #[test]
    fn matcher_names_are_exact_and_escaped() {
        let mcp = Tool::Mcp {
            server: "pay-ments".into(),
            tool: "refund_*".into(),
        };
        assert_eq!(matcher_names(&mcp), vec![r"mcp__pay\-ments__refund_.*"]);
        assert_eq!(
            anchored_alternation(matcher_names(&Tool::Known {
                tool: ToolKind::Edit
            })),
            // Devin CLI's names too: it runs these hooks.
            "^(?:Edit|MultiEdit|NotebookEdit|edit|notebook_edit)$"
        );
    }
}
