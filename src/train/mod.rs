//! Fitting [`PatternEval`] weights, one ridge least-squares fit per game phase by
//! preconditioned conjugate gradients, to one of two training sets:
//! - [`train`]: every position of every finished game, labelled with the final disc
//!   difference for the side to move (the WTHOR theoretical score from 24 empties up);
//! - [`train_labels`]: positions valued by the engine's own searches ([`label`]), the fit
//!   starting from a prior evaluation and pulled toward it instead of toward 0.
//!
//! Everything is single-threaded and iterates in a fixed order, so the same games and options
//! always give the same weights, byte for byte.
//!
//! Memory: about 100 bytes per training position (46 pattern numbers as `u16`, the label and
//! the hand evaluation); 2.0 GB at the peak for the 15 million positions of the WTHOR and
//! Logistello sets, which train in about 2.5 minutes on one core.

use crate::board::{Color, Position};
use crate::engine::eval::geometry::{indices, layout, INSTANCES, N_INSTANCES};
use crate::engine::eval::pattern::PHASE_SLOTS;
use crate::engine::{Evaluator, HandEval, PatternEval, SCALE};
use crate::transcript::GameRecord;
use holdout::{is_held_out, theoretical_diff};

pub mod holdout;
pub mod label;
pub mod probcut;

/// How to train.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainOptions {
    /// Empty-square counts per phase (phases are 1..=w, w+1..=2w, ...; 0 empties is always
    /// an exact score).
    pub phase_width: usize,
    /// Positions up to this many empties outside a phase also train it (smooths neighbouring
    /// phases and gives rare configurations more data).
    pub smoothing: usize,
    /// Ridge penalty, in positions: a weight seen `lambda` times is shrunk halfway to 0.
    pub lambda: f64,
    /// Conjugate-gradient iterations per phase.
    pub iterations: usize,
    /// Every `holdout`-th game (by index, from game `holdout - 1`) is kept out of training to
    /// measure errors; 0 = none.
    pub holdout: usize,
    /// Label positions with at least this many empties with the WTHOR theoretical score
    /// (perfect play from 24 empties) when the game has one; `None` = always the real result.
    pub theoretical_from: Option<u32>,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            phase_width: 4,
            smoothing: 1,
            lambda: 8.0,
            iterations: 40,
            holdout: 20,
            theoretical_from: Some(24),
        }
    }
}

/// Why training cannot run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrainError {
    /// Bad options.
    #[error("{0}")]
    Options(String),
    /// No usable positions.
    #[error("no finished game with a result to train on")]
    NoData,
}

/// Positions extracted from games, sorted by number of empties.
#[derive(Default)]
struct Samples {
    /// `N_INSTANCES` representative numbers (within the pattern) per position.
    feats: Vec<u16>,
    empties: Vec<u8>,
    /// Training label in discs (theoretical score where chosen).
    label: Vec<f32>,
    /// Real final result in discs.
    result: Vec<f32>,
    /// Best-known value in discs: the theoretical score from 24 empties up when the game has
    /// one, else the real result (the same yardstick whatever the training labels).
    best: Vec<f32>,
    /// Boards (side to move, opponent), for measuring the final evaluation.
    boards: Vec<(u64, u64)>,
    /// Hand evaluation in [`SCALE`] units.
    hand: Vec<i16>,
    /// Start of each empty count's positions (index = empties, 62 entries).
    start: Vec<usize>,
}

impl Samples {
    fn len(&self) -> usize {
        self.empties.len()
    }

    fn range(&self, lo: usize, hi: usize) -> std::ops::Range<usize> {
        self.start[lo.min(61)]..self.start[(hi + 1).min(61)]
    }
}

struct Raw {
    p: u64,
    o: u64,
    empties: u8,
    label: f32,
    result: f32,
    best: f32,
}

/// Progress reports while training.
#[derive(Clone, Debug)]
pub enum Progress {
    /// Positions extracted from the games.
    Extracted {
        /// Games used (finished, with a result).
        games: usize,
        /// Games skipped (unfinished or without result).
        skipped: usize,
        /// Training positions.
        train: usize,
        /// Held-out positions.
        validation: usize,
    },
    /// A phase's fit finished.
    Phase {
        /// Phase number.
        phase: usize,
        /// Of how many.
        phases: usize,
        /// Positions fitted (the phase and its smoothing margin).
        positions: usize,
        /// Root-mean-square training error in discs.
        rmse: f64,
        /// Relative size of the final gradient (convergence).
        residual: f64,
    },
}

