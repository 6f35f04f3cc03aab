//! One module per harness behind one trait, plus the table that lists them.
//!
//! Adding a harness means one new file here (its profile, emitter, payloads,
//! answers and lint facts) and its line in [`registry`](crate::registry),
//! which makes its [`HarnessId`] variant and its entry in [`all`]; the
//! compiler then asks for its `mod` line below, and the tests for its book
//! page `book/src/harnesses/<id>.md`. Every cross-harness list is derived
//! from the registry (lint, self-protection, `init`, the book's matrix,
//! summary and diagnostics, the pre-commit hooks' file patterns).
//! Nothing outside this module knows a harness's event names, tool names,
//! file formats or protocol: the pipeline asks the [`Harness`] and its
//! [`Profile`].

mod agent_sdk;
mod antigravity;
mod auggie;
mod claude;
mod cline;
mod codebuddy;
mod codex;
mod common;
mod copilot;
mod crush;
mod cursor;
mod devin;
mod droid;
mod gemini;
mod goose;
mod kilo;
mod kimi;
mod kiro;
mod letta;
mod opencode;
mod openhands;
mod outcome;
pub mod payload;
mod qoder;
mod qwen;
mod vibe;
mod vscode;
pub mod windows;
mod windsurf;

use std::path::Path;

use serde_json::Value;

use crate::emit::EmitCx;
use crate::eval::{Call, Verdict};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, Tool};

pub use crate::profile::{Guest, McpNames, OptionKind, OptionSpec, Profile, glob_to_regex};
pub use outcome::{Observation, Outcome};

/// What one harness needs from hookc: its files, and its half of the guard protocol.
pub trait Harness: Sync {
    fn id(&self) -> HarnessId {
        self.profile().id
    }

    /// Facts about the harness, as data (also the source of the book's capability matrix).
    fn profile(&self) -> &'static Profile;

    /// `hookc lint` on `file`, one of the harness's hook files, of `format`
    /// (from its profile's [`files`](Profile::files)); `root` is the
    /// project it belongs to. The default checks a JSON hooks file by the
    /// shared rules and the profile's [`JsonSpec`](crate::profile::JsonSpec);
    /// a harness with quirks, or another format, checks it itself.
    fn lint_file(
        &self,
        format: crate::profile::FileFormat,
        file: &crate::source::SourceFile,
        root: &Path,
        report: &mut crate::lint_rules::FileReport,
    ) {
        if format == crate::profile::FileFormat::HooksJson {
            common::lint_json(self.profile(), self.lint_quirks(), file, root, report);
        }
    }

    /// What the shared JSON rules must know of this harness beyond its
    /// profile (Antigravity's groups at the root, Cursor's `failClosed`, …);
    /// the default is nothing.
    fn lint_quirks(&self) -> &dyn crate::lint_rules::json::Quirks {
        &crate::lint_rules::json::NoQuirks
    }

    /// The format of the file at `path`, holding `text`, when it is one of
    /// the harness's hook files that its name alone does not show (Kimi
    /// Code's config can be in any folder); the default knows none.
    fn file_by_content(&self, path: &Path, text: &str) -> Option<crate::profile::FileFormat> {
        let _ = (path, text);
        None
    }

    /// The hooks written by hand in one of the harness's files, for
    /// `hookc import`; `notes` gets what the file holds that cannot be read
    /// (said to the user). The default reads a JSON hooks file as the
    /// profile's [`JsonSpec`](crate::profile::JsonSpec) describes it.
    fn hooks_in(
        &self,
        format: crate::profile::FileFormat,
        rel: &str,
        text: &str,
        notes: &mut Vec<String>,
    ) -> Result<Vec<crate::profile::WrittenHook>, String> {
        match format {
            crate::profile::FileFormat::HooksJson => {
                common::json_hooks(self.profile(), rel, text, notes)
            }
            _ => Ok(Vec::new()),
        }
    }

    /// The hookc event a native event name (any case) is, and the one tool
    /// it is about for harnesses with tool-specific events.
    fn event_named(&self, native: &str) -> Option<(Event, Option<crate::ir::ToolKind>)> {
        self.profile().event_called(native).map(|e| (e, None))
    }

    /// Whether a matcher that is not anchored matches any tool name that
    /// contains it (a regex search) rather than only the names it spells.
    fn matcher_searches(&self) -> bool {
        self.profile()
            .json
            .as_ref()
            .is_some_and(|j| j.matching == crate::profile::Matching::Unanchored)
    }

