//! [`PatternEval`]: a trained pattern evaluation in the style of Logistello and Edax, with
//! its weight file format (`books/eval.bin`, embedded as the default weights).
//!
//! The board is cut into 46 overlapping lines and corner regions (edge + 2 X-squares, corner
//! 3x3, corner 2x5, rows and columns 2-4, diagonals of length 4 to 8). Each instance reads its
//! squares as a base-3 number (empty 0, side to move 1, opponent 2) and looks the number up in
//! its pattern's table of weights; the evaluation is the sum, plus a bias, with one set of
//! tables per game phase (a range of empty-square counts).
//!
//! Every instance of a pattern is the same fixed mask read on one of the 8 symmetric images of
//! the board, so an evaluation computes the 8 images once and then does one `pext` per
//! instance and colour. Weights are stored (in the file and in training) only for one
//! representative of each class of configurations that a symmetry of the pattern itself maps
//! onto each other (the edge read left to right or right to left); expanding them to full
//! tables makes the evaluation exactly invariant under the 8 board symmetries, whatever the
//! weights.
//!
//! File format (all integers little-endian), version [`FORMAT_VERSION`]:
//! - 8 bytes magic `OTHBEVAL`, `u32` version;
//! - `u32` pattern count, then each pattern's base mask as `u64` (must equal this build's);
//! - `u32` phase count `P`, then 61 bytes: the phase of each empty count 0..=60 (each < `P`);
//! - per phase: two `i16` biases (even, odd empty count), then the representative weights of
//!   every pattern in pattern order ([`PatternEval::weights_per_phase`] `i16`s per phase);
//! - the checksum of everything before it ([`crate::book::checksum`]), `u64`.
//!
//! Weights and biases are in [`SCALE`] units (1/100 disc).

use super::{Evaluator, SCALE};
use crate::board::movegen::moves;
use crate::board::Symmetry;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

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

/// Weight file format version written and read by this build.
pub const FORMAT_VERSION: u32 = 1;
const MAGIC: &[u8; 8] = b"OTHBEVAL";
/// Phase table length: one entry per empty count 0..=60.
pub const PHASE_SLOTS: usize = 61;

const fn pow3(n: u32) -> usize {
    let mut r = 1;
    let mut i = 0;
    while i < n {
        r *= 3;
        i += 1;
    }
    r
}

/// Start of each pattern's full table inside a phase (and the total at the end).
const OFFSETS: [usize; N_PATTERNS + 1] = {
    let mut o = [0; N_PATTERNS + 1];
    let mut i = 0;
    while i < N_PATTERNS {
        o[i + 1] = o[i] + pow3(PATTERN_MASKS[i].count_ones());
        i += 1;
    }
    o
};
/// Full (expanded) weights per phase.
const TOTAL: usize = OFFSETS[N_PATTERNS];

