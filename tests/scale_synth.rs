//! The scale benchmark's game generator (benches/scale/synth.rs): the same files at any
//! thread count, other files for another seed, legal and finished games whose results agree
//! with the board, read by othbook's reader and built into a book with every game counted;
//! real lines followed exactly as far as other real games share them.

mod common;
#[path = "../benches/scale/synth.rs"]
mod synth;

use othbook::board::{parse_moves, Move, Position, Symmetry};
use othbook::book::Book;
use othbook::transcript::{ingest, IngestOptions};
use std::path::{Path, PathBuf};
use synth::{Kind, Openings};

/// The collection's files made on `threads` threads, and their bytes.
fn make(
    dir: &Path,
    kind: Kind<'_>,
    seed: u64,
    games: u64,
    threads: usize,
) -> (Vec<PathBuf>, Vec<u8>) {
    make_named(dir, kind, seed, games, threads, 0)
}

/// [`make`] with a pool of `players` players (CSV files naming them and the year).
fn make_named(
    dir: &Path,
    kind: Kind<'_>,
    seed: u64,
    games: u64,
    threads: usize,
    players: u64,
) -> (Vec<PathBuf>, Vec<u8>) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let (files, size) = pool
        .install(|| synth::write_collection(dir, kind, seed, games, players))
        .unwrap();
    let bytes: Vec<u8> = files
        .iter()
        .flat_map(|f| std::fs::read(f).unwrap())
        .collect();
    assert_eq!(bytes.len() as u64, size);
    (files, bytes)
}

/// Reads `files` strictly: every game must replay, and no result may disagree with the board.
fn read_all(files: &[PathBuf], games: usize) {
    let strict = IngestOptions {
        strict: true,
        ..IngestOptions::default()
    };
    let read = ingest(files, &strict).unwrap();
    assert_eq!(read.games.len(), games);
    assert_eq!(
        read.summary.incomplete, 0,
        "every game is played to its end"
    );
    assert!(
        read.summary.warnings.is_empty(),
        "{:?}",
        read.summary.warnings
    );
    assert!(read.games.iter().all(|g| g.complete && g.result.is_some()));
}

#[test]
fn random_collections_are_reproducible_legal_and_build_into_a_book() {
    let tmp = tempfile::tempdir().unwrap();
    // Several blocks of parallel work, so that the thread count could change the order.
    let games = 5_000;
    let (files, one) = make(&tmp.path().join("a"), Kind::Random, 7, games, 1);
    let (_, two) = make(&tmp.path().join("b"), Kind::Random, 7, games, 2);
    assert!(
        one == two,
        "the same seed gives the same bytes on 1 and 2 threads"
    );
    let (_, other) = make(&tmp.path().join("c"), Kind::Random, 8, games, 2);
    assert!(one != other, "another seed gives other games");
    assert_eq!(one.iter().filter(|&&b| b == b'\n').count() as u64, games);
    read_all(&files, games as usize);

    let book = tmp.path().join("random.book");
    let mut build = common::othbook();
    build.arg("build").args(&files).arg("-o").arg(&book);
    build
        .args(["--plies", "60", "--min-games", "1"])
        .assert()
        .success();
    let book = Book::open(&book).unwrap();
    assert_eq!(book.info().games, games);
    let start = book.probe(&Position::START.board).unwrap();
    assert_eq!(start.games(), games);
    assert_eq!(start.known(), games, "every game's result is in the book");
}

/// A line given as text, turned by `sym`.
fn line(text: &str, sym: Symmetry) -> String {
    let moves: Vec<Move> = parse_moves(text).unwrap();
    let turned: Vec<Move> = moves.iter().map(|m| sym.apply_move(*m)).collect();
    othbook::board::format_moves(&turned)
}

