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
use crate::harness::{self, Harness, Observation, Outcome};
use crate::ir::{Decision, Event, Example, ExampleCall, Expectation, HarnessId, Tool};

/// How long one hook may take before the row says it timed out.
const LIMIT: Duration = Duration::from_secs(30);

#[derive(Debug, Serialize)]
struct Row {
    guard: String,
    harness: &'static str,
    event: &'static str,
    case: String,
    expected: &'static str,
    got: &'static str,
    ok: bool,
    /// The row tests a failure of the hook itself, not a policy decision.
    could_not_run: bool,
    /// Why the example cannot happen on this harness (then it is not run).
    #[serde(skip_serializing_if = "Option::is_none")]
    not_applicable: Option<String>,
    model_reads: Option<String>,
    user_sees: Option<String>,
    rule: &'static str,
}

#[derive(Clone)]
struct Case {
    guard: String,
    event: Event,
    label: String,
    expected: &'static str,
    could_not_run: bool,
    not_applicable: Option<String>,
    stdin: String,
    /// The call that picks the hook, when `stdin` cannot (garbage, empty).
    route: Option<Value>,
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
    let (policy_path, policy) = match load(args) {
        Ok(found) => found,
        Err(status) => return status,
    };
    let home = temp.path().join("home");
    let bins = temp.path().join("bin");
    let crash = temp.path().join("crash");
    let exe = match stand_ins(&home, &bins, &crash) {
        Ok(exe) => exe,
        Err(e) => return fail(&e),
    };
    let root: PathBuf = match &args.project {
        Some(dir) => match dir.canonicalize() {
            Ok(d) => d,
            Err(e) => return fail(&format!("{}: {e}", dir.display())),
        },
        None => match build_copy(&policy_path, &policy, &exe, &home, temp.path()) {
            Ok(root) => root,
            Err(e) => return fail(&e),
        },
    };
    for h in harness::all() {
        if let Some(plugin) = h.plugin()
            && let Err(e) = std::fs::write(driver_path(temp.path(), *h), plugin.driver)
        {
            return fail(&format!(
                "cannot write the {} test driver: {e}",
                h.profile().name
            ));
        }
    }
    let node = find_node();
    let env = Env {
        root: &root,
        home: &home,
        bins: &bins,
        crash: &crash,
        drivers: temp.path(),
        node: node.as_deref(),
        allow_missing_node: args.allow_missing_node,
    };
    let extra = match fixtures(args, &policy_path) {
        Ok(extra) => extra,
        Err(e) => return fail(&e),
    };
    let mut rows = run_all(&policy, &extra, &env);
    rows.sort_by_key(|r| r.could_not_run);
    let failed = rows.iter().filter(|r| !r.ok).count();
    match args.format {
        Format::Json => println!(
            "{}",
            json!({
                "rows": rows,
                "total": rows.len(),
                "failed": failed,
                "not_applicable": rows.iter().filter(|r| r.not_applicable.is_some()).count(),
            })
        ),
        Format::Human => print!("{}", text(&rows)),
    }
    if failed == 0 {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    }
}

/// The policy file and its compiled policy; the status to end with when
/// there is none (reported on stderr).
fn load(args: &TestArgs) -> Result<(PathBuf, crate::ir::Policy), ExitStatus> {
    let style = crate::diag::render::Style {
        color: false,
        unicode: true,
        width: 100,
    };
    let mut diags = Diagnostics::default();
    let policy_path = match (&args.project, &args.policy) {
        (Some(dir), policy) => dir.join(policy.as_deref().unwrap_or(Path::new("policy.kdl"))),
        (None, policy) => match super::locate(policy.as_deref(), None) {
            Ok((policy, _)) => policy,
            Err(d) => {
                eprint!("{}", crate::diag::render::human(&d, style));
                return Err(ExitStatus::Error);
            }
        },
    };
    let Some((_, policy)) = crate::compile::load(&policy_path, &mut diags) else {
        eprint!(
            "{}",
            crate::diag::render::human_all(&diags.into_sorted(), style)
        );
        return Err(ExitStatus::Failure);
    };
    Ok((policy_path, policy))
}

