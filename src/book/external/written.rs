//! What a build or merge wrote: the counts of the book and its size.

/// What a build or merge wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// Positions in the book.
    pub positions: u64,
    /// Moves.
    pub moves: u64,
    /// Trie nodes.
    pub nodes: u64,
    /// Games counted.
    pub games: u64,
    /// The file's size.
    pub bytes: u64,
    /// Runs written to the temporary folder (0: built in memory).
    pub runs: usize,
}

impl Written {
    /// The counts of `data`, written in `bytes` bytes.
    #[must_use]
    pub fn of(data: &crate::book::BookData, bytes: u64) -> Written {
        Written {
            positions: data.positions.len() as u64,
            moves: data.moves.len() as u64,
            nodes: data.nodes.len() as u64,
            games: data.info.games,
            bytes,
            runs: 0,
        }
    }
}
