//! `othbook book deviate`: deviation learning (Edax's `book deviate`): adds the positions off
//! the book's best lines that are close enough to them, each with a searched leaf.

use super::leaf_options::LeafOptions;
use super::output;
use crate::cli::common::bad;
use crate::cli::interrupt::{self, Interrupted};
use crate::cli::output_path::Output;
use anyhow::Result;
use othbook::engine::Selectivity;
use othbook::learn::{deviate, DeviateSettings, LeafSettings, LearnError, SearchRun};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::Ordering;

/// Arguments of `othbook book deviate`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "From the start, the walk follows every book move within --relative \
discs of the best move's value (for the side to move) and within --absolute discs of the start \
position's value; each leaf on the walk within the same windows, fewer than --until plies deep, \
is played and added to the book with its own leaf searched, and values are negamaxed again. \
Rounds repeat until nothing more qualifies or --max positions were added. Added positions have \
no games: `explore` shows them with 0 games. The book must be evaluated first \
(`othbook book evaluate`); any missing leaf is searched before the first round. The book is \
saved after every round; Ctrl-C saves what was found (exit code 130) and a rerun continues. \
Leaves are searched with the settings of the book's evaluation (`othbook info`): other \
--depth, --exact-from or --selectivity need the book evaluated with them first (`othbook book \
evaluate --refresh`), since a book's leaves are all searched with one setting.\n\n\
Example:\n  othbook book deviate my.book --relative 4 --absolute 8 --until 30"
)]
pub struct Args {
    /// The evaluated book.
    book: PathBuf,
    /// Write the result here (default: replace BOOK); a file, not `-`. The output is locked
    /// while the command runs: a second othbook writing it stops at once (exit code 75).
    #[arg(short, long)]
    output: Option<Output>,
    /// Window around each position's best value, in discs.
    #[arg(long)]
    relative: f64,
    /// Window around the start position's value, in discs.
    #[arg(long)]
    absolute: f64,
    /// Leaf search depth in plies (default: the book's).
    #[arg(long)]
    depth: Option<u32>,
    /// Solve leaves exactly at this many empties or fewer, 0: never (default: the book's).
    #[arg(long)]
    exact_from: Option<u32>,
    /// Multi-ProbCut's confidence in the midgame leaf searches: 73, 87, 95, 98, 99, or 100
    /// (full width; also `exact`) (default: the book's). Solved leaves are exact whatever it
    /// is.
    #[arg(long, value_name = "LEVEL")]
    selectivity: Option<Selectivity>,

    /// Add leaves only from positions fewer than this many plies deep.
    #[arg(long, default_value_t = 60)]
    until: u32,
    /// Add at most this many positions in this run.
    #[arg(long, default_value_t = 100_000)]
    max: usize,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Minutes between checkpoints within a round (the book is also saved after each round).
    #[arg(long, default_value_t = 5.0)]
    checkpoint: f64,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let window = |name: &str, v: f64| {
        if (0.0..=128.0).contains(&v) {
            Ok(v)
        } else {
            Err(bad(format!(
                "--{name} {v} is out of range: use 0 to 128 discs"
            )))
        }
    };
    let settings = DeviateSettings {
        relative: window("relative", args.relative)?,
        absolute: window("absolute", args.absolute)?,
        until: args.until.min(60),
        max: args.max,
    };
    let checkpoint_every = output::checkpoint_every(args.checkpoint)?;
    let threads = crate::cli::common::threads_arg(args.threads)?;
    let target = output::target(&args.book, args.output.as_ref())?;
    let path = target.path();
    let mut data = output::read(&args.book)?;
    let Some(book) = data.info.evaluation.clone() else {
        return Err(bad(format!(
            "{} has no values: run `othbook book evaluate` on it first",
            args.book.display()
        )));
    };
    let leaf = leaf_settings(&args, &book)?;

    let stop = interrupt::install();
    let tick = || {};
    let run = SearchRun {
        settings: leaf,
        threads,
        stop,
        tick: &tick,
        checkpoint_every,
    };
    let mut failed = None;
    let mut rounds_told = 0;
    let mut save = |d: &othbook::book::BookData, r: &othbook::learn::DeviateReport| {
        if r.rounds > rounds_told {
            rounds_told = r.rounds;
            eprintln!(
                "round {}: {} positions added, {} leaves searched",
                r.rounds, r.added, r.searched
            );
        }
        if let Err(e) = output::write(path, d) {
            failed.get_or_insert(e);
            stop.store(true, Ordering::Relaxed);
        }
    };
    let report = deviate(&mut data, &settings, &run, &mut save).map_err(|e| match e {
        LearnError::Settings(e) => bad(format!("{}: {e}", args.book.display())),
        e => e.into(),
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    let relinked = data.relink();
    output::write(path, &data)?;
    writeln!(
        out,
        "{} rounds, {} positions added, {} leaves searched",
        report.rounds, report.added, report.searched
    )?;
    output::summary(out, path, &data, &relinked)?;
    if report.stopped {
        out.flush()?;
        return Err(Interrupted(
            "interrupted: the book is saved; run the same command again to continue".into(),
        )
        .into());
    }
    Ok(())
}

/// The leaf settings: the options given, the book's evaluation for the others.
fn leaf_settings(args: &Args, book: &othbook::book::EvalInfo) -> Result<LeafSettings> {
    let options = LeafOptions {
        depth: args.depth.unwrap_or(u32::from(book.depth)),
        exact_from: args.exact_from,
        selectivity: args.selectivity,
        hash: None,
    };
    super::leaf_options::leaf_settings(&args.book, book, &options)
}
