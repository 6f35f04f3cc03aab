//! Kiro CLI: hookc's own agent, `.kiro/agents/hookc.json`, for Kiro CLI 2,
//! and hookc's own hook file, `.kiro/hooks/hookc.json`, for Kiro CLI 3.
//!
//! Kiro CLI is closed source and installs only from Amazon's site. Protocol
//! facts this file relies on come from the code of its open-source
//! ancestor, Amazon Q Developer CLI (1.19.7), from Kiro's documentation and
//! from third parties' runs of Kiro CLI 2.16 to 2.22 (the book's page says
//! which is which; nothing here has run a real Kiro):
//! - Kiro CLI 2 runs the `hooks` of the session's **agent** only: the one
//!   `--agent` names, else the `chat.defaultAgent` setting, else Kiro's
//!   built-in default, which has no hooks. Workspace agents come from
//!   `.kiro/agents/*.json` of the folder Kiro starts in. An unknown key at
//!   an agent's top level drops the whole agent (the session falls back to
//!   the default); unknown keys inside one hook are ignored.
//! - An agent's hooks: `{"preToolUse": [{"command", "matcher", "timeout_ms",
//!   "cache_ttl_seconds", "max_output_size"}]}`. A matcher is an exact tool
//!   name or a glob (`*`, `?`), never a regex (`a|b` matches nothing), and
//!   none matches every tool. A `cache_ttl_seconds` above 0 remembers an
//!   allow for every later call, whatever its input.
//! - Kiro CLI 3 also runs every `.kiro/hooks/*.json`, whatever the agent:
//!   `{"version": "v1", "hooks": [{"name", "trigger": "PreToolUse",
//!   "matcher" (a regex), "action": {"type": "command", "command"},
//!   "timeout" (seconds), "enabled"}]}`.
//! - The command runs with `bash -c` (3: `sh -c`) in Kiro's working folder;
//!   the call comes on stdin: `{hook_event_name, cwd, tool_name,
//!   tool_input}`, the input as the model wrote it (paths may be relative
//!   or start with `~`).
//! - **Exit 2 refuses**, and the model reads stderr. Every other status, a
//!   crash, a command that cannot start and a timeout let the call through.
//! - Tools go by their old names on the wire (`execute_bash`, `fs_read`,
//!   `fs_write`) and by new ones in newer builds (`shell`, `read`, `write`);
//!   MCP tools are `@<server>/<tool>`. Sub-agents (`use_subagent`,
//!   `delegate`) run their tools without hooks.

use std::path::Path;

use serde_json::{Value, json};

use super::common;
use super::payload::ToolCall;
use super::{Answer, Harness, HookCommand, MachineCheck, Profile, windows};
use crate::diag::{Code, suggest};
use crate::emit::EmitCx;
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, ToolKind};
use crate::lint_rules::json_spans::{self, Dialect};
use crate::lint_rules::{FileReport, diag};
use crate::profile::{FileFormat, HookFile, LateHook, McpNames, OnHookError};
use crate::source::SourceFile;

pub struct Kiro;

/// hookc's agent, for Kiro CLI 2, and its hook file, for Kiro CLI 3.
const AGENT: &str = ".kiro/agents/hookc.json";
const HOOKS: &str = ".kiro/hooks/hookc.json";
/// The agent's name: what `--agent` and `chat.defaultAgent` say.
const AGENT_NAME: &str = "hookc";

/// The keys an agent may have at its top level (Kiro CLI 2.10's list);
/// any other drops the agent.
const AGENT_KEYS: &[&str] = &[
    "$schema",
    "name",
    "description",
    "prompt",
    "mcpServers",
    "tools",
    "toolAliases",
    "allowedTools",
    "resources",
    "hooks",
    "toolsSettings",
    "includeMcpJson",
    "useLegacyMcpJson",
    "model",
    "keyboardShortcut",
    "welcomeMessage",
];
/// An agent's hook triggers; another drops the agent.
const TRIGGERS: &[&str] = &[
    "agentSpawn",
    "userPromptSubmit",
    "preToolUse",
    "postToolUse",
    "stop",
];
/// Kiro CLI 3's triggers in a hook file.
const V3_TRIGGERS: &[&str] = &[
    "SessionStart",
    "Stop",
    "PreToolUse",
    "PostToolUse",
    "PreTaskExec",
    "PostTaskExec",
    "UserPromptSubmit",
    "PostFileCreate",
    "PostFileSave",
    "PostFileDelete",
    "Manual",
];

/// Tools that hand work to a sub-agent, whose own calls Kiro runs without
/// hooks: hookc cannot see what they run, so it refuses them.
const SUB_AGENTS: &[&str] = &["use_subagent", "subagent", "delegate"];