/// Full table length with room for any index the fast path can form, even from overlapping
/// `p` and `o` (a caller's mistake): `T3[a] + 2 * T3[b]` stays below `3 * (3^n - 1) / 2 + 1`.
/// The extra entries are 0.
const PADDED: usize = {
    let mut end = TOTAL;
    let mut i = 0;
    while i < N_PATTERNS {
        let top = OFFSETS[i] + 3 * (pow3(PATTERN_MASKS[i].count_ones()) - 1) / 2 + 1;
        if top > end {
            end = top;
        }
        i += 1;
    }
    end
};

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
static T3: [u16; 1024] = {
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
fn pext(x: u64, m: u64) -> u64 {
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

/// The table index of every instance found by walking its squares, without `pext` or the
/// board images: the reference the evaluation is tested against. Any `p` and `o` (overlapping
/// discs too) give the index the evaluation uses.
#[inline]
fn indices_reference(p: u64, o: u64, out: &mut [usize; N_INSTANCES]) {
    for (slot, squares) in out.iter_mut().zip(INSTANCE_SQUARES.iter()) {
        let mut v = 0usize;
        for &sq in squares.iter().rev().filter(|&&s| s < 64) {
            v = v * 3 + ((p >> sq) & 1) as usize + 2 * ((o >> sq) & 1) as usize;
        }
        *slot = v;
    }
}

/// Weight of instance `I` (a constant after monomorphisation: mask, image and table offset
/// become immediates). `pc` holds each image's upper half-board of `p` in its low 32 bits and
/// of `o` in its high 32 bits, so patterns within rows 1-4 need only one `pext`.
#[inline(always)]
fn term<const I: usize>(pi: &[u64; 8], oi: &[u64; 8], pc: &[u64; 8], w: &[i16; PADDED]) -> i32 {
    let inst = INSTANCES[I];
    let m = PATTERN_MASKS[inst.pattern as usize];
    let im = inst.image as usize;
    let (a, b) = if m >> 32 == 0 {
        let n = m.count_ones();
        let r = pext(pc[im], m | m << 32);
        ((r & ((1 << n) - 1)) as usize, (r >> n) as usize)
    } else {
        (pext(pi[im], m) as usize, pext(oi[im], m) as usize)
    };
    // SAFETY: `pext` (either version) with a mask of n <= 10 bits returns a value below
    // 2^n <= 1024 = T3.len() (the split halves of the 2n-bit result too); T3 of an n-bit
    // value is at most
    // (3^n - 1) / 2, so the weight index is below the pattern's offset + 3 (3^n - 1) / 2 + 1
    // <= PADDED = w.len() (see PADDED). Measured: the bounds checks cost about 25% of an
    // evaluation.
    unsafe {
        let idx = usize::from(*T3.get_unchecked(a)) + 2 * usize::from(*T3.get_unchecked(b));
        i32::from(*w.get_unchecked(OFFSETS[inst.pattern as usize] + idx))
    }
}

/// `term::<0>(..) + term::<1>(..) + ...`, one term per instance.
macro_rules! sum_terms {
    ($pi:expr, $oi:expr, $pc:expr, $w:expr; $($i:literal)*) => {
        0 $(+ term::<$i>($pi, $oi, $pc, $w))*
    };
}

/// Sum of the weights of all instances (`w` = one phase's full tables).
#[inline]
fn pattern_sum(p: u64, o: u64, w: &[i16; PADDED]) -> i32 {
    const _: () = assert!(N_INSTANCES == 46, "sum_terms! lists 46 instances");
    let (pi, oi) = (images(p), images(o));
    let pc: [u64; 8] = std::array::from_fn(|i| u64::from(pi[i] as u32) | oi[i] << 32);
    sum_terms!(&pi, &oi, &pc, w;
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23
        24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45)
}

/// Feature slots: the 46 instances padded to a multiple of 16 lanes for vector code.
const SLOTS: usize = 48;
/// Feature value of an empty instance: balanced indices are stored offset by 2^15, so that
/// every `u16` is a valid table index and changing sides is a plain wrapping negation.
const CENTER: u16 = 1 << 15;

/// Per pattern, a weight for every `u16` feature value (only `CENTER ± (3^n - 1) / 2` are
/// ever formed; the rest stay 0 and are never touched, so they cost no cache).
type BalancedTables = [i16; N_PATTERNS << 16];

/// The pattern indices of a position, kept up to date move by move during a search (as Edax
/// does) instead of being read from scratch at every leaf.
///
/// Instance `i` holds `2^15 + Σ 3^k c_k` (wrapping) where `c_k` is +1 for a disc of the side
/// to move, -1 for the opponent's and 0 for an empty square on the instance's `k`-th square.
/// The balanced digits make a move a sum of per-square vectors and the change of side a
/// negation.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(align(64))]
pub struct Features([u16; SLOTS]);

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
fn feature_sum(f: &[u16; SLOTS], w: &BalancedTables) -> i32 {
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

/// The balanced-index tables of one phase, from its full tables.
fn balanced_tables(full: &[i16; PADDED]) -> Box<BalancedTables> {
    // A zeroed allocation: the unused ends of each table are never written or read, so the
    // kernel never backs them with memory.
    let mut t: Box<BalancedTables> = vec![0i16; N_PATTERNS << 16]
        .into_boxed_slice()
        .try_into()
        .expect("N_PATTERNS tables");
    for (pat, slots) in balanced_slots().iter().enumerate() {
        let table = &mut t[pat << 16..(pat + 1) << 16];
        for (&slot, &w) in slots.iter().zip(&full[OFFSETS[pat]..OFFSETS[pat + 1]]) {
            table[usize::from(slot)] = w;
        }
    }
    t
}

/// Per pattern: the feature value of every standard index (digits 0 empty, 1 own,
/// 2 opponent's become 0, +1, -1).
fn balanced_slots() -> &'static [Vec<u16>; N_PATTERNS] {
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

/// Why a weight file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum EvalFileError {
    /// The file does not start with the magic bytes.
    #[error("not an othbook evaluation file (it does not start with \"OTHBEVAL\")")]
    BadMagic,
    /// Written by another version of the format.
    #[error("evaluation file format version {found} is not supported (this build reads version {expected})")]
    Version {
        /// Version in the file.
        found: u32,
        /// Version this build reads.
        expected: u32,
    },
    /// Shorter than its header says.
    #[error("evaluation file is truncated: {expected} bytes expected, {found} present")]
    Truncated {
        /// Bytes the header implies.
        expected: usize,
        /// Bytes present.
        found: usize,
    },
    /// Longer than its header says.
    #[error("evaluation file has {extra} unexpected bytes after its end")]
    Trailing {
        /// Bytes after the checksum.
        extra: usize,
    },
    /// The checksum does not match the contents.
    #[error(
        "evaluation file is corrupted: checksum {stored:016x} stored, {computed:016x} computed"
    )]
    Checksum {
        /// Checksum in the file.
        stored: u64,
        /// Checksum of the contents.
        computed: u64,
    },
    /// Patterns other than this build's.
    #[error("evaluation file was trained for other patterns than this build's ({0})")]
    Patterns(String),
    /// A bad phase table or weight count.
    #[error("evaluation file has a bad phase layout: {0}")]
    Phases(String),
    /// The file could not be read or written.
    #[error("{}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file could not be read whole (a device, or larger than any weight file).
    #[error(transparent)]
    Read(#[from] crate::bounded_read::ReadError),
    /// The contents of a named file are bad.
    #[error("{}", path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: Box<EvalFileError>,
    },
}

