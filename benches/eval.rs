//! Evaluation speed (criterion): time per call of the pattern and hand-made evaluations over
//! a fixed set of positions from pseudo-random games (all phases). Report ns per evaluation =
//! the time per iteration divided by the number of positions (criterion prints it as
//! elements per second). `pattern_one_phase` takes positions of one phase only, as a search
//! does between its leaves; `pattern` mixes all phases (every table in turn).
//! `leaf_*` evaluate every child of those one-phase positions, as a search's last ply does:
//! from scratch, or from the parent's features updated by the move (what the search uses).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use othbook::board::movegen::{flips, moves};
use othbook::board::Board;
use othbook::engine::pattern::Features;
use othbook::engine::{Evaluator, HandEval, PatternEval};

/// 1024 positions along fixed pseudo-random games, with an empty count in `empties`.
fn positions(empties: std::ops::RangeInclusive<u32>) -> Vec<(u64, u64)> {
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let mut out = Vec::new();
    while out.len() < 1024 {
        let mut b = Board::START;
        while !b.is_game_over() && out.len() < 1024 {
            if !b.has_moves() {
                b = b.pass();
                continue;
            }
            if empties.contains(&b.empty_count()) {
                out.push((b.player().0, b.opponent().0));
            }
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let m: Vec<_> = b.legal_moves().iter().collect();
            b = b.play(m[(s % m.len() as u64) as usize]).expect("legal");
        }
    }
    out
}

fn run<E: Evaluator>(e: &E, pos: &[(u64, u64)]) -> i64 {
    pos.iter()
        .map(|&(p, o)| i64::from(e.eval(black_box(p), black_box(o))))
        .sum()
}

fn bench(c: &mut Criterion) {
    let pos = positions(1..=60);
    let mid = positions(29..=32);
    let pattern = PatternEval::default();
    let hand = HandEval::default();
    let mut g = c.benchmark_group("eval");
    g.throughput(Throughput::Elements(pos.len() as u64));
    g.bench_function("pattern", |b| b.iter(|| run(&pattern, &pos)));
    // In a search, leaves close together share their phase: one phase's tables in cache.
    g.bench_function("pattern_one_phase", |b| b.iter(|| run(&pattern, &mid)));
    g.bench_function("pattern_portable", |b| {
        b.iter(|| {
            pos.iter()
                .map(|&(p, o)| i64::from(pattern.eval_portable(black_box(p), black_box(o))))
                .sum::<i64>()
        })
    });
    g.bench_function("hand", |b| b.iter(|| run(&hand, &pos)));
    g.finish();

    // Every child of the one-phase positions: (parent features, square, flips, child).
    let children: Vec<(Features, u8, u64, u64, u64)> = mid
        .iter()
        .flat_map(|&(p, o)| {
            let f = Features::new(p, o);
            let mut mv = moves(p, o);
            std::iter::from_fn(move || {
                (mv != 0).then(|| {
                    let sq = mv.trailing_zeros() as u8;
                    mv &= mv - 1;
                    let x = flips(p, o, sq);
                    (f, sq, x, o & !x, p | x | 1 << sq)
                })
            })
        })
        .collect();
    let mut g = c.benchmark_group("leaf");
    g.throughput(Throughput::Elements(children.len() as u64));
    g.bench_function("from_scratch", |b| {
        b.iter(|| {
            children
                .iter()
                .map(|&(_, _, _, p, o)| i64::from(pattern.eval(black_box(p), black_box(o))))
                .sum::<i64>()
        })
    });
    g.bench_function("incremental", |b| {
        b.iter(|| {
            children
                .iter()
                .map(|(f, sq, x, p, o)| {
                    let child = pattern.play(black_box(f), *sq, *x);
                    i64::from(pattern.eval_state(&child, *p, *o))
                })
                .sum::<i64>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
