//! Reference searches for checking the engine: plain negamax over every node, with the
//! engine's own leaf conventions, so that any pruning, ordering or table bug shows as a
//! different score.

use othbook::board::Board;
use othbook::engine::{Evaluator, PatternEval, SCALE};

/// Negamax value of `board` at `depth` plies with `eval` at the leaves, in the engine's
/// conventions: a pass costs no depth, a finished game scores its final disc difference
/// times [`SCALE`], and the horizon comes first (a leaf is evaluated as it stands).
pub fn negamax(eval: &impl Evaluator, board: Board, depth: u32) -> i32 {
    if depth == 0 {
        return eval.eval(board.player().0, board.opponent().0);
    }
    if !board.has_moves() {
        if !board.pass().has_moves() {
            return board.final_score() * SCALE;
        }
        return -negamax(eval, board.pass(), depth);
    }
    board
        .legal_moves()
        .iter()
        .map(|sq| -negamax(eval, board.play(sq).expect("legal"), depth - 1))
        .max()
        .expect("a move")
}

/// [`negamax`] with the engine's default evaluation.
pub fn negamax_pattern(board: Board, depth: u32) -> i32 {
    negamax(&PatternEval::default(), board, depth)
}
