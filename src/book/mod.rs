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
mod error;
mod eval;
pub mod external;
mod find_games;
mod format;
pub mod games;
mod graph_lines;
mod grow;
mod indexed;
mod indexed_scan;
pub mod interop;
pub mod key;
mod le;
mod line_values;
mod negamax;
mod option_difference;
mod options;
mod reader;
mod sigbus;
mod stats;
pub mod trust;
mod values;
mod window;

pub use build::{build, name_matches, BuildReport, NameField};
pub use checksum::checksum;
pub use cut::{CutError, CutReport};
pub use data::{BookData, BookInfo, Source};
pub use default::{default_path, locate_default, BOOK_ENV, DEFAULT_BOOK};
pub use error::BookError;
pub use eval::{
    selectivity_words, EvalInfo, Leaf, PosEval, Score, ValueKind, EVAL_SIZE, FULL_WIDTH,
    SCORE_SCALE,
};
pub use find_games::{FindGamesError, FoundGames, GamesQuery, RatedChoice};
pub use format::{encode, encode_with, write_book, VERSION};
pub use games::GameTable;
pub use grow::NewLink;
pub use indexed::IndexedGames;
pub use line_values::ValuedLine;
pub use negamax::{board_of, final_score, node_of, Graph, Node, RelinkReport};
pub use option_difference::OptionDifference;
pub use options::{
    BuildOptions, GameFilter, MinGames, OptionsError, PlayerColor, Years, MAX_PLIES,
};
pub use reader::{Book, Line, OpenOptions, RankBy, TopQuery};
pub use sigbus::{exit_on_sigbus, CHANGED_UNDER_READ};
pub use stats::{ColorStats, MoveStats, Outcome, PositionStats, Stats};
pub use values::MoveValue;

#[cfg(test)]
pub(crate) mod tests;
