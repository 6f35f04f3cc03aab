//! The run-time judge's two questions (`hookc exec`, see `src/supervise/`):
//! may this program start ([`exec_stop`]), and may this process touch this
//! file ([`Files`]). Both hold what really happens against the same guards
//! the static guard uses; neither refuses what it cannot read, since
//! everything a program does after its start is judged again when it does it.

use crate::ir::{Decision, Event, Guard, HarnessId, ToolKind};
use crate::paths::{self, PathSet};
use crate::shell::access::Access;

use super::evaluator::{damaged, guard_regex_matches, strictest};
use super::{
    Call, CallTool, Compiled, Evaluator, Facts, Hit, Seen, Verdict, asks_for, compile, opacity,
    path_set, tool_applies, touches_guard,
};

/// Shell builtins and keywords a guard may name that never start a
/// program where the shell has them built in (bash, dash, zsh): the
/// run-time judge never sees them.
const BUILTINS: &[&str] = &[
    ".",
    ":",
    "[",
    "alias",
    "bg",
    "bind",
    "break",
    "builtin",
    "caller",
    "cd",
    "command",
    "compgen",
    "complete",
    "continue",
    "declare",
    "dirs",
    "disown",
    "echo",
    "enable",
    "eval",
    "exec",
    "exit",
    "export",
    "false",
    "fc",
    "fg",
    "getopts",
    "hash",
    "history",
    "jobs",
    "kill",
    "let",
    "local",
    "logout",
    "mapfile",
    "popd",
    "printf",
    "pushd",
    "pwd",
    "read",
    "readarray",
    "readonly",
    "return",
    "set",
    "shift",
    "shopt",
    "source",
    "suspend",
    "test",
    "times",
    "trap",
    "true",
    "type",
    "typeset",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "wait",
];

/// Whether the run-time judge holds a call to `guard` while it runs: a
/// pre-tool guard for the shell tool whose conditions are `command`
/// patterns on programs (not shell builtins) or `path` globs, with no
/// `regex` (which reads the whole line) and no `run` program. For such a
/// guard a line it cannot read may run under `hookc exec` (`opaque
/// "supervise"`).
pub fn enforced_at_run_time(guard: &Guard) -> bool {
    let shell = Call {
        event: Some(Event::PreTool),
        tool: Some(CallTool {
            kind: Some(ToolKind::Shell),
            ..CallTool::default()
        }),
        ..Call::default()
    };
    let builtin = |program: &str| {
        BUILTINS
            .iter()
            .any(|b| super::glob_word(program.trim(), b) || program.trim() == *b)
    };
    guard.event == Event::PreTool
        && tool_applies(guard, &shell)
        && guard.regexes.is_empty()
        && guard.run.is_none()
        && (!guard.commands.is_empty() || !guard.paths.is_empty())
        && !guard.commands.iter().any(|c| builtin(&c.program))
}

