//! Opening book on real data: the logbook's top lines against a plain prefix count, symmetry
//! and transposition merging through the CLI, merge = build, and damaged book files.

use assert_cmd::Command;
use flate2::read::GzDecoder;
use othbook::board::{format_moves, parse_moves, Position, Square, Symmetry};
use othbook::book::{build, encode, Book, BuildOptions, GameFilter, RankBy};
use othbook::transcript::{GameRecord, GameResult, Location, SourceRef};
use std::collections::HashMap;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

const LOGBOOK: &str = "../shared/data/logbook/logbook.gam.gz";
const WTHOR_2021: &str = "../shared/data/wthor/WTH_2021.wtb";
const WTHOR_2020: &str = "../shared/data/wthor/WTH_2020.wtb";

fn need(path: &str) -> &str {
    assert!(
        Path::new(path).exists(),
        "missing test data {path}: the real data must be in ../shared/data"
    );
    path
}

/// The logbook's lines, unpacked (test-only reader, independent of the ingest layer).
fn logbook_text() -> String {
    let mut text = String::new();
    GzDecoder::new(std::fs::File::open(need(LOGBOOK)).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    text
}

/// Test-only reader for `+d3-c5...: -04 10` lines.
fn logbook_records(text: &str) -> Vec<GameRecord> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| {
            let (moves, result) = line.split_once(':').expect("':' in every line");
            let diff: i32 = result.split_whitespace().next().unwrap().parse().unwrap();
            let replay = Position::START
                .replay(parse_moves(moves).unwrap())
                .unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
            GameRecord {
                start: Position::START,
                complete: replay.end.board.is_game_over(),
                moves: replay.moves,
                result: Some(GameResult {
                    disc_diff: diff,
                    raw: result.trim().to_string(),
                }),
                black: None,
                white: None,
                event: None,
                place: None,
                date: None,
                year: None,
                source: SourceRef {
                    file: Arc::from(LOGBOOK),
                    location: Location::Line(i as u64 + 1),
                },
            }
        })
        .collect()
}

#[test]
fn logbook_top_10_ply_lines_equal_a_plain_prefix_count() {
    let text = logbook_text();
    // The independent count: `cut -c-30 | sort | uniq -c`, complete 10-move prefixes only.
    let mut want: HashMap<String, u64> = HashMap::new();
    for line in text.lines() {
        let prefix: String = line.chars().take(30).collect();
        if prefix.len() == 30 && !prefix.contains(':') {
            let signs: Vec<char> = prefix.chars().step_by(3).collect();
            assert!(
                signs.windows(2).all(|w| w[0] != w[1]),
                "a pass in the first 10 moves would make string and ply prefixes differ"
            );
            let compact: String = prefix.chars().filter(|c| *c != '+' && *c != '-').collect();
            *want.entry(compact).or_default() += 1;
        }
    }
    let games = logbook_records(&text);
    let opts = BuildOptions::new(10, 1, GameFilter::default()).unwrap();
    let (data, _) = build(&games, &opts, 0, &|_| {}).unwrap();
    let book = Book::from_bytes(encode(&data).unwrap(), "logbook").unwrap();
    let lines = book.top(10, usize::MAX, RankBy::Games, Square::D3).unwrap();
    let got: HashMap<String, u64> = lines
        .iter()
        .map(|l| (format_moves(&l.moves), l.stats.games()))
        .collect();
    assert_eq!(got, want);
    let mut counts: Vec<u64> = want.values().copied().collect();
    counts.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(
        lines
            .iter()
            .take(4)
            .map(|l| l.stats.games())
            .collect::<Vec<_>>(),
        counts[..4]
    );
    assert_eq!(
        counts[0], counts[2],
        "the logbook starts with three equal lines"
    );
}

fn othbook() -> Command {
    let mut c = Command::cargo_bin("othbook").unwrap();
    c.env("SOURCE_DATE_EPOCH", "1640995200");
    c
}

