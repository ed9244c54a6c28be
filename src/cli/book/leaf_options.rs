//! The leaf-search settings of commands that add to an evaluated book (`deviate`, `enhance`):
//! the options given, the book's own evaluation for the others.

use crate::cli::common::bad;
use anyhow::Result;
use othbook::book::EvalInfo;
use othbook::engine::selectivity::Selectivity;
use othbook::learn::{default_hash_mb, selectivity_of, LeafSettings};
use std::path::Path;

/// The options a command was given; `None` takes the book's setting.
pub struct LeafOptions {
    /// Search depth in plies (the caller resolves its own default).
    pub depth: u32,
    /// Solve at this many empties or fewer.
    pub exact_from: Option<u32>,
    /// Multi-ProbCut's confidence in midgame leaf searches.
    pub selectivity: Option<Selectivity>,
    /// Transposition table per search, in MiB.
    pub hash: Option<usize>,
}

/// The settings for `book` (the file `name`, for messages) evaluated as `info` says.
pub fn leaf_settings(name: &Path, info: &EvalInfo, o: &LeafOptions) -> Result<LeafSettings> {
    let selectivity = match o.selectivity {
        Some(s) => s,
        None => selectivity_of(info).map_err(|e| bad(format!("{}: {e}", name.display())))?,
    };
    let leaf = LeafSettings::new(
        o.depth,
        o.exact_from.unwrap_or(u32::from(info.exact_from)),
        o.hash.unwrap_or(default_hash_mb(o.depth)),
    )
    .map_err(|e| bad(e.to_string()))?;
    Ok(leaf.with_selectivity(selectivity))
}
