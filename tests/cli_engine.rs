//! `othbook solve`, `analyze` and `bench` from the outside: output, checks against the FFO
//! file, and exit code 2 for bad input.

mod common;
use common::{othbook, stdout_of};

const FFO: &str = "../shared/data/ffo/ffo.obf";

fn fails_with_2(args: &[&str], needle: &str) -> String {
    let out = othbook().args(args).output().expect("runs");
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(needle), "{args:?}: {err}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn solve_checks_results_against_the_file() {
    assert!(std::path::Path::new(FFO).exists(), "missing {FFO}");
    let out = stdout_of(&["solve", FFO, "--lines", "1-3", "--threads", "2"]);
    assert!(out.contains("3 of 3 match the file"), "{out}");
    assert_eq!(
        out.lines().filter(|l| l.contains(" ok ")).count(),
        3,
        "{out}"
    );
    let wld = stdout_of(&["solve", FFO, "--lines", "2", "--wld"]);
    assert!(wld.contains("win") && wld.contains("1 of 1 match"), "{wld}");
    // Every move of FFO #27 loses: any of them is a right win/draw/loss answer.
    let lost = stdout_of(&["solve", FFO, "--lines", "27", "--wld", "--threads", "1"]);
    assert!(
        lost.contains("loss") && lost.contains("1 of 1 match"),
        "{lost}"
    );
}

#[test]
fn solve_reads_an_inline_position() {
    let line = std::fs::read_to_string(FFO).expect("FFO file");
    let board = line
        .lines()
        .next()
        .expect("line 1")
        .split(';')
        .next()
        .expect("board");
    let out = stdout_of(&["solve", board.trim(), "--threads", "1"]);
    assert!(out.contains("+18") && out.contains("g8"), "{out}");
}

#[test]
fn analyze_prints_iterations_and_a_best_move() {
    let out = stdout_of(&[
        "analyze",
        "f5d6c3",
        "--depth",
        "6",
        "--threads",
        "1",
        "--multipv",
        "2",
    ]);
    for d in 1..=6 {
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with(&format!("{d} "))),
            "no depth {d}: {out}"
        );
    }
    assert!(out.contains("best: "), "{out}");
    let exact = stdout_of(&["analyze", "--position", &first_ffo_board(), "--exact"]);
    assert!(
        exact.contains("best: g8 +18 ±0, black wins 100% (exact"),
        "{exact}"
    );
}

fn first_ffo_board() -> String {
    let text = std::fs::read_to_string(FFO).expect("FFO file");
    text.lines()
        .next()
        .expect("line")
        .split(';')
        .next()
        .expect("board")
        .trim()
        .to_string()
}

#[test]
fn analyze_says_when_the_side_to_move_passes() {
    let pos = format!("OX{} X", "-".repeat(62));
    let out = stdout_of(&["analyze", "--position", &pos, "--depth", "4"]);
    assert!(
        out.contains("has no legal move: analysing the pass"),
        "{out}"
    );
    assert!(out.contains("best: pass"), "{out}");
}

/// A finished game late in an OBF file stopped `solve` only when its turn came, after the
/// solves before it had run and been printed.
#[test]
fn regression_solve_found_a_finished_game_only_after_solving_the_positions_before_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("two.obf");
    let first = std::fs::read_to_string(FFO)
        .expect("FFO file")
        .lines()
        .next()
        .expect("FFO #1")
        .to_string();
    let finished = format!("{} X;", "X".repeat(64));
    std::fs::write(&file, format!("{first}\n{finished}\n")).expect("write");
    let out = othbook()
        .args(["solve", file.to_str().expect("utf-8 path")])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("two.obf:2: the game is over"),
        "{out:?}"
    );
    assert!(out.stdout.is_empty(), "solved before failing: {out:?}");
}

