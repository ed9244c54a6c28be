//! Legal-move and flip generation on raw `u64` bitboards: the hot path of perft, replay and search.
//!
//! Two implementations: AVX2 (four directions per vector, used when the build target has it)
//! and portable scalar code. `tests` checks both against a plain square-walking reference.

/// No board has more legal moves than this: each is a different square. Boards set up by
/// hand reach well past 32 (`regression_a_board_with_more_than_32_moves_panicked`).
pub const MAX_MOVES: usize = 64;

/// Columns b..g: masks discs that would wrap around the board edge in horizontal/diagonal shifts.
const INNER: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// Direction steps as (column delta, row delta), in the lane order used by the vector code:
/// east, south, south-west, south-east (all increase the bit index), then their opposites.
const DIRS: [(i8, i8); 8] = [
    (1, 0),
    (0, 1),
    (-1, 1),
    (1, 1),
    (-1, 0),
    (0, -1),
    (1, -1),
    (-1, -1),
];

/// Rays from each square: `[0..4]` toward higher bit indices, `[4..8]` toward lower ones.
#[repr(C, align(32))]
#[derive(Clone, Copy)]
struct Rays([u64; 8]);

const fn ray(sq: usize, dir: usize) -> u64 {
    let (dc, dr) = DIRS[dir];
    let mut c = (sq % 8) as i8 + dc;
    let mut r = (sq / 8) as i8 + dr;
    let mut out = 0u64;
    while c >= 0 && c < 8 && r >= 0 && r < 8 {
        out |= 1u64 << (r * 8 + c);
        c += dc;
        r += dr;
    }
    out
}

static RAYS: [Rays; 64] = {
    let mut t = [Rays([0; 8]); 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            t[sq].0[d] = ray(sq, d);
            d += 1;
        }
        sq += 1;
    }
    t
};

/// Empty squares where the side owning `p` may move against `o`.
#[inline]
#[must_use]
pub fn moves(p: u64, o: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        // SAFETY: the avx2 target feature is enabled at compile time for this build.
        unsafe { avx2::moves(p, o) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        moves_scalar(p, o)
    }
}

/// Discs flipped when the side owning `p` plays on `sq` (0 if the move flips nothing).
/// `sq` must be empty.
#[inline]
#[must_use]
pub fn flips(p: u64, o: u64, sq: u8) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        // SAFETY: the avx2 target feature is enabled at compile time for this build.
        unsafe { avx2::flips(p, o, sq) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        flips_scalar(p, o, sq)
    }
}

/// Sum over `moves` of the opponent's reply count after each (at least 1 per move: a forced
/// pass or a finished game is one leaf). The last two plies of perft in one call.
#[inline]
#[must_use]
pub fn sum_reply_counts(p: u64, o: u64, moves: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        // SAFETY: the avx2 target feature is enabled at compile time for this build.
        unsafe { avx2::sum_reply_counts(p, o, moves) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        let mut total = 0;
        let mut mv = moves;
        while mv != 0 {
            let sq = mv.trailing_zeros() as u8;
            mv &= mv - 1;
            let f = flips_scalar(p, o, sq);
            total += u64::from(moves_scalar(o & !f, p | f | 1u64 << sq).count_ones().max(1));
        }
        total
    }
}

/// Portable mobility: Kogge-Stone fills in the eight directions.
#[inline]
#[must_use]
pub fn moves_scalar(p: u64, o: u64) -> u64 {
    #[inline(always)]
    fn dir(p: u64, m: u64, d: u32) -> u64 {
        let mut l = m & (p << d);
        l |= m & (l << d);
        let pl = m & (m << d);
        l |= pl & (l << (2 * d));
        l |= pl & (l << (2 * d));
        let mut r = m & (p >> d);
        r |= m & (r >> d);
        let pr = m & (m >> d);
        r |= pr & (r >> (2 * d));
        r |= pr & (r >> (2 * d));
        (l << d) | (r >> d)
    }
    let inner = o & INNER;
    (dir(p, inner, 1) | dir(p, o, 8) | dir(p, inner, 7) | dir(p, inner, 9)) & !(p | o)
}

/// Portable flips: per ray, the nearest non-opponent square found by bit scans.
#[inline]
#[must_use]
pub fn flips_scalar(p: u64, o: u64, sq: u8) -> u64 {
    let rays = &RAYS[sq as usize].0;
    let mut f = 0u64;
    for &ray in &rays[..4] {
        // Toward higher indices the nearest square along the ray is the lowest set bit.
        let stop = !o & ray;
        let first = stop & stop.wrapping_neg();
        if first & p != 0 {
            f |= (first - 1) & ray;
        }
    }
    for &ray in &rays[4..] {
        let stop = !o & ray;
        if stop != 0 {
            let first = 1u64 << (63 - stop.leading_zeros());
            if first & p != 0 {
                f |= ray & !((first << 1).wrapping_sub(1));
            }
        }
    }
    f
}

