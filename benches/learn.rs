//! Leaf searches per second (`book evaluate`'s unit of work) at depths 10, 14 and 18 on 2
//! worker threads, over a fixed sample of the default book's positions 16 to 30 plies deep.
//! Run with `cargo bench --bench learn`; it prints one line per depth.

use dashmap::DashMap;
use othbook::book::{board_of, Book};
use othbook::learn::{default_hash_mb, plan, search_leaves, Again, LeafSettings, SearchRun, Shard};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn main() {
    let mut data = Book::open("books/wthor.book")
        .expect("books/wthor.book")
        .to_data()
        .expect("readable");
    let mut jobs = plan(&mut data, None, Again::Always, Shard::ALL).jobs;
    jobs.retain(|j| (30..=44).contains(&board_of(j.key).empty_count()));
    let threads = 2;
    for (depth, count) in [(10u32, 200usize), (14, 24), (18, 4)] {
        // Every k-th job: a fixed sample spread over the table (which is in hash order).
        let step = jobs.len() / count;
        let sample: Vec<_> = jobs.iter().step_by(step).take(count).cloned().collect();
        let settings = LeafSettings::new(depth, 0, default_hash_mb(depth)).expect("settings");
        let stop = AtomicBool::new(false);
        let run = SearchRun {
            settings,
            threads: othbook::engine::ThreadCount::new(threads).expect("threads"),
            stop: &stop,
            tick: &|| {},
            checkpoint_every: Duration::from_secs(1 << 30),
        };
        let results = DashMap::new();
        let t = Instant::now();
        search_leaves::<othbook::engine::EngineError>(&sample, &run, &results, &mut |_| Ok(()))
            .expect("search");
        let secs = t.elapsed().as_secs_f64();
        println!(
            "depth {depth:>2}: {} leaves in {secs:7.2} s, {:8.2} leaves/s, {threads} threads",
            results.len(),
            results.len() as f64 / secs
        );
    }
}
