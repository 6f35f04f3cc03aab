//! The evaluator: a policy's guards held against one call, the strictest
//! decision of those that match, and a rewrite checked again.
//!
//! Read by `hookc guard` (`runtime`), the build's examples (`resolve`),
//! hookc's own guards (`pin`, `protect`) and `hookc test`. Everything that
//! decides lives here: what a call touches ([`Facts`], [`Seen`]), and the
//! matching of commands, regexes and paths ([`match_guard`]). The trace
//! that `hookc why` prints calls the same functions.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use crate::ir::{Decision, Event, Guard, PathAccess, Policy, Replace, Tool, ToolKind};
use crate::paths::{self, PathSet};
use crate::shell::access::{self, Access, Expansion};
use crate::shell::normalize::short;
use crate::shell::{self, Analysis};
use regex::Regex;

use super::{
    Call, CallTool, EXAMPLE_ROOT, FirstBytes, Hit, Index, RunResult, Shell, Verdict, opacity,
    places, unknown,
};

/// A policy ready to evaluate calls.
///
/// Guards are indexed by event and by the literals a call must contain to
/// trigger them (their [`Prefilter`](crate::ir::Prefilter)): a call looks up
/// its programs and literals in sorted tables, and only the guards it could
/// trigger are checked. Each guard's regexes and globs are compiled the
/// first time a call reaches it. So a call costs about the same with ten
/// guards or a thousand, and checking every example of a policy is linear.
///
/// `hookc guard` builds it from the index stored in `.hookc/policy.json`
/// ([`Evaluator::lazy`]) and parses only the guards a call reaches.
pub struct Evaluator<'p> {
    guards: Guards<'p>,
    compiled: Vec<OnceCell<Result<Compiled, String>>>,
    events: Vec<Index>,
    /// For each index, the first bytes of its regex and path literals.
    first_bytes: Vec<[FirstBytes; 2]>,
}

/// A check of one guard's text at its position before it is parsed; the
/// error is the whole message for the user.
pub type Check<'p> = dyn Fn(usize, &[u8]) -> Result<(), String> + 'p;

enum Guards<'p> {
    Parsed(&'p [Guard]),
    /// The JSON text of each guard, parsed when a call reaches it, after
    /// the check (position, text) says it is the text the build wrote there.
    Lazy(Vec<&'p [u8]>, &'p Check<'p>),
}

impl<'p> Evaluator<'p> {
    pub fn new(policy: &'p Policy) -> Self {
        let events = Index::build(&policy.guards);
        Self {
            guards: Guards::Parsed(&policy.guards),
            compiled: policy.guards.iter().map(|_| OnceCell::new()).collect(),
            first_bytes: events.iter().map(Index::first_bytes).collect(),
            events,
        }
    }

    /// [`new`](Self::new), with each guard's regexes and globs already
    /// compiled (`compiled[i]` for guard `i`), as the build has them.
    pub fn compiled(policy: &'p Policy, compiled: Vec<Compiled>) -> Self {
        debug_assert_eq!(compiled.len(), policy.guards.len());
        Self {
            compiled: compiled
                .into_iter()
                .map(|c| OnceCell::from(Ok(c)))
                .collect(),
            ..Self::new(policy)
        }
    }

    /// An evaluator over guards kept as JSON text (one per guard, in policy
    /// order) with their stored index: only the guards a call reaches are
    /// parsed, each after `check` accepts it. `None` when the index does not
    /// fit the guards.
    pub fn lazy(guards: Vec<&'p [u8]>, index: Option<Index>, check: &'p Check<'p>) -> Option<Self> {
        if index.as_ref().is_some_and(|i| !i.is_sound(guards.len())) {
            return None;
        }
        Some(Self {
            guards: Guards::Lazy(guards, check),
            compiled: Vec::new(),
            // `hookc guard` checks one call: collecting the first bytes of a
            // large policy's literals costs more than the searches it saves.
            first_bytes: index
                .iter()
                .map(|_| [FirstBytes::ALL, FirstBytes::ALL])
                .collect(),
            events: index.into_iter().collect(),
        })
    }

    /// Decide a call. Guards that `run` a program count as matching with
    /// their own decision and reason (build-time examples do not run programs).
    pub fn evaluate(&self, call: &Call) -> Option<Verdict> {
        self.evaluate_with(call, &mut |_| Ok(None))
            .unwrap_or_else(|e| unreachable!("{e}"))
    }

    /// Decide a call, asking `run` for each matching guard with a program
    /// (`Ok(None)`: treat the guard as matching, as build-time examples do).
    /// An `Err` is an operational failure: the call cannot be decided.
    pub fn evaluate_with(
        &self,
        call: &Call,
        run: &mut dyn FnMut(&Guard) -> Result<Option<RunResult>, String>,
    ) -> Result<Option<Verdict>, String> {
        self.decide(call, run, true)
    }

    /// [`evaluate_with`](Self::evaluate_with); `rewrite` false when checking
    /// a command a rewrite produced, which is not rewritten again.
    fn decide(
        &self,
        call: &Call,
        run: &mut dyn FnMut(&Guard) -> Result<Option<RunResult>, String>,
        rewrite: bool,
    ) -> Result<Option<Verdict>, String> {
        let facts = Facts::new(call);
        let Some(at) = self.events.iter().position(|i| Some(i.event) == call.event) else {
            return Ok(None);
        };
        let index = &self.events[at];
        let mut hits: Vec<Hit> = Vec::new();
        // The edits of the guards that rewrite, in policy order: the guards
        // themselves may be parsed only for this loop.
        let mut edits: Vec<(String, Replace)> = Vec::new();
        for i in index.candidates(call, &facts, &self.first_bytes[at]) {
            let Some((guard, hit)) = self.hit(i, index.event, call, &facts, run)? else {
                continue;
            };
            if hit.decision == Decision::Rewrite {
                edits.extend(
                    guard
                        .rewrite
                        .iter()
                        .map(|r| (guard.name.clone(), r.clone())),
                );
            }
            hits.push(hit);
        }
        let Some(verdict) = strictest(hits) else {
            return Ok(None);
        };
        if rewrite && verdict.decision == Decision::Rewrite {
            return self.rewrite(call, verdict, &edits, run);
        }
        Ok(Some(verdict))
    }

    /// Guard `i` (one the index picked for `event`) and how it meets the
    /// call: `None` when it does not apply, does not match, or its program
    /// lets the call through. An `Err` when the guard cannot be trusted:
    /// damaged, or not the guard the index was built for.
    fn hit(
        &self,
        i: usize,
        event: Event,
        call: &Call,
        facts: &Facts,
        run: &mut dyn FnMut(&Guard) -> Result<Option<RunResult>, String>,
    ) -> Result<Option<(Cow<'p, Guard>, Hit)>, String> {
        let guard = self.guard(i)?;
        if guard.event != event {
            return Err(format!(
                "the compiled policy's index does not fit guard {} `{}`",
                i + 1,
                guard.name
            ));
        }
        if !tool_applies(&guard, call) {
            return Ok(None);
        }
        let once;
        let compiled = match self.compiled.get(i) {
            Some(cell) => cell.get_or_init(|| compile(&guard)),
            None => {
                once = compile(&guard);
                &once
            }
        }
        .as_ref()
        .map_err(|e| damaged(i, &guard, e))?;
        let Some(mut hit) =
            match_guard(&guard, compiled, call, facts).map_err(|e| damaged(i, &guard, &e))?
        else {
            return Ok(None);
        };
        if guard.run.is_some() {
            match run(&guard)? {
                Some(RunResult::Allow) => return Ok(None),
                Some(RunResult::Refuse(reason)) if !reason.is_empty() => hit.reason = reason,
                _ => {}
            }
        }
        Ok(Some((guard, hit)))
    }

    /// Guard `i`: borrowed when the policy is parsed, else parsed from its
    /// text once `check` accepts that text as what the build wrote there.
    pub(super) fn guard(&self, i: usize) -> Result<Cow<'p, Guard>, String> {
        match &self.guards {
            Guards::Parsed(guards) => Ok(Cow::Borrowed(&guards[i])),
            Guards::Lazy(texts, check) => {
                check(i, texts[i])?;
                let parsed = serde_json::from_slice::<Guard>(texts[i]).map_err(|e| {
                    format!(
                        "guard {} of the compiled policy is damaged ({e}); run `hookc build` to regenerate it",
                        i + 1
                    )
                })?;
                Ok(Cow::Owned(parsed))
            }
        }
    }

    /// Every guard of `event`, parsed, in policy order: for the run-time
    /// judge, which asks about many calls of one kind.
    pub(super) fn guards_of(&self, event: Event) -> Result<Vec<Guard>, String> {
        let Some(index) = self.events.iter().find(|i| i.event == event) else {
            return Ok(Vec::new());
        };
        index
            .all()
            .into_iter()
            .map(|i| self.guard(i).map(Cow::into_owned))
            .collect()
    }

    /// The index of `event` and its first bytes, for the run-time judge.
    pub(super) fn index_of(&self, event: Option<Event>) -> Option<(&Index, &[FirstBytes; 2])> {
        let at = self.events.iter().position(|i| Some(i.event) == event)?;
        Some((&self.events[at], &self.first_bytes[at]))
    }

    /// Apply every rewriting guard's edits to the command, in policy order,
    /// then check the rewritten command: if the policy refuses it or wants
    /// the user asked, that answer wins, so a rewrite can never produce a
    /// call the policy would not let through. A rewrite that changes nothing
    /// is a plain allow (the model is not told about a change that did not
    /// happen).
    fn rewrite(
        &self,
        call: &Call,
        mut verdict: Verdict,
        edits: &[(String, Replace)],
        run: &mut dyn FnMut(&Guard) -> Result<Option<RunResult>, String>,
    ) -> Result<Option<Verdict>, String> {
        // Whatever stops the rewrite refuses the call: running it unchanged
        // would silently differ from the policy.
        let refuse = |verdict: &Verdict, why: String| Verdict {
            decision: Decision::Deny,
            hits: vec![Hit {
                guard: verdict.guard_names().join(", "),
                from: None,
                decision: Decision::Deny,
                reason: format!(
                    "The project's policy changes this call before it runs, and hookc could not change it: {why}. Tell the user; do not try to get around the guard."
                ),
                message: verdict.message(),
            }],
            rewritten: None,
        };
        let Some(original) = call.command.as_deref() else {
            return Ok(Some(refuse(
                &verdict,
                "the call has no shell command".to_owned(),
            )));
        };
        let mut command = original.to_owned();
        for (guard, edit) in edits {
            match compile_regex(&edit.pattern) {
                Ok(regex) => command = regex.replace_all(&command, edit.with.as_str()).into_owned(),
                Err(e) => {
                    let why =
                        format!("guard `{guard}` has a broken rewrite ({e}); run `hookc build`");
                    return Ok(Some(refuse(&verdict, why)));
                }
            }
        }
        if command == original {
            verdict.decision = Decision::Allow;
            return Ok(Some(verdict));
        }
        let again = Call {
            command: Some(command.clone()),
            ..call.clone()
        };
        if let Some(stricter) = self.decide(&again, run, false)?
            && stricter.decision.strictness() > Decision::Rewrite.strictness()
        {
            return Ok(Some(stricter));
        }
        verdict.rewritten = Some(command);
        Ok(Some(verdict))
    }
}

