//! Egaroucid's book, `.egbk3` (25-byte records without links) and the older `.egbk2` (with
//! links, read only), boards with a1 in the most significant bit. Read into and written
//! from the Edax model of [`super::edax`], so that one conversion to othbook's book serves
//! all formats: links are the legal moves whose position the file holds, as Egaroucid finds
//! them by probing.

use super::edax::{self, EdaxBook, Link, NO_MOVE, PASS, SCORE_INF};
use super::fields::{self, BadLevels};
use crate::board::{Board, Symmetry};
use crate::book::key::Canonical;
use crate::book::negamax::playable_moves;

/// The first nine bytes.
pub const MAGIC: &[u8; 9] = b"DICUORAGE";
/// The version written (and read).
pub const VERSION: u8 = 3;
/// The older version, with links and no leaves (`.egbk2`), read only.
pub const VERSION_2: u8 = 2;
/// Bytes per record.
pub const RECORD_LEN: usize = 25;
/// Egaroucid's "no score" (`SCORE_UNDEFINED`).
pub const SCORE_UNDEFINED: i8 = -126;
/// Egaroucid's "no move" (`MOVE_UNDEFINED`).
pub const MOVE_UNDEFINED: u8 = 125;
/// Egaroucid's "no level" (`LEVEL_UNDEFINED`).
pub const LEVEL_UNDEFINED: i8 = -1;

