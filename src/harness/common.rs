//! Pieces several emitters share: which guards an event has and which native
//! tool names its matcher needs, capability warnings, and the small fixed
//! shell command that finds a project's shim from the working directory.
//!
//! Nothing here knows a harness: names, events and wording come from the
//! caller's [`Profile`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{MachineCheck, Profile};
use crate::emit::EmitCx;
use crate::ir::{Decision, Event, Guard, HarnessId, Policy, Tool};

/// The guards of one event and the tool names a matcher must route to them.
pub struct Route {
    /// Regex fragments (already escaped), one per native tool name; sorted by
    /// [`super::anchored_alternation`] when written.
    pub names: Vec<String>,
    /// Some guard applies to every tool: write no matcher (or a match-all one).
    pub any_tool: bool,
}

/// Route the guards of `event` for `profile`. `names_of` gives the matcher
/// fragments for one guard tool (empty: the harness has no such tool). `None`
/// when the event has no guard that can run on this harness; a guard none of
/// whose tools exists there gets a warning.
pub fn route(
    policy: &Policy,
    event: Event,
    profile: &Profile,
    cx: &mut EmitCx,
    names_of: &dyn Fn(&Tool) -> Vec<String>,
) -> Option<Route> {
    let warn = |guard: &Guard, _: &[String], none: bool, cx: &mut EmitCx| {
        if none {
            cx.unsupported(
                guard,
                profile.id,
                format!("none of this guard's tools exists in {}", profile.name),
                "the guard will not run there".to_owned(),
            );
        }
    };
    route_warning(policy, event, profile, cx, names_of, &warn)
}

/// A harness's warning about a guard tool it has no hook for; see
/// [`route_warning`].
pub type Missing<'a> = dyn Fn(&Guard, &[String], bool, &mut EmitCx) + 'a;

/// [`route`], with the harness's own warning for a guard some of whose tools
/// it has no hook for: `missing` gets the guard, those tools (as written in
/// the policy) and whether none of the guard's tools exists there.
pub fn route_warning(
    policy: &Policy,
    event: Event,
    profile: &Profile,
    cx: &mut EmitCx,
    names_of: &dyn Fn(&Tool) -> Vec<String>,
    missing: &Missing,
) -> Option<Route> {
    profile.event_name(event)?;
    let guards: Vec<&Guard> = policy.guards.iter().filter(|g| g.event == event).collect();
    if guards.is_empty() {
        return None;
    }
    let mut names = Vec::new();
    // Guards name the same few tools again and again: each tool's names are
    // worked out, and added, once (whether it has any is remembered).
    let mut has_names: BTreeMap<&Tool, bool> = BTreeMap::new();
    let mut any_tool = false;
    for guard in &guards {
        if guard.tools.is_empty() {
            any_tool = true;
            continue;
        }
        let mut lacking = Vec::new();
        for tool in &guard.tools {
            let found = *has_names.entry(tool).or_insert_with(|| {
                let found = names_of(tool);
                let any = !found.is_empty();
                names.extend(found);
                any
            });
            if !found {
                lacking.push(tool.to_string());
            }
        }
        if event.has_tools() && !lacking.is_empty() {
            let none = lacking.len() == guard.tools.len();
            missing(guard, &lacking, none, cx);
        }
    }
    if event.has_tools() && !any_tool && names.is_empty() {
        return None;
    }
    Some(Route { names, any_tool })
}

/// Words as a list in backticks: "`read`, `write`".
/// `word` as one POSIX shell word: bare when it holds only characters no
/// shell treats specially, else single-quoted (a `'` inside becomes `'\''`).
pub fn sh_quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c))
    {
        word.to_owned()
    } else {
        crate::emit::sh_word(word)
    }
}

