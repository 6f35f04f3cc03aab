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

/// One page, `hookc(1)`. clap_mangen lists the commands as pages of their
/// own (`hookc-build(1)`) that nothing writes: each is named as the command
/// it is, with where its options are.
pub fn man() -> ExitStatus {
    let mut text = Vec::new();
    let mut cli = Cli::command();
    cli.build();
    clap_mangen::Man::new(cli.clone())
        .render(&mut text)
        .expect("rendering into memory cannot fail");
    let mut page = String::from_utf8(text).expect("roff is text");
    for sub in cli.get_subcommands() {
        let name = sub.get_name();
        let page_of = format!("\n.TP\nhookc\\-{}(1)\n", name.replace('-', "\\-"));
        let command = format!(
            "\n.TP\n\\fBhookc {}\\fR (options: \\fBhookc {} \\-\\-help\\fR)\n",
            name.replace('-', "\\-"),
            name.replace('-', "\\-")
        );
        page = page.replace(&page_of, &command);
    }
    print(page.as_bytes())
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
