//! Other programs' books: Edax `book.dat` imported (the shared ray1457 book), exported back,
//! an evaluated WTHOR book exported and read by a reader of this file's own, bad files
//! refused, and the importer fuzzed on damaged real bytes.

mod common;
use common::{need, run_in};
use othbook::board::{parse_moves, Board, Position};
use othbook::book::interop::import_bytes;
use othbook::book::Book;
use proptest::prelude::*;
use std::collections::HashMap;
use std::path::Path;

const RAY: &str = "../shared/data/edax-book/ray1457_book.dat";
const WTHOR_1985: &str = "../shared/data/wthor/WTH_1985.wtb";

/// One position as this file's own reader sees it: value, links and leaf as (score, move).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Rec {
    value: i16,
    level: u8,
    links: Vec<(i8, u8)>,
    leaf: (i8, u8),
}

/// A minimal `book.dat` reader, written from the format description alone: the header's
/// position count, then the positions keyed by (player, opponent), links sorted.
fn read_edax(bytes: &[u8]) -> (i32, HashMap<(u64, u64), Rec>) {
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
fn image(b: u64, s: usize) -> u64 {
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

fn canonical(key: (u64, u64)) -> (u64, u64) {
    (0..8)
        .map(|s| (image(key.0, s), image(key.1, s)))
        .min()
        .unwrap()
}

/// Edax's invariants: boards canonical, each link's score −(its child's value), the value
/// max(link scores, leaf score); the leaf is not a link.
fn check_invariants(book: &HashMap<(u64, u64), Rec>) {
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

fn ok(dir: &Path, args: &[&str]) -> String {
    let (code, out, err) = run_in(dir, args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    out
}

fn ray() -> String {
    std::fs::canonicalize(need(RAY))
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

#[test]
fn ray1457_imports_with_its_root_moves_and_values() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = ok(d, &["book", "import", &ray(), "-o", "ray.book"]);
    assert!(out.contains("1941 positions, 2077 links read"), "{out}");
    assert!(out.contains("every value agrees with the file's"), "{out}");
    let book = Book::open(d.join("ray.book")).unwrap();
    assert_eq!(book.counts().0, 1941);
    assert_eq!(book.value(&Board::START).unwrap().score, -400);
    for first in ["d3", "c4", "f5", "e6"] {
        let pos = Position::START
            .replay(parse_moves(first).unwrap())
            .unwrap()
            .end;
        // The file's links say −4 for black: +4 for white, to move.
        assert_eq!(book.value(&pos.board).unwrap().score, 400, "{first}");
    }
    let explore = ok(d, &["explore", "--book", "ray.book", "f5"]);
    assert!(explore.contains("value -4.00"), "{explore}");
    assert!(explore.contains("f4"), "{explore}");
    assert!(
        explore.contains("the book holds no games (imported"),
        "{explore}"
    );
    // Regression: analyze said deviation learning had added an imported position.
    let analyze = ok(
        d,
        &[
            "analyze",
            "f5",
            "--book",
            "ray.book",
            "--depth",
            "1",
            "--threads",
            "1",
        ],
    );
    assert!(
        analyze.contains("book: 0 games (the book holds none: imported"),
        "{analyze}"
    );
    assert!(!analyze.contains("deviation"), "{analyze}");
}

#[test]
fn ray1457_exports_back_equal() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(d, &["book", "import", &ray(), "-o", "ray.book"]);
    let out = ok(
        d,
        &[
            "book", "export", "ray.book", "--to", "edax", "-o", "back.dat",
        ],
    );
    assert!(out.contains("1941 positions written, 0 left out"), "{out}");
    let original = std::fs::read(RAY).unwrap();
    let back = std::fs::read(d.join("back.dat")).unwrap();
    assert_eq!(back.len(), original.len());
    // Header: the same version, date and settings (game counts, bounds and the order of
    // positions are not kept: see docs/interop.md).
    assert_eq!(back[..42], original[..42]);
    let (n0, a) = read_edax(&original);
    let (n1, b) = read_edax(&back);
    assert_eq!((n0, n1), (1941, 1941));
    assert_eq!(a, b);
    check_invariants(&b);
}

/// A book of the 954 games of 1985, 16 plies, evaluated 3 plies deep (`--plies`: only so
/// deep, the rest left without values).
fn evaluated_wthor(dir: &Path, plies: Option<&str>) {
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

#[test]
fn an_evaluated_wthor_book_exports_with_edax_invariants_and_imports_again() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    evaluated_wthor(d, None);
    let out = ok(
        d,
        &["book", "export", "w.book", "--to", "edax", "-o", "w.dat"],
    );
    let book = Book::open(d.join("w.book")).unwrap();
    let positions = book.counts().0;
    assert!(
        out.contains(&format!("{positions} positions written, 0 left out")),
        "{out}"
    );
    let (count, recs) = read_edax(&std::fs::read(d.join("w.dat")).unwrap());
    assert_eq!((count as u64, recs.len() as u64), (positions, positions));
    check_invariants(&recs);
    // Game counts from the book, side to move's view; lines = games.
    let start = canonical((Board::START.player().0, Board::START.opponent().0));
    assert_eq!(recs[&start].level, 3);
    let again = ok(d, &["book", "import", "w.dat", "-o", "again.book"]);
    assert!(again.contains("every value agrees"), "{again}");
    let imported = Book::open(d.join("again.book")).unwrap();
    for (&(p, o), r) in &recs {
        let board = Board::from_bits(p, o);
        let v = imported.value(&board).unwrap().score;
        assert_eq!(v, r.value * 100);
        let ours = book.value(&board).unwrap().score;
        assert!((v - ours).abs() <= 50, "rounded to discs: {v} vs {ours}");
    }
}

#[test]
fn positions_without_a_value_are_left_out_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    evaluated_wthor(d, Some("6"));
    let book = Book::open(d.join("w.book")).unwrap();
    let data = book.to_data().unwrap();
    let valued = data
        .positions
        .iter()
        .filter(|p| p.eval.value.is_some())
        .count();
    let missing = data.positions.len() - valued;
    assert!(valued > 10 && missing > 1000, "{valued} {missing}");
    let out = ok(
        d,
        &["book", "export", "w.book", "--to", "edax", "-o", "w.dat"],
    );
    assert!(
        out.contains(&format!(
            "{valued} positions written, {missing} left out (no value)"
        )),
        "{out}"
    );
    let (_, recs) = read_edax(&std::fs::read(d.join("w.dat")).unwrap());
    assert_eq!(recs.len(), valued);
    check_invariants(&recs);
}

/// Runs `book import FILE -o out.book` on `bytes`: it must fail with exit code 1, name the
/// file and say `reason`, and write nothing.
fn refused(bytes: &[u8], reason: &str) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("bad.dat"), bytes).unwrap();
    let (code, _, err) = run_in(d, &["book", "import", "bad.dat", "-o", "out.book"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("bad.dat") && err.contains(reason), "{err}");
    assert!(!d.join("out.book").exists());
}

#[test]
fn bad_files_are_refused_with_the_file_and_the_reason() {
    let ray = std::fs::read(need(RAY)).unwrap();
    refused(
        &ray[..ray.len() - 1],
        "truncated: the file ends inside position 1941",
    );
    refused(&ray[..30], "truncated: the file ends inside the header");
    let mut magic = ray.clone();
    magic[0] = b'Y';
    refused(&magic, "not a book format othbook imports");
    refused(b"", "the file is empty");
    let mut version = ray.clone();
    version[8] = 3;
    refused(&version, "Edax book format version 3 is not known");
    let mut count = ray.clone();
    count[38..42].copy_from_slice(&1940i32.to_le_bytes());
    refused(&count, "claims 1940 positions, the file holds 1941");
    // The first position's player discs also on the opponent's side.
    let mut overlap = ray.clone();
    overlap[42..50].copy_from_slice(&ray[50..58]);
    refused(&overlap, "position 1: a square holds discs of both sides");
    // The first position's leaf move (after its one link) on an occupied square.
    let mut leaf = ray;
    let links = leaf[42 + 38] as usize;
    let occupied = (u64::from_le_bytes(leaf[42..50].try_into().unwrap())).trailing_zeros();
    leaf[42 + 40 + 2 * links + 1] = occupied as u8;
    refused(
        &leaf,
        &format!("position 1: leaf move {occupied} is not legal"),
    );
}

#[test]
fn export_refuses_a_book_without_values() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let wthor = std::fs::canonicalize(need(WTHOR_1985)).unwrap();
    ok(
        d,
        &[
            "build",
            &wthor.to_string_lossy(),
            "-o",
            "w.book",
            "--plies",
            "4",
        ],
    );
    let (code, _, err) = run_in(
        d,
        &["book", "export", "w.book", "--to", "edax", "-o", "w.dat"],
    );
    assert_ne!(code, Some(0));
    assert!(err.contains("has no values"), "{err}");
    assert!(!d.join("w.dat").exists());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// Damaged real bytes (the ray1457 book, or it exported to Egaroucid's `.egbk3` or
    /// Edax's text format, or written as `.egbk2`): the importer answers, with a book or an
    /// error, and never panics.
    #[test]
    fn the_importer_never_panics_on_damaged_bytes(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..12),
        cut in proptest::option::of(any::<prop::sample::Index>()),
        format in 0u8..4,
    ) {
        let ray = std::fs::read(need(RAY)).unwrap();
        let data = import_bytes(&ray, Path::new(RAY)).unwrap().0;
        let mut bytes = match format {
            0 => ray,
            1 => othbook::book::interop::export_egaroucid(&data).0,
            2 => ray_as_egbk2(),
            _ => othbook::book::interop::export_edax_text(&data).0,
        };
        for (at, b) in edits {
            let i = at.index(bytes.len());
            bytes[i] = b;
        }
        if let Some(c) = cut {
            bytes.truncate(c.index(bytes.len()));
        }
        let _ = import_bytes(&bytes, Path::new("fuzz.dat"));
    }
}

