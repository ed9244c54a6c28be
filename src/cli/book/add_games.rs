//! `othbook book add-games`: gives a book written before format version 5 the table of its
//! games and their index, keeping its values: the games are read again, checked to make
//! exactly the book's statistics, and stored (a book that holds them already only gains the
//! index).

use super::output;
use crate::cli::common::{bad, distinct_files, input_format, unreadable_inputs};
use crate::cli::output_path::Output;
use crate::cli::reading::input_progress;
use anyhow::Result;
use othbook::transcript::{ingest_each, IngestOptions};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `othbook book add-games`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Give the game files the book was built from, with the same --dedupe \
and --input-format: they are built again with the book's options and must give exactly its \
games, positions, moves and lines (otherwise nothing is written). Values, sources and the \
date are kept; the book becomes format version 5 (games and their index). A book of format \
version 3 or 4 already holds its games: it only gains their index, and no game file is needed.\n\n\
Examples:\n  othbook book add-games books/wthor.book ../shared/data/wthor/*.wtb\n  \
othbook book add-games old-v4.book"
)]
pub struct Args {
    /// The book.
    book: PathBuf,
    /// The game files it was built from (not needed when the book holds its games without
    /// their index: format versions 3 and 4).
    inputs: Vec<PathBuf>,
    /// Write the result here (default: replace BOOK); a file, not `-`. The output is locked
    /// while the command runs: a second othbook writing it stops at once (exit code 75).
    #[arg(short, long)]
    output: Option<Output>,
    /// The book was built with --dedupe.
    #[arg(long)]
    dedupe: bool,
    /// Read every input as this format (default: by extension and content).
    #[arg(long = "input-format")]
    input_format: Option<String>,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let target = output::target(&args.book, args.output.as_ref())?;
    let path = target.path();
    distinct_files(&args.inputs, &[path])?;
    let mut data = output::read(&args.book)?;
    if let Some(table) = &data.games {
        let games = table.len();
        if data.game_index {
            writeln!(
                out,
                "{}: the book already holds its {games} games and their index; nothing to do",
                args.book.display(),
            )?;
            return Ok(());
        }
        // A format version 3 or 4 book holds its games without their index: the index is
        // made from the table itself, so no game file needs reading.
        data.game_index = true;
        let bytes = output::write(path, &data)?;
        let unread = if args.inputs.is_empty() {
            String::new()
        } else {
            " (its games were already in the book: the game files were not read)".to_string()
        };
        writeln!(
            out,
            "{}: the index of its {games} games added{unread}; format version 5, {bytes} bytes",
            path.display(),
        )?;
        return Ok(());
    }
    if data.info.options.plies() == 0 {
        return Err(bad(format!(
            "{}: an imported book holds no games to add",
            args.book.display()
        )));
    }
    if args.inputs.is_empty() {
        return Err(bad(format!(
            "{}: the book holds no games: give the game files it was built from",
            args.book.display()
        )));
    }
    let options = IngestOptions {
        format: input_format(args.input_format.as_deref())?,
        dedupe: args.dedupe,
        ..IngestOptions::default()
    };
    let (bar, progress) = input_progress(&args.inputs);
    let mut games = Vec::new();
    let summary =
        ingest_each::<anyhow::Error>(&args.inputs, &options, progress, &mut |_, mut g| {
            games.append(&mut g);
            Ok(())
        });
    bar.finish_and_clear();
    let summary = summary?;
    unreadable_inputs(&summary, "nothing written")?;
    data.attach_games(&games)
        .map_err(|e| bad(format!("{}: {e}", args.book.display())))?;
    let bytes = output::write(path, &data)?;
    writeln!(
        out,
        "{}: {} games added with their index; format version 5, {bytes} bytes",
        path.display(),
        data.games.as_ref().map_or(0, othbook::book::GameTable::len)
    )?;
    Ok(())
}
