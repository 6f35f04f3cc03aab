//! hookc's state folder (`$XDG_STATE_HOME/hookc`, else
//! `~/.local/state/hookc`), reached without following a symbolic link at
//! any component from the state folder down.
//!
//! The folders above it (`~/.local/state`, `$XDG_STATE_HOME`) are the
//! user's and may be links. From `hookc` down nothing is: each folder is
//! opened with `O_NOFOLLOW | O_DIRECTORY`, and on Linux its entries are then
//! reached through `/proc/self/fd/N/…`, the folder that was opened, so a
//! folder swapped for a link after the check is not followed either (the
//! standard library has no `openat`, and unsafe code is kept to the process supervisor,
//! `supervise`).
//! Elsewhere each folder is checked with `lstat` before use, which leaves a
//! window between the check and the use. Files are opened with
//! `O_NOFOLLOW`; a folder hookc makes is `0700`, a file `0600`, and a
//! folder another user owns, or that others may write, is refused.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Why the state folder cannot be used.
#[derive(Debug)]
pub enum StateError {
    /// Neither `$XDG_STATE_HOME` nor `$HOME` is an absolute path.
    NoHome,
    /// A folder (or file) in the state folder is a symbolic link.
    Link(PathBuf),
    /// Something other than a folder is where a folder belongs.
    NotDir(PathBuf),
    /// A folder another user owns, or that others may write.
    Unsafe(PathBuf, String),
    Io(PathBuf, io::Error),
}

impl std::fmt::Display for StateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StateError::NoHome => write!(
                f,
                "no state folder: neither $XDG_STATE_HOME nor $HOME is an absolute path"
            ),
            StateError::Link(p) => write!(
                f,
                "{} is a symbolic link; hookc follows no link in its state folder (remove the link: hookc makes a real folder in its place)",
                p.display()
            ),
            StateError::NotDir(p) => write!(
                f,
                "{} is not a folder (remove it: hookc makes the folder)",
                p.display()
            ),
            StateError::Unsafe(p, why) => write!(f, "{}: {why}", p.display()),
            StateError::Io(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for StateError {}

impl From<StateError> for io::Error {
    fn from(e: StateError) -> io::Error {
        io::Error::other(e.to_string())
    }
}

/// hookc's folder in the user's state directory; `None` without an
/// absolute `$XDG_STATE_HOME` or `$HOME`.
pub fn state_dir() -> Option<PathBuf> {
    let absolute = |v: std::ffi::OsString| {
        let p = PathBuf::from(v);
        p.is_absolute().then_some(p)
    };
    if let Some(state) = std::env::var_os("XDG_STATE_HOME").and_then(absolute) {
        return Some(state.join("hookc"));
    }
    std::env::var_os("HOME")
        .and_then(absolute)
        .map(|home| home.join(".local/state/hookc"))
}

/// An open folder of the state folder.
#[derive(Debug)]
pub struct Dir {
    /// The folder as the user knows it, for messages.
    pub path: PathBuf,
    /// How its entries are reached: `/proc/self/fd/N` on Linux, else `path`.
    via: PathBuf,
    /// The open folder, which `via` names.
    _handle: Option<File>,
}

/// Options for a file in the state folder: never through a link, never
/// waiting on a FIFO, not inherited by programs hookc runs.
fn options() -> OpenOptions {
    #[cfg_attr(not(unix), allow(unused_mut))]
    let mut o = OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK);
    }
    o
}

