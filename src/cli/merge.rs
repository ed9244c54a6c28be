//! `othbook merge`: adds up books built with the same options, pruning at the end.

use super::build::{parse_memory, stage_line, stage_text, stopped};
use super::common::bad;
use super::interrupt;
use super::output_path::{claim, Output, BOOK};
use anyhow::{Context, Result};
use othbook::book::external::{merge_files, Control, Step, TempFolder, Written};
use othbook::book::{write_book, Book, BookData, BookError, MinGames, OptionDifference};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `othbook merge`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The inputs must be built with --min-games 1 and the same --plies and \
filters; merge(build(x), build(y)) is then byte-identical to build(x + y). While it runs, the \
output is locked (a lock file .NAME.lock beside it): a second othbook writing the same book \
stops at once with exit code 75.\n\nBooks without values are merged table by table within \
--memory, through a temporary folder beside the output (.NAME.build-tmp-PID/, about as large as \
the output before pruning); books with values, and --dedupe, are merged in memory.\n\n\
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
    /// Memory for the merge (`512M`, `2G`; K, M, G are powers of 1024), about; books with
    /// values and --dedupe are merged in memory whatever it is.
    #[arg(long, default_value = "1G", value_parser = parse_memory)]
    memory: u64,
}

/// The books by name in an error about "book N".
fn named(e: BookError, inputs: &[PathBuf]) -> anyhow::Error {
    match e {
        // The files by name: "book 2" means little to someone who typed a glob.
        BookError::OptionsDiffer { book, differences } => {
            let first = inputs[0].display().to_string();
            bad(format!(
                "cannot merge: {} was built with other options than {first}: {}",
                inputs[book - 1].display(),
                OptionDifference::list(&differences, &first)
            ))
        }
        e => stopped(e),
    }
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let min_games = MinGames::new(args.min_games).map_err(|e| bad(format!("--{e}")))?;
    let output = args.output.require_file("-o", BOOK)?;
    super::common::distinct_files(&args.inputs, &[output])?;
    let output = claim(output)?;
    let mut infos = Vec::with_capacity(args.inputs.len());
    let mut first_source = std::collections::HashMap::new();
    for p in &args.inputs {
        let book = Book::open_lazy(p)?;
        let info = book.info();
        for s in &info.sources {
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
        infos.push((info, book.has_games(), book.has_values()));
    }
    let without_games: Vec<String> = infos
        .iter()
        .zip(&args.inputs)
        .filter(|((_, games, _), _)| !games)
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
    let all_games: u64 = infos.iter().map(|(i, _, _)| i.games).sum();
    if all_games == 0 && !args.allow_empty {
        return Err(anyhow::anyhow!(
            "no book written: the input books hold no games (--allow-empty writes an empty book)"
        ));
    }
    let in_memory = args.dedupe || infos.iter().any(|(_, _, values)| *values);
    let written = if in_memory {
        merge_in_memory(&args, min_games, output.path())?
    } else {
        let multi = indicatif::MultiProgress::new();
        let stage = stage_line(&multi);
        let on_step = |step: Step| stage.set_message(stage_text(step));
        let control = Control {
            stop: interrupt::install(),
            progress: &on_step,
        };
        let mut folder = TempFolder::beside(output.path());
        let written = merge_files(
            &args.inputs,
            min_games,
            args.memory,
            output.path(),
            &mut folder,
            &control,
        )
        .map_err(|e| named(e, &args.inputs))?;
        stage.finish_and_clear();
        written
    };
    writeln!(
        out,
        "{}: {} games{}, {} positions, {} moves, {} lines, {} bytes",
        output.path().display(),
        written.games,
        if all_games > written.games {
            format!(" ({} repeated games left out)", all_games - written.games)
        } else {
            String::new()
        },
        written.positions,
        written.moves,
        written.nodes,
        written.bytes
    )?;
    Ok(())
}

/// The merge of books with values, or with --dedupe: every book read into memory.
fn merge_in_memory(args: &Args, min_games: MinGames, output: &std::path::Path) -> Result<Written> {
    let mut books = Vec::with_capacity(args.inputs.len());
    for p in &args.inputs {
        books.push(Book::open(p)?.to_data()?);
    }
    let merge = if args.dedupe {
        BookData::merge_deduped
    } else {
        BookData::merge
    };
    let merged = merge(&books, min_games).map_err(|e| named(e, &args.inputs))?;
    if merged.info.games == 0 && !args.allow_empty {
        return Err(anyhow::anyhow!(
            "no book written: the input books hold no games (--allow-empty writes an empty book)"
        ));
    }
    let bytes =
        write_book(output, &merged).with_context(|| format!("writing {}", output.display()))?;
    Ok(Written::of(&merged, bytes))
}
