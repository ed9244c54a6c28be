//! othbook: Othello opening books, game-transcript ingest and position analysis.
//!
//! Layers, each using only those below it: `protocol` (GTP, NBoard), `play` (players,
//! matches), `games` (classic game-search players over any game), `learn` (searching book values), `engine` (search), `book` (opening book),
//! `transcript` (game records), `board` (bitboards, moves, symmetries, perft). `atomic_file`, `bounded_read` and
//! `utc` serve them all.

pub mod atomic_file;
pub mod board;
pub mod book;
pub mod bounded_read;
pub mod engine;
pub mod games;
pub mod learn;
pub mod play;
pub mod protocol;
pub mod transcript;
pub mod utc;
