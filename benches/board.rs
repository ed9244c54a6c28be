//! Move generation and perft speed (criterion). Report figures as leaves/s or moves/s.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use othbook::board::perft::perft;
use othbook::board::{movegen, Board};
use std::hint::black_box;

fn sample_boards() -> Vec<Board> {
    // Positions reached by following the first legal move, then the last, alternately.
    let mut out = Vec::new();
    let mut b = Board::START;
    for i in 0..50 {
        let moves = b.legal_moves();
        let Some(sq) = (if i % 2 == 0 {
            moves.first()
        } else {
            moves.iter().last()
        }) else {
            break;
        };
        b = b.play(sq).expect("legal");
        out.push(b);
    }
    out
}

fn bench(c: &mut Criterion) {
    let boards = sample_boards();
    let mut g = c.benchmark_group("movegen");
    g.throughput(Throughput::Elements(boards.len() as u64));
    g.bench_function("moves", |bn| {
        bn.iter(|| {
            boards.iter().fold(0u64, |acc, b| {
                acc ^ movegen::moves(black_box(b.player().0), black_box(b.opponent().0))
            })
        })
    });
    g.bench_function("flips_all_moves", |bn| {
        bn.iter(|| {
            let mut acc = 0u64;
            for b in &boards {
                for sq in b.legal_moves() {
                    acc ^= movegen::flips(black_box(b.player().0), b.opponent().0, sq as u8);
                }
            }
            acc
        })
    });
    g.finish();
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.throughput(Throughput::Elements(3_005_288));
    g.bench_function("start_depth_9", |bn| {
        bn.iter(|| perft(black_box(&Board::START), 9))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
