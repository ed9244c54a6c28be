//! Engine: evaluation, depth-limited and exact search over a shared transposition table,
//! behind one entry point, [`Engine::analyze`].
//!
//! ```no_run
//! use othbook::board::Board;
//! use othbook::engine::{Engine, EngineOptions, Limits};
//! let engine = Engine::new(EngineOptions::default());
//! let a = engine.analyze(&Board::START, &Limits::depth(8)).unwrap();
//! println!("{} {:+.2}", a.best_move, a.score_discs());
//! ```

mod any_eval;
mod endgame;
pub mod eval;
mod search;
pub mod stability;
pub mod tt;

pub use any_eval::{AnyEval, EvalKind};
pub use eval::pattern;
pub use eval::{EvalFileError, PatternEval};
pub use eval::{Evaluator, HandEval, Weights};
pub use tt::TranspositionTable;

use crate::board::{Bitboard, Board, Move};
use search::{iterate, pv_from_tt, Busy, Outcome, RootMove, Shared, Worker};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Score units per disc in midgame scores (exact results are whole discs times `SCALE`).
pub const SCALE: i32 = 100;
/// Larger than any score.
pub(crate) const INF: i32 = 30_000;
/// Deepest search accepted (plies).
pub const MAX_DEPTH: u32 = 60;

/// Search algorithm below the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Algorithm {
    /// Every node, no pruning (for teaching and checking).
    Minimax,
    /// Alpha-beta in plain square order, no table.
    AlphaBeta,
    /// Principal-variation search with table, ordering and aspiration windows.
    #[default]
    Pvs,
}

impl FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "minimax" => Ok(Algorithm::Minimax),
            "alphabeta" | "alpha-beta" | "ab" => Ok(Algorithm::AlphaBeta),
            "pvs" => Ok(Algorithm::Pvs),
            _ => Err(format!(
                "unknown algorithm {s:?}: use minimax, alphabeta or pvs"
            )),
        }
    }
}

/// The most search threads an engine runs: a few per core. More only share the same cores,
/// and each must be scheduled before it notices that the time is up, so time limits would
/// stretch with the count.
#[must_use]
pub fn max_threads() -> usize {
    4 * std::thread::available_parallelism().map_or(1, usize::from)
}

/// How an engine is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads (Lazy SMP over the shared table), 1 to [`max_threads`]; other counts
    /// are brought into that range.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Algorithm below the root.
    pub algorithm: Algorithm,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: 1,
            hash_mb: 64,
            algorithm: Algorithm::Pvs,
        }
    }
}

/// What the search should compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// Iterative deepening with the evaluation; an exact solve when the depth limit reaches
    /// the end of the game. The midgame iterations then stop short of the end (under a time
    /// limit once the solve is predicted to fit in the time left, at the latest 8 plies short),
    /// because the solve costs no more than the last few midgame iterations would.
    #[default]
    Auto,
    /// Exact final disc difference under perfect play.
    Exact,
    /// Only win, draw or loss under perfect play.
    Wld,
}

/// When to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration in plies (Auto mode); `None` = until solved or out of time.
    pub depth: Option<u32>,
    /// Wall-clock budget; the deepest finished iteration is returned when it runs out.
    pub time: Option<Duration>,
    /// What to compute.
    pub mode: Mode,
    /// Number of best moves to score exactly (1 = just the best).
    pub multipv: usize,
    /// Only these root moves are searched (`None`: all). A book's leaf search uses it for
    /// the moves that leave the book. Ignored when the side to move must pass.
    pub root_moves: Option<Bitboard>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: None,
            time: None,
            mode: Mode::Auto,
            multipv: 1,
            root_moves: None,
        }
    }
}

