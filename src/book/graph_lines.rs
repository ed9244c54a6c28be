//! Lines through the book's positions instead of its trie of game lines: what `top --by
//! value` ranks in a book that holds no games (one imported from Edax or Egaroucid).

use crate::board::{Color, Move, Position};
use crate::book::key::Canonical;
use crate::book::line_values::ValuedLine;
use crate::book::negamax::distinct_moves;
use crate::book::reader::{Book, Line, TopQuery};
use crate::book::stats::Stats;
use crate::book::BookError;

/// Most positions a walk visits before it gives up (transpositions make the number of lines
/// grow fast with their length).
pub const MAX_VISITS: u64 = 20_000_000;

impl Book {
    /// The lines of `query.plies` plies from the start (first move `query.first`) or from
    /// `query.start`, each move leading to a position of the book, ranked by the value of the
    /// position each reaches, best for black first. Moves that a position's symmetry makes
    /// equivalent are followed once (by the first in square order), so each line stands for
    /// its images. Lines come back in the orientation of `query.start`. The walk stops with
    /// an error after [`MAX_VISITS`] positions.
    pub fn graph_lines_by_value(&self, query: &TopQuery<'_>) -> Result<Vec<ValuedLine>, BookError> {
        let start: Vec<Move> = if query.start.is_empty() {
            vec![Move::Play(query.first)]
        } else {
            query.start.to_vec()
        };
        if query.plies < start.len() || query.limit == 0 {
            return Ok(Vec::new());
        }
        let Ok(replay) = Position::START.replay(start.iter().copied()) else {
            return Ok(Vec::new());
        };
        let mut walk = Walk {
            book: self,
            plies: query.plies,
            limit: query.limit,
            visits: 0,
            found: Vec::new(),
        };
        let mut line = start;
        if self.find(&Canonical::of(&replay.end.board))?.is_some() {
            walk.visit(replay.end, &mut line)?;
        }
        walk.keep_best(walk.limit);
        Ok(walk.found)
    }
}

struct Walk<'a> {
    book: &'a Book,
    plies: usize,
    limit: usize,
    visits: u64,
    found: Vec<ValuedLine>,
}

impl Walk<'_> {
    fn visit(&mut self, pos: Position, line: &mut Vec<Move>) -> Result<(), BookError> {
        self.visits += 1;
        if self.visits > MAX_VISITS {
            return Err(BookError::Options(format!(
                "more than {MAX_VISITS} positions on lines of {} plies through the book: \
                 give a start line or fewer plies",
                self.plies
            )));
        }
        if line.len() == self.plies {
            if let Some(v) = self.book.try_value(&pos.board)? {
                let black_value = match pos.side {
                    Color::Black => v,
                    Color::White => v.negated(),
                };
                self.found.push(ValuedLine {
                    line: Line {
                        moves: line.clone(),
                        stats: Stats::default(),
                    },
                    black_value,
                });
                if self.found.len() >= 4 * self.limit.min(1 << 20) + 1024 {
                    self.keep_best(self.limit);
                }
            }
            return Ok(());
        }
        let c = Canonical::of(&pos.board);
        for (mv, _) in distinct_moves(&pos.board, &c) {
            let child = pos.play(mv).expect("a playable move");
            if self.book.find(&Canonical::of(&child.board))?.is_some() {
                line.push(mv);
                self.visit(child, line)?;
                line.pop();
            }
        }
        Ok(())
    }

    /// Keeps the `n` best lines: highest value for black first, equal values in the order
    /// found (square order along the line).
    fn keep_best(&mut self, n: usize) {
        self.found
            .sort_by_key(|l| std::cmp::Reverse(l.black_value.score));
        self.found.truncate(n);
    }
}
