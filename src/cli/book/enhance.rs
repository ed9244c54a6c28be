//! `othbook book enhance`: more search where the book's choice is close (Edax's `book
//! enhance`): on the most played lines, positions whose best and second-best moves are within
//! a window get those moves searched deeper or played and added, and values are negamaxed.

use super::leaf_options::LeafOptions;
use super::output;
use crate::cli::common::bad;
use crate::cli::interrupt::{self, Interrupted};
use crate::cli::output_path::Output;
use anyhow::Result;
use othbook::book::BookData;
use othbook::engine::selectivity::Selectivity;
use othbook::engine::MAX_DEPTH;
use othbook::learn::{enhance, EnhanceReport, EnhanceSettings, LeafSettings, SearchRun};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Arguments of `othbook book enhance`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The lines that matter: every position reached by at least --min-games games, \
and the best line from each (following the book's best values down to the position whose \
value comes from its own leaf). A position on them is close when its best and second-best moves \
are at most --window discs apart. Each of its moves within the window is made surer: the leaf \
move (the best move out of the book) is played and added to the book as a position with its \
own leaf searched, and the position's next best move out of the book is searched; a move into \
the book takes its value from the end of its best line, whose leaf is searched again at --depth \
if it was searched shallower. Values are negamaxed and rounds repeat until no close move is left \
to search or a budget (--max-positions, --max-searches) is spent. Exact and WLD scores are never \
searched again. Added positions have no games, as `book deviate`'s.\n\n\
The same book and options give the same bytes at any thread count. The book is saved after \
every round and every --checkpoint minutes; Ctrl-C saves what was found (exit code 130). Run \
the same command on the saved book (in place) to continue: any leaf left missing is searched \
first.\n\n\
Examples:\n  othbook book enhance my.book --window 2 --depth 14\n  \
othbook book enhance books/wthor.book -o enhanced.book --min-games 200 --max-searches 500 --json"
)]
pub struct Args {
    /// The evaluated book.
    book: PathBuf,
    /// Write the result here (default: replace BOOK); a file, not `-`. The output is locked
    /// while the command runs: a second othbook writing it stops at once (exit code 75).
    #[arg(short, long)]
    output: Option<Output>,
    /// A position is close when its best and second-best moves are at most this many discs
    /// apart (0 to 64).
    #[arg(long, default_value_t = 2.0)]
    window: f64,
    /// Lines start at the positions reached by at least this many games.
    #[arg(long, default_value_t = 100)]
    min_games: u64,
    /// Depth of the deeper leaf searches and of added positions' leaves (default: the book's
    /// leaf depth plus 4).
    #[arg(long)]
    depth: Option<u32>,
    /// Solve leaves exactly at this many empties or fewer (default: as the book was
    /// evaluated).
    #[arg(long)]
    exact_from: Option<u32>,
    /// Multi-ProbCut's confidence in the midgame leaf searches: 73, 87, 95, 98, 99, or 100
    /// (full width; also `exact`) (default: as the book was evaluated). Solved leaves are
    /// exact whatever it is.
    #[arg(long, value_name = "LEVEL")]
    selectivity: Option<Selectivity>,
    /// Add at most this many positions in this run.
    #[arg(long, default_value_t = 10_000)]
    max_positions: usize,
    /// Search at most this many leaves deeper in this run.
    #[arg(long, default_value_t = 10_000)]
    max_searches: usize,
    /// Worker threads, each searching one leaf (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table per worker, in MiB, cleared before each leaf (default: 1 up to
    /// depth 6, 4 up to 9, 16 beyond).
    #[arg(long)]
    hash: Option<usize>,
    /// Minutes between checkpoints within a round (the book is also saved after each round).
    #[arg(long, default_value_t = 5.0)]
    checkpoint: f64,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// The report with the settings it was made with, for `--json`.
#[derive(serde::Serialize)]
struct JsonReport<'a> {
    book: String,
    window: f64,
    min_games: u64,
    depth: u8,
    exact_from: u8,
    selectivity: u8,
    seconds: f64,
    #[serde(flatten)]
    report: &'a EnhanceReport,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let settings = EnhanceSettings::new(
        args.window,
        args.min_games,
        args.max_positions,
        args.max_searches,
    )
    .map_err(|e| bad(e.to_string()))?;
    let checkpoint_every = output::checkpoint_every(args.checkpoint)?;
    let threads = crate::cli::common::threads_arg(args.threads)?;
    let target = output::target(&args.book, args.output.as_ref())?;
    let path = target.path();
    let mut data = output::read(&args.book)?;
    let leaf = leaf_settings(&args, &data)?;
    eprintln!(
        "enhancing {}: lines from positions of {} games or more, window {:.2} discs, deeper \
         searches at {}, {} thread{}",
        args.book.display(),
        settings.min_games(),
        settings.window(),
        leaf.info(),
        threads.used(),
        if threads.used() == 1 { "" } else { "s" },
    );
    let stop = interrupt::install();
    let bar = spinner();
    let tick = || bar.inc(1);
    let run = SearchRun {
        settings: leaf,
        threads,
        stop,
        tick: &tick,
        checkpoint_every,
    };
    let start = Instant::now();
    let mut failed = None;
    let mut rounds_told = 0;
    let mut save = |d: &BookData, r: &EnhanceReport| {
        if r.rounds > rounds_told {
            rounds_told = r.rounds;
            bar.suspend(|| {
                eprintln!(
                    "round {}: {} close positions so far, {} leaves searched deeper, {} \
                     positions added ({:.0} s)",
                    r.rounds,
                    r.close,
                    r.searched_deeper,
                    r.added,
                    start.elapsed().as_secs_f64()
                );
            });
        }
        if let Err(e) = output::write(path, d) {
            failed.get_or_insert(e);
            stop.store(true, Ordering::Relaxed);
        }
    };
    let report = enhance(&mut data, &settings, &run, &mut save).map_err(|e| match e {
        othbook::learn::LearnError::NotEvaluated => bad(format!(
            "{} has no values: run `othbook book evaluate` on it first",
            args.book.display()
        )),
        e => e.into(),
    })?;
    bar.finish_and_clear();
    if let Some(e) = failed {
        return Err(e);
    }
    let relinked = data.relink();
    output::write(path, &data)?;
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        let json = JsonReport {
            book: path.display().to_string(),
            window: settings.window(),
            min_games: settings.min_games(),
            depth: leaf.depth(),
            exact_from: leaf.exact_from(),
            selectivity: leaf.info().selectivity,
            seconds,
            report: &report,
        };
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        write_text(out, &report, &settings, seconds)?;
        output::summary(out, path, &data, &relinked)?;
    }
    if report.stopped {
        out.flush()?;
        return Err(Interrupted(format!(
            "interrupted: {} is saved; run `othbook book enhance {}` with the same options to \
             continue",
            path.display(),
            path.display()
        ))
        .into());
    }
    Ok(())
}

