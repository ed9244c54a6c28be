//! `othbook bench --values`: how far an evaluated book's values are from better ones:
//! exact solves of its positions with few empties, searches some plies deeper than its
//! leaves on a sample of the earlier ones, and whether the book's best move is the better
//! search's best.
//!
//! The samples are stratified (one group per empty count near the end, one per band of
//! plies before) and chosen by a seeded hash of each position's key, so a seed picks the
//! same positions on any machine. Each position is searched on one thread from a cleared
//! table, as `book evaluate` searches its leaves, so the figures do not depend on the
//! thread count. Whole-book figures weigh each group by the positions it holds.

use super::bench_values_report::{tally, Group, Job, Outcome, Reference, Settings, ValuesReport};
use super::common::bad;
use anyhow::Result;
use othbook::board::{Bitboard, Board, Move};
use othbook::book::key::{equivalent_moves, stable_hash, Key};
use othbook::book::{board_of, Book, Leaf, Score, ValueKind};
use othbook::engine::{
    Depth, Engine, EngineOptions, HashSize, Selectivity, ThreadCount, MAX_DEPTH,
};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// Plies per band of the earlier positions.
pub const BAND: u32 = 6;

/// Options of `othbook bench --values`.
#[derive(clap::Args, Debug)]
pub struct ValuesArgs {
    /// Measure an evaluated book's values (BOOK) against exact solves and deeper searches
    /// instead of the search speed.
    #[arg(long)]
    pub values: bool,
    /// The book for --values (default: $OTHBOOK_BOOK, else books/wthor.book here, in the
    /// data folder or in the source tree).
    #[arg(requires = "values", value_name = "BOOK")]
    pub book: Option<PathBuf>,
    /// Positions solved exactly for each empty count up to --exact-empties (all of them when
    /// the book holds fewer; 0: none).
    #[arg(long, default_value_t = 50, requires = "values")]
    pub sample: usize,
    /// Earlier positions searched deeper for each band of 6 plies (0: none).
    #[arg(long, default_value_t = 10, requires = "values")]
    pub deep_sample: usize,
    /// Positions with at most this many empties are solved exactly; earlier ones are searched
    /// --deeper plies deeper than the book's leaves.
    #[arg(
        long,
        default_value_t = 24,
        value_parser = clap::value_parser!(u32).range(0..=30),
        requires = "values"
    )]
    pub exact_empties: u32,
    /// Plies beyond the book's leaf depth (its header says it) of the searches of the
    /// earlier positions.
    #[arg(
        long,
        default_value_t = 6,
        value_parser = clap::value_parser!(u32).range(1..=30),
        requires = "values"
    )]
    pub deeper: u32,
    /// Depth of the searches of the earlier positions, instead of the book's leaf depth plus
    /// --deeper: one judge for two books evaluated at different depths.
    #[arg(
        long,
        value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64),
        conflicts_with = "deeper",
        requires = "values"
    )]
    pub reference_depth: Option<u32>,
    /// Multi-ProbCut level of those searches (73, 87, 95, 98, 99 or 100; default: the one the
    /// book was evaluated at, so that only the depth differs).
    #[arg(long, value_name = "LEVEL", requires = "values")]
    pub reference_selectivity: Option<Selectivity>,
    /// Seed of the samples: the same seed picks the same positions.
    #[arg(long, default_value_t = 1, requires = "values")]
    pub seed: u64,
}

/// The rank of `key` in the sample of `seed`: a stable hash, the same on every machine.
fn rank(key: Key, seed: u64) -> u64 {
    let salt = stable_hash(Key {
        player: seed,
        opponent: !seed,
    });
    stable_hash(Key {
        player: key.player,
        opponent: key.opponent ^ salt,
    })
}

/// Whether a position's value can be measured: a disc count (not a win/draw/loss solve's
/// sign alone) of a position where someone can still move.
fn measurable(board: &Board, value: Option<Score>) -> Option<Score> {
    let v = value?;
    let over = !board.has_moves() && !board.pass().has_moves();
    (v.kind != ValueKind::Wld && !over).then_some(v)
}

/// The groups of the book's measurable positions and the sampled positions of each: the
/// bands of earlier positions, then the empty counts solved exactly, both from the start.
pub fn plan(book: &Book, args: &ValuesArgs) -> Result<(Vec<Group>, Vec<Job>)> {
    let data = book.to_data()?;
    // (false, band) for the earlier positions, (true, ply) for those solved exactly.
    let mut members: std::collections::BTreeMap<(bool, u32), Vec<Key>> = Default::default();
    for p in &data.positions {
        let board = board_of(p.key);
        if measurable(&board, p.eval.value).is_none() {
            continue;
        }
        let ply = 60 - board.empty_count();
        let id = if board.empty_count() <= args.exact_empties {
            (true, ply)
        } else {
            (false, ply / BAND)
        };
        members.entry(id).or_default().push(p.key);
    }
    let mut groups = Vec::new();
    let mut jobs = Vec::new();
    for ((exact, n), mut keys) in members {
        let (group, take) = if exact {
            (Group::empties(60 - n, keys.len() as u64), args.sample)
        } else {
            let deepest = keys.iter().map(|&k| 60 - board_of(k).empty_count()).max();
            let last = deepest.unwrap_or(BAND * n);
            let group = Group::band(BAND * n, last, keys.len() as u64);
            (group, args.deep_sample)
        };
        keys.sort_by_key(|&k| (rank(k, args.seed), k));
        for &key in keys.iter().take(take) {
            jobs.push(job(book, key, groups.len())?);
        }
        groups.push(group);
    }
    Ok((groups, jobs))
}

