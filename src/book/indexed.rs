//! A book's games read in place through the index of them (format version 5): a query reads
//! the posting list of its position and, for a filter, the records of those games only; the
//! games it lists are read one by one. A filter of years reads only the run of games of those
//! years (the table is in year order). A position the book does not hold (pruned, or deeper
//! than the book's plies) is answered by scanning the games' moves in place
//! (`indexed_scan.rs`).

use crate::board::{Board, Symmetry};
use crate::book::format::{le32, le64, Layout};
use crate::book::games::index::{Posting, CHECKPOINT_GAMES, NO_NEXT, POSTING_SIZE};
use crate::book::games::GAME_RECORD_SIZE;
use crate::book::games::{
    count_names, decode_names, decode_record, filter_fields, packed_len, unpack_game, FilterError,
    GameExcerpt, GameSelection, GameTableError, PositionGames, StoredGame, Tally,
};
use crate::book::key::Canonical;
use crate::book::{Book, BookError, GameFilter, Years};
use crate::transcript::people::NameCounts;
use rayon::prelude::*;

/// Posting entries one task of a long query scans (a few in tests, whose books are small, so
/// that the parts and their merge are tested).
#[cfg(not(test))]
const SCAN_CHUNK: u64 = 1 << 16;
#[cfg(test)]
const SCAN_CHUNK: u64 = 7;

/// The game records a scan reads from.
enum Records<'a> {
    /// Those of games `first..`, read at once.
    Span { first: usize, bytes: &'a [u8] },
    /// Each read when needed.
    None,
}

/// The games of a book with an index of them, read in place.
pub struct IndexedGames<'a> {
    book: &'a Book,
    names: Vec<String>,
    uses: Vec<u8>,
    games: usize,
}

impl Book {
    /// The book's games read in place through their index (`None`: the book has no index;
    /// read its whole table with [`Book::games`]). The names are read and checked now.
    pub fn indexed_games(&self) -> Result<Option<IndexedGames<'_>>, BookError> {
        let (Some(size), Some(_)) = (&self.header().game_table, &self.header().game_index) else {
            return Ok(None);
        };
        let l = self.layout();
        let names = decode_names(
            self.region(l.name_offsets.clone())?,
            self.region(l.name_bytes.clone())?,
        )
        .map_err(|e| self.table_error(e))?;
        Ok(Some(IndexedGames {
            book: self,
            names,
            uses: self.region(l.name_uses.clone())?.to_vec(),
            games: usize::try_from(size.games).map_err(|_| self.corrupt("game count"))?,
        }))
    }

    pub(super) fn table_error(&self, source: GameTableError) -> BookError {
        BookError::GameTable {
            path: self.path_name().to_string(),
            source,
        }
    }
}

