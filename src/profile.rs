//! Facts about a harness, as data: the type each `harness/<name>.rs` fills in.
//!
//! This module sits low in the pipeline (it needs only [`ir`](crate::ir)'s
//! words), so that everything above can read a harness's facts: the emitter
//! context (`emit`), the harnesses themselves (`harness`, which also holds
//! the registry of every [`Profile`]), and the consumers of that registry
//! (`lint`, `init`, `resolve`, the book). Every cross-harness list is derived
//! from the profiles; nothing above names a harness's files, events, regex
//! flavour or MCP naming on its own.

use crate::ir::{Event, HarnessId, ToolKind};

/// Facts about a harness, as data.
#[derive(Debug)]
pub struct Profile {
    pub id: HarnessId,
    /// The product's name, for people.
    pub name: &'static str,
    /// hookc event → the harness's own event name; a missing event is not supported.
    pub events: &'static [(Event, &'static str)],
    /// Every other event name the harness accepts (ones hookc never emits),
    /// exact case: what `hookc lint` accepts and what recognises a payload.
    pub more_events: &'static [&'static str],
    /// hookc tool → the harness's own tool names.
    pub tools: &'static [(ToolKind, &'static [&'static str])],
    /// Events on which the harness can refuse (deny, or block a stop).
    pub can_block: &'static [Event],
    /// Events on which the harness honours `ask`.
    pub honours_ask: &'static [Event],
    /// Whether a pre-tool hook can hand back a changed shell command
    /// (`rewrite`), paired with whatever the harness needs to apply it.
    pub can_rewrite: bool,
    /// Options accepted in `harness "<id>" { … }`.
    pub options: &'static [OptionSpec],
    /// What the user must still do after a build, in one line each.
    pub todo: &'static [&'static str],
    /// The hook files the harness reads that `hookc lint` checks (and finds
    /// in a project), by folder and name.
    pub files: &'static [HookFile],
    /// How the harness reads a JSON hooks file; `None`: its hooks are not JSON.
    pub json: Option<JsonSpec>,
    /// The regex language of its matchers; `None`: it has no matchers.
    pub flavour: Option<Flavour>,
    /// How it names MCP tools in the matchers of one of its own events;
    /// `None`: not established, or no matchers.
    pub mcp_names: fn(event: &str) -> Option<McpNames>,
    /// The handlebars template of the shell that refuses a call in the
    /// harness's own deny channel (`templates/<harness>/refuse.sh.hbs`),
    /// for the shims; `None`: the harness runs no shims.
    pub refusal: Option<&'static str>,
    /// What the harness does when a hook command fails (exits 1, crashes).
    pub on_hook_error: OnHookError,
    /// The time limit, in seconds, the harness gives a hook when it is not
    /// the policy's `timeout`: one the harness fixes itself where hookc
    /// cannot write one (Cline: 30 s in VS Code, 120 s in its CLI), or a
    /// fixed one hookc writes (Kimi Code: 600). `None`: hookc writes the
    /// policy's `timeout` into each hook entry, in the harness's unit, or the
    /// harness documents no limit at all (Windsurf). See
    /// [`hook_timeout`](Profile::hook_timeout).
    pub own_timeout: Option<u32>,
    /// What the harness does with a call whose hook has not answered when
    /// its time runs out (see [`refuses_late_hooks`](Profile::refuses_late_hooks)).
    pub late_hook: LateHook,
    /// Files and folders that show a project uses the harness (`hookc init`);
    /// a folder is written with a trailing `/`. A guess about projects, in
    /// the order they are most telling.
    pub hints: &'static [&'static str],
    /// Files that control the harness's hooks, which self-protection keeps
    /// the agent from changing: the ones hookc writes and the ones the
    /// harness also reads hooks, or a switch for them, from (local and
    /// user-level settings). Globs in the language of `path`; a folder
    /// stands for everything below it. `$VAR/rest` is where the harness
    /// looks when its environment sets `VAR` (`$CODEX_HOME/config.toml`):
    /// `hookc guard` protects it on the machine where it is set (see
    /// `protect::moved_refusal`), since the compiled policy is shared with
    /// the repository.
    pub protected: &'static [&'static str],
    /// Files among them that an edit must be refused for, checked as
    /// examples of the self-protection guard on every build.
    pub protected_examples: &'static [&'static str],
    /// Commands of the harness's own program that turn its hooks away from
    /// hookc's without naming a protected file (Kiro CLI's `kiro-cli
    /// settings chat.defaultAgent …` writes its settings from inside the
    /// program): each a command pattern in policy syntax, and a line it
    /// refuses. Self-protection refuses them as it refuses a write to those
    /// settings.
    pub settings_commands: &'static [(&'static str, &'static str)],
    /// Harnesses whose hook files this one runs as its own (VS Code runs
    /// Copilot CLI's `.github/hooks/*.json`). When the policy targets both,
    /// this harness writes no hooks of its own and the other's hooks answer
    /// its calls in its protocol; `hookc guard` must then decide, not stay
    /// silent as it does for a harness whose own hooks also run.
    pub hooks_from: &'static [HarnessId],
    /// Harnesses whose hook files this one runs beside its own, calling its
    /// tools by their names there, with payloads `hookc guard` tells apart
    /// and answers in this harness's protocol (Cursor and Copilot CLI run
    /// `.claude/settings.json`). Where the policy targets the other harness
    /// alone, the build says these hooks reach this one too.
    pub also_runs: &'static [HarnessId],
    /// Harnesses hookc does not target that also run this harness's hook
    /// files, calling their tools by names of their own (Devin CLI runs
    /// `.claude/settings.json`, and its shell tool is `exec`, which a
    /// matcher `Bash` never matches: a silent fail-open). The matchers hookc
    /// writes name their tools too, and `hookc guard` answers their calls
    /// in the one channel they are known to read.
    pub guests: &'static [Guest],
    /// Where the harness runs a project's hook commands, which decides
    /// whether a relative script path holds (`hookc lint`'s
    /// `lint-hook-path`).
    pub hook_dir: HookDir,
    /// The variables the harness sets for a project's hook commands, that
    /// a command may build a path on (`$CLAUDE_PROJECT_DIR`); `None` where
    /// that is not established.
    pub hook_vars: Option<HookVars>,
}

