//! The Claude Agent SDK modules, executed: the Python module's callbacks run
//! under `python3` with asyncio, the JavaScript twin of the TypeScript module
//! under Node, on SDK-shaped inputs; every answer is checked against the
//! shapes pinned from the SDKs' type definitions
//! (`tests/fixtures/claude-agent-sdk/shapes.json`). Without `python3` or
//! `node` on PATH the tests that need them say so and pass.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::support::{HOOKC, Project, repo, run};

const POLICY: &str = r##"
targets "claude-agent-sdk"
timeout 2
guard "no-force-push" {
    command "git" "push" { flag "--force"; }
    deny "Do not force-push; push a new branch instead."
    message "hookc refused a force push"
}
guard "no-hard-reset" {
    command "git" "reset" { flag "--hard"; }
    deny "Do not run git reset --hard; use git stash instead."
}
guard "ask-before-editing-migrations" {
    tool "edit"
    path "migrations/**"
    ask "Confirm with the user before editing a migration."
}
guard "git-no-pager" {
    command "git" "log"
    rewrite "hookc ran this with --no-pager so git did not wait for a pager." {
        replace #"^git "# "git --no-pager "
    }
}
guard "no-secrets-in-prompts" {
    event "prompt"
    regex #"sk-[A-Za-z0-9]{8,}"#
    deny "Do not paste API keys into the chat; put them in the environment instead."
}
guard "tests-before-stopping" {
    event "stop"
    regex "TODO"
    block "Finish the TODOs you left before stopping."
}
guard "mcp-refunds" {
    mcp "pay\"ments" "refund_*"
    ask "Refunds move money: confirm with the user."
}
"##;

fn shapes() -> Value {
    let text = std::fs::read_to_string(repo().join("tests/fixtures/claude-agent-sdk/shapes.json"))
        .unwrap();
    serde_json::from_str(&text).unwrap()
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect()
}

/// Check one callback result against what both SDKs accept.
fn check_shape(shapes: &Value, event: &str, answer: &Value) {
    let object = answer
        .as_object()
        .unwrap_or_else(|| panic!("{event}: the callback returned {answer}, not an object"));
    let sync = &shapes["sync_output"];
    for key in object.keys() {
        for language in ["python", "typescript"] {
            assert!(
                strings(&sync[language]["keys"]).contains(&key.as_str()),
                "{event}: `{key}` is not a {language} SDK output key: {answer}"
            );
        }
    }
    if let Some(decision) = object.get("decision") {
        for language in ["python", "typescript"] {
            assert!(
                strings(&sync[language]["decision"]).contains(&decision.as_str().unwrap()),
                "{event}: decision {decision} ({language}): {answer}"
            );
        }
    }
    if let Some(specific) = object.get("hookSpecificOutput") {
        assert_eq!(specific["hookEventName"], event, "{answer}");
        let spec = &shapes["hook_specific_output"][event];
        assert!(spec.is_object(), "{event}: no pinned hookSpecificOutput");
        for key in specific.as_object().unwrap().keys() {
            for language in ["python", "typescript"] {
                assert!(
                    strings(&spec[language]).contains(&key.as_str()),
                    "{event}: `{key}` is not in the {language} SDK's hookSpecificOutput: {answer}"
                );
            }
        }
        if let Some(d) = specific.get("permissionDecision") {
            assert!(
                strings(&spec["permissionDecision"]).contains(&d.as_str().unwrap()),
                "{answer}"
            );
        }
        if let Some(input) = specific.get("updatedInput") {
            assert!(input.is_object(), "{answer}");
        }
    }
}

/// A pinned-shape input for `event`.
fn input(event: &str, fields: Value) -> Value {
    let mut v = json!({
        "session_id": "s1",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": "/tmp",
        "permission_mode": "default",
        "hook_event_name": event,
    });
    for (k, x) in fields.as_object().unwrap() {
        v[k] = x.clone();
    }
    let shapes = shapes();
    for key in strings(&shapes["inputs"]["base"]["required"])
        .into_iter()
        .chain(strings(&shapes["inputs"][event]["required"]))
    {
        assert!(v.get(key).is_some(), "{event} input lacks `{key}`: {v}");
    }
    v
}

fn bash(command: &str) -> Value {
    input(
        "PreToolUse",
        json!({"tool_name": "Bash", "tool_input": {"command": command, "description": "run it"}, "tool_use_id": "toolu_1"}),
    )
}

/// One call of a callback: the SDK event, the input, and whether to make
/// the input impossible to serialise (the callback itself then fails).
struct Case {
    event: &'static str,
    input: Value,
    unserialisable: bool,
}

