//! Calibration of the win, draw and loss chances of values (`othbook calibrate chances`):
//! positions of real games before 24 empties are searched, and an ordered logistic model of
//! the game's result at 24 empties (WTHOR's theoretical score: perfect play from there) given
//! the value and the empties, with a share of thrown games whose result ignores the value
//! (see `book::trust`), is fitted by maximum likelihood on all games but every k-th, which
//! are kept to check it and to choose between the model's families. The result is written as `src/book/trust/chances_table.rs`.

use super::holdout::{is_held_out, position_at, theoretical_diff};
use crate::board::{Board, Color};
use crate::book::trust::{model_chances, ChanceModel, Chances};
use crate::engine::{Depth, Engine, EngineError, Limits, SearchEval, Selectivity, SCALE};
use crate::transcript::GameRecord;
use std::fmt::Write as _;

/// The empties of the positions sampled (the theoretical score is known from 24 on).
pub const EMPTIES: (u32, u32) = (25, 56);

/// A sampled position: its board, whether its game is held out, and the game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Picked {
    /// The position (its side to move has a move).
    pub board: Board,
    /// The game is one of every k-th, kept out of the fit.
    pub held_out: bool,
    /// The theoretical result for the side to move, in discs.
    pub result: i32,
}

/// One measured position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChanceSample {
    /// Empties of the position.
    pub empties: u32,
    /// The search's value for the side to move, in discs.
    pub value: f64,
    /// The theoretical result for the side to move, in discs.
    pub result: i32,
    /// Kept out of the fit.
    pub held_out: bool,
}

/// Deterministic sample of up to `count` positions, one per game with a theoretical score,
/// spread over the games, their empties cycling through [`EMPTIES`]. Game `i` (in the order
/// given) is held out when `is_held_out(i, every)`.
#[must_use]
pub fn sample_positions(games: &[GameRecord], count: usize, every: usize) -> Vec<Picked> {
    let (lo, hi) = EMPTIES;
    let mut out = Vec::new();
    for (k, gi) in super::probcut_calibration::spread(games.len()).enumerate() {
        if out.len() >= count {
            break;
        }
        let g = &games[gi];
        let Some(black) = g.result.as_ref().and_then(|r| theoretical_diff(&r.raw)) else {
            continue;
        };
        let empties = lo + (k as u32) % (hi - lo + 1);
        if let Some(p) = position_at(g, empties) {
            out.push(Picked {
                board: p.board,
                held_out: is_held_out(gi, every),
                result: if p.side == Color::Black {
                    black
                } else {
                    -black
                },
            });
        }
    }
    out
}

/// Searches one position `depth` plies deep at `selectivity` (a cleared table).
pub fn measure<E: SearchEval>(
    engine: &mut Engine<E>,
    p: &Picked,
    depth: u32,
    selectivity: Selectivity,
) -> Result<ChanceSample, EngineError> {
    engine.clear();
    let a = engine.analyze(
        &p.board,
        &Limits::depth(Depth::new(depth)?).selectivity(selectivity),
    )?;
    Ok(ChanceSample {
        empties: p.board.empty_count(),
        value: f64::from(a.score) / f64::from(SCALE),
        result: p.result,
        held_out: p.held_out,
    })
}

/// The probability `model` gives the observed result of `s`.
fn likelihood(model: &ChanceModel, s: &ChanceSample) -> f64 {
    let c = model_chances(model, s.value, s.empties);
    match s.result.signum() {
        1 => c.win,
        -1 => c.loss,
        _ => c.draw,
    }
}

/// The families of chance models `calibrate chances` fits and compares on the held-out games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// The ordered logistic model alone: its tails are a logistic's.
    Logistic,
    /// Plus a share of thrown games growing per ply above 24 empties.
    ThrownPerPly,
    /// Plus a share of thrown games at 24 empties and one growing per ply above.
    ThrownBaseAndPerPly,
}

