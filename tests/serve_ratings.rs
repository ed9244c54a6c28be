//! The API's rating parameters on the default book: `min_rating` and `order` on
//! `/api/v1/games` and `/api/v1/explore`, `ratings` on `/api/v1/explore`, and 400s naming
//! the parameter for bad values.

mod common;

use common::web::{TestServer, BOOK};
use othbook::book::games::ratings::{RatingParams, Ratings};
use othbook::book::{Book, GameTable};
use othbook::serve::ServeOptions;
use serde_json::Value;

fn server() -> TestServer {
    TestServer::start(ServeOptions::new(12, 2, 1000).unwrap())
}

/// The default book's game table and the ratings fitted from it.
fn rated() -> (GameTable, Ratings) {
    let table = Book::open_lazy(BOOK).unwrap().games().unwrap().unwrap();
    let ratings = Ratings::of_table(&table, |_| true, RatingParams::default());
    (table, ratings)
}

/// The rating of the player named `name` (a JSON string).
fn rating_of(table: &GameTable, ratings: &Ratings, name: &Value) -> Option<f64> {
    ratings.of(table.name_index(name.as_str()?)?)
}

#[test]
fn min_rating_and_order_select_and_sort_the_games() {
    let s = server();
    let (table, ratings) = rated();
    let all = s.json("/api/v1/games?moves=f5d6&limit=5");
    let strong = s.json("/api/v1/games?moves=f5d6&min_rating=2000&limit=500");
    let n = strong["total"].as_u64().unwrap();
    assert!(n > 0 && n < all["total"].as_u64().unwrap(), "{n}");
    for g in strong["games"].as_array().unwrap() {
        for side in ["black", "white"] {
            let r = rating_of(&table, &ratings, &g[side]).unwrap();
            assert!(r >= 2000.0, "{g}");
        }
    }
    // The top games: by the mean rating of the two players, highest first.
    let top = s.json("/api/v1/games?moves=f5d6&order=rating&limit=50");
    let means: Vec<f64> = top["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let r = |side: &str| rating_of(&table, &ratings, &g[side]).unwrap();
            (r("black") + r("white")) / 2.0
        })
        .collect();
    assert_eq!(means.len(), 50);
    assert!(means.windows(2).all(|w| w[0] >= w[1]), "{means:?}");
    assert_eq!(top["total"], all["total"]);
    // The explore answer's statistics follow the floor.
    let e = s.json("/api/v1/explore?moves=f5d6&min_rating=2000");
    assert_eq!(e["filtered"], true);
    assert_eq!(e["games"].as_u64(), Some(n));
}

#[test]
fn explore_gives_each_moves_average_rating_and_performance() {
    let s = server();
    let e = s.json("/api/v1/explore?moves=f5&ratings=true");
    let moves = e["ratings"]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), e["moves"].as_array().unwrap().len());
    let d6 = &moves[0];
    assert_eq!(d6["move"], "d6");
    assert!(d6["rated_games"].as_u64().unwrap() > 50_000, "{d6}");
    let avg = d6["average_rating"].as_f64().unwrap();
    let perf = d6["performance"].as_f64().unwrap();
    assert!((1500.0..2200.0).contains(&avg), "{d6}");
    assert!((1500.0..2200.0).contains(&perf), "{d6}");
    assert_eq!(e["ratings"]["fit"]["converged"], true);
    // Without the parameter the answer has no ratings.
    let plain = s.json("/api/v1/explore?moves=f5");
    assert!(plain.get("ratings").is_none());
}

#[test]
fn bad_rating_parameters_are_400s_naming_the_parameter() {
    let s = server();
    for (path, param) in [
        ("/api/v1/games?moves=f5&min_rating=9000", "min_rating"),
        ("/api/v1/games?moves=f5&min_rating=-1", "min_rating"),
        ("/api/v1/games?moves=f5&min_rating=strong", "min_rating"),
        ("/api/v1/explore?moves=f5&min_rating=NaN", "min_rating"),
        ("/api/v1/games?moves=f5&order=best", "order"),
    ] {
        let v = s.error(path, 400);
        assert_eq!(v["param"], param, "{path}: {v}");
    }
    let v = s.error("/api/v1/explore?moves=f5&ratings=maybe", 400);
    assert!(v["error"].is_string(), "{v}");
    // The server keeps serving.
    s.json("/api/v1/games?moves=f5&min_rating=1800&order=rating&limit=3");
}

/// The games list gave the players' names but not their ratings, so a page could not show
/// them: each row now carries both, from the server's one fit.
#[test]
fn regression_games_rows_lack_the_players_ratings() {
    let s = server();
    let (table, ratings) = rated();
    let top = s.json("/api/v1/games?moves=f5d6&order=rating&limit=20");
    let recent = s.json("/api/v1/games?moves=f5d6&limit=20");
    for g in top["games"]
        .as_array()
        .unwrap()
        .iter()
        .chain(recent["games"].as_array().unwrap())
    {
        for side in ["black", "white"] {
            let want = rating_of(&table, &ratings, &g[side]).map(|r| (r * 10.0).round() / 10.0);
            let got = g[format!("{side}_rating")].as_f64();
            assert_eq!(got, want, "{side}: {g}");
        }
    }
    let first = &top["games"][0];
    assert!(first["black_rating"].as_f64().unwrap() > 2000.0, "{first}");
}
