//! OpenCode: a generated plugin, `.opencode/plugin/hookc.js`.
//!
//! Facts this file relies on (see `shared/harnesses/opencode.md` and the
//! oracle runs with `opencode-ai` 1.18.33):
//! - OpenCode has no hook file: the one pre-tool hook is a plugin's
//!   `tool.execute.before(input, output)`, and the only way to stop the call
//!   is to throw; the Error's message is what the model reads.
//! - Every `.js` file directly in `.opencode/plugin/` is loaded, with no
//!   config entry. A file that does not parse, an export that is not a
//!   function, or a factory that throws makes OpenCode skip the plugin, at
//!   best with a log line: the guard would then be gone. So the plugin is a
//!   fixed, dependency-free module with one export, its only data one JSON
//!   literal written by [`js_literal`], and the tests import it.
//! - Tool ids are lower-case (`bash`, `read`, `write`, `edit`, `apply_patch`,
//!   `webfetch`); arguments are camelCase (`command`, `filePath`,
//!   `patchText`). MCP tools are `<server>_<tool>` with no prefix, so hookc
//!   splits them at the first `_`.
//! - There is no way to ask the user or add context from the hook, and no
//!   timeout: the plugin bounds hookc with the policy's timeout itself.
//!
//! The plugin sends hookc `{tool, sessionID, callID, args, cwd, root}` (the
//! last two: OpenCode's directory and the project the plugin sits in).
//! `hookc guard` answers exit 0 to let the call run (with `{"command": …}`
//! on stdout to run that command instead: a supervised call, which the
//! plugin writes into the arguments in place) and exit 2 with
//! `{"decision":"deny","reason":…}` to stop it; the plugin throws on every
//! other outcome.

use std::path::Path;

use super::MachineCheck;

use serde_json::{Value, json};

use super::payload::ToolCall;

use super::common;
use super::{Answer, Harness, Profile, string_at, windows};
use crate::diag::{Code, suggest};
use crate::emit::{EmitCx, header, js_literal, render_file};
use crate::eval::{Call, CallTool, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, Tool, ToolKind};
use crate::lint_rules::{FileReport, diag};
use crate::profile::McpNames;
use crate::profile::{FileFormat, HookFile, LateHook, OnHookError, no_mcp_names};
use crate::source::{SourceFile, Span};

#[path = "opencode_permissions.rs"]
pub(super) mod permissions;

pub struct Opencode;

const PLUGIN: &str = ".opencode/plugin/hookc.js";

/// OpenCode's managed config folder, which it reads last, above every other
/// config (`managedConfigDir` in 1.18.33's binary; `opencode.json` and
/// `opencode.jsonc` there): hookc's file lists its plugin, and the
/// administrator may keep their own settings in the other.
const MANAGED: crate::managed::Layer = crate::managed::Layer {
    file: crate::managed::Paths {
        linux: "/etc/opencode/opencode.jsonc",
        macos: "/Library/Application Support/opencode/opencode.jsonc",
        windows: crate::managed::OnWindows::At(r"C:\ProgramData\opencode\opencode.jsonc"),
    },
    what: "OpenCode's managed config",
    only_managed: None,
    // hookc's plugin runs after the project's, so it judges a call as a
    // project plugin left it; but every plugin runs in one process, and
    // code there can interfere with another plugin's.
    not_enforced: Some(
        "whoever starts OpenCode can run it without plugins (`--pure`, OPENCODE_PURE), and a repository's own plugin runs in the same process as hookc's and could tamper with it; OpenCode has no setting that keeps only the administrator's plugins",
    ),
};

/// The hook names of `@opencode-ai/plugin`'s `Hooks` type (1.18.33) but
/// `tool.execute.before`, which Kilo Code CLI's plugins have too.
pub(super) const PLUGIN_HOOKS: &[&str] = &[
    "event",
    "config",
    "tool",
    "auth",
    "chat.message",
    "chat.params",
    "chat.headers",
    "permission.ask",
    "command.execute.before",
    "tool.execute.after",
    "shell.env",
    "tool.definition",
    "experimental.chat.messages.transform",
    "experimental.chat.system.transform",
    "experimental.session.compacting",
    "experimental.text.complete",
];

