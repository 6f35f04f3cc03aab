//! `hookc test`: every example of the policy, and the ways a hook can fail,
//! through the generated hooks as real processes, decoded the way each
//! harness decodes them (with [`Harness::outcome`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Value, json};

use crate::cli::{Format, TestArgs};
use crate::diag::Diagnostics;
use crate::exit::ExitStatus;
use crate::harness::{self, Harness, Observation};
use crate::ir::{Decision, Event, ExampleCall, Expectation, HarnessId, Tool, ToolKind};

/// How long one hook may take before the row says it timed out.
const LIMIT: Duration = Duration::from_secs(30);

#[derive(Debug, Serialize)]
struct Row {
    guard: String,
    harness: &'static str,
    case: String,
    expected: &'static str,
    got: &'static str,
    ok: bool,
    /// The row tests a failure of the hook itself, not a policy decision.
    could_not_run: bool,
    model_reads: Option<String>,
    user_sees: Option<String>,
    rule: &'static str,
}

#[derive(Clone)]
struct Case {
    guard: String,
    label: String,
    expected: &'static str,
    could_not_run: bool,
    stdin: String,
    bin: Bin,
}

#[derive(Clone, Copy)]
enum Bin {
    Real,
    Missing,
    Crashing,
    /// Not run: what the harness does when a hook outlives its timeout.
    Timeout,
}

