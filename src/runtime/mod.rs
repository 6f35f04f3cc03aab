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

use serde_json::Value;

use crate::harness::{self, Answer, Harness};
use crate::ir::{Event, HarnessId};
use crate::policy_json::{self, Loaded};

mod deadline;
pub mod keeper;
pub mod prepare;
pub mod supervised;
pub use deadline::Deadline;
use prepare::refusal;

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
    let mut line = Vec::with_capacity(PROOF.len() + nonce.len() + 2);
    line.push(b'\n');
    line.extend_from_slice(PROOF.as_bytes());
    line.extend_from_slice(nonce.as_encoded_bytes());
    line.push(b'\n');
    let _ = stdout.write_all(&line);
    let _ = stdout.flush();
}

/// Refuse the call in `harness`'s protocol, as hookc itself (in the name
/// of `guard`), and end the process; with `nonce`, the proof follows the
/// answer.
fn answer_refusal(
    guard: &str,
    harness: HarnessId,
    event: Event,
    reason: String,
    nonce: Option<&std::ffi::OsStr>,
) -> ! {
    let answer = match crate::harness::get(harness) {
        Some(harness) => harness.answer(event, Some(&refusal(guard, reason))),
        None => crate::harness::Answer {
            stdout: String::new(),
            stderr: format!("hookc guard: {reason}\n"),
            exit: 2,
        },
    };
    let mut stdout = std::io::stdout();
    let _ = stdout.write_all(answer.stdout.as_bytes());
    if let Some(nonce) = nonce {
        prove(nonce, &mut stdout);
    }
    let _ = stdout.flush();
    let mut stderr = std::io::stderr();
    let _ = stderr.write_all(answer.stderr.as_bytes());
    let _ = stderr.flush();
    std::process::exit(answer.exit)
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
    /// The compiled policy is not the build recorded on this machine
    /// ([`crate::builds::check`]): refused in the harness's own words, so
    /// the model reads that the user must build (the shim's fixed text
    /// would only say that hookc could not run).
    NotTheBuild(String),
}

impl From<policy_json::Refusal> for Failure {
    fn from(refusal: policy_json::Refusal) -> Self {
        match refusal {
            policy_json::Refusal::Broken(m) => Failure::Broken(m),
            policy_json::Refusal::Incompatible(m) => Failure::Incompatible(m),
        }
    }
}

/// Read `.hookc/policy.json` for a call on `event` (see [`policy_json::read`]).
fn load_policy<'a>(path: &Path, text: &'a [u8], event: Event) -> Result<Loaded<'a>, Failure> {
    Ok(policy_json::read(path, text, event)?)
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
    /// The build the policy must be (`--build`), where the hook names it.
    pub build: Option<&'a str>,
    /// The process's deadline (`None` in tests that answer in-process).
    pub deadline: Option<&'a Deadline>,
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
type Loader = for<'a> fn(&Path, &'a [u8], Event) -> Result<Loaded<'a>, Failure>;

fn run_with(
    request: &GuardRequest,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
    load: Loader,
) -> i32 {
    let started = Instant::now();
    let mut input = Vec::new();
    let (answer, trace) = match answer_call(request, stdin, &mut input, load) {
        Ok(pair) => pair,
        Err(Failure::Incompatible(reason)) => (
            refused_before_reading(request, "hookc-version", reason),
            Trace::default(),
        ),
        Err(Failure::NotTheBuild(reason)) => (
            refused_before_reading(request, "hookc-build", reason),
            Trace::default(),
        ),
        Err(Failure::Broken(message)) => (
            Answer {
                stdout: String::new(),
                stderr: format!("hookc guard: {message}\n"),
                exit: 1,
            },
            Trace::default(),
        ),
    };
    // Still under the deadline: a debug log that blocks (a FIFO, a hung
    // mount) must not hold the answer past it.
    if let Some(path) = request.debug {
        log(path, request, &input, &answer, &trace, started);
    }
    if let Some(deadline) = request.deadline {
        deadline.finish();
    }
    // A closed pipe is the harness's business; the exit status still tells.
    let _ = stdout.write_all(answer.stdout.as_bytes());
    let _ = stderr.write_all(answer.stderr.as_bytes());
    answer.exit
}

