//! How often each reply to a position was played, year by year (`explore --by-year`, the
//! API's `/history`): counted from the book's games that reach the position, through the
//! book's index of its games when it has one.

use crate::board::{Board, Move};
use crate::book::games::{FilterError, GameMatch, GameTableError, PositionGames};
use crate::book::key::{representative, Canonical, PASS_CODE};
use crate::book::{Book, BookError, GameFilter};
use serde::{Deserialize, Serialize};

/// The replies to a position, year by year.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct YearHistory {
    /// Every year from the first game's to the last's, oldest first.
    pub years: Vec<u16>,
    /// Games that reached the position each year (the `years` in order), those that ended
    /// there or went on past the book's plies included.
    pub games: Vec<u64>,
    /// Games that reached the position, all years and games of no known year included.
    pub total: u64,
    /// Games of no known year (in `total`, in no year).
    pub unknown_year: u64,
    /// The replies, most played first: one row for moves the position's symmetry makes
    /// equivalent, in the orientation asked about.
    pub moves: Vec<MoveYears>,
}

/// One reply's games, year by year.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveYears {
    /// The reply.
    #[serde(rename = "move", with = "crate::report::move_text")]
    pub mv: Move,
    /// Games that played it, all years.
    pub games: u64,
    /// Games that played it each year (the history's `years` in order).
    pub by_year: Vec<u64>,
    /// Games of no known year that played it.
    pub unknown_year: u64,
}