#[test]
fn bad_input_exits_with_2() {
    fails_with_2(&["analyze", "--depth", "0"], "out of range");
    fails_with_2(&["analyze", "--depth", "61"], "out of range");
    fails_with_2(&["analyze", "--time", "0"], "out of range");
    fails_with_2(&["analyze", "--time", "-3"], "out of range");
    fails_with_2(&["analyze", "--position", "XXO X"], "invalid --position");
    fails_with_2(&["analyze", "f5f5"], "illegal");
    fails_with_2(&["analyze", "--algo", "magic"], "unknown algorithm");
    fails_with_2(&["analyze", "--algo", "minimax"], "retired from the engine");
    fails_with_2(&["analyze", "--algo", "alphabeta"], "othbook teach");
    let full = format!("{} X", "X".repeat(64));
    fails_with_2(&["analyze", "--position", &full], "game is over");
    fails_with_2(&["solve", &full], "game is over");
    fails_with_2(
        &["solve", "not-a-file-nor-a-position"],
        "neither an existing file",
    );
    fails_with_2(&["solve", FFO, "--lines", "9-3"], "--lines");
    // A range past the end ran what there was (FFO #58-#59, minutes) instead of failing.
    fails_with_2(&["solve", FFO, "--lines", "58-70"], "has 59 lines");
    fails_with_2(&["solve", FFO, "--threads", "0"], "--threads");
}

/// Regression: `--time 1e300` printed the value as 300 digits in its error message.
#[test]
fn regression_time_1e300_echoed_300_digits() {
    for cmd in ["analyze", "gtp", "nboard"] {
        let out = othbook()
            .args([cmd, "--time", "1e300"])
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{cmd}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("1e300") && !err.contains("00000"),
            "{cmd}: {err}"
        );
    }
}

#[test]
fn solve_names_the_file_and_line_of_a_bad_record() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("bad.obf");
    let good = first_ffo_board();
    std::fs::write(&path, format!("{good}; G8:+18;\n{}\n", &good[..40])).expect("write");
    let p = path.to_str().expect("utf-8 path");
    let out = othbook().args(["solve", p]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.obf:2"), "{err}");
}

/// Regression: a score for an illegal move in an OBF file was reported as a WRONG result
/// after the solve instead of as a mistake in the file.
#[test]
fn regression_obf_score_for_an_illegal_move_reported_as_wrong_result() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("illegal.obf");
    let good = first_ffo_board();
    // A1 is empty in FFO #1 but flips nothing.
    std::fs::write(&path, format!("{good}; G8:+18; A1:+10;\n")).expect("write");
    let out = othbook()
        .args(["solve", path.to_str().expect("utf-8 path")])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("illegal.obf:1") && err.contains("a1 is not a legal move"),
        "{err}"
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).is_empty(),
        "nothing solved"
    );
}

/// Regression: `--threads 1000` turned `analyze --time 1` into 17 s; counts beyond what the
/// machine can use are capped, and the user is told.
#[test]
fn regression_threads_1000_made_analyze_time_1_take_17_s() {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let out = othbook()
        .args(["analyze", "--threads", "1000", "--depth", "2", "--no-book"])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let best = stdout
        .lines()
        .find(|l| l.starts_with("best:"))
        .expect("best line");
    assert!(best.contains(&format!(" {} threads)", 4 * cores)), "{best}");
    assert!(stderr.contains("searching with"), "{stderr}");
}

/// Regression: `solve` or `analyze --exact` of the start position ran for ever, silently.
#[test]
fn regression_solve_of_the_start_position_ran_for_ever() {
    let start = othbook::board::Position::START.to_string();
    fails_with_2(&["solve", &start], "--force");
    fails_with_2(&["solve", &start, "--wld"], "60 empties");
    fails_with_2(&["analyze", "--exact", "--no-book"], "--force");
    fails_with_2(&["analyze", "--wld", "--no-book"], "60 empties");
}

