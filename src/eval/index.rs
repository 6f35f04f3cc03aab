//! The index of a policy's guards by event and by the literals a call
//! must contain to trigger them, so that a call checks only the guards it
//! could trigger.
//!
//! `hookc build` writes one [`Index`] per event into `.hookc/policy.json`
//! (`policy_json`); the [`Evaluator`](super::Evaluator) reads it to pick
//! each call's candidate guards. It never decides: a guard it picks is
//! still matched in full, and one it leaves out could not have matched.

use serde::{Deserialize, Serialize};

use crate::ir::{Event, Guard};
use crate::shell;

use super::{Call, Facts, Shell, regex_subjects};

/// The guards of one event, keyed by what a call must contain to trigger
/// them. Built from the guards' prefilters; `hookc build` stores one per
/// event in `.hookc/policy.json`, so `hookc guard` does not rebuild it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Index {
    pub event: Event,
    /// Exact program names, sorted, each with the guards whose command patterns name it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) programs: Vec<(String, Vec<usize>)>,
    /// Guards with command patterns: candidates for any opaque command line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) commands: Vec<usize>,
    /// Literals required by regexes, sorted, each with its guards.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) regex: Vec<(String, Vec<usize>)>,
    /// Literals required by path globs, sorted, each with its guards.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) path: Vec<(String, Vec<usize>)>,
    /// Guards no literal can rule out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) always: Vec<usize>,
}

impl Index {
    /// One index per event that has guards, in the order events first occur.
    pub fn build(guards: &[Guard]) -> Vec<Index> {
        let mut events: Vec<Index> = Vec::new();
        for (i, guard) in guards.iter().enumerate() {
            let at = match events.iter().position(|e| e.event == guard.event) {
                Some(at) => at,
                None => {
                    events.push(Index {
                        event: guard.event,
                        programs: Vec::new(),
                        commands: Vec::new(),
                        regex: Vec::new(),
                        path: Vec::new(),
                        always: Vec::new(),
                    });
                    events.len() - 1
                }
            };
            let index = &mut events[at];
            if !guard.commands.is_empty() {
                index.commands.push(i);
            }
            let add = |table: &mut Vec<(String, Vec<usize>)>, keys: &[String]| {
                table.extend(keys.iter().map(|key| (key.clone(), vec![i])));
            };
            let hints = &guard.prefilter;
            // An empty literal occurs in every text: such a guard is always a candidate.
            let usable = |list: &Option<Vec<String>>| {
                list.as_ref()
                    .filter(|l| !l.is_empty() && l.iter().all(|s| !s.is_empty()))
                    .cloned()
            };
            if let Some(names) = usable(&hints.programs) {
                add(&mut index.programs, &names);
            } else if let Some(literals) = usable(&hints.regex_literals) {
                add(&mut index.regex, &literals);
            } else if let Some(literals) = usable(&hints.path_literals) {
                add(&mut index.path, &literals);
            } else {
                index.always.push(i);
            }
        }
        for index in &mut events {
            for table in [&mut index.programs, &mut index.regex, &mut index.path] {
                merge_keys(table);
            }
        }
        events
    }

    /// Whether this index can be trusted for a policy of `guards` guards:
    /// its tables are sorted (lookups are binary searches) and every guard
    /// it names exists. A hand-edited policy.json may break either.
    pub fn is_sound(&self, guards: usize) -> bool {
        let sorted = |t: &[(String, Vec<usize>)]| {
            t.windows(2).all(|w| w[0].0 < w[1].0) && t.iter().all(|(k, _)| !k.is_empty())
        };
        let tables = [&self.programs, &self.regex, &self.path];
        sorted(&self.programs)
            && sorted(&self.regex)
            && sorted(&self.path)
            && tables
                .iter()
                .flat_map(|t| t.iter().flat_map(|(_, owners)| owners))
                .chain(&self.commands)
                .chain(&self.always)
                .all(|&i| i < guards)
    }

