//! `extends`: a policy built on another, pinned by digest, that it may
//! tighten and never loosen.
//!
//! The step between reading a policy and resolving it. Each `extends` node
//! names a source (a file by its path from the policy's folder, a file in
//! a git repository at a rev, or an HTTPS URL) and the sha256 `digest` of
//! its bytes. hookc reads or fetches the bytes on every build and refuses
//! them unless they hash to the pin: a changed upstream fails the build
//! until someone pins it on purpose (`hookc update`). A source that cannot
//! be fetched is taken, with a warning, from the copy an earlier build kept
//! in hookc's state folder, so builds work offline. Nothing is fetched for
//! a source without a pin. An extended policy may extend others in turn,
//! a bounded number of layers deep.
//!
//! The upstream's guards and settings then become this policy's, the
//! guards pointing at the `extends` line and carrying where they are
//! written (`from`). The layering is tighten-only, since the point of an
//! organisation's policy is that a repository cannot undo it: redefining
//! an inherited guard, guarding fewer harnesses, a laxer `on-error`, a
//! shorter `timeout`, `self-protection "off"`, `audit-log #false`, a
//! harness option set both ways or a harness safeguard turned off is an
//! error; `allow-once` here lets the
//! user approve this policy's own refusals only.
//!
//! What was resolved is recorded in the build's `policy.lock` ([`lock`]),
//! which `hookc check` compares like every generated file.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sha2::{Digest as _, Sha256};

use crate::ast::{self, ExtendsDecl, Text};
use crate::diag::{Code, Diagnostic, Diagnostics, Severity};
use crate::ir::Extended;
use crate::source::{SourceFile, Span, Spanned};

/// The largest policy an `extends` reads.
const MAX_POLICY: u64 = 4 << 20;

/// How long one git or curl command may take to fetch or read a source.
const FETCH_LIMIT: Duration = Duration::from_secs(120);

/// The most policies one chain of `extends` lays on each other.
const MAX_LAYERS: usize = 8;

/// Where the plain paths of a policy's `extends` lead from.
#[derive(Debug, Clone, PartialEq)]
pub enum Base {
    /// A folder: this policy's, or that of a policy extended by path.
    Dir(PathBuf),
    /// A folder of a git repository at a commit: that of a policy extended
    /// from it, whose own `extends "base.kdl"` is that repository's file.
    Git {
        url: String,
        commit: String,
        dir: String,
    },
    /// The folder of an HTTPS URL (`https://host/org/`): that of a policy
    /// extended from it.
    Url(String),
}

/// Where an `extends` points.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// A file, from the policy's folder.
    File(PathBuf),
    /// `git+URL` with `rev` (default `HEAD`) and `path` in it.
    Git {
        url: String,
        rev: String,
        path: String,
    },
    /// An `https://` URL, fetched with curl.
    Https(String),
}

