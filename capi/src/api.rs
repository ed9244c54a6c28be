//! The exported functions: handles, errors kept per thread, and the guard that turns a
//! panic into `OTHBOOK_ERR_INTERNAL` before it reaches C.

use crate::types::{
    OthbookMove, OthbookPosition, OthbookProbe, OthbookSearchResult, OthbookStatus,
};
use othbook::board::{play_line, Position};
use othbook::book::OpenOptions;
use othbook::engine::{
    Depth, EngineOptions, HashSize, Limits, Mode, RequestError, ThreadCount, MAX_THREADS_ASKED,
};
use othbook::report::explore::ExploreQuery;
use othbook::report::{ExploreReport, ProbeReport};
use std::cell::RefCell;
use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, TryLockError};
use std::time::Duration;
use OthbookStatus::*;

/// An opened book (opaque): read whole into memory and checked by `othbook_book_open`.
pub struct OthbookBook {
    book: othbook::book::Book,
}

/// A search engine and its transposition table (opaque). The engine sits behind a lock so
/// that `othbook_engine_stop` can reach the stop flag from another thread while a search
/// holds the engine.
pub struct OthbookEngine {
    engine: Mutex<othbook::engine::Engine>,
    stop: AtomicBool,
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

type Failure = (OthbookStatus, String);

fn set_error(msg: &str) {
    // A message holds no NUL of its own; one would cut it short, never fail.
    let text = CString::new(msg.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = text);
}

/// The library's error and its causes, as the command line prints them: `a: b: c`.
fn message(e: &dyn std::error::Error) -> String {
    let mut msg = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        msg.push_str(": ");
        msg.push_str(&c.to_string());
        cause = c.source();
    }
    msg
}

// The helpers below read the pointers of the exported (unsafe) functions, whose contract
// makes each NULL or valid: they refuse NULL and rely on that contract for the rest.

/// Runs `f`, catching a panic; on failure keeps the message for `othbook_last_error`.
fn guard(f: impl FnOnce() -> Result<(), Failure>) -> OthbookStatus {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => OTHBOOK_OK,
        Ok(Err((status, msg))) => {
            set_error(&msg);
            status
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            set_error(&format!("internal error (a bug in othbook): {what}"));
            OTHBOOK_ERR_INTERNAL
        }
    }
}

/// `p` as a reference, or the error naming the argument.
fn arg<'a, T>(p: *const T, name: &str) -> Result<&'a T, Failure> {
    // SAFETY: the header asks for a null pointer or a valid one; null is refused here.
    unsafe { p.as_ref() }.ok_or_else(|| (OTHBOOK_ERR_ARGUMENT, format!("{name} is NULL")))
}

/// `p` as a mutable reference, or the error naming the argument.
fn out<'a, T>(p: *mut T, name: &str) -> Result<&'a mut T, Failure> {
    // SAFETY: as for `arg`; the caller gives memory it owns for the answer.
    unsafe { p.as_mut() }.ok_or_else(|| (OTHBOOK_ERR_ARGUMENT, format!("{name} is NULL")))
}

fn text<'a>(p: *const c_char, name: &str) -> Result<&'a str, Failure> {
    if p.is_null() {
        return Err((OTHBOOK_ERR_ARGUMENT, format!("{name} is NULL")));
    }
    // SAFETY: a non-null pointer the header asks to be a NUL-terminated string.
    unsafe { CStr::from_ptr(p) }
        .to_str()
        .map_err(|_| (OTHBOOK_ERR_ARGUMENT, format!("{name} is not UTF-8")))
}

fn position(p: *const OthbookPosition) -> Result<Position, Failure> {
    arg(p, "position")?
        .position()
        .map_err(|e| (OTHBOOK_ERR_POSITION, e))
}

fn book_error(e: &othbook::book::BookError) -> Failure {
    (OTHBOOK_ERR_BOOK, message(e))
}

/// The message of the last call on this thread that failed (empty when none failed yet).
/// The string belongs to the library and stays valid until the next failing call on the
/// same thread: copy it to keep it. Never NULL.
#[no_mangle]
pub extern "C" fn othbook_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// Writes the standard start position (black to move) to `*out`.
///
/// # Safety
/// Pointers are NULL or valid for the call, as this header says for each (strings
/// NUL-terminated, arrays of the given capacity, handles from this library and not freed).
#[no_mangle]
pub unsafe extern "C" fn othbook_position_start(
    out_position: *mut OthbookPosition,
) -> OthbookStatus {
    guard(|| {
        *out(out_position, "out_position")? = OthbookPosition::of(&Position::START);
        Ok(())
    })
}

