//! The audit log and `hookc allow-once`: files in the user's state
//! directory, `$XDG_STATE_HOME/hookc` (else `~/.local/state/hookc`).
//!
//! Why there and not in the project's `.hookc/`: the project is the agent's
//! working tree (its file tools write there, `git add -A` commits there, and
//! `git clean` wipes it), while the state directory belongs to the user,
//! holds every project's log side by side, and is refused to the agent by
//! the built-in guard below, by name and by the files a call touches.
//!
//! * [`store`]: the state folder, reached without following a link at any
//!   component below it.
//! * [`seal`]: hookc's key and the HMAC on every record it later believes:
//!   a pending refusal, an approval, the log's seal. A record written by
//!   anything but hookc does not verify and is thrown away.
//! * [`redact`]: secrets out of summaries, control characters made visible.
//! * [`log`]: the log, rotated at a size bound, read from its end, and
//!   checked for deletion, truncation and replacement.
//! * [`lineage`]: which processes asked (the harness) and whether the
//!   terminal `hookc allow-once` runs in is one the agent made.
//!
//! Both the state folder and the project are writable by any process of
//! the same user; hookc guards an agent that works through its tools, not a
//! hostile program already running as the user (the book's security
//! chapter says what that leaves).

pub mod lineage;
pub mod log;
pub mod redact;
pub mod seal;
pub mod store;

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::eval::{Call, Hit, Verdict};
use crate::ir::{Decision, Event, HarnessId};

pub use redact::{full_summary, redact, summary, visible};
use store::Dir;
pub use store::state_dir;

/// How long a refused call's code can be approved.
pub const PENDING_SECONDS: u64 = 60 * 60;
/// How long an approval of one call waits to be used.
pub const ONCE_SECONDS: u64 = 15 * 60;
/// How long a session approval lasts.
pub const SESSION_SECONDS: u64 = 8 * 60 * 60;
/// At most this many refusals wait in `pending/` (and approvals in
/// `approved/`): past it the oldest go.
pub const MAX_WAITING: usize = 256;
/// A call whose redacted summary is longer than this gets no code: the
/// user could not read it whole before approving it.
pub const MAX_SUMMARY: usize = 1024 * 1024;

/// The name of the built-in guard that refuses the agent's own approvals.
pub const SELF_GUARD: &str = "hookc-self-protection";

/// What the built-in guard tells the model.
/// Why a call that touches the state folder (but does not approve) is refused.
const STATE_REASON: &str = "This call would read or change hookc's state folder (approvals, their key, the audit log, the record of the last build, the hookc the hooks run), which only the user may do. Do not try another way: ask the user to make the change themselves.";
const SELF_REASON: &str = "Approving refused calls (`hookc allow-once`) and hookc's state folder (its approvals, its key and the audit log) are for the user, from their own terminal; the agent cannot run, read or change them. Tell the user the code from the refusal and wait for them.";

/// The seal kinds of the records hookc believes.
const PENDING_SEAL: &str = "pending-v2";
const APPROVAL_SEAL: &str = "approval-v2";

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

/// The audit log of the project at `root` (as the user knows the path).
pub fn log_path(root: &str) -> Option<PathBuf> {
    Some(
        state_dir()?
            .join("audit")
            .join(format!("{}.jsonl", project_key(&resolved(root)))),
    )
}

/// A project's root with its links resolved (as given when it cannot be):
/// the guard, `hookc allow-once` and `hookc log` name one project alike,
/// however each was given its path.
pub fn resolved(root: &str) -> String {
    std::fs::canonicalize(root)
        .ok()
        .and_then(|p| p.to_str().map(str::to_owned))
        .unwrap_or_else(|| root.to_owned())
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
        seal::canonical(&input_of(payload, call))
    );
    hex(&Sha256::digest(text.as_bytes()))
}

