//! `GET /api/v1/history`: how often each reply to a position was played, year by year,
//! from the book's games (the explore filters apply), for the page's history chart.

use super::api::{
    blocking, find_games, game_table, json_bytes, query, rating_floor, to_json, Shared,
};
use super::error::ApiError;
use super::params::{self, RawParams};
use crate::board::format_moves;
use crate::report::history::YearHistory;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::Response;
use serde::Serialize;

/// What `/api/v1/history` answers: the position and its history.
#[derive(Serialize)]
struct HistoryAnswer {
    position: String,
    line: String,
    #[serde(flatten)]
    history: YearHistory,
}

pub async fn history(
    State(s): Shared,
    q: Result<Query<RawParams>, QueryRejection>,
) -> Result<Response, ApiError> {
    let p = query(q)?;
    let b = s.book(params::book(p.book.as_deref())?)?;
    let t = params::target(p.position.as_deref(), p.moves.as_deref())?;
    for (param, given) in [
        ("depth", p.depth.is_some()),
        ("limit", p.limit.is_some()),
        ("offset", p.offset.is_some()),
    ] {
        if given {
            return Err(ApiError::bad(
                param,
                "the history counts games: it takes the position and the game filters only".into(),
            ));
        }
    }
    let filter = params::filter(&p)?;
    let rating = params::rating(&p)?;
    let key = format!(
        "history {} {} {filter:?} {:?}",
        t.start.to_obf(),
        format_moves(&t.line),
        rating.min
    );
    if let Some(hit) = b.cache.get(&key) {
        return Ok(json_bytes(hit));
    }
    game_table(&b)?;
    let bk = b.clone();
    let bytes = blocking(&s, move || {
        let table = game_table(&bk)?;
        let max_ply = usize::from(bk.book.info().options.plies());
        let rated = rating_floor(&bk, rating.min)?;
        let found = find_games(&bk, &t.pos.board, max_ply, filter.as_ref(), rated, 1)?;
        let games = table.games();
        let history = YearHistory::count(&t.pos.board, &found.matches, max_ply, |i| {
            Ok::<_, ApiError>(games.get(i).and_then(|g| g.year))
        })?;
        to_json(&HistoryAnswer {
            position: t.pos.to_obf(),
            line: format_moves(&t.line),
            history,
        })
    })
    .await?;
    b.cache.put(key, bytes.clone());
    Ok(json_bytes(bytes))
}
