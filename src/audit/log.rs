//! The audit log: one JSON line per decision, per project, in
//! `audit/<project>.jsonl` of the state folder.
//!
//! * **Bounded.** When the log reaches [`ROTATE_AT`] (8 MiB) it becomes
//!   `<project>.1.jsonl` (replacing the one before) and a fresh log starts:
//!   a project keeps at most 16 MiB and a few lines.
//! * **Safe with guards running at once.** Each record is one `write` of one
//!   line to a file opened `O_APPEND`. Rotation and the seal are done under
//!   an exclusive lock (`<project>.lock`); a guard that cannot take it
//!   within [`LOCK_WAIT`] writes its line without rotating or sealing. A
//!   guard that opened the log just before another rotated it writes its
//!   line to the rotated file, which is kept: no line is lost or torn.
//! * **Checked.** Under the lock the guard keeps a seal (`<project>.seal`,
//!   HMAC'd with hookc's key) with the identity and size of the log and of
//!   the rotated file as it last left them. A log that is gone, shorter,
//!   another file, a link, unreadable, or a seal that does not verify is
//!   tampering: the next guard moves what is there aside
//!   (`<project>.tampered`), starts a fresh log with a `tampered` record
//!   saying what it found, and counts it in the seal; `hookc log` and
//!   [`check`] report it.
//! * **Read from its end.** [`read`] reads backwards block by block, so the
//!   last few records of a large log cost a few blocks.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::seal::{self, Key};
use super::store::{self, Dir, FileId, StateError};

/// The size at which the log is rotated.
pub const ROTATE_AT: u64 = 8 * 1024 * 1024;
/// How long a guard waits for another to finish rotating or sealing.
pub const LOCK_WAIT: Duration = Duration::from_millis(250);
/// Lines longer than this are skipped when reading.
const MAX_LINE: usize = 1024 * 1024;
const SEAL_KIND: &str = "log-seal-v1";

/// The names of a project's files in `audit/`.
struct Names {
    log: String,
    old: String,
    seal: String,
    lock: String,
    aside: String,
}

fn names(root: &str) -> Names {
    let key = super::project_key(&super::resolved(root));
    Names {
        log: format!("{key}.jsonl"),
        old: format!("{key}.1.jsonl"),
        seal: format!("{key}.seal"),
        lock: format!("{key}.lock"),
        aside: format!("{key}.tampered"),
    }
}

/// A file as the seal remembers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Kept {
    id: FileId,
    size: u64,
}

/// What the guard last left: the log, the rotated log, and the tampering
/// found so far.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Seal {
    log: Option<Kept>,
    old: Option<Kept>,
    /// How many times tampering was found.
    tampered: u64,
    /// What was found the last time, and when.
    last: Option<String>,
    last_at: Option<u64>,
}

/// The seal as read: missing, not hookc's, or hookc's.
enum ReadSeal {
    Missing,
    Forged,
    Sealed(Seal),
}

fn read_seal(dir: &Dir, name: &str, key: Option<&Key>) -> ReadSeal {
    let bytes = match dir.read_small(name, 64 * 1024) {
        Ok(Some(b)) => b,
        Ok(None) => return ReadSeal::Missing,
        Err(_) => return ReadSeal::Forged,
    };
    let opened = key
        .and_then(|k| {
            serde_json::from_slice::<Value>(&bytes)
                .ok()
                .and_then(|v| seal::unseal(k, SEAL_KIND, v))
        })
        .and_then(|v| serde_json::from_value::<Seal>(v).ok());
    match opened {
        Some(s) => ReadSeal::Sealed(s),
        None => ReadSeal::Forged,
    }
}

/// The seal's size on disk: it is rewritten in place, padded with spaces,
/// under the lock (renaming a fresh file over it on every call costs more
/// than the rest of the record; readers take the lock too).
const SEAL_SIZE: usize = 4096;

fn write_seal(dir: &Dir, name: &str, key: &Key, s: &Seal) -> io::Result<()> {
    let mut bytes = seal::seal(key, SEAL_KIND, serde_json::to_value(s).expect("JSON"))
        .to_string()
        .into_bytes();
    if bytes.len() > SEAL_SIZE {
        return dir.write_atomic(name, &bytes, false);
    }
    bytes.resize(SEAL_SIZE, b' ');
    let mut file = dir.open_rw(name)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("the seal is not a regular file"));
    }
    file.write_all(&bytes)?;
    file.set_len(SEAL_SIZE as u64)
}