pub fn quoted_list(words: &[String]) -> String {
    words
        .iter()
        .map(|w| format!("`{w}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The matcher fragments of one guard tool: the profile's names for a known
/// tool, `mcp(server, tool)` for an MCP tool (`None`: the harness's MCP names
/// are not known), and the name itself for a native tool of this harness.
pub fn tool_names(
    profile: &Profile,
    tool: &Tool,
    mcp: &dyn Fn(&str, &str) -> Option<String>,
) -> Vec<String> {
    match tool {
        Tool::Known { tool } => profile
            .tool_names(*tool)
            .iter()
            .map(|n| regex::escape(n))
            .collect(),
        Tool::Mcp { server, tool } => mcp(server, tool).into_iter().collect(),
        Tool::Native { harness, name } if *harness == profile.id => vec![regex::escape(name)],
        Tool::Native { .. } => Vec::new(),
    }
}

/// Warn about every guard on an event `profile` has no hook for.
pub fn warn_unsupported_events(policy: &Policy, profile: &Profile, cx: &mut EmitCx) {
    for guard in &policy.guards {
        if profile.event_name(guard.event).is_none() {
            cx.unsupported(
                guard,
                profile.id,
                format!("{} has no hook for `{}`", profile.name, guard.event),
                "the guard will not run there".to_owned(),
            );
        }
    }
}

/// Warn about guards whose decision the harness cannot carry out on their
/// event, saying what hookc does instead.
pub fn warn_decisions(
    policy: &Policy,
    profile: &Profile,
    cx: &mut EmitCx,
    instead: &dyn Fn(Event, Decision) -> Option<&'static str>,
) {
    for guard in &policy.guards {
        if profile.event_name(guard.event).is_none() {
            continue;
        }
        if let Some(what) = instead(guard.event, guard.decision) {
            cx.unsupported(
                guard,
                profile.id,
                format!(
                    "{} cannot `{}` on `{}`",
                    profile.name, guard.decision, guard.event
                ),
                what.to_owned(),
            );
        }
    }
}

/// Shell text that runs the shim at `path` (shell words, quoted where they
/// need it) inside the shell the harness started, by reading it with `.`,
/// rather than starting a second shell for it: that is one program start
/// fewer on every call, about a third of a guard call's time
/// (`bench/run.sh`). The shim finds its own directory through `hookc_shim`,
/// because `$0` names the harness's shell there. A lower-case shell variable
/// that is never exported, it cannot reach hookc or leak into a shim that
/// is run as a program.
///
/// A shim that cannot be read is refused (status 2) before `.`: `dash`
/// would stop with status 2 by itself, but `bash` would go on and exit 0.
/// `.` comes last because Cursor appends a here-document for stdin to the
/// command it runs.
pub fn source_shim(path: &str) -> String {
    source_shim_refusing(
        path,
        "echo \"hookc could not read $hookc_shim, so the call was refused. Run hookc build in the project.\" >&2",
    )
}

/// Text an agent types into a running program (Letta Code's `write_stdin`,
/// Qoder CLI's `BashInput`), read as the shell lines it would be if that
/// program is a shell: each carriage return or newline ends a line.
///
/// The shell is an interactive one, which gives keys and words meanings a
/// line read by `sh -c` does not have, and which remembers earlier calls.
/// Text that uses them is refused, as hookc cannot see what it runs: a
/// control key or escape sequence (Ctrl-U, an arrow, Ctrl-C then more
/// text), a tab (completion picks the word), `!` or a line that starts
/// with `^` (history expansion), and `fc`, `r` or `history` (they run
/// earlier lines again: `echo git push -f`, then `fc -s echo=`). A call
/// of the lines is [`typed`](crate::eval::Call::typed). Where the harness
/// decodes backslash escapes itself (`escapes`), `\r` and `\n` end a line
/// and any other backslash is refused.
pub fn typed_lines(text: &str, escapes: bool) -> Result<String, String> {
    const INSTEAD: &str = "type plain text, or run the command with the shell tool";
    let text = if escapes {
        let decoded = text.replace("\\r", "\n").replace("\\n", "\n");
        if decoded.contains('\\') {
            return Err(format!(
                "hookc cannot read typed text with backslash escapes (the harness decodes them into keys); {INSTEAD}"
            ));
        }
        decoded
    } else {
        text.to_owned()
    };
    let text = text.replace('\r', "\n");
    if text.chars().any(|c| c.is_control() && c != '\n') {
        return Err(format!(
            "hookc cannot read typed text with control keys or tabs (they edit, complete or recall the line); {INSTEAD}"
        ));
    }
    if crate::shell::keys::recalls_history(&text) {
        return Err(format!(
            "hookc cannot read typed text that expands or runs the shell's history (`!`, `^`, `fc`, `r`, `history`); {INSTEAD}"
        ));
    }
    Ok(text)
}

/// `/bin/sh -c` and `script` as one single-quoted word, for a harness that
/// runs hook commands with the user's own shell (`$SHELL -c`), which may be
/// fish or csh: sh, bash, zsh, fish and csh all pass a single-quoted word on
/// unchanged when it holds no `'`, `\` or `!`.
pub fn sh_c_word(script: &str) -> String {
    assert!(!script.contains(['\'', '\\', '!']), "{script}");
    format!("/bin/sh -c '{script}'")
}

/// [`source_shim`] for a managed install's shim at `path` (absolute on the
/// managed machine): nothing in a project can mend a missing one.
pub fn managed_source_shim(path: &str) -> String {
    source_shim_refusing(
        &crate::emit::sh_word(path),
        "echo \"hookc could not read $hookc_shim, so the call was refused. Tell the user: the managed hookc install on this machine is incomplete (hookc doctor --managed).\" >&2",
    )
}

/// The command of a managed install's hook for `event`: its shim written
/// into hookc's folder of the tree, and read by [`managed_source_shim`].
pub fn managed_command(
    cx: &mut EmitCx,
    policy: &Policy,
    profile: &Profile,
    (event, native): (Event, &str),
    install: &crate::managed::Install,
) -> String {
    let on_error = policy.on_error_for(event);
    managed_source_shim(&cx.managed_shim(policy, profile, (event, native), on_error, install))
}

/// A hook's POSIX `command` for a harness that runs its one command string
/// in PowerShell or `cmd.exe` on Windows, where the command cannot start and
/// the call would go ahead: on an event where the harness can refuse, it
/// refuses there instead, telling the model to have the user `fix` it
/// ([`super::windows::refusing_outside_posix`]). A stop is let be (refusing
/// it would keep the agent working forever), as is an event that cannot
/// refuse.
pub fn refusing_on_windows(event: Event, command: String, profile: &Profile, fix: &str) -> String {
    if !profile.can_block.contains(&event) || matches!(event, Event::Stop | Event::SubagentStop) {
        return command;
    }
    super::windows::refusing_outside_posix(
        &command,
        &super::windows::posix_only_message(profile.name, fix),
    )
}

/// The `[[hooks]]` tables of a TOML hook file (Kimi Code's config, Mistral
/// Vibe's `hooks.toml`), each as its string values by key, for `hookc
/// import`; `Err` when the file is not TOML.
pub fn toml_hook_tables(text: &str) -> Result<Vec<BTreeMap<String, String>>, String> {
    let doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| e.to_string())?;
    let tables = doc.get("hooks").and_then(|h| h.as_array_of_tables());
    Ok(tables
        .into_iter()
        .flat_map(|t| t.iter())
        .map(|t| {
            t.iter()
                .filter_map(|(k, v)| Some((k.to_owned(), v.as_str()?.to_owned())))
                .collect()
        })
        .collect())
}

/// [`source_shim`] with `refuse` (shell text) run before the `exit 2` of a
/// shim that cannot be read, for a harness that takes the reason from
/// somewhere other than stderr.
pub fn source_shim_refusing(path: &str, refuse: &str) -> String {
    format!(
        "hookc_shim={path}; [ -r \"$hookc_shim\" ] || \
         {{ {refuse}; exit 2; }}; \
         . \"$hookc_shim\""
    )
}

/// A POSIX-sh command that finds the project around the working directory
/// and runs its shim `.hookc/<harness>/<event>.sh` there.
///
/// What makes a directory a hookc project, for a hook that is not written
/// into one (Kimi Code's user-level install, Antigravity's):
/// - The walk starts at `$PWD` (which must be absolute) and goes up one
///   directory at a time. It never looks into `/` or into a directory with
///   the sticky bit (`/tmp`, `/var/tmp`: anyone can create entries there),
///   and it stops after `$HOME`. So a `.hookc` planted in a shared directory
///   is never reached. A `.hookc` the user running the hook does not own is
///   refused (`incomplete`), never run, and so is one found above `$PWD` on
///   another file system (a mount point is a boundary: what lies beyond it
///   is not the project the session is in); the file system is
///   checked with `/usr/bin/stat` only when the project is above `$PWD`,
///   so a session at the project root costs no extra process.
///   A `.git` does not stop it: a repository inside a project (a planted
///   `sub/.git`, a vendored checkout) is guarded by the project around it.
/// - The first directory holding `.hookc` is the project. If its
///   `.hookc/<harness>/<event>.sh` is a file, `HOOKC_PROJECT_DIR` is
///   exported, `f` set to the shim's path and `found` runs. Otherwise, if
///   `.hookc/<harness>/` exists, or the first line of `.hookc/policy.json`
///   lists the harness in `targets`, or that file cannot be read, the build
///   is incomplete: `incomplete` runs (a refusal). Only a project whose
///   compiled policy does not target the harness has nothing to guard.
/// - A directory with a `policy.kdl` that names the harness but no `.hookc`
///   was never built (or its `.hookc` was moved away): `incomplete` runs.
/// - No project: `not_found` runs.
///
/// `incomplete` may use `$w`, which says what is wrong, and `$d`, the
/// directory. All three are fixed text from the caller: the command holds no
/// path of the build machine and no policy text, so it is the same for every
/// project and build.
pub fn locate_shim(
    harness: HarnessId,
    event: Event,
    found: &str,
    not_found: &str,
    incomplete: &str,
) -> String {
    format!(
        "d=$PWD; case $d in /*) ;; *) d=; esac; \
         while [ -n \"$d\" ] && ! [ -k \"$d\" ]; do \
         if [ -e \"$d/.hookc\" ] || [ -L \"$d/.hookc\" ]; then \
         w=\"$d/.hookc belongs to another user\"; [ -O \"$d/.hookc\" ] || {{ {incomplete}; }}; \
         if [ \"$d\" != \"$PWD\" ] && [ -x /usr/bin/stat ]; then \
         a=$(/usr/bin/stat -c %d \"$PWD\" 2>/dev/null || /usr/bin/stat -f %d \"$PWD\" 2>/dev/null); \
         b=$(/usr/bin/stat -c %d \"$d\" 2>/dev/null || /usr/bin/stat -f %d \"$d\" 2>/dev/null); \
         w=\"$d is on another file system than $PWD\"; [ \"$a\" = \"$b\" ] || {{ {incomplete}; }}; fi; \
         f=\"$d/.hookc/{harness}/{event}.sh\"; \
         if [ -f \"$f\" ]; then export HOOKC_PROJECT_DIR=\"$d\"; {found}; fi; \
         w=\"the hookc project in $d has no .hookc/{harness}/{event}.sh\"; \
         [ -d \"$d/.hookc/{harness}\" ] && {{ {incomplete}; }}; \
         h=; IFS= read -r h <\"$d/.hookc/policy.json\" || {{ w=\"$d/.hookc/policy.json cannot be read\"; {incomplete}; }}; \
         t=${{h#*\\\"targets\\\":\\[}}; t=${{t%%]*}}; \
         case \",$t,\" in *,\\\"{harness}\\\",*) {incomplete} ;; esac; \
         break; fi; \
         if [ -f \"$d/policy.kdl\" ]; then while IFS= read -r l; do case $l in *{harness}*) \
         w=\"$d/policy.kdl names {harness} but $d has no .hookc (it was never built, or .hookc was moved)\"; \
         {incomplete} ;; esac; done <\"$d/policy.kdl\"; fi; \
         [ \"$d\" = \"$HOME\" ] && break; d=${{d%/*}}; \
         done; {not_found}"
    )
}

/// The folder a shell call runs in, when its input names one at `key`
/// (relative to the session's folder `session`), as an absolute path.
pub fn work_dir(input: &serde_json::Value, key: &str, session: Option<&str>) -> Option<String> {
    let dir = input.get(key).and_then(serde_json::Value::as_str)?;
    if Path::new(dir).is_absolute() {
        return Some(dir.to_owned());
    }
    Some(Path::new(session?).join(dir).to_string_lossy().into_owned())
}

/// The project root a shim started through [`locate_shim`] was found in.
pub fn located_project() -> Option<String> {
    std::env::var("HOOKC_PROJECT_DIR")
        .ok()
        .filter(|d| !d.is_empty())
}

/// `rel` under the home folder, if there is one.
pub fn under_home(home: Option<&Path>, rel: &str) -> Option<PathBuf> {
    home.map(|h| h.join(rel))
}

/// A JSON (or JSONC) file's value; `None` when it is missing or unreadable.
/// A failing check for each of `paths` (a settings file of `name`'s)
/// whose `disableAllHooks` is true, which turns every hook off, hookc's
/// too.
pub fn disable_all_hooks_checks(
    name: &str,
    paths: impl IntoIterator<Item = PathBuf>,
) -> Vec<MachineCheck> {
    paths
        .into_iter()
        .filter(|path| {
            read_json(Some(path.clone()))
                .is_some_and(|v| v["disableAllHooks"] == serde_json::json!(true))
        })
        .map(|path| {
            MachineCheck::fail(
                format!(
                    "{name}: {} turns every hook off (disableAllHooks)",
                    path.display()
                ),
                format!("remove `\"disableAllHooks\": true` from {}", path.display()),
            )
        })
        .collect()
}

pub fn read_json(path: Option<PathBuf>) -> Option<serde_json::Value> {
    let text = crate::disk::read_text(&path?).ok()??;
    jsonc_parser::parse_to_serde_value::<serde_json::Value>(&text, &Default::default()).ok()
}

/// The start of decoding a Claude-shaped payload (`tool_name`,
/// `tool_input`, `cwd`): it must be a JSON object, and the call's project is
/// the harness's project variable `var` when it is set and not empty, else
/// `fallback` (the payload's `cwd`, see [`payload_cwd`]).
pub fn new_call(
    event: Event,
    payload: &serde_json::Value,
    var: &str,
    fallback: Option<String>,
) -> Result<crate::eval::Call, String> {
    if !payload.is_object() {
        return Err("the payload is not a JSON object".to_owned());
    }
    Ok(crate::eval::Call {
        event: Some(event),
        root: std::env::var(var)
            .ok()
            .filter(|d| !d.is_empty())
            .or(fallback),
        home: std::env::var("HOME").ok(),
        ..crate::eval::Call::default()
    })
}

/// The payload's `cwd`, where the harness ran the call.
pub fn payload_cwd(payload: &serde_json::Value) -> Option<String> {
    payload
        .get("cwd")
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned)
}

/// A Claude-shaped tool call's `tool_name` and its `tool_input` object.
pub fn tool_and_input(payload: &serde_json::Value) -> Result<(&str, &serde_json::Value), String> {
    let name = super::string_at(payload, "/tool_name")?;
    let input = payload
        .get("tool_input")
        .filter(|v| v.is_object())
        .ok_or("the payload has no `tool_input` object")?;
    Ok((name, input))
}

/// A tool input in Claude Code's shapes, into `call`: a shell tool's
/// `command` (PowerShell's, in PowerShell), `Grep`'s and `Glob`'s folder
/// and filter, `NotebookEdit`'s `notebook_path` and any other file tool's
/// `file_path`. Any other tool's input is text for regexes. For the
/// harnesses that copy Claude Code's tools (CodeBuddy Code, Qoder CLI).
pub fn claude_shaped_input(
    call: &mut crate::eval::Call,
    name: &str,
    kind: Option<crate::ir::ToolKind>,
    input: &serde_json::Value,
) -> Result<(), String> {
    use crate::ir::ToolKind;
    match kind {
        Some(ToolKind::Shell) => {
            call.command = Some(super::string_at(input, "/command")?.to_owned());
            if name == "PowerShell" {
                call.shell = crate::eval::Shell::PowerShell;
            }
        }
        Some(ToolKind::Read) if matches!(name, "Grep" | "Glob") => {
            let (filter, glob_tool) = if name == "Glob" {
                ("/pattern", true)
            } else {
                ("/glob", false)
            };
            crate::eval::search_call(call, input, "/path", filter, glob_tool);
            call.text = Some(input.to_string());
        }
        Some(ToolKind::Read | ToolKind::Write | ToolKind::Edit) => {
            let key = if name == "NotebookEdit" {
                "/notebook_path"
            } else {
                "/file_path"
            };
            call.paths.push(super::string_at(input, key)?.to_owned());
            call.text = Some(input.to_string());
        }
        _ => call.text = Some(input.to_string()),
    }
    Ok(())
}

/// One entry of a Claude-style event list: the handler, behind a matcher
/// when the event names tools and the guards do not take every tool.
pub fn group(matcher: Option<String>, handler: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    let mut group = serde_json::Map::new();
    if let Some(m) = matcher {
        group.insert("matcher".into(), Value::String(m));
    }
    group.insert("hooks".into(), Value::Array(vec![handler]));
    Value::Object(group)
}

/// One Claude-shaped group (`{"matcher"?, "hooks": [handler]}`) for each
/// event of `profile` that `route` routes guards to, by the harness's event
/// name, the matcher anchoring the route's names; `handler` writes an
/// event's shim and makes the handler that runs it.
pub fn grouped_entries(
    profile: &'static Profile,
    cx: &mut EmitCx,
    route: &dyn Fn(&mut EmitCx, Event) -> Option<Route>,
    handler: &mut dyn FnMut(&mut EmitCx, Event, &str) -> serde_json::Value,
) -> indexmap::IndexMap<String, Vec<serde_json::Value>> {
    let mut entries = indexmap::IndexMap::new();
    for &(event, native) in profile.events {
        let Some(Route { names, any_tool }) = route(cx, event) else {
            continue;
        };
        let matcher = (event.has_tools() && !any_tool).then(|| super::anchored_alternation(names));
        let handler = handler(cx, event, native);
        entries.insert(native.to_owned(), vec![group(matcher, handler)]);
    }
    entries
}

/// The text of a call on a Claude-shaped event without a tool: the prompt
/// (required), the agent's last message at a stop, the start's source.
pub fn event_text(event: Event, payload: &serde_json::Value) -> Result<Option<String>, String> {
    let key = match event {
        Event::Prompt => {
            return super::string_at(payload, "/prompt").map(|p| Some(p.to_owned()));
        }
        Event::Stop | Event::SubagentStop => "last_assistant_message",
        Event::SessionStart => "source",
        Event::PreTool | Event::PostTool => return Ok(None),
    };
    Ok(payload
        .get(key)
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned))
}

