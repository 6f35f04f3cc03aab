//! The trace `hookc why` prints: each guard held against one call, with
//! whether it applies and, for each kind of condition, whether it holds
//! and on what.
//!
//! Read only by `commands/why`. It explains with the evaluator's own
//! matching ([`match_guard`] and the functions it calls), so the decision
//! it shows for a guard is the one the evaluator makes.

use regex::Regex;
use serde::Serialize;

use crate::ir::{Decision, Guard, Policy};
use crate::paths::PathSet;
use crate::shell;
use crate::shell::access::Access;

use super::{
    Call, Facts, Seen, asks_for, compile, match_guard, opacity, path_set, regex_subjects,
    tool_applies, touches_guard, unknown,
};

/// One guard held against one call, for `hookc why`: whether it applies,
/// and for each kind of condition whether it holds and on what.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GuardTrace {
    pub guard: String,
    /// Why the guard is not even considered (another event, another tool).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
    pub conditions: Vec<ConditionTrace>,
    /// What the guard decides for this call (its opaque decision when the
    /// command could not be read); `None` when it does not match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    /// The guard's `run` program would have the last word (`hookc why` never runs it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    /// Where a guard inherited through `extends` is written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConditionTrace {
    /// `command`, `opaque`, `regex` or `path`.
    pub kind: &'static str,
    pub holds: bool,
    /// What matched what, or what was looked at.
    pub detail: String,
}

/// Every guard of `policy` against `call`, in policy order. The decisions
/// come from the same matching [`Evaluator`](super::Evaluator) uses; the
/// conditions say why.
pub fn trace(policy: &Policy, call: &Call) -> Vec<GuardTrace> {
    let facts = Facts::new(call);
    policy
        .guards
        .iter()
        .map(|guard| trace_guard(guard, call, &facts))
        .collect()
}

fn trace_guard(guard: &Guard, call: &Call, facts: &Facts) -> GuardTrace {
    let mut out = GuardTrace {
        guard: guard.name.clone(),
        skipped: None,
        conditions: Vec::new(),
        decision: None,
        run: guard.run.clone(),
        from: guard.from.clone(),
    };
    if Some(guard.event) != call.event {
        out.skipped = Some(format!("a guard for `{}` calls", guard.event));
        return out;
    }
    if !tool_applies(guard, call) {
        let tool = call.tool.as_ref().map_or("no tool", |t| t.native.as_str());
        out.skipped = Some(format!("not for this tool (`{tool}`)"));
        return out;
    }
    let compiled = match compile(guard) {
        Ok(c) => c,
        Err(e) => {
            out.skipped = Some(format!("cannot be compiled: {e}"));
            return out;
        }
    };
    if !guard.commands.is_empty() {
        command_conditions(guard, facts, &mut out.conditions);
    }
    if !guard.regexes.is_empty() {
        match compiled.regexes(guard) {
            Ok(regexes) => out.conditions.push(regex_condition(regexes, call, facts)),
            Err(e) => {
                out.skipped = Some(format!("cannot be compiled: {e}"));
                return out;
            }
        }
    }
    if let Some(set) = path_set(guard, &compiled, call) {
        out.conditions.push(path_condition(guard, set, call, facts));
    }
    out.decision = match_guard(guard, &compiled, call, facts)
        .ok()
        .flatten()
        .map(|h| h.decision);
    out
}

