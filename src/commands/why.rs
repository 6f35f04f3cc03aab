//! `hookc why`: one call explained. How the shell line is read (the lexer's
//! simple commands and the normaliser's, both as they are), which guards
//! match and why the others do not ([`eval::trace`]), the verdict, and the
//! answer each targeted harness gets, made by the same code `hookc guard`
//! uses on the payload that harness would send.

use std::fmt::Write as _;
use std::io::Read;
use std::path::Path;

use serde_json::{Value, json};

use super::Ui;
use crate::cli::{Format, WhyArgs};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::eval::{self, Call, Evaluator, GuardTrace, Verdict};
use crate::exit::ExitStatus;
use crate::harness::{self, Harness, Observation};
use crate::ir::{Decision, Event, ExampleCall, HarnessId, Policy, Tool, ToolKind};
use crate::runtime::prepare;
use crate::shell;

pub fn why(args: &WhyArgs, ui: &Ui) -> ExitStatus {
    let mut diags = Diagnostics::default();
    let (policy, root) = match load(args, &mut diags) {
        Ok(found) => found,
        Err(status) => return finish(args, ui, diags, status),
    };
    let home = std::env::var("HOME").ok().filter(|h| !h.is_empty());

    // The call, harness-neutral, and the harnesses to answer.
    let request = match Request::new(args, &policy, &root) {
        Ok(r) => r,
        Err((message, help)) => {
            diags.push(Diagnostic::new(Code::Io, message).help(help.to_owned()));
            return finish(args, ui, diags, ExitStatus::Error);
        }
    };
    let mut call = request.call.clone();
    let evaluator = Evaluator::new(&policy);
    let setting = Setting {
        evaluator: &evaluator,
        policy: &policy,
        root: &root,
        home: home.as_deref(),
    };
    // The verdict on the call from no harness in particular (or from the
    // payload's harness), prepared and decided as `hookc guard` does.
    let prepared = prepare_call(&mut call, request.from, &setting);
    let verdict = match &prepared {
        Err(refused) => Some(refused.clone()),
        Ok(()) => decide(&call, args.event, None, &Value::Null, &setting),
    };
    let traces = eval::trace(&policy, &call);
    let reading = call.analysed_line().map(|c| Reading::new(&c, &call));
    let answers: Vec<HarnessAnswer> = request
        .harnesses
        .iter()
        .map(|(h, payload)| {
            // Without a payload from the user, the neutral call stands in
            // where hookc has no payload shape for this harness.
            let neutral = args
                .payload
                .is_none()
                .then_some((&call, prepared.as_ref().err()));
            answer(*h, args.event, payload.as_ref(), neutral, &setting)
        })
        .collect();

    if args.format == Format::Json {
        let doc = json_doc(
            &call,
            args.event,
            reading.as_ref(),
            &traces,
            verdict.as_ref(),
            &answers,
        );
        println!(
            "{}",
            serde_json::to_string_pretty(&doc).expect("JSON serialises")
        );
    } else {
        let mut out = String::new();
        human(
            &mut out,
            &call,
            args.event,
            reading.as_ref(),
            &traces,
            verdict.as_ref(),
            &answers,
        );
        print!("{out}");
    }
    ui.report(diags);
    ExitStatus::Success
}

/// The explanation for a program (`--format json`).
fn json_doc(
    call: &Call,
    event: Event,
    reading: Option<&Reading>,
    traces: &[GuardTrace],
    verdict: Option<&Verdict>,
    answers: &[HarnessAnswer],
) -> Value {
    json!({
        "schema_version": 1,
        "command": "why",
        "event": event.word(),
        "call": {
            "tool": call.tool.as_ref().map(|t| t.native.clone()),
            "command": call.command,
            "paths": call.paths,
            "text": call.text,
        },
        "reading": reading.map(Reading::json),
        "guards": traces,
        "verdict": verdict.map(|v| json!({
            "decision": v.decision,
            "guards": v.guard_names(),
            "reason": v.reason(),
            "rewritten": v.rewritten,
        })),
        "answers": answers.iter().map(HarnessAnswer::json).collect::<Vec<_>>(),
    })
}

