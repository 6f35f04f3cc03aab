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
    let held = Held::default();
    let mut start = |start: &Start| {
        judge(
            &loaded.evaluator,
            &programs,
            &held,
            args.harness,
            &root,
            &home,
            start,
        )
    };
    let touch = |touch: &Touch| held.touch(touch).or_else(|| judge_touch(&files, touch));
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
                ("bind", _) => "making a socket at",
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
    held: &Held,
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
    // The environment the program starts with, read once when needed.
    let environ = std::cell::OnceCell::new();
    let whole_environment = || environ.get_or_init(|| environment_of(start.pid));
    let environment = || &whole_environment().vars;
    let mut readings = readings(start, programs);
    let loads = match through_loader(start, programs, &environment) {
        Ok(loaded) => {
            readings.extend(loaded.readings);
            loaded.loads
        }
        Err(reason) => {
            return Some(Stop {
                guard: "hookc-exec".to_owned(),
                reason,
            });
        }
    };
    // The settings files the judgement read (git's).
    let mut read: Vec<PathBuf> = Vec::new();
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
        if let Some(git) = &call.git {
            read.extend(git.files().iter().cloned());
            // Where git looks for its repository: a `.git` made there later
            // would be another repository's settings.
            let mut at = start.cwd.as_deref().map(Path::new);
            while let Some(folder) = at {
                read.push(folder.join(".git"));
                at = folder.parent();
            }
        }
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
    // A program a guard names must run its own code: what the guards
    // judged at its start is then all it does.
    if let Some(guarded) = readings.iter().find(|argv| {
        argv.first()
            .and_then(|p| Path::new(p).file_name())
            .is_some_and(|name| programs.guarded(&name.to_string_lossy()))
    }) && let Some(reason) = loads_code(guarded, &loads, whole_environment())
    {
        return Some(Stop {
            guard: "hookc-exec".to_owned(),
            reason,
        });
    }
    held.hold(start, &read)
}

/// A settings file the judgement of a program start read, held unchanged
/// while that program runs.
struct HeldFile {
    /// Its real path (for a file looked for and missing, where it would be).
    path: PathBuf,
    /// Its device and inode, when it is there.
    id: Option<(u64, u64)>,
    /// The process that started with it, and how it was started.
    owner: i32,
    program: String,
}

/// The files the judge read at program starts (git's settings files, and
/// where git looks for its repository), so that what a program reads after
/// its start is what the judge read: no process of the tree holds one open
/// for writing (or mapped for writing) when the program starts, and while
/// it runs no other process of the tree writes, replaces, moves or removes
/// one (the program and its children may: git writes its own settings,
/// `git push -u`, after reading them).
#[derive(Default)]
struct Held(std::cell::RefCell<Vec<HeldFile>>);

/// A file's device and inode (links followed, or the link itself).
#[cfg(unix)]
fn file_id_of(path: &Path, follow: bool) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = if follow {
        std::fs::metadata(path)
    } else {
        std::fs::symlink_metadata(path)
    };
    meta.ok().map(|m| (m.dev(), m.ino()))
}

/// (Supervision runs on Linux only.)
#[cfg(not(unix))]
fn file_id_of(_path: &Path, _follow: bool) -> Option<(u64, u64)> {
    None
}

/// A file's device and inode.
fn file_id(path: &Path) -> Option<(u64, u64)> {
    file_id_of(path, true)
}

/// `path` with every link resolved as far as it exists, the rest as given.
fn real_path(path: &Path) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(path) {
        return real;
    }
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) => real_path(parent).join(name),
        _ => path.to_path_buf(),
    }
}

/// Whether process (or thread) `pid` is `owner` or was started below it.
fn descends(pid: i32, owner: i32) -> bool {
    let mut at = pid;
    for _ in 0..256 {
        let Ok(status) = std::fs::read_to_string(format!("/proc/{at}/status")) else {
            return false;
        };
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.trim().parse::<i32>().ok())
        };
        if field("Tgid:") == Some(owner) {
            return true;
        }
        match field("PPid:") {
            Some(parent) if parent > 1 => at = parent,
            _ => return false,
        }
    }
    false
}

