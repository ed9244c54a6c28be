//! `othbook bench --quality`: the evaluation measured the way users feel it, on positions from
//! held-out WTHOR games (see [`othbook::train::holdout`]):
//! - parity swing: mean |score(d) − score(d+1)| of depth-d searches, d = 8..12, at 20-40
//!   empties (a swing is `explore --depth 11` and `--depth 12` disagreeing);
//! - accuracy: mean absolute error of depth-D searches against the exact WTHOR theoretical
//!   score of the position at 24 empties;
//! - move choice (when asked, [`super::bench_choice`]): how often the depth-D move is best
//!   under perfect play, and the discs it loses.
//!
//! Single-threaded and with the table cleared before every search, so the same build and
//! weights always give the same figures.

use super::bench_choice::{choice_set, measure_choice, ChoiceReport};
use super::bench_progress::progress;
use super::common::bad;
use anyhow::{bail, Context, Result};
use othbook::board::Position;
use othbook::data_file::DataFile;
use othbook::engine::{
    Depth, Engine, EngineOptions, HashSize, Limits, PatternEval, Selectivity, ThreadCount, SCALE,
};
use othbook::train::holdout::{is_held_out, position_at, scored_at_24, spread, Scored, EVERY};
use othbook::train::label::{value, LabelOptions, LabelSettings};
use othbook::transcript::{ingest, GameRecord, IngestOptions};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where `--quality` finds the WTHOR folder without --wthor: `$OTHBOOK_WTHOR`, the current
/// folder's `../shared/data/wthor` (a clone beside the shared data) and `wthor`, the user's
/// data folder, and the source tree's `../shared/data/wthor`.
const WTHOR: DataFile = DataFile {
    what: "the WTHOR folder",
    env: "OTHBOOK_WTHOR",
    here: &["../shared/data/wthor", "wthor"],
    data_name: "othbook/wthor",
    in_source: "../shared/data/wthor",
};

/// Depths of the parity swing: scores at 8..=13, swings between neighbours.
const SWING_DEPTHS: std::ops::RangeInclusive<u32> = 8..=13;

/// Options of `othbook bench --quality`.
#[derive(clap::Args, Debug)]
pub struct QualityArgs {
    /// Measure the evaluation (parity swing and accuracy on held-out WTHOR games) instead of
    /// the search speed.
    #[arg(long)]
    pub quality: bool,
    /// Weight file to measure (default: the embedded books/eval.bin).
    #[arg(long, requires = "quality")]
    pub eval: Option<PathBuf>,
    /// The WTHOR folder (its WTH_*.wtb files are read in name order; default: $OTHBOOK_WTHOR,
    /// else ../shared/data/wthor or wthor here, in the data folder or beside the source tree).
    #[arg(long, requires = "quality")]
    pub wthor: Option<PathBuf>,
    /// Positions for the parity swing (20-40 empties, one per held-out game).
    #[arg(long, default_value_t = 200, requires = "quality")]
    pub swing_positions: usize,
    /// Positions at 24 empties for the accuracy (one per held-out game).
    #[arg(long, default_value_t = 400, requires = "quality")]
    pub accuracy_positions: usize,
    /// Search depths for the accuracy.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "8,12",
        requires = "quality"
    )]
    pub accuracy_depths: Vec<u32>,
    /// Also measure the training labels `othbook train label --depth D` would give (the mean
    /// of depth D and D+1 searches) against the theoretical scores at 24 empties.
    #[arg(long, requires = "quality")]
    pub label_depth: Option<u32>,
    /// Multi-ProbCut level of those label searches (as `train label --selectivity`).
    #[arg(long, default_value_t = LabelOptions::default().selectivity, requires = "label_depth")]
    pub label_selectivity: Selectivity,
    /// Multi-ProbCut level of the swing, accuracy and move-choice searches (as `analyze
    /// --selectivity`): `exact` measures the evaluation without the cuts of a ProbCut table
    /// that was calibrated for other weights.
    #[arg(long, default_value_t = Selectivity::MIDGAME_DEFAULT, requires = "quality")]
    pub selectivity: Selectivity,
    /// Also measure move choice at this many positions (one per held-out game; 0: not
    /// measured): each is solved, and the move of a depth-D search (--accuracy-depths) is
    /// scored against the best under perfect play (the solves dominate the time: more
    /// empties cost much more).
    #[arg(long, default_value_t = 0, requires = "quality")]
    pub choice_positions: usize,
    /// Empty squares of the move-choice positions (14 to 26: enough for a midgame search to
    /// differ from the solve, few enough to solve each in seconds).
    #[arg(
        long,
        default_value_t = 22,
        value_parser = clap::value_parser!(u32).range(14..=26),
        requires = "choice_positions"
    )]
    pub choice_empties: u32,
}

