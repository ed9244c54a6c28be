//! The [`Agent`] trait of the teaching players, what they decide ([`Decision`]), and the
//! node and time [`Budget`] of their searches.

use crate::teach::Game;
use std::time::Instant;

/// What a player decided and what it cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision<A> {
    /// The action.
    pub action: A,
    /// States generated while deciding (playouts for MCTS: see [`crate::teach::mcts`]).
    pub nodes: u64,
    /// Deepest search completed (0 for players that do not search by depth).
    pub depth: u32,
}

/// A teaching player for game `G`.
pub trait Agent<G: Game>: Send {
    /// The player's specification, e.g. `alphabeta:depth=4`.
    fn name(&self) -> String;

    /// Chooses an action in the non-terminal `s`; anytime players stop by `deadline` (their
    /// own time limit, if shorter, applies too).
    fn choose(&mut self, game: &G, s: &G::State, deadline: Option<Instant>) -> Decision<G::Action>;
}

/// Counts nodes and notices a passed deadline without reading the clock at every node.
#[derive(Debug)]
pub struct Budget {
    deadline: Option<Instant>,
    /// Nodes generated so far.
    pub nodes: u64,
}

/// The search ran out of time (the iteration under way is thrown away).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeout;

impl Budget {
    /// A budget ending at `deadline` (none: no time limit).
    #[must_use]
    pub fn new(deadline: Option<Instant>) -> Self {
        Budget { deadline, nodes: 0 }
    }

    /// Counts one node; every 256 nodes checks the clock.
    pub fn tick(&mut self) -> Result<(), Timeout> {
        self.nodes += 1;
        if self.nodes & 255 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    return Err(Timeout);
                }
            }
        }
        Ok(())
    }

    /// From now on, stop at `deadline`.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Whether the deadline has passed (checked now).
    #[must_use]
    pub fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The earlier of two optional deadlines.
#[must_use]
pub fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}
