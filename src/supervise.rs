//! The supervisor behind `hookc exec`: runs one program and every process it
//! starts under ptrace, and stops each program start before its first
//! instruction so that the run-time judge can look at what really runs.
//!
//! How (Linux, no privileges needed):
//!
//! * The child asks to be traced (`PTRACE_TRACEME`), installs a seccomp filter
//!   (below), stops itself, and only then starts the program. The supervisor
//!   sets `PTRACE_O_TRACEEXEC | TRACEFORK | TRACEVFORK | TRACECLONE | EXITKILL`:
//!   every child, thread, `vfork` and `clone` of the tree is traced from its
//!   first instruction, a `setsid` or a double fork changes nothing (tracing
//!   follows the fork, not the session or the parent), and if the supervisor
//!   dies the kernel kills every process it traced, so no part of the tree
//!   goes on unsupervised.
//! * At each exec stop the new image has not run an instruction yet. Its
//!   argument vector is read from `/proc/PID/cmdline` and its program from
//!   `/proc/PID/exe` (the file the kernel mapped, links resolved).
//! * The seccomp filter closes the ways out of that picture that ptrace alone
//!   leaves open: `clone` with `CLONE_UNTRACED` would make a child nobody
//!   traces, and `clone3`, whose flags a filter cannot read, is answered
//!   `ENOSYS` (C libraries then fall back to `clone`); `ptrace` is refused, so
//!   no tracee can trace, or write into, another; `process_vm_writev` is
//!   refused, so no tracee can rewrite another's arguments between the judge's
//!   reading and the program's. The filter is inherited by every process of
//!   the tree and cannot be lifted; it also sets `no_new_privs`, so set-user-ID
//!   programs (`sudo`) do not gain privileges under supervision.
//!
//! This is the one module with unsafe code: each block is a system call
//! through `libc`, with its arguments prepared before it.
#![allow(unsafe_code)]

/// Exit status of `hookc exec` when a guard stopped a program start.
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
    /// The process's working directory, when it can be read.
    pub cwd: Option<String>,
}

/// How a supervised run ended.
#[derive(Debug)]
pub enum Ending<T> {
    /// The program exited with this status.
    Exited(i32),
    /// The program was killed by this signal.
    Signaled(i32),
    /// The judge stopped a program start; the whole tree was killed.
    Stopped(Start, T),
}

