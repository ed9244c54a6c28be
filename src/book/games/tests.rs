//! Tests of the game table: byte round trips, damage, and the scan against the book's own
//! counts (every position, move and line of random books, with and without filters).

use super::*;
use crate::board::Square;
use crate::board::{Board, Move};
use crate::book::tests::random_game;
use crate::book::{build, encode, Book, BookData, BuildOptions, GameFilter, MinGames, PlayerColor};
use crate::book::{RankBy, TopQuery};
use crate::transcript::{GameRecord, Location};
use proptest::prelude::*;

fn games(n: u64, plies: usize) -> Vec<GameRecord> {
    seeded_games(n, plies, 0)
}

fn seeded_games(n: u64, plies: usize, seed: u64) -> Vec<GameRecord> {
    let names = ["Éric Pétré", "Bob", "Tamenori Hideshi", "Ålice"];
    let events = ["Cup", "World Championship", "Open de Paris"];
    (0..n)
        .map(|i| {
            let mut g = random_game(
                seed.wrapping_add(i % (n / 2 + 1)),
                plies,
                if i % 3 == 0 { "a.gam" } else { "b.wtb" },
            );
            g.black = (i % 7 != 0).then(|| names[(i % 4) as usize].to_string());
            g.white = Some(names[((i / 4) % 4) as usize].to_string());
            g.event = (i % 5 != 0).then(|| events[(i % 3) as usize].to_string());
            g.source.location = if i % 3 == 0 {
                Location::Line(i + 1)
            } else {
                Location::Record(i + 1)
            };
            if i % 11 == 0 {
                g.year = None;
            }
            g
        })
        .collect()
}

fn book_of(games: &[GameRecord], plies: u8, filter: GameFilter) -> (BookData, Book) {
    let opts = BuildOptions::new(plies, 1, filter).unwrap();
    let (data, _) = build(games, &opts, 1, &|_| {}).expect("build");
    let book = Book::from_bytes(encode(&data).expect("encode"), "t.book").expect("opens");
    (data, book)
}

/// Every position of the book, as boards (canonical keys are boards too).
fn boards(data: &BookData) -> Vec<Board> {
    data.positions
        .iter()
        .map(|p| Board::from_bits(p.key.player, p.key.opponent))
        .collect()
}

#[test]
fn table_round_trips_through_the_book_file() {
    let g = games(300, 60);
    let (data, book) = book_of(&g, 20, GameFilter::default());
    assert_eq!(book.version(), crate::book::VERSION);
    let table = book.games().expect("reads").expect("has games");
    assert_eq!(Some(&table), data.games.as_ref());
    assert_eq!(table.len(), 300);
    // Most recent first; unknown years last.
    let years: Vec<u16> = table.games().iter().map(|g| g.year.unwrap_or(0)).collect();
    assert!(years.windows(2).all(|w| w[0] >= w[1]));
    // The records give the games back.
    for i in 0..table.len() {
        let r = table.record(i).expect("record");
        assert!(g.iter().any(|x| x.moves == r.moves
            && x.black == r.black
            && x.source == r.source
            && x.result.as_ref().map(|r| r.disc_diff) == r.result.as_ref().map(|r| r.disc_diff)));
    }
}

#[test]
fn the_scan_finds_exactly_what_the_book_counts() {
    let g = games(400, 60);
    let (data, book) = book_of(&g, 16, GameFilter::default());
    let table = data.games.as_ref().expect("games");
    for board in boards(&data) {
        let found = table.find(&board, 16, None, 1).expect("scan");
        assert_eq!(Some(found.stats), book.probe(&board), "{board:?}");
        assert_eq!(found.moves, book.moves(&board), "{board:?}");
        assert_eq!(found.matches.len() as u64, found.stats.games());
        // Every image of the board finds the same games, with the next move turned with it.
        for s in crate::board::Symmetry::ALL {
            let image = board.transform(s);
            let other = table.find(&image, 16, None, 1).expect("scan");
            assert_eq!(other.stats, found.stats);
            for (a, b) in found.matches.iter().zip(&other.matches) {
                assert_eq!((a.game, a.ply), (b.game, b.ply));
                let same =
                    |m: Option<Move>| m.map(|m| crate::book::key::equivalent_moves(&image, m));
                assert_eq!(same(a.next.map(|m| s.apply_move(m))), same(b.next));
            }
        }
    }
}

