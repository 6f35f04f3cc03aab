//! Mistral Vibe: `[[hooks]]` tables merged into `.vibe/hooks.toml`.
//!
//! Protocol facts this file relies on (read from the source of PyPI's
//! `mistral-vibe` 3.0.3 and 3.0.2, and run in real `vibe -p` turns; the
//! book's page lists them in full):
//! - Vibe reads `$VIBE_HOME/hooks.toml` (`~/.vibe`) and the `.vibe/hooks.toml`
//!   of the folder it starts in, **only when that folder is trusted**
//!   (`$VIBE_HOME/trusted_folders.toml`, or `--trust` for one run); no walk
//!   up. Unknown keys are ignored (a `matcher` typo matches every tool), a
//!   TOML error drops the file, a bad table drops that table.
//! - A table is `name` (unique), `type` (`pre_tool`), `command`, `match`
//!   (a case-insensitive glob, or `re:` and a regex that must match whole,
//!   tried on `file_system.bash`, `bash` and the like), `timeout` (seconds,
//!   60 by default) and `strict`.
//! - The command runs with `/bin/sh -c` in the session's folder; the call
//!   comes on stdin, Claude-shaped, with `tool_name` qualified
//!   (`file_system.bash`) and `file_path` for the file tools' `path`.
//! - **Only `{"decision":"deny","reason":…}` on stdout, with exit 0,
//!   refuses.** Any failing status (2 too), a timeout, a hook that cannot
//!   start and output that is not that JSON let the call through, unless
//!   the table says `strict = true`: then each of them refuses, and the
//!   model reads stderr (or what went wrong). hookc's tables are strict.
//! - `hook_specific_output.tool_input` on stdout, with exit 0, replaces the
//!   call's input, and Vibe judges the changed call with its own rules and
//!   runs it: a call hookc runs under its run-time judge, and a `rewrite`
//!   guard's command (see [`permissions`] for what hookc keeps of Vibe's
//!   rules).

use std::path::Path;

use serde_json::{Value, json};

use super::common;
#[path = "vibe_permissions.rs"]
mod permissions;
use super::payload::ToolCall;
use super::{Answer, Harness, HookCommand, MachineCheck, Profile, windows};
use crate::diag::{Code, suggest};
use crate::emit::{Artifact, Content, EmitCx, Scope};
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, ToolKind};
use crate::lint_rules::toml_spans::{parse, to_span};
use crate::lint_rules::{FileReport, diag};
use crate::profile::{FileFormat, HookFile, LateHook, OnHookError};
use crate::source::SourceFile;

pub struct Vibe;

/// Hook tables hookc owns are recognised by this path in their command.
const MARKER: &str = "/.hookc/vibe/";
const HOOKS: &str = ".vibe/hooks.toml";
/// The comment above hookc's first table.
const HEADER: &str =
    "Added by `hookc build`: runs the project's hookc guards. Do not edit; rebuild instead.";

static PROFILE: Profile = Profile {
    id: HarnessId::Vibe,
    name: "Mistral Vibe",
    events: &[(Event::PreTool, "pre_tool")],
    tools: &[
        // `process_start` starts a program as `bash` runs a line.
        (ToolKind::Shell, &["bash", "process_start"]),
        (ToolKind::Read, &["read_file"]),
        (ToolKind::Write, &["write_file"]),
        // `search_replace` is 3.0.2's name for `edit`.
        (ToolKind::Edit, &["edit", "search_replace"]),
    ],
    can_block: &[Event::PreTool],
    honours_ask: &[],
    can_rewrite: true,
    options: &[],
    todo: &[
        "install hookc on every machine that runs Mistral Vibe in this repo (or set HOOKC_BIN)",
        "trust the project's folder in Vibe (its prompt, or `vibe --trust`) and start vibe in the project's root: it reads .vibe/hooks.toml only there",
    ],
    more_events: &["post_tool", "post_agent"],
    files: &[HookFile {
        dir: ".vibe",
        names: &["hooks.toml"],
        format: FileFormat::VibeHooks,
        in_project: true,
    }],
    json: None,
    flavour: None,
    mcp_names: |_| None,
    refusal: Some(include_str!("../../templates/vibe/refuse.sh.hbs")),
    // hookc's tables say `strict = true`.
    on_hook_error: OnHookError::Refuses,
    own_timeout: None,
    late_hook: LateHook::Refuses,
    hints: &[".vibe/"],
    protected: &[
        HOOKS,
        "~/.vibe/hooks.toml",
        // A folder marked untrusted there loads no project hooks.
        "~/.vibe/trusted_folders.toml",
    ],
    protected_examples: &[HOOKS],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::ProjectRoot,
    hook_vars: Some(crate::profile::HookVars {
        set: &[],
        complete: true,
    }),
};

