//! The review itself: each position searched over all its moves and, when another was
//! played, over the played move alone; marks, the book's part and the exact phase.

use super::report::{
    BookMove, Discs, ExactPhase, GameInfo, Mark, MoveReview, PlayerSummary, Review, ReviewSettings,
    ScoreSource, StoppedAt, Verdict,
};
use super::series::series;
use crate::board::{format_moves, Bitboard, Board, Color, Move, Position, ReplayError};
use crate::book::{Book, BookError, ValueKind};
use crate::engine::{Depth, Engine, EngineError, Limits, ScoreKind, SearchEval, SCALE};
use crate::transcript::GameRecord;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The most empties [`ReviewOptions::exact_from`] accepts: every position of the exact
/// phase is solved (twice when the move played is not the best), and beyond 30 empties one
/// solve takes hours.
pub const MAX_EXACT_FROM: u32 = 30;

/// Default loss thresholds of the marks, in discs: a move losing 2 discs or more against the
/// engine's best is an inaccuracy, 4 a mistake, 8 a blunder.
pub const DEFAULT_THRESHOLDS: [i32; 3] = [2, 4, 8];

/// How much each midgame position is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effort {
    /// Iterative deepening to this depth.
    Depth(Depth),
    /// Iterative deepening for this long per position (the played move, when not the best,
    /// is then searched again to the depth reached).
    Time(Duration),
}

/// Loss thresholds of the marks in [`SCALE`] units: each at least the one before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thresholds {
    inaccuracy: i32,
    mistake: i32,
    blunder: i32,
}

impl Default for Thresholds {
    fn default() -> Self {
        let [i, m, b] = DEFAULT_THRESHOLDS.map(|d| d * SCALE);
        Thresholds {
            inaccuracy: i,
            mistake: m,
            blunder: b,
        }
    }
}

impl Thresholds {
    /// Thresholds in discs; they must be positive and rising.
    pub fn new(inaccuracy: f64, mistake: f64, blunder: f64) -> Result<Thresholds, ReviewError> {
        let units = |x: f64| (x * f64::from(SCALE)).round();
        let [i, m, b] = [inaccuracy, mistake, blunder].map(units);
        if !(i > 0.0 && i <= m && m <= b && b <= f64::from(128 * SCALE)) {
            return Err(ReviewError::Thresholds {
                inaccuracy,
                mistake,
                blunder,
            });
        }
        Ok(Thresholds {
            inaccuracy: i as i32,
            mistake: m as i32,
            blunder: b as i32,
        })
    }

    /// The mark a loss of `loss` ([`SCALE`] units) earns.
    #[must_use]
    pub fn mark(&self, loss: i32) -> Option<Mark> {
        if loss >= self.blunder {
            Some(Mark::Blunder)
        } else if loss >= self.mistake {
            Some(Mark::Mistake)
        } else if loss >= self.inaccuracy {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }
}

/// How a review searches, checked when built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewOptions {
    effort: Effort,
    exact_from: u32,
    thresholds: Thresholds,
}

impl ReviewOptions {
    /// Midgame positions searched with `effort`, positions of at most `exact_from` empties
    /// solved exactly (0: never, unless the depth reaches the end), default thresholds.
    pub fn new(effort: Effort, exact_from: u32) -> Result<ReviewOptions, ReviewError> {
        match effort {
            Effort::Time(t) if t.is_zero() || t > Duration::from_secs(86_400) => {
                return Err(ReviewError::Time(t.as_secs_f64()));
            }
            _ => {}
        }
        if exact_from > MAX_EXACT_FROM {
            return Err(ReviewError::ExactFrom(exact_from));
        }
        Ok(ReviewOptions {
            effort,
            exact_from,
            thresholds: Thresholds::default(),
        })
    }

    /// The same options with other thresholds.
    #[must_use]
    pub fn with_thresholds(self, thresholds: Thresholds) -> ReviewOptions {
        ReviewOptions { thresholds, ..self }
    }

    /// The midgame effort.
    #[must_use]
    pub fn effort(&self) -> Effort {
        self.effort
    }

    /// Positions with at most this many empties are solved exactly.
    #[must_use]
    pub fn exact_from(&self) -> u32 {
        self.exact_from
    }

    /// The marks' thresholds.
    #[must_use]
    pub fn thresholds(&self) -> Thresholds {
        self.thresholds
    }

    /// The engine limits for the first search of a position with `empties` empty squares
    /// (the search over all its moves). A game played with these limits, one thread and a
    /// fresh engine of the same options, reviews with no loss.
    #[must_use]
    pub fn limits(&self, empties: u32) -> Limits {
        if empties <= self.exact_from {
            Limits::exact()
        } else {
            match self.effort {
                Effort::Depth(d) => Limits::depth(d),
                Effort::Time(t) => Limits::time(t),
            }
        }
    }

