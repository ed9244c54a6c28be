//! Playing against the engine over the API: `POST /api/v1/play` answers a legal move with
//! its score and depth (the book's while the game is in it, unless asked not to), within the
//! server's caps on depth and time; bad input gets a 400 with the reason; a client that hangs
//! up frees its search slot; `POST /api/v1/transcript` saves the game as PGN or GGF that the
//! project's readers read back.

mod common;

use common::web::{request, send_only, wait_until, TestServer, BOOK};
use othbook::board::{parse_moves, Position};
use othbook::book::Book;
use othbook::serve::ServeOptions;
use othbook::transcript::{ingest_bytes, Format, IngestOptions};
use serde_json::{json, Value};
use std::time::Duration;

fn server() -> TestServer {
    TestServer::start(ServeOptions::new(12, 2, 1000).unwrap())
}

/// `POST path` with the JSON `body`: status and the answer's text.
fn post(s: &TestServer, path: &str, body: &Value) -> (u16, String) {
    request(s.addr, "POST", path, Some(body.to_string().as_bytes()))
}

/// The engine's answer to `body`, which must be a 200.
fn play(s: &TestServer, body: &Value) -> Value {
    let (status, text) = post(s, "/api/v1/play", body);
    assert_eq!(status, 200, "{body}: {text}");
    serde_json::from_str(&text).unwrap()
}

/// The error of `body`, which must fail with `status`: its message.
fn refused(s: &TestServer, path: &str, body: &Value, status: u16) -> String {
    let (got, text) = post(s, path, body);
    assert_eq!(got, status, "{body}: {text}");
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    v["error"].as_str().unwrap().to_string()
}

fn after(moves: &str) -> Position {
    Position::START
        .replay(parse_moves(moves).unwrap())
        .unwrap()
        .end
}

/// Whether `mv` is a legal move after `moves`.
fn legal_after(moves: &str, mv: &str) -> bool {
    let sq = parse_moves(mv).unwrap()[0].square().unwrap();
    after(moves).board.legal_moves().contains(sq)
}

#[test]
fn the_engine_answers_a_legal_move_searched_or_from_the_book() {
    let s = server();
    let v = play(
        &s,
        &json!({"moves": "f5d6c3", "use_book": false, "strength": {"depth": 3}}),
    );
    let mv = v["move"].as_str().unwrap();
    assert!(legal_after("f5d6c3", mv), "{v}");
    assert_eq!(v["line"], format!("f5d6c3{mv}"));
    assert_eq!(v["side"], "white");
    assert_eq!(v["from_book"], false);
    assert_eq!(v["source"], "search");
    assert_eq!(v["depth"], 3);
    assert_eq!(v["complete"], true);
    assert!(
        v["score"].is_number() && v["nodes"].as_u64().unwrap() > 0,
        "{v}"
    );
    // In the book, its move (by its values or its games), however little time is given.
    let v = play(&s, &json!({"moves": "f5", "strength": {"time_ms": 10}}));
    assert!(legal_after("f5", v["move"].as_str().unwrap()), "{v}");
    assert_eq!(v["from_book"], true, "{v}");
    assert!(v["source"].as_str().unwrap().starts_with("book-"), "{v}");
    assert_eq!(v["nodes"], 0);
    // Without a margin, the book's best by its values (as `match`'s players choose), with
    // the book's value as the score.
    let book = Book::open_lazy(BOOK).unwrap();
    let valued = book.try_best_moves(&after("f5d6").board).unwrap();
    let top = valued.iter().map(|m| m.score.score).max().unwrap();
    for _ in 0..3 {
        let v = play(&s, &json!({"moves": "f5d6", "randomness": 0}));
        let mv = parse_moves(v["move"].as_str().unwrap()).unwrap()[0];
        let m = valued.iter().find(|m| m.mv == mv).expect("a book move");
        assert_eq!(m.score.score, top, "{v}");
        assert_eq!(v["source"], "book-value");
        assert_eq!(v["score"].as_f64(), Some(m.score.discs()), "{v}");
    }
    // With a margin, any of the book's moves within it; still legal.
    for _ in 0..5 {
        let v = play(&s, &json!({"moves": "f5d6", "randomness": 3.0}));
        assert!(legal_after("f5d6", v["move"].as_str().unwrap()), "{v}");
    }
    // From a board given, for the side it says is to move.
    let start = after("f5d6c3d3c4").to_obf();
    let v = play(
        &s,
        &json!({"position": start, "moves": "f4", "use_book": false, "strength": {"depth": 2}}),
    );
    assert!(
        legal_after("f5d6c3d3c4f4", v["move"].as_str().unwrap()),
        "{v}"
    );
}