/// `hookc lint` on a JSON hooks file of the harness `profile`, by the
/// shared rules with the harness's `quirks` (see
/// [`Harness::lint_file`](super::Harness::lint_file)).
pub fn lint_json(
    profile: &'static Profile,
    quirks: &dyn crate::lint_rules::json::Quirks,
    file: &crate::source::SourceFile,
    root: &std::path::Path,
    report: &mut crate::lint_rules::FileReport,
) {
    let profiles: Vec<&'static Profile> = super::all().iter().map(|h| h.profile()).collect();
    crate::lint_rules::json::lint(profile, quirks, &profiles, file, root, report);
}

/// A JSON hooks file parsed as `profile`'s harness reads it (its dialect),
/// refusing what lint and the build refuse too (a raw control character).
pub fn parse_hooks_json(profile: &Profile, text: &str) -> Result<serde_json::Value, String> {
    use crate::lint_rules::json_spans;
    let dialect = profile
        .json
        .as_ref()
        .map_or(json_spans::Dialect::STRICT, |j| j.dialect);
    let text = json_spans::readable(text, dialect);
    let options = crate::merge::json::dialect_options(dialect.comments, dialect.trailing_commas);
    let value = jsonc_parser::parse_to_serde_value::<Option<serde_json::Value>>(&text, &options)
        .map_err(|e| e.to_string())?;
    json_spans::parse(&text, dialect).map_err(|(_, why)| why)?;
    Ok(value.unwrap_or(serde_json::Value::Null))
}

