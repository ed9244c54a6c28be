//! The web server's JSON API over HTTP on loopback: answers agree with the book's own
//! queries, in the caller's orientation; bad requests get 4xx JSON errors and the server
//! keeps serving; searches are capped, limited in number and cached; `othbook serve` starts,
//! says its URL and stops cleanly on Ctrl-C.

mod common;

use common::web::{
    interrupt, request, send_only, serve_book_process, wait_until, TestServer, BOOK,
};
use othbook::board::{parse_moves, Position, Symmetry};
use othbook::book::Book;
use othbook::serve::ServeOptions;
use serde_json::Value;
use std::time::Duration;

fn server() -> TestServer {
    TestServer::start(ServeOptions::new(12, 2, 1000).unwrap())
}

fn book() -> Book {
    Book::open_lazy(BOOK).unwrap()
}

fn after(moves: &str) -> Position {
    Position::START
        .replay(parse_moves(moves).unwrap())
        .unwrap()
        .end
}

/// The move table's rows as (move, games) pairs.
fn rows(v: &Value) -> Vec<(String, u64)> {
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| Some((m["move"].as_str()?.to_string(), m["games"].as_u64()?)))
        .collect()
}

#[test]
fn explore_gives_the_books_counts_for_a_line() {
    let s = server();
    let b = book();
    for line in ["", "f5", "f5d6", "f5d6c3d3c4", "d3c5f6f5"] {
        let v = s.json(&format!("/api/v1/explore?moves={line}"));
        let pos = after(line);
        let stats = b.try_probe(&pos.board).unwrap().unwrap();
        assert_eq!(v["games"].as_u64(), Some(stats.games()), "{line}");
        assert_eq!(v["position"].as_str(), Some(pos.to_obf().as_str()));
        let want: Vec<(String, u64)> = b
            .try_moves(&pos.board)
            .unwrap()
            .iter()
            .map(|(m, s)| (m.to_string(), s.games()))
            .collect();
        assert_eq!(rows(&v)[..want.len()], want[..], "{line}");
        let legal: Vec<String> = pos
            .board
            .legal_moves()
            .iter()
            .map(|q| q.to_string())
            .collect();
        assert_eq!(v["legal"], serde_json::json!(legal), "{line}");
        assert_eq!(v["line"].as_str(), Some(line));
    }
}

#[test]
fn a_board_is_answered_in_the_callers_orientation() {
    let s = server();
    let pos = after("f5d6c3");
    let plain = s.json("/api/v1/explore?moves=f5d6c3");
    for sym in Symmetry::ALL {
        let turned = pos.transform(sym);
        let obf = turned.to_obf().replace(' ', "%20");
        let v = s.json(&format!("/api/v1/explore?position={obf}"));
        assert_eq!(v["games"], plain["games"], "{sym:?}");
        let mut want: Vec<(String, u64)> = rows(&plain)
            .into_iter()
            .map(|(m, g)| (sym.apply_move(parse_moves(&m).unwrap()[0]).to_string(), g))
            .collect();
        let mut got = rows(&v);
        want.sort();
        got.sort();
        assert_eq!(got, want, "{sym:?}");
    }
    // A board then moves from it.
    let start = Position::START.to_obf().replace(' ', "%20");
    let v = s.json(&format!("/api/v1/explore?position={start}&moves=f5d6c3"));
    assert_eq!(v["games"], plain["games"]);
}

#[test]
fn info_describes_the_book_and_the_limits() {
    let s = server();
    let b = book();
    let v = s.json("/api/v1/info");
    assert_eq!(v["games"].as_u64(), Some(b.info().games));
    assert_eq!(v["positions"].as_u64(), Some(b.counts().0));
    assert_eq!(v["max_depth"].as_u64(), Some(12));
    assert_eq!(v["game_table"].as_bool(), Some(true));
    assert_eq!(v["searches_running"].as_u64(), Some(0));
    let e = b.info().evaluation.expect("the default book has values");
    let shown = &v["evaluation"];
    assert_eq!(shown["depth"].as_u64(), Some(u64::from(e.depth)));
    assert_eq!(shown["exact_from"].as_u64(), Some(u64::from(e.exact_from)));
    assert_eq!(
        shown["selectivity"].as_u64(),
        Some(u64::from(e.selectivity))
    );
}

/// A games query with a 1,000-character `param`.
fn long_text(param: &str) -> String {
    format!("/api/v1/games?moves=f5&{param}={}", "y".repeat(1000))
}

