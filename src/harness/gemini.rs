//! Gemini CLI: hooks merged into `.gemini/settings.json`.
//!
//! Protocol facts this file relies on (see `shared/harnesses/gemini.md`, the
//! Gemini CLI 0.61.0 bundle the oracle installs, and the oracle runs):
//! - Events are PascalCase (`BeforeTool`, `AfterTool`, `BeforeAgent`,
//!   `AfterAgent`, `SessionStart`). A handler without `"type": "command"` is
//!   dropped silently, so every handler has it.
//! - `timeout` is in milliseconds (default 60000).
//! - The matcher of tool events is a JavaScript regex tested unanchored
//!   against the tool name (`run_shell_command`, `read_file`, `write_file`,
//!   `replace`, MCP tools `mcp_<server>_<tool>`); hookc writes an anchored
//!   alternation.
//! - Gemini takes the JSON object on stdout as the hook's answer whatever the
//!   exit status, and a non-zero status also makes it tell the user the hook
//!   "failed". So `hookc guard` answers every decision with exit 0 and the
//!   JSON; exit 2 is left to the shim's could-not-run refusal. Anything but
//!   the JSON on stdout turns the answer into an allow, so stdout carries the
//!   JSON and nothing else.
//! - Before running the command Gemini replaces a bare `$GEMINI_PROJECT_DIR`
//!   with the shell-quoted project directory, and runs it with `bash -c` in
//!   that directory.
//! - Project hooks run only when the folder is trusted.
//! - `BeforeTool` runs before Gemini's policy engine, which then judges the
//!   call as the hook changed it (`hookSpecificOutput.tool_input`, applied
//!   with `"decision": "ask"` too): so a line hookc cannot read can run under
//!   `hookc exec`, with the user's own rules held first (`policies`).

use std::path::Path;

use super::MachineCheck;

use indexmap::IndexMap;
use serde_json::{Value, json};

use super::payload::{ToolCall, text_of};
use super::{HookCommand, grouped_hook_command, windows};

use super::common::{self, Route};
use super::{Answer, Harness, Profile, anchored_alternation, glob_to_regex, string_at};
use crate::emit::EmitCx;
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, Tool, ToolKind};
use crate::profile::{
    Dialect, FileFormat, Flavour, HookFile, JsonSpec, LateHook, Matching, McpNames, OnHookError,
    PlainStdout, Unit,
};

#[path = "gemini_policies.rs"]
mod policies;

pub struct Gemini;

/// Hook entries hookc owns are recognised by this path in their command.
const MARKER: &str = "/.hookc/gemini/";

/// The system settings file, which Gemini CLI reads above the user's and the
/// project's: hookc's entries are merged into the administrator's file.
const MANAGED: crate::managed::Layer = crate::managed::Layer {
    file: crate::managed::Paths {
        linux: "/etc/gemini-cli/settings.json",
        macos: "/Library/Application Support/GeminiCli/settings.json",
        // 0.61.0: a hook runs in PowerShell there (`-NoProfile -Command`),
        // `pwsh.exe` where it is on PATH, else `powershell.exe`.
        windows: crate::managed::OnWindows::At(r"C:\ProgramData\gemini-cli\settings.json"),
    },
    what: "Gemini CLI's system settings",
    only_managed: None,
    // harnesses/gemini.md and the 0.61.0 bundle: the system file is read
    // last and wins for a setting, but `hooksConfig.disabled` is a union of
    // every layer's, an untrusted folder loads no hooks at all, and the
    // project's `.gemini/.env` can make a folder untrusted.
    not_enforced: Some(
        "a project or user can still switch the hooks off (`hooksConfig.disabled` naming them, an untrusted folder, GEMINI_RESTRICTED_MODE in the project's .gemini/.env); Gemini CLI has no setting that keeps only the administrator's hooks",
    ),
};

