//! Mistral Vibe: `.vibe/hooks.toml`, the hook command run the way Vibe runs
//! it (`/bin/sh -c` in the session's folder, nothing added to the
//! environment), its answer read the way Vibe reads a strict table's
//! (`Harness::outcome`), and `hookc doctor` on the folder's trust.

use std::path::Path;
use std::process::Command;

use hookc::ir::HarnessId;
use serde_json::{Value, json};

use crate::support::{
    BARE_PATH, Project, Run, make_executable, path_with_hookc, pre_tool_outcome, run,
};

const POLICY: &str = r#"targets "vibe"
timeout 7
guard "no-force-push" {
    command "git" "push" { flag "-f" "--force"; }
    deny "Push without --force, or open a pull request."
    example "git push --force" expect="deny"
    example "git push" expect="allow"
}
guard "no-env" {
    tool "read" "edit"
    path ".env"
    deny "Do not touch .env; ask the user to."
    example tool="edit" path=".env" expect="deny"
    example tool="edit" path="README.md" expect="allow"
}
"#;

fn built() -> Project {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.build();
    p
}

/// A pre_tool payload with the keys mistral-vibe 3.0.3 sends.
fn pre_tool(cwd: &Path, tool: &str, input: Value) -> String {
    json!({
        "session_id": "23f84be8",
        "transcript_path": "/home/u/.vibe/logs/session/unified/23f84be8",
        "cwd": cwd,
        "parent_session_id": null,
        "hook_event_name": "pre_tool",
        "tool_name": tool,
        "tool_call_id": "call_fake_1",
        "tool_input": input,
    })
    .to_string()
}

/// hookc's table of `.vibe/hooks.toml`.
fn table(p: &Project) -> toml_edit::Table {
    let doc: toml_edit::DocumentMut = p.read(".vibe/hooks.toml").parse().unwrap();
    doc["hooks"]
        .as_array_of_tables()
        .unwrap()
        .iter()
        .find(|t| t["name"].as_str() == Some("hookc-pre-tool"))
        .unwrap()
        .clone()
}

/// hookc's command, run as Vibe runs it: `/bin/sh -c` in the session's
/// folder, with the app's environment and nothing of its own.
fn hook(p: &Project, path: &str, stdin: &str) -> Run {
    let command = table(p)["command"].as_str().unwrap().to_owned();
    let root = p.dir.path();
    run(
        Command::new("/bin/sh")
            .arg("-c")
            .arg(command)
            .current_dir(root)
            .env_clear()
            .env("PATH", path)
            .env("HOME", root)
            .env("PWD", root),
        Some(stdin.as_bytes()),
    )
}

fn outcome(r: &Run) -> hookc::harness::Outcome {
    pre_tool_outcome(HarnessId::Vibe, r)
}

#[test]
fn the_table_is_strict_names_its_tools_and_keeps_the_users_own() {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.write(
        ".vibe/hooks.toml",
        "# mine\n[[hooks]]\nname = \"lint\"\ntype = \"post_tool\"\ncommand = \"make lint\"\n",
    );
    p.build();
    let t = table(&p);
    assert_eq!(t["type"].as_str(), Some("pre_tool"));
    // Without `strict`, a crash, a timeout or exit 2 would let the call through.
    assert_eq!(t["strict"].as_bool(), Some(true));
    assert_eq!(t["timeout"].as_integer(), Some(7));
    // `match`, never `matcher`, which Vibe ignores (and then runs the hook
    // on every tool).
    assert_eq!(
        t["match"].as_str(),
        Some("re:bash|process_start|read_file|edit|search_replace|write_file")
    );
    assert!(t.get("matcher").is_none());
    let text = p.read(".vibe/hooks.toml");
    assert!(
        text.starts_with("# mine\n") && text.contains("make lint"),
        "{text}"
    );
    // A second build changes nothing.
    let again = p.hookc(&["build"]);
    assert!(again.stdout.contains("0 files changed"), "{}", again.stdout);
}

