//! The audit log and `hookc allow-once`: files in the user's state
//! directory, `$XDG_STATE_HOME/hookc` (else `~/.local/state/hookc`).
//!
//! Why there and not in the project's `.hookc/`: the project is the agent's
//! working tree (its file tools write there, `git add -A` commits there, and
//! `git clean` wipes it), while the state directory belongs to the user,
//! holds every project's log side by side, and is refused to the agent by
//! the built-in guard below. Both are writable by any process of the same
//! user; hookc guards an agent that works through its tools, not a hostile
//! program already running as the user (the book's security chapter).
//!
//! Files are opened without following a symbolic link at the last component
//! (`O_NOFOLLOW`), directories are made `0700` and checked to be real
//! directories, the log is opened `O_APPEND` and each record is one `write`
//! of one line, so concurrent guards never interleave within a line.
//!
//! Nothing secret is written: a record holds the call's digest (SHA-256) and
//! a summary with the values of secret-looking arguments, assignments and
//! URL passwords replaced by `***`, and never file contents.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::eval::{Call, Hit, Verdict};
use crate::ir::{Decision, Event, HarnessId};

/// How long a refused call's code can be approved.
pub const PENDING_SECONDS: u64 = 60 * 60;
/// How long an approval of one call waits to be used.
pub const ONCE_SECONDS: u64 = 15 * 60;
/// How long a session approval lasts.
pub const SESSION_SECONDS: u64 = 8 * 60 * 60;

/// The name of the built-in guard that refuses the agent's own approvals.
pub const SELF_GUARD: &str = "hookc-self-protection";

/// hookc's directory in the user's state directory; `None` without an
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

/// A file name for a project: its folder's name and a digest of its path.
pub fn project_key(root: &str) -> String {
    let name: String = Path::new(root)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    format!("{name}-{}", &hex(&Sha256::digest(root.as_bytes()))[..12])
}

/// The audit log of the project at `root`.
pub fn log_path(root: &str) -> Option<PathBuf> {
    Some(
        state_dir()?
            .join("audit")
            .join(format!("{}.jsonl", project_key(root))),
    )
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `2026-12-01T01:50:00Z` for seconds since 1970.
pub fn rfc3339(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rest = secs % 86_400;
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// Makes `dir` (and its parents) with mode 0700 where missing, and checks
/// that it is a real directory, not a symbolic link to one.
fn ensure_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)?;
    let meta = std::fs::symlink_metadata(dir)?;
    if !meta.file_type().is_dir() {
        return Err(std::io::Error::other(format!(
            "{} is not a directory (a symbolic link?)",
            dir.display()
        )));
    }
    Ok(())
}

fn open_options(append: bool) -> std::fs::OpenOptions {
    let mut o = std::fs::OpenOptions::new();
    if append {
        o.append(true).create(true);
    } else {
        o.write(true).create_new(true);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK);
    }
    o
}

/// Appends one line to `path` with one `write`: a regular file only, never
/// through a symbolic link.
pub fn append_line(path: &Path, line: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        ensure_dir(dir)?;
    }
    let mut file = open_options(true).open(path)?;
    if !file.metadata()?.file_type().is_file() {
        return Err(std::io::Error::other(format!(
            "{} is not a regular file",
            path.display()
        )));
    }
    let mut bytes = line.as_bytes().to_vec();
    bytes.push(b'\n');
    file.write_all(&bytes)
}

/// Reads a small JSON file hookc wrote: not through a symbolic link, not a
/// FIFO or device, at most 64 KiB.
fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Option<T> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.file_type().is_file() || meta.len() > 64 * 1024 {
        return None;
    }
    let text = crate::disk::read_text(path).ok()??;
    serde_json::from_str(&text).ok()
}

/// Writes a small JSON file: a fresh file (never an existing one, never
/// through a link), renamed into place.
fn write_json(path: &Path, value: &impl Serialize) -> std::io::Result<()> {
    let dir = path.parent().expect("a file in a directory");
    ensure_dir(dir)?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name().unwrap_or_default().to_string_lossy(),
        std::process::id()
    ));
    let _ = std::fs::remove_file(&tmp);
    let mut file = open_options(false).open(&tmp)?;
    file.write_all(serde_json::to_string(value).expect("JSON").as_bytes())?;
    file.sync_all()?;
    std::fs::rename(&tmp, path)
}

/// JSON with object keys sorted: the same input, the same digest.
fn canonical(v: &Value) -> String {
    match v {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys
                .iter()
                .map(|k| format!("{}:{}", Value::String((*k).clone()), canonical(&map[*k])))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(canonical).collect::<Vec<_>>().join(",")
        ),
        other => other.to_string(),
    }
}

