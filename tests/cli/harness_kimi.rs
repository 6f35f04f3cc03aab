//! Kimi Code CLI: the project copy `.hookc/kimi/config.toml`, the user-level
//! install with `hookc build --user` (always with `HOME` and `KIMI_CODE_HOME`
//! in a temporary directory), `hookc guard --harness kimi`, and the installed
//! command run the way Kimi runs it: `/bin/sh -c` in the session's directory.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use crate::support::{HOOKC, Project, Run, run};

fn policy(guards: &str) -> String {
    format!("targets \"kimi\"\ntimeout 9\n{guards}")
}

const FORCE_PUSH: &str = r#"
guard "no-force-push" {
    command "git" "push" { flag "-f" "--force"; }
    deny "Push without --force, or open a pull request."
}
"#;

/// A fake home for one test: `HOME` and, optionally, `KIMI_CODE_HOME`.
struct Home {
    dir: tempfile::TempDir,
    kimi_home: Option<PathBuf>,
}

impl Home {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let kimi_home = Some(dir.path().join("kimi-home"));
        Home { dir, kimi_home }
    }

    /// `KIMI_CODE_HOME` unset: Kimi's file is `$HOME/.kimi-code/config.toml`.
    fn default_location() -> Self {
        Home {
            dir: tempfile::tempdir().unwrap(),
            kimi_home: None,
        }
    }

    fn config(&self) -> PathBuf {
        match &self.kimi_home {
            Some(k) => k.join("config.toml"),
            None => self.dir.path().join(".kimi-code/config.toml"),
        }
    }

    fn hookc(&self, p: &Project, args: &[&str]) -> Run {
        let mut cmd = Command::new(HOOKC);
        cmd.args(args)
            .current_dir(p.dir.path())
            .env("HOME", self.dir.path());
        match &self.kimi_home {
            Some(k) => cmd.env("KIMI_CODE_HOME", k),
            None => cmd.env_remove("KIMI_CODE_HOME"),
        };
        let run = run(&mut cmd, None);
        assert_eq!(run.status, 0, "{:?}: {}{}", args, run.stdout, run.stderr);
        run
    }

    fn read(&self) -> String {
        std::fs::read_to_string(self.config()).unwrap()
    }
}

/// The `[[hooks]]` tables of a config file.
fn hook_tables(text: &str) -> Vec<toml_edit::Table> {
    let doc: toml_edit::DocumentMut = text.parse().unwrap();
    doc["hooks"]
        .as_array_of_tables()
        .unwrap()
        .iter()
        .cloned()
        .collect()
}

/// A PreToolUse payload shaped like the one Kimi Code 2.1.0 sent in the oracle run.
fn pre_tool(tool: &str, input: Value) -> String {
    json!({
        "hook_event_name": "PreToolUse",
        "session_id": "session_f6ea7043",
        "cwd": "/repo",
        "client_type": "kimi_code_cli",
        "tool_name": tool,
        "tool_input": input,
        "tool_call_id": "call_4ea12d06",
    })
    .to_string()
}

fn guard(p: &Project, event: &str, stdin: &str) -> Run {
    run(
        Command::new(HOOKC)
            .args(["guard", "--harness", "kimi", "--event", event, "--policy"])
            .arg(p.path(".hookc/policy.json"))
            .env_remove("HOOKC_PROJECT_DIR")
            .env_remove("HOOKC_DEBUG"),
        Some(stdin.as_bytes()),
    )
}

fn built() -> Project {
    let p = Project::bundled();
    p.build();
    p
}

#[test]
fn the_project_copy_holds_exactly_the_keys_kimi_accepts() {
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    let run = p.build();
    let copy = p.read(".hookc/kimi/config.toml");
    let tables = hook_tables(&copy);
    let events: Vec<&str> = tables
        .iter()
        .map(|t| t["event"].as_str().unwrap())
        .collect();
    assert_eq!(events, ["PreToolUse", "UserPromptSubmit", "Stop"]);
    for table in &tables {
        let keys: Vec<&str> = table.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["event", "matcher", "command", "timeout"]);
        // Kimi's maximum whatever the policy says: the install is shared by
        // every project, and Kimi lets a call through on a timeout.
        assert_eq!(table["timeout"].as_integer(), Some(600));
        assert_eq!(table["matcher"].as_str(), Some(""));
        assert!(table["command"].as_str().unwrap().contains("/.hookc/kimi/"));
    }
    // A shim for every event, guarded or not: the installed command refuses
    // a project that targets Kimi Code and lacks one.
    for event in ["pre-tool", "prompt", "stop"] {
        assert!(p.exists(&format!(".hookc/kimi/{event}.sh")), "{event}");
    }
    assert!(run.stdout.contains("hookc build --user"), "{}", run.stdout);
}

