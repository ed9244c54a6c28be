//! Merging the position and move tables of several books front to back: the positions of
//! equal keys added up with their moves, pruned as `BookData::merge` prunes.

use super::control::{Control, Step};
use super::input::{Input, Region};
use super::temp::TempFile;
use crate::book::data::{MoveEntry, PosEntry};
use crate::book::format::{get_move, get_pos, move_bytes, pos_bytes, MOVE_SIZE, POS_SIZE};
use crate::book::stats::Stats;
use crate::book::BookError;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One input's position table and its moves, read in order.
struct Cursor<'a> {
    input: &'a Input,
    positions: Region,
    moves: Region,
    next_move: u64,
    current: Option<PosEntry>,
}

impl Cursor<'_> {
    fn advance(&mut self) -> Result<(), BookError> {
        let next = self.positions.next(POS_SIZE)?.map(get_pos);
        if let (Some(a), Some(b)) = (self.current, next) {
            if (a.hash, a.key) >= (b.hash, b.key) {
                return Err(self.input.damaged("positions out of order"));
            }
        }
        self.current = next;
        Ok(())
    }

    /// The moves of the current position, added into `into` by code.
    fn add_moves(&mut self, p: &PosEntry, into: &mut [Option<Stats>; 65]) -> Result<(), BookError> {
        if u64::from(p.first_move) != self.next_move && p.move_count > 0 {
            return Err(self.input.damaged("move table out of order"));
        }
        for _ in 0..p.move_count {
            let m = self
                .moves
                .next(MOVE_SIZE)?
                .map(get_move)
                .ok_or_else(|| self.input.damaged("move range"))?;
            let slot = into
                .get_mut(usize::from(m.code))
                .ok_or_else(|| self.input.damaged("move code"))?;
            *slot = Some(match slot {
                Some(s) => add(s, &m.stats)?,
                None => m.stats,
            });
        }
        self.next_move += u64::from(p.move_count);
        Ok(())
    }
}

fn add(a: &Stats, b: &Stats) -> Result<Stats, BookError> {
    a.checked_add(b)
        .ok_or_else(|| BookError::Merge("game counts overflow".into()))
}

/// Merges the positions and moves of `inputs` into `positions` and `moves` (file records),
/// keeping those with at least `min_games` games, and those with none (added by
/// `book deviate`). Returns the numbers of positions and moves written.
pub(super) fn merge(
    inputs: &[Input],
    min_games: u32,
    buffer: usize,
    positions: &mut TempFile,
    moves: &mut TempFile,
    control: &Control<'_>,
) -> Result<(u64, u64), BookError> {
    let min = u64::from(min_games);
    let kept = |games: u64| games >= min || games == 0;
    let total: u64 = inputs.iter().map(|i| i.header.positions).sum();
    let mut cursors = Vec::with_capacity(inputs.len());
    let mut heap = BinaryHeap::new();
    for (i, input) in inputs.iter().enumerate() {
        let mut c = Cursor {
            input,
            positions: input.region(input.layout.positions.clone(), buffer),
            moves: input.region(input.layout.moves.clone(), buffer),
            next_move: 0,
            current: None,
        };
        c.advance()?;
        if let Some(p) = c.current {
            heap.push(Reverse((p.hash, p.key, i)));
        }
        cursors.push(c);
    }
    let (mut written, mut written_moves, mut done) = (0u64, 0u64, 0u64);
    while let Some(Reverse((hash, key, first))) = heap.pop() {
        let mut group = vec![first];
        while let Some(Reverse((h, k, i))) = heap.peek().copied() {
            if (h, k) != (hash, key) {
                break;
            }
            heap.pop();
            group.push(i);
        }
        let mut by_code = [None; 65];
        let mut entry: Option<PosEntry> = None;
        for &i in &group {
            let c = &mut cursors[i];
            let Some(p) = c.current else { continue };
            c.add_moves(&p, &mut by_code)?;
            entry = Some(match entry {
                Some(mut e) => {
                    e.stats = add(&e.stats, &p.stats)?;
                    e
                }
                None => p,
            });
            c.advance()?;
            if let Some(n) = c.current {
                heap.push(Reverse((n.hash, n.key, i)));
            }
        }
        done += group.len() as u64;
        if done % (1 << 16) < group.len() as u64 {
            control.check()?;
            (control.progress)(Step::Merge { done, total });
        }
        let Some(mut e) = entry else { continue };
        if !kept(e.stats.games()) {
            continue;
        }
        e.first_move = u32::try_from(written_moves)
            .map_err(|_| BookError::Merge("more than 2^32 moves".into()))?;
        let mut count = 0u16;
        for (code, s) in by_code.iter().enumerate() {
            let Some(s) = s else { continue };
            if kept(s.games()) {
                let m = MoveEntry {
                    code: code as u8,
                    stats: *s,
                };
                moves.put(&move_bytes(&m))?;
                count += 1;
            }
        }
        written_moves += u64::from(count);
        e.move_count = count;
        positions.put(&pos_bytes(&e))?;
        written += 1;
    }
    Ok((written, written_moves))
}