/// A harness that runs another one's hook files with tools of its own
/// names (see [`Profile::guests`]).
#[derive(Debug)]
pub struct Guest {
    /// The product's name, for people.
    pub name: &'static str,
    /// hookc tool → the guest's own tool names.
    pub tools: &'static [(ToolKind, &'static [&'static str])],
    /// The variable that names the project where the guest's payload
    /// has no `cwd`.
    pub root_var: &'static str,
}

impl Guest {
    pub fn tool_names(&self, tool: ToolKind) -> &'static [&'static str] {
        self.tools
            .iter()
            .find(|(t, _)| *t == tool)
            .map_or(&[], |(_, names)| names)
    }
}

/// Where a harness runs a project's hook commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookDir {
    /// Always the project root: a path relative to it holds.
    ProjectRoot,
    /// The session's current directory, which can be a subfolder of the
    /// project; `root` is how a command names the project's top instead
    /// (`"$CLAUDE_PROJECT_DIR"`), `sure`: the notes say the directory moves.
    Session { root: &'static str, sure: bool },
    /// Not established.
    Unknown,
}

/// The variables a harness sets for a project's hook commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HookVars {
    pub set: &'static [&'static str],
    /// The notes list them all (else another harness's variable here is
    /// only likely unset).
    pub complete: bool,
}

impl Profile {
    /// The seconds a hook of this harness has to answer under a policy
    /// whose `timeout` is `policy_timeout`: the policy's, or the harness's
    /// own limit where that is shorter. The policy's `timeout` is the
    /// longest a guard may take even where the harness would wait longer
    /// (Kimi Code's 600 s). The shims' deadline is a share of this.
    pub fn hook_timeout(&self, policy_timeout: u32) -> u32 {
        self.own_timeout
            .map_or(policy_timeout, |own| own.min(policy_timeout))
    }