/// The accuracy of the training labels' rule at 24 empties.
#[derive(Serialize, Debug)]
pub struct LabelAccuracy {
    /// Depth D of the mean of depth D and D+1.
    pub depth: u32,
    /// Multi-ProbCut level, as given to `train label --selectivity`.
    pub selectivity: String,
    /// Mean absolute error in discs against the theoretical score.
    pub mae: f64,
    /// Mean milliseconds per label.
    pub ms_per_label: f64,
}

/// The measurement.
#[derive(Serialize, Debug)]
pub struct QualityReport {
    /// Weight file measured (`None`: the embedded one).
    pub eval: Option<PathBuf>,
    /// Held-out WTHOR games available (every 20th of the deduplicated WTHOR input).
    pub held_out_games: usize,
    /// Positions of the parity swing.
    pub swing_positions: usize,
    /// Mean |score(d) − score(d+1)| in discs per depth pair `(d, d+1)`.
    pub swing_by_depth: Vec<(u32, f64)>,
    /// Mean over all pairs.
    pub swing: f64,
    /// Mean score(odd depth) − score(even depth) in discs (a parity bias of the evaluation).
    pub odd_minus_even: f64,
    /// Positions of the accuracy.
    pub accuracy_positions: usize,
    /// Mean absolute error in discs against the theoretical score, per depth.
    pub accuracy: Vec<(u32, f64)>,
    /// The training labels' rule at the same positions, when asked.
    pub labels: Option<LabelAccuracy>,
    /// Move choice of the accuracy depths, when asked.
    pub choice: Option<ChoiceReport>,
    /// Multi-ProbCut level of the searches.
    pub selectivity: String,
    /// Seconds taken.
    pub seconds: f64,
}

/// The held-out WTHOR games, in input order.
fn held_out_games(wthor: &Path) -> Result<Vec<GameRecord>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(wthor)
        .with_context(|| format!("cannot read the WTHOR folder {}", wthor.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("wtb")))
        .collect();
    files.sort();
    if files.is_empty() {
        bail!("{}: no .wtb file", wthor.display());
    }
    let games = ingest(
        &files,
        &IngestOptions {
            dedupe: true,
            ..IngestOptions::default()
        },
    )?
    .games;
    Ok(games
        .into_iter()
        .enumerate()
        .filter(|(i, _)| is_held_out(*i, EVERY))
        .map(|(_, g)| g)
        .collect())
}

/// The swing positions: one per game spread over the held-out games, at 20-40 empties
/// (the k-th at 20 + 7k mod 21, so every empty count is used).
fn swing_set(games: &[GameRecord], n: usize) -> Vec<Position> {
    let candidates: Vec<&GameRecord> = games
        .iter()
        .filter(|g| position_at(g, 20).is_some())
        .collect();
    spread(&candidates, n)
        .iter()
        .enumerate()
        .filter_map(|(k, g)| position_at(g, 20 + (7 * k as u32) % 21))
        .collect()
}

fn score(engine: &mut Engine, pos: &Position, depth: u32, s: Selectivity) -> Result<f64> {
    engine.clear();
    let a = engine.analyze(
        &pos.board,
        &Limits::depth(Depth::new(depth)?).selectivity(s),
    )?;
    Ok(f64::from(a.score) / f64::from(SCALE))
}

