//! perft: counts the leaves of the game tree to a fixed depth, the standard check of move generation.
//!
//! Convention: a pass is one ply, and a game that ends before the depth counts as one leaf.

use crate::board::{Board, Move, Square};

/// Leaves of the tree below `board` at `depth` plies.
#[must_use]
pub fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (p, o) = (board.player().0, board.opponent().0);
    perft_bits(p, o, depth)
}

#[inline]
fn perft_bits(p: u64, o: u64, depth: u32) -> u64 {
    use crate::board::movegen::{flips, moves, sum_reply_counts};
    let mut mv = moves(p, o);
    if mv == 0 {
        // One ply spent on the pass; a finished game is a single leaf.
        return if depth == 1 || moves(o, p) == 0 {
            1
        } else {
            perft_bits(o, p, depth - 1)
        };
    }
    if depth == 1 {
        return u64::from(mv.count_ones());
    }
    if depth == 2 {
        return sum_reply_counts(p, o, mv);
    }
    let mut total = 0;
    while mv != 0 {
        let sq = mv.trailing_zeros() as u8;
        mv &= mv - 1;
        let f = flips(p, o, sq);
        total += perft_bits(o & !f, p | f | 1u64 << sq, depth - 1);
    }
    total
}

/// The positions one ply below `board` with the move that reaches each: one per legal move,
/// the pass if the side to move has none, nothing if the game is over.
#[must_use]
pub fn children(board: &Board) -> Vec<(Move, Board)> {
    let moves = board.legal_moves();
    if moves.is_empty() {
        return if board.pass().has_moves() {
            vec![(Move::Pass, board.pass())]
        } else {
            vec![]
        };
    }
    moves
        .iter()
        .map(|sq: Square| (Move::Play(sq), board.play_flips(sq, board.flips(sq))))
        .collect()
}

/// Leaves per first move (the `--divide` output), in the order of [`children`]. A finished
/// game has no rows.
#[must_use]
pub fn divide(board: &Board, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    if depth == 0 {
        return vec![];
    }
    children(board)
        .into_iter()
        .map(|(mv, child)| (mv, perft_parallel(&child, depth - 1, threads)))
        .collect()
}

/// [`perft`] split over `threads` worker threads. The tree is expanded a few plies (until there
/// are enough subtrees to balance the load) and the subtrees are shared out.
#[must_use]
pub fn perft_parallel(board: &Board, depth: u32, threads: usize) -> u64 {
    if threads <= 1 || depth < 6 {
        return perft(board, depth);
    }
    let mut frontier = vec![*board];
    let mut remaining = depth;
    let mut finished = 0u64;
    while frontier.len() < 64 * threads && remaining > 4 {
        let mut next = Vec::with_capacity(frontier.len() * 10);
        for b in &frontier {
            let kids = children(b);
            if kids.is_empty() {
                finished += 1;
            }
            next.extend(kids.into_iter().map(|(_, c)| c));
        }
        frontier = next;
        remaining -= 1;
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let total = std::sync::atomic::AtomicU64::new(finished);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut local = 0;
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(b) = frontier.get(i) else { break };
                    local += perft(b, remaining);
                }
                total.fetch_add(local, std::sync::atomic::Ordering::Relaxed);
            });
        }
    });
    total.into_inner()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts by the most literal definition, to check the bulk-counting shortcuts.
    fn perft_plain(board: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let kids = children(board);
        if kids.is_empty() {
            return 1;
        }
        kids.iter().map(|(_, b)| perft_plain(b, depth - 1)).sum()
    }

    #[test]
    fn shortcuts_agree_with_the_definition() {
        for d in 0..7 {
            assert_eq!(perft(&Board::START, d), perft_plain(&Board::START, d));
        }
    }

    #[test]
    fn parallel_equals_serial() {
        assert_eq!(perft_parallel(&Board::START, 8, 2), perft(&Board::START, 8));
        assert_eq!(perft_parallel(&Board::START, 7, 3), 55092);
        let d: u64 = divide(&Board::START, 6, 2).iter().map(|r| r.1).sum();
        assert_eq!(d, 8200);
    }
}
