//! Factory Droid: hooks merged into `.factory/settings.json`.
//!
//! Protocol facts this file relies on (read from the binary of
//! `@factory/cli-linux-x64` 0.225.2, whose embedded JavaScript names its
//! sources; the book's page lists them in full):
//! - Droid reads hooks from `.factory/hooks.json` (the bare event map) and
//!   from the `hooks` key of `.factory/settings.json`. hookc writes the
//!   second, which `droid doctor --config` validates and which older
//!   versions also read. For an event listed in both files of one folder,
//!   `hooks.json`'s list replaces `settings.json`'s, so `hookc doctor` fails
//!   a project whose `hooks.json` lists an event hookc writes.
//! - Commands run with `sh -c` in Droid's working directory, with
//!   `FACTORY_PROJECT_DIR` set to it. `timeout` is seconds.
//! - Exit 2 blocks whatever any other hook answered, and stderr is the
//!   reason the model reads; a JSON `permissionDecision` is first-wins
//!   across hooks, so hookc refuses with exit 2 and never answers allow.
//!   Exit 1, other statuses, a timeout and a crash let the call through.
//!   `ask` is only logged.
//! - Matchers: `*` or empty matches all, then exact equality, then an
//!   unanchored JavaScript regex. Tool names are `Execute`, `Read`, `Create`,
//!   `Edit`, `ApplyPatch`, `FetchUrl`.
//! - MCP tools: the code names them `<server>___<tool>`, the docs
//!   `mcp__<server>__<tool>`; which one a hook sees was not observed, so
//!   hookc's matcher takes both.

use std::path::Path;

use serde_json::{Value, json};

use super::common;
use super::payload::{self, ToolCall};
use super::{
    Answer, Harness, HookCommand, MachineCheck, Profile, glob_to_regex, grouped_hook_command,
    string_at, windows,
};
use crate::emit::EmitCx;
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, Tool, ToolKind};
use crate::profile::{
    Dialect, FileFormat, Flavour, HookFile, JsonSpec, LateHook, Matching, McpNames, OnHookError,
    PlainStdout, Unit,
};

pub struct Droid;

/// Hook entries hookc owns are recognised by this path in their command.
const MARKER: &str = "/.hookc/droid/";
const SETTINGS: &str = ".factory/settings.json";
/// The other hooks file of the project folder, whose lists replace
/// `settings.json`'s event by event.
const HOOKS_FILES: [&str; 2] = [".factory/hooks.json", ".factory/hooks/hooks.json"];

/// What the user should do on Windows, where these hooks cannot check a call.
const WINDOWS_FIX: &str = "run Factory Droid on Windows in WSL";

