//! Typed reports end to end: every `--format json` answer parses back into its report struct,
//! the table, TSV and JSON of one query agree on the numbers, and opening names show in
//! `explore`, `top`, `analyze` and `openings` (whose counts are explore's).

mod common;

use common::{default_book_without_values, stdout_of};
use othbook::board::{format_moves, parse_moves, Move, Symmetry};
use othbook::openings::Openings;
use othbook::report::ratings::PlayersReport;
use othbook::report::{ExploreReport, InfoReport, NamesReport, OpeningsReport, TopReport};
use serde::de::DeserializeOwned;
use serde::Serialize;

const BOOK: &str = "books/wthor.book";

/// Lines explored: a common one, a deep one, one with white to move, a rare one, one deeper
/// than any named opening and one the book lacks.
const LINES: [&str; 6] = [
    "f5",
    "f5d6c3d3c4",
    "f5d6c5f4e3c6d3f6e6d7",
    "f5f6e6f4e3c5c4e7",
    "f5d6c3d3c4f4f6g5e3f3g4h3g3f2",
    "f5d6c3d3c4g6c5",
];

/// Parses `json` into `T` and checks that writing it again gives the same text.
fn parse_back<T: DeserializeOwned + Serialize>(json: &str) -> T {
    let report: T = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    assert_eq!(
        serde_json::to_string(&report).unwrap(),
        json.trim_end(),
        "a report read back writes the same JSON"
    );
    report
}

fn explore(line: &str, format: &str, book: &str) -> String {
    stdout_of(&["explore", line, "--format", format, "--book", book])
}

fn explore_report(line: &str, book: &str) -> ExploreReport {
    parse_back(&explore(line, "json", book))
}

#[test]
fn every_json_answer_parses_back_into_its_report() {
    let dir = tempfile::tempdir().unwrap();
    let no_values = default_book_without_values(dir.path());
    for book in [BOOK, no_values.to_str().unwrap()] {
        for line in LINES {
            let r = explore_report(line, book);
            assert_eq!(r.position, common::after(line));
            assert_eq!(r.value.is_some(), book == BOOK, "{line}");
        }
        let top: TopReport = parse_back(&stdout_of(&[
            "top", "--plies", "8", "--limit", "30", "--format", "json", "--book", book,
        ]));
        assert_eq!(top.lines.len(), 30);
        assert!(top.lines.iter().all(|l| l.line.len() == 8));
        let info: InfoReport = parse_back(&stdout_of(&["info", book, "--format", "json"]));
        assert_eq!(info.values.is_some(), book == BOOK);
        let openings: OpeningsReport = parse_back(&stdout_of(&[
            "openings", "--format", "json", "--book", book,
        ]));
        assert_eq!(openings.openings.len(), Openings::standard().all().len());
    }
    // With --depth: the engine's scores, exact near the end.
    let deep: ExploreReport = parse_back(&stdout_of(&[
        "explore",
        "f5d6c3d3c4f4f6f3e6e7",
        "--depth",
        "3",
        "--format",
        "json",
    ]));
    assert!(deep.eval.is_some() && deep.eval_asked);
    assert!(deep.moves.iter().all(|m| matches!(m.eval, Some(Some(_)))));
    let players: PlayersReport = parse_back(&stdout_of(&[
        "games",
        "players",
        &common::fix("games.pgn"),
        "--format",
        "json",
        "-q",
    ]));
    assert!(players.total >= players.players.len() && !players.players.is_empty());
    assert!(players.players.iter().all(|p| p.rating.is_some()));
    let names: NamesReport = parse_back(&stdout_of(&[
        "games",
        "events",
        &common::fix("games.pgn"),
        "--format",
        "json",
        "-q",
    ]));
    assert!(names.events.is_some() && names.players.is_none());
    assert!(names.total >= names.names().len() && !names.names().is_empty());
}

