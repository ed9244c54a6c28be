//! Canonical positions (smallest of the 8 symmetric images), canonical move codes and the
//! stable hash that orders the book's position table.

use crate::board::{Board, Move, Square, Symmetry};

/// Move code of a pass in the book's tables (squares are 0..64, their bit index).
pub const PASS_CODE: u8 = 64;

/// Code of a move: the square's index, or [`PASS_CODE`].
#[must_use]
pub const fn move_code(mv: Move) -> u8 {
    match mv {
        Move::Play(sq) => sq as u8,
        Move::Pass => PASS_CODE,
    }
}

/// The move of a code, if the code is valid.
#[must_use]
pub const fn code_move(code: u8) -> Option<Move> {
    if code == PASS_CODE {
        Some(Move::Pass)
    } else {
        match Square::from_index(code) {
            Some(sq) => Some(Move::Play(sq)),
            None => None,
        }
    }
}

/// Image of a move code under a symmetry.
#[inline]
#[must_use]
pub fn map_code(s: Symmetry, code: u8) -> u8 {
    match Square::from_index(code) {
        Some(sq) => s.square(sq) as u8,
        None => code,
    }
}

/// A board in canonical form: the smallest `(player, opponent)` of its 8 images, which is
/// also `Board::canonical().0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
}

/// A board's canonical key with the symmetries that map the board onto it.
#[derive(Clone, Copy, Debug)]
pub struct Canonical {
    /// The canonical key.
    pub key: Key,
    /// Bit `s` set when `Symmetry::ALL[s]` maps the board onto the key.
    pub syms: u8,
}

impl Canonical {
    /// Computes the canonical key of `board`.
    #[inline]
    #[must_use]
    pub fn of(board: &Board) -> Canonical {
        let ps = images(board.player().0);
        let os = images(board.opponent().0);
        let mut best = Key {
            player: ps[0],
            opponent: os[0],
        };
        let mut syms = 1u8;
        for i in 1..8 {
            let k = Key {
                player: ps[i],
                opponent: os[i],
            };
            if k < best {
                best = k;
                syms = 1 << i;
            } else if k == best {
                syms |= 1 << i;
            }
        }
        Canonical { key: best, syms }
    }

    /// The first symmetry that maps the board onto the key.
    #[must_use]
    pub fn symmetry(&self) -> Symmetry {
        Symmetry::ALL[self.syms.trailing_zeros() as usize & 7]
    }

    /// Canonical code of a move played on the board: the smallest image of the move among
    /// the symmetries that map the board onto its key, so moves that the position's own
    /// symmetry makes equivalent share one code.
    #[inline]
    #[must_use]
    pub fn code_of(&self, mv: Move) -> u8 {
        let code = move_code(mv);
        if code == PASS_CODE {
            return code;
        }
        let mut best = u8::MAX;
        let mut bits = self.syms;
        while bits != 0 {
            let s = Symmetry::ALL[bits.trailing_zeros() as usize];
            best = best.min(map_code(s, code));
            bits &= bits - 1;
        }
        best
    }

    /// The moves on the original board that a canonical code stands for (one for most
    /// positions; several when the position is symmetric), in square order.
    #[must_use]
    pub fn moves_of(&self, code: u8) -> Vec<Move> {
        let Some(mv) = code_move(code) else {
            return Vec::new();
        };
        let mut out: Vec<Move> = Vec::with_capacity(1);
        let mut bits = self.syms;
        while bits != 0 {
            let s = Symmetry::ALL[bits.trailing_zeros() as usize];
            let m = s.inverse().apply_move(mv);
            if !out.contains(&m) {
                out.push(m);
            }
            bits &= bits - 1;
        }
        out.sort();
        out
    }
}

/// The 8 images of a bitboard in `Symmetry::ALL` order, sharing the work between them (one
/// transpose and two bit reversals instead of eight separate transforms).
#[inline]
#[must_use]
pub fn images(b: u64) -> [u64; 8] {
    let t = Symmetry::Transpose.bits(b);
    let r = b.reverse_bits();
    let tr = t.reverse_bits();
    [
        b,
        tr.swap_bytes(),
        r,
        t.swap_bytes(),
        r.swap_bytes(),
        b.swap_bytes(),
        t,
        tr,
    ]
}

/// The moves on `board` that its own symmetry makes equivalent to `mv`, `mv` included, in
/// square order: the moves [`Book::moves`](crate::book::Book::moves) lists as one entry
/// under their [`representative`] (at the start: c4, d3, e6 and f5).
#[must_use]
pub fn equivalent_moves(board: &Board, mv: Move) -> Vec<Move> {
    let c = Canonical::of(board);
    c.moves_of(c.code_of(mv))
}

