//! The generated shims, run the way Claude Code runs them: `sh -c` on the
//! command string from `.claude/settings.json`, from another directory.

use std::path::Path;
use std::process::Command;

use crate::support::{HOOKC, Project, Run, claude_bash, fake_hookc, run};

/// The command string hookc wrote for `event` in `.claude/settings.json`.
fn hook_command(p: &Project, event: &str) -> String {
    let settings: serde_json::Value =
        serde_json::from_str(&p.read(".claude/settings.json")).unwrap();
    settings["hooks"][event][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Run the hook as Claude would; `bin` is what HOOKC_BIN points at (None: unset).
fn fire(p: &Project, bin: Option<&Path>, path: &str, stdin: &str) -> Run {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(hook_command(p, "PreToolUse"))
        .current_dir(std::env::temp_dir())
        .env("CLAUDE_PROJECT_DIR", p.dir.path())
        .env("PATH", path)
        .env_remove("HOOKC_DEBUG");
    match bin {
        Some(bin) => command.env("HOOKC_BIN", bin),
        None => command.env_remove("HOOKC_BIN"),
    };
    run(&mut command, Some(stdin.as_bytes()))
}

fn built() -> Project {
    let p = Project::bundled();
    p.build();
    p
}

/// A PATH with the usual tools but no hookc.
const BARE_PATH: &str = "/usr/bin:/bin";

#[test]
fn the_shim_passes_hookc_answers_through() {
    let p = built();
    let allowed = fire(
        &p,
        Some(Path::new(HOOKC)),
        BARE_PATH,
        &claude_bash("ls -la"),
    );
    assert_eq!(
        (allowed.status, allowed.stdout.as_str()),
        (0, ""),
        "{}",
        allowed.stderr
    );
    let denied = fire(
        &p,
        Some(Path::new(HOOKC)),
        BARE_PATH,
        &claude_bash("git push --force"),
    );
    assert_eq!(denied.status, 2, "{}", denied.stderr);
    assert!(denied.stdout.contains("\"permissionDecision\":\"deny\""));
}

#[test]
fn the_shim_finds_hookc_on_path() {
    let p = built();
    let dir = Path::new(HOOKC).parent().unwrap().display().to_string();
    let denied = fire(
        &p,
        None,
        &format!("{dir}:{BARE_PATH}"),
        &claude_bash("git push -f"),
    );
    assert_eq!(denied.status, 2, "{}", denied.stderr);
    assert!(
        denied.stderr.starts_with("Do not force-push"),
        "{}",
        denied.stderr
    );
}

#[test]
fn without_hookc_the_shim_refuses_with_exit_2_and_says_how_to_fix_it() {
    let p = built();
    let run = fire(&p, None, BARE_PATH, &claude_bash("ls"));
    assert_eq!(run.status, 2);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .contains("hookc could not check this call, so it was refused"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("the hookc program was not found"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("HOOKC_BIN"), "{}", run.stderr);
}

#[test]
fn a_missing_shim_is_a_refusal_under_sh_and_bash() {
    // The command reads the shim with `.`; bash, unlike dash, would carry on
    // past a file it cannot read and exit 0.
    let p = built();
    std::fs::remove_file(p.path(".hookc/claude/pre-tool.sh")).unwrap();
    for shell in ["sh", "bash"] {
        let mut command = Command::new(shell);
        command
            .arg("-c")
            .arg(hook_command(&p, "PreToolUse"))
            .env("CLAUDE_PROJECT_DIR", p.dir.path())
            .env("HOOKC_BIN", HOOKC);
        let run = run(&mut command, Some(claude_bash("ls").as_bytes()));
        assert_eq!(run.status, 2, "{shell}: {}", run.stderr);
        assert!(
            run.stderr
                .contains("so the call was refused. Run hookc build"),
            "{shell}: {}",
            run.stderr
        );
    }
}

#[test]
fn a_hookc_that_fails_crashes_or_is_killed_is_a_refusal() {
    let p = built();
    for (name, body) in [
        ("exit 1", "exit 1"),
        ("panic", "echo 'thread main panicked' >&2; exit 101"),
        ("exit 3", "exit 3"),
        (
            "prints allow then fails",
            "echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"allow\"}}'; exit 1",
        ),
    ] {
        let fake = p.path(&format!("fake-{}", name.replace(' ', "-")));
        std::fs::write(&fake, format!("#!/bin/sh\n{body}\n")).unwrap();
        make_executable(&fake);
        let run = fire(&p, Some(&fake), BARE_PATH, &claude_bash("ls"));
        assert_eq!(run.status, 2, "{name}: {}", run.stderr);
        assert!(
            run.stderr.contains("hookc guard stopped with exit status"),
            "{name}: {}",
            run.stderr
        );
    }
}

#[test]
fn garbage_stdin_through_the_shim_is_refused() {
    let p = built();
    let run = fire(
        &p,
        Some(Path::new(HOOKC)),
        BARE_PATH,
        "this is not a payload",
    );
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("not JSON"), "{}", run.stderr);
    assert!(run.stderr.contains("so it was refused"), "{}", run.stderr);
}

#[test]
fn the_shim_is_executable_and_uses_no_jq_or_python() {
    let p = built();
    let shim = p.read(".hookc/claude/pre-tool.sh");
    assert!(shim.starts_with("#!/bin/sh\n# @generated by hookc from policy.kdl"));
    for tool in ["jq", "python", "node"] {
        assert!(
            !shim.split_whitespace().any(|w| w == tool),
            "shim calls {tool}"
        );
    }
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(p.path(".hookc/claude/pre-tool.sh"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o111, 0o111);
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn hookc_is_found_on_the_harness_path_when_a_login_shell_resets_path() {
    // Harnesses that start hooks with `$SHELL -lc` (Cursor, Codex) may get a
    // PATH from the profile without hookc on it; the harness's own PATH,
    // which the shim's parent process started with, still has it.
    let p = built();
    let dir = Path::new(HOOKC).parent().unwrap().display().to_string();
    let script = format!(
        "PATH={BARE_PATH}; export PATH\n{}\nexit $?",
        hook_command(&p, "PreToolUse")
    );
    // The outer shell is the harness; the inner one, its child, the login
    // shell that resets PATH.
    let mut command = Command::new("/bin/sh");
    command
        .args(["-c", "/bin/sh -c \"$0\"\nexit $?", &script])
        .current_dir(std::env::temp_dir())
        .env_clear()
        .env("CLAUDE_PROJECT_DIR", p.dir.path())
        .env("PATH", format!("{dir}:{BARE_PATH}"));
    let run = run(&mut command, Some(claude_bash("git push -f").as_bytes()));
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("Do not force-push"),
        "{}",
        run.stderr
    );
}

/// The bundled policy for Claude Code alone, with a `timeout` of 2 s: the
/// shims kill a hookc that has not answered at 1.7 s.
fn built_with_a_short_timeout() -> Project {
    let p = Project::new();
    let policy = std::fs::read_to_string(crate::support::repo().join("policy.kdl")).unwrap();
    assert!(policy.contains("\ntimeout 10\n"));
    p.write(
        "policy.kdl",
        &format!(
            "{}\ntargets \"claude\"\n",
            policy.replace("\ntimeout 10\n", "\ntimeout 2\n")
        ),
    );
    p.build();
    assert!(p.read(".claude/settings.json").contains("\"timeout\": 2"));
    p
}

/// Claude Code's hook, run by `shell` with HOOKC_BIN, timed. Like a
/// harness, the test gives up on a hook that does not answer (at 4 s, by
/// SIGKILL to the whole hook), so a shim without its deadline fails the test
/// rather than hanging it.
fn fire_timed(p: &Project, shell: &str, bin: &Path, path: &str) -> (Run, std::time::Duration) {
    let harness_kill = Path::new("/usr/bin/timeout");
    let mut command = if harness_kill.exists() {
        let mut c = Command::new(harness_kill);
        c.args(["-s", "KILL", "4", shell]);
        c
    } else {
        Command::new(shell)
    };
    command
        .arg("-c")
        .arg(hook_command(p, "PreToolUse"))
        .current_dir(std::env::temp_dir())
        .env("CLAUDE_PROJECT_DIR", p.dir.path())
        .env("PATH", path)
        .env("HOOKC_BIN", bin)
        .env_remove("HOOKC_DEBUG");
    let started = std::time::Instant::now();
    let run = run(&mut command, Some(claude_bash("ls").as_bytes()));
    (run, started.elapsed())
}

const IN_TIME: &str = "hookc did not finish checking this call in time";

/// A refusal for want of an answer in time, finished before Claude Code's
/// own 2 s ran out (after which it would have let the call through).
fn assert_refused_in_time(name: &str, run: &Run, took: std::time::Duration) {
    assert_eq!(run.status, 2, "{name}: {}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains(IN_TIME), "{name}: {}", run.stderr);
    assert!(
        run.stderr.contains("split it into smaller calls") && run.stderr.contains("tell the user"),
        "{name}: {}",
        run.stderr
    );
    assert!(
        took < std::time::Duration::from_secs(2),
        "{name}: answered after {took:?}, past Claude Code's 2 s"
    );
}

#[test]
fn a_hookc_stuck_in_the_kernel_is_refused_before_the_harness_gives_up() {
    if !Path::new("/usr/bin/timeout").exists() && !Path::new("/bin/timeout").exists() {
        eprintln!("no timeout program here: only hookc's own deadline stands");
        return;
    }
    let p = built_with_a_short_timeout();
    // Opening a FIFO that nobody writes blocks in the kernel, as a read
    // from a hung mount does; `sleep` stands for a guard that is just slow.
    let fifo = p.path("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let stuck = fake_hookc(
        &p,
        "stuck",
        &format!("cat >/dev/null\nexec 3<'{}'\nexit 0", fifo.display()),
    );
    let slow = fake_hookc(&p, "slow", "cat >/dev/null\nexec sleep 30");
    for shell in ["sh", "dash", "bash"] {
        for (name, fake) in [("stuck", &stuck), ("slow", &slow)] {
            let (run, took) = fire_timed(&p, shell, fake, BARE_PATH);
            assert_refused_in_time(&format!("{shell}, {name}"), &run, took);
        }
    }
}

#[test]
fn a_timeout_program_on_path_cannot_lift_the_deadline() {
    if !Path::new("/usr/bin/timeout").exists() && !Path::new("/bin/timeout").exists() {
        return;
    }
    let p = built_with_a_short_timeout();
    // The agent sets PATH: its `timeout` runs the program without a limit.
    let tools = p.path("agent-tools");
    std::fs::create_dir_all(&tools).unwrap();
    std::fs::write(tools.join("timeout"), "#!/bin/sh\nshift 3\nexec \"$@\"\n").unwrap();
    make_executable(&tools.join("timeout"));
    let slow = fake_hookc(&p, "slow", "cat >/dev/null\nexec sleep 30");
    let path = format!("{}:{BARE_PATH}", tools.display());
    let (run, took) = fire_timed(&p, "sh", &slow, &path);
    assert_refused_in_time("timeout on PATH", &run, took);
}

#[test]
fn a_hookc_killed_by_a_signal_is_refused_as_a_crash_or_as_killed() {
    let p = built_with_a_short_timeout();
    for (name, body, why) in [
        (
            "segfault",
            "cat >/dev/null; kill -SEGV $$",
            "crashed on this call (it was killed by signal 11, exit status 139)",
        ),
        (
            "abort",
            "cat >/dev/null; kill -ABRT $$",
            "crashed on this call (it was killed by signal 6, exit status 134)",
        ),
        ("killed", "cat >/dev/null; kill -KILL $$", IN_TIME),
    ] {
        let fake = fake_hookc(&p, name, body);
        for shell in ["sh", "bash"] {
            let (run, _) = fire_timed(&p, shell, &fake, BARE_PATH);
            assert_eq!(run.status, 2, "{shell}, {name}: {}", run.stderr);
            assert!(
                run.stderr
                    .contains("hookc could not check this call, so it was refused")
                    && run.stderr.contains(why)
                    && run.stderr.contains("tell the user"),
                "{shell}, {name}: {}",
                run.stderr
            );
        }
    }
}

#[test]
fn under_the_deadline_the_shim_still_passes_allow_and_deny_in_every_shell() {
    let p = built_with_a_short_timeout();
    for shell in ["sh", "dash", "bash"] {
        let mut command = Command::new(shell);
        command
            .arg("-c")
            .arg(hook_command(&p, "PreToolUse"))
            .current_dir(std::env::temp_dir())
            .env("CLAUDE_PROJECT_DIR", p.dir.path())
            .env("PATH", BARE_PATH)
            .env("HOOKC_BIN", HOOKC);
        let allowed = run(&mut command, Some(claude_bash("ls -la").as_bytes()));
        assert_eq!(
            (allowed.status, allowed.stdout.as_str()),
            (0, ""),
            "{shell}: {}",
            allowed.stderr
        );
        // The payload reaches hookc through `timeout`: it is what is refused.
        let denied = run(
            &mut command,
            Some(claude_bash("git push --force origin main").as_bytes()),
        );
        assert_eq!(denied.status, 2, "{shell}: {}", denied.stderr);
        assert!(
            denied.stderr.starts_with("Do not force-push"),
            "{shell}: {}",
            denied.stderr
        );
        assert!(denied.stdout.contains("\"permissionDecision\":\"deny\""));
        assert!(!denied.stdout.contains("hookc guard answered"));
    }
}