static PROFILE: Profile = Profile {
    id: HarnessId::Opencode,
    name: "OpenCode",
    events: &[(Event::PreTool, "tool.execute.before")],
    tools: &[
        (ToolKind::Shell, &["bash"]),
        (ToolKind::Read, &["read"]),
        (ToolKind::Write, &["write"]),
        (ToolKind::Edit, &["edit", "apply_patch"]),
        (ToolKind::WebFetch, &["webfetch"]),
    ],
    can_block: &[Event::PreTool],
    honours_ask: &[],
    can_rewrite: false,
    options: &[],
    todo: &[
        "install hookc on every machine that runs OpenCode in this repo (or set HOOKC_BIN), then restart OpenCode to load .opencode/plugin/hookc.js",
    ],
    more_events: PLUGIN_HOOKS,
    files: &[
        HookFile {
            dir: ".opencode/plugin",
            names: &["*.js", "*.mjs", "*.ts"],
            format: FileFormat::OpencodePlugin,
            in_project: true,
        },
        HookFile {
            dir: ".opencode/plugins",
            names: &["*.js", "*.mjs", "*.ts"],
            format: FileFormat::OpencodePlugin,
            in_project: true,
        },
    ],
    json: None,
    flavour: None,
    mcp_names: no_mcp_names,
    refusal: None,
    on_hook_error: OnHookError::Refuses,
    own_timeout: None,
    late_hook: LateHook::Refuses,
    hints: &[".opencode/", "opencode.json", "opencode.jsonc"],
    // OpenCode reads them in every folder from its working directory up to
    // the git root, so anywhere in the project; a plugin that runs after
    // hookc's can change the call hookc allowed.
    protected: &[
        "**/.opencode/plugin",
        "**/.opencode/plugins",
        "**/.opencode/opencode.json",
        "**/.opencode/opencode.jsonc",
        "**/opencode.json",
        "**/opencode.jsonc",
        "~/.config/opencode/plugin",
        "~/.config/opencode/plugins",
        "~/.config/opencode/opencode.json",
        "$XDG_CONFIG_HOME/opencode/plugin",
        "$XDG_CONFIG_HOME/opencode/plugins",
        "$XDG_CONFIG_HOME/opencode/opencode.json",
        "$OPENCODE_CONFIG_DIR/plugin",
        "$OPENCODE_CONFIG_DIR/plugins",
        "$OPENCODE_CONFIG_DIR/opencode.json",
        "$OPENCODE_CONFIG",
        "/etc/opencode",
    ],
    protected_examples: &[".opencode/plugin/hookc.js"],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::Unknown,
    hook_vars: None,
};

/// A small node program that loads a plugin module the way OpenCode does and
/// calls its `tool.execute.before` hook once with the call on its stdin;
/// `hookc test` runs the generated plugin through it (see [`plugin_outcome`]).
pub(super) const TEST_DRIVER: &str = include_str!("../../templates/opencode/test-driver.mjs");

/// What OpenCode does after its plugin's hook ran, from the one-line report
/// [`TEST_DRIVER`] prints.
pub(super) fn plugin_outcome(report: &str) -> super::Outcome {
    use super::Outcome;
    use super::outcome::{json_object, str_at};
    let Some(r) = json_object(report) else {
        return Outcome::proceeds(
            "the plugin driver gave no report: treated as a plugin the harness could not load, so the tool runs",
        );
    };
    if r.get("loaded") != Some(&Value::Bool(true)) {
        return Outcome::proceeds(
            "the plugin did not load: the harness skips it and the tool runs unguarded",
        )
        .user(str_at(&r, "/message"));
    }
    if r.get("threw") == Some(&Value::Bool(true)) {
        return Outcome::blocks(
            str_at(&r, "/message"),
            "tool.execute.before threw: the harness does not run the tool and the model reads the error",
        );
    }
    Outcome::proceeds(
        "tool.execute.before returned: the tool runs, with the arguments as the hook left them",
    )
    .runs(r.get("args").cloned())
}

/// What a hand-written plugin does, where it is one refusal of one tool
/// each: `(tool, reason)` pairs.
fn refusals(js: &str) -> Vec<(String, String)> {
    let refuse = regex::Regex::new(
        r#"if\s*\(\s*input\.tool\s*===?\s*["'](\w+)["']\s*\)\s*\{?\s*throw\s+new\s+Error\(\s*(?:"([^"\\]*)"|'([^'\\]*)')\s*\)"#,
    )
    .expect("a valid regex");
    refuse
        .captures_iter(js)
        .map(|c| {
            let reason = c.get(2).or_else(|| c.get(3)).map_or("", |m| m.as_str());
            (c[1].to_owned(), reason.to_owned())
        })
        .collect()
}

