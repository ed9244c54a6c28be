//! The random player: a uniformly random legal action, reproducible from its seed.

use super::{Agent, Decision, Game};
use crate::rng::Rng;
use std::time::Instant;

/// Plays uniformly random legal actions.
pub struct RandomAgent {
    rng: Rng,
    name: String,
}

impl RandomAgent {
    /// A random player; the same seed gives the same choices.
    #[must_use]
    pub fn new(seed: u64, name: String) -> Self {
        RandomAgent {
            rng: Rng::new(seed),
            name,
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn choose(&mut self, game: &G, s: &G::State, _: Option<Instant>) -> Decision<G::Action> {
        Decision {
            action: game.random_action(s, &mut self.rng),
            nodes: 0,
            depth: 0,
        }
    }
}