/// The hooks of a JSON hooks file whose `hooks` object maps each event to
/// a Claude-shaped list (see [`written_hooks`]).
pub fn json_hooks(
    profile: &Profile,
    rel: &str,
    text: &str,
    notes: &mut Vec<String>,
) -> Result<Vec<crate::profile::WrittenHook>, String> {
    let v = parse_hooks_json(profile, text)?;
    let mut out = Vec::new();
    let hooks = v.get("hooks");
    if hooks.is_some_and(|h| !h.is_object() && !h.is_null()) {
        return Err(format!(
            "its `hooks` is {}, where {} reads an object of event names, each a list of `{{\"matcher\": …, \"hooks\": [{{\"type\": \"command\", \"command\": …}}]}}`",
            json_kind(hooks.unwrap_or(&serde_json::Value::Null)),
            profile.name
        ));
    }
    for (event, list) in hooks
        .and_then(serde_json::Value::as_object)
        .into_iter()
        .flatten()
    {
        if !list.is_array() {
            notes.push(format!(
                "{rel} {event}: {} where a list of hook entries belongs; not imported",
                json_kind(list)
            ));
            continue;
        }
        written_hooks(profile, rel, event, list, &mut out);
    }
    Ok(out)
}

/// How a JSON value is spoken of: "a list", "a string".
pub fn json_kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "a list",
        serde_json::Value::Object(_) => "an object",
    }
}