/// Why the history cannot be counted.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// The book keeps no table of its games.
    #[error(
        "the book has no table of its games (it was written before book format version 3, \
         or imported from another program), and the history by year counts them: build the \
         book again, or add its games with `othbook book add-games`"
    )]
    NoGames,
    /// A player or event that no game names.
    #[error(transparent)]
    Filter(#[from] FilterError),
    /// The book's data is damaged.
    #[error(transparent)]
    Book(#[from] BookError),
    /// A stored game does not replay.
    #[error(transparent)]
    Table(#[from] GameTableError),
}

impl YearHistory {
    /// Counts `matches` (games that reached `board`, as [`PositionGames`] lists them): each
    /// in its year (`year_of` gives a game's), its reply counted when it came within the
    /// first `max_ply` plies (as the book counts moves).
    pub fn count<E>(
        board: &Board,
        matches: &[GameMatch],
        max_ply: usize,
        mut year_of: impl FnMut(usize) -> Result<Option<u16>, E>,
    ) -> Result<YearHistory, E> {
        let target = Canonical::of(board);
        let mut seen: Vec<(Option<u16>, Option<u8>)> = Vec::with_capacity(matches.len());
        for m in matches {
            let code = m
                .next
                .filter(|_| m.ply < max_ply)
                .map(|mv| target.code_of(mv));
            seen.push((year_of(m.game)?, code));
        }
        let known = || seen.iter().filter_map(|(y, _)| *y);
        let (Some(first), Some(last)) = (known().min(), known().max()) else {
            return Ok(Self::tally(&target, &seen, Vec::new()));
        };
        Ok(Self::tally(&target, &seen, (first..=last).collect()))
    }

    /// The counts of `seen` (year, reply code) over `years`.
    fn tally(target: &Canonical, seen: &[(Option<u16>, Option<u8>)], years: Vec<u16>) -> Self {
        let at = |y: u16| usize::from(y - years[0]);
        let mut h = YearHistory {
            games: vec![0; years.len()],
            total: seen.len() as u64,
            ..YearHistory::default()
        };
        let mut rows: Vec<(u8, MoveYears)> = Vec::new();
        for &(year, code) in seen {
            match year {
                Some(y) => h.games[at(y)] += 1,
                None => h.unknown_year += 1,
            }
            let Some(code) = code else { continue };
            let i = match rows.iter().position(|(c, _)| *c == code) {
                Some(i) => i,
                None => {
                    let mv = if code == PASS_CODE {
                        Some(Move::Pass)
                    } else {
                        representative(&target.moves_of(code))
                    };
                    let Some(mv) = mv else { continue };
                    rows.push((
                        code,
                        MoveYears {
                            mv,
                            games: 0,
                            by_year: vec![0; years.len()],
                            unknown_year: 0,
                        },
                    ));
                    rows.len() - 1
                }
            };
            let row = &mut rows[i].1;
            row.games += 1;
            match year {
                Some(y) => row.by_year[at(y)] += 1,
                None => row.unknown_year += 1,
            }
        }
        h.moves = rows.into_iter().map(|(_, r)| r).collect();
        h.moves
            .sort_by(|a, b| b.games.cmp(&a.games).then(a.mv.cmp(&b.mv)));
        h.years = years;
        h
    }

    /// The history of `board` from `book`'s games that `filter` keeps (all when `None`),
    /// counted as the book counts them (within its plies): through the book's index when it
    /// has one (only the games reaching the position are read), else from its whole table.
    pub fn of_book(
        book: &Book,
        board: &Board,
        filter: Option<&GameFilter>,
    ) -> Result<YearHistory, HistoryError> {
        let max_ply = usize::from(book.info().options.plies());
        if let Some(games) = book.indexed_games()? {
            let chosen = filter
                .map(|f| games.selection(f))
                .transpose()?
                .transpose()?;
            let found: PositionGames = games.find(board, max_ply, chosen.as_ref(), 1, None)?;
            return Self::count(board, &found.matches, max_ply, |i| {
                games.game(i).map(|g| g.year)
            })
            .map_err(HistoryError::from);
        }
        let table = book.games()?.ok_or(HistoryError::NoGames)?;
        let chosen = filter
            .map(|f| crate::book::games::GameSelection::new(f, &table))
            .transpose()?;
        let found = table.find(board, max_ply, chosen.as_ref(), 1)?;
        let games = table.games();
        Self::count(board, &found.matches, max_ply, |i| {
            Ok::<_, HistoryError>(games.get(i).and_then(|g| g.year))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    fn hit(game: usize, ply: usize, next: Option<&str>) -> GameMatch {
        GameMatch {
            game,
            ply,
            next: next.map(|m| crate::board::parse_moves(m).unwrap()[0]),
        }
    }

    #[test]
    fn replies_are_counted_in_their_year_and_symmetric_moves_once() {
        // At the start the four first moves are one: all count as f5.
        let years = [Some(1990), Some(1992), Some(1990), None, Some(1992)];
        let matches = [
            hit(0, 0, Some("f5")),
            hit(1, 0, Some("d3")),
            hit(2, 0, Some("c4")),
            hit(3, 0, Some("e6")),
            hit(4, 0, None),
        ];
        let h = YearHistory::count(&Position::START.board, &matches, 60, |i| {
            Ok::<_, ()>(years[i])
        })
        .unwrap();
        assert_eq!(h.years, [1990, 1991, 1992]);
        assert_eq!(h.games, [2, 0, 2]);
        assert_eq!((h.total, h.unknown_year), (5, 1));
        assert_eq!(h.moves.len(), 1);
        let f5 = &h.moves[0];
        assert_eq!(f5.mv.to_string(), "f5");
        assert_eq!((f5.games, f5.unknown_year), (4, 1));
        assert_eq!(f5.by_year, [2, 0, 1]);
    }

    #[test]
    fn replies_past_the_plies_count_in_the_year_only() {
        let board = Position::START
            .replay(crate::board::parse_moves("f5").unwrap())
            .unwrap()
            .end
            .board;
        let matches = [
            hit(0, 1, Some("d6")),
            hit(1, 1, Some("f6")),
            hit(2, 1, Some("d6")),
        ];
        let h = YearHistory::count(&board, &matches, 1, |_| Ok::<_, ()>(Some(2000))).unwrap();
        assert!(h.moves.is_empty());
        assert_eq!(h.games, [3]);
        let h = YearHistory::count(&board, &matches, 2, |_| Ok::<_, ()>(Some(2000))).unwrap();
        let rows: Vec<(String, u64)> = h
            .moves
            .iter()
            .map(|m| (m.mv.to_string(), m.games))
            .collect();
        assert_eq!(rows, [("d6".to_string(), 2), ("f6".to_string(), 1)]);
    }

    #[test]
    fn no_game_gives_an_empty_history() {
        let h = YearHistory::count(&Position::START.board, &[], 60, |_| Ok::<_, ()>(None)).unwrap();
        assert_eq!(h, YearHistory::default());
    }
}
