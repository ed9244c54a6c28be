//! `othbook calibrate errors` and `othbook calibrate chances`: measure how far values can be
//! trusted on positions from game files and write the tables the book embeds
//! (`src/book/trust/errors_table.rs`, `src/book/trust/chances_table.rs`).

use super::common::bad;
use super::output_path::{claim, Claimed, Output};
use anyhow::{Context, Result};
use othbook::engine::{Engine, EngineOptions, HashSize, PatternEval, Selectivity, ThreadCount};
use othbook::train::{chances, errors};
use othbook::transcript::{ingest, GameRecord, IngestOptions};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Each position is searched to every depth at each selectivity level (73, 87, \
95, 98, 99, 100) and compared with the truth: the exact value at --exact-max empties or fewer \
(WTHOR's theoretical score for a game's position at 24 empties, else a solve; the searches \
go to --end-depth, --end-margin plies short of the end), else a search --ref-depth plies deep \
at --ref-selectivity, the measured depths staying --gap plies shorter. Solves cost about 1-5 s \
at 24 empties, 6-50 s at 26 and 20-190 s at 28 (one thread). The RMS error per band of empties, level and depth is fitted as exp(a + b ln depth). \
One thread, a cleared table per search: the same games and counts give the same file. \
Rebuild othbook after writing the table into src/book/trust/errors_table.rs."
)]
pub struct ErrorsArgs {
    /// Game files (WTHOR, .gam, PGN, GGF, move lists).
    #[arg(required = true)]
    games: Vec<PathBuf>,
    /// Positions per band of empties.
    #[arg(long, default_value_t = 40)]
    positions: usize,
    /// The bands of empties, one fit each: ascending, disjoint ranges such as `24` or `25-33`.
    #[arg(long, default_value = "14-18,19-23,24,25-33,34-43,44-53", value_parser = bands)]
    bands: Bands,
    /// Positions with at most this many empties are compared with their exact value.
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u32).range(1..=36))]
    exact_max: u32,
    /// Depth of the reference search above 23 empties.
    #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u32).range(2..=40))]
    ref_depth: u32,
    /// Selectivity of the reference search: 73, 87, 95, 98, 99 or exact (100).
    #[arg(long, default_value = "95")]
    ref_selectivity: Selectivity,
    /// Plies between the deepest measured search and the reference search.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    gap: u32,
    /// The deepest search measured against the exact value.
    #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u32).range(1..=30))]
    end_depth: u32,
    /// Searches measured against the exact value stay this many plies short of the end.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=30))]
    end_margin: u32,
    /// Where to write the table (`-`: standard output). A file is locked while the command
    /// runs: a second othbook writing it stops at once with exit code 75.
    #[arg(long, short, default_value = "src/book/trust/errors_table.rs")]
    out: Output,
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "One position per game with a WTHOR theoretical score (black's discs under \
perfect play from 24 empties), its empties cycling from 25 to 56, is searched --depth plies \
deep at --selectivity. An ordered logistic model of the result at 24 empties given the value \
and the empties, alone and with a share of thrown games (whose result ignores the value), is \
fitted by maximum likelihood on all games but every --holdout-th, which are kept to choose \
the family (best held-out log likelihood; the simpler family on a tie) and for the reliability tables the command prints. One thread, a cleared table per \
search: the same games and counts give the same file. Rebuild othbook after writing the \
model into src/book/trust/chances_table.rs."
)]
pub struct ChancesArgs {
    /// WTHOR game files (their theoretical scores are the outcomes).
    #[arg(required = true)]
    games: Vec<PathBuf>,
    /// Positions to search (one per game).
    #[arg(long, default_value_t = 1000)]
    positions: usize,
    /// Search depth of the values.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Selectivity of the searches: 73, 87, 95, 98, 99 or exact (100).
    #[arg(long, default_value = "87")]
    selectivity: Selectivity,
    /// Every k-th game is held out of the fit and checked against it.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(2..=1000))]
    holdout: u64,
    /// Where to write the model (`-`: standard output). A file is locked while the command
    /// runs: a second othbook writing it stops at once with exit code 75.
    #[arg(long, short, default_value = "src/book/trust/chances_table.rs")]
    out: Output,
}

/// Bands of empties as `--bands` gives them.
#[derive(Clone, Debug)]
pub struct Bands(Vec<(u32, u32)>);

fn bands(text: &str) -> Result<Bands, String> {
    errors::parse_bands(text).map(Bands)
}

/// The games of `paths`, refused when a file cannot be read (a table compiled into the
/// program must not be replaced by a fit of nothing).
fn games_of(paths: &[PathBuf], out: &Output, w: &mut impl Write) -> Result<Vec<GameRecord>> {
    super::common::distinct_files(paths, out.file().as_slice())?;
    let ingested = ingest(paths, &IngestOptions::default())?;
    writeln!(w, "{}", ingested.summary)?;
    super::common::unreadable_inputs(&ingested.summary, "the table was not written")?;
    Ok(ingested.games)
}

fn engine() -> Result<Engine<PatternEval>> {
    Ok(Engine::try_with_evaluator(
        EngineOptions {
            threads: ThreadCount::ONE,
            hash_mb: HashSize::of(16),
        },
        PatternEval::default(),
    )?)
}

