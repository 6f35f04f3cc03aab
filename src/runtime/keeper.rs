//! The outer deadline, kept by a process that only waits.
//!
//! The deadline's watchdog thread answers from inside the guard, which
//! covers everything the guard's own work can do to its time. It cannot
//! cover a guard the kernel holds: a thread in an uninterruptible wait (a
//! read from a hung mount) keeps its process alive whatever another thread
//! does, and that process keeps the harness's pipes open, so the harness
//! waits on. The shims used to run hookc under the system's `timeout` for
//! that, at the price of one more program start on every call (about a
//! third of a call's time on this project's bench).
//!
//! `hookc guard --deadline SECONDS` forks before it does anything else.
//! The child is the guard, writing its answer into two pipes. The parent,
//! the keeper, opens no file and takes no lock the child can hold: it reads
//! the pipes and waits. When the child ends with a status of the guard's
//! contract (0 or 2), the keeper passes its answer on, whole, and ends with
//! the same status. Otherwise nothing the child wrote goes out, and the
//! keeper ends with the status the shim reads as what happened (the shim
//! then refuses the call in the harness's own protocol):
//!
//! - [`LATE`] (124, as `timeout` has it) when the child has not ended
//!   `SECONDS` after the keeper started; the keeper kills it and does not
//!   wait for it, so the harness gets its end of file in time even when
//!   the kernel holds the child;
//! - 128 + N when the child died of signal N (a crash), as the shell
//!   reports it;
//! - the child's own status otherwise, with its stderr, so that its message
//!   reaches the user;
//! - [`UNKEPT`] when the keeper cannot start the child, or the child's
//!   answer is larger than [`MAX_ANSWER`].
//!
//! A shim that handed its own process to hookc (`exec`, under dash and
//! bash) is not there to read that status, and says so with `--shim
//! SCRIPT`: then the keeper refuses in its place, by running the script
//! again (see [`keep`]), and ends with the script's answer.
//!
//! A harness that reads a hook's answer only until it sees the hook's
//! process end (CodeBuddy Code, see [`Harness::drops_output_at_exit`])
//! loses what it has not read by then. For such a harness the keeper, once
//! the answer is written, waits until the harness has taken it (on Linux:
//! until nothing of it is left unread in the pipe or socket), for at most
//! [`TAKEN_WAIT`] and never past its deadline, before it ends.
//!
//! Only Unix processes can be kept this way; elsewhere `--deadline` is read
//! and the guard runs with its inner deadline only.
//!
//! [`Harness::drops_output_at_exit`]: crate::harness::Harness::drops_output_at_exit
#![allow(unsafe_code)]

use std::time::Duration;

use crate::ir::{Event, HarnessId};

/// The keeper's status when the guard did not answer in time.
pub const LATE: i32 = 124;
/// The keeper's status when it could not keep the guard.
pub const UNKEPT: i32 = 125;
/// The most the keeper holds of the guard's stdout and stderr together: a
/// guard's answer is a few kilobytes.
pub const MAX_ANSWER: usize = 16 << 20;
/// The longest the keeper waits for a harness that drops a hook's unread
/// output at its exit to take the answer. A harness reading as it should
/// takes it within a millisecond or two; one that reads only after the
/// hook has ended never does, and gets the answer this much later.
pub const TAKEN_WAIT: Duration = Duration::from_millis(500);

/// Who refuses the call when the guard gives no answer of its contract.
pub struct Refuser<'a> {
    /// The hook script that runs hookc, when it has handed its own process
    /// to hookc (`exec`): the keeper runs it again to refuse (see
    /// [`keep`]). `None`: the script waits for the keeper and refuses from
    /// its status itself.
    pub shim: Option<&'a std::path::Path>,
    /// Whose protocol, and which event, the keeper's own refusal is written
    /// in, when even the script cannot run.
    pub harness: HarnessId,
    pub event: Event,
}

/// The keeper's rules for the guard it keeps.
pub struct Keeping<'a> {
    /// How long the guard has to answer.
    pub limit: Duration,
    /// Who refuses when it does not.
    pub refuser: Refuser<'a>,
    /// Whether to wait, once the answer is written, until the harness has
    /// taken it (see the module's notes).
    pub wait_taken: bool,
}

/// Fork, and return in the child, which is the guard. The parent never
/// returns: it ends the process with the child's answer, or else with a
/// refusal (when the shim has handed its process over: `--shim`) or a
/// status that says why there is no answer.
#[cfg(unix)]
pub fn keep(keeping: &Keeping) {
    let started = std::time::Instant::now();
    let refuser = &keeping.refuser;
    let status = match unix::fork_with_pipes() {
        Ok(unix::Side::Child) => return,
        Ok(unix::Side::Parent(kept)) => {
            unix::wait(kept, started + keeping.limit, keeping.wait_taken)
        }
        Err(e) => {
            eprintln!("hookc guard: could not start the guard under its outer deadline: {e}");
            UNKEPT
        }
    };
    match refuser.shim {
        Some(shim) if !matches!(status, 0 | 2) => refuse(status, shim, refuser),
        _ => std::process::exit(status),
    }
}