/// What `why` says of a guard's command patterns: the first simple command
/// one matches, or none (and whether an opaque part still refuses).
fn command_conditions(guard: &Guard, facts: &Facts, conditions: &mut Vec<ConditionTrace>) {
    match facts.analysis() {
        None => conditions.push(ConditionTrace {
            kind: "command",
            holds: false,
            detail: "the call has no shell command".to_owned(),
        }),
        Some(analysis) => {
            let hit = analysis.commands.iter().find_map(|c| {
                guard
                    .commands
                    .iter()
                    .position(|p| p.matches(c))
                    .map(|i| (c, i))
            });
            match hit {
                Some((c, i)) => conditions.push(ConditionTrace {
                    kind: "command",
                    holds: true,
                    detail: format!(
                        "`{}` matches pattern {} of {}",
                        spelled(c),
                        i + 1,
                        guard.commands.len()
                    ),
                }),
                None => {
                    conditions.push(ConditionTrace {
                        kind: "command",
                        holds: false,
                        detail: format!(
                            "no simple command matches its {} pattern{} (programs: {})",
                            guard.commands.len(),
                            if guard.commands.len() == 1 { "" } else { "s" },
                            {
                                let mut programs: Vec<String> = Vec::new();
                                for p in &guard.commands {
                                    let p = format!("`{}`", p.program);
                                    if !programs.contains(&p) {
                                        programs.push(p);
                                    }
                                }
                                programs.join(", ")
                            }
                        ),
                    });
                    let unsure = analysis.commands.iter().find(|c| {
                        !c.unknown.is_empty() && guard.commands.iter().any(|p| p.could_match(c))
                    });
                    let presumed = (guard.opaque != Decision::Allow)
                        .then(|| {
                            unknown::presumption(
                                guard,
                                analysis,
                                &unknown::Copies::default(),
                                facts.call(),
                            )
                        })
                        .flatten();
                    if let Some(presumed) = presumed {
                        conditions.push(ConditionTrace {
                            kind: "unknown program",
                            holds: true,
                            detail: presumed.detail(guard.commands.len()),
                        });
                    } else if !analysis.opaque.is_empty() || unsure.is_some() {
                        conditions.push(ConditionTrace {
                            kind: "opaque",
                            holds: guard.opaque != Decision::Allow,
                            detail: format!(
                                "the line is not fully readable, and the guard's `opaque` is `{}`",
                                guard.opaque
                            ),
                        });
                    }
                }
            }
        }
    }
}

/// What `why` says of a guard's regexes: the first text one matches.
fn regex_condition(regexes: &[Regex], call: &Call, facts: &Facts) -> ConditionTrace {
    let subjects = regex_subjects(call, facts);
    let hit = subjects
        .iter()
        .find_map(|s| regexes.iter().find(|r| r.is_match(s)).map(|r| (s, r)));
    match hit {
        Some((s, r)) => ConditionTrace {
            kind: "regex",
            holds: true,
            detail: format!("`{}` matches `{}`", r.as_str(), shell::normalize::short(s)),
        },
        None => ConditionTrace {
            kind: "regex",
            holds: false,
            detail: format!(
                "no regex matches any of {} text{} (the line, each simple command, the call's text)",
                subjects.len(),
                if subjects.len() == 1 { "" } else { "s" }
            ),
        },
    }
}

/// What `why` says of a guard's path globs: the first file of the call
/// they match with the access the guard asks for.
fn path_condition(guard: &Guard, set: &PathSet, call: &Call, facts: &Facts) -> ConditionTrace {
    let access = |seen: &Seen| match seen.access {
        Access::Read => "read",
        Access::Write => "written",
        Access::Both => "read and written",
    };
    let touched = facts.touched();
    let hit = touched
        .iter()
        .find(|seen| asks_for(guard, seen) && touches_guard(guard, set, seen, call, facts));
    if hit.is_none()
        && let Some(trace) = opacity::trace(guard, facts)
    {
        return trace;
    }
    match hit {
        Some(seen) => ConditionTrace {
            kind: "path",
            holds: true,
            detail: format!("`{}` ({}) matches its globs", seen.path, access(seen)),
        },
        None if touched.is_empty() => ConditionTrace {
            kind: "path",
            holds: false,
            detail: "the call touches no file hookc can see".to_owned(),
        },
        None => ConditionTrace {
            kind: "path",
            holds: false,
            detail: format!(
                "no file of the call ({}) matches its globs with the access it asks for",
                touched
                    .iter()
                    .map(|seen| format!("`{}` ({})", seen.path, access(seen)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        },
    }
}

/// A simple command as `program arg …`.
fn spelled(c: &shell::SimpleCommand) -> String {
    let mut line = c.program.clone();
    for arg in &c.args {
        line.push(' ');
        line.push_str(arg);
    }
    line
}
