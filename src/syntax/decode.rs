//! The hand-written decoder: KDL nodes → [`ast`] with spans.
//!
//! Why by hand rather than with serde: diagnostics after decoding ("guard
//! `x` uses an unknown tool") must point at the exact value in the file, and
//! only the KDL document has those spans. The decoder checks structure only
//! (which nodes, how many values, which types); meaning is `resolve`'s job.

use kdl::{KdlDocument, KdlEntry, KdlNode, KdlValue};

use crate::ast::{
    CommandDecl, DecisionDecl, ExampleDecl, ExtendsDecl, GuardDecl, HarnessBlock, HarnessOption,
    LintLevelDecl, Policy, RegexDecl, ReplaceDecl, Scalar, Text, ToolDecl,
};
use crate::diag::{Code, Diagnostic, Diagnostics, suggest};
use crate::presets::{self, Level};
use crate::source::{SourceFile, Span, Spanned};

const TOP_LEVEL: &[&str] = &[
    "hookc-version",
    "targets",
    "platforms",
    "timeout",
    "on-error",
    "self-protection",
    "harness",
    "guard",
    "lint",
    "preset",
    "audit-log",
    "allow-once",
    "extends",
];
const LINT_LEVELS: &[&str] = &["allow", "warn", "deny"];
const GUARD_CHILDREN: &[&str] = &[
    "event",
    "tool",
    "mcp",
    "command",
    "regex",
    "path",
    "opaque",
    "deny",
    "ask",
    "allow",
    "context",
    "block",
    "rewrite",
    "message",
    "run",
    "example",
    "allow-degraded",
    "override",
];

pub fn decode(file: &SourceFile, document: &KdlDocument, diags: &mut Diagnostics) -> Policy {
    let mut cx = Cx { file, diags };
    let mut policy = Policy::default();
    let mut presets: Vec<(String, Span)> = Vec::new();
    for node in document.nodes() {
        let cx = &mut cx;
        match node.name().value() {
            "targets" => decode_list(
                cx,
                node,
                &mut policy.targets,
                "a harness name, e.g. `targets \"claude\" \"codex\"`",
            ),
            "platforms" => decode_list(
                cx,
                node,
                &mut policy.platforms,
                "a platform, e.g. `platforms \"linux\" \"macos\" \"windows\"`",
            ),
            "hookc-version" => decode_setting(cx, node, &mut policy.hookc_version, |r, cx| {
                r.string(cx, "a version requirement, e.g. `hookc-version \"0.2\"`")
            }),
            "timeout" => decode_setting(cx, node, &mut policy.timeout, |r, cx| {
                r.integer(cx, "seconds, e.g. `timeout 10`")
            }),
            "on-error" => decode_setting(cx, node, &mut policy.on_error, |r, cx| {
                r.string(cx, "`deny` or `ask`")
            }),
            "self-protection" => decode_setting(cx, node, &mut policy.self_protection, |r, cx| {
                r.string(cx, "`on` or `off`")
            }),
            "harness" => {
                if let Some(block) = decode_harness(cx, node) {
                    policy.harnesses.push(block);
                }
            }
            "guard" => {
                if let Some(guard) = decode_guard(cx, node) {
                    policy.guards.push(guard);
                }
            }
            "lint" => {
                let r = cx.reader(node);
                r.finish(cx, &[]);
                policy.lint.extend(decode_lint(cx, node));
            }
            "preset" => decode_preset(cx, node, &mut presets, &mut policy),
            "audit-log" => decode_setting(cx, node, &mut policy.audit_log, |r, cx| {
                r.scalar(cx, "`#true` or `#false`")
            }),
            "allow-once" => decode_setting(cx, node, &mut policy.allow_once, |r, cx| {
                r.scalar(cx, "`#true` or `#false`")
            }),
            "extends" => {
                let mut r = cx.reader(node);
                let source = r.string(
                    cx,
                    "the policy to build on, e.g. `extends \"org/policy.kdl\" digest=\"sha256:…\"`",
                );
                let rev = r.prop_string(cx, "rev");
                let path = r.prop_string(cx, "path");
                let digest = r.prop_string(cx, "digest");
                r.finish(cx, &["rev", "path", "digest"]);
                cx.no_children(node);
                if let Some(source) = source {
                    policy.extends.push(ExtendsDecl {
                        source,
                        rev,
                        path,
                        digest,
                        span: span(node),
                    });
                }
            }
            _ => cx.unknown_node(node, TOP_LEVEL, "at the top of a policy"),
        }
    }
    policy
}

