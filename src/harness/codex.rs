//! OpenAI Codex CLI: hooks merged into `.codex/hooks.json`.
//!
//! Protocol facts this file relies on (`shared/harnesses/codex.md`, the
//! strings of the pinned `codex` 0.171.0 binary, and the oracle runs):
//! - Codex reads `hooks.json` with a strict root: only `description` and
//!   `hooks`. Any other root key makes Codex drop the whole file, so hookc
//!   adds nothing at the root but `hooks`.
//! - Every failure of a hook lets the call through: a crash, exit 1, 127, a
//!   timeout, invalid or unknown JSON output, a deny without a reason. Only
//!   exit 2 with a non-empty stderr refuses (and stdout is not read then).
//!   hookc refuses that way on every event, which also keeps a login shell's
//!   profile output on stdout from spoiling an answer.
//! - `allow` and `ask` are rejected as "unsupported" (which fails open), so
//!   hookc never writes them: `allow` is silence, `ask` becomes a refusal.
//! - The command runs through `$SHELL -lc` in the session's working
//!   directory, which may be below the project root, and Codex sets no
//!   project-directory variable. The command therefore finds the project by
//!   itself (see [`launcher`]).
//! - Edits arrive as the `apply_patch` tool with the patch text in
//!   `tool_input.command`; its file names are relative to the payload's `cwd`.

use std::path::{Path, PathBuf};

use super::MachineCheck;

use indexmap::IndexMap;
use serde_json::{Value, json};

use super::payload::{self, ToolCall};
use super::{HookCommand, common, grouped_hook_command, windows};

use super::{Answer, Harness, Profile, anchored_alternation, patch_files, split_mcp};
use crate::diag::Code;
use crate::emit::EmitCx;
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, Guard, HarnessId, Policy, Tool, ToolKind};
use crate::lint_rules::json::NoQuirks;
use crate::lint_rules::toml_spans::{parse, to_span};
use crate::lint_rules::{FileReport, diag};
use crate::profile::{
    Dialect, FileFormat, Flavour, HookFile, JsonSpec, LateHook, Matching, McpNames, OnHookError,
    PlainStdout, Unit,
};
use crate::source::SourceFile;

pub struct Codex;

/// Hook entries hookc owns are recognised by this path in their command.
const MARKER: &str = "/.hookc/codex/";
const HOOKS: &str = ".codex/hooks.json";

/// Codex's requirements, which a user, a project or a command-line flag
/// cannot override; its hooks are trusted without review.
const MANAGED: crate::managed::Layer = crate::managed::Layer {
    file: crate::managed::Paths {
        linux: "/etc/codex/requirements.toml",
        macos: "/etc/codex/requirements.toml",
        // %ProgramData%, which Codex asks Windows for.
        windows: crate::managed::OnWindows::At(r"C:\ProgramData\OpenAI\Codex\requirements.toml"),
    },
    what: "Codex's requirements",
    not_enforced: None,
    only_managed: Some(crate::managed::Switch::here("allow_managed_hooks_only")),
};