#[test]
fn the_hook_refuses_with_a_json_deny_and_says_nothing_when_it_allows() {
    let p = built();
    let root = p.dir.path();
    let push = hook(
        &p,
        &path_with_hookc(),
        &pre_tool(
            root,
            "file_system.bash",
            json!({"command": "git push -f", "timeout": 120}),
        ),
    );
    assert_eq!(push.status, 0, "{}", push.stderr);
    let answer: Value = serde_json::from_str(push.stdout.trim()).unwrap();
    assert_eq!(answer["decision"], "deny");
    let o = outcome(&push);
    assert!(!o.proceeds);
    assert!(o.model_reads.unwrap().contains("Push without --force"));

    let env = hook(
        &p,
        &path_with_hookc(),
        &pre_tool(
            root,
            "file_system.edit",
            json!({"file_path": root.join(".env"), "old_string": "a", "new_string": "b"}),
        ),
    );
    assert!(!outcome(&env).proceeds, "{}", env.stdout);

    let fine = hook(
        &p,
        &path_with_hookc(),
        &pre_tool(root, "file_system.bash", json!({"command": "git push"})),
    );
    assert_eq!(
        (fine.status, fine.stdout.as_str()),
        (0, ""),
        "{}",
        fine.stderr
    );
    assert!(outcome(&fine).proceeds);

    // Without hookc the strict table refuses, and the model reads why.
    let lost = hook(
        &p,
        BARE_PATH,
        &pre_tool(root, "file_system.bash", json!({"command": "ls"})),
    );
    assert_ne!(lost.status, 0);
    let o = outcome(&lost);
    assert!(!o.proceeds);
    assert!(
        o.model_reads
            .unwrap()
            .contains("hookc could not check this call")
    );
}

#[test]
fn doctor_says_whether_vibe_trusts_the_folder() {
    let p = built();
    let home = p.path("vibe-home");
    std::fs::create_dir_all(&home).unwrap();
    let doctor = || {
        run(
            Command::new(env!("CARGO_BIN_EXE_hookc"))
                .arg("doctor")
                .current_dir(p.dir.path())
                .env("VIBE_HOME", &home),
            None,
        )
    };
    let unknown = doctor();
    assert!(
        unknown.stdout.contains("not trusted yet"),
        "{}",
        unknown.stdout
    );
    let root = std::fs::canonicalize(p.dir.path()).unwrap();
    std::fs::write(
        home.join("trusted_folders.toml"),
        format!("trusted = []\nuntrusted = [{:?}]\n", root),
    )
    .unwrap();
    let untrusted = doctor();
    assert_ne!(untrusted.status, 0);
    assert!(
        untrusted
            .stdout
            .contains("marks the project's folder untrusted"),
        "{}",
        untrusted.stdout
    );
    std::fs::write(
        home.join("trusted_folders.toml"),
        format!("trusted = [{:?}]\nuntrusted = []\n", root),
    )
    .unwrap();
    let trusted = doctor();
    assert!(
        trusted.stdout.contains("the project's folder is trusted"),
        "{}",
        trusted.stdout
    );
}