/// hookc's hook groups, by Gemini CLI's event name, with the warnings of
/// what Gemini CLI cannot do; `shim` writes the shim of an event and
/// returns the command that runs it.
fn hook_entries(
    policy: &Policy,
    cx: &mut EmitCx,
    shim: &mut dyn FnMut(&mut EmitCx, Event, &str) -> String,
) -> IndexMap<String, Vec<Value>> {
    common::warn_unsupported_events(policy, &PROFILE, cx);
    common::warn_decisions(policy, &PROFILE, cx, &|event, decision| {
        (event == Event::PreTool && decision == Decision::Context).then_some(
            "Gemini CLI reads no added context before a tool runs; the call goes ahead without it",
        )
    });
    for guard in policy
        .guards
        .iter()
        .filter(|g| g.decision == Decision::Rewrite)
    {
        cx.unsupported(
            guard,
            HarnessId::Gemini,
            "Gemini CLI reads no added context before a tool runs".to_owned(),
            "the command runs rewritten, but the model may not read the guard's note".to_owned(),
        );
    }
    warn_long_mcp_names(policy, cx);
    let mut entries: IndexMap<String, Vec<Value>> = IndexMap::new();
    for &(event, native) in PROFILE.events {
        let Some(Route {
            names, any_tool, ..
        }) = common::route(policy, event, &PROFILE, cx, &matcher_names)
        else {
            continue;
        };
        let handler = json!({
            "type": "command",
            "name": format!("hookc-{}", event.word()),
            "command": shim(cx, event, native),
            "timeout": u64::from(policy.timeout) * 1000,
        });
        let matcher = (event.has_tools() && !any_tool).then(|| anchored_alternation(names));
        entries.insert(native.to_owned(), vec![common::group(matcher, handler)]);
    }
    entries
}
const SETTINGS: &str = ".gemini/settings.json";

/// What the user should do on Windows, where these hooks cannot check a call.
const WINDOWS_FIX: &str = "run Gemini CLI on Windows in WSL";

static PROFILE: Profile = Profile {
    id: HarnessId::Gemini,
    name: "Gemini CLI",
    events: &[
        (Event::PreTool, "BeforeTool"),
        (Event::PostTool, "AfterTool"),
        (Event::Prompt, "BeforeAgent"),
        (Event::Stop, "AfterAgent"),
        (Event::SessionStart, "SessionStart"),
    ],
    tools: &[
        (ToolKind::Shell, &["run_shell_command"]),
        // Searching files reads them: a `read` path guard covers the search tools.
        (
            ToolKind::Read,
            &[
                "read_file",
                "read_many_files",
                "grep_search",
                "search_file_content",
                "glob",
            ],
        ),
        (ToolKind::Write, &["write_file"]),
        (ToolKind::Edit, &["replace"]),
        (ToolKind::WebFetch, &["web_fetch"]),
    ],
    can_block: &[Event::PreTool, Event::PostTool, Event::Prompt, Event::Stop],
    honours_ask: &[Event::PreTool],
    can_rewrite: true,
    options: &[],
    todo: &[
        "install hookc on every machine that runs Gemini CLI in this repo (or set HOOKC_BIN)",
        "Gemini CLI runs project hooks only in a trusted folder: trust this folder when Gemini asks (or with /permissions)",
    ],
    more_events: &[
        "BeforeModel",
        "AfterModel",
        "BeforeToolSelection",
        "SessionEnd",
        "PreCompress",
        "Notification",
    ],
    files: &[HookFile {
        dir: ".gemini",
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
        unit: Unit::Millis,
        matching: Matching::Unanchored,
        star_is_all: true,
        matcher_aliases: &[],
        tools_closed: false,
        matcher_subject,
        events_any_case: false,
        strict_keys: None,
        stdout_is_reply: false,
        plain_stdout: |event| match event {
            // shared/harnesses/gemini.md, how stdout, stderr and the exit
            // code combine: non-JSON text with exit 0 is an allow.
            "BeforeTool" => PlainStdout::Allows,
            _ => PlainStdout::Unknown,
        },
    }),
    flavour: Some(Flavour::EcmaScript),
    mcp_names: |_| Some(McpNames::SingleUnderscore),
    refusal: Some(include_str!("../../templates/gemini/refuse.sh.hbs")),
    on_hook_error: OnHookError::Proceeds,
    own_timeout: None,
    late_hook: LateHook::Proceeds,
    hints: &[".gemini/", "GEMINI.md"],
    protected: &[
        ".gemini/settings.json",
        // Can set GEMINI_RESTRICTED_MODE, which loads no project hooks.
        ".gemini/.env",
        "~/.gemini/settings.json",
        "~/.gemini/hooks.json",
        "~/.gemini/trusted_hooks.json",
        "/etc/gemini-cli",
        "$GEMINI_CLI_SYSTEM_SETTINGS_PATH",
    ],
    protected_examples: &[".gemini/settings.json"],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::Session {
        root: "\"$GEMINI_PROJECT_DIR\"",
        sure: false,
    },
    hook_vars: Some(crate::profile::HookVars {
        set: &[
            "GEMINI_PROJECT_DIR",
            "GEMINI_CWD",
            "GEMINI_SESSION_ID",
            "GEMINI_PLANS_DIR",
            "CLAUDE_PROJECT_DIR",
        ],
        complete: true,
    }),
};

