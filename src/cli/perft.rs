//! `othbook perft`: leaf counts of the game tree, with timing.

use super::common::{bad, position_from_args, threads_arg};
use anyhow::Result;
use othbook::board::perft::{divide, perft_parallel};
use std::io::Write;
use std::time::Instant;

/// Arguments of `othbook perft`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Convention: a pass is one ply; a game that ends before the depth \
counts as one leaf. From the start: 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, ...\n\n\
Examples:\n  othbook perft 12 --threads 1\n  othbook perft 6 --moves f5d6c3 --divide"
)]
pub struct Args {
    /// Plies to search (1-20).
    depth: u32,
    /// Start from this position: 64 characters (X/* black, O white, -/. empty) then X or O.
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// Moves played first (from the start or --position), e.g. f5d6c3.
    #[arg(long)]
    moves: Option<String>,
    /// Print the count below each first move.
    #[arg(long)]
    divide: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    if !(1..=20).contains(&args.depth) {
        return Err(bad(format!(
            "depth {} is out of range: use 1 to 20",
            args.depth
        )));
    }
    let threads = threads_arg(args.threads)?.used();
    let pos = position_from_args(args.position.as_deref(), args.moves.as_deref())?;
    let start = Instant::now();
    let leaves = if args.divide {
        let rows = divide(&pos.board, args.depth, threads);
        for (mv, n) in &rows {
            writeln!(out, "{mv}\t{n}")?;
        }
        if rows.is_empty() {
            1
        } else {
            rows.iter().map(|r| r.1).sum()
        }
    } else {
        perft_parallel(&pos.board, args.depth, threads)
    };
    let secs = start.elapsed().as_secs_f64();
    let rate = leaves as f64 / secs.max(1e-9);
    writeln!(
        out,
        "perft {}: {leaves} lea{} in {secs:.3} s ({:.1} M leaves/s, {threads} thread{})",
        args.depth,
        if leaves == 1 { "f" } else { "ves" },
        rate / 1e6,
        if threads == 1 { "" } else { "s" }
    )?;
    Ok(())
}
