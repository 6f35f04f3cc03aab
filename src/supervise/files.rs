//! The file system calls of a supervised tree, answered by the supervisor
//! (see the module documentation of [`super`]): each call the filter sends
//! here is read from the caller, resolved ([`walk`](super::walk)), judged,
//! and made by the supervisor on the object it resolved; the caller gets
//! the result (an open: the descriptor, put into it by the kernel).
//!
//! The calls are made with the supervisor's credentials, which are the
//! caller's: the tree cannot gain privileges (`no_new_privs`), and under a
//! supervisor that runs as root it cannot change its user. A file made here
//! takes the caller's umask (the supervisor's is 0 while it supervises).

use std::collections::HashMap;
use std::ffi::CString;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::Arc;

use super::walk::{self, Errno, Found, Place, Resolver};
use super::{Access, Touch};

/// The answer to one call.
enum Reply {
    Value(i64),
    Error(Errno),
    /// An open: this descriptor goes into the caller.
    Fd {
        fd: OwnedFd,
        cloexec: bool,
    },
    /// An open that may wait (a FIFO, a terminal): made on a thread of its
    /// own, so the others go on.
    Later(Box<dyn FnOnce() -> Reply + Send>),
    /// The caller is gone, or was told already.
    Gone,
}

impl From<Errno> for Reply {
    fn from(e: Errno) -> Reply {
        Reply::Error(e)
    }
}

type Answer = Result<Reply, Reply>;

fn last_errno() -> Errno {
    std::io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EIO)
}

/// The result of a system call made here: its value or its errno.
fn made(r: libc::c_long) -> Answer {
    if r < 0 {
        Err(Reply::Error(last_errno()))
    } else {
        Ok(Reply::Value(r))
    }
}

fn proc_fd(found: &Found) -> CString {
    CString::new(format!("/proc/self/fd/{}", found.fd.as_raw_fd())).expect("no NUL")
}

impl Access {
    fn and_write(self) -> Access {
        match self {
            Access::Read => Access::Both,
            other => other,
        }
    }
}

/// The next call waiting at the listener, if any.
fn receive(listener: &OwnedFd) -> Option<libc::seccomp_notif> {
    loop {
        // The receive blocks: ask first whether a call waits (a call
        // withdrawn since the last poll must not leave it waiting).
        let mut fd = libc::pollfd {
            fd: listener.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one pollfd.
        if unsafe { libc::poll(&mut fd, 1, 0) } != 1 || fd.revents & libc::POLLIN == 0 {
            return None;
        }
        // SAFETY: a zeroed plain struct, filled by the kernel.
        let mut notif: libc::seccomp_notif = unsafe { std::mem::zeroed() };
        // SAFETY: a valid pointer to a seccomp_notif.
        let r = unsafe {
            libc::ioctl(
                listener.as_raw_fd(),
                libc::SECCOMP_IOCTL_NOTIF_RECV,
                &mut notif as *mut libc::seccomp_notif,
            )
        };
        if r == 0 {
            return Some(notif);
        }
        match last_errno() {
            // The caller went away meanwhile.
            libc::EINTR | libc::ENOENT => continue,
            _ => return None,
        }
    }
}

fn respond(listener: &OwnedFd, id: u64, reply: Reply) {
    let (val, error) = match reply {
        Reply::Gone | Reply::Later(_) => return,
        Reply::Value(v) => (v, 0),
        Reply::Error(e) => (0, -e),
        Reply::Fd { fd, cloexec } => {
            let add = libc::seccomp_notif_addfd {
                id,
                flags: libc::SECCOMP_ADDFD_FLAG_SEND as u32,
                srcfd: fd.as_raw_fd() as u32,
                newfd: 0,
                newfd_flags: if cloexec { libc::O_CLOEXEC as u32 } else { 0 },
            };
            // SAFETY: a valid pointer to a seccomp_notif_addfd.
            let r = unsafe {
                libc::ioctl(
                    listener.as_raw_fd(),
                    libc::SECCOMP_IOCTL_NOTIF_ADDFD,
                    &add as *const libc::seccomp_notif_addfd,
                )
            };
            if r >= 0 {
                return;
            }
            match last_errno() {
                // The caller is gone.
                libc::ENOENT => return,
                // Its descriptor table is full, or the like: tell it.
                e => (0, -e),
            }
        }
    };
    let resp = libc::seccomp_notif_resp {
        id,
        val,
        error,
        flags: 0,
    };
    // SAFETY: a valid pointer to a seccomp_notif_resp. An error (the caller
    // is gone) needs no handling.
    unsafe {
        libc::ioctl(
            listener.as_raw_fd(),
            libc::SECCOMP_IOCTL_NOTIF_SEND,
            &resp as *const libc::seccomp_notif_resp,
        )
    };
}

/// The file calls of the tree, answered.
pub(super) struct Files<'a, T> {
    listener: OwnedFd,
    resolver: Resolver,
    judge: &'a dyn Fn(&Touch) -> Option<T>,
    /// What the judge stopped: every later call is refused.
    stopped: Option<(Touch, T)>,
}

