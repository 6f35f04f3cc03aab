//! One answer for many guards, and rewrites, through every harness's own
//! channel: the generated shim runs as a process on the harness's payload,
//! and the harness's decoding of its output (`Harness::outcome`, the same
//! one `hookc simulate` and `hookc test` use) says what the model reads.

use std::path::Path;

use hookc::harness::{self, Observation, Outcome};
use hookc::ir::{Event, ExampleCall, HarnessId};
use serde_json::{Value, json};

use crate::support::{HOOKC, Project, path_with_hookc, run, sh_c};

/// Every registered target, the Claude Agent SDK included.
fn all_targets() -> String {
    let words: Vec<String> = harness::all()
        .iter()
        .map(|h| format!("\"{}\"", h.id()))
        .collect();
    format!("targets {}", words.join(" "))
}

/// Guards of every level, each with `@degraded` where [`levels`] puts the
/// `allow-degraded` list the build asks for.
const GUARDS: &str = r#"
guard "no-force-push" {
    command "git" "push" { flag "--force"; }
    deny "Do not force-push; push a new branch instead."
}
guard "no-hard-reset" {
    command "git" "reset" { flag "--hard"; }
    deny "Do not run git reset --hard; use git stash instead."
}
guard "ask-deploy" {
    command "deploy"
    ask "Deploying needs the user's go-ahead; ask them first."
    @degraded
}
guard "allow-make" {
    command "make"
    allow
    @degraded
}
guard "note-npm" {
    command "npm"
    context "Note: use npm ci with the lockfile instead of npm install."
    @degraded
}
"#;

/// [`GUARDS`] with each guard's `allow-degraded` list as the build asks for
/// it: the targets `hookc check` warns cannot carry the guard's decision
/// (`hookc::unsupported`). So the lists follow the harnesses' profiles, and
/// the tests below hold the answers to what the build says of them.
fn levels() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        let p = Project::new();
        p.write(
            "policy.kdl",
            &format!(
                "{}\n{}",
                all_targets(),
                GUARDS.replace("    @degraded\n", "")
            ),
        );
        let unsupported = crate::support::unsupported_targets(&p);
        let mut text = String::new();
        let mut guard = "";
        for line in GUARDS.lines() {
            if let Some(name) = line.strip_prefix("guard \"") {
                guard = name.split('"').next().unwrap();
            }
            if line.trim() != "@degraded" {
                text.push_str(line);
                text.push('\n');
                continue;
            }
            let words: Vec<String> = unsupported
                .get(guard)
                .into_iter()
                .flatten()
                .map(|word| format!("\"{word}\""))
                .collect();
            assert!(
                !words.is_empty(),
                "no target degrades `{guard}`: {unsupported:#?}"
            );
            text.push_str(&format!("    allow-degraded {}\n", words.join(" ")));
        }
        text
    })
}

fn project(policy: &str) -> Project {
    let p = Project::new();
    p.write("policy.kdl", policy);
    p.build();
    p
}

/// The pre-tool payload a harness sends for a shell command: the one
/// `hookc test` feeds its hooks ([`Harness::payload`](hookc::harness::Harness::payload),
/// checked against the real harnesses by the conformance suite), with one
/// more key in the tool input where the harness has an input object, which
/// a rewrite must hand back.
fn shell_payload(id: HarnessId, command: &str, root: &Path) -> Value {
    let call = ExampleCall {
        tool: None,
        command: Some(command.to_owned()),
        path: None,
        text: None,
    };
    let mut payload = harness::get(id)
        .unwrap()
        .payload(Event::PreTool, &call, root)
        .unwrap_or_else(|| panic!("{id} has no payload for a shell call"));
    if let Some(input) = payload.get_mut("tool_input").and_then(Value::as_object_mut) {
        input.insert("description".into(), json!("list the history"));
    }
    payload
}

