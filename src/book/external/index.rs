//! The index of the games of a book merged front to back (format version 5): counted before
//! the header is written (it records the index's size), then written after the game table,
//! as the book written from memory writes it. The merged game table is read from its
//! temporary files a batch of games at a time and replayed once, each game's positions
//! looked up by key in the merged position table (its keys read from its temporary file);
//! the entries found are kept in a temporary file ([`ENTRY_SIZE`] bytes each) and read
//! again once per window of the postings, so no game is replayed twice.

use super::temp::{spill_error, to_io, TempFile};
use crate::book::format::{bucket_bits_for, bucket_of, le32, le64, write_index, POS_SIZE};
use crate::book::games::index::{
    mark_uses, write_checkpoints, IndexPlan, IndexSource, Posting, POSTING_SIZE,
};
use crate::book::games::{packed_len, unpack_game, GAME_RECORD_SIZE};
use crate::book::key::{stable_hash, Key};
use crate::book::BookError;
use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::path::Path;
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
        let mut input = BufReader::with_capacity(super::temp::IO_BUFFER, file.reopen()?);
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
            BufReader::with_capacity(super::temp::IO_BUFFER, r),
            BufReader::with_capacity(super::temp::IO_BUFFER, m),
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

/// Bytes of an entry kept between the count and the writing: the position's number in the
/// table (`u32`), then the posting.
const ENTRY_SIZE: usize = 4 + POSTING_SIZE;

/// The index of a merged book: what the header records, and how to write it.
pub(super) struct MergedIndex {
    plan: IndexPlan,
    memory: usize,
    /// Every entry, in the order counted.
    entries: TempFile,
}

impl MergedIndex {
    /// Counts the index of the `games` games in `records` and `moves` over `positions`,
    /// to be written within about `memory` bytes; its entries are kept in `folder` (the
    /// positions are not needed again).
    pub fn count(
        positions: MergedPositions,
        (records, moves): (&mut TempFile, &mut TempFile),
        games: u64,
        (memory, folder): (u64, &Path),
        stop: &AtomicBool,
    ) -> Result<MergedIndex, BookError> {
        let mut entries = TempFile::create(folder, "index-entries.tmp", "the index's entries")?;
        let mut failed = None;
        let mut keep = |p: usize, e: Posting| {
            if failed.is_some() {
                return;
            }
            let Ok(p) = u32::try_from(p) else {
                failed = Some(BookError::Merge("more than 2^32 positions".into()));
                return;
            };
            let mut b = [0u8; ENTRY_SIZE];
            b[..4].copy_from_slice(&p.to_le_bytes());
            b[4..].copy_from_slice(&e.encode());
            if let Err(e) = entries.put(&b) {
                failed = Some(e);
            }
        };
        let mut files = TableFiles::new(records, moves, games, stop);
        let lookup = |k: Key| positions.find(k);
        let plan = IndexPlan::count_each(
            &mut files,
            positions.keys.len(),
            positions.max_discs,
            &lookup,
            &mut keep,
        )
        .map_err(|e| from_io(e, files.records))?;
        if let Some(e) = failed {
            return Err(e);
        }
        Ok(MergedIndex {
            plan,
            memory: usize::try_from(memory / 2).unwrap_or(usize::MAX),
            entries,
        })
    }

    /// The size the header records.
    pub fn size(&self) -> crate::book::games::GameIndexSize {
        self.plan.size()
    }

    /// Writes the index of the game table in `records` (`games` games, `names` names) to
    /// `out`.
    pub fn write(
        &mut self,
        records: &mut TempFile,
        games: u64,
        names: usize,
        stop: &AtomicBool,
        out: &mut impl Write,
    ) -> io::Result<()> {
        let total = self.plan.size().postings;
        let entries = &mut self.entries;
        self.plan.write_from(
            &mut |f| replay_entries(entries, total, stop, f),
            self.memory,
            out,
        )?;
        let mut input =
            BufReader::with_capacity(super::temp::IO_BUFFER, records.reopen().map_err(to_io)?);
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

/// Calls `f` with each of the `total` entries kept in `entries`, in the order kept.
fn replay_entries(
    entries: &mut TempFile,
    total: u64,
    stop: &AtomicBool,
    f: &mut dyn FnMut(usize, Posting),
) -> io::Result<()> {
    let mut input =
        BufReader::with_capacity(super::temp::IO_BUFFER, entries.reopen().map_err(to_io)?);
    let mut b = [0u8; ENTRY_SIZE];
    for i in 0..total {
        if i % (1 << 20) == 0 && stop.load(Ordering::Relaxed) {
            return Err(io::Error::other(BookError::Stopped));
        }
        input.read_exact(&mut b)?;
        let p = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize;
        let e = Posting::decode(&b[4..]).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                "an index entry read back is damaged",
            )
        })?;
        f(p, e);
    }
    Ok(())
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
