//! `hookc import`: the hand-written hooks of a project, as a `policy.kdl`.
//!
//! Each hook config hookc lint knows is read in its harness's own dialect;
//! every hook becomes a guard: a `deny`/`ask` of the tools its matcher
//! names where its command refuses every call, a `regex` where it greps
//! the command line for a text, and a `run` guard for anything else (a
//! small wrapper script hands the harness's own payload to the hook and
//! tells hookc what it answered). What cannot be carried over is said in a
//! comment. Hooks that hookc itself wrote are skipped.

pub mod script;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::ir::{Event, HarnessId, ToolKind};
use crate::lint::{self, Kind};
use script::{Action, Refusal};

/// One hand-written hook.
#[derive(Debug, Clone)]
pub struct Hook {
    pub harness: HarnessId,
    /// Where it is, for the comment above its guard: `.claude/settings.json PreToolUse[0]`.
    pub origin: String,
    /// The harness's event name as written.
    pub event: String,
    pub matcher: Option<String>,
    pub command: String,
    /// An exec-form hook's arguments (no shell); `None` for a shell command.
    pub args: Option<Vec<String>>,
    /// The text of the script in the project that the command runs, where
    /// it names one (`bash .claude/hooks/guard.sh`,
    /// `"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh`).
    pub script: Option<String>,
}

/// What importing a project gives.
#[derive(Debug, Default)]
pub struct Imported {
    pub policy: String,
    /// Wrapper scripts for `run` guards: path relative to the root, text.
    pub scripts: Vec<(PathBuf, String)>,
    /// The files read.
    pub files: Vec<PathBuf>,
    pub guards: usize,
    /// Things not carried over, one line each (also in the policy as comments).
    pub skipped: Vec<String>,
}

/// The folder `run` wrappers go to, relative to the project root.
pub const SCRIPTS: &str = "hooks/hookc-import";

/// Whether a hook command is one hookc generated.
fn is_hookcs(command: &str) -> bool {
    command.contains(".hookc/") || command.contains("hookc guard") || command.contains("hookc_shim")
}

impl Hook {
    /// Whether this hook is one hookc generated.
    pub fn is_hookcs(&self) -> bool {
        is_hookcs(&self.command)
    }
}

/// The hooks in one file; `Err` when it does not parse as its harness
/// reads it. `notes` gets what the file holds that cannot be imported.
pub fn read_file(
    kind: Kind,
    rel: &str,
    text: &str,
    notes: &mut Vec<String>,
) -> Result<Vec<Hook>, String> {
    let Some((h, format)) = lint::owner(kind) else {
        return Ok(Vec::new());
    };
    let written = h.hooks_in(format, rel, text, notes)?;
    Ok(written
        .into_iter()
        .map(|w| Hook {
            harness: h.id(),
            origin: w.origin,
            event: w.event,
            matcher: w.matcher,
            command: w.command,
            args: w.args,
            script: None,
        })
        .collect())
}

/// The tools a hook's event and matcher cover.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Tools {
    /// Every tool call of the event (no matcher, `*`, empty), or an event
    /// without tools.
    Every,
    /// hookc tools, MCP tools (`server`, `tool` globs) and the harness's own
    /// names hookc has no kind for.
    Some {
        kinds: BTreeSet<ToolKind>,
        mcp: BTreeSet<(String, String)>,
        native: BTreeSet<String>,
    },
}

/// The hookc event of a native one (any case, as the harnesses read it),
/// and, for events about one tool (Cursor's), the tool.
fn event_of(id: HarnessId, native: &str) -> Option<(Event, Option<ToolKind>)> {
    crate::harness::get(id)?.event_named(native)
}

/// The tools a matcher names, if it is a plain list of names
/// (`Bash`, `^(?:Edit|Write)$`, `mcp__github__.*`).
fn tools_of(id: HarnessId, matcher: Option<&str>) -> Option<Tools> {
    let m = matcher.map(str::trim).unwrap_or("");
    if m.is_empty() || m == "*" || m == ".*" {
        return Some(Tools::Every);
    }
    let h = crate::harness::get(id)?;
    let profile = h.profile();
    // A harness that searches the tool name for the matcher: a name that is
    // not one of its tools is a fragment of others.
    let searches = h.matcher_searches() && !(m.starts_with('^') && m.ends_with('$'));
    let inner = m.strip_prefix('^').unwrap_or(m);
    let inner = inner.strip_suffix('$').unwrap_or(inner);
    let inner = inner
        .strip_prefix("(?:")
        .or_else(|| inner.strip_prefix('('))
        .and_then(|s| s.strip_suffix(')'))
        .unwrap_or(inner);
    let (mut kinds, mut mcp, mut native) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    for name in inner.split('|') {
        if let Some(rest) = name.strip_prefix("mcp__") {
            let (server, tool) = rest.split_once("__")?;
            let glob = |s: &str| s.replace(".*", "*");
            let plain = |s: &str| {
                s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-*".contains(c))
            };
            let (server, tool) = (glob(server), glob(tool));
            if !plain(&server) || !plain(&tool) {
                return None;
            }
            mcp.insert((server, tool));
            continue;
        }
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return None;
        }
        // Every kind the name is: one tool can both write and edit
        // (Codex's `apply_patch`, Kiro's `fs_write`), and its hook ran for both.
        let found: Vec<ToolKind> = profile
            .tools
            .iter()
            .filter(|(_, names)| names.contains(&name))
            .map(|(k, _)| *k)
            .collect();
        match found.as_slice() {
            [] if searches => return None,
            [] => {
                native.insert(name.to_owned());
            }
            _ => kinds.extend(found),
        }
    }
    Some(Tools::Some { kinds, mcp, native })
}

