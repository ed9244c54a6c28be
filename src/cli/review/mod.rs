//! `othbook review`: every move of a game scored by the engine against its best move, with
//! marks, where the game left the book, the exact phase and each player's errors.

use super::common::{bad, check_hash, threads_arg, OutputFormat};
use super::interrupt::{self, Interrupted};
use super::output_path::{claim, Claimed, REPORT};
use anyhow::{Context, Result};
use othbook::board::{parse_moves, Position};
use othbook::engine::{AnyEval, Depth, Engine, EngineOptions, EvalKind};
use othbook::review::{
    review_until_stopped, Effort, Review, ReviewError, ReviewInput, ReviewOptions, Thresholds,
    DEFAULT_THRESHOLDS, MAX_EXACT_FROM,
};
use othbook::transcript::{ingest_each, Format, GameRecord, IngestOptions};
use othbook::wire::seconds::{Seconds, MAX_SECONDS};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

mod render;

/// Default midgame depth of a review.
const DEFAULT_DEPTH: u32 = 12;
/// Default number of empties from which positions are solved exactly.
const DEFAULT_EXACT_FROM: u32 = 18;

/// Arguments of `othbook review`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Each position is searched over all its moves; when another move was \
played, that move is searched again alone to the depth reached, and its loss is the best \
move's score minus its own, in discs for the player who moved. Positions with at most \
--exact-from empties are solved exactly (rows marked `exact`, never cut short by --time): \
there the losses are exact, and black's exact-phase loss minus white's equals black's \
perfect-play score where the solver took over minus the final result.\n\n\
Marks (loss against the engine's best move, see --marks): inaccuracy >= 2 discs, mistake >= \
4, blunder >= 8.\n\n\
The game leaves the book at the first move whose position is not in the book; until then \
each row shows how many of the book's games played the move and, in an evaluated book, its \
value.\n\n\
Examples:\n  othbook review ../shared/data/wthor/WTH_2000.wtb --index 3\n  \
othbook review f5d6c3d3c4f4f6f3e6e7 --depth 10 --format json\n  \
othbook review game.pgn --time 2 --exact-from 20 --threads 2\n  \
othbook review ../shared/data/wthor/WTH_2000.wtb --index 3 --plot game.svg"
)]
pub struct Args {
    /// A game file (.gam, .wtb, .ggf, .pgn, .csv, move lists; `-` is standard input) or the
    /// moves of a game from the start, e.g. `f5d6c3` or `f5 d6 c3`.
    #[arg(required = true, value_name = "GAME_FILE | MOVES")]
    game: Vec<String>,
    /// Which game of the file to review, from 1 (default: the first).
    #[arg(long)]
    index: Option<u64>,
    /// Read the file as this format (gam, wthor, ggf, pgn, moves, csv).
    #[arg(long, value_name = "FORMAT")]
    from: Option<Format>,
    /// Midgame search depth in plies (1-60; default 12).
    #[arg(long, conflicts_with = "time")]
    depth: Option<u32>,
    /// Midgame search time per position in seconds, instead of a depth.
    #[arg(long)]
    time: Option<Seconds>,
    /// Solve positions with at most this many empties exactly (0-30; 0: only where the depth
    /// reaches the end).
    #[arg(long, default_value_t = DEFAULT_EXACT_FROM)]
    exact_from: u32,
    /// Loss thresholds in discs of the marks inaccuracy, mistake and blunder.
    #[arg(long, value_name = "I,M,B", default_value = "2,4,8")]
    marks: String,
    /// Opening book (default: the default book: $OTHBOOK_BOOK, else books/wthor.book here, in the data folder or in the source tree, when there is one).
    #[arg(long, conflicts_with = "no_book")]
    book: Option<PathBuf>,
    /// Do not consult an opening book.
    #[arg(long)]
    no_book: bool,
    /// Output: table, tsv (one row per ply) or json.
    #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
    format: OutputFormat,
    /// Also draw the evaluation graph (black's score after every move, losses marked) to
    /// this SVG file, readable in any browser.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Search threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table size in MiB (1-65536).
    #[arg(long, default_value_t = 128)]
    hash: usize,
    /// Evaluation: pattern (trained patterns) or hand (hand-made features).
    #[arg(long, default_value = "pattern")]
    eval: EvalKind,
    /// No progress bar on stderr (it is shown only when stderr is a terminal).
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let opts = options(&args)?;
    let threads = threads_arg(args.threads)?;
    let hash = check_hash(args.hash)?;
    let input = game_input(&args)?;
    // Claimed before the search, so that a bad --plot fails at once.
    let plot = args.plot.as_deref().map(plot_file).transpose()?;
    // Book and table before the first search, so that a bad --book fails at once.
    let book = super::common::search_book(args.no_book, args.book.as_deref())?;
    let engine = Engine::try_with_evaluator(
        EngineOptions {
            threads,
            hash_mb: hash,
        },
        AnyEval::new(args.eval),
    )
    .map_err(|e| bad(e.to_string()))?;
    let bar = progress_bar(args.quiet);
    // Ctrl-C stops the search under way and prints the plies reviewed before it.
    let stop = interrupt::install();
    let result = review_until_stopped(
        &input,
        &engine,
        book.as_deref(),
        &opts,
        stop,
        |done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        },
    );
    bar.finish_and_clear();
    let report = result.map_err(review_error)?;
    if let Some(file) = &plot {
        let path = file.path();
        let picture = othbook::review::plot::svg(&report);
        othbook::atomic_file::replace(path, |f| f.write_all(picture.as_bytes()))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    match args.format {
        OutputFormat::Table => render::table(&report, out)?,
        OutputFormat::Tsv => render::tsv(&report, out)?,
        OutputFormat::Json => json(&report, out)?,
    }
    match report.stopped {
        Some(s) => Err(Interrupted(format!(
            "stopped: {} of {} plies reviewed (printed above)",
            s.reviewed, s.plies
        ))
        .into()),
        None => Ok(()),
    }
}

