//! The reference semantics of a policy: one call in, one verdict out.
//!
//! `hookc guard` runs this on every tool call, examples run through it at
//! build time, and `hookc test` compares the generated hooks against it.
//! One implementation decides everywhere.
//!
//! Matching, per guard: the event must be the guard's; the call's tool must be
//! one of the guard's tools (no tools: any); and every *kind* of condition the
//! guard has must hold: some `command` pattern matches some simple command
//! (or the command is opaque, see below), some `regex` matches, some touched
//! path matches a `path` glob. Several values of one kind are alternatives.
//!
//! When guards disagree the strictest decision wins (deny/block > ask >
//! rewrite > allow > context), and the answer carries the reason of every
//! guard at that level.

use std::cell::OnceCell;
use std::collections::HashMap;

use aho_corasick::{AhoCorasick, AhoCorasickKind};
use regex::Regex;

use crate::ir::{Decision, Event, ExampleCall, Expectation, Guard, Policy, Tool, ToolKind};
use crate::paths::{self, PathSet};
use crate::shell::{self, Analysis};

/// One call as hookc sees it, whatever harness it came from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Call {
    pub event: Option<Event>,
    pub tool: Option<CallTool>,
    /// The shell command line, for shell calls.
    pub command: Option<String>,
    /// Files the call touches, as the harness gave them.
    pub paths: Vec<String>,
    /// Text to run regexes over when there is no command: the prompt, the
    /// agent's last message, or the tool input as JSON.
    pub text: Option<String>,
    /// The project root, to make absolute paths relative.
    pub root: Option<String>,
    /// The directory the call runs in, when the harness says so and it is
    /// absolute: relative paths of the call are relative to it, not to the root.
    pub cwd: Option<String>,
    pub home: Option<String>,
}

/// The tool of a call: its neutral kind when hookc knows it, and always the harness's own name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CallTool {
    pub kind: Option<ToolKind>,
    pub mcp: Option<(String, String)>,
    pub native: String,
    /// Other readings of the same call, for harnesses whose tools do not map
    /// onto one neutral tool: a patch that adds one file and changes another
    /// is a write and an edit; an MCP name whose separator also occurs in
    /// server names splits several ways. A guard applies when it applies to
    /// the tool or to any of these.
    pub also: Vec<CallTool>,
}

impl Call {
    /// The call an `example` line describes.
    pub fn from_example(event: Event, example: &ExampleCall) -> Call {
        let tool = example.tool.as_ref().map(|t| match t {
            Tool::Known { tool } => CallTool {
                kind: Some(*tool),
                native: tool.word().to_owned(),
                ..CallTool::default()
            },
            Tool::Mcp { server, tool } => CallTool {
                mcp: Some((server.clone(), tool.clone())),
                native: format!("mcp__{server}__{tool}"),
                ..CallTool::default()
            },
            Tool::Native { name, .. } => CallTool {
                native: name.clone(),
                ..CallTool::default()
            },
        });
        Call {
            event: Some(event),
            tool,
            command: example.command.clone(),
            paths: example.path.iter().cloned().collect(),
            text: example.text.clone(),
            root: None,
            cwd: None,
            home: None,
        }
    }
}

/// What a guard's own program said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunResult {
    /// Exit 0: the guard does not apply.
    Allow,
    /// Exit 2: the guard's decision, with this reason (empty: the guard's own).
    Refuse(String),
}

/// What the policy decided, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub decision: Decision,
    /// Every guard that reached `decision`'s level, in policy order.
    pub hits: Vec<Hit>,
    /// For [`Decision::Rewrite`]: the shell command line to run instead.
    pub rewritten: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub guard: String,
    pub decision: Decision,
    pub reason: String,
    pub message: Option<String>,
}

impl Verdict {
    /// The text the model reads: one reason, or every reason numbered.
    pub fn reason(&self) -> String {
        // Guards refusing for the same reason (an opaque command refused by
        // several command guards) say it once.
        let mut reasons: Vec<&str> = Vec::new();
        for reason in self.hits.iter().map(|h| h.reason.as_str()) {
            if !reason.is_empty() && !reasons.contains(&reason) {
                reasons.push(reason);
            }
        }
        match reasons.as_slice() {
            [] => String::new(),
            [one] => (*one).to_owned(),
            many => {
                let mut out = format!(
                    "{} policy rules apply to this call; address each:",
                    many.len()
                );
                for (i, reason) in many.iter().enumerate() {
                    out.push_str(&format!("\n{}. {}", i + 1, reason));
                }
                out
            }
        }
    }

