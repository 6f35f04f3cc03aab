//! Kimi Code CLI: `[[hooks]]` tables in the user's `config.toml`.
//!
//! Facts this file relies on (see `shared/harnesses/kimi.md` and the oracle
//! runs with `@moonshot-ai/kimi-code` 2.1.0):
//! - Kimi reads hooks only from `$KIMI_CODE_HOME/config.toml` (default
//!   `~/.kimi-code/config.toml`); there is no project config. hookc writes a
//!   copy for review into the project, and installs the tables into the
//!   user's file only with `hookc build --user`, merged so that every other
//!   byte stays, after a backup.
//! - A `[[hooks]]` table accepts exactly `event`, `matcher`, `command` and
//!   `timeout` (whole seconds, 1 to 600); one unknown key makes Kimi drop
//!   every hook in the file. hookc writes these four and nothing else.
//! - Only exit status 2 blocks, with stderr as the reason the model reads.
//!   Every other failure (exit 1, a missing program, a timeout) lets the call
//!   through, so the shim turns every failure of hookc into exit 2.
//! - The shell tool is `Bash` (observed on 2.1.0), the file tools `Read`,
//!   `Write` and `Edit` (argument `path`), MCP tools `mcp__<server>__<tool>`.
//! - A hook cannot ask the user; `UserPromptSubmit` stdout is added to the
//!   prompt, the other events have no context channel.
//!
//! A user-level hook runs in every project, so the installed command is the
//! same fixed dispatcher for every project and every policy: it walks up from
//! the session's directory to the project's `.hookc/` and runs that
//! project's shim with that project's compiled policy
//! ([`common::locate_shim`] says exactly which directories count). Where
//! there is no hookc project, or the project's compiled policy does not
//! target Kimi Code, there is nothing to guard and it exits 0; a project
//! whose build for Kimi Code is missing or incomplete is refused. Because the tables do not depend on the policy,
//! `hookc build --user` in any project installs the same bytes, and each
//! project's guards decide on its own calls: the matcher is empty (every
//! tool goes to hookc, which routes by tool itself), and the timeout is
//! Kimi's maximum rather than one policy's: Kimi lets a call through when its
//! hook times out, and a policy-specific value would make two projects
//! rewrite each other's install (which hookc would then report as a hand edit).

use std::path::{Path, PathBuf};

use super::MachineCheck;

use serde_json::{Value, json};

use super::HookCommand;
use super::payload::{ToolCall, text_of, without_text};
use toml_edit::{Table, Value as TomlValue};

use super::common;
use super::{Answer, Harness, Profile, string_at, windows};
use crate::diag::{Code, Diagnostic, suggest};
use crate::emit::{Artifact, Content, EmitCx, Scope, header};
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, Tool, ToolKind};
use crate::lint_rules::toml_spans::{parse, to_span};
use crate::lint_rules::{Edit, FileReport, diag, matchers, scripts};
use crate::merge::{self, Merged};
use crate::profile::{FileFormat, Flavour, HookFile, LateHook, McpNames, OnHookError};
use crate::source::{SourceFile, Span};

pub struct Kimi;

/// hookc's tables are recognised by this path in their `command`.
const MARKER: &str = "/.hookc/kimi/";
/// The installed command's refusal when the project it found is not built
/// for Kimi Code as its policy asks (see [`common::locate_shim`]): exit 2
/// with the reason on stderr, the only refusal Kimi Code knows.
const INCOMPLETE: &str = "echo \"hookc could not check this call, so it was refused: $w. Fix: run hookc build in $d (hookc build --user once per machine installs the Kimi Code hooks). Tell the user about this; do not try to get around the guard.\" >&2; exit 2";
/// The project copy of what `--user` installs.
const REVIEW_COPY: &str = ".hookc/kimi/config.toml";
/// The comment hookc puts above its tables in the user's file. Fixed: the
/// tables are the same for every project, and so must their header be.
const TABLES_HEADER: &str = "Added by `hookc build --user`: runs the hookc guards of the project a Kimi Code session is in. Do not edit; rebuild instead.";

