//! The rules for JSON hooks files, from the harness's [`JsonSpec`], plus
//! what the harness adds through [`Quirks`].

use std::ops::Deref;
use std::path::Path;

use jsonc_parser::ast::{Object, ObjectProp, Value};

use super::json_spans::{self as js, as_f64, as_str, get, key, key_span, span, type_name};
use super::{Edit, FileReport, diag, scripts};
use crate::diag::{Code, Diagnostic, Severity, suggest};
use crate::ir::Event;
use crate::profile::{JsonSpec, MatcherSubject, Matching, Profile, Unit};
use crate::source::{SourceFile, Span};

/// A harness's JSON file shape, with the profile it belongs to.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub profile: &'static Profile,
    json: &'static JsonSpec,
}

impl Deref for Spec {
    type Target = JsonSpec;
    fn deref(&self) -> &JsonSpec {
        self.json
    }
}

impl Spec {
    /// Every event name the harness accepts: its profile's, then the rest.
    pub fn events(&self) -> Vec<&'static str> {
        self.profile.all_events()
    }
}

/// What one harness checks in its JSON hooks file beyond its [`JsonSpec`];
/// each default checks nothing.
pub trait Quirks {
    /// Read the file's root object in the harness's own layout (calling
    /// [`events`] on each map of events); `false`: the root holds a `hooks`
    /// object, the usual layout.
    fn root(&self, cx: &Cx, root: &Object, report: &mut FileReport) -> bool {
        let _ = (cx, root, report);
        false
    }

    /// Whether the harness can refuse on `event` where its profile does not
    /// say so (an event hookc does not emit).
    fn can_refuse(&self, event: &str) -> bool {
        let _ = event;
        false
    }

    /// The file's `hooks` property, when it holds any event.
    fn hooks(&self, cx: &Cx, hooks: &ObjectProp, report: &mut FileReport) {
        let _ = (cx, hooks, report);
    }

    /// A handler `h` on `event` (its opening brace at `open`); `fails_open`:
    /// a command hook on an event that can refuse.
    fn handler(
        &self,
        cx: &Cx,
        event: &str,
        fails_open: bool,
        h: &Object,
        open: Span,
        report: &mut FileReport,
    ) {
        let _ = (cx, event, fails_open, h, open, report);
    }

    /// A handler's command `cmd` (at `span`) on `event`.
    fn command(&self, cx: &Cx, event: &str, cmd: &str, span: Span, report: &mut FileReport) {
        let _ = (cx, event, cmd, span, report);
    }
}

/// A harness without [`Quirks`].
pub struct NoQuirks;

impl Quirks for NoQuirks {}

/// One JSON hooks file being linted, and what it is linted with.
pub struct Cx<'a> {
    pub spec: Spec,
    pub file: &'a SourceFile,
    /// The project the file belongs to (guard scripts are resolved against it).
    pub root: &'a Path,
    quirks: &'a dyn Quirks,
    /// Every registered harness's profile, to recognise their names.
    profiles: &'a [&'static Profile],
}