/// What the call asks for, as the harness sent it: its tool input (every
/// harness hookc answers calls it `tool_input`, `toolArgs` or `tool_call`),
/// else what hookc read from it.
fn input_of(payload: &Value, call: &Call) -> Value {
    for key in ["tool_input", "toolArgs", "tool_call", "toolCall", "args"] {
        if let Some(v) = payload.get(key) {
            return v.clone();
        }
    }
    json!({"command": call.command, "paths": call.paths, "text": call.text})
}

/// The digest of a call: harness, event, tool and input.
pub fn digest(harness: HarnessId, event: Event, call: &Call, payload: &Value) -> String {
    let tool = call.tool.as_ref().map_or("", |t| t.native.as_str());
    let text = format!(
        "hookc-call\0{}\0{}\0{}\0{}",
        harness.word(),
        event.word(),
        tool,
        canonical(&input_of(payload, call))
    );
    hex(&Sha256::digest(text.as_bytes()))
}

/// The short code a refusal shows for a call's digest.
pub fn code(digest: &str) -> String {
    hex(&Sha256::digest(format!("hookc-code\0{digest}").as_bytes()))[..8].to_owned()
}

/// The session a payload belongs to, where the harness names one.
pub fn session_of(payload: &Value) -> Option<String> {
    [
        "session_id",
        "sessionId",
        "conversation_id",
        "conversationId",
    ]
    .iter()
    .find_map(|k| payload.get(*k).and_then(Value::as_str))
    .map(str::to_owned)
}

/// Words after which the next word is a secret (`--password x`).
const SECRET_OPTIONS: &[&str] = &[
    "--password",
    "--passwd",
    "--pass",
    "--token",
    "--secret",
    "--api-key",
    "--apikey",
    "--access-key",
    "--secret-key",
    "--client-secret",
    "--auth",
    "--auth-token",
    "--private-key",
    "--key",
    "-p",
];

fn secret_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    [
        "secret",
        "token",
        "passw",
        "pwd",
        "apikey",
        "api_key",
        "api-key",
        "auth",
        "credential",
        "private",
        "session",
        "cookie",
        "access_key",
        "accesskey",
    ]
    .iter()
    .any(|w| n.contains(w))
        || n.ends_with("key")
}

/// A value that looks like a credential by itself: a known token prefix or
/// a long run of letters and digits.
fn looks_secret(word: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "ghp_",
        "gho_",
        "ghu_",
        "ghs_",
        "github_pat_",
        "glpat-",
        "sk-",
        "xox",
        "AKIA",
        "ASIA",
        "AIza",
        "ya29.",
        "eyJ",
        "npm_",
        "pypi-",
    ];
    let w = word.trim_matches(|c| c == '"' || c == '\'');
    PREFIXES
        .iter()
        .any(|p| w.starts_with(p) && w.len() >= p.len() + 8)
        || (w.len() >= 32
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || "+/=_-".contains(c))
            && w.chars().any(|c| c.is_ascii_digit())
            && w.chars().any(|c| c.is_ascii_alphabetic()))
}

/// A command line (or any text) with secret-looking values replaced by `***`.
pub fn redact(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut hide_next = false;
    for word in text.split(' ') {
        if hide_next && !word.is_empty() {
            out.push("***".to_owned());
            hide_next = false;
            continue;
        }
        let lower = word.to_ascii_lowercase();
        // `--password=x`, `TOKEN=x`, `-pSECRET` (mysql), `user:pass@host`.
        let redacted = if let Some((name, _)) = word.split_once('=')
            && (secret_name(name.trim_start_matches('-')) || SECRET_OPTIONS.contains(&name))
        {
            format!("{name}=***")
        } else if SECRET_OPTIONS.contains(&lower.as_str()) {
            hide_next = true;
            word.to_owned()
        } else if lower.starts_with("-p") && word.len() > 2 && !lower.starts_with("--") {
            "-p***".to_owned()
        } else if let Some(at) = word.find("://").and_then(|s| {
            let rest = &word[s + 3..];
            let end = rest.find('/').unwrap_or(rest.len());
            rest[..end].rfind('@').map(|a| (s + 3, a))
        }) {
            let (start, at) = at;
            let cred = &word[start..start + at];
            match cred.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &word[..start], &word[start + at..]),
                None => format!("{}***{}", &word[..start], &word[start + at..]),
            }
        } else if looks_secret(word) {
            "***".to_owned()
        } else {
            word.to_owned()
        };
        out.push(redacted);
    }
    let mut s = out.join(" ");
    // `Authorization: Bearer x` in a header argument.
    for marker in ["Bearer ", "bearer ", "Basic ", "token "] {
        let mut from = 0;
        while let Some(i) = s[from..].find(marker) {
            let start = from + i + marker.len();
            let end = s[start..]
                .find(|c: char| c.is_whitespace() || c == '"' || c == '\'')
                .map_or(s.len(), |e| start + e);
            if end > start && &s[start..end] != "***" {
                s.replace_range(start..end, "***");
            }
            from = start;
        }
    }
    s
}

