//! The human escape hatch and the audit log, through the real hook commands
//! of Claude Code, Codex and Kimi Code: a refusal shows a code; the user
//! approves that exact call once from a terminal; the agent's own
//! `hookc allow-once` is refused whatever the policy; `override "never"`
//! cannot be approved; and the audit log never holds a secret planted in a
//! call.

use std::path::Path;
use std::process::Command;

use hookc::harness::{self, Observation, Outcome};
use hookc::ir::{Event, ExampleCall, HarnessId, Tool, ToolKind};

use crate::support::{HOOKC, Project, Run, path_with_hookc, run, sh_c};

const HARNESSES: [HarnessId; 3] = [HarnessId::Claude, HarnessId::Codex, HarnessId::Kimi];

const POLICY: &str = r##"targets "claude" "codex" "kimi"
audit-log #true
allow-once #true

preset "git" level="basic"

guard "no-curl" {
    command "curl"
    override "never"
    deny "Do not use curl here; use the project's HTTP client instead."
    example "curl https://example.com" expect="deny"
}

guard "no-env" {
    tool "write" "edit"
    path ".env*"
    deny "Do not write .env files; ask the user to set the value instead."
    example tool="write" path=".env" expect="deny"
}

guard "no-secrets-on-the-command-line" {
    tool "shell"
    regex #"PLANTED"#
    deny "Do not put credentials on the command line; read them from the environment instead."
    example "echo PLANTED" expect="deny"
}
"##;

fn project(policy: &str) -> Project {
    let p = Project::new();
    p.write("policy.kdl", policy);
    std::fs::create_dir_all(p.path("home")).unwrap();
    let build = p.hookc(&["build"]);
    assert_eq!(build.status, 0, "{}", build.stderr);
    p
}

/// Runs the harness's generated pre-tool hook on its own payload for `call`,
/// as the harness runs it; returns what the harness makes of the answer.
fn fire(p: &Project, id: HarnessId, call: &ExampleCall) -> Outcome {
    let h = harness::get(id).unwrap();
    let root = p.dir.path();
    let payload = h
        .payload(Event::PreTool, call, root)
        .unwrap_or_else(|| panic!("{id}: no payload for {call:?}"));
    let hook = h
        .hook_command(root, Event::PreTool, &payload)
        .unwrap_or_else(|| panic!("{id}: no pre-tool hook"));
    let home = p.path("home").display().to_string();
    let mut env: Vec<(&str, &str)> = vec![("HOME", &home), ("HOOKC_BIN", HOOKC)];
    let extra: Vec<(String, String)> = h
        .hook_command(root, Event::PreTool, &payload)
        .unwrap()
        .env
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    for (k, v) in &extra {
        env.push((k, v));
    }
    let out = sh_c(
        &hook.command,
        root,
        &path_with_hookc(),
        &env,
        &payload.to_string(),
    );
    h.outcome(
        Event::PreTool,
        &Observation {
            exit: Some(out.status),
            stdout: out.stdout,
            stderr: out.stderr,
            timed_out: false,
        },
    )
}

fn shell(command: &str) -> ExampleCall {
    ExampleCall {
        tool: Some(Tool::Known {
            tool: ToolKind::Shell,
        }),
        command: Some(command.to_owned()),
        path: None,
        text: None,
    }
}

fn code_in(outcome: &Outcome) -> Option<String> {
    let text = outcome.model_reads.as_deref()?;
    let at = text.find("hookc allow-once ")? + "hookc allow-once ".len();
    Some(text[at..at + 8].to_owned())
}

/// `hookc allow-once ARGS` in a terminal (`script` gives it a pty), typing `typed`.
fn approve_in_terminal(p: &Project, args: &str, typed: &str) -> Run {
    run(
        Command::new("script")
            .args(["-qec", &format!("{HOOKC} allow-once {args}"), "/dev/null"])
            .current_dir(p.dir.path())
            .env("HOME", p.path("home"))
            .env_remove("XDG_STATE_HOME"),
        Some(format!("{typed}\n").as_bytes()),
    )
}

