//! `hookc guard`: the runtime a generated shim calls on every hook event.
//!
//! Contract with the shim (and so with every harness):
//! - exit 0: answered, the harness's answer (if any) is on stdout;
//! - exit 2: an explicit refusal, in the harness's own refusal form;
//! - exit 1: hookc could not decide (unreadable payload or policy), with the
//!   reason on stderr. The shim turns it into the harness's refusal.
//!
//! This path runs on every tool call an agent makes, so it does the least it
//! can: read stdin once, deserialise the compiled policy (no KDL), and compile
//! only the regexes of guards the call can reach.

use std::io::{Read, Write};
use std::path::Path;
use std::time::Instant;

use serde::Deserialize;
use serde_json::Value;

use crate::eval::Evaluator;
use crate::harness::{self, Answer, Harness};
use crate::ir::{Event, FORMAT, HarnessId};

/// Payloads larger than this are refused unread: checking them would cost
/// more time and memory than a guard may take, and no real call needs it.
pub const MAX_PAYLOAD: u64 = 8 * 1024 * 1024;

/// The variable through which a shim hands `hookc guard` its per-call nonce.
pub const NONCE_VAR: &str = "HOOKC_NONCE";

/// The line that ends every answer to a shim, after the answer itself: it
/// repeats the shim's nonce, which is how the shim tells `hookc guard` from
/// any other program that happens to be found under its name (see
/// `templates/shim.sh.hbs`). The shim takes it off again.
pub const PROOF: &str = "hookc guard answered ";

/// End an answer with the proof for `nonce`.
pub fn prove(nonce: &std::ffi::OsStr, stdout: &mut dyn Write) {
    use std::os::unix::ffi::OsStrExt;
    let mut line = Vec::with_capacity(PROOF.len() + nonce.len() + 2);
    line.push(b'\n');
    line.extend_from_slice(PROOF.as_bytes());
    line.extend_from_slice(nonce.as_bytes());
    line.push(b'\n');
    let _ = stdout.write_all(&line);
    let _ = stdout.flush();
}

/// Why a call could not be checked.
#[derive(Debug)]
enum Failure {
    /// The payload, the compiled policy or the machine: the shim refuses
    /// with its own fixed text and this message on stderr.
    Broken(String),
    /// The project needs another hookc: refused in the harness's own words,
    /// with what to install (never "run hookc build", which would not help).
    Incompatible(String),
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Broken(message)
    }
}

pub struct GuardRequest<'a> {
    pub harness: HarnessId,
    pub event: Event,
    pub policy: &'a Path,
    pub debug: Option<&'a Path>,
}

/// Run one guard call; returns the exit status.
pub fn run(
    request: &GuardRequest,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    run_with(request, stdin, stdout, stderr, load_policy)
}

/// How a call reads its compiled policy: [`load_policy`], or in tests the
/// whole document, to check that the lazy reading answers alike.
type Loader = for<'a> fn(&Path, &'a [u8], Event) -> Result<Compiled<'a>, Failure>;

fn run_with(
    request: &GuardRequest,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
    load: Loader,
) -> i32 {
    let started = Instant::now();
    let mut input = Vec::new();
    let read = stdin.take(MAX_PAYLOAD + 1).read_to_end(&mut input);
    let outcome = match read {
        Err(e) => Err(Failure::Broken(format!(
            "could not read the hook payload from stdin: {e}"
        ))),
        Ok(_) if input.len() as u64 > MAX_PAYLOAD => Err(Failure::Broken(format!(
            "the call is too large to check (over {} MiB of hook payload); split the work into smaller calls",
            MAX_PAYLOAD >> 20
        ))),
        Ok(_) => decide(request, &input, load),
    };
    let (answer, trace) = match outcome {
        Ok(pair) => pair,
        Err(Failure::Incompatible(reason)) => (incompatible(request, reason), Trace::default()),
        Err(Failure::Broken(message)) => (
            Answer {
                stdout: String::new(),
                stderr: format!("hookc guard: {message}\n"),
                exit: 1,
            },
            Trace::default(),
        ),
    };
    // A closed pipe is the harness's business; the exit status still tells.
    let _ = stdout.write_all(answer.stdout.as_bytes());
    let _ = stderr.write_all(answer.stderr.as_bytes());
    if let Some(path) = request.debug {
        log(path, request, &input, &answer, &trace, started);
    }
    answer.exit
}

