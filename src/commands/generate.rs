//! `hookc completions` and `hookc man`: text generated from the clap definition.

use std::io::Write;

use clap::CommandFactory;

use crate::cli::Cli;
use crate::exit::ExitStatus;

pub fn completions(shell: clap_complete::Shell) -> ExitStatus {
    let mut text = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "hookc", &mut text);
    print(&text)
}

pub fn man() -> ExitStatus {
    let mut text = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut text)
        .expect("rendering into memory cannot fail");
    print(&text)
}

/// Write to stdout; a reader that stops early (`| head`) is not an error.
fn print(text: &[u8]) -> ExitStatus {
    match std::io::stdout().lock().write_all(text) {
        Ok(()) => ExitStatus::Success,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitStatus::Success,
        Err(e) => {
            eprintln!("error: hookc::io: cannot write to stdout: {e}");
            ExitStatus::Error
        }
    }
}