/// The hooks of one event's list in a Claude-shaped file
/// (`[{matcher, hooks: [{command}]}]`, or a flat list of handlers), into
/// `out`. A handler's command is under the first of the profile's command
/// keys it has; a PowerShell command is not one hookc can run with `sh`.
pub fn written_hooks(
    profile: &Profile,
    rel: &str,
    event: &str,
    list: &serde_json::Value,
    out: &mut Vec<crate::profile::WrittenHook>,
) {
    use serde_json::Value;
    let keys = profile
        .json
        .as_ref()
        .map_or(&["command"][..], |j| j.command_keys);
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    for (i, entry) in list.as_array().into_iter().flatten().enumerate() {
        let matcher = text(entry, "matcher");
        let handlers: Vec<&Value> = match entry.get("hooks").and_then(Value::as_array) {
            Some(h) => h.iter().collect(),
            None => vec![entry],
        };
        for (j, h) in handlers.into_iter().enumerate() {
            let command = keys
                .iter()
                .filter(|k| **k != "powershell")
                .find_map(|k| text(h, k));
            let at = if j > 0 && command.is_some() {
                format!(".hooks[{j}]")
            } else {
                String::new()
            };
            let args = h.get("args").and_then(Value::as_array).map(|a| {
                a.iter()
                    .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                    .collect()
            });
            out.push(crate::profile::WrittenHook {
                origin: format!("{rel} {event}[{i}]{at}"),
                event: event.to_owned(),
                matcher: matcher.clone(),
                command: command.unwrap_or_default(),
                args,
            });
        }
    }
}