/// The compiled policy and the project root (absolute); the status to end
/// with when there is none (reported).
fn load(
    args: &WhyArgs,
    diags: &mut Diagnostics,
) -> Result<(Policy, std::path::PathBuf), ExitStatus> {
    let (policy_path, root) =
        super::locate(args.project.policy.as_deref(), args.project.out.as_deref()).map_err(
            |d| {
                diags.push(d);
                ExitStatus::Error
            },
        )?;
    let mut read = Diagnostics::default();
    let loaded = crate::compile::load_despite_examples(&policy_path, &mut read);
    // Failing examples are what a user asks `why` about: explain the policy
    // as written, and say that a build refuses it.
    let failing = read
        .iter()
        .filter(|d| d.code == Code::ExampleContradicts)
        .count();
    for d in read.into_sorted() {
        diags.push(if d.code == Code::ExampleContradicts {
            d.severity(crate::diag::Severity::Warning)
        } else {
            d
        });
    }
    let Some((_, policy)) = loaded else {
        return Err(if diags.iter().any(|d| d.code == Code::Io) {
            ExitStatus::Error
        } else {
            ExitStatus::Failure
        });
    };
    if failing > 0 {
        diags.push(
            Diagnostic::new(
                Code::ExampleContradicts,
                format!(
                    "{failing} example{} of this policy fail{}, so `hookc build` refuses it: this explains the policy as written, not the hooks last built",
                    if failing == 1 { "" } else { "s" },
                    if failing == 1 { "s" } else { "" },
                ),
            )
            .severity(crate::diag::Severity::Warning)
            .help("fix the guard or the example this explanation shows wrong, then `hookc build`"),
        );
    }
    let root = std::path::absolute(&root).unwrap_or(root);
    Ok((policy, root))
}

fn finish(args: &WhyArgs, ui: &Ui, diags: Diagnostics, status: ExitStatus) -> ExitStatus {
    if args.format == Format::Json {
        let errors: Vec<String> = diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.message.clone())
            .collect();
        println!(
            "{}",
            json!({"schema_version": 1, "command": "why", "errors": errors})
        );
    }
    ui.report(diags);
    status
}

/// What the command line asked about.
struct Request {
    call: Call,
    /// The harness whose payload the call was decoded from, if any.
    from: Option<HarnessId>,
    /// Each harness to answer, with the payload it would send (`None`: it
    /// cannot carry this call).
    harnesses: Vec<(HarnessId, Option<Value>)>,
}

