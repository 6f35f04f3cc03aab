//! Crush (Charm): hooks merged into the project's `crush.json`.
//!
//! Facts this file relies on, read in Crush's source (v0.90.0 and five
//! commits after it, 37f36e9; npm's 0.96.1 only downloads a binary from
//! GitHub, which this project's machines cannot reach, so none of it has
//! run here; the book's page lists them with their places in the source):
//! - `hooks.PreToolUse` is a list of flat entries, `{name, matcher,
//!   command, timeout}` (seconds, 30 when missing), with no `type` and no
//!   nested `hooks` list. Lists from every config file add up (system,
//!   user, then the project's files from the git root down to the working
//!   directory). An entry without `command`, or a matcher Go's regexp
//!   rejects (`*`), stops Crush from starting; unknown keys are ignored.
//! - The matcher is a Go regexp tested unanchored against the tool name;
//!   none matches every tool.
//! - The command runs in Crush's own POSIX shell interpreter
//!   (`mvdan.cc/sh`), in the working directory, with `CRUSH_PROJECT_DIR`
//!   set to that directory (not the project's root). A command whose first
//!   word is a path to a program is started as that program, so hookc's
//!   command is `/bin/sh -c '…'`: the shim runs in the system's shell.
//! - The call comes on stdin: `{event, session_id, cwd, tool_name,
//!   tool_input}`. **Exit 2 refuses**, and the model reads
//!   `Tool call blocked by hook. Reason: ` and stderr; exit 49 refuses and
//!   ends the turn. On exit 0 a JSON object may say `decision: deny` (or
//!   Claude's `hookSpecificOutput.permissionDecision: deny`). Every other
//!   status, a crash, a command that cannot start and a **timeout** let the
//!   call through.
//! - The hook runs before Crush's permission prompt, also under `--yolo`
//!   and in `crush run`. It runs for the main agent's tools, MCP tools
//!   (`mcp_<server>_<tool>`) included, but not for the tools a sub-agent
//!   (`agent`, `agentic_fetch`) uses: those are read-only ones (`view`,
//!   `grep`, `glob`, `ls`, `sourcegraph`, `web_fetch`). Where the policy
//!   guards reads or fetches, hookc refuses the sub-agents themselves.

use std::path::Path;

use indexmap::IndexMap;
use serde_json::{Value, json};

use super::common;
use super::payload::ToolCall;
use super::{Answer, Harness, HookCommand, MachineCheck, Profile, anchored_alternation, windows};
use crate::emit::EmitCx;
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, ToolKind};
use crate::profile::{
    Dialect, FileFormat, Flavour, HookFile, JsonSpec, LateHook, Matching, McpNames, OnHookError,
    PlainStdout, Unit,
};

pub struct Crush;

/// Hook entries hookc owns are recognised by this path in their command.
const MARKER: &str = "/.hookc/crush/";
const CONFIG: &str = "crush.json";

/// The refusal of the command when it finds no complete hookc project
/// around the working directory (see [`common::locate_shim`]).
const INCOMPLETE: &str = "echo \"hookc could not check this call, so it was refused: $w. Fix: run hookc build in $d. Tell the user about this; do not try to get around the guard.\" >&2; exit 2";
const NOT_FOUND: &str = "echo \"hookc could not check this call, so it was refused: no hookc project (.hookc) in the working directory or above it. Fix: run hookc build in the project. Tell the user about this; do not try to get around the guard.\" >&2; exit 2";

