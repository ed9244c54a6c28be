//! `Board` (side to move + opponent discs) and `Position` (a board plus whose turn it is).

use crate::board::movegen;
use crate::board::{Bitboard, Color, Move, Square, Symmetry};

/// Discs of the side to move and of its opponent. Colour-free: the hot type for search.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Board {
    player: u64,
    opponent: u64,
}

/// Why a board cannot exist.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// A square holds discs of both sides.
    #[error("square {0} holds both a black and a white disc")]
    Overlap(Square),
}

/// Why a move cannot be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The square already holds a disc.
    #[error("{0} is occupied")]
    Occupied(Square),
    /// Nothing would be flipped.
    #[error("{0} flips no disc")]
    NoFlips(Square),
    /// A pass was given while a move exists.
    #[error("pass while moves are available")]
    PassNotAllowed,
    /// Neither side can move.
    #[error("the game is over")]
    GameOver,
}

/// [`Board::final_score`] of raw disc sets, defined for any bits: an evaluation's raw entry
/// point takes unchecked (even overlapping) sets and must not trip [`Board::from_bits`]'s
/// check. Squares in both sets count for both sides.
#[inline]
#[must_use]
pub const fn final_score_of(player: u64, opponent: u64) -> i32 {
    let diff = player.count_ones() as i32 - opponent.count_ones() as i32;
    let empties = (!(player | opponent)).count_ones() as i32;
    if diff > 0 {
        diff + empties
    } else if diff < 0 {
        diff - empties
    } else {
        0
    }
}

impl Board {
    /// Standard start, black to move: black d5 e4, white d4 e5.
    pub const START: Board = Board {
        player: (1 << Square::D5 as u8) | (1 << Square::E4 as u8),
        opponent: (1 << Square::D4 as u8) | (1 << Square::E5 as u8),
    };

    /// A board from the discs of the side to move and of the opponent.
    pub fn new(player: Bitboard, opponent: Bitboard) -> Result<Board, BoardError> {
        match (player & opponent).first() {
            Some(sq) => Err(BoardError::Overlap(sq)),
            None => Ok(Board {
                player: player.0,
                opponent: opponent.0,
            }),
        }
    }

    /// A board from raw bits the caller knows to be disjoint (checked in debug builds).
    #[inline]
    #[must_use]
    pub const fn from_bits(player: u64, opponent: u64) -> Board {
        debug_assert!(player & opponent == 0);
        Board { player, opponent }
    }

    /// Discs of the side to move.
    #[inline]
    #[must_use]
    pub const fn player(&self) -> Bitboard {
        Bitboard(self.player)
    }

    /// Discs of the side not to move.
    #[inline]
    #[must_use]
    pub const fn opponent(&self) -> Bitboard {
        Bitboard(self.opponent)
    }

    /// Empty squares.
    #[inline]
    #[must_use]
    pub const fn empties(&self) -> Bitboard {
        Bitboard(!(self.player | self.opponent))
    }

    /// Number of empty squares.
    #[inline]
    #[must_use]
    pub const fn empty_count(&self) -> u32 {
        64 - (self.player | self.opponent).count_ones()
    }

    /// Squares where the side to move may play.
    #[inline]
    #[must_use]
    pub fn legal_moves(&self) -> Bitboard {
        Bitboard(movegen::moves(self.player, self.opponent))
    }

    /// Discs that playing `sq` would flip (empty if the move is illegal).
    #[inline]
    #[must_use]
    pub fn flips(&self, sq: Square) -> Bitboard {
        if (self.player | self.opponent) >> sq as u8 & 1 != 0 {
            return Bitboard::EMPTY;
        }
        Bitboard(movegen::flips(self.player, self.opponent, sq as u8))
    }

    /// Discs that playing `sq` flips, for a square known to be empty (one of
    /// [`Board::legal_moves`], say): [`Board::flips`] without its occupancy test, for search.
    #[inline]
    #[must_use]
    pub fn legal_flips(&self, sq: Square) -> Bitboard {
        Bitboard(movegen::flips(self.player, self.opponent, sq as u8))
    }

    /// The board after the side to move plays `sq` flipping `flips` (from [`Board::flips`]);
    /// the opponent is then to move. No legality check: the hot path for search.
    #[inline]
    #[must_use]
    pub const fn play_flips(&self, sq: Square, flips: Bitboard) -> Board {
        Board {
            player: self.opponent & !flips.0,
            opponent: self.player | flips.0 | 1 << sq as u8,
        }
    }

    /// The board after a legal move on `sq`, or why it is illegal.
    pub fn play(&self, sq: Square) -> Result<Board, MoveError> {
        if (self.player | self.opponent) >> sq as u8 & 1 != 0 {
            return Err(MoveError::Occupied(sq));
        }
        let f = movegen::flips(self.player, self.opponent, sq as u8);
        if f == 0 {
            return Err(MoveError::NoFlips(sq));
        }
        Ok(self.play_flips(sq, Bitboard(f)))
    }

    /// The board after `mv`, passes included, or why it is illegal.
    pub fn play_move(&self, mv: Move) -> Result<Board, MoveError> {
        match mv {
            Move::Play(sq) => self.play(sq),
            Move::Pass if self.has_moves() => Err(MoveError::PassNotAllowed),
            Move::Pass if self.pass().has_moves() => Ok(self.pass()),
            Move::Pass => Err(MoveError::GameOver),
        }
    }