/// The reason a harness that can only allow or refuse gives the model for
/// `verdict`: a refusal's, an `ask`'s with a note that hookc refused it (a
/// hook of `harness` cannot ask), a rewrite's as a refusal naming the
/// command to run; `None` when the call goes ahead.
pub fn refusal_reason(verdict: Option<&crate::eval::Verdict>, harness: &str) -> Option<String> {
    use crate::ir::Decision;
    let verdict = verdict?;
    match verdict.decision {
        Decision::Deny | Decision::Block => Some(verdict.reason()),
        Decision::Rewrite => Some(super::rewrite_as_refusal(verdict).reason()),
        Decision::Ask => Some(format!(
            "{}\n(The policy wants the user to confirm this call, and hookc cannot ask from {harness} hook, so it refused it. Ask the user in the chat; if they agree, they can run it themselves.)",
            verdict.reason()
        )),
        _ => None,
    }
}

/// A `route_warning` callback for a harness whose hooks cannot tell which
/// MCP tool a call is: a guard on MCP tools gets `why` and `fix`; a guard
/// none of whose tools the harness has, the usual warning.
pub fn mcp_unguarded(
    profile: &'static Profile,
    why: &'static str,
    fix: &'static str,
) -> impl Fn(&crate::ir::Guard, &[String], bool, &mut EmitCx) {
    move |guard, lacking, none, cx| {
        if lacking.iter().any(|t| t.starts_with("mcp")) {
            cx.unsupported(guard, profile.id, why.to_owned(), fix.to_owned());
        } else if none {
            cx.unsupported(
                guard,
                profile.id,
                format!("none of this guard's tools exists in {}", profile.name),
                "the guard will not run there".to_owned(),
            );
        }
    }
}