/// How a file at one of the log's names stands.
enum Found {
    Missing,
    File(std::fs::Metadata),
    /// A link, a folder, a FIFO: what it is.
    Other(&'static str),
}

fn found(dir: &Dir, name: &str) -> Found {
    match dir.lstat(name) {
        Ok(None) => Found::Missing,
        Ok(Some(m)) if m.file_type().is_symlink() => Found::Other("a symbolic link"),
        Ok(Some(m)) if m.is_dir() => Found::Other("a folder"),
        Ok(Some(m)) if !m.is_file() => Found::Other("a FIFO or device"),
        Ok(Some(m)) => Found::File(m),
        Err(_) => Found::Other("something hookc cannot look at"),
    }
}

/// What is wrong with one file against what the seal remembers.
fn compare(what: &str, kept: Option<Kept>, now: &Found) -> Option<String> {
    match (kept, now) {
        (_, Found::Other(kind)) => Some(format!("{what} was replaced by {kind}")),
        (Some(k), Found::Missing) => Some(format!("{what} was deleted (it held {} bytes)", k.size)),
        (Some(k), Found::File(m)) if FileId::of(m) != k.id => Some(format!(
            "{what} is not the file hookc wrote (it was deleted or moved and another put in its place; hookc's held {} bytes, this one {})",
            k.size,
            m.len()
        )),
        (Some(k), Found::File(m)) if m.len() < k.size => Some(format!(
            "{what} was cut: it holds {} bytes, hookc had written {}",
            m.len(),
            k.size
        )),
        (_, Found::File(m)) if store::mode_of(m).is_some_and(|mode| mode & 0o600 != 0o600) => {
            Some(format!(
                "{what}'s permissions were changed (mode {:o}): hookc cannot read or write it",
                store::mode_of(m).unwrap_or(0)
            ))
        }
        _ => None,
    }
}

/// Everything wrong with the log and the rotated log against the seal.
fn problems(dir: &Dir, n: &Names, seal: &ReadSeal) -> Vec<String> {
    let log = found(dir, &n.log);
    let old = found(dir, &n.old);
    let mut out = Vec::new();
    let kept = match seal {
        ReadSeal::Sealed(s) => Some(s.clone()),
        ReadSeal::Forged => {
            out.push(
                "the log's seal does not verify: it was written or changed by something other than hookc"
                    .to_owned(),
            );
            None
        }
        ReadSeal::Missing => {
            if matches!(&log, Found::File(m) if m.len() > 0) {
                out.push("the log has no seal: it was removed (or the log was written by an older hookc, which kept none)".to_owned());
            }
            None
        }
    };
    let kept = kept.unwrap_or_default();
    out.extend(compare("the log", kept.log, &log));
    out.extend(compare("the rotated log", kept.old, &old));
    out
}

/// The identity and size of an open file.
fn kept_of(file: &File) -> io::Result<Kept> {
    let m = file.metadata()?;
    Ok(Kept {
        id: FileId::of(&m),
        size: m.len(),
    })
}

/// Opens the log for appending; whatever is in its place that cannot be
/// (a link, a folder, a file made unreadable) is moved aside first.
fn open_log(dir: &Dir, n: &Names) -> io::Result<File> {
    for _ in 0..2 {
        let usable = match found(dir, &n.log) {
            Found::Missing => true,
            Found::File(m) => store::mode_of(&m).is_none_or(|mode| mode & 0o600 == 0o600),
            Found::Other(_) => false,
        };
        if usable {
            match dir.open_append(&n.log) {
                Ok(f) if f.metadata()?.is_file() => return Ok(f),
                Ok(_) => {}
                Err(e)
                    if e.kind() == io::ErrorKind::PermissionDenied || store::is_link_error(&e) => {}
                Err(e) => return Err(e),
            }
        }
        // Keep it for the user to look at; a folder of that name is removed
        // only when empty.
        if dir.rename(&n.log, &n.aside).is_err() {
            let _ = dir.remove(&n.log);
            let _ = std::fs::remove_dir(dir.entry(&n.log));
        }
    }
    Err(io::Error::other("the log cannot be opened"))
}

/// The state folder's `audit/` and hookc's key, for writing.
fn audit_dir(create: bool) -> Result<(Dir, Dir), StateError> {
    let state = Dir::state(create)?;
    let audit = state.sub("audit", create)?;
    Ok((state, audit))
}

/// Appends one record (a JSON line without its newline) to the log of the
/// project at `root`: rotating it, checking it and sealing it under the
/// lock, as the module says.
pub fn append(root: &str, line: &str) -> io::Result<()> {
    let (state, dir) = audit_dir(true)?;
    let n = names(root);
    let key = seal::key(&state, true)?;
    let lock = dir.open_rw(&n.lock)?;
    let locked = store::lock_within(&lock, LOCK_WAIT).is_some();
    if !locked {
        // Another guard holds the lock too long: the line still goes in.
        let mut log = open_log(&dir, &n)?;
        return log.write_all(format!("{line}\n").as_bytes());
    }
    let result = append_locked(&dir, &n, key.as_ref(), line);
    let _ = lock.unlock();
    result
}

fn append_locked(dir: &Dir, n: &Names, key: Option<&Key>, line: &str) -> io::Result<()> {
    let read = read_seal(dir, &n.seal, key);
    let found = problems(dir, n, &read);
    let mut seal = match read {
        ReadSeal::Sealed(s) => s,
        _ => Seal::default(),
    };
    let mut log = open_log(dir, n)?;
    let now = super::now();
    let mut lines = String::new();
    if !found.is_empty() {
        seal.tampered += 1;
        seal.last = Some(found.join("; ").chars().take(600).collect());
        seal.last_at = Some(now);
        let record = json!({
            "time": super::rfc3339(now),
            "unix": now,
            "harness": null,
            "event": null,
            "tool": null,
            "digest": null,
            "summary": format!("hookc found the audit log tampered with: {}", found.join("; ")),
            "guards": [],
            "verdict": "tampered",
            "code": null,
            "override": null,
        });
        lines.push_str(&record.to_string());
        lines.push('\n');
    }
    let before = kept_of(&log)?;
    if before.size >= ROTATE_AT {
        dir.rename(&n.log, &n.old)?;
        seal.old = Some(before);
        log = open_log(dir, n)?;
    } else if !found.is_empty() {
        // What the seal knew of the rotated file is what it found; from now
        // on it is the file as it is.
        seal.old = match self::found(dir, &n.old) {
            Found::File(m) => Some(Kept {
                id: FileId::of(&m),
                size: m.len(),
            }),
            _ => None,
        };
    }
    lines.push_str(line);
    lines.push('\n');
    log.write_all(lines.as_bytes())?;
    seal.log = Some(kept_of(&log)?);
    if let Some(key) = key {
        write_seal(dir, &n.seal, key, &seal)?;
    }
    Ok(())
}

/// What [`check`] found about a project's log.
#[derive(Debug, Clone, Default)]
pub struct Health {
    /// The log's path, as the user knows it.
    pub path: PathBuf,
    /// Whether there is a log (or a rotated one).
    pub exists: bool,
    /// What is wrong with it now, each a sentence.
    pub problems: Vec<String>,
    /// How many times a guard found it tampered with, and what it found last.
    pub tampered: u64,
    pub last_tamper: Option<(u64, String)>,
}

/// The health of the log of the project at `root`, for `hookc log` and
/// `hookc doctor`: `Err` when the state folder cannot be used safely (a
/// link, a folder others may write), with the reason.
pub fn check(root: &str) -> Result<Health, StateError> {
    match audit_dir(false) {
        Ok((state, dir)) => Ok(health_in(&state, &dir, root)),
        Err(StateError::Io(_, e)) if e.kind() == io::ErrorKind::NotFound => Ok(Health {
            path: super::log_path(root).unwrap_or_default(),
            ..Health::default()
        }),
        Err(e) => Err(e),
    }
}

fn health_in(state: &Dir, dir: &Dir, root: &str) -> Health {
    let n = names(root);
    let mut health = Health {
        path: dir.shown(&n.log),
        ..Health::default()
    };
    let key = seal::key(state, false).ok().flatten();
    // The guards rewrite the seal in place, and rotate, under the lock:
    // compare under the lock too (shared), or as things are if a guard
    // holds it too long.
    let lock = dir.open_read(&n.lock).ok();
    let locked = lock.as_ref().is_some_and(|l| {
        let start = std::time::Instant::now();
        loop {
            match l.try_lock_shared() {
                Ok(()) => return true,
                Err(std::fs::TryLockError::WouldBlock) if start.elapsed() < LOCK_WAIT => {
                    std::thread::sleep(Duration::from_millis(2));
                }
                Err(_) => return false,
            }
        }
    });
    let read = read_seal(dir, &n.seal, key.as_ref());
    health.exists = !matches!(found(dir, &n.log), Found::Missing)
        || !matches!(found(dir, &n.old), Found::Missing)
        || !matches!(read, ReadSeal::Missing);
    health.problems = problems(dir, &n, &read);
    if locked && let Some(l) = &lock {
        let _ = l.unlock();
    }
    if let Found::File(_) = found(dir, &n.log)
        && let Err(e) = dir.open_read(&n.log)
    {
        health.problems.push(format!("the log cannot be read: {e}"));
    }
    if let ReadSeal::Sealed(s) = read {
        health.tampered = s.tampered;
        health.last_tamper = s.last_at.zip(s.last);
    }
    health
}

/// One line of `hookc doctor`'s report about hookc's state folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Something is wrong (doctor's `fail`), or all is well (`ok`).
    pub problem: bool,
    pub what: String,
    /// What to do about it, for a problem.
    pub fix: Option<String>,
}

