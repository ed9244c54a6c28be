//! `othbook train`: fits pattern-evaluation weights to game files and writes a weight file.

use super::common::{bad, threads_arg};
use anyhow::{Context, Result};
use othbook::train::{train, Progress, TrainOptions};
use othbook::transcript::{ingest, IngestOptions};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `othbook train`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Every position of every finished game is labelled with the final disc \
difference for the side to move (the WTHOR theoretical score from --theoretical-from empties \
up); one ridge least-squares fit per phase. Every --holdout-th game is held out and the table \
gives mean absolute errors in discs per phase, for the pattern evaluation and for the \
hand-made one scaled by least squares on the training positions. The output is the same for \
the same inputs and options.\n\nExample:\n  othbook train ../shared/data/wthor/*.wtb \
../shared/data/logbook/logbook.gam.gz --out books/eval.bin --threads 1"
)]
pub struct Args {
    /// Game files (.gam[.gz], .wtb, .ggf, .pgn, move lists, CSV).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The weight file to write.
    #[arg(short, long)]
    out: PathBuf,
    /// Empty-square counts per phase (1-60).
    #[arg(long, default_value_t = TrainOptions::default().phase_width)]
    phase_width: usize,
    /// Positions this many empties outside a phase also train it.
    #[arg(long, default_value_t = TrainOptions::default().smoothing)]
    smoothing: usize,
    /// Ridge penalty (in positions).
    #[arg(long, default_value_t = TrainOptions::default().lambda)]
    lambda: f64,
    /// Conjugate-gradient iterations per phase.
    #[arg(long, default_value_t = TrainOptions::default().iterations)]
    iterations: usize,
    /// Hold out every N-th game for the error table (0: none).
    #[arg(long, default_value_t = TrainOptions::default().holdout)]
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

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    super::common::distinct_files(&args.inputs, &[&args.out])?;
    let format = super::common::input_format(args.input_format.as_deref())?;
    let opts = TrainOptions {
        phase_width: args.phase_width,
        smoothing: args.smoothing,
        lambda: args.lambda,
        iterations: args.iterations,
        holdout: args.holdout,
        theoretical_from: (args.theoretical_from > 0).then_some(args.theoretical_from),
    };
    if !(1..=60).contains(&opts.phase_width) {
        return Err(bad("--phase-width: use 1 to 60"));
    }
    if !(opts.lambda.is_finite() && opts.lambda > 0.0) {
        return Err(bad("--lambda must be a positive number"));
    }
    if opts.holdout == 1 {
        return Err(bad("--holdout 1 would hold out every game"));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads_arg(args.threads)?)
        .build()
        .context("starting worker threads")?;
    let start = Instant::now();
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
    let report = train(&ingested.games, &opts, |p| match p {
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
    })
    .map_err(|e| bad(e.to_string()))?;
    drop(ingested);
    report.eval.save(&args.out)?;
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
    writeln!(
        out,
        "wrote {} ({} phases) in {:.1} s",
        args.out.display(),
        report.eval.phases(),
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}
