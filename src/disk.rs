//! Reading the files a build depends on, when any of them may be hostile.
//!
//! A repository can hold anything where hookc expects a settings file: a
//! FIFO that never answers, a link to `/dev/zero`, a symlinked directory that
//! leads out of the project, a file in another encoding. Each of these is an
//! error that names the path and says what to do, never "absent" (which would
//! let the build write over it) and never a hang.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// The largest policy or harness file hookc reads: far above any real one,
/// far below what would exhaust memory.
pub const MAX_INPUT: u64 = 32 << 20;

/// Why a file could not be read as text.
#[derive(Debug)]
pub enum ReadError {
    /// A FIFO, a device, a socket or a directory where a file belongs.
    NotAFile(&'static str),
    TooLarge(u64),
    NotUtf8,
    Io(std::io::Error),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::NotAFile(kind) => write!(f, "it is {kind}, not a regular file"),
            ReadError::TooLarge(size) => write!(
                f,
                "it is {size} bytes or more, over hookc's limit of {MAX_INPUT} bytes"
            ),
            ReadError::NotUtf8 => write!(f, "it is not valid UTF-8 text"),
            ReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl ReadError {
    /// What the user can do about it.
    pub fn help(&self) -> &'static str {
        match self {
            ReadError::NotAFile(_) | ReadError::TooLarge(_) => {
                "replace it with a regular file (or remove it), then run hookc again; hookc never reads or writes through it"
            }
            ReadError::NotUtf8 => {
                "save the file as UTF-8 (the harness reads it as UTF-8 too), then run hookc again; hookc will not overwrite it"
            }
            ReadError::Io(_) => {
                "check that the file exists and that you may read it, then run hookc again; hookc will not overwrite a file it cannot read"
            }
        }
    }
}

/// The text of `path`, `None` when nothing is there. Follows a symlink (the
/// caller confines the path first, see [`confine`]); refuses anything but a
/// regular UTF-8 file of at most [`MAX_INPUT`] bytes, without blocking on a
/// FIFO.
pub fn read_text(path: &Path) -> Result<Option<String>, ReadError> {
    let Some((bytes, _)) = read_bytes(path, MAX_INPUT)? else {
        return Ok(None);
    };
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| ReadError::NotUtf8)
}

/// The bytes of `path` and the metadata of the file they were read from,
/// `None` when nothing is there: a regular file of at most `max` bytes, as
/// [`read_text`] reads it (a larger one is refused before it is read, a FIFO
/// or a device without waiting on it).
pub fn read_bytes(
    path: &Path,
    max: u64,
) -> Result<Option<(Vec<u8>, std::fs::Metadata)>, ReadError> {
    // A FIFO is not opened at all: even an open that does not wait meets
    // its writer, which then goes on (`hookc exec` reads files while the
    // call it supervises runs).
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => return Err(ReadError::NotAFile(kind_of(&meta))),
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(ReadError::Io(e)),
    }
    let mut file = match open_nonblocking(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(ReadError::Io(e)),
    };
    // The type of what was opened, not of what was at the path a moment ago.
    let meta = file.metadata().map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(kind_of(&meta)));
    }
    if meta.len() > max {
        return Err(ReadError::TooLarge(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // The file may grow while it is read.
    (&mut file)
        .take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > max {
        return Err(ReadError::TooLarge(bytes.len() as u64));
    }
    Ok(Some((bytes, meta)))
}

/// The file `name` names on this process's `PATH`, as a shell finds a
/// program: the first absolute folder that holds a file of that name.
pub fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|d| d.is_absolute())
        .map(|d| d.join(name))
        .find(|f| f.is_file())
}

