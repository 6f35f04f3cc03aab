//! What `hookc lint` knows about GitHub Copilot CLI beyond its [`Profile`](crate::harness::Profile).

use super::spec::{JsonSpec, Matching, Unit};
use crate::ir::HarnessId;

pub static SPEC: JsonSpec = JsonSpec {
    id: HarnessId::Copilot,
    more_events: &[
        "PreToolUse",
        "permissionRequest",
        "PermissionRequest",
        "PostToolUse",
        "postToolUseFailure",
        "PostToolUseFailure",
        "Stop",
        "SubagentStop",
        "subagentStart",
        "UserPromptSubmit",
        "userPromptTransformed",
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
    events_any_case: false,
};
