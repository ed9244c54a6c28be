//! Scripted GTP sessions against `othbook gtp`, and matches through the GTP client.

mod common;

use assert_cmd::Command;
use othbook::board::{parse_moves, Position};

/// A logbook game with a pass (black after white's b1) that ends in a draw.
const GAME_WITH_PASS: &str = "+d3-c3+c4-e3+c2-b3+d2-e1+d1-c1+f4-d6+e6-g4+b2-f6+d7-c8+e7-d8+f3-f5+g5-h4+h6-f2+f7-h5+g6-c6+c5-c7+b6-b5+f8-a6+b4-a5+a4-e8+b8-h7+g8-b7+g2-g3+h2-a1+f1-e2+h3-a3+a8-a7+h8-g7+a2-b1-g1+h1";

/// Runs a session and returns the answers (one per command, without the blank separators).
fn session(script: impl AsRef<[u8]>, player: &str) -> Vec<String> {
    let out = Command::cargo_bin("othbook")
        .unwrap()
        .args(["gtp", "--player", player, "--time", "0.05"])
        .write_stdin(script.as_ref())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with("\n\n"),
        "every answer ends with a blank line: {text:?}"
    );
    text.split("\n\n")
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

fn play_script(moves: &str) -> String {
    let mut s = String::new();
    let mut chars = moves.chars().peekable();
    while let Some(sign) = chars.next() {
        let sq: String = chars.by_ref().take(2).collect();
        let color = if sign == '+' { "black" } else { "white" };
        s.push_str(&format!("play {color} {sq}\n"));
    }
    s
}

#[test]
fn handshake_and_errors() {
    let r = session(
        "protocol_version\n7 name\nknown_command genmove\nknown_command fly\nlist_commands\nboardsize 8\nboardsize 19\n\
         play black a1\nplay black z9\nplay purple d3\nundo\nfrobnicate\nfinal_score\nquit\nname\n",
        "simple",
    );
    assert_eq!(r[0], "= 2");
    assert_eq!(r[1], "=7 othbook");
    assert_eq!(r[2], "= true");
    assert_eq!(r[3], "= false");
    assert!(r[4].contains("genmove") && r[4].contains("time_left") && r[4].contains("list_games"));
    assert_eq!(r[5], "= ");
    assert!(r[6].starts_with("? "));
    assert!(r[7].starts_with("? illegal move"), "{}", r[7]);
    assert!(r[8].starts_with("? syntax error"));
    assert!(r[9].starts_with("? syntax error"));
    assert!(r[10].starts_with("? cannot undo"));
    assert!(r[11].starts_with("? unknown command"));
    assert!(r[12].starts_with("? cannot score"));
    assert_eq!(r.len(), 14, "nothing is answered after quit: {r:?}");
}

#[test]
fn full_game_with_a_pass_undo_and_final_score() {
    let mut script = play_script(GAME_WITH_PASS);
    script.push_str(
        "final_score\nundo\nshowboard\ngenmove black\nfinal_score\ngenmove white\nquit\n",
    );
    let r = session(&script, "simple");
    let plays = GAME_WITH_PASS.matches(['+', '-']).count();
    for (i, a) in r[..plays].iter().enumerate() {
        assert_eq!(a, "= ", "play #{} was refused", i + 1);
    }
    assert_eq!(r[plays], "= 0", "the game is a draw");
    assert_eq!(r[plays + 1], "= ");
    assert!(r[plays + 2].contains("black to move"));
    // After undoing h1, black has exactly the moves the library computes; h1 is one of them.
    let moves = parse_moves(&GAME_WITH_PASS[..GAME_WITH_PASS.len() - 3]).unwrap();
    let pos = Position::START.replay(moves).unwrap().end;
    let legal: Vec<String> = pos
        .board
        .legal_moves()
        .iter()
        .map(|s| format!("= {}", s.to_string().to_uppercase()))
        .collect();
    assert!(
        legal.contains(&r[plays + 3]),
        "{} not in {legal:?}",
        r[plays + 3]
    );
    assert!(
        r[plays + 4].starts_with('='),
        "game over again: {}",
        r[plays + 4]
    );
    assert_eq!(r[plays + 5], "= pass", "no move left for white");
}

#[test]
fn genmove_passes_when_it_must() {
    // Replay up to white's b1, after which black must pass.
    let upto = GAME_WITH_PASS.find("-b1").unwrap() + 3;
    let mut script = play_script(&GAME_WITH_PASS[..upto]);
    script.push_str("genmove black\ngenmove white\nquit\n");
    let r = session(&script, "simple");
    let n = r.len();
    assert_eq!(r[n - 3], "= pass");
    assert_eq!(r[n - 2], "= G1", "white's only move after black's pass");
}

