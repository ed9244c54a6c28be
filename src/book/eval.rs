//! Searched values of book positions: the leaf (the best move that leaves the book, scored
//! by a search) and the value negamaxed through the book's moves, as the file stores them.
//!
//! Scores are for the side to move, in hundredths of a disc (the engine's scale), so a
//! midgame evaluation keeps its fractions and an exact score is a multiple of 100.

/// Hundredths of a disc per disc in stored scores.
pub const SCORE_SCALE: i32 = 100;
/// Bytes per evaluation record (one per position, in position-table order).
pub const EVAL_SIZE: usize = 8;
/// Leaf move code meaning "no move": every move stays in the book, or the game is over.
pub const NO_LEAF_MOVE: u8 = 255;

/// What a score means.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ValueKind {
    /// A depth-limited search with the evaluation.
    #[default]
    Midgame,
    /// Perfect play to the end: the final disc difference.
    Exact,
    /// Perfect play, but only win, draw or loss is known (the sign is right).
    Wld,
}

impl ValueKind {
    fn bits(self) -> u8 {
        match self {
            ValueKind::Midgame => 0,
            ValueKind::Exact => 1,
            ValueKind::Wld => 2,
        }
    }

    fn from_bits(b: u8) -> ValueKind {
        match b & 3 {
            1 => ValueKind::Exact,
            2 => ValueKind::Wld,
            _ => ValueKind::Midgame,
        }
    }

    /// A short word for tables: `mid`, `exact`, `wld`.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            ValueKind::Midgame => "mid",
            ValueKind::Exact => "exact",
            ValueKind::Wld => "wld",
        }
    }

    /// The weaker of two kinds: a line is only as exact as its least exact score.
    #[must_use]
    pub fn weaker(self, other: ValueKind) -> ValueKind {
        match (self, other) {
            (ValueKind::Exact, k) | (k, ValueKind::Exact) => k,
            (ValueKind::Wld, ValueKind::Wld) => ValueKind::Wld,
            _ => ValueKind::Midgame,
        }
    }
}

/// A score with where it came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Score {
    /// For the side to move, in hundredths of a disc.
    pub score: i16,
    /// Search depth in plies (empties for a solve; 0 for a finished game).
    pub depth: u8,
    /// What the score means.
    pub kind: ValueKind,
}

impl Score {
    /// The score in discs.
    #[must_use]
    pub fn discs(&self) -> f64 {
        f64::from(self.score) / f64::from(SCORE_SCALE)
    }

    /// The same score from the other side's view (same depth and kind).
    #[must_use]
    pub fn negated(self) -> Score {
        Score {
            score: -self.score,
            ..self
        }
    }

    /// Whether `self` is a deeper (more trustworthy) search than `other`: exact beats WLD
    /// beats midgame, then depth.
    #[must_use]
    pub fn deeper_than(&self, other: &Score) -> bool {
        let rank = |s: &Score| {
            (
                match s.kind {
                    ValueKind::Midgame => 0,
                    ValueKind::Wld => 1,
                    ValueKind::Exact => 2,
                },
                s.depth,
            )
        };
        rank(self) > rank(other)
    }
}

/// The searched leaf of a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Leaf {
    /// Not searched yet.
    #[default]
    Missing,
    /// The best move out of the book (canonical move code, as in the move table) and its
    /// score.
    Move {
        /// Canonical move code.
        code: u8,
        /// Its score for the side to move.
        score: Score,
    },
    /// The score of the best move out of the book without the move: a book imported from a
    /// program that keeps a position's value but not which move gives it (Egaroucid's
    /// frontier positions, an Edax leaf scored without a move). Never searched again unless
    /// refreshed; players do not play from it.
    ScoreOnly(Score),
    /// Every legal move leads to a position of the book: the value comes from them alone.
    InBook,
    /// Neither side can move: the final disc difference.
    GameOver(Score),
}

impl Leaf {
    /// The leaf's score, if it has one.
    #[must_use]
    pub fn score(&self) -> Option<Score> {
        match self {
            Leaf::Move { score, .. } | Leaf::ScoreOnly(score) | Leaf::GameOver(score) => {
                Some(*score)
            }
            Leaf::Missing | Leaf::InBook => None,
        }
    }

    /// Whether the leaf has been searched (or needs no search).
    #[must_use]
    pub fn is_known(&self) -> bool {
        !matches!(self, Leaf::Missing)
    }
}

/// What the evaluation knows of one position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PosEval {
    /// The searched leaf.
    pub leaf: Leaf,
    /// max(leaf, −value of each child in the book); `None` until something is known.
    pub value: Option<Score>,
    /// The position was added by `book deviate`: no game reached it.
    pub added: bool,
}

const LEAF_MISSING: u8 = 0;
const LEAF_MOVE: u8 = 1;
const LEAF_IN_BOOK: u8 = 2;
const LEAF_GAME_OVER: u8 = 3;
const HAS_VALUE: u8 = 1 << 4;
const ADDED: u8 = 1 << 7;

impl PosEval {
    /// The 8-byte record: value (i16), leaf score (i16), leaf move, leaf depth, value
    /// depth, then flags: bits 0-1 leaf state, 2-3 leaf kind, 4 value present, 5-6 value
    /// kind, 7 added by deviation.
    #[must_use]
    pub fn encode(&self) -> [u8; EVAL_SIZE] {
        let (state, code, leaf) = match self.leaf {
            Leaf::Missing => (LEAF_MISSING, NO_LEAF_MOVE, Score::default()),
            Leaf::Move { code, score } => (LEAF_MOVE, code, score),
            Leaf::ScoreOnly(score) => (LEAF_MOVE, NO_LEAF_MOVE, score),
            Leaf::InBook => (LEAF_IN_BOOK, NO_LEAF_MOVE, Score::default()),
            Leaf::GameOver(score) => (LEAF_GAME_OVER, NO_LEAF_MOVE, score),
        };
        let value = self.value.unwrap_or_default();
        let mut flags = state | leaf.kind.bits() << 2 | value.kind.bits() << 5;
        if self.value.is_some() {
            flags |= HAS_VALUE;
        }
        if self.added {
            flags |= ADDED;
        }
        let v = value.score.to_le_bytes();
        let l = leaf.score.to_le_bytes();
        [v[0], v[1], l[0], l[1], code, leaf.depth, value.depth, flags]
    }