    /// The text for the user, if any guard has one.
    pub fn message(&self) -> Option<String> {
        let messages: Vec<&str> = self
            .hits
            .iter()
            .filter_map(|h| h.message.as_deref())
            .collect();
        (!messages.is_empty()).then(|| messages.join("\n"))
    }

    pub fn guard_names(&self) -> Vec<&str> {
        self.hits.iter().map(|h| h.guard.as_str()).collect()
    }
}

/// Whether a verdict meets an example's expectation. `allow` is met by any
/// outcome that lets the call proceed (an explicit allow, added context, or no match).
pub fn meets(verdict: Option<&Verdict>, expect: Expectation) -> bool {
    match (expect, verdict) {
        (Expectation::Pass, None) => true,
        (Expectation::Pass, Some(_)) => false,
        (Expectation::Decision(Decision::Allow), None) => true,
        (Expectation::Decision(Decision::Allow), Some(v)) => {
            matches!(v.decision, Decision::Allow | Decision::Context)
        }
        (Expectation::Decision(_), None) => false,
        (Expectation::Decision(d), Some(v)) => v.decision == d,
    }
}

/// A policy ready to evaluate calls.
///
/// Guards are indexed by event and by the literals a call must contain to
/// trigger them (their [`Prefilter`](crate::ir::Prefilter)): a call looks up
/// its programs and scans its text once, and only the guards it could
/// trigger are checked. Each guard's regexes and globs are compiled the
/// first time a call reaches it. So a call costs about the same with ten
/// guards or a thousand, and checking every example of a policy is linear.
pub struct Evaluator<'p> {
    policy: &'p Policy,
    compiled: Vec<OnceCell<Compiled>>,
    events: Vec<(Event, Index)>,
}

#[derive(Default)]
struct Index {
    by_program: HashMap<String, Vec<usize>>,
    /// Guards with command patterns: candidates for any opaque command line.
    commands: Vec<usize>,
    regex: Literals,
    path: Literals,
    /// Guards no literal can rule out.
    always: Vec<usize>,
}

/// Guards keyed by literals, searched with one Aho-Corasick automaton.
#[derive(Default)]
struct Literals {
    literals: Vec<String>,
    owners: Vec<usize>,
    automaton: OnceCell<Option<AhoCorasick>>,
}

impl Literals {
    fn add(&mut self, guard: usize, literals: &[String]) {
        for literal in literals {
            self.literals.push(literal.clone());
            self.owners.push(guard);
        }
    }

    /// Add to `out` every guard one of whose literals occurs in a text.
    fn candidates<'t>(&self, texts: impl Iterator<Item = &'t str>, out: &mut Vec<usize>) {
        let mut texts = texts.peekable();
        if self.literals.is_empty() || texts.peek().is_none() {
            return;
        }
        // A call searches once, so the automaton that is quickest to build
        // wins (the default picks a DFA, which costs milliseconds to build
        // for a few hundred literals and saves microseconds per search).
        let automaton = self.automaton.get_or_init(|| {
            AhoCorasick::builder()
                .kind(Some(AhoCorasickKind::NoncontiguousNFA))
                .build(&self.literals)
                .ok()
        });
        let Some(automaton) = automaton else {
            // Cannot happen for plain literals; fail towards checking every guard.
            out.extend(&self.owners);
            return;
        };
        for text in texts {
            for found in automaton.find_overlapping_iter(text) {
                out.push(self.owners[found.pattern().as_usize()]);
            }
        }
    }
}

