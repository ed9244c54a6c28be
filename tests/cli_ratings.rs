//! Ratings fitted from the games' results, end to end: `games players` with ratings and
//! `--sort rating`, `explore --ratings`, `--min-rating` and `--order rating` on a small
//! book whose answers are known, bad input, and the default WTHOR book.

mod common;
use common::{run_in, scratch_dir, stdout_of};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// One PGN game: `black` against `white` with a result, after `moves`.
fn game(black: &str, white: &str, result: &str, moves: &str) -> String {
    format!(
        "[Event \"T\"]\n[Date \"2001.01.01\"]\n[Black \"{black}\"]\n[White \"{white}\"]\n\
         [Result \"{result}\"]\n\n{moves} {result}\n\n"
    )
}

/// Alice beats Bob in all 12 of their games (after f5 d6); Carol and Dave each win their
/// 3 games as black (after f5 f6): 6 games, even.
fn games_file(dir: &Path) -> PathBuf {
    let mut text = String::new();
    for _ in 0..6 {
        text += &game("Alice", "Bob", "40-24", "1. F5 D6 2. C3 D3");
        text += &game("Bob", "Alice", "20-44", "1. F5 D6 2. C3 D3");
    }
    for _ in 0..3 {
        text += &game("Carol", "Dave", "40-24", "1. F5 F6 2. E6 F4");
        text += &game("Dave", "Carol", "40-24", "1. F5 F6 2. E6 F4");
    }
    let path = dir.join("rated.pgn");
    std::fs::write(&path, text).unwrap();
    path
}

/// The games file and a book built from it, in a scratch folder.
fn setup(sub: &str) -> (PathBuf, PathBuf) {
    let dir = scratch_dir(sub);
    let pgn = games_file(&dir);
    let book = dir.join("rated.book");
    let (code, _, err) = run_in(
        &dir,
        &[
            "build",
            "rated.pgn",
            "-o",
            "rated.book",
            "--plies",
            "10",
            "--min-games",
            "1",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    (pgn, book)
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of(args)).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

fn rating(players: &Value, name: &str) -> f64 {
    players
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("{name}: {players}"))["rating"]
        .as_f64()
        .unwrap()
}

#[test]
fn games_players_rates_the_winner_above_the_loser_and_equal_results_equal() {
    let (pgn, book) = setup("ratings-players");
    for input in [pgn.to_str().unwrap(), book.to_str().unwrap()] {
        let r = json(&[
            "games", "players", input, "--sort", "rating", "--format", "json",
        ]);
        let players = &r["players"];
        let names: Vec<&str> = players
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        // Sorted by rating, ties by name.
        assert_eq!(names, ["Alice", "Carol", "Dave", "Bob"], "{input}");
        let (a, b) = (rating(players, "Alice"), rating(players, "Bob"));
        assert!(a > 1600.0 && b < 1400.0, "{a} {b}");
        assert!((a - 1500.0 + (b - 1500.0)).abs() < 0.2, "{a} {b}");
        assert_eq!(rating(players, "Carol"), 1500.0);
        assert_eq!(rating(players, "Dave"), 1500.0);
        assert_eq!(players[0]["rated_games"], 12);
        assert_eq!(players[0]["score"], 12.0);
        assert_eq!(r["ratings"]["games"], 18);
        assert_eq!(r["ratings"]["converged"], true);
    }
    // The table and TSV carry the same ratings.
    let table = stdout_of(&[
        "games",
        "players",
        book.to_str().unwrap(),
        "--sort",
        "rating",
    ]);
    let first = table.lines().nth(1).unwrap();
    assert!(
        first.contains("Alice") && first.contains("100.0%"),
        "{table}"
    );
    assert!(table.contains("ratings: Elo fit of 18 games"), "{table}");
    let tsv = stdout_of(&[
        "games",
        "players",
        book.to_str().unwrap(),
        "--format",
        "tsv",
    ]);
    assert!(
        tsv.starts_with("games\tplayer\trating\trated_games\tscore\n"),
        "{tsv}"
    );
    // A window of years without games: no players.
    let none = json(&[
        "games",
        "players",
        book.to_str().unwrap(),
        "--years",
        "1990",
        "--format",
        "json",
    ]);
    assert_eq!(none["total"], 0);
}

#[test]
fn explore_shows_each_moves_average_rating_and_performance() {
    let (_, book) = setup("ratings-explore");
    let book = book.to_str().unwrap();
    let r = json(&[
        "explore",
        "f5",
        "--book",
        book,
        "--ratings",
        "--format",
        "json",
    ]);
    let moves = r["ratings"]["moves"].as_array().unwrap();
    let of = |mv: &str| moves.iter().find(|m| m["move"] == mv).unwrap().clone();
    // d6: played by Alice and Bob alike (average 1500), who won as often as they lost.
    let d6 = of("d6");
    assert_eq!(d6["rated_games"], 12);
    assert!(
        (d6["average_rating"].as_f64().unwrap() - 1500.0).abs() < 0.2,
        "{d6}"
    );
    assert!(
        (d6["performance"].as_f64().unwrap() - 1500.0).abs() < 0.2,
        "{d6}"
    );
    // f6: white (Carol or Dave, 1500) lost all 6: 1500 - 400.
    let f6 = of("f6");
    assert_eq!(f6["average_rating"], 1500.0);
    assert_eq!(f6["performance"], 1100.0);
    let table = stdout_of(&["explore", "f5", "--book", book, "--ratings"]);
    assert!(table.contains("rating   perf"), "{table}");
    let tsv = stdout_of(&[
        "explore",
        "f5",
        "--book",
        book,
        "--ratings",
        "--format",
        "tsv",
    ]);
    assert!(
        tsv.lines()
            .next()
            .unwrap()
            .ends_with("\taverage_rating\tperformance\topening"),
        "{tsv}"
    );
    assert!(
        tsv.contains("f6\t6\t") && tsv.contains("\t1500.0\t1100.0\t"),
        "{tsv}"
    );
    // Without --ratings the report has none.
    let plain = json(&["explore", "f5", "--book", book, "--format", "json"]);
    assert!(plain.get("ratings").is_none());
}

#[test]
fn min_rating_keeps_games_of_two_rated_players_and_order_rating_lists_the_top_games() {
    let (_, book) = setup("ratings-filter");
    let book = book.to_str().unwrap();
    // Bob is rated below 1400: his 12 games go; Carol and Dave's 6 stay.
    let r = json(&[
        "explore",
        "f5",
        "--book",
        book,
        "--min-rating",
        "1400",
        "--format",
        "json",
    ]);
    assert_eq!(r["games"], 6);
    assert_eq!(r["filtered"], true);
    let found = json(&[
        "games",
        "find",
        "f5",
        "--book",
        book,
        "--min-rating",
        "1400",
        "--format",
        "json",
    ]);
    assert_eq!(found["total"], 6);
    for g in found["games"].as_array().unwrap() {
        assert_ne!(g["black"], "Bob");
        assert_ne!(g["white"], "Bob");
    }
    let none = json(&[
        "games",
        "find",
        "f5",
        "--book",
        book,
        "--min-rating",
        "1700",
        "--format",
        "json",
    ]);
    assert_eq!(none["total"], 0);
    // A floor of 0 keeps every game between rated players.
    let all = json(&[
        "games",
        "find",
        "f5",
        "--book",
        book,
        "--min-rating",
        "0",
        "--format",
        "json",
    ]);
    assert_eq!(all["total"], 18);
    // --order rating: the games by the mean rating of their two players, highest first.
    let players = json(&["games", "players", book, "--format", "json"])["players"].clone();
    let by_rating = json(&[
        "games", "find", "f5", "--book", book, "--order", "rating", "--limit", "0", "--format",
        "json",
    ]);
    let means: Vec<f64> = by_rating["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let r = |side: &str| rating(&players, g[side].as_str().unwrap());
            (r("black") + r("white")) / 2.0
        })
        .collect();
    assert_eq!(means.len(), 18);
    assert!(means.windows(2).all(|w| w[0] >= w[1] - 0.1), "{means:?}");
}