pub fn test(args: &TestArgs) -> ExitStatus {
    let temp = match tempfile::tempdir() {
        Ok(t) => t,
        Err(e) => return fail(&format!("cannot make a temporary directory: {e}")),
    };
    let policy_path = match &args.project {
        Some(dir) => dir.join(&args.policy),
        None => args.policy.clone(),
    };
    let mut diags = Diagnostics::default();
    let Some((_, policy)) = crate::compile::load(&policy_path, &mut diags) else {
        eprint!(
            "{}",
            crate::diag::render::human_all(
                &diags.into_sorted(),
                crate::diag::render::Style {
                    color: false,
                    unicode: true,
                    width: 100
                }
            )
        );
        return ExitStatus::Failure;
    };
    let home = temp.path().join("home");
    let bins = temp.path().join("bin");
    let crash = temp.path().join("crash");
    for d in [&home, &bins, &crash] {
        let _ = std::fs::create_dir_all(d);
    }
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => return fail(&format!("cannot find this hookc: {e}")),
    };
    if let Err(e) = std::os::unix::fs::symlink(&exe, bins.join("hookc")).and_then(|()| {
        write_exec(
            &crash.join("hookc"),
            "#!/bin/sh\necho 'thread main panicked at src/main.rs' >&2\nexit 101\n",
        )
    }) {
        return fail(&format!("cannot prepare the test programs: {e}"));
    }
    let root: PathBuf = match &args.project {
        Some(dir) => match dir.canonicalize() {
            Ok(d) => d,
            Err(e) => return fail(&format!("{}: {e}", dir.display())),
        },
        None => {
            let root = temp.path().join("project");
            let _ = std::fs::create_dir_all(&root);
            let text = std::fs::read_to_string(&policy_path).unwrap_or_default();
            if let Err(e) = std::fs::write(root.join("policy.kdl"), text) {
                return fail(&format!("cannot copy the policy: {e}"));
            }
            // The programs guards `run` come along (fs::copy keeps the mode).
            let from = policy_path.parent().unwrap_or(Path::new("."));
            for program in policy.guards.iter().filter_map(|g| g.run.as_deref()) {
                let to = root.join(program);
                if let Some(parent) = to.parent() {
                    let _ = std::fs::create_dir_all(parent);
                }
                let _ = std::fs::copy(from.join(program), &to);
            }
            let out = Command::new(&exe)
                .args(["--quiet", "build"])
                .current_dir(&root)
                .env("HOME", &home)
                .env_remove("HOOKC_POLICY")
                .output();
            match out {
                Ok(o) if o.status.success() => {}
                Ok(o) => {
                    return fail(&format!(
                        "hookc build failed in the temporary copy:\n{}",
                        String::from_utf8_lossy(&o.stderr)
                    ));
                }
                Err(e) => return fail(&format!("cannot run hookc build: {e}")),
            }
            root
        }
    };
    let env = Env {
        root: &root,
        home: &home,
        bins: &bins,
        crash: &crash,
        exe: &exe,
    };
    let mut fixtures = args.fixtures.clone();
    let dir = policy_path
        .parent()
        .map(|d| d.join("tests/hooks"))
        .unwrap_or_default();
    if let Ok(entries) = std::fs::read_dir(&dir) {
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        found.sort();
        fixtures.extend(found);
    }
    let mut extra: Vec<(HarnessId, Case)> = Vec::new();
    for path in &fixtures {
        match fixture(path) {
            Ok(x) => extra.push(x),
            Err(e) => return fail(&format!("{}: {e}", path.display())),
        }
    }
    let targets: Vec<&dyn Harness> = policy
        .targets
        .iter()
        .filter_map(|id| harness::get(*id))
        .collect();
    let mut rows: Vec<Row> = std::thread::scope(|s| {
        let handles: Vec<_> = targets
            .iter()
            .map(|h| {
                let mut cases = cases(*h, &policy, &root);
                let id = h.id();
                cases.extend(
                    extra
                        .iter()
                        .filter(|(x, _)| *x == id)
                        .map(|(_, c)| c.clone()),
                );
                let env = &env;
                s.spawn(move || {
                    cases
                        .into_iter()
                        .map(|c| run_case(*h, env, c))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    rows.sort_by_key(|r| r.could_not_run);
    let failed = rows.iter().filter(|r| !r.ok).count();
    match args.format {
        Format::Json => println!(
            "{}",
            json!({"rows": rows, "total": rows.len(), "failed": failed})
        ),
        Format::Human => print!("{}", text(&rows)),
    }
    if failed == 0 {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    }
}

fn fail(msg: &str) -> ExitStatus {
    eprintln!("error: {msg}");
    ExitStatus::Error
}

fn write_exec(path: &Path, text: &str) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
}

fn text(rows: &[Row]) -> String {
    let mut out = String::new();
    for r in rows {
        let mark = if r.ok { "ok  " } else { "FAIL" };
        let what = if r.could_not_run {
            "could not run"
        } else {
            r.guard.as_str()
        };
        out.push_str(&format!(
            "{mark} {:<12} {:<32} {:<44} expected {:<8} got {:<8} model reads: {}\n",
            r.harness,
            what,
            one_line(&r.case, 44),
            r.expected,
            r.got,
            one_line(r.model_reads.as_deref().unwrap_or("(nothing)"), 100),
        ));
        if !r.ok {
            out.push_str(&format!("     rule: {}\n", r.rule));
        }
    }
    let failed = rows.iter().filter(|r| !r.ok).count();
    let cnr = rows.iter().filter(|r| r.could_not_run).count();
    let harnesses: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.harness).collect();
    out.push_str(&format!(
        "\n{} rows over {} harness{} ({} examples, {} could-not-run paths): {} passed, {} failed\n",
        rows.len(),
        harnesses.len(),
        if harnesses.len() == 1 { "" } else { "es" },
        rows.len() - cnr,
        cnr,
        rows.len() - failed,
        failed
    ));
    out
}

fn one_line(s: &str, max: usize) -> String {
    let s = s.replace('\n', " ");
    if s.chars().count() > max {
        format!("{}…", s.chars().take(max - 1).collect::<String>())
    } else {
        s
    }
}

fn expected(
    expect: Expectation,
    h: &dyn Harness,
    event: Event,
    call: &ExampleCall,
) -> &'static str {
    // Cursor asks only before shell commands (see its `answer_call`).
    let shell = call.command.is_some();
    let asks = h.profile().honours_ask.contains(&event) && (shell || h.id() != HarnessId::Cursor);
    match expect {
        Expectation::Decision(Decision::Deny | Decision::Block) => "blocks",
        Expectation::Decision(Decision::Ask) if asks => "asks",
        Expectation::Decision(Decision::Ask) => "blocks",
        _ => "proceeds",
    }
}

/// Every case one harness runs: the policy's pre-tool examples it can
/// express, then the failure paths.
fn cases(h: &dyn Harness, policy: &crate::ir::Policy, root: &Path) -> Vec<Case> {
    let mut out = Vec::new();
    for guard in &policy.guards {
        if guard.event != Event::PreTool {
            continue;
        }
        for ex in &guard.examples {
            let Some(payload) = payload(h.id(), &ex.call, root) else {
                continue;
            };
            out.push(Case {
                guard: guard.name.clone(),
                label: label(&ex.call),
                expected: expected(ex.expect, h, Event::PreTool, &ex.call),
                could_not_run: false,
                stdin: payload.to_string(),
                bin: Bin::Real,
            });
        }
    }
    if h.profile().event_name(Event::PreTool).is_none() {
        return out;
    }
    let benign = ExampleCall {
        tool: None,
        command: Some("ls".to_owned()),
        path: None,
        text: None,
    };
    let ok = payload(h.id(), &benign, root).map_or_else(String::new, |p| p.to_string());
    let refusal =
        if policy.on_error == Decision::Ask && h.profile().honours_ask.contains(&Event::PreTool) {
            "asks"
        } else {
            "blocks"
        };
    for (label, stdin, bin) in [
        ("garbage stdin", "this is not JSON {".to_owned(), Bin::Real),
        ("empty stdin", String::new(), Bin::Real),
        ("hookc not on PATH", ok.clone(), Bin::Missing),
        ("hookc crashes (exit 101)", ok, Bin::Crashing),
        ("harness timeout", String::new(), Bin::Timeout),
    ] {
        out.push(Case {
            guard: String::new(),
            label: label.to_owned(),
            expected: refusal,
            could_not_run: true,
            stdin,
            bin,
        });
    }
    out
}

/// A fixture file: `{"harness", "event" (pre-tool), "payload", "expect"}`.
fn fixture(path: &Path) -> Result<(HarnessId, Case), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))?;
    let word = |k: &str| v.get(k).and_then(Value::as_str);
    let id = word("harness")
        .and_then(HarnessId::from_word)
        .ok_or("`harness` should name a harness, e.g. \"claude\"")?;
    if word("event").is_some_and(|e| e != "pre-tool") {
        return Err("only pre-tool fixtures can be run so far".to_owned());
    }
    let payload = v.get("payload").ok_or("the fixture has no `payload`")?;
    let expect = word("expect").ok_or("the fixture has no `expect` (deny, ask or allow)")?;
    let h = harness::get(id).ok_or("unknown harness")?;
    let expected = match expect {
        "deny" | "block" => "blocks",
        "ask" if h.profile().honours_ask.contains(&Event::PreTool) => "asks",
        "ask" => "blocks",
        "allow" | "pass" => "proceeds",
        other => {
            return Err(format!(
                "`expect` cannot be `{other}`; use deny, ask or allow"
            ));
        }
    };
    Ok((
        id,
        Case {
            guard: "fixture".to_owned(),
            label: path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            expected,
            could_not_run: false,
            stdin: payload.to_string(),
            bin: Bin::Real,
        },
    ))
}

