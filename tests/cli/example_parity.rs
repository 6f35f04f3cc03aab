//! An example decides exactly as the real hook does: every example of a
//! policy (command, path, MCP, prompt and stop), turned into the payload Claude Code would send for that call
//! (absolute paths, as Claude's file tools give them), goes through the
//! generated hook's `hookc guard`, and the harness's reading of the answer
//! must be what the example's own verdict says.

use std::path::Path;

use hookc::diag::Diagnostics;
use hookc::eval::{Call, Evaluator};
use hookc::harness::{self, Observation};
use hookc::ir::{Decision, Event, HarnessId, ToolKind};
use serde_json::json;

use crate::support::{HOOKC, Project, repo, run};

const POLICY: &str = r##"targets "claude"

guard "no-ssh-keys" {
    path "~/.ssh/*"
    deny "Do not read SSH keys; ask the user for what you need from them."
    example tool="read" path="~/.ssh/id_rsa" expect="deny"
    example tool="read" path="~/notes/id_rsa" expect="allow"
}

guard "no-env" {
    path ".env*" "!.env.example"
    deny "Do not read .env files; use .env.example for the variable names."
    example tool="read" path=".env" expect="deny"
    example tool="edit" path="config/.env.local" expect="deny"
    example tool="read" path=".env.example" expect="allow"
}

guard "no-etc-writes" {
    tool "write"
    path "/etc/**"
    deny "Do not write under /etc; change the project's own config instead."
    example tool="write" path="/etc/hosts" expect="deny"
    example tool="write" path="etc/hosts" expect="allow"
}

guard "no-force-push" {
    command "git" "push" { flag "-f" "--force"; }
    deny "Do not force-push; push a new branch instead."
    example "git push --force origin main" expect="deny"
    example "echo key >> ~/.ssh/authorized_keys" expect="deny"
    example "git push origin main" expect="allow"
}

guard "ask-before-refunds" {
    mcp "payments" "refund_*"
    ask "Refunds move money; confirm the amount and the customer with the user first."
    example tool="mcp" server="payments" name="refund_all" expect="ask"
    example server="payments" name="get_balance" expect="allow"
}

guard "no-todo-stops" {
    event "stop"
    regex #"(?i)\bTODO\b"#
    block "Finish the TODOs before you stop, or list them for the user."
    example text="Done, except TODO: tests" expect="block"
    example text="All done." expect="allow"
}

guard "no-secrets-in-prompts" {
    event "prompt"
    regex #"(?i)\bpassword\s*[:=]"#
    deny "Do not paste passwords; put them in the secret store and name the entry."
    example text="my password: hunter2" expect="deny"
    example text="reset the password form" expect="allow"
}
"##;

/// The Claude Code payload for an example's call, in `root` with `home`.
fn payload(event: Event, call: &Call, root: &Path, home: &Path) -> Option<serde_json::Value> {
    let absolute = |p: &str| match p.strip_prefix("~/") {
        Some(rest) => home.join(rest),
        None if p.starts_with('/') => Path::new(p).to_path_buf(),
        None => root.join(p),
    };
    let base = json!({
        "session_id": "s1",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": root,
        "permission_mode": "default",
    });
    let mut v = base;
    match event {
        Event::PreTool => {
            let tool = call.tool.as_ref()?;
            if let Some((server, name)) = &tool.mcp {
                v["hook_event_name"] = json!("PreToolUse");
                v["tool_name"] = json!(format!("mcp__{server}__{name}"));
                v["tool_input"] = json!({ "amount": 10 });
                v["tool_use_id"] = json!("toolu_1");
                return Some(v);
            }
            let (name, input) = match (tool.kind?, &call.command, call.paths.first()) {
                (ToolKind::Shell, Some(command), _) => ("Bash", json!({ "command": command })),
                (ToolKind::Read, _, Some(p)) => ("Read", json!({ "file_path": absolute(p) })),
                (ToolKind::Write, _, Some(p)) => {
                    ("Write", json!({ "file_path": absolute(p), "content": "x" }))
                }
                (ToolKind::Edit, _, Some(p)) => (
                    "Edit",
                    json!({ "file_path": absolute(p), "old_string": "a", "new_string": "b" }),
                ),
                _ => return None,
            };
            v["hook_event_name"] = json!("PreToolUse");
            v["tool_name"] = json!(name);
            v["tool_input"] = input;
            v["tool_use_id"] = json!("toolu_1");
        }
        Event::Prompt => {
            v["hook_event_name"] = json!("UserPromptSubmit");
            v["prompt"] = json!(call.text.as_ref()?);
        }
        _ => return None,
    }
    Some(v)
}

