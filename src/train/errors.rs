//! Calibration of the expected error of searched values (`othbook calibrate errors`): positions
//! of real games are searched at every depth and selectivity level and compared with the truth
//! (an exact solve at [`EXACT_MAX_EMPTIES`] empties or fewer, else a much deeper search), and
//! the RMS error per band of empties, level and depth is fitted as `exp(a + b·ln depth)`. The
//! result is written as `src/book/trust/errors_table.rs`.

use crate::board::Board;
use crate::book::trust::{ErrorBand, LEVEL_PERCENTS};
use crate::engine::{Engine, EngineError, Limits, ScoreKind, SearchEval, Selectivity, SCALE};
use crate::transcript::GameRecord;
use std::fmt::Write as _;

/// The bands of empties (inclusive) the table has one fit for.
pub const BANDS: [(u32, u32); 5] = [(14, 18), (19, 23), (24, 33), (34, 43), (44, 53)];
/// Positions with at most this many empties are compared with an exact solve.
pub const EXACT_MAX_EMPTIES: u32 = 23;
/// Depths below this are measured and shown but left out of the fit: book and analysis
/// values are deeper, and the power law fits the deeper depths better.
pub const MIN_FIT_DEPTH: u32 = 3;

/// How the truth is had and how deep the measured searches go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorSettings {
    /// Depth of the reference search of positions above [`EXACT_MAX_EMPTIES`].
    pub ref_depth: u32,
    /// Selectivity of the reference search.
    pub ref_selectivity: Selectivity,
    /// The measured depths stay this many plies short of the reference depth.
    pub gap: u32,
    /// The deepest search measured against an exact solve.
    pub end_max_depth: u32,
    /// Searches measured against a solve stay this many plies short of the end.
    pub end_margin: u32,
}

impl Default for ErrorSettings {
    fn default() -> Self {
        ErrorSettings {
            ref_depth: 18,
            ref_selectivity: Selectivity::from_level(2).unwrap_or(Selectivity::EXACT),
            gap: 8,
            end_max_depth: 14,
            end_margin: 4,
        }
    }
}

impl ErrorSettings {
    /// The deepest search measured on a position with `empties` empties.
    #[must_use]
    pub fn max_depth(&self, empties: u32) -> u32 {
        if empties <= EXACT_MAX_EMPTIES {
            self.end_max_depth
                .min(empties.saturating_sub(self.end_margin))
        } else {
            self.ref_depth.saturating_sub(self.gap)
        }
    }
}

/// One position's measurements (SCALE units, side to move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorSample {
    /// Index in [`BANDS`].
    pub band: usize,
    /// Empties of the position.
    pub empties: u32,
    /// The true value (exact solve) or the reference search's.
    pub truth: i32,
    /// Per selectivity level (as [`LEVEL_PERCENTS`]), the value at each depth (index = depth;
    /// `None` where not measured).
    pub values: Vec<Vec<Option<i32>>>,
}

/// Deterministic sample of `per_band` positions for each band of [`BANDS`], spread over the
/// games, their empties cycling through the band. Positions whose side to move must pass are
/// skipped.
#[must_use]
pub fn sample_positions(games: &[GameRecord], per_band: usize) -> Vec<(usize, Board)> {
    let mut out = Vec::new();
    for (band, &(lo, hi)) in BANDS.iter().enumerate() {
        let mut have = 0;
        for (k, gi) in super::probcut::spread(games.len()).enumerate() {
            if have >= per_band {
                break;
            }
            let empties = lo + (k as u32) % (hi - lo + 1);
            if let Some(p) = super::holdout::position_at(&games[gi], empties) {
                out.push((band, p.board));
                have += 1;
            }
        }
    }
    out
}

