//! A repository crafted to attack `hookc build`: a doctored manifest,
//! symlinks out of the project, FIFOs and devices where files belong, files
//! in another encoding, an interrupted build, odd policy paths. Each test
//! names the item of the file-safety issue it covers. Every one runs in a
//! sandbox (`project/`, `outside/`, `home/`) and checks that nothing outside
//! the project, nor any file of the user's in it, changed.

use std::collections::BTreeMap;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::support::{HOOKC, Run, run};

const POLICY: &str = r#"targets "claude"

guard "no-force-push" {
    command "git" "push" { flag "--force" "-f"; }
    deny "Push to a new branch and open a pull request instead."
}
"#;

/// A project with a neighbour directory and a home of its own.
struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    fn new(policy: &str) -> Self {
        let s = Self {
            dir: tempfile::tempdir().unwrap(),
        };
        for d in ["project", "outside", "home"] {
            std::fs::create_dir_all(s.dir.path().join(d)).unwrap();
        }
        s.write("project/policy.kdl", policy);
        s.write("outside/victim.txt", "the user's file\n");
        s.write("home/.ssh/authorized_keys", "ssh-ed25519 AAAA user@host\n");
        s
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn project(&self) -> PathBuf {
        self.path("project")
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    fn hookc(&self, args: &[&str]) -> Run {
        run(
            Command::new(HOOKC)
                .args(args)
                .current_dir(self.project())
                .env("HOME", self.path("home"))
                .env_remove("KIMI_CODE_HOME"),
            None,
        )
    }

    fn build(&self) -> Run {
        let r = self.hookc(&["build"]);
        assert_eq!(r.status, 0, "build failed:\n{}{}", r.stdout, r.stderr);
        r
    }

    /// Everything in the sandbox outside `project/` (and outside `keep`, the
    /// user-level files a build may write), with type, mode, owner and bytes.
    fn outside_the_project(&self, keep: &[&str]) -> BTreeMap<PathBuf, String> {
        let mut all = BTreeMap::new();
        snapshot(self.dir.path(), self.dir.path(), &mut all);
        all.retain(|p, _| !p.starts_with("project") && !keep.iter().any(|k| p.starts_with(k)));
        all
    }

    /// Build with a manifest that carries `entry` as well as the real ones.
    fn plant_manifest_entry(&self, entry: serde_json::Value) {
        let rel = "project/.hookc/manifest.json";
        let mut manifest: serde_json::Value = serde_json::from_str(&self.read(rel)).unwrap();
        manifest["files"].as_array_mut().unwrap().push(entry);
        self.write(rel, &serde_json::to_string_pretty(&manifest).unwrap());
    }
}

fn snapshot(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let meta = std::fs::symlink_metadata(&path).unwrap();
        let rel = path.strip_prefix(root).unwrap().to_owned();
        let head = format!("{:o} {}:{}", meta.mode(), meta.uid(), meta.gid());
        if meta.file_type().is_symlink() {
            out.insert(
                rel,
                format!("{head} -> {:?}", std::fs::read_link(&path).unwrap()),
            );
        } else if meta.is_dir() {
            out.insert(rel, format!("{head} dir"));
            snapshot(root, &path, out);
        } else if meta.is_file() {
            out.insert(rel, format!("{head} {:?}", std::fs::read(&path).unwrap()));
        } else {
            out.insert(rel, format!("{head} special"));
        }
    }
}