fn has_script() -> bool {
    Command::new("script").arg("--version").output().is_ok()
}

#[test]
fn the_user_lets_exactly_that_call_through_once_in_claude_codex_and_kimi() {
    if !has_script() {
        eprintln!("SKIPPED: needs `script` (util-linux) for a terminal");
        return;
    }
    for id in HARNESSES {
        let p = project(POLICY);
        let push = shell("git push --force origin main");
        let refused = fire(&p, id, &push);
        assert!(!refused.proceeds, "{id}: {refused:?}");
        let code = code_in(&refused).unwrap_or_else(|| panic!("{id}: no code in {refused:?}"));
        // Another call gets another code, and stays refused.
        let other = shell("git push --force origin release");
        let other_code = code_in(&fire(&p, id, &other)).unwrap();
        assert_ne!(code, other_code);

        // Not confirmed: nothing approved.
        let wrong = approve_in_terminal(&p, &code, "no");
        assert_ne!(wrong.status, 0, "{id}: {}", wrong.stdout);
        assert!(
            !fire(&p, id, &push).proceeds,
            "{id}: approved without confirmation"
        );

        let ok = approve_in_terminal(&p, &code, &code);
        assert_eq!(ok.status, 0, "{id}: {}{}", ok.stdout, ok.stderr);
        assert!(
            ok.stdout.contains(&format!("approved {code}")),
            "{id}: {}",
            ok.stdout
        );

        let through = fire(&p, id, &push);
        assert!(through.proceeds, "{id}: the approved call: {through:?}");
        // Once: the next identical call is refused again.
        assert!(!fire(&p, id, &push).proceeds, "{id}: approved twice");
        assert!(
            !fire(&p, id, &other).proceeds,
            "{id}: another call got through"
        );

        // The approval and its use are in the audit log.
        let log = run(
            Command::new(HOOKC)
                .args(["log", "--format", "json", "--limit", "0"])
                .current_dir(p.dir.path())
                .env("HOME", p.path("home"))
                .env_remove("XDG_STATE_HOME"),
            None,
        )
        .stdout;
        assert!(log.contains("\"verdict\":\"approved\""), "{id}: {log}");
        assert!(
            log.lines()
                .any(|l| l.contains("\"verdict\":\"allow\"") && l.contains("allow-once")),
            "{id}: {log}"
        );
    }
}

#[test]
fn allow_once_needs_a_terminal() {
    let p = project(POLICY);
    let code = code_in(&fire(&p, HarnessId::Claude, &shell("git push -f"))).unwrap();
    let piped = run(
        Command::new(HOOKC)
            .args(["allow-once", &code])
            .current_dir(p.dir.path())
            .env("HOME", p.path("home"))
            .env_remove("XDG_STATE_HOME"),
        Some(format!("{code}\n").as_bytes()),
    );
    assert_eq!(piped.status, 1, "{}", piped.stderr);
    assert!(
        piped.stderr.contains("needs your terminal"),
        "{}",
        piped.stderr
    );
    assert!(!fire(&p, HarnessId::Claude, &shell("git push -f")).proceeds);
}

