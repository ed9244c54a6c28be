//! `othbook.Player`: one of the players of `othbook match` (`random`, `simple`, `alphabeta`,
//! `better`, `engine:depth=8`, ...), asked for moves from Python, e.g. as the opponent of a
//! player written in Python.

use crate::board::position_of;
use crate::errors;
use othbook::play::spec::PlayerSpec;
use othbook::play::{Budget, GameState};
use pyo3::prelude::*;
use std::sync::{Mutex, MutexGuard};

/// A player of `othbook match`, by its specification (`othbook match --help` lists them):
/// `"random"`, `"simple"`, `"alphabeta:depth=4"`, `"engine:depth=8"`, ...
#[pyclass(module = "othbook", frozen)]
pub struct Player {
    // Players are Send, not Sync: the lock lets one thread at a time ask for a move.
    player: Mutex<Box<dyn othbook::play::Player>>,
}

fn lock(
    p: &Mutex<Box<dyn othbook::play::Player>>,
) -> MutexGuard<'_, Box<dyn othbook::play::Player>> {
    p.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[pymethods]
impl Player {
    /// Builds the player `spec`; `ArgumentError` names the players for an unknown one.
    #[new]
    fn new(spec: &str) -> PyResult<Player> {
        let spec: PlayerSpec = spec
            .parse()
            .map_err(|e| errors::argument(errors::message(&e)))?;
        let player = spec
            .build()
            .map_err(|e| errors::argument(errors::message(&e)))?;
        Ok(Player {
            player: Mutex::new(player),
        })
    }

    /// The player's name, as match tables show it.
    #[getter]
    fn name(&self) -> String {
        lock(&self.player).name()
    }

    /// The player's move in a position (a `Board` or a move line): `"pass"` when the side to
    /// move has none; `PositionError` when the game is over.
    fn choose(&self, py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<String> {
        let pos = position_of(board)?;
        if pos.board.is_game_over() {
            return Err(errors::position("the game is over: no move to choose"));
        }
        if pos.board.must_pass() {
            return Ok("pass".to_string());
        }
        let game = GameState::new(pos);
        let choice = py
            .allow_threads(|| lock(&self.player).choose(&game, Budget::UNLIMITED))
            .map_err(|e| errors::OthbookError::new_err(errors::message(&e)))?;
        Ok(choice.mv.to_string())
    }
}
