//! `othbook.Engine`: the search engine (pattern evaluation, transposition table kept between
//! searches). Searches run without the GIL, in a thread of their own, while the caller's
//! thread watches for Ctrl-C and stops the search when it comes.

use crate::board::position_of;
use crate::errors;
use othbook::board::Position;
use othbook::engine::{
    Analysis, Depth, EngineOptions, HashSize, Limits, Mode, RequestError, ScoreKind, Selectivity,
    ThreadCount, SCALE,
};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Most empties `solve` takes without `force=True` (the command line's limit): each empty
/// square multiplies the work by two to three.
const SOLVE_REFUSE_ABOVE: u32 = 36;

/// How often the waiting thread looks for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// A search engine. One search runs at a time per engine (a second thread calling it waits);
/// use one engine per thread for searches in parallel.
#[pyclass(module = "othbook", frozen)]
pub struct Engine {
    engine: Mutex<othbook::engine::Engine>,
}

/// One scored move of an analysis.
#[pyclass(module = "othbook", frozen, get_all)]
pub struct Line {
    /// The move: `"f5"`, or `"pass"`.
    pub r#move: String,
    /// Its score in discs for the side to move.
    pub score: f64,
    /// False when the score is only an upper bound (the move is worse than the lines kept).
    pub exact: bool,
    /// The principal variation, starting with the move.
    pub pv: Vec<String>,
}

/// The result of `Engine.analyze` or `Engine.solve`.
#[pyclass(module = "othbook", name = "Analysis", frozen, get_all)]
pub struct PyAnalysis {
    /// The best move (`"pass"` when the side to move has none).
    pub best_move: String,
    /// Its score in discs for the side to move (whole discs when exact; for `"wld"` only
    /// the sign means anything).
    pub score: f64,
    /// `"midgame"` (a search with the evaluation), `"exact"` or `"wld"`.
    pub kind: &'static str,
    /// Depth of the score in plies (empties for a solve).
    pub depth: u32,
    /// The principal variation.
    pub pv: Vec<String>,
    /// The best lines (`multipv` of them), best first.
    pub lines: Vec<Py<Line>>,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds the search took.
    pub time: f64,
    /// False when the time ran out (or Ctrl-C came) before the search finished.
    pub complete: bool,
    /// The side to move had no move: the analysis is of its pass.
    pub passed: bool,
}

fn kind_word(k: ScoreKind) -> &'static str {
    match k {
        ScoreKind::Midgame => "midgame",
        ScoreKind::Exact => "exact",
        ScoreKind::Wld => "wld",
    }
}

fn discs(score: i32) -> f64 {
    f64::from(score) / f64::from(SCALE)
}

