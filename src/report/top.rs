//! The top report: the most played (or best scoring, or best valued) lines of exactly N plies.

use super::{line_text, OpeningRef, Results, ValueFields};
use crate::board::{Color, Move};
use crate::book::{Book, BookError, Line, Score, TopQuery};
use crate::openings::Openings;
use serde::{Deserialize, Serialize};

/// Everything `top` answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TopReport {
    /// Length of the lines in plies.
    pub plies: usize,
    /// The book has values: every line carries the value fields.
    pub book_has_values: bool,
    /// Plies the book holds lines for.
    pub book_plies: u8,
    /// The lines, best first.
    pub lines: Vec<TopLine>,
}

/// One line with its games (black's view) and, in a book with values, the value of the
/// position it reaches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TopLine {
    /// The moves from the start, in the orientation asked for.
    #[serde(with = "line_text")]
    pub line: Vec<Move>,
    /// The games that played exactly these moves in this order.
    #[serde(flatten)]
    pub results: Results,
    /// The value of the position the line reaches, black minus white (books with values).
    #[serde(flatten)]
    pub value: Option<ValueFields>,
    /// The deepest named opening along the line.
    pub opening: Option<OpeningRef>,
}

impl TopReport {
    /// The lines `query` asks for; ranked by the value of the position each reaches when
    /// `by_value` (a book with values), else as `query.by` says.
    pub fn build(
        book: &Book,
        query: &TopQuery<'_>,
        by_value: bool,
        openings: &Openings,
    ) -> Result<TopReport, BookError> {
        let with_values = book.has_values();
        let ranked: Vec<_> = if by_value {
            book.top_lines_by_value(query)?
                .into_iter()
                .map(|v| (v.line, Some(v.black_value)))
                .collect()
        } else {
            let mut rows = Vec::new();
            for line in book.top_lines(query)? {
                let value = if with_values {
                    book.try_line_value(&line.moves)?
                } else {
                    None
                };
                rows.push((line, value));
            }
            rows
        };
        Ok(TopReport::from_ranked(book, query, ranked, openings))
    }

    /// The report of lines already ranked (for example counted from the games that pass a
    /// filter), each with the value of the position it reaches for black.
    pub fn from_ranked(
        book: &Book,
        query: &TopQuery<'_>,
        ranked: Vec<(Line, Option<Score>)>,
        openings: &Openings,
    ) -> TopReport {
        let with_values = book.has_values();
        let lines = ranked
            .into_iter()
            .map(|(l, value)| TopLine {
                opening: OpeningRef::along(openings, &l.moves),
                results: l.stats.for_side(Color::Black).into(),
                // Line values are black minus white already.
                value: with_values.then(|| ValueFields::of(value, Color::Black)),
                line: l.moves,
            })
            .collect();
        TopReport {
            plies: query.plies,
            book_has_values: with_values,
            book_plies: book.info().options.plies,
            lines,
        }
    }
}
