use clap::Parser;

fn main() {
    let cli = hookc::cli::Cli::parse();
    std::process::exit(hookc::run(cli));
}
