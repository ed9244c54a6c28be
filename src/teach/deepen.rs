//! Depth limits and iterative deepening, the anytime driver shared by the depth-limited
//! searches (minimax, alpha-beta, paranoid, expectimax, max-n).

use super::{earliest, Budget, Decision, Game, Timeout};
use std::time::{Duration, Instant};

/// How far a search may go: plies, seconds, or both (whichever ends first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration; alone, one search to exactly this depth.
    pub depth: Option<u32>,
    /// Time per move: iterative deepening until it runs out.
    pub time: Option<Duration>,
}

/// What a root search has found so far, kept when it runs out of time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Some line stopped at the depth limit rather than at the game's end.
    pub cut: bool,
    /// Index (into the root's order) of the best action among those fully searched.
    pub best: Option<usize>,
}

/// A search to a fixed depth from the root: the index (into `order`) of the best root action.
/// It records in `progress` the best action after each root action it completes.
pub trait RootSearch<G: Game> {
    /// Searches every action of `order` from `s` to `depth` plies.
    fn root(
        &mut self,
        s: &G::State,
        order: &[G::Action],
        depth: u32,
        budget: &mut Budget,
        progress: &mut Progress,
    ) -> Result<usize, Timeout>;
}

/// Runs `search` under `limits` and the caller's `deadline`. With a time limit it deepens one
/// ply at a time, trying the last iteration's best action first and keeping the last
/// completed iteration's answer (the first iteration always completes), or the unfinished
/// iteration's best action when one searched to the new depth beat the previous best (which
/// was searched first, so that comparison is at equal depth); with a depth alone it
/// searches that depth once; with neither, the game's default depth. It stops early once an
/// iteration reached the end of every line (the answer is then exact).
pub fn iterate<G: Game, S: RootSearch<G>>(
    game: &G,
    s: &G::State,
    mut order: Vec<G::Action>,
    limits: Limits,
    deadline: Option<Instant>,
    search: &mut S,
) -> Decision<G::Action> {
    let start = Instant::now();
    let deadline = earliest(limits.time.map(|t| start + t), deadline);
    let (first, last) = match (limits.depth, deadline) {
        (Some(d), None) => (d, d),
        (Some(d), Some(_)) => (1, d),
        (None, Some(_)) => (1, u32::MAX),
        (None, None) => (game.default_depth(), game.default_depth()),
    };
    let mut best = Decision {
        action: order[0],
        nodes: 0,
        depth: 0,
    };
    let mut budget = Budget::new(None);
    for depth in first.max(1)..=last.max(1) {
        let mut progress = Progress::default();
        match search.root(s, &order, depth, &mut budget, &mut progress) {
            Ok(i) => {
                let a = order.remove(i);
                order.insert(0, a);
                best.action = a;
                best.depth = depth;
            }
            Err(Timeout) => {
                if let Some(i) = progress.best {
                    best.action = order[i];
                }
                break;
            }
        }
        budget.set_deadline(deadline);
        if !progress.cut || budget.expired() {
            break;
        }
    }
    best.nodes = budget.nodes;
    best
}
