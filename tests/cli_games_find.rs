//! The games behind a position and the query-time filters, end to end: `games find` against
//! `explore`'s counts on the default WTHOR book, filters against books built with them,
//! exports, books without a game table, damage.

mod common;
use common::{need, othbook, run_in, stdout_of};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of(args)).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

/// Lines that reach the same position in other move orders; each is also asked in the 4
/// orientations of the start.
const SAME_POSITIONS: [&[&str]; 4] = [
    &["f5d6c3"],
    // The Tiger: c3 and c4 swapped.
    &["f5d6c3d3c4", "f5d6c4d3c3"],
    &[
        "f5d6c3d3c4f4f6f3e6e7",
        "f5d6c3f4f6d3c4f3e6e7",
        "f5d6c3d3c4f3e6e7f6f4",
    ],
    &["f5d6c5f4e3c6d3f6e6d7"],
];

/// `line` turned by every symmetry of the start position.
fn orientations(line: &str) -> Vec<String> {
    let moves = othbook::board::parse_moves(line).unwrap();
    othbook::board::Symmetry::START
        .into_iter()
        .map(|s| {
            let turned: Vec<_> = moves.iter().map(|m| s.apply_move(*m)).collect();
            othbook::board::format_moves(&turned)
        })
        .collect()
}

#[test]
fn games_find_counts_what_explore_counts_in_any_orientation_and_move_order() {
    for group in SAME_POSITIONS {
        let expected = json(&["explore", group[0], "--format", "json"])["games"]
            .as_u64()
            .unwrap();
        assert!(expected > 0, "{group:?}");
        for line in group.iter().flat_map(|l| orientations(l)) {
            let line = line.as_str();
            let found = json(&["games", "find", line, "--format", "json", "--limit", "3"]);
            assert_eq!(found["total"].as_u64(), Some(expected), "{line}");
            let explored = json(&["explore", line, "--format", "json"]);
            assert_eq!(explored["games"].as_u64(), Some(expected), "{line}");
            // The move that followed is a legal move in the caller's orientation.
            for g in found["games"].as_array().unwrap() {
                if let Some(next) = g["next"].as_str() {
                    let after = format!("{line}{next}");
                    othbook::board::Position::START
                        .replay(othbook::board::parse_moves(&after).unwrap())
                        .unwrap_or_else(|e| panic!("{after}: {e}"));
                }
            }
        }
    }
}

#[test]
fn explore_lists_the_games_and_its_json_carries_them() {
    let out = json(&["explore", "f5d6c3d3c4", "--games", "4", "--format", "json"]);
    let listed = out["listed_games"].as_array().unwrap();
    assert_eq!(listed.len(), 4);
    let years: Vec<u64> = listed.iter().map(|g| g["year"].as_u64().unwrap()).collect();
    assert!(years.windows(2).all(|w| w[0] >= w[1]), "most recent first");
    let table = stdout_of(&["explore", "c4e3f6e6f5", "--games", "2"]);
    assert!(table.contains("year  black"), "{table}");
}

/// Regression: `explore --games K --format tsv` printed the moves only (table and JSON list
/// the games): the games now follow as a second table after a blank line, in the columns of
/// `games find --format tsv`.
#[test]
fn regression_explore_tsv_left_out_the_games_list() {
    let line = "f5d6c3d3c4";
    let out = json(&["explore", line, "--games", "4", "--format", "json"]);
    let listed = out["listed_games"].as_array().unwrap();
    let tsv = stdout_of(&["explore", line, "--games", "4", "--format", "tsv"]);
    let (moves, games) = tsv.split_once("\n\n").expect("two tables");
    assert!(moves.starts_with("move\tgames\t"), "{tsv}");
    let mut rows = games.lines();
    let header: Vec<&str> = rows.next().unwrap().split('\t').collect();
    let find = stdout_of(&["games", "find", line, "--limit", "4", "--format", "tsv"]);
    assert_eq!(games, find, "the same table as games find");
    let rows: Vec<Vec<&str>> = rows.map(|r| r.split('\t').collect()).collect();
    assert_eq!(rows.len(), listed.len());
    for (row, g) in rows.iter().zip(listed) {
        assert_eq!(row.len(), header.len(), "{row:?}");
        let cell = |name: &str| row[header.iter().position(|h| *h == name).unwrap()];
        assert_eq!(cell("year"), g["year"].to_string());
        assert_eq!(cell("black"), g["black"].as_str().unwrap());
        assert_eq!(cell("moves"), g["moves"].as_str().unwrap());
        assert_eq!(cell("next"), g["next"].as_str().unwrap_or(""));
    }
    // Without --games the TSV is the moves alone, as before.
    let plain = stdout_of(&["explore", line, "--format", "tsv"]);
    assert!(
        !plain.contains("\n\n") && !plain.contains("year\tblack"),
        "{plain}"
    );
}

