//! `othbook calibrate probcut`: fits Multi-ProbCut's regressions on positions from game
//! files and writes the table the engine embeds (`src/engine/selectivity/table.rs`).

use super::common::bad;
use super::output_path::{claim, Output};
use anyhow::{Context, Result};
use othbook::board::Board;
use othbook::engine::selectivity::{END_MAX_EMPTIES, END_MIN_EMPTIES, MID_BANDS};
use othbook::engine::{Engine, EngineOptions, HashSize, PatternEval, SearchEval, ThreadCount};
use othbook::train::probcut_calibration::{
    fit_all, measure_endgame, measure_midgame, sample_positions, samples_tsv, EndSample, MidSample,
    MIN_FIT_SAMPLES,
};
use othbook::transcript::{ingest, IngestOptions};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `othbook calibrate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand, Debug)]
enum What {
    /// Fit ProbCut's shallow-to-deep regressions (a, b, sigma per band of empties and depth
    /// pair, and per empties for the endgame) and write them as Rust source.
    /// Example: othbook calibrate probcut ../shared/data/wthor/WTH_20*.wtb --positions 100
    Probcut(ProbcutArgs),
    /// Measure the expected error of searched values (RMS, discs) by depth, selectivity and
    /// empties against exact solves and deeper searches, and write it as Rust source.
    /// Example: othbook calibrate errors ../shared/data/wthor/WTH_20*.wtb --positions 40
    Errors(super::calibrate_trust::ErrorsArgs),
    /// Fit the win, draw and loss chances of values on WTHOR's theoretical scores, print a
    /// reliability table on held-out games, and write the model as Rust source.
    /// Example: othbook calibrate chances ../shared/data/wthor/WTH_20*.wtb --positions 1000
    Chances(super::calibrate_trust::ChancesArgs),
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Each midgame position is searched to every depth up to 14 without \
ProbCut; each endgame position (12-20 empties) is searched shallow and solved exactly. One \
thread, a cleared table per position: the same games and counts give the same file. \
Rebuild othbook after writing the table into src/engine/selectivity/table.rs."
)]
struct ProbcutArgs {
    /// Game files (WTHOR, .gam, PGN, GGF, move lists).
    #[arg(required = true)]
    games: Vec<PathBuf>,
    /// Midgame positions per band of empties (four bands).
    #[arg(long, default_value_t = 100)]
    positions: usize,
    /// Endgame positions per number of empties (12 to 20).
    #[arg(long, default_value_t = 40)]
    end_positions: usize,
    /// Where to write the table (`-`: standard output). A file is locked while the command
    /// runs: a second othbook writing it stops at once with exit code 75.
    #[arg(long, short, default_value = "src/engine/selectivity/table.rs")]
    out: Output,
    /// Also write every sample (TSV: each midgame position's values at depths 1-14, each
    /// endgame position's shallow value and exact score, in SCALE units), to check the fit's
    /// stability or try other depth pairs without searching again.
    #[arg(long)]
    samples: Option<PathBuf>,
    /// Weight file to calibrate for (default: the embedded weights): a new evaluation needs
    /// its own table, as the table belongs to the evaluation it was measured with.
    #[arg(long)]
    eval: Option<PathBuf>,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    match args.what {
        What::Probcut(a) => probcut(a, out),
        What::Errors(a) => super::calibrate_trust::errors(a, out),
        What::Chances(a) => super::calibrate_trust::chances(a, out),
    }
}

fn probcut(args: ProbcutArgs, out: &mut impl Write) -> Result<()> {
    if args.positions == 0 && args.end_positions == 0 {
        return Err(bad(
            "--positions and --end-positions are both 0: nothing to fit",
        ));
    }
    let mut inputs = args.games.clone();
    inputs.extend(args.eval.iter().cloned());
    let mut outputs = args.out.file().as_slice().to_vec();
    outputs.extend(args.samples.as_deref());
    super::common::distinct_files(&inputs, &outputs)?;
    let file = args.out.file().map(claim).transpose()?;
    let samples_file = args.samples.as_deref().map(claim).transpose()?;
    // A bad weight file fails before the games are read.
    let eval = match &args.eval {
        Some(p) => PatternEval::load(p)?,
        None => PatternEval::default(),
    };
    let ingested = ingest(&args.games, &IngestOptions::default())?;
    writeln!(out, "{}", ingested.summary)?;
    // The table is compiled into the engine: a run on missing or too few games must not
    // replace it with a fit of nothing.
    super::common::unreadable_inputs(&ingested.summary, "the table was not written")?;
    let (mid, end) = sample_positions(&ingested.games, args.positions, args.end_positions);
    let want_mid = args.positions * MID_BANDS.len();
    let want_end = args.end_positions * (END_MAX_EMPTIES - END_MIN_EMPTIES + 1) as usize;
    if mid.len() < want_mid || end.len() < want_end {
        return Err(bad(format!(
            "only {} of {want_mid} midgame and {} of {want_end} endgame positions in {} games: \
             give more games or fewer --positions/--end-positions; the table was not written",
            mid.len(),
            end.len(),
            ingested.games.len()
        )));
    }
    eprintln!(
        "{} midgame and {} endgame positions from {} games",
        mid.len(),
        end.len(),
        ingested.games.len()
    );
    let mut engine = Engine::try_with_evaluator(
        EngineOptions {
            threads: ThreadCount::ONE,
            hash_mb: HashSize::of(16),
        },
        eval,
    )?;
    let start = Instant::now();
    let (mid_samples, end_samples) = measure_all(&mut engine, &mid, &end, start)?;
    if let Some(f) = &samples_file {
        let tsv = samples_tsv(&mid_samples, &end_samples);
        othbook::atomic_file::replace(f.path(), |w| w.write_all(tsv.as_bytes()))
            .with_context(|| format!("writing {}", f.path().display()))?;
    }
    let tables = fit_all(&mid_samples, &end_samples);
    let (thin, used) = tables.thin_fits();
    if thin > 0 {
        eprintln!(
            "warning: {thin} of {used} fits rest on fewer than {MIN_FIT_SAMPLES} samples and will \
             never cut: give more --positions/--end-positions"
        );
    }
    let mut source = format!(
        "{} midgame and {} endgame positions from {} games of {}",
        mid.len(),
        end.len(),
        ingested.games.len(),
        super::calibrate_trust::summarize_names(&args.games)
    );
    if let Some(p) = &args.eval {
        source.push_str(&format!("; evaluation {}", p.display()));
    }
    let text = tables.to_rust(&source);
    if let Some(file) = &file {
        let path = file.path();
        othbook::atomic_file::replace(path, |f| f.write_all(text.as_bytes()))
            .with_context(|| format!("writing {}", path.display()))?;
        writeln!(
            out,
            "wrote {} ({:.0} s)",
            path.display(),
            start.elapsed().as_secs_f64()
        )?;
    } else {
        out.write_all(text.as_bytes())?;
    }
    Ok(())
}

/// Searches every sampled position (midgame pairs, then endgame solves), with progress on
/// stderr every 20 positions.
fn measure_all<E: SearchEval>(
    engine: &mut Engine<E>,
    mid: &[(usize, Board)],
    end: &[Board],
    start: Instant,
) -> Result<(Vec<MidSample>, Vec<EndSample>)> {
    let total = mid.len() + end.len();
    let progress = |i: usize| {
        if i.is_multiple_of(20) {
            eprintln!(
                "{i}/{total} positions, {:.0} s",
                start.elapsed().as_secs_f64()
            );
        }
    };
    let mut mid_samples = Vec::with_capacity(mid.len());
    for (i, (band, b)) in mid.iter().enumerate() {
        mid_samples.push(measure_midgame(engine, *band, b)?);
        progress(i + 1);
    }
    let mut end_samples = Vec::with_capacity(end.len());
    for (i, b) in end.iter().enumerate() {
        end_samples.push(measure_endgame(engine, b)?);
        progress(mid.len() + i + 1);
    }
    Ok((mid_samples, end_samples))
}
