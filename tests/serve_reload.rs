//! `othbook serve` and a book file that changes while it runs: a new valid book (renamed over
//! the file or written in place) is served without a restart; a damaged or missing file is
//! refused, said once on stderr, and the server keeps answering from the book it has.

mod common;

use common::web::{
    interrupt, request, serve_book_process, small_book, wait_until, KillOnPanic, StderrLog, BOOK,
};
use othbook::book::Book;
use serde_json::Value;
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

/// Longest wait for the server to notice a change: far beyond its one-second checks.
const NOTICE: Duration = Duration::from_secs(30);

fn json(addr: SocketAddr, path: &str) -> Value {
    let (status, body) = request(addr, "GET", path, None);
    assert_eq!(status, 200, "GET {path}: {body}");
    serde_json::from_str(&body).unwrap()
}

fn positions(addr: SocketAddr) -> u64 {
    json(addr, "/api/v1/info")["positions"].as_u64().unwrap()
}

/// The games of the start position and after f5 as the server answers them.
fn answers(addr: SocketAddr) -> (Value, Value) {
    (
        json(addr, "/api/v1/explore?moves=")["games"].clone(),
        json(addr, "/api/v1/explore?moves=f5")["games"].clone(),
    )
}

/// The same, from `book` itself.
fn book_answers(book: &Path) -> (Value, Value) {
    let b = Book::open(book).unwrap();
    let games = |moves: &str| {
        let pos = common::after(moves);
        Value::from(b.try_probe(&pos.board).unwrap().map_or(0, |s| s.games()))
    };
    (games(""), games("f5"))
}

fn count(book: &Path) -> u64 {
    Book::open(book).unwrap().counts().0
}

#[test]
fn regression_a_rebuilt_book_needed_a_restart_of_serve() {
    let dir = tempfile::tempdir().unwrap();
    let served = dir.path().join("served.book");
    std::fs::copy(BOOK, &served).unwrap();
    let small = small_book(dir.path());
    let (small_positions, big_positions) = (count(&small), count(Path::new(BOOK)));
    assert_ne!(small_positions, big_positions);
    let (mut child, addr, out) = serve_book_process(served.to_str().unwrap(), "127.0.0.1:0");
    let log = StderrLog::take(&mut child);
    let _guard = KillOnPanic(child.id());
    assert_eq!(positions(addr), big_positions);
    assert_eq!(answers(addr), book_answers(Path::new(BOOK)));
    // A rebuild as `build -o` does it: a new file renamed over the served one.
    std::fs::rename(&small, &served).unwrap();
    wait_until(NOTICE, "the new book is served", || {
        positions(addr) == small_positions
    });
    assert_eq!(answers(addr), book_answers(&served));
    let said = format!("othbook: serve: reloaded served.book ({small_positions} positions)");
    wait_until(NOTICE, "the reload is logged", || log.count(&said) == 1);
    interrupt(child, out);
    assert_eq!(log.count("cannot reload"), 0, "{}", log.text());
}

#[test]
fn regression_a_book_rewritten_in_place_needed_a_restart_of_serve() {
    let dir = tempfile::tempdir().unwrap();
    let served = small_book(dir.path());
    let small_answers = book_answers(&served);
    let small_positions = count(&served);
    let (mut child, addr, out) = serve_book_process(served.to_str().unwrap(), "127.0.0.1:0");
    let log = StderrLog::take(&mut child);
    let _guard = KillOnPanic(child.id());
    assert_eq!(answers(addr), small_answers);

    // Cut short in place, as a writer that has not finished (or a damaged copy) leaves it.
    let big = std::fs::read(BOOK).unwrap();
    std::fs::write(&served, &big[..big.len() / 2]).unwrap();
    wait_until(NOTICE, "the damaged book is refused", || {
        log.count("cannot reload") == 1
    });
    assert!(
        log.text().contains("small.book: truncated"),
        "{}",
        log.text()
    );
    assert_eq!(answers(addr), small_answers);
    assert_eq!(positions(addr), small_positions);
    // Refused once for this version of the file, not at every check.
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(log.count("cannot reload"), 1, "{}", log.text());

    // The whole book written in place, over the same file.
    let inode = std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(&served).unwrap());
    std::fs::write(&served, &big).unwrap();
    let same = std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(&served).unwrap());
    assert_eq!(inode, same, "written in place");
    let big_positions = count(Path::new(BOOK));
    wait_until(NOTICE, "the valid book is served", || {
        positions(addr) == big_positions
    });
    assert_eq!(answers(addr), book_answers(Path::new(BOOK)));

    // A missing file is refused too; the server keeps what it has.
    std::fs::remove_file(&served).unwrap();
    wait_until(NOTICE, "the missing book is refused", || {
        log.count("cannot reload") == 2
    });
    assert_eq!(answers(addr), book_answers(Path::new(BOOK)));
    interrupt(child, out);
    assert!(!log.text().contains("panicked"), "{}", log.text());
}
