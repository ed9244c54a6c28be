//! The transposition table shared by all search threads: fixed size, lock-free, no false hits.
//!
//! A power-of-two number of 64-byte buckets (one cache line each) holds two entries. Each
//! entry is four atomics: a sequence counter, the full board (both bitboards) and a packed
//! word (score, depth, bound, kind, selectivity, best move, age). Writers take the entry by moving its
//! counter to an odd value with a compare-exchange and give up rather than wait if another
//! writer holds it; readers never wait and discard any entry whose counter changed while they
//! read it (a torn read) or whose board differs from theirs. So a probe only ever returns what
//! was stored for exactly that board.

use super::selectivity::Selectivity;
use crate::board::Square;
use std::sync::atomic::{fence, AtomicU64, AtomicU8, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is at least the score (the search failed high).
    Lower,
    /// The value is at most the score (failed low).
    Upper,
    /// The value is the score.
    Exact,
}

/// Which search produced an entry: their scores are in different units and not comparable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Depth-limited search with the evaluation (scores in `SCALE` units).
    Midgame,
    /// Exact endgame search (scores in discs, bounds on the perfect-play result).
    Endgame,
}

/// A probed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Score (units depend on `kind`).
    pub score: i32,
    /// Remaining depth searched (empties for endgame entries).
    pub depth: u8,
    /// Bound type of `score`.
    pub bound: Bound,
    /// Which search stored it.
    pub kind: Kind,
    /// ProbCut level of the search that stored it: a search at a surer level must not take
    /// a cutoff from it (an exact solve only trusts [`Selectivity::EXACT`] entries).
    pub selectivity: Selectivity,
    /// Best move found, if any.
    pub best: Option<Square>,
    /// Search generation that stored or last refreshed it.
    pub age: u8,
}

impl Entry {
    fn pack(&self) -> u64 {
        let bound = match self.bound {
            Bound::Lower => 1u64,
            Bound::Upper => 2,
            Bound::Exact => 3,
        };
        let kind = u64::from(self.kind == Kind::Endgame);
        let best = self.best.map_or(64u64, |s| u64::from(s as u8));
        u64::from(self.score as i16 as u16)
            | u64::from(self.depth) << 16
            | bound << 24
            | kind << 26
            | u64::from(self.selectivity.level()) << 27
            | best << 32
            | u64::from(self.age) << 40
    }

    fn unpack(w: u64) -> Option<Entry> {
        let bound = match (w >> 24) & 3 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            3 => Bound::Exact,
            _ => return None,
        };
        Some(Entry {
            score: i32::from(w as u16 as i16),
            depth: (w >> 16) as u8,
            bound,
            kind: if (w >> 26) & 1 == 1 {
                Kind::Endgame
            } else {
                Kind::Midgame
            },
            selectivity: Selectivity::from_level(((w >> 27) & 7) as u8)?,
            best: Square::from_index(((w >> 32) & 127) as u8),
            age: (w >> 40) as u8,
        })
    }
}

#[derive(Default)]
struct Slot {
    seq: AtomicU64,
    player: AtomicU64,
    opponent: AtomicU64,
    data: AtomicU64,
}

#[repr(C, align(64))]
#[derive(Default)]
struct Bucket {
    slots: [Slot; 2],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// The bucket array in anonymous memory: the kernel hands out zeroed pages only when first
/// touched (no up-front memset of the whole table on every new engine), and the mapping is
/// marked for transparent huge pages, since random probes otherwise miss the TLB nearly
/// every time. Measured on FFO #40: page-zeroing and faults were ~9% of a 1.2 s solve.
struct Buckets {
    map: memmap2::MmapMut,
    /// Byte offset of the first bucket (the mapping is over-allocated to align it to 2 MiB).
    offset: usize,
    len: usize,
}

const HUGE_PAGE: usize = 2 << 20;
/// The most of a table [`Buckets::new`] faults in up front.
#[cfg(target_os = "linux")]
const PREFAULT_MAX: usize = 512 << 20;

impl Buckets {
    fn new(len: usize) -> std::io::Result<Buckets> {
        let bytes = len * std::mem::size_of::<Bucket>();
        let extra = if bytes >= HUGE_PAGE { HUGE_PAGE } else { 64 };
        let map = memmap2::MmapMut::map_anon(bytes + extra)?;
        let addr = map.as_ptr() as usize;
        let align = extra.max(64);
        let offset = addr.next_multiple_of(align) - addr;
        #[allow(unused_mut)]
        let mut buckets = Buckets { map, offset, len };
        #[cfg(target_os = "linux")]
        if bytes >= HUGE_PAGE {
            // Only a hint: without huge pages the table works the same, a little slower.
            let _ = buckets
                .map
                .advise_range(memmap2::Advice::HugePage, offset, bytes);
            buckets.prefault(bytes);
        }
        Ok(buckets)
    }