/// What a record says about the call: the tool, the file names and the
/// redacted command line (shortened), never file contents or prompts.
pub fn summary(call: &Call) -> String {
    let tool = call.tool.as_ref().map_or("", |t| t.native.as_str());
    let mut parts = vec![tool.to_owned()];
    if let Some(command) = &call.command {
        let line: String = redact(&command.replace(['\n', '\r'], " "))
            .chars()
            .take(300)
            .collect();
        parts.push(line);
    }
    for p in call.paths.iter().take(5) {
        parts.push(p.clone());
    }
    if call.command.is_none() && call.paths.is_empty() && call.text.is_some() {
        parts.push("(text not recorded)".to_owned());
    }
    parts.retain(|p| !p.is_empty());
    parts.join(" ")
}

/// A refused call the user may approve.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pending {
    pub code: String,
    pub harness: HarnessId,
    pub event: Event,
    pub tool: String,
    pub digest: String,
    pub summary: String,
    pub guards: Vec<String>,
    pub session: Option<String>,
    pub root: Option<String>,
    pub refused: u64,
}

/// The user's approval of one call (`once`) or of that call for a session.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Approval {
    pub code: String,
    pub harness: HarnessId,
    pub event: Event,
    pub tool: String,
    pub digest: String,
    pub scope: Scope,
    pub session: Option<String>,
    pub granted: u64,
    pub expires: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    Once,
    Session,
}

fn pending_path(code: &str) -> Option<PathBuf> {
    valid_code(code).then(|| state_dir().map(|d| d.join("pending").join(format!("{code}.json"))))?
}

fn approval_path(code: &str) -> Option<PathBuf> {
    valid_code(code)
        .then(|| state_dir().map(|d| d.join("approved").join(format!("{code}.json"))))?
}

pub fn valid_code(code: &str) -> bool {
    code.len() == 8
        && code
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

pub fn read_pending(code: &str) -> Option<Pending> {
    read_json(&pending_path(code)?)
}

pub fn write_approval(approval: &Approval) -> std::io::Result<()> {
    let path = approval_path(&approval.code)
        .ok_or_else(|| std::io::Error::other("no state directory ($HOME is not set)"))?;
    write_json(&path, approval)?;
    if let Some(pending) = pending_path(&approval.code) {
        let _ = std::fs::remove_file(pending);
    }
    Ok(())
}

/// The approval for this call, if the user gave one that still holds; a
/// `once` approval is used up (removed) by taking it.
fn take_approval(
    code: &str,
    digest: &str,
    harness: HarnessId,
    session: Option<&str>,
) -> Option<Approval> {
    let path = approval_path(code)?;
    let approval: Approval = read_json(&path)?;
    let fits = approval.digest == digest
        && approval.harness == harness
        && approval.expires > now()
        && (approval.scope == Scope::Once
            || approval.session.is_none()
            || approval.session.as_deref() == session);
    if !fits {
        if approval.expires <= now() {
            let _ = std::fs::remove_file(&path);
        }
        return None;
    }
    if approval.scope == Scope::Once {
        // Whoever removes it uses it: two calls racing get one approval.
        let taken = path.with_extension(format!("taken.{}", std::process::id()));
        std::fs::rename(&path, &taken).ok()?;
        let _ = std::fs::remove_file(&taken);
    }
    Some(approval)
}

/// Whether a shell call or file access reaches for hookc's approvals:
/// `hookc allow-once` run in any spelling hookc can read (through `npx`,
/// `sudo`, `bash -c`, quotes), a line hookc cannot read that says
/// `allow-once`, or hookc's state directory named in an argument, a
/// redirection or a file tool's path. A mere mention (`grep allow-once`,
/// a commit message) is not refused.
fn reaches_for_approvals(call: &Call) -> bool {
    let state = state_dir().map(|d| d.to_string_lossy().to_ascii_lowercase());
    let squeeze = |text: &str| {
        text.chars()
            .filter(|c| !matches!(c, '\'' | '"' | '\\'))
            .collect::<String>()
            .to_ascii_lowercase()
    };
    let names_state = |text: &str| {
        let s = squeeze(text);
        s.contains("hookc/approved")
            || s.contains("hookc/pending")
            || s.contains(".local/state/hookc")
            || state.as_deref().is_some_and(|d| s.contains(d))
    };
    let says_allow_once = |text: &str| {
        let s = squeeze(text);
        s.contains("allow-once") || s.contains("allow_once")
    };
    if call.paths.iter().any(|p| names_state(p)) {
        return true;
    }
    let Some(command) = &call.command else {
        return false;
    };
    if names_state(command) {
        return true;
    }
    // The line as the guards read it (one analysis per call), git's
    // aliases expanded: `git x` with `alias.x = !hookc allow-once …` runs it.
    let Some(analysis) = call.analysis() else {
        return false;
    };
    if analysis.is_opaque() && says_allow_once(command) {
        return true;
    }
    analysis.commands.iter().any(|c| {
        let program = c.program.trim_end_matches(".exe");
        let runs_hookc = program == "hookc"
            || (matches!(
                program,
                "npx" | "bunx" | "pnpx" | "uvx" | "pipx" | "pnpm" | "yarn" | "npm" | "uv" | "cargo"
            ) && c
                .args
                .iter()
                .any(|a| a == "hookc" || a.starts_with("hookc@")));
        (runs_hookc && c.args.iter().any(|a| says_allow_once(a)))
            || c.args.iter().chain(&c.redirects).any(|a| names_state(a))
            || c.unknown
                .iter()
                .any(|&i| c.args.get(i).is_some_and(|a| says_allow_once(a)))
            || (!program.is_empty()
                && !program
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || "-_.+".contains(ch))
                && says_allow_once(command))
    })
}

