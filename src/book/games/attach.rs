//! Giving a book written without a game table (before format version 3) the table of its
//! games, keeping everything else, values included: the games are checked to be the book's
//! by building a book from them with the book's options and comparing the statistics.

use super::GameTable;
use crate::book::data::BookData;
use crate::book::{build, BookError};
use crate::transcript::GameRecord;

impl BookData {
    /// Attaches the table of `games` (replacing any table the book has), after checking that
    /// `games` built with the book's options give exactly the book's games, positions, moves
    /// and lines (positions and moves that `book deviate` added, which no game reached, are
    /// not compared). Values, sources and the date are kept.
    pub fn attach_games(&mut self, games: &[GameRecord]) -> Result<(), BookError> {
        let (rebuilt, _) = build(games, &self.info.options, self.info.created, &|_| {})?;
        let differ =
            |what: &str, detail: String| Err(BookError::GamesDiffer(format!("{what} {detail}")));
        if rebuilt.info.games != self.info.games {
            return differ(
                "the book counts",
                format!(
                    "{} games, these files give {} with its options",
                    self.info.games, rebuilt.info.games
                ),
            );
        }
        let played: Vec<_> = self
            .positions
            .iter()
            .filter(|p| p.stats.games() > 0)
            .collect();
        if played.len() != rebuilt.positions.len() {
            return differ(
                "the book holds",
                format!(
                    "{} positions, these games make {}",
                    played.len(),
                    rebuilt.positions.len()
                ),
            );
        }
        for (old, new) in played.iter().zip(&rebuilt.positions) {
            let moves = |d: &BookData, p: &crate::book::data::PosEntry| {
                let at = p.first_move as usize;
                d.moves
                    .get(at..at + usize::from(p.move_count))
                    .unwrap_or(&[])
                    .iter()
                    .filter(|m| m.stats.games() > 0)
                    .copied()
                    .collect::<Vec<_>>()
            };
            if old.key != new.key
                || old.stats != new.stats
                || moves(self, old) != moves(&rebuilt, new)
            {
                return differ(
                    "a position's statistics differ:",
                    format!(
                        "{:016x} {:016x} has {} games in the book, {} in these games",
                        old.key.player,
                        old.key.opponent,
                        old.stats.games(),
                        new.stats.games()
                    ),
                );
            }
        }
        if self.nodes != rebuilt.nodes {
            return differ(
                "the lines of the book",
                "differ from these games' lines".into(),
            );
        }
        self.games = rebuilt.games.or_else(|| Some(GameTable::default()));
        Ok(())
    }
}
