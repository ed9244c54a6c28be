//! The book a server answers from, and how a changed book file is picked up: the file is
//! read whole into memory and checked (never mapped: another program that rewrites it in
//! place could then change the answers or kill the server with SIGBUS), and a watcher
//! looks at the file's metadata every second. A changed file is read again once its
//! metadata has held still for a check; a valid book replaces the served one, anything else
//! (a half-written or missing file) leaves the served book in place and is logged once.

use super::cache::Cache;
use crate::book::{Book, BookError, GameTable, OpenOptions};
use std::path::Path;
use std::time::Duration;
use thiserror::Error;

/// How often the watcher looks at the book file's metadata.
pub const CHECK_EVERY: Duration = Duration::from_secs(1);

/// A book as requests see it: each request takes the current one once, at its start, and
/// answers from it throughout, whatever is loaded meanwhile. Its answers are cached with it.
pub struct Loaded {
    pub(super) book: Book,
    /// The book's name as shown to clients (the name it is served under).
    pub(super) name: String,
    /// The book's game table, read once (`None`: the book has none).
    pub(super) games: Option<GameTable>,
    /// The ratings fitted from its games, on the first query that needs them.
    pub(super) ratings: std::sync::OnceLock<crate::book::games::Ratings>,
    pub(super) cache: Cache,
    /// When it was read, in seconds since 1970 (UTC).
    pub(super) loaded_at: u64,
    /// The file's metadata when it was read (`None`: a book not read from a file).
    pub(super) stamp: Option<Stamp>,
}

impl Loaded {
    /// `book`, named `name` to clients; reads its game table once.
    pub(super) fn new(book: Book, name: String, cache_entries: usize) -> Result<Loaded, BookError> {
        let games = book.games()?;
        Ok(Loaded {
            book,
            name,
            games,
            ratings: std::sync::OnceLock::new(),
            cache: Cache::new(cache_entries),
            loaded_at: now(),
            stamp: None,
        })
    }
}

/// Why a book file could not be (re)loaded.
#[derive(Debug, Error)]
pub enum LoadError {
    /// The file cannot be read or is not a valid book.
    #[error(transparent)]
    Book(#[from] BookError),
    /// The file changed while it was being read: what was read may mix two versions.
    #[error("{path}: the file changed while it was being read")]
    Changed { path: String },
}

/// What tells one version of a file from another without reading it: the file (device and
/// inode: a file renamed over the path is another file), its size and its times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

/// The metadata of the file at `path` (`None`: it cannot be looked at, e.g. it is missing).
pub(super) fn stamp(path: &Path) -> Option<Stamp> {
    let m = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some(Stamp {
            dev: m.dev(),
            ino: m.ino(),
            len: m.len(),
            mtime: (m.mtime(), m.mtime_nsec()),
            ctime: (m.ctime(), m.ctime_nsec()),
        })
    }
    #[cfg(not(unix))]
    {
        let mtime = m
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .unwrap_or_default();
        Some(Stamp {
            dev: 0,
            ino: 0,
            len: m.len(),
            mtime: (mtime.as_secs() as i64, i64::from(mtime.subsec_nanos())),
            ctime: (0, 0),
        })
    }
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The name clients know the book at `path` by: its file name.
pub(super) fn name_of(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Reads the book at `path` into memory, named `name` to clients, and checks every block of
/// it. Blocking: never on
/// the server's async threads.
pub(super) fn load(path: &Path, name: &str, cache_entries: usize) -> Result<Loaded, LoadError> {
    let before = stamp(path);
    let in_memory = OpenOptions {
        mmap: false,
        verify_all: true,
    };
    let book = Book::open_with(path, in_memory)?;
    let changed = || LoadError::Changed {
        path: path.display().to_string(),
    };
    if before.is_none() || stamp(path) != before {
        return Err(changed());
    }
    let mut loaded = Loaded::new(book, name.to_string(), cache_entries)?;
    loaded.stamp = before;
    Ok(loaded)
}

/// [`load`], tried again a few times while the file keeps changing under the read (another
/// program is writing it right now).
pub(super) fn load_settled(
    path: &Path,
    name: &str,
    cache_entries: usize,
) -> Result<Loaded, LoadError> {
    let mut tries = 0;
    loop {
        match load(path, name, cache_entries) {
            Err(LoadError::Changed { .. }) if tries < 5 => {
                tries += 1;
                std::thread::sleep(CHECK_EVERY);
            }
            other => return other,
        }
    }
}

/// `e` and its causes on one line, for the server's log.
pub fn reason(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(&format!(": {c}"));
        cause = c.source();
    }
    text
}
