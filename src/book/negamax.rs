//! The book's move graph (each position's moves that lead to another book position, and the
//! ones that leave the book) and the negamax of values through it.
//!
//! Transpositions make the book a graph, not a tree: each position is evaluated once, in
//! an order where every child comes before its parents (more discs first; a position that
//! must pass after the position it passes to, which has as many discs).

use crate::board::{Board, Move};
use crate::book::data::BookData;
use crate::book::eval::{Leaf, Score, ValueKind, SCORE_SCALE};
use crate::book::key::{Canonical, Key};

/// The moves of one position of the book, seen on its canonical board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    /// Moves to positions of the book: (canonical move code, child's index), by code.
    pub children: Vec<(u8, u32)>,
    /// Legal moves of the canonical board that leave the book (one per canonical code).
    pub out: Vec<Move>,
    /// Neither side can move.
    pub game_over: bool,
}

/// The graph of a book's positions.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    /// One node per position, in position-table order.
    pub nodes: Vec<Node>,
    /// Positions, children before parents.
    pub order: Vec<u32>,
}

/// What [`BookData::relink`] found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RelinkReport {
    /// Positions with a value.
    pub valued: u64,
    /// Positions whose leaf is not searched yet (and so have no value).
    pub missing: u64,
    /// Leaves dropped because their move now leads into the book (after a merge or a
    /// deviation): `book evaluate` searches them again.
    pub stale: u64,
}

/// The board of a key.
#[must_use]
pub fn board_of(key: Key) -> Board {
    Board::from_bits(key.player, key.opponent)
}

impl BookData {
    /// Forgets the values, and what deviation and enhancement added for them (positions and
    /// moves no game reached): the book is then what its games make, written as format
    /// version 1 (or 3 and 5 with its games).
    pub fn strip_values(&mut self) {
        self.drop_unplayed();
        self.info.evaluation = None;
        for p in &mut self.positions {
            p.eval = crate::book::PosEval::default();
        }
    }

    /// Each position's index in the table, by key (in memory only: ahash).
    #[must_use]
    pub fn key_index(&self) -> ahash::AHashMap<Key, usize> {
        self.positions
            .iter()
            .enumerate()
            .map(|(i, p)| (p.key, i))
            .collect()
    }
}

impl Graph {
    /// The graph of `data`'s positions.
    #[must_use]
    pub fn of(data: &BookData) -> Graph {
        let index = data.key_index();
        let nodes: Vec<Node> = data
            .positions
            .iter()
            .map(|p| node_of(&board_of(p.key), |k| index.get(&k).map(|&i| i as u32)))
            .collect();
        let mut order: Vec<u32> = (0..nodes.len() as u32).collect();
        order.sort_by_key(|&i| {
            let b = board_of(data.positions[i as usize].key);
            let passes = !b.has_moves() && !nodes[i as usize].game_over;
            (b.empty_count(), passes, i)
        });
        Graph { nodes, order }
    }
}

/// The moves the side to move may play: the legal squares, or a pass when only the other
/// side can move; none when the game is over.
#[must_use]
pub fn playable_moves(board: &Board) -> Vec<Move> {
    if board.has_moves() {
        board.legal_moves().iter().map(Move::Play).collect()
    } else if board.pass().has_moves() {
        vec![Move::Pass]
    } else {
        Vec::new()
    }
}

/// The playable moves of `board` with their canonical codes, one per code: moves that the
/// position's symmetry makes equivalent lead to the same position.
#[must_use]
pub fn distinct_moves(board: &Board, c: &Canonical) -> Vec<(Move, u8)> {
    let mut seen = 0u128;
    playable_moves(board)
        .into_iter()
        .filter_map(|mv| {
            let code = c.code_of(mv);
            let new = seen & 1 << code == 0;
            seen |= 1 << code;
            new.then_some((mv, code))
        })
        .collect()
}

/// The node of `board` (a canonical board), finding children with `find`.
pub fn node_of(board: &Board, find: impl Fn(Key) -> Option<u32>) -> Node {
    let mut node = Node::default();
    let moves = distinct_moves(board, &Canonical::of(board));
    node.game_over = moves.is_empty();
    for (mv, code) in moves {
        let child = board.play_move(mv).expect("a legal move");
        match find(Canonical::of(&child).key) {
            Some(i) => node.children.push((code, i)),
            None => node.out.push(mv),
        }
    }
    node.children.sort_unstable();
    node
}

