//! The [`Evaluator`] trait the search calls at its leaves.

/// Anything that scores a position for the side to move.
pub trait Evaluator: Send + Sync {
    /// Score of the position (`p` to move against `o`) in [`SCALE`](crate::engine::SCALE) units per disc. A finished
    /// game (neither side can move) must get its exact final score times [`SCALE`](crate::engine::SCALE); any other
    /// position must stay strictly inside ±64 discs.
    fn eval(&self, p: u64, o: u64) -> i32;

    /// What the evaluation keeps up to date along a search path (pattern indices, say), so
    /// that a leaf costs less than [`Evaluator::eval`]; `()` for evaluations that have none.
    type State: Copy + Send;

    /// The state of a position, from scratch.
    fn state(&self, p: u64, o: u64) -> Self::State;

    /// The state after the side to move plays `sq` turning `flips` (from the mover's `s`).
    fn play(&self, s: &Self::State, sq: u8, flips: u64) -> Self::State;

    /// The state after a pass.
    fn pass(&self, s: &Self::State) -> Self::State;

    /// [`Evaluator::eval`] of the position `s` belongs to; must return exactly the same.
    fn eval_state(&self, s: &Self::State, p: u64, o: u64) -> i32;
}