/// A guard, the harnesses it came from, where, and the hook of a `run` guard.
type Merged = (Key, BTreeSet<HarnessId>, Vec<String>, Option<Run>);

/// A hand-written hook that a `run` guard runs through a wrapper.
#[derive(Debug, Clone)]
struct Run {
    /// Whether the hook refuses (exit 2, a refusal as JSON) rather than only
    /// printing text for the model, as far as its command and script show.
    refuses: bool,
    command: String,
    /// An exec-form hook's arguments.
    args: Option<Vec<String>>,
    /// The payload field its matcher filters on an event without tools
    /// (`source` of a session start, `agent_type` of a subagent's stop),
    /// and the matcher.
    filter: Option<(&'static str, String)>,
}

impl Run {
    /// The hook as its harness would run it, for comments: the command, or
    /// an exec-form hook's program and arguments as JSON strings.
    fn shown(&self) -> String {
        match &self.args {
            None => self.command.clone(),
            Some(args) => std::iter::once(&self.command)
                .chain(args)
                .map(|a| serde_json::Value::String(a.clone()).to_string())
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

/// The field of the payload a matcher tests on an event without tools,
/// where hookc knows it: Claude Code's (and the Claude-shaped harnesses')
/// `source` of a session start and `agent_type` of a subagent's stop,
/// Gemini CLI's and Qwen Code's `source`.
fn lifecycle_field(event: Event) -> Option<&'static str> {
    match event {
        Event::SessionStart => Some("source"),
        Event::SubagentStop => Some("agent_type"),
        _ => None,
    }
}

/// Whether a hook's command, arguments or script can refuse: an exit
/// status of 2 or a refusal written as JSON. A hook that shows none of
/// these only prints (context for the model) or observes.
fn refuses(hook: &Hook) -> bool {
    let texts = std::iter::once(&hook.command)
        .chain(hook.args.iter().flatten())
        .chain(&hook.script);
    texts.into_iter().any(|t| {
        let t = t.replace(char::is_whitespace, "");
        [
            "exit2",
            "exit(2)",
            "exitCode=2",
            "decision",
            "\"deny\"",
            "\"block\"",
            "\"ask\"",
        ]
        .iter()
        .any(|marker| t.contains(marker))
    })
}

/// The script in the project that a hook's command runs: the first of its
/// words (past an interpreter such as `bash` or `python3`, and with the
/// project folder's variable taken off) that names a file under `root`.
fn script_of(root: &Path, hook: &Hook) -> Option<String> {
    const MAX: u64 = 256 << 10;
    let words = hook
        .command
        .split_whitespace()
        .chain(hook.args.iter().flatten().map(String::as_str));
    words.take(8).find_map(|w| {
        let w = w.trim_matches(['"', '\'']);
        let mut rel = w;
        for var in [
            "$CLAUDE_PROJECT_DIR",
            "${CLAUDE_PROJECT_DIR}",
            "$GEMINI_PROJECT_DIR",
            "${GEMINI_PROJECT_DIR}",
            "$PWD",
            "${PWD}",
            ".",
        ] {
            if let Some(rest) = rel.strip_prefix(var) {
                rel = rest.trim_start_matches(['"', '\'']).trim_start_matches('/');
            }
        }
        if rel.is_empty() || rel.starts_with('/') || rel.split('/').any(|c| c == "..") {
            return None;
        }
        let path = crate::disk::confine(root, rel).ok()?;
        let meta = std::fs::metadata(&path).ok()?;
        (meta.is_file() && meta.len() <= MAX)
            .then(|| std::fs::read_to_string(&path).ok())
            .flatten()
    })
}

/// Whether a matcher lets every call through (no matcher, `*`, empty).
fn matches_all(matcher: Option<&str>) -> bool {
    matcher.is_none_or(|m| matches!(m.trim(), "" | "*" | ".*"))
}

/// One guard to write, before harnesses are merged.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Key {
    event: Event,
    tools: Tools,
    action: Action,
}

/// Whether KDL 2.0 takes `c` literally in a quoted string or a comment: no
/// control character, no newline of any kind, no invisible direction mark.
fn kdl_literal(c: char) -> bool {
    !(c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{200E}' | '\u{200F}' | '\u{FEFF}'
        )
        || ('\u{202A}'..='\u{202E}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c))
}

/// `s` as a quoted KDL 2.0 string.
fn kdl_string(s: &str) -> String {
    let mut out = String::from('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if kdl_literal(c) => out.push(c),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// `s` as text inside a `//` comment: on one line, whatever it holds.
fn comment(s: &str) -> String {
    s.chars()
        .map(|c| if kdl_literal(c) { c } else { ' ' })
        .collect()
}

fn slug(text: &str) -> String {
    let words: Vec<String> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(5)
        .map(str::to_ascii_lowercase)
        .collect();
    if words.is_empty() {
        "imported".to_owned()
    } else {
        words.join("-")
    }
}

/// The policy for `hooks` (from the files `files`); `all` are the harnesses
/// whose files were read.
pub fn policy(hooks: &[Hook], files: &[PathBuf], skipped_files: &[String]) -> Imported {
    let mut imported = Imported {
        files: files.to_vec(),
        ..Imported::default()
    };
    let mut harnesses: BTreeSet<HarnessId> = BTreeSet::new();
    let mut notes: Vec<String> = skipped_files.to_vec();
    let guards = merge_hooks(hooks, &mut harnesses, &mut notes);

    let mut out = header(files, &harnesses, &notes);
    let mut names: BTreeSet<String> = BTreeSet::new();
    for (key, hs, origins, run) in &guards {
        let everywhere = covered(key, hs, &guards) == harnesses;
        let name = guard_name(key, hs, run.as_ref(), &mut names);
        let text = guard_text(
            &name,
            key,
            hs,
            everywhere,
            &harnesses,
            origins,
            run.as_ref(),
            &mut imported,
        );
        out.push_str(&text);
        out.push('\n');
        imported.guards += 1;
    }
    imported.skipped = notes;
    imported.policy = out;
    imported
}

/// The guards `hooks` become, in the order first seen: hooks of several
/// harnesses that do the same to the same tools share one guard. The
/// harnesses with a hook to import go to `harnesses`; each hook not carried
/// over gets a line in `notes`.
fn merge_hooks(
    hooks: &[Hook],
    harnesses: &mut BTreeSet<HarnessId>,
    notes: &mut Vec<String>,
) -> Vec<Merged> {
    let mut guards: Vec<Merged> = Vec::new();
    for hook in hooks {
        if is_hookcs(&hook.command) {
            continue;
        }
        if hook.command.is_empty() {
            notes.push(format!(
                "{}: not a command hook (no `command`); not imported",
                hook.origin
            ));
            continue;
        }
        harnesses.insert(hook.harness);
        let Some(key) = hook_key(hook, notes) else {
            continue;
        };
        // A `run` guard is one harness's: its wrapper hands that harness's
        // payload to the hook.
        let run = (key.action == Action::Opaque).then(|| Run {
            refuses: refuses(hook),
            command: hook.command.clone(),
            args: hook.args.clone(),
            filter: lifecycle_field(key.event)
                .filter(|_| !matches_all(hook.matcher.as_deref()))
                .zip(hook.matcher.clone()),
        });
        match guards
            .iter_mut()
            .find(|(k, _, _, r)| *k == key && run.is_none() && r.is_none())
        {
            Some((_, hs, origins, _)) => {
                hs.insert(hook.harness);
                origins.push(hook.origin.clone());
            }
            None => guards.push((
                key,
                BTreeSet::from([hook.harness]),
                vec![hook.origin.clone()],
                run,
            )),
        }
    }
    guards
}

/// The guard one hook becomes: its event, the tools its matcher names and
/// what its command does. `None` (with a line in `notes`) when it cannot be
/// carried over or does nothing.
fn hook_key(hook: &Hook, notes: &mut Vec<String>) -> Option<Key> {
    let Some((event, tool)) = event_of(hook.harness, &hook.event) else {
        notes.push(format!(
            "{}: the event `{}` has no hookc equivalent; not imported",
            hook.origin, hook.event
        ));
        return None;
    };
    let tools = match (tool, event.has_tools()) {
        (Some(kind), _) => Some(Tools::Some {
            kinds: BTreeSet::from([kind]),
            mcp: BTreeSet::new(),
            native: BTreeSet::new(),
        }),
        (None, true) => tools_of(hook.harness, hook.matcher.as_deref()),
        (None, false) => Some(Tools::Every),
    };
    let Some(tools) = tools else {
        notes.push(format!(
            "{}: the matcher `{}` is a pattern hookc import cannot read as tool names; not imported (write its guard's `tool` or `mcp` by hand)",
            hook.origin,
            hook.matcher.as_deref().unwrap_or("")
        ));
        return None;
    };
    let mut action = if hook.args.is_some() {
        Action::Opaque
    } else {
        script::analyse(&hook.command)
    };
    // A matcher on an event without tools filters its lifecycle (a session's
    // source, a subagent's type): the wrapper of a `run` guard checks it.
    if !event.has_tools() && !matches_all(hook.matcher.as_deref()) {
        if lifecycle_field(event).is_some() {
            if action != Action::Nothing {
                action = Action::Opaque;
            }
        } else {
            notes.push(format!(
                "{}: the matcher `{}` of `{}` is not carried over: the guard runs on every `{}`",
                hook.origin,
                hook.matcher.as_deref().unwrap_or(""),
                hook.event,
                event.word()
            ));
        }
    }
    if let Action::When { .. } = action
        && !matches!(&tools, Tools::Some { kinds, mcp, native } if kinds.iter().all(|k| *k == ToolKind::Shell) && mcp.is_empty() && native.is_empty())
    {
        action = Action::Opaque;
    }
    if action == Action::Nothing {
        notes.push(format!(
            "{}: `{}` lets every call go on; nothing to import",
            hook.origin, hook.command
        ));
        return None;
    }
    Some(Key {
        event,
        tools,
        action,
    })
}

/// The comment at the top of the policy (the files read, what was not
/// carried over) and its `targets`.
fn header(files: &[PathBuf], harnesses: &BTreeSet<HarnessId>, notes: &[String]) -> String {
    let mut out = String::new();
    out.push_str("// policy.kdl: written by `hookc import` from the hand-written hooks in\n");
    for f in files {
        out.push_str(&format!("//   {}\n", comment(&f.display().to_string())));
    }
    out.push_str(
        "// Check each guard, then run `hookc build`, and remove the hand-written hooks\n\
         // (until then both run).\n\n",
    );
    if !harnesses.is_empty() {
        out.push_str("targets");
        for h in harnesses {
            out.push_str(&format!(" {}", kdl_string(h.word())));
        }
        out.push_str("\n\n");
    }
    for note in notes {
        out.push_str(&format!("// Not carried over: {}\n", comment(note)));
    }
    if !notes.is_empty() {
        out.push('\n');
    }
    out
}

/// The harnesses where the guard `key` of `hs` is in effect: a harness whose
/// hook refuses every tool call the same way has it too.
fn covered(key: &Key, hs: &BTreeSet<HarnessId>, guards: &[Merged]) -> BTreeSet<HarnessId> {
    let mut covered = hs.clone();
    for (k, other, _, r) in guards {
        if r.is_none() && k.event == key.event && k.tools == Tools::Every && k.action == key.action
        {
            covered.extend(other.iter().copied());
        }
    }
    covered
}

/// A name for the guard not yet in `names`: from its refusal's reason, or
/// `run-<harness>-<event>`, numbered when taken.
fn guard_name(
    key: &Key,
    hs: &BTreeSet<HarnessId>,
    run: Option<&Run>,
    names: &mut BTreeSet<String>,
) -> String {
    let base = match (&key.action, run) {
        (Action::Always { reason, .. } | Action::When { reason, .. }, _) => slug(reason),
        (_, _) => format!(
            "run-{}-{}",
            hs.iter().next().map_or("", |h| h.word()),
            key.event.word()
        ),
    };
    let mut name = base.clone();
    let mut n = 2;
    while !names.insert(name.clone()) {
        name = format!("{base}-{n}");
        n += 1;
    }
    name
}

#[allow(clippy::too_many_arguments)]
fn guard_text(
    name: &str,
    key: &Key,
    hs: &BTreeSet<HarnessId>,
    everywhere: bool,
    all: &BTreeSet<HarnessId>,
    origins: &[String],
    run: Option<&Run>,
    imported: &mut Imported,
) -> String {
    let mut g = String::new();
    for o in origins {
        g.push_str(&format!("// from {}\n", comment(o)));
    }
    // Guards of only some harnesses name those harnesses' own tools; the
    // harnesses without them would otherwise be `unsupported`.
    let scoped = !everywhere && run.is_none();
    let mut lines: Vec<String> = Vec::new();
    if key.event != Event::PreTool {
        lines.push(format!("event {}", kdl_string(key.event.word())));
    }
    lines.extend(tool_lines(&key.tools, key.event, hs, scoped));
    let untested = match run {
        Some(run) => {
            lines.extend(run_lines(name, key.event, hs, origins, run, imported));
            Some("runs the hand-written hook, which hookc cannot read".to_owned())
        }
        None => refusal_lines(key, scoped, &mut lines),
    };
    if scoped {
        let others: Vec<String> = all.difference(hs).map(|h| kdl_string(h.word())).collect();
        if !others.is_empty() && !matches!(key.tools, Tools::Every if !key.event.has_tools()) {
            lines.push(format!("allow-degraded {}", others.join(" ")));
        }
    }
    match untested {
        Some(why) => g.push_str(&format!(
            "guard {} untested={} {{\n",
            kdl_string(name),
            kdl_string(&why)
        )),
        None => g.push_str(&format!("guard {} {{\n", kdl_string(name))),
    }
    for l in lines {
        g.push_str(&format!("    {l}\n"));
    }
    g.push_str("}\n");
    g
}

/// The guard's `tool` and `mcp` lines. A `scoped` guard (of only some
/// harnesses) names each harness's own tools.
fn tool_lines(tools: &Tools, event: Event, hs: &BTreeSet<HarnessId>, scoped: bool) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    match tools {
        Tools::Every if event.has_tools() && scoped => {
            // Every tool of these harnesses that hookc knows by name.
            let mut words = Vec::new();
            for h in hs {
                if let Some(p) = crate::harness::get(*h).map(|x| x.profile()) {
                    let mut seen = BTreeSet::new();
                    for (_, names) in p.tools {
                        for n in *names {
                            if seen.insert(*n) {
                                words.push(format!("({}){}", h.word(), kdl_string(n)));
                            }
                        }
                    }
                }
            }
            lines.push(
                "// The hand-written hook ran for every tool; these are the ones hookc knows"
                    .to_owned(),
            );
            lines.push("// by name (MCP tools and others are not covered).".to_owned());
            lines.push(format!("tool {}", words.join(" ")));
        }
        Tools::Every => {}
        Tools::Some { kinds, mcp, native } => {
            if scoped {
                let mut words = Vec::new();
                for h in hs {
                    let Some(p) = crate::harness::get(*h).map(|x| x.profile()) else {
                        continue;
                    };
                    for k in kinds {
                        for n in p.tool_names(*k) {
                            words.push(format!("({}){}", h.word(), kdl_string(n)));
                        }
                    }
                    for n in native {
                        words.push(format!("({}){}", h.word(), kdl_string(n)));
                    }
                }
                if !words.is_empty() {
                    lines.push(format!("tool {}", words.join(" ")));
                }
            } else {
                if !kinds.is_empty() {
                    let words: Vec<String> = kinds.iter().map(|k| kdl_string(k.word())).collect();
                    lines.push(format!("tool {}", words.join(" ")));
                }
                for n in native {
                    let words: Vec<String> = hs
                        .iter()
                        .map(|h| format!("({}){}", h.word(), kdl_string(n)))
                        .collect();
                    lines.push(format!("tool {}", words.join(" ")));
                }
            }
            for (server, tool) in mcp {
                lines.push(format!("mcp {} {}", kdl_string(server), kdl_string(tool)));
            }
        }
    }
    lines
}

/// The decision line of a refusal on `event`, with its reason (or one that
/// says to ask the user).
fn decision_line(refusal: Refusal, reason: &str, event: Event) -> String {
    let reason = if reason.trim().is_empty() {
        "A hook imported from the hand-written config refused this call; ask the user how to go on."
    } else {
        reason
    };
    let word = match (refusal, event) {
        (Refusal::Ask, Event::PreTool) => "ask",
        (_, Event::PreTool | Event::Prompt) => "deny",
        _ => "block",
    };
    format!("{word} {}", kdl_string(reason))
}

/// The lines of a guard whose hook hookc could read: its `regex`, its
/// decision and its examples. Without examples, it says why (the reason
/// for `untested=`).
fn refusal_lines(key: &Key, scoped: bool, lines: &mut Vec<String>) -> Option<String> {
    let shell_only = matches!(&key.tools, Tools::Some { kinds, mcp, native } if kinds.len() == 1 && kinds.contains(&ToolKind::Shell) && mcp.is_empty() && native.is_empty());
    match &key.action {
        Action::Always { refusal, reason } => {
            lines.push(decision_line(*refusal, reason, key.event));
            let expect = if *refusal == Refusal::Ask && key.event == Event::PreTool {
                "ask"
            } else {
                "deny"
            };
            if shell_only && !scoped && key.event == Event::PreTool {
                lines.push(format!(
                    "example \"echo hookc-import\" expect={}",
                    kdl_string(expect)
                ));
                None
            } else {
                Some("imported: the hand-written hook refused every call it ran for".to_owned())
            }
        }
        Action::When {
            pattern,
            refusal,
            reason,
        } => {
            lines.push(format!(
                "regex {}",
                crate::syntax::raw_string(&pattern.regex)
            ));
            lines.push(decision_line(*refusal, reason, key.event));
            let expect = if *refusal == Refusal::Ask {
                "ask"
            } else {
                "deny"
            };
            match &pattern.fixed {
                Some(text) if !scoped => {
                    lines.push(format!(
                        "example {} expect={}",
                        kdl_string(text),
                        kdl_string(expect)
                    ));
                    lines.push("example \"true\" expect=\"allow\"".to_owned());
                    None
                }
                _ => Some("imported: the hand-written hook searched the command line".to_owned()),
            }
        }
        Action::Nothing | Action::Opaque => None,
    }
}

/// What a `run` guard does with its hook's answer on an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The hook refuses (exit 2, or a refusal as JSON): the guard's decision
    /// is a refusal.
    Refuse,
    /// The hook prints text for the model (a session start's, or a prompt's
    /// hook that never refuses): the guard's decision is `context`.
    Context,
}

fn mode(event: Event, run: &Run) -> Mode {
    match event {
        Event::SessionStart => Mode::Context,
        Event::Prompt if !run.refuses => Mode::Context,
        _ => Mode::Refuse,
    }
}

/// The lines of a `run` guard, and its wrapper script (added to `imported`).
fn run_lines(
    name: &str,
    event: Event,
    hs: &BTreeSet<HarnessId>,
    origins: &[String],
    run: &Run,
    imported: &mut Imported,
) -> Vec<String> {
    let harness = hs.iter().next().copied().unwrap_or(HarnessId::Claude);
    let path = PathBuf::from(SCRIPTS).join(format!("{name}.sh"));
    let mode = mode(event, run);
    imported.scripts.push((
        path.clone(),
        wrapper(harness, &origins.join(", "), run, mode),
    ));
    let mut lines = vec![
        format!(
            "// The hand-written hook, run on {}'s own payload by a wrapper hookc import wrote.",
            crate::harness::get(harness).map_or("its harness", |h| h.profile().name)
        ),
        format!("// Its command: {}", comment(&run.shown())),
    ];
    if let Some((field, matcher)) = &run.filter {
        lines.push(format!(
            "// Its matcher `{}` is checked by the wrapper, on the payload's `{field}`.",
            comment(matcher)
        ));
    }
    lines.push(format!("run {}", kdl_string(&path.to_string_lossy())));
    match mode {
        Mode::Context => {
            lines.push(
                "// The model reads what the hook prints (the wrapper passes it on); this text is a fallback."
                    .to_owned(),
            );
            lines.push(format!(
                "context {}",
                kdl_string("A hook imported from the hand-written config added context.")
            ));
        }
        Mode::Refuse => {
            if matches!(event, Event::Prompt | Event::SessionStart) {
                lines.push("// Text the hook prints for the model when it lets the prompt through is not carried over: a".to_owned());
                lines.push("// guard has one decision (add a `context` guard that runs the same hook for it).".to_owned());
            }
            lines.push(decision_line(Refusal::Deny, "", event));
        }
    }
    lines
}

/// A shell word that gives `text` as Claude Code gives an exec-form
/// argument: as written, with `${NAME}` placeholders replaced by the
/// variable's value.
fn exec_word(text: &str) -> String {
    let placeholder = regex::Regex::new(r"\$\{[A-Za-z_][A-Za-z0-9_]*\}").expect("a fixed pattern");
    let mut word = String::from("\"");
    let mut at = 0;
    let quote = |s: &str, out: &mut String| {
        for c in s.chars() {
            if matches!(c, '\\' | '"' | '$' | '`') {
                out.push('\\');
            }
            out.push(c);
        }
    };
    for m in placeholder.find_iter(text) {
        quote(&text[at..m.start()], &mut word);
        word.push_str(m.as_str());
        at = m.end();
    }
    quote(&text[at..], &mut word);
    word.push('"');
    word
}

/// The wrapper's check of a matcher on an event without tools, as the
/// harness reads one: a list of exact names (`startup|resume`), else a
/// regular expression searched for in the field.
fn filter_check(field: &str, matcher: &str) -> String {
    let exact = matcher
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || " _-,|".contains(c));
    let test = if exact {
        format!(
            r#"(.{field} // "") as $v | [$m | splits("[|,]") | gsub("^\\s+|\\s+$"; "")] | any(.[]; . == $v)"#
        )
    } else {
        format!(r#"(.{field} // "") | test($m)"#)
    };
    format!(
        "# The hook's matcher, on the payload's `{field}`: another value is not its business.\nprintf '%s\\n' \"$raw\" | jq -e --arg m {} '{test}' >/dev/null 2>&1 || exit 0\n",
        sh_quote(matcher)
    )
}

fn sh_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The `run` program for a hand-written hook of `harness`: it hands the
/// harness's own payload (hookc's `raw`) to the hook, in the project root,
/// and says what the hook answered. For a refusing hook: exit 2 with the
/// reason on stderr for a refusal (exit 2, or a refusal as JSON on stdout),
/// 0 for none. For a hook that gives context: exit 2 with the text it
/// printed (or its JSON `additionalContext`) on stderr, 0 when it printed
/// nothing. Any other status is 1, which hookc treats as "could not run".
/// Another harness's call is not this hook's business (exit 0).
fn wrapper(harness: HarnessId, origin: &str, run: &Run, mode: Mode) -> String {
    let invocation = match &run.args {
        None => format!("sh -c {}", sh_quote(&run.command)),
        Some(args) => std::iter::once(&run.command)
            .chain(args)
            .map(|a| exec_word(a))
            .collect::<Vec<_>>()
            .join(" "),
    };
    let filter = run
        .filter
        .as_ref()
        .map(|(field, matcher)| filter_check(field, matcher))
        .unwrap_or_default();
    let answer = match mode {
        Mode::Refuse => {
            r#"case $s in
0)
    why=$(printf '%s' "$out" | jq -r 'select(type == "object") | (.permission // .permissionDecision // .hookSpecificOutput.permissionDecision // .decision // "") as $d | if $d == "deny" or $d == "block" or $d == "ask" then (.agent_message // .user_message // .permissionDecisionReason // .hookSpecificOutput.permissionDecisionReason // .reason // "refused by the hand-written hook") else empty end' 2>/dev/null)
    [ -n "$why" ] || exit 0
    printf '%s\n' "$why" >&2; exit 2 ;;
2) printf '%s\n' "$reason" >&2; exit 2 ;;
*) printf '%s\n' "$reason" >&2; exit 1 ;;
esac"#
        }
        Mode::Context => {
            r#"case $s in
0)
    if printf '%s' "$out" | jq -e 'type == "object"' >/dev/null 2>&1; then
        text=$(printf '%s' "$out" | jq -r '.hookSpecificOutput.additionalContext // .additionalContext // empty')
    else
        text=$out
    fi
    [ -n "$text" ] || exit 0
    printf '%s\n' "$text" >&2; exit 2 ;;
*) printf '%s\n' "$reason" >&2; exit 1 ;;
esac"#
        }
    };
    let what = match mode {
        Mode::Refuse => "exit 2: refuse, with the reason on stderr; 0: no objection",
        Mode::Context => "exit 2: the text it printed for the model, on stderr; 0: nothing to add",
    };
    format!(
        r#"#!/bin/sh
# Written by `hookc import` from {origin}: hookc's `run` guard for a hook it
# could not read. It gives the hook {name}'s own payload and tells hookc what
# the hook answered ({what}).
# Needs jq.
in=$(cat) || exit 1
h=$(printf '%s\n' "$in" | jq -r .harness) || exit 1
[ "$h" = {word} ] || exit 0
raw=$(printf '%s\n' "$in" | jq -c .raw) || exit 1
{filter}: "${{CLAUDE_PROJECT_DIR:=$PWD}}" "${{GEMINI_PROJECT_DIR:=$PWD}}" "${{CURSOR_PROJECT_DIR:=$PWD}}" "${{COPILOT_PROJECT_DIR:=$PWD}}"
export CLAUDE_PROJECT_DIR GEMINI_PROJECT_DIR CURSOR_PROJECT_DIR COPILOT_PROJECT_DIR
err=$(mktemp) || exit 1
out=$(printf '%s\n' "$raw" | {invocation} 2>"$err"); s=$?
reason=$(cat "$err"); rm -f "$err"
{answer}
"#,
        name = crate::harness::get(harness).map_or("its harness", |h| h.profile().name),
        word = harness.word(),
    )
}

