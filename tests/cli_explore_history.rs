//! `explore --by-year` and `/api/v1/history`: each reply's games year by year, checked by
//! hand on a small book of known games, through the book's index and through a table
//! without one, in table, TSV and JSON, and from the server.

mod common;

use common::run_in;
use common::web::TestServer;
use othbook::serve::ServeOptions;
use serde_json::Value;
use std::path::Path;

/// Eight short games with known years (one with none). After f5, by hand: d6 in 3 games
/// (1999, 2000, 2000), f6 in 4 (1999, no year, 2001 and 2001: d3 c3 is f5 f6 turned), f4 in
/// 1 (2000); 2 games in 1999, 3 in 2000, 2 in 2001.
const GAMES: &str = r#"[Date "1999.05.01"]
[Result "*"]
1. f5 d6 2. c3 *

[Date "1999.06.01"]
[Result "*"]
1. f5 f6 2. e6 *

[Date "2000.01.01"]
[Result "*"]
1. f5 d6 2. c5 *

[Date "2000.02.01"]
[Result "*"]
1. f5 d6 2. c3 *

[Date "2000.03.01"]
[Result "*"]
1. f5 f4 2. e3 *

[Result "*"]
1. f5 f6 2. e6 *

[Date "2001.01.01"]
[Result "*"]
1. d3 c3 *

[Date "2001.02.01"]
[Result "*"]
1. f5 f6 2. e6 *
"#;

