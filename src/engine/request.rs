//! What a search is asked: [`Limits`] (a checked [`Depth`], time, mode, lines, root moves)
//! and the [`SearchRequest`] built from them and a position, checked once when it is built:
//! the search and the command line rely on it and check nothing again.

use super::selectivity::Selectivity;
use super::units::MAX_DEPTH;
use crate::board::{Bitboard, Board};
use std::time::Duration;

/// The longest time limit accepted.
pub const MAX_TIME: Duration = Duration::from_secs(7 * 86_400);
/// The most lines (`multipv`) one search scores.
pub const MAX_MULTIPV: usize = 64;

/// A search depth in plies, 1 to [`MAX_DEPTH`]: built only by [`Depth::new`] (or
/// [`Depth::of`] for a depth written in the code), so whoever holds one does not check it
/// again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Depth(u32);

impl Depth {
    /// The deepest search.
    pub const MAX: Depth = Depth(MAX_DEPTH);

    /// `plies`, or why it is no depth (0, or more than [`MAX_DEPTH`]).
    pub const fn new(plies: u32) -> Result<Depth, RequestError> {
        if plies >= 1 && plies <= MAX_DEPTH {
            Ok(Depth(plies))
        } else {
            Err(RequestError::Depth { depth: plies })
        }
    }

    /// A depth written in the code.
    ///
    /// # Panics
    /// When `plies` is 0 or more than [`MAX_DEPTH`] (in a `const`, a compile error).
    #[must_use]
    pub const fn of(plies: u32) -> Depth {
        match Depth::new(plies) {
            Ok(d) => d,
            Err(_) => panic!("a search depth is 1 to 60 plies"),
        }
    }

    /// The depth in plies.
    #[must_use]
    pub const fn plies(self) -> u32 {
        self.0
    }
}

impl std::fmt::Display for Depth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// What the search should compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// Iterative deepening with the evaluation; an exact solve when the depth limit reaches
    /// the end of the game. The midgame iterations then stop short of the end (under a time
    /// limit once the solve is predicted to fit in the time left, at the latest 8 plies short),
    /// because the solve costs no more than the last few midgame iterations would.
    #[default]
    Auto,
    /// Exact final disc difference under perfect play.
    Exact,
    /// Only win, draw or loss under perfect play.
    Wld,
}

/// When to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration (Auto mode); `None` = until solved or out of time.
    pub depth: Option<Depth>,
    /// Wall-clock budget; the deepest finished iteration is returned when it runs out.
    pub time: Option<Duration>,
    /// What to compute.
    pub mode: Mode,
    /// Number of best moves to score exactly (1 = just the best).
    pub multipv: usize,
    /// Only these root moves are searched (`None`: all). A book's leaf search uses it for
    /// the moves that leave the book. Ignored when the side to move must pass.
    pub root_moves: Option<Bitboard>,
    /// Multi-ProbCut's confidence in the midgame iterations ([`Selectivity::EXACT`]: none).
    /// Solves (exact and WLD scores) are always exact.
    pub selectivity: Selectivity,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: None,
            time: None,
            mode: Mode::Auto,
            multipv: 1,
            root_moves: None,
            selectivity: Selectivity::MIDGAME_DEFAULT,
        }
    }
}

impl Limits {
    /// Iterative deepening to `d`.
    #[must_use]
    pub fn depth(d: Depth) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }
    /// Iterative deepening until `t` has passed (or the position is solved).
    #[must_use]
    pub fn time(t: Duration) -> Limits {
        Limits {
            time: Some(t),
            ..Limits::default()
        }
    }
    /// Exact solve.
    #[must_use]
    pub fn exact() -> Limits {
        Limits {
            mode: Mode::Exact,
            ..Limits::default()
        }
    }
    /// Win/draw/loss solve.
    #[must_use]
    pub fn wld() -> Limits {
        Limits {
            mode: Mode::Wld,
            ..Limits::default()
        }
    }
    /// The same limits searching only `moves` at the root.
    #[must_use]
    pub fn only(self, moves: Bitboard) -> Limits {
        Limits {
            root_moves: Some(moves),
            ..self
        }
    }

    /// The same limits with `k` lines.
    #[must_use]
    pub fn multipv(self, k: usize) -> Limits {
        Limits { multipv: k, ..self }
    }

    /// The same limits at selectivity `s`.
    #[must_use]
    pub fn selectivity(self, s: Selectivity) -> Limits {
        Limits {
            selectivity: s,
            ..self
        }
    }
}

