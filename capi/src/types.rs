//! The structs and codes of the C interface (`#[repr(C)]`), and their conversion from the
//! library's answers.

// The names are C's (the header's constants are `OTHBOOK_...`).
#![allow(non_camel_case_types)]

use othbook::board::{Bitboard, Color, Move, Position};
use othbook::report::{MoveRow, Results, ValueFields, ValueKindName};
use std::os::raw::c_char;

/// What a call did. Every function that can fail returns one (or, for those that return a
/// handle, writes it to `*status`); `OTHBOOK_OK` is 0. On failure `othbook_last_error()`
/// gives the message.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OthbookStatus {
    /// Success.
    OTHBOOK_OK = 0,
    /// The book cannot be opened or read (missing, not a book, damaged).
    OTHBOOK_ERR_BOOK = 1,
    /// A move line, board text or position that cannot be read or played, or a finished
    /// game given to a search.
    OTHBOOK_ERR_POSITION = 2,
    /// A null pointer, or an option out of range (depth, time, threads, hash size).
    OTHBOOK_ERR_ARGUMENT = 3,
    /// The engine's table cannot be allocated.
    OTHBOOK_ERR_ENGINE = 4,
    /// The caller's buffer is too small: `*count` says how many entries are needed.
    OTHBOOK_ERR_BUFFER = 5,
    /// A bug in othbook (a caught panic); the message says where.
    OTHBOOK_ERR_INTERNAL = 6,
}

/// `OthbookPosition.side`: black to move.
pub const OTHBOOK_BLACK: u32 = 0;
/// `OthbookPosition.side`: white to move.
pub const OTHBOOK_WHITE: u32 = 1;

/// What a value or score means.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OthbookKind {
    /// No value.
    OTHBOOK_KIND_NONE = 0,
    /// A depth-limited search with the evaluation.
    OTHBOOK_KIND_MIDGAME = 1,
    /// The exact final disc difference under perfect play.
    OTHBOOK_KIND_EXACT = 2,
    /// Win, draw or loss under perfect play (only the sign means anything).
    OTHBOOK_KIND_WLD = 3,
}

/// A position: black's and white's discs (bit 0 = a1, bit 7 = h1, bit 63 = h8) and the side
/// to move. A plain value: the caller owns it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OthbookPosition {
    /// Black's discs.
    pub black: u64,
    /// White's discs.
    pub white: u64,
    /// The side to move: `OTHBOOK_BLACK` or `OTHBOOK_WHITE` (anything else is refused).
    pub side: u32,
}

/// Bytes of a move's name: `"f5"`, `"pass"`, NUL-terminated.
pub const OTHBOOK_MOVE_NAME: usize = 8;

/// Most moves a position has (every square, or one pass): a buffer of this many entries
/// always holds `othbook_book_moves`'s answer.
pub const OTHBOOK_MAX_MOVES: usize = 64;

/// Longest principal variation a search result holds.
pub const OTHBOOK_MAX_PV: usize = 60;

/// What the book says of a position (`othbook_book_probe`): games that reached it in any move
/// order and orientation, results and value black minus white.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OthbookProbe {
    /// The book holds the position (all counts 0 when it does not).
    pub in_book: bool,
    /// Games that reached it.
    pub games: u64,
    /// Of those, won by black.
    pub black_wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Won by white.
    pub white_wins: u32,
    /// Without a recorded result.
    pub unknown: u32,
    /// Average final disc difference, black minus white; NaN without results.
    pub average_diff: f64,
    /// The book's value in discs, black minus white; NaN when `value_kind` is NONE.
    pub value: f64,
    /// Depth of the value's search in plies (empties for a solve); -1 without a value.
    pub value_depth: i32,
    /// What the value is.
    pub value_kind: OthbookKind,
}

/// One next move of a position (`othbook_book_moves`), in the orientation of the position
/// given.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OthbookMove {
    /// The square, 0 (a1) to 63 (h8); -1 for a pass.
    pub square: i32,
    /// The move's name, `"f5"` or `"pass"`, NUL-terminated.
    pub name: [c_char; OTHBOOK_MOVE_NAME],
    /// Games that played it; -1 when the book leaves the move out (fewer games than its
    /// minimum) and so does not know.
    pub games: i64,
    /// Of its games, won by black (0 when `games` is -1).
    pub black_wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Won by white.
    pub white_wins: u32,
    /// Its value in discs, black minus white; NaN when `value_kind` is NONE.
    pub value: f64,
    /// Depth of the value's search; -1 without a value.
    pub value_depth: i32,
    /// What the value is.
    pub value_kind: OthbookKind,
    /// No move has a better value for the side to move.
    pub best: bool,
}

