//! Multi-ProbCut (Buro): a shallow null-window search predicts a deep result, and a node is
//! cut when the prediction lies beyond the window by a margin the selectivity level allows.
//!
//! Midgame: a node `d` plies from the horizon is predicted from a search to a shallower depth
//! `d'` of the same parity; endgame: the exact score of a position is predicted from a
//! midgame search, by empties. Each prediction is the linear fit `v ≈ a·v' + b` with residual
//! deviation σ, measured on positions from real games by `othbook calibrate probcut` and
//! embedded as [`table`]. A cut at level `t` (in standard deviations) is wrong with a
//! probability of about the normal tail beyond `t`; [`Selectivity::EXACT`] turns it off.

mod fit;
mod table;

pub use fit::Fit;

use std::fmt;
use std::str::FromStr;

/// How sure a ProbCut cut must be: the confidence levels of Edax's (73% to 99%) and exact
/// (no ProbCut). Ordered from the most selective to exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Selectivity(u8);

/// Percent and margin in standard deviations of each level.
const LEVELS: [(u8, f64); 6] = [
    (73, 1.1),
    (87, 1.5),
    (95, 2.0),
    (98, 2.6),
    (99, 3.3),
    (100, f64::INFINITY),
];

impl Selectivity {
    /// No ProbCut: every result is what the full search gives.
    pub const EXACT: Selectivity = Selectivity(5);
    /// The midgame default (see docs/experiments.md, "Multi-ProbCut").
    pub const MIDGAME_DEFAULT: Selectivity = Selectivity(1);
    /// The lowest level.
    pub const LOWEST: Selectivity = Selectivity(0);

    /// Every level, most selective first.
    pub fn all() -> impl Iterator<Item = Selectivity> {
        (0..LEVELS.len() as u8).map(Selectivity)
    }

    /// The level with this index (0 = 73% … 5 = exact).
    #[must_use]
    pub fn from_level(level: u8) -> Option<Selectivity> {
        (usize::from(level) < LEVELS.len()).then_some(Selectivity(level))
    }

    /// Index of the level (0 = 73% … 5 = exact): 3 bits in the table's entries.
    #[must_use]
    pub fn level(self) -> u8 {
        self.0
    }

    /// Confidence in percent (100 for exact).
    #[must_use]
    pub fn percent(self) -> u8 {
        LEVELS[usize::from(self.0)].0
    }

    /// Whether ProbCut is off.
    #[must_use]
    pub fn is_exact(self) -> bool {
        self == Selectivity::EXACT
    }

    /// The next surer level (exact stays exact).
    #[must_use]
    pub fn next(self) -> Selectivity {
        Selectivity((self.0 + 1).min(Selectivity::EXACT.0))
    }

    /// Margin in standard deviations.
    pub(crate) fn t(self) -> f64 {
        LEVELS[usize::from(self.0)].1
    }
}

impl Default for Selectivity {
    fn default() -> Self {
        Selectivity::MIDGAME_DEFAULT
    }
}

impl fmt::Display for Selectivity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_exact() {
            f.write_str("exact")
        } else {
            write!(f, "{}%", self.percent())
        }
    }
}

/// A selectivity that is not one of the levels.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown selectivity {given:?}: use 73, 87, 95, 98, 99, 100 or exact")]
pub struct ParseSelectivityError {
    /// What was given.
    pub given: String,
}

impl FromStr for Selectivity {
    type Err = ParseSelectivityError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().trim_end_matches('%');
        if t.eq_ignore_ascii_case("exact") {
            return Ok(Selectivity::EXACT);
        }
        t.parse::<u8>()
            .ok()
            .and_then(|pc| LEVELS.iter().position(|l| l.0 == pc))
            .map(|i| Selectivity(i as u8))
            .ok_or_else(|| ParseSelectivityError {
                given: s.to_string(),
            })
    }
}

/// Midgame ProbCut is tried from this depth on.
pub const MID_MIN_DEPTH: u32 = 4;
/// Deepest midgame depth calibrated; deeper nodes keep the gap `d - d'` of the deepest
/// calibrated pair of the same parity (and its a, b, σ). At a fixed gap σ shrinks as both
/// searches deepen (docs/experiments.md, "ProbCut recalibrated"), so the borrowed σ errs on the
/// safe side. A depth 18 search borrows the fit of 14←6 (gap 8) for its top four plies and
/// searches their shallow predictions at depth 10, not 12 as with a depth-12 table.
pub const MID_MAX_DEPTH: u32 = 14;
/// Lowest empties of each midgame band (a node's band is the last one starting at or below
/// its empties).
pub const MID_BANDS: [u32; 4] = [0, 24, 34, 44];
/// Endgame ProbCut is tried from this many empties on.
pub const END_MIN_EMPTIES: u32 = 12;
/// Most empties calibrated; more use the fit of this count with their own shallow depth.
pub const END_MAX_EMPTIES: u32 = 20;

/// Shallow depth paired with a midgame depth `d` (same parity, about half as deep; Edax's
/// pairing): 4→2, 5→3, 6→2, 7→3, 8→4, 9→5, 10→4, 11→5, 12→6, 13→7, 14→6.
#[must_use]
pub fn mid_shallow(d: u32) -> u32 {
    match 2 * (d / 4) + (d & 1) {
        0 => d.saturating_sub(2),
        s => s,
    }
}

/// Depth of the midgame search predicting the exact score of a position with `empties`
/// empty squares.
#[must_use]
pub fn end_shallow(empties: u32) -> u32 {
    (empties.saturating_sub(8) / 2).clamp(2, 10)
}

/// Band of a node with `empties` empty squares.
#[must_use]
pub fn mid_band(empties: u32) -> usize {
    MID_BANDS.iter().rposition(|&lo| empties >= lo).unwrap_or(0)
}

/// The pair and fit for a midgame node (`depth` ≥ [`MID_MIN_DEPTH`]).
pub(crate) fn mid_fit(empties: u32, depth: u32) -> (u32, Fit) {
    let band = &table::MIDGAME[mid_band(empties)];
    if depth <= MID_MAX_DEPTH {
        let f = band[depth as usize];
        return (u32::from(f.shallow), f);
    }
    let last = if (depth - MID_MAX_DEPTH).is_multiple_of(2) {
        MID_MAX_DEPTH
    } else {
        MID_MAX_DEPTH - 1
    };
    let f = band[last as usize];
    (depth - (last - u32::from(f.shallow)), f)
}

/// The fit for an endgame node.
pub(crate) fn end_fit(empties: u32) -> Fit {
    table::ENDGAME[(empties.min(END_MAX_EMPTIES) - END_MIN_EMPTIES) as usize]
}

/// From this many empties on, the root solve goes through the selective levels first. With
/// the current table (endgame σ of 5-10 discs) the levels cost more than
/// they save at every size measured: FFO #40-#44 117.1 M nodes from 18 empties against
/// 82.8 M without, #45-#46 476 M against 404 M (docs/experiments.md), so they are off
/// (61: no position has that many empties) until a better evaluation narrows σ.
pub const END_LEVELS_MIN_EMPTIES: u32 = 61;

#[cfg(test)]
mod tests;
