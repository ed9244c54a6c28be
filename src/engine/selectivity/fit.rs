//! [`Fit`]: one ProbCut regression of a deep value on a shallow one.

/// One regression: the deep value is about `a·v' + b` (SCALE units) for a shallow value `v'`
/// at depth `shallow`, with residual standard deviation `sigma`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// Depth of the shallow search.
    pub shallow: u8,
    pub a: f64,
    pub b: f64,
    pub sigma: f64,
}

impl Fit {
    /// A fit that never cuts (slope 0): what a regression on too few samples is written as,
    /// since a residual deviation from a handful of points would cut on noise.
    #[must_use]
    pub const fn never(shallow: u8) -> Fit {
        Fit {
            shallow,
            a: 0.0,
            b: 0.0,
            sigma: 0.0,
        }
    }

    /// Whether this fit may cut at all: a slope near zero means the shallow value says
    /// nothing about the deep one (or that [`Fit::never`] made it).
    #[must_use]
    pub fn cuts(&self) -> bool {
        self.a > 0.1
    }
}
