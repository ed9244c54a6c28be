//! Other programs' books: Edax `book.dat` imported (the shared ray1457 book), exported back,
//! an evaluated WTHOR book exported and read by the suite's own reader, Egaroucid's formats,
//! Edax's text form, bad files refused, and the importer fuzzed on damaged real bytes.

mod common;
use common::edax::*;
use common::{need, run_in};
use othbook::board::{parse_moves, Board, Position};
use othbook::book::interop::import_bytes;
use othbook::book::Book;
use proptest::prelude::*;
use std::collections::HashMap;
use std::path::Path;

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
    refused(
        &eg,
        "the header claims 2 positions, more than the 25 bytes after it can hold",
    );
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
    // An .egbk2 of the start (its value undefined) and the position after f5 alone: the
    // latter has a value and no moves, as Egaroucid's frontier positions do. Its value must
    // reach the start through the f5 link, and a player must not pretend to know its best
    // move.
    let start = Board::START;
    let f5 = parse_moves("f5").unwrap();
    let after = start.play_move(f5[0]).unwrap();
    let bits = |b: &Board| (b.player().0, b.opponent().0);
    let mut eg = b"DICUORAGE\x02".to_vec();
    eg.extend(2i32.to_le_bytes());
    eg.extend(egbk2_record(bits(&start), -126, 10, &[]));
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
    let bad = std::fs::read_to_string(d.join("ray.txt")).unwrap();
    refused(
        bad.replacen(",1,", ",x,", 1).as_bytes(),
        "line 1: level \"x\" is not a number",
    );
}

#[test]
fn regression_book_import_read_dash_as_a_file_name_and_dev_zero_forever() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = common::othbook()
        .current_dir(d)
        .args(["book", "import", "-", "-o", "piped.book"])
        .write_stdin(std::fs::read(need(RAY)).unwrap())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("1941 positions, 2077 links read"), "{text}");
    let (code, _, err) = run_in(d, &["book", "import", "/dev/zero", "-o", "zero.book"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("/dev/zero: a device"), "{err}");
    assert!(!d.join("zero.book").exists());
}

/// The canonical key of the position after `line` (`""`: the start).
fn key_after(line: &str) -> (u64, u64) {
    let b = Position::START
        .replay(parse_moves(line).unwrap())
        .unwrap()
        .end
        .board;
    canonical((b.player().0, b.opponent().0))
}

/// A small Edax book whose values and leaves a negamax would change, laid out as othbook's
/// export writes one: the start (value −2; its links, the four first moves, say −4), f5
/// (value 4; its leaf f6 +1 leads into the book), f5 f6, f5 d6 (no leaf: its value comes from
/// its link c3) and f5 d6 c3. Each record's links are its moves into the book but its leaf's.
fn inconsistent_edax() -> Vec<u8> {
    // (line, value, leaf: the line it leads to, or its score on the first move out)
    let spec: [(&str, i16, Option<&str>, Option<i8>); 5] = [
        ("", -2, None, None),
        ("f5", 4, Some("f5f6"), Some(1)),
        ("f5f6", -3, None, Some(-3)),
        ("f5d6", -2, None, None),
        ("f5d6c3", 2, None, Some(2)),
    ];
    let values: HashMap<_, _> = spec.iter().map(|s| (key_after(s.0), s.1)).collect();
    let mut recs = HashMap::new();
    for (line, value, leaf_to, leaf_score) in spec {
        let key = key_after(line);
        let board = Board::from_bits(key.0, key.1);
        let child = |sq| {
            let next = board.play(sq).unwrap();
            canonical((next.player().0, next.opponent().0))
        };
        let moves: Vec<_> = board.legal_moves().into_iter().collect();
        let leaf_move = match (leaf_to, leaf_score) {
            (Some(to), _) => moves.iter().find(|&&sq| child(sq) == key_after(to)),
            (None, Some(_)) => moves.iter().find(|&&sq| !values.contains_key(&child(sq))),
            (None, None) => None,
        };
        let leaf = match (leaf_move, leaf_score) {
            (Some(sq), Some(s)) => (s, sq.index()),
            _ => (-127, 65),
        };
        let links = moves
            .iter()
            .filter(|sq| sq.index() != leaf.1)
            .filter_map(|&sq| values.get(&child(sq)).map(|v| (-*v as i8, sq.index())))
            .collect();
        let rec = Rec {
            value,
            level: 10,
            links,
            leaf,
        };
        recs.insert(key, rec);
    }
    write_edax(10, 20, &recs)
}

