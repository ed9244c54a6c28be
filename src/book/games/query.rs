//! The games behind a position, found by scanning the table: no index on disk. A position
//! with `n` discs can only be reached right after a game's `n - 4`th disc is placed, and only
//! if the squares filled so far are one of the 8 images of the position's filled squares; that
//! test is a few OR operations per game, so only the games that pass it are replayed (as far
//! as that ply) and compared by canonical key. Filters on the metadata come first.
//! docs/experiments.md has the measurements behind this design.

use super::{GameSelection, GameTable, GameTableError, StoredGame};
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
        let target = Canonical::of(board);
        let filled = board.player().0 | board.opponent().0;
        let placed = (filled & !START_FILLED).count_ones() as usize;
        let mut shapes = images(filled);
        shapes.sort_unstable();
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
                    let i = c * CHUNK + k;
                    out.extend(self.reaches(g, i, &target, &shapes, placed, max_ply)?);
                }
                Ok(out)
            })
            .collect::<Result<_, GameTableError>>()?;
        Ok(gather(
            board,
            found.into_iter().flatten(),
            max_ply,
            min_games,
        ))
    }

    /// Whether game `g` (number `i`) reaches the target: the ply, the move played there and
    /// the game's board at that ply.
    fn reaches(
        &self,
        g: &StoredGame,
        i: usize,
        target: &Canonical,
        shapes: &[u64; 8],
        placed: usize,
        max_ply: usize,
    ) -> Result<Option<Hit>, GameTableError> {
        let codes = self.moves_of(g);
        let mut filled = START_FILLED;
        let (mut n, mut ply) = (0, 0);
        while n < placed {
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
        if ply > max_ply || shapes.binary_search(&filled).is_err() {
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
            if Canonical::of(&board).key == target.key {
                return Ok(Some(Hit {
                    game: i,
                    ply: at,
                    next: codes.get(at).copied(),
                    board,
                    result: g.result,
                }));
            }
            if codes.get(at) != Some(&PASS_CODE) {
                break;
            }
            board = board.pass();
        }
        Ok(None)
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
        let plies = query.plies;
        if plies == 0 || plies <= query.start.len() || plies > max_plies {
            return Vec::new();
        }
        let normal = |moves: &mut dyn Iterator<Item = u8>| -> Vec<u8> {
            let mut line: Vec<u8> = moves.take(plies).collect();
            let sym = normalizer(line.first().and_then(|&c| code_move(c)));
            for c in &mut line {
                *c = map_code(sym, *c);
            }
            line
        };
        let start = normal(&mut query.start.iter().map(|m| crate::book::key::move_code(*m)));
        let mut counts: std::collections::HashMap<Vec<u8>, Stats> = Default::default();
        for g in &self.games {
            let codes = self.moves_of(g);
            if codes.len() < plies || selection.is_some_and(|s| !s.accepts(g)) {
                continue;
            }
            let line = normal(&mut codes.iter().copied());
            if !line.starts_with(&start) {
                continue;
            }
            let stats = Outcome::from_disc_diff(g.result.map(i32::from)).stats();
            let e = counts.entry(line).or_default();
            *e = e.plus(&stats);
        }
        let mut lines: Vec<(Vec<u8>, Stats)> = counts
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

/// What the games `hits` (in table order) that reached `board` add up to: statistics from
/// the side to move's view, moves of the first `max_ply` plies shown in the board's
/// orientation, those of fewer than `min_games` games left out.
pub(crate) fn gather(
    board: &Board,
    hits: impl IntoIterator<Item = Hit>,
    max_ply: usize,
    min_games: u64,
) -> PositionGames {
    let target = Canonical::of(board);
    let mut result = PositionGames::default();
    let mut codes: Vec<(u8, Stats)> = Vec::new();
    for Hit {
        game,
        ply,
        next,
        board: reached,
        result: disc_diff,
    } in hits
    {
        let black = Outcome::from_disc_diff(disc_diff.map(i32::from));
        let mover = if ply % 2 == 0 { black } else { black.flipped() };
        result.stats = result.stats.plus(&mover.stats());
        // The game's board is an image of the one asked about: its move is shown in the
        // caller's orientation.
        let to_caller = Symmetry::ALL
            .into_iter()
            .find(|s| reached.transform(*s) == *board)
            .unwrap_or(Symmetry::Identity);
        let next = next.and_then(code_move).map(|m| to_caller.apply_move(m));
        // The book counts moves of the first `max_ply` plies only.
        if let Some(mv) = next.filter(|_| ply < max_ply) {
            let code = target.code_of(mv);
            match codes.iter_mut().find(|(c, _)| *c == code) {
                Some((_, s)) => *s = s.plus(&mover.stats()),
                None => codes.push((code, mover.stats())),
            }
        }
        result.matches.push(GameMatch { game, ply, next });
    }
    result.total = result.matches.len();
    result.moves = codes
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
    result
        .moves
        .sort_by(|a, b| b.1.games().cmp(&a.1.games()).then(a.0.cmp(&b.0)));
    result
}
