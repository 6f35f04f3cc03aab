//! The audit log through real `hookc guard` calls and `hookc log`: read from
//! its end (`--limit 5` of a large log is its last five records), filters
//! across the rotated file, never written through a link in the state
//! folder, and a log that was deleted, emptied, made unreadable or replaced
//! by a link is noticed by `hookc log` and made again by the next guard.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{HOOKC, Project, Run, claude_bash, run};

const POLICY: &str = r#"targets "claude"
audit-log #true

guard "no-force-push" {
    command "git" "push" { flag "--force" "-f"; }
    deny "Do not force-push; push normally, or ask the user."
    example "git push -f" expect="deny"
}
"#;

fn project() -> Project {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    std::fs::create_dir_all(p.path("home")).unwrap();
    let build = p.hookc(&["build"]);
    assert_eq!(build.status, 0, "{}", build.stderr);
    p
}

/// `hookc guard` for Claude Code's Bash tool on `command`, with the
/// project's own HOME.
fn guard(p: &Project, command: &str) -> Run {
    let payload = claude_bash(command).replace("\"/repo\"", &format!("{:?}", p.dir.path()));
    run(
        Command::new(HOOKC)
            .args(["guard", "--harness", "claude", "--event", "pre-tool"])
            .args(["--policy", ".hookc/policy.json"])
            .current_dir(p.dir.path())
            .env("HOME", p.path("home"))
            .env_remove("XDG_STATE_HOME")
            .env_remove("HOOKC_DEBUG"),
        Some(payload.as_bytes()),
    )
}

fn log(p: &Project, args: &[&str]) -> Run {
    run(
        Command::new(HOOKC)
            .arg("log")
            .args(args)
            .current_dir(p.dir.path())
            .env("HOME", p.path("home"))
            .env("NO_COLOR", "1")
            .env_remove("XDG_STATE_HOME"),
        None,
    )
}

fn audit_dir(p: &Project) -> PathBuf {
    p.path("home/.local/state/hookc/audit")
}

/// The project's log file, by the library's own naming.
fn log_file(p: &Project) -> PathBuf {
    let root = p.dir.path().canonicalize().unwrap();
    let name = hookc::audit::project_key(&root.to_string_lossy());
    audit_dir(p).join(format!("{name}.jsonl"))
}

fn record(n: usize, unix: u64, verdict: &str) -> String {
    serde_json::json!({
        "time": hookc::audit::rfc3339(unix), "unix": unix, "harness": "claude",
        "event": "pre-tool", "tool": "Bash", "digest": "d", "summary": format!("Bash echo {n}"),
        "guards": [], "verdict": verdict, "code": null, "override": null,
    })
    .to_string()
}

#[test]
fn log_limit_reads_the_end_of_a_big_log() {
    let p = project();
    assert_eq!(guard(&p, "git status").status, 0);
    // 200,000 more records, as a busy project (or an older hookc) leaves them.
    let now = hookc::audit::now();
    let mut text = String::new();
    for n in 0..200_000 {
        text.push_str(&record(n, now, "none"));
        text.push('\n');
    }
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(log_file(&p))
        .unwrap();
    std::io::Write::write_all(&mut f, text.as_bytes()).unwrap();
    let started = std::time::Instant::now();
    let out = log(&p, &["--limit", "5", "--format", "json"]);
    let took = started.elapsed();
    assert_eq!(out.status, 0, "{}", out.stderr);
    let shown: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let numbers: Vec<&str> = shown
        .iter()
        .map(|r| r["summary"].as_str().unwrap())
        .collect();
    assert_eq!(
        numbers,
        [
            "Bash echo 199995",
            "Bash echo 199996",
            "Bash echo 199997",
            "Bash echo 199998",
            "Bash echo 199999"
        ]
    );
    // A debug build on a busy machine still reads five records in well under this.
    assert!(took.as_secs() < 5, "{took:?}");
}

