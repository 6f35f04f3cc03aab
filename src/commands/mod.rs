//! What each subcommand does, on top of the pipeline modules.

mod allow_once;
mod build;
mod doctor;
mod exec;
mod explain;
mod generate;
mod guard;
mod import;
mod init;
mod lint;
mod log;
mod org;
mod precommit;
mod simulate;
mod test;
mod update;
mod why;

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

pub use exec::exec;
pub use guard::guard;

use crate::cli::{Cli, Color, Command};
use crate::diag::Diagnostics;
use crate::diag::render::{self, Style};

/// Run a parsed command line; returns the process exit status.
pub fn run(cli: Cli) -> i32 {
    let style = Style {
        color: use_color(
            cli.color,
            |name| std::env::var_os(name),
            std::io::stderr().is_terminal(),
        ),
        unicode: true,
        width: 100,
    };
    let ui = Ui {
        style,
        // The result on stdout is coloured by the same rules, for stdout.
        paint: use_color(
            cli.color,
            |name| std::env::var_os(name),
            std::io::stdout().is_terminal(),
        ),
        quiet: cli.quiet,
        verbose: cli.verbose,
    };
    match cli.command {
        Command::Build(args) if args.org.is_some() => {
            eprintln!(
                "error: `--org` is for `hookc check`: a build writes one repository, the one it runs in"
            );
            crate::exit::ExitStatus::Error.code()
        }
        Command::Build(args) => build::build(&args, build::Mode::Write, &ui).code(),
        Command::Check(args) => match &args.org {
            Some(list) => org::check(&args, list, &ui).code(),
            None => build::build(&args, build::Mode::Check, &ui).code(),
        },
        Command::Doctor(args) => doctor::doctor(&args, &ui).code(),
        Command::Guard(args) => guard::guard(&args),
        Command::Exec(args) => exec::exec(&args),
        Command::Simulate(args) => simulate::simulate(&args).code(),
        Command::Test(args) => test::test(&args).code(),
        Command::Lint(args) => lint::lint(&args, &ui).code(),
        Command::Import(args) => import::import(&args, &ui).code(),
        Command::InstallPreCommit { repo } => {
            precommit::install(repo.as_deref().unwrap_or(Path::new(".")), &ui).code()
        }
        Command::Explain { code, format } => explain::explain(code.as_deref(), format).code(),
        Command::Init(args) => init::init(&args, &ui).code(),
        Command::Why(args) => why::why(&args, &ui).code(),
        Command::Update(args) => update::update(&args, &ui).code(),
        Command::Log(args) => log::log(&args, &ui).code(),
        Command::AllowOnce(args) => allow_once::allow_once(&args).code(),
        Command::Completions { shell } => generate::completions(shell).code(),
        Command::Man => generate::man().code(),
    }
}

/// Whether diagnostics on stderr get colour. `auto` follows the conventions:
/// `NO_COLOR` (non-empty) turns colour off, `CLICOLOR_FORCE` (non-empty, not
/// `0`) turns it on, `CLICOLOR=0` off, and otherwise only a terminal gets it.
pub fn use_color(
    choice: Color,
    env: impl Fn(&str) -> Option<OsString>,
    stderr_is_terminal: bool,
) -> bool {
    let set = |name: &str| env(name).is_some_and(|v| !v.is_empty());
    match choice {
        Color::Always => true,
        Color::Never => false,
        Color::Auto if set("NO_COLOR") => false,
        Color::Auto if set("CLICOLOR_FORCE") && env("CLICOLOR_FORCE") != Some("0".into()) => true,
        Color::Auto if env("CLICOLOR") == Some("0".into()) => false,
        Color::Auto => stderr_is_terminal,
    }
}

/// The policy to read and the project root to write into: `--policy` and
/// `--out` as given, or else the nearest `policy.kdl` (see
/// [`crate::discover`]) and its folder. `--out` without `--policy` still
/// searches for the policy; `--policy` without `--out` writes into the
/// current folder, as it always did.
pub fn locate(
    policy: Option<&Path>,
    out: Option<&Path>,
) -> Result<(PathBuf, PathBuf), crate::diag::Diagnostic> {
    let default_out = || out.map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    if let Some(policy) = policy {
        return Ok((policy.to_path_buf(), default_out()));
    }
    match crate::discover::find_from_here() {
        Ok(found) => Ok((found.policy, out.map_or(found.root, Path::to_path_buf))),
        Err(none) => Err(
            crate::diag::Diagnostic::new(crate::diag::Code::Io, none.message()).help(none.help()),
        ),
    }
}

pub struct Ui {
    pub style: Style,
    /// Whether the lines on stdout (a build's changes, doctor's checks) get
    /// colour: `--color`, `NO_COLOR`/`CLICOLOR*` and whether stdout is a
    /// terminal, as [`use_color`] reads them.
    pub paint: bool,
    pub quiet: bool,
    pub verbose: bool,
}

/// The colours of a result's status words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paint {
    Good,
    Note,
    Bad,
}

impl Ui {
    /// `word` in the colour of `paint` when stdout gets colour, else as it is.
    pub fn paint(&self, word: &str, paint: Paint) -> String {
        if !self.paint {
            return word.to_owned();
        }
        let code = match paint {
            Paint::Good => "32",
            Paint::Note => "33",
            Paint::Bad => "31;1",
        };
        format!("\x1b[{code}m{word}\x1b[0m")
    }

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

    /// A line of the human result on stdout, unless `-q`.
    pub fn say(&self, text: &str) {
        if !self.quiet {
            let _ = writeln!(std::io::stdout(), "{text}");
        }
    }

    /// A line only `-v` asks for.
    pub fn detail(&self, text: &str) {
        if self.verbose {
            self.say(text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn auto_colours_a_terminal_only() {
        assert!(use_color(Color::Auto, env(&[]), true));
        assert!(!use_color(Color::Auto, env(&[]), false));
    }

    #[test]
    fn no_color_wins_over_a_terminal_unless_empty() {
        assert!(!use_color(Color::Auto, env(&[("NO_COLOR", "1")]), true));
        assert!(use_color(Color::Auto, env(&[("NO_COLOR", "")]), true));
        assert!(!use_color(
            Color::Auto,
            env(&[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")]),
            false
        ));
    }

    #[test]
    fn clicolor_force_and_clicolor() {
        assert!(use_color(
            Color::Auto,
            env(&[("CLICOLOR_FORCE", "1")]),
            false
        ));
        assert!(!use_color(
            Color::Auto,
            env(&[("CLICOLOR_FORCE", "0")]),
            false
        ));
        assert!(!use_color(Color::Auto, env(&[("CLICOLOR", "0")]), true));
    }

    #[test]
    fn explicit_choices_ignore_the_environment() {
        assert!(use_color(Color::Always, env(&[("NO_COLOR", "1")]), false));
        assert!(!use_color(Color::Never, env(&[]), true));
    }
}