    /// The user-level hook files under `home` (`$HOME`) that
    /// `hookc lint --user` checks where they exist, with their formats;
    /// the default has none.
    fn user_hook_files(
        &self,
        home: &Path,
    ) -> Vec<(std::path::PathBuf, crate::profile::FileFormat)> {
        let _ = home;
        Vec::new()
    }

    /// Add this harness's config entries and guard payloads to `cx`, and warn
    /// (with a span on the guard) about what the harness cannot do.
    fn emit(&self, policy: &Policy, cx: &mut EmitCx);

    /// The administrator file a managed install writes (see
    /// [`crate::managed`]); `None` where the harness has no such layer, or
    /// hookc does not write it.
    fn managed_layer(&self) -> Option<crate::managed::Layer> {
        None
    }

    /// Add the managed install's files to `cx`: the file at
    /// [`managed_layer`](Self::managed_layer), naming shims made with
    /// [`EmitCx::managed_shim`]. Called only where there is a layer.
    fn emit_managed(&self, policy: &Policy, cx: &mut EmitCx, install: &crate::managed::Install) {
        let _ = (policy, cx, install);
        unreachable!("{} has no managed layer", self.profile().name)
    }

    /// What on this machine would switch the managed hooks off or shadow
    /// them (`hookc doctor --managed`), beyond what every harness is checked
    /// for; `root` is where the managed tree is (`/`). The default has none.
    fn managed_checks(&self, root: &Path, os: crate::managed::Os) -> Vec<MachineCheck> {
        let _ = (root, os);
        Vec::new()
    }

    /// What becomes of this harness's hooks on Windows (see [`windows`]).
    fn on_windows(&self, policy: &Policy) -> windows::OnWindows;

    /// What on this machine can keep the harness from running the hooks
    /// built at `root` (`hookc doctor`): switches that turn hooks off, and
    /// what the user must do first (trust the folder). `home` is `$HOME`.
    fn machine_checks(&self, root: &Path, home: Option<&Path>) -> Vec<MachineCheck>;

    /// Read the harness's stdin payload for `event` into a [`Call`].
    fn decode_call(&self, event: Event, payload: &Value) -> Result<Call, String>;

    /// Answer in the harness's protocol. `None`: no guard matched.
    fn answer(&self, event: Event, verdict: Option<&Verdict>) -> Answer;

    /// Whether the harness may throw away what a hook wrote once it sees
    /// the hook's process end, rather than reading its output to the end
    /// (Node's `exit` event instead of `close`). Then hookc's keeper, after
    /// it writes the answer, waits a moment for the harness to take it
    /// before ending (see `runtime::keeper`), so a refusal does not reach
    /// the model without its reason.
    fn drops_output_at_exit(&self) -> bool {
        false
    }

    /// Whether this harness can run a shell call under hookc's run-time
    /// judge: its hook can change the call into `hookc exec …` without
    /// weakening the harness's own permission checks. Its `answer_call`
    /// then answers a `supervise` verdict, whose `rewritten` holds that
    /// command. Elsewhere such a verdict is a refusal (`runtime::prepare`).
    fn supervises(&self) -> bool {
        false
    }

    /// Answer a call whose payload has been decoded. Harnesses that serve one
    /// hookc event from several of their own events, and can do different
    /// things on each (Cursor honours `ask` for shell commands only), look at
    /// the payload; the default is [`answer`](Self::answer).
    fn answer_call(&self, event: Event, payload: &Value, verdict: Option<&Verdict>) -> Answer {
        let _ = payload;
        self.answer(event, verdict)
    }

    /// Whether a payload unmistakably comes from this harness. Some harnesses
    /// also run other harnesses' hook configs (Cursor and Copilot run the
    /// repo's `.claude/settings.json`); `hookc guard` uses this to answer the
    /// real caller in its own protocol. Only harnesses whose payloads have a
    /// distinctive shape say yes; the default is no.
    fn recognizes(&self, _payload: &Value) -> bool {
        false
    }

    /// What the harness does when its hook for `event` ended as `observed`:
    /// the one decoding of the harness's output protocol, shared by
    /// `hookc simulate` and `hookc test`.
    fn outcome(&self, event: Event, observed: &Observation) -> Outcome;