/// Lint `file`, the JSON hooks file of the harness `profile` (nothing when
/// its hooks are not JSON), with its `quirks`. `profiles`: every registered
/// harness's, so another harness's event or tool name is recognised.
pub fn lint(
    profile: &'static Profile,
    quirks: &dyn Quirks,
    profiles: &[&'static Profile],
    file: &SourceFile,
    root: &Path,
    report: &mut FileReport,
) {
    let Some(json) = profile.json.as_ref() else {
        return;
    };
    let spec = Spec { profile, json };
    let dialect = spec.dialect;
    let text = js::readable(&file.text, dialect);
    let value = match js::parse(&text, dialect) {
        Ok(Some(v)) => v,
        Ok(None) => return,
        Err((sp, msg)) => {
            let name = spec.profile.name;
            let bom = file.text.starts_with('\u{feff}') && !dialect.bom;
            let help = syntax_help(name, dialect, bom);
            report.diags.push(
                diag(
                    Code::LintSyntax,
                    file,
                    sp,
                    format!("{name} cannot parse this file: {msg}"),
                    "here",
                )
                .help(help),
            );
            return;
        }
    };
    let Value::Object(rootobj) = &value else {
        report.diags.push(diag(
            Code::LintWrongType,
            file,
            span(&value),
            "the file should hold a JSON object",
            type_name(&value),
        ));
        return;
    };
    duplicate_keys(file, &value, spec.profile.name, report);
    let cx = Cx {
        spec,
        file,
        root,
        quirks,
        profiles,
    };
    root_keys(&cx, rootobj, &value, report);
    if quirks.root(&cx, rootobj, report) {
        return;
    }
    let Some(hooks) = get(rootobj, "hooks") else {
        return;
    };
    let Value::Object(h) = &hooks.value else {
        report.diags.push(diag(
            Code::LintWrongType,
            file,
            span(&hooks.value),
            "`hooks` should be an object mapping event names to lists",
            type_name(&hooks.value),
        ));
        return;
    };
    if !h.properties.is_empty() {
        quirks.hooks(&cx, hooks, report);
    }
    events(&cx, h, &[], report);
}

/// The root's keys (where the harness takes only some) and its `version`.
fn root_keys(cx: &Cx, rootobj: &Object, value: &Value, report: &mut FileReport) {
    if let Some(keys) = cx.spec.strict_root {
        for p in &rootobj.properties {
            if !keys.contains(&key(p)) {
                report.diags.push(
                    diag(
                        Code::LintUnknownKey,
                        cx.file,
                        key_span(p),
                        format!(
                            "{} rejects the whole file for the unknown top-level key `{}`",
                            cx.spec.profile.name,
                            key(p)
                        ),
                        "not allowed here",
                    )
                    .help(suggest(key(p), keys)),
                );
            }
        }
    }
    match cx.spec.version {
        Some(required) if get(rootobj, "version").is_none() && get(rootobj, "hooks").is_some() => {
            let d = diag(
                Code::LintMissingField,
                cx.file,
                js::span(value).sub(0, 1),
                format!("{} hooks file has no `version`", cx.spec.profile.name),
                "add `\"version\": 1` here",
            );
            report.diags.push(if required {
                d
            } else {
                d.severity(Severity::Warning)
            });
        }
        _ => {}
    }
    if let Some(p) = get(rootobj, "version")
        && cx.spec.version.is_some()
        && as_f64(&p.value).is_none()
    {
        report.diags.push(diag(
            Code::LintWrongType,
            cx.file,
            span(&p.value),
            "`version` should be the number 1",
            type_name(&p.value),
        ));
    }
}

/// How to make the file one the harness reads, by its dialect.
fn syntax_help(name: &str, dialect: js::Dialect, bom: bool) -> String {
    if bom {
        return format!(
            "{name} does not skip a byte order mark: save the file as UTF-8 without one (an editor's encoding setting); it ignores (or refuses) the whole file until then"
        );
    }
    match dialect {
        js::Dialect {
            comments: false,
            trailing_commas: false,
            ..
        } => format!(
            "{name} reads this file as strict JSON: no comments, no trailing commas, keys and strings in double quotes; it ignores (or refuses) the whole file until this is fixed"
        ),
        js::Dialect {
            comments: true,
            trailing_commas: false,
            ..
        } => format!(
            "{name} reads this file as JSON with comments: no trailing commas, keys and strings in double quotes; it ignores (or refuses) the whole file until this is fixed"
        ),
        _ => format!(
            "{name} reads this file as JSON (comments allowed): keys and strings in double quotes, commas between entries"
        ),
    }
}

/// The event the harness's name stands for, by any harness's profile.
fn foreign_event(cx: &Cx, name: &str) -> Option<(Event, &'static str)> {
    cx.profiles.iter().find_map(|p| {
        p.events
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(e, _)| (*e, p.name))
    })
}

/// The events of the map `obj` (its keys in `extra` are not events) and
/// their entries.
pub fn events(cx: &Cx, obj: &Object, extra: &[&str], report: &mut FileReport) {
    let spec = cx.spec;
    let profile = spec.profile;
    let all_events = spec.events();
    for prop in &obj.properties {
        let name = key(prop);
        if extra.contains(&name) {
            continue;
        }
        if !all_events.contains(&name) {
            unknown_event(cx, obj, prop, &all_events, report);
        }
        // Where the harness reads names in any case, judge the rest of the
        // entry as the event it will run as.
        let name = match all_events.iter().find(|e| e.eq_ignore_ascii_case(name)) {
            Some(known) if spec.events_any_case => known,
            _ => name,
        };
        let blocking = profile
            .events
            .iter()
            .any(|(e, n)| n.eq_ignore_ascii_case(name) && profile.can_block.contains(e))
            || cx.quirks.can_refuse(name);
        let cannot_block = profile
            .events
            .iter()
            .any(|(e, n)| *n == name && !profile.can_block.contains(e));
        let Value::Array(entries) = &prop.value else {
            report.diags.push(diag(
                Code::LintWrongType,
                cx.file,
                span(&prop.value),
                format!("`{name}` should be a list of hook entries"),
                type_name(&prop.value),
            ));
            continue;
        };
        for e in &entries.elements {
            hook_entry(cx, name, (blocking, cannot_block), e, report);
        }
    }
}