/// The final score of a finished game, as a stored score.
#[must_use]
pub fn final_score(board: &Board) -> Score {
    Score {
        score: (board.final_score() * SCORE_SCALE) as i16,
        depth: 0,
        kind: ValueKind::Exact,
    }
}

impl BookData {
    /// Checks every leaf against the book's moves (a leaf whose move now leads into the book
    /// is dropped, to be searched again; a finished game gets its final score; a position
    /// all of whose moves stay in the book needs no leaf), then negamaxes: value =
    /// max(leaf score, −value of every child in the book). A position whose leaf is not
    /// searched has no value; a child without a value does not count.
    pub fn relink(&mut self) -> RelinkReport {
        let graph = Graph::of(self);
        self.relink_with(&graph)
    }

    /// [`BookData::relink`] with the graph already made.
    pub fn relink_with(&mut self, graph: &Graph) -> RelinkReport {
        let mut report = RelinkReport::default();
        self.check_leaves(graph, &mut report);
        (report.valued, report.missing) = self.negamax_keeping(graph, |_| None);
        report
    }

    /// The leaf checks of [`BookData::relink_with`]: stale leaves dropped and counted.
    fn check_leaves(&mut self, graph: &Graph, report: &mut RelinkReport) {
        for (p, node) in self.positions.iter_mut().zip(&graph.nodes) {
            let leaf = &mut p.eval.leaf;
            if node.game_over {
                *leaf = Leaf::GameOver(final_score(&board_of(p.key)));
                continue;
            }
            let stale = match *leaf {
                Leaf::Move { code, .. } => node.children.iter().any(|&(c, _)| c == code),
                Leaf::InBook => !node.out.is_empty(),
                Leaf::Missing | Leaf::ScoreOnly(_) | Leaf::GameOver(_) => false,
            };
            if stale || matches!(leaf, Leaf::GameOver(_)) {
                report.stale += u64::from(stale);
                *leaf = Leaf::Missing;
            }
            if node.out.is_empty() {
                *leaf = Leaf::InBook;
            }
        }
    }

    /// Gives the leaves that are not searched what the graph makes certain (a finished game
    /// its final score; a position all of whose moves stay in the book no leaf to search),
    /// changing no other leaf: a foreign book's leaves are kept as its file gives them.
    pub fn fill_leaves(&mut self, graph: &Graph) {
        for (p, node) in self.positions.iter_mut().zip(&graph.nodes) {
            if p.eval.leaf == Leaf::Missing {
                if node.game_over {
                    p.eval.leaf = Leaf::GameOver(final_score(&board_of(p.key)));
                } else if node.out.is_empty() {
                    p.eval.leaf = Leaf::InBook;
                }
            }
        }
    }

    /// Negamaxes through `graph`, children first: a position's value is `given(index)` where
    /// that is some (a foreign book's own value, in hundredths of a disc, kept as it is),
    /// otherwise max(leaf, −children). Returns how many positions have a value and how many
    /// have none because their leaf is not searched.
    pub fn negamax_keeping(
        &mut self,
        graph: &Graph,
        given: impl Fn(usize) -> Option<i16>,
    ) -> (u64, u64) {
        let (mut valued, mut missing) = (0, 0);
        for &i in &graph.order {
            let i = i as usize;
            let mut value = self.negamax_one(i, &graph.nodes[i]);
            if let Some(score) = given(i) {
                let like = value.or(self.positions[i].eval.leaf.score());
                value = Some(Score {
                    score,
                    ..like.unwrap_or(Score {
                        score,
                        depth: 0,
                        kind: ValueKind::Midgame,
                    })
                });
            }
            self.positions[i].eval.value = value;
            if value.is_some() {
                valued += 1;
            } else if !self.positions[i].eval.leaf.is_known() {
                missing += 1;
            }
        }
        (valued, missing)
    }

    /// max(leaf, −children) of position `i`, its children's values being final. Children
    /// are taken in code order and the leaf last, the first of equal scores winning, so the
    /// depth and kind kept do not depend on anything but the book.
    fn negamax_one(&self, i: usize, node: &Node) -> Option<Score> {
        let leaf = self.positions[i].eval.leaf;
        if !leaf.is_known() {
            return None;
        }
        let mut best: Option<Score> = None;
        let children = node
            .children
            .iter()
            .filter_map(|&(_, c)| self.positions[c as usize].eval.value)
            .map(|v| Score {
                score: -v.score,
                depth: v.depth.saturating_add(1),
                kind: v.kind,
            });
        for s in children.chain(leaf.score()) {
            if best.is_none_or(|b| s.score > b.score) {
                best = Some(s);
            }
        }
        best
    }
}
