//! Calibration of the ProbCut regressions from positions of real games: each sampled position
//! is searched at every depth (midgame pairs) or searched shallow and solved exactly (endgame
//! pairs), without ProbCut, single-threaded with a cleared table, so the result depends only
//! on the games, the sample size and the engine. `othbook calibrate probcut` writes the
//! result as `src/engine/selectivity/table.rs`.

use crate::board::Board;
use crate::engine::selectivity::{
    end_shallow, mid_shallow, Fit, Selectivity, END_MAX_EMPTIES, END_MIN_EMPTIES, MID_BANDS,
    MID_MAX_DEPTH, MID_MIN_DEPTH,
};
use crate::engine::{Depth, Engine, EngineError, Limits, Mode, ScoreKind, SearchEval};
use crate::transcript::GameRecord;
use std::fmt::Write as _;

/// Root empties of the positions sampled for each midgame band (a search to
/// [`MID_MAX_DEPTH`] stays short of the end in all of them).
const MID_ROOT_EMPTIES: [(u32, u32); 4] = [(16, 23), (24, 33), (34, 43), (44, 53)];
const _: () = assert!(MID_ROOT_EMPTIES[0].0 > MID_MAX_DEPTH);
const _: () = assert!(MID_ROOT_EMPTIES.len() == MID_BANDS.len());

/// One midgame position's root values (SCALE units) at depths 1 to [`MID_MAX_DEPTH`]
/// (index 0 unused).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MidSample {
    pub band: usize,
    pub values: Vec<i32>,
}

/// One endgame position: its shallow value and its exact score (both SCALE units).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndSample {
    pub empties: u32,
    pub shallow: i32,
    pub exact: i32,
}

/// Deterministic sample of positions from `games`: `per_band` for each midgame band and
/// `per_empties` for each endgame count, spread over the whole collection. Positions whose
/// side to move must pass are skipped.
#[must_use]
pub fn sample_positions(
    games: &[GameRecord],
    per_band: usize,
    per_empties: usize,
) -> (Vec<(usize, Board)>, Vec<Board>) {
    let mut mid = Vec::new();
    let mut end = Vec::new();
    let end_counts = (END_MAX_EMPTIES - END_MIN_EMPTIES + 1) as usize;
    let mut mid_have = [0usize; MID_ROOT_EMPTIES.len()];
    let mut end_have = vec![0usize; end_counts];
    let mid_want = per_band * MID_ROOT_EMPTIES.len();
    let end_want = per_empties * end_counts;
    let order = spread(games.len());
    for (k, gi) in order.enumerate() {
        if mid.len() >= mid_want && end.len() >= end_want {
            break;
        }
        let game = &games[gi];
        let band = k % MID_ROOT_EMPTIES.len();
        let (lo, hi) = MID_ROOT_EMPTIES[band];
        let mid_empties = lo + (k / MID_ROOT_EMPTIES.len()) as u32 % (hi - lo + 1);
        let slot = k % end_counts;
        let end_empties = END_MIN_EMPTIES + slot as u32;
        let mut b = game.start.board;
        for mv in std::iter::once(None).chain(game.moves.iter().map(Some)) {
            if let Some(&mv) = mv {
                match b.play_move(mv) {
                    Ok(n) => b = n,
                    Err(_) => break,
                }
            }
            if !b.has_moves() {
                continue;
            }
            let e = b.empty_count();
            if e == mid_empties && mid_have[band] < per_band {
                mid_have[band] += 1;
                mid.push((band, b));
            }
            if e == end_empties && end_have[slot] < per_empties {
                end_have[slot] += 1;
                end.push(b);
            }
        }
    }
    (mid, end)
}

/// Indices `0..n` in an order that visits the whole range evenly (a stride coprime with
/// `n` near its golden section), so a small sample is not all from the first file.
pub(crate) fn spread(n: usize) -> impl Iterator<Item = usize> {
    let gcd = |mut a: usize, mut b: usize| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let mut stride = (n as f64 * 0.618_034) as usize;
    while n > 1 && gcd(stride.max(1), n) != 1 {
        stride += 1;
    }
    let stride = stride.max(1);
    (0..n).map(move |i| (i * stride) % n.max(1))
}

/// Searches a midgame position at every depth to [`MID_MAX_DEPTH`] without ProbCut.
pub fn measure_midgame<E: SearchEval>(
    engine: &mut Engine<E>,
    band: usize,
    board: &Board,
) -> Result<MidSample, EngineError> {
    engine.clear();
    let mut values = vec![0; MID_MAX_DEPTH as usize + 1];
    let limits = Limits::depth(Depth::new(MID_MAX_DEPTH)?).selectivity(Selectivity::EXACT);
    engine.analyze_with(board, &limits, |it| {
        if it.kind == ScoreKind::Midgame && (it.depth as usize) < values.len() {
            values[it.depth as usize] = it.lines[0].score;
        }
    })?;
    Ok(MidSample { band, values })
}