fn texts(moves: &[othbook::board::Move]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

impl PyAnalysis {
    fn new(py: Python<'_>, a: &Analysis) -> PyResult<PyAnalysis> {
        Ok(PyAnalysis {
            best_move: a.best_move.to_string(),
            score: discs(a.score),
            kind: kind_word(a.kind),
            depth: a.depth,
            pv: texts(&a.pv),
            lines: a
                .lines
                .iter()
                .map(|l| {
                    Py::new(
                        py,
                        Line {
                            r#move: l.mv.to_string(),
                            score: discs(l.score),
                            exact: l.exact,
                            pv: texts(&l.pv),
                        },
                    )
                })
                .collect::<PyResult<_>>()?,
            nodes: a.nodes,
            time: a.elapsed.as_secs_f64(),
            complete: a.complete,
            passed: a.passed,
        })
    }
}

#[pymethods]
impl PyAnalysis {
    fn __repr__(&self) -> String {
        format!(
            "othbook.Analysis(best_move={:?}, score={}, kind={:?}, depth={}, pv={:?})",
            self.best_move, self.score, self.kind, self.depth, self.pv
        )
    }
}

#[pymethods]
impl Line {
    fn __repr__(&self) -> String {
        format!(
            "othbook.Line(move={:?}, score={}, exact={}, pv={:?})",
            self.r#move,
            self.score,
            crate::records::py_bool(self.exact),
            self.pv
        )
    }
}

/// A refused request in the words of the command line (without its `--`).
fn request_error(e: &RequestError, pos: &Position) -> PyErr {
    match e {
        RequestError::GameOver => errors::position(format!(
            "the game is over (black {} - white {}): nothing to analyse",
            pos.black().count(),
            pos.white().count()
        )),
        RequestError::NoRootMove { .. } => errors::position(e.to_string()),
        _ => errors::argument(e.to_string()),
    }
}

/// `selectivity`: a percentage (73, 87, 95, 98, 99, 100) or `"exact"`.
fn selectivity_of(s: Option<&Bound<'_, PyAny>>) -> PyResult<Selectivity> {
    let Some(s) = s else {
        return Ok(Selectivity::MIDGAME_DEFAULT);
    };
    let text = if s.is_instance_of::<PyInt>() || s.is_instance_of::<PyString>() {
        s.str()?.extract::<String>()?
    } else {
        return Err(errors::argument(format!(
            "selectivity {s}: use 73, 87, 95, 98, 99 or 100 (\"exact\")"
        )));
    };
    text.parse()
        .map_err(|e| errors::argument(format!("selectivity: {e}")))
}

fn threads_of(threads: usize) -> PyResult<ThreadCount> {
    ThreadCount::new(threads).map_err(|e| errors::argument(e.to_string()))
}

impl Engine {
    /// Runs the search on another thread without the GIL; this thread waits, and on Ctrl-C
    /// (a Python signal handler raising) stops the search and raises that exception.
    fn search(
        &self,
        py: Python<'_>,
        pos: &Position,
        limits: &Limits,
        threads: ThreadCount,
    ) -> PyResult<PyAnalysis> {
        let stop = AtomicBool::new(false);
        let mut signal: Option<PyErr> = None;
        let result = py.allow_threads(|| {
            let mut engine = self
                .engine
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            engine.set_threads(threads);
            let engine = &*engine;
            std::thread::scope(|s| {
                let (tx, rx) = std::sync::mpsc::channel();
                let stop = &stop;
                s.spawn(move || {
                    let _ = tx.send(engine.analyze_stoppable(&pos.board, limits, stop, |_| {}));
                });
                loop {
                    match rx.recv_timeout(SIGNAL_POLL) {
                        Ok(result) => return Some(result),
                        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                        // The search thread panicked: the scope raises its panic on return.
                        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return None,
                    }
                    if signal.is_none() {
                        if let Err(e) = Python::with_gil(|py| py.check_signals()) {
                            signal = Some(e);
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
            })
        });
        if let Some(e) = signal {
            return Err(e);
        }
        match result.expect("a search that ended without a result panicked") {
            Ok(a) => PyAnalysis::new(py, &a),
            Err(othbook::engine::EngineError::Request(e)) => Err(request_error(&e, pos)),
            Err(e) => Err(errors::EngineError::new_err(errors::message(&e))),
        }
    }
}

#[pymethods]
impl Engine {
    /// An engine with a transposition table of `hash_mb` MiB (kept between searches).
    #[new]
    #[pyo3(signature = (hash_mb=64))]
    fn new(hash_mb: usize) -> PyResult<Engine> {
        let hash_mb = HashSize::new(hash_mb).map_err(|e| errors::argument(e.to_string()))?;
        let engine = othbook::engine::Engine::try_new(EngineOptions {
            threads: ThreadCount::ONE,
            hash_mb,
        })
        .map_err(|e| errors::EngineError::new_err(errors::message(&e)))?;
        Ok(Engine {
            engine: Mutex::new(engine),
        })
    }

    /// Searches a position (a `Board` or a move line): iterative deepening to `depth` plies,
    /// or for `time` seconds (the deepest finished iteration), or to depth 12 when neither is
    /// given; exact once the end of the game is within reach. `selectivity` is Multi-ProbCut's
    /// confidence (73, 87, 95, 98, 99, or 100/"exact" for none; default 87). Scores are for
    /// the side to move. Ctrl-C stops the search and raises KeyboardInterrupt.
    #[pyo3(signature = (board, depth=None, time=None, selectivity=None, threads=1, multipv=1))]
    #[allow(clippy::too_many_arguments)]
    fn analyze(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        depth: Option<u32>,
        time: Option<f64>,
        selectivity: Option<&Bound<'_, PyAny>>,
        threads: usize,
        multipv: usize,
    ) -> PyResult<PyAnalysis> {
        let pos = position_of(board)?;
        if depth.is_some() && time.is_some() {
            return Err(errors::argument("give depth or time, not both"));
        }
        let time = time.map(duration_of).transpose()?;
        let selectivity = selectivity_of(selectivity)?;
        let threads = threads_of(threads)?;
        let depth = match depth {
            Some(d) => Some(Depth::new(d).map_err(|e| request_error(&e, &pos))?),
            None if time.is_none() => Some(Depth::of(12)),
            None => None,
        };
        let limits = Limits {
            depth,
            time,
            mode: Mode::Auto,
            multipv,
            root_moves: None,
            selectivity,
        };
        self.search(py, &pos, &limits, threads)
    }

    /// Solves a position exactly (`wld=True`: win, draw or loss only). Refuses more than 36
    /// empties unless `force=True` (days of search, for ever at 60); `time` (seconds) bounds
    /// the search, which then may end unfinished (`complete` False). Ctrl-C stops it.
    #[pyo3(signature = (board, wld=false, time=None, threads=1, force=false))]
    fn solve(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        wld: bool,
        time: Option<f64>,
        threads: usize,
        force: bool,
    ) -> PyResult<PyAnalysis> {
        let pos = position_of(board)?;
        let empties = pos.board.empty_count();
        if empties > SOLVE_REFUSE_ABOVE && !force && time.is_none() && !pos.board.is_game_over() {
            return Err(errors::argument(format!(
                "the position has {empties} empties: an exact solve would not finish (days at \
                 36, for ever at 60). Solve positions of at most {SOLVE_REFUSE_ABOVE} empties, \
                 analyze with depth or time, or pass force=True to try anyway"
            )));
        }
        let limits = Limits {
            time: time.map(duration_of).transpose()?,
            mode: if wld { Mode::Wld } else { Mode::Exact },
            ..Limits::default()
        };
        self.search(py, &pos, &limits, threads_of(threads)?)
    }

    /// Forgets what earlier searches learnt (empties the transposition table).
    fn clear(&self) {
        self.engine
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clear();
    }
}

/// Seconds as a duration; the engine checks the range (more than 0, at most a week).
fn duration_of(t: f64) -> PyResult<Duration> {
    if t.is_finite() && t > 0.0 && t <= othbook::engine::MAX_TIME.as_secs_f64() {
        Ok(Duration::from_secs_f64(t))
    } else {
        Err(errors::argument(format!(
            "time {t} s is out of range: use more than 0 and at most a week"
        )))
    }
}
