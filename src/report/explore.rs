//! The explore report: a position's games and results, its book value, and one row per next
//! move (the book's moves, then valued or engine-scored moves the book does not list).

use super::games_list::GameRow;
use super::{
    color_text, moves_list, obf_text, present, round2, OpeningRef, Results, TrustOf, ValueFields,
};
use crate::board::{Color, Move, Position};
use crate::book::games::PositionGames;
use crate::book::key::{equivalent_moves, representative};
use crate::book::{Book, BookError, EvalInfo, MoveStats, MoveValue, Score};
use crate::engine::{
    score_text, Depth, Engine, EngineError, EngineOptions, Iteration, Limits, ScoreKind, SCALE,
};
use crate::openings::Openings;
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;

/// Everything `explore` answers about one position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExploreReport {
    /// The position, in the caller's orientation.
    #[serde(with = "obf_text")]
    pub position: Position,
    /// The side to move.
    #[serde(with = "color_text")]
    pub side: Color,
    /// The book holds the position (with no game if deviation learning added it).
    pub in_book: bool,
    /// Games that reached the position (any move order, any orientation); zeros when the
    /// book lacks it.
    #[serde(flatten)]
    pub results: Results,
    /// The book's value of the position (books with values only).
    #[serde(flatten)]
    pub value: Option<PositionValue>,
    /// How the engine scored the moves (`--depth`, unless the game is over).
    #[serde(flatten)]
    pub eval: Option<EvalHeader>,
    /// The engine was asked to score the moves (`--depth`): every row carries `eval`.
    #[serde(default)]
    pub eval_asked: bool,
    /// The book leaves out moves played in fewer games than this.
    pub book_min_games: u32,
    /// Games in the whole book (0 for a book imported from another program).
    pub book_games: u64,
    /// The statistics and moves are counted from the book's games that pass a query-time
    /// filter (`--player`, `--years`, ...), not read from the book.
    #[serde(default)]
    pub filtered: bool,
    /// The next moves: the book's, most played first, then the rest.
    pub moves: Vec<MoveRow>,
    /// The games listed for `--games K` (most recent first; `null` when not asked).
    #[serde(default)]
    pub listed_games: Option<Vec<GameRow>>,
    /// Each reply's games year by year (`--by-year`; absent when not asked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history: Option<crate::report::history::YearHistory>,
    /// Each move's average rating and performance (`--ratings`; absent without).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<super::ratings::ExploreRatings>,
    /// The deepest named opening along the line asked about (last, after the rows: readers
    /// that cut the text at the first `"moves"` key keep working).
    pub opening: Option<OpeningRef>,
}

/// The position's value in a book with values.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionValue {
    /// Black minus white; nulls when the evaluation has not reached the position.
    #[serde(flatten)]
    pub value: ValueFields,
    /// How the book was evaluated.
    pub evaluation: Evaluation,
}

/// How a book's values were searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evaluation {
    /// Leaf search depth in plies.
    pub depth: u8,
    /// Leaves with at most this many empties were solved exactly.
    pub exact_from: u8,
    /// Multi-ProbCut's confidence in the midgame leaf searches, percent (100: full width).
    #[serde(default = "full_width")]
    pub selectivity: u8,
}

fn full_width() -> u8 {
    crate::book::FULL_WIDTH
}

impl From<EvalInfo> for Evaluation {
    fn from(e: EvalInfo) -> Evaluation {
        Evaluation {
            depth: e.depth,
            exact_from: e.exact_from,
            selectivity: e.selectivity,
        }
    }
}

impl From<Evaluation> for EvalInfo {
    fn from(e: Evaluation) -> EvalInfo {
        EvalInfo {
            depth: e.depth,
            exact_from: e.exact_from,
            selectivity: e.selectivity,
        }
    }
}

/// What the engine's scores mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EvalKind {
    /// A depth-limited search.
    Midgame,
    /// The exact final disc difference.
    Exact,
    /// Win/draw/loss only.
    Wld,
}

impl From<ScoreKind> for EvalKind {
    fn from(k: ScoreKind) -> EvalKind {
        match k {
            ScoreKind::Midgame => EvalKind::Midgame,
            ScoreKind::Exact => EvalKind::Exact,
            ScoreKind::Wld => EvalKind::Wld,
        }
    }
}