#[test]
fn bad_requests_get_json_errors_and_the_server_keeps_serving() {
    let s = server();
    let cases: &[(&str, u16, Option<&str>)] = &[
        ("/api/v1/explore?moves=f5f5", 400, Some("moves")),
        ("/api/v1/explore?moves=z9", 400, Some("moves")),
        ("/api/v1/explore?position=XXXX", 400, Some("position")),
        ("/api/v1/explore?moves=f5&depth=0", 400, Some("depth")),
        ("/api/v1/explore?moves=f5&depth=13", 400, Some("depth")),
        ("/api/v1/explore?moves=f5&depth=99999999999", 400, None),
        ("/api/v1/explore?moves=f5&depth=abc", 400, None),
        ("/api/v1/explore?nonsense=1", 400, None),
        ("/api/v1/games?moves=f5&limit=100000", 400, Some("limit")),
        ("/api/v1/games?moves=f5&limit=0", 400, Some("limit")),
        ("/api/v1/games?moves=f5&years=2000-1990", 400, Some("years")),
        ("/api/v1/games?moves=f5&color=white", 400, Some("color")),
        (
            "/api/v1/games?moves=f5&player=zzzzqqqqxxxx",
            400,
            Some("player"),
        ),
        ("/api/v1/games?moves=f5&depth=4", 400, Some("depth")),
        ("/api/v1/review", 400, Some("moves")),
        ("/api/v1/review?moves=", 400, Some("moves")),
        ("/api/v1/nothing", 404, None),
        (&long_text("position"), 400, Some("position")),
        (&long_text("player"), 400, Some("player")),
        (&long_text("event"), 400, Some("event")),
        (&long_text("years"), 400, Some("years")),
        (&long_text("color"), 400, Some("color")),
        ("/nothing", 404, None),
    ];
    for (path, status, param) in cases {
        let v = s.error(path, *status);
        if let Some(p) = param {
            assert_eq!(v["param"].as_str(), Some(*p), "{path}: {v}");
        }
    }
    let (status, body) = request(s.addr, "DELETE", "/api/v1/info", None);
    assert_eq!(status, 405, "{body}");
    assert!(serde_json::from_str::<Value>(&body).unwrap()["error"].is_string());
    let long = "f5".repeat(300);
    s.error(&format!("/api/v1/explore?moves={long}"), 400);
    // Bodies: too large, not JSON, unknown fields.
    let huge = vec![b'x'; 1 << 20];
    let (status, body) = request(s.addr, "POST", "/api/v1/review", Some(&huge));
    assert_eq!(status, 413, "{body}");
    assert!(serde_json::from_str::<Value>(&body).unwrap()["error"].is_string());
    for bad in [
        &b"{"[..],
        b"[1,2]",
        br#"{"moves":"f5","extra":1}"#,
        br#"{"moves":"f5f5"}"#,
    ] {
        let (status, body) = request(s.addr, "POST", "/api/v1/review", Some(bad));
        assert!((400..500).contains(&status), "{status} {body}");
        assert!(serde_json::from_str::<Value>(&body).unwrap()["error"].is_string());
    }
    // Still serving, and concurrent bad and good requests all get their answers.
    let threads: Vec<_> = (0..16)
        .map(|i| {
            let addr = s.addr;
            std::thread::spawn(move || {
                let path = if i % 2 == 0 {
                    "/api/v1/explore?moves=f5d6"
                } else {
                    "/api/v1/explore?moves=f5f5"
                };
                request(addr, "GET", path, None).0
            })
        })
        .collect();
    for (i, t) in threads.into_iter().enumerate() {
        assert_eq!(t.join().unwrap(), if i % 2 == 0 { 200 } else { 400 });
    }
}

