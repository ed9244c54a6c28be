//! [`PatternEval`]: a trained pattern evaluation in the style of Logistello and Edax.
//!
//! Each of the 46 pattern instances ([`super::geometry`]) reads its squares as a base-3
//! number and looks it up in its pattern's table of weights; the evaluation is the sum, plus a
//! bias (by parity of the empty count), with one set of tables per game phase (a range of
//! empty-square counts).
//!
//! Weights live once in memory, in the form the hot path reads: per phase and pattern, a table
//! indexed by the balanced feature value ([`Features`]) that both the incremental path and the
//! evaluation from scratch form. The representative weights of the file and of training (one
//! per class of configurations that a symmetry of the pattern maps onto each other) are
//! derived on demand; expanding them makes the evaluation exactly invariant under the 8 board
//! symmetries, whatever the weights.
//!
//! Weights and biases are in [`SCALE`] units (1/100 disc).

use super::features::{balanced_slots, feature_sum, BalancedTables};
use super::file_error::EvalFileError;
use super::geometry::{features_reference, images, layout, pext, CENTER, INSTANCES, T3};
use super::Evaluator;
use crate::board::movegen::moves;
use crate::engine::SCALE;
use std::sync::{Arc, OnceLock};

pub use super::features::Features;
pub use super::geometry::{N_INSTANCES, N_PATTERNS, PATTERN_MASKS, PATTERN_NAMES};

/// Phase table length: one entry per empty count 0..=60.
pub const PHASE_SLOTS: usize = 61;

