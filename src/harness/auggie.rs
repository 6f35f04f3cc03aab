//! Auggie (Augment's CLI): hooks merged into `.augment/settings.json`.
//!
//! Protocol facts this file relies on (read from `augment.mjs` of
//! `@augmentcode/auggie` 0.36.0; no turn could run, as Auggie needs an
//! Augment account; the book's page lists them in full):
//! - Events: `PreToolUse`, `PostToolUse`, `PromptSubmit` (not Claude's
//!   `UserPromptSubmit`), `Stop`, `SessionStart`, `SessionEnd`,
//!   `Notification`. One invalid handler drops its whole event of the file.
//! - Exit 2 blocks, on `PreToolUse` only, and stderr reaches the model; a
//!   JSON answer on stdout is applied on top, so hookc prints none with a
//!   refusal. Other statuses, a timeout, a spawn failure and a signal let
//!   the call through. `ask` and `allow` change nothing. `Stop` keeps the
//!   agent working on `hookSpecificOutput.decision: "block"`.
//! - A command with `$` in it runs with `bash -c`, in the first workspace
//!   root, with `AUGMENT_PROJECT_DIR` set to that root. `timeout` is
//!   milliseconds.
//! - Matchers are unanchored JavaScript regexes tested against non-MCP tool
//!   names only; MCP tools need `mcp:` matchers and are named
//!   `<tool>_<server>`, which cannot be split back. hookc does not guard
//!   MCP tools here (a build warning says so).

use std::path::Path;

use indexmap::IndexMap;
use serde_json::{Value, json};

use super::common::{self, Route};
use super::payload::{ToolCall, text_of};
use super::{
    Answer, Harness, HookCommand, MachineCheck, Profile, anchored_alternation,
    grouped_hook_command, string_at, windows,
};
use crate::emit::EmitCx;
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, Tool, ToolKind};
use crate::profile::{
    Dialect, FileFormat, Flavour, HookFile, JsonSpec, LateHook, Matching, OnHookError, PlainStdout,
    Unit,
};

pub struct Auggie;

/// Hook entries hookc owns are recognised by this path in their command.
const MARKER: &str = "/.hookc/auggie/";
const SETTINGS: &str = ".augment/settings.json";

/// What the user should do on Windows, where these hooks cannot check a call.
const WINDOWS_FIX: &str = "run Auggie on Windows in WSL";

