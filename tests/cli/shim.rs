//! The generated shims, run the way Claude Code runs them: `sh -c` on the
//! command string from `.claude/settings.json`, from another directory.

use std::path::Path;
use std::process::Command;

use hookc::harness;
use hookc::ir::HarnessId;

use crate::every_hook::{Pinned, hooks_path, said, through_the_hook};
use crate::support::{HOOKC, Project, Run, children_of, claude_bash, fake_hookc, run};

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
/// No `hookc build` recorded a hookc in its state directory: it looks on PATH.
fn fire(p: &Project, bin: Option<&Path>, path: &str, stdin: &str) -> Run {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(hook_command(p, "PreToolUse"))
        .current_dir(std::env::temp_dir())
        .env("CLAUDE_PROJECT_DIR", p.dir.path())
        .env("PATH", path)
        .env("XDG_STATE_HOME", crate::support::NO_PIN)
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

/// The shells that read the shim: sh, dash, bash, and zsh where it is
/// installed (`.ci/run` installs it).
fn shells() -> Vec<&'static str> {
    let mut shells = vec!["sh", "dash", "bash"];
    let zsh = Command::new("zsh")
        .args(["-c", "exit 0"])
        .status()
        .is_ok_and(|s| s.success());
    if zsh {
        shells.push("zsh");
    }
    shells
}

/// Whether `shell` hands its process to the pinned hookc (`exec`): where
/// a failed `exec` is known to refuse (dash, as Debian's `sh`, and bash).
fn replaces_itself(shell: &str) -> bool {
    shell != "zsh"
}

/// The bundled policy for Claude Code with a 2 s timeout, built with a
/// state folder of its own, so the hooks run the pinned copy.
fn pinned_with_a_short_timeout() -> (Project, std::path::PathBuf) {
    let p = built_with_a_short_timeout();
    let state = p.path("state");
    let built = run(
        Command::new(HOOKC)
            .arg("build")
            .current_dir(p.dir.path())
            .env("XDG_STATE_HOME", &state),
        None,
    );
    assert_eq!(built.status, 0, "{}", built.stderr);
    (p, state)
}

/// Start Claude Code's hook under `shell` with the pinned hookc, and do
/// `to_guard` to the guard (the keeper's one child) while it waits for the
/// payload. Like the harness, the test gives up on the hook at 4 s (a hang
/// fails the test). Asserts that the keeper is the hook's own process
/// where the shell [`replaces_itself`], and the shell's one child where
/// not.
fn fire_pinned(
    p: &Project,
    state: &Path,
    shell: &str,
    to_guard: &str,
) -> (Run, std::time::Duration) {
    let started = std::time::Instant::now();
    let mut hook = Command::new(shell)
        .arg("-c")
        .arg(format!(
            "{}
exit $?",
            hook_command(p, "PreToolUse")
        ))
        .current_dir(std::env::temp_dir())
        .env("CLAUDE_PROJECT_DIR", p.dir.path())
        .env("PATH", BARE_PATH)
        .env("XDG_STATE_HOME", state)
        .env_remove("HOOKC_BIN")
        .env_remove("HOOKC_DEBUG")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let payload = hook.stdin.take().unwrap();
    let pinned = std::fs::canonicalize(
        std::fs::read_to_string(state.join("hookc/pin"))
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let runs_hookc =
        |pid: i32| std::fs::read_link(format!("/proc/{pid}/exe")).ok() == Some(pinned.clone());
    let (keeper, guard) = loop {
        let shell_pid = hook.id() as i32;
        if runs_hookc(shell_pid) {
            if let [guard] = children_of(hook.id())[..] {
                break (shell_pid, guard);
            }
        } else if let [keeper] = children_of(hook.id())[..]
            && runs_hookc(keeper)
            && let [guard] = children_of(keeper as u32)[..]
        {
            break (keeper, guard);
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{shell}: no guard"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    assert_eq!(
        keeper == hook.id() as i32,
        replaces_itself(shell),
        "{shell}: whether hookc took the shell's place"
    );
    let done = Command::new("kill")
        .args([to_guard, &guard.to_string()])
        .status();
    assert!(done.unwrap().success());
    let harness = [hook.id().to_string(), keeper.to_string()];
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(4));
        let _ = Command::new("kill")
            .arg("-KILL")
            .args(&harness)
            .stderr(std::process::Stdio::null())
            .status();
    });
    let out = hook.wait_with_output().unwrap();
    drop(payload);
    (Run::from(out), started.elapsed())
}

