//! `othbook book export`: an evaluated othbook book written in another program's format
//! (Edax `book.dat` or text, Egaroucid `.egbk3`), so that players can load it there.

use super::output;
use crate::cli::common::bad;
use anyhow::Result;
use othbook::book::interop::{
    export_edax, export_edax_text, export_egaroucid, write_file, MAX_LEVEL,
};
use std::io::Write;
use std::path::PathBuf;

/// The formats written.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum To {
    /// Edax's binary book.dat (format version 4).
    Edax,
    /// Egaroucid's .egbk3 (version 3; no links: Egaroucid finds children by probing).
    Egaroucid,
    /// Edax's text export: `<board> X,level,leaf move,leaf score` per position.
    EdaxText,
}

/// Arguments of `othbook book export`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Only positions with a value are written (the summary counts the others). \
Values, links (every legal move into the book) and leaves come from the book's values, \
rounded to whole discs; wins, draws and losses from the games, for the side to move; lines = \
games; a leaf's level is its search depth, at most 60 (docs/interop.md).\n\n\
Examples:\n  othbook book export books/wthor.book --to edax -o book.dat\n  \
othbook book export books/wthor.book --to egaroucid -o book.egbk3"
)]
pub struct Args {
    /// The evaluated book.
    book: PathBuf,
    /// The format to write.
    #[arg(long, value_enum)]
    to: To,
    /// The file to write.
    #[arg(short, long)]
    output: PathBuf,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    crate::cli::common::distinct_files(std::slice::from_ref(&args.book), &[args.output.as_path()])?;
    let data = output::read(&args.book)?;
    if data.info.evaluation.is_none() {
        return Err(bad(format!(
            "{} has no values: evaluate it first (`othbook book evaluate`)",
            args.book.display()
        )));
    }
    let (bytes, report) = match args.to {
        To::Edax => export_edax(&data),
        To::Egaroucid => export_egaroucid(&data),
        To::EdaxText => export_edax_text(&data),
    };
    write_file(&args.output, &bytes)?;
    writeln!(
        out,
        "{}: {} positions written, {} left out (no value), {} bytes",
        args.output.display(),
        report.positions,
        report.without_value,
        bytes.len()
    )?;
    if report.capped > 0 {
        writeln!(
            out,
            "note: {} leaves searched deeper than {MAX_LEVEL} plies are written as level \
             {MAX_LEVEL}",
            report.capped
        )?;
    }
    Ok(())
}