    /// Faults in the first [`PREFAULT_MAX`] bytes now, one huge page at a time. The kernel may
    /// compact memory to find a huge page, which stalled a search that touched the page
    /// first by 50-120 ms (`analyze --time 0.1` ending at depth 4-7 instead of 15 in 3 runs
    /// of 8); here the wait falls before any clock starts. Larger tables fault in the rest
    /// lazily, so that an oversized `--hash` is not all committed at once.
    #[cfg(target_os = "linux")]
    fn prefault(&mut self, bytes: usize) {
        let end = self.offset + bytes.min(PREFAULT_MAX);
        for at in (self.offset..end).step_by(HUGE_PAGE) {
            self.map[at] = 0;
        }
    }

    #[inline]
    fn as_slice(&self) -> &[Bucket] {
        // SAFETY: `offset..offset + len * 64` lies inside the mapping (it was over-allocated by
        // the alignment slack) and is 64-byte aligned; the pages are zero-filled by the kernel
        // and all-zero bytes are a valid `Bucket` (atomics holding 0, an empty slot). Every
        // access after that goes through the atomics, so shared references are sound.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().add(self.offset).cast(), self.len) }
    }

    fn as_mut_slice(&mut self) -> &mut [Bucket] {
        // SAFETY: as in `as_slice`, and `&mut self` guarantees no other reference exists.
        unsafe {
            std::slice::from_raw_parts_mut(self.map.as_mut_ptr().add(self.offset).cast(), self.len)
        }
    }
}

/// The shared transposition table.
pub struct TranspositionTable {
    buckets: Buckets,
    mask: u64,
    age: AtomicU8,
}

/// A snapshot of one slot, consistent (not torn) by construction.
struct Read {
    player: u64,
    opponent: u64,
    data: u64,
}

impl Slot {
    #[inline]
    fn read(&self) -> Option<Read> {
        let s1 = self.seq.load(Ordering::Acquire);
        if s1 & 1 == 1 {
            return None;
        }
        let player = self.player.load(Ordering::Relaxed);
        let opponent = self.opponent.load(Ordering::Relaxed);
        let data = self.data.load(Ordering::Relaxed);
        fence(Ordering::Acquire);
        let s2 = self.seq.load(Ordering::Relaxed);
        (s1 == s2).then_some(Read {
            player,
            opponent,
            data,
        })
    }

