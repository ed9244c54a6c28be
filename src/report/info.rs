//! The info report: a book's header, counts, build options, values and sources.

use crate::book::{Book, BookError, PlayerColor};
use serde::{Deserialize, Serialize};

/// Everything `info` answers about a book.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InfoReport {
    /// The file as named by the caller.
    pub file: String,
    /// Where the default book was found, when the caller named no file (`in the current
    /// folder`, `named by $OTHBOOK_BOOK`...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found: Option<String>,
    /// Format version (1 without values, 2 with).
    pub version: u32,
    /// File size in bytes.
    pub bytes: u64,
    /// When the book's data was made, seconds since 1970 (UTC).
    pub created: u64,
    /// The same as ISO 8601 (`2022-01-01T00:00:00Z`).
    pub created_utc: String,
    /// Games in the book.
    pub games: u64,
    /// Positions (canonical: each counts once for its 8 images).
    pub positions: u64,
    /// Moves between positions.
    pub moves: u64,
    /// Nodes of the line trie.
    pub trie_nodes: u64,
    /// How the book was built.
    pub options: InfoOptions,
    /// What the values hold; `null` for a book without values.
    pub values: Option<InfoValues>,
    /// The book's table of games; `null` for a book without one (older or imported).
    pub game_table: Option<InfoGameTable>,
    /// The input files, sorted by name.
    pub sources: Vec<InfoSource>,
}

/// Build options as `othbook build` took them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InfoOptions {
    /// Plies of each game taken in.
    pub plies: u8,
    /// Positions, moves and lines seen in fewer games were left out.
    pub min_games: u32,
    /// Only games of a player whose name contains this (`null`: all).
    pub player: Option<String>,
    /// The side that player had: `either`, `black` or `white`.
    pub player_color: String,
    /// Only games of these years, `1990-2000` (`null`: all).
    pub years: Option<String>,
    /// Only games of an event whose name contains this (`null`: all).
    pub event: Option<String>,
    /// Only games played to the end.
    pub complete_only: bool,
}

/// What a book with values holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InfoValues {
    /// Leaf search depth in plies.
    pub depth: u8,
    /// Leaves of at most this many empties were solved exactly.
    pub exact_from: u8,
    /// Multi-ProbCut's confidence in the midgame leaf searches, percent (100: full width).
    pub selectivity: u8,
    /// Positions with a value.
    pub valued: u64,
    /// Positions whose leaf has not been searched.
    pub missing: u64,
    /// Positions added by deviation learning.
    pub added: u64,
}

/// What a book's game table holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InfoGameTable {
    /// Games stored.
    pub games: u64,
    /// Distinct player names.
    pub players: u64,
    /// Distinct event names.
    pub events: u64,
}

/// One input file of the book.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InfoSource {
    /// The file as named on the command line.
    pub name: String,
    /// Games read from it that replayed correctly.
    pub games_read: u64,
    /// Games that passed the filters and went into the book.
    pub games_used: u64,
}

impl InfoReport {
    /// The report of `book`, opened from `file`.
    pub fn build(book: &Book, file: &str) -> Result<InfoReport, BookError> {
        let info = book.info();
        let (positions, moves, trie_nodes) = book.counts();
        let o = &info.options;
        let f = o.filter();
        Ok(InfoReport {
            found: None,
            file: file.to_string(),
            version: book.version(),
            bytes: book.file_len() as u64,
            created: info.created,
            created_utc: crate::utc::iso8601(info.created),
            games: info.games,
            positions,
            moves,
            trie_nodes,
            options: InfoOptions {
                plies: o.plies(),
                min_games: o.min_games(),
                player: f.player().map(str::to_string),
                player_color: match f.player_color() {
                    PlayerColor::Either => "either",
                    PlayerColor::Black => "black",
                    PlayerColor::White => "white",
                }
                .to_string(),
                years: f.years().map(|y| {
                    let (a, b) = y.bounds();
                    format!("{a}-{b}")
                }),
                event: f.event().map(str::to_string),
                complete_only: f.complete_only(),
            },
            values: values_of(book)?,
            // Read, so checked.
            game_table: book.games()?.map(|t| {
                let names = t.name_counts();
                InfoGameTable {
                    games: t.len() as u64,
                    players: names.players.len() as u64,
                    events: names.events.len() as u64,
                }
            }),
            sources: info
                .sources
                .iter()
                .map(|s| InfoSource {
                    name: s.name.clone(),
                    games_read: s.games_read,
                    games_used: s.games_used,
                })
                .collect(),
        })
    }
}

fn values_of(book: &Book) -> Result<Option<InfoValues>, BookError> {
    let Some(e) = book.info().evaluation else {
        return Ok(None);
    };
    let data = book.to_data()?;
    let count = |f: &dyn Fn(&crate::book::PosEval) -> bool| {
        data.positions.iter().filter(|p| f(&p.eval)).count() as u64
    };
    Ok(Some(InfoValues {
        depth: e.depth,
        exact_from: e.exact_from,
        selectivity: e.selectivity,
        valued: count(&|e| e.value.is_some()),
        missing: count(&|e| !e.leaf.is_known()),
        added: count(&|e| e.added),
    }))
}
