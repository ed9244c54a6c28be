//! `othbook bench --values` on small evaluated books: a book exact wherever it can be has no
//! difference from the solves, a wrong value is caught, the figures do not depend on the
//! thread count, and the errors.

mod common;
use common::edax::ok;
use common::{need, run_in, scratch_dir};
use othbook::book::{board_of, Book, Score, ValueKind};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const WTHOR_1977: &str = "../shared/data/wthor/WTH_1977.wtb";
const WTHOR_2021: &str = "../shared/data/wthor/WTH_2021.wtb";

fn path_of(file: &str) -> String {
    std::fs::canonicalize(need(file))
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// Books made once per test process in the scratch folder: `deep.book` (the 12 games of
/// 1977 to the end, leaves 4 plies deep and solved from 14 empties, so every position with
/// at most 14 empties has an exact value) and `small.book` (the 320 games of 2021, 12 plies,
/// leaves 4 plies deep); `bare.book` is `small.book` before its evaluation.
fn books() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch_dir("bench-values");
        let old = path_of(WTHOR_1977);
        ok(
            &dir,
            &[
                "build",
                &old,
                "-o",
                "deep.book",
                "--plies",
                "60",
                "--min-games",
                "1",
            ],
        );
        ok(
            &dir,
            &[
                "book",
                "evaluate",
                "deep.book",
                "--depth",
                "4",
                "--exact-from",
                "14",
            ],
        );
        ok(
            &dir,
            &[
                "build",
                &path_of(WTHOR_2021),
                "-o",
                "bare.book",
                "--plies",
                "12",
            ],
        );
        ok(
            &dir,
            &[
                "book",
                "evaluate",
                "bare.book",
                "--depth",
                "4",
                "-o",
                "small.book",
            ],
        );
        dir
    })
}

/// `bench --values BOOK ARGS --json` in the books' folder, parsed.
fn measure(book: &str, args: &[&str]) -> Value {
    let mut all = vec!["bench", "--values", book, "--json"];
    all.extend(args);
    serde_json::from_str(&ok(books(), &all)).unwrap()
}

fn groups<'a>(report: &'a Value, part: &str) -> &'a Vec<Value> {
    report[part]["groups"].as_array().unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// The book's positions whose value can be measured (someone can move, a disc count), by
/// empty count.
fn measurable_by_empties(book: &Path) -> std::collections::BTreeMap<u32, u64> {
    let data = Book::open(book).unwrap().to_data().unwrap();
    let mut by = std::collections::BTreeMap::new();
    for p in &data.positions {
        let b = board_of(p.key);
        if p.eval.value.is_some() && (b.has_moves() || b.pass().has_moves()) {
            *by.entry(b.empty_count()).or_insert(0) += 1;
        }
    }
    by
}

#[test]
fn a_book_exact_wherever_it_can_be_differs_nowhere_from_the_solves() {
    let r = measure(
        "deep.book",
        &[
            "--exact-empties",
            "14",
            "--sample",
            "1000",
            "--deep-sample",
            "1",
        ],
    );
    let s = &r["settings"];
    assert_eq!(
        (&s["leaf_depth"], &s["exact_from"], &s["reference_depth"]),
        (&4.into(), &14.into(), &10.into())
    );
    assert_eq!(s["reference_selectivity"], "exact");
    let expected = measurable_by_empties(&books().join("deep.book"));
    let exact = groups(&r, "exact");
    let found: Vec<(u64, u64)> = exact
        .iter()
        .map(|g| {
            (
                g["empties"].as_u64().unwrap(),
                g["positions"].as_u64().unwrap(),
            )
        })
        .collect();
    let want: Vec<(u64, u64)> = expected
        .iter()
        .rev()
        .filter(|(&e, _)| e <= 14)
        .map(|(&e, &n)| (u64::from(e), n))
        .collect();
    assert_eq!(found, want, "one group per empty count, from the start");
    let mut choices = 0;
    for g in exact {
        assert_eq!(
            g["sampled"], g["positions"],
            "a sample larger than the group takes all"
        );
        assert_eq!((f(&g["mean_abs"]), f(&g["wrong_sign"])), (0.0, 0.0), "{g}");
        if g["choices"].as_u64().unwrap() > 0 {
            assert_eq!((f(&g["best_agrees"]), f(&g["loses_2"])), (1.0, 0.0), "{g}");
        }
        choices += g["choices"].as_u64().unwrap();
    }
    assert!(
        choices > 50,
        "the positions with a choice are measured: {choices}"
    );
    assert_eq!(f(&r["exact"]["all"]["mean_abs"]), 0.0);
    // The earlier positions: one per band, against depth-10 searches, which differ.
    let deeper = groups(&r, "deeper");
    assert_eq!(deeper[0]["plies"], serde_json::json!([0, 5]));
    assert_eq!(deeper.last().unwrap()["plies"], serde_json::json!([42, 45]));
    assert!(deeper.iter().all(|g| g["sampled"] == 1));
    assert!(f(&r["deeper"]["all"]["mean_abs"]) > 0.0);
}

