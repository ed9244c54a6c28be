//! Position evaluation: the [`Evaluator`] trait the search calls at its leaves, the
//! hand-made evaluation ([`HandEval`]) and the trained pattern evaluation ([`PatternEval`]).
//!
//! Scores are from the side to move's point of view in [`SCALE`](crate::engine::SCALE) units per disc, so that one
//! evaluation can replace another without touching the search.
//!
//! One job per file: `hand` (the hand-made evaluation), `geometry` (which squares the patterns
//! read, `pext`), `features` (pattern numbers kept up to date move by move), `pattern` (the
//! pattern evaluator and its tables), `file` (the weight file format), `file_error` (why a
//! weight file cannot be used), `evaluator` (the trait).

mod evaluator;
mod features;
mod file;
mod file_error;
pub(crate) mod geometry;
mod hand;
pub mod pattern;

pub use evaluator::Evaluator;
pub use file_error::EvalFileError;
pub use hand::{HandEval, Weights};
pub use pattern::{Features, PatternEval};
