//! `othbook info`: a book's header, counts, sources and build options (checks every byte).

use super::common::{json_str, OutputFormat};
use anyhow::Result;
use othbook::book::{Book, PlayerColor};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `othbook info`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  othbook info books/wthor.book")]
pub struct Args {
    /// The book file.
    file: PathBuf,
    /// Output style.
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let book = Book::open(&args.file)?;
    let info = book.info();
    let (positions, moves, nodes) = book.counts();
    let o = &info.options;
    let f = &o.filter;
    let color = match f.player_color {
        PlayerColor::Either => "either",
        PlayerColor::Black => "black",
        PlayerColor::White => "white",
    };
    let years = f.years.map(|(a, b)| format!("{a}-{b}"));
    let values = values_of(&book)?;
    // Games and distinct names of the game table (read, so checked).
    let table = book.games()?.map(|t| (t.len(), t.name_counts()));
    match args.format {
        OutputFormat::Table | OutputFormat::Tsv => {
            let tsv = args.format == OutputFormat::Tsv;
            let mut row = |k: &str, v: String| -> std::io::Result<()> {
                if tsv {
                    writeln!(out, "{k}\t{v}")
                } else {
                    writeln!(out, "{k:<14} {v}")
                }
            };
            row("file", args.file.display().to_string())?;
            row(
                "format",
                format!("othbook book, version {}", book.version()),
            )?;
            row("bytes", book.file_len().to_string())?;
            row("created", othbook::utc::iso8601(info.created))?;
            row("games", info.games.to_string())?;
            row("positions", positions.to_string())?;
            row("moves", moves.to_string())?;
            row("trie nodes", nodes.to_string())?;
            row("plies", o.plies.to_string())?;
            row("min games", o.min_games.to_string())?;
            row(
                "player",
                f.player
                    .clone()
                    .map_or("-".into(), |p| format!("{p} (as {color})")),
            )?;
            row("years", years.unwrap_or_else(|| "-".into()))?;
            row("event", f.event.clone().unwrap_or_else(|| "-".into()))?;
            row("complete only", f.complete_only.to_string())?;
            row(
                "values",
                match &values {
                    Some(v) => format!(
                        "leaf depth {}, exact from {} empties; {} positions with a value, {} \
                         leaves missing, {} added by deviation",
                        v.depth, v.exact_from, v.valued, v.missing, v.added
                    ),
                    None => "none (othbook book evaluate adds them)".into(),
                },
            )?;
            row(
                "game table",
                match &table {
                    Some((games, names)) => format!(
                        "{games} games, {} players, {} events",
                        names.players.len(),
                        names.events.len()
                    ),
                    None => {
                        "none (an older or imported book; othbook book add-games adds it)".into()
                    }
                },
            )?;
            for s in &info.sources {
                row(
                    "source",
                    format!(
                        "{} ({} games accepted, {} used)",
                        s.name, s.games_read, s.games_used
                    ),
                )?;
            }
        }
        OutputFormat::Json => {
            let sources: Vec<String> = info
                .sources
                .iter()
                .map(|s| {
                    format!(
                        "{{\"name\":{},\"games_read\":{},\"games_used\":{}}}",
                        json_str(&s.name),
                        s.games_read,
                        s.games_used
                    )
                })
                .collect();
            let opt = |v: Option<String>| v.map_or("null".into(), |s| json_str(&s));
            writeln!(
                out,
                "{{\"file\":{},\"version\":{},\"bytes\":{},\"created\":{},\"created_utc\":\"{}\",\
                 \"games\":{},\
                 \"positions\":{positions},\"moves\":{moves},\"trie_nodes\":{nodes},\
                 \"options\":{{\"plies\":{},\"min_games\":{},\"player\":{},\"player_color\":\"{color}\",\
                 \"years\":{},\"event\":{},\"complete_only\":{}}},\"values\":{},\"game_table\":{},\"sources\":[{}]}}",
                json_str(&args.file.display().to_string()),
                book.version(),
                book.file_len(),
                info.created,
                othbook::utc::iso8601(info.created),
                info.games,
                o.plies,
                o.min_games,
                opt(f.player.clone()),
                opt(years),
                opt(f.event.clone()),
                f.complete_only,
                values.map_or("null".into(), |v| format!(
                    "{{\"depth\":{},\"exact_from\":{},\"valued\":{},\"missing\":{},\"added\":{}}}",
                    v.depth, v.exact_from, v.valued, v.missing, v.added
                )),
                table.map_or("null".into(), |(games, names)| format!(
                    "{{\"games\":{games},\"players\":{},\"events\":{}}}",
                    names.players.len(),
                    names.events.len()
                )),
                sources.join(",")
            )?;
        }
    }
    Ok(())
}

/// What `info` says of a book's values.
struct Values {
    depth: u8,
    exact_from: u8,
    valued: usize,
    missing: usize,
    added: usize,
}

fn values_of(book: &Book) -> Result<Option<Values>> {
    let Some(e) = book.info().evaluation else {
        return Ok(None);
    };
    let data = book.to_data()?;
    let count = |f: &dyn Fn(&othbook::book::PosEval) -> bool| {
        data.positions.iter().filter(|p| f(&p.eval)).count()
    };
    Ok(Some(Values {
        depth: e.depth,
        exact_from: e.exact_from,
        valued: count(&|e| e.value.is_some()),
        missing: count(&|e| !e.leaf.is_known()),
        added: count(&|e| e.added),
    }))
}