#[test]
fn filters_at_query_time_agree_with_a_book_built_with_them() {
    let g = games(400, 60);
    let (all, _) = book_of(&g, 14, GameFilter::default());
    let table = all.games.as_ref().expect("games");
    let filters = [
        GameFilter::new(Some("PETRE".into()), PlayerColor::Either, None, None, false).unwrap(),
        GameFilter::new(
            Some("bob".into()),
            PlayerColor::White,
            Some(crate::book::Years::new(1995, 2005).unwrap()),
            None,
            false,
        )
        .unwrap(),
        GameFilter::new(
            None,
            PlayerColor::Either,
            None,
            Some("championship".into()),
            true,
        )
        .unwrap(),
    ];
    for filter in filters {
        let selection = GameSelection::new(&filter, table).expect("known names");
        let (filtered, book) = book_of(&g, 14, filter.clone());
        assert!(filtered.info.games > 0, "{filter:?} selects some games");
        for board in boards(&all) {
            let found = table.find(&board, 14, Some(&selection), 1).expect("scan");
            let expected = book.probe(&board);
            assert_eq!(
                expected.unwrap_or_default(),
                found.stats,
                "{filter:?} {board:?}"
            );
            assert_eq!(found.moves, book.moves(&board));
        }
        for plies in [3, 6, 10] {
            let query = TopQuery {
                start: &[],
                plies,
                limit: 50,
                by: RankBy::Games,
                min_games: 1,
                first: Square::D3,
            };
            let lines = table.top_lines(&query, 14, Some(&selection));
            assert_eq!(
                lines,
                book.top_lines(&query).expect("top"),
                "{filter:?} {plies}"
            );
        }
    }
}

#[test]
fn an_unknown_name_is_an_error_with_the_closest_names() {
    let g = games(50, 20);
    let table = GameTable::from_records(&g);
    let filter = GameFilter::new(
        Some("Tamenory".into()),
        PlayerColor::Either,
        None,
        None,
        false,
    )
    .unwrap();
    let e = GameSelection::new(&filter, &table).expect_err("unknown");
    let FilterError::UnknownName { kind, closest, .. } = &e else {
        panic!("{e:?}");
    };
    assert_eq!(*kind, NameKind::Player);
    assert_eq!(closest[0].0, "Tamenori Hideshi");
    assert!(e.to_string().contains("Tamenori Hideshi"), "{e}");
    // An event name is not a player name.
    let filter = GameFilter::new(
        Some("Open de Paris".into()),
        PlayerColor::Either,
        None,
        None,
        false,
    )
    .unwrap();
    assert!(GameSelection::new(&filter, &table).is_err());
}

#[test]
fn books_without_a_game_table_are_written_in_the_older_versions_and_open() {
    let g = games(60, 30);
    let (mut data, _) = book_of(&g, 10, GameFilter::default());
    data.games = None;
    let book = Book::from_bytes(encode(&data).expect("encode"), "old.book").expect("opens");
    assert_eq!(book.version(), 1);
    assert!(!book.has_games());
    assert_eq!(book.games().expect("no error"), None);
}

#[test]
fn a_damaged_game_table_is_a_clear_error() {
    let g = games(60, 30);
    let (data, book) = book_of(&g, 10, GameFilter::default());
    // A flipped byte in the table: the block checksum catches it.
    let mut bytes = encode(&data).expect("encode");
    let at = book.file_len() - book.data_blocks().count() * 8 - 3;
    bytes[at] ^= 0x20;
    let err = match Book::from_bytes(bytes, "bad.book") {
        Err(e) => e.to_string(),
        Ok(b) => b.games().expect_err("damaged").to_string(),
    };
    assert!(err.contains("checksum mismatch"), "{err}");
    // A table whose checksums are right but whose contents are impossible.
    let mut bad = data.clone();
    let table = bad.games.as_mut().expect("games");
    table.games[3].black = table.names.len() as u32 + 5;
    let book = Book::from_bytes(encode(&bad).expect("encode"), "bad.book").expect("opens");
    let err = book.games().expect_err("bad index").to_string();
    assert!(
        err.contains("game table: game 4 has a name index out of range"),
        "{err}"
    );
    let mut bad = data.clone();
    let table = bad.games.as_mut().expect("games");
    let first = table.games[0].moves_start as usize;
    table.moves[first] = 36;
    let book = Book::from_bytes(encode(&bad).expect("encode"), "bad.book").expect("opens");
    let err = book.games().expect_err("bad move").to_string();
    assert!(err.contains("game 1 has the move code 36"), "{err}");
}