impl Harness for Vibe {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn lint_file(
        &self,
        format: FileFormat,
        file: &SourceFile,
        _root: &Path,
        report: &mut FileReport,
    ) {
        if format == FileFormat::VibeHooks {
            lint_hooks(file, report);
        }
    }

    /// The `[[hooks]]` tables, each with its `type` and `command`; `match`
    /// as a regex over whole tool names (see [`matcher_regex`]). A table
    /// Vibe would drop (no `name`) is left out, as Vibe leaves it.
    fn hooks_in(
        &self,
        format: FileFormat,
        rel: &str,
        text: &str,
        notes: &mut Vec<String>,
    ) -> Result<Vec<crate::profile::WrittenHook>, String> {
        let mut out = Vec::new();
        if format != FileFormat::VibeHooks {
            return Ok(out);
        }
        for (i, t) in common::toml_hook_tables(text)?.iter().enumerate() {
            let get = |k: &str| t.get(k).cloned();
            let origin = format!("{rel} [[hooks]][{i}]");
            let (Some(_), Some(event), Some(command)) = (get("name"), get("type"), get("command"))
            else {
                notes.push(format!(
                    "{origin}: Mistral Vibe drops a table without `name`, `type` and `command`; not imported"
                ));
                continue;
            };
            out.push(crate::profile::WrittenHook {
                origin,
                event,
                matcher: get("match").and_then(|m| matcher_regex(&m)),
                command,
                args: None,
            });
        }
        Ok(out)
    }

    fn user_hook_files(&self, home: &Path) -> Vec<(std::path::PathBuf, FileFormat)> {
        vibe_home(Some(home))
            .map(|dir| (dir.join("hooks.toml"), FileFormat::VibeHooks))
            .into_iter()
            .collect()
    }

