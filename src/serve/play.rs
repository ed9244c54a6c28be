//! Playing against the engine in the page: `POST /api/v1/play` answers the engine's move
//! (the book's first, by the rule every player shares, then a search capped in depth and time
//! by the server), and `POST /api/v1/transcript` writes the game as PGN or GGF with the
//! project's writers, for the page to save.

use super::api::{blocking, json_body, not_stopped, search_slot, Shared, StopOnHangUp};
use super::error::ApiError;
use super::params;
use crate::board::{format_moves, Color};
use crate::engine::{
    AnyEval, Depth, Engine, EngineOptions, EvalKind, Limits, ScoreKind, ThreadCount,
};
use crate::play::book_choice::{randomness_in_range, MAX_RANDOMNESS};
use crate::play::engine_player::{engine_move, BookPlay, MoveSource, DEFAULT_MOVE_TIME};
use crate::report::query::Target;
use crate::rng::Rng;
use crate::transcript::write::write_text;
use crate::transcript::{Format, GameRecord, GameResult, Location, SourceRef};
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How strong the engine plays: a depth or a time per move (the server caps both).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Strength {
    depth: Option<u32>,
    time_ms: Option<u64>,
}

/// The body of `POST /api/v1/play`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayBody {
    moves: Option<String>,
    position: Option<String>,
    book: Option<String>,
    #[serde(default)]
    strength: Strength,
    /// Whether the book's moves are played while the game is in it (default: yes).
    use_book: Option<bool>,
    /// Discs below the book's best a book move may be (0: only the best).
    randomness: Option<f64>,
}

/// What `POST /api/v1/play` answers.
#[derive(Debug, Serialize)]
struct PlayAnswer {
    /// The engine's move (`pass` when it has none).
    #[serde(rename = "move")]
    mv: String,
    /// Who played it: `black` or `white`.
    side: &'static str,
    /// The line with the move, from the request's start (passes included).
    line: String,
    /// The move came from the book.
    from_book: bool,
    /// `book-value`, `book-games` or `search`.
    source: &'static str,
    /// The move's worth for its player, in discs (a book move by games: their average margin).
    score: f64,
    /// What the score is: `book`, `midgame`, `exact` or `wld`.
    score_kind: &'static str,
    /// Depth of the search or of the book's value (`null`: a book move by games).
    depth: Option<u32>,
    /// False when the time cap ended the search before its depth.
    complete: bool,
    nodes: u64,
    /// The game is over after the move.
    game_over: bool,
}

/// The search limits `strength` asks for, within the server's caps: a depth (with the time
/// cap as well, so that no depth can hold a slot longer) or a time.
fn limits(strength: &Strength, max_depth: Depth, cap: Duration) -> Result<Limits, ApiError> {
    let cap_ms = cap.as_millis();
    let (depth, time) = match (strength.depth, strength.time_ms) {
        (Some(_), Some(_)) => {
            return Err(ApiError::bad(
                "strength",
                "give depth or time_ms, not both".into(),
            ))
        }
        (Some(d), None) => (params::depth(Some(d), max_depth)?, cap),
        (None, Some(0)) => {
            return Err(ApiError::bad(
                "strength",
                "time_ms must be at least 1".into(),
            ))
        }
        (None, Some(t)) if u128::from(t) > cap_ms => {
            return Err(ApiError::bad(
                "strength",
                format!("time_ms {t} is longer than this server allows ({cap_ms})"),
            ))
        }
        (None, Some(t)) => (None, Duration::from_millis(t)),
        (None, None) => (None, DEFAULT_MOVE_TIME.min(cap)),
    };
    Ok(Limits {
        depth,
        time: Some(time),
        ..Limits::default()
    })
}

/// `randomness`, checked as `match`'s `book-randomness` is.
fn randomness(r: Option<f64>) -> Result<f64, ApiError> {
    match r {
        None => Ok(0.0),
        Some(x) if randomness_in_range(x) => Ok(x),
        Some(x) => Err(ApiError::bad(
            "randomness",
            format!("{x} must be a number of discs from 0 to {MAX_RANDOMNESS}"),
        )),
    }
}

/// The line of a request, which must leave a move to play.
fn game_on(position: Option<&str>, moves: Option<&str>) -> Result<Target, ApiError> {
    let t = params::target(position, moves)?;
    if t.pos.board.is_game_over() {
        return Err(ApiError::bad(
            "moves",
            format!(
                "the game is over ({} to {}): no move to play",
                t.pos.black().count(),
                t.pos.white().count()
            ),
        ));
    }
    Ok(t)
}