/// Measures one position: the truth, then an iterative deepening at each selectivity level
/// (single-threaded, a cleared table before each search).
pub fn measure<E: SearchEval>(
    engine: &mut Engine<E>,
    band: usize,
    board: &Board,
    settings: &ErrorSettings,
) -> Result<ErrorSample, EngineError> {
    let empties = board.empty_count();
    engine.clear();
    let truth = if empties <= EXACT_MAX_EMPTIES {
        engine.analyze(board, &Limits::exact())?.score
    } else {
        let limits = Limits::depth(settings.ref_depth).selectivity(settings.ref_selectivity);
        engine.analyze(board, &limits)?.score
    };
    let max = settings.max_depth(empties);
    let mut values = Vec::with_capacity(LEVEL_PERCENTS.len());
    for level in Selectivity::all() {
        let mut v = vec![None; max as usize + 1];
        if max >= 1 {
            engine.clear();
            engine.analyze_with(board, &Limits::depth(max).selectivity(level), |it| {
                if it.kind == ScoreKind::Midgame && (it.depth as usize) < v.len() {
                    v[it.depth as usize] = Some(it.lines[0].score);
                }
            })?;
        }
        values.push(v);
    }
    Ok(ErrorSample {
        band,
        empties,
        truth,
        values,
    })
}

/// The measured errors of one band, level and depth.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cell {
    /// Positions measured.
    pub n: usize,
    /// Root mean square error in discs.
    pub rms: f64,
    /// Mean absolute error in discs.
    pub mae: f64,
}

/// The fitted table and what it was fitted on.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorFits {
    /// One band per [`BANDS`] entry.
    pub bands: Vec<ErrorBand>,
    /// Positions per band.
    pub positions: Vec<usize>,
    /// Measured cells: `[band][level][depth]`.
    pub cells: Vec<Vec<Vec<Cell>>>,
    /// Per band, the share of measured errors (fitted depths, every level) within the fitted
    /// ± of their cell: how a player's reading of `±` holds.
    pub coverage: Vec<f64>,
}

/// Fits every band and level from the samples. A band without samples takes its
/// neighbour's fits (the table always has every band).
#[must_use]
pub fn fit_all(samples: &[ErrorSample]) -> ErrorFits {
    let mut cells = Vec::new();
    let mut raw: Vec<Option<ErrorBand>> = Vec::new();
    let mut positions = Vec::new();
    let mut coverage = Vec::new();
    for (band, &(lo, hi)) in BANDS.iter().enumerate() {
        let mine: Vec<&ErrorSample> = samples.iter().filter(|s| s.band == band).collect();
        positions.push(mine.len());
        let band_cells = band_cells(&mine);
        let empties = if mine.is_empty() {
            f64::from(lo + hi) / 2.0
        } else {
            mine.iter().map(|s| f64::from(s.empties)).sum::<f64>() / mine.len() as f64
        };
        let mut fits = [(0.0, 0.0); 6];
        for (level, c) in band_cells.iter().enumerate() {
            fits[level] = fit_level(c);
        }
        coverage.push(within(&mine, &fits));
        raw.push((!mine.is_empty()).then_some(ErrorBand { empties, fits }));
        cells.push(band_cells);
    }
    let bands = (0..raw.len())
        .map(|i| {
            let near = (0..raw.len())
                .filter(|j| raw[*j].is_some())
                .min_by_key(|j| j.abs_diff(i));
            near.and_then(|j| raw[j]).map_or(
                ErrorBand {
                    empties: f64::from(BANDS[i].0 + BANDS[i].1) / 2.0,
                    fits: [(0.0, -0.5); 6],
                },
                |b| ErrorBand {
                    empties: raw[i].map_or(f64::from(BANDS[i].0 + BANDS[i].1) / 2.0, |r| r.empties),
                    ..b
                },
            )
        })
        .collect();
    ErrorFits {
        bands,
        positions,
        cells,
        coverage,
    }
}

/// `[level][depth]` cells of one band's samples.
fn band_cells(samples: &[&ErrorSample]) -> Vec<Vec<Cell>> {
    let depths = samples
        .iter()
        .flat_map(|s| s.values.iter().map(Vec::len))
        .max()
        .unwrap_or(0);
    (0..LEVEL_PERCENTS.len())
        .map(|level| {
            (0..depths)
                .map(|d| {
                    let errs: Vec<f64> = samples
                        .iter()
                        .filter_map(|s| {
                            let v = (*s.values.get(level)?.get(d)?)?;
                            Some(f64::from(v - s.truth) / f64::from(SCALE))
                        })
                        .collect();
                    let n = errs.len();
                    let nf = n.max(1) as f64;
                    Cell {
                        n,
                        rms: (errs.iter().map(|e| e * e).sum::<f64>() / nf).sqrt(),
                        mae: errs.iter().map(|e| e.abs()).sum::<f64>() / nf,
                    }
                })
                .collect()
        })
        .collect()
}