/// One call being answered: who made it, and its arguments.
struct Call {
    id: u64,
    tid: i32,
    args: [u64; 6],
    program: Option<Arc<Vec<String>>>,
}

impl Call {
    fn int(&self, i: usize) -> i32 {
        self.args[i] as i32
    }
}

impl<'a, T> Files<'a, T> {
    pub fn new(listener: OwnedFd, judge: &'a dyn Fn(&Touch) -> Option<T>) -> Result<Self, String> {
        // The caller is woken on this CPU when its call is answered, and
        // the supervisor on the caller's when a call arrives (Linux 6.6;
        // older kernels refuse the flag and wake the usual way).
        // SAFETY: a plain ioctl on our listener.
        unsafe {
            libc::ioctl(
                listener.as_raw_fd(),
                libc::SECCOMP_IOCTL_NOTIF_SET_FLAGS,
                1u64,
            )
        };
        Ok(Files {
            listener,
            resolver: Resolver::new()?,
            judge,
            stopped: None,
        })
    }

    pub fn listener(&self) -> RawFd {
        self.listener.as_raw_fd()
    }

    /// What the judge stopped, once.
    pub fn take_stop(&mut self) -> Option<(Touch, T)> {
        self.stopped.take()
    }

    /// Answer every call that waits; `programs` names each thread's
    /// program for the judge.
    pub fn serve(&mut self, programs: &HashMap<i32, Arc<Vec<String>>>) {
        while let Some(n) = receive(&self.listener) {
            let call = Call {
                id: n.id,
                tid: n.pid as i32,
                args: n.data.args,
                program: programs.get(&(n.pid as i32)).cloned(),
            };
            let reply = if self.stopped.is_some() {
                Reply::Error(libc::EACCES)
            } else {
                self.answer(&call, n.data.nr as libc::c_long)
                    .unwrap_or_else(|r| r)
            };
            match reply {
                Reply::Later(work) => {
                    let Ok(listener) = self.listener.try_clone() else {
                        respond(&self.listener, call.id, Reply::Error(libc::EMFILE));
                        continue;
                    };
                    let id = call.id;
                    std::thread::spawn(move || respond(&listener, id, work()));
                }
                reply => respond(&self.listener, call.id, reply),
            }
        }
    }

    /// Whether the caller is still in the call this answers: checked after
    /// its memory was read (its process ID may have been reused since).
    fn valid(&self, call: &Call) -> Result<(), Reply> {
        let id = call.id;
        // SAFETY: a valid pointer to the id.
        let r = unsafe {
            libc::ioctl(
                self.listener.as_raw_fd(),
                libc::SECCOMP_IOCTL_NOTIF_ID_VALID,
                &id as *const u64,
            )
        };
        if r == 0 { Ok(()) } else { Err(Reply::Gone) }
    }

    /// `len` bytes of the caller's memory at `addr`.
    fn bytes(&self, call: &Call, addr: u64, len: usize) -> Result<Vec<u8>, Reply> {
        let mut buf = vec![0u8; len];
        if len > 0 && read_memory(call.tid, addr, &mut buf)? != len {
            return Err(Reply::Error(libc::EFAULT));
        }
        self.valid(call)?;
        Ok(buf)
    }

    /// The NUL-terminated string at `addr` in the caller's memory (at most
    /// `PATH_MAX` bytes with its NUL, as the kernel reads a path).
    fn string(&self, call: &Call, addr: u64) -> Result<Vec<u8>, Reply> {
        const CHUNK: u64 = 4096;
        if addr == 0 {
            return Err(Reply::Error(libc::EFAULT));
        }
        let max = libc::PATH_MAX as usize;
        let mut out = Vec::new();
        let mut at = addr;
        let mut buf = [0u8; CHUNK as usize];
        loop {
            // Never across a page boundary: the next page may be unmapped.
            let want = ((CHUNK - at % CHUNK) as usize).min(max - out.len());
            let n = read_memory(call.tid, at, &mut buf[..want])?;
            if n == 0 {
                return Err(Reply::Error(libc::EFAULT));
            }
            if let Some(end) = buf[..n].iter().position(|&b| b == 0) {
                out.extend_from_slice(&buf[..end]);
                self.valid(call)?;
                return Ok(out);
            }
            out.extend_from_slice(&buf[..n]);
            if out.len() >= max {
                return Err(Reply::Error(libc::ENAMETOOLONG));
            }
            at += n as u64;
        }
    }

    /// Ask the judge; a stop is kept for the supervisor, which then kills
    /// the tree, the caller still waiting in its call.
    fn judge(
        &mut self,
        call: &Call,
        path: String,
        access: Access,
        tree: bool,
        name: &'static str,
    ) -> Result<(), Reply> {
        if access != Access::Read && protects_supervision(&path) {
            return Err(Reply::Error(libc::EACCES));
        }
        let touch = Touch {
            pid: call.tid,
            program: call.program.clone(),
            path,
            access,
            tree,
            call: name,
        };
        let Some(stop) = (self.judge)(&touch) else {
            return Ok(());
        };
        self.stopped = Some((touch, stop));
        // No answer: the caller waits until the supervisor kills the tree,
        // and so never reports a failed call of its own.
        Err(Reply::Gone)
    }

