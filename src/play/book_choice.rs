//! Choosing a move from the opening book, for the players and protocols that consult it first:
//! by the book's values when it has them (the best, or at random among those within a margin
//! of the best), by its game statistics otherwise.

use crate::board::{Board, Move};
use crate::book::{default_path, Book, BookError, MoveStats, MoveValue, Score, SCORE_SCALE};
use crate::rng::Rng;
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

/// Most discs `book-randomness` accepts: beyond a whole board's margin every move qualifies.
pub const MAX_RANDOMNESS: f64 = 64.0;

/// Checks a `book-randomness` value in discs: a number from 0 to [`MAX_RANDOMNESS`].
pub fn parse_randomness(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if randomness_in_range(x) => Ok(x),
        _ => Err(format!(
            "book-randomness={text} must be a number of discs from 0 to {MAX_RANDOMNESS}"
        )),
    }
}

/// Whether `x` discs is a book randomness: from 0 to [`MAX_RANDOMNESS`] (not NaN).
#[must_use]
pub fn randomness_in_range(x: f64) -> bool {
    (0.0..=MAX_RANDOMNESS).contains(&x)
}

/// Why the book chose a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BookReason {
    /// The book's value of the move, for the side playing it.
    Value(Score),
    /// The games that played it (a book without a value for the position).
    Games(MoveStats),
}

/// A move chosen from the book.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookPick {
    /// The move, on the board asked about.
    pub mv: Move,
    /// What the choice rests on.
    pub reason: BookReason,
}

impl BookPick {
    /// The move's worth for its mover in discs, as the protocols report it: the value, or
    /// the games' average disc difference.
    #[must_use]
    pub fn discs(&self) -> f64 {
        match self.reason {
            BookReason::Value(s) => s.discs(),
            BookReason::Games(st) => st.average_diff().unwrap_or(0.0),
        }
    }
}

/// The book's move for `board`. When the book holds a value for the position, a move whose
/// value is within `randomness` discs of the best, chosen uniformly with `rng` (0: among the
/// equally best); otherwise [`book_move`]'s choice by game statistics. `None` when the book
/// has neither; an error when its data for the position is damaged.
pub fn choose(
    book: &Book,
    board: &Board,
    randomness: f64,
    rng: &mut Rng,
) -> Result<Option<BookPick>, BookError> {
    if book.has_values() {
        let moves = book.try_best_moves(board)?;
        // A value above every listed move comes from a score without its move (an imported
        // book): the best move is not known, so the book does not choose.
        let value = book.try_value(board)?.map(|s| s.score);
        let best_listed = moves.iter().map(|m| m.score.score).max();
        if value.is_some_and(|v| best_listed.is_none_or(|b| b < v)) {
            return Ok(None);
        }
        if let Some(m) = pick_by_value(board, &moves, randomness, rng) {
            return Ok(Some(BookPick {
                mv: m.mv,
                reason: BookReason::Value(m.score),
            }));
        }
    }
    Ok(book_move(book, board)?.map(|(mv, st)| BookPick {
        mv,
        reason: BookReason::Games(st),
    }))
}

