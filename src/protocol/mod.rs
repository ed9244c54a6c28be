//! Engine protocols, so other programs can drive othbook: GTP and NBoard.

pub mod gtp;
pub mod nboard;
