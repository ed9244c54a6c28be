//! The exact driver: fail-soft PVS on final disc differences (empty squares to the winner)
//! over the shared node loop, with the table near the root, fastest-first and parity
//! ordering, stability cutoffs, and the solvers' ladder for the last empty squares.

use super::cutoffs::{child_cut, prefetch_children, probe, stability_cut, store};
use super::node::Node;
use super::ordering::{endgame_mobility_key, endgame_near_key, parity_of, MoveList, TT_MOVE_KEY};
use super::solvers::{final_score, SMALL_EMPTIES};
use super::threads::Worker;
use crate::board::Board;
use crate::engine::selectivity::{end_fit, end_shallow, END_MIN_EMPTIES};
use crate::engine::tt::Kind;
use crate::engine::{Evaluator, INF, SCALE};
use std::ops::ControlFlow;

/// Below this many empties the table costs more than it saves.
const TT_MIN_EMPTIES: u32 = 9;
/// From this many empties on, moves are ordered with the evaluation as well as mobility.
const EVAL_ORDER_EMPTIES: u32 = 13;
/// From this many empties on, moves are ordered by a shallow search.
const SEARCH_ORDER_EMPTIES: u32 = 18;
/// Depth of the ordering search by empties (from [`SEARCH_ORDER_EMPTIES`] on).
const ORDER_DEPTH: [u32; 65] = {
    let mut t = [0u32; 65];
    let mut n = 0;
    while n < 65 {
        t[n] = if n >= 26 {
            4
        } else if n >= 23 {
            3
        } else if n >= 20 {
            2
        } else {
            1
        };
        n += 1;
    }
    t
};
/// From this many empties on, children are looked up in the table before any is searched.
const ETC_MIN_EMPTIES: u32 = 14;
/// From this many empties on, threads avoid searching the same subtree at the same time.
const SHARE_MIN_EMPTIES: u32 = 12;