    fn machine_checks(&self, root: &Path, home: Option<&Path>) -> Vec<MachineCheck> {
        let vibe_home = vibe_home(home);
        let mut checks = order_checks(&root.join(HOOKS), vibe_home.as_deref());
        let trust = vibe_home.map(|h| h.join("trusted_folders.toml"));
        checks.push(match trust.as_deref().map(|f| trusted(f, root)) {
            Some(Some(true)) => MachineCheck::Ok(format!(
                "{}: the project's folder is trusted, so .vibe/hooks.toml is read",
                PROFILE.name
            )),
            Some(Some(false)) => MachineCheck::fail(
                format!(
                    "{}: {} marks the project's folder untrusted, so Vibe reads no .vibe/hooks.toml there and no guard runs",
                    PROFILE.name,
                    trust.as_deref().unwrap_or(Path::new("")).display()
                ),
                "take the folder out of `untrusted` and trust it (Vibe's prompt, or `vibe --trust`)",
            ),
            _ => MachineCheck::note(
                format!(
                    "{}: the project's folder is not trusted yet, and Vibe reads .vibe/hooks.toml only in a trusted folder",
                    PROFILE.name
                ),
                "trust it when Vibe asks, or start it with `vibe --trust`, in the project's root folder",
            ),
        });
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
                    "Mistral Vibe hooks cannot ask the user; hookc refuses the call and tells the model to ask the user instead",
                ),
                (Event::PreTool, Decision::Context) => Some(
                    "Mistral Vibe reads no added context from a pre_tool hook; the call goes ahead without it",
                ),
                _ => None,
            },
        );
        let mut tables = Vec::new();
        for &(event, native) in PROFILE.events {
            let Some(common::Route { names, any_tool }) = common::route_warning(
                policy,
                event,
                &PROFILE,
                cx,
                &matcher_names,
                &common::mcp_unguarded(&PROFILE, MCP_WHY, MCP_FIX),
            ) else {
                continue;
            };
            let script = format!(".hookc/vibe/{}.sh", event.word());
            let mut table = json!({
                "name": format!("hookc-{}", event.word()),
                "type": native,
                "command": common::source_shim(&format!("\"$PWD\"/{script}")),
                "timeout": policy.timeout,
                // A crash, a timeout or a failing status refuses.
                "strict": true,
            });
            if !any_tool {
                // Vibe's regexes match the whole name, in any case.
                table["match"] = json!(format!("re:{}", names.join("|")));
            }
            tables.push(table);
            cx.shim(policy, &PROFILE, event, native, policy.on_error_for(event));
        }
        if tables.is_empty() {
            return;
        }
        cx.add(Artifact {
            scope: Scope::Project,
            path: HOOKS.to_owned(),
            content: Content::TomlTables {
                key: "hooks".to_owned(),
                tables,
                header: HEADER.to_owned(),
                marker: MARKER.to_owned(),
            },
        });
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Unguarded {
            what: "Mistral Vibe runs a hook command on Windows in the shell its session uses (Git Bash or PowerShell), and which one a machine has is not known ahead; with PowerShell hookc's POSIX command fails, and its strict table refuses every call",
            fix: "run Mistral Vibe on Windows in WSL, or with Git Bash as its shell",
        }
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        let mut call = common::new_call(event, payload, "", common::payload_cwd(payload))?;
        let (name, input) = common::tool_and_input(payload)?;
        // `file_system.bash`: the tool's group, then its name.
        let leaf = name.rsplit('.').next().unwrap_or(name);
        let leaf = if name == "process.start" {
            "process_start"
        } else {
            leaf
        };
        let kind = PROFILE.tool_kind(leaf);
        common::claude_shaped_input(&mut call, leaf, kind, input)?;
        call.tool = Some(CallTool {
            kind,
            mcp: None,
            native: name.to_owned(),
            ..CallTool::default()
        });
        Ok(call)
    }

    fn supervises(&self) -> bool {
        true
    }

    fn answer_call(&self, event: Event, payload: &Value, verdict: Option<&Verdict>) -> Answer {
        match verdict {
            Some(v) if super::hands_over(event, v) => supervised_answer(payload, v),
            Some(v) if v.decision == Decision::Rewrite && event == Event::PreTool => {
                rewrite_answer(payload, v)
            }
            _ => self.answer(event, verdict),
        }
    }

    fn answer(&self, _event: Event, verdict: Option<&Verdict>) -> Answer {
        // A supervised call comes here only where it cannot be handed over
        // (see `answer_call`): it is refused.
        let refused;
        let verdict = match verdict {
            Some(v) if v.decision == Decision::Supervise => {
                refused = super::supervised_refused(
                    v,
                    "(hookc could not hand it to its run-time judge.)",
                );
                Some(&refused)
            }
            other => other,
        };
        match common::refusal_reason(verdict, "a Mistral Vibe") {
            Some(reason) => Answer::print(json!({ "decision": "deny", "reason": reason })),
            None => Answer::default(),
        }
    }

    fn outcome(&self, _event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::{json_object, str_at, text};
        // hookc's tables are strict: every failure refuses.
        if o.timed_out {
            return Outcome::blocks(Some("timed out".to_owned()), "a timeout refuses (strict)");
        }
        let stdout = text(&o.stdout);
        match o.exit {
            Some(0) => {}
            Some(_) | None => {
                return Outcome::blocks(
                    text(&o.stderr).or(stdout),
                    "a failing status refuses (strict); the model reads stderr",
                );
            }
        }
        let Some(out) = stdout else {
            return Outcome::proceeds("exit 0 and nothing on stdout: the call proceeds");
        };
        let Some(j) = json_object(&out) else {
            return Outcome::blocks(None, "stdout that is not a JSON object refuses (strict)");
        };
        if str_at(&j, "/decision").as_deref() == Some("deny") {
            return Outcome::blocks(
                str_at(&j, "/reason").or_else(|| Some("Blocked by a pre_tool hook.".to_owned())),
                "`decision: deny` refuses; the model reads the reason",
            );
        }
        match j.pointer("/hook_specific_output/tool_input") {
            Some(input) if input.is_object() => Outcome::proceeds(
                "exit 0 with `hook_specific_output.tool_input`: the call runs with that input",
            )
            .runs(Some(input.clone())),
            _ => Outcome::proceeds("exit 0 without `decision: deny`: the call proceeds"),
        }
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let t = ToolCall::of(&PROFILE, call, root)?;
        let mut input = t.input("file_path");
        if t.kind == ToolKind::Shell {
            input["timeout"] = json!(120);
        }
        Some(json!({
            "session_id": "s1",
            "transcript_path": "/tmp/.vibe/logs/session/unified/s1",
            "cwd": root.to_string_lossy(),
            "parent_session_id": null,
            "hook_event_name": PROFILE.event_name(event)?,
            "tool_name": format!("file_system.{}", t.native),
            "tool_call_id": "call_1",
            "tool_input": input,
        }))
    }

    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        let native = PROFILE.event_name(event)?;
        let text = std::fs::read_to_string(root.join(HOOKS)).ok()?;
        let doc: toml_edit::DocumentMut = text.parse().ok()?;
        let command = doc
            .get("hooks")?
            .as_array_of_tables()?
            .iter()
            .find_map(|t| {
                let ours = t.get("command")?.as_str()?;
                (t.get("type")?.as_str()? == native && ours.contains(MARKER))
                    .then(|| ours.to_owned())
            })?;
        Some(HookCommand {
            command,
            shell: "/bin/sh",
            env: Vec::new(),
        })
    }
}

