//! Ingest speed (criterion): parse and replay all of wthor/ and the logbook (248,598 games),
//! rayon over files and chunks. Report games/s; the target is the whole set in <= 1.0 s on 2
//! cores.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use othbook::transcript::{ingest, IngestOptions};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn files() -> (Vec<PathBuf>, PathBuf) {
    let data = Path::new("../shared/data");
    let mut wthor: Vec<PathBuf> = std::fs::read_dir(data.join("wthor"))
        .expect("../shared/data/wthor is missing")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "wtb"))
        .collect();
    wthor.sort();
    let logbook = data.join("logbook/logbook.gam.gz");
    assert!(logbook.exists(), "{} is missing", logbook.display());
    (wthor, logbook)
}

fn bench(c: &mut Criterion) {
    let (wthor, logbook) = files();
    let mut all = wthor.clone();
    all.push(logbook.clone());
    let opts = IngestOptions::default();
    let count = |paths: &[PathBuf]| ingest(paths, &opts).unwrap().games.len() as u64;
    let mut g = c.benchmark_group("ingest");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    for (name, paths) in [
        ("wthor+logbook", all),
        ("wthor", wthor),
        ("logbook", vec![logbook]),
    ] {
        g.throughput(Throughput::Elements(count(&paths)));
        g.bench_function(name, |b| b.iter(|| ingest(&paths, &opts).unwrap()));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