/// A process of the tree that may still write one of the files `ids`, and
/// which: one that holds it open for writing or has it mapped shared and
/// writable.
fn writer_of(pids: &[i32], ids: &[(u64, u64)]) -> Option<(i32, (u64, u64))> {
    if ids.is_empty() {
        return None;
    }
    // The device as /proc/PID/maps spells it (`major:minor`, hex).
    let spelled: Vec<(String, String)> = ids
        .iter()
        .map(|&(dev, ino)| {
            let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & !0xfff);
            let minor = (dev & 0xff) | ((dev >> 12) & !0xff);
            (format!("{major:02x}:{minor:02x}"), ino.to_string())
        })
        .collect();
    pids.iter().copied().find_map(|pid| {
        let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
            .into_iter()
            .flatten()
            .flatten();
        let open = fds.into_iter().find_map(|fd| {
            let id = file_id(&fd.path()).filter(|id| ids.contains(id))?;
            std::fs::read_to_string(format!(
                "/proc/{pid}/fdinfo/{}",
                fd.file_name().to_string_lossy()
            ))
            .ok()
            .and_then(|info| {
                info.lines()
                    .find_map(|l| l.strip_prefix("flags:"))
                    .and_then(|f| i32::from_str_radix(f.trim(), 8).ok())
            })
            // `O_ACCMODE` bits other than `O_RDONLY` (Linux's values).
            .is_none_or(|flags| flags & 0o3 != 0)
            .then_some(id)
        });
        let mapped = || {
            std::fs::read_to_string(format!("/proc/{pid}/maps"))
                .unwrap_or_default()
                .lines()
                .find_map(|line| {
                    let fields: Vec<&str> = line.split_whitespace().collect();
                    if fields.len() < 5 || !fields[1].contains('w') || !fields[1].ends_with('s') {
                        return None;
                    }
                    let at = spelled
                        .iter()
                        .position(|(dev, ino)| fields[3] == dev && fields[4] == ino)?;
                    Some(ids[at])
                })
        };
        open.or_else(mapped).map(|id| (pid, id))
    })
}

/// Whether process `pid` is there and has not ended (a zombie has).
fn running(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        !s.rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}

impl Held {
    /// At `start`, whose judgement read `files`: `Some` when a process of
    /// the tree may still write one; else they are held while it runs.
    fn hold(&self, start: &Start, files: &[PathBuf]) -> Option<Stop> {
        if files.is_empty() {
            return None;
        }
        let program = spell(&start.argv, "");
        let mut pids = start.others.clone();
        pids.push(start.pid);
        let files: Vec<HeldFile> = files
            .iter()
            .map(|file| {
                let path = real_path(file);
                HeldFile {
                    id: file_id(&path),
                    path,
                    owner: start.pid,
                    program: program.clone(),
                }
            })
            .collect();
        let ids: Vec<(u64, u64)> = files.iter().filter_map(|f| f.id).collect();
        if let Some((writer, id)) = writer_of(&pids, &ids) {
            let path = files
                .iter()
                .find(|f| f.id == Some(id))
                .map_or_else(String::new, |f| f.path.display().to_string());
            return Some(Stop {
                guard: "hookc-exec".to_owned(),
                reason: format!(
                    "process {writer} of this call holds {path} open for writing, and `{program}` reads its settings from it: they could change after hookc read them. Close the file first, or run `{program}` in a call of its own"
                ),
            });
        }
        self.0.borrow_mut().extend(files);
        None
    }

    /// At a file access: `Some` when it would change a file held for a
    /// program still running, from outside that program.
    fn touch(&self, touch: &Touch) -> Option<Stop> {
        if touch.access == supervise::Access::Read {
            return None;
        }
        let mut held = self.0.borrow_mut();
        // A program that ended holds nothing.
        held.retain(|h| running(h.owner));
        if held.is_empty() {
            return None;
        }
        let path = Path::new(&touch.path);
        let id = file_id_of(path, false);
        let hit = held.iter().find(|h| {
            (h.path == path || touch.tree && h.path.starts_with(path) || id.is_some() && h.id == id)
                && !descends(touch.pid, h.owner)
        })?;
        Some(Stop {
            guard: "hookc-exec".to_owned(),
            reason: format!(
                "`{}` read its settings from {} when it started and is still running: changing the file now would change what it does after hookc judged it. Let it finish first (`wait`), or change the file in a call of its own",
                hit.program,
                hit.path.display()
            ),
        })
    }
}

