//! The top report: the most played (or best scoring, or best valued) lines of exactly N plies.

use super::{line_text, OpeningRef, Results, TrustOf, ValueFields};
use crate::board::{Color, Move};
use crate::book::games::GameSelection;
use crate::book::{
    Book, BookError, GameTable, IndexedGames, Line, RankBy, Score, TopQuery, ValuedLine,
};
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

/// The book's games that a query-time filter keeps (`--player`, `--years`, ...): lines are
/// then counted from them, within the book's depth and above its `min_games`, as a book built
/// with the filter would count them.
#[derive(Clone, Copy)]
pub struct GamesFilter<'a> {
    /// The book's games.
    pub games: FilteredGames<'a>,
    /// The games that pass the filter.
    pub selection: &'a GameSelection,
}

/// Where a filtered `top` reads the book's games.
#[derive(Clone, Copy)]
pub enum FilteredGames<'a> {
    /// Through the book's index of its games: the records of the filter's years only.
    Indexed(&'a IndexedGames<'a>),
    /// From the whole table, read.
    Table(&'a GameTable),
}

impl GamesFilter<'_> {
    /// The lines `query` asks for among the games the filter keeps.
    fn top_lines(&self, query: &TopQuery<'_>, depth: usize) -> Result<Vec<Line>, BookError> {
        match self.games {
            FilteredGames::Indexed(games) => games.top_lines(query, depth, self.selection),
            FilteredGames::Table(table) => Ok(table.top_lines(query, depth, Some(self.selection))),
        }
    }
}

impl TopReport {
    /// The lines `query` asks for in `book` (counted from the games `filter` keeps, if any),
    /// ranked by value when `by_value`, else as `query.by` says, each with its opening.
    pub fn build(
        book: &Book,
        query: &TopQuery<'_>,
        by_value: bool,
        openings: &Openings,
        filter: Option<GamesFilter<'_>>,
    ) -> Result<TopReport, BookError> {
        let with_values = book.has_values();
        let info = book.info();
        let ranked: Vec<(Line, Option<Score>)> = match filter {
            Some(f) => {
                // The book leaves out lines of fewer games than its min_games: so do its
                // filtered lines.
                let query = &TopQuery {
                    min_games: query.min_games.max(u64::from(info.options.min_games())),
                    ..*query
                };
                let depth = usize::from(info.options.plies());
                if by_value {
                    let all = TopQuery {
                        limit: usize::MAX,
                        by: RankBy::Games,
                        ..*query
                    };
                    let lines = f.top_lines(&all, depth)?;
                    valued_best(book.best_valued(lines, query.limit)?)
                } else {
                    line_values(book, f.top_lines(query, depth)?)?
                }
            }
            None if by_value => valued_best(book.top_lines_by_value(query)?),
            None => line_values(book, book.top_lines(query)?)?,
        };
        let evaluation = info.evaluation.clone().unwrap_or_default();
        let lines = ranked
            .into_iter()
            .map(|(l, value)| TopLine {
                opening: OpeningRef::along(openings, &l.moves),
                results: l.stats.for_side(Color::Black).into(),
                // Line values are black minus white already: the chances are black's.
                value: with_values.then(|| {
                    let played = l.moves.iter().filter(|m| **m != Move::Pass).count();
                    let trust = TrustOf {
                        empties: 60u32.saturating_sub(played as u32),
                        info: &evaluation,
                    };
                    ValueFields::of(value, Color::Black, trust)
                }),
                line: l.moves,
            })
            .collect();
        Ok(TopReport {
            plies: query.plies,
            book_has_values: with_values,
            book_plies: info.options.plies(),
            lines,
        })
    }
}

fn valued_best(lines: Vec<ValuedLine>) -> Vec<(Line, Option<Score>)> {
    lines
        .into_iter()
        .map(|v| (v.line, Some(v.black_value)))
        .collect()
}

/// Each line with the value of the position it reaches for black (in a book with values).
fn line_values(book: &Book, lines: Vec<Line>) -> Result<Vec<(Line, Option<Score>)>, BookError> {
    let with_values = book.has_values();
    let mut rows = Vec::with_capacity(lines.len());
    for line in lines {
        let value = if with_values {
            book.try_line_value(&line.moves)?
        } else {
            None
        };
        rows.push((line, value));
    }
    Ok(rows)
}