/// Weighted least squares of `ln rms` on `ln depth` over the cells from [`MIN_FIT_DEPTH`]
/// with at least 5 positions, weighted by their counts. The slope is at most −0.01 (the
/// error falls with depth); with fewer than two cells the slope is −0.5 through their mean.
fn fit_level(cells: &[Cell]) -> (f64, f64) {
    let pts: Vec<(f64, f64, f64)> = cells
        .iter()
        .enumerate()
        .filter(|(d, c)| *d as u32 >= MIN_FIT_DEPTH && c.n >= 5 && c.rms > 0.0)
        .map(|(d, c)| ((d as f64).ln(), c.rms.ln(), c.n as f64))
        .collect();
    let w: f64 = pts.iter().map(|p| p.2).sum();
    if pts.is_empty() {
        return (0.0, -0.5);
    }
    let mx = pts.iter().map(|p| p.0 * p.2).sum::<f64>() / w;
    let my = pts.iter().map(|p| p.1 * p.2).sum::<f64>() / w;
    let sxx: f64 = pts.iter().map(|p| p.2 * (p.0 - mx).powi(2)).sum();
    let sxy: f64 = pts.iter().map(|p| p.2 * (p.0 - mx) * (p.1 - my)).sum();
    let b = if pts.len() >= 2 && sxx > 0.0 {
        (sxy / sxx).min(-0.01)
    } else {
        -0.5
    };
    (my - b * mx, b)
}

/// Share of the fitted depths' errors within the fitted RMS.
fn within(samples: &[&ErrorSample], fits: &[(f64, f64); 6]) -> f64 {
    let (mut inside, mut all) = (0usize, 0usize);
    for s in samples {
        for (level, values) in s.values.iter().enumerate() {
            for (d, v) in values.iter().enumerate() {
                let Some(v) = v.filter(|_| d as u32 >= MIN_FIT_DEPTH) else {
                    continue;
                };
                let (a, b) = fits[level];
                let bar = (a + b * (d as f64).ln()).exp();
                all += 1;
                inside += usize::from(f64::from((v - s.truth).abs()) / f64::from(SCALE) <= bar);
            }
        }
    }
    inside as f64 / all.max(1) as f64
}

impl ErrorFits {
    /// The measured RMS errors as a text table (one block per band: a row per level, a
    /// column per depth), for the command's output and the docs.
    #[must_use]
    pub fn report(&self) -> String {
        let mut s = String::new();
        for (b, band) in self.cells.iter().enumerate() {
            let (lo, hi) = BANDS[b];
            let truth = if hi <= EXACT_MAX_EMPTIES {
                "exact solves"
            } else {
                "the reference search"
            };
            let _ = writeln!(
                s,
                "empties {lo}-{hi}: {} positions, RMS error (discs) against {truth}; {:.0}% of \
                 errors within the fitted ±",
                self.positions[b],
                100.0 * self.coverage[b]
            );
            let depths = band.first().map_or(0, Vec::len);
            let _ = write!(s, "  depth");
            for d in 1..depths {
                let _ = write!(s, " {d:>5}");
            }
            s.push('\n');
            for (level, row) in band.iter().enumerate() {
                let _ = write!(s, "  {:>4}%", LEVEL_PERCENTS[level]);
                for c in row.iter().skip(1) {
                    if c.n == 0 {
                        let _ = write!(s, "     -");
                    } else {
                        let _ = write!(s, " {:>5.2}", c.rms);
                    }
                }
                s.push('\n');
            }
        }
        s
    }

