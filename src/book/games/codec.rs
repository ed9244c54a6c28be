//! The game table's bytes in a book file (format version 3, docs/book-format.md): game
//! records, packed moves, name offsets and name bytes, read back with every index checked.
//!
//! Moves take 6 bits each (a game of 60 moves, 45 bytes): squares 0-63, and a pass written
//! as d4 (27), a square no game can play since it is filled from the start.

use super::{GameProblem, GameTable, GameTableError, StoredGame, NO_NAME};
use crate::book::key::PASS_CODE;
use crate::book::le::le32;
use crate::transcript::Location;

/// Bytes per game record.
pub const GAME_RECORD_SIZE: usize = 24;
/// How a pass is packed: d4, filled from the start, is never played.
const PACKED_PASS: u8 = 27;
/// Squares filled from the start: only d4 (a pass) may appear among packed moves.
const CENTRE: [u8; 3] = [28, 35, 36];
/// Result byte of a game without a recorded result.
const NO_RESULT: i8 = i8::MIN;
/// Flag bit of a game played to the end; the other 7 bits are the number of plies.
const COMPLETE: u8 = 1;
/// Location bit of a line number (clear: a record number).
const LINE_BIT: u32 = 1 << 31;
/// Longest game: 60 moves and the passes between them.
pub(crate) const MAX_GAME_PLIES: usize = 120;

/// Sizes of the game table's four parts, stored in the header of a version 3 book.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bincode::Encode, bincode::Decode)]
pub struct GameTableSize {
    /// Games (records of [`GAME_RECORD_SIZE`] bytes).
    pub games: u64,
    /// Bytes of the packed moves of all games.
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
            move_bytes: self
                .games
                .iter()
                .map(|g| packed_len(g.moves_len) as u64)
                .sum(),
            names: self.names.len() as u64,
            name_bytes: self.names.iter().map(|n| n.len() as u64).sum(),
        }
    }

    /// Appends the four parts to `out`, in file order.
    pub fn encode(&self, out: &mut Vec<u8>) {
        for g in &self.games {
            out.extend_from_slice(&record_bytes(g));
        }
        for g in &self.games {
            pack(self.moves_of(g), out);
        }
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
    ) -> Result<GameTable, GameTableError> {
        let expected = [
            size.games.checked_mul(GAME_RECORD_SIZE as u64),
            Some(size.move_bytes),
            size.names.checked_add(1).and_then(|n| n.checked_mul(4)),
            Some(size.name_bytes),
        ];
        let given = [records, moves, offsets, name_bytes].map(|p| Some(p.len() as u64));
        if expected != given {
            return Err(GameTableError::Layout(
                "its parts are not the sizes the header gives",
            ));
        }
        let names = decode_names(offsets, name_bytes)?;
        let mut games = Vec::with_capacity(records.len() / GAME_RECORD_SIZE);
        let mut codes = Vec::with_capacity(moves.len() * 4 / 3);
        let mut packed_at = 0usize;
        for (i, r) in records.chunks_exact(GAME_RECORD_SIZE).enumerate() {
            let mut game = decode_record(r, i, names.len())?;
            let end = packed_at + packed_len(game.moves_len);
            game.moves_start = codes.len() as u32;
            let packed = moves.get(packed_at..end).ok_or(GameTableError::Game {
                game: i + 1,
                problem: GameProblem::MovesOutside,
            })?;
            unpack_game(packed, game.moves_len, i, &mut codes)?;
            packed_at = end;
            games.push(game);
        }
        if packed_at != moves.len() {
            return Err(GameTableError::Layout(
                "the move bytes do not match the games' lengths",
            ));
        }
        Ok(GameTable {
            names,
            games,
            moves: codes,
        })
    }
}

/// A game record's bytes (its names as indices of the table's name list).
pub(crate) fn record_bytes(g: &StoredGame) -> [u8; GAME_RECORD_SIZE] {
    let mut b = [0u8; GAME_RECORD_SIZE];
    for (i, n) in [g.black, g.white, g.event, g.source]
        .into_iter()
        .enumerate()
    {
        b[4 * i..4 * i + 4].copy_from_slice(&n.to_le_bytes());
    }
    let location = match g.location {
        Location::Line(n) => n.min(u64::from(LINE_BIT - 1)) as u32 | LINE_BIT,
        Location::Record(n) => n.min(u64::from(LINE_BIT - 1)) as u32,
    };
    b[16..20].copy_from_slice(&location.to_le_bytes());
    b[20..22].copy_from_slice(&g.year.unwrap_or(0).to_le_bytes());
    b[22] = g.result.unwrap_or(NO_RESULT) as u8;
    b[23] = (g.moves_len << 1) | u8::from(g.complete);
    b
}

