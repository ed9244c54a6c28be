//! Pattern geometry: which squares each pattern reads, its 46 instances on the 8 images of
//! the board, reading an instance as a base-3 number (with `pext` where the CPU has it), and
//! the classes of configurations that share one stored weight.
//!
//! The board is cut into 46 overlapping lines and corner regions (edge + 2 X-squares, corner
//! 3x3, corner 2x5, rows and columns 2-4, diagonals of length 4 to 8). Every instance of a
//! pattern is the same fixed mask read on one of the 8 symmetric images of the board, so an
//! evaluation computes the 8 images once and then does one `pext` per instance and colour.

use crate::board::Symmetry;
use std::sync::OnceLock;

/// Feature value of an empty instance: balanced indices are stored offset by 2^15, so that
/// every `u16` is a valid table index and changing sides is a plain wrapping negation.
pub(crate) const CENTER: u16 = 1 << 15;

/// Number of patterns (weight tables per phase).
pub const N_PATTERNS: usize = 11;

/// Base squares of each pattern (a1 = bit 0, h1 = bit 7, a8 = bit 56).
pub const PATTERN_MASKS: [u64; N_PATTERNS] = [
    0x42FF,                // edge a1..h1 + b2, g2
    0x07_0707,             // corner 3x3 a1..c3
    0x1F1F,                // corner 2x5 a1..e2
    0xFF00,                // row 2
    0xFF_0000,             // row 3
    0xFF00_0000,           // row 4
    0x8040_2010_0804_0201, // diagonal a1-h8
    0x0080_4020_1008_0402, // diagonal b1-h7
    0x0000_8040_2010_0804, // diagonal c1-h6
    0x0000_0080_4020_1008, // diagonal d1-h5
    0x0000_0000_8040_2010, // diagonal e1-h4
];

/// Names of the patterns, for reports.
pub const PATTERN_NAMES: [&str; N_PATTERNS] = [
    "edge+2X",
    "corner3x3",
    "corner2x5",
    "row2",
    "row3",
    "row4",
    "diag8",
    "diag7",
    "diag6",
    "diag5",
    "diag4",
];

pub(crate) const fn pow3(n: u32) -> usize {
    let mut r = 1;
    let mut i = 0;
    while i < n {
        r *= 3;
        i += 1;
    }
    r
}

/// One pattern instance: the pattern's mask read on image `image` (index into
/// [`Symmetry::ALL`]) of the board.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Instance {
    pub image: u8,
    pub pattern: u8,
}

/// Whether image `i` of pattern `pat` reads the same squares as an earlier image.
const fn repeats(pat: usize, i: usize) -> bool {
    let mask = PATTERN_MASKS[pat];
    let read = Symmetry::ALL[i].inverse().bits(mask);
    let mut j = 0;
    while j < i {
        if Symmetry::ALL[j].inverse().bits(mask) == read {
            return true;
        }
        j += 1;
    }
    false
}

const fn count_instances() -> usize {
    let mut n = 0;
    let mut p = 0;
    while p < N_PATTERNS {
        let mut i = 0;
        while i < 8 {
            if !repeats(p, i) {
                n += 1;
            }
            i += 1;
        }
        p += 1;
    }
    n
}

/// Number of pattern instances on the board (46).
pub const N_INSTANCES: usize = count_instances();

/// Every instance, pattern by pattern.
pub(crate) const INSTANCES: [Instance; N_INSTANCES] = {
    let mut out = [Instance {
        image: 0,
        pattern: 0,
    }; N_INSTANCES];
    let mut n = 0;
    let mut p = 0;
    while p < N_PATTERNS {
        let mut i = 0;
        while i < 8 {
            if !repeats(p, i) {
                out[n] = Instance {
                    image: i as u8,
                    pattern: p as u8,
                };
                n += 1;
            }
            i += 1;
        }
        p += 1;
    }
    out
};

/// The board squares each instance reads, in digit order (least significant first); unused
/// entries are 64. Used by the portable code path and by tests.
pub(crate) const INSTANCE_SQUARES: [[u8; 10]; N_INSTANCES] = {
    let mut out = [[64u8; 10]; N_INSTANCES];
    let mut n = 0;
    while n < N_INSTANCES {
        let inst = INSTANCES[n];
        let sym = Symmetry::ALL[inst.image as usize];
        let mut mask = PATTERN_MASKS[inst.pattern as usize];
        let mut k = 0;
        while mask != 0 {
            let base = mask & mask.wrapping_neg();
            mask &= mask - 1;
            // The image holds at square `base` what the board holds at sym⁻¹(base).
            out[n][k] = sym.inverse().bits(base).trailing_zeros() as u8;
            k += 1;
        }
        n += 1;
    }
    out
};