/// Why a guard on MCP tools does not run here, and what to do.
const MCP_WHY: &str = "Mistral Vibe calls MCP tools only from code its `run_typescript` tool runs, under names with every character but letters, digits and `_` changed (`mcp_my_srv.create_issue`), and a refusal there reaches the model without its reason";
const MCP_FIX: &str = "the guard does not run there; guard the MCP server in its own configuration";

/// The regex alternatives for one guard tool: the names the model calls
/// (Vibe also tries them on the group's name, `file_system.bash`). MCP
/// tools have none (see [`MCP_WHY`]).
fn matcher_names(tool: &crate::ir::Tool) -> Vec<String> {
    common::tool_names(&PROFILE, tool, &|_, _| None)
}

/// The keys of a `[[hooks]]` table; Vibe ignores any other.
const KEYS: &[&str] = &[
    "name",
    "type",
    "command",
    "match",
    "timeout",
    "strict",
    "description",
];
const TYPES: &[&str] = &["pre_tool", "post_tool", "post_agent"];

/// `hooks.toml` as Vibe reads it: what it drops, ignores, or runs open.
fn lint_hooks(file: &SourceFile, report: &mut FileReport) {
    let Some(doc) = parse(
        file,
        "Mistral Vibe (which then drops the whole file)",
        report,
    ) else {
        return;
    };
    let Some((hooks_key, item)) = doc.as_table().get_key_value("hooks") else {
        return;
    };
    let toml_edit::Item::ArrayOfTables(array) = item else {
        report.diags.push(
            diag(
                Code::LintWrongType,
                file,
                to_span(hooks_key.span()),
                "Mistral Vibe expects `[[hooks]]` tables here, and drops the whole file",
                "wrong shape",
            )
            .help("write one [[hooks]] table per hook"),
        );
        return;
    };
    let mut names: Vec<String> = Vec::new();
    for table in array.iter() {
        let head = to_span(table.span()).sub(0, 9.min(table.span().map_or(0, |r| r.len())));
        let text = |key: &str| table.get(key).and_then(|v| v.as_str());
        for (k, _) in table.iter() {
            if KEYS.contains(&k) {
                continue;
            }
            let (key, _) = table.get_key_value(k).expect("just listed");
            let mut finding = diag(
                Code::LintUnknownKey,
                file,
                to_span(key.span()),
                format!("Mistral Vibe ignores `{k}` in a `[[hooks]]` table"),
                "ignored",
            )
            .severity(crate::diag::Severity::Warning);
            finding = if k == "matcher" {
                finding.help("write `match`: with `matcher` ignored, the hook runs on every tool")
            } else {
                finding.help(suggest(k, KEYS))
            };
            report.diags.push(finding);
        }
        for required in ["name", "type", "command"] {
            if text(required).is_none_or(|v| v.trim().is_empty()) {
                report.diags.push(diag(
                    Code::LintMissingField,
                    file,
                    head,
                    format!("this `[[hooks]]` table has no `{required}` string, so Mistral Vibe drops it"),
                    "incomplete",
                ));
            }
        }
        let kind = text("type").unwrap_or("");
        if !kind.is_empty() && !TYPES.contains(&kind) {
            let span = table.get("type").map_or(head, |v| to_span(v.span()));
            report.diags.push(
                diag(
                    Code::LintUnknownEvent,
                    file,
                    span,
                    format!("Mistral Vibe has no hook type `{kind}`, and drops this table"),
                    "unknown type",
                )
                .help(suggest(kind, TYPES)),
            );
        }
        if kind.ends_with("_tool") && table.get("strict").and_then(|v| v.as_bool()) != Some(true) {
            report.diags.push(
                diag(
                    Code::LintFailOpen,
                    file,
                    head,
                    "without `strict = true`, a crash, a timeout or any failing status of this hook lets the call through (exit 2 too)",
                    "fails open",
                )
                .help("add `strict = true`; only `{\"decision\":\"deny\"}` with exit 0 refuses otherwise"),
            );
        }
        if let Some(pattern) = text("match").and_then(|m| m.strip_prefix("re:"))
            && regex::Regex::new(&format!("^(?:{pattern})$")).is_err()
        {
            let span = table.get("match").map_or(head, |v| to_span(v.span()));
            report.diags.push(
                diag(
                    Code::LintMatcherRegex,
                    file,
                    span,
                    "this `re:` pattern does not compile; where Python's `re` rejects it too, Mistral Vibe matches no tool with it",
                    "never matches",
                )
                .severity(crate::diag::Severity::Warning),
            );
        }
        if let Some(name) = text("name") {
            if names.iter().any(|n| n == name) {
                report.diags.push(diag(
                    Code::LintDuplicateKey,
                    file,
                    table.get("name").map_or(head, |v| to_span(v.span())),
                    format!("a hook named `{name}` comes earlier; Mistral Vibe keeps the first and drops this one"),
                    "dropped",
                ));
            }
            names.push(name.to_owned());
        }
    }
}