/// A book of [`GAMES`] in `dir` (with the index of its games).
fn small_book(dir: &Path) -> String {
    std::fs::write(dir.join("games.pgn"), GAMES).unwrap();
    let (code, _, err) = run_in(
        dir,
        &[
            "build",
            "games.pgn",
            "-o",
            "small.book",
            "--plies",
            "10",
            "--min-games",
            "1",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    dir.join("small.book").to_str().unwrap().to_string()
}

fn json(dir: &Path, args: &[&str]) -> Value {
    let (code, out, err) = run_in(dir, args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

#[test]
fn by_year_counts_each_reply_in_its_year() {
    let dir = tempfile::tempdir().unwrap();
    let book = small_book(dir.path());
    let r = json(
        dir.path(),
        &[
            "explore",
            "f5",
            "--book",
            &book,
            "--by-year",
            "--format",
            "json",
        ],
    );
    let h = &r["history"];
    assert_eq!(h["years"], serde_json::json!([1999, 2000, 2001]));
    assert_eq!(h["games"], serde_json::json!([2, 3, 2]));
    assert_eq!(h["total"], 8);
    assert_eq!(h["unknown_year"], 1);
    let rows: Vec<(String, u64, Value, u64)> = h["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["games"].as_u64().unwrap(),
                m["by_year"].clone(),
                m["unknown_year"].as_u64().unwrap(),
            )
        })
        .collect();
    let want = [
        ("f6", 4, serde_json::json!([1, 0, 2]), 1),
        ("d6", 3, serde_json::json!([1, 2, 0]), 0),
        ("f4", 1, serde_json::json!([0, 1, 0]), 0),
    ];
    assert_eq!(rows.len(), want.len(), "{rows:?}");
    for (got, (mv, games, by_year, unknown)) in rows.iter().zip(want) {
        assert_eq!(
            (got.0.as_str(), got.1, &got.2, got.3),
            (mv, games, &by_year, unknown)
        );
    }
    // The same moves as the move table, each with the same games.
    for m in r["moves"].as_array().unwrap() {
        let row = rows.iter().find(|x| x.0 == m["move"].as_str().unwrap());
        assert_eq!(row.map(|x| x.1), m["games"].as_u64(), "{m}");
    }
    // Without --by-year the JSON has no history.
    let plain = json(
        dir.path(),
        &["explore", "f5", "--book", &book, "--format", "json"],
    );
    assert!(plain.get("history").is_none());
}

#[test]
fn by_year_respects_the_filters_and_prints_tables() {
    let dir = tempfile::tempdir().unwrap();
    let book = small_book(dir.path());
    let r = json(
        dir.path(),
        &[
            "explore",
            "f5",
            "--book",
            &book,
            "--by-year",
            "--years",
            "2000-2001",
            "--format",
            "json",
        ],
    );
    let h = &r["history"];
    assert_eq!(h["years"], serde_json::json!([2000, 2001]));
    assert_eq!(h["games"], serde_json::json!([3, 2]));
    assert_eq!(h["unknown_year"], 0);
    // TSV: the move table, a blank line, then year rows with every reply a column.
    let (code, out, err) = run_in(
        dir.path(),
        &[
            "explore",
            "f5",
            "--book",
            &book,
            "--by-year",
            "--format",
            "tsv",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let second = out.split("\n\n").nth(1).expect("a second table");
    let lines: Vec<&str> = second.lines().collect();
    assert_eq!(
        lines,
        [
            "year\tgames\tf6\td6\tf4",
            "1999\t2\t1\t1\t0",
            "2000\t3\t0\t2\t1",
            "2001\t2\t2\t0\t0",
            "unknown\t1\t1\t0\t0",
        ]
    );
    // The table for people.
    let (code, out, err) = run_in(dir.path(), &["explore", "f5", "--book", &book, "--by-year"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("By year:"), "{out}");
    let row = out.lines().find(|l| l.starts_with("2000")).unwrap();
    assert_eq!(
        row.split_whitespace().collect::<Vec<_>>(),
        ["2000", "3", "0", "2", "1"]
    );
}

#[test]
fn by_year_reads_a_table_without_an_index_the_same() {
    // A format-3 book (a game table, no index) and a book built now from the same games
    // (with an index) give the same history.
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (code, _, err) = run_in(
        dir.path(),
        &[
            "build",
            root.join("fixtures/transcripts/games.pgn")
                .to_str()
                .unwrap(),
            root.join("fixtures/transcripts/logistello.gam")
                .to_str()
                .unwrap(),
            "-o",
            "new.book",
            "--plies",
            "20",
            "--min-games",
            "1",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let old = root.join("fixtures/books/evaluated-v3.book");
    for line in ["c4", "c4c5"] {
        let args = |book: &str| {
            json(
                dir.path(),
                &[
                    "explore",
                    line,
                    "--book",
                    book,
                    "--by-year",
                    "--format",
                    "json",
                ],
            )["history"]
                .clone()
        };
        let (a, b) = (args(old.to_str().unwrap()), args("new.book"));
        assert_eq!(a, b, "{line}");
        assert!(a["total"].as_u64().unwrap() > 0, "{line}: {a}");
    }
}

#[test]
fn by_year_on_a_book_without_games_is_bad_input() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let book = root.join("fixtures/books/imported-v2.book");
    let (code, out, err) = run_in(
        root,
        &[
            "explore",
            "f5",
            "--book",
            book.to_str().unwrap(),
            "--by-year",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--by-year") && err.contains("no table of its games"),
        "{err}"
    );
    assert!(out.is_empty(), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let small = small_book(dir.path());
    let (code, _, err) = run_in(
        dir.path(),
        &[
            "explore",
            "f5",
            "--book",
            &small,
            "--by-year",
            "--player",
            "nobody-like-this",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
}

#[test]
fn the_api_history_matches_the_move_table() {
    let server = TestServer::start(ServeOptions::new(12, 1, 1000).unwrap());
    let h = server.json("/api/v1/history?moves=f5d6");
    let e = server.json("/api/v1/explore?moves=f5d6");
    assert_eq!(h["line"], "f5d6");
    let years = h["years"].as_array().unwrap();
    assert!(years.len() > 20, "WTHOR spans decades: {years:?}");
    let games = h["games"].as_array().unwrap();
    assert_eq!(games.len(), years.len());
    let known: u64 = games.iter().map(|g| g.as_u64().unwrap()).sum();
    assert_eq!(
        known + h["unknown_year"].as_u64().unwrap(),
        h["total"].as_u64().unwrap()
    );
    assert_eq!(h["total"], e["games"]);
    for m in h["moves"].as_array().unwrap() {
        let by_year: u64 = m["by_year"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g.as_u64().unwrap())
            .sum();
        assert_eq!(
            by_year + m["unknown_year"].as_u64().unwrap(),
            m["games"].as_u64().unwrap()
        );
    }
    // Every move the book lists has its games in the history.
    for m in e["moves"].as_array().unwrap() {
        let Some(n) = m["games"].as_u64() else {
            continue;
        };
        let row = h["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["move"] == m["move"])
            .unwrap_or_else(|| panic!("{m} has no history"));
        assert_eq!(row["games"].as_u64(), Some(n), "{m}");
    }
    // A year filter keeps those years only; an unknown player and a depth are refused.
    let f = server.json("/api/v1/history?moves=f5d6&years=2000-2002");
    assert_eq!(f["years"], serde_json::json!([2000, 2001, 2002]));
    let err = server.error("/api/v1/history?moves=f5d6&player=zzzzqqqq", 400);
    assert!(err["error"].as_str().unwrap().contains("player"), "{err}");
    server.error("/api/v1/history?moves=f5d6&depth=4", 400);
    server.error("/api/v1/history?moves=f5a1", 400);
}
