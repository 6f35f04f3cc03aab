//! The hookc that answers for the hooks ("the pin").
//!
//! A generated hook believes an answer that ends with the proof line for its
//! nonce (see `templates/shim.sh.hbs`). That tells `hookc guard` from `true`
//! or a stub, but not from a program written to pass: whatever the hook
//! runs, runs as the user and reads the nonce from its own environment. Nor
//! can any other secret help, since a fake reads what the user can read. So
//! the defence is where the program comes from: the hooks run a program the
//! user's own `hookc build` recorded, kept where the agent may not write.
//!
//! `hookc build` copies the hookc that runs it into the user's state
//! directory ([`crate::audit::state_dir`], `~/.local/state/hookc`), as
//! `bin/hookc-<version>-<stamp>`, and writes the copy's path as the first
//! line of `pin` there (the second line, for `hookc doctor` and `hookc
//! guard`, is JSON: where the copy came from and what both files were).
//! The hooks read that line with the shell's `read` and run the copy, not
//! whatever `hookc` comes first on PATH or in the project.
//!
//! A copy, not the installed file's path: the installed hookc can be
//! replaced by calls no guard could read as touching it (an `npm ci` after
//! an edit to `package.json`, `pip install -r` after one to
//! `requirements.txt`, a package's install script). With the copy, a
//! replaced install changes nothing the hooks run until the user builds
//! again, and what the agent must not touch is one directory of the user's.
//! [`refusal`] refuses that directory (and the way up to it), the installed
//! hookc and its folder, a `hookc` put where the hooks or the user's shell
//! look for one, and the commands that install hookc, on every call.
//!
//! Which hookc a hook runs, in order: `HOOKC_BIN` when the harness's
//! environment sets it (the user's explicit choice, which the agent cannot
//! change: its calls run in the harness's children, and the shell profiles
//! and the commands that set a session's environment are refused); else
//! the pin; else, on a machine where hookc never built (a teammate right
//! after cloning), `hookc` on PATH, then the project's npm platform
//! package (`node_modules/@hookc/cli-<platform>/bin/hookc`),
//! `node_modules/.bin/hookc` or `.venv/bin/hookc`. A pin whose copy is
//! gone or not executable refuses the call: falling back to PATH there
//! would let whoever deleted it choose the program.

use std::io::{Seek, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::eval::{Call, Hit, Verdict};
use crate::ir::{Decision, Event};

/// The pin's name in the state directory.
pub const PIN: &str = "pin";
/// The folder of the copies in the state directory.
pub const BIN: &str = "bin";

/// The pin file: `<state>/pin`; `None` without a state directory.
pub fn pin_file() -> Option<PathBuf> {
    crate::audit::state_dir().map(|d| d.join(PIN))
}

/// What a file is, as far as hookc can tell without reading it: a file
/// replaced (renamed over) has another inode, one written in place another
/// change time, and neither can be set back by the user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    pub dev: u64,
    pub ino: u64,
    pub size: u64,
    pub mtime: i64,
    pub mtime_nsec: i64,
    pub ctime: i64,
    pub ctime_nsec: i64,
}

impl Identity {
    #[cfg(unix)]
    pub fn of(meta: &std::fs::Metadata) -> Identity {
        use std::os::unix::fs::MetadataExt;
        Identity {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: meta.mtime(),
            mtime_nsec: meta.mtime_nsec(),
            ctime: meta.ctime(),
            ctime_nsec: meta.ctime_nsec(),
        }
    }

    #[cfg(not(unix))]
    pub fn of(meta: &std::fs::Metadata) -> Identity {
        let modified = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .unwrap_or_default();
        Identity {
            dev: 0,
            ino: 0,
            size: meta.len(),
            mtime: modified.as_secs() as i64,
            mtime_nsec: i64::from(modified.subsec_nanos()),
            ctime: 0,
            ctime_nsec: 0,
        }
    }
}

/// The pin's second line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The version of the hookc copied.
    pub version: String,
    /// Where it was copied from: the hookc that ran `hookc build`.
    pub source: String,
    pub source_identity: Identity,
    /// The copy's.
    pub identity: Identity,
    /// When (seconds since 1970).
    pub pinned: u64,
}

/// A pin as read.
#[derive(Debug, Clone)]
pub struct Pin {
    /// The pin file itself.
    pub file: PathBuf,
    /// Its first line: the program the hooks run.
    pub bin: PathBuf,
    /// Its second line, when it reads.
    pub record: Option<Record>,
}

/// What the state directory says about the hookc the hooks run.
#[derive(Debug)]
pub enum Found {
    /// No pin (or no state directory): the hooks look on PATH.
    None,
    Pin(Pin),
    /// Something is at the pin's place that is not a pin hookc can read:
    /// the hooks refuse every call.
    Unreadable(PathBuf, String),
}

/// Read the pin, as the hooks do: whatever is at its place is a pin.
pub fn read() -> Found {
    let Some(file) = pin_file() else {
        return Found::None;
    };
    if std::fs::symlink_metadata(&file).is_err() {
        return Found::None;
    }
    let text = match crate::disk::read_bytes(&file, 64 * 1024) {
        Ok(Some((bytes, _))) => String::from_utf8(bytes).ok(),
        Ok(None) => return Found::None,
        Err(e) => return Found::Unreadable(file, e.to_string()),
    };
    let Some(text) = text else {
        return Found::Unreadable(file, "it is not text".to_owned());
    };
    let mut lines = text.lines();
    let bin = lines.next().unwrap_or_default();
    if !Path::new(bin).is_absolute() {
        return Found::Unreadable(file, "its first line is not an absolute path".to_owned());
    }
    let record = lines.next().and_then(|l| serde_json::from_str(l).ok());
    Found::Pin(Pin {
        file,
        bin: PathBuf::from(bin),
        record,
    })
}

