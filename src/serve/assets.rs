//! The page, its script and its styles, built into the binary so that one file serves the
//! explorer with no internet and no build step.

use axum::http::header;
use axum::response::{IntoResponse, Response};

const INDEX: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/style.css");
const GRAPH: &str = include_str!("assets/graph.js");
const HISTORY: &str = include_str!("assets/history.js");
const PLAY: &str = include_str!("assets/play.js");
const RATINGS: &str = include_str!("assets/ratings.js");
const LOSSES: &str = include_str!("assets/losses.js");

fn text(kind: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

pub async fn index() -> Response {
    text("text/html; charset=utf-8", INDEX)
}

pub async fn script() -> Response {
    text("text/javascript; charset=utf-8", SCRIPT)
}

/// The review's evaluation graph.
pub async fn graph() -> Response {
    text("text/javascript; charset=utf-8", GRAPH)
}

/// The history chart under the move table.
pub async fn history() -> Response {
    text("text/javascript; charset=utf-8", HISTORY)
}

/// Playing against the engine.
pub async fn play() -> Response {
    text("text/javascript; charset=utf-8", PLAY)
}

/// The ratings in the games list and the move table, and the filters in the address.
pub async fn ratings() -> Response {
    text("text/javascript; charset=utf-8", RATINGS)
}

/// The line's accumulated loss under the board.
pub async fn losses() -> Response {
    text("text/javascript; charset=utf-8", LOSSES)
}

pub async fn style() -> Response {
    text("text/css; charset=utf-8", STYLE)
}