/// What `hookc doctor` says about the state folder of the project at
/// `root`, for a policy with `audit-log` (`audit`) and `allow-once`
/// (`allow_once`): whether the folder can be used safely (no link, not
/// writable by others), and whether the log was tampered with.
pub fn findings(root: &str, audit: bool, allow_once: bool) -> Vec<Finding> {
    if !audit && !allow_once {
        return Vec::new();
    }
    findings_of(check(root), audit)
}

fn findings_of(health: Result<Health, StateError>, audit: bool) -> Vec<Finding> {
    let fail = |what: String, fix: &str| Finding {
        problem: true,
        what,
        fix: Some(fix.to_owned()),
    };
    let health = match health {
        Ok(h) => h,
        Err(e) => {
            return vec![fail(
                format!("hookc's state folder cannot be used: {e}"),
                "make it a real folder of yours, private (`chmod 700`): hookc writes neither approvals nor the audit log through a link",
            )];
        }
    };
    if !audit {
        return vec![Finding {
            problem: false,
            what: "hookc's state folder is private and holds no link".to_owned(),
            fix: None,
        }];
    }
    let mut out: Vec<Finding> = health
        .problems
        .iter()
        .map(|p| {
            fail(
                format!("the audit log {} was tampered with: {p}", health.path.display()),
                "find out what changed it (the agent's calls to the state folder are refused); the next guard call starts a fresh log and records this",
            )
        })
        .collect();
    if health.tampered > 0
        && let Some((at, what)) = &health.last_tamper
    {
        out.push(fail(
            format!(
                "hookc has found the audit log tampered with {} time(s), last at {}: {what}",
                health.tampered,
                super::rfc3339(*at)
            ),
            "`hookc log --verdict tampered` lists when; records from before each may be gone",
        ));
    }
    if out.is_empty() {
        out.push(Finding {
            problem: false,
            what: if health.exists {
                format!(
                    "the audit log {} is as hookc left it",
                    health.path.display()
                )
            } else {
                format!("no audit log yet ({})", health.path.display())
            },
            fix: None,
        });
    }
    out
}