fn label(call: &ExampleCall) -> String {
    match (&call.command, &call.path, &call.tool) {
        (Some(c), _, _) => c.clone(),
        (None, Some(p), Some(t)) => format!("{} {p}", tool_word(t)),
        (None, Some(p), None) => p.clone(),
        _ => call.text.clone().unwrap_or_default(),
    }
}

fn tool_word(t: &Tool) -> String {
    match t {
        Tool::Known { tool } => tool.word().to_owned(),
        Tool::Mcp { server, tool } => format!("mcp {server}/{tool}"),
        Tool::Native { name, .. } => name.clone(),
    }
}

/// The stdin a harness sends its pre-tool hook for an example call, in that
/// harness's own shape (as recorded from the real tools); `None` when the
/// harness has no such tool.
fn payload(id: HarnessId, call: &ExampleCall, root: &Path) -> Option<Value> {
    let kind = match (&call.tool, &call.command) {
        (Some(Tool::Known { tool }), _) => *tool,
        (None, Some(_)) => ToolKind::Shell,
        _ => return None,
    };
    let h = harness::get(id)?;
    let native = *h.profile().tool_names(kind).first()?;
    let root_s = root.to_string_lossy().into_owned();
    let command = call.command.clone().unwrap_or_default();
    let path = call
        .path
        .as_ref()
        .map(|p| root.join(p).to_string_lossy().into_owned());
    if kind != ToolKind::Shell && path.is_none() {
        return None;
    }
    let path = path.unwrap_or_default();
    let file_input = |key: &str| {
        let mut m = serde_json::Map::new();
        m.insert(key.to_owned(), json!(path));
        if kind == ToolKind::Write {
            m.insert("content".into(), json!("x\n"));
        }
        Value::Object(m)
    };
    let claude_like = |event: &str, key: &str| {
        let input = if kind == ToolKind::Shell {
            json!({ "command": command })
        } else {
            file_input(key)
        };
        json!({
            "session_id": "s1",
            "transcript_path": "/tmp/t.jsonl",
            "cwd": root_s,
            "hook_event_name": event,
            "tool_name": native,
            "tool_input": input,
            "tool_use_id": "toolu_1"
        })
    };
    Some(match id {
        HarnessId::Claude | HarnessId::ClaudeAgentSdk => claude_like("PreToolUse", "file_path"),
        HarnessId::Kimi => claude_like("PreToolUse", "path"),
        HarnessId::Gemini => claude_like("BeforeTool", "file_path"),
        HarnessId::Codex => {
            let input = match kind {
                ToolKind::Shell => json!({ "command": command }),
                ToolKind::Write => json!({
                    "command": format!("*** Begin Patch\n*** Add File: {path}\n+x\n*** End Patch\n")
                }),
                _ => json!({
                    "command": format!("*** Begin Patch\n*** Update File: {path}\n@@\n-a\n+b\n*** End Patch\n")
                }),
            };
            json!({
                "session_id": "s1",
                "turn_id": "t1",
                "transcript_path": "/tmp/rollout.jsonl",
                "cwd": root_s,
                "hook_event_name": "PreToolUse",
                "model": "gpt-5",
                "permission_mode": "default",
                "tool_name": native,
                "tool_input": input,
                "tool_use_id": "call_1"
            })
        }
        HarnessId::Copilot => {
            let args = if kind == ToolKind::Shell {
                json!({ "command": command, "description": "run" })
            } else {
                file_input("path")
            };
            json!({
                "sessionId": "s1",
                "timestamp": 1_795_993_739_553_u64,
                "cwd": root_s,
                "toolName": native,
                "toolArgs": args.to_string()
            })
        }
        HarnessId::Cursor => {
            let mut m = json!({
                "conversation_id": "c1",
                "generation_id": "g1",
                "model": "default",
                "session_id": "c1",
                "cursor_version": "1.0.0",
                "workspace_roots": [root_s],
                "user_email": null,
                "transcript_path": null
            });
            let o = m.as_object_mut()?;
            if kind == ToolKind::Shell {
                o.insert("hook_event_name".into(), json!("beforeShellExecution"));
                o.insert("command".into(), json!(command));
                o.insert("cwd".into(), json!(""));
                o.insert("sandbox".into(), json!(false));
            } else {
                o.insert("hook_event_name".into(), json!("preToolUse"));
                o.insert("tool_name".into(), json!(native));
                o.insert("tool_input".into(), file_input("file_path"));
            }
            m
        }
        HarnessId::Antigravity => {
            let args = if kind == ToolKind::Shell {
                json!({ "CommandLine": command, "Cwd": root_s })
            } else {
                file_input(if kind == ToolKind::Read {
                    "AbsolutePath"
                } else {
                    "TargetFile"
                })
            };
            json!({
                "conversationId": "c-1",
                "workspacePaths": [root_s],
                "transcriptPath": "/tmp/t.jsonl",
                "artifactDirectoryPath": "/tmp/brain",
                "modelName": "gemini-3-pro",
                "stepIdx": 1,
                "toolCall": { "name": native, "args": args }
            })
        }
        HarnessId::Opencode => {
            let args = if kind == ToolKind::Shell {
                json!({ "command": command, "description": "run" })
            } else {
                file_input("filePath")
            };
            json!({
                "tool": native,
                "sessionID": "s1",
                "callID": "c1",
                "args": args,
                "cwd": root_s,
                "root": root_s
            })
        }
    })
}