/// Whether an error says the last component is a symbolic link (what
/// `O_NOFOLLOW` answers).
pub fn is_link_error(e: &io::Error) -> bool {
    #[cfg(unix)]
    {
        e.raw_os_error() == Some(libc::ELOOP) || e.raw_os_error() == Some(libc::EMLINK)
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

/// The user this process runs as, where it can be known without unsafe code.
#[cfg(target_os = "linux")]
fn own_uid() -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").ok().map(|m| m.uid())
}

impl Dir {
    /// The state folder, made when `create` and missing.
    pub fn state(create: bool) -> Result<Dir, StateError> {
        let path = state_dir().ok_or(StateError::NoHome)?;
        if create && let Some(parent) = path.parent() {
            // The user's own folders above hookc's: links there are theirs.
            std::fs::create_dir_all(parent).map_err(|e| StateError::Io(parent.to_owned(), e))?;
        }
        Dir::open(path.clone(), path, create)
    }

    /// A state folder at `path` (for tests, which do not set the environment).
    #[cfg(test)]
    pub fn state_at(path: &Path) -> Result<Dir, StateError> {
        Dir::open(path.to_owned(), path.to_owned(), true)
    }

    /// The folder `name` in this one, made when `create` and missing.
    pub fn sub(&self, name: &str, create: bool) -> Result<Dir, StateError> {
        Dir::open(self.path.join(name), self.via.join(name), create)
    }

    fn open(path: PathBuf, via: PathBuf, create: bool) -> Result<Dir, StateError> {
        if create {
            #[cfg_attr(not(unix), allow(unused_mut))]
            let mut builder = std::fs::DirBuilder::new();
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            match builder.create(&via) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(StateError::Io(path, e)),
            }
        }
        let meta = std::fs::symlink_metadata(&via).map_err(|e| StateError::Io(path.clone(), e))?;
        if meta.file_type().is_symlink() {
            return Err(StateError::Link(path));
        }
        if !meta.is_dir() {
            return Err(StateError::NotDir(path));
        }
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
            let handle = OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC)
                .open(&via)
                .map_err(|e| {
                    if is_link_error(&e) {
                        StateError::Link(path.clone())
                    } else if e.raw_os_error() == Some(libc::ENOTDIR) {
                        StateError::NotDir(path.clone())
                    } else {
                        StateError::Io(path.clone(), e)
                    }
                })?;
            let meta = handle
                .metadata()
                .map_err(|e| StateError::Io(path.clone(), e))?;
            if own_uid().is_some_and(|uid| uid != meta.uid()) {
                return Err(StateError::Unsafe(
                    path,
                    format!(
                        "owned by another user (uid {}); hookc keeps its state only in a folder of yours",
                        meta.uid()
                    ),
                ));
            }
            if meta.mode() & 0o022 != 0 {
                return Err(StateError::Unsafe(
                    path,
                    format!(
                        "others may write in it (mode {:o}); make it private: chmod 700",
                        meta.mode() & 0o7777
                    ),
                ));
            }
            let proc_path = PathBuf::from(format!("/proc/self/fd/{}", handle.as_raw_fd()));
            if std::fs::symlink_metadata(&proc_path).is_ok() {
                return Ok(Dir {
                    path,
                    via: proc_path,
                    _handle: Some(handle),
                });
            }
            Ok(Dir {
                path,
                via,
                _handle: Some(handle),
            })
        }
        #[cfg(not(target_os = "linux"))]
        {
            Ok(Dir {
                path,
                via,
                _handle: None,
            })
        }
    }

    /// Where to reach the entry `name` (for the calls that take a path).
    pub fn entry(&self, name: &str) -> PathBuf {
        self.via.join(name)
    }

    /// The entry `name` as the user knows it, for messages.
    pub fn shown(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// `name` opened for appending, made `0600` when missing.
    pub fn open_append(&self, name: &str) -> io::Result<File> {
        options().append(true).create(true).open(self.entry(name))
    }

    /// `name` opened for reading.
    pub fn open_read(&self, name: &str) -> io::Result<File> {
        options().read(true).open(self.entry(name))
    }

    /// `name` opened for reading and writing, made when missing (a lock file).
    pub fn open_rw(&self, name: &str) -> io::Result<File> {
        options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(self.entry(name))
    }

    /// The bytes of the regular file `name`, at most `max` of them; `None`
    /// when there is none.
    pub fn read_small(&self, name: &str, max: u64) -> io::Result<Option<Vec<u8>>> {
        let file = match self.open_read(name) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Err(io::Error::other(format!(
                "{} is not a regular file",
                self.shown(name).display()
            )));
        }
        if meta.len() > max {
            return Err(io::Error::other(format!(
                "{} is larger than hookc writes it ({} bytes)",
                self.shown(name).display(),
                meta.len()
            )));
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        file.take(max + 1).read_to_end(&mut bytes)?;
        if bytes.len() as u64 > max {
            return Err(io::Error::other("the file grew while it was read"));
        }
        Ok(Some(bytes))
    }

    /// A fresh file of this folder holding `bytes`: never an existing one,
    /// never through a link. Returns its name.
    fn write_fresh(&self, name: &str, bytes: &[u8], durable: bool) -> io::Result<String> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let tmp = format!(".{name}.{}.{nanos}.tmp", std::process::id());
        let mut file = options()
            .write(true)
            .create_new(true)
            .open(self.entry(&tmp))?;
        let written = file
            .write_all(bytes)
            .and_then(|()| if durable { file.sync_all() } else { Ok(()) });
        if let Err(e) = written {
            let _ = std::fs::remove_file(self.entry(&tmp));
            return Err(e);
        }
        Ok(tmp)
    }

    /// Writes `name` whole: a fresh file renamed into place, so a reader
    /// sees the old content or the new, never part of it. `durable` waits
    /// for the disk.
    pub fn write_atomic(&self, name: &str, bytes: &[u8], durable: bool) -> io::Result<()> {
        let tmp = self.write_fresh(name, bytes, durable)?;
        std::fs::rename(self.entry(&tmp), self.entry(name)).inspect_err(|_| {
            let _ = std::fs::remove_file(self.entry(&tmp));
        })
    }

    /// Makes `name` with `bytes` only if nothing is there (a hard link of
    /// a complete fresh file: readers never see it partly written). `false`
    /// when something was there already.
    pub fn create_once(&self, name: &str, bytes: &[u8]) -> io::Result<bool> {
        let tmp = self.write_fresh(name, bytes, true)?;
        let linked = std::fs::hard_link(self.entry(&tmp), self.entry(name));
        let _ = std::fs::remove_file(self.entry(&tmp));
        match linked {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(e),
        }
    }

    pub fn rename(&self, from: &str, to: &str) -> io::Result<()> {
        std::fs::rename(self.entry(from), self.entry(to))
    }

    pub fn remove(&self, name: &str) -> io::Result<()> {
        std::fs::remove_file(self.entry(name))
    }

    /// The entry's own metadata (a link is a link); `None` when missing.
    pub fn lstat(&self, name: &str) -> io::Result<Option<std::fs::Metadata>> {
        match std::fs::symlink_metadata(self.entry(name)) {
            Ok(m) => Ok(Some(m)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The names in this folder with their own metadata.
    pub fn list(&self) -> io::Result<Vec<(String, std::fs::Metadata)>> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(&self.via)? {
            let entry = entry?;
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            if let Ok(meta) = std::fs::symlink_metadata(self.entry(&name)) {
                out.push((name, meta));
            }
        }
        Ok(out)
    }
}

/// The identity of a file: device and inode where the system has them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileId {
    pub dev: u64,
    pub ino: u64,
}

