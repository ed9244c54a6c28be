//! [`HandEval`]: a hand-weighted evaluation in the style of the classic programs (mobility,
//! corners, X- and C-squares, edge stability, parity), weights interpolated by phase.

use super::Evaluator;
use crate::board::movegen::moves;
use crate::engine::stability::corner_anchored;
use crate::engine::SCALE;

const CORNERS: u64 = 0x8100_0000_0000_0081;
/// X-squares (diagonally next to a corner) of the empty corners in `ec`.
#[inline]
fn x_of(ec: u64) -> u64 {
    (ec & 1) << 9 | (ec & 0x80) << 7 | (ec & 1 << 56) >> 7 | (ec & 1 << 63) >> 9
}

/// C-squares (next to a corner on the edge) of the empty corners in `ec`.
#[inline]
fn c_of(ec: u64) -> u64 {
    (ec & 0x0100_0000_0000_0001) << 1
        | (ec & 0x8000_0000_0000_0080) >> 1
        | (ec & 0x81) << 8
        | (ec & 0x8100_0000_0000_0000) >> 8
}

/// Feature weights at the start of the game (60 empties) and at its end (0 empties), in
/// [`SCALE`] units per unit of feature; linearly interpolated in between.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Legal moves of the side to move minus the opponent's.
    pub mobility: i32,
    /// Empty squares next to opponent discs minus those next to own discs.
    pub potential_mobility: i32,
    /// Corners held minus opponent's.
    pub corners: i32,
    /// X-squares held next to an empty corner (a penalty: weight is negative).
    pub x_squares: i32,
    /// C-squares held next to an empty corner (negative).
    pub c_squares: i32,
    /// Edge discs anchored to an own corner (stable) minus the opponent's.
    pub stable: i32,
    /// Odd number of empties (the side to move expects the last move).
    pub parity: i32,
    /// Disc difference.
    pub discs: i32,
}

/// The classic hand-made evaluation with phase-dependent weights.
#[derive(Clone, Debug)]
pub struct HandEval {
    /// Weights for each number of empty squares 0..=60 (index = empties).
    table: Vec<Weights>,
}

impl HandEval {
    /// Opening weights.
    pub const OPENING: Weights = Weights {
        mobility: 90,
        potential_mobility: 30,
        corners: 350,
        x_squares: -250,
        c_squares: -90,
        stable: 80,
        parity: 0,
        discs: -5,
    };
    /// Endgame weights.
    pub const ENDGAME: Weights = Weights {
        mobility: 50,
        potential_mobility: 10,
        corners: 200,
        x_squares: -60,
        c_squares: -20,
        stable: 140,
        parity: 120,
        discs: 40,
    };

    /// The evaluation with the given opening and endgame weights.
    #[must_use]
    pub fn with_weights(opening: Weights, endgame: Weights) -> HandEval {
        let lerp = |a: i32, b: i32, e: i32| (a * e + b * (60 - e)) / 60;
        let table = (0..=60)
            .map(|e| Weights {
                mobility: lerp(opening.mobility, endgame.mobility, e),
                potential_mobility: lerp(opening.potential_mobility, endgame.potential_mobility, e),
                corners: lerp(opening.corners, endgame.corners, e),
                x_squares: lerp(opening.x_squares, endgame.x_squares, e),
                c_squares: lerp(opening.c_squares, endgame.c_squares, e),
                stable: lerp(opening.stable, endgame.stable, e),
                parity: lerp(opening.parity, endgame.parity, e),
                discs: lerp(opening.discs, endgame.discs, e),
            })
            .collect();
        HandEval { table }
    }
}

impl Default for HandEval {
    fn default() -> Self {
        HandEval::with_weights(HandEval::OPENING, HandEval::ENDGAME)
    }
}