/// The short code a refusal shows: for the call's digest, in this project
/// and this session. The same call in another project or session has
/// another code, and its own pending record.
pub fn code(digest: &str, root: Option<&str>, session: Option<&str>) -> String {
    let text = format!(
        "hookc-code\0{digest}\0{}\0{}",
        root.unwrap_or(""),
        session.unwrap_or("")
    );
    hex(&Sha256::digest(text.as_bytes()))[..8].to_owned()
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

/// The project a call's approvals belong to: the compiled policy's root
/// (else the call's), with its links resolved, so `hookc why` and
/// `hookc guard` name one project alike.
fn project_of(cx: &Context) -> Option<String> {
    Some(resolved(cx.root.as_deref().or(cx.call.root.as_deref())?))
}

/// A refused call the user may approve, as `hookc guard` wrote it (sealed).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pending {
    pub code: String,
    pub harness: HarnessId,
    pub event: Event,
    pub tool: String,
    pub digest: String,
    /// The whole call, redacted: what `hookc allow-once` shows.
    pub summary: String,
    pub guards: Vec<String>,
    pub session: Option<String>,
    pub root: Option<String>,
    pub refused: u64,
    /// The processes above the guard that asked (Linux), to tell the
    /// harness's terminals from the user's.
    #[serde(default)]
    pub lineage: Option<lineage::Lineage>,
}

/// The user's approval of one call (`once`) or of that call for a session,
/// as `hookc allow-once` wrote it (sealed).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Approval {
    pub code: String,
    pub harness: HarnessId,
    pub event: Event,
    pub tool: String,
    pub digest: String,
    pub scope: Scope,
    pub session: Option<String>,
    pub root: Option<String>,
    pub granted: u64,
    pub expires: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    Once,
    Session,
}

impl Scope {
    /// The longest an approval of this scope may last.
    pub fn seconds(self) -> u64 {
        match self {
            Scope::Once => ONCE_SECONDS,
            Scope::Session => SESSION_SECONDS,
        }
    }
}

pub fn valid_code(code: &str) -> bool {
    code.len() == 8
        && code
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

/// Why a pending record cannot be shown.
#[derive(Debug)]
pub enum PendingError {
    /// No refusal with this code is waiting.
    Missing,
    /// A record is there, but hookc did not write it (its seal does not verify).
    Forged,
    /// The state folder cannot be used.
    State(store::StateError),
    Io(std::io::Error),
}

/// Reads a sealed JSON record: `Ok(None)` when missing, `Err(())` when it
/// is there but not hookc's (which also removes it, when `remove`).
fn read_sealed<T: for<'de> Deserialize<'de>>(
    dir: &Dir,
    name: &str,
    key: Option<&seal::Key>,
    kind: &str,
    remove: bool,
) -> Result<Option<T>, ()> {
    let bytes = match dir.read_small(name, 8 * MAX_SUMMARY as u64) {
        Ok(Some(b)) => b,
        Ok(None) => return Ok(None),
        Err(_) => {
            if remove {
                let _ = dir.remove(name);
            }
            return Err(());
        }
    };
    let opened = key
        .and_then(|k| serde_json::from_slice::<Value>(&bytes).ok().map(|v| (k, v)))
        .and_then(|(k, v)| seal::unseal(k, kind, v))
        .and_then(|v| serde_json::from_value::<T>(v).ok());
    match opened {
        Some(t) => Ok(Some(t)),
        None => {
            if remove {
                let _ = dir.remove(name);
            }
            Err(())
        }
    }
}

/// The refused call waiting under `code`, if hookc wrote it.
pub fn read_pending(code: &str) -> Result<Pending, PendingError> {
    if !valid_code(code) {
        return Err(PendingError::Missing);
    }
    let state = Dir::state(false).map_err(|e| match e {
        store::StateError::Io(_, ref io) if io.kind() == std::io::ErrorKind::NotFound => {
            PendingError::Missing
        }
        e => PendingError::State(e),
    })?;
    let pending = match state.sub("pending", false) {
        Ok(d) => d,
        Err(store::StateError::Io(_, e)) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(PendingError::Missing);
        }
        Err(e) => return Err(PendingError::State(e)),
    };
    let key = seal::key(&state, false).map_err(PendingError::Io)?;
    match read_sealed::<Pending>(
        &pending,
        &format!("{code}.json"),
        key.as_ref(),
        PENDING_SEAL,
        false,
    ) {
        Ok(Some(p)) if p.code == code => Ok(p),
        Ok(Some(_)) | Err(()) => Err(PendingError::Forged),
        Ok(None) => Err(PendingError::Missing),
    }
}

