//! The typed result of a game review, serialised as is for `--format json`.

use crate::board::{Color, Move};
use crate::engine::SCALE;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A score or a loss in hundredths of a disc ([`SCALE`] per disc), written in JSON as a
/// number of discs (`1.25`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Discs(pub i32);

impl Discs {
    /// The value in discs.
    #[must_use]
    pub fn discs(self) -> f64 {
        f64::from(self.0) / f64::from(SCALE)
    }

    /// `+1.25`, or `+4` when `whole` (exact scores are whole discs).
    #[must_use]
    pub fn signed(self, whole: bool) -> String {
        if whole {
            format!("{:+}", self.0 / SCALE)
        } else {
            format!("{:+.2}", self.discs())
        }
    }

    /// `1.25`, or `4` when `whole`, without a sign for positive values.
    #[must_use]
    pub fn plain(self, whole: bool) -> String {
        if whole {
            format!("{}", self.0 / SCALE)
        } else {
            format!("{:.2}", self.discs())
        }
    }
}

impl Serialize for Discs {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.discs())
    }
}

impl<'de> Deserialize<'de> for Discs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Discs, D::Error> {
        let x = f64::deserialize(d)?;
        let v = (x * f64::from(SCALE)).round();
        if v.abs() > f64::from(i32::MAX) {
            return Err(serde::de::Error::custom(format!(
                "{x} discs is out of range"
            )));
        }
        Ok(Discs(v as i32))
    }
}

/// How bad a move was, by its loss against the engine's best move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// A loss of at least [`Thresholds::inaccuracy`](super::Thresholds).
    Inaccuracy,
    /// A loss of at least [`Thresholds::mistake`](super::Thresholds).
    Mistake,
    /// A loss of at least [`Thresholds::blunder`](super::Thresholds).
    Blunder,
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        })
    }
}

/// What the engine's scores of a move mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScoreSource {
    /// A depth-limited search with the evaluation.
    Midgame,
    /// Perfect play to the end (the final disc difference, empties to the winner).
    Exact,
}

/// The engine's verdict on one move that was not a pass.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// The move played, scored for its player.
    pub played: Discs,
    /// The engine's best move (the move played when it is best, or a move the position's
    /// symmetry makes equivalent to it).
    #[serde(with = "crate::report::move_text")]
    pub best_move: Move,
    /// The best move's score for the same player.
    pub best: Discs,
    /// `best − played`, never negative.
    pub loss: Discs,
    /// Midgame search or exact solve.
    pub kind: ScoreSource,
    /// Search depth in plies (empties for an exact solve).
    pub depth: u32,
    /// The mark the loss earns, if any.
    pub mark: Option<Mark>,
}

/// What the book says of a move that kept the game in the book.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BookMove {
    /// Games of the book that played this move here (0 for a position only linked to the
    /// book by deviation learning or an imported book).
    pub games: u64,
    /// The book's value of the move for its player (−the value of the position it leads to),
    /// when the book is evaluated.
    pub value: Option<Discs>,
    /// Whether `value` is an exact solve.
    pub value_exact: bool,
    /// The book's best move here by value and its value, when the book is evaluated.
    #[serde(with = "crate::report::move_text::option")]
    pub best_move: Option<Move>,
    /// The value of `best_move`.
    pub best_value: Option<Discs>,
}

/// One ply of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveReview {
    /// 1-based ply number, passes counted.
    pub ply: usize,
    /// Who moved.
    #[serde(with = "crate::report::color_text")]
    pub side: Color,
    /// The move played.
    #[serde(with = "crate::report::move_text", rename = "move")]
    pub mv: Move,
    /// Empty squares before the move.
    pub empties: u32,
    /// The engine's scores; `None` for a forced pass.
    pub verdict: Option<Verdict>,
    /// The book's figures while the game is in the book (the position after the move is in
    /// it); `None` from the move that left the book on, or without a book.
    pub book: Option<BookMove>,
}

/// The score after one ply of the reviewed game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScorePoint {
    /// The ply (1-based, passes counted): the point is the position after it.
    pub ply: usize,
    /// Black's score (black − white, discs) after the ply: the engine's score of the move
    /// played, turned to black's view. After a pass, the score of the position it leaves
    /// (the next ply's best), else the score before it.
    pub black: Discs,
    /// Whether the score is an exact solve.
    pub exact: bool,
    /// The loss's mark of the ply's move, if any.
    pub mark: Option<Mark>,
}

