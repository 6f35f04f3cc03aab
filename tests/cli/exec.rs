//! `hookc exec`: the run-time judge stops a denied program however the line
//! reaches it, and lets everything else run untouched (Linux only).
#![cfg(target_os = "linux")]

use std::path::Path;
use std::process::Command;

use crate::support::{HOOKC, Project, Run, make_executable, run};

const POLICY: &str = r#"
guard "no-deploy" {
    tool "shell"
    command "deploy" "prod"
    deny "Do not deploy to production from an agent; ask the user to run the release job."
    example "deploy prod" expect="deny"
    example "deploy staging" expect="allow"
}
guard "keep-build" {
    tool "shell"
    command "rm" {
        flag "-r" "-R" "--recursive"
        arg "build"
    }
    deny "Keep build/: remove the files inside it by name."
    example "rm -rf build" expect="deny"
    example "rm -rf out" expect="allow"
}
"#;

/// A built project whose `bin/` holds stand-ins for `deploy` and `rm`: each
/// writes a marker file named after its arguments, so a test sees whether
/// it ran.
fn project() -> Project {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.build();
    for name in ["deploy", "rm"] {
        let marker = p.path("ran").display().to_string();
        p.write(
            &format!("bin/{name}"),
            &format!("#!/bin/sh\nmkdir -p {marker}\necho ran > \"{marker}/{name} $*\"\n"),
        );
        make_executable(&p.path(&format!("bin/{name}")));
    }
    p
}

fn ran(p: &Project) -> Vec<String> {
    match std::fs::read_dir(p.path("ran")) {
        Ok(dir) => {
            let mut names: Vec<String> = dir
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        }
        Err(_) => Vec::new(),
    }
}