static PROFILE: Profile = Profile {
    id: HarnessId::Droid,
    name: "Factory Droid",
    events: &[
        (Event::PreTool, "PreToolUse"),
        (Event::PostTool, "PostToolUse"),
        (Event::Prompt, "UserPromptSubmit"),
        (Event::Stop, "Stop"),
        (Event::SubagentStop, "SubagentStop"),
        (Event::SessionStart, "SessionStart"),
    ],
    tools: &[
        (ToolKind::Shell, &["Execute"]),
        (ToolKind::Read, &["Read"]),
        (ToolKind::Write, &["Create"]),
        (ToolKind::Edit, &["Edit", "ApplyPatch"]),
        (ToolKind::WebFetch, &["FetchUrl"]),
    ],
    can_block: &[
        Event::PreTool,
        Event::Prompt,
        Event::Stop,
        Event::SubagentStop,
    ],
    honours_ask: &[],
    can_rewrite: false,
    options: &[],
    todo: &[
        "install hookc on every machine that runs Factory Droid in this repo (or set HOOKC_BIN)",
        "start droid in the project's root folder: its hooks find hookc's scripts from there",
    ],
    more_events: &["Notification", "PreCompact", "SessionEnd"],
    files: &[HookFile {
        dir: ".factory",
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
        types: &["command"],
        command_keys: &["command"],
        timeout_keys: &["timeout"],
        unit: Unit::Seconds,
        matching: Matching::Unanchored,
        star_is_all: true,
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
    refusal: Some(include_str!("../../templates/droid/refuse.sh.hbs")),
    on_hook_error: OnHookError::Proceeds,
    own_timeout: None,
    late_hook: LateHook::Proceeds,
    hints: &[".factory/"],
    protected: &[
        ".factory/settings.json",
        ".factory/settings.local.json",
        ".factory/hooks.json",
        "~/.factory/settings.json",
        "~/.factory/hooks.json",
    ],
    protected_examples: &[".factory/settings.json"],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::Unknown,
    hook_vars: None,
};

/// Factory Droid's organisation settings on the machine (the 0.225.2
/// binary reads `/etc/factory/settings.json` before any other source of
/// organisation settings, puts its hooks first, and with
/// `allowManagedHooksOnly` drops every other level's hooks, their
/// `hooksDisabled` switch included). The macOS path is the one the same
/// code names for that system; the Linux build was read.
const MANAGED: crate::managed::Layer = crate::managed::Layer {
    file: crate::managed::Paths {
        linux: "/etc/factory/settings.json",
        macos: "/Library/Application Support/Factory/settings.json",
        windows: crate::managed::OnWindows::Not(
            "Factory Droid's Windows build is not on npm, so which shell runs its hook commands there is not known",
        ),
    },
    what: "Factory Droid's organisation settings",
    only_managed: Some(crate::managed::Switch::here("allowManagedHooksOnly")),
    not_enforced: None,
};

/// hookc's hook groups, by Factory Droid's event name, with the warnings of
/// what Droid cannot do; `shim` writes the shim of an event and returns
/// the command that runs it.
fn hook_entries(
    policy: &Policy,
    cx: &mut EmitCx,
    shim: &mut dyn FnMut(&mut EmitCx, Event, &str) -> String,
) -> indexmap::IndexMap<String, Vec<Value>> {
    common::warn_unsupported_events(policy, &PROFILE, cx);
    common::warn_decisions(
        policy,
        &PROFILE,
        cx,
        &|event, decision| match (event, decision) {
            (Event::PreTool, Decision::Ask) => Some(
                "Factory Droid only logs a hook's `ask`; hookc refuses the call and tells the model to ask the user instead",
            ),
            (Event::PreTool, Decision::Context) => Some(
                "Factory Droid reads no added context before a tool runs; the call goes ahead without it",
            ),
            (Event::PostTool, d) if d.refuses() => Some(
                "Factory Droid cannot refuse a tool's result; the model reads the reason after the tool ran",
            ),
            _ => None,
        },
    );
    common::grouped_entries(
        &PROFILE,
        cx,
        &|cx, event| common::route(policy, event, &PROFILE, cx, &matcher_names),
        &mut |cx, event, native| {
            json!({
                "type": "command",
                "command": shim(cx, event, native),
                "timeout": policy.timeout,
            })
        },
    )
}

impl Harness for Droid {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn machine_checks(&self, root: &Path, home: Option<&Path>) -> Vec<MachineCheck> {
        let name = PROFILE.name;
        let mut checks = Vec::new();
        for path in [
            Some(root.join(SETTINGS)),
            common::under_home(home, ".factory/settings.json"),
        ]
        .into_iter()
        .flatten()
        {
            if common::read_json(Some(path.clone()))
                .is_some_and(|v| v["hooksDisabled"] == json!(true))
            {
                checks.push(MachineCheck::fail(
                    format!(
                        "{name}: {} turns every hook off (hooksDisabled)",
                        path.display()
                    ),
                    format!("remove `\"hooksDisabled\": true` from {}", path.display()),
                ));
            }
        }
        let ours = common::read_json(Some(root.join(SETTINGS)));
        for file in HOOKS_FILES {
            let Some(theirs) = common::read_json(Some(root.join(file))) else {
                continue;
            };
            for event in replaced_events(ours.as_ref(), &theirs) {
                checks.push(MachineCheck::fail(
                    format!("{name}: {file} lists `{event}`, which replaces hookc's `{event}` hooks in {SETTINGS}"),
                    format!("move the `{event}` entries of {file} into the `hooks` of {SETTINGS} (hookc keeps them there)"),
                ));
            }
        }
        checks.push(MachineCheck::note(
            format!("{name} runs hooks in its interactive mode only once the folder is trusted"),
            "trust the folder when Droid asks",
        ));
        checks
    }

    fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        let entries = hook_entries(policy, cx, &mut |cx, event, native| {
            cx.shim(policy, &PROFILE, event, native, policy.on_error_for(event));
            let command = common::source_shim(&format!(
                "\"$FACTORY_PROJECT_DIR\"/.hookc/droid/{}.sh",
                event.word()
            ));
            common::refusing_on_windows(event, command, &PROFILE, WINDOWS_FIX)
        });
        cx.hook_entries(SETTINGS, entries, Vec::new(), MARKER);
    }

    fn managed_layer(&self) -> Option<crate::managed::Layer> {
        Some(MANAGED)
    }

    fn managed_checks(&self, root: &Path, os: crate::managed::Os) -> Vec<MachineCheck> {
        let Some(settings) = MANAGED
            .on(os)
            .and_then(|file| common::read_json(Some(root.join(crate::managed::tree_path(file)))))
        else {
            return Vec::new();
        };
        // The first level that sets `hooks.hooksDisabled` wins; with
        // `allowManagedHooksOnly` no other level's `hooks` is read at all.
        if settings["allowManagedHooksOnly"] == json!(true)
            || settings["hooks"]["hooksDisabled"] == json!(false)
        {
            return Vec::new();
        }
        let file = MANAGED.on(os).unwrap_or_default();
        vec![MachineCheck::Fail(
            format!(
                "Factory Droid: {file} neither keeps other hooks out (`allowManagedHooksOnly`) nor pins `hooks.hooksDisabled` to false, so a user's or project's `hooksDisabled: true` turns every hook off, the managed ones too"
            ),
            format!(
                "build without `--allow-other-hooks`, or add `\"hooksDisabled\": false` to the `hooks` of {file}"
            ),
        )]
    }

    fn emit_managed(&self, policy: &Policy, cx: &mut EmitCx, install: &crate::managed::Install) {
        let entries = hook_entries(policy, cx, &mut |cx, event, native| {
            common::managed_command(cx, policy, &PROFILE, (event, native), install)
        });
        let ensure = if install.only_managed {
            vec![("allowManagedHooksOnly".to_owned(), json!(true))]
        } else {
            Vec::new()
        };
        let marker = format!("{}/droid/", install.os.hookc_dir());
        cx.hook_entries(&install.tree_file(MANAGED.file), entries, ensure, &marker);
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Unguarded {
            what: "Factory Droid's Windows build is not on npm, so which shell runs its hooks there is not known; in PowerShell or cmd.exe hookc's command refuses every call (its first part is a refusal there), and where no shell can start it a hook that fails lets the call through",
            fix: WINDOWS_FIX,
        }
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        let mut call = common::new_call(
            event,
            payload,
            "FACTORY_PROJECT_DIR",
            common::payload_cwd(payload),
        )?;
        match event {
            Event::PreTool | Event::PostTool => {
                let (name, input) = common::tool_and_input(payload)?;
                let kind = PROFILE.tool_kind(name);
                match (kind, name) {
                    (Some(ToolKind::Shell), _) => {
                        call.command = Some(string_at(input, "/command")?.to_owned());
                    }
                    (Some(ToolKind::Edit), "ApplyPatch") => {
                        call.paths = patch_paths(input)?;
                        call.text = Some(input.to_string());
                    }
                    (Some(ToolKind::Read | ToolKind::Write | ToolKind::Edit), _) => {
                        call.paths.push(string_at(input, "/file_path")?.to_owned());
                        call.text = Some(input.to_string());
                    }
                    _ => call.text = Some(input.to_string()),
                }
                call.tool = Some(CallTool {
                    kind,
                    mcp: mcp_of(name),
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
        let reason = verdict.reason();
        let refuse = Answer::exit_2;
        match (event, verdict.decision) {
            (_, Decision::Deny | Decision::Block) => refuse(reason),
            (_, Decision::Ask) => refuse(format!(
                "{reason}\n(The policy wants the user to confirm this call, and Factory Droid cannot ask from a hook, so hookc refused it. Ask the user in the chat; if they agree, they can run it themselves.)"
            )),
            (Event::Prompt | Event::SessionStart | Event::PostTool, Decision::Context) => {
                let native = PROFILE.event_name(event).unwrap_or("PostToolUse");
                Answer {
                    stdout: format!(
                        "{}\n",
                        json!({"hookSpecificOutput": {"hookEventName": native, "additionalContext": reason}})
                    ),
                    stderr: String::new(),
                    exit: 0,
                }
            }
            // No explicit allow: Droid takes the first `permissionDecision`
            // of all hooks, so an allow here could outvote another hook's deny.
            _ => Answer::default(),
        }
    }

    fn outcome(&self, _event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{first_line, json_object, str_at, text};
        if o.timed_out || o.exit.is_none() {
            return Outcome::proceeds(
                "a timeout or a killed hook counts as exit 1: the call proceeds (fail-open)",
            );
        }
        let json = text(&o.stdout)
            .filter(|t| t.starts_with('{'))
            .and_then(|t| json_object(&t));
        if let Some(j) = &json {
            if j.get("continue") == Some(&json!(false)) {
                return Outcome::blocks(
                    str_at(j, "/stopReason"),
                    "`continue: false` stops the run",
                );
            }
            if str_at(j, "/hookSpecificOutput/permissionDecision").as_deref() == Some("deny") {
                return Outcome::blocks(
                    str_at(j, "/hookSpecificOutput/permissionDecisionReason")
                        .or_else(|| Some("Tool execution denied by hook".to_owned())),
                    "JSON on stdout decides (on any exit): permissionDecision deny",
                );
            }
        }
        match o.exit {
            Some(2) => Outcome::blocks(
                text(&o.stderr).or_else(|| Some("Tool execution blocked by hook".to_owned())),
                "exit 2 blocks whatever the other hooks say; stderr is the reason",
            ),
            Some(3) => Outcome::blocks(text(&o.stderr), "exit 3 aborts the whole agent run"),
            Some(0) => Outcome::proceeds("exit 0 without a JSON deny: the call proceeds").model(
                json.as_ref()
                    .and_then(|j| str_at(j, "/hookSpecificOutput/additionalContext")),
            ),
            _ => Outcome::proceeds(
                "exit 1 (or any code but 2 and 3) is a warning for the user: the call proceeds",
            )
            .user(first_line(&o.stderr)),
        }
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let mut v = json!({
            "session_id": "s1",
            "transcript_path": "/tmp/.factory/projects/p/s1.jsonl",
            "cwd": root.to_string_lossy(),
            "permission_mode": "auto-low",
            "hook_event_name": PROFILE.event_name(event)?,
        });
        let o = v.as_object_mut()?;
        if event.has_tools() {
            let t = ToolCall::of(&PROFILE, call, root)?;
            let mut input = t.input("file_path");
            if t.kind == ToolKind::Shell {
                input["riskLevel"] = json!("low");
                input["riskLevelReason"] = json!("reads only");
            }
            o.insert("tool_name".into(), json!(t.native));
            o.insert("tool_input".into(), input);
            if event == Event::PostTool {
                o.insert("tool_response".into(), json!({}));
            }
        }
        payload::claude_shaped_fields(o, event, call, "worker")?;
        Some(v)
    }

    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        let dir = root.to_string_lossy().into_owned();
        let env = vec![
            ("FACTORY_PROJECT_DIR", dir.clone()),
            ("DROID_PROJECT_DIR", dir.clone()),
            ("CLAUDE_PROJECT_DIR", dir),
        ];
        grouped_hook_command(root, SETTINGS, PROFILE.event_name(event)?, "/bin/sh", env)
    }
}

/// The events whose list in `theirs` (a bare event map, `hooks.json`)
/// replaces the one hookc wrote into `settings.json` (`ours`).
fn replaced_events(ours: Option<&Value>, theirs: &Value) -> Vec<String> {
    let Some(ours) = ours.and_then(|o| o.get("hooks")).and_then(Value::as_object) else {
        return Vec::new();
    };
    ours.iter()
        .filter(|(event, list)| {
            theirs.get(event.as_str()).is_some() && list.to_string().contains(MARKER)
        })
        .map(|(event, _)| event.clone())
        .collect()
}

/// The files an `ApplyPatch` call touches: from a `file_path`, else from
/// the `*** Begin Patch` text in any string of its input. None found: the
/// call cannot be checked, which refuses it.
fn patch_paths(input: &Value) -> Result<Vec<String>, String> {
    if let Some(path) = input.get("file_path").and_then(Value::as_str) {
        return Ok(vec![path.to_owned()]);
    }
    let mut paths = Vec::new();
    for text in input
        .as_object()
        .into_iter()
        .flat_map(|o| o.values())
        .filter_map(Value::as_str)
    {
        let files = super::patch_files(text);
        paths.extend(files.added);
        paths.extend(files.changed);
    }
    if paths.is_empty() {
        Err("the ApplyPatch input names no file hookc can read".to_owned())
    } else {
        Ok(paths)
    }
}

/// The regex fragments for one guard tool; an MCP tool in both of the
/// names Droid may give it.
fn matcher_names(tool: &Tool) -> Vec<String> {
    common::tool_names(&PROFILE, tool, &|server, tool| {
        Some(format!(
            "(?:{}|{})",
            McpNames::DoubleUnderscore.matcher(server, tool),
            glob_to_regex(&triple_name(server, tool))
        ))
    })
}

/// Droid's own name for an MCP tool, with `*` and `?` kept as globs:
/// `<server>___<tool>`, characters outside `[A-Za-z0-9_-]` made `_`.
fn triple_name(server: &str, tool: &str) -> String {
    format!("{server}___{tool}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_-*?".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The MCP server and tool of a name in either form.
fn mcp_of(name: &str) -> Option<(String, String)> {
    if name.starts_with("mcp__") {
        return McpNames::DoubleUnderscore.split(name);
    }
    let (server, tool) = name.split_once("___")?;
    (!server.is_empty() && !tool.is_empty()).then(|| (server.to_owned(), tool.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::Observation;

    fn verdict(decision: Decision) -> Verdict {
        super::super::test_verdict(decision, "Do not force-push.")
    }

    #[test]
    fn refusals_are_exit_2_with_the_reason_on_stderr_and_nothing_allows() {
        for decision in [Decision::Deny, Decision::Block, Decision::Ask] {
            let a = Droid.answer(Event::PreTool, Some(&verdict(decision)));
            assert_eq!((a.exit, a.stdout.as_str()), (2, ""), "{decision:?}");
            let o = Droid.outcome(
                Event::PreTool,
                &Observation {
                    exit: Some(a.exit),
                    stdout: a.stdout,
                    stderr: a.stderr,
                    ..Observation::default()
                },
            );
            assert!(!o.proceeds);
            assert!(o.model_reads.unwrap().contains("Do not force-push."));
        }
        assert_eq!(
            Droid.answer(Event::PreTool, Some(&verdict(Decision::Allow))),
            Answer::default()
        );
    }

    #[test]
    fn what_droid_lets_through() {
        let o = |exit: Option<i32>, stdout: &str| {
            Droid.outcome(
                Event::PreTool,
                &Observation {
                    exit,
                    stdout: stdout.into(),
                    stderr: "boom".into(),
                    ..Observation::default()
                },
            )
        };
        assert!(o(Some(1), "").proceeds);
        assert!(o(None, "").proceeds);
        assert!(o(Some(0), "not json").proceeds);
        assert!(
            !o(
                Some(0),
                r#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#
            )
            .proceeds
        );
        // The legacy top-level decision is not read for PreToolUse.
        assert!(o(Some(0), r#"{"decision":"block","reason":"x"}"#).proceeds);
    }

    #[test]
    fn mcp_matchers_take_both_names() {
        let m = super::super::anchored_alternation(matcher_names(&Tool::Mcp {
            server: "pay ments".into(),
            tool: "refund_*".into(),
        }));
        let re = regex::Regex::new(&m).unwrap();
        assert!(re.is_match("pay_ments___refund_all"), "{m}");
        assert!(re.is_match("mcp__pay ments__refund_all"), "{m}");
        assert!(!re.is_match("pay_ments___charge"), "{m}");
        assert_eq!(
            mcp_of("pay___refund"),
            Some(("pay".into(), "refund".into()))
        );
        assert_eq!(
            mcp_of("mcp__pay__refund"),
            Some(("pay".into(), "refund".into()))
        );
        assert_eq!(mcp_of("Execute"), None);
    }

    #[test]
    fn apply_patch_paths_come_from_the_patch_or_the_call_is_refused() {
        let input =
            json!({"input": "*** Begin Patch\n*** Update File: .env\n@@\n-a\n+b\n*** End Patch\n"});
        assert_eq!(patch_paths(&input).unwrap(), vec![".env".to_owned()]);
        assert!(patch_paths(&json!({"other": 1})).is_err());
    }

    #[test]
    fn a_hooks_json_list_for_one_of_hookcs_events_is_found() {
        let ours = json!({"hooks": {"PreToolUse": [{"hooks": [{"command": "x=\"$FACTORY_PROJECT_DIR\"/.hookc/droid/pre-tool.sh"}]}], "Stop": []}});
        let theirs = json!({"PreToolUse": [], "Stop": []});
        assert_eq!(replaced_events(Some(&ours), &theirs), vec!["PreToolUse"]);
        assert!(replaced_events(Some(&ours), &json!({"Notification": []})).is_empty());
    }
}