/// Gemini shortens MCP tool names longer than this; hookc's matcher cannot
/// predict the shortened name.
const MAX_TOOL_NAME: usize = 63;

impl Harness for Gemini {
    fn machine_checks(&self, _root: &Path, home: Option<&Path>) -> Vec<MachineCheck> {
        let name = PROFILE.name;
        let mut checks = Vec::new();
        let settings = common::read_json(common::under_home(home, ".gemini/settings.json"));
        if settings.is_some_and(|v| v["hooksConfig"]["enabled"] == json!(false)) {
            checks.push(MachineCheck::fail(
                format!("{name}: hooks are switched off (hooksConfig.enabled is false)"),
                "remove `\"enabled\": false` from `hooksConfig` in ~/.gemini/settings.json",
            ));
        }
        checks.push(MachineCheck::note(
            format!("{name} loads project settings only in a trusted folder"),
            "trust the folder when Gemini CLI asks",
        ));
        checks
    }

    fn outcome(&self, event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{json_object, str_at, text};
        if o.timed_out {
            return Outcome::proceeds("a timeout is a failed hook: the call is allowed");
        }
        let failed = o.exit != Some(0) && o.exit.is_some();
        let warn = |out: Outcome| {
            if failed {
                out.user(Some("Hook(s) failed for this event".to_owned()))
            } else {
                out
            }
        };
        // stdout is read only as JSON; stderr only when stdout is empty.
        let Some(t) = text(&o.stdout).or_else(|| text(&o.stderr)) else {
            return warn(Outcome::proceeds(
                "no output at all: allowed, whatever the exit code",
            ));
        };
        if let Some(j) = json_object(&t) {
            let reason = str_at(&j, "/reason");
            let user = str_at(&j, "/systemMessage");
            return match str_at(&j, "/decision").as_deref() {
                Some("deny" | "block") => Outcome::blocks(
                    reason,
                    "JSON output is the result, whatever the exit code: decision deny",
                )
                .user(user),
                // Gemini asks about the call with its `tool_input` applied.
                Some("ask") => Outcome::asks(
                    reason,
                    "JSON output is the result, whatever the exit code: decision ask",
                )
                .runs(j.pointer("/hookSpecificOutput/tool_input").cloned()),
                _ => Outcome::proceeds(
                    "JSON output is the result, whatever the exit code: no refusal (a hookSpecificOutput.tool_input replaces the tool's arguments)",
                )
                // BeforeTool's `additionalContext` reaches nobody: Gemini
                // reads it after a tool and before the agent, not here.
                .model(
                    str_at(&j, "/hookSpecificOutput/additionalContext")
                        .filter(|_| event != Event::PreTool),
                )
                .user(user)
                .runs(j.pointer("/hookSpecificOutput/tool_input").cloned()),
            };
        }
        match o.exit {
            None | Some(0) => Outcome::proceeds(
                "non-JSON text with exit 0 (or a signal) allows; the text is shown to the user",
            )
            .user(Some(t)),
            Some(1) => warn(
                Outcome::proceeds("non-JSON text with exit 1 allows with a warning")
                    .user(Some(format!("Warning: {t}"))),
            ),
            Some(_) => Outcome::blocks(
                Some(t),
                "non-JSON text with exit 2 or more denies; the text is the reason",
            ),
        }
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let mut v = json!({
            "session_id": "s1",
            "transcript_path": "/tmp/t.json",
            "cwd": root.to_string_lossy(),
            "hook_event_name": PROFILE.event_name(event)?,
            "timestamp": "2026-08-21T10:00:00.000Z",
        });
        let o = v.as_object_mut()?;
        match event {
            Event::PreTool | Event::PostTool => {
                let t = ToolCall::of(&PROFILE, call, root)?;
                o.insert("tool_name".into(), json!(t.native));
                o.insert("tool_input".into(), t.input("file_path"));
                if event == Event::PostTool {
                    o.insert("tool_response".into(), json!({}));
                }
            }
            Event::Prompt => {
                o.insert("prompt".into(), json!(text_of(event, call)?));
            }
            // AfterAgent: the prompt of the turn and the agent's answer to it.
            Event::Stop | Event::SubagentStop => {
                o.insert("prompt".into(), json!("Fix the failing test."));
                o.insert("prompt_response".into(), json!(text_of(event, call)?));
                o.insert("stop_hook_active".into(), json!(false));
            }
            Event::SessionStart => {
                text_of(event, call)?;
                o.insert("source".into(), json!("startup"));
            }
        }
        Some(v)
    }

    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        let env = vec![("GEMINI_PROJECT_DIR", root.to_string_lossy().into_owned())];
        // Gemini CLI runs hook commands with bash.
        grouped_hook_command(root, SETTINGS, PROFILE.event_name(event)?, "bash", env)
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        let entries = hook_entries(policy, cx, &mut |cx, event, native| {
            cx.shim(policy, &PROFILE, event, native, policy.on_error_for(event));
            let command = common::source_shim(&format!(
                "$GEMINI_PROJECT_DIR/.hookc/gemini/{}.sh",
                event.word()
            ));
            common::refusing_on_windows(event, command, &PROFILE, WINDOWS_FIX)
        });
        cx.hook_entries(SETTINGS, entries, Vec::new(), MARKER);
    }

    fn managed_layer(&self) -> Option<crate::managed::Layer> {
        Some(MANAGED)
    }

    fn managed_checks(&self, _root: &Path, os: crate::managed::Os) -> Vec<MachineCheck> {
        // Gemini CLI reads the system file from this variable when it is
        // set, wherever it points: the managed file is then not read.
        match std::env::var_os("GEMINI_CLI_SYSTEM_SETTINGS_PATH") {
            Some(other)
                if MANAGED
                    .on(os)
                    .is_none_or(|f| Path::new(&other) != Path::new(f)) =>
            {
                vec![MachineCheck::Fail(
                    format!(
                        "Gemini CLI: GEMINI_CLI_SYSTEM_SETTINGS_PATH points it at {} instead of the managed file",
                        Path::new(&other).display()
                    ),
                    "unset GEMINI_CLI_SYSTEM_SETTINGS_PATH where Gemini CLI runs".to_owned(),
                )]
            }
            _ => Vec::new(),
        }
    }

    fn emit_managed(&self, policy: &Policy, cx: &mut EmitCx, install: &crate::managed::Install) {
        let windows = install.os == crate::managed::Os::Windows;
        // What marks hookc's entries in the administrator's file: on
        // Windows, where the line names no folder of hookc's own, a comment
        // at its end carries the tree's folder.
        let marker = if windows {
            format!("{}/gemini/", install.hookc_dir())
        } else {
            format!("{}/gemini/", install.os.hookc_dir())
        };
        let entries = hook_entries(policy, cx, &mut |cx, event, native| {
            if windows {
                // Gemini replaces every `$NAME` of a settings file that
                // names a variable of its environment when it loads the
                // file, so the script goes encoded. It runs the line with
                // `-Command` and adds its own exit-status check after it;
                // the guard exits itself, so the comment that hides that
                // check changes nothing.
                let script = windows::managed_powershell(
                    cx,
                    PROFILE.id,
                    event,
                    windows::EXIT_2_WITH_REASON,
                    install,
                );
                return format!("{} # {marker}", windows::without_dollars(&script));
            }
            common::managed_command(cx, policy, &PROFILE, (event, native), install)
        });
        cx.hook_entries(
            &install.tree_file(MANAGED.file),
            entries,
            // The system file wins for a setting: hooks stay on whatever a
            // user's or project's `hooksConfig.enabled` says.
            vec![("hooksConfig".to_owned(), json!({ "enabled": true }))],
            &marker,
        );
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Unguarded {
            what: "Gemini CLI runs hooks in PowerShell on Windows and has no Windows command field; hookc's command refuses every call there (its first part is a refusal in PowerShell and cmd.exe), so nothing is checked and nothing runs",
            fix: WINDOWS_FIX,
        }
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        let mut call = common::new_call(
            event,
            payload,
            "GEMINI_PROJECT_DIR",
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
                    (Some(ToolKind::Read), "read_many_files") => {
                        // `include` (or `paths`) holds paths and globs that
                        // Gemini expands with dotfiles and in either case: each
                        // stands for every file it could name, a directory for
                        // what is below it.
                        let include = input
                            .get("include")
                            .or_else(|| input.get("paths"))
                            .and_then(Value::as_array)
                            .ok_or("`tool_input.include` should be an array")?;
                        let how = crate::shell::access::Expansion {
                            dot: true,
                            nocase: true,
                        };
                        for item in include {
                            let path = item
                                .as_str()
                                .ok_or("`tool_input.include` should hold strings")?;
                            call.globs.push((path.to_owned(), how));
                            call.globs
                                .push((format!("{}/**", path.trim_end_matches('/')), how));
                        }
                        call.text = Some(input.to_string());
                    }
                    (Some(ToolKind::Read), "grep_search" | "search_file_content" | "glob") => {
                        let (dir, glob) = if name == "glob" {
                            ("/dir_path", "/pattern")
                        } else {
                            ("/dir_path", "/include")
                        };
                        crate::eval::search_call(&mut call, input, dir, glob, name == "glob");
                        if let Some(path) = input.get("path").and_then(Value::as_str) {
                            call.paths.push(path.to_owned());
                        }
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
                    mcp: mcp_of(name, payload),
                    native: name.to_owned(),
                    also: Vec::new(),
                });
            }
            Event::Prompt => call.text = Some(string_at(payload, "/prompt")?.to_owned()),
            Event::Stop | Event::SubagentStop => {
                call.text = payload
                    .get("prompt_response")
                    .and_then(Value::as_str)
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

    /// A rewrite: Gemini rebuilds the tool from `hookSpecificOutput.tool_input`
    /// alone (keys left out are dropped), so it is the complete argument
    /// object; the decision is an explicit allow, and the note goes to
    /// `additionalContext` and `reason`. A supervised call is handed over
    /// the same way, with the decision that keeps the user's own policy
    /// (`policies`).
    fn answer_call(&self, event: Event, payload: &Value, verdict: Option<&Verdict>) -> Answer {
        match verdict {
            Some(v) if super::hands_over(event, v) => supervised_answer(payload, v),
            Some(v) if v.decision == Decision::Rewrite => {
                super::rewrite_answer(self, payload, v, &|input, reason| {
                    json!({
                        "decision": "allow",
                        "reason": reason,
                        "hookSpecificOutput": {
                            "hookEventName": "BeforeTool",
                            "tool_input": input,
                            "additionalContext": reason,
                        }
                    })
                })
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
            // Only reached without the call's own input (see `answer_call`).
            return self.answer(event, Some(&super::rewrite_as_refusal(verdict)));
        }
        let native = PROFILE.event_name(event).unwrap_or("BeforeTool");
        let reason = verdict.reason();
        let mut out = serde_json::Map::new();
        match verdict.decision {
            // A supervised call comes here only where it cannot be handed
            // over (see `answer_call`): it is refused.
            Decision::Deny | Decision::Block | Decision::Rewrite | Decision::Supervise => {
                out.insert("decision".into(), json!("deny"));
                out.insert("reason".into(), json!(reason));
            }
            Decision::Ask => {
                out.insert("decision".into(), json!("ask"));
                out.insert("reason".into(), json!(reason));
            }
            Decision::Allow => {
                out.insert("decision".into(), json!("allow"));
            }
            Decision::Context => {
                out.insert(
                    "hookSpecificOutput".into(),
                    json!({ "hookEventName": native, "additionalContext": reason }),
                );
            }
        }
        if let Some(message) = verdict.message() {
            out.insert("systemMessage".into(), json!(message));
        }
        let mut stdout = Value::Object(out).to_string();
        stdout.push('\n');
        Answer {
            stdout,
            stderr: String::new(),
            exit: 0,
        }
    }
}

/// A call run under hookc's run-time judge: `tool_input` with its command
/// changed into `hookc exec … -- SHELL -c 'LINE'` (`verdict.rewritten`), and
/// the decision that keeps the user's own policy rules (`policies`); a
/// refusal where one of them may refuse the command, where nobody could
/// answer a question, or where the input is not there to change.
fn supervised_answer(payload: &Value, verdict: &Verdict) -> Answer {
    let refuse = |why: String| {
        Gemini.answer(
            Event::PreTool,
            Some(&super::supervised_refused(verdict, &why)),
        )
    };
    let handover = match super::Handover::of(payload, verdict, Some("GEMINI_PROJECT_DIR")) {
        Ok(handover) => handover,
        Err(refused) => return Gemini.answer(Event::PreTool, Some(&refused)),
    };
    let (project, context) = (handover.project.as_deref(), &handover.context);
    let rules = policies::Rules::visible(project, handover.home.as_deref());
    let asked = verdict.decision == Decision::Ask;
    // Why the user is asked about the changed call, if they are.
    let ask = match rules.keep(&handover.line, project_hook(project)) {
        policies::Keep::Refuse(rule) => {
            return refuse(format!(
                "(Your Gemini CLI policy ({rule}) may refuse this command, and a command hookc runs under its run-time judge is not matched against it, so hookc refuses it instead.)"
            ));
        }
        policies::Keep::Ask(why) => Some(why),
        policies::Keep::Normal if asked => Some("the project's policy asks about it".to_owned()),
        policies::Keep::Normal => None,
    };
    let mut out = json!({
        "hookSpecificOutput": {
            "hookEventName": "BeforeTool",
            "tool_input": handover.input,
            "additionalContext": context,
        }
    });
    if let Some(why) = ask {
        if rules.headless() {
            return refuse(format!(
                "(hookc would run it under its run-time judge, but here that needs the user's approval, because {why}, and this session cannot ask.)"
            ));
        }
        out["decision"] = json!("ask");
        out["reason"] = json!(if asked {
            format!("{}\n{context}", verdict.reason())
        } else {
            format!("{context} hookc asks because {why}.")
        });
    }
    Answer::print(out)
}

/// Whether the hook that runs is the project's own, which Gemini CLI runs
/// only in a folder it trusts: this `hookc guard` was given a policy inside
/// the project's `.hookc`, as written (`--policy PROJECT/.hookc/gemini/../policy.json`,
/// as the project's shim passes it), not a managed install's. The path is
/// compared as written, never resolved: a repository that commits
/// `.hookc/policy.json` as a link to the managed policy must not make the
/// managed hook look like the project's.
fn project_hook(project: Option<&Path>) -> bool {
    let policy = std::env::args().skip_while(|a| a != "--policy").nth(1);
    policy_is_projects(policy.as_deref(), project)
}

/// Whether `policy`, as written, lies in `project`'s `.hookc` folder.
fn policy_is_projects(policy: Option<&str>, project: Option<&Path>) -> bool {
    let (Some(policy), Some(project)) = (policy, project) else {
        return false;
    };
    project.is_absolute() && Path::new(policy).starts_with(project.join(".hookc"))
}

/// The names a matcher needs for one guard tool, as regex fragments.
fn matcher_names(tool: &Tool) -> Vec<String> {
    common::tool_names(&PROFILE, tool, &|server, tool| {
        Some(glob_to_regex(&mcp_name(server, tool)))
    })
}

/// Gemini's name for an MCP tool, with `*` and `?` kept as globs: `mcp_` +
/// server + `_` + tool, characters outside `[A-Za-z0-9_.:-]` replaced by `_`,
/// and no second `mcp_` when the server name already starts with it.
fn mcp_name(server: &str, tool: &str) -> String {
    let joined = format!("{server}_{tool}");
    let full = if joined.starts_with("mcp_") {
        joined
    } else {
        format!("mcp_{joined}")
    };
    full.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_.:-*?".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn warn_long_mcp_names(policy: &Policy, cx: &mut EmitCx) {
    for guard in &policy.guards {
        for tool in &guard.tools {
            if let Tool::Mcp { server, tool } = tool
                && mcp_name(server, tool).len() > MAX_TOOL_NAME
            {
                cx.unsupported(
                    guard,
                    HarnessId::Gemini,
                    format!("Gemini CLI shortens the MCP tool name `{}`", mcp_name(server, tool)),
                    "names over 63 characters lose their middle part, so hookc's matcher cannot name the tool; use a shorter server or tool glob".to_owned(),
                );
            }
        }
    }
}

/// The MCP server and tool of a call: from `mcp_context`, which Gemini adds
/// for MCP tools, else from the name (split at its first `_` after `mcp_`).
fn mcp_of(name: &str, payload: &Value) -> Option<(String, String)> {
    let context = payload.get("mcp_context");
    let server = context
        .and_then(|c| c.get("server_name"))
        .and_then(Value::as_str);
    let tool = context
        .and_then(|c| c.get("tool_name"))
        .and_then(Value::as_str);
    match (server, tool) {
        (Some(server), Some(tool)) => Some((server.to_owned(), tool.to_owned())),
        _ => McpNames::SingleUnderscore.split(name),
    }
}

/// What Gemini CLI tests an event's matcher against (shared/harnesses/
/// gemini.md, §2 and §3): a fixed word on the lifecycle events (`startup`,
/// `manual`), nothing on the agent and model events, and the tool name on
/// `BeforeTool`, `AfterTool` (and an event it does not have, which the
/// tool events' checks still help to write).
fn matcher_subject(event: &str) -> crate::profile::MatcherSubject {
    match event {
        "SessionStart"
        | "SessionEnd"
        | "PreCompress"
        | "Notification"
        | "BeforeAgent"
        | "AfterAgent"
        | "BeforeModel"
        | "AfterModel"
        | "BeforeToolSelection" => crate::profile::MatcherSubject::Other,
        _ => crate::profile::MatcherSubject::ToolName,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_policy_in_the_projects_own_hookc_folder_is_the_projects_hook() {
        let repo = Some(Path::new("/repo"));
        assert!(policy_is_projects(
            Some("/repo/.hookc/gemini/../policy.json"),
            repo
        ));
        // A managed install's, whatever the repository links to it.
        assert!(!policy_is_projects(Some("/etc/hookc/policy.json"), repo));
        assert!(!policy_is_projects(
            Some("/etc/hookc/policy.json"),
            Some(Path::new("/"))
        ));
        assert!(!policy_is_projects(
            Some("x/.hookc/policy.json"),
            Some(Path::new("x"))
        ));
        assert!(!policy_is_projects(None, repo));
    }

    #[test]
    fn mcp_names_follow_gemini() {
        assert_eq!(mcp_name("pay", "refund"), "mcp_pay_refund");
        assert_eq!(mcp_name("my server", "do it"), "mcp_my_server_do_it");
        assert_eq!(mcp_name("mcp_pay", "refund"), "mcp_pay_refund");
        assert_eq!(
            matcher_names(&Tool::Mcp {
                server: "pay-ments".into(),
                tool: "refund_*".into()
            }),
            vec![r"mcp_pay\-ments_refund_.*"]
        );
    }

    #[test]
    fn mcp_context_wins_over_the_name() {
        let payload = json!({"mcp_context": {"server_name": "pay_x", "tool_name": "refund"}});
        assert_eq!(
            mcp_of("mcp_pay_x_refund", &payload),
            Some(("pay_x".into(), "refund".into()))
        );
        assert_eq!(
            mcp_of("mcp_pay_refund", &json!({})),
            Some(("pay".into(), "refund".into()))
        );
    }

    #[test]
    fn every_answer_is_exit_0_with_one_json_line() {
        let verdict = |decision| Verdict {
            decision,
            hits: vec![crate::eval::Hit {
                guard: "g".into(),
                from: None,
                decision,
                reason: "Do X instead.".into(),
                message: None,
            }],
            rewritten: None,
        };
        for decision in Decision::ALL {
            let answer = Gemini.answer(Event::PreTool, Some(&verdict(*decision)));
            assert_eq!(answer.exit, 0);
            assert!(answer.stdout.ends_with('\n'));
            let value: Value = serde_json::from_str(&answer.stdout).unwrap();
            assert!(value.is_object());
        }
        assert_eq!(Gemini.answer(Event::PreTool, None), Answer::default());
    }
}