fn fails_with(r: &Run, code: &str) {
    assert_ne!(r.status, 0, "expected {code}:\n{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains(&format!("hookc::{code}")),
        "expected {code}:\n{}",
        r.stderr
    );
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// Item 1: a manifest entry outside the project, or one that selects
/// another tool's entries, stops the build before anything is touched.
#[test]
fn a_doctored_manifest_touches_nothing() {
    type Attack = (&'static str, fn(&Sandbox) -> serde_json::Value);
    let attacks: [Attack; 4] = [
        (
            "a path up and out",
            |_| serde_json::json!({"path": "../outside/victim.txt", "kind": "whole"}),
        ),
        (
            "an absolute path",
            |s| serde_json::json!({"path": s.path("outside/victim.txt"), "kind": "whole"}),
        ),
        (
            "a path through .hookc and up",
            |_| serde_json::json!({"path": ".hookc/../../outside/victim.txt", "kind": "whole"}),
        ),
        (
            "an empty marker on another tool's settings",
            |_| serde_json::json!({"path": ".vscode/settings.json", "kind": "json-entries", "container": ["hooks"], "marker": ""}),
        ),
    ];
    for (what, entry) in attacks {
        let s = Sandbox::new(POLICY);
        s.build();
        s.write(
            "project/.vscode/settings.json",
            "{\"hooks\": [{\"a\": 1}]}\n",
        );
        s.plant_manifest_entry(entry(&s));
        let before = s.outside_the_project(&[]);
        let settings = s.read("project/.claude/settings.json");
        for args in [&["build"][..], &["check"], &["build", "--force"]] {
            let r = s.hookc(args);
            fails_with(&r, "manifest-invalid");
            assert!(r.stderr.contains("manifest.json"), "{what}: {}", r.stderr);
        }
        assert_eq!(s.outside_the_project(&[]), before, "{what}");
        assert_eq!(
            s.read("project/.vscode/settings.json"),
            "{\"hooks\": [{\"a\": 1}]}\n",
            "{what}"
        );
        assert_eq!(s.read("project/.claude/settings.json"), settings, "{what}");
    }
}

/// Item 1, `--user`: a user-level entry cannot reach a file hookc did not
/// write, even with the right digest.
#[test]
fn a_doctored_manifest_cannot_reach_the_home_directory() {
    let s = Sandbox::new(POLICY);
    s.build();
    s.plant_manifest_entry(serde_json::json!({
        "path": "authorized_keys",
        "kind": "whole",
        "user": {"env": "HOOKC_NOPE", "default": ".ssh"},
    }));
    // Every build records itself in hookc's state (with the second it ran):
    // that file is hookc's own, not one the manifest reached.
    let own = ["home/.local/state/hookc/builds"];
    let before = s.outside_the_project(&own);
    let r = s.hookc(&["build", "--user", "--force"]);
    assert_eq!(s.outside_the_project(&own), before, "{}", r.stderr);
    assert_eq!(
        s.read("home/.ssh/authorized_keys"),
        "ssh-ed25519 AAAA user@host\n"
    );
}

/// Item 4: a corrupt manifest is an error; a missing one means hookc owns
/// nothing yet, so a hook of the user's that mentions `.hookc/` stays.
#[test]
fn a_corrupt_manifest_stops_the_build_and_a_missing_one_claims_nothing() {
    let s = Sandbox::new(POLICY);
    s.build();
    s.write("project/.hookc/manifest.json", "{\"files\": [");
    let settings = s.read("project/.claude/settings.json");
    fails_with(&s.hookc(&["build"]), "manifest-invalid");
    assert_eq!(s.read("project/.claude/settings.json"), settings);

    let s = Sandbox::new(POLICY);
    let mine = serde_json::json!({
        "hooks": {"PreToolUse": [{
            "matcher": "Bash",
            "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.hookc/claude/my-audit.sh"}]
        }]}
    });
    s.write(
        "project/.claude/settings.json",
        &serde_json::to_string_pretty(&mine).unwrap(),
    );
    s.build();
    let after = s.read("project/.claude/settings.json");
    assert!(
        after.contains("my-audit.sh"),
        "the user's hook was removed:\n{after}"
    );
    // A rebuild without the manifest: a warning, and still the user's hook.
    std::fs::remove_file(s.path("project/.hookc/manifest.json")).unwrap();
    let r = s.build();
    assert!(
        r.stderr.contains("manifest.json is missing"),
        "{}",
        r.stderr
    );
    assert!(
        s.read("project/.claude/settings.json")
            .contains("my-audit.sh")
    );
}