    /// The stdin the harness gives its hook for `event` when `call` happens,
    /// in the harness's own shape (as recorded from the real tool), with
    /// files under `root`; `hookc test` runs the generated hooks on it.
    /// `None`: the harness cannot carry this call on this event (no such
    /// event or tool, or a payload without the text the example gives), and
    /// the example is "not applicable" there. The pieces every shape needs
    /// are in [`payload`]. Required, so that a new harness cannot leave
    /// `hookc test` without payloads by forgetting it.
    fn payload(&self, event: Event, call: &ExampleCall, root: &Path) -> Option<Value>;

    /// How the harness starts its hook for `event` in a project built at
    /// `root`: the command its config holds, the shell it uses and the
    /// environment it adds, for `hookc test`. `payload` is the stdin, for
    /// harnesses that route one hookc event to several hooks. The default
    /// runs the event's shim with `/bin/sh`; `None`: no hook was generated.
    fn hook_command(&self, root: &Path, event: Event, payload: &Value) -> Option<HookCommand> {
        let _ = payload;
        let shim = root.join(format!(".hookc/{}/{}.sh", self.id().word(), event.word()));
        shim.is_file().then(|| HookCommand {
            command: common::sh_quote(&shim.to_string_lossy()),
            shell: "/bin/sh",
            env: Vec::new(),
        })
    }

    /// The plugin the harness loads in place of a hook command, if it does.
    fn plugin(&self) -> Option<&'static Plugin> {
        None
    }

    /// Whether the harness asks the user when hookc answers "ask" to this
    /// example's call on `event`; the default is the profile's word.
    fn asks(&self, event: Event, call: &ExampleCall) -> bool {
        let _ = call;
        self.profile().honours_ask.contains(&event)
    }
}

/// A harness that loads hookc's hook as a JavaScript plugin into its own
/// process instead of starting a command: how `hookc test` stands in for it.
pub struct Plugin {
    /// The plugin a build writes, relative to the project root.
    pub file: &'static str,
    /// A node script that loads the plugin as the harness does, runs its
    /// hook on the payload from stdin and prints a one-line JSON report.
    pub driver: &'static str,
    /// What the harness does after the hook ran, from the driver's report.
    pub outcome: fn(report: &str) -> Outcome,
}

/// One finding of [`Harness::machine_checks`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MachineCheck {
    /// All is well.
    Ok(String),
    /// What the user must do or know, and how.
    Note(String, String),
    /// The hooks do not run until this is fixed, and how.
    Fail(String, String),
}

impl MachineCheck {
    pub fn note(what: impl Into<String>, fix: impl Into<String>) -> Self {
        MachineCheck::Note(what.into(), fix.into())
    }

    pub fn fail(what: impl Into<String>, fix: impl Into<String>) -> Self {
        MachineCheck::Fail(what.into(), fix.into())
    }
}

/// A hook command line as a harness runs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookCommand {
    /// The command, as written in the harness's config.
    pub command: String,
    /// The shell that runs it (`sh -c COMMAND`).
    pub shell: &'static str,
    /// Variables the harness sets for its hooks.
    pub env: Vec<(&'static str, String)>,
}

/// The hook command for the `native` event in a JSON config grouped the
/// Claude way (`hooks.<event>[0].hooks[0].command`), as `shell` runs it with
/// `env`; `None` when the file has none.
pub fn grouped_hook_command(
    root: &Path,
    file: &str,
    native: &str,
    shell: &'static str,
    env: Vec<(&'static str, String)>,
) -> Option<HookCommand> {
    Some(HookCommand {
        command: configured(root, file, &format!("/hooks/{native}/0/hooks/0/command"))?,
        shell,
        env,
    })
}

/// The string at `pointer` in the JSON file `file` under `root`: where a
/// generated config keeps a hook's command.
pub fn configured(root: &Path, file: &str, pointer: &str) -> Option<String> {
    let text = std::fs::read_to_string(root.join(file)).ok()?;
    let v: Value = serde_json::from_str(&text).ok()?;
    v.pointer(pointer)?.as_str().map(str::to_owned)
}

/// What `hookc guard` writes and how it exits.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Answer {
    pub stdout: String,
    pub stderr: String,
    /// 0 answered (including "no objection"), 2 an explicit refusal.
    pub exit: i32,
}

impl Answer {
    /// The refusal most harnesses read: exit 2, the reason on stderr, and
    /// nothing on stdout.
    pub fn exit_2(reason: impl std::fmt::Display) -> Answer {
        Answer {
            stdout: String::new(),
            stderr: format!("{reason}\n"),
            exit: 2,
        }
    }

