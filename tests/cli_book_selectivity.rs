//! `book evaluate | apply | deviate --selectivity` as a user runs them: the flag, the header
//! and what shows it, determinism at any thread count and shard split, old books, and a
//! book's leaves never searched with two settings.

mod common;
use common::{need, run_in};
use std::path::Path;

/// 320 games of 2021: a book of a few hundred positions at 12 plies.
const WTHOR_2021: &str = "../shared/data/wthor/WTH_2021.wtb";

/// `small.book` in `dir`: the 2021 games, 12 plies, every position kept.
fn small_book(dir: &Path) {
    let games = std::fs::canonicalize(need(WTHOR_2021)).unwrap();
    ok(
        dir,
        &[
            "build",
            &games.to_string_lossy(),
            "-o",
            "small.book",
            "--plies",
            "12",
            "--min-games",
            "1",
        ],
    );
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let (code, out, err) = run_in(dir, args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    out
}

/// Runs `args`, which must fail as bad input (exit code 2); returns stderr.
fn refused(dir: &Path, args: &[&str]) -> String {
    let (code, _, err) = run_in(dir, args);
    assert_eq!(code, Some(2), "{args:?}: {err}");
    err
}

/// `book evaluate small.book -o OUT` at depth 5, exact from 0, with `more` options.
fn evaluate(dir: &Path, out: &str, more: &[&str]) {
    let mut args = vec![
        "book",
        "evaluate",
        "small.book",
        "-o",
        out,
        "--depth",
        "5",
        "--exact-from",
        "0",
    ];
    args.extend(more);
    ok(dir, &args);
}

fn bytes(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap()
}

#[test]
fn selectivity_levels_parse_and_others_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    small_book(d);
    for bad in ["90", "0", "101", "fast", ""] {
        let err = refused(
            d,
            &[
                "book",
                "evaluate",
                "small.book",
                "-o",
                "x.book",
                "--selectivity",
                bad,
            ],
        );
        assert!(err.contains("selectivity"), "{bad}: {err}");
    }
    // The same level however written; `exact` and 100 are full width, the default.
    evaluate(d, "a.book", &["--selectivity", "87"]);
    evaluate(d, "b.book", &["--selectivity", "87%"]);
    assert!(bytes(d, "a.book") == bytes(d, "b.book"));
    evaluate(d, "full.book", &[]);
    evaluate(d, "exact.book", &["--selectivity", "exact"]);
    evaluate(d, "hundred.book", &["--selectivity", "100"]);
    assert!(bytes(d, "full.book") == bytes(d, "exact.book"));
    assert!(bytes(d, "full.book") == bytes(d, "hundred.book"));
    assert!(bytes(d, "full.book") != bytes(d, "a.book"));
    let help = ok(d, &["book", "evaluate", "--help"]);
    assert!(help.contains("--selectivity <LEVEL>"), "{help}");
    assert!(help.contains("[default: 100]"), "{help}");
}

#[test]
fn a_selective_evaluation_is_recorded_shown_and_the_same_at_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    small_book(d);
    evaluate(d, "one.book", &["--selectivity", "73", "--threads", "1"]);
    evaluate(d, "two.book", &["--selectivity", "73", "--threads", "2"]);
    assert!(
        bytes(d, "one.book") == bytes(d, "two.book"),
        "1 and 2 threads"
    );
    // A book built now has the index of its games: version 5 whatever its values.
    let info = ok(d, &["info", "one.book"]);
    assert!(info.contains("version 5"), "{info}");
    assert!(
        info.contains("leaf depth 5, selectivity 73%, exact from 0 empties"),
        "{info}"
    );
    let json = ok(d, &["info", "one.book", "--format", "json"]);
    assert!(json.contains("\"version\":5"), "{json}");
    assert!(
        json.contains("\"values\":{\"depth\":5,\"exact_from\":0,\"selectivity\":73,"),
        "{json}"
    );
    let explore = ok(d, &["explore", "f5", "--book", "one.book"]);
    assert!(
        explore.contains("leaves searched 5 plies deep at selectivity 73%;"),
        "{explore}"
    );
    let json = ok(
        d,
        &["explore", "f5", "--book", "one.book", "--format", "json"],
    );
    assert!(
        json.contains("\"evaluation\":{\"depth\":5,\"exact_from\":0,\"selectivity\":73}"),
        "{json}"
    );
    // Full width is said too.
    evaluate(d, "full.book", &[]);
    let info = ok(d, &["info", "full.book"]);
    assert!(info.contains("version 5"), "{info}");
    assert!(
        info.contains("leaf depth 5, full width, exact from"),
        "{info}"
    );
    // explore's line says nothing of full width, as before selectivities were recorded.
    let explore = ok(d, &["explore", "f5", "--book", "full.book"]);
    assert!(
        explore.contains("leaves searched 5 plies deep;"),
        "{explore}"
    );
}