/// A refusal, in the harness's protocol, of a call this hookc may not check.
fn incompatible(request: &GuardRequest, reason: String) -> Answer {
    let verdict = crate::eval::Verdict {
        decision: crate::ir::Decision::Deny,
        hits: vec![crate::eval::Hit {
            guard: "hookc-version".to_owned(),
            decision: crate::ir::Decision::Deny,
            reason: reason.clone(),
            message: Some(reason.clone()),
        }],
        rewritten: None,
    };
    match harness::get(request.harness) {
        Some(h) => h.answer(request.event, Some(&verdict)),
        None => Answer {
            stdout: String::new(),
            stderr: format!("hookc guard: {reason}\n"),
            exit: 1,
        },
    }
}

/// What the debug log says about how a call was answered.
#[derive(Default)]
struct Trace {
    /// The harness whose protocol the answer is in, when it is not the one
    /// the shim was written for (a harness running another's hooks).
    caller: Option<HarnessId>,
    /// Whether the policy was evaluated (not when the caller's own hooks decide).
    evaluated: bool,
    /// The guards that decided.
    guards: Vec<String>,
}

fn decide(request: &GuardRequest, input: &[u8], load: Loader) -> Result<(Answer, Trace), Failure> {
    let harness = harness::get(request.harness)
        .ok_or_else(|| format!("this hookc cannot answer for `{}`", request.harness))?;
    // Read as a build's inputs are: a FIFO or device planted there must not
    // hold the call until the harness gives up (some then let it through).
    let text = match crate::disk::read_text(request.policy) {
        Ok(Some(text)) => text.into_bytes(),
        Ok(None) => {
            return Err(Failure::Broken(format!(
                "could not read the compiled policy {} (no such file); run `hookc build` in the project",
                request.policy.display()
            )));
        }
        Err(e) => {
            return Err(Failure::Broken(format!(
                "could not read the compiled policy {} ({e}); run `hookc build` in the project",
                request.policy.display()
            )));
        }
    };
    // `hookc guard` answers one call and exits: freeing what it read would
    // only cost time (thousands of allocations for a large policy).
    let text = std::mem::ManuallyDrop::new(text);
    let policy = std::mem::ManuallyDrop::new(load(request.policy, &text, request.event)?);
    if !policy.targets.contains(&request.harness) {
        return Err(Failure::Broken(format!(
            "{} does not target `{}`; run `hookc build` after adding it to `targets`",
            request.policy.display(),
            request.harness
        )));
    }
    let payload: Value = serde_json::from_slice(input).map_err(|e| {
        if input.iter().all(u8::is_ascii_whitespace) {
            "the hook payload on stdin is empty; hookc expects the harness's JSON".to_owned()
        } else {
            format!("the hook payload on stdin is not JSON ({e})")
        }
    })?;
    // A harness running another harness's hooks (Cursor and Copilot load
    // .claude/settings.json) gets its answer in its own protocol. If the policy
    // also targets it, its own hooks decide, so this one stays silent instead
    // of evaluating the call twice.
    let caller = harness::all()
        .iter()
        .copied()
        .find(|h| h.id() != request.harness && h.recognizes(&payload));
    if let Some(caller) = caller {
        if policy.targets.contains(&caller.id()) {
            let trace = Trace {
                caller: Some(caller.id()),
                ..Trace::default()
            };
            return Ok((caller.answer(request.event, None), trace));
        }
        let (answer, mut trace) = evaluate(caller, request, &policy, &payload)?;
        trace.caller = Some(caller.id());
        return Ok((answer, trace));
    }
    Ok(evaluate(harness, request, &policy, &payload)?)
}

mod external;

