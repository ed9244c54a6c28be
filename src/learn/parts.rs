//! Parts files: the leaves one shard of `book evaluate` found, for `book apply` to gather
//! (and for a rerun to continue from). Layout: `OTHPARTS`, u32 version, u32 zero, then the
//! book digest (u64), depth, exact-from (u8 each), in version 2 the selectivity (u8,
//! percent), shard index and count (u32 each), the record count (u64), the records sorted by
//! key (player u64, opponent u64, 8-byte evaluation record holding the leaf), and a checksum
//! of everything before it (u64), all little-endian. Full-width leaves are written as
//! version 1 (which has no selectivity), so older othbook reads them.

use crate::book::key::Key;
use crate::book::{checksum, BookData, EvalInfo, Leaf, PosEval, EVAL_SIZE, FULL_WIDTH};
use crate::learn::{LeafSettings, Shard};
use std::io::Write;
use std::path::Path;

const MAGIC: [u8; 8] = *b"OTHPARTS";
/// Full-width leaves.
const VERSION_FULL_WIDTH: u32 = 1;
/// Leaves searched with Multi-ProbCut: one more head byte, the selectivity.
const VERSION: u32 = 2;
/// Head bytes of version 1.
const HEAD: usize = 8 + 4 + 4 + 8 + 1 + 1 + 4 + 4 + 8;
const RECORD: usize = 16 + EVAL_SIZE;

/// The leaves of one shard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parts {
    /// [`book_digest`] of the book they were searched for.
    pub digest: u64,
    /// Search depth.
    pub depth: u8,
    /// Exact solves from this many empties.
    pub exact_from: u8,
    /// Multi-ProbCut's confidence in the midgame searches, percent ([`FULL_WIDTH`]: none).
    pub selectivity: u8,
    /// Which shard.
    pub shard: Shard,
    /// The leaves, sorted by key.
    pub leaves: Vec<(Key, Leaf)>,
}

/// Why a parts file cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum PartsError {
    /// The file cannot be read or written.
    #[error("{path}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file cannot be read whole.
    #[error(transparent)]
    Read(#[from] crate::bounded_read::ReadError),
    /// Not a parts file, or a damaged one.
    #[error("{path}: {reason}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
}

/// A digest of a book's positions (their canonical keys in table order): parts belong to
/// the book with the same digest.
#[must_use]
pub fn book_digest(data: &BookData) -> u64 {
    let mut bytes = Vec::with_capacity(data.positions.len() * 16);
    for p in &data.positions {
        bytes.extend_from_slice(&p.key.player.to_le_bytes());
        bytes.extend_from_slice(&p.key.opponent.to_le_bytes());
    }
    checksum(&bytes)
}

impl Parts {
    /// Whether these parts were searched for the book `digest` with `settings` and `shard`.
    #[must_use]
    pub fn matches(&self, digest: u64, settings: &LeafSettings, shard: Shard) -> bool {
        self.digest == digest && self.info() == settings.info() && self.shard == shard
    }

    /// The settings the leaves were searched with, as a book's header records them.
    #[must_use]
    pub fn info(&self) -> EvalInfo {
        EvalInfo {
            depth: self.depth,
            exact_from: self.exact_from,
            selectivity: self.selectivity,
        }
    }

    /// The file's bytes.
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        let mut leaves = self.leaves.clone();
        leaves.sort_unstable_by_key(|(k, _)| *k);
        let mut out = Vec::with_capacity(HEAD + 1 + leaves.len() * RECORD + 8);
        out.extend_from_slice(&MAGIC);
        let full_width = self.selectivity >= FULL_WIDTH;
        let version = if full_width {
            VERSION_FULL_WIDTH
        } else {
            VERSION
        };
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&self.digest.to_le_bytes());
        out.extend_from_slice(&[self.depth, self.exact_from]);
        if !full_width {
            out.push(self.selectivity);
        }
        out.extend_from_slice(&self.shard.index().to_le_bytes());
        out.extend_from_slice(&self.shard.count().to_le_bytes());
        out.extend_from_slice(&(leaves.len() as u64).to_le_bytes());
        for (key, leaf) in &leaves {
            out.extend_from_slice(&key.player.to_le_bytes());
            out.extend_from_slice(&key.opponent.to_le_bytes());
            let rec = PosEval {
                leaf: *leaf,
                ..PosEval::default()
            };
            out.extend_from_slice(&rec.encode());
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Parts from a file's bytes; `Err(reason)` if they are not a parts file othbook wrote.
    pub fn decode(b: &[u8]) -> Result<Parts, String> {
        if b.len() < HEAD + 8 || b[..8] != MAGIC {
            return Err("not an othbook parts file (no OTHPARTS signature)".into());
        }
        let u32_at = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"));
        let u64_at = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
        // The selectivity byte of version 2 shifts what follows it by one.
        let (selectivity, x) = match u32_at(8) {
            VERSION_FULL_WIDTH => (FULL_WIDTH, 0),
            VERSION if b.len() >= HEAD + 9 && (1..FULL_WIDTH).contains(&b[26]) => (b[26], 1),
            VERSION => return Err("the selectivity is damaged".into()),
            v => return Err(format!("parts format version {v} is not 1 or 2")),
        };
        let head = HEAD + x;
        let count = u64_at(34 + x);
        let expected = (count as u128) * RECORD as u128 + head as u128 + 8;
        if expected != b.len() as u128 {
            return Err(format!(
                "truncated or extended: {count} records need {expected} bytes, the file has {}",
                b.len()
            ));
        }
        let end = b.len() - 8;
        if checksum(&b[..end]) != u64_at(end) {
            return Err("checksum mismatch: the file is damaged".into());
        }
        let shard = Shard::new(u32_at(26 + x), u32_at(30 + x)).map_err(|e| e.to_string())?;
        let mut leaves = Vec::with_capacity(count as usize);
        for rec in b[head..end].chunks_exact(RECORD) {
            let key = Key {
                player: u64::from_le_bytes(rec[..8].try_into().expect("8 bytes")),
                opponent: u64::from_le_bytes(rec[8..16].try_into().expect("8 bytes")),
            };
            let e = PosEval::decode(&rec[16..]).ok_or("a damaged leaf record")?;
            leaves.push((key, e.leaf));
        }
        Ok(Parts {
            digest: u64_at(16),
            depth: b[24],
            exact_from: b[25],
            selectivity,
            shard,
            leaves,
        })
    }
}

