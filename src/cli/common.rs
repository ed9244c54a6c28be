//! Helpers shared by subcommands: reading positions and move lists from arguments.

use anyhow::Result;
use othbook::board::{parse_moves, Position};

/// An error in what the user typed: reported with exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// Shorthand for a [`BadInput`] error.
pub fn bad(msg: impl Into<String>) -> anyhow::Error {
    BadInput(msg.into()).into()
}

/// The position given by `--position` (or the start), after the moves of `moves`.
pub fn position_from_args(position: Option<&str>, moves: Option<&str>) -> Result<Position> {
    let start = match position {
        Some(text) => text
            .parse::<Position>()
            .map_err(|e| bad(format!("invalid --position: {e}")))?,
        None => Position::START,
    };
    let Some(moves) = moves else { return Ok(start) };
    let list = parse_moves(moves).map_err(|e| bad(format!("invalid moves {moves:?}: {e}")))?;
    let replay = start
        .replay(list)
        .map_err(|e| bad(format!("moves {moves:?}: {e}")))?;
    Ok(replay.end)
}

/// The `--threads` value (default: all cores), checked.
pub fn threads_arg(threads: Option<usize>) -> Result<usize> {
    match threads {
        Some(0) => Err(bad("--threads must be at least 1")),
        Some(n) if n > 1024 => Err(bad(format!("--threads {n} is absurd"))),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, usize::from)),
    }
}

/// Checks a `--hash` size in MiB.
pub fn check_hash(mb: usize) -> Result<()> {
    if (1..=65536).contains(&mb) {
        Ok(())
    } else {
        Err(bad(format!(
            "--hash {mb} is out of range: use 1 to 65536 MiB"
        )))
    }
}
