//! `othbook games stats|convert` end to end: output formats, exit codes, summary on stderr.

use assert_cmd::Command;

const FIX: &str = "fixtures/transcripts";

fn othbook() -> Command {
    Command::cargo_bin("othbook").unwrap()
}

fn fix(name: &str) -> String {
    format!("{FIX}/{name}")
}

fn stdout_of(args: &[&str]) -> String {
    let out = othbook().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
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
    assert!(
        json.contains("\"ggf\": {\"games\": 4, \"complete\": 3, \"incomplete\": 1"),
        "{json}"
    );
    assert!(json.contains("\"failed_files\": []"), "{json}");
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
        assert!(
            json.contains("\"total\": {\"games\": 5, \"complete\": 4"),
            "{to}: {json}"
        );
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
    assert!(json.contains("\"pgn\": {\"games\": 6"), "{json}");
}
