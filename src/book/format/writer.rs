//! Writing book files: the preamble and header, then the tables streamed through a block
//! checksummer, then the checksum table, the meta checksum patched in last. A book of any
//! size is written this way without being held in memory, and the in-memory encoder goes
//! through the same code, so the two cannot differ by a byte.

use super::{
    bucket_bits_for, bucket_of, Header, Layout, BLOCK_LOG2, MAGIC, META_SUM_AT, MOVE_SIZE,
    NODE_SIZE, POS_SIZE, PREAMBLE,
};
use crate::book::checksum::checksum;
use crate::book::data::{levels_of, BookData, MoveEntry, NodeEntry, PosEntry};
use crate::book::games::index::{IndexPlan, DEFAULT_INDEX_MEMORY};
use crate::book::games::GameTable;
use crate::book::key::Key;
use crate::book::stats::Stats;
use crate::book::BookError;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::Path;

const BLOCK: usize = 1 << BLOCK_LOG2;

/// A writer of the data region that checksums each 64 KiB block as it fills.
pub(crate) struct Blocks<W: Write> {
    inner: W,
    block: Vec<u8>,
    sums: Vec<u64>,
    len: u64,
}

impl<W: Write> Blocks<W> {
    fn new(inner: W) -> Self {
        Blocks {
            inner,
            block: Vec::with_capacity(BLOCK),
            sums: Vec::new(),
            len: 0,
        }
    }

    fn flush_block(&mut self) -> io::Result<()> {
        if !self.block.is_empty() {
            self.sums.push(checksum(&self.block));
            self.inner.write_all(&self.block)?;
            self.len += self.block.len() as u64;
            self.block.clear();
        }
        Ok(())
    }

    /// The last (short) block written; the block checksums and the bytes written.
    fn finish(mut self) -> io::Result<(Vec<u64>, u64)> {
        self.flush_block()?;
        Ok((self.sums, self.len))
    }
}

