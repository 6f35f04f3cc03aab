//! Windows: the PowerShell shell tools of Claude Code and Copilot CLI, the
//! Windows hook commands hookc writes, and the `platforms` warning.
//!
//! No test here runs on Windows or in PowerShell (this machine has neither);
//! the commands' text is pinned by the golden files in `out/` and checked in
//! `src/harness/windows.rs`, and every PowerShell script parses with
//! tree-sitter's PowerShell grammar. What runs here is `hookc guard` on the
//! payloads those shells' tools produce.

use serde_json::{Value, json};

use crate::support::{Project, Run, claude_tool, json_file, run};

const SHELL_GUARD: &str = r#"
targets "claude" "copilot" "codex"
guard "no-force-push" {
    tool "shell"
    command "git" "push" { flag "--force" "-f"; }
    deny "Do not force-push. Push without --force."
    example "git push --force" expect="deny"
    example "git push" expect="allow"
}
"#;

fn project(policy: &str) -> Project {
    let p = Project::new();
    p.write("policy.kdl", policy);
    p.build();
    p
}

fn guard(p: &Project, harness: &str, stdin: &str) -> Run {
    run(
        std::process::Command::new(crate::support::HOOKC)
            .args([
                "guard",
                "--harness",
                harness,
                "--event",
                "pre-tool",
                "--policy",
            ])
            .arg(p.path(".hookc/policy.json"))
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("HOOKC_DEBUG"),
        Some(stdin.as_bytes()),
    )
}

fn stdout_json(run: &Run) -> Value {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {:?} {}", run.stdout, run.stderr))
}

fn copilot_tool(tool: &str, args: Value) -> String {
    json!({"sessionId": "s", "timestamp": 1, "cwd": "/repo", "toolName": tool, "toolArgs": args})
        .to_string()
}

