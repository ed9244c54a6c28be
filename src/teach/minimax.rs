//! Minimax and alpha-beta from the point of view of the player to move at the root, who
//! maximises its value while every other player minimises it: plain minimax in a two-player
//! zero-sum game and the paranoid assumption with more players. Optional move ordering by the
//! heuristic; depth- or time-limited through [`iterate`].

use super::deepen::{iterate, Limits, Progress, RootSearch};
use super::{value, Agent, Budget, Decision, Game, Heuristic, Timeout};
use std::time::Instant;

/// How a [`Minimax`] player searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Method {
    /// Alpha-beta pruning.
    pub prune: bool,
    /// Children sorted by their heuristic value (best for the mover first) where two or
    /// more plies remain; the root tries the previous iteration's best action first anyway.
    pub order: bool,
}

struct Search<'a, G: Game, H> {
    game: &'a G,
    h: &'a H,
    root: usize,
    method: Method,
}

impl<G: Game, H: Heuristic<G>> Search<'_, G, H> {
    /// The children of the non-terminal `s`, ordered if asked.
    fn children(&self, s: &G::State, depth: u32, maxing: bool) -> Vec<G::State> {
        let kids = self
            .game
            .actions(s)
            .into_iter()
            .map(|a| self.game.apply(s, a));
        if !self.method.order || depth < 2 {
            return kids.collect();
        }
        let mut keyed: Vec<(f64, G::State)> = kids
            .map(|k| (value(self.game, self.h, &k, self.root), k))
            .collect();
        // Stable sorts: equal values keep the game's order.
        if maxing {
            keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
        } else {
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        keyed.into_iter().map(|(_, k)| k).collect()
    }

    /// The root player's value of `s` searched `depth` plies (fail-soft: outside
    /// `alpha..beta` it is a bound on the right side).
    fn value(
        &self,
        s: &G::State,
        depth: u32,
        mut alpha: f64,
        mut beta: f64,
        budget: &mut Budget,
        cut: &mut bool,
    ) -> Result<f64, Timeout> {
        budget.tick()?;
        if self.game.is_terminal(s) {
            return Ok(self.game.utility(s, self.root));
        }
        if depth == 0 {
            *cut = true;
            return Ok(self.h.eval(self.game, s, self.root));
        }
        let maxing = self.game.to_move(s) == self.root;
        let mut best = if maxing {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for k in self.children(s, depth, maxing) {
            let v = self.value(&k, depth - 1, alpha, beta, budget, cut)?;
            if maxing {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if self.method.prune && alpha >= beta {
                break;
            }
        }
        Ok(best)
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
            let alpha = if self.method.prune {
                best.1
            } else {
                f64::NEG_INFINITY
            };
            let v = self.value(
                &self.game.apply(s, a),
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

/// The value of `s` for its player to move, searched `depth` plies with `method`, and the
/// number of states visited (the root included): for tests and node-count reports.
pub fn search_value<G: Game, H: Heuristic<G>>(
    game: &G,
    h: &H,
    s: &G::State,
    depth: u32,
    method: Method,
) -> (f64, u64) {
    let search = Search {
        game,
        h,
        root: game.to_move(s),
        method,
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

/// The minimax, alpha-beta and paranoid players.
pub struct Minimax<H> {
    heuristic: H,
    method: Method,
    limits: Limits,
    name: String,
}

impl<H> Minimax<H> {
    /// A player searching with `method` under `limits`.
    pub fn new(heuristic: H, method: Method, limits: Limits, name: String) -> Self {
        Minimax {
            heuristic,
            method,
            limits,
            name,
        }
    }
}

impl<G: Game, H: Heuristic<G>> Agent<G> for Minimax<H> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &G, s: &G::State, deadline: Option<Instant>) -> Decision<G::Action> {
        let mut search = Search {
            game,
            h: &self.heuristic,
            root: game.to_move(s),
            method: self.method,
        };
        let mut order = game.actions(s);
        if self.method.order {
            let me = search.root;
            let mut keyed: Vec<(f64, G::Action)> = order
                .iter()
                .map(|&a| (value(game, &self.heuristic, &game.apply(s, a), me), a))
                .collect();
            keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
            order = keyed.into_iter().map(|(_, a)| a).collect();
        }
        iterate(game, s, order, self.limits, deadline, &mut search)
    }
}