    /// Whether the harness refuses a call whose hook ran out of time, with
    /// the hooks `policy` builds. Where it always does, its shims leave the
    /// time to it; elsewhere they kill a late guard themselves.
    pub fn refuses_late_hooks(&self, policy: &crate::ir::Policy) -> bool {
        match self.late_hook {
            LateHook::Proceeds => false,
            LateHook::Refuses => true,
            LateHook::RefusesWith(option) => policy
                .harness_options
                .get(&self.id)
                .and_then(|o| o.get(option))
                .and_then(serde_json::Value::as_bool)
                .unwrap_or(true),
        }
    }

    pub fn event_name(&self, event: Event) -> Option<&'static str> {
        self.events
            .iter()
            .find(|(e, _)| *e == event)
            .map(|(_, n)| *n)
    }

    /// The hookc event a native event name is, in any case (as the
    /// harnesses read event names).
    pub fn event_called(&self, native: &str) -> Option<Event> {
        self.events
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(native))
            .map(|(e, _)| *e)
    }

    pub fn tool_names(&self, tool: ToolKind) -> &'static [&'static str] {
        self.tools
            .iter()
            .find(|(t, _)| *t == tool)
            .map_or(&[], |(_, names)| names)
    }

    /// The neutral kind of a native tool name, if hookc knows it.
    pub fn tool_kind(&self, native: &str) -> Option<ToolKind> {
        self.tools
            .iter()
            .find(|(_, names)| names.contains(&native))
            .map(|(t, _)| *t)
    }

    /// The guest that calls a tool `native` (a name that is not the
    /// harness's own), and the tool's neutral kind.
    pub fn guest_tool(&self, native: &str) -> Option<(ToolKind, &'static Guest)> {
        if self.tool_kind(native).is_some() {
            return None;
        }
        self.guests.iter().find_map(|g| {
            g.tools
                .iter()
                .find(|(_, names)| names.contains(&native))
                .map(|(t, _)| (*t, g))
        })
    }

    /// Whether `name` is one of the harness's event names (exact case).
    pub fn accepts_event(&self, name: &str) -> bool {
        self.events.iter().any(|(_, n)| *n == name) || self.more_events.contains(&name)
    }

    /// Every event name the harness accepts: the ones hookc emits, then the rest.
    pub fn all_events(&self) -> Vec<&'static str> {
        let mut all: Vec<&'static str> = self.events.iter().map(|(_, n)| *n).collect();
        for name in self.more_events {
            if !all.contains(name) {
                all.push(name);
            }
        }
        all
    }
}

/// No MCP naming established (the default for [`Profile::mcp_names`]).
pub fn no_mcp_names(_event: &str) -> Option<McpNames> {
    None
}

#[derive(Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    pub doc: &'static str,
    /// A switch that is on unless the policy says `#false`, and whose
    /// `#false` weakens the hooks: a policy that extends another may not
    /// turn it off.
    pub safeguard: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    Bool,
    Count,
}

impl OptionKind {
    pub fn describe(self) -> &'static str {
        match self {
            OptionKind::Bool => "`#true` or `#false`",
            OptionKind::Count => "a whole number",
        }
    }
}

/// One hook as a hand-written hook file holds it (`hookc import` reads these).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenHook {
    /// Where it is: `.claude/settings.json PreToolUse[0]`.
    pub origin: String,
    /// The harness's event name as written.
    pub event: String,
    pub matcher: Option<String>,
    /// The command it runs; empty for a hook without one. With `args`, the
    /// program alone.
    pub command: String,
    /// The arguments of an exec-form hook (Claude Code's `args`: no shell,
    /// each one argument as written); `None` for a shell command.
    pub args: Option<Vec<String>>,
}

/// One kind of hook file a harness reads.
#[derive(Debug)]
pub struct HookFile {
    /// Its folder below the project root, `/`-separated; a component may
    /// be a glob (`.kimi*`).
    pub dir: &'static str,
    /// Globs of its file name (`settings*.json`).
    pub names: &'static [&'static str],
    pub format: FileFormat,
    /// Whether `hookc lint` looks for it in a project; a user-level file
    /// (`~/.config/kimi-code/config.toml`) is only linted when given by path.
    pub in_project: bool,
}

