//! Calibration of the win, draw and loss chances of values (`othbook calibrate chances`):
//! positions of real games before 24 empties are searched, and an ordered logistic model of
//! the game's result at 24 empties (WTHOR's theoretical score: perfect play from there) given
//! the value and the empties is fitted by maximum likelihood on all games but every k-th,
//! which are kept to check it. The result is written as `src/book/trust/chances_table.rs`.

use super::holdout::{is_held_out, position_at, theoretical_diff};
use crate::board::{Board, Color};
use crate::book::trust::{model_chances, ChanceModel, Chances};
use crate::engine::{Engine, EngineError, Limits, SearchEval, Selectivity, SCALE};
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
    for (k, gi) in super::probcut::spread(games.len()).enumerate() {
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
    let a = engine.analyze(&p.board, &Limits::depth(depth).selectivity(selectivity))?;
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

/// The model from its free parameters: slope and draw band as logarithms (both positive).
fn model_of(x: &[f64; 4]) -> ChanceModel {
    ChanceModel {
        slope: x[0].exp(),
        scale_at_24: x[1],
        scale_per_10: x[2],
        draw_band: x[3].exp(),
    }
}

/// Maximum-likelihood fit on the samples not held out (Nelder-Mead on the negative log
/// likelihood; deterministic).
#[must_use]
pub fn fit(samples: &[ChanceSample]) -> ChanceModel {
    let train: Vec<&ChanceSample> = samples.iter().filter(|s| !s.held_out).collect();
    let cost = |x: &[f64; 4]| -> f64 {
        let m = model_of(x);
        -train
            .iter()
            .map(|s| likelihood(&m, s).max(1e-12).ln())
            .sum::<f64>()
    };
    model_of(&nelder_mead(cost, [0.0, 1.5, 0.2, -1.0], 2000))
}

/// Minimises `f` from `x0` by the Nelder-Mead simplex method (`iterations` steps at most).
fn nelder_mead(f: impl Fn(&[f64; 4]) -> f64, x0: [f64; 4], iterations: usize) -> [f64; 4] {
    let mut simplex: Vec<([f64; 4], f64)> = (0..=4)
        .map(|i| {
            let mut x = x0;
            if i > 0 {
                x[i - 1] += 0.5;
            }
            (x, f(&x))
        })
        .collect();
    let towards = |a: &[f64; 4], b: &[f64; 4], t: f64| {
        let mut r = *a;
        for k in 0..4 {
            r[k] = a[k] + t * (b[k] - a[k]);
        }
        r
    };
    for _ in 0..iterations {
        simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
        if (simplex[4].1 - simplex[0].1).abs() < 1e-9 {
            break;
        }
        let mut centre = [0.0; 4];
        for (x, _) in &simplex[..4] {
            for k in 0..4 {
                centre[k] += x[k] / 4.0;
            }
        }
        let worst = simplex[4].0;
        let reflected = towards(&centre, &worst, -1.0);
        let fr = f(&reflected);
        if fr < simplex[0].1 {
            let expanded = towards(&centre, &worst, -2.0);
            let fe = f(&expanded);
            simplex[4] = if fe < fr {
                (expanded, fe)
            } else {
                (reflected, fr)
            };
        } else if fr < simplex[3].1 {
            simplex[4] = (reflected, fr);
        } else {
            let contracted = towards(&centre, &worst, 0.5);
            let fc = f(&contracted);
            if fc < simplex[4].1 {
                simplex[4] = (contracted, fc);
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
         scale_at_24: {:.4},\n    scale_per_10: {:.4},\n    draw_band: {:.4},\n}};\n",
        model.slope + 0.0,
        model.scale_at_24 + 0.0,
        model.scale_per_10 + 0.0,
        model.draw_band + 0.0
    )
}
