//! `hookc exec` judges files: a file a path guard protects is never read or
//! changed under supervision, however the call names it, and every other
//! file call runs as it would without hookc (Linux only).
#![cfg(target_os = "linux")]

use std::os::unix::fs::MetadataExt;
use std::process::Command;

use crate::support::{HOOKC, Project, Run, run};

const POLICY: &str = r#"
guard "keep-secrets" {
    path ".env*" "!.env.example" access="read"
    deny "Do not read .env files: read .env.example for the names."
    example tool="read" path=".env" expect="deny"
    example tool="read" path=".env.example" expect="allow"
}
guard "keep-config" {
    path "config/**" access="write"
    deny "Do not change config/: ask the user to."
    example tool="write" path="config/app.toml" expect="deny"
    example tool="read" path="config/app.toml" expect="allow"
}
"#;

const SECRET: &str = "TOKEN=canary-secret";

fn project() -> Project {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    p.build();
    p.write(".env", &format!("{SECRET}\n"));
    p.write(".env.example", "TOKEN=\n");
    p.write("config/app.toml", "keep = true\n");
    p.write("notes.txt", "notes\n");
    std::fs::create_dir_all(p.path("sub")).unwrap();
    p
}

fn sh(p: &Project, line: &str) -> Run {
    run(
        Command::new(HOOKC)
            .args(["exec", "--harness", "claude", "--", "sh", "-c", line])
            .current_dir(p.dir.path()),
        None,
    )
}

/// `python3 -c code` under `hookc exec` in the project.
fn python(p: &Project, code: &str) -> Run {
    run(
        Command::new(HOOKC)
            .args(["exec", "--harness", "claude", "--", "python3", "-c", code])
            .current_dir(p.dir.path()),
        None,
    )
}

fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// What a protected file is: its bytes, mode and modification time.
fn state(p: &Project, rel: &str) -> (Vec<u8>, u32, i64) {
    let meta = std::fs::metadata(p.path(rel)).unwrap();
    (
        std::fs::read(p.path(rel)).unwrap(),
        meta.mode(),
        meta.mtime_nsec(),
    )
}

#[test]
fn a_guarded_file_is_never_read_however_the_call_names_it() {
    let p = project();
    let mut lines = vec![
        "cat .env",
        "cat $(echo .env)",
        "f=.env; cat \"$f\"",
        "echo .env | xargs cat",
        "ln -s .env alias && cat alias",
        "cat sub/../.env",
        "cat < .env",
        "cat /proc/self/cwd/.env",
        "exec 3<.env; cat <&3",
        "cat /dev/fd/3 3<.env",
        "cd sub && cat ../.env",
        "cp .env copy",
        "mv .env moved",
        "ln .env hard",
        "dd if=.env status=none",
    ];
    if have("python3") {
        lines.push("python3 -c 'print(open(\".env\").read())'");
        lines.push("python3 -c 'import os; os.rename(\".env\", \"x\")'");
    }
    for line in lines {
        let r = sh(&p, line);
        assert_eq!(r.status, 87, "{line}: {r:?}");
        assert!(
            r.stderr.contains("hookc exec: guard keep-secrets stopped "),
            "{line}: {r:?}"
        );
        assert!(r.stderr.contains("read .env.example"), "{line}: {r:?}");
        assert!(
            !r.stdout.contains(SECRET) && !r.stderr.contains(SECRET),
            "{line}: {r:?}"
        );
        assert_eq!(p.read(".env"), format!("{SECRET}\n"), "{line}");
        for made in ["copy", "moved", "hard", "x"] {
            assert!(!p.exists(made), "{line} made {made}");
        }
        let _ = std::fs::remove_file(p.path("alias"));
    }
    // The template is not a secret.
    let r = sh(&p, "cat .env.example config/app.toml");
    assert_eq!(r.status, 0, "{r:?}");
    assert_eq!(r.stdout, "TOKEN=\nkeep = true\n");
}

