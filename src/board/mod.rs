//! Board core: squares, bitboards, moves, legal-move generation, symmetries, text forms, perft.

mod bitboard;
pub mod movegen;
mod mv;
pub mod notation;
pub mod perft;
mod position;
mod square;
mod symmetry;

pub use bitboard::{Bitboard, BitboardIter};
pub use movegen::MAX_MOVES;
pub use mv::{Color, Move};
pub use notation::{
    denormalize_line, format_moves, normalize_line, parse_moves, play_line, LineError,
    NotationError,
};
pub use position::{final_score_of, Board, BoardError, MoveError, Position, Replay, ReplayError};
pub use square::{ParseSquareError, Square};
pub use symmetry::Symmetry;
