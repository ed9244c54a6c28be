//! What every request shares ([`AppState`]: the book served now, the limits, the work slots)
//! and the limits themselves ([`ServeOptions`], checked when built).

use super::reload::{self, LoadError, Loaded};
use crate::book::Book;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::Duration;
use thiserror::Error;
use tokio::sync::Semaphore;

/// Deepest search a client may ask for when none is set.
pub const DEFAULT_MAX_DEPTH: u32 = 14;
/// Largest request body accepted (a game's moves fit many times over).
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// How the server limits the work clients can ask for.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Deepest engine search a request may ask for.
    pub(super) max_depth: u32,
    /// Searches running at once; more wait, then get 503.
    pub(super) max_searches: usize,
    /// How long a search request waits for a free slot.
    pub(super) queue_wait: Duration,
    /// Answers kept for repeated queries.
    pub(super) cache_entries: usize,
    /// Transposition table of each search, in MB.
    pub(super) hash_mb: usize,
    /// Connections open at once; more get 503.
    pub(super) max_connections: usize,
}

/// Connections open at once unless [`ServeOptions::with_max_connections`] says otherwise.
pub const MAX_CONNECTIONS: usize = 1024;

/// A limit out of range in [`ServeOptions::new`].
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ServeOptionsError {
    #[error("maximum depth {0} is out of range: use 1 to 60")]
    MaxDepth(u32),
    #[error("concurrent searches {0} is out of range: use 1 to 64")]
    MaxSearches(usize),
    #[error("cache size {0} is out of range: use 0 to 1000000 answers")]
    Cache(usize),
}

impl ServeOptions {
    /// Options checked once: depth cap 1-60, 1-64 searches at once, up to a million cached
    /// answers.
    pub fn new(
        max_depth: u32,
        max_searches: usize,
        cache_entries: usize,
    ) -> Result<ServeOptions, ServeOptionsError> {
        if !(1..=60).contains(&max_depth) {
            return Err(ServeOptionsError::MaxDepth(max_depth));
        }
        if !(1..=64).contains(&max_searches) {
            return Err(ServeOptionsError::MaxSearches(max_searches));
        }
        if cache_entries > 1_000_000 {
            return Err(ServeOptionsError::Cache(cache_entries));
        }
        Ok(ServeOptions {
            max_depth,
            max_searches,
            queue_wait: Duration::from_secs(20),
            cache_entries,
            hash_mb: 16,
            max_connections: MAX_CONNECTIONS,
        })
    }

    /// The same options with another wait for a search slot (after it, 503).
    #[must_use]
    pub fn with_queue_wait(self, queue_wait: Duration) -> ServeOptions {
        ServeOptions { queue_wait, ..self }
    }

    /// The same options with another cap on open connections (at least 1).
    #[must_use]
    pub fn with_max_connections(self, max_connections: usize) -> ServeOptions {
        ServeOptions {
            max_connections: max_connections.max(1),
            ..self
        }
    }

    /// The deepest search a request may ask for.
    #[must_use]
    pub fn max_depth(&self) -> u32 {
        self.max_depth
    }
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        ServeOptions::new(DEFAULT_MAX_DEPTH, cores.clamp(1, 4), 4096)
            .expect("default options are in range")
    }
}

/// What every request shares: the book (its games and cached answers with it) and the
/// limits.
pub struct AppState {
    /// The book served now: a request clones the handle once and answers from that book.
    pub(super) current: RwLock<Arc<Loaded>>,
    /// The file the book was read from, watched for a new version (`None`: a book given in
    /// memory, served as it is).
    pub(super) source: Option<PathBuf>,
    pub(super) options: ServeOptions,
    pub(super) searches: Arc<Semaphore>,
    /// Slots of work on the blocking pool (book queries and searches alike).
    pub(super) work: Arc<Semaphore>,
}

/// Book queries on the blocking pool at once, beside the searches: more wait for a slot.
const QUERY_THREADS: usize = 8;

impl AppState {
    /// The state for `book`, named `book_name` to clients; reads its game table once. The
    /// book is served as it is, for as long as the server runs.
    pub fn new(
        book: Book,
        book_name: String,
        options: ServeOptions,
    ) -> Result<AppState, crate::book::BookError> {
        let loaded = Loaded::new(book, book_name, options.cache_entries)?;
        Ok(AppState::with(loaded, None, options))
    }

    /// The state for the book file at `path`, read into memory and checked whole, named by
    /// its file name to clients. [`serve`] watches the file and serves each new valid version
    /// of it (another program's rebuild) from then on.
    pub fn from_file(path: &Path, options: ServeOptions) -> Result<AppState, LoadError> {
        let loaded = reload::load_settled(path, options.cache_entries)?;
        Ok(AppState::with(loaded, Some(path.to_path_buf()), options))
    }

    fn with(loaded: Loaded, source: Option<PathBuf>, options: ServeOptions) -> AppState {
        AppState {
            current: RwLock::new(Arc::new(loaded)),
            source,
            searches: Arc::new(Semaphore::new(options.max_searches)),
            work: Arc::new(Semaphore::new(options.max_searches + QUERY_THREADS)),
            options,
        }
    }

    /// The book served now.
    pub(super) fn book(&self) -> Arc<Loaded> {
        // The lock only guards a pointer swap: a panic cannot leave it half-done.
        self.current
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Serves `loaded` from now on; requests under way finish with the book they started on.
    pub(super) fn replace(&self, loaded: Loaded) {
        let fresh = Arc::new(loaded);
        let old = std::mem::replace(
            &mut *self.current.write().unwrap_or_else(|p| p.into_inner()),
            fresh,
        );
        // The old book is freed here or by the last request using it, outside the lock.
        drop(old);
    }
}