/// The tool names of the old Python kimi-cli (≤ 1.49) that Kimi Code's
/// hooks never see, and the name each tool has now, if it has one
/// (shared/harnesses/kimi.md §4 and §10; `ReadMediaFile`, `Glob`, `Grep`
/// and `FetchURL` kept their names, and `Task` is the start of `TaskList`,
/// so an unanchored `Task` still fires). No Kimi Code tool contains one of
/// these names, so a matcher on it never fires.
const LEGACY_TOOLS: &[(&str, Option<&str>)] = &[
    ("Shell", Some("Bash")),
    ("ReadFile", Some("Read")),
    ("WriteFile", Some("Write")),
    ("StrReplaceFile", Some("Edit")),
    ("SearchWeb", Some("WebSearch")),
    ("SetTodoList", Some("TodoList")),
    ("Think", None),
];

/// Keys of a `[[hooks]]` table (strict: another key drops every hook).
const HOOK_KEYS: &[&str] = &["event", "matcher", "command", "timeout"];

/// What the user should do on Windows, where these hooks cannot check a call.
const WINDOWS_FIX: &str = "run Kimi Code on Windows in WSL";

static PROFILE: Profile = Profile {
    id: HarnessId::Kimi,
    name: "Kimi Code CLI",
    events: &[
        (Event::PreTool, "PreToolUse"),
        (Event::Prompt, "UserPromptSubmit"),
        (Event::Stop, "Stop"),
    ],
    tools: &[
        (ToolKind::Shell, &["Bash"]),
        (ToolKind::Read, &["Read"]),
        (ToolKind::Write, &["Write"]),
        (ToolKind::Edit, &["Edit"]),
        (ToolKind::WebFetch, &["FetchURL"]),
    ],
    can_block: &[Event::PreTool, Event::Prompt, Event::Stop],
    honours_ask: &[],
    can_rewrite: false,
    options: &[],
    todo: &[
        "Kimi Code reads hooks only from ~/.kimi-code/config.toml ($KIMI_CODE_HOME): run `hookc build --user` once per machine to install them (backup kept as config.toml.hookc-backup), then restart kimi",
        "install hookc on every machine that runs Kimi Code in this repo (or set HOOKC_BIN)",
    ],
    // The v2 engine's enum, exact case.
    more_events: &[
        "PostToolUse",
        "PostToolUseFailure",
        "PermissionRequest",
        "PermissionResult",
        "UserPromptQueued",
        "TurnStarted",
        "StopFailure",
        "Interrupt",
        "SessionStart",
        "SessionEnd",
        "SessionHeartbeat",
        "SubagentStart",
        "SubagentStop",
        "TaskStarted",
        "PreCompact",
        "PostCompact",
        "Notification",
    ],
    files: &[
        HookFile {
            dir: ".kimi*",
            names: &["config.toml"],
            format: FileFormat::KimiToml { keys: HOOK_KEYS },
            in_project: true,
        },
        HookFile {
            dir: "*kimi-code",
            names: &["config.toml"],
            format: FileFormat::KimiToml { keys: HOOK_KEYS },
            in_project: false,
        },
    ],
    json: None,
    flavour: Some(Flavour::EcmaScript),
    mcp_names: |_| Some(McpNames::DoubleUnderscore),
    refusal: Some(include_str!("../../templates/kimi/refuse.sh.hbs")),
    on_hook_error: OnHookError::Proceeds,
    own_timeout: Some(TIMEOUT),
    late_hook: LateHook::Proceeds,
    hints: &[".kimi-code/"],
    protected: &[
        "~/.kimi-code/config.toml",
        "~/.kimi/config.toml",
        "$KIMI_CODE_HOME/config.toml",
    ],
    protected_examples: &["~/.kimi-code/config.toml"],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::Session {
        root: "an absolute path",
        sure: false,
    },
    hook_vars: Some(crate::profile::HookVars {
        set: &[],
        complete: true,
    }),
};

