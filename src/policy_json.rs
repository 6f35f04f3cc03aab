//! `.hookc/policy.json`, the compiled policy `hookc guard` obeys: its one
//! writer ([`write`], for `hookc build`), its one reader ([`read`], for
//! `hookc guard`) and the digests that tie the two together. The guards'
//! index it stores is [`eval::Index`](crate::eval::Index); the content of
//! each line is the IR's serde form ([`ir::Policy`](crate::ir::Policy),
//! whose `format` says which layout this is).

use std::path::Path;

use serde::Deserialize;

use crate::eval::Evaluator;
use crate::ir::{Event, FORMAT, HarnessId, Policy};

/// Where the compiled policy lives, relative to the project root.
pub const PATH: &str = ".hookc/policy.json";

/// `.hookc/policy.json`: compact JSON, one line per part, so that
/// `hookc guard` can read the head and the index of its event and then parse
/// only the guards the call can reach (see [`read`]), and a
/// changed guard shows up as one changed line in `hookc check`:
///
/// ```text
/// {"format":2,"source":"policy.kdl",…,"targets":[…],"layout":{…,"build":"…"},"sum":"…",
/// "index":[
/// {"event":"pre-tool","programs":[["git",[0,1]]],…,"sum":"…"},
/// {"event":"prompt",…,"sum":"…"}
/// ],
/// "guards":[
/// {"name":"no-force-push",…,"sum":"…"},
/// {"name":"no-hard-reset",…,"sum":"…"}
/// ]}
/// ```
///
/// Every line ends with a digest (`"sum"`, see [`line_sum`]) that
/// `hookc guard` checks before it uses the line, so that a hand edit (a
/// guard changed, two lines swapped, a line from another build) is refused
/// rather than obeyed. The lines' digests are keyed with `layout.build`, a
/// digest of all of them, which the head's own digest covers.
pub fn write(policy: &Policy) -> String {
    let head = Policy {
        guards: Vec::new(),
        ..policy.clone()
    };
    let head = serde_json::to_string(&head).expect("the IR serialises");
    let head = head
        .strip_suffix("\"guards\":[]}")
        .expect("guards is the last field of the IR");
    let lines = |parts: Vec<String>| {
        let mut text = parts.join(",\n");
        if !text.is_empty() {
            text.push('\n');
        }
        text
    };
    let built = crate::eval::Index::build(&policy.guards);
    // Each line as an object without its closing brace, where its digest goes.
    let open = |json: String| json.strip_suffix('}').expect("an object").to_owned();
    let index: Vec<String> = built
        .iter()
        .map(|i| open(serde_json::to_string(i).expect("the index serialises")))
        .collect();
    let guards: Vec<String> = policy
        .guards
        .iter()
        .map(|g| open(serde_json::to_string(g).expect("the IR serialises")))
        .collect();
    let build = build_sum(index.iter().chain(&guards).map(String::as_bytes));
    // What the lines below hold, so that `hookc guard`, which reads only some
    // of them, still notices a line gone missing.
    let layout = serde_json::json!({
        "guards": policy.guards.len(),
        "indexed": built.iter().map(|i| i.event).collect::<Vec<_>>(),
        "build": build,
    });
    let sealed = |kind: u8, parts: Vec<String>| {
        parts
            .into_iter()
            .enumerate()
            .map(|(at, body)| {
                let sum = line_sum(&build, kind, at, body.as_bytes());
                format!("{body},\"sum\":\"{sum}\"}}")
            })
            .collect::<Vec<String>>()
    };
    let index = lines(sealed(b'i', index));
    let guards = lines(sealed(b'g', guards));
    let head = format!("{head}\"layout\":{layout},");
    let sum = line_sum(&build, b'h', 0, head.as_bytes());
    format!("{head}\"sum\":\"{sum}\",\n\"index\":[\n{index}],\n\"guards\":[\n{guards}]}}\n")
}

