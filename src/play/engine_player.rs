//! The engine as a player (`engine:time=0.5,threads=2`) and `better`, one ply of the
//! hand-made evaluation.

use crate::board::{Board, Move};
use crate::book::Book;
use crate::engine::{
    AnyEval, Depth, Engine, EngineOptions, EvalKind, HashSize, Limits, ScoreKind, Selectivity,
    ThreadCount,
};
use crate::play::book_choice::{choose, BookPick, BookReason};
use crate::play::{Budget, Choice, GameState, Player, PlayerError};
use crate::rng::Rng;
use crate::teach::greedy::best_action;
use crate::teach::othello::{Hand, Othello};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Thinking time per move when neither the spec nor a clock says.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// The full engine: the opening book first, then iterative-deepening PVS over its
/// transposition table, exact near the end.
pub struct EnginePlayer {
    engine: Engine<AnyEval>,
    book: Option<Arc<Book>>,
    /// How the book's moves are chosen.
    book_play: BookPlay,
    /// Time per move (capped by the clock's budget).
    pub time: Option<Duration>,
    /// Fixed depth instead of (or as well as) a time limit.
    pub depth: Option<Depth>,
    /// ProbCut's level in the midgame searches.
    selectivity: Selectivity,
}

impl EnginePlayer {
    /// An engine player with evaluation `eval`; `threads` search threads sharing a
    /// `hash_mb` MiB table (an error when the memory cannot be had).
    pub fn new(
        threads: ThreadCount,
        hash_mb: HashSize,
        time: Option<Duration>,
        depth: Option<Depth>,
        eval: EvalKind,
    ) -> Result<Self, crate::engine::EngineError> {
        let engine =
            Engine::try_with_evaluator(EngineOptions { threads, hash_mb }, AnyEval::new(eval))?;
        Ok(EnginePlayer {
            engine,
            book: None,
            book_play: BookPlay::default(),
            time,
            depth,
            selectivity: Selectivity::default(),
        })
    }

    /// The same player searching the midgame at ProbCut level `selectivity` (solves near the
    /// end stay exact).
    #[must_use]
    pub fn with_selectivity(mut self, selectivity: Selectivity) -> Self {
        self.selectivity = selectivity;
        self
    }

    /// The same player consulting `book` before it searches.
    #[must_use]
    pub fn with_book(mut self, book: Option<Arc<Book>>) -> Self {
        self.book = book;
        self
    }

    /// The same player choosing among the book's moves within `randomness` discs of the best
    /// value (see [`BookPlay`]), at random with `seed`.
    #[must_use]
    pub fn with_book_randomness(mut self, randomness: f64, seed: u64) -> Self {
        self.book_play = BookPlay::new(randomness, seed);
        self
    }

    /// The search limits for one move under `budget`.
    #[must_use]
    pub fn limits(&self, budget: Budget) -> Limits {
        let own = self.time;
        let time = match (own, budget.target) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let time = match (time, self.depth) {
            (None, None) => Some(DEFAULT_MOVE_TIME),
            (t, _) => t,
        };
        Limits {
            depth: self.depth,
            time,
            selectivity: self.selectivity,
            ..Limits::default()
        }
    }

    /// The engine, for callers that want full analyses.
    #[must_use]
    pub fn engine(&self) -> &Engine<AnyEval> {
        &self.engine
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> String {
        let eval = match self.engine.evaluator().kind() {
            EvalKind::Pattern => String::new(),
            kind => format!("eval={kind}"),
        };
        let limit = match (self.time, self.depth) {
            (_, Some(d)) => format!("depth={d}"),
            (Some(t), None) => format!("time={}", t.as_secs_f64()),
            (None, None) => String::new(),
        };
        let selectivity = if self.selectivity == Selectivity::default() {
            String::new()
        } else {
            format!("selectivity={}", self.selectivity)
        };
        let opts: Vec<String> = [limit, eval, selectivity, self.book_play.option()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect();
        if opts.is_empty() {
            "engine".into()
        } else {
            format!("engine:{}", opts.join(","))
        }
    }

    fn new_game(&mut self, _: &crate::board::Position) -> Result<(), PlayerError> {
        // Table entries from an earlier game are still valid positions, so keep them.
        Ok(())
    }

    fn choose(&mut self, game: &GameState, budget: Budget) -> Result<Choice, PlayerError> {
        let limits = self.limits(budget);
        let m = engine_move(
            &self.engine,
            self.book.as_deref(),
            &mut self.book_play,
            &game.position.board,
            &limits,
            None,
        )?;
        Ok(Choice {
            mv: m.mv,
            nodes: m.nodes,
        })
    }
}

/// Where an [`EngineMove`] came from and what its score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveSource {
    /// The book, by its value of the move.
    BookValue,
    /// The book, by the games that played the move (its score is their average margin).
    BookGames,
    /// The search, with the kind of its score.
    Search(ScoreKind),
}

/// One move of the engine as a player: the book's when it has one, else the search's, with
/// what it rests on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineMove {
    /// The move (a pass when the side to move has none).
    pub mv: Move,
    /// Its worth for the side playing it, in discs.
    pub score: f64,
    /// Depth of the search or of the book's value (`None`: a book move chosen by games).
    pub depth: Option<u32>,
    pub source: MoveSource,
    /// Positions searched (0 for a book move).
    pub nodes: u64,
    /// False when the time ran out (or `stop` was set) before the search finished its depth.
    pub complete: bool,
}

