//! Depth-limited search (minimax, alpha-beta, PVS), the root move loop with multi-PV and
//! aspiration windows, anytime iterative deepening, and the Lazy SMP thread pool around it.

use super::endgame::{corner_stability, final_score, neighbours_of_empty};
use super::probcut::{solve_by_levels, Selectivity};
use super::tt::{Bound, Kind, TranspositionTable};
use super::{Algorithm, Evaluator, Iteration, Line, Mode, ScoreKind, INF, SCALE};
use crate::board::movegen::{flips, moves};
use crate::board::{Board, Move, Square};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Nodes between two looks at the stop flag and the clock.
const POLL_INTERVAL: u64 = 2048;
/// Shallower nodes are cheaper to search again than to look up (a likely cache miss).
const TT_MIN_DEPTH: u32 = 3;
/// From this depth on, moves are ordered by a 2-ply search of each child. Below it, by what
/// the move leaves the opponent: mobility, then the mover's discs next to empty squares.
/// The evaluation of each child (depths 3-5) and a 1-ply search (depths 6-9) had ordered
/// worse and cost more: on 24 positions from real games, depth 13 took 353.5 M nodes and
/// 28.6 s with both, 267.8 M nodes with neither below depth 6, 201.6 M below depth 10
/// (docs/experiments.md).
const ORDER_SEARCH_MIN: u32 = 10;
/// Weight of one opponent move against one of the mover's discs next to an empty square.
const MOBILITY_WEIGHT: i32 = 4;
/// Weight of the mover's corners and the edge discs next to them in the same key (half an
/// opponent move each).
const CORNER_STABILITY_WEIGHT: i32 = 2;
/// The last ply tries corners first and X-squares last, with no other ordering: on 16
/// midgame positions (depths 10-12) 2.8% fewer nodes than square order, at no cost.
const DEPTH_ONE_FIRST: u64 = 0x8100_0000_0000_0081;
const DEPTH_ONE_LAST: u64 = 0x0042_0000_0000_4200;
/// From this depth on, threads avoid searching the same subtree at the same time.
const SHARE_MIN_DEPTH: u32 = 4;
/// From this depth on, children are looked up in the table before any is searched.
const ETC_MIN_DEPTH: u32 = 6;

/// Positions some thread is searching right now (a small lossy hash set): a thread that finds
/// a sibling's subtree taken searches its other moves first. Lossy both ways is fine: a missed
/// mark only costs duplicated work, a stale one only a later visit.
pub(crate) struct Busy {
    slots: Box<[AtomicU64]>,
}

const BUSY_SLOTS: usize = 1 << 14;

impl Busy {
    pub fn new() -> Busy {
        Busy {
            slots: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[key as usize & (BUSY_SLOTS - 1)]
    }

    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks `key` busy unless its slot is taken; true when this call marked it.
    #[inline]
    pub fn enter(&self, key: u64) -> bool {
        self.slot(key)
            .compare_exchange(0, key, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }

    #[inline]
    pub fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Gives back a mark from [`MoveLoop::enter`] (0: none was taken).
    #[inline]
    pub fn release(&self, mark: u64) {
        if mark != 0 {
            self.leave(mark);
        }
    }
}

/// Non-zero key of a position for [`Busy`].
#[inline]
pub(crate) fn busy_key(p: u64, o: u64) -> u64 {
    Board::from_bits(p, o).hash64() | 1
}

/// State shared by all threads of one search.
pub(crate) struct Shared<'a, E> {
    pub eval: &'a E,
    pub tt: &'a TranspositionTable,
    /// Subtrees under way (only used with several threads).
    pub busy: &'a Busy,
    /// More than one thread searches.
    pub parallel: bool,
    pub stop: AtomicBool,
    /// The caller's flag ([`super::Engine::analyze_stoppable`]): once set, the search stops as
    /// if the deadline had passed.
    pub cancel: Option<&'a AtomicBool>,
    /// Set by the main thread when it leaves the midgame iterations for the solve: helpers
    /// drop the midgame iteration they are in and join it.
    pub solving: AtomicBool,
    pub deadline: Option<Instant>,
    /// Nodes published by all threads so far (the caller's counter when it watches them,
    /// see [`super::Engine::analyze_watched`]).
    pub nodes: &'a AtomicU64,
    pub start: Instant,
}

/// One search thread.
pub(crate) struct Worker<'a, E> {
    pub eval: &'a E,
    pub tt: &'a TranspositionTable,
    pub busy: &'a Busy,
    pub parallel: bool,
    shared: &'a Shared<'a, E>,
    pub nodes: u64,
    published: u64,
    next_poll: u64,
    pub aborted: bool,
    main: bool,
    /// A helper in its midgame iterations, which it leaves when the main thread solves.
    follows: bool,
    algo: Algorithm,
    /// A root move that beat the first one in the root search under way (for a time-out).
    improved: Option<RootMove>,
    /// ProbCut's level for the searches under way (see [`super::probcut`]).
    pub selectivity: Selectivity,
}

