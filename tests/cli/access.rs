//! Issue 20: `path` guards see every file a call reads or writes, in every
//! harness: search and multi-read tools, every path field, typed shell
//! input, and symbolic links resolved where the call runs.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::support::{HOOKC, Project, Run, run};

fn built() -> Project {
    let p = Project::bundled();
    p.build();
    p
}

/// `hookc guard` for `harness`, run in the project as the harness would.
fn guard(p: &Project, harness: &str, stdin: &Value) -> Run {
    guard_with(p, harness, stdin, &[])
}

/// [`guard`], with more variables in its environment.
fn guard_with(p: &Project, harness: &str, stdin: &Value, env: &[(&str, &Path)]) -> Run {
    let root = p.path(".");
    run(
        Command::new(HOOKC)
            .args([
                "guard",
                "--harness",
                harness,
                "--event",
                "pre-tool",
                "--policy",
            ])
            .arg(p.path(".hookc/policy.json"))
            .current_dir(&root)
            .env("CLAUDE_PROJECT_DIR", &root)
            .env("GEMINI_PROJECT_DIR", &root)
            .env_remove("HOOKC_PROJECT_DIR")
            .env_remove("HOOKC_DEBUG")
            .envs(env.iter().copied()),
        Some(stdin.to_string().as_bytes()),
    )
}

/// Whether the answer refuses, in any harness's words (an input hookc
/// cannot read is an error, which every generated hook turns into a refusal).
/// Whether the hook kept the call from running as written: refused it, or
/// held it to hookc's run-time judge (`hookc exec`), which stops the
/// access as it happens (Claude Code on Linux, for a line hookc cannot
/// read in full).
fn refused(r: &Run) -> bool {
    r.status == 2
        || r.stdout.contains("\"deny\"")
        || r.stdout.contains("\"block\"")
        || (r.status == 1 && r.stderr.contains("{enter}"))
        || crate::support::supervised_command(&r.stdout).is_some()
}

fn claude(p: &Project, tool: &str, input: Value) -> Run {
    claude_with(p, tool, input, &[])
}

fn claude_with(p: &Project, tool: &str, input: Value, env: &[(&str, &Path)]) -> Run {
    let payload = json!({
        "session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": p.path("."),
        "permission_mode": "default", "hook_event_name": "PreToolUse",
        "tool_name": tool, "tool_input": input, "tool_use_id": "toolu_1"
    });
    guard_with(p, "claude", &payload, env)
}

fn gemini(p: &Project, tool: &str, input: Value) -> Run {
    let payload = json!({
        "session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": p.path("."),
        "hook_event_name": "BeforeTool", "timestamp": "2026-11-29T23:30:37.924Z",
        "tool_name": tool, "tool_input": input
    });
    guard(p, "gemini", &payload)
}

#[test]
fn claude_grep_and_glob_are_reads() {
    let p = built();
    let cases = [
        ("Grep", json!({"pattern": "KEY", "path": ".env"}), true),
        ("Grep", json!({"pattern": "KEY", "glob": ".env*"}), true),
        ("Grep", json!({"pattern": ".env", "path": "src"}), false),
        ("Grep", json!({"pattern": "KEY", "glob": "*.rs"}), false),
        ("Glob", json!({"pattern": "**/.env*"}), true),
        ("Glob", json!({"pattern": "config/.en?"}), true),
        ("Glob", json!({"pattern": "**/*.rs"}), false),
    ];
    for (tool, input, deny) in cases {
        let r = claude(&p, tool, input.clone());
        assert_eq!(
            refused(&r),
            deny,
            "{tool} {input}: {}{}",
            r.stdout,
            r.stderr
        );
    }
}

#[test]
fn gemini_search_and_read_many_files_are_reads_with_geminis_globs() {
    let p = built();
    p.write("config/.env.local", "TOKEN=x\n");
    p.write("src/main.rs", "fn main() {}\n");
    let cases = [
        // Gemini's globs match dotfiles and ignore case.
        ("read_many_files", json!({"include": ["config/*"]}), true),
        (
            "read_many_files",
            json!({"include": ["**/*.ENV.local"]}),
            true,
        ),
        ("read_many_files", json!({"include": ["config"]}), true),
        (
            "read_many_files",
            json!({"include": ["src/**/*.rs", "README.md"]}),
            false,
        ),
        (
            "grep_search",
            json!({"pattern": "KEY", "include": ".env*"}),
            true,
        ),
        (
            "grep_search",
            json!({"pattern": ".env", "dir_path": "src"}),
            false,
        ),
        ("glob", json!({"pattern": "**/.env"}), true),
        ("glob", json!({"pattern": "src/*.ts"}), false),
    ];
    for (tool, input, deny) in cases {
        let r = gemini(&p, tool, input.clone());
        assert_eq!(
            refused(&r),
            deny,
            "{tool} {input}: {}{}",
            r.stdout,
            r.stderr
        );
    }
}

