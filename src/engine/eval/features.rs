//! [`Features`]: the pattern numbers of a position kept up to date move by move during a
//! search (as Edax does) instead of being read from scratch at every leaf, in a balanced
//! base-3 form that makes a move a sum of per-square vectors and a change of side a negation.

use super::geometry::{
    images, pext, pow3, CENTER, INSTANCES, INSTANCE_SQUARES, N_INSTANCES, N_PATTERNS,
    PATTERN_MASKS, T3,
};
use std::sync::OnceLock;

/// Feature slots: the 46 instances padded to a multiple of 16 lanes for vector code.
pub(crate) const SLOTS: usize = 48;

/// Per pattern, a weight for every `u16` feature value (only `CENTER ± (3^n - 1) / 2` are
/// ever formed; the rest stay 0 and are never touched, so they cost no cache).
pub(crate) type BalancedTables = [i16; N_PATTERNS << 16];

/// The pattern indices of a position, kept up to date move by move during a search (as Edax
/// does) instead of being read from scratch at every leaf.
///
/// Instance `i` holds `2^15 + Σ 3^k c_k` (wrapping) where `c_k` is +1 for a disc of the side
/// to move, -1 for the opponent's and 0 for an empty square on the instance's `k`-th square.
/// The balanced digits make a move a sum of per-square vectors and the change of side a
/// negation.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(align(64))]
pub struct Features(pub(crate) [u16; SLOTS]);

impl std::fmt::Debug for Features {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(
                self.0[..N_INSTANCES]
                    .iter()
                    .map(|&x| x.wrapping_sub(CENTER) as i16),
            )
            .finish()
    }
}

/// Per square: `3^k` in the slot of every instance whose `k`-th square it is.
static SQUARE_DELTA: [[u16; SLOTS]; 64] = {
    let mut d = [[0u16; SLOTS]; 64];
    let mut i = 0;
    while i < N_INSTANCES {
        let mut k = 0;
        while k < 10 {
            let sq = INSTANCE_SQUARES[i][k];
            if sq < 64 {
                d[sq as usize][i] = pow3(k as u32) as u16;
            }
            k += 1;
        }
        i += 1;
    }
    d
};

/// [`SQUARE_DELTA`] doubled: a flipped disc goes from -1 to +1, twice the square's digit.
/// Row 64, for "no disc" (`trailing_zeros` of 0), adds nothing.
static SQUARE_DELTA2: [[u16; SLOTS]; 65] = {
    let mut d = [[0u16; SLOTS]; 65];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < SLOTS {
            d[sq][i] = SQUARE_DELTA[sq][i].wrapping_mul(2);
            i += 1;
        }
        sq += 1;
    }
    d
};

/// Flipped discs that [`Features::play`] adds without a branch: 4 against the loop alone,
/// `bench --midgame-only` 0.550 s -> 0.514-0.520 s (same nodes); 2 gained nothing, 3 less.
const UNCONDITIONAL_FLIPS: usize = 4;

/// `w[pattern of instance 0][f[0]] + ...`: with the pattern a constant and the feature a
/// `u16`, every index is provably inside the tables and no bounds check is left.
macro_rules! sum_features {
    ($f:expr, $w:expr; $($i:literal)*) => {
        0 $(+ i32::from($w[(INSTANCES[$i].pattern as usize) << 16 | usize::from($f[$i])]))*
    };
}

#[inline]
pub(crate) fn feature_sum(f: &[u16; SLOTS], w: &BalancedTables) -> i32 {
    const _: () = assert!(N_INSTANCES == 46, "sum_features! lists 46 instances");
    sum_features!(f, w;
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23
        24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45)
}

impl Features {
    /// The features of `p` (to move) against `o`, read from scratch.
    #[must_use]
    pub fn new(p: u64, o: u64) -> Features {
        let mut f = [CENTER; SLOTS];
        let (pi, oi) = (images(p), images(o));
        for (slot, inst) in f.iter_mut().zip(INSTANCES.iter()) {
            let m = PATTERN_MASKS[inst.pattern as usize];
            let im = inst.image as usize;
            *slot = CENTER
                .wrapping_add(T3[pext(pi[im], m) as usize])
                .wrapping_sub(T3[pext(oi[im], m) as usize]);
        }
        Features(f)
    }

    /// The features after the side to move plays `sq` turning the discs `flips`, seen from the
    /// opponent (who moves next). `flips` must be the flips of a legal move.
    #[inline]
    #[must_use]
    pub fn play(&self, sq: u8, mut flips: u64) -> Features {
        let mut f = self.0;
        add(&mut f, &SQUARE_DELTA[usize::from(sq & 63)]);
        // The first flips are added unconditionally (a move without them adds row 64, zero):
        // a loop over a varying count of discs mispredicts its exit at almost every move.
        for _ in 0..UNCONDITIONAL_FLIPS {
            add(&mut f, &SQUARE_DELTA2[flips.trailing_zeros() as usize]);
            flips &= flips.wrapping_sub(1);
        }
        while flips != 0 {
            add(&mut f, &SQUARE_DELTA2[flips.trailing_zeros() as usize]);
            flips &= flips - 1;
        }
        for x in &mut f {
            *x = x.wrapping_neg();
        }
        Features(f)
    }

    /// The features with the sides exchanged (after a pass).
    #[inline]
    #[must_use]
    pub fn pass(&self) -> Features {
        let mut f = self.0;
        for x in &mut f {
            *x = x.wrapping_neg();
        }
        Features(f)
    }
}

#[inline(always)]
fn add(f: &mut [u16; SLOTS], d: &[u16; SLOTS]) {
    for (x, y) in f.iter_mut().zip(d) {
        *x = x.wrapping_add(*y);
    }
}

/// Per pattern: the feature value of every standard index (digits 0 empty, 1 own,
/// 2 opponent's become 0, +1, -1).
pub(crate) fn balanced_slots() -> &'static [Vec<u16>; N_PATTERNS] {
    static SLOTS_OF: OnceLock<[Vec<u16>; N_PATTERNS]> = OnceLock::new();
    SLOTS_OF.get_or_init(|| {
        std::array::from_fn(|pat| {
            let n = PATTERN_MASKS[pat].count_ones();
            // Counting up in base 3 and keeping the balanced value alongside.
            let mut digits = [0u8; 10];
            let mut b = CENTER;
            let mut out = Vec::with_capacity(pow3(n));
            for _ in 0..pow3(n) {
                out.push(b);
                let mut k = 0;
                while k < n as usize {
                    let w = pow3(k as u32) as u16;
                    match digits[k] {
                        0 => {
                            digits[k] = 1;
                            b = b.wrapping_add(w);
                            break;
                        }
                        1 => {
                            digits[k] = 2;
                            b = b.wrapping_sub(2 * w);
                            break;
                        }
                        _ => {
                            digits[k] = 0;
                            b = b.wrapping_add(w);
                            k += 1;
                        }
                    }
                }
            }
            out
        })
    })
}
