//! The probe report: what the book says of one position, without its moves: the games and
//! results (as `explore` counts them, all zeros when the book lacks the position) and the
//! book's value. The quick query of the Python package and the C library.

use super::{Results, TrustOf, ValueFields};
use crate::board::Position;
use crate::book::{Book, BookError};

/// A position's games, results and value in a book.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ProbeReport {
    /// The book holds the position (with no game if deviation learning added it).
    pub in_book: bool,
    /// Games that reached the position (any move order, any orientation), black's view.
    pub results: Results,
    /// The book's value, black minus white (all `None` for a book without values or a
    /// position its evaluation has not reached).
    pub value: ValueFields,
}

impl ProbeReport {
    /// The report of `pos` in `book`: the same numbers as [`super::ExploreReport::build`]
    /// gives without a filter.
    pub fn of(book: &Book, pos: &Position) -> Result<ProbeReport, BookError> {
        let Some(stats) = book.try_probe(&pos.board)? else {
            return Ok(ProbeReport::default());
        };
        let value = match book.info().evaluation {
            Some(info) => ValueFields::of(
                book.try_value(&pos.board)?,
                pos.side,
                TrustOf {
                    empties: pos.board.empty_count(),
                    info: &info,
                },
            ),
            None => ValueFields::default(),
        };
        Ok(ProbeReport {
            in_book: true,
            results: stats.for_side(pos.side).into(),
            value,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::play_line;
    use crate::report::explore::ExploreQuery;
    use crate::report::ExploreReport;

    /// The probe gives the numbers of `explore`'s report (in the book, out of it, after a
    /// pass, in another orientation).
    #[test]
    fn the_probe_is_explores_answer_without_the_rows() {
        let book = Book::open(crate::book::default_path()).expect("books/wthor.book");
        for line in [
            "",
            "f5",
            "f5d6",
            "d3c5",
            "f5f4e3f6d3c5g4",
            "f5f6e6f4g4d6f7h4h3f8h5",
        ] {
            let pos = play_line(&Position::START, line).unwrap().end;
            let probe = ProbeReport::of(&book, &pos).unwrap();
            let explore = ExploreReport::build(
                &book,
                ExploreQuery {
                    pos: &pos,
                    opening: None,
                    scores: None,
                    eval_asked: false,
                    games: None,
                },
            )
            .unwrap();
            assert_eq!(probe.in_book, explore.in_book, "{line}");
            assert_eq!(probe.results, explore.results, "{line}");
            let value = explore.value.map(|v| v.value).unwrap_or_default();
            assert_eq!(probe.value, value, "{line}");
        }
    }
}