/// Guard `i` cannot be used: the call cannot be decided.
pub(super) fn damaged(i: usize, guard: &Guard, e: &str) -> String {
    format!(
        "guard {} `{}` of the compiled policy is damaged ({e}); run `hookc build` to regenerate it",
        i + 1,
        guard.name
    )
}

/// The verdict of the strictest decision the hits reach, with every hit
/// that reached it; `None` without hits.
///
/// A `supervise` hit stays beside a stricter refusal or question: where the
/// call cannot be supervised it is a refusal too (the model is told all it
/// must address at once), and where it can, a question about it is asked
/// of the supervised call (see `runtime::supervised`).
pub(super) fn strictest(mut hits: Vec<Hit>) -> Option<Verdict> {
    let level = hits.iter().map(|h| h.decision.strictness()).max()?;
    let supervise = Decision::Supervise.strictness();
    hits.retain(|h| {
        let at = h.decision.strictness();
        at == level || (at == supervise && level > supervise)
    });
    let decision = hits
        .iter()
        .find(|h| h.decision.strictness() == level)?
        .decision;
    Some(Verdict {
        decision,
        hits,
        rewritten: None,
    })
}

/// The most memory a guard's regex may compile to, the same for the build
/// and `hookc guard`: a pattern over it is an error of `hookc build`, with a
/// diagnostic, never an allocation at run time. `hookc guard` answers one
/// call per process, so it compiles every regex a call reaches again for
/// each call; at `regex`'s default (10 MiB), `\w{200}` fitted and cost every
/// call 30 MB and tens of milliseconds. 2 MiB holds any real pattern (the
/// presets' largest is a few kilobytes) and a Unicode `\w{40}`; an ASCII
/// class (`[A-Za-z0-9_]{200}` is 19 kB) takes a fraction of it.
pub const REGEX_SIZE_LIMIT: usize = 2 << 20;

/// The most memory the lazy DFA of one regex may use while it searches
/// (`regex`'s default; past it the engine falls back to a slower one, it
/// does not grow).
pub const REGEX_DFA_SIZE_LIMIT: usize = 2 << 20;

/// A regex compiled within [`REGEX_SIZE_LIMIT`] and [`REGEX_DFA_SIZE_LIMIT`]: how the
/// build checks a pattern and how `hookc guard` compiles it.
pub fn compile_regex(pattern: &str) -> Result<regex::Regex, regex::Error> {
    regex::RegexBuilder::new(pattern)
        .size_limit(REGEX_SIZE_LIMIT)
        .dfa_size_limit(REGEX_DFA_SIZE_LIMIT)
        .build()
}

/// The fewest bytes a match of `pattern` spans, found by parsing it (with
/// `regex`'s settings) without compiling it: a text shorter than that cannot
/// match. `None` when it does not parse, or can never match.
fn regex_minimum_len(pattern: &str) -> Option<usize> {
    let hir = regex_syntax::Parser::new().parse(pattern).ok()?;
    hir.properties().minimum_len()
}

/// A guard's regexes and path globs, compiled.
pub struct Compiled {
    /// The guard's regexes: compiled by the build, or else when a call first
    /// needs them (see [`guard_regex_matches`]). A regex can cost tens of
    /// milliseconds and megabytes to compile (`\w{200}`), and `hookc guard`
    /// answers one call: one that never reaches the regex (a command the
    /// guard's patterns do not describe, a line too short for it to match)
    /// does not pay for it.
    regexes: OnceLock<Result<Vec<Regex>, String>>,
    paths: Option<PathSet>,
    /// The globs again, letters in either case: built on the first call
    /// made where the file system folds case.
    folded: std::sync::OnceLock<Option<PathSet>>,
}

impl Compiled {
    /// `paths`: `None` for a guard without path globs.
    pub fn new(regexes: Vec<Regex>, paths: Option<PathSet>) -> Compiled {
        Compiled {
            regexes: OnceLock::from(Ok(regexes)),
            paths,
            folded: std::sync::OnceLock::new(),
        }
    }

    /// `guard`'s regexes, compiled now if they are not yet, within the
    /// engine's bounds ([`compile_regex`]). The build compiled
    /// them already, so an error means a policy.json changed by hand.
    pub(super) fn regexes(&self, guard: &Guard) -> Result<&[Regex], String> {
        self.regexes
            .get_or_init(|| {
                guard
                    .regexes
                    .iter()
                    .map(|r| {
                        compile_regex(r)
                            .map_err(|e| format!("its regex `{r}` does not compile: {e}"))
                    })
                    .collect()
            })
            .as_deref()
            .map_err(Clone::clone)
    }
}

/// Compile a guard's globs; its regexes wait for a call that needs them
/// ([`Compiled::regexes`]). The build compiled them already, so an error
/// means a policy.json changed by hand: the call cannot be decided.
/// (Skipping the condition instead would let an `allow` guard approve every
/// call it sees.)
pub(super) fn compile(guard: &Guard) -> Result<Compiled, String> {
    let paths = if guard.paths.is_empty() {
        None
    } else {
        Some(PathSet::new(&guard.paths).map_err(|(_, e)| e)?)
    };
    Ok(Compiled {
        regexes: OnceLock::new(),
        paths,
        folded: OnceLock::new(),
    })
}

pub(super) fn tool_applies(guard: &Guard, call: &Call) -> bool {
    if guard.tools.is_empty() {
        return true;
    }
    let Some(tool) = &call.tool else { return false };
    guard
        .tools
        .iter()
        .any(|t| reading_applies(t, tool, call.harness))
}

fn reading_applies(t: &Tool, tool: &CallTool, from: Option<crate::ir::HarnessId>) -> bool {
    let here = match t {
        Tool::Known { tool: kind } => tool.kind == Some(*kind),
        Tool::Mcp { server, tool: name } => tool
            .mcp
            .as_ref()
            .is_some_and(|(s, t)| glob_word(server, s) && glob_word(name, t)),
        Tool::Native { harness, name } => {
            *name == tool.native && from.is_none_or(|from| from == *harness)
        }
    };
    here || tool
        .also
        .iter()
        .any(|other| reading_applies(t, other, from))
}

/// Facts about a call that several guards need, computed at most once.
pub(super) struct Facts<'c> {
    call: &'c Call,
    analysis: OnceCell<Option<Arc<Analysis>>>,
    touched: OnceCell<Arc<Vec<Seen>>>,
    subjects: OnceCell<Vec<String>>,
    /// The files of the line's unknown programs and of the guarded ones,
    /// looked up once for every guard (see `unknown::Copies`).
    pub(super) copies: unknown::Copies,
    /// When directory listings stop: [`WALK_BUDGET`] after the first.
    walk_deadline: OnceCell<Instant>,
}

/// A file the call touches, normalised.
#[derive(Debug)]
pub struct Seen {
    pub(super) path: String,
    /// Its `~` spelling, when it lies in the home directory.
    pub(super) home: Option<String>,
    pub(super) access: Access,
    /// For a glob: how it expands.
    pub(super) glob: Option<Expansion>,
    /// A tool's glob (not the shell's), or the files below a directory
    /// read recursively: what it names on disk where the call runs decides
    /// (see [`touches_guard`]).
    pub(super) listed: bool,
    /// With `listed`: file names the program leaves out (`--exclude`).
    pub(super) except: Vec<String>,
    /// With `listed`: a name `xargs` would split (see
    /// [`access::Touch::split`]) may be any file.
    pub(super) split: bool,
    /// The call may touch any file at all (it names more than can be
    /// resolved in time): every path guard's files are touched.
    pub(super) anything: bool,
    /// A write that reaches every file below the path (see
    /// [`access::Touch::tree`]).
    pub(super) tree: bool,
    /// Why the call is taken to touch this, when the line does not say it:
    /// told to the model with the guard's reason.
    pub(super) because: Option<&'static str>,
    /// The word known only when the line runs that names this file (see
    /// [`access::Touch::runtime`]): a path guard refuses it (see
    /// [`opacity`]).
    pub(super) runtime: Option<String>,
    /// A program hookc does not know may touch the file by running its
    /// arguments: the program and the reading (see
    /// [`crate::shell::unknown::touches`]), told to the model.
    pub(super) presumed: Option<Box<(String, String)>>,
}

impl Seen {
    /// Why the call is taken to touch the file, when the line does not say
    /// it: told to the model after the guard's reason.
    fn why_touched(&self) -> Option<String> {
        if let Some(why) = self.because {
            return Some(why.to_owned());
        }
        let (program, reading) = self.presumed.as_deref()?;
        Some(format!(
            "(hookc does not know what `{}` does with its arguments, and one of them, run as a \
             command (`{}`), touches this file. Run such a command directly, without `{}`; if \
             the argument is only text, such as a title or a message, leave this file's name \
             out of it, or pass the text in a file.)",
            short(program),
            short(reading),
            short(program)
        ))
    }

    pub(super) fn new(path: String, home: Option<String>, access: Access) -> Seen {
        Seen {
            path,
            home,
            access,
            glob: None,
            listed: false,
            except: Vec::new(),
            split: false,
            anything: false,
            tree: false,
            because: None,
            runtime: None,
            presumed: None,
        }
    }
}

/// Why a git command whose files the repository cannot name before it runs
/// is taken to write the whole work tree.
const GIT_UNKNOWN: &str = "(hookc cannot tell which files this git command will change before it runs, so it counts as changing every file of the work tree: `git pull` fetches before it merges, a patch names its own files, a command earlier in the line may move what a branch names. To bring in others' work, run `git fetch` on its own, then the merge, rebase or switch in a call of its own: hookc checks what those change.)";

