//! `book subtree` and `book prune`: smaller books cut from a book, with the games and values
//! the book has; and merge's pruning, which shares prune's way of keeping values.

mod common;

use common::{
    after, default_without_values, evaluate_book, fake_evaluated_book, fake_leaf, need, othbook,
    stdout_of,
};
use othbook::book::key::{Canonical, Key};
use othbook::book::{Book, BookData, Graph, MinGames};
use std::collections::{HashMap, HashSet};
use std::path::Path;

const WTHOR_2021: &str = "../shared/data/wthor/WTH_2021.wtb";
const WTHOR_2020: &str = "../shared/data/wthor/WTH_2020.wtb";

fn data(path: &Path) -> BookData {
    Book::open(path).unwrap().to_data().unwrap()
}

fn build(out: &Path, min_games: &str) {
    othbook()
        .args(["build", need(WTHOR_2020), need(WTHOR_2021), "-o"])
        .arg(out)
        .args(["--plies", "40", "--min-games", min_games])
        .assert()
        .success();
}

/// Each position's value score, by key.
fn values(d: &BookData) -> HashMap<Key, Option<i16>> {
    d.positions
        .iter()
        .map(|p| (p.key, p.eval.value.map(|v| v.score)))
        .collect()
}

#[test]
fn pruning_makes_the_book_a_build_with_more_min_games_makes() {
    let dir = tempfile::tempdir().unwrap();
    let (all, five, pruned) = (
        dir.path().join("all.book"),
        dir.path().join("five.book"),
        dir.path().join("pruned.book"),
    );
    build(&all, "1");
    build(&five, "5");
    let said = stdout_of(&[
        "book",
        "prune",
        all.to_str().unwrap(),
        "--min-games",
        "5",
        "-o",
        pruned.to_str().unwrap(),
    ]);
    assert!(said.contains("played in 5 games or more"), "{said}");
    let (a, b) = (data(&five), data(&pruned));
    assert_eq!(a.positions, b.positions);
    assert_eq!(a.moves, b.moves);
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.info, b.info);
    assert_eq!(
        std::fs::read(&five).unwrap(),
        std::fs::read(&pruned).unwrap(),
        "the same bytes"
    );
}

#[test]
fn pruning_an_evaluated_book_keeps_every_value() {
    let book = fake_evaluated_book();
    let before = data(book);
    let (pruned, report) = before.pruned(60).unwrap();
    assert!(pruned.positions.len() < before.positions.len() / 4);
    assert!(report.leaves_taken > 0, "{report:?}");
    assert_eq!(report.leaves_missing, 0, "{report:?}");
    let old = values(&before);
    for p in &pruned.positions {
        assert!(p.stats.games() >= 60 || p.eval.added);
        assert_eq!(
            p.eval.value.map(|v| v.score),
            old[&p.key],
            "the value of a kept position"
        );
    }
}

#[test]
fn regression_merge_with_min_games_lost_the_values_above_the_moves_it_pruned() {
    let dir = tempfile::tempdir().unwrap();
    let (plain, evaluated) = (dir.path().join("p.book"), dir.path().join("e.book"));
    build(&plain, "1");
    evaluate_book(&plain, &evaluated, 4, fake_leaf);
    let before = data(&evaluated);
    let merged = BookData::merge(std::slice::from_ref(&before), MinGames::new(3).unwrap()).unwrap();
    assert!(merged.positions.len() < before.positions.len());
    let old = values(&before);
    let start = Canonical::of(&after("").board).key;
    assert!(merged.positions.iter().any(|p| p.key == start));
    for p in &merged.positions {
        assert!(p.eval.value.is_some(), "every kept position keeps a value");
        assert_eq!(p.eval.value.map(|v| v.score), old[&p.key]);
    }
}