/// Run the harness's generated shim (`hookc guard` itself for OpenCode and
/// the Agent SDK, whose plugin and callbacks pass hookc's answer on and are
/// run in their own tests) on `payload`; what it printed, and what the
/// harness makes of it.
fn answer(p: &Project, id: HarnessId, payload: &Value) -> (Observation, Outcome) {
    let shim = p.path(&format!(".hookc/{}/pre-tool.sh", id.word()));
    let h = harness::get(id).unwrap();
    // A harness that runs another's hooks as its own (VS Code, Copilot's)
    // is answered by those, as it runs them.
    let borrowed = (!shim.is_file() && !h.profile().hooks_from.is_empty())
        .then(|| h.hook_command(p.dir.path(), Event::PreTool, payload))
        .flatten();
    let r = if let Some(cmd) = borrowed {
        run(
            std::process::Command::new(cmd.shell)
                .arg("-c")
                .arg(&cmd.command)
                .current_dir(p.dir.path())
                .env_clear()
                .env("PATH", path_with_hookc())
                .env("HOME", p.dir.path())
                .envs(cmd.env.clone()),
            Some(payload.to_string().as_bytes()),
        )
    } else if shim.is_file() {
        sh_c(
            &format!("'{}'", shim.display()),
            p.dir.path(),
            &path_with_hookc(),
            &[],
            &payload.to_string(),
        )
    } else {
        run(
            std::process::Command::new(HOOKC)
                .args([
                    "guard",
                    "--harness",
                    id.word(),
                    "--event",
                    "pre-tool",
                    "--policy",
                ])
                .arg(p.path(".hookc/policy.json"))
                .current_dir(p.dir.path())
                .env_remove("HOOKC_DEBUG"),
            Some(payload.to_string().as_bytes()),
        )
    };
    let obs = Observation {
        exit: Some(r.status),
        stdout: r.stdout,
        stderr: r.stderr,
        timed_out: false,
    };
    let outcome = harness::get(id).unwrap().outcome(Event::PreTool, &obs);
    (obs, outcome)
}

fn said(o: &Outcome) -> String {
    format!(
        "{}\n{}",
        o.model_reads.as_deref().unwrap_or(""),
        o.user_sees.as_deref().unwrap_or("")
    )
}

/// Harnesses whose refusal stops the whole task and shows the reason to the
/// user, with no tool result for the model (Cline's `cancel: true`).
const REASON_TO_USER: &[HarnessId] = &[HarnessId::Cline];

#[test]
fn two_denying_guards_reach_the_model_as_two_numbered_reasons_in_every_harness() {
    let p = project(&format!("{}\n{}", all_targets(), levels()));
    for h in harness::all() {
        let payload = shell_payload(h.id(), "git push --force && git reset --hard", p.dir.path());
        let (obs, o) = answer(&p, h.id(), &payload);
        assert!(!o.proceeds && !o.asks, "{}: {o:?} from {obs:?}", h.id());
        let model = if REASON_TO_USER.contains(&h.id()) {
            o.user_sees.clone()
        } else {
            o.model_reads.clone()
        }
        .unwrap_or_default();
        let first = model.find("1. Do not force-push; push a new branch instead.");
        let second = model.find("2. Do not run git reset --hard; use git stash instead.");
        assert!(
            matches!((first, second), (Some(a), Some(b)) if a < b),
            "{}: the model reads {model:?}",
            h.id()
        );
    }
}