static PROFILE: Profile = Profile {
    id: HarnessId::Crush,
    name: "Crush",
    events: &[(Event::PreTool, "PreToolUse")],
    tools: &[
        (ToolKind::Shell, &["bash"]),
        // `grep` and `glob` skip hidden files, as ripgrep does
        // (`fsext.SkipHidden`); `ls` lists a folder.
        (ToolKind::Read, &["view", "grep", "glob", "ls"]),
        // `download` saves what a URL returns at `file_path`.
        (ToolKind::Write, &["write", "download"]),
        (ToolKind::Edit, &["edit", "multiedit"]),
        (ToolKind::WebFetch, &["fetch"]),
    ],
    can_block: &[Event::PreTool],
    honours_ask: &[],
    can_rewrite: false,
    options: &[],
    todo: &["install hookc on every machine that runs Crush in this repo (or set HOOKC_BIN)"],
    more_events: &[],
    files: &[HookFile {
        dir: "",
        names: &["crush.json", ".crush.json"],
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
        groups: false,
        flat_ok: true,
        require_type: false,
        types: &[],
        command_keys: &["command"],
        timeout_keys: &["timeout"],
        unit: Unit::Seconds,
        matching: Matching::Unanchored,
        star_is_all: false,
        matcher_aliases: &[],
        tools_closed: false,
        matcher_subject: crate::profile::claude_shaped_matchers,
        events_any_case: true,
        strict_keys: None,
        stdout_is_reply: true,
        plain_stdout: |_| PlainStdout::Ignored,
    }),
    flavour: Some(Flavour::Re2),
    mcp_names: |_| Some(McpNames::SingleUnderscore),
    refusal: Some(include_str!("../../templates/crush/refuse.sh.hbs")),
    on_hook_error: OnHookError::Proceeds,
    own_timeout: None,
    late_hook: LateHook::Proceeds,
    hints: &["crush.json", ".crush.json", ".crush/"],
    // Every config file Crush reads hooks from: the project's in any folder
    // from the git root down (hooks there add up; a broken one stops Crush),
    // the workspace file, the user's and the system's.
    protected: &[
        "**/crush.json",
        "**/.crush.json",
        "**/crushrc",
        "**/.crushrc",
        ".crush",
        "~/.config/crush",
        "~/.local/share/crush/crush.json",
        "$XDG_CONFIG_HOME/crush",
        "$XDG_DATA_HOME/crush/crush.json",
        "$CRUSH_GLOBAL_CONFIG",
        "$CRUSH_GLOBAL_DATA/crush.json",
        "/etc/crush",
    ],
    protected_examples: &[CONFIG],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::Session {
        root: "an absolute path",
        sure: true,
    },
    hook_vars: Some(crate::profile::HookVars {
        set: &["CRUSH_PROJECT_DIR", "CRUSH_CWD"],
        complete: false,
    }),
};

/// Crush's system file: read first on every system but Windows (since
/// 0.87.0, `config_unix.go`), its lists put before the user's and the
/// project's, and nothing later can take an entry out (Crush's merge appends
/// lists and ignores an empty one or `null`).
const MANAGED: crate::managed::Layer = crate::managed::Layer {
    file: crate::managed::Paths {
        linux: "/etc/crush/crush.json",
        macos: "/etc/crush/crush.json",
        windows: crate::managed::OnWindows::Not("Crush reads no system-wide file on Windows"),
    },
    what: "Crush's system configuration",
    only_managed: None,
    not_enforced: Some(
        "a repository's own PreToolUse hook can hand Crush a changed input (`updated_input`), which it runs after hookc's managed hook judged the original, and a Crush older than 0.87.0 does not read /etc/crush/crush.json at all",
    ),
};

/// hookc's `PreToolUse` entries, with the warnings of what Crush cannot do;
/// `script` writes the shim of an event and returns the POSIX script that
/// runs it, which the entry hands to `/bin/sh` (Crush's own interpreter
/// would run it otherwise).
fn hook_entries(
    policy: &Policy,
    cx: &mut EmitCx,
    script: &mut dyn FnMut(&mut EmitCx, Event, &str) -> String,
) -> IndexMap<String, Vec<Value>> {
    common::warn_unsupported_events(policy, &PROFILE, cx);
    common::warn_decisions(
        policy,
        &PROFILE,
        cx,
        &|event, decision| match (event, decision) {
            (Event::PreTool, Decision::Ask) => Some(
                "Crush hooks cannot ask the user; hookc refuses the call and tells the model to ask the user instead",
            ),
            (Event::PreTool, Decision::Context) => {
                Some("hookc does not add context to a Crush call; the call goes ahead without it")
            }
            _ => None,
        },
    );
    let mut entries: IndexMap<String, Vec<Value>> = IndexMap::new();
    for &(event, native) in PROFILE.events {
        let Some(common::Route {
            mut names,
            any_tool,
        }) = common::route(policy, event, &PROFILE, cx, &matcher_names)
        else {
            continue;
        };
        if reads_or_fetches(policy) {
            // hookc refuses them: see `SUB_AGENTS`.
            names.extend(SUB_AGENTS.iter().map(|&n| n.to_owned()));
        }
        let script = script(cx, event, native);
        let mut entry = json!({
            "name": format!("hookc-{}", event.word()),
            "command": format!("/bin/sh -c {}", crate::emit::sh_word(&script)),
            "timeout": policy.timeout,
        });
        if event.has_tools() && !any_tool {
            entry["matcher"] = json!(anchored_alternation(names));
        }
        entries.insert(native.to_owned(), vec![entry]);
    }
    entries
}

impl Harness for Crush {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn machine_checks(&self, _root: &Path, _home: Option<&Path>) -> Vec<MachineCheck> {
        Vec::new()
    }

    fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        let entries = hook_entries(policy, cx, &mut |cx, event, native| {
            let found = common::source_shim("$f");
            let script = common::locate_shim(PROFILE.id, event, &found, NOT_FOUND, INCOMPLETE);
            cx.shim(policy, &PROFILE, event, native, policy.on_error_for(event));
            script
        });
        cx.hook_entries(CONFIG, entries, Vec::new(), MARKER);
    }

    fn managed_layer(&self) -> Option<crate::managed::Layer> {
        Some(MANAGED)
    }

    fn emit_managed(&self, policy: &Policy, cx: &mut EmitCx, install: &crate::managed::Install) {
        let entries = hook_entries(policy, cx, &mut |cx, event, native| {
            common::managed_command(cx, policy, &PROFILE, (event, native), install)
        });
        let marker = format!("{}/crush/", install.os.hookc_dir());
        cx.hook_entries(
            &install.tree_file(MANAGED.file),
            entries,
            Vec::new(),
            &marker,
        );
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Unguarded {
            what: "Crush runs hook commands in its own shell interpreter, where hookc's `/bin/sh` does not exist on Windows; the hook cannot start and Crush lets the call through",
            fix: "run Crush on Windows in WSL",
        }
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        let cwd = payload
            .get("cwd")
            .and_then(Value::as_str)
            .map(str::to_owned);
        // The project the command found around the working directory, and
        // that directory, against which Crush resolves relative paths (and
        // where `bash` starts, unless `working_dir` says otherwise).
        let mut call = common::new_call(event, payload, "HOOKC_PROJECT_DIR", cwd.clone())?;
        call.cwd = cwd.filter(|d| Path::new(d).is_absolute());
        let (name, input) = common::tool_and_input(payload)?;
        if SUB_AGENTS.contains(&name) {
            return Err(format!(
                "Crush runs the tools of a sub-agent (`{name}`) without hooks, so hookc cannot see what it reads or fetches. Do the work with your own tools instead of a sub-agent"
            ));
        }
        let kind = PROFILE.tool_kind(name);
        match (kind, name) {
            (Some(ToolKind::WebFetch), _) => call.text = Some(input.to_string()),
            (_, "grep") => {
                crate::eval::search_call(&mut call, input, "/path", "/include", false);
                call.text = Some(input.to_string());
            }
            (_, "glob") => {
                crate::eval::search_call(&mut call, input, "/path", "/pattern", true);
                call.text = Some(input.to_string());
            }
            (_, "ls") => {
                // Without `path`, the working directory.
                let dir = input
                    .get("path")
                    .and_then(Value::as_str)
                    .filter(|d| !d.is_empty());
                call.paths
                    .push(dir.or(call.cwd.as_deref()).unwrap_or(".").to_owned());
                call.text = Some(input.to_string());
            }
            (Some(ToolKind::Write), "download") => {
                call.paths
                    .push(super::string_at(input, "/file_path")?.to_owned());
                call.text = Some(input.to_string());
            }
            (Some(ToolKind::Shell), _) => {
                common::claude_shaped_input(&mut call, name, kind, input)?;
                if let Some(dir) = common::work_dir(input, "working_dir", call.cwd.as_deref()) {
                    call.cwd = Some(dir);
                }
            }
            _ => common::claude_shaped_input(&mut call, name, kind, input)?,
        }
        call.tool = Some(CallTool {
            kind,
            mcp: McpNames::SingleUnderscore.split(name),
            native: name.to_owned(),
            ..CallTool::default()
        });
        Ok(call)
    }

    fn answer(&self, _event: Event, verdict: Option<&Verdict>) -> Answer {
        match common::refusal_reason(verdict, "a Crush") {
            // Exit 2: Crush reads the reason from stderr and ignores stdout.
            Some(reason) => Answer::exit_2(reason),
            None => Answer::default(),
        }
    }

    fn outcome(&self, _event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{json_object, str_at, text};
        if o.timed_out {
            return Outcome::proceeds("a timeout lets the call through (fail-open)");
        }
        let blocked = |reason: Option<String>| {
            Some(format!(
                "Tool call blocked by hook. Reason: {}",
                reason.unwrap_or_default()
            ))
        };
        match o.exit {
            Some(2) => {
                let reason = text(&o.stderr).or_else(|| Some("blocked by hook".to_owned()));
                Outcome::blocks(blocked(reason), "exit 2 refuses; the model reads stderr")
            }
            Some(49) => {
                let reason = text(&o.stderr).or_else(|| Some("turn halted by hook".to_owned()));
                Outcome::blocks(
                    reason.map(|r| format!("Turn halted by hook. Reason: {r}")),
                    "exit 49 refuses and ends the turn",
                )
            }
            Some(0) => {
                let reply = text(&o.stdout).and_then(|out| json_object(&out));
                // With `hookSpecificOutput`, only that object is read.
                let (decision, reason) = match &reply {
                    Some(j) if j.get("hookSpecificOutput").is_some() => (
                        str_at(j, "/hookSpecificOutput/permissionDecision"),
                        str_at(j, "/hookSpecificOutput/permissionDecisionReason"),
                    ),
                    Some(j) => (str_at(j, "/decision"), str_at(j, "/reason")),
                    None => (None, None),
                };
                if decision.is_some_and(|d| d.eq_ignore_ascii_case("deny")) {
                    Outcome::blocks(blocked(reason), "exit 0 with a JSON deny refuses")
                } else {
                    Outcome::proceeds("exit 0 without a JSON deny: the call goes on")
                }
            }
            _ => Outcome::proceeds(
                "any other status, a crash or a command that cannot start lets the call through (fail-open)",
            ),
        }
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let t = ToolCall::of(&PROFILE, call, root)?;
        let input = match t.kind {
            ToolKind::Shell => json!({"command": t.command, "description": "run it"}),
            ToolKind::Write => json!({"file_path": t.path, "content": "x"}),
            ToolKind::Edit => {
                json!({"file_path": t.path, "old_string": "a", "new_string": "b"})
            }
            _ => t.file_input("file_path"),
        };
        Some(json!({
            "event": PROFILE.event_name(event)?,
            "session_id": "c0ffee",
            "cwd": root.to_string_lossy(),
            "tool_name": t.native,
            "tool_input": input,
        }))
    }

    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        let native = PROFILE.event_name(event)?;
        let dir = root.to_string_lossy().into_owned();
        Some(HookCommand {
            command: super::configured(root, CONFIG, &format!("/hooks/{native}/0/command"))?,
            // The command starts `/bin/sh -c` itself; Crush's interpreter
            // only reads its words.
            shell: "/bin/sh",
            env: vec![("CRUSH_PROJECT_DIR", dir.clone()), ("CRUSH_CWD", dir)],
        })
    }
}