#[test]
fn doctor_fails_a_table_that_could_undo_hookcs() {
    let p = built();
    let doctor = || {
        let r = run(
            Command::new(env!("CARGO_BIN_EXE_hookc"))
                .arg("doctor")
                .current_dir(p.dir.path())
                .env("VIBE_HOME", p.path("vibe-home")),
            None,
        );
        (r.status, format!("{}{}", r.stdout, r.stderr))
    };
    let (_, clean) = doctor();
    assert!(!clean.contains("after hookc's"), "{clean}");
    let ours = p.read(".vibe/hooks.toml");
    // A repository's table after hookc's sees the call hookc let through,
    // and may rewrite it.
    p.write(
        ".vibe/hooks.toml",
        &format!(
            "{ours}\n[[hooks]]\nname = \"fixer\"\ntype = \"pre_tool\"\ncommand = \"./fix.sh\"\n"
        ),
    );
    let (status, out) = doctor();
    assert_ne!(status, 0, "{out}");
    assert!(
        out.contains("runs pre_tool hooks after hookc's (fixer)"),
        "{out}"
    );
    // One of hookc's name before it: Vibe keeps the first and drops hookc's.
    p.write(
        ".vibe/hooks.toml",
        &format!("[[hooks]]\nname = \"hookc-pre-tool\"\ntype = \"pre_tool\"\ncommand = \"true\"\n\n{ours}"),
    );
    let (status, out) = doctor();
    assert_ne!(status, 0, "{out}");
    assert!(out.contains("so Vibe drops hookc's"), "{out}");
}

#[test]
fn lint_reads_hooks_toml_as_vibe_does() {
    let p = built();
    let clean = p.hookc(&["lint"]);
    assert_eq!(clean.status, 0, "{}{}", clean.stdout, clean.stderr);
    let ours = p.read(".vibe/hooks.toml");
    p.write(
        ".vibe/hooks.toml",
        &format!(
            "{ours}\n[[hooks]]\nname = \"guard\"\ntype = \"pre_tool\"\ncommand = \"./guard.sh\"\nmatcher = \"bash\"\n\n\
             [[hooks]]\nname = \"guard\"\ntype = \"PreToolUse\"\ncommand = \"true\"\n"
        ),
    );
    let r = p.hookc(&["lint"]);
    let out = format!("{}{}", r.stdout, r.stderr);
    assert_ne!(r.status, 0, "{out}");
    for finding in [
        // A Kimi-style key: ignored by Vibe, so the hook runs on every tool.
        "Mistral Vibe ignores `matcher`",
        "write `match`",
        // Not strict: exit 2, a crash or a timeout let the call through.
        "without `strict = true`",
        "has no hook type `PreToolUse`",
        "keeps the first and drops this one",
    ] {
        assert!(out.contains(finding), "{finding}: {out}");
    }
    // Not read as Kimi Code's config, whose advice would break Vibe's.
    assert!(!out.contains("Kimi"), "{out}");
}

/// hookc's command run as [`hook`] does, but under a stand-in `vibe`
/// process (hookc reads how Vibe was started from its command line), with
/// `VIBE_HOME` in the project.
fn hook_under_vibe(p: &Project, stdin: &str) -> Run {
    hook_under_vibe_with(p, stdin, &[])
}

/// [`hook_under_vibe`], the stand-in started with `args` after the hook's
/// command.
fn hook_under_vibe_with(p: &Project, stdin: &str, args: &[&str]) -> Run {
    let vibe = p.path("stand-in/vibe");
    p.write("stand-in/vibe", "#!/bin/sh\n/bin/sh -c \"$1\"\n");
    make_executable(&vibe);
    let root = p.dir.path();
    run(
        Command::new(&vibe)
            .arg(table(p)["command"].as_str().unwrap())
            .args(args)
            .current_dir(root)
            .env_clear()
            .env("PATH", path_with_hookc())
            .env("HOME", root)
            .env("PWD", root)
            .env("VIBE_HOME", p.path("vibe-home")),
        Some(stdin.as_bytes()),
    )
}

