//! Meaning: [`ast::Policy`] → [`ir::Policy`], with every problem reported.
//!
//! Resolution never stops at the first error. Each check pushes a diagnostic
//! and carries on with what it could make sense of, so one run shows the
//! user everything that is wrong. The IR is returned only when there is no
//! error at all: emitters never see a half-valid policy.

mod regex;

use crate::ast::{self, Scalar, Text};
use crate::diag::{Code, Diagnostic, Diagnostics, Severity, suggest};
use crate::eval;
use crate::harness::{self, OptionKind};
use crate::ir::{
    Decision, Event, Example, ExampleCall, Expectation, FORMAT, Guard, HarnessId, PathAccess,
    Policy, Prefilter, Replace, Tool, ToolKind,
};
use crate::paths::PathSet;
use crate::shell::{CommandPattern, FlagGroup};
use crate::source::{SourceFile, Span};

pub const DEFAULT_TIMEOUT: u32 = 10;

/// The policy of a decoded file, its examples checked. The syntax tree is
/// dropped before the examples run: with the compiled regexes and globs they
/// need, the two were most of what a large build held at its peak.
pub fn resolve(file: &SourceFile, ast: ast::Policy, diags: &mut Diagnostics) -> Option<Policy> {
    let policy = resolve_despite_examples(file, ast, diags)?;
    (!diags.has_errors()).then_some(policy)
}

/// The policy of a decoded file even when some of its examples fail (each
/// failure reported in `diags`), for `hookc why` to explain: `None` only
/// when the policy itself has an error.
pub fn resolve_despite_examples(
    file: &SourceFile,
    ast: ast::Policy,
    diags: &mut Diagnostics,
) -> Option<Policy> {
    let mut cx = Cx { file, diags };
    let (policy, compiled) = resolve_policy(&mut cx, &ast)?;
    drop(ast);
    let sound = !cx.diags.has_errors();
    check_examples(&mut cx, &policy, compiled);
    sound.then_some(policy)
}

fn resolve_policy(cx: &mut Cx, ast: &ast::Policy) -> Option<(Policy, Vec<eval::Compiled>)> {
    let file = cx.file;
    let targets = resolve_targets(cx, ast);
    let windows = resolve_platforms(cx, ast);
    let timeout = resolve_timeout(cx, ast);
    let hookc_version = resolve_hookc_version(cx, ast);
    let on_error = resolve_on_error(cx, ast);
    let harness_options = resolve_harness_options(cx, ast);
    crate::lint::config::resolve(file, &ast.lint, cx.diags);
    let audit = resolve_flag(cx, &ast.audit_log, "audit-log");
    let allow_once = resolve_flag(cx, &ast.allow_once, "allow-once");
    let never_override = resolve_never_override(cx, ast);
    let (guards, compiled) = resolve_guards(cx, ast, &targets)?;

    check_rewrites(cx, ast, &targets);
    if cx.diags.has_errors() {
        return None;
    }
    let policy = Policy {
        format: FORMAT,
        source: file.name.to_string(),
        hookc_version,
        built_by: crate::version::Version::current().line(),
        install: String::new(),
        timeout,
        on_error,
        targets,
        windows,
        harness_options,
        audit,
        allow_once,
        never_override,
        guards,
        extends: Vec::new(),
    };
    Some((policy, compiled))
}

/// The hooks' time limit in seconds, [`DEFAULT_TIMEOUT`] unless the policy says.
fn resolve_timeout(cx: &mut Cx, ast: &ast::Policy) -> u32 {
    match &ast.timeout {
        None => DEFAULT_TIMEOUT,
        Some(t) if (1..=600).contains(&t.value) => t.value as u32,
        Some(t) => {
            cx.error(
                Code::InvalidSetting,
                format!("timeout {} is out of range", t.value),
                t.span,
                "seconds, from 1 to 600",
                "write a whole number of seconds from 1 to 600; hookc converts it to each harness's unit",
            );
            DEFAULT_TIMEOUT
        }
    }
}

/// The `hookc-version` requirement, checked against this hookc.
fn resolve_hookc_version(cx: &mut Cx, ast: &ast::Policy) -> Option<String> {
    ast.hookc_version.as_ref().and_then(|t| {
        match crate::version::Requirement::parse(&t.value) {
            Err(why) => {
                cx.error(
                    Code::InvalidVersion,
                    why,
                    t.span,
                    "not a version requirement",
                    "write the hookc versions the policy needs as cargo does: `\"0.2\"` (0.2.x), `\">=0.2.3\"`, `\"~1.4\"` or `\"=0.2.3\"`",
                );
                None
            }
            Ok(req) => {
                let this = crate::version::Version::current();
                if !req.matches(this) {
                    cx.error(
                        Code::VersionMismatch,
                        format!("this policy needs hookc {req}; this is hookc {this}"),
                        t.span,
                        "the versions the policy asks for",
                        format!(
                            "install a hookc that matches (`{}`, the way this repository installs it), or change `hookc-version`",
                            install_for(cx.file, &req)
                        ),
                    );
                }
                Some(req.to_string())
            }
        }
    })
}

/// How the project of the policy file `file` installs hookc: its folder
/// read as `hookc build` reads the project's.
fn install_for(file: &SourceFile, req: &crate::version::Requirement) -> String {
    let root = match std::path::Path::new(&*file.name).parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_owned(),
        _ => std::path::PathBuf::from("."),
    };
    crate::version::install_command(&root, Some(req))
}

/// What a hook that fails to decide answers: `deny` unless `on-error "ask"`.
fn resolve_on_error(cx: &mut Cx, ast: &ast::Policy) -> Decision {
    match ast.on_error.as_ref().map(|t| (t, t.value.as_str())) {
        None | Some((_, "deny")) => Decision::Deny,
        Some((_, "ask")) => Decision::Ask,
        Some((t, other)) => {
            cx.error(
                Code::InvalidSetting,
                format!("`on-error` cannot be `{other}`"),
                t.span,
                "not a fail-closed choice",
                "write `deny` (refuse the call) or `ask` (ask the user); hookc never lets a call through unchecked",
            );
            Decision::Deny
        }
    }
}

/// A `#true`/`#false` setting such as `audit-log`; absent is false.
fn resolve_flag(cx: &mut Cx, node: &Option<crate::source::Spanned<Scalar>>, name: &str) -> bool {
    match node {
        None => false,
        Some(v) => match v.value {
            Scalar::Bool(b) => b,
            ref other => {
                cx.error(
                    Code::WrongType,
                    format!(
                        "`{name}` takes `#true` or `#false`, not {}",
                        other.type_name()
                    ),
                    v.span,
                    "not a boolean",
                    format!("write `{name} #true`"),
                );
                false
            }
        },
    }
}

/// The guards whose refusals no `hookc allow-once` approval lets through.
fn resolve_never_override(cx: &mut Cx, ast: &ast::Policy) -> Vec<String> {
    let mut never_override = Vec::new();
    for decl in &ast.guards {
        match decl.override_.as_ref().map(|o| (o, o.value.as_str())) {
            None | Some((_, "allowed")) => {}
            Some((_, "never")) => never_override.push(decl.name.value.clone()),
            Some((o, other)) => cx.error(
                Code::InvalidSetting,
                format!("`override` cannot be `{other}`"),
                o.span,
                "not an override setting",
                "write `override \"never\"` (no `hookc allow-once` approval lets this guard's refusals through) or leave it out",
            ),
        }
    }
    never_override
}

