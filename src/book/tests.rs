//! Unit tests of the book: independent counts, symmetry, merge, determinism, corruption.

use super::*;
use crate::board::{parse_moves, Board, Move, Position, Square, Symmetry};
use crate::transcript::{GameRecord, GameResult, Location, SourceRef};
use std::collections::HashMap;
use std::sync::Arc;

/// A game record from a move string (passes implied), with a result.
pub(crate) fn record(moves: &str, diff: Option<i32>, file: &str) -> GameRecord {
    let replay = Position::START
        .replay(parse_moves(moves).expect("move string"))
        .expect("legal game");
    let complete = replay.end.board.is_game_over();
    GameRecord {
        start: Position::START,
        moves: replay.moves,
        result: diff.map(|d| GameResult {
            disc_diff: d,
            raw: d.to_string(),
        }),
        black: Some("Alice".into()),
        white: Some("Bob".into()),
        event: Some("Test cup".into()),
        place: None,
        date: None,
        year: Some(2000),
        source: SourceRef {
            file: Arc::from(file),
            location: Location::Line(1),
        },
        complete,
    }
}

/// A pseudo-random legal game from a seed (random moves, passes when forced).
pub(crate) fn random_game(seed: u64, max_plies: usize, file: &str) -> GameRecord {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut pos = Position::START;
    let mut moves = Vec::new();
    while moves.len() < max_plies && !pos.board.is_game_over() {
        let legal: Vec<Square> = pos.board.legal_moves().iter().collect();
        let mv = if legal.is_empty() {
            Move::Pass
        } else {
            Move::Play(legal[(next() % legal.len() as u64) as usize])
        };
        pos = pos.play(mv).expect("legal");
        moves.push(mv);
    }
    let diff = match next() % 4 {
        0 => None,
        _ => Some((next() % 21) as i32 - 10),
    };
    let mut g = record("", diff, file);
    g.complete = pos.board.is_game_over();
    g.moves = moves;
    g.year = Some(1990 + (seed % 20) as u16);
    g
}

fn options(plies: u8, min_games: u32) -> BuildOptions {
    filtered(plies, min_games, GameFilter::default())
}

fn min_games(min: u32) -> MinGames {
    MinGames::new(min).unwrap()
}

fn filtered(plies: u8, min_games: u32, filter: GameFilter) -> BuildOptions {
    BuildOptions::new(plies, min_games, filter).unwrap()
}

/// A filter of a player (with a side), years and completeness.
fn filter(
    player: Option<&str>,
    side: PlayerColor,
    years: Option<(u16, u16)>,
    complete_only: bool,
) -> GameFilter {
    GameFilter::new(
        player.map(str::to_string),
        side,
        years.map(|(a, b)| Years::new(a, b).unwrap()),
        None,
        complete_only,
    )
    .unwrap()
}

fn build_bytes(games: &[GameRecord], opts: &BuildOptions) -> Vec<u8> {
    let (data, _) = build(games, opts, 1_700_000_000, &|_| {}).expect("build");
    encode(&data).expect("encode")
}

fn games(n: u64, plies: usize) -> Vec<GameRecord> {
    (0..n)
        .map(|i| {
            random_game(
                i % (n / 3 + 1),
                plies,
                if i % 2 == 0 { "a.gam" } else { "b.gam" },
            )
        })
        .collect()
}

/// Counts done the plain way: every position of every game by `Board::canonical`.
fn naive(games: &[GameRecord], plies: usize) -> HashMap<Board, (u64, Stats)> {
    let mut map: HashMap<Board, (u64, Stats)> = HashMap::new();
    for g in games {
        let mut pos = Position::START;
        let outcome = Outcome::from_disc_diff(g.result.as_ref().map(|r| r.disc_diff));
        for i in 0..=g.moves.len().min(plies) {
            let mover = match pos.side {
                crate::board::Color::Black => outcome,
                crate::board::Color::White => outcome.flipped(),
            };
            let e = map.entry(pos.board.canonical().0).or_default();
            e.0 += 1;
            e.1 = e.1.checked_add(&mover.stats()).unwrap();
            if i < g.moves.len() {
                pos = pos.play(g.moves[i]).unwrap();
            }
        }
    }
    map
}