    fn settings(&self) -> ReviewSettings {
        let (depth, time) = match self.effort {
            Effort::Depth(d) => (Some(d.plies()), None),
            Effort::Time(t) => (None, Some(t.as_secs_f64())),
        };
        ReviewSettings {
            depth,
            time,
            exact_from: self.exact_from,
            inaccuracy: Discs(self.thresholds.inaccuracy),
            mistake: Discs(self.thresholds.mistake),
            blunder: Discs(self.thresholds.blunder),
        }
    }
}

/// Why a game cannot be reviewed.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// Time per position out of range.
    #[error("time {0} s is out of range: use more than 0 and at most a day per position")]
    Time(f64),
    /// Exact-from out of range.
    #[error("exact-from {0} is out of range: use 0 to {MAX_EXACT_FROM} empties")]
    ExactFrom(u32),
    /// Thresholds not positive and rising.
    #[error(
        "thresholds {inaccuracy}/{mistake}/{blunder} discs: they must be above 0, rising \
         (inaccuracy <= mistake <= blunder) and at most 128"
    )]
    Thresholds {
        /// Inaccuracy threshold asked for.
        inaccuracy: f64,
        /// Mistake threshold asked for.
        mistake: f64,
        /// Blunder threshold asked for.
        blunder: f64,
    },
    /// The game holds an illegal move.
    #[error("the game cannot be replayed: {0}")]
    Illegal(#[from] ReplayError),
    /// The game has no move to review.
    #[error("the game has no moves to review")]
    NoMoves,
    /// The engine refused a search.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The book's data is damaged.
    #[error(transparent)]
    Book(#[from] BookError),
    /// The caller's stop flag was set ([`review_stoppable`]): nothing is reported.
    #[error("the review was stopped after {reviewed} of {plies} plies")]
    Stopped {
        /// Plies reviewed before the stop.
        reviewed: usize,
        /// Plies of the game.
        plies: usize,
    },
}

impl ReviewError {
    /// Whether the error lies in what the caller asked for (options, the game's moves)
    /// rather than in the engine or the book.
    #[must_use]
    pub fn is_bad_input(&self) -> bool {
        !matches!(
            self,
            ReviewError::Engine(_) | ReviewError::Book(_) | ReviewError::Stopped { .. }
        )
    }
}

/// A game to review: where it starts, its moves and what its record says of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewInput {
    /// Where play starts.
    pub start: Position,
    /// The moves (passes may be left out: they are put back).
    pub moves: Vec<Move>,
    /// Names, event, source; `moves` and `start` are filled in by the review.
    pub info: GameInfo,
}

impl ReviewInput {
    /// A game without a record: only its moves.
    #[must_use]
    pub fn new(start: Position, moves: Vec<Move>) -> ReviewInput {
        ReviewInput {
            start,
            moves,
            info: GameInfo::default(),
        }
    }
}

impl From<&GameRecord> for ReviewInput {
    fn from(g: &GameRecord) -> ReviewInput {
        ReviewInput {
            start: g.start,
            moves: g.moves.clone(),
            info: GameInfo {
                black: g.black.clone(),
                white: g.white.clone(),
                event: g.event.clone(),
                year: g.year,
                source: Some(g.source.to_string()),
                result: g.result.as_ref().map(|r| r.raw.clone()),
                start: None,
                moves: String::new(),
            },
        }
    }
}

/// Reviews `input`: every ply scored by `engine` under `opts`, the book (if any) consulted
/// while the game is in it. `progress` is called with the plies done and the plies in all
/// after each ply. Errors: an illegal move, a refused search, a damaged book.
pub fn review<E: SearchEval>(
    input: &ReviewInput,
    engine: &Engine<E>,
    book: Option<&Book>,
    opts: &ReviewOptions,
    progress: impl FnMut(usize, usize),
) -> Result<Review, ReviewError> {
    review_stoppable(input, engine, book, opts, &AtomicBool::new(false), progress)
}

/// Like [`review`], and stopped by another thread setting `stop`: the flag is looked at
/// between plies and by the searches themselves (as [`Engine::analyze_stoppable`] does), so
/// the review ends promptly with [`ReviewError::Stopped`], even in the middle of a long
/// search, whose unfinished scores are not used.
pub fn review_stoppable<E: SearchEval>(
    input: &ReviewInput,
    engine: &Engine<E>,
    book: Option<&Book>,
    opts: &ReviewOptions,
    stop: &AtomicBool,
    progress: impl FnMut(usize, usize),
) -> Result<Review, ReviewError> {
    let r = review_until_stopped(input, engine, book, opts, stop, progress)?;
    match r.stopped {
        Some(StoppedAt { reviewed, plies }) => Err(ReviewError::Stopped { reviewed, plies }),
        None => Ok(r),
    }
}