/// Removes what is old or too many in `dir`: records older than `max_age`
/// seconds, temporary files older than a minute, anything that is a link,
/// and past `max_count` the oldest records. `keep` stays.
fn prune(dir: &Dir, max_age: u64, max_count: usize, keep: &str) {
    let Ok(entries) = dir.list() else { return };
    let now = SystemTime::now();
    let mut live: Vec<(SystemTime, String)> = Vec::new();
    for (name, meta) in entries {
        if name == keep {
            continue;
        }
        let modified = meta.modified().unwrap_or(UNIX_EPOCH);
        let age = now.duration_since(modified).map_or(0, |d| d.as_secs());
        let temporary = name.starts_with('.') && name.ends_with(".tmp");
        let link = meta.file_type().is_symlink();
        if !link && !meta.is_file() {
            continue;
        }
        if link || (temporary && age > 60) || (!temporary && age > max_age) {
            let _ = dir.remove(&name);
        } else if !temporary {
            live.push((modified, name));
        }
    }
    if live.len() >= max_count {
        live.sort();
        for (_, name) in &live[..=live.len() - max_count] {
            let _ = dir.remove(name);
        }
    }
}

/// Writes the user's approval, sealed, and removes the pending record.
pub fn write_approval(approval: &Approval) -> std::io::Result<()> {
    let state = Dir::state(true)?;
    let key = seal::key(&state, true)?.ok_or_else(|| std::io::Error::other("no key"))?;
    let approved = state.sub("approved", true)?;
    let name = format!("{}.json", approval.code);
    let sealed = seal::seal(
        &key,
        APPROVAL_SEAL,
        serde_json::to_value(approval).expect("JSON"),
    );
    approved.write_atomic(&name, sealed.to_string().as_bytes(), true)?;
    prune(&approved, SESSION_SECONDS, MAX_WAITING, &name);
    if let Ok(pending) = state.sub("pending", false) {
        let _ = pending.remove(&name);
    }
    Ok(())
}

/// What an approval must match to let a call through.
struct Wanted<'a> {
    code: &'a str,
    digest: &'a str,
    harness: HarnessId,
    event: Event,
    root: Option<&'a str>,
    session: Option<&'a str>,
}

/// The approval for this call, if the user gave one that still holds: the
/// same call, project and session, sealed by hookc, within its time. A
/// `once` approval is used up (removed) by taking it; a record that is
/// not hookc's, or has expired, is removed.
fn take_approval(wanted: &Wanted) -> Option<Approval> {
    let state = Dir::state(false).ok()?;
    let approved = state.sub("approved", false).ok()?;
    let name = format!("{}.json", wanted.code);
    let key = seal::key(&state, false).ok()?;
    let approval: Approval =
        read_sealed(&approved, &name, key.as_ref(), APPROVAL_SEAL, true).ok()??;
    let t = now();
    let in_time = approval.expires > t
        && approval.granted <= t + 60
        && approval.expires <= approval.granted + approval.scope.seconds();
    if !in_time {
        let _ = approved.remove(&name);
        return None;
    }
    let fits = approval.code == wanted.code
        && approval.digest == wanted.digest
        && approval.harness == wanted.harness
        && approval.event == wanted.event
        && approval.root.as_deref() == wanted.root
        && approval.session.as_deref() == wanted.session;
    if !fits {
        return None;
    }
    if approval.scope == Scope::Once {
        // Whoever renames it uses it: two calls racing get one approval.
        let taken = format!(".{}.taken.{}.tmp", wanted.code, std::process::id());
        approved.rename(&name, &taken).ok()?;
        let _ = approved.remove(&taken);
    }
    Some(approval)
}

/// A glob that matches `text` literally.
fn literal_glob(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '*' | '?' | '[' | ']' | '{' | '}' | '!' | '\\' => format!("[{c}]"),
            c => c.to_string(),
        })
        .collect()
}

/// hookc's state folder as a path guard: every spelling of it (absolute,
/// under `~`, the default place), and everything below it.
fn state_policy(dir: &Path, home: Option<&Path>) -> crate::ir::Policy {
    let mut places: Vec<String> = vec![literal_glob(&dir.to_string_lossy())];
    if let Some(home) = home
        && let Ok(rest) = dir.strip_prefix(home)
    {
        places.push(format!("~/{}", literal_glob(&rest.to_string_lossy())));
    }
    places.push("~/.local/state/hookc".to_owned());
    let mut paths = Vec::new();
    for p in places {
        if !paths.contains(&p) {
            paths.push(format!("{p}/**"));
            paths.push(p);
        }
    }
    crate::ir::Policy {
        guards: vec![crate::ir::Guard {
            name: SELF_GUARD.to_owned(),
            event: Event::PreTool,
            tools: Vec::new(),
            commands: Vec::new(),
            regexes: Vec::new(),
            paths,
            access: crate::ir::PathAccess::Any,
            opaque: Decision::Allow,
            decision: Decision::Deny,
            reason: SELF_REASON.to_owned(),
            message: None,
            prefilter: Default::default(),
            rewrite: Vec::new(),
            run: None,
            from: None,
            examples: Vec::new(),
            allow_degraded: Vec::new(),
            origin: Default::default(),
        }],
        format: crate::ir::FORMAT,
        source: String::new(),
        hookc_version: None,
        built_by: String::new(),
        install: String::new(),
        timeout: 10,
        on_error: Decision::Deny,
        targets: Vec::new(),
        windows: None,
        harness_options: Default::default(),
        audit: false,
        allow_once: false,
        never_override: Vec::new(),
        extends: Vec::new(),
    }
}