/// Picks the move shown for a set of equivalent moves: the furthest right, then the lowest
/// on the board, so the start position shows f5 (the book's normalised first move).
#[must_use]
pub fn representative(moves: &[Move]) -> Option<Move> {
    moves
        .iter()
        .copied()
        .max_by_key(|m| m.square().map(|sq| (sq.column(), sq.row())))
}

/// The book's stable 64-bit hash of a canonical key (murmur3's 64-bit finaliser applied
/// twice). Part of the file format: never change it without a new format version.
#[inline]
#[must_use]
pub const fn stable_hash(key: Key) -> u64 {
    fmix64(key.player ^ fmix64(key.opponent ^ 0x9E37_79B9_7F4A_7C15))
}

/// murmur3's 64-bit finaliser.
#[inline]
pub(crate) const fn fmix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^= x >> 33;
    x = x.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    x ^ (x >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_moves, Position};

    /// Checked against the plain definition: two moves are equivalent when the positions they
    /// lead to are images of each other.
    #[test]
    fn equivalent_moves_lead_to_symmetric_positions() {
        let mut pos = Position::START;
        let mut groups = 0;
        for mv in parse_moves("f5f6e6f4e3c5c4").unwrap() {
            let b = pos.board;
            for m in b.legal_moves().iter().map(Move::Play) {
                let child = b.play_move(m).unwrap().canonical().0;
                let same: Vec<Move> = b
                    .legal_moves()
                    .iter()
                    .map(Move::Play)
                    .filter(|x| b.play_move(*x).unwrap().canonical().0 == child)
                    .collect();
                assert_eq!(equivalent_moves(&b, m), same, "{m} after {pos:?}");
                groups += usize::from(same.len() > 1);
            }
            pos = pos.play(mv).unwrap();
        }
        let start: Vec<String> = equivalent_moves(&Board::START, Move::Play(Square::F5))
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(start, ["d3", "c4", "f5", "e6"]);
        assert!(groups > 4, "{groups}");
    }

    #[test]
    fn canonical_matches_board_canonical_for_all_images() {
        let line = parse_moves("f5d6c3d3c4f4f6f3e6e7").unwrap();
        let mut pos = Position::START;
        for mv in line {
            pos = pos.play(mv).unwrap();
            let c = Canonical::of(&pos.board);
            let k = pos.board.canonical().0;
            assert_eq!(
                (c.key.player, c.key.opponent),
                (k.player().0, k.opponent().0)
            );
            for s in Symmetry::ALL {
                let img = Canonical::of(&pos.board.transform(s));
                assert_eq!(img.key, c.key);
                assert_eq!(stable_hash(img.key), stable_hash(c.key));
            }
        }
    }

    #[test]
    fn images_match_the_symmetries() {
        for b in [
            0x0123_4567_89AB_CDEFu64,
            1,
            1 << 63,
            0x8100_0000_0000_0081,
            0x00FF_0F00_1234_0000,
        ] {
            let imgs = images(b);
            for (i, s) in Symmetry::ALL.iter().enumerate() {
                assert_eq!(imgs[i], s.bits(b), "{s:?}");
            }
        }
    }

    #[test]
    fn symmetric_first_moves_share_one_code() {
        let c = Canonical::of(&Board::START);
        assert_eq!(c.syms.count_ones(), 4);
        let codes: Vec<u8> = ["d3", "c4", "e6", "f5"]
            .iter()
            .map(|m| c.code_of(parse_moves(m).unwrap()[0]))
            .collect();
        assert!(codes.iter().all(|&x| x == codes[0]));
        let moves = c.moves_of(codes[0]);
        assert_eq!(moves.len(), 4);
        assert_eq!(representative(&moves), Some(Move::Play(Square::F5)));
        assert_eq!(c.code_of(Move::Pass), PASS_CODE);
        assert_eq!(code_move(65), None);
    }

    const PINNED_START: u64 = 5_786_044_180_972_336_141;

    #[test]
    fn stable_hash_is_stable() {
        // The hash is part of the file format: pin one value so a change cannot slip in.
        let k = Key {
            player: Board::START.player().0,
            opponent: Board::START.opponent().0,
        };
        assert_eq!(stable_hash(k), PINNED_START);
        assert_ne!(
            stable_hash(k),
            stable_hash(Key {
                player: k.opponent,
                opponent: k.player
            })
        );
    }
}
