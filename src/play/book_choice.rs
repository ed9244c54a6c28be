//! Choosing a move from the opening book, for the players and protocols that consult it first.

use crate::board::{Board, Move};
use crate::book::{default_path, Book, MoveStats};
use std::path::Path;
use std::sync::Arc;

/// A move needs at least this many games with a known result to be played from the book.
pub const MIN_GAMES: u64 = 12;

/// Expected score of a move with its results pulled toward ½ by two virtual draws' worth of
/// games on each side, so that a 3-0 record does not beat a 600-400 one.
fn shrunk_score(s: &MoveStats) -> f64 {
    (f64::from(s.wins) + f64::from(s.draws) / 2.0 + 2.0) / (s.known() as f64 + 4.0)
}

/// The book's move for `board`: among moves with at least [`MIN_GAMES`] decided games that
/// make up at least 5% of the position's games, the best expected score for the mover (most
/// games on ties). `None` when the book has no such move; an error when the book's data for
/// the position is damaged (a lazily checked book), which is not the same as no book move.
pub fn book_move(
    book: &Book,
    board: &Board,
) -> Result<Option<(Move, MoveStats)>, crate::book::BookError> {
    let moves = book.try_moves(board)?;
    let total: u64 = moves.iter().map(|(_, s)| s.games()).sum();
    let legal = board.legal_moves();
    Ok(moves
        .into_iter()
        .filter(|(m, s)| {
            s.known() >= MIN_GAMES
                && s.games() * 20 >= total
                && m.square().is_some_and(|sq| legal.contains(sq))
        })
        .max_by(|a, b| {
            shrunk_score(&a.1)
                .total_cmp(&shrunk_score(&b.1))
                .then(a.1.games().cmp(&b.1.games()))
        }))
}

/// Which book a player uses: `none`, a path, or (by default) the default book when present.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum BookSetting {
    /// `books/wthor.book` if it can be found; no book otherwise.
    #[default]
    Default,
    /// No book.
    None,
    /// This file (an error if it cannot be opened).
    Path(String),
}

impl BookSetting {
    /// From a spec option value: `none`, `default`, or a path.
    #[must_use]
    pub fn parse(value: &str) -> BookSetting {
        match value {
            "none" | "off" | "no" => BookSetting::None,
            "default" => BookSetting::Default,
            p => BookSetting::Path(p.to_string()),
        }
    }

    /// Opens the book this setting names.
    pub fn open(&self) -> Result<Option<Arc<Book>>, crate::book::BookError> {
        match self {
            BookSetting::None => Ok(None),
            BookSetting::Default => {
                let p = default_path();
                if p.exists() {
                    Book::open(&p).map(|b| Some(Arc::new(b)))
                } else {
                    Ok(None)
                }
            }
            BookSetting::Path(p) => Book::open(Path::new(p)).map(|b| Some(Arc::new(b))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_moves, Position};

    #[test]
    fn default_book_gives_a_legal_popular_reply_to_f5() {
        let book = BookSetting::Default
            .open()
            .expect("default book opens")
            .expect("books/wthor.book is present");
        let pos = Position::START
            .replay(parse_moves("f5").unwrap())
            .unwrap()
            .end;
        let (mv, stats) = book_move(&book, &pos.board)
            .unwrap()
            .expect("f5 is well covered");
        assert!(pos.board.legal_moves().contains(mv.square().unwrap()));
        assert!(stats.known() >= MIN_GAMES);
        // Deeper in a game the book knows fewer games; it answers only with enough of them.
        let mut late = pos.board;
        for _ in 0..30 {
            late = match late.legal_moves().iter().last() {
                Some(sq) => late.play(sq).unwrap(),
                None => late.pass(),
            };
        }
        let late = Position {
            board: late,
            side: pos.side,
        };
        let few = book
            .moves(&late.board)
            .iter()
            .map(|m| m.1.known())
            .max()
            .unwrap_or(0);
        assert_eq!(
            book_move(&book, &late.board).unwrap().is_some(),
            few >= MIN_GAMES
        );
    }

    /// Regression: a damaged block of a lazily checked book (gtp/nboard `--book` over
    /// 32 MiB) made the book's move `None`, so the engine searched as if out of the book.
    #[test]
    fn regression_book_move_damaged_lazy_book_was_no_book_move() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("damaged.book");
        Book::write_damaged_default(&path);
        let book = Book::open_lazy(&path).expect("the header is intact");
        let pos = Position::START
            .replay(parse_moves("f5").unwrap())
            .unwrap()
            .end;
        let err = book_move(&book, &pos.board).expect_err("damage reported");
        assert!(err.to_string().contains("checksum mismatch"), "{err}");
    }
}