    fn answer(&mut self, call: &Call, nr: libc::c_long) -> Answer {
        let a = call.args;
        let fd = libc::AT_FDCWD;
        match nr {
            libc::SYS_openat => self.open(call, call.int(0), a[1], call.int(2), a[3] as u32),
            #[cfg(target_arch = "x86_64")]
            libc::SYS_open => self.open(call, fd, a[0], call.int(1), a[2] as u32),
            #[cfg(target_arch = "x86_64")]
            libc::SYS_creat => {
                let flags = libc::O_CREAT | libc::O_WRONLY | libc::O_TRUNC;
                self.open(call, fd, a[0], flags, a[1] as u32)
            }
            libc::SYS_unlinkat => self.unlink(call, call.int(0), a[1], call.int(2)),
            #[cfg(target_arch = "x86_64")]
            libc::SYS_unlink => self.unlink(call, fd, a[0], 0),
            #[cfg(target_arch = "x86_64")]
            libc::SYS_rmdir => self.unlink(call, fd, a[0], libc::AT_REMOVEDIR),
            libc::SYS_renameat2 => {
                self.rename(call, call.int(0), a[1], call.int(2), a[3], a[4] as u32)
            }
            super::filter::SYS_RENAMEAT => {
                self.rename(call, call.int(0), a[1], call.int(2), a[3], 0)
            }
            #[cfg(target_arch = "x86_64")]
            libc::SYS_rename => self.rename(call, fd, a[0], fd, a[1], 0),
            libc::SYS_linkat => self.link(call, call.int(0), a[1], call.int(2), a[3], call.int(4)),
            #[cfg(target_arch = "x86_64")]
            libc::SYS_link => self.link(call, fd, a[0], fd, a[1], 0),
            libc::SYS_symlinkat => self.symlink(call, a[0], call.int(1), a[2]),
            #[cfg(target_arch = "x86_64")]
            libc::SYS_symlink => self.symlink(call, a[0], fd, a[1]),
            libc::SYS_mkdirat => self.make(call, call.int(0), a[1], libc::S_IFDIR | a[2] as u32, 0),
            #[cfg(target_arch = "x86_64")]
            libc::SYS_mkdir => self.make(call, fd, a[0], libc::S_IFDIR | a[1] as u32, 0),
            libc::SYS_mknodat => self.make(call, call.int(0), a[1], a[2] as u32, a[3]),
            libc::SYS_bind => self.bind(call, call.int(0), a[1], a[2]),
            #[cfg(target_arch = "x86_64")]
            libc::SYS_mknod => self.make(call, fd, a[0], a[1] as u32, a[2]),
            libc::SYS_truncate => {
                let found = self.found(call, fd, a[0], true)?;
                self.judge(call, found.path.clone(), Access::Write, false, "truncate")?;
                // SAFETY: a valid C string.
                made(unsafe { libc::truncate(proc_fd(&found).as_ptr(), a[1] as i64) } as _)
            }
            libc::SYS_fchmodat => {
                self.chmod(call, self.found(call, call.int(0), a[1], true)?, a[2])
            }
            #[cfg(target_arch = "x86_64")]
            libc::SYS_chmod => self.chmod(call, self.found(call, fd, a[0], true)?, a[1]),
            libc::SYS_fchmod => self.chmod(call, self.held(call, call.int(0))?, a[1]),
            libc::SYS_fchownat => {
                let flags = call.int(4);
                let found = self.reached(call, call.int(0), a[1], flags)?;
                self.chown(call, found, a[2], a[3])
            }
            #[cfg(target_arch = "x86_64")]
            libc::SYS_chown => self.chown(call, self.found(call, fd, a[0], true)?, a[1], a[2]),
            #[cfg(target_arch = "x86_64")]
            libc::SYS_lchown => self.chown(call, self.found(call, fd, a[0], false)?, a[1], a[2]),
            libc::SYS_fchown => self.chown(call, self.held(call, call.int(0))?, a[1], a[2]),
            libc::SYS_utimensat => {
                let flags = call.int(3);
                let found = if a[1] == 0 {
                    self.held(call, call.int(0))?
                } else {
                    self.reached(call, call.int(0), a[1], flags)?
                };
                let times = self.timespecs(call, a[2], 16, |b| (i64_at(b, 0), i64_at(b, 8)))?;
                self.utimes(call, found, times)
            }
            #[cfg(target_arch = "x86_64")]
            libc::SYS_utimes => {
                let found = self.found(call, fd, a[0], true)?;
                let times =
                    self.timespecs(call, a[1], 16, |b| (i64_at(b, 0), i64_at(b, 8) * 1000))?;
                self.utimes(call, found, times)
            }
            #[cfg(target_arch = "x86_64")]
            libc::SYS_futimesat => {
                let found = self.found(call, call.int(0), a[1], true)?;
                let times =
                    self.timespecs(call, a[2], 16, |b| (i64_at(b, 0), i64_at(b, 8) * 1000))?;
                self.utimes(call, found, times)
            }
            #[cfg(target_arch = "x86_64")]
            libc::SYS_utime => {
                let found = self.found(call, fd, a[0], true)?;
                let times = self.timespecs(call, a[1], 8, |b| (i64_at(b, 0), 0))?;
                self.utimes(call, found, times)
            }
            libc::SYS_setxattr => self.set_xattr(call, self.found(call, fd, a[0], true)?, a),
            libc::SYS_lsetxattr => self.set_xattr(call, self.found(call, fd, a[0], false)?, a),
            libc::SYS_fsetxattr => self.set_xattr(call, self.held(call, call.int(0))?, a),
            libc::SYS_removexattr => {
                self.remove_xattr(call, self.found(call, fd, a[0], true)?, a[1])
            }
            libc::SYS_lremovexattr => {
                self.remove_xattr(call, self.found(call, fd, a[0], false)?, a[1])
            }
            libc::SYS_fremovexattr => self.remove_xattr(call, self.held(call, call.int(0))?, a[1]),
            // The filter sends nothing else; whatever it is, it does not run.
            _ => Err(Reply::Error(libc::ENOSYS)),
        }
    }

