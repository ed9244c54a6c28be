//! Players and matches: the classic players (from `games`), external GTP and NBoard engines,
//! clocks and a match runner.

pub mod arena;
pub mod book_choice;
pub mod clock;
pub mod engine_player;
pub mod gtp_client;
pub mod gtp_wire;
pub mod nboard_client;
pub mod search;
pub mod seconds;
pub mod spec;
mod subprocess;

use crate::board::{Move, Position};
use std::time::{Duration, Instant};

/// The game so far, as a player sees it when asked for a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameState {
    /// Where the game started.
    pub start: Position,
    /// Every move played so far, passes included.
    pub moves: Vec<Move>,
    /// The current position (after `moves`).
    pub position: Position,
}

impl GameState {
    /// A new game from `start`.
    #[must_use]
    pub fn new(start: Position) -> Self {
        GameState {
            start,
            moves: Vec::new(),
            position: start,
        }
    }

    /// Plays `mv` (checked).
    pub fn play(&mut self, mv: Move) -> Result<(), crate::board::MoveError> {
        self.position = self.position.play(mv)?;
        self.moves.push(mv);
        Ok(())
    }
}

/// How long a player may think about one move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Time the player should aim to use (anytime players stop here).
    pub target: Option<Duration>,
    /// Time after which the player loses on time; a player must answer before it.
    pub hard: Option<Duration>,
}

impl Budget {
    /// No time limit (depth-limited players).
    pub const UNLIMITED: Budget = Budget {
        target: None,
        hard: None,
    };

    /// The instant by which an anytime search started at `start` should stop.
    #[must_use]
    pub fn deadline(&self, start: Instant) -> Option<Instant> {
        self.target.map(|t| start + t)
    }
}

/// A player's answer: its move and what it cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move (a pass only when the side to move has no legal move).
    pub mv: Move,
    /// Positions searched (0 for players that do not count).
    pub nodes: u64,
}

/// Something went wrong inside a player (not a bad move: the referee judges those).
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    /// An external engine failed (did not start, died, or answered nonsense).
    #[error("{engine}: {message}")]
    External {
        /// The engine's command line.
        engine: String,
        /// What happened.
        message: String,
    },
    /// The opening book could not be read (damaged data found by a lazy check).
    #[error(transparent)]
    Book(#[from] crate::book::BookError),
}

/// Anything that chooses moves: built-in players, the engine, external programs.
pub trait Player: Send {
    /// A short name for tables, e.g. `alphabeta:depth=4`.
    fn name(&self) -> String;

    /// A new game begins from `start`.
    fn new_game(&mut self, _start: &Position) -> Result<(), PlayerError> {
        Ok(())
    }

    /// Chooses a move in `game.position`, where the side to move has at least one legal move.
    fn choose(&mut self, game: &GameState, budget: Budget) -> Result<Choice, PlayerError>;

    /// The game is over (final state), e.g. to let an external engine see the last moves.
    fn game_over(&mut self, _game: &GameState) {}
}