/// The digest of one line of `.hookc/policy.json`: FNV-1a (64 bits) of the
/// build's digest, the kind of line (`h`ead, `i`ndex, `g`uard), its position
/// and its text up to the digest. It tells a line `hookc build` wrote there
/// from any other; it is no secret (see the book's security chapter).
pub fn line_sum(build: &str, kind: u8, at: usize, body: &[u8]) -> String {
    let mut hash = Fnv::default();
    hash.write(build.as_bytes());
    hash.write(&[0, kind]);
    hash.write(&(at as u64).to_le_bytes());
    hash.write(body);
    format!("{:016x}", hash.0)
}

/// The digest of a whole build: of every index and guard line, in order.
fn build_sum<'a>(bodies: impl Iterator<Item = &'a [u8]>) -> String {
    let mut hash = Fnv::default();
    for body in bodies {
        hash.write(body);
        hash.write(b"\n");
    }
    format!("{:016x}", hash.0)
}

/// FNV-1a, 64 bits: the same on every platform and Rust version.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The compiled policy, as far as one call needs it.
pub struct Loaded<'a> {
    pub targets: Vec<HarnessId>,
    pub timeout: u32,
    pub evaluator: Evaluator<'a>,
    /// `audit-log #true`: every decision goes to the audit log.
    pub audit: bool,
    /// `allow-once #true`: refusals carry a code the user can approve.
    pub allow_once: bool,
    /// Guards with `override "never"`.
    pub never_override: Vec<String>,
    /// Which build this is (see [`build_of`]).
    pub identity: &'a str,
}

/// Why a compiled policy is not used.
#[derive(Debug)]
pub enum Refusal {
    /// Damaged, or changed after `hookc build` wrote it: the message says
    /// to rebuild.
    Broken(String),
    /// Built for another hookc: the message says which to install.
    Incompatible(String),
}

/// Read `.hookc/policy.json` for a call on `event`.
///
/// In the layout `hookc build` writes (see [`write`]) only the
/// head, the index of `event` and the guards the call can reach are parsed,
/// so a call costs about the same with ten guards or ten thousand. Each of
/// those lines is checked against its digest first, and any other layout
/// (an older hookc's, or the file reformatted by hand) is refused: only what
/// `hookc build` wrote is obeyed. A file that is not a valid policy is an
/// error too: the call is refused, never waved through.
pub fn read<'a>(path: &Path, text: &'a [u8], event: Event) -> Result<Loaded<'a>, Refusal> {
    let damaged = |e: &dyn std::fmt::Display| damaged_at(path, e);
    let check_format = |head: &[u8]| check_format(head, &damaged);
    let changed = |what: &dyn std::fmt::Display| changed_at(path, what);
    let Some(laid) = LaidOut::split(text) else {
        check_format(text)?;
        return Err(changed(&"it is not laid out as `hookc build` writes it"));
    };
    check_format(&laid.head)?;
    let head: Head = serde_json::from_slice(&laid.head).map_err(|e| damaged(&e))?;
    let build: &'a str = Box::leak(head.layout.build.into_boxed_str());
    let identity = match unseal(laid.raw_head, b"\",") {
        Some((body, sum)) if sealed_by(build, b'h', 0, body, sum) => {
            std::str::from_utf8(sum).map_err(|e| damaged(&e))?
        }
        _ => return Err(changed(&"its first line does not match its digest")),
    };
    // Only some lines are parsed: a line gone missing must still show.
    if head.layout.guards != laid.guards.len() || head.layout.indexed.len() != laid.index.len() {
        return Err(damaged(&"lines are missing"));
    }
    let index = event_index(path, &laid.index, &head.layout.indexed, event, build)?;
    let check = guard_check(path, build);
    let evaluator = Evaluator::lazy(laid.guards, index, check)
        .ok_or_else(|| damaged(&"its index names guards it does not have"))?;
    Ok(Loaded {
        targets: head.targets,
        timeout: head.timeout,
        evaluator,
        audit: head.audit,
        allow_once: head.allow_once,
        never_override: head.never_override,
        identity,
    })
}

