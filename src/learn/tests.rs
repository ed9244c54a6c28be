//! Evaluation tests on small books of random games: the negamax invariant, exact values
//! near the end, and determinism (threads, interruption, shards).

use super::*;
use crate::book::key::Key;
use crate::book::tests::random_game;
use crate::book::{board_of, build, encode, Book, BookData, BuildOptions, GameFilter, Graph, Leaf};
use crate::engine::{Engine, EngineOptions, Limits, SCALE};
use dashmap::DashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// A book of `n` random games, `plies` deep, every position kept.
fn book(n: u64, plies: u8) -> BookData {
    let games: Vec<_> = (0..n)
        .map(|i| random_game(i % (n / 2 + 1), 60, "r.gam"))
        .collect();
    let opts = BuildOptions {
        plies,
        min_games: 1,
        filter: GameFilter::default(),
    };
    build(&games, &opts, 1_700_000_000, &|_| {})
        .expect("build")
        .0
}

/// Evaluates `data` with `threads` workers, stopping after `stop_after` leaves if given;
/// returns the leaves found.
fn search(
    data: &mut BookData,
    settings: LeafSettings,
    threads: usize,
    shard: Shard,
    stop_after: Option<usize>,
    results: &DashMap<Key, Leaf>,
) -> bool {
    let p = plan(data, None, false, shard);
    let stop = AtomicBool::new(false);
    let done = AtomicUsize::new(0);
    let tick = || {
        if stop_after.is_some_and(|n| done.fetch_add(1, Ordering::Relaxed) + 1 >= n) {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let run = SearchRun {
        settings,
        threads,
        stop: &stop,
        tick: &tick,
        checkpoint_every: Duration::from_secs(3600),
    };
    search_leaves::<crate::engine::EngineError>(&p.jobs, &run, results, &mut |_| Ok(()))
        .expect("search")
}

fn evaluated(data: &BookData, settings: LeafSettings, threads: usize) -> BookData {
    let mut d = data.clone();
    let results = DashMap::new();
    assert!(search(
        &mut d,
        settings,
        threads,
        Shard::ALL,
        None,
        &results
    ));
    apply_leaves(&mut d, results, &settings);
    d
}

fn settings(depth: u32, exact_from: u32) -> LeafSettings {
    LeafSettings::new(depth, exact_from, 1).unwrap()
}

#[test]
fn every_value_is_the_max_of_its_leaf_and_its_negated_children() {
    let data = evaluated(&book(40, 60), settings(3, 10), 2);
    let graph = Graph::of(&data);
    let mut checked = 0;
    for (p, node) in data.positions.iter().zip(&graph.nodes) {
        let children = node
            .children
            .iter()
            .map(|&(_, c)| -i32::from(data.positions[c as usize].eval.value.unwrap().score));
        let leaf = p.eval.leaf.score().map(|s| i32::from(s.score));
        let want = children.chain(leaf).max();
        assert_eq!(
            p.eval.value.map(|v| i32::from(v.score)),
            want,
            "{:?}",
            p.key
        );
        assert!(p.eval.leaf.is_known());
        checked += 1;
    }
    assert!(checked > 1000, "{checked} positions");
    // The same through the file and the reader, in any orientation.
    let book = Book::from_bytes(encode(&data).unwrap(), "t.book").unwrap();
    for p in data.positions.iter().step_by(7) {
        let board = board_of(p.key).transform(crate::board::Symmetry::ALL[5]);
        assert_eq!(book.value(&board), p.eval.value);
        let best = book.best_moves(&board);
        if let (Some(first), Some(v)) = (best.first(), p.eval.value) {
            assert_eq!(first.score.score, v.score, "{board:?}");
        }
    }
}

#[test]
fn values_near_the_end_equal_exact_solves() {
    let data = evaluated(&book(30, 60), settings(4, 12), 2);
    let engine = Engine::new(EngineOptions::default());
    let mut compared = 0;
    for p in data.positions.iter().filter(|p| {
        let b = board_of(p.key);
        (1..=12).contains(&b.empty_count()) && !b.is_game_over()
    }) {
        let v = p.eval.value.expect("every position has a value");
        assert_eq!(v.kind, crate::book::ValueKind::Exact);
        let solved = engine.analyze(&board_of(p.key), &Limits::exact()).unwrap();
        assert_eq!(i32::from(v.score), solved.score, "{:?}", p.key);
        assert_eq!(solved.score % SCALE, 0);
        compared += 1;
    }
    assert!(compared > 100, "{compared} positions compared");
}

#[test]
fn thread_count_does_not_change_the_bytes() {
    let data = book(30, 30);
    let one = encode(&evaluated(&data, settings(4, 0), 1)).unwrap();
    let two = encode(&evaluated(&data, settings(4, 0), 2)).unwrap();
    assert!(one == two);
}

#[test]
fn stopped_then_resumed_equals_uninterrupted() {
    let data = book(30, 30);
    let s = settings(4, 0);
    let whole = encode(&evaluated(&data, s, 2)).unwrap();
    let mut d = data.clone();
    let results = DashMap::new();
    assert!(!search(&mut d, s, 2, Shard::ALL, Some(50), &results));
    assert!(
        results.len() >= 50 && results.len() < 200,
        "{}",
        results.len()
    );
    // Saved to a book (as a checkpoint is), read back, resumed from its leaves.
    let mut saved = d.clone();
    apply_leaves(&mut saved, results, &s);
    let mut back = Book::from_bytes(encode(&saved).unwrap(), "cp.book")
        .unwrap()
        .to_data()
        .unwrap();
    let results = DashMap::new();
    assert!(search(&mut back, s, 2, Shard::ALL, None, &results));
    apply_leaves(&mut back, results, &s);
    assert!(encode(&back).unwrap() == whole);
}

#[test]
fn shards_applied_in_any_order_equal_one_machine() {
    let data = book(30, 30);
    let s = settings(4, 0);
    let whole = encode(&evaluated(&data, s, 2)).unwrap();
    let digest = book_digest(&data);
    let mut parts = Vec::new();
    for i in 0..3 {
        let shard = Shard::new(i, 3).unwrap();
        let mut d = data.clone();
        let results = DashMap::new();
        assert!(search(&mut d, s, 1, shard, None, &results));
        let leaves: Vec<_> = results.into_iter().collect();
        assert!(leaves.iter().all(|(k, _)| shard.contains(*k)));
        let p = Parts {
            digest,
            depth: 4,
            exact_from: 0,
            shard,
            leaves,
        };
        parts.push(Parts::decode(&p.encode()).unwrap());
    }
    for order in [[0, 1, 2], [2, 0, 1]] {
        let mut d = data.clone();
        let leaves = order.iter().flat_map(|&i| parts[i].leaves.clone());
        apply_leaves(&mut d, leaves, &s);
        assert!(encode(&d).unwrap() == whole, "order {order:?}");
    }
}
