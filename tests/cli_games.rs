//! `othbook games stats|convert` end to end: output formats, exit codes, summary on stderr.

mod common;

use common::{copy_fixtures, fix, othbook, run_in, stdout_of};
use othbook::report::GameStatsReport;

/// A `games stats --format json` answer, parsed back into its report.
fn stats_report(json: &str) -> GameStatsReport {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"))
}

/// The figures of one group (a format or `total`).
fn group<'a>(r: &'a GameStatsReport, name: &str) -> &'a othbook::report::FormatStats {
    &r.groups.iter().find(|g| g.0 == name).unwrap().1
}

#[test]
fn stats_tsv_counts_per_format_and_total() {
    let tsv = stdout_of(&[
        "games",
        "stats",
        &fix("logistello.gam"),
        &fix("games.pgn"),
        &fix("bad.gam"),
        "--format",
        "tsv",
        "-q",
    ]);
    let get = |group: &str, section: &str, key: &str| -> u64 {
        tsv.lines()
            .find_map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (f[..3] == [group, section, key]).then(|| f[3].parse().unwrap())
            })
            .unwrap_or(0)
    };
    assert_eq!(get("gam", "games", "games"), 8);
    assert_eq!(get("gam", "games", "incomplete"), 1);
    assert_eq!(get("pgn", "games", "games"), 6);
    assert_eq!(get("total", "games", "games"), 14);
    assert_eq!(get("gam", "skipped", "illegal move"), 1);
    assert_eq!(get("total", "skipped", "unreadable record"), 2);
    assert_eq!(get("pgn", "first_move", "c4"), 2);
    // P1 and P2 fill the board, E1 and E2 end with 1 and 2 empty squares.
    assert_eq!(get("total", "length", "60"), 6);
    assert_eq!(get("gam", "length", "59"), 2);
}

#[test]
fn stats_json_and_table() {
    let json = stdout_of(&[
        "games",
        "stats",
        &fix("games.ggf"),
        "--format",
        "json",
        "-q",
    ]);
    let r = stats_report(&json);
    let ggf = group(&r, "ggf");
    assert_eq!(
        (ggf.games, ggf.complete, ggf.incomplete),
        (4, 3, 1),
        "{json}"
    );
    assert!(r.failed_files.is_empty(), "{json}");
    // Formats first, the total last; every game in one of each table.
    assert_eq!(r.groups.last().unwrap().0, "total");
    let t = group(&r, "total");
    let results = t.results.black + t.results.draw + t.results.white + t.results.unknown;
    assert_eq!(
        (results, t.lengths.values().sum::<u64>()),
        (t.games, t.games)
    );
    let table = stdout_of(&["games", "stats", &fix("games.ggf")]);
    assert!(table.starts_with("format"), "{table}");
    assert!(table.contains("first move:"), "{table}");
}

