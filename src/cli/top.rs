//! `othbook top`: the most played lines of exactly N plies, from the start or from a given
//! line, with exact counts and results (and, in an evaluated book, the value each line
//! reaches; `--by value` ranks by it).

use super::book_values::{self, value_text};
use super::common::{bad, diff_cell, json_num, open_book, percent_cells, OutputFormat};
use super::query_filter::{book_games, book_label, describe, selection, FilterArgs, FILTER_NEEDS};
use anyhow::Result;
use othbook::board::{format_moves, parse_moves, Color, Move, Position, Square};
use othbook::book::{Book, Line, RankBy, Score, TopQuery};
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
higher (after f5 d6 c3 d3 c4 f4 it also counts f5 d6 c4 d3 c3 f4).\n\nExamples:\n  othbook top --plies 10 --first d3\n  othbook top f5 d6 --plies 8\n  \
othbook top --plies 6 --limit 5 --by score --format tsv"
)]
pub struct Args {
    /// Only lines that start with these moves (any orientation), e.g. `f5d6` or `f5 d6`.
    moves: Vec<String>,
    /// The book (default: books/wthor.book).
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

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let first = match args
        .first
        .as_deref()
        .unwrap_or("f5")
        .to_ascii_lowercase()
        .as_str()
    {
        "d3" => Square::D3,
        "c4" => Square::C4,
        "e6" => Square::E6,
        "f5" => Square::F5,
        other => return Err(bad(format!("--first {other}: use d3, c4, e6 or f5"))),
    };
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
            "--by value needs a book with values (format version 2, from `othbook book \
             evaluate`); this book has none",
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
    let by_value = matches!(args.by, By::Value);
    let filter = args.filter.filter()?;
    let rows = match &filter {
        Some(filter) => filtered_rows(&book, &args, filter, &query, by_value)?,
        None => rows(&book, &query, by_value)?,
    };
    let report = Report {
        plies: args.plies,
        rows,
        with_values: book.has_values(),
    };
    match args.format {
        OutputFormat::Table if report.rows.is_empty() => {
            let from = if start.is_empty() {
                String::new()
            } else {
                format!(" starting {}", format_moves(&start))
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
                "No line of {} plies{from}{games}{valued} in the book (it holds lines up to \
                 {} plies).",
                args.plies,
                book.info().options.plies
            )?;
            Ok(())
        }
        OutputFormat::Table => {
            report.table(out)?;
            if let Some(f) = &filter {
                writeln!(out, "games: only those matching {}", describe(f))?;
            }
            Ok(())
        }
        OutputFormat::Tsv => report.tsv(out),
        OutputFormat::Json => report.json(out),
    }
}

/// The lines `query` asks for with the value each reaches for black (in a book with values):
/// ranked by value when `by_value`, else as `query.by` says.
fn rows(book: &Book, query: &TopQuery<'_>, by_value: bool) -> Result<Vec<(Line, Option<Score>)>> {
    if by_value {
        let lines = book.top_lines_by_value(query)?;
        return Ok(lines
            .into_iter()
            .map(|v| (v.line, Some(v.black_value)))
            .collect());
    }
    valued(book, book.top_lines(query)?)
}

/// Each line with the value of the position it reaches for black (in a book with values).
fn valued(book: &Book, lines: Vec<Line>) -> Result<Vec<(Line, Option<Score>)>> {
    let mut rows = Vec::with_capacity(lines.len());
    for line in lines {
        let value = if book.has_values() {
            book.try_line_value(&line.moves)?
        } else {
            None
        };
        rows.push((line, value));
    }
    Ok(rows)
}

