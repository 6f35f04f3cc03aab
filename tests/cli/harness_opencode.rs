//! OpenCode: the generated plugin `.opencode/plugin/hookc.js`, imported and
//! called with Node the way OpenCode's loader does (every export is a plugin
//! factory; `tool.execute.before` throws to stop a call), with the real hookc
//! and with fakes on PATH; and `hookc guard --harness opencode` itself.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::support::{HOOKC, Project, Run, run};

fn policy(guards: &str) -> String {
    format!("targets \"opencode\"\ntimeout 3\n{guards}")
}

const FORCE_PUSH: &str = r#"
guard "no-force-push" {
    command "git" "push" { flag "-f" "--force"; }
    deny "Push without --force, or open a pull request."
}
"#;

const PLUGIN: &str = ".opencode/plugin/hookc.js";

fn node() -> &'static str {
    let found = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "the OpenCode plugin tests need `node` on PATH (OpenCode skips a plugin that does not parse, so it must be imported to be tested)"
    );
    "node"
}

/// Imports the plugin, checks its exports as OpenCode's loader does, and
/// calls `tool.execute.before` once; prints one JSON line with the outcome.
const DRIVER: &str = r#"
import { pathToFileURL } from "node:url";
const [plugin, tool, args, directory] = process.argv.slice(2);
const mod = await import(pathToFileURL(plugin).href);
const exports = Object.entries(mod);
const report = { exports: exports.map(([name, value]) => [name, typeof value]) };
if (exports.length !== 1 || typeof exports[0][1] !== "function") {
  console.log(JSON.stringify(report));
  process.exit(0);
}
const hooks = await exports[0][1]({ directory, worktree: directory, client: {}, project: {}, $: undefined });
report.hooks = Object.keys(hooks);
const output = { args: JSON.parse(args) };
try {
  await hooks["tool.execute.before"]({ tool, sessionID: "ses_1", callID: "call_1" }, output);
  report.outcome = "ran";
} catch (error) {
  report.outcome = "threw";
  report.isError = error instanceof Error;
  report.message = error.message;
}
console.log(JSON.stringify(report));
"#;

/// Node with [`DRIVER`], for the plugin at `plugin` (relative to a
/// project): OpenCode's, or Kilo Code CLI's copy of it.
pub(crate) struct Driver {
    dir: tempfile::TempDir,
    plugin: &'static str,
}

impl Driver {
    fn new() -> Self {
        Self::of(PLUGIN)
    }

    pub(crate) fn of(plugin: &'static str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("driver.mjs"), DRIVER).unwrap();
        Driver { dir, plugin }
    }

    /// Call the plugin for one tool call. `bin`: HOOKC_BIN (None: unset).
    pub(crate) fn call(
        &self,
        p: &Project,
        bin: Option<&Path>,
        path: &str,
        tool: &str,
        args: Value,
    ) -> Value {
        let mut cmd = Command::new(node());
        cmd.arg(self.dir.path().join("driver.mjs"))
            .arg(p.path(self.plugin))
            .arg(tool)
            .arg(args.to_string())
            .arg(p.dir.path())
            .current_dir(self.dir.path())
            .env("PATH", path)
            .env_remove("HOOKC_DEBUG");
        match bin {
            Some(bin) => cmd.env("HOOKC_BIN", bin),
            // No build recorded a hookc for the hooks: they look on PATH.
            None => cmd
                .env_remove("HOOKC_BIN")
                .env("XDG_STATE_HOME", crate::support::NO_PIN),
        };
        let run = run(&mut cmd, None);
        assert_eq!(run.status, 0, "driver failed: {}", run.stderr);
        serde_json::from_str(run.stdout.trim())
            .unwrap_or_else(|e| panic!("driver printed {:?}: {e}; {}", run.stdout, run.stderr))
    }
}

/// A PATH holding `node` and the usual tools but no hookc.
pub(crate) fn bare_path() -> String {
    let node_dir = Command::new("sh")
        .args(["-c", "dirname \"$(command -v node)\""])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    format!("{node_dir}:/usr/bin:/bin")
}

