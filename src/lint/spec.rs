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
    /// The event names the harness accepts besides the ones hookc emits
    /// (those come from the harness's [`Profile`]), exact case.
    pub more_events: &'static [&'static str],
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
    /// Known event names match in any case (Antigravity): a wrong case then
    /// still runs, and is only a warning.
    pub events_any_case: bool,
}

impl JsonSpec {
    /// Every event name the harness accepts: its profile's, then the rest.
    pub fn events(&self) -> Vec<&'static str> {
        let mut all: Vec<&'static str> = self.profile().events.iter().map(|(_, n)| *n).collect();
        all.extend(self.more_events.iter().copied());
        all.dedup();
        all
    }

    pub fn profile(&self) -> &'static Profile {
        harness::get(self.id)
            .expect("every linted harness is known")
            .profile()
    }
}

pub(super) const CLAUDE_TYPES: &[&str] = &["command", "prompt", "agent", "http", "mcp_tool"];

pub fn json_spec(id: HarnessId) -> Option<&'static JsonSpec> {
    [
        &super::claude::SPEC,
        &super::codex::SPEC,
        &super::gemini::SPEC,
        &super::cursor::SPEC,
        &super::copilot::SPEC,
        &super::antigravity::SPEC,
    ]
    .into_iter()
    .find(|s| s.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lint_tables_do_not_repeat_what_the_profiles_say() {
        for id in crate::ir::HarnessId::ALL {
            let Some(spec) = json_spec(*id) else { continue };
            for (_, name) in spec.profile().events {
                assert!(
                    !spec.more_events.contains(name),
                    "{name} is in {:?}'s profile already",
                    spec.id
                );
            }
            assert!(spec.events().len() > spec.more_events.len());
        }
    }
}
