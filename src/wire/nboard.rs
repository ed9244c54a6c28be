//! NBoard's `set game` text: a GGF game read into its start board and moves, shared by the
//! NBoard server and the tests of the NBoard client.

use crate::board::{Move, Position};
use crate::transcript::{ingest_bytes, Format, IngestError, IngestOptions};

/// A `set game` the engine cannot take. Each message names `set game` once: the GGF reader
/// already calls its input that.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetGameError {
    /// The GGF text cannot be read (the reader's message says where).
    #[error(transparent)]
    Ggf(#[from] IngestError),
    /// Well-formed text without a game.
    #[error("{SET_GAME}: no game in the GGF text")]
    NoGame,
}

/// The name the GGF reader gives `set game` text in its messages.
pub const SET_GAME: &str = "set game";

/// Reads `set game` text: the game's start board and moves, passes included.
pub fn parse_ggf_game(text: &str) -> Result<(Position, Vec<Move>), SetGameError> {
    let opts = IngestOptions {
        strict: true,
        ..IngestOptions::default()
    };
    let ingest = ingest_bytes(text.as_bytes(), Format::Ggf, SET_GAME, &opts)?;
    match ingest.games.into_iter().next() {
        Some(g) => Ok((g.start, g.moves)),
        None => Err(SetGameError::NoGame),
    }
}
