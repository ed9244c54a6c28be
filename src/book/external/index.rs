//! The index of the games of a book merged front to back (format version 5): counted before
//! the header is written (it records the index's size), then written after the game table,
//! as the book written from memory writes it. The merged game table is read from its
//! temporary files, a batch of games at a time, once to count and once per window of the
//! postings; each game is replayed and its positions looked up by key in the merged
//! position table (its keys read from its temporary file).

use super::temp::{spill_error, to_io, TempFile};
use crate::book::format::{bucket_bits_for, bucket_of, le32, le64, write_index, POS_SIZE};
use crate::book::games::index::{mark_uses, write_checkpoints, IndexPlan, IndexSource};
use crate::book::games::{packed_len, unpack_game, GAME_RECORD_SIZE};
use crate::book::key::{stable_hash, Key};
use crate::book::BookError;
use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// The keys of the merged position table, in table order, with its bucket index: the
/// lookup of the replays (16 bytes a position, where the records take 48).
pub(super) struct MergedPositions {
    keys: Vec<Key>,
    buckets: Vec<u8>,
    bits: u8,
    max_discs: u32,
}

impl MergedPositions {
    /// Reads the keys of the `count` position records of `file`.
    pub fn read(file: &mut TempFile, count: usize) -> Result<MergedPositions, BookError> {
        let mut input = BufReader::with_capacity(1 << 16, file.reopen()?);
        let failed = |e| spill_error(&file.path, file.what, e);
        let mut keys = Vec::with_capacity(count);
        let mut r = [0u8; POS_SIZE];
        for _ in 0..count {
            input.read_exact(&mut r).map_err(failed)?;
            keys.push(key_of(&r));
        }
        let bits = bucket_bits_for(count);
        let mut buckets = Vec::new();
        let hashes = keys.iter().map(|k| Ok(stable_hash(*k)));
        write_index(&mut buckets, hashes, count, bits).map_err(failed)?;
        let max_discs = keys
            .iter()
            .map(|k| (k.player | k.opponent).count_ones())
            .max()
            .unwrap_or(0);
        Ok(MergedPositions {
            keys,
            buckets,
            bits,
            max_discs,
        })
    }

    /// The position of `key` in the table, if it holds it.
    fn find(&self, key: Key) -> Option<usize> {
        let b = bucket_of(stable_hash(key), self.bits);
        let (lo, hi) = (
            le32(&self.buckets, 4 * b) as usize,
            le32(&self.buckets, 4 * b + 4) as usize,
        );
        let hit = self.keys.get(lo..hi)?.iter().position(|k| *k == key);
        hit.map(|i| lo + i)
    }
}

fn key_of(record: &[u8]) -> Key {
    Key {
        player: le64(record, 0),
        opponent: le64(record, 8),
    }
}

/// The merged game table read from its temporary files, front to back, as often as asked.
struct TableFiles<'a> {
    records: &'a mut TempFile,
    moves: &'a mut TempFile,
    games: usize,
    readers: Option<(BufReader<File>, BufReader<File>)>,
    stop: &'a AtomicBool,
}

impl<'a> TableFiles<'a> {
    fn new(
        records: &'a mut TempFile,
        moves: &'a mut TempFile,
        games: u64,
        stop: &'a AtomicBool,
    ) -> TableFiles<'a> {
        TableFiles {
            records,
            moves,
            games: usize::try_from(games).unwrap_or(usize::MAX),
            readers: None,
            stop,
        }
    }

    fn open(&mut self) -> io::Result<&mut (BufReader<File>, BufReader<File>)> {
        let r = self.records.reopen().map_err(to_io)?;
        let m = self.moves.reopen().map_err(to_io)?;
        Ok(self.readers.insert((
            BufReader::with_capacity(1 << 16, r),
            BufReader::with_capacity(1 << 16, m),
        )))
    }
}

