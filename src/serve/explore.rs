//! The explore answer: `explore --format json`'s report of a position (the library's
//! [`ExploreReport`]), plus what a page needs to draw it: the board's discs, the legal moves,
//! and the line.

use crate::board::{format_moves, Move, Position};
use crate::book::games::PositionGames;
use crate::book::{Book, BookError};
use crate::engine::{Depth, EngineError, EngineOptions, HashSize, ThreadCount};
use crate::openings::Openings;
use crate::report::explore::{ExploreGames, ExploreQuery};
use crate::report::query::Target;
use crate::report::{ExploreReport, LossReport, MoveScores, OpeningRef};
use serde::Serialize;
use std::sync::atomic::AtomicBool;

/// What `/api/v1/explore` answers.
#[derive(Debug, Serialize)]
pub struct ExploreAnswer {
    /// Where the line starts (OBF).
    pub start: String,
    /// The line from `start`, passes included.
    pub line: String,
    /// The legal moves of the position, in the caller's orientation.
    pub legal: Vec<String>,
    /// The side to move has no move but the pass.
    pub must_pass: bool,
    pub game_over: bool,
    pub black_discs: u32,
    pub white_discs: u32,
    /// The line's losses against the book's values so far (`null`: the book has no values).
    pub line_losses: Option<LossReport>,
    #[serde(flatten)]
    pub report: ExploreReport,
}

/// The engine's scores of every legal move of `pos`, one thread; `None` when the game is over.
/// `stop` ends the search early (the client hung up): its scores are then unfinished.
pub fn search(
    pos: &Position,
    depth: Depth,
    hash_mb: HashSize,
    stop: &AtomicBool,
) -> Result<Option<MoveScores>, EngineError> {
    let options = EngineOptions {
        threads: ThreadCount::ONE,
        hash_mb,
    };
    MoveScores::search(pos, depth, options, Some(stop), |_| {})
}

/// The answer for `t` in `book`; `games` (those passing a filter) replace the book's
/// statistics.
pub fn answer(
    book: &Book,
    t: &Target,
    scores: Option<&MoveScores>,
    eval_asked: bool,
    games: Option<&PositionGames>,
) -> Result<ExploreAnswer, BookError> {
    let pos = &t.pos;
    let openings = Openings::standard();
    let report = ExploreReport::build(
        book,
        ExploreQuery {
            pos,
            opening: OpeningRef::along_from(openings, &t.start.board, &t.line),
            scores,
            eval_asked,
            games: games.map(|found| ExploreGames {
                filtered: true,
                found,
                listed: None,
            }),
        },
    )?;
    Ok(ExploreAnswer {
        start: t.start.to_obf(),
        line: format_moves(&t.line),
        legal: legal_moves(pos),
        must_pass: pos.board.must_pass(),
        game_over: pos.board.is_game_over(),
        black_discs: pos.black().count(),
        white_discs: pos.white().count(),
        line_losses: book
            .has_values()
            .then(|| LossReport::build(book, &t.start, &t.line))
            .transpose()?,
        report,
    })
}

/// The legal moves of `pos` in square order.
pub fn legal_moves(pos: &Position) -> Vec<String> {
    pos.board
        .legal_moves()
        .iter()
        .map(|sq| Move::from(sq).to_string())
        .collect()
}