fn build_cli(inputs: &[&str], out: &Path, extra: &[&str]) {
    let mut args: Vec<String> = vec!["build".into()];
    args.extend(inputs.iter().map(|s| need(s).to_string()));
    args.extend(["-o".into(), out.display().to_string()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    // These tests count exact statistics: everything kept unless a test says otherwise.
    for (flag, all) in [("--plies", "60"), ("--min-games", "1")] {
        if !extra.contains(&flag) {
            args.extend([flag.to_string(), all.to_string()]);
        }
    }
    othbook().args(&args).assert().success();
}

fn stdout(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn logbook_top_through_the_cli_starts_with_three_lines_of_13493() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("logbook.book");
    build_cli(&[LOGBOOK], &book, &["--plies", "10"]);
    let tsv = stdout(
        othbook()
            .args(["top", "--plies", "10", "--first", "d3", "--format", "tsv"])
            .arg("--book")
            .arg(&book)
            .args(["--limit", "3"]),
    );
    let counts: Vec<&str> = tsv
        .lines()
        .skip(1)
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    assert_eq!(counts, ["13493", "13493", "13493"]);
    assert!(tsv.lines().skip(1).all(|l| l.starts_with("d3")));
}

#[test]
fn explore_gives_the_same_numbers_for_every_orientation_and_move_order() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("w.book");
    build_cli(&[WTHOR_2020, WTHOR_2021], &book, &["--plies", "20"]);
    let explore = |moves: &str| {
        stdout(
            othbook()
                .args(["explore", moves, "--format", "json", "--book"])
                .arg(&book),
        )
    };
    // Statistics, without the position string and move names (orientation-dependent).
    let numbers = |json: &str| -> Vec<String> {
        json.split([',', '{', '}'])
            .filter(|f| f.contains("games") || f.contains("wins") || f.contains("draws"))
            .map(str::to_string)
            .collect()
    };
    let line = parse_moves("f5d6c3d3c4f4").unwrap();
    let base = numbers(&explore("f5d6c3d3c4f4"));
    assert!(base.len() > 4, "position should be in the book: {base:?}");
    for s in Symmetry::START {
        let moved: Vec<_> = line.iter().map(|m| s.apply_move(*m)).collect();
        assert_eq!(numbers(&explore(&format_moves(&moved))), base, "{s:?}");
    }
    // A transposition: c3 and c4 for black swapped, d3/d6 for white kept in their order.
    let pos_a = Position::START.replay(line.clone()).unwrap().end;
    let pos_b = Position::START
        .replay(parse_moves("f5d6c4d3c3f4").unwrap())
        .unwrap()
        .end;
    assert_eq!(pos_a, pos_b);
    assert_eq!(numbers(&explore("f5d6c4d3c3f4")), base);
    // All 8 images through --position.
    for s in Symmetry::ALL {
        let img = pos_a.transform(s).to_obf();
        let json = stdout(
            othbook()
                .args(["explore", "--format", "json", "--position", &img, "--book"])
                .arg(&book),
        );
        assert_eq!(numbers(&json), base, "{s:?}");
    }
}

#[test]
fn merge_of_builds_equals_the_build_of_all_games() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, all, merged) = (
        dir.path().join("a.book"),
        dir.path().join("b.book"),
        dir.path().join("all.book"),
        dir.path().join("merged.book"),
    );
    build_cli(&[WTHOR_2020], &a, &["--plies", "30"]);
    build_cli(&[WTHOR_2021], &b, &["--plies", "30"]);
    build_cli(
        &[WTHOR_2021, WTHOR_2020],
        &all,
        &["--plies", "30", "--min-games", "2", "--threads", "1"],
    );
    othbook()
        .args(["merge", "--min-games", "2", "-o"])
        .arg(&merged)
        .arg(&b)
        .arg(&a)
        .assert()
        .success();
    assert!(std::fs::read(&merged).unwrap() == std::fs::read(&all).unwrap());
    let info = stdout(othbook().arg("info").arg(&all));
    assert!(
        info.contains("WTH_2020.wtb") && info.contains("min games      2"),
        "{info}"
    );
}