#[test]
fn deny_beats_ask_beats_allow_beats_context_in_every_harness() {
    let p = project(&format!("{}\n{}", all_targets(), levels()));
    let note = "Note: use npm ci";
    let ask = "Deploying needs the user's go-ahead";
    for h in harness::all() {
        let id = h.id();
        let decide = |command: &str| answer(&p, id, &shell_payload(id, command, p.dir.path())).1;

        // deny over ask, allow and context: only the refusal is read.
        let o = decide("deploy && make && npm ci && git push --force");
        assert!(!o.proceeds && !o.asks, "{id}: {o:?}");
        let text = said(&o);
        assert!(text.contains("Do not force-push"), "{id}: {text}");
        assert!(
            !text.contains(ask) && !text.contains(note) && !text.contains("1. "),
            "{id}: {text}"
        );

        // ask over allow and context: asked where the harness can ask,
        // refused (telling the model to ask) where it cannot.
        let o = decide("deploy && make && npm ci");
        assert!(!o.proceeds, "{id}: {o:?}");
        assert_eq!(
            o.asks,
            h.profile().honours_ask.contains(&Event::PreTool),
            "{id}: {o:?}"
        );
        let text = said(&o);
        assert!(text.contains(ask) && !text.contains(note), "{id}: {text}");

        // allow over context: the call goes ahead and the note is dropped.
        let o = decide("make && npm ci");
        assert!(o.proceeds, "{id}: {o:?}");
        assert!(!said(&o).contains(note), "{id}: {o:?}");

        // context alone: the call goes ahead; where the harness passes
        // context before a tool runs, the model reads it.
        let o = decide("npm ci");
        assert!(o.proceeds, "{id}: {o:?}");
        // The harnesses excused from `note-npm` are the ones whose build
        // warns that they cannot pass it; every other one must, and those
        // must not claim to.
        let excused = levels()
            .lines()
            .skip_while(|l| !l.contains("\"note-npm\""))
            .find(|l| l.contains("allow-degraded"))
            .unwrap()
            .contains(&format!("\"{id}\""));
        let read = o.model_reads.as_deref().is_some_and(|m| m.contains(note));
        assert_eq!(
            read,
            !excused,
            "{id}: the build says it {} pass context before a tool runs, but the model {} it: {o:?}",
            if excused { "cannot" } else { "can" },
            if read { "reads" } else { "does not read" },
        );
    }
}

const REWRITES: &str = r##"
targets "claude" "codex" "gemini" "claude-agent-sdk" "vibe" "copilot"
guard "git-no-pager" {
    command "git" "log"
    rewrite "hookc ran this with --no-pager so git did not wait for a pager; the output is the same." {
        replace #"^git "# "git --no-pager "
    }
    example "git log --oneline" expect="rewrite"
    example "git status" expect="pass"
}
guard "quiet-npm" {
    command "npm" "install"
    rewrite "hookc added --no-audit --no-fund to keep npm's output short." {
        replace #"\bnpm install\b"# "npm install --no-audit --no-fund"
    }
}
guard "pull-is-push" {
    command "git" "pull"
    rewrite "A careless rewrite: the policy must still refuse what it produces." {
        replace #"pull"# "push --force"
    }
}
guard "no-force-push" {
    command "git" "push" { flag "--force"; }
    deny "Do not force-push; push a new branch instead."
}
guard "ask-deploy" {
    command "deploy"
    ask "Deploying needs the user's go-ahead; ask them first."
    allow-degraded "codex"
}
guard "allow-make" {
    command "make"
    allow
    allow-degraded "codex" "copilot"
}
"##;

/// The harnesses that can rewrite, and where their answer carries the input.
const REWRITERS: &[(HarnessId, &str)] = &[
    (HarnessId::Claude, "/hookSpecificOutput/updatedInput"),
    (
        HarnessId::ClaudeAgentSdk,
        "/hookSpecificOutput/updatedInput",
    ),
    (HarnessId::Codex, "/hookSpecificOutput/updatedInput"),
    (HarnessId::Gemini, "/hookSpecificOutput/tool_input"),
    (HarnessId::Vibe, "/hook_specific_output/tool_input"),
    (HarnessId::Copilot, "/modifiedArgs"),
];

/// The harnesses whose answer carries no decision beside the changed input:
/// Copilot CLI applies `modifiedArgs` alone and judges the changed call by
/// its own rules, which an `allow` would skip.
const NO_DECISION: &[HarnessId] = &[HarnessId::Copilot];

/// The harnesses whose model reads no note before a tool runs: Gemini CLI
/// reads no added context there, and Mistral Vibe shows a hook's
/// `system_message` to the user only.
const NO_NOTE: &[HarnessId] = &[HarnessId::Gemini, HarnessId::Vibe];