/// The engine's move on `board`: the book's first (chosen by `book_play`, the rule every
/// player shares), else a search of `engine` under `limits`, which `stop`, when set by
/// another thread, ends early with the deepest finished iteration.
pub fn engine_move(
    engine: &Engine<AnyEval>,
    book: Option<&Book>,
    book_play: &mut BookPlay,
    board: &Board,
    limits: &Limits,
    stop: Option<&AtomicBool>,
) -> Result<EngineMove, PlayerError> {
    if let Some(pick) = book_play.pick(book, board)? {
        let (depth, source) = match pick.reason {
            BookReason::Value(s) => (Some(u32::from(s.depth)), MoveSource::BookValue),
            BookReason::Games(_) => (None, MoveSource::BookGames),
        };
        return Ok(EngineMove {
            mv: pick.mv,
            score: pick.discs(),
            depth,
            source,
            nodes: 0,
            complete: true,
        });
    }
    let searched = match stop {
        Some(stop) => engine.analyze_stoppable(board, limits, stop, |_| {}),
        None => engine.analyze(board, limits),
    };
    let a = searched.map_err(|e| PlayerError::External {
        engine: "engine".into(),
        message: e.to_string(),
    })?;
    Ok(EngineMove {
        mv: a.best_move,
        score: a.score_discs(),
        depth: Some(a.depth),
        source: MoveSource::Search(a.kind),
        nodes: a.nodes,
        complete: a.complete,
    })
}

/// The greedy teaching player with the hand-made evaluation (mobility, corners, X/C squares,
/// stability, parity, phase-dependent weights) as its heuristic; the opening book's move
/// while the game is in it.
#[derive(Default)]
pub struct BetterPlayer {
    eval: Hand,
    book: Option<Arc<Book>>,
    book_play: BookPlay,
}

impl BetterPlayer {
    /// A player consulting `book` first.
    #[must_use]
    pub fn new(book: Option<Arc<Book>>) -> Self {
        BetterPlayer {
            eval: Hand::default(),
            book,
            book_play: BookPlay::default(),
        }
    }

    /// The same player choosing among the book's moves within `randomness` discs of the best
    /// value, at random with `seed`.
    #[must_use]
    pub fn with_book_randomness(mut self, randomness: f64, seed: u64) -> Self {
        self.book_play = BookPlay::new(randomness, seed);
        self
    }
}

impl Player for BetterPlayer {
    fn name(&self) -> String {
        match self.book_play.option() {
            o if o.is_empty() => "better".into(),
            o => format!("better:{o}"),
        }
    }

    fn choose(&mut self, game: &GameState, _: Budget) -> Result<Choice, PlayerError> {
        if let Some(p) = self
            .book_play
            .pick(self.book.as_deref(), &game.position.board)?
        {
            return Ok(Choice { mv: p.mv, nodes: 0 });
        }
        let (mv, nodes) = best_action(&Othello, &self.eval, &game.position);
        Ok(Choice { mv, nodes })
    }
}

/// How a player takes its moves from the book: by value within a margin of the best, chosen
/// with its own generator (see [`choose`]), or by games for a book without values.
pub struct BookPlay {
    /// Discs below the best value a book move may be (0: only the best).
    randomness: f64,
    rng: Rng,
}

impl Default for BookPlay {
    fn default() -> Self {
        BookPlay::new(0.0, Rng::fresh_seed())
    }
}

impl BookPlay {
    /// Moves within `randomness` discs of the best, chosen with a generator seeded `seed`.
    #[must_use]
    pub fn new(randomness: f64, seed: u64) -> Self {
        BookPlay {
            randomness,
            rng: Rng::new(seed),
        }
    }

    /// The book's move on `board`, if `book` has one (see [`choose`]).
    pub fn pick(
        &mut self,
        book: Option<&Book>,
        board: &Board,
    ) -> Result<Option<BookPick>, PlayerError> {
        let Some(book) = book else { return Ok(None) };
        Ok(choose(book, board, self.randomness, &mut self.rng)?)
    }

    /// `book-randomness=X` for a player's name, or nothing at the default.
    fn option(&self) -> String {
        if self.randomness > 0.0 {
            format!("book-randomness={}", self.randomness)
        } else {
            String::new()
        }
    }
}