/// Item 2: a config hookc cannot read as UTF-8 is an error, never "absent".
#[test]
fn a_config_in_another_encoding_is_never_overwritten_or_retracted() {
    let s = Sandbox::new(POLICY);
    let latin1 = b"{\"model\": \"caf\xe9\"}\n";
    std::fs::create_dir_all(s.path("project/.claude")).unwrap();
    std::fs::write(s.path("project/.claude/settings.json"), latin1).unwrap();
    for args in [&["build"][..], &["check"], &["build", "--force"]] {
        let r = s.hookc(args);
        fails_with(&r, "unsafe-file");
        assert!(r.stderr.contains(".claude/settings.json"), "{}", r.stderr);
    }
    assert_eq!(
        std::fs::read(s.path("project/.claude/settings.json")).unwrap(),
        latin1
    );

    // Retraction of a file that became unreadable: refused too.
    let s = Sandbox::new(POLICY);
    s.build();
    std::fs::write(s.path("project/.claude/settings.json"), latin1).unwrap();
    s.write("project/policy.kdl", "targets \"codex\"\n");
    fails_with(&s.hookc(&["build"]), "unsafe-file");
    assert_eq!(
        std::fs::read(s.path("project/.claude/settings.json")).unwrap(),
        latin1
    );
}

/// Item 3: a symlinked directory that leads out of the project is refused.
#[test]
fn a_symlink_out_of_the_project_is_never_followed() {
    for link in [".claude", ".hookc"] {
        let s = Sandbox::new(POLICY);
        std::fs::create_dir_all(s.path("outside/dir")).unwrap();
        symlink(s.path("outside/dir"), s.path(&format!("project/{link}"))).unwrap();
        let before = s.outside_the_project(&[]);
        for args in [&["build"][..], &["check"], &["build", "--force"]] {
            fails_with(&s.hookc(args), "unsafe-file");
        }
        assert_eq!(s.outside_the_project(&[]), before, "{link}");
    }
    // A build that owns files, then finds `.hookc` moved out and linked.
    let s = Sandbox::new(POLICY);
    s.build();
    std::fs::rename(s.path("project/.hookc"), s.path("outside/hookc")).unwrap();
    symlink(s.path("outside/hookc"), s.path("project/.hookc")).unwrap();
    s.write("project/policy.kdl", "targets \"codex\"\n");
    let before = s.outside_the_project(&[]);
    fails_with(&s.hookc(&["build"]), "unsafe-file");
    assert_eq!(s.outside_the_project(&[]), before);
}

/// Item 3: a symlinked config inside the project is edited where it points,
/// and stays a link; one that points at a device is refused.
#[test]
fn a_symlinked_config_keeps_its_link() {
    let s = Sandbox::new(POLICY);
    s.write("project/config/claude.json", "{\"model\": \"opus\"}\n");
    std::fs::set_permissions(
        s.path("project/config/claude.json"),
        std::fs::Permissions::from_mode(0o600),
    )
    .unwrap();
    std::fs::create_dir_all(s.path("project/.claude")).unwrap();
    symlink(
        "../config/claude.json",
        s.path("project/.claude/settings.json"),
    )
    .unwrap();
    s.build();
    let link = s.path("project/.claude/settings.json");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let text = s.read("project/config/claude.json");
    assert!(
        text.contains("\"model\": \"opus\"") && text.contains("pre-tool.sh"),
        "{text}"
    );
    assert_eq!(mode(&s.path("project/config/claude.json")), 0o600);
    assert_eq!(s.hookc(&["check"]).status, 0);

    let s = Sandbox::new(POLICY);
    std::fs::create_dir_all(s.path("project/.claude")).unwrap();
    symlink("/dev/null", s.path("project/.claude/settings.json")).unwrap();
    fails_with(&s.hookc(&["build"]), "unsafe-file");
    let link = s.path("project/.claude/settings.json");
    assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("/dev/null"));
    assert_eq!(mode(Path::new("/dev/null")), 0o666);
}

