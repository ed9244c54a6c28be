//! Reading games one at a time, from a whole table in memory or from an excerpt of a table
//! read in place (the games a query lists), through one interface.

use super::{GameTable, StoredGame};
use crate::board::{Move, Position};
use crate::book::key::code_move;
use crate::transcript::{GameRecord, GameResult, SourceRef};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Games by their index in a book's table, and the table's names.
pub trait GameSource {
    /// Game `i` (`None`: not in this table or excerpt).
    fn game_at(&self, i: usize) -> Option<&StoredGame>;

    /// The move codes of game `i` (square 0-63, 64 a pass).
    fn codes_at(&self, i: usize) -> Option<&[u8]>;

    /// Name `n` of the table; `None` for [`NO_NAME`](super::NO_NAME).
    fn name_of(&self, n: u32) -> Option<&str>;

    /// The moves of game `i`.
    fn moves_at(&self, i: usize) -> Option<Vec<Move>> {
        Some(
            self.codes_at(i)?
                .iter()
                .filter_map(|&c| code_move(c))
                .collect(),
        )
    }

    /// Game `i` as a transcript record (for the writers): the standard start, its moves,
    /// players, event, year, result and source.
    fn record(&self, i: usize) -> Option<GameRecord> {
        let g = self.game_at(i)?;
        let owned = |n: u32| self.name_of(n).map(str::to_string);
        Some(GameRecord {
            start: Position::START,
            moves: self.moves_at(i)?,
            result: g.result.map(|d| GameResult {
                disc_diff: i32::from(d),
                raw: super::table::format_result(i32::from(d)),
            }),
            black: owned(g.black),
            white: owned(g.white),
            event: owned(g.event),
            place: None,
            date: g.year.map(|y| y.to_string()),
            year: g.year,
            source: SourceRef {
                file: Arc::from(self.name_of(g.source).unwrap_or("")),
                location: g.location,
            },
            complete: g.complete,
        })
    }
}

impl GameTable {
    /// Game `i` as a transcript record (for the writers): see [`GameSource::record`].
    #[must_use]
    pub fn record(&self, i: usize) -> Option<GameRecord> {
        GameSource::record(self, i)
    }
}

impl GameSource for GameTable {
    fn game_at(&self, i: usize) -> Option<&StoredGame> {
        self.games.get(i)
    }

    fn codes_at(&self, i: usize) -> Option<&[u8]> {
        self.games.get(i).map(|g| self.moves_of(g))
    }

    fn name_of(&self, n: u32) -> Option<&str> {
        self.name(n)
    }
}

/// Some games of a table, kept by their index in it, with the table's names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameExcerpt {
    pub(crate) names: Vec<String>,
    pub(crate) games: BTreeMap<usize, (StoredGame, Vec<u8>)>,
}

impl GameExcerpt {
    /// The games `ids` of `table`.
    #[must_use]
    pub fn of(table: &GameTable, ids: impl IntoIterator<Item = usize>) -> GameExcerpt {
        GameExcerpt {
            names: table.names.clone(),
            games: ids
                .into_iter()
                .filter_map(|i| Some((i, (*table.games.get(i)?, table.codes_at(i)?.to_vec()))))
                .collect(),
        }
    }
}

impl GameSource for GameExcerpt {
    fn game_at(&self, i: usize) -> Option<&StoredGame> {
        self.games.get(&i).map(|(g, _)| g)
    }

    fn codes_at(&self, i: usize) -> Option<&[u8]> {
        self.games.get(&i).map(|(_, c)| c.as_slice())
    }

    fn name_of(&self, n: u32) -> Option<&str> {
        self.names.get(n as usize).map(String::as_str)
    }
}
