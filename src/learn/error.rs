//! Why a learning run (`book enhance`, `book deviate`) cannot go on: one error type for both,
//! since they stop for the same reasons.

use crate::book::BookError;
use crate::engine::EngineError;
use crate::learn::SettingsError;

/// Why enhancement or deviation learning cannot run.
#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    /// The book has no value at the start position.
    #[error("the book has no value at the start position: run `othbook book evaluate` first")]
    NotEvaluated,
    /// The engine failed.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The book's tables cannot grow.
    #[error(transparent)]
    Book(#[from] BookError),
    /// The book's leaves were searched with other settings.
    #[error(transparent)]
    Settings(#[from] SettingsError),
}