/// The sampled position `key` with what the book says of it.
fn job(book: &Book, key: Key, group: usize) -> Result<Job> {
    let board = board_of(key);
    let eval = book
        .evaluation(&board)?
        .ok_or_else(|| anyhow::anyhow!("a position of the book is not found in it"))?;
    let value = measurable(&board, eval.value).expect("sampled positions have a value");
    let mut book_move = None;
    if matches!(eval.leaf, Leaf::Move { .. } | Leaf::InBook) && board.legal_moves().count() >= 2 {
        // A move out of the book is the leaf's; one into it needs its position's value.
        let mut knows_all = true;
        for sq in board.legal_moves().iter() {
            let child = board.play_move(Move::Play(sq)).expect("a legal move");
            knows_all &= book.evaluation(&child)?.is_none_or(|e| e.value.is_some());
        }
        if knows_all {
            book_move = book.try_best_moves(&board)?.first().map(|m| m.mv);
        }
    }
    Ok(Job {
        key,
        group,
        book: value,
        book_move,
    })
}

/// Searches `job`'s position with a cleared table: its reference value and best move, and,
/// when the book would play another move, that move's value by the same search.
fn search(engine: &mut Engine, job: &Job, reference: &Reference) -> Result<Outcome> {
    let board = board_of(job.key);
    let limits = reference.limits(board.empty_count());
    engine.clear();
    let best = engine.analyze(&board, &limits)?;
    let mut seconds = best.elapsed.as_secs_f64();
    let mut book_move_value = None;
    if let Some(mv) = job.book_move {
        book_move_value = Some(if equivalent_moves(&board, mv).contains(&best.best_move) {
            best.score
        } else {
            let Move::Play(sq) = mv else {
                unreachable!("a position with two legal moves has no pass")
            };
            engine.clear();
            let a = engine.analyze(&board, &limits.only(Bitboard::from(sq)))?;
            seconds += a.elapsed.as_secs_f64();
            a.score
        });
    }
    Ok(Outcome {
        reference: best.score,
        exact: board.empty_count() <= reference.exact_empties,
        book_move_value,
        seconds,
    })
}

/// Searches every job on `threads` workers, each with its own engine; the outcomes in job
/// order. Progress goes to stderr.
pub fn search_all(
    jobs: &[Job],
    reference: &Reference,
    threads: ThreadCount,
) -> Result<Vec<Outcome>> {
    let outcomes: Vec<OnceLock<Outcome>> = jobs.iter().map(|_| OnceLock::new()).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads.used().min(jobs.len()).max(1) {
            scope.spawn(|| {
                let work = || -> Result<()> {
                    let mut engine = Engine::try_new(EngineOptions {
                        threads: ThreadCount::ONE,
                        hash_mb: reference.hash_mb,
                    })?;
                    while !stop.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(i) else { break };
                        let _ = outcomes[i].set(search(&mut engine, job, reference)?);
                        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                        super::bench_progress::progress("values", n, jobs.len(), start);
                    }
                    Ok(())
                };
                if let Err(e) = work() {
                    stop.store(true, Ordering::Relaxed);
                    failure
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .get_or_insert(e);
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    Ok(outcomes
        .into_iter()
        .map(|o| o.into_inner().expect("every job searched"))
        .collect())
}

/// Runs the measurement.
pub fn measure(args: &ValuesArgs, threads: ThreadCount, hash_mb: HashSize) -> Result<ValuesReport> {
    let start = Instant::now();
    let path = args
        .book
        .clone()
        .unwrap_or_else(othbook::book::default_path);
    let book = super::common::open_book(Some(&path))?;
    let info = book.info().evaluation.ok_or_else(|| {
        bad(format!(
            "{} has no values: evaluate it first (`othbook book evaluate`)",
            path.display()
        ))
    })?;
    let depth = args
        .reference_depth
        .unwrap_or(u32::from(info.depth) + args.deeper);
    let depth = match Depth::new(depth) {
        Ok(depth) => depth,
        Err(_) if depth > MAX_DEPTH => {
            return Err(bad(format!(
                "--deeper {}: the book's leaves are {} plies deep, and searches go to {MAX_DEPTH} at most",
                args.deeper, info.depth
            )))
        }
        Err(e) => return Err(e.into()),
    };
    let reference = Reference {
        exact_empties: args.exact_empties,
        depth,
        // By default the book's own selectivity, so that only the depth differs.
        selectivity: match args.reference_selectivity {
            Some(s) => s,
            None => othbook::learn::selectivity_of(&info)?,
        },
        hash_mb,
    };
    let (groups, jobs) = plan(&book, args)?;
    eprintln!(
        "{}: {} positions to search ({:.1} s)",
        path.display(),
        jobs.len(),
        start.elapsed().as_secs_f64()
    );
    let outcomes = search_all(&jobs, &reference, threads)?;
    let settings = Settings::new(
        path.display().to_string(),
        &info,
        &reference,
        (args.sample, args.deep_sample),
        args.seed,
        threads.used(),
    );
    Ok(tally(
        settings,
        groups,
        &jobs,
        &outcomes,
        start.elapsed().as_secs_f64(),
    ))
}

/// `othbook bench --values`.
pub fn run(
    args: &ValuesArgs,
    threads: ThreadCount,
    hash_mb: HashSize,
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let report = measure(args, threads, hash_mb)?;
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        report.write_table(out)?;
    }
    Ok(())
}