/// The `--plot` file, checked and held for the run: a folder or a missing folder is bad
/// input.
fn plot_file(path: &Path) -> Result<Claimed> {
    if path.as_os_str() == "-" {
        return Err(bad(format!("--plot -: {REPORT}")));
    }
    if path.is_dir() {
        return Err(bad(format!(
            "--plot {}: that is a folder: give a file name, e.g. game.svg",
            path.display()
        )));
    }
    let folder = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(bad(format!(
            "--plot {}: there is no folder {}",
            path.display(),
            folder.display()
        )));
    }
    claim(path)
}

fn json(report: &Review, out: &mut impl Write) -> Result<()> {
    serde_json::to_writer_pretty(&mut *out, report)?;
    writeln!(out)?;
    Ok(())
}

/// Bad options and illegal games exit with code 2; engine and book failures with 1.
fn review_error(e: ReviewError) -> anyhow::Error {
    if e.is_bad_input() {
        bad(e.to_string())
    } else {
        e.into()
    }
}

fn options(args: &Args) -> Result<ReviewOptions> {
    // A bad depth is reported after a bad --exact-from, the order the review checks them in.
    let effort = match (args.depth, args.time.clone()) {
        (_, Some(t)) => Ok(Effort::Time(
            t.within(0.001, MAX_SECONDS)
                .map_err(|e| bad(format!("--time: {e}")))?
                .duration(),
        )),
        (d, None) => Depth::new(d.unwrap_or(DEFAULT_DEPTH)).map(Effort::Depth),
    };
    if args.exact_from > MAX_EXACT_FROM {
        return Err(bad(format!(
            "--exact-from {} is out of range: use 0 to {MAX_EXACT_FROM} (each position of the \
             exact phase is solved, and 30 empties already take minutes to hours)",
            args.exact_from
        )));
    }
    let effort = effort.map_err(|e| bad(e.to_string()))?;
    let opts = ReviewOptions::new(effort, args.exact_from).map_err(review_error)?;
    Ok(opts.with_thresholds(marks(&args.marks)?))
}

