//! How the book queries (`explore`, `top`, `analyze`) show an evaluated book's values: a
//! position's value and its moves ranked by value, as cells, TSV and JSON fields.
//!
//! Tables and JSON give values as black minus white, like the games' average; the book
//! stores them for the side to move.

use super::common::json_str;
use anyhow::Result;
use othbook::board::{Color, Move, Position};
use othbook::book::key::equivalent_moves;
use othbook::book::{Book, EvalInfo, MoveValue, Score};
use othbook::engine::{score_number, score_text};

/// `s` (for the side to move, `side`) as black minus white.
pub fn for_black(s: Score, side: Color) -> Score {
    match side {
        Color::Black => s,
        Color::White => s.negated(),
    }
}

/// `+1.25`, or `+4` for an exact value.
pub fn value_text(s: Score) -> String {
    score_text(i32::from(s.score), s.kind.into())
}

/// The value as a TSV or JSON number: `1.25`, `4`.
pub fn value_number(s: Score) -> String {
    score_number(i32::from(s.score), s.kind.into())
}

/// TSV cells `value`, `value_depth`, `value_kind` (empty without a value), each after a tab.
pub fn tsv_cells(s: Option<Score>) -> String {
    s.map_or_else(
        || "\t\t\t".to_string(),
        |s| format!("\t{}\t{}\t{}", value_number(s), s.depth, s.kind.word()),
    )
}

/// JSON fields `"value"`, `"value_depth"`, `"value_kind"` (nulls without a value), each after
/// a comma.
pub fn json_fields(s: Option<Score>) -> String {
    s.map_or_else(
        || ",\"value\":null,\"value_depth\":null,\"value_kind\":null".to_string(),
        |s| {
            format!(
                ",\"value\":{},\"value_depth\":{},\"value_kind\":{}",
                value_number(s),
                s.depth,
                json_str(s.kind.word())
            )
        },
    )
}

/// How the book's values were searched, for footnotes: `leaves searched 12 plies deep
/// (exact at 20 empties or fewer)`.
pub fn searched(info: &EvalInfo) -> String {
    let exact = if info.exact_from > 0 {
        format!(" (exact at {} empties or fewer)", info.exact_from)
    } else {
        String::new()
    };
    format!("leaves searched {} plies deep{exact}", info.depth)
}

/// What an evaluated book says of one position (explore and analyze).
pub struct PositionValues {
    /// The position's value for its side to move, if the book has one.
    pub value: Option<Score>,
    /// Moves with a value, best first for the side to move (see [`Book::best_moves`]).
    pub moves: Vec<MoveValue>,
    /// How the book was evaluated.
    pub info: EvalInfo,
}

impl PositionValues {
    /// The values of `pos`; `None` for a book without values.
    pub fn of(book: &Book, pos: &Position) -> Result<Option<PositionValues>> {
        let Some(info) = book.info().evaluation else {
            return Ok(None);
        };
        Ok(Some(PositionValues {
            value: book.try_value(&pos.board)?,
            moves: book.try_best_moves(&pos.board)?,
            info,
        }))
    }

    /// The value of `mv` (or of a move the position's symmetry makes equivalent).
    pub fn of_move(&self, pos: &Position, mv: Move) -> Option<&MoveValue> {
        self.moves
            .iter()
            .find(|m| m.mv == mv || equivalent_moves(&pos.board, m.mv).contains(&mv))
    }

    /// Whether `mv` is a best move: no move has a higher value (ties are all best).
    pub fn is_best(&self, pos: &Position, mv: Move) -> bool {
        let best = self.moves.first().map(|m| m.score.score);
        self.of_move(pos, mv)
            .is_some_and(|m| Some(m.score.score) == best)
    }

    /// The first best move, if any.
    pub fn best(&self) -> Option<&MoveValue> {
        self.moves.first()
    }
}