/// A call run under hookc's run-time judge: exit 0 and the call's input
/// with `command` changed to run it under `hookc exec`, behind
/// [`permissions::MARK`] so that Vibe asks about that exact line wherever
/// it asks at all; refused instead where Vibe's own deny lists might have
/// refused the original line (`permissions`), or where the policy asks,
/// which a Vibe hook cannot.
fn supervised_answer(payload: &Value, verdict: &Verdict) -> Answer {
    if verdict.decision != Decision::Supervise {
        return Vibe.answer(Event::PreTool, Some(verdict));
    }
    let handover = match super::Handover::of(payload, verdict, None) {
        Ok(handover) => handover,
        Err(refused) => return Vibe.answer(Event::PreTool, Some(&refused)),
    };
    let rules = permissions::Rules::visible(
        handover.project.as_deref(),
        vibe_home(handover.home.as_deref()).as_deref(),
    );
    if let Some(why_not) = rules.refusal(&handover.line) {
        let why = format!(
            "(hookc would run it under its run-time judge, but {why_not}, and Vibe does not see the commands of a line hookc runs, so hookc refuses it instead.)"
        );
        return Vibe.answer(
            Event::PreTool,
            Some(&super::supervised_refused(verdict, &why)),
        );
    }
    let mut input = handover.input;
    if let Some(command) = input.get("command").and_then(Value::as_str) {
        input["command"] = json!(format!("{} {command}", permissions::MARK));
    }
    let out = json!({
        "system_message": handover.context,
        "hook_specific_output": { "tool_input": input },
    });
    Answer::print(out)
}

