//! Every registered harness's pre-tool hook, run the way the harness runs
//! it, in a project built for all of them: the shared machinery of the
//! tests that must hold in every harness (tests/cli/shim.rs, tamper.rs).

use std::path::Path;
use std::process::Command;

use hookc::harness::{self, Harness, Observation, Outcome};
use hookc::ir::{Event, ExampleCall, HarnessId};

use crate::support::{HOOKC, Project, Run, run};

/// Issue 36, another program answering as hookc: a project built for every
/// harness, its `hookc build` recorded in its own state directory.
pub struct Pinned {
    pub p: Project,
    pub state: std::path::PathBuf,
    pub home: std::path::PathBuf,
}

impl Pinned {
    pub fn new() -> Pinned {
        let p = Project::new();
        let policy = std::fs::read_to_string(crate::support::repo().join("policy.kdl")).unwrap();
        let targets: Vec<String> = harness::all()
            .iter()
            .map(|h| format!("\"{}\"", h.id()))
            .collect();
        p.write(
            "policy.kdl",
            &format!("{policy}\ntargets {}\n", targets.join(" ")),
        );
        let (state, home) = (p.path("state"), p.path("home"));
        std::fs::create_dir_all(&home).unwrap();
        let built = run(
            Command::new(HOOKC)
                .arg("build")
                .current_dir(p.dir.path())
                .env("HOME", &home)
                .env("XDG_STATE_HOME", &state),
            None,
        );
        assert_eq!(built.status, 0, "{}{}", built.stdout, built.stderr);
        assert!(
            !built.stderr.contains("pin-failed"),
            "the build did not record itself: {}",
            built.stderr
        );
        Pinned { p, state, home }
    }

    /// The copy of hookc the build recorded for the hooks.
    pub fn pinned(&self) -> std::path::PathBuf {
        let pin = std::fs::read_to_string(self.state.join("hookc/pin")).unwrap();
        std::path::PathBuf::from(pin.lines().next().unwrap())
    }
}

/// `program`'s absolute path, looked up on this process's PATH (the hooks
/// run with a PATH of their own); `None` when it is not installed.
pub fn installed(program: &str) -> Option<std::path::PathBuf> {
    let out = Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .ok()?;
    let found = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    (out.status.success() && found.starts_with('/')).then(|| found.into())
}

/// The PATH the hooks run with: the system's folders, and those of `node`
/// and `python3` (which run OpenCode's plugin and the Agent SDK's
/// callbacks) where they are installed.
pub fn hooks_path() -> String {
    let mut path = crate::support::BARE_PATH.to_owned();
    for tool in ["node", "python3"] {
        if let Some(dir) = installed(tool).as_deref().and_then(Path::parent) {
            path.push_str(&format!(":{}", dir.display()));
        }
    }
    path
}

/// What a harness makes of what its hook printed.
type Decode = Box<dyn Fn(&Run) -> Outcome>;

/// How the harness `h` ends up for its pre-tool hook on `command`, run the
/// way it runs it (its hook command under its shell, OpenCode's plugin
/// loaded by node, the Agent SDK's Python callbacks), with `path` as PATH
/// and `state` as the state directory; `None` where what runs it is not
/// installed here.
pub fn through_the_hook(
    h: &dyn Harness,
    root: &Path,
    home: &Path,
    state: &Path,
    path: &str,
    command: &str,
) -> Option<Outcome> {
    through_the_hook_with(h, root, home, state, path, command, &[])
}