#[test]
fn probe_matches_an_independent_count() {
    let gs = games(300, 20);
    let book = Book::from_bytes(build_bytes(&gs, &options(12, 1)), "t").unwrap();
    let want = naive(&gs, 12);
    assert_eq!(book.counts().0, want.len() as u64);
    for (board, (n, stats)) in &want {
        let got = book.probe(board).expect("position in book");
        assert_eq!(got.games(), *n);
        assert_eq!(got, *stats);
        let moves = book.moves(board);
        let total: u64 = moves.iter().map(|m| m.1.games()).sum();
        assert!(total <= *n);
        for (mv, _) in &moves {
            let legal = match mv {
                Move::Play(sq) => board.legal_moves().contains(*sq),
                Move::Pass => board.must_pass(),
            };
            assert!(legal, "{mv} listed but illegal");
        }
    }
    let nowhere = Board::from_bits(1, 2);
    assert_eq!(book.probe(&nowhere), None);
    assert!(book.moves(&nowhere).is_empty());
}

#[test]
fn pruning_keeps_exact_counts() {
    let gs = games(300, 20);
    let book = Book::from_bytes(build_bytes(&gs, &options(12, 3)), "t").unwrap();
    let want = naive(&gs, 12);
    let kept = want.values().filter(|v| v.0 >= 3).count() as u64;
    assert_eq!(book.counts().0, kept);
    for (board, (n, stats)) in &want {
        match book.probe(board) {
            Some(got) => assert_eq!((*n, got), (got.games(), *stats)),
            None => assert!(*n < 3),
        }
        assert!(book.moves(board).iter().all(|m| m.1.games() >= 3));
    }
}

#[test]
fn start_symmetries_of_the_games_give_identical_books() {
    // The game tables differ (they keep the games as played): the statistics do not.
    let build_bytes = |games: &[GameRecord], opts: &BuildOptions| {
        let (mut data, _) = build(games, opts, 1_700_000_000, &|_| {}).expect("build");
        data.games = None;
        encode(&data).expect("encode")
    };
    let gs = games(120, 30);
    let reference = build_bytes(&gs, &options(20, 1));
    for s in Symmetry::START {
        let moved: Vec<GameRecord> = gs
            .iter()
            .map(|g| {
                let mut g = g.clone();
                g.moves = g.moves.iter().map(|m| s.apply_move(*m)).collect();
                g
            })
            .collect();
        assert!(build_bytes(&moved, &options(20, 1)) == reference, "{s:?}");
    }
}

#[test]
fn all_eight_images_of_a_position_give_the_same_numbers() {
    let gs = games(200, 30);
    let book = Book::from_bytes(build_bytes(&gs, &options(16, 1)), "t").unwrap();
    for g in gs.iter().take(40) {
        let mut pos = Position::START;
        for mv in g.moves.iter().take(10) {
            pos = pos.play(*mv).unwrap();
        }
        let base = book.probe(&pos.board).expect("in book");
        let base_moves = book.moves(&pos.board);
        for s in Symmetry::ALL {
            let img = pos.board.transform(s);
            assert_eq!(book.probe(&img), Some(base));
            let moves = book.moves(&img);
            let stats: Vec<Stats> = moves.iter().map(|m| m.1).collect();
            let base_stats: Vec<Stats> = base_moves.iter().map(|m| m.1).collect();
            let mut a = stats.clone();
            let mut b = base_stats.clone();
            a.sort_by_key(|s| (s.games(), s.wins, s.disc_sum));
            b.sort_by_key(|s| (s.games(), s.wins, s.disc_sum));
            assert_eq!(a, b);
            for (mv, st) in &moves {
                // The move shown is in the image's orientation: playing it there reaches
                // the image of the position that move leads to.
                let child = img.play_move(*mv).unwrap();
                assert!(book.probe(&child).unwrap().games() >= st.games());
            }
        }
    }
}