/// Why `hookc build` could not pin itself.
#[derive(Debug)]
enum PinError {
    /// Neither an absolute `$XDG_STATE_HOME` nor an absolute `$HOME`.
    NoStateDir,
    Io(String, std::io::Error),
    /// A path the hooks could not read back from the pin.
    NotText(PathBuf),
    /// The running hookc changed while it was copied.
    Changed(String),
}

impl std::fmt::Display for PinError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PinError::NoStateDir => {
                f.write_str("there is no state directory (neither $XDG_STATE_HOME nor $HOME is an absolute path)")
            }
            PinError::Io(what, e) => write!(f, "could not {what}: {e}"),
            PinError::NotText(p) => write!(
                f,
                "{} holds a newline or is not UTF-8, which the hooks cannot read back",
                p.display()
            ),
            PinError::Changed(p) => write!(f, "{p} changed while it was being copied"),
        }
    }
}

/// An I/O error while doing `what`.
fn io(what: impl FnOnce() -> String) -> impl FnOnce(std::io::Error) -> PinError {
    move |e| PinError::Io(what(), e)
}

/// `hookc build`'s last step: make the running hookc the one the hooks run.
/// A failure is a warning (the project's files are written and right): it
/// says what the hooks run instead and how to fix it.
pub fn record(diags: &mut Diagnostics) {
    let Err(e) = pin_this() else {
        return;
    };
    let instead = match read() {
        Found::Pin(p) => format!(
            "the hooks keep running the hookc an earlier build recorded ({})",
            p.bin.display()
        ),
        Found::Unreadable(file, _) => format!(
            "the hooks refuse every call until {} is a pin hookc wrote",
            file.display()
        ),
        Found::None => "the hooks run the first hookc they find (HOOKC_BIN, PATH, node_modules/@hookc/cli-<platform>/bin, node_modules/.bin, .venv/bin), which the agent may be able to replace".to_owned(),
    };
    let help = match e {
        PinError::NoStateDir => {
            "set HOME (or XDG_STATE_HOME) to an absolute path, the same for this shell and the agent's harness, and run `hookc build` again"
        }
        _ => {
            "check that the state directory is yours and writable, then run `hookc build` again; `hookc doctor` shows which hookc the hooks run"
        }
    };
    diags.push(
        Diagnostic::new(
            Code::PinFailed,
            format!("hookc could not record itself as the hookc the hooks run: {e}; {instead}"),
        )
        .help(help),
    );
}

/// Copy the running hookc into `<state>/bin` (unless the pin already names
/// a copy of it) and point the pin at the copy; the copy's path.
fn pin_this() -> Result<PathBuf, PinError> {
    let state = crate::audit::state_dir().ok_or(PinError::NoStateDir)?;
    let bins = state.join(BIN);
    real_dir(&state)?;
    real_dir(&bins)?;
    // Builds of several projects at once take turns here, so that none
    // removes a copy another has just pinned. (Advisory only: a lock that
    // cannot be taken does not stop the build.)
    let lock = std::fs::File::open(&bins).ok();
    if let Some(lock) = &lock {
        let _ = lock.lock();
    }
    let (mut source, shown) = open_running()?;
    let source_meta = source.metadata().map_err(io(|| format!("read {shown}")))?;
    let source_identity = Identity::of(&source_meta);
    let version = crate::version::Version::current().to_string();
    let previous = match read() {
        Found::Pin(p) => Some(p),
        _ => None,
    };
    if let Some(p) = &previous
        && let Some(r) = &p.record
        && r.version == version
        && r.source == shown
        && (r.source_identity == source_identity || r.identity == source_identity)
        && p.bin.parent() == Some(bins.as_path())
        && std::fs::symlink_metadata(&p.bin)
            .is_ok_and(|m| m.is_file() && Identity::of(&m) == r.identity)
    {
        return Ok(p.bin.clone());
    }
    let copy = copy_into(&mut source, &source_identity, &shown, &bins, &version)?;
    let identity = std::fs::symlink_metadata(&copy)
        .map(|m| Identity::of(&m))
        .map_err(io(|| format!("read {}", copy.display())))?;
    let record = Record {
        version,
        source: shown,
        source_identity,
        identity,
        pinned: crate::audit::now(),
    };
    if let Err(e) = write_pin(&state, &copy, &record) {
        let _ = std::fs::remove_file(&copy);
        return Err(e);
    }
    collect(&bins, &copy, previous.as_ref().map(|p| p.bin.as_path()));
    Ok(copy)
}

/// The file of the program running now, open, and the path it goes by.
/// On Linux the kernel's own handle on it (`/proc/self/exe`), so that what
/// is copied is what runs even if its path was replaced since it started.
fn open_running() -> Result<(std::fs::File, String), PinError> {
    let exe = std::env::current_exe().map_err(io(|| "find the running hookc".to_owned()))?;
    let shown = exe.to_string_lossy();
    let shown = shown
        .strip_suffix(" (deleted)")
        .unwrap_or(&shown)
        .to_owned();
    let opened = if cfg!(target_os = "linux") {
        std::fs::File::open("/proc/self/exe").or_else(|_| std::fs::File::open(&exe))
    } else {
        std::fs::File::open(&exe)
    };
    let file = opened.map_err(io(|| format!("open {shown}")))?;
    Ok((file, shown))
}

