//! The book's generated pages: the capability matrix, the diagnostics, the
//! command line and the presets, each made from the data the program itself
//! uses (harness profiles, [`Code`], the clap definition, `presets/`).
//!
//! A test compares [`generate`] and [`summary`] with the files under
//! `book/src/` (`SNAPSHOTS=overwrite cargo test` rewrites them), so the book
//! cannot drift from the program.

use clap::CommandFactory;

use crate::cli::Cli;
use crate::diag::{Code, Severity};
use crate::harness::{self, Profile};
use crate::ir::{Event, HarnessId, ToolKind};
use crate::presets::{self, Level};
use crate::profile::LateHook;

/// Every generated page: path relative to `book/src/`, and its text.
pub fn generate() -> Vec<(String, String)> {
    let mut pages = vec![
        ("harnesses/matrix.md".to_owned(), matrix()),
        ("presets.md".to_owned(), presets_page()),
        ("diagnostics/README.md".to_owned(), diagnostics_index()),
        ("cli/README.md".to_owned(), cli_index()),
    ];
    for code in Code::ALL {
        pages.push((format!("diagnostics/{}.md", code.name()), diagnostic(*code)));
    }
    for (name, help) in subcommand_help() {
        pages.push((format!("cli/{name}.md"), cli_page(&name, &help)));
    }
    pages
}

/// `SUMMARY.md` with its generated sections (the children of the
/// harnesses, command line and diagnostics chapters) brought up to date; everything else is
/// kept as written.
pub fn summary(existing: &str) -> String {
    let mut harness_pages = vec![(
        "Capability matrix".to_owned(),
        "harnesses/matrix.md".to_owned(),
    )];
    harness_pages.extend(harness::all().iter().map(|h| {
        (
            h.profile().name.to_owned(),
            format!("harnesses/{}.md", h.id().word()),
        )
    }));
    let sections = [
        ("harnesses/README.md", harness_pages),
        (
            "cli/README.md",
            subcommand_help()
                .into_iter()
                .map(|(name, _)| (format!("hookc {name}"), format!("cli/{name}.md")))
                .collect::<Vec<_>>(),
        ),
        (
            "diagnostics/README.md",
            Code::ALL
                .iter()
                .map(|c| (c.to_string(), format!("diagnostics/{}.md", c.name())))
                .collect(),
        ),
    ];
    let lines: Vec<&str> = existing.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        out.push(line.to_owned());
        i += 1;
        let Some((_, children)) = sections
            .iter()
            .find(|(index, _)| line.trim_end().ends_with(&format!("]({index})")))
        else {
            continue;
        };
        let indent = indent_of(line);
        while i < lines.len() && !lines[i].trim().is_empty() && indent_of(lines[i]) > indent {
            i += 1;
        }
        for (title, path) in children {
            out.push(format!("{}- [{title}]({path})", " ".repeat(indent + 4)));
        }
    }
    let mut text = out.join("\n");
    text.push('\n');
    text
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

const GENERATED: &str = "<small>Generated from the program's own data; `SNAPSHOTS=overwrite cargo test` \
rewrites this page.</small>";

fn table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut out = format!("| {} |\n", header.join(" | "));
    out.push_str(&format!(
        "|{}\n",
        header.iter().map(|_| "---|").collect::<String>()
    ));
    for row in rows {
        out.push_str(&format!("| {} |\n", row.join(" | ")));
    }
    out
}

fn code(text: &str) -> String {
    format!("`{text}`")
}

/// The capability matrix: what each registered harness does with a guard,
/// one section per question a policy author asks (which events, refusing or
/// asking, which tools, which options, Windows, what to do after a build).
fn matrix() -> String {
    let harnesses: Vec<&'static Profile> = harness::all().iter().map(|h| h.profile()).collect();
    let mut out = String::from("# Capability matrix\n\n");
    out.push_str(&matrix_intro(&harnesses));
    out.push_str(&matrix_events(&harnesses));
    out.push_str(&matrix_refusals(&harnesses));
    out.push_str(&matrix_timeouts());
    out.push_str(&matrix_tools(&harnesses));
    out.push_str(&matrix_options(&harnesses));
    out.push_str(&matrix_windows());
    out.push_str(&matrix_after_build(&harnesses));
    out.push_str(&format!("\n{GENERATED}\n"));
    out
}

