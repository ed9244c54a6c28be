//! Squares a1..h8: column letter a..h left to right, row 1 at the top; index = row * 8 + column.

use std::fmt;
use std::str::FromStr;

/// One of the 64 squares. The discriminant is the bit index in a
/// [`Bitboard`](crate::board::Bitboard).
#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[rustfmt::skip]
pub enum Square {
    A1 = 0,
    B1 = 1,
    C1 = 2,
    D1 = 3,
    E1 = 4,
    F1 = 5,
    G1 = 6,
    H1 = 7,
    A2 = 8,
    B2 = 9,
    C2 = 10,
    D2 = 11,
    E2 = 12,
    F2 = 13,
    G2 = 14,
    H2 = 15,
    A3 = 16,
    B3 = 17,
    C3 = 18,
    D3 = 19,
    E3 = 20,
    F3 = 21,
    G3 = 22,
    H3 = 23,
    A4 = 24,
    B4 = 25,
    C4 = 26,
    D4 = 27,
    E4 = 28,
    F4 = 29,
    G4 = 30,
    H4 = 31,
    A5 = 32,
    B5 = 33,
    C5 = 34,
    D5 = 35,
    E5 = 36,
    F5 = 37,
    G5 = 38,
    H5 = 39,
    A6 = 40,
    B6 = 41,
    C6 = 42,
    D6 = 43,
    E6 = 44,
    F6 = 45,
    G6 = 46,
    H6 = 47,
    A7 = 48,
    B7 = 49,
    C7 = 50,
    D7 = 51,
    E7 = 52,
    F7 = 53,
    G7 = 54,
    H7 = 55,
    A8 = 56,
    B8 = 57,
    C8 = 58,
    D8 = 59,
    E8 = 60,
    F8 = 61,
    G8 = 62,
    H8 = 63,
}

impl Square {
    /// All squares in index order (a1, b1, ..., h8).
    #[rustfmt::skip]
    pub const ALL: [Square; 64] = [
        Self::A1, Self::B1, Self::C1, Self::D1, Self::E1, Self::F1, Self::G1, Self::H1,
        Self::A2, Self::B2, Self::C2, Self::D2, Self::E2, Self::F2, Self::G2, Self::H2,
        Self::A3, Self::B3, Self::C3, Self::D3, Self::E3, Self::F3, Self::G3, Self::H3,
        Self::A4, Self::B4, Self::C4, Self::D4, Self::E4, Self::F4, Self::G4, Self::H4,
        Self::A5, Self::B5, Self::C5, Self::D5, Self::E5, Self::F5, Self::G5, Self::H5,
        Self::A6, Self::B6, Self::C6, Self::D6, Self::E6, Self::F6, Self::G6, Self::H6,
        Self::A7, Self::B7, Self::C7, Self::D7, Self::E7, Self::F7, Self::G7, Self::H7,
        Self::A8, Self::B8, Self::C8, Self::D8, Self::E8, Self::F8, Self::G8, Self::H8,
    ];

    /// The square with bit index `index`, if `index < 64`.
    #[must_use]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Self::ALL[index as usize])
        } else {
            None
        }
    }

    /// The square at `column` (0 = a) and `row` (0 = row 1), if both are below 8.
    #[must_use]
    pub const fn from_coords(column: u8, row: u8) -> Option<Square> {
        if column < 8 && row < 8 {
            Some(Self::ALL[(row * 8 + column) as usize])
        } else {
            None
        }
    }

    /// Bit index, 0..64.
    #[must_use]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// Column, 0 (a) to 7 (h).
    #[must_use]
    pub const fn column(self) -> u8 {
        self as u8 & 7
    }

    /// Row, 0 (row 1, top) to 7 (row 8, bottom).
    #[must_use]
    pub const fn row(self) -> u8 {
        self as u8 >> 3
    }

    /// Parses the two bytes at the start of `s` as a square (`f5` or `F5`).
    #[must_use]
    pub fn parse_prefix(s: &[u8]) -> Option<Square> {
        match s {
            [c, r, ..] => {
                let column = c.to_ascii_lowercase().wrapping_sub(b'a');
                let row = r.wrapping_sub(b'1');
                Square::from_coords(column, row)
            }
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = [b'a' + self.column(), b'1' + self.row()];
        // Both bytes are ASCII by construction.
        f.write_str(std::str::from_utf8(&text).unwrap_or("??"))
    }
}

/// Why a square could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid square {text:?}: expected a column a-h and a row 1-8, like f5")]
pub struct ParseSquareError {
    /// The text that was rejected.
    pub text: String,
}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        match (t.len(), Square::parse_prefix(t.as_bytes())) {
            (2, Some(sq)) => Ok(sq),
            _ => Err(ParseSquareError {
                text: s.to_string(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_indices_agree() {
        for (i, sq) in Square::ALL.iter().enumerate() {
            assert_eq!(sq.index() as usize, i);
            let text = sq.to_string();
            assert_eq!(text.parse::<Square>().unwrap(), *sq);
            assert_eq!(text.to_uppercase().parse::<Square>().unwrap(), *sq);
        }
        assert_eq!(Square::D5.column(), 3);
        assert_eq!(Square::D5.row(), 4);
        assert_eq!("h8".parse::<Square>().unwrap(), Square::H8);
    }

    #[test]
    fn bad_squares_are_rejected() {
        for bad in ["", "i1", "a0", "a9", "f55", "5f", "zz"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }
}
