//! Starting the supervised tree, and following it: every process and
//! thread with ptrace from its first instruction, every program start at its
//! exec stop, and the file calls the filter sends (see the module
//! documentation of [`super`]). One thread does it all, waiting on the
//! listener and on `SIGCHLD` (a `signalfd`) at once.

use std::collections::{BTreeSet, HashMap};
use std::ffi::{CString, OsStr, OsString};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::files::{self, Files};
use super::filter::{self, Options};
use super::{Ending, Event, Judge, Start};

/// Where a failure in the child happened, sent back over a pipe.
const STAGE_TRACEME: u8 = 1;
const STAGE_SECCOMP: u8 = 2;
const STAGE_EXEC: u8 = 3;
const STAGE_LISTENER: u8 = 4;

/// `SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV` (Linux 5.19): once the
/// supervisor has a call, only a kill interrupts the caller's wait, so a
/// signal cannot make it start the call again after the supervisor made it.
const WAIT_KILLABLE_RECV: libc::c_ulong = 1 << 5;

/// The child's stack before its `execve`: system calls only.
const CHILD_STACK: usize = 64 * 1024;

/// The program file `program` names, found on PATH as `execvp` would
/// (done before the child starts, where it may only make system calls).
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

fn pair(what: &str, make: impl FnOnce(&mut [i32; 2]) -> i32) -> Result<[OwnedFd; 2], String> {
    let mut fds = [0; 2];
    if make(&mut fds) != 0 {
        return Err(format!(
            "could not make a {what}: {}",
            std::io::Error::last_os_error()
        ));
    }
    // SAFETY: two descriptors just made, ours alone.
    Ok(fds.map(|fd| unsafe { OwnedFd::from_raw_fd(fd) }))
}

/// `/proc` must show this process's own PID namespace: the supervisor
/// reads each process's arguments, folder and descriptors there.
fn proc_is_ours() -> Result<(), String> {
    let seen = std::fs::read_link("/proc/self")
        .ok()
        .and_then(|p| p.to_str().and_then(|p| p.parse::<u32>().ok()));
    if seen == Some(std::process::id()) {
        Ok(())
    } else {
        Err("/proc does not show this process's PID namespace (mount a /proc of its own, as `unshare --pid --fork --mount-proc` does)".to_owned())
    }
}

/// The supervisor must be the only thread of its process: `SIGCHLD` from
/// the tree goes to whichever thread does not block it (and is lost to the
/// signalfd), and `waitpid(-1)` would reap other threads' children. A
/// caller with threads runs it in a forked copy ([`in_child`]).
fn one_thread() -> Result<(), String> {
    match std::fs::read_dir("/proc/self/task").map(Iterator::count) {
        Ok(1) => Ok(()),
        Ok(n) => Err(format!(
            "supervision must run in a process of one thread, and this one has {n} (a bug in hookc: report it)"
        )),
        Err(e) => Err(format!(
            "could not count this process's threads in /proc/self/task: {e}"
        )),
    }
}

