//! The `othbook` command: parses arguments and hands each subcommand to `cli`.

mod cli;

fn main() {
    std::process::exit(cli::run());
}
