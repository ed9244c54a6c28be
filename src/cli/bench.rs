//! `othbook bench`: fixed searches whose node counts sign the search behaviour and whose
//! rates measure its speed.

use super::common::{bad, check_hash};
use anyhow::{Context, Result};
use othbook::board::{Move, Position};
use othbook::data_file::DataFile;
use othbook::engine::{Depth, Engine, EngineOptions, Limits, SCALE};
use std::io::Write;
use std::path::PathBuf;

/// The FFO file `bench` solves without --ffo, and where it is looked for: `$OTHBOOK_FFO`, the
/// current folder's `../shared/data/ffo/` (a clone beside the shared data) and `ffo/`, the
/// user's data folder, and the source tree's `../shared/data/ffo/`.
const FFO: DataFile = DataFile {
    what: "the FFO file",
    env: "OTHBOOK_FFO",
    here: &["../shared/data/ffo/ffo.obf", "ffo/ffo.obf"],
    data_name: "othbook/ffo/ffo.obf",
    in_source: "../shared/data/ffo/ffo.obf",
};

/// Midgame positions: (plies from the start, seed of the fixed move choice, search depth).
pub const MIDGAME: [(u32, u64, u32); 4] = [(16, 3, 12), (22, 5, 12), (28, 7, 11), (34, 11, 11)];

/// The position after `plies` moves chosen by a fixed rule (reproducible, always legal).
pub fn midgame_position(plies: u32, seed: u64) -> Position {
    let mut pos = Position::START;
    for i in 0..u64::from(plies) {
        let moves = pos.board.legal_moves();
        let mv = if moves.is_empty() {
            Move::Pass
        } else {
            let k = (i * 7 + seed * 13 + i * i) % u64::from(moves.count());
            Move::Play(moves.iter().nth(k as usize).expect("in range"))
        };
        match pos.play(mv) {
            Ok(p) => pos = p,
            Err(_) => break,
        }
    }
    pos
}

/// Arguments of `othbook bench`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Runs single-threaded by default so that the node signature is \
reproducible; a change in it means the search itself changed.\n\n\
--ffo-range solves other FFO positions (the signature then covers them instead of #40-#44).\n\n\
--values [BOOK] measures an evaluated book's values instead: its positions with at most \
--exact-empties empties are solved exactly, a seeded sample of the earlier ones is searched --deeper \
plies beyond its leaves at the book's selectivity (or to --reference-depth at \
--reference-selectivity: one judge for two books); per empty count and per band of 6 plies it gives the mean \
difference, the share with the wrong win/draw/loss, and how often the book's best move is the \
search's best. Each position is searched on one thread from a cleared table, so the figures do not \
depend on --threads (all cores by default with --values).\n\n\
Examples:\n  othbook bench\n  othbook bench --ffo ../shared/data/ffo/ffo.obf --threads 2\n  \
othbook bench --ffo-range 40-59 --threads 2\n  othbook bench --quality --eval books/eval.bin\n  \
othbook bench --values books/wthor.book --sample 24 --deep-sample 24 --json\n  \
othbook bench --values old.book --reference-depth 22 --reference-selectivity 73"
)]
#[command(group(clap::ArgGroup::new("report").args(["quality", "values"])))]
pub struct Args {
    /// The FFO file; the positions of --ffo-range (its lines) are solved exactly. Default:
    /// $OTHBOOK_FFO, else ../shared/data/ffo/ffo.obf or ffo/ffo.obf here, in the data folder
    /// or beside the source tree.
    #[arg(long)]
    ffo: Option<PathBuf>,
    /// FFO positions to solve, N or N-M (the file's lines N to M), e.g. 40-59.
    #[arg(long, default_value = "40-44", value_parser = ffo_range_arg)]
    ffo_range: (usize, usize),
    /// Search threads (default: 1; with --values all cores, each searching one position).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table size in MiB (1-65536).
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Skip the endgame part.
    #[arg(long)]
    midgame_only: bool,
    /// Print the report of --quality or --values as JSON.
    #[arg(long, requires = "report")]
    json: bool,
    #[command(flatten)]
    quality: super::bench_quality::QualityArgs,
    #[command(flatten)]
    values: super::bench_values::ValuesArgs,
}