impl EvalKind {
    fn score_kind(self) -> ScoreKind {
        match self {
            EvalKind::Midgame => ScoreKind::Midgame,
            EvalKind::Exact => ScoreKind::Exact,
            EvalKind::Wld => ScoreKind::Wld,
        }
    }
}

/// The engine's search behind the `eval` of each row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvalHeader {
    /// What the scores mean.
    pub eval_kind: EvalKind,
    /// Depth of the search in plies (empties for a solve).
    pub eval_depth: u32,
}

impl EvalHeader {
    /// What the scores mean, for a footnote.
    #[must_use]
    pub fn meaning(&self) -> String {
        match self.eval_kind {
            EvalKind::Exact => "exact final disc difference under perfect play".into(),
            EvalKind::Wld => "win/draw/loss under perfect play".into(),
            EvalKind::Midgame => format!("engine score after a {}-ply search", self.eval_depth),
        }
    }

    /// A score of this search as a table cell: `+1.25`, or `+4` for a final disc difference.
    #[must_use]
    pub fn text(&self, eval: f64) -> String {
        score_text(
            (eval * f64::from(SCALE)).round() as i32,
            self.eval_kind.score_kind(),
        )
    }

    /// The same without the plus sign, for TSV.
    #[must_use]
    pub fn number(&self, eval: f64) -> String {
        self.text(eval).trim_start_matches('+').to_string()
    }
}

/// One next move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRow {
    /// The move, in the caller's orientation.
    #[serde(rename = "move", with = "super::move_text")]
    pub mv: Move,
    /// Percent of the position's games that played it (two decimals); `null` when unknown.
    pub share: Option<f64>,
    /// Its games, black's view; all `null` for a move the book leaves out below its minimum.
    #[serde(flatten, with = "nullable_results")]
    pub results: Option<Results>,
    /// Moves the position's symmetry makes the same (this row stands for them too).
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "moves_list")]
    pub equivalent: Vec<Move>,
    /// The named opening the move reaches (`null` when the position it leads to has no name).
    #[serde(default)]
    pub opening: Option<String>,
    /// The book's value of the move (books with values only).
    #[serde(flatten)]
    pub value: Option<MoveValueFields>,
    /// The engine's score, black minus white: absent without `--depth`, `null` for a move it
    /// did not score.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub eval: Option<Option<f64>>,
}

/// A move's value in a book with values.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveValueFields {
    /// Black minus white; nulls for a move without a value.
    #[serde(flatten)]
    pub value: ValueFields,
    /// No move has a higher value for the side to move (ties are all best).
    pub best: bool,
    /// The move leaves the book: its value is the leaf's search.
    pub leaves_book: bool,
}

/// Serde adapter: a row's results, or the same fields all `null` when unknown.
mod nullable_results {
    use super::Results;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Nullable {
        games: Option<u64>,
        black_wins: Option<u32>,
        draws: Option<u32>,
        white_wins: Option<u32>,
        unknown: Option<u32>,
        average_diff: Option<f64>,
    }