/// `path` opened for reading without waiting on a FIFO or a device (see
/// [`read_bytes`] for why a FIFO had better not be opened at all).
#[cfg(unix)]
pub fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    // A FIFO opened for reading without O_NONBLOCK waits for a writer forever.
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
pub fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// Whether `rel` is a plain relative path: no root, no `.` or `..`, no empty
/// component, no backslash or control character. Manifest paths and user
/// bases must be.
pub fn is_plain_relative(rel: &str) -> bool {
    !rel.is_empty()
        && !rel.contains('\\')
        && !rel.chars().any(char::is_control)
        && rel
            .split('/')
            .all(|part| !part.is_empty() && part != "." && part != "..")
        && Path::new(rel)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

/// Where hookc really reads and writes `base/rel`: the same path with every
/// symlink on the way resolved, provided it stays inside `base` (itself
/// resolved). A symlinked file inside `base` is edited where it points, so the
/// link stays a link; one that leads out of `base`, or dangles, is an error.
/// `rel` must be [plain](is_plain_relative).
pub fn confine(base: &Path, rel: &str) -> Result<PathBuf, String> {
    let base = resolve_existing(base).map_err(|e| format!("{}: {e}", base.display()))?;
    let mut real = base.clone();
    let mut parts = rel.split('/').peekable();
    while let Some(part) = parts.next() {
        let next = real.join(part);
        match std::fs::symlink_metadata(&next) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                // Nothing there yet: the rest is created by hookc, below `real`.
                real = next;
                for rest in parts.by_ref() {
                    real.push(rest);
                }
                break;
            }
            Err(e) => return Err(format!("{}: {e}", next.display())),
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = next.canonicalize().map_err(|_| {
                    format!(
                        "{} is a symlink to {}, which does not exist",
                        next.display(),
                        std::fs::read_link(&next)
                            .map(|t| t.display().to_string())
                            .unwrap_or_else(|_| "?".to_owned())
                    )
                })?;
                if !target.starts_with(&base) {
                    return Err(format!(
                        "{} is a symlink to {}, outside {}",
                        next.display(),
                        target.display(),
                        base.display()
                    ));
                }
                real = target;
            }
            Ok(meta) if parts.peek().is_some() && !meta.is_dir() => {
                return Err(format!("{} is not a directory", next.display()));
            }
            Ok(_) => real = next,
        }
    }
    Ok(real)
}

/// `path` with symlinks resolved as far as it exists; the part that does
/// not exist yet (a directory a build will make) is appended as it is.
fn resolve_existing(path: &Path) -> std::io::Result<PathBuf> {
    let mut missing = Vec::new();
    let mut existing = std::path::absolute(path)?;
    while std::fs::symlink_metadata(&existing).is_err() {
        match (existing.file_name(), existing.parent()) {
            (Some(name), Some(parent)) => {
                missing.push(name.to_owned());
                existing = parent.to_owned();
            }
            _ => break,
        }
    }
    let mut real = existing.canonicalize()?;
    real.extend(missing.iter().rev());
    Ok(real)
}

/// Whether `path` is a file that can be run (following links).
#[cfg(unix)]
pub fn is_executable_file(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Windows has no execute bit: a file is a program by its name.
#[cfg(not(unix))]
pub fn is_executable_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_relative_paths() {
        for good in [
            ".claude/settings.json",
            "config.toml",
            ".hookc/kimi/pre-tool.sh",
        ] {
            assert!(is_plain_relative(good), "{good}");
        }
        for bad in [
            "",
            "/etc/passwd",
            "../x",
            ".claude/../../x",
            "./x",
            "a//b",
            "a/",
            "a\\..\\b",
            "a\nb",
        ] {
            assert!(!is_plain_relative(bad), "{bad:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn confine_resolves_links_inside_and_refuses_links_out() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(root.join("config")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        symlink(root.join("config"), root.join(".claude")).unwrap();
        symlink(&outside, root.join(".hookc")).unwrap();
        std::fs::write(root.join("config/real.json"), "{}").unwrap();
        symlink("real.json", root.join("config/settings.json")).unwrap();
        let real_root = root.canonicalize().unwrap();
        assert_eq!(
            confine(&root, ".claude/settings.json").unwrap(),
            real_root.join("config/real.json")
        );
        assert_eq!(
            confine(&root, ".claude/new/file").unwrap(),
            real_root.join("config/new/file")
        );
        assert!(confine(&root, ".hookc/policy.json").is_err());
        symlink("/nowhere/at/all", root.join("dangling")).unwrap();
        assert!(confine(&root, "dangling").is_err());
    }

    #[cfg(unix)]
    #[test]
    fn read_text_refuses_fifos_devices_and_other_encodings() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        assert!(matches!(read_text(&fifo), Err(ReadError::NotAFile(_))));
        assert!(matches!(
            read_text(Path::new("/dev/zero")),
            Err(ReadError::NotAFile(_))
        ));
        let latin1 = dir.path().join("latin1.json");
        std::fs::write(&latin1, b"{\"name\": \"caf\xe9\"}").unwrap();
        assert!(matches!(read_text(&latin1), Err(ReadError::NotUtf8)));
        assert!(read_text(&dir.path().join("missing")).unwrap().is_none());
        let big = dir.path().join("big");
        let f = std::fs::File::create(&big).unwrap();
        f.set_len(MAX_INPUT + 1).unwrap();
        assert!(matches!(read_text(&big), Err(ReadError::TooLarge(_))));
    }
}
