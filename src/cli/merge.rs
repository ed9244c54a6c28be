//! `othbook merge`: adds up books built with the same options, pruning at the end.

use super::common::bad;
use super::output_path::{claim, Output, BOOK};
use anyhow::{Context, Result};
use othbook::book::{write_book, Book, BookData, BookError, OptionDifference};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `othbook merge`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The inputs must be built with --min-games 1 and the same --plies and \
filters; merge(build(x), build(y)) is then byte-identical to build(x + y). While it runs, the \
output is locked (a lock file .NAME.lock beside it): a second othbook writing the same book \
stops at once with exit code 75.\n\n\
Example:\n  othbook merge a.book b.book -o all.book --min-games 2"
)]
pub struct Args {
    /// Books to merge.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The merged book (a file: not `-`).
    #[arg(short, long)]
    output: Output,
    /// Leave out positions, moves and lines seen in fewer games (after adding up).
    #[arg(long, default_value_t = 1)]
    min_games: u32,
    /// Count identical games once (same line up to the symmetries of the start position),
    /// e.g. books built from overlapping collections: the statistics are built again from
    /// the books' games without repeats. Every input must hold its games (format 3).
    #[arg(long)]
    dedupe: bool,
    /// Write the merged book even when the inputs hold no game (by default that is an error
    /// and nothing is written).
    #[arg(long)]
    allow_empty: bool,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    if args.min_games == 0 {
        return Err(bad("--min-games must be at least 1"));
    }
    let output = args.output.require_file("-o", BOOK)?;
    super::common::distinct_files(&args.inputs, &[output])?;
    let output = claim(output)?;
    let mut books = Vec::with_capacity(args.inputs.len());
    let mut first_source = std::collections::HashMap::new();
    for p in &args.inputs {
        let book = Book::open(p)?;
        let data = book.to_data()?;
        for s in &data.info.sources {
            if let Some(other) = first_source.insert(s.name.clone(), p) {
                eprintln!(
                    "warning: {} and {} were both built from {}: if that is one file, its \
                     games count twice",
                    other.display(),
                    p.display(),
                    s.name
                );
            }
        }
        books.push(data);
    }
    let without_games: Vec<String> = books
        .iter()
        .zip(&args.inputs)
        .filter(|(b, _)| b.games.is_none())
        .map(|(_, p)| p.display().to_string())
        .collect();
    if !without_games.is_empty() && !args.dedupe {
        eprintln!(
            "warning: {} {} no game table: the merged book has none (games find, explore \
             --games and the filters will not work on it)",
            without_games.join(", "),
            if without_games.len() == 1 {
                "has"
            } else {
                "have"
            }
        );
    }
    let merge = if args.dedupe {
        BookData::merge_deduped
    } else {
        BookData::merge
    };
    let merged = merge(&books, args.min_games).map_err(|e| match e {
        // The files by name: "book 2" means little to someone who typed a glob.
        BookError::OptionsDiffer { book, differences } => {
            let first = args.inputs[0].display().to_string();
            bad(format!(
                "cannot merge: {} was built with other options than {first}: {}",
                args.inputs[book - 1].display(),
                OptionDifference::list(&differences, &first)
            ))
        }
        e => e.into(),
    })?;
    if merged.info.games == 0 && !args.allow_empty {
        return Err(anyhow::anyhow!(
            "no book written: the input books hold no games (--allow-empty writes an empty book)"
        ));
    }
    let bytes = write_book(output.path(), &merged)
        .with_context(|| format!("writing {}", output.path().display()))?;
    writeln!(
        out,
        "{}: {} games{}, {} positions, {} moves, {} lines, {bytes} bytes",
        output.path().display(),
        merged.info.games,
        match (
            &merged.games,
            books.iter().map(|b| b.info.games).sum::<u64>()
        ) {
            (Some(_), all) if all > merged.info.games => {
                format!(" ({} repeated games left out)", all - merged.info.games)
            }
            _ => String::new(),
        },
        merged.positions.len(),
        merged.moves.len(),
        merged.nodes.len()
    )?;
    Ok(())
}