struct Tables {
    phase_of: [u8; PHASE_SLOTS],
    /// Per phase: bias for an even and an odd number of empties.
    bias: Vec<[i16; 2]>,
    /// Per phase, the weights indexed by pattern and balanced feature ([`Features`]).
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
static DEFAULT_WEIGHTS: &[u8] = include_bytes!("../../../books/eval.bin");

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

/// One phase's tables from its representative weights.
fn balanced_tables(rep: &[i16]) -> Box<BalancedTables> {
    // A zeroed allocation: the unused ends of each table are never written or read, so the
    // kernel never backs them with memory.
    let mut t: Box<BalancedTables> = vec![0i16; N_PATTERNS << 16]
        .into_boxed_slice()
        .try_into()
        .expect("N_PATTERNS tables");
    let lay = layout();
    for (pat, slots) in balanced_slots().iter().enumerate() {
        let table = &mut t[pat << 16..(pat + 1) << 16];
        let reps = &rep[lay.offsets[pat]..lay.offsets[pat + 1]];
        for (&slot, &c) in slots.iter().zip(&lay.canon[pat]) {
            table[usize::from(slot)] = reps[c as usize];
        }
    }
    t
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
        let balanced = weights.chunks_exact(per).map(balanced_tables).collect();
        Ok(PatternEval {
            tables: Arc::new(Tables {
                phase_of,
                bias,
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

    /// Per phase, the biases for an even and an odd number of empties.
    #[must_use]
    pub fn biases(&self) -> &[[i16; 2]] {
        &self.tables.bias
    }

    /// The representative weights, phase after phase (the form of the file and of
    /// [`PatternEval::from_parts`]), read back from the tables.
    #[must_use]
    pub fn representatives(&self) -> Vec<i16> {
        let lay = layout();
        let per = lay.per_phase();
        let mut out = vec![0i16; per * self.phases()];
        for (rep, t) in out.chunks_exact_mut(per).zip(&self.tables.balanced) {
            for (pat, slots) in balanced_slots().iter().enumerate() {
                let reps = &mut rep[lay.offsets[pat]..lay.offsets[pat + 1]];
                for (&slot, &c) in slots.iter().zip(&lay.canon[pat]) {
                    reps[c as usize] = t[pat << 16 | usize::from(slot)];
                }
            }
        }
        out
    }

    /// The evaluation found by walking each instance's squares ([`features_reference`])
    /// instead of `pext` on board images: an independent check of [`Evaluator::eval`], on
    /// every build.
    #[doc(hidden)]
    #[must_use]
    pub fn eval_portable(&self, p: u64, o: u64) -> i32 {
        if let Some(v) = finished(p, o) {
            return v;
        }
        let mut f = [0u16; N_INSTANCES];
        features_reference(p, o, &mut f);
        self.phase_sum(p, o, |w| {
            f.iter()
                .zip(INSTANCES.iter())
                .map(|(&x, inst)| i32::from(w[usize::from(inst.pattern) << 16 | usize::from(x)]))
                .sum()
        })
    }

    /// The evaluation from features kept up to date by the search; equal to
    /// [`Evaluator::eval`] of the same position.
    #[inline]
    #[must_use]
    pub fn eval_features(&self, f: &Features, p: u64, o: u64) -> i32 {
        if let Some(v) = finished(p, o) {
            return v;
        }
        self.phase_sum(p, o, |w| feature_sum(&f.0, w))
    }

    /// `sum(tables of the position's phase)` plus the phase's bias, kept inside ±64 discs.
    #[inline(always)]
    fn phase_sum(&self, p: u64, o: u64, sum: impl FnOnce(&BalancedTables) -> i32) -> i32 {
        let t = &*self.tables;
        let n = (!(p | o)).count_ones() as usize;
        let ph = usize::from(t.phase_of[n]);
        let s = sum(&t.balanced[ph]) + i32::from(t.bias[ph][n & 1]);
        s.clamp(-(64 * SCALE - 1), 64 * SCALE - 1)
    }
}

/// Weight of instance `I` (a constant after monomorphisation: mask, image and table offset
/// become immediates). `pc` holds each image's upper half-board of `p` in its low 32 bits and
/// of `o` in its high 32 bits, so patterns within rows 1-4 need only one `pext`.
#[inline(always)]
fn term<const I: usize>(pi: &[u64; 8], oi: &[u64; 8], pc: &[u64; 8], w: &BalancedTables) -> i32 {
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
    // 2^n <= 1024 = T3.len() (the split halves of the 2n-bit result too). Measured: the
    // bounds checks cost about 25% of an evaluation. The table index is a `u16` feature
    // inside the pattern's 2^16 entries, so it needs no check.
    let f = unsafe {
        CENTER
            .wrapping_add(*T3.get_unchecked(a))
            .wrapping_sub(*T3.get_unchecked(b))
    };
    i32::from(w[usize::from(inst.pattern) << 16 | usize::from(f)])
}

/// `term::<0>(..) + term::<1>(..) + ...`, one term per instance.
macro_rules! sum_terms {
    ($pi:expr, $oi:expr, $pc:expr, $w:expr; $($i:literal)*) => {
        0 $(+ term::<$i>($pi, $oi, $pc, $w))*
    };
}

/// Sum of the weights of all instances (`w` = one phase's tables).
#[inline]
fn pattern_sum(p: u64, o: u64, w: &BalancedTables) -> i32 {
    const _: () = assert!(N_INSTANCES == 46, "sum_terms! lists 46 instances");
    let (pi, oi) = (images(p), images(o));
    let pc: [u64; 8] = std::array::from_fn(|i| u64::from(pi[i] as u32) | oi[i] << 32);
    sum_terms!(&pi, &oi, &pc, w;
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23
        24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45)
}

/// The exact score if neither side can move.
#[inline]
fn finished(p: u64, o: u64) -> Option<i32> {
    if moves(p, o) != 0 || moves(o, p) != 0 {
        return None;
    }
    Some(crate::board::final_score_of(p, o) * SCALE)
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
        self.phase_sum(p, o, |w| pattern_sum(p, o, w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn representatives_survive_the_tables() {
        let per = PatternEval::weights_per_phase();
        let weights: Vec<i16> = (0..2 * per).map(|i| (i % 2001) as i16 - 1000).collect();
        let mut phase_of = [0u8; PHASE_SLOTS];
        phase_of[30..].fill(1);
        let e = PatternEval::from_parts(phase_of, vec![[1, 2], [3, 4]], weights.clone())
            .expect("valid parts");
        assert_eq!(e.representatives(), weights);
        assert_eq!(e.biases(), [[1, 2], [3, 4]]);
    }
}