/// OpenCode loads the plugin itself; `hookc test` loads it into node.
static PLUGIN_RUN: super::Plugin = super::Plugin {
    file: PLUGIN,
    driver: TEST_DRIVER,
    outcome: plugin_outcome,
};

impl Harness for Opencode {
    fn plugin(&self) -> Option<&'static super::Plugin> {
        Some(&PLUGIN_RUN)
    }

    /// hookc's own code runs these hooks; only a start without plugins
    /// skips them.
    fn machine_checks(&self, _root: &Path, _home: Option<&Path>) -> Vec<MachineCheck> {
        pure_check("OpenCode", "OPENCODE_PURE")
    }

    fn hooks_in(
        &self,
        format: FileFormat,
        rel: &str,
        text: &str,
        notes: &mut Vec<String>,
    ) -> Result<Vec<crate::profile::WrittenHook>, String> {
        Ok(HOST.hooks_in(format, rel, text, notes))
    }

    fn lint_file(
        &self,
        format: FileFormat,
        file: &SourceFile,
        _root: &Path,
        report: &mut FileReport,
    ) {
        HOST.lint_file(format, file, report);
    }

    fn outcome(&self, _event: Event, o: &super::Observation) -> super::Outcome {
        outcome(o)
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        HOST.payload(event, call, root)
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        HOST.emit(policy, cx);
    }

    fn managed_layer(&self) -> Option<crate::managed::Layer> {
        Some(MANAGED)
    }

    fn emit_managed(&self, policy: &Policy, cx: &mut EmitCx, install: &crate::managed::Install) {
        HOST.emit_managed(policy, cx, install, &MANAGED);
    }

    fn managed_checks(&self, _root: &Path, _os: crate::managed::Os) -> Vec<MachineCheck> {
        pure_check("OpenCode", "OPENCODE_PURE")
    }

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Guarded(
            "the plugin runs inside OpenCode and starts hookc without a shell (hookc.exe must be on PATH)",
        )
    }

    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        HOST.decode_call(event, payload)
    }

    fn answer(&self, _event: Event, verdict: Option<&Verdict>) -> Answer {
        HOST.answer(verdict)
    }

    fn supervises(&self) -> bool {
        true
    }

    fn answer_call(&self, event: Event, payload: &Value, verdict: Option<&Verdict>) -> Answer {
        HOST.answer_call(event, payload, verdict)
    }
}

/// OpenCode as a [`Host`].
static HOST: Host = Host {
    profile: &PROFILE,
    plugin: PLUGIN,
    configs: &permissions::OPENCODE,
};

/// A harness that runs OpenCode's plugins: OpenCode, and its fork Kilo Code
/// CLI, which loads the same plugin from a folder of its own. Everything
/// but the profile and the plugin's place is the same for both.
pub(super) struct Host {
    pub profile: &'static Profile,
    /// Where a build writes the plugin, relative to the project root: two
    /// folders below it, as the plugin finds the project by that.
    pub plugin: &'static str,
    /// Where the host keeps the configs that hold its permission rules.
    pub configs: &'static permissions::Configs,
}

impl Host {
    pub fn emit(&self, policy: &Policy, cx: &mut EmitCx) {
        if self.guards_calls(policy, cx) {
            cx.whole(self.plugin, self.plugin_text(policy, None), false);
        }
    }

    /// A managed install (see [`crate::managed`]): the plugin in hookc's
    /// folder on the managed machine, running the administrator's hookc,
    /// and the harness's administrator config (`layer`) naming it.
    pub fn emit_managed(
        &self,
        policy: &Policy,
        cx: &mut EmitCx,
        install: &crate::managed::Install,
        layer: &crate::managed::Layer,
    ) {
        if !self.guards_calls(policy, cx) {
            return;
        }
        let path = format!(
            "{}/{}/hookc.js",
            install.hookc_dir(),
            self.profile.id.word()
        );
        let mut managed = json!({ "hookc": install.hookc });
        if install.os == crate::managed::Os::Windows {
            // No cheap test there that only an administrator can change the
            // policy: hookc obeys only the build this plugin was made with.
            managed["build"] = json!(cx.managed_build());
        }
        cx.whole(&path, self.plugin_text(policy, Some(managed)), false);
        let config = json!({ "plugin": [file_url(&install.absolute(&path))] });
        cx.whole(
            install.tree_file(layer.file),
            crate::emit::json_text(&config),
            false,
        );
    }