/// Runs `probe` in a forked copy of this process, which has one thread
/// whatever this one has, and returns what it returned; a copy that has
/// not answered within `limit` is killed and its silence is an `Err`.
pub fn in_child(
    limit: std::time::Duration,
    probe: fn() -> Result<(), String>,
) -> Result<(), String> {
    // SAFETY: a valid array of two ints.
    let [read, write] = pair("pipe", |fds| unsafe {
        libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC)
    })?;
    // SAFETY: plain system call. The copy only runs `probe`, writes its
    // answer and exits without unwinding or running this process's
    // exit handlers (glibc and musl keep `malloc` usable after `fork`).
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(format!(
            "could not fork to try supervision: {}",
            std::io::Error::last_os_error()
        ));
    }
    if pid == 0 {
        drop(read);
        let answer = std::panic::catch_unwind(probe)
            .unwrap_or_else(|_| Err("trying supervision panicked".to_owned()));
        let (code, text) = match answer {
            Ok(()) => (0, String::new()),
            Err(why) => (1, why),
        };
        // SAFETY: a buffer of the length given; `_exit` ends the copy.
        unsafe {
            libc::write(write.as_raw_fd(), text.as_ptr().cast(), text.len());
            libc::_exit(code);
        }
    }
    drop(write);
    let deadline = std::time::Instant::now() + limit;
    let mut said = Vec::new();
    let mut timed_out = false;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        let mut fd = libc::pollfd {
            fd: read.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd.
        let ready =
            unsafe { libc::poll(&mut fd, 1, left.as_millis().min(i32::MAX as u128) as i32) };
        if ready == 0 {
            timed_out = true;
            break;
        }
        if ready < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            break;
        }
        let mut chunk = [0u8; 512];
        // SAFETY: a buffer of the length given.
        let n = unsafe { libc::read(read.as_raw_fd(), chunk.as_mut_ptr().cast(), chunk.len()) };
        if n <= 0 {
            break;
        }
        said.extend_from_slice(&chunk[..n as usize]);
    }
    let mut status = 0;
    // SAFETY: our own child, killed first when it overran its time.
    unsafe {
        if timed_out {
            libc::kill(pid, libc::SIGKILL);
        }
        while libc::waitpid(pid, &mut status, 0) < 0
            && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
        {}
    }
    if timed_out {
        return Err(format!(
            "a supervised `true` did not finish within {} ms",
            limit.as_millis()
        ));
    }
    match (libc::WIFEXITED(status), libc::WEXITSTATUS(status)) {
        (true, 0) => Ok(()),
        (true, _) if !said.is_empty() => Err(String::from_utf8_lossy(&said).into_owned()),
        _ => Err(format!(
            "trying supervision ended abnormally (wait status {status})"
        )),
    }
}

/// What the child needs, laid out before it starts: it shares the
/// supervisor's memory until its `execve` (`CLONE_VM | CLONE_VFORK`) and
/// only makes system calls on this.
struct Child {
    file: CString,
    argv: Vec<*const libc::c_char>,
    filter: libc::sock_fprog,
    /// The message that carries the listener; the child writes the
    /// descriptor's number at `slot`.
    message: libc::msghdr,
    slot: *mut i32,
    socket: RawFd,
    report: RawFd,
    /// The signal mask and `SIGCHLD` disposition the program starts with.
    mask: libc::sigset_t,
    sigchld: libc::sigaction,
}

/// The child: asks to be traced, installs the filter, sends its listener,
/// and starts the program, which stops at its exec (`PTRACE_TRACEME`
/// without options) before its first instruction.
extern "C" fn child(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the `Child` the supervisor keeps alive until this
    // process has exec'd or exited; only system calls follow.
    unsafe {
        let c = &*(arg as *const Child);
        let fail = |stage: u8| -> ! {
            let e = errno().to_le_bytes();
            let message = [stage, e[0], e[1], e[2], e[3]];
            libc::write(c.report, message.as_ptr().cast(), message.len());
            libc::_exit(127)
        };
        if libc::ptrace(libc::PTRACE_TRACEME, 0, 0, 0) != 0 {
            fail(STAGE_TRACEME);
        }
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            fail(STAGE_SECCOMP);
        }
        let install = |flags: libc::c_ulong| {
            libc::syscall(
                libc::SYS_seccomp,
                libc::SECCOMP_SET_MODE_FILTER,
                flags,
                &c.filter as *const libc::sock_fprog,
            )
        };
        let listener_flags = libc::SECCOMP_FILTER_FLAG_NEW_LISTENER;
        let mut listener = install(listener_flags | WAIT_KILLABLE_RECV);
        if listener < 0 && errno() == libc::EINVAL {
            listener = install(listener_flags);
        }
        if listener < 0 {
            fail(STAGE_SECCOMP);
        }
        *c.slot = listener as i32;
        if libc::sendmsg(c.socket, &c.message, 0) != 1 {
            fail(STAGE_LISTENER);
        }
        // No process of the tree may hold the listener: it could answer
        // its own calls.
        libc::close(listener as i32);
        libc::sigaction(libc::SIGCHLD, &c.sigchld, std::ptr::null_mut());
        libc::pthread_sigmask(libc::SIG_SETMASK, &c.mask, std::ptr::null_mut());
        libc::execv(c.file.as_ptr(), c.argv.as_ptr());
        fail(STAGE_EXEC)
    }
}

