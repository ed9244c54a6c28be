//! Opening book speed (criterion): build from real games, open + first probe, probes/s, and
//! the queries of an evaluated book (values, moves ranked by value: what `explore` adds).
//!
//! Needs ../shared/data (WTHOR and the logbook). The build bench reads wthor + logbook once
//! (ingest is not timed) and times `build` with --plies 60 --min-games 2; the probe benches
//! use a book built from the same games with --min-games 1 (about 10 million positions). The
//! value benches use the default book evaluated with the tests' stand-in leaf scores (the
//! queries' speed does not depend on the scores).

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use othbook::board::Board;
use othbook::book::{build, write_book, Book, BuildOptions, GameFilter};
use othbook::transcript::{ingest, GameRecord, IngestOptions};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

fn games() -> Vec<GameRecord> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir("../shared/data/wthor")
        .expect("../shared/data/wthor is missing")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "wtb"))
        .collect();
    paths.sort();
    paths.push(PathBuf::from("../shared/data/logbook/logbook.gam.gz"));
    let games = ingest(&paths, &IngestOptions::default())
        .expect("ingest")
        .games;
    assert_eq!(games.len(), 248_598, "wthor + logbook games");
    games
}

/// Boards of the games, every ply up to 60: what a player would probe.
fn boards(games: &[GameRecord], n: usize) -> Vec<Board> {
    let mut out = Vec::with_capacity(n);
    'outer: for g in games.iter().step_by(7) {
        let mut b = g.start.board;
        for mv in &g.moves {
            b = b.play_move(*mv).unwrap();
            out.push(b);
            if out.len() == n {
                break 'outer;
            }
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let games = games();
    let opts = |min_games| BuildOptions::new(60, min_games, GameFilter::default()).unwrap();
    let mut g = c.benchmark_group("book build");
    g.sample_size(10).measurement_time(Duration::from_secs(30));
    g.throughput(Throughput::Elements(games.len() as u64));
    g.bench_function("wthor+logbook plies 60 min-games 2", |b| {
        b.iter(|| build(black_box(&games), &opts(2), 0, &|_| {}).unwrap())
    });
    g.finish();

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("full.book");
    let (data, _) = build(&games, &opts(1), 0, &|_| {}).unwrap();
    let positions = data.positions.len();
    write_book(&path, &data).unwrap();
    drop(data);
    eprintln!("full book: {positions} positions");
    let probes = boards(&games, 1 << 20);

    let mut g = c.benchmark_group("book open");
    g.bench_function(
        format!("open_lazy + first probe ({positions} positions)"),
        |b| {
            b.iter(|| {
                let book = Book::open_lazy(&path).unwrap();
                black_box(book.try_probe(&probes[12345]).unwrap())
            })
        },
    );
    g.finish();

    let book = Book::open(&path).unwrap();
    let mut g = c.benchmark_group("book probe");
    g.throughput(Throughput::Elements(probes.len() as u64));
    g.bench_function("probe, game positions", |b| {
        b.iter(|| probes.iter().filter(|p| book.probe(p).is_some()).count())
    });
    g.bench_function("moves, game positions", |b| {
        b.iter(|| probes.iter().map(|p| book.moves(p).len()).sum::<usize>())
    });
    g.finish();
    drop(book);
    bench_values(c, &games);
}

/// `best_moves` and a whole `explore` query's book reads (statistics, moves, value, moves by
/// value) on positions of the first 20 plies of games, in an evaluated default book.
fn bench_values(c: &mut Criterion, games: &[GameRecord]) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("evaluated.book");
    common::evaluate_book(&othbook::book::default_path(), &path, 4, common::fake_leaf);
    let book = Book::open(&path).unwrap();
    let mut boards = Vec::new();
    for g in games.iter().step_by(97) {
        let mut b = g.start.board;
        for mv in g.moves.iter().take(20) {
            b = b.play_move(*mv).unwrap();
            boards.push(b);
        }
    }
    let valued = boards.iter().filter(|b| book.value(b).is_some()).count();
    eprintln!("{} positions, {valued} with a value", boards.len());
    let mut g = c.benchmark_group("book values");
    g.throughput(Throughput::Elements(boards.len() as u64));
    g.bench_function("best_moves, game positions", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|p| book.best_moves(p).len())
                .sum::<usize>()
        })
    });
    g.bench_function("explore's reads, game positions", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|p| {
                    black_box(book.probe(p));
                    black_box(book.value(p));
                    book.moves(p).len() + book.best_moves(p).len()
                })
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