#[test]
fn filters_work_across_the_rotated_log() {
    let p = project();
    assert_eq!(guard(&p, "git push -f origin main").status, 2);
    let now = hookc::audit::now();
    let old = log_file(&p).with_extension("1.jsonl");
    let lines = [
        record(1, now - 3 * 3600, "deny"),
        record(2, now - 600, "deny"),
        record(3, now - 500, "none"),
    ];
    std::fs::write(&old, lines.join("\n") + "\n").unwrap();
    assert_eq!(guard(&p, "git push --force").status, 2);
    let out = log(
        &p,
        &[
            "--since",
            "1h",
            "--verdict",
            "deny",
            "--format",
            "json",
            "--limit",
            "0",
        ],
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    let summaries: Vec<String> = out
        .stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["summary"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        summaries,
        [
            "Bash echo 2",
            "Bash git push -f origin main",
            "Bash git push --force"
        ],
        "{}",
        out.stdout
    );
    // --limit counts across both files, newest first.
    let out = log(
        &p,
        &["--verdict", "deny", "--format", "json", "--limit", "3"],
    );
    assert_eq!(out.stdout.lines().count(), 3, "{}", out.stdout);
    assert!(out.stdout.lines().next().unwrap().contains("Bash echo 2"));
}

#[cfg(unix)]
#[test]
fn a_linked_state_folder_is_refused_and_never_written_through() {
    for linked in ["hookc", "hookc/audit"] {
        let p = project();
        let elsewhere = p.path("elsewhere");
        std::fs::create_dir_all(&elsewhere).unwrap();
        let link = p.path(&format!("home/.local/state/{linked}"));
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
        // The guard writes nothing through the link. It still answers when
        // only the log's folder is a link; when the whole state folder is,
        // the record of the last build cannot be trusted either, and every
        // call is refused until the user fixes it (`crate::builds`), in the
        // harness's own words, so the model reads what to tell the user.
        if linked == "hookc" {
            let run = guard(&p, "git status");
            assert_eq!(run.status, 2, "{}", run.stderr);
            assert!(
                run.stdout.contains("is a symbolic link")
                    && run.stdout.contains("permissionDecision"),
                "{}",
                run.stdout
            );
        } else {
            assert_eq!(guard(&p, "git push -f").status, 2);
            assert_eq!(guard(&p, "git status").status, 0);
        }
        assert_eq!(
            std::fs::read_dir(&elsewhere).unwrap().count(),
            0,
            "{linked}: written through the link"
        );
        let out = log(&p, &[]);
        assert_eq!(out.status, 2, "{linked}: {}{}", out.stdout, out.stderr);
        assert!(
            out.stderr.contains("symbolic link"),
            "{linked}: {}",
            out.stderr
        );
        assert!(
            out.stderr.contains(linked.rsplit('/').next().unwrap()),
            "{}",
            out.stderr
        );
    }
}

/// Tampers with the log by `how`, then checks that `hookc log` says so, that
/// the next guard call leaves a usable log whose first record says what was
/// found, and that `hookc log` then reads it.
fn tampered(how: &str, tamper: impl Fn(&Path), says: &str) {
    let p = project();
    assert_eq!(guard(&p, "git push -f").status, 2);
    assert_eq!(guard(&p, "git status").status, 0);
    assert_eq!(log(&p, &[]).status, 0);
    tamper(&log_file(&p));
    let out = log(&p, &[]);
    assert_eq!(out.status, 1, "{how}: {}{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("tampered with") && out.stderr.contains("hookc::log-tampered"),
        "{how}: {}",
        out.stderr
    );
    assert!(out.stderr.contains(says), "{how}: {}", out.stderr);
    // The next guard call makes a usable log again, and says what it found.
    assert_eq!(guard(&p, "git log").status, 0);
    let meta = std::fs::symlink_metadata(log_file(&p)).unwrap();
    assert!(meta.is_file(), "{how}: the log is not a file again");
    let out = log(&p, &["--format", "json", "--limit", "0"]);
    let records: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let tamper_record = records
        .iter()
        .find(|r| r["verdict"] == "tampered")
        .unwrap_or_else(|| panic!("{how}: no tampered record in {}", out.stdout));
    assert!(
        tamper_record["summary"].as_str().unwrap().contains(says),
        "{how}: {tamper_record}"
    );
    assert_eq!(records.last().unwrap()["summary"], "Bash git log", "{how}");
    // `hookc log` keeps saying it was tampered with once.
    assert_eq!(out.status, 1, "{how}");
    assert!(
        out.stderr.contains("tampered with 1 time"),
        "{how}: {}",
        out.stderr
    );
    let listed = log(&p, &["--verdict", "tampered"]);
    assert_eq!(listed.stdout.lines().count(), 1, "{how}: {}", listed.stdout);
}

#[test]
fn a_deleted_log_is_noticed_and_made_again() {
    tampered("rm", |f| std::fs::remove_file(f).unwrap(), "was deleted");
}

#[test]
fn an_emptied_log_is_noticed_and_made_again() {
    tampered("truncate", |f| std::fs::write(f, "").unwrap(), "was cut");
}

#[cfg(unix)]
#[test]
fn an_unreadable_log_is_noticed_and_made_again() {
    use std::os::unix::fs::PermissionsExt;
    tampered(
        "chmod 000",
        |f| std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o000)).unwrap(),
        "permissions were changed",
    );
}