/// Run `program ARGS` supervised; the judge is asked at every program
/// start (the first one included) and at every file access its watch
/// names, and a `Some` stops the run.
pub fn run<T>(
    program: &OsStr,
    args: &[OsString],
    judge: Judge<'_, T>,
) -> Result<Ending<T>, String> {
    proc_is_ours()?;
    one_thread()?;
    let file = c_string(resolve(program)?.as_os_str())?;
    let mut argv_c = vec![c_string(program)?];
    for a in args {
        argv_c.push(c_string(a)?);
    }
    let mut argv: Vec<*const libc::c_char> = argv_c.iter().map(|a| a.as_ptr()).collect();
    argv.push(std::ptr::null());
    // SAFETY: plain system call.
    let root_user = unsafe { libc::geteuid() } == 0;
    let program = filter::program(&Options {
        reads: judge.watch.reads,
        root: root_user,
    });
    // SAFETY: a valid array of two ints.
    let [report_read, report_write] = pair("pipe", |fds| unsafe {
        libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC)
    })?;
    // SAFETY: a valid array of two ints.
    let [socket_parent, socket_child] = pair("socket pair", |fds| unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_DGRAM | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    })?;
    let carrier = FdMessage::new();
    // SAFETY: the control buffer holds one header of this size.
    let slot = unsafe {
        let header = libc::CMSG_FIRSTHDR(&carrier.message);
        (*header).cmsg_level = libc::SOL_SOCKET;
        (*header).cmsg_type = libc::SCM_RIGHTS;
        (*header).cmsg_len = libc::CMSG_LEN(std::mem::size_of::<i32>() as u32) as _;
        libc::CMSG_DATA(header).cast::<i32>()
    };
    // Signals: none reaches the child before its exec (it shares this
    // memory); the supervisor takes SIGCHLD through a signalfd, with the
    // default disposition so that its children are reaped by it; the
    // program starts with the mask and disposition this process had.
    // SAFETY: zeroed plain structs, filled by the kernel.
    let (mut all, mut mask, mut sigchld) = unsafe {
        (
            std::mem::zeroed::<libc::sigset_t>(),
            std::mem::zeroed::<libc::sigset_t>(),
            std::mem::zeroed::<libc::sigaction>(),
        )
    };
    // SAFETY: valid pointers to signal sets and a sigaction.
    unsafe {
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut mask);
        let mut default: libc::sigaction = std::mem::zeroed();
        default.sa_sigaction = libc::SIG_DFL;
        libc::sigaction(libc::SIGCHLD, &default, &mut sigchld);
    }
    let restore = |mask: &libc::sigset_t, sigchld: &libc::sigaction| {
        // SAFETY: valid pointers to a signal set and a sigaction.
        unsafe {
            libc::sigaction(libc::SIGCHLD, sigchld, std::ptr::null_mut());
            libc::pthread_sigmask(libc::SIG_SETMASK, mask, std::ptr::null_mut());
        }
    };
    let spec = Child {
        file,
        argv,
        filter: libc::sock_fprog {
            len: program.len() as u16,
            filter: program.as_ptr().cast_mut(),
        },
        message: carrier.message,
        slot,
        socket: socket_child.as_raw_fd(),
        report: report_write.as_raw_fd(),
        mask,
        sigchld,
    };
    let mut stack = vec![0u8; CHILD_STACK];
    // Processes the tree leaves behind when their parent exits come to the
    // supervisor, which stays their ancestor (and may read their memory).
    // SAFETY: plain system calls; the child runs `child` on its own stack
    // with `spec`, both alive until it has exec'd (CLONE_VFORK).
    let pid = unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        let top = stack.as_mut_ptr().add(CHILD_STACK - 64);
        libc::clone(
            child,
            top.cast(),
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            &spec as *const Child as *mut libc::c_void,
        )
    };
    drop(stack);
    if pid < 0 {
        let e = std::io::Error::last_os_error();
        restore(&mask, &sigchld);
        return Err(format!("could not start the program: {e}"));
    }
    // SIGCHLD stays blocked while the supervisor reads it from a signalfd.
    let mut only_chld: libc::sigset_t = mask;
    // SAFETY: valid pointers to signal sets.
    unsafe {
        libc::sigaddset(&mut only_chld, libc::SIGCHLD);
        libc::pthread_sigmask(libc::SIG_SETMASK, &only_chld, std::ptr::null_mut());
    }
    drop(report_write);
    drop(socket_child);
    let ending = supervise(pid, &report_read, &socket_parent, judge);
    restore(&mask, &sigchld);
    ending
}