    /// The object the path at `addr` names for the caller.
    fn found(&self, call: &Call, dirfd: i32, addr: u64, follow: bool) -> Result<Found, Reply> {
        let path = self.string(call, addr)?;
        Ok(self.resolver.locate(call.tid, dirfd, &path, follow)?)
    }

    /// The caller's descriptor `fd` as an object.
    fn held(&self, call: &Call, fd: i32) -> Result<Found, Reply> {
        let handle = self.resolver.descriptor(call.tid, fd)?;
        let path = walk::real_path(&handle)?;
        Ok(Found { fd: handle, path })
    }

    /// The object of a call that takes `AT_EMPTY_PATH` and
    /// `AT_SYMLINK_NOFOLLOW` in `flags`.
    fn reached(&self, call: &Call, dirfd: i32, addr: u64, flags: i32) -> Result<Found, Reply> {
        let path = self.string(call, addr)?;
        if path.is_empty() && flags & libc::AT_EMPTY_PATH != 0 {
            return self.held(call, dirfd);
        }
        let follow = flags & libc::AT_SYMLINK_NOFOLLOW == 0;
        Ok(self.resolver.locate(call.tid, dirfd, &path, follow)?)
    }

    /// Where the path at `addr` makes or removes a name, and whether it
    /// ended in `/`.
    fn place(&self, call: &Call, dirfd: i32, addr: u64) -> Result<(Place, bool), Reply> {
        let path = self.string(call, addr)?;
        let place = self.resolver.place(call.tid, dirfd, &path)?;
        Ok((place, path.len() > 1 && path.ends_with(b"/")))
    }

    fn open(&mut self, call: &Call, dirfd: i32, addr: u64, flags: i32, mode: u32) -> Answer {
        // `openat` ignores bits it does not know; `openat2`, which the
        // supervisor uses, refuses them.
        let flags = flags & OPEN_FLAGS;
        let path = self.string(call, addr)?;
        let cloexec = flags & libc::O_CLOEXEC != 0;
        // The mode of a file made here, the caller's umask applied.
        let mode = || mode & 0o7777 & !umask(call.tid);
        if flags & libc::O_TMPFILE == libc::O_TMPFILE {
            // A file without a name, in a folder: nothing to judge until it
            // is given one (`linkat`, judged).
            let dir = self.resolver.locate(call.tid, dirfd, &path, true)?;
            let fd = walk::reopen(&dir.fd, flags, mode())?;
            return Ok(Reply::Fd { fd, cloexec });
        }
        let create = flags & libc::O_CREAT != 0;
        let exclusive = create && flags & libc::O_EXCL != 0;
        let follow = flags & libc::O_NOFOLLOW == 0 && !exclusive;
        let mut access = match flags & libc::O_ACCMODE {
            libc::O_RDONLY => Access::Read,
            libc::O_WRONLY => Access::Write,
            _ => Access::Both,
        };
        if flags & libc::O_TRUNC != 0 {
            access = access.and_write();
        }
        let mut base = self.resolver.base(call.tid, dirfd, &path)?;
        let mut path = path;
        for _ in 0..40 {
            match self.resolver.locate_from(call.tid, &base, &path, follow) {
                Ok(found) => {
                    if exclusive {
                        return Err(Reply::Error(libc::EEXIST));
                    }
                    let kind = walk::kind(&found.fd)?;
                    if kind == libc::S_IFLNK {
                        // `O_NOFOLLOW` on a link.
                        return Err(Reply::Error(libc::ELOOP));
                    }
                    self.judge(call, found.path.clone(), access, false, "open")?;
                    let flags = flags & !(libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW);
                    let waits = may_wait(kind, &found.fd);
                    let reopen = move || match walk::reopen(&found.fd, flags, 0) {
                        Ok(fd) => Reply::Fd { fd, cloexec },
                        Err(e) => Reply::Error(e),
                    };
                    if waits {
                        return Ok(Reply::Later(Box::new(reopen)));
                    }
                    return Ok(reopen());
                }
                Err(libc::ENOENT) if create => {
                    if path.len() > 1 && path.ends_with(b"/") {
                        return Err(Reply::Error(libc::EISDIR));
                    }
                    let place = self.resolver.place_from(call.tid, &base, &path)?;
                    self.judge(call, place.path(), access.and_write(), false, "open")?;
                    let made = walk::open_at(
                        place.dir.fd.as_raw_fd(),
                        &place.name,
                        flags | libc::O_NOFOLLOW | libc::O_NOCTTY,
                        mode(),
                    );
                    match made {
                        Ok(fd) => return Ok(Reply::Fd { fd, cloexec }),
                        // A link in the last place whose target does not
                        // exist: the file is made where it points.
                        Err(libc::ELOOP) if !exclusive => {
                            let text = readlink(&place)?;
                            base = place.dir.fd;
                            path = text;
                        }
                        Err(e) => return Err(Reply::Error(e)),
                    }
                }
                Err(e) => return Err(Reply::Error(e)),
            }
        }
        Err(Reply::Error(libc::ELOOP))
    }