/// Like [`review_stoppable`], but a stop ends the review with the plies reviewed before it
/// ([`Review::stopped`] says where), for a user who interrupts a long review and still wants
/// what it found.
pub fn review_until_stopped<E: SearchEval>(
    input: &ReviewInput,
    engine: &Engine<E>,
    book: Option<&Book>,
    opts: &ReviewOptions,
    stop: &AtomicBool,
    mut progress: impl FnMut(usize, usize),
) -> Result<Review, ReviewError> {
    let replay = input.start.replay(input.moves.iter().copied())?;
    if replay.moves.is_empty() {
        return Err(ReviewError::NoMoves);
    }
    let started = Instant::now();
    let total = replay.moves.len();
    let mut rows = Vec::with_capacity(total);
    let mut nodes = 0;
    let mut in_book = book.is_some();
    let mut left_book_at = None;
    let mut pos = replay.start;
    let mut stopped = None;
    for (i, &mv) in replay.moves.iter().enumerate() {
        let judged = if stop.load(Ordering::Relaxed) {
            None
        } else if mv.is_pass() {
            Some(None)
        } else {
            // `None`: the flag was set during the search, whose scores are not used.
            judge(engine, &pos.board, mv, opts, stop)
                .transpose()?
                .map(|(v, n)| {
                    nodes += n;
                    Some(v)
                })
        };
        let Some(verdict) = judged else {
            stopped = Some(StoppedAt {
                reviewed: i,
                plies: total,
            });
            break;
        };
        let book_move = match book.filter(|_| in_book) {
            Some(b) => book_move(b, &pos.board, mv)?,
            None => None,
        };
        if in_book && book_move.is_none() {
            in_book = false;
            left_book_at = Some(i + 1);
        }
        rows.push(MoveReview {
            ply: i + 1,
            side: pos.side,
            mv,
            empties: pos.board.empty_count(),
            verdict,
            book: book_move,
        });
        pos = pos.play(mv).expect("replayed move is legal");
        progress(i + 1, total);
    }
    let mut info = input.info.clone();
    info.moves = format_moves(&replay.moves);
    info.start = (replay.start != Position::START).then(|| replay.start.to_string());
    let [black, white] = [Color::Black, Color::White].map(|side| {
        let name = match side {
            Color::Black => info.black.clone(),
            Color::White => info.white.clone(),
        };
        summarise(&rows, side, name)
    });
    Ok(Review {
        exact_phase: exact_phase(&rows),
        final_black: pos.board.is_game_over().then(|| pos.final_score_black()),
        game: info,
        settings: opts.settings(),
        series: series(&rows),
        moves: rows,
        left_book_at,
        book_used: book.is_some(),
        opening: crate::report::OpeningRef::along_from(
            crate::openings::Openings::standard(),
            &replay.start.board,
            &replay.moves,
        ),
        black,
        white,
        nodes,
        seconds: started.elapsed().as_secs_f64(),
        stopped,
    })
}

/// Scores `mv` and the best move of `board` (whose side to move has moves); returns the
/// verdict and the nodes searched, or `None` when `stop` was set during a search.
fn judge<E: SearchEval>(
    engine: &Engine<E>,
    board: &Board,
    mv: Move,
    opts: &ReviewOptions,
    stop: &AtomicBool,
) -> Option<Result<(Verdict, u64), ReviewError>> {
    // A search cut short by the flag ends as if out of time, with unfinished scores.
    let search = |limits: &Limits| match engine.analyze_stoppable(board, limits, stop, |_| {}) {
        Ok(_) if stop.load(Ordering::Relaxed) => None,
        other => Some(other),
    };
    let all = match search(&opts.limits(board.empty_count()))? {
        Ok(a) => a,
        Err(e) => return Some(Err(e.into())),
    };
    let mut nodes = all.nodes;
    let kind = match all.kind {
        ScoreKind::Exact | ScoreKind::Wld => ScoreSource::Exact,
        ScoreKind::Midgame => ScoreSource::Midgame,
    };
    let (mut best_move, mut best) = (all.best_move, all.score);
    // A move the position's symmetry makes equivalent to the best is as good: no search.
    let same = crate::book::key::equivalent_moves(board, best_move).contains(&mv);
    let played = if same {
        best_move = mv;
        best
    } else {
        let again = match kind {
            ScoreSource::Exact => Limits::exact(),
            ScoreSource::Midgame => match Depth::new(all.depth.max(1)) {
                Ok(d) => Limits::depth(d),
                Err(e) => return Some(Err(EngineError::from(e).into())),
            },
        };
        let sq = mv.square().expect("a pass is not judged");
        let one = match search(&again.only(Bitboard::from(sq)))? {
            Ok(a) => a,
            Err(e) => return Some(Err(e.into())),
        };
        nodes += one.nodes;
        if one.score >= best {
            // A move as good as the best is shown as the best. The table can also make the
            // second search see further than the first did: the played move is then the
            // best known.
            best_move = mv;
            best = one.score;
        }
        one.score
    };
    let loss = best - played;
    Some(Ok((
        Verdict {
            played: Discs(played),
            best_move,
            best: Discs(best),
            loss: Discs(loss),
            kind,
            depth: all.depth,
            mark: opts.thresholds.mark(loss),
        },
        nodes,
    )))
}

