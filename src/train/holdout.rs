//! The held-out games and the positions the evaluation is measured on.
//!
//! A game is held out when its index in the training input, read in the order `othbook train`
//! reads it (the WTHOR files in name order first, then any other collection, one copy of
//! repeated games), is `k · EVERY − 1`: the games `--holdout 20` keeps out of training. The
//! WTHOR games come first, so their indices do not depend on what follows them, and the
//! quality measurement reads the WTHOR files alone.

use crate::board::{Color, Move, Position};
use crate::transcript::GameRecord;

/// Every `EVERY`-th game is held out (training's default `--holdout`).
pub const EVERY: usize = 20;

/// Whether game number `index` (0-based) of the training input is held out when every
/// `every`-th game is (`every` = 0: none).
#[must_use]
pub fn is_held_out(index: usize, every: usize) -> bool {
    every > 0 && index % every == every - 1
}

/// The WTHOR theoretical score (black's discs under perfect play from 24 empties) kept in a
/// result's raw text `real/theoretical`, as black-minus-white discs. Other formats never
/// write a `/` in their results.
#[must_use]
pub fn theoretical_diff(raw: &str) -> Option<i32> {
    let (a, b) = raw.split_once('/')?;
    a.trim().parse::<u8>().ok()?;
    let t: i32 = b.trim().parse().ok()?;
    (0..=64).contains(&t).then_some(2 * t - 64)
}

/// The first position of `g` with `empties` empty squares at which the side to move has a
/// move (after a pass, the position after it).
#[must_use]
pub fn position_at(g: &GameRecord, empties: u32) -> Option<Position> {
    let mut pos = g.start;
    for &mv in g.moves.iter().chain(std::iter::once(&Move::Pass)) {
        if pos.board.empty_count() == empties && pos.board.has_moves() {
            return Some(pos);
        }
        if pos.board.empty_count() < empties {
            return None;
        }
        pos = pos.play(mv).ok()?;
    }
    None
}

/// A position at 24 empties with its exact value: the game's WTHOR theoretical score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scored {
    /// The position (the side to move has a move).
    pub position: Position,
    /// Perfect-play disc difference for the side to move.
    pub exact: i32,
}

/// The position at 24 empties of a game with a theoretical score, scored for the side to move.
#[must_use]
pub fn scored_at_24(g: &GameRecord) -> Option<Scored> {
    let black = theoretical_diff(&g.result.as_ref()?.raw)?;
    let position = position_at(g, 24)?;
    let exact = if position.side == Color::Black {
        black
    } else {
        -black
    };
    Some(Scored { position, exact })
}

/// `n` items spread evenly over `items` (all of them when there are fewer), in order.
pub fn spread<T: Clone>(items: &[T], n: usize) -> Vec<T> {
    if items.len() <= n {
        return items.to_vec();
    }
    (0..n).map(|k| items[k * items.len() / n].clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn theoretical_scores_come_only_from_wthor_results() {
        assert_eq!(theoretical_diff("36/34"), Some(4));
        assert_eq!(theoretical_diff("0/0"), Some(-64));
        assert_eq!(theoretical_diff("36/65"), None);
        assert_eq!(theoretical_diff("-04 10"), None);
        assert_eq!(theoretical_diff("28-36"), None);
        assert_eq!(theoretical_diff("+2.000"), None);
    }

    #[test]
    fn every_twentieth_game_is_held_out() {
        let held: Vec<usize> = (0..60).filter(|&i| is_held_out(i, EVERY)).collect();
        assert_eq!(held, [19, 39, 59]);
        assert!(!(0..100).any(|i| is_held_out(i, 0)));
    }

    #[test]
    fn spread_keeps_order_and_count() {
        let v: Vec<u32> = (0..10).collect();
        assert_eq!(spread(&v, 3), [0, 3, 6]);
        assert_eq!(spread(&v, 20), v);
    }
}