/// [`through_the_hook`] with `env` also in the harness's environment (as
/// the user's shell gave it to the harness).
pub fn through_the_hook_with(
    h: &dyn Harness,
    root: &Path,
    home: &Path,
    state: &Path,
    path: &str,
    command: &str,
    env: &[(&str, &str)],
) -> Option<Outcome> {
    let call = ExampleCall {
        tool: None,
        command: Some(command.to_owned()),
        path: None,
        text: None,
    };
    let payload = h
        .payload(Event::PreTool, &call, root)
        .unwrap_or_else(|| panic!("{}: no payload for a shell call", h.id()));
    let mut harness_env: Vec<(&str, String)> = Vec::new();
    let (mut c, decode): (Command, Decode) = if let Some(plugin) = h.plugin() {
        let node = installed("node")?;
        let driver = root.join(format!("{}-driver.mjs", h.id()));
        std::fs::write(&driver, plugin.driver).unwrap();
        let mut c = Command::new(node);
        c.arg(&driver).arg(root.join(plugin.file));
        (c, Box::new(move |r: &Run| (plugin.outcome)(&r.stdout)))
    } else if h.id() == HarnessId::ClaudeAgentSdk {
        return sdk_callbacks(root, home, state, path, env, &payload);
    } else {
        let hook = h
            .hook_command(root, Event::PreTool, &payload)
            .unwrap_or_else(|| panic!("{}: no pre-tool hook for a shell call", h.id()));
        // A `/bin/sh` stands in for the harness and starts the hook's shell,
        // as `hookc test` does.
        let mut c = Command::new("/bin/sh");
        c.args(["-c", "\"$0\" -c \"$1\"\nexit $?", hook.shell, &hook.command]);
        harness_env = hook.env;
        let id = h.id();
        (
            c,
            Box::new(move |r: &Run| {
                let obs = Observation {
                    exit: Some(r.status),
                    stdout: r.stdout.clone(),
                    stderr: r.stderr.clone(),
                    timed_out: false,
                };
                harness::get(id).unwrap().outcome(Event::PreTool, &obs)
            }),
        )
    };
    c.current_dir(root)
        .env_clear()
        .env("PATH", path)
        .env("HOME", home)
        .env("XDG_STATE_HOME", state)
        .env("PWD", root)
        .envs(env.iter().copied())
        .envs(harness_env);
    let r = run(&mut c, Some(payload.to_string().as_bytes()));
    Some(decode(&r))
}

/// The Agent SDK's callbacks, as the app imports them and the SDK calls
/// them: the Python module, and the JavaScript one, which must agree.
/// `None` when neither language is installed.
fn sdk_callbacks(
    root: &Path,
    home: &Path,
    state: &Path,
    path: &str,
    env: &[(&str, &str)],
    payload: &serde_json::Value,
) -> Option<Outcome> {
    let dir = root.join(".hookc/claude-agent-sdk");
    let mut runs: Vec<(&str, Command)> = Vec::new();
    if let Some(python) = installed("python3") {
        let mut c = Command::new(python);
        c.arg("-c")
            .arg(
                "import asyncio, json, sys\n\
                 sys.path.insert(0, sys.argv[1])\n\
                 import hookc_hooks\n\
                 data = json.load(sys.stdin)\n\
                 print(json.dumps(asyncio.run(hookc_hooks.CALLBACKS['PreToolUse'](data, None, {}))))",
            )
            .arg(&dir);
        runs.push(("python", c));
    }
    if let Some(node) = installed("node") {
        let mut c = Command::new(node);
        c.args(["--input-type=module", "-e"])
            .arg(
                "import { pathToFileURL } from 'node:url';\n\
                 const { hookcHooks } = await import(pathToFileURL(process.argv[1]).href);\n\
                 let text = '';\n\
                 for await (const chunk of process.stdin) text += chunk;\n\
                 const data = JSON.parse(text);\n\
                 console.log(JSON.stringify(await hookcHooks.PreToolUse[0].hooks[0](data, undefined, {})));",
            )
            .arg(dir.join("hookc_hooks.mjs"));
        runs.push(("javascript", c));
    }
    let mut outcomes: Vec<(&str, Outcome)> = Vec::new();
    for (language, mut c) in runs {
        c.current_dir(root)
            .env_clear()
            .env("PATH", path)
            .env("HOME", home)
            .env("XDG_STATE_HOME", state)
            .envs(env.iter().copied());
        let r = run(&mut c, Some(payload.to_string().as_bytes()));
        let answer: serde_json::Value = serde_json::from_str(r.stdout.trim())
            .unwrap_or_else(|e| panic!("{language}: {e}: {}{}", r.stdout, r.stderr));
        let reason = answer
            .pointer("/hookSpecificOutput/permissionDecisionReason")
            .and_then(|d| d.as_str())
            .map(str::to_owned);
        let outcome = match answer.pointer("/hookSpecificOutput/permissionDecision") {
            Some(d) if d == "deny" => Outcome::blocks(reason, "permissionDecision deny"),
            _ => Outcome::proceeds("no refusal"),
        };
        outcomes.push((language, outcome));
    }
    if let [(a, first), (b, second)] = outcomes.as_slice() {
        assert_eq!(
            first.proceeds, second.proceeds,
            "the {a} and {b} callbacks disagree: {first:?} {second:?}"
        );
    }
    outcomes.into_iter().next().map(|(_, o)| o)
}

/// What the model (or, where the harness shows it only there, the user)
/// reads of an outcome.
pub fn said(o: &Outcome) -> String {
    format!(
        "{}\n{}",
        o.model_reads.as_deref().unwrap_or(""),
        o.user_sees.as_deref().unwrap_or("")
    )
}