#[test]
fn the_harnesses_that_can_rewrite_are_the_ones_hookc_rewrites_for() {
    let can: Vec<HarnessId> = harness::all()
        .iter()
        .filter(|h| h.profile().can_rewrite)
        .map(|h| h.id())
        .collect();
    let mut listed: Vec<HarnessId> = REWRITERS.iter().map(|(id, _)| *id).collect();
    listed.sort();
    let mut can_sorted = can.clone();
    can_sorted.sort();
    assert_eq!(can_sorted, listed);
}

#[test]
fn a_rewrite_hands_back_the_complete_input_with_an_explicit_allow_and_tells_the_model() {
    let p = project(REWRITES);
    for (id, pointer) in REWRITERS {
        let payload = shell_payload(*id, "git log --oneline", p.dir.path());
        let (obs, o) = answer(&p, *id, &payload);
        assert_eq!(obs.exit, Some(0), "{id}: {obs:?}");
        let out: Value = serde_json::from_str(&obs.stdout).unwrap();
        // The complete input: the command changed, every other key kept.
        // Copilot's `toolArgs` may be a JSON string holding the object.
        let mut expected = match payload
            .get("tool_input")
            .or_else(|| payload.get("toolArgs"))
        {
            Some(Value::String(args)) => serde_json::from_str(args).unwrap(),
            Some(args) => args.clone(),
            None => panic!("{id}: no input in {payload}"),
        };
        expected["command"] = json!("git --no-pager log --oneline");
        assert_eq!(out.pointer(pointer), Some(&expected), "{id}: {out}");
        assert!(o.proceeds, "{id}: {o:?}");
        assert_eq!(o.runs.as_ref(), Some(&expected), "{id}: {o:?}");
        // The input goes with an explicit allow, except where an allow
        // would skip the harness's own rules and the input needs none.
        let decision = out
            .pointer("/hookSpecificOutput/permissionDecision")
            .or_else(|| out.get("decision"))
            .or_else(|| out.get("permissionDecision"));
        let wanted = (!NO_DECISION.contains(id)).then_some(json!("allow"));
        assert_eq!(decision, wanted.as_ref(), "{id}: {out}");
        assert!(
            out.pointer("/hookSpecificOutput/additionalContext")
                .or_else(|| out.get("additionalContext"))
                .or_else(|| out.get("system_message"))
                .and_then(Value::as_str)
                .is_some_and(|c| c.contains("--no-pager")),
            "{id}: {out}"
        );
        if !NO_NOTE.contains(id) {
            assert!(
                o.model_reads
                    .as_deref()
                    .is_some_and(|m| m.contains("--no-pager")),
                "{id}: {o:?}"
            );
        }
    }
}

/// Codex drops an `updatedInput` without `permissionDecision: "allow"`
/// (the hook counts as failed), which is why hookc always pairs them there.
/// Claude Code applies one with `allow`, `ask` or no decision, and then
/// judges the new input by the user's own rules (Claude Code 2.1.332's
/// code; `runtime::supervised` relies on it). (Gemini's and Vibe's answers
/// have another shape; Vibe applies a new input with any answer but a
/// deny.)
#[test]
fn an_updated_input_without_allow_is_ignored_which_is_why_hookc_always_pairs_them() {
    let p = project(REWRITES);
    for (id, _) in REWRITERS.iter().filter(|(id, _)| {
        !matches!(id, HarnessId::Gemini | HarnessId::Vibe) && !NO_DECISION.contains(id)
    }) {
        let payload = shell_payload(*id, "git log --oneline", p.dir.path());
        let (obs, o) = answer(&p, *id, &payload);
        assert!(o.runs.is_some(), "{id}: {o:?}");
        // The same answer without `permissionDecision: "allow"`.
        let mut out: Value = serde_json::from_str(&obs.stdout).unwrap();
        out["hookSpecificOutput"]
            .as_object_mut()
            .unwrap()
            .remove("permissionDecision");
        let trapped = Observation {
            stdout: format!("{out}\n"),
            ..obs
        };
        let o = harness::get(*id).unwrap().outcome(Event::PreTool, &trapped);
        assert!(o.proceeds, "{id}: {o:?}");
        if *id == HarnessId::Claude {
            assert!(
                o.runs.is_some(),
                "{id}: applied, then judged by the user's rules: {o:?}"
            );
        } else {
            assert_eq!(
                o.runs, None,
                "{id}: the rewrite should be lost without allow"
            );
        }
    }
}