/// The TSV's rows: move name → its cells.
fn tsv_rows(tsv: &str) -> Vec<Vec<String>> {
    tsv.lines()
        .skip(1)
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

#[test]
fn table_tsv_and_json_agree_on_the_numbers() {
    for line in LINES {
        let r = explore_report(line, BOOK);
        let tsv = tsv_rows(&explore(line, "tsv", BOOK));
        let table = explore(line, "table", BOOK);
        let rows = if r.in_book { &tsv[1..] } else { &tsv[..] };
        assert_eq!(rows.len(), r.moves.len(), "{line}");
        if r.in_book {
            assert_eq!(tsv[0][0], "all");
            assert_eq!(tsv[0][1], r.results.games.to_string(), "{line}");
            if r.results.games > 0 {
                assert!(
                    table.contains(&format!("{} games: ", r.results.games)),
                    "{table}"
                );
            }
        }
        for (m, cells) in r.moves.iter().zip(rows) {
            assert_eq!(cells[0], m.mv.to_string(), "{line}");
            let numbers = m.results.map(|s| {
                vec![
                    s.games,
                    s.black_wins.into(),
                    s.draws.into(),
                    s.white_wins.into(),
                ]
            });
            let tsv_numbers: Option<Vec<u64>> = [1, 3, 4, 5]
                .iter()
                .map(|i| cells[*i].parse().ok())
                .collect();
            assert_eq!(tsv_numbers, numbers, "{line} {}", m.mv);
            assert_eq!(
                cells[2],
                m.share.map(|s| format!("{s:.2}")).unwrap_or_default()
            );
            let value = m.value.unwrap().value;
            assert_eq!(cells[8].parse::<f64>().ok(), value.value, "{line} {}", m.mv);
            // The table's row: the move, its games, its value.
            let row = table
                .lines()
                .find(|l| l.split_whitespace().next() == Some(&m.mv.to_string()))
                .unwrap_or_else(|| panic!("{line} {}: {table}", m.mv));
            let cols: Vec<&str> = row.split_whitespace().collect();
            let games = m
                .results
                .map_or(format!("<{}", r.book_min_games), |s| s.games.to_string());
            assert_eq!(cols[1], games, "{row}");
            assert_eq!(
                cols[7].trim_end_matches('*').parse::<f64>().ok(),
                value.value,
                "{row}"
            );
        }
    }
}

#[test]
fn top_tsv_and_json_agree_and_name_each_line() {
    let args = ["top", "--plies", "10", "--limit", "25", "--book", BOOK];
    let r: TopReport = parse_back(&stdout_of(&[&args[..], &["--format", "json"]].concat()));
    let tsv = stdout_of(&[&args[..], &["--format", "tsv"]].concat());
    assert!(tsv.starts_with("line\tgames\t"), "{tsv}");
    assert!(tsv.lines().next().unwrap().ends_with("\topening"), "{tsv}");
    let table = stdout_of(&args);
    assert_eq!(tsv_rows(&tsv).len(), r.lines.len());
    for (l, cells) in r.lines.iter().zip(tsv_rows(&tsv)) {
        assert_eq!(cells[0], format_moves(&l.line));
        assert_eq!(cells[1], l.results.games.to_string());
        let name = Openings::standard()
            .name_of_line(&l.line)
            .map(|o| o.name.as_str());
        assert_eq!(l.opening.as_ref().map(|o| o.name.as_str()), name);
        // The TSV's last column is the opening (empty for none).
        assert_eq!(cells.last().map(String::as_str), Some(name.unwrap_or("")));
        let row = table
            .lines()
            .find(|t| t.split_whitespace().nth(1) == Some(&cells[0]))
            .unwrap();
        let after_line = row.split(&cells[0]).nth(1).unwrap().trim_start();
        assert!(after_line.starts_with(name.unwrap_or("-")), "{row}");
        assert!(
            after_line.contains(&format!(" {} ", l.results.games)),
            "{row}"
        );
    }
    // The most played 10-ply lines all start with named openings.
    assert!(r.lines.iter().all(|l| l.opening.is_some()));
}

/// Every line of the table turned by each of the 4 symmetries of the start: the same
/// opening, its moves shown in the caller's orientation.
#[test]
fn explore_names_the_opening_in_any_orientation_and_move_order() {
    for o in Openings::standard().all().iter().step_by(7) {
        for s in Symmetry::START {
            let line: Vec<Move> = o.moves.iter().map(|m| s.apply_move(*m)).collect();
            let r = explore_report(&format_moves(&line), BOOK);
            let found = r.opening.unwrap_or_else(|| panic!("{} {s:?}", o.name));
            assert_eq!(found.name, o.name);
            // Its moves in the caller's orientation reach the caller's position.
            let shown = common::after(&format_moves(&found.moves));
            assert_eq!(shown, common::after(&format_moves(&line)), "{s:?}");
        }
    }
    // A transposition of the Tiger (c4 and c3 swapped) and a line going past it.
    for line in ["f5d6c4d3c3", "e6f4d3c4c3", "f5d6c4d3c3f4"] {
        let r = explore_report(line, BOOK);
        assert_eq!(r.opening.as_ref().map(|o| o.name.as_str()), Some("Tiger"));
        let table = explore(line, "table", BOOK);
        assert!(table.contains("\nopening: Tiger ("), "{table}");
    }
    // --position: the position itself, given in a reflected orientation, is named.
    let tiger = Openings::standard().matching("Tiger")[0];
    let pos = common::after(&format_moves(&tiger.moves)).transform(Symmetry::ALL[5]);
    assert_ne!(pos, common::after(&format_moves(&tiger.moves)));
    let json = stdout_of(&["explore", "--position", &pos.to_obf(), "--format", "json"]);
    let r: ExploreReport = parse_back(&json);
    assert_eq!(r.opening.unwrap().name, "Tiger");
    // Off the named lines: no opening, `null` in JSON.
    let r = explore_report("f5f4e3", BOOK);
    assert_eq!(
        r.opening.as_ref().map(|o| o.name.as_str()),
        Some("Parallel Opening")
    );
    let json = stdout_of(&[
        "explore",
        "--position",
        &common::after("f5").to_obf(),
        "--format",
        "json",
    ]);
    assert!(json.contains("\"opening\":null"), "{json}");
}

/// `openings` counts the games of each opening's position as `explore` does, in any
/// orientation.
#[test]
fn openings_counts_equal_explore_game_counts() {
    let r: OpeningsReport = parse_back(&stdout_of(&["openings", "--format", "json"]));
    let mut compared = 0;
    for (i, o) in r.openings.iter().enumerate() {
        // Every third opening, alternately turned: explore takes a few ms each.
        if i % 3 != 0 {
            continue;
        }
        let s = Symmetry::START[i % 4];
        let line: Vec<Move> = o.moves.iter().map(|m| s.apply_move(*m)).collect();
        let e = explore_report(&format_moves(&line), BOOK);
        assert_eq!(o.games, e.in_book.then_some(e.results.games), "{}", o.name);
        compared += 1;
    }
    assert!(compared >= 20);
    // The best-known openings are in the book, with their games.
    for name in ["Tiger", "Rose", "Buffalo", "Heath", "Cow"] {
        let o = r
            .openings
            .iter()
            .find(|o| o.name.starts_with(name))
            .unwrap();
        assert!(o.games.unwrap_or(0) > 100, "{name}: {:?}", o.games);
    }
    // A name search, and its TSV and table.
    let tsv = stdout_of(&["openings", "ROSE", "--format", "tsv"]);
    let rows = tsv_rows(&tsv);
    assert!(rows.len() >= 5 && rows.iter().all(|c| c[0].to_lowercase().contains("rose")));
    let rose = r.openings.iter().find(|o| o.name == "Rose").unwrap();
    let row = rows.iter().find(|c| c[0] == "Rose").unwrap();
    assert_eq!(row[1], format_moves(&rose.moves));
    assert_eq!(row[3], rose.games.unwrap().to_string());
    let table = stdout_of(&["openings", "rose"]);
    assert!(table.contains(&rose.games.unwrap().to_string()), "{table}");
    // An unknown name is an error of the input (exit 2) that names some openings.
    let out = common::othbook()
        .args(["openings", "Sicilian"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no opening name contains"));
}

#[test]
fn analyze_names_the_opening_of_the_position() {
    let line = parse_moves("f5d6c3d3c4f4f6").unwrap();
    let text = stdout_of(&["analyze", &format_moves(&line), "--depth", "2"]);
    assert!(
        text.contains("opening: Stephenson (f5d6c3d3c4f4f6)"),
        "{text}"
    );
}

/// Regression: a review written as JSON read back with 0.45599999999999996 where 0.456 had
/// been written (serde_json's default float parser is not exact); every JSON report with
/// fractional figures must read back as the same numbers.
#[test]
fn regression_json_floats_did_not_read_back_exactly() {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for i in 0..20_000u32 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let v = if i < 1000 {
            f64::from(i) / 1000.0
        } else {
            (x >> 11) as f64 / (1u64 << 53) as f64 * 128.0 - 64.0
        };
        let text = serde_json::to_string(&v).unwrap();
        let back: f64 = serde_json::from_str(&text).unwrap();
        assert_eq!(back, v, "{text}");
    }
}