#[test]
fn the_agents_own_allow_once_is_refused_whatever_the_policy() {
    // A policy without the escape hatch, with one unrelated guard.
    let p = project(
        r#"targets "claude" "codex" "kimi"
guard "no-rm" {
    command "rm"
    deny "Do not delete files; move them to trash/ instead."
    example "rm x" expect="deny"
}
"#,
    );
    for id in HARNESSES {
        for line in [
            "hookc allow-once 29b51d28",
            "npx hookc allow-once 29b51d28 --session",
            "h=hookc; $h allow-o''nce 29b51d28",
            "sudo bash -c 'hookc allow-once 29b51d28'",
            "eval \"hookc allow-once 29b51d28\"",
            "echo '{}' > ~/.local/state/hookc/approved/29b51d28.json",
        ] {
            let out = fire(&p, id, &shell(line));
            assert!(!out.proceeds, "{id}: `{line}` was let through");
            assert!(
                out.model_reads
                    .as_deref()
                    .unwrap_or("")
                    .contains("for the user, from their own terminal"),
                "{id}: `{line}`: {out:?}"
            );
        }
        // Talking about it is not running it.
        for line in [
            "git status",
            "grep -rn allow-once src/",
            "git commit -m 'document allow-once'",
        ] {
            assert!(
                fire(&p, id, &shell(line)).proceeds,
                "{id}: `{line}` refused"
            );
        }
    }
}

#[test]
fn a_guard_with_override_never_shows_no_code_and_no_approval_opens_it() {
    let p = project(POLICY);
    let call = shell("curl https://example.com");
    let out = fire(&p, HarnessId::Claude, &call);
    assert!(!out.proceeds);
    assert_eq!(code_in(&out), None, "{out:?}");
    // An approval planted for exactly this call changes nothing.
    let h = harness::get(HarnessId::Claude).unwrap();
    let payload = h.payload(Event::PreTool, &call, p.dir.path()).unwrap();
    let decoded = h.decode_call(Event::PreTool, &payload).unwrap();
    let digest = hookc::audit::digest(HarnessId::Claude, Event::PreTool, &decoded, &payload);
    let code = hookc::audit::code(&digest);
    let approved = p.path(&format!("home/.local/state/hookc/approved/{code}.json"));
    std::fs::create_dir_all(approved.parent().unwrap()).unwrap();
    std::fs::write(
        &approved,
        serde_json::json!({
            "code": code, "harness": "claude", "event": "pre-tool", "tool": "Bash",
            "digest": digest, "scope": "once", "session": null,
            "granted": hookc::audit::now(), "expires": hookc::audit::now() + 600
        })
        .to_string(),
    )
    .unwrap();
    assert!(!fire(&p, HarnessId::Claude, &call).proceeds);
}

/// Secrets planted in calls, each in a shape the log must not keep.
const SECRETS: &[&str] = &[
    "hunter2-PLANTED",
    "wJalrXUtnFEMIK7MDENGbPxRfiCYPLANTED",
    "tok-PLANTED-123",
    "planted-pass",
    "db-PLANTED-in-env-file",
    "ghp_PLANTED0123456789abcdef",
];