/// Why a path that goes through a link into `/proc` is known only when
/// the line runs; told after the path.
pub(super) const THROUGH_PROCESS: &str = "goes through a link into a process's own places \
     (`/proc`, `/dev/fd`), which lead somewhere else for each process and at each moment";

impl<'c> Facts<'c> {
    pub(super) fn new(call: &'c Call) -> Self {
        Self {
            call,
            analysis: OnceCell::new(),
            touched: OnceCell::new(),
            subjects: OnceCell::new(),
            copies: unknown::Copies::default(),
            walk_deadline: OnceCell::new(),
        }
    }

    /// The call the facts are about.
    pub(super) fn call(&self) -> &'c Call {
        self.call
    }

    /// The deadline of every directory listing of the call, which starts
    /// at the first.
    fn walk_deadline(&self) -> Instant {
        *self
            .walk_deadline
            .get_or_init(|| Instant::now() + WALK_BUDGET)
    }

    pub(super) fn analysis(&self) -> Option<&Analysis> {
        self.analysis
            .get_or_init(|| {
                if self.call.shell == Shell::PowerShell {
                    return None;
                }
                self.call.analysis()
            })
            .as_deref()
    }

    /// Every file the call touches: the harness's paths (with the access
    /// of its tool), its globs, and what its shell command reads and writes
    /// ([`access::touches`]); each also as what a symbolic link in it leads
    /// to, when the call runs where it names files (so a link to `.env`
    /// is `.env`).
    pub(super) fn touched(&self) -> &[Seen] {
        self.touched.get_or_init(|| {
            self.analysis();
            let analysis = self.analysis.get().cloned().flatten();
            self.call
                .touched_with(analysis.as_ref(), || self.make_touched())
        })
    }

    fn make_touched(&self) -> Vec<Seen> {
        let call = self.call;
        {
            // The tool's kind, and every other reading of it (Cursor's
            // Write also edits): a file tool that may read reads.
            let of = |kind: Option<ToolKind>| match kind {
                Some(ToolKind::Read) => Access::Read,
                Some(ToolKind::Write) => Access::Write,
                _ => Access::Both,
            };
            let by_tool = match &call.tool {
                None => Access::Both,
                Some(t) => t.also.iter().fold(of(t.kind), |acc, other| {
                    if acc == of(other.kind) {
                        acc
                    } else {
                        Access::Both
                    }
                }),
            };
            let mut raw: Vec<access::Touch> = call
                .paths
                .iter()
                // A file tool writes a file, never into a directory.
                .map(|p| access::Touch::file(p, by_tool))
                .collect();
            raw.extend(call.globs.iter().map(|(g, how)| access::Touch {
                glob: Some(*how),
                on_disk: true,
                ..access::Touch::file(g, Access::Read)
            }));
            // What the line's git commands write that only the repository
            // can name (see `git_written`).
            let mut by_git = Ok(Vec::new());
            if let Some(analysis) = self.analysis() {
                let read = |reading: &str| call.read_reading(analysis, reading);
                raw.extend(crate::shell::unknown::touches(analysis, Some(&read)));
                by_git = self.git_written(analysis);
                raw.extend(
                    by_git
                        .iter()
                        .flatten()
                        .map(|f| access::Touch::file(f, Access::Write)),
                );
            }
            let root = call.root.as_deref();
            let home = call.home.as_deref();
            let mut links = Links::new(root);
            let mut out = Vec::with_capacity(raw.len());
            let places = places::Places::new(call, self.walk_deadline());
            for t in raw {
                let t = places.resolve(t);
                if let Some(word) = t.runtime {
                    // No name to resolve: whatever the word holds then.
                    out.push(Seen {
                        runtime: Some(word),
                        presumed: t.presumed,
                        ..Seen::new(t.path, None, t.access)
                    });
                    continue;
                }
                let listed = t.on_disk;
                let in_dir = paths::in_dir(&t.path, call.cwd.as_deref());
                let path = paths::normalize(&in_dir, root, home);
                if t.glob.is_none() && links.spent() {
                    // Past the bound, any of these names may be a link to
                    // any file: the call is taken to touch every file.
                    out.push(Seen {
                        anything: true,
                        ..Seen::new(String::new(), None, Access::Both)
                    });
                    break;
                }
                if t.glob.is_none() {
                    let raw = paths::joined(&in_dir, root, home);
                    match links.resolve(&raw, &path, home) {
                        None => {}
                        Some(Led::To(real)) => out.push(Seen {
                            tree: t.tree,
                            presumed: t.presumed.clone(),
                            ..Seen::new(real.clone(), paths::home_form(&real, root, home), t.access)
                        }),
                        // Through a link into a process's places: the
                        // file it names then.
                        Some(Led::Kernel) => out.push(Seen {
                            runtime: Some(t.path.clone()),
                            because: Some(THROUGH_PROCESS),
                            ..Seen::new(path.clone(), None, t.access)
                        }),
                    }
                }
                out.push(Seen {
                    glob: t.glob,
                    listed,
                    split: t.split,
                    except: t.except,
                    tree: t.tree,
                    presumed: t.presumed,
                    ..Seen::new(path.clone(), paths::home_form(&path, root, home), t.access)
                });
            }
            match by_git {
                Ok(_) => {}
                Err(Some(top)) => {
                    let top = paths::normalize(&top, root, home);
                    out.push(Seen {
                        tree: true,
                        because: Some(GIT_UNKNOWN),
                        ..Seen::new(
                            top.clone(),
                            paths::home_form(&top, root, home),
                            Access::Write,
                        )
                    });
                }
                Err(None) => out.push(Seen {
                    anything: true,
                    because: Some(GIT_UNKNOWN),
                    ..Seen::new(String::new(), None, Access::Write)
                }),
            }
            out
        }
    }

    /// The files the git commands of the line write in the work tree
    /// that the line does not name (`git switch main`: every file that
    /// differs from `main`), asked of the repository where the call runs
    /// ([`crate::git_writes`]). When it cannot say (the versions are known
    /// only when the command runs, git does not answer in time, the line
    /// points git at another repository or moves first), `Err` with the
    /// top of the work tree, every file of which may be written, or
    /// `Err(None)` where that is not known either: any file. An example's
    /// call has no repository, and names none.
    fn git_written(&self, analysis: &Analysis) -> Result<Vec<String>, Option<String>> {
        let by_command: Vec<Vec<access::GitWrite>> =
            analysis.commands.iter().map(access::git_writes).collect();
        if by_command.iter().all(Vec::is_empty) {
            return Ok(Vec::new());
        }
        // What the repository says holds for the line as it starts: a
        // command before (`git fetch && git merge @{u}`, a copy into
        // `.git/refs`) may change what a rev names.
        let first_only = by_command.iter().skip(1).all(Vec::is_empty);
        let writes: Vec<access::GitWrite> = by_command.into_iter().flatten().collect();
        let call = self.call;
        let Some(root) = call.root.as_deref().filter(|r| *r != EXAMPLE_ROOT) else {
            return Ok(Vec::new());
        };
        let elsewhere = analysis
            .commands
            .iter()
            .any(|c| c.repo_elsewhere || matches!(c.program.as_str(), "cd" | "pushd" | "popd"))
            || call
                .command
                .as_deref()
                .is_some_and(|l| l.contains("GIT_DIR") || l.contains("GIT_WORK_TREE"));
        if elsewhere {
            return Err(None);
        }
        let dir = std::path::Path::new(root).join(call.cwd.as_deref().unwrap_or(""));
        if !dir.is_dir() {
            // Not on this machine (a payload `hookc why` explains): no
            // repository to write to.
            return Ok(Vec::new());
        }
        let deadline = self.walk_deadline();
        let whole =
            || crate::git_writes::top(&dir, deadline).and_then(|t| t.to_str().map(str::to_owned));
        if crate::git_writes::outside_any(&dir, deadline) {
            return Ok(Vec::new());
        }
        if !first_only {
            return Err(whole());
        }
        let mut files: Vec<String> = Vec::new();
        let mut asked: Vec<&access::GitWrite> = Vec::new();
        for w in &writes {
            if asked.contains(&w) {
                continue;
            }
            asked.push(w);
            let Some(found) = crate::git_writes::files(w, &dir, deadline) else {
                return Err(whole());
            };
            for f in found {
                files.push(f.to_str().ok_or_else(whole)?.to_owned());
            }
            if files.len() > MAX_RESOLVED {
                return Err(whole());
            }
        }
        Ok(files)
    }
}

/// At most this many different paths of one call are resolved through their
/// links (each costs a few system calls, far more on a network file system);
/// a call that names more is taken to touch any file. [`lex::MAX_WORDS`]
/// words can name this many at most once each.
///
/// [`lex::MAX_WORDS`]: crate::shell::lex::MAX_WORDS
pub const MAX_RESOLVED: usize = 20_000;

/// Symbolic links, resolved on the machine where the call runs.
struct Links {
    /// The project root, and the root with its own links resolved.
    root: Option<(std::path::PathBuf, std::path::PathBuf)>,
    /// What each path resolved to, so that a name repeated costs once.
    known: std::collections::HashMap<String, Option<Led>>,
}

impl Links {
    fn new(root: Option<&str>) -> Self {
        let root = root
            .map(std::path::PathBuf::from)
            .filter(|r| r.is_absolute())
            .and_then(|r| std::fs::canonicalize(&r).ok().map(|c| (r, c)));
        Links {
            root,
            known: std::collections::HashMap::new(),
        }
    }

    /// Whether [`MAX_RESOLVED`] paths have been resolved (never where
    /// nothing is resolved: an example's call has no root on disk).
    fn spent(&self) -> bool {
        self.root.is_some() && self.known.len() >= MAX_RESOLVED
    }

    /// What `path` (normalised) leads to, when a link on the way makes it
    /// another file; `None` otherwise (and where nothing exists: an
    /// example's root; a file yet to be written below a real directory is
    /// resolved through its directory). `raw` is the same path before its
    /// `..` were resolved ([`paths::joined`]): the kernel takes a `..`
    /// after a link from where the link leads (`l/../x`, with `l` a link
    /// to `a/b`, is `a/x`), never from the link's own folder.
    fn resolve(&mut self, raw: &str, path: &str, home: Option<&str>) -> Option<Led> {
        if let Some(known) = self.known.get(raw) {
            return known.clone();
        }
        let real = self.resolve_uncached(raw, path, home);
        if self.root.is_some() {
            self.known.insert(raw.to_owned(), real.clone());
        }
        real
    }

