//! The validated, harness-neutral policy.
//!
//! This is what every emitter reads and what `hookc guard` evaluates at run
//! time (serialised as `.hookc/policy.json`). It has no KDL in it and no
//! unresolved names: if an `ir::Policy` exists, it is valid. Spans survive
//! only as `origin` fields (not serialised), so emitters can still point a
//! capability warning at the guard in `policy.kdl`.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::shell::CommandPattern;
use crate::source::Span;

/// Bumped when `.hookc/policy.json` changes incompatibly; `hookc guard`
/// refuses a policy with a newer format than it understands.
pub const FORMAT: u32 = 2;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Policy {
    pub format: u32,
    /// The policy file this was compiled from, relative to the project root.
    pub source: String,
    /// The hookc versions the policy asks for (`hookc-version`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hookc_version: Option<String>,
    /// The release line (`0.1`) of the hookc that compiled it: a hookc of an
    /// older line refuses to answer for it rather than misread it.
    #[serde(default)]
    pub built_by: String,
    /// How this project installs hookc (`npm install`, `cargo install …`),
    /// for the messages of a guard that cannot run.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub install: String,
    /// Seconds a harness gives a guard before it gives up.
    pub timeout: u32,
    /// What the call gets when a guard cannot decide (bad payload, missing policy).
    pub on_error: Decision,
    pub targets: Vec<HarnessId>,
    /// Where the policy says `platforms … "windows"`: the team runs agents
    /// on Windows, and the build warns about each target that cannot guard
    /// there. Only the build uses it.
    #[serde(skip)]
    pub windows: Option<Span>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub harness_options: BTreeMap<HarnessId, BTreeMap<String, serde_json::Value>>,
    /// `audit-log #true`: `hookc guard` appends every decision to the user's audit log.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub audit: bool,
    /// `allow-once #true`: a refusal carries a code the user can approve with
    /// `hookc allow-once CODE` from their own terminal.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_once: bool,
    /// Guards with `override "never"`: no approval lets their refusals through.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub never_override: Vec<String>,
    pub guards: Vec<Guard>,
    /// What the policies it `extends` resolved to, written to the build's
    /// `policy.lock`.
    #[serde(skip)]
    pub extends: Vec<Extended>,
}

/// What one `extends` resolved to: what `policy.lock` records.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Extended {
    pub source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rev: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The commit `rev` named when the file was fetched; `None` for a file
    /// source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    pub digest: String,
    /// For a policy that an extended policy extends in turn: that policy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within: Option<String>,
}

impl Policy {
    /// How to install the hookc this project needs, for a guard's refusal.
    pub fn install_command(&self) -> std::borrow::Cow<'_, str> {
        if self.install.is_empty() {
            crate::version::from_source(env!("CARGO_PKG_REPOSITORY")).into()
        } else {
            self.install.as_str().into()
        }
    }

    /// What a shim answers on `event` when hookc cannot: the policy's
    /// `on-error` where a call can be asked about (pre-tool), else a refusal.
    pub fn on_error_for(&self, event: Event) -> &'static str {
        if event == Event::PreTool {
            self.on_error.word()
        } else {
            "deny"
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Guard {
    pub name: String,
    pub event: Event,
    /// Empty: every tool (or, for events without tools, every call).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<Tool>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<CommandPattern>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub regexes: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    /// Which touches of those paths the guard is about: reads, writes, or any.
    #[serde(default, skip_serializing_if = "PathAccess::is_any")]
    pub access: PathAccess,
    /// What a shell command hookc cannot fully understand means for this guard.
    pub opaque: Decision,
    pub decision: Decision,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// What a call must contain for this guard to possibly match, so the
    /// runtime can skip it without compiling anything (see [`Prefilter`]).
    #[serde(default, skip_serializing_if = "Prefilter::is_empty")]
    pub prefilter: Prefilter,
    /// For `rewrite` guards: the edits made to the shell command line, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rewrite: Vec<Replace>,
    /// A program of the user's that decides when the guard matches, relative
    /// to the project root: exit 0 allow, 2 the guard's decision (stderr is the
    /// reason), anything else an operational failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    /// Where a guard inherited through `extends` is written (the source
    /// and the line in it), shown with its name by `hookc why` and `hookc log`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(skip)]
    pub examples: Vec<Example>,
    #[serde(skip)]
    pub allow_degraded: Vec<HarnessId>,
    #[serde(skip)]
    pub origin: Span,
}

/// One edit of a `rewrite` guard: every match of `pattern` (a Rust regex) in
/// the shell command line becomes `with`, where `$1`/`${name}` insert groups.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replace {
    pub pattern: String,
    pub with: String,
}

/// Necessary conditions for a guard to match, computed at build time.
///
/// Each list, when present, holds literals of which at least one must occur
/// for the condition to hold: a guard whose `regex` requires `secret-` cannot
/// match a command without that text. The runtime indexes guards by these
/// literals, so a call pays only for the guards it could trigger, and
/// compiles nothing for the rest. Absent lists mean "no shortcut known".
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Prefilter {
    /// Exact program names of the guard's command patterns (absent: some pattern's program is a glob).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub programs: Option<Vec<String>>,
    /// One of these occurs in the text some regex of the guard matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regex_literals: Option<Vec<String>>,
    /// One of these occurs in any path some `path` glob of the guard matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_literals: Option<Vec<String>>,
}

