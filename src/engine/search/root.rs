//! The root driver: the root move loop with multi-PV, aspiration windows (midgame and
//! exact), and one thread's anytime iterative deepening from the first iteration to the
//! exact solve.

use super::threads::Worker;
use crate::board::{Board, Move, Square};
use crate::engine::selectivity::{Selectivity, END_LEVELS_MIN_EMPTIES};
use crate::engine::tt::TranspositionTable;
use crate::engine::{Evaluator, Iteration, Line, Mode, ScoreKind, INF, SCALE};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// One root move and what the last search said about it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RootMove {
    pub sq: Square,
    /// The position after it.
    pub child: Board,
    pub score: i32,
    /// Whether `score` is exact (inside the window) rather than a bound.
    pub exact: bool,
}

/// What is searched below the root moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Horizon {
    /// The evaluation after this many plies (root move included).
    Plies(u32),
    /// Perfect play to the end of the game (scores in discs).
    End,
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

/// What one thread's iterative deepening searches.
pub(crate) struct Task {
    /// The root position (the side to move has a move).
    pub board: Board,
    /// Its moves to search, in the order to try them first.
    pub moves: Vec<RootMove>,
    pub mode: Mode,
    /// The deepest midgame iteration asked for.
    pub max_depth: Option<u32>,
    /// How many best moves to score exactly.
    pub multipv: usize,
    /// This thread's number (0: the main thread); helpers start elsewhere so that threads
    /// diverge.
    pub thread: usize,
    /// ProbCut's level in the midgame iterations; the solve that may follow is exact.
    pub selectivity: Selectivity,
}

/// One thread's root search: its worker and the root move that beat the first one in the
/// iteration under way (for a time-out).
pub(crate) struct RootSearch<'w, 'a, E> {
    pub w: &'w mut Worker<'a, E>,
    improved: Option<RootMove>,
}

impl<'w, 'a, E: Evaluator> RootSearch<'w, 'a, E> {
    pub fn new(w: &'w mut Worker<'a, E>) -> Self {
        RootSearch { w, improved: None }
    }

