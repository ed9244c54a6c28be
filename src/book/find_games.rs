//! The one rule that finds the games reaching a position, for every front end: through the
//! book's index of its games when it has one (only the position's posting list and the games
//! listed are read), else over its whole table, with the filter turned into a selection of
//! the book's names on the way.

use crate::board::Board;
use crate::book::games::ratings::{order_by_rating, Ratings};
use crate::book::games::{FilterError, GameExcerpt, GameSelection, GameTableError, PositionGames};
use crate::book::{Book, BookError, GameFilter, GameTable};

/// What [`Book::find_games`] looks for.
#[derive(Clone, Copy, Debug)]
pub struct GamesQuery<'a> {
    /// The position, reached in any orientation and move order.
    pub board: &'a Board,
    /// Only games that reach it within their first `max_ply` plies.
    pub max_ply: usize,
    /// Only the games the filter keeps (all when `None`).
    pub filter: Option<&'a GameFilter>,
    /// Moves played in fewer games are left out of the answer's moves.
    pub min_games: u64,
    /// `Some(n)`: the caller lists only the first `n` games, read in full into the answer's
    /// excerpt (the other matches may then be left out; the total and the statistics still
    /// count them). `None`: every match is listed and none is read.
    pub keep: Option<usize>,
    /// The choices made by the players' ratings (fitted from this book's games).
    pub rated: Option<RatedChoice<'a>>,
    /// Every match is found even when `keep` lists only a few (for a caller that counts
    /// over all of them): the index's shortcut for unfiltered queries is not taken.
    pub every_game: bool,
}

/// The games a query keeps and the order it lists them in, by the players' ratings.
#[derive(Clone, Copy, Debug)]
pub struct RatedChoice<'a> {
    /// The ratings of the book's players (by name index).
    pub ratings: &'a Ratings,
    /// Only games whose two players are both rated at least this.
    pub min: Option<f64>,
    /// List the games by their players' average rating, highest first (else most recent
    /// first).
    pub by_rating: bool,
}

/// The games [`Book::find_games`] found.
#[derive(Debug)]
pub struct FoundGames {
    /// The matches, their total, statistics and moves.
    pub games: PositionGames,
    /// The first [`GamesQuery::keep`] matches, read (empty when `keep` is `None`).
    pub excerpt: GameExcerpt,
}

/// Why [`Book::find_games`] has no answer.
#[derive(Debug, thiserror::Error)]
pub enum FindGamesError {
    /// The book cannot be read, or its games are damaged.
    #[error(transparent)]
    Book(#[from] BookError),
    /// The filter names a player or an event no game of the book has.
    #[error(transparent)]
    Filter(FilterError),
    /// The book holds no table of its games.
    #[error("the book has no table of its games")]
    NoGameTable,
}

impl Book {
    /// The games of this book that `q` asks for. `table` is the book's game table when the
    /// caller holds it already (a server keeps it in memory); without it, a book with no
    /// index of its games has its table read.
    pub fn find_games(
        &self,
        table: Option<&GameTable>,
        q: &GamesQuery<'_>,
    ) -> Result<FoundGames, FindGamesError> {
        let by_rating = q.rated.filter(|r| r.by_rating).map(|r| r.ratings);
        let unfiltered = q.filter.is_none() && q.rated.and_then(|r| r.min).is_none();
        if let Some(games) = self.indexed_games()? {
            // Without a filter, the book's own counts give the total: only the games listed
            // are read, however many reach the position.
            if let (true, false, None, Some(keep)) = (unfiltered, q.every_game, by_rating, q.keep) {
                if let Some(found) = games.first(q.board, q.max_ply, keep)? {
                    let excerpt = games.excerpt(found.matches.iter().map(|m| m.game))?;
                    return Ok(FoundGames {
                        games: found,
                        excerpt,
                    });
                }
            }
            let chosen = chosen(q, |f| match table {
                Some(t) => select(f, t),
                None => games.selection(f)?.map_err(FindGamesError::Filter),
            })?;
            // Only the games listed are kept, unless every match or the rating order is asked.
            let listed = q.keep.filter(|_| !q.every_game && by_rating.is_none());
            let mut found = games.find(q.board, q.max_ply, chosen.as_ref(), q.min_games, listed)?;
            if let Some(r) = by_rating {
                order_by_rating(&mut found.matches, r, |i| games.game(i))?;
            }
            let excerpt = match q.keep {
                Some(keep) => games.excerpt(found.matches.iter().take(keep).map(|m| m.game))?,
                None => GameExcerpt::default(),
            };
            return Ok(FoundGames {
                games: found,
                excerpt,
            });
        }
        let read;
        let table = match table {
            Some(t) => t,
            None => {
                read = self.games()?.ok_or(FindGamesError::NoGameTable)?;
                &read
            }
        };
        let damaged = |source| BookError::GameTable {
            path: self.path_name().to_string(),
            source,
        };
        let chosen = chosen(q, |f| select(f, table))?;
        let mut found = table
            .find(q.board, q.max_ply, chosen.as_ref(), q.min_games)
            .map_err(damaged)?;
        if let Some(r) = by_rating {
            order_by_rating(&mut found.matches, r, |i| {
                table
                    .games()
                    .get(i)
                    .copied()
                    .ok_or_else(|| damaged(GameTableError::Layout("a game index past the table")))
            })?;
        }
        let excerpt = match q.keep {
            Some(keep) => GameExcerpt::of(table, found.matches.iter().take(keep).map(|m| m.game)),
            None => GameExcerpt::default(),
        };
        Ok(FoundGames {
            games: found,
            excerpt,
        })
    }
}

/// The selection `q` asks for (`None`: every game), made by `select` from its filter, or
/// from a filter keeping everything when only a rating floor is given.
fn chosen(
    q: &GamesQuery<'_>,
    select: impl FnOnce(&GameFilter) -> Result<GameSelection, FindGamesError>,
) -> Result<Option<GameSelection>, FindGamesError> {
    let floor = q.rated.and_then(|r| r.min.map(|min| (r.ratings, min)));
    if q.filter.is_none() && floor.is_none() {
        return Ok(None);
    }
    let everything = GameFilter::default();
    let s = select(q.filter.unwrap_or(&everything))?;
    Ok(Some(match floor {
        Some((r, min)) => s.with_players(r.at_least(min)),
        None => s,
    }))
}

fn select(filter: &GameFilter, table: &GameTable) -> Result<GameSelection, FindGamesError> {
    GameSelection::new(filter, table).map_err(FindGamesError::Filter)
}
