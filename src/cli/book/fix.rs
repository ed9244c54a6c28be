//! `othbook book fix`: checks every leaf against the book's moves and negamaxes again.

use super::output;
use crate::cli::output_path::Output;
use anyhow::Result;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `othbook book fix`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Leaves whose move now leads into the book (after a merge, an import \
or a deviation) are dropped and counted as missing: `book evaluate` searches them again.\n\n\
Example:\n  othbook book fix merged.book"
)]
pub struct Args {
    /// The book.
    book: PathBuf,
    /// Write the result here (default: replace BOOK); a file, not `-`. The output is locked
    /// while the command runs: a second othbook writing it stops at once (exit code 75).
    #[arg(short, long)]
    output: Option<Output>,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let target = output::target(&args.book, args.output.as_ref())?;
    let path = target.path();
    let mut data = output::read(&args.book)?;
    if data.info.evaluation.is_none() {
        writeln!(
            out,
            "{}: the book has no values; nothing to fix (`othbook book evaluate` adds them)",
            args.book.display()
        )?;
        return Ok(());
    }
    let report = data.relink();
    output::write(path, &data)?;
    if report.stale > 0 {
        writeln!(
            out,
            "{} leaves dropped: their move now leads into the book",
            report.stale
        )?;
    }
    output::summary(out, path, &data, &report)
}