struct Tables {
    phase_of: [u8; PHASE_SLOTS],
    /// Per phase: bias for an even and an odd number of empties.
    bias: Vec<[i16; 2]>,
    /// Representative weights, phase after phase (the file's form).
    weights: Vec<i16>,
    /// Full tables, one per phase (padded, see [`PADDED`]).
    full: Vec<Box<[i16; PADDED]>>,
    /// The same weights indexed by balanced features ([`Features`]), one per phase.
    balanced: Vec<Box<BalancedTables>>,
}

/// The trained pattern evaluation. Cheap to clone (the tables are shared).
#[derive(Clone)]
pub struct PatternEval {
    tables: Arc<Tables>,
}

impl std::fmt::Debug for PatternEval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternEval")
            .field("phases", &self.tables.bias.len())
            .field("phase_of", &self.tables.phase_of)
            .finish_non_exhaustive()
    }
}

/// The default weights, trained by `othbook train` (see books/README.md).
static DEFAULT_WEIGHTS: &[u8] = include_bytes!("../../books/eval.bin");

impl Default for PatternEval {
    /// The weights embedded in the binary (`books/eval.bin`).
    fn default() -> Self {
        static DEFAULT: OnceLock<PatternEval> = OnceLock::new();
        DEFAULT
            .get_or_init(|| {
                PatternEval::from_bytes(DEFAULT_WEIGHTS)
                    .expect("the embedded books/eval.bin is checked by the test suite")
            })
            .clone()
    }
}

fn take<'a>(bytes: &'a [u8], at: &mut usize, n: usize) -> Result<&'a [u8], EvalFileError> {
    let end = *at + n;
    let s = bytes.get(*at..end).ok_or(EvalFileError::Truncated {
        expected: end,
        found: bytes.len(),
    })?;
    *at = end;
    Ok(s)
}