/// What the child wrote before it failed to start the program.
fn child_failure(report: &OwnedFd) -> Option<String> {
    let mut message = [0u8; 5];
    // SAFETY: a buffer of the length given.
    let n = unsafe {
        libc::read(
            report.as_raw_fd(),
            message.as_mut_ptr().cast(),
            message.len(),
        )
    };
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
            "this system refuses a seccomp filter with a user-notification listener ({e}): the kernel is older than 5.14 or lacks CONFIG_SECCOMP_FILTER, or a container forbids it"
        ),
        STAGE_LISTENER => format!("the supervisor could not receive the file-call listener ({e})"),
        _ => format!("the program could not be started: {e}"),
    })
}

/// A message of one byte that carries one file descriptor
/// (`SCM_RIGHTS`): `message` points into the boxes beside it, which do not
/// move while it lives.
struct FdMessage {
    message: libc::msghdr,
    _byte: Box<[u8; 1]>,
    _iov: Box<libc::iovec>,
    _control: Vec<u64>,
}

impl FdMessage {
    fn new() -> FdMessage {
        let mut byte = Box::new([0u8; 1]);
        let mut iov = Box::new(libc::iovec {
            iov_base: byte.as_mut_ptr().cast(),
            iov_len: 1,
        });
        // SAFETY: a size computation.
        let space = unsafe { libc::CMSG_SPACE(std::mem::size_of::<i32>() as u32) } as usize;
        let mut control = vec![0u64; space.div_ceil(8)];
        // SAFETY: a zeroed plain struct.
        let mut message: libc::msghdr = unsafe { std::mem::zeroed() };
        message.msg_iov = &mut *iov;
        message.msg_iovlen = 1;
        message.msg_control = control.as_mut_ptr().cast();
        message.msg_controllen = space as _;
        FdMessage {
            message,
            _byte: byte,
            _iov: iov,
            _control: control,
        }
    }
}

/// The listener the child sent.
fn receive_listener(socket: &OwnedFd) -> Option<OwnedFd> {
    let mut carrier = FdMessage::new();
    let message = &mut carrier.message;
    // SAFETY: buffers prepared above.
    let n = unsafe {
        libc::recvmsg(
            socket.as_raw_fd(),
            message,
            libc::MSG_DONTWAIT | libc::MSG_CMSG_CLOEXEC,
        )
    };
    if n != 1 {
        return None;
    }
    // SAFETY: the kernel filled the control buffer.
    unsafe {
        let header = libc::CMSG_FIRSTHDR(message);
        if header.is_null()
            || (*header).cmsg_level != libc::SOL_SOCKET
            || (*header).cmsg_type != libc::SCM_RIGHTS
        {
            return None;
        }
        let fd = *libc::CMSG_DATA(header).cast::<i32>();
        Some(OwnedFd::from_raw_fd(fd))
    }
}

/// The traced processes and threads, and each one's program.
struct Tree {
    known: BTreeSet<i32>,
    programs: HashMap<i32, Arc<Vec<String>>>,
}