/// The policy's guards, each name once, then hookc's self-protection guards.
fn resolve_guards(
    cx: &mut Cx,
    ast: &ast::Policy,
    targets: &[HarnessId],
) -> Option<(Vec<Guard>, Vec<eval::Compiled>)> {
    let file = cx.file;
    let mut guards: Vec<Guard> = Vec::new();
    let mut compiled = Vec::new();
    let mut seen: std::collections::HashMap<&str, &ast::GuardDecl> =
        std::collections::HashMap::new();
    for decl in &ast.guards {
        if let Some(first) = seen.get(decl.name.value.as_str()).copied().or_else(|| {
            seen.insert(&decl.name.value, decl);
            None
        }) {
            cx.diags.push(
                Diagnostic::new(
                    Code::DuplicateGuard,
                    format!("guard `{}` is defined twice", decl.name.value),
                )
                .in_file(file)
                .label(decl.name.span, "second definition")
                .label(first.name.span, "first definition")
                .help("give each guard its own name"),
            );
            continue;
        }
        if let Some((guard, parts)) = resolve_guard(cx, decl) {
            guards.push(guard);
            compiled.push(parts);
        }
    }

    // A policy without guards of its own installs no hooks at all (its
    // build retracts them), so there is nothing to protect.
    if !guards.is_empty() && self_protection(cx, ast) {
        // The files it extends by path (a git source is no file here).
        let extended: Vec<String> = ast
            .extends
            .iter()
            .map(|e| e.source.value.clone())
            .filter(|s| !s.starts_with("git+") && !s.contains("://"))
            .collect();
        let text = crate::protect::policy_text(&file.name, targets, &extended);
        let own = SourceFile::new(crate::protect::SOURCE, text);
        let decls = crate::syntax::read_policy(&own, cx.diags)?;
        let mut own_cx = Cx {
            file: &own,
            diags: cx.diags,
        };
        for decl in &decls.guards {
            if let Some((guard, parts)) = resolve_guard(&mut own_cx, decl) {
                guards.push(guard);
                compiled.push(parts);
            }
        }
    }
    Some((guards, compiled))
}

struct Cx<'a> {
    file: &'a SourceFile,
    diags: &'a mut Diagnostics,
}

impl Cx<'_> {
    fn error(
        &mut self,
        code: Code,
        message: String,
        at: Span,
        label: &str,
        help: impl Into<String>,
    ) {
        self.diags.push(
            Diagnostic::new(code, message)
                .in_file(self.file)
                .label(at, label)
                .help(help),
        );
    }

    fn harness(&mut self, name: &Text) -> Option<HarnessId> {
        let id = HarnessId::from_word(&name.value);
        if id.is_none() {
            self.error(
                Code::UnknownHarness,
                format!("unknown harness `{}`", name.value),
                name.span,
                "not a harness hookc knows",
                suggest(&name.value, HarnessId::WORDS),
            );
        }
        id
    }
}