/// Why limits or a position cannot be searched.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// Depth outside 1 to [`MAX_DEPTH`] (from [`Depth::new`]).
    #[error("depth {depth} is out of range: use 1 to {MAX_DEPTH}")]
    Depth {
        /// The depth asked for.
        depth: u32,
    },
    /// Zero time, or more than [`MAX_TIME`].
    #[error(
        "time {:.3} s is out of range: use more than 0 and at most a week",
        .time.as_secs_f64()
    )]
    Time {
        /// The time asked for.
        time: Duration,
    },
    /// No line, or more than [`MAX_MULTIPV`].
    #[error("multipv {multipv} is out of range: use 1 to {MAX_MULTIPV}")]
    Multipv {
        /// The line count asked for.
        multipv: usize,
    },
    /// `root_moves` leaves no legal move to search.
    #[error("none of the root moves asked for is legal ({})", squares(*.asked))]
    NoRootMove {
        /// The moves asked for.
        asked: Bitboard,
    },
    /// Neither side can move.
    #[error("the game is over: neither side can move")]
    GameOver,
}

/// The squares of `b` as text: `a1 c4`.
fn squares(b: Bitboard) -> String {
    b.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl Limits {
    /// Whether time and line count are in range (the position aside; the depth was checked
    /// when it was built).
    pub fn validate(&self) -> Result<(), RequestError> {
        if let Some(time) = self.time.filter(|t| t.is_zero() || *t > MAX_TIME) {
            return Err(RequestError::Time { time });
        }
        if !(1..=MAX_MULTIPV).contains(&self.multipv) {
            return Err(RequestError::Multipv {
                multipv: self.multipv,
            });
        }
        Ok(())
    }
}

/// A position and limits that can be searched: built only by [`SearchRequest::new`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchRequest {
    board: Board,
    limits: Limits,
    /// The position searched: `board`, or its pass when the side to move has no move.
    root: Board,
    /// The root moves to search (all when the side to move passes).
    moves: Bitboard,
}

impl SearchRequest {
    /// `board` searched within `limits`, or why it cannot be.
    pub fn new(board: Board, limits: Limits) -> Result<SearchRequest, RequestError> {
        limits.validate()?;
        if board.is_game_over() {
            return Err(RequestError::GameOver);
        }
        let passed = !board.has_moves();
        let root = if passed { board.pass() } else { board };
        let moves = match limits.root_moves {
            Some(m) if !passed => root.legal_moves() & m,
            _ => root.legal_moves(),
        };
        if moves.is_empty() {
            return Err(RequestError::NoRootMove {
                asked: limits.root_moves.unwrap_or_default(),
            });
        }
        Ok(SearchRequest {
            board,
            limits,
            root,
            moves,
        })
    }

    /// The position asked about.
    #[must_use]
    pub fn board(&self) -> Board {
        self.board
    }

    /// The limits.
    #[must_use]
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The position searched (after the pass when the side to move had to pass).
    #[must_use]
    pub fn root(&self) -> Board {
        self.root
    }

    /// Whether the side to move has to pass (its analysis is of the pass).
    #[must_use]
    pub fn passed(&self) -> bool {
        self.root != self.board
    }

    /// The root moves searched: legal and asked for.
    #[must_use]
    pub fn moves(&self) -> Bitboard {
        self.moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_out_of_range_are_refused_with_their_value() {
        let start = Board::START;
        assert_eq!(Depth::new(0), Err(RequestError::Depth { depth: 0 }));
        assert_eq!(Depth::new(61), Err(RequestError::Depth { depth: 61 }));
        assert_eq!(Depth::new(60).map(Depth::plies), Ok(60));
        let cases = [
            (
                Limits::time(Duration::ZERO),
                RequestError::Time {
                    time: Duration::ZERO,
                },
            ),
            (
                Limits::depth(Depth::of(4)).multipv(0),
                RequestError::Multipv { multipv: 0 },
            ),
            (
                Limits::depth(Depth::of(4)).multipv(65),
                RequestError::Multipv { multipv: 65 },
            ),
            (
                Limits::depth(Depth::of(4)).only(Bitboard(1)),
                RequestError::NoRootMove { asked: Bitboard(1) },
            ),
        ];
        for (limits, err) in cases {
            assert_eq!(SearchRequest::new(start, limits), Err(err));
        }
        let full = Board::from_bits(!0, 0);
        assert_eq!(
            SearchRequest::new(full, Limits::depth(Depth::of(4))),
            Err(RequestError::GameOver)
        );
        let r = SearchRequest::new(start, Limits::depth(Depth::MAX).multipv(64)).expect("in range");
        assert_eq!(r.moves(), start.legal_moves());
        assert!(!r.passed());
    }
}