#[test]
fn regression_an_inconsistent_edax_book_lost_positions_and_values_in_a_round_trip() {
    let crafted = inconsistent_edax();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("c.dat"), &crafted).unwrap();
    let out = ok(d, &["book", "import", "c.dat", "-o", "c.book"]);
    assert!(out.contains("5 positions, 6 links read"), "{out}");
    assert!(
        out.contains("3 values would change once negamaxed again"),
        "{out}"
    );
    assert!(out.contains("1 leaves lead into the book (kept"), "{out}");
    assert!(!out.contains("agrees"), "{out}");
    let book = Book::open(d.join("c.book")).unwrap();
    assert_eq!(book.value(&Board::START).unwrap().score, -200);
    // Edax: every position, value, link, leaf and level, and every byte.
    let out = ok(
        d,
        &["book", "export", "c.book", "--to", "edax", "-o", "back.dat"],
    );
    assert!(out.contains("5 positions written, 0 left out"), "{out}");
    let back = std::fs::read(d.join("back.dat")).unwrap();
    assert_eq!(read_edax(&back), read_edax(&crafted));
    assert_eq!(back, crafted);
    // Egaroucid: its export imports to the same book, which exports to the same bytes.
    ok(
        d,
        &[
            "book",
            "export",
            "c.book",
            "--to",
            "egaroucid",
            "-o",
            "c.egbk3",
        ],
    );
    ok(d, &["book", "import", "c.egbk3", "-o", "e.book"]);
    ok(
        d,
        &["book", "export", "e.book", "--to", "edax", "-o", "e.dat"],
    );
    assert_eq!(
        read_edax(&std::fs::read(d.join("e.dat")).unwrap()),
        read_edax(&crafted)
    );
    ok(
        d,
        &[
            "book",
            "export",
            "e.book",
            "--to",
            "egaroucid",
            "-o",
            "e.egbk3",
        ],
    );
    let eg = std::fs::read(d.join("c.egbk3")).unwrap();
    assert_eq!(std::fs::read(d.join("e.egbk3")).unwrap(), eg);
    // The repairs happen when asked.
    let fixed = ok(d, &["book", "fix", "c.book", "-o", "fixed.book"]);
    assert!(fixed.contains("1 leaves dropped"), "{fixed}");
}

/// `book.dat` bytes of the start alone, at `level`, with `value` and a leaf f5 scored −4.
fn start_alone(level: u8, value: i16) -> Vec<u8> {
    let key = key_after("");
    let board = Board::from_bits(key.0, key.1);
    let f5 = board.legal_moves().into_iter().next().unwrap().index();
    let rec = Rec {
        value,
        level,
        links: vec![],
        leaf: (-4, f5),
    };
    write_edax(10, 20, &HashMap::from([(key, rec)]))
}

#[test]
fn regression_book_import_took_impossible_levels_and_values_silently() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Level 255 in the binary form and 61 in the text form: the same repair, named.
    std::fs::write(d.join("l.dat"), start_alone(255, -4)).unwrap();
    let out = ok(d, &["book", "import", "l.dat", "-o", "l.book"]);
    assert!(
        out.contains("1 levels were outside 0 to 60 (such as 255): read as level 0"),
        "{out}"
    );
    let text = format!(
        "{}OX{}XO{} X,61,F5,-4\n",
        "-".repeat(27),
        "-".repeat(6),
        "-".repeat(27)
    );
    std::fs::write(d.join("l.txt"), text).unwrap();
    let out = ok(d, &["book", "import", "l.txt", "-o", "t.book"]);
    assert!(
        out.contains("1 levels were outside 0 to 60 (such as 61)"),
        "{out}"
    );
    // An Egaroucid level of −5 (−1 is its "undefined").
    ok(
        d,
        &[
            "book",
            "export",
            "l.book",
            "--to",
            "egaroucid",
            "-o",
            "l.egbk3",
        ],
    );
    let mut eg = std::fs::read(d.join("l.egbk3")).unwrap();
    eg[14 + 17] = -5i8 as u8;
    std::fs::write(d.join("n.egbk3"), eg).unwrap();
    let out = ok(d, &["book", "import", "n.egbk3", "-o", "n.book"]);
    assert!(
        out.contains("1 levels were outside 0 to 60 (such as -5)"),
        "{out}"
    );
    // A value outside ±64 is not compared, and agreement is not claimed for it.
    std::fs::write(d.join("v.dat"), start_alone(10, 100)).unwrap();
    let out = ok(d, &["book", "import", "v.dat", "-o", "v.book"]);
    assert!(!out.contains("agrees"), "{out}");
    assert!(out.contains("the file holds no values"), "{out}");
}

#[test]
fn regression_an_egaroucid_leaf_move_out_of_range_was_read_as_no_leaf() {
    // One record, the start, whose leaf move is 100: neither a square, a pass nor undefined.
    let mut one = b"DICUORAGE\x03".to_vec();
    one.extend(1i32.to_le_bytes());
    let start = canonical((Board::START.player().0, Board::START.opponent().0));
    one.extend(start.0.reverse_bits().to_le_bytes());
    one.extend(start.1.reverse_bits().to_le_bytes());
    one.extend([0, 1, 0, 0, 0, 0, 0, 100, 1]);
    refused(&one, "position 1: leaf move 100 is not a square");
}