#[cfg(not(unix))]
pub fn keep(_keeping: &Keeping) {}

/// The guard that names the keeper in its own refusal.
pub const GUARD: &str = "hookc-keeper";

/// The argument before the status when the keeper runs the shim again.
pub const FAILED_ARG: &str = "--hookc-failed";

/// The guard gave no answer of its contract, and no shell is waiting to
/// refuse from the keeper's status: run the shim again as
/// `/bin/sh -- SHIM --hookc-failed STATUS`, which refuses in its own words
/// (the harness's protocol, the policy's `on-error`, what became of the
/// guard), as it would have from the status. Only if `/bin/sh` cannot be
/// started does the keeper write a refusal itself.
#[cfg(unix)]
fn refuse(status: i32, shim: &std::path::Path, refuser: &Refuser) -> ! {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::process::CommandExt;
    // The shell read this file a moment ago; if it cannot be read now, a
    // shell told to run it would end with status 127 (a call let through
    // in most harnesses), so the keeper answers itself.
    let readable = std::ffi::CString::new(shim.as_os_str().as_bytes()).is_ok_and(|path| {
        // SAFETY: `path` is a valid NUL-terminated string.
        unsafe { libc::access(path.as_ptr(), libc::R_OK) == 0 }
    });
    let error = if readable {
        std::process::Command::new("/bin/sh")
            .arg("--")
            .arg(shim)
            .arg(FAILED_ARG)
            .arg(status.to_string())
            .exec()
    } else {
        std::io::Error::last_os_error()
    };
    super::answer_refusal(
        GUARD,
        refuser.harness,
        refuser.event,
        format!(
            "hookc could not check this call (its guard gave no answer: status {status}), and \
             could not run the hook script's refusal ({}: {error}), so it refused the call. Tell \
             the user; `hookc doctor` checks the machine.",
            shim.display()
        ),
        None,
    )
}

#[cfg(unix)]
mod unix {
    use std::io::{self, Write};
    use std::time::Instant;

    use super::{LATE, MAX_ANSWER, TAKEN_WAIT, UNKEPT};

    pub enum Side {
        Child,
        Parent(Kept),
    }

    /// The child, and the read ends of its stdout and stderr.
    pub struct Kept {
        pid: libc::pid_t,
        out: libc::c_int,
        err: libc::c_int,
    }

