//! `othbook top`: the most played lines of exactly N plies, from the start or from a given
//! line, with exact counts and results (and, in an evaluated book, the value each line
//! reaches; `--by value` ranks by it).

use super::common::{bad, diff_cell, open_book, percent_cells, tsv_num, write_json, OutputFormat};
use super::explore_view::tsv_value_cells;
use super::query_filter::{book_games, book_label, describe, selection, FilterArgs, FILTER_NEEDS};
use anyhow::Result;
use othbook::board::{format_moves, parse_moves, Move, Position, Square};
use othbook::book::trust::percent_text;
use othbook::book::{RankBy, TopQuery};
use othbook::openings::Openings;
use othbook::report::top::{FilteredGames, GamesFilter};
use othbook::report::TopReport;
use std::io::Write;
use std::path::PathBuf;

/// How to rank lines.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum By {
    /// Most games first.
    Games,
    /// Best score for black first (win 1, draw ½), then most games.
    Score,
    /// Best value for black first of the position each line reaches (a book with values),
    /// then most games.
    Value,
}

/// `--min-games` when not given with `--by score`: a line of a handful of games scores 100%
/// by luck and would fill the list.
const SCORE_MIN_GAMES: u64 = 100;

/// Arguments of `othbook top`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Lines of the 4 symmetric first moves are counted together and shown \
starting with --first, or in the orientation of the moves given: `top d3 c3` lists the \
lines that start d3 c3. In a book with values, a value column gives the value of the \
position each line reaches (black minus white), and --by value ranks the lines by it. A line counts the games that played exactly its moves in its order; \
`explore` merges every move order that reaches the same position, so its counts can be \
higher (after f5 d6 c3 d3 c4 f4 it also counts f5 d6 c4 d3 c3 f4). The opening column names \
the deepest named opening along each line (`othbook openings` lists them).\n\nExamples:\n  othbook top --plies 10 --first d3\n  othbook top f5 d6 --plies 8\n  \
othbook top --plies 6 --limit 5 --by score --format tsv"
)]
pub struct Args {
    /// Only lines that start with these moves (any orientation), e.g. `f5d6` or `f5 d6`.
    moves: Vec<String>,
    /// The book (default: the default book: $OTHBOOK_BOOK, else books/wthor.book here, in the data folder or in the source tree).
    #[arg(long)]
    book: Option<PathBuf>,
    /// Length of the lines, in plies (passes count), the starting moves included.
    #[arg(long, default_value_t = 10)]
    plies: usize,
    /// Leave out lines followed by fewer games [default: 100 with --by score, else 1].
    #[arg(long)]
    min_games: Option<u64>,
    /// How many lines to show.
    #[arg(long, default_value_t = 20)]
    limit: usize,
    /// Ranking.
    #[arg(long, value_enum, default_value = "games")]
    by: By,
    /// First move of the lines shown: d3, c4, e6 or f5 [default: f5; with moves, their first].
    #[arg(long, conflicts_with = "moves")]
    first: Option<String>,
    #[command(flatten)]
    filter: FilterArgs,
    /// Output style.
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

/// `--first`: the orientation of the lines (default f5).
fn first_arg(first: Option<&str>) -> Result<Square> {
    match first.unwrap_or("f5").to_ascii_lowercase().as_str() {
        "d3" => Ok(Square::D3),
        "c4" => Ok(Square::C4),
        "e6" => Ok(Square::E6),
        "f5" => Ok(Square::F5),
        other => Err(bad(format!("--first {other}: use d3, c4, e6 or f5"))),
    }
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let first = first_arg(args.first.as_deref())?;
    if args.limit == 0 {
        return Err(bad("--limit 0 shows nothing: use 1 or more"));
    }
    if args.plies == 0 || args.plies > 120 {
        return Err(bad(format!("--plies {}: use 1 to 120", args.plies)));
    }
    let start = start_line(&args.moves)?;
    if start.len() >= args.plies {
        return Err(bad(format!(
            "the moves given are {} plies long: --plies must be more (it counts them too)",
            start.len()
        )));
    }
    let book = open_book(args.book.as_deref())?;
    if matches!(args.by, By::Value) && !book.has_values() {
        return Err(bad(
            "--by value needs a book with values (from `othbook book evaluate`, or an \
             imported Edax or Egaroucid book); this book has none",
        ));
    }
    let min_games = args.min_games.unwrap_or(match args.by {
        By::Games | By::Value => 1,
        By::Score => SCORE_MIN_GAMES,
    });
    let query = TopQuery {
        start: &start,
        plies: args.plies,
        limit: args.limit,
        by: match args.by {
            By::Games | By::Value => RankBy::Games,
            By::Score => RankBy::Score,
        },
        min_games,
        first,
    };
    let filter = args.filter.filter()?;
    // Through the book's index of its games when it has one: only the filter's games are read.
    let indexed = match &filter {
        Some(_) => book.indexed_games()?,
        None => None,
    };
    let whole = match (&filter, &indexed) {
        (Some(_), None) => Some(book_games(
            &book,
            &book_label(args.book.as_deref()),
            FILTER_NEEDS,
        )?),
        _ => None,
    };
    let games = match (&filter, &indexed, &whole) {
        (Some(f), Some(g), _) => {
            let chosen = g.selection(f)?.map_err(|e| bad(e.to_string()))?;
            Some((FilteredGames::Indexed(g), chosen))
        }
        (Some(f), None, Some(t)) => Some((FilteredGames::Table(t), selection(f, t)?)),
        _ => None,
    };
    let report = TopReport::build(
        &book,
        &query,
        matches!(args.by, By::Value),
        Openings::standard(),
        games.as_ref().map(|(games, selection)| GamesFilter {
            games: *games,
            selection,
        }),
    )?;
    match args.format {
        OutputFormat::Table if report.lines.is_empty() => {
            no_line(&args, &start, min_games, report.book_plies, out)
        }
        OutputFormat::Table => {
            table(&report, out)?;
            if let Some(f) = &filter {
                writeln!(out, "games: only those matching {}", describe(f))?;
            }
            Ok(())
        }
        OutputFormat::Tsv => tsv(&report, out),
        OutputFormat::Json => write_json(out, &report),
    }
}

/// The table's answer when no line matches: what was asked, and how deep the book goes.
fn no_line(
    args: &Args,
    start: &[Move],
    min_games: u64,
    book_plies: u8,
    out: &mut impl Write,
) -> Result<()> {
    let from = if start.is_empty() {
        String::new()
    } else {
        format!(" starting {}", format_moves(start))
    };
    let games = if min_games > 1 {
        format!(" of {min_games} games or more")
    } else {
        String::new()
    };
    let valued = if matches!(args.by, By::Value) {
        " with a value"
    } else {
        ""
    };
    writeln!(
        out,
        "No line of {} plies{from}{games}{valued} in the book (it holds lines up to {} \
         plies).",
        args.plies, book_plies
    )?;
    Ok(())
}

/// A line's opening name, or a dash.
fn name(l: &othbook::report::TopLine) -> &str {
    l.opening.as_ref().map_or("-", |o| o.name.as_str())
}

/// The columns of `--format tsv` for a line's games (then the value columns in a book with
/// values, then the opening: last, so that the columns before it keep their places).
const FIELDS: [&str; 7] = [
    "line",
    "games",
    "black_wins",
    "draws",
    "white_wins",
    "unknown",
    "average_diff",
];

fn table(r: &TopReport, out: &mut impl Write) -> Result<()> {
    let width = (r.plies * 2).max(4);
    // The opening after the line (the last column stays the games' and values').
    let named = r
        .lines
        .iter()
        .map(|l| name(l).chars().count())
        .max()
        .unwrap_or(0)
        .max(7);
    let value_head = if r.book_has_values {
        "         value  black wins"
    } else {
        ""
    };
    writeln!(
        out,
        "{:>4}  {:<width$}  {:<named$}  {:>7}  black%  draw%  white%     avg{value_head}",
        "#", "line", "opening", "games"
    )?;
    for (i, l) in r.lines.iter().enumerate() {
        let [b, d, w] = percent_cells(&l.results);
        let value = match &l.value {
            None => String::new(),
            Some(v) => format!(
                " {:>13} {:>11}",
                v.text_with_error().unwrap_or_else(|| "-".into()),
                v.win.map_or_else(|| "-".into(), percent_text)
            ),
        };
        writeln!(
            out,
            "{:>4}  {:<width$}  {:<named$}  {:>7}  {b:>6} {d:>6} {w:>7} {:>7}{value}",
            i + 1,
            format_moves(&l.line),
            name(l),
            l.results.games,
            diff_cell(l.results.average_diff)
        )?;
    }
    if r.book_has_values {
        writeln!(
            out,
            "value: of the position each line reaches, black - white; ±: its expected error \
             (RMS, discs); black wins: black's chance to win from there (docs/values.md)"
        )?;
    }
    writeln!(
        out,
        "opening: the deepest named opening along the line (any orientation, any move order)"
    )?;
    Ok(())
}

fn tsv(r: &TopReport, out: &mut impl Write) -> Result<()> {
    writeln!(
        out,
        "{}{}",
        FIELDS.join("\t"),
        if r.book_has_values {
            "\tvalue\tvalue_depth\tvalue_kind\terror\twin\tdraw\tloss\topening"
        } else {
            "\topening"
        }
    )?;
    for l in &r.lines {
        let s = &l.results;
        let value = l.value.as_ref().map(tsv_value_cells).unwrap_or_default();
        // An empty cell for a line along no named opening (the built-in names hold no tab).
        let opening = l.opening.as_ref().map_or("", |o| o.name.as_str());
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}{value}\t{opening}",
            format_moves(&l.line),
            s.games,
            s.black_wins,
            s.draws,
            s.white_wins,
            s.unknown,
            tsv_num(s.average_diff),
        )?;
    }
    Ok(())
}

/// The moves `top` starts from (passes the input left out included, as the trie stores them).
fn start_line(words: &[String]) -> Result<Vec<Move>> {
    if words.is_empty() {
        return Ok(Vec::new());
    }
    let text = words.join(" ");
    let list = parse_moves(&text).map_err(|e| bad(format!("invalid moves {text:?}: {e}")))?;
    let replay = Position::START
        .replay(list)
        .map_err(|e| bad(format!("moves {text:?}: {e}")))?;
    Ok(replay.moves)
}