static PROFILE: Profile = Profile {
    id: HarnessId::Auggie,
    name: "Auggie CLI",
    events: &[
        (Event::PreTool, "PreToolUse"),
        (Event::PostTool, "PostToolUse"),
        (Event::Prompt, "PromptSubmit"),
        (Event::Stop, "Stop"),
        (Event::SessionStart, "SessionStart"),
    ],
    tools: &[
        (ToolKind::Shell, &["launch-process", "shell"]),
        (ToolKind::Read, &["view"]),
        (ToolKind::Write, &["save-file"]),
        (
            ToolKind::Edit,
            &["str-replace-editor", "apply_patch", "remove-files"],
        ),
        (ToolKind::WebFetch, &["web-fetch"]),
    ],
    can_block: &[Event::PreTool, Event::Stop],
    honours_ask: &[],
    can_rewrite: false,
    options: &[],
    todo: &[
        "install hookc on every machine that runs Auggie in this repo (or set HOOKC_BIN)",
        "ask Augment to turn hooks on for your account: Auggie runs hooks only where its server's `enableHooks` feature flag is on, and loads none otherwise, without a word (in auggie, `/hooks` exists only when they are on)",
    ],
    more_events: &["SessionEnd", "Notification"],
    files: &[HookFile {
        dir: ".augment",
        names: &["settings.json", "settings.local.json"],
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
        types: &["command"],
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
    mcp_names: crate::profile::no_mcp_names,
    refusal: Some(include_str!("../../templates/auggie/refuse.sh.hbs")),
    on_hook_error: OnHookError::Proceeds,
    own_timeout: None,
    late_hook: LateHook::Proceeds,
    hints: &[".augment/"],
    protected: &[".augment/settings.json", "~/.augment/settings.json"],
    protected_examples: &[".augment/settings.json"],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::Unknown,
    hook_vars: None,
};

/// Auggie's system settings (`augment.mjs` 0.36.0 reads them first, on
/// Linux and macOS alike, and adds their hooks to the user's and the
/// project's; the docs call the file the administrator's).
const MANAGED: crate::managed::Layer = crate::managed::Layer {
    file: crate::managed::Paths {
        linux: "/etc/augment/settings.json",
        macos: "/etc/augment/settings.json",
        // `%ProgramData%\augment`; `C:\ProgramData` is its default.
        windows: crate::managed::OnWindows::At(r"C:\ProgramData\augment\settings.json"),
    },
    what: "Auggie's system settings",
    only_managed: None,
    not_enforced: Some(
        "Auggie runs no hook at all unless Augment's server turns the account's `enableHooks` feature flag on, and a repository's own PreToolUse hook can hand Auggie a changed input (`updatedInput`), which it runs after hookc's managed hook judged the original",
    ),
};

/// What a hook runs: Auggie's `command`, and its `args` (none: the command
/// is a line, which Auggie splits, or gives `cmd.exe` on Windows).
type Program = (String, Vec<String>);

/// hookc's hook groups, by Auggie's event name, with the warnings of what
/// Auggie cannot do; `shim` writes the shim of an event and returns the
/// `command` that runs it, and its `args` where it takes some.
fn hook_entries(
    policy: &Policy,
    cx: &mut EmitCx,
    shim: &mut dyn FnMut(&mut EmitCx, Event, &str) -> Program,
) -> IndexMap<String, Vec<Value>> {
    common::warn_unsupported_events(policy, &PROFILE, cx);
    common::warn_decisions(
        policy,
        &PROFILE,
        cx,
        &|event, decision| match (event, decision) {
            (Event::PreTool, Decision::Ask) => Some(
                "Auggie ignores a hook's `ask`; hookc refuses the call and tells the model to ask the user instead",
            ),
            (Event::PreTool | Event::PostTool | Event::Stop, Decision::Context) => {
                Some("Auggie reads no added context on this event; the call goes ahead without it")
            }
            (Event::Prompt | Event::PostTool, d) if d.refuses() => {
                Some("Auggie's hooks cannot refuse on this event; the call goes ahead")
            }
            _ => None,
        },
    );
    let mut entries: IndexMap<String, Vec<Value>> = IndexMap::new();
    for &(event, native) in PROFILE.events {
        let Some(Route { names, any_tool }) =
            common::route(policy, event, &PROFILE, cx, &matcher_names)
        else {
            continue;
        };
        let (command, args) = shim(cx, event, native);
        let mut handler = json!({
            "type": "command",
            "command": command,
            "timeout": u64::from(policy.timeout).max(1) * 1000,
        });
        if !args.is_empty() {
            handler["args"] = json!(args);
        }
        let mut group = serde_json::Map::new();
        if event.has_tools() {
            let matcher = if any_tool {
                ".*".to_owned()
            } else {
                anchored_alternation(names)
            };
            group.insert("matcher".into(), json!(matcher));
        }
        group.insert("hooks".into(), json!([handler]));
        entries.insert(native.to_owned(), vec![Value::Object(group)]);
    }
    entries
}

impl Harness for Auggie {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn machine_checks(&self, _root: &Path, _home: Option<&Path>) -> Vec<MachineCheck> {
        vec![
            MachineCheck::note(
                format!(
                    "{} drops every hook of an event when one of that event's handlers in a file is invalid, and only logs it",
                    PROFILE.name
                ),
                "run `hookc lint .augment/settings.json` after editing the file by hand",
            ),
            // augment.mjs (0.36.0) builds its hooks only when the model
            // config's `featureFlagsV2.enableHooks` is true; the default is
            // false, and it comes from Augment's server per account.
            MachineCheck::note(
                format!(
                    "{} runs hooks only where Augment's server turns its `enableHooks` feature flag on for the account; hookc cannot see that flag from here, and without it no hook runs",
                    PROFILE.name
                ),
                "in auggie, type `/hooks`: the command exists only when hooks are on; if it is missing, ask Augment to turn hooks on",
            ),
        ]
    }

    fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        let entries = hook_entries(policy, cx, &mut |cx, event, native| {
            cx.shim(policy, &PROFILE, event, native, policy.on_error_for(event));
            let command = common::source_shim(&format!(
                "\"$AUGMENT_PROJECT_DIR\"/.hookc/auggie/{}.sh",
                event.word()
            ));
            let command = common::refusing_on_windows(event, command, &PROFILE, WINDOWS_FIX);
            (command, Vec::new())
        });
        cx.hook_entries(SETTINGS, entries, Vec::new(), MARKER);
    }

    fn managed_layer(&self) -> Option<crate::managed::Layer> {
        Some(MANAGED)
    }

    fn managed_checks(&self, root: &Path, os: crate::managed::Os) -> Vec<MachineCheck> {
        // hookc adds the override only to a file without one: an
        // administrator's own `false` is kept, and turns every hook off
        // wherever the account lets clients set flags.
        match MANAGED.on(os).map(|file| {
            let settings = common::read_json(Some(root.join(crate::managed::tree_path(file))));
            (file, settings)
        }) {
            Some((file, Some(settings)))
                if settings["featureFlagOverrides"]["enableHooks"] == json!(false) =>
            {
                vec![MachineCheck::Fail(
                    format!(
                        "Auggie CLI: {file} sets featureFlagOverrides.enableHooks to false, which turns every hook off, the managed ones too"
                    ),
                    format!("set featureFlagOverrides.enableHooks to true in {file}"),
                )]
            }
            _ => Vec::new(),
        }
    }

    fn emit_managed(&self, policy: &Policy, cx: &mut EmitCx, install: &crate::managed::Install) {
        let windows = install.os == crate::managed::Os::Windows;
        // On Windows the line names no folder of hookc's: a comment at its
        // end marks it.
        let marker = if windows {
            format!("{}/auggie/", install.hookc_dir())
        } else {
            format!("{}/auggie/", install.os.hookc_dir())
        };
        let entries = hook_entries(policy, cx, &mut |cx, event, native| {
            if windows {
                // Auggie starts a command with `args` directly, with no
                // shell (one without runs through cmd.exe when it holds
                // `|&;<>$` or a backquote), and fills in `${NAME}` first:
                // the line has no `$`.
                let script = windows::managed_powershell(
                    cx,
                    PROFILE.id,
                    event,
                    windows::EXIT_2_WITH_REASON,
                    install,
                );
                return (
                    windows::WINDOWS_POWERSHELL.to_owned(),
                    windows::command_args(&script, &marker),
                );
            }
            let command = common::managed_command(cx, policy, &PROFILE, (event, native), install);
            (command, Vec::new())
        });
        cx.hook_entries(
            &install.tree_file(MANAGED.file),
            entries,
            // The system file wins for a setting: where the account lets
            // clients set feature flags, no project or user turns hooks off.
            vec![(
                "featureFlagOverrides".to_owned(),
                json!({ "enableHooks": true }),
            )],
            &marker,
        );
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Unguarded {
            what: "Auggie runs a command with shell characters in it through cmd.exe on Windows; hookc's command refuses every call there (its first part is a refusal in cmd.exe and PowerShell), so nothing is checked and nothing runs",
            fix: WINDOWS_FIX,
        }
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        let first_root = payload
            .pointer("/workspace_roots/0")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let mut call = common::new_call(event, payload, "AUGMENT_PROJECT_DIR", first_root)?;
        match event {
            Event::PreTool | Event::PostTool => {
                let (name, input) = common::tool_and_input(payload)?;
                let mcp = payload.get("is_mcp_tool") == Some(&json!(true));
                let kind = if mcp { None } else { PROFILE.tool_kind(name) };
                match (kind, name) {
                    (Some(ToolKind::Shell), _) => call.command = Some(shell_command(input)?),
                    (Some(ToolKind::Edit), "apply_patch") => {
                        let patch = super::patch_files(string_at(input, "/input")?);
                        call.paths.extend(patch.added);
                        call.paths.extend(patch.changed);
                        if call.paths.is_empty() {
                            return Err("the apply_patch input names no file".to_owned());
                        }
                        call.text = Some(input.to_string());
                    }
                    (Some(ToolKind::Edit), "remove-files") => {
                        let files = input
                            .get("file_paths")
                            .and_then(Value::as_array)
                            .ok_or("`tool_input.file_paths` should be an array")?;
                        for f in files {
                            let f = f
                                .as_str()
                                .ok_or("`tool_input.file_paths` should hold strings")?;
                            call.paths.push(f.to_owned());
                        }
                        call.text = Some(input.to_string());
                    }
                    (Some(ToolKind::Read | ToolKind::Write | ToolKind::Edit), _) => {
                        call.paths.push(string_at(input, "/path")?.to_owned());
                        call.text = Some(input.to_string());
                    }
                    _ => call.text = Some(input.to_string()),
                }
                call.tool = Some(CallTool {
                    kind,
                    native: name.to_owned(),
                    ..CallTool::default()
                });
            }
            Event::Prompt => call.text = Some(string_at(payload, "/user_prompt")?.to_owned()),
            Event::Stop | Event::SubagentStop | Event::SessionStart => {}
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
        let refuse = Answer::exit_2;
        match (event, verdict.decision) {
            (Event::PreTool, Decision::Deny | Decision::Block) => refuse(reason),
            (Event::PreTool, Decision::Ask) => refuse(format!(
                "{reason}\n(The policy wants the user to confirm this call, and Auggie cannot ask from a hook, so hookc refused it. Ask the user in the chat; if they agree, they can run it themselves.)"
            )),
            (Event::Stop, d) if d.refuses() => Answer::print(json!({
                "hookSpecificOutput": {"hookEventName": "Stop", "decision": "block", "reason": reason}
            })),
            (Event::SessionStart, Decision::Context) => Answer::print(json!({
                "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": reason}
            })),
            (Event::Prompt, Decision::Context) => {
                Answer::print(json!({ "additionalContext": reason }))
            }
            _ => Answer::default(),
        }
    }

    fn outcome(&self, event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{first_line, json_object, str_at, text};
        if o.timed_out {
            return Outcome::proceeds(
                "a timeout counts as a failed hook: the call proceeds (fail-open)",
            );
        }
        // A signal is read as exit 0.
        let exit = o.exit.unwrap_or(0);
        // JSON counts only with the right `hookEventName`.
        let native = PROFILE.event_name(event).unwrap_or("PreToolUse");
        let json = json_object(&o.stdout).filter(|j| {
            j.get("hookSpecificOutput").is_none()
                || str_at(j, "/hookSpecificOutput/hookEventName").as_deref() == Some(native)
        });
        let continues = json
            .as_ref()
            .and_then(|j| j.get("continue"))
            .and_then(Value::as_bool);
        if event == Event::PreTool && exit == 2 {
            if continues == Some(true) {
                return Outcome::proceeds(
                    "exit 2 blocks, but `\"continue\": true` on stdout undoes it",
                );
            }
            return Outcome::blocks(
                text(&o.stderr).or_else(|| Some("Tool execution blocked by hook".to_owned())),
                "exit 2 on PreToolUse blocks; the model reads stderr",
            );
        }
        if exit != 0 {
            return Outcome::proceeds(
                "any other exit status is a non-blocking error: the call proceeds",
            )
            .user(first_line(&o.stderr));
        }
        let Some(j) = json else {
            return Outcome::proceeds("exit 0 without valid JSON: no decision");
        };
        let reason = str_at(&j, "/hookSpecificOutput/permissionDecisionReason")
            .or_else(|| str_at(&j, "/hookSpecificOutput/reason"))
            .or_else(|| str_at(&j, "/stopReason"));
        let deny = str_at(&j, "/hookSpecificOutput/permissionDecision").as_deref() == Some("deny");
        let block = str_at(&j, "/hookSpecificOutput/decision").as_deref() == Some("block");
        match event {
            Event::PreTool if deny || continues == Some(false) => Outcome::blocks(
                reason,
                "JSON on exit 0: permissionDecision deny or continue false",
            ),
            Event::Stop if block => Outcome::blocks(
                reason,
                "JSON on exit 0: Stop decision block keeps the agent working",
            ),
            _ => {
                Outcome::proceeds("JSON on exit 0 without a refusal (allow and ask change nothing)")
                    .model(
                        str_at(&j, "/hookSpecificOutput/additionalContext")
                            .or_else(|| str_at(&j, "/additionalContext")),
                    )
            }
        }
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let mut v = json!({
            "hook_event_name": PROFILE.event_name(event)?,
            "conversation_id": "c1",
            "workspace_roots": [root.to_string_lossy()],
        });
        let o = v.as_object_mut()?;
        match event {
            Event::PreTool | Event::PostTool => {
                let t = ToolCall::of(&PROFILE, call, root)?;
                let input = match t.kind {
                    ToolKind::Shell => json!({"command": t.command, "cwd": t.root, "wait": true}),
                    ToolKind::Write => json!({"path": t.path, "file_content": "x\n"}),
                    ToolKind::Edit => {
                        json!({"command": "str_replace", "path": t.path, "old_str_1": "a", "new_str_1": "b"})
                    }
                    _ => json!({"path": t.path}),
                };
                o.insert("tool_name".into(), json!(t.native));
                o.insert("tool_input".into(), input);
                o.insert("tool_output".into(), Value::Null);
                o.insert("tool_error".into(), Value::Null);
                o.insert("is_mcp_tool".into(), json!(false));
            }
            Event::Prompt => {
                o.insert("user_prompt".into(), json!(text_of(event, call)?));
            }
            Event::Stop => {
                super::payload::without_text(event, call)?;
                o.insert("agent_stop_cause".into(), json!("end_turn"));
            }
            Event::SessionStart => {
                text_of(event, call)?;
            }
            Event::SubagentStop => return None,
        }
        Some(v)
    }

    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        let env = vec![("AUGMENT_PROJECT_DIR", root.to_string_lossy().into_owned())];
        grouped_hook_command(root, SETTINGS, PROFILE.event_name(event)?, "bash", env)
    }
}