struct Env<'a> {
    root: &'a Path,
    home: &'a Path,
    bins: &'a Path,
    crash: &'a Path,
    exe: &'a Path,
}

/// Run one case the way its harness runs its hook, and decode the result.
fn run_case(h: &dyn Harness, env: &Env, case: Case) -> Row {
    let path = match case.bin {
        Bin::Real => format!("{}:/usr/bin:/bin", env.bins.display()),
        Bin::Missing => "/usr/bin:/bin".to_owned(),
        Bin::Crashing | Bin::Timeout => format!("{}:/usr/bin:/bin", env.crash.display()),
    };
    let id = h.id();
    if let Bin::Timeout = case.bin {
        // The harness decides alone; say what it does rather than fail on it.
        let obs = Observation {
            timed_out: true,
            ..Observation::default()
        };
        let mut r = row(h, &case, &obs);
        r.expected = r.got;
        r.ok = true;
        r.case = if r.got == "proceeds" {
            format!("{}: fails open (harness limit)", r.case)
        } else {
            format!("{}: refused", r.case)
        };
        return r;
    }
    let mut c = if matches!(id, HarnessId::Opencode | HarnessId::ClaudeAgentSdk) {
        // OpenCode's plugin and the SDK callbacks run `hookc guard` themselves
        // (found on PATH).
        let bin = match case.bin {
            Bin::Real => Some(env.exe.to_path_buf()),
            Bin::Missing => None,
            Bin::Crashing | Bin::Timeout => Some(env.crash.join("hookc")),
        };
        let Some(bin) = bin else {
            // The plugin cannot spawn it: it throws "not found".
            return row(
                h,
                &case,
                &Observation {
                    exit: Some(127),
                    ..Observation::default()
                },
            );
        };
        let mut c = Command::new(bin);
        c.args(["guard", "--harness", id.word(), "--event", "pre-tool"])
            .arg("--policy")
            .arg(env.root.join(".hookc/policy.json"));
        c
    } else {
        // The command the harness's config holds, run the way it runs it;
        // the shim itself where hookc cannot read one.
        let shim = env.root.join(format!(".hookc/{}/pre-tool.sh", id.word()));
        let command = config_command(id, env.root, &case.stdin)
            .unwrap_or_else(|| format!("'{}'", shim.display()));
        let shell = if id == HarnessId::Gemini {
            "bash"
        } else {
            "/bin/sh"
        };
        let mut c = Command::new(shell);
        c.arg("-c").arg(format!("{command}\nexit $?"));
        c
    };
    c.current_dir(env.root)
        .env_clear()
        .env("PATH", &path)
        .env("HOME", env.home);
    let root_s = env.root.to_string_lossy().into_owned();
    c.env("PWD", &root_s);
    match id {
        HarnessId::Claude => {
            c.env("CLAUDE_PROJECT_DIR", &root_s);
        }
        HarnessId::Gemini => {
            c.env("GEMINI_PROJECT_DIR", &root_s);
        }
        _ => {}
    }
    if id == HarnessId::Copilot {
        c.env("COPILOT_CLI", "1");
    }
    if id == HarnessId::Cursor {
        c.env("CURSOR_VERSION", "1.0.0");
    }
    let obs = execute(&mut c, &case.stdin);
    row(h, &case, &obs)
}

