//! The shapes of the calibrated tables: an error band ([`ErrorBand`]) and the chances model
//! ([`ChanceModel`]).

/// One band of empties in the error table: per selectivity level (as [`LEVEL_PERCENTS`](super::LEVEL_PERCENTS)),
/// the fit `rms = exp(a + b·ln depth)` in discs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ErrorBand {
    /// The mean empties of the band's positions (where the fit holds best).
    pub empties: f64,
    /// `(a, b)` per selectivity level.
    pub fits: [(f64, f64); 6],
}

/// The chances model's constants (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChanceModel {
    /// Disc result per disc of value.
    pub slope: f64,
    /// Logistic scale, in discs, is `exp(scale_at_24 + scale_per_10 · (empties − 24) / 10)`.
    pub scale_at_24: f64,
    /// See `scale_at_24`.
    pub scale_per_10: f64,
    /// Half the width, in discs, of the results that count as a draw.
    pub draw_band: f64,
    /// Probability that the result ignores the value at 24 empties or fewer.
    pub throw_base: f64,
    /// Probability per ply above 24 empties that the game is thrown (its result then
    /// ignores the value): `1 − (1 − throw_base)(1 − throw_per_ply)^(empties − 24)` in all.
    pub throw_per_ply: f64,
}

impl ChanceModel {
    /// The probability that the result of a position with `empties` empties ignores its value.
    #[must_use]
    pub fn throw(&self, empties: u32) -> f64 {
        let plies = empties.saturating_sub(24);
        let kept = (1.0 - self.throw_base) * (1.0 - self.throw_per_ply).powf(f64::from(plies));
        (1.0 - kept).clamp(0.0, 1.0)
    }
}