impl Harness for Kimi {
    fn lint_file(
        &self,
        format: FileFormat,
        file: &SourceFile,
        root: &Path,
        report: &mut FileReport,
    ) {
        if let FileFormat::KimiToml { keys } = format {
            lint_config(file, keys, root, report);
        }
    }

    /// Kimi Code's `[[hooks]]` tables, each with its `event`, `command`
    /// and, optionally, `matcher`.
    fn hooks_in(
        &self,
        format: FileFormat,
        rel: &str,
        text: &str,
        _notes: &mut Vec<String>,
    ) -> Result<Vec<crate::profile::WrittenHook>, String> {
        let mut out = Vec::new();
        if !matches!(format, FileFormat::KimiToml { .. }) {
            return Ok(out);
        }
        for (i, t) in common::toml_hook_tables(text)?.iter().enumerate() {
            let get = |k: &str| t.get(k).cloned();
            if let (Some(event), Some(command)) = (get("event"), get("command")) {
                out.push(crate::profile::WrittenHook {
                    origin: format!("{rel} [[hooks]][{i}]"),
                    event,
                    matcher: get("matcher"),
                    command,
                    args: None,
                });
            }
        }
        Ok(out)
    }

    /// Kimi Code searches the tool name for a matcher (a regex without
    /// anchors matches part of a name).
    fn matcher_searches(&self) -> bool {
        true
    }