/// A node that sets one value and may appear once, such as `timeout 10`:
/// `read` takes the value; a later node with a value wins.
fn decode_setting<'n, T>(
    cx: &mut Cx,
    node: &'n KdlNode,
    slot: &mut Option<Spanned<T>>,
    read: impl FnOnce(&mut Reader<'n>, &mut Cx) -> Option<Spanned<T>>,
) {
    let mut r = cx.reader(node);
    let value = read(&mut r, cx);
    r.finish(cx, &[]);
    cx.no_children(node);
    cx.once(&slot.as_ref().map(|t| t.span), node);
    if value.is_some() {
        *slot = value;
    }
}

/// A node that lists names and may appear once, such as `targets "claude"`.
fn decode_list(cx: &mut Cx, node: &KdlNode, slot: &mut Option<Spanned<Vec<Text>>>, what: &str) {
    let mut r = cx.reader(node);
    let names = r.strings_rest(cx);
    r.finish(cx, &[]);
    cx.no_children(node);
    if names.is_empty() {
        cx.missing(node, what);
    }
    cx.once(&slot.as_ref().map(|t| t.span), node);
    *slot = Some(Spanned::new(names, span(node)));
}

/// `lint { allow "lint-x"; warn "lint-y"; deny "lint-z" }`
fn decode_lint(cx: &mut Cx, node: &KdlNode) -> Vec<LintLevelDecl> {
    let mut levels = Vec::new();
    for child in children(node) {
        if !LINT_LEVELS.contains(&child.name().value()) {
            cx.unknown_node(child, LINT_LEVELS, "in `lint`");
            continue;
        }
        let mut r = cx.reader(child);
        let codes = r.strings_rest(cx);
        r.finish(cx, &[]);
        cx.no_children(child);
        if codes.is_empty() {
            cx.missing(
                child,
                "a lint code, e.g. `allow \"lint-matcher-unanchored\"`",
            );
        }
        levels.push(LintLevelDecl {
            level: ident(child),
            codes,
        });
    }
    levels
}

/// `preset "git" level="strict"`: the preset's guards for that level, as if
/// written here. Their spans all point at the `preset` node, the only text
/// of theirs in this file.
fn decode_preset(cx: &mut Cx, node: &KdlNode, seen: &mut Vec<(String, Span)>, policy: &mut Policy) {
    let mut r = cx.reader(node);
    let name = r.string(cx, "a preset name, e.g. `preset \"git\"`");
    let level = r.prop_string(cx, "level");
    r.finish(cx, &["level"]);
    cx.no_children(node);
    let Some(name) = name else {
        return;
    };
    let Some(preset) = presets::get(&name.value) else {
        cx.error(
            Code::InvalidSetting,
            format!("there is no preset `{}`", name.value),
            name.span,
            "not a preset of this hookc",
            format!(
                "{} (the book's Presets page lists what each one catches)",
                suggest(&name.value, presets::NAMES)
            ),
        );
        return;
    };
    let level = match &level {
        None => Level::default(),
        Some(word) => match Level::from_word(&word.value) {
            Some(level) => level,
            None => {
                cx.error(
                    Code::InvalidSetting,
                    format!("preset level `{}` is not one hookc knows", word.value),
                    word.span,
                    "not a level",
                    format!(
                        "{}; `basic` takes only what cannot be undone, `standard` (the default) also what is usually a mistake, `strict` also what is risky but sometimes meant",
                        suggest(&word.value, Level::WORDS)
                    ),
                );
                return;
            }
        },
    };
    if let Some((_, first)) = seen.iter().find(|(n, _)| *n == name.value) {
        let first = *first;
        cx.once(&Some(first), node);
        return;
    }
    seen.push((name.value.clone(), span(node)));
    let file = SourceFile::new(format!("presets/{}.kdl", preset.name), preset.text);
    let mut inner = Diagnostics::default();
    let Some(ast) = super::read_policy(&file, &mut inner).filter(|_| !inner.has_errors()) else {
        cx.error(
            Code::InvalidSetting,
            format!("preset `{}` of this hookc does not read", preset.name),
            name.span,
            "a broken preset",
            "this is a bug in hookc: report it, and copy the preset's guards from the book into the policy meanwhile".to_owned(),
        );
        return;
    };
    let wanted = preset.guards_at(level);
    let at = span(node);
    for mut guard in ast.guards {
        if wanted.contains(&guard.name.value.as_str()) {
            relocate(&mut guard, at);
            policy.guards.push(guard);
        }
    }
}

