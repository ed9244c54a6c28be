//! What every request shares ([`AppState`]: the books served now, the limits, the work slots)
//! and the limits themselves ([`ServeOptions`], checked when built).

use super::books::{BookSpec, BookSpecError, Slot};
use super::error::ApiError;
use super::reload::{self, LoadError, Loaded};
use crate::book::Book;
use crate::engine::{Depth, HashSize};
use std::path::Path;
use std::sync::Arc;
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
    pub(super) max_depth: Depth,
    /// Searches running at once; more wait, then get 503.
    pub(super) max_searches: usize,
    /// How long a search request waits for a free slot.
    pub(super) queue_wait: Duration,
    /// Answers kept for repeated queries.
    pub(super) cache_entries: usize,
    /// Transposition table of each search.
    pub(super) hash_mb: HashSize,
    /// Connections open at once; more get 503.
    pub(super) max_connections: usize,
    /// Longest the engine thinks about one move of a game played in the page (`/play`).
    pub(super) play_max_time: Duration,
}

/// Connections open at once unless [`ServeOptions::with_max_connections`] says otherwise.
pub const MAX_CONNECTIONS: usize = 1024;
/// The engine's longest time per move in a played game unless
/// [`ServeOptions::with_play_max_time`] says otherwise.
pub const DEFAULT_PLAY_MAX_TIME: Duration = Duration::from_secs(2);
/// The range [`ServeOptions::with_play_max_time`] accepts.
pub const PLAY_MAX_TIME_RANGE: std::ops::RangeInclusive<Duration> =
    Duration::from_millis(10)..=Duration::from_secs(600);

/// A limit out of range in [`ServeOptions::new`].
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ServeOptionsError {
    #[error("maximum depth {0} is out of range: use 1 to 60")]
    MaxDepth(u32),
    #[error("concurrent searches {0} is out of range: use 1 to 64")]
    MaxSearches(usize),
    #[error("cache size {0} is out of range: use 0 to 1000000 answers")]
    Cache(usize),
    #[error("the engine's time per move {0:?} is out of range: use 0.01 to 600 seconds")]
    PlayMaxTime(Duration),
}

impl ServeOptions {
    /// Options checked once: depth cap 1-60, 1-64 searches at once, up to a million cached
    /// answers.
    pub fn new(
        max_depth: u32,
        max_searches: usize,
        cache_entries: usize,
    ) -> Result<ServeOptions, ServeOptionsError> {
        let Ok(max_depth) = Depth::new(max_depth) else {
            return Err(ServeOptionsError::MaxDepth(max_depth));
        };
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
            hash_mb: HashSize::of(16),
            max_connections: MAX_CONNECTIONS,
            play_max_time: DEFAULT_PLAY_MAX_TIME,
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

    /// The same options with another cap on the engine's time per move in a played game
    /// (0.01 to 600 seconds).
    pub fn with_play_max_time(
        self,
        play_max_time: Duration,
    ) -> Result<ServeOptions, ServeOptionsError> {
        if !PLAY_MAX_TIME_RANGE.contains(&play_max_time) {
            return Err(ServeOptionsError::PlayMaxTime(play_max_time));
        }
        Ok(ServeOptions {
            play_max_time,
            ..self
        })
    }

    /// The deepest search a request may ask for.
    #[must_use]
    pub fn max_depth(&self) -> Depth {
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

/// What every request shares: the books (their games and cached answers with them) and
/// the limits.
pub struct AppState {
    /// The books by name, the default first. A request clones the handle of its book once
    /// and answers from that copy.
    pub(super) books: Vec<Slot>,
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
        let loaded = Loaded::new(book, book_name.clone(), options.cache_entries)?;
        Ok(AppState::with(
            vec![Slot::serving(book_name, loaded, None)],
            options,
        ))
    }

    /// The state for the book file at `path`, read into memory and checked whole, named by
    /// its file name to clients. [`serve`] watches the file and serves each new valid version
    /// of it (another program's rebuild) from then on.
    pub fn from_file(path: &Path, options: ServeOptions) -> Result<AppState, LoadError> {
        let name = reload::name_of(path);
        let loaded = reload::load_settled(path, &name, options.cache_entries)?;
        let slot = Slot::serving(name, loaded, Some(path.to_path_buf()));
        Ok(AppState::with(vec![slot], options))
    }

    /// The state for several named book files (names checked apart), the first the default;
    /// each is read and checked as [`AppState::from_file`] reads one. A book that does not
    /// open is left out of the answers (listed in `/info` with the kind of its failure, and
    /// watched: a valid version of it is served once it appears); the books that failed are
    /// returned with why. Only when none opens is it an error: the first book's.
    pub fn from_files(
        books: &[BookSpec],
        options: ServeOptions,
    ) -> Result<(AppState, Vec<(BookSpec, LoadError)>), FilesError> {
        BookSpec::check_unique(books)?;
        let mut slots = Vec::with_capacity(books.len());
        let mut failed = Vec::new();
        for spec in books {
            match reload::load_settled(&spec.path, &spec.name, options.cache_entries) {
                Ok(loaded) => slots.push(Slot::serving(
                    spec.name.clone(),
                    loaded,
                    Some(spec.path.clone()),
                )),
                Err(e) => {
                    slots.push(Slot::failed(spec.name.clone(), &e, spec.path.clone()));
                    failed.push((spec.clone(), e));
                }
            }
        }
        if slots.iter().all(|s| s.book().is_none()) {
            return Err(match failed.into_iter().next() {
                Some((_, e)) => FilesError::Load(e),
                None => FilesError::NoBook,
            });
        }
        Ok((AppState::with(slots, options), failed))
    }

    fn with(books: Vec<Slot>, options: ServeOptions) -> AppState {
        AppState {
            books,
            searches: Arc::new(Semaphore::new(options.max_searches)),
            work: Arc::new(Semaphore::new(options.max_searches + QUERY_THREADS)),
            options,
        }
    }

    /// The copy served now of the book named `name` (`None`: the default one).
    pub(super) fn book(&self, name: Option<&str>) -> Result<Arc<Loaded>, ApiError> {
        let slot =
            match name {
                None => &self.books[0],
                Some(n) => self.books.iter().find(|s| s.name == n).ok_or_else(|| {
                    ApiError::UnknownBook {
                        name: n.to_string(),
                        known: self.books.iter().map(|s| s.name.clone()).collect(),
                    }
                })?,
            };
        slot.book().ok_or_else(|| ApiError::BookUnavailable {
            name: slot.name.clone(),
            kind: slot.failure().unwrap_or("invalid"),
        })
    }
}

/// Why [`AppState::from_files`] cannot serve.
#[derive(Debug, Error)]
pub enum FilesError {
    /// Two books under one name.
    #[error(transparent)]
    Names(#[from] BookSpecError),
    /// No book opened: the first one's reason.
    #[error(transparent)]
    Load(LoadError),
    /// No book given.
    #[error("no book to serve")]
    NoBook,
}