/// The environment a program starts with.
#[derive(Debug, Default)]
struct Environment {
    /// Each variable's value (of a name given twice, the last).
    vars: std::collections::HashMap<String, String>,
    /// The variables that load code of the caller's choosing
    /// ([`CODE_VARIABLES`]) with a value, each as given.
    loads: Vec<(String, String)>,
    /// Whether all of it was read.
    whole: bool,
}

/// The most of a process's environment hookc reads. The kernel holds a
/// program's arguments and environment together to at most three
/// quarters of 8 MiB (`_STK_LIM`), so a whole one always fits.
const ENVIRONMENT_LIMIT: u64 = 8 << 20;

/// Variables that make the dynamic loader or the C library load code of
/// the caller's choosing into a program: a library before the program's
/// own (`LD_PRELOAD`), an auditing library (`LD_AUDIT`), the folders
/// libraries are looked for in first (`LD_LIBRARY_PATH`), the folder
/// `iconv` loads its converters from (`GCONV_PATH`).
const CODE_VARIABLES: &[&str] = &["LD_PRELOAD", "LD_AUDIT", "LD_LIBRARY_PATH", "GCONV_PATH"];

/// The environment of process `pid`, at its exec stop: `/proc/PID/environ`
/// is then the new image's initial environment, in memory no other
/// process shares, before the program's first instruction (as its
/// arguments, see `supervise`). Read to [`ENVIRONMENT_LIMIT`]; `whole` is
/// false when it could not be read or was longer.
fn environment_of(pid: i32) -> Environment {
    use std::io::Read;
    let mut bytes = Vec::new();
    let read = std::fs::File::open(format!("/proc/{pid}/environ"))
        .and_then(|file| file.take(ENVIRONMENT_LIMIT + 1).read_to_end(&mut bytes));
    let whole = read.is_ok() && bytes.len() as u64 <= ENVIRONMENT_LIMIT;
    let mut environment = Environment {
        whole,
        ..Environment::default()
    };
    for entry in bytes.split(|&b| b == 0) {
        let entry = String::from_utf8_lossy(entry);
        let Some((name, value)) = entry.split_once('=') else {
            continue;
        };
        // A value `hookc exec` itself was started with came from the
        // harness, not from the line (a user's `LD_LIBRARY_PATH` for CUDA).
        let inherited = std::env::var_os(name).is_some_and(|own| own == *value);
        if CODE_VARIABLES.contains(&name) && !value.is_empty() && !inherited {
            environment.loads.push((name.to_owned(), value.to_owned()));
        }
        environment.vars.insert(name.to_owned(), value.to_owned());
    }
    environment
}

