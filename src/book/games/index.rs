//! The index of a book's games (format version 5, docs/book-format.md): for every position
//! of the position table, the games that reach it, as posting lists in table order (most
//! recent first), each entry with the ply, the move played there, the game's orientation and
//! its result, so a query reads only the games of its position and replays none. Beside
//! them, where each 64th game's moves start (a game's moves are found without summing the
//! lengths before it), and what each name is used as (the filters' checks need no scan).
//!
//! Building takes a counting pass over the games (the lists' offsets are a prefix sum), then
//! scatters the entries window by window, each window of the output at most the memory
//! budget, without sorting: games are visited in table order, so each list comes out sorted.

use super::GameTable;
use crate::board::Board;
use crate::book::key::{code_move, Canonical, Key};
use rayon::prelude::*;
use std::io::Write;

/// Bytes per posting entry.
pub const POSTING_SIZE: usize = 8;
/// Games between two move-offset checkpoints.
pub const CHECKPOINT_GAMES: usize = 64;
/// The index builder's working memory when none is given: the output window and the games
/// replayed at once.
pub const DEFAULT_INDEX_MEMORY: usize = 1 << 30;
/// `next` of an entry where the game ended at the position.
pub const NO_NEXT: u8 = 255;
/// `result` of an entry whose game has no recorded result.
const NO_RESULT: i8 = i8::MIN;
/// Name-use bit: the name is black's or white's in some game.
pub const USED_AS_PLAYER: u8 = 1;
/// Name-use bit: the name is the event of some game.
pub const USED_AS_EVENT: u8 = 2;
/// Name-use bit: the name is the source file of some game.
pub const USED_AS_SOURCE: u8 = 4;
/// Games replayed in parallel between two scatters (bounds the replay buffers).
const BATCH_GAMES: usize = 1 << 15;
/// Plies of the longest game, plus its final position.
const MAX_OCCURRENCES: usize = 121;

/// The index's size, in the header of a version 5 book (the other parts' sizes follow from
/// the position, game and name counts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bincode::Encode, bincode::Decode)]
pub struct GameIndexSize {
    /// Posting entries of all positions.
    pub postings: u64,
}

/// One game reaching one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Posting {
    /// Index of the game in the table.
    pub game: u32,
    /// Plies played before the position (passes count); the first time the game reaches it.
    pub ply: u8,
    /// The move played there as the game played it (square 0-63, 64 a pass), or
    /// [`NO_NEXT`] where the game ended.
    pub next: u8,
    /// Index in `Symmetry::ALL` of the first symmetry that maps the game's board onto the
    /// canonical one.
    pub sym: u8,
    /// Final disc difference, black minus white.
    pub result: Option<i8>,
}

impl Posting {
    /// The entry's bytes: `game u32, ply u8, next u8, sym u8, result i8`.
    #[must_use]
    pub fn encode(&self) -> [u8; POSTING_SIZE] {
        let g = self.game.to_le_bytes();
        let r = self.result.unwrap_or(NO_RESULT) as u8;
        [g[0], g[1], g[2], g[3], self.ply, self.next, self.sym, r]
    }

    /// An entry from its bytes (`b` holds at least [`POSTING_SIZE`]); `None` when a field is
    /// impossible.
    #[must_use]
    pub fn decode(b: &[u8]) -> Option<Posting> {
        let b: &[u8; POSTING_SIZE] = b.get(..POSTING_SIZE)?.try_into().ok()?;
        let result = b[7] as i8;
        let next_ok = b[5] == NO_NEXT || code_move(b[5]).is_some();
        let result_ok = result == NO_RESULT || (-64..=64).contains(&result);
        (b[4] <= 120 && next_ok && b[6] < 8 && result_ok).then_some(Posting {
            game: u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            ply: b[4],
            next: b[5],
            sym: b[6],
            result: (result != NO_RESULT).then_some(result),
        })
    }
}

/// The book position (index in the position table) of a canonical key, if any.
pub type Lookup<'a> = &'a (dyn Fn(Key) -> Option<usize> + Sync);

/// Calls its argument with every entry of an index, in table order (see
/// [`IndexPlan::write_from`]).
pub type EntryPass<'a> =
    &'a mut dyn FnMut(&mut (dyn FnMut(usize, Posting) + Send)) -> std::io::Result<()>;

/// The games an index is made of, read in table order a batch at a time, as many times as
/// the index needs (a [`GameTable`] in memory, or a table being written, read from a file).
pub trait IndexSource: Send {
    /// Games in the table.
    fn games(&self) -> usize;
    /// Appends the result and move codes of each game of `range` to `out`; a pass over the
    /// table asks for consecutive ranges from 0 to the end.
    fn read(
        &mut self,
        range: std::ops::Range<usize>,
        out: &mut Vec<(Option<i8>, Vec<u8>)>,
    ) -> std::io::Result<()>;
}

