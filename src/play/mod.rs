//! Players and matches: the classic players (from `teach`), external GTP and NBoard engines,
//! clocks and a match runner.

pub mod arena;
pub mod book_choice;
pub mod clock;
pub mod engine_player;
pub mod gtp_client;
pub mod nboard_client;
mod player;
pub mod search;
pub mod spec;
mod subprocess;

pub use player::{Budget, Choice, EngineFault, GameState, Player, PlayerError};
