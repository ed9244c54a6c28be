//! Several named books in one server: the `book` parameter of every endpoint, the default
//! (the first), the list in `/api/v1/info`, answers cached per book, a book that does not
//! open left out while the others are served, and `serve --book NAME=PATH`'s checks.

mod common;

use common::web::{request, small_book, wait_until, TestServer, BOOK};
use othbook::book::Book;
use othbook::serve::{AppState, BookSpec, ServeOptions};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn spec(name: &str, path: &Path) -> BookSpec {
    BookSpec {
        name: name.into(),
        path: path.to_path_buf(),
    }
}

fn options() -> ServeOptions {
    ServeOptions::new(8, 2, 100).unwrap()
}

/// The games of the book at `path` that reach the position after `moves`.
fn games_in(path: &Path, moves: &str) -> u64 {
    let b = Book::open(path).unwrap();
    let pos = common::after(moves);
    b.try_probe(&pos.board).unwrap().map_or(0, |s| s.games())
}

/// The moves the explore answer lists, with their games.
fn move_games(v: &Value) -> Vec<(String, u64)> {
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap_or_default().to_string(),
                m["book"]["games"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

#[test]
fn each_endpoint_answers_from_the_book_it_names_and_the_first_is_the_default() {
    let dir = tempfile::tempdir().unwrap();
    let small = small_book(dir.path());
    let books = [spec("wthor", Path::new(BOOK)), spec("mine", &small)];
    let (state, failed) = AppState::from_files(&books, options()).unwrap();
    assert!(failed.is_empty());
    let server = TestServer::start_state(state);

    let info = server.json("/api/v1/info");
    assert_eq!(info["book"], "wthor");
    let listed: Vec<(&str, bool, bool)> = info["books"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["name"].as_str().unwrap(),
                b["default"].as_bool().unwrap(),
                b["available"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(listed, [("wthor", true, true), ("mine", false, true)]);
    let mine_entry = &info["books"][1];
    let small_book_opened = Book::open(&small).unwrap();
    assert_eq!(mine_entry["positions"], small_book_opened.counts().0);
    assert_eq!(mine_entry["games"], small_book_opened.info().games);
    assert_eq!(mine_entry["evaluated"], false);
    let mine_info = server.json("/api/v1/info?book=mine");
    assert_eq!(mine_info["book"], "mine");
    assert_eq!(mine_info["positions"], small_book_opened.counts().0);

    // The same query to each book, twice (the second from the cache): each book's answer.
    for _ in 0..2 {
        let default = server.json("/api/v1/explore?moves=f5");
        let wthor = server.json("/api/v1/explore?moves=f5&book=wthor");
        let mine = server.json("/api/v1/explore?moves=f5&book=mine");
        assert_eq!(default, wthor);
        assert_eq!(wthor["games"], games_in(Path::new(BOOK), "f5"));
        assert_eq!(mine["games"], games_in(&small, "f5"));
        assert_ne!(move_games(&wthor), move_games(&mine));
        let g = server.json("/api/v1/games?moves=f5&book=mine");
        assert_eq!(g["total"], games_in(&small, "f5"));
        let g = server.json("/api/v1/games?moves=f5");
        assert_eq!(g["total"], games_in(Path::new(BOOK), "f5"));
    }
    // The review looks the moves up in the book it names.
    let review = |book: &str| -> Value {
        let body = format!(r#"{{"moves":"f5d6c3","depth":2,"book":"{book}"}}"#);
        let (status, text) = request(server.addr, "POST", "/api/v1/review", Some(body.as_bytes()));
        assert_eq!(status, 200, "{text}");
        serde_json::from_str(&text).unwrap()
    };
    assert_ne!(review("wthor"), review("mine"));
    let got = server.json("/api/v1/review?moves=f5d6c3&depth=2&book=mine");
    assert_eq!(got, review("mine"));
}

#[test]
fn an_unknown_book_is_a_clear_404_naming_the_books() {
    let dir = tempfile::tempdir().unwrap();
    let small = small_book(dir.path());
    let books = [spec("wthor", Path::new(BOOK)), spec("mine", &small)];
    let server = TestServer::start_state(AppState::from_files(&books, options()).unwrap().0);
    for path in [
        "/api/v1/explore?moves=f5&book=nope",
        "/api/v1/games?book=nope",
        "/api/v1/info?book=nope",
        "/api/v1/review?moves=f5&book=nope",
    ] {
        let e = server.error(path, 404);
        assert_eq!(e["param"], "book", "{path}");
        let text = e["error"].as_str().unwrap();
        assert!(
            text.contains("\"nope\"") && text.contains("wthor, mine"),
            "{text}"
        );
    }
    let long = "b".repeat(201);
    let e = server.error(&format!("/api/v1/explore?book={long}"), 400);
    assert_eq!(e["param"], "book");
    // A blank book is the default, as a blank position is the start.
    assert_eq!(
        server.json("/api/v1/explore?moves=f5&book="),
        server.json("/api/v1/explore?moves=f5")
    );
}

#[test]
fn a_book_that_does_not_open_is_left_out_and_served_once_it_appears() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("later.book");
    let damaged = dir.path().join("damaged.book");
    let whole = std::fs::read(BOOK).unwrap();
    std::fs::write(&damaged, &whole[..whole.len() / 3]).unwrap();
    let books = [
        spec("broken", &damaged),
        spec("wthor", Path::new(BOOK)),
        spec("later", &missing),
    ];
    let (state, failed) = AppState::from_files(&books, options()).unwrap();
    let names: Vec<&str> = failed.iter().map(|(s, _)| s.name.as_str()).collect();
    assert_eq!(names, ["broken", "later"]);
    let server = TestServer::start_state(state);
    let (status, body) = server.get("/api/v1/info?book=wthor");
    assert_eq!(status, 200, "{body}");
    assert!(
        !body.contains(dir.path().to_str().unwrap()),
        "no server path in an answer: {body}"
    );
    let info: Value = serde_json::from_str(&body).unwrap();
    let kinds: Vec<(&str, Option<&str>)> = info["books"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["name"].as_str().unwrap(), b["error"].as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("broken", Some("invalid")),
            ("wthor", None),
            ("later", Some("missing"))
        ]
    );
    // The default did not open: a request without `book` says so, the others answer.
    let e = server.error("/api/v1/explore?moves=f5", 503);
    assert_eq!(e["param"], "book");
    assert!(!e["error"]
        .as_str()
        .unwrap()
        .contains(dir.path().to_str().unwrap()));
    server.json("/api/v1/explore?moves=f5&book=wthor");
    server.error("/api/v1/explore?moves=f5&book=later", 503);
    // The missing book appears: it is served from then on.
    let small = small_book(dir.path());
    std::fs::rename(&small, &missing).unwrap();
    wait_until(
        Duration::from_secs(60),
        "the book that appeared is served",
        || server.get("/api/v1/explore?moves=f5&book=later").0 == 200,
    );
    let later = server.json("/api/v1/explore?moves=f5&book=later");
    assert_eq!(later["games"], games_in(&missing, "f5"));
}

#[test]
fn none_of_the_books_opening_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let books = [
        spec("a", &dir.path().join("a.book")),
        spec("b", &dir.path().join("b.book")),
    ];
    assert!(AppState::from_files(&books, options()).is_err());
}

/// `othbook serve ARGS` run until it exits (it must, before listening): exit code, stderr.
fn serve_refused(args: &[&str]) -> (Option<i32>, String) {
    let (code, _, err) = common::run_within(
        &[&["serve", "--addr", "127.0.0.1:0"], args].concat(),
        common::HANG,
    );
    (code, err)
}

#[test]
fn serve_refuses_two_books_of_one_name_and_bad_names() {
    let dir = tempfile::tempdir().unwrap();
    let copy: PathBuf = dir.path().join("wthor.book");
    std::fs::copy(BOOK, &copy).unwrap();
    let copy = copy.to_str().unwrap();
    for (args, says) in [
        (
            vec!["--book", BOOK, "--book", copy],
            "two books are named \"wthor\"",
        ),
        (
            vec![
                "--book",
                "x=books/wthor.book",
                "--book",
                &format!("x={copy}"),
            ],
            "two books are named \"x\"",
        ),
        (
            vec!["--book", "my book=books/wthor.book"],
            "not a book name",
        ),
        (vec!["--book", "x="], "give a book file"),
    ] {
        let (code, err) = serve_refused(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // None opens: the first one's error, not a server.
    let (code, err) = serve_refused(&[
        "--book",
        "a=/nonexistent/a.book",
        "--book",
        "b=/nonexistent/b.book",
    ]);
    assert_ne!(code, Some(0), "{err}");
    assert!(err.contains("a.book"), "{err}");
}

#[test]
fn serve_reports_a_book_that_does_not_open_and_serves_the_others() {
    use std::io::BufRead;
    let mut child = common::othbook_process()
        .args([
            "serve",
            "--book",
            BOOK,
            "--book",
            "gone=/nonexistent/gone.book",
        ])
        .args(["--addr", "127.0.0.1:0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let log = common::web::StderrLog::take(&mut child);
    let _guard = common::web::KillOnPanic(child.id());
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    assert!(line.contains("wthor=") && line.contains("gone="), "{line}");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap();
    let port: u16 = url
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let (status, body) = request(addr, "GET", "/api/v1/info", None);
    assert_eq!(status, 200, "{body}");
    let info: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(info["book"], "wthor");
    assert_eq!(info["books"][1]["error"], "missing");
    assert!(!body.contains("/nonexistent"), "{body}");
    wait_until(common::HANG, "the missing book is reported", || {
        log.text()
            .contains("cannot open book gone (/nonexistent/gone.book)")
    });
    common::web::interrupt(child, out);
}
