//! Calibration of the expected error of searched values (`othbook calibrate errors`): positions
//! of real games are searched at every depth and selectivity level and compared with the truth
//! (exact at [`ErrorSettings::exact_max`] empties or fewer, else a much deeper search), and
//! the RMS error per band of empties, level and depth is fitted as `exp(a + b·ln depth)`. The
//! result is written as `src/book/trust/errors_table.rs`.
//!
//! The exact truth costs a solve, except at 24 empties in a WTHOR game with a theoretical
//! score: that score is the perfect-play value of the game's position at 24 empties, which
//! makes deep searches (to depth 18) measurable against perfect play at no solving cost.

use super::holdout::scored_at_24;
use crate::board::Board;
use crate::book::trust::{ErrorBand, LEVEL_PERCENTS};
use crate::engine::{
    Depth, Engine, EngineError, Limits, ScoreKind, SearchEval, Selectivity, SCALE,
};
use crate::transcript::GameRecord;
use std::fmt::Write as _;

/// The default bands of empties (inclusive) the table has one fit for: exact truth up to 24
/// (24 alone: WTHOR's theoretical scores), a deeper search above.
pub const BANDS: [(u32, u32); 6] = [(14, 18), (19, 23), (24, 24), (25, 33), (34, 43), (44, 53)];
/// Depths below this are measured and shown but left out of the fit: book and analysis
/// values are deeper, and the power law fits the deeper depths better.
pub const MIN_FIT_DEPTH: u32 = 3;

/// Which positions are measured, how the truth is had and how deep the measured searches go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorSettings {
    /// The bands of empties (inclusive, ascending, disjoint), one fit each.
    pub bands: Vec<(u32, u32)>,
    /// Positions with at most this many empties are compared with the exact value.
    pub exact_max: u32,
    /// Depth of the reference search of positions above `exact_max`.
    pub ref_depth: u32,
    /// Selectivity of the reference search.
    pub ref_selectivity: Selectivity,
    /// The measured depths stay this many plies short of the reference depth.
    pub gap: u32,
    /// The deepest search measured against the exact value.
    pub end_max_depth: u32,
    /// Searches measured against the exact value stay this many plies short of the end.
    pub end_margin: u32,
}

impl Default for ErrorSettings {
    fn default() -> Self {
        ErrorSettings {
            bands: BANDS.to_vec(),
            exact_max: 24,
            ref_depth: 18,
            ref_selectivity: Selectivity::from_level(2).unwrap_or(Selectivity::EXACT),
            gap: 8,
            end_max_depth: 18,
            end_margin: 4,
        }
    }
}

impl ErrorSettings {
    /// The deepest search measured on a position with `empties` empties.
    #[must_use]
    pub fn max_depth(&self, empties: u32) -> u32 {
        if empties <= self.exact_max {
            self.end_max_depth
                .min(empties.saturating_sub(self.end_margin))
        } else {
            self.ref_depth.saturating_sub(self.gap)
        }
    }
}

/// Parses bands of empties written `14-18,19-23,24,25-33`: ascending, disjoint, each within
/// 1-60. The error says which band is wrong and why.
pub fn parse_bands(text: &str) -> Result<Vec<(u32, u32)>, String> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for part in text.split(',').map(str::trim) {
        let (lo, hi) = part.split_once('-').unwrap_or((part, part));
        let num = |t: &str| {
            t.trim()
                .parse::<u32>()
                .ok()
                .filter(|e| (1..=60).contains(e))
                .ok_or_else(|| format!("band `{part}`: `{t}` is not a number of empties (1-60)"))
        };
        let (lo, hi) = (num(lo)?, num(hi)?);
        if lo > hi {
            return Err(format!("band `{part}`: {lo} is above {hi}"));
        }
        if let Some(&(_, last)) = out.last() {
            if lo <= last {
                return Err(format!(
                    "band `{part}` starts at or below the previous band's end {last}: bands are \
                     ascending and disjoint"
                ));
            }
        }
        out.push((lo, hi));
    }
    Ok(out)
}

/// A sampled position: its band, board and exact value when known without a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorPick {
    /// Index in the settings' bands.
    pub band: usize,
    /// The position (its side to move has a move).
    pub board: Board,
    /// The perfect-play value for the side to move in discs, from WTHOR's theoretical score.
    pub known: Option<i32>,
}