    /// The config Kimi Code reads hooks from: `$KIMI_CODE_HOME/config.toml`,
    /// by default under `~/.kimi-code`.
    fn user_hook_files(&self, home: &Path) -> Vec<(PathBuf, FileFormat)> {
        let config = std::env::var_os("KIMI_CODE_HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| home.join(".kimi-code"))
            .join("config.toml");
        vec![(config, FileFormat::KimiToml { keys: HOOK_KEYS })]
    }

    /// A TOML file with `[[hooks]]` tables is a Kimi Code config, wherever
    /// it is (`$KIMI_CODE_HOME` can be any folder).
    fn file_by_content(&self, path: &Path, text: &str) -> Option<FileFormat> {
        let toml = path.extension().is_some_and(|e| e == "toml");
        (toml && text.lines().any(|l| l.trim() == "[[hooks]]"))
            .then_some(FileFormat::KimiToml { keys: HOOK_KEYS })
    }

    fn machine_checks(&self, _root: &Path, home: Option<&Path>) -> Vec<MachineCheck> {
        let name = PROFILE.name;
        let mut checks = Vec::new();
        let config = std::env::var_os("KIMI_CODE_HOME")
            .map(PathBuf::from)
            .or_else(|| common::under_home(home, ".kimi-code"))
            .map(|d| d.join("config.toml"));
        let installed = config
            .as_ref()
            .and_then(|c| crate::disk::read_text(c).ok().flatten())
            .is_some_and(|t| t.contains(".hookc/kimi/"));
        checks.push(if installed {
                MachineCheck::Ok(format!("{name}: the user-level hooks are installed"))
            } else {
                MachineCheck::fail(
                    format!("{name} reads hooks only from the user-level config.toml, which has none of hookc's"),
                    "run `hookc build --user` once on this machine, then restart kimi",
                )
            });
        checks
    }

    fn outcome(&self, event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{json_object, str_at, text};
        if o.timed_out || o.exit.is_none() {
            return Outcome::proceeds(
                "a timeout or a crash lets the call through (only exit 2 blocks)",
            );
        }
        match o.exit {
            Some(2) => Outcome::blocks(
                Some(text(&o.stderr).unwrap_or_else(|| "Blocked by PreToolUse hook".to_owned())),
                "exit 2 blocks; trimmed stderr is the reason, stdout is ignored",
            ),
            Some(0) => {
                if let Some(j) = json_object(&o.stdout)
                    && str_at(&j, "/hookSpecificOutput/permissionDecision").as_deref()
                        == Some("deny")
                {
                    return Outcome::blocks(
                        str_at(&j, "/hookSpecificOutput/permissionDecisionReason"),
                        "exit 0 with one JSON object saying permissionDecision deny blocks",
                    );
                }
                let context = (event == Event::Prompt).then(|| text(&o.stdout)).flatten();
                Outcome::proceeds("exit 0 without a deny: allowed (stdout is added to a prompt)")
                    .model(context)
            }
            _ => Outcome::proceeds("every exit but 2 (1, 127, …) falls through to allow"),
        }
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let mut v = json!({
            "hook_event_name": PROFILE.event_name(event)?,
            "session_id": "s1",
            "cwd": root.to_string_lossy(),
            "client_type": "kimi_code_cli",
        });
        let o = v.as_object_mut()?;
        match event {
            Event::PreTool => {
                let t = ToolCall::of(&PROFILE, call, root)?;
                o.insert("tool_name".into(), json!(t.native));
                o.insert("tool_input".into(), t.input("path"));
                o.insert("tool_call_id".into(), json!("call_1"));
            }
            // The prompt comes as content parts, not as one string.
            Event::Prompt => {
                let text = text_of(event, call)?;
                o.insert("prompt".into(), json!([{ "type": "text", "text": text }]));
                o.insert("is_steer".into(), json!(false));
            }
            // Stop carries no text of the agent's.
            Event::Stop => {
                without_text(event, call)?;
                o.insert("stop_hook_active".into(), json!(false));
            }
            _ => return None,
        }
        Some(v)
    }

    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        // The copy for review holds exactly the tables `build --user` installs.
        let native = PROFILE.event_name(event)?;
        let text = std::fs::read_to_string(root.join(".hookc/kimi/config.toml")).ok()?;
        let doc: toml_edit::DocumentMut = text.parse().ok()?;
        let command = doc
            .get("hooks")?
            .as_array_of_tables()?
            .iter()
            .find_map(|t| {
                (t.get("event")?.as_str()? == native)
                    .then(|| t.get("command")?.as_str().map(str::to_owned))
                    .flatten()
            })?;
        Some(HookCommand {
            command,
            shell: "/bin/sh",
            env: Vec::new(),
        })
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        common::warn_unsupported_events(policy, &PROFILE, cx);
        common::warn_decisions(
            policy,
            &PROFILE,
            cx,
            &|event, decision| match (event, decision) {
                (Event::PreTool, Decision::Ask) => Some(
                    "Kimi Code hooks cannot ask the user; hookc refuses the call and tells the model to ask the user instead",
                ),
                (Event::PreTool, Decision::Context) => Some(
                    "Kimi Code reads no added context before a tool runs; the call goes ahead without it",
                ),
                _ => None,
            },
        );
        let mut any = false;
        for &(event, native) in PROFILE.events {
            // The installed matcher routes every tool to hookc; this only
            // checks that the guards' tools exist here.
            let guarded = common::route(policy, event, &PROFILE, cx, &matcher_names).is_some();
            any |= guarded;
            // A shim for every event, guarded or not: the installed command
            // runs in every project, and takes a project that targets Kimi
            // Code without one of these for a broken build, which it refuses.
            // An event no guard is for needs no hookc to answer.
            if guarded {
                cx.shim(policy, &PROFILE, event, native, policy.on_error_for(event));
            } else {
                cx.idle_shim(policy, &PROFILE, event);
            }
        }
        if !any {
            return;
        }
        let tables = tables();
        cx.whole(REVIEW_COPY, review_copy(policy, &tables), false);
        cx.add(Artifact {
            scope: Scope::User {
                env: "KIMI_CODE_HOME",
                default: ".kimi-code",
            },
            path: "config.toml".to_owned(),
            content: Content::TomlTables {
                key: "hooks".to_owned(),
                tables,
                header: TABLES_HEADER.to_owned(),
                marker: MARKER.to_owned(),
            },
        });
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Unguarded {
            what: "Kimi Code runs hooks in cmd.exe on Windows and has no Windows command field; hookc's command refuses every call there (its first part is a refusal in cmd.exe and PowerShell), so nothing is checked and nothing runs",
            fix: WINDOWS_FIX,
        }
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        if !payload.is_object() {
            return Err("the payload is not a JSON object".to_owned());
        }
        let mut call = Call {
            event: Some(event),
            root: common::located_project().or_else(|| {
                payload
                    .get("cwd")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            }),
            home: std::env::var("HOME").ok(),
            ..Call::default()
        };
        match event {
            Event::PreTool | Event::PostTool => {
                let (name, input) = common::tool_and_input(payload)?;
                let kind = PROFILE.tool_kind(name);
                match kind {
                    Some(ToolKind::Shell) => {
                        call.command = Some(string_at(input, "/command")?.to_owned());
                    }
                    Some(ToolKind::Read | ToolKind::Write | ToolKind::Edit) => {
                        call.paths.push(string_at(input, "/path")?.to_owned());
                        call.text = Some(input.to_string());
                    }
                    _ => call.text = Some(input.to_string()),
                }
                call.tool = Some(CallTool {
                    kind,
                    mcp: McpNames::DoubleUnderscore.split(name),
                    native: name.to_owned(),
                    also: Vec::new(),
                });
            }
            Event::Prompt => call.text = Some(prompt_text(payload)?),
            Event::Stop | Event::SubagentStop | Event::SessionStart => {}
        }
        Ok(call)
    }

