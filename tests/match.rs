//! `othbook match`: games through the GTP client (othbook itself and gtp-rhino), CSV output.

mod common;
use common::{othbook, run_within};

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

/// Debian's gtp-rhino, the real GTP opponent; `None` (the test skipped) if not installed.
fn rhino() -> Option<String> {
    common::tool("/usr/games/gtp-rhino", "grhino").map(|p| p.display().to_string())
}

/// `python3`, which runs the mock GTP engines; `None` (the test skipped) if not installed.
fn python() -> Option<std::path::PathBuf> {
    common::tool("python3", "python3")
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
    assert!(!text.contains("engine failed"), "{text}");
    let rows = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = rows.lines().collect();
    assert_eq!(lines.len(), 3, "{rows}");
    assert!(lines[0].starts_with("game,opening,opening_name,black,white"));
    assert!(lines[1..].iter().all(|l| l.contains(",normal,")), "{rows}");
}

#[test]
fn a_few_games_against_gtp_rhino() {
    let Some(rhino) = rhino() else { return };
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
        !text.contains("engine failed") && !text.contains("illegal"),
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
            "--min-games",
            "1",
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

/// A GTP engine for the failure tests, run as `python3 MOCK MODE [ARGS]`:
/// `crash` exits on genmove; `crash-once MARKER OTHBOOK` does so in its first life only and
/// is `othbook gtp --player simple` afterwards; `crash-then-dead MARKER` exits on genmove in
/// its first life and at once afterwards; `move X` answers genmove with X; `hang-genmove` and
/// `hang-boardsize` never answer those; `hello` answers every line with "hello" (not GTP).
const MOCK_ENGINE: &str = r#"
import os, sys, time
mode, args = sys.argv[1], sys.argv[2:]
if mode in ("crash-once", "crash-then-dead"):
    if os.path.exists(args[0]):
        if mode == "crash-then-dead":
            sys.exit(5)
        os.execv(args[1], [args[1], "gtp", "--player", "simple"])
    open(args[0], "w").close()
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if mode == "hello":
        print("hello\n", flush=True)
    elif cmd[0] == "genmove":
        if mode == "hang-genmove":
            time.sleep(1000)
        if mode.startswith("crash"):
            sys.exit(3)
        print("= %s\n" % args[0], flush=True)
    elif cmd[0] == "boardsize" and mode == "hang-boardsize":
        time.sleep(1000)
    elif cmd[0] == "quit":
        print("=\n", flush=True)
        break
    else:
        print("= mock\n" if cmd[0] == "name" else "=\n", flush=True)
"#;

/// Writes [`MOCK_ENGINE`] into `dir` and returns the player spec running it in `mode`.
fn mock(dir: &std::path::Path, mode: &str) -> String {
    let script = dir.join("mock_engine.py");
    std::fs::write(&script, MOCK_ENGINE).unwrap();
    format!("gtp:python3 {} {mode}", script.display())
}

/// Regression: an engine that echoed its input (`cat`), answered with non-GTP lines or never
/// answered hung `match` for a minute (30 s per start-up command, chatter skipped), even
/// with a clock; one that hung on `boardsize` cost 30 s per command. Now a non-GTP answer
/// fails at once and silence fails after `--engine-timeout`.
#[test]
fn regression_match_hung_on_a_gtp_engine_that_never_answers() {
    if python().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let limit = common::HANG;
    let hello = mock(dir.path(), "hello");
    for (engine, reason) in [
        (
            "gtp:cat",
            r#"answered "name" with "name", which is not GTP"#,
        ),
        (
            hello.as_str(),
            r#"answered "name" with "hello", which is not GTP"#,
        ),
    ] {
        let args = [
            "match", "--black", engine, "--white", "random", "--games", "1", "--time", "2 1 1",
        ];
        let (code, _, err) = run_within(&args, limit);
        assert_eq!(code, Some(1), "{engine}: {err}");
        assert!(err.contains(reason), "{engine}: {err}");
    }
    let (code, _, err) = run_within(
        &[
            "match",
            "--black",
            "gtp:sleep 100",
            "--white",
            "random",
            "--time",
            "2 1 1",
            "--engine-timeout",
            "1",
        ],
        limit,
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains(r#"no answer to "name" within 1s"#), "{err}");
    // Start-up went well, then the engine hung before the first move: that game is lost.
    let engine = mock(dir.path(), "hang-boardsize");
    let (code, out, err) = run_within(
        &[
            "match",
            "--black",
            &engine,
            "--white",
            "random",
            "--games",
            "1",
            // Long enough for Python to start on a loaded machine.
            "--engine-timeout",
            "5",
        ],
        limit,
    );
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains(r#"black's engine failed: "#)
            && out.contains(r#"no answer to "boardsize 8" within 5s"#),
        "{out}"
    );
    assert!(
        out.contains("1 of 1 games ended by an engine failure"),
        "{out}"
    );
}

/// Regression: an engine that exited during a game was never restarted, so every later game
/// was forfeited with "Broken pipe", and the match still exited 0.
#[test]
fn regression_crashed_gtp_engine_was_not_restarted() {
    if python().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let limit = common::HANG;
    let me = env!("CARGO_BIN_EXE_othbook");
    let marker = dir.path().join("started");
    let csv = dir.path().join("games.csv");
    let engine = mock(dir.path(), &format!("crash-once {} {me}", marker.display()));
    let (code, out, err) = run_within(
        &[
            "match",
            "--black",
            &engine,
            "--white",
            "random:seed=3",
            "--games",
            "2",
            "--swap",
            "--csv",
            csv.to_str().unwrap(),
        ],
        limit,
    );
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains(r#"black's engine failed: "#)
            && out.contains(r#"exited while answering "genmove black" (exit status: 3)"#),
        "{out}"
    );
    assert!(!out.contains("Broken pipe"), "{out}");
    assert!(
        out.contains("1 of 2 games ended by an engine failure"),
        "{out}"
    );
    assert!(
        err.contains("1 of 2 games ended by an engine failure"),
        "{err}"
    );
    // The restarted engine played game 2 to the end.
    let rows = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = rows.lines().collect();
    assert!(lines[1].contains(",failure,"), "{rows}");
    assert!(lines[2].contains(",normal,"), "{rows}");

    // An engine that cannot be started again loses the games it should have played.
    let marker = dir.path().join("started-once");
    let engine = mock(dir.path(), &format!("crash-then-dead {}", marker.display()));
    let (code, out, err) = run_within(
        &[
            "match", "--black", &engine, "--white", "random", "--games", "2", "--swap",
        ],
        limit,
    );
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("white's engine failed: ")
            && out.contains("restart failed: ")
            && out.contains("(exit status: 5)"),
        "{out}"
    );
    assert!(
        out.contains("2 of 2 games ended by an engine failure"),
        "{out}"
    );
}

/// Regression: the report gave game endings as Rust debug text (`Time(Black)`,
/// `Illegal(Black, Play(A1))`, `Failure(Black, "...")`). Losses on time and by illegal moves
/// are results and keep exit code 0.
#[test]
fn regression_match_report_showed_debug_text_for_terminations() {
    if python().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let limit = common::HANG;
    // The clock is short only where the engine is to lose on time: a loaded machine may take
    // longer than 0.3 s to pass on an illegal move's answer.
    for (mode, games, time, expected) in [
        (
            "move a1",
            "2",
            "60",
            &[
                "black played an illegal move a1",
                "white played an illegal move a1",
            ][..],
        ),
        ("move pass", "1", "60", &["black passed illegally"][..]),
        ("hang-genmove", "1", "0.3", &["black lost on time"][..]),
    ] {
        let engine = mock(dir.path(), mode);
        let (code, out, err) = run_within(
            &[
                "match", "--black", &engine, "--white", "random", "--games", games, "--swap",
                "--time", time,
            ],
            limit,
        );
        assert_eq!(code, Some(0), "{mode}: {out}{err}");
        for e in expected {
            assert!(out.contains(e), "{mode}: {out}");
        }
        assert!(
            !out.contains("Time(") && !out.contains("Illegal(") && !out.contains("Black"),
            "{mode}: {out}"
        );
    }
    let engine = mock(dir.path(), "crash");
    let (_, out, _) = run_within(
        &[
            "match", "--black", "random", "--white", &engine, "--games", "1",
        ],
        limit,
    );
    assert!(out.contains("white's engine failed: "), "{out}");
    assert!(!out.contains("Failure("), "{out}");
}

/// Regression: an even match printed "Elo difference A - B: -0".
#[test]
fn regression_even_match_printed_elo_difference_minus_zero() {
    // The same deterministic player on both sides wins once with each colour or draws twice.
    let text = run_ok(&[
        "match", "--black", "simple", "--white", "simple", "--games", "2", "--swap",
    ]);
    assert!(text.contains("Elo difference A - B: 0 ("), "{text}");
    assert!(!text.contains("-0 "), "{text}");
}

#[test]
fn the_csv_names_the_opening_of_each_game() {
    let dir = tempfile::tempdir().unwrap();
    let openings = dir.path().join("tiger.txt");
    // The Tiger in two orientations: each game goes on from it.
    std::fs::write(&openings, "f5d6c3d3c4\ne6f4c3c4d3\n").unwrap();
    let csv = dir.path().join("games.csv");
    run_ok(&[
        "match",
        "--black",
        "random:seed=1",
        "--white",
        "random:seed=2",
        "--games",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let rows = std::fs::read_to_string(&csv).unwrap();
    let table = othbook::openings::Openings::standard();
    for line in rows.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        let moves = othbook::board::parse_moves(cells[8]).unwrap();
        let deepest = table.find_along(&moves).expect("the Tiger at least");
        assert_eq!(cells[2], deepest.opening.name, "{line}");
        assert!(deepest.moves.len() >= 5, "{line}");
    }
}

/// A match of 20,000 games (depth 7 against `white`, XOT openings, `outputs` added, which
/// save the games to `saved`) stopped by SIGINT once `saved` holds a game (to the whole
/// process group with `terminal`, as Ctrl-C at a terminal does); checks that it said so with
/// exit code 130 and returns its standard output and error.
#[cfg(target_os = "linux")]
fn stopped_long_match(
    dir: &std::path::Path,
    white: &str,
    outputs: &[&str],
    saved: &std::path::Path,
    terminal: bool,
) -> (String, String) {
    let mut args = vec![
        "match",
        "--black",
        "engine:depth=7,book=none",
        "--white",
        white,
        "--openings",
        "xot",
        "--games",
        "20000",
    ];
    args.extend(outputs);
    // Stopped once a game has ended (however long a loaded machine takes for it), so that
    // there is one to keep and the next is under way.
    let a_game_saved =
        || std::fs::read_to_string(saved).is_ok_and(|t| t.lines().any(|l| !l.trim().is_empty()));
    let (code, stdout, stderr) = common::interrupted_when(dir, &args, terminal, a_game_saved);
    assert_eq!(
        code,
        Some(130),
        "the match ended before the signal: make it longer\n{stdout}\n{stderr}"
    );
    (stdout, stderr)
}

// libc is a dependency on Linux only.
#[cfg(target_os = "linux")]
#[test]
fn regression_an_interrupted_match_lost_every_game_it_had_played() {
    let dir = tempfile::tempdir().unwrap();
    let (gam, csv) = (dir.path().join("games.gam"), dir.path().join("games.csv"));
    let (stdout, stderr) = stopped_long_match(
        dir.path(),
        "engine:depth=6,book=none",
        &[
            "--save",
            gam.to_str().unwrap(),
            "--csv",
            csv.to_str().unwrap(),
        ],
        &gam,
        false,
    );
    let played: usize = stderr
        .split("after ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of games played: {stderr}"));
    assert!(played > 0, "{stderr}");
    assert!(stderr.contains("of 20000 games"), "{stderr}");
    assert!(stdout.contains(&format!("{played:>5}")), "{stdout}");
    let lines = std::fs::read_to_string(&gam).unwrap();
    assert_eq!(lines.lines().count(), played, "{lines}");
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(rows.lines().count(), played + 1, "{rows}");
    // The games are whole and in playing order: they replay and build a book.
    for (i, row) in rows.lines().skip(1).enumerate() {
        assert!(row.starts_with(&format!("{},", i + 1)), "{row}");
    }
    let stats = run_ok(&["games", "stats", gam.to_str().unwrap(), "--format", "tsv"]);
    assert!(stats.contains(&played.to_string()), "{stats}");
}

#[test]
fn regression_round_robin_ignored_save() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("rr.gam");
    run_ok(&[
        "match",
        "--round-robin",
        "random:seed=1",
        "simple",
        "alphabeta:depth=2",
        "--limits",
        "0.01,0.02",
        "--games",
        "2",
        "--save",
        saved.to_str().unwrap(),
    ]);
    let games = std::fs::read_to_string(&saved).unwrap();
    // 3 pairs x 2 limits x 2 games
    assert_eq!(games.lines().count(), 12, "{games}");
}

// libc is a dependency on Linux only.
#[cfg(target_os = "linux")]
#[test]
fn regression_ctrl_c_at_the_terminal_killed_the_gtp_engine_in_mid_game() {
    let me = env!("CARGO_BIN_EXE_othbook");
    let dir = tempfile::tempdir().unwrap();
    let gam = dir.path().join("games.gam");
    let engine = format!("gtp:{me} gtp --player engine:depth=6,book=none");
    let (stdout, stderr) = stopped_long_match(
        dir.path(),
        &engine,
        &["--save", gam.to_str().unwrap()],
        &gam,
        true,
    );
    assert!(!stdout.contains("engine failure"), "{stdout}");
    assert!(!stderr.contains("engine failure"), "{stderr}");
    let games = std::fs::read_to_string(&gam).unwrap();
    assert!(games.lines().count() > 0, "{stderr}");
    // Every game saved was played to its end: a .gam line ends with its result.
    for line in games.lines() {
        assert!(line.contains(": "), "{line}");
    }
}

/// Regression: `--openings xot` looked for the XOT list relative to the current folder only,
/// so a match run anywhere but beside the shared data (here a temporary folder) failed. Now
/// the source tree's list is found too, and `OTHBOOK_XOT` names another.
#[test]
fn regression_openings_xot_was_not_found_outside_the_clone() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "match",
        "--black",
        "random:seed=1",
        "--white",
        "random:seed=2",
        "--openings",
        "xot",
        "--games",
        "2",
    ];
    let (code, out, err) = common::run_in(dir.path(), &args);
    assert_eq!(code, Some(0), "{out}{err}");
    let named = dir.path().join("mine.txt");
    std::fs::write(&named, "f5d6c3d3c4f4f6f3\n").unwrap();
    let with_xot = |xot: &std::path::Path| {
        othbook()
            .current_dir(dir.path())
            .env("OTHBOOK_XOT", xot)
            .args(args)
            .output()
            .unwrap()
    };
    let out = with_xot(&named);
    assert!(out.status.success(), "{out:?}");
    let out = with_xot(&dir.path().join("missing.txt"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("missing.txt"), "{err}");
}