/// The directories a case runs with, and the programs on their `PATH`: this
/// hookc under `bins`, one that crashes under `crash`. This hookc's path.
fn stand_ins(home: &Path, bins: &Path, crash: &Path) -> Result<PathBuf, String> {
    for d in [home, bins, crash] {
        let _ = std::fs::create_dir_all(d);
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this hookc: {e}"))?;
    #[cfg(unix)]
    let linked = std::os::unix::fs::symlink(&exe, bins.join("hookc"));
    #[cfg(not(unix))]
    let linked = std::fs::copy(&exe, bins.join("hookc.exe")).map(|_| ());
    linked
        .and_then(|()| {
            write_exec(
                &crash.join("hookc"),
                "#!/bin/sh\necho 'thread main panicked at src/main.rs' >&2\nexit 101\n",
            )
        })
        .map_err(|e| format!("cannot prepare the test programs: {e}"))?;
    Ok(exe)
}

/// A project in `temp` with a copy of the policy (and the programs its
/// guards `run`), built there by `exe`: the root to run the hooks in.
fn build_copy(
    policy_path: &Path,
    policy: &crate::ir::Policy,
    exe: &Path,
    home: &Path,
    temp: &Path,
) -> Result<PathBuf, String> {
    let root = temp.join("project");
    let _ = std::fs::create_dir_all(&root);
    let text = std::fs::read_to_string(policy_path).unwrap_or_default();
    if let Err(e) = std::fs::write(root.join("policy.kdl"), text) {
        return Err(format!("cannot copy the policy: {e}"));
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
    // Its pin stays in the temporary directory too, where the hooks (which
    // look under HOME) do not find it: the cases choose the hookc they meet
    // by PATH, and the user's own pin is left alone.
    let out = Command::new(exe)
        .args(["--quiet", "build"])
        .current_dir(&root)
        .env("HOME", home)
        .env("XDG_STATE_HOME", temp.join("state"))
        .env_remove("HOOKC_POLICY")
        .output();
    match out {
        Ok(o) if o.status.success() => Ok(root),
        Ok(o) => Err(format!(
            "hookc build failed in the temporary copy:\n{}",
            String::from_utf8_lossy(&o.stderr)
        )),
        Err(e) => Err(format!("cannot run hookc build: {e}")),
    }
}

/// The cases of the fixture files: those given, then `tests/hooks/*.json`
/// next to the policy, in name order.
fn fixtures(args: &TestArgs, policy_path: &Path) -> Result<Vec<(HarnessId, Case)>, String> {
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
    fixtures
        .iter()
        .map(|path| fixture(path).map_err(|e| format!("{}: {e}", path.display())))
        .collect()
}

/// Every case of every target harness (the policy's, then the fixtures'),
/// one thread per harness.
fn run_all(policy: &crate::ir::Policy, extra: &[(HarnessId, Case)], env: &Env) -> Vec<Row> {
    let targets: Vec<&dyn Harness> = policy
        .targets
        .iter()
        .filter_map(|id| harness::get(*id))
        .collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = targets
            .iter()
            .map(|h| {
                let mut cases = cases(*h, policy, env.root);
                let id = h.id();
                cases.extend(
                    extra
                        .iter()
                        .filter(|(x, _)| *x == id)
                        .map(|(_, c)| c.clone()),
                );
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
    })
}

fn fail(msg: &str) -> ExitStatus {
    eprintln!("error: {msg}");
    ExitStatus::Error
}

fn write_exec(path: &Path, text: &str) -> std::io::Result<()> {
    std::fs::write(path, text)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

fn text(rows: &[Row]) -> String {
    let mut out = String::new();
    for r in rows {
        if let Some(why) = &r.not_applicable {
            out.push_str(&format!(
                "n/a  {:<12} {:<32} {:<44} not applicable: {why}\n",
                r.harness,
                r.guard,
                one_line(&r.case, 44),
            ));
            continue;
        }
        let mark = if r.ok { "ok  " } else { "FAIL" };
        let what = if r.could_not_run {
            "could not run".to_owned()
        } else if r.event == Event::PreTool.word() {
            r.guard.clone()
        } else {
            format!("{} ({})", r.guard, r.event)
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
    let na = rows.iter().filter(|r| r.not_applicable.is_some()).count();
    let cnr = rows.iter().filter(|r| r.could_not_run).count();
    let harnesses: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.harness).collect();
    out.push_str(&format!(
        "\n{} rows over {} harness{} ({} examples, {} could-not-run paths): {} passed, {} failed",
        rows.len(),
        harnesses.len(),
        if harnesses.len() == 1 { "" } else { "es" },
        rows.len() - cnr,
        cnr,
        rows.len() - failed - na,
        failed
    ));
    if na > 0 {
        out.push_str(&format!(", {na} not applicable"));
    }
    out.push('\n');
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

fn expected(expect: Expectation, h: &dyn Harness, event: Event, call: &ExampleCall) -> Expected {
    let p = h.profile();
    if p.event_name(event).is_none() {
        return Expected::NotApplicable(format!("{} has no {event} hook", p.name));
    }
    let asks = h.asks(event, call);
    let refuses = matches!(
        expect,
        Expectation::Decision(Decision::Deny | Decision::Block | Decision::Ask)
    );
    if refuses && !p.can_block.contains(&event) {
        return Expected::NotApplicable(format!("{} cannot refuse on {event}", p.name));
    }
    Expected::Word(match expect {
        Expectation::Decision(Decision::Deny | Decision::Block) => "blocks",
        Expectation::Decision(Decision::Ask) if asks => "asks",
        Expectation::Decision(Decision::Ask) => "blocks",
        _ => "proceeds",
    })
}

enum Expected {
    Word(&'static str),
    NotApplicable(String),
}

/// Every case one harness runs: the policy's examples, on whatever event
/// their guard is, then the failure paths of its pre-tool hook.
fn cases(h: &dyn Harness, policy: &crate::ir::Policy, root: &Path) -> Vec<Case> {
    let mut out = Vec::new();
    // A harness that runs a line hookc cannot read under its run-time
    // judge, on a machine that can: its examples that the policy would
    // supervise are expected to run so.
    let supervising = h.supervises() && crate::runtime::supervised::available().is_ok();
    let evaluator = crate::eval::Evaluator::new(policy);
    for guard in &policy.guards {
        for ex in &guard.examples {
            let mut case = example_case(h, guard, ex, root);
            if supervising
                && case.expected == "blocks"
                && evaluator
                    .evaluate(&crate::eval::Call::from_example(guard.event, &ex.call))
                    .is_some_and(|v| v.supervises())
            {
                case.expected = "supervises";
            }
            out.push(case);
        }
    }
    out.extend(failure_cases(h, policy, root));
    out
}

/// One example of `guard` as `h` would send it, or why it cannot.
fn example_case(h: &dyn Harness, guard: &crate::ir::Guard, ex: &Example, root: &Path) -> Case {
    let mut case = Case {
        guard: guard.name.clone(),
        event: guard.event,
        label: label(&ex.call),
        expected: "proceeds",
        could_not_run: false,
        not_applicable: None,
        stdin: String::new(),
        route: None,
        bin: Bin::Real,
    };
    match expected(ex.expect, h, guard.event, &ex.call) {
        Expected::Word(w) => case.expected = w,
        Expected::NotApplicable(why) => case.not_applicable = Some(why),
    }
    if case.not_applicable.is_none() {
        let payload = h
            .payload(guard.event, &ex.call, root)
            .or_else(|| mcp_payload(h, guard.event, &ex.call, root));
        match payload {
            Some(p) => case.stdin = p.to_string(),
            None => {
                case.not_applicable = Some(if matches!(ex.call.tool, Some(Tool::Mcp { .. })) {
                    format!(
                        "{} names no MCP tool hookc test can send; the build checked this example against the policy",
                        h.profile().name
                    )
                } else if guard.event.has_tools() {
                    format!(
                        "{} has no tool for this example (or it names no file)",
                        h.profile().name
                    )
                } else {
                    format!(
                        "{}'s {} payload carries no text of the agent's or the user's, which this example gives",
                        h.profile().name,
                        guard.event
                    )
                });
            }
        }
    }
    case
}

/// The ways `h`'s hook can fail (garbage or empty stdin, hookc missing or
/// crashing, the harness's timeout), each expected to refuse.
///
/// The failure paths go through the pre-tool hook, or the prompt hook when
/// the policy guards no tool call. Not through stop hooks: there a hook
/// that cannot run lets the agent stop (on some harnesses by hookc's
/// choice, since refusing would keep the agent going forever).
fn failure_cases(h: &dyn Harness, policy: &crate::ir::Policy, root: &Path) -> Vec<Case> {
    let p = h.profile();
    let Some(event) = [Event::PreTool, Event::Prompt].into_iter().find(|e| {
        p.event_name(*e).is_some()
            && p.can_block.contains(e)
            && policy.guards.iter().any(|g| g.event == *e)
    }) else {
        return Vec::new();
    };
    let ok = hooked_payload(h, policy, event, root);
    // The policy's guards gave this harness no hook to fail (an MCP guard
    // where the harness's MCP names are unknown): nothing to test.
    // (A plugin is loaded, not started as a command.)
    let no_hook = h.plugin().is_none()
        && ok
            .as_ref()
            .is_none_or(|p| h.hook_command(root, event, p).is_none());
    let route = ok.clone();
    let ok = ok.map_or_else(String::new, |p| p.to_string());
    let refusal = if policy.on_error_for(event) == "ask" && p.honours_ask.contains(&event) {
        "asks"
    } else {
        "blocks"
    };
    let mut out = Vec::new();
    for (label, stdin, bin) in [
        ("garbage stdin", "this is not JSON {".to_owned(), Bin::Real),
        ("empty stdin", String::new(), Bin::Real),
        ("hookc not on PATH", ok.clone(), Bin::Missing),
        ("hookc crashes (exit 101)", ok, Bin::Crashing),
        ("harness timeout", String::new(), Bin::Timeout),
    ] {
        out.push(Case {
            guard: String::new(),
            event,
            label: label.to_owned(),
            expected: refusal,
            could_not_run: true,
            not_applicable: no_hook
                .then(|| format!("the policy's {event} guards give {} no hook here", p.name)),
            stdin,
            route: route.clone(),
            bin,
        });
    }
    out
}

/// A harmless call on `event` that the generated hook runs for: a shell
/// command, or, where the harness has a hook for MCP calls only (Cursor),
/// one of the policy's MCP tools; else the harmless call as it is.
fn hooked_payload(
    h: &dyn Harness,
    policy: &crate::ir::Policy,
    event: Event,
    root: &Path,
) -> Option<Value> {
    let benign = ExampleCall {
        tool: None,
        command: event.has_tools().then(|| "ls".to_owned()),
        path: None,
        text: None,
    };
    let mcp_call = policy
        .guards
        .iter()
        .filter(|g| g.event == event)
        .flat_map(|g| &g.tools)
        .find_map(|t| match t {
            Tool::Mcp { server, tool } => Some(ExampleCall {
                tool: Some(Tool::Mcp {
                    server: server.replace(['*', '?'], "x"),
                    tool: tool.replace(['*', '?'], "x"),
                }),
                command: None,
                path: None,
                text: None,
            }),
            _ => None,
        });
    h.payload(event, &benign, root)
        .filter(|p| h.hook_command(root, event, p).is_some())
        .or_else(|| {
            mcp_call
                .as_ref()
                .and_then(|c| mcp_payload(h, event, c, root))
                .filter(|p| h.hook_command(root, event, p).is_some())
        })
        .or_else(|| h.payload(event, &benign, root))
}

/// An MCP example as `h`'s stdin, for harnesses whose `payload` has no MCP
/// shape: the names MCP tools get in the harnesses hookc knows
/// ([`McpNames::ALL`](crate::profile::McpNames::ALL); Cursor's own MCP event), put
/// into the shape of a shell call, and kept only where the harness's own
/// decoding reads that server and tool back. `None` where none does.
fn mcp_payload(h: &dyn Harness, event: Event, call: &ExampleCall, root: &Path) -> Option<Value> {
    let Some(Tool::Mcp { server, tool }) = &call.tool else {
        return None;
    };
    let shell = ExampleCall {
        tool: Some(Tool::Known {
            tool: crate::ir::ToolKind::Shell,
        }),
        command: Some("true".to_owned()),
        path: None,
        text: None,
    };
    let base = h.payload(event, &shell, root)?;
    let mut candidates = Vec::new();
    if let Some(o) = base
        .as_object()
        .filter(|o| o.contains_key("hook_event_name"))
    {
        let mut o = o.clone();
        o.remove("command");
        o.remove("sandbox");
        o.insert("hook_event_name".into(), json!("beforeMCPExecution"));
        o.insert("tool_name".into(), json!(tool));
        o.insert("mcp_server_name".into(), json!(server));
        o.insert("tool_input".into(), json!("{}"));
        candidates.push(Value::Object(o));
    }
    // Each form with a server in it (Cursor's event is the candidate above).
    let names: Vec<String> = harness::McpNames::ALL
        .iter()
        .filter_map(|form| form.parts())
        .map(|(prefix, sep)| format!("{prefix}{server}{sep}{tool}"))
        .collect();
    for key in ["tool_name", "toolName", "tool"] {
        if !base.get(key).is_some_and(Value::is_string) {
            continue;
        }
        for name in &names {
            let mut v = base.clone();
            v[key] = json!(name);
            for input in ["tool_input", "toolArgs", "args"] {
                if v.get(input).is_some() {
                    v[input] = json!({});
                }
            }
            candidates.push(v);
        }
    }
    let reads_back = |t: &crate::eval::CallTool| {
        std::iter::once(t)
            .chain(t.also.iter())
            .any(|r| r.mcp.as_ref() == Some(&(server.clone(), tool.clone())))
    };
    candidates.into_iter().find(|v| {
        h.decode_call(event, v)
            .ok()
            .and_then(|c| c.tool)
            .is_some_and(|t| reads_back(&t))
    })
}

/// A fixture file: `{"harness", "event" (default pre-tool), "payload", "expect"}`.
fn fixture(path: &Path) -> Result<(HarnessId, Case), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))?;
    let word = |k: &str| v.get(k).and_then(Value::as_str);
    let id = word("harness")
        .and_then(HarnessId::from_word)
        .ok_or("`harness` should name a harness, e.g. \"claude\"")?;
    let event = match word("event") {
        None => Event::PreTool,
        Some(w) => Event::from_word(w).ok_or_else(|| {
            format!(
                "`event` cannot be `{w}`; use one of {}",
                Event::WORDS.join(", ")
            )
        })?,
    };
    let payload = v.get("payload").ok_or("the fixture has no `payload`")?;
    let expect = word("expect").ok_or("the fixture has no `expect` (deny, ask or allow)")?;
    let h = harness::get(id).ok_or("unknown harness")?;
    let expected = match expect {
        "deny" | "block" => "blocks",
        "ask" if h.profile().honours_ask.contains(&event) => "asks",
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
            event,
            label: path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            expected,
            could_not_run: false,
            not_applicable: None,
            stdin: payload.to_string(),
            route: None,
            bin: Bin::Real,
        },
    ))
}

fn label(call: &ExampleCall) -> String {
    match (&call.command, &call.path, &call.tool) {
        (Some(c), _, _) => c.clone(),
        (None, Some(p), Some(t)) => format!("{} {p}", tool_word(t)),
        (None, Some(p), None) => p.clone(),
        (None, None, Some(t @ Tool::Mcp { .. })) => tool_word(t),
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

struct Env<'a> {
    root: &'a Path,
    home: &'a Path,
    bins: &'a Path,
    crash: &'a Path,
    /// The folder of the plugin harnesses' test drivers (see [`driver_path`]).
    drivers: &'a Path,
    /// `node`, found on this process's `PATH`.
    node: Option<&'a Path>,
    allow_missing_node: bool,
}

/// Run one case the way its harness runs its hook, and decode the result.
fn run_case(h: &dyn Harness, env: &Env, case: Case) -> Row {
    if let Some(why) = &case.not_applicable {
        return Row {
            guard: case.guard.clone(),
            harness: h.id().word(),
            event: case.event.word(),
            case: case.label.clone(),
            expected: "n/a",
            got: "n/a",
            ok: true,
            could_not_run: case.could_not_run,
            not_applicable: Some(why.clone()),
            model_reads: None,
            user_sees: None,
            rule: "",
        };
    }
    let path = match case.bin {
        Bin::Real => format!("{}:/usr/bin:/bin", env.bins.display()),
        Bin::Missing => "/usr/bin:/bin".to_owned(),
        Bin::Crashing | Bin::Timeout => format!("{}:/usr/bin:/bin", env.crash.display()),
    };
    if let Bin::Timeout = case.bin {
        return timeout_row(h, &case);
    }
    let root_s = env.root.to_string_lossy().into_owned();
    let (mut c, plugin) = if let Some(plugin) = h.plugin() {
        // The harness loads the generated plugin; node stands in for it.
        let Some(node) = env.node else {
            return node_missing(h, &case, env.allow_missing_node);
        };
        let mut c = Command::new(node);
        c.env_clear();
        c.arg(driver_path(env.drivers, h))
            .arg(env.root.join(plugin.file));
        (c, Some(plugin))
    } else {
        let payload: Value = serde_json::from_str(&case.stdin)
            .ok()
            .or_else(|| case.route.clone())
            .unwrap_or(Value::Null);
        let Some(hook) = h.hook_command(env.root, case.event, &payload) else {
            let o = Outcome::proceeds(
                "the generated config has no hook for this event: the harness runs nothing",
            );
            return row(h, &case, &o);
        };
        // A `/bin/sh` with the harness's PATH stands in for the harness and
        // starts the hook's shell as its child, as the harness does: the shim
        // looks for hookc on its parent's PATH too, so that parent must be
        // one with the case's PATH, not `hookc test`.
        let mut c = Command::new("/bin/sh");
        c.env_clear();
        c.args(["-c", "\"$0\" -c \"$1\"\nexit $?", hook.shell, &hook.command]);
        for (k, v) in &hook.env {
            c.env(k, v);
        }
        (c, None)
    };
    c.current_dir(env.root)
        .env("PATH", &path)
        .env("HOME", env.home)
        .env("PWD", &root_s);
    let obs = execute(&mut c, &case.stdin);
    let outcome = match plugin {
        Some(plugin) => (plugin.outcome)(&obs.stdout),
        None => h.outcome(case.event, &obs),
    };
    row(h, &case, &outcome)
}

/// The row of a hook that outlives the harness's timeout: the harness decides
/// alone; say what it does rather than fail on it.
fn timeout_row(h: &dyn Harness, case: &Case) -> Row {
    let obs = Observation {
        timed_out: true,
        ..Observation::default()
    };
    let mut r = row(h, case, &h.outcome(case.event, &obs));
    r.expected = r.got;
    r.ok = true;
    r.case = if r.got == "proceeds" {
        format!("{}: fails open (harness limit)", r.case)
    } else {
        format!("{}: refused", r.case)
    };
    r
}

/// Where `hookc test` writes a plugin harness's test driver.
fn driver_path(drivers: &Path, h: &dyn Harness) -> PathBuf {
    drivers.join(format!("{}-driver.mjs", h.id().word()))
}

/// The row of a plugin harness's case when there is no `node` to load the plugin with.
fn node_missing(h: &dyn Harness, case: &Case, allowed: bool) -> Row {
    let mut r = row(
        h,
        case,
        &Outcome::proceeds(
            "could not run: node not found on PATH, so the harness's plugin cannot be loaded; install Node.js, or pass --allow-missing-node to skip these rows",
        ),
    );
    r.got = "not run";
    r.ok = allowed;
    r.model_reads = None;
    if allowed {
        r.expected = "n/a";
        r.got = "n/a";
        r.not_applicable = Some("could not run: node not found (--allow-missing-node)".to_owned());
    } else {
        r.case = format!("could not run: node not found ({})", r.case);
    }
    r
}

/// `node` on this process's `PATH`.
fn find_node() -> Option<PathBuf> {
    crate::disk::on_path("node")
}

fn row(h: &dyn Harness, case: &Case, o: &Outcome) -> Row {
    let got = o.word();
    Row {
        guard: case.guard.clone(),
        harness: h.id().word(),
        event: case.event.word(),
        case: case.label.clone(),
        expected: case.expected,
        got,
        ok: got == case.expected,
        could_not_run: case.could_not_run,
        not_applicable: None,
        model_reads: o.model_reads.clone(),
        user_sees: o.user_sees.clone(),
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