/// Squares next to any disc of `x` (in the 8 directions).
#[inline]
fn neighbours(x: u64) -> u64 {
    let l = (x << 1) & 0xFEFE_FEFE_FEFE_FEFE;
    let r = (x >> 1) & 0x7F7F_7F7F_7F7F_7F7F;
    let row = x | l | r;
    row | row << 8 | row >> 8
}

impl Evaluator for HandEval {
    type State = ();

    #[inline]
    fn state(&self, _: u64, _: u64) {}

    #[inline]
    fn play(&self, (): &(), _: u8, _: u64) {}

    #[inline]
    fn pass(&self, (): &()) {}

    #[inline]
    fn eval_state(&self, (): &(), p: u64, o: u64) -> i32 {
        self.eval(p, o)
    }

    #[inline]
    fn eval(&self, p: u64, o: u64) -> i32 {
        let empty = !(p | o);
        let n_empty = empty.count_ones() as usize;
        let w = &self.table[n_empty.min(60)];
        let (pm, om) = (moves(p, o), moves(o, p));
        if pm | om == 0 {
            return crate::board::final_score_of(p, o) * SCALE;
        }
        let mob = pm.count_ones() as i32 - om.count_ones() as i32;
        let pot = (neighbours(o) & empty).count_ones() as i32
            - (neighbours(p) & empty).count_ones() as i32;
        let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
        let ec = empty & CORNERS;
        let (xm, cm) = (x_of(ec), c_of(ec));
        let xs = (p & xm).count_ones() as i32 - (o & xm).count_ones() as i32;
        let cs = (p & cm).count_ones() as i32 - (o & cm).count_ones() as i32;
        let stable =
            corner_anchored(p).count_ones() as i32 - corner_anchored(o).count_ones() as i32;
        let parity = (n_empty & 1) as i32;
        let discs = p.count_ones() as i32 - o.count_ones() as i32;
        let s = w.mobility * mob
            + w.potential_mobility * pot
            + w.corners * corners
            + w.x_squares * xs
            + w.c_squares * cs
            + w.stable * stable
            + w.parity * parity
            + w.discs * discs;
        s.clamp(-(64 * SCALE - 1), 64 * SCALE - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Symmetry};

    fn sample() -> Vec<Board> {
        let mut out = vec![Board::START];
        let mut b = Board::START;
        for i in 0..55 {
            let m = b.legal_moves();
            let Some(sq) = m.iter().nth(i % m.count().max(1) as usize) else {
                if b.pass().has_moves() {
                    b = b.pass();
                    continue;
                }
                break;
            };
            b = b.play(sq).expect("legal");
            out.push(b);
        }
        out
    }

    #[test]
    fn evaluation_is_symmetric_and_bounded() {
        let e = HandEval::default();
        for b in sample() {
            let (p, o) = (b.player().0, b.opponent().0);
            let v = e.eval(p, o);
            assert!(v.abs() < 64 * SCALE);
            for s in Symmetry::ALL {
                let t = b.transform(s);
                assert_eq!(e.eval(t.player().0, t.opponent().0), v, "{s:?}");
            }
        }
    }

    #[test]
    fn risky_squares_are_next_to_their_corner() {
        use crate::board::Square::*;
        let bit = |s: crate::board::Square| 1u64 << s as u8;
        assert_eq!(x_of(CORNERS), bit(B2) | bit(G2) | bit(B7) | bit(G7));
        assert_eq!(
            c_of(CORNERS),
            bit(B1) | bit(A2) | bit(G1) | bit(H2) | bit(A7) | bit(B8) | bit(H7) | bit(G8)
        );
        assert_eq!(x_of(bit(H1)), bit(G2));
        assert_eq!(c_of(bit(A8)), bit(A7) | bit(B8));
    }

    #[test]
    fn corner_is_good_for_its_owner() {
        let e = HandEval::default();
        // Same position, a1 given to the side to move or to the opponent.
        let b = Board::START;
        let (p, o) = (b.player().0, b.opponent().0);
        assert!(e.eval(p | 1, o) > e.eval(p, o | 1));
    }
}
