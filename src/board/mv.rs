//! `Move` (a square or a pass) and `Color` (black or white).

use crate::board::Square;
use std::fmt;

/// A move: a disc placed on a square, or a pass. `Option<Move>` is one byte.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Move {
    /// A disc placed on the square.
    Play(Square),
    /// No legal move: the turn goes to the opponent.
    Pass,
}

const _: () = assert!(std::mem::size_of::<Option<Move>>() == 1);

impl Move {
    /// The square, unless this is a pass.
    #[must_use]
    pub const fn square(self) -> Option<Square> {
        match self {
            Move::Play(sq) => Some(sq),
            Move::Pass => None,
        }
    }

    /// Whether this is a pass.
    #[must_use]
    pub const fn is_pass(self) -> bool {
        matches!(self, Move::Pass)
    }
}

impl From<Square> for Move {
    fn from(sq: Square) -> Self {
        Move::Play(sq)
    }
}

impl fmt::Display for Move {
    /// `f5`, or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(sq) => sq.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// The colour of a disc or of the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Color {
    /// Moves first.
    Black,
    /// Moves second.
    White,
}

impl Color {
    /// The other colour.
    #[must_use]
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `X` for black, `O` for white (OBF and diagram letters).
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}
