//! Windsurf (Cascade hooks): hooks merged into `.windsurf/hooks.json`.
//!
//! From Windsurf's documentation only (the editor is closed source and has
//! no headless mode; nothing here has run in it):
//! - `{"hooks": {event: [{"command", "show_output", "working_directory"}]}}`;
//!   no matchers, no types, no timeouts. Each action has its own events:
//!   `pre_run_command`, `pre_read_code`, `pre_write_code`,
//!   `pre_mcp_tool_use` (which names the server and the tool apart),
//!   `pre_user_prompt`; every hook on an event runs for every action.
//! - Exit 2 blocks a pre-hook and the agent reads stderr; every other status
//!   lets the action through. Post-hooks cannot block. No ask, no rewrite.
//! - The command runs in the workspace root; which shell runs it is not
//!   documented, so hookc writes `sh .hookc/windsurf/<event>.sh`, which runs
//!   the same with a shell or as a plain program with arguments.

use std::path::Path;

use indexmap::IndexMap;
use serde_json::{Value, json};

use super::common::{self, Route};
use super::payload::{ToolCall, text_of};
use super::{Answer, Harness, HookCommand, MachineCheck, Profile, configured, string_at, windows};
use crate::emit::EmitCx;
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, Tool, ToolKind};
use crate::profile::{
    Dialect, FileFormat, Flavour, HookFile, JsonSpec, LateHook, Matching, OnHookError, PlainStdout,
    Unit,
};

pub struct Windsurf;

/// Hook entries hookc owns are recognised by this path in their command.
const MARKER: &str = ".hookc/windsurf/";
const HOOKS: &str = ".windsurf/hooks.json";
/// The pre-hook of each kind of action, by the name hookc gives the action.
const ACTIONS: [(&str, &str); 4] = [
    ("run_command", "pre_run_command"),
    ("read_code", "pre_read_code"),
    ("write_code", "pre_write_code"),
    ("mcp_tool_use", "pre_mcp_tool_use"),
];

static PROFILE: Profile = Profile {
    id: HarnessId::Windsurf,
    name: "Windsurf",
    // Pre-tool guards go to the pre-hook of each kind of action they name
    // (see `emit`); this is the first.
    events: &[
        (Event::PreTool, "pre_run_command"),
        (Event::Prompt, "pre_user_prompt"),
    ],
    // Windsurf has no tool names: an action's kind is its event.
    tools: &[
        (ToolKind::Shell, &["run_command"]),
        (ToolKind::Read, &["read_code"]),
        (ToolKind::Write, &["write_code"]),
        (ToolKind::Edit, &["write_code"]),
    ],
    can_block: &[Event::PreTool, Event::Prompt],
    honours_ask: &[],
    can_rewrite: false,
    options: &[],
    todo: &[
        "install hookc on every machine that runs Windsurf in this repo (or set HOOKC_BIN)",
        "Windsurf's hooks are from its documentation only: try one refused command in Cascade before relying on them",
    ],
    more_events: &[
        "pre_read_code",
        "pre_write_code",
        "pre_mcp_tool_use",
        "post_read_code",
        "post_write_code",
        "post_run_command",
        "post_mcp_tool_use",
        "post_cascade_response",
        "post_cascade_response_with_transcript",
        "post_setup_worktree",
    ],
    files: &[HookFile {
        dir: ".windsurf",
        names: &["hooks.json"],
        format: FileFormat::HooksJson,
        in_project: true,
    }],
    json: Some(JsonSpec {
        dialect: Dialect::STRICT,
        strict_root: None,
        version: None,
        groups: false,
        flat_ok: true,
        require_type: false,
        types: &[],
        command_keys: &["command", "powershell"],
        timeout_keys: &["timeout"],
        unit: Unit::Seconds,
        matching: Matching::Unanchored,
        star_is_all: false,
        matcher_aliases: &[],
        tools_closed: false,
        matcher_subject: crate::profile::tool_name_matchers,
        events_any_case: false,
        strict_keys: None,
        stdout_is_reply: false,
        plain_stdout: |_| PlainStdout::Unknown,
    }),
    flavour: Some(Flavour::EcmaScript),
    mcp_names: crate::profile::no_mcp_names,
    refusal: Some(include_str!("../../templates/windsurf/refuse.sh.hbs")),
    on_hook_error: OnHookError::Proceeds,
    own_timeout: None,
    late_hook: LateHook::Proceeds,
    hints: &[".windsurf/", ".windsurfrules"],
    protected: &[
        ".windsurf/hooks.json",
        "~/.codeium/windsurf/hooks.json",
        "~/.codeium/hooks.json",
        "/etc/windsurf",
        "/Library/Application Support/Windsurf",
    ],
    protected_examples: &[".windsurf/hooks.json"],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::Unknown,
    hook_vars: None,
};