impl Limits {
    /// Iterative deepening to `d` plies.
    #[must_use]
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }
    /// Iterative deepening until `t` has passed (or the position is solved).
    #[must_use]
    pub fn time(t: Duration) -> Limits {
        Limits {
            time: Some(t),
            ..Limits::default()
        }
    }
    /// Exact solve.
    #[must_use]
    pub fn exact() -> Limits {
        Limits {
            mode: Mode::Exact,
            ..Limits::default()
        }
    }
    /// Win/draw/loss solve.
    #[must_use]
    pub fn wld() -> Limits {
        Limits {
            mode: Mode::Wld,
            ..Limits::default()
        }
    }
    /// The same limits searching only `moves` at the root.
    #[must_use]
    pub fn only(self, moves: Bitboard) -> Limits {
        Limits {
            root_moves: Some(moves),
            ..self
        }
    }

    /// The same limits with `k` lines.
    #[must_use]
    pub fn multipv(self, k: usize) -> Limits {
        Limits { multipv: k, ..self }
    }
}

/// What a score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreKind {
    /// Evaluation after a depth-limited search.
    Midgame,
    /// Exact final disc difference (times [`SCALE`]).
    Exact,
    /// Win/draw/loss only: the sign is right, the size is not meaningful.
    Wld,
}

impl ScoreKind {
    /// Whether `score` (of this kind, [`SCALE`] units) is a final disc difference, to be shown
    /// in whole discs: every exact-solve score, and in a midgame search ±64 discs, which only
    /// a wipe-out found by the search gives (evaluations stop at ±63.99).
    #[must_use]
    pub fn is_final(self, score: i32) -> bool {
        match self {
            ScoreKind::Exact => true,
            ScoreKind::Midgame | ScoreKind::Wld => score.abs() >= 64 * SCALE,
        }
    }
}

impl From<crate::book::ValueKind> for ScoreKind {
    /// A book value's kind as the engine's: the book stores the engine's scores.
    fn from(k: crate::book::ValueKind) -> ScoreKind {
        match k {
            crate::book::ValueKind::Midgame => ScoreKind::Midgame,
            crate::book::ValueKind::Exact => ScoreKind::Exact,
            crate::book::ValueKind::Wld => ScoreKind::Wld,
        }
    }
}

/// A score in discs for people: `+1.25`, or `+64` when it is a final disc difference
/// ([`ScoreKind::is_final`]).
#[must_use]
pub fn score_text(score: i32, kind: ScoreKind) -> String {
    if kind.is_final(score) {
        format!("{:+}", score / SCALE)
    } else {
        format!("{:+.2}", f64::from(score) / f64::from(SCALE))
    }
}

/// [`score_text`] without the plus sign, for machine-read columns and protocols: `1.25`,
/// `-3.50`, `64`.
#[must_use]
pub fn score_number(score: i32, kind: ScoreKind) -> String {
    let t = score_text(score, kind);
    t.strip_prefix('+').map_or(t.clone(), str::to_string)
}

/// One scored move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The move.
    pub mv: Move,
    /// Its score for the side to move, in [`SCALE`] units per disc.
    pub score: i32,
    /// False when `score` is only a bound (the move is worse than the lines kept).
    pub exact: bool,
    /// Principal variation starting with `mv` (may be shorter than the depth).
    pub pv: Vec<Move>,
}

/// A finished iteration, as reported while searching.
#[derive(Clone, Debug)]
pub struct Iteration {
    /// Depth in plies (empties for an exact or WLD solve).
    pub depth: u32,
    /// What the scores mean.
    pub kind: ScoreKind,
    /// Root moves best first (PVs filled for the first `multipv`).
    pub lines: Vec<Line>,
    /// Nodes so far, all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// The result of [`Engine::analyze`].
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Best move (a pass when the side to move has none).
    pub best_move: Move,
    /// Score for the side to move in [`SCALE`] units per disc.
    pub score: i32,
    /// What the score means.
    pub kind: ScoreKind,
    /// Depth of the score: the deepest finished iteration (empties for a solve), or, when the
    /// time ran out, the unfinished one if it had already proved `best_move` better.
    pub depth: u32,
    /// Principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
    /// The `multipv` best moves, best first, each with its PV.
    pub lines: Vec<Line>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// True when the side to move had no legal move and the analysis is of its pass.
    pub passed: bool,
    /// False when the time ran out before the requested depth or solve finished.
    pub complete: bool,
}

