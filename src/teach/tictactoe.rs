//! Tic-tac-toe: the smallest game whose whole tree the players can search (a draw).

use super::{Game, Heuristic};
use std::fmt;

/// The eight lines of three, as masks of cells 0..9 (row by row from the top left).
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// Tic-tac-toe: X (player 0) moves first.
#[derive(Clone, Copy, Debug, Default)]
pub struct TicTacToe;

/// A position: each side's marks as bit masks of cells 0..9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    /// The marks of player 0 (X) and player 1 (O).
    pub marks: [u16; 2],
}

impl Grid {
    /// The empty grid.
    pub const EMPTY: Grid = Grid { marks: [0, 0] };

    fn filled(&self) -> u16 {
        self.marks[0] | self.marks[1]
    }

    /// The player with three in a line, if any.
    #[must_use]
    pub fn winner(&self) -> Option<usize> {
        (0..2).find(|&p| LINES.iter().any(|&l| self.marks[p] & l == l))
    }

    /// Whose turn it is (X when the counts are equal).
    #[must_use]
    pub fn to_move(&self) -> usize {
        usize::from(self.marks[0].count_ones() > self.marks[1].count_ones())
    }
}

/// A cell, 0..9 row by row from the top left; written `a1`..`c3` (column letter, row from the
/// bottom as on a chess board).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell(pub u8);

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let col = char::from(b'a' + self.0 % 3);
        let row = 3 - self.0 / 3;
        write!(f, "{col}{row}")
    }
}

impl Game for TicTacToe {
    type State = Grid;
    type Action = Cell;

    fn players(&self) -> usize {
        2
    }
    fn initial(&self) -> Grid {
        Grid::EMPTY
    }
    fn to_move(&self, s: &Grid) -> usize {
        s.to_move()
    }
    fn actions(&self, s: &Grid) -> Vec<Cell> {
        if self.is_terminal(s) {
            return Vec::new();
        }
        (0..9)
            .filter(|&c| s.filled() & (1 << c) == 0)
            .map(Cell)
            .collect()
    }
    fn apply(&self, s: &Grid, a: Cell) -> Grid {
        let mut g = *s;
        g.marks[s.to_move()] |= 1 << a.0;
        g
    }
    fn is_terminal(&self, s: &Grid) -> bool {
        s.filled() == 0x1FF || s.winner().is_some()
    }
    fn utilities(&self, s: &Grid) -> Vec<f64> {
        vec![self.utility(s, 0), self.utility(s, 1)]
    }
    fn utility(&self, s: &Grid, player: usize) -> f64 {
        match s.winner() {
            Some(w) if w == player => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        }
    }
    fn value_bounds(&self) -> (f64, f64) {
        (-1.0, 1.0)
    }
    fn default_depth(&self) -> u32 {
        9
    }
    fn render(&self, s: &Grid) -> String {
        let mut out = String::new();
        for row in 0..3 {
            out.push_str(&format!("{} ", 3 - row));
            for col in 0..3 {
                let bit = 1 << (row * 3 + col);
                out.push(if s.marks[0] & bit != 0 {
                    'X'
                } else if s.marks[1] & bit != 0 {
                    'O'
                } else {
                    '.'
                });
            }
            out.push('\n');
        }
        out.push_str("  abc\n");
        out
    }
    fn player_name(&self, player: usize) -> String {
        ["X", "O"].get(player).unwrap_or(&"?").to_string()
    }
}

/// Lines still open to a player (no opposing mark) minus those open to the opponent, a tenth
/// each: inside ±0.8, so below any won game.
#[derive(Clone, Copy, Debug, Default)]
pub struct OpenLines;

impl Heuristic<TicTacToe> for OpenLines {
    fn eval(&self, _: &TicTacToe, s: &Grid, player: usize) -> f64 {
        let open = |p: usize| LINES.iter().filter(|&&l| s.marks[1 - p] & l == 0).count() as f64;
        (open(player) - open(1 - player)) / 10.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_like_a_chess_board() {
        assert_eq!(Cell(0).to_string(), "a3");
        assert_eq!(Cell(8).to_string(), "c1");
    }

    #[test]
    fn a_line_wins_and_ends_the_game() {
        let g = TicTacToe;
        let mut s = g.initial();
        for c in [0, 3, 1, 4, 2] {
            assert!(!g.is_terminal(&s));
            s = g.apply(&s, Cell(c));
        }
        assert!(g.is_terminal(&s));
        assert_eq!(g.utilities(&s), vec![1.0, -1.0]);
        assert!(g.actions(&s).is_empty());
    }
}
