//! The run side against a hostile machine and repository (issue 21, items
//! 10 to 13): nothing but hookc's own `guard` can answer for a generated
//! hook, `.hookc/policy.json` obeys only `hookc build`, and the user-level
//! and Codex hooks find no project the user did not build.
//!
//! Each test runs the real generated hook command, as its harness does.

use std::path::Path;
use std::process::Command;

use crate::support::{
    BARE_PATH, HOOKC, Project, Run, bundled_for, claude_bash, json_file, make_executable, run, sh_c,
};

/// The bundled policy built for Claude Code and Codex.
fn built() -> Project {
    let p = bundled_for("\"claude\" \"codex\"");
    p.build();
    p
}

/// The PreToolUse command hookc wrote in `.codex/hooks.json`.
fn codex_command(p: &Project) -> String {
    json_file(p, ".codex/hooks.json")["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// A Codex PreToolUse payload for its shell tool, run in the project.
fn codex_bash(p: &Project, command: &str) -> String {
    serde_json::json!({
        "session_id": "s", "turn_id": "t", "cwd": p.dir.path(),
        "hook_event_name": "PreToolUse", "model": "m", "permission_mode": "default",
        "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "c"
    })
    .to_string()
}

/// The PreToolUse command hookc wrote in `.claude/settings.json`.
fn claude_command(p: &Project) -> String {
    json_file(p, ".claude/settings.json")["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Claude Code's PreToolUse hook on `command`, with HOOKC_BIN (and more) set.
fn claude(p: &Project, env: &[(&str, &str)], command: &str) -> Run {
    let dir = p.dir.path().display().to_string();
    let mut env = env.to_vec();
    env.push(("CLAUDE_PROJECT_DIR", &dir));
    sh_c(
        &claude_command(p),
        p.dir.path(),
        BARE_PATH,
        &env,
        &claude_bash(command),
    )
}

/// A refusal in Claude Code's form (exit 2, reason on stderr) that says why
/// and what to do.
fn assert_refused(run: &Run, why: &str) {
    assert_eq!(run.status, 2, "not refused:\n{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("hookc could not check this call, so it was refused")
            && run.stderr.contains(why)
            && run.stderr.contains("Fix: "),
        "{}",
        run.stderr
    );
}

fn script(p: &Project, rel: &str, body: &str) -> String {
    p.write(rel, &format!("#!/bin/sh\n{body}\n"));
    make_executable(&p.path(rel));
    p.path(rel).display().to_string()
}

const NOT_HOOKC: &str = "answered, but not as hookc guard does";

/// Item 10: whatever HOOKC_BIN names (a program that exits 0, one that
/// echoes, one that prints its environment and so the nonce, or a hookc
/// that does not know the handshake) cannot answer in hookc's place.
#[test]
fn only_hookc_guard_can_answer_for_the_shim() {
    let p = built();
    // The real hookc still answers, both ways.
    assert_eq!(claude(&p, &[("HOOKC_BIN", HOOKC)], "ls").status, 0);
    let denied = claude(&p, &[("HOOKC_BIN", HOOKC)], "git push --force");
    assert_eq!(denied.status, 2, "{}", denied.stderr);
    assert!(denied.stderr.starts_with("Do not force-push"));

    let env_dump = script(&p, "stub/env", "cat >/dev/null; env; exit 0");
    let nonce = script(
        &p,
        "stub/nonce",
        r#"cat >/dev/null; printf '%s\n' "$HOOKC_NONCE"; exit 0"#,
    );
    // An older hookc: the same answers, without the proof.
    let stale = script(
        &p,
        "stub/stale",
        &format!("unset HOOKC_NONCE; exec '{HOOKC}' \"$@\""),
    );
    for bin in ["/bin/true", "/bin/echo", &env_dump, &nonce, &stale] {
        for command in ["ls", "git push --force"] {
            let run = claude(&p, &[("HOOKC_BIN", bin)], command);
            assert_refused(&run, NOT_HOOKC);
            assert!(run.stderr.contains("HOOKC_BIN"), "{}", run.stderr);
        }
    }
}

/// Item 10: a login profile that sets HOOKC_BIN (Codex and Cursor start
/// hooks through `$SHELL -lc`) cannot switch the guards off.
#[test]
fn a_login_profile_cannot_redirect_the_guard() {
    let p = built();
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join(".profile"),
        "HOOKC_BIN=/bin/true; export HOOKC_BIN\n",
    )
    .unwrap();
    let codex = codex_command(&p);
    let payload = codex_bash(&p, "ls");
    let mut login = Command::new("/bin/sh");
    login
        .args(["-lc", &codex])
        .current_dir(p.dir.path())
        .env_clear()
        .env("HOME", home.path())
        .env("PATH", crate::support::path_with_hookc());
    let run = run(&mut login, Some(payload.as_bytes()));
    assert_refused(&run, NOT_HOOKC);
}

/// The outer shell is the harness (its environment is what the shim reads
/// from `/proc/$PPID/environ`); the inner one resets PATH as a login shell
/// would, so hookc is not on the PATH the shim sees.
fn through_a_login_shell(p: &Project, harness_env: &[(&str, &str)]) -> Run {
    let inner = format!(
        "PATH={BARE_PATH}; export PATH\n{}\nexit $?",
        claude_command(p)
    );
    let mut harness = Command::new("/bin/sh");
    harness
        .args(["-c", "/bin/sh -c \"$0\"\nexit $?", &inner])
        .current_dir(p.dir.path())
        .env_clear()
        .env("CLAUDE_PROJECT_DIR", p.dir.path());
    for (k, v) in harness_env {
        harness.env(k, v);
    }
    run(
        &mut harness,
        Some(claude_bash("git push --force").as_bytes()),
    )
}

/// Item 10: the fallback to the harness's own PATH takes only absolute
/// directories, and only the harness's real `PATH=` entry.
#[test]
fn the_harness_path_fallback_takes_only_absolute_directories_and_the_real_entry() {
    if !Path::new("/proc/self/environ").exists() {
        return; // The fallback exists only where /proc does.
    }
    let p = built();
    // A repository's `tools/hookc`, on a relative PATH entry.
    script(&p, "tools/hookc", "cat >/dev/null; exit 0");
    let run = through_a_login_shell(&p, &[("PATH", &format!("tools:{BARE_PATH}"))]);
    assert_refused(&run, "the hookc program was not found");

    // `PATH=` after a newline in another variable's value.
    let stub = p.path("stub-dir");
    script(&p, "stub-dir/hookc", "cat >/dev/null; exit 0");
    let value = format!("x\nPATH={}", stub.display());
    let run = through_a_login_shell(&p, &[("NOTE", &value)]);
    assert_refused(&run, "the hookc program was not found");

    // The harness's real PATH still finds the real hookc.
    let run = through_a_login_shell(&p, &[("PATH", &crate::support::path_with_hookc())]);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("Do not force-push"),
        "{}",
        run.stderr
    );

    // The project's own `node_modules/.bin/hookc` is looked for (by absolute
    // path), but it still has to answer as hookc guard does.
    script(&p, "node_modules/.bin/hookc", "cat >/dev/null; exit 0");
    let run = through_a_login_shell(&p, &[("PATH", BARE_PATH)]);
    assert_refused(&run, "answered, but not as hookc guard does");
}

/// Swap two whole lines of a file (keeping each position's trailing comma).
fn swap_lines(text: &str, a: &str, b: &str) -> String {
    let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    let find = |start: &str| {
        lines
            .iter()
            .position(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line {start}"))
    };
    let (i, j) = (find(a), find(b));
    let body = |l: &str| l.strip_suffix(',').unwrap_or(l).to_owned();
    let comma = |l: &str| if l.ends_with(',') { "," } else { "" };
    let (bi, bj) = (body(&lines[i]), body(&lines[j]));
    let (ci, cj) = (comma(&lines[i]), comma(&lines[j]));
    lines[i] = format!("{bj}{ci}");
    lines[j] = format!("{bi}{cj}");
    lines.join("\n")
}

/// Item 11: `.hookc/policy.json` obeys only `hookc build`. Two guard lines
/// swapped (which sends the force-push check to a guard of other tools, so
/// the old hookc allowed it), a changed head, or the file reformatted: each
/// call that would read a changed line is refused, and the reason tells the
/// model to have the user rebuild. (A call is decided on the head, its
/// event's index and the guards that index gives it, each checked against
/// its digest; a line no call reads changes no decision.)
#[test]
fn a_policy_json_not_written_by_hookc_build_is_refused() {
    let p = built();
    let policy = p.read(".hookc/policy.json");
    let hookc = [("HOOKC_BIN", HOOKC)];
    let force_push = || claude(&p, &hookc, "git push --force");
    let read = |file: &str| {
        let dir = p.dir.path().display().to_string();
        sh_c(
            &claude_command(&p),
            p.dir.path(),
            BARE_PATH,
            &[("HOOKC_BIN", HOOKC), ("CLAUDE_PROJECT_DIR", &dir)],
            &crate::support::claude_tool("Read", serde_json::json!({ "file_path": file })),
        )
    };
    assert_eq!(force_push().status, 2);
    assert_eq!(read(".env").status, 2);
    assert_eq!(read("ok.txt").status, 0);

    let refused = |run: &Run| {
        assert_refused(run, "was changed after `hookc build` wrote it");
        assert!(
            run.stderr.contains("ask the user to run `hookc build`"),
            "{}",
            run.stderr
        );
    };
    p.write(
        ".hookc/policy.json",
        &swap_lines(
            &policy,
            r#"{"name":"no-force-push""#,
            r#"{"name":"protect-env-files""#,
        ),
    );
    refused(&force_push());
    refused(&read(".env"));

    let whole = serde_json::from_str::<serde_json::Value>(&policy).unwrap();
    let edits = [
        policy.replacen("\"timeout\":", "\"timeout\":1,\"x\":", 1),
        policy.replacen("\"targets\":[", "\"targets\":[\"kimi\",", 1),
        serde_json::to_string_pretty(&whole).unwrap(),
    ];
    for edited in &edits {
        p.write(".hookc/policy.json", edited);
        refused(&force_push());
        refused(&read("ok.txt"));
    }
    // Rebuilt, it is obeyed again (the build sees the hand edit too).
    assert_eq!(p.hookc(&["build", "--force"]).status, 0);
    assert_eq!(p.read(".hookc/policy.json"), policy);
    assert_eq!(force_push().status, 2);
    assert_eq!(read("ok.txt").status, 0);
}

/// Kimi Code's PreToolUse payload for a shell command.
fn kimi_bash(command: &str) -> String {
    serde_json::json!({
        "hook_event_name": "PreToolUse",
        "session_id": "session_f6ea7043",
        "cwd": "/repo",
        "client_type": "kimi_code_cli",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_call_id": "call_4ea12d06",
    })
    .to_string()
}

/// The command `hookc build --user` installs for Kimi Code's PreToolUse,
/// from the project's review copy (the same bytes).
fn kimi_command(p: &Project) -> String {
    let doc: toml_edit::DocumentMut = p.read(".hookc/kimi/config.toml").parse().unwrap();
    doc["hooks"].as_array_of_tables().unwrap().get(0).unwrap()["command"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Run it as Kimi Code does: `/bin/sh -c` in the session's directory, with
/// HOME at `home`.
fn kimi(command: &str, session: &Path, home: &Path, stdin: &str) -> Run {
    let home = home.display().to_string();
    sh_c(
        command,
        session,
        &crate::support::path_with_hookc(),
        &[("HOME", &home), ("PWD", &session.display().to_string())],
        stdin,
    )
}

/// A shim that leaves a mark if it ever runs: code the user did not build.
fn planted_shim(dir: &Path, harness: &str, canary: &Path) {
    let shim = dir.join(format!(".hookc/{harness}/pre-tool.sh"));
    std::fs::create_dir_all(shim.parent().unwrap()).unwrap();
    std::fs::write(
        &shim,
        format!("#!/bin/sh\ntouch '{}'\nexit 0\n", canary.display()),
    )
    .unwrap();
    make_executable(&shim);
}

/// A project built for Kimi Code, and the command `hookc build --user`
/// installs (the same bytes in every project).
fn kimi_project() -> (Project, String) {
    let p = bundled_for("\"kimi\"");
    p.build();
    let command = kimi_command(&p);
    (p, command)
}

/// The Kimi hook on a force push from `session`, refused (exit 2) with a
/// reason the model can act on; HOME is the project's parent directory.
fn kimi_refuses(p: &Project, command: &str, session: &Path) -> Run {
    let home = p.dir.path().parent().unwrap();
    let run = kimi(command, session, home, &kimi_bash("git push --force"));
    assert_eq!(run.status, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("Fix: ") || run.stderr.starts_with("Do not force-push"),
        "{}",
        run.stderr
    );
    run
}

// Item 12: the user-level Kimi Code hook refuses a project whose build is
// broken or gone instead of letting every call through, is not stopped by a
// `sub/.git` or `sub/.hookc` under the session's directory, and never runs a
// shim from a shared directory such as `/tmp`.

#[test]
fn kimi_refuses_when_the_events_shim_is_deleted() {
    let (p, command) = kimi_project();
    kimi_refuses(&p, &command, p.dir.path());
    std::fs::remove_file(p.path(".hookc/kimi/pre-tool.sh")).unwrap();
    let run = kimi_refuses(&p, &command, p.dir.path());
    assert!(
        run.stderr.contains("has no .hookc/kimi/pre-tool.sh"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("run hookc build in"), "{}", run.stderr);
}

#[test]
fn kimi_refuses_when_hookc_is_moved_away() {
    let (p, command) = kimi_project();
    std::fs::rename(p.path(".hookc"), p.path("hookc-moved")).unwrap();
    let run = kimi_refuses(&p, &command, p.dir.path());
    assert!(run.stderr.contains("was never built"), "{}", run.stderr);
}

#[test]
fn kimi_is_not_stopped_by_a_git_directory_under_the_session() {
    let (p, command) = kimi_project();
    std::fs::create_dir_all(p.path("sub/.git")).unwrap();
    let run = kimi_refuses(&p, &command, &p.path("sub"));
    assert!(
        run.stderr.starts_with("Do not force-push"),
        "{}",
        run.stderr
    );
}

#[test]
fn kimi_refuses_an_empty_hookc_under_the_session() {
    let (p, command) = kimi_project();
    std::fs::create_dir_all(p.path("sub/.hookc")).unwrap();
    let run = kimi_refuses(&p, &command, &p.path("sub"));
    assert!(run.stderr.contains("cannot be read"), "{}", run.stderr);
}

#[test]
fn kimi_never_runs_a_shim_planted_in_a_shared_directory() {
    use std::os::unix::fs::PermissionsExt;
    let (_p, command) = kimi_project();
    let shared = tempfile::tempdir().unwrap();
    std::fs::set_permissions(shared.path(), std::fs::Permissions::from_mode(0o1777)).unwrap();
    let canary = shared.path().join("canary");
    planted_shim(shared.path(), "kimi", &canary);
    let session = shared.path().join("work/here");
    std::fs::create_dir_all(&session).unwrap();
    let home = tempfile::tempdir().unwrap();
    let run = kimi(
        &command,
        &session,
        home.path(),
        &kimi_bash("git push --force"),
    );
    assert!(!canary.exists(), "the planted shim ran: {}", run.stderr);
    assert_eq!(
        run.status, 0,
        "no project: nothing to guard: {}",
        run.stderr
    );
}

/// Item 13: a repository's `core.worktree` cannot point Codex's hook at a
/// shim planted elsewhere.
#[test]
fn core_worktree_cannot_redirect_the_codex_hook() {
    let p = built();
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(p.dir.path())
            .env("HOME", p.dir.path())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !git(&["init", "-q"]) {
        return; // No git here: nothing can be redirected.
    }
    let elsewhere = tempfile::tempdir().unwrap();
    let canary = elsewhere.path().join("canary");
    planted_shim(elsewhere.path(), "codex", &canary);
    assert!(git(&[
        "config",
        "core.worktree",
        &elsewhere.path().display().to_string()
    ]));
    let codex = codex_command(&p);
    let payload = codex_bash(&p, "git push --force");
    let home = p.dir.path().display().to_string();
    let run = sh_c(
        &codex,
        p.dir.path(),
        &crate::support::path_with_hookc(),
        &[("HOME", &home)],
        &payload,
    );
    assert!(!canary.exists(), "the planted shim ran");
    assert_eq!(run.status, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.starts_with("Do not force-push"),
        "{}",
        run.stderr
    );
}

/// git's own configuration where the call runs: an alias in the repository,
/// autocorrect and a mirror remote in the user's config.
#[test]
fn git_configuration_cannot_turn_a_harmless_command_into_a_force_push() {
    let p = built();
    p.write(".git/config", "[alias]\n\tpf = push --force\n");
    let run = claude(&p, &[("HOOKC_BIN", HOOKC)], "git pf origin main");
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("Do not force-push"),
        "{}",
        run.stderr
    );
    assert_eq!(claude(&p, &[("HOOKC_BIN", HOOKC)], "git status").status, 0);

    let home = p.path("home");
    std::fs::create_dir_all(&home).unwrap();
    p.write(
        "home/.gitconfig",
        "[help]\n\tautocorrect = immediate\n[remote \"origin\"]\n\tmirror = true\n",
    );
    let home = home.display().to_string();
    let run = claude(
        &p,
        &[("HOOKC_BIN", HOOKC), ("HOME", &home)],
        "git push origin main",
    );
    assert_eq!(
        run.status, 2,
        "a mirror remote pushes by force: {}",
        run.stderr
    );
    let run = claude(
        &p,
        &[("HOOKC_BIN", HOOKC), ("HOME", &home)],
        "git psuh origin main",
    );
    // Refused, or held to the run-time judge, which stops git before it
    // starts: git itself would pick the command it runs.
    match crate::support::supervised_command(&run.stdout) {
        None => assert_eq!(run.status, 2, "autocorrect: {}", run.stderr),
        Some(command) => {
            let ran = crate::support::run(
                Command::new("sh")
                    .args(["-c", &command])
                    .current_dir(p.dir.path())
                    .env("HOME", &home),
                None,
            );
            assert_eq!(ran.status, 87, "autocorrect under hookc exec: {ran:?}");
            assert!(ran.stderr.contains("help.autocorrect"), "{ran:?}");
        }
    }
}

/// A program hookc does not know is presumed to run its arguments, and the
/// git it may run reads the project's settings as any other would: through
/// `frob`, `git pf` is a forced push. A git it may run that changes those
/// settings first (`frob git config alias.…`) leaves the line's gits
/// unreadable. So does a script of the project's `package.json` that
/// `frob npm run` runs. Codex has no run-time judge: the static answer is all.
#[test]
fn a_git_run_by_an_unknown_program_reads_the_project_s_settings() {
    let p = built();
    p.write(".git/config", "[alias]\n\tpf = push --force\n");
    let codex = codex_command(&p);
    let home = p.dir.path().display().to_string();
    let answer = |line: &str| {
        sh_c(
            &codex,
            p.dir.path(),
            &crate::support::path_with_hookc(),
            &[("HOME", &home), ("HOOKC_BIN", HOOKC)],
            &codex_bash(&p, line),
        )
    };
    // What the place says is read as well: the project's scripts.
    p.write(
        "package.json",
        r#"{"scripts": {"t": "git push --force origin main"}}"#,
    );
    for line in [
        "frob git pf origin main",
        "frob -q 'git pf origin main'",
        "frob npm run t",
    ] {
        let run = answer(line);
        assert_eq!(run.status, 2, "{line}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("`frob`") && run.stderr.contains("git push --force origin main"),
            "{line}: {}",
            run.stderr
        );
    }
    let run = answer("frob git config alias.st 'push --force'; git st origin main");
    assert_eq!(run.status, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("may change first"), "{}", run.stderr);
    let run = answer("frob git status");
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
}

/// A package manager runs its scripts with the program its settings name
/// (`script-shell`), from the environment the hook inherits as much as from
/// files an earlier call wrote in the user's home: npm's variables in any
/// case, yarn's own, and pnpm's global `rc`.
#[test]
fn a_package_manager_s_settings_from_home_and_environment_are_read() {
    let p = built();
    p.write("package.json", r#"{"scripts": {"reset": "echo reset"}}"#);
    let codex = codex_command(&p);
    let home = p.dir.path().join("home");
    std::fs::create_dir_all(home.join(".config/pnpm")).unwrap();
    std::fs::write(home.join("u"), "script-shell=./x.sh\n").unwrap();
    let home = home.display().to_string();
    let answer = |env: &[(&str, &str)], line: &str| {
        let mut env = env.to_vec();
        env.extend([("HOME", home.as_str()), ("HOOKC_BIN", HOOKC)]);
        sh_c(
            &codex,
            p.dir.path(),
            &crate::support::path_with_hookc(),
            &env,
            &codex_bash(&p, line),
        )
    };
    for line in ["npm run reset", "yarn run reset", "pnpm run reset"] {
        let run = answer(&[], line);
        assert_eq!(run.status, 0, "{line}: {}{}", run.stdout, run.stderr);
    }
    let user = format!("{home}/u");
    for (env, line) in [
        (("npm_config_userconfig", user.as_str()), "npm run reset"),
        (("YARN_SCRIPT_SHELL", "./x.sh"), "yarn run reset"),
    ] {
        let run = answer(&[env], line);
        assert_eq!(run.status, 2, "{line}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("run the script's command directly"),
            "{}",
            run.stderr
        );
    }
    std::fs::write(format!("{home}/.config/pnpm/rc"), "script-shell=./x.sh\n").unwrap();
    let run = answer(&[], "pnpm run reset");
    assert_eq!(run.status, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("pnpm/rc"), "{}", run.stderr);
}

/// A git sent to another repository reads that repository's settings, which
/// an earlier call may have written (`git init` and `git config` outside the
/// project are ordinary work): there `git st` may be a forced push.
#[test]
fn git_settings_of_another_repository_are_not_taken_for_the_project_s() {
    let p = built();
    let other = tempfile::tempdir().unwrap();
    let in_other = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(other.path())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !in_other(&["init", "-q"]) || !in_other(&["config", "alias.st", "push --force"]) {
        return; // No git here.
    }
    let other = other.path().display().to_string();
    for line in [
        format!("git -C {other} st origin main"),
        format!("cd {other} && git st origin main"),
        format!("f() {{ git st origin main; }}; cd {other}; f"),
    ] {
        let run = claude(&p, &[("HOOKC_BIN", HOOKC)], &line);
        // Refused (hookc reads the settings there, or cannot), or held to
        // the run-time judge, which reads them where git starts.
        match crate::support::supervised_command(&run.stdout) {
            None => {
                assert_eq!(run.status, 2, "{line}: {}", run.stderr);
                assert!(
                    run.stderr.starts_with("Do not force-push")
                        || run.stderr.contains("settings hookc could not read"),
                    "{line}: {}",
                    run.stderr
                );
            }
            Some(command) => {
                let ran = crate::support::run(
                    Command::new("sh")
                        .args(["-c", &command])
                        .current_dir(p.dir.path()),
                    None,
                );
                assert_eq!(ran.status, 87, "{line} under hookc exec: {ran:?}");
                assert!(
                    ran.stderr.contains("Do not force-push")
                        || ran.stderr.contains("settings hookc could not read"),
                    "{line}: {ran:?}"
                );
            }
        }
    }
    // git's own commands mean the same in every repository.
    let run = claude(
        &p,
        &[("HOOKC_BIN", HOOKC)],
        &format!("git -C {other} status"),
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(crate::support::supervised_command(&run.stdout), None);
}

/// Item 12: a project is bounded by its file system. A session in a mount
/// below a project's directory is refused (the `.hookc` above it belongs to
/// another file system), never guarded by whatever lies there. Needs root
/// for the mount (CI runs as root); skipped otherwise.
#[test]
fn kimi_refuses_a_project_on_another_file_system() {
    let root = std::fs::metadata("/proc/self").is_ok_and(|m| {
        use std::os::unix::fs::MetadataExt;
        m.uid() == 0
    });
    if !root || Command::new("unshare").arg("--help").output().is_err() {
        eprintln!("skipped: needs root and unshare for a private mount");
        return;
    }
    let (p, command) = kimi_project();
    std::fs::create_dir_all(p.path("mnt")).unwrap();
    let home = p.dir.path().parent().unwrap().display().to_string();
    let session = p.path("mnt").display().to_string();
    // A private mount namespace: the tmpfs is gone when the shell exits.
    let script = "mount -t tmpfs -o mode=0755 none \"$S\" && cd \"$S\" && PWD=\"$S\" HOME=\"$H\" /bin/sh -c \"$C\"";
    let r = run(
        Command::new("unshare")
            .args(["-m", "/bin/sh", "-c", script])
            .env("S", &session)
            .env("H", &home)
            .env("C", &command)
            .env("PATH", crate::support::path_with_hookc()),
        Some(kimi_bash("git status").as_bytes()),
    );
    assert_eq!(r.status, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("on another file system"), "{}", r.stderr);
}

/// A FIFO where `.hookc/policy.json` belongs is refused at once, not waited on
/// until the harness's timeout (after which some harnesses let the call through).
#[test]
fn a_fifo_for_the_compiled_policy_is_refused_at_once() {
    let p = built();
    std::fs::remove_file(p.path(".hookc/policy.json")).unwrap();
    assert!(
        Command::new("mkfifo")
            .arg(p.path(".hookc/policy.json"))
            .status()
            .unwrap()
            .success()
    );
    let start = std::time::Instant::now();
    let run = claude(&p, &[("HOOKC_BIN", HOOKC)], "git status");
    assert!(
        start.elapsed() < std::time::Duration::from_secs(5),
        "the guard waited on the FIFO"
    );
    assert_refused(&run, "not a regular file");
}

/// Issue 20: every way an agent could switch its guards off through an
/// allowed call is refused by the real hook command of each harness, with a
/// reason that sends the model to the user. `hookc test` feeds each
/// generated hook the payload its harness sends for every example, and the
/// self-protection guards' examples are the tampering routes.
#[test]
fn every_tampering_route_is_refused_by_every_harnesss_hook() {
    let p = Project::bundled();
    let home = tempfile::tempdir().unwrap();
    let r = run(
        Command::new(HOOKC)
            .args(["test", "--format", "json"])
            .current_dir(p.dir.path())
            .env("HOME", home.path()),
        None,
    );
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let rows = v["rows"].as_array().unwrap();
    let routes = [
        "sed -i s/deny/allow/ policy.kdl",
        "write policy.kdl",
        "write .hookc/policy.json",
        "cp /tmp/x .hookc/policy.json",
        "mv /tmp/x .hookc/policy.json",
        "rm .hookc/policy.json",
        "truncate -s 0 .hookc/policy.json",
        "cd .hookc && echo {} > policy.json",
        "echo 'export HOOKC_BIN=/bin/true' >> ~/.profile",
        "edit .claude/settings.local.json",
        "edit ~/.claude/settings.json",
        "edit .codex/hooks.json",
        "edit .github/hooks/hookc.json",
        "edit .cursor/hooks.json",
        "edit .gemini/settings.json",
        "edit .agents/hooks.json",
        "edit ~/.kimi-code/config.toml",
        "edit .opencode/plugin/hookc.js",
        "hookc build",
        "npx hookc init --force",
        "git config core.worktree /tmp/elsewhere",
    ];
    for harness in [
        "claude", "codex", "copilot", "cursor", "gemini", "kimi", "opencode",
    ] {
        for route in routes {
            let row = rows
                .iter()
                .find(|r| r["harness"] == harness && r["case"] == route)
                .unwrap_or_else(|| panic!("{harness}: no row for `{route}`"));
            if route.starts_with("write ") || route.starts_with("edit ") {
                // A harness without such a tool (Codex has no file tools) says so.
                if row["got"] == "not applicable" || row["expected"].is_null() {
                    continue;
                }
            }
            assert_eq!(
                row["got"], "blocks",
                "{harness}: `{route}` got through: {row}"
            );
            assert!(
                row["guard"]
                    .as_str()
                    .is_some_and(|g| g.starts_with("hookc-self-protection")),
                "{harness}: `{route}`: {row}"
            );
            let reason = row["model_reads"].as_str().unwrap_or_default();
            assert!(
                reason.contains("ask the user") || reason.contains("could not check"),
                "{harness}: `{route}` does not send the model to the user: {reason}"
            );
        }
    }
}
