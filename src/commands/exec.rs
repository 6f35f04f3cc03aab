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
    let Some(root) = project_root(&args.policy) else {
        return refuse(&format!(
            "the compiled policy {} is not in a project's {} (the guards' paths are the project's)",
            args.policy.display(),
            crate::emit::POLICY_JSON
        ));
    };
    let root = Some(root);
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
    let programs = match eval::Programs::new(&loaded.evaluator, std::env::var_os("PATH").as_deref())
    {
        Ok(programs) => programs,
        Err(e) => return refuse(&e),
    };
    let mut start = |start: &Start| {
        judge(
            &loaded.evaluator,
            &programs,
            args.harness,
            &root,
            &home,
            start,
        )
    };
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
                ("unlink" | "rmdir", _) => "removing",
                ("rename", _) => "moving",
                ("link", _) => "linking",
                ("symlink", _) => "making a link at",
                ("mkdir" | "mknod", _) => "making",
                ("truncate", _) => "truncating",
                ("chmod", _) => "changing the mode of",
                ("chown", _) => "changing the owner of",
                ("utimes", _) => "changing the times of",
                (_, _) => "changing the attributes of",
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
         Write the command so hookc can read it before it runs (plain program names and literal arguments, no variables or substitutions as programs) and run it again. \
         Without the run-time judge only the static guard protects calls (`hookc doctor` shows which layers work here)."
    );
    UNAVAILABLE
}

