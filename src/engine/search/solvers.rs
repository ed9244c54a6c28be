//! The ladder of exact solvers for the last empty squares, one function a rung: no table, no
//! sorting, moves in quadrant-parity order, each rung calling the one below. Raw bits
//! throughout: these nodes are most of an exact search's nodes (measured: the `Board`
//! wrapper was free elsewhere, but here every instruction shows), so they take `p`, `o` and
//! the empty squares as plain words.

use super::cutoffs::stability_cut;
use super::node::raise;
use super::ordering::{parity_of, quadrant, PARITY_MASK};
use super::threads::Worker;
use crate::board::movegen::{flips, moves};
use crate::engine::INF;

/// At and below this many empties, moves are tried in parity order without sorting
/// ([`Worker::solve_few`] has one rung per count).
pub(crate) const SMALL_EMPTIES: u32 = 6;
const _: () = assert!(
    SMALL_EMPTIES == 6,
    "solve_few dispatches 4, 5 and 6 empties"
);

/// Final disc difference for the side owning `p`, empties to the winner.
#[inline]
pub(crate) fn final_score(p: u64, o: u64) -> i32 {
    crate::board::final_score_of(p, o)
}

/// The squares around each square: a move there can flip only if one holds an opponent disc.
static NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nc, nr) = (c + dc, r + dr);
                if (dc != 0 || dr != 0) && nc >= 0 && nc < 8 && nr >= 0 && nr < 8 {
                    t[sq] |= 1u64 << (nr * 8 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    t
};

impl<E> Worker<'_, E> {
    /// Dispatch for few empties: no table, no sorting, parity order.
    #[inline]
    pub(crate) fn solve_few(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empty: u64) -> i32 {
        let par = parity_of(empty);
        match empty.count_ones() {
            0 => final_score(p, o),
            1 => self.last1(p, alpha, empty.trailing_zeros() as u8),
            2 => {
                let x1 = empty.trailing_zeros() as u8;
                let x2 = (63 - empty.leading_zeros()) as u8;
                self.last2(p, o, alpha, beta, x1, x2)
            }
            3 => self.last3(p, o, alpha, beta, empty, par),
            // One arm per copy of `shallow`, up to SMALL_EMPTIES.
            4 => self.shallow::<4>(p, o, alpha, beta, empty, par),
            5 => self.shallow::<5>(p, o, alpha, beta, empty, par),
            _ => self.shallow::<6>(p, o, alpha, beta, empty, par),
        }
    }

    /// Four to [`SMALL_EMPTIES`] empties: plain fail-soft alpha-beta, moves in odd quadrants
    /// first. `par` has bit q set when quadrant q holds an odd number of empties; it is kept
    /// up to date move by move instead of being recounted. One copy per number of empties
    /// `N`, so that the choice of the child's code is made at compile time, not by a branch
    /// that the recursion makes hard to predict.
    fn shallow<const N: u32>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        empty: u64,
        par: u8,
    ) -> i32 {
        const { assert!(N >= 4 && N <= SMALL_EMPTIES) };
        self.nodes += 1;
        if let Some(bound) = stability_cut(p, o, N, alpha) {
            return bound;
        }
        let odd = PARITY_MASK[par as usize];
        let mut best = -INF;
        for set in [empty & odd, empty & !odd] {
            let mut e = set;
            while e != 0 {
                let sq = e.trailing_zeros() as u8;
                e &= e - 1;
                if NEIGHBOURS[sq as usize] & o == 0 {
                    continue;
                }
                let f = flips(p, o, sq);
                if f == 0 {
                    continue;
                }
                let (np, no) = (o & !f, p | f | 1 << sq);
                let (ne, npar) = (empty & !(1 << sq), par ^ 1 << quadrant(sq));
                let s = match N {
                    4 => -self.last3(np, no, -beta, -alpha, ne, npar),
                    5 => -self.shallow::<4>(np, no, -beta, -alpha, ne, npar),
                    _ => -self.shallow::<5>(np, no, -beta, -alpha, ne, npar),
                };
                if raise(&mut best, &mut alpha, s, beta) {
                    return best;
                }
            }
        }
        if best == -INF {
            if moves(o, p) & empty != 0 {
                return -self.shallow::<N>(o, p, -beta, -alpha, empty, par);
            }
            return final_score(p, o);
        }
        best
    }

    /// Three empties, tried in parity order (the square alone in its quadrant first).
    #[inline(always)]
    fn last3(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, empty: u64, par: u8) -> i32 {
        self.nodes += 1;
        let odd = PARITY_MASK[par as usize];
        let mut sqs = [0u8; 3];
        let mut n = 0;
        for set in [empty & odd, empty & !odd] {
            let mut e = set;
            while e != 0 {
                sqs[n] = e.trailing_zeros() as u8;
                n += 1;
                e &= e - 1;
            }
        }
        let [x1, x2, x3] = sqs;
        let mut best = -INF;
        for (sq, a, b) in [(x1, x2, x3), (x2, x1, x3), (x3, x1, x2)] {
            if NEIGHBOURS[sq as usize] & o == 0 {
                continue;
            }
            let f = flips(p, o, sq);
            if f == 0 {
                continue;
            }
            let s = -self.last2(o & !f, p | f | 1 << sq, -beta, -alpha, a, b);
            if raise(&mut best, &mut alpha, s, beta) {
                return best;
            }
        }
        if best == -INF {
            return self.last3_pass(p, o, alpha, beta, empty, par);
        }
        best
    }

    /// [`Worker::last3`] when `p` has no move: kept out of line so that `last3` itself can
    /// be inlined into its callers.
    #[cold]
    #[inline(never)]
    fn last3_pass(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empty: u64, par: u8) -> i32 {
        if moves(o, p) & empty != 0 {
            return -self.last3(o, p, -beta, -alpha, empty, par);
        }
        final_score(p, o)
    }

    #[inline(always)]
    fn last2(&mut self, p: u64, o: u64, alpha: i32, beta: i32, x1: u8, x2: u8) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        let f = if NEIGHBOURS[x1 as usize] & o != 0 {
            flips(p, o, x1)
        } else {
            0
        };
        if f != 0 {
            best = -self.last1(o & !f, -beta, x2);
            if best >= beta {
                return best;
            }
        }
        let f = if NEIGHBOURS[x2 as usize] & o != 0 {
            flips(p, o, x2)
        } else {
            0
        };
        if f != 0 {
            let s = -self.last1(o & !f, -beta, x1);
            if s > best {
                best = s;
            }
        }
        if best == -INF {
            return self.last2_pass(p, o, alpha, beta, x1, x2);
        }
        best
    }

    /// [`Worker::last2`] when `p` has no move (see [`Worker::last3_pass`]).
    #[cold]
    #[inline(never)]
    fn last2_pass(&mut self, p: u64, o: u64, alpha: i32, beta: i32, x1: u8, x2: u8) -> i32 {
        if flips(o, p, x1) != 0 || flips(o, p, x2) != 0 {
            return -self.last2(o, p, -beta, -alpha, x1, x2);
        }
        final_score(p, o)
    }

    /// Score with one empty square `sq` left (`p` to move): at most one play remains, and
    /// only its flip count matters. Fail-soft against `alpha`: when `p` cannot play, the
    /// opponent's reply can only lower the score, so the score without it is an upper bound
    /// and, if that already fails low, the reply is not counted.
    #[inline]
    fn last1(&mut self, p: u64, alpha: i32, sq: u8) -> i32 {
        self.nodes += 1;
        let pc = p.count_ones() as i32;
        let n = flips(p, !p & !(1 << sq), sq).count_ones() as i32;
        if n > 0 {
            return 2 * pc - 62 + 2 * n;
        }
        // Nobody plays: the empty square goes to the winner.
        let none = if pc >= 32 { 2 * pc - 62 } else { 2 * pc - 64 };
        if none <= alpha {
            return none;
        }
        let m = flips(!p & !(1 << sq), p, sq).count_ones() as i32;
        if m > 0 {
            2 * pc - 64 - 2 * m
        } else {
            none
        }
    }
}