/// The strictest guard that stops `call`, a single program start spelled as
/// one line from its real argument vector, or `None`. Only a guard with
/// command patterns can stop a program start, and only when a pattern
/// matches a command of the reading outright, or names a program that
/// decides inside itself what it runs (`Analysis::within`): what else the
/// static reading would call opaque is not held against the start, since
/// every program it may lead to is judged again when it starts, and every
/// file it touches when it touches it ([`Files`]). The guard's regexes must match too, and its
/// path globs must cover a file the command touches, or one the reading
/// cannot name (closed world), as for a static call.
pub fn exec_stop(evaluator: &Evaluator, call: &Call) -> Result<Option<Verdict>, String> {
    let facts = Facts::new(call);
    let Some((index, first_bytes)) = evaluator.index_of(call.event) else {
        return Ok(None);
    };
    let Some(analysis) = facts.analysis() else {
        return Ok(None);
    };
    let mut hits = Vec::new();
    for i in index.candidates(call, &facts, first_bytes) {
        let guard = evaluator.guard(i)?;
        if guard.commands.is_empty() || !tool_applies(&guard, call) {
            continue;
        }
        let described = analysis
            .commands
            .iter()
            .any(|c| guard.commands.iter().any(|p| p.matches(c)));
        // A program that decides inside itself what it runs: no later
        // start shows it (closed world).
        if let Some((_, why)) = analysis
            .within
            .iter()
            .find(|(program, _)| guard.commands.iter().any(|p| p.names(program)))
        {
            hits.push(Hit {
                guard: guard.name.clone(),
                from: guard.from.clone(),
                decision: guard.decision,
                reason: format!(
                    "hookc cannot tell what this program runs: {why}. Spell the command exactly. {}",
                    guard.reason
                ),
                message: guard.message.clone(),
            });
            continue;
        }
        if !described {
            continue;
        }
        let compiled = compile(&guard).map_err(|e| damaged(i, &guard, &e))?;
        if !guard_regex_matches(&guard, &compiled, call, &facts)
            .map_err(|e| damaged(i, &guard, &e))?
        {
            continue;
        }
        if let Some(paths) = path_set(&guard, &compiled, call) {
            let touched = facts.touched();
            let named = touched.iter().any(|seen| {
                asks_for(&guard, seen) && touches_guard(&guard, paths, seen, call, &facts)
            });
            if !named && opacity::unnamed(&guard, &facts).is_none() {
                continue;
            }
        }
        hits.push(Hit {
            guard: guard.name.clone(),
            from: guard.from.clone(),
            decision: guard.decision,
            reason: guard.reason.clone(),
            message: guard.message.clone(),
        });
    }
    Ok(strictest(hits))
}

/// The guards that judge a file a supervised process touches: those of the
/// pre-tool event that apply to the shell tool and name files with nothing
/// else (a guard that also needs a command or a regex is judged at the
/// program start, where its command line is known).
pub struct Files {
    guards: Vec<(Guard, Compiled)>,
    /// The project root and the home folder, each as it is on disk (links
    /// resolved), since the supervisor reports real paths.
    root: Option<String>,
    home: Option<String>,
    harness: HarnessId,
}

impl Files {
    /// `root` and `home` as the call knows them; their links are resolved
    /// here.
    pub fn new(
        evaluator: &Evaluator,
        harness: HarnessId,
        root: Option<&str>,
        home: Option<&str>,
    ) -> Result<Files, String> {
        let real = |p: Option<&str>| {
            let p = p?;
            Some(
                std::fs::canonicalize(p)
                    .map(|r| r.to_string_lossy().into_owned())
                    .unwrap_or_else(|_| p.to_owned()),
            )
        };
        let mut files = Files {
            guards: Vec::new(),
            root: real(root),
            home: real(home),
            harness,
        };
        let shell = files.call();
        for (i, guard) in evaluator.guards_of(Event::PreTool)?.into_iter().enumerate() {
            if guard.paths.is_empty()
                || !guard.commands.is_empty()
                || !guard.regexes.is_empty()
                || guard.run.is_some()
                || !guard.decision.refuses() && guard.decision != Decision::Ask
                || !tool_applies(&guard, &shell)
            {
                continue;
            }
            let compiled = compile(&guard).map_err(|e| damaged(i, &guard, &e))?;
            files.guards.push((guard, compiled));
        }
        Ok(files)
    }

    /// Whether a guard looks at files that are only read (else an open for
    /// reading need not be judged).
    pub fn reads(&self) -> bool {
        self.guards
            .iter()
            .any(|(g, _)| g.access != crate::ir::PathAccess::Write)
    }

    /// A shell call of this harness in the project.
    fn call(&self) -> Call {
        Call {
            event: Some(Event::PreTool),
            tool: Some(CallTool {
                kind: Some(ToolKind::Shell),
                ..CallTool::default()
            }),
            root: self.root.clone(),
            home: self.home.clone(),
            harness: Some(self.harness),
            ..Call::default()
        }
    }

