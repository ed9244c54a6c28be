use super::calibrate::{fit, fit_all, measure_endgame, measure_midgame, sample_positions};
use super::*;
use crate::engine::{Engine, EngineOptions, HandEval, SCALE};

#[test]
fn selectivity_parses_and_prints_every_level() {
    for s in Selectivity::all() {
        assert_eq!(s.to_string().parse::<Selectivity>(), Ok(s));
        assert_eq!(s.percent().to_string().parse::<Selectivity>(), Ok(s));
    }
    assert_eq!("exact".parse(), Ok(Selectivity::EXACT));
    assert_eq!("100".parse(), Ok(Selectivity::EXACT));
    assert!("90".parse::<Selectivity>().is_err());
    assert!("".parse::<Selectivity>().is_err());
    assert!(Selectivity::LOWEST < Selectivity::MIDGAME_DEFAULT);
    assert!(Selectivity::MIDGAME_DEFAULT < Selectivity::EXACT);
    assert_eq!(Selectivity::EXACT.next(), Selectivity::EXACT);
}

#[test]
fn shallow_depths_keep_the_parity_and_stay_shallower() {
    for d in MID_MIN_DEPTH..=40 {
        let (s, _) = mid_fit(30, d);
        assert!(s >= 1 && s < d, "depth {d} -> {s}");
        assert_eq!(s % 2, d % 2, "depth {d} -> {s}");
    }
    for e in END_MIN_EMPTIES..=60 {
        assert!(end_shallow(e) < e);
    }
}

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
    // Too few points: identity with the spread of y - x.
    let f = fit(2, &[(0, 10)]);
    assert_eq!((f.a, f.b), (1.0, 0.0));
}

/// A board with `empties` empty squares along a fixed game (first legal move each ply).
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
                hash_mb: 4,
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