/// The tools that hand work to a sub-agent, whose own calls (`view`,
/// `grep`, `glob`, `ls`, `sourcegraph`, `web_fetch`) Crush runs without
/// hooks. Where a guard is for reads or fetches, hookc cannot tell what
/// they do, and refuses them (closed world).
const SUB_AGENTS: &[&str] = &["agent", "agentic_fetch"];

/// Whether a guard of `policy` is for reads or fetches, which a sub-agent
/// could make unseen.
fn reads_or_fetches(policy: &Policy) -> bool {
    policy.guards.iter().any(|guard| {
        guard.event == Event::PreTool
            && guard.tools.iter().any(|tool| {
                matches!(
                    tool,
                    crate::ir::Tool::Known {
                        tool: ToolKind::Read | ToolKind::WebFetch
                    }
                )
            })
    })
}

/// The matcher alternatives for one guard tool.
fn matcher_names(tool: &crate::ir::Tool) -> Vec<String> {
    common::tool_names(&PROFILE, tool, &|server, tool| {
        Some(McpNames::SingleUnderscore.matcher(server, tool))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::Observation;

    fn observed(exit: Option<i32>, stdout: &str, stderr: &str) -> super::super::Outcome {
        Crush.outcome(
            Event::PreTool,
            &Observation {
                exit,
                stdout: stdout.into(),
                stderr: stderr.into(),
                ..Observation::default()
            },
        )
    }

    #[test]
    fn a_refusal_is_exit_2_with_the_reason_on_stderr() {
        let verdict = super::super::test_verdict(Decision::Deny, "Do not force-push.");
        let a = Crush.answer(Event::PreTool, Some(&verdict));
        assert_eq!((a.exit, a.stdout.as_str()), (2, ""));
        let o = observed(Some(a.exit), &a.stdout, &a.stderr);
        assert!(!o.proceeds);
        assert_eq!(
            o.model_reads.as_deref(),
            Some("Tool call blocked by hook. Reason: Do not force-push.")
        );
    }

    #[test]
    fn what_crush_lets_through() {
        // Claude's `decision: block` is no decision Crush knows.
        assert!(observed(Some(0), r#"{"decision":"block","reason":"no"}"#, "").proceeds);
        assert!(!observed(Some(0), r#"{"decision":"DENY","reason":"no"}"#, "").proceeds);
        // With `hookSpecificOutput`, the top-level fields are not read.
        assert!(
            observed(
                Some(0),
                r#"{"decision":"deny","hookSpecificOutput":{"permissionDecision":"ask"}}"#,
                ""
            )
            .proceeds
        );
        assert!(
            !observed(
                Some(0),
                r#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#,
                ""
            )
            .proceeds
        );
        assert!(!observed(Some(49), "", "stop").proceeds);
        for exit in [Some(1), Some(127), None] {
            assert!(observed(exit, "", "boom").proceeds, "{exit:?}");
        }
        assert!(
            Crush
                .outcome(
                    Event::PreTool,
                    &Observation {
                        timed_out: true,
                        ..Observation::default()
                    }
                )
                .proceeds
        );
    }
}