/// The hookc the pin names runs without `timeout`: its keeper is the outer
/// deadline. A guard that does not run at all (stopped, as the kernel holds
/// one on a hung mount, so its own watchdog cannot answer) is given up at
/// 1.7 s, and the call refused in time, in every shell: by the shim where
/// the shell waits for hookc, and by the shim run again from hookc's keeper
/// where hookc took the shell's place.
#[test]
fn a_pinned_hookc_stuck_in_the_kernel_is_refused_before_the_harness_gives_up() {
    let (p, state) = pinned_with_a_short_timeout();
    for shell in shells() {
        let (run, took) = fire_pinned(&p, &state, shell, "-STOP");
        assert_refused_in_time(shell, &run, took);
        assert!(
            run.stderr.contains("exit status 124"),
            "{shell}: {}",
            run.stderr
        );
    }
}

/// A pinned guard that crashes (an abort) or is killed from outside (the
/// out-of-memory killer) is refused in the shim's words, whether the shell
/// waited for hookc or hookc took its place.
#[test]
fn a_pinned_hookc_that_crashes_or_is_killed_is_refused_in_every_shell() {
    let (p, state) = pinned_with_a_short_timeout();
    for shell in shells() {
        for (signal, why) in [
            (
                "-ABRT",
                "hookc guard crashed on this call (it was killed by signal 6, exit status 134)",
            ),
            ("-KILL", "or killed: exit status 137"),
        ] {
            let (run, _) = fire_pinned(&p, &state, shell, signal);
            assert_eq!(run.status, 2, "{shell}, {signal}: {}", run.stderr);
            assert!(
                run.stderr
                    .starts_with("hookc could not check this call, so it was refused")
                    && run.stderr.contains(why)
                    && run.stdout.is_empty(),
                "{shell}, {signal}: {}{}",
                run.stdout,
                run.stderr
            );
        }
    }
}