impl<W: Write> Write for Blocks<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while !rest.is_empty() {
            let take = (BLOCK - self.block.len()).min(rest.len());
            self.block.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.block.len() == BLOCK {
                self.flush_block()?;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The header's bytes and the layout they give.
pub(crate) fn header_bytes(header: &Header) -> Result<(Vec<u8>, Layout), BookError> {
    let bytes = header
        .encode()
        .map_err(|e| BookError::Options(format!("header cannot be encoded: {e}")))?;
    let layout = Layout::new(bytes.len() as u64, header)
        .ok_or_else(|| BookError::Options("book too large".into()))?;
    Ok((bytes, layout))
}

/// Writes a whole book to `w` (at its current position): `tables` must write the tables
/// of `header` in file order, exactly as long as the layout says. Returns the file length.
pub(crate) fn write_file<W: Write + Seek>(
    w: &mut W,
    header: &Header,
    tables: impl FnOnce(&mut Blocks<&mut W>) -> io::Result<()>,
) -> Result<u64, BookError> {
    let (head, layout) = header_bytes(header)?;
    let io = |e: io::Error| BookError::Io {
        path: String::new(),
        source: e,
    };
    let start = w.stream_position().map_err(io)?;
    let mut pre = Vec::with_capacity(layout.data_start);
    pre.extend_from_slice(&MAGIC);
    pre.extend_from_slice(&header.version().to_le_bytes());
    pre.extend_from_slice(&BLOCK_LOG2.to_le_bytes());
    pre.extend_from_slice(&(layout.file_len as u64).to_le_bytes());
    pre.extend_from_slice(&(head.len() as u64).to_le_bytes());
    pre.extend_from_slice(&0u64.to_le_bytes());
    pre.extend_from_slice(&head);
    pre.resize(layout.data_start, 0);
    w.write_all(&pre).map_err(io)?;
    let mut blocks = Blocks::new(&mut *w);
    tables(&mut blocks).map_err(io)?;
    let (sums, len) = blocks.finish().map_err(io)?;
    if len != (layout.data_end - layout.data_start) as u64 {
        return Err(BookError::Options(format!(
            "tables of {len} bytes written where the header gives {}",
            layout.data_end - layout.data_start
        )));
    }
    let sum_bytes: Vec<u8> = sums.iter().flat_map(|s| s.to_le_bytes()).collect();
    w.write_all(&sum_bytes).map_err(io)?;
    let mut meta = Vec::with_capacity(layout.data_start + sum_bytes.len());
    meta.extend_from_slice(&pre[..META_SUM_AT]);
    meta.extend_from_slice(&pre[PREAMBLE..]);
    meta.extend_from_slice(&sum_bytes);
    let meta = checksum(&meta);
    w.seek(SeekFrom::Start(start + META_SUM_AT as u64))
        .map_err(io)?;
    w.write_all(&meta.to_le_bytes()).map_err(io)?;
    w.seek(SeekFrom::Start(start + layout.file_len as u64))
        .map_err(io)?;
    Ok(layout.file_len as u64)
}

/// Writes the position index of `count` positions whose hashes, in table order, are
/// `hashes`, with `bits` index bits.
pub(crate) fn write_index(
    w: &mut impl Write,
    hashes: impl Iterator<Item = io::Result<u64>>,
    count: usize,
    bits: u8,
) -> io::Result<()> {
    let mut bucket = 0usize;
    for (i, hash) in hashes.enumerate() {
        let b = bucket_of(hash?, bits);
        while bucket <= b {
            w.write_all(&(i as u32).to_le_bytes())?;
            bucket += 1;
        }
    }
    while bucket <= 1 << bits {
        w.write_all(&(count as u32).to_le_bytes())?;
        bucket += 1;
    }
    Ok(())
}

fn put_stats(out: &mut [u8], s: &Stats) {
    for (i, v) in [s.wins, s.draws, s.losses, s.unknown]
        .into_iter()
        .enumerate()
    {
        out[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
    }
    out[16..24].copy_from_slice(&s.disc_sum.to_le_bytes());
}

/// A position record's bytes.
pub(crate) fn pos_bytes(p: &PosEntry) -> [u8; POS_SIZE] {
    let mut b = [0u8; POS_SIZE];
    b[0..8].copy_from_slice(&p.key.player.to_le_bytes());
    b[8..16].copy_from_slice(&p.key.opponent.to_le_bytes());
    put_stats(&mut b[16..40], &p.stats);
    b[40..44].copy_from_slice(&p.first_move.to_le_bytes());
    b[44..48].copy_from_slice(&u32::from(p.move_count).to_le_bytes());
    b
}

/// A move record's bytes.
pub(crate) fn move_bytes(m: &MoveEntry) -> [u8; MOVE_SIZE] {
    let mut b = [0u8; MOVE_SIZE];
    b[0] = m.code;
    put_stats(&mut b[4..28], &m.stats);
    b
}

/// A trie node record's bytes.
pub(crate) fn node_bytes(n: &NodeEntry) -> [u8; NODE_SIZE] {
    let mut b = [0u8; NODE_SIZE];
    b[0..4].copy_from_slice(&n.parent.to_le_bytes());
    b[4] = n.code;
    put_stats(&mut b[8..32], &n.stats);
    b[32..36].copy_from_slice(&n.first_child.to_le_bytes());
    b[36..40].copy_from_slice(&n.child_count.to_le_bytes());
    b
}

/// The header of `data`, with the index `plan` gives.
fn header_of(data: &BookData, plan: Option<&IndexPlan>) -> Header {
    Header {
        created: data.info.created,
        options: data.info.options.clone(),
        games: data.info.games,
        sources: data.info.sources.clone(),
        positions: data.positions.len() as u64,
        moves: data.moves.len() as u64,
        nodes: data.nodes.len() as u64,
        levels: levels_of(&data.nodes),
        bucket_bits: bucket_bits_for(data.positions.len()),
        evaluation: data.info.evaluation.clone(),
        game_table: data.games.as_ref().map(GameTable::size),
        game_index: plan.map(IndexPlan::size),
    }
}

/// Writes `data` as a book file to `w`, with the index of its games (when `data` asks for
/// one and `index_memory` is given: at most about that many bytes of it held at once).
fn write_data<W: Write + Seek>(
    w: &mut W,
    data: &BookData,
    index_memory: Option<usize>,
) -> Result<u64, BookError> {
    let key_index = data.key_index();
    let lookup = |key: Key| key_index.get(&key).copied();
    let plan = match (&data.games, index_memory) {
        (Some(table), Some(_)) if data.game_index => {
            let max_discs = data
                .positions
                .iter()
                .map(|p| (p.key.player | p.key.opponent).count_ones())
                .max()
                .unwrap_or(0);
            let plan = IndexPlan::count(&mut &*table, data.positions.len(), max_discs, &lookup);
            Some(plan.map_err(|e| BookError::Io {
                path: String::new(),
                source: e,
            })?)
        }
        _ => None,
    };
    let header = header_of(data, plan.as_ref());
    write_file(w, &header, |out| {
        let hashes = data.positions.iter().map(|p| Ok(p.hash));
        write_index(out, hashes, data.positions.len(), header.bucket_bits)?;
        for p in &data.positions {
            out.write_all(&pos_bytes(p))?;
        }
        for m in &data.moves {
            out.write_all(&move_bytes(m))?;
        }
        for n in &data.nodes {
            out.write_all(&node_bytes(n))?;
        }
        if header.evaluation.is_some() {
            for p in &data.positions {
                out.write_all(&p.eval.encode())?;
            }
        }
        if let Some(games) = &data.games {
            let mut bytes = Vec::new();
            games.encode(&mut bytes);
            out.write_all(&bytes)?;
            if let (Some(plan), Some(memory)) = (&plan, index_memory) {
                plan.write(&mut &*games, &lookup, memory, out)?;
                games.write_index_tail(out)?;
            }
        }
        Ok(())
    })
}

/// The complete file for `data`, the index of its games (if it has one) built within the
/// default memory budget.
pub fn encode(data: &BookData) -> Result<Vec<u8>, BookError> {
    encode_with(data, DEFAULT_INDEX_MEMORY)
}

/// The complete file for `data`; the index of its games is built holding at most about
/// `index_memory` bytes of it at once.
pub fn encode_with(data: &BookData, index_memory: usize) -> Result<Vec<u8>, BookError> {
    let mut out = io::Cursor::new(Vec::new());
    write_data(&mut out, data, Some(index_memory))?;
    Ok(out.into_inner())
}

/// Writes `data` to a new file `path` as it is (no temporary name, no sync: for the
/// temporary runs of a build, which nothing reads if it is killed).
pub(crate) fn write_plain(path: &Path, data: &BookData) -> io::Result<u64> {
    // Runs are tens of megabytes written in one go: long sequential writes.
    let mut w = io::BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
    // A run is read back only to be merged: its games need no index.
    let n = write_data(&mut w, data, None).map_err(|e| match e {
        BookError::Io { source, .. } => source,
        e => io::Error::other(e.to_string()),
    })?;
    w.into_inner().map_err(io::IntoInnerError::into_error)?;
    Ok(n)
}

/// Writes `data` to `path`: to a temporary file in the same folder, synced, then renamed,
/// so a killed build never leaves a half-written book.
pub fn write_book(path: &Path, data: &BookData) -> Result<u64, BookError> {
    let io = |e: io::Error| BookError::Io {
        path: path.display().to_string(),
        source: e,
    };
    let mut failure = None;
    let written = crate::atomic_file::replace(path, |f| {
        write_data(f, data, Some(DEFAULT_INDEX_MEMORY)).map_err(|e| {
            let text = e.to_string();
            failure = Some(e);
            io::Error::other(text)
        })
    });
    match (written, failure) {
        (Ok(n), _) => Ok(n),
        (Err(_), Some(BookError::Io { source, .. })) => Err(io(source)),
        (Err(_), Some(e)) => Err(e),
        (Err(e), None) => Err(io(e)),
    }
}
