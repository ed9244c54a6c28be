//! What `book evaluate`, `apply`, `fix` and `deviate` share: the output path, writing an
//! evaluated book, and the summary line.

use crate::cli::output_path::{claim, Claimed, Output, BOOK};
use anyhow::{Context, Result};
use othbook::book::{board_of, write_book, Book, BookData, RelinkReport};
use std::io::Write;
use std::path::Path;

/// The book to write, held for the run: `-o` if given (a file: a book cannot be a stream),
/// else the input itself (replaced atomically).
pub fn target(input: &Path, output: Option<&Output>) -> Result<Claimed> {
    match output {
        Some(o) => {
            let o = o.require_file("-o", BOOK)?;
            crate::cli::common::distinct_files(&[input.to_path_buf()], &[o])?;
            claim(o)
        }
        None => claim(input),
    }
}

/// The time between checkpoints from `--checkpoint MINUTES`.
pub fn checkpoint_every(minutes: f64) -> Result<std::time::Duration> {
    if !(minutes > 0.0 && minutes <= 10_080.0) {
        return Err(crate::cli::common::bad(
            "--checkpoint must be more than 0 and at most a week of minutes",
        ));
    }
    Ok(std::time::Duration::from_secs_f64(minutes * 60.0))
}

/// The input book's data.
pub fn read(input: &Path) -> Result<BookData> {
    Ok(Book::open(input)?.to_data()?)
}

/// Writes `data` to `path` atomically.
pub fn write(path: &Path, data: &BookData) -> Result<u64> {
    write_book(path, data).with_context(|| format!("writing {}", path.display()))
}

/// `BOOK: N positions, V with a value, M leaves missing; start position +1.23 (depth 12)`.
pub fn summary(
    out: &mut impl Write,
    path: &Path,
    data: &BookData,
    report: &RelinkReport,
) -> Result<()> {
    let start = data
        .positions
        .iter()
        .find(|p| board_of(p.key).empty_count() == 60)
        .and_then(|p| p.eval.value);
    let root = match start {
        Some(v) => format!(
            "; start position {:+.2} ({}, depth {})",
            v.discs(),
            v.kind.word(),
            v.depth
        ),
        None => String::new(),
    };
    let added = data.positions.iter().filter(|p| p.eval.added).count();
    let added = if added > 0 {
        format!(", {added} added by deviation (no games)")
    } else {
        String::new()
    };
    writeln!(
        out,
        "{}: {} positions, {} with a value, {} leaves missing{added}{root}",
        path.display(),
        data.positions.len(),
        report.valued,
        report.missing,
    )?;
    Ok(())
}