/// A legal move of `moves` (as [`Book::best_moves`] lists them) whose value is at most
/// `randomness` discs below the best, chosen uniformly; `None` when there is none.
pub fn pick_by_value(
    board: &Board,
    moves: &[MoveValue],
    randomness: f64,
    rng: &mut Rng,
) -> Option<MoveValue> {
    let legal = board.legal_moves();
    let playable: Vec<&MoveValue> = moves
        .iter()
        .filter(|m| m.mv.square().is_some_and(|sq| legal.contains(sq)))
        .collect();
    let best = playable.iter().map(|m| i32::from(m.score.score)).max()?;
    // Values are whole hundredths: the margin is rounded to them, so 0.01 discs is one step.
    let floor = best - (randomness * f64::from(SCORE_SCALE)).round() as i32;
    let near: Vec<&MoveValue> = playable
        .into_iter()
        .filter(|m| i32::from(m.score.score) >= floor)
        .collect();
    let i = if near.len() > 1 {
        rng.below(near.len())
    } else {
        0
    };
    near.get(i).map(|m| **m)
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
                // A book named by $OTHBOOK_BOOK must exist: playing without it would be silent.
                let named = std::env::var_os(crate::book::BOOK_ENV).is_some_and(|v| !v.is_empty());
                if p.exists() || named {
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
    use crate::board::{parse_moves, Position, Square};

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

    /// Values for the moves of the start position (square order: d3, c4, f5, e6).
    fn valued(scores: &[(Square, i16)]) -> Vec<MoveValue> {
        scores
            .iter()
            .map(|&(sq, score)| MoveValue {
                mv: Move::Play(sq),
                score: Score {
                    score,
                    depth: 10,
                    kind: crate::book::ValueKind::Midgame,
                },
                in_book: true,
            })
            .collect()
    }

    #[test]
    fn pick_by_value_takes_the_best_or_a_move_within_the_margin() {
        use Square as S;
        let board = Board::START;
        let moves = valued(&[(S::D3, 150), (S::C4, 100), (S::F5, -80), (S::E6, 149)]);
        let mut rng = Rng::new(1);
        for _ in 0..50 {
            let m = pick_by_value(&board, &moves, 0.0, &mut rng).unwrap();
            assert_eq!(m.mv, Move::Play(S::D3));
        }
        // Within half a disc: d3, c4 and e6, each of them some of the time; never f5.
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..300 {
            let m = pick_by_value(&board, &moves, 0.5, &mut rng).unwrap();
            assert!(m.score.score >= 100, "{m:?}");
            seen.insert(m.mv);
        }
        assert_eq!(seen.len(), 3, "{seen:?}");
        // Equally best moves are chosen between at random.
        let tied = valued(&[(S::D3, 20), (S::C4, 20), (S::F5, 10)]);
        let picks: std::collections::BTreeSet<Move> = (0..100)
            .map(|_| pick_by_value(&board, &tied, 0.0, &mut rng).unwrap().mv)
            .collect();
        assert_eq!(picks.len(), 2);
        // A move that is not legal here is never played, however good its value.
        let bad = valued(&[(S::A1, 6400), (S::C4, -300)]);
        let m = pick_by_value(&board, &bad, 0.0, &mut rng).unwrap();
        assert_eq!(m.mv, Move::Play(S::C4));
        assert_eq!(pick_by_value(&board, &[], 64.0, &mut rng), None);
    }

    #[test]
    fn randomness_must_be_discs_from_0_to_64() {
        assert_eq!(parse_randomness("1.5"), Ok(1.5));
        assert_eq!(parse_randomness("0"), Ok(0.0));
        for bad in ["-0.5", "65", "nan", "inf", "two", ""] {
            assert!(parse_randomness(bad).is_err(), "{bad}");
        }
    }

    /// A book without values is played by its games, as before it could hold values.
    #[test]
    fn a_book_without_values_is_played_by_its_games() {
        let mut data = BookSetting::Default
            .open()
            .unwrap()
            .unwrap()
            .to_data()
            .unwrap();
        data.strip_values();
        let book = Book::from_bytes(crate::book::encode(&data).unwrap(), "v1.book").unwrap();
        assert!(!book.has_values());
        let mut rng = Rng::new(5);
        let mut board = Board::START;
        for mv in parse_moves("f5d6c3d3c4").unwrap() {
            board = board.play_move(mv).unwrap();
            let by_games = book_move(&book, &board).unwrap().map(|m| m.0);
            let pick = choose(&book, &board, 3.0, &mut rng).unwrap();
            assert_eq!(pick.map(|p| p.mv), by_games);
            assert!(pick.is_none_or(|p| matches!(p.reason, BookReason::Games(_))));
        }
    }

    /// A damaged block of a lazily checked book (gtp/nboard `--book` over 32 MiB) is an error,
    /// not "no book move": the engine must not search as if out of the book.
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
