//! The supervisor behind `hookc exec`: runs one program and every process it
//! starts, and stops what they do before it happens so that the run-time
//! judge can look at what really runs and what is really opened.
//!
//! Two mechanisms, both without privileges (Linux 5.14 or later):
//!
//! * **Program starts, by ptrace** ([`tree`]). The child asks to be traced
//!   (`PTRACE_TRACEME`), installs a seccomp filter, stops itself, and only
//!   then starts the program. The supervisor follows every fork, vfork,
//!   clone and thread of the tree from its first instruction (a `setsid` or
//!   a double fork changes nothing: tracing follows the fork, not the
//!   session or the parent) and looks at each `execve` at its exec stop,
//!   where the new image has not run an instruction yet and its arguments
//!   sit in memory no other process shares. If the supervisor dies, the
//!   kernel kills every process it traced (`PTRACE_O_EXITKILL`).
//! * **File system calls, by seccomp user notification** ([`files`]). The
//!   same filter hands every system call that opens, creates, removes,
//!   renames, links or changes a file to the supervisor, which reads the
//!   path from the caller's memory, resolves it itself, asks the judge, and
//!   **makes the call itself** on the object it resolved: an open's file
//!   descriptor is put into the caller (`SECCOMP_IOCTL_NOTIF_ADDFD`), any
//!   other call's result is returned. The kernel never reads the path a
//!   second time, so nothing the tree does between the judge's look and the
//!   call (another thread rewriting the path, a link swapped in) changes
//!   what happens: what was judged is what is opened.
//!
//! The filter also closes the ways out of that picture: a new listener
//! (a nested supervisor that could let calls through), `ptrace`,
//! `process_vm_writev`, `pidfd_getfd`, `clone` with `CLONE_UNTRACED` or a
//! new namespace, `clone3` (whose flags a filter cannot read; C libraries
//! fall back to `clone`), namespaces, mounts and `chroot`, `io_uring` (which
//! opens files without system calls), handles (`name_to_handle_at`,
//! `open_by_handle_at`), `fanotify` (whose events carry a descriptor to
//! each file opened, opened again with the listener's flags), the
//! system calls that newer kernels added to open or change files
//! (`openat2`, `fchmodat2`, `setxattrat`, …: answered `ENOSYS`, so C
//! libraries use the older calls), and every system call newer than this
//! list. It sets `no_new_privs`, so set-user-ID programs (`sudo`) gain no
//! privileges; under a supervisor that runs as root, a call cannot change
//! its user either, since the supervisor makes file calls with its own.
//!
//! This is the one module with unsafe code: each block is a system call
//! through `libc`, with its arguments prepared before it.
#![allow(unsafe_code)]

use std::sync::Arc;

/// Exit status of `hookc exec` when a guard stopped a program start or a
/// file access.
pub const STOPPED: i32 = 87;
/// Exit status of `hookc exec` when it cannot supervise here: nothing ran.
pub const UNAVAILABLE: i32 = 86;

/// One program start, as the judge sees it at its exec stop.
#[derive(Debug, Clone)]
pub struct Start {
    pub pid: i32,
    /// The argument vector the program was started with (lossily UTF-8).
    pub argv: Vec<String>,
    /// The program file the kernel runs (`/proc/PID/exe`).
    pub exe: String,
    /// The file name `execve` was given (`AT_EXECFN`): for a script started
    /// through its `#!` line, the script, where `argv` and `exe` name its
    /// interpreter.
    pub execfn: Option<String>,
    /// The process's working directory, when it can be read.
    pub cwd: Option<String>,
    /// The tree's other processes and threads at this start.
    pub others: Vec<i32>,
}

/// What a system call does to the file it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    Both,
}

/// One file access, as the judge sees it before it happens.
#[derive(Debug, Clone)]
pub struct Touch {
    pub pid: i32,
    /// The program making the call, as it was started, when known.
    pub program: Option<Arc<Vec<String>>>,
    /// The file, absolute, with every link on the way resolved: the object
    /// the call would reach. A file yet to be made is its resolved folder
    /// and its name.
    pub path: String,
    pub access: Access,
    /// A folder moved or renamed: it stands for everything below it.
    pub tree: bool,
    /// The system call, as the user knows it (`open`, `rename`, `chmod`).
    pub call: &'static str,
}

/// Which file accesses the judge wants to see. Writes are always judged:
/// besides the policy's guards they protect the supervision itself (a
/// process's memory through `/proc/PID/mem`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Watch {
    /// Opens that only read (the policy has a guard on reading files).
    pub reads: bool,
}

/// What the supervisor stopped.
#[derive(Debug)]
pub enum Event {
    Start(Start),
    Touch(Touch),
}