/// Whether the words of `part` (a literal piece of a harness's own command
/// rule) may be in the shell line `line` as the harness reads it: they
/// occur in it as written, or with quotes and backslashes taken out, runs of
/// white space counting as one. An empty part occurs everywhere. It may say
/// yes where the harness would not match, never the other way, which is
/// what holding a rewritten call against the user's own rules needs.
pub fn may_occur(part: &str, line: &str) -> bool {
    let squeezed = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let part = squeezed(part);
    if part.is_empty() {
        return true;
    }
    let bare: String = line
        .chars()
        .filter(|c| !matches!(c, '\'' | '"' | '\\'))
        .collect();
    squeezed(line).contains(&part) || squeezed(&bare).contains(&part)
}

/// The command line of the first of this process's ancestors (a hook runs
/// as the harness's child, through a shell or two) whose program, or the
/// script its interpreter runs, `named` recognises; `None` when there is
/// none within 16 generations, or no `/proc` to read.
#[cfg(unix)]
pub fn ancestor_command_line(named: &dyn Fn(&str) -> bool) -> Option<Vec<String>> {
    let mut pid = std::os::unix::process::parent_id();
    for _ in 0..16 {
        if pid <= 1 {
            return None;
        }
        let argv: Vec<String> = std::fs::read(format!("/proc/{pid}/cmdline"))
            .ok()?
            .split(|&b| b == 0)
            .map(|w| String::from_utf8_lossy(w).into_owned())
            .filter(|w| !w.is_empty())
            .collect();
        if argv.first().is_some_and(|w| named(w)) || argv.get(1).is_some_and(|w| named(w)) {
            return Some(argv);
        }
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // The parent follows the name, which may hold spaces and parentheses.
        pid = stat
            .rsplit_once(')')?
            .1
            .split_whitespace()
            .nth(1)?
            .parse()
            .ok()?;
    }
    None
}