#[test]
fn analyze_probes_the_book_before_searching() {
    let out = othbook()
        .args(["analyze", "f5", "--depth", "4"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let book_at = text.find("book: ").expect("book statistics shown");
    let search_at = text.find("depth    score").expect("search header");
    assert!(book_at < search_at, "{text}");
    assert!(text.contains("d6") && text.contains("games"), "{text}");

    let out = othbook()
        .args(["analyze", "f5", "--depth", "4", "--no-book"])
        .output()
        .unwrap();
    assert!(!String::from_utf8(out.stdout).unwrap().contains("book:"));

    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.book");
    std::fs::write(&bad, b"not a book at all").unwrap();
    let out = othbook()
        .args([
            "analyze",
            "f5",
            "--depth",
            "2",
            "--book",
            bad.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

/// `bench` read its FFO file only after the midgame part and never checked the solves: a
/// missing file failed late, and a wrong score passed.
#[test]
fn regression_bench_checked_its_ffo_file_late_and_its_answers_never() {
    let dir = tempfile::tempdir().expect("tempdir");
    let short = dir.path().join("short.obf");
    std::fs::write(&short, "x\n").expect("write");
    let out = fails_with_2(
        &["bench", "--ffo", short.to_str().expect("utf-8")],
        "has no line 40",
    );
    // Nothing was searched (the table's heading comes after the file is read).
    assert!(out.is_empty(), "the midgame part ran first: {out}");
    // FFO #40 is +38 (a2); with a2 made +20, the best the file gives is c7's +36.
    let text = std::fs::read_to_string(FFO).expect("FFO file");
    let wrong: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 39 {
                l.replace("A2:+38", "A2:+20")
            } else {
                l.to_string()
            }
        })
        .collect();
    assert_ne!(wrong[39], text.lines().nth(39).expect("line 40"));
    let path = dir.path().join("wrong.obf");
    std::fs::write(&path, wrong.join("\n")).expect("write");
    let out = othbook()
        .args(["bench", "--ffo", path.to_str().expect("utf-8")])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("FFO #40: solved as +38, the file says +36"),
        "{err}"
    );
}

/// `analyze f5 d6 c3` was refused while `explore f5 d6 c3` worked.
#[test]
fn regression_analyze_refused_moves_given_as_separate_words() {
    let best = |args: &[&str]| {
        stdout_of(args)
            .lines()
            .find(|l| l.starts_with("best:"))
            .map(|l| l.split(" nodes").next().unwrap_or(l).to_string())
            .expect("a best line")
    };
    let common = ["--depth", "4", "--threads", "1", "--no-book"];
    let joined = best(&[&["analyze", "f5d6c3"][..], &common].concat());
    let words = best(&[&["analyze", "f5", "d6", "c3"][..], &common].concat());
    assert_eq!(joined, words);
}

/// Regression: `solve /dev/zero`, `match --openings /dev/zero` and `bench --ffo /dev/zero`
/// read the device until memory ran out (the 2 GB cap turns that into a quick failure); text
/// inputs may be pipes, so they are read up to 256 MiB and refused beyond.
#[test]
fn regression_solve_dev_zero_read_forever() {
    for args in [
        &["solve", "/dev/zero"][..],
        &[
            "match",
            "--black",
            "random",
            "--white",
            "random",
            "--openings",
            "/dev/zero",
        ],
        &["bench", "--ffo", "/dev/zero"],
    ] {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 2000000 && exec \"$0\" \"$@\"")
            .arg(assert_cmd::cargo::cargo_bin("othbook"))
            .args(args)
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("/dev/zero: larger than 268435456 bytes"),
            "{args:?}: {err}"
        );
    }
}