    /// Warn of what a plugin cannot do; whether any guard is for a tool call.
    fn guards_calls(&self, policy: &Policy, cx: &mut EmitCx) -> bool {
        common::warn_unsupported_events(policy, self.profile, cx);
        common::warn_decisions(policy, self.profile, cx, &|_, decision| match decision {
            Decision::Ask => Some(
                "a plugin cannot ask the user; hookc refuses the call and tells the model to ask the user instead",
            ),
            Decision::Context => Some(
                "a plugin cannot add context before a tool runs; the call goes ahead without it",
            ),
            _ => None,
        });
        let names = |tool: &Tool| {
            common::tool_names(self.profile, tool, &|server, tool| {
                Some(McpNames::ServerUnderscoreTool.matcher(server, tool))
            })
        };
        common::route(policy, Event::PreTool, self.profile, cx, &names).is_some()
    }

    /// The plugin module. Its only inputs are fixed words, the policy's
    /// timeout and, in a managed install, the hookc to run (`managed`), all
    /// inside one JSON literal.
    fn plugin_text(&self, policy: &Policy, managed: Option<Value>) -> String {
        let folder = self.plugin.rsplit_once('/').map_or("", |(dir, _)| dir);
        let mut settings = json!({
            "harness": self.profile.id.word(),
            "name": self.profile.name,
            "event": Event::PreTool.word(),
            "policyFromPlugin": "../../.hookc/policy.json",
            "projectFromPlugin": "../..",
            "timeoutMs": u64::from(policy.timeout) * 1000,
            "install": policy.install_command(),
        });
        if let Some(managed) = managed {
            // hookc's folder holds the policy, one above the plugin.
            settings["policyFromPlugin"] = json!("../policy.json");
            settings["projectFromPlugin"] = Value::Null;
            settings["managed"] = managed;
        }
        #[derive(serde::Serialize)]
        struct Data<'a> {
            header: String,
            name: &'a str,
            folder: String,
            settings: String,
        }
        render_file(
            "opencode/plugin.js",
            &Data {
                header: header(policy, "//"),
                name: self.profile.name,
                folder: format!("{folder}/"),
                settings: js_literal(&settings),
            },
        )
    }

    /// A hand-written plugin's hooks, where each is one refusal of one tool
    /// (`if (input.tool === "bash") throw new Error("REASON")`), as the
    /// refusing shell hook it does the work of.
    pub fn hooks_in(
        &self,
        format: FileFormat,
        rel: &str,
        text: &str,
        notes: &mut Vec<String>,
    ) -> Vec<crate::profile::WrittenHook> {
        if format != FileFormat::OpencodePlugin {
            return Vec::new();
        }
        let out: Vec<_> = refusals(text)
            .into_iter()
            .map(|(tool, reason)| crate::profile::WrittenHook {
                origin: rel.to_owned(),
                event: "tool.execute.before".to_owned(),
                matcher: Some(format!("^{tool}$")),
                command: format!("echo '{}' >&2; exit 2", reason.replace('\'', "")),
                args: None,
            })
            .collect();
        if out.is_empty() {
            notes.push(format!(
                "{rel}: a {} plugin hookc import cannot read; it keeps running next to hookc's",
                self.profile.name
            ));
        }
        out
    }

    pub fn lint_file(&self, format: FileFormat, file: &SourceFile, report: &mut FileReport) {
        if format == FileFormat::OpencodePlugin {
            lint_plugin(self.profile, file, report);
        }
    }

    pub fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        if event != Event::PreTool {
            return None;
        }
        let t = ToolCall::of(self.profile, call, root)?;
        let args = if t.kind == ToolKind::Shell {
            json!({ "command": t.command, "description": "run" })
        } else {
            t.file_input("filePath")
        };
        // What the plugin hands hookc: the harness's `input` and
        // `output.args`, plus the directory it runs in and the project the
        // plugin sits in.
        Some(json!({
            "tool": t.native,
            "sessionID": "s1",
            "callID": "c1",
            "args": args,
            "cwd": t.root,
            "root": t.root,
        }))
    }

    pub fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String> {
        if !payload.is_object() {
            return Err("the payload is not a JSON object".to_owned());
        }
        let text_at = |key: &str| {
            payload
                .get(key)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(|s| s.trim_end_matches('/').to_owned())
        };
        let root = text_at("root");
        let cwd = text_at("cwd").or_else(|| root.clone());
        let mut call = Call {
            event: Some(event),
            root,
            home: std::env::var("HOME").ok(),
            ..Call::default()
        };
        if event != Event::PreTool {
            return Ok(call);
        }
        let name = string_at(payload, "/tool")?;
        let args = payload
            .get("args")
            .filter(|v| v.is_object())
            .ok_or("the payload has no `args` object")?;
        // Relative file paths are resolved against the harness's directory.
        let absolute = |p: &str| match &cwd {
            Some(cwd) if !Path::new(p).is_absolute() => format!("{cwd}/{p}"),
            _ => p.to_owned(),
        };
        let mut kind = self.profile.tool_kind(name);
        match (kind, name) {
            (Some(ToolKind::Shell), BACKGROUND) => match background_command(args)? {
                Some(command) => call.command = Some(command.to_owned()),
                // It acts on a process started before, and starts no
                // program of the model's: not a shell call.
                None => {
                    kind = None;
                    call.text = Some(args.to_string());
                }
            },
            (Some(ToolKind::Shell), _) => {
                call.command = Some(string_at(args, "/command")?.to_owned());
            }
            (Some(ToolKind::Edit), "apply_patch") => {
                let patch = string_at(args, "/patchText")?;
                call.paths.extend(patch_paths(patch).map(absolute));
                call.text = Some(args.to_string());
            }
            (Some(ToolKind::Read | ToolKind::Write | ToolKind::Edit), _) => {
                call.paths.push(absolute(string_at(args, "/filePath")?));
                call.text = Some(args.to_string());
            }
            _ => call.text = Some(args.to_string()),
        }
        call.tool = Some(CallTool {
            kind,
            mcp: if self.profile.tool_kind(name).is_none() {
                McpNames::ServerUnderscoreTool.split(name)
            } else {
                None
            },
            native: name.to_owned(),
            also: Vec::new(),
        });
        Ok(call)
    }

    /// The answer to a call, with a supervised one handed over where it can
    /// be (see [`Host::supervised_answer`]).
    pub fn answer_call(&self, event: Event, payload: &Value, verdict: Option<&Verdict>) -> Answer {
        match verdict {
            Some(v) if super::hands_over(event, v) => self.supervised_answer(payload, v),
            _ => self.answer(verdict),
        }
    }

    /// A call run under hookc's run-time judge: exit 0 and `{"command":
    /// …}` on stdout, which the plugin puts in the call's arguments (in
    /// place: OpenCode runs the object it handed the hook), unless OpenCode
    /// might have refused or asked about the original command where it
    /// cannot about the changed one (`permissions`): then the refusal, why
    /// said.
    pub fn supervised_answer(&self, payload: &Value, verdict: &Verdict) -> Answer {
        let path = |key: &str| {
            payload
                .get(key)
                .and_then(Value::as_str)
                .map(std::path::PathBuf::from)
        };
        let (root, cwd) = (path("root"), path("cwd"));
        let line = payload
            .pointer("/args/command")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
        let rules = permissions::Rules::visible(
            self.configs,
            root.as_deref(),
            cwd.as_deref(),
            home.as_deref(),
        );
        let why_not = match (&verdict.rewritten, rules.refusal(line, root.as_deref())) {
            (Some(command), None) if verdict.decision == Decision::Supervise => {
                return Answer::print(json!({ "command": command }));
            }
            (_, Some(why)) => why,
            // The policy asks about it, and a plugin cannot ask.
            (_, None) => return self.answer(Some(verdict)),
        };
        let why = format!(
            "(hookc would run it under its run-time judge, but {why_not}, so hookc refuses it instead.)"
        );
        self.answer(Some(&super::supervised_refused(verdict, &why)))
    }

    pub fn answer(&self, verdict: Option<&Verdict>) -> Answer {
        let Some(verdict) = verdict else {
            return Answer::default();
        };
        let reason = match verdict.decision {
            // A supervised call that reaches this could not be handed over
            // (`supervised_answer`, `runtime::prepare`): it is refused.
            Decision::Deny | Decision::Block | Decision::Supervise => verdict.reason(),
            // hookc hands the plugin only a supervised call to change (see
            // `supervised_answer`): a rewrite is refused, naming the command.
            Decision::Rewrite => super::rewrite_as_refusal(verdict).reason(),
            Decision::Ask => format!(
                "{}\n(The policy wants the user to confirm this call, and {} cannot ask from a plugin, so hookc refused it. Ask the user in the chat; if they agree, they can run it themselves.)",
                verdict.reason(),
                self.profile.name
            ),
            Decision::Allow | Decision::Context => return Answer::default(),
        };
        Answer {
            stdout: format!("{}\n", json!({ "decision": "deny", "reason": reason })),
            stderr: format!("{reason}\n"),
            exit: 2,
        }
    }
}

