//! What `hookc lint` knows about Gemini CLI beyond its [`Profile`](crate::harness::Profile).

use super::spec::{JsonSpec, Matching, Unit};
use crate::ir::HarnessId;

pub static SPEC: JsonSpec = JsonSpec {
    id: HarnessId::Gemini,
    more_events: &[
        "BeforeModel",
        "AfterModel",
        "BeforeToolSelection",
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
    events_any_case: false,
};
