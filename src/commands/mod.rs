//! What each subcommand does, on top of the pipeline modules.

mod build;
mod explain;
mod guard;
mod simulate;
mod test;

use std::io::{IsTerminal, Write};

use crate::cli::{Cli, Color, Command};
use crate::diag::Diagnostics;
use crate::diag::render::{self, Style};

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
        Command::Build(args) => build::build(&args, build::Mode::Write, &ui).code(),
        Command::Check(args) => build::build(&args, build::Mode::Check, &ui).code(),
        Command::Guard(args) => guard::guard(&args),
        Command::Simulate(args) => simulate::simulate(&args).code(),
        Command::Test(args) => test::test(&args).code(),
        Command::Explain { code } => explain::explain(code.as_deref()).code(),
    }
}

pub struct Ui {
    pub style: Style,
    pub quiet: bool,
}

impl Ui {
    pub fn report(&self, diags: Diagnostics) {
        let diags: Vec<_> = diags
            .into_sorted()
            .into_iter()
            .filter(|d| !self.quiet || d.is_error())
            .collect();
        if !diags.is_empty() {
            eprint!("{}", render::human_all(&diags, self.style));
        }
    }

    pub fn say(&self, text: &str) {
        if !self.quiet {
            let _ = writeln!(std::io::stdout(), "{text}");
        }
    }
}
