//! othbook: Othello opening books, game-transcript ingest and position analysis.
//!
//! Layers, each using only those below it: `book` (opening book), `transcript` (game
//! records), `board` (bitboards, moves, symmetries, perft).

pub mod board;
pub mod book;
pub mod engine;
pub mod play;
pub mod protocol;
pub mod transcript;