/// A search's answer (`othbook_engine_search`, `othbook_engine_solve`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OthbookSearchResult {
    /// The best move's square, 0 to 63; -1 for a pass (the side to move has no move).
    pub best_square: i32,
    /// Its name, `"f5"` or `"pass"`, NUL-terminated.
    pub best_name: [c_char; OTHBOOK_MOVE_NAME],
    /// Its score in discs for the side to move.
    pub score: f64,
    /// What the score means (never NONE).
    pub kind: OthbookKind,
    /// Depth of the score in plies (empties for a solve).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds the search took.
    pub seconds: f64,
    /// False when the time ran out before the search finished.
    pub complete: bool,
    /// Moves of the principal variation in `pv` (at most `OTHBOOK_MAX_PV`).
    pub pv_length: u32,
    /// The principal variation, squares 0 to 63, -1 for a pass.
    pub pv: [i8; OTHBOOK_MAX_PV],
}

impl OthbookPosition {
    pub(crate) fn of(pos: &Position) -> OthbookPosition {
        OthbookPosition {
            black: pos.black().0,
            white: pos.white().0,
            side: match pos.side {
                Color::Black => OTHBOOK_BLACK,
                Color::White => OTHBOOK_WHITE,
            },
        }
    }

    /// The library's position, or why the discs cannot be a position.
    pub(crate) fn position(&self) -> Result<Position, String> {
        let side = match self.side {
            OTHBOOK_BLACK => Color::Black,
            OTHBOOK_WHITE => Color::White,
            n => {
                return Err(format!(
                    "invalid position: side {n}: use OTHBOOK_BLACK (0) or OTHBOOK_WHITE (1)"
                ))
            }
        };
        Position::from_colors(Bitboard(self.black), Bitboard(self.white), side)
            .map_err(|e| format!("invalid position: {e}"))
    }
}

impl From<Option<ValueKindName>> for OthbookKind {
    fn from(k: Option<ValueKindName>) -> OthbookKind {
        match k {
            None => OthbookKind::OTHBOOK_KIND_NONE,
            Some(ValueKindName::Midgame) => OthbookKind::OTHBOOK_KIND_MIDGAME,
            Some(ValueKindName::Exact) => OthbookKind::OTHBOOK_KIND_EXACT,
            Some(ValueKindName::Wld) => OthbookKind::OTHBOOK_KIND_WLD,
        }
    }
}

impl From<othbook::engine::ScoreKind> for OthbookKind {
    fn from(k: othbook::engine::ScoreKind) -> OthbookKind {
        use othbook::engine::ScoreKind;
        match k {
            ScoreKind::Midgame => OthbookKind::OTHBOOK_KIND_MIDGAME,
            ScoreKind::Exact => OthbookKind::OTHBOOK_KIND_EXACT,
            ScoreKind::Wld => OthbookKind::OTHBOOK_KIND_WLD,
        }
    }
}

impl OthbookProbe {
    pub(crate) fn new(in_book: bool, r: &Results, v: &ValueFields) -> OthbookProbe {
        OthbookProbe {
            in_book,
            games: r.games,
            black_wins: r.black_wins,
            draws: r.draws,
            white_wins: r.white_wins,
            unknown: r.unknown,
            average_diff: r.average_diff.unwrap_or(f64::NAN),
            value: v.value.unwrap_or(f64::NAN),
            value_depth: v.value_depth.map_or(-1, i32::from),
            value_kind: v.value_kind.into(),
        }
    }
}

/// The square of a move, -1 for a pass.
pub(crate) fn square_of(mv: Move) -> i32 {
    match mv {
        Move::Play(sq) => i32::from(sq as u8),
        Move::Pass => -1,
    }
}

/// A move's name as a NUL-terminated array.
pub(crate) fn name_of(mv: Move) -> [c_char; OTHBOOK_MOVE_NAME] {
    let mut out = [0; OTHBOOK_MOVE_NAME];
    for (o, b) in out.iter_mut().zip(mv.to_string().bytes()) {
        *o = b as c_char;
    }
    out
}

impl From<&MoveRow> for OthbookMove {
    fn from(r: &MoveRow) -> OthbookMove {
        let v = r.value.map(|v| v.value).unwrap_or_default();
        let res = r.results.unwrap_or_default();
        OthbookMove {
            square: square_of(r.mv),
            name: name_of(r.mv),
            games: r.results.map_or(-1, |s| s.games as i64),
            black_wins: res.black_wins,
            draws: res.draws,
            white_wins: res.white_wins,
            value: v.value.unwrap_or(f64::NAN),
            value_depth: v.value_depth.map_or(-1, i32::from),
            value_kind: v.value_kind.into(),
            best: r.value.is_some_and(|v| v.best),
        }
    }
}

impl OthbookSearchResult {
    pub(crate) fn of(a: &othbook::engine::Analysis) -> OthbookSearchResult {
        let mut pv = [0i8; OTHBOOK_MAX_PV];
        for (p, mv) in pv.iter_mut().zip(&a.pv) {
            *p = square_of(*mv) as i8;
        }
        OthbookSearchResult {
            best_square: square_of(a.best_move),
            best_name: name_of(a.best_move),
            score: a.score_discs(),
            kind: a.kind.into(),
            depth: a.depth,
            nodes: a.nodes,
            seconds: a.elapsed.as_secs_f64(),
            complete: a.complete,
            pv_length: a.pv.len().min(OTHBOOK_MAX_PV) as u32,
            pv,
        }
    }
}
