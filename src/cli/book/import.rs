//! `othbook book import`: another program's opening book (Edax `book.dat`, Egaroucid
//! `.egbk3`, `.egbk2`) read into an othbook book with values, so that every othbook query opens it.

use super::output;
use crate::cli::output_path::{claim, Output, BOOK};
use anyhow::Result;
use othbook::book::interop::import_file;
use othbook::book::RelinkReport;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `othbook book import`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The format is found from the file's first bytes (Edax book.dat, \
version 4, any release; Edax's text export; Egaroucid .egbk3 and .egbk2). Each position keeps its links as book moves, its leaf and its \
value as the file gives them (values are negamaxed only where the file has none); what a negamax \
would change is counted, and `othbook book fix` makes those repairs. Levels outside 0 to 60 are \
read as level 0 and counted. Edax books hold no games: game columns are empty \
and the book has no lines of games: `top --by value` walks its positions instead. Levels become search depths (docs/interop.md). A damaged \
file is refused with exit code 1 and nothing is written.\n\n\
Example:\n  othbook book import book.dat -o edax.book && othbook explore --book edax.book f5"
)]
pub struct Args {
    /// The foreign book.
    file: PathBuf,
    /// The othbook book to write (a file, not `-`; locked while the command runs: a second
    /// othbook writing it stops at once with exit code 75).
    #[arg(short, long)]
    output: Output,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let output = args.output.require_file("-o", BOOK)?;
    crate::cli::common::distinct_files(std::slice::from_ref(&args.file), &[output])?;
    let output = claim(output)?;
    let (data, report) = import_file(&args.file)?;
    output::write(output.path(), &data)?;
    writeln!(
        out,
        "{}: {} positions, {} links read",
        args.file.display(),
        report.positions,
        report.links
    )?;
    let bad = report.bad_levels;
    let levels = format!(
        "levels were outside 0 to 60 (such as {}): read as level 0, depth unknown",
        bad.worst
    );
    let counted = [
        (
            report.value_differences,
            "values would change once negamaxed again (kept as the file gives them; \
             `othbook book fix` negamaxes)",
        ),
        (
            report.stale,
            "leaves lead into the book (kept; `othbook book fix` drops them)",
        ),
        (bad.count, levels.as_str()),
        (
            report.bad_link_scores,
            "link scores were outside -64 to 64 (not read: a link is scored by its child's \
             value)",
        ),
        (
            report.dangling_links,
            "links lead to positions the file does not hold",
        ),
        (
            report.not_canonical,
            "boards were not stored in canonical orientation (turned)",
        ),
    ];
    let notes: Vec<String> = counted
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
    if report.compared == 0 {
        writeln!(
            out,
            "the file holds no values to compare: they are negamaxed from its leaves"
        )?;
    }
    if report.compared > 0 && report.uncompared > 0 {
        writeln!(
            out,
            "{} positions hold no value to compare (none, undefined, or outside -64 to 64): \
             their values are negamaxed from the file",
            report.uncompared
        )?;
    }
    if !notes.is_empty() {
        writeln!(out, "note: {}", notes.join("; "))?;
    } else if report.compared > 0 {
        let all = if report.uncompared == 0 {
            "every value agrees"
        } else {
            "every value compared agrees"
        };
        writeln!(
            out,
            "{all} with the file's once negamaxed again ({} compared)",
            report.compared
        )?;
    }
    let relink = RelinkReport {
        valued: report.valued,
        missing: data
            .positions
            .iter()
            .filter(|p| !p.eval.leaf.is_known())
            .count() as u64,
        stale: report.stale,
    };
    output::summary(out, output.path(), &data, &relink)
}
