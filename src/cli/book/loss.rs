//! `othbook book loss`: a line's accumulated loss against an evaluated book: per move, the
//! book's best move and what the move played lost against it, and each side's total so far.

use crate::cli::common::{bad, line_from_args, open_book, tsv_num, write_json, OutputFormat};
use anyhow::Result;
use othbook::report::LossReport;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `othbook book loss`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "For each move of the line: the book's best move at that position and its \
value, the value of the move played (both for the side playing, in discs), the loss (best - \
played), and black's and white's losses so far, as Egaroucid shows a game's per-move and \
cumulative error. A move the book holds no value for (the line has left the book's values) \
has no loss and is not counted. The book must have values (`othbook book evaluate`, or an \
imported Edax or Egaroucid book).\n\n\
Examples:\n  othbook book loss books/wthor.book f5d6c3d3c4f4\n  \
othbook book loss books/wthor.book f5f6e6f4 --format json"
)]
pub struct Args {
    /// The evaluated book.
    book: PathBuf,
    /// Moves from the start (or from --position), e.g. `f5d6c3` or `f5 d6 c3`.
    #[arg(required = true)]
    moves: Vec<String>,
    /// Start from this position: 64 characters (X black, O white, - empty) then X or O.
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// Output style: table, tsv or json (schema in docs/json.md).
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let moves = args.moves.join(" ");
    let (start, line, _) = line_from_args(args.position.as_deref(), Some(&moves))?;
    let book = open_book(Some(&args.book))?;
    if !book.has_values() {
        return Err(bad(format!(
            "{}: the book has no values: a line's loss needs them (`othbook book evaluate` \
             first)",
            args.book.display()
        )));
    }
    let report = LossReport::build(&book, &start, &line)?;
    match args.format {
        OutputFormat::Table => table(&report, out),
        OutputFormat::Tsv => tsv(&report, out),
        OutputFormat::Json => write_json(out, &report),
    }
}

fn signed(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), |v| format!("{v:+.2}"))
}

fn table(r: &LossReport, out: &mut impl Write) -> Result<()> {
    writeln!(
        out,
        "{:>3}  {:<5}  {:<4}  {:<4}  {:>10}  {:>7}  {:>6}  {:>10}  {:>10}",
        "ply", "side", "move", "best", "best value", "value", "loss", "black loss", "white loss"
    )?;
    for m in &r.moves {
        writeln!(
            out,
            "{:>3}  {:<5}  {:<4}  {:<4}  {:>10}  {:>7}  {:>6}  {:>10.2}  {:>10.2}",
            m.ply,
            m.side,
            m.mv,
            m.best.as_deref().unwrap_or("-"),
            signed(m.best_value),
            signed(m.value),
            m.loss.map_or_else(|| "-".into(), |l| format!("{l:.2}")),
            m.black_loss,
            m.white_loss
        )?;
    }
    write!(
        out,
        "total loss: black {:.2}, white {:.2} discs",
        r.black_loss, r.white_loss
    )?;
    if r.unknown > 0 {
        write!(
            out,
            " ({} moves without a value in the book, not counted)",
            r.unknown
        )?;
    }
    writeln!(out)?;
    Ok(())
}

fn tsv(r: &LossReport, out: &mut impl Write) -> Result<()> {
    writeln!(
        out,
        "ply\tside\tmove\tbest\tbest_value\tvalue\tloss\tblack_loss\twhite_loss"
    )?;
    for m in &r.moves {
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.2}\t{:.2}",
            m.ply,
            m.side,
            m.mv,
            m.best.as_deref().unwrap_or("null"),
            tsv_num(m.best_value),
            tsv_num(m.value),
            tsv_num(m.loss),
            m.black_loss,
            m.white_loss
        )?;
    }
    Ok(())
}