/// Cascade's system hooks file: Windsurf's documentation names it, and runs
/// its hooks before the user's and the workspace's.
const MANAGED: crate::managed::Layer = crate::managed::Layer {
    file: crate::managed::Paths {
        linux: "/etc/windsurf/hooks.json",
        macos: "/Library/Application Support/Windsurf/hooks.json",
        windows: crate::managed::OnWindows::Not(
            "Windsurf does not document which shell runs hook commands there, and hookc's are POSIX",
        ),
    },
    what: "Cascade's system hooks",
    only_managed: None,
    not_enforced: Some(
        "Cascade's system hooks reach only Cascade: Devin Local, the agent Devin Desktop starts by default, reads none of Windsurf's hook files, and hookc has no administrator layer for it; whether a user or workspace can switch the system hooks off is not documented",
    ),
};

/// hookc's entries, by Cascade's event name, with the warnings of what
/// Windsurf cannot do; `shim` writes the shim of an event and returns the
/// command that runs it.
fn hook_entries(
    policy: &Policy,
    cx: &mut EmitCx,
    shim: &mut dyn FnMut(&mut EmitCx, Event, &str) -> String,
) -> IndexMap<String, Vec<Value>> {
    common::warn_unsupported_events(policy, &PROFILE, cx);
    common::warn_decisions(policy, &PROFILE, cx, &|_, decision| match decision {
        Decision::Ask => Some(
            "Windsurf's hooks cannot ask the user; hookc refuses the call and tells the model to ask the user instead",
        ),
        Decision::Context => {
            Some("Windsurf's hooks cannot add context; the call goes ahead without it")
        }
        _ => None,
    });
    let mut entries: IndexMap<String, Vec<Value>> = IndexMap::new();
    for &(event, native) in PROFILE.events {
        let Some(Route { names, any_tool }) =
            common::route(policy, event, &PROFILE, cx, &matcher_names)
        else {
            continue;
        };
        let handler = json!({ "command": shim(cx, event, native), "show_output": true });
        if event == Event::PreTool {
            for (action, hook) in ACTIONS {
                if any_tool || names.iter().any(|n| n == action) {
                    entries.insert(hook.to_owned(), vec![handler.clone()]);
                }
            }
        } else {
            entries.insert(native.to_owned(), vec![handler]);
        }
    }
    entries
}

impl Harness for Windsurf {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn machine_checks(&self, _root: &Path, _home: Option<&Path>) -> Vec<MachineCheck> {
        vec![MachineCheck::note(
            format!(
                "{}'s hooks are built from its documentation; no run has checked them",
                PROFILE.name
            ),
            "ask Cascade to run a command the policy denies, and check that it is refused",
        )]
    }

    fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        let entries = hook_entries(policy, cx, &mut |cx, event, native| {
            cx.shim(policy, &PROFILE, event, native, policy.on_error_for(event));
            format!("sh .hookc/windsurf/{}.sh", event.word())
        });
        cx.hook_entries(HOOKS, entries, Vec::new(), MARKER);
    }

    fn managed_layer(&self) -> Option<crate::managed::Layer> {
        Some(MANAGED)
    }

    fn emit_managed(&self, policy: &Policy, cx: &mut EmitCx, install: &crate::managed::Install) {
        let entries = hook_entries(policy, cx, &mut |cx, event, native| {
            let on_error = policy.on_error_for(event);
            let shim = cx.managed_shim(policy, &PROFILE, (event, native), on_error, install);
            // Bare where it can be: were the command split on spaces and
            // run as a program, quotes would stay in the path.
            if shim
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"/._-".contains(&b))
            {
                format!("sh {shim}")
            } else {
                format!("sh {}", crate::emit::sh_word(&shim))
            }
        });
        let marker = format!("{}/windsurf/", install.os.hookc_dir());
        cx.hook_entries(
            &install.tree_file(MANAGED.file),
            entries,
            Vec::new(),
            &marker,
        );
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Unguarded {
            what: "Windsurf does not document which shell runs hooks on Windows; `sh` is not there without Git Bash or WSL, and a hook that cannot start lets the action through",
            fix: "run Windsurf's agent in WSL, or leave Windsurf out of `targets` for Windows machines",
        }
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        if !payload.is_object() {
            return Err("the payload is not a JSON object".to_owned());
        }
        let action = string_at(payload, "/agent_action_name")?;
        let info = payload
            .get("tool_info")
            .filter(|v| v.is_object())
            .ok_or("the payload has no `tool_info` object")?;
        let mut call = Call {
            event: Some(event),
            // Hooks run in the workspace root.
            root: std::env::current_dir()
                .ok()
                .map(|d| d.to_string_lossy().into_owned()),
            home: std::env::var("HOME").ok(),
            ..Call::default()
        };
        match (event, action) {
            (Event::PreTool, "pre_run_command") => {
                call.command = Some(string_at(info, "/command_line")?.to_owned());
                call.tool = Some(tool(Some(ToolKind::Shell), "run_command", None));
            }
            (Event::PreTool, "pre_read_code") => {
                call.paths.push(string_at(info, "/file_path")?.to_owned());
                call.tool = Some(tool(Some(ToolKind::Read), "read_code", None));
            }
            (Event::PreTool, "pre_write_code") => {
                call.paths.push(string_at(info, "/file_path")?.to_owned());
                call.text = Some(info.to_string());
                // One event for new files and changed ones: a write and an edit.
                let mut t = tool(Some(ToolKind::Edit), "write_code", None);
                t.also = vec![tool(Some(ToolKind::Write), "write_code", None)];
                call.tool = Some(t);
            }
            (Event::PreTool, "pre_mcp_tool_use") => {
                let server = string_at(info, "/mcp_server_name")?.to_owned();
                let name = string_at(info, "/mcp_tool_name")?.to_owned();
                call.text = info.get("mcp_tool_arguments").map(Value::to_string);
                call.tool = Some(tool(None, "mcp_tool_use", Some((server, name))));
            }
            (Event::Prompt, "pre_user_prompt") => {
                call.text = Some(string_at(info, "/user_prompt")?.to_owned());
            }
            (_, other) => {
                return Err(format!(
                    "`agent_action_name` is `{other}`, not an action hookc guards on {event}"
                ));
            }
        }
        Ok(call)
    }

    fn answer(&self, _event: Event, verdict: Option<&Verdict>) -> Answer {
        let Some(verdict) = verdict else {
            return Answer::default();
        };
        let refusal;
        let verdict = if verdict.decision == Decision::Rewrite {
            refusal = super::rewrite_as_refusal(verdict);
            &refusal
        } else {
            verdict
        };
        let reason = verdict.reason();
        let refuse = Answer::exit_2;
        match verdict.decision {
            Decision::Deny | Decision::Block => refuse(reason),
            Decision::Ask => refuse(format!(
                "{reason}\n(The policy wants the user to confirm this, and Windsurf cannot ask from a hook, so hookc refused it. Ask the user in the chat; if they agree, they can run it themselves.)"
            )),
            _ => Answer::default(),
        }
    }

    fn outcome(&self, _event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::text;
        if o.exit == Some(2) {
            return Outcome::blocks(
                text(&o.stderr),
                "exit 2 blocks (documented); the agent reads stderr",
            );
        }
        Outcome::proceeds("any status but 2 lets the action through (documented; timeouts are not)")
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let (action, info) = match (event, &call.tool) {
            (Event::PreTool, Some(Tool::Mcp { server, tool })) => (
                "pre_mcp_tool_use",
                json!({"mcp_server_name": server, "mcp_tool_name": tool, "mcp_tool_arguments": {}}),
            ),
            (Event::PreTool, _) => {
                let t = ToolCall::of(&PROFILE, call, root)?;
                match t.kind {
                    ToolKind::Shell => (
                        "pre_run_command",
                        json!({"command_line": t.command, "cwd": t.root}),
                    ),
                    ToolKind::Read => ("pre_read_code", json!({"file_path": t.path})),
                    _ => (
                        "pre_write_code",
                        json!({"file_path": t.path, "edits": [{"old_string": "", "new_string": "x\n"}]}),
                    ),
                }
            }
            (Event::Prompt, _) => (
                "pre_user_prompt",
                json!({"user_prompt": text_of(event, call)?}),
            ),
            _ => return None,
        };
        Some(json!({
            "agent_action_name": action,
            "trajectory_id": "t1",
            "execution_id": "e1",
            "timestamp": "2026-12-01T10:00:00.000Z",
            "tool_info": info,
        }))
    }

    fn hook_command(&self, root: &Path, _event: Event, payload: &Value) -> Option<HookCommand> {
        let action = payload.get("agent_action_name")?.as_str()?;
        Some(HookCommand {
            command: configured(root, HOOKS, &format!("/hooks/{action}/0/command"))?,
            shell: "/bin/sh",
            env: Vec::new(),
        })
    }
}

