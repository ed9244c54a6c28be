//! The [`Player`] trait every match player implements, what it sees ([`GameState`], its
//! [`Budget`]), what it answers ([`Choice`]) and how it fails ([`PlayerError`]).

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
    /// An external engine is out of order: it did not start, hung, exited or broke its
    /// protocol (`last_output` quotes what it wrote last, `; last stderr: ...`, or is empty).
    #[error("{engine}: {fault}{last_output}")]
    Engine {
        /// The engine's command line.
        engine: String,
        /// What went wrong.
        fault: EngineFault,
        /// The engine's last lines on stderr and stdout, for the message.
        last_output: String,
    },
    /// The opening book could not be read (damaged data found by a lazy check).
    #[error(transparent)]
    Book(#[from] crate::book::BookError),
}

/// Why an external engine is out of order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineFault {
    /// The program could not be run.
    #[error("cannot start: {reason}")]
    Start {
        /// The system's reason.
        reason: String,
    },
    /// A line could not be written to a running engine.
    #[error("cannot send {line:?}: {reason}")]
    Send {
        /// The line.
        line: String,
        /// The system's reason.
        reason: String,
    },
    /// The engine had exited when a line was to be sent.
    #[error("exited before {line:?}{status}")]
    ExitedBefore {
        /// The line.
        line: String,
        /// How it exited, ` (exit status: 3)`, or empty when unknown.
        status: String,
    },
    /// The engine closed its output while a command waited for its answer.
    #[error("exited while answering {asked:?}{status}")]
    Exited {
        /// The command.
        asked: String,
        /// How it exited, ` (exit status: 3)`, or empty when unknown.
        status: String,
    },
    /// No answer in the time allowed.
    #[error("no answer to {asked:?} within {waited:?}")]
    Timeout {
        /// The command.
        asked: String,
        /// How long it waited.
        waited: Duration,
    },
    /// An answer its protocol does not allow.
    #[error("answered {asked:?} with {answer}, {why}")]
    Protocol {
        /// The command.
        asked: String,
        /// The answer, quoted and cut short.
        answer: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// A command was not sent: an earlier fault put the engine out of order.
    #[error("not sent {line:?}: out of order since: {since}")]
    OutOfOrder {
        /// The command.
        line: String,
        /// The earlier fault, as reported then.
        since: String,
    },
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