/// Points every span of a guard at `to`.
pub fn relocate(guard: &mut GuardDecl, to: Span) {
    fn text(t: &mut Text, to: Span) {
        t.span = to;
    }
    fn opt(t: &mut Option<Text>, to: Span) {
        if let Some(t) = t {
            t.span = to;
        }
    }
    text(&mut guard.name, to);
    guard.span = to;
    opt(&mut guard.event, to);
    for tool in &mut guard.tools {
        match tool {
            ToolDecl::Named { name, harness } => {
                text(name, to);
                opt(harness, to);
            }
            ToolDecl::Mcp { server, tool } => {
                text(server, to);
                text(tool, to);
            }
        }
    }
    for command in &mut guard.commands {
        command.span = to;
        command.words.iter_mut().for_each(|w| text(w, to));
        for group in &mut command.flags {
            group.span = to;
            group.value.iter_mut().for_each(|f| text(f, to));
        }
        command.args.iter_mut().for_each(|a| text(a, to));
    }
    for regex in &mut guard.regexes {
        text(&mut regex.pattern, to);
        regex.inner = None;
    }
    guard.paths.iter_mut().for_each(|p| text(p, to));
    opt(&mut guard.opaque, to);
    for decision in &mut guard.decisions {
        text(&mut decision.kind, to);
        opt(&mut decision.reason, to);
        for replace in &mut decision.replaces {
            replace.span = to;
            text(&mut replace.pattern.pattern, to);
            replace.pattern.inner = None;
            text(&mut replace.with, to);
        }
    }
    opt(&mut guard.message, to);
    opt(&mut guard.run, to);
    for example in &mut guard.examples {
        example.span = to;
        for field in [
            &mut example.command,
            &mut example.path,
            &mut example.text,
            &mut example.tool,
            &mut example.server,
            &mut example.name,
            &mut example.expect,
        ] {
            opt(field, to);
        }
    }
    guard.allow_degraded.iter_mut().for_each(|h| text(h, to));
    opt(&mut guard.untested, to);
    opt(&mut guard.override_, to);
}

fn decode_harness(cx: &mut Cx, node: &KdlNode) -> Option<HarnessBlock> {
    let mut r = cx.reader(node);
    let name = r.string(cx, "a harness name, e.g. `harness \"cursor\" { … }`");
    r.finish(cx, &[]);
    let mut options = Vec::new();
    for child in children(node) {
        let mut r = cx.reader(child);
        let value = r.scalar(cx, "a value");
        r.finish(cx, &[]);
        cx.no_children(child);
        if let Some(value) = value {
            options.push(HarnessOption {
                key: ident(child),
                value,
            });
        }
    }
    Some(HarnessBlock {
        name: name?,
        options,
    })
}