/// Read the compiled policy (which says how long the harness waits), then
/// the payload, and decide. The policy comes first so that the deadline is
/// the policy's before anything the harness sends can hold the guard up.
fn answer_call(
    request: &GuardRequest,
    stdin: &mut dyn Read,
    input: &mut Vec<u8>,
    load: Loader,
) -> Result<(Answer, Trace), Failure> {
    let harness = harness::get(request.harness)
        .ok_or_else(|| format!("this hookc cannot answer for `{}`", request.harness))?;
    let text = read_policy(request.policy)?;
    let policy = load(request.policy, &text, request.event)?;
    match request.build {
        None => crate::builds::check(request.policy, policy.identity),
        Some(build) if build == policy.identity => Ok(()),
        Some(build) => Err(format!(
            "the compiled policy {} is not the build the administrator's hooks name ({build}): \
             it was changed or replaced after `hookc build --managed` wrote it; do not try to \
             repair it yourself: tell the user that the machine's managed hookc install needs \
             `hookc build --managed` again",
            request.policy.display()
        )),
    }
    .map_err(Failure::NotTheBuild)?;
    if let Some(deadline) = request.deadline {
        deadline.limit(harness.profile().hook_timeout(policy.timeout));
    }
    match stdin.take(MAX_PAYLOAD + 1).read_to_end(input) {
        Err(e) => Err(Failure::Broken(format!(
            "could not read the hook payload from stdin: {e}"
        ))),
        Ok(_) if input.len() as u64 > MAX_PAYLOAD => Err(Failure::Broken(format!(
            "the call is too large to check (over {} MiB of hook payload); split the work into smaller calls",
            MAX_PAYLOAD >> 20
        ))),
        Ok(_) => decide(request, harness, &policy, input),
    }
}

/// The compiled policy's bytes, read as a build's inputs are: a FIFO or
/// device planted there must not hold the call until the harness gives up
/// (some then let it through).
fn read_policy(path: &Path) -> Result<Vec<u8>, Failure> {
    match crate::disk::read_text(path) {
        Ok(Some(text)) => Ok(text.into_bytes()),
        Ok(None) => Err(Failure::Broken(format!(
            "could not read the compiled policy {} (no such file); run `hookc build` in the project",
            path.display()
        ))),
        Err(e) => Err(Failure::Broken(format!(
            "could not read the compiled policy {} ({e}); run `hookc build` in the project",
            path.display()
        ))),
    }
}

/// A refusal, in the harness's protocol, of a call this hookc may not check.
fn refused_before_reading(request: &GuardRequest, guard: &str, reason: String) -> Answer {
    let verdict = refusal(guard, reason.clone());
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
    /// the shim was written for (a harness running another harness's hooks).
    caller: Option<HarnessId>,
    /// Whether the policy was evaluated (not when the caller's own hooks decide).
    evaluated: bool,
    /// The guards that decided.
    guards: Vec<String>,
}

fn decide(
    request: &GuardRequest,
    harness: &dyn Harness,
    policy: &Loaded,
    input: &[u8],
) -> Result<(Answer, Trace), Failure> {
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
        // Unless the caller runs this harness's hooks as its own (VS Code
        // runs Copilot CLI's file): then no other hook of its decides.
        if policy.targets.contains(&caller.id())
            && !caller.profile().hooks_from.contains(&request.harness)
        {
            let trace = Trace {
                caller: Some(caller.id()),
                ..Trace::default()
            };
            return Ok((caller.answer(request.event, None), trace));
        }
        if let Some(deadline) = request.deadline {
            deadline.answer_as(caller.id());
        }
        let (answer, mut trace) = evaluate(caller, request, policy, &payload)?;
        trace.caller = Some(caller.id());
        return Ok((answer, trace));
    }
    Ok(evaluate(harness, request, policy, &payload)?)
}

mod external;

