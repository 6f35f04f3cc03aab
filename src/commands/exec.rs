//! `hookc exec`: run a call under the run-time judge. Every program the call
//! starts is judged at its exec stop, by its real argument vector, with the
//! command patterns the static guard uses (`eval::exec_stop`); every file it
//! opens, makes, removes, renames or changes is judged before that happens,
//! with the path guards (`eval::Files`). A program or a file access a guard
//! refuses stops the whole process tree.

use std::path::{Path, PathBuf};

use crate::cli::ExecArgs;
use crate::eval::{self, Call, CallTool};
use crate::ir::{Decision, Event, HarnessId, ToolKind};
use crate::policy_json;
use crate::shell::access::Access;
use crate::shell::git::GitConfig;
use crate::supervise::{self, Ending, Event as Stopped, STOPPED, Start, Touch, UNAVAILABLE};

/// Why a program start was stopped.
struct Stop {
    guard: String,
    reason: String,
}

pub fn exec(args: &ExecArgs) -> i32 {
    let Some((program, rest)) = args.command.split_first() else {
        eprintln!("hookc exec: give the program to run after `--`");
        return UNAVAILABLE;
    };
    let text = match crate::disk::read_text(&args.policy) {
        Ok(Some(text)) => text,
        Ok(None) => {
            return refuse(&format!(
                "could not read the compiled policy {} (no such file); run `hookc build` in the project",
                args.policy.display()
            ));
        }
        Err(e) => {
            return refuse(&format!(
                "could not read the compiled policy {} ({e}); run `hookc build` in the project",
                args.policy.display()
            ));
        }
    };
    let loaded = match policy_json::read(&args.policy, text.as_bytes(), Event::PreTool) {
        Ok(loaded) => loaded,
        Err(policy_json::Refusal::Broken(m) | policy_json::Refusal::Incompatible(m)) => {
            return refuse(&m);
        }
    };
    if let Err(m) = crate::builds::check(&args.policy, loaded.identity) {
        return refuse(&m);
    }
    let root = project_root(&args.policy);
    let home = std::env::var("HOME").ok().filter(|h| !h.is_empty());
    let files = match eval::Files::new(
        &loaded.evaluator,
        args.harness,
        root.as_deref(),
        home.as_deref(),
    ) {
        Ok(files) => files,
        Err(e) => return refuse(&e),
    };
    let mut start = |start: &Start| judge(&loaded.evaluator, args.harness, &root, &home, start);
    let touch = |touch: &Touch| judge_touch(&files, touch);
    let judge = supervise::Judge {
        start: &mut start,
        touch: &touch,
        watch: supervise::Watch {
            reads: files.reads(),
        },
    };
    match supervise::run(program, rest, judge) {
        Err(why) => refuse(&why),
        Ok(Ending::Exited(status)) => status,
        Ok(Ending::Signaled(signal)) => 128 + signal,
        Ok(Ending::Stopped(Stopped::Start(start), stop)) => {
            eprintln!(
                "hookc exec: guard {} stopped {}: {}",
                stop.guard,
                spell(&start.argv, &start.exe),
                stop.reason
            );
            STOPPED
        }
        Ok(Ending::Stopped(Stopped::Touch(touch), stop)) => {
            let program = match &touch.program {
                Some(argv) => spell(argv, ""),
                None => format!("process {}", touch.pid),
            };
            let doing = match (touch.call, touch.access) {
                ("open", supervise::Access::Read) => "reading",
                ("open", _) => "writing",
                (call, _) => call,
            };
            eprintln!(
                "hookc exec: guard {} stopped {program} {doing} {}: {}",
                stop.guard, touch.path, stop.reason
            );
            STOPPED
        }
    }
}

/// The judge at one file access: `Some` stops the run.
fn judge_touch(files: &eval::Files, touch: &Touch) -> Option<Stop> {
    let access = match touch.access {
        supervise::Access::Read => Access::Read,
        supervise::Access::Write => Access::Write,
        supervise::Access::Both => Access::Both,
    };
    let verdict = files.judge(&touch.path, access, touch.tree)?;
    refusal(&verdict)
}

/// Nothing ran: say why and what to do, and exit refusing.
fn refuse(why: &str) -> i32 {
    eprintln!(
        "hookc exec: cannot run the call under supervision: {why}. Nothing ran. \
         Without the run-time judge only the static guard protects calls (`hookc doctor` shows which layers work here)."
    );
    UNAVAILABLE
}