#[test]
fn every_antigravity_path_field_is_checked() {
    let p = built();
    let call = |args: Value| {
        let payload = json!({
            "conversationId": "c-1", "workspacePaths": [p.path(".")],
            "transcriptPath": "/tmp/t.jsonl", "artifactDirectoryPath": "/tmp/a",
            "modelName": "m", "stepIdx": 1,
            "toolCall": {"name": "write_to_file", "args": args}
        });
        guard(&p, "antigravity", &payload)
    };
    let second =
        call(json!({"TargetFile": "notes.txt", "Path": ".hookc/policy.json", "CodeContent": "x"}));
    assert!(refused(&second), "{}{}", second.stdout, second.stderr);
    let fine = call(json!({"TargetFile": "notes.txt", "CodeContent": "x"}));
    assert!(!refused(&fine), "{}{}", fine.stdout, fine.stderr);
}

#[test]
fn copilot_write_bash_is_decoded_or_refused() {
    let p = built();
    let call = |input: &str| {
        let payload = json!({
            "sessionId": "s", "timestamp": 1_795_993_739_553_u64, "cwd": p.path("."),
            "toolName": "write_bash", "toolArgs": {"shellId": "1", "input": input}
        });
        guard(&p, "copilot", &payload)
    };
    for input in [
        "git push --force{enter}",
        "cat .env{enter}",
        "{up}{enter}",
        "git push --for",
        "echo x > .hookc/policy.json{enter}",
        // The shell's history brings back what an earlier line only
        // printed (`echo git push --force origin main`, then `^echo ^`).
        "^echo ^{enter}",
        "!-1{enter}",
        "fc -s echo={enter}",
        // The shell is where earlier input left it, perhaps `.github` or
        // `.hookc`.
        "rm -rf hooks{enter}",
        "rm -f policy.json{enter}",
    ] {
        let r = call(input);
        assert!(
            refused(&r),
            "`{input}` got through: {}{}",
            r.stdout,
            r.stderr
        );
    }
    let fine = call("ls -la{enter}");
    assert!(!refused(&fine), "{}{}", fine.stdout, fine.stderr);
    // A git typed into a shell whose folder hookc does not know may work
    // in any repository, whose settings may run anything (a pager, a
    // file-system monitor).
    assert!(refused(&call("git status{enter}")));
}

#[cfg(unix)]
#[test]
fn a_link_to_a_protected_file_is_that_file() {
    use std::os::unix::fs::symlink;
    let p = built();
    p.write(".env", "TOKEN=x\n");
    symlink(".env", p.path("notes.txt")).unwrap();
    symlink(".hookc", p.path("h")).unwrap();
    for (tool, input) in [
        ("Read", json!({"file_path": p.path("notes.txt")})),
        ("Bash", json!({"command": "cat notes.txt"})),
        ("Bash", json!({"command": "echo {} > h/policy.json"})),
        (
            "Write",
            json!({"file_path": p.path("h/new.json"), "content": "x"}),
        ),
    ] {
        let r = claude(&p, tool, input.clone());
        assert!(refused(&r), "{tool} {input}: {}{}", r.stdout, r.stderr);
    }
    p.write("plain.txt", "x\n");
    let fine = claude(&p, "Bash", json!({"command": "cat plain.txt"}));
    assert!(!refused(&fine), "{}{}", fine.stdout, fine.stderr);
}

/// A program that reads a directory recursively reads every file below it,
/// dotfiles included: `grep -r x .` prints `.env`'s lines. What is on disk
/// where the call runs decides, so a directory without a secret in it is
/// searched freely, and searchers that skip hidden files (`rg`) pass.
#[test]
fn recursive_reads_see_the_files_below_a_directory() {
    let p = built();
    p.write(".env", "TOKEN=canary\n");
    p.write("config/.env.production", "TOKEN=canary\n");
    p.write("src/lib.rs", "fn f() {}\n");
    let shell = |line: &str| refused(&claude(&p, "Bash", json!({ "command": line })));
    for line in [
        "grep -rn TOKEN .",
        "grep -R TOKEN config/",
        "grep -rn TOKEN",
        "rg --hidden TOKEN",
        "tar czf /tmp/x.tgz .",
        "cp -r config /tmp/x",
        "rsync -a ./ /tmp/x/",
    ] {
        assert!(shell(line), "{line} reads .env and was allowed");
    }
    for line in [
        "grep -rn TOKEN src/",
        "rg TOKEN",
        "tar czf /tmp/x.tgz src",
        "cp -r src /tmp/x",
        "grep TOKEN src/lib.rs",
        // The harmless calls: what the program leaves out is out.
        "tar -czf /tmp/x.tgz --exclude '.env*' .",
        "rsync -a --exclude '.env*' ./ /tmp/x/",
        "grep -rn --exclude='.env*' TOKEN .",
    ] {
        assert!(!shell(line), "{line} reads no secret and was refused");
    }
    // A link below the folder is what it leads to: `grep -R` follows it.
    std::os::unix::fs::symlink(p.path(".env"), p.path("src/notes.txt")).unwrap();
    assert!(
        shell("grep -R TOKEN src/"),
        "a link to .env below src/ was allowed"
    );
    // A recursive delete that reaches hookc's own files is refused.
    assert!(shell("find . -name 'policy.json' -delete"));
}