/// Runs othbook with its memory capped at 2 GB: before the fixes below, reading a device
/// such as /dev/zero went on until memory ran out, which the cap makes a quick failure.
fn run_capped(args: &[&str]) -> (Option<i32>, String) {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2000000 && exec \"$0\" \"$@\"")
        .arg(assert_cmd::cargo::cargo_bin("othbook"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Regression: `info /dev/zero` and `--book /dev/zero` read the device until memory ran out.
#[test]
fn regression_info_dev_zero_read_forever() {
    for args in [
        &["info", "/dev/zero"][..],
        &["explore", "--book", "/dev/zero", "f5"],
        &["top", "--book", "/dev/zero"],
        &["analyze", "--book", "/dev/zero", "f5"],
        &["nboard", "--book", "/dev/zero"],
        &["gtp", "--player", "engine:book=/dev/zero"],
    ] {
        let (code, msg) = run_capped(args);
        assert_eq!(code, Some(1), "{args:?}: {msg}");
        assert!(
            msg.contains("/dev/zero: not a regular file"),
            "{args:?}: {msg}"
        );
    }
}

#[test]
fn damaged_and_foreign_books_fail_with_exit_code_1() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.book");
    build_cli(&[WTHOR_2021], &good, &["--plies", "12"]);
    let bytes = std::fs::read(&good).unwrap();
    let bad = dir.path().join("bad.book");
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("truncated", bytes[..bytes.len() / 2].to_vec()),
        ("flipped", {
            let mut b = bytes.clone();
            let at = b.len() * 2 / 3;
            b[at] ^= 4;
            b
        }),
        ("foreign", std::fs::read(need(WTHOR_2021)).unwrap()),
        ("newer", {
            let mut b = bytes.clone();
            b[8] = 9;
            b
        }),
    ];
    for (what, content) in cases {
        std::fs::write(&bad, &content).unwrap();
        for args in [vec!["explore", "f5"], vec!["top"], vec!["info"]] {
            let mut cmd = othbook();
            cmd.args(&args);
            if args[0] == "info" {
                cmd.arg(&bad);
            } else {
                cmd.arg("--book").arg(&bad);
            }
            let out = cmd.assert().code(1).get_output().stderr.clone();
            let msg = String::from_utf8(out).unwrap();
            assert!(msg.contains("bad.book"), "{what}: {msg}");
        }
    }
}

#[test]
fn query_errors_and_unknown_positions() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("w.book");
    build_cli(&[WTHOR_2021], &book, &["--plies", "8"]);
    let out = othbook()
        .args(["explore", "f5f5", "--book"])
        .arg(&book)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert!(String::from_utf8(out).unwrap().contains("ply 2"));
    othbook()
        .args(["explore", "f5z9", "--book"])
        .arg(&book)
        .assert()
        .code(2);
    let deep = stdout(
        othbook()
            .args(["explore", "f5d6c3d3c4f4f6f3e6e7", "--book"])
            .arg(&book),
    );
    assert!(deep.contains("not in the book"), "{deep}");
    // Regression: TSV printed the board diagram there; it is now an empty table.
    let tsv = stdout(
        othbook()
            .args([
                "explore",
                "f5d6c3d3c4f4f6f3e6e7",
                "--format",
                "tsv",
                "--book",
            ])
            .arg(&book),
    );
    assert_eq!(tsv.lines().count(), 1, "{tsv}");
    assert!(tsv.starts_with("move\tgames\t"), "{tsv}");
    // The start lists its four equivalent first moves once, and says so.
    let start = stdout(othbook().args(["explore", "--book"]).arg(&book));
    assert!(start.contains("f5 stands for d3, c4 and e6 too"), "{start}");
    let after = stdout(othbook().args(["explore", "f5", "--book"]).arg(&book));
    assert!(!after.contains("stands for"), "{after}");
    othbook()
        .args(["top", "--first", "a1", "--book"])
        .arg(&book)
        .assert()
        .code(2);
}