/// Kiro's tools that touch no file and run nothing: every call of a tool
/// reaches hookc's hook, and one that is neither these, nor a tool of the
/// profile, nor an MCP tool is refused (closed world: a tool hookc does not
/// know may write any file).
const INERT: &[&str] = &[
    "todo_list",
    "todo",
    "thinking",
    "introspect",
    "report_issue",
    "report",
    "web_search",
    "tool_search",
    // AWS calls: no file of the machine, and no guard speaks of them.
    "use_aws",
    "aws",
];

/// What the user should do on Windows, where these hooks cannot check a call.
const WINDOWS_FIX: &str = "run Kiro CLI on Windows in WSL";

static PROFILE: Profile = Profile {
    id: HarnessId::Kiro,
    name: "Kiro CLI",
    events: &[(Event::PreTool, "preToolUse")],
    tools: &[
        // The old names first: Kiro CLI 2 sends them.
        (ToolKind::Shell, &["execute_bash", "shell", "execute_cmd"]),
        (ToolKind::Read, &["fs_read", "read", "glob", "grep"]),
        // One tool writes and edits (`command`: `create`, `str_replace`,
        // `insert`, `append`).
        (ToolKind::Write, &["fs_write", "write"]),
        (ToolKind::Edit, &["fs_write", "write"]),
        (ToolKind::WebFetch, &["web_fetch"]),
    ],
    can_block: &[Event::PreTool],
    honours_ask: &[],
    can_rewrite: false,
    options: &[],
    todo: &[
        "install hookc on every machine that runs Kiro CLI in this repo (or set HOOKC_BIN)",
        "Kiro CLI 2 runs hookc's hooks only in hookc's agent: start it in the project's root with `kiro-cli chat --agent hookc`, or once `kiro-cli settings chat.defaultAgent hookc`",
    ],
    more_events: &["agentSpawn", "userPromptSubmit", "postToolUse", "stop"],
    files: &[
        HookFile {
            dir: ".kiro/agents",
            names: &["*.json"],
            format: FileFormat::KiroAgent,
            in_project: true,
        },
        HookFile {
            dir: ".kiro/hooks",
            names: &["*.json"],
            format: FileFormat::KiroHooks,
            in_project: true,
        },
    ],
    json: None,
    flavour: None,
    mcp_names: |_| Some(McpNames::AtServerSlashTool),
    refusal: Some(include_str!("../../templates/kiro/refuse.sh.hbs")),
    on_hook_error: OnHookError::Proceeds,
    own_timeout: None,
    late_hook: LateHook::Proceeds,
    hints: &[".kiro/"],
    protected: &[
        ".kiro/agents",
        ".kiro/hooks",
        "~/.kiro/agents",
        "~/.kiro/hooks",
        // `chat.defaultAgent`: the agent a session runs.
        "~/.kiro/settings",
        "$KIRO_HOME",
    ],
    protected_examples: &[AGENT, HOOKS],
    // Which agent a Kiro CLI 2 session runs, and so whether hookc's hook
    // runs at all.
    settings_commands: &[(
        r#"command "kiro-cli" "settings" { arg "chat.defaultAgent"; }"#,
        "kiro-cli settings chat.defaultAgent reviewer",
    )],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    // Workspace agents are read from the folder Kiro starts in, and that
    // is where their hooks run.
    hook_dir: crate::profile::HookDir::ProjectRoot,
    hook_vars: Some(crate::profile::HookVars {
        set: &[],
        complete: true,
    }),
};

