//! Which processes asked, and whose terminal `hookc allow-once` runs in.
//!
//! When `hookc guard` refuses a call with a code, it records its ancestors
//! (pid, start time and name, from `/proc`), and which of them is the
//! harness: the first that is not a shell or launcher running the hook
//! (`sh`, `timeout`, hookc's npm launcher). The agent's tools are that
//! process's children, so a terminal the agent makes (`script`, `expect`, a
//! pty of its own, `tmux` while the harness lives) descends from it.
//!
//! `hookc allow-once` then asks of its own terminal:
//!
//! 1. Standard input and standard error are terminals, the same one, and it
//!    is the process's controlling terminal (`tty_nr` in `/proc/self/stat`
//!    against the device of standard input; elsewhere `/dev/tty` must open),
//!    with the process in its foreground.
//! 2. None of these descends from the harness: the process itself, the
//!    leader of its session, and every process that holds the terminal's
//!    master side (found by `tty-index` in `/proc/*/fdinfo`). A pid counts
//!    only with its start time, so a reused pid is not mistaken.
//! 3. None of them belongs to a tree that was started after the harness, in
//!    the harness's control group, and then left for init (PID 1) or a
//!    service manager to adopt: what `tmux new -d`, `setsid … &` and other
//!    daemons started from the agent's shell look like once they detach.
//!
//! What this cannot see: a multiplexer or terminal server the user already
//! runs (a tmux server started before the agent, in another window) takes
//! the agent's `tmux new-window` and `send-keys` as it takes the user's; an
//! IDE whose agent types into the IDE's own terminals (their pty host is no
//! child of the agent); a detached tree on a system where every process
//! shares one control group and the user's own terminal was also started
//! after the agent and detached (it is refused: a false refusal, not a
//! false approval); processes in another PID namespace; and systems without
//! `/proc` (macOS, the BSDs), where only check 1 holds.

use serde::{Deserialize, Serialize};

/// One ancestor of the guard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proc {
    pub pid: u32,
    /// Clock ticks after boot (`/proc/PID/stat` field 22).
    pub start: u64,
    pub comm: String,
}

/// The guard's ancestors when it refused a call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lineage {
    /// The boot the start times count from (`/proc/sys/kernel/random/boot_id`).
    pub boot: String,
    /// The guard's parent first, up to PID 1 (at most 64).
    pub procs: Vec<Proc>,
    /// `procs[harness]` is the harness.
    pub harness: usize,
    /// The guard's control group (`/proc/self/cgroup`).
    pub cgroup: String,
}

/// Programs that run a hook without being the harness: shells, `timeout`
/// and `env` from the shim, hookc's own launchers.
const RUNNERS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "fish", "busybox", "tcsh", "csh",
    "timeout", "env", "nice", "nohup", "stdbuf", "hookc",
];

/// Processes that adopt orphans: PID 1 and service managers.
const REAPERS: &[&str] = &[
    "systemd",
    "init",
    "tini",
    "dumb-init",
    "docker-init",
    "catatonit",
    "s6-svscan",
    "runsvdir",
    "launchd",
    "openrc-init",
    "upstart",
];

/// What `/proc/PID/stat` says about a process.
#[derive(Debug, Clone)]
#[allow(dead_code)]
struct Stat {
    pid: u32,
    comm: String,
    ppid: u32,
    pgrp: i64,
    session: i64,
    tty_nr: u64,
    tpgid: i64,
    start: u64,
}

/// `/proc/PID/stat` read, or `None` (gone, or not readable).
fn stat(pid: u32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(pid, &text)
}

/// The fields of a `stat` line. The name sits in parentheses and may hold
/// spaces and parentheses itself, so the fields are read after the last `)`.
fn parse_stat(pid: u32, text: &str) -> Option<Stat> {
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let comm = text.get(open + 1..close)?.to_owned();
    let rest: Vec<&str> = text.get(close + 1..)?.split_whitespace().collect();
    // rest[0] is field 3 (state).
    let field = |n: usize| rest.get(n - 3).copied();
    Some(Stat {
        pid,
        comm,
        ppid: field(4)?.parse().ok()?,
        pgrp: field(5)?.parse().ok()?,
        session: field(6)?.parse().ok()?,
        tty_nr: field(7)?.parse::<i64>().ok()? as u64,
        tpgid: field(8)?.parse().ok()?,
        start: field(22)?.parse().ok()?,
    })
}

fn boot_id() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/random/boot_id")
        .ok()
        .map(|s| s.trim().to_owned())
}

fn cgroup_of(pid: &str) -> String {
    std::fs::read_to_string(format!("/proc/{pid}/cgroup"))
        .map(|s| s.trim().chars().take(4096).collect())
        .unwrap_or_default()
}

/// Whether the process runs `hookc guard` through a launcher (`node …/hookc guard`).
fn runs_hookc_guard(pid: u32) -> bool {
    let Ok(bytes) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
        return false;
    };
    let args: Vec<&[u8]> = bytes.split(|b| *b == 0).collect();
    args.iter().enumerate().any(|(i, a)| {
        let base = a.rsplit(|b| *b == b'/').next().unwrap_or(a);
        (base == b"hookc" || base == b"hookc.js" || base == b"hookc.exe")
            && args[i + 1..].iter().any(|x| *x == b"guard")
    })
}

