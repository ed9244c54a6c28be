//! `othbook games find`: the games of a book that reach a position (any orientation, any
//! move order), most recent first, with the move each played there in the caller's
//! orientation; listed, or written out in a game format.

use super::common::{bad, line_from_args, open_book, opening_along, write_opening, OutputFormat};
use super::games_listing;
use super::output_path::{claim, Claimed, Output, WTHOR};
use super::query_filter::{book_label, book_ratings, find_games, FilterArgs, RatingArgs};
use anyhow::{Context, Result};
use othbook::book::games::GameSource;
use othbook::book::{GamesQuery, RatedChoice};
use othbook::report::games_list::FindReport;
use othbook::report::query::GameOrder;
use othbook::transcript::write::{write_file, write_text, WRITABLE};
use othbook::transcript::Format;
use std::io::Write;
use std::path::PathBuf;

/// Games listed when `--limit` is not given (exports write every game).
const DEFAULT_LIMIT: usize = 20;

/// Arguments of `othbook games find`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Every game that reached the position in its first 120 plies counts, \
whatever the orientation or move order; `next` is the move the game played there, turned into \
the orientation of the moves given. Filters select games as `build` does, without rebuilding \
the book.\n\nExamples:\n  othbook games find f5d6c3\n  othbook games find f5 f6 e6 f4 --player \
tamenori --years 1990-2000\n  othbook games find f5d6c3d3c4 --to pgn -o tiger.pgn\n  \
othbook games find --position \"---------------------------OX------XO--------------------------- X\" --limit 5"
)]
pub struct Args {
    /// Moves from the start (or from --position), e.g. `f5d6c3` or `f5 d6 c3`.
    moves: Vec<String>,
    /// The position: 64 characters (X black, O white, - empty) then X or O.
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// The book (default: the default book: $OTHBOOK_BOOK, else books/wthor.book here, in the data folder or in the source tree).
    #[arg(long)]
    book: Option<PathBuf>,
    /// Games listed, most recent first (0: all) [default: 20; with --to, all].
    #[arg(long)]
    limit: Option<usize>,
    #[command(flatten)]
    filter: FilterArgs,
    #[command(flatten)]
    rating: RatingArgs,
    /// Write the games in this format instead of listing them: pgn, ggf, gam, moves or wtb.
    #[arg(long)]
    to: Option<Format>,
    /// The file for --to (`-` or none: standard output, text formats only). A file is
    /// written whole or not at all (for wtb, with WTHOR.JOU and WTHOR.TRN) and locked while
    /// the command runs: a second othbook writing it stops at once with exit code 75.
    #[arg(short, long, requires = "to")]
    output: Option<Output>,
    /// Output style of the list.
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let moves = (!args.moves.is_empty()).then(|| args.moves.join(" "));
    if args.position.is_none() && moves.as_deref().is_some_and(|m| m.trim().is_empty()) {
        return Err(bad("empty move string"));
    }
    let (start, line, pos) = line_from_args(args.position.as_deref(), moves.as_deref())?;
    if let Some(to) = args.to {
        if !WRITABLE.contains(&to) {
            return Err(bad(format!("--to {to}: use pgn, ggf, gam, moves or wtb")));
        }
    }
    let output = args.output.unwrap_or(Output::Stdout);
    if args.to == Some(Format::Wthor) {
        output.require_file("-o", WTHOR)?;
    }
    if let Some(file) = output.file() {
        let book = args
            .book
            .clone()
            .unwrap_or_else(othbook::book::default_path);
        super::common::distinct_files(&[book], &[file])?;
    }
    let claimed = output.file().map(claim).transpose()?;
    let filter = args.filter.filter()?;
    let choice = args.rating.choice()?;
    let book = open_book(args.book.as_deref())?;
    let label = book_label(args.book.as_deref());
    let ratings = choice
        .needs_ratings()
        .then(|| book_ratings(&book, &label, "--min-rating and --order rating"))
        .transpose()?
        .map(|(_, r)| r);
    let limit = match args.limit {
        Some(0) => usize::MAX,
        Some(n) => n,
        None if args.to.is_some() => usize::MAX,
        None => DEFAULT_LIMIT,
    };
    let query = GamesQuery {
        board: &pos.board,
        max_ply: usize::MAX,
        filter: filter.as_ref(),
        min_games: 1,
        keep: Some(limit),
        rated: ratings.as_ref().map(|r| RatedChoice {
            ratings: r,
            min: choice.min,
            by_rating: choice.order == GameOrder::Rating,
        }),
        every_game: false,
    };
    let (found, table) = find_games(&book, &label, "`games find`", &query)?;
    if let Some(to) = args.to {
        let games: Vec<_> = found
            .matches
            .iter()
            .take(limit)
            .filter_map(|m| table.record(m.game))
            .collect();
        return export(&games, to, claimed.as_ref().map(Claimed::path), out);
    }
    let report = FindReport::build(&table, &found, &pos, limit, opening_along(&start, &line));
    match args.format {
        OutputFormat::Json => super::common::write_json(out, &report)?,
        OutputFormat::Tsv => games_listing::write_tsv(out, &report.games)?,
        OutputFormat::Table => {
            let by_rating = choice.order == GameOrder::Rating;
            table_view(
                out,
                &report,
                filter.is_some() || choice.min.is_some(),
                by_rating,
            )?;
        }
    }
    Ok(())
}

fn table_view(out: &mut impl Write, r: &FindReport, filtered: bool, by_rating: bool) -> Result<()> {
    let matching = if filtered {
        " matching the filters"
    } else {
        ""
    };
    if r.total == 0 {
        writeln!(out, "No game{matching} reaches this position.")?;
        return Ok(());
    }
    let known = u64::from(r.black_wins + r.draws + r.white_wins).max(1) as f64;
    let pct = |n: u32| 100.0 * f64::from(n) / known;
    writeln!(
        out,
        "{} game{}{matching} reach this position ({} to move): black {:.1}%  draw {:.1}%  \
         white {:.1}%{}",
        r.total,
        if r.total == 1 { "" } else { "s" },
        r.side,
        pct(r.black_wins),
        pct(r.draws),
        pct(r.white_wins),
        if r.unknown > 0 {
            format!(", {} without result", r.unknown)
        } else {
            String::new()
        }
    )?;
    write_opening(out, r.opening.as_ref())?;
    writeln!(out)?;
    games_listing::write_table(out, &r.games)?;
    if r.games.len() < r.total {
        writeln!(
            out,
            "... and {} {} games (--limit 0 lists all)",
            r.total - r.games.len(),
            if by_rating { "lower-rated" } else { "older" }
        )?;
    }
    Ok(())
}

/// Writes the games in format `to` to `path` (standard output for none).
fn export(
    games: &[othbook::transcript::GameRecord],
    to: Format,
    path: Option<&std::path::Path>,
    out: &mut impl Write,
) -> Result<()> {
    let report = match path {
        Some(p) => {
            let r = write_file(games, to, p).with_context(|| format!("writing {}", p.display()))?;
            eprintln!("{} games written to {}", r.written, p.display());
            r
        }
        None => write_text(games, to, out)?,
    };
    for (src, why) in report.skipped.iter().take(5) {
        eprintln!("left out {src}: {why}");
    }
    for note in &report.notes {
        eprintln!("note: {note}");
    }
    Ok(())
}