/// Why the start of a program a guard names, read as `argv`, may run code
/// of the caller's choosing rather than its own (what its start was judged
/// by): a variable of its environment ([`CODE_VARIABLES`]), or an option
/// of the dynamic loader that runs it (`loads`); and how to run it
/// instead. `None` when nothing does.
fn loads_code(argv: &[String], loads: &[String], environment: &Environment) -> Option<String> {
    let command = spell(argv, "");
    let program = argv
        .first()
        .and_then(|p| Path::new(p).file_name())
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    if !environment.whole {
        return Some(format!(
            "hookc could not read the whole environment `{program}` starts with (unreadable, or longer than {} MiB), so it cannot tell whether it loads code of the caller's choosing; run `{command}` with a smaller environment",
            ENVIRONMENT_LIMIT >> 20
        ));
    }
    if let Some((name, value)) = environment.loads.first() {
        return Some(format!(
            "`{program}` would start with {name}={} in its environment, which loads code of the caller's choosing into it after hookc judged its start, so the guards on `{program}` would not hold. Run it without {name}: leave `{name}=…` off the line, or run `env -u {name} {command}`",
            shortened(&spell(std::slice::from_ref(value), ""))
        ));
    }
    if let Some(option) = loads.first() {
        return Some(format!(
            "the dynamic loader would run `{program}` with `{option}`, which loads code of the caller's choosing into it after hookc judged its start, so the guards on `{program}` would not hold. Run the program directly, without the loader: `{command}`"
        ));
    }
    None
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

/// The dynamic loader's options that take a value (glibc's; musl's
/// `--library-path`, `--preload` and `--argv0` are among them).
const LOADER_VALUED: &[&str] = &[
    "--library-path",
    "--preload",
    "--audit",
    "--argv0",
    "--inhibit-rpath",
    "--glibc-hwcaps-prepend",
    "--glibc-hwcaps-mask",
];

/// The dynamic loader's options that take none.
const LOADER_FLAGS: &[&str] = &[
    "--list",
    "--verify",
    "--inhibit-cache",
    "--list-tunables",
    "--list-diagnostics",
    "--help",
    "--version",
];

/// The options of the dynamic loader that load code of the caller's
/// choosing into the program it runs.
const LOADER_LOADS: &[&str] = &["--library-path", "--preload", "--audit"];

/// The dynamic loader run as a program, read from its arguments.
#[derive(Debug, Default, PartialEq)]
struct LoaderRun {
    /// The program it is given, as given, then that program's arguments;
    /// empty when it is given none (`--help`).
    argv: Vec<String>,
    /// Its options that load code of the caller's choosing, each as
    /// `--preload VALUE` (see [`LOADER_LOADS`]).
    loads: Vec<String>,
    /// The folders `--library-path` names.
    library_path: Option<String>,
}

/// The dynamic loader's arguments (after its own name) read as glibc's and
/// musl's loaders read them: options while a word starts with `--`, then
/// the program and its arguments. `--argv0` changes the name the program
/// sees, not which program runs. musl's `--name=value` forms and its `--`
/// that ends the options are read too. An option neither knows is an
/// `Err` naming it: hookc cannot tell what the loader would do with it.
fn loader_run(args: &[String]) -> Result<LoaderRun, String> {
    let mut run = LoaderRun::default();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if word == "--" {
            break;
        }
        if !word.starts_with("--") {
            run.argv.push(word.clone());
            break;
        }
        if LOADER_FLAGS.contains(&word.as_str()) {
            continue;
        }
        let (option, value) = match word.split_once('=') {
            Some((option, value)) => (option, Some(value.to_owned())),
            None => (word.as_str(), None),
        };
        if !LOADER_VALUED.contains(&option) {
            return Err(format!("`{word}`"));
        }
        // An option without its value: the loader prints its usage and
        // runs nothing.
        let Some(value) = value.or_else(|| words.next().cloned()) else {
            return Ok(LoaderRun::default());
        };
        if LOADER_LOADS.contains(&option) && !value.is_empty() {
            run.loads.push(format!("{option} {value}"));
        }
        if option == "--library-path" {
            run.library_path = Some(value);
        }
    }
    if run.argv.is_empty() {
        run.argv.extend(words.next().cloned());
    }
    if !run.argv.is_empty() {
        run.argv.extend(words.cloned());
    }
    Ok(run)
}

/// The folders the dynamic loader looks in for a program given without a
/// `/` (it looks for it as for a library), after `--library-path` and
/// `LD_LIBRARY_PATH`.
const LIBRARY_FOLDERS: &[&str] = &[
    "/lib64",
    "/usr/lib64",
    "/lib",
    "/usr/lib",
    "/lib/x86_64-linux-gnu",
    "/usr/lib/x86_64-linux-gnu",
    "/lib/aarch64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/usr/local/lib",
];

/// What the dynamic loader run as a program runs: its readings, and the
/// loader options that load code of the caller's choosing.
#[derive(Debug, Default)]
struct Loaded {
    readings: Vec<Vec<String>>,
    loads: Vec<String>,
}