fn decode_guard(cx: &mut Cx, node: &KdlNode) -> Option<GuardDecl> {
    let mut r = cx.reader(node);
    let name = r.string(cx, "a guard name, e.g. `guard \"no-force-push\" { … }`");
    let untested = r.prop_string(cx, "untested");
    r.finish(cx, &["untested"]);
    let mut guard = GuardDecl {
        from: None,
        pinned: None,
        name: name?,
        span: span(node),
        event: None,
        tools: Vec::new(),
        commands: Vec::new(),
        regexes: Vec::new(),
        paths: Vec::new(),
        path_access: Vec::new(),
        opaque: None,
        decisions: Vec::new(),
        message: None,
        run: None,
        examples: Vec::new(),
        allow_degraded: Vec::new(),
        untested,
        override_: None,
    };
    if node.children().is_none() {
        cx.diags.push(
            Diagnostic::new(Code::MissingValue, format!("guard `{}` has no body", guard.name.value))
                .in_file(cx.file)
                .label(span(node), "this guard says nothing about what to match or decide")
                .help("add a block: `guard \"name\" { tool \"shell\"; command \"git\" \"push\"; deny \"…\" }`"),
        );
    }
    for child in children(node) {
        let child_name = child.name().value();
        let string = |r: &mut Reader, cx: &mut Cx| r.string(cx, "a string");
        match child_name {
            "event" => decode_setting(cx, child, &mut guard.event, string),
            "opaque" => decode_setting(cx, child, &mut guard.opaque, string),
            "message" => decode_setting(cx, child, &mut guard.message, string),
            "run" => decode_setting(cx, child, &mut guard.run, string),
            "override" => decode_setting(cx, child, &mut guard.override_, string),
            "tool" => decode_tools(cx, child, &mut guard.tools),
            "mcp" => {
                if let Some(tool) = decode_mcp(cx, child) {
                    guard.tools.push(tool);
                }
            }
            "command" => guard.commands.push(decode_command(cx, child)),
            "regex" => decode_regexes(cx, child, &mut guard.regexes),
            "path" => {
                let mut r = cx.reader(child);
                let values = r.strings_rest(cx);
                if let Some(access) = r.prop_string(cx, "access") {
                    guard.path_access.push(access);
                }
                r.finish(cx, &["access"]);
                cx.no_children(child);
                if values.is_empty() {
                    cx.missing(child, "a glob, e.g. `path \".env*\"`");
                }
                guard.paths.extend(values);
            }
            "allow-degraded" => {
                let mut r = cx.reader(child);
                let values = r.strings_rest(cx);
                r.finish(cx, &[]);
                cx.no_children(child);
                if values.is_empty() {
                    cx.missing(child, "a harness name");
                }
                guard.allow_degraded.extend(values);
            }
            "deny" | "ask" | "allow" | "context" | "block" | "rewrite" => {
                guard.decisions.push(decode_decision(cx, child));
            }
            "example" => guard.examples.push(decode_example(cx, child)),
            _ => cx.unknown_node(child, GUARD_CHILDREN, "inside a guard"),
        }
    }
    Some(guard)
}

/// `tool "shell" "read"`, each name perhaps with its harness:
/// `tool (claude)"NotebookEdit"`.
fn decode_tools(cx: &mut Cx, node: &KdlNode, tools: &mut Vec<ToolDecl>) {
    let mut r = cx.reader(node);
    let entries = r.remaining_args();
    r.finish(cx, &[]);
    cx.no_children(node);
    if entries.is_empty() {
        cx.missing(node, "a tool, e.g. `tool \"shell\"`");
    }
    for entry in entries {
        // `tool (claude)"NotebookEdit"`: the annotation names the harness.
        let harness = entry
            .ty()
            .map(|t| Spanned::new(t.value().to_owned(), t.span().into()));
        if let Some(name) = cx.string_entry(entry, "a tool, e.g. `tool \"shell\"`") {
            tools.push(ToolDecl::Named { name, harness });
        }
    }
}

/// `mcp "payments" "refund_*"`: a server and a tool name or glob.
fn decode_mcp(cx: &mut Cx, node: &KdlNode) -> Option<ToolDecl> {
    let mut r = cx.reader(node);
    let server = r.string(
        cx,
        "an MCP server name, e.g. `mcp \"payments\" \"refund_*\"`",
    );
    let tool = r.string(
        cx,
        "an MCP tool name or glob, e.g. `mcp \"payments\" \"*\"`",
    );
    r.finish(cx, &[]);
    cx.no_children(node);
    Some(ToolDecl::Mcp {
        server: server?,
        tool: tool?,
    })
}