/// A side with no move passes: the answer is the pass, and the line has it.
#[test]
fn a_side_without_a_move_passes() {
    let s = server();
    // White has no move (nothing to flank); black has c1.
    let position = format!("XO{} O", "-".repeat(62));
    let v = play(&s, &json!({"position": position, "strength": {"depth": 2}}));
    assert_eq!(v["move"], "pass", "{v}");
    assert_eq!(v["line"], "pa");
    assert_eq!(v["game_over"], false);
}

#[test]
fn caps_and_bad_input_get_400_with_the_reason() {
    let s = TestServer::start(
        ServeOptions::new(12, 2, 1000)
            .unwrap()
            .with_play_max_time(Duration::from_millis(500))
            .unwrap(),
    );
    let info = s.json("/api/v1/info");
    assert_eq!(info["play_max_time_ms"], 500);
    let cases = [
        (
            json!({"moves": "f5", "strength": {"depth": 13}}),
            "deeper than this server allows (12)",
        ),
        (
            json!({"moves": "f5", "strength": {"time_ms": 501}}),
            "longer than this server allows (500)",
        ),
        (
            json!({"moves": "f5", "strength": {"time_ms": 0}}),
            "at least 1",
        ),
        (
            json!({"moves": "f5", "strength": {"depth": 0}}),
            "at least 1",
        ),
        (
            json!({"moves": "f5", "strength": {"depth": 2, "time_ms": 10}}),
            "not both",
        ),
        (json!({"moves": "f5", "randomness": 65}), "from 0 to 64"),
        (json!({"moves": "f5", "randomness": -1}), "from 0 to 64"),
        (json!({"moves": "f5f5"}), "f5"),
        (json!({"moves": "f5zz"}), "zz"),
        (json!({"position": "XO", "moves": ""}), "position"),
    ];
    for (body, reason) in &cases {
        let e = refused(&s, "/api/v1/play", body, 400);
        assert!(e.contains(reason), "{body}: {e}");
    }
    // A game over has no move to play.
    let full = format!("{} X", "X".repeat(64));
    let e = refused(&s, "/api/v1/play", &json!({"position": full}), 400);
    assert!(e.contains("game is over (64 to 0)"), "{e}");
    let e = refused(
        &s,
        "/api/v1/play",
        &json!({"moves": "f5", "book": "nope"}),
        404,
    );
    assert!(e.contains("no book named \"nope\""), "{e}");
    // An unknown field or a body that is not JSON: a 4xx, not a guess.
    let (status, _) = post(
        &s,
        "/api/v1/play",
        &json!({"moves": "f5", "colour": "black"}),
    );
    assert_eq!(status, 422);
    let (status, _) = request(s.addr, "POST", "/api/v1/play", Some(b"f5d6"));
    assert_eq!(status, 400);
    let (status, _) = s.get("/api/v1/play?moves=f5");
    assert_eq!(status, 405);
    // The server still plays.
    let v = play(&s, &json!({"moves": "f5", "strength": {"depth": 1}}));
    assert!(legal_after("f5", v["move"].as_str().unwrap()), "{v}");
}

/// A depth the time cap cannot reach is cut short by it: the engine answers its deepest
/// finished iteration, marked incomplete, rather than holding the slot.
#[test]
fn the_time_cap_cuts_a_deep_search_short() {
    let s = TestServer::start(
        ServeOptions::new(60, 1, 100)
            .unwrap()
            .with_play_max_time(Duration::from_millis(50))
            .unwrap(),
    );
    let body = json!({"moves": "f5d6c3d3c4", "use_book": false, "strength": {"depth": 40}});
    let v = play(&s, &body);
    assert!(
        legal_after("f5d6c3d3c4", v["move"].as_str().unwrap()),
        "{v}"
    );
    assert_eq!(v["complete"], false, "{v}");
    assert!(v["depth"].as_u64().unwrap() < 40, "{v}");
}