impl Tree {
    fn kill_all(&self) {
        for &pid in &self.known {
            // SAFETY: plain system call.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }

    /// After a stop: kill and reap every tracee, killing any that shows up
    /// (a child whose fork had not been reported yet).
    fn end(&mut self) {
        self.kill_all();
        let mut status = 0;
        loop {
            let pid = wait(&mut status, 0);
            if pid <= 0 {
                return;
            }
            if libc::WIFSTOPPED(status) {
                // SAFETY: plain system call.
                unsafe { libc::kill(pid, libc::SIGKILL) };
                cont(pid, 0);
            }
            self.known.remove(&pid);
        }
    }
}

/// `waitpid` for any tracee (`flags`: `WNOHANG` or 0): its PID, 0 when none
/// has news, -1 when none is left.
fn wait(status: &mut i32, flags: i32) -> i32 {
    loop {
        // SAFETY: a valid pointer to an int.
        let pid = unsafe { libc::waitpid(-1, status, libc::__WALL | flags) };
        if pid >= 0 || errno() != libc::EINTR {
            return pid;
        }
    }
}

fn cont(pid: i32, signal: i32) {
    // SAFETY: plain system call; a tracee gone meanwhile makes it fail harmlessly.
    unsafe { libc::ptrace(libc::PTRACE_CONT, pid, 0, signal as libc::c_long) };
}

fn supervise<T>(
    root: i32,
    report: &OwnedFd,
    socket: &OwnedFd,
    judge: Judge<'_, T>,
) -> Result<Ending<T>, String> {
    let mut status = 0;
    // The child's stop at its exec (or its exit when it failed before).
    // SAFETY: a valid pointer to an int.
    let pid = unsafe { libc::waitpid(root, &mut status, libc::__WALL) };
    if pid != root || !libc::WIFSTOPPED(status) {
        return Err(child_failure(report).unwrap_or_else(|| {
            format!("the supervised child did not stop as asked (status {status:#x})")
        }));
    }
    let stop_child = |why: String| {
        // SAFETY: plain system calls.
        unsafe { libc::kill(root, libc::SIGKILL) };
        let mut status = 0;
        wait(&mut status, 0);
        Err(why)
    };
    let Some(listener) = receive_listener(socket) else {
        return stop_child("the supervisor did not receive the file-call listener".to_owned());
    };
    let options = libc::PTRACE_O_TRACEEXEC
        | libc::PTRACE_O_TRACEFORK
        | libc::PTRACE_O_TRACEVFORK
        | libc::PTRACE_O_TRACECLONE
        | libc::PTRACE_O_EXITKILL;
    // SAFETY: plain system call.
    if unsafe { libc::ptrace(libc::PTRACE_SETOPTIONS, root, 0, options as libc::c_long) } != 0 {
        let e = std::io::Error::last_os_error();
        return stop_child(format!("could not set the tracing options ({e})"));
    }
    let Judge { start, touch, .. } = judge;
    let mut files = match Files::new(listener, touch) {
        Ok(files) => files,
        Err(e) => return stop_child(e),
    };
    // SAFETY: a signal set holding SIGCHLD, blocked by `run`.
    let chld = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGCHLD);
        libc::signalfd(-1, &set, libc::SFD_CLOEXEC | libc::SFD_NONBLOCK)
    };
    if chld < 0 {
        let e = std::io::Error::last_os_error();
        return stop_child(format!("could not watch the tree's signals ({e})"));
    }
    // SAFETY: a descriptor just made, ours alone.
    let chld = unsafe { OwnedFd::from_raw_fd(chld) };
    // Files are made with the caller's umask, applied by the supervisor.
    // SAFETY: plain system call.
    let umask = unsafe { libc::umask(0) };
    let mut tree = Tree {
        known: BTreeSet::from([root]),
        programs: HashMap::new(),
    };
    let ending = follow(root, start, &mut files, &mut tree, &chld);
    // SAFETY: plain system call.
    unsafe { libc::umask(umask) };
    ending
}