    /// The same discs with the other side to move.
    #[inline]
    #[must_use]
    pub const fn pass(&self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// Whether the side to move has a legal move.
    #[inline]
    #[must_use]
    pub fn has_moves(&self) -> bool {
        movegen::moves(self.player, self.opponent) != 0
    }

    /// Whether the side to move must pass (no move, but the opponent has one).
    #[must_use]
    pub fn must_pass(&self) -> bool {
        !self.has_moves() && self.pass().has_moves()
    }

    /// Whether neither side can move.
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        !self.has_moves() && !self.pass().has_moves()
    }

    /// Discs of the side to move minus the opponent's.
    #[inline]
    #[must_use]
    pub const fn disc_diff(&self) -> i32 {
        self.player.count_ones() as i32 - self.opponent.count_ones() as i32
    }

    /// Final score for the side to move with empty squares given to the winner
    /// (the WTHOR/FFO convention); equals [`Board::disc_diff`] on a full board.
    #[must_use]
    pub const fn final_score(&self) -> i32 {
        final_score_of(self.player, self.opponent)
    }

    /// Image of the board under a symmetry.
    #[inline]
    #[must_use]
    pub const fn transform(&self, s: Symmetry) -> Board {
        Board {
            player: s.bits(self.player),
            opponent: s.bits(self.opponent),
        }
    }

    /// The smallest of the 8 images and the symmetry that produces it from `self`.
    #[must_use]
    pub fn canonical(&self) -> (Board, Symmetry) {
        let mut best = (*self, Symmetry::Identity);
        for s in &Symmetry::ALL[1..] {
            let b = self.transform(*s);
            if b < best.0 {
                best = (b, *s);
            }
        }
        best
    }

    /// A 64-bit hash for in-memory tables. Not stable across releases: never store it.
    #[inline]
    #[must_use]
    pub const fn hash64(&self) -> u64 {
        let mut h = self.player.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ self
                .opponent
                .rotate_left(29)
                .wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        h ^= h >> 32;
        h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        h ^ (h >> 29)
    }
}

/// A board plus the colour of the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// Discs, from the side to move's point of view.
    pub board: Board,
    /// Whose turn it is.
    pub side: Color,
}

impl Default for Position {
    fn default() -> Self {
        Position::START
    }
}

impl Position {
    /// The standard start position, black to move.
    pub const START: Position = Position {
        board: Board::START,
        side: Color::Black,
    };

    /// A position from black and white discs and the side to move.
    pub fn from_colors(black: Bitboard, white: Bitboard, side: Color) -> Result<Self, BoardError> {
        let board = match side {
            Color::Black => Board::new(black, white)?,
            Color::White => Board::new(white, black)?,
        };
        Ok(Position { board, side })
    }

    /// Black's discs.
    #[must_use]
    pub const fn black(&self) -> Bitboard {
        match self.side {
            Color::Black => self.board.player(),
            Color::White => self.board.opponent(),
        }
    }

    /// White's discs.
    #[must_use]
    pub const fn white(&self) -> Bitboard {
        match self.side {
            Color::Black => self.board.opponent(),
            Color::White => self.board.player(),
        }
    }

    /// The colour on `sq`, if any.
    #[must_use]
    pub const fn at(&self, sq: Square) -> Option<Color> {
        if self.black().contains(sq) {
            Some(Color::Black)
        } else if self.white().contains(sq) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The position after `mv` (a pass only when the side to move has no move).
    pub fn play(&self, mv: Move) -> Result<Position, MoveError> {
        Ok(Position {
            board: self.board.play_move(mv)?,
            side: self.side.opposite(),
        })
    }

    /// Black's discs minus white's.
    #[must_use]
    pub const fn disc_diff_black(&self) -> i32 {
        self.black().count() as i32 - self.white().count() as i32
    }

    /// Final score black minus white, empty squares to the winner.
    #[must_use]
    pub const fn final_score_black(&self) -> i32 {
        match self.side {
            Color::Black => self.board.final_score(),
            Color::White => -self.board.final_score(),
        }
    }

    /// Image under a symmetry; the side to move does not change.
    #[must_use]
    pub const fn transform(&self, s: Symmetry) -> Position {
        Position {
            board: self.board.transform(s),
            side: self.side,
        }
    }

    /// Replays `moves` from this position, inserting the passes a record leaves out.
    /// Returns every move actually played (explicit and implied passes included).
    pub fn replay<I: IntoIterator<Item = Move>>(&self, moves: I) -> Result<Replay, ReplayError> {
        let mut pos = *self;
        let mut played = Vec::with_capacity(64);
        for (index, mv) in moves.into_iter().enumerate() {
            if let Move::Play(_) = mv {
                if pos.board.must_pass() {
                    played.push(Move::Pass);
                    pos = Position {
                        board: pos.board.pass(),
                        side: pos.side.opposite(),
                    };
                }
            }
            pos = pos.play(mv).map_err(|reason| ReplayError {
                index,
                ply: played.len() + 1,
                side: pos.side,
                mv,
                reason,
            })?;
            played.push(mv);
        }
        Ok(Replay {
            start: *self,
            moves: played,
            end: pos,
        })
    }
}

/// A replayed line: the start, every move played (passes included) and the final position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// Where the line started.
    pub start: Position,
    /// All moves played, passes included.
    pub moves: Vec<Move>,
    /// The position after the last move.
    pub end: Position,
}

/// An illegal move met while replaying a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply}: {side} {mv} is illegal: {reason}")]
pub struct ReplayError {
    /// Index of the offending move in the input (passes the input left out not counted).
    pub index: usize,
    /// Ply number, 1-based, implied passes counted.
    pub ply: usize,
    /// Who was to move.
    pub side: Color,
    /// The move.
    pub mv: Move,
    /// Why it is illegal.
    pub reason: MoveError,
}
