//! The `othbook` command: parses arguments and hands each subcommand to `cli`.

mod cli;

fn main() {
    // A book another program cuts short while a command reads it (mapped) ends the command
    // with a clear line and exit code 1, not a silent SIGBUS.
    othbook::book::exit_on_sigbus();
    std::process::exit(cli::run());
}
