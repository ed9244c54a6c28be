//! Merging game tables front to back: the name lists joined into one, then the games of
//! all inputs merged in the table's order with their names renumbered.

use super::control::Control;
use super::input::{Input, Region};
use super::temp::TempFile;
use crate::book::games::{
    decode_names, decode_record, pack, packed_len, record_bytes, table_order, unpack_game,
    GameTableError, GameTableSize, StoredGame, GAME_RECORD_SIZE, NO_NAME,
};
use crate::book::BookError;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::path::Path;

/// The merged table: its sizes, the files of its records and packed moves, its names.
pub(super) struct Games {
    pub size: GameTableSize,
    pub records: TempFile,
    pub moves: TempFile,
    pub names: Vec<String>,
}

/// The next game of one input, its names renumbered in the merged list.
struct Head {
    game: StoredGame,
    codes: Vec<u8>,
    input: usize,
}

impl Ord for Head {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: the heap gives the first game in table order.
        table_order(&other.game, &other.codes, &self.game, &self.codes)
            .then(other.input.cmp(&self.input))
    }
}
impl PartialOrd for Head {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl PartialEq for Head {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Head {}

struct Cursor<'a> {
    input: &'a Input,
    records: Region,
    moves: Region,
    /// This input's names as indices of the merged list.
    map: Vec<u32>,
    read: usize,
}

impl Cursor<'_> {
    fn next(&mut self, i: usize) -> Result<Option<Head>, BookError> {
        let Some(r) = self.records.next(GAME_RECORD_SIZE)? else {
            return Ok(None);
        };
        let r: [u8; GAME_RECORD_SIZE] = r.try_into().unwrap_or([0; GAME_RECORD_SIZE]);
        self.read += 1;
        let bad = |problem| BookError::GameTable {
            path: self.input.name.to_string(),
            source: GameTableError::Game {
                game: self.read,
                problem,
            },
        };
        let len = (r[23] >> 1).min(127);
        let packed = self
            .moves
            .next(packed_len(len))?
            .ok_or_else(|| bad(crate::book::games::GameProblem::MovesOutside))?;
        let mut codes = Vec::with_capacity(usize::from(len));
        let table = |source| BookError::GameTable {
            path: self.input.name.to_string(),
            source,
        };
        let at = self.read - 1;
        let mut game = decode_record(&r, at, self.map.len()).map_err(table)?;
        unpack_game(packed, game.moves_len, at, &mut codes).map_err(table)?;
        let map = |n: u32| {
            if n == NO_NAME {
                n
            } else {
                self.map[n as usize]
            }
        };
        game.black = map(game.black);
        game.white = map(game.white);
        game.event = map(game.event);
        game.source = map(game.source);
        Ok(Some(Head {
            game,
            codes,
            input: i,
        }))
    }
}

/// Merges the game tables of `inputs` into files in `folder`; `None` when an input has
/// none (the merged book then has none either).
pub(super) fn merge(
    inputs: &[Input],
    buffer: usize,
    folder: &Path,
    control: &Control<'_>,
) -> Result<Option<Games>, BookError> {
    if inputs.iter().any(|i| i.header.game_table.is_none()) {
        return Ok(None);
    }
    let mut lists = Vec::with_capacity(inputs.len());
    for input in inputs {
        let l = &input.layout;
        let names = decode_names(
            &input.read(l.name_offsets.clone())?,
            &input.read(l.name_bytes.clone())?,
        )
        .map_err(|e| BookError::GameTable {
            path: input.name.to_string(),
            source: e,
        })?;
        lists.push(names);
    }
    let mut names: Vec<String> = lists.iter().flatten().cloned().collect();
    names.sort_unstable();
    names.dedup();
    let mut cursors = Vec::with_capacity(inputs.len());
    let mut heap = BinaryHeap::new();
    for (i, (input, list)) in inputs.iter().zip(&lists).enumerate() {
        let map = list
            .iter()
            .map(|n| names.binary_search(n).map_or(NO_NAME, |k| k as u32))
            .collect();
        let l = &input.layout;
        let mut c = Cursor {
            input,
            records: input.region(l.games.clone(), buffer),
            moves: input.region(l.game_moves.clone(), buffer),
            map,
            read: 0,
        };
        if let Some(h) = c.next(i)? {
            heap.push(h);
        }
        cursors.push(c);
    }
    drop(lists);
    let mut records = TempFile::create(folder, "games.tmp", "the merged game table")?;
    let mut moves = TempFile::create(folder, "game-moves.tmp", "the merged game table")?;
    let mut size = GameTableSize {
        names: names.len() as u64,
        name_bytes: names.iter().map(|n| n.len() as u64).sum(),
        ..GameTableSize::default()
    };
    let mut packed = Vec::with_capacity(96);
    while let Some(h) = heap.pop() {
        records.put(&record_bytes(&h.game))?;
        packed.clear();
        pack(&h.codes, &mut packed);
        moves.put(&packed)?;
        size.games += 1;
        size.move_bytes += packed.len() as u64;
        if size.games.is_multiple_of(1 << 16) {
            control.check()?;
        }
        if let Some(next) = cursors[h.input].next(h.input)? {
            heap.push(next);
        }
    }
    Ok(Some(Games {
        size,
        records,
        moves,
        names,
    }))
}
