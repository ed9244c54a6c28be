//! `othbook info`: a book's header, counts, sources and build options (checks every byte).

use super::common::{write_json, OutputFormat};
use anyhow::Result;
use othbook::book::{selectivity_words, Book};
use othbook::report::InfoReport;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `othbook info`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Without a file: the default book, and where it was found ($OTHBOOK_BOOK, \
else books/wthor.book here, in the data folder or in the source tree).\n\n\
Examples:\n  othbook info books/wthor.book\n  othbook info"
)]
pub struct Args {
    /// The book file (default: the default book).
    file: Option<PathBuf>,
    /// Output style.
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let (file, found) = match args.file {
        Some(file) => (file, None),
        None => {
            let (file, place) = othbook::book::locate_default()?;
            (file, Some(place.to_string()))
        }
    };
    let book = Book::open(&file)?;
    let mut r = InfoReport::build(&book, &file.display().to_string())?;
    r.found = found;
    match args.format {
        OutputFormat::Json => write_json(out, &r),
        OutputFormat::Table | OutputFormat::Tsv => {
            let tsv = args.format == OutputFormat::Tsv;
            let mut row = |k: &str, v: String| -> std::io::Result<()> {
                if tsv {
                    writeln!(out, "{k}\t{v}")
                } else {
                    writeln!(out, "{k:<14} {v}")
                }
            };
            let o = &r.options;
            row("file", r.file.clone())?;
            if let Some(found) = &r.found {
                row("found", format!("the default book, {found}"))?;
            }
            row("format", format!("othbook book, version {}", r.version))?;
            row("bytes", r.bytes.to_string())?;
            row("created", r.created_utc.clone())?;
            row("games", r.games.to_string())?;
            row("positions", r.positions.to_string())?;
            row("moves", r.moves.to_string())?;
            row("trie nodes", r.trie_nodes.to_string())?;
            row("plies", o.plies.to_string())?;
            row("min games", o.min_games.to_string())?;
            row(
                "player",
                o.player
                    .as_ref()
                    .map_or("-".into(), |p| format!("{p} (as {})", o.player_color)),
            )?;
            row("years", o.years.clone().unwrap_or_else(|| "-".into()))?;
            row("event", o.event.clone().unwrap_or_else(|| "-".into()))?;
            row("complete only", o.complete_only.to_string())?;
            row(
                "values",
                match &r.values {
                    Some(v) => format!(
                        "leaf depth {}, {}, exact from {} empties; {} positions with a value, \
                         {} leaves missing, {} added by deviation",
                        v.depth,
                        selectivity_words(v.selectivity),
                        v.exact_from,
                        v.valued,
                        v.missing,
                        v.added
                    ),
                    None => "none (othbook book evaluate adds them)".into(),
                },
            )?;
            row(
                "game table",
                match &r.game_table {
                    Some(t) => format!(
                        "{} games, {} players, {} events",
                        t.games, t.players, t.events
                    ),
                    None => {
                        "none (an older or imported book; othbook book add-games adds it)".into()
                    }
                },
            )?;
            for s in &r.sources {
                row(
                    "source",
                    format!(
                        "{} ({} games accepted, {} used)",
                        s.name, s.games_read, s.games_used
                    ),
                )?;
            }
            Ok(())
        }
    }
}