/// Make `dir` (mode 0700) where missing and check that it is a real
/// directory, not a link to one.
fn real_dir(dir: &Path) -> Result<(), PinError> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(dir)
        .map_err(io(|| format!("make {}", dir.display())))?;
    match std::fs::symlink_metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(PinError::Io(
            format!("use {}", dir.display()),
            std::io::Error::other("it is not a directory (a symbolic link?)"),
        )),
        Err(e) => Err(PinError::Io(format!("read {}", dir.display()), e)),
    }
}

/// A new file in `dir` for hookc alone: never an existing one, never
/// through a link.
fn fresh(path: &Path, mode: u32) -> std::io::Result<std::fs::File> {
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(mode)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC);
    }
    #[cfg(not(unix))]
    let _ = mode;
    o.open(path)
}

/// Copy `source` into `bins` under a new name; the copy's path.
fn copy_into(
    source: &mut std::fs::File,
    identity: &Identity,
    shown: &str,
    bins: &Path,
    version: &str,
) -> Result<PathBuf, PinError> {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let name = format!(
        "hookc-{version}-{stamp:x}-{}{}",
        std::process::id(),
        std::env::consts::EXE_SUFFIX
    );
    let copy = bins.join(&name);
    let tmp = bins.join(format!(".{name}.tmp"));
    let written = (|| {
        let mut out = fresh(&tmp, 0o700)?;
        source.rewind()?;
        std::io::copy(source, &mut out)?;
        out.flush()?;
        out.sync_all()?;
        Ok(out.metadata()?.len())
    })();
    let done = match written {
        Err(e) => Err(PinError::Io(
            format!("copy {shown} to {}", tmp.display()),
            e,
        )),
        // What was copied is what the identity describes: the file did not
        // change (a rename over it aside, which leaves the open one alone).
        Ok(len) => match source.metadata() {
            Ok(m) if Identity::of(&m) == *identity && len == identity.size => {
                std::fs::rename(&tmp, &copy)
                    .map_err(io(|| format!("rename {} into place", tmp.display())))
            }
            Ok(_) => Err(PinError::Changed(shown.to_owned())),
            Err(e) => Err(PinError::Io(format!("read {shown}"), e)),
        },
    };
    if let Err(e) = done {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(copy)
}

/// Write the pin for `copy`: a fresh file renamed over the old pin, so a
/// hook reads the old pin or the new one, never half of one.
fn write_pin(state: &Path, copy: &Path, record: &Record) -> Result<(), PinError> {
    let Some(line) = copy.to_str().filter(|s| !s.contains(['\n', '\r'])) else {
        return Err(PinError::NotText(copy.to_owned()));
    };
    let text = format!(
        "{line}\n{}\n",
        serde_json::to_string(record).expect("a record is JSON")
    );
    let pin = state.join(PIN);
    let tmp = state.join(format!(".{PIN}.{}.tmp", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    let written = fresh(&tmp, 0o600).and_then(|mut f| {
        f.write_all(text.as_bytes())?;
        f.sync_all()
    });
    let done = written.and_then(|()| std::fs::rename(&tmp, &pin));
    if let Err(e) = done {
        let _ = std::fs::remove_file(&tmp);
        return Err(PinError::Io(format!("write {}", pin.display()), e));
    }
    Ok(())
}

/// Remove the copies no pin names any more: all but `keep` and the one the
/// previous pin named, which a hook that read it a moment ago may be
/// about to run.
fn collect(bins: &Path, keep: &Path, previous: Option<&Path>) {
    let Ok(entries) = std::fs::read_dir(bins) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let ours =
            name.starts_with("hookc-") || (name.starts_with(".hookc-") && name.ends_with(".tmp"));
        if ours && path != keep && Some(path.as_path()) != previous {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// What hookc's refusals of these calls say to the model.
pub const REASON: &str = "This call would replace or remove the hookc program that answers for the hooks (the copy `hookc build` recorded, the installed hookc, or a `hookc` where the hooks or the user's shell look for one), or install another hookc, which only the user may do. Do not try another way: ask the user to update hookc themselves and run `hookc build`.";

/// hookc's own guard over the program that answers for the hooks: a tool
/// call that writes, removes, renames or links over the pin or its copy
/// (or a folder on the way to them), over the installed hookc or a `hookc`
/// where one is looked for, or that installs hookc, is refused before it
/// runs, whatever the policy says. `None` for every other call.
///
/// It goes by [`crate::audit::SELF_GUARD`]'s name: no approval code is
/// offered for it (the user replaces hookc from their own terminal).
pub fn refusal(event: Event, call: &Call) -> Option<Verdict> {
    if event != Event::PreTool || (call.command.is_none() && call.paths.is_empty()) {
        return None;
    }
    let refused = installs_hookc(call) || Guarded::here(call).touched_by(call);
    refused.then(|| self_refusal(REASON))
}

/// A refusal by hookc's own guard, which no approval code is offered for.
pub fn self_refusal(reason: &str) -> Verdict {
    Verdict {
        decision: Decision::Deny,
        hits: vec![Hit {
            guard: crate::audit::SELF_GUARD.to_owned(),
            from: None,
            decision: Decision::Deny,
            reason: reason.to_owned(),
            message: None,
        }],
        rewritten: None,
    }
}

/// Whether `call` writes, removes, renames or links over one of `files`
/// (absolute paths) or anything below one, as [`refusal`] sees its own
/// files: through the file tools and every shell command the access model
/// reads, and by name in a line hookc cannot read in full.
pub fn writes_any(call: &Call, files: &[PathBuf]) -> bool {
    let mut g = Guarded::default();
    for f in files {
        g.add_tree(f);
    }
    g.touched_by(call)
}

/// The files and folders [`refusal`] keeps from the agent.
#[derive(Debug, Default)]
struct Guarded {
    /// Absolute paths: writing one, or anything below it, is refused.
    trees: Vec<String>,
    /// Absolute paths of folders: writing the folder itself (removing,
    /// renaming or replacing it) is refused; files may come and go in it.
    dirs: Vec<String>,
}

impl Guarded {
    /// What guards the hooks where `call` runs: the state directory (the
    /// pin and its copy) and every folder up to it; the hookc the pin was
    /// copied from, the hookc answering now and the one HOOKC_BIN names,
    /// each with its folder; and `hookc` in each folder of PATH and the
    /// project's `node_modules/.bin`, `node_modules/@hookc` (npm's platform
    /// packages) and `.venv/bin`, where the hooks (with no pin) and the
    /// user's shell find it.
    fn here(call: &Call) -> Guarded {
        let mut g = Guarded::default();
        if let Some(state) = crate::audit::state_dir() {
            g.tree_and_way_up(&state);
        }
        if let Found::Pin(pin) = read() {
            g.tree_and_way_up(&pin.bin);
            if let Some(record) = &pin.record {
                g.file_and_folder(Path::new(&record.source));
            }
        }
        if let Ok(exe) = std::env::current_exe() {
            g.file_and_folder(&exe);
        }
        if let Some(bin) = std::env::var_os("HOOKC_BIN") {
            g.file_and_folder(Path::new(&bin));
        }
        if let Some(path) = std::env::var_os("PATH") {
            for dir in std::env::split_paths(&path).filter(|d| d.is_absolute()) {
                g.add_tree(&dir.join("hookc"));
            }
        }
        if let Some(root) = call.root.as_deref().map(Path::new) {
            g.add_tree(&root.join("node_modules/.bin/hookc"));
            g.add_tree(&root.join("node_modules/@hookc"));
            g.add_tree(&root.join(".venv/bin/hookc"));
        }
        g
    }

    fn add_tree(&mut self, path: &Path) {
        if let Some(p) = absolute_text(path)
            && !self.trees.contains(&p)
        {
            self.trees.push(p);
        }
    }

    fn add_dir(&mut self, path: &Path) {
        if let Some(p) = absolute_text(path)
            && !self.dirs.contains(&p)
        {
            self.dirs.push(p);
        }
    }

    fn tree_and_way_up(&mut self, path: &Path) {
        self.add_tree(path);
        for up in path.ancestors().skip(1) {
            self.add_dir(up);
        }
    }

    fn file_and_folder(&mut self, path: &Path) {
        self.add_tree(path);
        if let Some(dir) = path.parent() {
            self.add_dir(dir);
        }
    }

    fn touched_by(&self, call: &Call) -> bool {
        self.written_over(call) || self.folder_written(call) || self.named_where_unreadable(call)
    }

    /// Whether the call writes one of [`trees`](Self::trees) or a file below
    /// one, as a `path` guard with `access="write"` sees it: through the
    /// file tools and every shell command the access model reads, links
    /// resolved where the call runs.
    fn written_over(&self, call: &Call) -> bool {
        use crate::ir::{Guard, PathAccess, Prefilter, Tool, ToolKind};
        let root = call.root.as_deref();
        let home = call.home.as_deref();
        let paths: Vec<String> = self
            .trees
            .iter()
            .filter_map(|p| glob_of(p, root, home))
            .collect();
        if paths.is_empty() {
            return false;
        }
        let tool = |tool| Tool::Known { tool };
        let guard = Guard {
            name: crate::audit::SELF_GUARD.to_owned(),
            event: Event::PreTool,
            tools: vec![
                tool(ToolKind::Write),
                tool(ToolKind::Edit),
                tool(ToolKind::Shell),
            ],
            commands: Vec::new(),
            regexes: Vec::new(),
            paths,
            access: PathAccess::Write,
            // A PowerShell line, which hookc does not read, is refused
            // here only when it names one of the files (see
            // `named_where_unreadable`); the policy's own guards refuse
            // the rest, with what to run instead.
            opaque: Decision::Allow,
            decision: Decision::Deny,
            reason: REASON.to_owned(),
            message: None,
            prefilter: Prefilter::default(),
            rewrite: Vec::new(),
            run: None,
            from: None,
            examples: Vec::new(),
            allow_degraded: Vec::new(),
            origin: crate::source::Span::default(),
        };
        let policy = crate::ir::Policy {
            format: crate::ir::FORMAT,
            source: String::new(),
            hookc_version: None,
            built_by: String::new(),
            install: String::new(),
            // Not read by an evaluation.
            timeout: 0,
            on_error: Decision::Deny,
            targets: Vec::new(),
            windows: None,
            harness_options: Default::default(),
            audit: false,
            allow_once: false,
            never_override: Vec::new(),
            extends: Vec::new(),
            guards: vec![guard],
        };
        crate::eval::Evaluator::new(&policy)
            .evaluate(call)
            .is_some_and(|v| v.decision == Decision::Deny)
    }

    /// Whether the call writes one of [`dirs`](Self::dirs) itself: `rm -rf`
    /// or `mv` of a folder on the way to the pin, or of the installed
    /// hookc's folder, by any name (a glob that could name it, a link to it).
    fn folder_written(&self, call: &Call) -> bool {
        use crate::shell::access::Access;
        if self.dirs.is_empty() {
            return false;
        }
        let root = call.root.as_deref();
        let home = call.home.as_deref();
        let dirs: Vec<String> = self
            .dirs
            .iter()
            .map(|d| crate::paths::normalize(d, root, home))
            .collect();
        let mut written: Vec<(String, Option<crate::shell::access::Expansion>)> = Vec::new();
        let tool_writes = call
            .tool
            .as_ref()
            .is_none_or(|t| t.kind != Some(crate::ir::ToolKind::Read) || !t.also.is_empty());
        if tool_writes {
            written.extend(call.paths.iter().map(|p| (p.clone(), None)));
        }
        let from_shell = written.len();
        if call.shell == crate::eval::Shell::Posix
            && let Some(analysis) = call.analysis()
        {
            written.extend(
                crate::shell::unknown::touches(
                    &analysis,
                    Some(&|reading: &str| call.read_reading(&analysis, reading)),
                )
                .into_iter()
                .filter(|t| t.access != Access::Read)
                .map(|t| (t.path, t.glob)),
            );
        }
        if written.len() > crate::eval::MAX_RESOLVED {
            // More names than can be resolved in time: any may be a link
            // to one of the folders.
            return true;
        }
        let named = |path: &str| {
            crate::paths::normalize(&crate::paths::in_dir(path, call.cwd.as_deref()), root, home)
        };
        let hits = |path: &str, glob: &Option<crate::shell::access::Expansion>| -> Vec<usize> {
            let path = named(path);
            if let Some(how) = glob {
                return (0..dirs.len())
                    .filter(|&i| glob_names(&path, how.dot, &dirs[i]))
                    .collect();
            }
            // A link to one of them is that folder.
            let on_disk = match root {
                Some(r) if !path.starts_with('/') => Path::new(r).join(&path),
                _ => PathBuf::from(&path),
            };
            let real = std::fs::canonicalize(on_disk).ok().and_then(|real| {
                real.to_str()
                    .map(|r| crate::paths::normalize(r, root, home))
            });
            (0..dirs.len())
                .filter(|&i| dirs[i] == path || real.as_deref() == Some(dirs[i].as_str()))
                .collect()
        };
        let mut hit: Vec<usize> = Vec::new();
        for (i, (path, glob)) in written.iter().enumerate() {
            let found = hits(path, glob);
            // A file tool never writes into a folder: it writes the folder.
            if i < from_shell && !found.is_empty() {
                return true;
            }
            hit.extend(found);
        }
        if hit.is_empty() {
            return false;
        }
        // A file copied or moved into a folder (`cp rg ~/.cargo/bin/`)
        // leaves the folder standing; anything else that writes it is
        // refused, and so is a use hookc cannot place.
        let Some(analysis) = call.analysis() else {
            return true;
        };
        !hit.iter()
            .all(|&i| only_put_into(&analysis, &dirs[i], &named))
    }

    /// Whether a line hookc cannot read in full (something opaque, a word
    /// known only when it runs such as `$x` or `$(…)`, or PowerShell, which
    /// hookc does not read) names one of [`trees`](Self::trees), a file
    /// below one, or a folder on the way to one (`x=~/.local/state; rm -rf
    /// $x`), in any spelling of the home folder, quotes and backslashes
    /// aside. `/`, the home folder and the folders above it are on the way
    /// to everything and name nothing here.
    fn named_where_unreadable(&self, call: &Call) -> bool {
        let Some(command) = call.command.as_deref() else {
            return false;
        };
        let unreadable = call.shell == crate::eval::Shell::PowerShell
            || call
                .analysis()
                .is_some_and(|a| a.is_opaque() || a.commands.iter().any(|c| !c.unknown.is_empty()));
        if !unreadable {
            return false;
        }
        let home = call
            .home
            .as_deref()
            .map(|h| h.trim_end_matches('/'))
            .filter(|h| h.starts_with('/'));
        let line = squeeze(command);
        let separators = |c: char| c.is_whitespace() || ";|&()<>=:`,".contains(c);
        line.split(separators).any(|word| {
            let mut word = word.trim_end_matches('/').to_owned();
            if let Some(home) = home {
                for spelling in ["${HOME}", "$HOME", "~"] {
                    if let Some(rest) = word.strip_prefix(spelling)
                        && (rest.is_empty() || rest.starts_with('/'))
                    {
                        word = format!("{home}{rest}");
                        break;
                    }
                }
            }
            let too_wide = word.len() <= 1
                || !word.starts_with('/')
                || home.is_some_and(|h| h == word || h.starts_with(&format!("{word}/")));
            !too_wide
                && self.trees.iter().any(|tree| {
                    *tree == word
                        || word.starts_with(&format!("{tree}/"))
                        || tree.starts_with(&format!("{word}/"))
                })
        })
    }
}

/// Whether every word of the line that names the folder `dir` is the
/// destination of a plain copy or move of files into it (`cp`, `mv`,
/// `install`, `ln` with the folder as their last operand, not recursive,
/// not told to treat it as a file), and there is at least one. `named`
/// spells a word as `dir` is spelled.
fn only_put_into(
    analysis: &crate::shell::Analysis,
    dir: &str,
    named: &dyn Fn(&str) -> String,
) -> bool {
    let mut seen = false;
    for c in &analysis.commands {
        if c.redirects.iter().chain(&c.reads).any(|r| named(r) == dir) {
            return false;
        }
        let mut options = true;
        let positional: Vec<usize> = (0..c.args.len())
            .filter(|&i| {
                let a = &c.args[i];
                if a == "--" && options {
                    options = false;
                    return false;
                }
                !(options && a.starts_with('-') && a.len() > 1)
            })
            .collect();
        let program = c.program.trim_end_matches(".exe");
        let flag = |short: &[char], long: &[&str]| {
            c.args.iter().any(|a| {
                long.contains(&a.as_str())
                    || (a.starts_with('-') && !a.starts_with("--") && a.contains(short))
            })
        };
        let plain = match program {
            "cp" => !flag(
                &['r', 'R', 'a', 'T', 't'],
                &[
                    "--recursive",
                    "--archive",
                    "--no-target-directory",
                    "--target-directory",
                ],
            ),
            "mv" | "install" | "ln" => !flag(
                &['T', 't'],
                &["--no-target-directory", "--target-directory"],
            ),
            _ => false,
        };
        for (i, a) in c.args.iter().enumerate() {
            if named(a) != dir {
                continue;
            }
            if !(plain && positional.last() == Some(&i) && positional.len() >= 2) {
                return false;
            }
            seen = true;
        }
    }
    seen
}

/// `path` as UTF-8 text, when it is absolute (the rest cannot be guarded
/// by name).
fn absolute_text(path: &Path) -> Option<String> {
    path.is_absolute()
        .then(|| path.to_str().map(str::to_owned))
        .flatten()
}

/// A path glob (as `path` guards take them) that names exactly `path`:
/// relative to the project when inside it, wildcards written as classes.
/// `None` for the project root itself, which is no file the hooks run.
fn glob_of(path: &str, root: Option<&str>, home: Option<&str>) -> Option<String> {
    let normal = crate::paths::normalize(path, root, home);
    if normal == "." || normal.is_empty() {
        return None;
    }
    let literal: String = normal
        .chars()
        .map(|c| match c {
            '*' | '?' | '[' | ']' | '{' | '}' => format!("[{c}]"),
            '\\' => "\\\\".to_owned(),
            c => c.to_string(),
        })
        .collect();
    Some(if normal.starts_with('/') {
        literal
    } else {
        format!("./{literal}")
    })
}

/// Whether the glob `glob` could expand to `path` itself (not only to a
/// file below it): component by component, a wildcard not matching a
/// leading `.` unless `dot`, as the shell expands it. A brace group (which
/// may span `/`) or a `**` (the access model's "everything below", dotfiles
/// too) is matched against the whole path instead, which may match more,
/// never less.
fn glob_names(glob: &str, dot: bool, path: &str) -> bool {
    let matcher = |g: &str| {
        globset::GlobBuilder::new(g)
            .literal_separator(true)
            .build()
            .map(|g| g.compile_matcher())
    };
    if glob.contains('{') || glob.contains("**") {
        return matcher(glob).map_or(true, |m| m.is_match(path));
    }
    let globs: Vec<&str> = glob.split('/').collect();
    let parts: Vec<&str> = path.split('/').collect();
    globs.len() == parts.len()
        && globs.iter().zip(&parts).all(|(g, p)| {
            if !dot && p.starts_with('.') && !g.starts_with('.') {
                return false;
            }
            matcher(g).map_or(true, |m| m.is_match(p))
        })
}

/// A line with its quotes and backslashes taken out: `~/.lo'ca'l` names
/// `~/.local`.
fn squeeze(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, '\'' | '"' | '\\'))
        .collect()
}

/// Verbs of the package managers that put a program in place.
const INSTALL_VERBS: &[&str] = &[
    "install",
    "i",
    "in",
    "ins",
    "inst",
    "insta",
    "instal",
    "isnt",
    "isntal",
    "isntall",
    "add",
    "update",
    "udpate",
    "up",
    "upgrade",
    "reinstall",
    "link",
    "ln",
    "inject",
    "binstall",
    "quickinstall",
    "get",
    "use",
    "global",
    "local",
];

/// Programs that install packages by name, given an install verb.
const INSTALLERS: &[&str] = &[
    "cargo",
    "npm",
    "pnpm",
    "yarn",
    "bun",
    "cnpm",
    "deno",
    "volta",
    "pip",
    "pip3",
    "pipx",
    "uv",
    "poetry",
    "pdm",
    "rye",
    "hatch",
    "conda",
    "mamba",
    "micromamba",
    "brew",
    "port",
    "nix",
    "nix-env",
    "mise",
    "rtx",
    "asdf",
    "aqua",
    "proto",
    "scoop",
    "choco",
    "winget",
    "gem",
    "go",
    "apt",
    "apt-get",
    "dnf",
    "yum",
    "pacman",
    "zypper",
    "apk",
    "snap",
    "flatpak",
    "pkg",
];

/// Programs that install what they are given, whatever the verb.
const INSTALL_PROGRAMS: &[&str] = &[
    "cargo-binstall",
    "cargo-quickinstall",
    "easy_install",
    "eget",
    "ubi",
    "binstall",
];

/// Commands that change the environment of programs the session starts
/// later (a harness restarted from the desktop), and the variables that
/// choose the hookc that answers.
const ENVIRONMENT_SETTERS: &[(&str, &[&str])] = &[
    ("launchctl", &["setenv", "unsetenv"]),
    (
        "systemctl",
        &["set-environment", "unset-environment", "import-environment"],
    ),
    ("dbus-update-activation-environment", &[]),
    ("setx", &[]),
];
const CHOOSING_VARIABLES: &[&str] = &["HOOKC_BIN", "PATH", "HOME", "XDG_STATE_HOME"];

/// Whether a shell call installs hookc (a package manager or installer
/// given a word that names it, or a word hookc cannot read), or sets a
/// variable that chooses the hookc for programs started later.
fn installs_hookc(call: &Call) -> bool {
    let Some(command) = call.command.as_deref() else {
        return false;
    };
    if call.shell == crate::eval::Shell::PowerShell {
        let line = squeeze(command).to_ascii_lowercase();
        return line.contains("hookc") && mentions_installing(&line);
    }
    let Some(analysis) = call.analysis() else {
        return false;
    };
    let installing = analysis.commands.iter().any(|c| {
        let program = c.program.to_ascii_lowercase();
        let program = program.trim_end_matches(".exe");
        let words = |set: &[&str]| c.args.iter().any(|a| set.contains(&a.as_str()));
        let installer = INSTALL_PROGRAMS.contains(&program)
            || (INSTALLERS.contains(&program) && words(INSTALL_VERBS))
            || (program.starts_with("python")
                && c.args.windows(2).any(|w| {
                    w[0] == "-m" && matches!(w[1].as_str(), "pip" | "pip3" | "pipx" | "uv")
                })
                && words(INSTALL_VERBS));
        if installer {
            // A word hookc cannot read may name hookc when the line runs.
            return c
                .args
                .iter()
                .any(|a| a.to_ascii_lowercase().contains("hookc"))
                || !c.unknown.is_empty()
                || !c.globs.is_empty();
        }
        ENVIRONMENT_SETTERS.iter().any(|(setter, verbs)| {
            program == *setter
                && (verbs.is_empty() || words(verbs))
                && c.args.iter().any(|a| {
                    CHOOSING_VARIABLES
                        .iter()
                        .any(|v| a == v || a.starts_with(&format!("{v}=")))
                })
        })
    });
    installing || {
        let line = squeeze(command).to_ascii_lowercase();
        analysis.is_opaque() && line.contains("hookc") && mentions_installing(&line)
    }
}

/// Whether a line (lower case) has a word that installs.
fn mentions_installing(line: &str) -> bool {
    line.split(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_')
        .any(|w| {
            matches!(
                w,
                "install" | "add" | "upgrade" | "reinstall" | "update" | "binstall" | "setenv"
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::CallTool;
    use crate::ir::ToolKind;

    const HOME: &str = "/home/u";
    const ROOT: &str = "/home/u/project";

    fn call(tool: ToolKind, command: Option<&str>, path: Option<&str>) -> Call {
        Call {
            event: Some(Event::PreTool),
            tool: Some(CallTool {
                kind: Some(tool),
                native: tool.word().to_owned(),
                ..CallTool::default()
            }),
            command: command.map(str::to_owned),
            paths: path.iter().map(|p| (*p).to_owned()).collect(),
            root: Some(ROOT.to_owned()),
            home: Some(HOME.to_owned()),
            ..Call::default()
        }
    }

    fn shell(command: &str) -> Call {
        call(ToolKind::Shell, Some(command), None)
    }

    /// What a machine with a pin guards: the state directory and the way
    /// up to it, the installed hookc and its folder, `hookc` on PATH and in
    /// the project.
    fn guarded() -> Guarded {
        let mut g = Guarded::default();
        g.tree_and_way_up(Path::new("/home/u/.local/state/hookc"));
        g.file_and_folder(Path::new("/home/u/.cargo/bin/hookc"));
        g.add_tree(Path::new("/home/u/.local/bin/hookc"));
        g.add_tree(Path::new("/home/u/project/node_modules/.bin/hookc"));
        g
    }

    #[test]
    fn replacing_or_removing_what_answers_for_the_hooks_is_refused() {
        let g = guarded();
        for command in [
            "cp /tmp/fake ~/.local/state/hookc/bin/hookc-0.1.0-1",
            "echo x > $HOME/.local/state/hookc/pin",
            "rm -rf ~/.local/state",
            "rm -rf ~/.local",
            "mv ~/.local ~/old-local",
            "cd ~/.local && rm -rf state",
            "rm -rf ~/.local/st*",
            "bash -c 'rm -f ~/.local/state/hookc/pin'",
            "find ~/.local -delete",
            "cp /tmp/fake ~/.cargo/bin/hookc",
            "ln -sf /tmp/fake /home/u/.cargo/bin/hookc",
            "install -m 755 /tmp/fake ~/.local/bin/hookc",
            "rm -rf ~/.cargo/bin",
            "cp /tmp/fake node_modules/.bin/hookc",
            "x=~/.local/state; rm -rf $x",
            "rm -rf \"$(echo ~/.local/state/hookc)\"",
            "eval \"rm -f /home/u/.local/state/hookc/pin\"",
            "cp -r /tmp/backup/.local ~/",
            "cp -r /tmp/x ~/.local",
            "tar -xf a.tar -C ~",
            "mv ~/.local/state /tmp/",
            "rsync -a /tmp/x/ ~/.local/",
            "cp -T /tmp/x ~/.cargo/bin",
        ] {
            assert!(g.touched_by(&shell(command)), "{command}");
        }
        for (tool, path) in [
            (ToolKind::Write, "/home/u/.local/state/hookc/pin"),
            (ToolKind::Edit, "~/.cargo/bin/hookc"),
            (ToolKind::Write, "node_modules/.bin/hookc"),
        ] {
            assert!(g.touched_by(&call(tool, None, Some(path))), "{path}");
        }
    }

    #[test]
    fn everyday_calls_near_those_files_go_ahead() {
        let g = guarded();
        for command in [
            "ls -la ~/.local/state/hookc",
            "cat ~/.cargo/bin/hookc > /dev/null",
            "cp target/release/rg ~/.cargo/bin/rg",
            "cp target/release/rg target/release/fd ~/.cargo/bin/",
            "mv notes.txt ~/",
            "find ~ -name '*.tmp' -delete",
            "tar -xf a.tar -C ~/src",
            "rm -rf ~/.local/share/old-app",
            "cp $f ~/.cache/",
            "cp $f ~/",
            "mkdir -p ~/.local/share/new-app",
            "rm -rf node_modules/.cache",
            "git status",
            "echo $HOME/.local",
        ] {
            assert!(!g.touched_by(&shell(command)), "{command}");
        }
        assert!(!g.touched_by(&call(
            ToolKind::Read,
            None,
            Some("/home/u/.local/state/hookc/pin")
        )));
    }

    #[test]
    fn installing_hookc_in_any_spelling_is_refused() {
        for command in [
            "cargo install hookc",
            "cargo install --force hookc@0.0.1",
            "cargo install --git https://example.com/x/hookc",
            "cargo binstall -y hookc",
            "npm i -g hookc@0.0.1",
            "npm install --global hookc",
            "sudo npm install -g hookc",
            "pnpm add -g hookc",
            "yarn global add hookc",
            "bun add -g hookc",
            "npm install -D hookc@0.0.1",
            "pip install hookc==0.0.1",
            "python3 -m pip install --upgrade hookc",
            "pipx install 'hookc'",
            "uv tool install hookc",
            "brew reinstall hookc",
            "env X=1 cargo install hookc",
            "cargo install $WHAT",
            "npm i -g hook*",
            "launchctl setenv HOOKC_BIN /tmp/fake",
            "systemctl --user set-environment PATH=/tmp/fakes:/usr/bin",
            "eval \"$(echo cargo install hookc)\"",
        ] {
            assert!(installs_hookc(&shell(command)), "{command}");
        }
        for command in [
            "cargo install ripgrep",
            "npm install",
            "npm ci",
            "pip install -r requirements.txt",
            "hookc check",
            "npx hookc test",
            "cargo build --release",
            "brew install jq",
            "launchctl setenv EDITOR vim",
        ] {
            assert!(!installs_hookc(&shell(command)), "{command}");
        }
    }

    #[test]
    fn a_glob_names_a_folder_only_as_the_shell_expands_it() {
        assert!(glob_names(
            "/home/u/.local/st*",
            false,
            "/home/u/.local/state"
        ));
        assert!(glob_names("/tmp/*", false, "/tmp/pt"));
        assert!(!glob_names("/home/u/*", false, "/home/u/.local"));
        assert!(glob_names("/home/u/.*", false, "/home/u/.local"));
        assert!(glob_names("/home/u/*", true, "/home/u/.local"));
        assert!(!glob_names(
            "/home/u/.local/share/*",
            false,
            "/home/u/.local"
        ));
        assert!(glob_names("/home/u/{.local,x}", false, "/home/u/.local"));
    }

    #[test]
    fn a_path_becomes_a_glob_that_names_only_it() {
        assert_eq!(
            glob_of(
                "/home/u/project/node_modules/.bin/hookc",
                Some(ROOT),
                Some(HOME)
            )
            .as_deref(),
            Some("./node_modules/.bin/hookc")
        );
        assert_eq!(
            glob_of("/opt/h[1]/hookc*", Some(ROOT), Some(HOME)).as_deref(),
            Some("/opt/h[[]1[]]/hookc[*]")
        );
        assert_eq!(glob_of(ROOT, Some(ROOT), Some(HOME)), None);
    }

    #[test]
    fn a_pin_is_written_whole_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let copy = dir.path().join("bin/hookc-0.1.0-1");
        let record = Record {
            version: "0.1.0".to_owned(),
            source: "/usr/local/bin/hookc".to_owned(),
            source_identity: Identity::of(&std::fs::metadata(dir.path()).unwrap()),
            identity: Identity::of(&std::fs::metadata(dir.path()).unwrap()),
            pinned: 1,
        };
        write_pin(dir.path(), &copy, &record).unwrap();
        let text = std::fs::read_to_string(dir.path().join(PIN)).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), copy.to_str());
        let back: Record = serde_json::from_str(lines.next().unwrap()).unwrap();
        assert_eq!(back, record);
        // Nothing half-written is left beside it.
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, vec![PIN.to_owned()]);
        // A path the hooks could not read back is not written.
        assert!(write_pin(dir.path(), &dir.path().join("a\nb"), &record).is_err());
    }
}