/// The loop: ptrace events and file calls as they come, until no process of
/// the tree is left or the judge stops one.
fn follow<T>(
    root: i32,
    judge: &mut dyn FnMut(&Start) -> Option<T>,
    files: &mut Files<'_, T>,
    tree: &mut Tree,
    chld: &OwnedFd,
) -> Result<Ending<T>, String> {
    // The root is at its first exec stop already (`PTRACE_TRACEME`
    // without options: a plain SIGTRAP).
    let start = read_start(root);
    tree.programs.insert(root, Arc::new(start.argv.clone()));
    if let Some(verdict) = judge(&start) {
        tree.end();
        return Ok(Ending::Stopped(Event::Start(start), verdict));
    }
    cont(root, 0);
    let mut status = 0;
    let mut root_end = None;
    // Cleared when no process is left to make a file call: the listener
    // then says so at every poll.
    let mut listening = true;
    // Whether a child may have news: at first, and after each SIGCHLD.
    let mut reap = true;
    loop {
        let pid = if reap {
            wait(&mut status, libc::WNOHANG)
        } else {
            0
        };
        if pid < 0 {
            // No tracee left.
            break;
        }
        if pid == 0 {
            reap = false;
            // Nothing to reap: wait for a file call or a child's news.
            let mut fds = [
                libc::pollfd {
                    // A negative descriptor is left out of the poll.
                    fd: if listening { files.listener() } else { -1 },
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: chld.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                },
            ];
            // SAFETY: an array of two pollfds.
            unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) };
            if fds[0].revents & libc::POLLIN != 0 {
                files.serve(&tree.programs);
                if let Some((touch, stop)) = files.take_stop() {
                    tree.end();
                    return Ok(Ending::Stopped(Event::Touch(touch), stop));
                }
            } else if fds[0].revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
                listening = false;
            }
            if fds[1].revents != 0 {
                let mut info = [0u8; 128];
                // SAFETY: a buffer of the size given; the read only empties
                // the signalfd (waitpid says what happened).
                while unsafe { libc::read(chld.as_raw_fd(), info.as_mut_ptr().cast(), 128) } > 0 {}
                reap = true;
            }
            continue;
        }
        if libc::WIFEXITED(status) || libc::WIFSIGNALED(status) {
            tree.known.remove(&pid);
            tree.programs.remove(&pid);
            if pid == root {
                root_end = Some(if libc::WIFEXITED(status) {
                    Ending::Exited(libc::WEXITSTATUS(status))
                } else {
                    Ending::Signaled(libc::WTERMSIG(status))
                });
                // The call is over when its program is: whatever it
                // left running would go on unseen by the caller.
                tree.kill_all();
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
            let mut start = read_start(pid);
            start.others = tree.known.iter().copied().filter(|&p| p != pid).collect();
            tree.programs.insert(pid, Arc::new(start.argv.clone()));
            if let Some(verdict) = judge(&start) {
                tree.end();
                return Ok(Ending::Stopped(Event::Start(start), verdict));
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
            if let Some(program) = tree.programs.get(&pid).cloned() {
                tree.programs.insert(new as i32, program);
            }
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
        Some(end) => Ok(end),
        None => Err("the supervised program ended before it started".to_owned()),
    }
}

/// The program start at `pid`'s exec stop.
///
/// Race-free: after `execve` the process is single-threaded (the kernel
/// ended its other threads), its new memory is shared with no other
/// process (a `vfork` parent shares the old image, not this one), and it
/// is stopped before its first instruction. Only a process that may
/// trace it or write its memory could change the arguments between this
/// reading and the program's: in the tree `ptrace` and `process_vm_writev`
/// are refused by the filter (the one tracer is this supervisor), and an
/// open of `/proc/PID/mem` for writing is refused by the supervisor.
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
        execfn: exec_file_name(pid),
        cwd: link("cwd"),
        others: Vec::new(),
    }
}

/// The file name `pid`'s `execve` was given: the string `AT_EXECFN` in its
/// auxiliary vector points to, on its new stack (read, like the arguments,
/// before its first instruction).
fn exec_file_name(pid: i32) -> Option<String> {
    const AT_EXECFN: u64 = 31;
    let auxv = std::fs::read(format!("/proc/{pid}/auxv")).ok()?;
    let address = auxv.chunks_exact(16).find_map(|pair| {
        let key = u64::from_ne_bytes(pair[..8].try_into().ok()?);
        let value = u64::from_ne_bytes(pair[8..].try_into().ok()?);
        (key == AT_EXECFN).then_some(value)
    })?;
    let mut buf = vec![0u8; libc::PATH_MAX as usize];
    // The name sits at the top of the stack: a read past its end stops
    // where the stack does, with what it read.
    let n = files::copy_memory(pid, address, &mut buf).ok()?;
    let end = buf[..n].iter().position(|&b| b == 0)?;
    Some(String::from_utf8_lossy(&buf[..end]).into_owned())
}