/// The leaf searches' settings: the options, else the book's evaluation (4 plies deeper).
fn leaf_settings(args: &Args, data: &BookData) -> Result<LeafSettings> {
    let Some(info) = &data.info.evaluation else {
        return Err(bad(format!(
            "{} has no values: run `othbook book evaluate` on it first",
            args.book.display()
        )));
    };
    let options = LeafOptions {
        depth: args
            .depth
            .unwrap_or((u32::from(info.depth) + 4).min(MAX_DEPTH)),
        exact_from: args.exact_from,
        selectivity: args.selectivity,
        hash: args.hash,
    };
    super::leaf_options::leaf_settings(&args.book, info, &options)
}

/// The report as text.
fn write_text(
    out: &mut impl Write,
    r: &EnhanceReport,
    settings: &EnhanceSettings,
    seconds: f64,
) -> Result<()> {
    writeln!(
        out,
        "{} rounds in {seconds:.1} s: {} positions examined, {} close (within {:.2} discs), \
         {} leaves searched deeper, {} positions added, {} leaf searches",
        r.rounds,
        r.examined,
        r.close,
        settings.window(),
        r.searched_deeper,
        r.added,
        r.searched
    )?;
    let start = match (r.start_before, r.start_after) {
        (Some(b), Some(a)) => format!("; start position {b:+.2} -> {a:+.2}"),
        _ => String::new(),
    };
    writeln!(
        out,
        "close positions: best move changed at {}, value changed at {} (by {:.2} discs on \
         average, at most {:.2}){start}",
        r.best_changed, r.values_changed, r.mean_shift, r.max_shift
    )?;
    Ok(())
}

/// A count of leaves searched on stderr (hidden when stderr is not a terminal): rounds are
/// found as they go, so there is no total.
fn spinner() -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {pos} leaves searched, {elapsed}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}