#[test]
fn merging_concatenates_the_games_and_dedupe_drops_repeats() {
    let g = games(120, 40);
    let (a, _) = book_of(&g[..50], 12, GameFilter::default());
    let (b, _) = book_of(&g[50..], 12, GameFilter::default());
    let (whole, _) = book_of(&g, 12, GameFilter::default());
    let merged = BookData::merge(&[a, b], MinGames::ONE).expect("merge");
    assert_eq!(merged.games, whole.games);
    let table = whole.games.as_ref().expect("games");
    let deduped = table.deduped();
    // `games` repeats seeds: 120 games of 61 lines (some repeat by chance as well).
    assert!(
        deduped.len() <= 61 && deduped.len() > 30,
        "{}",
        deduped.len()
    );
}

fn any_game() -> impl Strategy<Value = GameRecord> {
    (
        any::<u64>(),
        0usize..70,
        proptest::option::of("[a-zA-Zéü ]{0,12}"),
        proptest::option::of("[a-z]{1,5}"),
        proptest::option::of(1u16..3000),
        proptest::option::of(-64i32..=64),
        any::<bool>(),
        0u64..1 << 31,
    )
        .prop_map(|(seed, plies, black, event, year, diff, line, at)| {
            let mut g = random_game(seed, plies, "x.ggf");
            g.black = black;
            g.white = None;
            g.event = event;
            g.year = year;
            g.result = diff.map(|d| crate::transcript::GameResult {
                disc_diff: d,
                raw: d.to_string(),
            });
            g.source.location = if line {
                Location::Line(at)
            } else {
                Location::Record(at)
            };
            g
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn game_tables_round_trip(list in proptest::collection::vec(any_game(), 0..40)) {
        let table = GameTable::from_records(&list);
        let mut bytes = Vec::new();
        table.encode(&mut bytes);
        let size = table.size();
        let r = size.games as usize * GAME_RECORD_SIZE;
        let m = r + size.move_bytes as usize;
        let o = m + (size.names as usize + 1) * 4;
        let back = GameTable::decode(&size, &bytes[..r], &bytes[r..m], &bytes[m..o], &bytes[o..])
            .expect("decodes");
        prop_assert_eq!(&back, &table);
        // Input order does not change the table.
        let mut reversed = list.clone();
        reversed.reverse();
        prop_assert_eq!(GameTable::from_records(&reversed), table);
    }
}

#[test]
fn merge_with_dedupe_counts_each_line_once() {
    let g = games(200, 40);
    let (a, _) = book_of(&g[..120], 12, GameFilter::default());
    let (b, _) = book_of(&g[60..], 12, GameFilter::default());
    let merged = BookData::merge_deduped(&[a, b], MinGames::new(2).unwrap()).expect("merge");
    let mut seen = std::collections::HashSet::new();
    let distinct: Vec<GameRecord> = g
        .iter()
        .filter(|x| seen.insert(crate::board::normalize_line(&x.moves).0))
        .cloned()
        .collect();
    let opts = BuildOptions::new(12, 2, GameFilter::default()).unwrap();
    let (expected, _) = build(&distinct, &opts, 1, &|_| {}).expect("build");
    assert_eq!(merged.info.games, distinct.len() as u64);
    assert_eq!(merged.positions, expected.positions);
    assert_eq!(merged.moves, expected.moves);
    assert_eq!(merged.nodes, expected.nodes);
    assert_eq!(
        merged.games.as_ref().map(GameTable::len),
        Some(distinct.len())
    );
    // A book without its games cannot be deduplicated.
    let (mut c, _) = book_of(&g[..10], 12, GameFilter::default());
    let (d, _) = book_of(&g[10..20], 12, GameFilter::default());
    c.games = None;
    let err = BookData::merge_deduped(&[d, c], MinGames::ONE)
        .expect_err("no games")
        .to_string();
    assert!(err.contains("book 2 has no game table"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Whatever the bytes (a table damaged in a way its checksums cannot see), decoding is an
    /// error or a table, never a panic; and the scan of a decoded table does not panic.
    #[test]
    fn any_bytes_decode_to_a_table_or_an_error(
        records in proptest::collection::vec(any::<u8>(), 0..240),
        moves in proptest::collection::vec(any::<u8>(), 0..200),
        offsets in proptest::collection::vec(any::<u8>(), 0..40),
        names in proptest::collection::vec(any::<u8>(), 0..40),
    ) {
        let records = &records[..records.len() / GAME_RECORD_SIZE * GAME_RECORD_SIZE];
        let offsets = &offsets[..offsets.len() / 4 * 4];
        let size = GameTableSize {
            games: (records.len() / GAME_RECORD_SIZE) as u64,
            move_bytes: moves.len() as u64,
            names: (offsets.len() / 4).saturating_sub(1) as u64,
            name_bytes: names.len() as u64,
        };
        if let Ok(table) = GameTable::decode(&size, records, &moves, offsets, &names) {
            let _ = table.find(&Board::START, 60, None, 1);
            let _ = table.name_counts();
            for i in 0..table.len() {
                let _ = table.record(i);
            }
        }
    }
}

fn indexed_book(games: &[GameRecord], plies: u8, min_games: u32) -> (GameTable, Book) {
    let opts = BuildOptions::new(plies, min_games, GameFilter::default()).unwrap();
    let (data, _) = build(games, &opts, 1, &|_| {}).expect("build");
    // A small memory budget: the postings are written in several windows.
    let bytes = crate::book::encode_with(&data, 1).expect("encode");
    let book = Book::from_bytes(bytes, "t.book").expect("opens");
    (data.games.expect("games"), book)
}

fn query_filters() -> Vec<Option<GameFilter>> {
    vec![
        None,
        Some(
            GameFilter::new(Some("PETRE".into()), PlayerColor::Either, None, None, false).unwrap(),
        ),
        Some(
            GameFilter::new(
                Some("bob".into()),
                PlayerColor::White,
                Some(crate::book::Years::new(1995, 2005).unwrap()),
                None,
                false,
            )
            .unwrap(),
        ),
        Some(
            GameFilter::new(
                None,
                PlayerColor::Either,
                None,
                Some("championship".into()),
                true,
            )
            .unwrap(),
        ),
        // Years alone: the index answers from the table's year order, reading no record.
        Some(
            GameFilter::new(
                None,
                PlayerColor::Either,
                Some(crate::book::Years::new(1995, 2000).unwrap()),
                None,
                false,
            )
            .unwrap(),
        ),
        // A range from year 0, which stands for "unknown" in a record: no such game passes.
        Some(
            GameFilter::new(
                None,
                PlayerColor::Either,
                Some(crate::book::Years::new(0, 1993).unwrap()),
                None,
                false,
            )
            .unwrap(),
        ),
        Some(GameFilter::new(None, PlayerColor::Either, None, None, true).unwrap()),
        Some(
            GameFilter::new(
                Some("nobody at all".into()),
                PlayerColor::Either,
                None,
                None,
                false,
            )
            .unwrap(),
        ),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]
    #[test]
    fn the_index_answers_as_the_scan_does(
        n in 10u64..160,
        plies in 2u8..61,
        min_games in 1u32..3,
        seed in any::<u64>(),
    ) {
        let g = seeded_games(n, 60, seed);
        let (table, book) = indexed_book(&g, plies, min_games);
        prop_assert_eq!(book.version(), crate::book::VERSION);
        let ix = book.indexed_games().expect("reads").expect("indexed");
        prop_assert_eq!(ix.len(), table.len());
        // Every book position, and positions the book does not hold (deeper than its
        // plies, or pruned): those are answered by the scan.
        let mut targets: Vec<Board> = book
            .to_data()
            .expect("data")
            .positions
            .iter()
            .map(|p| Board::from_bits(p.key.player, p.key.opponent))
            .collect();
        for (k, r) in g.iter().enumerate().step_by(7) {
            let ply = (k * 13) % (r.moves.len() + 1);
            let pos = crate::board::Position::START.replay(r.moves[..ply].iter().copied());
            targets.push(pos.expect("legal").end.board.transform(crate::board::Symmetry::ALL[k % 8]));
        }
        for filter in query_filters() {
            let scanned = filter.as_ref().map(|f| GameSelection::new(f, &table));
            let indexed = filter.as_ref().map(|f| ix.selection(f).expect("reads"));
            let (sel, isel) = match (scanned, indexed) {
                (Some(Err(a)), Some(Err(b))) => {
                    prop_assert_eq!(a, b);
                    continue;
                }
                (Some(Ok(a)), Some(Ok(b))) => (Some(a), Some(b)),
                (None, None) => (None, None),
                (a, b) => panic!("{filter:?}: {a:?} against {b:?}"),
            };
            for (t, board) in targets.iter().enumerate() {
                for max_ply in [usize::MAX, usize::from(plies), t % 9] {
                    let want = table
                        .find(board, max_ply, sel.as_ref(), u64::from(min_games))
                        .expect("scan");
                    let got = ix
                        .find(board, max_ply, isel.as_ref(), u64::from(min_games), None)
                        .expect("index");
                    prop_assert_eq!(&got, &want, "{:?} {:?} {}", filter, board, max_ply);
                    // Only the first games kept: the same counts and moves.
                    let few = ix
                        .find(board, max_ply, isel.as_ref(), u64::from(min_games), Some(t % 4))
                        .expect("index");
                    prop_assert_eq!(few.total, want.total);
                    prop_assert_eq!(few.stats, want.stats);
                    prop_assert_eq!(&few.moves, &want.moves);
                    prop_assert_eq!(&few.matches[..], &want.matches[..(t % 4).min(want.total)]);
                    // Without a filter, the first games and the counts without reading
                    // the rest, where the book's counts give them.
                    if filter.is_some() {
                        continue;
                    }
                    if let Some(first) = ix.first(board, max_ply, t % 4).expect("index") {
                        prop_assert_eq!(first.total, want.total);
                        prop_assert_eq!(first.stats, want.stats);
                        prop_assert_eq!(&first.matches[..], &want.matches[..(t % 4).min(want.total)]);
                    }
                }
            }
        }
        // A filtered `top` reads the selection's records and first moves in place.
        for (filter, selection) in query_filters().iter().flatten().zip(1..) {
            let (Ok(sel), Ok(isel)) = (
                GameSelection::new(filter, &table),
                ix.selection(filter).expect("reads"),
            ) else {
                continue;
            };
            for lines in [1, 2, 5, usize::from(plies) + 1] {
                let query = TopQuery {
                    start: &[],
                    plies: lines,
                    limit: 40 + selection,
                    by: if selection % 2 == 0 { RankBy::Games } else { RankBy::Score },
                    min_games: u64::from(min_games),
                    first: Square::F5,
                };
                prop_assert_eq!(
                    ix.top_lines(&query, usize::from(plies), &isel).expect("index"),
                    table.top_lines(&query, usize::from(plies), Some(&sel)),
                    "{:?} {}", filter, lines
                );
            }
        }
        // The games a query lists read back as the whole table has them.
        let some: Vec<usize> = (0..table.len()).step_by(5).collect();
        let excerpt = ix.excerpt(some.iter().copied()).expect("reads");
        for i in some {
            prop_assert_eq!(excerpt.record(i), table.record(i));
        }
    }
}

#[test]
fn books_with_the_index_round_trip_and_older_versions_still_answer() {
    let g = games(120, 60);
    let (table, book) = indexed_book(&g, 20, 1);
    let data = book.to_data().expect("data");
    assert!(data.game_index);
    let bytes = encode(&data).expect("encode");
    assert!(
        bytes == crate::book::encode_with(&data, 1).expect("encode"),
        "any budget"
    );
    // Without the index: version 3 (4 with selective values), found by the scan.
    let mut old = data.clone();
    old.game_index = false;
    let old = Book::from_bytes(encode(&old).expect("encode"), "old.book").expect("opens");
    assert_eq!(old.version(), crate::book::format::VERSION_GAMES);
    assert!(old.indexed_games().expect("reads").is_none());
    assert_eq!(old.games().expect("reads").as_ref(), Some(&table));
    // The fixtures written by older othbook open, and have no index.
    for name in ["evaluated-v3.book", "imported-v2.book"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/books")
            .join(name);
        let old = Book::open(&path).expect("opens");
        assert!(old.version() < crate::book::VERSION, "{name}");
        assert!(old.indexed_games().expect("reads").is_none(), "{name}");
        if let Some(t) = old.games().expect("reads") {
            let found = t.find(&Board::START, usize::MAX, None, 1).expect("scan");
            assert_eq!(found.matches.len(), t.len(), "{name}");
        }
    }
}

/// A query without a filter at the start (every game reaches it) read every posting entry
/// to list a few games: the first ones are read, the counts are the book's.
#[test]
fn regression_unfiltered_query_read_every_posting() {
    let g = seeded_games(120, 60, 5);
    let (table, book) = indexed_book(&g, 20, 2);
    let ix = book.indexed_games().expect("reads").expect("indexed");
    let first = ix
        .first(&Board::START, 20, 3)
        .expect("reads")
        .expect("fast");
    assert_eq!(first.matches.len(), 3);
    assert_eq!(first.total, table.len());
    let all = table.find(&Board::START, 20, None, 2).expect("scan");
    assert_eq!(first.stats, all.stats);
    assert_eq!(&first.matches[..], &all.matches[..3]);
}

/// `Book::find_games`, the rule every front end uses, answers alike through the index, over
/// the table the book holds and over a table the caller holds, and lists what `keep` asks.
#[test]
fn find_games_answers_alike_by_index_and_by_table() {
    use crate::book::{FindGamesError, GamesQuery};
    let g = seeded_games(90, 60, 3);
    let (table, book) = indexed_book(&g, 12, 2);
    let mut data = book.to_data().expect("data");
    data.game_index = false;
    let scanned = Book::from_bytes(encode(&data).expect("encode"), "old.book").expect("opens");
    assert!(scanned.indexed_games().expect("reads").is_none());
    let targets: Vec<Board> = g
        .iter()
        .step_by(9)
        .enumerate()
        .map(|(k, r)| {
            let pos = crate::board::Position::START.replay(r.moves[..k % 14].iter().copied());
            pos.expect("legal").end.board
        })
        .collect();
    for filter in query_filters() {
        let sel = filter.as_ref().map(|f| GameSelection::new(f, &table));
        for board in &targets {
            for keep in [None, Some(0), Some(3)] {
                let q = GamesQuery {
                    board,
                    max_ply: 12,
                    filter: filter.as_ref(),
                    min_games: 2,
                    keep,
                    rated: None,
                    every_game: false,
                };
                for (b, held) in [(&book, None), (&book, Some(&table)), (&scanned, None)] {
                    let found = b.find_games(held, &q);
                    let found = match (&sel, found) {
                        (Some(Err(want)), Err(FindGamesError::Filter(e))) => {
                            assert_eq!(&e, want);
                            continue;
                        }
                        (_, Ok(found)) => found,
                        (_, Err(e)) => panic!("{filter:?}: {e}"),
                    };
                    let chosen = sel.as_ref().map(|s| s.clone().expect("known names"));
                    let want = table.find(board, 12, chosen.as_ref(), 2).expect("scan");
                    assert_eq!(found.games.total, want.total);
                    assert_eq!(found.games.stats, want.stats);
                    let listed = keep.unwrap_or(0).min(want.total);
                    assert_eq!(&found.games.matches[..listed], &want.matches[..listed]);
                    assert!(found.games.moves == want.moves || keep.is_some() && filter.is_none());
                    if keep.is_none() {
                        assert_eq!(found.games, want);
                    }
                    for m in &want.matches[..listed] {
                        assert_eq!(found.excerpt.record(m.game), table.record(m.game));
                    }
                    if keep.is_none() {
                        assert_eq!(found.excerpt, GameExcerpt::default());
                    }
                }
            }
        }
    }
    let mut bare = data;
    bare.games = None;
    let bare = Book::from_bytes(encode(&bare).expect("encode"), "bare.book").expect("opens");
    let q = GamesQuery {
        board: &Board::START,
        max_ply: usize::MAX,
        filter: None,
        min_games: 1,
        keep: Some(1),
        rated: None,
        every_game: false,
    };
    assert!(matches!(
        bare.find_games(None, &q),
        Err(FindGamesError::NoGameTable)
    ));
}

/// A player filter on games that name no player is refused without counting every game's
/// names for suggestions (0.5 s on ten million games).
#[test]
fn a_player_filter_on_unnamed_games_is_refused_without_counting_names() {
    let filter =
        GameFilter::new(Some("bob".into()), PlayerColor::Either, None, None, false).unwrap();
    let names = vec!["a.txt".to_string(), "b.txt".to_string()];
    let uses = vec![super::index::USED_AS_SOURCE; 2];
    let e = GameSelection::for_names(&filter, &names, &uses, || panic!("counted the names"))
        .expect_err("no player names");
    assert_eq!(
        e,
        FilterError::Unnamed {
            kind: NameKind::Player,
            query: "bob".into()
        }
    );
    assert!(e.to_string().contains("record no player names"), "{e}");
}