#[test]
fn ray1457_goes_through_egaroucid_and_back_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(d, &["book", "import", &ray(), "-o", "ray.book"]);
    let out = ok(
        d,
        &[
            "book",
            "export",
            "ray.book",
            "--to",
            "egaroucid",
            "-o",
            "ray.egbk3",
        ],
    );
    assert!(out.contains("1941 positions written"), "{out}");
    let eg = std::fs::read(d.join("ray.egbk3")).unwrap();
    assert_eq!(&eg[..10], b"DICUORAGE\x03");
    assert_eq!(eg.len(), 14 + 1941 * 25);
    // Egaroucid's records: a1 is the high bit, boards in its own smallest orientation.
    for r in eg[14..].chunks_exact(25) {
        let (p, o) = (
            u64::from_le_bytes(r[..8].try_into().unwrap()),
            u64::from_le_bytes(r[8..16].try_into().unwrap()),
        );
        let mirrored = canonical((p.reverse_bits(), o.reverse_bits()));
        let smallest = (0..8)
            .map(|s| {
                (
                    image(mirrored.0, s).reverse_bits(),
                    image(mirrored.1, s).reverse_bits(),
                )
            })
            .min()
            .unwrap();
        assert_eq!((p, o), smallest);
    }
    let again = ok(d, &["book", "import", "ray.egbk3", "-o", "eg.book"]);
    assert!(again.contains("every value agrees"), "{again}");
    ok(
        d,
        &[
            "book", "export", "eg.book", "--to", "edax", "-o", "back.dat",
        ],
    );
    let (_, a) = read_edax(&std::fs::read(RAY).unwrap());
    let (_, b) = read_edax(&std::fs::read(d.join("back.dat")).unwrap());
    assert_eq!(a, b, "positions, values, links, leaves and levels");
}