/// The book lists the four equivalent first moves under f5 only: a query for d3 at the start
/// must find f5's games, not say d3 was never played.
#[test]
fn move_stats_count_a_move_equivalent_by_symmetry_as_the_book_move() {
    let gs = games(200, 30);
    let book = Book::from_bytes(build_bytes(&gs, &options(16, 1)), "t").unwrap();
    let start = Position::START.board;
    let listed = book.moves(&start);
    assert_eq!(listed.len(), 1, "{listed:?}");
    let (first, all) = listed[0];
    assert_eq!(first, Move::Play(Square::F5));
    for mv in start.legal_moves().iter() {
        let st = book.try_move_stats(&start, Move::Play(mv)).unwrap();
        assert_eq!(st, Some(all), "{mv}");
    }
    // Along a game: every legal move gets the stats of the listed move that reaches the same
    // position up to symmetry, and a move no game played gets none.
    let mut pos = Position::START;
    let mut unplayed = 0;
    for mv in gs[0].moves.iter().take(12) {
        let listed = book.moves(&pos.board);
        for m in pos.board.legal_moves().iter().map(Move::Play) {
            let child = pos.board.play_move(m).unwrap().canonical().0;
            let want = listed
                .iter()
                .find(|(l, _)| pos.board.play_move(*l).unwrap().canonical().0 == child)
                .map(|(_, s)| *s);
            unplayed += usize::from(want.is_none());
            assert_eq!(book.try_move_stats(&pos.board, m).unwrap(), want, "{m}");
        }
        pos = pos.play(*mv).unwrap();
    }
    assert!(unplayed > 0);
}

#[test]
fn merge_equals_build_and_prunes_at_the_end() {
    let gs = games(400, 24);
    for min in [1, 2, 5] {
        let whole = build_bytes(&gs, &options(14, min));
        let (a, _) = build(&gs[..150], &options(14, 1), 1_700_000_000, &|_| {}).unwrap();
        let (b, _) = build(&gs[150..], &options(14, 1), 1_600_000_000, &|_| {}).unwrap();
        let merged = BookData::merge(&[a.clone(), b.clone()], min_games(min)).unwrap();
        assert!(encode(&merged).unwrap() == whole, "min {min}");
        // Through files: read back, merge again.
        let ra = Book::from_bytes(encode(&a).unwrap(), "a")
            .unwrap()
            .to_data()
            .unwrap();
        let rb = Book::from_bytes(encode(&b).unwrap(), "b")
            .unwrap()
            .to_data()
            .unwrap();
        assert_eq!(ra, a);
        let merged = BookData::merge(&[rb, ra], min_games(min)).unwrap();
        assert!(encode(&merged).unwrap() == whole, "min {min}, reversed");
    }
    let (pruned, _) = build(&gs, &options(14, 2), 0, &|_| {}).unwrap();
    assert!(BookData::merge(&[pruned.clone(), pruned], min_games(2)).is_err());
    let (other, _) = build(&gs, &options(13, 1), 0, &|_| {}).unwrap();
    let (a, _) = build(&gs, &options(14, 1), 0, &|_| {}).unwrap();
    assert!(BookData::merge(&[a, other], MinGames::ONE).is_err());
}

