//! Use an evaluated book in your own player: the value of a position and its moves ranked by
//! value, in your board's orientation.
//!
//! Run from the repository root: `cargo run --release --example book_values -- f5d6`
//! (the default book), or `... -- f5d6 my.book` for another book. The book must have values
//! (`othbook book evaluate`); for a book without them the example says so.

use othbook::board::{parse_moves, Position};
use othbook::book::{default_path, Book};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let line = args.next().unwrap_or_default();
    let path = args.next().map_or_else(default_path, Into::into);
    let book = Book::open(&path)?;
    if !book.has_values() {
        println!(
            "{} has no values (format version {}): make an evaluated copy with \
             `othbook book evaluate {} -o evaluated.book` and run this example on it",
            path.display(),
            book.version(),
            path.display()
        );
        return Ok(());
    }
    let pos = Position::START.replay(parse_moves(&line)?)?.end;

    // Values are for the side to move, in discs (hundredths in `score`), any orientation.
    match book.value(&pos.board) {
        Some(v) => println!(
            "{} to move: the book's value is {:+.2} discs ({}, depth {})",
            pos.side,
            v.discs(),
            v.kind.word(),
            v.depth
        ),
        None => println!("no value for this position: time to think for yourself"),
    }

    // Moves come in this board's orientation, best first for the side to move; the one that
    // leaves the book (the searched leaf) is listed with the others.
    for m in book.best_moves(&pos.board) {
        println!(
            "{}: {:+.2} for {}{}",
            m.mv,
            m.score.discs(),
            pos.side,
            if m.in_book { "" } else { " (leaves the book)" }
        );
    }
    Ok(())
}