impl IndexSource for &GameTable {
    fn games(&self) -> usize {
        self.len()
    }

    fn read(
        &mut self,
        range: std::ops::Range<usize>,
        out: &mut Vec<(Option<i8>, Vec<u8>)>,
    ) -> std::io::Result<()> {
        out.extend(
            self.games[range]
                .iter()
                .map(|g| (g.result, self.moves_of(g).to_vec())),
        );
        Ok(())
    }
}

/// The index to write for a table: the posting offsets, counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexPlan {
    /// `positions + 1` offsets: the entries of position `i` are `offsets[i]..offsets[i+1]`.
    offsets: Vec<u64>,
    /// Most discs on a book position: games are replayed no further.
    max_discs: u32,
}

impl IndexPlan {
    /// Counts the entries of each of `positions` positions (`lookup` finds them; a book
    /// position holds at most `max_discs` discs) over the games of `source`.
    pub fn count(
        source: &mut dyn IndexSource,
        positions: usize,
        max_discs: u32,
        lookup: Lookup<'_>,
    ) -> std::io::Result<IndexPlan> {
        Self::count_each(source, positions, max_discs, lookup, &mut |_, _| {})
    }

    /// [`IndexPlan::count`], calling `each` with every entry as it is counted (games in
    /// table order, plies in order): what [`IndexPlan::write_from`] takes again.
    pub fn count_each(
        source: &mut dyn IndexSource,
        positions: usize,
        max_discs: u32,
        lookup: Lookup<'_>,
        each: &mut (dyn FnMut(usize, Posting) + Send),
    ) -> std::io::Result<IndexPlan> {
        let mut counts = vec![0u64; positions + 1];
        for_each_occurrence(source, max_discs, lookup, &mut |p, e| {
            counts[p + 1] += 1;
            each(p, e);
        })?;
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        Ok(IndexPlan {
            offsets: counts,
            max_discs,
        })
    }

    /// The size the header records.
    #[must_use]
    pub fn size(&self) -> GameIndexSize {
        GameIndexSize {
            postings: self.offsets.last().copied().unwrap_or(0),
        }
    }

    /// Writes the posting offsets and the postings of the games of `source`, holding at
    /// most about `memory` bytes of postings at once: one pass over the games per window
    /// of the output. The checkpoints and name uses follow ([`GameTable::write_index_tail`]).
    pub fn write(
        &self,
        source: &mut dyn IndexSource,
        lookup: Lookup<'_>,
        memory: usize,
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        let max_discs = self.max_discs;
        self.write_from(
            &mut |f| for_each_occurrence(source, max_discs, lookup, f),
            memory,
            out,
        )
    }

    /// [`IndexPlan::write`] with the entries given by `pass`, which calls its argument with
    /// every entry, in the order [`IndexPlan::count_each`] gave them, once per window of
    /// the output.
    pub fn write_from(
        &self,
        pass: EntryPass<'_>,
        memory: usize,
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        for o in &self.offsets {
            out.write_all(&o.to_le_bytes())?;
        }
        let total = self.size().postings;
        let window = (memory / POSTING_SIZE).max(1 << 16) as u64;
        let mut lo = 0u64;
        while lo < total {
            let hi = (lo + window).min(total);
            let mut buf = vec![0u8; (hi - lo) as usize * POSTING_SIZE];
            let mut cursor = self.offsets.clone();
            pass(&mut |p, e| {
                let slot = cursor[p];
                cursor[p] += 1;
                if (lo..hi).contains(&slot) {
                    let at = (slot - lo) as usize * POSTING_SIZE;
                    buf[at..at + POSTING_SIZE].copy_from_slice(&e.encode());
                }
            })?;
            out.write_all(&buf)?;
            lo = hi;
        }
        Ok(())
    }
}

/// Writes the move checkpoints of games of `moves_len` plies each, in table order.
pub fn write_checkpoints(
    moves_len: impl Iterator<Item = u8>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let mut at = 0u64;
    for (i, len) in moves_len.enumerate() {
        if i % CHECKPOINT_GAMES == 0 {
            out.write_all(&at.to_le_bytes())?;
        }
        at += super::codec::packed_len(len) as u64;
    }
    Ok(())
}

/// Marks in `uses` what a game record names its names as (the record's black, white,
/// event and source name indices).
pub fn mark_uses(uses: &mut [u8], black: u32, white: u32, event: u32, source: u32) {
    let mut mark = |n: u32, bit: u8| {
        if let Some(u) = uses.get_mut(n as usize) {
            *u |= bit;
        }
    };
    mark(black, USED_AS_PLAYER);
    mark(white, USED_AS_PLAYER);
    mark(event, USED_AS_EVENT);
    mark(source, USED_AS_SOURCE);
}

