//! The midgame driver: fail-soft PVS to a depth, with the evaluation at the horizon, over
//! the shared node loop; table and enhanced transposition cutoffs from depth 3 on, and
//! hand-written last two plies.

use super::cutoffs::{child_cut, probe, store};
use super::move_array::MoveArray;
use super::node::{raise, Node};
use super::ordering::{
    midgame_key, mobility_key, pick_best, take_depth_one, MoveList, TT_MOVE_KEY,
};
use super::threads::Worker;
use crate::board::movegen::{flips, moves};
use crate::board::Board;
use crate::engine::selectivity::{mid_fit, MID_MIN_DEPTH};
use crate::engine::tt::Kind;
use crate::engine::{Evaluator, INF, SCALE};
use std::ops::ControlFlow;

/// Shallower nodes are cheaper to search again than to look up (a likely cache miss).
const TT_MIN_DEPTH: u32 = 3;
/// From this depth on, moves are ordered by a 2-ply search of each child. Below it, by what
/// the move leaves the opponent: mobility, then the mover's discs next to empty squares.
/// The evaluation of each child (depths 3-5) and a 1-ply search (depths 6-9) had ordered
/// worse and cost more: on 24 positions from real games, depth 13 took 353.5 M nodes and
/// 28.6 s with both, 267.8 M nodes with neither below depth 6, 201.6 M below depth 10
/// (docs/experiments.md).
const ORDER_SEARCH_MIN: u32 = 10;
/// From this depth on, threads avoid searching the same subtree at the same time.
const SHARE_MIN_DEPTH: u32 = 4;
/// From this depth on, children are looked up in the table before any is searched.
const ETC_MIN_DEPTH: u32 = 6;