fn evaluate(
    harness: &dyn Harness,
    request: &GuardRequest,
    policy: &Compiled,
    payload: &Value,
) -> Result<(Answer, Trace), String> {
    let event = request.event;
    let mut call = harness
        .decode_call(event, payload)
        .map_err(|e| format!("unexpected {} payload: {e}", harness.profile().name))?;
    if call.root.is_none() {
        call.root = project_root(request.policy);
    }
    // What git will run depends on its configuration where the call runs.
    if call.command.as_deref().is_some_and(|c| c.contains("git")) {
        let cwd = call.cwd.clone().or_else(|| call.root.clone());
        call.git = Some(crate::shell::git::GitConfig::load(
            cwd.as_deref().map(Path::new),
            call.home.as_deref().map(Path::new),
        ));
    }
    // The program lives in the project that holds the compiled policy.
    let root = project_root(request.policy)
        .or_else(|| call.root.clone())
        .map(std::path::PathBuf::from)
        .unwrap_or_default();
    let verdict = policy.evaluator.evaluate_with(&call, &mut |guard| {
        external::run(
            guard,
            &root,
            policy.timeout,
            harness.id(),
            event,
            &call,
            payload,
        )
        .map(Some)
    })?;
    // A harness that cannot change a call (met here only when it runs
    // another harness's hooks) refuses and names the command to run instead.
    let verdict = verdict.map(|v| {
        if v.decision == crate::ir::Decision::Rewrite && !harness.profile().can_rewrite {
            harness::rewrite_as_refusal(&v)
        } else {
            v
        }
    });
    // hookc's own guard, the user's approvals and the audit log.
    let verdict = crate::audit::decide(
        &crate::audit::Context {
            harness: harness.id(),
            event,
            call: &call,
            payload,
            audit: policy.audit,
            allow_once: policy.allow_once,
            never: &policy.never_override,
            root: project_root(request.policy),
        },
        verdict,
    );
    let guards = verdict
        .as_ref()
        .map(|v| v.guard_names().into_iter().map(str::to_owned).collect())
        .unwrap_or_default();
    let trace = Trace {
        caller: None,
        evaluated: true,
        guards,
    };
    Ok((harness.answer_call(event, payload, verdict.as_ref()), trace))
}

/// The project a compiled policy belongs to: the directory holding its
/// `.hookc/`. Harnesses that do not name their project root (Codex does not,
/// and the others need not be trusted to) get their paths made relative to
/// this one. `None` when the policy is not at `<root>/.hookc/policy.json`.
fn project_root(policy: &Path) -> Option<String> {
    let absolute = std::path::absolute(policy).ok()?;
    let mut clean = std::path::PathBuf::new();
    for part in absolute.components() {
        match part {
            std::path::Component::ParentDir => {
                clean.pop();
            }
            std::path::Component::CurDir => {}
            other => clean.push(other),
        }
    }
    let suffix = Path::new(crate::emit::POLICY_JSON);
    if !clean.ends_with(suffix) {
        return None;
    }
    let mut root = clean;
    for _ in suffix.components() {
        root.pop();
    }
    Some(root.to_string_lossy().into_owned())
}

/// The compiled policy, as far as one call needs it.
struct Compiled<'a> {
    targets: Vec<HarnessId>,
    timeout: u32,
    evaluator: Evaluator<'a>,
    audit: bool,
    allow_once: bool,
    never_override: Vec<String>,
}

