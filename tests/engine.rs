//! Engine invariants: PVS agrees with plain negamax, thread counts agree on exact scores, the
//! table never answers for another board, and time limits and stop flags are kept.

use othbook::board::notation::parse_moves;
use othbook::board::{Bitboard, Board, Move, Position};
use othbook::engine::tt::{Bound, Kind, TranspositionTable};
mod common;

use common::minimax::negamax_pattern;
use othbook::engine::{
    Depth, Engine, EngineError, EngineOptions, Limits, RequestError, ScoreKind, Selectivity,
    ThreadCount, SCALE,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Positions along deterministic pseudo-random games, `step` plies apart.
fn positions(seed: u64, games: usize, step: usize) -> Vec<Board> {
    let mut s = seed;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut out = Vec::new();
    for _ in 0..games {
        let mut b = Board::START;
        for ply in 0.. {
            if b.is_game_over() {
                break;
            }
            if !b.has_moves() {
                b = b.pass();
                continue;
            }
            if ply % step == step - 1 {
                out.push(b);
            }
            let m: Vec<_> = b.legal_moves().iter().collect();
            b = b
                .play(m[(next() % m.len() as u64) as usize])
                .expect("legal");
        }
    }
    out
}

fn engine(threads: usize) -> Engine {
    Engine::new(EngineOptions {
        threads: ThreadCount::new(threads).unwrap(),
        hash_mb: othbook::engine::HashSize::of(16),
    })
}

/// The production search (table, ordering, ETC, aspiration, hand-written last plies) finds
/// the value plain negamax finds, at every depth where each of those parts is in play, when
/// it is not selective (ProbCut off).
#[test]
fn pvs_agrees_with_negamax_at_fixed_depth() {
    let boards = positions(0x5EED_1234_ABCD_0001, 6, 7);
    assert!(boards.len() >= 40, "only {} positions", boards.len());
    for (i, b) in boards.iter().enumerate() {
        let depth = if b.empty_count() > 40 { 4 } else { 5 };
        let limits = Limits::depth(Depth::of(depth)).selectivity(Selectivity::EXACT);
        let pvs = engine(1).analyze(b, &limits).expect("ok");
        let mm = negamax_pattern(*b, depth);
        assert_eq!(
            mm, pvs.score,
            "position {i}: negamax vs PVS at depth {depth}"
        );
    }
}

#[test]
fn multipv_scores_agree_with_minimax_per_move() {
    for b in positions(0x0BAD_CAFE_0000_0042, 2, 11).iter().take(8) {
        let k = b.legal_moves().count() as usize;
        let pvs = engine(1)
            .analyze(b, &Limits::depth(Depth::of(3)).multipv(k))
            .expect("ok");
        assert_eq!(pvs.lines.len(), k);
        for l in &pvs.lines {
            let Move::Play(sq) = l.mv else { panic!("pass") };
            let child = b.play(sq).expect("legal");
            if child.is_game_over() || !child.has_moves() {
                continue;
            }
            let mm = negamax_pattern(child, 2);
            assert_eq!(l.score, -mm, "line {sq}");
            assert!(l.exact);
        }
        assert!(pvs.lines.windows(2).all(|w| w[0].score >= w[1].score));
    }
}

/// Regression: with 14 empties or fewer, an exact line's PV was rebuilt from the root with
/// the first move of the right score, so of two moves scoring the same the later line got
/// the earlier one's PV (FFO #1: the h7 line, +6, showed a2's). Every line's PV must start
/// with its move and reach its score.
#[test]
fn regression_exact_multipv_line_got_the_pv_of_another_move_with_its_score() {
    let b = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
        .parse::<Position>()
        .expect("FFO #1")
        .board;
    let a = engine(1)
        .analyze(&b, &Limits::exact().multipv(6))
        .expect("ok");
    let scores: Vec<i32> = a.lines.iter().map(|l| l.score / SCALE).collect();
    assert_eq!(scores, [18, 12, 6, 6, 4, -4]);
    for l in &a.lines {
        assert_eq!(l.pv.first(), Some(&l.mv), "{l:?}");
        let mut pos = b;
        let mut sign = 1;
        for mv in &l.pv {
            pos = pos.play_move(*mv).expect("legal PV");
            sign = -sign;
        }
        assert!(pos.is_game_over(), "{l:?}");
        let (p, o) = (pos.player().0.count_ones(), pos.opponent().0.count_ones());
        let diff = p as i32 - o as i32;
        let empties = 64 - (p + o) as i32;
        let final_score = diff + diff.signum() * empties;
        assert_eq!(sign * final_score, l.score / SCALE, "{l:?}");
    }
}

#[test]
fn exact_scores_do_not_depend_on_thread_count() {
    let boards: Vec<Board> = positions(0xFEED_0000_1111_2222, 8, 3)
        .into_iter()
        .filter(|b| (14..=18).contains(&b.empty_count()))
        .take(10)
        .collect();
    assert!(boards.len() >= 6);
    for b in &boards {
        let scores: Vec<i32> = [1, 2, 4]
            .iter()
            .map(|&t| engine(t).analyze(b, &Limits::exact()).expect("ok").score)
            .collect();
        assert!(scores.iter().all(|&s| s == scores[0]), "{scores:?}");
        let wld = engine(2).analyze(b, &Limits::wld()).expect("ok");
        assert_eq!(wld.kind, ScoreKind::Wld);
        assert_eq!(wld.score.signum(), scores[0].signum());
    }
}

#[test]
fn exact_solve_matches_minimax_to_the_end() {
    // Minimax with depth >= empties sees every line to the end of the game.
    // 1-9 empties: every small-empties path of the solver (last 1-3, shallow, full).
    let boards: Vec<Board> = positions(0x1357_9BDF_2468_ACE0, 10, 5)
        .into_iter()
        .filter(|b| (1..=9).contains(&b.empty_count()))
        .collect();
    assert!(boards.len() >= 15, "{}", boards.len());
    for b in boards {
        let depth = b.empty_count();
        let mm = negamax_pattern(b, depth);
        let ex = engine(1).analyze(&b, &Limits::exact()).expect("ok");
        assert_eq!(mm, ex.score);
        assert_eq!(ex.score % SCALE, 0);
    }
}

/// Boards whose hashes land in few buckets, written and read by several threads at once:
/// every probe must return the entry written for that very board.
#[test]
fn table_never_answers_for_another_board() {
    let tt = TranspositionTable::with_buckets(4);
    let threads = 4;
    std::thread::scope(|s| {
        for t in 0..threads {
            let tt = &tt;
            s.spawn(move || {
                let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ (t as u64 + 1);
                for _ in 0..300_000 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    // A small set of boards; each one's stored data is a function of it.
                    let k = x % 64;
                    let p = k.wrapping_mul(0x0101_0101_0101_0101) & 0x00FF_FF00_0000_00FF;
                    let o = (k + 1).wrapping_mul(0x1111) << 24;
                    let o = o & !p;
                    let score = (k as i32) * 7 - 200;
                    let depth = (k % 50) as u8;
                    if x & 1 == 0 {
                        let sel = othbook::engine::Selectivity::EXACT;
                        tt.store(p, o, depth, Kind::Midgame, Bound::Exact, score, None, sel);
                    } else if let Some(e) = tt.probe(p, o) {
                        assert_eq!(e.score, score, "entry of another board returned");
                        assert_eq!(e.depth, depth);
                    }
                }
            });
        }
    });
}