fn source_names(source: MoveSource) -> (&'static str, &'static str) {
    match source {
        MoveSource::BookValue => ("book-value", "book"),
        MoveSource::BookGames => ("book-games", "book"),
        MoveSource::Search(kind) => (
            "search",
            match kind {
                ScoreKind::Midgame => "midgame",
                ScoreKind::Exact => "exact",
                ScoreKind::Wld => "wld",
            },
        ),
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

pub async fn play(State(s): Shared, request: axum::extract::Request) -> Result<Response, ApiError> {
    let body: PlayBody = json_body(request).await?;
    let b = s.book(params::book(body.book.as_deref())?)?;
    let t = game_on(body.position.as_deref(), body.moves.as_deref())?;
    let limits = limits(&body.strength, s.options.max_depth, s.options.play_max_time)?;
    let randomness = randomness(body.randomness)?;
    let use_book = body.use_book.unwrap_or(true);
    let permit = search_slot(&s).await?;
    // Held by this future until the answer is ready (dropped with it on a hang-up).
    let hang_up = StopOnHangUp::new();
    let stop = hang_up.flag();
    let hash_mb = s.options.hash_mb;
    let answer = blocking(&s, move || {
        let engine = Engine::try_with_evaluator(
            EngineOptions {
                threads: ThreadCount::ONE,
                hash_mb,
            },
            AnyEval::new(EvalKind::default()),
        )
        .map_err(|e| ApiError::Internal(e.to_string()))?;
        let mut book_play = BookPlay::new(randomness, Rng::fresh_seed());
        let book = use_book.then_some(&b.book);
        let m = engine_move(
            &engine,
            book,
            &mut book_play,
            &t.pos.board,
            &limits,
            Some(&stop),
        );
        drop(permit);
        not_stopped(&stop)?;
        let m = m.map_err(|e| match e {
            crate::play::PlayerError::Book(e) => ApiError::book(&b.name, e),
            e => ApiError::Internal(e.to_string()),
        })?;
        let after = t
            .pos
            .play(m.mv)
            .map_err(|e| ApiError::Internal(format!("the engine's move: {e}")))?;
        let mut line = t.line.clone();
        line.push(m.mv);
        let (source, score_kind) = source_names(m.source);
        Ok(PlayAnswer {
            mv: m.mv.to_string(),
            side: side_name(t.pos.side),
            line: format_moves(&line),
            from_book: !matches!(m.source, MoveSource::Search(_)),
            source,
            score: m.score,
            score_kind,
            depth: m.depth,
            complete: m.complete,
            nodes: m.nodes,
            game_over: after.board.is_game_over(),
        })
    })
    .await?;
    Ok(axum::Json(answer).into_response())
}

/// The body of `POST /api/v1/transcript`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TranscriptBody {
    moves: String,
    position: Option<String>,
    /// `pgn` or `ggf`.
    format: String,
    black: Option<String>,
    white: Option<String>,
    event: Option<String>,
    date: Option<String>,
}

/// A name or event of a transcript: within the length limit, blank as none.
fn tag(param: &'static str, text: Option<String>) -> Result<Option<String>, ApiError> {
    params::text_limit(param, text.as_deref())?;
    Ok(text.map(|t| t.trim().to_string()).filter(|t| !t.is_empty()))
}

/// The game of a transcript request, its result when it is over.
fn record(b: TranscriptBody) -> Result<GameRecord, ApiError> {
    let t = params::target(b.position.as_deref(), Some(&b.moves))?;
    let over = t.pos.board.is_game_over();
    let result = over.then(|| {
        let diff = t.pos.final_score_black();
        GameResult {
            disc_diff: diff,
            raw: format!("{diff:+}"),
        }
    });
    Ok(GameRecord {
        start: t.start,
        moves: t.line,
        result,
        black: tag("black", b.black)?,
        white: tag("white", b.white)?,
        event: tag("event", b.event)?,
        place: None,
        date: tag("date", b.date)?,
        year: None,
        source: SourceRef {
            file: "play".into(),
            location: Location::Line(1),
        },
        complete: over,
    })
}

pub async fn transcript(request: axum::extract::Request) -> Result<Response, ApiError> {
    let body: TranscriptBody = json_body(request).await?;
    let (format, kind, ext) = match body.format.trim().to_ascii_lowercase().as_str() {
        "pgn" => (Format::Pgn, "application/x-chess-pgn", "pgn"),
        "ggf" => (Format::Ggf, "text/plain; charset=utf-8", "ggf"),
        other => {
            return Err(ApiError::bad(
                "format",
                format!("{other:?} is not a format to save in: use pgn or ggf"),
            ))
        }
    };
    let game = record(body)?;
    let mut text = Vec::new();
    let report = write_text(std::slice::from_ref(&game), format, &mut text)
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    if let Some((_, why)) = report.skipped.first() {
        return Err(ApiError::bad(
            "format",
            format!("{ext} cannot hold this game: {why}"),
        ));
    }
    let disposition = format!("attachment; filename=\"othbook-game.{ext}\"");
    Ok((
        [
            (header::CONTENT_TYPE, kind.to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}
