//! Runs command lines in the sandbox (sandbox.sh) and decides, from what
//! really happened there, whether something the policy denies ran.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What one line did, over every shell and both runs.
#[derive(Debug, Default, Clone)]
pub struct Outcome {
    /// Denied things that happened: "bash/1: rm -rf ." or a canary event.
    pub denied: Vec<String>,
    /// Every argv that reached a stand-in, synthesised as a command line.
    pub ran: BTreeSet<String>,
}

#[derive(Clone)]
pub struct Sandbox {
    pub script: PathBuf,
    /// Per-sandbox exchange directories go here.
    pub work: PathBuf,
    /// The scratch mount point, the same path in every sandbox.
    pub root: PathBuf,
    pub shells: Vec<String>,
    pub programs: Vec<String>,
    /// Programs the sandbox puts on PATH for the generated lines of class
    /// 11 (`generate::wrappers`).
    pub wrappers: Vec<String>,
    pub jobs: usize,
    /// Run each line under the run-time judge: `hookc exec` (this hookc),
    /// with the policy's build (this folder, copied into the project the
    /// line runs in).
    pub exec: Option<Supervised>,
}

/// What a supervised run needs: the hookc that supervises, and the files
/// of the policy's build.
#[derive(Clone)]
pub struct Supervised {
    pub hookc: PathBuf,
    pub built: PathBuf,
}