    fn unlink(&mut self, call: &Call, dirfd: i32, addr: u64, flags: i32) -> Answer {
        let (place, slash) = self.place(call, dirfd, addr)?;
        let folder = flags & libc::AT_REMOVEDIR != 0;
        if slash && !folder {
            let is_dir = stat_at(&place).is_ok_and(|st| st.st_mode & libc::S_IFMT == libc::S_IFDIR);
            return Err(Reply::Error(if is_dir {
                libc::EISDIR
            } else {
                libc::ENOTDIR
            }));
        }
        let name = if folder { "rmdir" } else { "unlink" };
        self.judge(call, place.path(), Access::Write, false, name)?;
        // SAFETY: a valid C string and our descriptor.
        made(unsafe { libc::unlinkat(place.dir.fd.as_raw_fd(), place.name.as_ptr(), flags) } as _)
    }

    fn rename(
        &mut self,
        call: &Call,
        from_dir: i32,
        from: u64,
        to_dir: i32,
        to: u64,
        flags: u32,
    ) -> Answer {
        let (source, _) = self.place(call, from_dir, from)?;
        let (target, _) = self.place(call, to_dir, to)?;
        let is_dir = |p: &Place| stat_at(p).map(|st| st.st_mode & libc::S_IFMT == libc::S_IFDIR);
        let moves_folder = is_dir(&source)?;
        let exchange = flags & libc::RENAME_EXCHANGE != 0;
        self.judge(call, source.path(), Access::Both, moves_folder, "rename")?;
        let (access, tree) = if exchange {
            (Access::Both, is_dir(&target).unwrap_or(false))
        } else {
            (Access::Write, false)
        };
        self.judge(call, target.path(), access, tree, "rename")?;
        // SAFETY: valid C strings and our descriptors.
        made(unsafe {
            libc::syscall(
                libc::SYS_renameat2,
                source.dir.fd.as_raw_fd(),
                source.name.as_ptr(),
                target.dir.fd.as_raw_fd(),
                target.name.as_ptr(),
                flags,
            )
        })
    }

    fn link(
        &mut self,
        call: &Call,
        from_dir: i32,
        from: u64,
        to_dir: i32,
        to: u64,
        flags: i32,
    ) -> Answer {
        let path = self.string(call, from)?;
        let source = if path.is_empty() && flags & libc::AT_EMPTY_PATH != 0 {
            self.held(call, from_dir)?
        } else {
            let follow = flags & libc::AT_SYMLINK_FOLLOW != 0;
            self.resolver.locate(call.tid, from_dir, &path, follow)?
        };
        let (target, _) = self.place(call, to_dir, to)?;
        // A second name for a file reads and writes it under that name.
        self.judge(call, source.path.clone(), Access::Both, false, "link")?;
        self.judge(call, target.path(), Access::Write, false, "link")?;
        // SAFETY: valid C strings and our descriptors.
        made(unsafe {
            libc::linkat(
                libc::AT_FDCWD,
                proc_fd(&source).as_ptr(),
                target.dir.fd.as_raw_fd(),
                target.name.as_ptr(),
                libc::AT_SYMLINK_FOLLOW,
            )
        } as _)
    }

    fn symlink(&mut self, call: &Call, text: u64, dir: i32, at: u64) -> Answer {
        // What a link says is read again wherever it is followed: only the
        // name it is made under is judged.
        let text =
            CString::new(self.string(call, text)?).map_err(|_| Reply::Error(libc::EINVAL))?;
        let (place, _) = self.place(call, dir, at)?;
        self.judge(call, place.path(), Access::Write, false, "symlink")?;
        // SAFETY: valid C strings and our descriptor.
        made(unsafe {
            libc::symlinkat(text.as_ptr(), place.dir.fd.as_raw_fd(), place.name.as_ptr())
        } as _)
    }

