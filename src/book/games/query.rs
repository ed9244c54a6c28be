//! The games behind a position, found by scanning the table: no index on disk. A position
//! with `n` discs can only be reached right after a game's `n - 4`th disc is placed, and only
//! if the squares filled so far are one of the 8 images of the position's filled squares; that
//! test is a few OR operations per game, so only the games that pass it are replayed (as far
//! as that ply) and compared by canonical key. Filters on the metadata come first.
//! docs/experiments.md has the measurements behind this design.

use super::codec::MAX_GAME_PLIES;
use super::{GameSelection, GameTable, GameTableError};
use crate::board::{Board, Move, Symmetry};
use crate::book::key::{code_move, images, map_code, representative, Canonical, PASS_CODE};
use crate::book::reader::{normalizer, rank_by, shown_symmetry};
use crate::book::stats::{MoveStats, Outcome, PositionStats, Stats};
use crate::book::{Line, TopQuery};
use rayon::prelude::*;

/// Squares filled at the start.
const START_FILLED: u64 = Board::START.player().0 | Board::START.opponent().0;
/// Games per piece of parallel work.
const CHUNK: usize = 8192;

/// Where a game reached the position (found by the scan or the index).
pub(crate) struct Hit {
    pub game: usize,
    pub ply: usize,
    /// Code of the move played there, as played (none at the end of the game).
    pub next: Option<u8>,
    /// The game's board there (an image of the one asked about).
    pub board: Board,
    /// The game's final disc difference, black minus white.
    pub result: Option<i8>,
}

/// One game that reached the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameMatch {
    /// Index of the game in the table.
    pub game: usize,
    /// Plies played before the position (passes count).
    pub ply: usize,
    /// The move the game played there, in the orientation of the board asked about (`None`
    /// when the game ended there).
    pub next: Option<Move>,
}

/// The games that reached a position and what they add up to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionGames {
    /// The games, most recent first: all of them, or the first ones only when read by
    /// [`IndexedGames::first`](crate::book::indexed::IndexedGames::first).
    pub matches: Vec<GameMatch>,
    /// How many games reach the position (`matches` may list fewer).
    pub total: usize,
    /// Their statistics, from the view of the side to move.
    pub stats: PositionStats,
    /// The moves they played, as [`Book::moves`](crate::book::Book::moves) lists them: in the
    /// board's orientation, equivalent moves once, most played first, statistics from the
    /// mover's view. Moves played in fewer than `min_games` games are left out. Empty when
    /// `matches` lists the first games only.
    pub moves: Vec<(Move, MoveStats)>,
}

impl GameTable {
    /// The games that reach `board` (any orientation, any move order) within their first
    /// `max_ply` plies, among those `selection` accepts (all when `None`); statistics
    /// as the book keeps them, moves pruned at `min_games`. An error names a stored game that
    /// does not replay (a damaged table).
    pub fn find(
        &self,
        board: &Board,
        max_ply: usize,
        selection: Option<&GameSelection>,
        min_games: u64,
    ) -> Result<PositionGames, GameTableError> {
        let probe = Probe::new(board);
        let found: Vec<Vec<Hit>> = self
            .games
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(c, chunk)| {
                let mut out = Vec::new();
                for (k, g) in chunk.iter().enumerate() {
                    if selection.is_some_and(|s| !s.accepts(g)) {
                        continue;
                    }
                    let (i, codes) = (c * CHUNK + k, self.moves_of(g));
                    if probe.may_reach(codes.iter().copied()) {
                        out.extend(probe.reaches(codes, i, g.result, max_ply)?);
                    }
                }
                Ok(out)
            })
            .collect::<Result<_, GameTableError>>()?;
        Ok(gather(
            board,
            found.into_iter().flatten(),
            max_ply,
            min_games,
            None,
        ))
    }

    /// The lines `query` asks for, counted from the games `selection` accepts (all when
    /// `None`) within their first `max_plies` plies, ranked as
    /// [`Book::top_lines`](crate::book::Book::top_lines) ranks the book's own lines.
    #[must_use]
    pub fn top_lines(
        &self,
        query: &TopQuery<'_>,
        max_plies: usize,
        selection: Option<&GameSelection>,
    ) -> Vec<Line> {
        let Some(mut counter) = LineCounter::new(query, max_plies) else {
            return Vec::new();
        };
        for g in &self.games {
            if selection.is_none_or(|s| s.accepts(g)) {
                counter.add(self.moves_of(g), g.result);
            }
        }
        counter.lines(query)
    }
}