    /// Every guard of this event, in policy order.
    pub(super) fn all(&self) -> Vec<usize> {
        let mut out: Vec<usize> = self
            .programs
            .iter()
            .chain(&self.regex)
            .chain(&self.path)
            .flat_map(|(_, owners)| owners)
            .chain(&self.commands)
            .chain(&self.always)
            .copied()
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    pub(super) fn first_bytes(&self) -> [FirstBytes; 2] {
        [FirstBytes::of(&self.regex), FirstBytes::of(&self.path)]
    }

    /// Every guard of this event that `call` could trigger, in policy order.
    pub(super) fn candidates(
        &self,
        call: &Call,
        facts: &Facts,
        first: &[FirstBytes; 2],
    ) -> Vec<usize> {
        let mut out = self.always.clone();
        if call.shell == Shell::PowerShell {
            // No literal of a POSIX reading can rule a guard out: every guard
            // of the event is a candidate (the call is rare, and refused).
            out.extend(&self.commands);
            for (_, guards) in self.programs.iter().chain(&self.regex).chain(&self.path) {
                out.extend(guards);
            }
            out.sort_unstable();
            out.dedup();
            return out;
        }
        if let Some(analysis) = facts.analysis() {
            // A program hookc does not know may run any guarded program
            // its arguments name (`foo git push -f`).
            let presumes = analysis
                .commands
                .iter()
                .any(|c| !c.program.is_empty() && !shell::unknown::known(&c.program));
            if analysis.opaque.is_empty() && !presumes {
                for command in &analysis.commands {
                    if let Ok(at) = self
                        .programs
                        .binary_search_by(|(name, _)| name.as_str().cmp(&command.program))
                    {
                        out.extend(&self.programs[at].1);
                    }
                }
            } else {
                out.extend(&self.commands);
                // A path guard refuses a line it cannot read (`opacity`).
                out.extend(self.path.iter().flat_map(|(_, owners)| owners));
            }
        }
        if !self.regex.is_empty() {
            for text in regex_subjects(call, facts) {
                occurring(&self.regex, &first[0], text, &mut out);
            }
        }
        if !self.path.is_empty() {
            for seen in facts.touched() {
                if seen.glob.is_some()
                    || seen.runtime.is_some()
                    || call.folds_case
                    || (seen.tree && seen.access.writes())
                {
                    // A glob holds no literal of the names it stands for,
                    // nor a run-time word the name it holds, nor `.ENV` the
                    // `.env` it is where case folds, nor a folder the names
                    // of the files below it.
                    out.extend(self.path.iter().flat_map(|(_, owners)| owners));
                } else {
                    occurring(&self.path, &first[1], &seen.path, &mut out);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Sort a table by key and give each key once, with its guards in policy order.
fn merge_keys(table: &mut Vec<(String, Vec<usize>)>) {
    // Stable: the guards of one key stay in policy order.
    table.sort_by(|a, b| a.0.cmp(&b.0));
    let mut merged: Vec<(String, Vec<usize>)> = Vec::with_capacity(table.len());
    for (key, owners) in table.drain(..) {
        match merged.last_mut() {
            Some((last, into)) if *last == key => {
                // In policy order, so a guard naming a key twice is the last one.
                for i in owners {
                    if into.last() != Some(&i) {
                        into.push(i);
                    }
                }
            }
            _ => merged.push((key, owners)),
        }
    }
    *table = merged;
}

/// Add to `out` the guards of every literal of `table` (sorted) that occurs in `text`.
///
/// For each position, the literals that are prefixes of the rest of the text
/// are found by binary search, without building an automaton: a call
/// searches once, and its texts are short next to a large policy's literals.
/// If `x` is the greatest literal not above `s`, any other literal that is a
/// prefix of `s` is at most as long as the common prefix of `x` and `s`
/// (shorter than `x` when `x` itself is a prefix), so the search continues
/// with that shorter prefix of `s` until none is left.
///
/// Positions whose byte starts no literal (`first`) are skipped without a
/// search: the literals' texts lie all over the heap, and the searches'
/// comparisons took about 8% of the time of a 10,000-guard build.
fn occurring(table: &[(String, Vec<usize>)], first: &FirstBytes, text: &str, out: &mut Vec<usize>) {
    let text = text.as_bytes();
    for start in 0..text.len() {
        if !first.has(text[start]) {
            continue;
        }
        let mut s = &text[start..];
        while !s.is_empty() {
            let below = table.partition_point(|(literal, _)| literal.as_bytes() <= s);
            let Some((literal, owners)) = below.checked_sub(1).map(|at| &table[at]) else {
                break;
            };
            let literal = literal.as_bytes();
            let common = literal.iter().zip(s).take_while(|(a, b)| a == b).count();
            if common == literal.len() {
                out.extend(owners);
                s = &s[..common - 1];
            } else {
                s = &s[..common];
            }
        }
    }
}

/// A set of bytes: which bytes the literals of a table start with.
#[derive(Default)]
pub(super) struct FirstBytes([u64; 4]);

impl FirstBytes {
    /// Every byte: no position is skipped.
    pub(super) const ALL: Self = Self([u64::MAX; 4]);

    fn of(table: &[(String, Vec<usize>)]) -> Self {
        let mut set = Self::default();
        for byte in table
            .iter()
            .filter_map(|(literal, _)| literal.bytes().next())
        {
            set.0[usize::from(byte >> 6)] |= 1 << (byte & 63);
        }
        set
    }

    fn has(&self, byte: u8) -> bool {
        self.0[usize::from(byte >> 6)] & (1 << (byte & 63)) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        /// The binary-search literal lookup finds exactly the literals that occur.
        #[test]
        fn occurring_finds_every_literal_in_the_text(
            literals in prop::collection::btree_set("[ab]{1,4}", 0..12),
            text in "[abc]{0,12}",
        ) {
            let table: Vec<(String, Vec<usize>)> =
                literals.iter().enumerate().map(|(i, l)| (l.clone(), vec![i])).collect();
            let mut found = Vec::new();
            occurring(&table, &FirstBytes::of(&table), &text, &mut found);
            found.sort_unstable();
            found.dedup();
            let expected: Vec<usize> = table
                .iter()
                .filter(|(l, _)| text.contains(l.as_str()))
                .map(|(_, owners)| owners[0])
                .collect();
            prop_assert_eq!(found, expected);
        }
    }
}