    fn answer(&self, event: Event, verdict: Option<&Verdict>) -> Answer {
        let Some(verdict) = verdict else {
            return Answer::default();
        };
        if verdict.decision == Decision::Rewrite {
            // This harness cannot change a call; `hookc guard` converts
            // rewrites before answering, and so does this.
            return self.answer(event, Some(&super::rewrite_as_refusal(verdict)));
        }
        let reason = verdict.reason();
        let refuse = Answer::exit_2;
        match (event, verdict.decision) {
            (_, Decision::Deny | Decision::Block) => refuse(reason),
            (_, Decision::Ask) => refuse(format!(
                "{reason}\n(The policy wants the user to confirm this call, and Kimi Code cannot ask from a hook, so hookc refused it. Ask the user in the chat; if they agree, they can run it themselves.)"
            )),
            (Event::Prompt, Decision::Context) => Answer::print(reason),
            _ => Answer::default(),
        }
    }
}

/// Kimi's largest `timeout`, in seconds; see the module documentation.
const TIMEOUT: u32 = 600;

/// The tables hookc installs: one dispatcher per event Kimi Code can act on.
fn tables() -> Vec<Value> {
    PROFILE
        .events
        .iter()
        .map(|&(event, native)| {
            json!({
                "event": native,
                "matcher": "",
                "command": common::refusing_on_windows(
                    event,
                    common::locate_shim(HarnessId::Kimi, event, &common::source_shim("$f"), "exit 0", INCOMPLETE),
                    &PROFILE,
                    WINDOWS_FIX,
                ),
                "timeout": TIMEOUT,
            })
        })
        .collect()
}

/// The project's copy: exactly the text a fresh `config.toml` would get,
/// under a comment saying what it is.
fn review_copy(policy: &Policy, tables: &[Value]) -> String {
    let tables: Vec<Table> = tables.iter().map(merge::toml::toml_table).collect();
    let body = match merge::toml::merge_array_of_tables(
        None,
        "hooks",
        &tables,
        Some(TABLES_HEADER),
        &|_| false,
    ) {
        Ok(Merged::Text(text)) => text,
        _ => unreachable!("a fresh document with tables renders"),
    };
    format!(
        "{}\n# A copy for review: Kimi Code does not read this file. `hookc build --user`\n# adds the tables below to $KIMI_CODE_HOME/config.toml (default ~/.kimi-code/config.toml).\n\n{body}",
        header(policy, "#")
    )
}