/// An event name the harness does not know: a case slip (fixed by `--fix`
/// where it can be) or another tool's name.
fn unknown_event(
    cx: &Cx,
    obj: &Object,
    prop: &ObjectProp,
    all_events: &[&str],
    report: &mut FileReport,
) {
    let (spec, profile, name) = (cx.spec, cx.spec.profile, key(prop));
    let ks = key_span(prop);
    if let Some(right) = all_events.iter().find(|e| e.eq_ignore_ascii_case(name)) {
        let found = if spec.events_any_case {
            diag(
                Code::LintUnknownEvent,
                cx.file,
                ks,
                format!(
                    "{} reads `{name}` as `{right}`, but other tools reading this file may not",
                    profile.name
                ),
                "unusual case",
            )
            .severity(Severity::Warning)
        } else {
            diag(
                Code::LintUnknownEvent,
                cx.file,
                ks,
                format!(
                    "{} has no event `{name}`: event names are case-sensitive",
                    profile.name
                ),
                "wrong case",
            )
        };
        case_slip(cx.file, obj, prop, right, found, report);
    } else {
        let help = match foreign_event(cx, name)
            .and_then(|(e, who)| profile.event_name(e).map(|own| (own, who)))
        {
            Some((own, who)) => {
                format!(
                    "`{name}` is {who}'s name; {} calls it `{own}`",
                    profile.name
                )
            }
            None => suggest(name, all_events),
        };
        report.diags.push(
            diag(
                Code::LintUnknownEvent,
                cx.file,
                ks,
                format!(
                    "{} has no event `{name}`; these hooks never run",
                    profile.name
                ),
                "unknown event",
            )
            .help(help),
        );
    }
}

/// Reports an event name spelt in the wrong case (`found`), with the fix
/// `--fix` applies when it can.
fn case_slip(
    file: &SourceFile,
    obj: &Object,
    prop: &ObjectProp,
    right: &str,
    found: Diagnostic,
    report: &mut FileReport,
) {
    let ks = key_span(prop);
    match case_fix(file, obj, prop, right) {
        CaseFix::Rename => {
            report
                .diags
                .push(found.help(format!("write `{right}` (`hookc lint --fix` does)")));
            report.edits.push(Edit {
                span: ks,
                text: format!("\"{right}\""),
            });
        }
        CaseFix::Merge(edits) => {
            report.diags.push(found.help(format!(
                    "merge it with the other spellings of `{right}` into one `{right}` list (`hookc lint --fix` does; renaming it alone would repeat the key `{right}`, and of two equal keys only one counts)"
                )));
            report.edits.extend(edits);
        }
        CaseFix::Refuse(why) => {
            report.diags.push(found.help(format!(
                    "move its entries into `{right}` by hand and remove it; `hookc lint --fix` leaves it, because {why}"
                )));
        }
    }
}

/// One entry of an event's list: a `{matcher, hooks}` group or a flat handler.
fn hook_entry(cx: &Cx, name: &str, blocking: (bool, bool), entry: &Value, report: &mut FileReport) {
    let (spec, profile) = (cx.spec, cx.spec.profile);
    let (blocking, cannot_block) = blocking;
    let Value::Object(e) = entry else {
        report.diags.push(diag(
            Code::LintWrongType,
            cx.file,
            span(entry),
            "a hook entry should be an object",
            type_name(entry),
        ));
        return;
    };
    let flat_event = spec
        .strict_keys
        .as_ref()
        .is_some_and(|k| !k.grouped_events.contains(&name));
    let grouped = spec.groups && (get(e, "hooks").is_some() || !spec.flat_ok) && !flat_event;
    if grouped {
        if let Some(m) = get(e, "matcher") {
            matcher(cx, name, &m.value, report);
        }
        if let Some(keys) = &spec.strict_keys {
            super::strict_keys::group_keys(cx.file, spec.profile.name, keys, e, report);
        }
        match get(e, "hooks") {
            None => report.diags.push(
                diag(
                    Code::LintMissingField,
                    cx.file,
                    span(entry),
                    format!(
                        "{} expects `{{\"matcher\": …, \"hooks\": [ … ]}}` here, not a flat handler",
                        profile.name
                    ),
                    "no `hooks` list",
                )
                .help("wrap the handler: { \"matcher\": \"…\", \"hooks\": [ { \"type\": \"command\", … } ] }"),
            ),
            Some(hs) => match &hs.value {
                Value::Array(list) => {
                    for h in &list.elements {
                        handler(cx, name, (blocking, cannot_block), h, report);
                    }
                }
                other => report.diags.push(diag(
                    Code::LintWrongType,
                    cx.file,
                    span(other),
                    "`hooks` should be a list of handlers",
                    type_name(other),
                )),
            },
        }
    } else {
        if let Some(m) = get(e, "matcher") {
            matcher(cx, name, &m.value, report);
        }
        handler(cx, name, (blocking, cannot_block), entry, report);
    }
}

