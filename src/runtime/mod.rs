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
use crate::ir::{Event, FORMAT, HarnessId, Policy};

/// Payloads larger than this are refused unread: checking them would cost
/// more time and memory than a guard may take, and no real call needs it.
pub const MAX_PAYLOAD: u64 = 8 * 1024 * 1024;

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
    let started = Instant::now();
    let mut input = Vec::new();
    let read = stdin.take(MAX_PAYLOAD + 1).read_to_end(&mut input);
    let outcome = match read {
        Err(e) => Err(format!("could not read the hook payload from stdin: {e}")),
        Ok(_) if input.len() as u64 > MAX_PAYLOAD => Err(format!(
            "the call is too large to check (over {} MiB of hook payload); split the work into smaller calls",
            MAX_PAYLOAD >> 20
        )),
        Ok(_) => decide(request, &input),
    };
    let (answer, guards) = match outcome {
        Ok(pair) => pair,
        Err(message) => (
            Answer {
                stdout: String::new(),
                stderr: format!("hookc guard: {message}\n"),
                exit: 1,
            },
            Vec::new(),
        ),
    };
    // A closed pipe is the harness's business; the exit status still tells.
    let _ = stdout.write_all(answer.stdout.as_bytes());
    let _ = stderr.write_all(answer.stderr.as_bytes());
    if let Some(path) = request.debug {
        log(path, request, &input, &answer, &guards, started);
    }
    answer.exit
}

fn decide(request: &GuardRequest, input: &[u8]) -> Result<(Answer, Vec<String>), String> {
    let harness = harness::get(request.harness)
        .ok_or_else(|| format!("this hookc cannot answer for `{}`", request.harness))?;
    let policy = load_policy(request.policy)?;
    if !policy.targets.contains(&request.harness) {
        return Err(format!(
            "{} does not target `{}`; run `hookc build` after adding it to `targets`",
            request.policy.display(),
            request.harness
        ));
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
            return Ok((caller.answer(request.event, None), Vec::new()));
        }
        return evaluate(caller, request.event, &policy, &payload);
    }
    evaluate(harness, request.event, &policy, &payload)
}

fn evaluate(
    harness: &dyn Harness,
    event: Event,
    policy: &Policy,
    payload: &Value,
) -> Result<(Answer, Vec<String>), String> {
    let call = harness
        .decode_call(event, payload)
        .map_err(|e| format!("unexpected {} payload: {e}", harness.profile().name))?;
    let verdict = Evaluator::new(policy).evaluate(&call);
    let guards = verdict
        .as_ref()
        .map(|v| v.guard_names().into_iter().map(str::to_owned).collect())
        .unwrap_or_default();
    Ok((harness.answer(event, verdict.as_ref()), guards))
}

fn load_policy(path: &Path) -> Result<Policy, String> {
    let text = std::fs::read(path).map_err(|e| {
        format!(
            "could not read the compiled policy {} ({e}); run `hookc build` in the project",
            path.display()
        )
    })?;
    #[derive(Deserialize)]
    struct Head {
        format: u32,
    }
    let head: Head = serde_json::from_slice(&text).map_err(|e| {
        format!(
            "the compiled policy {} is damaged ({e}); run `hookc build` to regenerate it",
            path.display()
        )
    })?;
    if head.format > FORMAT {
        return Err(format!(
            "the compiled policy {} has format {}, newer than this hookc understands ({FORMAT}); upgrade hookc",
            path.display(),
            head.format
        ));
    }
    serde_json::from_slice(&text).map_err(|e| {
        format!(
            "the compiled policy {} is damaged ({e}); run `hookc build` to regenerate it",
            path.display()
        )
    })
}

/// Append one JSON line describing the call. Failing to log never changes the answer.
fn log(
    path: &Path,
    request: &GuardRequest,
    input: &[u8],
    answer: &Answer,
    guards: &[String],
    started: Instant,
) {
    let record = serde_json::json!({
        "harness": request.harness,
        "event": request.event,
        "stdin": String::from_utf8_lossy(input),
        "guards": guards,
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