fn case(event: &'static str, input: Value) -> Case {
    Case {
        event,
        input,
        unserialisable: false,
    }
}

fn have(program: &str) -> bool {
    let found = Command::new(program).arg("--version").output().is_ok();
    if !found {
        eprintln!("skipped: `{program}` is not on PATH, so the generated module was not run");
    }
    found
}

const PYTHON_DRIVER: &str = r#"
import asyncio, json, sys
sys.path.insert(0, sys.argv[1])
import hookc_hooks
out = []
for case in json.load(sys.stdin):
    data = case["input"]
    if case["unserialisable"]:
        data = dict(data, bad={1, 2})
    result = asyncio.run(hookc_hooks.CALLBACKS[case["event"]](data, data.get("tool_use_id"), {"signal": None}))
    out.append(result)
print(json.dumps(out))
"#;

const NODE_DRIVER: &str = r#"
import { pathToFileURL } from "node:url";
const { hookcHooks } = await import(pathToFileURL(process.argv[1]).href);
let text = "";
for await (const chunk of process.stdin) text += chunk;
const out = [];
for (const c of JSON.parse(text)) {
  let data = c.input;
  if (c.unserialisable) data = { ...data, bad: 1n };
  out.push(await hookcHooks[c.event][0].hooks[0](data, data.tool_use_id, { signal: new AbortController().signal }));
}
console.log(JSON.stringify(out));
"#;

/// Run `cases` through the Python module, and through the JavaScript module,
/// with `hookc_bin` as HOOKC_BIN; the answers of each language that ran.
fn call(p: &Project, hookc_bin: &Path, cases: &[Case]) -> Vec<(&'static str, Vec<Value>)> {
    let stdin = Value::Array(
        cases
            .iter()
            .map(
                |c| json!({"event": c.event, "input": c.input, "unserialisable": c.unserialisable}),
            )
            .collect(),
    )
    .to_string();
    let dir = p.path(".hookc/claude-agent-sdk");
    let mut out = Vec::new();
    let mut go = |language: &'static str, command: &mut Command| {
        command
            .current_dir(p.dir.path())
            .env("HOOKC_BIN", hookc_bin)
            .env_remove("HOOKC_DEBUG");
        let r = run(command, Some(stdin.as_bytes()));
        assert_eq!(
            r.status, 0,
            "{language} driver failed:\n{}{}",
            r.stdout, r.stderr
        );
        let answers: Vec<Value> = serde_json::from_str(r.stdout.trim())
            .unwrap_or_else(|e| panic!("{language}: {e}: {}", r.stdout));
        assert_eq!(answers.len(), cases.len());
        out.push((language, answers));
    };
    if have("python3") {
        go(
            "python",
            Command::new("python3")
                .arg("-c")
                .arg(PYTHON_DRIVER)
                .arg(&dir),
        );
    }
    if have("node") {
        go(
            "javascript",
            Command::new("node")
                .args(["--input-type=module", "-e", NODE_DRIVER])
                .arg(dir.join("hookc_hooks.mjs")),
        );
    }
    out
}

fn built() -> Project {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.build();
    p
}

fn reason(answer: &Value) -> &str {
    answer
        .pointer("/hookSpecificOutput/permissionDecisionReason")
        .or_else(|| answer.get("reason"))
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no reason in {answer}"))
}