    /// An answer on stdout (JSON, or text a harness hands the model), exit 0.
    pub fn print(text: impl std::fmt::Display) -> Answer {
        Answer {
            stdout: format!("{text}\n"),
            stderr: String::new(),
            exit: 0,
        }
    }
}

/// `pub use` of every harness type, and [`all`]'s table, from the registry.
macro_rules! harness_table {
    ($($(#[$doc:meta])* $module:ident :: $harness:ident = $word:literal,)*) => {
        $(pub use $module::$harness;)*

        static ALL: &[&dyn Harness] = &[$(&$harness),*];

        /// Each registered type reports the id of its own registry line.
        #[cfg(test)]
        const REGISTERED: &[(&dyn Harness, HarnessId)] = &[$((&$harness, HarnessId::$harness)),*];
    };
}

crate::registry::harnesses!(harness_table);

/// Every harness this hookc can emit for, in a fixed order.
pub fn all() -> &'static [&'static dyn Harness] {
    ALL
}

/// Every administrator file a managed build for `os` may write, as paths
/// in the tree (see [`crate::managed`]).
pub fn managed_files(os: crate::managed::Os) -> Vec<String> {
    let mut files = Vec::new();
    for layer in all().iter().filter_map(|h| h.managed_layer()) {
        let switch = layer.only_managed.and_then(|s| s.elsewhere);
        for paths in std::iter::once(layer.file).chain(switch) {
            files.extend(paths.on(os).map(crate::managed::tree_path));
        }
    }
    files
}

pub fn get(id: HarnessId) -> Option<&'static dyn Harness> {
    ALL.iter().copied().find(|h| h.id() == id)
}

/// A rewrite as a refusal that gives the command to run instead: the answer
/// of a harness that cannot change a call (it meets a rewrite only when it
/// runs another harness's hooks), and of any harness when the call's own
/// input is not at hand to rewrite.
pub fn rewrite_as_refusal(verdict: &Verdict) -> Verdict {
    let command = verdict.rewritten.as_deref().unwrap_or("(unknown)");
    Verdict {
        decision: crate::ir::Decision::Deny,
        hits: vec![crate::eval::Hit {
            guard: verdict.guard_names().join(","),
            from: None,
            decision: crate::ir::Decision::Deny,
            reason: format!(
                "The project's policy runs this command in a changed form that hookc cannot hand to this harness. Run this instead: {command}\nWhy: {}",
                verdict.reason()
            ),
            message: verdict.message(),
        }],
        rewritten: None,
    }
}

/// What a harness whose hook changes `/tool_input` needs to hand a call
/// over to hookc's run-time judge: the changed input, the original line,
/// the project (the variable `project_var`, where the harness sets one,
/// else the payload's `cwd`), the
/// home folder, and what to tell the model.
pub struct Handover {
    pub input: Value,
    pub line: String,
    pub project: Option<std::path::PathBuf>,
    pub home: Option<std::path::PathBuf>,
    pub context: String,
}

impl Handover {
    /// `Err` with the verdict refused instead where the payload has no
    /// input to change.
    pub fn of(
        payload: &Value,
        verdict: &Verdict,
        project_var: Option<&str>,
    ) -> Result<Handover, Verdict> {
        let Some(input) = rewritten_input(payload, "/tool_input", verdict) else {
            return Err(supervised_refused(
                verdict,
                "(The call's input could not be changed to run under hookc's run-time judge.)",
            ));
        };
        let guards = verdict.guard_names().join(", ");
        Ok(Handover {
            input,
            line: payload
                .pointer("/tool_input/command")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            project: project_var
                .and_then(std::env::var_os)
                .map(std::path::PathBuf::from)
                .or_else(|| payload.get("cwd").and_then(Value::as_str).map(Into::into)),
            home: std::env::var_os("HOME").map(std::path::PathBuf::from),
            context: format!(
                "hookc could not read all of this command before it runs (guards: {guards}), so it runs under hookc's run-time judge (`hookc exec`), which stops any program or file access the project's policy refuses, with the reason in the output."
            ),
        })
    }
}

/// Whether `verdict` hands a pre-tool call over to hookc's run-time judge:
/// kept supervised, with the command that runs it under `hookc exec`
/// (`runtime::supervised::resolve`). A harness that
/// [supervises](Harness::supervises) answers it with the changed call.
pub fn hands_over(event: Event, verdict: &Verdict) -> bool {
    event == Event::PreTool && verdict.supervises() && verdict.rewritten.is_some()
}

