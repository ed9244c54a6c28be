//! The games behind a position as rows: who played, when, where, the result and the move
//! that followed (in the caller's orientation); shared by `games find`, `explore --games` and
//! the web API.

use super::{color_text, obf_text, OpeningRef};
use crate::board::{format_moves, Color, Position};
use crate::book::games::{GameMatch, GameSource};
use crate::transcript::Location;
use serde::{Deserialize, Serialize};

/// One game reaching the position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRow {
    /// Year played.
    pub year: Option<u16>,
    /// Black's name.
    pub black: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// Final disc difference, black minus white.
    pub result: Option<i32>,
    /// The move played from the position, in the orientation asked about (`null`: the
    /// game ended there).
    pub next: Option<String>,
    /// Plies played before the position (passes count).
    pub ply: usize,
    /// The event.
    pub event: Option<String>,
    /// The whole game as played (its own orientation).
    pub moves: String,
    /// File the game was read from.
    pub source: String,
    /// `line N` or `record N` in that file.
    pub location: String,
}

/// Rows for the first `limit` matches (most recent first).
pub fn rows(table: &dyn GameSource, matches: &[GameMatch], limit: usize) -> Vec<GameRow> {
    matches
        .iter()
        .take(limit)
        .filter_map(|m| row(table, m))
        .collect()
}

/// The row of one match (`None` when the table has no such game).
pub fn row(table: &dyn GameSource, m: &GameMatch) -> Option<GameRow> {
    let g = table.game_at(m.game)?;
    let name = |n: u32| table.name_of(n).map(str::to_string);
    Some(GameRow {
        year: g.year,
        black: name(g.black),
        white: name(g.white),
        result: g.result.map(i32::from),
        next: m.next.map(|mv| mv.to_string()),
        ply: m.ply,
        event: name(g.event),
        moves: format_moves(&table.moves_at(m.game)?),
        source: name(g.source).unwrap_or_default(),
        location: match g.location {
            Location::Line(n) => format!("line {n}"),
            Location::Record(n) => format!("record {n}"),
        },
    })
}

/// What `games find` answers: the games of a book that reach a position (after any filter),
/// their results, and the most recent of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindReport {
    /// The position, in the caller's orientation.
    #[serde(with = "obf_text")]
    pub position: Position,
    /// Side to move.
    #[serde(with = "color_text")]
    pub side: Color,
    /// Games that reach it (after the filters).
    pub total: usize,
    /// Of those, won by black.
    pub black_wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Won by white.
    pub white_wins: u32,
    /// Without a recorded result.
    pub unknown: u32,
    /// The games listed, most recent first.
    pub games: Vec<GameRow>,
    /// The deepest named opening along the line asked about.
    pub opening: Option<OpeningRef>,
}

impl FindReport {
    /// The report of `found` (the games of `table` reaching `pos`), listing `limit` games.
    #[must_use]
    pub fn build(
        table: &dyn GameSource,
        found: &crate::book::games::PositionGames,
        pos: &Position,
        limit: usize,
        opening: Option<OpeningRef>,
    ) -> FindReport {
        let c = found.stats.for_side(pos.side);
        FindReport {
            position: *pos,
            side: pos.side,
            total: found.total,
            black_wins: c.black_wins,
            draws: c.draws,
            white_wins: c.white_wins,
            unknown: c.unknown,
            games: rows(table, &found.matches, limit),
            opening,
        }
    }
}
