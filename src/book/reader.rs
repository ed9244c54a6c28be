//! Reading books: memory-mapped (plain read where mapping fails), validated before use, and
//! the queries: probe a position, list its moves, top lines, the whole book for merging.

use crate::board::{Board, Move, Square, Symmetry};
use crate::book::checksum::checksum;
use crate::book::data::{BookData, BookInfo, MoveEntry, NodeEntry, PosEntry, NO_PARENT};
use crate::book::eval::{PosEval, EVAL_SIZE};
use crate::book::format::{
    bucket_of, get_move, get_node, get_pos, le32, le64, meta_checksum, Header, Layout, BLOCK_LOG2,
    MAGIC, MAX_HEADER, META_SUM_AT, MOVE_SIZE, NODE_SIZE, POS_SIZE, PREAMBLE, VERSION,
};
use crate::book::games::GameTable;
use crate::book::key::{code_move, representative, stable_hash, Canonical, PASS_CODE};
use crate::book::stats::{MoveStats, PositionStats, Stats};
use crate::book::BookError;
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicU8, Ordering};

/// How [`Book::open_with`] reads and checks a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenOptions {
    /// Map the file into memory (falls back to reading it if mapping fails).
    pub mmap: bool,
    /// Check every data block now (`true`), or each block the first time a query reads it.
    pub verify_all: bool,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions {
            mmap: true,
            verify_all: true,
        }
    }
}

enum Storage {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl Storage {
    fn bytes(&self) -> &[u8] {
        match self {
            Storage::Mapped(m) => m,
            Storage::Owned(v) => v,
        }
    }
}

const UNCHECKED: u8 = 0;
const GOOD: u8 = 1;
const BAD: u8 = 2;

/// An opened book. Cheap to share between threads (`&Book` is `Sync`).
pub struct Book {
    storage: Storage,
    name: String,
    header: Header,
    layout: Layout,
    blocks: Box<[AtomicU8]>,
}

/// How `top` ranks lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankBy {
    /// Most games first.
    Games,
    /// Best score for black first (win 1, draw ½, over games with a result), then games.
    Score,
}

/// Which lines [`Book::top_lines`] lists.
#[derive(Clone, Copy, Debug)]
pub struct TopQuery<'a> {
    /// The lines start with these moves, given in any of the 4 orientations of the start
    /// position; the lines come back in the same orientation.
    pub start: &'a [Move],
    /// Length of the lines in plies, `start` included.
    pub plies: usize,
    /// Most lines returned.
    pub limit: usize,
    /// Ranking.
    pub by: RankBy,
    /// Lines followed by fewer games are left out.
    pub min_games: u64,
    /// First move of the lines (d3, c4, e6 or f5) when `start` is empty.
    pub first: Square,
}

/// One line of the trie with its statistics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The moves from the start, in the orientation asked for.
    pub moves: Vec<Move>,
    /// Games that followed it, from black's view.
    pub stats: Stats,
}