/// Reads a file's lines from its end, block by block.
pub struct Backwards {
    file: File,
    /// Where the part not read yet ends.
    pos: u64,
    /// The start of the earliest line read, not complete yet.
    carry: Vec<u8>,
    /// Complete lines of the last block with their offsets, in file order.
    lines: Vec<(u64, Vec<u8>)>,
    /// A line longer than [`MAX_LINE`] is being skipped.
    skipping: bool,
}

const BLOCK: u64 = 64 * 1024;

impl Backwards {
    /// From the end of `file`, as long as it is now.
    pub fn new(mut file: File) -> io::Result<Backwards> {
        let pos = file.seek(SeekFrom::End(0))?;
        Ok(Backwards::until(file, pos))
    }

    /// From byte `end` of `file` backwards.
    pub fn until(file: File, end: u64) -> Backwards {
        Backwards {
            file,
            pos: end,
            carry: Vec::new(),
            lines: Vec::new(),
            skipping: false,
        }
    }

    /// The line before the last one returned (without its newline), with
    /// the offset it starts at.
    pub fn next_line(&mut self) -> io::Result<Option<(u64, Vec<u8>)>> {
        loop {
            if let Some((at, line)) = self.lines.pop() {
                if !line.is_empty() {
                    return Ok(Some((at, line)));
                }
                continue;
            }
            if self.pos == 0 {
                let rest = std::mem::take(&mut self.carry);
                return Ok((!rest.is_empty() && !self.skipping).then_some((0, rest)));
            }
            let start = self.pos.saturating_sub(BLOCK);
            let mut block = vec![0u8; (self.pos - start) as usize];
            self.file.seek(SeekFrom::Start(start))?;
            self.file.read_exact(&mut block)?;
            self.pos = start;
            block.extend_from_slice(&self.carry);
            self.carry.clear();
            let mut parts: Vec<(u64, Vec<u8>)> = Vec::new();
            let mut at = start;
            for part in block.split(|b| *b == b'\n') {
                parts.push((at, part.to_vec()));
                at += part.len() as u64 + 1;
            }
            let (_, first) = parts.remove(0);
            if self.skipping {
                if parts.is_empty() {
                    // The whole block lies inside the long line.
                    continue;
                }
                // What follows the block's last newline ends the long line.
                parts.pop();
                self.skipping = false;
            }
            self.lines = parts
                .into_iter()
                .filter(|(_, l)| l.len() <= MAX_LINE)
                .collect();
            if first.len() > MAX_LINE {
                self.skipping = true;
            } else {
                self.carry = first;
            }
        }
    }
}

