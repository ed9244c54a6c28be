//! The values of trie lines: what an evaluated book says of the position a line reaches,
//! and the lines of a `top` query ranked by it.
//!
//! Trie lines are played from the standard start, so a line's value is given for black
//! (black minus white), like the line's statistics.

use crate::board::{Color, Move, Position};
use crate::book::eval::Score;
use crate::book::reader::{Book, Line, RankBy, TopQuery};
use crate::book::BookError;

/// A line with the value of the position it reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValuedLine {
    /// The line and its games.
    pub line: Line,
    /// The value of the position at its end for black: `score` is black minus white.
    pub black_value: Score,
}

impl Book {
    /// The value of the position that `line` (moves from the standard start, passes
    /// optional) reaches, for black: `None` when the book holds no value for it. A line that
    /// cannot be played is an error naming the book, since lines come from its trie.
    pub fn try_line_value(&self, line: &[Move]) -> Result<Option<Score>, BookError> {
        let end = Position::START
            .replay(line.iter().copied())
            .map_err(|e| self.corrupt(&format!("trie line cannot be played ({e})")))?
            .end;
        Ok(self.try_value(&end.board)?.map(|v| match end.side {
            Color::Black => v,
            Color::White => v.negated(),
        }))
    }

    /// The lines of `query` ranked by the value of the position each reaches, best for black
    /// first, the most played first among equal values (`query.by` is not used). Lines whose
    /// position has no value are left out. Every line of the query is looked at, so this
    /// costs a probe per line of the asked length rather than per line returned.
    ///
    /// A book without games (imported from another program) has no lines of games: its lines
    /// are walked through its positions instead ([`Book::graph_lines_by_value`]).
    pub fn top_lines_by_value(&self, query: &TopQuery<'_>) -> Result<Vec<ValuedLine>, BookError> {
        if self.info().games == 0 {
            return self.graph_lines_by_value(query);
        }
        let all = self.top_lines(&TopQuery {
            limit: usize::MAX,
            by: RankBy::Games,
            ..*query
        })?;
        self.best_valued(all, query.limit)
    }

    /// The `limit` lines of `all` (most played first, ties in alphabetical order) whose
    /// position has a value, best for black first, then most played; lines without a value
    /// are left out. `all` may come from the book or be counted from its games.
    pub fn best_valued(&self, all: Vec<Line>, limit: usize) -> Result<Vec<ValuedLine>, BookError> {
        let mut valued = Vec::new();
        for line in all {
            if let Some(black_value) = self.try_line_value(&line.moves)? {
                valued.push(ValuedLine { line, black_value });
            }
        }
        // Stable: among equal values and games, trie (alphabetical) order is kept.
        valued.sort_by(|a, b| {
            b.black_value
                .score
                .cmp(&a.black_value.score)
                .then(b.line.stats.games().cmp(&a.line.stats.games()))
        });
        valued.truncate(limit);
        Ok(valued)
    }
}