    /// `mkdir` and `mknod`.
    fn make(&mut self, call: &Call, dir: i32, at: u64, mode: u32, dev: u64) -> Answer {
        let (place, _) = self.place(call, dir, at)?;
        let folder = mode & libc::S_IFMT == libc::S_IFDIR;
        self.judge(
            call,
            place.path(),
            Access::Write,
            false,
            if folder { "mkdir" } else { "mknod" },
        )?;
        let perms = mode & 0o7777 & !umask(call.tid);
        let fd = place.dir.fd.as_raw_fd();
        // SAFETY: a valid C string and our descriptor.
        made(unsafe {
            if folder {
                libc::mkdirat(fd, place.name.as_ptr(), perms)
            } else {
                libc::mknodat(fd, place.name.as_ptr(), (mode & libc::S_IFMT) | perms, dev)
            }
        } as _)
    }

    /// `bind`: a unix socket bound to a path makes a file there, judged as
    /// any file made. The supervisor binds the caller's own socket (taken
    /// with `pidfd_getfd`) itself, in the folder it judged ([`bind_in`]),
    /// so the address is read once; any other address makes no file and
    /// is bound as given.
    fn bind(&mut self, call: &Call, sock: i32, addr: u64, len: u64) -> Answer {
        // The kernel takes at most a `sockaddr_storage`.
        let len = usize::try_from(len)
            .ok()
            .filter(|&l| l <= std::mem::size_of::<libc::sockaddr_storage>())
            .ok_or(Reply::Error(libc::EINVAL))?;
        let bytes = self.bytes(call, addr, len)?;
        let socket = descriptor_of(call.tid, sock)?;
        let family = bytes.get(..2).map(|f| u16::from_ne_bytes([f[0], f[1]]));
        let path = bytes.get(2..).unwrap_or_default();
        let path = &path[..path.iter().position(|&b| b == 0).unwrap_or(path.len())];
        if family != Some(libc::AF_UNIX as u16) || path.is_empty() {
            // An abstract name, or not a unix socket.
            // SAFETY: our descriptor and `len` bytes of address.
            return made(unsafe {
                libc::bind(socket.as_raw_fd(), bytes.as_ptr().cast(), len as libc::socklen_t)
            } as _);
        }
        let place = self.resolver.place(call.tid, libc::AT_FDCWD, path)?;
        self.judge(call, place.path(), Access::Write, false, "bind")?;
        bind_in(socket, place).map_or_else(|e| Err(Reply::Error(e)), |()| Ok(Reply::Value(0)))
    }

    fn chmod(&mut self, call: &Call, found: Found, mode: u64) -> Answer {
        self.judge(call, found.path.clone(), Access::Write, false, "chmod")?;
        // SAFETY: a valid C string.
        made(unsafe { libc::chmod(proc_fd(&found).as_ptr(), mode as libc::mode_t) } as _)
    }

    fn chown(&mut self, call: &Call, found: Found, uid: u64, gid: u64) -> Answer {
        self.judge(call, found.path.clone(), Access::Write, false, "chown")?;
        // SAFETY: our descriptor and an empty C string.
        made(unsafe {
            libc::fchownat(
                found.fd.as_raw_fd(),
                c"".as_ptr(),
                uid as libc::uid_t,
                gid as libc::gid_t,
                libc::AT_EMPTY_PATH,
            )
        } as _)
    }

    /// Two times at `addr` (NULL: now), each `size` bytes, read by `each`
    /// into seconds and nanoseconds.
    fn timespecs(
        &self,
        call: &Call,
        addr: u64,
        size: usize,
        each: impl Fn(&[u8]) -> (i64, i64),
    ) -> Result<Option<[libc::timespec; 2]>, Reply> {
        if addr == 0 {
            return Ok(None);
        }
        let b = self.bytes(call, addr, 2 * size)?;
        let t = |part: &[u8]| {
            let (tv_sec, tv_nsec) = each(part);
            libc::timespec { tv_sec, tv_nsec }
        };
        Ok(Some([t(&b[..size]), t(&b[size..])]))
    }

    fn utimes(&mut self, call: &Call, found: Found, times: Option<[libc::timespec; 2]>) -> Answer {
        self.judge(call, found.path.clone(), Access::Write, false, "utimes")?;
        let times = times.as_ref().map_or(std::ptr::null(), |t| t.as_ptr());
        // SAFETY: our descriptor, an empty C string and two timespecs or NULL.
        made(unsafe {
            libc::utimensat(
                found.fd.as_raw_fd(),
                c"".as_ptr(),
                times,
                libc::AT_EMPTY_PATH,
            )
        } as _)
    }

    fn xattr_name(&self, call: &Call, addr: u64) -> Result<CString, Reply> {
        let name = self.string(call, addr)?;
        if name.len() > 255 {
            return Err(Reply::Error(libc::ERANGE));
        }
        CString::new(name).map_err(|_| Reply::Error(libc::EINVAL))
    }

