//! A line's accumulated loss against an evaluated book (`othbook book loss`, and the explore
//! answer's `line_losses`): at each move, the book's best move at that position, the value of
//! the move played, what it lost against the best, and each side's loss so far, as Egaroucid
//! shows a game's per-move and cumulative error.
//!
//! Values are the book's, for the side playing the move (discs). A move whose value the book
//! does not hold (the line left the book's values) has no loss: it is not counted.

use crate::board::{Board, Color, Move, Position};
use crate::book::key::Canonical;
use crate::book::{Book, BookError};
use crate::report::round2;
use serde::{Deserialize, Serialize};

/// One move of the line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveLoss {
    /// 1-based ply from the line's start.
    pub ply: usize,
    /// Who played it: `black` or `white`.
    pub side: String,
    #[serde(rename = "move")]
    pub mv: String,
    /// The book's best move at the position (`null`: the book holds no value there).
    pub best: Option<String>,
    /// The position's value in the book, for the side to move (discs).
    pub best_value: Option<f64>,
    /// The value of the move played, for its player (discs).
    pub value: Option<f64>,
    /// `best_value - value` (discs); `null` when either is unknown; 0 for a forced pass.
    pub loss: Option<f64>,
    /// Black's and white's losses so far, this move included (discs).
    pub black_loss: f64,
    pub white_loss: f64,
}

/// A line's losses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LossReport {
    /// Where the line starts (OBF).
    pub start: String,
    /// The line, passes included.
    pub line: String,
    pub moves: Vec<MoveLoss>,
    /// Black's and white's total loss over the moves whose loss is known (discs).
    pub black_loss: f64,
    pub white_loss: f64,
    /// Moves whose loss is unknown (the book holds no value for them).
    pub unknown: usize,
}

/// The book's best move at a position and its value, in hundredths of a disc.
type Best = Option<(Move, i32)>;

/// The value in hundredths of a disc of `mv` at `board` for its player, and the book's
/// best move and value there: `None`s where the book has no value.
fn move_values(book: &Book, board: &Board, mv: Move) -> Result<(Best, Option<i32>), BookError> {
    let ranked = book.try_best_moves(board)?;
    let best = ranked.first().map(|m| (m.mv, i32::from(m.score.score)));
    let Ok(child) = board.play_move(mv) else {
        return Ok((best, None));
    };
    let key = Canonical::of(&child).key;
    let played = ranked
        .iter()
        .find(|m| {
            board
                .play_move(m.mv)
                .is_ok_and(|c| Canonical::of(&c).key == key)
        })
        .map(|m| i32::from(m.score.score));
    Ok((best, played))
}

impl LossReport {
    /// The losses of `line` played from `start`, against `book`'s values. The line must be
    /// legal (a parsed [`crate::report::query::Target`]'s is).
    pub fn build(book: &Book, start: &Position, line: &[Move]) -> Result<LossReport, BookError> {
        let mut pos = *start;
        let mut moves = Vec::with_capacity(line.len());
        let (mut black, mut white) = (0i64, 0i64);
        let mut unknown = 0;
        for (i, &mv) in line.iter().enumerate() {
            let (best, played, loss) = if mv == Move::Pass {
                (Some((Move::Pass, 0)), Some(0), Some(0))
            } else {
                let (best, played) = move_values(book, &pos.board, mv)?;
                let loss = best.zip(played).map(|((_, b), p)| (b - p).max(0));
                (best, played, loss)
            };
            match (loss, pos.side) {
                (Some(l), Color::Black) => black += i64::from(l),
                (Some(l), Color::White) => white += i64::from(l),
                (None, _) => unknown += 1,
            }
            let discs = |h: i32| round2(f64::from(h) / 100.0);
            moves.push(MoveLoss {
                ply: i + 1,
                side: match pos.side {
                    Color::Black => "black",
                    Color::White => "white",
                }
                .to_string(),
                mv: mv.to_string(),
                best: best.map(|(m, _)| m.to_string()),
                best_value: best.map(|(_, v)| discs(v)),
                value: played.map(discs),
                loss: loss.map(discs),
                black_loss: round2(black as f64 / 100.0),
                white_loss: round2(white as f64 / 100.0),
            });
            pos = match pos.play(mv) {
                Ok(next) => next,
                Err(_) => break,
            };
        }
        Ok(LossReport {
            start: start.to_obf(),
            line: crate::board::format_moves(line),
            moves,
            black_loss: round2(black as f64 / 100.0),
            white_loss: round2(white as f64 / 100.0),
            unknown,
        })
    }
}
