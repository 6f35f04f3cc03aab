//! Command guards against programs hookc does not know: the readings of
//! [`crate::shell::unknown`] held against a guard's patterns, and the
//! reason and `hookc why` line of a refusal they cause.

use crate::ir::Guard;
use crate::shell::normalize::short;
use crate::shell::unknown::{self, Presumed};
use crate::shell::{Analysis, SimpleCommand};

/// Why a guard refuses a line for what an unknown program may run.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Presumption {
    /// A reading of `program`'s arguments runs `command`, which pattern
    /// `pattern` (0-based) matches, or could once its unknown words have
    /// values.
    Runs {
        program: String,
        command: String,
        pattern: usize,
    },
    /// A run of `program`'s arguments, `spelled`, is a command hookc
    /// cannot read.
    Opaque {
        program: String,
        spelled: String,
        reasons: Vec<String>,
    },
    /// More readings than hookc makes in time.
    Unread { program: String },
}

/// What the guard's patterns find among the readings of the unknown
/// programs of `analysis`: `None` when no reading concerns the guard.
pub(super) fn presumption(guard: &Guard, analysis: &Analysis) -> Option<Presumption> {
    if guard.commands.is_empty() {
        return None;
    }
    // A pattern the shell expands may become the guard's program
    // (`/usr/bin/gi[t]`).
    let named = |p: &str| {
        guard
            .commands
            .iter()
            .any(|c| c.names(p) || (crate::shell::access::is_glob(p) && c.named_by(p)))
    };
    let presumed: Presumed = unknown::presume(analysis, &named);
    for reading in &presumed.readings {
        for c in &reading.commands {
            let pattern = guard
                .commands
                .iter()
                .position(|p| p.matches(c))
                .or_else(|| {
                    (!c.unknown.is_empty())
                        .then(|| guard.commands.iter().position(|p| p.could_match(c)))
                        .flatten()
                });
            if let Some(pattern) = pattern {
                return Some(Presumption::Runs {
                    program: reading.program.clone(),
                    command: spelled(c),
                    pattern,
                });
            }
        }
    }
    if let Some(reading) = presumed.readings.iter().find(|r| !r.opaque.is_empty()) {
        let mut reasons = reading.opaque.clone();
        reasons.dedup();
        return Some(Presumption::Opaque {
            program: reading.program.clone(),
            spelled: reading.spelled.clone(),
            reasons,
        });
    }
    presumed
        .unread
        .map(|program| Presumption::Unread { program })
}

impl Presumption {
    /// What the model reads: which program hookc did not know, what it
    /// may run, and the rewrite that lets the guard check it.
    pub(super) fn reason(&self) -> String {
        match self {
            Presumption::Runs {
                program, command, ..
            } => format!(
                "hookc does not know what `{}` does with its arguments, which spell `{}`; run the \
                 command directly, without `{}`, so the guard can check it.",
                short(program),
                short(command),
                short(program)
            ),
            Presumption::Opaque {
                program,
                spelled,
                reasons,
            } => format!(
                "hookc does not know what `{}` does with its arguments, which spell `{}`, and \
                 that command uses {}, which hookc cannot check. Run the command directly, \
                 without `{}`, written as plain commands (literal program names and arguments).",
                short(program),
                short(spelled),
                reasons.join(", "),
                short(program)
            ),
            Presumption::Unread { program } => format!(
                "hookc does not know what `{}` does with its arguments, and they spell more \
                 commands than hookc checks in time; run the commands directly, without `{}`, \
                 so the guard can check them.",
                short(program),
                short(program)
            ),
        }
    }

    /// The line `hookc why` shows: the rule that applied and the rewrite.
    pub(super) fn detail(&self, patterns: usize) -> String {
        match self {
            Presumption::Runs {
                program,
                command,
                pattern,
            } => format!(
                "`{program}` is in none of hookc's tables, so it is presumed to run its \
                 arguments: `{}` matches pattern {} of {patterns}; rewrite: run `{}` directly, \
                 without `{program}`, for the guard to judge it as written",
                short(command),
                pattern + 1,
                short(command)
            ),
            Presumption::Opaque {
                program,
                spelled,
                reasons,
            } => format!(
                "`{program}` is in none of hookc's tables, so it is presumed to run its \
                 arguments, and `{}` cannot be read ({}); rewrite: run the command directly, \
                 without `{program}`, written as plain commands",
                short(spelled),
                reasons.join(", ")
            ),
            Presumption::Unread { program } => format!(
                "`{program}` is in none of hookc's tables, so it is presumed to run its \
                 arguments, which hold more commands than hookc reads (over {} readings); \
                 rewrite: run the commands directly, without `{program}`",
                unknown::MAX_READINGS
            ),
        }
    }
}

fn spelled(c: &SimpleCommand) -> String {
    let mut line = c.program.clone();
    for arg in &c.args {
        line.push(' ');
        line.push_str(arg);
    }
    line
}
