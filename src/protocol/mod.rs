//! Engine protocols, so other programs can drive othbook: GTP and NBoard.

pub mod ggf_clock;
pub mod gtp;
pub mod nboard;
pub mod web;