/// The shallow value and the exact score of an endgame position.
pub fn measure_endgame<E: SearchEval>(
    engine: &mut Engine<E>,
    board: &Board,
) -> Result<EndSample, EngineError> {
    let empties = board.empty_count();
    engine.clear();
    let shallow = engine
        .analyze(
            board,
            &Limits::depth(Depth::new(end_shallow(empties))?).selectivity(Selectivity::EXACT),
        )?
        .score;
    engine.clear();
    let exact = engine.analyze(
        board,
        &Limits {
            mode: Mode::Exact,
            ..Limits::default()
        },
    )?;
    Ok(EndSample {
        empties,
        shallow,
        exact: exact.score,
    })
}

/// The samples as TSV, one position a line: `mid`, band, then the values at depths 1 to
/// [`MID_MAX_DEPTH`]; `end`, empties, shallow value, exact score (SCALE units).
#[must_use]
pub fn samples_tsv(mid: &[MidSample], end: &[EndSample]) -> String {
    let mut s = String::new();
    for m in mid {
        let _ = write!(s, "mid\t{}", m.band);
        for v in &m.values[1..] {
            let _ = write!(s, "\t{v}");
        }
        s.push('\n');
    }
    for e in end {
        let _ = writeln!(s, "end\t{}\t{}\t{}", e.empties, e.shallow, e.exact);
    }
    s
}

/// Fewest samples behind a fit that may cut: below it a fit is [`Fit::never`].
pub const MIN_FIT_SAMPLES: usize = 10;

/// Least-squares fit of `y ≈ a·x + b` and the residual standard deviation (n − 2 degrees of
/// freedom). Fewer than [`MIN_FIT_SAMPLES`] points give a fit that never cuts; no spread in
/// `x` gives `a = 1, b = 0` with the deviation of `y − x`.
#[must_use]
pub fn fit(shallow: u32, points: &[(i32, i32)]) -> Fit {
    if points.len() < MIN_FIT_SAMPLES {
        return Fit::never(shallow as u8);
    }
    let n = points.len() as f64;
    let (sx, sy) = points.iter().fold((0.0, 0.0), |(sx, sy), &(x, y)| {
        (sx + f64::from(x), sy + f64::from(y))
    });
    let (mx, my) = (sx / n.max(1.0), sy / n.max(1.0));
    let sxx: f64 = points
        .iter()
        .map(|&(x, _)| (f64::from(x) - mx).powi(2))
        .sum();
    let sxy: f64 = points
        .iter()
        .map(|&(x, y)| (f64::from(x) - mx) * (f64::from(y) - my))
        .sum();
    let (a, b) = if sxx > 0.0 {
        let a = sxy / sxx;
        (a, my - a * mx)
    } else {
        (1.0, 0.0)
    };
    let ss: f64 = points
        .iter()
        .map(|&(x, y)| (f64::from(y) - a * f64::from(x) - b).powi(2))
        .sum();
    let dof = (points.len() as f64 - 2.0).max(1.0);
    Fit {
        shallow: shallow as u8,
        a,
        b,
        sigma: (ss / dof).sqrt(),
    }
}

/// The fitted tables: per band and depth (midgame), per empties (endgame), with the number
/// of samples behind each.
#[derive(Clone, Debug, PartialEq)]
pub struct Tables {
    pub midgame: Vec<Vec<(Fit, usize)>>,
    pub endgame: Vec<(Fit, usize)>,
}

/// Fits every pair from the samples.
#[must_use]
pub fn fit_all(mid: &[MidSample], end: &[EndSample]) -> Tables {
    let midgame = (0..MID_BANDS.len())
        .map(|band| {
            (0..=MID_MAX_DEPTH)
                .map(|d| {
                    let s = mid_shallow(d);
                    let pts: Vec<(i32, i32)> = mid
                        .iter()
                        .filter(|m| m.band == band && d >= MID_MIN_DEPTH)
                        .map(|m| (m.values[s as usize], m.values[d as usize]))
                        .collect();
                    (fit(s, &pts), pts.len())
                })
                .collect()
        })
        .collect();
    let endgame = (END_MIN_EMPTIES..=END_MAX_EMPTIES)
        .map(|e| {
            let pts: Vec<(i32, i32)> = end
                .iter()
                .filter(|s| s.empties == e)
                .map(|s| (s.shallow, s.exact))
                .collect();
            (fit(end_shallow(e), &pts), pts.len())
        })
        .collect();
    Tables { midgame, endgame }
}

impl Tables {
    /// How many of the fits the engine uses rest on fewer than [`MIN_FIT_SAMPLES`] samples
    /// (and so never cut), and how many it uses: midgame depths from [`MID_MIN_DEPTH`], every
    /// endgame count.
    #[must_use]
    pub fn thin_fits(&self) -> (usize, usize) {
        let used = self
            .midgame
            .iter()
            .flat_map(|band| band.iter().skip(MID_MIN_DEPTH as usize))
            .chain(self.endgame.iter());
        used.fold((0, 0), |(thin, all), (_, n)| {
            (thin + usize::from(*n < MIN_FIT_SAMPLES), all + 1)
        })
    }