/// One root move and what the last search said about it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RootMove {
    pub sq: Square,
    pub p: u64,
    pub o: u64,
    pub score: i32,
    /// Whether `score` is exact (inside the window) rather than a bound.
    pub exact: bool,
}

/// What is searched below the root moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Depth {
    /// The evaluation after this many plies (root move included).
    Plies(u32),
    /// Perfect play to the end of the game (scores in discs).
    End,
}

impl<'a, E: Evaluator> Worker<'a, E> {
    pub fn new(shared: &'a Shared<'a, E>, main: bool, algo: Algorithm) -> Self {
        Worker {
            eval: shared.eval,
            tt: shared.tt,
            busy: shared.busy,
            parallel: shared.parallel,
            shared,
            nodes: 0,
            published: 0,
            next_poll: POLL_INTERVAL,
            aborted: false,
            main,
            follows: false,
            algo,
            improved: None,
            selectivity: Selectivity::EXACT,
        }
    }

    /// Looks at the stop flag and the clock now and then.
    #[inline]
    pub fn poll(&mut self) {
        if self.nodes < self.next_poll {
            return;
        }
        self.next_poll = self.nodes + POLL_INTERVAL;
        self.publish();
        if self.shared.stop.load(Ordering::Relaxed)
            || (self.follows && self.shared.solving.load(Ordering::Relaxed))
        {
            self.aborted = true;
        } else if self
            .shared
            .cancel
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            // Through `stop`, so that every thread treats it as a time-out.
            self.shared.stop.store(true, Ordering::Relaxed);
            self.aborted = true;
        } else if let Some(d) = self.shared.deadline {
            // Every thread looks at the clock: with more threads than cores the main thread
            // may get too little CPU to see the deadline in time.
            if Instant::now() >= d {
                self.shared.stop.store(true, Ordering::Relaxed);
                self.aborted = true;
            }
        }
    }

    pub fn publish(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.published, Ordering::Relaxed);
        self.published = self.nodes;
    }

    /// Value of the position at `depth` plies with the selected algorithm (SCALE units).
    pub fn search(&mut self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
        match self.algo {
            Algorithm::Minimax => self.minimax(p, o, depth),
            Algorithm::AlphaBeta => self.alphabeta(p, o, depth, alpha, beta),
            Algorithm::Pvs => self.pvs(p, o, depth, alpha, beta),
        }
    }

    /// Plain negamax: every node of the tree, for comparison.
    fn minimax(&mut self, p: u64, o: u64, depth: u32) -> i32 {
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        if depth == 0 {
            return self.eval.eval(p, o);
        }
        let mut mv = moves(p, o);
        if mv == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o) * SCALE;
            }
            // A pass costs no depth: the tree below is the same as the opponent's.
            return -self.minimax(o, p, depth);
        }
        let mut best = -INF;
        while mv != 0 {
            let sq = mv.trailing_zeros() as u8;
            mv &= mv - 1;
            let f = flips(p, o, sq);
            best = best.max(-self.minimax(o & !f, p | f | 1 << sq, depth - 1));
        }
        best
    }

    /// Fail-soft alpha-beta in square order, without table or ordering.
    fn alphabeta(&mut self, p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        if depth == 0 {
            return self.eval.eval(p, o);
        }
        let mut mv = moves(p, o);
        if mv == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o) * SCALE;
            }
            return -self.alphabeta(o, p, depth, -beta, -alpha);
        }
        let mut best = -INF;
        while mv != 0 {
            let sq = mv.trailing_zeros() as u8;
            mv &= mv - 1;
            let f = flips(p, o, sq);
            let s = -self.alphabeta(o & !f, p | f | 1 << sq, depth - 1, -beta, -alpha);
            if raise(&mut best, &mut alpha, s, beta) {
                break;
            }
        }
        best
    }

    /// Principal-variation search with the table and move ordering (fail-soft).
    pub fn pvs(&mut self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
        let s = self.eval.state(p, o);
        self.pvs_s(p, o, &s, depth, alpha, beta)
    }

    /// [`Worker::pvs`] with the evaluation state of the position.
    pub(crate) fn pvs_s(
        &mut self,
        p: u64,
        o: u64,
        s: &E::State,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if depth == 0 {
            self.nodes += 1;
            return self.eval.eval_state(s, p, o);
        }
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        let mv = moves(p, o);
        if mv == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o) * SCALE;
            }
            return -self.pvs_s(o, p, &self.eval.pass(s), depth, -beta, -alpha);
        }
        if depth == 1 {
            return self.depth_one(p, o, s, mv, alpha, beta);
        }
        if depth == 2 {
            return self.depth_two(p, o, s, mv, alpha, beta);
        }

        let mut tt_move = None;
        let use_tt = depth >= TT_MIN_DEPTH;
        // Below the table's depth the probe is skipped, not just ignored: its bucket is
        // usually out of cache, and the load costs more than the node's whole search.
        if let Some(e) = use_tt.then(|| self.tt.probe(p, o)).flatten() {
            tt_move = e.best.map(|s| s as u8);
            if e.kind == Kind::Midgame
                && u32::from(e.depth) >= depth
                && e.selectivity >= self.selectivity
            {
                match e.bound {
                    Bound::Exact => return e.score,
                    Bound::Lower if e.score >= beta => return e.score,
                    Bound::Upper if e.score <= alpha => return e.score,
                    _ => {}
                }
            }
        }

        if depth >= ETC_MIN_DEPTH {
            // Enhanced transposition cutoff: a child already proven bad enough for the
            // opponent at enough depth settles this node before anything is searched.
            let mut m = mv;
            while m != 0 {
                let sq = m.trailing_zeros() as u8;
                m &= m - 1;
                let f = flips(p, o, sq);
                if let Some(e) = self.tt.probe(o & !f, p | f | 1 << sq) {
                    if e.kind == Kind::Midgame
                        && u32::from(e.depth) + 1 >= depth
                        && e.selectivity >= self.selectivity
                        && matches!(e.bound, Bound::Upper | Bound::Exact)
                        && -e.score >= beta
                    {
                        return -e.score;
                    }
                }
            }
        }
        if let Some(v) = self.probcut_midgame(p, o, s, depth, alpha, beta) {
            return v;
        }
        let (mut list, n) = self.order(p, o, s, mv, depth, tt_move);
        let list = &mut list[..n];

        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_sq = list[0].0;
        let share = self.parallel && depth >= SHARE_MIN_DEPTH;
        let mut order = MoveLoop::new(share);
        for i in 0..n + 32 {
            let Some((sq, f)) = order.next(list, i) else {
                break;
            };
            let (np, no) = (o & !f, p | f | 1 << sq);
            let ns = self.eval.play(s, sq, f);
            let score = if i == 0 {
                -self.pvs_s(np, no, &ns, depth - 1, -beta, -alpha)
            } else {
                let Some(mark) = order.enter(self.busy, i, n, np, no) else {
                    continue;
                };
                let v = -self.pvs_s(np, no, &ns, depth - 1, -alpha - 1, -alpha);
                self.busy.release(mark);
                if v > alpha && v < beta && !self.aborted {
                    -self.pvs_s(np, no, &ns, depth - 1, -beta, -alpha)
                } else {
                    v
                }
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
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !use_tt {
            return best;
        }
        self.tt.store(
            p,
            o,
            depth as u8,
            Kind::Midgame,
            bound,
            best,
            Square::from_index(best_sq),
            self.selectivity,
        );
        best
    }

    /// The last ply: evaluate every child (each counts as a node).
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
        /// Takes the next move to try out of `rem`: corners, then the rest, X-squares last.
        #[inline(always)]
        fn take(rem: &mut u64) -> u8 {
            let group = if *rem & DEPTH_ONE_FIRST != 0 {
                *rem & DEPTH_ONE_FIRST
            } else if *rem & !DEPTH_ONE_LAST != 0 {
                *rem & !DEPTH_ONE_LAST
            } else {
                *rem
            };
            let sq = group.trailing_zeros() as u8;
            *rem &= !(1 << sq);
            sq
        }
        let mut best = -INF;
        let mut rem = mv;
        let mut sq = take(&mut rem);
        let mut f = flips(p, o, sq);
        loop {
            let (np, no) = (o & !f, p | f | 1 << sq);
            // The next move's flips are found before this child is evaluated, so that their
            // latency overlaps the evaluation's; at a cut one set of flips is wasted.
            let next = (rem != 0).then(|| {
                let nsq = take(&mut rem);
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
        let mut list = [(0u8, 0u64, 0i32, 0u64); 32];
        let mut n = 0;
        while mv != 0 {
            let sq = mv.trailing_zeros() as u8;
            mv &= mv - 1;
            let f = flips(p, o, sq);
            let om = moves(o & !f, p | f | 1 << sq);
            list[n] = (sq, f, -mobility_key(om), om);
            n += 1;
        }
        let list = &mut list[..n];
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
    /// [`Worker::pvs_s`] at depth 1, without generating them again.
    #[inline]
    fn last_ply(&mut self, p: u64, o: u64, s: &E::State, mv: u64, alpha: i32, beta: i32) -> i32 {
        if mv == 0 {
            return self.pvs_s(p, o, s, 1, alpha, beta);
        }
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        self.depth_one(p, o, s, mv, alpha, beta)
    }

    /// The moves `mv` as (square, flips, key) and their count. The caller picks moves best
    /// first with [`pick_best`], so that a cutoff leaves the rest unsorted.
    #[inline]
    fn order(
        &mut self,
        p: u64,
        o: u64,
        s: &E::State,
        mut mv: u64,
        depth: u32,
        tt_move: Option<u8>,
    ) -> ([(u8, u64, i32); 32], usize) {
        let mut list = [(0u8, 0u64, 0i32); 32];
        let mut n = 0;
        while mv != 0 {
            let sq = mv.trailing_zeros() as u8;
            mv &= mv - 1;
            let f = flips(p, o, sq);
            let (np, no) = (o & !f, p | f | 1 << sq);
            if depth > TT_MIN_DEPTH {
                self.tt.prefetch(np, no);
            }
            let key = if Some(sq) == tt_move {
                1 << 30
            } else if depth >= ORDER_SEARCH_MIN {
                // Shallow search: the best predictor of the deep result.
                -self.pvs_s(np, no, &self.eval.play(s, sq, f), 2, -INF, INF)
            } else {
                let front = (no & neighbours_of_empty(!(np | no))).count_ones() as i32;
                -(mobility_key(moves(np, no)) * MOBILITY_WEIGHT + front)
                    + corner_stability(no) * CORNER_STABILITY_WEIGHT
            };
            list[n] = (sq, f, key);
            n += 1;
        }
        (list, n)
    }

    /// Value of a root child (the opponent to move) as seen from the root.
    fn child_value(&mut self, m: &RootMove, depth: Depth, alpha: i32, beta: i32) -> i32 {
        match depth {
            Depth::Plies(d) => -self.search(m.p, m.o, d - 1, -beta, -alpha),
            Depth::End => -self.solve(m.p, m.o, -beta, -alpha),
        }
    }

    /// Searches every root move inside (`alpha`, `beta`) keeping the `multipv` best exact;
    /// sorts `moves` best first. Returns the best score, or `None` if stopped.
    pub fn root(
        &mut self,
        moves: &mut [RootMove],
        depth: Depth,
        alpha: i32,
        beta: i32,
        multipv: usize,
    ) -> Option<i32> {
        let k = multipv.max(1);
        let mut exact_scores: Vec<i32> = Vec::with_capacity(moves.len());
        for m in moves.iter_mut() {
            m.exact = false;
            m.score = -INF;
        }
        self.improved = None;
        for (i, mv) in moves.iter_mut().enumerate() {
            let lo = if exact_scores.len() >= k {
                alpha.max(exact_scores[k - 1])
            } else {
                alpha
            };
            if lo >= beta {
                break;
            }
            let m = *mv;
            let s = if i < k {
                self.child_value(&m, depth, lo, beta)
            } else {
                let s = self.child_value(&m, depth, lo, lo + 1);
                if s > lo && s < beta && !self.aborted {
                    self.child_value(&m, depth, lo, beta)
                } else {
                    s
                }
            };
            if self.aborted {
                return None;
            }
            mv.score = s;
            mv.exact = s > lo && s < beta;
            if s > lo {
                if mv.exact {
                    let pos = exact_scores.partition_point(|&x| x >= s);
                    exact_scores.insert(pos, s);
                }
                if i > 0 && k == 1 {
                    self.improved = Some(*mv);
                }
            }
            if s >= beta && k == 1 {
                break;
            }
        }
        // Best first; among equal scores exact ones first, then the previous order.
        moves.sort_by(|a, b| b.score.cmp(&a.score).then(b.exact.cmp(&a.exact)));
        Some(moves[0].score)
    }
}

/// A node's move order with busy subtrees put off (simplified ABDADA): while several
/// threads search, a later move whose subtree another thread is in right now is tried after
/// all the others; by then its result is likely in the table.
pub(crate) struct MoveLoop {
    share: bool,
    deferred: [u8; 32],
    n_deferred: usize,
}

impl MoveLoop {
    /// `share`: whether this node takes part (several threads, enough depth left).
    #[inline]
    pub fn new(share: bool) -> MoveLoop {
        MoveLoop {
            share,
            deferred: [0; 32],
            n_deferred: 0,
        }
    }

    /// The `i`-th move to try: the best remaining one of `list` while `i < list.len()`, then
    /// the deferred ones in the order they were put off.
    #[inline]
    pub fn next(&self, list: &mut [(u8, u64, i32)], i: usize) -> Option<(u8, u64)> {
        let (sq, f, _) = if i < list.len() {
            pick_best(list, i, |e| e.2)
        } else if i - list.len() < self.n_deferred {
            list[usize::from(self.deferred[i - list.len()])]
        } else {
            return None;
        };
        Some((sq, f))
    }

    /// Before searching move `i` (leading to `np`, `no`) of a `n`-move list: `None` if it is
    /// put off, else the busy mark taken, to give back with [`Busy::release`] afterwards.
    #[inline]
    pub fn enter(&mut self, busy: &Busy, i: usize, n: usize, np: u64, no: u64) -> Option<u64> {
        if !self.share {
            return Some(0);
        }
        let key = busy_key(np, no);
        if i < n && busy.is_busy(key) {
            self.deferred[self.n_deferred] = i as u8;
            self.n_deferred += 1;
            return None;
        }
        Some(if busy.enter(key) { key } else { 0 })
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

/// Moves the best-keyed entry of `list[i..]` (the first of equals) to `i` and returns it.
#[inline]
pub(crate) fn pick_best<T: Copy>(list: &mut [T], i: usize, key: impl Fn(&T) -> i32) -> T {
    let mut b = i;
    for j in i + 1..list.len() {
        if key(&list[j]) > key(&list[b]) {
            b = j;
        }
    }
    list.swap(i, b);
    list[i]
}

/// How much a move leaves the opponent, given the opponent's moves `om`: its mobility, with
/// corners counted twice.
#[inline(always)]
fn mobility_key(om: u64) -> i32 {
    const CORNERS: u64 = 0x8100_0000_0000_0081;
    (om.count_ones() + (om & CORNERS).count_ones()) as i32
}

/// Principal variation from the table, starting at a board whose best move is known.
pub(crate) fn pv_from_tt(tt: &TranspositionTable, board: Board, max: usize) -> Vec<Move> {
    let mut out = Vec::new();
    let mut b = board;
    let mut seen = Vec::new();
    while out.len() < max {
        if !b.has_moves() {
            if b.pass().has_moves() {
                out.push(Move::Pass);
                b = b.pass();
                continue;
            }
            break;
        }
        let Some(sq) = tt.probe(b.player().0, b.opponent().0).and_then(|e| e.best) else {
            break;
        };
        let Ok(next) = b.play(sq) else { break };
        if seen.contains(&next) {
            break;
        }
        seen.push(next);
        out.push(Move::Play(sq));
        b = next;
    }
    // A trailing pass says nothing.
    while out.last() == Some(&Move::Pass) {
        out.pop();
    }
    out
}

/// Result of one iterative-deepening run in one thread.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    pub depth: u32,
    pub kind: ScoreKind,
    pub moves: Vec<RootMove>,
    pub complete: bool,
}

/// Per-thread driver: iterative deepening from `first_depth`, then the exact (or WLD) solve.
#[allow(clippy::too_many_arguments)]
pub(crate) fn iterate<E: Evaluator>(
    worker: &mut Worker<'_, E>,
    board: Board,
    mut moves: Vec<RootMove>,
    mode: Mode,
    max_depth: Option<u32>,
    multipv: usize,
    thread: usize,
    mut report: impl FnMut(&Worker<'_, E>, &Iteration, &[RootMove]),
) -> Option<Outcome> {
    let empties = board.empty_count();
    let plan = Plan::new(mode, max_depth, empties, worker.shared.deadline);
    let mut done: Option<Outcome> = None;
    // Helpers start on a different move order and depth so that threads diverge.
    if thread > 0 && moves.len() > 1 {
        let r = thread % moves.len();
        moves.rotate_left(r);
    }
    worker.follows = !worker.main && plan.want_end;
    let mut prev: Option<i32> = None;
    let mut prev2: Option<i32> = None;
    let start_depth = 1 + (thread as u32 & 1);
    let mut d = start_depth;
    while d <= plan.mid_limit {
        let aspirate = multipv == 1 && d >= 3 && worker.algo == Algorithm::Pvs;
        let started = Instant::now();
        let score = if let (Some(pv), true) = (prev2, aspirate) {
            aspiration(worker, &mut moves, Depth::Plies(d), pv)
        } else {
            worker.root(&mut moves, Depth::Plies(d), -INF, INF, multipv)
        };
        if score.is_none() && worker.follows && !worker.shared.stop.load(Ordering::Relaxed) {
            // The main thread has gone on to the solve: this iteration is dropped.
            worker.aborted = false;
            worker.improved = None;
            break;
        }
        let Some(score) = score else {
            return out_of_time(done, worker.improved.take().map(|m| (m, d)));
        };
        prev2 = prev;
        prev = Some(score);
        let out = Outcome {
            depth: d,
            kind: ScoreKind::Midgame,
            moves: moves.clone(),
            complete: true,
        };
        if mode == Mode::Auto {
            report(worker, &iteration_of(&out, board, worker), &moves);
        }
        done = Some(out);
        d += 1;
        if let Some((deadline, _)) = plan.early_end.filter(|&(_, from)| worker.main && d > from) {
            let left = deadline.saturating_duration_since(Instant::now());
            if predicted_solve(empties, d - 1, started.elapsed()) <= left.as_secs_f64() {
                break;
            }
        }
    }
    worker.follows = false;
    if !plan.want_end {
        return done;
    }
    if worker.main {
        worker.shared.solving.store(true, Ordering::Relaxed);
    }
    // Solves are exact (100%) whatever the midgame selectivity.
    worker.selectivity = Selectivity::EXACT;
    // The estimate of the last depth with the parity of the game's end.
    let same = if (d - 1) % 2 == empties % 2 {
        prev
    } else {
        prev2.or(prev)
    };
    let score = match same {
        // A midgame estimate centres a narrow window: most of the tree is then searched
        // with windows that cut far more than the full -64..64 one.
        Some(guess) if multipv == 1 && mode != Mode::Wld => {
            solve_by_levels(worker, &mut moves, guess, empties)
        }
        _ if mode == Mode::Wld => worker.root(&mut moves, Depth::End, -1, 1, multipv),
        _ => worker.root(&mut moves, Depth::End, -64, 64, multipv),
    };
    if score.is_none() {
        return out_of_time(done, None);
    }
    let out = Outcome {
        depth: empties,
        kind: if mode == Mode::Wld {
            ScoreKind::Wld
        } else {
            ScoreKind::Exact
        },
        moves: moves.clone(),
        complete: true,
    };
    report(worker, &iteration_of(&out, board, worker), &moves);
    Some(out)
}

/// What one thread's iterative deepening will do, from the mode and the limits.
struct Plan {
    /// The deepest midgame iteration.
    mid_limit: u32,
    /// Whether an exact (or WLD) solve follows the midgame iterations.
    want_end: bool,
    /// Under a time limit, the deadline and the depth from which the main thread starts the
    /// solve once [`predicted_solve`] fits in the time left.
    early_end: Option<(Instant, u32)>,
}

impl Plan {
    fn new(mode: Mode, max_depth: Option<u32>, empties: u32, deadline: Option<Instant>) -> Plan {
        let final_depth = match mode {
            Mode::Auto => max_depth.unwrap_or(u32::MAX),
            Mode::Exact | Mode::Wld => u32::MAX,
        };
        let want_end = final_depth >= empties;
        let mid_limit = match mode {
            // A depth that reaches the end means an exact solve, and the solve costs about as
            // much as the midgame iterations up to 4-6 plies short of the end: iterating
            // further first would cost several solves.
            Mode::Auto if want_end => presearch_depth(empties, deadline.is_some()),
            Mode::Auto => final_depth.min(empties.saturating_sub(1)),
            Mode::Exact | Mode::Wld => presearch_depth(empties, false),
        };
        // Under a time limit the solve starts as soon as it is predicted to finish in the
        // time left, but not before the pre-search a solve without a time limit gets.
        let early_end = deadline
            .filter(|_| want_end && mode == Mode::Auto)
            .map(|t| (t, presearch_depth(empties, false)));
        Plan {
            mid_limit,
            want_end,
            early_end,
        }
    }
}

/// The result of a search stopped by the clock: the last finished iteration, but if the
/// unfinished one (to `depth`) had already proved another move (`improved`) better than its
/// first, that move first, with the score and depth it was proved at: the finished
/// iteration's score belongs to its own best move.
fn out_of_time(done: Option<Outcome>, improved: Option<(RootMove, u32)>) -> Option<Outcome> {
    done.map(|mut o| {
        o.complete = false;
        if let Some((m, depth)) = improved {
            if let Some(pos) = o.moves.iter().position(|x| x.sq == m.sq) {
                o.moves.remove(pos);
                o.moves.insert(0, m);
                o.depth = depth;
            }
        }
        o
    })
}

/// How deep the midgame iterations go before an exact solve of a position with `empties`
/// empty squares. They seed the table with good moves and give the solve's narrow window its
/// centre. Up to 23 empties, 12 plies short of the end (at most 10) was the best of the
/// depths tried: FFO #1-#44 at one thread, geometric mean of the times 0.6 (14-16 empties)
/// and 0.8 (17-23) of the former rule, which is kept from 24 empties on because the deeper
/// one cost 20-50% more on FFO #38, #45 and #46. Under a time limit (`anytime`) they go on, at
/// the latest, to 8 plies short of the end, so that a solve that runs out of time still leaves
/// a good midgame answer; that costs little next to the solve (FFO #25, #30, #35, #40:
/// 0.44-1.15 M nodes against 3.2-14.2 M). They stop sooner when [`predicted_solve`] fits in
/// the time left.
fn presearch_depth(empties: u32, anytime: bool) -> u32 {
    if anytime {
        empties.saturating_sub(8)
    } else if empties <= 23 {
        empties.saturating_sub(12).min(10)
    } else {
        ((empties - 12) / 2).min(10)
    }
}

/// Seconds the exact solve of a position with `empties` empty squares is predicted to take,
/// after the midgame iteration to `depth` took `last`. It errs on the long side: over FFO
/// #21-#49 at one thread (each midgame iteration of at least 10 ms, 8 to 12 plies short of
/// the end, against `solve`'s time; 83 pairs) the solve took a median 0.38 of the
/// prediction, at most 1.0. The factor was 17 until the midgame ordering of 2026-11-24 made
/// the iterations faster than the solve (the same pairs then gave up to 1.78).
fn predicted_solve(empties: u32, depth: u32, last: std::time::Duration) -> f64 {
    let short = f64::from(empties.saturating_sub(depth)) - 8.0;
    let more = f64::from(empties) - 20.0;
    last.as_secs_f64() * 30.0 * 2.14f64.powf(short) * 0.8f64.powf(more)
}

/// Root search with a window around an earlier score, widened on failure. The caller passes
/// the score of two iterations back: with the pattern evaluation, odd and even depths differ
/// by a disc or more, so a window of 0.5 disc around the previous depth failed so often
/// that the search cost 18% more nodes than none at all (12 midgame positions, depths 10-12);
/// 2 discs around the same parity's score cost no more than no window.
fn aspiration<E: Evaluator>(
    worker: &mut Worker<'_, E>,
    moves: &mut [RootMove],
    depth: Depth,
    guess: i32,
) -> Option<i32> {
    let mut delta = 2 * SCALE;
    let (mut lo, mut hi) = (guess - delta, guess + delta);
    loop {
        let s = worker.root(moves, depth, lo, hi, 1)?;
        if s <= lo && lo > -INF {
            lo = (s - delta).max(-INF);
        } else if s >= hi && hi < INF {
            hi = (s + delta).min(INF);
        } else {
            return Some(s);
        }
        delta *= 2;
        if delta > 8 * SCALE {
            lo = -INF;
            hi = INF;
        }
    }
}

/// Exact root search in a window around a midgame estimate (`guess`, SCALE units), moved
/// and widened after each failure using the fail-soft bound it returned.
pub(crate) fn end_aspiration<E: Evaluator>(
    worker: &mut Worker<'_, E>,
    moves: &mut [RootMove],
    guess: i32,
) -> Option<i32> {
    // Final scores are even, so (g-3, g+3) holds g-2, g and g+2.
    let g = (2 * (guess as f64 / f64::from(2 * SCALE)).round() as i32).clamp(-64, 64);
    let (mut lo, mut hi) = ((g - 7).max(-65), (g + 7).min(65));
    let mut delta = 4;
    loop {
        let s = worker.root(moves, Depth::End, lo, hi, 1)?;
        if s <= lo && lo > -65 {
            hi = s + 1;
            lo = (s - delta).max(-65);
        } else if s >= hi && hi < 65 {
            lo = s - 1;
            hi = (s + delta).min(65);
        } else {
            return Some(s);
        }
        delta *= 2;
    }
}

/// The report for a finished iteration (lines without their PV; the engine adds those).
pub(crate) fn iteration_of<E: Evaluator>(
    out: &Outcome,
    _board: Board,
    worker: &Worker<'_, E>,
) -> Iteration {
    let scale = if out.kind == ScoreKind::Midgame {
        1
    } else {
        SCALE
    };
    let lines = out
        .moves
        .iter()
        .map(|m| Line {
            mv: Move::Play(m.sq),
            score: m.score * scale,
            exact: m.exact,
            pv: Vec::new(),
        })
        .collect();
    Iteration {
        depth: out.depth,
        kind: out.kind,
        lines,
        nodes: worker.shared.nodes.load(Ordering::Relaxed) + worker.nodes - worker.published,
        elapsed: worker.shared.start.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `analyze --time 1.4` printed "best: d7 +1.16 (depth 11)": d7 had been proved better
    /// than c6 at depth 12, but +1.16 was c6's score at depth 11 (d7 had +0.05 there).
    #[test]
    fn regression_a_move_proved_better_after_the_time_ran_out_got_another_moves_score() {
        let mv = |sq: Square, score: i32| RootMove {
            sq,
            p: 0,
            o: 0,
            score,
            exact: true,
        };
        let done = Outcome {
            depth: 11,
            kind: ScoreKind::Midgame,
            moves: vec![mv(Square::C6, 116), mv(Square::F7, 40), mv(Square::D7, 5)],
            complete: true,
        };
        let o = out_of_time(Some(done.clone()), Some((mv(Square::D7, -235), 12))).expect("kept");
        assert!(!o.complete);
        assert_eq!(
            (o.moves[0].sq, o.moves[0].score, o.depth),
            (Square::D7, -235, 12)
        );
        assert_eq!(o.moves.len(), 3);
        let o = out_of_time(Some(done), None).expect("kept");
        assert_eq!(
            (o.moves[0].sq, o.moves[0].score, o.depth),
            (Square::C6, 116, 11)
        );
    }

    #[test]
    fn busy_marks_are_taken_and_released_by_their_owner_only() {
        let busy = Busy::new();
        let a = busy_key(1, 2);
        // Same slot, another position.
        let b = a + BUSY_SLOTS as u64 * 2;
        assert!(!busy.is_busy(a));
        assert!(busy.enter(a));
        assert!(busy.is_busy(a));
        assert!(!busy.is_busy(b), "a slot answers only for its own key");
        assert!(!busy.enter(b), "a taken slot is not overwritten");
        busy.leave(b);
        assert!(busy.is_busy(a), "leaving another key keeps the mark");
        busy.leave(a);
        assert!(!busy.is_busy(a));
        assert!(busy.enter(b));
    }
}