    /// The strictest guard that refuses `access` to the file at the real,
    /// absolute `path` (`tree`: a folder moved with all it holds), or `None`.
    pub fn judge(&self, path: &str, access: Access, tree: bool) -> Option<Verdict> {
        if self.guards.is_empty() {
            return None;
        }
        let call = self.call();
        let facts = Facts::new(&call);
        let root = self.root.as_deref();
        let home = self.home.as_deref();
        let normalized = paths::normalize(path, root, home);
        // Moving the project, the home folder or a folder above either moves
        // every file a guard names there.
        let above = |of: Option<&str>| {
            of.is_some_and(|of| {
                of == path || of.starts_with(&format!("{}/", path.trim_end_matches('/')))
            })
        };
        let seen = Seen {
            tree,
            anything: tree && (above(root) || above(home)),
            ..Seen::new(
                normalized.clone(),
                paths::home_form(&normalized, root, home),
                access,
            )
        };
        let hits: Vec<Hit> = self
            .guards
            .iter()
            .filter(|(guard, compiled)| {
                let paths: Option<&PathSet> = path_set(guard, compiled, &call);
                paths.is_some_and(|paths| {
                    asks_for(guard, &seen) && touches_guard(guard, paths, &seen, &call, &facts)
                })
            })
            .map(|(guard, _)| Hit {
                guard: guard.name.clone(),
                from: guard.from.clone(),
                decision: guard.decision,
                reason: guard.reason.clone(),
                message: guard.message.clone(),
            })
            .collect();
        strictest(hits)
    }
}

/// A file's device and inode.
type FileId = (u64, u64);

/// A file of a guarded program.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Program {
    name: String,
    dev: u64,
    ino: u64,
    size: u64,
    path: std::path::PathBuf,
}

/// The programs the command guards name, as files on this machine: a
/// program started from another name of one (a link, a hard link) or from a
/// copy of one is that program, whatever it is called (`cp /usr/bin/git g;
/// ./g push --force` is `git push --force`). A copy is known by its bytes:
/// only a file of the same size as a guarded program is read.
pub struct Programs {
    /// The names the command guards give literally.
    names: Vec<String>,
    /// A command guard names its program with a glob (`python*`).
    globbed: bool,
    /// Each guarded program's files.
    files: Vec<Program>,
    /// The command patterns' programs (`git`, `{rm,unlink}`, `python*`).
    patterns: Vec<crate::shell::pattern::CommandPattern>,
    /// The dynamic loaders of this machine as files, found when first asked.
    loaders: std::cell::OnceCell<Vec<(u64, u64, u64, std::path::PathBuf)>>,
    /// Digests of the files read so far, by device and inode.
    digests: std::cell::RefCell<std::collections::HashMap<FileId, Option<[u8; 32]>>>,
}

/// Programs whose program interpreter (`PT_INTERP`) names the machine's
/// dynamic loader: any one of them that is there will do.
const LOADER_USERS: &[&str] = &[
    "/bin/sh",
    "/usr/bin/sh",
    "/usr/bin/env",
    "/bin/true",
    "/usr/bin/true",
];

/// Whether a file name is one a dynamic loader is installed under:
/// glibc's `ld-linux*.so*` (`ld-linux-x86-64.so.2`,
/// `ld-linux-aarch64.so.1`), `ld64.so*` and `ld.so`, musl's `ld-musl-*.so*`.
pub fn is_loader_name(name: &str) -> bool {
    let so = |rest: &str| rest.contains(".so");
    name == "ld.so"
        || name.strip_prefix("ld-linux").is_some_and(so)
        || name.strip_prefix("ld64").is_some_and(so)
        || name.strip_prefix("ld-musl-").is_some_and(so)
}

/// The program interpreter an ELF file names (`PT_INTERP`: the dynamic
/// loader the kernel starts for it), read from at most its first pages.
fn interpreter_of(path: &std::path::Path) -> Option<std::path::PathBuf> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = crate::disk::open_nonblocking(path).ok()?;
    let mut header = [0u8; 64];
    file.read_exact(&mut header).ok()?;
    // Little-endian ELF only: the machines the run-time judge runs on.
    if header[..4] != *b"\x7fELF" || header[5] != 1 {
        return None;
    }
    let wide = header[4] == 2;
    let u16_at = |b: &[u8], at: usize| u16::from_le_bytes([b[at], b[at + 1]]) as u64;
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as u64;
    let u64_at = |b: &[u8], at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap());
    let (phoff, phentsize, phnum) = if wide {
        (
            u64_at(&header, 32),
            u16_at(&header, 54),
            u16_at(&header, 56),
        )
    } else {
        (
            u32_at(&header, 28),
            u16_at(&header, 42),
            u16_at(&header, 44),
        )
    };
    let size = phentsize.checked_mul(phnum)?;
    if size > 64 * 1024 || phentsize < if wide { 56 } else { 32 } {
        return None;
    }
    let mut headers = vec![0u8; size as usize];
    file.seek(SeekFrom::Start(phoff)).ok()?;
    file.read_exact(&mut headers).ok()?;
    let (offset, length) = headers
        .chunks_exact(phentsize as usize)
        .find(|h| u32_at(h, 0) == 3)
        .map(|h| {
            if wide {
                (u64_at(h, 8), u64_at(h, 32))
            } else {
                (u32_at(h, 4), u32_at(h, 16))
            }
        })?;
    if length == 0 || length > 4096 {
        return None;
    }
    let mut name = vec![0u8; length as usize];
    file.seek(SeekFrom::Start(offset)).ok()?;
    file.read_exact(&mut name).ok()?;
    let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
    name.truncate(end);
    String::from_utf8(name).ok().map(Into::into)
}

