//! Queries of an evaluated book: a position's value and its moves ranked by value, in the
//! caller's orientation.

use crate::board::{Board, Move};
use crate::book::eval::{Leaf, PosEval, Score};
use crate::book::key::{representative, Canonical};
use crate::book::reader::Book;
use crate::book::BookError;

/// A move with its value from the book, for the side playing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move, on the board asked about.
    pub mv: Move,
    /// Its value for the side playing it: −(the value of the position it leads to) for a move
    /// in the book, the leaf's searched score for the best move out of the book.
    pub score: Score,
    /// Whether the move leads to a position of the book (`false`: the leaf).
    pub in_book: bool,
}

impl Book {
    /// The value of `board` for its side to move, if the book holds the position with a
    /// value (any symmetric image, any move order).
    #[must_use]
    pub fn value(&self, board: &Board) -> Option<Score> {
        self.try_value(board).ok().flatten()
    }

    /// [`Book::value`], reporting damaged data as an error.
    pub fn try_value(&self, board: &Board) -> Result<Option<Score>, BookError> {
        Ok(self.evaluation(board)?.and_then(|e| e.value))
    }

    /// Everything the book's evaluation knows of `board` (leaf move codes are canonical:
    /// use [`Book::best_moves`] for moves on the board).
    pub fn evaluation(&self, board: &Board) -> Result<Option<PosEval>, BookError> {
        Ok(self.find(&Canonical::of(board))?.map(|p| p.eval))
    }

    /// The moves of `board` that have a value in the book, best first: every move leading to
    /// a position with a value, and the leaf. Moves that the position's symmetry makes
    /// equivalent are listed once. Empty when the book has no values for the position.
    #[must_use]
    pub fn best_moves(&self, board: &Board) -> Vec<MoveValue> {
        self.try_best_moves(board).unwrap_or_default()
    }

    /// [`Book::best_moves`], reporting damaged data as an error.
    pub fn try_best_moves(&self, board: &Board) -> Result<Vec<MoveValue>, BookError> {
        if !self.has_values() {
            return Ok(Vec::new());
        }
        let c = Canonical::of(board);
        let Some(p) = self.find(&c)? else {
            return Ok(Vec::new());
        };
        let mut out: Vec<MoveValue> = Vec::new();
        for (mv, code) in crate::book::negamax::distinct_moves(board, &c) {
            let shown = if mv == Move::Pass {
                mv
            } else {
                representative(&c.moves_of(code)).unwrap_or(mv)
            };
            let child = board.play_move(mv).expect("a legal move");
            let child_value = self.find(&Canonical::of(&child))?.map(|cp| cp.eval.value);
            match (child_value, p.eval.leaf) {
                (Some(Some(v)), _) => out.push(MoveValue {
                    mv: shown,
                    score: Score {
                        score: -v.score,
                        depth: v.depth.saturating_add(1),
                        kind: v.kind,
                    },
                    in_book: true,
                }),
                (None, Leaf::Move { code: leaf, score }) if leaf == code => out.push(MoveValue {
                    mv: shown,
                    score,
                    in_book: false,
                }),
                _ => {}
            }
        }
        // Best first; equal values in square order, as the moves were found.
        out.sort_by_key(|m| std::cmp::Reverse(m.score.score));
        Ok(out)
    }
}
