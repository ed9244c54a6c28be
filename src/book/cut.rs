//! Smaller books cut from a book: the positions below one position (`book subtree`), the
//! book pruned to a higher minimum of games and the book pruned to the moves within a value
//! window of the best (`book prune`), values kept as they were.
//!
//! Pruning turns the moves it drops into moves that leave the book. Where the dropped
//! position had a value, the position above takes it as its leaf (the best move out of the
//! book), so negamaxing again gives every kept position the value it had: a book pruned after
//! evaluation needs no new search.

use crate::board::Board;
use crate::book::data::{
    merge_positions, merge_tries, BookData, MoveEntry, NodeEntry, PosEntry, NO_PARENT, ROOT_CODE,
};
use crate::book::eval::{Leaf, Score};
use crate::book::key::Canonical;
use crate::book::negamax::Graph;
use crate::book::options::MinGames;
use crate::book::stats::Stats;
use crate::book::BookError;

/// Why a book cannot be cut.
#[derive(Debug, thiserror::Error)]
pub enum CutError {
    /// The subtree's root is not a position of the book.
    #[error("the position is not in the book")]
    NotInBook,
    /// Pruning to fewer games than the book already keeps cannot bring back what it left out.
    #[error(
        "the book keeps positions played in {book} games or more: pruning to {asked} cannot \
         bring back what it left out (ask for more than {book})"
    )]
    BelowBookMinimum {
        /// The book's own minimum.
        book: u32,
        /// The minimum asked for.
        asked: u32,
    },
    /// A value window needs values: the book has none yet.
    #[error("the book has no values: a value window needs them (`othbook book evaluate` first)")]
    NotEvaluated,
    /// The book's start position is not in it: no move is reachable.
    #[error("the book has no start position to prune from")]
    NoStart,
    /// The book's tables do not fit together.
    #[error(transparent)]
    Book(#[from] BookError),
}

/// What a cut kept and changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CutReport {
    /// Positions before and after.
    pub positions: (u64, u64),
    /// Lines (trie nodes) before and after.
    pub lines: (u64, u64),
    /// Positions whose leaf took the value of a move the cut made leave the book.
    pub leaves_taken: u64,
    /// Positions that lost a move to a position without a value, and so have no leaf until
    /// `book evaluate` searches it.
    pub leaves_missing: u64,
}

impl BookData {
    /// The positions reachable from `board` through the book's moves (`board` included), with
    /// their games and values as this book has them. Lines and the game table are left out:
    /// the book's lines start at the start position, so the cut book holds lines of 0 plies,
    /// as an imported book does.
    pub fn subtree(&self, board: &Board) -> Result<(BookData, CutReport), CutError> {
        let root = Canonical::of(board).key;
        let graph = Graph::of(self);
        let Some(start) = self.positions.iter().position(|p| p.key == root) else {
            return Err(CutError::NotInBook);
        };
        let mut keep = vec![false; self.positions.len()];
        let mut stack = vec![start];
        keep[start] = true;
        while let Some(i) = stack.pop() {
            for &(_, c) in &graph.nodes[i].children {
                let c = c as usize;
                if !keep[c] {
                    keep[c] = true;
                    stack.push(c);
                }
            }
        }
        let (positions, moves) = self.kept_positions(&keep)?;
        let mut out = BookData {
            info: self.info.clone(),
            positions,
            moves,
            nodes: vec![NodeEntry {
                parent: NO_PARENT,
                code: ROOT_CODE,
                stats: Stats::default(),
                first_child: 0,
                child_count: 0,
            }],
            games: None,
            game_index: false,
        };
        out.info.options = out.info.options.lines_cut();
        out.info.games = self.positions[start].stats.games();
        let report = CutReport {
            positions: (self.positions.len() as u64, out.positions.len() as u64),
            lines: (self.nodes.len() as u64, out.nodes.len() as u64),
            ..CutReport::default()
        };
        Ok((out, report))
    }

    /// The book that building with `--min-games min_games` would have made from the same
    /// games: positions, moves and lines played in fewer games are dropped (positions that
    /// `book deviate` added, which no game reached, stay). The game table is kept whole.
    pub fn pruned(&self, min_games: u32) -> Result<(BookData, CutReport), CutError> {
        let book = self.info.options.min_games();
        if min_games <= book {
            return Err(CutError::BelowBookMinimum {
                book,
                asked: min_games,
            });
        }
        let mut out = self.clone();
        let mut report =
            out.prune_keeping_values(MinGames::new(min_games).map_err(BookError::from)?)?;
        report.positions.0 = self.positions.len() as u64;
        report.lines.0 = self.nodes.len() as u64;
        Ok((out, report))
    }