    pub fn serialize<S: Serializer>(r: &Option<Results>, s: S) -> Result<S::Ok, S::Error> {
        Nullable {
            games: r.map(|r| r.games),
            black_wins: r.map(|r| r.black_wins),
            draws: r.map(|r| r.draws),
            white_wins: r.map(|r| r.white_wins),
            unknown: r.map(|r| r.unknown),
            average_diff: r.and_then(|r| r.average_diff),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Results>, D::Error> {
        let n = Nullable::deserialize(d)?;
        Ok(n.games.map(|games| Results {
            games,
            black_wins: n.black_wins.unwrap_or(0),
            draws: n.draws.unwrap_or(0),
            white_wins: n.white_wins.unwrap_or(0),
            unknown: n.unknown.unwrap_or(0),
            average_diff: n.average_diff,
        }))
    }
}

/// What an evaluated book says of one position (explore and analyze).
pub struct PositionValues {
    /// The position's value for its side to move, if the book has one.
    pub value: Option<Score>,
    /// Moves with a value, best first for the side to move (see [`Book::best_moves`]).
    pub moves: Vec<MoveValue>,
    /// How the book was evaluated.
    pub info: EvalInfo,
}

impl PositionValues {
    /// The values of `pos`; `None` for a book without values.
    pub fn of(book: &Book, pos: &Position) -> Result<Option<PositionValues>, BookError> {
        let Some(info) = book.info().evaluation else {
            return Ok(None);
        };
        Ok(Some(PositionValues {
            value: book.try_value(&pos.board)?,
            moves: book.try_best_moves(&pos.board)?,
            info,
        }))
    }

    /// The value of `mv` (or of a move the position's symmetry makes equivalent).
    #[must_use]
    pub fn of_move(&self, pos: &Position, mv: Move) -> Option<&MoveValue> {
        self.moves
            .iter()
            .find(|m| m.mv == mv || equivalent_moves(&pos.board, m.mv).contains(&mv))
    }

    /// Whether `mv` is a best move: no move has a higher value (ties are all best).
    #[must_use]
    pub fn is_best(&self, pos: &Position, mv: Move) -> bool {
        let best = self.moves.first().map(|m| m.score.score);
        self.of_move(pos, mv)
            .is_some_and(|m| Some(m.score.score) == best)
    }

    /// The first best move, if any.
    #[must_use]
    pub fn best(&self) -> Option<&MoveValue> {
        self.moves.first()
    }
}

/// The engine's score of every legal move of a position (`explore --depth`).
#[derive(Clone, Debug)]
pub struct MoveScores {
    /// Every legal move (or the pass) with its score, black minus white, in `SCALE` units;
    /// best first for the side to move, as the engine ranks them.
    pub scores: Vec<(Move, i32)>,
    /// What the scores mean.
    pub kind: ScoreKind,
    /// Depth reached in plies.
    pub depth: u32,
}

impl MoveScores {
    /// Scores every legal move of `pos` searched `depth` plies deep; `None` when the game is
    /// over. `on_iteration` hears of each finished iteration (for progress). Another thread
    /// setting `stop` ends the search early ([`Engine::analyze_stoppable`]): the scores are
    /// then unfinished, and the caller that set it drops them.
    pub fn search(
        pos: &Position,
        depth: Depth,
        options: EngineOptions,
        stop: Option<&AtomicBool>,
        on_iteration: impl FnMut(&Iteration),
    ) -> Result<Option<MoveScores>, EngineError> {
        if pos.board.is_game_over() {
            return Ok(None);
        }
        let engine = Engine::try_new(options)?;
        let lines = pos.board.legal_moves().count().max(1) as usize;
        let never = AtomicBool::new(false);
        let a = engine.analyze_stoppable(
            &pos.board,
            &Limits::depth(depth).multipv(lines),
            stop.unwrap_or(&never),
            on_iteration,
        )?;
        // The engine scores for the side to move; the report's columns are black minus white.
        let sign = if pos.side == Color::Black { 1 } else { -1 };
        Ok(Some(MoveScores {
            scores: a.lines.iter().map(|l| (l.mv, sign * l.score)).collect(),
            kind: a.kind,
            depth: a.depth,
        }))
    }

    /// The score of `mv`.
    #[must_use]
    pub fn score(&self, mv: Move) -> Option<i32> {
        self.scores.iter().find(|s| s.0 == mv).map(|s| s.1)
    }
}

/// What an explore report is built from besides the book.
pub struct ExploreQuery<'a> {
    /// The position, in the caller's orientation.
    pub pos: &'a Position,
    /// The deepest named opening along the caller's line.
    pub opening: Option<OpeningRef>,
    /// The engine's scores (`--depth`; `None` when the game is over).
    pub scores: Option<&'a MoveScores>,
    /// `--depth` was given.
    pub eval_asked: bool,
    /// What the book's game table says of the position (`--games`, filters); `None`: the
    /// table was not read.
    pub games: Option<ExploreGames<'a>>,
}

/// The games behind the position, from the book's game table.
pub struct ExploreGames<'a> {
    /// Count the statistics and moves from `found` (a filter was given) instead of the book.
    pub filtered: bool,
    /// The games that reach the position (those that pass the filter), with their statistics
    /// and moves as the book would keep them.
    pub found: &'a PositionGames,
    /// The games to list (`--games K`).
    pub listed: Option<Vec<GameRow>>,
}

