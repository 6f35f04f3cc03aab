//! Issue 36: the agent, making only calls its guards allow, cannot switch
//! them off by changing what they depend on (a model of the protected
//! state, not a list of routes).
//!
//! The tests run every registered harness's real pre-tool hook in a
//! project built for all of them ([`Pinned`]), the way the harness runs it
//! ([`through_the_hook`]); a harness whose runner (node, python) is not
//! installed here is skipped and named.

use std::path::{Path, PathBuf};
use std::process::Command;

use hookc::harness::{self, Outcome};

use crate::every_hook::{Pinned, hooks_path, said, through_the_hook, through_the_hook_with};
use crate::support::{BARE_PATH, HOOKC, Project, Run, bundled_for, json_file, run, sh_c};

/// The state directory of the project's builds and hooks.
fn state(p: &Project) -> PathBuf {
    p.path(".local/state")
}

/// `hookc ARGS` with the project's state directory.
fn hookc(p: &Project, args: &[&str]) -> Run {
    run(
        Command::new(HOOKC)
            .args(args)
            .current_dir(p.dir.path())
            .env("XDG_STATE_HOME", state(p)),
        None,
    )
}

fn build(p: &Project) {
    let run = hookc(p, &["build"]);
    assert_eq!(run.status, 0, "build failed:\n{}{}", run.stdout, run.stderr);
}

/// The bundled policy built for Claude Code and Codex, with a folder, a
/// file and a git repository to work on.
fn built() -> Project {
    let p = bundled_for("\"claude\" \"codex\"");
    p.write("src/main.rs", "fn main() {}\n");
    p.write("notes.txt", "notes\n");
    build(&p);
    p
}

