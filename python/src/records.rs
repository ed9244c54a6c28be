//! The answers of the book's queries as Python objects (read-only attributes), converted from
//! the library's reports: the same numbers as `othbook explore --format json` and
//! `othbook games find --format json`.

use crate::board::{color_name, Board};
use othbook::board::Move;
use othbook::report::games_list::{FindReport, GameRow};
use othbook::report::{MoveRow, Results, ValueFields, ValueKindName};
use pyo3::prelude::*;

/// The JSON's name of a value kind: `"mid"`, `"exact"` or `"wld"`.
pub fn kind_name(k: ValueKindName) -> &'static str {
    match k {
        ValueKindName::Midgame => "mid",
        ValueKindName::Exact => "exact",
        ValueKindName::Wld => "wld",
    }
}

/// What the book says of a position (`Book.probe`). Counts are of the games that reached it
/// in any move order and orientation; results and values are black minus white.
#[pyclass(module = "othbook", name = "Probe", frozen, get_all)]
pub struct ProbeInfo {
    /// The position asked about.
    pub position: Board,
    /// The book holds the position.
    pub in_book: bool,
    /// Games that reached it (0 when the book lacks it).
    pub games: u64,
    /// Of those, won by black.
    pub black_wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Won by white.
    pub white_wins: u32,
    /// Without a recorded result.
    pub unknown: u32,
    /// Average final disc difference, black minus white (None without results).
    pub average_diff: Option<f64>,
    /// The book's value in discs, black minus white (None: no value).
    pub value: Option<f64>,
    /// What the value is: `"mid"` (a search with the evaluation), `"exact"` or `"wld"`.
    pub kind: Option<&'static str>,
    /// Depth of the value's search in plies (empties for a solve).
    pub depth: Option<u8>,
}

impl ProbeInfo {
    pub fn new(position: Board, in_book: bool, r: &Results, v: &ValueFields) -> ProbeInfo {
        ProbeInfo {
            position,
            in_book,
            games: r.games,
            black_wins: r.black_wins,
            draws: r.draws,
            white_wins: r.white_wins,
            unknown: r.unknown,
            average_diff: r.average_diff,
            value: v.value,
            kind: v.value_kind.map(kind_name),
            depth: v.value_depth,
        }
    }
}

#[pymethods]
impl ProbeInfo {
    /// `(black_wins, draws, white_wins)`.
    #[getter]
    fn results(&self) -> (u32, u32, u32) {
        (self.black_wins, self.draws, self.white_wins)
    }

    fn __repr__(&self) -> String {
        format!(
            "othbook.Probe(in_book={}, games={}, results=({}, {}, {}), value={}, kind={}, \
             depth={})",
            py_bool(self.in_book),
            self.games,
            self.black_wins,
            self.draws,
            self.white_wins,
            py_opt(self.value),
            py_opt_str(self.kind),
            py_opt(self.depth)
        )
    }
}

/// `None` or the value, as Python writes it.
pub fn py_opt<T: std::fmt::Display>(o: Option<T>) -> String {
    o.map_or_else(|| "None".to_string(), |v| v.to_string())
}

/// `None` or the quoted text, as Python writes it.
pub fn py_opt_str(o: Option<&str>) -> String {
    o.map_or_else(|| "None".to_string(), |v| format!("{v:?}"))
}

pub fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// One next move of a position (`Book.moves`), in the orientation of the board asked about.
/// Game counts are None when the book leaves the move out (played in fewer than the book's
/// minimum of games); values are black minus white.
#[pyclass(module = "othbook", frozen, get_all)]
pub struct MoveInfo {
    /// The move: `"f5"`, or `"pass"`.
    pub r#move: String,
    /// Moves a symmetric position makes the same (this row stands for them too).
    pub equivalent: Vec<String>,
    /// Games that played it (None: unknown).
    pub games: Option<u64>,
    /// Its share of the position's games, in percent.
    pub share: Option<f64>,
    /// Of its games, won by black.
    pub black_wins: Option<u32>,
    /// Drawn.
    pub draws: Option<u32>,
    /// Won by white.
    pub white_wins: Option<u32>,
    /// Without a recorded result.
    pub unknown: Option<u32>,
    /// Average final disc difference, black minus white.
    pub average_diff: Option<f64>,
    /// The move's value in discs, black minus white (books with values).
    pub value: Option<f64>,
    /// What the value is: `"mid"`, `"exact"` or `"wld"`.
    pub kind: Option<&'static str>,
    /// Depth of the value's search.
    pub depth: Option<u8>,
    /// No move has a better value for the side to move.
    pub best: bool,
    /// The move leaves the book (the searched leaf).
    pub leaves_book: bool,
    /// The named opening the move reaches (None when that position has no name).
    pub opening: Option<String>,
}