/// Regression: `othbook gtp --player gtp:cat` hung for a minute: the client skipped the
/// echoed commands as chatter and waited 30 s for each start-up answer.
#[test]
fn regression_gtp_hung_on_a_player_engine_that_does_not_speak_gtp() {
    let dir = tempfile::tempdir().unwrap();
    let hello = dir.path().join("hello.py");
    std::fs::write(
        &hello,
        "import sys\nfor line in sys.stdin:\n    print('hello\\n', flush=True)\n",
    )
    .unwrap();
    let hello = format!("gtp:python3 {}", hello.display());
    let mut engines = vec![("gtp:cat", "name")];
    if common::tool("python3", "python3").is_some() {
        engines.push((hello.as_str(), "hello"));
    }
    for (engine, answer) in engines {
        let limit = common::HANG;
        let out = Command::cargo_bin("othbook")
            .unwrap()
            .args(["gtp", "--player", engine])
            .write_stdin("name\ngenmove black\n")
            .timeout(limit)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        // Killed at `limit` (a hang) gives no exit code, and fails here.
        assert_eq!(out.status.code(), Some(1), "{engine}: {err}");
        assert!(
            err.contains(&format!(
                r#"answered "name" with "{answer}", which is not GTP"#
            )),
            "{engine}: {err}"
        );
    }
}

/// Regression: `time_settings inf 0 1`, `time_left b 1e20 0` and huge settings aborted the
/// server (a panicking float-to-Duration conversion, then an overflowing clock sum).
#[test]
fn regression_time_settings_inf_aborted_gtp() {
    for cmd in [
        "time_settings inf 0 1",
        "time_settings NaN 0 1",
        "time_settings -5 0 1",
        "time_left b 1e20 0",
        "time_settings 1.8e19 1.8e19 1",
    ] {
        let r = session(format!("{cmd}\ngenmove b\nquit\n"), "simple");
        assert!(r[0].starts_with("? "), "{cmd}: {r:?}");
        assert!(r[1].starts_with("= "), "{cmd}: the session goes on: {r:?}");
    }
}

/// Regression: one byte of invalid UTF-8 ended the session.
#[test]
fn regression_invalid_utf8_ended_the_gtp_session() {
    let r = session(
        &b"name\n\xe9\xff\nplay b \xe9\n2 name\nquit\n"[..],
        "simple",
    );
    assert_eq!(r[0], "= othbook");
    assert_eq!(r[1], "? unknown command");
    assert!(r[2].starts_with("? syntax error"), "{}", r[2]);
    assert_eq!(r[3], "=2 othbook");
}

/// Commands a GTP engine may be sent: the standard's, and common extensions.
const CANDIDATE_COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "play",
    "genmove",
    "undo",
    "time_settings",
    "time_left",
    "final_score",
    "final_status_list",
    "loadsgf",
    "reg_genmove",
    "showboard",
    "set_game",
    "list_games",
    "kgs-genmove_cleanup",
    "kgs-time_settings",
    "gogui-analyze_commands",
    "cputime",
    "get_random_seed",
    "set_random_seed",
    "genmove_black",
    "genmove_white",
];

/// Regression: `list_commands` was a list kept apart from the server's dispatch, and left
/// out `reg_genmove`, which the server answered.
#[test]
fn regression_list_commands_omitted_reg_genmove() {
    let r = session("list_commands\nquit\n", "simple");
    let listed: Vec<&str> = r[0].trim_start_matches("= ").lines().collect();
    assert!(listed.contains(&"reg_genmove"), "{listed:?}");
    // Each command alone: no arguments, so commands that need some answer a syntax error,
    // which still shows that they are known.
    let mut script = String::new();
    for c in CANDIDATE_COMMANDS
        .iter()
        .chain(&listed)
        .filter(|c| **c != "quit")
    {
        script.push_str(&format!("{c}\nknown_command {c}\n"));
    }
    script.push_str("quit\n");
    let names: Vec<&str> = CANDIDATE_COMMANDS
        .iter()
        .chain(&listed)
        .filter(|c| **c != "quit")
        .copied()
        .collect();
    let answers = session(script, "simple");
    for (i, name) in names.iter().enumerate() {
        let (answer, known) = (&answers[2 * i], &answers[2 * i + 1]);
        let answered = answer != "? unknown command";
        let is_listed = listed.contains(name);
        assert_eq!(answered, is_listed, "{name}: answered {answer:?}");
        assert_eq!(
            known == "= true",
            is_listed,
            "known_command {name}: {known}"
        );
    }
}
