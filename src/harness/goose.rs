//! Goose: a project plugin of hookc's, `.agents/plugins/hookc/hooks/hooks.json`.
//!
//! Protocol facts this file relies on (read in Goose's source, `hooks/mod.rs`,
//! `plugins/discovery.rs` and the developer extension, at the commits the
//! book's page names; Goose installs only from GitHub, so nothing here has
//! run it):
//! - Goose runs the `hooks/hooks.json` of every folder under
//!   `.agents/plugins/` of the folder it starts in (no walk up) and under
//!   `~/.agents/plugins/`; a new plugin is enabled without a prompt. A file
//!   that does not parse, or a field of the wrong type, drops the plugin's
//!   hooks with only a log line.
//! - Commands run with `sh -c`, in Goose's working directory, with
//!   `PLUGIN_ROOT` naming the plugin's folder. The payload has `event`,
//!   `tool_name`, `tool_input` and `working_dir` (no `cwd`).
//! - Exit 2 refuses with stderr as the reason; `{"decision": "block"}` on
//!   stdout refuses whatever the status. Exit 0 with nothing on stdout
//!   allows. Anything else (another status, a crash, a timeout, stray
//!   text) is no decision: the call goes ahead, unless the handler says
//!   `"on_failure": "block"`, which hookc always writes.
//! - Matchers are Rust regexes, unanchored, over `<extension>__<tool>`:
//!   `developer__shell` (`command`), `developer__write` (`path`,
//!   `content`), `developer__edit` (`path`, `before`, `after`). Goose has
//!   no file-reading tool: it reads through the shell.
//! - Sub-agents (`summon__delegate`) and code mode's inner calls
//!   (`code_execution__…`) run their tools without hooks.

use std::path::Path;

use indexmap::IndexMap;
use serde_json::{Value, json};

use super::common::{self, Route};
use super::payload::ToolCall;
use super::{Answer, Harness, HookCommand, MachineCheck, Profile, anchored_alternation, windows};
use crate::emit::EmitCx;
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, ToolKind};
use crate::profile::{
    Dialect, FileFormat, Flavour, HookFile, JsonSpec, LateHook, Matching, McpNames, OnHookError,
    PlainStdout, Unit,
};

pub struct Goose;

/// Hook entries hookc owns are recognised by this path in their command.
const MARKER: &str = "/.hookc/goose/";
/// hookc's plugin: its folder's name is the plugin's name.
const HOOKS: &str = ".agents/plugins/hookc/hooks/hooks.json";

/// Tools whose own calls Goose makes without hooks: a sub-agent's, and
/// the ones code mode calls from its script. hookc cannot see what they
/// run, so where a policy guards tool calls it refuses these.
const UNSEEN: &[&str] = &["summon__delegate", "code_execution__.*"];