/// When the program file `start` runs is the dynamic loader
/// (`/lib64/ld-linux-x86-64.so.2 /usr/bin/git push --force`), the program
/// the loader is given is what runs, with the arguments after it: it is
/// read as a start of its own would be, by the name it is given, by its
/// file, and by the guarded program that file is. A loader given a loader
/// is followed (a few deep). `Err`: why hookc cannot tell what runs.
fn through_loader<'e>(
    start: &Start,
    programs: &eval::Programs,
    environment: &dyn Fn() -> &'e std::collections::HashMap<String, String>,
) -> Result<Loaded, String> {
    let mut loaded = Loaded::default();
    // The image the kernel runs, by its link in /proc.
    let mut file = PathBuf::from(format!("/proc/{}/exe", start.pid));
    let mut args = start.argv.get(1..).unwrap_or_default().to_vec();
    for _ in 0..4 {
        if !programs.is_loader(&file) {
            return Ok(loaded);
        }
        let run = loader_run(&args).map_err(|option| {
            format!(
                "this starts the dynamic loader with the option {option}, which hookc does not know, so it cannot tell which program runs; run the program directly, without the loader"
            )
        })?;
        let Some((given, rest)) = run.argv.split_first() else {
            return Ok(loaded);
        };
        loaded.loads.extend(run.loads.iter().cloned());
        loaded.readings.push(run.argv.clone());
        let with_program = |program: &str| {
            let mut argv = vec![program.to_owned()];
            argv.extend_from_slice(rest);
            argv
        };
        let files = loader_program_files(start, given, run.library_path.as_deref(), environment());
        for found in &files {
            loaded.readings.push(with_program(&found.to_string_lossy()));
            if let Some(program) = programs.named(found) {
                loaded.readings.push(with_program(program));
            }
        }
        let Some(first) = files.into_iter().next() else {
            return Ok(loaded);
        };
        file = first;
        args = rest.to_vec();
    }
    Err("this starts the dynamic loader through itself more than four deep; run the program directly, without the loader".to_owned())
}

/// The files the dynamic loader may run for the program `given`: with a
/// `/`, the file it names (from the program's folder); without one, each
/// file of that name in the folders the loader searches, in its order.
fn loader_program_files(
    start: &Start,
    given: &str,
    library_path: Option<&str>,
    environment: &std::collections::HashMap<String, String>,
) -> Vec<PathBuf> {
    let real = |p: PathBuf| std::fs::canonicalize(&p).unwrap_or(p);
    if given.contains('/') {
        return vec![real(the_programs_file(start, given))];
    }
    let mut folders: Vec<String> = Vec::new();
    for list in [
        library_path,
        environment.get("LD_LIBRARY_PATH").map(String::as_str),
    ]
    .into_iter()
    .flatten()
    {
        folders.extend(list.split([':', ';']).map(str::to_owned));
    }
    folders.extend(LIBRARY_FOLDERS.iter().map(|f| (*f).to_owned()));
    let mut files: Vec<PathBuf> = Vec::new();
    for folder in folders {
        // An empty folder is the working folder.
        let folder = if folder.is_empty() {
            ".".to_owned()
        } else {
            folder
        };
        let path = real(the_programs_file(start, &format!("{folder}/{given}")));
        if path.is_file() && !files.contains(&path) {
            files.push(path);
        }
    }
    files
}

/// `text`, cut to its first 120 characters (and `…`) when longer.
fn shortened(text: &str) -> String {
    match text.char_indices().nth(120) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
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
    fn the_dynamic_loader_s_options_are_read_as_it_reads_them() {
        let words = |line: &str| line.split(' ').map(str::to_owned).collect::<Vec<_>>();
        let run = loader_run(&words(
            "--argv0 git --library-path /tmp/l --inhibit-cache /usr/bin/git push --force",
        ))
        .unwrap();
        assert_eq!(run.argv, words("/usr/bin/git push --force"));
        assert_eq!(run.loads, ["--library-path /tmp/l"]);
        assert_eq!(run.library_path.as_deref(), Some("/tmp/l"));
        let run = loader_run(&words(
            "--preload=/tmp/p.so --audit /tmp/a.so -- git --list",
        ))
        .unwrap();
        assert_eq!(run.argv, words("git --list"));
        assert_eq!(run.loads, ["--preload /tmp/p.so", "--audit /tmp/a.so"]);
        // A program's own options are its own; a word with one dash is a
        // program to glibc's loader.
        assert_eq!(loader_run(&words("-x y")).unwrap().argv, words("-x y"));
        assert_eq!(loader_run(&words("--help")).unwrap(), LoaderRun::default());
        assert_eq!(
            loader_run(&words("--preload")).unwrap(),
            LoaderRun::default()
        );
        assert_eq!(
            loader_run(&words("--frobnicate git push")).unwrap_err(),
            "`--frobnicate`"
        );
    }

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