impl IndexedGames<'_> {
    /// Number of games.
    #[must_use]
    pub fn len(&self) -> usize {
        self.games
    }

    /// Whether the book holds no game.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.games == 0
    }

    /// `filter` ready for these games; a player or event text that no name contains is
    /// the inner error, naming the closest names (found by reading every record).
    pub fn selection(
        &self,
        filter: &GameFilter,
    ) -> Result<Result<GameSelection, FilterError>, BookError> {
        let mut failed = None;
        let chosen = GameSelection::for_names(filter, &self.names, &self.uses, || {
            self.name_counts().unwrap_or_else(|e| {
                failed = Some(e);
                NameCounts::default()
            })
        });
        match failed {
            Some(e) => Err(e),
            None => Ok(chosen),
        }
    }

    /// Games per player, event and year, read from every record.
    pub fn name_counts(&self) -> Result<NameCounts, BookError> {
        let start = self.layout().games.start;
        let records = self
            .book
            .region(start..start + self.games * GAME_RECORD_SIZE)?;
        // Counted as they are decoded: the games are never all held at once.
        let mut failed = None;
        let games = records
            .chunks_exact(GAME_RECORD_SIZE)
            .enumerate()
            .map_while(|(i, r)| match decode_record(r, i, self.names.len()) {
                Ok(g) => Some(g),
                Err(e) => {
                    failed = Some(e);
                    None
                }
            });
        let counts = count_names(&self.names, games);
        match failed {
            Some(e) => Err(self.book.table_error(e)),
            None => Ok(counts),
        }
    }

    pub(super) fn layout(&self) -> &Layout {
        self.book.layout()
    }

    /// The book the games are read from.
    pub(super) fn book(&self) -> &Book {
        self.book
    }

    /// Number of names.
    pub(super) fn names_len(&self) -> usize {
        self.names.len()
    }

    /// Game record `i`, checked.
    pub fn game(&self, i: usize) -> Result<StoredGame, BookError> {
        if i >= self.games {
            return Err(self.book.corrupt("game index entry past the games"));
        }
        let at = self.layout().games.start + i * GAME_RECORD_SIZE;
        decode_record(
            self.book.region(at..at + GAME_RECORD_SIZE)?,
            i,
            self.names.len(),
        )
        .map_err(|e| self.book.table_error(e))
    }

    /// The move codes of game `i` (square 0-63, 64 a pass), found from the nearest
    /// checkpoint before it.
    pub fn codes(&self, i: usize) -> Result<Vec<u8>, BookError> {
        let game = self.game(i)?;
        let l = self.layout();
        let first = i - i % CHECKPOINT_GAMES;
        let at = l.checkpoints.start + 8 * (first / CHECKPOINT_GAMES);
        let mut start = le64(self.book.region(at..at + 8)?, 0);
        let records = self.book.region(
            l.games.start + first * GAME_RECORD_SIZE..l.games.start + i * GAME_RECORD_SIZE,
        )?;
        for r in records.chunks_exact(GAME_RECORD_SIZE) {
            start += packed_len(r[23] >> 1) as u64;
        }
        let end = start + packed_len(game.moves_len) as u64;
        if end > l.game_moves.len() as u64 {
            return Err(self.book.corrupt("game move checkpoint"));
        }
        let moves = l.game_moves.start + start as usize..l.game_moves.start + end as usize;
        let mut codes = Vec::with_capacity(usize::from(game.moves_len));
        unpack_game(self.book.region(moves)?, game.moves_len, i, &mut codes)
            .map_err(|e| self.book.table_error(e))?;
        Ok(codes)
    }

    /// The games that reach `board` (any orientation, any move order) within their first
    /// `max_ply` plies, among those `selection` accepts (all when `None`): the same answer
    /// as [`GameTable::find`](crate::book::GameTable::find) on the whole table, with only the
    /// first `listed` matches kept when it is given (all are counted).
    pub fn find(
        &self,
        board: &Board,
        max_ply: usize,
        selection: Option<&GameSelection>,
        min_games: u64,
        listed: Option<usize>,
    ) -> Result<PositionGames, BookError> {
        let c = Canonical::of(board);
        let Some(p) = self.book.position_index(&c)? else {
            return self.scan_find(board, max_ply, selection, min_games, listed);
        };
        let (lo, hi) = self.posting_range(p)?;
        let tally = self.tally(board, &c, (lo, hi), max_ply, selection, listed)?;
        Ok(tally.finish(board, min_games))
    }

    /// The first `keep` games of [`IndexedGames::find`]'s answer without a filter, with
    /// its total and statistics, reading only the posting entries of those games: the
    /// position record's statistics are the index's when they count as many games as the
    /// posting list holds (then every game reached the position within the book's plies,
    /// each once). `None` when they are not (games that reached it later, after passes),
    /// when `max_ply` is below the book's plies, or the book does not hold the position:
    /// [`IndexedGames::find`] answers then. The moves are not counted.
    pub fn first(
        &self,
        board: &Board,
        max_ply: usize,
        keep: usize,
    ) -> Result<Option<PositionGames>, BookError> {
        let c = Canonical::of(board);
        let plies = usize::from(self.book.header().options.plies());
        let Some(p) = self.book.position_index(&c)?.filter(|_| max_ply >= plies) else {
            return Ok(None);
        };
        let (lo, hi) = self.posting_range(p)?;
        let Some(record) = self.book.find(&c)? else {
            return Ok(None);
        };
        if record.stats.games() != hi - lo {
            return Ok(None);
        }
        let take = (hi - lo).min(keep as u64);
        let tally = self.tally(board, &c, (lo, lo + take), max_ply, None, None)?;
        let mut found = tally.finish(board, u64::MAX);
        found.total = (hi - lo) as usize;
        found.stats = record.stats;
        found.moves.clear();
        Ok(Some(found))
    }

    /// Where the posting entries of position `p` are, checked.
    fn posting_range(&self, p: usize) -> Result<(u64, u64), BookError> {
        let l = self.layout();
        let at = l.posting_offsets.start + 8 * p;
        let offsets = self.book.region(at..at + 16)?;
        let (lo, hi) = (le64(offsets, 0), le64(offsets, 8));
        let count = (l.postings.len() / POSTING_SIZE) as u64;
        if lo > hi || hi > count {
            return Err(self.book.corrupt("game index offsets"));
        }
        Ok((lo, hi))
    }

    /// What the games of posting entries `lo..hi` of the position `c` (the canonical form of
    /// `board`) add up to, within `max_ply` plies and among the games `selection` accepts
    /// (all when `None`), the first `listed` kept. A long list is scanned in parallel, in
    /// chunks merged in the table's order.
    fn tally(
        &self,
        board: &Board,
        c: &Canonical,
        (lo, hi): (u64, u64),
        max_ply: usize,
        selection: Option<&GameSelection>,
        listed: Option<usize>,
    ) -> Result<Tally, BookError> {
        let (lo, hi) = match selection.and_then(|s| s.filter().years()) {
            Some(years) => self.within_years(lo, hi, years)?,
            None => (lo, hi),
        };
        // Within the years' run of games, a filter of years alone keeps every game.
        let selection = selection.filter(|s| s.reads_records());
        // Per orientation of an entry (its `sym`), the symmetry that shows the game's board
        // as the caller's.
        let key = Board::from_bits(c.key.player, c.key.opponent);
        let to_caller = Symmetry::ALL.map(|s| {
            let reached = key.transform(s.inverse());
            Symmetry::ALL
                .iter()
                .position(|t| reached.transform(*t) == *board)
                .unwrap_or(0)
        });
        let scan = |lo: u64| {
            let mut tally = Tally::new(max_ply, listed);
            let range = (lo, hi.min(lo + SCAN_CHUNK));
            self.scan(range, max_ply, selection, &to_caller, &mut tally)?;
            Ok(tally)
        };
        if hi - lo <= SCAN_CHUNK {
            return scan(lo);
        }
        let starts: Vec<u64> = (lo..hi).step_by(SCAN_CHUNK as usize).collect();
        let parts = starts
            .into_par_iter()
            .map(scan)
            .collect::<Result<Vec<_>, BookError>>()?;
        Ok(parts
            .into_iter()
            .reduce(Tally::merge)
            .unwrap_or_else(|| Tally::new(max_ply, listed)))
    }

    /// Adds the games of posting entries `lo..hi` to `tally` (see [`IndexedGames::tally`]).
    fn scan(
        &self,
        (lo, hi): (u64, u64),
        max_ply: usize,
        selection: Option<&GameSelection>,
        to_caller: &[usize; 8],
        tally: &mut Tally,
    ) -> Result<(), BookError> {
        let l = self.layout();
        let entries = self.book.region(
            l.postings.start + lo as usize * POSTING_SIZE
                ..l.postings.start + hi as usize * POSTING_SIZE,
        )?;
        let records = match selection {
            Some(_) => self.records_of(entries)?,
            None => Records::None,
        };
        for e in entries.chunks_exact(POSTING_SIZE) {
            let e = Posting::decode(e).ok_or_else(|| self.book.corrupt("game index entry"))?;
            let game = e.game as usize;
            if game >= self.games {
                return Err(self.book.corrupt("game index entry past the games"));
            }
            if usize::from(e.ply) > max_ply {
                continue;
            }
            if let Some(s) = selection {
                // Lists out of order (a damaged book) fall back on reading the record alone.
                let spanned = match &records {
                    Records::Span { first, bytes } => game
                        .checked_sub(*first)
                        .and_then(|k| bytes.get(k * GAME_RECORD_SIZE..(k + 1) * GAME_RECORD_SIZE)),
                    Records::None => None,
                };
                let g = match spanned {
                    Some(r) => filter_fields(r),
                    None => self.game(game)?,
                };
                if !s.accepts(&g) {
                    continue;
                }
            }
            let next = (e.next != NO_NEXT).then_some(e.next);
            tally.add(
                game,
                usize::from(e.ply),
                next,
                to_caller[usize::from(e.sym)],
                e.result,
            );
        }
        Ok(())
    }

    /// The records of the games of posting `entries`, read at once when they are dense in
    /// the table (most games of the span are listed: one read instead of one a game).
    fn records_of(&self, entries: &[u8]) -> Result<Records<'_>, BookError> {
        let game_at = |e: &[u8]| le32(e, 0) as usize;
        let (Some(first), Some(last)) = (
            entries.chunks_exact(POSTING_SIZE).next().map(game_at),
            entries.chunks_exact(POSTING_SIZE).last().map(game_at),
        ) else {
            return Ok(Records::None);
        };
        let listed = entries.len() / POSTING_SIZE;
        if last < first || last >= self.games || last - first >= 4 * listed {
            return Ok(Records::None);
        }
        let start = self.layout().games.start;
        let bytes = self
            .book
            .region(start + first * GAME_RECORD_SIZE..start + (last + 1) * GAME_RECORD_SIZE)?;
        Ok(Records::Span { first, bytes })
    }

    /// The games played in `years`: one run of game indices, the table being in year order
    /// (newest first, unknown last: docs/book-format.md).
    pub(super) fn year_games(&self, years: Years) -> Result<std::ops::Range<u64>, BookError> {
        // Year 0 stands for an unknown year, which no range holds.
        let (from, to) = years.bounds();
        let from = from.max(1);
        let games = self.games as u64;
        let first = partition(0, games, |i| Ok(self.year(i)? > to))?;
        let end = partition(first, games, |i| Ok(self.year(i)? >= from))?;
        Ok(first..end)
    }

    /// Posting entries `lo..hi` narrowed to the games played in `years` (one run of game
    /// indices): each posting list is in table order.
    fn within_years(&self, lo: u64, hi: u64, years: Years) -> Result<(u64, u64), BookError> {
        let games = self.year_games(years)?;
        let a = partition(lo, hi, |e| Ok(self.posting_game(e)? < games.start))?;
        let b = partition(a, hi, |e| Ok(self.posting_game(e)? < games.end))?;
        Ok((a, b))
    }

    /// The year field of game record `i` (0: unknown).
    fn year(&self, i: u64) -> Result<u16, BookError> {
        let at = self.layout().games.start + i as usize * GAME_RECORD_SIZE;
        let r = self.book.region(at..at + GAME_RECORD_SIZE)?;
        Ok(filter_fields(r).year.unwrap_or(0))
    }

    /// The game of posting entry `e`.
    fn posting_game(&self, e: u64) -> Result<u64, BookError> {
        let at = self.layout().postings.start + e as usize * POSTING_SIZE;
        let b = self.book.region(at..at + 4)?;
        Ok(u64::from(le32(b, 0)))
    }

    /// The games `ids`, read, with the names.
    pub fn excerpt(&self, ids: impl IntoIterator<Item = usize>) -> Result<GameExcerpt, BookError> {
        let mut games = std::collections::BTreeMap::new();
        for i in ids {
            games.insert(i, (self.game(i)?, self.codes(i)?));
        }
        Ok(GameExcerpt {
            names: self.names.clone(),
            games,
        })
    }
}

/// The first index of `lo..hi` where `before` is false, `before` being true on a prefix of
/// the range and false after it (a binary search whose probes may fail).
fn partition(
    mut lo: u64,
    mut hi: u64,
    before: impl Fn(u64) -> Result<bool, BookError>,
) -> Result<u64, BookError> {
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if before(mid)? {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    Ok(lo)
}