/// Books of WTHOR 2019-2021 (a few thousand games), built once for the filter tests.
fn small_books() -> &'static (PathBuf, PathBuf) {
    static DIR: std::sync::OnceLock<(PathBuf, PathBuf)> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = common::scratch_dir("games-find");
        let all = dir.join("all.book");
        let mut args = vec!["build".to_string()];
        for y in 2019..=2021 {
            args.push(need(&format!("../shared/data/wthor/WTH_{y}.wtb")).to_string());
        }
        args.extend(
            [
                "-o",
                all.to_str().unwrap(),
                "--plies",
                "24",
                "--min-games",
                "1",
            ]
            .map(String::from),
        );
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        stdout_of(&args);
        (dir, all)
    })
}

/// `build` with `filter` from the same three years.
fn filtered_book(filter: &[&str], name: &str) -> PathBuf {
    let (dir, _) = small_books();
    let path = dir.join(name);
    let years: Vec<String> = (2019..=2021)
        .map(|y| format!("../shared/data/wthor/WTH_{y}.wtb"))
        .collect();
    let mut args: Vec<&str> = vec!["build"];
    args.extend(years.iter().map(String::as_str));
    args.extend([
        "-o",
        path.to_str().unwrap(),
        "--plies",
        "24",
        "--min-games",
        "1",
    ]);
    // `build` names the side --player-side; the queries --color.
    for a in filter {
        args.push(if *a == "--color" { "--player-side" } else { a });
    }
    stdout_of(&args);
    path
}

