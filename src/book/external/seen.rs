//! Which positions were seen more than once: two blocked Bloom filters of position hashes
//! (the book's stable hash, so a build's runs are the same from one run to the next), the
//! first of positions seen, the second of positions seen again. A position whose hash is not
//! in the second was seen once, and at `--min-games` 2 or more can be left out of the runs:
//! it cannot reach the minimum. A false positive only keeps a position that is then counted
//! exactly and pruned as before, so the book does not depend on the filters' sizes.
//!
//! Each hash sets a few bits of one 64-bit word, with one atomic OR: the second of two
//! insertions of the same hash always finds its bits set, whatever the threads' order.

use std::sync::atomic::{AtomicU64, Ordering};

/// Bits set per hash in its word.
const BITS: u32 = 4;

/// A blocked Bloom filter of hashes.
struct Bloom {
    words: Vec<AtomicU64>,
}

impl Bloom {
    /// A filter of `bytes` bytes (at least one word, at most 2^32).
    fn new(bytes: u64) -> Bloom {
        let words = (bytes / 8).clamp(1, 1 << 32) as usize;
        Bloom {
            words: (0..words).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The word and the bits of `hash`.
    fn place(&self, hash: u64) -> (usize, u64) {
        let h = mix(hash);
        // The low 32 bits scaled to the number of words; the bits from the top 24.
        let word = (((h & 0xFFFF_FFFF) * self.words.len() as u64) >> 32) as usize;
        let mut bits = 0u64;
        for i in 0..BITS {
            bits |= 1 << ((h >> (40 + 6 * i)) & 63);
        }
        (word, bits)
    }

    /// Adds `hash`; whether it was (probably) there already.
    fn add(&self, hash: u64) -> bool {
        let (w, bits) = self.place(hash);
        self.set(w, bits, self.words[w].load(Ordering::Relaxed))
    }

    /// Sets `bits` in word `w`, read earlier as `was`; whether they were all set already.
    /// Bits are never cleared, so bits seen set need no atomic write (the locked write,
    /// which waits for the word and holds back the reads after it, is only paid for the
    /// bits of a hash seen for the first time).
    fn set(&self, w: usize, bits: u64, was: u64) -> bool {
        was & bits == bits || self.words[w].fetch_or(bits, Ordering::Relaxed) & bits == bits
    }

    fn contains(&self, hash: u64) -> bool {
        let (w, bits) = self.place(hash);
        self.words[w].load(Ordering::Relaxed) & bits == bits
    }
}

/// A second, independent mix of the stable hash, so that the filter's places do not follow
/// the hash's top bits (the book's buckets).
fn mix(x: u64) -> u64 {
    crate::book::key::fmix64(x ^ 0xA076_1D64_78BD_642F)
}

/// The positions seen, and those seen again (see the module).
pub(super) struct Seen {
    once: Option<Bloom>,
    twice: Bloom,
}

impl Seen {
    /// Filters of `bytes` in all: seven eighths for the positions seen, one eighth for those
    /// seen again (far fewer: most positions of large collections are seen once).
    pub fn new(bytes: u64) -> Seen {
        Seen {
            once: Some(Bloom::new(bytes / 8 * 7)),
            twice: Bloom::new(bytes / 8),
        }
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        let words = self.twice.words.len() + self.once.as_ref().map_or(0, |b| b.words.len());
        words as u64 * 8
    }

    /// Counts the positions of one game (by their stable hashes) seen once more. Safe from
    /// several threads. The words of a few at a time are read first, with plain reads whose cache misses
    /// overlap, so that the atomic writes find them in the cache.
    pub fn add_all(&self, hashes: &[u64]) {
        const AHEAD: usize = 16;
        let Some(once) = &self.once else {
            return;
        };
        for chunk in hashes.chunks(AHEAD) {
            let mut places = [(0usize, 0u64, 0u64); AHEAD];
            for (p, &h) in places.iter_mut().zip(chunk) {
                let (w, bits) = once.place(h);
                *p = (w, bits, once.words[w].load(Ordering::Relaxed));
            }
            for (&(w, bits, was), &h) in places.iter().zip(chunk) {
                if once.set(w, bits, was) {
                    self.twice.add(h);
                }
            }
        }
    }

    /// Ends the counting: the filter of positions seen once is freed.
    pub fn seal(&mut self) {
        self.once = None;
    }

    /// Whether a position (by its stable hash) may have been seen more than once; `false`
    /// is certain.
    pub fn again(&self, hash: u64) -> bool {
        self.twice.contains(hash)
    }
}

#[cfg(test)]
mod tests {
    use super::Seen;
    use rayon::prelude::*;

    /// A hash counted twice is always found, whatever the threads and however the hashes
    /// are grouped; one counted once is rarely found in a roomy filter.
    #[test]
    fn positions_seen_twice_are_always_kept() {
        let mut s = Seen::new(1 << 20);
        let hashes: Vec<u64> = (0..50_000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        // Every even one twice, interleaved across threads.
        let all: Vec<u64> = hashes
            .iter()
            .chain(hashes.iter().step_by(2))
            .copied()
            .collect();
        all.par_chunks(7).for_each(|c| s.add_all(c));
        s.seal();
        assert!(hashes.iter().step_by(2).all(|&h| s.again(h)));
        let false_kept = hashes.iter().skip(1).step_by(2).filter(|&&h| s.again(h));
        assert!(
            false_kept.count() < 2_500,
            "too many positions seen once kept"
        );
    }
}
