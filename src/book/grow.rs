//! Adding positions and moves that no game reached (deviation learning, enhancement), and
//! removing them again: the tables are rebuilt so that they keep their order (positions by
//! stable hash, moves by code).

use crate::book::data::{pos_entry, BookData, MoveEntry};
use crate::book::eval::PosEval;
use crate::book::key::Key;
use crate::book::stats::Stats;
use crate::book::BookError;

/// A move to add: from the position `parent` (in the book), canonical move `code`, to the
/// position `child` (added with no games if the book does not hold it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct NewLink {
    /// Canonical key of the position the move is played from.
    pub parent: Key,
    /// Canonical move code.
    pub code: u8,
    /// Canonical key of the position it leads to.
    pub child: Key,
}

impl BookData {
    /// Adds `links`: their moves, with no games, to their parents, and the positions they
    /// lead to, with no games and marked as added. Values are not updated: relink after.
    pub fn add_links(&mut self, links: &[NewLink]) -> Result<usize, BookError> {
        let mut moves_of: Vec<Vec<MoveEntry>> = self
            .positions
            .iter()
            .map(|p| {
                let start = p.first_move as usize;
                self.moves[start..start + p.move_count as usize].to_vec()
            })
            .collect();
        let mut positions = self.positions.clone();
        let mut index = self.key_index();
        let mut added = 0;
        for link in links {
            let Some(&parent) = index.get(&link.parent) else {
                return Err(BookError::Options(format!(
                    "cannot add a move from a position the book does not hold: {:?}",
                    link.parent
                )));
            };
            if !moves_of[parent].iter().any(|m| m.code == link.code) {
                moves_of[parent].push(MoveEntry {
                    code: link.code,
                    stats: Stats::default(),
                });
                moves_of[parent].sort_by_key(|m| m.code);
            }
            if !index.contains_key(&link.child) {
                let mut p = pos_entry(link.child, Stats::default(), 0, 0);
                p.eval = PosEval {
                    added: true,
                    ..PosEval::default()
                };
                index.insert(link.child, positions.len());
                positions.push(p);
                moves_of.push(Vec::new());
                added += 1;
            }
        }
        let mut order: Vec<usize> = (0..positions.len()).collect();
        order.sort_by_key(|&i| (positions[i].hash, positions[i].key));
        let mut new_positions = Vec::with_capacity(positions.len());
        let mut new_moves = Vec::with_capacity(self.moves.len() + links.len());
        for i in order {
            let mut p = positions[i];
            p.first_move = u32::try_from(new_moves.len())
                .map_err(|_| BookError::Options("more than 2^32 moves".into()))?;
            p.move_count = moves_of[i].len() as u16;
            new_moves.extend_from_slice(&moves_of[i]);
            new_positions.push(p);
        }
        self.positions = new_positions;
        self.moves = new_moves;
        Ok(added)
    }
}

impl BookData {
    /// Removes what no game reached from a book built from games: the positions `book deviate`
    /// and `book enhance` added and the moves with no games (into them, or added between two
    /// book positions). They are in the book for their values only. A book read from another
    /// program (no plies: none of its positions has games) is left as it is.
    pub fn drop_unplayed(&mut self) {
        let unplayed = self.positions.iter().any(|p| p.stats.games() == 0)
            || self.moves.iter().any(|m| m.stats.games() == 0);
        if self.info.options.plies() == 0 || !unplayed {
            return;
        }
        let mut positions = Vec::with_capacity(self.positions.len());
        let mut moves = Vec::with_capacity(self.moves.len());
        for p in self.positions.iter().filter(|p| p.stats.games() > 0) {
            let start = p.first_move as usize;
            let first = moves.len();
            moves.extend(
                self.moves[start..start + p.move_count as usize]
                    .iter()
                    .filter(|m| m.stats.games() > 0),
            );
            let mut kept = *p;
            kept.first_move = u32::try_from(first).expect("fewer moves than before");
            kept.move_count = (moves.len() - first) as u16;
            positions.push(kept);
        }
        self.positions = positions;
        self.moves = moves;
    }
}