    fn resolve_uncached(&self, raw: &str, path: &str, home: Option<&str>) -> Option<Led> {
        let (root, real_root) = self.root.as_ref()?;
        // A process's own places spelled as such are followed from the
        // line itself (`access`): here they would be the guard's own. One
        // reached by a `..` after another name is walked: that name may be
        // a link.
        let raw = std::path::Path::new(raw);
        let climbs = raw
            .components()
            .any(|c| c == std::path::Component::ParentDir);
        if kernel_place(std::path::Path::new(path)) && !climbs {
            return None;
        }
        let (from, rest) = match raw.strip_prefix(root) {
            Ok(rest) => (real_root.clone(), rest),
            Err(_) if raw.is_absolute() => (std::path::PathBuf::new(), raw),
            Err(_) => return None,
        };
        let real = match walk(from, rest)? {
            Walked::Real(real) => real,
            Walked::Kernel => return Some(Led::Kernel),
        };
        let real = match real.strip_prefix(real_root) {
            Ok(rest) => root.join(rest),
            Err(_) => real,
        };
        let real = paths::normalize(real.to_str()?, root.to_str(), home);
        (real != path).then_some(Led::To(real))
    }
}

/// Where a path leads through its links.
#[derive(Clone)]
enum Led {
    /// Another file (normalised).
    To(String),
    /// Into a process's own places (`/proc/…`, `/dev/fd`): what is there
    /// is known only when the line runs.
    Kernel,
}

enum Walked {
    Real(std::path::PathBuf),
    Kernel,
}

/// At most this many links are followed on one path, as the kernel does
/// (Linux's `MAXSYMLINKS`): past it, the path names nothing.
const MAX_LINKS: usize = 40;

/// What the kernel reaches for `rest` from `from` (a directory without
/// links, or nothing when `rest` is absolute): each link on the way is
/// followed, and a `..` after it is taken from where it leads. What does
/// not exist yet is appended as it is. `None` for a path that reaches
/// nothing (a loop of links).
fn walk(mut real: std::path::PathBuf, rest: &std::path::Path) -> Option<Walked> {
    use std::path::{Component, Path, PathBuf};
    enum Step {
        Root(PathBuf),
        Up,
        Name(std::ffi::OsString),
    }
    // The steps of a path, last first (so that a link's own are pushed on).
    let steps = |p: &Path| {
        let mut root = PathBuf::new();
        let mut out = Vec::new();
        for c in p.components() {
            match c {
                Component::Prefix(_) | Component::RootDir => root.push(c),
                Component::CurDir => {}
                Component::ParentDir => out.push(Step::Up),
                Component::Normal(n) => out.push(Step::Name(n.to_owned())),
            }
        }
        if !root.as_os_str().is_empty() {
            out.insert(0, Step::Root(root));
        }
        out.reverse();
        out
    };
    let mut todo = steps(rest);
    let mut links = 0;
    let mut missing = false;
    while let Some(step) = todo.pop() {
        let name = match step {
            Step::Root(root) => {
                real = root;
                continue;
            }
            Step::Up => {
                real.pop();
                continue;
            }
            Step::Name(name) => name,
        };
        let next = real.join(&name);
        if missing {
            real = next;
            continue;
        }
        match std::fs::symlink_metadata(&next) {
            Ok(meta) if meta.file_type().is_symlink() => {
                links += 1;
                if links > MAX_LINKS {
                    return None;
                }
                let target = std::fs::read_link(&next).ok()?;
                if kernel_place(&lexical(&real.join(&target))) {
                    return Some(Walked::Kernel);
                }
                todo.extend(steps(&target));
            }
            Ok(_) => real = next,
            Err(_) => {
                missing = true;
                real = next;
            }
        }
    }
    Some(Walked::Real(real))
}

/// `path` with `.` and `..` taken as written.
fn lexical(path: &std::path::Path) -> std::path::PathBuf {
    let mut out = std::path::PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// Whether an absolute path is in a process's own places, which the
/// kernel fills for whoever looks: `/proc`, `/dev/fd`, `/dev/stdin`.
fn kernel_place(path: &std::path::Path) -> bool {
    [
        "/proc",
        "/dev/fd",
        "/dev/stdin",
        "/dev/stdout",
        "/dev/stderr",
    ]
    .iter()
    .any(|p| path.starts_with(p))
}

/// How the guard meets the call, `None` when it does not match; an `Err`
/// when its regexes do not compile.
pub(super) fn match_guard(
    guard: &Guard,
    compiled: &Compiled,
    call: &Call,
    facts: &Facts,
) -> Result<Option<Hit>, String> {
    if call.shell == Shell::PowerShell && (!guard.commands.is_empty() || compiled.paths.is_some()) {
        return powershell_hit(guard, compiled, call, facts);
    }
    let mut opaque_reason = None;
    if !guard.commands.is_empty() {
        let Some(analysis) = facts.analysis() else {
            return Ok(None);
        };
        let matched = analysis
            .commands
            .iter()
            .any(|c| guard.commands.iter().any(|p| p.matches(c)));
        if !matched {
            if guard.opaque == Decision::Allow {
                return Ok(None);
            }
            // A command this guard's patterns could describe once its unknown
            // words have values; what else is opaque in the line concerns
            // every guard with command patterns.
            let unsure = analysis
                .commands
                .iter()
                .find(|c| !c.unknown.is_empty() && guard.commands.iter().any(|p| p.could_match(c)));
            // What a program hookc does not know may run (`foo git push -f`).
            if let Some(presumed) = unknown::presumption(guard, analysis, &facts.copies, facts.call)
            {
                opaque_reason = Some(presumed.reason());
            } else if analysis.opaque.is_empty() && unsure.is_none() {
                return Ok(None);
            } else {
                opaque_reason = Some(opaque_instruction(analysis, unsure));
            }
        }
    }
    if !guard_regex_matches(guard, compiled, call, facts)? {
        return Ok(None);
    }
    let mut because = None;
    if let Some(paths) = path_set(guard, compiled, call) {
        let touched = facts.touched();
        match touched
            .iter()
            .find(|seen| asks_for(guard, seen) && touches_guard(guard, paths, seen, call, facts))
        {
            Some(seen) => because = seen.why_touched(),
            // No file hookc can name is the guard's; one it cannot name, or a
            // line it cannot read, may be (closed world).
            None => match opacity::unnamed(guard, facts) {
                Some(reason) if opaque_reason.is_none() => opaque_reason = Some(reason),
                Some(_) => {}
                None => return Ok(None),
            },
        }
    }
    Ok(Some(match opaque_reason {
        Some(reason) => Hit {
            guard: guard.name.clone(),
            from: guard.from.clone(),
            decision: guard.opaque,
            reason,
            message: guard.message.clone(),
        },
        None => Hit {
            guard: guard.name.clone(),
            from: guard.from.clone(),
            decision: guard.decision,
            reason: match because {
                Some(why) => format!("{} {why}", guard.reason),
                None => guard.reason.clone(),
            },
            message: guard.message.clone(),
        },
    }))
}

/// Whether the guard's `access` covers what the call does to the file.
pub(super) fn asks_for(guard: &Guard, seen: &Seen) -> bool {
    match guard.access {
        PathAccess::Any => true,
        PathAccess::Read => seen.access.reads(),
        PathAccess::Write => seen.access.writes(),
    }
}

/// The guard's path globs as they apply to this call: letters in either
/// case where the file system folds case (built on first use from globs
/// that compiled once already, so it cannot fail).
pub(super) fn path_set<'c>(
    guard: &Guard,
    compiled: &'c Compiled,
    call: &Call,
) -> Option<&'c PathSet> {
    let kept = compiled.paths.as_ref()?;
    if !call.folds_case {
        return Some(kept);
    }
    let folded = compiled
        .folded
        .get_or_init(|| PathSet::folding_case(&guard.paths).ok());
    Some(folded.as_ref().unwrap_or(kept))
}

/// A guard that looks at commands or paths meets a PowerShell line it
/// cannot read: it refuses (or does what its `opaque` says), as long as its
/// regexes, if any, match the raw line.
fn powershell_hit(
    guard: &Guard,
    compiled: &Compiled,
    call: &Call,
    facts: &Facts,
) -> Result<Option<Hit>, String> {
    if guard.opaque == Decision::Allow || !guard_regex_matches(guard, compiled, call, facts)? {
        return Ok(None);
    }
    let tool = call
        .tool
        .as_ref()
        .map_or("PowerShell", |t| t.native.as_str());
    Ok(Some(Hit {
        guard: guard.name.clone(),
        from: guard.from.clone(),
        // hookc's run-time judge runs POSIX shell lines only.
        decision: match guard.opaque {
            Decision::Supervise => Decision::Deny,
            other => other,
        },
        reason: format!(
            "hookc could not check this `{tool}` call: it reads POSIX shell (bash, zsh, sh), not \
             PowerShell. Run the command through the Bash tool instead, written for bash (on \
             Windows that tool comes with Git for Windows); if there is no Bash tool, ask the \
             user to run the command (`hookc why` shows them what hookc saw)."
        ),
        message: guard.message.clone(),
    }))
}

