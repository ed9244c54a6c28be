//! Book learning: searching the leaves of a book's positions (`book evaluate`), in shards
//! that separate machines can run (`book apply` gathers them), and deviation learning
//! (`book deviate`), which adds the positions off the book's best lines that are worth
//! knowing, and enhancement (`book enhance`), more search where the book's choice is close.
//!
//! Determinism: every leaf search runs on one thread with its own transposition table,
//! cleared before each search, so a leaf's score depends on the position and the settings
//! alone, not on which worker searched it, in which order, or on how many workers there
//! were. A shared table would carry scores between searches (deeper entries from one
//! position deepen another's search), making values depend on scheduling.

mod deviate;
mod enhance;
mod error;
mod parts;
mod search;
mod settings;

pub use deviate::{deviate, DeviateReport, DeviateSettings};
pub use enhance::{enhance, EnhanceReport, EnhanceSettings};
pub use error::LearnError;
pub use parts::{book_digest, read_parts, write_parts, Parts, PartsError};
pub use search::{
    apply_leaves, check_kept_leaves, check_plan, plan, put_leaves, search_leaves, search_missing,
    Again, Checkpoint, LeafJob, Plan, Results, SearchRun,
};
pub use settings::default_hash_mb;
pub use settings::{
    selectivity_of, LeafSettings, SettingsError, Shard, DEFAULT_LEAF_HASH_MB, MAX_WINDOW,
};

#[cfg(test)]
mod tests;