/// A score the search proved (a wipe-out found at depth 4) was printed like an evaluation,
/// `+64.00`; final disc differences are whole discs wherever scores are shown.
#[test]
fn regression_a_wipe_out_was_shown_as_a_fraction_of_a_disc() {
    let line = "d3c3b3d2e1d6d7e3";
    let out = stdout_of(&[
        "analyze",
        line,
        "--depth",
        "4",
        "--no-book",
        "--threads",
        "1",
    ]);
    // A wipe-out found by the search is a proven result: no error, certain chances.
    assert!(
        out.contains("best: f4 +64 ±0, black wins 100% (depth 4)"),
        "{out}"
    );
    assert!(!out.contains("64.00"), "{out}");
    let out = stdout_of(&["explore", line, "--depth", "4", "--threads", "1"]);
    let f4 = out.lines().find(|l| l.starts_with("f4 ")).expect("f4 row");
    assert!(f4.ends_with(" +64"), "{out}");
    // Evaluations keep their hundredths.
    assert!(
        out.lines().any(|l| l.starts_with("f2 ") && l.contains('.')),
        "{out}"
    );
    let tsv = stdout_of(&[
        "explore",
        line,
        "--depth",
        "4",
        "--threads",
        "1",
        "--format",
        "tsv",
    ]);
    let f4 = tsv.lines().find(|l| l.starts_with("f4\t")).expect("f4 row");
    // The eval column, before the opening (last).
    assert_eq!(f4.rsplit('\t').nth(1), Some("64"), "{tsv}");
}

/// `bench --ffo-range` solves the positions asked for, with their totals, and checks the
/// range and the file before any search.
#[test]
fn bench_solves_a_chosen_ffo_range() {
    let out = stdout_of(&[
        "bench",
        "--ffo",
        FFO,
        "--ffo-range",
        "1-2",
        "--threads",
        "2",
    ]);
    for want in [
        "FFO #1 ",
        "FFO #2 ",
        "(FFO #1-#2, 2 positions)",
        "2 threads, FFO #1-#2",
    ] {
        assert!(out.contains(want), "{want}: {out}");
    }
    assert!(!out.contains("FFO #3 "), "{out}");
    for (range, needle) in [("44-40", "expected N or N-M"), ("0", "expected N or N-M")] {
        fails_with_2(&["bench", "--ffo", FFO, "--ffo-range", range], needle);
    }
    let out = fails_with_2(
        &["bench", "--ffo", FFO, "--ffo-range", "59-60"],
        "has no line 60",
    );
    assert!(out.is_empty(), "searched first: {out}");
}

/// `calibrate probcut --eval W` measures with W's weights: its table differs from the
/// embedded weights' on the same positions and says which weights it belongs to; a bad
/// weight file fails before any work and writes nothing.
#[test]
fn calibrate_probcut_measures_the_weights_it_is_given() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = |name: &str| dir.path().join(name).to_str().expect("utf-8").to_string();
    let games = "../shared/data/wthor/WTH_2021.wtb";
    assert!(std::path::Path::new(games).exists(), "missing {games}");
    let run = |args: &[&str]| {
        let out = othbook().args(args).output().expect("runs");
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "{args:?}: {err}");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    run(&[
        "train",
        "label",
        games,
        "--every",
        "20",
        "--per-game",
        "2",
        "--depth",
        "2",
        "--exact",
        "12",
        "--out",
        &d("l.txt"),
    ]);
    run(&[
        "train",
        "--labels",
        &d("l.txt"),
        "--lambda",
        "0.01",
        "--out",
        &d("w.bin"),
    ]);
    // One position per band is too few to fit (every fit is written as one that never
    // cuts), but the measured samples show which weights searched them.
    let small = ["--positions", "1", "--end-positions", "1", "-o", "-"];
    let table = |eval: Option<&str>, samples: &str| {
        let mut args = vec!["calibrate", "probcut", games, "--samples", samples];
        args.extend(small);
        if let Some(e) = eval {
            args.extend(["--eval", e]);
        }
        let out = othbook().args(&args).output().expect("runs");
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "{args:?}: {err}");
        assert!(err.contains("will never cut"), "{err}");
        let measured = std::fs::read_to_string(samples).expect("samples written");
        (String::from_utf8_lossy(&out.stdout).to_string(), measured)
    };
    let (embedded, embedded_samples) = table(None, &d("s1.tsv"));
    let (other, other_samples) = table(Some(&d("w.bin")), &d("s2.tsv"));
    assert!(other.contains("; evaluation "), "{other}");
    assert!(
        !embedded.contains("a: 1.0000"),
        "a fit from one sample: {embedded}"
    );
    assert_ne!(
        embedded_samples, other_samples,
        "the same measurements for other weights"
    );
    let bad = othbook()
        .args([
            "calibrate",
            "probcut",
            games,
            "--eval",
            &d("l.txt"),
            "-o",
            &d("t.rs"),
        ])
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(1), "{err}");
    assert!(err.contains("not an othbook evaluation file"), "{err}");
    assert!(bad.stdout.is_empty(), "read the games first");
    assert!(!dir.path().join("t.rs").exists());
}

