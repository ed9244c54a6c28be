//! The header's evaluation settings in every format version: written in the oldest version
//! that holds them, read back whole, and older books (no selectivity) read as full width;
//! its build options read through their rules.

use super::*;
use crate::book::eval::{EvalInfo, FULL_WIDTH};
use crate::book::tests::random_game;
use crate::book::{
    build, encode, Book, BookData, BookError, BuildOptions, GameFilter, PlayerColor, MAX_PLIES,
};

/// A small book of random games with `evaluation` in its header and its game table or not.
fn data(evaluation: Option<EvalInfo>, games: bool) -> BookData {
    let records: Vec<_> = (0..20).map(|i| random_game(i, 30, "r.gam")).collect();
    let opts = BuildOptions::new(12, 1, GameFilter::default()).unwrap();
    let mut d = build(&records, &opts, 1_700_000_000, &|_| {})
        .expect("build")
        .0;
    if !games {
        d.games = None;
    }
    d.game_index = false;
    d.info.evaluation = evaluation;
    d
}

fn info(selectivity: u8) -> EvalInfo {
    EvalInfo {
        depth: 18,
        exact_from: 22,
        selectivity,
    }
}

#[test]
fn each_header_is_written_in_the_oldest_version_that_holds_it_and_read_back() {
    let cases = [
        (None, false, false, 1),
        (Some(info(100)), false, false, 2),
        (None, true, false, 3),
        (Some(info(100)), true, false, 3),
        (Some(info(87)), false, false, 4),
        (Some(info(73)), true, false, 4),
        (None, true, true, 5),
        (Some(info(100)), true, true, 5),
        (Some(info(73)), true, true, 5),
    ];
    for (evaluation, games, index, version) in cases {
        let mut d = data(evaluation.clone(), games);
        d.game_index = index;
        let bytes = encode(&d).unwrap();
        let book = Book::from_bytes(bytes, "t").unwrap();
        assert_eq!(book.version(), version, "{evaluation:?} games {games}");
        assert_eq!(book.info().evaluation, evaluation);
        assert_eq!(book.has_games(), games);
        assert_eq!(book.has_game_index(), index);
        assert_eq!(book.to_data().unwrap(), d);
    }
}

#[test]
fn versions_2_and_3_store_no_selectivity_and_read_as_full_width() {
    // The header of a full-width evaluated book is what othbook wrote before selectivities
    // were recorded: the fixed fields, then depth and exact-from alone (version 2).
    let d = data(Some(info(100)), false);
    let h = Header::decode(&encode(&d).unwrap()[PREAMBLE..], 2)
        .unwrap()
        .0;
    let bytes = h.encode().unwrap();
    assert_eq!(bytes[bytes.len() - 2..], [18, 22]);
    let (back, used) = Header::decode(&bytes, 2).unwrap();
    assert_eq!(used, bytes.len());
    assert_eq!(back.evaluation, Some(info(FULL_WIDTH)));
}

#[test]
fn a_selectivity_outside_1_to_100_is_damage() {
    let mut h = Header::decode(&encode(&data(Some(info(87)), true)).unwrap()[PREAMBLE..], 4)
        .unwrap()
        .0;
    h.evaluation = Some(info(0));
    let bytes = h.encode().unwrap();
    let e = Header::decode(&bytes, 4).unwrap_err();
    assert!(e.contains("selectivity"), "{e}");
}

/// The options a header may hold that no constructor makes, and a word of the rule each
/// breaks.
fn broken_options() -> Vec<(BuildOptions, &'static str)> {
    let none = GameFilter::default;
    let either = PlayerColor::Either;
    vec![
        (BuildOptions::unchecked(MAX_PLIES + 1, 1, none()), "plies"),
        (BuildOptions::unchecked(10, 0, none()), "min-games"),
        (
            BuildOptions::unchecked(10, 1, GameFilter::unchecked(either, Some((2001, 2000)))),
            "years",
        ),
        (
            BuildOptions::unchecked(10, 1, GameFilter::unchecked(PlayerColor::White, None)),
            "player-side",
        ),
    ]
}

#[test]
fn regression_a_header_with_options_out_of_range_was_read_as_a_book() {
    let options = BuildOptions::new(10, 1, GameFilter::default()).unwrap();
    let (mut data, _) = build(&[], &options, 0, &|_| {}).unwrap();
    assert!(Book::from_bytes(encode(&data).unwrap(), "good.book").is_ok());
    for (options, rule) in broken_options() {
        data.info.options = options;
        match Book::from_bytes(encode(&data).unwrap(), "bad.book") {
            Err(BookError::Invalid { path, reason }) => {
                assert_eq!(path, "bad.book");
                assert!(
                    reason.contains("build options") && reason.contains(rule),
                    "{rule}: {reason}"
                );
            }
            other => panic!("{rule}: {:?}", other.map(|_| "a book")),
        }
    }
}
