//! `book subtree` and `book prune`: smaller books cut from a book, with the games and values
//! the book has; and merge's pruning, which shares prune's way of keeping values.

mod common;

use common::{after, evaluate_book, fake_evaluated_book, fake_leaf, need, othbook, stdout_of};
use othbook::book::key::{Canonical, Key};
use othbook::book::{Book, BookData, Graph};
use std::collections::HashMap;
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
    let merged = BookData::merge(std::slice::from_ref(&before), 3).unwrap();
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
    assert_eq!(cut.info.options.plies, 0, "no lines of games");
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