    /// The Rust source of `src/engine/selectivity/table.rs` (fixed formatting: the same
    /// samples give the same bytes). `source` describes the data in its header comment.
    #[must_use]
    pub fn to_rust(&self, source: &str) -> String {
        let mut s = String::new();
        let fit =
            |s: &mut String, indent: &str, f: &Fit, n: usize| {
                let _ =
                    writeln!(
                s,
                "{indent}Fit {{ shallow: {}, a: {:.4}, b: {:.1}, sigma: {:.1} }}, // n = {n}",
                f.shallow, f.a + 0.0, f.b + 0.0, f.sigma + 0.0
            );
            };
        let _ = writeln!(
            s,
            "//! ProbCut regressions, generated by `othbook calibrate probcut`; do not edit.\n\
             //! Data: {source}.\n\
             //! Midgame: per band of empties and depth d (index), the fit of the value at d\n\
             //! on the value at the shallow depth; entries below MID_MIN_DEPTH are unused.\n\
             //! Endgame: per empties from END_MIN_EMPTIES, the exact score on a midgame value.\n\n\
             use super::Fit;\n\n\
             #[rustfmt::skip]\n\
             pub(super) const MIDGAME: [[Fit; {}]; {}] = [",
            MID_MAX_DEPTH + 1,
            MID_BANDS.len()
        );
        for band in &self.midgame {
            s.push_str("    [\n");
            for (f, n) in band {
                fit(&mut s, "        ", f, *n);
            }
            s.push_str("    ],\n");
        }
        let _ = writeln!(
            s,
            "];\n\n#[rustfmt::skip]\npub(super) const ENDGAME: [Fit; {}] = [",
            self.endgame.len()
        );
        for (f, n) in &self.endgame {
            fit(&mut s, "    ", f, *n);
        }
        s.push_str("];\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{EngineOptions, HandEval, SCALE};

    #[test]
    fn a_fit_recovers_a_line_and_its_noise() {
        let pts: Vec<(i32, i32)> = (-20..=20).map(|x| (x * 10, 2 * x * 10 + 30)).collect();
        let f = fit(3, &pts);
        assert!((f.a - 2.0).abs() < 1e-9 && (f.b - 30.0).abs() < 1e-9 && f.sigma < 1e-6);
        // Residuals of ±5 alternating: sigma about 5.
        let noisy: Vec<(i32, i32)> = (0..40)
            .map(|x| (x, x + if x % 2 == 0 { 5 } else { -5 }))
            .collect();
        let f = fit(3, &noisy);
        assert!((f.sigma - 5.0).abs() < 0.3, "{f:?}");
    }

    /// A fit from one to nine samples had a residual deviation of almost nothing (zero from
    /// none), so the engine cut with no margin wherever the table was fitted on a handful of
    /// positions (`calibrate probcut --positions 2`).
    #[test]
    fn regression_a_fit_from_too_few_samples_cut_on_noise() {
        for n in 0..MIN_FIT_SAMPLES {
            let pts: Vec<(i32, i32)> = (0..n as i32).map(|x| (x, x + 1)).collect();
            let f = fit(2, &pts);
            assert!(!f.cuts(), "{n} samples: {f:?}");
        }
        let pts: Vec<(i32, i32)> = (0..MIN_FIT_SAMPLES as i32).map(|x| (x, x + 1)).collect();
        assert!(fit(2, &pts).cuts());
    }

    /// The same games and counts give the same table, byte for byte.
    #[test]
    fn calibration_is_deterministic_on_a_small_fixture() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/transcripts");
        let paths = [
            dir.join("WTH_2001.wtb"),
            dir.join("games.pgn"),
            dir.join("lines.txt"),
        ];
        let games = crate::transcript::ingest(&paths, &Default::default())
            .expect("fixture games")
            .games;
        assert!(games.len() >= 4, "{} games", games.len());
        let run = || {
            let (mid, end) = sample_positions(&games, 1, 1);
            assert!(!mid.is_empty() && !end.is_empty());
            let mut engine = Engine::with_evaluator(
                EngineOptions {
                    hash_mb: crate::engine::HashSize::of(4),
                    ..EngineOptions::default()
                },
                HandEval::default(),
            );
            let mid: Vec<_> = mid
                .iter()
                .take(2)
                .map(|(band, b)| measure_midgame(&mut engine, *band, b).expect("search"))
                .collect();
            let end: Vec<_> = end
                .iter()
                .filter(|b| b.empty_count() <= 14)
                .map(|b| measure_endgame(&mut engine, b).expect("solve"))
                .collect();
            assert!(!end.is_empty());
            for s in &end {
                assert_eq!(s.exact % SCALE, 0, "exact scores are whole discs");
            }
            fit_all(&mid, &end).to_rust("fixture")
        };
        let first = run();
        assert!(first.contains("pub(super) const MIDGAME") && first.contains("n = 1"));
        assert_eq!(first, run());
    }
}
