//! `othbook match`: games through the GTP client (othbook itself and gtp-rhino), CSV output.

use assert_cmd::Command;

fn othbook() -> Command {
    Command::cargo_bin("othbook").unwrap()
}

/// Runs `othbook ARGS`, checks that it succeeded, and returns its standard output.
fn run_ok(args: &[&str]) -> String {
    let out = othbook().args(args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{args:?}\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

fn rhino() -> &'static str {
    let path = "/usr/games/gtp-rhino";
    assert!(
        std::path::Path::new(path).exists(),
        "{path} is missing: install Debian's grhino package (.ci/run does)"
    );
    path
}

#[test]
fn othbook_gtp_through_the_gtp_client() {
    let me = env!("CARGO_BIN_EXE_othbook");
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("games.csv");
    let text = run_ok(&[
        "match",
        "--black",
        &format!("gtp:{me} gtp --player simple"),
        "--white",
        "random:seed=4",
        "--games",
        "2",
        "--swap",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(!text.contains("Failure"), "{text}");
    let rows = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = rows.lines().collect();
    assert_eq!(lines.len(), 3, "{rows}");
    assert!(lines[0].starts_with("game,opening,black,white"));
    assert!(lines[1..].iter().all(|l| l.contains(",normal,")), "{rows}");
}

#[test]
fn a_few_games_against_gtp_rhino() {
    let rhino = rhino();
    let text = run_ok(&[
        "match",
        "--black",
        "alphabeta:depth=2",
        "--white",
        &format!("gtp:{rhino} -l 1"),
        "--games",
        "2",
        "--openings",
        "fixtures/openings.txt",
    ]);
    let rows: Vec<&str> = text.lines().filter(|l| l.contains("   2 ")).collect();
    assert_eq!(rows.len(), 2, "two players with two games each: {text}");
    assert!(
        !text.contains("Failure") && !text.contains("Illegal"),
        "{text}"
    );
}

/// Regression: `match --help` (which `gtp --help` points to for the list) left out the
/// `engine` and `better` players, and the unknown-player error did not name them either.
#[test]
fn regression_the_player_list_left_out_engine_and_better() {
    let help = run_ok(&["match", "--help"]);
    let out = othbook()
        .args(["match", "--black", "nosuch", "--white", "random"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    for kind in [
        "random",
        "simple",
        "better",
        "minimax",
        "alphabeta",
        "mcts",
        "engine",
    ] {
        assert!(
            help.contains(&format!("\n  {kind} ")),
            "help lacks {kind}:\n{help}"
        );
        assert!(err.contains(kind), "error lacks {kind}: {err}");
    }
}

#[test]
fn bad_match_arguments_exit_2() {
    for args in [
        vec!["match", "--black", "nobody", "--white", "random"],
        vec![
            "match",
            "--black",
            "random",
            "--white",
            "alphabeta:depth=99",
        ],
        vec![
            "match", "--black", "random", "--white", "random", "--time", "x y z",
        ],
        vec![
            "match",
            "--black",
            "random",
            "--white",
            "random",
            "--openings",
            "fixtures/perft.tsv",
        ],
        vec![
            "match", "--black", "random", "--white", "random", "--games", "0",
        ],
    ] {
        let out = othbook().args(&args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn round_robin_table_and_csv() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("rr.csv");
    let text = run_ok(&[
        "match",
        "--round-robin",
        "random:seed=1",
        "simple",
        "alphabeta",
        "--limits",
        "0.01,0.02",
        "--games",
        "2",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(text.contains("0.01s") && text.contains("0.02s"), "{text}");
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert!(rows.starts_with("limit,game,"));
    // 3 pairs x 2 limits x 2 games + header
    assert_eq!(rows.lines().count(), 13, "{rows}");
}

#[test]
fn saved_games_feed_back_into_build() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["gam", "ggf"] {
        let saved = dir.path().join(format!("games.{ext}"));
        run_ok(&[
            "match",
            "--black",
            "random:seed=3",
            "--white",
            "simple",
            "--games",
            "4",
            "--swap",
            "--save",
            saved.to_str().unwrap(),
        ]);
        let book = dir.path().join(format!("{ext}.book"));
        run_ok(&[
            "build",
            saved.to_str().unwrap(),
            "-o",
            book.to_str().unwrap(),
            "--plies",
            "10",
        ]);
        let explore = run_ok(&[
            "explore",
            "--book",
            book.to_str().unwrap(),
            "--format",
            "tsv",
        ]);
        assert!(
            explore.lines().any(|l| l.starts_with("all\t4\t")),
            "{explore}"
        );
        let stats = run_ok(&["games", "stats", saved.to_str().unwrap(), "--format", "tsv"]);
        assert!(
            stats.lines().any(|l| l == "total\tgames\tcomplete\t4"),
            "{stats}"
        );
    }
}

/// Regression: the round robin gave its per-move limit to `better`, which takes no time
/// option, and aborted.
#[test]
fn round_robin_with_players_that_take_no_time_limit() {
    let text = run_ok(&[
        "match",
        "--round-robin",
        "random:seed=2",
        "better",
        "simple",
        "--limits",
        "0.01",
        "--games",
        "2",
    ]);
    assert!(text.contains("better"), "{text}");
}