impl Source {
    /// The source an `extends` node names, or why it names none.
    pub fn of(decl: &ExtendsDecl, base: &Base) -> Result<Source, (Span, String, String)> {
        let text = &decl.source;
        let at = |what: &str, help: &str| Err((text.span, what.to_owned(), help.to_owned()));
        if let Some(url) = text.value.strip_prefix("git+") {
            let Some(path) = &decl.path else {
                return at(
                    "a git source needs the file's `path` in the repository",
                    "add `path=\"policy.kdl\"` (the file's path from the repository's top)",
                );
            };
            let rev = decl.rev.as_ref().map_or("HEAD", |r| r.value.as_str());
            if !fetchable(url) {
                return at(
                    "not a git URL hookc fetches",
                    "name the repository by an https, ssh or file URL, or a path: `git+https://host/org/policies.git`",
                );
            }
            if !path.value.ends_with(".kdl") {
                return Err((path.span, NOT_KDL.to_owned(), NOT_KDL_HELP.to_owned()));
            }
            if rev.is_empty() || rev.starts_with('-') || path.value.is_empty() {
                return Err((
                    decl.rev.as_ref().map_or(path.span, |r| r.span),
                    "not a rev and path hookc reads".to_owned(),
                    "give a branch, tag or commit as `rev` and the file's path in the repository as `path`".to_owned(),
                ));
            }
            return Ok(Source::Git {
                url: url.to_owned(),
                rev: rev.to_owned(),
                path: path.value.trim_start_matches('/').to_owned(),
            });
        }
        if let Some(prop) = decl.rev.as_ref().or(decl.path.as_ref()) {
            return Err((
                prop.span,
                "`rev` and `path` are for git sources".to_owned(),
                "remove it, or name a git repository as `git+URL`".to_owned(),
            ));
        }
        if text.value.starts_with("https://") {
            if text
                .value
                .chars()
                .any(|c| c.is_whitespace() || c.is_control())
            {
                return at("not a URL hookc fetches", "write the URL without spaces");
            }
            return Ok(Source::Https(text.value.clone()));
        }
        if text.value.contains("://") {
            return at(
                "hookc fetches a policy only over HTTPS, or with git",
                "name it by an `https://` URL, or a git repository as `git+URL`, or commit a copy and name its path (the digest pins it all the same)",
            );
        }
        if !text.value.ends_with(".kdl") {
            return at(NOT_KDL, NOT_KDL_HELP);
        }
        match base {
            Base::Dir(dir) => Ok(Source::File(dir.join(&text.value))),
            Base::Url(dir) => {
                // The same server's file, from the extending policy's folder.
                if text.value.starts_with('/') || text.value.split('/').any(|p| p == "..") {
                    return at(
                        "not a file below the folder of the URL it is read from",
                        "name a file below that folder, or give its whole `https://` URL",
                    );
                }
                Ok(Source::Https(format!(
                    "{dir}{}",
                    text.value.trim_start_matches("./")
                )))
            }
            Base::Git { url, commit, dir } => {
                // A file of the same repository, at the same commit.
                let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
                for part in text.value.split('/') {
                    match part {
                        "" | "." => {}
                        ".." if parts.pop().is_some() => {}
                        ".." => {
                            return at(
                                "a path that leaves the repository it is read from",
                                "name a file of the same repository, or another repository as `git+URL`",
                            );
                        }
                        part => parts.push(part),
                    }
                }
                if text.value.starts_with('/') || parts.is_empty() {
                    return at(
                        "not a file of the repository it is read from",
                        "name a file by its path from this policy's folder",
                    );
                }
                Ok(Source::Git {
                    url: url.clone(),
                    rev: commit.clone(),
                    path: parts.join("/"),
                })
            }
        }
    }
}

/// Why a file source must be a `.kdl` file: a policy's `extends` may name
/// any path, and a diagnostic about what it read would show the file's
/// lines (`extends "../../.ssh/id_ed25519"`, pinned by a `hookc update` run
/// in a hostile checkout).
const NOT_KDL: &str = "not a policy file: an extended file's name ends in `.kdl`";
const NOT_KDL_HELP: &str = "name the organisation's policy file (`policy.kdl`, `org.kdl`)";

/// A git URL hookc hands to git: not a word git would read as an option,
/// and no transport that runs a command of the URL's (`ext::sh -c …`), since
/// a policy file (and a fleet's list) is as writable as the repository.
fn fetchable(url: &str) -> bool {
    !url.is_empty() && !url.starts_with('-') && !url.contains("::")
}

/// A pin as written: `sha256:` and 64 lowercase hex digits.
fn valid_pin(pin: &str) -> bool {
    pin.strip_prefix("sha256:").is_some_and(|hex| {
        hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    })
}

