//! `othbook openings [NAME]`: the named openings with their lines and how often the book saw
//! each.

use super::common::{bad, open_book, write_json, OutputFormat};
use anyhow::Result;
use othbook::board::format_moves;
use othbook::openings::Openings;
use othbook::report::OpeningsReport;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `othbook openings`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "An opening is named by the position its line reaches: explore, top and \
analyze recognise it in any of the 8 orientations and by any move order. Lines are shown from \
f5; games counts the book's games reaching the position (as explore counts them), - when the \
book does not hold it (deeper than the book, or fewer games than its minimum).\n\n\
Examples:\n  othbook openings\n  othbook openings tiger\n  othbook openings rose --format json"
)]
pub struct Args {
    /// Only openings whose name contains this (case ignored).
    name: Option<String>,
    /// The book whose games are counted (default: the default book: $OTHBOOK_BOOK, else books/wthor.book here, in the data folder or in the source tree).
    #[arg(long)]
    book: Option<PathBuf>,
    /// Output style.
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let search = args.name.as_deref().map(str::trim);
    if search == Some("") {
        return Err(bad(
            "empty opening name: give part of a name, or none for all",
        ));
    }
    let table = Openings::standard();
    let book = open_book(args.book.as_deref())?;
    let report = OpeningsReport::build(&book, table, search)?;
    if report.openings.is_empty() {
        let near = closest_names(table, search.unwrap_or_default());
        return Err(bad(format!(
            "no opening name contains {:?}; names include {}",
            search.unwrap_or_default(),
            near.join(", ")
        )));
    }
    let games = |g: Option<u64>| g.map_or_else(|| "-".to_string(), |g| g.to_string());
    match args.format {
        OutputFormat::Json => write_json(out, &report)?,
        OutputFormat::Tsv => {
            writeln!(out, "name\tmoves\tplies\tgames")?;
            for o in &report.openings {
                let g = o.games.map(|g| g.to_string()).unwrap_or_default();
                writeln!(
                    out,
                    "{}\t{}\t{}\t{g}",
                    o.name,
                    format_moves(&o.moves),
                    o.plies
                )?;
            }
        }
        OutputFormat::Table => {
            let width = report
                .openings
                .iter()
                .map(|o| o.name.chars().count())
                .max()
                .unwrap_or(4);
            writeln!(out, "{:<width$}  {:>7}  line", "name", "games")?;
            for o in &report.openings {
                writeln!(
                    out,
                    "{:<width$}  {:>7}  {}",
                    o.name,
                    games(o.games),
                    format_moves(&o.moves)
                )?;
            }
            writeln!(
                out,
                "games: of the book ({} in all) reaching the position, any move order and \
                 orientation; - not in the book",
                report.book_games
            )?;
        }
    }
    Ok(())
}

/// A few names sharing the most letters with `text`, for the error of a name not found.
fn closest_names<'a>(table: &'a Openings, text: &str) -> Vec<&'a str> {
    let want: Vec<char> = text.to_lowercase().chars().collect();
    let mut scored: Vec<(usize, &str)> = table
        .all()
        .iter()
        .map(|o| {
            let name = o.name.to_lowercase();
            let common = want.iter().filter(|c| name.contains(**c)).count();
            (common, o.name.as_str())
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    scored.into_iter().take(5).map(|s| s.1).collect()
}