fn matcher(cx: &Cx, event: &str, value: &Value, report: &mut FileReport) {
    let profile = cx.spec.profile;
    let Some(m) = as_str(value) else {
        report.diags.push(
            diag(
                Code::LintWrongType,
                cx.file,
                span(value),
                "a matcher should be one string",
                type_name(value),
            )
            .help("join alternatives into one regex: \"Bash|Write\""),
        );
        return;
    };
    let sp = span(value);
    // `"*"` means "every tool" where the harness says so; elsewhere it is a broken regex.
    if m.is_empty() || (m == "*" && cx.spec.star_is_all) {
        return;
    }
    // A guest's names are known too: it runs this harness's hooks.
    let known: Vec<&str> = profile
        .tools
        .iter()
        .chain(profile.guests.iter().flat_map(|g| g.tools))
        .flat_map(|(_, n)| n.iter().copied())
        .chain(cx.spec.matcher_aliases.iter().map(|(alias, _)| *alias))
        .collect();
    let exact = match cx.spec.matching {
        Matching::ExactWords(extra) => plain(m, extra),
        _ => false,
    };
    if !exact && let Some(f) = super::matchers::regex(profile.flavour, profile.name, m) {
        let error = f.severity == Severity::Error;
        report.diags.push(
            diag(
                Code::LintMatcherRegex,
                cx.file,
                sp,
                f.message,
                "invalid regex",
            )
            .severity(f.severity)
            .help(f.help),
        );
        if error {
            return;
        }
    }
    // A prefilter on a command line, a subagent type: none of the rules on
    // tool names below applies.
    if (cx.spec.matcher_subject)(event) != MatcherSubject::ToolName {
        return;
    }
    let mut foreign = false;
    for w in alternatives(m) {
        foreign |= matcher_word(cx, event, w, (sp, exact), &known, report);
    }
    if !foreign && let Some(d) = unanchored(cx, m, sp, exact) {
        report.diags.push(d);
    }
}

/// Whether `m` is plain names: letters, digits, `_`, `|` and the `extra`
/// characters.
fn plain(m: &str, extra: &str) -> bool {
    m.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|' || extra.contains(c))
}

/// The alternatives of a matcher, without anchors and group parentheses.
fn alternatives(m: &str) -> impl Iterator<Item = &str> {
    m.split(['|', ','])
        .map(|w| w.trim().trim_start_matches('^').trim_end_matches('$'))
        .map(|w| {
            w.trim_start_matches("(?:")
                .trim_start_matches('(')
                .trim_end_matches(')')
        })
}

/// A matcher `m` (at `sp`; `exact`: matched as plain words) that the
/// harness searches for anywhere in a tool name: a bare name where it
/// always searches, or a regex anchored at neither end where it does not
/// match whole.
fn unanchored(cx: &Cx, m: &str, sp: Span, exact: bool) -> Option<Diagnostic> {
    if matches_every_name(m) {
        return None;
    }
    let bare = matches!(cx.spec.matching, Matching::Unanchored) && plain(m, "");
    let fully_anchored = closed_at_start(m) && closed_at_end(m);
    let loose_regex = !(exact || fully_anchored || matches!(cx.spec.matching, Matching::Anchored));
    let core = m.strip_prefix('^').unwrap_or(m);
    let core = match core.strip_suffix('$') {
        Some(c) if !c.ends_with('\\') => c,
        _ => core,
    };
    (bare || loose_regex).then(|| {
        diag(
            Code::LintMatcherUnanchored,
            cx.file,
            sp,
            format!(
                "{} searches for `{m}` anywhere in the tool name, so it also matches longer names (e.g. MCP tools containing it)",
                cx.spec.profile.name
            ),
            "unanchored",
        )
        .help(format!("anchor it: `^({core})$`"))
    })
}

/// Whether nothing can come before what the regex `m` matches: it starts
/// with `^`, or with `.*`, which takes any start.
fn closed_at_start(m: &str) -> bool {
    m.starts_with('^') || m.starts_with(".*")
}

/// Whether the end of the regex `m` is settled: it ends with `$`, or with
/// `.*` (any end, on purpose), or it is `^` and one look-ahead and nothing
/// else (`^(?!Shell$|MCP:)`: every name but these), which decides on the
/// name's start alone; a `$` after it would leave it matching nothing.
fn closed_at_end(m: &str) -> bool {
    let unescaped = |end: &str| m.ends_with(end) && !m.ends_with(&format!("\\{end}"));
    if unescaped("$") || unescaped(".*") {
        return true;
    }
    let Some(group) = m.strip_prefix("^(?!").or_else(|| m.strip_prefix("^(?=")) else {
        return false;
    };
    // The look-ahead's own `)` is the last character.
    let mut depth = 1;
    let mut chars = group.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1 == group.len();
                }
            }
            _ => {}
        }
    }
    false
}