impl ExploreReport {
    /// Each row's move with the moves it stands for by symmetry.
    #[must_use]
    pub fn move_groups(&self) -> Vec<(Move, Vec<Move>)> {
        self.moves
            .iter()
            .map(|r| (r.mv, r.equivalent.clone()))
            .collect()
    }

    /// The report of `q.pos` in `book`.
    pub fn build(book: &Book, q: ExploreQuery<'_>) -> Result<ExploreReport, BookError> {
        let pos = q.pos;
        let info = book.info();
        let filtered = q.games.as_ref().filter(|g| g.filtered).map(|g| g.found);
        let stats = match filtered {
            // A position no matching game reaches is not in the filtered book.
            Some(found) => Some(found.stats).filter(|s| s.games() > 0),
            None => book.try_probe(&pos.board)?,
        };
        let values = PositionValues::of(book, pos)?;
        let in_book = stats.is_some();
        let stats = stats.unwrap_or_default();
        let mut rows = match filtered {
            Some(found) => found.moves.clone(),
            None if in_book => book.try_moves(&pos.board)?,
            None => Vec::new(),
        };
        let listed = rows.len();
        // Without games, a position not in the book has no rows but the scored ones.
        if in_book || q.scores.is_some() {
            if let Some(v) = &values {
                add_unlisted_moves(&mut rows, pos, v.moves.iter().map(|m| m.mv));
            }
        }
        if let Some(e) = q.scores {
            add_unlisted_moves(&mut rows, pos, e.scores.iter().map(|s| s.0));
        }
        let min_games = info.options.min_games();
        // A row's games are known when the book lists the move, or lists every move played
        // (no minimum), or no game reached the position, so none played the move either.
        let known = |i: usize| i < listed || min_games <= 1 || (in_book && stats.games() == 0);
        let total = stats.games().max(1) as f64;
        let moves = rows
            .iter()
            .enumerate()
            .map(|(i, (mv, s))| MoveRow {
                mv: *mv,
                share: known(i).then(|| round2(100.0 * s.games() as f64 / total)),
                results: known(i).then(|| s.for_side(pos.side).into()),
                equivalent: equivalent_moves(&pos.board, *mv)
                    .into_iter()
                    .filter(|m| m != mv)
                    .collect(),
                opening: opening_after(pos, *mv),
                value: values.as_ref().map(|v| MoveValueFields {
                    value: ValueFields::of(
                        v.of_move(pos, *mv).map(|m| m.score),
                        pos.side,
                        TrustOf {
                            empties: empties_after(pos, *mv),
                            info: &v.info,
                        },
                    ),
                    best: v.is_best(pos, *mv),
                    leaves_book: v.of_move(pos, *mv).is_some_and(|m| !m.in_book),
                }),
                eval: q.eval_asked.then(|| {
                    q.scores
                        .and_then(|e| e.score(*mv))
                        .map(|s| round2(f64::from(s) / f64::from(SCALE)))
                }),
            })
            .collect();
        Ok(ExploreReport {
            position: *pos,
            side: pos.side,
            in_book,
            results: stats.for_side(pos.side).into(),
            opening: q.opening,
            value: values.as_ref().map(|v| PositionValue {
                value: ValueFields::of(
                    v.value,
                    pos.side,
                    TrustOf {
                        empties: pos.board.empty_count(),
                        info: &v.info,
                    },
                ),
                evaluation: v.info.clone().into(),
            }),
            eval: q.scores.map(|e| EvalHeader {
                eval_kind: e.kind.into(),
                eval_depth: e.depth,
            }),
            eval_asked: q.eval_asked,
            book_min_games: min_games,
            book_games: info.games,
            filtered: filtered.is_some(),
            ratings: None,
            moves,
            listed_games: q.games.and_then(|g| g.listed),
            history: None,
        })
    }
}

/// The name of the opening position `mv` leads to from `pos`, if it has one.
fn opening_after(pos: &Position, mv: Move) -> Option<String> {
    let after = pos.play(mv).ok()?;
    OpeningRef::at(Openings::standard(), &after.board).map(|o| o.name)
}

