//! `othbook bench`: fixed searches whose node counts sign the search behaviour and whose
//! rates measure its speed.

use super::common::{bad, check_hash};
use anyhow::{Context, Result};
use othbook::board::{Move, Position};
use othbook::engine::{Engine, EngineOptions, Limits, SCALE};
use std::io::Write;
use std::path::PathBuf;

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
Examples:\n  othbook bench\n  othbook bench --quality --eval books/eval.bin\n  othbook bench --ffo ../shared/data/ffo/ffo.obf --threads 2"
)]
pub struct Args {
    /// The FFO file; positions #40-#44 (its lines 40-44) are solved exactly.
    #[arg(long, default_value = "../shared/data/ffo/ffo.obf")]
    ffo: PathBuf,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MiB (1-65536).
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Skip the endgame part.
    #[arg(long)]
    midgame_only: bool,
    #[command(flatten)]
    quality: super::bench_quality::QualityArgs,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let threads = super::common::threads_arg(Some(args.threads))?;
    check_hash(args.hash)?;
    if args.quality.quality {
        return super::bench_quality::run(&args.quality, args.hash, out);
    }
    let mut engine = Engine::try_new(EngineOptions {
        threads,
        hash_mb: args.hash,
        ..EngineOptions::default()
    })
    .map_err(|e| bad(e.to_string()))?;
    // Read before anything is searched, so that a wrong path fails at once.
    let ffo = if args.midgame_only {
        Vec::new()
    } else {
        read_ffo(&args.ffo)?
    };
    let mut signature = 0u64;
    let (mut mid_nodes, mut mid_secs) = (0u64, 0f64);
    writeln!(
        out,
        "{:<34} {:>6} {:>12} {:>8} {:>8}  best",
        "position", "depth", "nodes", "time", "Mn/s"
    )?;
    for (plies, seed, depth) in MIDGAME {
        let pos = midgame_position(plies, seed);
        let moves = format!("ply {plies} seed {seed}");
        engine.clear();
        let a = engine.analyze(&pos.board, &Limits::depth(depth))?;
        signature = signature.wrapping_mul(31).wrapping_add(a.nodes);
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
    let (mut end_nodes, mut end_secs) = (0u64, 0f64);
    for &(id, ref pos, best) in &ffo {
        engine.clear();
        let a = engine.analyze(&pos.board, &Limits::exact())?;
        signature = signature.wrapping_mul(31).wrapping_add(a.nodes);
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
    writeln!(
        out,
        "midgame: {mid_nodes} nodes {mid_secs:.3} s {:.2} M nodes/s",
        mid_nodes as f64 / mid_secs.max(1e-9) / 1e6
    )?;
    if !args.midgame_only {
        writeln!(
            out,
            "endgame: {end_nodes} nodes {end_secs:.3} s {:.2} M nodes/s",
            end_nodes as f64 / end_secs.max(1e-9) / 1e6
        )?;
    }
    if threads == 1 {
        writeln!(
            out,
            "signature: {signature:016x} (1 thread; differs only if the search changed)"
        )?;
    } else {
        writeln!(
            out,
            "signature: {signature:016x} ({threads} threads: varies from run to run)"
        )?;
    }
    Ok(())
}

/// FFO #40-#44 from the file: each position with the best score the file gives.
fn read_ffo(path: &std::path::Path) -> Result<Vec<(usize, Position, i32)>> {
    let text = othbook::bounded_read::read_text(path, othbook::bounded_read::TEXT_LIMIT)
        .context("cannot read the FFO file (give its path with --ffo)")?;
    let lines: Vec<&str> = text.lines().collect();
    (40..=44)
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