impl Analysis {
    /// The score in discs.
    #[must_use]
    pub fn score_discs(&self) -> f64 {
        f64::from(self.score) / f64::from(SCALE)
    }

    /// Nodes per second over the whole search.
    #[must_use]
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Why a position cannot be analysed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// Neither side can move.
    #[error("the game is over: neither side can move")]
    GameOver,
    /// Depth, time or line count out of range.
    #[error("{0}")]
    BadLimits(String),
    /// The transposition table's memory cannot be had.
    #[error("cannot allocate a {mb} MiB transposition table (--hash): {reason}")]
    NoMemory {
        /// The size asked for.
        mb: usize,
        /// What the system said.
        reason: String,
    },
}

/// A search engine: evaluation, options and its transposition table (kept between calls).
pub struct Engine<E: Evaluator = PatternEval> {
    options: EngineOptions,
    tt: TranspositionTable,
    busy: Busy,
    eval: E,
}

impl Engine<PatternEval> {
    /// An engine with the trained pattern evaluation and its default weights.
    ///
    /// # Panics
    /// When the table's memory cannot be had ([`Engine::try_new`] reports it instead).
    #[must_use]
    pub fn new(options: EngineOptions) -> Engine<PatternEval> {
        Engine::with_evaluator(options, PatternEval::default())
    }

    /// [`Engine::new`], or an error when the table's memory cannot be had.
    pub fn try_new(options: EngineOptions) -> Result<Engine<PatternEval>, EngineError> {
        Engine::try_with_evaluator(options, PatternEval::default())
    }
}

