//! The openings report: named openings with their lines and how often the book saw each.

use super::line_text;
use crate::board::{Board, Move};
use crate::book::{Book, BookError};
use crate::openings::Openings;
use serde::{Deserialize, Serialize};

/// Everything `openings` answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningsReport {
    /// The text names were matched against (case-insensitive substring); `null`: all.
    pub search: Option<String>,
    /// Games in the whole book.
    pub book_games: u64,
    /// The openings, in the table's order (by line).
    pub openings: Vec<OpeningRow>,
}

/// One named opening.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningRow {
    /// Its name (alternative names joined with ` / `).
    pub name: String,
    /// Its moves from the start, first move f5.
    #[serde(with = "line_text")]
    pub moves: Vec<Move>,
    /// Its length in plies.
    pub plies: usize,
    /// Games of the book reaching its position (any orientation, any move order); `null`
    /// when the book does not hold the position (deeper than the book, or played in fewer
    /// games than the book's minimum).
    pub games: Option<u64>,
}

impl OpeningsReport {
    /// The openings of `table` whose name contains `search` (all without), with their games
    /// in `book`.
    pub fn build(
        book: &Book,
        table: &Openings,
        search: Option<&str>,
    ) -> Result<OpeningsReport, BookError> {
        let list = match search {
            Some(text) => table.matching(text),
            None => table.all().iter().collect(),
        };
        let mut openings = Vec::with_capacity(list.len());
        for o in list {
            let end = o
                .moves
                .iter()
                .try_fold(Board::START, |b, m| b.play_move(*m).ok())
                .expect("opening tables are checked when loaded");
            openings.push(OpeningRow {
                name: o.name.clone(),
                moves: o.moves.clone(),
                plies: o.moves.len(),
                games: book.try_probe(&end)?.map(|s| s.games()),
            });
        }
        Ok(OpeningsReport {
            search: search.map(str::to_string),
            book_games: book.info().games,
            openings,
        })
    }
}
