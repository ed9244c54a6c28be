//! A search node ([`Node`]: the board and the evaluation state that goes with it) and the
//! one PVS move loop both drivers run over a node's ordered moves: first move with the full
//! window, the others with a null window and a re-search when they land inside, subtrees
//! another thread is in put off to the end (simplified ABDADA).

use super::move_array::MoveArray;
use super::ordering::{Entry, MoveList};
use super::threads::{busy_key, Busy, Worker};
use crate::board::{Bitboard, Board, Square};
use crate::engine::{Evaluator, INF};

/// A midgame search position: the board (side to move first) and the evaluation's
/// incremental state for it. Copied down the tree, never shared.
#[derive(Clone, Copy)]
pub(crate) struct Node<S> {
    pub board: Board,
    pub state: S,
}

impl<S: Copy> Node<S> {
    /// The node of `board`, its evaluation state computed from scratch.
    #[inline]
    pub fn new<E: Evaluator<State = S>>(eval: &E, board: Board) -> Node<S> {
        Node {
            board,
            state: eval.state(board.player().0, board.opponent().0),
        }
    }

    /// The child after the side to move plays `sq` flipping `flips`.
    #[inline]
    pub fn child<E: Evaluator<State = S>>(&self, eval: &E, sq: Square, flips: Bitboard) -> Self {
        Node {
            board: self.board.play_flips(sq, flips),
            state: eval.play(&self.state, sq as u8, flips.0),
        }
    }

    /// The same position with the other side to move.
    #[inline]
    pub fn pass<E: Evaluator<State = S>>(&self, eval: &E) -> Self {
        Node {
            board: self.board.pass(),
            state: eval.pass(&self.state),
        }
    }

    /// The evaluation of the position.
    #[inline]
    pub fn eval<E: Evaluator<State = S>>(&self, eval: &E) -> i32 {
        eval.eval_state(&self.state, self.board.player().0, self.board.opponent().0)
    }
}

/// A node's move order with busy subtrees put off: while several threads search, a later
/// move whose subtree another thread is in right now is tried after all the others; by then
/// its result is likely in the table.
struct Deferral {
    share: bool,
    deferred: MoveArray<u8>,
}

impl Deferral {
    /// The `i`-th move to try: the best remaining one of `list` while `i < list.len()`, then
    /// the deferred ones in the order they were put off.
    #[inline(always)]
    fn next(&self, list: &mut MoveList, i: usize) -> Option<Entry> {
        if i < list.len() {
            Some(list.pick(i))
        } else {
            let k = *self.deferred.as_slice().get(i - list.len())?;
            Some(list.at(usize::from(k)))
        }
    }

    /// Before searching move `i` (leading to `child`) of a `n`-move list: `None` if it is
    /// put off, else the busy mark taken, to give back with [`Busy::release`] afterwards.
    #[inline(always)]
    fn enter(&mut self, busy: &Busy, i: usize, n: usize, child: Board) -> Option<u64> {
        if !self.share {
            return Some(0);
        }
        let key = busy_key(child);
        if i < n && busy.is_busy(key) {
            self.deferred.push(i as u8);
            return None;
        }
        Some(if busy.enter(key) { key } else { 0 })
    }
}

/// What a node's move loop found: its fail-soft score and best move, or nothing when the
/// search was stopped.
pub(crate) struct Searched {
    pub best: i32,
    pub best_sq: Square,
}

impl<E: Evaluator> Worker<'_, E> {
    /// The PVS loop over `list` in (`alpha`, `beta`), fail-soft. `child` makes the child of a
    /// move (`C`: a [`Node`] or a [`Board`]), `value` searches it in a window (the child's
    /// own, negated), `board_of` gives the child's board for the busy marks; `share`: whether
    /// this node takes part in thread sharing. `None` when the search was stopped.
    #[inline(always)]
    pub(crate) fn move_loop<C>(
        &mut self,
        list: &mut MoveList,
        share: bool,
        (mut alpha, beta): (i32, i32),
        child: impl Fn(&Entry) -> C,
        board_of: impl Fn(&C) -> Board,
        mut value: impl FnMut(&mut Self, &C, i32, i32) -> i32,
    ) -> Option<Searched> {
        let n = list.len();
        let mut best = -INF;
        let mut best_sq = list.first_square();
        let mut order = Deferral {
            share,
            deferred: MoveArray::new(),
        };
        for i in 0..2 * n {
            let Some(e) = order.next(list, i) else {
                break;
            };
            let c = child(&e);
            let score = if i == 0 {
                -value(self, &c, -beta, -alpha)
            } else {
                let Some(mark) = order.enter(self.busy, i, n, board_of(&c)) else {
                    continue;
                };
                let v = -value(self, &c, -alpha - 1, -alpha);
                self.busy.release(mark);
                if v > alpha && v < beta && !self.aborted {
                    -value(self, &c, -beta, -alpha)
                } else {
                    v
                }
            };
            if self.aborted {
                return None;
            }
            if score > best {
                best = score;
                best_sq = e.sq;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        Some(Searched { best, best_sq })
    }
}

/// The fail-soft update of a move loop with a child's score `s`: raises `best` and `alpha`;
/// true when the node is cut (`alpha >= beta`).
#[inline(always)]
pub(crate) fn raise(best: &mut i32, alpha: &mut i32, s: i32, beta: i32) -> bool {
    // Maxima instead of nested ifs: which child raises them is data, not a pattern a branch
    // predictor can learn. `best < beta` and `best <= alpha` hold on entry (or the loop
    // would have been cut), so the cut test alone decides the return.
    *best = (*best).max(s);
    *alpha = (*alpha).max(s);
    s >= beta
}
