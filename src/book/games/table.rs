//! [`GameTable`]: a book's games with their names stored once, its records ([`StoredGame`])
//! and what can be wrong with them.

use crate::board::Move;
use crate::book::key::{code_move, move_code};
use crate::transcript::{GameRecord, Location};
use std::collections::BTreeMap;

/// What is wrong with a stored game table (a damaged or foreign file).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameTableError {
    /// A field of a game record is impossible.
    #[error("game table: game {game} has {problem}")]
    Game {
        /// 1-based number of the game in the table.
        game: usize,
        /// What is wrong with it.
        problem: GameProblem,
    },
    /// A stored game is not a legal game.
    #[error("game table: game {game} does not replay at ply {ply}")]
    Replay {
        /// 1-based number of the game in the table.
        game: usize,
        /// 1-based ply of the illegal move.
        ply: usize,
    },
    /// A name of the name list is damaged.
    #[error("game table: name {name} is {problem}")]
    Name {
        /// 1-based number of the name.
        name: usize,
        /// What is wrong (`out of range`, `not valid UTF-8`, `out of order`).
        problem: &'static str,
    },
    /// The parts do not fit together.
    #[error("game table: {0}")]
    Layout(&'static str),
}

/// What is wrong with one stored game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameProblem {
    /// More than 120 plies.
    #[error("more plies than a game can have")]
    TooLong,
    /// Its moves run past the move bytes.
    #[error("moves beyond the end of the move bytes")]
    MovesOutside,
    /// A packed move that is no square nor a pass (e4, d5 or e5).
    #[error("the move code {0}")]
    MoveCode(u8),
    /// A name index past the name list.
    #[error("a name index out of range")]
    NameIndex,
    /// A result outside -64..64.
    #[error("an impossible result")]
    Result,
    /// No source file.
    #[error("no source file")]
    NoSource,
}

/// Name index of a missing name (no player, event or file recorded).
pub const NO_NAME: u32 = u32::MAX;

/// One stored game: indices into the name table, its moves' place in the move bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// First move byte in the table's move bytes.
    pub moves_start: u32,
    /// Number of plies (passes included).
    pub moves_len: u8,
    /// Black's name ([`NO_NAME`] if unknown).
    pub black: u32,
    /// White's name.
    pub white: u32,
    /// The event.
    pub event: u32,
    /// The file the game was read from.
    pub source: u32,
    /// Line (text formats) or record (binary formats) in that file.
    pub location: Location,
    /// Year played.
    pub year: Option<u16>,
    /// Final disc difference, black minus white.
    pub result: Option<i8>,
    /// Played to the end.
    pub complete: bool,
}

/// The games of a book, names stored once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameTable {
    /// Player, event and file names, sorted and distinct.
    pub(super) names: Vec<String>,
    /// Games, most recent first.
    pub(super) games: Vec<StoredGame>,
    /// Move codes of every game one after the other (square 0-63, 64 a pass).
    pub(super) moves: Vec<u8>,
}

/// A game of a table, as owned values (for building and merging).
struct Loose<'a> {
    black: Option<&'a str>,
    white: Option<&'a str>,
    event: Option<&'a str>,
    source: &'a str,
    location: Location,
    year: Option<u16>,
    result: Option<i8>,
    complete: bool,
    moves: &'a [u8],
}

