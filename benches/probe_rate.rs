//! Probes per second through the Rust API on the default book, one thread: the yardstick for
//! the Python package's and the C library's rates (python/bench.py runs the same positions).
//!
//! `cargo bench --features bench --bench probe_rate`. The positions: every ply up to 30 of
//! the book's 2,000 most recent games (the order of `games find` at the start), as a player
//! would probe them. Two queries: `Book::try_probe` (the statistics alone) and
//! `ProbeReport::of` (statistics and value: what Python's `Book.probe` and C's
//! `othbook_book_probe` return), each the best of five passes.

use othbook::board::{Board, Position};
use othbook::book::{Book, OpenOptions};
use othbook::report::ProbeReport;
use std::hint::black_box;
use std::time::Instant;

/// Games whose positions are probed, and the deepest ply taken from each.
const GAMES: usize = 2000;
const PLIES: usize = 30;

fn positions(book: &Book) -> Vec<Position> {
    let table = book
        .games()
        .expect("game table")
        .expect("the default book has games");
    let found = table
        .find(&Board::START, usize::MAX, None, 1)
        .expect("the table replays");
    let mut out = Vec::new();
    for m in found.matches.iter().take(GAMES) {
        let mut pos = Position::START;
        let moves = table.moves(&table.games()[m.game]);
        let replay = pos
            .replay(moves.iter().copied().take(PLIES))
            .expect("legal");
        for mv in replay.moves {
            pos = pos.play(mv).expect("legal");
            out.push(pos);
        }
    }
    out
}

fn rate(name: &str, n: usize, mut pass: impl FnMut() -> usize) {
    let mut best = f64::INFINITY;
    let mut found = 0;
    for _ in 0..5 {
        let t = Instant::now();
        found = black_box(pass());
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{name}: {:.0} probes/s ({n} positions, {found} in the book, best of 5: {:.1} ms)",
        n as f64 / best,
        best * 1e3
    );
}

fn main() {
    let path = othbook::book::default_path();
    let opts = OpenOptions {
        mmap: false,
        verify_all: true,
    };
    let book = Book::open_with(&path, opts).expect("the default book opens");
    let all = positions(&book);
    println!("{}: {} positions", path.display(), all.len());
    rate("Book::try_probe", all.len(), || {
        all.iter()
            .filter(|p| book.try_probe(&p.board).expect("readable").is_some())
            .count()
    });
    rate("ProbeReport::of", all.len(), || {
        all.iter()
            .filter(|p| ProbeReport::of(&book, p).expect("readable").in_book)
            .count()
    });
}