/// The test of whether a game reaches a position, from its move codes alone.
pub(crate) struct Probe {
    target: Canonical,
    /// The position's filled squares in its eight orientations, sorted.
    shapes: [u64; 8],
    /// Discs placed since the start: the moves (passes aside) a game plays to reach it.
    placed: usize,
    /// Per square: the images (bits of `shapes`) that fill it.
    within: [u8; 64],
}

impl Probe {
    /// The probe for `board`.
    pub(crate) fn new(board: &Board) -> Probe {
        let filled = board.player().0 | board.opponent().0;
        let mut shapes = images(filled);
        shapes.sort_unstable();
        let mut within = [0u8; 64];
        for (sq, w) in within.iter_mut().enumerate() {
            for (s, shape) in shapes.iter().enumerate() {
                if shape & (1u64 << sq) != 0 {
                    *w |= 1 << s;
                }
            }
        }
        Probe {
            target: Canonical::of(board),
            shapes,
            placed: (filled & !START_FILLED).count_ones() as usize,
            within,
        }
    }

    /// Discs placed since the start: a game of fewer plies cannot reach the position.
    pub(crate) fn placed(&self) -> usize {
        self.placed
    }

    /// Whether a game with these first move `codes` (passes included) may reach the
    /// position: each disc it places lands on a square the position fills in one of its
    /// orientations, and it places as many. A random game is rejected after a few moves;
    /// [`Probe::reaches`] decides for the others.
    pub(crate) fn may_reach(&self, codes: impl Iterator<Item = u8>) -> bool {
        // Bit `s` of `alive`: every disc so far is on a square that image `s` fills.
        let (mut alive, mut n) = (u8::MAX, 0);
        for c in codes {
            if n == self.placed {
                break;
            }
            if c == PASS_CODE {
                continue;
            }
            alive &= self.within[usize::from(c & 63)];
            if alive == 0 {
                return false;
            }
            n += 1;
        }
        n == self.placed
    }

    /// Whether game `i`, with move `codes` and final disc difference `result`, reaches the
    /// position within `max_ply` plies: the ply, the move played there and the game's board
    /// at that ply. Only a game whose filled squares match after the right number of moves
    /// is replayed. `codes` may be a prefix of the game's moves that holds two moves past
    /// the position (the move played there, and one more after a pass).
    pub(crate) fn reaches(
        &self,
        codes: &[u8],
        i: usize,
        result: Option<i8>,
        max_ply: usize,
    ) -> Result<Option<Hit>, GameTableError> {
        let mut filled = START_FILLED;
        let (mut n, mut ply) = (0, 0);
        while n < self.placed {
            match codes.get(ply) {
                Some(&PASS_CODE) => {}
                Some(&c) => {
                    filled |= 1u64 << c;
                    n += 1;
                }
                None => return Ok(None),
            }
            ply += 1;
        }
        if ply > max_ply || self.shapes.binary_search(&filled).is_err() {
            return Ok(None);
        }
        let bad = |at: usize| GameTableError::Replay {
            game: i + 1,
            ply: at,
        };
        let mut board = Board::START;
        for (at, &c) in codes[..ply].iter().enumerate() {
            let mv = code_move(c).ok_or_else(|| bad(at + 1))?;
            board = board.play_move(mv).map_err(|_| bad(at + 1))?;
        }
        // The same discs right after a pass are the other side's turn: the next ply, too.
        for at in ply..=(ply + 1).min(codes.len()).min(max_ply) {
            if Canonical::of(&board).key == self.target.key {
                return Ok(Some(Hit {
                    game: i,
                    ply: at,
                    next: codes.get(at).copied(),
                    board,
                    result,
                }));
            }
            if codes.get(at) != Some(&PASS_CODE) {
                break;
            }
            board = board.pass();
        }
        Ok(None)
    }
}

/// The games' lines of a `top` query counted as games are added: each game's first plies,
/// mapped to the orientation whose first move is f5 (a line and its images count together).
#[derive(Clone, Debug)]
pub(crate) struct LineCounter {
    plies: usize,
    start: Vec<u8>,
    counts: ahash::AHashMap<Vec<u8>, Stats>,
}