#[test]
fn a_plain_build_never_touches_the_users_config() {
    let home = Home::new();
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    home.hookc(&p, &["build"]);
    assert!(!home.config().exists());
    assert!(!home.dir.path().join(".kimi-code").exists());
}

const USER_CONFIG: &str = "# my Kimi config\r\ndefault_model = \"kimi-k2\"  # keep\r\n\r\n[providers.moonshot]\r\ntype = \"kimi\"\r\napi_key = \"sk-secret\"\r\n\r\n[[hooks]]\r\nevent = \"PostToolUse\"\r\nmatcher = '^Write$'\r\ncommand = \"prettier --write .\"\r\n";

#[test]
fn user_install_merges_keeps_a_backup_is_idempotent_and_retracts_to_the_original_bytes() {
    let home = Home::new();
    std::fs::create_dir_all(home.kimi_home.as_ref().unwrap()).unwrap();
    std::fs::write(home.config(), USER_CONFIG).unwrap();
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));

    let first = home.hookc(&p, &["build", "--user"]);
    let installed = home.read();
    assert!(installed.starts_with(USER_CONFIG), "{installed}");
    assert!(
        first.stdout.contains(&*home.config().display().to_string()),
        "{}",
        first.stdout
    );
    let backup = home.config().with_file_name("config.toml.hookc-backup");
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), USER_CONFIG);
    let tables = hook_tables(&installed);
    assert_eq!(tables.len(), 4, "the user's hook and hookc's three");
    assert_eq!(tables[0]["command"].as_str(), Some("prettier --write ."));
    // What was installed is what the project copy shows.
    let copy = p.read(".hookc/kimi/config.toml");
    let block = &installed[USER_CONFIG.len()..];
    let copy_block = &copy[copy.find("# Added by").unwrap()..];
    assert_eq!(block.replace("\r\n", "\n").trim(), copy_block.trim());

    let again = home.hookc(&p, &["build", "--user"]);
    assert_eq!(home.read(), installed);
    assert!(
        again.stdout.contains("(0 files changed"),
        "{}",
        again.stdout
    );

    // Another project, with another policy, installs the same bytes.
    let other = Project::new();
    other.write(
        "policy.kdl",
        &format!("targets \"kimi\"\ntimeout 30\n{FORCE_PUSH}"),
    );
    home.hookc(&other, &["build", "--user"]);
    assert_eq!(home.read(), installed);

    // Dropping Kimi from the targets retracts hookc's tables.
    p.write("policy.kdl", &format!("targets \"claude\"\n{FORCE_PUSH}"));
    let retract = home.hookc(&p, &["build", "--user"]);
    assert_eq!(home.read(), USER_CONFIG);
    assert!(retract.stdout.contains("retract"), "{}", retract.stdout);
    assert!(!p.exists(".hookc/kimi/config.toml"));
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), USER_CONFIG);
}

#[test]
fn without_kimi_code_home_the_install_goes_to_home_and_a_file_hookc_made_is_removed_again() {
    let home = Home::default_location();
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    home.hookc(&p, &["build", "--user"]);
    let installed = home.read();
    assert_eq!(hook_tables(&installed).len(), 3);
    assert!(
        !home
            .config()
            .with_file_name("config.toml.hookc-backup")
            .exists(),
        "nothing to back up"
    );
    // Without --user the user's file is remembered, not retracted.
    p.write("policy.kdl", "targets \"kimi\"\n");
    home.hookc(&p, &["build"]);
    assert_eq!(home.read(), installed);
    home.hookc(&p, &["build", "--user"]);
    assert!(!home.config().exists());
}

