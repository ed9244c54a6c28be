//! The book's values in the queries: `explore`'s value column and best move, `top --by value`,
//! `analyze`'s book value, and books without values looking as they did before values.
//!
//! The evaluated book is the default book with deterministic stand-in leaf scores
//! ([`common::fake_leaf`]): these tests check that each command shows what the library's
//! `Book::value` and `Book::best_moves` say, not how good the values are.

mod common;

use common::{after, black_discs, fake_evaluated_book, othbook, partly_evaluated_book, stdout_of};
use othbook::board::{Move, Position};
use othbook::book::Book;
use std::collections::BTreeMap;
use std::path::Path;

/// Positions across the book: the start (symmetric), white and black to move, deep lines.
const LINES: &[&str] = &[
    "",
    "f5",
    "f5d6",
    "f5d6c3d3c4",
    "f5d6c3d3c4f4f6f3e6e7",
    "f5f6e6f4",
];

/// What the library says of `pos`: each valued move's value for black, and the best ones.
fn expected(book: &Book, pos: &Position) -> (BTreeMap<String, f64>, Vec<String>) {
    let moves = book.best_moves(&pos.board);
    assert!(!moves.is_empty(), "the evaluated book values {pos:?}");
    let best = moves[0].score.score;
    let values = moves
        .iter()
        .map(|m| (m.mv.to_string(), black_discs(m.score, pos.side)))
        .collect();
    let bests = moves
        .iter()
        .filter(|m| m.score.score == best)
        .map(|m| m.mv.to_string())
        .collect();
    (values, bests)
}

fn explore(book: &Path, line: &str, format: &str) -> String {
    let mut args = vec![
        "explore",
        "--format",
        format,
        "--book",
        book.to_str().unwrap(),
    ];
    if !line.is_empty() {
        args.push(line);
    }
    stdout_of(&args)
}

/// The value of field `name` in a flat JSON object's text (`None` for null).
fn field<'a>(obj: &'a str, name: &str) -> Option<&'a str> {
    let at = obj.find(&format!("\"{name}\":"))? + name.len() + 3;
    let v = obj[at..].split([',', '}']).next()?;
    (v != "null").then_some(v.trim_matches('"'))
}

/// The move objects of an `explore --format json` answer.
fn json_moves(json: &str) -> Vec<&str> {
    let list = &json[json.find("\"moves\":[").unwrap() + 9..];
    list.split("},{").collect()
}