fn tool(kind: Option<ToolKind>, native: &str, mcp: Option<(String, String)>) -> CallTool {
    CallTool {
        kind,
        mcp,
        native: native.to_owned(),
        ..CallTool::default()
    }
}

/// The action names (`run_command`, …) one guard tool needs a pre-hook for;
/// every MCP tool needs `pre_mcp_tool_use`, which names the server and tool.
fn matcher_names(tool: &Tool) -> Vec<String> {
    match tool {
        Tool::Known { tool } => PROFILE
            .tool_names(*tool)
            .iter()
            .map(|n| (*n).to_owned())
            .collect(),
        Tool::Mcp { .. } => vec!["mcp_tool_use".to_owned()],
        Tool::Native { harness, name } if *harness == HarnessId::Windsurf => ACTIONS
            .iter()
            .filter(|(a, _)| a == name)
            .map(|(a, _)| (*a).to_owned())
            .collect(),
        Tool::Native { .. } => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::Observation;

    #[test]
    fn each_action_is_read_from_its_own_event() {
        let call = |action: &str, info: Value| {
            Windsurf.decode_call(
                Event::PreTool,
                &json!({"agent_action_name": action, "tool_info": info}),
            )
        };
        let c = call(
            "pre_run_command",
            json!({"command_line": "git push -f", "cwd": "/r"}),
        )
        .unwrap();
        assert_eq!(c.command.as_deref(), Some("git push -f"));
        let c = call(
            "pre_write_code",
            json!({"file_path": "/r/.env", "edits": []}),
        )
        .unwrap();
        assert_eq!(c.paths, vec!["/r/.env"]);
        let c = call(
            "pre_mcp_tool_use",
            json!({"mcp_server_name": "pay", "mcp_tool_name": "refund", "mcp_tool_arguments": {}}),
        )
        .unwrap();
        assert_eq!(c.tool.unwrap().mcp, Some(("pay".into(), "refund".into())));
        // An action hookc does not guard is refused, not let through.
        assert!(call("post_run_command", json!({})).is_err());
        assert!(call("pre_run_command", json!({})).is_err());
    }

    #[test]
    fn refusals_are_exit_2_with_stderr() {
        let verdict = |decision| Verdict {
            decision,
            hits: vec![crate::eval::Hit {
                guard: "g".into(),
                from: None,
                decision,
                reason: "No.".into(),
                message: None,
            }],
            rewritten: None,
        };
        for decision in [Decision::Deny, Decision::Ask] {
            let a = Windsurf.answer(Event::PreTool, Some(&verdict(decision)));
            let o = Windsurf.outcome(
                Event::PreTool,
                &Observation {
                    exit: Some(a.exit),
                    stdout: a.stdout,
                    stderr: a.stderr,
                    ..Observation::default()
                },
            );
            assert!(!o.proceeds && o.model_reads.unwrap().starts_with("No."));
        }
    }
}