impl HookFile {
    /// Whether `path` (`/`-separated) ends in this folder and a matching
    /// name; a file with no folder (`dir` empty: Crush's `crush.json`, which
    /// Crush reads in any folder of a project) by its name alone.
    pub fn matches(&self, path: &str) -> bool {
        let mut parts = path.rsplit('/');
        let Some(name) = parts.next() else {
            return false;
        };
        if !self.names.iter().any(|g| glob_match(g, name)) {
            return false;
        }
        self.dir.is_empty()
            || self
                .dir
                .rsplit('/')
                .all(|d| parts.next().is_some_and(|p| glob_match(d, p)))
    }

    /// How many folders the file sits below its project root.
    pub fn depth(&self) -> usize {
        if self.dir.is_empty() {
            0
        } else {
            self.dir.split('/').count()
        }
    }
}

/// What a harness does with a call whose hook has not answered in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LateHook {
    /// The call goes ahead (or nobody has seen what happens: closed world).
    Proceeds,
    /// The call is refused (Cursor with the `failClosed` hookc writes).
    Refuses,
    /// Refused while this harness option is on, as it is by default
    /// (Claude Code's `on-failure-block`).
    RefusesWith(&'static str),
}

/// What a harness does with a call when its hook command fails (`exit 1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnHookError {
    /// The call goes ahead: a failing guard protects nothing.
    Proceeds,
    /// The call goes ahead unless the entry sets `failClosed` (Cursor).
    ProceedsUnlessFailClosed,
    /// The call is refused.
    Refuses,
}

/// What `hookc lint` reads a hook file as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileFormat {
    /// A JSON hooks file, read by the harness's [`JsonSpec`].
    HooksJson,
    /// Codex CLI's `config.toml`, with the top-level settings it knows
    /// (`--strict-config` refuses others).
    CodexConfig { settings: &'static [&'static str] },
    /// Kimi Code's `config.toml` with `[[hooks]]` tables, with the keys a
    /// table may have (another key drops every hook).
    KimiToml { keys: &'static [&'static str] },
    /// An OpenCode plugin module.
    OpencodePlugin,
    /// Mistral Vibe's `hooks.toml`: `[[hooks]]` tables, unknown keys
    /// ignored.
    VibeHooks,
    /// A Kiro CLI agent (`.kiro/agents/*.json`), whose `hooks` Kiro CLI 2.x
    /// runs while the agent is the session's; an unknown key at its top
    /// level drops the whole agent.
    KiroAgent,
    /// A Kiro CLI 3 hook file (`.kiro/hooks/*.json`), run whatever the agent.
    KiroHooks,
}

impl FileFormat {
    /// Whether the file is TOML.
    pub fn is_toml(self) -> bool {
        matches!(
            self,
            FileFormat::CodexConfig { .. } | FileFormat::KimiToml { .. } | FileFormat::VibeHooks
        )
    }
}

/// `*` (any run of characters) and `?` (one character) over a name.
pub fn glob_match(glob: &str, name: &str) -> bool {
    fn go(g: &[char], n: &[char]) -> bool {
        match g.split_first() {
            None => n.is_empty(),
            Some(('*', rest)) => (0..=n.len()).any(|i| go(rest, &n[i..])),
            Some(('?', rest)) => !n.is_empty() && go(rest, &n[1..]),
            Some((c, rest)) => n.first() == Some(c) && go(rest, &n[1..]),
        }
    }
    let g: Vec<char> = glob.chars().collect();
    let n: Vec<char> = name.chars().collect();
    go(&g, &n)
}

/// What a harness's JSON reader accepts beyond strict JSON (RFC 8259).
/// None of them takes JSON5 (unquoted keys, single quotes, missing commas,
/// hex or non-finite numbers); some take comments, some trailing commas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dialect {
    pub comments: bool,
    pub trailing_commas: bool,
    /// Whether a leading byte order mark is skipped (`JSON.parse`, serde_json and
    /// Go refuse one; Claude Code strips it before parsing).
    pub bom: bool,
}