#[test]
fn evaluations_score_every_legal_move_and_repeat_from_the_cache() {
    let s = server();
    let v = s.json("/api/v1/explore?moves=f5d6c3&depth=6");
    assert_eq!(v["eval_depth"].as_u64(), Some(6));
    let moves = v["moves"].as_array().unwrap();
    let legal = v["legal"].as_array().unwrap();
    for l in legal {
        let row = moves
            .iter()
            .find(|m| m["move"] == *l || m["equivalent"].as_array().is_some_and(|e| e.contains(l)));
        let row = row.unwrap_or_else(|| panic!("no row for {l}"));
        assert!(row["eval"].is_number(), "{row}");
    }
    let before = s.json("/api/v1/info")["cached_answers"].as_u64().unwrap();
    let again = s.json("/api/v1/explore?moves=f5d6c3&depth=6");
    assert_eq!(again, v);
    let after_repeat = s.json("/api/v1/info")["cached_answers"].as_u64().unwrap();
    assert_eq!(
        before, after_repeat,
        "a repeated query is answered from the cache"
    );
    // Without depth, no eval field.
    let plain = s.json("/api/v1/explore?moves=f5d6c3");
    assert!(plain["moves"][0].get("eval").is_none());
}

#[test]
fn searches_beyond_the_limit_wait_then_get_503() {
    // The long search must outlast the requests below, made once it runs: depth 12 took
    // under 300 ms once the midgame search had ProbCut, so it goes to 16.
    let s = TestServer::start(
        ServeOptions::new(16, 1, 100)
            .unwrap()
            .with_queue_wait(Duration::from_millis(1)),
    );
    let addr = s.addr;
    let long = std::thread::spawn(move || {
        request(
            addr,
            "GET",
            "/api/v1/explore?moves=f5d6c3d3c4f4&depth=16",
            None,
        )
        .0
    });
    // Once it has its slot, however long a loaded machine takes to get it there.
    wait_until(common::HANG, "the long search takes the slot", || {
        s.json("/api/v1/info")["searches_running"].as_u64() == Some(1)
    });
    let v = s.error("/api/v1/explore?moves=f5f6e6f4&depth=12", 503);
    assert!(v["error"].as_str().unwrap().contains("busy"));
    // Book queries are not held up by the search.
    s.json("/api/v1/explore?moves=f5f6");
    assert_eq!(long.join().unwrap(), 200);
}

/// Regression: a search went on to its end after its client hung up, and kept its slot all
/// that time (with one slot, every other search got 503). The hang-up now stops the search
/// (explore's and a review's), and its slot is free again once it has stopped.
#[test]
fn regression_a_search_ran_on_after_its_client_hung_up() {
    // One slot, taken at once or refused; searches that would run for hours unless stopped.
    let s = TestServer::start(
        ServeOptions::new(60, 1, 100)
            .unwrap()
            .with_queue_wait(Duration::from_millis(1)),
    );
    let running = || s.json("/api/v1/info")["searches_running"].as_u64().unwrap();
    let review = br#"{"moves":"f5d6c3d3c4f4f6f3e6e7","depth":40}"#;
    let long: [(&str, &str, Option<&[u8]>, &str); 2] = [
        (
            "GET",
            "/api/v1/explore?moves=f5d6c3&depth=40",
            None,
            "f5f4e3",
        ),
        ("POST", "/api/v1/review", Some(review), "f5f6e6"),
    ];
    let limit = common::HANG;
    for (method, path, body, next) in long {
        let client = send_only(s.addr, method, path, body);
        wait_until(limit, "the long search takes the slot", || running() == 1);
        let v = s.error("/api/v1/explore?moves=f5d6c5&depth=2", 503);
        assert!(v["error"].as_str().unwrap().contains("busy"), "{v}");
        drop(client);
        wait_until(limit, "the hung-up search frees its slot", || {
            running() == 0
        });
        // Served at once (a slot still held gives 503), and searched to the depth asked.
        let v = s.json(&format!("/api/v1/explore?moves={next}&depth=2"));
        assert_eq!(v["eval_depth"].as_u64(), Some(2), "{method} {path}: {v}");
    }
}