/// A failure where `variable` is set in hookc's environment: the harness
/// then runs without plugins.
pub(super) fn pure_check(name: &str, variable: &str) -> Vec<MachineCheck> {
    match std::env::var_os(variable) {
        Some(_) => vec![MachineCheck::fail(
            format!("{name}: {variable} is set, and {name} then runs no plugins, hookc's included"),
            format!("unset {variable} where {name} runs"),
        )],
        None => Vec::new(),
    }
}

/// `path` (absolute on its system) as a `file:` URL, which the harness's
/// config takes for a plugin: `/etc/hookc/kilo/hookc.js` is
/// `file:///etc/hookc/kilo/hookc.js`, and `C:\Program Files\hookc\kilo\hookc.js`
/// is `file:///C:/Program%20Files/hookc/kilo/hookc.js`.
fn file_url(path: &str) -> String {
    let path = path.replace('\\', "/");
    let path = path.strip_prefix('/').unwrap_or(&path);
    let mut url = String::from("file:///");
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'.' | b'_' | b'~' | b':' => {
                url.push(char::from(byte));
            }
            _ => url.push_str(&format!("%{byte:02X}")),
        }
    }
    url
}

/// Kilo Code CLI's second shell tool, which starts (`start`) or watches
/// (`monitor`) a command in the background.
const BACKGROUND: &str = "background_process";