impl Dialect {
    /// Strict JSON: `JSON.parse`, serde_json, Go's `encoding/json`.
    pub const STRICT: Dialect = Dialect {
        comments: false,
        trailing_commas: false,
        bom: false,
    };
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Matching {
    /// Plain names (letters, digits, `_`, `|` and the listed extra characters) match
    /// exactly; anything else is an unanchored regex.
    ExactWords(&'static str),
    /// Always an unanchored (JavaScript or Rust) regex search.
    Unanchored,
    /// Always an anchored full-match regex.
    Anchored,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Seconds,
    Millis,
}

/// The shape of a harness's JSON hooks file, as `hookc lint` checks it.
#[derive(Debug)]
pub struct JsonSpec {
    /// The JSON the harness reads the file as.
    pub dialect: Dialect,
    /// Top-level keys, when the harness rejects others.
    pub strict_root: Option<&'static [&'static str]>,
    /// `version` at the root: `Some(true)` required, `Some(false)` recommended.
    pub version: Option<bool>,
    /// Entries are `{matcher, hooks: [handler]}` groups (else flat handlers; Copilot takes both).
    pub groups: bool,
    pub flat_ok: bool,
    pub require_type: bool,
    pub types: &'static [&'static str],
    pub command_keys: &'static [&'static str],
    /// The keys of a handler's timeout, the one the harness reads first
    /// (Copilot CLI reads `timeoutSec`, else `timeout`).
    pub timeout_keys: &'static [&'static str],
    pub unit: Unit,
    pub matching: Matching,
    /// A matcher of `"*"` means every tool (else it is a broken regex).
    pub star_is_all: bool,
    /// Names a matcher also matches a tool by, each with the tool name it
    /// stands for (Codex matches `Edit` and `Write` against `apply_patch`).
    pub matcher_aliases: &'static [(&'static str, &'static str)],
    /// The profile's `tools` (with MCP tools) are every tool the harness's
    /// hooks see, so another harness's name for a tool it lacks matches
    /// nothing (Codex: no read or fetch tool).
    pub tools_closed: bool,
    /// What the matcher of an event is tested against; only a tool name's
    /// matcher gets the tool-name rules (names, case, anchoring).
    pub matcher_subject: fn(event: &str) -> MatcherSubject,
    /// Known event names match in any case (Antigravity): a wrong case then
    /// still runs, and is only a warning.
    pub events_any_case: bool,
    /// The keys the harness reads on entries, when it checks them (Antigravity).
    pub strict_keys: Option<StrictKeys>,
    /// The harness reads a hook's whole stdout as its JSON reply, so a
    /// script that echoes plain text there breaks its answer.
    pub stdout_is_reply: bool,
    /// What the harness does, on each event, with plain text (not JSON) a
    /// hook prints to stdout and exits 0 with.
    pub plain_stdout: fn(event: &str) -> PlainStdout,
}

/// What a harness does with plain text on a hook's stdout (exit 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlainStdout {
    /// Logged and ignored: a word such as `deny` decides nothing.
    Ignored,
    /// Added to the model's context.
    Context,
    /// The event wants JSON: plain text makes the hook fail.
    Invalid,
    /// Turned into an allow (Gemini CLI: the text becomes a message).
    Allows,
    /// The call is refused: plain text is not the JSON the event needs.
    Refuses,
    /// Not established.
    Unknown,
}

/// What a harness tests a matcher against, on one event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatcherSubject {
    /// The tool's name.
    ToolName,
    /// The whole command line (Cursor's `beforeShellExecution`): the matcher
    /// is a prefilter on the command, not a tool name, and is meant to be
    /// found anywhere in it.
    CommandLine,
    /// Something else: a subagent type, a fixed word.
    Other,
}

/// Every event's matcher is tested against the tool name (the default for
/// [`JsonSpec::matcher_subject`]).
pub fn tool_name_matchers(_event: &str) -> MatcherSubject {
    MatcherSubject::ToolName
}