/// Errors of one phase, in discs.
#[derive(Clone, Debug, PartialEq)]
pub struct PhaseReport {
    /// Empty counts of the phase (inclusive).
    pub empties: (u32, u32),
    /// Training positions in the phase.
    pub train: usize,
    /// Held-out positions in the phase.
    pub validation: usize,
    /// Mean absolute training error of the pattern evaluation.
    pub train_mae: f64,
    /// Held-out mean absolute error of the pattern evaluation against the best-known value
    /// (the WTHOR theoretical score from 24 empties up where the game has one, else the real
    /// result), whatever the training labels.
    pub pattern_mae: f64,
    /// Held-out mean absolute error of the hand evaluation, scaled by least squares on the
    /// training positions, against the best-known value.
    pub hand_mae: f64,
    /// Pattern evaluation against the real final result.
    pub pattern_mae_result: f64,
    /// Hand evaluation against the real final result.
    pub hand_mae_result: f64,
    /// Fitted hand-evaluation scale (discs per hand-evaluation disc) and offset.
    pub hand_fit: (f64, f64),
}

/// The trained evaluation and its error report.
pub struct TrainReport {
    /// The weights.
    pub eval: PatternEval,
    /// One entry per phase.
    pub phases: Vec<PhaseReport>,
    /// Training and held-out positions.
    pub positions: (usize, usize),
}

/// Positions of one finished game with their labels, or `None` for a game not to use.
fn game_positions(g: &GameRecord, theoretical_from: Option<u32>) -> Option<Vec<Raw>> {
    if !g.complete {
        return None;
    }
    g.result.as_ref()?;
    let mut pos: Position = g.start;
    let mut seen = Vec::with_capacity(g.moves.len());
    for &mv in &g.moves {
        seen.push(pos);
        pos = pos.play(mv).ok()?;
    }
    if !pos.board.is_game_over() {
        return None;
    }
    // The board is the truth about a finished game (a typed result can be wrong).
    let result = pos.final_score_black();
    let theo = g
        .result
        .as_ref()
        .and_then(|r| theoretical_diff(&r.raw))
        // Only games that got as far as 24 empties have a theoretical score of their own.
        .filter(|_| pos.board.empty_count() <= 24);
    let mut out = Vec::with_capacity(seen.len());
    for q in seen {
        let b = q.board;
        if b.is_game_over() {
            continue;
        }
        let e = b.empty_count();
        let black = match (theo, theoretical_from) {
            (Some(t), Some(from)) if e >= from => t,
            _ => result,
        };
        let best = match theo {
            Some(t) if e >= 24 => t,
            _ => result,
        };
        let sign = if q.side == Color::Black { 1.0 } else { -1.0 };
        out.push(Raw {
            p: b.player().0,
            o: b.opponent().0,
            empties: e as u8,
            label: sign * black as f32,
            result: sign * result as f32,
            best: sign * best as f32,
        });
    }
    Some(out)
}

/// Sorts positions by empties and computes their pattern numbers; `keep_boards` keeps the
/// boards and real results too (for measuring held-out errors).
fn build_samples(raw: Vec<Raw>, keep_boards: bool) -> Samples {
    let lay = layout();
    let hand = HandEval::default();
    let mut counts = [0usize; 62];
    for r in &raw {
        counts[usize::from(r.empties) + 1] += 1;
    }
    for i in 1..62 {
        counts[i] += counts[i - 1];
    }
    let n = raw.len();
    let mut s = Samples {
        feats: vec![0; n * N_INSTANCES],
        empties: vec![0; n],
        label: vec![0.0; n],
        result: if keep_boards {
            vec![0.0; n]
        } else {
            Vec::new()
        },
        best: if keep_boards {
            vec![0.0; n]
        } else {
            Vec::new()
        },
        boards: if keep_boards {
            vec![(0, 0); n]
        } else {
            Vec::new()
        },
        hand: vec![0; n],
        start: counts.to_vec(),
    };
    let mut next = counts;
    let mut idx = [0u16; N_INSTANCES];
    for r in raw {
        let j = next[usize::from(r.empties)];
        next[usize::from(r.empties)] += 1;
        indices(r.p, r.o, &mut idx);
        for (k, (&i, inst)) in idx.iter().zip(INSTANCES.iter()).enumerate() {
            s.feats[j * N_INSTANCES + k] = lay.canon[inst.pattern as usize][usize::from(i)] as u16;
        }
        s.empties[j] = r.empties;
        s.label[j] = r.label;
        if keep_boards {
            s.result[j] = r.result;
            s.best[j] = r.best;
            s.boards[j] = (r.p, r.o);
        }
        s.hand[j] = hand.eval(r.p, r.o) as i16;
    }
    s
}

