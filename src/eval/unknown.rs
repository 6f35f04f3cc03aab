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
    /// `program`'s file is reached through /proc or a file descriptor (a
    /// link an earlier call made to `/proc/self/fd/3`): it may be any
    /// program.
    #[cfg_attr(not(unix), allow(dead_code))]
    Descriptor { program: String, file: String },
    /// `program`'s file is the guarded program `of` under another name (a
    /// copy or a link an earlier call made), so the line runs `command`,
    /// which pattern `pattern` (0-based) matches.
    #[cfg_attr(not(unix), allow(dead_code))]
    Copy {
        program: String,
        of: String,
        command: String,
        pattern: usize,
    },
}

/// What the guard's patterns find among the readings of the unknown
/// programs of `analysis`: `None` when no reading concerns the guard.
pub(super) fn presumption(
    guard: &Guard,
    analysis: &Analysis,
    copies: &Copies,
    call: &crate::eval::Call,
) -> Option<Presumption> {
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
    let read = |reading: &str| call.read_reading(analysis, reading);
    let presumed: Presumed = unknown::presume_with(analysis, &named, Some(&read));
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
    if let Some(copy) = copied(guard, analysis, &named, copies) {
        return Some(copy);
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
            Presumption::Descriptor { program, file } => format!(
                "`{}` leads through a file descriptor or /proc (`{}`), so it may be any \
                 program; run the program by its own name.",
                short(program),
                short(file)
            ),
            Presumption::Copy {
                program,
                of,
                command,
                ..
            } => format!(
                "`{}` is the program `{of}` under another name (the same file, or a copy of \
                 it), so this runs `{}`. Run `{of}` by its own name, with what the policy allows.",
                short(program),
                short(command)
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
            Presumption::Descriptor { program, file } => format!(
                "`{program}` leads through a file descriptor or /proc (`{}`), so it may be \
                 any program; rewrite: run the program by its own name",
                short(file)
            ),
            Presumption::Copy {
                program,
                of,
                command,
                pattern,
            } => format!(
                "`{program}` is the file of `{of}` (found where the call runs), so it runs \
                 `{}`, which matches pattern {} of {patterns}; rewrite: run `{of}` by its name",
                short(command),
                pattern + 1
            ),
        }
    }
}

/// What [`copied`] looks up on disk, once a call for every guard: the
/// files of the line's programs that no table knows, and the files of each
/// guarded program name.
#[derive(Default)]
#[cfg_attr(not(unix), allow(dead_code))]
pub(super) struct Copies {
    unknown: std::cell::OnceCell<Vec<Candidate>>,
    guarded: std::cell::RefCell<std::collections::HashMap<String, std::rc::Rc<super::Programs>>>,
}

/// A program of the line in none of hookc's tables, and its file.
#[cfg_attr(not(unix), allow(dead_code))]
struct Candidate {
    name: String,
    file: std::path::PathBuf,
    /// The path through /proc or a descriptor its links lead to.
    through: Option<String>,
}

/// A program of the line, in none of hookc's tables, whose file where the
/// call runs is one of `guard`'s programs under another name (`cp
/// /usr/bin/git g` in an earlier call, then `./g push --force`): the
/// command read again by that program's name and held against the guard.
/// A file is known by its device and inode, or by its bytes when it has
/// a guarded program's size ([`Programs`](super::Programs)).
#[cfg(unix)]
fn copied(
    guard: &Guard,
    analysis: &Analysis,
    named: &dyn Fn(&str) -> bool,
    copies: &Copies,
) -> Option<Presumption> {
    if analysis.program_files.is_empty() {
        return None;
    }
    let path = std::env::var_os("PATH");
    let unknown = copies.unknown.get_or_init(|| {
        analysis
            .program_files
            .iter()
            .filter(|(name, _)| !unknown::known(name))
            .filter_map(|(name, file)| {
                let file = file.clone().or_else(|| crate::disk::on_path(name))?;
                Some(Candidate {
                    name: name.clone(),
                    through: through_links(&file),
                    file,
                })
            })
            .collect()
    });
    for c in &analysis.commands {
        if c.program.is_empty() || named(&c.program) {
            continue;
        }
        for Candidate { file, through, .. } in unknown.iter().filter(|u| u.name == c.program) {
            if let Some(through) = through {
                return Some(Presumption::Descriptor {
                    program: c.program.clone(),
                    file: through.clone(),
                });
            }
            let Some(of) = guard.commands.iter().find_map(|pattern| {
                let name = pattern.program.trim();
                let programs = copies
                    .guarded
                    .borrow_mut()
                    .entry(name.to_owned())
                    .or_insert_with(|| {
                        std::rc::Rc::new(super::Programs::named_files(name, path.as_deref()))
                    })
                    .clone();
                programs.named(file).map(str::to_owned)
            }) else {
                continue;
            };
            let mut line = crate::shell::sh_word(&of);
            for arg in &c.args {
                line.push(' ');
                line.push_str(&crate::shell::sh_word(arg));
            }
            // As it stands (its words known only at run time kept so), and
            // read again under the program's name (git's own options).
            let renamed = SimpleCommand {
                program: of.clone(),
                ..c.clone()
            };
            let read = crate::shell::analyze(&line);
            let pattern = std::iter::once(&renamed)
                .chain(&read.commands)
                .find_map(|r| {
                    guard
                        .commands
                        .iter()
                        .position(|p| p.matches(r) || (!r.unknown.is_empty() && p.could_match(r)))
                });
            if let Some(pattern) = pattern {
                return Some(Presumption::Copy {
                    program: c.program.clone(),
                    command: spelled(&renamed),
                    of,
                    pattern,
                });
            }
        }
    }
    None
}

/// The path through /proc or a file descriptor that `file` leads to, its
/// links followed one at a time as the kernel follows them, but never a
/// link inside /proc (there `self` would be hookc, not the shell); `None`
/// when it leads elsewhere. Too many links count as leading there.
#[cfg(unix)]
fn through_links(file: &std::path::Path) -> Option<String> {
    use std::path::{Component, PathBuf};
    let mut left: Vec<std::ffi::OsString> = Vec::new();
    let push_all = |left: &mut Vec<std::ffi::OsString>, path: &std::path::Path| {
        let parts: Vec<_> = path
            .components()
            .filter_map(|c| match c {
                Component::Normal(n) => Some(n.to_owned()),
                Component::ParentDir => Some("..".into()),
                _ => None,
            })
            .collect();
        left.extend(parts.into_iter().rev());
    };
    push_all(&mut left, file);
    let mut at = PathBuf::from(if file.is_absolute() { "/" } else { "." });
    let mut links = 0;
    while let Some(part) = left.pop() {
        if part == ".." {
            at.pop();
            continue;
        }
        at.push(&part);
        let spelled = at.to_string_lossy().into_owned();
        if crate::shell::normalize::through_a_descriptor(&spelled) {
            return Some(spelled);
        }
        if let Ok(target) = std::fs::read_link(&at) {
            links += 1;
            if links > 40 {
                return Some(spelled);
            }
            at.pop();
            if target.is_absolute() {
                at = PathBuf::from("/");
            }
            push_all(&mut left, &target);
        }
    }
    None
}

#[cfg(not(unix))]
fn copied(_: &Guard, _: &Analysis, _: &dyn Fn(&str) -> bool, _: &Copies) -> Option<Presumption> {
    None
}

fn spelled(c: &SimpleCommand) -> String {
    let mut line = c.program.clone();
    for arg in &c.args {
        line.push(' ');
        line.push_str(arg);
    }
    line
}
