//! othbook: Othello opening books, game-transcript ingest and position analysis.
//!
//! Layers, each using only those below it: `serve` (the web explorer) and `protocol` (GTP and
//! NBoard servers), `review` (scoring the moves of a game), `train` (labelling positions and
//! fitting the evaluation's weights), `play` (players, matches), `teach` (classic game-search
//! players over any game, the `teach` command), `wire` (GTP, GGF and line text shared by the
//! protocol servers and the players that drive other engines), `learn` (searching book
//! values), `report` (typed answers of the book queries), `engine` (search), `book` (opening
//! book), `transcript` (game records), `openings` (named openings), `board` (bitboards, moves,
//! symmetries, perft). `atomic_file`, `output_lock`, `bounded_read`, `data_file`, `rng` and
//! `utc` serve them all. docs/architecture.md walks through them.

pub mod atomic_file;
pub mod board;
pub mod book;
pub mod bounded_read;
pub mod data_file;
pub mod engine;
pub mod learn;
pub mod openings;
pub mod output_lock;
pub mod play;
pub mod protocol;
pub mod report;
pub mod review;
pub mod rng;
pub mod serve;
pub mod teach;
pub mod train;
pub mod transcript;
pub mod utc;
pub mod wire;
