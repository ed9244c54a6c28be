//! Game review: every move of a game scored by the engine against its best move, the loss
//! marked as an inaccuracy, mistake or blunder, where the game left the opening book, and
//! each player's errors.
//!
//! Each position is searched once over all its moves (the best move and its score), and,
//! when another move was played, once more over the played move alone at the depth the first
//! search reached (or exactly), so the two scores are of the same search and the loss is
//! their difference. The engine's table is kept from position to position. Positions with at
//! most [`ReviewOptions::exact_from`] empties are solved exactly: there a move's loss is the
//! exact drop of its player's final score, and the exact phase's losses add up (see
//! [`ExactPhase`]): black's exact score where the solver took over, minus black's final disc
//! difference, equals black's exact-phase loss minus white's.
//!
//! ```no_run
//! use othbook::board::{parse_moves, Position};
//! use othbook::engine::{Depth, Engine, EngineOptions};
//! use othbook::review::{review, Effort, ReviewInput, ReviewOptions};
//! let input = ReviewInput::new(Position::START, parse_moves("f5d6c3d3c4")?);
//! let opts = ReviewOptions::new(Effort::Depth(Depth::of(8)), 18)?;
//! let engine = Engine::new(EngineOptions::default());
//! let r = review(&input, &engine, None, &opts, |_, _| {})?;
//! println!("black lost {} discs on average", r.black.average_loss);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod game;
pub mod plot;
mod report;
mod series;

pub use game::{
    review, review_stoppable, review_until_stopped, Effort, ReviewError, ReviewInput,
    ReviewOptions, Thresholds, DEFAULT_THRESHOLDS, MAX_EXACT_FROM,
};
pub use report::{
    BookMove, Discs, ExactPhase, GameInfo, Mark, MoveReview, PlayerSummary, Review, ReviewSettings,
    ScorePoint, ScoreSource, StoppedAt, Verdict,
};
pub use series::series;