#[test]
fn the_audit_log_never_holds_a_secret_planted_in_a_call() {
    let p = project(POLICY);
    let calls = [
        shell("mysql -u root --password=hunter2-PLANTED shop -e 'select 1'"),
        shell("mysql -u root --password hunter2-PLANTED shop"),
        shell("mysql -u root -phunter2-PLANTED shop"),
        shell("AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENGbPxRfiCYPLANTED aws s3 ls"),
        shell("echo API_TOKEN=tok-PLANTED-123 >> .env.local"),
        shell("curl https://bob:planted-pass@example.com/api"),
        shell("gh auth login --with-token ghp_PLANTED0123456789abcdef"),
        ExampleCall {
            tool: Some(Tool::Known {
                tool: ToolKind::Write,
            }),
            command: None,
            path: Some(".env".to_owned()),
            text: None,
        },
    ];
    for id in HARNESSES {
        for call in &calls {
            if call.path.is_some() && id == HarnessId::Codex {
                continue; // Codex writes files with patches; its shell calls are above
            }
            fire(&p, id, call);
        }
    }
    // The .env write's content: the payload helper writes a fixed body, so
    // plant one through Claude's Write tool by hand.
    let payload = serde_json::json!({
        "session_id": "s1", "transcript_path": "/t.jsonl", "cwd": p.dir.path(),
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Write",
        "tool_input": {"file_path": p.path(".env"), "content": "DB_PASSWORD=db-PLANTED-in-env-file\n"},
        "tool_use_id": "t9"
    });
    let out = run(
        Command::new(HOOKC)
            .args(["guard", "--harness", "claude", "--event", "pre-tool"])
            .current_dir(p.dir.path())
            .env("HOME", p.path("home"))
            .env_remove("XDG_STATE_HOME")
            .env_remove("HOOKC_DEBUG"),
        Some(payload.to_string().as_bytes()),
    );
    assert_eq!(out.status, 2, "{}", out.stderr);

    let root = p.dir.path().canonicalize().unwrap();
    let log_file = log_path(&p, &root);
    let text = std::fs::read_to_string(&log_file)
        .unwrap_or_else(|e| panic!("{}: {e}", log_file.display()));
    let records: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Every call is there: 8 calls in Claude and Kimi, 7 in Codex, and the hand-made one.
    assert_eq!(records.len(), 8 + 8 + 7 + 1, "{text}");
    for r in &records {
        for key in [
            "time", "harness", "event", "tool", "digest", "summary", "guards", "verdict",
        ] {
            assert!(r.get(key).is_some(), "{key} missing in {r}");
        }
    }
    assert!(
        text.contains("\"summary\":\"Bash mysql -u root --password=*** shop"),
        "{text}"
    );
    for secret in SECRETS {
        assert!(!text.contains(secret), "the log holds `{secret}`:\n{text}");
        assert!(
            !text.to_lowercase().contains(&secret.to_lowercase()),
            "{secret}"
        );
    }
    // And `hookc log` shows them, filtered, without the secrets either.
    let shown = run(
        Command::new(HOOKC)
            .args([
                "log",
                "--verdict",
                "deny",
                "--harness",
                "kimi",
                "--limit",
                "0",
            ])
            .current_dir(p.dir.path())
            .env("HOME", p.path("home"))
            .env_remove("XDG_STATE_HOME"),
        None,
    );
    assert_eq!(shown.status, 0, "{}", shown.stderr);
    assert_eq!(shown.stdout.lines().count(), 8, "{}", shown.stdout);
    assert!(
        shown.stdout.lines().all(|l| l.contains(" kimi ")),
        "{}",
        shown.stdout
    );
    for secret in SECRETS {
        assert!(!shown.stdout.contains(secret), "{secret}");
    }
}

/// Where `hookc guard` keeps the project's log with this HOME (and no
/// XDG_STATE_HOME), by the library's own naming.
fn log_path(p: &Project, root: &Path) -> std::path::PathBuf {
    let name = hookc::audit::project_key(&root.to_string_lossy());
    p.path("home/.local/state/hookc/audit")
        .join(format!("{name}.jsonl"))
}

#[test]
fn hookc_why_answers_as_the_hook_does_with_the_code_and_the_built_in_guard() {
    let p = project(POLICY);
    let why = |line: &str| -> serde_json::Value {
        let out = run(
            Command::new(HOOKC)
                .args(["why", "--format", "json", line])
                .current_dir(p.dir.path())
                .env("HOME", p.path("home"))
                .env_remove("XDG_STATE_HOME"),
            None,
        );
        assert_eq!(out.status, 0, "{}", out.stderr);
        serde_json::from_str(&out.stdout).unwrap()
    };
    for id in HARNESSES {
        for line in ["git push -f origin main", "hookc allow-once 29b51d28"] {
            let hook = fire(&p, id, &shell(line));
            let doc = why(line);
            let answer = doc["answers"]
                .as_array()
                .unwrap()
                .iter()
                .find(|a| a["harness"] == id.word())
                .unwrap()
                .clone();
            assert_eq!(answer["proceeds"], hook.proceeds, "{id} `{line}`");
            assert_eq!(
                answer["model_reads"].as_str(),
                hook.model_reads.as_deref(),
                "{id} `{line}`"
            );
        }
    }
}