/// Plays the move line `moves` (`"f5d6c3"`, `"f5 d6 c3"`; passes it leaves out are put
/// back) from `*start` (NULL: the standard start) and writes the position reached to
/// `*out_position`. `OTHBOOK_ERR_POSITION` for a line that cannot be read or played.
///
/// # Safety
/// Pointers are NULL or valid for the call, as this header says for each (strings
/// NUL-terminated, arrays of the given capacity, handles from this library and not freed).
#[no_mangle]
pub unsafe extern "C" fn othbook_position_from_moves(
    start: *const OthbookPosition,
    moves: *const c_char,
    out_position: *mut OthbookPosition,
) -> OthbookStatus {
    guard(|| {
        let from = if start.is_null() {
            Position::START
        } else {
            position(start)?
        };
        let line = text(moves, "moves")?;
        let end = play_line(&from, line)
            .map_err(|e| (OTHBOOK_ERR_POSITION, e.to_string()))?
            .end;
        *out(out_position, "out_position")? = OthbookPosition::of(&end);
        Ok(())
    })
}

/// Reads a board text, 64 characters (`X` black, `O` white, `-` empty) from a1 to h8 row by
/// row then the side to move (`X` or `O`), into `*out_position`.
///
/// # Safety
/// Pointers are NULL or valid for the call, as this header says for each (strings
/// NUL-terminated, arrays of the given capacity, handles from this library and not freed).
#[no_mangle]
pub unsafe extern "C" fn othbook_position_from_text(
    board: *const c_char,
    out_position: *mut OthbookPosition,
) -> OthbookStatus {
    guard(|| {
        let pos: Position = text(board, "board")?
            .parse()
            .map_err(|e| (OTHBOOK_ERR_POSITION, format!("invalid position: {e}")))?;
        *out(out_position, "out_position")? = OthbookPosition::of(&pos);
        Ok(())
    })
}

/// Opens the book at `path` (NULL: the default book, found as the command line finds it:
/// `$OTHBOOK_BOOK`, `books/wthor.book` here, the data folder, the source tree the library
/// was built from). The book is read whole into memory and checked.
///
/// Returns a handle the caller owns and frees with `othbook_book_close`, or NULL with the
/// reason in `*status` (may be NULL) and `othbook_last_error()`. A handle may be used from
/// several threads at once.
///
/// # Safety
/// Pointers are NULL or valid for the call, as this header says for each (strings
/// NUL-terminated, arrays of the given capacity, handles from this library and not freed).
#[no_mangle]
pub unsafe extern "C" fn othbook_book_open(
    path: *const c_char,
    status: *mut OthbookStatus,
) -> *mut OthbookBook {
    let mut handle = std::ptr::null_mut();
    let s = guard(|| {
        let path = if path.is_null() {
            othbook::book::default_path()
        } else {
            text(path, "path")?.into()
        };
        // Read, not mapped: a file cut short by another program would otherwise raise
        // SIGBUS in the caller's process at the next read.
        let opts = OpenOptions {
            mmap: false,
            verify_all: true,
        };
        let book = othbook::book::Book::open_with(&path, opts).map_err(|e| book_error(&e))?;
        handle = Box::into_raw(Box::new(OthbookBook { book }));
        Ok(())
    });
    if let Some(st) = unsafe_out(status) {
        *st = s;
    }
    handle
}

fn unsafe_out<'a, T>(p: *mut T) -> Option<&'a mut T> {
    // SAFETY: an optional out-parameter: null or valid memory of the caller.
    unsafe { p.as_mut() }
}

/// Frees a book from `othbook_book_open`. NULL is allowed (nothing happens); the handle must
/// not be used afterwards, nor closed twice.
///
/// # Safety
/// Pointers are NULL or valid for the call, as this header says for each (strings
/// NUL-terminated, arrays of the given capacity, handles from this library and not freed).
#[no_mangle]
pub unsafe extern "C" fn othbook_book_close(book: *mut OthbookBook) {
    if !book.is_null() {
        // SAFETY: a handle from `othbook_book_open`, not closed before (the header's rule).
        drop(unsafe { Box::from_raw(book) });
    }
}