/// What `hookc guard` needs to know besides the verdict.
pub struct Context<'a> {
    pub harness: HarnessId,
    pub event: Event,
    pub call: &'a Call,
    pub payload: &'a Value,
    pub audit: bool,
    pub allow_once: bool,
    pub never: &'a [String],
    /// The project the compiled policy belongs to: whose log, whose approvals.
    pub root: Option<String>,
}

/// hookc's own guard, whatever the policy: a tool call that reaches for
/// the approvals is refused before it runs.
pub fn builtin(event: Event, call: &Call) -> Option<Verdict> {
    (event == Event::PreTool && reaches_for_approvals(call)).then(|| Verdict {
        decision: Decision::Deny,
        hits: vec![Hit {
            guard: SELF_GUARD.to_owned(),
            decision: Decision::Deny,
            reason: "Approving refused calls (`hookc allow-once`) and hookc's approvals are for the user, from their own terminal; the agent cannot run or change them. Tell the user the code from the refusal and wait for them.".to_owned(),
            message: None,
        }],
        rewritten: None,
    })
}

/// The code a refusal offers, when the policy has `allow-once #true`, the
/// call is a refused pre-tool call, and no guard that refused it says
/// `override "never"`.
pub fn offered_code(cx: &Context, verdict: Option<&Verdict>) -> Option<(String, String)> {
    let v = verdict?;
    let eligible = cx.allow_once
        && cx.event == Event::PreTool
        && v.decision == Decision::Deny
        && v.hits
            .iter()
            .all(|h| !cx.never.contains(&h.guard) && h.guard != SELF_GUARD);
    if !eligible {
        return None;
    }
    let digest = digest(cx.harness, cx.event, cx.call, cx.payload);
    Some((code(&digest), digest))
}

/// The refusal with the code the user can approve, as the model reads it.
pub fn with_code(mut verdict: Verdict, code: &str) -> Verdict {
    if let Some(last) = verdict.hits.last_mut() {
        last.reason.push_str(&format!(
            " (If the user wants this exact call to run anyway, they can approve it once from their own terminal with `hookc allow-once {code}`; you cannot.)"
        ));
    }
    verdict
}

/// The built-in self-protection, the approvals and the audit log, around a
/// verdict: returns the verdict to answer with.
pub fn decide(cx: &Context, verdict: Option<Verdict>) -> Option<Verdict> {
    if let Some(refusal) = builtin(cx.event, cx.call) {
        record(cx, Some(&refusal), None, None);
        return Some(refusal);
    }
    let Some((code, digest)) = offered_code(cx, verdict.as_ref()) else {
        record(cx, verdict.as_ref(), None, None);
        return verdict;
    };
    let session = session_of(cx.payload);
    if let Some(approval) = take_approval(&code, &digest, cx.harness, session.as_deref()) {
        record(cx, verdict.as_ref(), Some(&code), Some(approval.scope));
        return None;
    }
    let pending = Pending {
        code: code.clone(),
        harness: cx.harness,
        event: cx.event,
        tool: cx
            .call
            .tool
            .as_ref()
            .map_or(String::new(), |t| t.native.clone()),
        digest,
        summary: summary(cx.call),
        guards: verdict
            .as_ref()
            .map(|v| v.guard_names().into_iter().map(str::to_owned).collect())
            .unwrap_or_default(),
        session,
        root: cx.root.clone().or_else(|| cx.call.root.clone()),
        refused: now(),
    };
    // A code is shown only when the user can use it.
    let offered = pending_path(&code).is_some_and(|p| write_json(&p, &pending).is_ok());
    let verdict = match verdict {
        Some(v) if offered => Some(with_code(v, &code)),
        other => other,
    };
    record(cx, verdict.as_ref(), offered.then_some(code.as_str()), None);
    verdict
}