/// Whether the call reads or writes a file in hookc's state folder, by the
/// files it touches as the path guards see them: a file tool's path, a
/// shell command's operands and redirections (globs by every name they
/// could take, `cd` followed, recursive reads of a folder above it), each
/// resolved through its links where the call runs.
fn touches_state(call: &Call) -> bool {
    let Some(dir) = state_dir() else {
        return false;
    };
    let home = std::env::var_os("HOME").map(PathBuf::from);
    touches_state_at(call, &dir, home.as_deref())
}

fn touches_state_at(call: &Call, dir: &Path, home: Option<&Path>) -> bool {
    let policy = state_policy(dir, home);
    let evaluator = crate::eval::Evaluator::new(&policy);
    if call.event == Some(Event::PreTool) {
        return evaluator.evaluate(call).is_some();
    }
    let mut call = call.clone();
    call.event = Some(Event::PreTool);
    evaluator.evaluate(&call).is_some()
}

/// Whether a shell call or file access reaches for hookc's approvals:
/// `hookc allow-once` run in any spelling hookc can read (through `npx`,
/// `sudo`, `bash -c`, quotes), or handed to a program that types into a
/// terminal or runs a line in one (`tmux`, `screen`, `script`, `expect`,
/// `xdotool`), a line hookc cannot read that says `allow-once`, or hookc's
/// state directory named in an argument, a redirection or a file tool's
/// path. A mere mention (`grep allow-once`, a commit message) is not refused.
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
        // Programs that type into a terminal or run a line in one they make.
        let types_into_terminal = matches!(
            program,
            "tmux"
                | "screen"
                | "byobu"
                | "zellij"
                | "dtach"
                | "abduco"
                | "script"
                | "expect"
                | "unbuffer"
                | "empty"
                | "xdotool"
                | "ydotool"
                | "wtype"
                | "kitty"
                | "kitten"
                | "wezterm"
                | "osascript"
                | "socat"
                | "ttyd"
                | "konsole"
                | "gnome-terminal"
                | "xterm"
                | "alacritty"
                | "foot"
        );
        ((runs_hookc || types_into_terminal) && c.args.iter().any(|a| says_allow_once(a)))
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
/// the approvals (`hookc allow-once`, by name) or for hookc's state folder
/// (by name, or by a file it reads or writes there) is refused before it runs.
pub fn builtin(event: Event, call: &Call) -> Option<Verdict> {
    if event != Event::PreTool {
        return None;
    }
    let reason = if reaches_for_approvals(call) {
        SELF_REASON
    } else if touches_state(call) {
        STATE_REASON
    } else {
        return None;
    };
    Some({
        Verdict {
            decision: Decision::Deny,
            hits: vec![Hit {
                guard: SELF_GUARD.to_owned(),
                from: None,
                decision: Decision::Deny,
                reason: reason.to_owned(),
                message: None,
            }],
            rewritten: None,
        }
    })
}

/// The code a refusal offers, when the policy has `allow-once #true`, the
/// call is a refused pre-tool call, and no guard that refused it says
/// `override "never"`: the code and the call's digest.
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
    let session = session_of(cx.payload);
    Some((
        code(&digest, project_of(cx).as_deref(), session.as_deref()),
        digest,
    ))
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