/// The judge at one program start: `Some` stops the run.
fn judge(
    evaluator: &eval::Evaluator,
    harness: HarnessId,
    root: &Option<String>,
    home: &Option<String>,
    start: &Start,
) -> Option<Stop> {
    if start.exe.is_empty() {
        // Gone before it could be read (killed from outside), or hidden:
        // a start hookc cannot see is not let through.
        return Some(Stop {
            guard: "hookc-exec".to_owned(),
            reason: "hookc could not read which program this is; run the step without hiding it"
                .to_owned(),
        });
    }
    // The program as started (argv[0], which a multi-call binary such as
    // busybox goes by) and as the file the kernel runs (a link's target): a
    // guard on either name holds.
    let mut readings = vec![start.argv.clone()];
    let exe_name = Path::new(&start.exe).file_name();
    let argv0_name = start.argv.first().map(|a| Path::new(a).file_name());
    if start.argv.is_empty() || argv0_name != Some(exe_name) {
        let mut by_file = start.argv.clone();
        match by_file.first_mut() {
            Some(first) => *first = start.exe.clone(),
            None => by_file.push(start.exe.clone()),
        }
        readings.push(by_file);
    }
    if let Some(script) = script_reading(start) {
        readings.push(script);
    }
    for argv in readings.iter().filter(|a| !a.is_empty()) {
        let line = argv
            .iter()
            .map(|w| crate::shell::sh_word(w))
            .collect::<Vec<_>>()
            .join(" ");
        let is_git = Path::new(&argv[0]).file_name().is_some_and(|n| n == "git");
        let call = Call {
            event: Some(Event::PreTool),
            tool: Some(CallTool {
                kind: Some(ToolKind::Shell),
                ..CallTool::default()
            }),
            command: Some(line),
            root: root.clone(),
            cwd: start.cwd.clone(),
            home: home.clone(),
            git: is_git.then(|| {
                GitConfig::load(
                    start.cwd.as_deref().map(Path::new),
                    home.as_deref().map(Path::new),
                )
            }),
            harness: Some(harness),
            ..Call::default()
        };
        match eval::exec_stop(evaluator, &call) {
            Err(e) => {
                return Some(Stop {
                    guard: "hookc-exec".to_owned(),
                    reason: e,
                });
            }
            Ok(Some(verdict)) => {
                if let Some(stop) = refusal(&verdict) {
                    return Some(stop);
                }
            }
            Ok(None) => {}
        }
    }
    None
}

/// A verdict that stops a supervised run: a refusal, or a question nobody
/// can answer while the call runs.
fn refusal(verdict: &eval::Verdict) -> Option<Stop> {
    if !verdict.decision.refuses() && verdict.decision != Decision::Ask {
        return None;
    }
    let hit = &verdict.hits[0];
    let mut reason = hit.reason.clone();
    if verdict.decision == Decision::Ask {
        reason.push_str(
            " (the policy asks the user about this, and nobody can be asked while a supervised call runs: run it as a call of its own)",
        );
    }
    Some(Stop {
        guard: verdict
            .hits
            .iter()
            .map(|h| h.guard.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        reason,
    })
}

/// A script started through its `#!` line: the kernel hands the interpreter
/// the script's path in place of the name it was started by (`deploy prod`
/// runs as `/bin/sh /path/deploy prod`). When word 1 or 2 is a file whose `#!`
/// line names the program that runs, the start is also read as that script
/// with the words after it.
fn script_reading(start: &Start) -> Option<Vec<String>> {
    use std::io::Read;
    let exe = std::fs::canonicalize(&start.exe).ok()?;
    (1..=2).find_map(|k| {
        let word = start.argv.get(k)?;
        let path = match &start.cwd {
            Some(cwd) => Path::new(cwd).join(word),
            None => PathBuf::from(word),
        };
        // Never open a FIFO or a device the word may name.
        if !std::fs::metadata(&path).ok()?.is_file() {
            return None;
        }
        let mut file = crate::disk::open_nonblocking(&path).ok()?;
        if !file.metadata().ok()?.is_file() {
            return None;
        }
        let mut head = [0u8; 256];
        let n = file.read(&mut head).ok()?;
        let line = head[..n].strip_prefix(b"#!")?;
        let line = line.split(|&b| b == b'\n').next()?;
        let interpreter = std::str::from_utf8(line).ok()?.split_whitespace().next()?;
        (std::fs::canonicalize(interpreter).ok()? == exe).then(|| start.argv[k..].to_vec())
    })
}

/// A program as the user reads it: its words, quoted where a shell would
/// need it, control characters escaped; and the file the kernel runs when
/// its name is another (`exe`, empty when not known).
fn spell(argv: &[String], exe: &str) -> String {
    let plain = |w: &str| {
        !w.is_empty()
            && w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_./=+,:@%".contains(&b))
    };
    let words: Vec<String> = argv
        .iter()
        .map(|w| {
            if plain(w) {
                w.clone()
            } else {
                crate::shell::sh_word(w)
            }
        })
        .collect();
    let mut spelled = words.join(" ");
    if !exe.is_empty()
        && Path::new(exe).file_name() != argv.first().and_then(|a| Path::new(a).file_name())
    {
        spelled.push_str(&format!(" (the program {exe})"));
    }
    spelled
        .chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The folder holding `.hookc/` when the policy is `<root>/.hookc/policy.json`.
fn project_root(policy: &Path) -> Option<String> {
    let absolute: PathBuf = std::path::absolute(policy).ok()?;
    if !absolute.ends_with(crate::emit::POLICY_JSON) {
        return None;
    }
    let root = absolute.parent()?.parent()?;
    Some(root.to_string_lossy().into_owned())
}