/// Whether the sandbox can be made here; the reason when it cannot.
pub fn unavailable() -> Option<String> {
    let uid = Command::new("id").arg("-u").output();
    match uid {
        Ok(o) if String::from_utf8_lossy(&o.stdout).trim() == "0" => {}
        Ok(_) => return Some("not running as root".into()),
        Err(e) => return Some(format!("cannot run `id -u`: {e}")),
    }
    let probe = Command::new("unshare")
        .args(UNSHARE)
        .args(["true"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output();
    match probe {
        Ok(o) if o.status.success() => None,
        Ok(o) => Some(format!(
            "`unshare` cannot make the namespaces: {}",
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Err(e) => Some(format!("`unshare` is not available: {e}")),
    }
}

const UNSHARE: &[&str] = &[
    "--user",
    "--map-root-user",
    "--mount",
    "--pid",
    "--net",
    "--fork",
    "--kill-child",
    "--mount-proc",
];

/// One run of a line: the argvs its stand-ins logged, git's own trace of
/// the built-in commands it ran, and the canary and push events.
#[derive(Debug, Default)]
pub struct Run {
    pub shell: String,
    pub flip: u8,
    pub argvs: Vec<Vec<String>>,
    pub events: Vec<String>,
}

impl Sandbox {
    /// Runs every line under every shell, twice; `jobs` sandboxes at once.
    pub fn run(&self, lines: &[String]) -> Vec<Vec<Run>> {
        let _ = std::fs::remove_dir_all(&self.work);
        std::fs::create_dir_all(&self.root).unwrap();
        let jobs = self.jobs.max(1).min(lines.len().max(1));
        let mut children = Vec::new();
        for j in 0..jobs {
            let io = self.work.join(format!("io{j}"));
            for d in ["cases", "results", "root"] {
                std::fs::create_dir_all(io.join(d)).unwrap();
            }
            std::fs::write(io.join("programs"), self.programs.join("\n") + "\n").unwrap();
            std::fs::write(io.join("wrappers"), self.wrappers.join("\n") + "\n").unwrap();
            std::fs::write(io.join("shells"), self.shells.join(" ") + "\n").unwrap();
            if let Some(exec) = &self.exec {
                std::fs::write(
                    io.join("exec"),
                    format!("{}\n{}\n", exec.hookc.display(), exec.built.display()),
                )
                .unwrap();
            }
            let mut todo = String::new();
            for (i, line) in lines.iter().enumerate().filter(|(i, _)| i % jobs == j) {
                std::fs::write(io.join("cases").join(i.to_string()), line).unwrap();
                let flips = if steered(line) { "0 1" } else { "0" };
                std::fs::write(io.join("cases").join(format!("{i}.flips")), flips).unwrap();
                todo.push_str(&format!("{i}\n"));
            }
            std::fs::write(io.join("todo"), todo).unwrap();
            let child = Command::new("unshare")
                .args(UNSHARE)
                .arg("bash")
                .arg(&self.script)
                .arg(&io)
                .arg(&self.root)
                .stdin(Stdio::null())
                .stdout(Stdio::inherit())
                .stderr(Stdio::piped())
                .spawn()
                .expect("start the sandbox");
            children.push((io, child));
        }
        let mut dirs = Vec::new();
        for (io, child) in children {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "the sandbox failed ({}):\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            );
            dirs.push(io);
        }
        lines
            .iter()
            .enumerate()
            .map(|(i, line)| {
                let io = &dirs[i % jobs];
                let mut runs = Vec::new();
                for shell in &self.shells {
                    let flips = if steered(line) { 2 } else { 1 };
                    for flip in 0..flips {
                        let dir = io.join("results").join(format!("{i}.{shell}.{flip}"));
                        assert!(
                            dir.join("status").exists(),
                            "the sandbox did not run line {i} under {shell}: {}",
                            dir.display()
                        );
                        runs.push(read_run(&dir, shell, flip));
                    }
                }
                runs
            })
            .collect()
    }
}

/// Whether exit statuses could change what a line runs: then it runs a
/// second time with every neutral stand-in failing. A line without any of
/// these words runs the same commands whatever they return.
pub fn steered(line: &str) -> bool {
    [
        "&&", "||", "if", "while", "until", "$?", "-e", "ERR", "errexit", "!", "base64",
    ]
    .iter()
    .any(|w| line.contains(w))
}

fn read_run(dir: &Path, shell: &str, flip: u8) -> Run {
    let mut run = Run {
        shell: shell.into(),
        flip,
        ..Run::default()
    };
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        let path = dir.join(&name);
        if name == "events" {
            let text = std::fs::read_to_string(&path).unwrap();
            run.events
                .extend(text.lines().filter(|l| !l.is_empty()).map(String::from));
        } else if name.ends_with(".trace") {
            let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
            for l in text.lines() {
                if let Some(rest) = l.split_once("trace: built-in: ").map(|(_, r)| r) {
                    run.argvs.push(split_sq(rest));
                }
            }
        } else if name.starts_with(|c: char| c.is_ascii_digit()) {
            let bytes = std::fs::read(&path).unwrap();
            let mut argv: Vec<String> = bytes
                .split(|b| *b == 0)
                .map(|w| String::from_utf8_lossy(w).into_owned())
                .collect();
            if argv.last().is_some_and(String::is_empty) {
                argv.pop();
            }
            if !argv.is_empty() {
                run.argvs.push(argv);
            }
        }
    }
    run
}

/// Splits git's trace of an argv (words quoted the way `sq_quote` does).
pub fn split_sq(s: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    cur.push(q);
                }
            }
            '\\' => {
                in_word = true;
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// A word as a plain shell word: bare when it is safe, single-quoted else.
pub fn quote(w: &str) -> String {
    let bare = !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./=:+,@%-".contains(c))
        || w == "~"
        || w == "*"
        || w.starts_with("~/")
            && w[2..]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_./-".contains(c));
    if bare {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

/// Asks the compiled policy about one Claude Bash call.
pub struct Hookc {
    pub exe: PathBuf,
    pub policy: PathBuf,
    cache: HashMap<String, (Decision, String)>,
    /// The reasons of the policy's guards: a refusal that gives one of them
    /// is a pattern's; any other (opacity) is not.
    reasons: Vec<String>,
    /// `command_denies`, remembered.
    by_command: HashMap<String, bool>,
    /// Long options each git subcommand (and rm) accepts, for abbreviations.
    options: HashMap<String, Vec<String>>,
    /// The project the calls are made in, as the guard sees it (its files
    /// made again outside the sandbox: see `mirror_template`).
    project: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Allow,
    Refuse,
    /// Handed back to run under `hookc exec` (Claude Code on Linux): not
    /// let through as written, and refused by every harness that cannot.
    Supervised,
    /// `hookc guard` could not decide (exit 1): the hook refuses.
    Error,
}

impl Decision {
    /// Not let through as written (a supervised line runs only under the
    /// run-time judge, whose pass shows what it lets happen).
    pub fn refused(self) -> bool {
        self != Decision::Allow
    }
}

impl Hookc {
    pub fn new(exe: PathBuf, policy: PathBuf) -> Self {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&policy).unwrap()).unwrap();
        let reasons = v["guards"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|g| g["reason"].as_str().map(String::from))
            .collect();
        Self {
            exe,
            policy,
            reasons,
            by_command: HashMap::new(),
            cache: HashMap::new(),
            options: HashMap::new(),
            project: "/repo".to_owned(),
        }
    }

    /// Calls are made in `project`: the payload's `cwd` and the project
    /// directory the harness gives the hook.
    pub fn in_project(mut self, project: &str) -> Self {
        self.project = project.to_owned();
        self
    }

    pub fn decide(&mut self, line: &str) -> Decision {
        self.answer(line).0
    }

    /// Whether a guard's own pattern refuses the line (not its opacity).
    pub fn pattern_denies(&mut self, line: &str) -> bool {
        let (d, reason) = self.answer(line);
        d == Decision::Refuse && self.reasons.iter().any(|r| reason.contains(r.as_str()))
    }

    fn answer(&mut self, line: &str) -> (Decision, String) {
        if let Some(d) = self.cache.get(line) {
            return d.clone();
        }
        let out = self.ask(
            line,
            &[
                "guard",
                "--harness",
                "claude",
                "--event",
                "pre-tool",
                "--policy",
            ],
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        let reason = String::from_utf8_lossy(&out.stderr).into_owned();
        let d = match out.status.code() {
            Some(0) if stdout.contains("' exec --harness ") => Decision::Supervised,
            Some(0) if !stdout.contains("\"deny\"") && !stdout.contains("\"ask\"") => {
                Decision::Allow
            }
            Some(0) | Some(2) => Decision::Refuse,
            _ => Decision::Error,
        };
        self.cache.insert(line.to_string(), (d, reason.clone()));
        (d, reason)
    }

    /// Whether a guard with command patterns refuses the line because one
    /// of them describes it (what `hookc exec` stops at a program start),
    /// by `hookc why`'s account of each guard.
    pub fn command_denies(&mut self, line: &str) -> bool {
        if let Some(&d) = self.by_command.get(line) {
            return d;
        }
        let kdl = self
            .policy
            .parent()
            .and_then(Path::parent)
            .expect("policy.json is in the project's .hookc")
            .join("policy.kdl");
        let mut args = vec!["why", "--format", "json", "--payload", "-", "--policy"];
        let kdl = kdl.to_string_lossy().into_owned();
        args.push(&kdl);
        let out = self.ask(line, &args);
        let why: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "hookc why of {line:?}: {e}: {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
        let refused = why["verdict"]["decision"]
            .as_str()
            .is_some_and(|d| matches!(d, "deny" | "block" | "ask"));
        let by_command = why["guards"].as_array().into_iter().flatten().any(|g| {
            g["conditions"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|c| c["kind"] == "command" && c["holds"] == true)
                && g["decision"]
                    .as_str()
                    .is_some_and(|d| matches!(d, "deny" | "block" | "ask"))
        });
        self.by_command
            .insert(line.to_string(), refused && by_command);
        refused && by_command
    }

    /// Run hookc with `args` (the policy's path added when the last is
    /// `--policy` without a value) on a Claude Code payload of `line`, in
    /// the project and with the environment the line runs with.
    fn ask(&self, line: &str, args: &[&str]) -> std::process::Output {
        let payload = serde_json::json!({
            "session_id": "judge",
            "transcript_path": "/tmp/judge.jsonl",
            "cwd": self.project,
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": line},
            "tool_use_id": "toolu_judge"
        })
        .to_string();
        let mut command = Command::new(&self.exe);
        command.args(args);
        if args.last() == Some(&"--policy") {
            command.arg(&self.policy);
        }
        let mut child = command
            .env("CLAUDE_PROJECT_DIR", &self.project)
            // The environment the line runs with in the sandbox (HOME is
            // the template's, where its git and ssh settings are), so the
            // guard reads what the line meets, not this machine's.
            .env("HOME", Path::new(&self.project).with_file_name("home"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("HOOKC_DEBUG")
            .env_remove("HOOKC_POLICY")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run hookc");
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(payload.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    }

    /// The long options a program (`git push`, `rm`) accepts.
    fn long_options(&mut self, key: &str) -> &[String] {
        if !self.options.contains_key(key) {
            let words: Vec<String> = if let Some(sub) = key.strip_prefix("git ") {
                Command::new("git")
                    .args([sub, "--git-completion-helper-all"])
                    .output()
                    .map(|o| {
                        String::from_utf8_lossy(&o.stdout)
                            .split_whitespace()
                            .map(|w| w.trim_end_matches('=').to_string())
                            .filter(|w| w.starts_with("--") && w.len() > 2)
                            .collect()
                    })
                    .unwrap_or_default()
            } else {
                Command::new(key)
                    .arg("--help")
                    .output()
                    .map(|o| {
                        String::from_utf8_lossy(&o.stdout)
                            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                            .filter(|w| w.starts_with("--") && w.len() > 2)
                            .map(String::from)
                            .collect()
                    })
                    .unwrap_or_default()
            };
            self.options.insert(key.to_string(), words);
        }
        &self.options[key]
    }

    /// The argv as the program understands it, as a plain command line:
    /// `git-push` is `git push`, a unique prefix of a long option is the
    /// option (git and GNU rm accept them), and the paths of the project
    /// and of the home directory are written as the agent would: `.`, `~`.
    pub fn synthesise(&mut self, argv: &[String], ctx: &Context) -> String {
        let mut words: Vec<String> = argv.to_vec();
        if let Some(sub) = words[0].strip_prefix("git-").map(String::from) {
            words[0] = "git".into();
            words.insert(1, sub);
        }
        let key = match words[0].as_str() {
            "git" => words
                .iter()
                .skip(1)
                .find(|w| !w.starts_with('-'))
                .map(|s| format!("git {s}")),
            "rm" => Some("rm".to_string()),
            _ => None,
        };
        if let Some(key) = key {
            let opts = self.long_options(&key).to_vec();
            for w in words.iter_mut().skip(1) {
                if w == "--" {
                    break;
                }
                let (name, value) = match w.split_once('=') {
                    Some((n, v)) => (n.to_string(), Some(v.to_string())),
                    None => (w.clone(), None),
                };
                if !name.starts_with("--") || name.len() < 3 || opts.contains(&name) {
                    continue;
                }
                let hits: Vec<&String> = opts.iter().filter(|o| o.starts_with(&name)).collect();
                if let [one] = hits.as_slice() {
                    *w = match value {
                        Some(v) => format!("{one}={v}"),
                        None => one.to_string(),
                    };
                }
            }
        }
        if words[0] == "rm" {
            let args: BTreeSet<&str> = words.iter().skip(1).map(String::as_str).collect();
            if !ctx.top_level.is_empty() && ctx.top_level.iter().all(|t| args.contains(t.as_str()))
            {
                words.push("*".into());
            }
        }
        for w in words.iter_mut().skip(1) {
            let trimmed = w.trim_end_matches('/');
            if trimmed == ctx.repo {
                *w = ".".into();
            } else if trimmed == ctx.home {
                *w = "~".into();
            } else if trimmed.is_empty() && !w.is_empty() {
                *w = "/".into();
            }
        }
        words.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ")
    }
}

/// Where a line ran, to write the argv back the way the agent would.
#[derive(Clone)]
pub struct Context {
    pub repo: String,
    pub home: String,
    /// The entries of the project that `*` names.
    pub top_level: Vec<String>,
}

/// Judges one line's runs.
pub fn judge(runs: &[Run], hookc: &mut Hookc, ctx: &Context) -> Outcome {
    judge_runs(runs, hookc, ctx, false)
}

/// [`judge`] for lines run under `hookc exec`: there a guard with command
/// patterns stops a program before it starts, and a path guard stops the
/// access to its file, so an argv is denied when a command guard refuses
/// it, and a file when its canary says it was read.
pub fn judge_supervised(runs: &[Run], hookc: &mut Hookc, ctx: &Context) -> Outcome {
    judge_runs(runs, hookc, ctx, true)
}

fn judge_runs(runs: &[Run], hookc: &mut Hookc, ctx: &Context, supervised: bool) -> Outcome {
    let mut out = Outcome::default();
    for run in runs {
        for e in &run.events {
            out.denied.push(format!("{}/{}: {e}", run.shell, run.flip));
        }
        for argv in &run.argvs {
            let line = hookc.synthesise(argv, ctx);
            let denied = if supervised {
                hookc.command_denies(&line)
            } else {
                hookc.pattern_denies(&line)
            };
            if denied {
                out.denied
                    .push(format!("{}/{}: ran `{line}`", run.shell, run.flip));
            }
            out.ran.insert(line);
        }
    }
    out.denied.sort();
    out.denied.dedup();
    out
}
