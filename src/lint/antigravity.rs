//! What `hookc lint` knows about Antigravity CLI beyond its [`Profile`](crate::harness::Profile).

use super::spec::{JsonSpec, Matching, Unit};
use crate::ir::HarnessId;

pub static SPEC: JsonSpec = JsonSpec {
    id: HarnessId::Antigravity,
    more_events: &["PostToolUse", "PreInvocation", "PostInvocation"],
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