/// `--marks I,M,B`.
fn marks(text: &str) -> Result<Thresholds> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let numbers: Option<Vec<f64>> = parts.iter().map(|p| p.parse().ok()).collect();
    match numbers.as_deref() {
        Some(&[i, m, b]) => Thresholds::new(i, m, b).map_err(|e| bad(format!("--marks: {e}"))),
        _ => Err(bad(format!(
            "--marks {text:?}: give three numbers of discs, e.g. {}",
            DEFAULT_THRESHOLDS.map(|d| d.to_string()).join(",")
        ))),
    }
}

/// The game to review: the file's game `--index`, or the moves given.
fn game_input(args: &Args) -> Result<ReviewInput> {
    let joined = args.game.join(" ");
    let as_file = match args.game.as_slice() {
        [one] => one == "-" || Path::new(one).exists(),
        _ => false,
    };
    if as_file {
        let g = game_from_file(Path::new(&args.game[0]), args.from, args.index.unwrap_or(1))?;
        return Ok(ReviewInput::from(&g));
    }
    match parse_moves(&joined) {
        Ok(moves) => {
            if args.index.is_some() || args.from.is_some() {
                return Err(bad(
                    "--index and --from apply to a game file, not to moves given as text",
                ));
            }
            if moves.is_empty() {
                return Err(bad("no moves given: nothing to review"));
            }
            Ok(ReviewInput::new(Position::START, moves))
        }
        Err(e) if args.game.len() == 1 && looks_like_path(&joined) => Err(anyhow::anyhow!(
            "cannot read {joined}: no such file (and not a move string: {e})"
        )),
        Err(e) => Err(bad(format!(
            "{joined:?} is neither a game file nor a move string: {e}"
        ))),
    }
}

fn looks_like_path(s: &str) -> bool {
    s.contains('/') || s.contains('\\') || Path::new(s).extension().is_some()
}

/// Stops reading once the wanted game is found.
#[derive(Debug, thiserror::Error)]
#[error("found")]
struct Found;

/// The `index`th game (from 1) accepted from `path`; an error naming the file when it
/// cannot be read or holds fewer games.
fn game_from_file(path: &Path, from: Option<Format>, index: u64) -> Result<GameRecord> {
    if index == 0 {
        return Err(bad("--index counts from 1"));
    }
    let opts = IngestOptions {
        format: from,
        ..IngestOptions::default()
    };
    let mut seen = 0u64;
    let mut found = None;
    let paths = [path.to_path_buf()];
    let got = ingest_each(
        &paths,
        &opts,
        std::sync::Arc::new(|_| {}),
        &mut |_, block: Vec<GameRecord>| {
            let n = block.len() as u64;
            if seen + n >= index {
                found = block.into_iter().nth((index - seen - 1) as usize);
                return Err(Found.into());
            }
            seen += n;
            Ok::<(), anyhow::Error>(())
        },
    );
    let summary = match got {
        Err(e) if e.is::<Found>() => None,
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        Ok(s) => Some(s),
    };
    if let Some(g) = found {
        return Ok(g);
    }
    let summary = summary.expect("the game was not found, so the whole file was read");
    if let Some((file, why)) = summary.failed_files().next() {
        return Err(anyhow::anyhow!("cannot read {file}: {why}"));
    }
    let skipped = if summary.skipped > 0 {
        format!(
            " ({} more skipped as unreadable, not counted)",
            summary.skipped
        )
    } else {
        String::new()
    };
    Err(bad(match summary.accepted {
        0 => format!("{} holds no game{skipped}", path.display()),
        n => format!(
            "--index {index} is out of range: {} holds {n} game{}{skipped}; use 1 to {n}",
            path.display(),
            if n == 1 { "" } else { "s" }
        ),
    }))
}

/// Plies reviewed, on stderr when it is a terminal.
fn progress_bar(quiet: bool) -> indicatif::ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} ply {pos}/{len} reviewed, {eta} left")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}