/// The judge at one program start: `Some` stops the run.
fn judge(
    evaluator: &eval::Evaluator,
    programs: &eval::Programs,
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
    let readings = readings(start, programs);
    // A git command's settings also come from its environment: read once.
    let environment = std::cell::OnceCell::new();
    let environment = || environment.get_or_init(|| environment_of(start.pid));
    for argv in readings.iter().filter(|a| !a.is_empty()) {
        if programs.out_of_reach(argv) {
            continue;
        }
        let is_git = Path::new(&argv[0]).file_name().is_some_and(|n| n == "git");
        let mut words = argv.clone();
        if is_git {
            // As `-c` settings, which the reading classifies.
            let settings = git_settings_of(environment());
            words.splice(
                1..1,
                settings.into_iter().flat_map(|s| ["-c".to_owned(), s]),
            );
        }
        let line = words
            .iter()
            .map(|w| crate::shell::sh_word(w))
            .collect::<Vec<_>>()
            .join(" ");
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
                let environment = environment();
                // git finds the user's settings from its own HOME, which the
                // line may have set (`HOME=/tmp/x git st`); a relative one
                // is counted from where it starts.
                let own_home = environment.get("HOME").filter(|h| !h.is_empty()).map(|h| {
                    start
                        .cwd
                        .as_deref()
                        .map_or_else(|| PathBuf::from(h), |cwd| Path::new(cwd).join(h))
                });
                let home = own_home.or_else(|| home.as_deref().map(PathBuf::from));
                GitConfig::load_with(
                    start.cwd.as_deref().map(Path::new),
                    home.as_deref(),
                    &|name| environment.get(name).map(Into::into),
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

/// The environment of process `pid` (`/proc/PID/environ`; empty when it
/// cannot be read).
fn environment_of(pid: i32) -> std::collections::HashMap<String, String> {
    let bytes = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
    bytes
        .split(|&b| b == 0)
        .filter_map(|entry| {
            let entry = String::from_utf8_lossy(entry);
            let (name, value) = entry.split_once('=')?;
            Some((name.to_owned(), value.to_owned()))
        })
        .collect()
}

/// The git settings an environment gives a git command, `key=value` each:
/// `GIT_CONFIG_PARAMETERS`, where `git -c` hands its settings to the git
/// commands it starts (`'key'='value'` or `'key=value'`, shell-quoted), and
/// `GIT_CONFIG_COUNT` with `GIT_CONFIG_KEY_n` and `GIT_CONFIG_VALUE_n`.
fn git_settings_of(environment: &std::collections::HashMap<String, String>) -> Vec<String> {
    let mut settings = Vec::new();
    if let Some(parameters) = environment.get("GIT_CONFIG_PARAMETERS") {
        // Single-quoted strings, `'\''` for a quote inside one.
        let mut quoted: Vec<(String, bool)> = Vec::new();
        let mut chars = parameters.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '\'' {
                continue;
            }
            let mut text = String::new();
            while let Some(c) = chars.next() {
                if c == '\'' {
                    if chars.peek() == Some(&'\\') {
                        // `'\''`: the quote ends, a quote, it goes on.
                        chars.next();
                        chars.next();
                        chars.next();
                        text.push('\'');
                        continue;
                    }
                    break;
                }
                text.push(c);
            }
            let joined = chars.peek() == Some(&'=');
            if joined {
                chars.next();
            }
            quoted.push((text, joined));
        }
        let mut parts = quoted.into_iter();
        while let Some((first, joined)) = parts.next() {
            // `'key'='value'`, or the older `'key=value'`.
            match (joined, joined.then(|| parts.next()).flatten()) {
                (true, Some((value, _))) => settings.push(format!("{first}={value}")),
                _ => settings.push(first),
            }
        }
    }
    let count: usize = environment
        .get("GIT_CONFIG_COUNT")
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    for i in 0..count.min(1000) {
        if let Some(key) = environment.get(&format!("GIT_CONFIG_KEY_{i}")) {
            let value = environment
                .get(&format!("GIT_CONFIG_VALUE_{i}"))
                .map_or(String::new(), Clone::clone);
            settings.push(format!("{key}={value}"));
        }
    }
    settings
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

/// The ways a program start is read, each an argument vector whose first
/// word names the program; a guard that describes any of them stops it:
///
/// * as it was started (argv[0], which a multi-call binary such as busybox
///   goes by);
/// * by the file the kernel runs (`exe`: a link's target);
/// * for a script started through its `#!` line, where the kernel hands the
///   interpreter the script's name in place of the name it was started by
///   (`deploy prod` runs as `/bin/sh /path/deploy prod`): from the script's
///   name on, as given and as the file it is;
/// * for a program file that is a guarded program under another name (a
///   hard link, a copy: see [`eval::Programs`]), by that program's name.
fn readings(start: &Start, programs: &eval::Programs) -> Vec<Vec<String>> {
    let mut readings = vec![start.argv.clone()];
    let name = |p: &str| Path::new(p).file_name().map(std::ffi::OsStr::to_owned);
    let with_program = |program: &str, rest: &[String]| {
        let mut argv = vec![program.to_owned()];
        argv.extend_from_slice(rest);
        argv
    };
    let args = start.argv.get(1..).unwrap_or_default();
    if start.argv.first().map(|a| name(a)) != Some(name(&start.exe)) {
        readings.push(with_program(&start.exe, args));
    }
    let exe = std::fs::canonicalize(&start.exe).ok();
    // The script, when the kernel ran a `#!` line: what `execve` was given
    // is another file than the interpreter that runs.
    let script = start.execfn.as_ref().and_then(|given| {
        let at = (1..=2).find(|&k| start.argv.get(k) == Some(given))?;
        let file = the_programs_file(start, given);
        // A file removed since (run through `/proc/self/fd/N`) keeps the
        // name in /proc that reaches it.
        let file = std::fs::canonicalize(&file).unwrap_or(file);
        if Some(&file) == exe.as_ref() {
            return None;
        }
        Some((file, at))
    });
    if let Some((file, at)) = &script {
        let rest = &start.argv[at + 1..];
        readings.push(start.argv[*at..].to_vec());
        readings.push(with_program(&file.to_string_lossy(), rest));
        if let Some(program) = programs.named(file) {
            readings.push(with_program(program, rest));
        }
    } else if let Some(program) = programs.named(Path::new(&format!("/proc/{}/exe", start.pid))) {
        // The image the kernel runs, by its link in /proc: the file behind
        // the path may be gone or replaced by now (a copy of `git` run
        // through `/proc/self/fd/N` and removed first).
        readings.push(with_program(program, args));
    }
    readings.sort();
    readings.dedup();
    readings
}

/// The file a path `given` by the started program names, from the
/// supervisor: relative to the program's folder, and with `/proc/self`,
/// `/proc/thread-self` and `/dev/fd` (which here would name the supervisor)
/// as the program's own entry in /proc.
fn the_programs_file(start: &Start, given: &str) -> PathBuf {
    let own = format!("/proc/{}", start.pid);
    for (prefix, instead) in [
        ("/proc/self/", own.clone()),
        ("/proc/thread-self/", own.clone()),
        ("/dev/fd/", format!("{own}/fd")),
    ] {
        if let Some(rest) = given.strip_prefix(prefix) {
            return Path::new(&instead).join(rest);
        }
    }
    match &start.cwd {
        Some(cwd) => Path::new(cwd).join(given),
        None => PathBuf::from(given),
    }
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
/// The folder holding `.hookc/` when the policy is `<root>/.hookc/policy.json`,
/// however the path is spelled (`.hookc/claude/../policy.json`, a link).
fn project_root(policy: &Path) -> Option<String> {
    let real: PathBuf = std::fs::canonicalize(policy).ok()?;
    if !real.ends_with(crate::emit::POLICY_JSON) {
        return None;
    }
    let root = real.parent()?.parent()?;
    Some(root.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_settings_come_from_both_forms_of_the_environment() {
        let env = |pairs: &[(&str, &str)]| -> std::collections::HashMap<String, String> {
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect()
        };
        // As git 2.31 and later write it, and as older git did.
        let new = env(&[(
            "GIT_CONFIG_PARAMETERS",
            "'alias.p'='push -f' 'color.ui'='it'\\''s'",
        )]);
        assert_eq!(git_settings_of(&new), ["alias.p=push -f", "color.ui=it's"]);
        let old = env(&[("GIT_CONFIG_PARAMETERS", "'alias.p=push -f' 'user.name=x'")]);
        assert_eq!(git_settings_of(&old), ["alias.p=push -f", "user.name=x"]);
        let mixed = env(&[("GIT_CONFIG_PARAMETERS", "'a=1' 'b'='2' 'c=3'")]);
        assert_eq!(git_settings_of(&mixed), ["a=1", "b=2", "c=3"]);
        let counted = env(&[
            ("GIT_CONFIG_COUNT", "2"),
            ("GIT_CONFIG_KEY_0", "alias.pf"),
            ("GIT_CONFIG_VALUE_0", "push -f"),
            ("GIT_CONFIG_KEY_1", "help.autocorrect"),
            ("GIT_CONFIG_VALUE_1", "immediate"),
        ]);
        assert_eq!(
            git_settings_of(&counted),
            ["alias.pf=push -f", "help.autocorrect=immediate"]
        );
    }
}