/// Run every example of `policy_text` both ways; returns how many were
/// compared.
fn compare(policy_text: &str) -> usize {
    let p = Project::new();
    p.write("policy.kdl", policy_text);
    p.build();
    let root = p.dir.path().canonicalize().unwrap();
    let home = root.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let mut diags = Diagnostics::default();
    let (_, policy) = hookc::compile::load(&p.path("policy.kdl"), &mut diags).unwrap();
    let evaluator = Evaluator::new(&policy);
    let claude = harness::get(HarnessId::Claude).unwrap();
    let mut compared = 0;
    for guard in &policy.guards {
        for example in &guard.examples {
            let call = Call::from_example(guard.event, &example.call);
            // Stop payloads as `hookc test` builds them (the harness's own
            // payload code); the others written out here.
            let payload = payload(guard.event, &call, &root, &home).or_else(|| {
                matches!(guard.event, Event::Stop)
                    .then(|| claude.payload(guard.event, &example.call, &root))
                    .flatten()
            });
            let Some(payload) = payload else {
                continue;
            };
            // What `hookc build` said the example decides.
            let verdict = evaluator.evaluate(&call).map(|v| v.decision);
            let out = run(
                std::process::Command::new(HOOKC)
                    .args([
                        "guard",
                        "--harness",
                        "claude",
                        "--event",
                        guard.event.word(),
                    ])
                    .arg("--policy")
                    .arg(root.join(".hookc/policy.json"))
                    .current_dir(&root)
                    .env("HOME", &home)
                    .env("CLAUDE_PROJECT_DIR", &root)
                    .env_remove("HOOKC_DEBUG"),
                Some(payload.to_string().as_bytes()),
            );
            let obs = Observation {
                exit: Some(out.status),
                stdout: out.stdout.clone(),
                stderr: out.stderr.clone(),
                timed_out: false,
            };
            let outcome = claude.outcome(guard.event, &obs);
            let refused = matches!(verdict, Some(Decision::Deny | Decision::Block));
            let asked = verdict == Some(Decision::Ask);
            assert_eq!(
                (!outcome.proceeds && !outcome.asks, outcome.asks),
                (refused, asked),
                "guard `{}`, example {:?}: the example decides {verdict:?}, the hook {outcome:?}\npayload {payload}",
                guard.name,
                example.call,
            );
            compared += 1;
        }
    }
    compared
}

#[test]
fn every_example_decides_as_the_real_hook_on_the_equivalent_payload() {
    assert_eq!(compare(POLICY), 34);
}

#[test]
fn the_bundled_policys_examples_decide_as_the_real_hook() {
    let text = std::fs::read_to_string(repo().join("policy.kdl")).unwrap();
    let text = format!("{text}\ntargets \"claude\"\n");
    assert!(compare(&text) >= 10);
}

#[test]
fn every_presets_examples_decide_as_the_real_hook() {
    // Strict takes every guard of every preset; the other levels are
    // subsets whose examples the init tests build.
    // Without self-protection, whose own examples would count too.
    let mut text = String::from("targets \"claude\"\nself-protection \"off\"\n");
    let mut examples = 0;
    for preset in hookc::presets::ALL {
        text.push_str(&format!("preset \"{}\" level=\"strict\"\n", preset.name));
        examples += preset.text.matches("\n    example ").count();
    }
    assert_eq!(compare(&text), examples);
}