/// One position's measurements (SCALE units, side to move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorSample {
    /// Index in the settings' bands.
    pub band: usize,
    /// Empties of the position.
    pub empties: u32,
    /// The true value (exact solve) or the reference search's.
    pub truth: i32,
    /// Per selectivity level (as [`LEVEL_PERCENTS`]), the value at each depth (index = depth;
    /// `None` where not measured).
    pub values: Vec<Vec<Option<i32>>>,
}

/// Deterministic sample of `per_band` positions for each band, spread over the games, their
/// empties cycling through the band. Positions whose side to move must pass are skipped. A
/// position at 24 empties of a game with a theoretical score carries it as its known value.
#[must_use]
pub fn sample_positions(
    games: &[GameRecord],
    bands: &[(u32, u32)],
    per_band: usize,
) -> Vec<ErrorPick> {
    let mut out = Vec::new();
    for (band, &(lo, hi)) in bands.iter().enumerate() {
        let mut have = 0;
        for (k, gi) in super::probcut_calibration::spread(games.len()).enumerate() {
            if have >= per_band {
                break;
            }
            let empties = lo + (k as u32) % (hi - lo + 1);
            if let Some(p) = super::holdout::position_at(&games[gi], empties) {
                let known = scored_at_24(&games[gi])
                    .filter(|s| s.position == p)
                    .map(|s| s.exact);
                out.push(ErrorPick {
                    band,
                    board: p.board,
                    known,
                });
                have += 1;
            }
        }
    }
    out
}