/// The next line of `reader` into `line` (without its newline): `false` at
/// the end. A line longer than [`MAX_LINE`] comes back empty.
fn next_forward(reader: &mut impl io::BufRead, line: &mut Vec<u8>) -> io::Result<bool> {
    line.clear();
    let mut any = false;
    let mut long = false;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !long {
            line.extend_from_slice(chunk);
            if line.len() > MAX_LINE {
                long = true;
                line.clear();
            }
        }
        let used = done.unwrap_or(buf.len());
        reader.consume(used);
        if done.is_some() {
            break;
        }
    }
    Ok(any)
}

/// The fields of a record the filters read, parsed without building the
/// whole record.
#[derive(Debug, Default, Deserialize)]
pub struct Head {
    #[serde(default)]
    pub unix: Option<u64>,
    #[serde(default)]
    pub harness: Option<String>,
    #[serde(default)]
    pub verdict: Option<String>,
    #[serde(default)]
    pub guards: Option<Vec<String>>,
}

/// A record's time alone.
#[derive(Deserialize)]
struct Time {
    #[serde(default)]
    unix: Option<u64>,
}

/// Which records to return.
pub struct Filter<'a> {
    pub wanted: &'a dyn Fn(&Head) -> bool,
    /// Only records of this time or later (seconds since 1970). Records
    /// are in time order but for lines written during a rotation, so
    /// reading backwards stops a minute past it.
    pub since: Option<u64>,
    /// At most this many, the newest (0: all).
    pub limit: usize,
}

impl Filter<'_> {
    fn passes(&self, head: &Head) -> bool {
        self.since.is_none_or(|s| head.unix.is_some_and(|t| t >= s)) && (self.wanted)(head)
    }
}