#[test]
fn rewrites_apply_in_order_below_deny_and_ask_and_above_allow() {
    let p = project(REWRITES);
    for (id, pointer) in REWRITERS {
        let decide = |command: &str| {
            let (obs, o) = answer(&p, *id, &shell_payload(*id, command, p.dir.path()));
            (
                serde_json::from_str::<Value>(&obs.stdout).unwrap_or(Value::Null),
                o,
            )
        };

        let (out, o) = decide("git log -1 && npm install");
        assert_eq!(
            out.pointer(pointer).and_then(|i| i.get("command")),
            Some(&json!(
                "git --no-pager log -1 && npm install --no-audit --no-fund"
            )),
            "{id}: {out}"
        );
        let note = o.model_reads.clone().unwrap_or_default();
        if !NO_NOTE.contains(id) {
            assert!(
                note.contains("1. hookc ran this") && note.contains("2. hookc added"),
                "{id}: {note}"
            );
        }

        // A deny on the same call wins.
        let (_, o) = decide("git log && git push --force");
        assert!(!o.proceeds && o.runs.is_none(), "{id}: {o:?}");

        // ask beats rewrite: the user is asked about the command as written.
        let (_, o) = decide("git log && deploy");
        assert!(!o.proceeds && o.runs.is_none(), "{id}: {o:?}");
        assert!(said(&o).contains("go-ahead"), "{id}: {o:?}");

        // rewrite beats allow: an allow guard does not drop the edit.
        let (out, o) = decide("git log && make");
        assert!(o.proceeds, "{id}: {o:?}");
        assert_eq!(
            out.pointer(pointer).and_then(|i| i.get("command")),
            Some(&json!("git --no-pager log && make")),
            "{id}: {out}"
        );

        // The rewritten command is checked again: a rewrite cannot produce
        // a call the policy refuses.
        let (_, o) = decide("git pull");
        assert!(!o.proceeds, "{id}: {o:?}");
        assert!(said(&o).contains("Do not force-push"), "{id}: {o:?}");

        // No rewriting guard: nothing happens.
        let (out, o) = decide("git status");
        assert!(
            o.proceeds && o.runs.is_none() && o.model_reads.is_none(),
            "{id}: {out}"
        );

        // A rewriting guard whose edit changes nothing (two spaces, which
        // its regex does not expect): a plain allow, and no note.
        let (out, o) = decide("npm  install");
        assert!(
            o.proceeds && o.runs.is_none() && o.model_reads.is_none(),
            "{id}: {out}"
        );
    }
}

#[test]
fn a_harness_that_runs_claudes_hooks_but_cannot_rewrite_refuses_and_names_the_command() {
    let p = project(REWRITES);
    // Cursor runs .claude/settings.json; its payload says so.
    let payload = shell_payload(HarnessId::Cursor, "git log --oneline", p.dir.path());
    let r = run(
        std::process::Command::new(HOOKC)
            .args([
                "guard",
                "--harness",
                "claude",
                "--event",
                "pre-tool",
                "--policy",
            ])
            .arg(p.path(".hookc/policy.json"))
            .env_remove("HOOKC_DEBUG"),
        Some(payload.to_string().as_bytes()),
    );
    let obs = Observation {
        exit: Some(r.status),
        stdout: r.stdout,
        stderr: r.stderr,
        timed_out: false,
    };
    let o = harness::get(HarnessId::Cursor)
        .unwrap()
        .outcome(Event::PreTool, &obs);
    assert!(!o.proceeds, "{o:?}");
    assert!(
        said(&o).contains("Run this instead: git --no-pager log --oneline"),
        "{o:?}"
    );
}

#[test]
fn hookc_test_checks_rewrite_examples() {
    let p = project(REWRITES);
    let r = p.hookc(&["test"]);
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
}