/// A client that hangs up stops the engine's search, and its slot is free again once it has.
#[test]
fn a_hung_up_play_frees_its_search_slot() {
    let s = TestServer::start(
        ServeOptions::new(60, 1, 100)
            .unwrap()
            .with_queue_wait(Duration::from_millis(1))
            .with_play_max_time(Duration::from_secs(600))
            .unwrap(),
    );
    let running = || s.json("/api/v1/info")["searches_running"].as_u64().unwrap();
    let body = json!({"moves": "f5d6c3", "use_book": false, "strength": {"depth": 40}});
    let client = send_only(
        s.addr,
        "POST",
        "/api/v1/play",
        Some(body.to_string().as_bytes()),
    );
    let limit = common::HANG;
    wait_until(limit, "the long search takes the slot", || running() == 1);
    let busy = json!({"moves": "f5", "strength": {"depth": 1}});
    assert!(refused(&s, "/api/v1/play", &busy, 503).contains("busy"));
    drop(client);
    wait_until(limit, "the hung-up search frees its slot", || {
        running() == 0
    });
    let v = play(&s, &busy);
    assert!(legal_after("f5", v["move"].as_str().unwrap()), "{v}");
}

/// The engine plays both sides at depth 1 to the end; the game saved as PGN and as GGF reads
/// back as the same moves and result.
#[test]
fn a_game_played_to_its_end_is_saved_as_pgn_and_ggf() {
    let s = server();
    let mut line = String::new();
    loop {
        let v = play(&s, &json!({"moves": line, "strength": {"depth": 1}}));
        line = v["line"].as_str().unwrap().to_string();
        if v["game_over"] == true {
            break;
        }
        assert!(line.len() < 200, "{line}");
    }
    let end = after(&line);
    assert!(end.board.is_game_over());
    for (format, kind) in [("pgn", Format::Pgn), ("ggf", Format::Ggf)] {
        let body = json!({"moves": line, "format": format, "black": "You", "white": "othbook"});
        let (status, text) = post(&s, "/api/v1/transcript", &body);
        assert_eq!(status, 200, "{text}");
        let read = ingest_bytes(text.as_bytes(), kind, "saved", &IngestOptions::default())
            .unwrap()
            .games;
        assert_eq!(read.len(), 1, "{format}: {text}");
        let g = &read[0];
        assert_eq!(g.moves, parse_moves(&line).unwrap(), "{format}: {text}");
        assert_eq!(g.black.as_deref(), Some("You"));
        let diff = g.result.as_ref().map(|r| r.disc_diff);
        assert_eq!(diff, Some(end.final_score_black()), "{format}: {text}");
    }
    // An unfinished game has no result; a bad format or line is refused with the reason.
    let (status, text) = post(
        &s,
        "/api/v1/transcript",
        &json!({"moves": "f5d6", "format": "pgn"}),
    );
    assert_eq!(status, 200);
    assert!(text.contains("[Result \"*\"]"), "{text}");
    let e = refused(
        &s,
        "/api/v1/transcript",
        &json!({"moves": "f5", "format": "sgf"}),
        400,
    );
    assert!(e.contains("use pgn or ggf"), "{e}");
    let e = refused(
        &s,
        "/api/v1/transcript",
        &json!({"moves": "f5f5", "format": "ggf"}),
        400,
    );
    assert!(e.contains("f5"), "{e}");
}

/// `serve --play-max-time` out of range (or not a number of seconds) is a usage error that
/// says the range, before anything is served.
#[test]
fn serve_refuses_a_play_time_cap_out_of_range() {
    for bad in ["0", "-1", "700", "nan", "inf"] {
        let arg = format!("--play-max-time={bad}");
        let out = common::othbook()
            .args(["serve", "--addr", "127.0.0.1:0", &arg])
            .timeout(common::HANG)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{arg}: {err}");
        assert!(err.contains("0.01 to 600 seconds"), "{arg}: {err}");
    }
}