/// hookc's pre-tool hook command in the harness's generated config.
fn config_command(id: HarnessId, root: &Path, stdin: &str) -> Option<String> {
    let json = |file: &str| -> Option<Value> {
        serde_json::from_str(&std::fs::read_to_string(root.join(file)).ok()?).ok()
    };
    let at = |v: Value, pointer: &str| v.pointer(pointer)?.as_str().map(str::to_owned);
    match id {
        HarnessId::Claude => at(
            json(".claude/settings.json")?,
            "/hooks/PreToolUse/0/hooks/0/command",
        ),
        HarnessId::Codex => at(
            json(".codex/hooks.json")?,
            "/hooks/PreToolUse/0/hooks/0/command",
        ),
        HarnessId::Copilot => at(
            json(".github/hooks/hookc.json")?,
            "/hooks/preToolUse/0/bash",
        ),
        HarnessId::Gemini => at(
            json(".gemini/settings.json")?,
            "/hooks/BeforeTool/0/hooks/0/command",
        ),
        HarnessId::Antigravity => at(
            json(".agents/hooks.json")?,
            "/hookc/PreToolUse/0/hooks/0/command",
        ),
        HarnessId::Cursor => {
            // Shell commands reach beforeShellExecution, other tools preToolUse.
            let event = serde_json::from_str::<Value>(stdin)
                .ok()
                .and_then(|v| v.get("hook_event_name")?.as_str().map(str::to_owned))
                .unwrap_or_else(|| "preToolUse".to_owned());
            let hooks = json(".cursor/hooks.json")?;
            hooks
                .pointer(&format!("/hooks/{event}"))?
                .as_array()?
                .iter()
                .find_map(|h| {
                    h.get("command")?
                        .as_str()
                        .filter(|c| c.contains(".hookc/cursor/"))
                        .map(str::to_owned)
                })
        }
        HarnessId::Kimi => {
            let text = std::fs::read_to_string(root.join(".hookc/kimi/config.toml")).ok()?;
            let doc: toml_edit::DocumentMut = text.parse().ok()?;
            doc.get("hooks")?
                .as_array_of_tables()?
                .iter()
                .find_map(|t| {
                    (t.get("event")?.as_str()? == "PreToolUse")
                        .then(|| t.get("command")?.as_str().map(str::to_owned))
                        .flatten()
                })
        }
        HarnessId::Opencode | HarnessId::ClaudeAgentSdk => None,
    }
}