impl Family {
    /// Every family, simplest first.
    pub const ALL: [Family; 3] = [
        Family::Logistic,
        Family::ThrownPerPly,
        Family::ThrownBaseAndPerPly,
    ];

    /// A short name for reports.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Family::Logistic => "logistic",
            Family::ThrownPerPly => "logistic + thrown games per ply",
            Family::ThrownBaseAndPerPly => "logistic + thrown games at 24 empties and per ply",
        }
    }

    /// The model from free parameters: the scale's two terms, the draw band as a logarithm
    /// (positive), the throw probabilities as logits; a family without a throw parameter
    /// leaves it 0. The slope is 1: scaling slope, noise and draw band together gives the same
    /// chances, so only their ratios can be fitted, and a slope of 1 reads "the result is
    /// the value plus noise".
    fn model(self, x: &[f64; 5]) -> ChanceModel {
        let p = |t: f64| 1.0 / (1.0 + (-t).exp());
        ChanceModel {
            slope: 1.0,
            scale_at_24: x[0],
            scale_per_10: x[1],
            draw_band: x[2].exp(),
            throw_base: if self == Family::ThrownBaseAndPerPly {
                p(x[3])
            } else {
                0.0
            },
            throw_per_ply: if self == Family::Logistic {
                0.0
            } else {
                p(x[4])
            },
        }
    }
}

/// Maximum-likelihood fit of `family` on the samples not held out (Nelder-Mead on the
/// negative log likelihood; deterministic).
#[must_use]
pub fn fit(samples: &[ChanceSample], family: Family) -> ChanceModel {
    let train: Vec<&ChanceSample> = samples.iter().filter(|s| !s.held_out).collect();
    let cost = |family: Family, x: &[f64; 5]| -> f64 {
        let m = family.model(x);
        -train
            .iter()
            .map(|s| likelihood(&m, s).max(1e-12).ln())
            .sum::<f64>()
    };
    // Start from the logistic fit: the throw parameters then only refine it.
    let start = [1.5, 0.2, -1.0, -5.0, -5.0];
    let logistic = nelder_mead(|x| cost(Family::Logistic, x), start, 3000);
    if family == Family::Logistic {
        return family.model(&logistic);
    }
    family.model(&nelder_mead(|x| cost(family, x), logistic, 3000))
}

/// A fitted family with its held-out mean log likelihood.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fitted {
    /// The family.
    pub family: Family,
    /// Its maximum-likelihood model.
    pub model: ChanceModel,
    /// Mean log likelihood per held-out position (higher is better).
    pub held_out: f64,
}

/// Held-out log likelihoods per position closer than this are a tie, which the simpler
/// family wins: a richer family must do better on the games it was not fitted on.
pub const TIE: f64 = 1e-4;

/// Fits every family and returns them, the chosen one first: the simplest whose held-out log
/// likelihood is within [`TIE`] of the best; the rest follow, best first.
#[must_use]
pub fn fit_families(samples: &[ChanceSample]) -> Vec<Fitted> {
    let mut all: Vec<Fitted> = Family::ALL
        .iter()
        .map(|&family| {
            let model = fit(samples, family);
            Fitted {
                family,
                model,
                held_out: held_out_log_likelihood(&model, samples),
            }
        })
        .collect();
    let best = all.iter().map(|f| f.held_out).fold(f64::MIN, f64::max);
    let chosen = all
        .iter()
        .position(|f| f.held_out >= best - TIE)
        .unwrap_or(0);
    let first = all.remove(chosen);
    all.sort_by(|a, b| b.held_out.total_cmp(&a.held_out));
    all.insert(0, first);
    all
}