#[test]
fn games_list_the_games_reaching_the_position_with_filters() {
    let s = server();
    let b = book();
    let v = s.json("/api/v1/games?moves=f5d6c3d3&limit=5");
    let pos = after("f5d6c3d3");
    assert_eq!(
        v["total"].as_u64(),
        Some(b.try_probe(&pos.board).unwrap().unwrap().games())
    );
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 5);
    for g in games {
        // Turned into the caller's orientation: its first `ply` plies reach the position.
        let moves = parse_moves(g["moves_here"].as_str().unwrap()).unwrap();
        let ply = g["ply"].as_u64().unwrap() as usize;
        let reached = Position::START
            .replay(moves[..ply].iter().copied())
            .unwrap()
            .end;
        assert_eq!(reached, pos, "{g}");
    }
    let filtered = s.json("/api/v1/games?moves=f5d6c3d3&player=tamenori&limit=500");
    let n = filtered["total"].as_u64().unwrap();
    assert!(n > 0 && n < v["total"].as_u64().unwrap());
    for g in filtered["games"].as_array().unwrap() {
        let names = format!("{} {}", g["black"], g["white"]).to_lowercase();
        assert!(names.contains("tamenori"), "{names}");
    }
    let years = s.json("/api/v1/games?moves=f5d6&years=1990-1991&limit=500");
    for g in years["games"].as_array().unwrap() {
        let y = g["year"].as_u64().unwrap();
        assert!((1990..=1991).contains(&y));
    }
    // The move table follows the filter too.
    let e = s.json("/api/v1/explore?moves=f5d6c3d3&player=tamenori");
    assert_eq!(e["filtered"], true);
    assert_eq!(e["games"].as_u64(), Some(n));
    let page2 = s.json("/api/v1/games?moves=f5d6c3d3&limit=5&offset=5");
    assert_ne!(page2["games"][0]["id"], v["games"][0]["id"]);
}