impl IndexSource for TableFiles<'_> {
    fn games(&self) -> usize {
        self.games
    }

    fn read(
        &mut self,
        range: std::ops::Range<usize>,
        out: &mut Vec<(Option<i8>, Vec<u8>)>,
    ) -> io::Result<()> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(io::Error::other(BookError::Stopped));
        }
        let (records, moves) = match (&mut self.readers, range.start) {
            (Some(r), s) if s > 0 => r,
            _ => self.open()?,
        };
        let mut r = [0u8; GAME_RECORD_SIZE];
        let mut packed = [0u8; 96];
        for i in range {
            records.read_exact(&mut r)?;
            let len = r[23] >> 1;
            let packed = &mut packed[..packed_len(len).min(96)];
            moves.read_exact(packed)?;
            let mut codes = Vec::with_capacity(usize::from(len));
            unpack_game(packed, len, i, &mut codes).map_err(io::Error::other)?;
            let result = r[22] as i8;
            out.push(((result != i8::MIN).then_some(result), codes));
        }
        Ok(())
    }
}

/// The index of a merged book: what the header records, and how to write it.
pub(super) struct MergedIndex {
    positions: MergedPositions,
    plan: IndexPlan,
    memory: usize,
}

impl MergedIndex {
    /// Counts the index of the `games` games in `records` and `moves` over `positions`,
    /// to be written within about `memory` bytes.
    pub fn count(
        positions: MergedPositions,
        records: &mut TempFile,
        moves: &mut TempFile,
        games: u64,
        memory: u64,
        stop: &AtomicBool,
    ) -> Result<MergedIndex, BookError> {
        let mut files = TableFiles::new(records, moves, games, stop);
        let lookup = |k: Key| positions.find(k);
        let plan = IndexPlan::count(
            &mut files,
            positions.keys.len(),
            positions.max_discs,
            &lookup,
        )
        .map_err(|e| from_io(e, files.records))?;
        Ok(MergedIndex {
            positions,
            plan,
            memory: usize::try_from(memory / 2).unwrap_or(usize::MAX),
        })
    }

    /// The size the header records.
    pub fn size(&self) -> crate::book::games::GameIndexSize {
        self.plan.size()
    }

    /// Writes the index of the game table in `records` and `moves` (`games` games, `names`
    /// names) to `out`.
    pub fn write(
        &self,
        records: &mut TempFile,
        moves: &mut TempFile,
        games: u64,
        names: usize,
        stop: &AtomicBool,
        out: &mut impl Write,
    ) -> io::Result<()> {
        let mut files = TableFiles::new(records, moves, games, stop);
        let lookup = |k: Key| self.positions.find(k);
        self.plan.write(&mut files, &lookup, self.memory, out)?;
        let mut input = BufReader::with_capacity(1 << 16, files.records.reopen().map_err(to_io)?);
        let mut uses = vec![0u8; names];
        let mut failed = None;
        let lens = (0..games).map_while(|_| {
            let mut r = [0u8; GAME_RECORD_SIZE];
            match input.read_exact(&mut r) {
                Ok(()) => {
                    mark_uses(
                        &mut uses,
                        le32(&r, 0),
                        le32(&r, 4),
                        le32(&r, 8),
                        le32(&r, 12),
                    );
                    Some(r[23] >> 1)
                }
                Err(e) => {
                    failed = Some(e);
                    None
                }
            }
        });
        write_checkpoints(lens, out)?;
        if let Some(e) = failed {
            return Err(e);
        }
        out.write_all(&uses)
    }
}

/// An error of reading the merged table back: a stop asked for, or a spill error.
fn from_io(e: io::Error, file: &TempFile) -> BookError {
    stopped(e).unwrap_or_else(|e| spill_error(&file.path, file.what, e))
}

/// [`BookError::Stopped`] when `e` carries it, else `e`.
pub(super) fn stopped(e: io::Error) -> Result<BookError, io::Error> {
    match e.get_ref().and_then(|i| i.downcast_ref::<BookError>()) {
        Some(BookError::Stopped) => Ok(BookError::Stopped),
        _ => Err(e),
    }
}
