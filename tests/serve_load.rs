//! Load test of the web server, run by hand (ignored in the suite; it takes 20 s):
//! `cargo test --release --test serve_load -- --ignored --nocapture`.
//! 50 concurrent clients on loopback send mixed API queries (positions along the book's
//! lines, games lists with and without filters, book info, bad requests, and a few shallow
//! searches) for 20 s, then stop; requests/s, p50/p99 latency per kind and the errors are
//! printed. Goal: no error, p99 under 50 ms for book queries without search.
//! `SERVE_LOAD_CACHE=0` runs it with no answer cache (every query does its work).

mod common;

use common::web::{request, TestServer, BOOK};
use othbook::board::{format_moves, Move, Position};
use othbook::book::Book;
use othbook::serve::ServeOptions;
use std::time::{Duration, Instant};

const CLIENTS: usize = 50;
const SECONDS: u64 = 20;

/// Lines of the book: a random walk along its moves, weighted by games, up to 16 plies.
fn book_lines(n: usize) -> Vec<String> {
    let book = Book::open_lazy(BOOK).unwrap();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    (0..n)
        .map(|_| {
            let mut pos = Position::START;
            let mut line: Vec<Move> = Vec::new();
            let plies = (next() % 17) as usize;
            for _ in 0..plies {
                let moves = book.try_moves(&pos.board).unwrap();
                let total: u64 = moves.iter().map(|m| m.1.games()).sum();
                if total == 0 {
                    break;
                }
                let mut pick = next() % total;
                let mv = moves
                    .iter()
                    .find(|m| {
                        let g = m.1.games();
                        if pick < g {
                            true
                        } else {
                            pick -= g;
                            false
                        }
                    })
                    .unwrap()
                    .0;
                pos = pos.play(mv).unwrap();
                line.push(mv);
            }
            format_moves(&line)
        })
        .collect()
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Explore,
    Games,
    Info,
    Bad,
    Search,
}

#[test]
#[ignore = "load test: 20 s of 50 clients; run by hand"]
fn fifty_clients_for_twenty_seconds() {
    let cache = std::env::var("SERVE_LOAD_CACHE").map_or(4096, |v| v.parse().unwrap());
    let server = TestServer::start(ServeOptions::new(16, 2, cache).unwrap());
    println!("answer cache: {cache} entries");
    let lines = std::sync::Arc::new(book_lines(3000));
    let until = Instant::now() + Duration::from_secs(SECONDS);
    let started = Instant::now();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|c| {
            let addr = server.addr;
            let lines = lines.clone();
            std::thread::spawn(move || {
                let mut out: Vec<(Kind, Duration, bool)> = Vec::new();
                let mut i = c * 7919;
                while Instant::now() < until {
                    i += 1;
                    let line = &lines[i % lines.len()];
                    let (kind, path, want) = match i % 20 {
                        0..=11 => (Kind::Explore, format!("/api/v1/explore?moves={line}"), 200),
                        12..=14 => (
                            Kind::Games,
                            format!("/api/v1/games?moves={line}&limit=30"),
                            200,
                        ),
                        15 => (
                            Kind::Games,
                            format!("/api/v1/games?moves={line}&years=1990-2005&limit=30"),
                            200,
                        ),
                        16 => (Kind::Info, "/api/v1/info".to_string(), 200),
                        17 | 18 => (Kind::Bad, format!("/api/v1/explore?moves={line}a9"), 400),
                        // Shallow searches of positions along the lines: cached once asked.
                        _ => (
                            Kind::Search,
                            format!("/api/v1/explore?moves={line}&depth=4"),
                            200,
                        ),
                    };
                    let t = Instant::now();
                    let (status, _) = request(addr, "GET", &path, None);
                    out.push((kind, t.elapsed(), status == want));
                }
                out
            })
        })
        .collect();
    let all: Vec<(Kind, Duration, bool)> = clients
        .into_iter()
        .flat_map(|c| c.join().unwrap())
        .collect();
    let elapsed = started.elapsed().as_secs_f64();
    let errors = all.iter().filter(|r| !r.2).count();
    println!(
        "{} requests in {elapsed:.1} s from {CLIENTS} clients: {:.0} requests/s, {errors} errors",
        all.len(),
        all.len() as f64 / elapsed
    );
    let report = |name: &str, kinds: &[Kind]| -> Duration {
        let mut t: Vec<Duration> = all
            .iter()
            .filter(|r| kinds.contains(&r.0))
            .map(|r| r.1)
            .collect();
        t.sort();
        let q = |p: f64| t[((t.len() as f64 * p) as usize).min(t.len() - 1)];
        println!(
            "{name:<28} {:>7} requests  p50 {:>7.2} ms  p99 {:>7.2} ms  max {:>7.2} ms",
            t.len(),
            q(0.50).as_secs_f64() * 1e3,
            q(0.99).as_secs_f64() * 1e3,
            t.last().unwrap().as_secs_f64() * 1e3
        );
        q(0.99)
    };
    let book_p99 = report(
        "book queries (no search)",
        &[Kind::Explore, Kind::Games, Kind::Info, Kind::Bad],
    );
    report("  explore", &[Kind::Explore]);
    report("  games", &[Kind::Games]);
    report("  info", &[Kind::Info]);
    report("  bad requests (400)", &[Kind::Bad]);
    report("searches depth 4", &[Kind::Search]);
    assert_eq!(errors, 0);
    println!(
        "book queries p99 {:.2} ms (goal: under 50 ms)",
        book_p99.as_secs_f64() * 1e3
    );
}