    /// The Rust source of `src/book/trust/errors_table.rs` (fixed formatting: the same
    /// samples give the same bytes). `source` describes the data in its header comment.
    #[must_use]
    pub fn to_rust(&self, source: &str, settings: &ErrorSettings) -> String {
        let mut s = format!(
            "//! Expected errors of searched values, generated by `othbook calibrate errors`; do \
             not edit.\n//! Data: {source}.\n//! Truth: exact solves up to {EXACT_MAX_EMPTIES} \
             empties (searches to {} plies, {} short of the end), else a depth {} search at \
             {}\n//! (searches to {} plies). Per band: the mean empties, then per selectivity \
             level (73% to 100%)\n//! `(a, b)` with RMS error = exp(a + b·ln depth) discs.\n\n\
             use super::ErrorBand;\n\n#[rustfmt::skip]\npub(super) const BANDS: [ErrorBand; {}] \
             = [\n",
            settings.end_max_depth,
            settings.end_margin,
            settings.ref_depth,
            settings.ref_selectivity,
            settings.ref_depth.saturating_sub(settings.gap),
            self.bands.len()
        );
        for (i, b) in self.bands.iter().enumerate() {
            let fits: Vec<String> = b
                .fits
                .iter()
                .map(|(a, sl)| format!("({:.4}, {:.4})", a + 0.0, sl + 0.0))
                .collect();
            let _ = writeln!(
                s,
                "    // empties {}-{}, {} positions\n    ErrorBand {{ empties: {:.2}, fits: [{}] }},",
                BANDS[i].0,
                BANDS[i].1,
                self.positions[i],
                b.empties,
                fits.join(", ")
            );
        }
        s.push_str("];\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{EngineOptions, HandEval};

    #[test]
    fn the_book_model_knows_the_engine_levels() {
        let engine: Vec<u8> = Selectivity::all().map(Selectivity::percent).collect();
        assert_eq!(engine, LEVEL_PERCENTS);
    }

    fn sample(band: usize, truth: i32, at_depth: &[(usize, i32)]) -> ErrorSample {
        let mut v = vec![None; 12];
        for &(d, x) in at_depth {
            v[d] = Some(x);
        }
        ErrorSample {
            band,
            empties: 30,
            truth,
            values: vec![v; LEVEL_PERCENTS.len()],
        }
    }

    /// Errors that halve from depth 4 to depth 8 give a slope of −1 in ln-ln, the RMS per
    /// cell, and a band with no sample borrows its neighbour's fits.
    #[test]
    fn the_fit_follows_the_measured_errors() {
        let samples: Vec<ErrorSample> = (0..10)
            .map(|i| {
                let s = if i % 2 == 0 { 1 } else { -1 };
                sample(2, 100, &[(4, 100 + s * 400), (8, 100 + s * 200)])
            })
            .collect();
        let fits = fit_all(&samples);
        let cell = fits.cells[2][5][4];
        assert_eq!(cell.n, 10);
        assert!((cell.rms - 4.0).abs() < 1e-9 && (cell.mae - 4.0).abs() < 1e-9);
        let (a, b) = fits.bands[2].fits[0];
        assert!((b + 1.0).abs() < 1e-9, "slope {b}");
        assert!(((a + b * 4f64.ln()).exp() - 4.0).abs() < 1e-9);
        assert_eq!(fits.bands[0].fits, fits.bands[2].fits);
        assert_eq!(fits.positions, vec![0, 0, 10, 0, 0]);
        assert!(fits
            .to_rust("test", &ErrorSettings::default())
            .contains("ErrorBand"));
    }

    /// An error that grows with depth in the data still gives a falling fit.
    #[test]
    fn the_fitted_error_never_grows_with_depth() {
        let samples: Vec<ErrorSample> = (0..10)
            .map(|_| sample(3, 0, &[(4, 100), (8, 300)]))
            .collect();
        let (_, b) = fit_all(&samples).bands[3].fits[2];
        assert!(b <= -0.01, "{b}");
    }

    /// Measuring on a tiny endgame position compares every level with the exact solve.
    #[test]
    fn measuring_a_position_fills_every_level_up_to_its_depth() {
        let games = crate::transcript::ingest(
            &[std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("fixtures/transcripts/WTH_2001.wtb")],
            &Default::default(),
        )
        .expect("fixture games")
        .games;
        let picked = sample_positions(&games, 1);
        let (band, board) = picked
            .iter()
            .find(|(b, _)| *b == 0)
            .expect("a 14-18 position");
        let mut engine = Engine::with_evaluator(
            EngineOptions {
                hash_mb: 4,
                threads: 1,
            },
            HandEval::default(),
        );
        let settings = ErrorSettings {
            end_max_depth: 4,
            ..ErrorSettings::default()
        };
        let s = measure(&mut engine, *band, board, &settings).expect("search");
        assert_eq!(s.values.len(), LEVEL_PERCENTS.len());
        for v in &s.values {
            assert_eq!(v.len(), 5);
            assert!(v[1..].iter().all(Option::is_some), "{v:?}");
        }
        assert_eq!(s.truth % SCALE, 0, "an exact score is whole discs");
    }
}