#[cfg(unix)]
#[test]
fn a_log_linked_to_dev_null_is_noticed_and_made_again() {
    tampered(
        "ln -sf /dev/null",
        |f| {
            std::fs::remove_file(f).unwrap();
            std::os::unix::fs::symlink("/dev/null", f).unwrap();
        },
        "symbolic link",
    );
}

#[test]
fn hookc_log_shows_escape_sequences_escaped() {
    let p = project();
    assert_eq!(guard(&p, "git push -f # \u{1b}[2K\rgit status").status, 2);
    let out = log(&p, &[]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("\\x1b[2K\\rgit status"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains('\u{1b}'), "{}", out.stdout);
}

#[test]
fn guards_running_at_once_across_a_rotation_lose_no_record() {
    let p = project();
    assert_eq!(guard(&p, "git status").status, 0);
    // Just under the bound: the guards below rotate the log between them.
    let now = hookc::audit::now();
    let one = record(0, now, "none") + "\n";
    let fill = (8 * 1024 * 1024 - 4096) / one.len();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(log_file(&p))
        .unwrap();
    std::io::Write::write_all(&mut f, one.repeat(fill).as_bytes()).unwrap();
    let guards: Vec<_> = (0..16)
        .map(|i| {
            let root = p.dir.path().to_owned();
            let home = p.path("home");
            std::thread::spawn(move || {
                let payload = claude_bash(&format!("git log -n {i}"))
                    .replace("\"/repo\"", &format!("{root:?}"));
                run(
                    Command::new(HOOKC)
                        .args(["guard", "--harness", "claude", "--event", "pre-tool"])
                        .args(["--policy", ".hookc/policy.json"])
                        .current_dir(&root)
                        .env("HOME", &home)
                        .env_remove("XDG_STATE_HOME")
                        .env_remove("HOOKC_DEBUG"),
                    Some(payload.as_bytes()),
                )
                .status
            })
        })
        .collect();
    for g in guards {
        assert_eq!(g.join().unwrap(), 0);
    }
    let rotated = log_file(&p).with_extension("1.jsonl");
    assert!(rotated.exists(), "no rotation");
    let mut text = std::fs::read_to_string(&rotated).unwrap();
    text.push_str(&std::fs::read_to_string(log_file(&p)).unwrap());
    let mut seen = Vec::new();
    for line in text.lines() {
        let r: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("a torn line: {e}"));
        assert_ne!(r["verdict"], "tampered", "{r}");
        if let Some(s) = r["summary"]
            .as_str()
            .and_then(|s| s.strip_prefix("Bash git log -n "))
        {
            seen.push(s.parse::<u32>().unwrap());
        }
    }
    seen.sort();
    assert_eq!(seen, (0..16).collect::<Vec<_>>());
    let out = log(&p, &["--limit", "0"]);
    assert_eq!(out.status, 0, "{}", out.stderr);
}
