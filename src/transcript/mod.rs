//! Game transcripts: readers for .gam, WTHOR, GGF, PGN, move strings and CSV; replay and checks.

mod record;

pub use record::{GameRecord, GameResult, Location, SourceRef};