impl Lineage {
    /// The running guard's ancestors (Linux; `None` elsewhere or when
    /// `/proc` cannot be read).
    pub fn of_guard() -> Option<Lineage> {
        if !cfg!(target_os = "linux") {
            return None;
        }
        #[cfg(unix)]
        let mut pid = std::os::unix::process::parent_id();
        #[cfg(not(unix))]
        let mut pid = 0;
        let mut procs = Vec::new();
        while procs.len() < 64 {
            let Some(s) = stat(pid) else { break };
            procs.push(Proc {
                pid,
                start: s.start,
                comm: s.comm.clone(),
            });
            if s.ppid == 0 || pid == 1 {
                break;
            }
            pid = s.ppid;
        }
        if procs.is_empty() {
            return None;
        }
        let harness = procs
            .iter()
            .position(|p| !RUNNERS.contains(&p.comm.as_str()) && !runs_hookc_guard(p.pid))
            .unwrap_or(0);
        Some(Lineage {
            boot: boot_id()?,
            procs,
            harness,
            cgroup: cgroup_of("self"),
        })
    }

    fn index_of(&self, s: &Stat) -> Option<usize> {
        self.procs
            .iter()
            .position(|p| p.pid == s.pid && p.start == s.start)
    }

    fn harness(&self) -> &Proc {
        &self.procs[self.harness.min(self.procs.len() - 1)]
    }
}

/// The terminal `hookc allow-once` talks to, once [`own_terminal`] accepted it.
#[derive(Debug)]
pub struct Terminal {
    /// The pseudo-terminal's number (`/dev/pts/N`), where it is one.
    pub pts: Option<u32>,
    /// The controlling terminal, opened (`/dev/tty`): where the prompt goes
    /// and the answer comes from.
    #[cfg(unix)]
    pub tty: std::fs::File,
}

#[cfg(unix)]
fn rdev_of(fd: std::os::fd::BorrowedFd<'_>) -> Option<u64> {
    use std::os::unix::fs::MetadataExt;
    let file = std::fs::File::from(fd.try_clone_to_owned().ok()?);
    file.metadata().ok().map(|m| m.rdev())
}

/// Check 1: standard input and standard error are this process's
/// controlling terminal, and the process is in its foreground.
pub fn own_terminal() -> Result<Terminal, String> {
    use std::io::IsTerminal;
    const NEEDS: &str = "hookc allow-once needs your terminal (stdin and stderr): run it yourself in a terminal, not through the agent or a pipe";
    if !std::io::stdin().is_terminal() || !std::io::stderr().is_terminal() {
        return Err(NEEDS.to_owned());
    }
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let input = rdev_of(std::io::stdin().as_fd());
        let errors = rdev_of(std::io::stderr().as_fd());
        if input.is_none() || input != errors {
            return Err(format!(
                "{NEEDS}; here stdin and stderr are different terminals"
            ));
        }
        let tty = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/tty")
            .map_err(|e| {
                format!("{NEEDS}; this process has no controlling terminal (/dev/tty: {e})")
            })?;
        let mut pts = None;
        if cfg!(target_os = "linux") {
            let me = stat(std::process::id())
                .ok_or_else(|| "cannot read /proc/self/stat to check the terminal".to_owned())?;
            if Some(me.tty_nr) != input {
                return Err(format!(
                    "{NEEDS}; its stdin is a terminal, but not this process's controlling terminal (/dev/tty)"
                ));
            }
            if me.tpgid != me.pgrp {
                return Err(format!(
                    "{NEEDS}; it is not in the foreground of its terminal"
                ));
            }
            pts = std::fs::read_link("/proc/self/fd/0")
                .ok()
                .and_then(|p| p.to_str()?.strip_prefix("/dev/pts/")?.parse().ok());
        }
        Ok(Terminal { pts, tty })
    }
    #[cfg(not(unix))]
    {
        Ok(Terminal { pts: None })
    }
}

/// The processes holding the master side of `/dev/pts/N`.
fn pty_holders(n: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return out;
    };
    let me = std::process::id();
    for p in procs.flatten() {
        let Some(pid) = p.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        if pid == me {
            continue;
        }
        let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
            continue;
        };
        for fd in fds.flatten() {
            let is_master = std::fs::read_link(fd.path())
                .ok()
                .is_some_and(|t| t.file_name().is_some_and(|n| n == "ptmx"));
            if !is_master {
                continue;
            }
            let info = std::fs::read_to_string(format!(
                "/proc/{pid}/fdinfo/{}",
                fd.file_name().to_string_lossy()
            ))
            .unwrap_or_default();
            let index = info
                .lines()
                .find_map(|l| l.strip_prefix("tty-index:"))
                .and_then(|v| v.trim().parse::<u32>().ok());
            if index == Some(n) {
                out.push(pid);
                break;
            }
        }
    }
    out
}