/// Read `.hookc/policy.json` for a call on `event`.
///
/// In the layout `hookc build` writes (see `compile::policy_json`) only the
/// head, the index of `event` and the guards the call can reach are parsed,
/// so a call costs about the same with ten guards or ten thousand. Each of
/// those lines is checked against its digest first, and any other layout
/// (an older hookc's, or the file reformatted by hand) is refused: only what
/// `hookc build` wrote is obeyed. A file that is not a valid policy is an
/// error too: the call is refused, never waved through.
fn load_policy<'a>(path: &Path, text: &'a [u8], event: Event) -> Result<Compiled<'a>, Failure> {
    let damaged = |e: &dyn std::fmt::Display| {
        Failure::Broken(format!(
            "the compiled policy {} is damaged ({e}); run `hookc build` to regenerate it",
            path.display()
        ))
    };
    #[derive(Deserialize)]
    struct Format {
        format: u32,
        #[serde(default)]
        built_by: String,
        #[serde(default)]
        hookc_version: Option<String>,
        #[serde(default)]
        install: String,
    }
    // Before anything else: a policy built for another hookc is not read.
    let check_format = |head: &[u8]| {
        let head: Format = serde_json::from_slice(head).map_err(|e| damaged(&e))?;
        let this = crate::version::Version::current();
        let outside = head
            .hookc_version
            .as_deref()
            .and_then(|r| crate::version::Requirement::parse(r).ok())
            .filter(|r| !r.matches(this));
        if head.format > FORMAT
            || crate::version::older_line(this, &head.built_by)
            || outside.is_some()
        {
            let needed = match (&outside, head.built_by.as_str()) {
                (Some(req), _) => format!("hookc {req}"),
                (None, "") => "a newer hookc".to_owned(),
                (None, line) => format!("hookc {line} or later"),
            };
            let install = if head.install.is_empty() {
                "cargo install hookc --locked"
            } else {
                head.install.as_str()
            };
            return Err(Failure::Incompatible(format!(
                "This project's hooks need {needed}, and the hookc that ran is {this}, so the call \
                 was not checked and is refused. Ask the user to install the hookc the project needs \
                 (`{install}` in the project), then retry."
            )));
        }
        Ok(())
    };
    // Every edit not made by `hookc build` is refused: the model is told to
    // ask the user, who can rebuild from policy.kdl.
    let changed = |what: &dyn std::fmt::Display| {
        Failure::Broken(format!(
            "the compiled policy {} was changed after `hookc build` wrote it ({what}); \
             ask the user to run `hookc build` in the project, which writes it again from policy.kdl",
            path.display()
        ))
    };
    let Some(laid) = LaidOut::split(text) else {
        check_format(text)?;
        return Err(changed(&"it is not laid out as `hookc build` writes it"));
    };
    #[derive(Deserialize)]
    struct Head {
        timeout: u32,
        targets: Vec<HarnessId>,
        #[serde(default)]
        audit: bool,
        #[serde(default)]
        allow_once: bool,
        #[serde(default)]
        never_override: Vec<String>,
        layout: Layout,
    }
    /// What the lines hold (see `compile::policy_json`).
    #[derive(Deserialize)]
    struct Layout {
        guards: usize,
        indexed: Vec<Event>,
        /// The key of every line's digest.
        #[serde(default)]
        build: String,
    }
    check_format(&laid.head)?;
    let head: Head = serde_json::from_slice(&laid.head).map_err(|e| damaged(&e))?;
    let build: &'a str = Box::leak(head.layout.build.into_boxed_str());
    match unseal(laid.raw_head, b"\",") {
        Some((body, sum)) if sealed_by(build, b'h', 0, body, sum) => {}
        _ => return Err(changed(&"its first line does not match its digest")),
    }
    // Only some lines are parsed: a line gone missing must still show.
    if head.layout.guards != laid.guards.len() || head.layout.indexed.len() != laid.index.len() {
        return Err(damaged(&"lines are missing"));
    }
    let prefix = format!("{{\"event\":\"{event}\"");
    let index = match laid
        .index
        .iter()
        .position(|l| l.starts_with(prefix.as_bytes()))
    {
        Some(at) => {
            let line = laid.index[at];
            if !line_sealed(build, b'i', at, line) {
                return Err(changed(&format!(
                    "the index of `{event}` does not match its digest"
                )));
            }
            Some(serde_json::from_slice(line).map_err(|e| damaged(&e))?)
        }
        None if head.layout.indexed.contains(&event) => {
            return Err(damaged(&format!("the index of `{event}` is missing")));
        }
        None => None,
    };
    let display = path.display().to_string();
    let check: &'a crate::eval::Check<'a> = Box::leak(Box::new(move |at: usize, line: &[u8]| {
        if line_sealed(build, b'g', at, line) {
            Ok(())
        } else {
            Err(format!(
                "the compiled policy {display} was changed after `hookc build` wrote it \
                 (guard {} does not match its digest); ask the user to run `hookc build` in the \
                 project, which writes it again from policy.kdl",
                at + 1
            ))
        }
    }));
    let evaluator = Evaluator::lazy(laid.guards, index, check)
        .ok_or_else(|| damaged(&"its index names guards it does not have"))?;
    Ok(Compiled {
        targets: head.targets,
        timeout: head.timeout,
        audit: head.audit,
        allow_once: head.allow_once,
        never_override: head.never_override,
        evaluator,
    })
}

/// A line of the policy split at its digest, which comes last before `end`:
/// the text before `"sum":"` and the digest.
fn unseal<'t>(line: &'t [u8], end: &[u8]) -> Option<(&'t [u8], &'t [u8])> {
    const TAG: &[u8] = b"\"sum\":\"";
    let rest = line.strip_suffix(end)?;
    let (rest, sum) = rest.split_at_checked(rest.len().checked_sub(16)?)?;
    Some((rest.strip_suffix(TAG)?, sum))
}

/// Whether `sum` is the digest `hookc build` gives `body` there.
fn sealed_by(build: &str, kind: u8, at: usize, body: &[u8], sum: &[u8]) -> bool {
    crate::compile::line_sum(build, kind, at, body).as_bytes() == sum
}

/// Whether an index or guard line (`{…,"sum":"…"}`) is the one `hookc build`
/// wrote at position `at`.
fn line_sealed(build: &str, kind: u8, at: usize, line: &[u8]) -> bool {
    match unseal(line, b"\"}") {
        Some((body, sum)) => body
            .strip_suffix(b",")
            .is_some_and(|body| sealed_by(build, kind, at, body, sum)),
        None => false,
    }
}