/// Writes what the book says of `*position` to `*out_probe`: games, results and value as
/// `othbook explore` gives them (all counts 0 and `in_book` false when the book lacks it).
///
/// # Safety
/// Pointers are NULL or valid for the call, as this header says for each (strings
/// NUL-terminated, arrays of the given capacity, handles from this library and not freed).
#[no_mangle]
pub unsafe extern "C" fn othbook_book_probe(
    book: *const OthbookBook,
    position: *const OthbookPosition,
    out_probe: *mut OthbookProbe,
) -> OthbookStatus {
    guard(|| {
        let book = &arg(book, "book")?.book;
        let pos = self::position(position)?;
        let r = ProbeReport::of(book, &pos).map_err(|e| book_error(&e))?;
        *out(out_probe, "out_probe")? = OthbookProbe::new(r.in_book, &r.results, &r.value);
        Ok(())
    })
}

/// Lists the next moves of `*position` as `othbook explore` does (the book's moves, most
/// played first, then moves with a value it does not list), in the position's orientation,
/// into the caller's array `moves` of `capacity` entries; `*count` gets the number of moves.
/// When `capacity` is too small, nothing is written to `moves`, `*count` says how many are
/// needed and the answer is `OTHBOOK_ERR_BUFFER` (`OTHBOOK_MAX_MOVES` entries always do).
/// `moves` may be NULL when `capacity` is 0.
///
/// # Safety
/// Pointers are NULL or valid for the call, as this header says for each (strings
/// NUL-terminated, arrays of the given capacity, handles from this library and not freed).
#[no_mangle]
pub unsafe extern "C" fn othbook_book_moves(
    book: *const OthbookBook,
    position: *const OthbookPosition,
    moves: *mut OthbookMove,
    capacity: usize,
    count: *mut usize,
) -> OthbookStatus {
    guard(|| {
        let book = &arg(book, "book")?.book;
        let pos = self::position(position)?;
        let count = out(count, "count")?;
        let report = ExploreReport::build(
            book,
            ExploreQuery {
                pos: &pos,
                opening: None,
                scores: None,
                eval_asked: false,
                games: None,
            },
        )
        .map_err(|e| book_error(&e))?;
        *count = report.moves.len();
        if report.moves.len() > capacity {
            return Err((
                OTHBOOK_ERR_BUFFER,
                format!(
                    "{} moves do not fit in {capacity} entries",
                    report.moves.len()
                ),
            ));
        }
        if report.moves.is_empty() {
            return Ok(());
        }
        if moves.is_null() {
            return Err((OTHBOOK_ERR_ARGUMENT, "moves is NULL".to_string()));
        }
        // SAFETY: the caller gives `capacity` entries at `moves` (the header's rule), and
        // at most that many are written.
        let buf = unsafe { std::slice::from_raw_parts_mut(moves, report.moves.len()) };
        for (slot, row) in buf.iter_mut().zip(&report.moves) {
            *slot = OthbookMove::from(row);
        }
        Ok(())
    })
}

/// A new engine with a transposition table of `hash_mb` MiB (1 to 65536), kept between its
/// searches. Returns a handle the caller owns and frees with `othbook_engine_free`, or NULL
/// with the reason in `*status` (may be NULL). One search at a time per engine: use one
/// engine per thread.
///
/// # Safety
/// Pointers are NULL or valid for the call, as this header says for each (strings
/// NUL-terminated, arrays of the given capacity, handles from this library and not freed).
#[no_mangle]
pub unsafe extern "C" fn othbook_engine_new(
    hash_mb: usize,
    status: *mut OthbookStatus,
) -> *mut OthbookEngine {
    let mut handle = std::ptr::null_mut();
    let s = guard(|| {
        let hash_mb = HashSize::new(hash_mb).map_err(|e| (OTHBOOK_ERR_ARGUMENT, e.to_string()))?;
        let engine = othbook::engine::Engine::try_new(EngineOptions {
            threads: ThreadCount::ONE,
            hash_mb,
        })
        .map_err(|e| (OTHBOOK_ERR_ENGINE, message(&e)))?;
        handle = Box::into_raw(Box::new(OthbookEngine {
            engine: Mutex::new(engine),
            stop: AtomicBool::new(false),
        }));
        Ok(())
    });
    if let Some(st) = unsafe_out(status) {
        *st = s;
    }
    handle
}

