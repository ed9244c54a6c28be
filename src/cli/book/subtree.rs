//! `othbook book subtree`: the positions below a line, with their games and values, as a book
//! of their own (to study one opening, or to export it to Edax or Egaroucid).

use super::output;
use crate::cli::common::{bad, line_from_args};
use crate::cli::output_path::Output;
use anyhow::Result;
use othbook::book::{CutError, RelinkReport};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `othbook book subtree`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The new book holds the position the line reaches and every position \
below it through the book's moves (any transposition, any orientation), each with the games \
and value it has in BOOK. Lines of games and the game table are left out (the book's lines \
start at the start position): `top` finds no line in it, `explore` and `book export` work as on \
any book.\n\n\
Examples:\n  othbook book subtree books/wthor.book f5d6c3d3c4 -o tiger.book\n  \
othbook book export tiger.book --to edax -o tiger.dat"
)]
pub struct Args {
    /// The book to cut from.
    book: PathBuf,
    /// Moves from the start (or from --position), e.g. `f5d6c3` or `f5 d6 c3`.
    moves: Vec<String>,
    /// Start from this position: 64 characters (X black, O white, - empty) then X or O.
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// The book to write (a file). It is locked while the command runs: a second othbook
    /// writing it stops at once (exit code 75).
    #[arg(short, long)]
    output: Output,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let moves = (!args.moves.is_empty()).then(|| args.moves.join(" "));
    let (_, _, pos) = line_from_args(args.position.as_deref(), moves.as_deref())?;
    let target = output::target(&args.book, Some(&args.output))?;
    let data = output::read(&args.book)?;
    let (cut, report) = data.subtree(&pos.board).map_err(|e| match e {
        CutError::NotInBook => bad(format!(
            "{}: the position is not in the book (`othbook explore` shows where the book \
             ends)",
            args.book.display()
        )),
        other => other.into(),
    })?;
    output::write(target.path(), &cut)?;
    writeln!(
        out,
        "{} of {} positions below the line",
        report.positions.1, report.positions.0
    )?;
    if cut.info.evaluation.is_some() {
        let valued = cut.positions.iter().filter(|p| p.eval.value.is_some());
        let valued = valued.count() as u64;
        let missing = cut.positions.iter().filter(|p| !p.eval.leaf.is_known());
        let relinked = RelinkReport {
            valued,
            missing: missing.count() as u64,
            stale: 0,
        };
        output::summary(out, target.path(), &cut, &relinked)?;
    }
    Ok(())
}