/// Measures one position: the truth (its known value, an exact solve or the reference
/// search), then an iterative deepening at each selectivity level (single-threaded, a cleared
/// table before each search).
pub fn measure<E: SearchEval>(
    engine: &mut Engine<E>,
    pick: &ErrorPick,
    settings: &ErrorSettings,
) -> Result<ErrorSample, EngineError> {
    let (band, board) = (pick.band, &pick.board);
    let empties = board.empty_count();
    engine.clear();
    let truth = if let (Some(known), true) = (pick.known, empties <= settings.exact_max) {
        known * SCALE
    } else if empties <= settings.exact_max {
        engine.analyze(board, &Limits::exact())?.score
    } else {
        let limits =
            Limits::depth(Depth::new(settings.ref_depth)?).selectivity(settings.ref_selectivity);
        engine.analyze(board, &limits)?.score
    };
    let max = settings.max_depth(empties);
    let mut values = Vec::with_capacity(LEVEL_PERCENTS.len());
    for level in Selectivity::all() {
        let mut v = vec![None; max as usize + 1];
        if max >= 1 {
            engine.clear();
            engine.analyze_with(
                board,
                &Limits::depth(Depth::new(max)?).selectivity(level),
                |it| {
                    if it.kind == ScoreKind::Midgame && (it.depth as usize) < v.len() {
                        v[it.depth as usize] = Some(it.lines[0].score);
                    }
                },
            )?;
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
    /// The bands of empties fitted (inclusive).
    pub ranges: Vec<(u32, u32)>,
    /// Positions with at most this many empties were compared with the exact value.
    pub exact_max: u32,
    /// One fit per band.
    pub bands: Vec<ErrorBand>,
    /// Positions per band.
    pub positions: Vec<usize>,
    /// Measured cells: `[band][level][depth]`.
    pub cells: Vec<Vec<Vec<Cell>>>,
    /// Per band, the share of measured errors (fitted depths, every level) within the fitted
    /// ± of their cell: how a player's reading of `±` holds.
    pub coverage: Vec<f64>,
}

/// Fits every band of `settings` and level from the samples. A band without samples takes
/// its neighbour's fits (the table always has every band).
#[must_use]
pub fn fit_all(samples: &[ErrorSample], settings: &ErrorSettings) -> ErrorFits {
    let ranges = &settings.bands;
    let centre = |i: usize| f64::from(ranges[i].0 + ranges[i].1) / 2.0;
    let mut cells = Vec::new();
    let mut raw: Vec<Option<ErrorBand>> = Vec::new();
    let mut positions = Vec::new();
    let mut coverage = Vec::new();
    for (band, &(lo, hi)) in ranges.iter().enumerate() {
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
                    empties: centre(i),
                    fits: [(0.0, -0.5); 6],
                },
                |b| ErrorBand {
                    empties: raw[i].map_or(centre(i), |r| r.empties),
                    ..b
                },
            )
        })
        .collect();
    ErrorFits {
        ranges: ranges.clone(),
        exact_max: settings.exact_max,
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
            let (lo, hi) = self.ranges[b];
            let truth = if hi <= self.exact_max {
                "the exact values"
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
             not edit.\n//! Data: {source}.\n//! Truth: exact values up to {} \
             empties (WTHOR's theoretical score at 24, else a solve; searches to {} plies, {} short of the end), else a depth {} search at \
             {}\n//! (searches to {} plies). Per band: the mean empties, then per selectivity \
             level (73% to 100%)\n//! `(a, b)` with RMS error = exp(a + b·ln depth) discs.\n\n\
             use super::ErrorBand;\n\n#[rustfmt::skip]\npub(super) const BANDS: [ErrorBand; {}] \
             = [\n",
            settings.exact_max,
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
                self.ranges[i].0,
                self.ranges[i].1,
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
    use crate::engine::{EngineOptions, HandEval, ThreadCount};

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
        let fits = fit_all(&samples, &ErrorSettings::default());
        let cell = fits.cells[2][5][4];
        assert_eq!(cell.n, 10);
        assert!((cell.rms - 4.0).abs() < 1e-9 && (cell.mae - 4.0).abs() < 1e-9);
        let (a, b) = fits.bands[2].fits[0];
        assert!((b + 1.0).abs() < 1e-9, "slope {b}");
        assert!(((a + b * 4f64.ln()).exp() - 4.0).abs() < 1e-9);
        assert_eq!(fits.bands[0].fits, fits.bands[2].fits);
        assert_eq!(fits.positions, vec![0, 0, 10, 0, 0, 0]);
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
        let (_, b) = fit_all(&samples, &ErrorSettings::default()).bands[3].fits[2];
        assert!(b <= -0.01, "{b}");
    }

    /// The games of a file under the crate root (a missing file fails the test).
    fn games_of(path: &str) -> Vec<GameRecord> {
        crate::transcript::ingest(
            &[std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)],
            &Default::default(),
        )
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .games
    }

    fn engine() -> Engine<HandEval> {
        Engine::with_evaluator(
            EngineOptions {
                hash_mb: crate::engine::HashSize::of(16),
                threads: ThreadCount::ONE,
            },
            HandEval::default(),
        )
    }

    #[test]
    fn bands_parse_ascending_and_disjoint_and_refuse_the_rest() {
        assert_eq!(
            parse_bands("14-18, 19-23,24,25-33"),
            Ok(vec![(14, 18), (19, 23), (24, 24), (25, 33)])
        );
        for (bad, why) in [
            ("24,20-30", "previous band"),
            ("30-25", "above"),
            ("0-3", "not a number"),
            ("61", "not a number"),
            ("12,x", "`x`"),
        ] {
            let err = parse_bands(bad).expect_err(bad);
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    /// A position at 24 empties of a real WTHOR game takes the game's theoretical score as
    /// its exact value, which the solver confirms, and the measurement uses it.
    #[test]
    fn the_theoretical_score_is_the_exact_value_at_24_empties() {
        let games = games_of("../shared/data/wthor/WTH_2021.wtb");
        let picked = sample_positions(&games, &[(24, 24), (25, 26)], 2);
        assert_eq!(picked.len(), 4);
        assert!(picked[..2].iter().all(|p| p.known.is_some()), "{picked:?}");
        assert!(picked[2..].iter().all(|p| p.known.is_none()), "{picked:?}");
        let mut engine = engine();
        let pick = &picked[0];
        let solved = engine
            .analyze(&pick.board, &Limits::exact())
            .expect("solve");
        assert_eq!(Some(solved.score / SCALE), pick.known);
        let settings = ErrorSettings {
            end_max_depth: 2,
            ..ErrorSettings::default()
        };
        let s = measure(&mut engine, pick, &settings).expect("search");
        assert_eq!(Some(s.truth / SCALE), pick.known);
    }

    /// Measuring on a tiny endgame position compares every level with the exact solve.
    #[test]
    fn measuring_a_position_fills_every_level_up_to_its_depth() {
        let games = games_of("fixtures/transcripts/WTH_2001.wtb");
        let picked = sample_positions(&games, &BANDS, 1);
        let pick = picked
            .iter()
            .find(|p| p.band == 0)
            .expect("a 14-18 position");
        let mut engine = engine();
        let settings = ErrorSettings {
            end_max_depth: 4,
            ..ErrorSettings::default()
        };
        let s = measure(&mut engine, pick, &settings).expect("search");
        assert_eq!(s.values.len(), LEVEL_PERCENTS.len());
        for v in &s.values {
            assert_eq!(v.len(), 5);
            assert!(v[1..].iter().all(Option::is_some), "{v:?}");
        }
        assert_eq!(s.truth % SCALE, 0, "an exact score is whole discs");
    }
}
