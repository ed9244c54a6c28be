//! Text forms: move strings, 64-character boards with side to move, and terminal diagrams.

use crate::board::{Bitboard, Color, Move, Position, Square, Symmetry};
use std::fmt;
use std::str::FromStr;

/// A move string or board string that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {message} (at {found:?})")]
pub struct NotationError {
    /// 1-based character column of the problem.
    pub column: usize,
    /// The text found there (a few characters).
    pub found: String,
    /// What was expected.
    pub message: &'static str,
}

fn error_at(text: &str, byte: usize, message: &'static str) -> NotationError {
    let column = text[..byte].chars().count() + 1;
    let found: String = text[byte..].chars().take(6).collect();
    NotationError {
        column,
        found,
        message,
    }
}

/// Reads a move string: `f5d6c3`, `F5 D6 C3`, `f5-d6`, `+d3-c5` (signs ignored), with
/// `pa`/`pass`/`ps`/`--` for passes. Separators: white space, `,`, `;`, `-`, `+`, `.`.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, NotationError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len() / 2);
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        let lower2 = [
            rest[0].to_ascii_lowercase(),
            rest.get(1).map_or(0, u8::to_ascii_lowercase),
        ];
        if rest.len() >= 4 && rest[..4].eq_ignore_ascii_case(b"pass") {
            out.push(Move::Pass);
            i += 4;
        } else if &lower2 == b"pa" || &lower2 == b"ps" || &lower2 == b"--" {
            out.push(Move::Pass);
            i += 2;
        } else if let Some(sq) = Square::parse_prefix(rest) {
            out.push(Move::Play(sq));
            i += 2;
        } else if matches!(
            rest[0],
            b' ' | b'\t' | b'\r' | b'\n' | b',' | b';' | b'-' | b'+' | b'.'
        ) {
            i += 1;
        } else {
            return Err(error_at(text, i, "expected a square a1-h8 or a pass"));
        }
    }
    Ok(out)
}

/// A move string that cannot be read or played, in the words every front end shows (the
/// command line, the Python package, the C library).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// The text is not a move string.
    #[error("invalid moves {text:?}: {reason}")]
    Notation {
        /// The move string.
        text: String,
        /// Where and why it cannot be read.
        reason: NotationError,
    },
    /// A move of the string is illegal where it is played.
    #[error("moves {text:?}: {reason}")]
    Illegal {
        /// The move string.
        text: String,
        /// The move and why it is illegal.
        reason: crate::board::ReplayError,
    },
}

/// Reads the move string `text` and plays it from `start`, putting back the passes it leaves
/// out.
pub fn play_line(start: &Position, text: &str) -> Result<crate::board::Replay, LineError> {
    let moves = parse_moves(text).map_err(|reason| LineError::Notation {
        text: text.to_string(),
        reason,
    })?;
    start.replay(moves).map_err(|reason| LineError::Illegal {
        text: text.to_string(),
        reason,
    })
}

/// Writes moves as a compact string (`f5d6c3`), passes as `pa`.
#[must_use]
pub fn format_moves(moves: &[Move]) -> String {
    let mut s = String::with_capacity(moves.len() * 2);
    for mv in moves {
        match mv {
            Move::Play(sq) => s.push_str(&sq.to_string()),
            Move::Pass => s.push_str("pa"),
        }
    }
    s
}

/// Maps a game from the standard start onto the line whose first move is f5, using one of the
/// 4 symmetries that keep the start position. Returns the mapped moves and the symmetry used;
/// `denormalize` with the same symmetry gives the original back.
#[must_use]
pub fn normalize_line(moves: &[Move]) -> (Vec<Move>, Symmetry) {
    let sym = match moves.first() {
        Some(Move::Play(first)) => Symmetry::START
            .into_iter()
            .find(|s| s.square(*first) == Square::F5)
            .unwrap_or(Symmetry::Identity),
        _ => Symmetry::Identity,
    };
    (moves.iter().map(|m| sym.apply_move(*m)).collect(), sym)
}

/// Undoes [`normalize_line`].
#[must_use]
pub fn denormalize_line(moves: &[Move], sym: Symmetry) -> Vec<Move> {
    let inv = sym.inverse();
    moves.iter().map(|m| inv.apply_move(*m)).collect()
}

impl FromStr for Position {
    type Err = NotationError;

