//! What `hookc lint` needs to know about each harness's hand-written hook files.
//!
//! Event names hookc compiles to, tool names and blocking events come from each
//! harness's [`Profile`](crate::harness::Profile); this table only adds what the
//! profile does not carry: every event name the harness accepts (also the ones
//! hookc never emits) and the shape rules of its file. Sources:
//! `shared/harnesses/*.md` and the oracle's observed behaviour.

use crate::harness::{self, Profile};
use crate::ir::HarnessId;

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

/// The file shape of one JSON hooks file.
#[derive(Debug)]
pub struct JsonSpec {
    pub id: HarnessId,
    /// Every event name the harness accepts, exact case.
    pub events: &'static [&'static str],
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
    pub timeout_key: &'static str,
    pub unit: Unit,
    pub matching: Matching,
}

impl JsonSpec {
    pub fn profile(&self) -> &'static Profile {
        harness::get(self.id)
            .expect("every linted harness is known")
            .profile()
    }
}

const CLAUDE_TYPES: &[&str] = &["command", "prompt", "agent", "http", "mcp_tool"];

pub static CLAUDE: JsonSpec = JsonSpec {
    id: HarnessId::Claude,
    // As listed by `claude doctor` 2.1.332 ("Valid events: …").
    events: &[
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "PostToolBatch",
        "Notification",
        "UserPromptSubmit",
        "UserPromptExpansion",
        "SessionStart",
        "SessionEnd",
        "Stop",
        "StopFailure",
        "SubagentStart",
        "SubagentStop",
        "PreCompact",
        "PostCompact",
        "PreModelSwitch",
        "PostModelSwitch",
        "PermissionRequest",
        "PermissionDenied",
        "Setup",
        "TeammateIdle",
        "TaskCreated",
        "TaskCompleted",
        "Elicitation",
        "ElicitationResult",
        "ConfigChange",
        "WorktreeCreate",
        "WorktreeRemove",
        "InstructionsLoaded",
        "CwdChanged",
        "FileChanged",
        "DirectoryAdded",
        "MessageDisplay",
        "PreSkillShellCommand",
    ],
    strict_root: None,
    version: None,
    groups: true,
    flat_ok: false,
    require_type: true,
    types: CLAUDE_TYPES,
    command_keys: &["command"],
    timeout_key: "timeout",
    unit: Unit::Seconds,
    matching: Matching::ExactWords("-, "),
};

pub static CODEX: JsonSpec = JsonSpec {
    id: HarnessId::Codex,
    events: &[
        "SessionStart",
        "SubagentStart",
        "UserPromptSubmit",
        "PreToolUse",
        "PermissionRequest",
        "PostToolUse",
        "PreCompact",
        "PostCompact",
        "SubagentStop",
        "Stop",
        "SessionEnd",
        "Interrupt",
    ],
    // `HooksFile` is `deny_unknown_fields`: `hooks` (and `description` in newer builds).
    strict_root: Some(&["hooks", "description"]),
    version: None,
    groups: true,
    flat_ok: false,
    require_type: true,
    types: &["command", "prompt", "agent", "mcp_tool"],
    command_keys: &["command"],
    timeout_key: "timeout",
    unit: Unit::Seconds,
    matching: Matching::ExactWords(""),
};

pub static GEMINI: JsonSpec = JsonSpec {
    id: HarnessId::Gemini,
    events: &[
        "BeforeTool",
        "AfterTool",
        "BeforeAgent",
        "AfterAgent",
        "BeforeModel",
        "AfterModel",
        "BeforeToolSelection",
        "SessionStart",
        "SessionEnd",
        "PreCompress",
        "Notification",
    ],
    strict_root: None,
    version: None,
    groups: true,
    flat_ok: false,
    require_type: true,
    types: &["command"],
    command_keys: &["command"],
    timeout_key: "timeout",
    unit: Unit::Millis,
    matching: Matching::Unanchored,
};

pub static CURSOR: JsonSpec = JsonSpec {
    id: HarnessId::Cursor,
    events: &[
        "preToolUse",
        "postToolUse",
        "postToolUseFailure",
        "subagentStart",
        "subagentStop",
        "beforeShellExecution",
        "afterShellExecution",
        "beforeMCPExecution",
        "afterMCPExecution",
        "beforeReadFile",
        "afterFileEdit",
        "beforeSubmitPrompt",
        "preCompact",
        "stop",
        "afterAgentResponse",
        "afterAgentThought",
        "sessionStart",
        "sessionEnd",
        "beforeTabFileRead",
        "afterTabFileEdit",
        "workspaceOpen",
    ],
    strict_root: None,
    version: Some(true),
    groups: false,
    flat_ok: true,
    require_type: false,
    types: &["command", "prompt"],
    command_keys: &["command"],
    timeout_key: "timeout",
    unit: Unit::Seconds,
    matching: Matching::Unanchored,
};

