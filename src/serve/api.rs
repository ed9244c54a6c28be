//! The handlers of `/api/v1`: each parses its parameters once, answers from the cache when
//! it can, and does the work on the blocking pool (searches only with a free search slot).
//! Every failure is a JSON error with its HTTP status; a panic in the work is a 500 for that
//! request alone.

use super::error::ApiError;
use super::explore;
use super::games;
use super::params::{self, RawParams};
use super::reload::Loaded;
use super::state::AppState;
use crate::board::format_moves;
use crate::book::games::ratings::{RatingParams, Ratings};
use crate::book::games::{PositionGames, StoredGame};
use crate::book::{FindGamesError, GameFilter, GameTable, GamesQuery, RatedChoice};
use crate::engine::{Depth, Engine, EngineOptions, ThreadCount};
use crate::report::query::{GameOrder, RatingQuery, Target};
use crate::report::ratings::ExploreRatings;
use crate::review::{review_stoppable, Effort, ReviewInput, ReviewOptions};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::OwnedSemaphorePermit;

/// Depth of a review when the request gives none.
const REVIEW_DEPTH: Depth = Depth::of(6);
/// Games listed when the request gives no limit.
const GAMES_LIMIT: usize = 20;

pub(super) type Shared = State<Arc<AppState>>;

/// JSON bytes as a response.
pub(super) fn json_bytes(bytes: Arc<[u8]>) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], bytes.to_vec()).into_response()
}

/// Runs `work` on the blocking pool, never on the threads that answer every request, with
/// a slot of the server's work limit (waited for at most the queue wait, then 503): no
/// number of slow requests can take more threads than that. The slot goes with the work,
/// so that a client that hangs up does not free it before the work is done. A panic in the
/// work becomes a 500 for this request.
pub(super) async fn blocking<T: Send + 'static>(
    s: &AppState,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let slot = tokio::time::timeout(s.options.queue_wait, s.work.clone().acquire_owned())
        .await
        .map_err(|_| ApiError::Busy)?
        .map_err(|_| ApiError::Busy)?;
    tokio::task::spawn_blocking(move || {
        let answer = work();
        drop(slot);
        answer
    })
    .await
    .map_err(|e| ApiError::Internal(format!("the request's work failed: {e}")))?
}

/// The query parameters, parsed and their lengths checked.
pub(super) fn query(q: Result<Query<RawParams>, QueryRejection>) -> Result<RawParams, ApiError> {
    let Query(p) = q?;
    p.check_lengths()?;
    Ok(p)
}

/// The stop flag of a request's search, set when the request's future is dropped: hyper
/// drops it when the client hangs up, and the search, which looks at the flag, then stops.
/// (Also set when the request ends normally, after its search: harmless.)
pub(super) struct StopOnHangUp(Arc<AtomicBool>);

impl StopOnHangUp {
    pub(super) fn new() -> StopOnHangUp {
        StopOnHangUp(Arc::new(AtomicBool::new(false)))
    }

    /// The flag, for the search on the blocking pool.
    pub(super) fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }
}

impl Drop for StopOnHangUp {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// `Err(HungUp)` once `stop` is set: what a search cut short by it found is dropped.
pub(super) fn not_stopped(stop: &AtomicBool) -> Result<(), ApiError> {
    if stop.load(Ordering::Relaxed) {
        Err(ApiError::HungUp)
    } else {
        Ok(())
    }
}

/// A search slot, waited for at most the server's queue wait. The permit goes with the
/// search, so that a client that hangs up does not free its slot until the search has seen
/// its [`StopOnHangUp`] flag and stopped.
pub(super) async fn search_slot(s: &AppState) -> Result<OwnedSemaphorePermit, ApiError> {
    tokio::time::timeout(s.options.queue_wait, s.searches.clone().acquire_owned())
        .await
        .map_err(|_| ApiError::Busy)?
        .map_err(|_| ApiError::Busy)
}

/// Serializes `value` for the cache and the response.
pub(super) fn to_json(value: &impl Serialize) -> Result<Arc<[u8]>, ApiError> {
    serde_json::to_vec(value)
        .map(Arc::from)
        .map_err(|e| ApiError::Internal(e.to_string()))
}

pub(super) fn game_table(b: &Loaded) -> Result<&GameTable, ApiError> {
    b.games.as_ref().ok_or(ApiError::NoGameTable)
}

/// The ratings fitted from `b`'s games, fitted on the first request that needs them.
fn ratings_of(b: &Loaded) -> Result<&Ratings, ApiError> {
    let table = game_table(b)?;
    Ok(b.ratings
        .get_or_init(|| Ratings::of_table(table, |_| true, RatingParams::default())))
}

/// Game `i` of `b`'s table.
fn stored_game(b: &Loaded, i: usize) -> Result<StoredGame, ApiError> {
    game_table(b)?
        .games()
        .get(i)
        .copied()
        .ok_or_else(|| ApiError::Internal("a game index past the table".into()))
}

/// The rating choices of a query, `None` when it makes none (the ratings are then not fitted).
pub(super) fn rated_choice<'a>(
    b: &'a Loaded,
    rating: &RatingQuery,
) -> Result<Option<RatedChoice<'a>>, ApiError> {
    rated(b, rating.min, rating.order == GameOrder::Rating)
}

