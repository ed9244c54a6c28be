//! The engine's units and bounds: score units per disc, a score larger than any, the
//! deepest search.

/// Score units per disc in midgame scores (exact results are whole discs times `SCALE`).
pub const SCALE: i32 = 100;
/// Larger than any score.
pub(crate) const INF: i32 = 30_000;
/// Deepest search accepted (plies).
pub const MAX_DEPTH: u32 = 60;
