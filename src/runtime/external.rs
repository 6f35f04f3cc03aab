//! Guards that `run` the user's own program: 0 allow, 2 refuse (the reason on
//! stderr), anything else (a crash, a missing file, a timeout) an operational
//! failure, which `hookc guard` reports as "could not decide" so the hook refuses.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::eval::{Call, RunResult};
use crate::ir::{Event, Guard, HarnessId};

/// What a program leaves of the guard's deadline ([`super::Deadline::due`]):
/// time to stop it and answer.
const LEAVE: Duration = Duration::from_millis(300);

pub fn run(
    guard: &Guard,
    root: &Path,
    policy_timeout: u32,
    harness: HarnessId,
    event: Event,
    call: &Call,
    raw: &Value,
) -> Result<RunResult, String> {
    let Some(program) = &guard.run else {
        return Ok(RunResult::Refuse(String::new()));
    };
    let path = root.join(program);
    let input = json!({
        "harness": harness.word(),
        "event": event.word(),
        "tool": call.tool.as_ref().map(|t| t.kind.map_or_else(|| t.native.clone(), |k| k.word().to_owned())),
        "command": call.command,
        "paths": call.paths,
        "raw": raw,
    });
    let failed = |why: String| format!("the program `{program}` of guard `{}` {why}", guard.name);
    let mut child = Command::new(&path)
        .current_dir(root)
        // The nonce is the shim's and hookc's business only.
        .env_remove(super::NONCE_VAR)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| failed(format!("could not be started ({e})")))?;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(format!("{input}\n").as_bytes());
    }
    let mut stderr = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(p) = stderr.as_mut() {
            let _ = p.read_to_string(&mut s);
        }
        s
    });
    // Finish before the guard's own deadline, so that the refusal names the
    // program that was slow rather than only the time.
    let limit = super::Deadline::due(policy_timeout)
        .saturating_sub(LEAVE)
        .max(LEAVE);
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() >= limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(failed(format!(
                    "did not finish within {:.1} s",
                    limit.as_secs_f64()
                )));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(failed(format!("could not be waited for ({e})"))),
        }
    };
    let stderr = reader.join().unwrap_or_default();
    match status.code() {
        Some(0) => Ok(RunResult::Allow),
        Some(2) => Ok(RunResult::Refuse(stderr.trim().to_owned())),
        Some(n) => Err(failed(format!("exited with status {n}{}", said(&stderr)))),
        None => Err(failed(format!("was killed by a signal{}", said(&stderr)))),
    }
}

fn said(stderr: &str) -> String {
    match stderr.trim() {
        "" => String::new(),
        s => format!(" (it said: {})", s.lines().last().unwrap_or(s)),
    }
}