/// A pinned copy the kernel will not start (here: a binary built for no
/// machine, as a copy from another machine's synced home would be) is a
/// refusal in every shell: where hookc was to take the shell's place, the
/// shell goes on past the failed `exec` (bash) or refuses in its EXIT trap
/// (dash); zsh waits for it and reads status 126.
#[test]
fn a_pinned_hookc_that_cannot_be_started_is_refused_in_every_shell() {
    let p = built();
    let state = p.path("state");
    let copy = p.path("not-this-machine");
    std::fs::write(&copy, b"\x7fELF\x02\x01\x01\x00not a program\x00").unwrap();
    make_executable(&copy);
    std::fs::create_dir_all(state.join("hookc")).unwrap();
    std::fs::write(state.join("hookc/pin"), format!("{}\n", copy.display())).unwrap();
    for shell in shells() {
        let run = run(
            Command::new(shell)
                .arg("-c")
                .arg(hook_command(&p, "PreToolUse"))
                .current_dir(std::env::temp_dir())
                .env("CLAUDE_PROJECT_DIR", p.dir.path())
                .env("PATH", BARE_PATH)
                .env("XDG_STATE_HOME", &state)
                .env_remove("HOOKC_BIN")
                .env_remove("HOOKC_DEBUG"),
            Some(claude_bash("ls").as_bytes()),
        );
        assert_eq!(run.status, 2, "{shell}: {}", run.stderr);
        let why = if replaces_itself(shell) {
            "could not be started"
        } else {
            "stopped with exit status 126"
        };
        assert!(
            run.stderr
                .contains("hookc could not check this call, so it was refused")
                && run.stderr.contains(why),
            "{shell}: {}",
            run.stderr
        );
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

/// A `hookc` that lets every call through and passes the handshake, as an
/// agent would write one: it hands the call to the real hookc (which
/// repeats the nonce from the environment it inherits) with a policy of
/// its own that refuses nothing, so the answer is an allow in each
/// harness's own form. Written into `p` as `at`.
fn lets_all_through(p: &Project, at: &str) {
    let permissive = p.path("permissive");
    if !permissive.join(".hookc/policy.json").exists() {
        let targets: Vec<String> = harness::all()
            .iter()
            .map(|h| format!("\"{}\"", h.id()))
            .collect();
        std::fs::create_dir_all(&permissive).unwrap();
        std::fs::write(
            permissive.join("policy.kdl"),
            format!(
                "targets {}\nself-protection \"off\"\nguard \"never\" {{\n    command \"no-such-program\"\n    deny \"Never matches; run something else.\"\n    example \"no-such-program\" expect=\"deny\"\n}}\n",
                targets.join(" ")
            ),
        )
        .unwrap();
        let r = run(
            Command::new(HOOKC).arg("build").current_dir(&permissive),
            None,
        );
        assert_eq!(r.status, 0, "{}", r.stderr);
    }
    // `guard --harness H --event E --policy P`: the same, with its own policy.
    p.write(
        at,
        &format!(
            "#!/bin/sh\nexec '{HOOKC}' \"$1\" \"$2\" \"$3\" \"$4\" \"$5\" --policy '{}'\n",
            permissive.join(".hookc/policy.json").display()
        ),
    );
    make_executable(&p.path(at));
}

/// Issue 36: once `hookc build` recorded the hookc that built the project,
/// a `hookc` that repeats the handshake's nonce and lets everything through
/// (first on PATH, in `node_modules/.bin` and in `.venv/bin`) does not
/// answer for any harness's hook: the recorded hookc does, and refuses the
/// force push with the policy's reason. Without the record the same fake
/// lets the call through everywhere, so the test would see a fake that got
/// in.
#[test]
fn a_fake_hookc_on_path_or_in_the_project_cannot_let_a_refused_call_through_once_built() {
    let pinned = Pinned::new();
    let p = &pinned.p;
    let fakes = p.path("fakes");
    std::fs::create_dir_all(&fakes).unwrap();
    for at in ["fakes/hookc", "node_modules/.bin/hookc", ".venv/bin/hookc"] {
        lets_all_through(p, at);
    }
    let path = format!("{}:{}", fakes.display(), hooks_path());
    let no_pin = Path::new(crate::support::NO_PIN);
    let mut ran = 0;
    for h in harness::all() {
        let root = p.dir.path();
        let force = "git push --force origin main";
        let Some(guarded) = through_the_hook(*h, root, &pinned.home, &pinned.state, &path, force)
        else {
            eprintln!("skipped {}: what runs its hook is not installed", h.id());
            continue;
        };
        ran += 1;
        assert!(
            !guarded.proceeds && !guarded.asks,
            "{}: the fake hookc let the force push through: {guarded:?}",
            h.id()
        );
        assert!(
            said(&guarded).contains("force"),
            "{}: the refusal is not the policy's own, so the recorded hookc did not answer: {guarded:?}",
            h.id()
        );
        // The recorded hookc lets a harmless call through.
        let ls = through_the_hook(*h, root, &pinned.home, &pinned.state, &path, "ls").unwrap();
        assert!(ls.proceeds, "{}: {ls:?}", h.id());
        // Where no build recorded a hookc, the fake on PATH answers.
        let open = through_the_hook(*h, root, &pinned.home, no_pin, &path, force).unwrap();
        assert!(
            open.proceeds,
            "{}: without a pin the fake should have answered (is the fake wrong?): {open:?}",
            h.id()
        );
    }
    assert!(ran >= harness::all().len() - 2, "only {ran} harnesses ran");
}

/// The recorded hookc takes the hook shell's place (dash as `sh`, bash),
/// so when it cannot answer (here: a damaged `policy.json`, status 1) the
/// refusal comes from the shim run again by its keeper: in every harness
/// that refusal is the harness's own, and the call does not go through.
#[test]
fn a_pinned_hookc_that_cannot_decide_is_refused_in_every_harness() {
    let pinned = Pinned::new();
    let p = &pinned.p;
    p.write(".hookc/policy.json", "{ damaged");
    let path = hooks_path();
    let mut ran = 0;
    for h in harness::all() {
        let Some(o) = through_the_hook(*h, p.dir.path(), &pinned.home, &pinned.state, &path, "ls")
        else {
            eprintln!("skipped {}: what runs its hook is not installed", h.id());
            continue;
        };
        ran += 1;
        assert!(
            !o.proceeds,
            "{}: a guard that could not decide let ls through: {o:?}",
            h.id()
        );
        assert!(
            said(&o).contains("hookc could not") || said(&o).contains("damaged"),
            "{}: the refusal does not say hookc could not check: {o:?}",
            h.id()
        );
    }
    assert!(ran >= harness::all().len() - 2, "only {ran} harnesses ran");
}

/// Issue 36: the recorded copy gone is a refusal with the fix, never a
/// fall back to a `hookc` on PATH; and a copy written over (the agent's
/// `cp` is refused, but the user's own mistake is possible) is reported by
/// `hookc doctor`, which `tests/cli/doctor.rs` checks.
#[test]
fn a_recorded_hookc_that_is_gone_is_a_refusal_not_a_fall_back_to_path() {
    let pinned = Pinned::new();
    let p = &pinned.p;
    let fakes = p.path("fakes");
    lets_all_through(p, "fakes/hookc");
    std::fs::remove_file(pinned.pinned()).unwrap();
    let path = format!("{}:{BARE_PATH}", fakes.display());
    for id in [HarnessId::Claude, HarnessId::Codex, HarnessId::Cursor] {
        let h = harness::get(id).unwrap();
        let o =
            through_the_hook(h, p.dir.path(), &pinned.home, &pinned.state, &path, "ls").unwrap();
        assert!(!o.proceeds, "{id}: {o:?}");
        let text = said(&o);
        assert!(
            text.contains("could not check this call") || text.contains("hookc"),
            "{id}: {text}"
        );
    }
    let claude = harness::get(HarnessId::Claude).unwrap();
    let o = through_the_hook(
        claude,
        p.dir.path(),
        &pinned.home,
        &pinned.state,
        &path,
        "ls",
    )
    .unwrap();
    let text = said(&o);
    assert!(
        text.contains("is gone or not executable") && text.contains("hookc build"),
        "{text}"
    );
}

/// Issue 36: what the agent would run to put its own program in the
/// recorded copy's place, or the installed hookc's, is refused by the real
/// hook with a reason that sends it to the user.
#[test]
fn the_agent_cannot_replace_the_recorded_hookc_or_install_another() {
    let pinned = Pinned::new();
    let p = &pinned.p;
    let copy = pinned.pinned();
    let copy = copy.display();
    let state = pinned.state.display();
    let claude = harness::get(HarnessId::Claude).unwrap();
    let path = format!("{}:{BARE_PATH}", p.path("bin").display());
    for command in [
        format!("cp /tmp/fake {copy}"),
        format!("echo '#!/bin/sh' > {copy}"),
        format!("ln -sf /tmp/fake {copy}"),
        format!("rm -f {state}/hookc/pin"),
        format!("rm -rf {state}"),
        format!("mv {state}/hookc {state}/old"),
        format!("cp /tmp/fake {HOOKC}"),
        format!("install -m 755 /tmp/fake {}/hookc", p.path("bin").display()),
        "cargo install --force hookc@0.0.1".to_owned(),
        "npm i -g hookc@0.0.1".to_owned(),
        "pip install hookc==0.0.1".to_owned(),
        "pipx install hookc".to_owned(),
        "brew upgrade hookc".to_owned(),
    ] {
        let o = through_the_hook(
            claude,
            p.dir.path(),
            &pinned.home,
            &pinned.state,
            &path,
            &command,
        )
        .unwrap();
        assert!(!o.proceeds, "`{command}` went ahead: {o:?}");
        let text = said(&o);
        assert!(
            text.contains("ask the user") || text.contains("for the user"),
            "`{command}`: {text}"
        );
    }
    // Neighbours of those files are not refused.
    for command in ["ls -la", "cargo install ripgrep", "npm ci"] {
        let o = through_the_hook(
            claude,
            p.dir.path(),
            &pinned.home,
            &pinned.state,
            &path,
            command,
        )
        .unwrap();
        assert!(o.proceeds, "`{command}` was refused: {o:?}");
    }
}

/// A build that cannot record itself (here the state directory is under a
/// file) still writes the project, and warns with what the hooks run
/// instead and how to fix it.
#[test]
fn a_build_that_cannot_record_itself_says_what_the_hooks_run_instead() {
    let p = Project::bundled();
    p.write("not-a-folder", "");
    let r = run(
        Command::new(HOOKC)
            .arg("build")
            .current_dir(p.dir.path())
            .env("XDG_STATE_HOME", p.path("not-a-folder")),
        None,
    );
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
    assert!(p.exists(".hookc/policy.json"));
    assert!(
        r.stderr.contains("hookc::pin-failed")
            && r.stderr.contains("the hooks run the first hookc they find")
            && r.stderr.contains("run `hookc build` again"),
        "{}",
        r.stderr
    );
}

/// The hook command reads the shim into the shell the harness starts, which
/// is `sh` for the generated hooks but may be any shell a user's own hook
/// command or wrapper runs it in. zsh has `status` as a read-only name of
/// `$?`: a shim that kept the guard's status in it ended zsh with status 1
/// after every answer, so a refusal (status 2) let the call through. Each
/// shell here gets the allow and the refusal as hookc gave them, from the
/// hookc the build recorded and from HOOKC_BIN. zsh is skipped only where it
/// is not installed (`.ci/run` installs it).
#[test]
fn every_shell_that_reads_the_shim_passes_the_answer_on_unchanged() {
    let p = built();
    for shell in shells() {
        for bin in [None, Some(HOOKC)] {
            let mut command = Command::new(shell);
            command
                .arg("-c")
                .arg(hook_command(&p, "PreToolUse"))
                .current_dir(std::env::temp_dir())
                .env("CLAUDE_PROJECT_DIR", p.dir.path())
                .env("PATH", BARE_PATH)
                .env_remove("HOOKC_DEBUG");
            match bin {
                Some(bin) => command.env("HOOKC_BIN", bin),
                None => command.env_remove("HOOKC_BIN"),
            };
            let allowed = run(&mut command, Some(claude_bash("ls -la").as_bytes()));
            assert_eq!(
                (
                    allowed.status,
                    allowed.stdout.as_str(),
                    allowed.stderr.as_str()
                ),
                (0, "", ""),
                "{shell}, HOOKC_BIN {bin:?}"
            );
            let denied = run(
                &mut command,
                Some(claude_bash("git push --force origin main").as_bytes()),
            );
            assert_eq!(
                denied.status, 2,
                "{shell}, HOOKC_BIN {bin:?}: {}",
                denied.stderr
            );
            assert!(
                denied.stderr.starts_with("Do not force-push") && !denied.stderr.contains("status"),
                "{shell}, HOOKC_BIN {bin:?}: {}",
                denied.stderr
            );
        }
    }
}
