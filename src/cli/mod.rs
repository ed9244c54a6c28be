//! Command-line front end: one module per subcommand, each turning arguments into library calls.

use clap::{Parser, Subcommand};
use std::io::{self, Write};

mod analyze;
mod bench;
mod bench_choice;
mod bench_progress;
mod bench_quality;
mod bench_values;
mod bench_values_report;
mod book;
mod book_values;
mod build;
mod calibrate;
mod calibrate_trust;
mod common;
mod explore;
mod explore_history;
mod explore_view;
mod games;
mod games_find;
mod games_listing;
mod games_players;
mod gtp;
mod info;
mod interrupt;
mod match_record;
mod merge;
mod nboard;
mod openings;
mod output_path;
mod perft;
mod play_match;
mod query_filter;
mod reading;
mod review;
mod serve;
mod solve;
mod teach;
mod top;
mod train;

pub use common::BadInput;

const EXAMPLES: &str = "\
Examples:
  othbook explore f5                   the default book after f5: games, results, next moves
  othbook explore f5d6 --player tamenori --games 5    counted from one player's games, listed
  othbook games find f5d6c3d3c4        the games behind a position, most recent first
  othbook top --plies 10 --first d3    the most played 10-ply lines
  othbook openings tiger               named openings, their lines and games in the book
  othbook build ../shared/data/wthor/*.wtb -o my.book --plies 30 --min-games 2
  othbook merge a.book b.book -o ab.book   add up books built with the same options
  othbook info books/wthor.book        header, counts, sources and build options
  othbook perft 10                     leaf count of the game tree 10 plies deep
  othbook perft 8 --moves f5d6 --divide    per-move counts after f5 d6
  othbook match --black alphabeta:depth=4 --white random --games 10 --swap
  othbook gtp                          GTP engine on stdin/stdout
  othbook nboard                       NBoard engine on stdin/stdout
  othbook analyze f5d6c3 --depth 14    best move and score after f5 d6 c3
  othbook review game.pgn --depth 10   every move scored against the engine's best
  othbook solve ffo.obf --lines 40-49  exact endgame solves, checked against the file
  othbook bench                        node-count signature and search speed
  othbook bench --values               the default book's values against solves and deeper searches
  othbook serve --open                 the opening explorer in a browser
  othbook games stats ../shared/data/wthor/*.wtb    games, results, lengths, first moves
  othbook games convert games.pgn --to wtb -o out/games.wtb    convert between formats
  othbook train ../shared/data/wthor/*.wtb --out my-eval.bin    fit pattern-evaluation weights
  othbook teach tournament --game robots --players greedy,alphabeta,mcts --limits 0.01,0.05
                                       classic game-search players on other games too

Outputs: `-o -` (and --out -, --csv -...) is standard output wherever a stream makes sense;
a book, or a file rewritten while the command runs, must be a file. An output file is written
whole or not at all, and locked while the command runs (a lock file .NAME.lock beside it).

Exit codes: 0 success, 1 failure (also: a book another program cut short while it was read),
2 bad input, 75 an output file another othbook is writing, 130 interrupted (Ctrl-C).";

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
    /// Play games between two players (or a round robin) under time controls.
    /// Example: othbook match --black alphabeta:depth=4 --white random --games 10 --swap
    Match(play_match::Args),
    /// Run as a GTP engine on stdin/stdout.
    /// Example: othbook gtp --player mcts:time=0.5
    Gtp(gtp::Args),
    /// Run as an engine for the NBoard GUI (protocol version 2) on stdin/stdout.
    /// Example: othbook nboard --depth 14
    Nboard(nboard::Args),
    /// Analyse a position: iterative deepening, exact solve near the end, multi-PV.
    /// Example: othbook analyze f5d6c3 --time 5 --threads 2
    Analyze(analyze::Args),
    /// Review a game: each move's loss against the engine's best, marks, where the game
    /// left the book, exact scores near the end, each player's errors.
    /// Example: othbook review ../shared/data/wthor/WTH_2000.wtb --index 3 --depth 10
    Review(review::Args),
    /// Solve endgame positions exactly (or win/draw/loss) from an OBF file or a position.
    /// Example: othbook solve ../shared/data/ffo/ffo.obf --lines 40-49
    Solve(solve::Args),
    /// Fit engine parameters from game files (Multi-ProbCut's regressions).
    /// Example: othbook calibrate probcut ../shared/data/wthor/WTH_20*.wtb --positions 100
    Calibrate(calibrate::Args),
    /// Fixed searches: node-count signature and nodes per second (--quality: the evaluation;
    /// --values: a book's values against exact solves and deeper searches).
    /// Example: othbook bench
    Bench(bench::Args),
    /// Read game collections (.gam, WTHOR, GGF, PGN, move lists, CSV): stats, conversion, players, events, and a book's games (find).
    /// Example: othbook games stats ../shared/data/logbook/logbook.gam.gz
    Games(games::Args),
    /// Show a position's games and results and every next move in the book.
    /// Example: othbook explore f5 d6
    Explore(explore::Args),
    /// Serve the opening explorer as a web page (and its JSON API) on localhost.
    /// Example: othbook serve --open
    Serve(serve::Args),
    /// List the most played lines of exactly N plies.
    /// Example: othbook top --plies 10 --first d3
    Top(top::Args),
    /// List the named openings (Tiger, Rose, Buffalo...) with their lines and book games.
    /// Example: othbook openings tiger
    Openings(openings::Args),
    /// Build an opening book from game files.
    /// Example: othbook build games.gam -o games.book --plies 30 --min-games 2
    Build(build::Args),
    /// Merge books built with the same options.
    /// Example: othbook merge a.book b.book -o ab.book
    Merge(merge::Args),
    /// A book's values, smaller books and other programs' books: evaluate, apply, deviate,
    /// enhance, fix, loss, subtree, prune, import, add-games, export.
    /// Example: othbook book evaluate my.book --depth 12
    Book(book::Args),
    /// Show a book's header, counts, sources and build options.
    /// Example: othbook info books/wthor.book
    Info(info::Args),
    /// Fit pattern-evaluation weights to game files (errors per phase against held-out games).
    /// Example: othbook train ../shared/data/wthor/*.wtb --out my-eval.bin
    Train(train::Args),
    /// Classic game-search players (minimax, alpha-beta, expectimax, max-n, paranoid, MCTS)
    /// on tic-tac-toe, the warehouse-robot game and Othello: match, tournament, show.
    /// Example: othbook teach show --game robots --seed 7
    Teach(teach::Args),
}

/// Runs the command line and returns the process exit code: 0 success, 1 failure,
/// 2 bad input (arguments, move strings, positions), 75 an output file another process is
/// writing, 130 interrupted.
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
        Command::Match(args) => play_match::run(args, &mut out),
        Command::Gtp(args) => gtp::run(args, &mut out),
        Command::Nboard(args) => nboard::run(args, &mut out),
        Command::Analyze(args) => analyze::run(args, &mut out),
        Command::Review(args) => review::run(args, &mut out),
        Command::Solve(args) => solve::run(args, &mut out),
        Command::Bench(args) => bench::run(args, &mut out),
        Command::Calibrate(args) => calibrate::run(args, &mut out),
        Command::Games(args) => games::run(args, &mut out),
        Command::Explore(args) => explore::run(args, &mut out),
        Command::Serve(args) => serve::run(args, &mut out),
        Command::Top(args) => top::run(args, &mut out),
        Command::Openings(args) => openings::run(args, &mut out),
        Command::Build(args) => build::run(args, &mut out),
        Command::Merge(args) => merge::run(args, &mut out),
        Command::Info(args) => info::run(args, &mut out),
        Command::Book(args) => book::run(args, &mut out),
        Command::Train(args) => train::run(args, &mut out),
        Command::Teach(args) => teach::run(args, &mut out),
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
            if e.chain().any(|c| c.is::<interrupt::Interrupted>()) {
                130
            } else if output_path::in_use(&e) {
                output_path::IN_USE
            } else if e.chain().any(|c| c.is::<BadInput>()) {
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
