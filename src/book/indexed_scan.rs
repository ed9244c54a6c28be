//! Queries that read a book's games one after the other where they lie, in parallel runs
//! (each run's records and packed moves read at once; the table is never read whole into
//! memory): the positions a book with an index of its games does not hold (pruned, or deeper
//! than its plies), where only a game whose filled squares match the position after the
//! right number of moves is unpacked and replayed (the test of the in-memory scan,
//! [`GameTable::find`](crate::book::GameTable::find)); and a filtered `top`, which reads the
//! first moves of the games the filter keeps. A filter of years reads only those years' run.

use crate::board::Board;
use crate::book::format::le64;
use crate::book::games::index::CHECKPOINT_GAMES;
use crate::book::games::{
    decode_record, filter_fields, gather, packed_codes, packed_len, unpack_game, GameSelection,
    Hit, LineCounter, PositionGames, Probe, GAME_RECORD_SIZE,
};
use crate::book::indexed::IndexedGames;
use crate::book::{BookError, Line, TopQuery};
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
        let runs = self.runs(games, |run, from| {
            let mut hits = Vec::new();
            self.scan_run(run, from, &probe, max_ply, selection, &mut hits)?;
            Ok(hits)
        })?;
        Ok(gather(
            board,
            runs.into_iter().flatten(),
            max_ply,
            min_games,
            listed,
        ))
    }

    /// The lines `query` asks for among the games `selection` keeps within their first
    /// `max_plies` plies: [`GameTable::top_lines`](crate::book::GameTable::top_lines)'s
    /// answer.
    pub fn top_lines(
        &self,
        query: &TopQuery<'_>,
        max_plies: usize,
        selection: &GameSelection,
    ) -> Result<Vec<Line>, BookError> {
        let Some(empty) = LineCounter::new(query, max_plies) else {
            return Ok(Vec::new());
        };
        let games = match selection.filter().years() {
            Some(years) => self.year_games(years)?,
            None => 0..self.len() as u64,
        };
        let check = selection.reads_records();
        let counters = self.runs(games, |run, from| {
            let mut counter = empty.clone();
            let plies = counter.plies();
            let mut codes = Vec::with_capacity(plies);
            self.each_game(run, from, |i, r, packed| {
                let len = r[23] >> 1;
                if usize::from(len) < plies || check && !selection.accepts(&filter_fields(r)) {
                    return Ok(());
                }
                let table_error = |e| self.book().table_error(e);
                let g = decode_record(r, i, self.names_len()).map_err(table_error)?;
                codes.clear();
                unpack_game(packed, plies as u8, i, &mut codes).map_err(table_error)?;
                counter.add(&codes, g.result);
                Ok(())
            })?;
            Ok(counter)
        })?;
        Ok(counters
            .into_iter()
            .reduce(LineCounter::merge)
            .unwrap_or(empty)
            .lines(query))
    }

    /// `work(run, from)` on runs of the games `games` in parallel, in table order: each run
    /// starts at a checkpoint (where its first game's moves are found), and `from` is the
    /// first game it is to read.
    fn runs<T: Send>(
        &self,
        games: Range<u64>,
        work: impl Fn(Range<usize>, usize) -> Result<T, BookError> + Sync,
    ) -> Result<Vec<T>, BookError> {
        let (from, end) = (games.start as usize, games.end as usize);
        let first = from - from % CHECKPOINT_GAMES;
        let starts: Vec<usize> = (first..end).step_by(RUN_GAMES).collect();
        starts
            .into_par_iter()
            .map(|r| work(r..end.min(r + RUN_GAMES), from))
            .collect()
    }

    /// Calls `each(i, record, packed moves)` for the games of `run` (which starts at a
    /// checkpoint) from game `from` on; the run's records and moves are read at once.
    fn each_game(
        &self,
        run: Range<usize>,
        from: usize,
        mut each: impl FnMut(usize, &[u8], &[u8]) -> Result<(), BookError>,
    ) -> Result<(), BookError> {
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
        let mut offset = 0;
        for (k, r) in records.chunks_exact(GAME_RECORD_SIZE).enumerate() {
            let packed = &moves[offset..offset + packed_len(r[23] >> 1)];
            offset += packed.len();
            if run.start + k >= from {
                each(run.start + k, r, packed)?;
            }
        }
        Ok(())
    }

    /// Adds to `hits` the games of `run` from game `from` on that reach the probe's position
    /// and pass `selection`.
    fn scan_run(
        &self,
        run: Range<usize>,
        from: usize,
        probe: &Probe,
        max_ply: usize,
        selection: Option<&GameSelection>,
        hits: &mut Vec<Hit>,
    ) -> Result<(), BookError> {
        let check = selection.filter(|s| s.reads_records());
        let mut codes = Vec::with_capacity(64);
        self.each_game(run, from, |i, r, packed| {
            let len = r[23] >> 1;
            if usize::from(len) < probe.placed()
                || check.is_some_and(|s| !s.accepts(&filter_fields(r)))
            {
                return Ok(());
            }
            if !probe.may_reach(packed_codes(packed, len)) {
                return Ok(());
            }
            let table_error = |e| self.book().table_error(e);
            codes.clear();
            unpack_game(packed, len, i, &mut codes).map_err(table_error)?;
            let g = decode_record(r, i, self.names_len()).map_err(table_error)?;
            hits.extend(
                probe
                    .reaches(&codes, i, g.result, max_ply)
                    .map_err(table_error)?,
            );
            Ok(())
        })
    }
}