impl<E: Evaluator> Worker<'_, E> {
    /// Value of `board` at `depth` plies (SCALE units), fail-soft in (`alpha`, `beta`).
    pub fn pvs(&mut self, board: Board, depth: u32, alpha: i32, beta: i32) -> i32 {
        self.pvs_node(&Node::new(self.eval, board), depth, alpha, beta)
    }

    /// [`Worker::pvs`] of a node whose evaluation state is known.
    pub(super) fn pvs_node(
        &mut self,
        node: &Node<E::State>,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if depth == 0 {
            self.nodes += 1;
            return node.eval(self.eval);
        }
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        let board = node.board;
        let moves = board.legal_moves();
        if moves.is_empty() {
            if !board.pass().has_moves() {
                return board.final_score() * SCALE;
            }
            return -self.pvs_node(&node.pass(self.eval), depth, -beta, -alpha);
        }
        // The last two plies take raw bits (see depth_one).
        let (p, o, s) = (board.player().0, board.opponent().0, &node.state);
        if depth == 1 {
            return self.depth_one(p, o, s, moves.0, alpha, beta);
        }
        if depth == 2 {
            return self.depth_two(p, o, s, moves.0, alpha, beta);
        }

        // From here on depth >= TT_MIN_DEPTH. Below it the probe is skipped, not just
        // ignored: its bucket is usually out of cache, and the load costs more than the
        // node's whole search.
        let trust = (Kind::Midgame, self.selectivity);
        let tt_move = match probe(self.tt, board, trust, depth, alpha, beta) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(m) => m,
        };
        if depth >= ETC_MIN_DEPTH {
            for sq in moves {
                let child = board.play_flips(sq, board.legal_flips(sq));
                if let Some(score) = child_cut(self.tt, child, trust, depth, beta) {
                    return score;
                }
            }
        }
        if let Some(score) = self.midgame_selective_cut(node, depth, alpha, beta) {
            return score;
        }

        let mut list = MoveList::new();
        let filled = list.fill(board, moves, |sq, flips, child| {
            if depth > TT_MIN_DEPTH {
                self.tt.prefetch(child.player().0, child.opponent().0);
            }
            ControlFlow::Continue(if Some(sq) == tt_move {
                TT_MOVE_KEY
            } else if depth >= ORDER_SEARCH_MIN {
                // Shallow search: the best predictor of the deep result.
                -self.pvs_node(&node.child(self.eval, sq, flips), 2, -INF, INF)
            } else {
                midgame_key(child)
            })
        });
        debug_assert!(filled.is_continue(), "midgame keys never cut");

        let share = self.parallel && depth >= SHARE_MIN_DEPTH;
        let eval = self.eval;
        let Some(r) = self.move_loop(
            &mut list,
            share,
            (alpha, beta),
            |e| node.child(eval, e.sq, e.flips),
            |c| c.board,
            |w, c, a, b| w.pvs_node(c, depth - 1, a, b),
        ) else {
            return 0;
        };
        store(
            self.tt,
            board,
            trust,
            depth,
            (alpha, beta),
            r.best,
            r.best_sq,
        );
        r.best
    }

    /// Multi-ProbCut at a null-window midgame node, tried after the table and the children's
    /// entries and before the moves are ordered: a shallower search of the same parity
    /// predicts the node's value (the fit of [`mid_fit`]), and a prediction beyond the window
    /// by the selectivity's margin settles it. `None` to search it.
    #[inline]
    fn midgame_selective_cut(
        &mut self,
        node: &Node<E::State>,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        if self.selectivity.is_exact() || depth < MID_MIN_DEPTH || beta != alpha + 1 {
            return None;
        }
        let (shallow, fit) = mid_fit(node.board.empty_count(), depth);
        let lean_high = node.eval(self.eval) >= beta;
        self.probcut(fit, beta, 1, lean_high, |w, lo, hi| {
            w.pvs_node(node, shallow, lo, hi)
        })
    }

    /// The last ply: evaluate every child (each counts as a node). Raw bits: this and
    /// [`Worker::depth_two`] are where a midgame search spends its time, and the next move's
    /// flips are started by hand before the current child is evaluated.
    #[inline]
    fn depth_one(
        &mut self,
        p: u64,
        o: u64,
        s: &E::State,
        mv: u64,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = -INF;
        let mut rem = mv;
        let mut sq = take_depth_one(&mut rem);
        let mut f = flips(p, o, sq);
        loop {
            let (np, no) = (o & !f, p | f | 1 << sq);
            // The next move's flips are found before this child is evaluated, so that their
            // latency overlaps the evaluation's; at a cut one set of flips is wasted.
            let next = (rem != 0).then(|| {
                let nsq = take_depth_one(&mut rem);
                (nsq, flips(p, o, nsq))
            });
            self.nodes += 1;
            let v = -self.eval.eval_state(&self.eval.play(s, sq, f), np, no);
            if raise(&mut best, &mut alpha, v, beta) {
                return best;
            }
            let Some((nsq, nf)) = next else {
                return best;
            };
            (sq, f) = (nsq, nf);
        }
    }

    /// Two plies left: no table (below [`TT_MIN_DEPTH`]), children tried fewest replies
    /// first. The replies are computed for that order anyway, so each child's last ply
    /// takes them from here instead of generating them again.
    #[inline]
    fn depth_two(
        &mut self,
        p: u64,
        o: u64,
        s: &E::State,
        mut mv: u64,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut moves_of = MoveArray::new();
        while mv != 0 {
            let sq = mv.trailing_zeros() as u8;
            mv &= mv - 1;
            let f = flips(p, o, sq);
            let om = moves(o & !f, p | f | 1 << sq);
            moves_of.push((sq, f, -mobility_key(om), om));
        }
        let list = moves_of.as_mut_slice();
        let n = list.len();
        let mut best = -INF;
        for i in 0..n {
            let (sq, f, _, om) = pick_best(list, i, |e| e.2);
            let (np, no) = (o & !f, p | f | 1 << sq);
            let ns = self.eval.play(s, sq, f);
            let score = if i == 0 {
                -self.last_ply(np, no, &ns, om, -beta, -alpha)
            } else {
                let v = -self.last_ply(np, no, &ns, om, -alpha - 1, -alpha);
                if v > alpha && v < beta && !self.aborted {
                    -self.last_ply(np, no, &ns, om, -beta, -alpha)
                } else {
                    v
                }
            };
            if self.aborted {
                return 0;
            }
            if raise(&mut best, &mut alpha, score, beta) {
                break;
            }
        }
        best
    }

    /// A node one ply from the horizon whose moves `mv` are known: the same node as
    /// [`Worker::pvs_node`] at depth 1, without generating them again.
    #[inline]
    #[allow(clippy::too_many_arguments)] // raw bits, see depth_one
    fn last_ply(&mut self, p: u64, o: u64, s: &E::State, mv: u64, alpha: i32, beta: i32) -> i32 {
        if mv == 0 {
            let node = Node {
                board: Board::from_bits(p, o),
                state: *s,
            };
            return self.pvs_node(&node, 1, alpha, beta);
        }
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        self.depth_one(p, o, s, mv, alpha, beta)
    }
}
