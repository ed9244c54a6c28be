//! `othbook.Board`: a position (discs and the side to move) and its common forms: the
//! 64-character text, two 64-bit masks, a move line from the start.

use crate::errors;
use othbook::board::{parse_moves, play_line, Bitboard, Color, Position};
use pyo3::prelude::*;
use pyo3::types::PyString;

/// An Othello position: the discs and the side to move. Immutable: `play` returns a new
/// board.
///
/// Squares are bits 0 (a1) to 63 (h8), row by row (a1, b1, ..., h1, a2, ...).
#[pyclass(module = "othbook", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    pub pos: Position,
}

/// `"black"` or `"white"`.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn parse_color(side: &str) -> PyResult<Color> {
    match side.trim().to_ascii_lowercase().as_str() {
        "black" | "x" | "b" | "*" => Ok(Color::Black),
        "white" | "o" | "w" => Ok(Color::White),
        _ => Err(errors::position(format!(
            "side {side:?}: use \"black\" or \"white\" (or X or O)"
        ))),
    }
}

/// The position after the move line `line` from `start`, with the command line's messages.
pub fn after_line(start: &Position, line: &str) -> PyResult<Position> {
    play_line(start, line)
        .map(|r| r.end)
        .map_err(|e| errors::position(e.to_string()))
}

/// The position a query argument names: a `Board`, or a move line from the start.
pub fn position_of(arg: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(b) = arg.downcast::<Board>() {
        return Ok(b.get().pos);
    }
    if let Ok(s) = arg.downcast::<PyString>() {
        return after_line(&Position::START, &s.extract::<String>()?);
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "expected a move line (str) or an othbook.Board, not {}",
        arg.get_type().name()?
    )))
}

#[pymethods]
impl Board {
    /// A board from its text: 64 characters (`X` black, `O` white, `-` empty) from a1 to h8
    /// row by row, then the side to move (`X` or `O`); the standard start without text.
    #[new]
    #[pyo3(signature = (text=None))]
    fn new(text: Option<&str>) -> PyResult<Board> {
        match text {
            None => Ok(Board {
                pos: Position::START,
            }),
            Some(t) => t
                .parse::<Position>()
                .map(|pos| Board { pos })
                .map_err(|e| errors::position(format!("invalid position: {e}"))),
        }
    }

    /// The standard start position, black to move.
    #[staticmethod]
    fn start() -> Board {
        Board {
            pos: Position::START,
        }
    }

    /// The board after the move line `moves` (`"f5d6c3"`, `"f5 d6 c3"`; passes the line
    /// leaves out are put back) from `start` (default: the standard start).
    #[staticmethod]
    #[pyo3(signature = (moves, start=None))]
    fn from_moves(moves: &str, start: Option<Board>) -> PyResult<Board> {
        let from = start.map_or(Position::START, |b| b.pos);
        Ok(Board {
            pos: after_line(&from, moves)?,
        })
    }

    /// A board from black's and white's discs (bit 0 = a1, bit 63 = h8) and the side to
    /// move (`"black"` or `"white"`).
    #[staticmethod]
    fn from_masks(black: u64, white: u64, side: &str) -> PyResult<Board> {
        let side = parse_color(side)?;
        Position::from_colors(Bitboard(black), Bitboard(white), side)
            .map(|pos| Board { pos })
            .map_err(|e| errors::position(format!("invalid position: {e}")))
    }

    /// Black's discs as a 64-bit mask.
    #[getter]
    fn black(&self) -> u64 {
        self.pos.black().0
    }

    /// White's discs as a 64-bit mask.
    #[getter]
    fn white(&self) -> u64 {
        self.pos.white().0
    }

    /// The side to move's discs (a mask).
    #[getter]
    fn player(&self) -> u64 {
        self.pos.board.player().0
    }

    /// The other side's discs (a mask).
    #[getter]
    fn opponent(&self) -> u64 {
        self.pos.board.opponent().0
    }

    /// The side to move: `"black"` or `"white"`.
    #[getter]
    fn side(&self) -> &'static str {
        color_name(self.pos.side)
    }

    /// Empty squares.
    #[getter]
    fn empties(&self) -> u32 {
        self.pos.board.empty_count()
    }

    /// The side to move has no legal move but the other side has.
    #[getter]
    fn must_pass(&self) -> bool {
        self.pos.board.must_pass()
    }

    /// Neither side can move.
    #[getter]
    fn game_over(&self) -> bool {
        self.pos.board.is_game_over()
    }

    /// The legal moves in square order (`["c4", "d3", ...]`); empty when the side to move
    /// must pass or the game is over.
    fn moves(&self) -> Vec<String> {
        self.pos
            .board
            .legal_moves()
            .into_iter()
            .map(|sq| sq.to_string())
            .collect()
    }

    /// The legal moves as a 64-bit mask.
    fn moves_mask(&self) -> u64 {
        self.pos.board.legal_moves().0
    }

    /// The board after `move` (`"f5"`, or `"pass"` when the side to move has no move).
    fn play(&self, r#move: &str) -> PyResult<Board> {
        let list = parse_moves(r#move)
            .map_err(|e| errors::position(format!("invalid move {move:?}: {e}")))?;
        let [mv] = list.as_slice() else {
            return Err(errors::position(format!(
                "invalid move {move:?}: give one move"
            )));
        };
        self.pos
            .play(*mv)
            .map(|pos| Board { pos })
            .map_err(|e| errors::position(format!("{} {mv} is illegal: {e}", self.pos.side)))
    }

    /// Black's disc count.
    #[getter]
    fn black_count(&self) -> u32 {
        self.pos.black().count()
    }

    /// White's disc count.
    #[getter]
    fn white_count(&self) -> u32 {
        self.pos.white().count()
    }

    /// The colour on `square` (`"a1"` to `"h8"`): `"black"`, `"white"` or None.
    fn at(&self, square: &str) -> PyResult<Option<&'static str>> {
        let sq = square
            .trim()
            .parse::<othbook::board::Square>()
            .map_err(|e| errors::position(format!("invalid square {square:?}: {e}")))?;
        Ok(self.pos.at(sq).map(color_name))
    }

    /// The 64-character text and the side to move: `"---...OX...--- X"`.
    #[pyo3(name = "to_text")]
    fn text(&self) -> String {
        self.pos.to_obf()
    }

    fn __str__(&self) -> String {
        self.pos.to_obf()
    }

    fn __repr__(&self) -> String {
        format!("othbook.Board({:?})", self.pos.to_obf())
    }

    /// A picture of the board: rows 1 to 8, `X` black, `O` white, `*` legal moves.
    fn diagram(&self) -> String {
        self.pos.diagram().to_string()
    }
}
