//! The explorer page's ratings, line losses and book fallback in a real browser (headless
//! Chromium, as serve_browser.rs; skipped with the install command when it is missing): the
//! rating floor, the "top games" order and the ratings columns change the lists and survive a
//! reload from the address; the line's loss against the book's best is shown under the board
//! and on the line; an unknown book in the address falls back to the default with a notice;
//! a failed request empties the move table; in a game against the engine, the user moves only
//! for their own colour. Screenshots are kept in target/browser/ (not committed).

mod common;

use common::browser::{Driver, Session};
use common::web::TestServer;
use othbook::serve::ServeOptions;
use serde_json::Value;
use std::path::Path;

/// The games list's rows as "black|white" text (each name with its rating), as JSON text.
const GAME_ROWS: &str = "JSON.stringify([...document.querySelectorAll('#games tbody tr')]\
    .map(tr => tr.children[1].textContent + '|' + tr.children[2].textContent))";

/// The rows the page should list for the API's games answer `g`.
fn game_rows(g: &Value) -> String {
    let player = |row: &Value, side: &str| {
        let name = row[side].as_str().unwrap_or("?").to_string();
        match row[format!("{side}_rating")].as_f64() {
            Some(r) => format!("{name} {}", r.round()),
            None => name,
        }
    };
    let rows: Vec<String> = g["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| format!("{}|{}", player(row, "black"), player(row, "white")))
        .collect();
    serde_json::to_string(&rows).unwrap()
}

/// The rating floor and the "top games" order change the games list (each player shown with
/// a rating), the ratings option adds the move table's average rating and performance, all
/// of it survives a reload from the address, and a floor out of range shows the API's reason.
#[test]
fn min_rating_and_top_games_change_the_games_list_and_survive_a_reload() {
    let Some(driver) = Driver::start() else {
        return;
    };
    let server = TestServer::start(ServeOptions::new(12, 2, 1000).unwrap());
    let s = Session::new(&driver);
    s.open(&format!("http://{}/#moves=f5d6", server.addr));
    s.wait_for_line("f5d6");
    let recent = server.json("/api/v1/games?moves=f5d6&limit=30");
    s.wait_for(GAME_ROWS, &game_rows(&recent));
    s.keys("#filters input[name=min_rating]", "2000");
    s.click("#filters button[type=submit]");
    let strong = server.json("/api/v1/games?moves=f5d6&limit=30&min_rating=2000");
    s.wait_for(GAME_ROWS, &game_rows(&strong));
    s.click("#order option[value='rating']");
    let top = server.json("/api/v1/games?moves=f5d6&limit=30&min_rating=2000&order=rating");
    assert_ne!(game_rows(&top), game_rows(&strong));
    s.wait_for(GAME_ROWS, &game_rows(&top));
    s.wait_for(
        "document.getElementById('games-summary').textContent.includes('top rated')",
        "true",
    );
    // The move table: the statistics of the games kept, and the ratings when asked.
    s.click("#show-ratings");
    let e = server.json("/api/v1/explore?moves=f5d6&min_rating=2000&ratings=true");
    let first = &e["ratings"]["moves"][0];
    let avg = first["average_rating"]
        .as_f64()
        .unwrap()
        .round()
        .to_string();
    let cell = |what: &str| {
        format!(
            "document.querySelector(\"#moves tr[data-move='{}'] td.{what}\")?.textContent",
            first["move"].as_str().unwrap()
        )
    };
    s.wait_for(&cell("avg-rating"), &avg);
    s.wait_for(&cell("games"), &e["moves"][0]["games"].to_string());
    let url = s.script("return location.href;");
    let url = url.as_str().unwrap().to_string();
    for part in ["moves=f5d6", "min_rating=2000", "order=rating", "ratings=1"] {
        assert!(url.contains(part), "{part} in {url}");
    }
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
    s.screenshot(&shots.join("serve-ratings.png"));
    // Opened afresh from the address: the same games, form and columns.
    s.open("about:blank");
    s.open(&url);
    s.wait_for_line("f5d6");
    s.wait_for(GAME_ROWS, &game_rows(&top));
    s.wait_for(&cell("avg-rating"), &avg);
    s.wait_for(
        "document.querySelector('#filters input[name=min_rating]').value",
        "2000",
    );
    s.wait_for("document.getElementById('order').value", "rating");
    s.wait_for("document.getElementById('show-ratings').checked", "true");
    // A floor out of range: the API's reason in the page, which keeps working.
    let reason = server.error("/api/v1/games?moves=f5d6&min_rating=9000", 400)["error"].clone();
    s.script("document.querySelector('#filters input[name=min_rating]').value = '';");
    s.keys("#filters input[name=min_rating]", "9000");
    s.click("#filters button[type=submit]");
    let reason = reason.as_str().unwrap();
    s.wait_for(
        "document.getElementById('games-summary').textContent",
        reason,
    );
    s.wait_for("document.getElementById('status').textContent", reason);
    s.wait_for("document.getElementById('status').className", "error");
    s.script("document.querySelector('#filters input[name=min_rating]').value = '';");
    s.click("#filters button[type=submit]");
    let all_top = server.json("/api/v1/games?moves=f5d6&limit=30&order=rating");
    s.wait_for(GAME_ROWS, &game_rows(&all_top));
    s.phone();
    s.script("document.getElementById('games').scrollIntoView();");
    s.screenshot(&shots.join("serve-ratings-phone.png"));
}

/// A loss as the page shows it: "0", "−2", "−1.25".
fn loss_text(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else {
        format!("\u{2212}{x}")
    }
}

/// The line's accumulated loss against the book's best: each side's total under the board
/// and each losing move's loss on the line, following the cursor.
#[test]
fn the_lines_loss_against_the_books_best_is_shown() {
    let Some(driver) = Driver::start() else {
        return;
    };
    let server = TestServer::start(ServeOptions::new(12, 2, 1000).unwrap());
    let s = Session::new(&driver);
    let totals = |line: &str| {
        let l = server.json(&format!("/api/v1/explore?moves={line}"))["line_losses"].clone();
        let (b, w) = (
            l["black_loss"].as_f64().unwrap(),
            l["white_loss"].as_f64().unwrap(),
        );
        let losses: Vec<String> = l["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["loss"].as_f64().is_some_and(|x| x > 0.0))
            .map(|m| format!("{}:{}", m["ply"], loss_text(m["loss"].as_f64().unwrap())))
            .collect();
        let text = format!(
            "Loss against the book's best: black {}, white {}",
            loss_text(b),
            loss_text(w)
        );
        (w, text, serde_json::to_string(&losses).unwrap())
    };
    let (white, text, losses) = totals("f5f4e3f6d3");
    assert!(white > 0.0, "a line with a known loss");
    s.open(&format!("http://{}/#moves=f5f4e3f6d3", server.addr));
    s.wait_for_line("f5f4e3f6d3");
    let shown = "JSON.stringify([...document.querySelectorAll('#line li')]\
        .map((li, i) => li.querySelector('.loss') ? (i + 1) + ':' + li.querySelector('.loss').textContent : null)\
        .filter(x => x))";
    s.wait_for("document.getElementById('line-loss').textContent", &text);
    s.wait_for("document.getElementById('line-loss').hidden", "false");
    s.wait_for(shown, &losses);
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
    s.screenshot(&shots.join("serve-line-loss.png"));
    // One move back: the totals of the shorter line.
    s.click("#back");
    s.wait_for_line("f5f4e3f6");
    let (_, text, losses) = totals("f5f4e3f6");
    s.wait_for("document.getElementById('line-loss').textContent", &text);
    s.wait_for(shown, &losses);
    // At the start there is no line: nothing shown.
    s.click("#first");
    s.wait_for_line("");
    s.wait_for("document.getElementById('line-loss').hidden", "true");
}

/// A book named in the address that the server does not serve (removed since the link was
/// made) left the page in an error state with no board: it now opens the default book, says
/// so, and drops the name from the address.
#[test]
fn regression_an_unknown_book_in_the_address_is_an_error_state() {
    let Some(driver) = Driver::start() else {
        return;
    };
    let server = TestServer::start(ServeOptions::new(12, 2, 1000).unwrap());
    let s = Session::new(&driver);
    s.open(&format!("http://{}/#book=gone&moves=f5d6", server.addr));
    s.wait_for_line("f5d6");
    s.wait_for(
        "document.getElementById('book-info').textContent.startsWith('wthor.book ')",
        "true",
    );
    s.wait_for("document.getElementById('notice').hidden", "false");
    let notice = s.script("return document.getElementById('notice').textContent;");
    let notice = notice.as_str().unwrap();
    assert!(
        notice.contains("\"gone\"") && notice.contains("wthor.book"),
        "{notice}"
    );
    s.wait_for("document.getElementById('status').className", "");
    let url = s.script("return location.href;");
    let url = url.as_str().unwrap();
    assert!(
        !url.contains("book=") && url.contains("moves=f5d6"),
        "{url}"
    );
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
    s.screenshot(&shots.join("serve-unknown-book.png"));
}

/// After a request failed (a rating floor out of range), the move table went on showing the
/// last position's moves, as if they were this one's: it is emptied, and filled again once a
/// request succeeds.
#[test]
fn regression_an_explore_error_left_the_last_positions_move_table() {
    let Some(driver) = Driver::start() else {
        return;
    };
    let server = TestServer::start(ServeOptions::new(12, 2, 1000).unwrap());
    let s = Session::new(&driver);
    s.open(&format!("http://{}/#moves=f5d6", server.addr));
    s.wait_for_line("f5d6");
    let rows = "document.querySelectorAll('#moves tbody tr').length";
    assert_ne!(s.script(&format!("return {rows};")), 0);
    s.keys("#filters input[name=min_rating]", "9000");
    s.click("#filters button[type=submit]");
    s.wait_for("document.getElementById('status').className", "error");
    s.wait_for(rows, "0");
    s.wait_for(
        "document.getElementById('moves').dataset.line === undefined",
        "true",
    );
    s.wait_for("state.answer === null", "true");
    s.script("document.querySelector('#filters input[name=min_rating]').value = '';");
    s.click("#filters button[type=submit]");
    s.wait_for_line("f5d6");
    assert_ne!(s.script(&format!("return {rows};")), 0);
}

/// In a game against the engine, stepping back to a position where the engine was to move
/// let the user play its move for it (a click on a square, a row or the pass button): only the
/// user's own positions take their moves, and one played there starts the game again from it.
#[test]
fn regression_after_stepping_back_the_user_could_move_for_the_engine() {
    let Some(driver) = Driver::start() else {
        return;
    };
    let server = TestServer::start(ServeOptions::new(12, 1, 1000).unwrap());
    let s = Session::new(&driver);
    s.start_playing(server.addr);
    s.click("#sq-f5");
    // The engine (white) answers.
    s.wait_for("state.moves.length", "2");
    let game = s.script("return state.moves.join('');");
    let game = game.as_str().unwrap().to_string();
    s.wait_for_line(&game);
    // One ply back: white, the engine, is to move there.
    s.click("#back");
    s.wait_for_line("f5");
    s.wait_for("state.answer.side", "white");
    s.wait_for(
        "document.getElementById('play-status').textContent.startsWith('The engine is to move here')",
        "true",
    );
    let legal = s.script("return state.answer.legal[0];");
    let legal = legal.as_str().unwrap();
    s.click(&format!("#sq-{legal}"));
    s.click(&format!("#moves tbody tr[data-move='{legal}']"));
    s.script("play('pa');");
    assert_eq!(
        s.script("return state.moves.join('');"),
        Value::from(game.as_str())
    );
    assert_eq!(s.script("return state.cursor;"), Value::from(1));
    // Back to the start, black's (the user's) turn: a move there starts the game again.
    s.click("#first");
    s.wait_for_line("");
    s.click("#sq-d3");
    s.wait_for("state.moves.length", "2");
    s.wait_for("state.moves[0]", "d3");
}
