use clap::Parser;

fn main() {
    // A hook's own command line skips clap (see `GuardArgs::from_hook`).
    if let Some(args) = hookc::cli::GuardArgs::from_hook(std::env::args_os()) {
        std::process::exit(hookc::guard(&args));
    }
    let cli = hookc::cli::Cli::parse();
    std::process::exit(hookc::run(cli));
}
