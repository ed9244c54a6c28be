//! The move-choice part of `othbook bench --quality`: how often a depth-D search picks a
//! move that is best under perfect play, and how many discs its choice loses, at positions
//! of held-out games that the engine can still solve.
//!
//! The accuracy figure (error against the theoretical score) rewards an evaluation for
//! getting whole positions' values right, which does not choose moves; this measures the
//! choice itself, which is what games are won with.

use anyhow::{ensure, Result};
use othbook::board::{Bitboard, Move, Position};
use othbook::engine::{Depth, Engine, Limits, Selectivity, SCALE};
use othbook::train::holdout::{position_at, spread};
use othbook::transcript::GameRecord;
use serde::Serialize;
use std::time::Instant;

/// The choices of one search depth.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Choice {
    /// Search depth.
    pub depth: u32,
    /// Share of the positions where the move chosen is best under perfect play (0 to 1).
    pub best: f64,
    /// Mean discs the chosen move loses against the best one under perfect play.
    pub loss: f64,
}

/// Move choice at one empty count.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct ChoiceReport {
    /// Empty squares of the positions.
    pub empties: u32,
    /// Positions measured (one per held-out game, each with at least two legal moves).
    pub positions: usize,
    /// Per search depth.
    pub by_depth: Vec<Choice>,
}

/// The positions: one per held-out game at `empties` empties, spread over the games, where
/// the side to move has a choice.
pub fn choice_set(games: &[GameRecord], empties: u32, n: usize) -> Vec<Position> {
    let candidates: Vec<Position> = games
        .iter()
        .filter_map(|g| position_at(g, empties))
        .filter(|p| p.board.legal_moves().count() >= 2)
        .collect();
    spread(&candidates, n)
}

/// Exact value of `mv` at `pos`, in SCALE units for the side to move.
fn exact_value(engine: &mut Engine, pos: &Position, mv: Move) -> Result<i32> {
    let Move::Play(sq) = mv else {
        unreachable!("a position with two legal moves has no pass")
    };
    engine.clear();
    let a = engine.analyze(&pos.board, &Limits::exact().only(Bitboard::from(sq)))?;
    Ok(a.score)
}

/// Solves every position, then scores the move of a depth-D search at `selectivity` for each
/// of `depths`.
pub fn measure_choice(
    engine: &mut Engine,
    positions: &[Position],
    empties: u32,
    depths: &[u32],
    selectivity: Selectivity,
) -> Result<ChoiceReport> {
    let start = Instant::now();
    let mut best = vec![0usize; depths.len()];
    let mut loss = vec![0i64; depths.len()];
    for (i, pos) in positions.iter().enumerate() {
        engine.clear();
        let solved = engine.analyze(&pos.board, &Limits::exact())?;
        for (k, &d) in depths.iter().enumerate() {
            engine.clear();
            let chosen = engine
                .analyze(
                    &pos.board,
                    &Limits::depth(Depth::new(d)?).selectivity(selectivity),
                )?
                .best_move;
            let value = if chosen == solved.best_move {
                solved.score
            } else {
                exact_value(engine, pos, chosen)?
            };
            let lost = i64::from(solved.score - value);
            ensure!(
                lost >= 0,
                "{chosen} is worth {:+} discs exactly, more than the solved best {} ({:+})",
                value / SCALE,
                solved.best_move,
                solved.score / SCALE
            );
            best[k] += usize::from(lost == 0);
            loss[k] += lost;
        }
        super::bench_progress::progress("move choice", i + 1, positions.len(), start);
    }
    let n = positions.len().max(1) as f64;
    let scale = f64::from(SCALE);
    Ok(ChoiceReport {
        empties,
        positions: positions.len(),
        by_depth: depths
            .iter()
            .enumerate()
            .map(|(k, &depth)| Choice {
                depth,
                best: best[k] as f64 / n,
                loss: loss[k] as f64 / scale / n,
            })
            .collect(),
    })
}