/// Whether a file the call touches is one of the guard's: a path by its
/// spellings, a glob by every name it could expand to.
pub(super) fn touches_guard(
    guard: &Guard,
    paths: &PathSet,
    seen: &Seen,
    call: &Call,
    facts: &Facts,
) -> bool {
    if seen.anything {
        return true;
    }
    if seen.runtime.is_some() {
        // Judged apart ([`opacity::unnamed`]): it names no file here.
        return false;
    }
    let mut spellings = vec![seen.path.as_str()];
    spellings.extend(seen.home.as_deref());
    if seen.tree
        && seen.glob.is_none()
        && seen.access.writes()
        && holds_guarded(guard, &spellings, call)
        && is_directory(&seen.path, call)
        && holds_on_disk(guard, paths, &seen.path, call, facts)
    {
        return true;
    }
    let Some(mut how) = seen.glob else {
        return paths.is_match_any(&spellings);
    };
    how.nocase |= call.folds_case;
    if seen.tree && seen.access.writes() && glob_holds_guarded(guard, paths, seen, how, call, facts)
    {
        return true;
    }
    // A glob spelled relative to the project names files in it, never an
    // absolute path outside it (`*.rs` is no file of `/var/state/hookc`).
    let outside = |s: &str, g: &str| {
        let g = g.trim();
        !s.starts_with(['/', '~'])
            && g.starts_with('/')
            && call
                .root
                .as_deref()
                .is_some_and(|r| !g.starts_with(&format!("{}/", r.trim_end_matches('/'))))
    };
    let could = guard
        .paths
        .iter()
        .filter(|g| !g.trim().starts_with('!'))
        .any(|g| {
            spellings
                .iter()
                .any(|s| !outside(s, g) && access::could_name(s, how, g))
        });
    // Listed through a link, the files are another folder's: see
    // `starts_through_link`.
    let through_link = || {
        let (root, glob) = match seen.path.strip_prefix('/') {
            Some(rest) => (Some("/"), rest),
            None => (call.root.as_deref(), seen.path.as_str()),
        };
        seen.listed
            && !glob.starts_with('~')
            && root
                .is_some_and(|r| starts_through_link(std::path::Path::new(r), &literal_start(glob)))
    };
    if (!could && !seen.split && !through_link()) || !how.dot || !seen.listed {
        return could;
    }
    // A tool's glob that also names dotfiles (Gemini's) could name nearly
    // anything; the tool expands it where the call runs, so the names it
    // expands to there decide, when they can be listed in time; so do the
    // regular files `find` lists and hands a command (`-exec`, `xargs`).
    // (Any other glob of a shell command counts every name it could take:
    // the line may create the file before it reads it.)
    let except: Vec<globset::GlobMatcher> = seen
        .except
        .iter()
        .filter_map(|g| globset::Glob::new(g).ok().map(|g| g.compile_matcher()))
        .collect();
    let kept = |f: &str| {
        let name = f.rsplit('/').next().unwrap_or(f);
        !except.iter().any(|e| e.is_match(name))
    };
    // `xargs` reads `a .env` as two names, the second `.env` here.
    // Any name, in any folder: a word it splits into may be any path.
    let splits = |f: &str| seen.split && f.contains([' ', '\t', '\n', '\'', '"', '\\']);
    let wanted = |f: &str| kept(f) && (paths.is_match_any(&[f]) || splits(f));
    // A tree that cannot be listed in time counts as holding the file.
    expands_to_any(
        call.root.as_deref(),
        &seen.path,
        how,
        &wanted,
        facts.walk_deadline(),
    )
    .unwrap_or(true)
}

/// Whether a directory a write reaches into (`rm -rf ..`, `chmod -R`, a
/// copy into it), by one of its `spellings`, may hold a file the guard
/// names: whether some name below it is one of the guard's. What is on
/// disk does not decide: the line may put the file there first.
fn holds_guarded(guard: &Guard, spellings: &[&str], call: &Call) -> bool {
    let how = Expansion {
        dot: true,
        nocase: call.folds_case,
    };
    spellings.iter().any(|s| {
        let below = match s.trim_end_matches('/') {
            "" | "." => "**".to_owned(),
            dir => format!("{dir}/**"),
        };
        let below = if s.starts_with('/') && s.trim_matches('/').is_empty() {
            "/**".to_owned()
        } else {
            below
        };
        guard
            .paths
            .iter()
            .filter(|g| !g.trim().starts_with('!'))
            .any(|g| access::could_name(&below, how, g))
    })
}

/// Whether a glob a write reaches into (`rm -rf .c*`, `chmod -R 000 */`)
/// expands, where the call runs, to a directory that holds one of the
/// guard's files, as [`holds_on_disk`] decides for each. Only a glob that
/// could name a folder above one of the guard's paths is listed; a tree
/// that cannot be listed in time holds one.
fn glob_holds_guarded(
    guard: &Guard,
    paths: &PathSet,
    seen: &Seen,
    how: Expansion,
    call: &Call,
    facts: &Facts,
) -> bool {
    let loose = Expansion { dot: true, ..how };
    let below = format!("{}/**", seen.path.trim_end_matches('/'));
    let could = guard
        .paths
        .iter()
        .filter(|g| !g.trim().starts_with('!'))
        .any(|g| access::could_name(&below, loose, g));
    if !could {
        return false;
    }
    let Some(root) = call.root.as_deref().filter(|r| *r != EXAMPLE_ROOT) else {
        return true;
    };
    let holds = |f: &str| is_directory(f, call) && holds_on_disk(guard, paths, f, call, facts);
    expands_to_any(
        Some(root),
        seen.path.trim_end_matches('/'),
        how,
        &holds,
        facts.walk_deadline(),
    )
    .unwrap_or(true)
}

/// Whether the directory `dir` (normalised) holds one of the guard's files
/// where the call runs: a literal path of the guard's is looked up, any
/// other is searched for below the directory (in the time a walk has; a
/// tree that cannot be listed in time holds one).
fn holds_on_disk(guard: &Guard, paths: &PathSet, dir: &str, call: &Call, facts: &Facts) -> bool {
    let Some(root) = call.root.as_deref().filter(|r| *r != EXAMPLE_ROOT) else {
        return true;
    };
    let inside = |p: &str| dir == "." || p.starts_with(&format!("{}/", dir.trim_end_matches('/')));
    let literal = |g: &str| !g.contains(['*', '?', '[', '{', '!', '\\']);
    for g in guard.paths.iter().map(|g| g.trim()) {
        let Some(p) = g.strip_prefix("./").filter(|p| literal(p)) else {
            continue;
        };
        let p = p.trim_end_matches('/');
        if inside(p) && std::fs::symlink_metadata(std::path::Path::new(root).join(p)).is_ok() {
            return true;
        }
    }
    let below = match dir.trim_end_matches('/') {
        "" if dir.starts_with('/') => "/**".to_owned(),
        "" | "." => "**".to_owned(),
        d => format!("{d}/**"),
    };
    let how = Expansion {
        dot: true,
        nocase: call.folds_case,
    };
    // A file found is matched as the guards spell it: as found, and in
    // its `~` form (`~/.local/state/hookc`).
    let home = call.home.as_deref();
    let wanted = |f: &str| match paths::home_form(f, Some(root), home) {
        Some(h) => paths.is_match_any(&[f, &h]),
        None => paths.is_match_any(&[f]),
    };
    expands_to_any(Some(root), &below, how, &wanted, facts.walk_deadline()).unwrap_or(true)
}

/// Whether `path` (normalised) is a directory where the call runs: only
/// then does a write reach below it (`mv notes.txt old.txt` moves no
/// `.env`). A symbolic link is not: the write changes the link, and what
/// it leads to is a path of its own (see [`Facts::touched`]). A path that
/// cannot be looked at may be one.
fn is_directory(path: &str, call: &Call) -> bool {
    let root = call.root.as_deref();
    if root.is_none_or(|r| r == EXAMPLE_ROOT) {
        // No machine to look on: the project, a folder above it, and a
        // name written as a folder (`src/`) are folders.
        return path == "."
            || path.ends_with('/')
            || path.split('/').all(|part| part == "..")
            || root.is_some_and(|r| path.starts_with('/') && r.starts_with(path));
    }
    let full = if path.starts_with('/') {
        std::path::PathBuf::from(path)
    } else if let Some(rest) = path.strip_prefix('~') {
        match &call.home {
            Some(home) => std::path::PathBuf::from(format!("{home}{rest}")),
            None => return true,
        }
    } else {
        std::path::Path::new(root.unwrap_or(".")).join(path)
    };
    match std::fs::symlink_metadata(&full) {
        Ok(meta) => meta.is_dir(),
        Err(e) => e.kind() != std::io::ErrorKind::NotFound,
    }
}

/// Whether a file below the project root `root` that `glob` (normalised,
/// relative to the root) names, as a normalised path, is `wanted`; `None`
/// when the root is not on this machine (an example), the glob leaves the
/// root, or the tree cannot be listed before `deadline`.
fn expands_to_any(
    root: Option<&str>,
    glob: &str,
    how: Expansion,
    wanted: &dyn Fn(&str) -> bool,
    deadline: Instant,
) -> Option<bool> {
    // An absolute glob (`grep -r x /etc`) is listed from `/`, and what it
    // finds is spelled absolute again.
    let (root, glob, prefix) = match glob.strip_prefix('/') {
        Some(rest) => (std::path::Path::new("/"), rest, "/"),
        None => (std::path::Path::new(root?), glob, ""),
    };
    if !root.is_absolute()
        || glob.starts_with("..")
        || glob.starts_with('~')
        || glob.contains("/../")
    {
        return None;
    }
    // An example's project holds no file: nothing a glob could name
    // exists there. Any other root that cannot be listed is refused.
    if root == std::path::Path::new(EXAMPLE_ROOT) {
        return Some(false);
    }
    if !std::fs::metadata(root).ok()?.is_dir() {
        return None;
    }
    let matcher = globset::GlobBuilder::new(glob)
        .literal_separator(true)
        .case_insensitive(how.nocase)
        .build()
        .ok()?
        .compile_matcher();
    // Link targets are spelled as the guards see paths: relative to the
    // project when inside it (through the root's own links too).
    let real_root = (prefix.is_empty())
        .then(|| std::fs::canonicalize(root).ok())
        .flatten()
        .and_then(|r| r.to_str().map(str::to_owned));
    let start = literal_start(glob);
    if starts_through_link(root, &start) {
        return None;
    }
    any_matching(
        root,
        start,
        &matcher,
        prefix,
        real_root.as_deref(),
        wanted,
        deadline,
    )
}

/// Whether a link lies on the way from `root` to the folder `start` where a
/// listing begins (`cfg -> config`, read as `cfg/`): what is below it is
/// the target's, under names the guards do not know, so a listing cannot
/// say and every name counts.
fn starts_through_link(root: &std::path::Path, start: &str) -> bool {
    !start.is_empty()
        && std::fs::canonicalize(root.join(start))
            .is_ok_and(|real| std::fs::canonicalize(root).ok().map(|r| r.join(start)) != Some(real))
}

/// The literal folders a glob starts with, where listing it begins (all of
/// its literal part when a pattern follows: `tmp/a.tgz/**` lists
/// `tmp/a.tgz` only).
fn literal_start(glob: &str) -> String {
    let parts: Vec<&str> = glob.split('/').collect();
    let literal: Vec<&str> = parts
        .iter()
        .copied()
        .take_while(|c| !access::is_glob(c))
        .collect();
    if literal.len() < parts.len() {
        literal.join("/")
    } else {
        literal[..literal.len().saturating_sub(1)].join("/")
    }
}