/// The PreToolUse command `harness` runs, as hookc wrote it.
fn hook_command(p: &Project, harness: &str) -> String {
    let file = match harness {
        "claude" => ".claude/settings.json",
        _ => ".codex/hooks.json",
    };
    json_file(p, file)["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// `harness`'s PreToolUse hook on a shell `command` run in the project.
fn shell(p: &Project, harness: &str, command: &str) -> Run {
    let dir = p.dir.path().display().to_string();
    let state = state(p).display().to_string();
    let payload = serde_json::json!({
        "session_id": "s", "turn_id": "t", "transcript_path": "/tmp/t.jsonl",
        "cwd": p.dir.path(), "hook_event_name": "PreToolUse", "model": "m",
        "permission_mode": "default", "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": "c"
    })
    .to_string();
    sh_c(
        &hook_command(p, harness),
        p.dir.path(),
        BARE_PATH,
        &[
            ("HOOKC_BIN", HOOKC),
            ("CLAUDE_PROJECT_DIR", &dir),
            ("XDG_STATE_HOME", &state),
        ],
        &payload,
    )
}

/// Whether the hook refused the call, in either harness's form.
fn refused(run: &Run) -> bool {
    run.status == 2 || run.stdout.contains("\"deny\"")
}

/// Restores the files saved in `backup` over the project's, as `git
/// checkout HEAD~1 -- .` or an `rsync` from a backup would.
fn restore(p: &Project, backup: &Path) {
    let status = Command::new("cp")
        .arg("-a")
        .arg(format!("{}/.", backup.display()))
        .arg(p.dir.path())
        .status()
        .unwrap();
    assert!(status.success());
}

/// `command` through every harness's pre-tool hook in `pinned`'s project,
/// with `env` in the harness's environment: each harness and how it ended.
fn every_harness(pinned: &Pinned, command: &str, env: &[(&str, &str)]) -> Vec<(String, Outcome)> {
    let path = hooks_path();
    let mut outcomes = Vec::new();
    for h in harness::all() {
        let root = pinned.p.dir.path();
        match through_the_hook_with(*h, root, &pinned.home, &pinned.state, &path, command, env) {
            Some(o) => outcomes.push((h.id().to_string(), o)),
            None => eprintln!("skipped {}: what runs its hook is not installed", h.id()),
        }
    }
    assert!(
        outcomes.len() >= harness::all().len() - 2,
        "only {} harnesses ran",
        outcomes.len()
    );
    outcomes
}

/// The files of hookc's own build in the project, byte for byte.
fn build_files(pinned: &Pinned) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for rel in [".hookc/policy.json", ".hookc/manifest.json", "policy.kdl"] {
        out.push((
            rel.to_owned(),
            std::fs::read(pinned.p.path(rel)).unwrap_or_default(),
        ));
    }
    out
}

/// A call a hook held to hookc's run-time judge (`hookc exec`), run as the
/// harness would run it, in the project with `env`: `None` when the
/// outcome does not run the call that way.
fn run_held(pinned: &Pinned, o: &Outcome, env: &[(&str, &str)]) -> Option<Run> {
    let input = o.runs.as_ref()?;
    let command = crate::support::supervised_command(
        &serde_json::json!({ "hookSpecificOutput": { "updatedInput": input } }).to_string(),
    )?;
    let mut c = Command::new("sh");
    c.args(["-c", &command])
        .current_dir(pinned.p.dir.path())
        .env("HOME", &pinned.home)
        .env("XDG_STATE_HOME", &pinned.state);
    for (k, v) in env {
        c.env(k, v);
    }
    Some(run(&mut c, None))
}

/// Asserts that every harness refused `command` for a reason containing
/// `because`, and that the call did not go ahead in any. A harness that
/// held it to the run-time judge instead: the call, run so, changed none
/// of hookc's own files.
fn refused_everywhere(pinned: &Pinned, command: &str, env: &[(&str, &str)], because: &str) {
    for (id, o) in every_harness(pinned, command, env) {
        let before = build_files(pinned);
        if let Some(ran) = run_held(pinned, &o, env) {
            assert_eq!(
                build_files(pinned),
                before,
                "{id}: `{command}` under hookc exec changed hookc's files: {ran:?} {:?}",
                o.runs
            );
            continue;
        }
        assert!(
            !o.proceeds && !o.asks,
            "{id}: `{command}` went ahead: {o:?}"
        );
        assert!(
            said(&o).contains(because),
            "{id}: `{command}` refused for another reason: {o:?}"
        );
    }
}

fn allowed_everywhere(pinned: &Pinned, command: &str, env: &[(&str, &str)]) {
    for (id, o) in every_harness(pinned, command, env) {
        assert!(o.proceeds, "{id}: `{command}` was refused: {o:?}");
    }
}

/// Adds to the project's policy a guard that refuses `cat build.log`, which
/// the bundled policy lets through: what tells a newer build from an older.
fn add_build_log_guard(p: &Project) {
    let policy = p.read("policy.kdl");
    p.write(
        "policy.kdl",
        &format!(
            "{policy}\nguard \"no-build-log\" {{\n    tool \"shell\"\n    path \"./build.log\"\n    deny \"Do not read the build log; run the build again.\"\n}}\n"
        ),
    );
}

/// Runs `hookc build` for `pinned`'s project as the user would.
fn rebuild(pinned: &Pinned, args: &[&str]) {
    let r = run(
        Command::new(HOOKC)
            .arg("build")
            .args(args)
            .current_dir(pinned.p.dir.path())
            .env("HOME", &pinned.home)
            .env("XDG_STATE_HOME", &pinned.state),
        None,
    );
    assert_eq!(r.status, 0, "build failed:\n{}{}", r.stdout, r.stderr);
}

/// A write that reaches into a directory holding hookc's files reaches
/// them: a delete, a move, a change of mode of the project (or of any
/// folder above `.hookc/`), a copy or sync of another tree into it, git
/// restoring or cleaning the whole work tree, and a hard link that would
/// give a protected file a second, unguarded name. In every harness.
#[test]
fn a_write_into_a_folder_that_holds_hookcs_files_is_refused_in_every_harness() {
    let pinned = Pinned::new();
    let p = &pinned.p;
    p.write("src/main.rs", "fn main() {}\n");
    p.write("notes.txt", "notes\n");
    let name = p
        .dir
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let lines = [
        format!("rm -rf ../{name}"),
        format!("mv ../{name} ../elsewhere"),
        "mv . ../elsewhere".to_owned(),
        "chmod 000 .".to_owned(),
        "chmod -R a-x .hookc/..".to_owned(),
        "cp -r ../old/. .".to_owned(),
        "cp -rT ../old .".to_owned(),
        "rsync -a ../old/ ./".to_owned(),
        "git checkout HEAD~1 -- .".to_owned(),
        "git restore -s HEAD~1 .".to_owned(),
        "git clean -fdx".to_owned(),
        "rm -rf .claude".to_owned(),
        "rm -rf .hookc".to_owned(),
        "rm -r .hookc".to_owned(),
        // A glob that expands to a folder holding them (`.claude`).
        "rm -r .cl*".to_owned(),
        "mv .c* /tmp/".to_owned(),
        "chmod -R 000 .[a-z]*".to_owned(),
        "ln .hookc/claude/pre-tool.sh notes2.txt".to_owned(),
        "cp -l .hookc/policy.json x.json".to_owned(),
        "link .hookc/policy.json x.json".to_owned(),
        // The state folder: the pin, the copy of hookc, the build record.
        "rm -rf state".to_owned(),
    ];
    for line in &lines {
        refused_everywhere(&pinned, line, &[], "only the user may do");
    }
    // The same commands on what holds no hookc file go ahead.
    for line in [
        "cp notes.txt .",
        "mv notes.txt notes-old.txt",
        "mv src src2",
        "chmod -R 755 src2",
        "cp -r src2 build",
        "rm -rf bu*",
        "rm -rf build",
        "git clean -n",
    ] {
        allowed_everywhere(&pinned, line, &[]);
    }
    // What decides is the folder on disk: one that holds a secret is refused.
    p.write("src2/.env", "TOKEN=x\n");
    refused_everywhere(&pinned, "mv src2 src3", &[], ".env");
}

/// Programs whose way of writing the static guard once missed (an
/// adversarial review): an output option of their own spelling, a file
/// they replace or delete once archived, pieces named by a prefix, the
/// files a patch names. In every harness; their plain uses go ahead.
#[test]
fn programs_that_write_through_options_and_archives_are_refused_in_every_harness() {
    let pinned = Pinned::new();
    let p = &pinned.p;
    p.write("notes.txt", "notes\n");
    for line in [
        "openssl enc -in notes.txt -out .hookc/policy.json",
        "history -w .hookc/policy.json",
        "cc -o.claude/settings.json x.c",
        "yes | ssh-keygen -q -N '' -f .claude/settings.json",
        "sqlite3 .claude/settings.local.json 'create table t(x)'",
        "csplit -s -f .hookc/policy -b '.json%.0d' notes.txt 1",
        "split -l 1 notes.txt .hookc/policy.",
        "gzip -r .claude",
        "zstd -qr --rm .hookc",
        "zip -qrm a.zip .hookc",
        "tar --remove-files -cf a.tar .hookc",
        "mount --bind empty .claude",
        "mount -t overlay o -o lowerdir=empty,upperdir=.,workdir=w m",
        "zstdmt -qr --rm .hookc",
        "lz4c -r --rm .hookc",
        "cp -p policy.kdl copy.kdl && hardlink -q .",
        "cc -MFpolicy.kdl -MM x.c",
    ] {
        refused_everywhere(&pinned, line, &[], "only the user may do");
    }
    // A name the line makes, which may be a link (`X11 -> .`), and a
    // write through it.
    refused_everywhere(
        &pinned,
        "cp -P /usr/bin/X11 me && rm me/policy.kdl",
        &[],
        "which may be a symbolic link",
    );
    // The files a patch changes are named in it, not on the line.
    refused_everywhere(
        &pinned,
        "patch -p1 < fix.patch",
        &[],
        "could not check which file",
    );
    for line in [
        "openssl sha256 notes.txt",
        "gzip -k notes.txt",
        "split -l 1 notes.txt part_",
        "patch notes.txt < fix.patch",
        "zip -qr a.zip notes.txt",
        "cc -Wall -o build/x x.c",
        "cp -r src copy && rm -r copy",
        "mkdir -p build && echo x > build/a",
    ] {
        allowed_everywhere(&pinned, line, &[]);
    }
}

/// More ways to write hookc's files found by review: git sent into
/// `.hookc` by `-C`, a symbolic link made in the line and written through,
/// a Python module that empties a folder, an option whose value is a
/// folder the program writes into, in-place and output modes. In every
/// harness; their plain uses go ahead.
#[test]
fn writes_through_another_folder_a_link_or_a_module_are_refused_in_every_harness() {
    let pinned = Pinned::new();
    let p = &pinned.p;
    let git = Command::new("git")
        .args(["init", "-q"])
        .current_dir(p.dir.path())
        .status();
    assert!(git.is_ok_and(|s| s.success()));
    p.write("notes.txt", "notes\n");
    p.write("src/main.rs", "fn main() {}\n");
    for line in [
        "git -C .hookc rm -q policy.json",
        "git -C .claude checkout -- settings.json",
        "ln -s .hookc h && rm -r h/claude",
        "ln -s .claude c; cp notes.txt c/settings.json",
        "python3 -m venv --clear .hookc",
        "python3 -m json.tool notes.txt .hookc/policy.json",
        "node --redirect-warnings .claude/settings.json w.js",
        "gpg --homedir .hookc --list-keys",
        "git init --separate-git-dir=.hookc/g x",
        "yq -i '.x=1' .claude/settings.json",
        "xxd notes.txt .claude/settings.json",
        "tree -o .claude/settings.json",
        "cloc --report-file=.claude/settings.json notes.txt",
    ] {
        refused_everywhere(&pinned, line, &[], "only the user may do");
    }
    for line in [
        "git -C src status",
        "ln -s notes.txt notes-link.txt",
        "python3 -m venv .venv",
        "python3 -m json.tool notes.txt",
        "xxd notes.txt",
        "tree -L 2",
    ] {
        allowed_everywhere(&pinned, line, &[]);
    }
}

/// A file opened again through a descriptor the line opened on it
/// (`/dev/stdin`, `/dev/fd/N`, `/proc/self/fd/N`, however spelled), a
/// folder reached through `/proc/self/cwd` or through `..` after a link, a
/// wrapper's own log file, git's marks files: refused in every harness;
/// the streams the harness gives go ahead.
#[test]
fn writes_through_a_descriptor_a_link_or_a_log_option_are_refused_in_every_harness() {
    let pinned = Pinned::new();
    let p = &pinned.p;
    p.write("notes.txt", "notes\n");
    p.write("a/b/keep.txt", "keep\n");
    p.write("src/main.rs", "fn main() {}\n");
    // Links an earlier call made: the kernel takes `l/..` from `a/b`.
    std::os::unix::fs::symlink("a/b", p.path("l")).unwrap();
    std::os::unix::fs::symlink("/proc/self/cwd", p.path("here")).unwrap();
    for line in [
        "cat notes.txt < policy.kdl > //dev/stdin",
        "cat notes.txt < policy.kdl > /dev/./stdin",
        "cat notes.txt < policy.kdl > /proc/self/root/dev/stdin",
        "cd src && rm /proc/self/cwd/../.hookc/policy.json",
        "rm l/../../.hookc/policy.json",
        "cat notes.txt < policy.kdl > /dev/stdin",
        "cat notes.txt 3< policy.kdl > /dev/fd/3",
        "exec 3<policy.kdl; echo x > /proc/self/fd/3",
        "truncate -s0 /dev/stdin < .hookc/policy.json",
        "rm -rf /dev/fd/3/.hookc 3<.",
        "valgrind --tool=none --log-file=.claude/settings.json true",
        "ssh -E .claude/settings.json -o BatchMode=yes nonexistent.invalid true",
        "git fast-export --export-marks=.claude/settings.json HEAD",
    ] {
        refused_everywhere(&pinned, line, &[], "only the user may do");
    }
    refused_everywhere(
        &pinned,
        "cd .hookc && rm ../here/policy.json",
        &[],
        "a link into a process's own places",
    );
    for line in [
        "echo hi | cat /dev/stdin",
        "echo x > /dev/stderr",
        "cat l/../../notes.txt",
        "cat /proc/self/cwd/notes.txt",
    ] {
        allowed_everywhere(&pinned, line, &[]);
    }
}

/// A `cd` may fail, go back, or go where only the run names: every folder
/// the line may be in counts, in every harness.
#[test]
fn a_cd_that_may_leave_the_line_elsewhere_is_followed_in_every_harness() {
    let pinned = Pinned::new();
    let p = &pinned.p;
    p.write("src/main.rs", "fn main() {}\n");
    p.write("notes.txt", "notes\n");
    for line in [
        "cd nowhere; cd .hookc; rm -f policy.json",
        "pushd .hookc && pushd /tmp && popd && rm -f policy.json",
        "cd .hookc; cd /tmp; cd - && rm -f policy.json",
        // A wrapper that runs its command in another folder.
        "env -C .hookc rm -f policy.json",
        "sudo -D .hookc rm -f policy.json",
    ] {
        refused_everywhere(&pinned, line, &[], "only the user may do");
    }
    for line in [
        "cd \"$(ls -d .h*)\" && rm -f policy.json",
        "cd /tmp; cd - && rm -f policy.json",
        "for i in 1 2; do cd ..; done; rm -f x",
    ] {
        refused_everywhere(&pinned, line, &[], "known only when the line runs");
    }
    for line in [
        "cd src && cd .. && cat notes.txt",
        "cp notes.txt \"$PWD/notes.bak\"",
    ] {
        allowed_everywhere(&pinned, line, &[]);
    }
}

/// An older build brought back by any route (here a copy, as a checkout,
/// a stash or a sync does it) refuses every call, in every harness, until
/// the user runs `hookc build`: the build is recorded outside the project.
#[test]
fn an_older_build_brought_back_refuses_every_call_until_the_user_builds() {
    let pinned = Pinned::new();
    let p = &pinned.p;
    // Everything the build wrote (hookc's folder and every harness's
    // files), not the policy the user goes on editing.
    let backup = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(p.dir.path()).unwrap().flatten() {
        let name = entry.file_name();
        if ["state", "home", ".git", "policy.kdl"].contains(&name.to_string_lossy().as_ref()) {
            continue;
        }
        let status = Command::new("cp")
            .arg("-a")
            .arg(entry.path())
            .arg(backup.path())
            .status()
            .unwrap();
        assert!(status.success());
    }
    // The older build lets `cat build.log` through; the new one does not.
    allowed_everywhere(&pinned, "cat build.log", &[]);
    add_build_log_guard(p);
    rebuild(&pinned, &[]);
    refused_everywhere(&pinned, "cat build.log", &[], "build log");
    allowed_everywhere(&pinned, "ls", &[]);

    restore(p, backup.path());
    for line in ["cat build.log", "ls"] {
        refused_everywhere(
            &pinned,
            line,
            &[],
            "is not the build `hookc build` last wrote on this machine",
        );
    }
    // The user rebuilds (from the policy as it is now): it is obeyed again.
    rebuild(&pinned, &["--force"]);
    refused_everywhere(&pinned, "cat build.log", &[], "build log");
    allowed_everywhere(&pinned, "ls", &[]);
}

/// A harness's hook settings where its environment moves them
/// (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `XDG_CONFIG_HOME`, …: every
/// `$VAR/…` entry of every profile, and the shell profiles under
/// `XDG_CONFIG_HOME`) are as protected as the fixed places, in every
/// harness's hook; the same write with the variable unset goes ahead, so
/// the environment is what decides.
#[test]
fn hook_settings_moved_by_the_environment_are_protected_in_every_harness() {
    let pinned = Pinned::new();
    let p = &pinned.p;
    let mut moved: Vec<(&str, &str)> = Vec::new();
    for h in harness::all() {
        for entry in h
            .profile()
            .protected
            .iter()
            .chain(hookc::protect::SHELL_PROFILES)
        {
            if let Some(e) = entry.strip_prefix('$') {
                let (var, rest) = e.split_once('/').unwrap_or((e, ""));
                if !moved.contains(&(var, rest)) {
                    moved.push((var, rest));
                }
            }
        }
    }
    for var in [
        "CLAUDE_CONFIG_DIR",
        "CODEX_HOME",
        "XDG_CONFIG_HOME",
        "COPILOT_HOME",
    ] {
        assert!(moved.iter().any(|(v, _)| *v == var), "{var} is not guarded");
    }
    for (var, rest) in moved {
        let dir = p.path(&format!("moved/{var}"));
        std::fs::create_dir_all(&dir).unwrap();
        let file: PathBuf = if rest.is_empty() {
            dir.clone()
        } else {
            dir.join(rest)
        };
        let dir = dir.display().to_string();
        let line = format!("echo '{{}}' > {}", file.display());
        refused_everywhere(
            &pinned,
            &line,
            &[(var, &dir)],
            "environment tells the harness",
        );
        // The harness's settings there, as the user wrote them.
        if !rest.is_empty() {
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(&file, "{}\n").unwrap();
        }
        refused_everywhere(
            &pinned,
            &format!("rm -rf {dir}"),
            &[(var, &dir)],
            "environment tells the harness",
        );
        // Unset, the same path is a file like any other, unless a harness
        // reads files of its name in every folder (`**/opencode.json`).
        let everywhere = harness::all()
            .iter()
            .flat_map(|h| h.profile().protected)
            .filter_map(|glob| glob.strip_prefix("**/"))
            .any(|name| file.ends_with(name));
        if everywhere {
            continue;
        }
        let claude = harness::get(hookc::ir::HarnessId::Claude).unwrap();
        let o = through_the_hook(
            claude,
            p.dir.path(),
            &pinned.home,
            &pinned.state,
            &hooks_path(),
            &format!("touch {}", file.display()),
        )
        .unwrap();
        assert!(o.proceeds, "{var}: {o:?}");
    }
}

/// A record of the last build that is a symbolic link (to a record the
/// agent could write) is not taken, nor is it taken as no record.
#[test]
fn a_record_of_the_build_replaced_by_a_link_refuses() {
    let p = built();
    let record = crate::support::build_record(&state(&p).join("hookc"));
    let planted = p.path("planted.json");
    std::fs::copy(&record, &planted).unwrap();
    std::fs::remove_file(&record).unwrap();
    std::os::unix::fs::symlink(&planted, &record).unwrap();
    let run = shell(&p, "claude", "ls");
    assert!(refused(&run), "{run:?}");
    assert!(run.stderr.contains("cannot be read"), "{run:?}");
}

/// `git ARGS` in `dir`, which must succeed.
fn git(dir: &Path, args: &[&str]) {
    let r = run(
        Command::new("git")
            .args(["-c", "user.email=t@example.com", "-c", "user.name=t"])
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null"),
        None,
    );
    assert_eq!(r.status, 0, "git {args:?}: {}{}", r.stdout, r.stderr);
}

/// A git command that names no file but moves the work tree to another
/// version (a switch, a checkout, a merge, a rebase, a cherry-pick, a
/// stash) writes every file that differs there: one that would bring
/// back an older `.hookc/` is refused in every harness, and the same
/// commands towards a version where hookc's files are the same go ahead.
/// What cannot be known before it runs (`git pull` fetches first) is
/// refused.
#[test]
fn a_git_command_that_would_bring_back_other_hook_files_is_refused_in_every_harness() {
    let pinned = Pinned::new();
    let p = &pinned.p;
    let dir = p.dir.path();
    p.write(".gitignore", "/state/\n/home/\n");
    p.write("notes.txt", "notes\n");
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "first build"]);
    // `old`: another build, on a branch of its own.
    git(dir, &["switch", "-q", "-c", "old"]);
    let policy = p.read("policy.kdl");
    p.write(
        "policy.kdl",
        &format!(
            "{policy}
// another build
"
        ),
    );
    rebuild(&pinned, &[]);
    git(dir, &["commit", "-q", "-am", "another build"]);
    p.write("notes.txt", "old notes\n");
    git(dir, &["commit", "-q", "-am", "old notes"]);
    git(dir, &["switch", "-q", "main"]);
    add_build_log_guard(p);
    rebuild(&pinned, &[]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "stronger build"]);
    // `feature`: the same build, other work.
    git(dir, &["switch", "-q", "-c", "feature"]);
    p.write("notes.txt", "more notes\n");
    git(dir, &["commit", "-q", "-am", "notes"]);
    git(dir, &["switch", "-q", "main"]);
    for line in [
        "git switch old",
        "git checkout old",
        "git checkout -b again old",
        "git checkout old --",
        "git merge old",
        "git rebase old",
        "git reset --keep old",
        "git cherry-pick old~1",
        "git pull",
        "git -C . switch old",
        // Checked as the line starts: the fetch could move what `feature` names.
        "git fetch && git merge feature",
        // The commit halfway is another build.
        "git bisect start old main~1",
    ] {
        refused_everywhere(&pinned, line, &[], "only the user may do");
    }
    for line in [
        "git switch feature",
        "git checkout feature",
        "git merge feature",
        "git switch -c topic",
        "git stash",
        "git status",
        // Nothing in progress, nothing stashed, no such branch: git stops.
        "git rebase --abort",
        "git merge --abort",
        "git stash pop",
        "git checkout no-such-branch",
        // Only the bad commit is left: git checks out none.
        "git bisect start main main~1",
        // Halfway is `main` or `feature`, which differ in notes only.
        "git bisect start feature main~1",
        "git bisect start --no-checkout old main~1",
        "git bisect start",
    ] {
        allowed_everywhere(&pinned, line, &[]);
    }
    // A bisect under way goes back to where it started first.
    git(dir, &["switch", "-q", "old"]);
    git(dir, &["bisect", "start"]);
    git(dir, &["switch", "-q", "--detach", "main"]);
    refused_everywhere(&pinned, "git bisect start", &[], "only the user may do");
    git(dir, &["bisect", "reset", "main"]);
    // An uncommitted rebuild: a stash would set it aside.
    let policy = p.read("policy.kdl");
    p.write("policy.kdl", &format!("{policy}\n// uncommitted\n"));
    rebuild(&pinned, &[]);
    refused_everywhere(&pinned, "git stash", &[], "only the user may do");
    // The user stashes it and builds again: popping the stash would bring
    // the stashed build back.
    git(dir, &["stash", "-q"]);
    rebuild(&pinned, &[]);
    refused_everywhere(&pinned, "git stash pop", &[], "only the user may do");
    allowed_everywhere(&pinned, "git stash list", &[]);
}

