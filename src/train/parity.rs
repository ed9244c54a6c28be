//! The parity correction: a constant added to every phase's biases so that searches of odd
//! and even depth agree on average.
//!
//! A leaf evaluation that underrates the side to move by β discs makes a depth-d score
//! `true + (-1)^(d+1) β` for the root's side (an odd-depth leaf has the opponent to move), so
//! odd depths score 2β higher than even ones. A fit to root positions can leave such a β at
//! the leaves of searches, which are not the positions it saw; measuring the odd-even gap on
//! training positions and adding β to the biases removes it. Moves at a fixed depth do not
//! change (all leaves of one search have the same parity), only the scores users read.

use super::holdout::{is_held_out, position_at, spread};
use super::label::Labelled;
use crate::board::Board;
use crate::engine::{
    Depth, Engine, EngineError, EngineOptions, HashSize, Limits, PatternEval, ThreadCount, SCALE,
};
use crate::transcript::GameRecord;

/// Depths searched to measure the gap (the neighbouring pairs 8-9, 9-10, 10-11).
pub const DEPTHS: std::ops::RangeInclusive<u32> = 8..=11;

/// The mean score at odd depths minus the neighbouring even depths, in discs, of searches
/// with `eval` over `positions` (one thread, the table cleared before each search).
pub fn odd_minus_even(eval: &PatternEval, positions: &[Board]) -> Result<f64, EngineError> {
    let mut engine = Engine::try_with_evaluator(
        EngineOptions {
            threads: ThreadCount::ONE,
            hash_mb: HashSize::of(4),
        },
        eval.clone(),
    )?;
    let mut sum = 0.0;
    let mut pairs = 0usize;
    for b in positions {
        let mut scores = Vec::with_capacity(4);
        for d in DEPTHS {
            engine.clear();
            let s = engine.analyze(b, &Limits::depth(Depth::new(d)?))?.score;
            scores.push(f64::from(s) / f64::from(SCALE));
        }
        for (k, w) in scores.windows(2).enumerate() {
            let d = DEPTHS.start() + k as u32;
            sum += if d % 2 == 1 { w[0] - w[1] } else { w[1] - w[0] };
            pairs += 1;
        }
    }
    Ok(if pairs == 0 { 0.0 } else { sum / pairs as f64 })
}

/// `eval` with `beta` discs added to every bias.
#[must_use]
pub fn shift_biases(eval: &PatternEval, beta: f64) -> PatternEval {
    let add = (beta * f64::from(SCALE)).round();
    let bias = eval
        .biases()
        .iter()
        .map(|b| b.map(|x| (f64::from(x) + add).clamp(-32_000.0, 32_000.0) as i16))
        .collect();
    PatternEval::from_parts(*eval.phase_of(), bias, eval.representatives())
        .expect("the same layout as a valid evaluation")
}

/// `eval` corrected by half its odd-even gap over `positions`; returns the gap before and the
/// shift applied (discs).
pub fn correct(
    eval: &PatternEval,
    positions: &[Board],
) -> Result<(PatternEval, f64, f64), EngineError> {
    let gap = odd_minus_even(eval, positions)?;
    Ok((shift_biases(eval, gap / 2.0), gap, gap / 2.0))
}

/// Up to `n` training positions at 20-40 empties (the band the parity swing is measured in),
/// spread over the labels not held out by `holdout` (as [`super::train_labels`] holds out).
#[must_use]
pub fn positions_from_labels(labels: &[Labelled], holdout: usize, n: usize) -> Vec<Board> {
    let pool: Vec<Board> = labels
        .iter()
        .enumerate()
        .filter(|(i, l)| !is_held_out(*i, holdout) && (20..=40).contains(&l.board.empty_count()))
        .map(|(_, l)| l.board)
        .collect();
    spread(&pool, n)
}

/// Up to `n` training positions at 20-40 empties, one per game spread over the games not
/// held out by `holdout`.
#[must_use]
pub fn positions_from_games(games: &[GameRecord], holdout: usize, n: usize) -> Vec<Board> {
    let pool: Vec<&GameRecord> = games
        .iter()
        .enumerate()
        .filter(|(i, g)| !is_held_out(*i, holdout) && position_at(g, 20).is_some())
        .map(|(_, g)| g)
        .collect();
    spread(&pool, n)
        .iter()
        .enumerate()
        .filter_map(|(k, g)| position_at(g, 20 + (7 * k as u32) % 21).map(|p| p.board))
        .collect()
}