#[test]
fn option_differences_name_every_merge_option_that_differs() {
    let base = options(20, 1);
    assert_eq!(base.differences(&options(20, 3)), []);
    let x = || Some("x".to_string());
    let either = PlayerColor::Either;
    let changes = [
        ("--plies", options(21, 1)),
        (
            "--player",
            filtered(
                20,
                1,
                GameFilter::new(x(), either, None, None, false).unwrap(),
            ),
        ),
        (
            "--player-side",
            // Against a base with the player: only the side differs.
            filtered(
                20,
                1,
                GameFilter::new(x(), PlayerColor::White, None, None, false).unwrap(),
            ),
        ),
        (
            "--years",
            filtered(20, 1, filter(None, either, Some((1990, 1991)), false)),
        ),
        (
            "--event",
            filtered(
                20,
                1,
                GameFilter::new(None, either, None, Some("Cup".into()), false).unwrap(),
            ),
        ),
        (
            "--complete-only",
            filtered(20, 1, filter(None, either, None, true)),
        ),
    ];
    let with_player = filtered(
        20,
        1,
        GameFilter::new(x(), either, None, None, false).unwrap(),
    );
    for (name, other) in changes {
        let base = if name == "--player-side" {
            &with_player
        } else {
            &base
        };
        let d = other.differences(base);
        assert_eq!(d.len(), 1, "{name}: {d:?}");
        assert_eq!(d[0].option, name);
        assert_ne!(d[0].value, d[0].other, "{name}");
    }
}

#[test]
fn thread_count_and_input_order_do_not_change_the_bytes() {
    let gs = games(500, 40);
    let run = |threads: usize, games: &[GameRecord]| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| build_bytes(games, &options(30, 2)))
    };
    let one = run(1, &gs);
    assert!(run(3, &gs) == one);
    assert!(run(8, &gs) == one);
    let mut reversed = gs.clone();
    reversed.reverse();
    assert!(run(2, &reversed) == one);
}

#[test]
fn file_round_trip_and_mmap_agree_with_plain_read() {
    let gs = games(200, 30);
    let (data, _) = build(&gs, &options(20, 1), 42, &|_| {}).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.book");
    let written = write_book(&path, &data).unwrap();
    assert_eq!(written, std::fs::metadata(&path).unwrap().len());
    let mapped = Book::open(&path).unwrap();
    assert!(mapped.is_mapped());
    let plain = Book::open_with(
        &path,
        OpenOptions {
            mmap: false,
            verify_all: true,
        },
    )
    .unwrap();
    assert!(!plain.is_mapped());
    let lazy = Book::open_lazy(&path).unwrap();
    assert_eq!(mapped.to_data().unwrap(), data);
    assert_eq!(plain.to_data().unwrap(), data);
    for board in naive(&gs, 20).keys() {
        let a = mapped.probe(board);
        assert!(a.is_some());
        assert_eq!(a, plain.probe(board));
        assert_eq!(a, lazy.try_probe(board).unwrap());
        assert_eq!(mapped.moves(board), plain.moves(board));
    }
    assert_eq!(
        mapped.top(6, 20, RankBy::Games, Square::D3).unwrap(),
        plain.top(6, 20, RankBy::Games, Square::D3).unwrap()
    );
    // Only the finished file is in the folder.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn top_lines_match_an_independent_prefix_count() {
    let gs = games(600, 30);
    let book = Book::from_bytes(build_bytes(&gs, &options(12, 1)), "t").unwrap();
    for plies in [1, 4, 8] {
        let mut want: HashMap<String, u64> = HashMap::new();
        for g in &gs {
            if g.moves.len() >= plies {
                let (norm, _) = crate::board::normalize_line(&g.moves[..plies]);
                *want.entry(crate::board::format_moves(&norm)).or_default() += 1;
            }
        }
        let lines = book
            .top(plies, usize::MAX, RankBy::Games, Square::F5)
            .unwrap();
        assert_eq!(lines.len(), want.len());
        for l in &lines {
            assert_eq!(want[&crate::board::format_moves(&l.moves)], l.stats.games());
            assert_eq!(book.line(&l.moves).unwrap(), Some(l.stats));
        }
        assert!(lines
            .windows(2)
            .all(|w| w[0].stats.games() >= w[1].stats.games()));
    }
}