/// The approvals, the audit log, the record of the last build and the
/// hookc the hooks run are out of the agent's reach in every harness: a
/// read or write of the state folder, `hookc allow-once` in any spelling
/// or handed to a terminal the agent made, and an install of another hookc
/// are refused, each with what it is.
#[test]
fn hookcs_state_and_program_are_out_of_reach_in_every_harness() {
    let pinned = Pinned::new();
    let state = pinned.state.join("hookc");
    let s = state.display();
    for line in [
        format!("cat {s}/pin"),
        format!("ls {s}/approved"),
        format!("cp /tmp/forged.json {s}/approved/ABCD.json"),
        format!("rm -f {s}/log/*"),
        format!("ln -sf /dev/null {s}/log"),
        format!("chmod 000 {s}"),
        // The copy of hookc the hooks run lives there too.
        format!("cp /bin/true {}", pinned.pinned().display()),
    ] {
        refused_everywhere(&pinned, &line, &[], "state folder");
    }
    for line in [
        "hookc allow-once ABCD-1234",
        "npx hookc allow-once ABCD-1234",
        "tmux new -d 'hookc allow-once ABCD-1234'",
    ] {
        refused_everywhere(&pinned, line, &[], "from their own terminal");
    }
    for line in [
        "cargo install --force hookc",
        "npm i -g hookc@0.0.1",
        "pip install hookc==0.0.1",
    ] {
        refused_everywhere(&pinned, line, &[], "only the user may do");
    }
}

