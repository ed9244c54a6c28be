//! `othbook book export`: an evaluated othbook book written in another program's format
//! (Edax `book.dat` or text, Egaroucid `.egbk3`), so that players can load it there.

use super::output;
use crate::cli::common::bad;
use crate::cli::output_path::{claim, Output};
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
othbook book export books/wthor.book --to egaroucid -o book.egbk3\n  \
othbook book export books/wthor.book --to edax-text -o - | head"
)]
pub struct Args {
    /// The evaluated book.
    book: PathBuf,
    /// The format to write.
    #[arg(long, value_enum)]
    to: To,
    /// The file to write; `-` writes to standard output (the summary then goes to standard
    /// error). A file is locked while the command runs: a second othbook writing it stops at
    /// once with exit code 75.
    #[arg(short, long)]
    output: Output,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let file = match args.output.file() {
        Some(p) => {
            crate::cli::common::distinct_files(std::slice::from_ref(&args.book), &[p])?;
            Some(claim(p)?)
        }
        None => None,
    };
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
    let mut stderr = std::io::stderr();
    let summary: &mut dyn Write = match &file {
        Some(f) => {
            write_file(f.path(), &bytes)?;
            out
        }
        None => {
            out.write_all(&bytes)?;
            &mut stderr
        }
    };
    writeln!(
        summary,
        "{}: {} positions written, {} left out (no value), {} bytes",
        args.output,
        report.positions,
        report.without_value,
        bytes.len()
    )?;
    if report.capped > 0 {
        writeln!(
            summary,
            "note: {} leaves searched deeper than {MAX_LEVEL} plies are written as level \
             {MAX_LEVEL}",
            report.capped
        )?;
    }
    Ok(())
}