/// What a Claude-shaped harness (Claude Code, Codex, Droid, Qwen Code,
/// Auggie) tests a matcher against: the tool name on its tool events, and
/// something else on the others (a session's source, a subagent's type, a
/// notification's kind).
pub fn claude_shaped_matchers(event: &str) -> MatcherSubject {
    match event {
        "PreToolUse" | "PostToolUse" | "PostToolUseFailure" | "PermissionRequest"
        | "PermissionDenied" => MatcherSubject::ToolName,
        _ => MatcherSubject::Other,
    }
}

/// The keys a harness reads on its JSON hook entries, for a harness that
/// discards the others or drops the whole file for some of them.
#[derive(Debug)]
pub struct StrictKeys {
    /// Keys of a handler; any other is quietly discarded.
    pub handler: &'static [&'static str],
    /// Keys of a `{matcher, hooks}` group; any other is quietly discarded.
    pub group: &'static [&'static str],
    /// `(type, key, what)`: a handler of this `type` with this key drops the
    /// whole file; `what` names the handler for people ("a `command` hook").
    pub fatal: &'static [(&'static str, &'static str, &'static str)],
    /// A `timeout` that is not a whole number drops the whole file.
    pub whole_timeout: bool,
    /// The events whose entries are `{matcher, hooks}` groups; the others'
    /// are flat handlers.
    pub grouped_events: &'static [&'static str],
}

/// The regex language a harness compiles matchers in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    /// JavaScript's `RegExp`, without flags.
    EcmaScript,
    /// Rust's `regex` crate.
    Rust,
    /// Go's RE2, checked with Rust's `regex`.
    Re2,
    /// Not established (Copilot CLI): a matcher should work in both of the candidates.
    EcmaScriptOrRust,
}

/// How a harness names MCP tools in the matchers of one event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum McpNames {
    /// `mcp__<server>__<tool>` (Claude Code, Codex, Kimi Code; Copilot's
    /// PascalCase events, which follow Claude).
    DoubleUnderscore,
    /// `mcp_<server>_<tool>` (Gemini CLI since 0.34).
    SingleUnderscore,
    /// `MCP:<tool>` on Cursor's tool events (no server).
    CursorTool,
    /// `<server>-<tool>` (Copilot CLI's own events; seen in its tool lists,
    /// not verified for hooks).
    ServerDashTool,
    /// `<server>_<tool>` (OpenCode's plugin calls).
    ServerUnderscoreTool,
    /// `<server>__<tool>` (Goose, whose extensions are MCP servers).
    ServerDoubleUnderscoreTool,
    /// `@<server>/<tool>` (Kiro CLI, whose matchers are exact names or
    /// globs, not regexes).
    AtServerSlashTool,
}

impl McpNames {
    /// Every form, in the order [`McpNames`] lists them.
    pub const ALL: [McpNames; 7] = [
        McpNames::DoubleUnderscore,
        McpNames::SingleUnderscore,
        McpNames::CursorTool,
        McpNames::ServerDashTool,
        McpNames::ServerUnderscoreTool,
        McpNames::ServerDoubleUnderscoreTool,
        McpNames::AtServerSlashTool,
    ];

    /// The prefix and the separator of a name of this form; `None` for
    /// Cursor's `MCP:<tool>`, which has no server.
    pub fn parts(self) -> Option<(&'static str, &'static str)> {
        match self {
            McpNames::DoubleUnderscore => Some(("mcp__", "__")),
            McpNames::SingleUnderscore => Some(("mcp_", "_")),
            McpNames::ServerDashTool => Some(("", "-")),
            McpNames::ServerUnderscoreTool => Some(("", "_")),
            McpNames::ServerDoubleUnderscoreTool => Some(("", "__")),
            McpNames::AtServerSlashTool => Some(("@", "/")),
            McpNames::CursorTool => None,
        }
    }