/// The build of a compiled policy, as the record of the last build keeps it: the
/// digest of its first line, which covers every other line's digest.
/// `None` for a file not laid out as `hookc build` writes it.
pub fn build_of(text: &[u8]) -> Option<&str> {
    let laid = LaidOut::split(text)?;
    let (_, sum) = unseal(laid.raw_head, b"\",")?;
    std::str::from_utf8(sum).ok()
}

/// The head of the compiled policy, as [`read`] needs it.
#[derive(Deserialize)]
struct Head {
    timeout: u32,
    targets: Vec<HarnessId>,
    layout: Layout,
    #[serde(default)]
    audit: bool,
    #[serde(default)]
    allow_once: bool,
    #[serde(default)]
    never_override: Vec<String>,
}

/// What the lines hold (see [`write`]).
#[derive(Deserialize)]
struct Layout {
    guards: usize,
    indexed: Vec<Event>,
    /// The key of every line's digest.
    #[serde(default)]
    build: String,
}

/// The refusal for a compiled policy that is not valid (`e` says how).
fn damaged_at(path: &Path, e: &dyn std::fmt::Display) -> Refusal {
    Refusal::Broken(format!(
        "the compiled policy {} is damaged ({e}); run `hookc build` to regenerate it",
        path.display()
    ))
}

/// The refusal for a compiled policy edited by anything but `hookc build`:
/// the model is told to ask the user, who can rebuild from policy.kdl.
fn changed_at(path: &Path, what: &dyn std::fmt::Display) -> Refusal {
    Refusal::Broken(format!(
        "the compiled policy {} was changed after `hookc build` wrote it ({what}); \
         ask the user to run `hookc build` in the project, which writes it again from policy.kdl",
        path.display()
    ))
}

/// The index of `event`, its line checked against its digest; `None` when
/// the policy has no guard on `event` (then the head says it has no index).
fn event_index(
    path: &Path,
    index: &[&[u8]],
    indexed: &[Event],
    event: Event,
    build: &str,
) -> Result<Option<crate::eval::Index>, Refusal> {
    let prefix = format!("{{\"event\":\"{event}\"");
    match index.iter().position(|l| l.starts_with(prefix.as_bytes())) {
        Some(at) => {
            let line = index[at];
            if !line_sealed(build, b'i', at, line) {
                return Err(changed_at(
                    path,
                    &format!("the index of `{event}` does not match its digest"),
                ));
            }
            Ok(Some(
                serde_json::from_slice(line).map_err(|e| damaged_at(path, &e))?,
            ))
        }
        None if indexed.contains(&event) => Err(damaged_at(
            path,
            &format!("the index of `{event}` is missing"),
        )),
        None => Ok(None),
    }
}

/// What checks a guard's line against its digest before the evaluator
/// parses it (it lives as long as the process: one call per run).
fn guard_check<'a>(path: &Path, build: &'a str) -> &'a crate::eval::Check<'a> {
    let display = path.display().to_string();
    Box::leak(Box::new(move |at: usize, line: &[u8]| {
        if line_sealed(build, b'g', at, line) {
            Ok(())
        } else {
            Err(format!(
                "the compiled policy {display} was changed after `hookc build` wrote it \
                 (guard {} does not match its digest); ask the user to run `hookc build` in the \
                 project, which writes it again from policy.kdl",
                at + 1
            ))
        }
    }))
}

/// What the head says about the hookc a policy is for.
#[derive(Deserialize)]
struct Format {
    format: u32,
    #[serde(default)]
    built_by: String,
    #[serde(default)]
    hookc_version: Option<String>,
    #[serde(default)]
    install: String,
}