#[test]
fn a_subtree_is_every_position_below_the_line_with_its_games_and_values() {
    let book = fake_evaluated_book();
    let whole = data(book);
    let root = Canonical::of(&after("f5d6c3").board).key;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sub.book");
    // Any orientation of the line names the same position.
    let said = stdout_of(&[
        "book",
        "subtree",
        book.to_str().unwrap(),
        "e6",
        "f4",
        "c3",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(said.contains("positions below the line"), "{said}");
    let cut = data(&out);
    assert_eq!(cut.info.options.plies(), 0, "no lines of games");
    assert!(cut.games.is_none());
    let by_key: HashMap<Key, usize> = whole
        .positions
        .iter()
        .enumerate()
        .map(|(i, p)| (p.key, i))
        .collect();
    let kept: HashMap<Key, usize> = cut
        .positions
        .iter()
        .enumerate()
        .map(|(i, p)| (p.key, i))
        .collect();
    assert!(kept.contains_key(&root));
    assert!(!kept.contains_key(&Canonical::of(&after("").board).key));
    // Closed under the book's moves: every child of a kept position is kept ...
    let graph = Graph::of(&whole);
    for p in &cut.positions {
        let i = by_key[&p.key];
        assert_eq!(p.stats, whole.positions[i].stats);
        assert_eq!(p.eval, whole.positions[i].eval);
        for &(_, c) in &graph.nodes[i].children {
            assert!(kept.contains_key(&whole.positions[c as usize].key));
        }
    }
    // ... and nothing else: every kept position is reached from the root.
    let cut_graph = Graph::of(&cut);
    let mut seen = vec![false; cut.positions.len()];
    let mut stack = vec![kept[&root]];
    seen[kept[&root]] = true;
    while let Some(i) = stack.pop() {
        for &(_, c) in &cut_graph.nodes[i].children {
            if !std::mem::replace(&mut seen[c as usize], true) {
                stack.push(c as usize);
            }
        }
    }
    assert!(seen.iter().all(|&s| s), "every position is below the root");
    // The cut book answers as the whole one below the line.
    let explore = |b: &Path| stdout_of(&["explore", "f5d6c3d3", "--book", b.to_str().unwrap()]);
    let rows = |t: String| -> Vec<String> {
        t.lines()
            .skip_while(|l| !l.starts_with("move "))
            .take_while(|l| !l.is_empty() && !l.starts_with("value:"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(rows(explore(&out)), rows(explore(book)));
}

#[test]
fn cutting_refuses_what_it_cannot_do() {
    let book = fake_evaluated_book();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.book");
    let b = book.to_str().unwrap();
    let o = out.to_str().unwrap();
    for (args, says) in [
        (
            vec!["book", "subtree", b, "f5d6c3d3c4f4f6f3e6e7d7g6g2", "-o", o],
            "not in the book",
        ),
        (
            vec!["book", "prune", b, "--min-games", "4", "-o", o],
            "cannot bring back",
        ),
        (vec!["book", "prune", b, "--min-games", "9", "-o", b], ""),
    ] {
        let got = othbook().args(&args).assert().code(2);
        let err = String::from_utf8_lossy(&got.get_output().stderr).to_string();
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?}: nothing written");
    }
}

/// The positions of `d` the moves within `window` (hundredths) reach from the start, walked
/// in `d`'s own graph: what a window prune of `d` must keep.
fn reached_within(d: &BookData, window: i32) -> HashSet<Key> {
    let graph = Graph::of(d);
    let index: HashMap<Key, usize> = d
        .positions
        .iter()
        .enumerate()
        .map(|(i, p)| (p.key, i))
        .collect();
    let start = index[&Canonical::of(&after("").board).key];
    let mut seen = HashSet::from([start]);
    let mut stack = vec![start];
    while let Some(i) = stack.pop() {
        let best = d.positions[i].eval.value.unwrap().score;
        for &(_, c) in &graph.nodes[i].children {
            let value = -d.positions[c as usize].eval.value.unwrap().score;
            if i32::from(value) >= i32::from(best) - window && seen.insert(c as usize) {
                stack.push(c as usize);
            }
        }
    }
    seen.into_iter().map(|i| d.positions[i].key).collect()
}

#[test]
fn pruning_to_a_value_window_keeps_the_moves_near_the_best_and_every_value() {
    let book = fake_evaluated_book();
    let before = data(book);
    let old = values(&before);
    let all = reached_within(&before, i32::MAX / 2);
    let dir = tempfile::tempdir().unwrap();
    let mut sizes = Vec::new();
    // (window in discs, in hundredths): the fake values spread over 16 discs.
    for (discs, window) in [
        ("0", 0),
        ("0.5", 50),
        ("2", 200),
        ("6", 600),
        ("128", 12_800),
    ] {
        let out = dir.path().join(format!("w{window}.book"));
        let said = stdout_of(&[
            "book",
            "prune",
            book.to_str().unwrap(),
            "--window",
            discs,
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(said.contains(&format!("within {discs} discs")), "{said}");
        let cut = data(&out);
        let kept: HashSet<Key> = cut.positions.iter().map(|p| p.key).collect();
        assert_eq!(kept, reached_within(&before, window), "window {discs}");
        for p in &cut.positions {
            assert_eq!(
                p.eval.value.map(|v| v.score),
                old[&p.key],
                "a kept value, window {discs}"
            );
        }
        // The cut book is closed the same way: within its own graph, the moves inside the
        // window reach every position it keeps.
        assert_eq!(reached_within(&cut, window), kept, "window {discs}");
        // The lines of games only follow kept positions: explore along the best line works.
        assert!(cut.nodes.len() <= before.nodes.len());
        sizes.push(kept.len());
    }
    assert!(sizes.windows(2).all(|w| w[0] <= w[1]), "{sizes:?}");
    assert!(sizes[0] < sizes[2] && sizes[2] < sizes[4], "{sizes:?}");
    assert_eq!(
        sizes[4],
        all.len(),
        "a window wider than any loss keeps all it reaches"
    );
}

#[test]
fn pruning_to_a_window_drops_the_replies_beyond_it_at_a_known_position() {
    // After f5, the fake values of d6, f6 and f4 differ; a window between the best and
    // the next keeps only the best reply, one just wide enough keeps the next too.
    let book = fake_evaluated_book();
    let before = data(book);
    let index: HashMap<Key, usize> = before
        .positions
        .iter()
        .enumerate()
        .map(|(i, p)| (p.key, i))
        .collect();
    let value_after = |line: &str| {
        let i = index[&Canonical::of(&after(line).board).key];
        before.positions[i].eval.value.unwrap().score
    };
    let mut replies: Vec<(i16, &str)> = ["f5d6", "f5f6", "f5f4"]
        .into_iter()
        .map(|l| (-value_after(l), l))
        .collect();
    replies.sort_unstable_by(|a, b| b.cmp(a));
    let (best, next, last) = (replies[0], replies[1], replies[2]);
    assert_eq!(
        -value_after("f5"),
        -best.0,
        "f5's value is its best reply's"
    );
    assert!(best.0 > next.0 && next.0 > last.0, "{replies:?}");
    let dir = tempfile::tempdir().unwrap();
    let wide = i32::from(best.0 - next.0);
    for (window, kept) in [(wide - 1, vec![best.1]), (wide, vec![best.1, next.1])] {
        let out = dir.path().join(format!("k{window}.book"));
        let cut = before.pruned_to_window(window).unwrap().0;
        othbook::book::write_book(&out, &cut).unwrap();
        let cut = data(&out);
        let keys: HashSet<Key> = cut.positions.iter().map(|p| p.key).collect();
        for (_, line) in &replies {
            let key = Canonical::of(&after(line).board).key;
            assert_eq!(
                keys.contains(&key),
                kept.contains(line),
                "{line} at window {window}"
            );
        }
    }
}

#[test]
fn pruning_to_a_window_refuses_a_book_without_values() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.book");
    let plain = default_without_values().to_str().unwrap().to_string();
    for (args, says) in [
        (vec!["--window", "2"], "no values"),
        (vec!["--window", "2", "--min-games", "50"], "no values"),
        (vec!["--window=-1"], "out of range"),
        (vec!["--window", "two"], "not a number"),
        (vec![], "--min-games"),
    ] {
        let got = othbook()
            .args(["book", "prune", &plain, "-o", out.to_str().unwrap()])
            .args(&args)
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&got.get_output().stderr).to_string();
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?}: nothing written");
    }
}