static PROFILE: Profile = Profile {
    id: HarnessId::Goose,
    name: "Goose",
    events: &[
        (Event::PreTool, "PreToolUse"),
        (Event::PostTool, "PostToolUse"),
    ],
    tools: &[
        (ToolKind::Shell, &["developer__shell"]),
        (ToolKind::Write, &["developer__write"]),
        (ToolKind::Edit, &["developer__edit"]),
    ],
    can_block: &[Event::PreTool],
    honours_ask: &[],
    can_rewrite: false,
    options: &[],
    todo: &[
        "install hookc on every machine that runs Goose in this repo (or set HOOKC_BIN)",
        "start goose in the project's root folder: it reads .agents/plugins/ there only",
    ],
    more_events: &[
        "PreToolUseResult",
        "PostToolUseFailure",
        "SessionStart",
        "SessionEnd",
        "UserPromptSubmit",
        "BeforeReadFile",
        "AfterFileEdit",
        "BeforeShellExecution",
        "AfterShellExecution",
        "Stop",
    ],
    // Every plugin's hooks, hookc's own (`hookc`) and hand-written ones.
    files: &[HookFile {
        dir: ".agents/plugins/*/hooks",
        names: &["hooks.json"],
        format: FileFormat::HooksJson,
        in_project: true,
    }],
    json: Some(JsonSpec {
        dialect: Dialect {
            comments: false,
            trailing_commas: false,
            bom: false,
        },
        strict_root: None,
        version: None,
        groups: true,
        flat_ok: false,
        require_type: false,
        types: &["command"],
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
        stdout_is_reply: true,
        plain_stdout: |_| PlainStdout::Unknown,
    }),
    flavour: Some(Flavour::Rust),
    mcp_names: |_| Some(McpNames::ServerDoubleUnderscoreTool),
    refusal: Some(include_str!("../../templates/goose/refuse.sh.hbs")),
    // With hookc's `on_failure: "block"`; a hand-written hook without it
    // that fails lets the call through.
    on_hook_error: OnHookError::Refuses,
    own_timeout: None,
    late_hook: LateHook::Refuses,
    hints: &[".agents/plugins/", ".goosehints"],
    protected: &[
        // Goose runs the hooks of every plugin there: a plugin the agent
        // wrote would run its commands outside the guards.
        ".agents/plugins",
        "~/.agents/plugins",
        // A plugin is switched off by name in these.
        ".config/goose/settings.json",
        ".config/goose/settings.local.json",
        "~/.config/goose/settings.json",
        "~/.config/goose/config.yaml",
    ],
    protected_examples: &[
        HOOKS,
        ".agents/plugins/another/hooks/hooks.json",
        ".config/goose/settings.json",
    ],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::ProjectRoot,
    hook_vars: Some(crate::profile::HookVars {
        set: &["PLUGIN_ROOT"],
        complete: true,
    }),
};

impl Harness for Goose {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn machine_checks(&self, root: &Path, home: Option<&Path>) -> Vec<MachineCheck> {
        let name = PROFILE.name;
        let mut checks = Vec::new();
        for path in [
            Some(root.join(".config/goose/settings.json")),
            Some(root.join(".config/goose/settings.local.json")),
            common::under_home(home, ".config/goose/settings.json"),
        ]
        .into_iter()
        .flatten()
        {
            let Some(settings) = common::read_json(Some(path.clone())) else {
                continue;
            };
            let off = settings["disabledPlugins"]
                .as_array()
                .is_some_and(|list| list.iter().any(|p| p == "hookc"));
            if off {
                checks.push(MachineCheck::fail(
                    format!(
                        "{name}: {} switches hookc's plugin off (\"disabledPlugins\" lists \"hookc\")",
                        path.display()
                    ),
                    format!("take \"hookc\" out of `disabledPlugins` in {}", path.display()),
                ));
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
                (Event::PreTool, Decision::Ask) => Some(
                    "Goose's hooks cannot ask the user; hookc refuses the call and tells the model to ask the user instead",
                ),
                (_, Decision::Context) => {
                    Some("Goose's hooks cannot add context; the call goes ahead without it")
                }
                (Event::PostTool, d) if d.refuses() => {
                    Some("Goose cannot refuse a tool's result from a hook")
                }
                _ => None,
            },
        );
        let mut entries: IndexMap<String, Vec<Value>> = IndexMap::new();
        for &(event, native) in PROFILE.events {
            let Some(Route {
                mut names,
                any_tool,
            }) = common::route(policy, event, &PROFILE, cx, &matcher_names)
            else {
                continue;
            };
            if event == Event::PreTool {
                // hookc refuses them: see `UNSEEN`.
                names.extend(UNSEEN.iter().map(|&n| n.to_owned()));
            }
            let mut handler = json!({
                "type": "command",
                // The plugin's folder is `.agents/plugins/hookc`: the
                // project's root is three folders up.
                "command": common::source_shim(&format!(
                    "\"$PLUGIN_ROOT\"/../../../.hookc/goose/{}.sh",
                    event.word()
                )),
                "timeout": policy.timeout,
            });
            if event == Event::PreTool {
                // No decision (a crash, a timeout, stray output) refuses.
                handler["on_failure"] = json!("block");
            }
            let matcher = (!any_tool).then(|| anchored_alternation(names));
            entries.insert(native.to_owned(), vec![common::group(matcher, handler)]);
            cx.shim(policy, &PROFILE, event, native, policy.on_error_for(event));
        }
        cx.hook_entries(HOOKS, entries, Vec::new(), MARKER);
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Guarded(
            "Goose runs hook commands with `sh -c` on Windows too; where no `sh` is on PATH (Git Bash), the hook cannot start and `on_failure: block` refuses every call",
        )
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        // Goose names no project: the session's folder, where it found
        // hookc's plugin, is the project.
        let working = payload
            .get("working_dir")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let mut call = common::new_call(event, payload, "", working)?;
        let name = super::string_at(payload, "/tool_name")?;
        if name == "summon__delegate" || name.starts_with("code_execution__") {
            return Err(format!(
                "Goose runs the tools that `{name}` calls without hooks, so hookc cannot see what they run. Do the work with your own tools, one call at a time"
            ));
        }
        let empty = json!({});
        let input = payload.get("tool_input").unwrap_or(&empty);
        let kind = PROFILE.tool_kind(name);
        match kind {
            Some(ToolKind::Shell) => {
                call.command = Some(super::string_at(input, "/command")?.to_owned());
            }
            Some(ToolKind::Write | ToolKind::Edit) => {
                call.paths
                    .push(super::string_at(input, "/path")?.to_owned());
                call.text = Some(input.to_string());
            }
            _ => call.text = Some(input.to_string()),
        }
        call.tool = Some(CallTool {
            kind,
            mcp: McpNames::ServerDoubleUnderscoreTool.split(name),
            native: name.to_owned(),
            ..CallTool::default()
        });
        Ok(call)
    }

