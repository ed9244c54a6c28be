//! One search, once its evaluation is known: the threads over the shared table, then the
//! answer assembled from the thread that finished first (lines, PVs, a pass put back).
//! [`SearchEval::with_concrete`](super::SearchEval::with_concrete) calls it with the
//! concrete evaluation, so everything here is compiled for it.

use super::search::{
    pv_from_tt, Busy, Control, Outcome, RootMove, RootSearch, Shared, Task, Worker,
};
use super::TranspositionTable;
use super::{
    Analysis, Depth, EvalCore, Evaluator, Iteration, Line, ScoreKind, SearchRequest, SCALE,
};
use crate::board::{Board, Move};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// A search to run: the request, the engine's table and threads, and where it reports.
pub(crate) struct Search<'a, F> {
    pub request: &'a SearchRequest,
    pub tt: &'a TranspositionTable,
    pub busy: &'a Busy,
    pub threads: usize,
    pub cancel: Option<&'a AtomicBool>,
    /// The node counter the caller watches, if any.
    pub watched: Option<&'a AtomicU64>,
    pub on_iteration: F,
}

/// What the threads found: the outcome of the first to finish its whole task (else the main
/// thread's), and the main thread's last reported iteration.
struct Found {
    outcome: Option<Outcome>,
    reported: Option<Iteration>,
}

impl<F: FnMut(&Iteration)> EvalCore for Search<'_, F> {
    type Out = Analysis;

    fn run<E: Evaluator>(mut self, eval: &E) -> Analysis {
        let start = Instant::now();
        let own_count = AtomicU64::new(0);
        let control = Control {
            parallel: self.threads > 1,
            cancel: self.cancel,
            deadline: self.request.limits().time.map(|t| start + t),
            nodes: self.watched.unwrap_or(&own_count),
            start,
        };
        let shared = Shared::new(eval, self.tt, self.busy, control);
        let moves = root_moves(self.request.root(), self.request);
        let found = self.search_threads(&shared, &moves);
        let (lines, depth, kind, complete) = match found.outcome {
            Some(o) => (lines_of(&o), o.depth, o.kind, o.complete),
            // Stopped before the first iteration finished: fall back on the evaluation.
            None => (evaluated_lines(eval, &moves), 0, ScoreKind::Midgame, false),
        };
        let lines = self.finish_lines(eval, lines, found.reported, depth, kind, complete);
        let best = &lines[0];
        Analysis {
            best_move: best.mv,
            score: best.score,
            kind,
            depth,
            pv: best.pv.clone(),
            lines: lines.clone(),
            nodes: shared.nodes.load(Ordering::Relaxed),
            elapsed: start.elapsed(),
            passed: self.request.passed(),
            complete,
        }
    }
}

impl<F: FnMut(&Iteration)> Search<'_, F> {
    fn multipv(&self, moves: &[RootMove]) -> usize {
        self.request.limits().multipv.min(moves.len())
    }

    /// The task of thread `thread` over `moves`.
    fn task(&self, moves: Vec<RootMove>, thread: usize) -> Task {
        let limits = self.request.limits();
        Task {
            board: self.request.root(),
            multipv: self.multipv(&moves),
            moves,
            mode: limits.mode,
            max_depth: limits.depth.map(Depth::plies),
            thread,
            selectivity: limits.selectivity,
        }
    }

    /// Runs the helpers and the main thread (this one, which reports its iterations) until
    /// the first finishes.
    fn search_threads<E: Evaluator>(
        &mut self,
        shared: &Shared<'_, E>,
        moves: &[RootMove],
    ) -> Found {
        let first: Mutex<Option<Outcome>> = Mutex::new(None);
        let (root, passed) = (self.request.root(), self.request.passed());
        let multipv = self.multipv(moves);
        let mut reported: Option<Iteration> = None;
        let mut main_outcome = None;
        std::thread::scope(|scope| {
            for t in 1..self.threads {
                let (first, task) = (&first, self.task(moves.to_vec(), t));
                scope.spawn(move || {
                    let mut w = Worker::new(shared, false);
                    let out = RootSearch::new(&mut w).iterate(task, |_, _| {});
                    w.publish();
                    finish(shared, first, out);
                });
            }
            let mut w = Worker::new(shared, true);
            let task = self.task(moves.to_vec(), 0);
            let (tt, on_iteration) = (self.tt, &mut self.on_iteration);
            let out = RootSearch::new(&mut w).iterate(task, |_, it| {
                let mut it = it.clone();
                fill_pvs(tt, root, &mut it.lines, multipv, it.depth, it.kind);
                reported = Some(it.clone());
                if passed {
                    flip_for_pass(&mut it.lines);
                }
                on_iteration(&it);
            });
            w.publish();
            main_outcome = out.clone();
            finish(shared, &first, out);
        });
        let outcome = first
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .or(main_outcome);
        Found { outcome, reported }
    }

    /// The lines with their PVs, the best `multipv` kept, scores put back for a pass.
    fn finish_lines<E: Evaluator>(
        &self,
        eval: &E,
        mut lines: Vec<Line>,
        reported: Option<Iteration>,
        depth: u32,
        kind: ScoreKind,
        complete: bool,
    ) -> Vec<Line> {
        let root = self.request.root();
        let multipv = self.request.limits().multipv.min(lines.len());
        if !complete {
            // The unfinished iteration has already rewritten the table along its own lines:
            // the PVs of the finished iteration that this result reports are those it printed.
            let same = reported.filter(|it| it.depth == depth && it.kind == kind);
            for l in lines.iter_mut() {
                if let Some(seen) = same.iter().flat_map(|it| &it.lines).find(|s| s.mv == l.mv) {
                    l.pv.clone_from(&seen.pv);
                }
            }
        }
        fill_pvs(self.tt, root, &mut lines, multipv, depth, kind);
        if kind == ScoreKind::Exact && complete {
            for l in lines.iter_mut().take(multipv).filter(|l| l.exact) {
                complete_exact_pv(eval, self.tt, self.busy, root, l);
            }
        }
        lines.truncate(multipv);
        if self.request.passed() {
            flip_for_pass(&mut lines);
        }
        lines
    }
}

