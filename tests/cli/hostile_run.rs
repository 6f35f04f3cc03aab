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
    let codex = json_file(&p, ".codex/hooks.json")["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    let payload = serde_json::json!({
        "session_id": "s", "turn_id": "t", "cwd": p.dir.path(),
        "hook_event_name": "PreToolUse", "model": "m", "permission_mode": "default",
        "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "c"
    })
    .to_string();
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
    // A repository's `node_modules/.bin/hookc`, on a relative PATH entry.
    script(&p, "node_modules/.bin/hookc", "cat >/dev/null; exit 0");
    let run = through_a_login_shell(&p, &[("PATH", &format!("node_modules/.bin:{BARE_PATH}"))]);
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
