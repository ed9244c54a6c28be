//! The greedy player: one ply of the heuristic (a finished game counts its utility).

use super::{value, Agent, Decision, Game, Heuristic};
use std::time::Instant;

/// Picks the action whose result it values most (the first such action on ties).
pub struct Greedy<H> {
    heuristic: H,
    name: String,
}

impl<H> Greedy<H> {
    /// A greedy player valuing positions with `heuristic`.
    pub fn new(heuristic: H, name: String) -> Self {
        Greedy { heuristic, name }
    }
}

/// The first action of `s` whose result `player` values most, with the number of results
/// looked at.
pub fn best_action<G: Game, H: Heuristic<G> + ?Sized>(
    game: &G,
    h: &H,
    s: &G::State,
) -> (G::Action, u64) {
    let me = game.to_move(s);
    let actions = game.actions(s);
    let mut best = (actions[0], f64::NEG_INFINITY);
    for &a in &actions {
        let v = value(game, h, &game.apply(s, a), me);
        if v > best.1 {
            best = (a, v);
        }
    }
    (best.0, actions.len() as u64)
}

impl<G: Game, H: Heuristic<G>> Agent<G> for Greedy<H> {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn choose(&mut self, game: &G, s: &G::State, _: Option<Instant>) -> Decision<G::Action> {
        let (action, nodes) = best_action(game, &self.heuristic, s);
        Decision {
            action,
            nodes,
            depth: 1,
        }
    }
}
