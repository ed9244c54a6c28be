//! othbook: Othello opening books, game-transcript ingest and position analysis.
//!
//! Layers, each using only those below it: `protocol` (GTP, NBoard, the web explorer), `review` (scoring the
//! moves of a game), `train` (labelling positions and fitting the evaluation's weights),
//! `play` (players, matches), `games` (classic game-search players over any game), `learn`
//! (searching book values), `report` (typed answers of the book queries), `engine` (search),
//! `book` (opening book), `transcript` (game records), `openings` (named openings), `board`
//! (bitboards, moves, symmetries, perft). `atomic_file`, `output_lock`, `bounded_read`,
//! `data_file` and `utc` serve them all.

pub mod atomic_file;
pub mod board;
pub mod book;
pub mod bounded_read;
pub mod data_file;
pub mod engine;
pub mod games;
pub mod learn;
pub mod openings;
pub mod output_lock;
pub mod play;
pub mod protocol;
pub mod report;
pub mod review;
pub mod train;
pub mod transcript;
pub mod utc;
