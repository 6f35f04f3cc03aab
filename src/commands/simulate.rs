//! `hookc simulate`: what a harness does with a hook's result.

use serde_json::{Value, json};

use crate::cli::{Format, SimulateArgs};
use crate::eval::{Hit, Verdict};
use crate::exit::ExitStatus;
use crate::harness::{self, Harness, Observation, Outcome};
use crate::ir::{Decision, Event, HarnessId};

pub fn simulate(args: &SimulateArgs) -> ExitStatus {
    if args.table {
        let harnesses: Vec<&dyn Harness> = match args.harness {
            Some(id) => harness::get(id).into_iter().collect(),
            None => harness::all().to_vec(),
        };
        let rows: Vec<Value> = harnesses
            .iter()
            .flat_map(|h| {
                table_cases(*h, args.event)
                    .into_iter()
                    .map(move |(case, obs)| row(*h, args.event, case, &obs))
            })
            .collect();
        match args.format {
            Format::Json => println!("{}", Value::Array(rows)),
            Format::Human => {
                for r in &rows {
                    println!(
                        "{:<12} {:<30} {:<9} {}",
                        r["harness"].as_str().unwrap_or(""),
                        r["case"].as_str().unwrap_or(""),
                        r["result"].as_str().unwrap_or(""),
                        r["rule"].as_str().unwrap_or("")
                    );
                }
            }
        }
        return ExitStatus::Success;
    }
    let (id, event, obs) = match &args.log {
        Some(log) => match from_log(log) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitStatus::Error;
            }
        },
        None => (
            args.harness.expect("clap requires --harness"),
            args.event,
            Observation {
                exit: args.exit,
                stdout: args.stdout.clone(),
                stderr: args.stderr.clone(),
                timed_out: args.timed_out,
            },
        ),
    };
    let id = args.harness.unwrap_or(id);
    let h = harness::get(id).expect("every harness id has a harness");
    let outcome = h.outcome(event, &obs);
    match args.format {
        Format::Json => println!("{}", row(h, event, "given", &obs)),
        Format::Human => print!("{}", describe(h, event, &outcome)),
    }
    ExitStatus::Success
}

/// The outcome in a few lines for people.
pub fn describe(h: &dyn Harness, event: Event, o: &Outcome) -> String {
    let mut out = format!(
        "{} on {}: the call {}\n",
        h.profile().name,
        event.word(),
        o.word()
    );
    out.push_str(&format!(
        "  model reads: {}\n",
        o.model_reads.as_deref().unwrap_or("(nothing)")
    ));
    out.push_str(&format!(
        "  user sees:   {}\n",
        o.user_sees.as_deref().unwrap_or("(nothing)")
    ));
    out.push_str(&format!("  rule:        {}\n", o.rule));
    out
}

fn row(h: &dyn Harness, event: Event, case: &str, obs: &Observation) -> Value {
    let o = h.outcome(event, obs);
    json!({
        "harness": h.id().word(),
        "event": event.word(),
        "case": case,
        "exit": obs.exit,
        "stdout": obs.stdout,
        "stderr": obs.stderr,
        "timed_out": obs.timed_out,
        "result": o.word(),
        "proceeds": o.proceeds,
        "model_reads": o.model_reads,
        "user_sees": o.user_sees,
        "rule": o.rule,
    })
}

/// The results every harness's table shows: the usual exit statuses, and
/// hookc's own deny answer for that harness.
fn table_cases(h: &dyn Harness, event: Event) -> Vec<(&'static str, Observation)> {
    let obs = |exit: Option<i32>, stdout: &str, stderr: &str| Observation {
        exit,
        stdout: stdout.to_owned(),
        stderr: stderr.to_owned(),
        timed_out: false,
    };
    let decision = if event == Event::PreTool {
        Decision::Deny
    } else {
        Decision::Block
    };
    let deny = h.answer(
        event,
        Some(&Verdict {
            decision,
            hits: vec![Hit {
                guard: "example".into(),
                from: None,
                decision,
                reason: "Not allowed here.".into(),
                message: None,
            }],
            rewritten: None,
        }),
    );
    vec![
        ("exit 0, empty", obs(Some(0), "", "")),
        ("exit 0, plain text", obs(Some(0), "some text", "")),
        (
            "hookc's deny answer",
            obs(Some(deny.exit), &deny.stdout, &deny.stderr),
        ),
        ("exit 1, stderr", obs(Some(1), "", "boom")),
        ("exit 2, stderr", obs(Some(2), "", "Not allowed here.")),
        ("exit 2, empty", obs(Some(2), "", "")),
        (
            "exit 127 (not found)",
            obs(Some(127), "", "sh: hookc: not found"),
        ),
        ("killed by a signal", obs(None, "", "")),
        (
            "timeout",
            Observation {
                timed_out: true,
                ..Observation::default()
            },
        ),
    ]
}

/// Read a `--debug` log line (or the last line of a file of them).
fn from_log(arg: &str) -> Result<(HarnessId, Event, Observation), String> {
    let text = if arg.trim_start().starts_with('{') {
        arg.to_owned()
    } else {
        std::fs::read_to_string(arg).map_err(|e| format!("{arg}: {e}"))?
    };
    let line = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .ok_or("the log is empty")?;
    let v: Value =
        serde_json::from_str(line).map_err(|e| format!("the log line is not JSON: {e}"))?;
    let word = |key: &str| {
        v.get(key)
            .and_then(Value::as_str)
            .ok_or(format!("the log line has no `{key}`"))
    };
    let id = HarnessId::from_word(word("harness")?).ok_or("unknown harness in the log line")?;
    let event = Event::from_word(word("event")?).ok_or("unknown event in the log line")?;
    Ok((
        id,
        event,
        Observation {
            exit: v.get("exit").and_then(Value::as_i64).map(|n| n as i32),
            stdout: v
                .get("stdout")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            stderr: v
                .get("stderr")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            timed_out: false,
        },
    ))
}