#[test]
fn openings_are_followed_as_far_as_real_games_share_them() {
    // Two lines sharing 6 plies, one given in another orientation, and a third sharing only
    // f5 with them (given as its d3 image): games follow 6 plies of the first two, 1 of the
    // third, always in the f5 orientation.
    let tiger = "f5d6c3d3c4f4f6f3e6e7";
    let turned = Symmetry::START
        .into_iter()
        .find(|s| s.apply_move(parse_moves("f5").unwrap()[0]) != parse_moves("f5").unwrap()[0])
        .unwrap();
    let source = format!(
        "{}\n{}\n{}\n",
        line(tiger, turned),
        "f5d6c3d3c4f4c5",
        line("f5f6e6f4", turned)
    );
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("lines.txt");
    std::fs::write(&file, source).unwrap();
    let openings = Openings::load(&[file]).unwrap();
    assert_eq!(openings.len(), 3);
    assert!((openings.mean_follow() - 13.0 / 3.0).abs() < 1e-9);
    // Collections are named by the lines whatever their orientation.
    let upright = |t: &[&str]| Openings::from_lines(t.iter().map(|l| parse_moves(l).unwrap()));
    let same = upright(&[tiger, "f5d6c3d3c4f4c5", "f5f6e6f4"]);
    assert_eq!(same.fingerprint(), openings.fingerprint());
    assert_ne!(
        upright(&[tiger, "f5f6e6f4"]).fingerprint(),
        openings.fingerprint()
    );

    let shared = &parse_moves(tiger).unwrap()[..6];
    let mut counts = [0usize; 2];
    let mut moves = Vec::new();
    for i in 0..300 {
        let played = synth::game(Kind::Openings(&openings), 3, i, &mut moves);
        match played.followed {
            6 => {
                assert_eq!(&moves[..6], shared, "game {i}");
                counts[0] += 1;
            }
            1 => {
                assert_eq!(moves[0], shared[0], "game {i}");
                counts[1] += 1;
            }
            n => panic!("game {i} followed {n} plies"),
        }
    }
    // Two lines in three are followed for 6 plies: 200 expected, far from either bound.
    assert!(counts[0] > 150 && counts[1] > 50, "{counts:?}");

    let (files, _) = make(&tmp.path().join("o"), Kind::Openings(&openings), 3, 300, 2);
    read_all(&files, 300);
}

/// With players, each game names two of the pool and a year, in CSV: the moves are those of
/// the collection without players, some players play far more games than others, and the
/// filters find them in the book.
#[test]
fn named_collections_keep_the_moves_and_name_players_and_years() {
    let tmp = tempfile::tempdir().unwrap();
    let games = 3_000;
    let (plain, _) = make(&tmp.path().join("a"), Kind::Random, 5, games, 2);
    let (named, one) = make_named(&tmp.path().join("b"), Kind::Random, 5, games, 1, 50);
    let (_, two) = make_named(&tmp.path().join("c"), Kind::Random, 5, games, 2, 50);
    assert!(one == two, "the same bytes on 1 and 2 threads");
    read_all(&named, games as usize);
    let lines = |files: &[PathBuf]| -> Vec<Vec<Move>> {
        ingest(files, &IngestOptions::default())
            .unwrap()
            .games
            .into_iter()
            .map(|g| g.moves)
            .collect()
    };
    assert_eq!(lines(&plain), lines(&named), "the same games");
    let read = ingest(&named, &IngestOptions::default()).unwrap();
    let mut per_player = std::collections::BTreeMap::<String, u64>::new();
    for g in &read.games {
        let year = g.year.expect("a year");
        assert!((1977..=2026).contains(&year), "{year}");
        for p in [&g.black, &g.white] {
            *per_player.entry(p.clone().expect("a player")).or_default() += 1;
        }
    }
    let most = per_player.values().max().copied().unwrap_or(0);
    let least = per_player.values().min().copied().unwrap_or(0);
    assert!(most > 10 * least.max(1), "skewed: {most} against {least}");

    let book = tmp.path().join("named.book");
    common::othbook()
        .arg("build")
        .args(&named)
        .arg("-o")
        .arg(&book)
        .args(["--plies", "20", "--min-games", "2"])
        .assert()
        .success();
    let first = synth::player_name(0);
    let assert = common::othbook()
        .args(["games", "find", "--book"])
        .arg(&book)
        .args([
            "--player",
            &first,
            "--years",
            "1990-1999",
            "--format",
            "json",
        ])
        .assert()
        .success();
    let out = assert.get_output();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let want = read
        .games
        .iter()
        .filter(|g| g.year.is_some_and(|y| (1990..=1999).contains(&y)))
        .filter(|g| {
            [&g.black, &g.white]
                .iter()
                .any(|p| p.as_deref() == Some(first.as_str()))
        })
        .count();
    assert!(want > 0);
    assert_eq!(v["total"].as_u64(), Some(want as u64), "{v}");
}