#[test]
fn explore_shows_every_valued_move_and_marks_the_best() {
    let path = fake_evaluated_book();
    let book = Book::open(path).unwrap();
    for line in LINES {
        let pos = after(line);
        let (values, bests) = expected(&book, &pos);
        let position_value = black_discs(book.value(&pos.board).unwrap(), pos.side);

        let tsv = explore(path, line, "tsv");
        let mut rows = tsv.lines();
        assert!(
            rows.next().unwrap().ends_with(
                "\taverage_diff\tvalue\tvalue_depth\tvalue_kind\terror\twin\tdraw\tloss\tbest\topening"
            ),
            "{tsv}"
        );
        let mut shown = BTreeMap::new();
        let mut best_rows = Vec::new();
        for row in rows {
            let f: Vec<&str> = row.split('\t').collect();
            assert_eq!(f.len(), 17, "{row}");
            if !f[8].is_empty() {
                // A midgame value has an error, and chances that sum to 1 (two decimals each).
                let error: f64 = f[11].parse().expect("error cell");
                assert!(error > 0.0, "{row}");
                let sum: f64 = f[12..15].iter().map(|c| c.parse::<f64>().unwrap()).sum();
                assert!((sum - 1.0).abs() <= 0.015, "{row}");
            }
            let value: Option<f64> = f[8].parse().ok();
            if f[0] == "all" {
                assert_eq!(value, Some(position_value), "{line}: {row}");
                continue;
            }
            if let Some(v) = value {
                assert_eq!(f[10], "mid", "{row}");
                shown.insert(f[0].to_string(), v);
            }
            if f[15] == "1" {
                best_rows.push(f[0].to_string());
            }
        }
        assert_eq!(shown, values, "{line}: every valued move, with its value");
        assert_eq!(best_rows, bests, "{line}");
        // The best move's value is the position's value.
        assert_eq!(values[&bests[0]], position_value, "{line}");

        let table = explore(path, line, "table");
        let starred: Vec<String> = table
            .lines()
            .filter(|l| {
                l.starts_with(|c: char| c.is_ascii_lowercase())
                    && l.split_whitespace()
                        .any(|w| w.len() > 1 && w.ends_with('*'))
            })
            .map(|l| l.split_whitespace().next().unwrap().to_string())
            .collect();
        assert_eq!(starred, bests, "{line}:\n{table}");
        assert!(
            table.contains(&format!("* best for {}", pos.side)),
            "{table}"
        );

        let json = explore(path, line, "json");
        let head = &json[..json.find("\"moves\"").unwrap()];
        assert_eq!(
            field(head, "value"),
            Some(format!("{position_value:.2}").as_str())
        );
        assert!(head.contains("\"evaluation\":{\"depth\":4,"), "{head}");
        for obj in json_moves(&json) {
            let mv = field(obj, "move").unwrap();
            let value = field(obj, "value").map(|v| v.parse::<f64>().unwrap());
            assert_eq!(value, values.get(mv).copied(), "{line} {mv}");
            if value.is_some() {
                let error: f64 = field(obj, "error").unwrap().parse().unwrap();
                assert!(error > 0.0, "{obj}");
                assert_eq!(
                    field(obj, "chances_for"),
                    Some(pos.side.to_string().as_str())
                );
                let sum: f64 = ["win", "draw", "loss"]
                    .iter()
                    .map(|k| field(obj, k).unwrap().parse::<f64>().unwrap())
                    .sum();
                assert!((sum - 1.0).abs() <= 0.015, "{obj}");
            }
            let best = field(obj, "best") == Some("true");
            assert_eq!(best, bests.iter().any(|b| b == mv), "{line} {mv}");
        }
    }
}

/// The best move out of the book (the leaf) gets a row when the book does not list it.
#[test]
fn explore_gives_the_leaf_a_row_of_its_own() {
    let path = fake_evaluated_book();
    let book = Book::open(path).unwrap();
    // The first position along the book's main lines whose leaf no game played.
    let mut found = None;
    let mut queue = vec![Position::START];
    while let Some(pos) = queue.pop() {
        let listed: Vec<Move> = book.moves(&pos.board).into_iter().map(|m| m.0).collect();
        let leaf = book
            .best_moves(&pos.board)
            .into_iter()
            .find(|m| !m.in_book && !listed.contains(&m.mv));
        if let Some(leaf) = leaf {
            found = Some((pos, leaf));
            break;
        }
        queue.extend(listed.iter().take(2).map(|&mv| pos.play(mv).unwrap()));
    }
    let (pos, leaf) = found.expect("some leaf leaves the book");
    let obf = pos.to_obf();
    let args = |format| {
        stdout_of(&[
            "explore",
            "--position",
            &obf,
            "--format",
            format,
            "--book",
            path.to_str().unwrap(),
        ])
    };
    let table = args("table");
    let row = table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(&leaf.mv.to_string()))
        .unwrap_or_else(|| panic!("a row for {}:\n{table}", leaf.mv));
    assert!(row.contains(" <4 "), "{row}");
    assert!(
        row.contains(&format!("{:+.2}", black_discs(leaf.score, pos.side))),
        "{row}"
    );
    assert!(
        table.contains(&format!("{} leaves the book", leaf.mv)),
        "{table}"
    );
    let json = args("json");
    let obj = json_moves(&json)
        .into_iter()
        .find(|o| field(o, "move") == Some(&leaf.mv.to_string()))
        .unwrap();
    assert_eq!(field(obj, "leaves_book"), Some("true"), "{obj}");
    assert_eq!(field(obj, "games"), None, "below the book's minimum: {obj}");
}