/// Regression: `calibrate probcut` on a missing file (or too few games) fitted nothing and
/// still overwrote the embedded table (src/engine/selectivity/table.rs by default).
#[test]
fn regression_calibrate_wrote_an_empty_table_from_a_missing_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let table = dir.path().join("table.rs");
    let table_arg = table.to_str().expect("utf-8 path");
    let out = othbook()
        .args([
            "calibrate",
            "probcut",
            "/nonexistent/games.wtb",
            "-o",
            table_arg,
        ])
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the table was not written"), "{err}");
    assert!(!table.exists(), "a table was written from no games");
    fails_with_2(
        &[
            "calibrate",
            "probcut",
            "../shared/data/pgn/WTH_2021.pgn",
            "-o",
            table_arg,
        ],
        "the table was not written",
    );
    assert!(!table.exists(), "a table was written from too few games");
}

/// Regression: `calibrate probcut -o` naming one of its game files overwrote the games with
/// the table.
#[test]
fn regression_calibrate_overwrote_its_games_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let games = dir.path().join("games.wtb");
    std::fs::copy("../shared/data/wthor/WTH_2021.wtb", &games).expect("WTH_2021.wtb");
    let g = games.to_str().expect("utf-8 path");
    fails_with_2(
        &["calibrate", "probcut", g, "-o", g],
        "writing it would destroy the input",
    );
    let same = std::fs::read(&games).unwrap()
        == std::fs::read("../shared/data/wthor/WTH_2021.wtb").unwrap();
    assert!(same, "the games file was overwritten");
}

/// `bench --quality --choice-positions`: a search as deep as the positions' empties solves
/// them, so its move is always best and loses nothing; a depth-1 search's share and loss
/// agree with each other (here at full width); empty counts out of range are refused before
/// any work.
#[test]
fn bench_move_choice_scores_a_solving_depth_as_perfect() {
    let wthor = "../shared/data/wthor";
    assert!(std::path::Path::new(wthor).exists(), "missing {wthor}");
    let out = stdout_of(&[
        "bench",
        "--quality",
        "--swing-positions",
        "0",
        "--accuracy-positions",
        "0",
        "--accuracy-depths",
        "1,14",
        "--choice-positions",
        "8",
        "--choice-empties",
        "14",
        "--selectivity",
        "exact",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["selectivity"].as_str(), Some("exact"));
    let c = &v["choice"];
    assert_eq!(
        (c["positions"].as_u64(), c["empties"].as_u64()),
        (Some(8), Some(14))
    );
    let by = c["by_depth"].as_array().expect("per depth");
    let at = |k: usize| {
        (
            by[k]["best"].as_f64().expect("share"),
            by[k]["loss"].as_f64().expect("loss"),
        )
    };
    assert_eq!(by[1]["depth"].as_u64(), Some(14));
    assert_eq!(at(1), (1.0, 0.0), "{out}");
    let (b, l) = at(0);
    assert!((0.0..=1.0).contains(&b) && l >= 0.0, "{out}");
    assert_eq!(b == 1.0, l == 0.0, "{out}");
    fails_with_2(
        &[
            "bench",
            "--quality",
            "--choice-positions",
            "1",
            "--choice-empties",
            "30",
        ],
        "--choice-empties",
    );
}

/// Regression: `bench` looked for its FFO file relative to the current folder only, so run
/// anywhere but beside the shared data (here a temporary folder) it failed. Now the source
/// tree's file is found too (here it has no line 60: read, nothing searched), and
/// `OTHBOOK_FFO` names another.
#[test]
fn regression_bench_found_its_ffo_file_only_beside_the_current_folder() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, out, err) = common::run_in(dir.path(), &["bench", "--ffo-range", "60"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("ffo.obf: has no line 60"), "{err}");
    assert!(out.is_empty(), "{out}");
    let mine = dir.path().join("mine.obf");
    let out = othbook()
        .current_dir(dir.path())
        .env("OTHBOOK_FFO", &mine)
        .arg("bench")
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("mine.obf"), "{err}");
}

