use clap::Parser;

fn main() {
    // A hook's own command line skips clap (see `GuardArgs::from_hook`).
    if let Some(args) = hookc::cli::GuardArgs::from_hook(std::env::args_os()) {
        std::process::exit(hookc::guard(&args));
    }
    // So does a supervised call's (`hookc exec`).
    if let Some(args) = hookc::cli::ExecArgs::from_call(std::env::args_os()) {
        std::process::exit(hookc::exec(&args));
    }
    let cli = hookc::cli::Cli::parse();
    // A guard's or exec's failure to write is a failure (the hook refuses);
    // any other command whose reader went away (`hookc test | head -1`) just
    // stops, as other command-line tools do.
    if !matches!(
        cli.command,
        hookc::cli::Command::Guard(_) | hookc::cli::Command::Exec(_)
    ) {
        hookc::quiet_on_closed_pipe();
    }
    std::process::exit(hookc::run(cli));
}