/// Whether the regex `m` matches every tool name, however it is anchored:
/// one of its alternatives (anchors and groups aside) is `.*` or `.+`.
fn matches_every_name(m: &str) -> bool {
    alternatives(m).any(|w| w == ".*" || w == ".+")
}

/// One alternative `w` of the matcher at `sp` (`exact`: matched as plain
/// words): another harness's tool name, an MCP server without a tool, an
/// MCP name of the wrong form, a case slip. Returns whether `w` is another
/// harness's tool name.
fn matcher_word(
    cx: &Cx,
    event: &str,
    w: &str,
    (sp, exact): (Span, bool),
    known: &[&str],
    report: &mut FileReport,
) -> bool {
    let profile = cx.spec.profile;
    if w.is_empty() || known.contains(&w) {
        return false;
    }
    if let Some(d) = foreign_word(cx, w, sp, known) {
        report.diags.push(d);
        return true;
    }
    if let Some(d) = server_without_tool(cx, w, sp, exact) {
        report.diags.push(d);
        return false;
    }
    if let Some(f) = super::matchers::mcp((profile.mcp_names)(event), profile.name, w) {
        report.diags.push(
            diag(
                Code::LintMatcherMcp,
                cx.file,
                sp,
                f.message,
                "not this harness's MCP name",
            )
            .severity(f.severity)
            .help(f.help),
        );
    }
    if let Some(right) = known.iter().find(|k| k.eq_ignore_ascii_case(w)) {
        report.diags.push(
            diag(
                Code::LintMatcherCase,
                cx.file,
                sp,
                format!(
                    "`{w}` matches no {} tool: matchers are case-sensitive",
                    profile.name
                ),
                "wrong case",
            )
            .help(format!("write `{right}`")),
        );
    }
    false
}

/// `w` (at `sp`) is another harness's name for a tool this one names
/// otherwise (and not one of its own `known` names in another case).
fn foreign_word(cx: &Cx, w: &str, sp: Span, known: &[&str]) -> Option<Diagnostic> {
    let profile = cx.spec.profile;
    let (kind, owner) = foreign_tool(cx, w)?;
    if known.iter().any(|k| k.eq_ignore_ascii_case(w)) {
        return None;
    }
    let Some(own) = profile.tool_names(kind).first() else {
        return cx
            .spec
            .tools_closed
            .then(|| no_such_tool(cx, w, sp, kind, owner));
    };
    Some(
        diag(
            Code::LintMatcherForeignTool,
            cx.file,
            sp,
            format!(
                "`{w}` is {owner}'s name for the `{}` tool; {} calls it `{own}`, so this matches nothing",
                kind.word(),
                profile.name
            ),
            "another harness's tool name",
        )
        .help(own_tool_help(cx, kind)),
    )
}

/// `w` (at `sp`) is `owner`'s name for a tool of `kind`, which the harness,
/// whose hooks see only the tools of its profile
/// ([`tools_closed`](crate::profile::JsonSpec::tools_closed)), does not have.
fn no_such_tool(cx: &Cx, w: &str, sp: Span, kind: crate::ir::ToolKind, owner: &str) -> Diagnostic {
    let (profile, spec) = (cx.spec.profile, cx.spec);
    let mut seen: Vec<String> = Vec::new();
    for name in profile.tools.iter().flat_map(|(_, n)| n.iter()) {
        let aliases: Vec<String> = spec
            .matcher_aliases
            .iter()
            .filter(|(_, of)| of == name)
            .map(|(alias, _)| format!("`{alias}`"))
            .collect();
        let shown = if aliases.is_empty() {
            format!("`{name}`")
        } else {
            format!("`{name}` (also matched as {})", aliases.join(", "))
        };
        if !seen.contains(&shown) {
            seen.push(shown);
        }
    }
    diag(
        Code::LintMatcherForeignTool,
        cx.file,
        sp,
        format!(
            "`{w}` is {owner}'s name for the `{}` tool, and {} hooks see no such tool, so this matches nothing",
            kind.word(),
            profile.name
        ),
        "no such tool here",
    )
    .help(format!(
        "{} hooks see only {} and MCP tools: remove `{w}`",
        profile.name,
        seen.join(", ")
    ))
}

