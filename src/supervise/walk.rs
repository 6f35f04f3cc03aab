//! Resolving a path as a supervised process would, from the supervisor: the
//! object it names, opened `O_PATH` (so that what is judged is what the
//! call is then made on), and that object's real path.
//!
//! The supervisor resolves in its own context, which differs from the
//! caller's in a few places, each handled here: a relative path starts at
//! the caller's working folder or descriptor (`/proc/TID/cwd`,
//! `/proc/TID/fd/N`), and `/proc/self` and `/proc/thread-self` (also behind
//! `/dev/fd`, `/dev/stdin`) name the caller, not the supervisor. A path
//! without such links is resolved in one `openat2` with magic links
//! refused; one with them is walked a component at a time. The supervisor's
//! own `/proc` entry is never reached (its descriptors include the
//! listener).

use std::ffi::{CStr, CString};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

/// An errno for the caller.
pub(super) type Errno = i32;

/// At most this many links on one path, as the kernel allows.
const MAX_LINKS: u32 = 40;
const PROC_SUPER_MAGIC: i64 = 0x9fa0;

/// What a path names: its `O_PATH` descriptor and its real path.
pub(super) struct Found {
    pub fd: OwnedFd,
    pub path: String,
}

/// The folder a name is made or removed in, and the name.
pub(super) struct Place {
    pub dir: Found,
    pub name: CString,
}

impl Place {
    /// The real path the name has (or will have).
    pub fn path(&self) -> String {
        let name = String::from_utf8_lossy(self.name.as_bytes());
        match (self.dir.path.as_str(), name.as_ref()) {
            (dir, ".") => dir.to_owned(),
            ("/", name) => format!("/{name}"),
            (dir, "..") => match dir.rsplit_once('/') {
                Some(("", _)) | None => "/".to_owned(),
                Some((up, _)) => up.to_owned(),
            },
            (dir, name) => format!("{dir}/{name}"),
        }
    }
}

pub(super) struct Resolver {
    /// The supervisor's process ID, whose `/proc` entry is never reached.
    me: i32,
    root: OwnedFd,
}

#[repr(C)]
struct OpenHow {
    flags: u64,
    mode: u64,
    resolve: u64,
}

fn last_errno() -> Errno {
    std::io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EIO)
}

fn c(text: &[u8]) -> Result<CString, Errno> {
    CString::new(text).map_err(|_| libc::EINVAL)
}

/// `openat` of `name` in `dir`, `O_CLOEXEC` added.
pub(super) fn open_at(dir: RawFd, name: &CStr, flags: i32, mode: u32) -> Result<OwnedFd, Errno> {
    // SAFETY: a valid C string; the descriptor returned is ours.
    let fd = unsafe { libc::openat(dir, name.as_ptr(), flags | libc::O_CLOEXEC, mode) };
    if fd < 0 {
        Err(last_errno())
    } else {
        // SAFETY: a descriptor just opened.
        Ok(unsafe { OwnedFd::from_raw_fd(fd) })
    }
}

/// Open a descriptor of ours again through `/proc/self/fd`, with `flags`:
/// the same object, whatever its name now leads to.
pub(super) fn reopen(fd: &OwnedFd, flags: i32, mode: u32) -> Result<OwnedFd, Errno> {
    let path = c(format!("/proc/self/fd/{}", fd.as_raw_fd()).as_bytes())?;
    open_at(libc::AT_FDCWD, &path, flags | libc::O_NOCTTY, mode)
}

/// The real path of one of our descriptors.
pub(super) fn real_path(fd: &OwnedFd) -> Result<String, Errno> {
    let mut link = [0u8; 48];
    let mut at = 0;
    for part in [
        &b"/proc/self/fd/"[..],
        fd.as_raw_fd().to_string().as_bytes(),
        b"\0",
    ] {
        link[at..at + part.len()].copy_from_slice(part);
        at += part.len();
    }
    let mut buf = [0u8; libc::PATH_MAX as usize];
    // SAFETY: a NUL-terminated path and a buffer of the length given.
    let n = unsafe { libc::readlink(link.as_ptr().cast(), buf.as_mut_ptr().cast(), buf.len()) };
    if n < 0 {
        return Err(last_errno());
    }
    Ok(String::from_utf8_lossy(&buf[..n as usize]).into_owned())
}