/// Whether this machine lets `hookc exec` supervise: `Err` says why not
/// and what to do. Found out by supervising `true` (the real test: a
/// container may refuse ptrace or seccomp whatever the kernel offers).
pub fn available() -> Result<(), String> {
    let program = ["/bin/true", "/usr/bin/true"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .ok_or("there is no `true` program in /bin or /usr/bin to try supervision with")?;
    match run(
        std::ffi::OsStr::new(program),
        &[],
        &mut |_: &Start| None::<()>,
    )? {
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
    _judge: &mut dyn FnMut(&Start) -> Option<T>,
) -> Result<Ending<T>, String> {
    Err("run-time supervision needs Linux on x86_64 or aarch64 (ptrace and seccomp); on this system only the static guard (`hookc guard`) protects calls".to_owned())
}

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
pub use linux::run;

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod linux {
    use std::collections::BTreeSet;
    use std::ffi::{CString, OsStr, OsString};
    use std::os::unix::ffi::OsStrExt;
    use std::path::{Path, PathBuf};

    use super::{Ending, Start};

    #[cfg(target_arch = "x86_64")]
    const AUDIT_ARCH: u32 = 0xC000_003E;
    #[cfg(target_arch = "aarch64")]
    const AUDIT_ARCH: u32 = 0xC000_00B7;

    /// Where a failure in the child happened, sent back over a pipe.
    const STAGE_TRACEME: u8 = 1;
    const STAGE_SECCOMP: u8 = 2;
    const STAGE_EXEC: u8 = 3;

    /// The seccomp program (see the module's documentation).
    fn filter() -> Vec<libc::sock_filter> {
        let stmt = |code: u32, k: u32| libc::sock_filter {
            code: code as u16,
            jt: 0,
            jf: 0,
            k,
        };
        let jump = |code: u32, k: u32, jt: u8, jf: u8| libc::sock_filter {
            code: code as u16,
            jt,
            jf,
            k,
        };
        let ld = libc::BPF_LD | libc::BPF_W | libc::BPF_ABS;
        let jeq = libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K;
        let jset = libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K;
        let jge = libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K;
        let ret = libc::BPF_RET | libc::BPF_K;
        let errno = |e: i32| libc::SECCOMP_RET_ERRNO | (e as u32 & libc::SECCOMP_RET_DATA);
        let nr = |n: libc::c_long| n as u32;
        vec![
            // 0: a system call of another ABI (i386 through `int 0x80`) has
            // other numbers: refused whole.
            stmt(ld, 4),
            jump(jeq, AUDIT_ARCH, 1, 0),
            stmt(ret, errno(libc::ENOSYS)),
            // 3: the number; x32's (bit 30) refused too.
            stmt(ld, 0),
            jump(jge, 0x4000_0000, 0, 1),
            stmt(ret, errno(libc::ENOSYS)),
            // 6
            jump(jeq, nr(libc::SYS_clone3), 0, 1),
            stmt(ret, errno(libc::ENOSYS)),
            // 8
            jump(jeq, nr(libc::SYS_ptrace), 0, 1),
            stmt(ret, errno(libc::EPERM)),
            // 10
            jump(jeq, nr(libc::SYS_process_vm_writev), 0, 1),
            stmt(ret, errno(libc::EPERM)),
            // 12: clone's flags are its first argument (low half, little endian).
            jump(jeq, nr(libc::SYS_clone), 0, 3),
            stmt(ld, 16),
            jump(jset, libc::CLONE_UNTRACED as u32, 0, 1),
            stmt(ret, errno(libc::EPERM)),
            // 16
            stmt(ret, libc::SECCOMP_RET_ALLOW),
        ]
    }

    /// The program file `program` names, found on PATH as `execvp` would
    /// (done before the fork, where the child may only make system calls).
    fn resolve(program: &OsStr) -> Result<PathBuf, String> {
        let path = Path::new(program);
        if program.as_bytes().contains(&b'/') {
            return Ok(path.to_path_buf());
        }
        let dirs = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
        for dir in std::env::split_paths(&dirs) {
            let candidate = dir.join(program);
            if let Ok(meta) = std::fs::metadata(&candidate) {
                use std::os::unix::fs::PermissionsExt;
                if meta.is_file() && meta.permissions().mode() & 0o111 != 0 {
                    return Ok(candidate);
                }
            }
        }
        Err(format!(
            "`{}` was not found on PATH",
            program.to_string_lossy()
        ))
    }

    fn errno() -> i32 {
        std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
    }

    fn c_string(text: &OsStr) -> Result<CString, String> {
        CString::new(text.as_bytes())
            .map_err(|_| format!("an argument holds a NUL byte: {}", text.to_string_lossy()))
    }

    /// Run `program ARGS` supervised; `judge` is asked at every program start
    /// (the first one included) and a `Some` stops the run.
    pub fn run<T>(
        program: &OsStr,
        args: &[OsString],
        judge: &mut dyn FnMut(&Start) -> Option<T>,
    ) -> Result<Ending<T>, String> {
        let file = c_string(resolve(program)?.as_os_str())?;
        let mut argv_c = vec![c_string(program)?];
        for a in args {
            argv_c.push(c_string(a)?);
        }
        let mut argv: Vec<*const libc::c_char> = argv_c.iter().map(|a| a.as_ptr()).collect();
        argv.push(std::ptr::null());
        let filter = filter();
        let prog = libc::sock_fprog {
            len: filter.len() as u16,
            filter: filter.as_ptr().cast_mut(),
        };
        let mut pipe = [0; 2];
        // SAFETY: a valid array of two ints.
        if unsafe { libc::pipe2(pipe.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return Err(format!(
                "could not make a pipe: {}",
                std::io::Error::last_os_error()
            ));
        }
        // SAFETY: the child makes only async-signal-safe system calls on
        // memory prepared above, then execs or exits.
        let child = unsafe { libc::fork() };
        if child < 0 {
            return Err(format!(
                "could not fork: {}",
                std::io::Error::last_os_error()
            ));
        }
        if child == 0 {
            // SAFETY: system calls on prepared memory; `_exit` never returns.
            unsafe {
                libc::close(pipe[0]);
                let fail = |stage: u8| -> ! {
                    let e = errno().to_le_bytes();
                    let message = [stage, e[0], e[1], e[2], e[3]];
                    libc::write(pipe[1], message.as_ptr().cast(), message.len());
                    libc::_exit(127)
                };
                if libc::ptrace(libc::PTRACE_TRACEME, 0, 0, 0) != 0 {
                    fail(STAGE_TRACEME);
                }
                if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
                    || libc::prctl(
                        libc::PR_SET_SECCOMP,
                        libc::SECCOMP_MODE_FILTER,
                        &prog as *const libc::sock_fprog,
                    ) != 0
                {
                    fail(STAGE_SECCOMP);
                }
                libc::raise(libc::SIGSTOP);
                libc::execv(file.as_ptr(), argv.as_ptr());
                fail(STAGE_EXEC);
            }
        }
        // SAFETY: our copy of the write end.
        unsafe { libc::close(pipe[1]) };
        let result = supervise(child, pipe[0], judge);
        // SAFETY: our read end, no longer used.
        unsafe { libc::close(pipe[0]) };
        result
    }

    /// What the child wrote before it failed to start the program.
    fn child_failure(pipe: i32) -> Option<String> {
        let mut message = [0u8; 5];
        // SAFETY: a buffer of the length given.
        let n = unsafe { libc::read(pipe, message.as_mut_ptr().cast(), message.len()) };
        if n != 5 {
            return None;
        }
        let e = std::io::Error::from_raw_os_error(i32::from_le_bytes([
            message[1], message[2], message[3], message[4],
        ]));
        Some(match message[0] {
            STAGE_TRACEME => format!(
                "this system refuses ptrace ({e}): a container or a security module forbids it (for Docker, `--cap-add SYS_PTRACE` or a seccomp profile that allows ptrace; kernel.yama.ptrace_scope 3 forbids it everywhere)"
            ),
            STAGE_SECCOMP => format!(
                "this system refuses a seccomp filter ({e}): the kernel lacks CONFIG_SECCOMP_FILTER or a container forbids it"
            ),
            _ => format!("the program could not be started: {e}"),
        })
    }

    struct Tree {
        /// Every process and thread traced now.
        known: BTreeSet<i32>,
    }

    fn wait(status: &mut i32) -> i32 {
        loop {
            // SAFETY: a valid pointer to an int.
            let pid = unsafe { libc::waitpid(-1, status, libc::__WALL) };
            if pid >= 0 || errno() != libc::EINTR {
                return pid;
            }
        }
    }

    fn cont(pid: i32, signal: i32) {
        // SAFETY: plain system call; a tracee gone meanwhile makes it fail harmlessly.
        unsafe { libc::ptrace(libc::PTRACE_CONT, pid, 0, signal as libc::c_long) };
    }

    fn kill_all(tree: &Tree) {
        for &pid in &tree.known {
            // SAFETY: plain system call.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }

    fn supervise<T>(
        root: i32,
        pipe: i32,
        judge: &mut dyn FnMut(&Start) -> Option<T>,
    ) -> Result<Ending<T>, String> {
        let mut status = 0;
        let mut tree = Tree {
            known: BTreeSet::from([root]),
        };
        // The child's own stop, after TRACEME and the filter.
        // SAFETY: a valid pointer to an int.
        let pid = unsafe { libc::waitpid(root, &mut status, libc::__WALL) };
        if pid != root || !libc::WIFSTOPPED(status) {
            return Err(child_failure(pipe).unwrap_or_else(|| {
                format!("the supervised child did not stop as asked (status {status:#x})")
            }));
        }
        let options = libc::PTRACE_O_TRACEEXEC
            | libc::PTRACE_O_TRACEFORK
            | libc::PTRACE_O_TRACEVFORK
            | libc::PTRACE_O_TRACECLONE
            | libc::PTRACE_O_EXITKILL;
        // SAFETY: plain system call.
        if unsafe { libc::ptrace(libc::PTRACE_SETOPTIONS, root, 0, options as libc::c_long) } != 0 {
            let e = std::io::Error::last_os_error();
            // SAFETY: plain system call.
            unsafe { libc::kill(root, libc::SIGKILL) };
            wait(&mut status);
            return Err(format!("could not set the tracing options ({e})"));
        }
        cont(root, 0);
        let mut root_end = None;
        let mut started = false;
        loop {
            let pid = wait(&mut status);
            if pid < 0 {
                // No tracee left.
                break;
            }
            if libc::WIFEXITED(status) || libc::WIFSIGNALED(status) {
                tree.known.remove(&pid);
                if pid == root {
                    root_end = Some(if libc::WIFEXITED(status) {
                        Ending::Exited(libc::WEXITSTATUS(status))
                    } else {
                        Ending::Signaled(libc::WTERMSIG(status))
                    });
                    // The call is over when its program is: whatever it
                    // left running would go on unseen by the caller.
                    kill_all(&tree);
                }
                continue;
            }
            if !libc::WIFSTOPPED(status) {
                continue;
            }
            tree.known.insert(pid);
            let signal = libc::WSTOPSIG(status);
            let event = (status >> 16) & 0xff;
            if signal == libc::SIGTRAP && event == libc::PTRACE_EVENT_EXEC {
                started = true;
                let start = read_start(pid);
                if let Some(verdict) = judge(&start) {
                    kill_all(&tree);
                    drain(&mut tree);
                    return Ok(Ending::Stopped(start, verdict));
                }
                cont(pid, 0);
            } else if signal == libc::SIGTRAP
                && matches!(
                    event,
                    libc::PTRACE_EVENT_FORK | libc::PTRACE_EVENT_VFORK | libc::PTRACE_EVENT_CLONE
                )
            {
                let mut new: libc::c_ulong = 0;
                // SAFETY: a valid pointer to an unsigned long.
                unsafe {
                    libc::ptrace(
                        libc::PTRACE_GETEVENTMSG,
                        pid,
                        0,
                        &mut new as *mut libc::c_ulong,
                    )
                };
                tree.known.insert(new as i32);
                cont(pid, 0);
            } else if matches!(
                signal,
                libc::SIGSTOP | libc::SIGTSTP | libc::SIGTTIN | libc::SIGTTOU
            ) {
                // A new tracee's first stop, or job control: a supervised
                // call is not stopped halfway (nobody would resume it).
                cont(pid, 0);
            } else if signal == libc::SIGTRAP && event != 0 {
                cont(pid, 0);
            } else {
                cont(pid, signal);
            }
        }
        match root_end {
            Some(end) if started => Ok(end),
            _ => Err(child_failure(pipe)
                .unwrap_or_else(|| "the supervised program ended before it started".to_owned())),
        }
    }

    /// After a stop: reap every tracee, killing any that shows up (a child
    /// whose fork had not been reported yet).
    fn drain(tree: &mut Tree) {
        let mut status = 0;
        loop {
            let pid = wait(&mut status);
            if pid < 0 {
                return;
            }
            if libc::WIFSTOPPED(status) {
                // SAFETY: plain system call.
                unsafe { libc::kill(pid, libc::SIGKILL) };
                cont(pid, 0);
            }
            tree.known.remove(&pid);
        }
    }

    /// The program start at `pid`'s exec stop.
    ///
    /// Race-free: after `execve` the process is single-threaded (the kernel
    /// ended its other threads), its new memory is shared with no other
    /// process (a `vfork` parent shares the old image, not this one), and it
    /// is stopped before its first instruction. Only a process that may
    /// trace it or write its memory could change the arguments between this
    /// reading and the program's: in the tree `ptrace` and
    /// `process_vm_writev` are refused by the filter (the one tracer is this
    /// supervisor). Writing `/proc/PID/mem` of a process of the same user is
    /// the way left open (book/src/cli/exec.md says so).
    fn read_start(pid: i32) -> Start {
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        let mut argv: Vec<String> = cmdline
            .split(|&b| b == 0)
            .map(|w| String::from_utf8_lossy(w).into_owned())
            .collect();
        // The last word ends with a NUL of its own.
        if argv.last().is_some_and(String::is_empty) {
            argv.pop();
        }
        let link = |what: &str| {
            std::fs::read_link(format!("/proc/{pid}/{what}"))
                .ok()
                .map(|p| p.to_string_lossy().into_owned())
        };
        Start {
            pid,
            argv,
            exe: link("exe").unwrap_or_default(),
            cwd: link("cwd"),
        }
    }
}