/// The start position takes far more than a minute to solve: a one-second limit must stop the
/// search (how close to one second it stops depends on the machine's load, so only a hang
/// is checked) short of the unlimited search's depth, 60.
#[test]
fn time_limit_of_one_second_stops_the_search() {
    let e = engine(2);
    let a = common::or_hang("a one-second search", move || {
        e.analyze(&Board::START, &Limits::time(Duration::from_secs(1)))
            .expect("ok")
    });
    assert!(!a.complete);
    assert!(a.depth < 60, "{}", a.depth);
    assert!(a.depth >= 1);
    assert!(Board::START
        .legal_moves()
        .contains(a.best_move.square().expect("a move")));
}

/// When the clock stopped a search, its result (the last finished iteration) came with a PV
/// read from the table after the unfinished iteration had rewritten it: `analyze` printed
/// "f4 -1.92 (depth 14)" with a PV other than depth 14's.
#[test]
fn regression_timed_result_showed_the_pv_of_the_unfinished_iteration() {
    let board = parse_moves("f5d6c3d3c4")
        .expect("moves")
        .into_iter()
        .try_fold(Board::START, |b, m| b.play_move(m))
        .expect("legal opening");
    let mut checked = 0;
    for threads in [1, 2] {
        let e = engine(threads);
        // 400 ms finish a few iterations; a loaded machine may not finish one, and then the
        // search is made again with twice the time.
        let mut time = Duration::from_millis(400);
        let (a, last) = loop {
            let mut last = None;
            let a = e
                .analyze_with(&board, &Limits::time(time), |it| last = Some(it.clone()))
                .expect("ok");
            match last {
                Some(last) => break (a, last),
                None if time < common::HANG => time *= 2,
                None => panic!("no iteration finished within {time:?}"),
            }
        };
        assert!(!a.complete, "{time:?} cannot finish an unbounded search");
        assert_eq!(a.pv.first(), Some(&a.best_move));
        // The last finished iteration's move and score, or a move the unfinished one proved
        // better, with that iteration's depth and its own score.
        if a.best_move == last.lines[0].mv {
            assert_eq!((a.depth, a.score), (last.depth, last.lines[0].score));
        } else {
            assert_eq!(a.depth, last.depth + 1, "{threads} thread(s)");
        }
        // A move that the unfinished iteration proved better comes with that iteration's PV.
        if a.best_move == last.lines[0].mv {
            assert_eq!(a.pv, last.lines[0].pv, "{threads} thread(s)");
            checked += 1;
        }
    }
    assert!(
        checked > 0,
        "the best move changed in every run: nothing was compared"
    );
}