/// A PowerShell line is not read as POSIX shell: `git push --force` inside
/// `Invoke-Expression` is plain to PowerShell and opaque to hookc, and even
/// a line that looks harmless is refused, with an instruction, because
/// PowerShell's quoting and call syntax could hide what runs.
#[test]
fn claude_powershell_calls_are_refused_with_what_to_do_instead() {
    let p = project(SHELL_GUARD);
    for command in [
        "Invoke-Expression 'git push --force'",
        "git status",
        "& ('gi'+'t') push -f",
    ] {
        let run = guard(
            &p,
            "claude",
            &claude_tool("PowerShell", json!({"command": command})),
        );
        assert_eq!(run.status, 2, "{command}: {}", run.stderr);
        let out = stdout_json(&run);
        assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
        let reason = out["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap();
        assert!(
            reason.contains("not PowerShell") && reason.contains("Bash tool"),
            "{reason}"
        );
    }
    // The same words through the Bash tool are read, and allowed.
    let run = guard(
        &p,
        "claude",
        &claude_tool("Bash", json!({"command": "git status"})),
    );
    assert_eq!((run.status, run.stdout.as_str()), (0, ""), "{}", run.stderr);
}

#[test]
fn copilot_powershell_and_typed_input_are_refused_in_copilots_channel() {
    let p = project(SHELL_GUARD);
    for (tool, args) in [
        ("powershell", json!({"command": "git status"})),
        (
            "write_powershell",
            json!({"shellId": "0", "input": "git push -f\n"}),
        ),
    ] {
        let run = guard(&p, "copilot", &copilot_tool(tool, args));
        assert_eq!(run.status, 2, "{tool}: {}", run.stderr);
        let out = stdout_json(&run);
        assert_eq!(out["permissionDecision"], "deny", "{tool}");
        assert!(
            out["permissionDecisionReason"]
                .as_str()
                .unwrap()
                .contains("Bash tool"),
            "{out}"
        );
    }
}

/// Nothing to check, nothing refused: a policy without command or path
/// guards lets PowerShell calls through; a guard that says `opaque "allow"`
/// lets them through too.
#[test]
fn powershell_is_refused_only_by_guards_that_read_commands() {
    // Self-protection (on by default) guards hookc's own files against
    // writes, which a PowerShell line could make unseen: it refuses too.
    let regex_only = r#"
targets "claude"
self-protection "off"
guard "no-secrets-in-prompts" {
    event "pre-tool"
    regex "AKIA[0-9A-Z]{16}"
    deny "Do not put an AWS key in a command; read it from the environment."
    example tool="shell" "echo AKIAABCDEFGHIJKLMNOP" expect="deny"
    example tool="shell" "echo hi" expect="allow"
}
"#;
    let p = project(regex_only);
    let call = |command: &str| claude_tool("PowerShell", json!({ "command": command }));
    assert_eq!(guard(&p, "claude", &call("Get-ChildItem")).status, 0);
    // A regex still reads the raw line.
    assert_eq!(
        guard(&p, "claude", &call("echo AKIAABCDEFGHIJKLMNOP")).status,
        2
    );

    let protected = project(&regex_only.replace("self-protection \"off\"\n", ""));
    assert_eq!(
        guard(&protected, "claude", &call("Get-ChildItem")).status,
        2
    );

    let lenient = SHELL_GUARD
        .replace(
            "deny \"Do not force-push.",
            "opaque \"allow\"\n    deny \"Do not force-push.",
        )
        .replace("targets", "self-protection \"off\"\ntargets");
    let p = project(&lenient);
    let run = guard(&p, "claude", &call("git status"));
    assert_eq!((run.status, run.stdout.as_str()), (0, ""), "{}", run.stderr);
}

/// The matchers send the Windows shell tools to hookc at all.
#[test]
fn the_matchers_include_the_windows_shell_tools() {
    let p = project(SHELL_GUARD);
    let claude = json_file(&p, ".claude/settings.json");
    let matcher = claude["hooks"]["PreToolUse"][0]["matcher"]
        .as_str()
        .unwrap();
    assert!(
        matcher.starts_with("^(?:Bash|") && matcher.contains("|PowerShell|"),
        "{matcher}"
    );
    let copilot = json_file(&p, ".github/hooks/hookc.json");
    let matcher = copilot["hooks"]["preToolUse"][0]["matcher"]
        .as_str()
        .unwrap();
    for tool in ["powershell", "write_powershell"] {
        assert!(
            regex::Regex::new(matcher).unwrap().is_match(tool),
            "{matcher}"
        );
    }
}

/// Codex and Copilot read a separate Windows command; hookc writes one.
#[test]
fn codex_and_copilot_get_a_windows_command() {
    let p = project(SHELL_GUARD);
    let codex = json_file(&p, ".codex/hooks.json");
    let windows = codex["hooks"]["PreToolUse"][0]["hooks"][0]["commandWindows"]
        .as_str()
        .unwrap();
    assert!(
        windows.starts_with(r"C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe -NoLogo -NoProfile -NonInteractive -ExecutionPolicy Bypass -EncodedCommand ")
            && windows.ends_with(" || exit 2"),
        "{windows}"
    );
    let copilot = json_file(&p, ".github/hooks/hookc.json");
    let powershell = copilot["hooks"]["preToolUse"][0]["powershell"]
        .as_str()
        .unwrap();
    assert!(
        powershell.contains("guard --harness copilot --event pre-tool")
            && powershell.contains("'hookc guard answered ' + $n"),
        "{powershell}"
    );
}

/// `platforms "windows"` warns, naming each target that cannot guard there
/// and what to do; without it, nothing is said.
#[test]
fn a_policy_for_windows_is_warned_about_each_target_that_cannot_guard_there() {
    let policy = SHELL_GUARD.replace(
        "targets \"claude\" \"copilot\" \"codex\"",
        "platforms \"linux\" \"windows\"\ntargets \"claude\" \"copilot\" \"codex\" \"gemini\" \"kimi\" \"cursor\" \"opencode\"",
    );
    let p = Project::new();
    p.write("policy.kdl", &policy);
    let run = p.hookc(&["build"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    for warned in ["gemini on Windows", "kimi on Windows", "cursor on Windows"] {
        assert!(run.stderr.contains(warned), "{warned}: {}", run.stderr);
    }
    // Claude Code's hooks say `onFailure: "block"` unless the policy opts
    // out: a hook PowerShell cannot run refuses the call.
    for quiet in [
        "claude on Windows",
        "codex on Windows",
        "copilot on Windows",
        "opencode on Windows",
    ] {
        assert!(!run.stderr.contains(quiet), "{quiet}: {}", run.stderr);
    }
    assert_eq!(run.stderr.matches("hookc::windows-unguarded").count(), 3);

    let opted_out = policy.replace(
        "platforms",
        "harness \"claude\" { on-failure-block #false; }\nplatforms",
    );
    p.write("policy.kdl", &opted_out);
    let run = p.hookc(&["build"]);
    assert!(run.stderr.contains("claude on Windows"), "{}", run.stderr);

    p.write(
        "policy.kdl",
        &policy.replace("platforms \"linux\" \"windows\"\n", ""),
    );
    let run = p.hookc(&["build"]);
    assert!(!run.stderr.contains("windows-unguarded"), "{}", run.stderr);
}

/// Without `platforms`, the first build still says, once, what to do for
/// Windows machines, as a to-do line of each target that cannot guard there.
#[test]
fn without_platforms_the_first_build_says_what_to_do_for_windows() {
    let p = Project::new();
    p.write(
        "policy.kdl",
        &SHELL_GUARD.replace(
            "targets \"claude\" \"copilot\" \"codex\"",
            "targets \"gemini\" \"codex\"",
        ),
    );
    let run = p.build();
    let todo: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains("windows-unguarded"))
        .collect();
    assert_eq!(todo.len(), 1, "{}", run.stdout);
    assert!(
        todo[0].contains("run Gemini CLI on Windows in WSL"),
        "{}",
        todo[0]
    );
    let again = p.build();
    assert!(
        !again.stdout.contains("windows-unguarded"),
        "{}",
        again.stdout
    );
}

/// Every PowerShell script hookc writes for Windows, project and managed,
/// parses as PowerShell. No PowerShell can be installed on this project's
/// machines; the parser is tree-sitter's PowerShell grammar
/// (`tree-sitter-powershell`), which finds syntax errors, not what a
/// script does when it runs.
#[test]
fn every_windows_script_parses_as_powershell() {
    use crate::support::{decoded_line, encoded_script};
    let targets = [
        "claude", "codex", "copilot", "cursor", "qwen", "gemini", "auggie",
    ];
    let p = crate::support::bundled_for(&targets.map(|t| format!("\"{t}\"")).join(" "));
    p.build();
    let managed = run(
        std::process::Command::new(crate::support::HOOKC)
            .args(["build", "--managed", "--os", "windows", "--root", "wtree"])
            .args(["--hookc", r"D:\Tools\hookc\hookc.exe"])
            .current_dir(p.dir.path()),
        None,
    );
    assert_eq!(managed.status, 0, "{}{}", managed.stdout, managed.stderr);
    let hook = |file: &str, pointer: &str| -> String {
        json_file(&p, file)
            .pointer(pointer)
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("{file}: nothing at {pointer}"))
            .to_owned()
    };
    let gemini = hook(
        "wtree/ProgramData/gemini-cli/settings.json",
        "/hooks/BeforeTool/0/hooks/0/command",
    );
    let auggie = json_file(&p, "wtree/ProgramData/augment/settings.json");
    let auggie_line = auggie["hooks"]["PreToolUse"][0]["hooks"][0]["args"]
        .as_array()
        .and_then(|args| args.iter().rev().nth(2))
        .and_then(Value::as_str)
        .unwrap()
        .to_owned();
    let scripts = [
        (
            "Codex's commandWindows",
            encoded_script(&hook(
                ".codex/hooks.json",
                "/hooks/PreToolUse/0/hooks/0/commandWindows",
            )),
        ),
        (
            "Copilot CLI's powershell",
            hook(".github/hooks/hookc.json", "/hooks/preToolUse/0/powershell"),
        ),
        (
            "Claude Code's managed hook",
            hook(
                "wtree/Program Files/ClaudeCode/managed-settings.d/50-hookc.json",
                "/hooks/PreToolUse/0/hooks/0/command",
            ),
        ),
        (
            "Copilot CLI's managed hook",
            hook(
                "wtree/ProgramData/GitHub/Copilot/policy.d/50-hookc.json",
                "/hooks/preToolUse/0/powershell",
            ),
        ),
        (
            "Cursor's managed hook",
            encoded_script(&hook(
                "wtree/ProgramData/Cursor/hooks.json",
                "/hooks/preToolUse/0/command",
            )),
        ),
        (
            "Qwen Code's managed hook",
            hook(
                "wtree/ProgramData/qwen-code/settings.json",
                "/hooks/PreToolUse/0/hooks/0/command",
            ),
        ),
        ("Gemini CLI's managed line", gemini.clone()),
        (
            "Gemini CLI's managed script",
            decoded_line(gemini.split_once(" # ").unwrap().0),
        ),
        ("Auggie's managed line", format!("{auggie_line} # marker")),
        ("Auggie's managed script", decoded_line(&auggie_line)),
    ];
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_powershell::LANGUAGE.into())
        .unwrap();
    for (what, script) in &scripts {
        let tree = parser.parse(script, None).unwrap();
        let root = tree.root_node();
        assert!(
            !root.has_error(),
            "{what} does not parse as PowerShell, at {}:\n{script}",
            first_error(root, script)
        );
    }
}