/// `mcp__github` (at `sp`): a server with no tool. Where a plain word is
/// matched whole (`exact`, or an anchored harness), it matches no tool at all.
fn server_without_tool(cx: &Cx, w: &str, sp: Span, exact: bool) -> Option<Diagnostic> {
    let whole = exact || matches!(cx.spec.matching, Matching::Anchored);
    let server = w.strip_prefix("mcp__")?;
    if !whole || server.is_empty() || server.contains("__") {
        return None;
    }
    Some(
        diag(
            Code::LintMatcherMcp,
            cx.file,
            sp,
            format!(
                "`{w}` names an MCP server, not a tool: {} matches it whole, so it matches no tool",
                cx.spec.profile.name
            ),
            "a server without a tool",
        )
        .help(format!(
            "for every tool of the server write `{w}__.*`; for one tool, `{w}__<tool>`"
        )),
    )
}

/// How to write the harness's own name(s) for a tool of `kind` in a matcher.
fn own_tool_help(cx: &Cx, kind: crate::ir::ToolKind) -> String {
    let names = cx.spec.profile.tool_names(kind);
    let alternatives = names.join("|");
    match cx.spec.matching {
        // A bare word would match longer names too.
        Matching::Unanchored if names.len() == 1 => format!("write `^{alternatives}$`"),
        Matching::Unanchored => format!("write `^(?:{alternatives})$`"),
        _ => format!("write `{alternatives}`"),
    }
}

/// The tool `word` names in another harness than the file's, and that
/// harness's name: `Bash` is Claude Code's `shell`.
fn foreign_tool(cx: &Cx, word: &str) -> Option<(crate::ir::ToolKind, &'static str)> {
    if !word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    cx.profiles
        .iter()
        .filter(|p| p.id != cx.spec.profile.id)
        .find_map(|p| {
            p.tools
                .iter()
                .find(|(_, names)| names.contains(&word))
                .map(|(kind, _)| (*kind, p.name))
        })
}

fn handler(
    cx: &Cx,
    event: &str,
    (blocking, cannot_block): (bool, bool),
    value: &Value,
    report: &mut FileReport,
) {
    let spec = cx.spec;
    let name = spec.profile.name;
    let Value::Object(h) = value else {
        report.diags.push(diag(
            Code::LintWrongType,
            cx.file,
            span(value),
            "a hook handler should be an object",
            type_name(value),
        ));
        return;
    };
    let open = span(value).sub(0, 1);
    if let Some(keys) = &spec.strict_keys {
        super::strict_keys::handler_keys(cx.file, spec.profile.name, keys, h, report);
    }
    handler_type(cx, h, open, report);
    let is_command = get(h, "type")
        .and_then(|t| as_str(&t.value))
        .is_none_or(|t| t == "command");
    let commands: Vec<_> = spec.command_keys.iter().filter_map(|k| get(h, k)).collect();
    if is_command && commands.is_empty() {
        report.diags.push(diag(
            Code::LintMissingField,
            cx.file,
            open,
            format!("this {name} command hook has no `{}`", spec.command_keys[0]),
            "nothing to run",
        ));
    }
    for c in &commands {
        handler_command(cx, event, (blocking, cannot_block), c, report);
    }
    handler_timeout(cx, h, report);
    cx.quirks
        .handler(cx, event, blocking && is_command, h, open, report);
}

/// A handler's timeout: a number, in the unit the harness counts.
/// A handler's `type`: present where the harness needs one, and one it knows.
fn handler_type(cx: &Cx, h: &Object, open: Span, report: &mut FileReport) {
    let spec = cx.spec;
    let name = spec.profile.name;
    match get(h, "type") {
        None if spec.require_type => report.diags.push(
            diag(
                Code::LintMissingField,
                cx.file,
                open,
                format!("{name} needs a `type` on every hook handler"),
                "no `type`",
            )
            .help("add `\"type\": \"command\"`"),
        ),
        Some(t) => match as_str(&t.value) {
            Some(s) if !spec.types.contains(&s) => report.diags.push(
                diag(
                    Code::LintWrongType,
                    cx.file,
                    span(&t.value),
                    format!("{name} has no hook type `{s}`"),
                    "unknown type",
                )
                .help(suggest(s, spec.types)),
            ),
            None => report.diags.push(diag(
                Code::LintWrongType,
                cx.file,
                span(&t.value),
                "`type` should be a string",
                type_name(&t.value),
            )),
            _ => {}
        },
        None => {}
    }
}