/// `verdict`, on a call hookc would have run under its run-time judge,
/// refused instead: every hit denies, with `why` after its reason.
pub fn supervised_refused(verdict: &Verdict, why: &str) -> Verdict {
    let mut refused = verdict.clone();
    refused.decision = Decision::Deny;
    for hit in &mut refused.hits {
        hit.decision = Decision::Deny;
        hit.reason.push(' ');
        hit.reason.push_str(why);
    }
    refused.rewritten = None;
    refused
}

/// The complete tool input a rewrite hands back: the call's own input object
/// (at `pointer` in the payload) with its `command` replaced. Harnesses that
/// take this object replace the whole input with it, so every other key is
/// kept. `None` when the payload has no such object or the verdict no command.
pub fn rewritten_input(payload: &Value, pointer: &str, verdict: &Verdict) -> Option<Value> {
    let mut input = payload.pointer(pointer)?.as_object()?.clone();
    let command = verdict.rewritten.as_ref()?;
    input.insert("command".to_owned(), Value::String(command.clone()));
    Some(Value::Object(input))
}

/// The answer to a rewrite, for the harnesses that can change a call: `shape`
/// puts the complete new input (see [`rewritten_input`], at `/tool_input`)
/// and the reason into the harness's JSON, with an explicit allow (a new
/// input without one is ignored); the user's message goes to `systemMessage`.
/// Without the call's input object the answer is a refusal that names the
/// command to run.
pub fn rewrite_answer(
    harness: &dyn Harness,
    payload: &Value,
    verdict: &Verdict,
    shape: &dyn Fn(Value, String) -> Value,
) -> Answer {
    let Some(input) = rewritten_input(payload, "/tool_input", verdict) else {
        return harness.answer(Event::PreTool, Some(&rewrite_as_refusal(verdict)));
    };
    let mut out = shape(input, verdict.reason());
    if let Some(message) = verdict.message() {
        out["systemMessage"] = Value::String(message);
    }
    Answer::print(out)
}

/// One guard tool as regex fragments of a harness's tool names, for the
/// harnesses that name MCP tools `mcp__<server>__<tool>` (Claude Code, and
/// Codex, which follows it; Copilot CLI's own events use `<server>-<tool>`,
/// see its `matcher_names`). Another harness's native name: none.
pub fn mcp_underscore_names(profile: &Profile, tool: &Tool) -> Vec<String> {
    match tool {
        // The guests' names too: they run this harness's hooks.
        Tool::Known { tool } => profile
            .tool_names(*tool)
            .iter()
            .chain(profile.guests.iter().flat_map(|g| g.tool_names(*tool)))
            .map(|n| regex::escape(n))
            .collect(),
        Tool::Mcp { server, tool } => vec![McpNames::DoubleUnderscore.matcher(server, tool)],
        Tool::Native { harness, name } if *harness == profile.id => vec![regex::escape(name)],
        Tool::Native { .. } => Vec::new(),
    }
}

/// The verdict on a call of `guest`, which runs a host's hooks and reads
/// only an allow or a refusal (exit 2, the reason on stderr): what would
/// ask, be run under the run-time judge or be rewritten is refused, with
/// what to do instead.
pub fn guest_verdict(guest: &Guest, verdict: Option<&Verdict>) -> Option<Verdict> {
    let v = verdict?;
    if v.decision == Decision::Rewrite {
        return Some(rewrite_as_refusal(v));
    }
    if !matches!(v.decision, Decision::Ask | Decision::Supervise) {
        return Some(v.clone());
    }
    let mut refused = v.clone();
    refused.decision = Decision::Deny;
    refused.rewritten = None;
    for hit in &mut refused.hits {
        let why = match hit.decision {
            Decision::Ask => format!(
                "({} cannot ask the user from a hook, so hookc refuses: ask the user to run it.)",
                guest.name
            ),
            Decision::Supervise => format!(
                "({} cannot hand the call to hookc's run-time judge.)",
                guest.name
            ),
            _ => continue,
        };
        hit.decision = Decision::Deny;
        hit.reason = format!("{} {why}", hit.reason);
    }
    Some(refused)
}

/// `^(?:A|B)$` over already-regex-safe alternatives, sorted and deduplicated
/// so output does not depend on guard order.
pub fn anchored_alternation(mut alternatives: Vec<String>) -> String {
    alternatives.sort();
    alternatives.dedup();
    format!("^(?:{})$", alternatives.join("|"))
}