/// The command a `background_process` call runs: `None` for the actions on
/// a process already started (7.7.9's `list`, `status`, `logs`, `stop`,
/// `restart`); any other action without a command is refused, as hookc
/// cannot tell what it does.
fn background_command(args: &Value) -> Result<Option<&str>, String> {
    if let Some(command) = args.get("command") {
        return command
            .as_str()
            .map(Some)
            .ok_or_else(|| "`command` of background_process is not a string".to_owned());
    }
    match args.get("action").and_then(Value::as_str) {
        Some("list" | "status" | "logs" | "stop" | "restart") => Ok(None),
        Some(other) => Err(format!(
            "background_process action `{other}` without a command is not one hookc knows"
        )),
        None => Err("background_process has no `action`".to_owned()),
    }
}

/// What the plugin does with what `hookc guard` did: it runs hookc itself
/// and throws on every outcome but exit 0.
pub(super) fn outcome(o: &super::Observation) -> super::Outcome {
    use super::Outcome;
    use super::outcome::{json_object, str_at, text};
    if o.timed_out {
        return Outcome::blocks(Some("hookc could not check this call, so it was refused: hookc guard did not answer in time".to_owned()), "the plugin throws on a timeout");
    }
    match o.exit {
        Some(0) if text(&o.stdout).is_none() => {
            Outcome::proceeds("exit 0: the plugin returns and the tool runs")
        }
        Some(0) => match json_object(&o.stdout).and_then(|j| str_at(&j, "/command")) {
            Some(command) => Outcome::proceeds(
                "exit 0 with {\"command\": …}: the plugin puts it in the call's arguments and the tool runs it",
            )
            .runs(Some(json!({ "command": command }))),
            None => Outcome::blocks(
                Some("hookc could not check this call, so it was refused: hookc guard allowed this call with an answer the plugin cannot use".to_owned()),
                "exit 0 with output that is not {\"command\": …}: the plugin throws \"could not check\"",
            ),
        },
        Some(2) => {
            if let Some(j) = json_object(&o.stdout)
                && str_at(&j, "/decision").as_deref() == Some("deny")
            {
                return Outcome::blocks(
                    Some(str_at(&j, "/reason").unwrap_or_else(|| "hookc refused this call without giving a reason.".to_owned())),
                    "exit 2 with a JSON deny: the plugin throws the reason, the model reads it as the tool error",
                );
            }
            Outcome::blocks(Some("hookc could not check this call, so it was refused: hookc guard stopped with exit status 2".to_owned()), "exit 2 without a JSON deny: the plugin throws \"could not check\"")
                .user(text(&o.stderr))
        }
        _ => Outcome::blocks(Some("hookc could not check this call, so it was refused: hookc guard stopped without an answer".to_owned()), "any other exit or a crash: the plugin throws \"could not check\"")
            .user(text(&o.stderr)),
    }
}

