//! Query-time game filters (`--player`, `--color`, `--years`, `--event`, `--complete-only`)
//! shared by `explore`, `top` and `games find`, and reading a book's game table for them:
//! through the book's index of its games when it has one, else the whole table.

use super::build::Side;
use super::common::bad;
use anyhow::Result;
use othbook::book::games::ratings::{RatingParams, Ratings};
use othbook::book::games::{GameExcerpt, GameSelection, PositionGames};
use othbook::book::{Book, FindGamesError, GameFilter, GameTable, GamesQuery, PlayerColor};
use othbook::report::query::{game_filter, FilterText, QueryError, RatingQuery};

/// The filter options of a query.
#[derive(clap::Args, Debug, Default)]
pub struct FilterArgs {
    /// Only games of a player whose name contains this text (case and accents ignored);
    /// the statistics are then counted from the book's games that match.
    #[arg(long)]
    pub player: Option<String>,
    /// The side --player must have had.
    #[arg(long, value_enum, requires = "player")]
    pub color: Option<Side>,
    /// Only games of these years: `1990-2000` or `1995`.
    #[arg(long)]
    pub years: Option<String>,
    /// Only games of an event whose name contains this text (case and accents ignored).
    #[arg(long)]
    pub event: Option<String>,
    /// Only games played to the end.
    #[arg(long)]
    pub complete_only: bool,
}

impl FilterArgs {
    /// The filter, or `None` when no option was given.
    pub fn filter(&self) -> Result<Option<GameFilter>> {
        let text = FilterText {
            player: self.player.as_deref(),
            color: self.color.map(|side| match side {
                Side::Either => PlayerColor::Either,
                Side::Black => PlayerColor::Black,
                Side::White => PlayerColor::White,
            }),
            years: self.years.as_deref(),
            event: self.event.as_deref(),
            complete_only: self.complete_only,
        };
        game_filter(&text).map_err(|e| match e {
            QueryError::Years { .. } => bad(format!("--years {e}")),
            e => bad(format!("--{}: {}", e.param(), e.reason())),
        })
    }
}

/// The filter in the words of its options: `--player "tamenori" --color white --years 1990-2000`.
pub fn describe(f: &GameFilter) -> String {
    let mut parts = Vec::new();
    if let Some(p) = f.player() {
        parts.push(format!("--player {p:?}"));
        match f.player_color() {
            PlayerColor::Black => parts.push("--color black".into()),
            PlayerColor::White => parts.push("--color white".into()),
            PlayerColor::Either => {}
        }
    }
    if let Some((a, b)) = f.years().map(othbook::book::Years::bounds) {
        parts.push(if a == b {
            format!("--years {a}")
        } else {
            format!("--years {a}-{b}")
        });
    }
    if let Some(e) = f.event() {
        parts.push(format!("--event {e:?}"));
    }
    if f.complete_only() {
        parts.push("--complete-only".into());
    }
    parts.join(" ")
}

/// What needs the game table when a filter is given (for [`book_games`]'s error).
pub const FILTER_NEEDS: &str = "a filter (--player, --years, --event, --complete-only)";

/// The book a query reads, as its errors name it: `--book`, else the default book.
pub fn book_label(book: Option<&std::path::Path>) -> String {
    book.map_or_else(othbook::book::default_path, std::path::Path::to_path_buf)
        .display()
        .to_string()
}

/// The book's game table, or a clear error for a book without one.
pub fn book_games(book: &Book, path: &str, needed_for: &str) -> Result<GameTable> {
    book.games()?.ok_or_else(|| no_game_table(path, needed_for))
}

/// The error for a book without a game table that `needed_for` needs.
fn no_game_table(path: &str, needed_for: &str) -> anyhow::Error {
    bad(format!(
        "{path} has no table of its games (it was written before book format version 3, \
         or imported from another program) and {needed_for} needs one: build the book \
         again, or add its games with `othbook book add-games`"
    ))
}

/// `filter` ready for `table`; an unknown name is bad input (exit code 2) naming the
/// closest names.
pub fn selection(filter: &GameFilter, table: &GameTable) -> Result<GameSelection> {
    GameSelection::new(filter, table).map_err(|e| bad(e.to_string()))
}

/// The rating options of a query that lists games (`explore`, `games find`).
#[derive(clap::Args, Debug, Default)]
pub struct RatingArgs {
    /// Only games whose two players are both rated at least this (ratings fitted from the
    /// book's games: `games players --sort rating`); the statistics count those games only.
    #[arg(long, value_name = "R")]
    pub min_rating: Option<String>,
    /// Order of the games listed: recent (most recent first) or rating (highest average
    /// rating of the two players first: the top games).
    #[arg(long, default_value = "recent")]
    pub order: String,
}

impl RatingArgs {
    /// The floor and order, checked (bad input names the option).
    pub fn choice(&self) -> Result<RatingQuery> {
        RatingQuery::parse(self.min_rating.as_deref(), Some(&self.order))
            .map_err(|e| bad(format!("--{}: {}", e.param().replace('_', "-"), e)))
    }
}

/// The game table of `book` (named `path` in errors) and the ratings fitted from all its
/// games.
pub fn book_ratings(book: &Book, path: &str, needed_for: &str) -> Result<(GameTable, Ratings)> {
    let table = book_games(book, path, needed_for)?;
    let ratings = Ratings::of_table(&table, |_| true, RatingParams::default());
    Ok((table, ratings))
}

/// The games of `book` (named `path` in errors) that `q` asks for ([`Book::find_games`]),
/// with the first `q.keep` of them read. `needed_for` names what needs the games, for a
/// book without them; an unknown player or event is bad input (exit code 2).
pub fn find_games(
    book: &Book,
    path: &str,
    needed_for: &str,
    q: &GamesQuery<'_>,
) -> Result<(PositionGames, GameExcerpt)> {
    match book.find_games(None, q) {
        Ok(found) => Ok((found.games, found.excerpt)),
        Err(FindGamesError::Book(e)) => Err(e.into()),
        Err(FindGamesError::Filter(e)) => Err(bad(e.to_string())),
        Err(FindGamesError::NoGameTable) => Err(no_game_table(path, needed_for)),
    }
}
