//! `book prune --window`: the book cut to the moves whose value is within a window of the
//! best move's at their position, and to the positions those moves still reach from the
//! start. Every kept position keeps its value: its best move is always kept, and a dropped
//! move becomes a move out of the book whose value the position's leaf may take.

use crate::board::{Board, Position};
use crate::book::cut::{CutError, CutReport};
use crate::book::data::{BookData, NodeEntry, NO_PARENT};
use crate::book::key::{code_move, Canonical};
use crate::book::negamax::Graph;
use crate::book::BookError;
use std::collections::HashSet;

fn too_many() -> CutError {
    CutError::Book(BookError::Options("more than 2^32 moves".into()))
}

impl BookData {
    /// The book keeping only the moves within `window` hundredths of a disc of the best value
    /// at their position (for both sides), and the positions they reach from the start; the
    /// lines of games through a dropped move are dropped with it, the game table is kept
    /// whole. A move whose value or whose position's value is unknown is kept (nothing says
    /// it is worse). Refused for a book without values.
    pub fn pruned_to_window(&self, window: i32) -> Result<(BookData, CutReport), CutError> {
        if self.info.evaluation.is_none() {
            return Err(CutError::NotEvaluated);
        }
        let graph = Graph::of(self);
        let start = Canonical::of(&Position::START.board).key;
        let root = self
            .positions
            .iter()
            .position(|p| p.key == start)
            .ok_or(CutError::NoStart)?;
        let (keep, dropped) = self.within_window(&graph, root, window);
        let (positions, moves) = self.kept_positions(&keep)?;
        // The move table lists each kept position's moves by code: drop the ones cut.
        let mut out = BookData {
            info: self.info.clone(),
            positions,
            moves: Vec::new(),
            nodes: self.kept_lines(&keep, &dropped),
            games: self.games.clone(),
            game_index: self.game_index,
        };
        let old_index = self.key_index();
        for p in &mut out.positions {
            let old = old_index[&p.key];
            let first = p.first_move as usize;
            let list = &moves[first..first + usize::from(p.move_count)];
            let kept: Vec<_> = list
                .iter()
                .filter(|m| !dropped.contains(&(old, m.code)))
                .copied()
                .collect();
            p.first_move = u32::try_from(out.moves.len()).map_err(|_| too_many())?;
            p.move_count = u16::try_from(kept.len()).map_err(|_| too_many())?;
            out.moves.extend(kept);
        }
        let mut report = CutReport {
            positions: (self.positions.len() as u64, out.positions.len() as u64),
            lines: (self.nodes.len() as u64, out.nodes.len() as u64),
            ..CutReport::default()
        };
        (report.leaves_taken, report.leaves_missing) =
            out.take_dropped_values(&self.positions, &graph);
        out.relink();
        Ok((out, report))
    }

    /// Which positions the moves within `window` reach from `root`, and the moves cut (the
    /// position's index and the move's canonical code).
    fn within_window(
        &self,
        graph: &Graph,
        root: usize,
        window: i32,
    ) -> (Vec<bool>, HashSet<(usize, u8)>) {
        let mut keep = vec![false; self.positions.len()];
        let mut dropped = HashSet::new();
        let mut stack = vec![root];
        keep[root] = true;
        while let Some(i) = stack.pop() {
            let best = self.positions[i].eval.value.map(|v| i32::from(v.score));
            for &(code, c) in &graph.nodes[i].children {
                let c = c as usize;
                let value = self.positions[c].eval.value.map(|v| -i32::from(v.score));
                let within = match (best, value) {
                    (Some(b), Some(v)) => v >= b - window,
                    _ => true,
                };
                if !within {
                    dropped.insert((i, code));
                } else if !std::mem::replace(&mut keep[c], true) {
                    stack.push(c);
                }
            }
        }
        (keep, dropped)
    }

    /// The line trie without the lines through a cut move or a dropped position (the trie is
    /// breadth first, so each node's parent comes before it and keeping the order keeps the
    /// trie's layout).
    fn kept_lines(&self, keep: &[bool], dropped: &HashSet<(usize, u8)>) -> Vec<NodeEntry> {
        let Some(root) = self.nodes.first() else {
            return Vec::new();
        };
        let index = self.key_index();
        let mut board: Vec<Option<Board>> = vec![None; self.nodes.len()];
        let mut new_index = vec![u32::MAX; self.nodes.len()];
        board[0] = Some(Position::START.board);
        new_index[0] = 0;
        let mut out = vec![NodeEntry {
            first_child: 0,
            child_count: 0,
            ..*root
        }];
        for (n, node) in self.nodes.iter().enumerate().skip(1) {
            let parent = node.parent as usize;
            let Some(Some(from)) = board.get(parent).copied() else {
                continue;
            };
            let Some(mv) = code_move(node.code) else {
                continue;
            };
            let Ok(to) = from.play_move(mv) else {
                continue;
            };
            let from_c = Canonical::of(&from);
            let Some(&at) = index.get(&from_c.key) else {
                continue;
            };
            let child_in = index.get(&Canonical::of(&to).key).is_some_and(|&c| keep[c]);
            if !keep[at] || !child_in || dropped.contains(&(at, from_c.code_of(mv))) {
                continue;
            }
            board[n] = Some(to);
            new_index[n] = out.len() as u32;
            let new_parent = new_index[parent];
            let p = &mut out[new_parent as usize];
            if p.child_count == 0 {
                p.first_child = new_index[n];
            }
            p.child_count += 1;
            out.push(NodeEntry {
                parent: new_parent,
                first_child: 0,
                child_count: 0,
                ..*node
            });
        }
        debug_assert!(out[0].parent == NO_PARENT);
        out
    }
}