fn fstat(fd: RawFd) -> Result<libc::stat, Errno> {
    // SAFETY: a zeroed plain struct filled by the kernel.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a stat buffer.
    if unsafe { libc::fstat(fd, &mut st) } != 0 {
        return Err(last_errno());
    }
    Ok(st)
}

/// The kind of object a descriptor is (`S_IFREG`, `S_IFLNK`, …).
pub(super) fn kind(fd: &OwnedFd) -> Result<u32, Errno> {
    Ok(fstat(fd.as_raw_fd())?.st_mode & libc::S_IFMT)
}

fn on_proc(fd: RawFd) -> bool {
    // SAFETY: a zeroed plain struct filled by the kernel.
    let mut fs: libc::statfs = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a statfs buffer.
    unsafe { libc::fstatfs(fd, &mut fs) == 0 && fs.f_type as i64 == PROC_SUPER_MAGIC }
}

fn readlink_at(dir: RawFd, name: &CStr) -> Result<Vec<u8>, Errno> {
    let mut buf = vec![0u8; libc::PATH_MAX as usize];
    // SAFETY: a buffer of the length given.
    let n = unsafe { libc::readlinkat(dir, name.as_ptr(), buf.as_mut_ptr().cast(), buf.len()) };
    if n < 0 {
        return Err(last_errno());
    }
    buf.truncate(n as usize);
    Ok(buf)
}

/// The thread group of thread `tid` (what its `/proc/self` names).
fn tgid(tid: i32) -> Result<i32, Errno> {
    let status = std::fs::read_to_string(format!("/proc/{tid}/status")).map_err(|_| libc::ESRCH)?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("Tgid:"))
        .and_then(|v| v.trim().parse().ok())
        .ok_or(libc::ESRCH)
}

impl Resolver {
    pub fn new() -> Result<Resolver, String> {
        let root = open_at(libc::AT_FDCWD, c"/", libc::O_PATH | libc::O_DIRECTORY, 0)
            .map_err(|e| format!("cannot open / ({})", std::io::Error::from_raw_os_error(e)))?;
        Ok(Resolver {
            me: std::process::id() as i32,
            root,
        })
    }

    fn dup_root(&self) -> Result<OwnedFd, Errno> {
        self.root.try_clone().map_err(|_| libc::EMFILE)
    }

    /// The folder `tid`'s relative path starts from: its working folder
    /// (`dirfd` `AT_FDCWD`) or its descriptor `dirfd`. An absolute path
    /// starts at the root, which the tree shares with the supervisor
    /// (`chroot` is refused under supervision).
    pub fn base(&self, tid: i32, dirfd: i32, path: &[u8]) -> Result<OwnedFd, Errno> {
        if path.first() == Some(&b'/') {
            return self.dup_root();
        }
        self.descriptor(tid, dirfd)
    }

    /// `tid`'s descriptor `fd` (`AT_FDCWD`: its working folder) as one of ours.
    pub fn descriptor(&self, tid: i32, fd: i32) -> Result<OwnedFd, Errno> {
        let link = if fd == libc::AT_FDCWD {
            format!("/proc/{tid}/cwd")
        } else if fd < 0 {
            return Err(libc::EBADF);
        } else {
            format!("/proc/{tid}/fd/{fd}")
        };
        open_at(libc::AT_FDCWD, &c(link.as_bytes())?, libc::O_PATH, 0).map_err(|e| match e {
            libc::ENOENT => libc::EBADF,
            e => e,
        })
    }

    /// The object `path` names for `tid` (from `dirfd`), opened `O_PATH`;
    /// `follow`: a link in the last place is followed.
    pub fn locate(&self, tid: i32, dirfd: i32, path: &[u8], follow: bool) -> Result<Found, Errno> {
        if path.is_empty() {
            return Err(libc::ENOENT);
        }
        self.locate_from(tid, &self.base(tid, dirfd, path)?, path, follow)
    }

    /// [`locate`](Self::locate) from a folder of ours.
    pub fn locate_from(
        &self,
        tid: i32,
        base: &OwnedFd,
        path: &[u8],
        follow: bool,
    ) -> Result<Found, Errno> {
        if path.is_empty() {
            return Err(libc::ENOENT);
        }
        let flags = libc::O_PATH | if follow { 0 } else { libc::O_NOFOLLOW };
        if let Some(found) = self.open_fast(base, path, flags)? {
            return Ok(found);
        }
        let start = base.try_clone().map_err(|_| libc::EMFILE)?;
        let fd = self.walk(tid, start, path, follow)?;
        let real = real_path(&fd)?;
        if self.mine(&real) {
            return Err(libc::EACCES);
        }
        Ok(Found { fd, path: real })
    }