    /// `setxattr` and its forms: arguments name, value, size, flags.
    fn set_xattr(&mut self, call: &Call, found: Found, a: [u64; 6]) -> Answer {
        let name = self.xattr_name(call, a[1])?;
        let size = a[3] as usize;
        if size > 65536 {
            return Err(Reply::Error(libc::E2BIG));
        }
        let value = self.bytes(call, a[2], size)?;
        self.judge(call, found.path.clone(), Access::Write, false, "setxattr")?;
        if walk::kind(&found.fd)? == libc::S_IFLNK {
            return Err(Reply::Error(libc::EPERM));
        }
        // SAFETY: valid C strings and a buffer of the size given.
        made(unsafe {
            libc::setxattr(
                proc_fd(&found).as_ptr(),
                name.as_ptr(),
                value.as_ptr().cast(),
                size,
                a[4] as i32,
            )
        } as _)
    }

    fn remove_xattr(&mut self, call: &Call, found: Found, name: u64) -> Answer {
        let name = self.xattr_name(call, name)?;
        self.judge(
            call,
            found.path.clone(),
            Access::Write,
            false,
            "removexattr",
        )?;
        if walk::kind(&found.fd)? == libc::S_IFLNK {
            return Err(Reply::Error(libc::EPERM));
        }
        // SAFETY: valid C strings.
        made(unsafe { libc::removexattr(proc_fd(&found).as_ptr(), name.as_ptr()) } as _)
    }
}

/// The open flags Linux knows.
const OPEN_FLAGS: i32 = libc::O_ACCMODE
    | libc::O_APPEND
    | libc::O_ASYNC
    | libc::O_CLOEXEC
    | libc::O_CREAT
    | libc::O_DIRECT
    | libc::O_DIRECTORY
    | libc::O_DSYNC
    | libc::O_EXCL
    | libc::O_LARGEFILE
    | libc::O_NOATIME
    | libc::O_NOCTTY
    | libc::O_NOFOLLOW
    | libc::O_NONBLOCK
    | libc::O_PATH
    | libc::O_SYNC
    | libc::O_TMPFILE
    | libc::O_TRUNC;

fn i64_at(b: &[u8], at: usize) -> i64 {
    i64::from_le_bytes(b[at..at + 8].try_into().expect("eight bytes"))
}

/// Copy `buf.len()` bytes of `tid`'s memory at `addr`: how many arrived.
fn read_memory(tid: i32, addr: u64, buf: &mut [u8]) -> Result<usize, Reply> {
    copy_memory(tid, addr, buf).map_err(|e| match e.raw_os_error() {
        Some(libc::ESRCH) => Reply::Gone,
        _ => Reply::Error(libc::EFAULT),
    })
}

/// Copy up to `buf.len()` bytes of `tid`'s memory at `addr` (a read that
/// reaches the end of a mapping stops there): how many arrived.
pub(super) fn copy_memory(tid: i32, addr: u64, buf: &mut [u8]) -> std::io::Result<usize> {
    let local = libc::iovec {
        iov_base: buf.as_mut_ptr().cast(),
        iov_len: buf.len(),
    };
    let remote = libc::iovec {
        iov_base: addr as *mut libc::c_void,
        iov_len: buf.len(),
    };
    // SAFETY: one local buffer of the length given; the remote side is
    // read by the kernel from the other process.
    let n = unsafe { libc::process_vm_readv(tid, &local, 1, &remote, 1, 0) };
    if n < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(n as usize)
}

/// The file mode bits `tid` leaves out of what it makes.
fn umask(tid: i32) -> u32 {
    std::fs::read_to_string(format!("/proc/{tid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Umask:"))
                .and_then(|v| u32::from_str_radix(v.trim(), 8).ok())
        })
        // Unknown: as strict as a umask gets.
        .unwrap_or(0o077)
}

fn stat_at(place: &Place) -> Result<libc::stat, Errno> {
    // SAFETY: a zeroed plain struct filled by the kernel.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: a valid C string and a stat buffer.
    let r = unsafe {
        libc::fstatat(
            place.dir.fd.as_raw_fd(),
            place.name.as_ptr(),
            &mut st,
            libc::AT_SYMLINK_NOFOLLOW,
        )
    };
    if r != 0 {
        return Err(last_errno());
    }
    Ok(st)
}

fn readlink(place: &Place) -> Result<Vec<u8>, Errno> {
    let mut buf = vec![0u8; libc::PATH_MAX as usize];
    // SAFETY: a buffer of the length given.
    let n = unsafe {
        libc::readlinkat(
            place.dir.fd.as_raw_fd(),
            place.name.as_ptr(),
            buf.as_mut_ptr().cast(),
            buf.len(),
        )
    };
    if n < 0 {
        return Err(last_errno());
    }
    buf.truncate(n as usize);
    Ok(buf)
}