/// The request's root moves with the positions they lead to.
fn root_moves(root: Board, request: &SearchRequest) -> Vec<RootMove> {
    request
        .moves()
        .iter()
        .map(|sq| RootMove {
            sq,
            child: root.play(sq).expect("legal move"),
            score: 0,
            exact: false,
        })
        .collect()
}

/// An outcome's root moves as lines (scores in [`SCALE`] units), without PVs.
fn lines_of(o: &Outcome) -> Vec<Line> {
    o.moves
        .iter()
        .map(|m| Line {
            mv: Move::Play(m.sq),
            score: if o.kind == ScoreKind::Midgame {
                m.score
            } else {
                m.score * SCALE
            },
            exact: m.exact,
            pv: Vec::new(),
        })
        .collect()
}

/// The root moves scored by the evaluation alone, best first.
fn evaluated_lines<E: Evaluator>(eval: &E, moves: &[RootMove]) -> Vec<Line> {
    let mut lines: Vec<Line> = moves
        .iter()
        .map(|m| Line {
            mv: Move::Play(m.sq),
            score: -eval.eval(m.child.player().0, m.child.opponent().0),
            exact: false,
            pv: Vec::new(),
        })
        .collect();
    lines.sort_by_key(|l| -l.score);
    lines
}

fn finish<E>(shared: &Shared<'_, E>, first: &Mutex<Option<Outcome>>, out: Option<Outcome>) {
    if let Some(o) = out.filter(|o| o.complete) {
        let mut slot = first.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(o);
        }
    }
    shared.stop.store(true, Ordering::Relaxed);
}

/// PVs from the table for the first `k` lines that have none yet.
fn fill_pvs(
    tt: &TranspositionTable,
    root: Board,
    lines: &mut [Line],
    k: usize,
    depth: u32,
    kind: ScoreKind,
) {
    let max = match kind {
        ScoreKind::Midgame => depth.saturating_sub(1) as usize,
        _ => 60,
    };
    for l in lines.iter_mut().take(k).filter(|l| l.pv.is_empty()) {
        let Move::Play(sq) = l.mv else { continue };
        let child = root.play(sq).expect("root move is legal");
        l.pv = vec![l.mv];
        l.pv.extend(pv_from_tt(tt, child, max));
    }
}

/// When the analysed side had to pass: the scores are the opponent's, so negate them, and
/// every line starts with the pass.
fn flip_for_pass(lines: &mut [Line]) {
    for l in lines.iter_mut() {
        l.score = -l.score;
        l.pv.insert(0, Move::Pass);
    }
    if let Some(l) = lines.first_mut() {
        l.mv = Move::Pass;
    }
    // Only the best reply matters after a forced pass.
}

/// Extends an exact line's PV to the end of the game where the table ran out, by finding at
/// each step a move whose exact value equals the known score.
fn complete_exact_pv<E: Evaluator>(
    eval: &E,
    tt: &TranspositionTable,
    busy: &Busy,
    root: Board,
    line: &mut Line,
) {
    // The line's own move first, whatever the empties: another root move may have the same
    // score, and its continuation is not this line's.
    let Ok(mut b) = root.play_move(line.mv) else {
        return;
    };
    let mut score = -line.score / SCALE;
    let mut pv = vec![line.mv];
    // Trust the table down to 14 empties; below, every step is re-proved by the solver.
    for &mv in line.pv.iter().skip(1) {
        if b.empty_count() <= 14 {
            break;
        }
        match b.play_move(mv) {
            Ok(next) => {
                b = next;
                score = -score;
                pv.push(mv);
            }
            Err(_) => break,
        }
    }
    if b.empty_count() > 14 {
        line.pv = pv;
        return;
    }
    let nodes = AtomicU64::new(0);
    let shared = Shared::new(eval, tt, busy, Control::single(&nodes));
    let mut w = Worker::new(&shared, true);
    while !b.is_game_over() {
        if !b.has_moves() {
            b = b.pass();
            score = -score;
            pv.push(Move::Pass);
            continue;
        }
        let next = b.legal_moves().iter().find_map(|sq| {
            let c = b.play(sq).expect("legal");
            let v = -w.solve(c, -score - 1, -score + 1);
            (v == score).then_some((sq, c))
        });
        let Some((sq, c)) = next else { break };
        pv.push(Move::Play(sq));
        b = c;
        score = -score;
    }
    line.pv = pv;
}
