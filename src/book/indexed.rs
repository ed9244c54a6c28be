//! A book's games read in place through the index of them (format version 5): a query reads
//! the posting list of its position and, for a filter, the records of those games only; the
//! games it lists are read one by one. A position the book does not hold (pruned, or deeper
//! than the book's plies) is answered by scanning the whole table, as in older books.

use crate::board::{Board, Symmetry};
use crate::book::format::{le64, Layout};
use crate::book::games::index::{Posting, NO_NEXT, POSTING_SIZE};
use crate::book::games::GAME_RECORD_SIZE;
use crate::book::games::{
    count_names, decode_names, decode_record, gather, packed_len, unpack_game, FilterError,
    GameExcerpt, GameSelection, GameTableError, Hit, PositionGames, StoredGame,
};
use crate::book::key::Canonical;
use crate::book::{Book, BookError, GameFilter};
use crate::transcript::people::NameCounts;

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

    fn table_error(&self, source: GameTableError) -> BookError {
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
        let games = (0..self.games)
            .map(|i| self.game(i))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(count_names(&self.names, games.into_iter()))
    }

    fn layout(&self) -> &Layout {
        self.book.layout()
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
        use crate::book::games::index::CHECKPOINT_GAMES;
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
    /// as [`GameTable::find`](crate::book::GameTable::find) on the whole table.
    pub fn find(
        &self,
        board: &Board,
        max_ply: usize,
        selection: Option<&GameSelection>,
        min_games: u64,
    ) -> Result<PositionGames, BookError> {
        let c = Canonical::of(board);
        let Some(p) = self.book.position_index(&c)? else {
            let table = self.book.games()?.unwrap_or_default();
            return table
                .find(board, max_ply, selection, min_games)
                .map_err(|e| self.book.table_error(e));
        };
        let (lo, hi) = self.posting_range(p)?;
        let hits = self.hits(&c, lo, hi, max_ply, selection)?;
        Ok(gather(board, hits, max_ply, min_games))
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
        let hits = self.hits(&c, lo, lo + take, max_ply, None)?;
        let mut found = gather(board, hits, max_ply, u64::MAX);
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

    /// The hits of posting entries `lo..hi` of the position `c` within `max_ply` plies,
    /// among the games `selection` accepts (all when `None`).
    fn hits(
        &self,
        c: &Canonical,
        lo: u64,
        hi: u64,
        max_ply: usize,
        selection: Option<&GameSelection>,
    ) -> Result<Vec<Hit>, BookError> {
        let l = self.layout();
        let entries = self.book.region(
            l.postings.start + lo as usize * POSTING_SIZE
                ..l.postings.start + hi as usize * POSTING_SIZE,
        )?;
        let key = Board::from_bits(c.key.player, c.key.opponent);
        let mut hits = Vec::with_capacity(entries.len() / POSTING_SIZE);
        for e in entries.chunks_exact(POSTING_SIZE) {
            let e = Posting::decode(e).ok_or_else(|| self.book.corrupt("game index entry"))?;
            let game = e.game as usize;
            if usize::from(e.ply) > max_ply {
                continue;
            }
            if let Some(s) = selection {
                if !s.accepts(&self.game(game)?) {
                    continue;
                }
            } else if game >= self.games {
                return Err(self.book.corrupt("game index entry past the games"));
            }
            hits.push(Hit {
                game,
                ply: usize::from(e.ply),
                next: (e.next != NO_NEXT).then_some(e.next),
                board: key.transform(Symmetry::ALL[usize::from(e.sym)].inverse()),
                result: e.result,
            });
        }
        Ok(hits)
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