/// Base-3 value of a bit string: bit k contributes 3^k.
pub(crate) static T3: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut v = 0u16;
        let mut k = 9;
        loop {
            v = v * 3 + ((b >> k) & 1) as u16;
            if k == 0 {
                break;
            }
            k -= 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// The 8 images of `x`, in [`Symmetry::ALL`] order (image `i` = `Symmetry::ALL[i].bits(x)`),
/// sharing the transpose and bit reversals between them.
#[inline]
pub(crate) fn images(x: u64) -> [u64; 8] {
    let t = Symmetry::Transpose.bits(x);
    let r = x.reverse_bits();
    let tr = t.reverse_bits();
    [
        x,
        tr.swap_bytes(),
        r,
        t.swap_bytes(),
        r.swap_bytes(),
        x.swap_bytes(),
        t,
        tr,
    ]
}

/// The bits of `x` under the mask `m`, packed into the low bits (BMI2 `pext`). The only
/// part of the evaluation that differs between builds: everything else is one code path.
#[inline(always)]
pub(crate) fn pext(x: u64, m: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    // SAFETY: the bmi2 target feature is enabled at compile time for this build.
    #[allow(unused_unsafe)]
    let r = unsafe { std::arch::x86_64::_pext_u64(x, m) };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    let r = pext_portable(x, m);
    r
}

/// [`pext`] for machines without BMI2: one mask bit at a time.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "bmi2"))))]
#[inline]
fn pext_portable(x: u64, mut m: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1;
    while m != 0 {
        if x & m & m.wrapping_neg() != 0 {
            out |= bit;
        }
        bit <<= 1;
        m &= m - 1;
    }
    out
}

/// Index of every instance in its pattern's full table, for `p` to move against `o` (disjoint:
/// overlapping discs can form indices past `u16`).
#[inline]
pub(crate) fn indices(p: u64, o: u64, out: &mut [u16; N_INSTANCES]) {
    let (pi, oi) = (images(p), images(o));
    for (slot, inst) in out.iter_mut().zip(INSTANCES.iter()) {
        let m = PATTERN_MASKS[inst.pattern as usize];
        let im = inst.image as usize;
        *slot = T3[pext(pi[im], m) as usize] + 2 * T3[pext(oi[im], m) as usize];
    }
}

/// The balanced feature of every instance (as [`super::features::Features`] holds it) found by
/// walking its squares, without `pext` or the board images: the reference the evaluation is
/// tested against. Any `p` and `o` give a valid feature (a square in both counts as empty).
#[inline]
pub(crate) fn features_reference(p: u64, o: u64, out: &mut [u16; N_INSTANCES]) {
    for (slot, squares) in out.iter_mut().zip(INSTANCE_SQUARES.iter()) {
        let mut v = 0u16;
        for &sq in squares.iter().rev().filter(|&&s| s < 64) {
            let digit = ((p >> sq) & 1) as u16;
            v = v
                .wrapping_mul(3)
                .wrapping_add(digit)
                .wrapping_sub(((o >> sq) & 1) as u16);
        }
        *slot = CENTER.wrapping_add(v);
    }
}

/// How configurations of each pattern map onto stored (representative) weights.
pub(crate) struct Layout {
    /// Per pattern: full index → representative number (0-based within the pattern).
    pub canon: Vec<Vec<u32>>,
    /// Start of each pattern's representatives within a phase (total at the end).
    pub offsets: [usize; N_PATTERNS + 1],
}

impl Layout {
    /// Representative weights per phase.
    pub fn per_phase(&self) -> usize {
        self.offsets[N_PATTERNS]
    }
}

/// Reads a full index from the pattern's base squares of (p, o) (the images of a board).
fn read_base(pattern: usize, p: u64, o: u64) -> usize {
    let mut mask = PATTERN_MASKS[pattern];
    let (mut v, mut w) = (0usize, 1usize);
    while mask != 0 {
        let sq = mask.trailing_zeros();
        mask &= mask - 1;
        v += w * (((p >> sq) & 1) as usize + 2 * ((o >> sq) & 1) as usize);
        w *= 3;
    }
    v
}

/// The discs (p, o) on a pattern's base squares for a full index.
fn write_base(pattern: usize, mut idx: usize) -> (u64, u64) {
    let mut mask = PATTERN_MASKS[pattern];
    let (mut p, mut o) = (0, 0);
    while mask != 0 {
        let bit = mask & mask.wrapping_neg();
        mask &= mask - 1;
        match idx % 3 {
            1 => p |= bit,
            2 => o |= bit,
            _ => {}
        }
        idx /= 3;
    }
    (p, o)
}

/// The shared layout, built on first use.
pub(crate) fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let mut canon = Vec::with_capacity(N_PATTERNS);
        let mut offsets = [0; N_PATTERNS + 1];
        for pat in 0..N_PATTERNS {
            let mask = PATTERN_MASKS[pat];
            let own: Vec<Symmetry> = Symmetry::ALL
                .into_iter()
                .filter(|s| s.bits(mask) == mask)
                .collect();
            let size = pow3(mask.count_ones());
            // Representative = smallest index of the class; numbered in index order.
            let mut number = vec![u32::MAX; size];
            let mut table = vec![0u32; size];
            let mut next = 0u32;
            for (idx, slot) in table.iter_mut().enumerate() {
                let (p, o) = write_base(pat, idx);
                let rep = own
                    .iter()
                    .map(|s| read_base(pat, s.bits(p), s.bits(o)))
                    .min()
                    .unwrap_or(idx);
                if number[rep] == u32::MAX {
                    number[rep] = next;
                    next += 1;
                }
                *slot = number[rep];
            }
            offsets[pat + 1] = offsets[pat] + next as usize;
            canon.push(table);
        }
        Layout { canon, offsets }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On BMI2 builds this compares the instruction with the portable version every other
    /// build uses; elsewhere it checks the portable version against a plain bit walk.
    #[test]
    fn pext_and_its_portable_version_agree() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let m = x.rotate_left(23) & x.rotate_left(41);
            let walk = (0..64)
                .filter(|&b| m >> b & 1 != 0)
                .enumerate()
                .fold(0u64, |acc, (k, b)| acc | (x >> b & 1) << k);
            assert_eq!(pext_portable(x, m), walk, "{x:#x} {m:#x}");
            assert_eq!(pext(x, m), walk, "{x:#x} {m:#x}");
        }
        for m in PATTERN_MASKS {
            assert_eq!(pext(!0, m), (1 << m.count_ones()) - 1);
            assert_eq!(pext_portable(!0, m | m << 32), pext(!0, m | m << 32));
        }
    }

    #[test]
    fn forty_six_instances_as_in_edax() {
        assert_eq!(N_INSTANCES, 46);
        let per: Vec<usize> = (0..N_PATTERNS)
            .map(|p| INSTANCES.iter().filter(|i| i.pattern as usize == p).count())
            .collect();
        assert_eq!(per, [4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4]);
    }

    #[test]
    fn images_match_symmetries() {
        let x = 0x0123_4567_89AB_CDEF_u64;
        for (i, s) in Symmetry::ALL.iter().enumerate() {
            assert_eq!(images(x)[i], s.bits(x), "{s:?}");
        }
    }

    #[test]
    fn base3_table() {
        assert_eq!(T3[0], 0);
        assert_eq!(T3[1], 1);
        assert_eq!(T3[0b10], 3);
        assert_eq!(T3[0b11_1111_1111], 29_524);
    }

    #[test]
    fn representatives_halve_self_symmetric_patterns() {
        let lay = layout();
        let count = |p: usize| lay.offsets[p + 1] - lay.offsets[p];
        // Edge: 5 mirrored square pairs -> (3^10 + 3^5) / 2.
        assert_eq!(count(0), (59_049 + 243) / 2);
        // 2x5 corner has no symmetry of its own.
        assert_eq!(count(2), 59_049);
        // Diagonal a1-h8: reversal only (the transpose fixes every square).
        assert_eq!(count(6), (6_561 + 81) / 2);
    }

    #[test]
    fn instances_cover_the_board_symmetrically() {
        // Every square is read by the same number of instances as its symmetric images.
        let mut reads = [0u32; 64];
        for squares in INSTANCE_SQUARES {
            for &s in squares.iter().filter(|&&s| s < 64) {
                reads[s as usize] += 1;
            }
        }
        for s in Symmetry::ALL {
            for sq in 0..64u32 {
                let img = s.bits(1 << sq).trailing_zeros() as usize;
                assert_eq!(reads[sq as usize], reads[img]);
            }
        }
    }
}
