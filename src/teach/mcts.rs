//! Monte-Carlo tree search: UCB1 selection (exploration constant √2 by default), one new node
//! per iteration, uniformly random playouts, rewards of 1 for a win and a share of 1 for a
//! draw, credited to the player who moved into each node (so any number of players works).
//! Anytime: it stops at the deadline or after a number of playouts; it plays the most
//! visited root action.

#[cfg(doc)]
use super::points;
use super::{earliest, Agent, Decision, Game};
use crate::rng::Rng;
use std::time::{Duration, Instant};

/// Playouts per move when neither a playout count nor a time limit is given.
pub const DEFAULT_PLAYOUTS: u64 = 2000;

/// When an MCTS player stops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Playouts per move.
    pub playouts: Option<u64>,
    /// Time per move.
    pub time: Option<Duration>,
}

struct Node<G: Game> {
    state: G::State,
    action: Option<G::Action>,
    /// Who chose `action` (the player credited with this node's rewards).
    mover: usize,
    parent: usize,
    children: Vec<usize>,
    untried: Vec<G::Action>,
    visits: u32,
    reward: f64,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Found<A> {
    /// The most visited root action (the first of them on ties).
    pub best: A,
    /// Playouts run.
    pub playouts: u64,
    /// Visits of each root action tried.
    pub visits: Vec<(A, u32)>,
}

/// The MCTS player.
pub struct Mcts {
    exploration: f64,
    budget: Budget,
    rng: Rng,
    name: String,
}

impl Mcts {
    /// A player with UCB1 constant `exploration`, stopping by `budget`, seeded `seed`.
    #[must_use]
    pub fn new(exploration: f64, budget: Budget, seed: u64, name: String) -> Self {
        Mcts {
            exploration,
            budget,
            rng: Rng::new(seed),
            name,
        }
    }

    /// Searches from `s` until `deadline` or `max_playouts` playouts.
    pub fn search<G: Game>(
        &mut self,
        game: &G,
        s: &G::State,
        deadline: Option<Instant>,
        max_playouts: u64,
    ) -> Found<G::Action> {
        let mut tree: Vec<Node<G>> = vec![Node {
            state: s.clone(),
            action: None,
            mover: usize::MAX,
            parent: usize::MAX,
            children: Vec::new(),
            untried: game.actions(s),
            visits: 0,
            reward: 0.0,
        }];
        let mut playouts = 0u64;
        while playouts < max_playouts {
            if playouts & 15 == 0 && playouts > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let leaf = self.select_and_expand(game, &mut tree);
            let end = game.random_playout(&tree[leaf].state, &mut self.rng);
            let utilities = game.utilities(&end);
            let reward = Shares::new(&utilities);
            let mut i = leaf;
            while i != usize::MAX {
                let node = &mut tree[i];
                node.visits += 1;
                if node.mover != usize::MAX {
                    node.reward += reward.of(node.mover);
                }
                i = node.parent;
            }
            playouts += 1;
        }
        let visits: Vec<(G::Action, u32)> = tree[0]
            .children
            .iter()
            .filter_map(|&c| Some((tree[c].action?, tree[c].visits)))
            .collect();
        // The first most visited action (max_by_key would take the last).
        let best = visits
            .iter()
            .fold(None, |best: Option<(G::Action, u32)>, &(a, v)| match best {
                Some((_, bv)) if bv >= v => best,
                _ => Some((a, v)),
            })
            .map_or_else(|| game.actions(s)[0], |(a, _)| a);
        Found {
            best,
            playouts,
            visits,
        }
    }

    /// Walks down by UCB1 to a node with untried actions (or a terminal one) and adds one
    /// child there, chosen at random; returns the node to play out from.
    fn select_and_expand<G: Game>(&mut self, game: &G, tree: &mut Vec<Node<G>>) -> usize {
        let mut n = 0;
        while tree[n].untried.is_empty() && !tree[n].children.is_empty() {
            let ln = f64::from(tree[n].visits).ln();
            let c = self.exploration;
            let ucb = |i: usize| {
                let ch = &tree[i];
                let v = f64::from(ch.visits);
                ch.reward / v + c * (ln / v).sqrt()
            };
            let mut best = (tree[n].children[0], f64::NEG_INFINITY);
            for &ch in &tree[n].children {
                let u = ucb(ch);
                if u > best.1 {
                    best = (ch, u);
                }
            }
            n = best.0;
        }
        if tree[n].untried.is_empty() {
            return n; // terminal
        }
        let k = self.rng.below(tree[n].untried.len());
        let action = tree[n].untried.swap_remove(k);
        let state = game.apply(&tree[n].state, action);
        let id = tree.len();
        tree.push(Node {
            untried: game.actions(&state),
            state,
            action: Some(action),
            mover: game.to_move(&tree[n].state),
            parent: n,
            children: Vec::new(),
            visits: 0,
            reward: 0.0,
        });
        tree[n].children.push(id);
        id
    }
}

/// Rewards of a finished playout, as [`points`] gives them, without a vector per playout.
struct Shares<'a> {
    utilities: &'a [f64],
    best: f64,
    share: f64,
}

impl<'a> Shares<'a> {
    fn new(utilities: &'a [f64]) -> Self {
        let best = utilities.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let top = utilities.iter().filter(|&&u| u == best).count();
        Shares {
            utilities,
            best,
            share: 1.0 / top as f64,
        }
    }

    fn of(&self, player: usize) -> f64 {
        if self.utilities[player] == self.best {
            self.share
        } else {
            0.0
        }
    }
}

impl<G: Game> Agent<G> for Mcts {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &G, s: &G::State, deadline: Option<Instant>) -> Decision<G::Action> {
        let start = Instant::now();
        let deadline = earliest(self.budget.time.map(|t| start + t), deadline);
        let max = match (self.budget.playouts, deadline) {
            (Some(p), _) => p.max(1),
            (None, Some(_)) => u64::MAX,
            (None, None) => DEFAULT_PLAYOUTS,
        };
        let found = self.search(game, s, deadline, max);
        Decision {
            action: found.best,
            nodes: found.playouts,
            depth: 0,
        }
    }
}
