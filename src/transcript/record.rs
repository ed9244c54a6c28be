//! `GameRecord`: one replayed game with its result, players, event and where it came from.

use crate::board::{Move, Position};
use std::fmt;
use std::sync::Arc;

/// Where a game was found: the file and the line (text formats) or record (binary formats).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SourceRef {
    /// Path of the file as given by the user.
    pub file: Arc<str>,
    /// Line or record within the file.
    pub location: Location,
}

/// A 1-based position inside a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Location {
    /// Line number in a text file.
    Line(u64),
    /// Record (game) number in a binary file.
    Record(u64),
}

impl fmt::Display for SourceRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location {
            Location::Line(n) => write!(f, "{}:{}", self.file, n),
            Location::Record(n) => write!(f, "{}: record {}", self.file, n),
        }
    }
}

/// A game's result as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Final disc difference, black minus white, empty squares given to the winner.
    pub disc_diff: i32,
    /// The result exactly as the source wrote it (for reports and faithful conversion).
    pub raw: String,
}

/// One game, replayed and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Where play starts: the standard start unless the source sets up a board.
    pub start: Position,
    /// Every move played, passes included (as returned by `Position::replay`).
    pub moves: Vec<Move>,
    /// The recorded result, if any.
    pub result: Option<GameResult>,
    /// Black player's name.
    pub black: Option<String>,
    /// White player's name.
    pub white: Option<String>,
    /// Event or tournament.
    pub event: Option<String>,
    /// Where the game was played: a club, a city, a game server (GGF `PC`, PGN `Site`).
    pub place: Option<String>,
    /// Date as written by the source.
    pub date: Option<String>,
    /// Year the game was played.
    pub year: Option<u16>,
    /// Where the game was read.
    pub source: SourceRef,
    /// Whether the game was played to the end (neither side can move).
    pub complete: bool,
}