/// How long one call may spend listing directories (all its listings
/// together) to see whether a recursive read (`grep -r KEY .`) reaches a
/// guarded file. Far more than listing a large repository takes (100,000
/// entries, `node_modules` included, list in a tenth of a second), far less
/// than a harness waits for a hook: a walk cut short counts as a match, so a
/// tree too large to list refuses the call rather than making the guard slow
/// (a harness runs the call when its hook times out).
const WALK_BUDGET: Duration = Duration::from_secs(1);

/// Whether some name below `root`/`start` that `matcher` matches, spelled
/// with `prefix` before it (`/` for an absolute glob), is `wanted`; or the
/// target of a matching link, spelled relative to the project when inside
/// `real_root` (the root with its links resolved). The walk stops at the
/// first such name. `None` when `deadline` passes first, which the caller
/// counts as a match.
///
/// A link to a directory is not walked into, so links cannot make the walk
/// loop (`grep -r` does not follow them either).
fn any_matching(
    root: &std::path::Path,
    start: String,
    matcher: &globset::GlobMatcher,
    prefix: &str,
    real_root: Option<&str>,
    wanted: &dyn Fn(&str) -> bool,
    deadline: Instant,
) -> Option<bool> {
    let mut stack = vec![start];
    while let Some(dir) = stack.pop() {
        if Instant::now() >= deadline {
            return None;
        }
        let Ok(list) = std::fs::read_dir(root.join(&dir)) else {
            continue;
        };
        for (n, entry) in list.flatten().enumerate() {
            // A directory of a million files is one `read_dir`.
            if n % 1024 == 1023 && Instant::now() >= deadline {
                return None;
            }
            // A name that is not UTF-8 is matched as read with U+FFFD,
            // which `*` matches: it counts where any name would.
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let rel = if dir.is_empty() {
                name.into_owned()
            } else {
                format!("{dir}/{name}")
            };
            let file_type = entry.file_type().ok();
            if matcher.is_match(&rel) {
                if wanted(&format!("{prefix}{rel}")) {
                    return Some(true);
                }
                // A link is also what it leads to (`grep -R` follows it):
                // a link to `.env` is `.env`.
                if file_type.is_some_and(|t| t.is_symlink())
                    && let Ok(target) = std::fs::canonicalize(entry.path())
                    && let Some(target) = target.to_str()
                    && wanted(&crate::paths::normalize(target, real_root, None))
                {
                    return Some(true);
                }
            }
            if file_type.is_some_and(|t| t.is_dir()) {
                stack.push(rel);
            }
        }
    }
    Some(false)
}

/// Whether the guard's regexes (when it has any) match a text of the call.
/// They are compiled only when some text is long enough for one of them:
/// `\w{200}` cannot match `ls -la`, and knowing it takes a parse, not the
/// compilation.
pub(super) fn guard_regex_matches(
    guard: &Guard,
    compiled: &Compiled,
    call: &Call,
    facts: &Facts,
) -> Result<bool, String> {
    if guard.regexes.is_empty() {
        return Ok(true);
    }
    let subjects = regex_subjects(call, facts);
    if compiled.regexes.get().is_none() {
        let longest = subjects.iter().map(String::len).max().unwrap_or(0);
        let could = guard
            .regexes
            .iter()
            .any(|r| regex_minimum_len(r).is_none_or(|least| least <= longest));
        if !could {
            return Ok(false);
        }
    }
    let regexes = compiled.regexes(guard)?;
    Ok(subjects
        .iter()
        .any(|s| regexes.iter().any(|r| r.is_match(s))))
}

/// Regexes see the raw command line and each simple command re-spelled
/// canonically (`program arg …`, wrappers removed), so a regex written for
/// `git push --force` also sees `sudo /usr/bin/git  push --force`; and the
/// call's text (prompt, message, tool input).
pub(super) fn regex_subjects<'f>(call: &Call, facts: &'f Facts) -> &'f [String] {
    facts.subjects.get_or_init(|| {
        let mut subjects: Vec<String> = Vec::new();
        if let Some(command) = &call.command {
            subjects.push(command.clone());
            if let Some(analysis) = facts.analysis() {
                for c in &analysis.commands {
                    let mut line = c.program.clone();
                    for arg in &c.args {
                        line.push(' ');
                        line.push_str(arg);
                    }
                    subjects.push(line);
                }
            }
        }
        if let Some(text) = &call.text {
            subjects.push(text.clone());
        }
        subjects
    })
}

pub(super) fn opaque_instruction(
    analysis: &Analysis,
    unsure: Option<&shell::SimpleCommand>,
) -> String {
    let mut reasons: Vec<String> = analysis.opaque.iter().map(|o| o.reason.clone()).collect();
    if let Some(cmd) = unsure {
        let words: Vec<String> = cmd
            .unknown
            .iter()
            .filter_map(|&k| cmd.args.get(k))
            .map(|w| format!("`{}`", shell::normalize::short(w)))
            .collect();
        reasons.push(format!(
            "{} in a `{}` command, whose value is known only when it runs",
            words.join(", "),
            cmd.program
        ));
    }
    reasons.dedup();
    format!(
        "hookc could not check this shell command because it uses {}. Rewrite it as plain commands \
         (literal program names and arguments, joined with && if needed) and run it again. If it \
         cannot be written plainly, tell the user: `hookc why` shows them how hookc read it.",
        reasons.join(", ")
    )
}

/// A guard's MCP server or tool glob (`*`, `?`) against a call's name, as
/// `hookc guard` matches it; the harnesses' matchers hold the same globs as
/// [`McpNames::matcher`](crate::profile::McpNames::matcher) regexes.
pub fn glob_word(pattern: &str, text: &str) -> bool {
    fn go(p: &[char], t: &[char]) -> bool {
        match (p.first(), t.first()) {
            (None, None) => true,
            (Some('*'), _) => go(&p[1..], t) || (!t.is_empty() && go(p, &t[1..])),
            (Some('?'), Some(_)) => go(&p[1..], &t[1..]),
            (Some(a), Some(b)) if a == b => go(&p[1..], &t[1..]),
            _ => false,
        }
    }
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    go(&p, &t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{Analysed, trace};
    use proptest::prelude::*;

    /// The index must never change a verdict: evaluate without it, guard by guard.
    fn evaluate_unindexed(policy: &Policy, call: &Call) -> Option<Verdict> {
        let facts = Facts::new(call);
        let hits: Vec<Hit> = policy
            .guards
            .iter()
            .filter(|g| Some(g.event) == call.event && tool_applies(g, call))
            .filter_map(|g| match_guard(g, &compile(g).unwrap(), call, &facts).unwrap())
            .collect();
        strictest(hits)
    }

    fn bundled_plus(extra: &str) -> Policy {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/policy.kdl")).unwrap();
        let file = crate::source::SourceFile::new("policy.kdl", format!("{text}\n{extra}"));
        let mut diags = crate::diag::Diagnostics::default();
        let policy = crate::compile::compile_source(&file, &mut diags);
        assert!(!diags.has_errors(), "{diags:?}");
        policy.unwrap()
    }

    const EXTRA: &str = r##"
guard "tokens" {
    tool "shell"
    regex #"secret-[0-9]+"#
    deny "Read tokens from the environment instead."
}
guard "anything-star" {
    command "*make" { flag "-j"; }
    ask "Confirm parallel builds with the user first."
}
guard "no-literal" {
    tool "shell"
    regex #"[a-c]{3}"#
    context "Note: abc-like words are in this command."
}
guard "token-1" {
    tool "shell"
    regex #"secret-1-[0-9]"#
    ask "Token 1: confirm with the user first."
}
guard "token-12" {
    regex #"secret-12-[0-9]"#
    deny "Token 12: read it from the environment instead."
}
guard "generated-1" {
    tool "write" "edit" "read"
    path "generated/1/**"
    ask "generated/1 is generated; change its source instead."
}
guard "generated-12" {
    tool "write" "edit"
    path "generated/12/**" "gen*/x.rs"
    deny "generated/12 is generated; change its source instead."
}
"##;

    fn word() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "git",
            "push",
            "--force",
            "-f",
            "reset",
            "--hard",
            "rm",
            "-rf",
            "/",
            ".",
            "target/",
            "cat",
            ".env",
            ".env.example",
            "echo",
            "secret-42",
            "make",
            "cmake",
            "-j",
            "abc",
            "sudo",
            "&&",
            ";",
            "|",
            "$(date)",
            "'x y'",
            "> .env",
            "bash",
            "-c",
            "secret-1-2",
            "secret-12-3",
            "xsecret-1",
            "generated/12/x.rs",
        ])
    }

    /// The same policy as `hookc guard` reads it: guards as JSON text, the
    /// index as stored in policy.json.
    fn lazy_parts(policy: &Policy) -> (Vec<Vec<u8>>, Vec<Index>) {
        let texts = policy
            .guards
            .iter()
            .map(|g| serde_json::to_vec(g).unwrap())
            .collect();
        let index = Index::build(&policy.guards)
            .iter()
            .map(|i| serde_json::from_str(&serde_json::to_string(i).unwrap()).unwrap())
            .collect();
        (texts, index)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn the_index_never_changes_a_verdict(
            words in prop::collection::vec(word(), 0..8),
            folds_case in prop::bool::weighted(0.2),
            path in prop::sample::select(vec!["", ".env", "src/.env.local", "migrations/1.sql", "README.md", "generated/1/a", "generated/12/b", "generated/x.rs", "gen/x.rs"]),
            tool in prop::sample::select(vec![ToolKind::Shell, ToolKind::Read, ToolKind::Edit, ToolKind::Write]),
            powershell in prop::bool::weighted(0.2),
            typed in prop::bool::weighted(0.2),
        ) {
            static POLICY: std::sync::LazyLock<Policy> = std::sync::LazyLock::new(|| bundled_plus(EXTRA));
            let policy = &*POLICY;
            let call = Call {
                event: Some(Event::PreTool),
                tool: Some(CallTool { kind: Some(tool), mcp: None, native: tool.word().to_owned(), also: Vec::new() }),
                command: (tool == ToolKind::Shell).then(|| words.join(" ")),
                typed: typed && tool == ToolKind::Shell,
                shell: if powershell && tool == ToolKind::Shell { Shell::PowerShell } else { Shell::Posix },
                paths: (!path.is_empty() && tool != ToolKind::Shell).then(|| path.to_owned()).into_iter().collect(),
                globs: Vec::new(),
                text: None,
                root: None,
                home: None,
                cwd: None,
                folds_case,
                git: None,
                harness: None,
                analysed: Analysed::default(),
            };
            let expected = evaluate_unindexed(policy, &call);
            prop_assert_eq!(&Evaluator::new(policy).evaluate(&call), &expected);
            let (texts, indexes) = lazy_parts(policy);
            let index = indexes.into_iter().find(|i| Some(i.event) == call.event);
            let lazy = Evaluator::lazy(texts.iter().map(Vec::as_slice).collect(), index, &|_, _| Ok(())).unwrap();
            prop_assert_eq!(&lazy.evaluate_with(&call, &mut |_| Ok(None)).unwrap(), &expected);
        }
    }

    /// Where the file system folds case, `RM` runs `rm` and `.ENV` is
    /// `.env`; elsewhere they are other names, which the policy allows.
    fn shell_call(command: &str) -> Call {
        Call::shell_example(command)
    }

    const LONG_WORDS: &str = r##"