/// Writes the refusal the user may approve, sealed, and prunes what waits
/// there: whether it was written.
fn write_pending(pending: &Pending) -> std::io::Result<()> {
    let state = Dir::state(true)?;
    let key = seal::key(&state, true)?.ok_or_else(|| std::io::Error::other("no key"))?;
    let dir = state.sub("pending", true)?;
    let name = format!("{}.json", pending.code);
    let sealed = seal::seal(
        &key,
        PENDING_SEAL,
        serde_json::to_value(pending).expect("JSON"),
    );
    dir.write_atomic(&name, sealed.to_string().as_bytes(), false)?;
    prune(&dir, PENDING_SECONDS, MAX_WAITING, &name);
    Ok(())
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
    let root = project_of(cx);
    let wanted = Wanted {
        code: &code,
        digest: &digest,
        harness: cx.harness,
        event: cx.event,
        root: root.as_deref(),
        session: session.as_deref(),
    };
    if let Some(approval) = take_approval(&wanted) {
        record(cx, verdict.as_ref(), Some(&code), Some(approval.scope));
        return None;
    }
    let summary = full_summary(cx.call);
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
        guards: verdict
            .as_ref()
            .map(|v| v.guard_names().into_iter().map(str::to_owned).collect())
            .unwrap_or_default(),
        session,
        root,
        refused: now(),
        lineage: lineage::Lineage::of_guard(),
        summary,
    };
    // A code is shown only when the user can use it: the record is
    // written, and the call is short enough to be read whole.
    let offered = pending.summary.len() <= MAX_SUMMARY && write_pending(&pending).is_ok();
    let verdict = match verdict {
        Some(v) if offered => Some(with_code(v, &code)),
        other => other,
    };
    record(cx, verdict.as_ref(), offered.then_some(code.as_str()), None);
    verdict
}

/// [`decide`] without its effects, for `hookc why`: the built-in refusal,
/// or the verdict with the code `hookc guard` would offer for it (an
/// approval the user already gave is not looked at, and nothing is written
/// or logged).
pub fn shown(cx: &Context, verdict: Option<Verdict>) -> Option<Verdict> {
    if let Some(refusal) = builtin(cx.event, cx.call) {
        return Some(refusal);
    }
    match offered_code(cx, verdict.as_ref()) {
        Some((code, _)) => verdict.map(|v| with_code(v, &code)),
        None => verdict,
    }
}