/// The book's figures for `mv` from `board`, or `None` when the position it leads to is not
/// in the book.
fn book_move(book: &Book, board: &Board, mv: Move) -> Result<Option<BookMove>, BookError> {
    let child = board.play_move(mv).expect("replayed move is legal");
    if book.try_probe(&child)?.is_none() {
        return Ok(None);
    }
    let games = book.try_move_stats(board, mv)?.map_or(0, |s| s.games());
    let value = book.try_value(&child)?.map(|s| s.negated());
    let best = book.try_best_moves(board)?.into_iter().next();
    Ok(Some(BookMove {
        games,
        value: value.map(|s| Discs(i32::from(s.score))),
        value_exact: value.is_some_and(|s| s.kind == ValueKind::Exact),
        best_move: best.map(|b| b.mv),
        best_value: best.map(|b| Discs(i32::from(b.score.score))),
    }))
}

/// The first ply scored exactly, with black's exact score there.
fn exact_phase(rows: &[MoveReview]) -> Option<ExactPhase> {
    rows.iter().find_map(|r| {
        let v = r
            .verdict
            .as_ref()
            .filter(|v| v.kind == ScoreSource::Exact)?;
        let black = match r.side {
            Color::Black => v.best.0,
            Color::White => -v.best.0,
        };
        Some(ExactPhase {
            from_ply: r.ply,
            empties: r.empties,
            black_score: Discs(black),
        })
    })
}

fn summarise(rows: &[MoveReview], side: Color, name: Option<String>) -> PlayerSummary {
    let mut s = PlayerSummary {
        name,
        ..PlayerSummary::default()
    };
    for r in rows.iter().filter(|r| r.side == side) {
        if r.book.is_some() {
            s.in_book += 1;
        }
        let Some(v) = &r.verdict else { continue };
        s.moves += 1;
        s.total_loss.0 += v.loss.0;
        if v.kind == ScoreSource::Exact {
            s.exact_moves += 1;
            s.exact_loss.0 += v.loss.0;
        }
        match v.mark {
            Some(Mark::Inaccuracy) => s.inaccuracies += 1,
            Some(Mark::Mistake) => s.mistakes += 1,
            Some(Mark::Blunder) => s.blunders += 1,
            None => {}
        }
    }
    if s.moves > 0 {
        s.average_loss = s.total_loss.discs() / f64::from(s.moves);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_the_thresholds() {
        let t = Thresholds::default();
        let cases = [
            (0, None),
            (199, None),
            (200, Some(Mark::Inaccuracy)),
            (399, Some(Mark::Inaccuracy)),
            (400, Some(Mark::Mistake)),
            (799, Some(Mark::Mistake)),
            (800, Some(Mark::Blunder)),
            (6400, Some(Mark::Blunder)),
        ];
        for (loss, mark) in cases {
            assert_eq!(t.mark(loss), mark, "loss {loss}");
        }
    }

    #[test]
    fn options_are_checked_when_built() {
        assert!(ReviewOptions::new(Effort::Time(Duration::ZERO), 10).is_err());
        assert!(ReviewOptions::new(Effort::Depth(Depth::of(8)), MAX_EXACT_FROM + 1).is_err());
        assert!(Thresholds::new(4.0, 2.0, 8.0).is_err());
        assert!(Thresholds::new(0.0, 2.0, 8.0).is_err());
        let t = Thresholds::new(1.5, 3.0, 6.0).unwrap();
        assert_eq!(t.mark(150), Some(Mark::Inaccuracy));
        let o = ReviewOptions::new(Effort::Depth(Depth::of(8)), 14).unwrap();
        assert_eq!(o.limits(14), Limits::exact());
        assert_eq!(o.limits(15), Limits::depth(Depth::of(8)));
    }
}