impl Book {
    /// Opens and fully verifies a book (memory-mapped where possible).
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        Book::open_with(path, OpenOptions::default())
    }

    /// Opens a book checking only the preamble, header and layout now; each data block is
    /// checked the first time a query reads it. Meant for very large books: use the
    /// `try_` queries to see checksum errors.
    pub fn open_lazy(path: impl AsRef<Path>) -> Result<Book, BookError> {
        Book::open_with(
            path,
            OpenOptions {
                mmap: true,
                verify_all: false,
            },
        )
    }

    /// Opens a book with explicit options.
    pub fn open_with(path: impl AsRef<Path>, opts: OpenOptions) -> Result<Book, BookError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let io = |e: std::io::Error| BookError::Io {
            path: name.clone(),
            source: e,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        let bad = |reason: String| BookError::Invalid {
            path: name.clone(),
            reason,
        };
        // A device or pipe has no size to check the header against, and reading one (such as
        // /dev/zero) may never end.
        if !meta.is_file() {
            return Err(bad("not a regular file".into()));
        }
        let len = meta.len();
        // The preamble is checked against the file's size before the rest is mapped or read,
        // so a foreign or damaged file costs no more than its first bytes.
        let mut head = Vec::with_capacity(PREAMBLE);
        std::io::Read::read_to_end(&mut std::io::Read::take(&file, PREAMBLE as u64), &mut head)
            .map_err(io)?;
        check_preamble(&head, len).map_err(bad)?;
        let mapped = if opts.mmap {
            // SAFETY: the map is read-only and othbook never writes a book in place (it writes
            // a new file and renames it), so the mapped bytes do not change under us unless
            // another program rewrites the file in place, which memmap2 cannot guard against.
            // A file cut short then raises SIGBUS at the read: `exit_on_sigbus` (installed by
            // the binary) turns that into a clear message and exit code 1.
            unsafe { memmap2::Mmap::map(&file) }.ok()
        } else {
            None
        };
        let storage = match mapped {
            Some(m) => Storage::Mapped(m),
            None => {
                let size = usize::try_from(len)
                    .map_err(|_| bad(format!("{len} bytes do not fit in memory")))?;
                let mut v = Vec::with_capacity(size);
                v.extend_from_slice(&head);
                // Never past the size the header was checked against: the file may grow.
                std::io::Read::read_to_end(
                    &mut std::io::Read::take(&file, len - head.len() as u64),
                    &mut v,
                )
                .map_err(io)?;
                Storage::Owned(v)
            }
        };
        Book::from_storage(storage, name, opts.verify_all)
    }

    /// A book from bytes in memory (fully verified).
    pub fn from_bytes(bytes: Vec<u8>, name: &str) -> Result<Book, BookError> {
        Book::from_storage(Storage::Owned(bytes), name.to_string(), true)
    }

    fn from_storage(storage: Storage, name: String, verify_all: bool) -> Result<Book, BookError> {
        let bad = |reason: String| BookError::Invalid {
            path: name.clone(),
            reason,
        };
        let b = storage.bytes();
        check_preamble(b, b.len() as u64).map_err(bad)?;
        let header_len = le64(b, 24);
        let header_bytes = &b[PREAMBLE..PREAMBLE + header_len as usize];
        // The header is decoded before its checksum can be checked (the layout depends on
        // it); bincode decoding is bounded and returns errors on any bytes.
        let (header, used) = Header::decode(header_bytes, le32(b, 8))
            .map_err(|e| bad(format!("damaged header: {e}")))?;
        if used as u64 != header_len {
            return Err(bad("damaged header: length mismatch".into()));
        }
        let layout = Layout::new(header_len, &header)
            .filter(|l| l.file_len == b.len())
            .ok_or_else(|| bad("table sizes do not match the file size".into()))?;
        if meta_checksum(b, &layout) != le64(b, META_SUM_AT) {
            return Err(bad("checksum mismatch in the header".into()));
        }
        let levels_ok = header.levels.windows(2).all(|w| w[0] <= w[1])
            && header.levels.last() == Some(&header.nodes)
            && header.levels.first() == Some(&0);
        if !levels_ok {
            return Err(bad("inconsistent trie levels".into()));
        }
        let blocks = (0..layout.blocks())
            .map(|_| AtomicU8::new(UNCHECKED))
            .collect();
        let book = Book {
            storage,
            name,
            header,
            layout,
            blocks,
        };
        if verify_all {
            book.verify()?;
        }
        Ok(book)
    }

    /// Checks every data block not checked yet.
    pub fn verify(&self) -> Result<(), BookError> {
        let n = self.blocks.len();
        if n > 64 {
            use rayon::prelude::*;
            (0..n).into_par_iter().try_for_each(|i| self.check_block(i))
        } else {
            (0..n).try_for_each(|i| self.check_block(i))
        }
    }

    fn check_block(&self, i: usize) -> Result<(), BookError> {
        match self.blocks[i].load(Ordering::Relaxed) {
            GOOD => return Ok(()),
            BAD => return Err(self.block_error(i)),
            _ => {}
        }
        let b = self.storage.bytes();
        let range = self.layout.block(i);
        let stored = le64(b, self.layout.sums.start + 8 * i);
        let ok = checksum(&b[range]) == stored;
        self.blocks[i].store(if ok { GOOD } else { BAD }, Ordering::Relaxed);
        if ok {
            Ok(())
        } else {
            Err(self.block_error(i))
        }
    }

    fn block_error(&self, i: usize) -> BookError {
        let r = self.layout.block(i);
        BookError::Invalid {
            path: self.name.clone(),
            reason: format!(
                "checksum mismatch in data block {i} (bytes {}..{}): the file is damaged",
                r.start, r.end
            ),
        }
    }

    /// The bytes of `range` (a part of the data region), once their blocks are verified.
    pub(super) fn region(&self, range: Range<usize>) -> Result<&[u8], BookError> {
        let b = self.storage.bytes();
        if range.start > range.end || range.end > self.layout.data_end {
            return Err(BookError::Invalid {
                path: self.name.clone(),
                reason: format!("record range {range:?} outside the tables"),
            });
        }
        if range.end > range.start {
            let first = (range.start - self.layout.data_start) >> BLOCK_LOG2;
            let last = (range.end - 1 - self.layout.data_start) >> BLOCK_LOG2;
            for i in first..=last {
                if self.blocks[i].load(Ordering::Relaxed) != GOOD {
                    self.check_block(i)?;
                }
            }
        }
        Ok(&b[range])
    }

    /// The decoded header.
    pub(crate) fn header(&self) -> &Header {
        &self.header
    }

    /// Where the tables are.
    pub(crate) fn layout(&self) -> &Layout {
        &self.layout
    }

    pub(super) fn corrupt(&self, what: &str) -> BookError {
        BookError::Invalid {
            path: self.name.clone(),
            reason: format!("inconsistent tables: {what}"),
        }
    }

    /// Header facts: date, build options, games, sources, evaluation settings.
    #[must_use]
    pub fn info(&self) -> BookInfo {
        BookInfo {
            created: self.header.created,
            options: self.header.options.clone(),
            games: self.header.games,
            sources: self.header.sources.clone(),
            evaluation: self.header.evaluation.clone(),
        }
    }

    /// The format version of the file (1: no values, 2: with values, 3: with a game table,
    /// values or not: see [`Book::has_values`]; 4: values searched with Multi-ProbCut, game
    /// table or not; 5: with the index of the games).
    #[must_use]
    pub fn version(&self) -> u32 {
        self.header.version()
    }

    /// Whether the book holds a table of its games (format version 3, or 4 with one).
    #[must_use]
    pub fn has_games(&self) -> bool {
        self.header.game_table.is_some()
    }

    /// The book's games, read and checked (`None` for a book written without them: older
    /// books and imported ones).
    pub fn games(&self) -> Result<Option<GameTable>, BookError> {
        let Some(size) = &self.header.game_table else {
            return Ok(None);
        };
        let l = &self.layout;
        GameTable::decode(
            size,
            self.region(l.games.clone())?,
            self.region(l.game_moves.clone())?,
            self.region(l.name_offsets.clone())?,
            self.region(l.name_bytes.clone())?,
        )
        .map(Some)
        .map_err(|source| BookError::GameTable {
            path: self.name.clone(),
            source,
        })
    }

    /// Whether the book holds an index of its games (format version 5).
    #[must_use]
    pub fn has_game_index(&self) -> bool {
        self.header.game_index.is_some()
    }

    /// The file's name, as errors give it.
    pub(super) fn path_name(&self) -> &str {
        &self.name
    }

    /// Whether the book holds searched values.
    #[must_use]
    pub fn has_values(&self) -> bool {
        self.header.evaluation.is_some()
    }

    /// The evaluation record of position `i` (all unknown in a book without values).
    fn eval_at(&self, i: usize) -> Result<PosEval, BookError> {
        if self.header.evaluation.is_none() {
            return Ok(PosEval::default());
        }
        let at = self.layout.evals.start + i * EVAL_SIZE;
        PosEval::decode(self.region(at..at + EVAL_SIZE)?)
            .ok_or_else(|| self.corrupt("evaluation record"))
    }

    /// Number of positions, moves and trie nodes.
    #[must_use]
    pub fn counts(&self) -> (u64, u64, u64) {
        (self.header.positions, self.header.moves, self.header.nodes)
    }

    /// Size of the file in bytes.
    #[must_use]
    pub fn file_len(&self) -> usize {
        self.layout.file_len
    }

    /// Byte ranges of the file's checksummed data blocks, in order: what a lazily opened book
    /// checks block by block as it reads (for tools that check or repair files, and tests
    /// that damage one on purpose).
    pub fn data_blocks(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        (0..self.layout.blocks()).map(|b| self.layout.block(b))
    }

    /// Writes to `path` a copy of the default book with a flipped byte in every data block:
    /// it opens lazily (header and checksums intact) and every read of its tables fails.
    #[cfg(test)]
    pub(crate) fn write_damaged_default(path: &Path) {
        let mut bytes = std::fs::read(super::default_path()).expect("books/wthor.book");
        let blocks: Vec<_> = Book::from_bytes(bytes.clone(), "wthor.book")
            .expect("the default book opens")
            .data_blocks()
            .collect();
        for block in blocks {
            bytes[block.start] ^= 0x40;
        }
        std::fs::write(path, &bytes).expect("writable");
    }

    /// Byte range of the position table (tests damage it on purpose).
    #[cfg(test)]
    pub(crate) fn position_table(&self) -> Range<usize> {
        self.layout.positions.clone()
    }

    /// Whether the book is read through a memory map (rather than a plain read).
    #[must_use]
    pub fn is_mapped(&self) -> bool {
        matches!(self.storage, Storage::Mapped(_))
    }

    pub(super) fn find(&self, c: &Canonical) -> Result<Option<PosEntry>, BookError> {
        let Some(i) = self.position_index(c)? else {
            return Ok(None);
        };
        let at = self.layout.positions.start + i * POS_SIZE;
        let mut p = get_pos(self.region(at..at + POS_SIZE)?);
        p.eval = self.eval_at(i)?;
        Ok(Some(p))
    }

    /// Where the position table holds `c`, if it does.
    pub(super) fn position_index(&self, c: &Canonical) -> Result<Option<usize>, BookError> {
        let h = stable_hash(c.key);
        let bucket = bucket_of(h, self.header.bucket_bits);
        let at = self.layout.index.start + 4 * bucket;
        let idx = self.region(at..at + 8)?;
        let (lo, hi) = (le32(idx, 0) as usize, le32(idx, 4) as usize);
        if lo > hi || hi as u64 > self.header.positions {
            return Err(self.corrupt("position index"));
        }
        let start = self.layout.positions.start;
        let recs = self.region(start + lo * POS_SIZE..start + hi * POS_SIZE)?;
        Ok(recs
            .chunks_exact(POS_SIZE)
            .position(|rec| le64(rec, 0) == c.key.player && le64(rec, 8) == c.key.opponent)
            .map(|i| lo + i))
    }

    /// Statistics of the games that reached `board` (any symmetric image, any move order),
    /// from the side to move's view; `None` if the book does not hold it (or, on a lazily
    /// opened book, if its data fails the checksum: see [`Book::try_probe`]).
    #[must_use]
    pub fn probe(&self, board: &Board) -> Option<PositionStats> {
        self.try_probe(board).ok().flatten()
    }

    /// [`Book::probe`], reporting damaged data as an error.
    pub fn try_probe(&self, board: &Board) -> Result<Option<PositionStats>, BookError> {
        Ok(self.find(&Canonical::of(board))?.map(|p| p.stats))
    }

    /// The moves the book knows from `board`, in the board's own orientation, most played
    /// first; statistics from the view of the side playing the move. Moves that the
    /// position's symmetry makes equivalent are one entry (see `key::representative`).
    #[must_use]
    pub fn moves(&self, board: &Board) -> Vec<(Move, MoveStats)> {
        self.try_moves(board).unwrap_or_default()
    }

    /// [`Book::moves`], reporting damaged data as an error.
    pub fn try_moves(&self, board: &Board) -> Result<Vec<(Move, MoveStats)>, BookError> {
        let c = Canonical::of(board);
        let Some(p) = self.find(&c)? else {
            return Ok(Vec::new());
        };
        let mut out = Vec::with_capacity(p.move_count as usize);
        for m in self.move_entries(&p)? {
            let mv = if m.code == PASS_CODE {
                Some(Move::Pass)
            } else {
                representative(&c.moves_of(m.code))
            };
            match mv {
                Some(mv) => out.push((mv, m.stats)),
                None => return Err(self.corrupt("move code out of range")),
            }
        }
        out.sort_by(|a, b| b.1.games().cmp(&a.1.games()).then(a.0.cmp(&b.0)));
        Ok(out)
    }

    /// The book's statistics for playing `mv` from `board`, or `None` if no game played it.
    /// A move the position's symmetry makes equivalent to a book move counts as that move
    /// (at the start, d3, c4 and e6 all get f5's games), which [`Book::moves`] lists under
    /// one representative only.
    pub fn try_move_stats(&self, board: &Board, mv: Move) -> Result<Option<MoveStats>, BookError> {
        let c = Canonical::of(board);
        let Some(p) = self.find(&c)? else {
            return Ok(None);
        };
        let code = c.code_of(mv);
        Ok(self
            .move_entries(&p)?
            .into_iter()
            .find(|m| m.code == code)
            .map(|m| m.stats))
    }

    fn move_entries(&self, p: &PosEntry) -> Result<Vec<MoveEntry>, BookError> {
        let first = p.first_move as usize;
        let end = first + p.move_count as usize;
        if end as u64 > self.header.moves {
            return Err(self.corrupt("move range"));
        }
        let start = self.layout.moves.start;
        let recs = self.region(start + first * MOVE_SIZE..start + end * MOVE_SIZE)?;
        Ok(recs.chunks_exact(MOVE_SIZE).map(get_move).collect())
    }

    fn node(&self, i: u32) -> Result<NodeEntry, BookError> {
        if u64::from(i) >= self.header.nodes {
            return Err(self.corrupt("trie node index"));
        }
        let at = self.layout.nodes.start + i as usize * NODE_SIZE;
        Ok(get_node(self.region(at..at + NODE_SIZE)?))
    }

    /// Number of games in the book's line trie that followed `line` from the start (given in
    /// any of the 4 orientations of the start), or `None` if the trie does not hold it.
    pub fn line(&self, line: &[Move]) -> Result<Option<Stats>, BookError> {
        Ok(self.line_node(line)?.map(|(_, n)| n.stats))
    }

    /// The trie node (index and record) of `line`, in any orientation of the start.
    fn line_node(&self, line: &[Move]) -> Result<Option<(u32, NodeEntry)>, BookError> {
        let sym = normalizer(line.first().copied());
        let (mut at, mut node) = (0, self.node(0)?);
        for mv in line {
            let code = crate::book::key::map_code(sym, crate::book::key::move_code(*mv));
            let mut found = None;
            for c in node.first_child..node.first_child.saturating_add(node.child_count) {
                let child = self.node(c)?;
                if child.code == code {
                    found = Some((c, child));
                    break;
                }
            }
            match found {
                Some(f) => (at, node) = f,
                None => return Ok(None),
            }
        }
        Ok(Some((at, node)))
    }

    /// The `limit` best lines of exactly `plies` plies, shown with first move `first`
    /// (one of d3, c4, e6, f5).
    pub fn top(
        &self,
        plies: usize,
        limit: usize,
        by: RankBy,
        first: Square,
    ) -> Result<Vec<Line>, BookError> {
        self.top_lines(&TopQuery {
            start: &[],
            plies,
            limit,
            by,
            min_games: 0,
            first,
        })
    }

    /// The lines `query` asks for, best first.
    pub fn top_lines(&self, query: &TopQuery<'_>) -> Result<Vec<Line>, BookError> {
        let (plies, start) = (query.plies, query.start);
        let levels = &self.header.levels;
        if plies == 0 || plies <= start.len() || plies + 1 >= levels.len() {
            return Ok(Vec::new());
        }
        let Some((from, _)) = self.line_node(start)? else {
            return Ok(Vec::new());
        };
        // The descendants of one node at any depth are consecutive (breadth-first order).
        let (mut lo, mut hi) = (from, from + 1);
        for _ in start.len()..plies {
            (lo, hi) = self.children_of_range(lo, hi)?;
            if lo == hi {
                return Ok(Vec::new());
            }
        }
        if hi > levels[plies + 1] as u32 || lo < levels[plies] as u32 {
            return Err(self.corrupt("trie levels"));
        }
        let at = self.layout.nodes.start;
        let recs = self.region(at + lo as usize * NODE_SIZE..at + hi as usize * NODE_SIZE)?;
        let mut nodes: Vec<NodeEntry> = recs
            .chunks_exact(NODE_SIZE)
            .map(get_node)
            .filter(|n| n.stats.games() >= query.min_games)
            .collect();
        // Ties keep trie order, which is the lines' alphabetical order.
        rank_by(&mut nodes, query.by, |n| n.stats);
        nodes.truncate(query.limit);
        let shown = shown_symmetry(start, query.first);
        let mut out = Vec::with_capacity(nodes.len());
        for n in nodes {
            let mut moves = Vec::with_capacity(plies);
            let mut cur = n;
            while cur.parent != NO_PARENT {
                let mv = code_move(cur.code).ok_or_else(|| self.corrupt("trie move code"))?;
                moves.push(shown.apply_move(mv));
                if moves.len() > plies {
                    return Err(self.corrupt("trie parent chain"));
                }
                cur = self.node(cur.parent)?;
            }
            moves.reverse();
            out.push(Line {
                moves,
                stats: n.stats,
            });
        }
        Ok(out)
    }

    /// The nodes whose parents are the nodes `lo..hi` (consecutive, as the trie is breadth
    /// first); childless nodes have no child range of their own to read.
    fn children_of_range(&self, lo: u32, hi: u32) -> Result<(u32, u32), BookError> {
        let at = self.layout.nodes.start;
        let recs = self.region(at + lo as usize * NODE_SIZE..at + hi as usize * NODE_SIZE)?;
        let mut parents = recs
            .chunks_exact(NODE_SIZE)
            .map(get_node)
            .filter(|n| n.child_count > 0);
        let Some(first) = parents.next() else {
            return Ok((0, 0));
        };
        let last = parents.next_back().unwrap_or(first);
        let end = last.first_child.saturating_add(last.child_count);
        if u64::from(end) > self.header.nodes || first.first_child > end {
            return Err(self.corrupt("trie child range"));
        }
        Ok((first.first_child, end))
    }

    /// The whole book in memory (for merging).
    pub fn to_data(&self) -> Result<BookData, BookError> {
        let l = &self.layout;
        let positions: Vec<PosEntry> = self
            .region(l.positions.clone())?
            .chunks_exact(POS_SIZE)
            .map(get_pos)
            .collect();
        let moves: Vec<MoveEntry> = self
            .region(l.moves.clone())?
            .chunks_exact(MOVE_SIZE)
            .map(get_move)
            .collect();
        let nodes: Vec<NodeEntry> = self
            .region(l.nodes.clone())?
            .chunks_exact(NODE_SIZE)
            .map(get_node)
            .collect();
        let mut positions = positions;
        if self.has_values() {
            let evals = self.region(l.evals.clone())?;
            for (p, rec) in positions.iter_mut().zip(evals.chunks_exact(EVAL_SIZE)) {
                p.eval = PosEval::decode(rec).ok_or_else(|| self.corrupt("evaluation record"))?;
            }
        }
        for p in &positions {
            if p.first_move as u64 + p.move_count as u64 > moves.len() as u64 {
                return Err(self.corrupt("move range"));
            }
        }
        for w in positions.windows(2) {
            if (w[0].hash, w[0].key) >= (w[1].hash, w[1].key) {
                return Err(self.corrupt("positions out of order"));
            }
        }
        for n in &nodes {
            if n.first_child as u64 + n.child_count as u64 > nodes.len() as u64 {
                return Err(self.corrupt("trie child range"));
            }
        }
        Ok(BookData {
            info: self.info(),
            positions,
            moves,
            nodes,
            games: self.games()?,
            game_index: self.header.game_index.is_some(),
        })
    }
}