/// `explore --depth D --format tsv` rows (without `all`): move, games (`None` where the book
/// leaves the move out below its minimum), eval.
fn explore_eval_rows(book: &Path, moves: &str, depth: &str) -> Vec<(String, Option<u64>, f64)> {
    let tsv = stdout(
        othbook()
            .args(["explore", moves, "--depth", depth, "--threads", "1"])
            .args(["--format", "tsv", "--book"])
            .arg(book),
    );
    let mut lines = tsv.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .ends_with("\taverage_diff\teval\topening"),
        "{tsv}"
    );
    lines
        .filter(|l| !l.starts_with("all\t"))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].parse().ok(), f[8].parse().unwrap())
        })
        .collect()
}

#[test]
fn explore_depth_scores_every_legal_move_as_the_engine_does() {
    use othbook::engine::{Depth, Engine, EngineOptions, Limits, ThreadCount, SCALE};
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("w.book");
    build_cli(&[WTHOR_2020, WTHOR_2021], &book, &["--plies", "20"]);
    // Black to move (in the book, some legal moves never played) and white to move.
    for line in ["f5d6c3d3c4f4f6f3e6e7", "f5d6c3d3c4f4f6f3e6", "f5d6c3"] {
        let pos = Position::START
            .replay(parse_moves(line).unwrap())
            .unwrap()
            .end;
        let rows = explore_eval_rows(&book, line, "6");
        let legal: Vec<String> = pos
            .board
            .legal_moves()
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut shown: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
        shown.sort();
        let mut want = legal.clone();
        want.sort();
        assert_eq!(shown, want, "{line}: one row per legal move");
        // Rows without games come after the book's, best for the mover first.
        let first_unplayed = rows
            .iter()
            .position(|r| r.1 == Some(0))
            .unwrap_or(rows.len());
        assert!(
            rows[first_unplayed..].iter().all(|r| r.1 == Some(0)),
            "{line}: {rows:?}"
        );
        let black = pos.side == othbook::board::Color::Black;
        let mover = |e: f64| if black { e } else { -e };
        assert!(
            rows[first_unplayed..]
                .windows(2)
                .all(|w| mover(w[0].2) >= mover(w[1].2)),
            "{line}: {rows:?}"
        );
        // The same scores as the library's engine, turned into black minus white.
        let engine = Engine::new(EngineOptions {
            threads: ThreadCount::ONE,
            hash_mb: othbook::engine::HashSize::of(64),
        });
        let a = engine
            .analyze(
                &pos.board,
                &Limits::depth(Depth::of(6)).multipv(legal.len()),
            )
            .unwrap();
        for l in &a.lines {
            let want = mover(f64::from(l.score) / f64::from(SCALE));
            let row = rows.iter().find(|r| r.0 == l.mv.to_string()).unwrap();
            assert!(
                (row.2 - want).abs() < 0.006,
                "{line} {}: {row:?} against {want}",
                l.mv
            );
        }
    }
    // Some moves of the first position were never played in these two years of games.
    let rows = explore_eval_rows(&book, "f5d6c3d3c4f4f6f3e6e7", "6");
    assert!(
        rows.iter().any(|r| r.1 == Some(0)) && rows.iter().any(|r| r.1 > Some(0)),
        "{rows:?}"
    );
}