/// Bind `socket` to `place`'s name in its folder, which stays the folder
/// judged: on a thread of its own with a working folder of its own
/// (`unshare(CLONE_FS)`), moved there by its descriptor, so that only the
/// last name is looked up again. The socket's own name is that last name
/// (what `getsockname` reports), as if the caller had bound it from there.
fn bind_in(socket: OwnedFd, place: Place) -> Result<(), Errno> {
    // SAFETY: a zeroed plain struct.
    let mut un: libc::sockaddr_un = unsafe { std::mem::zeroed() };
    un.sun_family = libc::AF_UNIX as libc::sa_family_t;
    let name = place.name.as_bytes();
    if name.len() >= un.sun_path.len() {
        return Err(libc::ENAMETOOLONG);
    }
    for (to, from) in un.sun_path.iter_mut().zip(name) {
        *to = *from as libc::c_char;
    }
    let dir = place.dir.fd;
    std::thread::spawn(move || {
        // SAFETY: this thread's own file system context, our descriptors
        // and a whole `sockaddr_un`.
        unsafe {
            if libc::unshare(libc::CLONE_FS) != 0 || libc::fchdir(dir.as_raw_fd()) != 0 {
                return Err(last_errno());
            }
            let size = std::mem::size_of::<libc::sockaddr_un>() as libc::socklen_t;
            if libc::bind(socket.as_raw_fd(), std::ptr::from_ref(&un).cast(), size) != 0 {
                return Err(last_errno());
            }
        }
        Ok(())
    })
    .join()
    .unwrap_or(Err(libc::EIO))
}

/// The caller's descriptor `fd` itself (not a new open of what it names),
/// as `pidfd_getfd` hands it over: from the thread (`PIDFD_THREAD`, Linux
/// 6.9), or else from its process.
fn descriptor_of(tid: i32, fd: i32) -> Result<OwnedFd, Reply> {
    const PIDFD_THREAD: libc::c_long = libc::O_EXCL as libc::c_long;
    // SAFETY: plain system calls on numbers.
    let mut pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, tid, PIDFD_THREAD) };
    if pidfd < 0 {
        let status = std::fs::read_to_string(format!("/proc/{tid}/status")).unwrap_or_default();
        let tgid: i32 = status
            .lines()
            .find_map(|l| l.strip_prefix("Tgid:"))
            .and_then(|t| t.trim().parse().ok())
            .ok_or(Reply::Error(libc::ESRCH))?;
        // SAFETY: as above.
        pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, tgid, 0) };
    }
    if pidfd < 0 {
        return Err(Reply::Error(last_errno()));
    }
    // SAFETY: a descriptor the kernel just made, ours alone.
    let pidfd = unsafe { OwnedFd::from_raw_fd(pidfd as i32) };
    // SAFETY: our pidfd and the caller's descriptor number.
    let got = unsafe { libc::syscall(libc::SYS_pidfd_getfd, pidfd.as_raw_fd(), fd, 0) };
    if got < 0 {
        return Err(Reply::Error(last_errno()));
    }
    // SAFETY: as above.
    Ok(unsafe { OwnedFd::from_raw_fd(got as i32) })
}

/// Whether opening this object may wait (a FIFO without its other end, a
/// terminal or device other than the memory devices: `/dev/null`, `zero`,
/// `random`).
fn may_wait(kind: u32, fd: &OwnedFd) -> bool {
    match kind {
        libc::S_IFIFO => true,
        libc::S_IFCHR => {
            // SAFETY: a zeroed plain struct filled by the kernel.
            let mut st: libc::stat = unsafe { std::mem::zeroed() };
            // SAFETY: our descriptor and a stat buffer.
            if unsafe { libc::fstat(fd.as_raw_fd(), &mut st) } != 0 {
                return true;
            }
            libc::major(st.st_rdev) != 1
        }
        _ => false,
    }
}

/// Writes that would reach the supervision itself: another process's
/// memory (`/proc/PID/mem`, which could change a program's arguments
/// after the judge read them), and the dynamic loader's own settings
/// (`/etc/ld.so.preload`, `/etc/ld.so.conf`, `/etc/ld.so.conf.d/`, the
/// cache built from them), which load code into every program after its
/// start was judged, as `LD_PRELOAD` would (only root can write them),
/// and the kernel's own settings (`/proc/sys`, `/sys`, root only again):
/// `kernel/core_pattern` and `kernel/modprobe` name programs the kernel
/// starts outside the tree, `fs/binfmt_misc` interpreters it starts for
/// a program.
fn protects_supervision(path: &str) -> bool {
    if path == "/etc/ld.so.preload"
        || path == "/etc/ld.so.cache"
        || path == "/etc/ld.so.conf"
        || path.starts_with("/etc/ld.so.conf.d/")
        || path.starts_with("/proc/sys/")
        || path == "/proc/sysrq-trigger"
        || path.starts_with("/sys/")
    {
        return true;
    }
    let Some(rest) = path.strip_prefix("/proc/") else {
        return false;
    };
    let parts: Vec<&str> = rest.split('/').collect();
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match parts.as_slice() {
        [pid, "mem"] => number(pid),
        [pid, "task", tid, "mem"] => number(pid) && number(tid),
        _ => false,
    }
}