pub static COPILOT: JsonSpec = JsonSpec {
    id: HarnessId::Copilot,
    events: &[
        "preToolUse",
        "PreToolUse",
        "permissionRequest",
        "PermissionRequest",
        "postToolUse",
        "PostToolUse",
        "postToolUseFailure",
        "PostToolUseFailure",
        "agentStop",
        "Stop",
        "subagentStop",
        "SubagentStop",
        "subagentStart",
        "userPromptSubmitted",
        "UserPromptSubmit",
        "userPromptTransformed",
        "sessionStart",
        "SessionStart",
        "sessionEnd",
        "SessionEnd",
        "errorOccurred",
        "ErrorOccurred",
        "preCompact",
        "PreCompact",
        "notification",
        "preMcpToolCall",
    ],
    strict_root: None,
    version: Some(false),
    groups: true,
    flat_ok: true,
    require_type: false,
    types: &["command", "http", "prompt"],
    command_keys: &["bash", "powershell", "command", "exec"],
    timeout_key: "timeoutSec",
    unit: Unit::Seconds,
    matching: Matching::Anchored,
};

pub static ANTIGRAVITY: JsonSpec = JsonSpec {
    id: HarnessId::Antigravity,
    events: &[
        "PreToolUse",
        "PostToolUse",
        "PreInvocation",
        "PostInvocation",
        "Stop",
    ],
    strict_root: None,
    version: None,
    groups: true,
    flat_ok: true,
    require_type: true,
    types: &["command"],
    command_keys: &["command"],
    timeout_key: "timeout",
    unit: Unit::Seconds,
    matching: Matching::Unanchored,
};

/// Kimi Code `[[hooks]]`: exact-case events (the v2 engine's enum), strict keys.
pub const KIMI_EVENTS: &[&str] = &[
    "PreToolUse",
    "UserPromptSubmit",
    "Stop",
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
];
pub const KIMI_KEYS: &[&str] = &["event", "matcher", "command", "timeout"];

/// Hook names of `@opencode-ai/plugin`'s `Hooks` type (1.18.33).
pub const OPENCODE_HOOKS: &[&str] = &[
    "event",
    "config",
    "tool",
    "auth",
    "chat.message",
    "chat.params",
    "chat.headers",
    "permission.ask",
    "command.execute.before",
    "tool.execute.before",
    "tool.execute.after",
    "shell.env",
    "tool.definition",
    "experimental.chat.messages.transform",
    "experimental.chat.system.transform",
    "experimental.session.compacting",
    "experimental.text.complete",
];

/// Top-level keys of Codex's `config.toml` (checked strictly by `--strict-config`).
pub const CODEX_CONFIG_KEYS: &[&str] = &[
    "model",
    "model_provider",
    "model_providers",
    "model_context_window",
    "model_auto_compact_token_limit",
    "model_max_output_tokens",
    "model_reasoning_effort",
    "model_reasoning_summary",
    "model_verbosity",
    "model_supports_reasoning_summaries",
    "approval_policy",
    "sandbox_mode",
    "sandbox_workspace_write",
    "shell_environment_policy",
    "hooks",
    "mcp_servers",
    "profiles",
    "profile",
    "projects",
    "features",
    "tools",
    "history",
    "tui",
    "notify",
    "file_opener",
    "hide_agent_reasoning",
    "show_raw_agent_reasoning",
    "disable_response_storage",
    "instructions",
    "developer_instructions",
    "base_instructions",
    "experimental_instructions_file",
    "project_doc_max_bytes",
    "project_doc_fallback_filenames",
    "project_root_markers",
    "chatgpt_base_url",
    "forced_login_method",
    "forced_chatgpt_workspace_id",
    "preferred_auth_method",
    "otel",
    "windows_wsl_setup_acknowledged",
    "review_model",
    "oss_provider",
    "cli_auth_credentials_store",
    "mcp_oauth_credentials_store",
    "web_search",
    "skills",
    "agents",
    "notice",
    "analytics",
    "feedback",
    "sandbox",
    "permissions",
];

pub fn json_spec(id: HarnessId) -> Option<&'static JsonSpec> {
    [&CLAUDE, &CODEX, &GEMINI, &CURSOR, &COPILOT, &ANTIGRAVITY]
        .into_iter()
        .find(|s| s.id == id)
}
