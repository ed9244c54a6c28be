//! Leaf-search settings and shards, checked once when made.

use crate::book::key::{stable_hash, Key};
use crate::book::EvalInfo;
use crate::engine::{Depth, HashSize, Limits, Selectivity, MAX_DEPTH};
use std::str::FromStr;

/// The largest enhancement window, in discs: the whole score range.
pub const MAX_WINDOW: f64 = 64.0;

/// Why settings cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SettingsError {
    /// An enhancement window that is not a number of discs in range.
    #[error("--window {0} is out of range: use 0 to {MAX_WINDOW} discs")]
    Window(f64),
    /// Depth out of range.
    #[error("depth {0} is out of range: use 1 to {MAX_DEPTH}")]
    Depth(u32),
    /// Exact-from out of range.
    #[error("exact-from {0} is out of range: use 0 (never) to 30 empties")]
    ExactFrom(u32),
    /// A shard that is not `I/N` with I < N.
    #[error("shard {0:?} is not I/N with 0 <= I < N (for example 0/3, 1/3, 2/3)")]
    Shard(String),
    /// Hash size out of range.
    #[error("hash {0} MiB is out of range: use 1 to 4096")]
    Hash(usize),
    /// A recorded selectivity (a book's header, a parts file) that is not a level.
    #[error("selectivity {0}% is not a level: use 73, 87, 95, 98, 99 or 100")]
    Selectivity(u8),
    /// Leaves searched with other settings would stay beside the new ones.
    #[error(
        "the book's leaves were searched with {book}, not {asked}: {kept} of them would stay \
         beside leaves searched with the new settings: evaluate the book again with these \
         settings (`othbook book evaluate --update` searches only the leaves they change, \
         `--refresh` every leaf; without --plies) or give the book's"
    )]
    Mixed {
        /// The book's settings.
        book: EvalInfo,
        /// The settings asked for.
        asked: EvalInfo,
        /// Leaves of the book's settings that would stay.
        kept: usize,
    },
}

/// How each leaf is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeafSettings {
    depth: Depth,
    exact_from: u8,
    hash: HashSize,
    selectivity: Selectivity,
}

/// The largest default transposition table per leaf search.
pub const DEFAULT_LEAF_HASH_MB: usize = 16;

/// The default table per leaf search for `depth`: it is cleared before every leaf, so a
/// table much larger than the search needs costs more to clear than it saves (measured on
/// 990 leaves at depth 12, 2 threads: 4 MiB 106 s, 16 MiB 72 s, 64 MiB 113 s; at depth 4,
/// clearing 16 MiB took most of the time).
#[must_use]
pub fn default_hash_mb(depth: u32) -> usize {
    match depth {
        0..=6 => 1,
        7..=9 => 4,
        _ => DEFAULT_LEAF_HASH_MB,
    }
}

/// The selectivity level a book's header or a parts file records (as a percent).
pub fn selectivity_of(info: &EvalInfo) -> Result<Selectivity, SettingsError> {
    Selectivity::all()
        .find(|s| s.percent() == info.selectivity)
        .ok_or(SettingsError::Selectivity(info.selectivity))
}

impl LeafSettings {
    /// Midgame searches to `depth` plies at full width (see
    /// [`LeafSettings::with_selectivity`]); exact solves at `exact_from` empties or fewer
    /// (0: never).
    pub fn new(depth: u32, exact_from: u32, hash_mb: usize) -> Result<LeafSettings, SettingsError> {
        let Ok(checked) = Depth::new(depth) else {
            return Err(SettingsError::Depth(depth));
        };
        if exact_from > 30 {
            return Err(SettingsError::ExactFrom(exact_from));
        }
        // A leaf's table is cleared before each search: 4 GiB at most, within the engine's bound.
        let Some(hash) = HashSize::new(hash_mb).ok().filter(|h| h.mb() <= 4096) else {
            return Err(SettingsError::Hash(hash_mb));
        };
        Ok(LeafSettings {
            depth: checked,
            exact_from: exact_from as u8,
            hash,
            selectivity: Selectivity::EXACT,
        })
    }

    /// The same settings with Multi-ProbCut at `selectivity` in the midgame searches
    /// ([`Selectivity::EXACT`]: full width, the default). Solves stay exact.
    #[must_use]
    pub fn with_selectivity(self, selectivity: Selectivity) -> LeafSettings {
        LeafSettings {
            selectivity,
            ..self
        }
    }

    /// The settings a book's header or a parts file records, with `hash_mb` per search.
    pub fn from_info(info: &EvalInfo, hash_mb: usize) -> Result<LeafSettings, SettingsError> {
        let selectivity = selectivity_of(info)?;
        Ok(
            LeafSettings::new(u32::from(info.depth), u32::from(info.exact_from), hash_mb)?
                .with_selectivity(selectivity),
        )
    }