/// A directory holding a fake `hookc` with `body` as its script, first on PATH.
fn fake_hookc(p: &Project, name: &str, body: &str) -> String {
    let dir = p.path(&format!("fake-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = dir.join("hookc");
    std::fs::write(&bin, format!("#!/bin/sh\n{body}\n")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("{}:{}", dir.display(), bare_path())
}

/// [`fake_hookc`] that speaks the handshake (see `support::speaking_hookc`).
fn speaking_hookc(p: &Project, name: &str, body: &str) -> String {
    let status = "status=$?";
    let prove = crate::support::PROVE;
    fake_hookc(
        p,
        name,
        &format!("(\n{body}\n)\n{status}\n{prove}\nexit $status"),
    )
}

fn built() -> Project {
    let p = Project::bundled();
    p.build();
    p
}

#[test]
fn the_plugin_parses_as_a_module_and_holds_no_policy_text() {
    let p = built();
    let text = p.read(PLUGIN);
    let check = run(
        Command::new(node())
            .args(["--input-type=module", "--check"])
            .current_dir(p.dir.path()),
        Some(text.as_bytes()),
    );
    assert_eq!(check.status, 0, "{}", check.stderr);
    assert!(text.starts_with("// @generated by hookc from policy.kdl"));
    // No reason, guard name or pattern from the policy is in the code.
    for policy_text in [
        "force-push",
        "no-hard-reset",
        "env files",
        "migrations",
        "Do not",
    ] {
        assert!(
            !text.contains(policy_text),
            "plugin contains {policy_text:?}"
        );
    }
    assert_eq!(text.matches("\nexport ").count(), 1);
    assert!(text.contains("\"timeoutMs\":10000"), "policy timeout in ms");
}

#[test]
fn with_the_real_hookc_a_denied_call_throws_the_reason_and_others_run() {
    let p = built();
    let driver = Driver::new();
    let path = bare_path();
    let bin = Some(Path::new(HOOKC));

    let denied = driver.call(
        &p,
        bin,
        &path,
        "bash",
        json!({"command": "git push --force origin main", "description": "push"}),
    );
    assert_eq!(denied["exports"], json!([["HookcGuard", "function"]]));
    assert_eq!(denied["hooks"], json!(["tool.execute.before"]));
    assert_eq!(denied["outcome"], "threw");
    assert_eq!(denied["isError"], true);
    assert!(
        denied["message"]
            .as_str()
            .unwrap()
            .starts_with("Do not force-push"),
        "{denied}"
    );

    let ran = driver.call(
        &p,
        bin,
        &path,
        "bash",
        json!({"command": "cargo test", "timeout": 120000}),
    );
    assert_eq!(ran["outcome"], "ran", "{ran}");

    let read = driver.call(
        &p,
        bin,
        &path,
        "read",
        json!({"filePath": p.path(".env").display().to_string()}),
    );
    assert_eq!(read["outcome"], "threw");
    let relative = driver.call(
        &p,
        bin,
        &path,
        "write",
        json!({"filePath": ".hookc/policy.json", "content": "K=v"}),
    );
    assert_eq!(relative["outcome"], "threw");
    let patch = driver.call(
        &p,
        bin,
        &path,
        "apply_patch",
        json!({"patchText": "*** Begin Patch\n*** Add File: .opencode/plugin/other.js\n+x\n*** End Patch"}),
    );
    assert_eq!(patch["outcome"], "threw", "{patch}");
    let ask = driver.call(
        &p,
        bin,
        &path,
        "edit",
        json!({"filePath": "migrations/1.sql", "oldString": "a", "newString": "b"}),
    );
    assert_eq!(ask["outcome"], "threw");
    assert!(
        ask["message"].as_str().unwrap().contains("Ask the user"),
        "{ask}"
    );
    let other = driver.call(&p, bin, &path, "todowrite", json!({"todos": []}));
    assert_eq!(other["outcome"], "ran");
}

fn assert_could_not_run(outcome: &Value, why: &str) {
    assert_eq!(outcome["outcome"], "threw", "{why}: {outcome}");
    let message = outcome["message"].as_str().unwrap();
    assert!(
        message.starts_with("hookc could not check this call, so it was refused"),
        "{why}: {message}"
    );
    assert!(message.contains(why), "{why}: {message}");
}

#[test]
fn a_missing_hookc_throws_a_could_not_run_error() {
    let p = built();
    let driver = Driver::new();
    let outcome = driver.call(&p, None, &bare_path(), "bash", json!({"command": "ls"}));
    assert_could_not_run(&outcome, "the hookc program was not found");
    assert!(outcome["message"].as_str().unwrap().contains("HOOKC_BIN"));
    let pointed = driver.call(
        &p,
        Some(&p.path("no/such/hookc")),
        &bare_path(),
        "bash",
        json!({"command": "ls"}),
    );
    assert_could_not_run(&pointed, "not found");
}

#[test]
fn fake_hookcs_allow_deny_crash_hang_and_misspeak() {
    let p = Project::new();
    p.write("policy.kdl", &policy(FORCE_PUSH));
    p.build();
    let driver = Driver::new();
    let call = |path: &str| driver.call(&p, None, path, "bash", json!({"command": "ls"}));

    let allow = call(&speaking_hookc(&p, "allow", "cat >/dev/null; exit 0"));
    assert_eq!(allow["outcome"], "ran");

    let deny = call(&speaking_hookc(
        &p,
        "deny",
        r#"cat >/dev/null; echo '{"decision":"deny","reason":"Use the staging database."}'; echo 'Use the staging database.' >&2; exit 2"#,
    ));
    assert_eq!(deny["outcome"], "threw");
    assert_eq!(deny["message"], "Use the staging database.");

    let crash = call(&fake_hookc(
        &p,
        "crash",
        "echo 'hookc guard: the compiled policy is damaged' >&2; exit 1",
    ));
    assert_could_not_run(&crash, "exit status 1");
    assert!(
        crash["message"]
            .as_str()
            .unwrap()
            .contains("policy is damaged")
    );

    let killed = call(&fake_hookc(&p, "killed", "kill -9 $$"));
    assert_could_not_run(&killed, "was killed by SIGKILL");

    // An exit 2 from a hookc too old for the handshake (its usage error).
    let usage = call(&fake_hookc(
        &p,
        "usage",
        "echo \"error: invalid value 'opencode' for '--harness <HARNESS>'\" >&2; exit 2",
    ));
    assert_could_not_run(&usage, "answered, but not as hookc guard does");
    // Any other program as HOOKC_BIN.
    for bin in ["/bin/true", "/bin/echo"] {
        let other = driver.call(
            &p,
            Some(Path::new(bin)),
            &bare_path(),
            "bash",
            json!({"command": "git push --force"}),
        );
        assert_could_not_run(&other, "answered, but not as hookc guard does");
    }
    // The same from a hookc that proves itself but gives no JSON answer.
    let usage = call(&speaking_hookc(
        &p,
        "usage-proven",
        "echo \"error: invalid value 'opencode' for '--harness <HARNESS>'\" >&2; exit 2",
    ));
    assert_could_not_run(&usage, "exit status 2");

    let hang = call(&fake_hookc(&p, "hang", "sleep 30"));
    assert_could_not_run(&hang, "did not answer within 3000 ms");
}

fn guard(p: &Project, stdin: &str) -> Run {
    run(
        Command::new(HOOKC)
            .args([
                "guard",
                "--harness",
                "opencode",
                "--event",
                "pre-tool",
                "--policy",
            ])
            .arg(p.path(".hookc/policy.json"))
            .env_remove("HOOKC_DEBUG"),
        Some(stdin.as_bytes()),
    )
}

#[test]
fn guard_answers_exit_2_with_json_to_refuse_and_exit_0_otherwise() {
    let p = built();
    // The payload the plugin sent in the oracle run.
    let payload = |tool: &str, args: Value| {
        json!({"tool": tool, "sessionID": "ses_dd659f", "callID": "call_c141b148", "args": args,
            "cwd": "/repo", "root": "/repo/"})
        .to_string()
    };
    let denied = guard(
        &p,
        &payload("bash", json!({"command": "git push --force origin main"})),
    );
    assert_eq!(denied.status, 2);
    let out: Value = serde_json::from_str(&denied.stdout).unwrap();
    assert_eq!(out["decision"], "deny");
    assert!(
        out["reason"]
            .as_str()
            .unwrap()
            .starts_with("Do not force-push")
    );
    let both = guard(
        &p,
        &payload("bash", json!({"command": "git reset --hard; git push -f"})),
    );
    assert!(
        both.stderr.starts_with("2 policy rules apply"),
        "{}",
        both.stderr
    );
    let fine = guard(&p, &payload("bash", json!({"command": "ls"})));
    assert_eq!(
        (fine.status, fine.stdout.as_str(), fine.stderr.as_str()),
        (0, "", "")
    );
    for garbage in [
        "not json",
        "[]",
        r#"{"tool":"bash","args":{"command":1}}"#,
        r#"{"tool":"read","args":{}}"#,
    ] {
        let run = guard(&p, garbage);
        assert_eq!((run.status, run.stdout.as_str()), (1, ""), "{garbage}");
    }
}

#[test]
fn mcp_tools_are_split_at_the_first_underscore() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        &policy(
            r#"
guard "refunds" {
    mcp "payments" "refund*"
    deny "Ask the user to issue refunds."
}
"#,
        ),
    );
    p.build();
    let run = guard(
        &p,
        &json!({"tool": "payments_refund_all", "args": {"id": 3}, "root": "/repo"}).to_string(),
    );
    assert_eq!(
        (run.status, run.stderr.as_str()),
        (2, "Ask the user to issue refunds.\n")
    );
}
