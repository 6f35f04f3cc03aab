//! `hookc build --managed`: the guards in each harness's administrator
//! layer, run by one hookc named by absolute path.

use std::path::Path;
use std::process::Command;

use crate::support::{
    BARE_PATH, Project, Run, claude_bash, decoded_line, encoded_script, fake_hookc, run, sh_c,
};

const HOOKC: &str = env!("CARGO_BIN_EXE_hookc");

/// The bundled policy for three harnesses with an administrator layer, and
/// Kimi Code, which has none hookc writes.
fn managed_policy() -> Project {
    let p = Project::bundled();
    let policy = p.read("policy.kdl");
    p.write(
        "policy.kdl",
        &format!("{policy}\ntargets \"claude\" \"codex\" \"gemini\" \"kimi\"\n"),
    );
    p
}

/// `hookc ARGS --managed --root tree --os linux --hookc HOOKC` in the project.
fn managed(p: &Project, args: &[&str]) -> Run {
    run(
        Command::new(HOOKC)
            .args(args)
            .args([
                "--managed",
                "--root",
                "tree",
                "--os",
                "linux",
                "--hookc",
                HOOKC,
            ])
            .current_dir(p.dir.path())
            .env("XDG_STATE_HOME", p.path("state")),
        None,
    )
}

/// `hookc build --managed` of a tree for macOS, in `mtree`.
fn build_for_macos(p: &Project) -> Run {
    run(
        Command::new(HOOKC)
            .args(["build", "--managed", "--os", "macos", "--root", "mtree"])
            .args(["--hookc", HOOKC])
            .current_dir(p.dir.path()),
        None,
    )
}

/// `hookc build --managed` of a tree for Windows, in `wtree`, running the
/// administrator's hookc at `D:\Tools\hookc\hookc.exe`.
fn build_for_windows(p: &Project) -> Run {
    run(
        Command::new(HOOKC)
            .args(["build", "--managed", "--os", "windows", "--root", "wtree"])
            .args(["--hookc", r"D:\Tools\hookc\hookc.exe"])
            .current_dir(p.dir.path()),
        None,
    )
}

fn ok(r: &Run) {
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
}