    fn answer(&self, _event: Event, verdict: Option<&Verdict>) -> Answer {
        match common::refusal_reason(verdict, "a Goose") {
            Some(reason) => Answer::exit_2(reason),
            // Silence: any text on stdout would be no decision, which
            // `on_failure: block` refuses.
            None => Answer::default(),
        }
    }

    fn outcome(&self, _event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{json_object, str_at, text};
        const NO_DECISION: &str = "no decision, which hookc's `on_failure: block` refuses";
        let stdout = text(&o.stdout);
        let block = stdout
            .as_deref()
            .filter(|s| s.starts_with('{'))
            .and_then(json_object)
            .filter(|j| str_at(j, "/decision").as_deref() == Some("block"));
        if let Some(j) = block {
            return Outcome::blocks(
                str_at(&j, "/reason").or_else(|| Some("denied by plugin hook".to_owned())),
                "`decision: block` on stdout refuses, whatever the status",
            );
        }
        if o.timed_out {
            return Outcome::blocks(None, NO_DECISION);
        }
        match (o.exit, stdout.as_deref()) {
            (Some(2), _) => Outcome::blocks(
                text(&o.stderr).or_else(|| Some("denied by plugin hook".to_owned())),
                "exit 2 refuses; the model reads stderr",
            ),
            (Some(0), None) => Outcome::proceeds("exit 0 and nothing on stdout allows"),
            (Some(0), Some(out))
                if json_object(out)
                    .is_some_and(|j| str_at(&j, "/decision").as_deref() == Some("allow")) =>
            {
                Outcome::proceeds("exit 0 with `decision: allow` allows")
            }
            _ => Outcome::blocks(None, NO_DECISION),
        }
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let t = ToolCall::of(&PROFILE, call, root)?;
        let mut v = json!({
            "event": PROFILE.event_name(event)?,
            "session_id": "20261206_1",
            "matcher_context": t.native,
            "tool_call_id": "toolu_01",
            "tool_name": t.native,
            "tool_input": t.input("path"),
            "working_dir": root.to_string_lossy(),
        });
        if event == Event::PostTool {
            v["tool_output"] = json!("");
        }
        Some(v)
    }

    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        let plugin = root.join(".agents/plugins/hookc");
        let env = vec![("PLUGIN_ROOT", plugin.to_string_lossy().into_owned())];
        super::grouped_hook_command(root, HOOKS, PROFILE.event_name(event)?, "/bin/sh", env)
    }
}