impl Harness for Kiro {
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
        match format {
            FileFormat::KiroAgent => lint_agent(file, report),
            FileFormat::KiroHooks => lint_hook_file(file, report),
            _ => {}
        }
    }

    /// An agent's hooks (flat entries under each trigger), and a Kiro CLI 3
    /// hook file's list.
    fn hooks_in(
        &self,
        format: FileFormat,
        rel: &str,
        text: &str,
        _notes: &mut Vec<String>,
    ) -> Result<Vec<crate::profile::WrittenHook>, String> {
        let mut out = Vec::new();
        let v: Value = match format {
            FileFormat::KiroAgent | FileFormat::KiroHooks => {
                serde_json::from_str(text).map_err(|e| e.to_string())?
            }
            _ => return Ok(out),
        };
        if format == FileFormat::KiroAgent {
            for (trigger, list) in v["hooks"].as_object().into_iter().flatten() {
                common::written_hooks(&PROFILE, rel, trigger, list, &mut out);
            }
            return Ok(out);
        }
        for (i, hook) in v["hooks"].as_array().into_iter().flatten().enumerate() {
            if hook["enabled"] == json!(false) {
                continue;
            }
            let text = |pointer: &str| hook.pointer(pointer).and_then(Value::as_str);
            out.push(crate::profile::WrittenHook {
                origin: format!("{rel} hooks[{i}]"),
                event: text("/trigger").unwrap_or_default().to_owned(),
                matcher: text("/matcher").map(str::to_owned),
                command: text("/action/command").unwrap_or_default().to_owned(),
                args: None,
            });
        }
        Ok(out)
    }

    /// The user's agents and hook files (`~/.kiro`; Kiro reads them in every
    /// project).
    fn user_hook_files(&self, home: &Path) -> Vec<(std::path::PathBuf, FileFormat)> {
        let agents = json_files(&home.join(".kiro/agents"));
        let hooks = json_files(&home.join(".kiro/hooks"));
        (agents.into_iter().map(|p| (p, FileFormat::KiroAgent)))
            .chain(hooks.into_iter().map(|p| (p, FileFormat::KiroHooks)))
            .collect()
    }

    fn machine_checks(&self, root: &Path, home: Option<&Path>) -> Vec<MachineCheck> {
        let name = PROFILE.name;
        let mut checks = Vec::new();
        // The project's agents other than hookc's, by name, and whether
        // each runs hookc's hook.
        let agents: Vec<(std::path::PathBuf, String, bool)> =
            json_files(&root.join(".kiro/agents"))
                .into_iter()
                .filter(|p| !p.ends_with(AGENT))
                .filter_map(|path| {
                    let agent = common::read_json(Some(path.clone()))?;
                    let guarded = agent["hooks"]["preToolUse"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .any(|h| h["command"].as_str().is_some_and(|c| c.contains(MARKER)));
                    let named = agent["name"].as_str().unwrap_or_default().to_owned();
                    Some((path, named, guarded))
                })
                .collect();
        // The agent a session runs when none is named.
        let default = common::read_json(common::under_home(home, ".kiro/settings/cli.json"))
            .and_then(|s| s["chat.defaultAgent"].as_str().map(str::to_owned));
        let guarded_agent = |wanted: &str| {
            agents
                .iter()
                .any(|(_, named, guarded)| named == wanted && *guarded)
        };
        checks.push(match default.as_deref() {
            Some(agent) if agent == AGENT_NAME || guarded_agent(agent) => MachineCheck::Ok(format!(
                "{name}: `chat.defaultAgent` is `{agent}`, which runs hookc's hook, so Kiro CLI 2 runs it unless another agent is named"
            )),
            Some(other) => MachineCheck::fail(
                format!(
                    "{name}: `chat.defaultAgent` is `{other}`, so Kiro CLI 2 runs that agent and no hookc guard unless it is started with `--agent hookc`"
                ),
                "run `kiro-cli settings chat.defaultAgent hookc`, or always start Kiro with `--agent hookc`",
            ),
            None => MachineCheck::note(
                format!(
                    "{name}: no `chat.defaultAgent`, so Kiro CLI 2 runs its built-in agent, which has no hooks, unless it is started with `--agent hookc`"
                ),
                "run `kiro-cli settings chat.defaultAgent hookc`, or always start Kiro with `--agent hookc`",
            ),
        });
        // Another agent of the project runs without hookc's hooks.
        for (path, _, guarded) in &agents {
            if !guarded {
                checks.push(MachineCheck::note(
                    format!(
                        "{name}: the agent in {} has no hookc hook: a Kiro CLI 2 session in it runs unguarded",
                        path.display()
                    ),
                    format!("copy the `hooks` of {AGENT} into it, or use the hookc agent"),
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
                    "Kiro CLI's hooks cannot ask the user; hookc refuses the call and tells the model to ask the user instead",
                ),
                (Event::PreTool, Decision::Context) => Some(
                    "Kiro CLI reads no added context from a preToolUse hook; the call goes ahead without it",
                ),
                _ => None,
            },
        );
        let event = Event::PreTool;
        let native = "preToolUse";
        // Every tool: Kiro's matchers take no alternation, its tools go by
        // two names, and sub-agents must be seen to be refused.
        if common::route(policy, event, &PROFILE, cx, &matcher_names).is_none() {
            return;
        }
        cx.shim(policy, &PROFILE, event, native, policy.on_error_for(event));
        let command = common::refusing_on_windows(
            event,
            common::source_shim(&format!("\"$PWD\"/.hookc/kiro/{}.sh", event.word())),
            &PROFILE,
            WINDOWS_FIX,
        );
        let agent = json!({
            "name": AGENT_NAME,
            "description": "Kiro's tools, with this project's hookc guards before every call. Written by `hookc build`: do not edit; rebuild instead.",
            "tools": ["*"],
            "resources": ["file://AGENTS.md", "file://README.md", "file://.kiro/steering/**/*.md"],
            "includeMcpJson": true,
            "hooks": {
                native: [{
                    "command": command,
                    "timeout_ms": u64::from(policy.timeout) * 1000,
                    // An allow remembered would let later calls through unseen.
                    "cache_ttl_seconds": 0,
                }],
            },
        });
        let hooks = json!({
            "version": "v1",
            "hooks": [{
                "name": format!("hookc-{}", event.word()),
                "description": "This project's hookc guards. Written by `hookc build`: do not edit; rebuild instead.",
                "trigger": "PreToolUse",
                "action": {"type": "command", "command": command},
                "timeout": policy.timeout,
                "enabled": true,
            }],
        });
        for (path, doc) in [(AGENT, agent), (HOOKS, hooks)] {
            let text = serde_json::to_string_pretty(&doc).expect("JSON values serialise");
            cx.whole(path, format!("{text}\n"), false);
        }
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Unguarded {
            what: "Kiro CLI runs hook commands with `cmd /C` on Windows; hookc's command refuses every call there (its first part is a refusal in cmd.exe and PowerShell), so nothing is checked and nothing runs",
            fix: WINDOWS_FIX,
        }
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        let mut call = common::new_call(event, payload, "", common::payload_cwd(payload))?;
        let name = super::string_at(payload, "/tool_name")?;
        let empty = json!({});
        let input = payload.get("tool_input").unwrap_or(&empty);
        if SUB_AGENTS.contains(&name) && !lists_sub_agents(name, input) {
            return Err(format!(
                "Kiro CLI runs the tools of a sub-agent (`{name}`) without hooks, so hookc cannot see what it runs. Do the work with your own tools instead of a sub-agent"
            ));
        }
        let mut kind = PROFILE.tool_kind(name);
        match (kind, name) {
            (Some(ToolKind::Shell), _) => {
                call.command = Some(super::string_at(input, "/command")?.to_owned());
                // Not in Kiro CLI 2's tool; should a build add it, the line
                // runs there, and is judged there.
                if input.get("working_dir").is_some() {
                    let dir = input["working_dir"]
                        .as_str()
                        .filter(|d| !d.starts_with('~'))
                        .and_then(|_| common::work_dir(input, "working_dir", call.root.as_deref()))
                        .ok_or("`working_dir` should be a folder's path, absolute or relative to `cwd`")?;
                    call.cwd = Some(dir);
                }
            }
            (Some(ToolKind::Read), "glob") => {
                crate::eval::search_call(&mut call, input, "/path", "/pattern", true);
                call.text = Some(input.to_string());
            }
            (Some(ToolKind::Read), "grep") => {
                crate::eval::search_call(&mut call, input, "/path", "/include", false);
                call.text = Some(input.to_string());
            }
            (Some(ToolKind::Read), _) => {
                read_operations(&mut call, name, input)?;
                call.text = Some(input.to_string());
            }
            (Some(ToolKind::Write), _) => {
                call.paths
                    .push(super::string_at(input, "/path")?.to_owned());
                kind = match super::string_at(input, "/command")? {
                    "create" => Some(ToolKind::Write),
                    "str_replace" | "insert" | "append" => Some(ToolKind::Edit),
                    other => {
                        return Err(format!(
                            "`{name}` has no command `{other}`; use `create`, `str_replace`, `insert` or `append`"
                        ));
                    }
                };
                call.text = Some(input.to_string());
            }
            (None, "knowledge") => {
                // Adding to the knowledge base reads the file it names.
                if matches!(input["command"].as_str(), Some("add" | "update")) {
                    kind = Some(ToolKind::Read);
                    for key in ["/path", "/value"] {
                        if let Some(p) = input.pointer(key).and_then(Value::as_str) {
                            call.paths.push(p.to_owned());
                        }
                    }
                }
                call.text = Some(input.to_string());
            }
            (None, _)
                if !INERT.contains(&name)
                    && !SUB_AGENTS.contains(&name)
                    && !name.starts_with('@') =>
            {
                return Err(format!(
                    "hookc does not know what Kiro CLI's tool `{name}` touches, so it cannot check the call. Do it with execute_bash, fs_read or fs_write instead, or ask the user to have hookc taught this tool"
                ));
            }
            _ => call.text = Some(input.to_string()),
        }
        call.tool = Some(CallTool {
            kind,
            mcp: McpNames::AtServerSlashTool.split(name),
            native: name.to_owned(),
            ..CallTool::default()
        });
        Ok(call)
    }

    fn answer(&self, _event: Event, verdict: Option<&Verdict>) -> Answer {
        match common::refusal_reason(verdict, "a Kiro CLI") {
            Some(reason) => Answer::exit_2(reason),
            None => Answer::default(),
        }
    }

    fn outcome(&self, _event: Event, o: &super::Observation) -> super::Outcome {
        use super::Outcome;
        use super::outcome::text;
        if o.timed_out {
            return Outcome::proceeds("a timeout is no refusal: the call proceeds (fail-open)");
        }
        match o.exit {
            Some(2) => Outcome::blocks(
                text(&o.stderr).map(|e| format!("PreToolHook blocked the tool execution: {e}")),
                "exit 2 refuses; the model reads stderr",
            ),
            Some(0) => Outcome::proceeds("exit 0 allows; stdout is not read"),
            _ => Outcome::proceeds(
                "a status other than 2 shows a warning and the call proceeds (fail-open)",
            ),
        }
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        let t = ToolCall::of(&PROFILE, call, root)?;
        let input = match t.kind {
            ToolKind::Shell => json!({"command": t.command, "summary": "Run the command"}),
            ToolKind::Read => json!({"operations": [{"mode": "Line", "path": t.path}]}),
            ToolKind::Write => json!({"command": "create", "path": t.path, "file_text": "x\n"}),
            ToolKind::Edit => {
                json!({"command": "str_replace", "path": t.path, "old_str": "a", "new_str": "b"})
            }
            _ => return None,
        };
        Some(json!({
            "hook_event_name": PROFILE.event_name(event)?,
            "cwd": t.root,
            "tool_name": t.native,
            "tool_input": input,
        }))
    }

    fn hook_command(&self, root: &Path, event: Event, _payload: &Value) -> Option<HookCommand> {
        let native = PROFILE.event_name(event)?;
        Some(HookCommand {
            command: super::configured(root, AGENT, &format!("/hooks/{native}/0/command"))?,
            shell: "bash",
            env: Vec::new(),
        })
    }
}

/// hookc's hook commands are recognised by this path.
const MARKER: &str = "/.hookc/kiro/";

/// The `*.json` files of `dir`, sorted; none where it cannot be read.
fn json_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// Whether a sub-agent tool's call only asks about sub-agents (`delegate`'s
/// `list` and `status`), which starts none.
fn lists_sub_agents(name: &str, input: &Value) -> bool {
    name == "delegate" && matches!(input["operation"].as_str(), Some("list" | "status"))
}

/// The files of an `fs_read` call: each operation's `path` (a file it
/// reads or searches for a pattern, or a folder it lists) and
/// `image_paths`.
fn read_operations(call: &mut Call, name: &str, input: &Value) -> Result<(), String> {
    let operations = input["operations"]
        .as_array()
        .filter(|ops| !ops.is_empty())
        .ok_or_else(|| format!("`{name}` should list its `operations`"))?;
    for op in operations {
        match &op["path"] {
            Value::Null => {}
            Value::String(path) => call.paths.push(path.clone()),
            _ => return Err("an operation's `path` should be a string".to_owned()),
        }
        for image in op["image_paths"].as_array().into_iter().flatten() {
            call.paths.push(
                image
                    .as_str()
                    .ok_or("`image_paths` should hold strings")?
                    .to_owned(),
            );
        }
        if op["path"].is_null() && op["image_paths"].is_null() {
            return Err(format!("an operation of `{name}` names no file"));
        }
    }
    Ok(())
}

/// The regex fragments for one guard tool. hookc writes no matcher for
/// Kiro (every call reaches the hook), so these only tell the route which
/// guards Kiro can run.
fn matcher_names(tool: &crate::ir::Tool) -> Vec<String> {
    match tool {
        crate::ir::Tool::Mcp { server, tool } => {
            vec![McpNames::AtServerSlashTool.matcher(server, tool)]
        }
        _ => common::tool_names(&PROFILE, tool, &|_, _| None),
    }
}

const STRICT: Dialect = Dialect {
    comments: false,
    trailing_commas: false,
    bom: false,
};

/// The file's top-level object, or a finding of why Kiro cannot read it.
fn parse_object<'a>(
    file: &'a SourceFile,
    drops: &str,
    report: &mut FileReport,
) -> Option<jsonc_parser::ast::Object<'a>> {
    use jsonc_parser::ast::Value as Ast;
    match json_spans::parse(&file.text, STRICT) {
        Ok(Some(Ast::Object(o))) => Some(o),
        Ok(other) => {
            let span = other
                .as_ref()
                .map_or(crate::source::Span::new(0, 0), json_spans::span);
            report.diags.push(diag(
                Code::LintWrongType,
                file,
                span,
                format!("Kiro CLI expects a JSON object here, and {drops}"),
                "not an object",
            ));
            None
        }
        Err((span, why)) => {
            report.diags.push(
                diag(
                    Code::LintSyntax,
                    file,
                    span,
                    format!("Kiro CLI cannot parse this file ({why}), and {drops}"),
                    "here",
                )
                .help(
                    "Kiro reads strict JSON: no comments, no trailing commas, no byte order mark",
                ),
            );
            None
        }
    }
}