impl<E: Evaluator> Worker<'_, E> {
    /// Exact value of `board` within (`alpha`, `beta`), fail-soft, in discs.
    pub(crate) fn solve(&mut self, board: Board, alpha: i32, beta: i32) -> i32 {
        let (p, o) = (board.player().0, board.opponent().0);
        let n_empty = board.empty_count();
        if n_empty <= SMALL_EMPTIES {
            return self.solve_few(p, o, alpha, beta, board.empties().0);
        }
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }

        if let Some(bound) = stability_cut(p, o, n_empty, alpha) {
            return bound;
        }

        let trust = (Kind::Endgame, self.selectivity);
        let mut tt_move = None;
        if n_empty >= TT_MIN_EMPTIES {
            match probe(self.tt, board, trust, n_empty, alpha, beta) {
                ControlFlow::Break(score) => return score,
                ControlFlow::Continue(m) => tt_move = m,
            }
        }

        let moves = board.legal_moves();
        if moves.is_empty() {
            if board.pass().has_moves() {
                return -self.solve(board.pass(), -beta, -alpha);
            }
            return final_score(p, o);
        }
        if let Some(score) = self.endgame_selective_cut(board, alpha, beta) {
            return score;
        }

        if n_empty >= ETC_MIN_EMPTIES {
            prefetch_children(self.tt, board, moves);
        }
        let parity = parity_of(board.empties().0);
        let mut list = MoveList::new();
        let filled = list.fill(board, moves, |sq, _, child| {
            let (np, no) = (child.player().0, child.opponent().0);
            if n_empty > TT_MIN_EMPTIES && n_empty < ETC_MIN_EMPTIES {
                // The child will probe its bucket: start the likely cache miss now.
                self.tt.prefetch(np, no);
            }
            if n_empty >= ETC_MIN_EMPTIES {
                if let Some(score) = child_cut(self.tt, child, trust, n_empty, beta) {
                    return ControlFlow::Break(score);
                }
            }
            ControlFlow::Continue(if Some(sq) == tt_move {
                TT_MOVE_KEY
            } else {
                let k = endgame_mobility_key(child);
                if n_empty >= SEARCH_ORDER_EMPTIES {
                    // Far from the end a shallow search predicts the best move far better
                    // than mobility alone, and its cost is small next to the subtree.
                    let d = ORDER_DEPTH[n_empty as usize];
                    k / 4 - self.pvs(child, d, -INF, INF)
                } else if n_empty >= EVAL_ORDER_EMPTIES {
                    k - self.eval.eval(np, no) / 2
                } else {
                    endgame_near_key(k, sq, child, parity)
                }
            })
        });
        if let ControlFlow::Break(score) = filled {
            return score;
        }

        let share = self.parallel && n_empty >= SHARE_MIN_EMPTIES;
        let Some(r) = self.move_loop(
            &mut list,
            share,
            (alpha, beta),
            |e| board.play_flips(e.sq, e.flips),
            |c| *c,
            |w, c, a, b| w.solve(*c, a, b),
        ) else {
            return 0;
        };
        if n_empty >= TT_MIN_EMPTIES {
            store(
                self.tt,
                board,
                trust,
                n_empty,
                (alpha, beta),
                r.best,
                r.best_sq,
            );
        }
        r.best
    }

    /// Multi-ProbCut at a null-window node of a selective endgame search, tried after the
    /// table and before the moves are ordered: a midgame search predicts the exact score (the
    /// fit of [`end_fit`]), and a prediction beyond the window by the selectivity's margin
    /// settles it. An exact search (`solve`, exact book leaves) never cuts here.
    #[inline]
    fn endgame_selective_cut(&mut self, board: Board, alpha: i32, beta: i32) -> Option<i32> {
        let empties = board.empty_count();
        if self.selectivity.is_exact() || empties < END_MIN_EMPTIES || beta != alpha + 1 {
            return None;
        }
        let (fit, shallow) = (end_fit(empties), end_shallow(empties));
        let node = Node::new(self.eval, board);
        let lean_high = node.eval(self.eval) >= beta * SCALE;
        self.probcut(fit, beta, SCALE, lean_high, |w, lo, hi| {
            w.pvs_node(&node, shallow, lo, hi)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::{flips, moves};
    use crate::engine::eval::HandEval;
    use crate::engine::search::ordering::{corner_edge_discs, corner_stability};
    use crate::engine::search::threads::{Busy, Control, Shared};
    use crate::engine::stability::stable_discs;
    use crate::engine::tt::TranspositionTable;
    use std::sync::atomic::AtomicU64;

    /// Exact final score by plain negamax: no pruning, no table, no special cases.
    fn negamax(p: u64, o: u64) -> i32 {
        let mv = moves(p, o);
        if mv == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -negamax(o, p);
        }
        let mut best = -INF;
        let mut m = mv;
        while m != 0 {
            let sq = m.trailing_zeros() as u8;
            m &= m - 1;
            let f = flips(p, o, sq);
            best = best.max(-negamax(o & !f, p | f | 1 << sq));
        }
        best
    }

    /// Positions with 1 to 9 empties from pseudo-random games (passes included).
    fn late_positions(seed: u64, count: usize) -> Vec<(u64, u64)> {
        // Knuth's MMIX linear congruential generator; its high bits are the usable ones.
        let mut s = seed;
        let mut next = move || {
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            s >> 24
        };
        let mut out = Vec::new();
        while out.len() < count {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            let stop = 1 + (next() % 9) as u32;
            loop {
                let empties = (!(p | o)).count_ones();
                let mv = moves(p, o);
                if empties <= stop || (mv == 0 && moves(o, p) == 0) {
                    break;
                }
                if mv != 0 {
                    let k = (next() % u64::from(mv.count_ones())) as usize;
                    let mut m = mv;
                    for _ in 0..k {
                        m &= m - 1;
                    }
                    let sq = m.trailing_zeros() as u8;
                    let f = flips(p, o, sq);
                    (p, o) = (p | f | 1 << sq, o & !f);
                }
                (p, o) = (o, p);
            }
            if (!(p | o)).count_ones() == stop {
                out.push((p, o));
            }
        }
        out
    }

    #[test]
    fn corner_edge_discs_are_stable_discs() {
        // a1, b1 and a2 of black, h8 of black with g8 white: a1, b1, a2 and h8 count.
        let p = 1 | 1 << 1 | 1 << 8 | 1 << 63;
        let o = 1 << 62 | 0x0000_0018_1800_0000;
        assert_eq!(corner_edge_discs(p), 1 | 1 << 1 | 1 << 8 | 1 << 63);
        assert_eq!(corner_stability(o), 0);
        for (p, o) in late_positions(0x51A8_1E5D_00C0_FFEE, 2000) {
            for (me, other) in [(p, o), (o, p)] {
                let c = corner_edge_discs(me);
                assert_eq!(
                    c & !stable_discs(me, other),
                    0,
                    "me={me:#x} other={other:#x}"
                );
            }
        }
    }

    /// Fail-soft means: a result at or below alpha is an upper bound, at or above beta a lower
    /// bound, and in between exact. The table stores these bounds, so a bound that is wrong
    /// only for some windows (the lazy last-square cutoff, stability cutoffs) would corrupt
    /// later searches even where the root score happens to come out right.
    #[test]
    fn solver_results_are_sound_fail_soft_bounds_for_any_window() {
        let eval = HandEval::default();
        let tt = TranspositionTable::new(1);
        let busy = Busy::new();
        let nodes = AtomicU64::new(0);
        let shared = Shared::new(&eval, &tt, &busy, Control::single(&nodes));
        let mut worker = Worker::new(&shared, true);
        let mut windows = 0x2545_F491_4F6C_DD1Du64;
        for (i, &(p, o)) in late_positions(0x9E37_79B9_7F4A_7C15, 400)
            .iter()
            .enumerate()
        {
            let exact = negamax(p, o);
            for _ in 0..8 {
                windows = windows
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                let a = ((windows >> 33) % 130) as i32 - 65;
                let w = 1 + ((windows >> 20) % 20) as i32;
                let (alpha, beta) = (a, (a + w).min(65));
                let r = worker.solve(Board::from_bits(p, o), alpha, beta);
                let ctx = format!("#{i} p={p:#x} o={o:#x} window ({alpha},{beta}) exact {exact}");
                if r <= alpha {
                    assert!(exact <= r, "fail-low {r} is not an upper bound: {ctx}");
                } else if r >= beta {
                    assert!(exact >= r, "fail-high {r} is not a lower bound: {ctx}");
                } else {
                    assert_eq!(r, exact, "inside the window: {ctx}");
                }
            }
        }
    }
}