/// The regex fragments for one guard tool: an MCP tool as
/// `<extension>__<tool>`.
fn matcher_names(tool: &crate::ir::Tool) -> Vec<String> {
    match tool {
        crate::ir::Tool::Mcp { server, tool } => {
            vec![McpNames::ServerDoubleUnderscoreTool.matcher(server, tool)]
        }
        _ => super::mcp_underscore_names(&PROFILE, tool),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::Observation;

    fn observed(exit: Option<i32>, stdout: &str, timed_out: bool) -> super::super::Outcome {
        Goose.outcome(
            Event::PreTool,
            &Observation {
                exit,
                stdout: stdout.into(),
                stderr: "boom".into(),
                timed_out,
            },
        )
    }

    #[test]
    fn refusals_are_exit_2_and_every_failure_refuses_under_on_failure_block() {
        let deny = super::super::test_verdict(Decision::Deny, "Do not force-push.");
        let a = Goose.answer(Event::PreTool, Some(&deny));
        assert_eq!((a.exit, a.stdout.as_str()), (2, ""));
        assert!(!observed(Some(2), "", false).proceeds);
        assert!(observed(Some(0), "", false).proceeds);
        assert!(observed(Some(0), r#"{"decision":"allow"}"#, false).proceeds);
        // No decision: refused, because hookc writes `on_failure: block`.
        for (exit, stdout, timed_out) in [
            (Some(1), "", false),
            (Some(0), "log line", false),
            (Some(0), r#"{"decision":"deny"}"#, false),
            (None, "", true),
            (None, "", false),
        ] {
            assert!(
                !observed(exit, stdout, timed_out).proceeds,
                "{exit:?} {stdout}"
            );
        }
        // A printed block refuses whatever the status.
        let o = observed(Some(1), r#"{"decision":"block","reason":"No."}"#, false);
        assert_eq!((o.proceeds, o.model_reads.as_deref()), (false, Some("No.")));
    }

    #[test]
    fn sub_agents_and_code_mode_are_refused_and_tools_read_their_path() {
        let decode = |tool: &str, input: Value| {
            Goose.decode_call(
                Event::PreTool,
                &json!({"event": "PreToolUse", "tool_name": tool, "tool_input": input, "working_dir": "/p"}),
            )
        };
        for tool in ["summon__delegate", "code_execution__execute_typescript"] {
            assert!(
                decode(tool, json!({}))
                    .unwrap_err()
                    .contains("without hooks")
            );
        }
        let edit = decode(
            "developer__edit",
            json!({"path": ".env", "before": "a", "after": "b"}),
        )
        .unwrap();
        assert_eq!(edit.paths, [".env"]);
        assert_eq!(edit.root.as_deref(), Some("/p"));
        assert!(decode("developer__write", json!({"file_path": ".env"})).is_err());
        let tool = crate::ir::Tool::Mcp {
            server: "github".into(),
            tool: "create_issue".into(),
        };
        let names = matcher_names(&tool);
        let re = regex::Regex::new(&anchored_alternation(names)).unwrap();
        assert!(re.is_match("github__create_issue") && !re.is_match("mcp__github__create_issue"));
        let call = decode("github__create_issue", json!({"title": "x"})).unwrap();
        assert_eq!(
            call.tool.unwrap().mcp,
            Some(("github".into(), "create_issue".into()))
        );
    }
}