/// Over `swing`, per pair of consecutive depths of [`SWING_DEPTHS`], the summed change of
/// the score, and the summed odd-minus-even change.
fn swings(
    engine: &mut Engine,
    swing: &[Position],
    selectivity: Selectivity,
    start: Instant,
) -> Result<(Vec<f64>, f64)> {
    let pairs = (*SWING_DEPTHS.end() - *SWING_DEPTHS.start()) as usize;
    let mut swing_sum = vec![0.0; pairs];
    let mut odd_even = 0.0;
    for (i, pos) in swing.iter().enumerate() {
        let s: Vec<f64> = SWING_DEPTHS
            .map(|d| score(engine, pos, d, selectivity))
            .collect::<Result<_>>()?;
        for (k, w) in s.windows(2).enumerate() {
            swing_sum[k] += (w[1] - w[0]).abs();
            let d = SWING_DEPTHS.start() + k as u32;
            odd_even += if d % 2 == 1 { w[0] - w[1] } else { w[1] - w[0] };
        }
        progress("swing", i + 1, swing.len(), start);
    }
    Ok((swing_sum, odd_even))
}

/// Per depth of `depths`, the mean distance of the search's score from the exact one on
/// `exact`.
fn accuracy(
    engine: &mut Engine,
    exact: &[Scored],
    depths: &[u32],
    selectivity: Selectivity,
    start: Instant,
) -> Result<Vec<(u32, f64)>> {
    let mut accuracy = Vec::new();
    for &d in depths {
        let mut err = 0.0;
        for s in exact {
            err += (score(engine, &s.position, d, selectivity)? - f64::from(s.exact)).abs();
        }
        eprintln!(
            "accuracy at depth {d}: {} positions ({:.1} s)",
            exact.len(),
            start.elapsed().as_secs_f64()
        );
        accuracy.push((d, err / exact.len().max(1) as f64));
    }
    Ok(accuracy)
}

