//! How a caller follows and stops a long build or merge: the steps reported and the stop flag.

use crate::book::BookError;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a long build or merge reports as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A run of games was written to the temporary folder (`runs` so far).
    Spilled {
        /// Runs written so far.
        runs: usize,
        /// Games in them.
        games: u64,
    },
    /// Games counted (their positions) and kept on disk for a second pass.
    Counted {
        /// Games so far.
        games: u64,
    },
    /// Merging: positions of the inputs merged so far, of `total`.
    Merge {
        /// Positions merged.
        done: u64,
        /// Positions in the inputs.
        total: u64,
    },
}

/// How a caller follows and stops a long build or merge.
pub struct Control<'a> {
    /// Set (by a signal handler) to stop: the run then ends with [`BookError::Stopped`].
    pub stop: &'a AtomicBool,
    /// Called as the work goes on.
    pub progress: &'a (dyn Fn(Step) + Sync),
}

impl Control<'_> {
    pub(super) fn check(&self) -> Result<(), BookError> {
        if self.stop.load(Ordering::Relaxed) {
            Err(BookError::Stopped)
        } else {
            Ok(())
        }
    }
}
