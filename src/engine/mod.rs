//! Engine: evaluation, depth-limited and exact search over a shared transposition table,
//! behind one entry point, [`Engine::analyze`].
//!
//! ```no_run
//! use othbook::board::Board;
//! use othbook::engine::{Depth, Engine, EngineOptions, Limits};
//! let engine = Engine::new(EngineOptions::default());
//! let a = engine.analyze(&Board::START, &Limits::depth(Depth::of(8))).unwrap();
//! println!("{} {:+.2}", a.best_move, a.score_discs());
//! ```

mod analysis;
mod any_eval;
pub mod eval;
mod request;
mod run;
mod search;
pub mod selectivity;
pub mod stability;
mod thread_count;
pub mod tt;
mod units;

pub use analysis::{score_number, score_text, Analysis, Iteration, Line, ScoreKind};
pub use any_eval::{AnyEval, EvalCore, EvalKind, SearchEval};
pub use eval::pattern;
pub use eval::{EvalFileError, Evaluator, HandEval, PatternEval, Weights};
pub use request::{Depth, Limits, Mode, RequestError, SearchRequest, MAX_MULTIPV, MAX_TIME};
pub use selectivity::Selectivity;
pub use thread_count::{max_threads, ThreadCount, ThreadCountError, MAX_THREADS_ASKED};
pub use tt::TranspositionTable;
pub(crate) use units::INF;
pub use units::{HashSize, HashSizeError, MAX_DEPTH, MAX_HASH_MB, SCALE};

use crate::board::Board;
use run::Search;
use search::Busy;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// How an engine is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads (Lazy SMP over the shared table), checked and capped when the count
    /// was built.
    pub threads: ThreadCount,
    /// Transposition table size, checked when it was built.
    pub hash_mb: HashSize,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: ThreadCount::ONE,
            hash_mb: HashSize::of(64),
        }
    }
}

/// Why a position cannot be analysed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The position or the limits cannot be searched.
    #[error(transparent)]
    Request(#[from] RequestError),
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
pub struct Engine<E: SearchEval = PatternEval> {
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

impl<E: SearchEval> Engine<E> {
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
        let tt = TranspositionTable::try_new(options.hash_mb.mb()).map_err(|e| {
            EngineError::NoMemory {
                mb: options.hash_mb.mb(),
                reason: e.to_string(),
            }
        })?;
        Ok(Engine {
            options,
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

    /// Searches from now on with `threads` threads, the table and what it learnt kept.
    pub fn set_threads(&mut self, threads: ThreadCount) {
        self.options.threads = threads;
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
        let request = SearchRequest::new(*board, *limits)?;
        Ok(self.run(&request, None, None, on_iteration))
    }

    /// Like [`Engine::analyze_with`], for a request already checked.
    pub fn search_with(
        &self,
        request: &SearchRequest,
        on_iteration: impl FnMut(&Iteration),
    ) -> Analysis {
        self.run(request, None, None, on_iteration)
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
        let request = SearchRequest::new(*board, *limits)?;
        Ok(self.run(&request, Some(stop), None, on_iteration))
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
        let request = SearchRequest::new(*board, *limits)?;
        nodes.store(0, Ordering::Relaxed);
        Ok(self.run(&request, None, Some(nodes), on_iteration))
    }

    fn run(
        &self,
        request: &SearchRequest,
        cancel: Option<&AtomicBool>,
        watched: Option<&AtomicU64>,
        on_iteration: impl FnMut(&Iteration),
    ) -> Analysis {
        self.tt.new_search();
        self.eval.with_concrete(Search {
            request,
            tt: &self.tt,
            busy: &self.busy,
            threads: self.options.threads.used(),
            cancel,
            watched,
            on_iteration,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--hash 65536` on a machine without 64 GiB panicked with a backtrace: an engine
    /// whose table cannot be had is an error naming its size (a machine with 64 GiB to
    /// spare builds it).
    #[test]
    fn regression_an_engine_too_large_for_the_machine_panicked() {
        let built = Engine::try_new(EngineOptions {
            hash_mb: HashSize::of(MAX_HASH_MB),
            ..EngineOptions::default()
        });
        if let Err(e) = built {
            assert!(
                e.to_string().contains("65536 MiB transposition table"),
                "{e}"
            );
        }
    }

    #[test]
    fn hash_sizes_are_checked_once_when_built() {
        assert_eq!(HashSize::new(0), Err(HashSizeError { mb: 0 }));
        assert_eq!(
            HashSize::new(MAX_HASH_MB + 1).unwrap_err().mb,
            MAX_HASH_MB + 1
        );
        assert_eq!(HashSize::new(1).unwrap().mb(), 1);
        assert_eq!(HashSize::new(MAX_HASH_MB).unwrap().mb(), MAX_HASH_MB);
        assert_eq!(
            HashSizeError { mb: 0 }.to_string(),
            "hash 0 is out of range: use 1 to 65536 MiB"
        );
    }

    /// A thousand threads asked for on a small machine are capped at what it can use: each
    /// thread must be scheduled before it sees the deadline, so too many stretch `--time`.
    #[test]
    fn regression_threads_1000_stretched_the_time_limit() {
        let engine = Engine::new(EngineOptions {
            threads: ThreadCount::new(1000).unwrap(),
            hash_mb: HashSize::of(1),
        });
        assert!(engine.options().threads.used() <= max_threads());
    }
}
