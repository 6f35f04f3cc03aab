//! What each subcommand does, on top of the pipeline modules.

use std::io::{IsTerminal, Write};

use crate::cli::{BuildArgs, Cli, Color, Command, GuardArgs};
use crate::diag::render::{self, Style};
use crate::diag::{Code, Diagnostics};
use crate::exit::ExitStatus;
use crate::harness;
use crate::plan::{self, Action, Plan};
use crate::runtime::{self, GuardRequest};
use crate::{compile, write};

/// Run a parsed command line; returns the process exit status.
pub fn run(cli: Cli) -> i32 {
    let style = Style {
        color: match cli.color {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => {
                std::env::var_os("NO_COLOR").is_none() && std::io::stderr().is_terminal()
            }
        },
        unicode: true,
        width: 100,
    };
    let ui = Ui {
        style,
        quiet: cli.quiet,
    };
    match cli.command {
        Command::Build(args) => build(&args, Mode::Write, &ui).code(),
        Command::Check(args) => build(&args, Mode::Check, &ui).code(),
        Command::Guard(args) => guard(&args),
        Command::Explain { code } => explain(code.as_deref()).code(),
    }
}

struct Ui {
    style: Style,
    quiet: bool,
}

impl Ui {
    fn report(&self, diags: Diagnostics) {
        let diags: Vec<_> = diags
            .into_sorted()
            .into_iter()
            .filter(|d| !self.quiet || d.is_error())
            .collect();
        if !diags.is_empty() {
            eprint!("{}", render::human_all(&diags, self.style));
        }
    }

    fn say(&self, text: &str) {
        if !self.quiet {
            let _ = writeln!(std::io::stdout(), "{text}");
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Write,
    Check,
}

fn build(args: &BuildArgs, mode: Mode, ui: &Ui) -> ExitStatus {
    let mut diags = Diagnostics::default();
    let Some((file, policy)) = compile::load(&args.policy, &mut diags) else {
        let could_not_read = diags.iter().any(|d| d.code == Code::Io);
        ui.report(diags);
        return if could_not_read {
            ExitStatus::Error
        } else {
            ExitStatus::Failure
        };
    };
    let artifacts = compile::emit(&file, &policy, &mut diags);
    let options = plan::Options {
        user: args.user,
        homes: plan::Homes::from_env(),
    };
    let plan = Plan::new(&args.out, &file.name, &artifacts, &options, &mut diags);
    let unmergeable = diags.has_errors();
    ui.report(diags);
    if unmergeable {
        return ExitStatus::Error;
    }

    if mode == Mode::Check {
        return check(&plan, ui);
    }
    if args.dry_run {
        ui.say("hookc build --dry-run: nothing written; a build would:");
        for change in &plan.changes {
            ui.say(&format!("  {:<9} {}", verb(change.action), change.path));
        }
        return ExitStatus::Success;
    }
    if let Err(e) = write::apply(&plan) {
        eprintln!("error: hookc::io: could not write {e}");
        return ExitStatus::Error;
    }
    for change in plan
        .changes
        .iter()
        .filter(|c| c.action != Action::Unchanged)
    {
        ui.say(&format!("  {:<9} {}", verb(change.action), change.path));
    }
    let changed = plan
        .changes
        .iter()
        .filter(|c| c.action != Action::Unchanged)
        .count();
    ui.say(&format!(
        "hookc: {} compiled for {} ({} file{} changed, {} up to date)",
        file.name,
        policy
            .targets
            .iter()
            .map(|t| t.word())
            .collect::<Vec<_>>()
            .join(", "),
        changed,
        if changed == 1 { "" } else { "s" },
        plan.changes.len() - changed,
    ));
    for id in &policy.targets {
        let Some(h) = harness::get(*id) else { continue };
        let profile = h.profile();
        let count = policy
            .guards
            .iter()
            .filter(|g| profile.event_name(g.event).is_some())
            .count();
        ui.say(&format!(
            "{}: {} guard{} active",
            profile.name,
            count,
            if count == 1 { "" } else { "s" }
        ));
        for todo in profile.todo {
            ui.say(&format!("  to do: {todo}"));
        }
    }
    ExitStatus::Success
}

fn check(plan: &Plan, ui: &Ui) -> ExitStatus {
    if plan.is_clean() {
        ui.say("hookc check: everything is up to date");
        return ExitStatus::Success;
    }
    let mut out = String::new();
    let mut stale = 0;
    for change in plan
        .changes
        .iter()
        .filter(|c| c.action != Action::Unchanged)
    {
        stale += 1;
        let old = change.old.as_deref().unwrap_or("");
        let new = change.new.as_deref().unwrap_or("");
        if old == new {
            out.push_str(&format!("{}: not executable\n", change.path));
            continue;
        }
        let diff = similar::TextDiff::from_lines(old, new);
        out.push_str(
            &diff
                .unified_diff()
                .context_radius(3)
                .header(&format!("a/{}", change.path), &format!("b/{}", change.path))
                .to_string(),
        );
    }
    print!("{out}");
    eprintln!(
        "error: hookc::drift: {stale} file{} out of date; run `hookc build` and commit the result",
        if stale == 1 { " is" } else { "s are" }
    );
    let _ = ui;
    ExitStatus::Failure
}

fn verb(action: Action) -> &'static str {
    match action {
        Action::Create => "create",
        Action::Update => "update",
        Action::Unchanged => "unchanged",
        Action::Delete => "retract",
    }
}

fn guard(args: &GuardArgs) -> i32 {
    let request = GuardRequest {
        harness: args.harness,
        event: args.event,
        policy: &args.policy,
        debug: args.debug.as_deref(),
    };
    runtime::run(
        &request,
        &mut std::io::stdin().lock(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    )
}

fn explain(code: Option<&str>) -> ExitStatus {
    match code {
        None => {
            for code in Code::ALL {
                println!("{:<28} {}", code.to_string(), code.summary());
            }
            ExitStatus::Success
        }
        Some(name) => match name.parse::<Code>() {
            Ok(code) => {
                println!("{code}: {}\n\n{}", code.summary(), code.explanation());
                ExitStatus::Success
            }
            Err(()) => {
                let names: Vec<&str> = Code::ALL.iter().map(|c| c.name()).collect();
                eprintln!(
                    "error: no diagnostic code `{name}`; {}",
                    crate::diag::suggest(name.trim_start_matches("hookc::"), &names)
                );
                ExitStatus::Error
            }
        },
    }
}
