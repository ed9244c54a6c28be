//! How far to trust a value: its expected error in discs and the side to move's chances to
//! win, draw and lose, both measured from data and embedded as generated tables.
//!
//! The error is the root mean square (RMS) difference between a search's value and the truth:
//! the exact score where a solve can be had, a much deeper search where not (see
//! `docs/values.md`). A player reads `-0.19 ±0.9` as "within 0.9 disc about two times in
//! three", which is what an RMS error means for errors of a bell shape; the RMS also weighs
//! the rare large misses that an average of absolute errors would hide. It is fitted per band
//! of empties and selectivity as `exp(a + b·ln depth)` by `othbook calibrate errors`
//! ([`errors_table`]) and interpolated linearly in empties between the bands' centres.
//!
//! The chances come from an ordered logistic model fitted on real outcomes (WTHOR's
//! theoretical score at 24 empties) by `othbook calibrate chances` ([`chances_table`]): the
//! result is `slope·value` plus logistic noise whose scale grows with the empties, and a
//! result within `draw_band` of zero is a draw. Real games are also thrown: with a probability
//! that grows with the plies left before 24 empties, the result ignores the value (it follows
//! the chances of an even position), which keeps a clearly won midgame position short of
//! certain.
//!
//! Exact values have error 0 and certain chances; WLD values (perfect play, only the sign
//! known) have no error in discs (`None`) and certain chances by their sign.

mod chances_table;
mod errors_table;
mod model;

pub use model::{ChanceModel, ErrorBand};

use super::{EvalInfo, Score, ValueKind};

/// The selectivity levels of Multi-ProbCut in percent, most selective first (100: full
/// width); the engine's levels are the same (a test in `engine::selectivity` checks it).
pub const LEVEL_PERCENTS: [u8; 6] = [73, 87, 95, 98, 99, 100];

/// Index in [`LEVEL_PERCENTS`] of a selectivity in percent: the most selective level that is
/// at least as sure, so that an unlisted percent never gets a smaller error than it has.
fn level_of(percent: u8) -> usize {
    LEVEL_PERCENTS
        .iter()
        .rposition(|&p| p <= percent)
        .unwrap_or(0)
}

/// Expected RMS error in discs of a value of `kind` from a search `depth` plies deep at
/// `selectivity` percent on a position with `empties` empty squares: 0 for an exact value,
/// `None` for a WLD value (its sign is sure, its size means nothing).
#[must_use]
pub fn expected_error(kind: ValueKind, depth: u8, selectivity: u8, empties: u32) -> Option<f64> {
    match kind {
        ValueKind::Exact => Some(0.0),
        ValueKind::Wld => None,
        // A search that reaches the end of the game is a solve.
        ValueKind::Midgame if u32::from(depth) >= empties && empties > 0 => Some(0.0),
        ValueKind::Midgame => {
            // A less selective search is never worse: take the largest error of this level and
            // every surer one. `black_box` keeps the loop from being vectorised: the release
            // build for a Zen 4 CPU (`target-cpu=native`, rustc 1.95) otherwise returned the
            // error of level L + 3 alone for levels 0-2 (`a_more_selective_search_is_never_
            // trusted_more` catches it).
            let mut err = 0.0f64;
            for l in level_of(selectivity)..LEVEL_PERCENTS.len() {
                err = err.max(std::hint::black_box(raw_error(l, depth, empties)));
            }
            Some(err)
        }
    }
}

/// The band fits interpolated at `empties` (clamped to the outer bands' centres).
fn raw_error(level: usize, depth: u8, empties: u32) -> f64 {
    let bands = errors_table::BANDS;
    let d = f64::from(depth.max(1)).ln();
    let at = |b: &ErrorBand| {
        let (a, slope) = b.fits[level];
        (a + slope * d).exp()
    };
    let e = f64::from(empties);
    let first = &bands[0];
    let last = &bands[bands.len() - 1];
    if e <= first.empties {
        return at(first);
    }
    if e >= last.empties {
        return at(last);
    }
    let i = bands
        .windows(2)
        .position(|w| e <= w[1].empties)
        .unwrap_or(0);
    let (lo, hi) = (&bands[i], &bands[i + 1]);
    let t = (e - lo.empties) / (hi.empties - lo.empties);
    at(lo) * (1.0 - t) + at(hi) * t
}

/// The side to move's chances to win, draw and lose; they sum to 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chances {
    /// Probability that the side to move wins.
    pub win: f64,
    /// Probability of a draw.
    pub draw: f64,
    /// Probability that the side to move loses.
    pub loss: f64,
}