/// The command Claude Code runs for PreToolUse, from the managed drop-in.
fn claude_command(p: &Project) -> String {
    let settings: serde_json::Value =
        serde_json::from_str(&p.read("tree/etc/claude-code/managed-settings.d/50-hookc.json"))
            .unwrap();
    settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn a_managed_tree_holds_each_administrator_file_and_hookc_s_own() {
    let p = managed_policy();
    let r = managed(&p, &["build"]);
    ok(&r);
    // Kimi Code has no administrator layer hookc writes: named, not
    // silently dropped.
    assert!(r.stderr.contains("hookc::no-managed-layer"), "{}", r.stderr);
    assert!(r.stderr.contains("Kimi Code CLI"), "{}", r.stderr);
    // Gemini CLI's hooks are written, and said to be switchable off.
    assert!(
        r.stderr.contains("hookc::managed-not-enforced")
            && r.stderr.contains("hooksConfig.disabled"),
        "{}",
        r.stderr
    );
    assert!(!p.exists("tree/etc/hookc/kimi") && !p.exists(".kimi-code"));
    // Nothing of a project build.
    assert!(!p.exists(".hookc") && !p.exists(".claude"));

    let claude: serde_json::Value =
        serde_json::from_str(&p.read("tree/etc/claude-code/managed-settings.d/50-hookc.json"))
            .unwrap();
    assert_eq!(claude["allowManagedHooksOnly"], true);
    assert!(claude_command(&p).contains("'/etc/hookc/claude/pre-tool.sh'"));
    assert_eq!(
        claude["hooks"]["PreToolUse"][0]["hooks"][0]["onFailure"],
        "block"
    );

    let codex: toml_edit::DocumentMut = p.read("tree/etc/codex/requirements.toml").parse().unwrap();
    assert_eq!(codex["allow_managed_hooks_only"].as_bool(), Some(true));
    assert_eq!(codex["features"]["hooks"].as_bool(), Some(true));
    let handler = &codex["hooks"]["PreToolUse"]
        .as_array_of_tables()
        .unwrap()
        .get(0)
        .unwrap()["hooks"]
        .as_array_of_tables()
        .unwrap()
        .get(0)
        .unwrap()["command"];
    assert!(
        handler
            .as_str()
            .unwrap()
            .contains("'/etc/hookc/codex/pre-tool.sh'")
    );

    let gemini: serde_json::Value =
        serde_json::from_str(&p.read("tree/etc/gemini-cli/settings.json")).unwrap();
    assert!(
        gemini["hooks"]["BeforeTool"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .contains("'/etc/hookc/gemini/pre-tool.sh'")
    );

    // Each shim runs the administrator's hookc and no other.
    let shim = p.read("tree/etc/hookc/claude/pre-tool.sh");
    assert!(shim.contains(&format!("hookc='{HOOKC}'")), "{shim}");
    assert!(!shim.contains("HOOKC_BIN:-"), "{shim}");

    // A second build changes nothing; `check` agrees, and finds a hand edit.
    let again = managed(&p, &["build"]);
    ok(&again);
    assert!(again.stdout.contains("0 files changed"), "{}", again.stdout);
    ok(&managed(&p, &["check"]));
    p.write("tree/etc/hookc/claude/pre-tool.sh", "#!/bin/sh\nexit 0\n");
    let drift = managed(&p, &["check"]);
    assert_eq!(drift.status, 1, "{}{}", drift.stdout, drift.stderr);
    assert!(
        drift.stdout.contains("etc/hookc/claude/pre-tool.sh"),
        "{}",
        drift.stdout
    );
    // A guard the policy gained is named, as in a project's check.
    let policy = p.read("policy.kdl");
    p.write(
        "policy.kdl",
        &format!("{policy}\nguard \"no-curl\" untested=\"a name to find\" {{\n    tool \"shell\"\n    command \"curl\"\n    deny \"Ask the user to fetch it.\"\n}}\n"),
    );
    let drift = managed(&p, &["check"]);
    let line = drift
        .stdout
        .lines()
        .find(|l| l.starts_with("etc/hookc/policy.json:"))
        .unwrap_or_else(|| panic!("{}", drift.stdout));
    assert!(line.contains("no-curl"), "{line}");
}

#[test]
fn the_switch_for_other_hooks_stays_off_when_asked() {
    let p = managed_policy();
    ok(&managed(&p, &["build", "--allow-other-hooks"]));
    let claude = p.read("tree/etc/claude-code/managed-settings.d/50-hookc.json");
    assert!(!claude.contains("allowManagedHooksOnly"), "{claude}");
    let codex = p.read("tree/etc/codex/requirements.toml");
    assert!(!codex.contains("allow_managed_hooks_only"), "{codex}");
    // The pin that keeps `[features] hooks = false` from turning them off stays.
    assert!(codex.contains("[features]\nhooks = true"), "{codex}");
    // Copilot CLI keeps the switch in its managed settings, not written now.
    let p = crate::support::bundled_for("\"copilot\"");
    ok(&managed(&p, &["build"]));
    assert_eq!(
        json(&p, "tree/etc/github-copilot/managed-settings.json"),
        serde_json::json!({ "allowManagedHooksOnly": true })
    );
    let policy_doc = json(&p, "tree/etc/github-copilot/policy.d/50-hookc.json");
    let keys: Vec<&String> = policy_doc.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["version", "hooks"],
        "a policy document holds hooks only"
    );
    ok(&managed(&p, &["build", "--allow-other-hooks"]));
    assert!(!p.exists("tree/etc/github-copilot/managed-settings.json"));
    let r = p.hookc(&["doctor", "--managed", "--root", "tree"]);
    assert!(
        r.stdout.contains("`allowManagedHooksOnly` is off"),
        "{}",
        r.stdout
    );
}

fn json(p: &Project, rel: &str) -> serde_json::Value {
    serde_json::from_str(&p.read(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn an_administrator_file_hookc_did_not_write_is_not_replaced() {
    let p = managed_policy();
    p.write(
        "tree/etc/codex/requirements.toml",
        "allowed_approval_policies = [\"on-request\"]\n",
    );
    let r = managed(&p, &["build"]);
    assert_eq!(r.status, 1, "{}{}", r.stdout, r.stderr);
    assert_eq!(
        p.read("tree/etc/codex/requirements.toml"),
        "allowed_approval_policies = [\"on-request\"]\n"
    );
    assert!(
        r.stderr.contains("etc/codex/requirements.toml"),
        "{}",
        r.stderr
    );
    // The administrator merges the text `--print` gives by hand.
    let printed = managed(&p, &["build", "--print", "codex"]);
    ok(&printed);
    assert!(
        printed.stdout.contains("[[hooks.PreToolUse]]"),
        "{}",
        printed.stdout
    );
    // Gemini CLI's system settings are merged into, keeping what is there.
    p.write(
        "tree/etc/gemini-cli/settings.json",
        "{\n  \"security\": { \"auth\": { \"selectedType\": \"gemini-api-key\" } }\n}\n",
    );
    ok(&managed(&p, &["build", "--force"]));
    let gemini: serde_json::Value =
        serde_json::from_str(&p.read("tree/etc/gemini-cli/settings.json")).unwrap();
    assert_eq!(gemini["security"]["auth"]["selectedType"], "gemini-api-key");
    assert!(gemini["hooks"]["BeforeTool"].is_array(), "{gemini}");
    // What `--force` replaced, and the file merged into, are kept beside them.
    assert_eq!(
        p.read("tree/etc/codex/requirements.toml.hookc-backup"),
        "allowed_approval_policies = [\"on-request\"]\n"
    );
    assert!(
        p.read("tree/etc/gemini-cli/settings.json.hookc-backup")
            .contains("gemini-api-key")
    );

    // Taken out of `targets`, a harness's managed hooks are retracted: hookc's
    // entries leave the administrator's file, its own file goes.
    let policy = p.read("policy.kdl").replace(
        "targets \"claude\" \"codex\" \"gemini\" \"kimi\"",
        "targets \"claude\"",
    );
    p.write("policy.kdl", &policy);
    ok(&managed(&p, &["build"]));
    assert!(!p.exists("tree/etc/codex/requirements.toml"));
    assert!(!p.exists("tree/etc/hookc/codex") && !p.exists("tree/etc/hookc/gemini"));
    let gemini: serde_json::Value =
        serde_json::from_str(&p.read("tree/etc/gemini-cli/settings.json")).unwrap();
    assert_eq!(gemini["security"]["auth"]["selectedType"], "gemini-api-key");
    assert!(gemini.get("hooks").is_none(), "{gemini}");
    assert!(p.exists("tree/etc/claude-code/managed-settings.d/50-hookc.json"));
    // `check` says how to mend a stale managed tree.
    std::fs::remove_file(p.path("tree/etc/hookc/claude/pre-tool.sh")).unwrap();
    let drift = managed(&p, &["check"]);
    assert_eq!(drift.status, 1, "{}{}", drift.stdout, drift.stderr);
    assert!(
        drift.stderr.contains("sudo hookc build --managed"),
        "{}",
        drift.stderr
    );
}

#[test]
fn a_managed_shim_runs_the_administrators_hookc_whatever_the_environment_says() {
    let p = managed_policy();
    ok(&managed(&p, &["build"]));
    // The command as Claude Code runs it, with the tree where the machine
    // would have it.
    let shim = p.path("tree/etc/hookc/claude/pre-tool.sh");
    let command = claude_command(&p).replace(
        "'/etc/hookc/claude/pre-tool.sh'",
        &format!("'{}'", shim.display()),
    );
    // A hookc on PATH and in HOOKC_BIN that lets everything through.
    let fake = fake_hookc(&p, "fake", "exit 0");
    let fake_dir = fake.parent().unwrap().display().to_string();
    let state = p.path("state").display().to_string();
    let env = [
        ("HOOKC_BIN", fake.to_str().unwrap()),
        ("XDG_STATE_HOME", state.as_str()),
    ];
    let path = format!("{fake_dir}:{BARE_PATH}");
    let denied = sh_c(
        &command,
        p.dir.path(),
        &path,
        &env,
        &claude_bash("git push --force"),
    );
    assert_eq!(denied.status, 2, "{denied:?}");
    assert!(denied.stderr.contains("Do not force-push"), "{denied:?}");
    let allowed = sh_c(
        &command,
        p.dir.path(),
        &path,
        &env,
        &claude_bash("git status"),
    );
    assert_eq!(allowed.status, 0, "{allowed:?}");

    // Without the administrator's hookc, the call is refused, and the
    // model is told not to look for another.
    let r = run(
        Command::new(HOOKC)
            .args(["build", "--managed", "--root", "tree", "--os", "linux"])
            .args(["--hookc", "/nonexistent/hookc"])
            .current_dir(p.dir.path()),
        None,
    );
    ok(&r);
    let gone = sh_c(
        &command,
        p.dir.path(),
        &path,
        &env,
        &claude_bash("git status"),
    );
    assert_eq!(gone.status, 2, "{gone:?}");
    assert!(
        gone.stderr
            .contains("the hookc this machine's managed hooks run (/nonexistent/hookc) is gone"),
        "{gone:?}"
    );
}

#[test]
fn only_an_absolute_hookc_of_the_trees_system_is_taken() {
    let p = managed_policy();
    for (os, hookc) in [
        ("linux", "hookc"),
        ("linux", "./hookc"),
        ("linux", "/usr/local/../bin/hookc"),
        ("windows", "/usr/local/bin/hookc"),
        ("windows", r"C:\x\..\hookc.exe"),
        ("windows", r"C:\100%\hookc.exe"),
    ] {
        let r = run(
            Command::new(HOOKC)
                .args(["build", "--managed", "--root", "tree", "--os", os])
                .args(["--hookc", hookc])
                .current_dir(p.dir.path()),
            None,
        );
        assert_eq!(r.status, 2, "{hookc}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stderr.contains("not an absolute, plain path on"),
            "{}",
            r.stderr
        );
    }
    assert!(!p.exists("tree"));
}

/// Whether this test may make a private mount namespace (root and unshare).
fn can_mount() -> bool {
    let root = std::fs::metadata("/proc/self").is_ok_and(|m| {
        use std::os::unix::fs::MetadataExt;
        m.uid() == 0
    });
    root && Command::new("unshare").arg("--help").output().is_ok()
}

/// `command` under `sh -c` with the tree's `etc` laid over the machine's
/// `/etc`, in a private mount namespace (gone when it ends).
fn on_a_managed_machine(tree: &Path, command: &str, state: &Path, stdin: &str) -> Run {
    run(
        Command::new("unshare")
            .args(["-m", "/bin/sh", "-c"])
            .arg(
                "mount -t overlay overlay -o lowerdir=\"$T/etc\":/etc /etc && exec /bin/sh -c \"$C\"",
            )
            .env_clear()
            .env("PATH", BARE_PATH)
            .env("T", tree)
            .env("C", command)
            .env("XDG_STATE_HOME", state),
        Some(stdin.as_bytes()),
    )
}

/// On a managed machine (the project's `tree` laid over `/etc`), the
/// managed `command` refuses the force-push probe with the policy's reason
/// and lets `git status` through; `payload` makes the harness's stdin for a
/// shell line. Skipped, saying so, where no private mount can be made.
fn probe_on_a_managed_machine(p: &Project, command: &str, payload: &dyn Fn(&str) -> String) {
    if !can_mount() {
        eprintln!("skipped the run: needs root and unshare for a private mount");
        return;
    }
    let (tree, state) = (p.path("tree"), p.path("state"));
    let r = on_a_managed_machine(&tree, command, &state, &payload("git push --force"));
    assert_eq!(r.status, 2, "{r:?}");
    assert!(r.stderr.contains("Do not force-push"), "{r:?}");
    let r = on_a_managed_machine(&tree, command, &state, &payload("git status"));
    assert_eq!(r.status, 0, "{r:?}");
}

/// A managed policy is the administrator's: the record that refuses a
/// project's older build is not kept for it, or the administrator's next
/// build would refuse every call on the machine. A copy of the same tree
/// that anyone may change is held to the record.
#[test]
fn the_administrators_next_build_answers_at_once() {
    if !can_mount() {
        eprintln!("skipped: needs root and unshare for a private mount");
        return;
    }
    let p = managed_policy();
    ok(&managed(&p, &["build"]));
    let tree = p.path("tree");
    let state = p.path("state");
    let command = claude_command(&p);
    let r = on_a_managed_machine(&tree, &command, &state, &claude_bash("git push --force"));
    assert_eq!(r.status, 2, "{r:?}");
    assert!(r.stderr.contains("Do not force-push"), "{r:?}");

    // The administrator adds a guard and builds again.
    let policy = p.read("policy.kdl");
    p.write(
        "policy.kdl",
        &format!(
            "{policy}\nguard \"no-curl\" {{\n    tool \"shell\"\n    command \"curl\"\n    deny \"Do not run curl here; ask the user to fetch it.\"\n    example \"curl x\" expect=\"deny\"\n    example \"git status\" expect=\"allow\"\n}}\n"
        ),
    );
    ok(&managed(&p, &["build"]));
    let r = on_a_managed_machine(&tree, &command, &state, &claude_bash("curl example.com"));
    assert_eq!(r.status, 2, "{r:?}");
    assert!(r.stderr.contains("Do not run curl here"), "{r:?}");
    let r = on_a_managed_machine(&tree, &command, &state, &claude_bash("git status"));
    assert_eq!(r.status, 0, "{r:?}");

    // The same compiled policy where others may write (under /tmp) is held
    // to the record of the first build it answered with.
    let policy = tree.join("etc/hookc/policy.json");
    let copy = p.path("copy/policy.json");
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    let guard = |policy: &Path| {
        run(
            Command::new(HOOKC)
                .args([
                    "guard",
                    "--harness",
                    "claude",
                    "--event",
                    "pre-tool",
                    "--policy",
                ])
                .arg(policy)
                .env("XDG_STATE_HOME", &state),
            Some(claude_bash("git status").as_bytes()),
        )
    };
    std::fs::copy(&policy, &copy).unwrap();
    ok(&guard(&copy));
    let before = std::fs::read_to_string(&policy).unwrap();
    p.write(
        "policy.kdl",
        &p.read("policy.kdl").replace("no-curl", "no-curl-2"),
    );
    ok(&managed(&p, &["build"]));
    assert_ne!(std::fs::read_to_string(&policy).unwrap(), before);
    std::fs::copy(&policy, &copy).unwrap();
    let refused = guard(&copy);
    assert!(
        refused.stdout.contains("not the build") || refused.stderr.contains("not the build"),
        "{refused:?}"
    );
}

/// `hookc doctor --managed` on the machine (the tree laid over `/etc`), with
/// the managed hooks running `/bin/sh` as their hookc: a program that is
/// there and only root's (doctor runs nothing).
fn doctor_on_a_managed_machine(p: &Project) -> Run {
    let tree = p.path("tree");
    on_a_managed_machine(
        &tree,
        &format!("'{HOOKC}' doctor --managed"),
        &p.path("state"),
        "",
    )
}

#[test]
fn doctor_says_what_holds_the_managed_hooks_and_what_would_switch_them_off() {
    let p = managed_policy();
    let r = run(
        Command::new(HOOKC)
            .args(["build", "--managed", "--root", "tree", "--os", "linux"])
            .args(["--hookc", "/bin/sh"])
            .current_dir(p.dir.path()),
        None,
    );
    ok(&r);
    // A tree under a folder anyone may write to is not a managed install.
    let r = p.hookc(&["doctor", "--managed", "--root", "tree"]);
    assert_eq!(r.status, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("Claude Code: ") && r.stdout.contains("holds hookc's hooks"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("can be changed by a user other than root"),
        "{}",
        r.stdout
    );
    if !can_mount() {
        eprintln!("skipped the rest: needs root and unshare for a private mount");
        return;
    }
    let r = doctor_on_a_managed_machine(&p);
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
    for name in ["Claude Code", "Codex CLI", "Gemini CLI"] {
        assert!(
            r.stdout.contains(&format!("ok    {name}: /etc/")),
            "{name}: {}",
            r.stdout
        );
    }
    assert!(
        r.stdout
            .contains("note  Gemini CLI: a project or user can still switch"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("the managed hooks will run here"),
        "{}",
        r.stdout
    );

    // Another managed file that turns every hook off.
    p.write(
        "tree/etc/claude-code/managed-settings.json",
        "{ \"disableAllHooks\": true }\n",
    );
    let r = doctor_on_a_managed_machine(&p);
    assert_eq!(r.status, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("/etc/claude-code/managed-settings.json sets `disableAllHooks`"),
        "{}",
        r.stdout
    );
    std::fs::remove_file(p.path("tree/etc/claude-code/managed-settings.json")).unwrap();

    // A drop-in changed since the build.
    let drop_in = "tree/etc/claude-code/managed-settings.d/50-hookc.json";
    p.write(drop_in, &p.read(drop_in).replace("\"block\"", "\"allow\""));
    let r = doctor_on_a_managed_machine(&p);
    assert_eq!(r.status, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("is not what the last managed build wrote"),
        "{}",
        r.stdout
    );
}

/// FNV-1a, as the manifest records a file's digest.
fn fnv(text: &str) -> String {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

/// A manifest planted in hookc's folder of the managed tree that claims a
/// file of the machine, with its very digest, does not get it removed: only
/// the harnesses' administrator files are taken by digest alone.
#[test]
fn a_planted_manifest_cannot_retract_a_file_of_the_machine() {
    let p = managed_policy();
    ok(&managed(&p, &["build"]));
    let sudoers = "root ALL=(ALL:ALL) ALL\n";
    p.write("tree/etc/sudoers", sudoers);
    let mut manifest = json(&p, "tree/etc/hookc/manifest.json");
    manifest["files"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({
            "path": "etc/sudoers", "kind": "whole", "digest": fnv(sudoers)
        }));
    p.write(
        "tree/etc/hookc/manifest.json",
        &serde_json::to_string_pretty(&manifest).unwrap(),
    );
    let r = managed(&p, &["build"]);
    assert_eq!(
        p.read("tree/etc/sudoers"),
        sudoers,
        "{}{}",
        r.stdout,
        r.stderr
    );
    assert!(r.stderr.contains("shows no sign of hookc"), "{}", r.stderr);
}

/// The compiled policy's build (the digest of its first line), as `hookc
/// build` wrote it.
fn build_of(policy: &str) -> String {
    let head = policy.lines().next().unwrap();
    let at = head.rfind("\"sum\":\"").unwrap() + "\"sum\":\"".len();
    head[at..].split('"').next().unwrap().to_owned()
}

#[test]
fn a_managed_tree_for_windows_runs_the_administrators_hookc_on_the_policy_it_was_built_with() {
    let p = Project::bundled();
    let policy = p.read("policy.kdl");
    p.write(
        "policy.kdl",
        &format!("{policy}\ntargets \"claude\" \"codex\" \"copilot\" \"cursor\" \"gemini\"\n"),
    );
    let hookc = r"D:\Tools\hookc\hookc.exe";
    let build = |root: &str| {
        run(
            Command::new(HOOKC)
                .args(["build", "--managed", "--os", "windows", "--root", root])
                .args(["--hookc", hookc])
                .current_dir(p.dir.path()),
            None,
        )
    };
    let r = build("tree");
    ok(&r);
    ok(&run(
        Command::new(HOOKC)
            .args(["check", "--managed", "--os", "windows", "--root", "tree"])
            .args(["--hookc", hookc])
            .current_dir(p.dir.path()),
        None,
    ));
    // `doctor --managed` reads a Windows tree here too: it finds each
    // file, says what it cannot check, and what switches the hooks off.
    let doctor = |extra: &[&str]| {
        run(
            Command::new(HOOKC)
                .args(["doctor", "--managed", "--os", "windows"])
                .args(extra)
                .current_dir(p.dir.path()),
            None,
        )
    };
    let fine = doctor(&["--root", "tree"]);
    assert_eq!(fine.status, 0, "{}{}", fine.stdout, fine.stderr);
    assert!(
        fine.stdout.contains(
            "ProgramData/OpenAI/Codex/requirements.toml (Codex's requirements) holds hookc's hooks"
        ) && fine
            .stdout
            .contains("hookc cannot read Windows permissions"),
        "{}",
        fine.stdout
    );
    p.write(
        "tree/Program Files/ClaudeCode/managed-settings.json",
        "{ \"disableAllHooks\": true }\n",
    );
    let off = doctor(&["--root", "tree"]);
    assert_eq!(off.status, 1, "{}{}", off.stdout, off.stderr);
    assert!(
        off.stdout
            .contains(r"C:\Program Files\ClaudeCode\managed-settings.json sets `disableAllHooks`"),
        "{}",
        off.stdout
    );
    std::fs::remove_file(p.path("tree/Program Files/ClaudeCode/managed-settings.json")).unwrap();
    let rootless = doctor(&[]);
    assert_eq!(rootless.status, 1, "{}{}", rootless.stdout, rootless.stderr);
    assert!(
        rootless.stdout.contains("--root DIR"),
        "{}",
        rootless.stdout
    );

    // hookc's own folder holds the policy, no POSIX shims.
    let compiled = p.read("tree/Program Files/hookc/policy.json");
    assert!(!p.exists("tree/Program Files/hookc/claude"));
    let id = build_of(&compiled);
    let runs_it =
        format!("$h = '{hookc}'; if (-not (Test-Path -LiteralPath $h -PathType Leaf)) {{ throw");
    let on_policy = format!(r"--policy 'C:\Program Files\hookc\policy.json' --build {id})");

    let claude = json(
        &p,
        "tree/Program Files/ClaudeCode/managed-settings.d/50-hookc.json",
    );
    assert_eq!(claude["allowManagedHooksOnly"], true);
    let handler = &claude["hooks"]["PreToolUse"][0]["hooks"][0];
    assert_eq!(handler["shell"], "powershell", "{handler}");
    let command = handler["command"].as_str().unwrap();
    for part in [&runs_it, &on_policy, "--harness claude --event pre-tool"] {
        assert!(command.contains(part), "{part} not in {command}");
    }

    let codex: toml_edit::DocumentMut = p
        .read("tree/ProgramData/OpenAI/Codex/requirements.toml")
        .parse()
        .unwrap();
    let command = codex["hooks"]["PreToolUse"]
        .as_array_of_tables()
        .unwrap()
        .get(0)
        .unwrap()["hooks"]
        .as_array_of_tables()
        .unwrap()
        .get(0)
        .unwrap()["command"]
        .as_str()
        .unwrap()
        .to_owned();
    // By its absolute path: cmd.exe would look in the project first.
    assert!(
        command.starts_with(r"C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe ")
            && command.ends_with(" || exit 2"),
        "{command}"
    );
    let script = encoded_script(&command);
    for part in [&runs_it, &on_policy, "--harness codex --event pre-tool"] {
        assert!(script.contains(part), "{part} not in {script}");
    }

    // Cursor runs its command as Codex does, through cmd.exe; `failClosed`
    // refuses where the command cannot run.
    let cursor = json(&p, "tree/ProgramData/Cursor/hooks.json");
    let handler = &cursor["hooks"]["preToolUse"][0];
    assert_eq!(handler["failClosed"], true, "{handler}");
    let script = encoded_script(handler["command"].as_str().unwrap());
    for part in [&runs_it, &on_policy, "--harness cursor --event pre-tool"] {
        assert!(script.contains(part), "{part} not in {script}");
    }

    // Gemini CLI runs the line in PowerShell (`-Command`); a comment at its
    // end marks it hookc's, and hides the exit-status check Gemini adds.
    let gemini = json(&p, "tree/ProgramData/gemini-cli/settings.json");
    assert_eq!(gemini["hooksConfig"]["enabled"], true);
    let command = gemini["hooks"]["BeforeTool"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    // No `$` for Gemini to replace with its environment's variables.
    assert!(!command.contains('$'), "{command}");
    let (line, marker) = command.split_once(" # ").unwrap();
    assert_eq!(marker, "Program Files/hookc/gemini/");
    let script = decoded_line(line);
    for part in [&runs_it, &on_policy, "--harness gemini --event pre-tool"] {
        assert!(script.contains(part), "{part} not in {script}");
    }
    assert!(script.ends_with("; exit 2"), "{script}");

    let copilot = json(&p, "tree/ProgramData/GitHub/Copilot/policy.d/50-hookc.json");
    let handler = &copilot["hooks"]["preToolUse"][0];
    assert!(handler.get("bash").is_none(), "{handler}");
    assert!(handler["powershell"].as_str().unwrap().contains(&on_policy));
    assert_eq!(
        json(&p, "tree/Program Files/GitHubCopilot/managed-settings.json")["allowManagedHooksOnly"],
        true
    );

    // What the hooks run: hookc guard on that policy, at that build. It
    // refuses a force push and lets a status through.
    let policy_path = p.path("tree/Program Files/hookc/policy.json");
    let guard = |build: &str, command: &str| {
        run(
            Command::new(HOOKC)
                .args(["guard", "--harness", "claude", "--event", "pre-tool"])
                .arg("--policy")
                .arg(&policy_path)
                .args(["--build", build])
                .env("XDG_STATE_HOME", p.path("state")),
            Some(claude_bash(command).as_bytes()),
        )
    };
    let push = guard(&id, "git push --force origin main");
    assert_eq!(push.status, 2, "{}{}", push.stdout, push.stderr);
    assert!(push.stderr.contains("Do not force-push"), "{}", push.stderr);
    let status = guard(&id, "git status");
    assert_eq!(status.status, 0, "{}{}", status.stdout, status.stderr);
    // No record of the build is kept: the hook's pin is the check.
    assert!(!p.exists("state/hookc/builds"));

    // Another policy put where the administrator's was (an older one, or
    // one the agent wrote) is not obeyed, even one that allows everything.
    p.write("policy.kdl", "targets \"claude\"\n");
    ok(&build("other"));
    std::fs::copy(
        p.path("other/Program Files/hookc/policy.json"),
        &policy_path,
    )
    .unwrap();
    let swapped = guard(&id, "git status");
    assert_eq!(swapped.status, 2, "{}{}", swapped.stdout, swapped.stderr);
    assert!(
        swapped
            .stderr
            .contains("not the build the administrator's hooks name"),
        "{}",
        swapped.stderr
    );
}

#[test]
fn a_tree_for_another_system_needs_a_root() {
    let p = managed_policy();
    let r = run(
        Command::new(HOOKC)
            .args(["build", "--managed", "--os", "windows"])
            .current_dir(p.dir.path()),
        None,
    );
    assert_eq!(r.status, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("needs `--root DIR`"), "{}", r.stderr);
    assert!(!p.exists("tree"));
}

/// Qwen Code's system settings: hookc's hooks merged into the
/// administrator's file, with every hook kept on and a project's `.env`
/// kept from asking for safe mode; on Windows the hook is PowerShell.
#[test]
fn qwen_code_s_system_settings_keep_the_hooks_on() {
    let p = crate::support::bundled_for("\"qwen\"");
    let r = managed(&p, &["build"]);
    ok(&r);
    // What a project can still do is said, not hidden.
    assert!(
        r.stderr.contains("QWEN_CODE_SAFE_MODE in the"),
        "{}",
        r.stderr
    );
    let settings = json(&p, "tree/etc/qwen-code/settings.json");
    assert_eq!(settings["disableAllHooks"], false, "{settings}");
    assert!(
        settings["advanced"]["excludedEnvVars"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!("QWEN_CODE_SAFE_MODE")),
        "{settings}"
    );
    let handler = &settings["hooks"]["PreToolUse"][0]["hooks"][0];
    assert_eq!(handler["shell"], "bash", "{handler}");
    assert!(
        handler["command"]
            .as_str()
            .unwrap()
            .contains("'/etc/hookc/qwen/pre-tool.sh'"),
        "{handler}"
    );
    assert!(p.exists("tree/etc/hookc/qwen/pre-tool.sh"));

    // An administrator's file with an `advanced` section of its own keeps
    // it; `doctor --managed` then says the `.env` door is open.
    p.write(
        "tree/etc/qwen-code/settings.json",
        "{ \"advanced\": { \"dnsResolutionOrder\": \"ipv4first\" } }\n",
    );
    ok(&managed(&p, &["build", "--force"]));
    let settings = json(&p, "tree/etc/qwen-code/settings.json");
    assert_eq!(settings["advanced"]["dnsResolutionOrder"], "ipv4first");
    assert!(settings["hooks"]["PreToolUse"].is_array(), "{settings}");
    let doctor = p.hookc(&["doctor", "--managed", "--root", "tree"]);
    assert!(
        doctor.stdout.contains(
            "/etc/qwen-code/settings.json does not list QWEN_CODE_SAFE_MODE in advanced.excludedEnvVars"
        ),
        "{}",
        doctor.stdout
    );

    let windows = build_for_windows(&p);
    ok(&windows);
    let settings = json(&p, "wtree/ProgramData/qwen-code/settings.json");
    let handler = &settings["hooks"]["PreToolUse"][0]["hooks"][0];
    assert_eq!(handler["shell"], "powershell", "{handler}");
    let command = handler["command"].as_str().unwrap();
    let id = build_of(&p.read("wtree/Program Files/hookc/policy.json"));
    for part in [
        r"$h = 'D:\Tools\hookc\hookc.exe'",
        "--harness qwen --event pre-tool",
        &format!(r"--policy 'C:\Program Files\hookc\policy.json' --build {id})"),
    ] {
        assert!(command.contains(part), "{part} not in {command}");
    }
    // A second build finds its own entries by the marker: nothing changes.
    let again = build_for_windows(&p);
    ok(&again);
    assert!(again.stdout.contains("0 files changed"), "{}", again.stdout);
}

/// OpenCode and Kilo Code CLI: a plugin in hookc's folder that runs the
/// administrator's hookc whatever the environment says, named by each
/// harness's managed config.
#[test]
fn a_managed_plugin_runs_the_administrators_hookc_whatever_the_environment_says() {
    use crate::harness_opencode::{Driver, bare_path};
    use serde_json::json;
    let p = Project::bundled();
    let policy = p.read("policy.kdl");
    p.write(
        "policy.kdl",
        &format!("{policy}\ntargets \"opencode\" \"kilo\"\n"),
    );
    let r = managed(&p, &["build"]);
    ok(&r);
    assert!(
        r.stderr.contains("without plugins (`--pure`"),
        "{}",
        r.stderr
    );
    for harness in ["opencode", "kilo"] {
        let config = json(&p, &format!("tree/etc/{harness}/{harness}.jsonc"));
        assert_eq!(
            config["plugin"],
            json!([format!("file:///etc/hookc/{harness}/hookc.js")]),
            "{config}"
        );
    }
    // Nothing of a project build.
    assert!(!p.exists(".opencode") && !p.exists(".kilo"));

    // A hookc in HOOKC_BIN that lets everything through is not asked.
    let fake = fake_hookc(&p, "fake", "exit 0");
    let driver = Driver::of("tree/etc/hookc/kilo/hookc.js");
    let call = |command: &str| {
        driver.call(
            &p,
            Some(&fake),
            &bare_path(),
            "bash",
            json!({ "command": command }),
        )
    };
    let denied = call("git push --force");
    assert_eq!(denied["outcome"], "threw", "{denied}");
    assert!(
        denied["message"]
            .as_str()
            .unwrap()
            .starts_with("Do not force-push"),
        "{denied}"
    );
    let allowed = call("git status");
    assert_eq!(allowed["outcome"], "ran", "{allowed}");

    // Without the administrator's hookc, the call is refused, and the
    // model is told not to look for another.
    let r = run(
        Command::new(HOOKC)
            .args(["build", "--managed", "--root", "tree", "--os", "linux"])
            .args(["--hookc", "/nonexistent/hookc"])
            .current_dir(p.dir.path()),
        None,
    );
    ok(&r);
    let gone = call("git status");
    assert_eq!(gone["outcome"], "threw", "{gone}");
    let message = gone["message"].as_str().unwrap();
    assert!(
        message.contains("the hookc this machine's managed hooks run (/nonexistent/hookc) is gone")
            && message.contains("do not look for another hookc"),
        "{gone}"
    );

    // Windows: the config names the plugin by its URL there, and the plugin
    // asks hookc for the build it was made with.
    let windows = build_for_windows(&p);
    ok(&windows);
    let config = json(&p, "wtree/ProgramData/kilo/kilo.jsonc");
    assert_eq!(
        config["plugin"],
        json!(["file:///C:/Program%20Files/hookc/kilo/hookc.js"]),
        "{config}"
    );
    let plugin = p.read("wtree/Program Files/hookc/kilo/hookc.js");
    let id = build_of(&p.read("wtree/Program Files/hookc/policy.json"));
    assert!(
        plugin.contains(&format!(
            r#""managed":{{"hookc":"D:\\Tools\\hookc\\hookc.exe","build":"{id}"}}"#
        )),
        "{plugin}"
    );
}

/// Cascade's system hooks file: hookc's entries merged into it, each
/// running the managed shim with `sh`, and refusing the probe on a managed
/// machine.
#[test]
fn cascade_s_system_hooks_run_the_managed_shim() {
    let p = crate::support::bundled_for("\"windsurf\"");
    // The administrator's own hook stays.
    p.write(
        "tree/etc/windsurf/hooks.json",
        "{\"hooks\": {\"post_write_code\": [{\"command\": \"/usr/local/bin/audit\"}]}}\n",
    );
    let r = managed(&p, &["build"]);
    ok(&r);
    // That Devin Local does not read it is said, not hidden.
    assert!(r.stderr.contains("Devin Local"), "{}", r.stderr);
    let hooks = json(&p, "tree/etc/windsurf/hooks.json");
    assert_eq!(
        hooks["hooks"]["post_write_code"][0]["command"],
        "/usr/local/bin/audit"
    );
    let command = hooks["hooks"]["pre_run_command"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(command, "sh /etc/hookc/windsurf/pre-tool.sh");
    assert_eq!(hooks["hooks"]["pre_run_command"][0]["show_output"], true);
    assert!(p.exists("tree/etc/hookc/windsurf/pre-tool.sh"));
    // macOS's folder has a space: quoted there.
    ok(&build_for_macos(&p));
    let mac = json(&p, "mtree/Library/Application Support/Windsurf/hooks.json");
    assert_eq!(
        mac["hooks"]["pre_run_command"][0]["command"],
        "sh '/Library/Application Support/hookc/windsurf/pre-tool.sh'"
    );

    let cascade = |line: &str| {
        serde_json::json!({
            "agent_action_name": "pre_run_command",
            "trajectory_id": "t1",
            "execution_id": "e1",
            "timestamp": "2026-12-06T10:00:00Z",
            "tool_info": {"command_line": line, "cwd": p.dir.path()},
        })
        .to_string()
    };
    probe_on_a_managed_machine(&p, &command, &cascade);
}

/// Auggie's system settings: hookc's hooks merged into the administrator's
/// file with the account's hooks flag pinned on where clients may set it,
/// and refusing the probe on a managed machine.
#[test]
fn auggie_s_system_settings_run_the_managed_shim() {
    let p = crate::support::bundled_for("\"auggie\"");
    p.write(
        "tree/etc/augment/settings.json",
        "{\n  \"model\": \"sonnet4.5\"\n}\n",
    );
    let r = managed(&p, &["build"]);
    ok(&r);
    // What a repository can still do is said, not hidden.
    assert!(r.stderr.contains("updatedInput"), "{}", r.stderr);
    let settings = json(&p, "tree/etc/augment/settings.json");
    assert_eq!(settings["model"], "sonnet4.5");
    assert_eq!(settings["featureFlagOverrides"]["enableHooks"], true);
    let group = &settings["hooks"]["PreToolUse"][0];
    let command = group["hooks"][0]["command"].as_str().unwrap().to_owned();
    assert!(
        command.contains("'/etc/hookc/auggie/pre-tool.sh'"),
        "{command}"
    );
    assert!(
        regex::Regex::new(group["matcher"].as_str().unwrap())
            .unwrap()
            .is_match("launch-process")
    );
    // macOS reads the same path.
    ok(&build_for_macos(&p));
    assert!(p.exists("mtree/etc/augment/settings.json"));
    // Windows: Windows PowerShell by its absolute path, the line in `args`,
    // which Auggie starts with no shell; no `$` for Auggie to fill in.
    ok(&build_for_windows(&p));
    let handler =
        &json(&p, "wtree/ProgramData/augment/settings.json")["hooks"]["PreToolUse"][0]["hooks"][0];
    assert_eq!(
        handler["command"],
        r"C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe"
    );
    let args: Vec<&str> = handler["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    let (line, tail) = args.split_at(args.len() - 2);
    assert_eq!(line[line.len() - 2], "-Command", "{args:?}");
    assert_eq!(tail, ["#", "Program Files/hookc/auggie/"]);
    assert!(args.iter().all(|a| !a.contains('$')), "{args:?}");
    let script = decoded_line(line[line.len() - 1]);
    let id = build_of(&p.read("wtree/Program Files/hookc/policy.json"));
    for part in [
        r"$h = 'D:\Tools\hookc\hookc.exe'",
        "--harness auggie --event pre-tool",
        &format!(r"--policy 'C:\Program Files\hookc\policy.json' --build {id})"),
    ] {
        assert!(script.contains(part), "{part} not in {script}");
    }
    // The comment marks the entry: a second build changes nothing.
    let again = build_for_windows(&p);
    ok(&again);
    assert!(again.stdout.contains("0 files changed"), "{}", again.stdout);
    // An administrator's own `false` is kept, and doctor says what it does.
    p.write(
        "tree/etc/augment/settings.json",
        "{\"featureFlagOverrides\": {\"enableHooks\": false}}\n",
    );
    ok(&managed(&p, &["build", "--force"]));
    assert_eq!(
        json(&p, "tree/etc/augment/settings.json")["featureFlagOverrides"]["enableHooks"],
        false
    );
    let doctor = p.hookc(&["doctor", "--managed", "--root", "tree"]);
    assert!(
        doctor
            .stdout
            .contains("featureFlagOverrides.enableHooks to false"),
        "{}",
        doctor.stdout
    );

    let launch = |line: &str| {
        serde_json::json!({
            "hook_event_name": "PreToolUse",
            "conversation_id": "c1",
            "workspace_roots": [p.dir.path()],
            "tool_name": "launch-process",
            "tool_input": {"command": line, "wait": true, "max_wait_seconds": 60},
            "tool_output": null,
            "tool_error": null,
            "is_mcp_tool": false,
        })
        .to_string()
    };
    probe_on_a_managed_machine(&p, &command, &launch);
}

/// Crush's system file: hookc's entry merged into the administrator's
/// `/etc/crush/crush.json` (macOS reads the same path; Windows has none),
/// refusing the probe on a managed machine through `/bin/sh`, which no
/// project's `PATH` can replace.
#[test]
fn crush_s_system_file_runs_the_managed_shim() {
    let p = crate::support::bundled_for("\"crush\"");
    p.write(
        "tree/etc/crush/crush.json",
        "{\n  \"providers\": {\"corp\": {\"type\": \"openai\", \"base_url\": \"https://llm.corp/v1\"}}\n}\n",
    );
    let r = managed(&p, &["build"]);
    ok(&r);
    // What a repository can still do is said, not hidden.
    assert!(r.stderr.contains("updated_input"), "{}", r.stderr);
    let config = json(&p, "tree/etc/crush/crush.json");
    assert_eq!(
        config["providers"]["corp"]["base_url"],
        "https://llm.corp/v1"
    );
    let entry = &config["hooks"]["PreToolUse"][0];
    let command = entry["command"].as_str().unwrap().to_owned();
    assert!(command.starts_with("/bin/sh -c "), "{command}");
    assert!(
        command.contains("/etc/hookc/crush/pre-tool.sh"),
        "{command}"
    );
    let matcher = regex::Regex::new(entry["matcher"].as_str().unwrap()).unwrap();
    assert!(matcher.is_match("bash") && !matcher.is_match("bash_output"));
    ok(&build_for_macos(&p));
    assert!(p.exists("mtree/etc/crush/crush.json"));
    let windows = run(
        Command::new(HOOKC)
            .args(["build", "--managed", "--os", "windows", "--root", "wtree"])
            .current_dir(p.dir.path()),
        None,
    );
    assert!(
        windows
            .stderr
            .contains("Crush reads no system-wide file on Windows"),
        "{windows:?}"
    );

    let bash = |line: &str| {
        serde_json::json!({
            "event": "PreToolUse",
            "session_id": "s1",
            "cwd": p.dir.path(),
            "tool_name": "bash",
            "tool_input": {"command": line, "description": "probe"},
        })
        .to_string()
    };
    probe_on_a_managed_machine(&p, &command, &bash);
}

/// Factory Droid's organisation settings: hookc's hooks merged into the
/// administrator's file with every other level's hooks kept out, refusing
/// the probe on a managed machine; `doctor --managed` fails a file that a
/// user's `hooksDisabled` could switch off.
#[test]
fn droid_s_organisation_settings_keep_other_hooks_out() {
    let p = crate::support::bundled_for("\"droid\"");
    p.write(
        "tree/etc/factory/settings.json",
        "{\n  \"model\": \"claude-sonnet-4-5\"\n}\n",
    );
    let r = managed(&p, &["build"]);
    ok(&r);
    let settings = json(&p, "tree/etc/factory/settings.json");
    assert_eq!(settings["model"], "claude-sonnet-4-5");
    assert_eq!(settings["allowManagedHooksOnly"], true);
    let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        command.contains("'/etc/hookc/droid/pre-tool.sh'"),
        "{command}"
    );
    let doctor = |p: &Project| p.hookc(&["doctor", "--managed", "--root", "tree"]).stdout;
    assert!(!doctor(&p).contains("hooksDisabled"), "{}", doctor(&p));

    // Other hooks allowed: a user's `hooksDisabled` could switch the
    // managed ones off, and doctor says how to stop it.
    let open = run(
        Command::new(HOOKC)
            .args(["build", "--managed", "--root", "open", "--os", "linux"])
            .args(["--hookc", HOOKC, "--allow-other-hooks"])
            .current_dir(p.dir.path())
            .env("XDG_STATE_HOME", p.path("state")),
        None,
    );
    ok(&open);
    let settings = json(&p, "open/etc/factory/settings.json");
    assert!(
        settings.get("allowManagedHooksOnly").is_none(),
        "{settings}"
    );
    let report = p.hookc(&["doctor", "--managed", "--root", "open"]).stdout;
    assert!(
        report.contains("pins `hooks.hooksDisabled` to false"),
        "{report}"
    );

    let execute = |line: &str| {
        serde_json::json!({
            "session_id": "5d1c",
            "transcript_path": "/home/u/.factory/projects/p/5d1c.jsonl",
            "cwd": p.dir.path(),
            "permission_mode": "auto-low",
            "hook_event_name": "PreToolUse",
            "tool_name": "Execute",
            "tool_input": {"command": line, "riskLevel": "low"},
        })
        .to_string()
    };
    probe_on_a_managed_machine(&p, &command, &execute);
}