/// `hookc why` in `pinned`'s project, as the user runs it there, with
/// `env` in its environment.
fn why(pinned: &Pinned, line: &str, env: &[(&str, &str)]) -> Run {
    let mut c = Command::new(HOOKC);
    c.args(["why", line])
        .current_dir(pinned.p.dir.path())
        .env("HOME", &pinned.home)
        .env("XDG_STATE_HOME", &pinned.state)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env_remove("HOOKC_POLICY");
    for (var, value) in env {
        c.env(var, value);
    }
    let out = run(&mut c, None);
    assert_eq!(out.status, 0, "{}{}", out.stdout, out.stderr);
    out
}

/// What `hookc why` says the model reads, for a refusal by hookc's own
/// guard with `reason`: the verdict line and the reason, as printed.
fn explains_own_refusal(out: &Run, reason: &str) {
    assert!(
        out.stdout
            .contains("Verdict: deny (by hookc-self-protection)\n"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains(&format!("  the model reads:\n    {reason}\n")),
        "{}",
        out.stdout
    );
}

/// A call that only hookc's guard over its own program refuses (a `hookc`
/// where the project's tools look for one): the hook refuses it in every
/// harness, and `hookc why` names that verdict and its reason, not the
/// policy's.
#[test]
fn why_explains_the_refusal_of_a_write_over_hookcs_own_program_as_the_hook_makes_it() {
    let pinned = Pinned::new();
    let line = "rm -f node_modules/.bin/hookc";
    refused_everywhere(&pinned, line, &[], hookc::pin::REASON);
    explains_own_refusal(&why(&pinned, line, &[]), hookc::pin::REASON);
}

/// A call that writes hook settings where the environment moved them
/// (`CLAUDE_CONFIG_DIR`): the hook refuses it in every harness, and
/// `hookc why` run with the same environment names that verdict and its
/// reason.
#[test]
fn why_explains_the_refusal_of_a_write_to_moved_hook_settings_as_the_hook_makes_it() {
    let pinned = Pinned::new();
    let dir = pinned.p.path("moved/claude");
    std::fs::create_dir_all(&dir).unwrap();
    let dir = dir.display().to_string();
    let line = format!("echo '{{}}' > {dir}/settings.json");
    let env = [("CLAUDE_CONFIG_DIR", dir.as_str())];
    refused_everywhere(&pinned, &line, &env, hookc::protect::MOVED_REASON);
    explains_own_refusal(&why(&pinned, &line, &env), hookc::protect::MOVED_REASON);
    // Unset, the same write is not hookc's to refuse.
    let out = why(&pinned, &line, &[]);
    assert!(
        !out.stdout.contains(hookc::protect::MOVED_REASON) && !out.stdout.contains("Verdict: deny"),
        "{}",
        out.stdout
    );
}
