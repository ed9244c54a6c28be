//! What a search returns: scored lines, finished iterations and the final [`Analysis`], and
//! how scores are written for people and machines.

use super::units::SCALE;
use crate::board::Move;
use std::time::Duration;

/// What a score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreKind {
    /// Evaluation after a depth-limited search.
    Midgame,
    /// Exact final disc difference (times [`SCALE`]).
    Exact,
    /// Win/draw/loss only: the sign is right, the size is not meaningful.
    Wld,
}

impl ScoreKind {
    /// Whether `score` (of this kind, [`SCALE`] units) is a final disc difference, to be shown
    /// in whole discs: every exact-solve score, and in a midgame search ±64 discs, which only
    /// a wipe-out found by the search gives (evaluations stop at ±63.99).
    #[must_use]
    pub fn is_final(self, score: i32) -> bool {
        match self {
            ScoreKind::Exact => true,
            ScoreKind::Midgame | ScoreKind::Wld => score.abs() >= 64 * SCALE,
        }
    }
}

impl From<crate::book::ValueKind> for ScoreKind {
    /// A book value's kind as the engine's: the book stores the engine's scores.
    fn from(k: crate::book::ValueKind) -> ScoreKind {
        match k {
            crate::book::ValueKind::Midgame => ScoreKind::Midgame,
            crate::book::ValueKind::Exact => ScoreKind::Exact,
            crate::book::ValueKind::Wld => ScoreKind::Wld,
        }
    }
}

impl From<ScoreKind> for crate::book::ValueKind {
    /// The engine's kind as a book value's: how far a search's score can be trusted is
    /// computed by the book's model ([`crate::book::trust`]).
    fn from(k: ScoreKind) -> crate::book::ValueKind {
        match k {
            ScoreKind::Midgame => crate::book::ValueKind::Midgame,
            ScoreKind::Exact => crate::book::ValueKind::Exact,
            ScoreKind::Wld => crate::book::ValueKind::Wld,
        }
    }
}

/// A score in discs for people: `+1.25`, or `+64` when it is a final disc difference
/// ([`ScoreKind::is_final`]).
#[must_use]
pub fn score_text(score: i32, kind: ScoreKind) -> String {
    if kind.is_final(score) {
        format!("{:+}", score / SCALE)
    } else {
        format!("{:+.2}", f64::from(score) / f64::from(SCALE))
    }
}

/// [`score_text`] without the plus sign, for machine-read columns and protocols: `1.25`,
/// `-3.50`, `64`.
#[must_use]
pub fn score_number(score: i32, kind: ScoreKind) -> String {
    let t = score_text(score, kind);
    t.strip_prefix('+').map_or(t.clone(), str::to_string)
}

/// One scored move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The move.
    pub mv: Move,
    /// Its score for the side to move, in [`SCALE`] units per disc.
    pub score: i32,
    /// False when `score` is only a bound (the move is worse than the lines kept).
    pub exact: bool,
    /// Principal variation starting with `mv` (may be shorter than the depth).
    pub pv: Vec<Move>,
}

/// A finished iteration, as reported while searching.
#[derive(Clone, Debug)]
pub struct Iteration {
    /// Depth in plies (empties for an exact or WLD solve).
    pub depth: u32,
    /// What the scores mean.
    pub kind: ScoreKind,
    /// Root moves best first (PVs filled for the first `multipv`).
    pub lines: Vec<Line>,
    /// Nodes so far, all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// The result of [`Engine::analyze`].
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Best move (a pass when the side to move has none).
    pub best_move: Move,
    /// Score for the side to move in [`SCALE`] units per disc.
    pub score: i32,
    /// What the score means.
    pub kind: ScoreKind,
    /// Depth of the score: the deepest finished iteration (empties for a solve), or, when the
    /// time ran out, the unfinished one if it had already proved `best_move` better.
    pub depth: u32,
    /// Principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
    /// The `multipv` best moves, best first, each with its PV.
    pub lines: Vec<Line>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// True when the side to move had no legal move and the analysis is of its pass.
    pub passed: bool,
    /// False when the time ran out before the requested depth or solve finished.
    pub complete: bool,
}

impl Analysis {
    /// The score in discs.
    #[must_use]
    pub fn score_discs(&self) -> f64 {
        f64::from(self.score) / f64::from(SCALE)
    }

    /// Nodes per second over the whole search.
    #[must_use]
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}