impl FileId {
    pub fn of(meta: &std::fs::Metadata) -> FileId {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            FileId {
                dev: meta.dev(),
                ino: meta.ino(),
            }
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            FileId { dev: 0, ino: 0 }
        }
    }
}

/// The permission bits of a file (`0o600`), `None` where there are none.
pub fn mode_of(meta: &std::fs::Metadata) -> Option<u32> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(meta.permissions().mode() & 0o7777)
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        None
    }
}

/// Takes the lock `file` for a moment: `None` if another process holds it
/// for longer than `wait`.
pub fn lock_within(file: &File, wait: std::time::Duration) -> Option<()> {
    let start = std::time::Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => return Some(()),
            Err(std::fs::TryLockError::WouldBlock) if start.elapsed() < wait => {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            Err(_) => return None,
        }
    }
}

/// A path spelled for messages: the folder's path, not `/proc/self/fd/N`.
pub fn display(path: &Path) -> String {
    path.display().to_string()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_linked_folder_is_refused_and_a_real_one_is_used() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().join("real");
        std::fs::create_dir(&real).unwrap();
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let err = Dir::open(link.clone(), link.clone(), true).unwrap_err();
        assert!(matches!(err, StateError::Link(_)), "{err}");
        let dir = Dir::open(real.clone(), real.clone(), true).unwrap();
        let sub_link = real.join("audit");
        std::os::unix::fs::symlink(tmp.path(), &sub_link).unwrap();
        assert!(matches!(dir.sub("audit", true), Err(StateError::Link(_))));
        let pending = dir.sub("pending", true).unwrap();
        pending.write_atomic("a.json", b"{}", false).unwrap();
        assert_eq!(std::fs::read(real.join("pending/a.json")).unwrap(), b"{}");
        // A file that is a link is not opened.
        std::os::unix::fs::symlink("/etc/hostname", real.join("pending/b.json")).unwrap();
        let e = pending.open_read("b.json").unwrap_err();
        assert!(is_link_error(&e), "{e}");
    }

    #[test]
    fn create_once_keeps_the_first() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = Dir::open(tmp.path().into(), tmp.path().into(), false).unwrap();
        assert!(dir.create_once("key", b"one").unwrap());
        assert!(!dir.create_once("key", b"two").unwrap());
        assert_eq!(dir.read_small("key", 10).unwrap().unwrap(), b"one");
        // No temporary file is left behind.
        assert_eq!(dir.list().unwrap().len(), 1);
    }

    #[test]
    fn a_folder_others_may_write_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let open = tmp.path().join("open");
        std::fs::create_dir(&open).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
        if cfg!(target_os = "linux") {
            assert!(matches!(
                Dir::open(open.clone(), open, false),
                Err(StateError::Unsafe(..))
            ));
        }
    }
}
