//! What `hookc lint` knows about Claude Code beyond its [`Profile`](crate::harness::Profile).

use super::spec::CLAUDE_TYPES;
use super::spec::{JsonSpec, Matching, Unit};
use crate::ir::HarnessId;

pub static SPEC: JsonSpec = JsonSpec {
    id: HarnessId::Claude,
    // As listed by `claude doctor` 2.1.332 ("Valid events: …").
    more_events: &[
        "PostToolUseFailure",
        "PostToolBatch",
        "Notification",
        "UserPromptExpansion",
        "SessionEnd",
        "StopFailure",
        "SubagentStart",
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
    events_any_case: false,
};
