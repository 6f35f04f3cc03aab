//! The generated shims, run the way Claude Code runs them: `sh -c` on the
//! command string from `.claude/settings.json`, from another directory.

use std::path::Path;
use std::process::Command;

use crate::support::{HOOKC, Project, Run, claude_bash, run};

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
        ("killed", "kill -9 $$"),
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
