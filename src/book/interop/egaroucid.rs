//! Egaroucid's book, `.egbk3`: 25-byte records without links, boards with a1 in the most
//! significant bit. Read into and written from the Edax model of [`super::edax`], so that one
//! conversion to othbook's book serves both formats: links are the legal moves whose
//! position the file holds, as Egaroucid finds them by probing.

use super::edax::{self, EdaxBook, Link, NO_MOVE, PASS, SCORE_INF};
use crate::board::{Board, Symmetry};
use crate::book::key::Canonical;
use crate::book::negamax::playable_moves;

/// The first nine bytes.
pub const MAGIC: &[u8; 9] = b"DICUORAGE";
/// The version read and written.
pub const VERSION: u8 = 3;
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

/// Parses an `.egbk3` into the Edax model: links found by probing, leaf moves in a1 = 0.
pub fn parse(bytes: &[u8]) -> Result<EdaxBook, String> {
    if !is_egaroucid(bytes) {
        return Err("not an Egaroucid book (no DICUORAGE signature at the start)".into());
    }
    let Some(&version) = bytes.get(9) else {
        return Err("truncated: the file ends inside the header".into());
    };
    if version != VERSION {
        return Err(format!(
            "Egaroucid book format version {version} is not known (only version {VERSION} is)"
        ));
    }
    let Some(count) = bytes.get(10..14) else {
        return Err("truncated: the file ends inside the header".into());
    };
    let declared = i32::from_le_bytes(count.try_into().expect("4 bytes"));
    let body = &bytes[14..];
    if declared < 0 || body.len() != declared as usize * RECORD_LEN {
        return Err(format!(
            "truncated or damaged: the header claims {declared} positions of {RECORD_LEN} \
             bytes, the file holds {} bytes after the header",
            body.len()
        ));
    }
    let mut positions = Vec::with_capacity(declared as usize);
    let mut level = 0i32;
    for r in body.chunks_exact(RECORD_LEN) {
        let u64_at = |o: usize| u64::from_le_bytes(r[o..o + 8].try_into().expect("8 bytes"));
        let (leaf_score, leaf_move) = (r[22] as i8, r[23]);
        let no_leaf = leaf_score == SCORE_UNDEFINED || leaf_move > PASS;
        level = level.max(i32::from(r[17] as i8));
        positions.push(edax::Position {
            player: u64_at(0).reverse_bits(),
            opponent: u64_at(8).reverse_bits(),
            lines: u32::from_le_bytes(r[18..22].try_into().expect("4 bytes")),
            value: i16::from(r[16] as i8),
            level: (r[17] as i8).max(0) as u8,
            leaf: if no_leaf {
                Link {
                    score: -SCORE_INF as i8,
                    mv: NO_MOVE,
                }
            } else {
                Link {
                    score: leaf_score,
                    mv: flip_move(leaf_move),
                }
            },
            ..edax::Position::default()
        });
    }
    link(&mut positions);
    let mut book = EdaxBook {
        positions,
        ..EdaxBook::default()
    };
    book.header.options.level = level;
    Ok(book)
}

/// Gives each position a link for every playable move whose position the book holds, as
/// Egaroucid finds children by probing (its records store none) and Edax relinks an
/// imported text book.
pub(super) fn link(positions: &mut [edax::Position]) {
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
        for mv in playable_moves(&board) {
            let child = board.play_move(mv).expect("a playable move");
            if let Some(&v) = index.get(&Canonical::of(&child).key) {
                let code = crate::book::key::move_code(mv);
                if code != p.leaf.mv {
                    p.links.push(Link {
                        score: (-v).clamp(-127, 127) as i8,
                        mv: code,
                    });
                }
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
