//! Scripted NBoard sessions against `othbook nboard`.

mod common;

use assert_cmd::Command;
use othbook::board::{parse_moves, Position, Square};
use othbook::engine::{Depth, Engine, EngineOptions, Limits};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// A logbook game with a pass (black after white's b1) that ends in a draw.
const GAME_WITH_PASS: &str = "+d3-c3+c4-e3+c2-b3+d2-e1+d1-c1+f4-d6+e6-g4+b2-f6+d7-c8+e7-d8+f3-f5+g5-h4+h6-f2+f7-h5+g6-c6+c5-c7+b6-b5+f8-a6+b4-a5+a4-e8+b8-h7+g8-b7+g2-g3+h2-a1+f1-e2+h3-a3+a8-a7+h8-g7+a2-b1-g1+h1";

/// The `set game` line for a `.gam` move string.
fn set_game(gam: &str) -> String {
    let mut s = String::from(
        "set game (;GM[Othello]PC[test]PB[a]PW[b]RE[?]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]",
    );
    let mut chars = gam.chars();
    while let Some(sign) = chars.next() {
        let sq: String = chars.by_ref().take(2).collect();
        s.push_str(&format!(
            "{}[{}]",
            if sign == '+' { 'B' } else { 'W' },
            sq.to_uppercase()
        ));
    }
    s.push_str(";)\n");
    s
}