impl LineCounter {
    /// A counter for `query`'s lines; `None` when it asks for none within `max_plies`.
    pub(crate) fn new(query: &TopQuery<'_>, max_plies: usize) -> Option<LineCounter> {
        let plies = query.plies;
        if plies == 0 || plies <= query.start.len() || plies > max_plies.min(MAX_GAME_PLIES) {
            return None;
        }
        let start = normal(
            plies,
            query.start.iter().map(|m| crate::book::key::move_code(*m)),
        );
        Some(LineCounter {
            plies,
            start,
            counts: Default::default(),
        })
    }

    /// Plies of the lines counted: a game's first this many moves are all it needs.
    pub(crate) fn plies(&self) -> usize {
        self.plies
    }

    /// Counts a game (its move codes, at least its first [`LineCounter::plies`], and its
    /// result) if it plays that many plies and starts with the query's moves.
    pub(crate) fn add(&mut self, codes: &[u8], result: Option<i8>) {
        if codes.len() < self.plies {
            return;
        }
        // Mapped in place: a line counted before costs no allocation.
        let mut line = [0u8; MAX_GAME_PLIES];
        let line = &mut line[..self.plies];
        line.copy_from_slice(&codes[..self.plies]);
        let sym = normalizer(code_move(line[0]));
        for c in line.iter_mut() {
            *c = map_code(sym, *c);
        }
        if !line.starts_with(&self.start) {
            return;
        }
        let stats = Outcome::from_disc_diff(result.map(i32::from)).stats();
        match self.counts.get_mut(&line[..]) {
            Some(e) => *e = e.plus(&stats),
            None => {
                self.counts.insert(line.to_vec(), stats);
            }
        }
    }

    /// The counts of both.
    pub(crate) fn merge(mut self, other: LineCounter) -> LineCounter {
        for (line, s) in other.counts {
            let e = self.counts.entry(line).or_default();
            *e = e.plus(&s);
        }
        self
    }

    /// The lines of at least the query's games, ranked, at most its limit.
    pub(crate) fn lines(self, query: &TopQuery<'_>) -> Vec<Line> {
        let mut lines: Vec<(Vec<u8>, Stats)> = self
            .counts
            .into_iter()
            .filter(|(_, s)| s.games() >= query.min_games)
            .collect();
        lines.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        rank_by(&mut lines, query.by, |l| l.1);
        lines.truncate(query.limit);
        let shown = shown_symmetry(query.start, query.first);
        lines
            .into_iter()
            .map(|(codes, stats)| Line {
                moves: codes
                    .iter()
                    .filter_map(|&c| code_move(c))
                    .map(|m| shown.apply_move(m))
                    .collect(),
                stats,
            })
            .collect()
    }
}

/// The first `plies` of `moves` (codes) in the orientation whose first move is f5.
fn normal(plies: usize, moves: impl Iterator<Item = u8>) -> Vec<u8> {
    let mut line: Vec<u8> = moves.take(plies).collect();
    let sym = normalizer(line.first().and_then(|&c| code_move(c)));
    for c in &mut line {
        *c = map_code(sym, *c);
    }
    line
}

/// What the games `hits` (in table order) that reached `board` add up to: statistics from
/// the side to move's view, moves of the first `max_ply` plies shown in the board's
/// orientation, those of fewer than `min_games` games left out; the first `listed` matches
/// kept (all when `None`), every one counted.
pub(crate) fn gather(
    board: &Board,
    hits: impl IntoIterator<Item = Hit>,
    max_ply: usize,
    min_games: u64,
    listed: Option<usize>,
) -> PositionGames {
    let mut tally = Tally::new(max_ply, listed);
    // The game's board is an image of the one asked about: its move is shown in the
    // caller's orientation. There are at most eight images, each looked up once.
    let mut seen: Vec<(Board, usize)> = Vec::with_capacity(8);
    for hit in hits {
        let to_caller = match seen.iter().find(|(b, _)| *b == hit.board) {
            Some(&(_, s)) => s,
            None => {
                let s = Symmetry::ALL
                    .iter()
                    .position(|s| hit.board.transform(*s) == *board)
                    .unwrap_or(0);
                seen.push((hit.board, s));
                s
            }
        };
        tally.add(hit.game, hit.ply, hit.next, to_caller, hit.result);
    }
    tally.finish(board, min_games)
}

