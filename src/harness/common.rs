//! Pieces several emitters share: which guards an event has and which native
//! tool names its matcher needs, and capability warnings.
//!
//! Nothing here knows a harness: names, events and wording come from the
//! caller's [`Profile`].

use super::Profile;
use crate::emit::EmitCx;
use crate::ir::{Decision, Event, Guard, Policy, Tool};

/// The guards of one event and the tool names a matcher must route to them.
pub struct Route {
    /// Regex fragments (already escaped), one per native tool name; sorted by
    /// [`super::anchored_alternation`] when written.
    pub names: Vec<String>,
    /// Some guard applies to every tool: write no matcher (or a match-all one).
    pub any_tool: bool,
}

/// Route the guards of `event` for `profile`. `names_of` gives the matcher
/// fragments for one guard tool (empty: the harness has no such tool). `None`
/// when the event has no guard that can run on this harness; a guard none of
/// whose tools exists there gets a warning.
pub fn route(
    policy: &Policy,
    event: Event,
    profile: &Profile,
    cx: &mut EmitCx,
    names_of: &dyn Fn(&Tool) -> Vec<String>,
) -> Option<Route> {
    profile.event_name(event)?;
    let guards: Vec<&Guard> = policy.guards.iter().filter(|g| g.event == event).collect();
    if guards.is_empty() {
        return None;
    }
    let mut names = Vec::new();
    let mut any_tool = false;
    for guard in &guards {
        if guard.tools.is_empty() {
            any_tool = true;
            continue;
        }
        let before = names.len();
        for tool in &guard.tools {
            names.extend(names_of(tool));
        }
        if event.has_tools() && names.len() == before {
            cx.unsupported(
                guard,
                profile.id,
                format!("none of this guard's tools exists in {}", profile.name),
                "the guard will not run there".to_owned(),
            );
        }
    }
    if event.has_tools() && !any_tool && names.is_empty() {
        return None;
    }
    Some(Route { names, any_tool })
}

/// The matcher fragments of one guard tool: the profile's names for a known
/// tool, `mcp(server, tool)` for an MCP tool (`None`: the harness's MCP names
/// are not known), and the name itself for a native tool of this harness.
pub fn tool_names(
    profile: &Profile,
    tool: &Tool,
    mcp: &dyn Fn(&str, &str) -> Option<String>,
) -> Vec<String> {
    match tool {
        Tool::Known { tool } => profile
            .tool_names(*tool)
            .iter()
            .map(|n| regex::escape(n))
            .collect(),
        Tool::Mcp { server, tool } => mcp(server, tool).into_iter().collect(),
        Tool::Native { harness, name } if *harness == profile.id => vec![regex::escape(name)],
        Tool::Native { .. } => Vec::new(),
    }
}

/// Warn about every guard on an event `profile` has no hook for.
pub fn warn_unsupported_events(policy: &Policy, profile: &Profile, cx: &mut EmitCx) {
    for guard in &policy.guards {
        if profile.event_name(guard.event).is_none() {
            cx.unsupported(
                guard,
                profile.id,
                format!("{} has no hook for `{}`", profile.name, guard.event),
                "the guard will not run there".to_owned(),
            );
        }
    }
}

/// Warn about guards whose decision the harness cannot carry out on their
/// event, saying what hookc does instead.
pub fn warn_decisions(
    policy: &Policy,
    profile: &Profile,
    cx: &mut EmitCx,
    instead: &dyn Fn(Event, Decision) -> Option<&'static str>,
) {
    for guard in &policy.guards {
        if profile.event_name(guard.event).is_none() {
            continue;
        }
        if let Some(what) = instead(guard.event, guard.decision) {
            cx.unsupported(
                guard,
                profile.id,
                format!(
                    "{} cannot `{}` on `{}`",
                    profile.name, guard.decision, guard.event
                ),
                what.to_owned(),
            );
        }
    }
}

/// Split `prefix<server><sep><tool>` at the first `sep` after the prefix.
pub fn split_mcp(name: &str, prefix: &str, sep: &str) -> Option<(String, String)> {
    let rest = name.strip_prefix(prefix)?;
    let (server, tool) = rest.split_once(sep)?;
    (!server.is_empty() && !tool.is_empty()).then(|| (server.to_owned(), tool.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn mcp_names_split_at_the_first_separator() {
        assert_eq!(
            split_mcp("mcp__pay_ments__refund__all", "mcp__", "__"),
            Some(("pay_ments".into(), "refund__all".into()))
        );
        assert_eq!(
            split_mcp("mcp_pay_refund", "mcp_", "_"),
            Some(("pay".into(), "refund".into()))
        );
        assert_eq!(split_mcp("read_file", "mcp_", "_"), None);
        assert_eq!(split_mcp("mcp__x", "mcp__", "__"), None);
    }
}
