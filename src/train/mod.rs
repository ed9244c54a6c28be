//! Fitting [`PatternEval`] weights, one ridge least-squares fit per game phase by
//! preconditioned conjugate gradients ([`fit`]), to one of three training sets:
//! - [`train`]: every position of every finished game, labelled with the final disc
//!   difference for the side to move (the WTHOR theoretical score from 24 empties up);
//! - [`train_labels`]: positions valued by the engine's own searches ([`label`]), the fit
//!   starting from a prior evaluation and pulled toward it instead of toward 0;
//! - [`train_joint`]: both in one system, each search label weighing as much as
//!   `label_weight` game positions.
//!
//! Labels come from [`label`] (searches of game positions) or [`book_labels`] (the leaves of
//! an evaluated book).
//!
//! Everything is single-threaded and iterates in a fixed order, so the same games and options
//! always give the same weights, byte for byte.
//!
//! Memory: about 100 bytes per training position (46 pattern numbers as `u16`, the label and
//! the hand evaluation); 2.0 GB at the peak for the 15 million positions of the WTHOR and
//! Logistello sets, which train in about 2.5 minutes on one core.

use crate::engine::eval::pattern::PHASE_SLOTS;
use crate::engine::{Evaluator, HandEval, PatternEval, SCALE};
use crate::transcript::GameRecord;
use fit::{fit_hand, mean, slot_offsets, Fit};
use holdout::is_held_out;
use samples::{build_samples, game_positions, Raw, Samples};

pub mod book_labels;
pub mod chances;
pub mod errors;
mod fit;
pub mod holdout;
pub mod label;
pub mod parity;
pub mod probcut_calibration;
mod samples;

/// How to train, as asked: [`TrainSettings::check`] turns it into the [`TrainOptions`] the
/// training functions take.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainSettings {
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

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            phase_width: 4,
            smoothing: 1,
            lambda: 8.0,
            iterations: 40,
            holdout: 20,
            theoretical_from: Some(24),
        }
    }
}

impl TrainSettings {
    /// The options, checked once: the training functions take them as they are.
    pub fn check(self) -> Result<TrainOptions, TrainOptionsError> {
        if !(1..=60).contains(&self.phase_width) {
            return Err(TrainOptionsError::PhaseWidth {
                width: self.phase_width,
            });
        }
        if !(self.lambda.is_finite() && self.lambda > 0.0) {
            return Err(TrainOptionsError::Lambda {
                lambda: self.lambda,
            });
        }
        if self.holdout == 1 {
            return Err(TrainOptionsError::HoldoutOne);
        }
        Ok(TrainOptions(self))
    }
}

/// Training options that passed [`TrainSettings::check`]; read them through `Deref`.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainOptions(TrainSettings);

impl Default for TrainOptions {
    fn default() -> Self {
        TrainSettings::default()
            .check()
            .expect("the default settings are valid")
    }
}

impl std::ops::Deref for TrainOptions {
    type Target = TrainSettings;
    fn deref(&self) -> &TrainSettings {
        &self.0
    }
}

/// How many game positions one search-valued label weighs in [`train_joint`]: a positive
/// number, checked when built.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelWeight(f64);

impl LabelWeight {
    /// `weight`, checked.
    pub fn new(weight: f64) -> Result<LabelWeight, TrainOptionsError> {
        if weight.is_finite() && weight > 0.0 {
            Ok(LabelWeight(weight))
        } else {
            Err(TrainOptionsError::LabelWeight { weight })
        }
    }

    /// The weight.
    #[must_use]
    pub fn get(self) -> f64 {
        self.0
    }
}

/// A training option out of range, named as the option is (the command line adds `--`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TrainOptionsError {
    /// Phases must be 1 to 60 empties wide.
    #[error("phase-width {width} is out of range: use 1 to 60")]
    PhaseWidth {
        /// The width asked for.
        width: usize,
    },
    /// The ridge penalty must be positive.
    #[error("lambda {lambda} must be a positive number")]
    Lambda {
        /// The penalty asked for.
        lambda: f64,
    },
    /// Holding out every game leaves nothing to train on.
    #[error("holdout 1 would hold out every game")]
    HoldoutOne,
    /// A label's weight must be positive.
    #[error("label-weight {weight} must be a positive number")]
    LabelWeight {
        /// The weight asked for.
        weight: f64,
    },
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
    /// Training on labels alone, and none is left to train on.
    #[error("no labelled position to train on ({labels} labels, {held_out} of them held out)")]
    NoLabels {
        /// Labels given.
        labels: usize,
        /// Of them, held out for the error table.
        held_out: usize,
    },
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

