//! The cutoffs both drivers try before searching a node's moves, written once: the table's
//! own entry, the children's entries (enhanced transposition cutoff) and the opponent's
//! stable discs. The two searches differ only in the [`Kind`] of entry they trust and in
//! what "depth" means (plies, or empties for an exact solve).

use crate::board::{Bitboard, Board, Square};
use crate::engine::selectivity::Selectivity;
use crate::engine::stability::stable_discs;
use crate::engine::tt::{Bound, Kind, TranspositionTable};
use std::ops::ControlFlow;

/// The table's entry for `board`: `Break(score)` when it settles the node inside
/// (`alpha`, `beta`) at `depth` or more, else `Continue` with the best move it remembers
/// (from any kind of entry: a good move is a good move).
#[inline]
pub(crate) fn probe(
    tt: &TranspositionTable,
    board: Board,
    (kind, sel): (Kind, Selectivity),
    depth: u32,
    alpha: i32,
    beta: i32,
) -> ControlFlow<i32, Option<Square>> {
    let Some(e) = tt.probe(board.player().0, board.opponent().0) else {
        return ControlFlow::Continue(None);
    };
    // An exact-solve entry of a board is always at its own number of empties.
    // A selective result settles only a search at most as sure as it.
    if e.kind == kind && u32::from(e.depth) >= depth && e.selectivity >= sel {
        match e.bound {
            Bound::Exact => return ControlFlow::Break(e.score),
            Bound::Lower if e.score >= beta => return ControlFlow::Break(e.score),
            Bound::Upper if e.score <= alpha => return ControlFlow::Break(e.score),
            _ => {}
        }
    }
    ControlFlow::Continue(e.best)
}

/// Enhanced transposition cutoff: a child (searched at `depth - 1`) already proven bad
/// enough for the opponent settles its parent before anything is searched. The parent's
/// fail-soft score when it does.
#[inline]
pub(crate) fn child_cut(
    tt: &TranspositionTable,
    child: Board,
    (kind, sel): (Kind, Selectivity),
    depth: u32,
    beta: i32,
) -> Option<i32> {
    let e = tt.probe(child.player().0, child.opponent().0)?;
    (e.kind == kind
        && e.selectivity >= sel
        && u32::from(e.depth) + 1 >= depth
        && matches!(e.bound, Bound::Upper | Bound::Exact)
        && -e.score >= beta)
        .then_some(-e.score)
}

/// Starts loading the table buckets of all the children of `board` (its `moves`) before
/// [`child_cut`] reads the first: each is usually a cache miss, and issued together the loads
/// overlap instead of waiting one after the other (FFO #48-#50 at one thread: 8% less time,
/// the same nodes).
#[inline]
pub(crate) fn prefetch_children(tt: &TranspositionTable, board: Board, moves: Bitboard) {
    for sq in moves {
        let child = board.play_flips(sq, board.legal_flips(sq));
        tt.prefetch(child.player().0, child.opponent().0);
    }
}

/// Stores a node's fail-soft result `best` (searched in (`alpha0`, `beta`)) with its best
/// move.
#[allow(clippy::too_many_arguments)] // the table's own arguments plus the window
#[inline]
pub(crate) fn store(
    tt: &TranspositionTable,
    board: Board,
    (kind, sel): (Kind, Selectivity),
    depth: u32,
    (alpha0, beta): (i32, i32),
    best: i32,
    best_sq: Square,
) {
    let bound = if best >= beta {
        Bound::Lower
    } else if best > alpha0 {
        Bound::Exact
    } else {
        Bound::Upper
    };
    tt.store(
        board.player().0,
        board.opponent().0,
        depth as u8,
        kind,
        bound,
        best,
        Some(best_sq),
        sel,
    );
}

/// Stability cutoffs are only tried when alpha is at least this high (by empties): below
/// it, the bound they give can never be low enough to cut.
const STABILITY_THRESHOLD: [i32; 65] = {
    let mut t = [99; 65];
    let v = [
        99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44,
        46, 48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62,
    ];
    let mut i = 0;
    while i < v.len() {
        t[i] = v[i];
        i += 1;
    }
    t
};

/// The stability cutoff of an exact search: the opponent's stable discs are never lost, so
/// `p` can score at most what the rest of the board gives; when that is no better than
/// `alpha`, it is the node's fail-soft upper bound. Only tried where [`STABILITY_THRESHOLD`]
/// says it can cut. Raw bits: the last-ply solvers call it at every node.
#[inline(always)]
pub(crate) fn stability_cut(p: u64, o: u64, n_empty: u32, alpha: i32) -> Option<i32> {
    if alpha < STABILITY_THRESHOLD[n_empty as usize] {
        return None;
    }
    let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
    (bound <= alpha).then_some(bound)
}
