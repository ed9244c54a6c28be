//! The probe report: what the book says of one position, without its moves: the games and
//! results (as `explore` counts them, all zeros when the book lacks the position) and the
//! book's value. The quick query of the Python package and the C library.

use super::{Results, ValueFields};
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
        let value = if book.has_values() {
            ValueFields::of(book.try_value(&pos.board)?, pos.side)
        } else {
            ValueFields::default()
        };
        Ok(ProbeReport {
            in_book: true,
            results: stats.for_side(pos.side).into(),
            value,
        })
    }
}