/// hookc's hook groups, by Codex's event name, with the warnings of what
/// Codex cannot do; `handler` writes the shim of an event and returns its
/// handler.
fn hook_entries(
    policy: &Policy,
    cx: &mut EmitCx,
    handler: &mut dyn FnMut(&mut EmitCx, Event, &str) -> Value,
) -> IndexMap<String, Vec<Value>> {
    let mut entries: IndexMap<String, Vec<Value>> = IndexMap::new();
    let missing = |guard: &Guard, tools: &[String], none: bool, cx: &mut EmitCx| {
        cx.unsupported(
            guard,
            HarnessId::Codex,
            format!("Codex has no hookable tool for {}", common::quoted_list(tools)),
            if none {
                "the guard will not run there".to_owned()
            } else if tools.iter().any(|t| t == "read") {
                "Codex reads files with shell commands instead, which a `path` guard that also covers `shell` checks (every program that reads a file, redirections included)".to_owned()
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
        let handler = handler(cx, event, native);
        let matcher = (event.has_tools() && !any_tool).then(|| anchored_alternation(names));
        entries.insert(native.to_owned(), vec![common::group(matcher, handler)]);
    }
    entries
}

/// Top-level keys of Codex's `config.toml` (checked strictly by `--strict-config`).
const CONFIG_SETTINGS: &[&str] = &[
    "model",
    "model_provider",
    "model_providers",
    "model_context_window",
    "model_auto_compact_token_limit",
    "model_max_output_tokens",
    "model_reasoning_effort",
    "model_reasoning_summary",
    "model_verbosity",
    "model_supports_reasoning_summaries",
    "approval_policy",
    "sandbox_mode",
    "sandbox_workspace_write",
    "shell_environment_policy",
    "hooks",
    "mcp_servers",
    "profiles",
    "profile",
    "projects",
    "features",
    "tools",
    "history",
    "tui",
    "notify",
    "file_opener",
    "hide_agent_reasoning",
    "show_raw_agent_reasoning",
    "disable_response_storage",
    "instructions",
    "developer_instructions",
    "base_instructions",
    "experimental_instructions_file",
    "project_doc_max_bytes",
    "project_doc_fallback_filenames",
    "project_root_markers",
    "chatgpt_base_url",
    "forced_login_method",
    "forced_chatgpt_workspace_id",
    "preferred_auth_method",
    "otel",
    "windows_wsl_setup_acknowledged",
    "review_model",
    "oss_provider",
    "cli_auth_credentials_store",
    "mcp_oauth_credentials_store",
    "web_search",
    "skills",
    "agents",
    "notice",
    "analytics",
    "feedback",
    "sandbox",
    "permissions",
];

static PROFILE: Profile = Profile {
    id: HarnessId::Codex,
    name: "Codex CLI",
    events: &[
        (Event::PreTool, "PreToolUse"),
        (Event::PostTool, "PostToolUse"),
        (Event::Prompt, "UserPromptSubmit"),
        (Event::Stop, "Stop"),
        (Event::SubagentStop, "SubagentStop"),
        (Event::SessionStart, "SessionStart"),
    ],
    // Codex has no read or fetch tool hooks can see (it reads files with
    // shell commands), and one tool for every change to files.
    tools: &[
        (ToolKind::Shell, &["Bash"]),
        (ToolKind::Write, &["apply_patch"]),
        (ToolKind::Edit, &["apply_patch"]),
    ],
    can_block: &[
        Event::PreTool,
        Event::PostTool,
        Event::Prompt,
        Event::Stop,
        Event::SubagentStop,
    ],
    honours_ask: &[],
    can_rewrite: true,
    options: &[],
    todo: &[
        "install hookc on every machine that runs Codex in this repo (or set HOOKC_BIN)",
        "Codex runs project hooks only in a trusted project, and only after you review them in /hooks; review them again after every change to .codex/hooks.json",
    ],
    more_events: &[
        "SubagentStart",
        "PermissionRequest",
        "PreCompact",
        "PostCompact",
        "SessionEnd",
        "Interrupt",
    ],
    files: &[
        HookFile {
            dir: ".codex",
            names: &["hooks.json"],
            format: FileFormat::HooksJson,
            in_project: true,
        },
        HookFile {
            dir: ".codex",
            names: &["config.toml"],
            format: FileFormat::CodexConfig {
                settings: CONFIG_SETTINGS,
            },
            in_project: true,
        },
    ],
    json: Some(JsonSpec {
        dialect: Dialect::STRICT,
        // `HooksFile` is `deny_unknown_fields`: `hooks` (and `description` in newer builds).
        strict_root: Some(&["hooks", "description"]),
        version: None,
        groups: true,
        flat_ok: false,
        require_type: true,
        types: &["command", "prompt", "agent", "mcp_tool"],
        command_keys: &["command"],
        timeout_keys: &["timeout"],
        unit: Unit::Seconds,
        matching: Matching::ExactWords(""),
        star_is_all: true,
        // "Matcher may use: apply_patch, Edit, Write" (shared/harnesses/codex.md).
        matcher_aliases: &[("Edit", "apply_patch"), ("Write", "apply_patch")],
        // Its hooks see Bash, apply_patch and MCP tools, nothing else.
        tools_closed: true,
        matcher_subject: crate::profile::claude_shaped_matchers,
        events_any_case: false,
        strict_keys: None,
        stdout_is_reply: false,
        plain_stdout: |event| match event {
            // shared/harnesses/codex.md, outcomes: Stop hooks must answer in JSON.
            "Stop" | "SubagentStop" => PlainStdout::Invalid,
            "SessionStart" | "SubagentStart" | "UserPromptSubmit" => PlainStdout::Context,
            "PreToolUse" | "PermissionRequest" | "PostToolUse" => PlainStdout::Ignored,
            _ => PlainStdout::Unknown,
        },
    }),
    flavour: Some(Flavour::Rust),
    mcp_names: |_| Some(McpNames::DoubleUnderscore),
    refusal: Some(include_str!("../../templates/codex/refuse.sh.hbs")),
    on_hook_error: OnHookError::Proceeds,
    own_timeout: None,
    late_hook: LateHook::Proceeds,
    hints: &[".codex/", "AGENTS.md"],
    protected: &[
        ".codex/hooks.json",
        ".codex/config.toml",
        "~/.codex/hooks.json",
        "~/.codex/config.toml",
        "$CODEX_HOME/hooks.json",
        "$CODEX_HOME/config.toml",
        // The shell snapshots Codex sources before each command (functions,
        // aliases and exports of the user's shell).
        "~/.codex/shell_snapshots",
        "$CODEX_HOME/shell_snapshots",
    ],
    protected_examples: &[".codex/hooks.json", "~/.codex/shell_snapshots/x.sh"],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::Session {
        root: "\"$(git rev-parse --show-toplevel)\"",
        sure: true,
    },
    hook_vars: Some(crate::profile::HookVars {
        set: &[],
        complete: false,
    }),
};

impl Harness for Codex {
    /// Hooks in `.codex/hooks.json`; those written into `config.toml` are
    /// not read (the user is told to move them).
    fn hooks_in(
        &self,
        format: FileFormat,
        rel: &str,
        text: &str,
        notes: &mut Vec<String>,
    ) -> Result<Vec<crate::profile::WrittenHook>, String> {
        match format {
            FileFormat::CodexConfig { .. } => {
                if text.contains("hooks") {
                    notes.push(format!("{rel}: hooks in Codex's config.toml are not imported; move them to .codex/hooks.json first"));
                }
                Ok(Vec::new())
            }
            _ => common::json_hooks(&PROFILE, rel, text, notes),
        }
    }

    fn lint_file(
        &self,
        format: FileFormat,
        file: &SourceFile,
        root: &Path,
        report: &mut FileReport,
    ) {
        match format {
            FileFormat::CodexConfig { settings } => lint_config(file, settings, report),
            _ => common::lint_json(&PROFILE, &NoQuirks, file, root, report),
        }
    }

    fn machine_checks(&self, _root: &Path, home: Option<&Path>) -> Vec<MachineCheck> {
        let name = PROFILE.name;
        let mut checks = Vec::new();
        let config = std::env::var_os("CODEX_HOME")
            .map(PathBuf::from)
            .or_else(|| common::under_home(home, ".codex"))
            .map(|d| d.join("config.toml"));
        let text = config
            .as_ref()
            .and_then(|c| crate::disk::read_text(c).ok().flatten());
        let doc = text.and_then(|t| t.parse::<toml_edit::DocumentMut>().ok());
        if doc
            .as_ref()
            .and_then(|d| d.get("features")?.get("hooks")?.as_bool())
            == Some(false)
        {
            checks.push(MachineCheck::fail(
                format!("{name}: hooks are switched off (`[features] hooks = false`)"),
                "remove `hooks = false` from the `[features]` table of ~/.codex/config.toml",
            ));
        }
        checks.push(MachineCheck::note(
                format!("{name} runs a project's hooks only in a trusted project, and each hook only once trusted in /hooks"),
                "in Codex, trust the project and then the hookc hooks in `/hooks` (again after each rebuild that changes them)",
            ));
        checks
    }

    fn outcome(&self, event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{json_object, str_at, text};
        if o.timed_out || o.exit.is_none() {
            return Outcome::proceeds(
                "a timeout, a killed hook or a spawn error is a failed hook: the call proceeds",
            );
        }
        match o.exit {
            Some(2) => match text(&o.stderr) {
                Some(reason) => Outcome::blocks(Some(reason), "exit 2 with stderr blocks; stderr is the reason, stdout is not read"),
                None => Outcome::proceeds("exit 2 without stderr is a failed hook: the call proceeds"),
            },
            Some(0) => {
                let trimmed = o.stdout.trim();
                if trimmed.is_empty() {
                    return Outcome::proceeds("exit 0 with empty stdout: no decision");
                }
                if !trimmed.starts_with('{') && !trimmed.starts_with('[') {
                    let context = matches!(event, Event::Prompt | Event::SessionStart).then(|| text(trimmed)).flatten();
                    return Outcome::proceeds("exit 0 with plain text: ignored (context only for prompts and session start)").model(context);
                }
                let Some(j) = json_object(trimmed) else {
                    return Outcome::proceeds("exit 0 with invalid JSON is a failed hook: the call proceeds");
                };
                let reason = str_at(&j, "/hookSpecificOutput/permissionDecisionReason").or_else(|| str_at(&j, "/reason"));
                let deny = str_at(&j, "/hookSpecificOutput/permissionDecision").as_deref() == Some("deny")
                    || str_at(&j, "/decision").as_deref() == Some("block");
                if deny {
                    return match reason {
                        Some(r) => Outcome::blocks(Some(r), "exit 0 with JSON: deny (or block) with a reason blocks"),
                        None => Outcome::proceeds("a deny without a reason is invalid output: the call proceeds"),
                    };
                }
                let decision = str_at(&j, "/hookSpecificOutput/permissionDecision");
                let updated = j.pointer("/hookSpecificOutput/updatedInput").cloned();
                match (decision.as_deref(), updated) {
                    (Some("allow"), Some(input)) if input.get("command").is_some_and(Value::is_string) => {
                        Outcome::proceeds("exit 0 with JSON: allow with updatedInput runs the call with that input")
                            .model(str_at(&j, "/hookSpecificOutput/additionalContext"))
                            .user(str_at(&j, "/systemMessage"))
                            .runs(Some(input))
                    }
                    (Some(_), _) | (None, Some(_)) => Outcome::proceeds(
                        "allow without updatedInput, ask, or updatedInput without allow is unsupported output: a failed hook, the call proceeds unchanged",
                    ),
                    (None, None) => Outcome::proceeds("exit 0 with JSON and no refusal: the call proceeds")
                        .model(str_at(&j, "/hookSpecificOutput/additionalContext"))
                        .user(str_at(&j, "/systemMessage")),
                }
            }
            Some(n) => Outcome::proceeds("exit 1 (or any code but 0 and 2) is a failed hook, JSON not read: the call proceeds")
                .user(Some(format!("hook exited with code {n}"))),
            None => unreachable!(),
        }
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let root_s = root.to_string_lossy();
        let mut v = json!({
            "session_id": "s1",
            "turn_id": "t1",
            "transcript_path": "/tmp/rollout.jsonl",
            "cwd": root_s,
            "hook_event_name": PROFILE.event_name(event)?,
            "model": "gpt-5",
            "permission_mode": "default",
        });
        let o = v.as_object_mut()?;
        if event.has_tools() {
            let t = ToolCall::of(&PROFILE, call, root)?;
            // Every change to files is one `apply_patch` with the patch as its
            // command, naming files relative to `cwd` as Codex does: a patch
            // line cannot hold a project path with a newline in it.
            let file = call.path.clone().unwrap_or_default();
            let command = match t.kind {
                ToolKind::Shell => t.command.clone(),
                ToolKind::Write => {
                    format!("*** Begin Patch\n*** Add File: {file}\n+x\n*** End Patch\n")
                }
                _ => {
                    format!("*** Begin Patch\n*** Update File: {file}\n@@\n-a\n+b\n*** End Patch\n")
                }
            };
            o.insert("tool_name".into(), json!(t.native));
            o.insert("tool_input".into(), json!({ "command": command }));
            o.insert("tool_use_id".into(), json!("call_1"));
            if event == Event::PostTool {
                o.insert("tool_response".into(), json!(""));
            }
        }
        payload::claude_shaped_fields(o, event, call, "default")?;
        Some(v)
    }

    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        grouped_hook_command(
            root,
            HOOKS,
            PROFILE.event_name(event)?,
            "/bin/sh",
            Vec::new(),
        )
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        let entries = hook_entries(policy, cx, &mut |cx, event, native| {
            cx.shim(policy, &PROFILE, event, native, "deny");
            json!({
                "type": "command",
                "command": launcher(&format!("/.hookc/codex/{}.sh", event.word())),
                "commandWindows": windows::through_cmd(&windows::powershell(
                    HarnessId::Codex,
                    event,
                    windows::Project::Walk,
                    windows::EXIT_2_WITH_REASON,
                    &policy.install_command(),
                )),
                "timeout": policy.timeout,
            })
        });
        cx.hook_entries(HOOKS, entries, Vec::new(), MARKER);
    }

    fn managed_layer(&self) -> Option<crate::managed::Layer> {
        Some(MANAGED)
    }

    fn managed_checks(&self, root: &Path, _os: crate::managed::Os) -> Vec<MachineCheck> {
        // Codex takes each requirement from the first layer that sets it,
        // and reads other layers besides requirements.toml (the cloud's,
        // an MDM profile's, a legacy file's): where one of them comes first
        // and sets `hooks`, hookc's are not read.
        let legacy = "/etc/codex/managed_config.toml";
        let mut checks = Vec::new();
        if root.join(crate::managed::tree_path(legacy)).is_file() {
            checks.push(MachineCheck::Note(
                format!("Codex CLI: {legacy}, an older managed layer, is here too; where it sets `hooks` or `features` and comes first, those win over requirements.toml"),
                "move what it sets into /etc/codex/requirements.toml, or make sure it sets neither".to_owned(),
            ));
        }
        checks.push(MachineCheck::Note(
            "Codex CLI: requirements an organisation serves from the cloud (Business, Enterprise) or a macOS MDM profile can take precedence over requirements.toml, and cannot be seen from here".to_owned(),
            "if your organisation serves Codex requirements, put hookc's hooks there too (`hookc build --managed --print codex`)".to_owned(),
        ));
        checks
    }

    /// `requirements.toml` is one file, not a folder of drop-ins, and holds
    /// whatever else the administrator requires: hookc writes it whole, and
    /// a build refuses to replace one it did not write (the plan's rule for
    /// a file that is someone else's). `--print codex` gives the text to
    /// merge by hand.
    fn emit_managed(&self, policy: &Policy, cx: &mut EmitCx, install: &crate::managed::Install) {
        let entries = hook_entries(policy, cx, &mut |cx, event, native| {
            // On Windows Codex runs `command` with `cmd.exe /C` (the file is
            // for Windows alone, so no `commandWindows` beside it).
            let command = if install.os == crate::managed::Os::Windows {
                windows::through_cmd(&windows::managed_powershell(
                    cx,
                    PROFILE.id,
                    event,
                    windows::EXIT_2_WITH_REASON,
                    install,
                ))
            } else {
                let shim = cx.managed_shim(policy, &PROFILE, (event, native), "deny", install);
                common::managed_source_shim(&shim)
            };
            json!({
                "type": "command",
                "command": command,
                "timeout": policy.timeout,
            })
        });
        let mut doc = toml_edit::DocumentMut::new();
        doc.decor_mut().set_prefix(format!(
            "{}\n# Codex's requirements: no user, project or flag can turn these hooks off.\n",
            crate::emit::header(policy, "#")
        ));
        if install.only_managed {
            doc["allow_managed_hooks_only"] = toml_edit::value(true);
        }
        // Pinned, so that `[features] hooks = false` (a user's, a trusted
        // project's, `--disable hooks`) does not turn the managed hooks off.
        let mut features = toml_edit::Table::new();
        features["hooks"] = toml_edit::value(true);
        doc["features"] = toml_edit::Item::Table(features);
        let mut hooks = toml_edit::Table::new();
        for (event, groups) in &entries {
            let mut array = toml_edit::ArrayOfTables::new();
            for group in groups {
                let mut table = toml_edit::Table::new();
                if let Some(matcher) = group.get("matcher").and_then(Value::as_str) {
                    table["matcher"] = toml_edit::value(matcher);
                }
                let mut handlers = toml_edit::ArrayOfTables::new();
                for handler in group["hooks"].as_array().into_iter().flatten() {
                    handlers.push(crate::merge::toml::toml_table(handler));
                }
                table["hooks"] = toml_edit::Item::ArrayOfTables(handlers);
                array.push(table);
            }
            hooks[event.as_str()] = toml_edit::Item::ArrayOfTables(array);
        }
        doc["hooks"] = toml_edit::Item::Table(hooks);
        cx.whole(install.tree_file(MANAGED.file), doc.to_string(), false);
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Guarded(
            "`commandWindows` runs hookc through Windows PowerShell from cmd.exe",
        )
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        if !payload.is_object() {
            return Err("the payload is not a JSON object".to_owned());
        }
        let cwd = payload
            .get("cwd")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let mut call = Call {
            event: Some(event),
            cwd,
            home: std::env::var("HOME").ok(),
            ..Call::default()
        };
        match event {
            Event::PreTool | Event::PostTool => {
                let (name, input) = common::tool_and_input(payload)?;
                let mut tool = CallTool {
                    kind: PROFILE.tool_kind(name),
                    mcp: split_mcp(name),
                    native: name.to_owned(),
                    ..CallTool::default()
                };
                match name {
                    "Bash" => call.command = Some(shell_command(input)?),
                    "apply_patch" => {
                        let patch = patch_text(input)?;
                        let files = patch_files(patch);
                        if files.added.is_empty() && files.changed.is_empty() {
                            return Err("the apply_patch input names no file (no `*** Add File:`, `*** Update File:` or `*** Delete File:` line)".to_owned());
                        }
                        let kinds = files.kinds();
                        tool.kind = Some(kinds[0]);
                        tool.also = kinds[1..]
                            .iter()
                            .map(|k| CallTool {
                                kind: Some(*k),
                                native: name.to_owned(),
                                ..CallTool::default()
                            })
                            .collect();
                        call.paths = files.added.into_iter().chain(files.changed).collect();
                        call.text = Some(patch.to_owned());
                    }
                    _ => call.text = Some(input.to_string()),
                }
                call.tool = Some(tool);
            }
            Event::Prompt | Event::Stop | Event::SubagentStop | Event::SessionStart => {
                call.text = common::event_text(event, payload)?;
            }
        }
        Ok(call)
    }

    /// A rewrite: Codex applies `updatedInput` (whose `command` must be a
    /// string) only beside `permissionDecision: "allow"`, and rejects either
    /// alone; `additionalContext` tells the model what changed and why.
    fn answer_call(&self, event: Event, payload: &Value, verdict: Option<&Verdict>) -> Answer {
        match verdict {
            Some(v) if v.decision == Decision::Rewrite => {
                super::rewrite_answer(self, payload, v, &|input, reason| {
                    json!({
                        "hookSpecificOutput": {
                            "hookEventName": "PreToolUse",
                            "permissionDecision": "allow",
                            "updatedInput": input,
                            "additionalContext": nonempty(reason),
                        }
                    })
                })
            }
            _ => self.answer(event, verdict),
        }
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
        let reason = nonempty(verdict.reason());
        match verdict.decision {
            // A supervised call is this harness's only where it can run one:
            // `hookc guard` refuses it first (`runtime::prepare`).
            Decision::Deny | Decision::Block | Decision::Rewrite | Decision::Supervise => {
                refuse(reason)
            }
            Decision::Ask => refuse(format!(
                "This call needs the user's confirmation, and Codex hooks cannot ask for it, so it was refused. Ask the user; if they agree, they can run it themselves. The rule: {reason}"
            )),
            // Codex rejects a bare allow (and then fails open); saying
            // nothing leaves the call to Codex's own approval rules.
            Decision::Allow => Answer::default(),
            Decision::Context => {
                let mut stdout = json!({
                    "hookSpecificOutput": { "hookEventName": native, "additionalContext": reason }
                })
                .to_string();
                stdout.push('\n');
                Answer {
                    stdout,
                    stderr: String::new(),
                    exit: 0,
                }
            }
        }
    }
}

/// Exit 2 with the reason on stderr: the one answer every Codex event reads as
/// a refusal (PreToolUse: block; PostToolUse: feedback; Stop: continue).
fn refuse(reason: String) -> Answer {
    Answer::exit_2(reason)
}

/// Codex treats a refusal without a reason as a failure, and failures pass.
fn nonempty(reason: String) -> String {
    if reason.trim().is_empty() {
        "The project's hookc policy refused this call.".to_owned()
    } else {
        reason
    }
}

/// Warn where Codex does something other than what a guard decides.
fn warn_degraded(guard: &Guard, cx: &mut EmitCx) {
    match guard.decision {
        Decision::Ask => cx.unsupported(
            guard,
            HarnessId::Codex,
            "Codex hooks cannot ask the user".to_owned(),
            "the call is refused instead, with a reason that tells the model to ask the user"
                .to_owned(),
        ),
        Decision::Allow => cx.unsupported(
            guard,
            HarnessId::Codex,
            "Codex hooks cannot approve a call".to_owned(),
            "the guard stays silent and Codex's own approval rules decide".to_owned(),
        ),
        _ => {}
    }
    if guard.opaque == Decision::Ask && !guard.commands.is_empty() {
        cx.unsupported(
            guard,
            HarnessId::Codex,
            "Codex hooks cannot ask the user about a command hookc cannot parse".to_owned(),
            "such commands are refused instead".to_owned(),
        );
    }
}

/// The command Codex runs for one event.
///
/// Codex runs it through `$SHELL -lc` in the session's working directory,
/// which may be anywhere below the project, and sets no variable naming the
/// project. So the command is a fixed POSIX script, single-quoted for
/// whatever `$SHELL` is, that finds the shim itself, among the directories
/// from `$PWD` up: the nearest one that has it, or, when the top of the
/// repository (the first directory on the way up holding `.git`, where
/// Codex's project layer is by default) has it too, that one. It asks git
/// nothing: `git rev-parse` follows `core.worktree` and `GIT_DIR`, which
/// would let a repository's config point it at a planted shim anywhere.
/// Only directories above the working directory count, only a shim the user
/// owns is taken, and the walk stops where [`common::locate_shim`]'s does
/// (at `/`, a sticky directory such as `/tmp`, and after `$HOME`). It reads
/// the shim into its `sh` (as [`common::source_shim`] does, after its own
/// check that the file is there). If it finds none it refuses the call
/// (exit 2 with a reason), because a missing script would otherwise exit
/// 127, which Codex lets through.
///
/// `script` starts with `/`, so it also serves as hookc's marker.
fn launcher(script: &str) -> String {
    format!(
        "sh -c 'f={script}; s=; d=$PWD; case $d in /*) ;; *) d=; esac; \
while [ -n \"$d\" ]; do [ -k \"$d\" ] && break; \
[ -f \"$d$f\" ] && [ -O \"$d$f\" ] && {{ [ -z \"$s\" ] || [ -e \"$d/.git\" ]; }} && s=$d$f; \
[ -e \"$d/.git\" ] && [ -n \"$s\" ] && break; \
[ \"$d\" = \"$HOME\" ] && break; d=${{d%/*}}; done; \
[ -n \"$s\" ] && {{ hookc_shim=$s; . \"$hookc_shim\"; }}; \
echo \"hookc could not check this call, so it was refused: no $f in $PWD or above it. \
Fix: run hookc build in the project, or remove the hookc entries from .codex/hooks.json.\" >&2; exit 2'"
    )
}

/// The shell command of a `Bash` call: a string, or an argv array.
fn shell_command(input: &Value) -> Result<String, String> {
    match input.get("command") {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(Value::Array(words)) => {
            let words: Option<Vec<&str>> = words.iter().map(Value::as_str).collect();
            let words = words.ok_or("`tool_input.command` is an array with a non-string item")?;
            Ok(words
                .iter()
                .map(|w| common::sh_quote(w))
                .collect::<Vec<_>>()
                .join(" "))
        }
        Some(other) => Err(format!(
            "`tool_input.command` should be a string, found {}",
            super::json_type(other)
        )),
        None => Err("the payload has no `tool_input.command`".to_owned()),
    }
}

/// The patch of an `apply_patch` call: `command` (Codex 0.171), or the names
/// other versions used.
fn patch_text(input: &Value) -> Result<&str, String> {
    ["command", "patch", "input"]
        .iter()
        .find_map(|k| input.get(*k).and_then(Value::as_str))
        .ok_or_else(|| {
            "the apply_patch payload has no patch text in `tool_input.command`".to_owned()
        })
}

/// The names a matcher needs for one guard tool, as regex fragments.
fn matcher_names(tool: &Tool) -> Vec<String> {
    super::mcp_underscore_names(&PROFILE, tool)
}

/// `hookc lint` on Codex's `config.toml`: a setting Codex does not know
/// (`settings`, from its profile) makes `--strict-config` refuse the file.
fn lint_config(file: &SourceFile, settings: &[&str], report: &mut FileReport) {
    let Some(doc) = parse(file, "Codex", report) else {
        return;
    };
    for (k, _) in doc.as_table().iter() {
        if settings.contains(&k) || k.starts_with("experimental_") {
            continue;
        }
        let (key, _) = doc.as_table().get_key_value(k).expect("just listed");
        report.diags.push(
            diag(
                Code::LintUnknownKey,
                file,
                to_span(key.span()),
                format!("Codex's config has no setting `{k}` (`--strict-config` refuses the file)"),
                "unknown setting",
            )
            .help(
                match crate::diag::did_you_mean(k, settings.iter().copied()) {
                    Some(best) => format!("did you mean `{best}`?"),
                    None => {
                        "remove it; see Codex's configuration reference for the settings it knows"
                            .into()
                    }
                },
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_launcher_is_single_quoted_and_marked() {
        let command = launcher("/.hookc/codex/pre-tool.sh");
        assert!(command.starts_with("sh -c '") && command.ends_with('\''));
        // One quoted word for the login shell: no quote, backslash or `!` inside.
        let inner = &command[7..command.len() - 1];
        assert!(!inner.contains(['\'', '\\', '!']), "{inner}");
        assert!(command.contains(MARKER));
    }

    #[test]
    fn argv_commands_are_quoted_back_into_a_line() {
        let input = json!({"command": ["bash", "-lc", "git push --force"]});
        assert_eq!(
            shell_command(&input).unwrap(),
            "bash -lc 'git push --force'"
        );
    }
}
