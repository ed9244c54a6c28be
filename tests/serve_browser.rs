//! The explorer page in a real browser: headless Chromium driven by chromedriver (both from
//! Debian; `.ci/run` installs them) loads the page from a server started in the test, clicks
//! f5 then d6 on the board, and checks that the move table shows the book's counts for that
//! position; arrow keys step back and forth; a phone-sized window has no sideways scrolling.
//! The review view reviews the line, shows the API's figures, and jumps to a move when one is
//! clicked. With two books, the selector switches the move table, keeps the line and puts
//! the book in the address. A game is played against the engine to its end (with a take-back,
//! a switch of sides and the analysis on the board), saved as PGN and GGF, and reviewed.
//! Screenshots are kept in target/browser/ (not committed).
//! The ratings, the line's loss and a stale book in the address: serve_browser_explorer.rs.

mod common;

use common::browser::{Driver, Session};
use common::web::{TestServer, BOOK};
use othbook::board::{parse_moves, Position};
use othbook::book::Book;
use othbook::serve::ServeOptions;
use othbook::transcript::{ingest_bytes, Format, IngestOptions};
use serde_json::{json, Value};
use std::path::Path;

/// The book's (move, games) rows after `line`, as the table should list them.
fn book_rows(line: &str) -> Vec<(String, String)> {
    book_rows_in(Path::new(BOOK), line)
}

/// The (move, games) rows of the book at `path` after `line`.
fn book_rows_in(path: &Path, line: &str) -> Vec<(String, String)> {
    let book = Book::open_lazy(path).unwrap();
    let pos = Position::START
        .replay(parse_moves(line).unwrap())
        .unwrap()
        .end;
    book.try_moves(&pos.board)
        .unwrap()
        .iter()
        .map(|(m, s)| (m.to_string(), s.games().to_string()))
        .collect()
}