/// `hookc exec --harness claude -- ARGS` in the project, the stand-ins first on PATH.
fn exec(p: &Project, args: &[&str]) -> Run {
    let path = format!(
        "{}:{}",
        p.path("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    run(
        Command::new(HOOKC)
            .args(["exec", "--harness", "claude", "--"])
            .args(args)
            .current_dir(p.dir.path())
            .env("PATH", path),
        None,
    )
}

fn sh(p: &Project, line: &str) -> Run {
    exec(p, &["sh", "-c", line])
}

/// The run was stopped by `guard`, which named what it saw, and nothing the
/// guard refuses ran.
fn assert_stopped(p: &Project, r: &Run, guard: &str, seen: &str) {
    assert_eq!(r.status, 87, "{r:?}");
    assert!(
        r.stderr
            .contains(&format!("hookc exec: guard {guard} stopped ")),
        "{r:?}"
    );
    assert!(r.stderr.contains(seen), "{seen}: {r:?}");
    let forbidden: Vec<String> = ran(p)
        .into_iter()
        .filter(|n| n.starts_with("deploy prod") || n.starts_with("rm -rf build"))
        .collect();
    assert!(forbidden.is_empty(), "ran: {forbidden:?}");
}

fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn an_allowed_call_runs_with_its_output_and_status() {
    let p = project();
    let r = sh(&p, "echo out; echo err >&2; deploy staging; exit 7");
    assert_eq!(r.status, 7, "{r:?}");
    assert_eq!(r.stdout, "out\n");
    assert_eq!(r.stderr, "err\n");
    assert_eq!(ran(&p), ["deploy staging"]);
}

#[test]
fn a_denied_program_started_directly_never_runs() {
    let p = project();
    let r = exec(&p, &["deploy", "prod"]);
    assert_stopped(&p, &r, "no-deploy", "deploy prod");
    assert!(
        r.stderr.contains("ask the user to run the release job"),
        "{r:?}"
    );
}

#[test]
fn a_denied_program_is_stopped_however_the_line_reaches_it() {
    let p = project();
    for line in [
        "deploy prod",
        "c=rm; $c -rf build",
        "c=$(printf dep)loy; $c prod",
        "eval \"$(printf 'dep%s' loy) prod\"",
        "bash -c \"$(printf 'deploy %s' prod)\"",
        "deploy prod & wait",
        "true | (sleep 0; $(echo deploy) prod)",
    ] {
        let r = sh(&p, line);
        let guard = if line.contains("rm") {
            "keep-build"
        } else {
            "no-deploy"
        };
        assert_stopped(&p, &r, guard, "");
    }
}

/// `c=rm; $c -rf build` may be opaque to a static reading; under exec the
/// start of `rm` itself is what is stopped, with its real arguments.
#[test]
fn a_program_named_by_a_variable_is_stopped_at_its_own_start() {
    let p = project();
    let r = sh(&p, "read c <<EOF\nrm\nEOF\n$c -rf build");
    assert_stopped(&p, &r, "keep-build", "rm -rf build");
    let r = sh(&p, "for w in dep; do \"${w}loy\" prod; done");
    assert_stopped(&p, &r, "no-deploy", "deploy prod");
}

#[test]
fn a_copy_run_through_its_descriptor_after_removal_is_still_known() {
    let p = project();
    // A script: the kernel hands the interpreter `/proc/self/fd/3`, the
    // program's own descriptor (not the supervisor's).
    for fd in ["/proc/self/fd/3", "/dev/fd/3"] {
        let r = sh(&p, &format!("cp bin/deploy d; exec 3<d; rm d; {fd} prod"));
        assert_stopped(&p, &r, "no-deploy", "prod");
    }
    // A program file: what runs is the image behind /proc/PID/exe, though
    // its path now names nothing.
    let rm = ["/usr/bin/rm", "/bin/rm"]
        .into_iter()
        .find(|r| Path::new(r).is_file())
        .expect("an rm program");
    std::fs::create_dir_all(p.path("build")).unwrap();
    let r = sh(
        &p,
        &format!("cp {rm} r; exec 3<r; {rm} r; /proc/self/fd/3 -rf build"),
    );
    assert_stopped(&p, &r, "keep-build", "-rf build");
    assert!(p.exists("build"), "{r:?}");
}

#[test]
fn a_double_fork_into_a_new_session_is_still_followed() {
    if !have("setsid") {
        return;
    }
    let p = project();
    let r = sh(&p, "(setsid sh -c 'deploy prod' &); sleep 2");
    assert_stopped(&p, &r, "no-deploy", "deploy prod");
}

#[test]
fn vfork_and_a_thread_that_execs_are_followed() {
    if !have("python3") {
        return;
    }
    let p = project();
    let spawn =
        "import os; os.posix_spawnp('deploy', ['deploy', 'prod'], dict(os.environ)); os.wait()";
    let r = exec(&p, &["python3", "-c", spawn]);
    assert_stopped(&p, &r, "no-deploy", "deploy prod");
    let thread = "import os, threading\nt = threading.Thread(target=lambda: os.execvp('deploy', ['deploy', 'prod']))\nt.start(); t.join()";
    let r = exec(&p, &["python3", "-c", thread]);
    assert_stopped(&p, &r, "no-deploy", "deploy prod");
}

/// A tracee cannot trace (and so cannot detach itself or write another's
/// memory), cannot make a child nobody traces, and letting any process
/// trace it changes nothing.
#[test]
fn processes_that_try_to_leave_supervision_are_refused_or_followed() {
    if !have("python3") {
        return;
    }
    let p = project();
    let probe = r#"
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
print("traceme", libc.ptrace(0, 0, 0, 0), ctypes.get_errno(), flush=True)
print("ptracer", libc.prctl(0x59616d61, ctypes.c_ulong(-1 & 0xffffffffffffffff), 0, 0, 0), flush=True)
if os.uname().machine == "x86_64":
    # clone(CLONE_UNTRACED | SIGCHLD): a child the supervisor would not see.
    print("untraced", libc.syscall(56, 0x00800000 | 17, 0, 0, 0, 0), ctypes.get_errno(), flush=True)
os.execvp("deploy", ["deploy", "prod"])
"#;
    let r = exec(&p, &["python3", "-c", probe]);
    assert!(r.stdout.contains("traceme -1 1\n"), "{r:?}");
    if std::env::consts::ARCH == "x86_64" {
        assert!(r.stdout.contains("untraced -1 1\n"), "{r:?}");
    }
    assert_stopped(&p, &r, "no-deploy", "deploy prod");
}

/// Where ptrace is refused (here: inside a supervised call, whose filter
/// refuses it), `hookc exec` says so and runs nothing.
#[test]
fn where_supervision_is_refused_nothing_runs() {
    let p = project();
    let r = exec(
        &p,
        &[
            HOOKC,
            "exec",
            "--harness",
            "claude",
            "--",
            "deploy",
            "staging",
        ],
    );
    assert_eq!(r.status, 86, "{r:?}");
    assert!(r.stderr.contains("this system refuses ptrace"), "{r:?}");
    assert!(r.stderr.contains("Nothing ran"), "{r:?}");
    // The model reads this in place of the call's output: what to do next.
    assert!(
        r.stderr.contains("Write the command so hookc can read it"),
        "{r:?}"
    );
    assert!(ran(&p).is_empty(), "{:?}", ran(&p));
    // And without a compiled policy.
    let bare = Project::new();
    let r = run(
        Command::new(HOOKC)
            .args(["exec", "--harness", "claude", "--", "true"])
            .current_dir(bare.dir.path()),
        None,
    );
    assert_eq!(r.status, 86, "{r:?}");
    assert!(r.stderr.contains("run `hookc build`"), "{r:?}");
    assert!(Path::new(HOOKC).exists());
}

#[test]
fn doctor_reports_the_run_time_layer() {
    let p = project();
    let r = p.hookc(&["doctor"]);
    assert!(
        r.stdout.contains("the run-time judge works here")
            && r.stdout.contains(
                "so Claude Code, GitHub Copilot CLI, Gemini CLI, OpenCode, Kilo Code CLI, CodeBuddy Code, Mistral Vibe run a line"
            ),
        "{}{}",
        r.stdout,
        r.stderr
    );
}

/// A supervisor killed outright takes its tree with it (`PTRACE_O_EXITKILL`):
/// nothing it watched goes on unsupervised.
#[test]
fn a_killed_supervisor_leaves_no_process_behind() {
    let p = project();
    let pidfile = p.path("pid");
    let mut child = Command::new(HOOKC)
        .args(["exec", "--harness", "claude", "--", "sh", "-c"])
        .arg(format!("echo $$ > {}; exec sleep 30", pidfile.display()))
        .current_dir(p.dir.path())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let pid = loop {
        if let Ok(text) = std::fs::read_to_string(&pidfile)
            && let Ok(pid) = text.trim().parse::<u32>()
        {
            break pid;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the call never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    // `sleep` is running under supervision.
    std::thread::sleep(std::time::Duration::from_millis(200));
    let alive = |pid: u32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
            !s.rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
    };
    assert!(alive(pid), "the supervised process is not running");
    child.kill().unwrap();
    child.wait().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while alive(pid) {
        assert!(
            std::time::Instant::now() < deadline,
            "process {pid} outlived its killed supervisor"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Gemini CLI runs every shell command with git settings in its
/// environment (`GIT_CONFIG_COUNT`, `GIT_CONFIG_KEY_n`) that empty the
/// credential helper and the hooks folder: they change nothing git would
/// run, so a push under them is judged by its words. A hooks folder that
/// names one is still a setting hookc cannot read.
#[test]
fn gemini_clis_emptied_git_settings_leave_a_push_readable() {
    let (p, path) = force_push_project();
    let push = |settings: &[(&str, &str)]| {
        let mut command = Command::new(HOOKC);
        command
            .args(["exec", "--harness", "gemini", "--", "sh", "-c"])
            .arg("git push origin main")
            .current_dir(p.dir.path())
            .env("PATH", &path)
            .env("GIT_CONFIG_COUNT", settings.len().to_string());
        for (i, (key, value)) in settings.iter().enumerate() {
            command
                .env(format!("GIT_CONFIG_KEY_{i}"), key)
                .env(format!("GIT_CONFIG_VALUE_{i}"), value);
        }
        run(&mut command, None)
    };
    let gemini = [
        ("credential.helper", ""),
        ("core.fsmonitor", ""),
        ("core.hooksPath", ""),
        ("core.sshCommand", ""),
        ("core.pager", "cat"),
    ];
    let r = push(&gemini);
    assert_eq!(r.status, 0, "{r:?}");
    assert_eq!(ran(&p), ["git push origin main"]);

    std::fs::remove_dir_all(p.path("ran")).unwrap();
    let r = push(&[("core.hooksPath", "/tmp/hooks")]);
    assert_eq!(r.status, 87, "{r:?}");
    assert!(r.stderr.contains("(core.hooksPath)"), "{r:?}");
    assert!(ran(&p).is_empty(), "{:?}", ran(&p));
}

/// git finds the user's settings from its own HOME: a line that moves HOME
/// to a folder whose `.gitconfig` makes `st` a forced push is stopped at
/// git's start, where the judge reads that file.
#[test]
fn a_git_started_with_another_home_reads_that_home_s_settings() {
    let (p, path) = force_push_project();
    p.write("elsewhere/.gitconfig", "[alias]\n\tst = push --force\n");
    let under = |line: &str| exec_sh(&p, &path, line, &[("GIT_CONFIG_NOSYSTEM", "1".as_ref())]);
    for line in [
        "HOME=elsewhere git st origin main",
        "HOME=$PWD/elsewhere git st origin main",
    ] {
        let r = under(line);
        assert_eq!(r.status, 87, "{line}: {r:?}");
        assert!(r.stderr.contains("Push without --force"), "{line}: {r:?}");
        assert!(ran(&p).is_empty(), "{line}: {:?}", ran(&p));
    }
    let r = under("git st origin main");
    assert_eq!(r.status, 0, "{r:?}");
    assert_eq!(ran(&p), ["git st origin main"]);
}

/// A project whose policy refuses a forced push, and a `PATH` whose `git`
/// only records how it was run (see `ran`).
/// `hookc exec --harness claude -- sh -c LINE` in the project, with `path`
/// as PATH and the variables `env`.
fn exec_sh(p: &Project, path: &str, line: &str, env: &[(&str, &std::ffi::OsStr)]) -> Run {
    let mut command = Command::new(HOOKC);
    command
        .args(["exec", "--harness", "claude", "--", "sh", "-c"])
        .arg(line)
        .current_dir(p.dir.path())
        .env("PATH", path);
    for (name, value) in env {
        command.env(name, value);
    }
    run(&mut command, None)
}

fn force_push_project() -> (Project, String) {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r#"
guard "no-force-push" {
    tool "shell"
    command "git" "push" { flag "--force" "-f"; }
    deny "Push without --force."
    example "git push --force" expect="deny"
    example "git push" expect="allow"
}
"#,
    );
    p.build();
    let marker = p.path("ran").display().to_string();
    p.write(
        "bin/git",
        &format!("#!/bin/sh\nmkdir -p {marker}\necho ran > \"{marker}/git $*\"\n"),
    );
    make_executable(&p.path("bin/git"));
    let path = format!(
        "{}:{}",
        p.path("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    (p, path)
}

/// The machine's dynamic loader, when it is where glibc puts it.
fn loader() -> Option<&'static str> {
    ["/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1"]
        .into_iter()
        .find(|l| Path::new(l).is_file())
}

/// [`force_push_project`] with a `git` that is a program file (the
/// dynamic loader runs ELF files, not scripts), built with `cc`; `None`
/// where there is no C compiler.
fn force_push_project_elf() -> Option<(Project, String)> {
    if !have("cc") {
        eprintln!("skipped: no C compiler (cc) to build a stand-in git");
        return None;
    }
    let (p, path) = force_push_project();
    let marker = p.path("ran").display().to_string();
    p.write(
        "git.c",
        &format!(
            r#"#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
int main(int argc, char **argv) {{
    char name[4096] = "{marker}/git";
    mkdir("{marker}", 0755);
    for (int i = 1; i < argc; i++) {{
        strncat(name, " ", sizeof name - strlen(name) - 1);
        strncat(name, argv[i], sizeof name - strlen(name) - 1);
    }}
    FILE *f = fopen(name, "w");
    if (f) {{ fputs("ran\n", f); fclose(f); }}
    return 0;
}}
"#
        ),
    );
    let built = Command::new("cc")
        .args(["-o", "bin/git", "git.c"])
        .current_dir(p.dir.path())
        .status()
        .is_ok_and(|s| s.success());
    assert!(built, "cc could not build the stand-in git");
    Some((p, path))
}

/// `ld.so PROGRAM ARGS` runs PROGRAM: its start is judged as PROGRAM's
/// own would be, however the loader is named or given the program
/// (`--argv0`, a path, a search of `--library-path`, a copy of either),
/// and a loader option hookc does not know stops the call. The loader
/// running a harmless program still runs it.
#[test]
fn a_program_run_by_the_dynamic_loader_is_judged_as_that_program() {
    let Some(ld) = loader() else {
        eprintln!("skipped: no glibc dynamic loader at its usual path");
        return;
    };
    let Some((p, path)) = force_push_project_elf() else {
        return;
    };
    let under = |line: &str| exec_sh(&p, &path, line, &[]);
    std::fs::copy(ld, p.path("loader")).unwrap();
    std::fs::copy(p.path("bin/git"), p.path("g")).unwrap();
    for line in [
        format!("{ld} bin/git push --force origin main"),
        format!("{ld} --argv0 ls \"$PWD/bin/git\" push --force origin main"),
        format!("{ld} --inhibit-cache --library-path bin git push --force origin main"),
        format!("{ld} ./g push --force origin main"),
        "./loader bin/git push -f origin main".to_owned(),
    ] {
        let r = under(&line);
        assert_eq!(r.status, 87, "{line}: {r:?}");
        assert!(r.stderr.contains("Push without --force."), "{line}: {r:?}");
        assert!(ran(&p).is_empty(), "{line}: {:?}", ran(&p));
    }
    let r = under(&format!(
        "{ld} --frobnicate bin/git push --force origin main"
    ));
    assert_eq!(r.status, 87, "{r:?}");
    assert!(r.stderr.contains("`--frobnicate`"), "{r:?}");
    assert!(r.stderr.contains("run the program directly"), "{r:?}");
    assert!(ran(&p).is_empty(), "{:?}", ran(&p));
    // Harmless neighbours run.
    let r = under(&format!(
        "{ld} /bin/echo hi && {ld} bin/git push origin main"
    ));
    assert_eq!(r.status, 0, "{r:?}");
    assert_eq!(r.stdout, "hi\n", "{r:?}");
    assert_eq!(ran(&p), ["git push origin main"]);
}

/// Code loaded into a guarded program after its start was judged would do
/// what the guards never saw: a preloaded library's constructor here turns
/// `git push --dry-run` into `git push --force`. A program a guard names
/// does not start with a variable that loads code of the caller's choosing
/// (`LD_PRELOAD`, `LD_AUDIT`, `LD_LIBRARY_PATH`, `GCONV_PATH`) nor under a
/// loader told to (`--preload`); every other program does.
#[test]
fn code_loaded_into_a_guarded_program_after_its_start_is_refused() {
    let Some((p, path)) = force_push_project_elf() else {
        return;
    };
    p.write(
        "pre.c",
        r#"#include <string.h>
__attribute__((constructor)) static void rewrite(int argc, char **argv, char **envp) {
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--dry-run") == 0)
            argv[i] = "--force";
}
"#,
    );
    let built = Command::new("cc")
        .args(["-shared", "-fPIC", "-o", "pre.so", "pre.c"])
        .current_dir(p.dir.path())
        .status()
        .is_ok_and(|s| s.success());
    assert!(built, "cc could not build the preloaded library");
    let under = |line: &str| exec_sh(&p, &path, line, &[]);
    let mut lines = vec![
        (
            "LD_PRELOAD=$PWD/pre.so git push --dry-run origin main".to_owned(),
            "LD_PRELOAD",
        ),
        (
            "LD_AUDIT=$PWD/pre.so git push --dry-run origin main".to_owned(),
            "LD_AUDIT",
        ),
        (
            "LD_LIBRARY_PATH=/tmp git push origin main".to_owned(),
            "LD_LIBRARY_PATH",
        ),
        (
            "GCONV_PATH=/tmp git push origin main".to_owned(),
            "GCONV_PATH",
        ),
        // A copy is the program it copies.
        (
            "cp bin/git g; LD_PRELOAD=$PWD/pre.so ./g push --dry-run origin main".to_owned(),
            "LD_PRELOAD",
        ),
    ];
    if let Some(ld) = loader() {
        lines.push((
            format!("{ld} --preload ./pre.so bin/git push --dry-run origin main"),
            "--preload ./pre.so",
        ));
    }
    for (line, why) in &lines {
        let r = under(line);
        assert_eq!(r.status, 87, "{line}: {r:?}");
        assert!(r.stderr.contains(why), "{line}: {r:?}");
        assert!(
            r.stderr.contains("env -u ") || r.stderr.contains("without the loader"),
            "{line}: {r:?}"
        );
        assert!(ran(&p).is_empty(), "{line}: {:?}", ran(&p));
    }
    // Programs no guard names keep them; git without them runs.
    let r = under(
        "LD_LIBRARY_PATH=/tmp true && LD_PRELOAD=$PWD/pre.so /bin/echo hi --dry-run && git push --dry-run origin main",
    );
    assert_eq!(r.status, 0, "{r:?}");
    assert_eq!(r.stdout, "hi --force\n", "{r:?}");
    assert_eq!(ran(&p), ["git push --dry-run origin main"]);
    // A value hookc exec was started with is the harness's, not the line's.
    let r = exec_sh(
        &p,
        &path,
        "git push origin main",
        &[("LD_LIBRARY_PATH", "/tmp".as_ref())],
    );
    assert_eq!(r.status, 0, "{r:?}");
    assert_eq!(
        ran(&p),
        ["git push --dry-run origin main", "git push origin main"]
    );
    assert_eq!(
        under("LD_LIBRARY_PATH=/tmp/x git push origin main").status,
        87
    );
}

/// The judge reads git's settings at git's start; a process of the call
/// that rewrites them before git reads them would make git do what the
/// judge never saw. Here git reads them a moment after its start (a
/// stand-in that sleeps first, then runs `st` as the alias it finds): a
/// writer that had the file open before the start stops the start, and
/// one that opens it while git runs is stopped at the open. Settings
/// written before git starts, or after it ends, are judged as usual.
#[test]
fn settings_git_read_cannot_change_while_it_runs() {
    let (p, path) = force_push_project();
    // The user's settings, where git finds them (a repository's own are
    // guarded by hookc's self-protection already).
    p.write("cfg", "[core]\n\tpager = cat\n");
    let marker = p.path("ran").display().to_string();
    p.write(
        "bin/git",
        &format!(
            "#!/bin/sh\nsleep 0.5\nif [ \"$1\" = st ] && grep -q 'st = push --force' \"$GIT_CONFIG_GLOBAL\"; then shift; set -- push --force \"$@\"; fi\nmkdir -p {marker}\necho ran > \"{marker}/git $*\"\n"
        ),
    );
    let cfg = p.path("cfg");
    let under = |line: &str| {
        exec_sh(
            &p,
            &path,
            line,
            &[
                ("GIT_CONFIG_NOSYSTEM", "1".as_ref()),
                ("GIT_CONFIG_GLOBAL", cfg.as_os_str()),
            ],
        )
    };
    let alias = "printf '[alias]\\n\\tst = push --force\\n'";
    for (line, why) in [
        (
            format!("exec 3>>cfg; git st origin main & sleep 0.2; {alias} >&3; wait"),
            "open for writing",
        ),
        (
            format!("git st origin main & sleep 0.2; {alias} >> cfg; wait"),
            "is still running",
        ),
        (
            format!("git st origin main & sleep 0.2; {alias} > c; mv c cfg; wait"),
            "is still running",
        ),
    ] {
        let r = under(&line);
        assert_eq!(r.status, 87, "{line}: {r:?}");
        assert!(r.stderr.contains(why), "{line}: {r:?}");
        assert!(ran(&p).is_empty(), "{line}: {:?}", ran(&p));
        p.write("cfg", "[core]\n\tpager = cat\n");
    }
    let r = under(&format!(
        "printf '[user]\\n\\tname = x\\n' >> cfg; git st origin main; {alias} >> cfg"
    ));
    assert_eq!(r.status, 0, "{r:?}");
    assert_eq!(ran(&p), ["git st origin main"]);
}