fn session(script: impl AsRef<[u8]>) -> (Vec<String>, String) {
    let out = Command::cargo_bin("othbook")
        .unwrap()
        .args(["nboard", "--time", "0.2"])
        .write_stdin(script.as_ref())
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    (
        stdout.lines().map(str::to_string).collect(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn legal_after(gam: &str) -> Vec<String> {
    let pos = Position::START
        .replay(parse_moves(gam).unwrap())
        .unwrap()
        .end;
    pos.board
        .legal_moves()
        .iter()
        .map(|s: Square| s.to_string().to_uppercase())
        .collect()
}

#[test]
fn go_hint_ping_learn() {
    let opening = "+f5-f6+d3-c5+e6-f7+e7-f4";
    let script = format!(
        "nboard 2\nset depth 6\n{}ping 1\ngo\nhint 2\nping 2\nlearn\nquit\n",
        set_game(opening)
    );
    let (out, err) = session(&script);
    assert_eq!(out[0], "set myname othbook");
    assert_eq!(out[1], "set myname othbook6");
    assert_eq!(out[2], "pong 1");
    let go = out
        .iter()
        .find(|l| l.starts_with("=== "))
        .expect("=== line");
    let mv = &go[4..6];
    assert!(legal_after(opening).contains(&mv.to_string()), "{go}");
    let searches: Vec<&String> = out.iter().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(searches.len(), 2, "{out:?}");
    for s in &searches {
        let f: Vec<&str> = s.split_whitespace().collect();
        assert!(legal_after(opening).contains(&f[1][..2].to_string()), "{s}");
        assert!(
            f[2].parse::<f64>().is_ok() && f[3] == "0" && f[4].parse::<u32>().is_ok(),
            "{s}"
        );
    }
    let pong2 = out.iter().position(|l| l == "pong 2").unwrap();
    assert!(pong2 > out.iter().position(|l| l.starts_with("search ")).unwrap());
    assert_eq!(out.last().unwrap(), "learned");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn moves_pass_and_game_over() {
    let upto = GAME_WITH_PASS.find("-b1").unwrap() + 3;
    // Black must pass after white's b1: the engine answers PA.
    let script = format!(
        "nboard 2\n{}go\nmove PA\ngo\nquit\n",
        set_game(&GAME_WITH_PASS[..upto])
    );
    let (out, _) = session(&script);
    let answers: Vec<&String> = out.iter().filter(|l| l.starts_with("=== ")).collect();
    assert_eq!(answers[0], "=== PA");
    assert!(answers[1].starts_with("=== G1"), "{answers:?}");
    // The whole game: nothing to play.
    let (out, _) = session(format!("nboard 2\n{}go\nquit\n", set_game(GAME_WITH_PASS)));
    assert!(out.iter().any(|l| l == "status game over"), "{out:?}");
    assert!(!out.iter().any(|l| l.starts_with("=== ")));
}

#[test]
fn bad_input_goes_to_stderr_only() {
    let script =
        "nboard 2\nmove Z9\nmove a1\nset game (;GM[Othello]B[A1];)\nfrobnicate\nping 7\nquit\n";
    let (out, err) = session(script);
    assert_eq!(
        out,
        vec!["set myname othbook".to_string(), "pong 7".to_string()]
    );
    assert!(err.contains("Z9") || err.contains("z9"), "{err}");
    assert!(err.contains("a1"), "{err}");
    assert!(err.contains("frobnicate"), "{err}");
}

#[test]
fn move_commands_follow_the_game() {
    // f5 then d6 by move commands, then go: the answer is legal after f5 d6.
    let script = "nboard 2\nset depth 4\nmove F5\nmove d6/0.5/1.2\ngo\nquit\n";
    let (out, _) = session(script);
    let go = out.iter().find(|l| l.starts_with("=== ")).unwrap();
    assert!(legal_after("f5d6").contains(&go[4..6].to_string()), "{go}");
}

/// Regression: at the start the book hints named F5 only, since the book lists the four
/// equivalent first moves once; the GUI marks squares, so each gets its own hint.
#[test]
fn regression_book_hints_at_the_start_named_f5_only() {
    let (out, _) = session(format!(
        "nboard 2\nset depth 2\n{}hint 4\nquit\n",
        set_game("")
    ));
    let mut book: Vec<&str> = out
        .iter()
        .filter(|l| l.starts_with("book "))
        .map(|l| &l[5..7])
        .collect();
    book.sort_unstable();
    assert_eq!(book, ["C4", "D3", "E6", "F5"], "{out:?}");
}

/// White has no move after these 15 plies, with 45 empties: the game goes on after the pass.
const FORCED_PASS: &str = "+f5-f4+e3-d2+e2-d6+c6-e1+d7-f6+d3-d8+e8-b6+c8";

/// Regression: a hint for a forced pass said `search PA 0 0 0`, eval and depth 0; it is the
/// pass, valued as `analyze` values it (the best reply's search, for the side that passes).
#[test]
fn regression_hint_for_a_forced_pass_reported_eval_0() {
    let board = Position::START
        .replay(parse_moves(FORCED_PASS).unwrap())
        .unwrap()
        .end
        .board;
    assert!(board.must_pass() && !board.is_game_over());
    // The engine `othbook nboard` builds: one thread, 64 MiB.
    let engine = Engine::new(EngineOptions::default());
    let expected = engine
        .analyze(&board, &Limits::depth(Depth::of(6)))
        .unwrap();
    assert!(expected.passed && expected.score != 0, "{expected:?}");

    let script = format!(
        "nboard 2\nset depth 6\n{}hint 3\ngo\nmove PA\ngo\nquit\n",
        set_game(FORCED_PASS)
    );
    let out = Command::cargo_bin("othbook")
        .unwrap()
        .args(["nboard", "--no-book", "--time", "30"])
        .write_stdin(script)
        .output()
        .unwrap();
    assert!(out.status.success());
    let out: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let searches: Vec<&String> = out.iter().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(searches.len(), 1, "{out:?}");
    let f: Vec<&str> = searches[0].split_whitespace().collect();
    assert!(f[1].starts_with("PA-"), "{out:?}");
    assert_eq!(f[2], format!("{:.2}", expected.score_discs()), "{out:?}");
    assert_eq!(f[4], "6", "{out:?}");
    // `go` passes, and after the pass answers with one of white's moves.
    let answers: Vec<&String> = out.iter().filter(|l| l.starts_with("=== ")).collect();
    assert_eq!(answers.len(), 2, "{out:?}");
    assert_eq!(answers[0], "=== PA");
    let replies: Vec<String> = board
        .pass()
        .legal_moves()
        .iter()
        .map(|s: Square| s.to_string().to_uppercase())
        .collect();
    assert!(replies.contains(&answers[1][4..6].to_string()), "{out:?}");
}

/// A running `othbook nboard`, killed if the test fails before it quits.
struct Live {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Live {
    /// `othbook nboard` whose searches run 30 s unless stopped.
    fn start() -> Live {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_othbook"))
            .args(["nboard", "--no-book", "--time", "30", "--depth", "30"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Live {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
    }

    /// The lines up to and including `want`, which must come within `within`.
    fn until(&mut self, want: &str, within: Duration) -> Vec<String> {
        let deadline = Instant::now() + within;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    let done = line == want;
                    got.push(line);
                    if done {
                        return got;
                    }
                }
                Err(_) => panic!("no {want:?} within {within:?}; output: {:?}", self.seen),
            }
        }
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Regression: stdin was not read during a search, so `ping` (and `quit`) waited for its end
/// (here 30 s), and the `status` line announcing it was only flushed with its result. The
/// GUI sends `ping` whenever the user changes the position, and waits for the `pong`.
#[test]
fn regression_ping_during_a_search_was_answered_only_after_it() {
    let limit = common::HANG;
    let mut e = Live::start();
    e.send(&format!(
        "nboard 2\n{}hint 1\n",
        set_game("+f5-d6+c3-d3+c4-f4+f6-f3+e6-e7")
    ));
    e.until("status analysing", limit);
    // Sent during the search: the `set` is carried out (not lost), then the ping answered.
    e.send("set depth 12\nping 1\n");
    let got = e.until("pong 1", limit);
    assert!(got.contains(&"set myname othbook12".to_string()), "{got:?}");
    assert!(!got.iter().any(|l| l.starts_with("search ")), "{got:?}");
    // `quit` during a search ends the session at once, without a move.
    e.send("set depth 30\ngo\n");
    e.until("status thinking", limit);
    e.send("quit\n");
    let exit = common::poll(limit, Duration::from_millis(10), || {
        e.child.try_wait().unwrap()
    })
    .unwrap_or_else(|| panic!("still running: {:?}", e.seen));
    assert!(exit.success());
    assert!(
        !e.seen.iter().any(|l| l.starts_with("=== ")),
        "{:?}",
        e.seen
    );
}

/// Regression: one byte of invalid UTF-8 ended the session; NBoard sends player names in
/// Latin-1 inside `set game`.
#[test]
fn regression_invalid_utf8_ended_the_nboard_session() {
    // "Jérôme" in Latin-1: \u{1} stands for é (0xE9), \u{2} for ô (0xF4).
    let mut script = set_game("+f5")
        .replace("PB[a]", "PB[J\u{1}r\u{2}me]")
        .into_bytes();
    for b in script.iter_mut() {
        match *b {
            1 => *b = 0xE9,
            2 => *b = 0xF4,
            _ => {}
        }
    }
    let script = [script, b"\xff\xfe\nping 1\ngo\nping 2\n".to_vec()].concat();
    let (out, err) = session(script);
    assert!(out.contains(&"pong 1".to_string()), "{out:?} {err}");
    assert!(out.contains(&"pong 2".to_string()), "{out:?} {err}");
    let moves = legal_after("f5");
    let played = out.iter().find_map(|l| l.strip_prefix("=== ")).unwrap();
    let sq = played.split('/').next().unwrap();
    assert!(
        moves.contains(&sq.to_string()),
        "{sq} after f5: the game was taken"
    );
    assert!(err.contains("ignored"), "the bad line is reported: {err}");
}

/// Regression: `set game` errors said "set game: set game:1: ...", the context twice.
#[test]
fn regression_set_game_context_said_twice() {
    let (_, err) = session(format!("{}ping 1\n", set_game("+a1")));
    assert!(err.contains("set game"), "{err}");
    assert!(!err.contains("set game: set game"), "{err}");
    let (_, err) = session("set game garbage\nping 1\n");
    assert_eq!(err.matches("set game").count(), 1, "{err}");
}