#[test]
fn bad_egaroucid_files_are_refused() {
    let mut eg = b"DICUORAGE\x03".to_vec();
    eg.extend(2i32.to_le_bytes());
    eg.extend([0u8; 25]);
    refused(&eg, "the header claims 2 positions of 25 bytes");
    let mut v7 = eg.clone();
    v7[9] = 7;
    refused(&v7, "Egaroucid book format version 7 is not known");
    refused(b"DICUORAGE", "truncated: the file ends inside the header");
    let mut v2 = b"DICUORAGE\x02".to_vec();
    v2.extend(1i32.to_le_bytes());
    v2.extend(egbk2_record(
        (0x0000_0008_1000_0000, 0x0000_0010_0800_0000),
        0,
        1,
        &[],
    ));
    v2.extend([0u8; 3]);
    refused(&v2, "3 bytes follow the 1 positions");
    let n = v2.len();
    refused(&v2[..n - 5], "the file ends inside position 1 of 1");
    // A link to f5 from a board where f5 is taken.
    let mut bad_link = v2[..n - 3].to_vec();
    bad_link[14 + 18] = 1;
    bad_link.extend([0u8, (63 - 36) as u8]);
    refused(&bad_link, "position 1: link move 36 is not legal");
}

/// One `.egbk2` record as Egaroucid 6 wrote it (`save_bin`): the board with a1 as the high
/// bit, value, level, then the moves as (value, cell) with cell 63 = a1.
fn egbk2_record(key: (u64, u64), value: i8, level: u8, moves: &[(i8, u8)]) -> Vec<u8> {
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
fn ray_as_egbk2() -> Vec<u8> {
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

#[test]
fn ray1457_as_egbk2_imports_to_the_same_book() {
    let (_, ray) = read_edax(&std::fs::read(need(RAY)).unwrap());
    let eg = ray_as_egbk2();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("ray.egbk2"), &eg).unwrap();
    let out = ok(d, &["book", "import", "ray.egbk2", "-o", "eg2.book"]);
    assert!(out.contains("every value agrees"), "{out}");
    ok(
        d,
        &[
            "book", "export", "eg2.book", "--to", "edax", "-o", "back.dat",
        ],
    );
    let (_, back) = read_edax(&std::fs::read(d.join("back.dat")).unwrap());
    assert_eq!(back.len(), ray.len());
    let differ: Vec<_> = ray
        .iter()
        .filter(|(k, r)| back.get(k) != Some(r))
        .map(|(k, r)| (r, back.get(k)))
        .collect();
    assert!(
        differ.is_empty(),
        "{} differ: {:?}",
        differ.len(),
        &differ[..differ.len().min(3)]
    );
}

#[test]
fn a_frontier_position_without_a_leaf_keeps_its_value() {
    // An .egbk2 of the start and the position after f5 alone: the latter has a value and no
    // moves, as Egaroucid's frontier positions do. Its value must reach the start through
    // the f5 link, and a player must not pretend to know its best move.
    let start = Board::START;
    let f5 = parse_moves("f5").unwrap();
    let after = start.play_move(f5[0]).unwrap();
    let bits = |b: &Board| (b.player().0, b.opponent().0);
    let mut eg = b"DICUORAGE\x02".to_vec();
    eg.extend(2i32.to_le_bytes());
    eg.extend(egbk2_record(bits(&start), 0, 10, &[]));
    eg.extend(egbk2_record(bits(&after), -3, 10, &[]));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("two.egbk2"), &eg).unwrap();
    let out = ok(d, &["book", "import", "two.egbk2", "-o", "two.book"]);
    assert!(out.contains("2 positions"), "{out}");
    let book = Book::open(d.join("two.book")).unwrap();
    assert_eq!(book.value(&after).map(|s| s.score), Some(-300));
    // The start's value comes from its four equivalent moves into the book (f5 and its
    // images): −(−3) = +3 discs.
    assert_eq!(book.value(&start).map(|s| s.score), Some(300));
    assert!(
        book.best_moves(&after).is_empty(),
        "no move is known after f5"
    );
    let explore = ok(d, &["explore", "f5", "--book", "two.book"]);
    assert!(
        explore.contains("-3.00") || explore.contains("3.00"),
        "{explore}"
    );
}