/// Elsewhere than Linux there is no /proc to read it from.
#[cfg(not(unix))]
pub fn ancestor_command_line(_named: &dyn Fn(&str) -> bool) -> Option<Vec<String>> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_text_is_read_as_lines_unless_the_interactive_shell_would_change_it() {
        assert_eq!(typed_lines("git status\r", false).unwrap(), "git status\n");
        assert_eq!(typed_lines("ls\\rpwd\\n", true).unwrap(), "ls\npwd\n");
        for (text, escapes) in [
            ("ls\u{15}git push -f\n", false),
            ("\u{1b}[A\r", false),
            ("cat .en\t\r", false),
            ("!!:s/echo //\r", false),
            ("^echo ^^\r", false),
            ("fc -s echo=\r", false),
            ("r echo=\n", false),
            ("(history 1)\n", false),
            ("echo \\u0003git push -f\\r", true),
            ("cat .en\\t", true),
        ] {
            assert!(typed_lines(text, escapes).is_err(), "{text:?}");
        }
        assert!(typed_lines("cp -r src dst\n", false).is_ok());
    }
    use std::process::Command;

    fn run_in(dir: &std::path::Path, command: &str) -> (i32, String) {
        let out = Command::new("sh")
            .arg("-c")
            .arg(command)
            .current_dir(dir)
            .env("PWD", dir)
            .env_remove("HOOKC_PROJECT_DIR")
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }

    #[test]
    fn locate_shim_runs_the_nearest_projects_shim_and_refuses_an_incomplete_one() {
        let root = tempfile::tempdir().unwrap();
        let project = root.path().join("proj");
        let shim_dir = project.join(".hookc/kimi");
        std::fs::create_dir_all(&shim_dir).unwrap();
        std::fs::write(
            project.join(".hookc/policy.json"),
            "{\"format\":1,\"targets\":[\"claude\",\"kimi\"],\n",
        )
        .unwrap();
        std::fs::write(
            shim_dir.join("pre-tool.sh"),
            "printf 'shim %s %s\\n' \"$HOOKC_PROJECT_DIR\" \"${0##*/}\"\n",
        )
        .unwrap();
        let deep = project.join("src/a b/c");
        std::fs::create_dir_all(&deep).unwrap();
        let locate = |event| {
            locate_shim(
                HarnessId::Kimi,
                event,
                "exec sh \"$f\"",
                "echo none",
                "echo \"incomplete: $w\"; exit 2",
            )
        };
        let command = locate(Event::PreTool);

        let (status, out) = run_in(&deep, &command);
        assert_eq!(status, 0);
        assert_eq!(out, format!("shim {} pre-tool.sh\n", project.display()));

        // A project without the event's shim is a broken build, not a pass.
        let (status, out) = run_in(&deep, &locate(Event::Stop));
        assert_eq!(status, 2);
        assert!(out.contains("has no .hookc/kimi/stop.sh"), "{out}");

        // A repository inside the project is guarded by the project.
        let inner = project.join("vendor/other");
        std::fs::create_dir_all(inner.join(".git")).unwrap();
        assert!(run_in(&inner, &command).1.starts_with("shim "));

        // An empty `.hookc` inside the project is not a project that opts out.
        let planted = project.join("sub");
        std::fs::create_dir_all(planted.join(".hookc")).unwrap();
        let (status, out) = run_in(&planted, &command);
        assert_eq!(status, 2, "{out}");
        assert!(out.contains("cannot be read"), "{out}");

        // A project whose policy does not target the harness has nothing to guard.
        let other = root.path().join("other");
        std::fs::create_dir_all(other.join(".hookc")).unwrap();
        std::fs::write(
            other.join(".hookc/policy.json"),
            "{\"format\":1,\"source\":\"kimi\\\"targets\\\":[\\\"kimi\",\"targets\":[\"claude\"],\"layout\":{\"kimi\":1},\n",
        )
        .unwrap();
        assert_eq!(run_in(&other, &command), (0, "none\n".to_owned()));

        // A policy naming the harness without a build.
        let unbuilt = root.path().join("unbuilt");
        std::fs::create_dir_all(&unbuilt).unwrap();
        std::fs::write(unbuilt.join("policy.kdl"), "targets \"kimi\"\n").unwrap();
        let (status, out) = run_in(&unbuilt, &command);
        assert_eq!(status, 2, "{out}");
        assert!(out.contains("was never built"), "{out}");

        // Outside any project.
        assert_eq!(run_in(root.path(), &command).1, "none\n");
    }

    #[test]
    fn locate_shim_never_looks_into_a_sticky_directory() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap();
        let shared = root.path().join("shared");
        std::fs::create_dir_all(shared.join(".hookc/kimi")).unwrap();
        std::fs::write(shared.join(".hookc/kimi/pre-tool.sh"), "echo planted\n").unwrap();
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
        let mine = shared.join("mine");
        std::fs::create_dir_all(&mine).unwrap();
        let command = locate_shim(
            HarnessId::Kimi,
            Event::PreTool,
            "exec sh \"$f\"",
            "echo none",
            "exit 2",
        );
        assert_eq!(run_in(&mine, &command).1, "none\n");
        assert_eq!(run_in(&shared, &command).1, "none\n");

        // A `.hookc` of another user's is refused, not run (checked where
        // the test may hand a directory to another user, that is as root).
        let theirs = root.path().join("theirs");
        std::fs::create_dir_all(theirs.join(".hookc/kimi")).unwrap();
        std::fs::write(theirs.join(".hookc/kimi/pre-tool.sh"), "echo planted\n").unwrap();
        if std::os::unix::fs::chown(theirs.join(".hookc"), Some(65534), Some(65534)).is_ok() {
            let command = locate_shim(
                HarnessId::Kimi,
                Event::PreTool,
                "exec sh \"$f\"",
                "echo none",
                "echo \"refused: $w\"; exit 2",
            );
            let (status, out) = run_in(&theirs, &command);
            assert_eq!(status, 2, "{out}");
            assert!(out.contains("belongs to another user"), "{out}");
        }
    }
}