    /// Whether a real path lies in the supervisor's own `/proc` entry.
    fn mine(&self, path: &str) -> bool {
        let rest = path.strip_prefix("/proc/").unwrap_or("");
        let pid = rest.split('/').next().unwrap_or("");
        !pid.is_empty() && pid.parse::<i32>() == Ok(self.me)
    }

    /// `path` from `base` opened with `flags` in one `openat2`, magic links
    /// refused; `None` when the path needs the component walk (a magic link
    /// on the way, or `/proc/self`, which resolved to the supervisor).
    pub fn open_fast(
        &self,
        base: &OwnedFd,
        path: &[u8],
        flags: i32,
    ) -> Result<Option<Found>, Errno> {
        // `openat2` refuses flags that do not go with `O_PATH`.
        let extra = if flags & libc::O_PATH != 0 {
            libc::O_CLOEXEC
        } else {
            libc::O_CLOEXEC | libc::O_NOCTTY
        };
        let how = OpenHow {
            flags: (flags | extra) as u64,
            mode: 0,
            resolve: libc::RESOLVE_NO_MAGICLINKS,
        };
        let name = c(path)?;
        // SAFETY: valid pointers to a C string and an open_how of the size given.
        let fd = unsafe {
            libc::syscall(
                libc::SYS_openat2,
                base.as_raw_fd(),
                name.as_ptr(),
                &how as *const OpenHow,
                std::mem::size_of::<OpenHow>(),
            )
        };
        if fd < 0 {
            return match last_errno() {
                libc::ELOOP | libc::EXDEV => Ok(None),
                e => Err(e),
            };
        }
        // SAFETY: a descriptor just opened.
        let fd = unsafe { OwnedFd::from_raw_fd(fd as RawFd) };
        let real = real_path(&fd)?;
        if self.mine(&real) {
            return Ok(None);
        }
        Ok(Some(Found { fd, path: real }))
    }

    /// Where `path`'s last name is made or removed: its folder, resolved
    /// (every link followed), and the name. A trailing `/` stays with the
    /// name's call to judge (`unlink("d/")`): the name is kept without it.
    pub fn place(&self, tid: i32, dirfd: i32, path: &[u8]) -> Result<Place, Errno> {
        self.place_from(tid, &self.base(tid, dirfd, path)?, path)
    }

    /// [`place`](Self::place) from a folder of ours.
    pub fn place_from(&self, tid: i32, base: &OwnedFd, path: &[u8]) -> Result<Place, Errno> {
        let trimmed = {
            let mut p = path;
            while p.len() > 1 && p.ends_with(b"/") {
                p = &p[..p.len() - 1];
            }
            p
        };
        if trimmed.is_empty() {
            return Err(libc::ENOENT);
        }
        let (dir, name): (&[u8], &[u8]) = match trimmed.iter().rposition(|&b| b == b'/') {
            Some(0) => (b"/", &trimmed[1..]),
            Some(i) => (&trimmed[..i], &trimmed[i + 1..]),
            None => (b".", trimmed),
        };
        let name = if name.is_empty() { b"." as &[u8] } else { name };
        let dir = self.locate_from(tid, base, dir, true)?;
        if kind(&dir.fd)? != libc::S_IFDIR {
            return Err(libc::ENOTDIR);
        }
        Ok(Place {
            dir,
            name: c(name)?,
        })
    }