/// One command of a handler: a refusal on an event that cannot refuse, and
/// the command itself (see [`scripts::check_command`]).
fn handler_command(
    cx: &Cx,
    event: &str,
    (blocking, cannot_block): (bool, bool),
    c: &ObjectProp,
    report: &mut FileReport,
) {
    let spec = cx.spec;
    let name = spec.profile.name;
    // hookc's own launcher: what its guards cannot do on this event the
    // build already said (`unsupported`, or `allow-degraded`); its
    // `exit 2` only tells the user that the shim is missing.
    if cannot_block
        && let Some(cmd) = as_str(&c.value)
        && (cmd.contains("exit 2") || cmd.contains("\"deny\""))
        && !scripts::is_hookc_launcher(cmd)
    {
        report.diags.push(
            diag(
                Code::LintCannotBlock,
                cx.file,
                span(&c.value),
                format!("{name} cannot refuse anything on `{event}`: this refusal is ignored"),
                "refuses too late",
            )
            .help("move the guard to the pre-tool event"),
        );
    }
    if let Some(cmd) = as_str(&c.value) {
        cx.quirks.command(cx, event, cmd, span(&c.value), report);
    }
    match as_str(&c.value) {
        Some(cmd) => scripts::check_command(
            cx.file,
            span(&c.value),
            cmd,
            cx.root,
            spec.profile,
            event,
            blocking,
            &also_run_by(cx),
            report,
        ),
        None => report.diags.push(diag(
            Code::LintWrongType,
            cx.file,
            span(&c.value),
            format!("`{}` should be a string", key(c)),
            type_name(&c.value),
        )),
    }
}

/// The harnesses that run this harness's hook files as their own (VS Code
/// runs Copilot CLI's `.github/hooks`), by their profiles' `hooks_from`.
fn also_run_by(cx: &Cx) -> Vec<&'static Profile> {
    cx.profiles
        .iter()
        .filter(|p| p.hooks_from.contains(&cx.spec.profile.id))
        .copied()
        .collect()
}

fn handler_timeout(cx: &Cx, h: &Object, report: &mut FileReport) {
    let spec = cx.spec;
    let name = spec.profile.name;
    let timeout = spec.timeout_keys.iter().find_map(|k| get(h, k));
    if let Some(t) = timeout {
        match as_f64(&t.value) {
            None => report.diags.push(
                diag(
                    Code::LintWrongType,
                    cx.file,
                    span(&t.value),
                    format!(
                        "`{}` should be a number ({}), not {}",
                        key(t),
                        if spec.unit == Unit::Millis {
                            "milliseconds"
                        } else {
                            "seconds"
                        },
                        type_name(&t.value)
                    ),
                    "not a number",
                )
                .help(match as_str(&t.value) {
                    Some(s) => format!(
                        "write the bare number: {}",
                        s.trim_end_matches(|c: char| c.is_alphabetic())
                    ),
                    None => "write a number".into(),
                }),
            ),
            Some(n) if n <= 0.0 => report.diags.push(diag(
                Code::LintTimeout,
                cx.file,
                span(&t.value),
                format!("{name} refuses a timeout of {n}"),
                "must be positive",
            )),
            Some(n) if spec.unit == Unit::Millis && n < 1000.0 => report.diags.push(
                diag(
                    Code::LintTimeout,
                    cx.file,
                    span(&t.value),
                    format!("{name} timeouts are milliseconds: this hook gets {n} ms"),
                    "seconds?",
                )
                .severity(Severity::Warning)
                .help(format!("for {n} seconds write {}", n * 1000.0)),
            ),
            // 1000 seconds and more: almost always milliseconds written
            // where the harness counts seconds (`30000` is over 8 hours).
            Some(n) if spec.unit == Unit::Seconds && n >= 1000.0 => report.diags.push(
                diag(
                    Code::LintTimeout,
                    cx.file,
                    span(&t.value),
                    format!(
                        "{name} timeouts are seconds: this hook may run for {n} s ({:.1} hours)",
                        n / 3600.0
                    ),
                    "milliseconds?",
                )
                .severity(Severity::Warning)
                .help(format!("for {n} milliseconds write {}", n / 1000.0)),
            ),
            _ => {}
        }
    }
}

/// Every key that appears more than once in one object, anywhere in the
/// file: the harness keeps one of them (or rejects the file), never both.
fn duplicate_keys(file: &SourceFile, value: &Value, harness: &str, report: &mut FileReport) {
    match value {
        Value::Object(o) => {
            for (i, p) in o.properties.iter().enumerate() {
                if let Some(first) = o.properties[..i].iter().find(|q| key(q) == key(p)) {
                    report.diags.push(
                        diag(
                            Code::LintDuplicateKey,
                            file,
                            key_span(p),
                            format!(
                                "`{}` appears twice in this object; {harness} keeps only one of them, and what is under the other is lost",
                                key(p)
                            ),
                            "repeated key",
                        )
                        .label(key_span(first), "first here")
                        .help("merge the two into one key"),
                    );
                }
                duplicate_keys(file, &p.value, harness, report);
            }
        }
        Value::Array(a) => {
            for v in &a.elements {
                duplicate_keys(file, v, harness, report);
            }
        }
        _ => {}
    }
}