/// Frees an engine from `othbook_engine_new`. NULL is allowed; the handle must not be used
/// afterwards, nor freed twice.
///
/// # Safety
/// Pointers are NULL or valid for the call, as this header says for each (strings
/// NUL-terminated, arrays of the given capacity, handles from this library and not freed).
#[no_mangle]
pub unsafe extern "C" fn othbook_engine_free(engine: *mut OthbookEngine) {
    if !engine.is_null() {
        // SAFETY: a handle from `othbook_engine_new`, not freed before (the header's rule).
        drop(unsafe { Box::from_raw(engine) });
    }
}

fn run_search(
    engine: *mut OthbookEngine,
    position: *const OthbookPosition,
    limits: Result<Limits, RequestError>,
    threads: u32,
    result: *mut OthbookSearchResult,
) -> OthbookStatus {
    guard(|| {
        let handle = arg(engine.cast_const(), "engine")?;
        // A search that panicked leaves the engine as usable as before (its table holds
        // only bounds): the poison is not a reason to refuse the next one.
        let mut engine = match handle.engine.try_lock() {
            Ok(e) => e,
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) => {
                return Err((
                    OTHBOOK_ERR_ARGUMENT,
                    "the engine is searching on another thread: one search at a time per \
                     engine"
                        .to_string(),
                ))
            }
        };
        // A stop asked for before this search began is for an earlier one.
        handle.stop.store(false, Ordering::SeqCst);
        let pos = self::position(position)?;
        let result = out(result, "out_result")?;
        let threads = ThreadCount::new(threads as usize).map_err(|_| {
            (
                OTHBOOK_ERR_ARGUMENT,
                format!("threads {threads} is out of range: use 1 to {MAX_THREADS_ASKED}"),
            )
        })?;
        let limits = limits.map_err(|e| (OTHBOOK_ERR_ARGUMENT, message(&e)))?;
        engine.set_threads(threads);
        let a = engine
            .analyze_stoppable(&pos.board, &limits, &handle.stop, |_| {})
            .map_err(|e| match e {
                othbook::engine::EngineError::Request(RequestError::GameOver) => (
                    OTHBOOK_ERR_POSITION,
                    format!(
                        "the game is over (black {} - white {}): nothing to analyse",
                        pos.black().count(),
                        pos.white().count()
                    ),
                ),
                e => (OTHBOOK_ERR_ARGUMENT, message(&e)),
            })?;
        *result = OthbookSearchResult::of(&a);
        Ok(())
    })
}

/// Searches `*position` with `threads` threads (1 to 1024): iterative deepening to `depth`
/// plies (1 to 60) or for `seconds` (give one of them, the other 0; both 0: depth 12); exact
/// once the end is within reach. Scores are for the side to move. Blocks until done, or
/// until `othbook_engine_stop` from another thread (then `complete` is false and the result
/// is the deepest finished iteration's).
///
/// # Safety
/// Pointers are NULL or valid for the call, as this header says for each (strings
/// NUL-terminated, arrays of the given capacity, handles from this library and not freed).
#[no_mangle]
pub unsafe extern "C" fn othbook_engine_search(
    engine: *mut OthbookEngine,
    position: *const OthbookPosition,
    depth: u32,
    seconds: f64,
    threads: u32,
    out_result: *mut OthbookSearchResult,
) -> OthbookStatus {
    let time = (seconds != 0.0).then(|| Duration::try_from_secs_f64(seconds));
    let limits = match (depth, time) {
        (_, Some(Err(_))) | (1.., Some(Ok(_))) => {
            return guard(|| {
                Err((
                    OTHBOOK_ERR_ARGUMENT,
                    format!("depth {depth} and seconds {seconds}: give one of them, the other 0, and seconds more than 0"),
                ))
            })
        }
        (0, None) => Ok(Limits::depth(Depth::of(12))),
        (d, None) => Depth::new(d).map(Limits::depth),
        (_, Some(Ok(t))) => Ok(Limits::time(t)),
    };
    run_search(engine, position, limits, threads, out_result)
}

/// Solves `*position` exactly (`wld`: win/draw/loss only) with `threads` threads. Each empty
/// square multiplies the work by two to three: 30 empties take minutes, 36 days. Blocks
/// until done, or until `othbook_engine_stop` (then `complete` is false and the score is a
/// midgame one).
///
/// # Safety
/// Pointers are NULL or valid for the call, as this header says for each (strings
/// NUL-terminated, arrays of the given capacity, handles from this library and not freed).
#[no_mangle]
pub unsafe extern "C" fn othbook_engine_solve(
    engine: *mut OthbookEngine,
    position: *const OthbookPosition,
    wld: bool,
    threads: u32,
    out_result: *mut OthbookSearchResult,
) -> OthbookStatus {
    let limits = Limits {
        mode: if wld { Mode::Wld } else { Mode::Exact },
        ..Limits::default()
    };
    run_search(engine, position, Ok(limits), threads, out_result)
}