#[test]
fn regression_bench_quality_found_the_wthor_folder_only_beside_the_current_folder() {
    let dir = tempfile::tempdir().expect("tempdir");
    let quick = [
        "bench",
        "--quality",
        "--swing-positions",
        "1",
        "--accuracy-positions",
        "1",
    ];
    let (code, out, err) = common::run_in(dir.path(), &quick);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("depth 12"), "{out}");
    let mine = dir.path().join("my-wthor");
    let out = othbook()
        .current_dir(dir.path())
        .env("OTHBOOK_WTHOR", &mine)
        .args(quick)
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("my-wthor"), "{err}");
}

/// `calibrate errors` and `calibrate chances` on a tiny input: a table of every band (errors)
/// and a model with its held-out reliability table (chances), written atomically where
/// asked; a fit of too few games is refused and writes nothing.
#[test]
fn calibrate_errors_and_chances_write_their_tables_from_a_tiny_input() {
    let dir = tempfile::tempdir().expect("tempdir");
    let games = "../shared/data/wthor/WTH_2021.wtb";
    assert!(std::path::Path::new(games).exists(), "missing {games}");
    let errors = dir.path().join("errors.rs");
    let out = othbook()
        .args(["calibrate", "errors", games, "--positions", "2"])
        .args(["--ref-depth", "4", "--gap", "2", "--end-depth", "3", "-o"])
        .arg(&errors)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = std::fs::read_to_string(&errors).expect("written");
    assert_eq!(table.matches("ErrorBand {").count(), 6, "{table}");
    assert!(table.contains("12 positions from 320 games"), "{table}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("empties 14-18: 2 positions"), "{stdout}");
    assert!(
        stdout.contains("empties 24-24: 2 positions, RMS error (discs) against the exact"),
        "{stdout}"
    );

    // Bands of one's own; bands that overlap are refused before anything is read.
    let out = othbook()
        .args(["calibrate", "errors", games, "--positions", "2"])
        .args(["--bands", "24,30-31", "--ref-depth", "4", "--gap", "2"])
        .args(["--end-depth", "3", "-o", "-"])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("ErrorBand; 2]"),
        "{stdout}"
    );
    assert!(stdout.contains("empties 30-31: 2 positions"), "{stdout}");
    let out = othbook()
        .args(["calibrate", "errors", games, "--bands", "24,20-30", "-o"])
        .arg(&errors)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("ascending and disjoint"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&errors).expect("kept"), table);

    let chances = dir.path().join("chances.rs");
    let out = othbook()
        .args([
            "calibrate",
            "chances",
            games,
            "--positions",
            "40",
            "--depth",
            "2",
            "-o",
        ])
        .arg(&chances)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let model = std::fs::read_to_string(&chances).expect("written");
    assert!(model.contains("draw_band:"), "{model}");
    assert!(model.contains("throw_per_ply:"), "{model}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("| predicted win | positions |"), "{stdout}");
    assert!(
        stdout.contains("chosen (best held-out log likelihood"),
        "{stdout}"
    );

    let few = dir.path().join("few.rs");
    let out = othbook()
        .args([
            "calibrate",
            "chances",
            "fixtures/transcripts/WTH_2001.wtb",
            "-o",
        ])
        .arg(&few)
        .output()
        .expect("runs");
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("the table was not written"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!few.exists());
}