#[test]
fn a_guarded_file_is_never_changed_however_the_call_names_it() {
    let p = project();
    let before = state(&p, "config/app.toml");
    let mut lines = vec![
        "echo x > config/app.toml",
        "echo x >> config/app.toml",
        ": > config/app.toml",
        "rm config/app.toml",
        "rm -rf config",
        "find config -delete",
        "mv config/app.toml x",
        "mv config elsewhere",
        "cp notes.txt config/app.toml",
        "chmod 000 config/app.toml",
        "touch config/app.toml",
        "truncate -s 0 config/app.toml",
        "sed -i s/true/false/ config/app.toml",
        "ln -s notes.txt config/new",
        "mkdir config/new",
        "ln -s config link && echo x > link/app.toml",
        "echo x > .hookc/policy.json",
    ];
    if have("python3") {
        lines.push("python3 -c 'open(\"config/app.toml\", \"r+\").write(\"x\")'");
        lines.push("python3 -c 'import os; os.chmod(\"config/app.toml\", 0)'");
        lines.push("python3 -c 'import os; f = os.open(\"config/app.toml\", os.O_RDONLY); os.fchmod(f, 0)'");
    }
    for line in lines {
        let r = sh(&p, line);
        assert_eq!(r.status, 87, "{line}: {r:?}");
        let guard = if line.contains(".hookc") {
            "hookc-self-protection"
        } else {
            "keep-config"
        };
        assert!(
            r.stderr
                .contains(&format!("hookc exec: guard {guard} stopped ")),
            "{line}: {r:?}"
        );
        assert_eq!(state(&p, "config/app.toml"), before, "{line}");
        assert!(!p.exists("x") && !p.exists("elsewhere"), "{line}");
        assert!(!p.exists("config/new"), "{line}");
        let _ = std::fs::remove_file(p.path("link"));
    }
}

/// Everything the guards do not name runs as it would without hookc: files
/// made with the caller's umask, appended, renamed, removed; links, FIFOs,
/// descriptors through /dev/fd, exclusive creation.
#[test]
fn ordinary_file_work_runs_unchanged_under_supervision() {
    let p = project();
    let line = "umask 077; echo one > out.txt; echo two >> out.txt; \
                stat -c %a out.txt; mv out.txt moved.txt; cat moved.txt; \
                mkdir -p a/b && echo c > a/b/c && cat a/b/c && rm -r a; \
                ln -s target.txt dangling && echo made > dangling && cat target.txt; \
                mkfifo pipe && { echo through > pipe & } && cat pipe; \
                echo fd | cat /dev/fd/0; cat /dev/null; \
                set -C; echo again 2>/dev/null > moved.txt || echo exclusive; \
                rm moved.txt target.txt dangling pipe; ls";
    let r = sh(&p, line);
    assert_eq!(r.status, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        // (`crush.json`: the build for every harness writes Crush's at the root.)
        "600\none\ntwo\nc\nmade\nthrough\nfd\nexclusive\nconfig\ncrush.json\nnotes.txt\npolicy.kdl\nsub\n",
        "{r:?}"
    );
}

/// What the judge looked at is what is opened: a thread rewriting the path
/// between the look and the open (from `notes.txt` to `.env`) never gets
/// the secret, since the supervisor opens the path it read itself. A
/// supervisor that let the kernel read the path again leaked in about one
/// run of five here; the test runs ten.
#[test]
fn a_path_rewritten_by_another_thread_after_the_look_is_never_opened() {
    if !have("python3") {
        return;
    }
    let p = project();
    let race = r#"
import ctypes, os, threading, time
libc = ctypes.CDLL(None, use_errno=True)
buf = ctypes.create_string_buffer(b"notes.txt\0", 16)
stop = False
def flip():
    # `.env` a short while, `notes.txt` the rest: the judge mostly sees
    # `notes.txt`, and a second reading may see `.env`.
    while not stop:
        ctypes.memmove(buf, b".env\0", 5)
        for _ in range(8):
            ctypes.memmove(buf, b"notes.txt\0", 10)
threading.Thread(target=flip, daemon=True).start()
end = time.time() + 1
got = ctypes.create_string_buffer(64)
while time.time() < end:
    fd = libc.open(buf, os.O_RDONLY)
    if fd >= 0:
        n = libc.read(fd, got, 64)
        if b"canary" in got.raw[:max(n, 0)]:
            print("LEAK", flush=True)
        libc.close(fd)
stop = True
"#;
    for _ in 0..10 {
        let r = python(&p, race);
        assert!(!r.stdout.contains("LEAK"), "{r:?}");
        // The judge saw `.env` at one of the opens and stopped the run.
        assert_eq!(r.status, 87, "{r:?}");
        assert!(r.stderr.contains("guard keep-secrets stopped"), "{r:?}");
    }
}