/// The pin of `bytes`.
pub fn digest(bytes: &[u8]) -> String {
    let sum = Sha256::digest(bytes);
    let mut out = String::from("sha256:");
    for b in sum {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// The folder of pinned files, by digest: what a build read before, so a
/// build works offline.
fn cache_dir() -> Option<PathBuf> {
    crate::audit::store::state_dir().map(|d| d.join("extends"))
}

/// Where the commit a git source's pinned file was fetched at is kept,
/// so that the lock a build writes from the cache is the one it wrote
/// when it fetched.
fn commit_file(source: &Source, pin: &str) -> Option<PathBuf> {
    let Source::Git { url, rev, path } = source else {
        return None;
    };
    let key = digest(format!("{url}\n{rev}\n{path}\n{pin}").as_bytes());
    Some(cache_dir()?.join("commits").join(key.replace(':', "-")))
}

/// The pinned file from the cache, with its commit for a git source.
fn cached(source: &Source, pin: &str) -> Option<(Vec<u8>, Option<String>)> {
    let file = cache_dir()?.join(pin.replace(':', "-"));
    let (bytes, _) = crate::disk::read_bytes(&file, MAX_POLICY).ok()??;
    // Whatever is there is checked: anyone may have written it.
    if digest(&bytes) != pin {
        return None;
    }
    let commit = match commit_file(source, pin) {
        None => None,
        Some(file) => {
            let text = crate::disk::read_text(&file).ok()??;
            let commit = text.trim();
            if commit.is_empty() || !commit.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            Some(commit.to_owned())
        }
    };
    Some((bytes, commit))
}

fn keep(source: &Source, pin: &str, bytes: &[u8], commit: Option<&str>) {
    let Some(dir) = cache_dir() else {
        return;
    };
    if std::fs::create_dir_all(dir.join("commits")).is_ok() {
        put(&dir, &dir.join(pin.replace(':', "-")), bytes);
        if let (Some(file), Some(commit)) = (commit_file(source, pin), commit) {
            put(&dir.join("commits"), &file, commit.as_bytes());
        }
    }
}

/// Writes `bytes` to `file` in `dir` whole or not at all (a cache: a
/// failure only means the next build fetches again).
fn put(dir: &Path, file: &Path, bytes: &[u8]) {
    use std::io::Write;
    if let Ok(mut temp) = tempfile::NamedTempFile::new_in(dir)
        && temp.write_all(bytes).is_ok()
    {
        let _ = temp.persist(file);
    }
}

/// The bytes of `source`, read or fetched now (never from the cache), and
/// the commit a git rev named.
pub fn fetch(source: &Source) -> Result<(Vec<u8>, Option<String>), String> {
    match source {
        Source::File(path) => match crate::disk::read_bytes(path, MAX_POLICY) {
            Ok(Some((bytes, _))) => Ok((bytes, None)),
            Ok(None) => Err(format!("{}: no such file", path.display())),
            Err(e) => Err(format!("{}: {e}", path.display())),
        },
        Source::Git { url, rev, path } => {
            let dir = cache_dir()
                .ok_or("no state folder to fetch into: neither $XDG_STATE_HOME nor $HOME is an absolute path")?
                .join("git")
                .join(digest(url.as_bytes()).replace(':', "-"));
            if !dir.join("HEAD").is_file() {
                std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                git(&dir, &["init", "--bare", "--quiet"])?;
            }
            git(&dir, &["fetch", "--quiet", "--no-tags", "--", url, rev])?;
            let commit = git(&dir, &["rev-parse", "--verify", "FETCH_HEAD^{commit}"])?;
            let commit = commit.trim().to_owned();
            let bytes = git(&dir, &["cat-file", "blob", &format!("{commit}:{path}")])
                .map_err(|_| format!("{url} at {rev} ({commit}) has no file {path}"))?;
            Ok((bytes.into_bytes(), Some(commit)))
        }
        Source::Https(url) => {
            // `-q` first: no ~/.curlrc. HTTPS only, redirects included.
            let mut cmd = Command::new("curl");
            cmd.args(["-q", "--fail", "--silent", "--show-error", "--location"])
                .args(["--proto", "=https", "--proto-redir", "=https"])
                .args(["--max-time", &FETCH_LIMIT.as_secs().to_string()])
                .args(["--max-filesize", &MAX_POLICY.to_string(), "--", url]);
            run_bounded(cmd, "curl").map(|bytes| (bytes, None))
        }
    }
}

/// `git ARGS` in the bare repository `dir` (see [`run_git`]).
fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let mut all: Vec<&std::ffi::OsStr> = vec!["--git-dir".as_ref(), dir.as_os_str()];
    all.extend(args.iter().map(std::ffi::OsStr::new));
    run_git(&all)
}

/// A shallow clone of `url` (at `rev`, a branch or tag, when given) into
/// the new folder `into`: how `hookc check --org` reads a repository it
/// names by URL. No hooks run, and only the transports [`run_git`] allows.
pub fn clone(url: &str, rev: Option<&str>, into: &Path) -> Result<(), String> {
    if !fetchable(url) {
        return Err(format!("`{url}` is not a git URL hookc clones"));
    }
    let mut args: Vec<&std::ffi::OsStr> = ["clone", "--quiet", "--depth", "1", "--no-tags"]
        .iter()
        .map(std::ffi::OsStr::new)
        .collect();
    if let Some(rev) = rev {
        if rev.starts_with('-') {
            return Err(format!("`{rev}` is not a branch or tag"));
        }
        args.extend(["--branch".as_ref(), std::ffi::OsStr::new(rev)]);
    }
    args.extend(["--".as_ref(), url.as_ref(), into.as_os_str()]);
    run_git(&args).map(drop)
}

/// `git ARGS`, within [`FETCH_LIMIT`]: what it printed, or what went wrong.
/// Only transports that run no command of the URL's, no hooks, and none of
/// the environment's git variables.
fn run_git(args: &[&std::ffi::OsStr]) -> Result<String, String> {
    // The command's name, for messages: after `--git-dir DIR`, if given.
    let skip = if args.first().is_some_and(|a| *a == "--git-dir") {
        2
    } else {
        0
    };
    let verb = args
        .get(skip)
        .map_or(String::new(), |a| a.to_string_lossy().into_owned());
    let mut cmd = Command::new("git");
    cmd.args([
        "-c",
        "protocol.allow=never",
        "-c",
        "protocol.https.allow=always",
        "-c",
        "protocol.ssh.allow=always",
        "-c",
        "protocol.file.allow=always",
        "-c",
        "protocol.git.allow=always",
        "-c",
        "core.hooksPath=/dev/null",
    ])
    .args(args)
    .env("GIT_TERMINAL_PROMPT", "0");
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("GIT_") && name != "GIT_TERMINAL_PROMPT" {
            cmd.env_remove(name);
        }
    }
    let out = run_bounded(cmd, &format!("git {verb}"))?;
    String::from_utf8(out).map_err(|_| format!("git {verb} printed a file that is not UTF-8"))
}

