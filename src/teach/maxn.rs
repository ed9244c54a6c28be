//! Max-n: every player maximises its own component of a vector of values (utilities at the
//! end, the heuristic for each player at the depth limit). On a two-player zero-sum game it
//! is minimax; with more players it needs no assumption about coalitions, unlike paranoid.

use super::deepen::{iterate, Limits, Progress, RootSearch};
use super::{Agent, Budget, Decision, Game, Heuristic, Timeout};
use std::time::Instant;

struct Search<'a, G: Game, H> {
    game: &'a G,
    h: &'a H,
}

impl<G: Game, H: Heuristic<G>> Search<'_, G, H> {
    /// Every player's value of `s` in `depth` plies; the mover takes the first child best
    /// for itself.
    fn values(
        &self,
        s: &G::State,
        depth: u32,
        budget: &mut Budget,
        cut: &mut bool,
    ) -> Result<Vec<f64>, Timeout> {
        budget.tick()?;
        if self.game.is_terminal(s) {
            return Ok(self.game.utilities(s));
        }
        if depth == 0 {
            *cut = true;
            return Ok((0..self.game.players())
                .map(|p| self.h.eval(self.game, s, p))
                .collect());
        }
        let me = self.game.to_move(s);
        let mut best: Option<Vec<f64>> = None;
        for a in self.game.actions(s) {
            let v = self.values(&self.game.apply(s, a), depth - 1, budget, cut)?;
            if best.as_ref().is_none_or(|b| v[me] > b[me]) {
                best = Some(v);
            }
        }
        Ok(best.unwrap_or_default())
    }
}

impl<G: Game, H: Heuristic<G>> RootSearch<G> for Search<'_, G, H> {
    fn root(
        &mut self,
        s: &G::State,
        order: &[G::Action],
        depth: u32,
        budget: &mut Budget,
        progress: &mut Progress,
    ) -> Result<usize, Timeout> {
        budget.tick()?;
        let me = self.game.to_move(s);
        let mut best = (0, f64::NEG_INFINITY);
        for (i, &a) in order.iter().enumerate() {
            let v = self.values(&self.game.apply(s, a), depth - 1, budget, &mut progress.cut)?;
            if v[me] > best.1 {
                best = (i, v[me]);
            }
            progress.best = Some(best.0);
        }
        Ok(best.0)
    }
}

/// Every player's max-n value of `s` in `depth` plies, and the states visited: for tests.
pub fn maxn_values<G: Game, H: Heuristic<G>>(
    game: &G,
    h: &H,
    s: &G::State,
    depth: u32,
) -> (Vec<f64>, u64) {
    let search = Search { game, h };
    let mut budget = Budget::new(None);
    let v = search
        .values(s, depth, &mut budget, &mut false)
        .unwrap_or_default();
    (v, budget.nodes)
}

/// The max-n player.
pub struct Maxn<H> {
    heuristic: H,
    limits: Limits,
    name: String,
}

impl<H> Maxn<H> {
    /// A max-n player under `limits`.
    pub fn new(heuristic: H, limits: Limits, name: String) -> Self {
        Maxn {
            heuristic,
            limits,
            name,
        }
    }
}

impl<G: Game, H: Heuristic<G>> Agent<G> for Maxn<H> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &G, s: &G::State, deadline: Option<Instant>) -> Decision<G::Action> {
        let mut search = Search {
            game,
            h: &self.heuristic,
        };
        iterate(game, s, game.actions(s), self.limits, deadline, &mut search)
    }
}