#[test]
fn a_stop_flag_set_by_another_thread_ends_the_search_like_the_clock() {
    // One and two threads: the helper must stop too, or the search would not return.
    for threads in [1, 2] {
        let e = engine(threads);
        // The flag is set 300 ms after the first iteration has finished (a loaded machine
        // may take longer than that for it), long before the limit of an hour.
        let a = common::or_hang("a search stopped by the flag", move || {
            let stop = std::sync::Arc::new(AtomicBool::new(false));
            let (first_done, first) = std::sync::mpsc::channel();
            let flag = std::sync::Arc::clone(&stop);
            std::thread::spawn(move || {
                let _ = first.recv_timeout(common::HANG);
                std::thread::sleep(Duration::from_millis(300));
                flag.store(true, Ordering::Relaxed);
            });
            e.analyze_stoppable(
                &Board::START,
                &Limits::time(Duration::from_secs(3600)),
                &stop,
                |_| {
                    let _ = first_done.send(());
                },
            )
            .expect("ok")
        });
        assert!(!a.complete);
        assert!(a.depth >= 1, "stopped after the first iteration");
        assert!(Board::START
            .legal_moves()
            .contains(a.best_move.square().expect("a move")));
    }
}

#[test]
fn bad_limits_and_finished_games_are_rejected() {
    let e = engine(1);
    assert_eq!(Depth::new(0), Err(RequestError::Depth { depth: 0 }));
    assert_eq!(Depth::new(61), Err(RequestError::Depth { depth: 61 }));
    assert_eq!(
        e.analyze(&Board::START, &Limits::time(Duration::ZERO))
            .unwrap_err(),
        EngineError::Request(RequestError::Time {
            time: Duration::ZERO
        })
    );
    let full: Position = format!("{} X", "X".repeat(40) + &"O".repeat(24))
        .parse()
        .expect("position");
    assert_eq!(
        e.analyze(&full.board, &Limits::depth(Depth::of(3)))
            .unwrap_err(),
        EngineError::Request(RequestError::GameOver)
    );
}

#[test]
fn a_side_without_moves_is_analysed_as_a_pass() {
    // Black to move has no move; white has.
    let pos: Position = format!("OX{} X", "-".repeat(62)).parse().expect("position");
    assert!(pos.board.must_pass());
    let a = engine(1).analyze(&pos.board, &Limits::exact()).expect("ok");
    assert!(a.passed);
    assert_eq!(a.best_move, Move::Pass);
    assert_eq!(a.pv.first(), Some(&Move::Pass));
}

/// Regression: a long solve showed no progress, because the engine reports only finished
/// iterations. The watched count runs with the search and ends at the analysis's nodes.
#[test]
fn regression_long_solves_showed_no_progress_watched_nodes_count_the_search() {
    let e = engine(2);
    let nodes = std::sync::atomic::AtomicU64::new(12_345);
    for board in positions(11, 2, 40) {
        let a = e
            .analyze_watched(&board, &Limits::exact(), &nodes, |_| {})
            .unwrap();
        assert!(a.nodes > 0);
        assert_eq!(nodes.load(Ordering::Relaxed), a.nodes);
    }
}

/// A board set up by hand can give the side to move more than 32 moves (35 here: not a
/// position of any game, but `analyze --position` and `solve` take it); the search's move
/// lists held 32, and every search of it deeper than two plies panicked.
#[test]
fn regression_a_board_with_more_than_32_moves_panicked() {
    let text = "-------X-O-OXO-O-OXXXO---OXO-X---O----OX-XXO-XX--OOX-OOX--------";
    let bits = |c: char| {
        text.chars()
            .enumerate()
            .filter(|&(_, x)| x == c)
            .fold(0u64, |b, (i, _)| b | 1 << i)
    };
    let b = Board::new(Bitboard(bits('X')), Bitboard(bits('O'))).expect("disjoint");
    assert_eq!(b.legal_moves().count(), 35);
    let limits = Limits::depth(Depth::of(3)).selectivity(Selectivity::EXACT);
    assert_eq!(
        engine(1).analyze(&b, &limits).expect("searched").score,
        negamax_pattern(b, 3)
    );
    for threads in [1, 2] {
        let a = engine(threads)
            .analyze(&b, &Limits::depth(Depth::of(7)))
            .expect("searched");
        assert!(a.depth >= 7, "{threads} threads reached depth {}", a.depth);
    }
}
