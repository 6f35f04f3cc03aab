//! The Claude Agent SDK: hook callbacks, as a Python module and a TypeScript
//! module (with a plain-JavaScript twin), under `.hookc/claude-agent-sdk/`.
//!
//! An SDK app registers hooks as callbacks, not as shell commands, so there
//! is no config file to merge: hookc writes modules the app imports. Each
//! callback hands the SDK's hook input (Claude Code's payload, the same
//! dict/object) to `hookc guard --harness claude-agent-sdk` and returns the
//! answer. Facts this file relies on (from the SDKs' own type definitions,
//! pinned in `tests/fixtures/claude-agent-sdk/shapes.json`):
//! - a callback returns `hookSpecificOutput` with `hookEventName`,
//!   `permissionDecision` (`allow`/`deny`/`ask`), `permissionDecisionReason`,
//!   `updatedInput` and `additionalContext` on `PreToolUse`, and top-level
//!   `decision: "block"` with `reason` elsewhere: Claude Code's answers, so
//!   `hookc guard` answers exactly as it does for Claude Code;
//! - a callback that raises, or whose matcher times out, counts as no
//!   decision unless `onFailure: "block"` is set (newer SDKs only), and `{}`
//!   is "no objection": so the callbacks never raise, and answer every
//!   failure with a refusal, not `{}`;
//! - matchers are Claude Code's (a regex over the tool name); the Python SDK
//!   has no `SessionStart` hook, so hookc offers none.

use std::path::Path;

use super::MachineCheck;

use serde_json::{Value, json};

use super::common::{self, Route};
use super::{Answer, Claude, Harness, HookCommand, Profile, anchored_alternation, windows};
use crate::emit::{EmitCx, header, js_literal, render_file};
use crate::eval::{Call, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, Tool, ToolKind};
use crate::profile::no_mcp_names;
use crate::profile::{LateHook, OnHookError};

pub struct ClaudeAgentSdk;

/// Where the modules go, relative to the project root.
pub const DIR: &str = ".hookc/claude-agent-sdk";

