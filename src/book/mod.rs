//! The opening book: a symmetry-normalised line trie and a transposition-aware position
//! table, built from games, written to a checksummed file and read in place (memory map).
//!
//! Colours: a [`Board`](crate::board::Board) has no colours, so the book keeps position and
//! move statistics from the side to move's point of view (`wins` = games won by the player
//! to move, `disc_sum` = that player's discs minus the other's). The same board reached
//! with black or with white to move is the same position. To show black/white figures, use
//! [`Stats::for_side`] with the side to move of your [`Position`](crate::board::Position).
//! Trie lines start from the standard position, so their statistics are from black's view.
//!
//! ```no_run
//! use othbook::board::{parse_moves, Position};
//! use othbook::book::Book;
//!
//! let book = Book::open("books/wthor.book")?;
//! let pos = Position::START.replay(parse_moves("f5d6")?)?.end;
//! if let Some(stats) = book.probe(&pos.board) {
//!     let colors = stats.for_side(pos.side);
//!     println!("{} games, black won {}", stats.games(), colors.black_wins);
//! }
//! for (mv, s) in book.moves(&pos.board) {
//!     println!("{mv}: {} games, {:?} average for the mover", s.games(), s.average_diff());
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod build;
mod checksum;
mod cut;
mod data;
mod default;
mod eval;
pub mod external;
mod format;
pub mod games;
mod graph_lines;
mod grow;
mod indexed;
pub mod interop;
pub mod key;
mod line_values;
mod negamax;
mod reader;
mod sigbus;
mod stats;
pub mod trust;
mod values;
mod window;

pub use build::{build, name_matches, BuildReport, NameField, MAX_PLIES};
pub use checksum::checksum;
pub use cut::{CutError, CutReport};
pub use data::{
    BookData, BookInfo, BuildOptions, GameFilter, OptionDifference, PlayerColor, Source,
};
pub use default::{default_path, locate_default, BOOK_ENV, DEFAULT_BOOK};
pub use eval::{
    selectivity_words, EvalInfo, Leaf, PosEval, Score, ValueKind, EVAL_SIZE, FULL_WIDTH,
    SCORE_SCALE,
};
pub use format::{encode, encode_with, write_book, VERSION};
pub use games::GameTable;
pub use grow::NewLink;
pub use indexed::IndexedGames;
pub use line_values::ValuedLine;
pub use negamax::{board_of, final_score, node_of, Graph, Node, RelinkReport};
pub use reader::{Book, Line, OpenOptions, RankBy, TopQuery};
pub use sigbus::{exit_on_sigbus, CHANGED_UNDER_READ};
pub use stats::{ColorStats, MoveStats, Outcome, PositionStats, Stats};
pub use values::MoveValue;

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
    /// Build options out of range.
    #[error("{0}")]
    Options(String),
    /// Books that cannot be merged.
    #[error("cannot merge: {0}")]
    Merge(String),
    /// The book's game table is damaged.
    #[error("{path}: {source}")]
    GameTable {
        /// The file.
        path: String,
        /// What is wrong.
        source: games::GameTableError,
    },
    /// Games given as a book's own that do not make the book.
    #[error("these games are not the book's: {0}")]
    GamesDiffer(games::GamesDifference),
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

#[cfg(test)]
pub(crate) mod tests;
