//! Search speed (criterion): a fixed-depth midgame search and an exact 20-empty solve
//! (FFO #40 from `../shared/data/ffo/ffo.obf`), with the engine `othbook analyze` and
//! `solve` run: `Engine<AnyEval>` with the default evaluation. Report figures as time per
//! search.

use criterion::{criterion_group, criterion_main, Criterion};
use othbook::board::{Board, Position};
use othbook::engine::{AnyEval, Depth, Engine, EngineOptions, Limits, ThreadCount};

fn midgame_board() -> Board {
    // 20 plies chosen by a fixed rule: reproducible and always legal.
    let mut b = Board::START;
    for i in 0..20u32 {
        let m = b.legal_moves();
        let sq = m
            .iter()
            .nth((i as usize * 5 + 3) % m.count() as usize)
            .expect("move");
        b = b.play(sq).expect("legal");
    }
    b
}

fn ffo(id: usize) -> Board {
    let text = std::fs::read_to_string("../shared/data/ffo/ffo.obf")
        .expect("missing ../shared/data/ffo/ffo.obf");
    let line = text.lines().nth(id - 1).expect("line");
    let pos: Position = line
        .split(';')
        .next()
        .expect("board")
        .trim()
        .parse()
        .expect("position");
    pos.board
}

fn bench(c: &mut Criterion) {
    let options = EngineOptions {
        threads: ThreadCount::ONE,
        hash_mb: othbook::engine::HashSize::of(64),
    };
    let mut engine = Engine::with_evaluator(options, AnyEval::default());
    let mut g = c.benchmark_group("engine");
    g.sample_size(10);
    let mid = midgame_board();
    g.bench_function("midgame_depth_10", |bn| {
        bn.iter(|| {
            engine.clear();
            engine
                .analyze(&mid, &Limits::depth(Depth::of(10)))
                .expect("ok")
                .nodes
        })
    });
    let end = ffo(40);
    g.bench_function("ffo40_exact", |bn| {
        bn.iter(|| {
            engine.clear();
            engine.analyze(&end, &Limits::exact()).expect("ok").score
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