/// git in the project, as its user would run it.
fn git(p: &Project, args: &[&str]) {
    let ok = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args(args)
        .current_dir(p.path("."))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .status()
        .unwrap()
        .success();
    assert!(ok, "git {args:?}");
}

/// `for f in $(git ls-files …)` at the line's start loops over what git
/// prints where the call is judged, split as the shell splits it: the
/// names, not "any file".
#[test]
fn a_loop_over_the_files_git_tracks_reads_those_files() {
    let p = built();
    p.write("src/main.rs", "fn main() {}\n");
    p.write("src/lib.rs", "fn f() {}\n");
    p.write(".env", "TOKEN=canary\n");
    p.write(".gitignore", ".env\n");
    git(&p, &["init", "-q"]);
    git(&p, &["add", "-A"]);
    let shell = |line: &str| refused(&claude(&p, "Bash", json!({ "command": line })));
    for line in [
        "for f in $(git ls-files '*.rs'); do wc -l \"$f\"; done",
        "for f in $(git ls-files src); do cat \"$f\"; done",
        "for f in $(git ls-files --cached -- '*.rs') README.md; do wc -l \"$f\"; done",
    ] {
        assert!(
            !shell(line),
            "{line} reads only tracked sources and was refused"
        );
    }
    for line in [
        // Not the line's first command, or not what git prints as it is.
        "cd src; for f in $(git ls-files); do cat \"$f\"; done",
        "for f in $(git ls-files -z); do cat \"$f\"; done",
        "for f in $(git ls-files -o); do cat \"$f\"; done",
        "for f in \"$(git ls-files)\"; do cat \"$f\"; done",
        "for f in $(git ls-files --others --exclude-standard --ignored); do cat \"$f\"; done",
    ] {
        assert!(shell(line), "{line} may read .env and was allowed");
    }
    // A tracked name with blanks splits into `.env`; one with a pattern
    // character may become any file.
    p.write("a .env b.rs", "x\n");
    git(&p, &["add", "a .env b.rs"]);
    assert!(shell(
        "for f in $(git ls-files '*.rs'); do wc -l \"$f\"; done"
    ));
    git(&p, &["rm", "-q", "--cached", "a .env b.rs"]);
    p.write("[.]env.rs", "x\n");
    git(&p, &["add", "[.]env.rs"]);
    assert!(shell(
        "for f in $(git ls-files '*.rs'); do wc -l \"$f\"; done"
    ));
    git(&p, &["rm", "-q", "--cached", "[.]env.rs"]);
    assert!(!shell(
        "for f in $(git ls-files '*.rs'); do wc -l \"$f\"; done"
    ));
}

/// ssh's settings are read where the call is judged: a `ProxyCommand`
/// an earlier call wrote into `~/.ssh/config` runs on this machine when
/// a later `git fetch` connects.
#[test]
fn ssh_settings_run_their_commands_in_every_call_that_connects() {
    let p = built();
    std::fs::create_dir_all(p.path("src")).unwrap();
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join(".ssh")).unwrap();
    let config = home.path().join(".ssh/config");
    let shell = |line: &str| {
        let env = [("HOME", home.path())];
        refused(&claude_with(&p, "Bash", json!({ "command": line }), &env))
    };
    let connecting = [
        "git fetch origin",
        "git -C . fetch --all",
        "ssh host uptime",
        "scp a host:b",
        "cd src && git fetch origin",
        // rsync's `-F` is a filter, not ssh's settings file.
        "rsync -F -a src/ host:src/",
    ];
    std::fs::write(&config, "Host *\n  ProxyCommand ssh -W %h:%p bastion\n").unwrap();
    for line in connecting {
        assert!(
            !shell(line),
            "{line} was refused for a harmless ProxyCommand"
        );
    }
    std::fs::write(
        &config,
        "Host *\n  ServerAliveInterval 30\n  ProxyCommand git push --force origin main\n",
    )
    .unwrap();
    for line in connecting {
        assert!(
            shell(line),
            "{line} runs the ProxyCommand's force push and was allowed"
        );
    }
    assert!(!shell("git status"), "git status connects nowhere");
    assert!(
        !shell("ssh -F /dev/null host uptime"),
        "-F replaces the settings"
    );
    std::fs::write(&config, "Match exec \"rm -rf /\"\n  User git\n").unwrap();
    assert!(shell("git fetch origin"));
}