/// Read the string at `pointer` (JSON pointer) or say what is missing.
pub fn string_at<'v>(payload: &'v Value, pointer: &str) -> Result<&'v str, String> {
    match payload.pointer(pointer) {
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(format!(
            "`{}` should be a string, found {}",
            pointer.trim_start_matches('/').replace('/', "."),
            json_type(other)
        )),
        None => Err(format!(
            "the payload has no `{}`",
            pointer.trim_start_matches('/').replace('/', ".")
        )),
    }
}

pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `mcp__server__tool` → (server, tool), the MCP naming of Claude Code and
/// Codex (see [`McpNames::split`]).
pub fn split_mcp(name: &str) -> Option<(String, String)> {
    McpNames::DoubleUnderscore.split(name)
}

/// The files an `apply_patch`-style patch touches.
#[derive(Debug, Default, PartialEq)]
pub struct PatchFiles {
    /// Files the patch creates (`*** Add File:`, and the target of `*** Move to:`).
    pub added: Vec<String>,
    /// Files the patch changes or deletes (`*** Update File:`, `*** Delete File:`).
    pub changed: Vec<String>,
}

impl PatchFiles {
    /// What the patch is as a file tool: an edit where it changes or
    /// deletes files, a write where it adds them (many patches are both),
    /// the edit first. Empty for a patch that names no file.
    pub fn kinds(&self) -> Vec<crate::ir::ToolKind> {
        use crate::ir::ToolKind;
        [
            (!self.changed.is_empty()).then_some(ToolKind::Edit),
            (!self.added.is_empty()).then_some(ToolKind::Write),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

/// Read the file names out of a patch in the `*** Begin Patch` format.
pub fn patch_files(patch: &str) -> PatchFiles {
    let mut files = PatchFiles::default();
    for line in patch.lines() {
        let line = line.trim_start();
        let Some(rest) = line.strip_prefix("*** ") else {
            continue;
        };
        let (list, path) = if let Some(p) = rest.strip_prefix("Add File:") {
            (&mut files.added, p)
        } else if let Some(p) = rest.strip_prefix("Move to:") {
            (&mut files.added, p)
        } else if let Some(p) = rest.strip_prefix("Update File:") {
            (&mut files.changed, p)
        } else if let Some(p) = rest.strip_prefix("Delete File:") {
            (&mut files.changed, p)
        } else {
            continue;
        };
        let path = path.trim();
        if !path.is_empty() {
            list.push(path.to_owned());
        }
    }
    files
}

/// A verdict of one guard `g` with `reason`, for the harness files' tests
/// of their answers (a rewrite carries `git push` as the new command).
#[cfg(test)]
pub(crate) fn test_verdict(decision: crate::ir::Decision, reason: &str) -> Verdict {
    Verdict {
        decision,
        hits: vec![crate::eval::Hit {
            guard: "g".into(),
            from: None,
            decision,
            reason: reason.into(),
            message: None,
        }],
        rewritten: Some("git push".into()).filter(|_| decision == crate::ir::Decision::Rewrite),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::FileFormat;

    /// A guest reads only allow and refuse: a question, a supervised call
    /// and a rewrite become refusals that say what to do; the rest stands.
    #[test]
    fn a_guest_is_answered_allow_or_refuse() {
        use crate::ir::Decision::*;
        let guest = Guest {
            name: "Devin CLI",
            tools: &[],
            root_var: "DEVIN_PROJECT_DIR",
        };
        let asked = guest_verdict(&guest, Some(&test_verdict(Ask, "Ask first."))).unwrap();
        assert_eq!((asked.decision, asked.hits[0].decision), (Deny, Deny));
        assert!(
            asked
                .reason()
                .starts_with("Ask first. (Devin CLI cannot ask the user")
        );
        let supervised =
            guest_verdict(&guest, Some(&test_verdict(Supervise, "Write it plainly."))).unwrap();
        assert_eq!(supervised.decision, Deny);
        assert!(supervised.reason().contains("run-time judge"));
        let rewritten = guest_verdict(&guest, Some(&test_verdict(Rewrite, "Quiet."))).unwrap();
        assert_eq!(rewritten.decision, Deny);
        assert!(rewritten.reason().contains("Run this instead: git push"));
        for kept in [Allow, Deny, Context] {
            let v = test_verdict(kept, "x");
            assert_eq!(guest_verdict(&guest, Some(&v)), Some(v));
        }
        assert_eq!(guest_verdict(&guest, None), None);
    }

    /// What every registered harness must bring. The [`Harness`] trait makes
    /// the code pieces (emitter, payload decoder, answer, outcome) and
    /// [`Profile`]'s fields (no defaults) the data pieces compile-time
    /// requirements; this checks that the data is whole and consistent.
    #[test]
    fn every_registered_harness_is_complete() {
        let mut seen = Vec::new();
        assert_eq!(REGISTERED.len(), HarnessId::ALL.len());
        for (h, id) in REGISTERED {
            assert_eq!(h.id(), *id, "{id}'s type reports another harness's profile");
        }
        for h in all() {
            let p = h.profile();
            let who = p.id.word();
            assert!(!seen.contains(&p.id), "{who} is registered twice");
            seen.push(p.id);
            assert!(get(p.id).is_some_and(|g| std::ptr::eq(g.profile(), p)));
            assert!(!p.name.is_empty(), "{who}: no name");
            assert!(!p.events.is_empty(), "{who}: no events");
            assert!(!p.hints.is_empty(), "{who}: no `hookc init` hints");
            let mut names: Vec<&str> = p.events.iter().map(|(_, n)| *n).collect();
            names.extend(p.more_events);
            let count = names.len();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), count, "{who}: an event name is listed twice");
            for e in p.can_block.iter().chain(p.honours_ask) {
                assert!(
                    p.event_name(*e).is_some(),
                    "{who}: {e} is not one of its events"
                );
            }
            for (tool, natives) in p.tools {
                assert!(!natives.is_empty(), "{who}: no names for {tool}");
            }
            let json_files = p.files.iter().any(|f| f.format == FileFormat::HooksJson);
            assert_eq!(
                json_files,
                p.json.is_some(),
                "{who}: a JSON hooks file and its lint spec come together"
            );
            if p.json.is_some() {
                assert!(
                    p.flavour.is_some(),
                    "{who}: JSON matchers without a regex flavour"
                );
            }
            for f in p.files {
                // An empty `dir` is a file at the root (Crush's `crush.json`).
                assert!(!f.names.is_empty(), "{who}: {f:?}");
            }
            if let Some(refusal) = p.refusal {
                let shim = crate::emit::render_shim(
                    &crate::emit::Shim {
                        header: "# test".into(),
                        harness: who,
                        harness_name: p.name,
                        event: "pre-tool",
                        native_event: p.events[0].1,
                        on_error: "deny",
                        policy_from_shim: "../policy.json",
                        timeout: 10,
                        deadline: "8.5".into(),
                        outer: true,
                        not_found_fix: "'x'".into(),
                        not_hookc_fix: "'y'".into(),
                        managed_hookc: None,
                    },
                    refusal,
                );
                assert!(shim.starts_with("#!/bin/sh"), "{who}: {shim}");
            }
            // The profile's word on a failing hook agrees with the harness's
            // own decoding of one (hookc's Cursor entries set `failClosed`).
            if p.event_name(Event::PreTool).is_some() {
                let failed = Observation {
                    exit: Some(1),
                    ..Observation::default()
                };
                let proceeds = h.outcome(Event::PreTool, &failed).proceeds;
                assert_eq!(
                    proceeds,
                    p.on_hook_error == crate::profile::OnHookError::Proceeds,
                    "{who}: on_hook_error is {:?}, but exit 1 {} the call",
                    p.on_hook_error,
                    if proceeds { "lets through" } else { "refuses" }
                );
                // Where the profile says a late hook is refused (so the shim
                // keeps no clock of its own), the harness's decoding of a
                // timeout agrees.
                let late = Observation {
                    timed_out: true,
                    ..Observation::default()
                };
                if p.late_hook != crate::profile::LateHook::Proceeds {
                    assert!(
                        !h.outcome(Event::PreTool, &late).proceeds,
                        "{who}: late_hook is {:?}, but a timeout lets the call through",
                        p.late_hook
                    );
                }
            }
        }
    }

    /// Glob a word: each character kept, or made a `?` or a `*`.
    fn globbed(word: &str, how: &[u8]) -> String {
        word.chars()
            .zip(how.iter().chain(std::iter::repeat(&0)))
            .map(|(c, h)| match h {
                6 => "?".to_owned(),
                7 => "*".to_owned(),
                _ => c.to_string(),
            })
            .collect()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(
            crate::test_cases("HOOKC_FUZZ_CASES", 512)
        ))]

        /// Every MCP call `hookc guard` applies a guard's server and tool
        /// globs to also matches the matcher the build wrote for them, so
        /// the harness runs the hook. (Names without line breaks: a
        /// harness's regex `.` does not match one, and MCP names hold none.)
        #[test]
        fn the_emitted_mcp_matcher_covers_every_call_the_guard_applies_to(
            form in proptest::sample::select(
                McpNames::ALL.into_iter().filter(|f| f.parts().is_some()).collect::<Vec<_>>()
            ),
            server in "[ab_.-]{0,4}",
            tool in "[ab_.()-]{0,4}",
            server_how in proptest::collection::vec(0u8..8, 4),
            tool_how in proptest::collection::vec(0u8..8, 4),
            other in proptest::option::of("[a-z_.-]{0,10}"),
        ) {
            let server_glob = globbed(&server, &server_how);
            let tool_glob = globbed(&tool, &tool_how);
            let (prefix, sep) = form.parts().unwrap();
            let name = other.unwrap_or_else(|| format!("{prefix}{server}{sep}{tool}"));
            let applies = form.split(&name).is_some_and(|(s, t)| {
                crate::eval::glob_word(&server_glob, &s) && crate::eval::glob_word(&tool_glob, &t)
            });
            let matcher = anchored_alternation(vec![form.matcher(&server_glob, &tool_glob)]);
            let fires = regex::Regex::new(&matcher).unwrap().is_match(&name);
            proptest::prop_assert!(!applies || fires, "{name} is guarded by {server_glob}/{tool_glob} but {matcher} misses it");
        }
    }

