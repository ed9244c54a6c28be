//! The games list of `/api/v1/games`: the games of the book that reach a position (after
//! the filters), most recent first, each with its moves turned into the caller's orientation
//! so that a page can step through it on the board it shows.

use super::params::Target;
use crate::board::{format_moves, Move, Position, Symmetry};
use crate::book::games::GameMatch;
use crate::book::GameTable;
use crate::transcript::Location;
use serde::Serialize;

/// What `/api/v1/games` answers.
#[derive(Debug, Serialize)]
pub struct GamesAnswer {
    pub position: String,
    pub side: String,
    /// Games that reach the position (after the filters).
    pub total: usize,
    pub black_wins: u32,
    pub draws: u32,
    pub white_wins: u32,
    pub unknown: u32,
    pub offset: usize,
    /// The games listed, most recent first.
    pub games: Vec<GameRow>,
}

/// One game reaching the position.
#[derive(Debug, Serialize)]
pub struct GameRow {
    /// Index of the game in the book's table.
    pub id: usize,
    pub year: Option<u16>,
    pub black: Option<String>,
    pub white: Option<String>,
    /// Final disc difference, black minus white.
    pub result: Option<i32>,
    /// The move played from the position, in the caller's orientation (`null`: the game
    /// ended there).
    pub next: Option<String>,
    /// Plies played before the position (passes count).
    pub ply: usize,
    pub event: Option<String>,
    /// The whole game as played (its own orientation).
    pub moves: String,
    /// The whole game turned so that its first `ply` plies reach the position as the caller
    /// sees it (when the caller's line starts at the standard start; else as played).
    pub moves_here: String,
    pub source: String,
    pub location: String,
}

/// Rows for `matches[offset..offset + limit]`.
pub fn rows(
    table: &GameTable,
    matches: &[GameMatch],
    t: &Target,
    offset: usize,
    limit: usize,
) -> Vec<GameRow> {
    matches
        .iter()
        .skip(offset)
        .take(limit)
        .filter_map(|m| {
            let g = table.games().get(m.game)?;
            let name = |n: u32| table.name(n).map(str::to_string);
            let moves = table.moves(g);
            let here = if t.from_start {
                turned(&moves, m.ply, t)
            } else {
                moves.clone()
            };
            Some(GameRow {
                id: m.game,
                year: g.year,
                black: name(g.black),
                white: name(g.white),
                result: g.result.map(i32::from),
                next: m.next.map(|mv| mv.to_string()),
                ply: m.ply,
                event: name(g.event),
                moves: format_moves(&moves),
                moves_here: format_moves(&here),
                source: name(g.source).unwrap_or_default(),
                location: match g.location {
                    Location::Line(n) => format!("line {n}"),
                    Location::Record(n) => format!("record {n}"),
                },
            })
        })
        .collect()
}

/// `moves` under the symmetry that takes the position after `ply` plies to `t.pos` (as
/// played when none does, which a consistent table never gives).
fn turned(moves: &[Move], ply: usize, t: &Target) -> Vec<Move> {
    let Ok(replay) = Position::START.replay(moves.iter().copied()) else {
        return moves.to_vec();
    };
    let mut pos = Position::START;
    for mv in replay.moves.iter().take(ply) {
        match pos.play(*mv) {
            Ok(p) => pos = p,
            Err(_) => return replay.moves,
        }
    }
    Symmetry::ALL
        .into_iter()
        .find(|s| pos.board.transform(*s) == t.pos.board && pos.side == t.pos.side)
        .map_or(replay.moves.clone(), |s| {
            replay.moves.iter().map(|m| s.apply_move(*m)).collect()
        })
}