#[test]
fn a_wrong_value_is_caught() {
    let dir = books();
    let mut data = Book::open(dir.join("deep.book"))
        .unwrap()
        .to_data()
        .unwrap();
    let p = data
        .positions
        .iter_mut()
        .find(|p| {
            let b = board_of(p.key);
            b.empty_count() == 10 && b.legal_moves().count() >= 2
        })
        .expect("a position with 10 empties");
    let v = p.eval.value.unwrap();
    assert_eq!(v.kind, ValueKind::Exact);
    // The other side of zero, 6 discs or more away: a win called a loss or the reverse.
    let wrong = if v.score > 0 { -600 } else { 600 };
    p.eval.value = Some(Score { score: wrong, ..v });
    othbook::book::write_book(&dir.join("wrong.book"), &data).unwrap();
    let r = measure(
        "wrong.book",
        &[
            "--exact-empties",
            "14",
            "--sample",
            "1000",
            "--deep-sample",
            "0",
        ],
    );
    for g in groups(&r, "exact") {
        let n = f(&g["sampled"]);
        if g["empties"] == 10 {
            let off = f64::from((wrong - v.score).abs()) / 100.0;
            assert!((f(&g["mean_abs"]) * n - off).abs() < 1e-9, "{g}");
            assert!((f(&g["wrong_sign"]) * n - 1.0).abs() < 1e-9, "{g}");
        } else {
            assert_eq!(f(&g["mean_abs"]), 0.0, "{g}");
        }
    }
    assert!(groups(&r, "deeper").iter().all(|g| g["sampled"] == 0));
    assert!(
        r["deeper"]["all"]["mean_abs"].is_null(),
        "nothing measured there"
    );
}

#[test]
fn the_figures_do_not_depend_on_the_thread_count() {
    let run = |threads: &str| {
        let mut r = measure(
            "small.book",
            &["--deep-sample", "4", "--seed", "7", "--threads", threads],
        );
        strip_times(&mut r);
        r["settings"]["threads"] = Value::Null;
        r
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    let deeper = groups(&one, "deeper");
    let bands: Vec<Value> = deeper.iter().map(|g| g["plies"].clone()).collect();
    assert_eq!(
        bands,
        [
            serde_json::json!([0, 5]),
            serde_json::json!([6, 11]),
            serde_json::json!([12, 12])
        ]
    );
    assert!(
        groups(&one, "exact").is_empty(),
        "no position has 24 empties or fewer"
    );
    let mut sampled = 0;
    let (mut lo, mut hi) = (f64::MAX, f64::MIN);
    for g in deeper {
        let n = g["sampled"].as_u64().unwrap();
        assert_eq!(n, g["positions"].as_u64().unwrap().min(4));
        assert!(g["choices"].as_u64().unwrap() <= n);
        sampled += n;
        lo = lo.min(f(&g["mean_abs"]));
        hi = hi.max(f(&g["mean_abs"]));
    }
    let all = &one["deeper"]["all"];
    assert_eq!(all["sampled"].as_u64().unwrap(), sampled);
    assert!((lo..=hi).contains(&f(&all["mean_abs"])), "{all}");
    assert_eq!(one["all"], *all, "the whole book is its earlier positions");
}

/// Removes the `seconds` fields (wall-clock times) from a report.
fn strip_times(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.remove("seconds");
            m.values_mut().for_each(strip_times);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_times),
        _ => {}
    }
}

#[test]
fn the_table_names_both_parts_and_the_whole_book() {
    let out = ok(
        books(),
        &[
            "bench",
            "--values",
            "deep.book",
            "--exact-empties",
            "8",
            "--sample",
            "2",
            "--deep-sample",
            "1",
        ],
    );
    for part in [
        "leaves 4 plies deep, solved from 14 empties",
        "against exact solves (at most 8 empties; sample of 2 per empty count):",
        "against depth-10 searches, full width (sample of 1 per band of plies):",
        "whole book",
    ] {
        assert!(out.contains(part), "{part:?} in\n{out}");
    }
}

#[test]
fn a_book_without_values_is_refused() {
    let (code, out, err) = run_in(books(), &["bench", "--values", "bare.book"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("bare.book has no values"), "{err}");
    assert!(out.is_empty(), "{out}");
}

#[test]
fn the_options_of_values_need_it() {
    for args in [
        &["bench", "--sample", "3"][..],
        &["bench", "--json"],
        &["bench", "--values", "--quality"],
        &["bench", "small.book"],
        &["bench", "--values", "small.book", "--exact-empties", "31"],
        &["bench", "--reference-depth", "8"],
        &["bench", "--values", "small.book", "--reference-depth", "61"],
        &[
            "bench",
            "--values",
            "small.book",
            "--reference-depth",
            "8",
            "--deeper",
            "2",
        ],
        &[
            "bench",
            "--values",
            "small.book",
            "--reference-selectivity",
            "50",
        ],
    ] {
        let (code, _, err) = run_in(books(), args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
    }
}

#[test]
fn an_explicit_judge_replaces_the_books_depth_and_selectivity() {
    let judged = |extra: &[&str]| {
        let mut args = vec!["--deep-sample", "2", "--seed", "3"];
        args.extend_from_slice(extra);
        let r = measure("small.book", &args);
        let s = &r["settings"];
        (
            s["reference_depth"].as_u64().unwrap(),
            s["reference_selectivity"].as_str().unwrap().to_string(),
        )
    };
    let (depth, level) = judged(&[]);
    assert_eq!(
        judged(&["--reference-depth", "7", "--reference-selectivity", "87"]),
        (7, "87%".to_string())
    );
    assert_eq!(judged(&["--reference-depth", "5"]), (5, level));
    assert_ne!(
        depth, 5,
        "the default judge is the book's leaf depth plus --deeper"
    );
}
