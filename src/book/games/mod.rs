//! The book's table of source games: moves, players, event, year, result and where each game
//! was read, with names stored once; the games behind a position are found through the
//! book's index of them (see `index`) or, in books without one, by scanning the table (see
//! `query`), and query-time filters select games by their metadata (see `filter`).
//!
//! Games are kept most recent first (year, then file, then the later record or line first),
//! an order that depends only on the games, so builds and merges stay byte-identical.

mod attach;
mod codec;
mod difference;
mod filter;
pub mod index;
mod query;
pub mod ratings;
mod source;
mod table;

pub(crate) use codec::{
    decode_names, decode_record, filter_fields, pack, packed_codes, packed_len, record_bytes,
    unpack_game,
};
pub use codec::{GameTableSize, GAME_RECORD_SIZE};
pub use difference::GamesDifference;
pub use filter::{FilterError, GameSelection, NameKind};
pub use index::{GameIndexSize, IndexPlan, Posting};
pub(crate) use query::{gather, Hit, LineCounter, Probe, Tally};
pub use query::{GameMatch, PositionGames};
pub use ratings::{PlayerRating, RatingParams, Ratings};
pub use source::{GameExcerpt, GameSource};
pub(crate) use table::{count_names, table_order};
pub use table::{GameProblem, GameTable, GameTableError, StoredGame, NO_NAME};

#[cfg(test)]
mod tests;
