//! The explore answer: `explore --format json`'s report of a position, plus what a page needs
//! to draw it (the board, the legal moves, the line). The report part is the one place that
//! builds explore JSON in the server.

use super::params::Target;
use crate::board::{format_moves, Color, Move, Position};
use crate::book::games::PositionGames;
use crate::book::key::{equivalent_moves, representative};
use crate::book::{Book, BookError, ColorStats, MoveStats, MoveValue, PositionStats, Score};
use crate::engine::{Engine, EngineError, EngineOptions, Limits, ScoreKind, SCALE};
use serde::Serialize;

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
    /// The statistics come from the games that pass a filter, not from the book's table.
    pub filtered: bool,
    #[serde(flatten)]
    pub report: ExploreReport,
}

/// `explore --format json` of one position.
#[derive(Debug, Serialize)]
pub struct ExploreReport {
    pub position: String,
    pub side: String,
    pub in_book: bool,
    #[serde(flatten)]
    pub results: Results,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub value: Option<ValueFields>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evaluation: Option<Evaluation>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eval_kind: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eval_depth: Option<u32>,
    pub book_min_games: u32,
    pub book_games: u64,
    pub moves: Vec<MoveRow>,
    /// The deepest named opening along the line (not known to this book yet).
    pub opening: Option<String>,
}

/// Games and results, black's view.
#[derive(Debug, Serialize)]
pub struct Results {
    pub games: u64,
    pub black_wins: u32,
    pub draws: u32,
    pub white_wins: u32,
    pub unknown: u32,
    pub average_diff: Option<f64>,
}

impl From<ColorStats> for Results {
    fn from(c: ColorStats) -> Results {
        Results {
            games: c.games(),
            black_wins: c.black_wins,
            draws: c.draws,
            white_wins: c.white_wins,
            unknown: c.unknown,
            average_diff: c.average_diff().map(round2),
        }
    }
}

/// A book value, black minus white.
#[derive(Debug, Serialize)]
pub struct ValueFields {
    pub value: Option<f64>,
    pub value_depth: Option<u8>,
    pub value_kind: Option<&'static str>,
}

impl ValueFields {
    fn of(s: Option<Score>, side: Color) -> ValueFields {
        let s = s.map(|s| if side == Color::Black { s } else { s.negated() });
        ValueFields {
            value: s.map(|s| round2(f64::from(s.score) / f64::from(SCALE))),
            value_depth: s.map(|s| s.depth),
            value_kind: s.map(|s| s.kind.word()),
        }
    }
}

#[derive(Debug, Serialize)]
pub struct Evaluation {
    pub depth: u8,
    pub exact_from: u8,
}

/// One next move.
#[derive(Debug, Serialize)]
pub struct MoveRow {
    #[serde(rename = "move")]
    pub mv: String,
    pub share: Option<f64>,
    pub games: Option<u64>,
    pub black_wins: Option<u32>,
    pub draws: Option<u32>,
    pub white_wins: Option<u32>,
    pub unknown: Option<u32>,
    pub average_diff: Option<f64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub equivalent: Vec<String>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub value: Option<ValueFields>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leaves_book: Option<bool>,
    /// Absent without `depth`; `null` for a move the engine did not score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eval: Option<Option<f64>>,
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The engine's scores of every legal move, black minus white.
pub struct MoveScores {
    scores: Vec<(Move, i32)>,
    kind: ScoreKind,
    depth: u32,
}

impl MoveScores {
    /// Every legal move of `pos` searched `depth` plies on one thread; `None` when the game
    /// is over.
    pub fn search(pos: &Position, depth: u32, hash_mb: usize) -> Result<Option<Self>, EngineError> {
        if pos.board.is_game_over() {
            return Ok(None);
        }
        let engine = Engine::try_new(EngineOptions {
            threads: 1,
            hash_mb,
            ..EngineOptions::default()
        })?;
        let lines = pos.board.legal_moves().count().max(1) as usize;
        let a = engine.analyze(&pos.board, &Limits::depth(depth).multipv(lines))?;
        let sign = if pos.side == Color::Black { 1 } else { -1 };
        Ok(Some(MoveScores {
            scores: a.lines.iter().map(|l| (l.mv, sign * l.score)).collect(),
            kind: a.kind,
            depth: a.depth,
        }))
    }

    fn score(&self, mv: Move) -> Option<f64> {
        let s = self.scores.iter().find(|s| s.0 == mv)?.1;
        Some(round2(f64::from(s) / f64::from(SCALE)))
    }
}

/// The book's values of a position.
struct Values {
    value: Option<Score>,
    moves: Vec<MoveValue>,
    info: crate::book::EvalInfo,
}

impl Values {
    fn of_move(&self, pos: &Position, mv: Move) -> Option<&MoveValue> {
        self.moves
            .iter()
            .find(|m| m.mv == mv || equivalent_moves(&pos.board, m.mv).contains(&mv))
    }