/// The rating floor alone of a query (it keeps games as a filter does; no order), `None`
/// when there is none.
pub(super) fn rating_floor(
    b: &Loaded,
    min: Option<f64>,
) -> Result<Option<RatedChoice<'_>>, ApiError> {
    rated(b, min, false)
}

fn rated(
    b: &Loaded,
    min: Option<f64>,
    by_rating: bool,
) -> Result<Option<RatedChoice<'_>>, ApiError> {
    if min.is_none() && !by_rating {
        return Ok(None);
    }
    Ok(Some(RatedChoice {
        ratings: ratings_of(b)?,
        min,
        by_rating,
    }))
}

/// The games of `b` that reach `board` within `max_ply` plies and pass `filter`
/// ([`crate::book::Book::find_games`], with the table the server holds), every match listed.
pub(super) fn find_games(
    b: &Loaded,
    board: &crate::board::Board,
    max_ply: usize,
    filter: Option<&GameFilter>,
    rated: Option<RatedChoice<'_>>,
    min_games: u64,
) -> Result<PositionGames, ApiError> {
    let q = GamesQuery {
        board,
        max_ply,
        filter,
        min_games,
        keep: None,
        rated,
        every_game: false,
    };
    match b.book.find_games(b.games.as_ref(), &q) {
        Ok(found) => Ok(found.games),
        Err(FindGamesError::Book(e)) => Err(ApiError::book(&b.name, e)),
        Err(FindGamesError::Filter(e)) => Err(params::filter_error(e)),
        Err(FindGamesError::NoGameTable) => Err(ApiError::NoGameTable),
    }
}

/// What `/api/v1/info` answers.
#[derive(Serialize)]
struct InfoAnswer {
    name: String,
    version: &'static str,
    book: String,
    positions: u64,
    games: u64,
    min_games: u32,
    plies: u8,
    game_table: bool,
    evaluation: Option<crate::report::explore::Evaluation>,
    max_depth: u32,
    /// Longest the engine thinks about one move of a played game (`/play`), in ms.
    play_max_time_ms: u64,
    max_searches: usize,
    /// Searches holding a slot right now (a search whose client hung up holds it until it
    /// has stopped).
    searches_running: usize,
    /// Answers kept for repeated queries right now (of the book served now).
    cached_answers: usize,
    /// When the book served now was read (ISO 8601, UTC).
    loaded_at: String,
    /// Every book of the server, the default first.
    books: Vec<BookEntry>,
}

/// A book of the server, as `/api/v1/info` lists it.
#[derive(Serialize)]
struct BookEntry {
    name: String,
    /// Answers when no `book` is given.
    default: bool,
    /// It is served; else `error` says what kind of failure keeps it out.
    available: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    positions: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    games: Option<u64>,
    /// Its positions carry values.
    #[serde(skip_serializing_if = "Option::is_none")]
    evaluated: Option<bool>,
}

fn book_entries(s: &AppState) -> Vec<BookEntry> {
    s.books
        .iter()
        .enumerate()
        .map(|(i, slot)| {
            let served = slot.book();
            BookEntry {
                name: slot.name.clone(),
                default: i == 0,
                available: served.is_some(),
                error: served
                    .is_none()
                    .then(|| slot.failure().unwrap_or("invalid")),
                positions: served.as_ref().map(|b| b.book.counts().0),
                games: served.as_ref().map(|b| b.book.info().games),
                evaluated: served.as_ref().map(|b| b.book.info().evaluation.is_some()),
            }
        })
        .collect()
}

/// The parameters of `/api/v1/info`: which book to describe.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InfoParams {
    book: Option<String>,
}