guard "long-words" {
    tool "shell"
    regex #"[A-Za-z0-9_]{200}"#
    deny "Split the word."
}
guard "force-and-long-words" {
    tool "shell"
    command "git" "push" { flag "--force" }
    regex #"[A-Za-z0-9_]{200}"#
    deny "Split the word."
}
"##;

    /// Whether guard `name` of the evaluator has compiled its regexes.
    fn compiled_regexes(evaluator: &Evaluator, policy: &Policy, name: &str) -> bool {
        let i = policy.guards.iter().position(|g| g.name == name).unwrap();
        evaluator.compiled[i]
            .get()
            .is_some_and(|c| c.as_ref().unwrap().regexes.get().is_some())
    }

    /// A regex is compiled when a call reaches it, not before: not for a
    /// line too short to match it, not for a command the guard's patterns
    /// do not describe.
    #[test]
    fn a_regex_is_compiled_only_for_a_call_that_needs_it() {
        let policy = bundled_plus(LONG_WORDS);
        let evaluator = Evaluator::new(&policy);
        let long = "x".repeat(200);
        assert_eq!(evaluator.evaluate(&shell_call("ls -la")), None);
        assert!(!compiled_regexes(&evaluator, &policy, "long-words"));
        assert!(!compiled_regexes(
            &evaluator,
            &policy,
            "force-and-long-words"
        ));
        let verdict = evaluator.evaluate(&shell_call(&format!("echo {long}")));
        assert_eq!(verdict.map(|v| v.decision), Some(Decision::Deny));
        assert!(compiled_regexes(&evaluator, &policy, "long-words"));
        assert!(!compiled_regexes(
            &evaluator,
            &policy,
            "force-and-long-words"
        ));
    }

    /// A regex that does not compile where the call is decided (a
    /// policy.json changed by hand: one that is not a regex, one over the
    /// engine's size) leaves the call undecided, however short the line.
    #[test]
    fn a_regex_that_does_not_compile_leaves_the_call_undecided() {
        let long = format!("echo {}", "x".repeat(5000));
        for (broken, line) in [("(", "ls"), (r"(?:\w{500}){8}", long.as_str())] {
            let mut policy = bundled_plus(LONG_WORDS);
            let i = policy
                .guards
                .iter()
                .position(|g| g.name == "long-words")
                .unwrap();
            policy.guards[i].regexes = vec![broken.to_owned()];
            let evaluator = Evaluator::new(&policy);
            let e = evaluator
                .evaluate_with(&shell_call(line), &mut |_| Ok(None))
                .unwrap_err();
            assert!(e.contains("does not compile"), "{e}");
        }
    }

    #[test]
    fn the_minimum_length_of_a_match() {
        assert_eq!(regex_minimum_len(r"\w{200}"), Some(200));
        assert_eq!(regex_minimum_len(r"é"), Some(2));
        assert_eq!(regex_minimum_len(r"a*"), Some(0));
        assert_eq!(regex_minimum_len(r"("), None);
    }

    /// The guards and hookc's own guard read one analysis of the line; a
    /// call whose line changed is analysed again.
    #[test]
    fn a_call_is_analysed_once() {
        let policy = bundled_plus("");
        let evaluator = Evaluator::new(&policy);
        let call = shell_call("git push --force");
        assert!(evaluator.evaluate(&call).is_some());
        let made = call.analysed.0.lock().unwrap().as_ref().unwrap().1.clone();
        assert!(crate::audit::builtin(Event::PreTool, &call).is_none());
        assert!(Arc::ptr_eq(&made, &call.analysis().unwrap()));
        let mut other = call.clone();
        other.command = Some("ls".to_owned());
        assert_eq!(other.analysis().unwrap().commands[0].program, "ls");
        assert!(Arc::ptr_eq(&made, &call.analysis().unwrap()));
    }

    /// hookc's own guard sees what git runs: an alias that runs
    /// `hookc allow-once` is refused like the command itself.
    #[test]
    fn the_approvals_guard_sees_git_aliases() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(
            home.path().join(".gitconfig"),
            "[alias]\n\tok = \"!hookc allow-once\"\n",
        )
        .unwrap();
        let mut call = shell_call("git ok 1234");
        assert!(crate::audit::builtin(Event::PreTool, &call).is_none());
        call.git = Some(crate::shell::git::GitConfig::load(None, Some(home.path())));
        assert!(crate::audit::builtin(Event::PreTool, &call).is_some());
    }

    /// `grep -r KEY .` in a real project at `root`, with the bundled policy.
    fn grep_everything(evaluator: &Evaluator, root: &std::path::Path) -> Option<Decision> {
        let root = root.to_str().unwrap().to_owned();
        let call = Call {
            event: Some(Event::PreTool),
            tool: Some(CallTool {
                kind: Some(ToolKind::Shell),
                native: "Bash".to_owned(),
                ..CallTool::default()
            }),
            command: Some("grep -r KEY .".to_owned()),
            cwd: Some(root.clone()),
            root: Some(root),
            ..Call::default()
        };
        evaluator.evaluate(&call).map(|v| v.decision)
    }

    /// 30,000 entries (more than the 20,000 the walk once stopped at) of a
    /// `node_modules`, a link that leads back up, and no `.env`: searched.
    /// Then a `.env` deep inside: refused, the walk stopping there.
    #[cfg(unix)]
    #[test]
    fn a_recursive_read_of_a_large_tree_sees_what_is_in_it() {
        let dir = tempfile::tempdir().unwrap();
        for p in 0..300 {
            let pkg = dir.path().join(format!("node_modules/pkg{p}/lib"));
            std::fs::create_dir_all(&pkg).unwrap();
            for f in 0..98 {
                std::fs::File::create(pkg.join(format!("f{f}.js"))).unwrap();
            }
        }
        // A directory link is not followed: this one would loop.
        std::os::unix::fs::symlink("../..", dir.path().join("node_modules/pkg3/up")).unwrap();
        let policy = bundled_plus("");
        let evaluator = Evaluator::new(&policy);
        assert_eq!(grep_everything(&evaluator, dir.path()), None);
        let deep = dir.path().join("node_modules/pkg150/lib/a/b/c");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join(".env"), "KEY=1\n").unwrap();
        assert_eq!(
            grep_everything(&evaluator, dir.path()),
            Some(Decision::Deny)
        );
    }

    /// A listing that runs out of time counts as naming every file.
    #[test]
    fn a_walk_out_of_time_counts_as_a_match() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("plain.txt"), "x").unwrap();
        let how = Expansion {
            dot: true,
            nocase: false,
        };
        let root = dir.path().to_str();
        let env = |f: &str| f.ends_with(".env");
        let later = Instant::now() + WALK_BUDGET;
        assert_eq!(expands_to_any(root, "**", how, &env, later), Some(false));
        assert_eq!(expands_to_any(root, "**", how, &env, Instant::now()), None);
    }

    #[test]
    fn a_file_system_that_folds_case_folds_programs_and_paths() {
        let policy = bundled_plus("");
        let evaluator = Evaluator::new(&policy);
        let verdict = |command: Option<&str>, path: Option<&str>, folds_case: bool| {
            let kind = if command.is_some() {
                ToolKind::Shell
            } else {
                ToolKind::Read
            };
            let call = Call {
                event: Some(Event::PreTool),
                tool: Some(CallTool {
                    kind: Some(kind),
                    native: kind.word().to_owned(),
                    ..CallTool::default()
                }),
                command: command.map(str::to_owned),
                paths: path.map(str::to_owned).into_iter().collect(),
                root: Some(EXAMPLE_ROOT.to_owned()),
                folds_case,
                ..Call::default()
            };
            evaluator.evaluate(&call).map(|v| v.decision)
        };
        for (command, path) in [
            (Some("RM -rf ."), None),
            (Some("Sudo GIT push --force"), None),
            (Some("cat .ENV"), None),
            (Some("cat config/.Env.Production"), None),
            (None, Some(".ENV")),
            (None, Some("config/.Env.Local")),
        ] {
            assert_eq!(
                verdict(command, path, true),
                Some(Decision::Deny),
                "{command:?} {path:?}"
            );
            assert_ne!(
                verdict(command, path, false),
                Some(Decision::Deny),
                "{command:?} {path:?}"
            );
        }
        // The template keeps its exception in either case.
        assert_ne!(
            verdict(None, Some(".ENV.EXAMPLE"), true),
            Some(Decision::Deny)
        );
    }

    #[test]
    fn an_index_that_does_not_fit_its_guards_is_refused() {
        let policy = bundled_plus(EXTRA);
        let (texts, indexes) = lazy_parts(&policy);
        let texts: Vec<&[u8]> = texts.iter().map(Vec::as_slice).collect();
        let mut unsorted = indexes[0].clone();
        unsorted.programs.reverse();
        assert!(Evaluator::lazy(texts.clone(), Some(unsorted), &|_, _| Ok(())).is_none());
        let mut too_far = indexes[0].clone();
        too_far.always.push(texts.len());
        assert!(Evaluator::lazy(texts.clone(), Some(too_far), &|_, _| Ok(())).is_none());
        assert!(Evaluator::lazy(texts, Some(indexes[0].clone()), &|_, _| Ok(())).is_some());
    }

    /// The guard's verdict on `line` under the bundled policy, with the
    /// guards that gave it.
    /// Whether `guard` of `policy`, on its own, refuses `line` (or would
    /// run it only under the run-time judge): whatever stricter guard
    /// the whole policy has.
    fn guard_refuses(policy: &Policy, line: &str, guard: &str) -> bool {
        trace(policy, &shell_call(line))
            .iter()
            .any(|t| t.guard == guard && t.decision.is_some_and(Decision::refuses))
    }

    fn bundled_verdict(evaluator: &Evaluator, line: &str) -> Option<(Decision, Vec<String>)> {
        evaluator.evaluate(&shell_call(line)).map(|v| {
            let names = v.guard_names().into_iter().map(str::to_owned).collect();
            (v.decision, names)
        })
    }

    /// Issue 31, classes 1 and 2: a program in none of hookc's tables is
    /// presumed to run what its arguments spell, and a program under
    /// another name (a multicall binary, a `g`-named GNU tool) is the
    /// program it runs.
    #[test]
    fn an_unknown_program_is_presumed_to_run_its_arguments() {
        let policy = bundled_plus("");
        let evaluator = Evaluator::new(&policy);
        for (line, guard) in [
            ("foo git push --force origin main", "no-force-push"),
            ("xcrun git push --force origin main", "no-force-push"),
            (
                "setpriv --no-new-privs rm -rf /",
                "no-recursive-delete-of-the-repo",
            ),
            (
                "runuser -u root -- rm -rf /",
                "no-recursive-delete-of-the-repo",
            ),
            (
                "gdb -q -batch -ex run --args rm -rf /",
                "no-recursive-delete-of-the-repo",
            ),
            (
                "command time -v rm -rf /",
                "no-recursive-delete-of-the-repo",
            ),
            ("env time -f %e rm -rf /", "no-recursive-delete-of-the-repo"),
            ("npm exec -- rm -rf /", "no-recursive-delete-of-the-repo"),
            (
                "tmux new-session -d 'rm -rf /'",
                "no-recursive-delete-of-the-repo",
            ),
            (
                "nix-shell --run 'rm -rf /'",
                "no-recursive-delete-of-the-repo",
            ),
            ("fish -c 'rm -rf /'", "no-recursive-delete-of-the-repo"),
            (
                "zsh --emulate sh -c 'rm -rf /'",
                "no-recursive-delete-of-the-repo",
            ),
            ("arch -arm64 rm -rf /", "no-recursive-delete-of-the-repo"),
            ("busybox rm -rf /", "no-recursive-delete-of-the-repo"),
            ("toybox rm -rf /", "no-recursive-delete-of-the-repo"),
            ("coreutils rm -rf /", "no-recursive-delete-of-the-repo"),
            (
                "coreutils --coreutils-prog=rm -rf /",
                "no-recursive-delete-of-the-repo",
            ),
            ("grm -rf /", "no-recursive-delete-of-the-repo"),
            ("gtimeout 5 rm -rf /", "no-recursive-delete-of-the-repo"),
            (r"env -S 'rm\_-rf\_/'", "no-recursive-delete-of-the-repo"),
            ("foo 'bash -c \"git push -f\"'", "no-force-push"),
            ("foo python3 -c 'import os'", "no-force-push"),
            (
                "foo --run 'git -c help.autocorrect=immediate psuh --force'",
                "no-force-push",
            ),
            // A pattern that may become the program, zsh's `=git`, a
            // program the string itself writes and runs, an alias in a
            // string (found by the soundness judge's long mode).
            (
                "foo /usr/local/bin/gi[t] push -f origin main",
                "no-force-push",
            ),
            (
                "foo --run='/usr/bin/r[m] -rf /'",
                "no-recursive-delete-of-the-repo",
            ),
            (
                "foo -q -c '/usr/bin/r[m] -r -f .git'",
                "no-recursive-delete-of-the-repo",
            ),
            ("foo =git push -f origin main", "no-force-push"),
            (
                "foo --run 'ln -s /usr/bin/rm ./del && ./del -rf /'",
                "no-recursive-delete-of-the-repo",
            ),
            (
                "foo --run='alias r=git\nr push -f origin main'",
                "no-force-push",
            ),
        ] {
            assert!(
                guard_refuses(&policy, line, guard),
                "{line}: {:?}",
                bundled_verdict(&evaluator, line)
            );
        }
        for line in [
            "echo rm -rf /",
            "echo git push --force",
            "printf '%s\\n' 'rm -rf /'",
            "git commit -m 'never git push --force'",
            "grep -rn 'git push --force' docs/",
            "make test",
            "cargo build --release",
            "npm run test",
            "pytest -k push",
            "ggrep -rn push src/",
            "foo rm -rf build",
            "foo git push origin main",
            "gh pr create --title \"don't break the build\"",
            "tmux new-session -d 'npm run dev'",
            "prettier --write src/*.ts",
            "foo --run 'npm run build'",
        ] {
            assert_eq!(bundled_verdict(&evaluator, line), None, "{line}");
        }
    }

    /// A policy that lists programs in command guards instead of naming
    /// files with `path … access=`: issue 31's done-when asks its classes
    /// to refuse under this one too.
    const LISTING: &str = r##"