    /// The bundled policy has no `targets`, so it builds every registered
    /// harness: the golden files in `out/`, lint and conformance reach a
    /// new harness without a list to join.
    #[test]
    fn the_bundled_policy_builds_every_harness() {
        let policy = include_str!("../../policy.kdl");
        assert!(
            !policy.lines().any(|l| l.starts_with("targets ")),
            "policy.kdl names its targets: the golden files, lint and conformance build every harness from it, so it must not"
        );
    }

    /// The `files` pattern of one hook in `.pre-commit-hooks.yaml`.
    fn pre_commit_files(id: &str) -> regex::Regex {
        let yaml = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml"),
        )
        .unwrap();
        let hook = yaml.split(&format!("\n- id: {id}\n")).nth(1).unwrap();
        let files = hook
            .lines()
            .find_map(|l| l.trim().strip_prefix("files: "))
            .unwrap();
        regex::Regex::new(files).unwrap()
    }

    /// The pre-commit framework runs `hookc check` and `hookc build` when a
    /// staged file is one a build writes into the project, for any harness.
    #[test]
    fn pre_commit_build_hooks_cover_every_file_a_build_writes() {
        let text = include_str!("../../policy.kdl");
        let file = crate::source::SourceFile::new("policy.kdl", text);
        let mut diags = crate::diag::Diagnostics::default();
        let mut policy = crate::compile::compile_source(&file, &mut diags).unwrap();
        policy.targets = all().iter().map(|h| h.id()).collect();
        let artifacts = crate::compile::emit(&file, &policy, &mut diags);
        for id in ["hookc-check", "hookc-build"] {
            let files = pre_commit_files(id);
            for a in artifacts
                .iter()
                .filter(|a| a.scope == crate::emit::Scope::Project)
            {
                assert!(files.is_match(&a.path), "{id} misses {}", a.path);
            }
        }
    }

    /// The pre-commit framework runs `hookc lint` when a staged file is in a
    /// folder some harness reads hooks from.
    #[test]
    fn pre_commit_lint_hook_covers_every_hook_folder() {
        let files = pre_commit_files("hookc-lint");
        for h in all() {
            for f in h.profile().files.iter().filter(|f| f.in_project) {
                let name = f.names[0].replace('*', "x");
                let sample = match f.dir {
                    "" => name,
                    dir => format!("{}/{name}", dir.replace('*', "x")),
                };
                assert!(
                    files.is_match(&sample),
                    "{sample} ({}) is not linted by pre-commit",
                    h.id()
                );
            }
        }
    }

    #[test]
    fn patch_files_are_read_from_the_directives() {
        let patch = "*** Begin Patch\n*** Add File: docs/new.md\n+hello\n*** Update File: src/a.rs\n*** Move to: src/b.rs\n@@\n-x\n+y\n*** Delete File: .env\n*** End Patch\n";
        assert_eq!(
            patch_files(patch),
            PatchFiles {
                added: vec!["docs/new.md".into(), "src/b.rs".into()],
                changed: vec!["src/a.rs".into(), ".env".into()],
            }
        );
        assert_eq!(patch_files("not a patch"), PatchFiles::default());
    }
}