/// The positions of `games` (finished ones with a result), split into training and held-out
/// ones, and the counts of games used and skipped.
fn game_sets(games: &[GameRecord], opts: &TrainOptions) -> (Vec<Raw>, Vec<Raw>, (usize, usize)) {
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
    (train_raw, val_raw, (used, skipped))
}

/// Trains on `games` (finished ones with a result; the others are skipped), reporting
/// progress to `progress`.
pub fn train(
    games: &[GameRecord],
    opts: &TrainOptions,
    progress: impl FnMut(&Progress),
) -> Result<TrainReport, TrainError> {
    let (train_raw, val_raw, counts) = game_sets(games, opts);
    if train_raw.is_empty() {
        return Err(TrainError::NoData);
    }
    fit_all(train_raw, val_raw, opts, None, counts, progress)
}

/// A labelled position as a training sample of weight `weight`.
fn label_raw(l: &label::Labelled, weight: f32) -> Raw {
    Raw {
        p: l.board.player().0,
        o: l.board.opponent().0,
        empties: l.board.empty_count() as u8,
        label: l.value,
        weight,
        result: l.value,
        best: l.value,
    }
}

/// Trains on the positions of `games` (as [`train`]) and the search-valued `labels` together,
/// in one ridge system toward 0: every label weighs as much as `label_weight` game positions.
/// The labels come from games that are not held out ([`label::label`] skips them), so all of
/// them train; the error report is on the held-out games.
pub fn train_joint(
    games: &[GameRecord],
    labels: &[label::Labelled],
    label_weight: LabelWeight,
    opts: &TrainOptions,
    progress: impl FnMut(&Progress),
) -> Result<TrainReport, TrainError> {
    let (mut train_raw, val_raw, counts) = game_sets(games, opts);
    train_raw.extend(
        labels
            .iter()
            .map(|l| label_raw(l, label_weight.get() as f32)),
    );
    if train_raw.is_empty() {
        return Err(TrainError::NoData);
    }
    fit_all(train_raw, val_raw, opts, None, counts, progress)
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
    let (mut train_raw, mut val_raw) = (Vec::new(), Vec::new());
    for (i, l) in labels.iter().enumerate() {
        let r = label_raw(l, 1.0);
        if is_held_out(i, opts.holdout) {
            val_raw.push(r);
        } else {
            train_raw.push(r);
        }
    }
    if train_raw.is_empty() {
        return Err(TrainError::NoLabels {
            labels: labels.len(),
            held_out: val_raw.len(),
        });
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

/// Per phase, the prior's weights and biases in discs (the solver's unit); the prior must
/// have the phases of `phase_of`.
fn prior_weights(
    prior: Option<&PatternEval>,
    phase_of: &[u8; PHASE_SLOTS],
    width: usize,
) -> Result<Option<Vec<Vec<f64>>>, TrainError> {
    let per = PatternEval::weights_per_phase();
    Ok(match prior {
        None => None,
        Some(e) if e.phase_of() != phase_of => {
            return Err(TrainError::Options(format!(
                "the prior evaluation has {} phases of another width than phases {} empties wide",
                e.phases(),
                width
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
    })
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
    let prior = prior_weights(prior, &phase_of, opts.phase_width)?;
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

    let reports = fits
        .iter()
        .map(|(lo, hi, sol)| {
            let fit = Fit {
                s: &train,
                range: train.range(*lo, *hi),
                off,
                per,
                lambda: opts.lambda,
                lambda_bias,
            };
            phase_report(&fit, sol, &val, &eval, (*lo, *hi))
        })
        .collect();
    Ok(TrainReport {
        eval,
        phases: reports,
        positions: (train.len(), val.len()),
    })
}

/// The errors of the phase `empties` fitted by `fit` (over exactly the phase's training
/// positions) with solution `sol`: training error, and held-out errors of `eval` and of the
/// hand evaluation scaled on the training positions.
fn phase_report(
    fit: &Fit,
    sol: &[f64],
    val: &Samples,
    eval: &PatternEval,
    (lo, hi): (usize, usize),
) -> PhaseReport {
    let train = fit.s;
    let tr = fit.range.clone();
    let mut abs = 0.0;
    fit.predict(sol, |j, v| abs += (v - f64::from(train.label[j])).abs());
    let hand_fit = fit_hand(train, tr.clone());
    let hand = HandEval::default();
    let (mut pm, mut hm, mut pr, mut hr) = (0.0, 0.0, 0.0, 0.0);
    let vr = val.range(lo, hi);
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
        empties: (lo as u32, hi as u32),
        train: tr.len(),
        validation: nv,
        train_mae: mean(abs, tr.len()),
        pattern_mae: mean(pm, nv),
        hand_mae: mean(hm, nv),
        pattern_mae_result: mean(pr, nv),
        hand_mae_result: mean(hr, nv),
        hand_fit,
    }
}