impl Prefilter {
    pub fn is_empty(&self) -> bool {
        self.programs.is_none() && self.regex_literals.is_none() && self.path_literals.is_none()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    pub call: ExampleCall,
    pub expect: Expectation,
    pub origin: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ExampleCall {
    pub tool: Option<Tool>,
    pub command: Option<String>,
    pub path: Option<String>,
    pub text: Option<String>,
}

/// What an example expects the whole policy to decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expectation {
    Decision(Decision),
    /// No guard matches.
    Pass,
}

macro_rules! word_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $word:literal),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum $name { $( $(#[$vdoc])* #[serde(rename = $word)] $variant, )* }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),*];
            pub const WORDS: &'static [&'static str] = &[$($word),*];

            /// The word users write in `policy.kdl`.
            pub fn word(self) -> &'static str {
                match self { $($name::$variant => $word,)* }
            }

            pub fn from_word(word: &str) -> Option<Self> {
                match word { $($word => Some($name::$variant),)* _ => None }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.word())
            }
        }
    };
}

word_enum! {
    /// When a guard runs, in hookc's harness-neutral words.
    Event {
        /// Before a tool runs; can refuse it.
        PreTool = "pre-tool",
        /// After a tool ran; can only tell the model.
        PostTool = "post-tool",
        /// When the user submits a prompt.
        Prompt = "prompt",
        /// When the agent wants to finish its turn.
        Stop = "stop",
        /// When a subagent wants to finish.
        SubagentStop = "subagent-stop",
        /// When a session starts.
        SessionStart = "session-start",
    }
}

impl Event {
    /// Events that concern one tool call (and so have tools and matchers).
    pub fn has_tools(self) -> bool {
        matches!(self, Event::PreTool | Event::PostTool)
    }
}

word_enum! {
    /// What a guard decides when it matches.
    Decision {
        Deny = "deny",
        Ask = "ask",
        Allow = "allow",
        Context = "context",
        Block = "block",
        /// Run the call with its input changed as the guard says, and tell the model.
        Rewrite = "rewrite",
        /// Run the shell call under hookc's run-time judge (`hookc exec`),
        /// which stops what the guard refuses as it happens: what an
        /// `opaque` line means where the harness can change the call and
        /// the machine can supervise it; a refusal elsewhere.
        Supervise = "supervise",
    }
}

impl Decision {
    /// Strictest first: when guards disagree, the strictest decision wins:
    /// deny/block > ask > supervise > rewrite > allow > context. `block`
    /// (stop events) refuses like `deny`. A supervised call runs, watched,
    /// so it is weaker than a refusal or a question; it is stronger than a
    /// rewrite, whose edit it does not make (where both meet, the call is
    /// refused: see `runtime::prepare`). A rewrite runs the call, so it is
    /// weaker than a refusal or a question; it is stronger than a plain
    /// allow, so that another guard's allow cannot drop an edit the policy
    /// asks for.
    pub fn strictness(self) -> u8 {
        match self {
            Decision::Deny | Decision::Block => 6,
            Decision::Ask => 5,
            Decision::Supervise => 4,
            Decision::Rewrite => 3,
            Decision::Allow => 2,
            Decision::Context => 1,
        }
    }

    pub fn needs_reason(self) -> bool {
        !matches!(self, Decision::Allow)
    }

    /// Whether the reason is a note beside a call that goes on (`rewrite`,
    /// `context`) rather than why the call stops or waits.
    pub fn is_note(self) -> bool {
        matches!(self, Decision::Rewrite | Decision::Context)
    }

    /// Whether the call does not run as asked: a refusal, or (for a
    /// harness's answer, which refuses it unless it can run it supervised)
    /// `supervise`.
    pub fn refuses(self) -> bool {
        matches!(self, Decision::Deny | Decision::Block | Decision::Supervise)
    }
}

word_enum! {
    /// Which touches of a file a `path` guard is about (`access="…"`).
    PathAccess {
        /// Reads, writes and edits (the default).
        Any = "any",
        /// Reads: read tools, search and glob tools, and shell commands that
        /// read the file (edits read too).
        Read = "read",
        /// Writes, edits, deletes and renames.
        Write = "write",
    }
}

// `word_enum!` derives the traits; `Default` is the one enum that needs it.
#[allow(clippy::derivable_impls)]
impl Default for PathAccess {
    fn default() -> Self {
        PathAccess::Any
    }
}

impl PathAccess {
    pub fn is_any(&self) -> bool {
        *self == PathAccess::Any
    }
}

/// [`HarnessId`] from the registry's lines (`module::Type = "word"`).
macro_rules! harness_ids {
    ($($(#[$doc:meta])* $module:ident :: $harness:ident = $word:literal,)*) => {
        word_enum! {
            /// The harnesses hookc can compile for, one per line of
            /// [`registry`](crate::registry).
            HarnessId { $($(#[$doc])* $harness = $word,)* }
        }
    };
}

crate::registry::harnesses!(harness_ids);

word_enum! {
    /// Tools in harness-neutral words.
    ToolKind {
        Shell = "shell",
        Read = "read",
        Write = "write",
        Edit = "edit",
        WebFetch = "web-fetch",
    }
}

/// A tool a guard applies to.
///
/// Externally tagged in `policy.json` (`{"known": {"tool": "shell"}}`):
/// serde reads that shape directly, while an internally tagged enum would be
/// buffered first, which showed up in the run-time profile of large policies.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tool {
    Known {
        tool: ToolKind,
    },
    /// An MCP tool; `server` and `tool` may be globs (`*`, `?`).
    Mcp {
        server: String,
        tool: String,
    },
    /// A harness's own tool name, written `tool (claude)"NotebookEdit"`.
    Native {
        harness: HarnessId,
        name: String,
    },
}

impl fmt::Display for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tool::Known { tool } => write!(f, "{tool}"),
            Tool::Mcp { server, tool } => write!(f, "mcp {server}/{tool}"),
            Tool::Native { harness, name } => write!(f, "({harness}){name}"),
        }
    }
}