impl From<&MoveRow> for MoveInfo {
    fn from(r: &MoveRow) -> MoveInfo {
        let v = r.value.map(|v| v.value).unwrap_or_default();
        MoveInfo {
            r#move: r.mv.to_string(),
            equivalent: r.equivalent.iter().map(Move::to_string).collect(),
            games: r.results.map(|s| s.games),
            share: r.share,
            black_wins: r.results.map(|s| s.black_wins),
            draws: r.results.map(|s| s.draws),
            white_wins: r.results.map(|s| s.white_wins),
            unknown: r.results.map(|s| s.unknown),
            average_diff: r.results.and_then(|s| s.average_diff),
            value: v.value,
            kind: v.value_kind.map(kind_name),
            depth: v.value_depth,
            best: r.value.is_some_and(|v| v.best),
            leaves_book: r.value.is_some_and(|v| v.leaves_book),
            opening: r.opening.clone(),
        }
    }
}

#[pymethods]
impl MoveInfo {
    fn __repr__(&self) -> String {
        format!(
            "othbook.MoveInfo(move={:?}, games={}, share={}, value={}, best={})",
            self.r#move,
            py_opt(self.games),
            py_opt(self.share),
            py_opt(self.value),
            py_bool(self.best)
        )
    }
}

/// A move with a value in the book (`Book.best_moves`), best first for the side to move.
#[pyclass(module = "othbook", frozen, get_all)]
pub struct BestMove {
    /// The move, in the orientation of the board asked about.
    pub r#move: String,
    /// Its value in discs, black minus white.
    pub value: Option<f64>,
    /// `"mid"`, `"exact"` or `"wld"`.
    pub kind: Option<&'static str>,
    /// Depth of the value's search.
    pub depth: Option<u8>,
    /// The move leads to a position of the book (False: the searched leaf).
    pub in_book: bool,
}

#[pymethods]
impl BestMove {
    fn __repr__(&self) -> String {
        format!(
            "othbook.BestMove(move={:?}, value={}, kind={}, depth={}, in_book={})",
            self.r#move,
            py_opt(self.value),
            py_opt_str(self.kind),
            py_opt(self.depth),
            py_bool(self.in_book)
        )
    }
}

impl BestMove {
    pub fn new(mv: Move, v: &ValueFields, in_book: bool) -> BestMove {
        BestMove {
            r#move: mv.to_string(),
            value: v.value,
            kind: v.value_kind.map(kind_name),
            depth: v.value_depth,
            in_book,
        }
    }
}

/// A game of the book's table that reached the position (`Book.games_find`).
#[pyclass(module = "othbook", frozen, get_all)]
pub struct Game {
    /// Year played.
    pub year: Option<u16>,
    /// Black's name.
    pub black: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// Final disc difference, black minus white.
    pub result: Option<i32>,
    /// The move played from the position, in the orientation asked about (None: the game
    /// ended there).
    pub next: Option<String>,
    /// Plies played before the position (passes count).
    pub ply: usize,
    /// The event.
    pub event: Option<String>,
    /// The whole game as played (its own orientation).
    pub moves: String,
    /// File the game was read from.
    pub source: String,
    /// `line N` or `record N` in that file.
    pub location: String,
}

impl From<GameRow> for Game {
    fn from(g: GameRow) -> Game {
        Game {
            year: g.year,
            black: g.black,
            white: g.white,
            result: g.result,
            next: g.next,
            ply: g.ply,
            event: g.event,
            moves: g.moves,
            source: g.source,
            location: g.location,
        }
    }
}

#[pymethods]
impl Game {
    fn __repr__(&self) -> String {
        format!(
            "othbook.Game(year={}, black={}, white={}, result={}, next={})",
            py_opt(self.year),
            py_opt_str(self.black.as_deref()),
            py_opt_str(self.white.as_deref()),
            py_opt(self.result),
            py_opt_str(self.next.as_deref())
        )
    }
}

/// The games that reached a position (`Book.games_find`).
#[pyclass(module = "othbook", frozen, get_all)]
pub struct GamesFound {
    /// The position asked about.
    pub position: Board,
    /// The side to move: `"black"` or `"white"`.
    pub side: &'static str,
    /// Games that reach it (after the filters).
    pub total: usize,
    /// Of those, won by black.
    pub black_wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Won by white.
    pub white_wins: u32,
    /// Without a recorded result.
    pub unknown: u32,
    /// The games listed (at most `limit`), most recent first.
    pub games: Vec<Py<Game>>,
}

impl GamesFound {
    pub fn new(py: Python<'_>, r: FindReport) -> PyResult<GamesFound> {
        Ok(GamesFound {
            position: Board { pos: r.position },
            side: color_name(r.side),
            total: r.total,
            black_wins: r.black_wins,
            draws: r.draws,
            white_wins: r.white_wins,
            unknown: r.unknown,
            games: r
                .games
                .into_iter()
                .map(|g| Py::new(py, Game::from(g)))
                .collect::<PyResult<_>>()?,
        })
    }
}

#[pymethods]
impl GamesFound {
    fn __len__(&self) -> usize {
        self.games.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "othbook.GamesFound(total={}, listed={}, results=({}, {}, {}))",
            self.total,
            self.games.len(),
            self.black_wins,
            self.draws,
            self.white_wins
        )
    }
}
