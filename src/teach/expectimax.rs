//! Expectimax: the root player maximises, every other player is a chance node choosing
//! uniformly at random (the best reply to the `random` player). With pruning (Ballard's
//! Star1), a chance node stops once the values of its remaining children, bounded by the
//! game's [`Game::value_bounds`], can no longer bring its average inside the window.

use super::deepen::{iterate, Limits, Progress, RootSearch};
use super::{value, Agent, Budget, Decision, Game, Heuristic, Timeout};
use std::time::Instant;

struct Search<'a, G: Game, H> {
    game: &'a G,
    h: &'a H,
    root: usize,
    prune: bool,
    bounds: (f64, f64),
}

impl<G: Game, H: Heuristic<G>> Search<'_, G, H> {
    /// The root player's expected value of `s` in `depth` plies (with pruning, outside
    /// `alpha..beta` a bound on the right side).
    fn value(
        &self,
        s: &G::State,
        depth: u32,
        mut alpha: f64,
        beta: f64,
        budget: &mut Budget,
        cut: &mut bool,
    ) -> Result<f64, Timeout> {
        budget.tick()?;
        if self.game.is_terminal(s) {
            return Ok(self.game.utility(s, self.root));
        }
        if depth == 0 {
            *cut = true;
            return Ok(value(self.game, self.h, s, self.root));
        }
        let actions = self.game.actions(s);
        if self.game.to_move(s) == self.root {
            let mut best = f64::NEG_INFINITY;
            for a in actions {
                let v = self.value(&self.game.apply(s, a), depth - 1, alpha, beta, budget, cut)?;
                best = best.max(v);
                alpha = alpha.max(v);
                if self.prune && alpha >= beta {
                    break;
                }
            }
            return Ok(best);
        }
        let n = actions.len() as f64;
        let (lo, hi) = self.bounds;
        let mut sum = 0.0;
        for (i, a) in actions.into_iter().enumerate() {
            let child = self.game.apply(s, a);
            if !self.prune {
                sum += self.value(
                    &child,
                    depth - 1,
                    f64::NEG_INFINITY,
                    f64::INFINITY,
                    budget,
                    cut,
                )?;
                continue;
            }
            // The window this child must fall in for the average to fall in alpha..beta,
            // whatever the children after it are worth.
            let rest = n - i as f64 - 1.0;
            let child_alpha = (n * alpha - sum - rest * hi).max(lo);
            let child_beta = (n * beta - sum - rest * lo).min(hi);
            sum += self.value(&child, depth - 1, child_alpha, child_beta, budget, cut)?;
            if sum + rest * hi <= n * alpha {
                return Ok((sum + rest * hi) / n);
            }
            if sum + rest * lo >= n * beta {
                return Ok((sum + rest * lo) / n);
            }
        }
        Ok(sum / n)
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
        let mut best = (0, f64::NEG_INFINITY);
        for (i, &a) in order.iter().enumerate() {
            let alpha = if self.prune {
                best.1
            } else {
                f64::NEG_INFINITY
            };
            let child = self.game.apply(s, a);
            let v = self.value(
                &child,
                depth - 1,
                alpha,
                f64::INFINITY,
                budget,
                &mut progress.cut,
            )?;
            if v > best.1 {
                best = (i, v);
            }
            progress.best = Some(best.0);
        }
        Ok(best.0)
    }
}

/// The expectimax value of `s` for its player to move in `depth` plies, and the states
/// visited: for tests.
pub fn expectimax_value<G: Game, H: Heuristic<G>>(
    game: &G,
    h: &H,
    s: &G::State,
    depth: u32,
    prune: bool,
) -> (f64, u64) {
    let search = Search {
        game,
        h,
        root: game.to_move(s),
        prune,
        bounds: game.value_bounds(),
    };
    let mut budget = Budget::new(None);
    let v = search.value(
        s,
        depth,
        f64::NEG_INFINITY,
        f64::INFINITY,
        &mut budget,
        &mut false,
    );
    (v.unwrap_or(f64::NAN), budget.nodes)
}

/// The expectimax player (pruning on by default).
pub struct Expectimax<H> {
    heuristic: H,
    prune: bool,
    limits: Limits,
    name: String,
}

impl<H> Expectimax<H> {
    /// A player with Star1 pruning if `prune`.
    pub fn new(heuristic: H, prune: bool, limits: Limits, name: String) -> Self {
        Expectimax {
            heuristic,
            prune,
            limits,
            name,
        }
    }
}

impl<G: Game, H: Heuristic<G>> Agent<G> for Expectimax<H> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &G, s: &G::State, deadline: Option<Instant>) -> Decision<G::Action> {
        let mut search = Search {
            game,
            h: &self.heuristic,
            root: game.to_move(s),
            prune: self.prune,
            bounds: game.value_bounds(),
        };
        iterate(game, s, game.actions(s), self.limits, deadline, &mut search)
    }
}
