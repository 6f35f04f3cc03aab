//! What `hookc lint` knows about each harness's hand-written hook files.
//!
//! Everything comes from the harness's [`Profile`] in the registry
//! ([`harness::all`]): the event names it emits and every other one it
//! accepts, its tool names and blocking events, and the shape of its JSON
//! hooks file ([`JsonSpec`]). Sources: `shared/harnesses/*.md` and the
//! oracle's observed behaviour.

use std::ops::Deref;

use crate::harness::{self, Profile};
use crate::ir::HarnessId;
pub use crate::profile::{JsonSpec, Matching, Unit};

/// A harness's JSON file shape, with the harness it belongs to.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub id: HarnessId,
    pub profile: &'static Profile,
    json: &'static JsonSpec,
}

impl Deref for Spec {
    type Target = JsonSpec;
    fn deref(&self) -> &JsonSpec {
        self.json
    }
}

impl Spec {
    /// Every event name the harness accepts: its profile's, then the rest.
    pub fn events(&self) -> Vec<&'static str> {
        self.profile.all_events()
    }
}

/// The JSON hooks file shape of harness `id`; `None`: its hooks are not JSON.
pub fn json_spec(id: HarnessId) -> Option<Spec> {
    let profile = harness::get(id)?.profile();
    Some(Spec {
        id,
        profile,
        json: profile.json.as_ref()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lint_tables_do_not_repeat_what_the_profiles_say() {
        for h in harness::all() {
            let profile = h.profile();
            for (_, name) in profile.events {
                assert!(
                    !profile.more_events.contains(name),
                    "{name} is in {:?}'s events already",
                    profile.id
                );
            }
        }
    }
}