#[test]
fn selective_shards_applied_equal_one_run_and_parts_of_other_settings_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    small_book(d);
    let sel = ["--selectivity", "87", "--threads", "1"];
    evaluate(d, "one.book", &sel);
    for i in 0..2 {
        let shard = format!("{i}/2");
        evaluate(
            d,
            &format!("part.{i}"),
            &[&["--shard", &shard], &sel[..]].concat(),
        );
    }
    ok(
        d,
        &[
            "book",
            "apply",
            "small.book",
            "part.1",
            "part.0",
            "-o",
            "two.book",
        ],
    );
    assert!(bytes(d, "one.book") == bytes(d, "two.book"));
    // A part of the same shard at another selectivity is not resumed from.
    let mut args = vec![
        "book",
        "evaluate",
        "small.book",
        "-o",
        "part.0",
        "--depth",
        "5",
        "--exact-from",
        "0",
        "--shard",
        "0/2",
    ];
    let err = refused(d, &args);
    assert!(err.contains("selectivity 87%"), "{err}");
    // Parts of two selectivities are not applied together.
    args[4] = "full.0";
    args[10] = "1/2";
    ok(d, &args);
    let err = refused(
        d,
        &[
            "book",
            "apply",
            "small.book",
            "part.0",
            "full.0",
            "-o",
            "x.book",
        ],
    );
    assert!(err.contains("were searched with other settings"), "{err}");
}

#[test]
fn regression_evaluating_a_book_with_other_settings_relabelled_its_leaves() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    small_book(d);
    evaluate(d, "full.book", &[]);
    // Deeper, or selective, on a book whose leaves are all known: nothing was searched and
    // the header claimed the new settings for the old leaves.
    for other in [&["--depth", "6"][..], &["--selectivity", "87"]] {
        let mut args = vec![
            "book",
            "evaluate",
            "full.book",
            "-o",
            "x.book",
            "--exact-from",
            "0",
        ];
        args.extend(other);
        let err = refused(d, &args);
        assert!(
            err.contains("leaves were searched with depth 5, exact from 0 empties, full width"),
            "{err}"
        );
        assert!(!d.join("x.book").exists());
    }
    // --refresh replaces every leaf: the same bytes as evaluating the book afresh.
    evaluate(d, "fresh87.book", &["--selectivity", "87"]);
    let mut refreshed = vec![
        "book",
        "evaluate",
        "full.book",
        "-o",
        "refreshed.book",
        "--depth",
        "5",
        "--exact-from",
        "0",
        "--selectivity",
        "87",
        "--refresh",
    ];
    ok(d, &refreshed);
    assert!(bytes(d, "refreshed.book") == bytes(d, "fresh87.book"));
    // --refresh limited by --plies would keep the deeper leaves: refused.
    refreshed[4] = "limited.book";
    refreshed.extend(["--plies", "6"]);
    let err = refused(d, &refreshed);
    assert!(err.contains("without --plies"), "{err}");
}

#[test]
fn deviation_searches_with_the_books_settings() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    small_book(d);
    evaluate(d, "sel.book", &["--selectivity", "87"]);
    let dev = [
        "book",
        "deviate",
        "sel.book",
        "-o",
        "dev.book",
        "--relative",
        "2",
        "--absolute",
        "4",
        "--until",
        "10",
    ];
    let out = ok(d, &dev);
    assert!(out.contains("positions added"), "{out}");
    let info = ok(d, &["info", "dev.book"]);
    assert!(info.contains("selectivity 87%"), "{info}");
    let mut other = dev.to_vec();
    other[4] = "dev2.book";
    other.extend(["--selectivity", "73"]);
    let err = refused(d, &other);
    assert!(err.contains("selectivity 87%, not depth"), "{err}");
    assert!(err.contains("--refresh"), "{err}");
}