/// The files an `apply_patch` call touches: the paths after `*** Add File:`,
/// `*** Update File:`, `*** Delete File:` and `*** Move to:`.
fn patch_paths(patch: &str) -> impl Iterator<Item = &str> {
    patch.lines().filter_map(|line| {
        let line = line.trim_end_matches('\r');
        [
            "*** Add File:",
            "*** Update File:",
            "*** Delete File:",
            "*** Move to:",
        ]
        .iter()
        .find_map(|prefix| line.strip_prefix(prefix))
        .map(str::trim)
        .filter(|p| !p.is_empty())
    })
}

/// `hookc lint` on a plugin of `profile`'s: hook names are the keys of the
/// object the plugin returns.
fn lint_plugin(profile: &Profile, file: &SourceFile, report: &mut FileReport) {
    let hooks = profile.all_events();
    let text = &*file.text;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let q = bytes[i];
        if q == b'"' || q == b'\'' {
            let start = i;
            let Some(len) = text[i + 1..].find(q as char) else {
                break;
            };
            let end = i + 1 + len;
            let name = &text[i + 1..end];
            let after = text[end + 1..].trim_start();
            let is_key = after.starts_with(':');
            if is_key && name.contains('.') && !name.contains(' ') && !hooks.contains(&name) {
                report.diags.push(
                    diag(
                        Code::LintUnknownHook,
                        file,
                        Span::new(start, end + 1 - start),
                        format!(
                            "{} has no plugin hook `{name}`; it is never called",
                            profile.name
                        ),
                        "unknown hook",
                    )
                    .help(suggest(name, &hooks)),
                );
            }
            i = end + 1;
        } else {
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_opencode_refusal_of_one_tool_is_read() {
        let js = "export const Policy = async () => ({\n  \"tool.execute.before\": async (input) => {\n    if (input.tool === \"bash\") throw new Error(\"blocked by example policy\");\n  },\n});\n";
        assert_eq!(
            refusals(js),
            vec![("bash".to_owned(), "blocked by example policy".to_owned())]
        );
    }

    use super::*;

    #[test]
    fn a_managed_plugin_is_named_by_its_file_url() {
        assert_eq!(
            file_url("/etc/hookc/opencode/hookc.js"),
            "file:///etc/hookc/opencode/hookc.js"
        );
        assert_eq!(
            file_url(r"C:\Program Files\hookc\kilo\hookc.js"),
            "file:///C:/Program%20Files/hookc/kilo/hookc.js"
        );
    }

    #[test]
    fn patch_paths_are_found() {
        let patch = "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x\n+y\n*** Add File: .env\n+K=v\n*** Delete File: old.txt\n*** Update File: b.rs\n*** Move to: c.rs\n*** End Patch";
        assert_eq!(
            patch_paths(patch).collect::<Vec<_>>(),
            ["src/a.rs", ".env", "old.txt", "b.rs", "c.rs"]
        );
    }

    #[test]
    fn the_plugin_has_one_export_and_no_policy_text() {
        let policy = Policy {
            format: crate::ir::FORMAT,
            source: "policy.kdl".into(),
            hookc_version: None,
            built_by: "0.1".into(),
            install: String::new(),
            timeout: 7,
            on_error: Decision::Deny,
            targets: vec![HarnessId::Opencode],
            windows: None,
            harness_options: Default::default(),
            audit: false,
            allow_once: false,
            never_override: Vec::new(),
            guards: Vec::new(),
            extends: Vec::new(),
        };
        let text = HOST.plugin_text(&policy, None);
        assert_eq!(text.matches("\nexport ").count(), 1, "{text}");
        assert!(text.contains("\"timeoutMs\":7000"), "{text}");
        assert!(!text.contains("{{"), "{text}");
    }
}
