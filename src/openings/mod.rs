//! Named Othello openings (Tiger, Rose, Buffalo...), recognised by the position a line reaches:
//! any of the 8 orientations, any move order.
//!
//! Layer: uses only `board`, so every layer above (book queries, reports, review) may name
//! openings. The table is `names.txt` beside this file, parsed and checked once on first use.

use crate::board::{parse_moves, Board, Move, NotationError, Position, Symmetry};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The table shipped with othbook (see `names.txt` for its sources).
const STANDARD: &str = include_str!("names.txt");

/// One named opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Its name (alternative names joined with ` / `).
    pub name: String,
    /// Its moves from the standard start, first move f5.
    pub moves: Vec<Move>,
}

/// A named opening found for a position, with its moves turned into the orientation of the
/// position asked about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found<'a> {
    /// The opening.
    pub opening: &'a Opening,
    /// Its moves from the start, in the caller's orientation.
    pub moves: Vec<Move>,
}

/// Why an opening table was refused.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// A line's moves could not be read.
    #[error("line {line}: bad moves {text:?}: {source}")]
    BadMoves {
        /// Line number, from 1.
        line: usize,
        /// The moves as written.
        text: String,
        /// Why they could not be read.
        source: NotationError,
    },
    /// A line has moves but no name.
    #[error("line {line}: no name after the moves")]
    NoName {
        /// Line number, from 1.
        line: usize,
    },
    /// A move is not legal where the line plays it.
    #[error("line {line}: move {ply} ({mv}) is not legal there")]
    Illegal {
        /// Line number, from 1.
        line: usize,
        /// Which move, from 1.
        ply: usize,
        /// The move.
        mv: Move,
    },
    /// Two lines reach the same position (in some orientation and move order).
    #[error("line {line}: {name:?} reaches the position of line {first_line} ({first_name:?})")]
    SamePosition {
        /// Line number of the second, from 1.
        line: usize,
        /// Its name.
        name: String,
        /// Line number of the first.
        first_line: usize,
        /// Its name.
        first_name: String,
    },
}

/// A table of named openings, keyed by the canonical form of each line's final position.
#[derive(Clone, Debug)]
pub struct Openings {
    list: Vec<Opening>,
    /// Final position of each opening, from the standard start.
    ends: Vec<Board>,
    /// Canonical final position → index in `list`.
    by_position: HashMap<Board, usize>,
    /// The longest line: no position deeper than this is named.
    max_plies: usize,
}

impl Openings {
    /// The table shipped with othbook.
    #[must_use]
    pub fn standard() -> &'static Openings {
        static TABLE: OnceLock<Openings> = OnceLock::new();
        TABLE.get_or_init(|| {
            // A test parses the same text: this cannot fail in a build whose tests pass.
            Openings::parse(STANDARD).expect("the built-in opening table is valid")
        })
    }

    /// Parses a table: lines `MOVES NAME` (moves from the standard start, then the name),
    /// `#` comments and blank lines. Every line must replay, and no two may reach the same
    /// position.
    pub fn parse(text: &str) -> Result<Openings, OpeningsError> {
        let mut table = Openings {
            list: Vec::new(),
            ends: Vec::new(),
            by_position: HashMap::new(),
            max_plies: 0,
        };
        let mut lines_of = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let raw = raw.trim();
            if raw.is_empty() || raw.starts_with('#') {
                continue;
            }
            let (moves_text, name) = raw
                .split_once(char::is_whitespace)
                .map(|(m, n)| (m, n.trim()))
                .filter(|(_, n)| !n.is_empty())
                .ok_or(OpeningsError::NoName { line })?;
            let moves = parse_moves(moves_text).map_err(|source| OpeningsError::BadMoves {
                line,
                text: moves_text.to_string(),
                source,
            })?;
            let mut board = Board::START;
            for (ply, mv) in moves.iter().enumerate() {
                board = board.play_move(*mv).map_err(|_| OpeningsError::Illegal {
                    line,
                    ply: ply + 1,
                    mv: *mv,
                })?;
            }
            let key = board.canonical().0;
            if let Some(&first) = table.by_position.get(&key) {
                return Err(OpeningsError::SamePosition {
                    line,
                    name: name.to_string(),
                    first_line: lines_of[first],
                    first_name: table.list[first].name.clone(),
                });
            }
            table.by_position.insert(key, table.list.len());
            table.max_plies = table.max_plies.max(moves.len());
            table.list.push(Opening {
                name: name.to_string(),
                moves,
            });
            table.ends.push(board);
            lines_of.push(line);
        }
        Ok(table)
    }

    /// Every opening, in the table's order.
    #[must_use]
    pub fn all(&self) -> &[Opening] {
        &self.list
    }

    /// Openings whose name contains `text`, ignoring case.
    #[must_use]
    pub fn matching(&self, text: &str) -> Vec<&Opening> {
        let want = text.to_lowercase();
        self.list
            .iter()
            .filter(|o| o.name.to_lowercase().contains(&want))
            .collect()
    }

    /// The opening whose position `board` is, in any orientation.
    #[must_use]
    pub fn name_at(&self, board: &Board) -> Option<&Opening> {
        self.find_at(board).map(|f| f.opening)
    }

    /// The deepest named opening along `line` (moves from the standard start, any
    /// orientation, any move order).
    #[must_use]
    pub fn name_of_line(&self, line: &[Move]) -> Option<&Opening> {
        self.find_along(line).map(|f| f.opening)
    }

    /// [`Openings::name_at`] with the opening's moves turned to the orientation of `board`.
    #[must_use]
    pub fn find_at(&self, board: &Board) -> Option<Found<'_>> {
        let &i = self.by_position.get(&board.canonical().0)?;
        // Symmetries keeping the start position first, so that the moves replay from it.
        let s = Symmetry::START
            .iter()
            .chain(Symmetry::ALL.iter())
            .find(|s| self.ends[i].transform(**s) == *board)?;
        Some(Found {
            opening: &self.list[i],
            moves: self.list[i]
                .moves
                .iter()
                .map(|m| s.apply_move(*m))
                .collect(),
        })
    }

    /// The deepest named opening along `line`, played from the standard start.
    #[must_use]
    pub fn find_along(&self, line: &[Move]) -> Option<Found<'_>> {
        self.find_along_from(&Position::START.board, line)
    }

    /// The deepest named position among `start` and the positions `moves` lead to from it
    /// (the walk stops at a move that is not legal).
    #[must_use]
    pub fn find_along_from(&self, start: &Board, moves: &[Move]) -> Option<Found<'_>> {
        let mut board = *start;
        let mut deepest = self.find_at(&board);
        let mut played = 64 - board.empty_count() as usize;
        for mv in moves {
            // Named positions hold at most 4 + max_plies discs: nothing deeper is named.
            if played >= 4 + self.max_plies {
                break;
            }
            let Ok(next) = board.play_move(*mv) else {
                break;
            };
            board = next;
            played = 64 - board.empty_count() as usize;
            if let Some(found) = self.find_at(&board) {
                deepest = Some(found);
            }
        }
        deepest
    }
}

#[cfg(test)]
mod tests;