/// How a supervised run ended.
#[derive(Debug)]
pub enum Ending<T> {
    /// The program exited with this status.
    Exited(i32),
    /// The program was killed by this signal.
    Signaled(i32),
    /// The judge stopped a program start or a file access; the whole tree
    /// was killed.
    Stopped(Event, T),
}

/// The run-time judge's two questions: `start` at every program start,
/// `touch` at every file access the [`Watch`] names. A `Some` stops the run.
pub struct Judge<'j, T> {
    pub start: &'j mut dyn FnMut(&Start) -> Option<T>,
    pub touch: &'j dyn Fn(&Touch) -> Option<T>,
    pub watch: Watch,
}

/// Whether this machine lets `hookc exec` supervise: `Err` says why not
/// and what to do. Found out by supervising `true` with file calls judged
/// (the real test: a container may refuse ptrace, seccomp or its user
/// notification whatever the kernel offers), in a forked copy of this
/// process, since the caller may have threads and the supervisor may not.
/// A try that takes longer than two seconds (a thousand times what it
/// takes) is a no.
pub fn available() -> Result<(), String> {
    #[cfg(all(
        target_os = "linux",
        any(target_arch = "x86_64", target_arch = "aarch64")
    ))]
    return tree::in_child(std::time::Duration::from_secs(2), supervise_true);
    #[cfg(not(all(
        target_os = "linux",
        any(target_arch = "x86_64", target_arch = "aarch64")
    )))]
    supervise_true()
}

/// Supervises `true`: `Ok` when it ran and exited 0.
fn supervise_true() -> Result<(), String> {
    let program = ["/bin/true", "/usr/bin/true"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .ok_or("there is no `true` program in /bin or /usr/bin to try supervision with")?;
    let mut start = |_: &Start| None::<()>;
    let judge = Judge {
        start: &mut start,
        touch: &|_: &Touch| None,
        watch: Watch { reads: true },
    };
    match run(std::ffi::OsStr::new(program), &[], judge)? {
        Ending::Exited(0) => Ok(()),
        other => Err(format!(
            "a supervised `true` did not exit cleanly ({other:?})"
        )),
    }
}

#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
pub fn run<T>(
    _program: &std::ffi::OsStr,
    _args: &[std::ffi::OsString],
    _judge: Judge<'_, T>,
) -> Result<Ending<T>, String> {
    Err("run-time supervision needs Linux on x86_64 or aarch64 (ptrace and seccomp); on this system only the static guard (`hookc guard`) protects calls".to_owned())
}

/// Items for the systems the supervisor runs on: Linux on x86_64 or
/// aarch64 (the system call numbers and the filter's architecture are
/// theirs).
macro_rules! supported {
    ($($item:item)*) => {
        $(
            #[cfg(all(
                target_os = "linux",
                any(target_arch = "x86_64", target_arch = "aarch64")
            ))]
            $item
        )*
    };
}

supported! {
    pub use tree::run;
    mod files;
    mod filter;
    mod tree;
    mod walk;
}

#[cfg(all(
    test,
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod tests {
    use super::*;

    /// A caller with threads (this test harness; once, CI hung here for an
    /// hour) gets an answer from `available`, and the other threads'
    /// children are theirs to wait for.
    #[test]
    fn a_process_with_threads_learns_whether_it_can_supervise_and_keeps_its_children() {
        let alone = available();
        let askers: Vec<_> = (0..4)
            .map(|_| std::thread::spawn(|| (0..5).map(|_| available()).collect::<Vec<_>>()))
            .collect();
        for _ in 0..20 {
            let status = std::process::Command::new("true").status();
            assert!(status.is_ok_and(|s| s.success()), "a child was taken");
        }
        for asker in askers {
            for answer in asker.join().unwrap() {
                assert_eq!(answer, alone);
            }
        }
        // The try ran in a process of one thread: a machine that cannot
        // supervise says why, never that the caller has threads.
        if let Err(why) = alone {
            assert!(!why.contains("one thread"), "{why}");
        }
    }

    /// `run` itself refuses a process with threads instead of losing its
    /// signals.
    #[test]
    fn the_supervisor_refuses_to_run_beside_other_threads() {
        let (stop, wait) = std::sync::mpsc::channel::<()>();
        let other = std::thread::spawn(move || wait.recv());
        let mut start = |_: &Start| None::<()>;
        let judge = Judge {
            start: &mut start,
            touch: &|_: &Touch| None,
            watch: Watch::default(),
        };
        let refused = run(std::ffi::OsStr::new("true"), &[], judge).unwrap_err();
        stop.send(()).unwrap();
        other.join().unwrap().unwrap();
        assert!(refused.contains("one thread"), "{refused}");
    }
}