    /// Iterative deepening, then the exact (or WLD) solve when the task reaches the end;
    /// `report` is called after each finished iteration.
    pub fn iterate(
        &mut self,
        task: Task,
        mut report: impl FnMut(&Worker<'_, E>, &Iteration),
    ) -> Option<Outcome> {
        let Task {
            board,
            mut moves,
            mode,
            max_depth,
            multipv,
            thread,
            selectivity,
        } = task;
        self.w.selectivity = selectivity;
        let empties = board.empty_count();
        let plan = Plan::new(mode, max_depth, empties, self.w.shared.deadline);
        let mut done: Option<Outcome> = None;
        // Helpers start on a different move order and depth so that threads diverge.
        if thread > 0 && moves.len() > 1 {
            let r = thread % moves.len();
            moves.rotate_left(r);
        }
        self.w.follows = !self.w.main && plan.want_end;
        let mut prev: Option<i32> = None;
        let mut prev2: Option<i32> = None;
        let mut d = 1 + (thread as u32 & 1);
        while d <= plan.mid_limit {
            let started = Instant::now();
            let score = match prev2 {
                Some(guess) if multipv == 1 && d >= 3 => {
                    self.aspiration(&mut moves, Horizon::Plies(d), guess)
                }
                _ => self.root(&mut moves, Horizon::Plies(d), -INF, INF, multipv),
            };
            if score.is_none() && self.w.follows && !self.w.shared.stop.load(Ordering::Relaxed) {
                // The main thread has gone on to the solve: this iteration is dropped.
                self.w.aborted = false;
                self.improved = None;
                break;
            }
            let Some(score) = score else {
                return out_of_time(done, self.improved.take().map(|m| (m, d)));
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
                report(self.w, &iteration_of(&out, self.w));
            }
            done = Some(out);
            d += 1;
            if let Some((deadline, _)) = plan.early_end.filter(|&(_, f)| self.w.main && d > f) {
                let left = deadline.saturating_duration_since(Instant::now());
                if predicted_solve(empties, d - 1, started.elapsed()) <= left.as_secs_f64() {
                    break;
                }
            }
        }
        self.w.follows = false;
        if !plan.want_end {
            return done;
        }
        if self.w.main {
            self.w.shared.solving.store(true, Ordering::Relaxed);
        }
        // Solves are exact (100%) whatever the midgame selectivity.
        self.w.selectivity = Selectivity::EXACT;
        // The estimate of the last depth with the parity of the game's end.
        let same = if (d - 1) % 2 == empties % 2 {
            prev
        } else {
            prev2.or(prev)
        };
        if self
            .solve_root(&mut moves, mode, multipv, empties, same)
            .is_none()
        {
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
        report(self.w, &iteration_of(&out, self.w));
        Some(out)
    }

    /// The exact (or WLD) solve of the root moves; `guess` is the midgame estimate of the
    /// parity of the game's end. `None` when time ran out.
    fn solve_root(
        &mut self,
        moves: &mut [RootMove],
        mode: Mode,
        multipv: usize,
        empties: u32,
        guess: Option<i32>,
    ) -> Option<i32> {
        match guess {
            // A midgame estimate centres a narrow window: most of the tree is then searched
            // with windows that cut far more than the full -64..64 one.
            Some(guess) if multipv == 1 && mode != Mode::Wld => {
                self.solve_by_levels(moves, guess, empties)
            }
            _ if mode == Mode::Wld => self.root(moves, Horizon::End, -1, 1, multipv),
            _ => self.root(moves, Horizon::End, -64, 64, multipv),
        }
    }

    /// Value of a root child (the opponent to move) as seen from the root.
    fn child_value(&mut self, m: &RootMove, depth: Horizon, alpha: i32, beta: i32) -> i32 {
        match depth {
            Horizon::Plies(d) => -self.w.pvs(m.child, d - 1, -beta, -alpha),
            Horizon::End => -self.w.solve(m.child, -beta, -alpha),
        }
    }

    /// Searches every root move inside (`alpha`, `beta`) keeping the `multipv` best exact
    /// (at least one: the request's count, checked, within the moves there are); sorts
    /// `moves` best first. Returns the best score, or `None` if stopped.
    pub fn root(
        &mut self,
        moves: &mut [RootMove],
        depth: Horizon,
        alpha: i32,
        beta: i32,
        multipv: usize,
    ) -> Option<i32> {
        let mut exact_scores: Vec<i32> = Vec::with_capacity(moves.len());
        for m in moves.iter_mut() {
            m.exact = false;
            m.score = -INF;
        }
        self.improved = None;
        for (i, mv) in moves.iter_mut().enumerate() {
            let lo = if exact_scores.len() >= multipv {
                alpha.max(exact_scores[multipv - 1])
            } else {
                alpha
            };
            if lo >= beta {
                break;
            }
            let m = *mv;
            let s = if i < multipv {
                self.child_value(&m, depth, lo, beta)
            } else {
                let s = self.child_value(&m, depth, lo, lo + 1);
                if s > lo && s < beta && !self.w.aborted {
                    self.child_value(&m, depth, lo, beta)
                } else {
                    s
                }
            };
            if self.w.aborted {
                return None;
            }
            mv.score = s;
            mv.exact = s > lo && s < beta;
            if s > lo {
                if mv.exact {
                    let pos = exact_scores.partition_point(|&x| x >= s);
                    exact_scores.insert(pos, s);
                }
                if i > 0 && multipv == 1 {
                    self.improved = Some(*mv);
                }
            }
            if s >= beta && multipv == 1 {
                break;
            }
        }
        // Best first; among equal scores exact ones first, then the previous order.
        moves.sort_by(|a, b| b.score.cmp(&a.score).then(b.exact.cmp(&a.exact)));
        Some(moves[0].score)
    }

    /// Root search with a window around an earlier score, widened on failure. The caller passes
    /// the score of two iterations back: with the pattern evaluation, odd and even depths differ
    /// by a disc or more, so a window of 0.5 disc around the previous depth failed so often
    /// that the search cost 18% more nodes than none at all (12 midgame positions, depths 10-12);
    /// 2 discs around the same parity's score cost no more than no window.
    fn aspiration(&mut self, moves: &mut [RootMove], depth: Horizon, guess: i32) -> Option<i32> {
        let mut delta = 2 * SCALE;
        let (mut lo, mut hi) = (guess - delta, guess + delta);
        loop {
            let s = self.root(moves, depth, lo, hi, 1)?;
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

    /// Root solve by increasing selectivity (Edax's iterative endgame) from
    /// [`END_LEVELS_MIN_EMPTIES`] on: each level's search seeds the table and the window of
    /// the next; the last level is exact. The exact score (discs), or `None` when stopped.
    pub(crate) fn solve_by_levels(
        &mut self,
        moves: &mut [RootMove],
        guess: i32,
        empties: u32,
    ) -> Option<i32> {
        let first = (empties >= END_LEVELS_MIN_EMPTIES).then_some(Selectivity::LOWEST);
        self.solve_from_level(moves, guess, first)
    }

    /// [`RootSearch::solve_by_levels`] from level `first` (`None`: straight to exact).
    pub(crate) fn solve_from_level(
        &mut self,
        moves: &mut [RootMove],
        mut guess: i32,
        first: Option<Selectivity>,
    ) -> Option<i32> {
        if let Some(first) = first {
            for level in Selectivity::all().filter(|l| !l.is_exact() && *l >= first) {
                self.w.selectivity = level;
                let s = self.end_aspiration(moves, guess);
                self.w.selectivity = Selectivity::EXACT;
                guess = s? * SCALE;
            }
        }
        self.w.selectivity = Selectivity::EXACT;
        self.end_aspiration(moves, guess)
    }

    /// Exact root search in a window around a midgame estimate (`guess`, SCALE units), moved
    /// and widened after each failure using the fail-soft bound it returned.
    fn end_aspiration(&mut self, moves: &mut [RootMove], guess: i32) -> Option<i32> {
        // Final scores are even, so (g-3, g+3) holds g-2, g and g+2.
        let g = (2 * (guess as f64 / f64::from(2 * SCALE)).round() as i32).clamp(-64, 64);
        let (mut lo, mut hi) = ((g - 7).max(-65), (g + 7).min(65));
        let mut delta = 4;
        loop {
            let s = self.root(moves, Horizon::End, lo, hi, 1)?;
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
/// and 0.8 (17-23) of the rule used from 24 empties on (half the distance to 12 short of the
/// end), which stays there because the deeper one cost 20-50% more on FFO #38, #45 and #46. Under a time limit (`anytime`) they go on, at
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
/// prediction, at most 1.0.
fn predicted_solve(empties: u32, depth: u32, last: std::time::Duration) -> f64 {
    let short = f64::from(empties.saturating_sub(depth)) - 8.0;
    let more = f64::from(empties) - 20.0;
    last.as_secs_f64() * 30.0 * 2.14f64.powf(short) * 0.8f64.powf(more)
}

/// The report for a finished iteration (lines without their PV; the engine adds those).
fn iteration_of<E>(out: &Outcome, worker: &Worker<'_, E>) -> Iteration {
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
        nodes: worker.nodes_so_far(),
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
            child: Board::START,
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
}