impl Chances {
    /// Certain chances: the sign of `discs` decides.
    #[must_use]
    pub fn certain(discs: f64) -> Chances {
        let (win, draw, loss) = match discs.partial_cmp(&0.0) {
            Some(std::cmp::Ordering::Greater) => (1.0, 0.0, 0.0),
            Some(std::cmp::Ordering::Less) => (0.0, 0.0, 1.0),
            _ => (0.0, 1.0, 0.0),
        };
        Chances { win, draw, loss }
    }

    /// The same chances for the other side.
    #[must_use]
    pub fn swapped(self) -> Chances {
        Chances {
            win: self.loss,
            draw: self.draw,
            loss: self.win,
        }
    }
}

/// The chances of a value of `discs` for the side to move with `empties` empty squares under
/// `model`: an ordered logistic model mixed with the chances of an even position in the
/// share of games thrown (see the module documentation).
#[must_use]
pub fn model_chances(model: &ChanceModel, discs: f64, empties: u32) -> Chances {
    let x = (f64::from(empties) - 24.0) / 10.0;
    let scale = (model.scale_at_24 + model.scale_per_10 * x).exp().max(1e-6);
    let ordered = |mean: f64| {
        let below = |t: f64| 1.0 / (1.0 + (-(t - mean) / scale).exp());
        let loss = below(-model.draw_band);
        let not_win = below(model.draw_band).max(loss);
        (1.0 - not_win, not_win - loss, loss)
    };
    let (win, draw, loss) = ordered(model.slope * discs);
    let eps = model.throw(empties);
    if eps == 0.0 {
        return Chances { win, draw, loss };
    }
    let (w0, d0, l0) = ordered(0.0);
    let mix = |a: f64, b: f64| (1.0 - eps) * a + eps * b;
    Chances {
        win: mix(win, w0),
        draw: mix(draw, d0),
        loss: mix(loss, l0),
    }
}

/// The chances of a value of `kind` for the side to move: certain for exact and WLD values,
/// else the calibrated model's.
#[must_use]
pub fn chances(kind: ValueKind, discs: f64, empties: u32) -> Chances {
    match kind {
        ValueKind::Exact | ValueKind::Wld => Chances::certain(discs),
        ValueKind::Midgame => model_chances(&chances_table::MODEL, discs, empties),
    }
}

/// A value's trust: its expected error and the chances, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trust {
    /// Expected RMS error in discs (`None` for a WLD value).
    pub error: Option<f64>,
    /// The side to move's chances.
    pub chances: Chances,
}

impl Trust {
    /// The trust of `score` (for the side to move of a position with `empties` empties)
    /// searched at `selectivity` percent.
    #[must_use]
    pub fn of(score: Score, selectivity: u8, empties: u32) -> Trust {
        let score = proven(score);
        Trust {
            error: expected_error(score.kind, score.depth, selectivity, empties),
            chances: chances(score.kind, score.discs(), empties),
        }
    }

    /// The trust of a book value of a position with `empties` empties in a book evaluated as
    /// `info` says. A negamaxed value is as good as the leaf search it comes from: a search
    /// of the book's leaf depth at the book's selectivity on the leaf position, which lies
    /// the value's depth less the leaf depth plies down the book (the value's depth counts
    /// the plies from the position to the end of the leaf's search).
    #[must_use]
    pub fn of_book_value(score: Score, info: &EvalInfo, empties: u32) -> Trust {
        let score = proven(score);
        let leaf_depth = info.depth.min(score.depth);
        let path = u32::from(score.depth - leaf_depth);
        let leaf_empties = empties.saturating_sub(path).max(1);
        Trust {
            error: expected_error(score.kind, leaf_depth, info.selectivity, leaf_empties),
            chances: chances(score.kind, score.discs(), empties),
        }
    }
}

/// `±0.9`: an error for people, one decimal (`±0` for exact values); `None` for WLD.
#[must_use]
pub fn error_text(error: Option<f64>) -> Option<String> {
    error.map(|e| {
        if e == 0.0 {
            "±0".to_string()
        } else {
            format!("±{e:.1}")
        }
    })
}

/// A chance in whole percent for people: `46%`, never `0%` or `100%` unless certain.
#[must_use]
pub fn percent_text(p: f64) -> String {
    let pc = (p * 100.0).round();
    let pc = if p > 0.0 && p < 1.0 {
        pc.clamp(1.0, 99.0)
    } else {
        pc
    };
    format!("{pc:.0}%")
}

#[cfg(test)]
mod tests;

/// `score` as exact when a midgame search proved it: ±64 discs, which only a wipe-out found by
/// the search gives (evaluations stop short of it), is a final result.
fn proven(score: Score) -> Score {
    let wipe_out = i32::from(score.score).abs() >= 64 * crate::book::SCORE_SCALE;
    if score.kind == ValueKind::Midgame && wipe_out {
        Score {
            kind: ValueKind::Exact,
            ..score
        }
    } else {
        score
    }
}