    /// Search depth in plies.
    #[must_use]
    pub fn depth(&self) -> u8 {
        self.depth.plies() as u8
    }

    /// Leaves with at most this many empties are solved.
    #[must_use]
    pub fn exact_from(&self) -> u8 {
        self.exact_from
    }

    /// Multi-ProbCut's confidence in the midgame searches.
    #[must_use]
    pub fn selectivity(&self) -> Selectivity {
        self.selectivity
    }

    /// Transposition table per search, MiB.
    #[must_use]
    pub fn hash_mb(&self) -> usize {
        self.hash.mb()
    }

    /// Transposition table per search, as the engine takes it.
    #[must_use]
    pub fn hash(&self) -> HashSize {
        self.hash
    }

    /// What the book's header records.
    #[must_use]
    pub fn info(&self) -> EvalInfo {
        EvalInfo {
            depth: self.depth(),
            exact_from: self.exact_from,
            selectivity: self.selectivity.percent(),
        }
    }

    /// Whether a leaf of a position with `empties` empty squares is searched alike under
    /// these settings and `other`: solved under both, or searched to the same depth at the
    /// same selectivity under both. (Raising --exact-from changes only the leaves it newly
    /// solves.)
    #[must_use]
    pub fn searches_alike(&self, other: &LeafSettings, empties: u32) -> bool {
        let solved = empties <= u32::from(self.exact_from);
        let other_solved = empties <= u32::from(other.exact_from);
        match (solved, other_solved) {
            (true, true) => true,
            (false, false) => self.depth == other.depth && self.selectivity == other.selectivity,
            _ => false,
        }
    }

    /// The engine limits for a position with `empties` empty squares: a solve (always
    /// exact), or a midgame search at the selectivity (set explicitly: the engine's default
    /// is selective).
    #[must_use]
    pub fn limits(&self, empties: u32) -> Limits {
        if empties <= u32::from(self.exact_from) {
            Limits::exact().selectivity(Selectivity::EXACT)
        } else {
            Limits::depth(self.depth).selectivity(self.selectivity)
        }
    }
}

/// One of `count` disjoint parts of a book's positions, chosen by the stable hash of the
/// canonical key (never ahash, whose output changes between builds and machines).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u32,
    count: u32,
}

impl Shard {
    /// The whole book.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`.
    pub fn new(index: u32, count: u32) -> Result<Shard, SettingsError> {
        if count == 0 || index >= count {
            return Err(SettingsError::Shard(format!("{index}/{count}")));
        }
        Ok(Shard { index, count })
    }

    /// Index, from 0.
    #[must_use]
    pub fn index(&self) -> u32 {
        self.index
    }

    /// Number of shards.
    #[must_use]
    pub fn count(&self) -> u32 {
        self.count
    }

    /// Whether the position `key` belongs to this shard.
    #[must_use]
    pub fn contains(&self, key: Key) -> bool {
        // The high bits: the low ones also order the position table's buckets, which is fine,
        // but the product spreads any count evenly.
        ((u128::from(stable_hash(key)) * u128::from(self.count)) >> 64) as u32 == self.index
    }
}

impl FromStr for Shard {
    type Err = SettingsError;
    fn from_str(s: &str) -> Result<Shard, SettingsError> {
        let bad = || SettingsError::Shard(s.to_string());
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let i: u32 = i.trim().parse().map_err(|_| bad())?;
        let n: u32 = n.trim().parse().map_err(|_| bad())?;
        Shard::new(i, n).map_err(|_| bad())
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_partition() {
        assert_eq!("1/3".parse::<Shard>(), Shard::new(1, 3));
        for bad in ["3/3", "1", "a/3", "0/0", "-1/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let shards: Vec<Shard> = (0..3).map(|i| Shard::new(i, 3).unwrap()).collect();
        let mut sizes = [0u32; 3];
        for n in 0..3000u64 {
            let key = Key {
                player: n.wrapping_mul(0x9E37_79B9),
                opponent: n << 20,
            };
            let owners: Vec<usize> = (0..3).filter(|&i| shards[i].contains(key)).collect();
            assert_eq!(owners.len(), 1, "each key in exactly one shard");
            sizes[owners[0]] += 1;
        }
        assert!(sizes.iter().all(|&s| s > 800), "{sizes:?}");
    }

    #[test]
    fn settings_are_checked_once() {
        assert!(LeafSettings::new(0, 0, 16).is_err());
        assert!(LeafSettings::new(12, 31, 16).is_err());
        assert!(LeafSettings::new(12, 20, 0).is_err());
        let s = LeafSettings::new(12, 20, 16).unwrap();
        assert_eq!(s.limits(20).mode, crate::engine::Mode::Exact);
        assert_eq!(s.limits(21).depth.map(Depth::plies), Some(12));
    }
}
