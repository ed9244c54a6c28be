//! Command-line front end: one module per subcommand, each turning arguments into library calls.

use clap::{Parser, Subcommand};
use std::io::{self, Write};

mod build;
mod common;
mod explore;
mod info;
mod merge;
mod perft;
mod top;

pub use common::BadInput;

const EXAMPLES: &str = "\
Examples:
  othbook explore f5                   the default book after f5: games, results, next moves
  othbook top --plies 10 --first d3    the most played 10-ply lines
  othbook build ../shared/data/wthor/*.wtb -o my.book --plies 30 --min-games 2
  othbook merge a.book b.book -o ab.book   add up books built with the same options
  othbook info books/wthor.book        header, counts, sources and build options
  othbook perft 10                     leaf count of the game tree 10 plies deep
  othbook perft 8 --moves f5d6 --divide    per-move counts after f5 d6";

/// Othello opening books, transcript ingest and position analysis.
#[derive(Parser, Debug)]
#[command(name = "othbook", version, about, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the game tree (move-generator check and speed test).
    /// Example: othbook perft 10
    Perft(perft::Args),
    /// Show a position's games and results and every next move in the book.
    /// Example: othbook explore f5 d6
    Explore(explore::Args),
    /// List the most played lines of exactly N plies.
    /// Example: othbook top --plies 10 --first d3
    Top(top::Args),
    /// Build an opening book from game files.
    /// Example: othbook build games.gam -o games.book --plies 30 --min-games 2
    Build(build::Args),
    /// Merge books built with the same options.
    /// Example: othbook merge a.book b.book -o ab.book
    Merge(merge::Args),
    /// Show a book's header, counts, sources and build options.
    /// Example: othbook info books/wthor.book
    Info(info::Args),
}

/// Runs the command line and returns the process exit code: 0 success, 1 failure,
/// 2 bad input (arguments, move strings, positions).
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = match cli.command {
        Command::Perft(args) => perft::run(args, &mut out),
        Command::Explore(args) => explore::run(args, &mut out),
        Command::Top(args) => top::run(args, &mut out),
        Command::Build(args) => build::run(args, &mut out),
        Command::Merge(args) => merge::run(args, &mut out),
        Command::Info(args) => info::run(args, &mut out),
    }
    .and_then(|()| out.flush().map_err(anyhow::Error::from));
    match result {
        Ok(()) => 0,
        Err(e) if is_broken_pipe(&e) => 0,
        Err(e) => {
            let mut msg = format!("othbook: {e}");
            for cause in e.chain().skip(1) {
                msg.push_str(&format!(": {cause}"));
            }
            eprintln!("{msg}");
            if e.chain().any(|c| c.is::<BadInput>()) {
                2
            } else {
                1
            }
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