#[test]
fn explore_depth_keeps_symmetric_moves_in_one_row_and_scores_unknown_positions() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("w.book");
    build_cli(&[WTHOR_2021], &book, &["--plies", "8"]);
    // At the start f5 stands for d3, c4 and e6: no extra rows for them.
    let start = stdout(
        othbook()
            .args(["explore", "--depth", "4", "--book"])
            .arg(&book),
    );
    let rows: Vec<&str> = start
        .lines()
        .filter(|l| l.starts_with("f5 ") && !l.contains("stands for"))
        .collect();
    assert_eq!(rows.len(), 1, "{start}");
    assert!(
        !start
            .lines()
            .any(|l| ["d3 ", "c4 ", "e6 "].iter().any(|m| l.starts_with(m))),
        "{start}"
    );
    assert!(
        start.contains("eval: engine score after a 4-ply search, black - white"),
        "{start}"
    );
    // Deeper than the book: every legal move scored, none with games.
    let deep = "f5d6c3d3c4f4f6f3e6e7";
    let json = stdout(
        othbook()
            .args([
                "explore", deep, "--depth", "4", "--format", "json", "--book",
            ])
            .arg(&book),
    );
    assert!(json.contains("\"in_book\":false"), "{json}");
    assert!(
        json.contains("\"eval_kind\":\"midgame\",\"eval_depth\":4"),
        "{json}"
    );
    let pos = Position::START
        .replay(parse_moves(deep).unwrap())
        .unwrap()
        .end;
    assert_eq!(
        json.matches("\"eval\":").count(),
        pos.board.legal_moves().count() as usize,
        "{json}"
    );
    assert!(!json.contains("\"eval\":null"), "{json}");
    let rows = explore_eval_rows(&book, deep, "4");
    assert!(rows.iter().all(|r| r.1 == Some(0)), "{rows:?}");
    // Near the end the scores are exact disc differences.
    let near_end = stdout(
        othbook()
            .args(["explore", "--depth", "20", "--book"])
            .arg(&book)
            .args([
                "--position",
                "--XXXXX--OOOXX-O-OOOOXOXOOOOXXOXXOOOOOXXXOOOOOXXXXOXXXXXXXXXXXXX X",
            ]),
    );
    assert!(
        near_end.contains("exact final disc difference"),
        "{near_end}"
    );
    // A finished game has nothing to score; without --depth, --threads is refused.
    let over = format!("{} X", "X".repeat(64));
    let tsv = stdout(
        othbook()
            .args([
                "explore",
                "--depth",
                "4",
                "--format",
                "tsv",
                "--position",
                &over,
                "--book",
            ])
            .arg(&book),
    );
    assert_eq!(tsv.trim_end().lines().count(), 1, "{tsv}");
    assert!(tsv.ends_with("\teval\topening\n"), "{tsv}");
    othbook()
        .args(["explore", "f5", "--threads", "2", "--book"])
        .arg(&book)
        .assert()
        .code(2);
    othbook()
        .args(["explore", "f5", "--depth", "61", "--book"])
        .arg(&book)
        .assert()
        .code(2);
}

#[test]
fn explore_depth_says_when_the_book_left_a_move_out_below_its_minimum() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("w.book");
    build_cli(
        &[WTHOR_2020, WTHOR_2021],
        &book,
        &["--plies", "20", "--min-games", "3"],
    );
    // Some moves here were played once or twice: not "0 games" but "fewer than 3".
    let line = "f5d6c3d3c4f4f6f3e6e7";
    let rows = explore_eval_rows(&book, line, "4");
    assert!(rows.iter().any(|r| r.1.is_none()), "{rows:?}");
    assert!(rows.iter().all(|r| r.1 != Some(0)), "{rows:?}");
    let table = stdout(
        othbook()
            .args(["explore", line, "--depth", "4", "--book"])
            .arg(&book),
    );
    assert!(table.contains("     <3 "), "{table}");
    assert!(
        table.contains("<3: the book leaves out moves played in fewer than 3 games"),
        "{table}"
    );
    let json = stdout(
        othbook()
            .args([
                "explore", line, "--depth", "4", "--format", "json", "--book",
            ])
            .arg(&book),
    );
    assert!(json.contains("\"book_min_games\":3"), "{json}");
    assert!(json.contains("\"games\":null"), "{json}");
}