#[test]
fn summary_goes_to_stderr_and_bad_files_exit_1() {
    let out = othbook()
        .args(["games", "stats", &fix("bad.gam"), &fix("nope.pgn")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("7 games read, 3 accepted, 4 skipped"), "{err}");
    assert!(err.contains("nope.pgn: cannot open"), "{err}");
    assert!(err.contains("bad.gam:2: ply 4: move c3"), "{err}");
    // The statistics of the readable file are still printed.
    assert!(String::from_utf8_lossy(&out.stdout).contains("gam"));
}

#[test]
fn strict_stops_with_exit_1() {
    let out = othbook()
        .args(["games", "stats", "--strict", &fix("bad.gam")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.gam:2: ply 4: move c3: illegal"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn convert_to_every_format_and_back() {
    let dir = tempfile::tempdir().unwrap();
    for (to, name) in [
        ("gam", "a.gam"),
        ("moves", "a.txt"),
        ("pgn", "a.pgn"),
        ("wtb", "a.wtb"),
    ] {
        let path = dir.path().join(name);
        othbook()
            .args(["games", "convert", &fix("logistello.gam"), "--to", to, "-o"])
            .arg(&path)
            .assert()
            .success();
        let json = stdout_of(&[
            "games",
            "stats",
            path.to_str().unwrap(),
            "--format",
            "json",
            "-q",
        ]);
        let total = group(&stats_report(&json), "total").clone();
        assert_eq!((total.games, total.complete), (5, 4), "{to}: {json}");
    }
    let moves = stdout_of(&[
        "games",
        "convert",
        &fix("unsigned.gam"),
        "--to",
        "moves",
        "-o",
        "-",
        "-q",
    ]);
    assert_eq!(moves.lines().count(), 3);
    assert!(moves.lines().nth(1).unwrap().ends_with(" +20"), "{moves}");
}

#[test]
fn bad_arguments_exit_2() {
    othbook()
        .args([
            "games",
            "convert",
            &fix("games.ggf"),
            "--to",
            "csv",
            "-o",
            "x.csv",
        ])
        .assert()
        .code(2);
    othbook()
        .args([
            "games",
            "convert",
            &fix("games.ggf"),
            "--to",
            "wtb",
            "-o",
            "-",
        ])
        .assert()
        .code(2);
    othbook()
        .args(["games", "stats", "--from", "chess", &fix("games.ggf")])
        .assert()
        .code(2);
    othbook().args(["games", "stats"]).assert().code(2);
}

#[test]
fn from_overrides_the_extension() {
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("games.dat");
    std::fs::copy(fix("games.pgn"), &odd).unwrap();
    let json = stdout_of(&[
        "games",
        "stats",
        "--from",
        "pgn",
        odd.to_str().unwrap(),
        "--format",
        "json",
        "-q",
    ]);
    assert_eq!(group(&stats_report(&json), "pgn").games, 6, "{json}");
}

/// Runs othbook in `dir` and returns (exit code, stdout, stderr).
#[test]
fn regression_wtb_output_overwrote_the_folders_player_and_tournament_names() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_fixtures(d, &["WTH_2001.wtb", "WTHOR.JOU", "WTHOR.TRN", "games.pgn"]);
    let as_pgn = |file: &str| {
        let (code, out, err) = run_in(
            d,
            &["games", "convert", "-q", file, "--to", "pgn", "-o", "-"],
        );
        assert_eq!(code, Some(0), "{err}");
        out
    };
    let before = as_pgn("WTH_2001.wtb");
    let jou = std::fs::read(d.join("WTHOR.JOU")).unwrap();
    let trn = std::fs::read(d.join("WTHOR.TRN")).unwrap();
    // Another file of the same folder, and the same file rewritten in place.
    let (code, _, err) = run_in(
        d,
        &[
            "games",
            "convert",
            "games.pgn",
            "--to",
            "wtb",
            "-o",
            "mine.wtb",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run_in(
        d,
        &[
            "games",
            "convert",
            "WTH_2001.wtb",
            "--to",
            "wtb",
            "-o",
            "copy.wtb",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(as_pgn("copy.wtb"), before, "the copy's names differ");
    assert_eq!(
        as_pgn("WTH_2001.wtb"),
        before,
        "the names of the folder's games changed"
    );
    // The new names come after the old ones, which stay byte for byte.
    let jou2 = std::fs::read(d.join("WTHOR.JOU")).unwrap();
    let trn2 = std::fs::read(d.join("WTHOR.TRN")).unwrap();
    assert!(jou2.len() > jou.len() && jou2[16..jou.len()] == jou[16..]);
    assert!(trn2.len() > trn.len() && trn2[16..trn.len()] == trn[16..]);
    let mine = as_pgn("mine.wtb");
    assert!(
        mine.contains("[Event \"Fixture Open\"]") && mine.contains("[White \"Bob\"]"),
        "{mine}"
    );
}

#[test]
fn regression_winner_only_results_became_draws_in_pgn_and_wthor() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("r.pgn"),
        "[Event \"a\"]\n[Result \"1-0\"]\n1. f5 d6 2. c3 1-0\n",
    )
    .unwrap();
    std::fs::write(d.join("w.csv"), "moves,winner\nf5d6c3d3c4,-1\n").unwrap();
    std::fs::write(d.join("m.txt"), "f5d6c3 1-0\n").unwrap();
    let (code, out, err) = run_in(
        d,
        &["games", "convert", "-q", "r.pgn", "--to", "pgn", "-o", "-"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("[Result \"1-0\"]"), "{out}");
    let (code, out, _) = run_in(
        d,
        &[
            "games", "convert", "-q", "m.txt", "--to", "moves", "-o", "-",
        ],
    );
    assert_eq!((code, out.as_str()), (Some(0), "f5d6c3 1-0\n"));
    let (code, _, err) = run_in(
        d,
        &["games", "convert", "w.csv", "--to", "wtb", "-o", "w.wtb"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("widened by one disc"), "{err}");
    let (_, out, _) = run_in(d, &["games", "stats", "-q", "w.wtb", "--format", "tsv"]);
    assert!(out.contains("total\tgames\twhite_wins\t1"), "{out}");
}

#[test]
fn regression_unreadable_inputs_still_gave_a_book_and_emptied_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_fixtures(d, &["logistello.gam"]);
    std::fs::create_dir(d.join("folder.gam")).unwrap();
    std::fs::write(d.join("keep.book"), "precious").unwrap();
    std::fs::write(d.join("keep.pgn"), "precious").unwrap();
    let (code, _, err) = run_in(
        d,
        &["build", "folder.gam", "logistello.gam", "-o", "keep.book"],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("no book written") && err.contains("folder.gam: is a folder, not a game file"),
        "{err}"
    );
    let (code, _, err) = run_in(
        d,
        &[
            "games",
            "convert",
            "-q",
            "missing.gam",
            "logistello.gam",
            "--to",
            "pgn",
            "-o",
            "keep.pgn",
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    // Quiet mode hides the summary, not the reason.
    assert!(
        err.contains("nothing written") && err.contains("missing.gam: cannot open"),
        "{err}"
    );
    for f in ["keep.book", "keep.pgn"] {
        assert_eq!(
            std::fs::read_to_string(d.join(f)).unwrap(),
            "precious",
            "{f}"
        );
    }
    // No temporary file is left behind.
    assert_eq!(std::fs::read_dir(d).unwrap().count(), 4);
}

#[test]
fn regression_build_overwrote_its_input_and_counted_a_file_twice() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_fixtures(d, &["logistello.gam"]);
    let original = std::fs::read(d.join("logistello.gam")).unwrap();
    let (code, _, err) = run_in(d, &["build", "logistello.gam", "-o", "logistello.gam"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("would destroy the input"), "{err}");
    assert_eq!(std::fs::read(d.join("logistello.gam")).unwrap(), original);
    let (code, _, err) = run_in(
        d,
        &[
            "build",
            "logistello.gam",
            "./logistello.gam",
            "-o",
            "b.book",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("are the same file"), "{err}");
    let (code, _, err) = run_in(d, &["games", "stats", "logistello.gam", "logistello.gam"]);
    assert_eq!(code, Some(2), "{err}");
    // --player-side alone filtered nothing but was stored, and then stopped merges.
    let (code, _, err) = run_in(
        d,
        &[
            "build",
            "logistello.gam",
            "-o",
            "b.book",
            "--player-side",
            "black",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--player-side needs --player"), "{err}");
}
