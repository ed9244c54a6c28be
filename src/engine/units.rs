//! The engine's units and bounds: score units per disc, a score larger than any, the
//! deepest search, the table's size (checked once, as a [`HashSize`]).

/// Score units per disc in midgame scores (exact results are whole discs times `SCALE`).
pub const SCALE: i32 = 100;
/// Larger than any score.
pub(crate) const INF: i32 = 30_000;
/// Deepest search accepted (plies).
pub const MAX_DEPTH: u32 = 60;
/// The largest transposition table a front end accepts, in MiB (64 GiB; a table is 1 MiB at
/// least). One bound for the command line, the player specs and the bindings.
pub const MAX_HASH_MB: usize = 65_536;

/// A table size that cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("hash {mb} is out of range: use 1 to {MAX_HASH_MB} MiB")]
pub struct HashSizeError {
    /// The size asked for, MiB.
    pub mb: usize,
}

/// A transposition table size, 1 to [`MAX_HASH_MB`] MiB: built only by [`HashSize::new`] (or
/// [`HashSize::of`] for sizes written in the code), so the engine and every front end take it
/// without checking it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HashSize(usize);

impl HashSize {
    /// `mb` MiB, if it is 1 to [`MAX_HASH_MB`].
    pub const fn new(mb: usize) -> Result<HashSize, HashSizeError> {
        if mb >= 1 && mb <= MAX_HASH_MB {
            Ok(HashSize(mb))
        } else {
            Err(HashSizeError { mb })
        }
    }

    /// A size written in the code.
    ///
    /// # Panics
    /// If it is out of range (a mistake in the code, not in anyone's input).
    #[must_use]
    pub const fn of(mb: usize) -> HashSize {
        match HashSize::new(mb) {
            Ok(h) => h,
            Err(_) => panic!("a hash size out of range written in the code"),
        }
    }

    /// The size in MiB.
    #[must_use]
    pub const fn mb(self) -> usize {
        self.0
    }
}
