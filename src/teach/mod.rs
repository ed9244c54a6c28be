//! Classic game-search players over any game: the [`Game`] and [`Heuristic`] traits, the games
//! (tic-tac-toe, the warehouse-robot game, Othello) and the teaching players (random, greedy,
//! minimax, alpha-beta, expectimax, max-n, paranoid, MCTS), with matches and tournaments.
//!
//! Sits above `engine` (Othello's `better` heuristic is the engine's hand-made evaluation) and
//! below `play`, whose Othello players are these players on [`othello::Othello`].

mod agent;
pub mod arena;
pub mod deepen;
pub mod expectimax;
mod game;
pub mod greedy;
pub mod maxn;
pub mod mcts;
pub mod minimax;
pub mod othello;
pub mod random;
pub mod robots;
pub mod spec;
pub mod tictactoe;

pub use agent::{earliest, Agent, Budget, Decision, Timeout};
pub use game::{points, value, Game, Heuristic};
