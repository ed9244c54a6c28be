//! The 8 symmetries of the square board, applied to bitboards, squares and moves.
//!
//! Coordinates are (column, row) with a1 = (0, 0) at the top left. Rotations are clockwise as
//! the board is drawn (row 1 on top).

use crate::board::{Move, Square};

/// One of the 8 symmetries of the board.
#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Symmetry {
    /// (c, r) -> (c, r)
    Identity = 0,
    /// Quarter turn clockwise: (c, r) -> (7 - r, c)
    Rot90 = 1,
    /// Half turn: (c, r) -> (7 - c, 7 - r)
    Rot180 = 2,
    /// Quarter turn anticlockwise: (c, r) -> (r, 7 - c)
    Rot270 = 3,
    /// Mirror left-right: (c, r) -> (7 - c, r)
    MirrorColumns = 4,
    /// Mirror top-bottom: (c, r) -> (c, 7 - r)
    MirrorRows = 5,
    /// Reflect in the a1-h8 diagonal: (c, r) -> (r, c)
    Transpose = 6,
    /// Reflect in the h1-a8 diagonal: (c, r) -> (7 - r, 7 - c)
    AntiTranspose = 7,
}

impl Symmetry {
    /// All eight, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rot90,
        Symmetry::Rot180,
        Symmetry::Rot270,
        Symmetry::MirrorColumns,
        Symmetry::MirrorRows,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The four symmetries that keep the standard start position (d5/e4 black, d4/e5 white).
    pub const START: [Symmetry; 4] = [
        Symmetry::Identity,
        Symmetry::Rot180,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The symmetry that undoes this one.
    #[must_use]
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rot90 => Symmetry::Rot270,
            Symmetry::Rot270 => Symmetry::Rot90,
            s => s,
        }
    }

    /// `self` then `then`, as one symmetry.
    #[must_use]
    pub fn then(self, then: Symmetry) -> Symmetry {
        let probe = then.square(self.square(Square::B1));
        let probe2 = then.square(self.square(Square::A2));
        Symmetry::ALL
            .into_iter()
            .find(|s| s.square(Square::B1) == probe && s.square(Square::A2) == probe2)
            .unwrap_or(Symmetry::Identity)
    }

    /// Image of a square.
    #[must_use]
    pub const fn square(self, sq: Square) -> Square {
        let (c, r) = (sq.column(), sq.row());
        let (c2, r2) = match self {
            Symmetry::Identity => (c, r),
            Symmetry::Rot90 => (7 - r, c),
            Symmetry::Rot180 => (7 - c, 7 - r),
            Symmetry::Rot270 => (r, 7 - c),
            Symmetry::MirrorColumns => (7 - c, r),
            Symmetry::MirrorRows => (c, 7 - r),
            Symmetry::Transpose => (r, c),
            Symmetry::AntiTranspose => (7 - r, 7 - c),
        };
        Square::ALL[(r2 * 8 + c2) as usize]
    }

    /// Image of a move (a pass stays a pass).
    #[must_use]
    pub const fn apply_move(self, mv: Move) -> Move {
        match mv {
            Move::Play(sq) => Move::Play(self.square(sq)),
            Move::Pass => Move::Pass,
        }
    }

    /// Image of a bitboard.
    #[inline]
    #[must_use]
    pub const fn bits(self, b: u64) -> u64 {
        match self {
            Symmetry::Identity => b,
            Symmetry::Rot90 => mirror_columns(transpose(b)),
            Symmetry::Rot180 => b.reverse_bits(),
            Symmetry::Rot270 => transpose(b).swap_bytes(),
            Symmetry::MirrorColumns => mirror_columns(b),
            Symmetry::MirrorRows => b.swap_bytes(),
            Symmetry::Transpose => transpose(b),
            Symmetry::AntiTranspose => transpose(b).reverse_bits(),
        }
    }
}

/// Reverses the bits of every byte (each row read right to left).
#[inline]
const fn mirror_columns(b: u64) -> u64 {
    b.reverse_bits().swap_bytes()
}

/// Reflection in the a1-h8 diagonal by three delta swaps.
#[inline]
const fn transpose(mut x: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitboard_images_match_square_images() {
        for s in Symmetry::ALL {
            for sq in Square::ALL {
                assert_eq!(
                    s.bits(1 << sq.index()),
                    1 << s.square(sq).index(),
                    "{s:?} {sq}"
                );
            }
            for sq in Square::ALL {
                assert_eq!(s.inverse().square(s.square(sq)), sq, "{s:?} inverse");
            }
        }
    }

    #[test]
    fn composition_is_consistent() {
        for a in Symmetry::ALL {
            for b in Symmetry::ALL {
                let ab = a.then(b);
                for sq in Square::ALL {
                    assert_eq!(ab.square(sq), b.square(a.square(sq)));
                }
            }
        }
    }

    #[test]
    fn start_symmetries_send_first_moves_to_f5() {
        use Square::*;
        let mut images: Vec<Square> = Symmetry::START.iter().map(|s| s.square(D3)).collect();
        images.sort();
        let mut firsts = vec![D3, C4, F5, E6];
        firsts.sort();
        assert_eq!(images, firsts);
    }
}
