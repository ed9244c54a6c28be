//! Exact endgame search: fail-soft PVS on final disc differences (empty squares to the winner),
//! with the shared transposition table near the root, fastest-first and parity ordering,
//! stability cutoffs, and hand-unrolled code for the last few empty squares.

use super::search::{raise, MoveLoop, Worker};
use super::stability::stable_discs;
use super::tt::{Bound, Kind};
use super::{Evaluator, INF};
use crate::board::movegen::{flips, moves};
use crate::board::Square;

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
/// At and below this many empties, moves are tried in parity order without sorting
/// (`solve_few` has one arm per count).
const SMALL_EMPTIES: u32 = 6;
const _: () = assert!(
    SMALL_EMPTIES == 6,
    "solve_few dispatches 4, 5 and 6 empties"
);

/// Weight of [`corner_stability`] in the 7-12 empties move key: a disc there counts an
/// eighth of an opponent move.
const CORNER_STABILITY_WEIGHT: i32 = 32;

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

/// Quadrant (0-3) of each square: parity ordering prefers moves in quadrants with an odd
/// number of empties.
const fn quadrant(sq: u8) -> u8 {
    (sq % 8 >= 4) as u8 + 2 * (sq / 8 >= 4) as u8
}

const QUADRANT_MASK: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Final disc difference for the side owning `p`, empties to the winner.
#[inline]
pub(crate) fn final_score(p: u64, o: u64) -> i32 {
    let pc = p.count_ones() as i32;
    let oc = o.count_ones() as i32;
    let e = 64 - pc - oc;
    let d = pc - oc;
    match d.cmp(&0) {
        std::cmp::Ordering::Greater => d + e,
        std::cmp::Ordering::Less => d - e,
        std::cmp::Ordering::Equal => 0,
    }
}

/// Union of the quadrants whose bit is set in the index (a parity set).
const PARITY_MASK: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut i = 0;
    while i < 16 {
        let mut q = 0;
        while q < 4 {
            if i >> q & 1 == 1 {
                t[i] |= QUADRANT_MASK[q];
            }
            q += 1;
        }
        i += 1;
    }
    t
};

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

#[inline]
fn parity_of(empty: u64) -> u8 {
    let mut par = 0;
    for (q, m) in QUADRANT_MASK.iter().enumerate() {
        par |= (((empty & m).count_ones() & 1) as u8) << q;
    }
    par
}