/// Start of each instance's pattern inside a phase's representative weights.
fn slot_offsets() -> [u32; N_INSTANCES] {
    let lay = layout();
    let mut o = [0u32; N_INSTANCES];
    for (slot, inst) in o.iter_mut().zip(INSTANCES.iter()) {
        *slot = lay.offsets[inst.pattern as usize] as u32;
    }
    o
}

/// Ridge least squares over one range of samples by Jacobi-preconditioned conjugate
/// gradients. Parameters: the representative weights, then two biases (even, odd empties).
struct Fit<'a> {
    s: &'a Samples,
    range: std::ops::Range<usize>,
    off: [u32; N_INSTANCES],
    per: usize,
    lambda: f64,
    /// Ridge penalty of the two biases.
    lambda_bias: f64,
}

impl Fit<'_> {
    fn params(&self) -> usize {
        self.per + 2
    }

    /// The ridge penalty of parameter `i`.
    fn lambda_of(&self, i: usize) -> f64 {
        if i < self.per {
            self.lambda
        } else {
            self.lambda_bias
        }
    }

    /// Calls `f(row, feature ids)` for every sample; the ids are the sample's 46 pattern
    /// weights and its bias.
    #[inline]
    fn for_each(&self, mut f: impl FnMut(usize, &[u32; N_INSTANCES + 1])) {
        let mut ids = [0u32; N_INSTANCES + 1];
        for j in self.range.clone() {
            let row = &self.s.feats[j * N_INSTANCES..(j + 1) * N_INSTANCES];
            for k in 0..N_INSTANCES {
                ids[k] = self.off[k] + u32::from(row[k]);
            }
            ids[N_INSTANCES] = (self.per + usize::from(self.s.empties[j] & 1)) as u32;
            f(j, &ids);
        }
    }

    /// `(AᵀA + λ) v`.
    fn normal(&self, v: &[f64], out: &mut [f64]) {
        for (i, (o, x)) in out.iter_mut().zip(v).enumerate() {
            *o = self.lambda_of(i) * x;
        }
        self.for_each(|_, ids| {
            let t: f64 = ids.iter().map(|&i| v[i as usize]).sum();
            for &i in ids {
                out[i as usize] += t;
            }
        });
    }

    /// Minimises |Aw - y|² + λ|w - prior|² (prior 0 when `None`), from `start`.
    fn solve(&self, iterations: usize, start: &[f64], prior: Option<&[f64]>) -> (Vec<f64>, f64) {
        let n = self.params();
        let mut diag: Vec<f64> = (0..n).map(|i| self.lambda_of(i)).collect();
        let mut b = match prior {
            Some(w0) => w0.iter().zip(&diag).map(|(x, l)| l * x).collect(),
            None => vec![0.0; n],
        };
        self.for_each(|j, ids| {
            let y = f64::from(self.s.label[j]);
            for &i in ids {
                diag[i as usize] += 1.0;
                b[i as usize] += y;
            }
        });
        let mut w = start.to_vec();
        let mut q = vec![0.0; n];
        self.normal(&w, &mut q);
        let mut r: Vec<f64> = b.iter().zip(&q).map(|(b, q)| b - q).collect();
        let b_norm = b.iter().map(|x| x * x).sum::<f64>().sqrt().max(1e-30);
        let mut z: Vec<f64> = r.iter().zip(&diag).map(|(r, d)| r / d).collect();
        let mut p = z.clone();
        let mut rz: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
        for _ in 0..iterations {
            if rz <= 0.0 {
                break;
            }
            self.normal(&p, &mut q);
            let pq: f64 = p.iter().zip(&q).map(|(a, b)| a * b).sum();
            if pq <= 0.0 {
                break;
            }
            let alpha = rz / pq;
            for i in 0..n {
                w[i] += alpha * p[i];
                r[i] -= alpha * q[i];
                z[i] = r[i] / diag[i];
            }
            let rz_new: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
            let beta = rz_new / rz;
            rz = rz_new;
            for i in 0..n {
                p[i] = z[i] + beta * p[i];
            }
        }
        let residual = r.iter().map(|x| x * x).sum::<f64>().sqrt() / b_norm;
        (w, residual)
    }

    fn predict(&self, w: &[f64], mut f: impl FnMut(usize, f64)) {
        self.for_each(|j, ids| f(j, ids.iter().map(|&i| w[i as usize]).sum()));
    }
}

