//! Positions a book with an index of its games does not hold (pruned, or deeper than its
//! plies), found in its games where they lie: the packed moves of a run of games are read
//! at once, in parallel runs, and only a game whose filled squares match the position after
//! the right number of moves is unpacked and replayed (the test of the in-memory scan,
//! [`GameTable::find`](crate::book::GameTable::find)). Nothing is decoded for the other
//! games beyond their first moves, and the table is never read whole into memory.

use crate::board::Board;
use crate::book::format::le64;
use crate::book::games::index::CHECKPOINT_GAMES;
use crate::book::games::{
    decode_record, filter_fields, gather, packed_len, squares_filled, unpack_game, GameSelection,
    Hit, PositionGames, Probe, GAME_RECORD_SIZE,
};
use crate::book::indexed::IndexedGames;
use crate::book::BookError;
use rayon::prelude::*;
use std::ops::Range;

/// Games one task reads (a multiple of the checkpoints' spacing; a few in tests, whose
/// books are small, so that the runs and their order are tested).
#[cfg(not(test))]
const RUN_GAMES: usize = 1 << 15;
#[cfg(test)]
const RUN_GAMES: usize = CHECKPOINT_GAMES;

impl IndexedGames<'_> {
    /// [`IndexedGames::find`]'s answer for a position the book does not hold.
    pub(crate) fn scan_find(
        &self,
        board: &Board,
        max_ply: usize,
        selection: Option<&GameSelection>,
        min_games: u64,
        listed: Option<usize>,
    ) -> Result<PositionGames, BookError> {
        let probe = Probe::new(board);
        let games = match selection.and_then(|s| s.filter().years()) {
            Some(years) => self.year_games(years)?,
            None => 0..self.len() as u64,
        };
        let (from, end) = (games.start as usize, games.end as usize);
        // Each run starts at a checkpoint, where its first game's moves are found.
        let first = from - from % CHECKPOINT_GAMES;
        let starts: Vec<usize> = (first..end).step_by(RUN_GAMES).collect();
        let runs = starts
            .into_par_iter()
            .map(|r| self.scan_run(r..end.min(r + RUN_GAMES), from, &probe, max_ply, selection))
            .collect::<Result<Vec<_>, BookError>>()?;
        Ok(gather(
            board,
            runs.into_iter().flatten(),
            max_ply,
            min_games,
            listed,
        ))
    }

    /// The games of `run` (which starts at a checkpoint), from game `from` on, that reach
    /// the probe's position and pass `selection`.
    fn scan_run(
        &self,
        run: Range<usize>,
        from: usize,
        probe: &Probe,
        max_ply: usize,
        selection: Option<&GameSelection>,
    ) -> Result<Vec<Hit>, BookError> {
        let l = self.layout();
        let book = self.book();
        let at = l.checkpoints.start + 8 * (run.start / CHECKPOINT_GAMES);
        let start = le64(book.region(at..at + 8)?, 0) as usize;
        let records = book.region(
            l.games.start + run.start * GAME_RECORD_SIZE
                ..l.games.start + run.end * GAME_RECORD_SIZE,
        )?;
        let span: usize = records
            .chunks_exact(GAME_RECORD_SIZE)
            .map(|r| packed_len(r[23] >> 1))
            .sum();
        if start + span > l.game_moves.len() {
            return Err(book.corrupt("game move checkpoint"));
        }
        let moves = book.region(l.game_moves.start + start..l.game_moves.start + start + span)?;
        let check = selection.filter(|s| s.reads_records());
        let (mut offset, mut codes, mut hits) = (0, Vec::with_capacity(64), Vec::new());
        for (k, r) in records.chunks_exact(GAME_RECORD_SIZE).enumerate() {
            let (i, len) = (run.start + k, r[23] >> 1);
            let packed = &moves[offset..offset + packed_len(len)];
            offset += packed.len();
            if i < from || usize::from(len) < probe.placed() {
                continue;
            }
            if check.is_some_and(|s| !s.accepts(&filter_fields(r))) {
                continue;
            }
            let may =
                squares_filled(packed, len, probe.placed()).is_some_and(|f| probe.may_reach(f));
            if !may {
                continue;
            }
            let table_error = |e| book.table_error(e);
            codes.clear();
            unpack_game(packed, len, i, &mut codes).map_err(table_error)?;
            let g = decode_record(r, i, self.names_len()).map_err(table_error)?;
            hits.extend(
                probe
                    .reaches(&codes, i, g.result, max_ply)
                    .map_err(table_error)?,
            );
        }
        Ok(hits)
    }
}