/// Runs `cmd` for at most [`FETCH_LIMIT`]: what it printed (at most a
/// policy's size), or what went wrong, with `what` for the command.
fn run_bounded(mut cmd: Command, what: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| format!("cannot run {what}: {e}"))?;
    // Each pipe drained on its own, so that neither can fill and stall
    // the other.
    let drain = |pipe: Option<Box<dyn Read + Send>>, most: u64| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(pipe) = pipe {
                let _ = pipe.take(most).read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
        MAX_POLICY + 1,
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
        64 << 10,
    );
    let deadline = Instant::now() + FETCH_LIMIT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{what} took over {} s", FETCH_LIMIT.as_secs()));
            }
        }
    };
    let out = out
        .join()
        .map_err(|_| format!("{what}'s output was lost"))?;
    let err = err.join().unwrap_or_default();
    if !status.success() {
        return Err(format!(
            "{what} failed: {}",
            String::from_utf8_lossy(&err).trim()
        ));
    }
    if out.len() as u64 > MAX_POLICY {
        return Err(format!("{what} printed more than a policy may hold"));
    }
    Ok(out)
}

/// Lay the policies `ast` extends under it: check each pin, and merge
/// their guards and settings into `ast`, tighten-only. Errors go to
/// `diags`; what was resolved is returned for the lock.
pub fn layer(
    file: &SourceFile,
    ast: &mut ast::Policy,
    base: &Base,
    diags: &mut Diagnostics,
) -> Vec<Extended> {
    layer_within(file, ast, base, diags, 0)
}