/// Version-1 books (no values) show exactly the columns and fields they showed before.
#[test]
fn books_without_values_look_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let v1 = common::default_book_without_values(dir.path());
    assert!(!Book::open(&v1).unwrap().has_values());
    for line in LINES {
        let tsv = explore(&v1, line, "tsv");
        assert_eq!(
            tsv.lines().next(),
            Some(
                "move\tgames\tshare\tblack_wins\tdraws\twhite_wins\tunknown\taverage_diff\topening"
            )
        );
        let json = explore(&v1, line, "json");
        for gone in ["value", "best", "evaluation", "leaves_book"] {
            assert!(!json.contains(gone), "{json}");
        }
        let table = explore(&v1, line, "table");
        // (The diagram marks legal moves with `*`; no row ends with a best-move mark.)
        assert!(!table.contains("value"), "{table}");
        assert!(
            !table
                .lines()
                .any(|l| l.starts_with(|c: char| c.is_ascii_lowercase()) && l.ends_with('*')),
            "{table}"
        );
        // The opening column follows the games' columns when a move reaches a named opening.
        let header = "\nmove    games   share  black%  draw%  white%    avg";
        assert!(
            table.contains(&format!("{header}\n"))
                || table.contains(&format!("{header}  opening\n")),
            "{table}"
        );
    }
    let top = stdout_of(&[
        "top",
        "--plies",
        "6",
        "--format",
        "tsv",
        "--book",
        v1.to_str().unwrap(),
    ]);
    assert_eq!(
        top.lines().next(),
        // The opening column was added last (after the columns scripts already read).
        Some("line\tgames\tblack_wins\tdraws\twhite_wins\tunknown\taverage_diff\topening")
    );
    let top = stdout_of(&["top", "--plies", "6", "--book", v1.to_str().unwrap()]);
    assert!(
        top.lines().next().unwrap().ends_with("white%     avg"),
        "{top}"
    );
    assert!(!top.contains("value"), "{top}");
}

/// `top` TSV rows: line, games, value.
fn top_rows(book: &Path, args: &[&str]) -> Vec<(String, u64, Option<f64>)> {
    let mut all = vec!["top", "--format", "tsv", "--book", book.to_str().unwrap()];
    all.extend_from_slice(args);
    let tsv = stdout_of(&all);
    let mut lines = tsv.lines();
    assert!(lines
        .next()
        .unwrap()
        .ends_with("\tvalue\tvalue_depth\tvalue_kind\terror\twin\tdraw\tloss\topening"));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].parse().unwrap(), f[7].parse().ok())
        })
        .collect()
}

#[test]
fn top_by_value_lists_the_lines_reaching_the_best_values_for_black() {
    let path = fake_evaluated_book();
    let book = Book::open(path).unwrap();
    let by_value = top_rows(path, &["--plies", "7", "--by", "value", "--limit", "15"]);
    assert_eq!(by_value.len(), 15);
    for (line, _, value) in &by_value {
        // The value of the position the line reaches, turned to black's view.
        let pos = after(line);
        let v = black_discs(book.value(&pos.board).unwrap(), pos.side);
        assert_eq!(*value, Some(v), "{line}");
    }
    let values: Vec<f64> = by_value.iter().map(|r| r.2.unwrap()).collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
    // Every line of 7 plies (ranked by games here): none with a value better than the last
    // one listed is missing.
    let every = top_rows(path, &["--plies", "7", "--limit", "100000"]);
    assert!(every.len() > 100, "{}", every.len());
    let mut best: Vec<f64> = every.iter().filter_map(|r| r.2).collect();
    best.sort_by(|a, b| b.total_cmp(a));
    assert_eq!(values, best[..15]);
    // From a line, in its orientation, and with a minimum of games.
    let from = top_rows(
        path,
        &[
            "d3",
            "c3",
            "--plies",
            "6",
            "--by",
            "value",
            "--min-games",
            "20",
        ],
    );
    assert!(!from.is_empty());
    for (line, games, value) in from {
        assert!(line.starts_with("d3c3") && games >= 20, "{line} {games}");
        assert!(value.is_some());
    }
    // JSON carries the same values.
    let json = stdout_of(&[
        "top",
        "--plies",
        "7",
        "--by",
        "value",
        "--limit",
        "3",
        "--format",
        "json",
        "--book",
        path.to_str().unwrap(),
    ]);
    assert!(
        json.contains(&format!("\"value\":{:.2},", values[0])),
        "{json}"
    );
}