fn evaluate(
    harness: &dyn Harness,
    request: &GuardRequest,
    policy: &Loaded,
    payload: &Value,
) -> Result<(Answer, Trace), String> {
    let event = request.event;
    let mut call = harness
        .decode_call(event, payload)
        .map_err(|e| format!("unexpected {} payload: {e}", harness.profile().name))?;
    let project = project_root(request.policy);
    if let Err(refused) = prepare::prepare(&mut call, Some(harness.id()), project.as_deref()) {
        let trace = Trace {
            caller: None,
            evaluated: true,
            guards: refused
                .guard_names()
                .into_iter()
                .map(str::to_owned)
                .collect(),
        };
        return Ok((harness.answer_call(event, payload, Some(&refused)), trace));
    }
    // The program lives in the project that holds the compiled policy.
    let root = project
        .clone()
        .or_else(|| call.root.clone())
        .map(std::path::PathBuf::from)
        .unwrap_or_default();
    let rules = prepare::Rules {
        targets: &policy.targets,
        audit: policy.audit,
        allow_once: policy.allow_once,
        never_override: &policy.never_override,
    };
    let asked = prepare::Asked {
        event,
        harness: Some(harness),
        call: &call,
        payload,
        project,
        exec: supervised::Exec::here(request.policy),
    };
    let verdict = prepare::decide(
        &asked,
        &policy.evaluator,
        &rules,
        &mut |guard| {
            external::run(
                guard,
                &root,
                harness.profile().hook_timeout(policy.timeout),
                harness.id(),
                event,
                &call,
                payload,
            )
            .map(Some)
        },
        prepare::Approvals::Take,
    )?;
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
        LazyLock::new(|| project(|p| crate::policy_json::write(p).into_bytes()));
    /// The same policy as one plain JSON document, read whole (`hookc guard`
    /// refuses that layout; the tests read it to compare).
    static WHOLE: LazyLock<tempfile::TempDir> =
        LazyLock::new(|| project(|p| serde_json::to_vec_pretty(p).unwrap()));

    /// [`WHOLE`]'s policy, read once: the fuzz runs it thousands of times.
    static WHOLE_POLICY: LazyLock<Policy> = LazyLock::new(|| {
        let path = WHOLE.path().join(crate::emit::POLICY_JSON);
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
    });

    fn load_whole<'a>(_: &Path, _: &'a [u8], _: Event) -> Result<Loaded<'a>, Failure> {
        let policy: &'static Policy = &WHOLE_POLICY;
        Ok(Loaded {
            targets: policy.targets.clone(),
            timeout: policy.timeout,
            audit: policy.audit,
            allow_once: policy.allow_once,
            never_override: policy.never_override.clone(),
            evaluator: crate::eval::Evaluator::new(policy),
            identity: "whole-document",
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
            build: None,
            deadline: None,
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

    /// Shell text built from the constructs the lexer knows, each balanced,
    /// so that whatever follows it on a new line runs as a command of its own.
    fn construct() -> impl Strategy<Value = String> {
        let leaf = prop::sample::select(vec![
            "echo a",
            "ls -la",
            "echo 'x y'",
            "echo \"a $HOME b\"",
            "printf $'a\\nb'",
            "echo hi > \"${TMPDIR}/a.txt\"",
            "echo $(echo hi)",
            "echo `echo hi`",
            "echo $((1 + 2))",
            "echo ${x:-y} ${#x} ${x%.*}",
            "cat <(echo a)",
            "tee >(cat)",
            "echo {a,b}{c,d}",
            "echo {1..3}",
            "ls *.txt ?[ab]",
            "cat < /dev/null 2>&1",
            "echo x >> \"$HOME/log\"",
            "x=1",
            "a=(1 2 3)",
            "export y=2",
            "true",
            "cat <<EOF\nbody $x\nEOF\n",
            "cat <<'EOF'\n$(not run)\nEOF\n",
            "read -r v",
            "cd ./src/../src",
            "sudo ls",
            "env A=b ls",
            "timeout 5 ls",
            "echo \\; \\&",
        ])
        .prop_map(str::to_owned);
        leaf.prop_recursive(5, 96, 4, |inner| {
            prop_oneof![
                inner.clone().prop_map(|x| format!("( {x} )")),
                inner.clone().prop_map(|x| format!("{{ {x}; }}")),
                inner.clone().prop_map(|x| format!("if true; then {x}; fi")),
                inner
                    .clone()
                    .prop_map(|x| format!("while false; do {x}; done")),
                inner
                    .clone()
                    .prop_map(|x| format!("for i in a b; do {x}; done")),
                inner
                    .clone()
                    .prop_map(|x| format!("case x in a) {x};; *) true;; esac")),
                inner.clone().prop_map(|x| format!("f() {{ {x}; }}")),
                inner.clone().prop_map(|x| format!("echo \"$({x})\"")),
                inner
                    .clone()
                    .prop_map(|x| format!("bash -c {}", crate::shell::sh_word(&x))),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} | {b}")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} && {b}")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} || {b}")),
                (inner.clone(), inner).prop_map(|(a, b)| format!("{a}; {b}")),
            ]
        })
    }

    /// Constructs repeated: a few times, or a thousand times (bench/scaling.py
    /// times larger lines with the release build).
    fn line() -> impl Strategy<Value = String> {
        let times = prop_oneof![8 => 1..4usize, 1 => 100..200usize, 1 => Just(1_000usize)];
        (
            construct(),
            times,
            prop::sample::select(vec!["; ", "\n", " && ", " | "]),
        )
            .prop_map(|(x, n, sep)| vec![x; n].join(sep))
    }

    /// The answer as the harness reads it proceeds (exit 1 never does: the
    /// shim refuses it).
    fn proceeds(harness: &dyn Harness, exit: i32, stdout: &[u8], stderr: &[u8]) -> bool {
        exit != 1
            && harness
                .outcome(
                    Event::PreTool,
                    &harness::Observation {
                        exit: Some(exit),
                        stdout: String::from_utf8_lossy(stdout).into_owned(),
                        stderr: String::from_utf8_lossy(stderr).into_owned(),
                        timed_out: false,
                    },
                )
                .proceeds
    }

    /// bash drops a NUL from what it reads, so `r\0m` runs `rm`: a call
    /// with one is refused in every harness, as a command and as a path.
    #[test]
    fn a_nul_byte_in_a_call_is_refused_in_every_harness() {
        use crate::ir::{ExampleCall, Tool, ToolKind};
        let calls = [
            (ToolKind::Shell, Some("r\0m -rf /"), None),
            (ToolKind::Shell, Some("echo ok\0; git push --force"), None),
            (ToolKind::Read, None, Some("notes\0.txt")),
        ];
        for harness in harness::all() {
            for (tool, command, path) in calls {
                let call = ExampleCall {
                    tool: Some(Tool::Known { tool }),
                    command: command.map(str::to_owned),
                    path: path.map(str::to_owned),
                    text: None,
                };
                let Some(payload) = harness.payload(Event::PreTool, &call, PROJECT.path()) else {
                    continue;
                };
                let input = serde_json::to_vec(&payload).unwrap();
                let (exit, stdout, stderr) = answer(
                    PROJECT.path(),
                    *harness,
                    Event::PreTool,
                    &input,
                    load_policy,
                );
                assert!(
                    !proceeds(*harness, exit, &stdout, &stderr),
                    "{}: {command:?} {path:?} went ahead",
                    harness.id()
                );
                let said = String::from_utf8_lossy(&stdout) + String::from_utf8_lossy(&stderr);
                assert!(said.contains("NUL byte"), "{}: {said}", harness.id());
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases()))]

        /// Any line made of the shell's constructs is answered within the
        /// guard's deadline, in the harness's contract, and a denied command
        /// on the next line (which the shell really runs) is never let
        /// through, in any harness's payload.
        #[test]
        fn lines_of_every_construct_are_answered_in_time_and_never_let_a_denied_command_through(
            prefix in line(),
            pick in any::<prop::sample::Index>(),
        ) {
            let harness = *pick.get(harness::all());
            let call = crate::ir::ExampleCall {
                tool: Some(crate::ir::Tool::Known { tool: crate::ir::ToolKind::Shell }),
                command: Some(format!("{prefix}\ngit push --force origin main")),
                path: None,
                text: None,
            };
            let Some(payload) = harness.payload(Event::PreTool, &call, PROJECT.path()) else {
                return Ok(());
            };
            let input = serde_json::to_vec(&payload).unwrap();
            let started = Instant::now();
            let (exit, stdout, stderr) =
                answer(PROJECT.path(), harness, Event::PreTool, &input, load_policy);
            let took = started.elapsed();
            let due = Deadline::due(crate::resolve::DEFAULT_TIMEOUT);
            prop_assert!(took < due, "{} took {took:?}", harness.id());
            prop_assert!(matches!(exit, 0..=2), "exit {exit}");
            prop_assert!(
                !proceeds(harness, exit, &stdout, &stderr),
                "{} let the force push through: {}",
                harness.id(),
                String::from_utf8_lossy(&stdout)
            );
        }

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