/// A `rewrite` guard's answer: exit 0 and the call's input with the
/// policy's command. Vibe judges that command with its own rules, as if
/// the model had written it (the `decision: allow` only says so: Vibe
/// applies any answer but a deny), and the note goes to `system_message`,
/// which Vibe shows the user; the model reads no note before a tool runs.
/// Where Vibe's deny lists might have refused the line as the model wrote
/// it, hookc refuses instead and names the command: a rewrite must not
/// carry a call past the user's rules (`npm install` on the deny list,
/// rewritten to `pnpm install`).
fn rewrite_answer(payload: &Value, verdict: &Verdict) -> Answer {
    let refuse = |verdict: &Verdict| Vibe.answer(Event::PreTool, Some(verdict));
    let Ok(handover) = super::Handover::of(payload, verdict, None) else {
        return refuse(&super::rewrite_as_refusal(verdict));
    };
    let rules = permissions::Rules::visible(
        handover.project.as_deref(),
        vibe_home(handover.home.as_deref()).as_deref(),
    );
    if let Some(why_not) = rules.refusal(&handover.line) {
        return refuse(&super::supervised_refused(
            &super::rewrite_as_refusal(verdict),
            &format!(
                "(hookc did not change the call for you, because {why_not}, and Vibe would judge only the changed one.)"
            ),
        ));
    }
    let reason = verdict.reason();
    let out = json!({
        "decision": "allow",
        "reason": reason,
        "system_message": reason,
        "hook_specific_output": { "tool_input": handover.input },
    });
    Answer::print(out)
}

/// What could undo hookc's table: Vibe runs the `pre_tool` hooks in order,
/// the project's file first, and a hook after hookc's sees the call hookc
/// let through and may rewrite it into another; a table of hookc's name
/// before it makes Vibe drop hookc's (the first of a name wins).
fn order_checks(project: &Path, vibe_home: Option<&Path>) -> Vec<MachineCheck> {
    let name = PROFILE.name;
    let tables = |file: &Path| -> Vec<(String, String, bool)> {
        let Some(doc) = std::fs::read_to_string(file)
            .ok()
            .and_then(|t| t.parse::<toml_edit::DocumentMut>().ok())
        else {
            return Vec::new();
        };
        let Some(hooks) = doc.get("hooks").and_then(|h| h.as_array_of_tables()) else {
            return Vec::new();
        };
        hooks
            .iter()
            .map(|t| {
                let text = |key: &str| t.get(key).and_then(|v| v.as_str()).unwrap_or("").to_owned();
                let ours = text("command").contains(MARKER);
                (text("name"), text("type"), ours)
            })
            .collect()
    };
    let mut checks = Vec::new();
    let here = tables(project);
    let Some(at) = here.iter().position(|(_, _, ours)| *ours) else {
        return checks;
    };
    let ours = &here[at].0;
    if here[..at].iter().any(|(n, _, _)| n == ours) {
        checks.push(MachineCheck::fail(
            format!("{name}: a table before hookc's in {HOOKS} has its name `{ours}`, so Vibe drops hookc's and no guard runs"),
            format!("rename or remove that table in {HOOKS}"),
        ));
    }
    let after: Vec<&str> = here[at + 1..]
        .iter()
        .filter(|(_, kind, _)| kind == "pre_tool")
        .map(|(n, _, _)| n.as_str())
        .collect();
    if !after.is_empty() {
        checks.push(MachineCheck::fail(
            format!("{name}: {HOOKS} runs pre_tool hooks after hookc's ({}): one that rewrites a call can turn one hookc let through into another", after.join(", ")),
            format!("move those tables above hookc's in {HOOKS}, or run `hookc build` after removing them and add them back above"),
        ));
    }
    if let Some(home) = vibe_home {
        let user: Vec<String> = tables(&home.join("hooks.toml"))
            .into_iter()
            .filter(|(_, kind, _)| kind == "pre_tool")
            .map(|(n, _, _)| n)
            .collect();
        if !user.is_empty() {
            checks.push(MachineCheck::note(
                format!("{name}: the user's hooks.toml has pre_tool hooks ({}), which run after hookc's; one that rewrites a call is not checked by hookc", user.join(", ")),
                "keep rewriting hooks out of the user's hooks.toml",
            ));
        }
    }
    checks
}