    fn check(r: libc::c_int) -> io::Result<libc::c_int> {
        if r < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(r)
        }
    }

    fn pipe() -> io::Result<[libc::c_int; 2]> {
        let mut fds = [0; 2];
        // SAFETY: `fds` is a valid array of two ints for pipe(2) to fill.
        check(unsafe { libc::pipe(fds.as_mut_ptr()) })?;
        for fd in fds {
            // SAFETY: `fd` was just returned by pipe(2). Close-on-exec, so
            // a program a `run` guard starts holds neither end.
            check(unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) })?;
        }
        Ok(fds)
    }

    /// Called first thing in `hookc guard`, while the process has one thread.
    pub fn fork_with_pipes() -> io::Result<Side> {
        let out = pipe()?;
        let err = pipe()?;
        // SAFETY: the process has a single thread here (nothing has started
        // the deadline's watchdog yet), so the child may go on running Rust.
        let pid = check(unsafe { libc::fork() })?;
        if pid == 0 {
            // SAFETY: plain descriptor calls on descriptors this function
            // owns; prctl with constant arguments.
            unsafe {
                #[cfg(any(target_os = "linux", target_os = "android"))]
                {
                    // The keeper killed (by the harness) takes the guard with it.
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    if libc::getppid() == 1 {
                        libc::_exit(UNKEPT);
                    }
                }
                if libc::dup2(out[1], 1) < 0 || libc::dup2(err[1], 2) < 0 {
                    libc::_exit(UNKEPT);
                }
                for fd in [out[0], out[1], err[0], err[1]] {
                    libc::close(fd);
                }
            }
            return Ok(Side::Child);
        }
        // SAFETY: the write ends belong to the child now.
        unsafe {
            libc::close(out[1]);
            libc::close(err[1]);
        }
        Ok(Side::Parent(Kept {
            pid,
            out: out[0],
            err: err[0],
        }))
    }

    /// Read the child's answer until both pipes end, then reap it; the
    /// status the keeper ends with.
    pub fn wait(kept: Kept, due: Instant, wait_taken: bool) -> i32 {
        let mut answer = [Vec::new(), Vec::new()];
        let mut fds = [
            libc::pollfd {
                fd: kept.out,
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: kept.err,
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        let mut buf = [0u8; 16 * 1024];
        while fds.iter().any(|p| p.fd >= 0) {
            let Some(left) = left_ms(due) else {
                return give_up(&kept, LATE);
            };
            // SAFETY: `fds` is a valid array of pollfd; poll skips negative fds.
            let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, left) };
            if ready < 0 {
                if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return give_up(&kept, UNKEPT);
            }
            for (p, kept_bytes) in fds.iter_mut().zip(answer.iter_mut()) {
                if p.fd < 0 || p.revents == 0 {
                    continue;
                }
                // SAFETY: `buf` is valid for `buf.len()` bytes.
                let n = unsafe { libc::read(p.fd, buf.as_mut_ptr().cast(), buf.len()) };
                if n > 0 {
                    kept_bytes.extend_from_slice(&buf[..n as usize]);
                } else if n == 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted
                {
                    // SAFETY: the keeper's own read end, closed once.
                    unsafe { libc::close(p.fd) };
                    p.fd = -1;
                }
            }
            if answer[0].len() + answer[1].len() > MAX_ANSWER {
                return give_up(&kept, UNKEPT);
            }
        }
        // Both pipes have ended, so the child is ending: reap it, in time.
        let status = loop {
            let mut status = 0;
            // SAFETY: `status` is a valid int for waitpid to fill.
            let r = unsafe { libc::waitpid(kept.pid, &mut status, libc::WNOHANG) };
            if r == kept.pid {
                break status;
            }
            if r < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                return UNKEPT;
            }
            if left_ms(due).is_none() {
                return give_up(&kept, LATE);
            }
            std::thread::sleep(std::time::Duration::from_micros(200));
        };
        let code = if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else if libc::WIFSIGNALED(status) {
            return 128 + libc::WTERMSIG(status);
        } else {
            return UNKEPT;
        };
        let [out, err] = answer;
        // stderr first, as it reached the harness while the shim held the
        // answer. An answer outside the contract is not passed on (the shim
        // refuses the call); the child's stderr is, as the message to the user.
        let _ = io::stderr().write_all(&err);
        if code == 0 || code == 2 {
            let _ = io::stdout().write_all(&out);
            let _ = io::stdout().flush();
        }
        if wait_taken {
            // Never past the deadline: the harness's own clock runs out soon after.
            await_taken((Instant::now() + TAKEN_WAIT).min(due));
        }
        code
    }

    /// Wait until the reader of stdout and stderr has taken everything
    /// written to them, or `until`.
    fn await_taken(until: Instant) {
        for fd in [1, 2] {
            while unread(fd).is_some_and(|n| n > 0) && Instant::now() < until {
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
        }
    }

    /// How much of what was written to `fd` its reader has not read yet:
    /// for a pipe, what its buffer holds; for a socket (Node's and libuv's
    /// child pipes are socket pairs), what has been sent and not received.
    /// `None` for anything else, or where the system cannot tell.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn unread(fd: libc::c_int) -> Option<libc::c_int> {
        // SAFETY: `stat` is plain data that fstat fills.
        let mut stat: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: `stat` is a valid stat for fstat to fill.
        if unsafe { libc::fstat(fd, &mut stat) } < 0 {
            return None;
        }
        let request = match stat.st_mode & libc::S_IFMT {
            libc::S_IFIFO => libc::FIONREAD,
            // SIOCOUTQ, which Linux numbers as TIOCOUTQ.
            libc::S_IFSOCK => libc::TIOCOUTQ,
            _ => return None,
        };
        let mut n: libc::c_int = 0;
        // SAFETY: both requests fill one int.
        (unsafe { libc::ioctl(fd, request, &mut n) } >= 0).then_some(n)
    }

    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    fn unread(_fd: libc::c_int) -> Option<libc::c_int> {
        None
    }

    /// Milliseconds left until `due`, rounded up; `None` once it has passed.
    fn left_ms(due: Instant) -> Option<libc::c_int> {
        let left = due.checked_duration_since(Instant::now())?;
        if left.is_zero() {
            return None;
        }
        Some(left.as_micros().div_ceil(1000).min(i32::MAX as u128) as libc::c_int)
    }

    /// Kill the child, without waiting for it (the kernel may hold it).
    fn give_up(kept: &Kept, status: i32) -> i32 {
        // SAFETY: the keeper's own child, not yet reaped, so the pid is still its.
        unsafe { libc::kill(kept.pid, libc::SIGKILL) };
        status
    }
}
