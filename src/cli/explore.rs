//! `othbook explore`: a position's games and results, then every next move the book knows,
//! with the book's value of each move when the book is evaluated, and with `--depth` the
//! engine's score of every legal move beside what the games say.

use super::common::{
    bad, depth_arg, line_from_args, open_book, opening_along, threads_arg, write_json, OutputFormat,
};
use super::explore_history;
use super::explore_view;
use super::games_listing;
use super::query_filter::{
    book_label, book_ratings, describe, find_games, FilterArgs, RatingArgs, FILTER_NEEDS,
};
use anyhow::Result;
use othbook::board::Position;
use othbook::book::games::ratings::Ratings;
use othbook::book::games::{GameExcerpt, PositionGames};
use othbook::book::{Book, GameFilter, GameTable, GamesQuery, RatedChoice};
use othbook::engine::{Depth, EngineOptions, HashSize, ThreadCount};
use othbook::report::explore::{ExploreGames, ExploreQuery};
use othbook::report::history::{HistoryError, YearHistory};
use othbook::report::query::{GameOrder, RatingQuery};
use othbook::report::ratings::ExploreRatings;
use othbook::report::{ExploreReport, MoveScores};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

/// Arguments of `othbook explore`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Statistics merge transpositions and the 8 symmetries: any move order \
and any orientation of a position give the same numbers. Moves are shown in your orientation. \
The opening line names the deepest named opening along your moves (any orientation, any move \
order; `othbook openings` lists them); the opening column names the one each move reaches, \
where that position has a name.\n\n\
With --depth every legal move also gets the engine's score (black minus white, like the avg \
column), and moves the book does not list get rows of their own (0 games, or <N when the book \
leaves out moves played in fewer than N games): popular moves that search refutes and good \
ones nobody tried stand side by side.\n\n\
A book with values (evaluated books) adds a value column: each move's value negamaxed through \
the book, black minus white, with * on the best move for the side to move; the best move out \
of the book (the searched leaf) gets a row of its own when the book does not list it.\n\n\
--by-year counts how often each reply was played each year, from the book's games (a \
table of years by replies after the moves; in TSV a second table after a blank line; \
`history` in JSON).\n\n\
--games K lists the K most recent games that reached the position (in TSV a second table \
after a blank line, with the columns of `othbook games find --format tsv`). --player, --color, \
--years, --event and --complete-only count everything from the book's games that match, as a \
book built with those filters would (values stay the whole book's).\n\n\
Examples:\n  othbook explore f5\n  othbook explore f5 d6 --player murakami --years 2000-2010 --games 5\n  othbook explore f5 d6 c3 --format json\n  othbook explore f5 d6 --by-year\n  \
othbook explore f5 d6 c3 --depth 14\n  \
othbook explore --position \"---------------------------OX------XO--------------------------- X\""
)]
pub struct Args {
    /// Moves from the start (or from --position), e.g. `f5d6c3` or `f5 d6 c3`.
    moves: Vec<String>,
    /// Start from this position: 64 characters (X black, O white, - empty) then X or O.
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// The book (default: the default book: $OTHBOOK_BOOK, else books/wthor.book here, in the data folder or in the source tree).
    #[arg(long)]
    book: Option<PathBuf>,
    /// Also score every legal move with the engine searched this many plies deep (1-60;
    /// exact when the end of the game is within reach).
    #[arg(long)]
    depth: Option<u32>,
    /// Search threads for --depth (default: all cores).
    #[arg(long, requires = "depth")]
    threads: Option<usize>,
    /// List this many of the games that reached the position under the moves, most recent
    /// first (table and JSON).
    #[arg(long, value_name = "K")]
    games: Option<usize>,
    /// Also count each reply's games year by year, from the book's games (the filters
    /// apply): a table of years by replies, a second TSV table, or `history` in JSON.
    #[arg(long)]
    by_year: bool,
    #[command(flatten)]
    filter: FilterArgs,
    #[command(flatten)]
    rating: RatingArgs,
    /// Show each move's average rating (of the players who played it) and their rating
    /// performance with it, from ratings fitted from the book's games (reads every game
    /// that reached the position).
    #[arg(long)]
    ratings: bool,
    /// Output style.
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

/// Table size for `--depth`: the searches are short, and a small table is quick to set up.
const EVAL_HASH_MB: HashSize = HashSize::of(64);

/// The engine's score of every legal move of `pos` (`--depth`), with a spinner on a
/// terminal; `None` when the game is over.
fn score_moves(pos: &Position, depth: Depth, threads: ThreadCount) -> Result<Option<MoveScores>> {
    let lines = pos.board.legal_moves().count().max(1);
    // Scoring every move deeply can take a while: say how far it got (on a terminal).
    let spinner = if std::io::stderr().is_terminal() && !pos.board.is_game_over() {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_message(format!("scoring {lines} moves to depth {depth}"));
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let options = EngineOptions {
        threads,
        hash_mb: EVAL_HASH_MB,
    };
    let scores = MoveScores::search(pos, depth, options, None, |it| {
        spinner.set_message(format!(
            "scoring {lines} moves to depth {depth}: depth {} done, {} nodes, {:.1} s",
            it.depth,
            it.nodes,
            it.elapsed.as_secs_f64()
        ));
    })
    .map_err(|e| bad(e.to_string()))?;
    spinner.finish_and_clear();
    Ok(scores)
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let moves = (!args.moves.is_empty()).then(|| args.moves.join(" "));
    let (start, line, pos) = line_from_args(args.position.as_deref(), moves.as_deref())?;
    if args.position.is_none() && moves.as_deref().is_some_and(|m| m.trim().is_empty()) {
        return Err(bad("empty move string"));
    }
    let depth = depth_arg(args.depth)?;
    let threads = threads_arg(args.threads)?;
    let book = open_book(args.book.as_deref())?;
    let scores = match depth {
        Some(d) => score_moves(&pos, d, threads)?,
        None => None,
    };
    let filter = args.filter.filter()?;
    let choice = args.rating.choice()?;
    let rated = (args.ratings || choice.needs_ratings())
        .then(|| {
            let label = book_label(args.book.as_deref());
            book_ratings(&book, &label, "--ratings, --min-rating and --order rating")
        })
        .transpose()?;
    let found = position_games(
        &book,
        &args,
        filter.as_ref(),
        &pos,
        rated.as_ref().map(|(_, r)| (r, choice)),
    )?;
    let history = if args.by_year {
        Some(year_history(&book, &args, filter.as_ref(), &pos)?)
    } else {
        None
    };
    let mut report = ExploreReport::build(
        &book,
        ExploreQuery {
            pos: &pos,
            opening: opening_along(&start, &line),
            scores: scores.as_ref(),
            eval_asked: depth.is_some(),
            games: found.as_ref().map(|(found, table)| ExploreGames {
                filtered: filter.is_some() || choice.min.is_some(),
                found,
                listed: args
                    .games
                    .map(|k| games_listing::rows(table, &found.matches, k)),
            }),
        },
    )?;
    report.history = history;
    if let (true, Some((table, ratings)), Some((found, _))) = (args.ratings, &rated, &found) {
        let plies = usize::from(book.info().options.plies());
        report.ratings = Some(move_ratings(&report, found, plies, table, ratings)?);
    }
    match args.format {
        OutputFormat::Table => {
            explore_view::table(&report, out)?;
            if let Some(h) = &report.history {
                explore_history::table(h, out)?;
            }
            if let Some(f) = &filter {
                writeln!(out, "games: only those matching {}", describe(f))?;
            }
            Ok(())
        }
        OutputFormat::Tsv => {
            explore_view::tsv(&report, out)?;
            if let Some(h) = &report.history {
                writeln!(out)?;
                explore_history::tsv(h, out)?;
            }
            Ok(())
        }
        OutputFormat::Json => write_json(out, &report),
    }
}

/// `--by-year`: the replies to `pos` year by year from the book's games that `filter`
/// keeps; a book without games, or a name no game has, is bad input.
fn year_history(
    book: &Book,
    args: &Args,
    filter: Option<&GameFilter>,
    pos: &Position,
) -> Result<YearHistory> {
    YearHistory::of_book(book, &pos.board, filter).map_err(|e| match e {
        HistoryError::NoGames | HistoryError::Filter(_) => bad(format!(
            "--by-year: {}: {e}",
            book_label(args.book.as_deref())
        )),
        other => other.into(),
    })
}

/// Each move's average rating and performance, from the games `found` of `table`.
fn move_ratings(
    report: &ExploreReport,
    found: &PositionGames,
    plies: usize,
    table: &GameTable,
    ratings: &Ratings,
) -> Result<ExploreRatings> {
    ExploreRatings::of(&report.move_groups(), found, plies, ratings, |i| {
        table
            .games()
            .get(i)
            .copied()
            .ok_or_else(|| bad("a game index past the table"))
    })
}

/// The games of the book's table that reach `pos` (those `filter` and a rating floor
/// keep), with those `--games` lists read, in the order asked for; `None` when neither
/// `--games`, a filter nor ratings were asked for (the table is not read).
fn position_games(
    book: &Book,
    args: &Args,
    filter: Option<&GameFilter>,
    pos: &Position,
    rating: Option<(&Ratings, RatingQuery)>,
) -> Result<Option<(PositionGames, GameExcerpt)>> {
    if filter.is_none() && args.games.is_none() && rating.is_none() {
        return Ok(None);
    }
    let label = book_label(args.book.as_deref());
    let what = if filter.is_some() {
        FILTER_NEEDS
    } else {
        "--games"
    };
    let info = book.info();
    // The book counts the games' first `plies` plies, and leaves out rarer moves.
    let query = GamesQuery {
        board: &pos.board,
        max_ply: usize::from(info.options.plies()),
        filter,
        min_games: u64::from(info.options.min_games()),
        keep: Some(args.games.unwrap_or(0)),
        rated: rating.map(|(ratings, c)| RatedChoice {
            ratings,
            min: c.min,
            by_rating: c.order == GameOrder::Rating,
        }),
        every_game: args.ratings,
    };
    find_games(book, &label, what, &query).map(Some)
}