/// The literal names a command pattern's program gives (`{rm,unlink}` is
/// two), added to `names`; whether it names one by a glob instead.
fn program_names(program: &str, names: &mut Vec<String>) -> bool {
    let p = program.trim();
    let listed = p.strip_prefix('{').and_then(|p| p.strip_suffix('}'));
    let mut globbed = false;
    for name in listed.map_or(vec![p], |l| l.split(',').collect()) {
        if name.is_empty() || name.contains(['*', '?', '[', '/']) {
            globbed = true;
        } else {
            names.push(name.to_owned());
        }
    }
    globbed
}

/// Whether the program file at `path`, found for `name`, is that program
/// itself: not a link to a file that is many programs, each chosen by the
/// name it is started by (`dropdb` and `createdb` are links to one
/// `pg_wrapper`; on BusyBox `rm` and `wget` are one file), nor such a
/// file installed under the name (`busybox`, `toybox`, coreutils' multicall
/// build). Only a file that is the program tells a copy of it apart: a
/// copy of a dispatcher under a new name runs none of its programs.
fn is_itself(path: &std::path::Path, name: &str) -> bool {
    std::fs::canonicalize(path).is_ok_and(|real| {
        real.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
            let n = n.strip_suffix(".exe").unwrap_or(n);
            n == name && !matches!(n, "busybox" | "toybox" | "coreutils")
        })
    })
}

/// A file's device, inode and size; `None` where the system has no inode
/// numbers to tell two names of one file apart (then no file is known as
/// another program: the run-time judge is Linux-only, and the static
/// guard presumes no more than it can read).
#[cfg(unix)]
fn identity(meta: &std::fs::Metadata) -> Option<(u64, u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino(), meta.size()))
}

#[cfg(not(unix))]
fn identity(_: &std::fs::Metadata) -> Option<(u64, u64, u64)> {
    None
}

impl Programs {
    /// The programs `evaluator`'s command guards name literally (a glob
    /// names no file), found in `path` (a `PATH`) and the usual folders.
    pub fn new(evaluator: &Evaluator, path: Option<&std::ffi::OsStr>) -> Result<Programs, String> {
        Ok(Programs::of(&evaluator.guards_of(Event::PreTool)?, path))
    }