/// On Linux a line hookc cannot read runs under `hookc exec`: the hook
/// hands Vibe the changed `tool_input`, behind an assignment that makes
/// Vibe ask about that exact line wherever it asks, unless a deny list of
/// Vibe's, which it would no longer match, may refuse the line.
#[test]
fn a_line_hookc_cannot_read_runs_supervised_unless_vibes_deny_list_may_refuse_it() {
    if hookc::runtime::supervised::available().is_err() {
        return;
    }
    let p = built();
    let root = p.dir.path();
    let call = |line: &str| {
        pre_tool(
            root,
            "file_system.bash",
            json!({"command": line, "timeout": 120}),
        )
    };
    let line = "c=$(printf 'gi%s' t); $c push --force origin main";
    let r = hook_under_vibe(&p, &call(line));
    assert_eq!(r.status, 0, "{r:?}");
    assert!(outcome(&r).supervised(), "{r:?}");
    let answer: Value = serde_json::from_str(&r.stdout).unwrap();
    let input = &answer["hook_specific_output"]["tool_input"];
    assert_eq!(input["timeout"], 120, "{answer}");
    let command = input["command"].as_str().unwrap();
    assert!(command.starts_with("HOOKC_SUPERVISED=vibe '"), "{command}");
    crate::support::assert_supervised_push_is_stopped(command, root);

    // Under `vibe run-server`, which takes the user's config from its
    // client, hookc cannot read Vibe's rules: refused.
    let server = hook_under_vibe_with(&p, &call(line), &["run-server"]);
    assert_eq!(outcome(&server).word(), "blocks", "{server:?}");
    assert!(server.stdout.contains("`run-server`"), "{server:?}");

    // An entry of the user's deny list that may start a command of the
    // line keeps it refused, named.
    p.write(
        "vibe-home/config.toml",
        "[tools.bash]\ndenylist = [\"git push\"]\n",
    );
    let r = hook_under_vibe(&p, &call("m=$(date); git push origin main $m"));
    assert_eq!(outcome(&r).word(), "blocks", "{r:?}");
    assert!(r.stdout.contains("`tools.bash.denylist`"), "{r:?}");
    // So does one of Vibe's own defaults (`vim`).
    let r = hook_under_vibe(&p, &call("f=$(ls); vim \"$f\""));
    assert!(r.stdout.contains("Vibe's defaults"), "{r:?}");
}

/// A `rewrite` guard hands Vibe the call's input with the policy's command
/// (every other key kept), which Vibe then judges with its own rules; where
/// Vibe's deny list may refuse the line as the model wrote it, hookc
/// refuses instead and names the command, so that a rewrite never carries a
/// call past the user's rules.
#[test]
fn a_rewrite_hands_vibe_the_changed_input_unless_its_deny_list_may_refuse_the_original() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        r##"targets "vibe"
guard "pnpm" {
    command "npm" "install"
    rewrite "hookc ran pnpm, which this project uses, instead of npm." {
        replace #"^npm "# "pnpm "
    }
    example "npm install" expect="rewrite"
}
"##,
    );
    p.build();
    let root = p.dir.path();
    let call = pre_tool(
        root,
        "file_system.bash",
        json!({"command": "npm install", "timeout": 120}),
    );
    let r = hook_under_vibe(&p, &call);
    assert_eq!(r.status, 0, "{r:?}");
    let answer: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        answer["hook_specific_output"]["tool_input"],
        json!({"command": "pnpm install", "timeout": 120}),
        "{answer}"
    );
    assert!(
        answer["system_message"]
            .as_str()
            .is_some_and(|m| m.contains("hookc ran pnpm")),
        "{answer}"
    );
    let o = outcome(&r);
    assert!(o.proceeds, "{o:?}");
    assert_eq!(o.runs.as_ref().unwrap()["command"], "pnpm install");

    // The user's deny list refuses `npm install`, and would not refuse
    // `pnpm install`: hookc refuses, naming the entry and the command.
    p.write(
        "vibe-home/config.toml",
        "[tools.bash]\ndenylist = [\"npm install\"]\n",
    );
    let r = hook_under_vibe(&p, &call);
    let o = outcome(&r);
    assert_eq!(o.word(), "blocks", "{r:?}");
    let said = o.model_reads.unwrap_or_default();
    assert!(said.contains("`tools.bash.denylist`"), "{said}");
    assert!(said.contains("Run this instead: pnpm install"), "{said}");
}
