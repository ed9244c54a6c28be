//! `othbook top`: the most played lines of exactly N plies, from the start or from a given
//! line, with exact counts and results.

use super::common::{bad, diff_cell, json_num, open_book, percent_cells, OutputFormat};
use anyhow::Result;
use othbook::board::{format_moves, parse_moves, Color, Move, Position, Square};
use othbook::book::{RankBy, TopQuery};
use std::io::Write;
use std::path::PathBuf;

/// How to rank lines.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum By {
    /// Most games first.
    Games,
    /// Best score for black first (win 1, draw ½), then most games.
    Score,
}

/// `--min-games` when not given with `--by score`: a line of a handful of games scores 100%
/// by luck and would fill the list.
const SCORE_MIN_GAMES: u64 = 100;

/// Arguments of `othbook top`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Lines of the 4 symmetric first moves are counted together and shown \
starting with --first, or in the orientation of the moves given: `top d3 c3` lists the \
lines that start d3 c3. A line counts the games that played exactly its moves in its order; \
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
    let by = match args.by {
        By::Games => RankBy::Games,
        By::Score => RankBy::Score,
    };
    let min_games = args.min_games.unwrap_or(match args.by {
        By::Games => 1,
        By::Score => SCORE_MIN_GAMES,
    });
    let lines = book.top_lines(&TopQuery {
        start: &start,
        plies: args.plies,
        limit: args.limit,
        by,
        min_games,
        first,
    })?;
    let book_plies = usize::from(book.info().options.plies);
    match args.format {
        OutputFormat::Table => {
            if lines.is_empty() {
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
                writeln!(
                    out,
                    "No line of {} plies{from}{games} in the book (it holds lines up to \
                     {book_plies} plies).",
                    args.plies
                )?;
                return Ok(());
            }
            let width = (args.plies * 2).max(4);
            writeln!(
                out,
                "{:>4}  {:<width$}  {:>7}  black%  draw%  white%     avg",
                "#", "line", "games"
            )?;
            for (i, l) in lines.iter().enumerate() {
                let c = l.stats.for_side(Color::Black);
                let [b, d, w] = percent_cells(&c);
                writeln!(
                    out,
                    "{:>4}  {:<width$}  {:>7}  {b:>6} {d:>6} {w:>7} {:>7}",
                    i + 1,
                    format_moves(&l.moves),
                    l.stats.games(),
                    diff_cell(c.average_diff())
                )?;
            }
        }
        OutputFormat::Tsv => {
            writeln!(
                out,
                "line\tgames\tblack_wins\tdraws\twhite_wins\tunknown\taverage_diff"
            )?;
            for l in &lines {
                let s = &l.stats;
                writeln!(
                    out,
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    format_moves(&l.moves),
                    s.games(),
                    s.wins,
                    s.draws,
                    s.losses,
                    s.unknown,
                    json_num(s.average_diff())
                )?;
            }
        }
        OutputFormat::Json => {
            let items: Vec<String> = lines
                .iter()
                .map(|l| {
                    let s = &l.stats;
                    format!(
                        "{{\"line\":\"{}\",\"games\":{},\"black_wins\":{},\"draws\":{},\
                         \"white_wins\":{},\"unknown\":{},\"average_diff\":{}}}",
                        format_moves(&l.moves),
                        s.games(),
                        s.wins,
                        s.draws,
                        s.losses,
                        s.unknown,
                        json_num(s.average_diff())
                    )
                })
                .collect();
            writeln!(
                out,
                "{{\"plies\":{},\"lines\":[{}]}}",
                args.plies,
                items.join(",")
            )?;
        }
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