    /// The record read back; `None` if its bits are not a record othbook writes.
    #[must_use]
    pub fn decode(b: &[u8]) -> Option<PosEval> {
        let b: &[u8; EVAL_SIZE] = b.get(..EVAL_SIZE)?.try_into().ok()?;
        let flags = b[7];
        let leaf_score = Score {
            score: i16::from_le_bytes([b[2], b[3]]),
            depth: b[5],
            kind: ValueKind::from_bits(flags >> 2),
        };
        let leaf = match flags & 3 {
            LEAF_MISSING => Leaf::Missing,
            LEAF_MOVE if b[4] <= crate::book::key::PASS_CODE => Leaf::Move {
                code: b[4],
                score: leaf_score,
            },
            LEAF_MOVE if b[4] == NO_LEAF_MOVE => Leaf::ScoreOnly(leaf_score),
            LEAF_IN_BOOK => Leaf::InBook,
            LEAF_GAME_OVER => Leaf::GameOver(leaf_score),
            _ => return None,
        };
        let value = (flags & HAS_VALUE != 0).then_some(Score {
            score: i16::from_le_bytes([b[0], b[1]]),
            depth: b[6],
            kind: ValueKind::from_bits(flags >> 5),
        });
        let in_range = |s: Option<Score>| s.is_none_or(|s| i32::from(s.score).abs() <= 64 * 100);
        (in_range(value) && in_range(leaf.score())).then_some(PosEval {
            leaf,
            value,
            added: flags & ADDED != 0,
        })
    }
}

/// The selectivity of a full-width search (no Multi-ProbCut): what books record that were
/// evaluated without a selectivity, and what format versions 2 and 3 imply.
pub const FULL_WIDTH: u8 = 100;

/// How a book was last evaluated (in the header of evaluated books).
#[derive(Clone, Debug, PartialEq, Eq, bincode::Encode, bincode::Decode)]
pub struct EvalInfo {
    /// Leaf search depth in plies.
    pub depth: u8,
    /// Leaves with at most this many empties are solved exactly.
    pub exact_from: u8,
    /// Multi-ProbCut's confidence in the midgame leaf searches, in percent (73, 87, 95, 98,
    /// 99); [`FULL_WIDTH`] without ProbCut. Solved leaves are exact whatever it is. A plain
    /// number: the engine's selectivity levels are above the book.
    pub selectivity: u8,
}

impl Default for EvalInfo {
    fn default() -> Self {
        EvalInfo {
            depth: 0,
            exact_from: 0,
            selectivity: FULL_WIDTH,
        }
    }
}

impl EvalInfo {
    /// Whether the midgame leaves were searched without ProbCut.
    #[must_use]
    pub fn is_full_width(&self) -> bool {
        self.selectivity >= FULL_WIDTH
    }

    /// The selectivity in words: `full width` or `selectivity 87%`.
    #[must_use]
    pub fn selectivity_words(&self) -> String {
        selectivity_words(self.selectivity)
    }
}

/// A selectivity `percent` in words: `full width` (100) or `selectivity 87%`.
#[must_use]
pub fn selectivity_words(percent: u8) -> String {
    if percent >= FULL_WIDTH {
        "full width".into()
    } else {
        format!("selectivity {percent}%")
    }
}

impl std::fmt::Display for EvalInfo {
    /// `depth 12, exact from 18 empties, selectivity 87%` (or `full width`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "depth {}, exact from {} empties, {}",
            self.depth,
            self.exact_from,
            self.selectivity_words()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn score() -> impl Strategy<Value = Score> {
        (-6400i16..=6400, any::<u8>(), 0u8..3).prop_map(|(score, depth, k)| Score {
            score,
            depth,
            kind: ValueKind::from_bits(k),
        })
    }

    fn leaf() -> impl Strategy<Value = Leaf> {
        prop_oneof![
            Just(Leaf::Missing),
            Just(Leaf::InBook),
            score().prop_map(Leaf::GameOver),
            score().prop_map(Leaf::ScoreOnly),
            (0u8..=64, score()).prop_map(|(code, score)| Leaf::Move { code, score }),
        ]
    }

    proptest! {
        #[test]
        fn records_round_trip(leaf in leaf(), value in proptest::option::of(score()), added: bool) {
            let e = PosEval { leaf, value, added };
            prop_assert_eq!(PosEval::decode(&e.encode()), Some(e));
        }
    }

    #[test]
    fn an_empty_record_is_a_position_not_evaluated() {
        assert_eq!(PosEval::decode(&[0; 8]), Some(PosEval::default()));
    }

    #[test]
    fn damaged_records_are_refused() {
        let mut r = PosEval {
            leaf: Leaf::Move {
                code: 3,
                score: Score::default(),
            },
            value: None,
            added: false,
        }
        .encode();
        r[4] = 90;
        assert_eq!(PosEval::decode(&r), None);
        let mut r = PosEval::default().encode();
        r[7] = HAS_VALUE;
        r[0..2].copy_from_slice(&7000i16.to_le_bytes());
        assert_eq!(PosEval::decode(&r), None);
    }
}