/// Minimises `f` from `x0` by the Nelder-Mead simplex method (`iterations` steps at most).
fn nelder_mead<const N: usize>(
    f: impl Fn(&[f64; N]) -> f64,
    x0: [f64; N],
    iterations: usize,
) -> [f64; N] {
    let mut simplex: Vec<([f64; N], f64)> = (0..=N)
        .map(|i| {
            let mut x = x0;
            if i > 0 {
                x[i - 1] += 0.5;
            }
            (x, f(&x))
        })
        .collect();
    let towards = |a: &[f64; N], b: &[f64; N], t: f64| {
        let mut r = *a;
        for k in 0..N {
            r[k] = a[k] + t * (b[k] - a[k]);
        }
        r
    };
    for _ in 0..iterations {
        simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
        if (simplex[N].1 - simplex[0].1).abs() < 1e-9 {
            break;
        }
        let mut centre = [0.0; N];
        for (x, _) in &simplex[..N] {
            for k in 0..N {
                centre[k] += x[k] / N as f64;
            }
        }
        let worst = simplex[N].0;
        let reflected = towards(&centre, &worst, -1.0);
        let fr = f(&reflected);
        if fr < simplex[0].1 {
            let expanded = towards(&centre, &worst, -2.0);
            let fe = f(&expanded);
            simplex[N] = if fe < fr {
                (expanded, fe)
            } else {
                (reflected, fr)
            };
        } else if fr < simplex[N - 1].1 {
            simplex[N] = (reflected, fr);
        } else {
            let contracted = towards(&centre, &worst, 0.5);
            let fc = f(&contracted);
            if fc < simplex[N].1 {
                simplex[N] = (contracted, fc);
            } else {
                let best = simplex[0].0;
                for p in simplex.iter_mut().skip(1) {
                    p.0 = towards(&best, &p.0, 0.5);
                    p.1 = f(&p.0);
                }
            }
        }
    }
    simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
    simplex[0].0
}

/// One row of a reliability table: positions whose predicted chance falls in one decile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decile {
    /// Positions in the decile.
    pub n: usize,
    /// Mean predicted win chance.
    pub predicted: f64,
    /// Share of them won.
    pub observed: f64,
    /// Mean predicted draw chance.
    pub predicted_draw: f64,
    /// Share of them drawn.
    pub observed_draw: f64,
}

/// The held-out samples' reliability: by decile of the predicted win chance, the mean
/// prediction against the share of games won (and the same for draws).
#[must_use]
pub fn reliability(model: &ChanceModel, samples: &[ChanceSample]) -> Vec<Decile> {
    let mut rows = vec![(0usize, 0.0, 0.0, 0.0, 0.0); 10];
    for s in samples.iter().filter(|s| s.held_out) {
        let c: Chances = model_chances(model, s.value, s.empties);
        let r = &mut rows[((c.win * 10.0) as usize).min(9)];
        r.0 += 1;
        r.1 += c.win;
        r.2 += f64::from(u8::from(s.result > 0));
        r.3 += c.draw;
        r.4 += f64::from(u8::from(s.result == 0));
    }
    rows.into_iter()
        .map(|(n, p, o, pd, od)| {
            let nf = n.max(1) as f64;
            Decile {
                n,
                predicted: p / nf,
                observed: o / nf,
                predicted_draw: pd / nf,
                observed_draw: od / nf,
            }
        })
        .collect()
}

/// The mean log likelihood per held-out position (higher is better), for the report.
#[must_use]
pub fn held_out_log_likelihood(model: &ChanceModel, samples: &[ChanceSample]) -> f64 {
    let held: Vec<&ChanceSample> = samples.iter().filter(|s| s.held_out).collect();
    held.iter()
        .map(|s| likelihood(model, s).max(1e-12).ln())
        .sum::<f64>()
        / held.len().max(1) as f64
}

/// The reliability table as text (a Markdown table, for the command's output and the docs).
#[must_use]
pub fn reliability_text(rows: &[Decile]) -> String {
    let mut s = String::from(
        "| predicted win | positions | predicted win (mean) | won | predicted draw | drawn |\n\
         |---|---|---|---|---|---|\n",
    );
    for (i, r) in rows.iter().enumerate() {
        let _ = writeln!(
            s,
            "| {}-{}% | {} | {:.1}% | {:.1}% | {:.1}% | {:.1}% |",
            i * 10,
            i * 10 + 10,
            r.n,
            100.0 * r.predicted,
            100.0 * r.observed,
            100.0 * r.predicted_draw,
            100.0 * r.observed_draw
        );
    }
    s
}

