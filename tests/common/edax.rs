//! Other programs' books for the interop tests: this suite's own reader of Edax's
//! `book.dat` (written from the format description, not othbook's code), its own symmetries,
//! Edax's invariants, an `.egbk2` writer, and the books the tests start from.

use super::{need, run_in};
use othbook::board::Board;
use std::collections::HashMap;
use std::path::Path;

pub const RAY: &str = "../shared/data/edax-book/ray1457_book.dat";
pub const WTHOR_1985: &str = "../shared/data/wthor/WTH_1985.wtb";

/// One position as this file's own reader sees it: value, links and leaf as (score, move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rec {
    pub value: i16,
    pub level: u8,
    pub links: Vec<(i8, u8)>,
    pub leaf: (i8, u8),
}

/// A minimal `book.dat` reader, written from the format description alone: the header's
/// position count, then the positions keyed by (player, opponent), links sorted.
pub fn read_edax(bytes: &[u8]) -> (i32, HashMap<(u64, u64), Rec>) {
    assert_eq!(&bytes[..8], b"XADEKOOB");
    assert_eq!(bytes[8], 4, "version");
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap());
    let count = i32::from_le_bytes(bytes[38..42].try_into().unwrap());
    let mut at = 42;
    let mut out = HashMap::new();
    while at < bytes.len() {
        let key = (u64_at(at), u64_at(at + 8));
        let value = i16::from_le_bytes([bytes[at + 32], bytes[at + 33]]);
        let (n, level) = (bytes[at + 38] as usize, bytes[at + 39]);
        at += 40;
        let pair = |o: usize| (bytes[o] as i8, bytes[o + 1]);
        let mut links: Vec<(i8, u8)> = (0..n).map(|i| pair(at + 2 * i)).collect();
        links.sort_unstable();
        let leaf = pair(at + 2 * n);
        at += 2 * n + 2;
        let rec = Rec {
            value,
            level,
            links,
            leaf,
        };
        assert!(out.insert(key, rec).is_none(), "a board twice");
    }
    assert_eq!(at, bytes.len());
    (count, out)
}

/// Square `i` of the 8 symmetric images of a board (a1 = bit 0): this file's own copy of the
/// symmetries, so the check does not lean on othbook's.
pub fn image(b: u64, s: usize) -> u64 {
    let mut out = 0;
    for i in 0..64 {
        if b >> i & 1 == 1 {
            let (x, y) = (i % 8, i / 8);
            let (x, y) = if s & 4 != 0 { (y, x) } else { (x, y) };
            let x = if s & 1 != 0 { 7 - x } else { x };
            let y = if s & 2 != 0 { 7 - y } else { y };
            out |= 1 << (y * 8 + x);
        }
    }
    out
}

pub fn canonical(key: (u64, u64)) -> (u64, u64) {
    (0..8)
        .map(|s| (image(key.0, s), image(key.1, s)))
        .min()
        .unwrap()
}

/// Edax's invariants: boards canonical, each link's score −(its child's value), the value
/// max(link scores, leaf score); the leaf is not a link.
pub fn check_invariants(book: &HashMap<(u64, u64), Rec>) {
    for (&key, r) in book {
        assert_eq!(canonical(key), key, "board not canonical");
        let board = Board::from_bits(key.0, key.1);
        for &(score, mv) in &r.links {
            let next = if mv == 64 {
                board.pass()
            } else {
                board
                    .play(othbook::board::Square::from_index(mv).unwrap())
                    .unwrap()
            };
            let child = &book[&canonical((next.player().0, next.opponent().0))];
            assert_eq!(i16::from(score), -child.value, "link {mv}");
            assert_ne!(mv, r.leaf.1, "the leaf is a link");
        }
        let leaf = (r.leaf.0 > -127).then_some(r.leaf.0);
        let best = r.links.iter().map(|l| l.0).chain(leaf).max().unwrap();
        assert_eq!(r.value, i16::from(best));
    }
}