fn take_u32(bytes: &[u8], at: &mut usize) -> Result<u32, EvalFileError> {
    let s = take(bytes, at, 4)?;
    Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

impl PatternEval {
    /// Representative weights per phase in the file and in [`PatternEval::from_parts`].
    #[must_use]
    pub fn weights_per_phase() -> usize {
        layout().per_phase()
    }

    /// An evaluation from its parts: the phase of each empty count 0..=60, per phase the
    /// biases for an even and an odd number of empties, and per phase
    /// [`PatternEval::weights_per_phase`] representative weights (phase after phase).
    pub fn from_parts(
        phase_of: [u8; PHASE_SLOTS],
        bias: Vec<[i16; 2]>,
        weights: Vec<i16>,
    ) -> Result<PatternEval, EvalFileError> {
        let n = bias.len();
        if n == 0 || n > 61 {
            return Err(EvalFileError::Phases(format!("{n} phases (use 1 to 61)")));
        }
        if let Some(e) = phase_of.iter().position(|&ph| usize::from(ph) >= n) {
            return Err(EvalFileError::Phases(format!(
                "{e} empties map to phase {} of {n}",
                phase_of[e]
            )));
        }
        let per = Self::weights_per_phase();
        if weights.len() != n * per {
            return Err(EvalFileError::Phases(format!(
                "{} weights for {n} phases of {per}",
                weights.len()
            )));
        }
        let lay = layout();
        let full = (0..n)
            .map(|ph| {
                let rep = &weights[ph * per..(ph + 1) * per];
                let mut t: Box<[i16; PADDED]> = vec![0i16; PADDED]
                    .into_boxed_slice()
                    .try_into()
                    .expect("PADDED entries");
                for pat in 0..N_PATTERNS {
                    let base = lay.offsets[pat];
                    for (i, &c) in lay.canon[pat].iter().enumerate() {
                        t[OFFSETS[pat] + i] = rep[base + c as usize];
                    }
                }
                t
            })
            .collect::<Vec<_>>();
        let balanced = full.iter().map(|f| balanced_tables(f)).collect();
        Ok(PatternEval {
            tables: Arc::new(Tables {
                phase_of,
                bias,
                weights,
                full,
                balanced,
            }),
        })
    }

    /// The phase of each empty count 0..=60.
    #[must_use]
    pub fn phase_of(&self) -> &[u8; PHASE_SLOTS] {
        &self.tables.phase_of
    }

    /// Number of phases.
    #[must_use]
    pub fn phases(&self) -> usize {
        self.tables.bias.len()
    }

    /// Reads weights written by [`PatternEval::to_bytes`] / [`PatternEval::save`], checking
    /// magic, version, size, checksum, patterns and phase table.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternEval, EvalFileError> {
        let mut at = 0;
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(EvalFileError::BadMagic);
        }
        at += MAGIC.len();
        let version = take_u32(bytes, &mut at)?;
        if version != FORMAT_VERSION {
            return Err(EvalFileError::Version {
                found: version,
                expected: FORMAT_VERSION,
            });
        }
        let n_patterns = take_u32(bytes, &mut at)? as usize;
        if n_patterns != N_PATTERNS {
            return Err(EvalFileError::Patterns(format!(
                "{n_patterns} patterns, this build has {N_PATTERNS}"
            )));
        }
        let masks = take(bytes, &mut at, 8 * N_PATTERNS)?;
        let n_phases = take_u32(bytes, &mut at)? as usize;
        if n_phases == 0 || n_phases > 61 {
            return Err(EvalFileError::Phases(format!(
                "{n_phases} phases (use 1 to 61)"
            )));
        }
        let phase_at = at;
        let per = Self::weights_per_phase();
        let expected = phase_at + PHASE_SLOTS + n_phases * (2 + per) * 2 + 8;
        if bytes.len() < expected {
            return Err(EvalFileError::Truncated {
                expected,
                found: bytes.len(),
            });
        }
        if bytes.len() > expected {
            return Err(EvalFileError::Trailing {
                extra: bytes.len() - expected,
            });
        }
        let body = &bytes[..expected - 8];
        let mut stored = [0u8; 8];
        stored.copy_from_slice(&bytes[expected - 8..]);
        let stored = u64::from_le_bytes(stored);
        let computed = crate::book::checksum(body);
        if stored != computed {
            return Err(EvalFileError::Checksum { stored, computed });
        }
        for (i, (chunk, want)) in masks.chunks_exact(8).zip(PATTERN_MASKS).enumerate() {
            let mut m = [0u8; 8];
            m.copy_from_slice(chunk);
            let got = u64::from_le_bytes(m);
            if got != want {
                return Err(EvalFileError::Patterns(format!(
                    "pattern {i} ({}) has mask {got:#018x}, this build {want:#018x}",
                    PATTERN_NAMES[i]
                )));
            }
        }
        let mut phase_of = [0u8; PHASE_SLOTS];
        phase_of.copy_from_slice(take(bytes, &mut at, PHASE_SLOTS)?);
        let mut bias = Vec::with_capacity(n_phases);
        let mut weights = Vec::with_capacity(n_phases * per);
        let i16s = |s: &[u8]| -> Vec<i16> {
            s.chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect()
        };
        for _ in 0..n_phases {
            let b = i16s(take(bytes, &mut at, 4)?);
            bias.push([b[0], b[1]]);
            weights.extend(i16s(take(bytes, &mut at, 2 * per)?));
        }
        PatternEval::from_parts(phase_of, bias, weights)
    }

    /// Reads a weight file.
    pub fn load(path: impl AsRef<Path>) -> Result<PatternEval, EvalFileError> {
        let path = path.as_ref();
        // The largest file the format allows (61 phases): more cannot be weights, and a device
        // such as /dev/zero must not be read forever.
        let most = MAGIC.len() + 8 + 8 * N_PATTERNS + 4 + PHASE_SLOTS;
        let most = most + 61 * (2 + Self::weights_per_phase()) * 2 + 8;
        let bytes = crate::bounded_read::read_capped(path, most as u64)?;
        PatternEval::from_bytes(&bytes).map_err(|e| EvalFileError::InFile {
            path: path.to_path_buf(),
            source: Box::new(e),
        })
    }

    /// The weight file's bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let t = &*self.tables;
        let per = Self::weights_per_phase();
        let mut out = Vec::with_capacity(128 + t.weights.len() * 2 + t.bias.len() * 4);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(N_PATTERNS as u32).to_le_bytes());
        for m in PATTERN_MASKS {
            out.extend_from_slice(&m.to_le_bytes());
        }
        out.extend_from_slice(&(t.bias.len() as u32).to_le_bytes());
        out.extend_from_slice(&t.phase_of);
        for (ph, b) in t.bias.iter().enumerate() {
            out.extend_from_slice(&b[0].to_le_bytes());
            out.extend_from_slice(&b[1].to_le_bytes());
            for w in &t.weights[ph * per..(ph + 1) * per] {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        let sum = crate::book::checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Writes the weight file.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), EvalFileError> {
        let path = path.as_ref();
        let bytes = self.to_bytes();
        crate::atomic_file::replace(path, |f| std::io::Write::write_all(f, &bytes)).map_err(
            |source| EvalFileError::Io {
                path: path.to_path_buf(),
                source,
            },
        )
    }

    /// The evaluation found by walking each instance's squares ([`indices_reference`]) instead
    /// of `pext` on board images: an independent check of [`Evaluator::eval`], on every build.
    #[doc(hidden)]
    #[must_use]
    pub fn eval_portable(&self, p: u64, o: u64) -> i32 {
        if let Some(v) = finished(p, o) {
            return v;
        }
        let t = &*self.tables;
        let n = (!(p | o)).count_ones() as usize;
        let ph = usize::from(t.phase_of[n]);
        let mut idx = [0usize; N_INSTANCES];
        indices_reference(p, o, &mut idx);
        let w = &t.full[ph];
        let s: i32 = idx
            .iter()
            .zip(INSTANCES.iter())
            .map(|(&i, inst)| i32::from(w[OFFSETS[inst.pattern as usize] + i]))
            .sum::<i32>()
            + i32::from(t.bias[ph][n & 1]);
        s.clamp(-(64 * SCALE - 1), 64 * SCALE - 1)
    }
}