/// Checks the fixed-size start of a book (`head`, at least its first [`PREAMBLE`] bytes)
/// against the size of the whole file, `file_len`.
fn check_preamble(head: &[u8], file_len: u64) -> Result<(), String> {
    if file_len == 0 {
        return Err("the file is empty".into());
    }
    if head.len() < PREAMBLE || head[..8] != MAGIC {
        return Err("not an othbook book (no OTHBOOK signature at the start)".into());
    }
    let version = le32(head, 8);
    if version > VERSION {
        return Err(format!(
            "book format version {version} is newer than this othbook reads \
             (version {VERSION}): upgrade othbook"
        ));
    }
    if version == 0 {
        return Err("book format version 0 does not exist".into());
    }
    if le32(head, 12) != BLOCK_LOG2 {
        return Err(format!("unsupported block size 2^{}", le32(head, 12)));
    }
    let declared = le64(head, 16);
    if declared != file_len {
        return Err(format!(
            "truncated or extended: the header says {declared} bytes, the file has {file_len}"
        ));
    }
    let header_len = le64(head, 24);
    if header_len > MAX_HEADER || PREAMBLE as u64 + header_len > file_len {
        return Err(format!("header length {header_len} is impossible"));
    }
    Ok(())
}

/// Sorts lines best first by `by` (stably: ties keep their order).
pub(crate) fn rank_by<T>(items: &mut [T], by: RankBy, stats: impl Fn(&T) -> Stats) {
    match by {
        RankBy::Games => items.sort_by_key(|n| std::cmp::Reverse(stats(n).games())),
        RankBy::Score => items.sort_by(|a, b| {
            let (a, b) = (stats(a), stats(b));
            let s = |n: &Stats| n.score().unwrap_or(-1.0);
            s(&b).total_cmp(&s(&a)).then(b.games().cmp(&a.games()))
        }),
    }
}

/// The symmetry that shows lines stored from f5 in the orientation of `start`, or with the
/// first move `first` when `start` is empty. The symmetries of the start are their own
/// inverses.
pub(crate) fn shown_symmetry(start: &[Move], first: Square) -> Symmetry {
    let first = match start.first() {
        Some(Move::Play(sq)) => *sq,
        _ => first,
    };
    Symmetry::START
        .into_iter()
        .find(|s| s.square(Square::F5) == first)
        .unwrap_or(Symmetry::Identity)
}

/// The start symmetry that sends a line's first move to f5.
pub(crate) fn normalizer(first: Option<Move>) -> Symmetry {
    match first {
        Some(Move::Play(sq)) => Symmetry::START
            .into_iter()
            .find(|s| s.square(sq) == Square::F5)
            .unwrap_or(Symmetry::Identity),
        _ => Symmetry::Identity,
    }
}