/// An agent as Kiro CLI 2 reads it: what drops it, and hooks that fail open.
fn lint_agent(file: &SourceFile, report: &mut FileReport) {
    use jsonc_parser::ast::Value as Ast;
    const DROPS: &str = "drops the agent: a session in it runs Kiro's default agent, without hooks";
    let Some(root) = parse_object(file, DROPS, report) else {
        return;
    };
    for prop in &root.properties {
        let key = json_spans::key(prop);
        if key == "permissions" {
            // Kiro CLI 3's agents need it; Kiro CLI 2 drops them for it.
            report.diags.push(
                diag(
                    Code::LintUnknownKey,
                    file,
                    json_spans::key_span(prop),
                    format!("`permissions` is a Kiro CLI 3 key: Kiro CLI 2 {DROPS}"),
                    "Kiro CLI 3 only",
                )
                .severity(crate::diag::Severity::Warning)
                .help("keep this agent for Kiro CLI 3; for Kiro CLI 2, one without `permissions`"),
            );
        } else if !AGENT_KEYS.contains(&key) {
            report.diags.push(
                diag(
                    Code::LintUnknownKey,
                    file,
                    json_spans::key_span(prop),
                    format!("Kiro CLI knows no agent key `{key}`, and {DROPS}"),
                    "unknown key",
                )
                .help(suggest(key, AGENT_KEYS)),
            );
        }
    }
    let Some(hooks) = json_spans::get(&root, "hooks") else {
        return;
    };
    let Ast::Object(hooks) = &hooks.value else {
        report.diags.push(diag(
            Code::LintWrongType,
            file,
            json_spans::span(&hooks.value),
            format!("an agent's `hooks` is an object of triggers, and Kiro CLI {DROPS}"),
            "wrong shape",
        ));
        return;
    };
    for trigger in &hooks.properties {
        let name = json_spans::key(trigger);
        if !TRIGGERS.contains(&name) {
            report.diags.push(
                diag(
                    Code::LintUnknownEvent,
                    file,
                    json_spans::key_span(trigger),
                    format!("Kiro CLI has no agent hook trigger `{name}`, and {DROPS}"),
                    "unknown trigger",
                )
                .help(suggest(name, TRIGGERS)),
            );
        }
        let Ast::Array(list) = &trigger.value else {
            continue;
        };
        for hook in &list.elements {
            let Ast::Object(hook) = hook else {
                continue;
            };
            let at = crate::source::Span::new(hook.range.start, 1);
            if json_spans::get(hook, "command")
                .and_then(|c| json_spans::as_str(&c.value))
                .is_none()
            {
                report.diags.push(diag(
                    Code::LintMissingField,
                    file,
                    at,
                    format!("this hook has no `command` string, and Kiro CLI {DROPS}"),
                    "incomplete",
                ));
            }
            let matcher = json_spans::get(hook, "matcher")
                .and_then(|m| Some((json_spans::as_str(&m.value)?, json_spans::span(&m.value))));
            if let Some((text, span)) = matcher
                && let Some(f) = crate::lint_rules::matchers::mcp(
                    Some(McpNames::AtServerSlashTool),
                    PROFILE.name,
                    text,
                )
            {
                report.diags.push(
                    diag(
                        Code::LintMatcherMcp,
                        file,
                        span,
                        f.message,
                        "matches no tool",
                    )
                    .severity(f.severity)
                    .help(f.help),
                );
            } else if let Some(m) = json_spans::get(hook, "matcher")
                && let Some(text) = json_spans::as_str(&m.value)
                && text.contains(['|', '(', '[', '^', '$', '+', '\\', '.'])
                && !text.starts_with('@')
            {
                report.diags.push(
                    diag(
                        Code::LintMatcherRegex,
                        file,
                        json_spans::span(&m.value),
                        "a Kiro CLI matcher is an exact tool name or a glob (`*`, `?`), not a regex: this one matches no tool, and the hook never runs",
                        "never matches",
                    )
                    .help("write one hook per tool name, or leave `matcher` out and check `tool_name` in the hook"),
                );
            }
            if name == "preToolUse"
                && let Some(ttl) = json_spans::get(hook, "cache_ttl_seconds")
                && json_spans::as_f64(&ttl.value).is_some_and(|s| s > 0.0)
            {
                report.diags.push(
                    diag(
                        Code::LintFailOpen,
                        file,
                        json_spans::span(&ttl.value),
                        "Kiro CLI remembers this hook's allow for that long, whatever the next call is: the calls after an allowed one skip the hook",
                        "skips the guard",
                    )
                    .severity(crate::diag::Severity::Warning)
                    .help("set `cache_ttl_seconds` to 0 on a preToolUse hook"),
                );
            }
        }
    }
}

