//! `othbook book prune`: a book cut down to the positions played in more games, as building
//! with a higher `--min-games` would have made it, with its values kept.

use super::output;
use crate::cli::common::bad;
use crate::cli::output_path::Output;
use anyhow::Result;
use othbook::book::{CutError, RelinkReport};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `othbook book prune`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Positions, moves and lines played in fewer than --min-games games are \
dropped, as `othbook build --min-games N` would have left them out (positions `book deviate` \
added, which no game reached, stay); the game table is kept whole. In an evaluated book a \
dropped move becomes a move out of the book: where the position it led to had a value, that \
value becomes its parent's leaf, so every position keeps the value it had and nothing needs \
searching again.\n\n\
Example:\n  othbook book prune books/wthor.book --min-games 100 -o small.book"
)]
pub struct Args {
    /// The book to prune.
    book: PathBuf,
    /// Keep positions and moves played in at least this many games (more than the book's own
    /// minimum, which `othbook info` shows).
    #[arg(long)]
    min_games: u32,
    /// The book to write (a file). It is locked while the command runs: a second othbook
    /// writing it stops at once (exit code 75).
    #[arg(short, long)]
    output: Output,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let target = output::target(&args.book, Some(&args.output))?;
    let data = output::read(&args.book)?;
    let (pruned, report) = data.pruned(args.min_games).map_err(|e| match e {
        CutError::BelowBookMinimum { .. } => bad(format!("{}: {e}", args.book.display())),
        other => other.into(),
    })?;
    output::write(target.path(), &pruned)?;
    writeln!(
        out,
        "{} of {} positions and {} of {} lines kept (played in {} games or more)",
        report.positions.1, report.positions.0, report.lines.1, report.lines.0, args.min_games
    )?;
    if pruned.info.evaluation.is_some() {
        if report.leaves_taken > 0 || report.leaves_missing > 0 {
            writeln!(
                out,
                "{} leaves took the value of a dropped move; {} lost a move without a value \
                 (`othbook book evaluate` searches them)",
                report.leaves_taken, report.leaves_missing
            )?;
        }
        let valued = pruned.positions.iter().filter(|p| p.eval.value.is_some());
        let missing = pruned.positions.iter().filter(|p| !p.eval.leaf.is_known());
        let relinked = RelinkReport {
            valued: valued.count() as u64,
            missing: missing.count() as u64,
            stale: 0,
        };
        output::summary(out, target.path(), &pruned, &relinked)?;
    }
    Ok(())
}