/// A drawn move with white to move showed as `-0` (black minus white of a 0).
#[test]
fn regression_explore_depth_showed_a_draw_as_minus_zero() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("w.book");
    build_cli(&[WTHOR_2021], &book, &["--plies", "8"]);
    // FFO #10, white to move: F1 draws.
    let ffo10 = "-XXXX-----OXXX--XOXOXOXXOXOXXOXXOXXOXOOOXXXOXOOX--OXXO---OOOOO-- O";
    let run = |format: &str| {
        stdout(
            othbook()
                .args([
                    "explore",
                    "--depth",
                    "20",
                    "--threads",
                    "1",
                    "--format",
                    format,
                ])
                .args(["--position", ffo10, "--book"])
                .arg(&book),
        )
    };
    let table = run("table");
    let f1 = table.lines().find(|l| l.starts_with("f1 ")).unwrap();
    assert!(f1.ends_with(" +0"), "{table}");
    let tsv = run("tsv");
    assert!(
        tsv.lines()
            .any(|l| l.starts_with("f1\t") && l.split('\t').nth(8) == Some("0")),
        "{tsv}"
    );
    let json = run("json");
    assert!(json.contains("\"move\":\"f1\","), "{json}");
    assert!(!json.contains("-0.00"), "{json}");
}

/// Regression: an installed binary looked for the default book only beside the caller and in
/// the source tree it was built from, so away from a clone it had none. Run from a folder
/// without `books/`, it now finds a book in the data folder before the source tree's.
#[test]
fn regression_installed_binary_did_not_find_the_default_book() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(data.join("othbook")).unwrap();
    let book = data.join("othbook/wthor.book");
    build_cli(&[WTHOR_2021], &book, &["--plies", "12"]);
    let explore = |env: (&str, &Path)| {
        let mut cmd = othbook();
        cmd.current_dir(dir.path())
            .env_remove("OTHBOOK_BOOK")
            .env(env.0, env.1)
            .args(["explore", "f5"]);
        stdout(&mut cmd)
    };
    for env in [("XDG_DATA_HOME", data.as_path()), ("OTHBOOK_BOOK", &book)] {
        let out = explore(env);
        assert!(out.contains("\n320 games"), "{env:?}: {out}");
    }
    let home = dir.path().join("home");
    std::fs::create_dir_all(home.join(".local/share")).unwrap();
    std::fs::rename(data.join("othbook"), home.join(".local/share/othbook")).unwrap();
    let mut cmd = othbook();
    cmd.current_dir(dir.path())
        .env_remove("OTHBOOK_BOOK")
        .env_remove("XDG_DATA_HOME")
        .env("HOME", &home)
        .args(["explore", "f5"]);
    let out = stdout(&mut cmd);
    assert!(out.contains("\n320 games"), "HOME: {out}");
}

#[test]
fn regression_merge_printed_rust_structures_when_options_differ() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.book"), dir.path().join("b.book"));
    build_cli(&[WTHOR_2021], &a, &["--plies", "12"]);
    build_cli(&[WTHOR_2021], &b, &["--plies", "13", "--complete-only"]);
    let out = othbook()
        .args(["merge", "-o"])
        .arg(dir.path().join("ab.book"))
        .arg(&a)
        .arg(&b)
        .assert()
        .failure()
        .get_output()
        .stderr
        .clone();
    let msg = String::from_utf8(out).unwrap();
    assert!(!msg.contains("BuildOptions") && !msg.contains('{'), "{msg}");
    assert!(
        msg.contains("b.book was built with other options than")
            && msg.contains("--plies 13 (")
            && msg.contains("a.book: 12)")
            && msg.contains("--complete-only given (")
            && msg.contains("a.book: not given)"),
        "{msg}"
    );
}

#[test]
fn regression_damaged_book_header_printed_a_bincode_error() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.book");
    build_cli(&[WTHOR_2021], &good, &["--plies", "8"]);
    let bytes = std::fs::read(&good).unwrap();
    let bad = dir.path().join("bad.book");
    let mut damaged_header = 0;
    // Every byte of the start of the header (creation time, build options, counts).
    for at in 40..72 {
        let mut b = bytes.clone();
        b[at] = 0xfe;
        std::fs::write(&bad, &b).unwrap();
        let out = othbook().arg("info").arg(&bad).assert().code(1);
        let msg = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(
            !msg.contains('{') && !msg.contains("Variant") && !msg.contains("Utf8"),
            "byte {at}: {msg}"
        );
        if msg.contains("damaged header: the ") {
            damaged_header += 1;
        }
    }
    assert!(damaged_header > 3, "{damaged_header}");
}