/// Game record `r` (number `i` from 0) of a table of `names` names, every field checked;
/// its `moves_start` is left 0.
pub(crate) fn decode_record(
    r: &[u8],
    i: usize,
    names: usize,
) -> Result<StoredGame, GameTableError> {
    let bad = |problem| GameTableError::Game {
        game: i + 1,
        problem,
    };
    if r.len() < GAME_RECORD_SIZE {
        return Err(GameTableError::Layout("a game record is cut short"));
    }
    let len = r[23] >> 1;
    if usize::from(len) > MAX_GAME_PLIES {
        return Err(bad(GameProblem::TooLong));
    }
    // The fields a filter reads, then the checks and the rest.
    let fields = filter_fields(r);
    let name = |n: u32| -> Result<u32, GameTableError> {
        if n == NO_NAME || (n as usize) < names {
            Ok(n)
        } else {
            Err(bad(GameProblem::NameIndex))
        }
    };
    let location = le32(r, 16);
    let result = r[22] as i8;
    if result != NO_RESULT && !(-64..=64).contains(&result) {
        return Err(bad(GameProblem::Result));
    }
    let source = name(le32(r, 12))?;
    if source == NO_NAME {
        return Err(bad(GameProblem::NoSource));
    }
    Ok(StoredGame {
        black: name(fields.black)?,
        white: name(fields.white)?,
        event: name(fields.event)?,
        source,
        location: if location & LINE_BIT != 0 {
            Location::Line(u64::from(location & !LINE_BIT))
        } else {
            Location::Record(u64::from(location))
        },
        result: (result != NO_RESULT).then_some(result),
        ..fields
    })
}

/// The fields of a game record (at least [`GAME_RECORD_SIZE`] bytes) that a filter tests:
/// the players, the event, the year and whether the game was finished, read without the
/// checks of [`decode_record`]. A filter only compares them (a name index out of range
/// names no one), so a long scan skips the checks; a game it keeps is decoded in full
/// when it is read.
#[inline]
pub(crate) fn filter_fields(r: &[u8]) -> StoredGame {
    let year = u16::from_le_bytes([r[20], r[21]]);
    StoredGame {
        moves_start: 0,
        moves_len: r[23] >> 1,
        black: le32(r, 0),
        white: le32(r, 4),
        event: le32(r, 8),
        source: NO_NAME,
        location: Location::Record(0),
        year: (year != 0).then_some(year),
        result: None,
        complete: r[23] & COMPLETE != 0,
    }
}

/// Appends the `plies` move codes of game `i` (from 0) packed in `bytes` to `out`.
pub(crate) fn unpack_game(
    bytes: &[u8],
    plies: u8,
    i: usize,
    out: &mut Vec<u8>,
) -> Result<(), GameTableError> {
    unpack(bytes, plies, out).map_err(|c| GameTableError::Game {
        game: i + 1,
        problem: GameProblem::MoveCode(c),
    })
}

/// The first `plies` move codes packed in `bytes` (squares 0-63, [`PASS_CODE`] a pass), read
/// as they are stored, unchecked: [`unpack_game`] checks them; a scan reads them this way to
/// reject a game after its first few moves.
#[inline]
pub(crate) fn packed_codes(bytes: &[u8], plies: u8) -> impl Iterator<Item = u8> + '_ {
    let (mut acc, mut bits) = (0u32, 0);
    let mut next = bytes.iter();
    (0..plies).map(move |_| {
        if bits < 6 {
            acc |= u32::from(*next.next().unwrap_or(&0)) << bits;
            bits += 8;
        }
        let c = (acc & 63) as u8;
        acc >>= 6;
        bits -= 6;
        if c == PACKED_PASS {
            PASS_CODE
        } else {
            c
        }
    })
}

/// Bytes of `plies` packed moves.
pub(crate) fn packed_len(plies: u8) -> usize {
    (usize::from(plies) * 6).div_ceil(8)
}

/// Appends `codes` (squares, 64 for a pass) at 6 bits each, lowest bits first.
pub(crate) fn pack(codes: &[u8], out: &mut Vec<u8>) {
    let (mut acc, mut bits) = (0u32, 0);
    for &c in codes {
        let c = if c == PASS_CODE { PACKED_PASS } else { c };
        acc |= u32::from(c & 63) << bits;
        bits += 6;
        while bits >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            bits -= 8;
        }
    }
    if bits > 0 {
        out.push(acc as u8);
    }
}

/// Appends the `plies` codes packed in `bytes`; a centre square other than the pass's is
/// an error (it returns the code).
fn unpack(bytes: &[u8], plies: u8, out: &mut Vec<u8>) -> Result<(), u8> {
    for c in packed_codes(bytes, plies) {
        if CENTRE.contains(&c) {
            return Err(c);
        }
        out.push(c);
    }
    Ok(())
}

pub(crate) fn decode_names(offsets: &[u8], bytes: &[u8]) -> Result<Vec<String>, GameTableError> {
    let ends: Vec<usize> = offsets
        .chunks_exact(4)
        .map(|o| le32(o, 0) as usize)
        .collect();
    if ends.first() != Some(&0) || ends.last() != Some(&bytes.len()) {
        return Err(GameTableError::Layout(
            "the name offsets do not cover the name bytes",
        ));
    }
    let mut names: Vec<String> = Vec::with_capacity(ends.len().saturating_sub(1));
    for (i, w) in ends.windows(2).enumerate() {
        let text = bytes.get(w[0]..w[1]).ok_or(GameTableError::Name {
            name: i + 1,
            problem: "out of range",
        })?;
        let text = std::str::from_utf8(text).map_err(|_| GameTableError::Name {
            name: i + 1,
            problem: "not valid UTF-8",
        })?;
        if names.last().is_some_and(|p| p.as_str() >= text) {
            return Err(GameTableError::Name {
                name: i + 1,
                problem: "out of order",
            });
        }
        names.push(text.to_string());
    }
    Ok(names)
}