/// Move codes of a tally (squares 0-63, 64 a pass).
const CODES: usize = 65;

/// The sums of the games that reached a position, added one game at a time in table order
/// (or by parts of the table, merged in order): the moves are kept as played, per
/// orientation of the game, and named in the caller's orientation once, at the end.
#[derive(Clone, Debug)]
pub(crate) struct Tally {
    max_ply: usize,
    listed: usize,
    total: usize,
    stats: Stats,
    /// Per orientation (index in `Symmetry::ALL` mapping the game's board to the caller's)
    /// and move code as played: the movers' statistics.
    moves: Vec<Stats>,
    matches: Vec<GameMatch>,
}

impl Tally {
    /// An empty tally counting moves of the first `max_ply` plies and keeping the first
    /// `listed` matches (all when `None`).
    pub(crate) fn new(max_ply: usize, listed: Option<usize>) -> Tally {
        Tally {
            max_ply,
            listed: listed.unwrap_or(usize::MAX),
            total: 0,
            stats: Stats::default(),
            moves: vec![Stats::default(); 8 * CODES],
            matches: Vec::new(),
        }
    }

    /// Adds game `game`, which reached the position after `ply` plies in the orientation
    /// `Symmetry::ALL[to_caller]` maps to the caller's, then played `next` (a code as
    /// played; `None` where it ended), with final disc difference `result` (black's).
    #[inline]
    pub(crate) fn add(
        &mut self,
        game: usize,
        ply: usize,
        next: Option<u8>,
        to_caller: usize,
        result: Option<i8>,
    ) {
        let black = Outcome::from_disc_diff(result.map(i32::from));
        let mover = if ply.is_multiple_of(2) {
            black
        } else {
            black.flipped()
        };
        let stats = mover.stats();
        self.stats = self.stats.plus(&stats);
        // The book counts moves of the first `max_ply` plies only.
        if let Some(code) = next.filter(|&c| ply < self.max_ply && usize::from(c) < CODES) {
            let s = &mut self.moves[to_caller * CODES + usize::from(code)];
            *s = s.plus(&stats);
        }
        if self.matches.len() < self.listed {
            let next = next
                .and_then(code_move)
                .map(|m| Symmetry::ALL[to_caller].apply_move(m));
            self.matches.push(GameMatch { game, ply, next });
        }
        self.total += 1;
    }

    /// The sums of both, `later`'s games after this one's.
    pub(crate) fn merge(mut self, later: Tally) -> Tally {
        self.total += later.total;
        self.stats = self.stats.plus(&later.stats);
        for (a, b) in self.moves.iter_mut().zip(&later.moves) {
            *a = a.plus(b);
        }
        let room = self.listed.saturating_sub(self.matches.len());
        self.matches.extend(later.matches.into_iter().take(room));
        self
    }

    /// The answer for the position `board`, moves of fewer than `min_games` games left out.
    pub(crate) fn finish(self, board: &Board, min_games: u64) -> PositionGames {
        let target = Canonical::of(board);
        let mut codes: Vec<(u8, Stats)> = Vec::new();
        for (i, s) in self.moves.iter().enumerate() {
            let Some(mv) = code_move((i % CODES) as u8).filter(|_| s.games() > 0) else {
                continue;
            };
            let code = target.code_of(Symmetry::ALL[i / CODES].apply_move(mv));
            match codes.iter_mut().find(|(c, _)| *c == code) {
                Some((_, t)) => *t = t.plus(s),
                None => codes.push((code, *s)),
            }
        }
        let mut moves: Vec<(Move, MoveStats)> = codes
            .into_iter()
            .filter(|(_, s)| s.games() >= min_games)
            .filter_map(|(code, s)| {
                let mv = if code == PASS_CODE {
                    Some(Move::Pass)
                } else {
                    representative(&target.moves_of(code))
                };
                mv.map(|m| (m, s))
            })
            .collect();
        moves.sort_by(|a, b| b.1.games().cmp(&a.1.games()).then(a.0.cmp(&b.0)));
        PositionGames {
            matches: self.matches,
            total: self.total,
            stats: self.stats,
            moves,
        }
    }
}