impl GameTable {
    /// The table of `games` (which must start from the standard position: a book holds no
    /// other). Moves beyond 120 plies cannot occur in a legal game.
    #[must_use]
    pub fn from_records<'a>(games: impl IntoIterator<Item = &'a GameRecord>) -> GameTable {
        let games: Vec<&GameRecord> = games.into_iter().collect();
        let codes: Vec<Vec<u8>> = games
            .iter()
            .map(|g| g.moves.iter().map(|m| move_code(*m)).collect())
            .collect();
        let loose = games.iter().zip(&codes).map(|(g, moves)| Loose {
            black: g.black.as_deref(),
            white: g.white.as_deref(),
            event: g.event.as_deref(),
            source: &g.source.file,
            location: g.source.location,
            year: g.year,
            result: g.result.as_ref().map(|r| r.disc_diff.clamp(-64, 64) as i8),
            complete: g.complete,
            moves,
        });
        GameTable::from_loose(loose)
    }

    /// The games of several tables in one (a merge: nothing is dropped).
    #[must_use]
    pub fn concat(tables: &[&GameTable]) -> GameTable {
        GameTable::from_loose(
            tables
                .iter()
                .flat_map(|t| t.games.iter().map(|g| t.loose(g))),
        )
    }

    fn loose<'a>(&'a self, g: &StoredGame) -> Loose<'a> {
        Loose {
            black: self.name(g.black),
            white: self.name(g.white),
            event: self.name(g.event),
            source: self.name(g.source).unwrap_or(""),
            location: g.location,
            year: g.year,
            result: g.result,
            complete: g.complete,
            moves: self.moves_of(g),
        }
    }

    fn from_loose<'a>(games: impl Iterator<Item = Loose<'a>>) -> GameTable {
        let games: Vec<Loose<'a>> = games.collect();
        let mut names: Vec<&str> = games
            .iter()
            .flat_map(|g| [g.black, g.white, g.event, Some(g.source)])
            .flatten()
            .collect();
        names.sort_unstable();
        names.dedup();
        let id = |n: Option<&str>| {
            n.and_then(|n| names.binary_search(&n).ok())
                .map_or(NO_NAME, |i| i as u32)
        };
        let mut stored: Vec<(StoredGame, &[u8])> = games
            .iter()
            .map(|g| {
                let game = StoredGame {
                    moves_start: 0,
                    moves_len: g.moves.len().min(127) as u8,
                    black: id(g.black),
                    white: id(g.white),
                    event: id(g.event),
                    source: id(Some(g.source)),
                    location: g.location,
                    year: g.year,
                    result: g.result,
                    complete: g.complete,
                };
                (game, &g.moves[..usize::from(game.moves_len)])
            })
            .collect();
        stored.sort_unstable_by(|(a, ma), (b, mb)| table_order(a, ma, b, mb));
        let mut moves = Vec::with_capacity(stored.iter().map(|(_, m)| m.len()).sum());
        let games = stored
            .into_iter()
            .map(|(mut g, m)| {
                g.moves_start = moves.len() as u32;
                moves.extend_from_slice(m);
                g
            })
            .collect();
        GameTable {
            names: names.into_iter().map(str::to_string).collect(),
            games,
            moves,
        }
    }

    /// Number of games.
    #[must_use]
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether the table holds no game.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The games, most recent first.
    #[must_use]
    pub fn games(&self) -> &[StoredGame] {
        &self.games
    }

    /// Name `i` of the table; `None` for [`NO_NAME`].
    #[must_use]
    pub fn name(&self, i: u32) -> Option<&str> {
        self.names.get(i as usize).map(String::as_str)
    }

    /// The move codes of a game (square 0-63, 64 a pass).
    #[must_use]
    pub fn moves_of(&self, g: &StoredGame) -> &[u8] {
        let start = g.moves_start as usize;
        &self.moves[start..start + usize::from(g.moves_len)]
    }

    /// The moves of a game.
    #[must_use]
    pub fn moves(&self, g: &StoredGame) -> Vec<Move> {
        self.moves_of(g)
            .iter()
            .filter_map(|&c| code_move(c))
            .collect()
    }

    /// Games per player name (a game between a player and themself counts once) and per
    /// event name, as [`NameCounts`](crate::transcript::people::NameCounts) counts a
    /// collection.
    #[must_use]
    pub fn name_counts(&self) -> crate::transcript::people::NameCounts {
        count_names(&self.names, self.games.iter().copied())
    }

    /// [`GameTable::name_counts`] of the games `keep` accepts.
    #[must_use]
    pub fn name_counts_where(
        &self,
        keep: impl Fn(&StoredGame) -> bool,
    ) -> crate::transcript::people::NameCounts {
        count_names(&self.names, self.games.iter().filter(|g| keep(g)).copied())
    }

    /// The index of `name` in the table's names.
    #[must_use]
    pub fn name_index(&self, name: &str) -> Option<u32> {
        self.names
            .binary_search_by(|n| n.as_str().cmp(name))
            .ok()
            .map(|i| i as u32)
    }

    /// Games per source file name.
    #[must_use]
    pub fn name_counts_of_sources(&self) -> BTreeMap<&str, u64> {
        let mut m = BTreeMap::new();
        for g in &self.games {
            if let Some(n) = self.name(g.source) {
                *m.entry(n).or_default() += 1;
            }
        }
        m
    }

    /// The games without repeats: a game whose line, mapped to first move f5, equals that of
    /// a game before it (a more recent one) is left out, as `--dedupe` does when reading.
    #[must_use]
    pub fn deduped(&self) -> GameTable {
        let mut seen = std::collections::HashSet::new();
        let kept = self.games.iter().filter(|g| {
            let (line, _) = crate::board::normalize_line(&self.moves(g));
            seen.insert(line)
        });
        GameTable::from_loose(kept.map(|g| self.loose(g)))
    }
}

/// The order of the table: most recent first; the rest of the key only makes the order
/// total, so the bytes do not depend on the order the games came in. Names compare by their
/// indices in one sorted name list (a missing name last), moves by their codes.
pub(crate) fn table_order(
    a: &StoredGame,
    ma: &[u8],
    b: &StoredGame,
    mb: &[u8],
) -> std::cmp::Ordering {
    b.year
        .cmp(&a.year)
        .then(a.source.cmp(&b.source))
        .then(b.location.cmp(&a.location))
        .then(ma.cmp(mb))
        .then((a.black, a.white, a.event).cmp(&(b.black, b.white, b.event)))
        .then((a.result, a.complete).cmp(&(b.result, b.complete)))
}

/// Games per player name (a game between a player and themself counts once), per event
/// name and per year, of `games` of a table with `names`.
pub(crate) fn count_names(
    names: &[String],
    games: impl Iterator<Item = StoredGame>,
) -> crate::transcript::people::NameCounts {
    let mut players = vec![0u64; names.len()];
    let mut events = vec![0u64; names.len()];
    let mut years = BTreeMap::new();
    for g in games {
        if let Some(n) = players.get_mut(g.black as usize) {
            *n += 1;
        }
        if g.white != g.black {
            if let Some(n) = players.get_mut(g.white as usize) {
                *n += 1;
            }
        }
        if let Some(n) = events.get_mut(g.event as usize) {
            *n += 1;
        }
        if let Some(y) = g.year {
            *years.entry(y).or_default() += 1;
        }
    }
    let map = |counts: Vec<u64>| -> BTreeMap<String, u64> {
        counts
            .into_iter()
            .enumerate()
            .filter(|(_, n)| *n > 0)
            .map(|(i, n)| (names[i].clone(), n))
            .collect()
    };
    crate::transcript::people::NameCounts {
        players: map(players),
        events: map(events),
        years,
    }
}

/// A result as `.gam` files write it (`+12`, `-04`, `+00`): the writers keep it faithfully.
pub(super) fn format_result(d: i32) -> String {
    format!("{}{:02}", if d < 0 { '-' } else { '+' }, d.abs())
}