#[test]
fn the_callbacks_answer_through_hookc_in_the_sdks_shapes() {
    let p = built();
    let shapes = shapes();
    let cases = [
        case("PreToolUse", bash("ls -la")),
        case("PreToolUse", bash("git push --force origin main")),
        case("PreToolUse", bash("git push --force && git reset --hard")),
        case(
            "PreToolUse",
            input(
                "PreToolUse",
                json!({"tool_name": "Edit", "tool_input": {"file_path": "migrations/1.sql", "old_string": "a", "new_string": "b"}, "tool_use_id": "toolu_2"}),
            ),
        ),
        case("PreToolUse", bash("git log --oneline")),
        case(
            "UserPromptSubmit",
            input(
                "UserPromptSubmit",
                json!({"prompt": "use sk-abcdefgh12345 please"}),
            ),
        ),
        case(
            "Stop",
            input(
                "Stop",
                json!({"stop_hook_active": false, "last_assistant_message": "Done, TODO: tests"}),
            ),
        ),
        Case {
            unserialisable: true,
            ..case("PreToolUse", bash("ls"))
        },
    ];
    for (language, answers) in call(&p, Path::new(HOOKC), &cases) {
        for (c, a) in cases.iter().zip(&answers) {
            check_shape(&shapes, c.event, a);
        }
        let at = |i: usize| &answers[i];
        assert_eq!(at(0), &json!({}), "{language}: no guard matched");

        assert_eq!(
            at(1)["hookSpecificOutput"]["permissionDecision"],
            "deny",
            "{language}"
        );
        assert_eq!(
            reason(at(1)),
            "Do not force-push; push a new branch instead."
        );
        assert_eq!(at(1)["systemMessage"], "hookc refused a force push");

        let two = reason(at(2));
        assert!(
            two.contains("1. Do not force-push") && two.contains("2. Do not run git reset --hard"),
            "{language}: {two}"
        );

        assert_eq!(
            at(3)["hookSpecificOutput"]["permissionDecision"],
            "ask",
            "{language}"
        );

        let rewrite = &at(4)["hookSpecificOutput"];
        assert_eq!(rewrite["permissionDecision"], "allow", "{language}");
        assert_eq!(
            rewrite["updatedInput"],
            json!({"command": "git --no-pager log --oneline", "description": "run it"})
        );
        assert!(
            rewrite["additionalContext"]
                .as_str()
                .unwrap()
                .contains("--no-pager")
        );

        assert_eq!(at(5)["decision"], "block", "{language}: {}", at(5));
        assert!(reason(at(5)).starts_with("Do not paste API keys"));
        assert_eq!(at(6)["decision"], "block", "{language}: {}", at(6));
        assert!(reason(at(6)).starts_with("Finish the TODOs"));

        assert_eq!(
            at(7)["hookSpecificOutput"]["permissionDecision"],
            "deny",
            "{language}"
        );
        assert!(
            reason(at(7)).contains("the hook callback failed"),
            "{language}: {}",
            at(7)
        );
    }
}