fn ffo_range_arg(text: &str) -> Result<(usize, usize), String> {
    super::solve::parse_range(text)
        .ok_or_else(|| format!("{text:?}: expected N or N-M with 1 <= N <= M"))
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let hash = check_hash(args.hash)?;
    if args.values.values {
        let threads = super::common::threads_arg(args.threads)?;
        return super::bench_values::run(&args.values, threads, hash, args.json, out);
    }
    let threads = super::common::threads_arg(Some(args.threads.unwrap_or(1)))?;
    if args.quality.quality {
        return super::bench_quality::run(&args.quality, hash, args.json, out);
    }
    let mut engine = Engine::try_new(EngineOptions {
        threads,
        hash_mb: hash,
    })
    .map_err(|e| bad(e.to_string()))?;
    // Read before anything is searched, so that a wrong path fails at once.
    let ffo = if args.midgame_only {
        Vec::new()
    } else {
        let path = match args.ffo {
            Some(p) => p,
            None => FFO
                .find()
                .map_err(|e| bad(format!("{e}, or give the file: --ffo FILE")))?,
        };
        read_ffo(&path, args.ffo_range)?
    };
    let mut signature = 0u64;
    writeln!(
        out,
        "{:<34} {:>6} {:>12} {:>8} {:>8}  best",
        "position", "depth", "nodes", "time", "Mn/s"
    )?;
    let (mid_nodes, mid_secs) = midgame_rows(&mut engine, &mut signature, out)?;
    let (end_nodes, end_secs) = endgame_rows(&mut engine, &ffo, &mut signature, out)?;
    writeln!(
        out,
        "midgame: {mid_nodes} nodes {mid_secs:.3} s {:.2} M nodes/s",
        mid_nodes as f64 / mid_secs.max(1e-9) / 1e6
    )?;
    let (first, last) = args.ffo_range;
    let range = if first == last {
        format!("FFO #{first}")
    } else {
        format!("FFO #{first}-#{last}")
    };
    if !args.midgame_only {
        writeln!(
            out,
            "endgame: {end_nodes} nodes {end_secs:.3} s {:.2} M nodes/s ({range}, {} positions)",
            end_nodes as f64 / end_secs.max(1e-9) / 1e6,
            ffo.len()
        )?;
    }
    let covers = if args.midgame_only {
        "midgame only".to_string()
    } else {
        range
    };
    let threads = threads.used();
    if threads == 1 {
        writeln!(
            out,
            "signature: {signature:016x} (1 thread, {covers}; differs only if the search changed)"
        )?;
    } else {
        writeln!(
            out,
            "signature: {signature:016x} ({threads} threads, {covers}: varies from run to run)"
        )?;
    }
    Ok(())
}

/// Searches the fixed midgame positions, one row each: their nodes and seconds in all.
fn midgame_rows(
    engine: &mut Engine,
    signature: &mut u64,
    out: &mut impl Write,
) -> Result<(u64, f64)> {
    let (mut mid_nodes, mut mid_secs) = (0u64, 0f64);
    for (plies, seed, depth) in MIDGAME {
        let pos = midgame_position(plies, seed);
        let moves = format!("ply {plies} seed {seed}");
        engine.clear();
        let a = engine.analyze(&pos.board, &Limits::depth(Depth::new(depth)?))?;
        *signature = signature.wrapping_mul(31).wrapping_add(a.nodes);
        mid_nodes += a.nodes;
        mid_secs += a.elapsed.as_secs_f64();
        writeln!(
            out,
            "{moves:<34} {depth:>6} {:>12} {:>7.3}s {:>8.2}  {} {}",
            a.nodes,
            a.elapsed.as_secs_f64(),
            a.nodes_per_second() / 1e6,
            a.best_move,
            othbook::engine::score_text(a.score, a.kind)
        )?;
    }
    Ok((mid_nodes, mid_secs))
}

/// Solves the FFO positions, one row each, checking each score against the file's: their
/// nodes and seconds in all.
fn endgame_rows(
    engine: &mut Engine,
    ffo: &[(usize, Position, i32)],
    signature: &mut u64,
    out: &mut impl Write,
) -> Result<(u64, f64)> {
    let (mut end_nodes, mut end_secs) = (0u64, 0f64);
    for &(id, ref pos, best) in ffo {
        engine.clear();
        let a = engine.analyze(&pos.board, &Limits::exact())?;
        *signature = signature.wrapping_mul(31).wrapping_add(a.nodes);
        end_nodes += a.nodes;
        end_secs += a.elapsed.as_secs_f64();
        // A fast wrong answer is no benchmark: the solve must give the file's score.
        if a.score / SCALE != best {
            anyhow::bail!(
                "FFO #{id}: solved as {:+}, the file says {best:+}: the solver is wrong",
                a.score / SCALE
            );
        }
        writeln!(
            out,
            "{:<34} {:>6} {:>12} {:>7.3}s {:>8.2}  {} {:+}",
            format!("FFO #{id}"),
            format!("{}@", pos.board.empty_count()),
            a.nodes,
            a.elapsed.as_secs_f64(),
            a.nodes_per_second() / 1e6,
            a.best_move,
            a.score / SCALE
        )?;
    }
    Ok((end_nodes, end_secs))
}

/// FFO positions `first..=last` from the file: each with the best score the file gives.
fn read_ffo(
    path: &std::path::Path,
    (first, last): (usize, usize),
) -> Result<Vec<(usize, Position, i32)>> {
    let text = othbook::bounded_read::read_text(path, othbook::bounded_read::TEXT_LIMIT)
        .context("cannot read the FFO file (give its path with --ffo)")?;
    let lines: Vec<&str> = text.lines().collect();
    (first..=last)
        .map(|id| {
            let at = |msg: String| bad(format!("{}:{id}: {msg}", path.display()));
            let line = lines
                .get(id - 1)
                .ok_or_else(|| bad(format!("{}: has no line {id}", path.display())))?;
            let (pos, scored) = super::common::parse_obf_line(line).map_err(at)?;
            let best = scored
                .iter()
                .map(|&(_, score)| score)
                .max()
                .ok_or_else(|| at("no scored move".into()))?;
            Ok((id, pos, best))
        })
        .collect()
}