pub async fn info(
    State(s): Shared,
    q: Result<Query<InfoParams>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(p) = q?;
    let b = s.book(params::book(p.book.as_deref())?)?;
    let info = b.book.info();
    let answer = InfoAnswer {
        name: "othbook".into(),
        version: env!("CARGO_PKG_VERSION"),
        book: b.name.clone(),
        positions: b.book.counts().0,
        games: info.games,
        min_games: info.options.min_games(),
        plies: info.options.plies(),
        game_table: b.games.is_some(),
        evaluation: info.evaluation.map(Into::into),
        max_depth: s.options.max_depth.plies(),
        play_max_time_ms: u64::try_from(s.options.play_max_time.as_millis()).unwrap_or(u64::MAX),
        max_searches: s.options.max_searches,
        searches_running: s
            .options
            .max_searches
            .saturating_sub(s.searches.available_permits()),
        cached_answers: b.cache.len(),
        loaded_at: crate::utc::iso8601(b.loaded_at),
        books: book_entries(&s),
    };
    Ok(json_bytes(to_json(&answer)?))
}

pub async fn explore(
    State(s): Shared,
    q: Result<Query<RawParams>, QueryRejection>,
) -> Result<Response, ApiError> {
    let p = query(q)?;
    let b = s.book(params::book(p.book.as_deref())?)?;
    let t = params::target(p.position.as_deref(), p.moves.as_deref())?;
    let depth = params::depth(p.depth, s.options.max_depth)?;
    let filter = params::filter(&p)?;
    let rating = params::rating(&p)?;
    let show_ratings = p.ratings.unwrap_or(false);
    let key = format!(
        "explore {} {} {depth:?} {filter:?} {:?} {show_ratings}",
        t.start.to_obf(),
        format_moves(&t.line),
        rating.min
    );
    if let Some(hit) = b.cache.get(&key) {
        return Ok(json_bytes(hit));
    }
    if filter.is_some() || rating.min.is_some() || show_ratings {
        game_table(&b)?;
    }
    let permit = match depth {
        Some(_) => Some(search_slot(&s).await?),
        None => None,
    };
    // Held by this future until the answer is ready (dropped with it on a hang-up).
    let hang_up = StopOnHangUp::new();
    let stop = hang_up.flag();
    let hash_mb = s.options.hash_mb;
    let bk = b.clone();
    let bytes = blocking(&s, move || {
        let scores = match depth {
            Some(d) => explore::search(&t.pos, d, hash_mb, &stop)
                .map_err(|e| ApiError::Internal(e.to_string()))?,
            None => None,
        };
        drop(permit);
        not_stopped(&stop)?;
        let filtered = match (&filter, rating.min) {
            (None, None) => None,
            _ => Some(filtered(&bk, &t, filter.as_ref(), rating.min)?),
        };
        let mut answer = explore::answer(
            &bk.book,
            &t,
            scores.as_ref(),
            depth.is_some(),
            filtered.as_ref(),
        )
        .map_err(|e| ApiError::book(&bk.name, e))?;
        if show_ratings {
            let plies = usize::from(bk.book.info().options.plies());
            let all = match filtered {
                Some(f) => f,
                None => find_games(&bk, &t.pos.board, plies, None, None, 1)?,
            };
            let moves = answer.report.move_groups();
            let rated = ExploreRatings::of(&moves, &all, plies, ratings_of(&bk)?, |i| {
                stored_game(&bk, i)
            })?;
            answer.report.ratings = Some(rated);
        }
        to_json(&answer)
    })
    .await?;
    b.cache.put(key, bytes.clone());
    Ok(json_bytes(bytes))
}

/// The games `filter` and the rating floor `min_rating` keep that reach `t`, counted as the book counts
/// them.
fn filtered(
    b: &Loaded,
    t: &Target,
    filter: Option<&GameFilter>,
    min_rating: Option<f64>,
) -> Result<PositionGames, ApiError> {
    let info = b.book.info();
    let floor = rating_floor(b, min_rating)?;
    find_games(
        b,
        &t.pos.board,
        usize::from(info.options.plies()),
        filter,
        floor,
        u64::from(info.options.min_games()),
    )
}