#[test]
fn filters_select_games() {
    let mut gs = games(100, 20);
    gs[3].black = Some("Takeshi Murakami".into());
    gs[7].white = Some("takeshi murakami".into());
    let murakami = |side| filtered(10, 1, filter(Some("MURAKAMI"), side, None, false));
    let (data, report) = build(&gs, &murakami(PlayerColor::Either), 0, &|_| {}).unwrap();
    assert_eq!((data.info.games, report.filtered_out), (2, 98));
    let opts = murakami(PlayerColor::White);
    assert_eq!(build(&gs, &opts, 0, &|_| {}).unwrap().0.info.games, 1);
    let opts = filtered(
        10,
        1,
        filter(None, PlayerColor::Either, Some((1990, 1994)), false),
    );
    let want = gs.iter().filter(|g| g.year.unwrap() <= 1994).count() as u64;
    assert_eq!(build(&gs, &opts, 0, &|_| {}).unwrap().0.info.games, want);
    let opts = filtered(10, 1, filter(None, PlayerColor::Either, None, true));
    let want = gs.iter().filter(|g| g.complete).count() as u64;
    assert_eq!(build(&gs, &opts, 0, &|_| {}).unwrap().0.info.games, want);
}

fn small_book() -> Vec<u8> {
    build_bytes(&games(40, 20), &options(8, 1))
}

#[test]
fn every_flipped_byte_is_an_error_not_a_panic() {
    let bytes = small_book();
    for i in 0..bytes.len() {
        for mask in [0x01, 0x80, 0xFF] {
            let mut b = bytes.clone();
            b[i] ^= mask;
            assert!(Book::from_bytes(b, "t").is_err(), "byte {i} mask {mask:#x}");
        }
    }
}

#[test]
fn truncated_empty_foreign_and_newer_files_are_errors() {
    let bytes = small_book();
    for len in 0..bytes.len() {
        let err = Book::from_bytes(bytes[..len].to_vec(), "t")
            .err()
            .expect("error");
        let text = err.to_string();
        assert!(!text.is_empty());
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(Book::from_bytes(longer, "t").is_err());
    let empty = Book::from_bytes(Vec::new(), "t").err().unwrap().to_string();
    assert!(empty.contains("empty"), "{empty}");
    let foreign = Book::from_bytes(
        b"PK\x03\x04 definitely a zip file, not a book".to_vec(),
        "t",
    );
    assert!(foreign
        .err()
        .unwrap()
        .to_string()
        .contains("not an othbook book"));
    let mut newer = bytes.clone();
    newer[8..12].copy_from_slice(&(VERSION + 1).to_le_bytes());
    let msg = Book::from_bytes(newer, "t").err().unwrap().to_string();
    assert!(msg.contains("newer"), "{msg}");
}

#[test]
fn lazy_open_reports_damage_when_the_damaged_block_is_read() {
    let gs = games(3000, 40);
    let bytes = build_bytes(&gs, &options(40, 1));
    assert!(bytes.len() > 4 << 16, "needs several blocks");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.book");
    let good = Book::from_bytes(bytes.clone(), "t").unwrap();
    let table = good.position_table();
    let mut damaged = bytes.clone();
    let at = (table.start + table.end) / 2;
    damaged[at] ^= 0x10;
    std::fs::write(&path, &damaged).unwrap();
    assert!(Book::open(&path).is_err());
    let lazy = Book::open_lazy(&path).unwrap();
    assert!(lazy.verify().is_err());
    let mut errors = 0;
    for board in naive(&gs, 40).keys().take(20_000) {
        match lazy.try_probe(board) {
            Ok(found) => assert_eq!(found, good.probe(board)),
            Err(_) => errors += 1,
        }
    }
    assert!(errors > 0, "some probe should have read the damaged block");
}