    /// The server and tool of a harness's MCP tool name, as `hookc guard`
    /// reads it: split at the first separator after the prefix (server
    /// names may hold single underscores: `mcp__plugin_x_y__tool`). Either
    /// part may be empty, so that a guard for any server (`*`) still sees
    /// the call. `None`: not a name of this form.
    pub fn split(self, name: &str) -> Option<(String, String)> {
        let (prefix, sep) = self.parts()?;
        let (server, tool) = name.strip_prefix(prefix)?.split_once(sep)?;
        Some((server.to_owned(), tool.to_owned()))
    }

    /// The regex fragment (no anchors) over names of this form that a
    /// harness's matcher holds for a guard's server and tool globs. Every
    /// name [`split`](Self::split) reads as matching the globs matches it.
    pub fn matcher(self, server: &str, tool: &str) -> String {
        match self.parts() {
            Some((prefix, sep)) => format!(
                "{}{}{}{}",
                regex::escape(prefix),
                glob_to_regex(server),
                regex::escape(sep),
                glob_to_regex(tool)
            ),
            None => format!("MCP:{}", glob_to_regex(tool)),
        }
    }
}

/// A glob over names (`*`, `?`) as an anchored-fragment regex (no anchors).
pub fn glob_to_regex(glob: &str) -> String {
    let mut out = String::new();
    for c in glob.chars() {
        match c {
            '*' => out.push_str(".*"),
            '?' => out.push('.'),
            c => out.push_str(&regex::escape(&c.to_string())),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_whole_names() {
        assert!(glob_match("settings*.json", "settings.local.json"));
        assert!(glob_match("*.json", ".json"));
        assert!(glob_match(".kimi*", ".kimi-code"));
        assert!(!glob_match("hooks.json", "hooks.jsonc"));
        assert!(!glob_match("settings*.json", "xsettings.json"));
        assert!(glob_match("a?c", "abc") && !glob_match("a?c", "ac"));
    }

    #[test]
    fn every_mcp_form_is_in_all() {
        // A new form fails to compile here until it has a place, and then
        // this test until `ALL` holds it.
        let place = |form: McpNames| match form {
            McpNames::DoubleUnderscore => 0,
            McpNames::SingleUnderscore => 1,
            McpNames::CursorTool => 2,
            McpNames::ServerDashTool => 3,
            McpNames::ServerUnderscoreTool => 4,
            McpNames::ServerDoubleUnderscoreTool => 5,
            McpNames::AtServerSlashTool => 6,
        };
        let places: Vec<usize> = McpNames::ALL.into_iter().map(place).collect();
        assert_eq!(places, (0..7).collect::<Vec<_>>());
    }

    #[test]
    fn mcp_names_split_at_the_first_separator() {
        let split = |form: McpNames, name| form.split(name);
        assert_eq!(
            split(McpNames::DoubleUnderscore, "mcp__pay_ments__refund__all"),
            Some(("pay_ments".into(), "refund__all".into()))
        );
        assert_eq!(
            split(McpNames::SingleUnderscore, "mcp_pay_refund"),
            Some(("pay".into(), "refund".into()))
        );
        assert_eq!(split(McpNames::SingleUnderscore, "read_file"), None);
        assert_eq!(split(McpNames::DoubleUnderscore, "mcp__x"), None);
        // An empty server is still a server: `mcp "*" "*"` sees the call.
        assert_eq!(
            split(McpNames::DoubleUnderscore, "mcp____x"),
            Some((String::new(), "x".into()))
        );
        assert_eq!(split(McpNames::CursorTool, "MCP:x"), None);
        assert_eq!(McpNames::ServerDashTool.matcher("s*", "t?"), "s.*\\-t.");
        assert_eq!(McpNames::CursorTool.matcher("s", "t.x"), "MCP:t\\.x");
    }

    #[test]
    fn hook_files_match_by_folder_and_name() {
        let copilot = HookFile {
            dir: ".github/hooks",
            names: &["*.json"],
            format: FileFormat::HooksJson,
            in_project: true,
        };
        assert!(copilot.matches("r/.github/hooks/x.json"));
        assert!(copilot.matches(".github/hooks/x.json"));
        assert!(!copilot.matches("hooks/x.json"));
        assert!(!copilot.matches("r/.gitlab/hooks/x.json"));
        assert_eq!(copilot.depth(), 2);
    }
}