static PROFILE: Profile = Profile {
    id: HarnessId::ClaudeAgentSdk,
    name: "Claude Agent SDK",
    events: &[
        (Event::PreTool, "PreToolUse"),
        (Event::PostTool, "PostToolUse"),
        (Event::Prompt, "UserPromptSubmit"),
        (Event::Stop, "Stop"),
        (Event::SubagentStop, "SubagentStop"),
    ],
    tools: &[
        (ToolKind::Shell, &["Bash", "PowerShell"]),
        (ToolKind::Read, &["Read"]),
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
    options: &[],
    todo: &[
        "pass the hooks to the SDK in your app: `hookc_hooks()` from .hookc/claude-agent-sdk/hookc_hooks.py (Python) or `hookcHooks` from .hookc/claude-agent-sdk/hookc_hooks.ts (TypeScript; hookc_hooks.mjs for JavaScript)",
        "install hookc wherever the SDK app runs (or set HOOKC_BIN)",
    ],
    more_events: &[],
    files: &[],
    json: None,
    flavour: None,
    mcp_names: no_mcp_names,
    // An SDK app has no marker file of its own; only an earlier build shows it.
    refusal: None,
    on_hook_error: OnHookError::Refuses,
    own_timeout: None,
    late_hook: LateHook::Refuses,
    hints: &[".hookc/claude-agent-sdk/"],
    protected: &[
        ".claude/settings.json",
        ".claude/settings.local.json",
        "~/.claude/settings.json",
        "$CLAUDE_CONFIG_DIR/settings.json",
    ],
    protected_examples: &[".claude/settings.json"],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::Unknown,
    hook_vars: None,
};

impl Harness for ClaudeAgentSdk {
    /// Nothing on the machine switches these hooks off: hookc's own code runs them.
    fn machine_checks(&self, _root: &Path, _home: Option<&Path>) -> Vec<MachineCheck> {
        Vec::new()
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        common::warn_unsupported_events(policy, &PROFILE, cx);
        let mut events = Vec::new();
        for &(event, native) in PROFILE.events {
            let Some(Route { names, any_tool }) =
                common::route(policy, event, &PROFILE, cx, &matcher_names)
            else {
                continue;
            };
            let matcher = (event.has_tools() && !any_tool).then(|| anchored_alternation(names));
            events.push(json!({
                "event": event.word(),
                "native": native,
                "matcher": matcher,
                "onError": policy.on_error_for(event),
            }));
        }
        if events.is_empty() {
            return;
        }
        let settings = json!({
            "harness": HarnessId::ClaudeAgentSdk.word(),
            "policyFromModule": "../policy.json",
            "projectFromModule": "../..",
            "timeoutSeconds": policy.timeout,
            "install": policy.install_command(),
            // The SDK's own limit for the callback: later than hookc's, so
            // a slow hookc ends in this module's refusal, not in the SDK's
            // timeout (which lets the call through).
            "matcherTimeoutSeconds": policy.timeout + 5,
            "events": events,
        });
        for (file, text) in modules(policy, &settings) {
            cx.whole(format!("{DIR}/{file}"), text, false);
        }
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Guarded(
            "the hooks are functions in the agent's own process, which starts hookc without a shell (hookc.exe must be on PATH)",
        )
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        let mut call = Claude.decode_call(event, payload)?;
        // The project is where the compiled policy lives (the runtime fills
        // it in), not the app's working directory or a Claude Code variable.
        call.root = None;
        Ok(call)
    }

    fn answer(&self, event: Event, verdict: Option<&Verdict>) -> Answer {
        Claude.answer(event, verdict)
    }

    fn answer_call(&self, event: Event, payload: &Value, verdict: Option<&Verdict>) -> Answer {
        match verdict {
            Some(v) if v.decision == Decision::Rewrite => {
                super::rewrite_answer(self, payload, v, &super::claude::rewrite_json)
            }
            _ => self.answer(event, verdict),
        }
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        PROFILE.event_name(event)?;
        Claude.payload(event, call, root)
    }

    /// The generated callbacks run `hookc guard` themselves (found on
    /// `PATH`, or `HOOKC_BIN`); `hookc test` runs that same command in the
    /// callback's place and decodes it with [`Harness::outcome`] below, which
    /// is what the callback makes of each result.
    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        PROFILE.event_name(event)?;
        root.join(DIR)
            .join("hookc_hooks.py")
            .is_file()
            .then(|| HookCommand {
                command: format!(
                    "hookc guard --harness {} --event {} --policy {}",
                    HarnessId::ClaudeAgentSdk.word(),
                    event.word(),
                    super::common::sh_quote(&root.join(".hookc/policy.json").to_string_lossy())
                ),
                shell: "/bin/sh",
                env: Vec::new(),
            })
    }

    /// What the SDK does with what the generated callback returns for this
    /// result of `hookc guard`.
    fn outcome(&self, _event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{json_object, str_at};
        let refused = |rule| {
            Outcome::blocks(
                Some("hookc could not check this call, so it was refused".to_owned()),
                rule,
            )
        };
        if o.timed_out || o.exit.is_none() {
            return refused("the callback refuses when hookc is too slow or killed");
        }
        if !matches!(o.exit, Some(0 | 2)) {
            return refused("the callback refuses any exit status but 0 and 2");
        }
        if o.exit == Some(0) && o.stdout.trim().is_empty() {
            return Outcome::proceeds("no answer from hookc: the callback returns {}");
        }
        let Some(j) =
            json_object(&o.stdout).filter(|j| j.as_object().is_some_and(|m| !m.is_empty()))
        else {
            return refused("the callback refuses output that is not a JSON object");
        };
        let reason = str_at(&j, "/hookSpecificOutput/permissionDecisionReason")
            .or_else(|| str_at(&j, "/reason"));
        let context = str_at(&j, "/hookSpecificOutput/additionalContext");
        let user = str_at(&j, "/systemMessage");
        match str_at(&j, "/hookSpecificOutput/permissionDecision").as_deref() {
            Some("deny") => {
                Outcome::blocks(reason, "the callback returns permissionDecision deny").user(user)
            }
            Some("ask") => Outcome::asks(reason, "the callback returns permissionDecision ask"),
            Some("allow") => Outcome::proceeds(
                "the callback returns permissionDecision allow (with updatedInput, the call runs with that input)",
            )
            .model(context)
            .user(user)
            .runs(j.pointer("/hookSpecificOutput/updatedInput").cloned()),
            _ if str_at(&j, "/decision").as_deref() == Some("block") => {
                Outcome::blocks(reason, "the callback returns decision block").user(user)
            }
            _ => Outcome::proceeds("the callback returns no refusal (updatedInput without allow is ignored)")
                .model(context)
                .user(user),
        }
    }
}

/// The three modules: Python, TypeScript, and the TypeScript module's code
/// as plain JavaScript (`.mjs`, for apps without a TypeScript step). The
/// policy reaches them only inside one literal written by [`js_literal`].
pub fn modules(policy: &Policy, settings: &Value) -> Vec<(&'static str, String)> {
    #[derive(serde::Serialize)]
    struct Data {
        header: String,
        settings: String,
        ts: bool,
        language: &'static str,
        file: &'static str,
    }
    let python = render_file(
        "claude-agent-sdk/hookc_hooks.py",
        &Data {
            header: header(policy, "#"),
            // A JSON string literal is a Python string literal; the module
            // parses it with `json.loads`.
            settings: js_literal(&Value::String(settings.to_string())),
            ts: false,
            language: "Python",
            file: "hookc_hooks.py",
        },
    );
    let script = |ts: bool| {
        render_file(
            "claude-agent-sdk/hookc_hooks.ts",
            &Data {
                header: header(policy, "//"),
                settings: js_literal(settings),
                ts,
                language: if ts { "TypeScript" } else { "JavaScript" },
                file: if ts { "hookc_hooks" } else { "hookc_hooks.mjs" },
            },
        )
    };
    vec![
        ("hookc_hooks.py", python),
        ("hookc_hooks.ts", script(true)),
        ("hookc_hooks.mjs", script(false)),
    ]
}

/// Claude Code's tool names, MCP tools included (the SDK runs Claude Code).
fn matcher_names(tool: &Tool) -> Vec<String> {
    super::mcp_underscore_names(&PROFILE, tool)
}