/// The parts of a policy.json in the layout `hookc build` writes, found by
/// splitting lines (nothing is parsed here).
struct LaidOut<'a> {
    /// The head as a JSON object of its own (its trailing comma closed).
    head: Vec<u8>,
    /// The head's line as written.
    raw_head: &'a [u8],
    /// One line per event.
    index: Vec<&'a [u8]>,
    /// One line per guard, in policy order.
    guards: Vec<&'a [u8]>,
}

impl<'a> LaidOut<'a> {
    fn split(text: &'a [u8]) -> Option<Self> {
        if text.last() != Some(&b'\n') {
            return None;
        }
        let mut start = 0;
        let mut lines = memchr::memchr_iter(b'\n', text).map(|end| {
            let line = &text[start..end];
            start = end + 1;
            line
        });
        let item = |line: &'a [u8]| line.strip_suffix(b",").unwrap_or(line);
        let head = lines.next()?;
        if !head.starts_with(b"{\"format\":") || !head.ends_with(b",") {
            return None;
        }
        let raw_head = head;
        let mut head = head.to_vec();
        *head.last_mut()? = b'}';
        if lines.next()? != b"\"index\":[" {
            return None;
        }
        let mut index = Vec::new();
        loop {
            match lines.next()? {
                b"]," => break,
                line => index.push(item(line)),
            }
        }
        if lines.next()? != b"\"guards\":[" {
            return None;
        }
        let mut guards = Vec::new();
        loop {
            match lines.next()? {
                b"]}" => break,
                line => guards.push(item(line)),
            }
        }
        lines.next().is_none().then_some(LaidOut {
            head,
            raw_head,
            index,
            guards,
        })
    }
}

/// Append one JSON line describing the call. Failing to log never changes the answer.
fn log(
    path: &Path,
    request: &GuardRequest,
    input: &[u8],
    answer: &Answer,
    trace: &Trace,
    started: Instant,
) {
    let record = serde_json::json!({
        "harness": request.harness,
        "answered_as": trace.caller.unwrap_or(request.harness),
        "evaluated": trace.evaluated,
        "event": request.event,
        "stdin": String::from_utf8_lossy(input),
        "guards": trace.guards,
        "exit": answer.exit,
        "stdout": answer.stdout,
        "stderr": answer.stderr,
        "elapsed_us": started.elapsed().as_micros() as u64,
    });
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = writeln!(file, "{record}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_project_root_is_where_the_policy_lives() {
        assert_eq!(
            project_root(Path::new("/p/q/.hookc/codex/../policy.json")).as_deref(),
            Some("/p/q")
        );
        assert_eq!(
            project_root(Path::new("/p/q/./.hookc/policy.json")).as_deref(),
            Some("/p/q")
        );
        let here = std::env::current_dir().unwrap();
        assert_eq!(
            project_root(Path::new(".hookc/cursor/../policy.json")),
            Some(here.to_string_lossy().into_owned())
        );
        assert_eq!(project_root(Path::new("/p/elsewhere.json")), None);
    }
}

/// The runtime against hostile payloads, for every harness: it never panics,
/// exits only 0, 1 or 2, prints nothing on stdout when it fails, and never
/// answers "no objection" to a payload it could not read. Run longer with
/// `HOOKC_FUZZ_CASES=20000 cargo test --lib runtime`.
#[cfg(test)]
mod fuzz {
    use std::sync::LazyLock;

    use proptest::prelude::*;
    use serde_json::{Value, json};

    use super::*;
    use crate::ir::Policy;

    /// The bundled policy for every harness, in the layout `hookc build` writes.
    static PROJECT: LazyLock<tempfile::TempDir> =
        LazyLock::new(|| project(|p| crate::compile::policy_json(p).into_bytes()));
    /// The same policy as one plain JSON document, read whole (`hookc guard`
    /// refuses that layout; the tests read it to compare).
    static WHOLE: LazyLock<tempfile::TempDir> =
        LazyLock::new(|| project(|p| serde_json::to_vec_pretty(p).unwrap()));

