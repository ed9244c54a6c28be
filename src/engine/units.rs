//! The engine's units and bounds: score units per disc, a score larger than any, the
//! deepest search, the largest table.

/// Score units per disc in midgame scores (exact results are whole discs times `SCALE`).
pub const SCALE: i32 = 100;
/// Larger than any score.
pub(crate) const INF: i32 = 30_000;
/// Deepest search accepted (plies).
pub const MAX_DEPTH: u32 = 60;
/// The largest transposition table a front end accepts, in MiB (64 GiB; a table is 1 MiB at
/// least). One bound for the command line, the player specs and the bindings.
pub const MAX_HASH_MB: usize = 65_536;