/// Read the hook files under `root` (or the files given) and import them.
pub fn import(root: &Path, paths: &[PathBuf]) -> Result<Imported, String> {
    let mut targets: Vec<(PathBuf, Kind)> = Vec::new();
    if paths.is_empty() {
        for f in lint::discover(root) {
            if let Some(k) = lint::classify(&f) {
                targets.push((f, k));
            }
        }
    } else {
        for p in paths {
            if p.is_dir() {
                for f in lint::discover(p) {
                    if let Some(k) = lint::classify(&f) {
                        targets.push((f, k));
                    }
                }
            } else {
                let text = crate::disk::read_text(p)
                    .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
                let kind = lint::classify(p)
                    .or_else(|| text.as_deref().and_then(|t| lint::classify_content(p, t)))
                    .ok_or_else(|| format!("{} is not a hook config hookc knows", p.display()))?;
                targets.push((p.clone(), kind));
            }
        }
    }
    let mut hooks = Vec::new();
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    for (path, kind) in targets {
        let shown = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
        let rel = shown.display().to_string();
        let text = match crate::disk::read_text(&path) {
            Ok(Some(t)) => t,
            Ok(None) => continue,
            Err(e) => return Err(format!("cannot read {rel}: {e}")),
        };
        // hookc's own files are not hand-written hooks.
        if crate::plan::written_whole_by_hookc(root, &rel.replace('\\', "/"), &text) {
            continue;
        }
        match read_file(kind, &rel, &text, &mut skipped) {
            Ok(found) => {
                if found.iter().any(|h| !is_hookcs(&h.command)) {
                    files.push(shown);
                }
                hooks.extend(found.into_iter().map(|mut h| {
                    h.script = script_of(root, &h);
                    h
                }));
            }
            // One file that does not parse is not imported; the others are.
            Err(e) => skipped.push(format!(
                "{rel}: not imported: it does not parse as {}: {e} (`hookc lint {rel}` shows where)",
                kind_name(kind)
            )),
        }
    }
    Ok(policy(&hooks, &files, &skipped))
}

