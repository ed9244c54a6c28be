//! `othbook nboard`: an engine for the NBoard GUI (protocol version 2) on stdin/stdout.

use super::common::bad;
use anyhow::Result;
use othbook::engine::{Depth, Engine, EngineOptions};
use othbook::play::book_choice::BookSetting;
use othbook::protocol::nboard::NboardServer;
use othbook::wire::seconds::Seconds;
use std::io::Write;

/// Arguments of `othbook nboard`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The GUI's `set depth` overrides --depth; --time caps every search, except `go` in \
a game with a clock (TI[...] in `set game`), which budgets from the time the side to move has left.\n\
Only protocol goes to stdout; diagnostics go to stderr.\nA command that arrives during a search (ping, quit, set, move, go, hint) stops it, as the \
protocol wants; commands sent with the one that started the search wait for it.\n\nExamples:\n  othbook nboard\n  \
othbook nboard --depth 14 --time 5 --threads 2"
)]
pub struct Args {
    /// Midgame search depth until the GUI sets one.
    #[arg(long, default_value_t = 20)]
    depth: u32,
    /// Longest time per search (go and hint), in seconds (0.001-3600); `go` follows the
    /// game's clock instead when the GUI sends one.
    #[arg(long, default_value = "0.9", allow_hyphen_values = true)]
    time: Seconds,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Opening book consulted before searching (default: the default book: $OTHBOOK_BOOK, else books/wthor.book here, in the data folder or in the source tree, when there is one).
    #[arg(long, conflicts_with = "no_book")]
    book: Option<std::path::PathBuf>,
    /// Search every position, without the book.
    #[arg(long)]
    no_book: bool,
    /// With a book that has values, `go` plays any book move at most this many discs below
    /// the best value, at random (0: always the best).
    #[arg(long, default_value = "0", value_parser = randomness_arg)]
    book_randomness: f64,
    /// Seed of the random choice among book moves (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
}

fn randomness_arg(text: &str) -> Result<f64, String> {
    othbook::play::book_choice::parse_randomness(text)
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let depth = Depth::new(args.depth).map_err(|_| bad("--depth must be 1 to 60"))?;
    let time = args
        .time
        .within(0.001, 3600.0)
        .map_err(|e| bad(format!("--time: {e}")))?;
    let threads = super::common::threads_arg(Some(args.threads))?;
    let hash = super::common::check_hash(args.hash)?;
    let engine = Engine::try_new(EngineOptions {
        threads,
        hash_mb: hash,
    })
    .map_err(|e| bad(e.to_string()))?;
    let book = if args.no_book {
        None
    } else if args.book.is_some() {
        Some(std::sync::Arc::new(super::common::open_book(
            args.book.as_deref(),
        )?))
    } else {
        BookSetting::Default.open()?
    };
    let seed = args.seed.unwrap_or_else(othbook::rng::Rng::fresh_seed);
    let mut server = NboardServer::new(engine, depth, time.duration())
        .with_book(book)
        .with_book_randomness(args.book_randomness, seed);
    // Large enough for any script written at once to be read at once (see `serve`).
    let stdin = std::io::BufReader::with_capacity(1 << 16, std::io::stdin());
    server.serve(stdin, out, &mut std::io::stderr())?;
    Ok(())
}