/// `regex #"git\s+push"#`, one or more, each remembering where a raw
/// string's text starts (for spans into the pattern).
fn decode_regexes(cx: &mut Cx, node: &KdlNode, regexes: &mut Vec<RegexDecl>) {
    let mut r = cx.reader(node);
    let entries: Vec<&KdlEntry> = r.remaining_args();
    for entry in &entries {
        if let Some(pattern) = cx.string_entry(entry, "a regex, e.g. `regex #\"git\\s+push\"#`") {
            let inner = raw_string_start(cx.file, entry);
            regexes.push(RegexDecl { pattern, inner });
        }
    }
    r.finish(cx, &[]);
    cx.no_children(node);
    if entries.is_empty() {
        cx.missing(node, "a regex, e.g. `regex #\"git\\s+push\"#`");
    }
}

/// `deny "…"`, `allow`, `rewrite "…" { replace … }`: the decision, its reason
/// and a rewrite's edits.
fn decode_decision(cx: &mut Cx, node: &KdlNode) -> DecisionDecl {
    let mut r = cx.reader(node);
    let reason = if r.has_arg() {
        r.string(cx, "a reason")
    } else {
        None
    };
    r.finish(cx, &[]);
    let replaces = if node.name().value() == "rewrite" {
        decode_replaces(cx, node)
    } else {
        cx.no_children(node);
        Vec::new()
    };
    DecisionDecl {
        kind: ident(node),
        reason,
        replaces,
    }
}

/// The `replace` children of a `rewrite` node.
fn decode_replaces(cx: &mut Cx, node: &KdlNode) -> Vec<ReplaceDecl> {
    let mut out = Vec::new();
    for child in children(node) {
        if child.name().value() != "replace" {
            cx.unknown_node(child, &["replace"], "inside `rewrite`");
            continue;
        }
        let mut r = cx.reader(child);
        let entries: Vec<&KdlEntry> = r.remaining_args();
        r.finish(cx, &[]);
        cx.no_children(child);
        let [pattern, with] = entries.as_slice() else {
            cx.missing(
                child,
                "a regex and its replacement, e.g. `replace #\"^git \"# \"git --no-pager \"`",
            );
            continue;
        };
        let inner = raw_string_start(cx.file, pattern);
        let pattern = cx.string_entry(pattern, "a regex");
        let with = cx.string_entry(with, "the replacement text");
        if let (Some(pattern), Some(with)) = (pattern, with) {
            out.push(ReplaceDecl {
                span: span(child),
                pattern: RegexDecl { pattern, inner },
                with,
            });
        }
    }
    out
}

fn decode_command(cx: &mut Cx, node: &KdlNode) -> CommandDecl {
    let mut r = cx.reader(node);
    let words = r.strings_rest(cx);
    r.finish(cx, &[]);
    if words.is_empty() {
        cx.missing(node, "a program, e.g. `command \"git\" \"push\"`");
    }
    let mut decl = CommandDecl {
        span: span(node),
        words,
        flags: Vec::new(),
        args: Vec::new(),
    };
    for child in children(node) {
        let mut r = cx.reader(child);
        let values = r.strings_rest(cx);
        r.finish(cx, &[]);
        cx.no_children(child);
        match child.name().value() {
            "flag" => {
                if values.is_empty() {
                    cx.missing(
                        child,
                        "one or more spellings, e.g. `flag \"-f\" \"--force\"`",
                    );
                }
                decl.flags.push(Spanned::new(values, span(child)));
            }
            "arg" => {
                if values.is_empty() {
                    cx.missing(child, "one or more globs, e.g. `arg \"/\" \"~\"`");
                }
                decl.args.extend(values);
            }
            _ => cx.unknown_node(child, &["flag", "arg"], "inside a command pattern"),
        }
    }
    decl
}