    /// `<64 chars> <side>`: `X`/`x`/`*`/`B` black, `O`/`o`/`W` white, `-`/`.`/`_` empty,
    /// row-major from a1; white space between rows allowed; side `X`/`B`/`black` or `O`/`W`/`white`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (mut black, mut white) = (0u64, 0u64);
        let mut n = 0usize;
        let mut iter = text.char_indices().peekable();
        while n < 64 {
            let Some((i, c)) = iter.next() else {
                return Err(NotationError {
                    column: text.chars().count() + 1,
                    found: String::new(),
                    message: "board has fewer than 64 squares",
                });
            };
            match c {
                'X' | 'x' | '*' | 'B' | 'b' | '#' => black |= 1 << n,
                'O' | 'o' | 'W' | 'w' | '0' => white |= 1 << n,
                '-' | '.' | '_' => {}
                c if c.is_whitespace() => continue,
                _ => return Err(error_at(text, i, "expected X, O or - on the board")),
            }
            n += 1;
        }
        let rest_start = iter.peek().map_or(text.len(), |(i, _)| *i);
        let rest = text[rest_start..].trim_start();
        let side_byte = text.len() - rest.len();
        let side_word = rest
            .split(|c: char| c.is_whitespace() || c == ';')
            .next()
            .unwrap_or("");
        let side = match side_word.to_ascii_lowercase().as_str() {
            "x" | "*" | "b" | "black" => Color::Black,
            "o" | "w" | "0" | "white" => Color::White,
            "" => {
                return Err(error_at(
                    text,
                    side_byte,
                    "missing side to move (X or O) after the board",
                ))
            }
            _ => return Err(error_at(text, side_byte, "side to move must be X or O")),
        };
        let after = rest[side_word.len()..].trim_start();
        if !(after.is_empty() || after.starts_with(';')) {
            return Err(error_at(
                text,
                text.len() - after.len(),
                "unexpected text after the side to move",
            ));
        }
        Position::from_colors(Bitboard(black), Bitboard(white), side).map_err(|_| NotationError {
            column: 1,
            found: String::new(),
            message: "overlapping discs",
        })
    }
}

impl Position {
    /// The OBF form: 64 characters `X`/`O`/`-` from a1, a space, the side to move.
    #[must_use]
    pub fn to_obf(&self) -> String {
        let mut s = String::with_capacity(66);
        for sq in Square::ALL {
            s.push(match self.at(sq) {
                Some(c) => c.letter(),
                None => '-',
            });
        }
        s.push(' ');
        s.push(self.side.letter());
        s
    }

    /// A readable 8x8 diagram (`X` black, `O` white, `*` legal move), with disc counts.
    #[must_use]
    pub fn diagram(&self) -> Diagram<'_> {
        Diagram(self)
    }
}

/// Terminal diagram of a position; see [`Position::diagram`].
pub struct Diagram<'a>(&'a Position);

impl fmt::Display for Diagram<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos = self.0;
        let legal = pos.board.legal_moves();
        writeln!(f, "  a b c d e f g h")?;
        for row in 0..8u8 {
            write!(f, "{}", row + 1)?;
            for col in 0..8u8 {
                let sq = Square::from_coords(col, row).unwrap_or(Square::A1);
                let c = match pos.at(sq) {
                    Some(c) => c.letter(),
                    None if legal.contains(sq) => '*',
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        let status = if pos.board.is_game_over() {
            "game over".to_string()
        } else if pos.board.must_pass() {
            format!("{} to move (must pass)", pos.side)
        } else {
            format!("{} to move", pos.side)
        };
        write!(
            f,
            "X {} O {}, {}",
            pos.black().count(),
            pos.white().count(),
            status
        )
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_obf())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_strings_in_every_style() {
        let want: Vec<Move> = [Square::F5, Square::D6, Square::C3]
            .into_iter()
            .map(Move::Play)
            .collect();
        for text in [
            "f5d6c3",
            "F5 D6 C3",
            "f5-d6-c3",
            "+f5-d6+c3",
            "f5, d6, c3\r\n",
        ] {
            assert_eq!(parse_moves(text).unwrap(), want, "{text}");
        }
        let with_pass = parse_moves("f5 pa d6 PASS c3 -- ps").unwrap();
        assert_eq!(with_pass.iter().filter(|m| m.is_pass()).count(), 4);
    }

    #[test]
    fn bad_move_strings_name_the_column() {
        let e = parse_moves("f5d6z9").unwrap_err();
        assert_eq!(e.column, 5);
        let e = parse_moves("f5 i1").unwrap_err();
        assert_eq!(e.column, 4);
        assert!(parse_moves("f9").is_err());
    }

    #[test]
    fn board_strings_round_trip() {
        let start: Position = "---------------------------OX------XO--------------------------- X"
            .parse()
            .unwrap();
        assert_eq!(start, Position::START);
        assert_eq!(start.to_obf().parse::<Position>().unwrap(), start);
        let rows = "........ ........ ........ ...OX... ...XO... ........ ........ ........ x";
        assert_eq!(rows.parse::<Position>().unwrap(), start);
        assert!("--- X".parse::<Position>().is_err());
        assert!(
            "---------------------------OX------XO--------------------------- Q"
                .parse::<Position>()
                .is_err()
        );
        assert!(
            "---------------------------OX------XO---------------------------"
                .parse::<Position>()
                .is_err()
        );
    }

    #[test]
    fn normalisation_round_trips() {
        for first in ["d3", "c4", "e6", "f5"] {
            let line = parse_moves(first).unwrap();
            let (norm, sym) = normalize_line(&line);
            assert_eq!(norm[0], Move::Play(Square::F5));
            assert_eq!(denormalize_line(&norm, sym), line);
        }
    }

    #[test]
    fn a_line_that_cannot_be_read_or_played_says_so_as_the_command_line_does() {
        let e = super::play_line(&Position::START, "f5f5").unwrap_err();
        assert_eq!(
            e.to_string(),
            "moves \"f5f5\": ply 2: white f5 is illegal: f5 is occupied"
        );
        let e = super::play_line(&Position::START, "f5zz").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("invalid moves \"f5zz\": column 3"),
            "{e}"
        );
    }
}