    /// Resolve one component at a time (see the module documentation).
    fn walk(&self, tid: i32, base: OwnedFd, path: &[u8], follow: bool) -> Result<OwnedFd, Errno> {
        let mut todo: Vec<Vec<u8>> = Vec::new();
        let mut dir = base;
        let mut links = 0;
        let push = |todo: &mut Vec<Vec<u8>>, text: &[u8]| {
            for part in text.split(|&b| b == b'/').rev() {
                if !part.is_empty() {
                    todo.push(part.to_vec());
                }
            }
        };
        // A trailing `/` makes the last component a folder, followed.
        let follow = follow || path.ends_with(b"/");
        push(&mut todo, path);
        if path.first() == Some(&b'/') {
            dir = self.dup_root()?;
        }
        while let Some(part) = todo.pop() {
            let last = todo.is_empty();
            if part == b"." {
                continue;
            }
            if on_proc(dir.as_raw_fd()) && fstat(dir.as_raw_fd())?.st_ino == 1 {
                // The root of /proc: `self` is the caller.
                let name = String::from_utf8_lossy(&part);
                if name == "self" || name == "thread-self" {
                    let group = tgid(tid)?;
                    let named = if name == "self" {
                        group.to_string()
                    } else {
                        format!("{group}/task/{tid}")
                    };
                    push(&mut todo, named.as_bytes());
                    continue;
                }
                if name.parse::<i32>() == Ok(self.me) {
                    return Err(libc::EACCES);
                }
            }
            let name = c(&part)?;
            let next = open_at(dir.as_raw_fd(), &name, libc::O_PATH | libc::O_NOFOLLOW, 0)?;
            if kind(&next)? != libc::S_IFLNK || (last && !follow) {
                dir = next;
                continue;
            }
            links += 1;
            if links > MAX_LINKS {
                return Err(libc::ELOOP);
            }
            let proc_root = on_proc(dir.as_raw_fd()) && fstat(dir.as_raw_fd())?.st_ino == 1;
            if on_proc(dir.as_raw_fd()) && !proc_root {
                // A magic link (`/proc/PID/fd/N`, `cwd`, `root`, `exe`): the
                // kernel follows it to the object, whoever opens it.
                dir = open_at(dir.as_raw_fd(), &name, libc::O_PATH, 0)?;
                continue;
            }
            let text = readlink_at(dir.as_raw_fd(), &name)?;
            if text.first() == Some(&b'/') {
                dir = self.dup_root()?;
            }
            push(&mut todo, &text);
        }
        Ok(dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn me() -> i32 {
        // SAFETY: plain system call.
        unsafe { libc::gettid() }
    }

    #[test]
    fn a_path_is_resolved_from_the_callers_folder_through_its_links() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join(".env"), "x").unwrap();
        std::os::unix::fs::symlink(".env", d.join("notes")).unwrap();
        std::os::unix::fs::symlink(d.join("loop"), d.join("loop")).unwrap();
        let r = Resolver::new().unwrap();
        let folder = open_at(
            libc::AT_FDCWD,
            &c(d.as_os_str().as_encoded_bytes()).unwrap(),
            libc::O_PATH,
            0,
        )
        .unwrap();
        let real = std::fs::canonicalize(d).unwrap().display().to_string();
        let found = r.locate(me(), folder.as_raw_fd(), b"notes", true).unwrap();
        assert_eq!(found.path, format!("{real}/.env"));
        let link = r.locate(me(), folder.as_raw_fd(), b"notes", false).unwrap();
        assert_eq!(link.path, format!("{real}/notes"));
        assert_eq!(
            r.locate(me(), folder.as_raw_fd(), b"loop", true).err(),
            Some(libc::ELOOP)
        );
        let place = r.place(me(), folder.as_raw_fd(), b"sub/../new.txt").err();
        assert_eq!(place, Some(libc::ENOENT), "sub does not exist");
        let place = r.place(me(), folder.as_raw_fd(), b"./new.txt").unwrap();
        assert_eq!(place.path(), format!("{real}/new.txt"));
    }

    #[test]
    fn proc_self_is_the_caller_and_the_supervisor_is_out_of_reach() {
        let r = Resolver {
            // As if the supervisor were another process: this one is the caller.
            me: 1,
            root: open_at(libc::AT_FDCWD, c"/", libc::O_PATH, 0).unwrap(),
        };
        let file = tempfile::NamedTempFile::new().unwrap();
        let held = std::fs::File::open(file.path()).unwrap();
        let fd = held.as_raw_fd();
        let real = std::fs::canonicalize(file.path())
            .unwrap()
            .display()
            .to_string();
        for path in [format!("/proc/self/fd/{fd}"), format!("/dev/fd/{fd}")] {
            let found = r
                .locate(me(), libc::AT_FDCWD, path.as_bytes(), true)
                .unwrap();
            assert_eq!(found.path, real, "{path}");
        }
        let r = Resolver::new().unwrap();
        assert_eq!(
            r.locate(
                me(),
                libc::AT_FDCWD,
                format!("/proc/{}/fd/{fd}", r.me).as_bytes(),
                true
            )
            .err(),
            Some(libc::EACCES)
        );
    }
}