/// Before anything else: a policy built for another hookc is not read.
fn check_format(
    head: &[u8],
    damaged: &dyn Fn(&dyn std::fmt::Display) -> Refusal,
) -> Result<(), Refusal> {
    let head: Format = serde_json::from_slice(head).map_err(|e| damaged(&e))?;
    let this = crate::version::Version::current();
    let outside = head
        .hookc_version
        .as_deref()
        .and_then(|r| crate::version::Requirement::parse(r).ok())
        .filter(|r| !r.matches(this));
    if head.format > FORMAT || crate::version::older_line(this, &head.built_by) || outside.is_some()
    {
        let needed = match (&outside, head.built_by.as_str()) {
            (Some(req), _) => format!("hookc {req}"),
            (None, "") => "a newer hookc".to_owned(),
            (None, line) => format!("hookc {line} or later"),
        };
        let install = if head.install.is_empty() {
            crate::version::from_source(env!("CARGO_PKG_REPOSITORY"))
        } else {
            head.install.clone()
        };
        return Err(Refusal::Incompatible(format!(
            "This project's hooks need {needed}, and the hookc that ran is {this}, so the call \
             was not checked and is refused. Ask the user to install the hookc the project needs \
             (`{install}` in the project), then retry."
        )));
    }
    Ok(())
}

/// A line of the policy split at its digest, which comes last before `end`:
/// the text before `"sum":"` and the digest.
fn unseal<'t>(line: &'t [u8], end: &[u8]) -> Option<(&'t [u8], &'t [u8])> {
    const TAG: &[u8] = b"\"sum\":\"";
    let rest = line.strip_suffix(end)?;
    let (rest, sum) = rest.split_at_checked(rest.len().checked_sub(16)?)?;
    Some((rest.strip_suffix(TAG)?, sum))
}

/// Whether `sum` is the digest `hookc build` gives `body` there.
fn sealed_by(build: &str, kind: u8, at: usize, body: &[u8], sum: &[u8]) -> bool {
    line_sum(build, kind, at, body).as_bytes() == sum
}

/// Whether an index or guard line (`{…,"sum":"…"}`) is the one `hookc build`
/// wrote at position `at`.
fn line_sealed(build: &str, kind: u8, at: usize, line: &[u8]) -> bool {
    match unseal(line, b"\"}") {
        Some((body, sum)) => body
            .strip_suffix(b",")
            .is_some_and(|body| sealed_by(build, kind, at, body, sum)),
        None => false,
    }
}

/// The parts of a policy.json in the layout `hookc build` writes, found by
/// splitting lines (nothing is parsed here).
struct LaidOut<'a> {
    /// The head as a JSON object of its own (its trailing comma closed).
    head: Vec<u8>,
    /// The head's line as written.
    raw_head: &'a [u8],
    /// One line per event.
    index: Vec<&'a [u8]>,
    /// One line per guard, in policy order.
    guards: Vec<&'a [u8]>,
}

impl<'a> LaidOut<'a> {
    fn split(text: &'a [u8]) -> Option<Self> {
        if text.last() != Some(&b'\n') {
            return None;
        }
        let mut start = 0;
        let mut lines = memchr::memchr_iter(b'\n', text).map(|end| {
            let line = &text[start..end];
            start = end + 1;
            line
        });
        let item = |line: &'a [u8]| line.strip_suffix(b",").unwrap_or(line);
        let head = lines.next()?;
        if !head.starts_with(b"{\"format\":") || !head.ends_with(b",") {
            return None;
        }
        let raw_head = head;
        let mut head = head.to_vec();
        *head.last_mut()? = b'}';
        if lines.next()? != b"\"index\":[" {
            return None;
        }
        let mut index = Vec::new();
        loop {
            match lines.next()? {
                b"]," => break,
                line => index.push(item(line)),
            }
        }
        if lines.next()? != b"\"guards\":[" {
            return None;
        }
        let mut guards = Vec::new();
        loop {
            match lines.next()? {
                b"]}" => break,
                line => guards.push(item(line)),
            }
        }
        lines.next().is_none().then_some(LaidOut {
            head,
            raw_head,
            index,
            guards,
        })
    }
}