/// A folder with ray1457 imported (`ray.book`) and exported as Edax text (`ray.txt`).
fn ray_as_text() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(d, &["book", "import", &ray(), "-o", "ray.book"]);
    let to_text = [
        "book",
        "export",
        "ray.book",
        "--to",
        "edax-text",
        "-o",
        "ray.txt",
    ];
    ok(d, &to_text);
    dir
}

#[test]
fn edax_text_export_gives_each_position_its_level_and_leaf() {
    let dir = ray_as_text();
    let d = dir.path();
    let (_, recs) = read_edax(&std::fs::read(RAY).unwrap());
    let text = std::fs::read_to_string(d.join("ray.txt")).unwrap();
    let mut seen = 0;
    for line in text.lines() {
        let (board, rest) = line.split_at(64);
        let bits = |c: char| {
            board
                .chars()
                .enumerate()
                .filter(|&(_, x)| x == c)
                .fold(0u64, |b, (i, _)| b | 1 << i)
        };
        let r = &recs[&(bits('X'), bits('O'))];
        let fields: Vec<&str> = rest.strip_prefix(" X,").unwrap().split(',').collect();
        let mv = match r.leaf.1 {
            64 => "PA".to_string(),
            65 => "--".to_string(),
            m => format!("{}{}", (b'A' + m % 8) as char, m / 8 + 1),
        };
        assert_eq!(
            fields,
            [r.level.to_string(), mv, r.leaf.0.to_string()],
            "{line}"
        );
        seen += 1;
    }
    assert_eq!(seen, 1941);
}