/// The Rust source of `src/book/trust/chances_table.rs` (fixed formatting).
#[must_use]
pub fn to_rust(model: &ChanceModel, source: &str) -> String {
    format!(
        "//! Win, draw and loss chances of values, generated by `othbook calibrate chances`; do \
         not\n//! edit.\n//! Data: {source}.\n\nuse super::ChanceModel;\n\n\
         pub(super) const MODEL: ChanceModel = ChanceModel {{\n    slope: {:.4},\n    \
         scale_at_24: {:.4},\n    scale_per_10: {:.4},\n    draw_band: {:.4},\n    \
         throw_base: {:.5},\n    throw_per_ply: {:.5},\n}};\n",
        model.slope + 0.0,
        model.scale_at_24 + 0.0,
        model.scale_per_10 + 0.0,
        model.draw_band + 0.0,
        model.throw_base + 0.0,
        model.throw_per_ply + 0.0
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples whose results are drawn from `truth` (a fixed pseudo-random sequence), values
    /// spread over ±30 and empties cycling through [`EMPTIES`]; every 5th held out.
    fn drawn_from(truth: &ChanceModel, n: usize) -> Vec<ChanceSample> {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut uniform = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        (0..n)
            .map(|i| {
                let empties = EMPTIES.0 + (i as u32) % (EMPTIES.1 - EMPTIES.0 + 1);
                let value = (uniform() - 0.5) * 60.0;
                let c = model_chances(truth, value, empties);
                let u = uniform();
                let result = if u < c.loss {
                    -8
                } else if u < c.loss + c.draw {
                    0
                } else {
                    8
                };
                ChanceSample {
                    empties,
                    value,
                    result,
                    held_out: i % 5 == 4,
                }
            })
            .collect()
    }

    /// Results drawn from a model with thrown games: the fit finds the share thrown, and the
    /// held-out games choose a family with throws over the logistic alone.
    #[test]
    fn the_fit_recovers_the_thrown_games_and_the_held_out_games_choose_them() {
        let truth = ChanceModel {
            slope: 1.0,
            scale_at_24: 1.0,
            scale_per_10: 0.4,
            draw_band: 1.0,
            throw_base: 0.0,
            throw_per_ply: 0.006,
        };
        let samples = drawn_from(&truth, 6000);
        let thrown = fit(&samples, Family::ThrownPerPly);
        assert!(
            (thrown.throw(56) - truth.throw(56)).abs() < 0.06,
            "{thrown:?}"
        );
        assert!((thrown.scale_at_24 - 1.0).abs() < 0.25, "{thrown:?}");
        let logistic = fit(&samples, Family::Logistic);
        assert_eq!((logistic.throw_base, logistic.throw_per_ply), (0.0, 0.0));
        let ranked = fit_families(&samples);
        assert_ne!(ranked[0].family, Family::Logistic, "{ranked:?}");
        assert!(ranked[0].held_out > ranked[2].held_out || ranked[2].family != Family::Logistic);
        // The logistic alone is too sure of big values: the thrown model's loss chance
        // there is the larger.
        let big = |m: &ChanceModel| model_chances(m, 25.0, 50).loss;
        assert!(big(&thrown) > big(&logistic), "{thrown:?} {logistic:?}");
    }

    /// The written table compiles to the model it was given (fixed formatting).
    #[test]
    fn the_table_source_names_every_field() {
        let m = ChanceModel {
            slope: 1.1,
            scale_at_24: 0.9,
            scale_per_10: 0.5,
            draw_band: 1.2,
            throw_base: 0.001,
            throw_per_ply: 0.004,
        };
        let text = to_rust(&m, "test");
        for field in [
            "slope: 1.1000",
            "draw_band: 1.2000",
            "throw_base: 0.00100",
            "throw_per_ply: 0.00400",
        ] {
            assert!(text.contains(field), "{text}");
        }
    }
}