#[test]
fn every_way_hookc_can_fail_is_a_refusal_never_an_empty_answer() {
    let p = built();
    let shapes = shapes();
    let bin = tempfile::tempdir().unwrap();
    let fake = |name: &str, body: &str| {
        let path = bin.path().join(name);
        std::fs::write(&path, format!("#!/bin/sh\ncat >/dev/null\n{body}\n")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    };
    let speaking = |body: &str| {
        format!(
            "(\n{body}\n)\nstatus=$?\n{}\nexit $status",
            crate::support::PROVE
        )
    };
    let failures = [
        (
            bin.path().join("missing-hookc"),
            "the hookc program was not found",
        ),
        (
            fake("crash", "echo 'thread main panicked' >&2; exit 101"),
            "exit status 101",
        ),
        (
            fake("garbage", &speaking("echo 'not json'")),
            "without an answer the SDK can use",
        ),
        (fake("two-no-json", &speaking("exit 2")), "exit status 2"),
        (
            fake("empty-object", &speaking("echo '{}'; exit 2")),
            "exit status 2",
        ),
        // A hookc too old for the handshake, and any other program.
        (
            fake("stale", "echo '{}'; exit 0"),
            "answered, but not as hookc guard does",
        ),
        (
            Path::new("/bin/true").to_owned(),
            "answered, but not as hookc guard does",
        ),
        (fake("killed", "kill -9 $$"), "killed"),
        (
            fake("hang", "exec sleep 30"),
            "did not answer within 2 seconds",
        ),
    ];
    let cases = [
        case("PreToolUse", bash("ls")),
        case(
            "UserPromptSubmit",
            input("UserPromptSubmit", json!({"prompt": "hello"})),
        ),
    ];
    for (program, why) in &failures {
        for (language, answers) in call(&p, program, &cases) {
            for (c, a) in cases.iter().zip(&answers) {
                check_shape(&shapes, c.event, a);
                let refused = a.pointer("/hookSpecificOutput/permissionDecision")
                    == Some(&json!("deny"))
                    || a.get("decision") == Some(&json!("block"));
                assert!(refused, "{language} {}: {a}", program.display());
                let text = reason(a);
                assert!(
                    text.starts_with("hookc could not check this call, so it was refused")
                        && text.contains(why)
                        && text.contains("Fix: "),
                    "{language} {}: {text}",
                    program.display()
                );
            }
        }
    }
}

#[test]
fn the_matchers_route_claude_tool_names_and_register_every_guarded_event() {
    let p = built();
    let shapes = shapes();
    let expected = json!({
        // Self-protection adds Write (the tools that write).
        "PreToolUse": r"^(?:Bash|Edit|MultiEdit|NotebookEdit|PowerShell|Write|mcp__pay\x22ments__refund_.*)$",
        "UserPromptSubmit": null,
        "Stop": null,
    });
    for event in expected.as_object().unwrap().keys() {
        for language in ["python", "typescript"] {
            assert!(
                strings(&shapes["hook_events"][language]).contains(&event.as_str()),
                "{event} is not a {language} SDK hook event"
            );
        }
    }
    if have("python3") {
        // `hookc_hooks()` with a stand-in for the SDK's HookMatcher dataclass.
        let script = r#"
import json, sys, types, dataclasses
sdk = types.ModuleType("claude_agent_sdk")
@dataclasses.dataclass
class HookMatcher:
    matcher: object = None
    hooks: list = dataclasses.field(default_factory=list)
    timeout: object = None
sdk.HookMatcher = HookMatcher
sys.modules["claude_agent_sdk"] = sdk
sys.path.insert(0, sys.argv[1])
import hookc_hooks, re
hooks = hookc_hooks.hookc_hooks()
print(json.dumps({e: {"matcher": m[0].matcher, "timeout": m[0].timeout, "n": len(m[0].hooks), "mcp": bool(m[0].matcher and re.search(m[0].matcher, 'mcp__pay"ments__refund_all'))} for e, m in hooks.items()}))
"#;
        let r = run(
            Command::new("python3")
                .arg("-c")
                .arg(script)
                .arg(p.path(".hookc/claude-agent-sdk")),
            None,
        );
        assert_eq!(r.status, 0, "{}", r.stderr);
        let got: Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(got.as_object().unwrap().len(), 3, "{got}");
        for (event, matcher) in expected.as_object().unwrap() {
            let m = &got[event];
            let want = matcher
                .as_str()
                .map(|s| s.replace(r"\x22", "\""))
                .map_or(Value::Null, Value::from);
            assert_eq!(m["matcher"], want, "{event}");
            assert_eq!(m["timeout"], 7, "{event}: the policy's timeout plus 5");
            assert_eq!(m["n"], 1);
        }
        assert_eq!(got["PreToolUse"]["mcp"], true);
    }
    if have("node") {
        let script = r#"
import { pathToFileURL } from "node:url";
const { hookcHooks } = await import(pathToFileURL(process.argv[1]).href);
console.log(JSON.stringify(Object.fromEntries(Object.entries(hookcHooks).map(([e, [m]]) =>
  [e, { matcher: m.matcher ?? null, timeout: m.timeout, n: m.hooks.length,
        mcp: m.matcher ? new RegExp(m.matcher).test('mcp__pay"ments__refund_all') : false }]))));
"#;
        let r = run(
            Command::new("node")
                .args(["--input-type=module", "-e", script])
                .arg(p.path(".hookc/claude-agent-sdk/hookc_hooks.mjs")),
            None,
        );
        assert_eq!(r.status, 0, "{}", r.stderr);
        let got: Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(got.as_object().unwrap().len(), 3, "{got}");
        assert_eq!(got["PreToolUse"]["mcp"], true, "{got}");
        assert_eq!(got["Stop"]["matcher"], Value::Null, "{got}");
        assert_eq!(got["PreToolUse"]["timeout"], 7, "{got}");
    }
}

#[test]
fn the_typescript_module_is_the_javascript_module_with_types() {
    let p = built();
    let ts = p.read(".hookc/claude-agent-sdk/hookc_hooks.ts");
    let js = p.read(".hookc/claude-agent-sdk/hookc_hooks.mjs");
    assert!(ts.contains("import type {") && !js.contains("import type"));
    // Every line of code in the JavaScript module is in the TypeScript one,
    // modulo annotations; checked loosely: the same function names and the
    // same refusal texts, in the same order.
    let marks = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| {
                l.starts_with("function ")
                    || l.starts_with("async function ")
                    || l.contains("hookc could not check")
            })
            .map(|l| l.split('(').next().unwrap().to_owned())
            .collect()
    };
    assert_eq!(marks(&ts), marks(&js));
    let Some(types) = std::env::var_os("HOOKC_SDK_TYPES") else {
        eprintln!(
            "skipped: set HOOKC_SDK_TYPES to a directory with `typescript`, `@types/node` and `@anthropic-ai/claude-agent-sdk` installed to type-check hookc_hooks.ts against the SDK"
        );
        return;
    };
    let dir = Path::new(&types);
    std::fs::write(dir.join("hookc_hooks.ts"), &ts).unwrap();
    std::fs::write(
        dir.join("tsconfig.hookc.json"),
        r#"{"compilerOptions":{"target":"ES2022","module":"NodeNext","moduleResolution":"NodeNext","strict":true,"noEmit":true,"types":["node"],"skipLibCheck":true},"files":["hookc_hooks.ts"]}"#,
    )
    .unwrap();
    let r = run(
        Command::new(dir.join("node_modules/.bin/tsc"))
            .args(["-p", "tsconfig.hookc.json"])
            .current_dir(dir),
        None,
    );
    assert_eq!(r.status, 0, "tsc:\n{}{}", r.stdout, r.stderr);
}