    /// Prunes in place to `min_games` (see [`BookData::pruned`]); an evaluated book keeps its
    /// values: each dropped move that had a value becomes its position's leaf if it is the
    /// best move out of the book.
    pub fn prune_keeping_values(&mut self, min_games: MinGames) -> Result<CutReport, BookError> {
        let evaluated = self.info.evaluation.is_some();
        let before = evaluated.then(|| {
            let graph = Graph::of(self);
            self.relink_with(&graph);
            (self.positions.clone(), graph)
        });
        let (positions, moves) =
            merge_positions(&self.positions, &self.moves, &[], &[], min_games.get())?;
        self.nodes = merge_tries(&self.nodes, &[], min_games.get())?;
        self.positions = positions;
        self.moves = moves;
        self.info.options = self.info.options.with_min_games(min_games);
        let mut report = CutReport {
            positions: (0, self.positions.len() as u64),
            lines: (0, self.nodes.len() as u64),
            ..CutReport::default()
        };
        if let Some((old, graph)) = before {
            (report.leaves_taken, report.leaves_missing) = self.take_dropped_values(&old, &graph);
            self.relink();
        }
        Ok(report)
    }

    /// Gives each position that lost moves to the cut the best of their values as its leaf,
    /// `old` and `graph` being the book before the cut. Returns how many leaves took a value
    /// and how many became missing (a dropped move without a value).
    pub(super) fn take_dropped_values(&mut self, old: &[PosEntry], graph: &Graph) -> (u64, u64) {
        let index = self.key_index();
        let old_index: ahash::AHashMap<_, usize> =
            old.iter().enumerate().map(|(i, p)| (p.key, i)).collect();
        let (mut taken, mut missing) = (0, 0);
        for p in &mut self.positions {
            let Some(&o) = old_index.get(&p.key) else {
                continue;
            };
            let dropped: Vec<(u8, Option<Score>)> = graph.nodes[o]
                .children
                .iter()
                .filter(|&&(_, c)| !index.contains_key(&old[c as usize].key))
                .map(|&(code, c)| (code, old[c as usize].eval.value))
                .collect();
            if dropped.is_empty() {
                continue;
            }
            match leaf_after_drop(p.eval.leaf, &dropped) {
                Some(leaf) => {
                    taken += u64::from(leaf != p.eval.leaf);
                    p.eval.leaf = leaf;
                }
                None => {
                    missing += 1;
                    p.eval.leaf = Leaf::Missing;
                }
            }
        }
        (taken, missing)
    }

    /// The positions `keep` marks, and their moves.
    pub(super) fn kept_positions(
        &self,
        keep: &[bool],
    ) -> Result<(Vec<PosEntry>, Vec<MoveEntry>), BookError> {
        let mut positions = Vec::with_capacity(keep.iter().filter(|&&k| k).count());
        let mut moves = Vec::new();
        for (p, _) in self.positions.iter().zip(keep).filter(|(_, &k)| k) {
            let start = p.first_move as usize;
            let list = self
                .moves
                .get(start..start + usize::from(p.move_count))
                .ok_or_else(|| BookError::Options("move table out of range".into()))?;
            let mut e = *p;
            e.first_move = u32::try_from(moves.len())
                .map_err(|_| BookError::Options("more than 2^32 moves".into()))?;
            moves.extend_from_slice(list);
            positions.push(e);
        }
        Ok((positions, moves))
    }
}

/// A position's leaf once the moves `dropped` (canonical code, the value of the position each
/// led to) leave the book: the best of the old leaf and the dropped moves' negated values, the
/// lowest code first on a tie; `None` when a dropped move has no value or the old leaf was not
/// searched (the best move out of the book is then unknown).
fn leaf_after_drop(leaf: Leaf, dropped: &[(u8, Option<Score>)]) -> Option<Leaf> {
    let mut best = match leaf {
        Leaf::Missing => return None,
        Leaf::InBook => None,
        Leaf::Move { .. } | Leaf::ScoreOnly(_) | Leaf::GameOver(_) => Some(leaf),
    };
    let mut sorted = dropped.to_vec();
    sorted.sort_by_key(|&(code, _)| code);
    for (code, value) in sorted {
        let v = value?;
        let score = Score {
            score: -v.score,
            depth: v.depth.saturating_add(1),
            kind: v.kind,
        };
        if best
            .and_then(|l| l.score())
            .is_none_or(|b| score.score > b.score)
        {
            best = Some(Leaf::Move { code, score });
        }
    }
    best
}