/// [`layer`] for a policy `depth` layers below the one being built. (A
/// circle of `extends` cannot be pinned, since each pin would have to be
/// the digest of a file that holds the other: the bound is for depth.)
fn layer_within(
    file: &SourceFile,
    ast: &mut ast::Policy,
    base: &Base,
    diags: &mut Diagnostics,
    depth: usize,
) -> Vec<Extended> {
    let mut resolved = Vec::new();
    // The nodes stay: self-protection guards the files they name.
    for decl in ast.extends.clone() {
        let Some((upstream, found)) = read_upstream(file, &decl, base, diags, depth) else {
            continue;
        };
        merge(file, ast, upstream, &decl, &found[0], diags);
        resolved.extend(found);
    }
    resolved
}

/// The policy `decl` names, read, checked against its pin and laid on what
/// it extends in turn; what was resolved, its own first.
fn read_upstream(
    file: &SourceFile,
    decl: &ExtendsDecl,
    base: &Base,
    diags: &mut Diagnostics,
    depth: usize,
) -> Option<(ast::Policy, Vec<Extended>)> {
    let error = |code: Code, message: String, at: Span, label: &str, help: String| {
        Diagnostic::new(code, message)
            .in_file(file)
            .label(at, label)
            .help(help)
    };
    let source = match Source::of(decl, base) {
        Ok(source) => source,
        Err((at, what, help)) => {
            diags.push(error(Code::ExtendsSource, what, at, "this source", help));
            return None;
        }
    };
    let Some(pin) = &decl.digest else {
        diags.push(error(
            Code::ExtendsUnpinned,
            format!("`extends \"{}\"` has no digest", decl.source.value),
            decl.source.span,
            "not pinned",
            "hookc builds only on a policy pinned by its digest, so that a change upstream changes nothing here until someone reviews it: run `hookc update` to read the source and write its digest".to_owned(),
        ));
        return None;
    };
    if !valid_pin(&pin.value) {
        diags.push(error(
            Code::ExtendsUnpinned,
            format!("`{}` is not a digest hookc knows", pin.value),
            pin.span,
            "not `sha256:` and 64 hex digits",
            "run `hookc update` to write the source's digest".to_owned(),
        ));
        return None;
    }
    // Read or fetched each time, so that a change upstream fails the
    // build until it is pinned; a git source that cannot be fetched now is
    // taken from the copy an earlier build kept, if it holds the pin.
    let (bytes, commit) = match fetch(&source) {
        Ok(found) => found,
        Err(why) => match cached(&source, &pin.value) {
            Some(found) if !matches!(source, Source::File(_)) => {
                diags.push(
                    error(
                        Code::ExtendsSource,
                        format!("could not fetch `{}`, so the copy pinned by its digest that an earlier build kept is used: {why}", decl.source.value),
                        decl.source.span,
                        "not fetched",
                        "a change upstream is not seen until it can be fetched again".to_owned(),
                    )
                    .severity(Severity::Warning),
                );
                found
            }
            _ => {
                diags.push(error(
                    Code::ExtendsSource,
                    format!("cannot read the policy `extends` names: {why}"),
                    decl.source.span,
                    "this source",
                    "check the path, URL and rev; a source fetched once is kept by its digest in hookc's state folder, for builds that cannot fetch it".to_owned(),
                ));
                return None;
            }
        },
    };
    let actual = digest(&bytes);
    if actual != pin.value {
        diags.push(error(
            Code::ExtendsDigest,
            format!("`{}` does not match its pinned digest", decl.source.value),
            pin.span,
            "pinned here",
            format!(
                "the source now holds other bytes ({actual}). Review what changed upstream; to build on it, run `hookc update`, which writes the new digest"
            ),
        ));
        return None;
    }
    if !matches!(source, Source::File(_)) {
        keep(&source, &actual, &bytes, commit.as_deref());
    }
    let name = match &source {
        // A lower layer's file by its path from this policy's folder.
        Source::File(path) if depth > 0 => path.to_string_lossy().replace('\\', "/"),
        Source::File(_) => decl.source.value.clone(),
        Source::Git { url, rev, path } => format!("{url}@{rev}:{path}"),
        Source::Https(url) => url.clone(),
    };
    let Ok(text) = String::from_utf8(bytes) else {
        diags.push(error(
            Code::ExtendsSource,
            format!("`{name}` is not UTF-8 text"),
            decl.source.span,
            "this source",
            "extend a policy.kdl file".to_owned(),
        ));
        return None;
    };
    let upstream_file = SourceFile::new(name.clone(), text);
    let mut inner = Diagnostics::default();
    let upstream = crate::syntax::read_policy(&upstream_file, &mut inner);
    let broken = inner.has_errors();
    for d in inner.into_sorted() {
        diags.push(d);
    }
    let mut upstream = upstream.filter(|_| !broken)?;
    // Lines are counted in the upstream's own text; a guard it inherits in
    // turn keeps the origin it has there.
    for guard in &mut upstream.guards {
        if guard.from.is_none() {
            let (line, _) = upstream_file.line_col(guard.name.span.range().start);
            guard.from = Some(format!("{name}, line {line}"));
            guard.pinned = Some(actual.clone());
        }
    }
    let (rev, path) = match &source {
        Source::File(_) | Source::Https(_) => (None, None),
        Source::Git { rev, path, .. } => (Some(rev.clone()), Some(path.clone())),
    };
    let mut resolved = vec![Extended {
        source: decl.source.value.clone(),
        rev,
        path,
        commit: commit.clone(),
        digest: actual.clone(),
        within: (depth > 0).then(|| file.name.to_string()),
    }];
    if let Some(next) = upstream.extends.first() {
        if depth + 1 >= MAX_LAYERS {
            diags.push(
                Diagnostic::new(
                    Code::ExtendsSource,
                    format!(
                        "`{name}` extends a policy {MAX_LAYERS} layers below this one, deeper than hookc lays policies"
                    ),
                )
                .in_file(&upstream_file)
                .label(next.span, "one layer too many")
                .help("extend the lower policies directly from a higher one"),
            );
            return None;
        }
        let below = match &source {
            Source::File(path) => Base::Dir(path.parent().unwrap_or(Path::new("")).to_owned()),
            Source::Git { url, rev, path } => Base::Git {
                url: url.clone(),
                commit: commit.unwrap_or_else(|| rev.clone()),
                dir: path.rsplit_once('/').map_or("", |(d, _)| d).to_owned(),
            },
            Source::Https(url) => Base::Url(
                url.rsplit_once('/')
                    .map_or(url.clone(), |(d, _)| format!("{d}/")),
            ),
        };
        let errors = diags.error_count();
        let nested = layer_within(&upstream_file, &mut upstream, &below, diags, depth + 1);
        if diags.error_count() > errors {
            return None;
        }
        resolved.extend(nested);
    }
    Some((upstream, resolved))
}

