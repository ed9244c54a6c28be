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