#[test]
fn edax_text_imports_back_to_the_same_book() {
    let dir = ray_as_text();
    let d = dir.path();
    let out = ok(d, &["book", "import", "ray.txt", "-o", "text.book"]);
    assert!(out.contains("1941 positions, 2077 links read"), "{out}");
    assert!(out.contains("the file holds no values"), "{out}");
    ok(
        d,
        &[
            "book",
            "export",
            "text.book",
            "--to",
            "edax",
            "-o",
            "back.dat",
        ],
    );
    let (_, a) = read_edax(&std::fs::read(RAY).unwrap());
    let (_, b) = read_edax(&std::fs::read(d.join("back.dat")).unwrap());
    assert_eq!(
        a, b,
        "links found by probing, values negamaxed from the leaves"
    );
    let mut bad = std::fs::read_to_string(d.join("ray.txt")).unwrap();
    bad = bad.replacen(",1,", ",99,", 1);
    refused(bad.as_bytes(), "line 1: level \"99\" is not 0 to 60");
}

#[test]
fn gtp_and_nboard_play_from_an_imported_edax_book() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(d, &["book", "import", &ray(), "-o", "ray.book"]);
    let path = d.join("ray.book");
    let book = Book::open(&path).unwrap();
    for line in ["f5", "f5f6", "f5f6e6"] {
        let pos = Position::START
            .replay(parse_moves(line).unwrap())
            .unwrap()
            .end;
        let moves = book.best_moves(&pos.board);
        assert!(!moves.is_empty(), "{line}: ray1457 has values here");
        let top = moves[0].score.score;
        let best: Vec<String> = moves
            .iter()
            .filter(|m| m.score.score == top)
            .map(|m| m.mv.to_string().to_uppercase())
            .collect();
        // GTP: genmove answers a best move of the imported book.
        let mut script = String::new();
        let mut p = Position::START;
        for mv in parse_moves(line).unwrap() {
            script.push_str(&format!("play {} {mv}\n", p.side));
            p = p.play(mv).unwrap();
        }
        script.push_str(&format!("genmove {}\nquit\n", p.side));
        let player = format!("engine:book={},depth=1,threads=1,hash=1", path.display());
        let out = common::othbook()
            .args(["gtp", "--player", &player, "--time", "0.05"])
            .write_stdin(script)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let answers: Vec<&str> = text.split("\n\n").filter(|s| !s.is_empty()).collect();
        let answer = answers[answers.len() - 2].trim_start_matches("= ");
        assert!(
            best.iter().any(|b| b == answer),
            "{line}: {answer} not in {best:?}"
        );
        // NBoard: hint lists the book's moves with their values, go plays a best one.
        let game = common::nboard_game(line);
        let script = format!("nboard 2\nset depth 1\nset game {game};)\nhint 2\ngo\nquit\n");
        let out = common::othbook()
            .args(["nboard", "--time", "0.2", "--hash", "1", "--book"])
            .arg(&path)
            .write_stdin(script)
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        let hints: Vec<Vec<&str>> = text
            .lines()
            .filter(|l| l.starts_with("book "))
            .map(|l| l.split_whitespace().collect())
            .collect();
        // NBoard lists moves that the position's symmetry makes equal each on its own.
        assert!(!hints.is_empty(), "{text}");
        assert!(best.iter().any(|b| b == hints[0][1]), "{text}");
        assert_eq!(
            hints[0][2].parse::<f64>().unwrap(),
            moves[0].score.discs(),
            "{text}"
        );
        let go = text.lines().find(|l| l.starts_with("=== ")).unwrap();
        let played = go[4..].split('/').next().unwrap();
        assert!(
            best.iter().any(|b| b == played),
            "{line}: {go} not in {best:?}"
        );
    }
}