pub fn ok(dir: &Path, args: &[&str]) -> String {
    let (code, out, err) = run_in(dir, args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    out
}

pub fn ray() -> String {
    std::fs::canonicalize(need(RAY))
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// A book of the 954 games of 1985, 16 plies, evaluated 3 plies deep (`--plies`: only so
/// deep, the rest left without values).
pub fn evaluated_wthor(dir: &Path, plies: Option<&str>) {
    let wthor = std::fs::canonicalize(need(WTHOR_1985)).unwrap();
    let w = wthor.to_string_lossy();
    ok(
        dir,
        &[
            "build",
            &w,
            "-o",
            "w.book",
            "--plies",
            "16",
            "--min-games",
            "1",
        ],
    );
    let mut args = vec!["book", "evaluate", "w.book", "--depth", "3"];
    if let Some(p) = plies {
        args.extend(["--plies", p]);
    }
    ok(dir, &args);
}

/// Runs `book import FILE -o out.book` on `bytes`: it must fail with exit code 1, name the
/// file and say `reason`, and write nothing.
pub fn refused(bytes: &[u8], reason: &str) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("bad.dat"), bytes).unwrap();
    let (code, _, err) = run_in(d, &["book", "import", "bad.dat", "-o", "out.book"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("bad.dat") && err.contains(reason), "{err}");
    assert!(!d.join("out.book").exists());
}

/// One `.egbk2` record as Egaroucid 6 wrote it (`save_bin`): the board with a1 as the high
/// bit, value, level, then the moves as (value, cell) with cell 63 = a1.
pub fn egbk2_record(key: (u64, u64), value: i8, level: u8, moves: &[(i8, u8)]) -> Vec<u8> {
    let mut r = Vec::new();
    r.extend(key.0.reverse_bits().to_le_bytes());
    r.extend(key.1.reverse_bits().to_le_bytes());
    r.extend([value as u8, level, moves.len() as u8]);
    for &(v, mv) in moves {
        r.extend([v as u8, if mv < 64 { 63 - mv } else { mv }]);
    }
    r
}

/// ray1457 as an `.egbk2`, written by this file as Egaroucid 6 converted an Edax book: each
/// position with its links and its leaf among its moves (egbk2 had no separate leaf).
pub fn ray_as_egbk2() -> Vec<u8> {
    let (_, ray) = read_edax(&std::fs::read(need(RAY)).unwrap());
    let mut keys: Vec<_> = ray.keys().copied().collect();
    keys.sort_unstable();
    let mut eg = b"DICUORAGE\x02".to_vec();
    eg.extend((keys.len() as i32).to_le_bytes());
    for k in &keys {
        let r = &ray[k];
        let mut moves = r.links.clone();
        if r.leaf.1 < 64 {
            moves.push(r.leaf);
        }
        eg.extend(egbk2_record(*k, r.value as i8, r.level, &moves));
    }
    eg
}

/// A `book.dat` laid out as othbook's export writes one: header date 2024-11-17 12:34:45,
/// level `level` (solving from `empties`), records by board with zero game counts and
/// bounds equal to the value, links best first.
pub fn write_edax(level: i32, empties: i32, recs: &HashMap<(u64, u64), Rec>) -> Vec<u8> {
    let mut out = b"XADEKOOB".to_vec();
    out.extend([4, 4]);
    out.extend(2024i16.to_le_bytes());
    out.extend([11, 17, 12, 34, 45, 0]);
    for v in [level, empties, 2, 1, 0, recs.len() as i32] {
        out.extend(v.to_le_bytes());
    }
    let mut keys: Vec<_> = recs.keys().copied().collect();
    keys.sort_unstable();
    for k in keys {
        let r = &recs[&k];
        out.extend(k.0.to_le_bytes());
        out.extend(k.1.to_le_bytes());
        out.extend([0u8; 16]);
        for _ in 0..3 {
            out.extend(r.value.to_le_bytes());
        }
        out.extend([r.links.len() as u8, r.level]);
        let mut links = r.links.clone();
        links.sort_by_key(|&(s, mv)| (-s, mv));
        for (s, mv) in links.into_iter().chain(std::iter::once(r.leaf)) {
            out.extend([s as u8, mv]);
        }
    }
    out
}