/// The prompt as text: Kimi sends the content parts; their text parts joined by a space.
fn prompt_text(payload: &Value) -> Result<String, String> {
    match payload.get("prompt") {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(Value::Array(parts)) => Ok(parts
            .iter()
            .filter_map(|p| match p {
                Value::String(s) => Some(s.as_str()),
                Value::Object(o) => o.get("text").and_then(Value::as_str),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join(" ")),
        Some(other) => Err(format!(
            "`prompt` should be an array of content parts, found {}",
            super::json_type(other)
        )),
        None => Err("the payload has no `prompt`".to_owned()),
    }
}

/// The names a matcher would need for one guard tool (used only to warn
/// about tools Kimi Code does not have; the installed matcher takes every tool).
fn matcher_names(tool: &Tool) -> Vec<String> {
    common::tool_names(&PROFILE, tool, &|server, tool| {
        Some(McpNames::DoubleUnderscore.matcher(server, tool))
    })
}

// `hookc lint` on Kimi Code's `config.toml`: its `[[hooks]]` tables.

/// `keys`: the keys a `[[hooks]]` table may have.
fn lint_config(file: &SourceFile, keys: &[&str], root: &Path, report: &mut FileReport) {
    let Some(doc) = parse(file, "Kimi Code", report) else {
        return;
    };
    let events = PROFILE.all_events();
    let events = events.as_slice();
    let Some((hooks_key, item)) = doc.as_table().get_key_value("hooks") else {
        return;
    };
    let toml_edit::Item::ArrayOfTables(array) = item else {
        report.diags.push(
            diag(
                Code::LintWrongType,
                file,
                to_span(hooks_key.span()),
                "Kimi Code expects `[[hooks]]` tables here",
                "wrong shape",
            )
            .help("write one [[hooks]] table per hook"),
        );
        return;
    };
    for table in array.iter() {
        let head = to_span(table.span()).sub(0, 9.min(table.span().map_or(0, |r| r.len())));
        for (k, value) in table.iter() {
            let (key, _) = table.get_key_value(k).expect("just listed");
            let kspan = to_span(key.span());
            if !keys.contains(&k) {
                report.diags.push(
                    diag(
                        Code::LintUnknownKey,
                        file,
                        kspan,
                        format!("Kimi Code's `[[hooks]]` has no key `{k}`: one unknown key drops every config hook"),
                        "not allowed",
                    )
                    .help(suggest(k, keys)),
                );
                continue;
            }
            let vspan = to_span(value.span());
            let v = value.as_value();
            let event = table.get("event").and_then(|e| e.as_str()).unwrap_or("");
            match k {
                "event" => event_value(file, vspan, v, events, report),
                "timeout" => timeout_value(file, vspan, v, report),
                "matcher" => matcher_value(file, vspan, v, event, report),
                "command" => command_value(file, root, vspan, v, event, report),
                _ => {}
            }
        }
        for required in ["event", "command"] {
            if table.get(required).is_none() {
                report.diags.push(diag(
                    Code::LintMissingField,
                    file,
                    head,
                    format!("this `[[hooks]]` entry has no `{required}`"),
                    "incomplete",
                ));
            }
        }
    }
}

/// `event`: one of Kimi Code's events, exact case.
fn event_value(
    file: &SourceFile,
    vspan: Span,
    v: Option<&TomlValue>,
    events: &[&'static str],
    report: &mut FileReport,
) {
    match v.and_then(|v| v.as_str()) {
        Some(e) if events.contains(&e) => {}
        Some(e) => {
            let right = events.iter().find(|x| x.eq_ignore_ascii_case(e));
            report.diags.push(
                diag(
                    Code::LintUnknownEvent,
                    file,
                    vspan,
                    format!("Kimi Code has no event `{e}`; the whole `hooks` section is dropped"),
                    "unknown event",
                )
                .help(match right {
                    Some(r) => format!("write `{r}` (`hookc lint --fix` does)"),
                    None => suggest(e, events),
                }),
            );
            if let Some(r) = right {
                report.edits.push(Edit {
                    span: vspan,
                    text: format!("\"{r}\""),
                });
            }
        }
        None => report.diags.push(diag(
            Code::LintWrongType,
            file,
            vspan,
            "`event` should be a string",
            "not a string",
        )),
    }
}

/// `timeout`: whole seconds from 1 to 600.
fn timeout_value(file: &SourceFile, vspan: Span, v: Option<&TomlValue>, report: &mut FileReport) {
    match v.and_then(|v| v.as_integer()) {
        Some(n) if (1..=600).contains(&n) => {}
        Some(n) => report.diags.push(diag(
            Code::LintTimeout,
            file,
            vspan,
            format!("Kimi Code timeouts are whole seconds from 1 to 600, not {n}"),
            "out of range",
        )),
        None => report.diags.push(diag(
            Code::LintWrongType,
            file,
            vspan,
            "`timeout` should be a whole number of seconds (1..600)",
            "not an integer",
        )),
    }
}

/// `matcher`: a regex Kimi Code can compile, that can fire on `event`,
/// anchored, naming MCP tools the Kimi way.
fn matcher_value(
    file: &SourceFile,
    vspan: Span,
    v: Option<&TomlValue>,
    event: &str,
    report: &mut FileReport,
) {
    let Some(m) = v.and_then(|v| v.as_str()) else {
        report.diags.push(diag(
            Code::LintWrongType,
            file,
            vspan,
            "`matcher` should be a string",
            "not a string",
        ));
        return;
    };
    let found = never_fires(file, vspan, m, event)
        .or_else(|| invalid_regex(file, vspan, m))
        .or_else(|| legacy_tools(file, vspan, m))
        .or_else(|| unanchored(file, vspan, m));
    match found {
        Some(d) => report.diags.push(d),
        None => mcp_words(file, vspan, m, event, report),
    }
}

/// A matcher that cannot match the empty string, which Kimi Code tests
/// the matchers of these events against.
fn never_fires(file: &SourceFile, vspan: Span, m: &str, event: &str) -> Option<Diagnostic> {
    let empty_only = matches!(event, "Stop" | "Interrupt" | "SessionHeartbeat");
    (empty_only && regex::Regex::new(m).is_ok_and(|r| !r.is_match(""))).then(|| {
        diag(
            Code::LintMatcherNeverFires,
            file,
            vspan,
            format!(
                "Kimi Code matches a `{event}` hook's matcher against an empty string: `{m}` never matches, so this hook never runs"
            ),
            "never matches",
        )
        .help("remove the matcher")
    })
}

/// A matcher Kimi Code cannot compile.
fn invalid_regex(file: &SourceFile, vspan: Span, m: &str) -> Option<Diagnostic> {
    let f = matchers::regex(PROFILE.flavour, "Kimi Code", m)?;
    Some(
        diag(
            Code::LintMatcherRegex,
            file,
            vspan,
            format!("{}; Kimi Code silently never fires this hook", f.message),
            "invalid regex",
        )
        .help(f.help),
    )
}

/// The alternatives of a matcher, without anchors and group parentheses.
fn matcher_words(m: &str) -> impl Iterator<Item = &str> {
    m.split('|').map(|w| {
        w.trim_start_matches('^')
            .trim_start_matches("(?:")
            .trim_start_matches('(')
            .trim_end_matches('$')
            .trim_end_matches(')')
    })
}

/// A matcher naming tools by the old kimi-cli names ([`LEGACY_TOOLS`]),
/// which Kimi Code's hooks never see.
fn legacy_tools(file: &SourceFile, vspan: Span, m: &str) -> Option<Diagnostic> {
    let old: Vec<(&str, Option<&str>)> = matcher_words(m)
        .filter_map(|w| LEGACY_TOOLS.iter().find(|(name, _)| *name == w).copied())
        .collect();
    let (first, _) = *old.first()?;
    let names = old
        .iter()
        .map(|(o, _)| format!("`{o}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let help = old
        .iter()
        .map(|(o, new)| match new {
            Some(new) => format!("for `{o}` write `^{new}$`"),
            None => format!("Kimi Code has no `{o}` tool: remove it"),
        })
        .collect::<Vec<_>>()
        .join("; ");
    Some(
        diag(
            Code::LintMatcherForeignTool,
            file,
            vspan,
            if old.len() == 1 {
                format!(
                    "`{first}` is the old Python kimi-cli's tool name: Kimi Code's hooks never see it, so it matches no tool"
                )
            } else {
                format!(
                    "{names} are the old Python kimi-cli's tool names: Kimi Code's hooks never see them, so they match no tool"
                )
            },
            "an old tool name",
        )
        .help(help),
    )
}

/// Plain tool names, which Kimi Code searches for anywhere in a name.
fn unanchored(file: &SourceFile, vspan: Span, m: &str) -> Option<Diagnostic> {
    let plain = !m.is_empty()
        && m.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|');
    plain.then(|| {
        diag(
            Code::LintMatcherUnanchored,
            file,
            vspan,
            format!("Kimi Code searches for `{m}` anywhere in the tool name, so it also matches longer names"),
            "unanchored",
        )
        .help(format!("anchor it: '^({m})$'"))
    })
}

/// Each alternative of the matcher that names an MCP tool otherwise than
/// Kimi Code does.
fn mcp_words(file: &SourceFile, vspan: Span, m: &str, event: &str, report: &mut FileReport) {
    for w in m
        .split('|')
        .map(|w| w.trim_start_matches('^').trim_end_matches('$'))
    {
        if let Some(f) = matchers::mcp((PROFILE.mcp_names)(event), "Kimi Code", w) {
            report.diags.push(
                diag(
                    Code::LintMatcherMcp,
                    file,
                    vspan,
                    f.message,
                    "not Kimi Code's MCP name",
                )
                .severity(f.severity)
                .help(f.help),
            );
        }
    }
}

/// `command`: something to run that does not fail open.
fn command_value(
    file: &SourceFile,
    root: &Path,
    vspan: Span,
    v: Option<&TomlValue>,
    event: &str,
    report: &mut FileReport,
) {
    match v.and_then(|v| v.as_str()) {
        Some("") => report.diags.push(diag(
            Code::LintMissingField,
            file,
            vspan,
            "`command` is empty",
            "nothing to run",
        )),
        Some(c) => {
            let blocking = matches!(event, "PreToolUse" | "UserPromptSubmit" | "Stop");
            scripts::check_command(file, vspan, c, root, &PROFILE, event, blocking, &[], report);
        }
        None => report.diags.push(diag(
            Code::LintWrongType,
            file,
            vspan,
            "`command` should be a string",
            "not a string",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_hold_exactly_the_four_keys_kimi_accepts() {
        for table in tables() {
            let keys: Vec<&str> = table
                .as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .collect();
            assert_eq!(keys, ["event", "matcher", "command", "timeout"]);
            assert!(table["command"].as_str().unwrap().contains(MARKER));
        }
    }

    #[test]
    fn strings_with_backslashes_survive_toml() {
        let table = merge::toml::toml_table(
            &json!({"matcher": r"^mcp__a\.b$", "command": "printf '%s\\n' x"}),
        );
        let text =
            match merge::toml::merge_array_of_tables(None, "hooks", &[table], None, &|_| false) {
                Ok(Merged::Text(text)) => text,
                other => panic!("{other:?}"),
            };
        assert!(text.contains(r#"matcher = "^mcp__a\\.b$""#), "{text}");
        let doc: toml_edit::DocumentMut = text.parse().unwrap();
        let hooks = doc["hooks"].as_array_of_tables().unwrap();
        let first = hooks.get(0).unwrap();
        assert_eq!(first["matcher"].as_str(), Some(r"^mcp__a\.b$"));
        assert_eq!(first["command"].as_str(), Some("printf '%s\\n' x"));
    }

    #[test]
    fn prompts_are_joined_text_parts() {
        let payload = json!({"prompt": [{"type": "text", "text": "fix"}, {"type": "image_url"}, {"type": "text", "text": "it"}]});
        assert_eq!(prompt_text(&payload).unwrap(), "fix it");
        assert!(prompt_text(&json!({"prompt": 3})).is_err());
    }
}