#[test]
fn a_user_config_that_does_not_parse_is_left_alone() {
    let home = Home::new();
    std::fs::create_dir_all(home.kimi_home.as_ref().unwrap()).unwrap();
    let broken = "[providers\nkey = 1\n";
    std::fs::write(home.config(), broken).unwrap();
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    let run = run(
        Command::new(HOOKC)
            .args(["build", "--user"])
            .current_dir(p.dir.path())
            .env("HOME", home.dir.path())
            .env("KIMI_CODE_HOME", home.kimi_home.as_ref().unwrap()),
        None,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("hookc::merge-failed"), "{}", run.stderr);
    assert_eq!(home.read(), broken);
}

#[test]
fn a_force_push_is_refused_with_exit_2_and_the_reason_on_stderr() {
    let p = built();
    let run = guard(
        &p,
        "pre-tool",
        &pre_tool(
            "Bash",
            json!({"command": "git push --force origin main", "timeout": 60}),
        ),
    );
    assert_eq!(run.status, 2);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.starts_with("Do not force-push"),
        "{}",
        run.stderr
    );
}

#[test]
fn unrelated_calls_pass_silently_and_file_tools_are_checked_by_path() {
    let p = built();
    for stdin in [
        pre_tool("Bash", json!({"command": "cargo test"})),
        pre_tool("Read", json!({"path": "README.md"})),
        pre_tool("TodoList", json!({"todos": []})),
    ] {
        let run = guard(&p, "pre-tool", &stdin);
        assert_eq!(
            (run.status, run.stdout.as_str(), run.stderr.as_str()),
            (0, "", "")
        );
    }
    let read = guard(&p, "pre-tool", &pre_tool("Read", json!({"path": ".env"})));
    assert_eq!(read.status, 2);
    let write = guard(
        &p,
        "pre-tool",
        &pre_tool(
            "Write",
            json!({"path": ".hookc/policy.json", "content": "K=v"}),
        ),
    );
    assert_eq!(write.status, 2);
    let both = guard(
        &p,
        "pre-tool",
        &pre_tool(
            "Bash",
            json!({"command": "git reset --hard && git push -f"}),
        ),
    );
    assert!(
        both.stderr.starts_with("2 policy rules apply"),
        "{}",
        both.stderr
    );
}

#[test]
fn an_ask_is_refused_with_a_reason_that_says_to_ask_the_user() {
    let p = built();
    let run = guard(
        &p,
        "pre-tool",
        &pre_tool(
            "Edit",
            json!({"path": "migrations/0001_init.sql", "old_string": "a", "new_string": "b"}),
        ),
    );
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("add a new migration"), "{}", run.stderr);
    assert!(run.stderr.contains("Ask the user"), "{}", run.stderr);
}

#[test]
fn prompt_and_stop_guards_use_kimis_channels() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        &policy(
            r#"
guard "no-secrets" {
    event "prompt"
    regex "password"
    deny "Do not paste passwords."
}
guard "house-rules" {
    event "prompt"
    context "Answer in English."
}
guard "todo" {
    event "stop"
    block "Run the tests before you stop."
}
guard "mcp" {
    mcp "pay" "refund*"
    deny "Ask the user to refund."
}
"#,
        ),
    );
    p.build();
    assert!(p.exists(".hookc/kimi/prompt.sh") && p.exists(".hookc/kimi/stop.sh"));
    let prompt = |text: &str| {
        json!({"hook_event_name": "UserPromptSubmit", "session_id": "s", "cwd": "/repo",
            "prompt": [{"type": "text", "text": text}], "is_steer": false})
        .to_string()
    };
    let denied = guard(&p, "prompt", &prompt("my password is hunter2"));
    assert_eq!(
        (denied.status, denied.stderr.as_str()),
        (2, "Do not paste passwords.\n")
    );
    let context = guard(&p, "prompt", &prompt("hello"));
    assert_eq!(
        (context.status, context.stdout.as_str()),
        (0, "Answer in English.\n")
    );
    let stop = guard(
        &p,
        "stop",
        &json!({"hook_event_name": "Stop", "session_id": "s", "cwd": "/repo", "stop_hook_active": false})
            .to_string(),
    );
    assert_eq!(stop.status, 2);
    let mcp = guard(
        &p,
        "pre-tool",
        &pre_tool("mcp__pay__refund_all", json!({"id": 1})),
    );
    assert_eq!(
        (mcp.status, mcp.stderr.as_str()),
        (2, "Ask the user to refund.\n")
    );
}

