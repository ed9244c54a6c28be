//! [`GamesDifference`]: how games given as a book's own differ from the book.

use crate::book::key::Key;

/// How games given as a book's own differ from the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GamesDifference {
    /// Another number of games passes the book's filters.
    #[error("the book counts {book} games, these give {given} with its options")]
    Games {
        /// Games of the book.
        book: u64,
        /// Games given that its options keep.
        given: u64,
    },
    /// Another number of positions.
    #[error("the book holds {book} positions played in games, these games make {given}")]
    Positions {
        /// Positions of the book that games reached.
        book: usize,
        /// Positions the games make.
        given: usize,
    },
    /// A position (the first one in table order that differs) or its moves.
    #[error(
        "position {:016x} {:016x} has {book} games in the book, {given} in these games (or its \
         moves differ)",
        key.player,
        key.opponent
    )]
    Position {
        /// The canonical key of the book's position.
        key: Key,
        /// Its games in the book.
        book: u64,
        /// Games of the given ones at the same place of the table.
        given: u64,
    },
    /// The line tries differ.
    #[error("the lines of the book differ from these games' lines")]
    Lines,
}