#[test]
fn regression_info_showed_the_creation_time_in_unix_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("w.book");
    build_cli(&[WTHOR_2021], &book, &["--plies", "8"]);
    let info = stdout(othbook().arg("info").arg(&book));
    assert!(
        info.contains("created        2022-01-01T00:00:00Z\n"),
        "{info}"
    );
    let json = stdout(othbook().args(["info", "--format", "json"]).arg(&book));
    assert!(
        json.contains("\"created\":1640995200,\"created_utc\":\"2022-01-01T00:00:00Z\""),
        "{json}"
    );
}

/// `top` lines: (moves, games) per row of the TSV output.
fn top_rows(book: &Path, args: &[&str]) -> Vec<(String, u64)> {
    let text = stdout(
        othbook()
            .arg("top")
            .args(args)
            .args(["--format", "tsv", "--book"])
            .arg(book),
    );
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].parse().unwrap())
        })
        .collect()
}

#[test]
fn regression_top_refused_a_starting_line_and_ranked_lines_of_few_games_first() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("w.book");
    build_cli(&[WTHOR_2021, WTHOR_2020], &book, &["--plies", "10"]);
    // From a line, in its orientation: the same lines as the unfiltered list with that first
    // move, in the same order.
    for (start, first) in [("d3 c3", "d3"), ("f5d6", "f5"), ("E6 F4 e3", "e6")] {
        let compact: String = start.split(' ').collect::<String>().to_lowercase();
        let from = top_rows(&book, &[start, "--plies", "6", "--limit", "1000"]);
        let all: Vec<(String, u64)> = top_rows(
            &book,
            &["--plies", "6", "--limit", "100000", "--first", first],
        )
        .into_iter()
        .filter(|(l, _)| l.starts_with(&compact))
        .collect();
        assert!(!from.is_empty(), "{start}");
        assert_eq!(from, all, "{start}");
    }
    // --by score leaves out lines of few games unless told otherwise.
    let by_score = top_rows(&book, &["--plies", "4", "--by", "score"]);
    assert!(!by_score.is_empty());
    assert!(by_score.iter().all(|(_, g)| *g >= 100), "{by_score:?}");
    let few = top_rows(
        &book,
        &["--plies", "4", "--by", "score", "--min-games", "1"],
    );
    assert!(few.iter().any(|(_, g)| *g < 100), "{few:?}");
    let five = top_rows(&book, &["f5", "--plies", "6", "--min-games", "5"]);
    assert!(
        five.iter().all(|(l, g)| *g >= 5 && l.starts_with("f5")),
        "{five:?}"
    );
    // A line the book does not have, and one as long as --plies.
    let none = stdout(
        othbook()
            .args(["top", "f5d6c5f4e3f6g5", "--plies", "9", "--book"])
            .arg(&book),
    );
    assert!(
        none.contains("No line of 9 plies starting f5d6c5f4e3f6g5"),
        "{none}"
    );
    othbook()
        .args(["top", "f5", "d6", "--plies", "2", "--book"])
        .arg(&book)
        .assert()
        .code(2);
}

/// `othbook info` needed a file: without one it now reads the default book and says which
/// file that is and where it was found.
#[test]
fn regression_info_needed_a_file_and_hid_the_default_book() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("named.book");
    othbook()
        .args(["build", "fixtures/transcripts/logistello.gam", "-o"])
        .arg(&book)
        .assert()
        .success();
    let out = othbook()
        .arg("info")
        .env("OTHBOOK_BOOK", &book)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("named.book"), "{text}");
    assert!(text.contains("named by $OTHBOOK_BOOK"), "{text}");
    let missing = dir.path().join("none.book");
    othbook()
        .arg("info")
        .env("OTHBOOK_BOOK", &missing)
        .assert()
        .code(1);
}