/// Runs the measurement.
pub fn measure(args: &QualityArgs, hash_mb: HashSize) -> Result<QualityReport> {
    let start = Instant::now();
    let eval = match &args.eval {
        Some(p) => PatternEval::load(p)?,
        None => PatternEval::default(),
    };
    if let Some(&d) = args
        .accuracy_depths
        .iter()
        .find(|&&d| !(1..=23).contains(&d))
    {
        bail!("--accuracy-depths: {d} is out of range (1 to 23: depth 24 would be exact)");
    }
    let mut engine = Engine::try_with_evaluator(
        EngineOptions {
            threads: ThreadCount::ONE,
            hash_mb,
        },
        eval,
    )?;
    let wthor = match &args.wthor {
        Some(folder) => folder.clone(),
        None => WTHOR
            .find_folder()
            .map_err(|e| bad(format!("{e}, or give the folder: --wthor FOLDER")))?,
    };
    let games = held_out_games(&wthor)?;
    let swing = swing_set(&games, args.swing_positions);
    let exact: Vec<Scored> = spread(
        &games.iter().filter_map(scored_at_24).collect::<Vec<_>>(),
        args.accuracy_positions,
    );
    eprintln!(
        "{} held-out games: {} swing positions, {} at 24 empties ({:.1} s)",
        games.len(),
        swing.len(),
        exact.len(),
        start.elapsed().as_secs_f64()
    );
    let pairs = (*SWING_DEPTHS.end() - *SWING_DEPTHS.start()) as usize;
    let (swing_sum, odd_even) = swings(&mut engine, &swing, args.selectivity, start)?;
    let n_swing = swing.len().max(1) as f64;
    let swing_by_depth: Vec<(u32, f64)> = swing_sum
        .iter()
        .enumerate()
        .map(|(k, s)| (SWING_DEPTHS.start() + k as u32, s / n_swing))
        .collect();
    let accuracy = accuracy(
        &mut engine,
        &exact,
        &args.accuracy_depths,
        args.selectivity,
        start,
    )?;
    let labels = match args.label_depth {
        Some(depth) if !exact.is_empty() => Some(label_accuracy(
            &mut engine,
            &exact,
            depth,
            args.label_selectivity,
        )?),
        _ => None,
    };
    let choice = match args.choice_positions {
        0 => None,
        n => {
            let positions = choice_set(&games, args.choice_empties, n);
            Some(measure_choice(
                &mut engine,
                &positions,
                args.choice_empties,
                &args.accuracy_depths,
                args.selectivity,
            )?)
        }
    };
    Ok(QualityReport {
        eval: args.eval.clone(),
        held_out_games: games.len(),
        swing_positions: swing.len(),
        swing: swing_sum.iter().sum::<f64>() / (n_swing * pairs as f64),
        swing_by_depth,
        odd_minus_even: odd_even / (n_swing * pairs as f64),
        accuracy_positions: exact.len(),
        accuracy,
        labels,
        choice,
        selectivity: args.selectivity.to_string(),
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The error and cost of `train label`'s values at depth `depth` and `selectivity` on the
/// accuracy positions.
fn label_accuracy(
    engine: &mut Engine,
    exact: &[Scored],
    depth: u32,
    selectivity: Selectivity,
) -> Result<LabelAccuracy> {
    let opts = LabelSettings {
        depth,
        selectivity,
        ..LabelSettings::default()
    }
    .check()?;
    let start = Instant::now();
    let mut err = 0.0;
    for s in exact {
        err += (f64::from(value(engine, &s.position.board, &opts)?) - f64::from(s.exact)).abs();
    }
    let n = exact.len().max(1) as f64;
    Ok(LabelAccuracy {
        depth,
        selectivity: selectivity.to_string(),
        mae: err / n,
        ms_per_label: start.elapsed().as_secs_f64() * 1000.0 / n,
    })
}

/// `othbook bench --quality`.
pub fn run(args: &QualityArgs, hash_mb: HashSize, json: bool, out: &mut impl Write) -> Result<()> {
    let r = measure(args, hash_mb)?;
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&r)?)?;
        return Ok(());
    }
    let name = r.eval.as_ref().map_or_else(
        || "embedded books/eval.bin".to_string(),
        |p| p.display().to_string(),
    );
    writeln!(
        out,
        "evaluation: {name}; {} held-out WTHOR games (every {EVERY}th); searches at selectivity {}",
        r.held_out_games, r.selectivity
    )?;
    if r.swing_positions > 0 {
        writeln!(
            out,
            "parity swing over {} positions at 20-40 empties (mean |score(d) - score(d+1)|, discs):",
            r.swing_positions
        )?;
        for (d, s) in &r.swing_by_depth {
            writeln!(out, "  depth {d:>2}-{:<2} {s:>6.2}", d + 1)?;
        }
        writeln!(out, "  all        {:>6.2}", r.swing)?;
        writeln!(out, "  odd-even   {:>+6.2}", r.odd_minus_even)?;
    }
    if r.accuracy_positions > 0 {
        writeln!(
            out,
            "accuracy over {} positions at 24 empties (mean |score - theoretical|, discs):",
            r.accuracy_positions
        )?;
        for (d, e) in &r.accuracy {
            writeln!(out, "  depth {d:>2}    {e:>6.2}")?;
        }
    }
    if let Some(l) = &r.labels {
        writeln!(
            out,
            "  labels (mean of depth {} and {}, selectivity {}) {:>6.2}, {:.1} ms a label",
            l.depth,
            l.depth + 1,
            l.selectivity,
            l.mae,
            l.ms_per_label
        )?;
    }
    if let Some(c) = &r.choice {
        writeln!(
            out,
            "move choice over {} positions at {} empties (best under perfect play; mean discs lost):",
            c.positions, c.empties
        )?;
        for m in &c.by_depth {
            writeln!(
                out,
                "  depth {:>2}    {:>5.1}%  {:>5.2}",
                m.depth,
                100.0 * m.best,
                m.loss
            )?;
        }
    }
    writeln!(out, "{:.1} s", r.seconds)?;
    Ok(())
}