/// Appends the decision to the project's audit log when the policy asks for one.
fn record(cx: &Context, verdict: Option<&Verdict>, code: Option<&str>, approved: Option<Scope>) {
    if !cx.audit {
        return;
    }
    let Some(root) = cx.root.as_deref().or(cx.call.root.as_deref()) else {
        return;
    };
    let Some(path) = log_path(root) else {
        return;
    };
    let t = now();
    let line = json!({
        "time": rfc3339(t),
        "unix": t,
        "harness": cx.harness.word(),
        "event": cx.event.word(),
        "tool": cx.call.tool.as_ref().map(|t| t.native.clone()),
        "digest": digest(cx.harness, cx.event, cx.call, cx.payload),
        "summary": summary(cx.call),
        "guards": verdict.map(|v| v.guard_names()).unwrap_or_default(),
        "verdict": match (verdict, approved) {
            (_, Some(_)) => "allow",
            (None, None) => "none",
            (Some(v), None) => v.decision.word(),
        },
        "code": code,
        "override": approved.map(|s| json!({"by": "allow-once", "scope": s, "refused_as": verdict.map(|v| v.decision.word())})),
    });
    // The log is a record, not a gate: a log that cannot be written does
    // not change the answer (`hookc log` says where it looks).
    let _ = append_line(&path, &line.to_string());
}

/// Appends a record of the user's approval to the project's log.
pub fn record_approval(root: &str, approval: &Approval, summary: &str) {
    let Some(path) = log_path(root) else { return };
    let line = json!({
        "time": rfc3339(approval.granted),
        "unix": approval.granted,
        "harness": approval.harness.word(),
        "event": approval.event.word(),
        "tool": approval.tool,
        "digest": approval.digest,
        "summary": summary,
        "guards": [],
        "verdict": "approved",
        "code": approval.code,
        "override": {"by": "allow-once", "scope": approval.scope, "expires": rfc3339(approval.expires)},
    });
    let _ = append_line(&path, &line.to_string());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_rfc3339() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_764_553_800), "2025-12-01T01:50:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
    }

    #[test]
    fn secrets_are_redacted() {
        for (line, secret) in [
            ("mysql -u root --password hunter2 db", "hunter2"),
            ("mysql -u root --password=hunter2 db", "hunter2"),
            ("mysql -phunter2 db", "hunter2"),
            (
                "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY aws s3 ls",
                "wJalrXUtnFEMI",
            ),
            ("echo API_TOKEN=abc123 > .env", "abc123"),
            ("curl https://bob:s3cret@example.com/x", "s3cret"),
            ("curl -H 'Authorization: Bearer abc.def.ghi' x", "abc.def"),
            (
                "gh auth login --with-token ghp_0123456789abcdefghij",
                "ghp_0123",
            ),
        ] {
            let r = redact(line);
            assert!(!r.contains(secret), "{line} -> {r}");
            assert!(r.contains("***"), "{line} -> {r}");
        }
        assert_eq!(redact("git push origin main"), "git push origin main");
    }

    #[test]
    fn codes_are_short_and_bound_to_the_call() {
        let call = |c: &str| Call {
            command: Some(c.to_owned()),
            ..Call::default()
        };
        let p = json!({"tool_input": {"command": "git push -f"}, "session_id": "a"});
        let q = json!({"tool_input": {"command": "git push -f "}, "session_id": "b"});
        let d = digest(HarnessId::Claude, Event::PreTool, &call("x"), &p);
        assert_eq!(d, digest(HarnessId::Claude, Event::PreTool, &call("y"), &p));
        assert_ne!(d, digest(HarnessId::Claude, Event::PreTool, &call("x"), &q));
        assert_ne!(d, digest(HarnessId::Codex, Event::PreTool, &call("x"), &p));
        assert!(valid_code(&code(&d)));
    }
}