self-protection "off"
guard "no-force-push" {
    tool "shell"
    command "git" "push" {
        flag "--force" "-f"
    }
    deny "Push without --force."
}
guard "keep-build" {
    tool "shell"
    command "rm" {
        flag "-r" "-R" "--recursive"
        arg "build" "/"
    }
    deny "Delete the files in build/ by name."
}
guard "env-by-program" {
    tool "shell"
    command "{cat,paste,fold,pr,column,iconv,base32,hd,look,zcat,install,head,tail}" {
        arg ".env*"
    }
    command "git" "diff" {
        arg ".env*"
    }
    command "git" "grep" {
        arg ".env*"
    }
    deny "Ask the user for the value instead of reading .env."
}
guard "keep-guards" {
    tool "shell"
    command "cp" {
        arg ".hookc/*"
    }
    command "sed" {
        flag "-i"
        arg "*.kdl"
    }
    deny "Ask the user to change the guards."
}
"##;

    /// Issue 31's classes under [`LISTING`]: programs that run their
    /// arguments, the same program under another name, values known only
    /// at run time, and the readers the access table once lacked.
    #[test]
    fn the_closed_world_holds_under_a_policy_that_lists_programs() {
        let file = crate::source::SourceFile::new("policy.kdl", LISTING.to_owned());
        let mut diags = crate::diag::Diagnostics::default();
        let policy = crate::compile::compile_source(&file, &mut diags);
        assert!(!diags.has_errors(), "{diags:?}");
        let policy = policy.unwrap();
        let evaluator = Evaluator::new(&policy);
        for line in [
            "setpriv --no-new-privs rm -rf build",
            "runuser -u root -- rm -rf build",
            "gdb -q -batch -ex run --args rm -rf build",
            "command time -v rm -rf build",
            "env time -f %e rm -rf build",
            "npm exec -- rm -rf build",
            "tmux new-session -d 'rm -rf build'",
            "nix-shell --run 'rm -rf build'",
            "fish -c 'rm -rf build'",
            "zsh --emulate sh -c 'rm -rf build'",
            "arch -arm64 rm -rf build",
            "xcrun git push --force origin main",
            "hub push --force origin main",
            "busybox rm -rf build",
            "toybox rm -rf build",
            "coreutils rm -rf build",
            "grm -rf build",
            "gcat .env",
            "gtimeout 5 rm -rf build",
            r"env -S 'rm\_-rf\_build'",
            "cat $(echo .env)",
            "f=.env; cat $f",
            "echo .env | xargs cat",
            "cat \"$(ls -a | grep env)\"",
            "cp /dev/null $(echo .hookc)/policy.json",
            "sed -i s/deny/allow/ $(ls *.kdl)",
            "paste .env",
            "fold .env",
            "pr .env",
            "column .env",
            "iconv .env",
            "base32 .env",
            "hd .env",
            "look x .env",
            "zcat -f .env",
            "git diff --no-index /dev/null .env",
            "git grep --no-index '' -- .env",
            "install -m 644 .env notes.txt",
        ] {
            let verdict = bundled_verdict(&evaluator, line);
            assert!(
                verdict.as_ref().is_some_and(|(d, _)| d.refuses()),
                "{line}: {verdict:?}"
            );
        }
        // What the guards do not list goes on; a command guard matches the
        // words, not what a link made of them leads to (book: command.md).
        for line in [
            "cat notes.txt",
            "rm -rf target",
            "git push origin main",
            "sed -i s/a/b/ notes.txt",
        ] {
            assert_eq!(bundled_verdict(&evaluator, line), None, "{line}");
        }
    }

    #[test]
    fn the_reason_names_the_program_hookc_does_not_know() {
        let policy = bundled_plus("");
        let verdict = Evaluator::new(&policy)
            .evaluate(&shell_call("foo -q git push --force origin main"))
            .unwrap();
        let reason = verdict.reason();
        assert!(
            reason.contains("`foo`") && reason.contains("`git push --force origin main`"),
            "{reason}"
        );
        // `hookc why` says which rule applied.
        let traces = trace(&policy, &shell_call("foo -q git push --force origin main"));
        let push = traces.iter().find(|t| t.guard == "no-force-push").unwrap();
        assert!(
            push.conditions
                .iter()
                .any(|c| c.kind == "unknown program" && c.holds && c.detail.contains("`foo`")),
            "{push:?}"
        );
    }

    /// The table of wrappers is for precision only: without its row for
    /// `nice`, `nice rm -rf /` is still refused by the guard on `rm`.
    #[test]
    fn a_wrapper_missing_from_the_table_opens_no_hole() {
        let policy = bundled_plus("");
        let evaluator = Evaluator::new(&policy);
        for wrapper in ["nice", "timeout", "nohup", "flock"] {
            let line = match wrapper {
                "timeout" => "timeout 5 rm -rf /".to_owned(),
                "flock" => "flock .lock -c 'rm -rf /'".to_owned(),
                w => format!("{w} rm -rf /"),
            };
            let (program, refused, verdict) = shell::programs::removed::without(wrapper, || {
                let program = shell::analyze(&line).commands[0].program.clone();
                (
                    program,
                    guard_refuses(&policy, &line, "no-recursive-delete-of-the-repo"),
                    bundled_verdict(&evaluator, &line),
                )
            });
            // The row is really gone: the line reads as the wrapper itself.
            assert_eq!(program, wrapper);
            assert!(
                refused,
                "{line} without `{wrapper}` in the table: {verdict:?}"
            );
        }
    }

    #[test]
    fn mcp_globs() {
        assert!(glob_word("process_*", "process_refund"));
        assert!(glob_word("*", "anything"));
        assert!(!glob_word("process_?", "process_refund"));
        assert!(glob_word("pay??nts", "payments"));
    }
}