/// Item 5: a backup keeps the mode of the original; new files respect the
/// umask; a rewritten file keeps its owner.
#[test]
fn modes_and_owners_are_kept() {
    let kimi = "targets \"kimi\"\nguard \"g\" {\n    command \"git\" \"push\" { flag \"--force\"; }\n    deny \"Push to a branch instead.\"\n}\n";
    let s = Sandbox::new(kimi);
    s.write("home/.kimi-code/config.toml", "api_key = \"sk-secret\"\n");
    let config = s.path("home/.kimi-code/config.toml");
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o600)).unwrap();
    let r = s.hookc(&["build", "--user"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(mode(&config), 0o600);
    assert_eq!(
        mode(&s.path("home/.kimi-code/config.toml.hookc-backup")),
        0o600
    );

    let s = Sandbox::new(POLICY);
    let r = run(
        Command::new("/bin/sh")
            .args(["-c", "umask 077; exec \"$0\" build", HOOKC])
            .current_dir(s.project())
            .env("HOME", s.path("home")),
        None,
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(mode(&s.path("project/.claude/settings.json")), 0o600);
    assert_eq!(mode(&s.path("project/.hookc/claude/pre-tool.sh")), 0o700);

    // Root can give files away; a build run as root keeps their owner.
    if running_as_root() {
        let s = Sandbox::new(POLICY);
        s.write("project/.claude/settings.json", "{}\n");
        let settings = s.path("project/.claude/settings.json");
        std::os::unix::fs::chown(&settings, Some(4242), Some(4343)).unwrap();
        s.build();
        let meta = std::fs::metadata(&settings).unwrap();
        assert_eq!((meta.uid(), meta.gid()), (4242, 4343));
    }
}

fn running_as_root() -> bool {
    std::fs::metadata("/proc/self")
        .map(|m| m.uid() == 0)
        .unwrap_or(false)
}

/// Item 6: the lock is taken before the build reads anything.
#[test]
fn a_build_plans_only_under_the_lock() {
    let s = Sandbox::new(POLICY);
    let held = std::fs::File::open(s.project()).unwrap();
    held.lock().unwrap();
    let r = s.hookc(&["build"]);
    assert_eq!(r.status, 2, "{}", r.stderr);
    assert!(r.stderr.contains("another `hookc build`"), "{}", r.stderr);
    assert!(!s.path("project/.claude").exists());
    assert!(!s.path("project/.hookc").exists());
}

/// Item 6: a build killed after writing some files leaves neither temporary
/// files nor false conflicts for the next one.
#[test]
fn an_interrupted_build_leaves_no_false_conflict() {
    let v1 = POLICY;
    let v2 = POLICY.replace("\"-f\"", "\"-f\" \"--force-with-lease\"");
    let v3 = v2.replace("targets \"claude\"", "targets \"claude\" \"gemini\"");
    let s = Sandbox::new(v1);
    s.build();
    // What a v2 build that died after its first file looks like: the new
    // manifest pending, one file rewritten, a temporary file left behind.
    let twin = Sandbox::new(&v2);
    twin.build();
    s.write(
        "project/.hookc/manifest.pending.json",
        &twin.read("project/.hookc/manifest.json"),
    );
    s.write(
        "project/.hookc/policy.json",
        &twin.read("project/.hookc/policy.json"),
    );
    s.write("project/.hookc/.hookc-AbC123.tmp", "half a file");
    s.write("project/policy.kdl", &v3);
    let r = s.hookc(&["build"]);
    assert_eq!(r.status, 0, "a false conflict:\n{}", r.stderr);
    assert!(!s.path("project/.hookc/.hookc-AbC123.tmp").exists());
    assert!(!s.path("project/.hookc/manifest.pending.json").exists());
    assert_eq!(s.hookc(&["check"]).status, 0);
    // A pending manifest left beside one that no build changes is removed too.
    s.write(
        "project/.hookc/manifest.pending.json",
        &twin.read("project/.hookc/manifest.json"),
    );
    s.build();
    assert!(!s.path("project/.hookc/manifest.pending.json").exists());
}

/// Item 7: a FIFO or a device where a file belongs is an error at once.
#[test]
fn fifos_and_devices_never_hang_a_build() {
    let s = with_a_fifo_for_claude_settings();
    for args in [&["build"][..], &["check"]] {
        let r = within(Duration::from_secs(20), &s, args);
        fails_with(&r, "unsafe-file");
        assert!(r.stderr.contains("FIFO"), "{}", r.stderr);
    }

    let s = Sandbox::new(POLICY);
    std::fs::remove_file(s.path("project/policy.kdl")).unwrap();
    symlink("/dev/zero", s.path("project/policy.kdl")).unwrap();
    let r = within(Duration::from_secs(20), &s, &["build"]);
    assert_ne!(r.status, 0);
    assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
}

/// A sandbox whose `.claude/settings.json` is a FIFO nobody writes to.
fn with_a_fifo_for_claude_settings() -> Sandbox {
    let s = Sandbox::new(POLICY);
    std::fs::create_dir_all(s.path("project/.claude")).unwrap();
    let fifo = s.path("project/.claude/settings.json");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    s
}

/// Run hookc, killing it if it outlives `limit` (a hang fails the test).
fn within(limit: Duration, s: &Sandbox, args: &[&str]) -> Run {
    let mut child = Command::new(HOOKC)
        .args(args)
        .current_dir(s.project())
        .env("HOME", s.path("home"))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("hookc {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    Run {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Item 8: however the policy path is spelled, the same bytes; a line
/// separator in it cannot end a comment in generated JavaScript.
#[test]
fn the_spelling_of_the_policy_path_changes_no_byte() {
    let s = Sandbox::new(POLICY);
    s.build();
    let mut before = BTreeMap::new();
    snapshot(&s.project(), &s.project(), &mut before);
    let absolute = s.path("project/policy.kdl").display().to_string();
    let roundabout = "../project/./policy.kdl";
    for spelling in [absolute.as_str(), roundabout] {
        let r = s.hookc(&["check", "--policy", spelling]);
        assert_eq!(r.status, 0, "{spelling}:\n{}{}", r.stdout, r.stderr);
        let r = s.hookc(&["build", "--policy", spelling]);
        assert_eq!(r.status, 0, "{spelling}: {}", r.stderr);
        let mut after = BTreeMap::new();
        snapshot(&s.project(), &s.project(), &mut after);
        assert_eq!(after, before, "{spelling}");
    }

    let policy = POLICY.replace(
        "targets \"claude\"",
        "targets \"opencode\" \"claude-agent-sdk\"",
    );
    let s = Sandbox::new(&policy);
    let odd = "sub\u{2028}alert(1)\u{2029}/policy.kdl";
    s.write(&format!("project/{odd}"), &policy);
    let r = s.hookc(&["build", "--policy", odd]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let mut files = BTreeMap::new();
    snapshot(&s.project(), &s.project(), &mut files);
    let scripts: Vec<_> = files
        .keys()
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e == "js" || e == "mjs" || e == "ts")
        })
        .collect();
    assert!(scripts.len() >= 3, "{scripts:?}");
    for script in scripts {
        let text = std::fs::read_to_string(s.project().join(script)).unwrap();
        assert!(
            !text.contains('\u{2028}') && !text.contains('\u{2029}'),
            "{}: a line separator reached the code",
            script.display()
        );
    }
}

/// Item 9: a retraction removes only directories hookc made.
#[test]
fn retraction_keeps_directories_the_user_made() {
    let s = Sandbox::new(&POLICY.replace("targets \"claude\"", "targets \"claude\" \"cursor\""));
    std::fs::create_dir_all(s.path("project/.cursor")).unwrap();
    s.build();
    assert!(s.path("project/.cursor/hooks.json").exists());
    s.write("project/policy.kdl", POLICY);
    s.build();
    assert!(!s.path("project/.cursor/hooks.json").exists());
    assert!(
        s.path("project/.cursor").is_dir(),
        "the user's .cursor/ was removed"
    );
    // A directory hookc made goes with its last file.
    s.write("project/policy.kdl", "targets \"codex\"\n");
    s.build();
    assert!(!s.path("project/.claude").exists());
}

/// Item 9: `hookc test --project DIR` treats DIR as data.
#[test]
fn hookc_test_quotes_the_project_path() {
    // The Agent SDK's hook command names the compiled policy by its path.
    let policy = POLICY.replace(
        "targets \"claude\"",
        "targets \"claude\" \"claude-agent-sdk\"",
    );
    let s = Sandbox::new(&policy);
    let odd = s.path("a'; touch PWNED; echo '");
    std::fs::create_dir_all(&odd).unwrap();
    std::fs::write(odd.join("policy.kdl"), policy.replace(
        "deny \"Push",
        "example \"git push --force\" expect=\"deny\"\n    example \"git push\" expect=\"allow\"\n    deny \"Push",
    ))
    .unwrap();
    let r = run(
        Command::new(HOOKC)
            .args(["build"])
            .current_dir(&odd)
            .env("HOME", s.path("home")),
        None,
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
    let r = run(
        Command::new(HOOKC)
            .args(["test", "--project"])
            .arg(&odd)
            .current_dir(s.dir.path())
            .env("HOME", s.path("home")),
        None,
    );
    let mut all = BTreeMap::new();
    snapshot(s.dir.path(), s.dir.path(), &mut all);
    assert!(
        !all.keys().any(|p| p.ends_with("PWNED")),
        "the project path ran as shell code:\n{}",
        r.stdout
    );
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
}

/// Item 9: a key appended after hookc's Kimi tables belongs, for TOML, to
/// hookc's last table; the build says so and where, and keeps the key.
#[test]
fn a_key_appended_after_hookcs_kimi_tables_is_pointed_out() {
    let kimi = "targets \"kimi\"\nguard \"g\" {\n    command \"git\" \"push\" { flag \"--force\"; }\n    deny \"Push to a branch instead.\"\n}\n";
    let s = Sandbox::new(kimi);
    s.write("home/.kimi-code/config.toml", "default_model = \"k2\"\n");
    assert_eq!(s.hookc(&["build", "--user"]).status, 0);
    let config = s.path("home/.kimi-code/config.toml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str("theme = \"dark\"\n");
    std::fs::write(&config, &text).unwrap();
    for args in [&["build", "--user"][..], &["build", "--user", "--force"]] {
        let r = s.hookc(args);
        assert_ne!(r.status, 0);
        assert!(
            r.stderr.contains("`theme` sits inside one of hookc's")
                && r.stderr
                    .contains("move `theme` above the first [[hooks]] table"),
            "{}",
            r.stderr
        );
    }
    assert_eq!(std::fs::read_to_string(&config).unwrap(), text);
}

/// Item 7, lint: a FIFO where a harness config belongs is reported, not
/// waited on.
#[test]
fn lint_never_hangs_on_a_fifo() {
    let s = with_a_fifo_for_claude_settings();
    for args in [&["lint", ".claude/settings.json"][..], &["lint"]] {
        let r = within(Duration::from_secs(20), &s, args);
        assert_ne!(r.status, 0, "{args:?}");
        assert!(r.stderr.contains("FIFO"), "{args:?}: {}", r.stderr);
    }
}

/// Item 9: a newline in the project path does not make `hookc test` report
/// a Codex path guard as letting a write through.
#[test]
fn hookc_test_with_a_newline_in_the_project_path() {
    let policy = "targets \"codex\"\nguard \"secrets\" {\n    tool \"write\" \"edit\"\n    path \"secrets/**\"\n    deny \"Do not touch secrets; ask the user.\"\n    example tool=\"write\" path=\"secrets/k.txt\" expect=\"deny\"\n}\n";
    let s = Sandbox::new(policy);
    let odd = s.path("a\nb\n");
    std::fs::create_dir_all(&odd).unwrap();
    std::fs::write(odd.join("policy.kdl"), policy).unwrap();
    let built = run(
        Command::new(HOOKC)
            .arg("build")
            .current_dir(&odd)
            .env("HOME", s.path("home")),
        None,
    );
    assert_eq!(built.status, 0, "{}", built.stderr);
    let r = run(
        Command::new(HOOKC)
            .args(["test", "--project"])
            .arg(&odd)
            .env("HOME", s.path("home")),
        None,
    );
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
    // The guard's 6 rows and self-protection's 17.
    assert!(r.stdout.contains("23 passed, 0 failed"), "{}", r.stdout);
}