#[test]
fn review_scores_a_game_by_get_and_post() {
    let s = server();
    let game = "f5d6c3d3c4f4f6f3e6e7";
    let v = s.json(&format!("/api/v1/review?moves={game}&depth=4"));
    assert_eq!(v["moves"].as_array().unwrap().len(), 10);
    assert_eq!(v["settings"]["depth"].as_u64(), Some(4));
    let body = format!(r#"{{"moves":"{game}","depth":4}}"#);
    let (status, text) = request(s.addr, "POST", "/api/v1/review", Some(body.as_bytes()));
    assert_eq!(status, 200, "{text}");
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
}

#[test]
fn the_page_and_its_assets_are_served_from_the_binary() {
    let s = server();
    for (path, kind) in [
        ("/", "<html"),
        ("/app.js", "use strict"),
        ("/style.css", "#board"),
    ] {
        let (status, body) = s.get(path);
        assert_eq!(status, 200, "{path}");
        assert!(body.contains(kind), "{path}");
    }
    // The review view: its table in the page, posted to the API by the script.
    assert!(s.get("/").1.contains("id=\"review\""));
    assert!(s.get("/app.js").1.contains("postJson(\"review\""));
}

/// `othbook serve` on `listen`, up and answering: the process, the port it listens on,
/// and what it printed.
fn serve_process(
    listen: &str,
) -> (
    std::process::Child,
    std::net::SocketAddr,
    std::io::BufReader<std::process::ChildStdout>,
) {
    serve_book_process(BOOK, listen)
}

#[test]
fn serve_says_its_url_and_stops_cleanly_on_ctrl_c() {
    let (child, _, out) = serve_process("127.0.0.1:0");
    let (rest, err) = interrupt(child, out);
    assert!(rest.contains("stopped"), "{rest}");
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn regression_serve_listened_on_every_network_without_a_word() {
    let (child, _, out) = serve_process("0.0.0.0:0");
    let (_, err) = interrupt(child, out);
    assert!(err.contains("warning"), "{err}");
    assert!(err.contains("open to every network"), "{err}");
}

#[test]
fn regression_a_huge_player_name_stalled_every_request() {
    let s = server();
    let huge = "q".repeat(60_000);
    let hostile: Vec<_> = (0..6)
        .map(|i| {
            let addr = s.addr;
            let param = if i % 2 == 0 { "player" } else { "event" };
            let path = format!("/api/v1/games?moves=f5&{param}={huge}");
            std::thread::spawn(move || request(addr, "GET", &path, None))
        })
        .collect();
    // While they are sent and answered, /info answers: a guard that it did not hang (the
    // search they caused used to hold every thread of the server for 10-40 s).
    let (tx, rx) = std::sync::mpsc::channel();
    let addr = s.addr;
    std::thread::spawn(move || tx.send(request(addr, "GET", "/api/v1/info", None).0));
    let info = rx.recv_timeout(Duration::from_secs(10));
    assert_eq!(
        info,
        Ok(200),
        "/info did not answer while hostile requests ran"
    );
    for (i, t) in hostile.into_iter().enumerate() {
        let (status, body) = t.join().unwrap();
        assert_eq!(status, 400, "{body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        let param = if i % 2 == 0 { "player" } else { "event" };
        assert_eq!(v["param"].as_str(), Some(param), "{body}");
        assert!(v["error"].as_str().unwrap().contains("at most"), "{body}");
    }
}

/// A game of the book in which black must pass after these moves (white then plays h7).
const BEFORE_PASS: &str = "f5d6c5f4e3c6d7e6f6c8d3f3g4c4g3g5e7g6h6h5f7h3d8d2e2c7d1e1f1c3b4b5b3\
a4a5b6a3f2a6h4g2g8c2h1b7a8b8a7e8f8g7a2b2a1g1h2c1b1";

#[test]
fn a_forced_pass_is_said_and_put_back_into_the_line() {
    let s = server();
    let v = s.json(&format!("/api/v1/explore?moves={BEFORE_PASS}"));
    assert_eq!(v["must_pass"], true);
    assert_eq!(v["game_over"], false);
    assert_eq!(v["legal"], serde_json::json!([]));
    let after = s.json(&format!("/api/v1/explore?moves={BEFORE_PASS}h7"));
    assert_eq!(
        after["line"].as_str().unwrap(),
        format!("{BEFORE_PASS}pah7")
    );
    let passed = s.json(&format!("/api/v1/explore?moves={BEFORE_PASS}pa"));
    assert!(passed["legal"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m == "h7"));
}

/// A copy of the project's book in `dir` with a flipped byte in its first data block (the
/// position index): it opens lazily, its game table reads, and explore queries fail.
fn damaged_book(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("damaged.book");
    let mut bytes = std::fs::read(BOOK).unwrap();
    let first = book().data_blocks().next().unwrap();
    bytes[first.start] ^= 0x40;
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn regression_a_500_answer_carried_the_books_absolute_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = damaged_book(dir.path());
    let book = Book::open_lazy(&path).unwrap();
    let options = ServeOptions::new(12, 2, 1000).unwrap();
    let state = othbook::serve::AppState::new(book, "damaged.book".into(), options);
    let s = TestServer::start_state(state.unwrap());
    let dir_text = dir.path().display().to_string();
    for query in [
        "/api/v1/explore?moves=f5",
        "/api/v1/explore?moves=f5d6&player=Tamenori",
    ] {
        let v = s.error(query, 500);
        let text = v["error"].as_str().unwrap();
        assert!(!text.contains(&dir_text), "{query}: {v}");
        assert!(!text.contains("checksum"), "{query}: {v}");
        assert!(text.contains("damaged.book"), "{query}: {v}");
    }
    // The server keeps serving what does not need the damaged block.
    s.json("/api/v1/info");
}

#[test]
fn regression_a_book_overwritten_in_place_made_serve_answer_wrong_data_then_die() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("served.book");
    std::fs::copy(BOOK, &path).unwrap();
    let (child, addr, out) = serve_book_process(path.to_str().unwrap(), "127.0.0.1:0");
    let lines = [
        "f5d6c3",
        "f5f6e6f4",
        "d3c5f6f5e6e3",
        "c4e3f6e6f5",
        "f5d6c4d3c3",
    ];
    let ask = |line: &str| request(addr, "GET", &format!("/api/v1/explore?moves={line}"), None);
    let first = ask(lines[0]);
    assert_eq!(first.0, 200, "{}", first.1);
    // Rewritten in place as `cp` or a plain write does: opened for writing, cut short, then
    // written. The file is now a few bytes of something else.
    std::fs::write(&path, b"not a book any more").unwrap();
    let b = book();
    for line in lines {
        let (status, body) = ask(line);
        assert_eq!(status, 200, "{line}: {body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        let stats = b.try_probe(&after(line).board).unwrap().unwrap();
        assert_eq!(v["games"].as_u64(), Some(stats.games()), "{line}");
    }
    let (_, err) = interrupt(child, out);
    assert!(!err.contains("panicked"), "{err}");
}

/// Game rows gave their source as the path the book was built from
/// (`../shared/data/wthor/WTH_2021.wtb`): folders of the building machine, which tell a
/// visitor about the server's disk. They now give the file name alone.
#[test]
fn regression_games_rows_named_the_servers_folders() {
    let s = server();
    let v = s.json("/api/v1/games?moves=f5d6&limit=50");
    let games = v["games"].as_array().unwrap();
    assert!(!games.is_empty());
    for g in games {
        let source = g["source"].as_str().unwrap();
        assert!(
            source.starts_with("WTH_") && source.ends_with(".wtb") && !source.contains('/'),
            "{g}"
        );
    }
}
