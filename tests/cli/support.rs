//! A small builder for running hookc in a temporary project.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub const HOOKC: &str = env!("CARGO_BIN_EXE_hookc");

/// The repository root (where policy.kdl and out/ live).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `SNAPSHOTS=overwrite cargo test` rewrites golden files instead of comparing.
pub fn overwrite() -> bool {
    std::env::var("SNAPSHOTS").is_ok_and(|v| v == "overwrite")
}

/// Compare `actual` with the golden file at `path`, or rewrite it.
pub fn golden(path: &Path, actual: &str) {
    if overwrite() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run `SNAPSHOTS=overwrite cargo test`",
            path.display()
        )
    });
    pretty_assertions::assert_eq!(
        expected,
        actual,
        "{} is stale; if the change is intended, `SNAPSHOTS=overwrite cargo test` rewrites it",
        path.display()
    );
}

pub struct Project {
    pub dir: tempfile::TempDir,
}

impl Project {
    pub fn new() -> Self {
        Self {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    /// A project holding the repository's bundled policy.kdl.
    pub fn bundled() -> Self {
        let p = Self::new();
        p.write(
            "policy.kdl",
            &std::fs::read_to_string(repo().join("policy.kdl")).unwrap(),
        );
        p
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub fn write(&self, rel: &str, text: &str) -> &Self {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        self
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    pub fn exists(&self, rel: &str) -> bool {
        self.path(rel).exists()
    }

    /// Run `hookc ARGS` in the project.
    pub fn hookc(&self, args: &[&str]) -> Run {
        run(
            Command::new(HOOKC).args(args).current_dir(self.dir.path()),
            None,
        )
    }

    pub fn build(&self) -> Run {
        let run = self.hookc(&["build"]);
        assert_eq!(run.status, 0, "build failed:\n{}{}", run.stdout, run.stderr);
        run
    }
}

#[derive(Debug)]
pub struct Run {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn run(command: &mut Command, stdin: Option<&[u8]>) -> Run {
    // `cargo test` sets LD_LIBRARY_PATH (its build folders) for the tests;
    // no user's call has it, and `hookc exec` stops a guarded program that
    // starts with it. A test that wants it sets it itself.
    if !command.get_envs().any(|(k, _)| k == "LD_LIBRARY_PATH") {
        command.env_remove("LD_LIBRARY_PATH");
    }
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("spawn");
    {
        let mut pipe = child.stdin.take().unwrap();
        if let Some(bytes) = stdin {
            // The child may exit before reading everything; that is its right.
            let _ = pipe.write_all(bytes);
        }
    }
    child.wait_with_output().unwrap().into()
}

/// What harness `id` makes of a pre-tool hook that ended as `r`: its own
/// decoding of the hook's output (`Harness::outcome`).
pub fn pre_tool_outcome(id: hookc::ir::HarnessId, r: &Run) -> hookc::harness::Outcome {
    hookc::harness::get(id).unwrap().outcome(
        hookc::ir::Event::PreTool,
        &hookc::harness::Observation {
            exit: Some(r.status),
            stdout: r.stdout.clone(),
            stderr: r.stderr.clone(),
            ..hookc::harness::Observation::default()
        },
    )
}

/// The shells a user's `$SHELL` may be, of those installed here: bash,
/// dash, zsh and fish (`.ci/run` installs the last two). For harnesses that
/// run hook commands with `$SHELL -c` (Letta Code, CodeBuddy Code).
pub fn user_shells() -> Vec<&'static str> {
    ["/bin/bash", "/bin/dash", "/usr/bin/zsh", "/usr/bin/fish"]
        .into_iter()
        .filter(|shell| Path::new(shell).is_file())
        .collect()
}

/// A process's output as a `Run` (status -1 for a death by a signal).
impl From<Output> for Run {
    fn from(out: Output) -> Run {
        Run {
            status: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

/// A Claude Code PreToolUse payload for the Bash tool, as the oracle recorded it.
/// The command a hook's answer runs instead of the model's when it holds
/// the call to hookc's run-time judge (`hookc exec`), if it does (Claude
/// Code on Linux, for a line hookc cannot read in full).
pub fn supervised_command(stdout: &str) -> Option<String> {
    let answer: serde_json::Value = serde_json::from_str(stdout.trim()).ok()?;
    let command = answer
        .pointer("/hookSpecificOutput/updatedInput/command")?
        .as_str()?;
    command
        .contains("' exec --harness ")
        .then(|| command.to_owned())
}

/// `command` (a supervised one, see [`supervised_command`]) run as the
/// harness's shell tool would, in `dir`.
pub fn run_supervised(command: &str, dir: &Path) -> Run {
    run(
        Command::new("sh").args(["-c", command]).current_dir(dir),
        None,
    )
}

/// The command a hook handed back to run `c=$(printf 'gi%s' t); $c push
/// --force origin main` under hookc's run-time judge, run in `dir`: the
/// judge stops it at the push, with the bundled policy's guard named.
pub fn assert_supervised_push_is_stopped(command: &str, dir: &Path) {
    let ran = run_supervised(command, dir);
    assert!(
        ran.stderr
            .contains("hookc exec: guard no-force-push stopped git push --force origin main"),
        "{command}: {ran:?}"
    );
}

pub fn claude_bash(command: &str) -> String {
    serde_json::json!({
        "session_id": "s1",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": "/repo",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "toolu_1"
    })
    .to_string()
}

pub fn claude_tool(tool: &str, input: serde_json::Value) -> String {
    serde_json::json!({
        "session_id": "s1",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": "/repo",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": input,
        "tool_use_id": "toolu_1"
    })
    .to_string()
}

/// A PATH with the usual tools but no hookc.
pub const BARE_PATH: &str = "/usr/bin:/bin";

/// An `XDG_STATE_HOME` where no `hookc build` recorded the hookc the hooks
/// run (`src/pin.rs`): a hook run with it looks for hookc on PATH, as on a
/// machine where hookc never built.
pub const NO_PIN: &str = "/nonexistent/hookc-test-state";

/// A PATH on which the hookc under test is found.
pub fn path_with_hookc() -> String {
    let dir = Path::new(HOOKC).parent().unwrap().display().to_string();
    format!("{dir}:{BARE_PATH}")
}

/// A JSON file of the project, parsed.
pub fn json_file(p: &Project, rel: &str) -> serde_json::Value {
    serde_json::from_str(&p.read(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Run a hook command the way harnesses do: `sh -c COMMAND` in `cwd`, with
/// exactly the environment given (plus a PATH), the payload on stdin.
///
/// The trailing `exit` keeps `sh` from exec'ing the hook, so the hook's
/// parent is this shell, with this environment, and not the test runner
/// (the shims look for hookc on their parent's PATH too).
pub fn sh_c(command: &str, cwd: &Path, path: &str, env: &[(&str, &str)], stdin: &str) -> Run {
    let mut c = Command::new("/bin/sh");
    c.arg("-c")
        .arg(format!("{command}\nexit $?"))
        .current_dir(cwd)
        .env_clear()
        .env("PATH", path)
        .env("HOME", cwd)
        // hookc's state (the record of each build a hook first sees) kept
        // out of the project, as on a real machine; a test that needs its
        // own passes XDG_STATE_HOME in `env`.
        .env(
            "XDG_STATE_HOME",
            std::env::temp_dir().join("hookc-tests-state"),
        );
    for (k, v) in env {
        c.env(k, v);
    }
    run(&mut c, Some(stdin.as_bytes()))
}

/// `hookc guard --harness HARNESS --event EVENT` on `payload`, with the
/// project's compiled policy, run in the project as a hook's command would
/// be run (no `HOOKC_DEBUG`, no `CLAUDE_PROJECT_DIR` from the test's
/// environment).
pub fn guard(p: &Project, harness: &str, event: &str, payload: impl std::fmt::Display) -> Run {
    let mut command = Command::new(HOOKC);
    command
        .args(["guard", "--harness", harness, "--event", event, "--policy"])
        .arg(p.path(".hookc/policy.json"))
        .current_dir(p.dir.path())
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("HOOKC_DEBUG");
    run(&mut command, Some(payload.to_string().as_bytes()))
}

/// `hookc guard --harness HARNESS --event pre-tool --policy POLICY` on
/// `payload`, started by a stand-in for the harness's own process: a script
/// `stand-in/NAME` in the project, given `args`, which hookc finds among its
/// ancestors and reads as the harness's command line. Runs in the project
/// with `HOME` at `home` there (which the caller creates and fills), and
/// without the test's `HOOKC_SUPERVISE`, `HOOKC_DEBUG` and Copilot CLI's
/// settings; `env` is added.
pub fn guard_under(
    p: &Project,
    name: &str,
    (harness, policy): (&str, &str),
    args: &[&str],
    env: &[(&str, &str)],
    payload: &str,
) -> Run {
    let file = p.path("payload.json");
    std::fs::write(&file, payload).unwrap();
    let rel = format!("stand-in/{name}");
    // Not `exec`: the stand-in stays the guard's parent.
    p.write(
        &rel,
        &format!(
            "#!/bin/sh\n'{HOOKC}' guard --harness {harness} --event pre-tool --policy '{}' < '{}'\nexit $?\n",
            p.path(policy).display(),
            file.display()
        ),
    );
    make_executable(&p.path(&rel));
    let mut command = Command::new(p.path(&rel));
    command
        .args(args)
        .current_dir(p.dir.path())
        .env("HOME", p.path("home"))
        .env_remove("HOOKC_SUPERVISE")
        .env_remove("HOOKC_DEBUG")
        .env_remove("COPILOT_HOME")
        .env_remove("COPILOT_ALLOW_ALL")
        .envs(env.iter().copied());
    run(&mut command, None)
}

/// For each guard of the project's policy, the targets whose harness
/// `hookc check` warns cannot carry it as written (`hookc::unsupported`),
/// by their words (`codex`).
pub fn unsupported_targets(p: &Project) -> std::collections::BTreeMap<String, Vec<String>> {
    let out = p.hookc(&["check", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).expect(&out.stderr);
    let mut targets = std::collections::BTreeMap::<String, Vec<String>>::new();
    for d in report["diagnostics"].as_array().into_iter().flatten() {
        let guard = d["labels"][0]["text"]
            .as_str()
            .and_then(|l| l.strip_prefix("in guard `")?.strip_suffix('`'));
        let word = d["message"]
            .as_str()
            .and_then(|m| Some(m.split_once(':')?.0));
        if let (true, Some(guard), Some(word)) = (d["code"] == "hookc::unsupported", guard, word) {
            targets
                .entry(guard.to_owned())
                .or_default()
                .push(word.to_owned());
        }
    }
    targets
}

/// The lines `hookc guard` appended to a `HOOKC_DEBUG` log, parsed.
pub fn debug_log(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The bundled policy.kdl with other targets.
pub fn bundled_for(targets: &str) -> Project {
    let p = Project::new();
    let policy = std::fs::read_to_string(repo().join("policy.kdl")).unwrap();
    // It has no `targets` of its own (it builds every harness).
    p.write("policy.kdl", &format!("{policy}\ntargets {targets}\n"));
    p
}

pub fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// What a `hookc guard` prints after its answer to prove it is one: the
/// nonce the shim put in HOOKC_NONCE (see `templates/shim.sh.hbs`).
pub const PROVE: &str = r#"printf '\nhookc guard answered %s\n' "$HOOKC_NONCE""#;

/// A fake `hookc` that speaks the shim's handshake: it runs `body` in a
/// subshell, then proves itself and exits with the body's status (for tests
/// of what the generated hooks make of hookc's answers).
pub fn speaking_hookc(p: &Project, name: &str, body: &str) -> PathBuf {
    fake_hookc(
        p,
        name,
        &format!("(\n{body}\n)\nstatus=$?\n{PROVE}\nexit $status"),
    )
}

/// A fake `hookc` that runs `body` (for crash and exit-status tests).
pub fn fake_hookc(p: &Project, name: &str, body: &str) -> PathBuf {
    let fake = p.path(&format!("fake-{name}"));
    std::fs::write(&fake, format!("#!/bin/sh\n{body}\n")).unwrap();
    make_executable(&fake);
    fake
}

/// The processes whose parent is `pid`, from /proc.
pub fn children_of(pid: u32) -> Vec<i32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid …`: the name may hold spaces and parens.
        let after = &stat[stat.rfind(')').map_or(0, |i| i + 1)..];
        let ppid = after
            .split_whitespace()
            .nth(1)
            .and_then(|f| f.parse::<u32>().ok());
        if ppid == Some(pid) {
            found.push(entry.file_name().to_str().unwrap().parse().unwrap());
        }
    }
    found
}

/// The record `hookc build` kept of its last build of a project, in the
/// state folder `state` (`…/hookc` below `XDG_STATE_HOME`).
pub fn build_record(state: &Path) -> PathBuf {
    std::fs::read_dir(state.join("builds"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|f| f.extension().is_some_and(|e| e == "json"))
        .expect("the build was recorded")
}

/// Copy the tree `from` into `to`, every file writable (a fixture checked
/// out read-only stays a project the test may change).
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            std::fs::create_dir_all(&dst).unwrap();
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
            let mut perms = std::fs::metadata(&dst).unwrap().permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            perms.set_readonly(false);
            std::fs::set_permissions(&dst, perms).unwrap();
        }
    }
}

/// The real-world corpus of hook projects (`tests/fixtures/realworld/`).
pub fn realworld() -> PathBuf {
    repo().join("tests/fixtures/realworld")
}

/// The names of the corpus's projects, sorted.
pub fn realworld_projects() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(realworld())
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A fresh copy of the corpus's project `name`.
pub fn realworld_project(name: &str) -> Project {
    let p = Project::new();
    copy_tree(&realworld().join(name), p.dir.path());
    p
}

/// The script in a `…\powershell.exe … -EncodedCommand B64 || exit 2` line.
pub fn encoded_script(command: &str) -> String {
    let b64 = command
        .split(' ')
        .skip_while(|w| *w != "-EncodedCommand")
        .nth(1)
        .unwrap_or_else(|| panic!("{command}"));
    let units: Vec<u16> = base64_decode(b64)
        .chunks(2)
        .map(|p| u16::from_le_bytes([p[0], p[1]]))
        .collect();
    String::from_utf16(&units).unwrap()
}

/// The script a line without `$` runs (`Invoke-Expression` on UTF-8 in
/// base64).
pub fn decoded_line(line: &str) -> String {
    let encoded = line
        .strip_prefix(
            "Invoke-Expression ([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('",
        )
        .and_then(|rest| rest.strip_suffix("')))"))
        .unwrap_or_else(|| panic!("{line}"));
    String::from_utf8(base64_decode(encoded)).unwrap()
}

/// Standard base64 (with padding) decoded.
pub fn base64_decode(b64: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bits: Vec<u8> = b64.bytes().filter(|&c| c != b'=').map(value).collect();
    bits.chunks(4)
        .flat_map(|c| {
            let n = c
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &v)| n | u32::from(v) << (18 - 6 * i));
            (0..c.len() - 1).map(move |i| (n >> (16 - 8 * i)) as u8)
        })
        .collect()
}