/// A table's `match` as a regex over the whole tool name, as hookc import
/// reads matchers: `re:` and a regex Vibe matches whole, or a glob, which
/// Vibe matches without regard to case. `None` for every tool (`*`).
fn matcher_regex(pattern: &str) -> Option<String> {
    if let Some(re) = pattern.strip_prefix("re:") {
        return Some(format!("^(?:{re})$"));
    }
    let glob = pattern.trim().to_lowercase();
    if glob.is_empty() || glob.chars().all(|c| c == '*') {
        return None;
    }
    let mut re = String::from("^(?:");
    for c in glob.chars() {
        match c {
            '*' => re.push_str(".*"),
            '?' => re.push('.'),
            c => re.push_str(&regex::escape(&c.to_string())),
        }
    }
    re.push_str(")$");
    Some(re)
}

/// Vibe's own folder: `$VIBE_HOME`, else `~/.vibe`.
fn vibe_home(home: Option<&Path>) -> Option<std::path::PathBuf> {
    std::env::var_os("VIBE_HOME")
        .filter(|h| !h.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| home.map(|h| h.join(".vibe")))
}

/// Whether `trust` (`trusted_folders.toml`) trusts `root`: the nearest of
/// it and its parents listed decides (`Some(false)`: listed untrusted);
/// `None` when neither list names any.
fn trusted(trust: &Path, root: &Path) -> Option<bool> {
    let text = std::fs::read_to_string(trust).ok()?;
    let doc: toml_edit::DocumentMut = text.parse().ok()?;
    let listed = |key: &str| -> Vec<std::path::PathBuf> {
        doc.get(key)
            .and_then(|v| v.as_array())
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(std::path::PathBuf::from))
            .collect()
    };
    let (yes, no) = (listed("trusted"), listed("untrusted"));
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    root.ancestors().find_map(|dir| {
        if no.iter().any(|p| p == dir) {
            Some(false)
        } else if yes.iter().any(|p| p == dir) {
            Some(true)
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::Observation;

    fn verdict(decision: Decision) -> Verdict {
        super::super::test_verdict(decision, "Do not force-push.")
    }

    /// `match` as hookc import reads it: a glob, whatever its case, over
    /// the whole name; `re:` as written, anchored; `*` every tool.
    #[test]
    fn a_match_reads_as_a_regex_over_whole_names() {
        assert_eq!(matcher_regex("Bash").as_deref(), Some("^(?:bash)$"));
        assert_eq!(matcher_regex("*_file").as_deref(), Some("^(?:.*_file)$"));
        assert_eq!(
            matcher_regex("file_system.?ash").as_deref(),
            Some(r"^(?:file_system\..ash)$")
        );
        assert_eq!(
            matcher_regex("re:bash|edit").as_deref(),
            Some("^(?:bash|edit)$")
        );
        assert_eq!(matcher_regex("*"), None);
        assert_eq!(matcher_regex(""), None);
    }

    fn observed(exit: Option<i32>, stdout: &str) -> super::super::Outcome {
        Vibe.outcome(
            Event::PreTool,
            &Observation {
                exit,
                stdout: stdout.into(),
                stderr: "boom".into(),
                ..Observation::default()
            },
        )
    }

    #[test]
    fn a_refusal_is_a_json_deny_with_exit_0_and_allow_is_silence() {
        for decision in [Decision::Deny, Decision::Block, Decision::Ask] {
            let a = Vibe.answer(Event::PreTool, Some(&verdict(decision)));
            assert_eq!(a.exit, 0, "{decision:?}");
            let o = observed(Some(a.exit), &a.stdout);
            assert!(!o.proceeds, "{decision:?}");
            assert!(
                o.model_reads
                    .as_deref()
                    .unwrap_or("")
                    .contains("Do not force-push."),
                "{o:?}"
            );
        }
        assert_eq!(
            Vibe.answer(Event::PreTool, Some(&verdict(Decision::Allow))),
            Answer::default()
        );
    }

    #[test]
    fn what_a_strict_table_refuses() {
        assert!(!observed(Some(2), "").proceeds);
        assert!(!observed(Some(1), r#"{"decision":"allow"}"#).proceeds);
        assert!(!observed(Some(0), "not json").proceeds);
        assert!(observed(Some(0), r#"{"decision":"block","reason":"x"}"#).proceeds);
        let changed = observed(
            Some(0),
            r#"{"hook_specific_output":{"tool_input":{"command":"HOOKC_SUPERVISED=vibe '/h' exec --harness vibe --policy '/p' -- '/bin/bash' -c 'x'"}}}"#,
        );
        assert!(changed.proceeds && changed.supervised());
        assert!(observed(Some(0), "").proceeds);
        assert!(!observed(None, "").proceeds);
    }

    #[test]
    fn a_qualified_tool_name_is_read_by_its_last_part() {
        let decode = |name: &str, input: Value| {
            Vibe.decode_call(
                Event::PreTool,
                &json!({"hook_event_name": "pre_tool", "cwd": "/p", "tool_name": name, "tool_input": input}),
            )
        };
        let bash = decode(
            "file_system.bash",
            json!({"command": "git push -f", "timeout": 120}),
        )
        .unwrap();
        assert_eq!(bash.command.as_deref(), Some("git push -f"));
        let edit = decode(
            "file_system.edit",
            json!({"file_path": "/p/.env", "old_string": "a", "new_string": "b"}),
        )
        .unwrap();
        assert_eq!(edit.paths, ["/p/.env"]);
        assert_eq!(edit.tool.unwrap().kind, Some(ToolKind::Edit));
        // A shell call hookc cannot read is not waved through.
        assert!(decode("process.start", json!({"argv": ["git", "push"]})).is_err());
    }

    #[test]
    fn trust_is_the_nearest_listed_folder() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("a/b");
        std::fs::create_dir_all(&project).unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let file = dir.path().join("trusted_folders.toml");
        std::fs::write(
            &file,
            format!("trusted = [{:?}]\nuntrusted = []\n", base.join("a")),
        )
        .unwrap();
        assert_eq!(trusted(&file, &project), Some(true));
        std::fs::write(
            &file,
            format!(
                "trusted = [{:?}]\nuntrusted = [{:?}]\n",
                base.join("a"),
                base.join("a/b")
            ),
        )
        .unwrap();
        assert_eq!(trusted(&file, &project), Some(false));
        std::fs::write(&file, "trusted = []\n").unwrap();
        assert_eq!(trusted(&file, &project), None);
    }
}
