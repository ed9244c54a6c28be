//! The game table's bytes in a book file (format version 3, docs/book-format.md): game
//! records, move bytes, name offsets and name bytes, read back with every index checked.

use super::{GameTable, StoredGame, NO_NAME};
use crate::book::format::le32;
use crate::book::key::PASS_CODE;
use crate::transcript::Location;

/// Bytes per game record.
pub const GAME_RECORD_SIZE: usize = 28;
/// Result byte of a game without a recorded result.
const NO_RESULT: i8 = i8::MIN;
/// Flag bit of a game played to the end.
const COMPLETE: u8 = 1;
/// Location bit of a line number (clear: a record number).
const LINE_BIT: u32 = 1 << 31;
/// Longest game: 60 moves and the passes between them.
const MAX_GAME_PLIES: usize = 120;

/// Sizes of the game table's four parts, stored in the header of a version 3 book.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bincode::Encode, bincode::Decode)]
pub struct GameTableSize {
    /// Games (records of [`GAME_RECORD_SIZE`] bytes).
    pub games: u64,
    /// Move bytes of all games.
    pub move_bytes: u64,
    /// Names (the offset table has one entry more).
    pub names: u64,
    /// Bytes of all names (UTF-8, one after the other).
    pub name_bytes: u64,
}

impl GameTable {
    /// The sizes written to the header.
    #[must_use]
    pub fn size(&self) -> GameTableSize {
        GameTableSize {
            games: self.games.len() as u64,
            move_bytes: self.moves.len() as u64,
            names: self.names.len() as u64,
            name_bytes: self.names.iter().map(|n| n.len() as u64).sum(),
        }
    }

    /// Appends the four parts to `out`, in file order.
    pub fn encode(&self, out: &mut Vec<u8>) {
        for g in &self.games {
            out.extend_from_slice(&g.moves_start.to_le_bytes());
            for n in [g.black, g.white, g.event, g.source] {
                out.extend_from_slice(&n.to_le_bytes());
            }
            let location = match g.location {
                Location::Line(n) => n.min(u64::from(LINE_BIT - 1)) as u32 | LINE_BIT,
                Location::Record(n) => n.min(u64::from(LINE_BIT - 1)) as u32,
            };
            out.extend_from_slice(&location.to_le_bytes());
            out.extend_from_slice(&g.year.unwrap_or(0).to_le_bytes());
            out.push(g.result.unwrap_or(NO_RESULT) as u8);
            out.push(if g.complete { COMPLETE } else { 0 });
        }
        out.extend_from_slice(&self.moves);
        let mut at = 0u32;
        out.extend_from_slice(&at.to_le_bytes());
        for n in &self.names {
            at += n.len() as u32;
            out.extend_from_slice(&at.to_le_bytes());
        }
        for n in &self.names {
            out.extend_from_slice(n.as_bytes());
        }
    }

    /// The table from its four parts (sized as `size` says), every field checked: names
    /// valid UTF-8, sorted and distinct; indices in range; moves in range and valid codes.
    pub fn decode(
        size: &GameTableSize,
        records: &[u8],
        moves: &[u8],
        offsets: &[u8],
        name_bytes: &[u8],
    ) -> Result<GameTable, String> {
        let names = decode_names(size, offsets, name_bytes)?;
        if let Some(at) = moves.iter().position(|&c| c > PASS_CODE) {
            return Err(format!("game table: move byte {at} holds {}", moves[at]));
        }
        let mut games = Vec::with_capacity(records.len() / GAME_RECORD_SIZE);
        let starts: Vec<u32> = records
            .chunks_exact(GAME_RECORD_SIZE)
            .map(|r| le32(r, 0))
            .chain(std::iter::once(moves.len() as u32))
            .collect();
        for (i, r) in records.chunks_exact(GAME_RECORD_SIZE).enumerate() {
            let bad = |what: &str| format!("game table: game {} has {what}", i + 1);
            let (start, end) = (starts[i], starts[i + 1]);
            if start > end || (end - start) as usize > MAX_GAME_PLIES {
                return Err(bad("a move range out of order"));
            }
            let name = |at: usize| -> Result<u32, String> {
                let n = le32(r, at);
                if n == NO_NAME || (n as usize) < names.len() {
                    Ok(n)
                } else {
                    Err(bad("a name index out of range"))
                }
            };
            let location = le32(r, 20);
            let year = u16::from_le_bytes([r[24], r[25]]);
            let result = r[26] as i8;
            if result != NO_RESULT && !(-64..=64).contains(&result) {
                return Err(bad("an impossible result"));
            }
            if r[27] & !COMPLETE != 0 {
                return Err(bad("unknown flags"));
            }
            let source = name(16)?;
            if source == NO_NAME {
                return Err(bad("no source file"));
            }
            games.push(StoredGame {
                moves_start: start,
                moves_len: (end - start) as u8,
                black: name(4)?,
                white: name(8)?,
                event: name(12)?,
                source,
                location: if location & LINE_BIT != 0 {
                    Location::Line(u64::from(location & !LINE_BIT))
                } else {
                    Location::Record(u64::from(location))
                },
                year: (year != 0).then_some(year),
                result: (result != NO_RESULT).then_some(result),
                complete: r[27] & COMPLETE != 0,
            });
        }
        if starts.first().is_some_and(|&s| s != 0) {
            return Err("game table: the first game's moves do not start the move bytes".into());
        }
        Ok(GameTable {
            names,
            games,
            moves: moves.to_vec(),
        })
    }
}

fn decode_names(size: &GameTableSize, offsets: &[u8], bytes: &[u8]) -> Result<Vec<String>, String> {
    let ends: Vec<usize> = offsets
        .chunks_exact(4)
        .map(|o| le32(o, 0) as usize)
        .collect();
    if ends.first() != Some(&0) || ends.last() != Some(&bytes.len()) {
        return Err("game table: the name offsets do not cover the name bytes".into());
    }
    let mut names: Vec<String> = Vec::with_capacity(size.names as usize);
    for (i, w) in ends.windows(2).enumerate() {
        let text = bytes
            .get(w[0]..w[1])
            .ok_or_else(|| format!("game table: name {} is out of range", i + 1))?;
        let text = std::str::from_utf8(text)
            .map_err(|_| format!("game table: name {} is not valid UTF-8", i + 1))?;
        if names.last().is_some_and(|p| p.as_str() >= text) {
            return Err(format!("game table: name {} is out of order", i + 1));
        }
        names.push(text.to_string());
    }
    Ok(names)
}