    /// Writes unless another writer holds the slot (then the store is simply dropped).
    #[inline]
    fn write(&self, player: u64, opponent: u64, data: u64) {
        let s = self.seq.load(Ordering::Relaxed);
        if s & 1 == 1
            || self
                .seq
                .compare_exchange(s, s + 1, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        fence(Ordering::Release);
        self.player.store(player, Ordering::Relaxed);
        self.opponent.store(opponent, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
        self.seq.store(s + 2, Ordering::Release);
    }
}

impl TranspositionTable {
    /// A table using at most `mb` mebibytes (rounded down to a power of two of buckets; at
    /// least one bucket), or the system's error when it cannot have that much memory.
    pub fn try_new(mb: usize) -> std::io::Result<TranspositionTable> {
        let buckets = (mb.max(1).saturating_mul(1 << 20) / 64).max(1);
        Self::try_with_buckets(1 << buckets.ilog2())
    }

    /// [`TranspositionTable::try_new`] for sizes known to fit.
    ///
    /// # Panics
    /// When the memory cannot be had.
    #[must_use]
    pub fn new(mb: usize) -> TranspositionTable {
        Self::try_new(mb).unwrap_or_else(|e| panic!("cannot allocate a {mb} MiB table: {e}"))
    }

    fn try_with_buckets(n: usize) -> std::io::Result<TranspositionTable> {
        assert!(n.is_power_of_two(), "bucket count must be a power of two");
        Ok(TranspositionTable {
            buckets: Buckets::new(n)?,
            mask: n as u64 - 1,
            age: AtomicU8::new(0),
        })
    }

    /// A table of exactly `n` buckets (`n` a power of two), for tests that want collisions.
    ///
    /// # Panics
    /// When `n` is not a power of two or the memory cannot be had.
    #[must_use]
    pub fn with_buckets(n: usize) -> TranspositionTable {
        Self::try_with_buckets(n).unwrap_or_else(|e| panic!("cannot allocate {n} buckets: {e}"))
    }

    /// Size in bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.buckets.len * 64
    }

    /// Empties every entry. Needs exclusive access, so no search can be running.
    pub fn clear(&mut self) {
        for b in self.buckets.as_mut_slice() {
            *b = Bucket::default();
        }
    }

    /// Starts a new search generation: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    /// The current generation.
    #[must_use]
    pub fn age(&self) -> u8 {
        self.age.load(Ordering::Relaxed)
    }

    #[inline]
    fn bucket(&self, p: u64, o: u64) -> &Bucket {
        let h = crate::board::Board::from_bits(p, o).hash64();
        // SAFETY-free indexing: the mask keeps the index in range, so the check never fails.
        &self.buckets.as_slice()[(h & self.mask) as usize]
    }

    /// Hint to bring the bucket of a board into cache before it is probed.
    #[inline]
    pub fn prefetch(&self, p: u64, o: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let b = self.bucket(p, o) as *const Bucket as *const i8;
            // SAFETY: prefetching is only a hint and `b` points into the live bucket array.
            unsafe { std::arch::x86_64::_mm_prefetch(b, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (p, o);
    }

    /// The entry stored for exactly this board (`p` to move, `o` the opponent), if any.
    #[inline]
    #[must_use]
    pub fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        let b = self.bucket(p, o);
        for slot in &b.slots {
            if let Some(r) = slot.read() {
                if r.player == p && r.opponent == o {
                    return Entry::unpack(r.data);
                }
            }
        }
        None
    }

    /// Stores a result found at selectivity `sel`. Replaces the entry of the same board
    /// unless that one is at least as deep and surer, else the less valuable of the two
    /// (older generation first, then shallower).
    // Plain arguments keep the hot call free of a temporary struct.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        p: u64,
        o: u64,
        depth: u8,
        kind: Kind,
        bound: Bound,
        score: i32,
        best: Option<Square>,
        sel: Selectivity,
    ) {
        let age = self.age();
        let b = self.bucket(p, o);
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for (i, slot) in b.slots.iter().enumerate() {
            let Some(r) = slot.read() else { continue };
            if r.player == p && r.opponent == o {
                let old = Entry::unpack(r.data);
                // Keep a deeper result of this generation unless the new one is exact and
                // the old one is not; keep a known best move if the new result has none.
                let best = best.or(old.and_then(|e| e.best));
                if let Some(e) = old {
                    // A proven endgame bound is worth more than any evaluation.
                    if e.kind == Kind::Endgame && kind == Kind::Midgame {
                        return;
                    }
                    // A surer result of at least the same depth is worth more than this
                    // one, whatever its generation.
                    if e.kind == kind && e.selectivity > sel && e.depth >= depth {
                        return;
                    }
                    if e.age == age
                        && e.kind == kind
                        && e.depth > depth
                        && !(bound == Bound::Exact && e.bound != Bound::Exact)
                    {
                        return;
                    }
                }
                let data = Entry {
                    score,
                    depth,
                    bound,
                    kind,
                    selectivity: sel,
                    best,
                    age,
                }
                .pack();
                slot.write(p, o, data);
                return;
            }
            let value = match Entry::unpack(r.data) {
                None => i32::MIN,
                Some(e) => {
                    let stale = if e.age == age { 0 } else { 1000 };
                    let endgame = if e.kind == Kind::Endgame { 64 } else { 0 };
                    i32::from(e.depth) + endgame - stale
                }
            };
            if value < victim_value {
                victim_value = value;
                victim = i;
            }
        }
        let data = Entry {
            score,
            depth,
            bound,
            kind,
            selectivity: sel,
            best,
            age,
        }
        .pack();
        b.slots[victim].write(p, o, data);
    }
}

impl std::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("buckets", &self.buckets.len)
            .field("age", &self.age())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first touches of a new table must not wait for the kernel to find huge pages in
    /// the middle of a search (`analyze --time 0.1` would stop at depth 4-7 instead of 15):
    /// the pages are faulted in when the table is made.
    #[cfg(target_os = "linux")]
    #[test]
    fn regression_a_search_stalled_on_the_tables_first_touches() {
        let tt = TranspositionTable::new(64);
        let b = &tt.buckets;
        let page = 4096;
        for at in (0..64 << 20).step_by(HUGE_PAGE) {
            let addr = (b.map.as_ptr() as usize + b.offset + at) & !(page - 1);
            let mut resident = [0u8; 1];
            // SAFETY: mincore only reads whether one page of this live mapping is in memory,
            // into a one-byte buffer for one page.
            let r =
                unsafe { libc::mincore(addr as *mut libc::c_void, page, resident.as_mut_ptr()) };
            assert_eq!(r, 0, "mincore");
            assert_eq!(resident[0] & 1, 1, "the page at {at} is not in memory");
        }
    }