/// Gives each record of the project's log that passes the filter to
/// `emit` (the JSON line as written), oldest first, across the rotated log
/// and the log. Two passes: backwards from the end to find where the
/// records asked for start (the `limit`-th newest, or the `since` bound),
/// then forwards from there, so memory does not grow with the log, and
/// `--limit 5` reads a few blocks of any log.
pub fn read(
    root: &str,
    filter: &Filter,
    emit: &mut dyn FnMut(&[u8]) -> io::Result<()>,
) -> io::Result<()> {
    let (_, dir) = match audit_dir(false) {
        Ok(d) => d,
        Err(StateError::Io(_, e)) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    let n = names(root);
    // Oldest first: the rotated log, then the log, each as long as it is now.
    let mut files: Vec<Option<(File, u64)>> = Vec::new();
    for name in [&n.old, &n.log] {
        // A file that cannot be opened (a link, no permission) is for
        // `check` to report; the other may still be read.
        let opened = dir.open_read(name).ok().and_then(|f| {
            let m = f.metadata().ok()?;
            m.is_file().then_some((f, m.len()))
        });
        files.push(opened);
    }
    let parse = |line: &[u8]| serde_json::from_slice::<Head>(line).ok();
    // Pass 1: where to start, and how many to give.
    let mut start = (0usize, 0u64);
    let mut count = usize::MAX;
    if filter.limit > 0 || filter.since.is_some() {
        count = 0;
        'files: for i in (0..files.len()).rev() {
            let Some((file, len)) = &files[i] else {
                continue;
            };
            let file = file.try_clone()?;
            let mut lines = Backwards::until(file, *len);
            while let Some((at, line)) = lines.next_line()? {
                if filter.limit == 0 {
                    // Only the `since` bound is wanted: the time alone.
                    let Ok(Time { unix }) = serde_json::from_slice::<Time>(&line) else {
                        continue;
                    };
                    if let (Some(since), Some(t)) = (filter.since, unix)
                        && t + 60 < since
                    {
                        break 'files;
                    }
                    count = usize::MAX;
                    start = (i, at);
                    continue;
                }
                let Some(head) = parse(&line) else { continue };
                if let Some(since) = filter.since
                    && head.unix.is_some_and(|t| t + 60 < since)
                {
                    break 'files;
                }
                if filter.passes(&head) {
                    count += 1;
                    start = (i, at);
                    if filter.limit > 0 && count >= filter.limit {
                        break 'files;
                    }
                }
            }
        }
        if count == 0 {
            return Ok(());
        }
    }
    // Pass 2: forwards from there.
    let mut given = 0usize;
    let mut line = Vec::new();
    for (i, opened) in files.iter().enumerate().skip(start.0) {
        let Some((file, len)) = opened else { continue };
        let from = if i == start.0 { start.1 } else { 0 };
        let mut file = file.try_clone()?;
        file.seek(SeekFrom::Start(from))?;
        let mut reader = io::BufReader::with_capacity(64 * 1024, file.take(len - from));
        while next_forward(&mut reader, &mut line)? {
            if line.is_empty() {
                continue;
            }
            let Some(head) = parse(&line) else { continue };
            if !filter.passes(&head) {
                continue;
            }
            emit(&line)?;
            given += 1;
            if given >= count {
                return Ok(());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_backwards(text: &[u8]) -> Vec<String> {
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(text).unwrap();
        let mut b = Backwards::new(f).unwrap();
        let mut out = Vec::new();
        while let Some((at, l)) = b.next_line().unwrap() {
            // Each line starts where its offset says.
            let mut whole = Vec::new();
            let mut g = b.file.try_clone().unwrap();
            g.seek(SeekFrom::Start(at)).unwrap();
            g.take(l.len() as u64).read_to_end(&mut whole).unwrap();
            assert_eq!(whole, l);
            out.push(String::from_utf8(l).unwrap());
        }
        out
    }

    #[test]
    fn lines_are_read_from_the_end_across_blocks() {
        let mut text = String::new();
        for i in 0..50_000 {
            text.push_str(&format!("{{\"n\":{i}}}\n"));
        }
        let got = lines_backwards(text.as_bytes());
        assert_eq!(got.len(), 50_000);
        assert_eq!(got[0], "{\"n\":49999}");
        assert_eq!(got[49_999], "{\"n\":0}");
        // No final newline, empty lines, one line only.
        assert_eq!(lines_backwards(b"a\n\nb"), ["b", "a"]);
        assert_eq!(lines_backwards(b"only"), ["only"]);
        assert!(lines_backwards(b"").is_empty());
    }

    #[test]
    fn a_line_longer_than_the_bound_is_skipped() {
        let mut text = b"first\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        text.extend_from_slice(b"\nlast\n");
        let got = lines_backwards(&text);
        assert!(
            got == ["last", "first"],
            "{:?}",
            got.iter().map(String::len).collect::<Vec<_>>()
        );
    }

    #[test]
    fn lines_are_read_forwards_and_a_long_one_comes_back_empty() {
        let mut text = b"a\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        text.extend_from_slice(b"\nb\nc");
        let mut reader = io::BufReader::with_capacity(4096, &text[..]);
        let mut line = Vec::new();
        let mut got = Vec::new();
        while next_forward(&mut reader, &mut line).unwrap() {
            got.push(String::from_utf8(line.clone()).unwrap());
        }
        assert_eq!(got, ["a", "", "b", "c"]);
    }

    /// A state folder of its own for each test: `append` and `check` use
    /// the folder given, through these helpers.
    fn setup() -> (tempfile::TempDir, Dir, Key, Names) {
        let tmp = tempfile::tempdir().unwrap();
        let state = Dir::state_at(tmp.path()).unwrap();
        let key = seal::key(&state, true).unwrap().unwrap();
        let audit = state.sub("audit", true).unwrap();
        (tmp, audit, key, names("/p"))
    }

    fn write(dir: &Dir, n: &Names, key: &Key, line: &str) {
        append_locked(dir, n, Some(key), line).unwrap();
    }

    fn read_all(dir: &Dir, name: &str) -> Vec<Value> {
        let Ok(f) = dir.open_read(name) else {
            return Vec::new();
        };
        let mut b = Backwards::new(f).unwrap();
        let mut out = Vec::new();
        while let Some((_, l)) = b.next_line().unwrap() {
            out.push(serde_json::from_slice(&l).unwrap());
        }
        out.reverse();
        out
    }

    #[test]
    fn the_log_rotates_at_its_bound_and_keeps_one_old_file() {
        let (_tmp, dir, key, n) = setup();
        let pad = "x".repeat(1000);
        let line = |i: usize| format!("{{\"n\":{i},\"pad\":\"{pad}\"}}");
        let per_file = (ROTATE_AT / 1000) as usize + 1;
        for i in 0..(2 * per_file + 10) {
            write(&dir, &n, &key, &line(i));
        }
        let log = dir.lstat(&n.log).unwrap().unwrap().len();
        let old = dir.lstat(&n.old).unwrap().unwrap().len();
        assert!(
            log < ROTATE_AT + 2000 && old < ROTATE_AT + 2000,
            "{log} {old}"
        );
        // The newest are in the log, the ones before in the rotated file.
        let last = read_all(&dir, &n.log);
        assert_eq!(last.last().unwrap()["n"], 2 * per_file + 9);
        let before = read_all(&dir, &n.old);
        assert_eq!(
            before.last().unwrap()["n"].as_u64().unwrap() + 1,
            last[0]["n"].as_u64().unwrap()
        );
        // Nothing was found wrong along the way.
        assert!(problems(&dir, &n, &read_seal(&dir, &n.seal, Some(&key))).is_empty());
        assert!(
            !last
                .iter()
                .chain(&before)
                .any(|r| r["verdict"] == "tampered")
        );
    }

    #[test]
    fn concurrent_writers_lose_and_tear_no_line() {
        let (_tmp, dir, key, n) = setup();
        let dir = std::sync::Arc::new(dir);
        let pad = "y".repeat(6000);
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let dir = dir.clone();
                let key = key.clone();
                let pad = pad.clone();
                std::thread::spawn(move || {
                    let n = names("/p");
                    let lock = dir.open_rw(&n.lock).unwrap();
                    for i in 0..200 {
                        // (Polling is not fair: on a loaded machine one
                        // thread may wait long for its turn.)
                        store::lock_within(&lock, Duration::from_secs(300)).unwrap();
                        append_locked(
                            &dir,
                            &n,
                            Some(&key),
                            &format!("{{\"t\":{t},\"i\":{i},\"pad\":\"{pad}\"}}"),
                        )
                        .unwrap();
                        lock.unlock().unwrap();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let mut all = read_all(&dir, &n.old);
        all.extend(read_all(&dir, &n.log));
        // 8 × 200 × 6 KB is about 9.6 MB: one rotation, every line whole.
        assert_eq!(all.len(), 1600);
        let mut seen = std::collections::HashSet::new();
        for r in &all {
            assert!(seen.insert((r["t"].as_u64().unwrap(), r["i"].as_u64().unwrap())));
        }
    }

    #[test]
    fn tampering_is_found_recorded_and_survived() {
        let (tmp, dir, key, n) = setup();
        let audit = tmp.path().join("audit");
        let log = audit.join(&n.log);
        write(&dir, &n, &key, "{\"n\":1}");
        write(&dir, &n, &key, "{\"n\":2}");
        let seal = || read_seal(&dir, &n.seal, Some(&key));
        assert!(problems(&dir, &n, &seal()).is_empty());

        // Emptied.
        std::fs::write(&log, "").unwrap();
        let p = problems(&dir, &n, &seal());
        assert!(p.iter().any(|p| p.contains("was cut")), "{p:?}");
        write(&dir, &n, &key, "{\"n\":3}");
        let records = read_all(&dir, &n.log);
        assert_eq!(records[0]["verdict"], "tampered");
        assert!(records[0]["summary"].as_str().unwrap().contains("was cut"));
        assert_eq!(records[1]["n"], 3);
        assert!(problems(&dir, &n, &seal()).is_empty());

        // Deleted.
        std::fs::remove_file(&log).unwrap();
        assert!(
            problems(&dir, &n, &seal())
                .iter()
                .any(|p| p.contains("was deleted"))
        );
        write(&dir, &n, &key, "{\"n\":4}");
        assert_eq!(read_all(&dir, &n.log)[0]["verdict"], "tampered");

        // Replaced by a link to /dev/null: not written through, moved aside.
        #[cfg(unix)]
        {
            std::fs::remove_file(&log).unwrap();
            std::os::unix::fs::symlink("/dev/null", &log).unwrap();
            assert!(
                problems(&dir, &n, &seal())
                    .iter()
                    .any(|p| p.contains("symbolic link"))
            );
            write(&dir, &n, &key, "{\"n\":5}");
            assert!(std::fs::symlink_metadata(&log).unwrap().is_file());
            assert!(
                std::fs::symlink_metadata(audit.join(&n.aside))
                    .unwrap()
                    .file_type()
                    .is_symlink()
            );
            assert_eq!(read_all(&dir, &n.log).last().unwrap()["n"], 5);
        }

        // Made unreadable: moved aside, a fresh log made.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&log, std::fs::Permissions::from_mode(0o000)).unwrap();
            assert!(
                problems(&dir, &n, &seal())
                    .iter()
                    .any(|p| p.contains("permissions"))
            );
            write(&dir, &n, &key, "{\"n\":6}");
            let mode = std::fs::metadata(&log).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
            assert_eq!(read_all(&dir, &n.log).last().unwrap()["n"], 6);
        }

        // What `hookc doctor` is told, now and after the guard made it good.
        let state = Dir::state_at(tmp.path()).unwrap();
        std::fs::write(&log, "").unwrap();
        let told = findings_of(Ok(health_in(&state, &dir, "/p")), true);
        assert!(
            told.iter().any(|f| f.problem && f.what.contains("was cut")),
            "{told:?}"
        );
        write(&dir, &n, &key, "{\"n\":6.5}");
        let told = findings_of(Ok(health_in(&state, &dir, "/p")), true);
        assert!(
            told.iter().all(|f| !f.what.starts_with("the audit log")),
            "{told:?}"
        );
        assert!(
            told.iter().any(|f| f.problem && f.what.contains("time(s)")),
            "{told:?}"
        );
        let linked = findings_of(Err(StateError::Link(tmp.path().into())), true);
        assert!(
            linked[0].problem && linked[0].what.contains("symbolic link"),
            "{linked:?}"
        );

        // A seal written by hand does not verify.
        std::fs::write(
            audit.join(&n.seal),
            "{\"log\":null,\"old\":null,\"tampered\":0,\"mac\":\"00\"}",
        )
        .unwrap();
        assert!(
            problems(&dir, &n, &seal())
                .iter()
                .any(|p| p.contains("does not verify"))
        );
        write(&dir, &n, &key, "{\"n\":7}");
        match seal() {
            // A forged seal's count is not believed: counting starts again.
            ReadSeal::Sealed(s) => assert_eq!(s.tampered, 1, "{s:?}"),
            _ => panic!("the guard seals again"),
        }
    }
}