/// Asks the search running on `engine` (on another thread) to stop: it returns soon after
/// with the deepest iteration it finished. Safe to call from any thread while the engine
/// searches; a stop when no search runs does nothing (the next search clears it).
///
/// # Safety
/// `engine` is NULL or a handle from `othbook_engine_new` not yet freed: free an engine only
/// once its search has returned.
#[no_mangle]
pub unsafe extern "C" fn othbook_engine_stop(engine: *const OthbookEngine) -> OthbookStatus {
    guard(|| {
        arg(engine, "engine")?.stop.store(true, Ordering::SeqCst);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    /// `othbook_engine_solve` of a position far from the end ran until it was solved (days),
    /// with no way for a C caller to stop it; a second search on the busy engine would have
    /// aliased it.
    #[test]
    fn regression_a_search_from_c_could_not_be_stopped() {
        let mut status = OTHBOOK_OK;
        // SAFETY: a valid out-pointer for the status.
        let engine = unsafe { othbook_engine_new(16, &mut status) };
        assert_eq!(status, OTHBOOK_OK);
        let mut start = std::mem::MaybeUninit::<OthbookPosition>::uninit();
        // SAFETY: a valid out-pointer; written by the call.
        assert_eq!(
            unsafe { othbook_position_start(start.as_mut_ptr()) },
            OTHBOOK_OK
        );
        // SAFETY: written by the successful call above.
        let start = unsafe { start.assume_init() };
        let handle = engine as usize;
        // The solve, on its own thread; it reports its status and whether it completed.
        let spawn_solve = move || {
            let (done, answer) = mpsc::channel();
            let searcher = std::thread::spawn(move || {
                let mut result = std::mem::MaybeUninit::<OthbookSearchResult>::uninit();
                // SAFETY: the engine lives until this thread is joined; the pointers are valid.
                let s = unsafe {
                    othbook_engine_solve(
                        handle as *mut OthbookEngine,
                        &start,
                        false,
                        1,
                        result.as_mut_ptr(),
                    )
                };
                // SAFETY: written when the call succeeded (checked before reading it).
                let complete = (s == OTHBOOK_OK).then(|| unsafe { result.assume_init() }.complete);
                done.send((s, complete)).expect("the test waits");
            });
            (searcher, answer)
        };
        let (mut searcher, mut answer) = spawn_solve();
        // Once the solve holds the engine, a second search is refused, not run beside it. The
        // solve itself is refused if it starts while one of these probes holds the engine: it
        // is then started again.
        let mut refused = false;
        for _ in 0..600 {
            if let Ok((s, _)) = answer.try_recv() {
                assert_eq!(s, OTHBOOK_ERR_ARGUMENT, "the solve ended on its own");
                searcher.join().expect("searcher");
                (searcher, answer) = spawn_solve();
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
            let mut result = std::mem::MaybeUninit::<OthbookSearchResult>::uninit();
            // SAFETY: valid pointers; the engine is alive.
            let s =
                unsafe { othbook_engine_search(engine, &start, 1, 0.0, 1, result.as_mut_ptr()) };
            if s == OTHBOOK_ERR_ARGUMENT {
                let msg = unsafe { CStr::from_ptr(othbook_last_error()) };
                assert!(msg
                    .to_string_lossy()
                    .contains("searching on another thread"));
                refused = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        assert!(refused, "a second search ran on the busy engine");
        // SAFETY: the engine is alive.
        assert_eq!(unsafe { othbook_engine_stop(engine) }, OTHBOOK_OK);
        // A guard against a hang, not a speed check.
        let (s, complete) = answer
            .recv_timeout(Duration::from_secs(120))
            .expect("the solve did not stop");
        assert_eq!(s, OTHBOOK_OK);
        assert_eq!(
            complete,
            Some(false),
            "a stopped solve says it is incomplete"
        );
        searcher.join().expect("searcher");
        // SAFETY: the search returned; freed once.
        unsafe { othbook_engine_free(engine) };
        // SAFETY: NULL is refused with a status.
        assert_eq!(
            unsafe { othbook_engine_stop(std::ptr::null()) },
            OTHBOOK_ERR_ARGUMENT
        );
    }
}