/// The supervision itself is out of reach: no process may write another's
/// memory through /proc, nor the dynamic loader's settings (as root, which
/// would load code into every program), nor the kernel's (as root: a
/// `core_pattern` program runs outside the tree), nor reach the
/// supervisor's descriptors.
#[test]
fn the_supervision_cannot_be_written_or_reached_through_proc() {
    if !have("python3") {
        return;
    }
    let p = project();
    let probe = r#"
import os
for what, path, mode in [("mem", "/proc/self/mem", "r+b"),
                         ("preload", "/etc/ld.so.preload", "ab"),
                         ("kernel", "/proc/sys/kernel/core_pattern", "ab"),
                         ("parent", f"/proc/{os.getppid()}/fd", None)]:
    try:
        if mode:
            open(path, mode)
        else:
            os.listdir(path)
        print(what, "open")
    except PermissionError:
        print(what, "refused")
"#;
    let r = python(&p, probe);
    assert_eq!(r.status, 0, "{r:?}");
    assert_eq!(
        r.stdout, "mem refused\npreload refused\nkernel refused\nparent refused\n",
        "{r:?}"
    );
}

/// fanotify hands a listener a descriptor to every file opened, opened
/// again with the listener's flags: an allowed read of `config/app.toml`
/// would give the tree a read-write descriptor to it that no judged open
/// made. `fanotify_init` is refused (it needs root, so the attack is only
/// tried as root); the read itself still runs.
#[test]
fn fanotify_hands_out_no_descriptor_the_supervisor_never_judged() {
    if !have("python3") {
        return;
    }
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout == b"0\n");
    if !root {
        eprintln!("skipped: fanotify needs root, and this test does not run as root");
        return;
    }
    let p = project();
    let before = state(&p, "config/app.toml");
    let attack = r#"
import ctypes, os, struct
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.fanotify_init(0, os.O_RDWR)  # FAN_CLASS_NOTIF, event descriptors read-write
print("init", fd, ctypes.get_errno(), flush=True)
if fd >= 0:
    # FAN_MARK_ADD, FAN_OPEN, on the guarded file
    libc.fanotify_mark(fd, 1, ctypes.c_uint64(0x20), -100, b"config/app.toml")
print(open("config/app.toml").read(), end="", flush=True)
if fd >= 0:
    event = os.read(fd, 4096)
    _, _, _, _, _, efd, _ = struct.unpack_from("IBBHQii", event)
    os.lseek(efd, 0, 0)
    os.write(efd, b"keep = false\n")
    print("wrote", flush=True)
"#;
    let r = python(&p, attack);
    assert_eq!(r.status, 0, "{r:?}");
    assert_eq!(r.stdout, "init -1 1\nkeep = true\n", "{r:?}");
    assert_eq!(state(&p, "config/app.toml"), before, "{r:?}");
}

/// A unix socket bound to a path makes a file there: judged as a file
/// made (found by review: `bind(".hookc/x")` made a name in hookc's
/// folder). A socket bound elsewhere works as usual, one connects to it,
/// and abstract and network addresses are bound as given.
#[test]
fn a_socket_bound_to_a_path_is_a_file_made_there() {
    if !have("python3") {
        return;
    }
    let p = project();
    let probe = r#"
import socket, sys
def bind(what, addr, family=socket.AF_UNIX):
    s = socket.socket(family, socket.SOCK_STREAM)
    s.bind(addr)
    if family == socket.AF_UNIX and not addr.startswith("\0"):
        s.listen(1)
        socket.socket(socket.AF_UNIX).connect(addr)
    print(what, "bound", flush=True)
bind("sub", "sub/app.sock")
bind("abstract", "\0hookc-test-abstract")
bind("tcp", ("127.0.0.1", 0), socket.AF_INET)
bind("config", "config/app.sock")
"#;
    let r = python(&p, probe);
    assert_eq!(r.stdout, "sub bound\nabstract bound\ntcp bound\n", "{r:?}");
    assert_eq!(r.status, 87, "{r:?}");
    assert!(
        r.stderr.contains("making a socket at") && r.stderr.contains("config/app.sock"),
        "{r:?}"
    );
    assert!(p.path("sub/app.sock").exists());
    assert!(!p.path("config/app.sock").exists());
}