/// How `--fix` corrects the case of an event name `prop` whose right
/// spelling is `right`, given its siblings in `obj`.
enum CaseFix {
    /// The only key for this event: rename it.
    Rename,
    /// `right` is there too (or another misspelling of it is, and is
    /// renamed): these edits move `prop`'s entries into it and delete `prop`.
    /// The edits for the whole group come with its second member, none with
    /// the others, so each is applied once.
    Merge(Vec<Edit>),
    /// No safe edit; the reason, for the help.
    Refuse(&'static str),
}

fn case_fix(file: &SourceFile, obj: &Object, prop: &ObjectProp, right: &str) -> CaseFix {
    let group: Vec<_> = obj
        .properties
        .iter()
        .filter(|p| key(p).eq_ignore_ascii_case(right))
        .collect();
    if group.len() == 1 {
        return CaseFix::Rename;
    }
    let exact = group.iter().filter(|p| key(p) == right).count();
    if exact > 1 {
        return CaseFix::Refuse("the key itself is repeated");
    }
    // The entries go into the rightly spelt key, or else into the first
    // misspelling (which is renamed).
    let target = group.iter().position(|p| key(p) == right).unwrap_or(0);
    let arrays: Option<Vec<&jsonc_parser::ast::Array>> = group
        .iter()
        .map(|p| match &p.value {
            Value::Array(a) => Some(a),
            _ => None,
        })
        .collect();
    let Some(arrays) = arrays else {
        return CaseFix::Refuse("one of them is not a list");
    };
    let text = &file.text;
    let mut edits = Vec::new();
    let mut moved = Vec::new();
    for (i, (p, a)) in group.iter().zip(&arrays).enumerate() {
        if i == target {
            continue;
        }
        let Some(deletion) = deletion(text, p) else {
            return CaseFix::Refuse("a comment sits next to it");
        };
        edits.push(Edit {
            span: deletion,
            text: String::new(),
        });
        if let (Some(first), Some(last)) = (a.elements.first(), a.elements.last()) {
            moved.push(&text[span(first).start..span(last).range().end]);
        }
    }
    let into = arrays[target];
    if !moved.is_empty() {
        edits.push(match into.elements.last() {
            Some(last) => Edit {
                span: Span::new(span(last).range().end, 0),
                text: moved.iter().map(|m| format!(", {m}")).collect(),
            },
            None => Edit {
                span: Span::new(into.range.start + 1, 0),
                text: moved.join(", "),
            },
        });
    }
    if key(group[target]) != right {
        edits.push(Edit {
            span: key_span(group[target]),
            text: format!("\"{right}\""),
        });
    }
    // One member carries the group's edits: the first that is not the target.
    let carrier = if target == 0 { 1 } else { 0 };
    if std::ptr::eq(group[carrier], prop) {
        CaseFix::Merge(edits)
    } else {
        CaseFix::Merge(Vec::new())
    }
}

/// The bytes to delete to remove `prop` from its object: the property and
/// the comma after it (and the blanks up to the next key), or, for the last
/// one, the comma before it. `None` when a comment is in the way.
fn deletion(text: &str, prop: &ObjectProp) -> Option<Span> {
    let (start, end) = (prop.range.start, prop.range.end);
    let after = text[end..].trim_start();
    if let Some(rest) = after.strip_prefix(',') {
        let next = text.len() - rest.trim_start().len();
        return Some(Span::new(start, next - start));
    }
    if !after.starts_with('}') {
        return None;
    }
    let before = text[..start].trim_end();
    if before.ends_with(',') {
        let comma = before.len() - 1;
        return Some(Span::new(comma, end - comma));
    }
    // The only property: nothing to join.
    before.ends_with('{').then(|| Span::new(start, end - start))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regex_is_closed_at_the_end_by_a_dollar_a_trailing_any_or_a_lone_look_ahead() {
        for closed in [
            "^Bash$",
            "^(?!Bash$).*",
            "^(?!Shell$|MCP:)",
            "^(?=mcp__)",
            "^(?!a\\)b)",
        ] {
            assert!(closed_at_start(closed) && closed_at_end(closed), "{closed}");
        }
        for open in [
            "^Bash",
            "^(?!Bash$)x",
            "^(?!a)|Bash",
            "Bash\\$",
            "^Bash\\.*",
        ] {
            assert!(!closed_at_end(open), "{open}");
        }
        assert!(!closed_at_start("Bash$"));
    }
}
