use super::calibrate::{fit, fit_all, measure_endgame, measure_midgame, sample_positions};
use super::*;
use crate::board::Board;
use crate::engine::eval::HandEval;
use crate::engine::search::{Busy, Shared};
use crate::engine::tt::{Bound, Kind, TranspositionTable};
use crate::engine::{Algorithm, Engine, EngineOptions, INF};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Instant;

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
fn board_at(empties: u32) -> Board {
    let mut b = Board::START;
    while b.empty_count() > empties {
        b = match b
            .legal_moves()
            .iter()
            .nth(1)
            .or(b.legal_moves().iter().next())
        {
            Some(sq) => b.play(sq).expect("legal"),
            None => b.pass(),
        };
    }
    assert!(b.has_moves());
    b
}

fn with_worker<R>(tt: &TranspositionTable, f: impl FnOnce(&mut Worker<'_, HandEval>) -> R) -> R {
    let eval = HandEval::default();
    let busy = Busy::new();
    let shared = Shared {
        eval: &eval,
        tt,
        busy: &busy,
        parallel: false,
        stop: AtomicBool::new(false),
        cancel: None,
        solving: AtomicBool::new(false),
        deadline: None,
        nodes: &AtomicU64::new(0),
        start: Instant::now(),
    };
    let mut w = Worker::new(&shared, true, Algorithm::Pvs);
    f(&mut w)
}

/// Wrong entries stored at a selective level, for the board and all its children: a search
/// that trusted them would return something else.
fn poison(tt: &TranspositionTable, b: Board, kind: Kind, depth: u8, score: i32) {
    tt.store(
        b.player().0,
        b.opponent().0,
        depth,
        kind,
        Bound::Exact,
        score,
        None,
        Selectivity::LOWEST,
    );
    for sq in b.legal_moves().iter() {
        let c = b.play(sq).expect("legal");
        let (p, o) = (c.player().0, c.opponent().0);
        tt.store(
            p,
            o,
            depth,
            kind,
            Bound::Exact,
            -score,
            None,
            Selectivity::LOWEST,
        );
    }
}

#[test]
fn selective_entries_never_settle_an_exact_solve() {
    let b = board_at(16);
    let (p, o) = (b.player().0, b.opponent().0);
    let exact = with_worker(&TranspositionTable::new(4), |w| w.solve(p, o, -64, 64));
    let tt = TranspositionTable::new(4);
    poison(&tt, b, Kind::Endgame, 16, exact + 20);
    for sq in b.legal_moves().iter() {
        let c = b.play(sq).expect("legal");
        poison(&tt, c, Kind::Endgame, 15, -(exact + 20));
    }
    let trusted = with_worker(&tt, |w| {
        w.selectivity = Selectivity::LOWEST;
        w.solve(p, o, -64, 64)
    });
    assert_eq!(
        trusted,
        exact + 20,
        "the poisoned entry is taken at its own level"
    );
    let solved = with_worker(&tt, |w| w.solve(p, o, -64, 64));
    assert_eq!(solved, exact, "an exact solve took a selective entry");
}

#[test]
fn selective_entries_never_settle_a_surer_midgame_search() {
    let b = board_at(40);
    let (p, o) = (b.player().0, b.opponent().0);
    let depth = 6;
    let sure = with_worker(&TranspositionTable::new(4), |w| {
        w.pvs(p, o, depth, -INF, INF)
    });
    let tt = TranspositionTable::new(4);
    poison(&tt, b, Kind::Midgame, 20, sure + 2000);
    assert_eq!(
        with_worker(&tt, |w| w.pvs(p, o, depth, -INF, INF)),
        sure,
        "an exact midgame search took a selective entry"
    );
}

/// ProbCut may misjudge a node, but the levels driver always ends with an exact solve: the
/// root score is the exact one whatever the lower levels said.
#[test]
fn solve_by_levels_ends_exact() {
    for empties in [18, 20] {
        let b = board_at(empties);
        let (p, o) = (b.player().0, b.opponent().0);
        let exact = with_worker(&TranspositionTable::new(8), |w| w.solve(p, o, -64, 64));
        let tt = TranspositionTable::new(8);
        let mut moves: Vec<crate::engine::search::RootMove> = b
            .legal_moves()
            .iter()
            .map(|sq| {
                let c = b.play(sq).expect("legal");
                crate::engine::search::RootMove {
                    sq,
                    p: c.player().0,
                    o: c.opponent().0,
                    score: 0,
                    exact: false,
                }
            })
            .collect();
        let got = with_worker(&tt, |w| {
            solve_from_level(w, &mut moves, 0, Some(Selectivity::LOWEST))
        });
        assert_eq!(got, Some(exact), "{empties} empties");
        assert_eq!(moves[0].score, exact);
        let direct = with_worker(&TranspositionTable::new(8), |w| {
            solve_by_levels(w, &mut moves, 0, empties)
        });
        assert_eq!(direct, Some(exact), "{empties} empties");
    }
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