/// Run an installed table's command as Kimi does: `/bin/sh -c` in `dir`.
fn fire(command: &str, dir: &Path, bin: Option<&Path>, path: &str, stdin: &str) -> Run {
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PWD", dir)
        .env("PATH", path)
        .env_remove("HOOKC_PROJECT_DIR")
        .env_remove("HOOKC_DEBUG");
    match bin {
        Some(bin) => cmd.env("HOOKC_BIN", bin),
        // No build recorded a hookc for the hooks: they look on PATH.
        None => cmd
            .env_remove("HOOKC_BIN")
            .env("XDG_STATE_HOME", crate::support::NO_PIN),
    };
    run(&mut cmd, Some(stdin.as_bytes()))
}

fn pre_tool_command(p: &Project) -> String {
    hook_tables(&p.read(".hookc/kimi/config.toml"))[0]["command"]
        .as_str()
        .unwrap()
        .to_owned()
}

const BARE_PATH: &str = "/usr/bin:/bin";

#[test]
fn the_installed_command_guards_the_session_project_with_its_own_policy() {
    let p = built();
    let command = pre_tool_command(&p);
    let sub = p.path("src/nested");
    std::fs::create_dir_all(&sub).unwrap();
    let denied = fire(
        &command,
        &sub,
        Some(Path::new(HOOKC)),
        BARE_PATH,
        &pre_tool("Bash", json!({"command": "git push -f"})),
    );
    assert_eq!(denied.status, 2, "{}", denied.stderr);
    assert!(denied.stderr.starts_with("Do not force-push"));
    // The project root comes from the project found, not the session's
    // directory: `migrations/` is matched from the root.
    let ask = fire(
        &command,
        &sub,
        Some(Path::new(HOOKC)),
        BARE_PATH,
        &pre_tool(
            "Edit",
            json!({"path": format!("{}/migrations/1.sql", p.dir.path().display()), "old_string": "a", "new_string": "b"}),
        ),
    );
    assert_eq!(ask.status, 2, "{}", ask.stderr);

    // Another project, with a policy that allows force pushes, decides for itself.
    let other = Project::new();
    other.write("policy.kdl", &policy(""));
    other.build();
    let allowed = fire(
        &command,
        other.dir.path(),
        Some(Path::new(HOOKC)),
        BARE_PATH,
        &pre_tool("Bash", json!({"command": "git push -f"})),
    );
    assert_eq!((allowed.status, allowed.stdout.as_str()), (0, ""));

    // Outside any hookc project there is nothing to guard, even without hookc.
    let elsewhere = tempfile::tempdir().unwrap();
    let nothing = fire(
        &command,
        elsewhere.path(),
        None,
        BARE_PATH,
        &pre_tool("Bash", json!({"command": "git push -f"})),
    );
    assert_eq!(
        (
            nothing.status,
            nothing.stdout.as_str(),
            nothing.stderr.as_str()
        ),
        (0, "", "")
    );
}

#[test]
fn missing_hookc_garbage_stdin_and_crashes_are_refused_with_exit_2() {
    let p = built();
    let command = pre_tool_command(&p);
    let payload = pre_tool("Bash", json!({"command": "ls"}));
    let missing = fire(&command, p.dir.path(), None, BARE_PATH, &payload);
    assert_eq!(missing.status, 2);
    assert!(
        missing
            .stderr
            .contains("hookc could not check this call, so it was refused")
            && missing.stderr.contains("the hookc program was not found"),
        "{}",
        missing.stderr
    );
    let garbage = fire(
        &command,
        p.dir.path(),
        Some(Path::new(HOOKC)),
        BARE_PATH,
        "this is not a payload",
    );
    assert_eq!(garbage.status, 2);
    assert!(garbage.stderr.contains("not JSON"), "{}", garbage.stderr);
    for (name, body) in [
        ("exit-1", "exit 1"),
        ("killed", "kill -9 $$"),
        ("exit-127", "exit 127"),
    ] {
        let fake = p.path(&format!("fake-{name}"));
        std::fs::write(&fake, format!("#!/bin/sh\n{body}\n")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let run = fire(&command, p.dir.path(), Some(&fake), BARE_PATH, &payload);
        assert_eq!(run.status, 2, "{name}");
        // A SIGKILL (137) is what the shim's deadline sends: not in time.
        let why = if name == "killed" {
            "hookc did not finish checking this call in time"
        } else {
            "hookc guard stopped with exit status"
        };
        assert!(run.stderr.contains(why), "{name}: {}", run.stderr);
    }
}