/// Empties of the position `mv` leads to from `pos`.
fn empties_after(pos: &Position, mv: Move) -> u32 {
    pos.board.empty_count() - u32::from(mv != Move::Pass)
}

/// Appends a row for each of `moves` (valued or scored moves, best first) that no row stands
/// for yet (a row of a symmetric position stands for its equivalent moves too).
fn add_unlisted_moves(
    rows: &mut Vec<(Move, MoveStats)>,
    pos: &Position,
    moves: impl Iterator<Item = Move>,
) {
    for mv in moves {
        let same = equivalent_moves(&pos.board, mv);
        if rows.iter().any(|(r, _)| *r == mv || same.contains(r)) {
            continue;
        }
        let shown = representative(&same).unwrap_or(mv);
        rows.push((shown, MoveStats::default()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_moves;
    use crate::report::ValueKindName;

    fn mv(s: &str) -> Move {
        parse_moves(s).unwrap()[0]
    }

    /// A report with every optional shape of a row: unknown games (all nulls), no value, an
    /// engine score that is missing (`null`) or absent, equivalent moves.
    fn report_of_every_shape() -> ExploreReport {
        let value = ValueFields {
            value: Some(-1.25),
            value_depth: Some(12),
            value_kind: Some(ValueKindName::Midgame),
            error: Some(2.1),
            win: Some(0.3),
            draw: Some(0.05),
            loss: Some(0.65),
            chances_for: Some(Color::Black),
        };
        let rows = vec![
            MoveRow {
                mv: mv("f5"),
                share: Some(100.0),
                results: Some(Results {
                    games: 3,
                    black_wins: 1,
                    draws: 1,
                    white_wins: 1,
                    unknown: 0,
                    average_diff: Some(0.0),
                }),
                equivalent: vec![mv("d3"), mv("c4"), mv("e6")],
                opening: Some("Perpendicular Opening".into()),
                value: Some(MoveValueFields {
                    value,
                    best: true,
                    leaves_book: false,
                }),
                eval: Some(Some(2.5)),
            },
            MoveRow {
                mv: mv("pass"),
                share: None,
                results: None,
                equivalent: Vec::new(),
                opening: None,
                value: Some(MoveValueFields {
                    value: ValueFields::default(),
                    best: false,
                    leaves_book: true,
                }),
                eval: Some(None),
            },
        ];
        ExploreReport {
            position: Position::START,
            side: Color::Black,
            in_book: true,
            results: Results::default(),
            value: Some(PositionValue {
                value,
                evaluation: Evaluation {
                    depth: 10,
                    exact_from: 18,
                    selectivity: 87,
                },
            }),
            eval: Some(EvalHeader {
                eval_kind: EvalKind::Exact,
                eval_depth: 20,
            }),
            eval_asked: true,
            book_min_games: 4,
            book_games: 3,
            filtered: false,
            ratings: None,
            moves: rows,
            listed_games: None,
            history: None,
            opening: None,
        }
    }

    /// Every optional shape of a row reads back as written.
    #[test]
    fn rows_of_every_shape_read_back() {
        let report = report_of_every_shape();
        let json = serde_json::to_string(&report).unwrap();
        assert!(
            json.contains("\"share\":null,\"games\":null,\"black_wins\":null"),
            "{json}"
        );
        assert!(json.contains("\"eval\":null"), "{json}");
        assert!(
            json.contains("\"equivalent\":[\"d3\",\"c4\",\"e6\"]"),
            "{json}"
        );
        assert!(json.ends_with("\"opening\":null}"), "{json}");
        let back: ExploreReport = serde_json::from_str(&json).unwrap();
        assert_eq!(back, report);
        // Without values and --depth the fields are absent, and read back as absent.
        let plain = ExploreReport {
            value: None,
            eval: None,
            eval_asked: false,
            moves: report
                .moves
                .iter()
                .map(|m| MoveRow {
                    value: None,
                    eval: None,
                    ..m.clone()
                })
                .collect(),
            ..report
        };
        let json = serde_json::to_string(&plain).unwrap();
        for gone in ["value", "best", "evaluation", "eval_kind", "\"eval\""] {
            assert!(!json.contains(gone), "{gone}: {json}");
        }
        assert_eq!(serde_json::from_str::<ExploreReport>(&json).unwrap(), plain);
    }
}