fn describe(s: &Stat) -> String {
    format!("`{}` (pid {})", super::visible(&s.comm).0, s.pid)
}

/// Seconds between two start times in clock ticks (Linux counts 100 a second).
fn seconds_between(earlier: u64, later: u64) -> u64 {
    later.saturating_sub(earlier) / 100
}

/// Checks 2 and 3 for one process: where its ancestry meets the harness's.
fn check_process(pid: u32, role: &str, lineage: &Lineage) -> Result<(), String> {
    let harness = lineage.harness();
    let harness_name = format!(
        "`{}` (pid {})",
        super::visible(&harness.comm).0,
        harness.pid
    );
    let Some(first) = stat(pid) else {
        return Ok(());
    };
    let mut path: Vec<Stat> = Vec::new();
    let mut current = first;
    for _ in 0..256 {
        if let Some(i) = lineage.index_of(&current) {
            if i <= lineage.harness {
                let chain: Vec<String> = path.iter().map(describe).collect();
                return Err(format!(
                    "{role} descends from {harness_name}, the program that asked hookc about the call (the agent's harness){}: a terminal the agent can make is not yours. Run `hookc allow-once` in a terminal window of your own, outside the agent",
                    if chain.is_empty() {
                        String::new()
                    } else {
                        format!(", through {}", chain.join(" ← "))
                    }
                ));
            }
            // A common ancestor above the harness: a terminal of the user's
            // own, unless the branch was left for a reaper to adopt after
            // the harness started, in the harness's control group.
            let reaper = current.pid == 1 || REAPERS.contains(&current.comm.as_str());
            if reaper
                && let Some(branch) = path.last()
                && branch.start > harness.start
                && cgroup_of(&branch.pid.to_string()) == lineage.cgroup
            {
                return Err(format!(
                    "{role} belongs to {}, which started {} s after {harness_name}, the agent's harness, in its control group, and was then left to {} to adopt: that is what a terminal the agent starts and detaches (`tmux new -d`, `setsid … &`) looks like. Run `hookc allow-once` in a terminal window that was not started from the agent's session",
                    describe(branch),
                    seconds_between(harness.start, branch.start),
                    describe(&current),
                ));
            }
            return Ok(());
        }
        if current.ppid == 0 {
            return Ok(());
        }
        let Some(parent) = stat(current.ppid) else {
            return Ok(());
        };
        path.push(current);
        current = parent;
    }
    Ok(())
}

/// Checks 2 and 3: the terminal is not one the agent made, by the lineage
/// the guard recorded. Without a lineage (another system, another boot),
/// only check 1 holds.
pub fn not_the_agents(terminal: &Terminal, lineage: Option<&Lineage>) -> Result<(), String> {
    let Some(lineage) = lineage else {
        return Ok(());
    };
    if lineage.procs.is_empty() || boot_id().as_deref() != Some(lineage.boot.as_str()) {
        return Ok(());
    }
    let me = std::process::id();
    check_process(me, "This terminal's `hookc allow-once`", lineage)?;
    if let Some(s) = stat(me)
        && s.session > 0
        && s.session as u32 != me
    {
        check_process(
            s.session as u32,
            "The leader of this terminal's session",
            lineage,
        )?;
    }
    if let Some(n) = terminal.pts {
        for holder in pty_holders(n) {
            check_process(
                holder,
                &format!("The program holding this terminal (/dev/pts/{n}), pid {holder},"),
                lineage,
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_is_read_after_the_name() {
        let line =
            "4242 (a (b) c) S 1 4242 4242 34816 4242 4194560 0 0 0 0 0 0 0 0 20 0 1 0 987654 0 0";
        let s = parse_stat(4242, line).unwrap();
        assert_eq!(s.comm, "a (b) c");
        assert_eq!(s.ppid, 1);
        assert_eq!(s.session, 4242);
        assert_eq!(s.tty_nr, 34816);
        assert_eq!(s.start, 987_654);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_lineage_of_a_process_ends_at_init_and_names_a_harness() {
        // The test binary's own ancestors stand in for a guard's.
        let l = Lineage::of_guard().expect("/proc is readable");
        assert!(!l.procs.is_empty());
        assert!(l.harness < l.procs.len());
        assert!(!RUNNERS.contains(&l.procs[l.harness].comm.as_str()) || l.harness == 0);
        // This process descends from its parent, recorded as the harness.
        let me = stat(std::process::id()).unwrap();
        let mut parent_only = l.clone();
        parent_only.harness = 0;
        let e = check_process(me.pid, "this test", &parent_only).unwrap_err();
        assert!(e.contains("descends from"), "{e}");
        // A lineage of unrelated processes says nothing.
        let other = Lineage {
            boot: l.boot.clone(),
            procs: vec![Proc {
                pid: 999_999_999,
                start: 1,
                comm: "x".into(),
            }],
            harness: 0,
            cgroup: String::new(),
        };
        assert!(check_process(me.pid, "this test", &other).is_ok());
    }
}
