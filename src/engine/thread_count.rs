//! How many search threads: the one rule for a count asked for (at least one, at most
//! [`MAX_THREADS_ASKED`]) and the cap of what the machine can use ([`max_threads`]), shared by
//! the engine and every front end.

/// The most search threads an engine runs: a few per core. More only share the same cores,
/// and each must be scheduled before it notices that the time is up, so time limits would
/// stretch with the count.
#[must_use]
pub fn max_threads() -> usize {
    4 * std::thread::available_parallelism().map_or(1, usize::from)
}

/// The largest thread count accepted at all; between [`max_threads`] and this, a count is
/// capped rather than refused.
pub const MAX_THREADS_ASKED: usize = 1024;

/// A thread count that cannot be used, named as the option is (the command line adds `--`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ThreadCountError {
    /// No thread.
    #[error("threads must be at least 1")]
    Zero,
    /// More than [`MAX_THREADS_ASKED`].
    #[error("threads {asked} is out of range: use 1 to {MAX_THREADS_ASKED}")]
    TooMany {
        /// The count asked for.
        asked: usize,
    },
}

/// A thread count asked for, checked and capped at [`max_threads`]: built only by
/// [`ThreadCount::new`] (or as [`ThreadCount::ONE`], [`ThreadCount::cores`]), so whoever
/// holds one runs [`ThreadCount::used`] threads without checking it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadCount {
    asked: usize,
    used: usize,
}

impl ThreadCount {
    /// One thread.
    pub const ONE: ThreadCount = ThreadCount { asked: 1, used: 1 };

    /// One thread per core of the machine (the default of the command line's `--threads`).
    #[must_use]
    pub fn cores() -> ThreadCount {
        let n = std::thread::available_parallelism()
            .map_or(1, usize::from)
            .min(MAX_THREADS_ASKED);
        ThreadCount { asked: n, used: n }
    }

    /// `asked` threads: 1 to [`MAX_THREADS_ASKED`], capped at [`max_threads`].
    pub fn new(asked: usize) -> Result<ThreadCount, ThreadCountError> {
        match asked {
            0 => Err(ThreadCountError::Zero),
            n if n > MAX_THREADS_ASKED => Err(ThreadCountError::TooMany { asked: n }),
            n => Ok(ThreadCount {
                asked: n,
                used: n.min(max_threads()),
            }),
        }
    }

    /// The count asked for.
    #[must_use]
    pub fn asked(self) -> usize {
        self.asked
    }

    /// The threads to run.
    #[must_use]
    pub fn used(self) -> usize {
        self.used
    }

    /// Whether the count asked for was more than the machine can use.
    #[must_use]
    pub fn capped(self) -> bool {
        self.used < self.asked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_checked_then_capped() {
        assert_eq!(ThreadCount::new(0), Err(ThreadCountError::Zero));
        assert_eq!(
            ThreadCount::new(MAX_THREADS_ASKED + 1),
            Err(ThreadCountError::TooMany {
                asked: MAX_THREADS_ASKED + 1
            })
        );
        let one = ThreadCount::new(1).unwrap();
        assert_eq!((one.used(), one.capped()), (1, false));
        let most = ThreadCount::new(MAX_THREADS_ASKED).unwrap();
        assert_eq!(most.used(), max_threads().min(MAX_THREADS_ASKED));
        assert_eq!(most.capped(), max_threads() < MAX_THREADS_ASKED);
    }
}
