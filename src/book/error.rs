//! [`BookError`]: why a book cannot be built, merged, written or read.

use crate::book::OptionDifference;

/// Why a book cannot be built, merged, written or read.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file cannot be read or written.
    #[error("{path}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is not a valid book of a version this build reads.
    #[error("{path}: {reason}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// A game cannot be replayed.
    #[error("{game}: ply {ply}: {reason}")]
    Game {
        /// Where the game was read.
        game: String,
        /// 1-based ply.
        ply: usize,
        /// What is wrong.
        reason: String,
    },
    /// A request the book or its format cannot serve (a count past the format's limits, a
    /// move from a position the book does not hold, a walk too long).
    #[error("{0}")]
    Options(String),
    /// Build options or a game filter that break a rule.
    #[error(transparent)]
    BuildOptions(#[from] crate::book::OptionsError),
    /// Books that cannot be merged.
    #[error("cannot merge: {0}")]
    Merge(String),
    /// The book's game table is damaged.
    #[error("{path}: {source}")]
    GameTable {
        /// The file.
        path: String,
        /// What is wrong.
        source: crate::book::games::GameTableError,
    },
    /// Games given as a book's own that do not make the book.
    #[error("these games are not the book's: {0}")]
    GamesDiffer(crate::book::games::GamesDifference),
    /// A temporary file of a bounded-memory build or merge cannot be written or read (a
    /// full disk, most often).
    #[error("{what} in {folder}: {source}")]
    Spill {
        /// The temporary folder.
        folder: String,
        /// What was being done (`writing a run of games (...run-3.book)`).
        what: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The run was asked to stop (a signal); nothing was written.
    #[error("stopped before the book was written")]
    Stopped,
    /// Books built with different options: their counts cannot be added up.
    #[error(
        "cannot merge: book {book} was built with other options than book 1: {}",
        OptionDifference::list(differences, "book 1")
    )]
    OptionsDiffer {
        /// 1-based position of the book among the inputs.
        book: usize,
        /// Every option that differs (at least one).
        differences: Vec<OptionDifference>,
    },
}