fn decode_example(cx: &mut Cx, node: &KdlNode) -> ExampleDecl {
    let mut r = cx.reader(node);
    let command = if r.has_arg() {
        r.string(cx, "a command")
    } else {
        None
    };
    let path = r.prop_string(cx, "path");
    let text = r.prop_string(cx, "text");
    let tool = r.prop_string(cx, "tool");
    let server = r.prop_string(cx, "server");
    let name = r.prop_string(cx, "name");
    let expect = r.prop_string(cx, "expect");
    r.finish(cx, &["path", "text", "tool", "server", "name", "expect"]);
    cx.no_children(node);
    ExampleDecl {
        span: span(node),
        command,
        path,
        text,
        tool,
        server,
        name,
        expect,
    }
}

struct Cx<'a> {
    file: &'a SourceFile,
    diags: &'a mut Diagnostics,
}

impl Cx<'_> {
    fn reader<'n>(&self, node: &'n KdlNode) -> Reader<'n> {
        Reader { node, next_arg: 0 }
    }

    fn error(&mut self, code: Code, message: String, at: Span, label: &str, help: String) {
        self.diags.push(
            Diagnostic::new(code, message)
                .in_file(self.file)
                .label(at, label)
                .help(help),
        );
    }

    fn unknown_node(&mut self, node: &KdlNode, known: &[&str], place: &str) {
        let name = node.name().value();
        self.error(
            Code::UnknownNode,
            format!("unknown node `{name}` {place}"),
            node.name().span().into(),
            "not a node hookc knows here",
            suggest(name, known),
        );
    }

    fn missing(&mut self, node: &KdlNode, what: &str) {
        self.error(
            Code::MissingValue,
            format!("`{}` needs a value", node.name().value()),
            span(node),
            "value missing",
            format!("write {what}"),
        );
    }

    fn no_children(&mut self, node: &KdlNode) {
        if let Some(children) = node.children() {
            self.error(
                Code::UnknownNode,
                format!("`{}` does not take a block", node.name().value()),
                children.span().into(),
                "unexpected block",
                "remove the `{ … }` block".to_owned(),
            );
        }
    }

    /// Report a second occurrence of a node that may appear once.
    fn once(&mut self, previous: &Option<Span>, node: &KdlNode) {
        if let Some(previous) = previous {
            self.diags.push(
                Diagnostic::new(
                    Code::DuplicateNode,
                    format!("`{}` is given twice", node.name().value()),
                )
                .in_file(self.file)
                .label(span(node), "second one here")
                .label(*previous, "first one here")
                .help("keep one of them"),
            );
        }
    }

    fn string_entry(&mut self, entry: &KdlEntry, what: &str) -> Option<Text> {
        match entry.value() {
            KdlValue::String(s) => Some(Spanned::new(s.clone(), entry.span().into())),
            other => {
                self.error(
                    Code::WrongType,
                    format!(
                        "expected a string, found {}",
                        Scalar::from(other).type_name()
                    ),
                    entry.span().into(),
                    "wrong type",
                    format!("write {what}, in double quotes"),
                );
                None
            }
        }
    }
}

/// Walks a node's arguments in order and remembers which properties were read,
/// so leftovers can be reported as mistakes instead of being ignored.
struct Reader<'n> {
    node: &'n KdlNode,
    next_arg: usize,
}