/// What a file of `kind` is, for an error: its harness's name.
fn kind_name(kind: Kind) -> String {
    lint::owner(kind).map_or("a hook file".to_owned(), |(h, format)| {
        let what = if format == crate::profile::FileFormat::HooksJson {
            "hooks file"
        } else {
            "config"
        };
        format!("{}'s {what}", h.profile().name)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matchers_become_tools_where_they_are_names() {
        let some = |t: Option<Tools>| match t {
            Some(Tools::Some { kinds, mcp, native }) => (kinds, mcp, native),
            other => panic!("{other:?}"),
        };
        let (kinds, _, _) = some(tools_of(HarnessId::Claude, Some("^(?:Edit|Write)$")));
        assert_eq!(kinds, BTreeSet::from([ToolKind::Edit, ToolKind::Write]));
        // One tool that writes and edits is both.
        let (kinds, _, _) = some(tools_of(HarnessId::Kiro, Some("fs_write")));
        assert_eq!(kinds, BTreeSet::from([ToolKind::Edit, ToolKind::Write]));
        let (_, mcp, native) = some(tools_of(HarnessId::Claude, Some("mcp__github__.*|Task")));
        assert_eq!(mcp, BTreeSet::from([("github".into(), "*".into())]));
        assert_eq!(native, BTreeSet::from(["Task".to_owned()]));
        assert_eq!(tools_of(HarnessId::Copilot, None), Some(Tools::Every));
        // Gemini searches: `write` is part of `write_file`, not a tool.
        assert_eq!(tools_of(HarnessId::Gemini, Some("write")), None);
        // Every harness that searches the tool name (from its profile, and
        // Kimi's file), not a list here that missed Qwen, Droid, Auggie and
        // Windsurf: `file` there fires for `read_file`, `write_file`, ….
        for id in [HarnessId::Qwen, HarnessId::Droid, HarnessId::Kimi] {
            assert_eq!(tools_of(id, Some("file")), None, "{id}");
        }
        assert!(tools_of(HarnessId::Claude, Some("file")).is_some());
        assert_eq!(tools_of(HarnessId::Claude, Some("Ba.h")), None);
    }

    #[test]
    fn antigravity_groups_and_cursor_events_are_read() {
        let text = r#"{"team": {"enabled": true, "PreToolUse": [{"matcher": "^run_command$",
            "hooks": [{"type": "command", "command": "echo '{\"decision\":\"deny\",\"reason\":\"Use make.\"}'"}]}]},
            "off": {"enabled": false, "PreToolUse": [{"matcher": "view_file", "hooks": [{"type": "command", "command": "exit 2"}]}]}}"#;
        let hooks = read_file(
            Kind::json(HarnessId::Antigravity),
            ".agents/hooks.json",
            text,
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(hooks.len(), 1, "{hooks:?}");
        let cursor = r#"{"version": 1, "hooks": {"beforeReadFile": [{"command": "echo 'No reading.' >&2; exit 2"}]}}"#;
        let mut all = hooks;
        all.extend(
            read_file(
                Kind::json(HarnessId::Cursor),
                ".cursor/hooks.json",
                cursor,
                &mut Vec::new(),
            )
            .unwrap(),
        );
        let out = policy(&all, &[], &[]);
        assert_eq!(out.guards, 2, "{}", out.policy);
        assert!(
            out.policy.contains("tool (antigravity)\"run_command\""),
            "{}",
            out.policy
        );
        assert!(out.policy.contains("deny \"Use make.\""), "{}", out.policy);
        assert!(
            out.policy.contains("tool (cursor)\"Read\""),
            "{}",
            out.policy
        );
    }

    #[test]
    fn what_is_not_carried_over_is_said_in_the_policy() {
        let text = r#"{"hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": "x"}]}],
            "Notification": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}],
            "PreToolUse": [{"matcher": "Ba.h", "hooks": [{"type": "command", "command": "exit 2"}]},
                           {"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 0"}]}]}}"#;
        let hooks = read_file(
            Kind::json(HarnessId::Claude),
            ".claude/settings.json",
            text,
            &mut Vec::new(),
        )
        .unwrap();
        let out = policy(&hooks, &[PathBuf::from(".claude/settings.json")], &[]);
        assert_eq!(out.guards, 0, "{}", out.policy);
        assert_eq!(out.skipped.len(), 4, "{:?}", out.skipped);
        for what in [
            "not a command hook",
            "`Notification` has no hookc equivalent",
            "`Ba.h` is a pattern",
            "nothing to import",
        ] {
            assert!(out.policy.contains(what), "{what}: {}", out.policy);
        }
    }
}
