//! `train label --from-book`: an evaluated book's leaves as training labels, as a user runs
//! it on small books: every label is a position whose moves all leave the book, with its
//! stored leaf score (an exact solve where the book solved it), every such leaf is there,
//! each line names its search, and `train --labels` reads the file.

mod common;

use common::{need, run_in};
use othbook::book::key::Canonical;
use othbook::book::{Book, Leaf};
use othbook::engine::{Engine, EngineOptions, Limits, PatternEval, SCALE};
use othbook::train::label;
use std::path::Path;

const WTHOR_1977: &str = "../shared/data/wthor/WTH_1977.wtb";
const WTHOR_2021: &str = "../shared/data/wthor/WTH_2021.wtb";

fn ok(dir: &Path, args: &[&str]) -> String {
    let (code, out, err) = run_in(dir, args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    out
}

/// `name` in `dir`: the games of `wthor` to `plies` plies, evaluated at depth 4 with
/// Multi-ProbCut at 73%, solved from 14 empties.
fn evaluated_book(dir: &Path, wthor: &str, plies: &str, name: &str) {
    let games = std::fs::canonicalize(need(wthor)).unwrap();
    let games = games.to_string_lossy();
    let bare = format!("bare-{name}");
    ok(
        dir,
        &[
            "build",
            &games,
            "-o",
            &bare,
            "--plies",
            plies,
            "--min-games",
            "1",
        ],
    );
    ok(
        dir,
        &[
            "book",
            "evaluate",
            &bare,
            "-o",
            name,
            "--depth",
            "4",
            "--exact-from",
            "14",
            "--selectivity",
            "73",
            "--threads",
            "1",
        ],
    );
}

/// Makes `book` in `dir` ([`evaluated_book`]), runs `train label --from-book BOOK` and
/// checks the file against the book read by the library: the labels are exactly the
/// positions with a move whose every legal move leaves the book and whose leaf is searched,
/// each with its leaf score, and there are at least `at_least`. Returns the labels and the
/// file's position lines.
fn labels_of(
    dir: &Path,
    (wthor, plies, book): (&str, &str, &str),
    at_least: usize,
) -> (Vec<label::Labelled>, Vec<String>) {
    evaluated_book(dir, wthor, plies, book);
    let out = ok(
        dir,
        &["train", "label", "--from-book", book, "--out", "labels.txt"],
    );
    let labels = label::load(&dir.join("labels.txt")).expect("a labels file");
    assert!(
        out.contains(&format!("wrote {} labelled leaves", labels.len())),
        "{out}"
    );
    let data = Book::open(dir.join(book)).unwrap().to_data().unwrap();
    let index = data.key_index();
    let in_book = |b: &othbook::board::Board| index.contains_key(&Canonical::of(b).key);
    let mut want = Vec::new();
    for p in &data.positions {
        let board = othbook::book::board_of(p.key);
        let leaves_book = board
            .legal_moves()
            .iter()
            .all(|sq| !in_book(&board.play(sq).unwrap()));
        if let (true, true, Leaf::Move { score, .. }) =
            (board.has_moves(), leaves_book, p.eval.leaf)
        {
            want.push(label::Labelled {
                board,
                value: score.discs() as f32,
            });
        }
    }
    assert_eq!(
        labels, want,
        "the labels are the book's leaves, in its order"
    );
    assert!(labels.len() >= at_least, "{} labels", labels.len());
    let text = std::fs::read_to_string(dir.join("labels.txt")).unwrap();
    let lines = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(String::from)
        .collect();
    (labels, lines)
}

#[test]
fn book_labels_are_the_searched_leaves_with_their_values() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_, lines) = labels_of(d, (WTHOR_2021, "12", "mid.book"), 100);
    for l in &lines {
        assert!(l.ends_with("# depth 4, selectivity 73%"), "{l}");
    }
    // The file trains as `train label` files do.
    let out = ok(
        d,
        &[
            "train",
            "--labels",
            "labels.txt",
            "--out",
            "w.bin",
            "--holdout",
            "10",
        ],
    );
    assert!(out.contains("wrote w.bin"), "{out}");
    PatternEval::load(d.join("w.bin")).expect("weights");
    // `--out -` writes the same file to standard output, the summary to standard error.
    let (code, text, err) = run_in(
        d,
        &["train", "label", "--from-book", "mid.book", "--out", "-"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(text, std::fs::read_to_string(d.join("labels.txt")).unwrap());
    assert!(err.contains("to standard output"), "{err}");
}

#[test]
fn book_labels_near_the_end_are_the_exact_solves() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 12 games to 48 plies: the leaves have 12-14 empties, within the book's exact bound.
    let (labels, lines) = labels_of(d, (WTHOR_1977, "48", "deep.book"), 10);
    let engine =
        Engine::try_with_evaluator(EngineOptions::default(), PatternEval::default()).unwrap();
    for (l, line) in labels.iter().zip(&lines) {
        let solved = engine.analyze(&l.board, &Limits::exact()).unwrap();
        assert_eq!(l.value, (solved.score / SCALE) as f32, "{line}");
        let empties = l.board.empty_count();
        assert!(empties <= 14, "{line}");
        assert!(
            line.ends_with(&format!("# exact, {empties} empties")),
            "{line}"
        );
    }
}

#[test]
fn book_labels_need_a_book_with_values_and_no_search_options() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let games = std::fs::canonicalize(need(WTHOR_1977)).unwrap();
    let games = games.to_string_lossy();
    ok(d, &["build", &games, "-o", "bare.book", "--plies", "10"]);
    // Nothing is written without values; the search options and game files do not apply.
    for extra in [&[][..], &["--depth", "12"][..], &[games.as_ref()][..]] {
        let mut args = vec![
            "train",
            "label",
            "--from-book",
            "bare.book",
            "--out",
            "l.txt",
        ];
        args.extend(extra);
        let (code, _, err) = run_in(d, &args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        let why = if extra.is_empty() {
            "bare.book has no values"
        } else {
            "cannot be used with"
        };
        assert!(err.contains(why), "{err}");
        assert!(!d.join("l.txt").exists());
    }
}