#[test]
fn clicking_f5_then_d6_shows_the_books_moves_in_a_real_browser() {
    let Some(driver) = Driver::start() else {
        return;
    };
    let server = TestServer::start(ServeOptions::new(12, 2, 1000).unwrap());
    let s = Session::new(&driver);
    s.open(&format!("http://{}/", server.addr));
    s.wait_for_line("");
    // The start's one row stands for the four first moves, and the page says so.
    let notes = s.script("return document.getElementById('move-notes').textContent;");
    assert_eq!(
        notes,
        "f5 stands for d3, c4 and e6 too: the position is symmetric."
    );
    s.click("#sq-f5");
    s.wait_for_line("f5");
    // Each row names the opening its move reaches, as the API's rows do.
    let cells = s.script(
        "return [...document.querySelectorAll('#moves tbody tr')].map(tr => \
         tr.querySelector('td.opening').textContent);",
    );
    let api: Vec<String> = server.json("/api/v1/explore?moves=f5")["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["opening"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(cells, json!(api));
    assert!(api.iter().any(|name| !name.is_empty()), "{api:?}");
    let notes = s.script("return document.getElementById('move-notes').textContent;");
    assert_eq!(notes, "", "f5 is not symmetric");
    s.click("#sq-d6");
    s.wait_for_line("f5d6");
    let rows = s.script(
        "return [...document.querySelectorAll('#moves tbody tr')].map(tr => \
         [tr.dataset.move, tr.querySelector('td.games').textContent]);",
    );
    let rows: Vec<(String, String)> = serde_json::from_value(rows).unwrap();
    let want = book_rows("f5d6");
    assert!(!want.is_empty());
    assert_eq!(
        rows[..want.len()],
        want[..],
        "the table shows the book's counts after f5 d6"
    );
    // How the values were searched, as `othbook info` says it.
    let e = Book::open_lazy(BOOK).unwrap().info().evaluation.unwrap();
    let info = s.script("return document.getElementById('book-info').textContent;");
    let says = format!(
        "values: leaf depth {}, {}, exact from {} empties",
        e.depth,
        e.selectivity_words(),
        e.exact_from
    );
    assert!(info.as_str().unwrap().contains(&says), "{info}");
    let summary = s.script("return document.getElementById('summary').textContent;");
    let games = Book::open_lazy(BOOK)
        .unwrap()
        .try_probe(
            &Position::START
                .replay(parse_moves("f5d6").unwrap())
                .unwrap()
                .end
                .board,
        )
        .unwrap()
        .unwrap()
        .games();
    assert!(
        summary
            .as_str()
            .unwrap()
            .starts_with(&format!("{games} games")),
        "{summary}"
    );
    // The opening's name, as the API gives it.
    let opening = server.json("/api/v1/explore?moves=f5d6")["opening"]["name"].clone();
    assert!(opening.is_string(), "f5 d6 has a name");
    let shown = s.script("return document.getElementById('opening').textContent;");
    assert_eq!(shown, opening);
    // Legal moves are marked; the line lists both moves.
    let legal = s.script(
        "return [...document.querySelectorAll('.sq.legal')].map(e => e.dataset.sq).sort();",
    );
    assert_eq!(legal, json!(["c3", "c4", "c5", "c6", "c7"]));
    // Arrow keys step back and forth through the line.
    s.keys("body", "\u{E012}");
    s.wait_for_line("f5");
    s.keys("body", "\u{E014}");
    s.wait_for_line("f5d6");
    // Hovering a row shows its move on the board.
    let first = &want[0].0;
    s.script(&format!(
        "document.querySelector('#moves tbody tr[data-move=\"{first}\"]').dispatchEvent(new MouseEvent('mouseenter'));"
    ));
    let ghost = s.script(&format!(
        "return !!document.querySelector('#sq-{first} .disc.ghost');"
    ));
    assert_eq!(ghost, json!(true));
    s.script(&format!(
        "document.querySelector('#moves tbody tr[data-move=\"{first}\"]').dispatchEvent(new MouseEvent('mouseleave'));"
    ));
    // The engine's evaluation on request: every row gets a score.
    s.script("const d = document.getElementById('depth'); d.value = '4'; d.dispatchEvent(new Event('change'));");
    s.wait_for(
        "[...document.querySelectorAll('#moves tbody td.eval')].every(td => /^[+-]?[0-9]/.test(td.textContent))",
        "true",
    );
    s.script("const d = document.getElementById('depth'); d.value = ''; d.dispatchEvent(new Event('change'));");
    s.wait_for(
        "document.querySelector('#moves tbody td.eval').textContent",
        "",
    );
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
    s.screenshot(&dir.join("serve-f5d6.png"));
    // Clicking a game steps through it: the line becomes the game's, up to the position.
    let games = server.json("/api/v1/games?moves=f5d6&limit=30");
    let game = &games["games"][0];
    let ply = game["ply"].as_u64().unwrap() as usize;
    let here = game["moves_here"].as_str().unwrap();
    s.wait_for(
        "document.getElementById('games').dataset.line",
        "moves=f5d6",
    );
    s.click("#games tbody tr");
    s.wait_for_line(&here[..2 * ply]);
    s.keys("body", "\u{E014}");
    s.wait_for_line(&here[..2 * ply + 2]);
    // Pasting a move string, then a board.
    s.script("document.getElementById('paste-text').value = 'F5 f6 e6';");
    s.click("#paste button");
    s.wait_for_line("f5f6e6");
    let board = Position::START
        .replay(parse_moves("f5d6c3").unwrap())
        .unwrap()
        .end
        .to_obf();
    s.script(&format!(
        "document.getElementById('paste-text').value = '{board}';"
    ));
    s.click("#paste button");
    s.wait_for("document.getElementById('moves').dataset.line + '|' + document.querySelectorAll('.disc.black').length", "|5");
    let rows = s.script(
        "return [...document.querySelectorAll('#moves tbody tr')].map(tr => \
         [tr.dataset.move, tr.querySelector('td.games').textContent]);",
    );
    let rows: Vec<(String, String)> = serde_json::from_value(rows).unwrap();
    let want = book_rows("f5d6c3");
    assert_eq!(
        rows[..want.len()],
        want[..],
        "the pasted board shows the book's counts"
    );
    s.wait_for_line("");
    s.click("#sq-d3");
    s.wait_for_line("d3");
    // A forced pass: the Pass button shows, and plays it.
    let before_pass = "f5d6c5f4e3c6d7e6f6c8d3f3g4c4g3g5e7g6h6h5f7h3d8d2e2c7d1e1f1c3b4b5b3\
a4a5b6a3f2a6h4g2g8c2h1b7a8b8a7e8f8g7a2b2a1g1h2c1b1";
    s.script(&format!(
        "document.getElementById('paste-text').value = '{before_pass}';"
    ));
    s.click("#paste button");
    s.wait_for_line(before_pass);
    s.wait_for("document.getElementById('pass').hidden", "false");
    s.click("#pass");
    s.wait_for_line(&format!("{before_pass}pa"));
    s.wait_for("document.getElementById('pass').hidden", "true");
    // A phone-sized window at f5 d6: everything fits its width.
    s.script("document.getElementById('paste-text').value = 'f5d6';");
    s.click("#paste button");
    s.wait_for_line("f5d6");
    s.script("window.scrollTo(0, 0);");
    s.cmd(
        "POST",
        "window/rect",
        Some(json!({"width": 390, "height": 844})),
    );
    let overflow = s.script("return document.documentElement.scrollWidth - window.innerWidth;");
    let wide = s.script(
        "return [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 8).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).concat(['inner ' + window.innerWidth]);",
    );
    assert!(
        overflow.as_i64().unwrap() <= 0,
        "the page scrolls sideways by {overflow} px: {wide}"
    );
    s.screenshot(&dir.join("serve-f5d6-phone.png"));
}

/// The cells of every row of the table `css`.
fn table_cells(s: &Session, css: &str) -> Vec<Vec<String>> {
    let rows = s.script(&format!(
        "return [...document.querySelectorAll('{css} tbody tr')].map(tr => \
         [...tr.querySelectorAll('td')].map(td => td.textContent));"
    ));
    serde_json::from_value(rows).unwrap()
}

/// A number as the page shows it (`+1.25`, `-3`, `0.50`).
fn shown(cell: &str) -> f64 {
    cell.parse()
        .unwrap_or_else(|e| panic!("{cell:?} is not a number: {e}"))
}

/// The review view: the line on the board, reviewed at the depth chosen, shows every ply with
/// the API's figures and both players' summaries; clicking a ply shows the position it was
/// played from; moves typed into the review box become the line and are reviewed; Stop
/// abandons a long review and the server frees its search slot.
#[test]
fn the_review_view_scores_the_line_and_jumps_to_a_move() {
    let Some(driver) = Driver::start() else {
        return;
    };
    let server = TestServer::start(ServeOptions::new(12, 1, 1000).unwrap());
    let s = Session::new(&driver);
    let game = "f5d6c3d3c4f4f6f3e6e7";
    s.cmd(
        "POST",
        "url",
        Some(json!({"url": format!("http://{}/#moves={game}", server.addr)})),
    );
    s.wait_for_line(game);
    // Depths up to the server's cap, 6 chosen.
    s.wait_for(
        "[...document.querySelectorAll('#review-depth option')].map(o => o.value).join(' ')",
        "2 4 6 8 10 12",
    );
    s.wait_for("document.getElementById('review-depth').value", "6");
    s.script("document.getElementById('review-depth').value = '4';");
    s.click("#review-go");
    s.wait_for("document.getElementById('review').dataset.moves", game);
    let api = server.json(&format!("/api/v1/review?moves={game}&depth=4"));
    let moves = api["moves"].as_array().unwrap();
    let rows = table_cells(&s, "#review");
    assert_eq!(rows.len(), moves.len());
    for (row, m) in rows.iter().zip(moves) {
        let v = &m["verdict"];
        assert_eq!(row[0], m["ply"].to_string(), "{row:?}");
        assert_eq!(row[1], m["move"].as_str().unwrap(), "{row:?}");
        assert_eq!(row[2], m["side"].as_str().unwrap(), "{row:?}");
        assert!((shown(&row[3]) - v["played"].as_f64().unwrap()).abs() < 0.006);
        assert_eq!(row[4], v["best_move"].as_str().unwrap(), "{row:?}");
        assert!((shown(&row[5]) - v["best"].as_f64().unwrap()).abs() < 0.006);
        assert!((shown(&row[6]) - v["loss"].as_f64().unwrap()).abs() < 0.006);
        assert_eq!(row[7], v["mark"].as_str().unwrap_or(""), "{row:?}");
        let book = m["book"]["games"].as_u64().map(|g| g.to_string());
        assert_eq!(row[8], book.unwrap_or_default(), "{row:?}");
    }
    assert!(
        moves.iter().any(|m| m["book"].is_object()),
        "the game starts in the book"
    );
    let players = table_cells(&s, "#review-players");
    for (row, side) in players.iter().zip(["black", "white"]) {
        let p = &api[side];
        assert!(row[0].to_lowercase().starts_with(side), "{row:?}");
        let want = [
            p["moves"].to_string(),
            format!("{:.2}", p["average_loss"].as_f64().unwrap()),
            format!("{:.2}", p["total_loss"].as_f64().unwrap()),
            p["inaccuracies"].to_string(),
            p["mistakes"].to_string(),
            p["blunders"].to_string(),
            p["in_book"].to_string(),
        ];
        assert_eq!(row[1..], want[..], "{side}");
    }
    assert_eq!(players.len(), 2);
    // Clicking ply 5 shows the position it was played from; the game stays the line.
    s.click("#review tbody tr[data-ply='5']");
    s.wait_for_line("f5d6c3d3");
    s.wait_for("document.querySelectorAll('#line li').length", "10");
    s.wait_for(
        "document.querySelector('#review tr.current').dataset.ply",
        "5",
    );
    s.keys("body", "\u{E014}");
    s.wait_for_line("f5d6c3d3c4");
    s.wait_for(
        "document.querySelector('#review tr.current').dataset.ply",
        "6",
    );
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
    s.screenshot(&dir.join("serve-review.png"));
    // Moves typed into the review box become the line, and are reviewed.
    s.script("document.getElementById('review-text').value = 'f5 f6 e6 f4';");
    s.click("#review-go");
    s.wait_for_line("f5f6e6f4");
    s.wait_for(
        "document.getElementById('review').dataset.moves",
        "f5f6e6f4",
    );
    // Stop abandons a long review (a whole game at the deepest choice): the page says so,
    // and the server stops the search and frees its only slot.
    let long = "f5d6c5f4e3c6d7e6f6c8d3f3g4c4g3g5e7g6h6h5f7h3d8d2e2c7d1e1f1c3b4b5b3\
a4a5b6a3f2a6h4g2g8c2h1b7a8b8a7e8f8g7a2b2a1g1h2c1b1";
    s.script(&format!(
        "document.getElementById('review-text').value = '{long}'; \
         document.getElementById('review-depth').value = '12';"
    ));
    s.click("#review-go");
    common::web::wait_until(common::HANG, "the review takes the slot", || {
        server.json("/api/v1/info")["searches_running"] == 1
    });
    s.click("#review-stop");
    s.wait_for(
        "document.getElementById('review-status').textContent",
        "Review stopped.",
    );
    common::web::wait_until(common::HANG, "the slot is freed", || {
        server.json("/api/v1/info")["searches_running"] == 0
    });
    assert_eq!(
        s.script("return document.getElementById('review').dataset.moves;"),
        json!("f5f6e6f4"),
        "the table still shows the last finished review"
    );
    // Nothing to review: a pasted board has no moves.
    let board = Position::START.to_obf();
    s.script(&format!(
        "document.getElementById('paste-text').value = '{board}';"
    ));
    s.click("#paste button");
    s.wait_for_line("");
    s.click("#review-go");
    s.wait_for(
        "document.getElementById('review-status').className",
        "error",
    );
}

/// The move table's (move, games) rows, as JSON text (for [`Session::wait_for`]).
const TABLE_ROWS: &str = "JSON.stringify([...document.querySelectorAll('#moves tbody tr')]\
    .map(tr => [tr.dataset.move, tr.querySelector('td.games').textContent]))";

#[test]
fn switching_books_changes_the_move_table_and_keeps_the_line() {
    let Some(driver) = Driver::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let small = common::web::small_book(dir.path());
    let books = [
        othbook::serve::BookSpec::parse(&format!("wthor={BOOK}")).unwrap(),
        othbook::serve::BookSpec::parse(&format!("mine={}", small.display())).unwrap(),
    ];
    let (state, _) =
        othbook::serve::AppState::from_files(&books, ServeOptions::new(12, 2, 1000).unwrap())
            .unwrap();
    let server = TestServer::start_state(state);
    let rows_text = |rows: Vec<(String, String)>| serde_json::to_string(&rows).unwrap();
    let (big, mine) = (book_rows("f5"), book_rows_in(&small, "f5"));
    assert_ne!(big, mine);
    let s = Session::new(&driver);
    s.open(&format!("http://{}/", server.addr));
    s.wait_for_line("");
    s.wait_for("!document.getElementById('book-pick').hidden", "true");
    s.click("#sq-f5");
    s.wait_for_line("f5");
    s.wait_for(TABLE_ROWS, &rows_text(big.clone()));
    s.click("#book option[value='mine']");
    s.wait_for(TABLE_ROWS, &rows_text(mine.clone()));
    s.wait_for_line("f5");
    s.wait_for(
        "document.getElementById('book-info').textContent.startsWith('mine ')",
        "true",
    );
    let url = s.script("return location.href;");
    let url = url.as_str().unwrap().to_string();
    assert!(
        url.contains("book=mine") && url.contains("moves=f5"),
        "{url}"
    );
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
    s.screenshot(&shots.join("serve-books.png"));
    // The address is shareable: opened afresh, it shows the same book and line.
    s.open("about:blank");
    s.open(&url);
    s.wait_for_line("f5");
    s.wait_for(TABLE_ROWS, &rows_text(mine));
    s.wait_for("document.getElementById('book').value", "mine");
    // Back to the default book: the address no longer names one.
    s.click("#book option[value='wthor']");
    s.wait_for(TABLE_ROWS, &rows_text(big));
    let url = s.script("return location.href;");
    assert!(!url.as_str().unwrap().contains("book="), "{url}");
}

/// The review's evaluation graph: one vertex a ply of the API's series, a dot on each marked
/// move, and a click on a point shows the position after that ply on the board.
#[test]
fn the_review_graph_is_drawn_and_a_click_moves_the_board() {
    let Some(driver) = Driver::start() else {
        return;
    };
    let server = TestServer::start(ServeOptions::new(12, 1, 1000).unwrap());
    let s = Session::new(&driver);
    let game = "f5f6e6f4f3c5g6e3d3g5b6c4c3d6h6g4";
    s.cmd(
        "POST",
        "url",
        Some(json!({"url": format!("http://{}/#moves={game}", server.addr)})),
    );
    s.wait_for_line(game);
    s.wait_for("document.getElementById('review-depth').value", "6");
    s.script("document.getElementById('review-depth').value = '4';");
    s.click("#review-go");
    s.wait_for("document.getElementById('review').dataset.moves", game);
    let api = server.json(&format!("/api/v1/review?moves={game}&depth=4"));
    let series = api["series"].as_array().unwrap();
    assert_eq!(series.len(), game.len() / 2);
    s.wait_for(
        "document.getElementById('review-graph').dataset.points",
        &series.len().to_string(),
    );
    s.wait_for("document.getElementById('review-graph').hidden", "false");
    let vertices = s.script(
        "return document.querySelector('#review-graph polyline.score')\
         .getAttribute('points').trim().split(/\\s+/).length;",
    );
    assert_eq!(vertices.as_u64(), Some(series.len() as u64));
    let marked = series.iter().filter(|p| p["mark"].is_string()).count();
    let dots = s.script("return document.querySelectorAll('#review-graph circle.mark').length;");
    assert_eq!(dots.as_u64(), Some(marked as u64));
    // The graph is really drawn: it has a size on the page.
    let width = s.script(
        "return Math.round(document.querySelector('#review-graph svg').getBoundingClientRect().width);",
    );
    assert!(width.as_u64().unwrap() > 200, "{width}");
    // A click on the point of ply 7 shows the position after it.
    s.click("#review-graph circle[data-ply='7']");
    s.wait_for_line(&game[..14]);
    s.wait_for(
        "document.getElementById('review-graph').dataset.cursor",
        "7",
    );
    s.wait_for(
        "document.querySelector('#review-graph circle.current').dataset.ply",
        "7",
    );
    s.wait_for("document.querySelectorAll('#line li').length", "16");
    // The arrow keys move the graph's cursor with the board.
    s.keys("body", "\u{E014}");
    s.wait_for(
        "document.getElementById('review-graph').dataset.cursor",
        "8",
    );
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
    s.script("document.getElementById('review-graph').scrollIntoView();");
    s.screenshot(&dir.join("serve-review-graph.png"));
    s.phone();
    // Redrawn at the phone's width, so that its text stays legible; the cursor kept.
    s.wait_for(
        "document.querySelector('#review-graph svg').viewBox.baseVal.width < 400",
        "true",
    );
    s.wait_for(
        "document.getElementById('review-graph').dataset.cursor",
        "8",
    );
    s.wait_for(
        "document.querySelector('#review-graph circle.current').dataset.ply",
        "8",
    );
    s.script("document.getElementById('review-graph').scrollIntoView();");
    s.screenshot(&dir.join("serve-review-graph-phone.png"));
}

/// The history chart under the move table: one bar segment for each year and reply of the
/// API's history (the five most played replies, then the rest together).
#[test]
fn the_history_chart_is_drawn_under_the_move_table() {
    let Some(driver) = Driver::start() else {
        return;
    };
    let server = TestServer::start(ServeOptions::new(12, 1, 1000).unwrap());
    let s = Session::new(&driver);
    s.cmd(
        "POST",
        "url",
        Some(json!({"url": format!("http://{}/#moves=f5d6", server.addr)})),
    );
    s.wait_for_line("f5d6");
    s.wait_for("document.getElementById('history').dataset.line", "f5d6");
    let h = server.json("/api/v1/history?moves=f5d6");
    let moves = h["moves"].as_array().unwrap();
    let years = h["years"].as_array().unwrap().len();
    // Nonzero cells of the top five replies, and of the rest summed.
    let count = |m: &Value, i: usize| m["by_year"][i].as_u64().unwrap();
    let mut cells = 0;
    for i in 0..years {
        cells += moves.iter().take(5).filter(|m| count(m, i) > 0).count();
        let rest: u64 = moves.iter().skip(5).map(|m| count(m, i)).sum();
        cells += usize::from(rest > 0);
    }
    assert!(cells > years, "several replies a year");
    s.wait_for(
        "document.getElementById('history').dataset.bars",
        &cells.to_string(),
    );
    s.wait_for("document.getElementById('history').hidden", "false");
    let width = s.script(
        "return Math.round(document.querySelector('#history svg').getBoundingClientRect().width);",
    );
    assert!(width.as_u64().unwrap() > 200, "{width}");
    let legend = s.script("return document.querySelector('#history .legend').textContent;");
    let first = moves[0]["move"].as_str().unwrap();
    assert!(legend.as_str().unwrap().starts_with(first), "{legend}");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
    s.script("document.getElementById('history').scrollIntoView();");
    s.screenshot(&dir.join("serve-history.png"));
    s.phone();
    s.wait_for(
        "document.querySelector('#history svg').viewBox.baseVal.width < 400",
        "true",
    );
    s.wait_for(
        "document.getElementById('history').dataset.bars",
        &cells.to_string(),
    );
    s.script("document.getElementById('history').scrollIntoView();");
    s.screenshot(&dir.join("serve-history-phone.png"));
    // Another position redraws it.
    s.click(&format!("#moves tbody tr[data-move='{first}']"));
    s.wait_for(
        "document.getElementById('history').dataset.line",
        &format!("f5d6{first}"),
    );
}

/// What the page waits for in a game against the engine: `wait` (an answer or the engine's
/// move under way), `over`, `pass`, or the first legal move for the user to play.
const TURN: &str = "(() => { const a = state.answer; \
    if (!a || a.line !== state.moves.slice(0, state.cursor).join('') || playing.ask) return 'wait'; \
    if (a.game_over) return 'over'; \
    if (a.side !== playing.human) return 'wait'; \
    return a.must_pass ? 'pass' : a.legal[0]; })()";

/// The user's turn in the game on the page (waited for): what [`TURN`] says then.
fn user_turn(s: &Session) -> String {
    common::poll(common::HANG, std::time::Duration::from_millis(25), || {
        let v = s.script(&format!("return {TURN};"));
        let turn = v.as_str().unwrap().to_string();
        if turn != "wait" {
            return Some(turn);
        }
        let error = s.script("return document.getElementById('play-status').classList.contains('error') ? document.getElementById('play-status').textContent : '';");
        assert_eq!(error, json!(""), "the page shows an error");
        None
    })
    .expect("the engine never answered")
}

/// The game saved from the page in `format` (the button clicked), read back.
fn saved(s: &Session, button: &str, format: &str, kind: Format) -> Vec<othbook::board::Move> {
    s.click(button);
    s.wait_for("playing.saved && playing.saved.format", format);
    let text = s.script("return playing.saved.text;");
    let text = text.as_str().unwrap();
    let games = ingest_bytes(text.as_bytes(), kind, "saved", &IngestOptions::default())
        .unwrap()
        .games;
    assert_eq!(games.len(), 1, "{text}");
    assert!(
        games[0].result.is_some(),
        "a finished game has its result: {text}"
    );
    games[0].moves.clone()
}

/// A game against the engine at depth 1, played to its end by clicks on the board: the
/// analysis shows a score on every legal square, a take-back undoes the last pair of moves,
/// switching sides makes the engine move; the game is saved as PGN and GGF (the server's
/// writers) and reviewed at once.
#[test]
fn a_game_against_the_engine_is_played_to_its_end_saved_and_reviewed() {
    let Some(driver) = Driver::start() else {
        return;
    };
    let server = TestServer::start(ServeOptions::new(12, 1, 1000).unwrap());
    let s = Session::new(&driver);
    s.start_playing(server.addr);
    s.click("#play-analysis");
    // The start's four moves each show the engine's score (f5 stands for the others).
    s.wait_for("state.depth", "4");
    s.wait_for(
        "document.querySelectorAll('#board .eval-label').length",
        "4",
    );
    // Switching sides: the engine takes black and plays the first move.
    s.click("#play-switch");
    s.wait_for("state.moves.length", "1");
    s.wait_for("playing.human", "white");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
    let mut plies = 0;
    let mut took_back = false;
    loop {
        let turn = user_turn(&s);
        match turn.as_str() {
            "over" => break,
            "pass" => s.click("#pass"),
            mv => s.click(&format!("#sq-{mv}")),
        }
        plies += 1;
        assert!(plies < 80, "the game does not end");
        if plies == 3 && !took_back {
            took_back = true;
            assert_ne!(user_turn(&s), "over");
            let before = s.script("return state.moves.length;").as_u64().unwrap();
            s.click("#play-undo");
            s.wait_for("state.moves.length", &(before - 2).to_string());
            let back = s.script("return state.moves.join('');");
            s.wait_for_line(back.as_str().unwrap());
            // Every legal move scored on the board, for the user to move again.
            let legal = s.script("return state.answer.legal.length;");
            s.wait_for(
                "document.querySelectorAll('#board .eval-label').length",
                &legal.to_string(),
            );
            s.wait_for("state.answer.side", "white");
            s.screenshot(&dir.join("serve-play-analysis.png"));
        }
    }
    let moves = s.script("return state.moves.join('');");
    let line = moves.as_str().unwrap().to_string();
    let end = Position::START
        .replay(parse_moves(&line).unwrap())
        .unwrap()
        .end;
    assert!(end.board.is_game_over(), "{line}");
    s.wait_for(
        "document.getElementById('play-status').textContent.startsWith('Game over')",
        "true",
    );
    s.screenshot(&dir.join("serve-play.png"));
    let played = parse_moves(&line).unwrap();
    assert_eq!(saved(&s, "#play-pgn", "pgn", Format::Pgn), played);
    assert_eq!(saved(&s, "#play-ggf", "ggf", Format::Ggf), played);
    // Reviewed at once, at a shallow depth to keep the test light.
    s.script("document.getElementById('review-depth').value = '2';");
    s.click("#play-review");
    s.wait_for("document.getElementById('review').dataset.moves", &line);
    s.phone();
    s.script("document.getElementById('board').scrollIntoView();");
    s.screenshot(&dir.join("serve-play-phone.png"));
}