#[test]
fn top_by_value_needs_a_book_with_values() {
    let dir = tempfile::tempdir().unwrap();
    let out = othbook()
        .args(["top", "--by", "value", "--book"])
        .arg(common::default_book_without_values(dir.path()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--by value needs a book with values"), "{err}");
}

/// `analyze` one ply deep after `line`.
fn analyze(line: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "analyze",
        line,
        "--depth",
        "1",
        "--threads",
        "1",
        "--hash",
        "1",
    ];
    args.extend_from_slice(extra);
    stdout_of(&args)
}

#[test]
fn analyze_shows_the_book_value_and_best_move_before_searching() {
    let path = fake_evaluated_book();
    let book = Book::open(path).unwrap();
    for line in ["f5d6c3", "f5d6c3d3c4f4f6f3e6e7"] {
        let pos = after(line);
        let value = book.value(&pos.board).unwrap();
        let best = book.best_moves(&pos.board)[0];
        let out = analyze(line, &["--book", path.to_str().unwrap()]);
        let shown = out
            .lines()
            .find(|l| l.starts_with("book value: "))
            .unwrap_or_else(|| panic!("{out}"));
        assert!(
            shown.starts_with(&format!(
                "book value: {:+.2} for {} (mid, depth {}), ±",
                value.discs(),
                pos.side,
                value.depth,
            )),
            "{shown}"
        );
        assert!(
            shown.contains(&format!(
                ", {} wins {}, best book move {}",
                pos.side,
                othbook::book::trust::percent_text(
                    othbook::book::trust::chances(
                        value.kind,
                        value.discs(),
                        pos.board.empty_count()
                    )
                    .win
                ),
                best.mv
            )),
            "{shown}"
        );
        // Before the search's first line.
        assert!(out.find("book value").unwrap() < out.find("depth    score").unwrap());
    }
    let v1 = analyze(
        "f5d6c3",
        &["--book", common::default_without_values().to_str().unwrap()],
    );
    assert!(!v1.contains("book value"), "{v1}");
}

/// A book evaluated by `othbook book evaluate` down to 8 plies: values where it has them,
/// dashes and a word where it has none.
#[test]
fn a_partly_evaluated_book_shows_values_where_it_has_them() {
    let path = partly_evaluated_book();
    let book = Book::open(path).unwrap();
    let shallow = "f5d6c3d3c4f4f6";
    let pos = after(shallow);
    let (values, bests) = expected(&book, &pos);
    let table = explore(path, shallow, "table");
    for (mv, v) in &values {
        let row = table
            .lines()
            .find(|l| l.split_whitespace().next() == Some(mv.as_str()))
            .unwrap_or_else(|| panic!("{mv}:\n{table}"));
        let mark = if bests.contains(mv) { "*" } else { "" };
        let cell = format!("{v:+.2} ±");
        let at = row.find(&cell).unwrap_or_else(|| panic!("{row}"));
        let error = row[at + cell.len()..].split_whitespace().next().unwrap();
        assert_eq!(error.ends_with('*'), !mark.is_empty(), "{row}");
    }
    assert!(table.contains("leaves searched 2 plies deep;"), "{table}");

    let deep = "f5d6c3d3c4f4f6f3e6e7";
    assert_eq!(book.value(&after(deep).board), None);
    let table = explore(path, deep, "table");
    assert!(
        table.contains("value -: the book's evaluation has not reached this position"),
        "{table}"
    );
    let rows: Vec<&str> = table
        .lines()
        .skip_while(|l| !l.starts_with("move "))
        .skip(1)
        .take_while(|l| l.split_whitespace().count() == 9)
        .collect();
    assert!(rows.len() > 3, "{table}");
    assert!(rows.iter().all(|r| r.ends_with(" -")), "{table}");
    let json = explore(path, deep, "json");
    assert!(json.contains("\"value\":null,\"value_depth\":null,\"value_kind\":null"));
    assert!(!json.contains("\"best\":true"), "{json}");
}

/// Moves and positions that `book deviate` added have no games: explore shows `0` games,
/// dashes for the results and the value.
#[test]
fn explore_shows_what_deviation_learning_added() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deviated.book");
    std::fs::copy(fake_evaluated_book(), &path).unwrap();
    stdout_of(&[
        "book",
        "deviate",
        path.to_str().unwrap(),
        "--relative",
        "1",
        "--absolute",
        "8",
        "--until",
        "8",
        "--max",
        "30",
        "--threads",
        "1",
    ]);
    let book = Book::open(&path).unwrap();
    // A book move no game played, along the book's lines.
    let mut stack = vec![Position::START];
    let mut added = None;
    while let (Some(pos), None) = (stack.pop(), added) {
        for (mv, st) in book.moves(&pos.board) {
            if st.games() == 0 {
                added = Some((pos, mv));
                break;
            }
            if pos.board.empty_count() > 52 {
                stack.push(pos.play(mv).unwrap());
            }
        }
    }
    let (pos, mv) = added.expect("deviation learning added a move");
    let value = book
        .best_moves(&pos.board)
        .into_iter()
        .find(|m| m.mv == mv)
        .unwrap();
    let at = |p: &Position, format| {
        stdout_of(&[
            "explore",
            "--position",
            &p.to_obf(),
            "--format",
            format,
            "--book",
            path.to_str().unwrap(),
        ])
    };
    let table = at(&pos, "table");
    let row = table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(&mv.to_string()))
        .unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[1..7], ["0", "0.0%", "-", "-", "-", "-"], "{row}");
    assert!(
        cells[7].starts_with(&format!("{:+.2}", black_discs(value.score, pos.side))),
        "{row}"
    );
    let json = at(&pos, "json");
    let obj = json_moves(&json)
        .into_iter()
        .find(|o| field(o, "move") == Some(&mv.to_string()))
        .unwrap();
    assert_eq!(field(obj, "games"), Some("0"), "{obj}");
    assert_eq!(field(obj, "average_diff"), None, "{obj}");
    assert!(field(obj, "value").is_some(), "{obj}");

    // The position it leads to: in the book, no game, its moves known to have none.
    let child = pos.play(mv).unwrap();
    let table = at(&child, "table");
    assert!(
        table.contains("0 games: deviation learning added this position"),
        "{table}"
    );
    assert!(!table.contains("<4"), "{table}");
    assert!(table.contains("value "), "{table}");
}

/// The shared books were written into `tempfile` folders held by statics, which Rust never
/// drops: every test process left its books (about 25 MB) in the system's temporary folder.
#[test]
fn regression_shared_test_books_were_left_in_the_temporary_folder() {
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR"));
    for path in [
        fake_evaluated_book(),
        partly_evaluated_book(),
        common::default_without_values(),
    ] {
        assert!(path.starts_with(scratch), "{}", path.display());
        assert!(path.is_file(), "{}", path.display());
    }
}