/// A Kiro CLI 3 hook file: what drops a hook, and a trigger it does not know.
fn lint_hook_file(file: &SourceFile, report: &mut FileReport) {
    use jsonc_parser::ast::Value as Ast;
    let Some(root) = parse_object(file, "skips the whole file", report) else {
        return;
    };
    let Some(hooks) = json_spans::get(&root, "hooks") else {
        return;
    };
    let Ast::Array(list) = &hooks.value else {
        report.diags.push(diag(
            Code::LintWrongType,
            file,
            json_spans::span(&hooks.value),
            "a Kiro CLI hook file's `hooks` is a list of hooks, and Kiro skips the whole file",
            "wrong shape",
        ));
        return;
    };
    for hook in &list.elements {
        let Ast::Object(hook) = hook else {
            continue;
        };
        let at = crate::source::Span::new(hook.range.start, 1);
        match json_spans::get(hook, "trigger") {
            Some(t) => {
                let trigger = json_spans::as_str(&t.value).unwrap_or("");
                let known = V3_TRIGGERS.contains(&trigger)
                    || TRIGGERS.contains(&trigger)
                    || trigger == "agentSpawn";
                if !known {
                    report.diags.push(
                        diag(
                            Code::LintUnknownEvent,
                            file,
                            json_spans::span(&t.value),
                            format!(
                                "Kiro CLI has no hook trigger `{trigger}`, and drops this hook"
                            ),
                            "unknown trigger",
                        )
                        .help(suggest(trigger, V3_TRIGGERS)),
                    );
                }
            }
            None => report.diags.push(diag(
                Code::LintMissingField,
                file,
                at,
                "this hook has no `trigger`, and Kiro CLI drops it",
                "incomplete",
            )),
        }
        let command = json_spans::get(hook, "action").and_then(|a| match &a.value {
            Ast::Object(o) => {
                json_spans::get(o, "command").and_then(|c| json_spans::as_str(&c.value))
            }
            _ => None,
        });
        if command.is_none() {
            report.diags.push(diag(
                Code::LintMissingField,
                file,
                at,
                "this hook has no `action.command` string, so it runs nothing",
                "incomplete",
            ));
        }
        if let Some(m) = json_spans::get(hook, "matcher")
            && let Some(text) = json_spans::as_str(&m.value)
            && regex::Regex::new(text).is_err()
        {
            report.diags.push(
                diag(
                    Code::LintMatcherRegex,
                    file,
                    json_spans::span(&m.value),
                    "this matcher is not a regex Kiro CLI can compile",
                    "does not compile",
                )
                .severity(crate::diag::Severity::Warning),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::Observation;

    fn decode(tool: &str, input: Value) -> Result<Call, String> {
        Kiro.decode_call(
            Event::PreTool,
            &json!({"hook_event_name": "preToolUse", "cwd": "/p", "tool_name": tool, "tool_input": input}),
        )
    }

    #[test]
    fn only_exit_2_refuses_and_every_failure_lets_the_call_through() {
        let deny = super::super::test_verdict(Decision::Deny, "Do not force-push.");
        let a = Kiro.answer(Event::PreTool, Some(&deny));
        assert_eq!((a.exit, a.stdout.as_str()), (2, ""));
        assert!(a.stderr.contains("Do not force-push."));
        let observed = |exit, timed_out| {
            Kiro.outcome(
                Event::PreTool,
                &Observation {
                    exit,
                    stdout: String::new(),
                    stderr: "No.".into(),
                    timed_out,
                },
            )
        };
        assert!(!observed(Some(2), false).proceeds);
        for (exit, timed_out) in [
            (Some(0), false),
            (Some(1), false),
            (None, true),
            (None, false),
        ] {
            assert!(observed(exit, timed_out).proceeds, "{exit:?}");
        }
    }

    #[test]
    fn tools_are_read_by_both_names_and_sub_agents_are_refused() {
        let there = decode("shell", json!({"command": "ls", "working_dir": "sub"})).unwrap();
        assert_eq!(there.cwd.as_deref(), Some("/p/sub"));
        assert!(decode("shell", json!({"command": "ls", "working_dir": "~/x"})).is_err());
        for name in ["execute_bash", "shell"] {
            let c = decode(name, json!({"command": "git push -f", "summary": "push"})).unwrap();
            assert_eq!(c.command.as_deref(), Some("git push -f"));
        }
        let read = decode(
            "fs_read",
            json!({"operations": [{"mode": "Line", "path": ".env"}, {"mode": "Image", "image_paths": ["a.png"]}]}),
        )
        .unwrap();
        assert_eq!(read.paths, [".env", "a.png"]);
        assert!(decode("fs_read", json!({"operations": []})).is_err());
        let create = decode(
            "fs_write",
            json!({"command": "create", "path": ".env", "file_text": "A=1"}),
        )
        .unwrap();
        assert_eq!(create.tool.unwrap().kind, Some(ToolKind::Write));
        let edit = decode("write", json!({"command": "str_replace", "path": ".env"})).unwrap();
        assert_eq!(
            (edit.paths.as_slice(), edit.tool.unwrap().kind),
            ([".env".to_owned()].as_slice(), Some(ToolKind::Edit))
        );
        assert!(
            decode(
                "fs_write",
                json!({"command": "create", "file_path": ".env"})
            )
            .is_err()
        );
        for name in ["use_subagent", "subagent"] {
            assert!(
                decode(name, json!({}))
                    .unwrap_err()
                    .contains("without hooks")
            );
        }
        assert!(decode("delegate", json!({"operation": "launch", "task": "x"})).is_err());
        assert!(decode("delegate", json!({"operation": "list"})).is_ok());
        let mcp = decode("@github/create_issue", json!({"title": "x"})).unwrap();
        assert_eq!(
            mcp.tool.unwrap().mcp,
            Some(("github".into(), "create_issue".into()))
        );
        // Closed world: a tool hookc does not know is refused; a known inert one is not.
        assert!(
            decode("code", json!({"path": ".env"}))
                .unwrap_err()
                .contains("does not know")
        );
        assert!(decode("todo_list", json!({"command": "create"})).is_ok());
        assert!(decode("fs_write", json!({"command": "overwrite", "path": "a"})).is_err());
        let odd = json!({"operations": [{"mode": "Line", "path": [".env"], "image_paths": []}]});
        assert!(decode("fs_read", odd).is_err());
        let add = decode(
            "knowledge",
            json!({"command": "add", "name": "n", "value": "~/.ssh/id_rsa"}),
        )
        .unwrap();
        assert_eq!(add.paths, ["~/.ssh/id_rsa"]);
    }

    #[test]
    fn lint_finds_what_drops_an_agent_and_what_skips_the_guard() {
        let lint = |text: &str, format| {
            let file = SourceFile::new(".kiro/agents/a.json", text);
            let mut report = FileReport::default();
            Kiro.lint_file(format, &file, Path::new("."), &mut report);
            report
                .diags
                .iter()
                .map(|d| d.code.name().to_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            lint(r#"{"name": "a", "permission": {}}"#, FileFormat::KiroAgent),
            ["lint-unknown-key"]
        );
        assert_eq!(
            lint(
                r#"{"name": "a", "hooks": {"PreToolUse": [{"command": "x"}]}}"#,
                FileFormat::KiroAgent
            ),
            ["lint-unknown-event"]
        );
        assert_eq!(
            lint(
                r#"{"name": "a", "hooks": {"preToolUse": [{"command": "x", "matcher": "execute_bash|fs_write", "cache_ttl_seconds": 60}]}}"#,
                FileFormat::KiroAgent
            ),
            ["lint-matcher-regex", "lint-fail-open"]
        );
        assert!(
            lint(
                r#"{"name": "a", "hooks": {"preToolUse": [{"command": "x", "matcher": "fs_*"}]}}"#,
                FileFormat::KiroAgent
            )
            .is_empty()
        );
        // Claude Code's name for an MCP tool matches nothing here.
        assert_eq!(
            lint(
                r#"{"name": "a", "hooks": {"preToolUse": [{"command": "x", "matcher": "mcp__github__create_issue"}]}}"#,
                FileFormat::KiroAgent
            ),
            ["lint-matcher-mcp"]
        );
        assert_eq!(
            lint(
                r#"{"version": "v1", "hooks": [{"trigger": "PreToolUze", "action": {"type": "command"}}]}"#,
                FileFormat::KiroHooks
            ),
            ["lint-unknown-event", "lint-missing-field"]
        );
    }
}