/// One player's errors.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayerSummary {
    /// The player's name when the record gives it.
    pub name: Option<String>,
    /// Moves scored (passes not counted).
    pub moves: u32,
    /// Sum of the losses.
    pub total_loss: Discs,
    /// `total_loss / moves` in discs (0 without moves).
    pub average_loss: f64,
    /// Moves marked inaccuracy (only the worst mark of a move counts).
    pub inaccuracies: u32,
    /// Moves marked mistake.
    pub mistakes: u32,
    /// Moves marked blunder.
    pub blunders: u32,
    /// Moves that kept the game in the book.
    pub in_book: u32,
    /// Moves scored by the exact solver.
    pub exact_moves: u32,
    /// Sum of the losses of those moves.
    pub exact_loss: Discs,
}

/// Where the exact solver took over and where the game ended, in black's view: the exact
/// phase's losses add up to the difference (see [`Review::exact_phase`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExactPhase {
    /// The first ply scored by the exact solver.
    pub from_ply: usize,
    /// Empties before it.
    pub empties: u32,
    /// Black's final disc difference under perfect play from there (empties to the winner).
    pub black_score: Discs,
}

/// Facts about the reviewed game, as its record gives them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameInfo {
    /// Black player's name.
    pub black: Option<String>,
    /// White player's name.
    pub white: Option<String>,
    /// Event or tournament.
    pub event: Option<String>,
    /// Year the game was played.
    pub year: Option<u16>,
    /// File and line or record it was read from.
    pub source: Option<String>,
    /// Result as the source wrote it.
    pub result: Option<String>,
    /// The start position when it is not the standard one (64 squares and the side to move).
    pub start: Option<String>,
    /// Every move, passes as `pa` (`f5d6c3...`).
    pub moves: String,
}

/// How the review was searched.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewSettings {
    /// Midgame search depth in plies, when the review was depth-limited.
    pub depth: Option<u32>,
    /// Midgame seconds per position, when the review was time-limited.
    pub time: Option<f64>,
    /// Positions with at most this many empties are solved exactly.
    pub exact_from: u32,
    /// Loss thresholds of the marks, in discs.
    pub inaccuracy: Discs,
    /// See `inaccuracy`.
    pub mistake: Discs,
    /// See `inaccuracy`.
    pub blunder: Discs,
}

/// A reviewed game: every ply scored, where the book ended, and each player's errors.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// The game.
    pub game: GameInfo,
    /// How it was searched.
    pub settings: ReviewSettings,
    /// Every ply, passes included.
    pub moves: Vec<MoveReview>,
    /// Black's score after every ply reviewed (the evaluation graph), losses marked.
    #[serde(default)]
    pub series: Vec<ScorePoint>,
    /// The ply of the first move whose resulting position is not in the book (`None`: no
    /// book, or the game stayed in it).
    pub left_book_at: Option<usize>,
    /// Whether a book was consulted.
    pub book_used: bool,
    /// The deepest named opening along the game, its moves in the game's orientation.
    pub opening: Option<crate::report::OpeningRef>,
    /// Where the exact solver took over, if it did.
    pub exact_phase: Option<ExactPhase>,
    /// Black's final disc difference (empties to the winner) when the game was played to
    /// its end.
    pub final_black: Option<i32>,
    /// Black's errors.
    pub black: PlayerSummary,
    /// White's errors.
    pub white: PlayerSummary,
    /// Total engine nodes.
    pub nodes: u64,
    /// Seconds spent searching.
    pub seconds: f64,
    /// Set when a stop ended the review early: `moves` and the summaries then cover the plies
    /// reviewed before it. Absent from the JSON of a complete review.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<StoppedAt>,
}

/// Where a stopped review ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoppedAt {
    /// Plies reviewed before the stop.
    pub reviewed: usize,
    /// Plies of the game.
    pub plies: usize,
}

impl Review {
    /// The summary of `side`.
    #[must_use]
    pub fn player(&self, side: Color) -> &PlayerSummary {
        match side {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }
}