pub async fn games(
    State(s): Shared,
    q: Result<Query<RawParams>, QueryRejection>,
) -> Result<Response, ApiError> {
    let p = query(q)?;
    let b = s.book(params::book(p.book.as_deref())?)?;
    let t = params::target(p.position.as_deref(), p.moves.as_deref())?;
    if p.depth.is_some() {
        return Err(ApiError::bad(
            "depth",
            "the games list does not search".into(),
        ));
    }
    let filter = params::filter(&p)?;
    let rating = params::rating(&p)?;
    let (limit, offset) = params::page(&p, GAMES_LIMIT)?;
    let key = format!(
        "games {} {} {filter:?} {rating:?} {limit} {offset}",
        t.start.to_obf(),
        format_moves(&t.line)
    );
    if let Some(hit) = b.cache.get(&key) {
        return Ok(json_bytes(hit));
    }
    game_table(&b)?;
    let bk = b.clone();
    let bytes = blocking(&s, move || {
        let table = game_table(&bk)?;
        let rated = rated_choice(&bk, &rating)?;
        let found = find_games(&bk, &t.pos.board, usize::MAX, filter.as_ref(), rated, 1)?;
        let c = found.stats.for_side(t.pos.side);
        let answer = games::GamesAnswer {
            position: t.pos.to_obf(),
            side: t.pos.side.to_string(),
            total: found.total,
            black_wins: c.black_wins,
            draws: c.draws,
            white_wins: c.white_wins,
            unknown: c.unknown,
            offset,
            games: games::rows(table, ratings_of(&bk)?, &found.matches, &t, offset, limit),
        };
        to_json(&answer)
    })
    .await?;
    b.cache.put(key, bytes.clone());
    Ok(json_bytes(bytes))
}

/// The body of `POST /api/v1/review`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewBody {
    moves: String,
    position: Option<String>,
    depth: Option<u32>,
    book: Option<String>,
}

pub async fn review_get(
    State(s): Shared,
    q: Result<Query<RawParams>, QueryRejection>,
) -> Result<Response, ApiError> {
    let p = query(q)?;
    let moves = p
        .moves
        .ok_or_else(|| ApiError::bad("moves", "give the game's moves".into()))?;
    reviewed(s, moves, p.position, p.depth, p.book).await
}

/// Longest time a request's body may take to arrive (a client sending it a byte at a time
/// holds a connection): 408 after it.
const BODY_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// The JSON body of `request`, which must arrive within [`BODY_WAIT`] (else 408).
pub(super) async fn json_body<T: serde::de::DeserializeOwned>(
    request: axum::extract::Request,
) -> Result<T, ApiError> {
    use axum::extract::FromRequest;
    let body = tokio::time::timeout(BODY_WAIT, Json::<T>::from_request(request, &()))
        .await
        .map_err(|_| ApiError::Rejected {
            status: StatusCode::REQUEST_TIMEOUT,
            reason: format!(
                "the request's body did not arrive within {} s",
                BODY_WAIT.as_secs()
            ),
        })?;
    let Json(b) = body?;
    Ok(b)
}

pub async fn review_post(
    State(s): Shared,
    request: axum::extract::Request,
) -> Result<Response, ApiError> {
    let b: ReviewBody = json_body(request).await?;
    reviewed(s, b.moves, b.position, b.depth, b.book).await
}

/// The review of a game, searched `depth` plies per move (capped by the server).
async fn reviewed(
    s: Arc<AppState>,
    moves: String,
    position: Option<String>,
    depth: Option<u32>,
    book: Option<String>,
) -> Result<Response, ApiError> {
    let b = s.book(params::book(book.as_deref())?)?;
    let t = params::target(position.as_deref(), Some(&moves))?;
    if t.line.is_empty() {
        return Err(ApiError::bad(
            "moves",
            "the game has no moves to review".into(),
        ));
    }
    let depth =
        params::depth(depth, s.options.max_depth)?.unwrap_or(REVIEW_DEPTH.min(s.options.max_depth));
    let key = format!(
        "review {} {} {depth}",
        t.start.to_obf(),
        format_moves(&t.line)
    );
    if let Some(hit) = b.cache.get(&key) {
        return Ok(json_bytes(hit));
    }
    let opts = ReviewOptions::new(Effort::Depth(depth), 0)?;
    let permit = search_slot(&s).await?;
    // Held by this future until the answer is ready (dropped with it on a hang-up).
    let hang_up = StopOnHangUp::new();
    let stop = hang_up.flag();
    let hash_mb = s.options.hash_mb;
    let bk = b.clone();
    let bytes = blocking(&s, move || {
        let engine = Engine::try_new(EngineOptions {
            threads: ThreadCount::ONE,
            hash_mb,
        })
        .map_err(|e| ApiError::Internal(e.to_string()))?;
        let input = ReviewInput::new(t.start, t.line.clone());
        let report = review_stoppable(&input, &engine, Some(&bk.book), &opts, &stop, |_, _| {});
        drop(permit);
        let report = report?;
        to_json(&report)
    })
    .await?;
    b.cache.put(key, bytes.clone());
    Ok(json_bytes(bytes))
}

pub async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::NotFound(uri.path().to_string())
}

pub async fn method_not_allowed(method: axum::http::Method) -> ApiError {
    ApiError::MethodNotAllowed {
        method: method.to_string(),
    }
}
