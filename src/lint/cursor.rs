//! What `hookc lint` knows about Cursor beyond its [`Profile`](crate::harness::Profile).

use super::spec::{JsonSpec, Matching, Unit};
use crate::ir::HarnessId;

pub static SPEC: JsonSpec = JsonSpec {
    id: HarnessId::Cursor,
    more_events: &[
        "postToolUseFailure",
        "subagentStart",
        "beforeShellExecution",
        "afterShellExecution",
        "beforeMCPExecution",
        "afterMCPExecution",
        "beforeReadFile",
        "afterFileEdit",
        "preCompact",
        "afterAgentResponse",
        "afterAgentThought",
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
    events_any_case: false,
};