/// Games, results and per-move counts of an explore answer.
fn counts(v: &Value) -> (Value, Value, Value, Value, Vec<(String, u64)>) {
    let moves = v["moves"]
        .as_array()
        .map(|m| {
            m.iter()
                .map(|m| {
                    (
                        m["move"].as_str().unwrap().to_string(),
                        m["games"].as_u64().unwrap(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    (
        v["games"].clone(),
        v["black_wins"].clone(),
        v["draws"].clone(),
        v["white_wins"].clone(),
        moves,
    )
}

#[test]
fn filters_agree_with_a_book_rebuilt_with_the_same_filters() {
    let (_, all) = small_books();
    let all = all.to_str().unwrap();
    // The most active player of these years, asked for in lower case.
    let players = json(&[
        "games", "players", "--book", all, "--format", "json", "--limit", "1",
    ]);
    let top = players["players"][0]["name"].as_str().unwrap().to_string();
    let word = top.split_whitespace().next().unwrap().to_lowercase();
    let filters: [(Vec<&str>, &str); 4] = [
        (vec!["--player", &word], "player.book"),
        (vec!["--player", &word, "--color", "white"], "white.book"),
        (
            vec!["--years", "2020-2021", "--complete-only"],
            "years.book",
        ),
        (vec!["--event", "championship"], "event.book"),
    ];
    for (filter, name) in filters {
        let rebuilt = filtered_book(&filter, name);
        let rebuilt = rebuilt.to_str().unwrap();
        for line in ["", "f5", "f5d6", "f5d6c3d3c4", "e6f4c3c4d3", "f5f6e6f4"] {
            let mut asked = vec!["explore", "--book", all, "--format", "json"];
            let mut plain = vec!["explore", "--book", rebuilt, "--format", "json"];
            if !line.is_empty() {
                asked.push(line);
                plain.push(line);
            }
            asked.extend(filter.iter().copied());
            let (a, b) = (json(&asked), json(&plain));
            if b["in_book"] == Value::Bool(false) {
                assert_eq!(a["in_book"], Value::Bool(false), "{filter:?} {line}");
                continue;
            }
            assert_eq!(counts(&a), counts(&b), "{filter:?} {line}");
        }
        let mut top_asked = vec!["top", "--book", all, "--plies", "8", "--format", "json"];
        top_asked.extend(filter.iter().copied());
        let top_plain = ["top", "--book", rebuilt, "--plies", "8", "--format", "json"];
        assert_eq!(json(&top_asked), json(&top_plain), "{filter:?}");
        let mut find = vec!["games", "find", "f5d6", "--book", all, "--format", "json"];
        find.extend(filter.iter().copied());
        let plain = json(&["explore", "f5d6", "--book", rebuilt, "--format", "json"]);
        assert_eq!(json(&find)["total"], plain["games"], "{filter:?}");
    }
}

#[test]
fn an_unknown_name_says_so_and_suggests_the_closest() {
    let (code, _, err) = run_in(Path::new("."), &["explore", "f5", "--player", "Tamenory"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("no player") && err.contains("Tamenori Hideshi"),
        "{err}"
    );
    // Accents and case are ignored.
    let found = json(&[
        "games",
        "find",
        "f5",
        "--player",
        "TAMENÖRI",
        "--format",
        "json",
    ]);
    assert!(found["total"].as_u64().unwrap() > 1000);
    let (code, _, err) = run_in(Path::new("."), &["top", "--event", "zzzqqq"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--event \"zzzqqq\""), "{err}");
}

#[test]
fn found_games_export_to_the_game_formats() {
    let dir = tempfile::tempdir().unwrap();
    let line = "f5d6c3d3c4f4f6f3e6e7d7g6f8f7g5h6";
    let total = json(&["games", "find", line, "--format", "json"])["total"]
        .as_u64()
        .unwrap();
    assert!(total > 10);
    let pgn = dir.path().join("found.pgn");
    let out = othbook()
        .args([
            "games",
            "find",
            line,
            "--to",
            "pgn",
            "-o",
            pgn.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event ").count() as u64, total);
    let moves = stdout_of(&["games", "find", line, "--to", "moves", "--limit", "5"]);
    assert_eq!(moves.lines().count(), 5);
    // Read back, the exported games all reach the position.
    let stats = json(&[
        "games",
        "stats",
        pgn.to_str().unwrap(),
        "--format",
        "json",
        "-q",
    ]);
    assert_eq!(stats["accepted"].as_u64(), Some(total));
}

#[test]
fn books_without_a_game_table_still_open_and_say_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.book");
    let mut data = othbook::book::Book::open(othbook::book::default_path())
        .unwrap()
        .to_data()
        .unwrap();
    data.games = None;
    othbook::book::write_book(&old, &data).unwrap();
    let book = othbook::book::Book::open(&old).unwrap();
    let selective = book.info().evaluation.is_some_and(|e| e.selectivity < 100);
    assert_eq!(
        book.version(),
        if selective { 4 } else { 2 },
        "values and no games: version 2, or 4 with a selectivity"
    );
    let old = old.to_str().unwrap();
    assert!(stdout_of(&["explore", "f5", "--book", old]).contains("games"));
    for args in [
        vec!["games", "find", "f5", "--book", old],
        vec!["explore", "f5", "--book", old, "--games", "3"],
        vec!["top", "--book", old, "--years", "2000"],
        vec!["games", "players", old],
    ] {
        let (code, _, err) = run_in(Path::new("."), &args);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(err.contains("has no table of its games"), "{args:?}: {err}");
    }
    // add-games gives it back its table, values kept.
    let mut args = vec!["book", "add-games", old];
    let files: Vec<String> = (1977..=2021)
        .map(|y| need(&format!("../shared/data/wthor/WTH_{y}.wtb")).to_string())
        .collect();
    args.extend(files.iter().map(String::as_str));
    let restored = dir.path().join("restored.book");
    args.extend(["-o", restored.to_str().unwrap()]);
    stdout_of(&args);
    // With the index of its games (version 5); with the index as the default book has it,
    // the default book byte for byte.
    let book = othbook::book::Book::open(&restored).unwrap();
    assert!(book.has_game_index());
    let mut back = book.to_data().unwrap();
    back.game_index = othbook::book::Book::open(othbook::book::default_path())
        .unwrap()
        .has_game_index();
    assert!(
        othbook::book::encode(&back).unwrap()
            == std::fs::read(othbook::book::default_path()).unwrap(),
        "the default book is its former self plus its games"
    );
    // Other games are refused, and nothing is written.
    let wrong = dir.path().join("wrong.book");
    let (code, _, err) = run_in(
        Path::new("."),
        &[
            "book",
            "add-games",
            old,
            &files[40],
            "-o",
            wrong.to_str().unwrap(),
        ],
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("not the book's"), "{err}");
    assert!(!wrong.exists());
}

#[test]
fn regression_add_games_refused_a_book_with_its_games_but_no_index() {
    let dir = tempfile::tempdir().unwrap();
    let unindexed = dir.path().join("unindexed.book");
    let mut data = othbook::book::Book::open(othbook::book::default_path())
        .unwrap()
        .to_data()
        .unwrap();
    data.game_index = false;
    othbook::book::write_book(&unindexed, &data).unwrap();
    let book = othbook::book::Book::open(&unindexed).unwrap();
    assert!(!book.has_game_index() && book.version() < 5);
    let indexed = dir.path().join("indexed.book");
    let out = stdout_of(&[
        "book",
        "add-games",
        unindexed.to_str().unwrap(),
        "-o",
        indexed.to_str().unwrap(),
    ]);
    assert!(out.contains("index of its 127475 games added"), "{out}");
    let book = othbook::book::Book::open(&indexed).unwrap();
    assert!(book.has_game_index() && book.version() == 5);
    data.game_index = true;
    assert!(
        othbook::book::encode(&data).unwrap() == std::fs::read(&indexed).unwrap(),
        "the same book with the index of its games"
    );
    // Once indexed there is nothing to do, and nothing is written.
    let again = dir.path().join("again.book");
    let out = stdout_of(&[
        "book",
        "add-games",
        indexed.to_str().unwrap(),
        "-o",
        again.to_str().unwrap(),
    ]);
    assert!(out.contains("nothing to do"), "{out}");
    assert!(!again.exists());
    // A book without games still needs the game files.
    data.games = None;
    let bare = dir.path().join("bare.book");
    othbook::book::write_book(&bare, &data).unwrap();
    let (code, _, err) = run_in(
        Path::new("."),
        &["book", "add-games", bare.to_str().unwrap()],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("give the game files"), "{err}");
}

#[test]
fn a_damaged_game_table_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.book");
    let mut bytes = std::fs::read(othbook::book::default_path()).unwrap();
    let book = othbook::book::Book::open(othbook::book::default_path()).unwrap();
    // The game table ends the checksummed data: a byte just before the block checksums.
    let at = book.file_len() - book.data_blocks().count() * 8 - 100;
    bytes[at] ^= 0x10;
    std::fs::write(&bad, &bytes).unwrap();
    let (code, _, err) = run_in(
        Path::new("."),
        &["games", "find", "f5", "--book", bad.to_str().unwrap()],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("checksum mismatch"), "{err}");
}

#[test]
fn a_book_lists_the_names_of_its_games_as_the_game_files_do() {
    let files: Vec<String> = (1977..=2021)
        .map(|y| need(&format!("../shared/data/wthor/WTH_{y}.wtb")).to_string())
        .collect();
    for what in ["players", "events"] {
        let mut args = vec!["games", what, "--format", "json", "-q"];
        args.extend(files.iter().map(String::as_str));
        let from_files = json(&args);
        let book = othbook::book::default_path();
        let book = book.to_str().unwrap();
        let from_book = json(&["games", what, "--book", book, "--format", "json"]);
        assert_eq!(from_book, from_files, "{what}");
        assert_eq!(json(&["games", what, book, "--format", "json"]), from_files);
    }
}
