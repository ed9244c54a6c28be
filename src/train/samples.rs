//! Training positions: the positions of finished games with their labels, and the pattern
//! numbers of every position, sorted by empties for the per-phase fits.

use super::holdout::theoretical_diff;
use crate::board::{Color, Position};
use crate::engine::eval::geometry::{indices, layout, INSTANCES, N_INSTANCES};
use crate::engine::{Evaluator, HandEval};
use crate::transcript::GameRecord;

/// Positions extracted from games, sorted by number of empties.
#[derive(Default)]
pub(super) struct Samples {
    /// `N_INSTANCES` representative numbers (within the pattern) per position.
    pub(super) feats: Vec<u16>,
    pub(super) empties: Vec<u8>,
    /// Training label in discs (theoretical score where chosen).
    pub(super) label: Vec<f32>,
    /// Weight of each position in the least-squares sum (1 for a game position; a search
    /// label counts as `label_weight` game positions in a joint fit).
    pub(super) weight: Vec<f32>,
    /// Real final result in discs.
    pub(super) result: Vec<f32>,
    /// Best-known value in discs: the theoretical score from 24 empties up when the game has
    /// one, else the real result (the same yardstick whatever the training labels).
    pub(super) best: Vec<f32>,
    /// Boards (side to move, opponent), for measuring the final evaluation.
    pub(super) boards: Vec<(u64, u64)>,
    /// Hand evaluation in [`SCALE`] units.
    pub(super) hand: Vec<i16>,
    /// Start of each empty count's positions (index = empties, 62 entries).
    pub(super) start: Vec<usize>,
}

impl Samples {
    pub(super) fn len(&self) -> usize {
        self.empties.len()
    }

    pub(super) fn range(&self, lo: usize, hi: usize) -> std::ops::Range<usize> {
        self.start[lo.min(61)]..self.start[(hi + 1).min(61)]
    }
}

pub(super) struct Raw {
    pub(super) p: u64,
    pub(super) o: u64,
    pub(super) empties: u8,
    pub(super) label: f32,
    /// Weight in the least-squares sum.
    pub(super) weight: f32,
    pub(super) result: f32,
    pub(super) best: f32,
}

/// Positions of one finished game with their labels, or `None` for a game not to use.
pub(super) fn game_positions(g: &GameRecord, theoretical_from: Option<u32>) -> Option<Vec<Raw>> {
    if !g.complete {
        return None;
    }
    g.result.as_ref()?;
    let mut pos: Position = g.start;
    let mut seen = Vec::with_capacity(g.moves.len());
    for &mv in &g.moves {
        seen.push(pos);
        pos = pos.play(mv).ok()?;
    }
    if !pos.board.is_game_over() {
        return None;
    }
    // The board is the truth about a finished game (a typed result can be wrong).
    let result = pos.final_score_black();
    let theo = g
        .result
        .as_ref()
        .and_then(|r| theoretical_diff(&r.raw))
        // Only games that got as far as 24 empties have a theoretical score of their own.
        .filter(|_| pos.board.empty_count() <= 24);
    let mut out = Vec::with_capacity(seen.len());
    for q in seen {
        let b = q.board;
        if b.is_game_over() {
            continue;
        }
        let e = b.empty_count();
        let black = match (theo, theoretical_from) {
            (Some(t), Some(from)) if e >= from => t,
            _ => result,
        };
        let best = match theo {
            Some(t) if e >= 24 => t,
            _ => result,
        };
        let sign = if q.side == Color::Black { 1.0 } else { -1.0 };
        out.push(Raw {
            p: b.player().0,
            o: b.opponent().0,
            empties: e as u8,
            label: sign * black as f32,
            weight: 1.0,
            result: sign * result as f32,
            best: sign * best as f32,
        });
    }
    Some(out)
}

/// Sorts positions by empties and computes their pattern numbers; `keep_boards` keeps the
/// boards and real results too (for measuring held-out errors).
pub(super) fn build_samples(raw: Vec<Raw>, keep_boards: bool) -> Samples {
    let lay = layout();
    let hand = HandEval::default();
    let mut counts = [0usize; 62];
    for r in &raw {
        counts[usize::from(r.empties) + 1] += 1;
    }
    for i in 1..62 {
        counts[i] += counts[i - 1];
    }
    let n = raw.len();
    let mut s = Samples {
        feats: vec![0; n * N_INSTANCES],
        empties: vec![0; n],
        label: vec![0.0; n],
        weight: vec![0.0; n],
        result: if keep_boards {
            vec![0.0; n]
        } else {
            Vec::new()
        },
        best: if keep_boards {
            vec![0.0; n]
        } else {
            Vec::new()
        },
        boards: if keep_boards {
            vec![(0, 0); n]
        } else {
            Vec::new()
        },
        hand: vec![0; n],
        start: counts.to_vec(),
    };
    let mut next = counts;
    let mut idx = [0u16; N_INSTANCES];
    for r in raw {
        let j = next[usize::from(r.empties)];
        next[usize::from(r.empties)] += 1;
        indices(r.p, r.o, &mut idx);
        for (k, (&i, inst)) in idx.iter().zip(INSTANCES.iter()).enumerate() {
            s.feats[j * N_INSTANCES + k] = lay.canon[inst.pattern as usize][usize::from(i)] as u16;
        }
        s.empties[j] = r.empties;
        s.label[j] = r.label;
        s.weight[j] = r.weight;
        if keep_boards {
            s.result[j] = r.result;
            s.best[j] = r.best;
            s.boards[j] = (r.p, r.o);
        }
        s.hand[j] = hand.eval(r.p, r.o) as i16;
    }
    s
}