/// The command line of a shell call: `command`, and the words of `args`
/// after it when the `shell` tool gives them.
fn shell_command(input: &Value) -> Result<String, String> {
    let mut line = string_at(input, "/command")?.to_owned();
    if let Some(args) = input.get("args").filter(|a| !a.is_null()) {
        let args = args
            .as_array()
            .ok_or("`tool_input.args` should be an array")?;
        for a in args {
            let a = a.as_str().ok_or("`tool_input.args` should hold strings")?;
            line.push(' ');
            line.push_str(&common::sh_quote(a));
        }
    }
    Ok(line)
}

/// The regex fragments for one guard tool. MCP tools have none: Auggie
/// tests plain matchers only against its own tools.
fn matcher_names(tool: &Tool) -> Vec<String> {
    common::tool_names(&PROFILE, tool, &|_, _| None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::Observation;

    fn verdict(decision: Decision) -> Verdict {
        super::super::test_verdict(decision, "Do not force-push.")
    }

    fn observe(a: Answer) -> Observation {
        Observation {
            exit: Some(a.exit),
            stdout: a.stdout,
            stderr: a.stderr,
            ..Observation::default()
        }
    }

    #[test]
    fn refusals_block_in_auggies_reading() {
        for decision in [Decision::Deny, Decision::Block, Decision::Ask] {
            let a = Auggie.answer(Event::PreTool, Some(&verdict(decision)));
            assert_eq!((a.exit, a.stdout.as_str()), (2, ""));
            let o = Auggie.outcome(Event::PreTool, &observe(a));
            assert!(!o.proceeds && o.model_reads.unwrap().contains("Do not force-push."));
        }
        let stop = Auggie.answer(Event::Stop, Some(&verdict(Decision::Block)));
        assert!(!Auggie.outcome(Event::Stop, &observe(stop)).proceeds);
        assert_eq!(
            Auggie.answer(Event::PreTool, Some(&verdict(Decision::Allow))),
            Answer::default()
        );
    }

    #[test]
    fn what_auggie_lets_through() {
        let o = |event, exit: Option<i32>, stdout: &str| {
            Auggie.outcome(
                event,
                &Observation {
                    exit,
                    stdout: stdout.into(),
                    stderr: "no".into(),
                    ..Observation::default()
                },
            )
        };
        assert!(o(Event::PreTool, Some(1), "").proceeds);
        assert!(o(Event::PreTool, None, "").proceeds);
        assert!(o(Event::PreTool, Some(2), r#"{"continue":true}"#).proceeds);
        assert!(!o(Event::PreTool, Some(2), "").proceeds);
        // Exit 2 blocks only on PreToolUse.
        assert!(o(Event::Stop, Some(2), "").proceeds);
        // A JSON deny without the right hookEventName is rejected whole.
        let deny = |name: &str| {
            format!(
                r#"{{"hookSpecificOutput":{{"hookEventName":"{name}","permissionDecision":"deny"}}}}"#
            )
        };
        assert!(!o(Event::PreTool, Some(0), &deny("PreToolUse")).proceeds);
        assert!(o(Event::PreTool, Some(0), &deny("preToolUse")).proceeds);
        // Claude's top-level decision is not a deny here.
        assert!(o(Event::PreTool, Some(0), r#"{"decision":"block"}"#).proceeds);
    }

    #[test]
    fn shell_args_join_the_command() {
        let input = json!({"command": "git", "args": ["push", "--force", "a b"]});
        assert_eq!(shell_command(&input).unwrap(), "git push --force 'a b'");
        assert!(shell_command(&json!({"command": "ls", "args": "x"})).is_err());
    }

    #[test]
    fn file_tools_read_their_own_keys() {
        let call = |tool: &str, input: Value| {
            Auggie
                .decode_call(
                    Event::PreTool,
                    &json!({"tool_name": tool, "tool_input": input, "workspace_roots": ["/r"]}),
                )
                .map(|c| c.paths)
        };
        assert_eq!(call("view", json!({"path": ".env"})).unwrap(), vec![".env"]);
        assert_eq!(
            call("remove-files", json!({"file_paths": ["a", ".env"]})).unwrap(),
            vec!["a", ".env"]
        );
        assert_eq!(
            call(
                "apply_patch",
                json!({"input": "*** Begin Patch\n*** Delete File: .env\n*** End Patch"})
            )
            .unwrap(),
            vec![".env"]
        );
        assert!(call("apply_patch", json!({"input": "nothing"})).is_err());
    }
}