#[test]
fn a_player_does_not_take_a_book_move_worse_than_an_unnamed_score() {
    // After f5, white's record has a value (+2 for white) but no leaf; d6 leads into the
    // book at −1 for white. The best move is out of the book and unnamed: the book must
    // not choose d6, and the player searches instead.
    let line = |s: &str| {
        Position::START
            .replay(parse_moves(s).unwrap())
            .unwrap()
            .end
            .board
    };
    let bits = |b: &Board| (b.player().0, b.opponent().0);
    let mut eg = b"DICUORAGE\x02".to_vec();
    eg.extend(2i32.to_le_bytes());
    eg.extend(egbk2_record(bits(&line("f5")), 2, 8, &[]));
    eg.extend(egbk2_record(bits(&line("f5d6")), 1, 8, &[]));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("p.egbk2"), &eg).unwrap();
    ok(d, &["book", "import", "p.egbk2", "-o", "p.book"]);
    let book = Book::open(d.join("p.book")).unwrap();
    let after = line("f5");
    assert_eq!(book.value(&after).map(|s| s.score), Some(200));
    let listed = book.best_moves(&after);
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0].score.score, -100);
    let mut rng = othbook::play::search::Rng::new(1);
    let pick = othbook::play::book_choice::choose(&book, &after, 0.0, &mut rng).unwrap();
    assert_eq!(
        pick, None,
        "the book chose a move worth less than its value"
    );
}

#[test]
fn top_by_value_walks_the_positions_of_an_imported_book() {
    // An evaluated WTHOR book through Edax's format: the same positions, no games.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    evaluated_wthor(d, None);
    ok(
        d,
        &["book", "export", "w.book", "--to", "edax", "-o", "w.dat"],
    );
    ok(d, &["book", "import", "w.dat", "-o", "imported.book"]);
    let book = Book::open(d.join("imported.book")).unwrap();
    let out = ok(
        d,
        &[
            "top",
            "--by",
            "value",
            "--book",
            "imported.book",
            "--plies",
            "8",
            "--limit",
            "50",
        ],
    );
    let rows: Vec<(String, f64)> = out
        .lines()
        .filter(|l| {
            l.trim_start()
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        })
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[1].to_string(), f[f.len() - 1].parse().unwrap())
        })
        .collect();
    assert_eq!(rows.len(), 50, "{out}");
    let mut seen = std::collections::HashSet::new();
    for w in rows.windows(2) {
        assert!(w[0].1 >= w[1].1, "best first: {out}");
    }
    for (line, value) in &rows {
        let moves = parse_moves(line).unwrap();
        assert_eq!(moves.len(), 8, "{line}");
        // Every position along the line is in the book, and the value is the book's.
        let mut pos = Position::START;
        for mv in moves {
            pos = pos.play(mv).unwrap();
            assert!(book.value(&pos.board).is_some(), "{line}: left the book");
        }
        let v = book.value(&pos.board).unwrap().discs();
        let black = if pos.side == othbook::board::Color::Black {
            v
        } else {
            -v
        };
        assert_eq!(black, *value, "{line}");
        assert!(seen.insert(line.clone()), "{line} twice");
    }
    // Every line of games is a line through the book's positions (up to the images that
    // symmetric positions make equal): none reaches a better value than the first row.
    let games = ok(
        d,
        &["top", "--book", "w.book", "--plies", "8", "--limit", "500"],
    );
    let original = Book::open(d.join("w.book")).unwrap();
    let mut best_game_line = f64::MIN;
    for l in games.lines().filter_map(|l| l.split_whitespace().nth(1)) {
        let Ok(moves) = parse_moves(l) else { continue };
        if moves.len() != 8 {
            continue;
        }
        let end = Position::START.replay(moves).unwrap().end;
        if let Some(v) = original.value(&end.board) {
            let v = (v.discs()).round();
            let black = if end.side == othbook::board::Color::Black {
                v
            } else {
                -v
            };
            best_game_line = best_game_line.max(black);
        }
    }
    assert!(best_game_line > f64::MIN, "{games}");
    assert!(
        rows[0].1 >= best_game_line,
        "{best_game_line} above the first row: {out}"
    );
}