/// Writes `text` to the claimed file (atomically) or to `w`.
fn write_table(
    file: Option<&Claimed>,
    text: &str,
    start: Instant,
    w: &mut impl Write,
) -> Result<()> {
    match file {
        Some(file) => {
            let path = file.path();
            othbook::atomic_file::replace(path, |f| f.write_all(text.as_bytes()))
                .with_context(|| format!("writing {}", path.display()))?;
            writeln!(
                w,
                "wrote {} ({:.0} s)",
                path.display(),
                start.elapsed().as_secs_f64()
            )?;
        }
        None => w.write_all(text.as_bytes())?,
    }
    Ok(())
}

/// Progress on standard error every 20 positions.
fn progress(i: usize, total: usize, start: Instant) {
    if i.is_multiple_of(20) || i == total {
        eprintln!(
            "{i}/{total} positions, {:.0} s",
            start.elapsed().as_secs_f64()
        );
    }
}

pub fn errors(args: ErrorsArgs, out: &mut impl Write) -> Result<()> {
    if args.positions == 0 {
        return Err(bad("--positions is 0: nothing to fit"));
    }
    if args.gap >= args.ref_depth {
        return Err(bad(format!(
            "--gap {} leaves no depth to measure below --ref-depth {}",
            args.gap, args.ref_depth
        )));
    }
    let file = args.out.file().map(claim).transpose()?;
    let games = games_of(&args.games, &args.out, out)?;
    let picked = errors::sample_positions(&games, &args.bands.0, args.positions);
    let want = args.positions * args.bands.0.len();
    if picked.len() < want {
        return Err(bad(format!(
            "only {} of {want} positions in {} games: give more games or fewer --positions; \
             the table was not written",
            picked.len(),
            games.len()
        )));
    }
    let settings = errors::ErrorSettings {
        bands: args.bands.0,
        exact_max: args.exact_max,
        ref_depth: args.ref_depth,
        ref_selectivity: args.ref_selectivity,
        gap: args.gap,
        end_max_depth: args.end_depth,
        end_margin: args.end_margin,
    };
    let mut engine = engine()?;
    let start = Instant::now();
    let mut samples = Vec::with_capacity(picked.len());
    for (i, p) in picked.iter().enumerate() {
        samples.push(errors::measure(&mut engine, p, &settings)?);
        progress(i + 1, picked.len(), start);
    }
    let fits = errors::fit_all(&samples, &settings);
    write!(out, "{}", fits.report())?;
    let source = format!(
        "{} positions from {} games of {}",
        samples.len(),
        games.len(),
        summarize_names(&args.games)
    );
    write_table(file.as_ref(), &fits.to_rust(&source, &settings), start, out)
}

pub fn chances(args: ChancesArgs, out: &mut impl Write) -> Result<()> {
    if args.positions == 0 {
        return Err(bad("--positions is 0: nothing to fit"));
    }
    let file = args.out.file().map(claim).transpose()?;
    let games = games_of(&args.games, &args.out, out)?;
    let picked = chances::sample_positions(&games, args.positions, args.holdout as usize);
    let held = picked.iter().filter(|p| p.held_out).count();
    // Four parameters need some positions to fit and some to check.
    if picked.len() - held < 20 || held == 0 {
        return Err(bad(format!(
            "only {} positions with a theoretical score ({held} held out) in {} games: the fit \
             needs WTHOR games (at least 20 positions to fit and one held out); the table was \
             not written",
            picked.len(),
            games.len()
        )));
    }
    let mut engine = engine()?;
    let start = Instant::now();
    let mut samples = Vec::with_capacity(picked.len());
    for (i, p) in picked.iter().enumerate() {
        samples.push(chances::measure(
            &mut engine,
            p,
            args.depth,
            args.selectivity,
        )?);
        progress(i + 1, picked.len(), start);
    }
    writeln!(
        out,
        "{} positions ({} held out), values at depth {} {}",
        samples.len(),
        held,
        args.depth,
        args.selectivity,
    )?;
    let fitted = chances::fit_families(&samples);
    for f in fitted.iter().rev() {
        writeln!(
            out,
            "\n{}: {:?}\nheld-out mean log likelihood {:.4}\n{}",
            f.family.name(),
            f.model,
            f.held_out,
            chances::reliability_text(&chances::reliability(&f.model, &samples))
        )?;
    }
    let model = fitted[0].model;
    writeln!(
        out,
        "chosen (best held-out log likelihood, the simpler within {}): {}",
        chances::TIE,
        fitted[0].family.name()
    )?;
    let source = format!(
        "{} positions ({} fitted, every {}th game held out) from {} games of {}; values of \
         searches at depth {}, {}",
        samples.len(),
        samples.len() - held,
        args.holdout,
        games.len(),
        summarize_names(&args.games),
        args.depth,
        args.selectivity
    );
    write_table(
        file.as_ref(),
        &chances::to_rust(&model, &source),
        start,
        out,
    )
}

/// File names for a table's header: all of them when few, else the first and last.
pub fn summarize_names(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths
        .iter()
        .map(|p| {
            p.file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
        })
        .collect();
    match names.as_slice() {
        [] => String::new(),
        [a] => a.clone(),
        _ if names.len() <= 4 => names.join(", "),
        [first, .., last] => format!("{} files, {first} to {last}", names.len()),
    }
}