/// The exact score if neither side can move.
#[inline]
fn finished(p: u64, o: u64) -> Option<i32> {
    if moves(p, o) != 0 || moves(o, p) != 0 {
        return None;
    }
    Some(crate::board::Board::from_bits(p, o).final_score() * SCALE)
}

impl PatternEval {
    /// The evaluation from features kept up to date by the search; equal to
    /// [`Evaluator::eval`] of the same position.
    #[inline]
    #[must_use]
    pub fn eval_features(&self, f: &Features, p: u64, o: u64) -> i32 {
        if let Some(v) = finished(p, o) {
            return v;
        }
        let t = &*self.tables;
        let n = (!(p | o)).count_ones() as usize;
        let ph = usize::from(t.phase_of[n]);
        let s = feature_sum(&f.0, &t.balanced[ph]) + i32::from(t.bias[ph][n & 1]);
        s.clamp(-(64 * SCALE - 1), 64 * SCALE - 1)
    }
}

impl Evaluator for PatternEval {
    type State = Features;

    #[inline]
    fn state(&self, p: u64, o: u64) -> Features {
        Features::new(p, o)
    }

    #[inline]
    fn play(&self, s: &Features, sq: u8, flips: u64) -> Features {
        s.play(sq, flips)
    }

    #[inline]
    fn pass(&self, s: &Features) -> Features {
        s.pass()
    }

    #[inline]
    fn eval_state(&self, s: &Features, p: u64, o: u64) -> i32 {
        self.eval_features(s, p, o)
    }

    #[inline]
    fn eval(&self, p: u64, o: u64) -> i32 {
        if let Some(v) = finished(p, o) {
            return v;
        }
        let t = &*self.tables;
        let n = (!(p | o)).count_ones() as usize;
        let ph = usize::from(t.phase_of[n]);
        let s = pattern_sum(p, o, &t.full[ph]) + i32::from(t.bias[ph][n & 1]);
        s.clamp(-(64 * SCALE - 1), 64 * SCALE - 1)
    }
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
