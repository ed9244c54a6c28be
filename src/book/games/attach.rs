//! Giving a book written without a game table (before format version 3) the table of its
//! games, keeping everything else, values included: the games are checked to be the book's
//! by building a book from them with the book's options and comparing the statistics.

use super::difference::GamesDifference;
use super::GameTable;
use crate::book::data::{BookData, PosEntry};
use crate::book::{build, BookError, MinGames};
use crate::transcript::GameRecord;

impl BookData {
    /// Attaches the table of `games` (replacing any table the book has), after checking that
    /// `games` built with the book's options give exactly the book's games, positions, moves
    /// and lines (positions and moves that `book deviate` added, which no game reached, are
    /// not compared). Values, sources and the date are kept.
    pub fn attach_games(&mut self, games: &[GameRecord]) -> Result<(), BookError> {
        let (rebuilt, _) = build(games, &self.info.options, self.info.created, &|_| {})?;
        let differ = |d| Err(BookError::GamesDiffer(d));
        if rebuilt.info.games != self.info.games {
            return differ(GamesDifference::Games {
                book: self.info.games,
                given: rebuilt.info.games,
            });
        }
        let played: Vec<_> = self
            .positions
            .iter()
            .filter(|p| p.stats.games() > 0)
            .collect();
        if played.len() != rebuilt.positions.len() {
            return differ(GamesDifference::Positions {
                book: played.len(),
                given: rebuilt.positions.len(),
            });
        }
        let moves = |d: &BookData, p: &PosEntry| {
            let at = p.first_move as usize;
            d.moves
                .get(at..at + usize::from(p.move_count))
                .unwrap_or(&[])
                .iter()
                .filter(|m| m.stats.games() > 0)
                .copied()
                .collect::<Vec<_>>()
        };
        for (old, new) in played.iter().zip(&rebuilt.positions) {
            if old.key != new.key
                || old.stats != new.stats
                || moves(self, old) != moves(&rebuilt, new)
            {
                return differ(GamesDifference::Position {
                    key: old.key,
                    book: old.stats.games(),
                    given: new.stats.games(),
                });
            }
        }
        if self.nodes != rebuilt.nodes {
            return differ(GamesDifference::Lines);
        }
        self.games = rebuilt.games.or_else(|| Some(GameTable::default()));
        self.game_index = true;
        Ok(())
    }
}

impl BookData {
    /// [`BookData::merge`], counting identical games once (the same line up to the
    /// symmetries of the start, as `--dedupe` reads games): the statistics are built again
    /// from the merged game table without its repeats, and the values of the merged books
    /// kept position by position (then checked and negamaxed again). Every book must hold
    /// its games.
    pub fn merge_deduped(books: &[BookData], min_games: MinGames) -> Result<BookData, BookError> {
        if let Some(i) = books.iter().position(|b| b.games.is_none()) {
            return Err(BookError::Merge(format!(
                "book {} has no game table, so its repeated games cannot be found",
                i + 1
            )));
        }
        let merged = BookData::merge(books, min_games)?;
        let Some(table) = &merged.games else {
            return Ok(merged);
        };
        let kept = table.deduped();
        if kept.len() == table.len() {
            return Ok(merged);
        }
        let records: Vec<GameRecord> = (0..kept.len()).filter_map(|i| kept.record(i)).collect();
        let (mut data, _) = build(&records, &merged.info.options, merged.info.created, &|_| {})?;
        let used = kept.name_counts_of_sources();
        data.info.sources = merged
            .info
            .sources
            .iter()
            .map(|s| crate::book::Source {
                games_used: used.get(s.name.as_str()).copied().unwrap_or(0),
                ..s.clone()
            })
            .collect();
        if merged.info.evaluation.is_some() {
            let evals: std::collections::HashMap<_, _> =
                merged.positions.iter().map(|p| (p.key, p.eval)).collect();
            for p in &mut data.positions {
                if let Some(e) = evals.get(&p.key) {
                    p.eval = *e;
                }
            }
            data.info.evaluation = merged.info.evaluation.clone();
            data.relink();
        }
        Ok(data)
    }
}