impl<'n> Reader<'n> {
    fn args(&self) -> impl Iterator<Item = &'n KdlEntry> {
        self.node.entries().iter().filter(|e| e.name().is_none())
    }

    fn has_arg(&self) -> bool {
        self.args().nth(self.next_arg).is_some()
    }

    fn next(&mut self) -> Option<&'n KdlEntry> {
        let entry = self.args().nth(self.next_arg);
        if entry.is_some() {
            self.next_arg += 1;
        }
        entry
    }

    fn remaining_args(&mut self) -> Vec<&'n KdlEntry> {
        let rest: Vec<_> = self.args().skip(self.next_arg).collect();
        self.next_arg += rest.len();
        rest
    }

    fn string(&mut self, cx: &mut Cx, what: &str) -> Option<Text> {
        match self.next() {
            Some(entry) => cx.string_entry(entry, what),
            None => {
                cx.missing(self.node, what);
                None
            }
        }
    }

    fn strings_rest(&mut self, cx: &mut Cx) -> Vec<Text> {
        self.remaining_args()
            .into_iter()
            .filter_map(|e| cx.string_entry(e, "a string"))
            .collect()
    }

    fn integer(&mut self, cx: &mut Cx, what: &str) -> Option<Spanned<i128>> {
        let entry = match self.next() {
            Some(entry) => entry,
            None => {
                cx.missing(self.node, what);
                return None;
            }
        };
        match entry.value() {
            KdlValue::Integer(i) => Some(Spanned::new(*i, entry.span().into())),
            other => {
                cx.error(
                    Code::WrongType,
                    format!(
                        "expected an integer, found {}",
                        Scalar::from(other).type_name()
                    ),
                    entry.span().into(),
                    "wrong type",
                    format!("write {what}, without quotes"),
                );
                None
            }
        }
    }

    fn scalar(&mut self, cx: &mut Cx, what: &str) -> Option<Spanned<Scalar>> {
        match self.next() {
            Some(entry) => Some(Spanned::new(
                Scalar::from(entry.value()),
                entry.span().into(),
            )),
            None => {
                cx.missing(self.node, what);
                None
            }
        }
    }

    fn prop_string(&mut self, cx: &mut Cx, key: &str) -> Option<Text> {
        let entry = self
            .node
            .entries()
            .iter()
            .find(|e| e.name().is_some_and(|n| n.value() == key))?;
        cx.string_entry(entry, "a string")
    }

    /// Report extra arguments and unknown properties.
    fn finish(self, cx: &mut Cx, known_props: &[&str]) {
        if let Some(extra) = self.args().nth(self.next_arg) {
            cx.error(
                Code::TooManyValues,
                format!(
                    "`{}` has more values than it takes",
                    self.node.name().value()
                ),
                extra.span().into(),
                "unexpected value",
                "remove it, or start a new node on its own line".to_owned(),
            );
        }
        for entry in self.node.entries() {
            if let Some(name) = entry.name()
                && !known_props.contains(&name.value())
            {
                let help = if known_props.is_empty() {
                    format!("`{}` takes no properties", self.node.name().value())
                } else {
                    suggest(name.value(), known_props)
                };
                cx.error(
                    Code::UnknownProperty,
                    format!(
                        "unknown property `{}` on `{}`",
                        name.value(),
                        self.node.name().value()
                    ),
                    name.span().into(),
                    "not a property hookc knows here",
                    help,
                );
            }
        }
    }
}

impl From<&KdlValue> for Scalar {
    fn from(value: &KdlValue) -> Self {
        match value {
            KdlValue::String(s) => Scalar::String(s.clone()),
            KdlValue::Integer(i) => Scalar::Integer(*i),
            KdlValue::Float(f) => Scalar::Float(*f),
            KdlValue::Bool(b) => Scalar::Bool(*b),
            KdlValue::Null => Scalar::Null,
        }
    }
}

fn children(node: &KdlNode) -> impl Iterator<Item = &KdlNode> {
    node.children().into_iter().flat_map(|c| c.nodes())
}

fn span(node: &KdlNode) -> Span {
    node.span().into()
}

fn ident(node: &KdlNode) -> Text {
    Spanned::new(node.name().value().to_owned(), node.name().span().into())
}

/// Where the first character of a raw string's content sits in the file.
/// Only raw strings (`#"…"#`) map 1:1 to the file; escaped strings do not.
fn raw_string_start(file: &SourceFile, entry: &KdlEntry) -> Option<usize> {
    let span: Span = entry.span().into();
    let text = file.text.get(span.range())?;
    let hashes = text.find('#')?;
    let rest = &text[hashes..];
    let count = rest.chars().take_while(|&c| c == '#').count();
    let after = &rest[count..];
    if count == 0 || !after.starts_with('"') || after.starts_with("\"\"\"") {
        return None;
    }
    Some(span.start + hashes + count + 1)
}