/// Appends the decision to the project's audit log when the policy asks for one.
fn record(cx: &Context, verdict: Option<&Verdict>, code: Option<&str>, approved: Option<Scope>) {
    if !cx.audit {
        return;
    }
    let Some(root) = cx.root.as_deref().or(cx.call.root.as_deref()) else {
        return;
    };
    let t = now();
    let mut line = json!({
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
    // Where each inherited guard that decided is written (`extends`).
    let from: serde_json::Map<String, Value> = verdict
        .map(|v| v.hits.as_slice())
        .unwrap_or_default()
        .iter()
        .filter_map(|h| Some((h.guard.clone(), Value::from(h.from.clone()?))))
        .collect();
    if !from.is_empty() {
        line["from"] = Value::Object(from);
    }
    // The log is a record, not a gate: a log that cannot be written does
    // not change the answer (`hookc log` says what is wrong with it).
    let _ = log::append(root, &line.to_string());
}

/// Appends a record of the user's approval to the project's log.
pub fn record_approval(root: &str, approval: &Approval, summary: &str) {
    let line = json!({
        "time": rfc3339(approval.granted),
        "unix": approval.granted,
        "harness": approval.harness.word(),
        "event": approval.event.word(),
        "tool": approval.tool,
        "digest": approval.digest,
        "summary": log_cut(summary),
        "guards": [],
        "verdict": "approved",
        "code": approval.code,
        "override": {"by": "allow-once", "scope": approval.scope, "expires": rfc3339(approval.expires)},
    });
    let _ = log::append(root, &line.to_string());
}

/// A whole summary cut as the log keeps summaries.
fn log_cut(summary: &str) -> String {
    let n = summary.chars().count();
    if n <= redact::LOG_CHARS {
        return summary.to_owned();
    }
    let kept: String = summary.chars().take(redact::LOG_CHARS).collect();
    format!("{kept}… [{} more characters]", n - redact::LOG_CHARS)
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
    fn codes_are_short_and_bound_to_the_call_the_project_and_the_session() {
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
        let c = code(&d, Some("/p"), Some("a"));
        assert!(valid_code(&c));
        assert_ne!(c, code(&d, Some("/q"), Some("a")));
        assert_ne!(c, code(&d, Some("/p"), Some("b")));
        assert_ne!(c, code(&d, Some("/p"), None));
    }

    #[test]
    fn pruning_removes_the_old_the_stray_and_the_many() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = Dir::state_at(tmp.path()).unwrap();
        let old = SystemTime::now() - std::time::Duration::from_secs(2 * PENDING_SECONDS);
        for i in 0..(MAX_WAITING + 10) {
            let name = format!("{i:08x}.json");
            std::fs::write(tmp.path().join(&name), "{}").unwrap();
            let f = std::fs::File::options()
                .write(true)
                .open(tmp.path().join(&name))
                .unwrap();
            // The first ten are past the window; the rest in order of age.
            let when = if i < 10 {
                old
            } else {
                SystemTime::now() - std::time::Duration::from_secs((MAX_WAITING + 10 - i) as u64)
            };
            f.set_modified(when).unwrap();
        }
        std::fs::write(tmp.path().join(".x.json.1.2.tmp"), "").unwrap();
        std::fs::File::options()
            .write(true)
            .open(tmp.path().join(".x.json.1.2.tmp"))
            .unwrap()
            .set_modified(old)
            .unwrap();
        std::fs::write(tmp.path().join("keep.json"), "{}").unwrap();
        prune(&dir, PENDING_SECONDS, MAX_WAITING, "keep.json");
        let left: Vec<String> = dir.list().unwrap().into_iter().map(|(n, _)| n).collect();
        assert_eq!(left.len(), MAX_WAITING, "{left:?}");
        assert!(left.contains(&"keep.json".to_owned()));
        // The old ones, the stray temporary file and the oldest recent one went.
        assert!(!left.contains(&"00000000.json".to_owned()));
        assert!(!left.contains(&"0000000a.json".to_owned()));
        assert!(left.contains(&"0000000b.json".to_owned()));
        assert!(!left.iter().any(|n| n.ends_with(".tmp")));
    }

    #[cfg(unix)]
    #[test]
    fn the_state_folder_guard_sees_reads_and_writes_by_any_route() {
        let home = tempfile::tempdir().unwrap();
        let home = home.path().canonicalize().unwrap();
        let state = home.join(".local/state/hookc");
        std::fs::create_dir_all(&state).unwrap();
        std::fs::create_dir_all(home.join("project")).unwrap();
        let h = home.to_str().unwrap().to_owned();
        let call = |kind, native: &str, line: Option<&str>, paths: Vec<String>| Call {
            event: Some(Event::PreTool),
            tool: Some(crate::eval::CallTool {
                kind: Some(kind),
                native: native.to_owned(),
                ..Default::default()
            }),
            command: line.map(str::to_owned),
            paths,
            root: Some(format!("{h}/project")),
            home: Some(h.clone()),
            ..Call::default()
        };
        let shell = |line: &str| call(crate::ir::ToolKind::Shell, "Bash", Some(line), vec![]);
        let touches = |c: &Call| touches_state_at(c, &state, Some(&home));
        for line in [
            "cat ~/.local/state/hookc/key",
            "cd ~/.local/state && cat hookc/key",
            "xxd ~/.local/state/hook?/k*",
            "grep -r x ~/.local",
            "cp -r ~/.local/state /tmp/x",
            "tar czf /tmp/h.tgz ~",
            "rm -rf ~/.local/state/hookc/audit",
            "ln -sf /dev/null ~/.local/state/hookc/audit/p.jsonl",
            "echo {} > HOME/.local/state/hookc/approved/12345678.json",
            "python3 -c \"print(open('HOME/.local/state/hookc/key').read())\"",
        ] {
            let line = line.replace("HOME", &h);
            assert!(touches(&shell(&line)), "{line}");
        }
        for line in [
            "cat README.md",
            "ls -la",
            "grep -r key src/",
            "cat \"$F\"",
            "ls ~/.local",
        ] {
            assert!(!touches(&shell(line)), "{line}");
        }
        let read = call(
            crate::ir::ToolKind::Read,
            "Read",
            None,
            vec![state.join("key").to_string_lossy().into_owned()],
        );
        assert!(touches(&read));
        let write = call(
            crate::ir::ToolKind::Write,
            "Write",
            None,
            vec![format!("{h}/.local/state/hookc/approved/12345678.json")],
        );
        assert!(touches(&write));
        // A link to the state folder, made earlier, is followed where the call runs.
        let link = home.join("project/innocent");
        std::os::unix::fs::symlink(&state, &link).unwrap();
        assert!(touches(&shell("cat innocent/key")));
        assert!(touches(&call(
            crate::ir::ToolKind::Read,
            "Read",
            None,
            vec![link.join("key").to_string_lossy().into_owned()],
        )));
    }
}