/// `upstream` under `ast`: its guards first, its settings where `ast` has
/// none, and an error for each way `ast` would loosen it.
fn merge(
    file: &SourceFile,
    ast: &mut ast::Policy,
    upstream: ast::Policy,
    decl: &ExtendsDecl,
    found: &Extended,
    diags: &mut Diagnostics,
) {
    let at = decl.span;
    let origin = &found.source;
    let loosens = |span: Span, message: String, help: &str| {
        Diagnostic::new(Code::ExtendsLoosens, message)
            .in_file(file)
            .label(span, "loosens the policy it extends")
            .label(decl.source.span, "extended here")
            .help(help.to_owned())
    };
    let relocated = |t: &Text| Spanned::new(t.value.clone(), at);

    // Guards: the upstream's keep their names; this policy adds its own.
    // One guard of one file, reached through two extended policies built on
    // it, is taken once.
    let mut inherited = upstream.guards;
    inherited.retain(|theirs| {
        !ast.guards.iter().any(|g| {
            g.name.value == theirs.name.value
                && g.pinned.is_some()
                && g.pinned == theirs.pinned
                && g.from == theirs.from
        })
    });
    for guard in &ast.guards {
        let Some(theirs) = inherited.iter().find(|g| g.name.value == guard.name.value) else {
            continue;
        };
        let theirs_from = theirs.from.as_deref().unwrap_or(origin);
        if let Some(first) = &guard.from {
            // Two extended policies, not this one, name the guard.
            diags.push(
                Diagnostic::new(
                    Code::DuplicateGuard,
                    format!(
                        "guard `{}` comes from both {first} and {theirs_from}",
                        guard.name.value
                    ),
                )
                .in_file(file)
                .label(decl.source.span, "the second policy that defines it")
                .help("a guard name may come from one extended policy only: drop one of the `extends`, or rename the guard in one of those policies"),
            );
        } else {
            diags.push(loosens(
                guard.name.span,
                format!(
                    "guard `{}` is inherited ({theirs_from}) and cannot be redefined here",
                    guard.name.value,
                ),
                "give this guard another name: both then apply, and the strictest decision wins. To change the inherited guard, change the policy it comes from and pin the new digest",
            ));
        }
    }
    let approvals_here = ast
        .allow_once
        .as_ref()
        .is_some_and(|s| s.value == ast::Scalar::Bool(true));
    let approvals_there = upstream
        .allow_once
        .as_ref()
        .is_some_and(|s| s.value == ast::Scalar::Bool(true));
    for guard in &mut inherited {
        crate::syntax::relocate(guard, at);
        // Approvals this policy turns on are for its own refusals.
        if approvals_here && !approvals_there {
            guard.override_ = Some(Spanned::new("never".to_owned(), at));
        }
    }
    inherited.append(&mut ast.guards);
    ast.guards = inherited;

    // Harnesses: every one the upstream guards.
    match (&upstream.targets, &ast.targets) {
        (Some(theirs), Some(ours)) => {
            for t in &theirs.value {
                if !ours.value.iter().any(|o| o.value == t.value) {
                    diags.push(loosens(
                        ours.span,
                        format!("`targets` leaves out `{}`, which {origin} guards", t.value),
                        "add it to `targets`: a policy that extends another guards at least the harnesses it does",
                    ));
                }
            }
        }
        (None, Some(ours)) => diags.push(loosens(
            ours.span,
            format!("`targets` limits the harnesses, and {origin} guards every one"),
            "remove `targets`: a policy that extends another guards at least the harnesses it does",
        )),
        (Some(theirs), None) => {
            ast.targets = Some(Spanned::new(
                theirs.value.iter().map(relocated).collect(),
                at,
            ));
        }
        (None, None) => {}
    }
    if let Some(theirs) = &upstream.platforms {
        let ours = ast
            .platforms
            .get_or_insert_with(|| Spanned::new(Vec::new(), at));
        for p in &theirs.value {
            if !ours.value.iter().any(|o| o.value == p.value) {
                ours.value.push(relocated(p));
            }
        }
    }
    match (&upstream.timeout, &ast.timeout) {
        (Some(theirs), Some(ours)) if ours.value < theirs.value => diags.push(loosens(
            ours.span,
            format!("`timeout {}` is shorter than {origin}'s {}", ours.value, theirs.value),
            "a guard that runs out of time is let through by some harnesses: give at least the inherited timeout",
        )),
        (Some(theirs), None) => ast.timeout = Some(Spanned::new(theirs.value, at)),
        _ => {}
    }
    let strictness = |word: &str| crate::ir::Decision::from_word(word).map(|d| d.strictness());
    let theirs_on_error = upstream
        .on_error
        .as_ref()
        .map_or("deny", |t| t.value.as_str());
    match &ast.on_error {
        Some(ours) if strictness(&ours.value) < strictness(theirs_on_error) => diags.push(loosens(
            ours.span,
            format!(
                "`on-error \"{}\"` is laxer than {origin}'s `{theirs_on_error}`",
                ours.value
            ),
            "remove it, or make it as strict as the inherited one",
        )),
        Some(_) => {}
        None => ast.on_error = upstream.on_error.as_ref().map(relocated),
    }
    let theirs_protect = upstream
        .self_protection
        .as_ref()
        .is_none_or(|t| t.value != "off");
    match &ast.self_protection {
        Some(ours) if ours.value == "off" && theirs_protect => diags.push(loosens(
            ours.span,
            format!("`self-protection \"off\"` turns off the protection {origin} keeps"),
            "remove it: the guards of a policy that extends another protect hookc's files",
        )),
        Some(_) => {}
        None => ast.self_protection = upstream.self_protection.as_ref().map(relocated),
    }
    match (&upstream.audit_log, &ast.audit_log) {
        (Some(theirs), Some(ours))
            if theirs.value == ast::Scalar::Bool(true) && ours.value != ast::Scalar::Bool(true) =>
        {
            diags.push(loosens(
                ours.span,
                format!("`audit-log` here turns off the log {origin} keeps"),
                "remove it",
            ))
        }
        (Some(theirs), None) => ast.audit_log = Some(Spanned::new(theirs.value.clone(), at)),
        _ => {}
    }
    if ast.allow_once.is_none() {
        ast.allow_once = upstream.allow_once.map(|s| Spanned::new(s.value, at));
    }
    match (&upstream.hookc_version, &ast.hookc_version) {
        (Some(theirs), Some(ours)) if theirs.value != ours.value => diags.push(loosens(
            ours.span,
            format!("`hookc-version` differs from {origin}'s `{}`", theirs.value),
            "remove it: the inherited requirement holds",
        )),
        (Some(theirs), None) => ast.hookc_version = Some(relocated(theirs)),
        _ => {}
    }
    // A safeguard the inherited policy leaves on, this one may not turn off.
    for block in &ast.harnesses {
        let spec = crate::ir::HarnessId::from_word(&block.name.value)
            .and_then(crate::harness::get)
            .map_or(&[][..], |h| h.profile().options);
        for option in &block.options {
            let safeguard = spec
                .iter()
                .any(|s| s.safeguard && s.name == option.key.value);
            if safeguard && option.value.value == ast::Scalar::Bool(false) {
                diags.push(loosens(
                    option.key.span,
                    format!(
                        "`{} #false` turns off a safeguard of harness `{}` that {origin} keeps on",
                        option.key.value, block.name.value
                    ),
                    "remove it: a policy that extends another keeps its hooks' safeguards",
                ));
            }
        }
    }
    for block in upstream.harnesses {
        for option in &block.options {
            let ours = ast
                .harnesses
                .iter()
                .filter(|b| b.name.value == block.name.value)
                .flat_map(|b| &b.options)
                .find(|o| o.key.value == option.key.value);
            if let Some(ours) = ours {
                diags.push(loosens(
                    ours.key.span,
                    format!(
                        "`{}` of harness `{}` is set by {origin} already",
                        option.key.value, block.name.value
                    ),
                    "remove it here: the inherited setting holds",
                ));
            }
        }
        ast.harnesses.insert(
            0,
            ast::HarnessBlock {
                name: relocated(&block.name),
                options: block
                    .options
                    .iter()
                    .map(|o| ast::HarnessOption {
                        key: relocated(&o.key),
                        value: Spanned::new(o.value.value.clone(), at),
                    })
                    .collect(),
            },
        );
    }
    let mut lint = upstream.lint;
    lint.append(&mut ast.lint);
    ast.lint = lint;
}

/// The text of `policy.lock`: what each `extends` resolved to.
pub fn lock(resolved: &[Extended]) -> String {
    let mut text = serde_json::to_string_pretty(&serde_json::json!({
        "format": 1,
        "extends": resolved,
    }))
    .unwrap_or_default();
    text.push('\n');
    text
}