impl<E: Evaluator> Worker<'_, E> {
    /// Exact value of `p` to move against `o` within (`alpha`, `beta`), fail-soft.
    pub(crate) fn solve(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32) -> i32 {
        let empty = !(p | o);
        let n_empty = empty.count_ones();
        if n_empty <= SMALL_EMPTIES {
            return self.solve_few(p, o, alpha, beta, empty);
        }
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }

        if let Some(bound) = stability_cut(p, o, n_empty, alpha) {
            return bound;
        }

        let mut tt_move = None;
        if n_empty >= TT_MIN_EMPTIES {
            if let Some(e) = self.tt.probe(p, o) {
                tt_move = e.best;
                if e.kind == Kind::Endgame && e.selectivity >= self.selectivity {
                    match e.bound {
                        Bound::Exact => return e.score,
                        Bound::Lower if e.score >= beta => return e.score,
                        Bound::Upper if e.score <= alpha => return e.score,
                        _ => {}
                    }
                }
            }
        }

        let mv = moves(p, o);
        if mv == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.solve(o, p, -beta, -alpha);
        }
        if let Some(v) = self.probcut_endgame(p, o, n_empty, alpha, beta) {
            return v;
        }

        // Move list with ordering keys (higher first).
        let mut list = [(0u8, 0u64, 0i32); 32];
        let mut n = 0;
        let par = parity_of(empty);
        let mut m = mv;
        while m != 0 {
            let sq = m.trailing_zeros() as u8;
            m &= m - 1;
            let f = flips(p, o, sq);
            let np = o & !f;
            let no = p | f | 1 << sq;
            if n_empty > TT_MIN_EMPTIES && n_empty < ETC_MIN_EMPTIES {
                // The child will probe its bucket: start the likely cache miss now.
                self.tt.prefetch(np, no);
            }
            if n_empty >= ETC_MIN_EMPTIES {
                // Enhanced transposition cutoff: a child already proven bad enough for the
                // opponent settles this node without searching anything.
                if let Some(e) = self.tt.probe(np, no) {
                    if e.kind == Kind::Endgame
                        && e.selectivity >= self.selectivity
                        && matches!(e.bound, Bound::Upper | Bound::Exact)
                        && -e.score >= beta
                    {
                        return -e.score;
                    }
                }
            }
            let key = if Some(sq) == tt_move.map(|s| s as u8) {
                1 << 30
            } else {
                let om = moves(np, no);
                let mut k = -((om.count_ones() + (om & CORNERS).count_ones()) as i32) * 256;
                if n_empty >= SEARCH_ORDER_EMPTIES {
                    // Far from the end a shallow search predicts the best move far better
                    // than mobility alone, and its cost is small next to the subtree.
                    let d = ORDER_DEPTH[n_empty as usize];
                    k = k / 4 - self.pvs(np, no, d, -INF, INF);
                } else if n_empty >= EVAL_ORDER_EMPTIES {
                    k -= self.eval.eval(np, no) / 2;
                } else {
                    k += i32::from(par >> quadrant(sq) & 1) * 64;
                    // Fewer own discs next to empties leaves the opponent fewer replies later.
                    k -= (no & neighbours_of_empty(empty & !(1 << sq))).count_ones() as i32 * 8;
                    k += corner_stability(no) * CORNER_STABILITY_WEIGHT;
                }
                k
            };
            list[n] = (sq, f, key);
            n += 1;
        }
        let list = &mut list[..n];

        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_sq = list[0].0;
        let share = self.parallel && n_empty >= SHARE_MIN_EMPTIES;
        let mut order = MoveLoop::new(share);
        for i in 0..n + 32 {
            let Some((sq, f)) = order.next(list, i) else {
                break;
            };
            let np = o & !f;
            let no = p | f | 1 << sq;
            let score = if i == 0 {
                -self.solve(np, no, -beta, -alpha)
            } else {
                let Some(mark) = order.enter(self.busy, i, n, np, no) else {
                    continue;
                };
                let mut s = -self.solve(np, no, -alpha - 1, -alpha);
                self.busy.release(mark);
                if s > alpha && s < beta && !self.aborted {
                    s = -self.solve(np, no, -beta, -alpha);
                }
                s
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_sq = sq;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if n_empty >= TT_MIN_EMPTIES {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha0 {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(
                p,
                o,
                n_empty as u8,
                Kind::Endgame,
                bound,
                best,
                Square::from_index(best_sq),
                self.selectivity,
            );
        }
        best
    }

    /// Dispatch for few empties: no table, no sorting, parity order.
    #[inline]
    fn solve_few(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empty: u64) -> i32 {
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

/// The corners of `p` and its edge discs next to them: discs that can never be flipped,
/// found far more cheaply than by [`stable_discs`]. Move ordering counts them (as Edax does
/// in its endgame) so that, among moves leaving the opponent as many replies, the one that
/// secures a corner's edge goes first.
#[inline]
pub(crate) fn corner_stability(p: u64) -> i32 {
    corner_edge_discs(p).count_ones() as i32
}

#[inline]
fn corner_edge_discs(p: u64) -> u64 {
    ((0x0100_0000_0000_0001 & p) << 1
        | (0x8000_0000_0000_0080 & p) >> 1
        | (0x0000_0000_0000_0081 & p) << 8
        | (0x8100_0000_0000_0000 & p) >> 8
        | CORNERS)
        & p
}

/// Squares next to any of the `empty` squares.
#[inline]
pub(crate) fn neighbours_of_empty(empty: u64) -> u64 {
    let l = (empty << 1) & 0xFEFE_FEFE_FEFE_FEFE;
    let r = (empty >> 1) & 0x7F7F_7F7F_7F7F_7F7F;
    let row = empty | l | r;
    row | row << 8 | row >> 8
}

/// The stability cutoff: the opponent's stable discs are never lost, so `p` can score at
/// most what the rest of the board gives; when that is no better than `alpha`, it is the
/// node's fail-soft upper bound. Only tried where [`STABILITY_THRESHOLD`] says it can cut.
#[inline(always)]
fn stability_cut(p: u64, o: u64, n_empty: u32, alpha: i32) -> Option<i32> {
    if alpha < STABILITY_THRESHOLD[n_empty as usize] {
        return None;
    }
    let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
    (bound <= alpha).then_some(bound)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::HandEval;
    use crate::engine::search::{Busy, Shared};
    use crate::engine::tt::TranspositionTable;
    use crate::engine::Algorithm;
    use std::sync::atomic::{AtomicBool, AtomicU64};
    use std::time::Instant;

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
        let shared = Shared {
            eval: &eval,
            tt: &tt,
            busy: &busy,
            parallel: false,
            stop: AtomicBool::new(false),
            cancel: None,
            solving: AtomicBool::new(false),
            deadline: None,
            nodes: &AtomicU64::new(0),
            start: Instant::now(),
        };
        let mut worker = Worker::new(&shared, true, Algorithm::Pvs);
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
                let r = worker.solve(p, o, alpha, beta);
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
