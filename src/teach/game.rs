//! The [`Game`] and [`Heuristic`] traits every teaching game and player works with, and the
//! value of a state for one player.

use crate::rng::Rng;
use std::fmt;

/// A deterministic game of perfect information for any number of players, who move in turn.
///
/// The game value itself holds the rules' settings (a robot board's layout, say); a
/// [`Game::State`] is everything that changes during play.
pub trait Game: Send + Sync {
    /// A position, with whose turn it is.
    type State: Clone + Send + Sync;
    /// A move; passes, where the rules have them, are actions too.
    type Action: Copy + Eq + fmt::Debug + fmt::Display + Send + Sync;

    /// Number of players (seats), numbered from 0.
    fn players(&self) -> usize;

    /// The start position.
    fn initial(&self) -> Self::State;

    /// The player to move in `s` (meaningless when `s` is terminal).
    fn to_move(&self, s: &Self::State) -> usize;

    /// The legal actions in `s`: empty exactly when `s` is terminal. Their order is the
    /// game's natural order (players that break ties take the first).
    fn actions(&self, s: &Self::State) -> Vec<Self::Action>;

    /// The state after `a`, which must be one of `actions(s)`.
    fn apply(&self, s: &Self::State, a: Self::Action) -> Self::State;

    /// Whether the game is over.
    fn is_terminal(&self, s: &Self::State) -> bool;

    /// Each player's utility of the terminal state `s`, indexed by player.
    fn utilities(&self, s: &Self::State) -> Vec<f64>;

    /// `player`'s utility of the terminal state `s` (games may answer without the vector).
    fn utility(&self, s: &Self::State, player: usize) -> f64 {
        self.utilities(s)[player]
    }

    /// Bounds on every utility and every heuristic value of this game, so that expectimax
    /// can prune; the heuristics of a game must stay inside them.
    fn value_bounds(&self) -> (f64, f64);

    /// Search depth for depth-limited players given no limit at all.
    fn default_depth(&self) -> u32;

    /// A uniformly random legal action of the non-terminal `s` (games override this when
    /// they can do it without building the whole list: random playouts live on it).
    fn random_action(&self, s: &Self::State, rng: &mut Rng) -> Self::Action {
        let actions = self.actions(s);
        actions[rng.below(actions.len())]
    }

    /// The end of a game played on from `s` with uniformly random actions (MCTS playouts;
    /// games may override it with a faster loop that draws the same distribution).
    fn random_playout(&self, s: &Self::State, rng: &mut Rng) -> Self::State {
        let mut s = s.clone();
        while !self.is_terminal(&s) {
            let a = self.random_action(&s, rng);
            s = self.apply(&s, a);
        }
        s
    }

    /// `s` as text, for `teach show`.
    fn render(&self, s: &Self::State) -> String;

    /// What to call `player` (a colour, a robot's letter).
    fn player_name(&self, player: usize) -> String {
        format!("player {}", player + 1)
    }
}

/// A static estimate of a non-terminal state's value for one player, in the units of the
/// game's utilities and strictly between the worst and best terminal values a search should
/// prefer it to (so a won game always outranks a good-looking one).
pub trait Heuristic<G: Game>: Send + Sync {
    /// `player`'s estimated value of `s`.
    fn eval(&self, game: &G, s: &G::State, player: usize) -> f64;
}

/// `player`'s value of `s`: the utility when `s` is terminal, else the heuristic.
pub fn value<G: Game, H: Heuristic<G> + ?Sized>(
    game: &G,
    h: &H,
    s: &G::State,
    player: usize,
) -> f64 {
    if game.is_terminal(s) {
        game.utility(s, player)
    } else {
        h.eval(game, s, player)
    }
}

/// Points of each player in a finished game with utilities `u`: the players with the highest
/// utility share one point (a win is 1, a two-way draw 1/2 each).
#[must_use]
pub fn points(u: &[f64]) -> Vec<f64> {
    let best = u.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let top = u.iter().filter(|&&x| x == best).count() as f64;
    u.iter()
        .map(|&x| if x == best { 1.0 / top } else { 0.0 })
        .collect()
}