/// Square-by-square reference used only to check the fast versions.
#[must_use]
pub fn flips_reference(p: u64, o: u64, sq: u8) -> u64 {
    if (p | o) >> sq & 1 != 0 {
        return 0;
    }
    let mut total = 0;
    for &(dc, dr) in &DIRS {
        let (mut c, mut r) = ((sq % 8) as i8 + dc, (sq / 8) as i8 + dr);
        let mut line = 0u64;
        while (0..8).contains(&c) && (0..8).contains(&r) {
            let bit = 1u64 << (r * 8 + c);
            if o & bit != 0 {
                line |= bit;
            } else {
                if p & bit != 0 {
                    total |= line;
                }
                break;
            }
            c += dc;
            r += dr;
        }
    }
    total
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod avx2 {
    use super::{INNER, RAYS};
    use std::arch::x86_64::*;

    #[inline(always)]
    unsafe fn or_lanes(v: __m256i) -> u64 {
        let x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let x = _mm_or_si128(x, _mm_unpackhi_epi64(x, x));
        _mm_cvtsi128_si64(x) as u64
    }

    /// Mobility with the four directions (shifts 1, 8, 7, 9) in the lanes of one vector;
    /// `pp` and `oo` hold the player's and opponent's discs in every lane. The result still
    /// includes occupied squares: the caller masks with the empties.
    #[inline(always)]
    unsafe fn moves_vec(pp: __m256i, oo: __m256i) -> u64 {
        let sh = _mm256_set_epi64x(9, 7, 8, 1);
        let sh2 = _mm256_add_epi64(sh, sh);
        let inner = INNER as i64;
        let m = _mm256_and_si256(oo, _mm256_set_epi64x(inner, inner, -1, inner));
        let mut l = _mm256_and_si256(m, _mm256_sllv_epi64(pp, sh));
        let mut r = _mm256_and_si256(m, _mm256_srlv_epi64(pp, sh));
        l = _mm256_or_si256(l, _mm256_and_si256(m, _mm256_sllv_epi64(l, sh)));
        r = _mm256_or_si256(r, _mm256_and_si256(m, _mm256_srlv_epi64(r, sh)));
        let pl = _mm256_and_si256(m, _mm256_sllv_epi64(m, sh));
        let pr = _mm256_and_si256(m, _mm256_srlv_epi64(m, sh));
        l = _mm256_or_si256(l, _mm256_and_si256(pl, _mm256_sllv_epi64(l, sh2)));
        r = _mm256_or_si256(r, _mm256_and_si256(pr, _mm256_srlv_epi64(r, sh2)));
        l = _mm256_or_si256(l, _mm256_and_si256(pl, _mm256_sllv_epi64(l, sh2)));
        r = _mm256_or_si256(r, _mm256_and_si256(pr, _mm256_srlv_epi64(r, sh2)));
        or_lanes(_mm256_or_si256(
            _mm256_sllv_epi64(l, sh),
            _mm256_srlv_epi64(r, sh),
        ))
    }

    #[inline(always)]
    pub unsafe fn moves(p: u64, o: u64) -> u64 {
        moves_vec(_mm256_set1_epi64x(p as i64), _mm256_set1_epi64x(o as i64)) & !(p | o)
    }

    /// Flips per direction lane: toward higher indices the nearest non-opponent square is the
    /// lowest set bit; toward lower indices see `flips_down`. The caller ORs the lanes.
    #[inline(always)]
    unsafe fn flips_lanes(pp: __m256i, oo: __m256i, sq: u8) -> __m256i {
        let rays = &RAYS[sq as usize].0;
        // SAFETY (of the loads): `Rays` is 32-byte aligned and holds 8 u64 (two vectors).
        let hi = _mm256_load_si256(rays.as_ptr() as *const __m256i);
        let lo = _mm256_load_si256(rays.as_ptr().add(4) as *const __m256i);
        let zero = _mm256_setzero_si256();
        let stop = _mm256_andnot_si256(oo, hi);
        let first = _mm256_and_si256(stop, _mm256_sub_epi64(zero, stop));
        let out_hi = _mm256_and_si256(first, pp);
        let below = _mm256_add_epi64(out_hi, _mm256_set1_epi64x(-1));
        let none_hi = _mm256_cmpeq_epi64(out_hi, zero);
        let f_hi = _mm256_andnot_si256(none_hi, _mm256_and_si256(below, hi));
        _mm256_or_si256(f_hi, flips_down(pp, oo, lo, sq))
    }

    #[inline(always)]
    pub unsafe fn flips(p: u64, o: u64, sq: u8) -> u64 {
        let pp = _mm256_set1_epi64x(p as i64);
        let oo = _mm256_set1_epi64x(o as i64);
        or_lanes(flips_lanes(pp, oo, sq))
    }

    /// Replies after playing `sq`: the opponent's mobility count (at least 1).
    #[inline(always)]
    unsafe fn reply_count(pp: __m256i, oo: __m256i, occupied: u64, sq: u8) -> u64 {
        let f = flips_lanes(pp, oo, sq);
        // OR the four lanes into every lane without a round trip through a scalar.
        let f = _mm256_or_si256(f, _mm256_permute4x64_epi64::<0x4E>(f));
        let f = _mm256_or_si256(f, _mm256_shuffle_epi32::<0x4E>(f));
        let x = _mm256_set1_epi64x((1u64 << sq) as i64);
        let np = _mm256_andnot_si256(f, oo);
        let no = _mm256_or_si256(_mm256_or_si256(pp, f), x);
        let empty = !(occupied | 1u64 << sq);
        u64::from((moves_vec(np, no) & empty).count_ones().max(1))
    }

    /// For every move in `moves`, plays it and counts the opponent's replies (at least 1: a
    /// forced pass or a finished game is one leaf). Stays in vector registers between the flip
    /// and the mobility, and works on two moves at a time so that the out-of-order core sees
    /// two independent dependency chains: this is the whole cost of perft's last two plies.
    #[inline(always)]
    pub unsafe fn sum_reply_counts(p: u64, o: u64, mut moves: u64) -> u64 {
        let pp = _mm256_set1_epi64x(p as i64);
        let oo = _mm256_set1_epi64x(o as i64);
        let occupied = p | o;
        let mut total = 0u64;
        while moves & moves.wrapping_sub(1) != 0 {
            let a = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let b = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            total += reply_count(pp, oo, occupied, a) + reply_count(pp, oo, occupied, b);
        }
        if moves != 0 {
            total += reply_count(pp, oo, occupied, moves.trailing_zeros() as u8);
        }
        total
    }

    /// Toward lower indices the nearest non-opponent square is the highest set bit, which
    /// AVX-512 (CD + VL) finds directly with a vector leading-zero count.
    #[cfg(all(target_feature = "avx512cd", target_feature = "avx512vl"))]
    #[inline(always)]
    unsafe fn flips_down(pp: __m256i, oo: __m256i, lo: __m256i, _sq: u8) -> __m256i {
        let stop = _mm256_andnot_si256(oo, lo);
        // A count of 64 (no stop square) shifts the bit out entirely: no flip.
        let first = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(stop));
        let out = _mm256_and_si256(first, pp);
        let above = _mm256_slli_epi64::<1>(_mm256_sub_epi64(_mm256_setzero_si256(), out));
        _mm256_and_si256(above, lo)
    }

    /// Without a vector leading-zero count: a fill along the ray finds the opponent run and
    /// the square that ends it.
    #[cfg(not(all(target_feature = "avx512cd", target_feature = "avx512vl")))]
    #[inline(always)]
    unsafe fn flips_down(pp: __m256i, oo: __m256i, lo: __m256i, sq: u8) -> __m256i {
        let zero = _mm256_setzero_si256();
        let sh = _mm256_set_epi64x(9, 7, 8, 1);
        let sh2 = _mm256_add_epi64(sh, sh);
        let m = _mm256_and_si256(oo, lo);
        let x = _mm256_set1_epi64x((1u64 << sq) as i64);
        let mut f = _mm256_and_si256(m, _mm256_srlv_epi64(x, sh));
        f = _mm256_or_si256(f, _mm256_and_si256(m, _mm256_srlv_epi64(f, sh)));
        let pre = _mm256_and_si256(m, _mm256_srlv_epi64(m, sh));
        f = _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_srlv_epi64(f, sh2)));
        f = _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_srlv_epi64(f, sh2)));
        let end = _mm256_and_si256(_mm256_and_si256(_mm256_srlv_epi64(f, sh), lo), pp);
        let none_lo = _mm256_cmpeq_epi64(end, zero);
        _mm256_andnot_si256(none_lo, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic pseudo-random boards with disjoint player/opponent sets.
    fn boards(n: usize) -> Vec<(u64, u64)> {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        (0..n)
            .map(|_| {
                let occ = next() | next();
                let p = occ & next();
                (p, occ & !p)
            })
            .collect()
    }

    fn moves_reference(p: u64, o: u64) -> u64 {
        (0..64u8)
            .filter(|&sq| flips_reference(p, o, sq) != 0)
            .fold(0, |m, sq| m | 1 << sq)
    }

    #[test]
    fn fast_flips_match_reference() {
        for (p, o) in boards(3000) {
            for sq in 0..64u8 {
                if (p | o) >> sq & 1 != 0 {
                    continue;
                }
                let want = flips_reference(p, o, sq);
                assert_eq!(flips(p, o, sq), want, "p={p:#x} o={o:#x} sq={sq}");
                assert_eq!(
                    flips_scalar(p, o, sq),
                    want,
                    "scalar p={p:#x} o={o:#x} sq={sq}"
                );
            }
        }
    }

    #[test]
    fn fast_moves_match_reference() {
        for (p, o) in boards(5000) {
            let want = moves_reference(p, o);
            assert_eq!(moves(p, o), want, "p={p:#x} o={o:#x}");
            assert_eq!(moves_scalar(p, o), want, "scalar p={p:#x} o={o:#x}");
        }
    }
}