/// Where the first syntax error of a tree is, and the text around it.
fn first_error(node: tree_sitter::Node, text: &str) -> String {
    if node.is_error() || node.is_missing() {
        let start = node.start_byte().saturating_sub(40);
        let end = (node.end_byte() + 40).min(text.len());
        let around = text.get(start..end).unwrap_or_default();
        return format!("byte {} ({}): …{around}…", node.start_byte(), node.kind());
    }
    let mut cursor = node.walk();
    node.children(&mut cursor)
        .find(|child| child.has_error())
        .map_or_else(
            || "an unknown place".to_owned(),
            |child| first_error(child, text),
        )
}

/// Where a harness runs its one POSIX command string in PowerShell or
/// `cmd.exe` on Windows, the command refuses there instead of failing to
/// start (which lets the call through): its first part is a refusal in
/// both, and sh reads it as `set` with one argument
/// (`windows::refusing_outside_posix`). The harnesses' own tests run the
/// commands under sh. PowerShell: the line parses with tree-sitter's grammar,
/// its statements are `set`, a string cast to `[void]`, the message on
/// stderr and `exit 2`, and the POSIX command is a comment. `cmd.exe`: Wine's
/// (`.ci/run` installs it from Debian; without it the test says so and
/// checks PowerShell only) exits 2 with the message alone on stderr.
#[test]
fn posix_hook_lines_refuse_in_powershell_and_cmd() {
    let targets = [
        "gemini",
        "kimi",
        "openhands",
        "auggie",
        "kiro",
        "devin",
        "droid",
    ];
    let p = crate::support::bundled_for(&targets.map(|t| format!("\"{t}\"")).join(" "));
    p.build();
    // Each file's hook commands that read a shim: (file, command).
    let mut commands: Vec<(String, String)> = Vec::new();
    fn strings(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(o) => {
                for (k, x) in o {
                    match x.as_str() {
                        Some(s) if k == "command" && s.contains("hookc_shim") => {
                            out.push(s.to_owned());
                        }
                        _ => strings(x, out),
                    }
                }
            }
            Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
            _ => {}
        }
    }
    for file in [
        ".gemini/settings.json",
        ".openhands/hooks.json",
        ".augment/settings.json",
        ".kiro/agents/hookc.json",
        ".devin/config.json",
        ".factory/settings.json",
    ] {
        let config = json_file(&p, file);
        let events = config["hooks"].as_object();
        assert!(events.is_some(), "{file} has no hooks");
        for (event, hooks) in events.into_iter().flatten() {
            let mut found = Vec::new();
            strings(hooks, &mut found);
            commands.extend(found.into_iter().map(|c| (format!("{file} {event}"), c)));
        }
    }
    let kimi: toml_edit::DocumentMut = p.read(".hookc/kimi/config.toml").parse().unwrap();
    for table in kimi["hooks"].as_array_of_tables().unwrap() {
        let command = table["command"].as_str().unwrap().to_owned();
        let event = table["event"].as_str().unwrap();
        commands.push((format!("kimi {event}"), command));
    }

    let prefix = "set \"\\\" ; [void]' 2>nul & echo hookc refused this call:";
    // A refusal of a stop would keep the agent working: those stay as they were.
    let mut stops = 0;
    for (what, command) in &commands {
        let event = what.rsplit(' ').next().unwrap();
        if event == "AfterAgent" || event.to_lowercase().ends_with("stop") {
            assert!(!command.starts_with("set "), "{what}: {command}");
            stops += 1;
        }
    }
    assert!(stops > 0, "no stop hook among {commands:#?}");
    let refusing: Vec<&(String, String)> = commands
        .iter()
        .filter(|(_, c)| c.starts_with("set "))
        .collect();
    for file in [
        ".gemini",
        ".openhands",
        ".augment",
        ".kiro",
        ".devin",
        ".factory",
        "kimi",
    ] {
        assert!(
            refusing.iter().any(|(what, _)| what.starts_with(file)),
            "{file}: no pre-tool command refuses outside sh: {commands:#?}"
        );
    }

    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_powershell::LANGUAGE.into())
        .unwrap();
    for (what, command) in &refusing {
        assert!(command.starts_with(prefix), "{what}: {command}");
        let tree = parser.parse(command.as_str(), None).unwrap();
        let root = tree.root_node();
        assert!(
            !root.has_error(),
            "{what} does not parse as PowerShell, at {}",
            first_error(root, command)
        );
        // What PowerShell runs: the statements before the comment.
        let comment = descendants(root)
            .into_iter()
            .find(|n| n.kind() == "comment")
            .unwrap_or_else(|| panic!("{what}: no comment in {}", root.to_sexp()));
        assert_eq!(comment.end_byte(), command.len(), "{what}");
        let runs = &command[..comment.start_byte()];
        let statements: Vec<&str> = runs.split(" ; ").map(str::trim).collect();
        assert_eq!(statements.len(), 5, "{what}: {statements:?}");
        assert_eq!(statements[0], "set \"\\\"");
        assert!(
            statements[1].starts_with("[void]'"),
            "{what}: {statements:?}"
        );
        assert!(
            statements[2].starts_with("[Console]::Error.WriteLine('hookc refused this call:"),
            "{what}: {statements:?}"
        );
        assert_eq!(statements[3..], ["exit 2", ""], "{what}");
    }

    let Some(wine) = ["/usr/lib/wine/wine64", "/usr/bin/wine64", "/usr/bin/wine"]
        .into_iter()
        .find(|w| std::path::Path::new(w).is_file())
    else {
        eprintln!("Wine is not installed: the commands were not run in cmd.exe");
        return;
    };
    // Wine's own folder, kept between runs; its first start, which fills it
    // and says so on stderr, is not one of the runs judged.
    let prefix = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("wine");
    let cmd = |line: &str| {
        run(
            std::process::Command::new(wine)
                .args(["cmd", "/C", line])
                .env("WINEDEBUG", "-all")
                .env("WINEPREFIX", &prefix)
                .current_dir(p.dir.path()),
            None,
        )
    };
    assert_eq!(cmd("exit 0").status, 0, "Wine's cmd.exe does not start");
    let owner = |what: &str| {
        let (file, event) = what.rsplit_once(' ').unwrap();
        let word = match file {
            ".gemini/settings.json" => "gemini",
            ".openhands/hooks.json" => "openhands",
            ".augment/settings.json" => "auggie",
            ".kiro/agents/hookc.json" => "kiro",
            ".devin/config.json" => "devin",
            ".factory/settings.json" => "droid",
            "kimi" => "kimi",
            other => panic!("{other}"),
        };
        let h = hookc::harness::all()
            .iter()
            .find(|h| h.id().word() == word)
            .unwrap();
        let event = h.profile().event_called(event).unwrap();
        (*h, event)
    };
    for (what, command) in &refusing {
        let r = cmd(command);
        assert_eq!(r.status, 2, "{what}: {r:?}");
        let message = r.stderr.trim();
        assert!(
            message.starts_with(
                "hookc refused this call: the guard hooks of this project need a POSIX shell"
            ) && message.ends_with("Do not try to get around the guard.")
                && !message.contains('\n'),
            "{what}: {}",
            r.stderr
        );
        // What the harness makes of that answer: a refusal, with the message.
        let (harness, event) = owner(what);
        let o = harness.outcome(
            event,
            &hookc::harness::Observation {
                exit: Some(r.status),
                stdout: r.stdout.clone(),
                stderr: r.stderr.clone(),
                ..hookc::harness::Observation::default()
            },
        );
        let said = format!("{:?} {:?}", o.model_reads, o.user_sees);
        assert!(
            !o.proceeds && said.contains("need a POSIX shell"),
            "{what}: {o:?}"
        );
    }
}

/// Every node under `node`, depth first.
fn descendants(node: tree_sitter::Node) -> Vec<tree_sitter::Node> {
    let mut out = vec![node];
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        out.extend(descendants(child));
    }
    out
}