/// A table header: the row label's column, then one column per harness.
fn harness_header(first: &str, harnesses: &[&Profile]) -> Vec<String> {
    let mut header = vec![first.to_owned()];
    header.extend(harnesses.iter().map(|p| p.name.to_owned()));
    header
}

/// Which harnesses this hookc emits for, and which ids the policy
/// language knows but nothing is emitted for yet.
fn matrix_intro(harnesses: &[&Profile]) -> String {
    let mut out = String::from(
        "What each harness does with a guard. When a guard asks for more than a harness offers, \
`hookc build` says so with [`hookc::unsupported`](../diagnostics/unsupported.md) and what \
happens instead.\n\n",
    );
    let not_yet: Vec<String> = HarnessId::ALL
        .iter()
        .filter(|id| harness::get(**id).is_none())
        .map(|id| code(id.word()))
        .collect();
    out.push_str(&format!(
        "This hookc emits for {}.",
        harnesses
            .iter()
            .map(|p| format!("{} ({})", p.name, code(p.id.word())))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    if !not_yet.is_empty() {
        out.push_str(&format!(
            " Known to the policy language, but not emitted for yet: {}.",
            not_yet.join(", ")
        ));
    }
    out.push_str("\n\n");
    out
}

/// Each of hookc's events under the harness's own name.
fn matrix_events(harnesses: &[&Profile]) -> String {
    let mut out = String::from(
        "## Events\n\nThe harness's own name for each of hookc's events; — where it has none (a guard on that event does not run there).\n\n",
    );
    let rows: Vec<Vec<String>> = Event::ALL
        .iter()
        .map(|event| {
            let mut row = vec![code(event.word())];
            row.extend(
                harnesses
                    .iter()
                    .map(|p| p.event_name(*event).map_or("—".to_owned(), code)),
            );
            row
        })
        .collect();
    out.push_str(&table(&harness_header("event", harnesses), &rows));
    out
}

/// What a guard's decision can do on each event: refuse, ask, rewrite, or
/// only be told.
fn matrix_refusals(harnesses: &[&Profile]) -> String {
    let mut out = String::from(
        "\n## Refusing and asking\n\n*refuses*: a `deny` (or `block`) guard stops the call or the stop there. \
*asks*: an `ask` guard makes the harness ask the user; elsewhere hookc refuses instead and warns. \
*informs*: the event runs, but the harness cannot be stopped on it. \
*rewrites*: a [`rewrite`](../policy/decisions.md#rewrite) guard changes the shell command there; elsewhere it is a build error.\n\n",
    );
    let rows: Vec<Vec<String>> = Event::ALL
        .iter()
        .map(|event| {
            let mut row = vec![code(event.word())];
            row.extend(harnesses.iter().map(|p| decisions_on(p, *event)));
            row
        })
        .collect();
    out.push_str(&table(&harness_header("event", harnesses), &rows));
    out
}

/// What each harness does with a `pre-tool` hook that outlives its timeout,
/// from the harness's own outcome rules.
fn matrix_timeouts() -> String {
    let mut out = String::from(
        "\n## When a hook times out\n\nWhat the harness does with a `pre-tool` call whose hook has not answered \
when its timeout runs out. Where it runs the call, hookc's own \
[deadline](../security.md#answering-in-time) and the shim's are what refuse in time.\n\n",
    );
    let late = harness::Observation {
        timed_out: true,
        ..harness::Observation::default()
    };
    for h in harness::all() {
        let p = h.profile();
        let does = match p.late_hook {
            LateHook::Proceeds => format!(
                "**runs the call** ({}); the shims kill a guard that has not answered at 85% of the time",
                h.outcome(Event::PreTool, &late).rule
            ),
            LateHook::Refuses => {
                "refuses the call (its shims keep no clock of their own)".to_owned()
            }
            LateHook::RefusesWith(option) => format!(
                "refuses the call while `{option}` is on, as it is by default; with `{option} #false` it runs the call (the shims kill a late guard at 85% of the time in either case, since other harnesses run them too)"
            ),
        };
        out.push_str(&format!("- {}: {does}\n", p.name));
    }
    out
}

/// One cell of the refusing-and-asking table.
fn decisions_on(p: &Profile, event: Event) -> String {
    if p.event_name(event).is_none() {
        return "—".to_owned();
    }
    let mut can = Vec::new();
    if p.can_block.contains(&event) {
        can.push("refuses");
    }
    if p.honours_ask.contains(&event) {
        can.push("asks");
    }
    if event == Event::PreTool && p.can_rewrite {
        can.push("rewrites");
    }
    if can.is_empty() {
        can.push("informs");
    }
    can.join(", ")
}

/// Each of hookc's tool words under the harness's own tool names.
fn matrix_tools(harnesses: &[&Profile]) -> String {
    let mut out = String::from(
        "\n## Tools\n\nThe harness's own tool names for each of hookc's tool words; a guard's matcher lists exactly these. \
MCP tools (`mcp \"server\" \"tool\"`) and a harness's own names (`tool (claude)\"NotebookEdit\"`) come on top.\n\n",
    );
    let rows: Vec<Vec<String>> = ToolKind::ALL
        .iter()
        .map(|tool| {
            let mut row = vec![code(tool.word())];
            row.extend(harnesses.iter().map(|p| {
                let names = p.tool_names(*tool);
                if names.is_empty() {
                    "—".to_owned()
                } else {
                    names.iter().map(|n| code(n)).collect::<Vec<_>>().join(", ")
                }
            }));
            row
        })
        .collect();
    out.push_str(&table(&harness_header("tool", harnesses), &rows));
    out
}

/// The options a policy may set per harness.
fn matrix_options(harnesses: &[&Profile]) -> String {
    let mut out = String::from(
        "\n## Options\n\nSet in the policy with `harness \"<name>\" { option value }`.\n",
    );
    for p in harnesses {
        out.push_str(&format!(
            "\n### {} (`harness \"{}\"`)\n\n",
            p.name,
            p.id.word()
        ));
        if p.options.is_empty() {
            out.push_str("No options.\n");
        }
        for option in p.options {
            out.push_str(&format!(
                "- `{}` ({}): {}\n",
                option.name,
                option.kind.describe(),
                option.doc
            ));
        }
    }
    out
}

/// What becomes of the hooks on Windows (the list is shared with
/// `hookc explain windows-unguarded`).
fn matrix_windows() -> String {
    let mut out = String::from(
        "\n## On Windows\n\nWhat becomes of hookc's hooks on Windows, where most harnesses run hooks in \
PowerShell or cmd.exe instead of a POSIX shell. None of it has run on Windows yet (see \
[Security](../security.md#windows)); a policy with `platforms … \"windows\"` gets \
[`hookc::windows-unguarded`](../diagnostics/windows-unguarded.md) for each target that cannot guard there.\n\n",
    );
    out.push_str(&on_windows());
    out
}

/// The reminders `hookc build` prints per harness.
fn matrix_after_build(harnesses: &[&Profile]) -> String {
    let mut out = String::from(
        "\n## After a build\n\nWhat `hookc build` reminds you to do for each harness.\n",
    );
    for p in harnesses {
        out.push_str(&format!("\n### {}\n\n", p.name));
        if p.todo.is_empty() {
            out.push_str("Nothing.\n");
        }
        for todo in p.todo {
            out.push_str(&format!("- {todo}\n"));
        }
    }
    out
}

fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn diagnostics_index() -> String {
    let mut out = String::from("# Diagnostics\n\n");
    out.push_str(
        "Every problem hookc reports has a stable code, such as `hookc::unknown-tool`. Codes are \
never renamed, so scripts and CI may rely on them. `hookc explain CODE` prints the same text \
as the pages here; `hookc build --format json` reports each diagnostic with its code, file, \
line and column.\n\nErrors stop the build (exit status 1); warnings do not.\n\n",
    );
    let rows: Vec<Vec<String>> = Code::ALL
        .iter()
        .map(|c| {
            vec![
                format!("[`{c}`]({}.md)", c.name()),
                severity(c.default_severity()).to_owned(),
                c.summary().to_owned(),
            ]
        })
        .collect();
    out.push_str(&table(
        &["code".to_owned(), "severity".to_owned(), "about".to_owned()],
        &rows,
    ));
    out.push_str(&format!("\n{GENERATED}\n"));
    out
}

/// What each registered harness does with hookc's hooks on Windows, one
/// bullet each (for a policy without harness options).
fn on_windows() -> String {
    let mut diags = crate::diag::Diagnostics::default();
    let policy = crate::compile::compile_source(
        &crate::source::SourceFile::new("policy.kdl", "targets \"claude\""),
        &mut diags,
    )
    .expect("a policy with no guards compiles");
    let mut out = String::new();
    for h in harness::all() {
        let text = match h.on_windows(&policy) {
            harness::windows::OnWindows::Guarded(how) => format!("designed for: {how}."),
            harness::windows::OnWindows::Partly { what, fix } => {
                format!("**partly**: {what}. Instead: {fix}.")
            }
            harness::windows::OnWindows::Unguarded { what, fix } => {
                format!("**gap**: {what}. Instead: {fix}.")
            }
        };
        out.push_str(&format!("- {}: {text}\n", h.profile().name));
    }
    out
}

/// A code's explanation with its lists of harnesses (`{harnesses}`,
/// `{on-windows}`) filled in from the registry, for the book and
/// `hookc explain`.
pub fn explanation(c: Code) -> String {
    let mut words: Vec<String> = harness::all().iter().map(|h| code(h.id().word())).collect();
    let last = words.pop().unwrap_or_default();
    let harnesses = if words.is_empty() {
        last
    } else {
        format!("{} and {last}", words.join(", "))
    };
    let mut text = c.explanation().replace("{harnesses}", &harnesses);
    if text.contains("{on-windows}") {
        text = text.replace("{on-windows}", on_windows().trim_end());
    }
    text
}

fn diagnostic(c: Code) -> String {
    format!(
        "# {c}\n\n*{}*: {}.\n\n{}\n\nIn a terminal: `hookc explain {}`. All codes: [Diagnostics](README.md).\n\n{GENERATED}\n",
        severity(c.default_severity()),
        c.summary(),
        explanation(c).trim_end(),
        c.name()
    )
}

/// The clap definition with a fixed width, so help text does not depend on
/// the terminal that runs the generator.
fn command() -> clap::Command {
    let mut cmd = Cli::command().term_width(100);
    cmd.build();
    cmd
}

/// `(name, long help)` of every visible subcommand, in definition order.
fn subcommand_help() -> Vec<(String, String)> {
    let mut cmd = command();
    cmd.get_subcommands_mut()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
        .map(|s| {
            let name = s.get_name().to_owned();
            let help = s.clone().term_width(100).render_long_help().to_string();
            (name, help)
        })
        .collect()
}

fn help_block(invocation: &str, help: &str) -> String {
    let help: Vec<&str> = help.trim_end().lines().map(str::trim_end).collect();
    format!("```text\n$ {invocation} --help\n{}\n```\n", help.join("\n"))
}

fn cli_index() -> String {
    let mut out = String::from("# Command line\n\n");
    out.push_str(
        "`hookc` has one subcommand per job. Results go to stdout, diagnostics and progress to \
stderr; `--format json` turns a command's result into one JSON document on stdout with \
`\"schema_version\": 1`.\n\n",
    );
    out.push_str(&help_block(
        "hookc",
        &command().render_long_help().to_string(),
    ));
    out.push_str("\n## Exit status\n\n");
    out.push_str(&table(
        &["status".to_owned(), "meaning".to_owned()],
        &[
            vec![
                "0".to_owned(),
                "success: the policy compiled and the hooks are written (build) or up to date (check)"
                    .to_owned(),
            ],
            vec![
                "1".to_owned(),
                "hookc ran and found a problem: an invalid policy, a failing `example`, drift"
                    .to_owned(),
            ],
            vec![
                "2".to_owned(),
                "hookc could not do its job: bad usage, a file it cannot read, write or merge"
                    .to_owned(),
            ],
        ],
    ));
    out.push_str(
        "\n`hookc guard` has its own contract, made for the generated hook scripts: 0 answered, \
2 refused, 1 could not decide (the script then refuses the call).\n\n## Subcommands\n\n",
    );
    for (name, help) in subcommand_help() {
        let about = help.lines().next().unwrap_or_default();
        out.push_str(&format!("- [`hookc {name}`]({name}.md): {about}\n"));
    }
    out.push_str(&format!("\n{GENERATED}\n"));
    out
}

fn cli_page(name: &str, help: &str) -> String {
    format!(
        "# hookc {name}\n\n{}\n{GENERATED}\n",
        help_block(&format!("hookc {name}"), help)
    )
}

fn presets_page() -> String {
    let mut out = String::from("# Presets\n\n");
    out.push_str(
        "A preset is a group of guards that ship with hookc. A policy takes one with a line of its \
own, and gets the preset's guards as if they were written there, examples included:\n\n\
```kdl\npreset \"git\"                        // the standard level\npreset \"databases\" level=\"strict\"\n\
preset \"kubernetes\" level=\"basic\"\n```\n\n\
Levels nest: `basic` takes only what cannot be undone, `standard` (the default) also what is \
usually a mistake, `strict` also what is risky but sometimes meant. An unknown preset or level \
is [`hookc::invalid-setting`](diagnostics/invalid-setting.md). `hookc build` runs every example \
of the guards a policy takes, so a preset proves itself on the first build; a diagnostic about \
one of its guards points at the `preset` line. To change a preset's guard, copy it from below \
into the policy under a new name and take the preset at a lower level, or drop the line.\n\n\
`hookc init` writes a `preset` line for `git`, `filesystem`, `secrets`, `system` and \
`remote-code` in every project, and for the others when it finds what the table says (at the \
top of the project or one directory down; names only, symbolic links not followed). \
`--preset NAME` (repeatable) takes exactly the presets named.\n\n",
    );
    let rows: Vec<Vec<String>> = presets::ALL
        .iter()
        .map(|p| {
            vec![
                format!("[`{}`](#{})", p.name, p.name),
                if p.hints.is_empty() {
                    "every project".to_owned()
                } else {
                    p.hints
                        .iter()
                        .map(|h| code(h))
                        .collect::<Vec<_>>()
                        .join(", ")
                },
                Level::ALL
                    .iter()
                    .map(|l| p.guards_at(*l).len().to_string())
                    .collect::<Vec<_>>()
                    .join(" / "),
            ]
        })
        .collect();
    out.push_str(&table(
        &[
            "preset".to_owned(),
            "`hookc init` takes it for".to_owned(),
            "guards (basic / standard / strict)".to_owned(),
        ],
        &rows,
    ));
    for preset in presets::ALL {
        out.push_str(&format!(
            "\n## `{}`\n\n{}\n\n**Deliberately allowed:** {}\n\n",
            preset.name,
            preset.summary(),
            preset.allows(),
        ));
        let rows: Vec<Vec<String>> = preset
            .leveled()
            .into_iter()
            .map(|(guard, level)| {
                let catches = examples(preset.text, guard, "deny");
                let allows = examples(preset.text, guard, "allow");
                vec![code(guard), level.word().to_owned(), catches, allows]
            })
            .collect();
        out.push_str(&table(
            &[
                "guard".to_owned(),
                "from level".to_owned(),
                "catches, for example".to_owned(),
                "lets through, for example".to_owned(),
            ],
            &rows,
        ));
        out.push_str(&format!("\n```kdl\n{}```\n", preset.text));
    }
    out.push_str(&format!("\n{GENERATED}\n"));
    out
}

/// The examples of one guard of a preset's text with `expect="WANT"`, as
/// inline code (commands) or `tool path` (file tools).
fn examples(text: &str, guard: &str, want: &str) -> String {
    let start = format!("guard \"{guard}\"");
    let Some(at) = text.find(&start) else {
        return String::new();
    };
    let body = &text[at..];
    let body = &body[..body.find("\n}").unwrap_or(body.len())];
    let suffix = format!(" expect=\"{want}\"");
    let shown: Vec<String> = body
        .lines()
        .filter_map(|l| l.trim().strip_prefix("example "))
        .filter_map(|l| l.strip_suffix(&suffix))
        .map(|l| {
            let call = match l.strip_prefix('"').and_then(|l| l.strip_suffix('"')) {
                Some(command) => command.replace("\\\"", "\""),
                None => l.replace('"', ""),
            };
            code(&call).replace('|', "\\|")
        })
        .collect();
    shown.join("<br>")
}

/// `existing` (`.pre-commit-hooks.yaml`, or a page that copies a hook from
/// it) with every `files: ^(…)` pattern made from the harness profiles: the
/// folders (and root files) `hookc lint` looks in, and, in a pattern that names
/// `policy.kdl` (the hooks that run `hookc check` and `hookc build`), the
/// policy and `.hookc/` too. Everything else is kept as written.
pub fn pre_commit_files(existing: &str) -> String {
    let mut folders = Vec::new();
    for h in harness::all() {
        for f in h.profile().files.iter().filter(|f| f.in_project) {
            // A file at the root (Crush's `crush.json`) by its own names.
            let patterns: Vec<String> = if f.dir.is_empty() {
                f.names
                    .iter()
                    .map(|name| format!("{}$", glob_to_regex_folder(name)))
                    .collect()
            } else {
                vec![format!("{}/", glob_to_regex_folder(f.dir))]
            };
            for pattern in patterns {
                if !folders.contains(&pattern) {
                    folders.push(pattern);
                }
            }
        }
    }
    let lint = folders.join("|");
    let mut build = format!("policy\\.kdl|\\.hookc/|{lint}");
    for folder in written_folders(&lint) {
        build.push_str(&format!("|{folder}"));
    }
    let mut out = String::new();
    for line in existing.split_inclusive('\n') {
        let trimmed = line.trim_start();
        match trimmed.strip_prefix("files: ^(") {
            Some(pattern) => {
                let indent = &line[..line.len() - trimmed.len()];
                let which = if pattern.starts_with("policy\\.kdl|") {
                    &build
                } else {
                    &lint
                };
                let end = if line.ends_with('\n') { "\n" } else { "" };
                out.push_str(&format!("{indent}files: ^({which}){end}"));
            }
            None => out.push_str(line),
        }
    }
    out
}

/// The folders (as regexes) of the project files a build of the bundled
/// policy for every harness writes outside the `lint` folders: a harness
/// whose hooks are programs (Cline's `.clinerules/hooks/`) has no file lint
/// reads there.
fn written_folders(lint: &str) -> Vec<String> {
    let text = include_str!("../policy.kdl");
    let file = crate::source::SourceFile::new("policy.kdl", text);
    let mut diags = crate::diag::Diagnostics::default();
    let Some(mut policy) = crate::compile::compile_source(&file, &mut diags) else {
        return Vec::new();
    };
    policy.targets = harness::all().iter().map(|h| h.id()).collect();
    let covered = regex::Regex::new(&format!("^(\\.hookc/|{lint})")).expect("folder regexes");
    let mut folders = Vec::new();
    for a in crate::compile::emit(&file, &policy, &mut diags) {
        let Some((dir, _)) = a.path.rsplit_once('/') else {
            continue;
        };
        let folder = format!("{}/", regex::escape(dir));
        if a.scope == crate::emit::Scope::Project
            && !covered.is_match(&a.path)
            && !folders.contains(&folder)
        {
            folders.push(folder);
        }
    }
    folders
}

/// A folder glob of a profile (`.kimi*`) as a regex whose `*` and `?`
/// stay inside one path component.
fn glob_to_regex_folder(glob: &str) -> String {
    regex::escape(glob)
        .replace("\\*", "[^/]*")
        .replace("\\?", "[^/]")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The explanations that list harnesses list every registered one.
    #[test]
    fn explanations_name_every_registered_harness() {
        let names = explanation(Code::UnknownHarness);
        let windows = explanation(Code::WindowsUnguarded);
        for h in harness::all() {
            assert!(names.contains(&format!("`{}`", h.id())), "{names}");
            assert!(
                windows.contains(&format!("- {}: ", h.profile().name)),
                "{windows}"
            );
        }
        assert!(!names.contains('{') && !windows.contains("{on-windows}"));
    }

    #[test]
    fn summary_replaces_only_the_generated_children() {
        let before = "# Summary\n\n- [Intro](intro.md)\n- [Command line](cli/README.md)\n    - [old](cli/old.md)\n- [Diagnostics](diagnostics/README.md)\n- [After](after.md)\n";
        let after = summary(before);
        assert!(!after.contains("cli/old.md"));
        assert!(after.contains("    - [hookc build](cli/build.md)\n"));
        assert!(after.contains("    - [hookc::io](diagnostics/io.md)\n"));
        assert!(after.starts_with("# Summary\n\n- [Intro](intro.md)\n"));
        assert!(after.ends_with("- [After](after.md)\n"));
        assert_eq!(summary(&after), after, "idempotent");
    }

    #[test]
    fn every_code_and_subcommand_has_a_page() {
        let pages = generate();
        let has = |p: &str| pages.iter().any(|(path, _)| path == p);
        for code in Code::ALL {
            assert!(has(&format!("diagnostics/{}.md", code.name())));
        }
        for name in [
            "build",
            "check",
            "guard",
            "explain",
            "init",
            "completions",
            "man",
        ] {
            assert!(has(&format!("cli/{name}.md")), "{name}");
        }
    }
}
