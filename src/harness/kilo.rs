//! Kilo Code CLI: OpenCode's plugin, in `.kilo/plugin/hookc.js`.
//!
//! Kilo Code CLI is a fork of OpenCode, and runs the same plugins through
//! the same `tool.execute.before` hook. Facts this file relies on (read in
//! the shipped 7.7.9 binary, `@kilocode/cli-linux-x64`, and run in real
//! `kilo run` turns by the conformance suite; the book's page lists them):
//! - Plugins load from `plugin/` and `plugins/` in each config folder:
//!   the project's `.kilo/` and `.kilocode/` (up to the git root),
//!   `~/.config/kilo/`, `~/.kilo/`, `~/.kilocode/` and `$KILO_CONFIG_DIR`.
//!   A project's `.opencode/` is **not** read any more: OpenCode's plugin
//!   there never runs in Kilo, so Kilo needs a copy of its own.
//! - A plugin that does not load is skipped and the agent runs unguarded,
//!   as in OpenCode; so is every plugin under `kilo run --pure`, and every
//!   project folder with `KILO_DISABLE_PROJECT_CONFIG` set.
//! - Tools are OpenCode's (`bash`, `read`, `write`, `edit`, `apply_patch`,
//!   `webfetch`, camelCase arguments) plus `background_process`, a second
//!   way to run a command (`command` with the actions `start` and
//!   `monitor`). MCP tools are `<server>_<tool>`.

use std::path::Path;

use serde_json::Value;

use super::opencode::Host;
use super::{Answer, Harness, MachineCheck, Profile, windows};
use crate::emit::EmitCx;
use crate::eval::{Call, Verdict};
use crate::ir::{Event, ExampleCall, HarnessId, Policy, ToolKind};
use crate::lint_rules::FileReport;
use crate::profile::{FileFormat, HookFile, LateHook, OnHookError, no_mcp_names};
use crate::source::SourceFile;

pub struct Kilo;

const PLUGIN: &str = ".kilo/plugin/hookc.js";

/// Kilo's managed config folder, which it reads last, above every other
/// config (7.7.9's `managedConfigDir`). Kilo does not scan a plugin folder
/// there, but loads what a `plugin` list in a config file there names:
/// hookc's file lists its plugin.
const MANAGED: crate::managed::Layer = crate::managed::Layer {
    file: crate::managed::Paths {
        linux: "/etc/kilo/kilo.jsonc",
        macos: "/Library/Application Support/kilo/kilo.jsonc",
        windows: crate::managed::OnWindows::At(r"C:\ProgramData\kilo\kilo.jsonc"),
    },
    what: "Kilo's managed config",
    only_managed: None,
    // As for OpenCode: hookc's plugin runs last, in one process with the
    // project's.
    not_enforced: Some(
        "whoever starts Kilo can run it without plugins (`kilo run --pure`), and a repository's own plugin runs in the same process as hookc's and could tamper with it; Kilo has no setting that keeps only the administrator's plugins",
    ),
};

static PROFILE: Profile = Profile {
    id: HarnessId::Kilo,
    name: "Kilo Code CLI",
    events: &[(Event::PreTool, "tool.execute.before")],
    tools: &[
        (ToolKind::Shell, &["bash", "background_process"]),
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
        "install hookc on every machine that runs Kilo Code CLI in this repo (or set HOOKC_BIN), then restart Kilo to load .kilo/plugin/hookc.js",
    ],
    more_events: super::opencode::PLUGIN_HOOKS,
    files: &[
        HookFile {
            dir: ".kilo/plugin",
            names: &["*.js", "*.ts"],
            format: FileFormat::OpencodePlugin,
            in_project: true,
        },
        HookFile {
            dir: ".kilo/plugins",
            names: &["*.js", "*.ts"],
            format: FileFormat::OpencodePlugin,
            in_project: true,
        },
        HookFile {
            dir: ".kilocode/plugin",
            names: &["*.js", "*.ts"],
            format: FileFormat::OpencodePlugin,
            in_project: true,
        },
        HookFile {
            dir: ".kilocode/plugins",
            names: &["*.js", "*.ts"],
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
    hints: &[".kilo/", ".kilocode/", "kilo.json", "kilo.jsonc"],
    // Each config folder's plugins and config files (a `plugin` list in
    // any of them loads a module too, and a plugin that runs after hookc's
    // can change the call hookc allowed), in the project, the user's
    // folders and where the environment moves them, and the
    // administrator's.
    // Kilo reads them in every folder from its working directory up to the
    // git root, so anywhere in the project.
    protected: &[
        "**/.kilo",
        "**/.kilocode",
        "**/kilo.json",
        "**/kilo.jsonc",
        "**/opencode.json",
        "**/opencode.jsonc",
        "~/.config/kilo",
        "~/.kilo",
        "~/.kilocode",
        "$XDG_CONFIG_HOME/kilo",
        "$KILO_CONFIG_DIR",
        "$KILO_CONFIG",
        "/etc/kilo",
    ],
    protected_examples: &[".kilo/plugin/hookc.js"],
    settings_commands: &[],
    hooks_from: &[],
    also_runs: &[],
    guests: &[],
    hook_dir: crate::profile::HookDir::Unknown,
    hook_vars: None,
};

static HOST: Host = Host {
    profile: &PROFILE,
    plugin: PLUGIN,
    configs: &super::opencode::permissions::KILO,
};

/// Kilo loads the plugin itself; `hookc test` loads it into node, as for
/// OpenCode.
static PLUGIN_RUN: super::Plugin = super::Plugin {
    file: PLUGIN,
    driver: super::opencode::TEST_DRIVER,
    outcome: super::opencode::plugin_outcome,
};

impl Harness for Kilo {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn plugin(&self) -> Option<&'static super::Plugin> {
        Some(&PLUGIN_RUN)
    }

    fn machine_checks(&self, _root: &Path, _home: Option<&Path>) -> Vec<MachineCheck> {
        let mut checks = Vec::new();
        if std::env::var_os("KILO_DISABLE_PROJECT_CONFIG").is_some() {
            checks.push(MachineCheck::fail(
                "Kilo Code CLI: KILO_DISABLE_PROJECT_CONFIG is set, so Kilo loads no plugin of the project's, hookc's included",
                "unset KILO_DISABLE_PROJECT_CONFIG where Kilo runs",
            ));
        }
        checks.push(MachineCheck::note(
            "Kilo Code CLI runs no plugins with `kilo run --pure`",
            "do not start Kilo with --pure in this project",
        ));
        checks
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
        super::opencode::outcome(o)
    }

    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
        HOST.payload(event, call, root)
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

    fn on_windows(&self, _: &Policy) -> windows::OnWindows {
        windows::OnWindows::Partly {
            what: "the plugin runs inside Kilo and starts hookc without a shell, but Kilo's `bash` tool may run the command in PowerShell or cmd.exe there, and hookc reads it as POSIX shell",
            fix: "run Kilo Code CLI on Windows in WSL, or with Git Bash as its shell",
        }
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
