//! [`AnyEval`]: the evaluation chosen at run time (`eval=pattern|hand`), so players and
//! commands can switch evaluations without making everything generic; and [`SearchEval`],
//! by which an engine makes that choice once per search instead of at every node.

use super::pattern::Features;
use super::{Evaluator, HandEval, PatternEval};
use std::fmt;
use std::str::FromStr;

/// A search to run over one concrete evaluation (see [`SearchEval::with_concrete`]).
pub trait EvalCore {
    /// What the search returns.
    type Out;
    /// Runs the search with `eval`.
    fn run<E: Evaluator>(self, eval: &E) -> Self::Out;
}

/// An evaluation an [`crate::engine::Engine`] searches with. One chosen at run time
/// ([`AnyEval`]) is resolved here, once per search, so that the search is compiled for the
/// concrete evaluation and no node asks again which one it is.
pub trait SearchEval: Evaluator + Sized {
    /// Runs `core` with the concrete evaluation behind `self`.
    fn with_concrete<C: EvalCore>(&self, core: C) -> C::Out {
        core.run(self)
    }
}

impl SearchEval for HandEval {}
impl SearchEval for PatternEval {}

impl SearchEval for AnyEval {
    fn with_concrete<C: EvalCore>(&self, core: C) -> C::Out {
        match self {
            AnyEval::Hand(e) => core.run(e),
            AnyEval::Pattern(e) => core.run(e),
        }
    }
}

/// Which evaluation to use, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EvalKind {
    /// The hand-made evaluation ([`HandEval`]).
    Hand,
    /// The trained pattern evaluation with the default weights ([`PatternEval`]): the default,
    /// since it wins 39 of 40 games against the hand-made one at equal depth or time.
    #[default]
    Pattern,
}

impl FromStr for EvalKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "hand" => Ok(EvalKind::Hand),
            "pattern" => Ok(EvalKind::Pattern),
            _ => Err(format!("unknown evaluation {s:?}: use pattern or hand")),
        }
    }
}

impl fmt::Display for EvalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EvalKind::Hand => "hand",
            EvalKind::Pattern => "pattern",
        })
    }
}

/// One of the evaluations, chosen at run time.
#[derive(Clone, Debug)]
pub enum AnyEval {
    /// Hand-made features.
    Hand(HandEval),
    /// Trained patterns.
    Pattern(PatternEval),
}

impl AnyEval {
    /// The evaluation of that kind with its default weights.
    #[must_use]
    pub fn new(kind: EvalKind) -> AnyEval {
        match kind {
            EvalKind::Hand => AnyEval::Hand(HandEval::default()),
            EvalKind::Pattern => AnyEval::Pattern(PatternEval::default()),
        }
    }

    /// Which kind this is.
    #[must_use]
    pub fn kind(&self) -> EvalKind {
        match self {
            AnyEval::Hand(_) => EvalKind::Hand,
            AnyEval::Pattern(_) => EvalKind::Pattern,
        }
    }
}

impl Default for AnyEval {
    fn default() -> Self {
        AnyEval::new(EvalKind::default())
    }
}

/// For single evaluations outside a search (a search goes through [`SearchEval`]).
impl Evaluator for AnyEval {
    /// Pattern features; left unused by the hand-made evaluation.
    type State = Features;

    #[inline]
    fn state(&self, p: u64, o: u64) -> Features {
        match self {
            AnyEval::Hand(_) => Features::new(0, 0),
            AnyEval::Pattern(e) => e.state(p, o),
        }
    }

    #[inline]
    fn play(&self, s: &Features, sq: u8, flips: u64) -> Features {
        match self {
            AnyEval::Hand(_) => *s,
            AnyEval::Pattern(e) => e.play(s, sq, flips),
        }
    }

    #[inline]
    fn pass(&self, s: &Features) -> Features {
        match self {
            AnyEval::Hand(_) => *s,
            AnyEval::Pattern(e) => e.pass(s),
        }
    }

    #[inline]
    fn eval_state(&self, s: &Features, p: u64, o: u64) -> i32 {
        match self {
            AnyEval::Hand(e) => e.eval(p, o),
            AnyEval::Pattern(e) => e.eval_features(s, p, o),
        }
    }

    #[inline]
    fn eval(&self, p: u64, o: u64) -> i32 {
        match self {
            AnyEval::Hand(e) => e.eval(p, o),
            AnyEval::Pattern(e) => e.eval(p, o),
        }
    }
}
