//! Kilo Code CLI: OpenCode's plugin in `.kilo/plugin/hookc.js`, imported and
//! called with Node as Kilo's loader does (see `harness_opencode`), and its
//! second shell tool, `background_process`.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::harness_opencode::{Driver, bare_path};
use crate::support::{HOOKC, Project, Run, run};

const PLUGIN: &str = ".kilo/plugin/hookc.js";

fn built() -> Project {
    let p = Project::bundled();
    p.build();
    p
}

#[test]
fn the_plugin_is_opencode_s_under_kilo_s_name() {
    let p = built();
    let text = p.read(PLUGIN);
    assert!(
        text.contains("// Kilo Code CLI loads this plugin from .kilo/plugin/."),
        "{text}"
    );
    assert!(text.contains("\"harness\":\"kilo\""), "{text}");
    assert!(!text.contains("OpenCode"), "{text}");
    // OpenCode's copy stays OpenCode's: Kilo does not read `.opencode/`.
    assert!(
        p.read(".opencode/plugin/hookc.js")
            .contains("\"harness\":\"opencode\"")
    );

    let driver = Driver::of(PLUGIN);
    let path = bare_path();
    let bin = Some(Path::new(HOOKC));
    let call = |tool: &str, args: Value| driver.call(&p, bin, &path, tool, args);
    let push = "git push --force origin main";
    for (tool, args) in [
        ("bash", json!({"command": push, "description": "push"})),
        (
            "background_process",
            json!({"action": "start", "command": push, "description": "push"}),
        ),
        (
            "background_process",
            json!({"action": "monitor", "command": push}),
        ),
    ] {
        let denied = call(tool, args.clone());
        assert_eq!(denied["exports"], json!([["HookcGuard", "function"]]));
        assert_eq!(denied["outcome"], "threw", "{tool} {args}: {denied}");
        assert!(
            denied["message"]
                .as_str()
                .unwrap()
                .starts_with("Do not force-push"),
            "{denied}"
        );
    }
    for (tool, args) in [
        ("bash", json!({"command": "cargo test"})),
        (
            "background_process",
            json!({"action": "start", "command": "npm run dev"}),
        ),
        ("background_process", json!({"action": "list"})),
        (
            "background_process",
            json!({"action": "stop", "id": "bg_1"}),
        ),
    ] {
        let ran = call(tool, args.clone());
        assert_eq!(ran["outcome"], "ran", "{tool} {args}: {ran}");
    }

    // Without hookc, even a harmless call is refused, naming Kilo.
    let missing = driver.call(&p, None, &bare_path(), "bash", json!({"command": "ls"}));
    assert_eq!(missing["outcome"], "threw");
    assert!(
        missing["message"]
            .as_str()
            .unwrap()
            .contains("then restart Kilo Code CLI"),
        "{missing}"
    );
}

fn guard(p: &Project, stdin: &str) -> Run {
    run(
        Command::new(HOOKC)
            .args(["guard", "--harness", "kilo", "--event", "pre-tool"])
            .arg("--policy")
            .arg(p.path(".hookc/policy.json"))
            .env_remove("HOOKC_DEBUG"),
        Some(stdin.as_bytes()),
    )
}

#[test]
fn a_background_process_call_hookc_cannot_read_is_refused() {
    let p = built();
    let payload = |args: Value| {
        json!({"tool": "background_process", "sessionID": "ses_1", "callID": "call_1",
            "args": args, "cwd": "/repo", "root": "/repo"})
        .to_string()
    };
    // An action 7.7.9 does not have, with no command: what it runs is not
    // known. So is a command that is not text. hookc answers neither, and
    // the plugin throws "could not check".
    for args in [
        json!({"action": "exec", "id": "bg_1"}),
        json!({"id": "bg_1"}),
        json!({"action": "start", "command": ["git", "push", "-f"]}),
    ] {
        let r = guard(&p, &payload(args.clone()));
        assert_eq!(
            (r.status, r.stdout.as_str()),
            (1, ""),
            "{args}: {}",
            r.stderr
        );
    }
    let fine = guard(&p, &payload(json!({"action": "logs", "id": "bg_1"})));
    assert_eq!(
        (fine.status, fine.stdout.as_str()),
        (0, ""),
        "{}",
        fine.stderr
    );
}

#[test]
fn doctor_fails_when_kilo_would_skip_the_project_s_plugins() {
    let p = built();
    let doctor = |skip: bool| {
        let mut cmd = Command::new(HOOKC);
        cmd.arg("doctor").current_dir(p.dir.path());
        if skip {
            cmd.env("KILO_DISABLE_PROJECT_CONFIG", "1");
        } else {
            cmd.env_remove("KILO_DISABLE_PROJECT_CONFIG");
        }
        run(&mut cmd, None)
    };
    let clean = doctor(false);
    assert!(
        !clean.stdout.contains("KILO_DISABLE_PROJECT_CONFIG"),
        "{}",
        clean.stdout
    );
    let off = doctor(true);
    assert_ne!(off.status, 0);
    assert!(
        off.stdout
            .contains("KILO_DISABLE_PROJECT_CONFIG is set, so Kilo loads no plugin"),
        "{}",
        off.stdout
    );
}