fn row(h: &dyn Harness, case: &Case, obs: &Observation) -> Row {
    let o = h.outcome(Event::PreTool, obs);
    let got = o.word();
    Row {
        guard: case.guard.clone(),
        harness: h.id().word(),
        case: case.label.clone(),
        expected: case.expected,
        got,
        ok: got == case.expected,
        could_not_run: case.could_not_run,
        model_reads: o.model_reads,
        user_sees: o.user_sees,
        rule: o.rule,
    }
}

fn execute(c: &mut Command, stdin: &str) -> Observation {
    c.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match c.spawn() {
        Ok(child) => child,
        Err(e) => {
            return Observation {
                exit: Some(127),
                stderr: e.to_string(),
                ..Observation::default()
            };
        }
    };
    if let Some(mut pipe) = child.stdin.take() {
        let _ = pipe.write_all(stdin.as_bytes());
    }
    let out: Option<Box<dyn std::io::Read + Send>> = child.stdout.take().map(|p| Box::new(p) as _);
    let err: Option<Box<dyn std::io::Read + Send>> = child.stderr.take().map(|p| Box::new(p) as _);
    fn read(p: Option<Box<dyn std::io::Read + Send>>) -> String {
        let mut s = String::new();
        if let Some(mut p) = p {
            let _ = p.read_to_string(&mut s);
        }
        s
    }
    let (stdout, stderr, timed_out, status) = std::thread::scope(|s| {
        let o = s.spawn(|| read(out));
        let e = s.spawn(|| read(err));
        let start = Instant::now();
        let mut timed_out = false;
        let status = loop {
            match child.try_wait() {
                Ok(Some(st)) => break Some(st),
                Ok(None) if start.elapsed() > LIMIT => {
                    let _ = child.kill();
                    timed_out = true;
                    break child.wait().ok();
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(_) => break None,
            }
        };
        (
            o.join().unwrap_or_default(),
            e.join().unwrap_or_default(),
            timed_out,
            status,
        )
    });
    Observation {
        exit: status.and_then(|s| s.code()),
        stdout,
        stderr,
        timed_out,
    }
}