/// Calls `f(position, entry)` for every book position each game of `source` reaches (the
/// first time it does), games in table order, plies in order. Games are replayed in
/// parallel a batch at a time; a game that does not replay stops where it fails. While a
/// batch is replayed, one worker reads the next and gives the entries of the one before
/// to `f`, in order (the sequential part of the pass overlaps the parallel one).
fn for_each_occurrence(
    source: &mut dyn IndexSource,
    max_discs: u32,
    lookup: Lookup<'_>,
    f: &mut (dyn FnMut(usize, Posting) + Send),
) -> std::io::Result<()> {
    let games = source.games();
    let batch_of = |start: usize| start..(start + BATCH_GAMES).min(games);
    let mut batch = Vec::with_capacity(BATCH_GAMES.min(games));
    let mut next = Vec::with_capacity(BATCH_GAMES.min(games));
    if games > 0 {
        source.read(batch_of(0), &mut batch)?;
    }
    let mut found: Vec<Vec<(usize, Posting)>> = Vec::new();
    let mut start = 0;
    while start < games {
        let end = batch_of(start).end;
        let earlier = std::mem::take(&mut found);
        let (replayed, read) = rayon::join(
            || {
                batch
                    .par_iter()
                    .enumerate()
                    .with_min_len(256)
                    .map(|(k, (result, codes))| {
                        occurrences(start + k, *result, codes, max_discs, lookup)
                    })
                    .collect::<Vec<_>>()
            },
            || {
                for (p, e) in earlier.into_iter().flatten() {
                    f(p, e);
                }
                next.clear();
                if end < games {
                    source.read(batch_of(end), &mut next)?;
                }
                Ok::<(), std::io::Error>(())
            },
        );
        read?;
        found = replayed;
        std::mem::swap(&mut batch, &mut next);
        start = end;
    }
    for (p, e) in found.into_iter().flatten() {
        f(p, e);
    }
    Ok(())
}

/// The book positions game number `i` (its `result`, its move `codes`) reaches, with their
/// entries.
fn occurrences(
    i: usize,
    result: Option<i8>,
    codes: &[u8],
    max_discs: u32,
    lookup: Lookup<'_>,
) -> Vec<(usize, Posting)> {
    // The game is replayed first and its positions looked up after: the lookups do not
    // wait on one another, so their cache misses (a table of millions of keys) overlap.
    let none = Key {
        player: 0,
        opponent: 0,
    };
    let mut replayed = [(none, 0u8); MAX_OCCURRENCES];
    let mut n = 0;
    let mut board = Board::START;
    for ply in 0..=codes.len().min(MAX_OCCURRENCES - 1) {
        let discs = (board.player().0 | board.opponent().0).count_ones();
        if discs > max_discs {
            break;
        }
        let c = Canonical::of(&board);
        replayed[n] = (c.key, c.syms.trailing_zeros() as u8 & 7);
        n += 1;
        let Some(next) = codes.get(ply).and_then(|&c| code_move(c)) else {
            break;
        };
        match board.play_move(next) {
            Ok(b) => board = b,
            Err(_) => break,
        }
    }
    let mut out = Vec::with_capacity(n);
    let mut last = None;
    for (ply, &(key, sym)) in replayed[..n].iter().enumerate() {
        let here = lookup(key);
        // The same discs after a pass may be the same position: the first ply counts.
        if let Some(p) = here.filter(|_| here != last) {
            out.push((
                p,
                Posting {
                    game: i as u32,
                    ply: ply as u8,
                    next: codes.get(ply).copied().unwrap_or(NO_NEXT),
                    sym,
                    result,
                },
            ));
        }
        last = here;
    }
    out
}

impl GameTable {
    /// Per name: what the games use it as ([`USED_AS_PLAYER`], [`USED_AS_EVENT`],
    /// [`USED_AS_SOURCE`] bits).
    #[must_use]
    pub fn name_uses(&self) -> Vec<u8> {
        let mut uses = vec![0u8; self.names.len()];
        for g in &self.games {
            mark_uses(&mut uses, g.black, g.white, g.event, g.source);
        }
        uses
    }

    /// Writes the parts of the index after the postings: the move checkpoints and the
    /// name uses.
    pub fn write_index_tail(&self, out: &mut impl Write) -> std::io::Result<()> {
        write_checkpoints(self.games.iter().map(|g| g.moves_len), out)?;
        out.write_all(&self.name_uses())
    }
}
