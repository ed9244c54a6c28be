//! The one rule that finds a position's games in a book's game table ([`Book::position_games`]),
//! shared by the command line and the server.

use super::games::{GameSelection, GameTableError, PositionGames};
use super::{Book, GameTable};
use crate::board::Board;

/// Which of a position's games a query wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GamesOf {
    /// The games as the book counts them: the position reached within the book's first
    /// plies, next moves rarer than its least game count left out (so that the counts match
    /// the book's statistics).
    Counted,
    /// Every game that reaches the position, at any ply.
    Every,
}

impl Book {
    /// The games of `table` (this book's game table) that reach `board`, those `selection`
    /// keeps, as `which` asks.
    pub fn position_games(
        &self,
        table: &GameTable,
        board: &Board,
        selection: Option<&GameSelection>,
        which: GamesOf,
    ) -> Result<PositionGames, GameTableError> {
        let (plies, min_games) = match which {
            GamesOf::Counted => {
                let options = &self.info().options;
                (usize::from(options.plies), u64::from(options.min_games))
            }
            GamesOf::Every => (usize::MAX, 1),
        };
        table.find(board, plies, selection, min_games)
    }
}