impl<E: Evaluator> Engine<E> {
    /// An engine with another evaluation.
    ///
    /// # Panics
    /// When the table's memory cannot be had ([`Engine::try_with_evaluator`] reports it).
    #[must_use]
    pub fn with_evaluator(options: EngineOptions, eval: E) -> Engine<E> {
        Self::try_with_evaluator(options, eval).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Engine::with_evaluator`], or an error when the table's memory cannot be had (a
    /// `hash_mb` beyond what the machine gives).
    pub fn try_with_evaluator(options: EngineOptions, eval: E) -> Result<Engine<E>, EngineError> {
        let tt =
            TranspositionTable::try_new(options.hash_mb).map_err(|e| EngineError::NoMemory {
                mb: options.hash_mb,
                reason: e.to_string(),
            })?;
        Ok(Engine {
            options: EngineOptions {
                threads: options.threads.clamp(1, max_threads()),
                ..options
            },
            tt,
            busy: Busy::new(),
            eval,
        })
    }

    /// The options the engine was built with.
    #[must_use]
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// The evaluation.
    #[must_use]
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// The shared transposition table.
    #[must_use]
    pub fn table(&self) -> &TranspositionTable {
        &self.tt
    }

    /// Forgets everything learnt by earlier searches.
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Best move, score, depth, PV and nodes for the side to move of `board`.
    pub fn analyze(&self, board: &Board, limits: &Limits) -> Result<Analysis, EngineError> {
        self.analyze_with(board, limits, |_| {})
    }

    /// Like [`Engine::analyze`], calling `on_iteration` after each finished iteration.
    pub fn analyze_with(
        &self,
        board: &Board,
        limits: &Limits,
        on_iteration: impl FnMut(&Iteration),
    ) -> Result<Analysis, EngineError> {
        self.run(board, limits, None, None, on_iteration)
    }

    /// Like [`Engine::analyze_with`], and stopped by another thread setting `stop`: the search
    /// then ends as if its time had run out, at its next look at the clock, with the
    /// deepest finished iteration. The flag is only read; clear it before the next search.
    pub fn analyze_stoppable(
        &self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        on_iteration: impl FnMut(&Iteration),
    ) -> Result<Analysis, EngineError> {
        self.run(board, limits, Some(stop), None, on_iteration)
    }

    /// Like [`Engine::analyze_with`], with the search's node count kept up to date in
    /// `nodes` while it runs (each thread adds its nodes every few thousand), for progress
    /// reports from another thread. `nodes` is set to zero first.
    pub fn analyze_watched(
        &self,
        board: &Board,
        limits: &Limits,
        nodes: &AtomicU64,
        on_iteration: impl FnMut(&Iteration),
    ) -> Result<Analysis, EngineError> {
        nodes.store(0, Ordering::Relaxed);
        self.run(board, limits, None, Some(nodes), on_iteration)
    }

    fn run(
        &self,
        board: &Board,
        limits: &Limits,
        cancel: Option<&AtomicBool>,
        watched: Option<&AtomicU64>,
        mut on_iteration: impl FnMut(&Iteration),
    ) -> Result<Analysis, EngineError> {
        check_limits(limits)?;
        let own_count = AtomicU64::new(0);
        if board.is_game_over() {
            return Err(EngineError::GameOver);
        }
        let start = Instant::now();
        let passed = !board.has_moves();
        let root = if passed { board.pass() } else { *board };
        self.tt.new_search();
        let allowed = match limits.root_moves {
            Some(m) if !passed => root.legal_moves() & m,
            _ => root.legal_moves(),
        };
        if allowed.is_empty() && !passed {
            return Err(EngineError::BadLimits(
                "none of the root moves asked for is legal".into(),
            ));
        }
        let moves: Vec<RootMove> = allowed
            .iter()
            .map(|sq| {
                let child = root.play(sq).expect("legal move");
                RootMove {
                    sq,
                    p: child.player().0,
                    o: child.opponent().0,
                    score: 0,
                    exact: false,
                }
            })
            .collect();
        let shared = Shared {
            eval: &self.eval,
            tt: &self.tt,
            busy: &self.busy,
            parallel: self.options.threads > 1,
            stop: AtomicBool::new(false),
            cancel,
            solving: AtomicBool::new(false),
            deadline: limits.time.map(|t| start + t),
            nodes: watched.unwrap_or(&own_count),
            start,
        };
        let multipv = limits.multipv.min(moves.len());
        let first: Mutex<Option<Outcome>> = Mutex::new(None);
        let mut main_outcome = None;
        // The main thread's last finished iteration, with its PVs as reported.
        let mut reported: Option<Iteration> = None;
        std::thread::scope(|scope| {
            for t in 1..self.options.threads {
                let (shared, first, moves) = (&shared, &first, moves.clone());
                let algo = self.options.algorithm;
                scope.spawn(move || {
                    let mut w = Worker::new(shared, false, algo);
                    let out = iterate(
                        &mut w,
                        root,
                        moves,
                        limits.mode,
                        limits.depth,
                        multipv,
                        t,
                        |_, _, _| {},
                    );
                    w.publish();
                    finish(shared, first, out);
                });
            }
            let mut w = Worker::new(&shared, true, self.options.algorithm);
            let out = iterate(
                &mut w,
                root,
                moves.clone(),
                limits.mode,
                limits.depth,
                multipv,
                0,
                |_, it, _| {
                    let mut it = it.clone();
                    fill_pvs(&self.tt, root, &mut it.lines, multipv, it.depth, it.kind);
                    reported = Some(it.clone());
                    if passed {
                        flip_for_pass(&mut it.lines);
                    }
                    on_iteration(&it);
                },
            );
            w.publish();
            main_outcome = out.clone();
            finish(&shared, &first, out);
        });
        let outcome = first
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .or(main_outcome);
        let nodes = shared.nodes.load(Ordering::Relaxed);
        let (mut lines, depth, kind, complete) = match outcome {
            Some(o) => {
                let lines: Vec<Line> = o
                    .moves
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
                    .collect();
                (lines, o.depth, o.kind, o.complete)
            }
            None => {
                // Stopped before the first iteration finished: fall back on the evaluation.
                let mut lines: Vec<Line> = moves
                    .iter()
                    .map(|m| Line {
                        mv: Move::Play(m.sq),
                        score: -self.eval.eval(m.p, m.o),
                        exact: false,
                        pv: Vec::new(),
                    })
                    .collect();
                lines.sort_by_key(|l| -l.score);
                (lines, 0, ScoreKind::Midgame, false)
            }
        };
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
        fill_pvs(&self.tt, root, &mut lines, multipv, depth, kind);
        if kind == ScoreKind::Exact && complete {
            for l in lines.iter_mut().take(multipv).filter(|l| l.exact) {
                complete_exact_pv(self, root, l);
            }
        }
        lines.truncate(multipv.max(1));
        if passed {
            flip_for_pass(&mut lines);
        }
        let best = &lines[0];
        Ok(Analysis {
            best_move: best.mv,
            score: best.score,
            kind,
            depth,
            pv: best.pv.clone(),
            lines: lines.clone(),
            nodes,
            elapsed: start.elapsed(),
            passed,
            complete,
        })
    }
}

fn check_limits(limits: &Limits) -> Result<(), EngineError> {
    if let Some(d) = limits.depth {
        if !(1..=MAX_DEPTH).contains(&d) {
            return Err(EngineError::BadLimits(format!(
                "depth {d} is out of range: use 1 to {MAX_DEPTH}"
            )));
        }
    }
    if let Some(t) = limits.time {
        if t.is_zero() || t > Duration::from_secs(7 * 86_400) {
            return Err(EngineError::BadLimits(format!(
                "time {:.3} s is out of range: use more than 0 and at most a week",
                t.as_secs_f64()
            )));
        }
    }
    if limits.multipv == 0 || limits.multipv > 64 {
        return Err(EngineError::BadLimits(format!(
            "multipv {} is out of range: use 1 to 64",
            limits.multipv
        )));
    }
    Ok(())
}

/// Records the outcome of a thread that completed its whole task (first one wins) and stops
/// the others.
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
    for l in lines.iter_mut().take(k.max(1)).filter(|l| l.pv.is_empty()) {
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
fn complete_exact_pv<E: Evaluator>(engine: &Engine<E>, root: Board, line: &mut Line) {
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
    let shared = Shared {
        eval: &engine.eval,
        tt: &engine.tt,
        busy: &engine.busy,
        parallel: false,
        stop: AtomicBool::new(false),
        cancel: None,
        solving: AtomicBool::new(false),
        deadline: None,
        nodes: &nodes,
        start: Instant::now(),
    };
    let mut w = Worker::new(&shared, true, Algorithm::Pvs);
    while !b.is_game_over() {
        if !b.has_moves() {
            b = b.pass();
            score = -score;
            pv.push(Move::Pass);
            continue;
        }
        let next = b.legal_moves().iter().find_map(|sq| {
            let c = b.play(sq).expect("legal");
            let v = -w.solve(c.player().0, c.opponent().0, -score - 1, -score + 1);
            (v == score).then_some((sq, c))
        });
        let Some((sq, c)) = next else { break };
        pv.push(Move::Play(sq));
        b = c;
        score = -score;
    }
    line.pv = pv;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: `--threads 1000` ran a thousand threads on two cores, and `--time 1` took
    /// 17 s while each was scheduled in turn to see the deadline.
    #[test]
    fn regression_threads_1000_stretched_the_time_limit() {
        let engine = Engine::new(EngineOptions {
            threads: 1000,
            hash_mb: 1,
            ..EngineOptions::default()
        });
        assert!(engine.options().threads <= max_threads());
    }
}
