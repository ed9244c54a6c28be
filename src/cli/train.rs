//! `othbook train`: fits pattern-evaluation weights to game files and writes a weight file.

use super::common::{bad, threads_arg};
use super::interrupt::{self, Interrupted};
use super::output_path::{claim, Output, REPORT};
use anyhow::{Context, Result};
use othbook::book::Book;
use othbook::engine::{Engine, EngineOptions, PatternEval, Selectivity, ThreadCount};
use othbook::train::book_labels;
use othbook::train::label::{self, LabelOptions, LabelSettings};
use othbook::train::{
    parity, train, train_joint, train_labels, LabelWeight, Progress, TrainOptions, TrainReport,
    TrainSettings,
};
use othbook::transcript::{ingest, GameRecord, IngestOptions};
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Arguments of `othbook train`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Every position of every finished game is labelled with the final disc \
difference for the side to move (the WTHOR theoretical score from --theoretical-from empties \
up); one ridge least-squares fit per phase. Every --holdout-th game is held out and the table \
gives mean absolute errors in discs per phase, for the pattern evaluation and for the \
hand-made one scaled by least squares on the training positions. The output is the same for \
the same inputs and options.\n\nExample:\n  othbook train ../shared/data/wthor/*.wtb \
../shared/data/logbook/logbook.gam.gz --out books/eval.bin --threads 1\n\n\
With --labels FILE (written by `othbook train label`) the positions of the file and their \
search values are the training set instead (every --holdout-th line held out), and the fit \
starts from the --prior weights (default: the embedded ones) and is pulled toward them \
(--lambda) instead of toward 0:\n  othbook train label ../shared/data/wthor/*.wtb --out \
labels.txt\n  othbook train --labels labels.txt --out eval.bin\n\nWith game files and \
--labels, both train in one fit toward 0, each label weighing --label-weight game \
positions:\n  othbook train ../shared/data/wthor/*.wtb --labels labels.txt --label-weight 4 \
--out eval.bin",
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// Game files (.gam[.gz], .wtb, .ggf, .pgn, move lists, CSV).
    #[arg(required_unless_present = "labels")]
    inputs: Vec<PathBuf>,
    /// The weight file to write (not `-`: the training report goes to standard output);
    /// locked while the command runs: a second othbook writing it stops at once (exit code 75).
    #[arg(short, long, required = true)]
    out: Option<Output>,
    /// Train on this labels file (from `othbook train label`; - for standard input): alone,
    /// instead of game results; with game files, together with them (--label-weight).
    #[arg(long)]
    labels: Option<PathBuf>,
    /// With --labels and no game files: the weights to start from and pull toward (default:
    /// the embedded ones).
    #[arg(long, requires = "labels", conflicts_with = "inputs")]
    prior: Option<PathBuf>,
    /// After the fit, search this many training positions at 20-40 empties to depths 8-11 and
    /// add half the mean odd-even gap to every bias (0: no correction).
    #[arg(long, default_value_t = 0)]
    parity_positions: usize,
    /// With --labels and game files: how many game positions one label weighs.
    #[arg(long, default_value_t = 1.0, requires = "labels")]
    label_weight: f64,
    /// Empty-square counts per phase (1-60).
    #[arg(long, default_value_t = TrainSettings::default().phase_width)]
    phase_width: usize,
    /// Positions this many empties outside a phase also train it.
    #[arg(long, default_value_t = TrainSettings::default().smoothing)]
    smoothing: usize,
    /// Ridge penalty (in positions).
    #[arg(long, default_value_t = TrainSettings::default().lambda)]
    lambda: f64,
    /// Conjugate-gradient iterations per phase.
    #[arg(long, default_value_t = TrainSettings::default().iterations)]
    iterations: usize,
    /// Hold out every N-th game for the error table (0: none).
    #[arg(long, default_value_t = TrainSettings::default().holdout)]
    holdout: usize,
    /// Use WTHOR theoretical scores as labels from this many empties up (0: never).
    #[arg(long, default_value_t = 24)]
    theoretical_from: u32,
    /// Keep games that repeat another game (by default one copy is kept).
    #[arg(long)]
    keep_duplicates: bool,
    /// Read every input as this format (default: by extension and content).
    #[arg(long = "input-format")]
    input_format: Option<String>,
    /// Threads for reading the games (training itself uses one).
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Label positions of game files with the engine's own searches (exact solves near the
    /// end, the mean of a depth-d and a depth-(d+1) search above) for `train --labels`.
    Label(LabelArgs),
}

/// Arguments of `othbook train label`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Games held out of training (every --holdout-th, counted as \
`othbook train` counts them: give the same files in the same order) are never labelled. One \
search thread; the same games and options give the same file.\n\nThe labels made so far are \
saved every minute and on Ctrl-C (exit code 130); the same command with --resume goes on \
from them and ends with the file an uninterrupted run writes.\n\nExample:\n  othbook train \
label ../shared/data/wthor/*.wtb --every 8 --out labels.txt\n\nWith --from-book BOOK, no \
search is made: the labels are the leaves of an evaluated book, the positions whose every \
legal move leaves the book, each with its stored score (a search at the book's leaf depth and \
selectivity, or an exact solve). Each line ends with a comment naming its search (`# depth \
18, selectivity 73%` or `# exact, 22 empties`). Positions with a move into the book (valued \
through their children), game-over positions, values imported without their move, \
win/draw/loss-only values and positions where the side to move must pass are left out:\n  \
othbook train label --from-book books/wthor.book --out book-labels.txt\n  othbook train \
--labels book-labels.txt --lambda 300 --out eval.bin"
)]
struct LabelArgs {
    /// Game files (.gam[.gz], .wtb, .ggf, .pgn, move lists, CSV).
    #[arg(required_unless_present = "from_book")]
    inputs: Vec<PathBuf>,
    /// Take the labels from this evaluated book's leaves instead of searching game positions
    /// (the search options do not apply).
    #[arg(long, conflicts_with_all = [
        "inputs", "every", "holdout", "per_game", "empties", "exact", "depth", "selectivity",
        "part", "limit", "theoretical", "eval", "hash", "input_format", "resume",
    ])]
    from_book: Option<PathBuf>,
    /// The labels file to write (not `-`: it is saved at checkpoints and read back by
    /// --resume; with --from-book, `-` writes to standard output); locked while the command
    /// runs: a second othbook writing it stops at once (exit code 75).
    #[arg(short, long)]
    out: Output,
    /// Label every N-th game not held out.
    #[arg(long, default_value_t = LabelOptions::default().every)]
    every: usize,
    /// Held-out games: every N-th (0: none), never labelled.
    #[arg(long, default_value_t = LabelOptions::default().holdout)]
    holdout: usize,
    /// Positions per game.
    #[arg(long, default_value_t = LabelOptions::default().per_game)]
    per_game: usize,
    /// Empty counts to take positions at, LO-HI.
    #[arg(long, default_value = "12-54")]
    empties: String,
    /// Solve positions with at most this many empties exactly.
    #[arg(long, default_value_t = LabelOptions::default().exact)]
    exact: u32,
    /// Value other positions by the mean of depth D and D+1 searches.
    #[arg(long, default_value_t = LabelOptions::default().depth)]
    depth: u32,
    /// Multi-ProbCut level of the searches above --exact: 73, 87, 95, 98, 99 or exact
    /// (full width; the solves are always exact).
    #[arg(long, default_value_t = LabelOptions::default().selectivity)]
    selectivity: Selectivity,
    /// Label only part K of N of the chosen games (K/N, 0 <= K < N): the parts of one set,
    /// concatenated in order, hold the set's positions; for long runs in pieces.
    #[arg(long, default_value = "0/1")]
    part: String,
    /// Stop after this many positions.
    #[arg(long)]
    limit: Option<usize>,
    /// Also label each game's position at 24 empties with its WTHOR theoretical score (exact,
    /// free: no search). With --per-game 0, only those.
    #[arg(long)]
    theoretical: bool,
    /// Weight file to search with (default: the embedded weights).
    #[arg(long)]
    eval: Option<PathBuf>,
    /// Transposition table size in MiB (cleared before every label: a small one is faster).
    #[arg(long, default_value_t = 4)]
    hash: usize,
    /// Read every input as this format (default: by extension and content).
    #[arg(long = "input-format")]
    input_format: Option<String>,
    /// Go on from the labels already in --out (a run that was stopped, or killed after a
    /// checkpoint) instead of starting again: give the same inputs and options.
    #[arg(long)]
    resume: bool,
}

/// Why `train label --out` cannot be standard output.
const LABELS: &str =
    "the labels are saved at checkpoints and read back by --resume: give a file name";

/// How often `train label` saves the labels it has made so far.
const LABEL_CHECKPOINT_EVERY: Duration = Duration::from_secs(60);

/// The labelling options of the arguments, checked.
fn label_options(args: &LabelArgs) -> Result<LabelOptions> {
    let (lo, hi) = args
        .empties
        .split_once('-')
        .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)))
        .ok_or_else(|| bad("--empties: use LO-HI, such as 12-54"))?;
    let settings = LabelSettings {
        every: args.every,
        holdout: args.holdout,
        per_game: args.per_game,
        empties: (lo, hi),
        exact: args.exact,
        depth: args.depth,
        selectivity: args.selectivity,
        part: args
            .part
            .split_once('/')
            .and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)))
            .ok_or_else(|| bad("--part: use K/N, such as 0/4"))?,
        limit: args.limit.unwrap_or(usize::MAX),
        theoretical: args.theoretical,
    };
    settings.check().map_err(|e| bad(e.to_string()))
}

/// Why no position was labelled, so that no empty labels file is written.
fn nothing_labelled(opts: &LabelOptions, games: usize, out_path: &Path) -> anyhow::Error {
    bad(if opts.per_game == 0 {
        format!(
            "none of the {games} games carries a WTHOR theoretical score (WTHOR .wtb files \
             do); {} was not written",
            out_path.display()
        )
    } else {
        format!(
            "no position of the {games} games was labelled (too few games, --every, --empties \
             or --limit 0?); {} was not written",
            out_path.display()
        )
    })
}

/// `train label --from-book BOOK`: the book's leaves as labels, to a file or (`-`) to
/// standard output with the summary on standard error.
fn run_book_labels(book: &Path, out_file: &Output, out: &mut impl Write) -> Result<()> {
    let claimed = match out_file.file() {
        Some(p) => {
            super::common::distinct_files(std::slice::from_ref(&book.to_path_buf()), &[p])?;
            Some(claim(p)?)
        }
        None => None,
    };
    let start = Instant::now();
    let data = Book::open(book)?.to_data()?;
    let labels = book_labels::book_labels(&data, book).map_err(|e| bad(e.to_string()))?;
    let target = claimed
        .as_ref()
        .map_or("standard output".into(), |c| c.path().display().to_string());
    if labels.labels.is_empty() {
        return Err(bad(format!(
            "{} has no searched leaf to label (no position whose every move leaves the book \
             has a searched value); nothing was written to {target}",
            book.display(),
        )));
    }
    match &claimed {
        Some(c) => book_labels::save(c.path(), &labels, book)?,
        None => out.write_all(book_labels::to_text(&labels, book).as_bytes())?,
    }
    let exact = labels.labels.iter().filter(|l| l.exact).count();
    let summary = format!(
        "wrote {} labelled leaves ({exact} exact, {} searched at {}) to {target} in {:.1} s; \
         left out: {} positions with a move into the book, {} other leaves",
        labels.labels.len(),
        labels.labels.len() - exact,
        labels.evaluation,
        start.elapsed().as_secs_f64(),
        labels.interior,
        labels.other
    );
    if claimed.is_some() {
        writeln!(out, "{summary}")?;
    } else {
        eprintln!("{summary}");
    }
    Ok(())
}

fn run_label(args: LabelArgs, out: &mut impl Write) -> Result<()> {
    let claimed = claim(args.out.require_file("--out", LABELS)?)?;
    let out_path = claimed.path();
    super::common::distinct_files(&args.inputs, &[out_path])?;
    let hash = super::common::check_hash(args.hash)?;
    let opts = label_options(&args)?;
    let eval = match &args.eval {
        Some(p) => PatternEval::load(p)?,
        None => PatternEval::default(),
    };
    let mut engine = Engine::try_with_evaluator(
        EngineOptions {
            threads: ThreadCount::ONE,
            hash_mb: hash,
        },
        eval,
    )
    .map_err(|e| bad(e.to_string()))?;
    let format = super::common::input_format(args.input_format.as_deref())?;
    let start = Instant::now();
    let games = ingest(
        &args.inputs,
        &IngestOptions {
            format,
            dedupe: true,
            ..IngestOptions::default()
        },
    )?
    .games;
    eprintln!(
        "read {} games in {:.1} s",
        games.len(),
        start.elapsed().as_secs_f64()
    );
    let resume = if args.resume && out_path.exists() {
        let old = label::load(out_path)?;
        eprintln!("{} labels kept from {}", old.len(), out_path.display());
        old
    } else {
        Vec::new()
    };
    let stop = interrupt::install();
    let mut checkpoint = Instant::now();
    let mut checkpoint_error = None;
    let run = label::label_from(&games, &mut engine, &opts, &resume, |labels| {
        let n = labels.len();
        if n % 500 == 0 {
            eprintln!(
                "{n} positions labelled ({:.1} s)",
                start.elapsed().as_secs_f64()
            );
        }
        if checkpoint.elapsed() >= LABEL_CHECKPOINT_EVERY {
            if let Err(e) = label::save(out_path, labels) {
                checkpoint_error.get_or_insert(e);
            }
            checkpoint = Instant::now();
        }
        if stop.load(Ordering::Relaxed) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    // Labels that other games or options made: a mistake in the command, like a bad option.
    .map_err(|e| match e {
        label::LabelError::Resume { .. } => bad(e.to_string()),
        e => e.into(),
    })?;
    let labels = run.labels;
    if run.stopped {
        label::save(out_path, &labels).map_err(|e| match checkpoint_error {
            Some(first) => {
                anyhow::Error::from(e).context(format!("(a checkpoint had failed too: {first})"))
            }
            None => e.into(),
        })?;
        return Err(Interrupted(format!(
            "stopped after {} labelled positions, saved in {}: run the same command with \
             --resume to go on",
            labels.len(),
            out_path.display()
        ))
        .into());
    }
    // An empty labels file trains nothing: say why instead of writing one.
    if labels.is_empty() {
        return Err(nothing_labelled(&opts, games.len(), out_path));
    }
    label::save(out_path, &labels)?;
    writeln!(
        out,
        "wrote {} labelled positions to {} in {:.1} s",
        labels.len(),
        out_path.display(),
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let args = match args.command {
        Some(Command::Label(l)) => {
            return match &l.from_book {
                Some(book) => run_book_labels(book, &l.out, out),
                None => run_label(l, out),
            }
        }
        None => args,
    };
    let out_file = args.out.as_ref().ok_or_else(|| bad("--out is required"))?;
    let claimed = claim(out_file.require_file("--out", REPORT)?)?;
    let out_path = claimed.path();
    let mut read_files = args.inputs.clone();
    read_files.extend(args.labels.iter().cloned());
    super::common::distinct_files(&read_files, &[out_path])?;
    let opts = TrainSettings {
        phase_width: args.phase_width,
        smoothing: args.smoothing,
        lambda: args.lambda,
        iterations: args.iterations,
        holdout: args.holdout,
        theoretical_from: (args.theoretical_from > 0).then_some(args.theoretical_from),
    }
    .check()
    .map_err(|e| bad(format!("--{e}")))?;
    // The weight of labels matters only with games beside them (`train_joint`).
    let label_weight = LabelWeight::new(args.label_weight).map_err(|e| bad(format!("--{e}")));
    let start = Instant::now();
    let on_progress = |p: &Progress| report_progress(p, &opts, start);
    let labels = args.labels.as_deref().map(read_labels).transpose()?;
    let n = args.parity_positions;
    let (report, parity_set) = match (&labels, args.inputs.is_empty()) {
        (Some(labels), true) => {
            let prior = match &args.prior {
                Some(p) => PatternEval::load(p)?,
                None => PatternEval::default(),
            };
            (
                train_labels(labels, &opts, &prior, on_progress),
                parity::positions_from_labels(labels, opts.holdout, n),
            )
        }
        (labels, _) => {
            let games = read_games(&args, out, start)?;
            let set = parity::positions_from_games(&games, opts.holdout, n);
            let report = match labels {
                Some(labels) => train_joint(&games, labels, label_weight?, &opts, on_progress),
                None => train(&games, &opts, on_progress),
            };
            (report, set)
        }
    };
    let mut report = report.map_err(|e| bad(e.to_string()))?;
    write_report(&report, out)?;
    if n > 0 {
        let (eval, gap, shift) = parity::correct(&report.eval, &parity_set)?;
        writeln!(
            out,
            "parity correction over {} training positions: odd-even {gap:+.2} discs, biases \
             {shift:+.2} discs (the table above is before it)",
            parity_set.len()
        )?;
        report.eval = eval;
    }
    report.eval.save(out_path)?;
    writeln!(
        out,
        "wrote {} ({} phases) in {:.1} s",
        out_path.display(),
        report.eval.phases(),
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// A labels file, or standard input for `-`.
fn read_labels(path: &Path) -> Result<Vec<label::Labelled>> {
    Ok(if path.as_os_str() == "-" {
        label::read(std::io::stdin().lock(), Path::new("<stdin>"))?
    } else {
        label::load(path)?
    })
}

/// The games of the inputs (read by `--threads` threads).
fn read_games(args: &Args, out: &mut impl Write, start: Instant) -> Result<Vec<GameRecord>> {
    let format = super::common::input_format(args.input_format.as_deref())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads_arg(args.threads)?.used())
        .build()
        .context("starting worker threads")?;
    let ingested = pool.install(|| {
        ingest(
            &args.inputs,
            &IngestOptions {
                format,
                dedupe: !args.keep_duplicates,
                ..IngestOptions::default()
            },
        )
    })?;
    writeln!(out, "{}", ingested.summary)?;
    eprintln!(
        "read {} games in {:.1} s",
        ingested.games.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(ingested.games)
}

fn report_progress(p: &Progress, opts: &TrainOptions, start: Instant) {
    match p {
        Progress::Extracted {
            games,
            skipped,
            train,
            validation,
        } => eprintln!(
            "{games} games used, {skipped} skipped (unfinished or no result); {train} training \
             and {validation} held-out positions ({:.1} s)",
            start.elapsed().as_secs_f64()
        ),
        Progress::Phase {
            phase,
            phases,
            positions,
            rmse,
            residual,
        } => eprintln!(
            "phase {}/{phases}: {positions} positions, {} iterations, training RMSE {rmse:.2} \
             discs, residual {residual:.1e} ({:.1} s)",
            phase + 1,
            opts.iterations,
            start.elapsed().as_secs_f64()
        ),
    }
}

/// The per-phase error table.
fn write_report(report: &TrainReport, out: &mut impl Write) -> Result<()> {
    writeln!(
        out,
        "{} training / {} held-out positions; mean absolute error in discs (hand = hand-made \
         evaluation scaled by least squares on the training positions; best known = WTHOR \
         theoretical score from 24 empties up where known, else the real result):",
        report.positions.0, report.positions.1
    )?;
    writeln!(
        out,
        "{:>7} {:>9} {:>8} {:>7} | {:>7} {:>7} | {:>7} {:>7} | {:>6}",
        "empties", "train", "held", "train", "pattern", "hand", "pattern", "hand", "hand"
    )?;
    writeln!(
        out,
        "{:>7} {:>9} {:>8} {:>7} | {:>15} | {:>15} | {:>6}",
        "", "positions", "out", "MAE", "vs best known", "vs real result", "scale"
    )?;
    let mut tot = [0.0f64; 4];
    let mut n_val = 0usize;
    for r in &report.phases {
        writeln!(
            out,
            "{:>3}-{:<3} {:>9} {:>8} {:>7.2} | {:>7.2} {:>7.2} | {:>7.2} {:>7.2} | {:>6.2}",
            r.empties.0,
            r.empties.1,
            r.train,
            r.validation,
            r.train_mae,
            r.pattern_mae,
            r.hand_mae,
            r.pattern_mae_result,
            r.hand_mae_result,
            r.hand_fit.0
        )?;
        let n = r.validation as f64;
        tot[0] += r.pattern_mae * n;
        tot[1] += r.hand_mae * n;
        tot[2] += r.pattern_mae_result * n;
        tot[3] += r.hand_mae_result * n;
        n_val += r.validation;
    }
    let m = |x: f64| x / (n_val.max(1) as f64);
    writeln!(
        out,
        "{:>7} {:>9} {:>8} {:>7} | {:>7.2} {:>7.2} | {:>7.2} {:>7.2} |",
        "all",
        report.positions.0,
        n_val,
        "",
        m(tot[0]),
        m(tot[1]),
        m(tot[2]),
        m(tot[3])
    )?;
    Ok(())
}