#[test]
fn books_written_before_the_selectivity_was_recorded_read_as_full_width_and_keep_their_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (name, version, depth, exact_from) in [
        ("evaluated-v3.book", 3, 4, 10),
        ("imported-v2.book", 2, 4, 8),
    ] {
        let path = Path::new("fixtures/books").join(name);
        let book = othbook::book::Book::open(&path).unwrap();
        assert_eq!(book.version(), version, "{name}");
        let e = book.info().evaluation.expect("an evaluated book");
        assert_eq!(
            (e.depth, e.exact_from, e.selectivity),
            (depth, exact_from, 100)
        );
        let again = othbook::book::encode(&book.to_data().unwrap()).unwrap();
        assert!(
            again == std::fs::read(&path).unwrap(),
            "{name} written back as it was"
        );
        let full = std::fs::canonicalize(&path).unwrap();
        let info = ok(d, &["info", &full.to_string_lossy()]);
        let says = format!("leaf depth {depth}, full width, exact from {exact_from} empties");
        assert!(info.contains(&says), "{info}");
        // Evaluated again at 87%, every leaf replaced: version 4.
        std::fs::copy(&path, d.join(name)).unwrap();
        let args = [
            "book",
            "evaluate",
            name,
            "--depth",
            "4",
            "--exact-from",
            "10",
            "--selectivity",
            "87",
            "--refresh",
        ];
        ok(d, &args);
        let book = othbook::book::Book::open(d.join(name)).unwrap();
        assert_eq!(book.version(), 4);
        assert_eq!(book.info().evaluation.unwrap().selectivity, 87);
    }
}

/// The number of leaves a `book evaluate` run says it searched.
fn searched(out: &str) -> usize {
    let line = out
        .lines()
        .find(|l| l.contains(" leaves searched in "))
        .unwrap_or_else(|| panic!("no count of leaves searched: {out}"));
    line.split(' ').next().unwrap().parse().unwrap()
}

/// Raising --exact-from with --update solves only the leaves it newly covers (positions of 17
/// to 20 empties here), and gives the bytes of a --refresh of every leaf and of a fresh
/// evaluation with those settings; without --update or --refresh the book is refused, naming
/// both.
#[test]
fn update_after_raising_exact_from_searches_only_the_newly_solved_leaves() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let games = std::fs::canonicalize(Path::new(common::FIX).join("logistello.gam")).unwrap();
    let games = games.to_string_lossy();
    let build = ["build", &games, "-o", "g.book", "--plies", "44"];
    ok(d, &[&build[..], &["--min-games", "1"]].concat());
    let eval = |book: &str, out: &str, exact: &str, more: &[&str]| {
        let args = [
            "book",
            "evaluate",
            book,
            "-o",
            out,
            "--depth",
            "3",
            "--exact-from",
            exact,
        ];
        ok(d, &[&args[..], more].concat())
    };
    let all = searched(&eval("g.book", "a.book", "16", &[]));
    let raised = [
        "book",
        "evaluate",
        "a.book",
        "-o",
        "x.book",
        "--depth",
        "3",
        "--exact-from",
        "20",
    ];
    let err = refused(d, &raised);
    assert!(
        err.contains("--update") && err.contains("--refresh"),
        "{err}"
    );
    let updated = searched(&eval("a.book", "up.book", "20", &["--update"]));
    let refreshed = searched(&eval("a.book", "re.book", "20", &["--refresh"]));
    eval("g.book", "fresh.book", "20", &[]);
    assert_eq!(refreshed, all);
    assert!(updated > 0 && updated < all / 2, "{updated} of {all}");
    assert!(bytes(d, "up.book") == bytes(d, "re.book"));
    assert!(bytes(d, "up.book") == bytes(d, "fresh.book"));
    // Nothing changes when the settings are the book's own.
    assert_eq!(
        searched(&eval("up.book", "same.book", "20", &["--update"])),
        0
    );
    let err = refused(
        d,
        &["book", "evaluate", "g.book", "-o", "y.book", "--update"],
    );
    assert!(err.contains("records no evaluation"), "{err}");
    let err = refused(d, &[&raised[..], &["--update", "--refresh"]].concat());
    assert!(err.contains("cannot be used with"), "{err}");
}