/// Writes `parts` to `path`, replacing it atomically.
pub fn write_parts(path: &Path, parts: &Parts) -> Result<(), PartsError> {
    let bytes = parts.encode();
    crate::atomic_file::replace(path, |f| f.write_all(&bytes)).map_err(|e| PartsError::Io {
        path: path.display().to_string(),
        source: e,
    })
}

/// Reads the parts file at `path`.
pub fn read_parts(path: &Path) -> Result<Parts, PartsError> {
    let name = path.display().to_string();
    // 2^40 bytes: far above any real shard (24 bytes a leaf), yet a device is not read forever.
    let bytes = crate::bounded_read::read_capped(path, 1 << 40)?;
    Parts::decode(&bytes).map_err(|reason| PartsError::Invalid { path: name, reason })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{Score, ValueKind};

    fn sample() -> Parts {
        Parts {
            digest: 42,
            depth: 12,
            exact_from: 20,
            selectivity: FULL_WIDTH,
            shard: Shard::new(1, 3).unwrap(),
            leaves: vec![
                (
                    Key {
                        player: 9,
                        opponent: 2,
                    },
                    Leaf::Move {
                        code: 19,
                        score: Score {
                            score: -250,
                            depth: 12,
                            kind: ValueKind::Midgame,
                        },
                    },
                ),
                (
                    Key {
                        player: 1,
                        opponent: 6,
                    },
                    Leaf::InBook,
                ),
            ],
        }
    }

    #[test]
    fn parts_round_trip_sorted() {
        let p = sample();
        let back = Parts::decode(&p.encode()).unwrap();
        let mut sorted = p.leaves.clone();
        sorted.sort_by_key(|(k, _)| *k);
        assert_eq!(back.leaves, sorted);
        assert_eq!((back.digest, back.depth, back.shard), (42, 12, p.shard));
    }

    #[test]
    fn selective_parts_round_trip_and_full_width_ones_keep_version_1() {
        let full = sample().encode();
        assert_eq!(full[8..12], 1u32.to_le_bytes(), "full width: version 1");
        assert_eq!(Parts::decode(&full).unwrap().selectivity, FULL_WIDTH);
        for pc in [73, 87, 95, 98, 99] {
            let p = Parts {
                selectivity: pc,
                ..sample()
            };
            let bytes = p.encode();
            assert_eq!(bytes[8..12], 2u32.to_le_bytes());
            assert_eq!(bytes.len(), full.len() + 1);
            let back = Parts::decode(&bytes).unwrap();
            assert_eq!((back.info(), back.shard), (p.info(), p.shard));
            assert_eq!(back.leaves.len(), 2);
            let mut bad = bytes.clone();
            bad[26] = 0;
            assert!(Parts::decode(&bad).is_err());
        }
    }

    #[test]
    fn damaged_or_foreign_parts_are_refused() {
        let bytes = sample().encode();
        let mut bad = bytes.clone();
        bad[HEAD + 3] ^= 1;
        assert!(Parts::decode(&bad).unwrap_err().contains("checksum"));
        assert!(Parts::decode(&bytes[..bytes.len() - 1])
            .unwrap_err()
            .contains("truncated"));
        assert!(
            Parts::decode(b"OTHBOOK\x1a and more bytes than a head holds, surely")
                .unwrap_err()
                .contains("signature")
        );
    }
}