impl<'p> Evaluator<'p> {
    pub fn new(policy: &'p Policy) -> Self {
        let mut events: Vec<(Event, Index)> = Vec::new();
        for (i, guard) in policy.guards.iter().enumerate() {
            let index = match events.iter_mut().find(|(e, _)| *e == guard.event) {
                Some((_, index)) => index,
                None => {
                    events.push((guard.event, Index::default()));
                    &mut events.last_mut().expect("just pushed").1
                }
            };
            let hints = &guard.prefilter;
            if !guard.commands.is_empty() {
                index.commands.push(i);
            }
            if let Some(programs) = &hints.programs {
                for program in programs {
                    index.by_program.entry(program.clone()).or_default().push(i);
                }
            } else if let Some(literals) = &hints.regex_literals {
                index.regex.add(i, literals);
            } else if let Some(literals) = &hints.path_literals {
                index.path.add(i, literals);
            } else {
                index.always.push(i);
            }
        }
        Self {
            policy,
            compiled: policy.guards.iter().map(|_| OnceCell::new()).collect(),
            events,
        }
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
        let Some((_, index)) = self.events.iter().find(|(e, _)| Some(*e) == call.event) else {
            return Ok(None);
        };
        let mut candidates = index.always.clone();
        if let Some(analysis) = facts.analysis() {
            if analysis.opaque.is_empty() {
                for command in &analysis.commands {
                    if let Some(guards) = index.by_program.get(&command.program) {
                        candidates.extend(guards);
                    }
                }
            } else {
                candidates.extend(&index.commands);
            }
        }
        index.regex.candidates(
            regex_subjects(call, &facts).iter().map(String::as_str),
            &mut candidates,
        );
        index
            .path
            .candidates(facts.paths().iter().map(String::as_str), &mut candidates);
        candidates.sort_unstable();
        candidates.dedup();

        let mut hits: Vec<Hit> = Vec::new();
        for i in candidates {
            let guard = &self.policy.guards[i];
            if !tool_applies(guard, call) {
                continue;
            }
            let compiled = self.compiled[i].get_or_init(|| compile(guard));
            if let Some(mut hit) = match_guard(guard, compiled, call, &facts) {
                if guard.run.is_some() {
                    match run(guard)? {
                        Some(RunResult::Allow) => continue,
                        Some(RunResult::Refuse(reason)) if !reason.is_empty() => {
                            hit.reason = reason
                        }
                        _ => {}
                    }
                }
                hits.push(hit);
            }
        }
        let Some(level) = hits.iter().map(|h| h.decision.strictness()).max() else {
            return Ok(None);
        };
        hits.retain(|h| h.decision.strictness() == level);
        let verdict = Verdict {
            decision: hits[0].decision,
            hits,
            rewritten: None,
        };
        if rewrite && verdict.decision == Decision::Rewrite {
            return self.rewrite(call, verdict, run);
        }
        Ok(Some(verdict))
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
        run: &mut dyn FnMut(&Guard) -> Result<Option<RunResult>, String>,
    ) -> Result<Option<Verdict>, String> {
        // Whatever stops the rewrite refuses the call: running it unchanged
        // would silently differ from the policy.
        let refuse = |verdict: &Verdict, why: String| Verdict {
            decision: Decision::Deny,
            hits: vec![Hit {
                guard: verdict.guard_names().join(", "),
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
        for hit in &verdict.hits {
            let guard = self.policy.guards.iter().find(|g| g.name == hit.guard);
            for edit in guard.map_or(&[][..], |g| &g.rewrite) {
                match Regex::new(&edit.pattern) {
                    Ok(regex) => {
                        command = regex.replace_all(&command, edit.with.as_str()).into_owned()
                    }
                    Err(e) => {
                        let why = format!(
                            "guard `{}` has a broken rewrite ({e}); run `hookc build`",
                            hit.guard
                        );
                        return Ok(Some(refuse(&verdict, why)));
                    }
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

struct Compiled {
    regexes: Vec<Regex>,
    paths: Option<PathSet>,
}

fn compile(guard: &Guard) -> Compiled {
    Compiled {
        // Regexes were checked at build time; one that no longer compiles
        // (a policy.json edited by hand) is skipped here and caught by `hookc check`.
        regexes: guard
            .regexes
            .iter()
            .filter_map(|r| Regex::new(r).ok())
            .collect(),
        paths: (!guard.paths.is_empty())
            .then(|| PathSet::new(&guard.paths).ok())
            .flatten(),
    }
}

fn tool_applies(guard: &Guard, call: &Call) -> bool {
    if guard.tools.is_empty() {
        return true;
    }
    let Some(tool) = &call.tool else { return false };
    guard.tools.iter().any(|t| reading_applies(t, tool))
}

fn reading_applies(t: &Tool, tool: &CallTool) -> bool {
    let here = match t {
        Tool::Known { tool: kind } => tool.kind == Some(*kind),
        Tool::Mcp { server, tool: name } => tool
            .mcp
            .as_ref()
            .is_some_and(|(s, t)| glob_word(server, s) && glob_word(name, t)),
        Tool::Native { name, .. } => *name == tool.native,
    };
    here || tool.also.iter().any(|other| reading_applies(t, other))
}

/// Facts about a call that several guards need, computed at most once.
struct Facts<'c> {
    call: &'c Call,
    analysis: OnceCell<Option<Analysis>>,
    paths: OnceCell<Vec<String>>,
    subjects: OnceCell<Vec<String>>,
}

impl<'c> Facts<'c> {
    fn new(call: &'c Call) -> Self {
        Self {
            call,
            analysis: OnceCell::new(),
            paths: OnceCell::new(),
            subjects: OnceCell::new(),
        }
    }

    fn analysis(&self) -> Option<&Analysis> {
        self.analysis
            .get_or_init(|| self.call.command.as_deref().map(shell::analyze))
            .as_ref()
    }

    fn paths(&self) -> &[String] {
        self.paths.get_or_init(|| {
            let mut raw: Vec<&str> = self.call.paths.iter().map(String::as_str).collect();
            if let Some(analysis) = self.analysis() {
                for command in &analysis.commands {
                    raw.extend(command.redirects.iter().map(String::as_str));
                }
            }
            raw.into_iter()
                .map(|p| {
                    let p = paths::in_dir(p, self.call.cwd.as_deref());
                    paths::normalize(&p, self.call.root.as_deref(), self.call.home.as_deref())
                })
                .collect()
        })
    }
}

fn match_guard(guard: &Guard, compiled: &Compiled, call: &Call, facts: &Facts) -> Option<Hit> {
    let mut opaque_reason = None;
    if !guard.commands.is_empty() {
        let analysis = facts.analysis()?;
        let matched = analysis
            .commands
            .iter()
            .any(|c| guard.commands.iter().any(|p| p.matches(c)));
        if !matched {
            if analysis.opaque.is_empty() || guard.opaque == Decision::Allow {
                return None;
            }
            opaque_reason = Some(opaque_instruction(analysis));
        }
    }
    if !compiled.regexes.is_empty() && !regex_matches(&compiled.regexes, call, facts) {
        return None;
    }
    if let Some(paths) = &compiled.paths
        && !facts.paths().iter().any(|p| paths.is_match(p))
    {
        return None;
    }
    Some(match opaque_reason {
        Some(reason) => Hit {
            guard: guard.name.clone(),
            decision: guard.opaque,
            reason,
            message: guard.message.clone(),
        },
        None => Hit {
            guard: guard.name.clone(),
            decision: guard.decision,
            reason: guard.reason.clone(),
            message: guard.message.clone(),
        },
    })
}

fn regex_matches(regexes: &[Regex], call: &Call, facts: &Facts) -> bool {
    regex_subjects(call, facts)
        .iter()
        .any(|s| regexes.iter().any(|r| r.is_match(s)))
}

/// Regexes see the raw command line and each simple command re-spelled
/// canonically (`program arg …`, wrappers removed), so a regex written for
/// `git push --force` also sees `sudo /usr/bin/git  push --force`; and the
/// call's text (prompt, message, tool input).
fn regex_subjects<'f>(call: &Call, facts: &'f Facts) -> &'f [String] {
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

fn opaque_instruction(analysis: &Analysis) -> String {
    let mut reasons: Vec<&str> = analysis.opaque.iter().map(|o| o.reason.as_str()).collect();
    reasons.dedup();
    format!(
        "hookc could not check this shell command because it uses {}. Rewrite it as plain commands \
         (literal program names and arguments, joined with && if needed) and run it again.",
        reasons.join(", ")
    )
}

/// `*` and `?` globbing for MCP server and tool names.
fn glob_word(pattern: &str, text: &str) -> bool {
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
    use proptest::prelude::*;

    /// The index must never change a verdict: evaluate without it, guard by guard.
    fn evaluate_unindexed(policy: &Policy, call: &Call) -> Option<Verdict> {
        let facts = Facts::new(call);
        let mut hits: Vec<Hit> = policy
            .guards
            .iter()
            .filter(|g| Some(g.event) == call.event && tool_applies(g, call))
            .filter_map(|g| match_guard(g, &compile(g), call, &facts))
            .collect();
        let level = hits.iter().map(|h| h.decision.strictness()).max()?;
        hits.retain(|h| h.decision.strictness() == level);
        Some(Verdict {
            decision: hits[0].decision,
            hits,
            rewritten: None,
        })
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
        ])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn the_index_never_changes_a_verdict(
            words in prop::collection::vec(word(), 0..8),
            path in prop::sample::select(vec!["", ".env", "src/.env.local", "migrations/1.sql", "README.md"]),
            tool in prop::sample::select(vec![ToolKind::Shell, ToolKind::Read, ToolKind::Edit, ToolKind::Write]),
        ) {
            static POLICY: std::sync::LazyLock<Policy> = std::sync::LazyLock::new(|| bundled_plus(EXTRA));
            let policy = &*POLICY;
            let call = Call {
                event: Some(Event::PreTool),
                tool: Some(CallTool { kind: Some(tool), mcp: None, native: tool.word().to_owned(), also: Vec::new() }),
                command: (tool == ToolKind::Shell).then(|| words.join(" ")),
                paths: (!path.is_empty() && tool != ToolKind::Shell).then(|| path.to_owned()).into_iter().collect(),
                text: None,
                root: None,
                home: None,
                cwd: None,
            };
            prop_assert_eq!(Evaluator::new(policy).evaluate(&call), evaluate_unindexed(policy, &call));
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