fn mean(sum: f64, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

/// Trains on `games` (finished ones with a result; the others are skipped), reporting
/// progress to `progress`.
pub fn train(
    games: &[GameRecord],
    opts: &TrainOptions,
    progress: impl FnMut(&Progress),
) -> Result<TrainReport, TrainError> {
    check(opts)?;
    let (mut train_raw, mut val_raw) = (Vec::new(), Vec::new());
    let (mut used, mut skipped) = (0, 0);
    for (i, g) in games.iter().enumerate() {
        match game_positions(g, opts.theoretical_from) {
            Some(v) => {
                used += 1;
                if is_held_out(i, opts.holdout) {
                    val_raw.extend(v);
                } else {
                    train_raw.extend(v);
                }
            }
            None => skipped += 1,
        }
    }
    if train_raw.is_empty() {
        return Err(TrainError::NoData);
    }
    fit_all(train_raw, val_raw, opts, None, (used, skipped), progress)
}

fn check(opts: &TrainOptions) -> Result<(), TrainError> {
    if !(1..=60).contains(&opts.phase_width) {
        return Err(TrainError::Options(format!(
            "phase width {} is out of range: use 1 to 60",
            opts.phase_width
        )));
    }
    if !(opts.lambda.is_finite() && opts.lambda > 0.0) {
        return Err(TrainError::Options(format!(
            "lambda {} must be a positive number",
            opts.lambda
        )));
    }
    Ok(())
}

/// Trains on labelled positions (from [`label::label`]), every `opts.holdout`-th held out,
/// pulling the weights toward `prior`'s (ridge toward them instead of toward 0) and starting
/// from them: a small labelled set corrects the prior instead of replacing it. `prior` must
/// have the phases `opts.phase_width` gives.
pub fn train_labels(
    labels: &[label::Labelled],
    opts: &TrainOptions,
    prior: &PatternEval,
    progress: impl FnMut(&Progress),
) -> Result<TrainReport, TrainError> {
    check(opts)?;
    let (mut train_raw, mut val_raw) = (Vec::new(), Vec::new());
    for (i, l) in labels.iter().enumerate() {
        let r = Raw {
            p: l.board.player().0,
            o: l.board.opponent().0,
            empties: l.board.empty_count() as u8,
            label: l.value,
            result: l.value,
            best: l.value,
        };
        if is_held_out(i, opts.holdout) {
            val_raw.push(r);
        } else {
            train_raw.push(r);
        }
    }
    if train_raw.is_empty() {
        return Err(TrainError::NoData);
    }
    fit_all(
        train_raw,
        val_raw,
        opts,
        Some(prior),
        (labels.len(), 0),
        progress,
    )
}

/// The phase of each empty count for phases `w` empties wide.
fn phases_of_width(w: usize) -> [u8; PHASE_SLOTS] {
    let mut phase_of = [0u8; PHASE_SLOTS];
    for (e, ph) in phase_of.iter_mut().enumerate() {
        *ph = (e.max(1) - 1).div_euclid(w) as u8;
    }
    phase_of
}

/// One fit per phase over the samples, then the error report on the held-out ones.
fn fit_all(
    train_raw: Vec<Raw>,
    val_raw: Vec<Raw>,
    opts: &TrainOptions,
    prior: Option<&PatternEval>,
    (used, skipped): (usize, usize),
    mut progress: impl FnMut(&Progress),
) -> Result<TrainReport, TrainError> {
    let phase_of = phases_of_width(opts.phase_width);
    let per = PatternEval::weights_per_phase();
    // Per phase, the prior's weights and biases in discs (the solver's unit).
    let prior: Option<Vec<Vec<f64>>> = match prior {
        None => None,
        Some(e) if *e.phase_of() != phase_of => {
            return Err(TrainError::Options(format!(
                "the prior evaluation has {} phases of another width than --phase-width {}",
                e.phases(),
                opts.phase_width
            )))
        }
        Some(e) => {
            let reps = e.representatives();
            let d = |x: i16| f64::from(x) / f64::from(SCALE);
            Some(
                reps.chunks_exact(per)
                    .zip(e.biases())
                    .map(|(w, b)| w.iter().chain(b).map(|&x| d(x)).collect())
                    .collect(),
            )
        }
    };
    let train = build_samples(train_raw, false);
    let val = build_samples(val_raw, true);
    progress(&Progress::Extracted {
        games: used,
        skipped,
        train: train.len(),
        validation: val.len(),
    });

    // Toward a prior, the biases (which every position of a phase trains) move freely: they
    // carry the correction of the prior's mean error (its parity bias) in full.
    let lambda_bias = if prior.is_some() { 1.0 } else { opts.lambda };
    let w = opts.phase_width;
    let phases = 60usize.div_ceil(w);
    let off = slot_offsets();
    let mut weights = Vec::with_capacity(phases * per);
    let mut bias = Vec::with_capacity(phases);
    let mut fits = Vec::with_capacity(phases);
    // Fit from the endgame up, each phase starting from its neighbour's solution: closer
    // to its own than zero, so fewer iterations reach the same accuracy.
    let mut start = vec![0.0; per + 2];
    for ph in 0..phases {
        let (lo, hi) = (ph * w + 1, ((ph + 1) * w).min(60));
        let range = train.range(
            lo.saturating_sub(opts.smoothing).max(1),
            hi + opts.smoothing,
        );
        let fit = Fit {
            s: &train,
            range: range.clone(),
            off,
            per,
            lambda: opts.lambda,
            lambda_bias,
        };
        let w0 = prior.as_ref().map(|p| p[ph].as_slice());
        if let Some(w0) = w0 {
            start = w0.to_vec();
        }
        let (sol, residual) = fit.solve(opts.iterations, &start, w0);
        let mut sq = 0.0;
        fit.predict(&sol, |j, v| sq += (v - f64::from(train.label[j])).powi(2));
        progress(&Progress::Phase {
            phase: ph,
            phases,
            positions: range.len(),
            rmse: mean(sq, range.len()).sqrt(),
            residual,
        });
        let q = |x: f64| (x * f64::from(SCALE)).round().clamp(-32_000.0, 32_000.0) as i16;
        weights.extend(sol[..per].iter().map(|&x| q(x)));
        bias.push([q(sol[per]), q(sol[per + 1])]);
        fits.push((lo, hi, sol.clone()));
        start = sol;
    }
    let eval = PatternEval::from_parts(phase_of, bias, weights)
        .map_err(|e| TrainError::Options(e.to_string()))?;

    let hand = HandEval::default();
    let reports = fits
        .iter()
        .map(|(lo, hi, sol)| {
            let tr = train.range(*lo, *hi);
            let fit = Fit {
                s: &train,
                range: tr.clone(),
                off,
                per,
                lambda: opts.lambda,
                lambda_bias,
            };
            let mut abs = 0.0;
            fit.predict(sol, |j, v| abs += (v - f64::from(train.label[j])).abs());
            let hand_fit = fit_hand(&train, tr.clone());
            let (mut pm, mut hm, mut pr, mut hr) = (0.0, 0.0, 0.0, 0.0);
            let vr = val.range(*lo, *hi);
            for j in vr.clone() {
                let (p, o) = val.boards[j];
                let pv = f64::from(eval.eval(p, o)) / f64::from(SCALE);
                let hv = hand_fit.0 * f64::from(hand.eval(p, o)) / f64::from(SCALE) + hand_fit.1;
                let (l, r) = (f64::from(val.best[j]), f64::from(val.result[j]));
                pm += (pv - l).abs();
                hm += (hv - l).abs();
                pr += (pv - r).abs();
                hr += (hv - r).abs();
            }
            let nv = vr.len();
            PhaseReport {
                empties: (*lo as u32, *hi as u32),
                train: tr.len(),
                validation: nv,
                train_mae: mean(abs, tr.len()),
                pattern_mae: mean(pm, nv),
                hand_mae: mean(hm, nv),
                pattern_mae_result: mean(pr, nv),
                hand_mae_result: mean(hr, nv),
                hand_fit,
            }
        })
        .collect();
    Ok(TrainReport {
        eval,
        phases: reports,
        positions: (train.len(), val.len()),
    })
}

/// Least-squares `label ≈ a · hand + c` (hand in discs) over a range of samples.
fn fit_hand(s: &Samples, range: std::ops::Range<usize>) -> (f64, f64) {
    let n = range.len() as f64;
    if n < 2.0 {
        return (1.0, 0.0);
    }
    let (mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0);
    for j in range {
        let x = f64::from(s.hand[j]) / f64::from(SCALE);
        let y = f64::from(s.label[j]);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    let var = sxx - sx * sx / n;
    if var <= 1e-12 {
        return (0.0, sy / n);
    }
    let a = (sxy - sx * sy / n) / var;
    (a, (sy - a * sx) / n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_fit_recovers_a_line() {
        let mut s = Samples::default();
        for h in [-300i16, -100, 0, 200, 500] {
            s.hand.push(h);
            s.label.push(2.0 * f32::from(h) / 100.0 + 3.0);
        }
        let (a, c) = fit_hand(&s, 0..5);
        assert!((a - 2.0).abs() < 1e-9 && (c - 3.0).abs() < 1e-9, "{a} {c}");
    }
}