#[test]
fn out_of_range_ratings_and_unknown_orders_are_bad_input() {
    let (_, book) = setup("ratings-bad");
    let dir = book.parent().unwrap();
    for (args, says) in [
        (
            &[
                "explore",
                "f5",
                "--book",
                "rated.book",
                "--min-rating",
                "5000",
            ][..],
            "--min-rating",
        ),
        (
            &[
                "games",
                "find",
                "f5",
                "--book",
                "rated.book",
                "--min-rating=-3",
            ],
            "--min-rating",
        ),
        (
            &[
                "games",
                "find",
                "f5",
                "--book",
                "rated.book",
                "--min-rating",
                "high",
            ],
            "--min-rating",
        ),
        (
            &[
                "games",
                "find",
                "f5",
                "--book",
                "rated.book",
                "--order",
                "best",
            ],
            "--order",
        ),
        (
            &["games", "players", "rated.book", "--years", "2001-1990"],
            "--years",
        ),
    ] {
        let (code, _, err) = run_in(dir, args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn the_default_books_ratings_are_reproducible_and_rank_the_strong_programs_first() {
    let args = [
        "games",
        "players",
        "--book",
        "books/wthor.book",
        "--sort",
        "rating",
        "--limit",
        "10",
        "--format",
        "json",
    ];
    let a = json(&args);
    let b = json(&args);
    assert_eq!(a, b);
    assert_eq!(a["ratings"]["converged"], true);
    assert!(
        a["ratings"]["games"].as_u64().unwrap() > 120_000,
        "{}",
        a["ratings"]
    );
    let names: Vec<&str> = a["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(
        names.iter().any(|n| n.starts_with("Logistello")),
        "{names:?}"
    );
    // The ratings of a window of years are fitted from those games only.
    let y = json(&[
        "games",
        "players",
        "--book",
        "books/wthor.book",
        "--years",
        "1990",
        "--limit",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(y["ratings"]["years"], serde_json::json!([1990, 1990]));
    assert!(
        y["ratings"]["games"].as_u64().unwrap() < 5_000,
        "{}",
        y["ratings"]
    );
}

/// `games players` and `games events` with neither a file nor `--book` stopped at "no game
/// file given", where every other book command reads the default book.
#[test]
fn regression_games_players_without_a_file_did_not_read_the_default_book() {
    for sub in ["players", "events"] {
        let default = json(&["games", sub, "--limit", "3", "--format", "json"]);
        let named = json(&[
            "games",
            sub,
            "--book",
            "books/wthor.book",
            "--limit",
            "3",
            "--format",
            "json",
        ]);
        assert_eq!(default, named, "{sub}");
    }
}
