//! The games list of `/api/v1/games`: the games of the book that reach a position (after
//! the filters), most recent first, each with its moves turned into the caller's orientation
//! so that a page can step through it on the board it shows, and its players' ratings (the
//! book's one fit, which the server keeps).

use crate::board::{format_moves, Move, Position, Symmetry};
use crate::book::games::ratings::Ratings;
use crate::book::games::GameMatch;
use crate::book::GameTable;
use crate::report::query::Target;
use crate::report::ratings::round1;
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

/// One game reaching the position: the row `games find` lists, with the game's index in the
/// table and its moves turned into the caller's orientation.
#[derive(Debug, Serialize)]
pub struct GameRow {
    /// Index of the game in the book's table.
    pub id: usize,
    /// Year, players, result, next move, ply, event, moves as played, source and location.
    #[serde(flatten)]
    pub game: crate::report::games_list::GameRow,
    /// The whole game turned so that its first `ply` plies reach the position as the caller
    /// sees it (when the caller's line starts at the standard start; else as played).
    pub moves_here: String,
    /// Black's and white's fitted ratings (`null`: a player without a rated game).
    pub black_rating: Option<f64>,
    pub white_rating: Option<f64>,
}

/// Rows for `matches[offset..offset + limit]`, with the players' `ratings`.
pub fn rows(
    table: &GameTable,
    ratings: &Ratings,
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
            let mut game = crate::report::games_list::row(table, m)?;
            game.source = file_name(&game.source);
            let stored = table.games().get(m.game)?;
            let moves = table.moves(stored);
            let here = if t.from_start {
                turned(&moves, m.ply, t)
            } else {
                moves
            };
            Some(GameRow {
                id: m.game,
                game,
                moves_here: format_moves(&here),
                black_rating: ratings.of(stored.black).map(round1),
                white_rating: ratings.of(stored.white).map(round1),
            })
        })
        .collect()
}

/// The file name of a game's source, without the folders it was read from when the book was
/// built: a path on the building machine says nothing to a visitor and tells them about the
/// server's disk.
fn file_name(source: &str) -> String {
    source
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(source)
        .to_string()
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