    fn is_best(&self, pos: &Position, mv: Move) -> bool {
        let best = self.moves.first().map(|m| m.score.score);
        self.of_move(pos, mv)
            .is_some_and(|m| Some(m.score.score) == best)
    }
}

/// The answer for `t` in `book`; `filtered` replaces the book's statistics with those of the
/// games passing a filter.
pub fn answer(
    book: &Book,
    t: &Target,
    scores: Option<&MoveScores>,
    eval_asked: bool,
    filtered: Option<PositionGames>,
) -> Result<ExploreAnswer, BookError> {
    let pos = &t.pos;
    let info = book.info();
    let (stats, mut rows) = match &filtered {
        Some(f) => (Some(f.stats).filter(|s| s.games() > 0), f.moves.clone()),
        None => {
            let stats = book.try_probe(&pos.board)?;
            let rows = if stats.is_some() {
                book.try_moves(&pos.board)?
            } else {
                Vec::new()
            };
            (stats, rows)
        }
    };
    let in_book = stats.is_some();
    let stats: PositionStats = stats.unwrap_or_default();
    let values = match info.evaluation {
        Some(e) => Some(Values {
            value: book.try_value(&pos.board)?,
            moves: book.try_best_moves(&pos.board)?,
            info: e,
        }),
        None => None,
    };
    let listed = rows.len();
    if in_book || scores.is_some() {
        if let Some(v) = &values {
            add_unlisted(&mut rows, pos, v.moves.iter().map(|m| m.mv));
        }
    }
    if let Some(s) = scores {
        add_unlisted(&mut rows, pos, s.scores.iter().map(|s| s.0));
    }
    let min_games = info.options.min_games;
    let known = |i: usize| i < listed || min_games <= 1 || (in_book && stats.games() == 0);
    let total = stats.games().max(1) as f64;
    let moves = rows
        .iter()
        .enumerate()
        .map(|(i, (mv, s))| {
            let r = known(i).then(|| Results::from(s.for_side(pos.side)));
            let v = values.as_ref();
            MoveRow {
                mv: mv.to_string(),
                share: known(i).then(|| round2(100.0 * s.games() as f64 / total)),
                games: r.as_ref().map(|r| r.games),
                black_wins: r.as_ref().map(|r| r.black_wins),
                draws: r.as_ref().map(|r| r.draws),
                white_wins: r.as_ref().map(|r| r.white_wins),
                unknown: r.as_ref().map(|r| r.unknown),
                average_diff: r.as_ref().and_then(|r| r.average_diff),
                equivalent: equivalent_moves(&pos.board, *mv)
                    .into_iter()
                    .filter(|m| m != mv)
                    .map(|m| m.to_string())
                    .collect(),
                value: v.map(|v| ValueFields::of(v.of_move(pos, *mv).map(|m| m.score), pos.side)),
                best: v.map(|v| v.is_best(pos, *mv)),
                leaves_book: v.map(|v| v.of_move(pos, *mv).is_some_and(|m| !m.in_book)),
                eval: eval_asked.then(|| scores.and_then(|s| s.score(*mv))),
            }
        })
        .collect();
    let (black, white) = (pos.black().count(), pos.white().count());
    Ok(ExploreAnswer {
        start: t.start.to_obf(),
        line: format_moves(&t.line),
        legal: legal_moves(pos),
        must_pass: pos.board.must_pass(),
        game_over: pos.board.is_game_over(),
        black_discs: black,
        white_discs: white,
        filtered: filtered.is_some(),
        report: ExploreReport {
            position: pos.to_obf(),
            side: pos.side.to_string(),
            in_book,
            results: stats.for_side(pos.side).into(),
            value: values.as_ref().map(|v| ValueFields::of(v.value, pos.side)),
            evaluation: values.as_ref().map(|v| Evaluation {
                depth: v.info.depth,
                exact_from: v.info.exact_from,
            }),
            eval_kind: scores.map(|s| match s.kind {
                ScoreKind::Exact => "exact",
                ScoreKind::Wld => "wld",
                ScoreKind::Midgame => "midgame",
            }),
            eval_depth: scores.map(|s| s.depth),
            book_min_games: min_games,
            book_games: info.games,
            moves,
            opening: None,
        },
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

/// Appends a row for each of `moves` that no row stands for yet.
fn add_unlisted(
    rows: &mut Vec<(Move, MoveStats)>,
    pos: &Position,
    moves: impl Iterator<Item = Move>,
) {
    for mv in moves {
        let same = equivalent_moves(&pos.board, mv);
        if rows.iter().any(|(r, _)| *r == mv || same.contains(r)) {
            continue;
        }
        rows.push((representative(&same).unwrap_or(mv), MoveStats::default()));
    }
}