    /// [`Programs::new`] for the command guards among `guards`.
    pub fn of<'g>(
        guards: impl IntoIterator<Item = &'g Guard>,
        path: Option<&std::ffi::OsStr>,
    ) -> Programs {
        let mut names: Vec<String> = Vec::new();
        let mut globbed = false;
        let mut patterns = Vec::new();
        for guard in guards {
            for c in &guard.commands {
                globbed |= program_names(&c.program, &mut names);
                patterns.push(c.clone());
            }
        }
        let mut programs = Programs::from_names(names, globbed, path);
        programs.patterns = patterns;
        programs
    }

    /// The files of the program a command pattern names (`git`, or
    /// `{rm,unlink}`).
    pub fn named_files(program: &str, path: Option<&std::ffi::OsStr>) -> Programs {
        let mut names = Vec::new();
        let globbed = program_names(program, &mut names);
        Programs::from_names(names, globbed, path)
    }

    fn from_names(
        mut names: Vec<String>,
        globbed: bool,
        path: Option<&std::ffi::OsStr>,
    ) -> Programs {
        names.sort();
        names.dedup();
        let mut dirs: Vec<std::path::PathBuf> = path
            .map(|p| std::env::split_paths(p).collect())
            .unwrap_or_default();
        for usual in [
            "/usr/local/sbin",
            "/usr/local/bin",
            "/usr/sbin",
            "/usr/bin",
            "/sbin",
            "/bin",
        ] {
            dirs.push(usual.into());
        }
        // Each folder once: a PATH that names the usual folders (most do)
        // would have every name looked up twice there.
        let mut seen = std::collections::HashSet::new();
        dirs.retain(|d| seen.insert(d.clone()));
        let mut files = Vec::new();
        for name in &names {
            for dir in dirs.iter().filter(|d| d.is_absolute()) {
                let path = dir.join(name);
                if let Ok(meta) = std::fs::metadata(&path)
                    && meta.is_file()
                    && is_itself(&path, name)
                    && let Some((dev, ino, size)) = identity(&meta)
                {
                    files.push(Program {
                        name: name.clone(),
                        dev,
                        ino,
                        size,
                        path,
                    });
                }
            }
        }
        files.sort();
        files.dedup_by(|a, b| (a.dev, a.ino) == (b.dev, b.ino));
        Programs {
            names,
            globbed,
            files,
            patterns: Vec::new(),
            loaders: Default::default(),
            digests: Default::default(),
        }
    }

    /// Whether a command guard names the program `name` (a file name, by
    /// a literal name or a glob).
    pub fn guarded(&self, name: &str) -> bool {
        self.patterns.iter().any(|p| p.names(name))
    }

    /// Whether the file at `path` is a dynamic loader: installed under a
    /// loader's name (see [`is_loader_name`], by its real path), or the
    /// loader this machine's programs name (`PT_INTERP` of `/bin/sh`) under
    /// another name: a link, a hard link, a copy (known by its bytes).
    pub fn is_loader(&self, path: &std::path::Path) -> bool {
        let real = std::fs::canonicalize(path).ok();
        if real
            .as_deref()
            .and_then(|r| r.file_name())
            .and_then(|n| n.to_str())
            .is_some_and(is_loader_name)
        {
            return true;
        }
        let loaders = self.loaders.get_or_init(|| {
            let mut found = Vec::new();
            for user in LOADER_USERS {
                let Some(loader) = interpreter_of(std::path::Path::new(user)) else {
                    continue;
                };
                if let Ok(meta) = std::fs::metadata(&loader)
                    && let Some((dev, ino, size)) = identity(&meta)
                    && !found.iter().any(|&(d, i, _, _)| (d, i) == (dev, ino))
                {
                    found.push((dev, ino, size, loader));
                }
            }
            found
        });
        let Some((dev, ino, size)) = std::fs::metadata(path).ok().as_ref().and_then(identity)
        else {
            return false;
        };
        if loaders.iter().any(|&(d, i, _, _)| (d, i) == (dev, ino)) {
            return true;
        }
        let same_size: Vec<_> = loaders.iter().filter(|l| l.2 == size).collect();
        if same_size.is_empty() {
            return false;
        }
        let Some(digest) = self.digest((dev, ino), path) else {
            return false;
        };
        same_size
            .iter()
            .any(|(d, i, _, p)| self.digest((*d, *i), p) == Some(digest))
    }

    /// Whether no command guard can describe a program start of these
    /// words, with no reading needed: every word is plain (letters, digits
    /// and `_./:=+,@%-`, so no shell syntax, no string a shell would run),
    /// no word holds a name a guard gives its program (by any spelling a
    /// reading finds: a path, a `g`-named or multicall form holds the
    /// name), and no guard names its program by a glob.
    pub fn out_of_reach(&self, words: &[String]) -> bool {
        let plain = |w: &String| {
            w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_./:=+,@%-".contains(&b))
        };
        !self.globbed
            && words.iter().all(plain)
            && !words
                .iter()
                .any(|w| self.names.iter().any(|n| w.contains(n.as_str())))
    }

    /// The guarded program the file at `path` is, if any.
    pub fn named(&self, path: &std::path::Path) -> Option<&str> {
        let (dev, ino, size) = identity(&std::fs::metadata(path).ok()?)?;
        let key = (dev, ino);
        if let Some(hit) = self.files.iter().find(|f| (f.dev, f.ino) == key) {
            return Some(&hit.name);
        }
        if !self.files.iter().any(|f| f.size == size) {
            return None;
        }
        let digest = self.digest(key, path)?;
        self.files
            .iter()
            .filter(|f| f.size == size)
            .find(|f| self.digest((f.dev, f.ino), &f.path) == Some(digest))
            .map(|f| f.name.as_str())
    }

    fn digest(&self, key: (u64, u64), path: &std::path::Path) -> Option<[u8; 32]> {
        use sha2::{Digest, Sha256};
        if let Some(known) = self.digests.borrow().get(&key) {
            return *known;
        }
        let digest = crate::disk::open_nonblocking(path)
            .ok()
            .and_then(|mut file| {
                let mut hasher = Sha256::new();
                std::io::copy(&mut file, &mut hasher).ok()?;
                Some(hasher.finalize().into())
            });
        self.digests.borrow_mut().insert(key, digest);
        digest
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// A copy or a link of a guarded program is that program; a file that
    /// is many programs (BusyBox, pg_wrapper) is none of them, whatever it
    /// is called.
    #[test]
    fn a_copy_is_its_program_and_a_multicall_file_is_none() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let rm = ["/usr/bin/rm", "/bin/rm"]
            .into_iter()
            .map(std::path::Path::new)
            .find(|p| p.is_file() && is_itself(p, "rm"))
            .expect("an rm program that is itself");
        std::fs::copy(rm, d.join("tidy")).unwrap();
        std::os::unix::fs::symlink(rm, d.join("del")).unwrap();
        std::fs::write(d.join("busybox"), b"many programs").unwrap();
        std::os::unix::fs::symlink(d.join("busybox"), d.join("rm")).unwrap();
        std::os::unix::fs::symlink(d.join("busybox"), d.join("wget")).unwrap();
        let programs = Programs::named_files("{rm,unlink}", Some(d.as_os_str()));
        assert_eq!(programs.named(&d.join("tidy")), Some("rm"));
        assert_eq!(programs.named(&d.join("del")), Some("rm"));
        assert_eq!(programs.named(&d.join("wget")), None);
        assert_eq!(programs.named(&d.join("busybox")), None);
        std::fs::write(d.join("other"), b"a program of its own").unwrap();
        assert_eq!(programs.named(&d.join("other")), None);
        // Debian's PostgreSQL tools are links to one dispatcher.
        std::fs::write(d.join("pg_wrapper"), b"runs the tool it is named").unwrap();
        for tool in ["dropdb", "createdb"] {
            std::os::unix::fs::symlink(d.join("pg_wrapper"), d.join(tool)).unwrap();
        }
        let dropdb = Programs::named_files("dropdb", Some(d.as_os_str()));
        assert_eq!(dropdb.named(&d.join("createdb")), None);
    }

    /// The dynamic loader is known by its names, and under another name as
    /// the loader `/bin/sh` names (a copy); other programs are not loaders.
    #[test]
    fn the_dynamic_loader_is_known_by_its_name_and_by_its_bytes() {
        for name in [
            "ld-linux-x86-64.so.2",
            "ld-linux-aarch64.so.1",
            "ld-linux.so.2",
            "ld64.so.2",
            "ld.so",
            "ld-musl-x86_64.so.1",
        ] {
            assert!(is_loader_name(name), "{name}");
        }
        for name in ["ld", "ld.bfd", "ld-linux", "libc.so.6", "ldd"] {
            assert!(!is_loader_name(name), "{name}");
        }
        let Some(loader) = interpreter_of(std::path::Path::new("/bin/sh")) else {
            // A static /bin/sh names no loader.
            return;
        };
        let programs = Programs::named_files("git", None);
        assert!(programs.is_loader(&loader));
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(&loader, dir.path().join("runner")).unwrap();
        assert!(programs.is_loader(&dir.path().join("runner")));
        assert!(!programs.is_loader(std::path::Path::new("/bin/sh")));
    }
}