/// [`rows`] counted from the book's games that pass `filter` (within the book's depth).
fn filtered_rows(
    book: &Book,
    args: &Args,
    filter: &othbook::book::GameFilter,
    query: &TopQuery<'_>,
    by_value: bool,
) -> Result<Vec<(Line, Option<Score>)>> {
    let label = book_label(args.book.as_deref());
    let table = book_games(book, &label, FILTER_NEEDS)?;
    let chosen = selection(filter, &table)?;
    let info = book.info();
    let depth = usize::from(info.options.plies);
    // The book leaves out lines of fewer games than its min_games: so do its filtered lines.
    let query = &TopQuery {
        min_games: query.min_games.max(u64::from(info.options.min_games)),
        ..*query
    };
    if by_value {
        let all = TopQuery {
            limit: usize::MAX,
            by: RankBy::Games,
            ..*query
        };
        let lines = table.top_lines(&all, depth, Some(&chosen));
        return Ok(book
            .best_valued(lines, query.limit)?
            .into_iter()
            .map(|v| (v.line, Some(v.black_value)))
            .collect());
    }
    valued(book, table.top_lines(query, depth, Some(&chosen)))
}

/// The columns of `--format tsv` and the fields of `--format json` for a line's games, as
/// [`line_cells`] gives them.
const FIELDS: [&str; 7] = [
    "line",
    "games",
    "black_wins",
    "draws",
    "white_wins",
    "unknown",
    "average_diff",
];

/// A line's moves and games (from black's view), in the order of [`FIELDS`].
fn line_cells(l: &Line) -> [String; 7] {
    let s = &l.stats;
    [
        format_moves(&l.moves),
        s.games().to_string(),
        s.wins.to_string(),
        s.draws.to_string(),
        s.losses.to_string(),
        s.unknown.to_string(),
        json_num(s.average_diff()),
    ]
}

/// What one `top` prints: lines with their games (from black's view) and values.
struct Report {
    plies: usize,
    rows: Vec<(Line, Option<Score>)>,
    /// The book has values: the value column is shown.
    with_values: bool,
}

impl Report {
    fn table(&self, out: &mut impl Write) -> Result<()> {
        let width = (self.plies * 2).max(4);
        let value_head = if self.with_values { "    value" } else { "" };
        writeln!(
            out,
            "{:>4}  {:<width$}  {:>7}  black%  draw%  white%     avg{value_head}",
            "#", "line", "games"
        )?;
        for (i, (l, value)) in self.rows.iter().enumerate() {
            let c = l.stats.for_side(Color::Black);
            let [b, d, w] = percent_cells(&c);
            let value = match (self.with_values, value) {
                (false, _) => String::new(),
                (true, Some(v)) => format!(" {:>8}", value_text(*v)),
                (true, None) => format!(" {:>8}", "-"),
            };
            writeln!(
                out,
                "{:>4}  {:<width$}  {:>7}  {b:>6} {d:>6} {w:>7} {:>7}{value}",
                i + 1,
                format_moves(&l.moves),
                l.stats.games(),
                diff_cell(c.average_diff())
            )?;
        }
        if self.with_values {
            writeln!(
                out,
                "value: of the position each line reaches, black - white"
            )?;
        }
        Ok(())
    }

    fn tsv(&self, out: &mut impl Write) -> Result<()> {
        writeln!(
            out,
            "{}{}",
            FIELDS.join("\t"),
            if self.with_values {
                "\tvalue\tvalue_depth\tvalue_kind"
            } else {
                ""
            }
        )?;
        for (l, value) in &self.rows {
            let cells = line_cells(l);
            let value = if self.with_values {
                book_values::tsv_cells(*value)
            } else {
                String::new()
            };
            writeln!(out, "{}{value}", cells.join("\t"))?;
        }
        Ok(())
    }

    fn json(&self, out: &mut impl Write) -> Result<()> {
        let items: Vec<String> = self
            .rows
            .iter()
            .map(|(l, value)| {
                // The line is a string, the rest numbers.
                let fields: Vec<String> = FIELDS
                    .iter()
                    .zip(line_cells(l))
                    .map(|(name, v)| match *name {
                        "line" => format!("\"{name}\":\"{v}\""),
                        _ => format!("\"{name}\":{v}"),
                    })
                    .collect();
                let value = if self.with_values {
                    book_values::json_fields(*value)
                } else {
                    String::new()
                };
                format!("{{{}{value}}}", fields.join(","))
            })
            .collect();
        writeln!(
            out,
            "{{\"plies\":{},\"lines\":[{}]}}",
            self.plies,
            items.join(",")
        )?;
        Ok(())
    }
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