type UsageError = (String, &'static str);

impl Request {
    fn new(args: &WhyArgs, policy: &Policy, root: &Path) -> Result<Request, UsageError> {
        let wanted: Vec<HarnessId> = if args.harnesses.is_empty() {
            policy.targets.clone()
        } else {
            args.harnesses.clone()
        };
        if let Some(file) = &args.payload {
            return Request::from_payload(args, file, &wanted);
        }
        let example = example_call(args)?;
        let call = Call::from_example(args.event, &example);
        let harnesses = wanted
            .iter()
            .filter_map(|id| harness::get(*id))
            .map(|h| (h.id(), h.payload(args.event, &example, root)))
            .collect();
        Ok(Request {
            call,
            from: None,
            harnesses,
        })
    }

    fn from_payload(
        args: &WhyArgs,
        file: &Path,
        wanted: &[HarnessId],
    ) -> Result<Request, UsageError> {
        let limit = crate::runtime::MAX_PAYLOAD;
        let mut bytes = Vec::new();
        let read = if file == Path::new("-") {
            std::io::stdin().take(limit + 1).read_to_end(&mut bytes)
        } else {
            match crate::disk::read_text(file) {
                Ok(Some(text)) => {
                    bytes = text.into_bytes();
                    Ok(bytes.len())
                }
                Ok(None) => Err(std::io::Error::from(std::io::ErrorKind::NotFound)),
                Err(e) => Err(std::io::Error::other(e.to_string())),
            }
        };
        read.map_err(|e| {
            (
                format!("cannot read the payload {}: {e}", file.display()),
                "give a file holding one hook payload (JSON), or `-` to read it from stdin",
            )
        })?;
        if bytes.len() as u64 > limit {
            return Err((
                format!(
                    "the payload is over {} MiB, more than `hookc guard` reads",
                    limit >> 20
                ),
                "give the payload of one call",
            ));
        }
        let payload: Value = serde_json::from_slice(&bytes).map_err(|e| {
            (
                format!("the payload is not JSON ({e})"),
                "give the JSON a harness writes to its hook's stdin, as `hookc guard --debug` logs it",
            )
        })?;
        let id = match (
            args.harnesses.as_slice(),
            harness::all().iter().find(|h| h.recognizes(&payload)),
        ) {
            ([one], _) => *one,
            ([], Some(h)) => h.id(),
            ([], None) if wanted.len() == 1 => wanted[0],
            _ => {
                return Err((
                    "cannot tell which harness sent this payload".to_owned(),
                    "name it with one --harness (e.g. --harness codex)",
                ));
            }
        };
        let h = harness::get(id).ok_or((
            format!("this hookc cannot read {id} payloads"),
            "name a harness the book's capability matrix lists",
        ))?;
        let call = h.decode_call(args.event, &payload).map_err(|e| {
            (
                format!("not a {} {} payload: {e}", h.profile().name, args.event),
                "check --event and --harness against the payload",
            )
        })?;
        Ok(Request {
            call,
            from: Some(id),
            harnesses: vec![(id, Some(payload))],
        })
    }
}

/// The call the options describe, as an example line would.
fn example_call(args: &WhyArgs) -> Result<ExampleCall, UsageError> {
    if let Some(mcp) = &args.mcp {
        let Some((server, tool)) = mcp
            .split_once('/')
            .filter(|(s, t)| !s.is_empty() && !t.is_empty())
        else {
            return Err((
                format!("`--mcp {mcp}` is not SERVER/TOOL"),
                "write the server and the tool with a slash, e.g. `--mcp payments/refund`",
            ));
        };
        return Ok(ExampleCall {
            tool: Some(Tool::Mcp {
                server: server.to_owned(),
                tool: tool.to_owned(),
            }),
            command: None,
            path: None,
            text: None,
        });
    }
    if let Some(text) = &args.text {
        return Ok(ExampleCall {
            tool: None,
            command: None,
            path: None,
            text: Some(text.clone()),
        });
    }
    let kind = match (&args.tool, &args.command) {
        (Some(t), _) => ToolKind::from_word(t).ok_or((
            format!("unknown tool `{t}`"),
            "use shell, read, write, edit or web-fetch",
        ))?,
        (None, Some(_)) => ToolKind::Shell,
        (None, None) => {
            return Err((
                "nothing to explain".to_owned(),
                "give a command (`hookc why 'git push -f'`), `--tool read --path FILE`, `--mcp SERVER/TOOL`, `--text TEXT` or `--payload FILE`",
            ));
        }
    };
    match kind {
        ToolKind::Shell if args.command.is_none() => Err((
            "a shell call needs its command line".to_owned(),
            "give it as the argument: `hookc why 'git push -f'`",
        )),
        ToolKind::Read | ToolKind::Write | ToolKind::Edit if args.path.is_none() => Err((
            format!("a {kind} call needs the file it touches"),
            "add `--path FILE`",
        )),
        _ => Ok(ExampleCall {
            tool: Some(Tool::Known { tool: kind }),
            command: args.command.clone(),
            path: args.path.clone(),
            text: None,
        }),
    }
}

/// Where an example's call happens: the project root and the home
/// directory of this machine, for the stand-ins [`Call::from_example`]
/// gives them (and a home for a payload that names none).
fn place(call: &mut Call, root: &Path, home: Option<&str>) {
    if call.root.is_none() || call.root.as_deref() == Some(eval::EXAMPLE_ROOT) {
        call.root = Some(root.to_string_lossy().into_owned());
    }
    if call.home.is_none() || call.home.as_deref() == Some(eval::EXAMPLE_HOME) {
        call.home = home.map(str::to_owned);
    }
}

/// The call placed on this machine and prepared as `hookc guard`
/// prepares it ([`prepare::prepare`]); `from`: the harness it came from.
/// `Err`: the refusal `hookc guard` answers it with before any guard.
fn prepare_call(call: &mut Call, from: Option<HarnessId>, at: &Setting) -> Result<(), Verdict> {
    place(call, at.root, at.home);
    let project = at.root.to_string_lossy().into_owned();
    prepare::prepare(call, from, Some(&project))
}

/// How a command line is read: the lexer's simple commands (quotes
/// removed, as written) and the normaliser's (what runs).
struct Reading {
    written: Vec<String>,
    analysis: shell::Analysis,
    looked_through: Vec<String>,
}

impl Reading {
    fn new(line: &str, call: &Call) -> Reading {
        let lexed = shell::lex(line);
        let mut analysis = shell::analyze_judged(
            line,
            call.dir(),
            call.folds_case,
            Some(&crate::git_writes::Git),
        );
        if let Some(git) = &call.git {
            git.apply(&mut analysis);
        }
        let written: Vec<String> = lexed
            .commands
            .iter()
            .map(|c| {
                c.words
                    .iter()
                    .map(|w| quoted(&w.text))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .filter(|c| !c.is_empty())
            .collect();
        // The words in front of what runs: wrappers and interpreters hookc
        // looked through (`sudo`, `env`, `bash -c`, `xargs`, …).
        let runs = |word: &str| {
            let first = word.split_whitespace().next().unwrap_or("");
            analysis
                .commands
                .iter()
                .any(|r| !r.program.is_empty() && r.program == basename(first))
        };
        let mut looked_through: Vec<String> = Vec::new();
        for c in &lexed.commands {
            if !c.words.iter().any(|w| runs(&w.text)) {
                continue;
            }
            for w in c.words.iter().take_while(|w| !runs(&w.text)) {
                let plain = !w.text.starts_with('-')
                    && !is_assignment(w)
                    && !w
                        .text
                        .chars()
                        .all(|ch| ch.is_ascii_digit() || ch == '.' || ch == 's' || ch == 'm');
                let name = basename(&w.text);
                if plain && !looked_through.contains(&name) {
                    looked_through.push(name);
                }
            }
        }
        Reading {
            written,
            analysis,
            looked_through,
        }
    }

    fn json(&self) -> Value {
        json!({
            "written": self.written,
            "runs": self.analysis.commands,
            "looked_through": self.looked_through,
            "opaque": self.analysis.opaque.iter().map(|o| o.reason.clone()).collect::<Vec<_>>(),
        })
    }
}

/// A word shown so that it reads as one word: in double quotes when it
/// holds blanks or shell syntax (a `$(…)` kept as written stays visible).
fn quoted(word: &str) -> String {
    if !word.is_empty()
        && !word.contains(|c: char| c.is_whitespace() || "'\"\\|&;<>()`*?[]{}#~".contains(c))
    {
        word.to_owned()
    } else {
        format!("\"{}\"", word.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// A program path's last part, without a `.exe` (as the normaliser reads it).
fn basename(word: &str) -> String {
    let base = word
        .rsplit('/')
        .next()
        .filter(|b| !b.is_empty())
        .unwrap_or(word);
    base.strip_suffix(".exe")
        .filter(|b| !b.is_empty())
        .unwrap_or(base)
        .to_owned()
}

/// `NAME=value` written plainly: an assignment, not the program.
fn is_assignment(w: &shell::Word) -> bool {
    let plain = &w.text[..w.plain_prefix.min(w.text.len())];
    plain.find('=').is_some_and(|i| {
        let name = plain[..i].trim_end_matches('+');
        !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// One harness's answer: exactly what `hookc guard` would write, and what
/// the harness does with it.
struct HarnessAnswer {
    harness: HarnessId,
    name: &'static str,
    /// `None`: the harness has no hook that carries this call.
    answer: Option<(harness::Answer, harness::Outcome)>,
    /// Whether the answer comes from the payload this harness sends for the
    /// call, or (no shape on record) from the verdict alone.
    shape_known: bool,
    /// Whether the harness runs the call under `hookc exec`.
    supervised: bool,
}

impl HarnessAnswer {
    fn json(&self) -> Value {
        match &self.answer {
            None => json!({"harness": self.harness.word(), "applicable": false}),
            Some((a, o)) => json!({
                "harness": self.harness.word(),
                "applicable": true,
                "from_payload": self.shape_known,
                "exit": a.exit,
                "stdout": a.stdout,
                "stderr": a.stderr,
                "proceeds": o.proceeds,
                "supervised": self.supervised,
                "asks": o.asks,
                "model_reads": o.model_reads,
                "user_sees": o.user_sees,
            }),
        }
    }
}

/// What every harness's answer is computed against.
#[derive(Clone, Copy)]
struct Setting<'a> {
    evaluator: &'a Evaluator<'a>,
    policy: &'a Policy,
    root: &'a Path,
    home: Option<&'a str>,
}

/// Decide the call as `hookc guard` would for `id`: its payload decoded by
/// the harness, evaluated, a rewrite turned into a refusal where the harness
/// cannot rewrite, and answered in its protocol.
fn answer(
    id: HarnessId,
    event: Event,
    payload: Option<&Value>,
    neutral: Option<(&Call, Option<&Verdict>)>,
    at: &Setting,
) -> HarnessAnswer {
    let h: &dyn Harness = harness::get(id).expect("only harnesses this hookc has");
    let name = h.profile().name;
    let none = HarnessAnswer {
        harness: id,
        name,
        answer: None,
        shape_known: true,
        supervised: false,
    };
    let Some(payload) = payload else {
        // No payload shape on record for this call (an MCP tool, say): the
        // answer `hookc guard` gives any call with this verdict.
        let carried = |(c, _): &(&Call, Option<&Verdict>)| {
            h.profile().event_name(event).is_some()
                && c.tool
                    .as_ref()
                    .and_then(|t| t.kind)
                    .is_none_or(|k| !h.profile().tool_names(k).is_empty())
        };
        let Some((call, refused)) = neutral.filter(carried) else {
            return none;
        };
        let verdict = match refused {
            Some(refused) => Some(refused.clone()),
            None => decide(call, event, Some(h), &Value::Null, at),
        };
        return HarnessAnswer {
            shape_known: false,
            ..finish_answer(h, id, event, None, verdict)
        };
    };
    let Ok(mut call) = h.decode_call(event, payload) else {
        return none;
    };
    let verdict = match prepare_call(&mut call, Some(id), at) {
        Err(refused) => Some(refused),
        Ok(()) => decide(&call, event, Some(h), payload, at),
    };
    finish_answer(h, id, event, Some(payload), verdict)
}

/// A prepared call decided as `hookc guard` decides it
/// ([`prepare::decide`]), without the effects `why` leaves out.
fn decide(
    call: &Call,
    event: Event,
    answering: Option<&dyn Harness>,
    payload: &Value,
    at: &Setting,
) -> Option<Verdict> {
    let policy = at.policy;
    let rules = prepare::Rules {
        targets: &policy.targets,
        audit: policy.audit,
        allow_once: policy.allow_once,
        never_override: &policy.never_override,
    };
    let asked = prepare::Asked {
        event,
        harness: answering,
        call,
        payload,
        project: Some(at.root.to_string_lossy().into_owned()),
        exec: crate::runtime::supervised::Exec::here(&at.root.join(crate::emit::POLICY_JSON)),
    };
    // `hookc why` never runs a guard's program: such a guard counts as
    // matching (the trace says so).
    prepare::decide(
        &asked,
        at.evaluator,
        &rules,
        &mut |_| Ok(None),
        prepare::Approvals::Show,
    )
    .unwrap_or_else(|e| unreachable!("{e}"))
}

fn finish_answer(
    h: &dyn Harness,
    id: HarnessId,
    event: Event,
    payload: Option<&Value>,
    verdict: Option<Verdict>,
) -> HarnessAnswer {
    let name = h.profile().name;
    let supervised = verdict.as_ref().is_some_and(Verdict::supervises);
    let a = match payload {
        Some(payload) => h.answer_call(event, payload, verdict.as_ref()),
        None => h.answer(event, verdict.as_ref()),
    };
    let outcome = h.outcome(
        event,
        &Observation {
            exit: Some(a.exit),
            stdout: a.stdout.clone(),
            stderr: a.stderr.clone(),
            timed_out: false,
        },
    );
    HarnessAnswer {
        harness: id,
        name,
        answer: Some((a, outcome)),
        shape_known: true,
        supervised,
    }
}

/// The explanation for a person: the call, how its command line is read,
/// the guards, the verdict and each harness's answer.
fn human(
    out: &mut String,
    call: &Call,
    event: Event,
    reading: Option<&Reading>,
    traces: &[GuardTrace],
    verdict: Option<&Verdict>,
    answers: &[HarnessAnswer],
) {
    write_call(out, call, event);
    if let Some(r) = reading {
        write_reading(out, r);
    }
    write_guards(out, traces);
    let _ = writeln!(out);
    write_verdict(out, verdict);
    let supervising: Vec<&str> = answers
        .iter()
        .filter(|a| a.supervised)
        .map(|a| a.name)
        .collect();
    if !supervising.is_empty() {
        let _ = writeln!(
            out,
            "  {} run{} it under `hookc exec` instead, which stops what the policy refuses as it happens (below)",
            supervising.join(", "),
            if supervising.len() == 1 { "s" } else { "" }
        );
    }
    write_answers(
        out,
        answers,
        verdict.is_some_and(|v| v.decision.is_note() && !v.reason().is_empty()),
    );
}

/// What was called: the tool and event, the command, paths or text.
fn write_call(out: &mut String, call: &Call, event: Event) {
    let tool = call.tool.as_ref().map_or("no tool", |t| t.native.as_str());
    let _ = writeln!(out, "The call: `{tool}` on `{event}`");
    if let Some(command) = &call.command {
        let _ = writeln!(out, "  command: {command}");
    }
    for p in &call.paths {
        let _ = writeln!(out, "  path:    {p}");
    }
    if let Some(text) = &call.text {
        let _ = writeln!(out, "  text:    {}", shell::normalize::short(text));
    }
}

/// How hookc reads the command line: as written, what runs, what it looked
/// through and what it cannot read.
fn write_reading(out: &mut String, r: &Reading) {
    let _ = writeln!(out, "\nHow hookc reads the command line");
    let _ = writeln!(out, "  as written (quotes removed):");
    for w in &r.written {
        let _ = writeln!(out, "    {w}");
    }
    let _ = writeln!(
        out,
        "  what runs (wrappers looked through, programs by basename):"
    );
    for c in &r.analysis.commands {
        let mut line = c.program.clone();
        for a in &c.args {
            line.push(' ');
            line.push_str(a);
        }
        let _ = write!(
            out,
            "    {}",
            if line.is_empty() {
                "(a redirection only)"
            } else {
                &line
            }
        );
        if !c.redirects.is_empty() {
            let _ = write!(out, "   [writes {}]", c.redirects.join(", "));
        }
        if !c.unknown.is_empty() {
            let words: Vec<&str> = c
                .unknown
                .iter()
                .filter_map(|&i| c.args.get(i).map(String::as_str))
                .collect();
            let _ = write!(out, "   [known only when it runs: {}]", words.join(", "));
        }
        out.push('\n');
    }
    if r.analysis.commands.is_empty() {
        let _ = writeln!(out, "    (nothing)");
    }
    if !r.looked_through.is_empty() {
        let _ = writeln!(out, "  looked through: {}", r.looked_through.join(", "));
    }
    if r.analysis.opaque.is_empty() {
        let _ = writeln!(out, "  opaque: nothing");
    } else {
        let _ = writeln!(
            out,
            "  opaque (cannot be read, so command guards refuse unless `opaque \"allow\"`):"
        );
        for o in &r.analysis.opaque {
            let _ = writeln!(out, "    {}", o.reason);
        }
    }
}

/// Which guards match, and for each other the first condition that does not
/// hold.
fn write_guards(out: &mut String, traces: &[GuardTrace]) {
    let matched = traces.iter().filter(|t| t.decision.is_some()).count();
    let considered: Vec<&GuardTrace> = traces.iter().filter(|t| t.skipped.is_none()).collect();
    let _ = writeln!(
        out,
        "\nGuards: {matched} of {} match{}",
        traces.len(),
        if matched == 1 { "es" } else { "" }
    );
    for t in &considered {
        let Some(d) = t.decision else {
            // One line: the first condition that does not hold.
            let why = t
                .conditions
                .iter()
                .find(|c| !c.holds)
                .map_or(String::new(), |c| format!(" - {}: {}", c.kind, c.detail));
            let _ = writeln!(out, "  no     {}{why}", t.guard);
            continue;
        };
        let from = t
            .from
            .as_ref()
            .map_or(String::new(), |f| format!(" (from {f})"));
        let _ = writeln!(out, "  MATCH  {}{from} -> {d}", t.guard);
        for c in &t.conditions {
            let _ = writeln!(
                out,
                "           {} {}: {}",
                if c.holds { "+" } else { "-" },
                c.kind,
                c.detail
            );
        }
        if let Some(run) = &t.run {
            let _ = writeln!(
                out,
                "           ! `run \"{run}\"` decides when this guard matches; `hookc why` does not run it and shows the guard as matching"
            );
        }
    }
    let skipped: Vec<String> = traces
        .iter()
        .filter_map(|t| t.skipped.as_ref().map(|why| format!("{} ({why})", t.guard)))
        .collect();
    if !skipped.is_empty() {
        let _ = writeln!(out, "  not for this call: {}", skipped.join(", "));
    }
}

/// The verdict, what the model reads and what runs instead.
fn write_verdict(out: &mut String, verdict: Option<&Verdict>) {
    match verdict {
        None => {
            let _ = writeln!(
                out,
                "Verdict: no guard matches; the call goes on (the harness's own rules still apply)"
            );
        }
        Some(v) => {
            let _ = writeln!(
                out,
                "Verdict: {} (by {})",
                v.decision,
                v.guard_names().join(", ")
            );
            let reason = v.reason();
            if !reason.is_empty() {
                // A refusal's reason reaches the model in every harness; a
                // note beside a call that goes on does not in some (each
                // harness's line below says where).
                let label = match v.decision {
                    d if d.is_note() => "the note for the model:",
                    Decision::Ask => "the reason given:",
                    _ => "the model reads:",
                };
                let _ = writeln!(out, "  {label}");
                for l in reason.lines() {
                    let _ = writeln!(out, "    {l}");
                }
            }
            if let Some(rewritten) = &v.rewritten {
                let _ = writeln!(out, "  runs instead: {rewritten}");
            }
        }
    }
}

/// What each harness is answered, exactly as `hookc guard` writes it.
/// `noted`: the verdict lets the call go on with a note for the model
/// (`rewrite`, `context`); a refusal's reason is not such a note, even
/// where a harness runs the call supervised instead.
fn write_answers(out: &mut String, answers: &[HarnessAnswer], noted: bool) {
    if !answers.is_empty() {
        let _ = writeln!(
            out,
            "\nWhat each harness is answered (exactly what `hookc guard` writes)"
        );
    }
    for a in answers {
        match &a.answer {
            None => {
                let _ = writeln!(out, "  {}: no hook carries this call there", a.name);
            }
            Some((ans, o)) => {
                let what = if o.asks {
                    "asks the user"
                } else if o.proceeds {
                    "the call goes on"
                } else {
                    "refused"
                };
                let _ = writeln!(out, "  {}: exit {}, {what}", a.name, ans.exit);
                if o.proceeds && !o.asks && noted && o.model_reads.is_none() {
                    let _ = writeln!(
                        out,
                        "    the model reads no note here: {} passes none to it before a tool runs",
                        a.name
                    );
                }
                if !a.shape_known {
                    let _ = writeln!(
                        out,
                        "    (hookc has no recorded {} payload for this call; this is its answer to any call with this verdict)",
                        a.name
                    );
                }
                for (label, text) in [("stdout", &ans.stdout), ("stderr", &ans.stderr)] {
                    if text.is_empty() {
                        continue;
                    }
                    let _ = writeln!(out, "    {label}:");
                    for l in text.trim_end_matches('\n').lines() {
                        let _ = writeln!(out, "      {l}");
                    }
                }
            }
        }
    }
}
