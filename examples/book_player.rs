//! Use the book in your own player: pick the most played book move, with its statistics.
//!
//! Run from the repository root: `cargo run --release --example book_player -- f5d6`.

use othbook::board::{parse_moves, Position};
use othbook::book::Book;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let line = std::env::args().nth(1).unwrap_or_default();
    let book = Book::open("books/wthor.book")?;
    let pos = Position::START.replay(parse_moves(&line)?)?.end;

    // Statistics are from the side to move's view; `for_side` turns them into colours.
    match book.probe(&pos.board) {
        Some(stats) => {
            let c = stats.for_side(pos.side);
            println!(
                "{} games here: black won {}, white won {}, {} draws",
                stats.games(),
                c.black_wins,
                c.white_wins,
                c.draws
            );
        }
        None => println!("not in the book: time to think for yourself"),
    }

    // Moves come in this board's orientation, most played first.
    if let Some((mv, s)) = book.moves(&pos.board).first() {
        println!(
            "{} to move plays {mv}: {} games, scoring {:.0}% for the mover",
            pos.side,
            s.games(),
            100.0 * s.score().unwrap_or(0.0)
        );
    }
    Ok(())
}