fn resolve_targets(cx: &mut Cx, ast: &ast::Policy) -> Vec<HarnessId> {
    let Some(targets) = &ast.targets else {
        return harness::all().iter().map(|h| h.id()).collect();
    };
    let mut out = Vec::new();
    for name in &targets.value {
        let Some(id) = cx.harness(name) else { continue };
        if harness::get(id).is_none() {
            cx.error(
                Code::UnknownHarness,
                format!("hookc cannot emit for `{id}` yet"),
                name.span,
                "not available in this version",
                format!(
                    "remove it from `targets`; this hookc emits for {}",
                    harness::all()
                        .iter()
                        .map(|h| format!("`{}`", h.id()))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
            continue;
        }
        if !out.contains(&id) {
            out.push(id);
        }
    }
    out.sort();
    out
}

/// The platforms hookc knows, as `platforms` names them.
const PLATFORMS: &[&str] = &["linux", "macos", "windows"];

/// Where `platforms` names Windows. Without `platforms`, a policy is for
/// macOS and Linux, where every harness runs hooks with a POSIX shell.
fn resolve_platforms(cx: &mut Cx, ast: &ast::Policy) -> Option<Span> {
    let mut windows = None;
    for name in ast.platforms.iter().flat_map(|p| &p.value) {
        match name.value.as_str() {
            "windows" => windows = Some(name.span),
            known if PLATFORMS.contains(&known) => {}
            other => cx.error(
                Code::UnknownPlatform,
                format!("unknown platform `{other}`"),
                name.span,
                "not a platform hookc knows",
                suggest(other, PLATFORMS),
            ),
        }
    }
    windows
}

fn resolve_harness_options(
    cx: &mut Cx,
    ast: &ast::Policy,
) -> std::collections::BTreeMap<HarnessId, std::collections::BTreeMap<String, serde_json::Value>> {
    let mut all = std::collections::BTreeMap::new();
    for block in &ast.harnesses {
        let Some(id) = cx.harness(&block.name) else {
            continue;
        };
        let known = harness::get(id).map_or(&[][..], |h| h.profile().options);
        let options: &mut std::collections::BTreeMap<String, serde_json::Value> =
            all.entry(id).or_default();
        for option in &block.options {
            let Some(spec) = known.iter().find(|o| o.name == option.key.value) else {
                let names: Vec<&str> = known.iter().map(|o| o.name).collect();
                cx.error(
                    Code::UnknownNode,
                    format!("`{}` is not an option of harness `{id}`", option.key.value),
                    option.key.span,
                    "unknown option",
                    if names.is_empty() {
                        format!("harness `{id}` takes no options")
                    } else {
                        suggest(&option.key.value, &names)
                    },
                );
                continue;
            };
            let value = match (spec.kind, &option.value.value) {
                (OptionKind::Bool, Scalar::Bool(b)) => serde_json::Value::Bool(*b),
                (OptionKind::Count, Scalar::Integer(i)) if (0..=1000).contains(i) => {
                    serde_json::Value::from(*i as u64)
                }
                (kind, other) => {
                    cx.error(
                        Code::WrongType,
                        format!(
                            "option `{}` takes {}, found {}",
                            spec.name,
                            kind.describe(),
                            other.type_name()
                        ),
                        option.value.span,
                        "wrong value",
                        format!("{}: {}", spec.name, spec.doc),
                    );
                    continue;
                }
            };
            options.insert(spec.name.to_owned(), value);
        }
    }
    all.retain(|_, options| !options.is_empty());
    all
}

/// The guard, and its regexes and globs compiled (checking them compiled
/// them; the examples run with these).
fn resolve_guard(cx: &mut Cx, decl: &ast::GuardDecl) -> Option<(Guard, eval::Compiled)> {
    let errors_before = cx.diags.error_count();
    check_guard_name(cx, &decl.name);
    let event = resolve_event(cx, decl);
    let mut tools = resolve_tools(cx, decl, event);
    let commands: Vec<CommandPattern> = decl
        .commands
        .iter()
        .filter_map(|c| resolve_command(cx, c))
        .collect();
    let (regexes, compiled_regexes) = resolve_regexes(cx, decl);
    let paths: Vec<String> = decl.paths.iter().map(|p| p.value.clone()).collect();
    let access = resolve_access(cx, decl);
    let path_set = resolve_path_set(cx, decl, &paths);
    imply_tools(cx, decl, event, &mut tools, &commands, &regexes, &paths);

    let (decision, reason) = resolve_decision(cx, decl, event)?;
    let rewrite = resolve_rewrite(cx, decl, &tools, decision);
    let message = decl.message.as_ref().map(|m| m.value.clone());
    let allow_degraded = decl
        .allow_degraded
        .iter()
        .filter_map(|h| cx.harness(h))
        .collect();
    let run = resolve_run(cx, decl);
    let prefilter = prefilter(&commands, &regexes, &paths);
    let mut guard = Guard {
        name: decl.name.value.clone(),
        event,
        tools,
        commands,
        regexes,
        paths,
        access,
        opaque: Decision::Deny,
        decision,
        reason,
        message,
        rewrite,
        run,
        prefilter,
        from: decl.from.clone(),
        examples: Vec::new(),
        allow_degraded,
        origin: decl.span,
    };
    guard.opaque = resolve_opaque(cx, decl, &guard);
    guard.examples = decl
        .examples
        .iter()
        .filter_map(|e| resolve_example(cx, &guard, e))
        .collect();
    check_untested(cx, decl, &guard, errors_before);
    (cx.diags.error_count() == errors_before)
        .then(|| (guard, eval::Compiled::new(compiled_regexes, path_set)))
}

/// A guard's name is a plain word: it appears in file names, logs and reports.
fn check_guard_name(cx: &mut Cx, name: &Text) {
    if name.value.is_empty()
        || !name
            .value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
    {
        cx.error(
            Code::WrongType,
            format!("guard name `{}` is not a plain name", name.value),
            name.span,
            "use letters, digits, `-`, `_` and `.`",
            "guard names appear in file names, logs and reports; e.g. `no-force-push`",
        );
    }
}

/// The guard's `event`, `pre-tool` when it says none.
fn resolve_event(cx: &mut Cx, decl: &ast::GuardDecl) -> Event {
    match &decl.event {
        None => Event::PreTool,
        Some(e) => Event::from_word(&e.value).unwrap_or_else(|| {
            cx.error(
                Code::UnknownEvent,
                format!("unknown event `{}`", e.value),
                e.span,
                "not an event hookc knows",
                format!(
                    "{} (events are written in hookc's words and translated for each harness)",
                    suggest(&e.value, Event::WORDS)
                ),
            );
            Event::PreTool
        }),
    }
}

/// The tools the guard names, on an event that has tool calls.
fn resolve_tools(cx: &mut Cx, decl: &ast::GuardDecl, event: Event) -> Vec<Tool> {
    let mut tools = Vec::new();
    for tool in &decl.tools {
        if let Some(tool) = resolve_tool(cx, tool) {
            tools.push(tool);
        }
    }
    if !tools.is_empty() && !event.has_tools() {
        cx.error(
            Code::ConditionNeedsTool,
            format!("event `{event}` has no tools to choose from"),
            decl.event.as_ref().map_or(decl.span, |e| e.span),
            "this event is not about a tool call",
            "remove `tool`/`mcp`, or use `event \"pre-tool\"` or `event \"post-tool\"`",
        );
    }
    tools
}

/// The guard's `regex` lines, as written and compiled; a quoted string whose
/// escapes turned into control characters is refused.
fn resolve_regexes(cx: &mut Cx, decl: &ast::GuardDecl) -> (Vec<String>, Vec<::regex::Regex>) {
    let mut regexes = Vec::new();
    let mut compiled_regexes = Vec::new();
    for r in &decl.regexes {
        if let Some(bad) = r
            .pattern
            .value
            .chars()
            .find(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
        {
            cx.error(
                Code::RegexControlCharacter,
                format!(
                    "this regex holds {} ({bad:?}), so it does not match what it says",
                    match bad {
                        '\u{8}' => "a backspace",
                        '\u{c}' => "a form feed",
                        _ => "a control character",
                    }
                ),
                r.pattern.span,
                match bad {
                    '\u{8}' => "`\\b` in a quoted KDL string is a backspace, not a word boundary",
                    '\u{c}' => "`\\f` in a quoted KDL string is a form feed",
                    _ => "a control character",
                },
                format!(
                    "write it as a raw string, where backslashes stay as written: `regex {}`",
                    crate::syntax::raw_string(&unescape_controls(&r.pattern.value))
                ),
            );
            continue;
        }
        match regex::check(&r.pattern.value) {
            Ok(compiled) => {
                regexes.push(r.pattern.value.clone());
                compiled_regexes.push(compiled);
            }
            Err(error) => cx.error(
                Code::InvalidRegex,
                format!("invalid regex: {}", error.message),
                regex::error_span(&error, r.pattern.span, r.inner),
                &error.message,
                error.help.unwrap_or("write the regex as a raw string (`#\"…\"#`) in Rust regex syntax; look-around and back-references are not available"),
            ),
        }
    }
    (regexes, compiled_regexes)
}

/// The guard's `path` globs compiled into one set, `None` without any.
fn resolve_path_set(cx: &mut Cx, decl: &ast::GuardDecl, paths: &[String]) -> Option<PathSet> {
    match PathSet::new(paths) {
        Ok(set) => (!paths.is_empty()).then_some(set),
        Err((index, message)) => {
            let at = decl.paths[index].span;
            cx.error(
                Code::InvalidGlob,
                format!("invalid path glob: {message}"),
                at,
                "this glob",
                "globs use `*`, `**`, `?`, `[abc]` and `{a,b}`; a leading `!` excludes",
            );
            None
        }
    }
}

/// Conditions imply tools: a guard that says `command` but names no tool is
/// about the shell. Said explicitly, tools that never carry the condition
/// are a mistake (the guard could never fire).
fn imply_tools(
    cx: &mut Cx,
    decl: &ast::GuardDecl,
    event: Event,
    tools: &mut Vec<Tool>,
    commands: &[CommandPattern],
    regexes: &[String],
    paths: &[String],
) {
    if event.has_tools() {
        let shell = Tool::Known {
            tool: ToolKind::Shell,
        };
        if tools.is_empty() && !commands.is_empty() {
            tools.push(shell.clone());
        } else if !commands.is_empty() && !tools.contains(&shell) {
            cx.error(
                Code::ConditionNeedsTool,
                "`command` patterns only match shell calls, but this guard has no `tool \"shell\"`"
                    .to_owned(),
                decl.commands[0].span,
                "never matches",
                "add `tool \"shell\"`, or match these tools with `path` or `regex` instead",
            );
        }
        if tools.is_empty() && !paths.is_empty() {
            for tool in [
                ToolKind::Read,
                ToolKind::Write,
                ToolKind::Edit,
                ToolKind::Shell,
            ] {
                tools.push(Tool::Known { tool });
            }
        }
        // Judged on what the guard says, not on what resolved: a `tool`
        // or condition already reported as an error is not "nothing".
        let said_nothing = decl.tools.is_empty()
            && decl.commands.is_empty()
            && decl.regexes.is_empty()
            && decl.paths.is_empty();
        if tools.is_empty() && regexes.is_empty() && said_nothing {
            cx.diags.push(
                Diagnostic::new(
                    Code::NothingToMatch,
                    format!("guard `{}` matches every tool call", decl.name.value),
                )
                .in_file(cx.file)
                .label(decl.name.span, "no tool, command, regex or path")
                .help("add `tool \"shell\"` (or another tool), a `command`, a `regex` or a `path`"),
            );
        }
    } else if !commands.is_empty() || !paths.is_empty() {
        cx.error(
            Code::ConditionNeedsTool,
            format!("event `{event}` has no command or file to match"),
            decl.commands
                .first()
                .map(|c| c.span)
                .or(decl.paths.first().map(|p| p.span))
                .unwrap_or(decl.span),
            "cannot match on this event",
            "use `regex` to match the prompt or message text, or make this a `pre-tool` guard",
        );
    }
}

/// What a shell command hookc cannot fully understand means for this guard:
/// `supervise` by default for a guard the run-time judge holds to (see
/// [`eval::enforced_at_run_time`]), so that such a line runs under `hookc
/// exec` where the harness and the machine allow it and is refused
/// elsewhere; `deny` for any other guard.
fn resolve_opaque(cx: &mut Cx, decl: &ast::GuardDecl, guard: &Guard) -> Decision {
    let enforced = eval::enforced_at_run_time(guard);
    let default = if enforced {
        Decision::Supervise
    } else {
        Decision::Deny
    };
    let Some(o) = &decl.opaque else {
        return default;
    };
    match Decision::from_word(&o.value) {
        Some(d @ (Decision::Deny | Decision::Ask | Decision::Allow)) => d,
        Some(Decision::Supervise) if enforced => Decision::Supervise,
        Some(Decision::Supervise) => {
            cx.error(
                Code::InvalidSetting,
                "`opaque \"supervise\"` on a guard the run-time judge cannot hold to".to_owned(),
                o.span,
                "this guard cannot be checked while the call runs",
                "`hookc exec` judges program starts against `command` patterns and files against `path` globs; a guard with a `regex`, a `run` program, a command that is a shell builtin (`cd`, `kill`, `exec`, …) or no shell tool is checked before the call only: use `opaque \"deny\"` (its default) or `ask`",
            );
            Decision::Deny
        }
        _ => {
            cx.error(
                Code::InvalidSetting,
                format!("`opaque` cannot be `{}`", o.value),
                o.span,
                "expected supervise, deny, ask or allow",
                "`opaque` says what a shell command hookc cannot fully understand means: `supervise` (run it under hookc's run-time judge where the harness can, refuse it elsewhere; the default where the guard allows it), `deny`, `ask` or `allow`",
            );
            default
        }
    }
}

/// The program a `run` guard asks, as a path relative to the project root.
fn resolve_run(cx: &mut Cx, decl: &ast::GuardDecl) -> Option<String> {
    decl.run.as_ref().and_then(|r| {
        let v = r.value.trim();
        let bad = v.is_empty() || v.starts_with('/') || v.contains(['\n', '\0']);
        if bad {
            cx.error(
                Code::InvalidSetting,
                format!("`run` cannot be `{}`", r.value.escape_debug()),
                r.span,
                "expected a program path relative to the project root",
                "write the path of an executable in the project, e.g. `run \"scripts/check-migrations.py\"`; it gets the call as JSON on stdin and exits 0 to allow, 2 to refuse (reason on stderr)",
            );
            return None;
        }
        Some(v.to_owned())
    })
}

/// A guard without examples says why (`untested="…"`), or is warned about:
/// only when it is otherwise sound, since its errors come first.
fn check_untested(cx: &mut Cx, decl: &ast::GuardDecl, guard: &Guard, errors_before: usize) {
    let name = &decl.name;
    match &decl.untested {
        None if decl.examples.is_empty() && cx.diags.error_count() == errors_before => cx.diags.push(
            Diagnostic::new(
                Code::NoExample,
                format!("guard `{}` has no example", name.value),
            )
            .in_file(cx.file)
            .label(decl.name.span, "nothing shows that this guard fires")
            .help(format!(
                "add `example` lines, one it decides and one it lets pass, e.g. `example {} expect=\"{}\"`; or say why there are none: `guard \"{}\" untested=\"…\"`",
                example_hint(guard),
                guard.decision.word(),
                name.value
            )),
        ),
        Some(why) if why.value.trim().is_empty() => cx.error(
            Code::EmptyReason,
            "`untested` needs a reason".to_owned(),
            why.span,
            "empty",
            "say why the guard has no example, e.g. `untested=\"needs the staging database\"`",
        ),
        _ => {}
    }
}

/// Whether the policy gets hookc's self-protection guards (see
/// [`crate::protect`]): on unless `self-protection "off"`, which is warned about.
fn self_protection(cx: &mut Cx, ast: &ast::Policy) -> bool {
    let Some(t) = &ast.self_protection else {
        return true;
    };
    match t.value.as_str() {
        "on" => true,
        "off" => {
            cx.diags.push(
                Diagnostic::new(
                    Code::SelfProtectionOff,
                    "self-protection is off: the agent may change the policy and the hooks".to_owned(),
                )
                .in_file(cx.file)
                .label(t.span, "turned off here")
                .help("remove `self-protection \"off\"` unless you guard hookc's files (the policy, .hookc/, the hook settings, shell profiles) with guards of your own"),
            );
            false
        }
        other => {
            cx.error(
                Code::InvalidSetting,
                format!("`self-protection` cannot be `{}`", other.escape_debug()),
                t.span,
                "expected on or off",
                "write `self-protection \"off\"` to let the agent change hookc's own files, or leave the line out (on is the default)",
            );
            true
        }
    }
}

/// The guard's `access="…"`: one word for all its `path` lines.
fn resolve_access(cx: &mut Cx, decl: &ast::GuardDecl) -> PathAccess {
    let mut access: Option<(PathAccess, &Text)> = None;
    for text in &decl.path_access {
        let Some(word) = PathAccess::from_word(&text.value) else {
            cx.error(
                Code::InvalidSetting,
                format!("`access` cannot be `{}`", text.value.escape_debug()),
                text.span,
                "expected read, write or any",
                "`access` says which touches of the files the guard is about: `read` (reading, searching, copying from), `write` (writing, editing, deleting, renaming) or `any` (the default)",
            );
            continue;
        };
        match access {
            Some((first, _)) if first != word => cx.error(
                Code::InvalidSetting,
                format!(
                    "the `path` lines of a guard give different `access` (`{first}` and `{word}`)"
                ),
                text.span,
                "differs from an earlier `path` line",
                "give every `path` line of a guard the same `access`, or split the guard in two",
            ),
            Some(_) => {}
            None => access = Some((word, text)),
        }
    }
    access.map_or(PathAccess::Any, |(a, _)| a)
}

/// What an example for `guard` starts with: the command, path or text to try.
fn example_hint(guard: &Guard) -> String {
    if let Some(c) = guard.commands.first() {
        let mut words = vec![c.program.clone()];
        words.extend(c.subcommand.iter().cloned());
        words.extend(c.flags.iter().filter_map(|g| g.any_of.first().cloned()));
        return format!("\"{}\"", words.join(" ").escape_debug());
    }
    if guard.event.has_tools() && !guard.paths.is_empty() {
        return "tool=\"read\" path=\"…\"".to_owned();
    }
    if guard.event.has_tools() {
        return "\"…\"".to_owned();
    }
    "text=\"…\"".to_owned()
}

/// The literals a call must contain for each kind of condition to hold.
fn prefilter(commands: &[CommandPattern], regexes: &[String], paths: &[String]) -> Prefilter {
    fn union(items: impl Iterator<Item = Option<Vec<String>>>) -> Option<Vec<String>> {
        let mut all = Vec::new();
        for item in items {
            all.extend(item?);
        }
        all.sort();
        all.dedup();
        (!all.is_empty()).then_some(all)
    }
    use crate::shell::pattern::{GLOB_META, is_glob};
    Prefilter {
        programs: union(
            commands
                .iter()
                .map(|c| (!is_glob(&c.program)).then(|| vec![c.program.clone()])),
        ),
        regex_literals: union(regexes.iter().map(|r| regex::required_literals(r))),
        path_literals: union(paths.iter().filter(|p| !p.starts_with('!')).map(|glob| {
            // Every path a glob matches contains the glob's text up to its
            // first wildcard; `~` is expanded before matching, so it is not.
            let literal = &glob[..glob.find(GLOB_META).unwrap_or(glob.len())];
            let literal = literal.trim_start_matches("./");
            (!literal.is_empty() && !literal.starts_with('~')).then(|| vec![literal.to_owned()])
        })),
    }
}

fn resolve_tool(cx: &mut Cx, decl: &ast::ToolDecl) -> Option<Tool> {
    match decl {
        ast::ToolDecl::Mcp { server, tool } => Some(Tool::Mcp {
            server: server.value.clone(),
            tool: tool.value.clone(),
        }),
        ast::ToolDecl::Named {
            name,
            harness: Some(harness),
        } => Some(Tool::Native {
            harness: cx.harness(harness)?,
            name: name.value.clone(),
        }),
        ast::ToolDecl::Named {
            name,
            harness: None,
        } => match ToolKind::from_word(&name.value) {
            Some(tool) => Some(Tool::Known { tool }),
            None => {
                let help = match native_tool(&name.value) {
                    Some((tool, harness, word)) => format!(
                        "`{}` is {}'s name for hookc's `{}` tool; write `tool \"{}\"`, which hookc translates for every harness (or `tool ({word})\"{}\"` for {} alone)",
                        name.value,
                        harness,
                        tool.word(),
                        tool.word(),
                        name.value,
                        harness
                    ),
                    None => format!(
                        "{} (MCP tools are written `mcp \"server\" \"tool\"`, a harness's own name `tool (claude)\"{}\"`)",
                        suggest(&name.value, ToolKind::WORDS),
                        name.value
                    ),
                };
                cx.error(
                    Code::UnknownTool,
                    format!("unknown tool `{}`", name.value),
                    name.span,
                    "not a tool hookc knows",
                    help,
                );
                None
            }
        },
    }
}

fn resolve_command(cx: &mut Cx, decl: &ast::CommandDecl) -> Option<CommandPattern> {
    if let Some(word) = decl
        .words
        .iter()
        .find(|w| w.value.trim().contains(char::is_whitespace))
    {
        let split: Vec<String> = decl
            .words
            .iter()
            .flat_map(|w| w.value.split_whitespace())
            .map(|w| format!("\"{}\"", w.escape_debug()))
            .collect();
        cx.error(
            Code::CommandWordSpace,
            format!(
                "`{}` is one word with a space in it, so this pattern never matches",
                word.value
            ),
            word.span,
            "the shell splits this into several words",
            format!(
                "write each word as its own string: `command {}`",
                split.join(" ")
            ),
        );
        return None;
    }
    let mut words = decl.words.iter().map(|w| w.value.clone());
    let pattern = CommandPattern {
        program: words.next()?,
        subcommand: words.collect(),
        flags: decl
            .flags
            .iter()
            .map(|group| FlagGroup {
                any_of: group.value.iter().map(|f| f.value.clone()).collect(),
            })
            .collect(),
        args: decl.args.iter().map(|a| a.value.clone()).collect(),
    };
    match pattern.validate() {
        Ok(()) => Some(pattern),
        Err(error) => {
            cx.error(
                Code::InvalidCommandPattern,
                format!("invalid command pattern: {}", error.message),
                decl.span,
                error.field,
                error.help,
            );
            None
        }
    }
}

/// A harness's own name for one of hookc's tools (`Bash`, `run_shell_command`):
/// the tool, the harness's display name and its word for `tool (word)"…"`.
fn native_tool(name: &str) -> Option<(ToolKind, &'static str, &'static str)> {
    crate::harness::all().iter().find_map(|h| {
        let profile = h.profile();
        profile
            .tools
            .iter()
            .find(|(_, names)| names.contains(&name))
            .map(|(tool, _)| (*tool, profile.name, h.id().word()))
    })
}

/// The text a quoted KDL string decoded to, with its control characters
/// spelt back as the escapes that produced them (`\u{8}` as `\b`).
fn unescape_controls(value: &str) -> String {
    let mut out = String::new();
    for c in value.chars() {
        match c {
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => {
                out.push_str(&format!("\\x{{{:x}}}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out
}

/// A `rewrite` guard needs every target to be able to change a tool call.
fn check_rewrites(cx: &mut Cx, ast: &ast::Policy, targets: &[HarnessId]) {
    let cannot: Vec<HarnessId> = targets
        .iter()
        .copied()
        .filter(|id| harness::get(*id).is_some_and(|h| !h.profile().can_rewrite))
        .collect();
    if cannot.is_empty() {
        return;
    }
    let can: Vec<String> = harness::all()
        .iter()
        .filter(|h| h.profile().can_rewrite)
        .map(|h| format!("`{}`", h.id()))
        .collect();
    for decl in &ast.guards {
        let Some(rewrite) = decl.decisions.iter().find(|d| d.kind.value == "rewrite") else {
            continue;
        };
        let names: Vec<String> = cannot.iter().map(|id| format!("`{id}`")).collect();
        cx.error(
            Code::CannotRewrite,
            format!(
                "guard `{}` rewrites tool input, which {} cannot do",
                decl.name.value,
                names.join(", ")
            ),
            rewrite.kind.span,
            "needs a harness that can change a tool call",
            format!(
                "remove {} from `targets` (hookc rewrites for {}), or make this a `deny` whose reason gives the command to run instead",
                names.join(", "),
                can.join(", ")
            ),
        );
    }
}

/// The edits of a `rewrite` guard: checked regexes, on shell calls only.
fn resolve_rewrite(
    cx: &mut Cx,
    decl: &ast::GuardDecl,
    tools: &[Tool],
    decision: Decision,
) -> Vec<Replace> {
    let Some(first) = decl.decisions.first() else {
        return Vec::new();
    };
    if decision != Decision::Rewrite {
        return Vec::new();
    }
    let shell = Tool::Known {
        tool: ToolKind::Shell,
    };
    if tools.iter().any(|t| *t != shell) || tools.is_empty() {
        cx.error(
            Code::ConditionNeedsTool,
            format!(
                "guard `{}` rewrites, but not only shell calls",
                decl.name.value
            ),
            first.kind.span,
            "`rewrite` edits the shell command line",
            "give the guard `tool \"shell\"` (or a `command` pattern) and no other tool",
        );
    }
    if first.replaces.is_empty() {
        cx.error(
            Code::MissingValue,
            "`rewrite` needs at least one `replace`".to_owned(),
            first.kind.span,
            "no edit",
            "say what changes, e.g. `rewrite \"…\" { replace #\"^git \"# \"git --no-pager \" }`",
        );
    }
    let mut out = Vec::new();
    for r in &first.replaces {
        match regex::check(&r.pattern.pattern.value) {
            Ok(_) => out.push(Replace {
                pattern: r.pattern.pattern.value.clone(),
                with: r.with.value.clone(),
            }),
            Err(error) => cx.error(
                Code::InvalidRegex,
                format!("invalid regex: {}", error.message),
                regex::error_span(&error, r.pattern.pattern.span, r.pattern.inner),
                &error.message,
                error
                    .help
                    .unwrap_or("write the regex as a raw string (`#\"…\"#`) in Rust regex syntax"),
            ),
        }
    }
    out
}

fn resolve_decision(
    cx: &mut Cx,
    decl: &ast::GuardDecl,
    event: Event,
) -> Option<(Decision, String)> {
    let Some(first) = decl.decisions.first() else {
        cx.error(
            Code::MissingDecision,
            format!("guard `{}` does not say what to do", decl.name.value),
            decl.name.span,
            "no decision",
            "add one of `deny \"…\"`, `ask \"…\"`, `allow`, `context \"…\"`, `rewrite \"…\" { replace … }` (or `block \"…\"` on stop events)",
        );
        return None;
    };
    if let Some(second) = decl.decisions.get(1) {
        cx.diags.push(
            Diagnostic::new(
                Code::ConflictingDecisions,
                format!("guard `{}` has more than one decision", decl.name.value),
            )
            .in_file(cx.file)
            .label(second.kind.span, "second decision")
            .label(first.kind.span, "first decision")
            .help("keep one; write a second guard for the other case (the strictest match wins)"),
        );
    }
    let decision = Decision::from_word(&first.kind.value)?;
    let allowed = allowed_decisions(event);
    if !allowed.contains(&decision) {
        cx.error(
            Code::DecisionNotForEvent,
            format!("`{decision}` does not exist on event `{event}`"),
            first.kind.span,
            "not possible here",
            format!(
                "on `{event}` a guard can {}",
                allowed
                    .iter()
                    .map(|d| format!("`{d}`"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        );
    }
    let reason = first
        .reason
        .as_ref()
        .map(|r| r.value.trim().to_owned())
        .unwrap_or_default();
    if decision.needs_reason() && reason.is_empty() {
        cx.error(
            Code::EmptyReason,
            format!("`{decision}` needs a reason"),
            first.reason.as_ref().map_or(first.kind.span, |r| r.span),
            "the model reads this",
            format!("write what to do instead, e.g. `{decision} \"Push to a new branch and open a pull request instead.\"`"),
        );
    } else if !decision.is_note() && !reason.is_empty() && only_complains(&reason) {
        cx.diags.push(
            Diagnostic::new(Code::ComplainingReason, "this reason says no, but not what to do instead")
                .severity(Severity::Warning)
                .in_file(cx.file)
                .label(first.reason.as_ref().map_or(first.kind.span, |r| r.span), "the model reads this")
                .help("say what the model should do instead (\"… Use X instead.\"), so it does not retry in another spelling"),
        );
    }
    Some((decision, reason))
}

fn allowed_decisions(event: Event) -> &'static [Decision] {
    match event {
        Event::PreTool => &[
            Decision::Deny,
            Decision::Ask,
            Decision::Rewrite,
            Decision::Allow,
            Decision::Context,
        ],
        Event::PostTool => &[Decision::Block, Decision::Context],
        Event::Prompt => &[Decision::Deny, Decision::Context],
        Event::Stop | Event::SubagentStop => &[Decision::Block],
        Event::SessionStart => &[Decision::Context],
    }
}

/// A reason with no word that suggests an alternative only complains.
fn only_complains(reason: &str) -> bool {
    const INSTRUCTING: &[&str] = &[
        "instead", "use ", "run ", "ask ", "open ", "create ", "push ", "commit ", "write ",
        "edit ", "try ", "add ", "remove ", "rewrite", "prefer", "keep ", "make ", "call ",
        "read ", "check ", "request", "rather", "should", "must", "please", "first", "delete ",
        "stash", "restore", "confirm", "wait", "fix ", "move ", "rename ", "split ", "rebase",
        "merge ", "set ", "install ", "tell ", "leave ",
    ];
    let lower = reason.to_lowercase();
    !INSTRUCTING.iter().any(|w| lower.contains(w))
}

fn resolve_example(cx: &mut Cx, guard: &Guard, decl: &ast::ExampleDecl) -> Option<Example> {
    let expect = resolve_expectation(cx, decl)?;
    let tool = example_tool(cx, guard, decl)?;
    let call = ExampleCall {
        tool,
        command: decl.command.as_ref().map(|c| c.value.clone()),
        path: decl.path.as_ref().map(|p| p.value.clone()),
        text: decl.text.as_ref().map(|t| t.value.clone()),
    };
    let shell = Some(Tool::Known {
        tool: ToolKind::Shell,
    });
    if call.tool == shell && call.command.is_none() {
        cx.error(
            Code::InvalidExample,
            "a shell example needs the command to try".to_owned(),
            decl.span,
            "which command?",
            "write it as the first value: `example \"git push --force\" expect=\"deny\"`",
        );
        return None;
    }
    if guard.event.has_tools() && call.tool.is_none() {
        cx.error(
            Code::InvalidExample,
            "example does not say which tool is called".to_owned(),
            decl.span,
            "which tool?",
            "give a command (`example \"git push\" …`) or `tool=\"read\" path=\".env\"`",
        );
        return None;
    }
    Some(Example {
        call,
        expect,
        origin: decl.span,
    })
}

/// What the example says should happen: a decision, or `pass`.
fn resolve_expectation(cx: &mut Cx, decl: &ast::ExampleDecl) -> Option<Expectation> {
    match &decl.expect {
        None => {
            cx.error(
                Code::InvalidExample,
                "example without `expect=`".to_owned(),
                decl.span,
                "what should happen?",
                "add `expect=\"deny\"` (or ask, allow, context, block, pass)",
            );
            None
        }
        Some(e) if e.value == "pass" => Some(Expectation::Pass),
        Some(e) => match Decision::from_word(&e.value) {
            Some(d) => Some(Expectation::Decision(d)),
            None => {
                cx.error(
                    Code::InvalidExample,
                    format!("unknown expectation `{}`", e.value),
                    e.span,
                    "not a decision",
                    suggest(
                        &e.value,
                        &["deny", "ask", "allow", "context", "block", "pass"],
                    ),
                );
                None
            }
        },
    }
}

/// How an MCP example is written, for the help of the errors about one.
const MCP_EXAMPLE: &str =
    "`example tool=\"mcp\" server=\"payments\" name=\"refund_all\" expect=\"deny\"`";

/// The tool the example calls: its `tool=`, an MCP tool, or the one the
/// guard implies. `None` when the example is reported as wrong.
fn example_tool(cx: &mut Cx, guard: &Guard, decl: &ast::ExampleDecl) -> Option<Option<Tool>> {
    let is_mcp = decl.tool.as_ref().is_some_and(|t| t.value == "mcp")
        || decl.server.is_some()
        || decl.name.is_some();
    match &decl.tool {
        _ if is_mcp => example_mcp_tool(cx, guard, decl).map(Some),
        Some(t) => Some(resolve_tool(
            cx,
            &ast::ToolDecl::Named {
                name: t.clone(),
                harness: None,
            },
        )),
        None if guard.event.has_tools() => implied_example_tool(cx, guard, decl),
        None => Some(None),
    }
}

/// The one MCP tool an example names with `server=` and `name=`.
fn example_mcp_tool(cx: &mut Cx, guard: &Guard, decl: &ast::ExampleDecl) -> Option<Tool> {
    if let Some(t) = decl.tool.as_ref().filter(|t| t.value != "mcp") {
        cx.error(
            Code::InvalidExample,
            format!(
                "`server=` and `name=` name an MCP tool, but `tool=` says `{}`",
                t.value
            ),
            t.span,
            "not an MCP tool",
            format!("write `tool=\"mcp\"` (or leave `tool=` out): {MCP_EXAMPLE}"),
        );
        return None;
    }
    let (Some(server), Some(name)) = (&decl.server, &decl.name) else {
        cx.error(
            Code::InvalidExample,
            "an MCP example names the server and the tool".to_owned(),
            decl.span,
            "which MCP tool?",
            format!("give both `server=` and `name=`: {MCP_EXAMPLE}"),
        );
        return None;
    };
    if let Some(bad) = [server, name]
        .into_iter()
        .find(|t| t.value.is_empty() || t.value.contains(['*', '?', '[', ']']))
    {
        cx.error(
            Code::InvalidExample,
            format!("`{}` is not the name of one tool", bad.value),
            bad.span,
            "an example is one real call",
            format!(
                "name one server and one tool, without `*` or `?`: {MCP_EXAMPLE}; a sibling the guard should let through makes a good second example"
            ),
        );
        return None;
    }
    if !guard.event.has_tools() {
        cx.error(
            Code::InvalidExample,
            format!("event `{}` has no tool calls", guard.event),
            decl.span,
            "no MCP call here",
            "MCP examples belong to `pre-tool` and `post-tool` guards".to_owned(),
        );
        return None;
    }
    Some(Tool::Mcp {
        server: server.value.clone(),
        tool: name.value.clone(),
    })
}

/// The tool of an example that names none: the shell for a command, else the
/// guard's first tool unless that is an MCP pattern.
fn implied_example_tool(
    cx: &mut Cx,
    guard: &Guard,
    decl: &ast::ExampleDecl,
) -> Option<Option<Tool>> {
    if decl.command.is_some() {
        return Some(Some(Tool::Known {
            tool: ToolKind::Shell,
        }));
    }
    match guard.tools.first() {
        // `mcp "payments" "refund_*"` is a pattern, not a call.
        Some(Tool::Mcp { server, tool })
            if server.contains(['*', '?', '[']) || tool.contains(['*', '?', '[']) =>
        {
            cx.error(
                Code::InvalidExample,
                "example does not say which MCP tool is called".to_owned(),
                decl.span,
                "which MCP tool?",
                format!("the guard's `mcp \"{server}\" \"{tool}\"` is a pattern; name one tool: {MCP_EXAMPLE}"),
            );
            None
        }
        first => Some(first.cloned()),
    }
}

/// Examples are tests: run each through the whole policy, as the harness would.
/// How strict an expectation is, on [`Decision::strictness`]'s scale (a
/// call that passes is the least strict of all).
fn expected_strictness(expect: Expectation) -> u8 {
    match expect {
        Expectation::Pass => 0,
        Expectation::Decision(d) => d.strictness(),
    }
}

/// A preset's example that the whole policy decides more strictly than it
/// expects, because of other guards, while the example's own guard alone
/// meets it: the stricter rule wins. The other guards that decided, when
/// that is the case.
fn overruled_by_stricter<'v>(
    policy: &Policy,
    guard: &crate::ir::Guard,
    example: &crate::ir::Example,
    call: &eval::Call,
    verdict: Option<&'v eval::Verdict>,
) -> Option<Vec<&'v str>> {
    let verdict = verdict?;
    // Stricter means a question or a refusal where the example expects less.
    if verdict.decision.strictness() < Decision::Ask.strictness()
        || verdict.decision.strictness() <= expected_strictness(example.expect)
    {
        return None;
    }
    let others: Vec<&str> = verdict
        .hits
        .iter()
        .map(|h| h.guard.as_str())
        .filter(|&g| g != guard.name)
        .collect();
    if others.is_empty() {
        return None;
    }
    let alone = Policy {
        guards: vec![guard.clone()],
        ..policy.clone()
    };
    let own = eval::Evaluator::new(&alone).evaluate(call);
    eval::meets(own.as_ref(), example.expect).then_some(others)
}

fn check_examples(cx: &mut Cx, policy: &Policy, compiled: Vec<eval::Compiled>) {
    let evaluator = eval::Evaluator::compiled(policy, compiled);
    for guard in &policy.guards {
        for example in &guard.examples {
            let call = eval::Call::from_example(guard.event, &example.call);
            let verdict = evaluator.evaluate(&call);
            if !eval::meets(verdict.as_ref(), example.expect) {
                // A preset's example points at the `preset` line.
                let from_preset = cx
                    .file
                    .text
                    .get(example.origin.range())
                    .is_some_and(|t| t.starts_with("preset"));
                let overruled = if from_preset {
                    overruled_by_stricter(policy, guard, example, &call, verdict.as_ref())
                } else {
                    None
                };
                if let Some(by) = overruled {
                    let call = example.call.command.clone().unwrap_or_else(|| {
                        format!("{:?}", example.call.path.as_deref().unwrap_or_default())
                    });
                    let decision = verdict.as_ref().map_or(Decision::Deny, |v| v.decision);
                    cx.error(
                        Code::PresetExampleOverruled,
                        format!(
                            "the preset's example `{call}` expects `{}`, but this policy decides `{decision}` (guards: {}): the stricter rule wins",
                            match example.expect {
                                Expectation::Pass => "pass".to_owned(),
                                Expectation::Decision(d) => d.to_string(),
                            },
                            by.join(", ")
                        ),
                        example.origin,
                        &format!("this preset's guard `{}` has the example", guard.name),
                        format!(
                            "nothing to do if the stricter rule is meant; the preset's guard `{}` still decides its example as the preset says",
                            guard.name
                        ),
                    );
                    continue;
                }
                let got = match &verdict {
                    None => "no guard matched, so the call passes".to_owned(),
                    Some(v) => format!(
                        "the policy decides `{}` (guards: {})",
                        v.decision,
                        v.hits
                            .iter()
                            .map(|h| h.guard.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                let expected = match example.expect {
                    Expectation::Pass => "pass".to_owned(),
                    Expectation::Decision(d) => d.to_string(),
                };
                let (label, help) = if from_preset {
                    let call = example.call.command.clone().unwrap_or_else(|| {
                        format!("{:?}", example.call.path.as_deref().unwrap_or_default())
                    });
                    (
                        format!(
                            "this preset's guard `{}` has the example `{call}`",
                            guard.name
                        ),
                        "change your guard so that it agrees with the preset's example, or take the preset at a lower level (or copy its guards from the book and edit them)",
                    )
                } else {
                    (
                        "this example fails".to_owned(),
                        "fix the guard's conditions, or the example's expectation",
                    )
                };
                cx.error(
                    Code::ExampleContradicts,
                    format!("example expects `{expected}`, but {got}"),
                    example.origin,
                    &label,
                    help,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Expectation;
    use crate::shell::FlagGroup;

    fn compile(text: &str) -> (Option<Policy>, Diagnostics) {
        let file = SourceFile::new("policy.kdl", text);
        let mut diags = Diagnostics::default();
        let policy = crate::compile::compile_source(&file, &mut diags);
        (policy, diags)
    }

    /// Every node of the language, decoded and resolved into the IR.
    #[test]
    fn every_node_reaches_the_ir() {
        let (policy, diags) = compile(
            r##"
targets "claude"
timeout 30
on-error "ask"
harness "claude" { on-failure-block #true; }
guard "g1" {
    event "pre-tool"
    tool "shell" "read"
    tool (claude)"NotebookEdit"
    mcp "pay*" "refund_?"
    command "git" "push" {
        flag "-f" "--force"
        arg "+*" "!+main"
    }
    regex #"git\s+push"#
    path ".env*" "!.env.example"
    opaque "ask"
    deny "Push without --force instead."
    message "hookc refused a force push"
    example "git push -f origin +dev > .env" expect="deny"
    example tool="read" path=".env" expect="pass"
    allow-degraded "claude"
}
guard "g2" {
    event "stop"
    regex "TODO"
    block "Finish the TODOs first."
    example text="TODO: tests" expect="block"
}
"##,
        );
        assert!(!diags.has_errors(), "{diags:?}");
        let policy = policy.unwrap();
        assert_eq!((policy.timeout, policy.on_error), (30, Decision::Ask));
        assert_eq!(policy.targets, vec![HarnessId::Claude]);
        assert_eq!(
            policy.harness_options[&HarnessId::Claude]["on-failure-block"],
            serde_json::json!(true)
        );
        let g1 = &policy.guards[0];
        assert_eq!(g1.event, Event::PreTool);
        assert_eq!(
            g1.tools,
            vec![
                Tool::Known {
                    tool: ToolKind::Shell
                },
                Tool::Known {
                    tool: ToolKind::Read
                },
                Tool::Native {
                    harness: HarnessId::Claude,
                    name: "NotebookEdit".into()
                },
                Tool::Mcp {
                    server: "pay*".into(),
                    tool: "refund_?".into()
                },
            ]
        );
        assert_eq!(
            g1.commands,
            vec![CommandPattern {
                program: "git".into(),
                subcommand: vec!["push".into()],
                flags: vec![FlagGroup {
                    any_of: vec!["-f".into(), "--force".into()]
                }],
                args: vec!["+*".into(), "!+main".into()],
            }]
        );
        assert_eq!(g1.regexes, vec![r"git\s+push".to_owned()]);
        assert_eq!(
            g1.paths,
            vec![".env*".to_owned(), "!.env.example".to_owned()]
        );
        assert_eq!((g1.opaque, g1.decision), (Decision::Ask, Decision::Deny));
        assert_eq!(g1.reason, "Push without --force instead.");
        assert_eq!(g1.message.as_deref(), Some("hookc refused a force push"));
        assert_eq!(g1.allow_degraded, vec![HarnessId::Claude]);
        assert_eq!(g1.examples.len(), 2);
        assert_eq!(g1.examples[1].expect, Expectation::Pass);
        assert_eq!(g1.prefilter.programs, Some(vec!["git".to_owned()]));
        let g2 = &policy.guards[1];
        assert_eq!((g2.event, g2.decision), (Event::Stop, Decision::Block));
        assert_eq!(g2.examples[0].call.text.as_deref(), Some("TODO: tests"));
    }

    #[test]
    fn a_guard_without_examples_is_warned_unless_it_says_why() {
        let (_, diags) =
            compile("guard \"g\" { command \"rm\"; deny \"Delete files by name instead.\" }");
        let codes: Vec<_> = diags.iter().map(|d| d.code).collect();
        assert_eq!(codes, vec![Code::NoExample]);
        let (_, diags) = compile(
            "guard \"g\" untested=\"x\" { command \"rm\"; deny \"Delete files by name instead.\" }",
        );
        assert!(diags.is_empty(), "{diags:?}");
    }

    #[test]
    fn defaults_fill_in_what_is_not_said() {
        let (policy, diags) = compile(
            "guard \"g\" untested=\"a test\" { command \"rm\"; deny \"Delete files by name instead.\" }",
        );
        assert!(diags.is_empty(), "{diags:?}");
        let policy = policy.unwrap();
        assert_eq!(
            (policy.timeout, policy.on_error),
            (DEFAULT_TIMEOUT, Decision::Deny)
        );
        assert_eq!(
            policy.targets,
            crate::harness::all()
                .iter()
                .map(|h| h.id())
                .collect::<Vec<_>>()
        );
        let g = &policy.guards[0];
        assert_eq!(g.event, Event::PreTool);
        assert_eq!(
            g.tools,
            vec![Tool::Known {
                tool: ToolKind::Shell
            }],
            "a command implies the shell"
        );
        assert_eq!(
            g.opaque,
            Decision::Supervise,
            "opaque commands run under the run-time judge by default, refused where they cannot"
        );
    }

    #[test]
    fn all_problems_are_reported_at_once() {
        let (policy, diags) = compile(
            "timeout 0\nguard \"a\" { tool \"shel\"; deny \"\" }\nguard \"b\" { event \"PreToolUse\"; allow }\n",
        );
        assert!(policy.is_none());
        let codes: Vec<_> = diags.iter().map(|d| d.code.name()).collect();
        for code in [
            "invalid-setting",
            "unknown-tool",
            "empty-reason",
            "unknown-event",
        ] {
            assert!(codes.contains(&code), "{code} missing from {codes:?}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(
            crate::test_cases("HOOKC_FUZZ_CASES", 512)
        ))]

        /// The index never hides a guard from a command its pattern matches:
        /// a program pattern indexed by its exact name matches only that name
        /// (resolve and the matcher agree on what a glob is). Each pattern is
        /// built from pieces with a name it matches, so most pairs match.
        #[test]
        fn a_program_index_never_skips_a_matching_command(
            pieces in proptest::collection::vec(0..PIECES.len(), 1..4),
        ) {
            let program: String = pieces.iter().map(|&i| PIECES[i].0).collect();
            let name: String = pieces.iter().map(|&i| PIECES[i].1).collect();
            let pattern = CommandPattern {
                program,
                subcommand: Vec::new(),
                flags: Vec::new(),
                args: Vec::new(),
            };
            let cmd = crate::shell::SimpleCommand { program: name.clone(), ..Default::default() };
            if pattern.matches(&cmd) {
                let indexed = prefilter(std::slice::from_ref(&pattern), &[], &[]).programs;
                proptest::prop_assert!(
                    indexed.as_ref().is_none_or(|p| p.contains(&name)),
                    "`{}` matches `{name}` but is indexed under {indexed:?}", pattern.program
                );
            }
        }
    }

    /// Pieces of program patterns, each with a text it matches.
    const PIECES: &[(&str, &str)] = &[
        ("a", "a"),
        ("b-", "b-"),
        ("*", "xy"),
        ("?", "z"),
        ("[ab]", "b"),
        ("{a,c}", "c"),
        ("\\d", "d"),
        ("!", "!"),
    ];
}