/// Whether `bytes` start with Egaroucid's book signature.
#[must_use]
pub fn is_egaroucid(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// A square or pass in Egaroucid's numbering (cell 63 = a1) from othbook's (0 = a1).
fn flip_move(mv: u8) -> u8 {
    if mv < 64 {
        63 - mv
    } else {
        mv
    }
}

/// Parses an `.egbk3` or `.egbk2` into the Edax model: links found by probing, leaf moves
/// in a1 = 0. A position whose record gives no leaf keeps its value as a score without its
/// move (Edax's leaf with move 65), so that a frontier position keeps its value.
pub fn parse(bytes: &[u8]) -> Result<EdaxBook, String> {
    if !is_egaroucid(bytes) {
        return Err("not an Egaroucid book (no DICUORAGE signature at the start)".into());
    }
    let Some(&version) = bytes.get(9) else {
        return Err("truncated: the file ends inside the header".into());
    };
    let Some(count) = bytes.get(10..14) else {
        return Err("truncated: the file ends inside the header".into());
    };
    let declared = i32::from_le_bytes(count.try_into().expect("4 bytes"));
    let body = &bytes[14..];
    let mut bad_levels = BadLevels::default();
    let mut positions = match version {
        VERSION => parse_v3(body, fields::count(declared, body.len(), RECORD_LEN)?)?,
        // Records of any length: the one the file ends inside is named, and no more are
        // reserved than the bytes hold.
        VERSION_2 => parse_v2(body, fields::count(declared, usize::MAX, 1)?)?,
        _ => {
            return Err(format!(
                "Egaroucid book format version {version} is not known (versions {VERSION_2} and \
                 {VERSION} are)"
            ))
        }
    };
    for p in &mut positions {
        p.level = record_level(p.level as i8, &mut bad_levels);
    }
    let level = positions.iter().map(|p| p.level).max().unwrap_or(0);
    link(&mut positions, true);
    let mut book = EdaxBook {
        positions,
        bad_levels,
        ..EdaxBook::default()
    };
    book.header.options.level = i32::from(level);
    Ok(book)
}

/// A record's own value (`None` when undefined or not a disc difference).
fn record_value(v: i8) -> Option<i8> {
    fields::discs(i32::from(v))
}

/// A record's level: Egaroucid's undefined level is level 0; other levels outside 0 to 60
/// are counted and read as 0.
fn record_level(raw: i8, bad_levels: &mut BadLevels) -> u8 {
    if raw == LEVEL_UNDEFINED {
        0
    } else {
        bad_levels.level(i32::from(raw))
    }
}

/// The leaf of a record without one: its value standing for the moves out of the book.
fn score_only(value: Option<i8>) -> Link {
    Link {
        score: value.unwrap_or(-SCORE_INF as i8),
        mv: NO_MOVE,
    }
}

fn parse_v3(body: &[u8], declared: usize) -> Result<Vec<edax::Position>, String> {
    if body.len() != declared * RECORD_LEN {
        return Err(format!(
            "truncated or damaged: the header claims {declared} positions of {RECORD_LEN} \
             bytes, the file holds {} bytes after the header",
            body.len()
        ));
    }
    let mut positions = Vec::with_capacity(declared);
    for (i, r) in body.chunks_exact(RECORD_LEN).enumerate() {
        let u64_at = |o: usize| u64::from_le_bytes(r[o..o + 8].try_into().expect("8 bytes"));
        let (leaf_score, leaf_move) = (r[22] as i8, r[23]);
        if leaf_move > PASS && leaf_move != MOVE_UNDEFINED {
            return Err(format!(
                "position {}: leaf move {leaf_move} is not a square, a pass (64) or undefined \
                 ({MOVE_UNDEFINED})",
                i + 1
            ));
        }
        let no_leaf = leaf_score == SCORE_UNDEFINED || leaf_move == MOVE_UNDEFINED;
        let value = r[16] as i8;
        positions.push(edax::Position {
            player: u64_at(0).reverse_bits(),
            opponent: u64_at(8).reverse_bits(),
            lines: u32::from_le_bytes(r[18..22].try_into().expect("4 bytes")),
            value: i16::from(value),
            // As written: checked once every record is read.
            level: r[17],
            leaf: if no_leaf {
                score_only(record_value(value))
            } else {
                Link {
                    score: leaf_score,
                    mv: flip_move(leaf_move),
                }
            },
            ..edax::Position::default()
        });
    }
    Ok(positions)
}

/// An `.egbk2` record: board, value, level, then its links as (value, cell). Egaroucid
/// itself ignores the links on import; here a link whose position the file lacks and whose
/// value is defined is a scored move out of the book, and the best of them is the leaf.
fn parse_v2(body: &[u8], declared: usize) -> Result<Vec<edax::Position>, String> {
    let mut at = 0usize;
    let mut take = |n: usize, i: usize| -> Result<&[u8], String> {
        let r = body.get(at..at + n).ok_or_else(|| {
            format!(
                "truncated: the file ends inside position {} of {declared} (byte {})",
                i + 1,
                at + 14
            )
        })?;
        at += n;
        Ok(r)
    };
    let mut positions = Vec::with_capacity(declared.min(body.len() / 19));
    let mut scored = Vec::with_capacity(positions.capacity());
    for i in 0..declared {
        let r = take(19, i)?;
        let u64_at = |o: usize| u64::from_le_bytes(r[o..o + 8].try_into().expect("8 bytes"));
        let (player, opponent) = (u64_at(0).reverse_bits(), u64_at(8).reverse_bits());
        let (value, level, n_links) = (r[16] as i8, r[17] as i8, r[18]);
        let links = take(2 * usize::from(n_links), i)?;
        let moves: Vec<Link> = links
            .chunks_exact(2)
            .filter_map(|l| {
                record_value(l[0] as i8).map(|score| Link {
                    score,
                    mv: flip_move(l[1]),
                })
            })
            .collect();
        scored.push(moves);
        positions.push(edax::Position {
            player,
            opponent,
            value: i16::from(value),
            level: level as u8,
            leaf: score_only(record_value(value)),
            ..edax::Position::default()
        });
    }
    if at != body.len() {
        return Err(format!(
            "damaged: {} bytes follow the {declared} positions the header claims",
            body.len() - at
        ));
    }
    let held: ahash::AHashSet<_> = positions
        .iter()
        .filter(|p| p.player & p.opponent == 0)
        .map(|p| Canonical::of(&Board::from_bits(p.player, p.opponent)).key)
        .collect();
    for (i, (p, moves)) in positions.iter_mut().zip(scored).enumerate() {
        if p.player & p.opponent != 0 {
            continue; // refused with its number by the conversion
        }
        let board = Board::from_bits(p.player, p.opponent);
        for l in moves {
            let child = crate::book::key::code_move(l.mv)
                .and_then(|mv| board.play_move(mv).ok())
                .ok_or_else(|| format!("position {}: link move {} is not legal", i + 1, l.mv))?;
            let out_of_book = !held.contains(&Canonical::of(&child).key);
            if out_of_book && (p.leaf.mv == NO_MOVE || l.score > p.leaf.score) {
                p.leaf = l;
            }
        }
    }
    Ok(positions)
}

/// Gives each position a link for every playable move whose position the book holds, as
/// Egaroucid finds children by probing (its records store none) and Edax relinks an
/// imported text book. With `value_as_leaf` (Egaroucid, whose leafless records have their
/// value as a score without its move), such a score is dropped where the links give the
/// value (or no move leaves the book): the record had no leaf, and needs none.
pub(super) fn link(positions: &mut [edax::Position], value_as_leaf: bool) {
    let index: ahash::AHashMap<_, _> = positions
        .iter()
        .filter(|p| p.player & p.opponent == 0)
        .map(|p| {
            (
                Canonical::of(&Board::from_bits(p.player, p.opponent)).key,
                p.value,
            )
        })
        .collect();
    for p in positions.iter_mut().filter(|p| p.player & p.opponent == 0) {
        let board = Board::from_bits(p.player, p.opponent);
        let mut out = Vec::new();
        for mv in playable_moves(&board) {
            let child = board.play_move(mv).expect("a playable move");
            let code = crate::book::key::move_code(mv);
            match index.get(&Canonical::of(&child).key) {
                Some(&v) if code != p.leaf.mv => p.links.push(Link {
                    score: (-v).clamp(-127, 127) as i8,
                    mv: code,
                }),
                Some(_) => {}
                None => out.push(code),
            }
        }
        let explained = out.is_empty() || p.links.iter().any(|l| l.score >= p.leaf.score);
        if value_as_leaf && p.leaf.mv == NO_MOVE && explained {
            p.leaf = score_only(None);
        }
        // A score without its move names its move when only one move leaves the book (a
        // forced pass among them).
        if let ([only], NO_MOVE) = (out.as_slice(), p.leaf.mv) {
            if i16::from(p.leaf.score) > -SCORE_INF {
                p.leaf.mv = *only;
            }
        }
    }
}

/// The bytes of an `.egbk3` of the Edax model's positions, each board in Egaroucid's own
/// representative orientation (smallest with a1 as the high bit) with its leaf move turned
/// alike.
#[must_use]
pub fn encode(book: &EdaxBook) -> Vec<u8> {
    let mut out = Vec::with_capacity(14 + book.positions.len() * RECORD_LEN);
    out.extend(MAGIC);
    out.push(VERSION);
    out.extend((book.positions.len() as i32).to_le_bytes());
    for p in &book.positions {
        let sym = Symmetry::ALL
            .into_iter()
            .min_by_key(|s| {
                (
                    s.bits(p.player).reverse_bits(),
                    s.bits(p.opponent).reverse_bits(),
                )
            })
            .expect("8 symmetries");
        out.extend(sym.bits(p.player).reverse_bits().to_le_bytes());
        out.extend(sym.bits(p.opponent).reverse_bits().to_le_bytes());
        out.push(p.value as i8 as u8);
        out.push(p.level);
        out.extend(p.lines.to_le_bytes());
        let leaf = match crate::book::key::code_move(p.leaf.mv) {
            Some(mv) => [
                p.leaf.score as u8,
                flip_move(crate::book::key::move_code(sym.apply_move(mv))),
                p.level,
            ],
            None => [SCORE_UNDEFINED as u8, MOVE_UNDEFINED, LEVEL_UNDEFINED as u8],
        };
        out.extend(leaf);
    }
    out
}