    /// `--hash 65536` on a machine without 64 GiB panicked with a backtrace.
    #[test]
    fn regression_a_table_too_large_for_the_machine_panicked() {
        // An exbibyte is beyond any machine's address space, whatever the overcommit policy.
        let Err(err) = TranspositionTable::try_new(1 << 40) else {
            panic!("an exbibyte table was allocated");
        };
        assert!(!err.to_string().is_empty());
        assert_eq!(
            TranspositionTable::try_new(3).expect("small").bytes(),
            2 << 20
        );
    }

    #[test]
    fn entries_round_trip() {
        let tt = TranspositionTable::new(1);
        tt.store(
            1,
            2,
            7,
            Kind::Midgame,
            Bound::Lower,
            -1234,
            Square::from_index(19),
            Selectivity::EXACT,
        );
        let e = tt.probe(1, 2).expect("stored");
        assert_eq!(e.score, -1234);
        assert_eq!(e.depth, 7);
        assert_eq!(e.bound, Bound::Lower);
        assert_eq!(e.kind, Kind::Midgame);
        assert_eq!(e.best, Some(Square::D3));
        assert_eq!(tt.probe(2, 1), None);
        tt.store(
            1,
            2,
            9,
            Kind::Endgame,
            Bound::Exact,
            64,
            None,
            Selectivity::EXACT,
        );
        let e = tt.probe(1, 2).expect("stored");
        assert_eq!(
            (e.score, e.kind, e.best),
            (64, Kind::Endgame, Some(Square::D3))
        );
    }

    #[test]
    fn every_selectivity_round_trips_beside_the_other_fields() {
        let tt = TranspositionTable::new(1);
        for (i, sel) in Selectivity::all().enumerate() {
            let (p, o) = (1u64 << i, 1u64 << (i + 20));
            let score = -6400 + 1000 * i as i32;
            tt.store(
                p,
                o,
                60,
                Kind::Endgame,
                Bound::Upper,
                score,
                Square::from_index(63),
                sel,
            );
            let e = tt.probe(p, o).expect("stored");
            assert_eq!(
                (e.selectivity, e.score, e.depth, e.bound, e.kind, e.best),
                (
                    sel,
                    score,
                    60,
                    Bound::Upper,
                    Kind::Endgame,
                    Some(Square::H8)
                )
            );
        }
    }

    /// A selective result must not overwrite a surer one of the same depth (the iterative
    /// endgame stores all levels for the same boards), but a surer one replaces it.
    #[test]
    fn a_surer_entry_is_kept_over_a_less_sure_one() {
        let tt = TranspositionTable::new(1);
        let lowest = Selectivity::LOWEST;
        tt.store(
            1,
            2,
            20,
            Kind::Endgame,
            Bound::Exact,
            4,
            None,
            Selectivity::EXACT,
        );
        tt.store(1, 2, 20, Kind::Endgame, Bound::Exact, 8, None, lowest);
        let e = tt.probe(1, 2).expect("stored");
        assert_eq!((e.score, e.selectivity), (4, Selectivity::EXACT));
        tt.store(3, 4, 20, Kind::Endgame, Bound::Lower, 8, None, lowest);
        tt.store(
            3,
            4,
            20,
            Kind::Endgame,
            Bound::Upper,
            2,
            None,
            Selectivity::EXACT,
        );
        let e = tt.probe(3, 4).expect("stored");
        assert_eq!((e.score, e.selectivity), (2, Selectivity::EXACT));
    }

    #[test]
    fn size_is_a_power_of_two_of_cache_lines() {
        let tt = TranspositionTable::new(3);
        assert_eq!(tt.bytes(), 2 << 20);
        assert!(tt.bytes().is_power_of_two());
    }
}