    fn load_whole<'a>(path: &Path, text: &'a [u8], _: Event) -> Result<Compiled<'a>, Failure> {
        let policy: Policy =
            serde_json::from_slice(text).map_err(|e| format!("{}: {e}", path.display()))?;
        let policy: &'static Policy = Box::leak(Box::new(policy));
        Ok(Compiled {
            targets: policy.targets.clone(),
            timeout: policy.timeout,
            audit: policy.audit,
            allow_once: policy.allow_once,
            never_override: policy.never_override.clone(),
            evaluator: Evaluator::new(policy),
        })
    }

    fn project(write: fn(&Policy) -> Vec<u8>) -> tempfile::TempDir {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/policy.kdl")).unwrap();
        let file = crate::source::SourceFile::new("policy.kdl", text);
        let mut diags = crate::diag::Diagnostics::default();
        let mut policy =
            crate::compile::compile_source(&file, &mut diags).expect("bundled policy compiles");
        policy.targets = harness::all().iter().map(|h| h.id()).collect();
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".hookc")).unwrap();
        std::fs::write(dir.path().join(crate::emit::POLICY_JSON), write(&policy)).unwrap();
        dir
    }

    fn cases() -> u32 {
        crate::test_cases("HOOKC_FUZZ_CASES", 96)
    }

    /// JSON shaped like the payloads of all harnesses, with wrong types mixed in.
    fn payload() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            prop::sample::select(vec![
                "Bash",
                "bash",
                "run_shell_command",
                "Shell",
                "Edit",
                "Read",
                "apply_patch",
                "mcp__pay__refund",
                "git push --force",
                ".env",
                "/repo/.env",
                "*** Update File: .env",
                "",
                "\u{0}",
                "PreToolUse",
                "1.2.3",
            ])
            .prop_map(|s| json!(s)),
            ".{0,24}".prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 24, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec(
                    (
                        prop::sample::select(vec![
                            "tool_name",
                            "tool_input",
                            "command",
                            "file_path",
                            "toolName",
                            "toolArgs",
                            "cursor_version",
                            "hook_event_name",
                            "cwd",
                            "prompt",
                            "toolCall",
                            "args",
                            "CommandLine",
                            "tool",
                            "sessionID",
                            "mcp_context",
                            "workspace_roots",
                        ]),
                        inner,
                    ),
                    0..6,
                )
                .prop_map(|pairs| Value::Object(
                    pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
                )),
            ]
        })
    }

    fn answer(
        project: &Path,
        harness: &dyn Harness,
        event: Event,
        input: &[u8],
        load: Loader,
    ) -> (i32, Vec<u8>, Vec<u8>) {
        let policy = project.join(crate::emit::POLICY_JSON);
        let request = GuardRequest {
            harness: harness.id(),
            event,
            policy: &policy,
            debug: None,
        };
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        let exit = run_with(&request, &mut &input[..], &mut stdout, &mut stderr, load);
        (exit, stdout, stderr)
    }

    fn check(harness: &dyn Harness, event: Event, input: &[u8]) -> Result<(), TestCaseError> {
        let (exit, stdout, stderr) = answer(PROJECT.path(), harness, event, input, load_policy);
        // Reading only the guards the index points at answers like reading them all.
        prop_assert_eq!(
            answer(WHOLE.path(), harness, event, input, load_whole),
            (exit, stdout.clone(), stderr.clone())
        );
        prop_assert!(matches!(exit, 0..=2), "exit {exit}");
        if exit == 1 {
            prop_assert!(
                stdout.is_empty(),
                "stdout on failure: {}",
                String::from_utf8_lossy(&stdout)
            );
            prop_assert!(stderr.starts_with(b"hookc guard: "));
        }
        // A payload no harness can read must never come back as "no objection".
        let readable = serde_json::from_slice::<Value>(input)
            .ok()
            .is_some_and(|v| {
                harness::all()
                    .iter()
                    .any(|h| h.recognizes(&v) || h.decode_call(event, &v).is_ok())
            });
        if !readable {
            prop_assert_eq!(
                exit,
                1,
                "an unreadable payload was answered: {}",
                String::from_utf8_lossy(&stdout)
            );
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases()))]

        #[test]
        fn shaped_payloads_keep_the_contract_for_every_harness(value in payload(), event in prop::sample::select(Event::ALL.to_vec())) {
            let input = serde_json::to_vec(&value).unwrap();
            for harness in harness::all() {
                check(*harness, event, &input)?;
            }
        }

        #[test]
        fn arbitrary_bytes_keep_the_contract_for_every_harness(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
            for harness in harness::all() {
                check(*harness, Event::PreTool, &bytes)?;
            }
        }
    }
}
